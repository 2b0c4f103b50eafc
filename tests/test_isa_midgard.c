/*
 * test_isa_midgard.c - isa/midgard.xml against the hand-written reference
 * codec (src/ref/midgard.c), which reads no XML:
 *
 *  - golden bundles hand-assembled from ../shared/facts/ISA-FACTS.md
 *    section 2, words written out here: an atan sequence, a writeout, a
 *    conditional branch, embedded constants with an inline immediate, a
 *    load/store and a texture bundle.  The reference codec must pack them
 *    to these words and unpack them back; the spec codec must decode every
 *    part to the leaves and (for ALU parts) the text written here;
 *  - agreement on random valid bundles from the reference generator: for
 *    every part the reference unpacker locates, the spec codec decodes the
 *    part's bits at the matching root with no issue, to the leaf of the
 *    reference opcode, with every field equal to the reference struct's
 *    value, and encodes the values back to the same bits.  Inline
 *    immediates are joined from the register word's IMM_HI and the unit's
 *    IMM_LO and compared with the reference's join;
 *  - the reference codec's errors on bad input (truncation, bad tags,
 *    overflowing enables, padding, out-of-range values).
 *
 * ISACHECK_MIDGARD_BUNDLES overrides the number of random bundles.
 */
#include "codec.h"
#include "midgard.h"
#include "refmap_midgard.h"
#include "spec.h"
#include "testlib.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

typedef struct fixture {
	spec_model *m;
	codec *c;
	const spec_root *root[MIDGARD_ROOT_COUNT];
	size_t root_index[MIDGARD_ROOT_COUNT];
} fixture;

static void fixture_free(fixture *f)
{
	codec_free(f->c);
	spec_model_free(f->m);
}

/* Loads isa/midgard.xml and finds its roots; false, with nothing left to
 * free, when that failed. */
static bool fixture_load(fixture *f)
{
	spec_diags d = {0};
	memset(f, 0, sizeof *f);
	f->m = spec_load(ISACHECK_SOURCE_DIR "/isa/midgard.xml", &d);
	CHECK(f->m != NULL);
	for (size_t i = 0; i < d.count; i++)
		fprintf(stderr, "%s:%u: %s\n", d.items[i].loc.file, d.items[i].loc.line,
		        d.items[i].message);
	CHECK_INT(d.count, 0);
	if (f->m)
		f->c = codec_new(f->m, &d);
	spec_diags_free(&d);
	bool ok = f->c != NULL;
	for (int r = 0; ok && r < MIDGARD_ROOT_COUNT; r++) {
		f->root[r] = spec_find_root(f->m, refmap_midgard_root_names[r]);
		CHECK(f->root[r] != NULL);
		ok = f->root[r] != NULL;
		if (ok)
			f->root_index[r] = (size_t)(f->root[r] - f->m->roots);
	}
	if (!ok)
		fixture_free(f);
	return ok;
}

typedef struct tally {
	unsigned long parts[MIDGARD_ROOT_COUNT];
	unsigned long fields, encoded, imm_joined;
	unsigned long mismatches; /* reported to stderr, at most a few */
	bool quiet;               /* expected mismatches: count, do not print */
} tally;

static void mismatch(tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void mismatch(tally *t, const char *fmt, ...)
{
	t->mismatches++;
	if (t->mismatches <= 10 && !t->quiet) {
		va_list ap;
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

/* Decodes one part with the spec codec and holds it to the reference.
 * imm_hi/imm_lo collect the joined immediate per unit. */
static void compare_part(const fixture *f, const uint32_t *words, const refmap_midgard_part *pr,
                         tally *t, int64_t *imm_hi, int64_t *imm_lo)
{
	unsigned off = pr->p ? pr->p->offset : 0, bits = pr->p ? pr->p->bits : 8;
	uint64_t w[2], back[2] = {0, 0};
	codec_value vals[128];
	codec_issue issues[8];
	codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = issues,
	                   .cap_issues = N(issues)};
	char want[64], err[160];

	refmap_midgard_extract(words, off, bits, w);
	CHECK(codec_decode(f->c, f->root[pr->root], w, 0, &d) || d.nissues);
	t->parts[pr->root]++;
	if (d.nissues) {
		mismatch(t, "%s: decode issue: %s", refmap_midgard_root_names[pr->root], issues[0].text);
		return;
	}
	refmap_midgard_expected_leaf(pr, false, want, sizeof want);
	if (!d.leaf || strcmp(d.leaf->name, want)) {
		mismatch(t, "leaf %s, expected %s", d.leaf ? d.leaf->name : "(none)", want);
		return;
	}
	const char *word = NULL;
	for (size_t i = 0; i < d.nvalues; i++) {
		const codec_value *cv = &vals[i];
		if (cv->field->kind == SPEC_ASSERT)
			continue;
		if (cv->depth == 0)
			word = cv->sub ? cv->field->name : NULL;
		if (cv->depth == 0 && cv->sub && pr->root == MIDGARD_ROOT_LDST) {
			const midgard_ldst_op *l = &pr->b->u.ldst.op[strcmp(cv->field->name, "WORD1") ? 1 : 0];
			if (strcmp(cv->sub->name, refmap_midgard_ldst_leaf(l)))
				mismatch(t, "load/store leaf %s, expected %s", cv->sub->name,
				         refmap_midgard_ldst_leaf(l));
		}
		int64_t v;
		if (!refmap_midgard_expect(pr, cv->depth ? word : NULL, cv->field->name, &v)) {
			mismatch(t, "%s: field %s has no reference value", refmap_midgard_root_names[pr->root],
			         cv->field->name);
			continue;
		}
		t->fields++;
		if (v != cv->value)
			mismatch(t, "%s.%s = %lld, reference %lld", refmap_midgard_root_names[pr->root],
			         cv->field->name, (long long)cv->value, (long long)v);
		if (pr->p && pr->p->unit >= 0 && !strcmp(cv->field->name, "IMM_HI"))
			imm_hi[pr->p->unit] = cv->value;
		if (pr->p && pr->p->unit >= 0 && !strcmp(cv->field->name, "IMM_LO"))
			imm_lo[pr->p->unit] = cv->value;
	}
	if (!codec_encode(f->c, &d, back, err, sizeof err)) {
		mismatch(t, "%s: encode failed: %s", refmap_midgard_root_names[pr->root], err);
		return;
	}
	if (back[0] != w[0] || back[1] != w[1])
		mismatch(t, "%s: encodes back to %016llx, not %016llx", refmap_midgard_root_names[pr->root],
		         (unsigned long long)back[0], (unsigned long long)w[0]);
	else
		t->encoded++;
}

/* Every part of an unpacked bundle, and its tag byte. */
static void compare_bundle(const fixture *f, const uint32_t *words, const midgard_bundle *b,
                           tally *t)
{
	int64_t imm_hi[MIDGARD_UNITS] = {0}, imm_lo[MIDGARD_UNITS] = {0};
	refmap_midgard_part pr = {b, NULL, MIDGARD_ROOT_TAG};
	compare_part(f, words, &pr, t, imm_hi, imm_lo);
	for (unsigned i = 0; i < b->nparts; i++) {
		int r = refmap_midgard_part_root(&b->parts[i]);
		if (r < 0)
			continue;
		pr = (refmap_midgard_part){b, &b->parts[i], r};
		compare_part(f, words, &pr, t, imm_hi, imm_lo);
	}
	if (b->kind != MIDGARD_KIND_ALU)
		return;
	for (unsigned u = 0; u < MIDGARD_UNITS; u++) {
		const midgard_alu_unit *un = &b->u.alu.unit[u];
		if (!un->enabled || !un->reg.src2_imm)
			continue;
		/* The inline immediate, joined from two roots' fields. */
		int64_t joined = imm_hi[u] | imm_lo[u];
		if (joined != midgard_unit_imm(un, (midgard_unit)u))
			mismatch(t, "%s: joined immediate %lld, reference %d", midgard_unit_name(u),
			         (long long)joined, midgard_unit_imm(un, (midgard_unit)u));
		else
			t->imm_joined++;
	}
}

/* --------------------------------------------------------------- golden */

typedef struct golden {
	const char *what;
	uint32_t words[8];
	unsigned nwords;
	const char *texts[6]; /* ALU parts in bundle order (control word first) */
} golden;

/* Hand-assembled from the facts (bit positions of ISA-FACTS.md 2.2-2.4). */
static const golden goldens[] = {
	/* atan: the two VLUT halves of an arctangent, the first feeding the
	 * second: FATAN2_PT1 r0.x <- r1.x, r1.y; FATAN2_PT2 r0.x <- r0.x, r1.x. */
	{"atan part 1", {0x02000088, 0x02f90021, 0x03255000, 0x00000000}, 4,
	 {"alu4 next:alu4 vlut", "r0, r1, r1", "FATAN2_PT1.f32 mask:3, .xxxx, .yyyy"}},
	{"atan part 2", {0x02000018, 0x02e80020, 0x03200000, 0x00000000}, 4,
	 {"alu4 next:break vlut", "r0, r0, r1", "FATAN2_PT2.f32 mask:3, .xxxx, .xxxx"}},
	/* writeout: VMUL FMOV r0 <- r5 (fmov reads src2; src1 is r24), then a
	 * compact writeout branching to its own bundle until it completes. */
	{"writeout", {0x0402001c, 0x023000b8, 0xff2e4072, 0x0000ffe7}, 4,
	 {"alu4-writeout next:break vmul br-compact", "r0, r24, r5",
	  "FMOV.f32 mask:ff, .xyzw, .xyzw", "WRITEOUT -1 -> alu4-writeout"}},
	/* conditional branch: SMUL FCMP.lt r31.w <- r2.x, r3.y (an integer
	 * result: output modifier keeplo), and a compact branch back three
	 * quadwords when r31.w is true. */
	{"conditional branch", {0x04800058, 0x04827c62, 0xbec2d805, 0x00000000}, 4,
	 {"alu4 next:load-store smul br-compact", "r31, r2, r3", "FCMP.lt.i32 .w, .x, .y",
	  "BR.true -3 -> alu4"}},
	/* VADD FADD.f16 r0 <- r26 (the embedded constants), #0x3c00 (1.0 as a
	 * half): two quadwords, the second the constants 1.0, 2.0, 3.0, 4.0. */
	{"embedded constant and inline immediate",
	 {0x00200019, 0x011080fa, 0xff200872, 0x00000000, 0x3f800000, 0x40000000, 0x40400000,
	  0x40800000},
	 8,
	 {"alu8 next:break vadd", "r0, r26, #0x3800+lo", "FADD.f16 mask:ff, .xyzw, .xxxx.expand_low"}},
	/* LD_UBO.128 r0.xyzw, UBO offset 4 (index register zero), nop. */
	{"load/store", {0xc9e0b085, 0x00103801, 0x00000030, 0x00000000}, 4, {NULL}},
	/* TEX.2d.f32 r28.xyzw <- r28.xyzw, texture 0, sampler 0. */
	{"texture", {0x210b1113, 0x00e43c67, 0x00000000, 0x00000000}, 4, {NULL}},
};

/* The structs the goldens are assembled from, built through the API. */
static void golden_struct(size_t i, midgard_bundle *b)
{
	memset(b, 0, sizeof *b);
	b->kind = MIDGARD_KIND_ALU;
	midgard_alu_bundle *a = &b->u.alu;
	midgard_alu_unit *u;
	switch (i) {
	case 0:
	case 1:
		b->tag = MIDGARD_TAG_ALU4;
		b->next_tag = i == 0 ? MIDGARD_TAG_ALU4 : MIDGARD_TAG_BREAK;
		u = &a->unit[MIDGARD_UNIT_VLUT];
		u->enabled = true;
		u->reg = (midgard_reg_word){i == 0 ? 1 : 0, 1, 0, false};
		u->vec.op = i == 0 ? 0xF9 : 0xE8;
		u->vec.reg_mode = 2;
		u->vec.src2.swizzle = i == 0 ? 0x55 : 0x00;
		u->vec.shrink_mode = 2;
		u->vec.mask = 0x03;
		break;
	case 2:
		b->tag = MIDGARD_TAG_ALU4_WRITEOUT;
		b->next_tag = MIDGARD_TAG_BREAK;
		u = &a->unit[MIDGARD_UNIT_VMUL];
		u->enabled = true;
		u->reg = (midgard_reg_word){24, 5, 0, false};
		u->vec = (midgard_vector_alu){0x30, 2, {0, 0, 0xE4}, {0, 0, 0xE4}, 2, 0, 0xFF};
		a->has_compact = true;
		a->compact = (midgard_branch_compact){7, MIDGARD_TAG_ALU4_WRITEOUT, 0, -1, 3};
		break;
	case 3:
		b->tag = MIDGARD_TAG_ALU4;
		b->next_tag = MIDGARD_TAG_LOAD_STORE;
		u = &a->unit[MIDGARD_UNIT_SMUL];
		u->enabled = true;
		u->reg = (midgard_reg_word){2, 3, 31, false};
		u->sca.op = 0x82;
		u->sca.src1 = (midgard_scalar_src){0, true, 0};
		u->sca.src2 = (midgard_scalar_src){0, true, 2};
		u->sca.outmod = 2; /* keeplo */
		u->sca.output_full = true;
		u->sca.output_component = 6;
		a->has_compact = true;
		a->compact = (midgard_branch_compact){2, MIDGARD_TAG_ALU4, 0, -3, 2};
		break;
	case 4:
		b->tag = MIDGARD_TAG_ALU4 + 1;
		b->next_tag = MIDGARD_TAG_BREAK;
		u = &a->unit[MIDGARD_UNIT_VADD];
		u->enabled = true;
		u->reg = (midgard_reg_word){26, 0, 0, false};
		u->vec = (midgard_vector_alu){0x10, 1, {0, 0, 0xE4}, {0, 0, 0}, 2, 0, 0xFF};
		midgard_unit_set_imm(u, MIDGARD_UNIT_VADD, 0x3C00);
		a->has_constants = true;
		a->constants[0] = 0x3f800000;
		a->constants[1] = 0x40000000;
		a->constants[2] = 0x40400000;
		a->constants[3] = 0x40800000;
		break;
	case 5:
		b->kind = MIDGARD_KIND_LOAD_STORE;
		b->tag = MIDGARD_TAG_LOAD_STORE;
		b->next_tag = MIDGARD_TAG_ALU4;
		b->u.ldst.op[0] = (midgard_ldst_op){.op = 0xB0, .mask = 0xF, .swizzle = 0xE4,
		                                    .index_reg = 7, .offset = 4};
		b->u.ldst.op[1].op = MIDGARD_LDST_NOOP;
		break;
	case 6:
		b->kind = MIDGARD_KIND_TEXTURE;
		b->tag = MIDGARD_TAG_TEXTURE;
		b->next_tag = MIDGARD_TAG_BREAK;
		b->u.tex = (midgard_texture_bundle){.op = 1, .mode = 1, .exec = 3, .format = 2,
		                                    .in_full = true, .in_swizzle = 0xE4,
		                                    .out_full = true, .sampler_type = 1,
		                                    .mask = 0xF, .swizzle = 0xE4};
		break;
	}
}

TEST(golden_bundles)
{
	fixture f;
	if (!fixture_load(&f))
		return;
	for (size_t i = 0; i < N(goldens); i++) {
		const golden *g = &goldens[i];
		midgard_bundle b, u;
		uint32_t w[MIDGARD_MAX_WORDS];
		golden_struct(i, &b);
		/* The reference packs the struct to the hand-assembled words... */
		CHECK_INT(midgard_pack(&b, w, N(w)), MIDGARD_OK);
		CHECK_INT(b.nwords, g->nwords);
		for (unsigned k = 0; k < g->nwords; k++)
			if (w[k] != g->words[k]) {
				fprintf(stderr, "%s: word %u is %08x, hand-assembled %08x\n", g->what, k,
				        (unsigned)w[k], (unsigned)g->words[k]);
				CHECK(0);
			}
		/* ...and unpacks the words to the same bundle. */
		CHECK_INT(midgard_unpack(g->words, g->nwords, &u), MIDGARD_OK);
		CHECK_INT(u.nwords, g->nwords);
		CHECK_INT(u.nparts, b.nparts);
		uint32_t again[MIDGARD_MAX_WORDS];
		CHECK_INT(midgard_pack(&u, again, N(again)), MIDGARD_OK);
		CHECK(!memcmp(again, g->words, g->nwords * sizeof *again));

		/* The spec codec agrees part by part... */
		tally t = {0};
		compare_bundle(&f, g->words, &u, &t);
		CHECK_INT(t.mismatches, 0);

		/* ...and prints each ALU part as written here. */
		unsigned nt = 0;
		for (unsigned p = 0; p < u.nparts && g->texts[0]; p++) {
			int r = refmap_midgard_part_root(&u.parts[p]);
			if (r < 0)
				continue;
			uint64_t bits[2];
			char buf[512];
			refmap_midgard_extract(g->words, u.parts[p].offset, u.parts[p].bits, bits);
			/* with errors shown: any issue would show in the text */
			codec_disasm_options opt = {.show_errors = true};
			codec_disasm_root(f.c, &f.m->roots[f.root_index[r]], bits, &opt, buf, sizeof buf);
			CHECK(nt < N(g->texts) && g->texts[nt]);
			if (nt < N(g->texts) && g->texts[nt])
				CHECK_STR(buf, g->texts[nt]);
			nt++;
		}
	}
	/* The immediate of the constant bundle, joined by the reference. */
	midgard_bundle u;
	CHECK_INT(midgard_unpack(goldens[4].words, 8, &u), MIDGARD_OK);
	CHECK_INT(midgard_unit_imm(&u.u.alu.unit[MIDGARD_UNIT_VADD], MIDGARD_UNIT_VADD), 0x3C00);
	CHECK(u.u.alu.has_constants);
	CHECK_INT(u.u.alu.constants[3], 0x40800000);
	CHECK_INT(u.parts[u.nparts - 1].kind, MIDGARD_PART_CONSTANTS);
	CHECK_INT(u.parts[u.nparts - 1].offset, 128);
	/* The atan pair chains through the next-tag field. */
	CHECK_INT(goldens[0].words[0] >> 4 & 0xF, goldens[1].words[0] & 0xF);
	fixture_free(&f);
}

/* ---------------------------------------------------------------- random */

TEST(random_bundles_agree)
{
	fixture f;
	if (!fixture_load(&f))
		return;
	unsigned long n = 100000;
	const char *env = getenv("ISACHECK_MIDGARD_BUNDLES");
	if (env && *env)
		n = strtoul(env, NULL, 10);
	midgard_rng rng;
	midgard_rng_seed(&rng, 0x4d49444741524400ull); /* "MIDGARD" */
	tally t = {0};
	unsigned long kinds[3] = {0}, ref_fail = 0, imm_units = 0, with_constants = 0;
	for (unsigned long i = 0; i < n; i++) {
		midgard_bundle b, u;
		uint32_t w[MIDGARD_MAX_WORDS], again[MIDGARD_MAX_WORDS];
		midgard_random_bundle(&rng, &b);
		midgard_status st = midgard_pack(&b, w, N(w));
		if (st != MIDGARD_OK || midgard_unpack(w, b.nwords, &u) != MIDGARD_OK ||
		    u.nwords != b.nwords || midgard_pack(&u, again, N(again)) != MIDGARD_OK ||
		    memcmp(w, again, b.nwords * sizeof *w)) {
			if (++ref_fail <= 5)
				fprintf(stderr, "bundle %lu: reference round trip failed (%s)\n", i,
				        midgard_status_text(st));
			continue;
		}
		kinds[u.kind]++;
		if (u.kind == MIDGARD_KIND_ALU) {
			with_constants += u.u.alu.has_constants;
			for (unsigned k = 0; k < MIDGARD_UNITS; k++)
				imm_units += u.u.alu.unit[k].enabled && u.u.alu.unit[k].reg.src2_imm;
		}
		compare_bundle(&f, w, &u, &t);
	}
	CHECK_INT(ref_fail, 0);
	CHECK_INT(t.mismatches, 0);
	CHECK_INT(t.imm_joined, imm_units);
	unsigned long parts = 0;
	for (int r = 0; r < MIDGARD_ROOT_COUNT; r++)
		parts += t.parts[r];
	CHECK_INT(t.encoded, parts);
	printf("%lu random bundles (%lu ALU, %lu with constants; %lu load/store; %lu texture): "
	       "%lu parts, %lu field values, %lu joined immediates agree; %lu parts encode back\n",
	       n, kinds[MIDGARD_KIND_ALU], with_constants, kinds[MIDGARD_KIND_LOAD_STORE],
	       kinds[MIDGARD_KIND_TEXTURE], parts, t.fields, t.imm_joined, t.encoded);
	for (int r = 0; r < MIDGARD_ROOT_COUNT; r++)
		printf("  %-17s %lu\n", refmap_midgard_root_names[r], t.parts[r]);
	/* Every root and kind was exercised. */
	for (int r = 0; r < MIDGARD_ROOT_COUNT && n >= 1000; r++)
		CHECK(t.parts[r] > 0);
	fixture_free(&f);
}

/* A corrupted field must show up as a disagreement: the comparison can fail. */
TEST(disagreement_is_seen)
{
	fixture f;
	if (!fixture_load(&f))
		return;
	midgard_bundle b, u;
	uint32_t w[MIDGARD_MAX_WORDS];
	golden_struct(3, &b);
	CHECK_INT(midgard_pack(&b, w, N(w)), MIDGARD_OK);
	CHECK_INT(midgard_unpack(w, b.nwords, &u), MIDGARD_OK);
	u.u.alu.unit[MIDGARD_UNIT_SMUL].sca.output_component = 4; /* the struct lies */
	u.u.alu.compact.offset = 5;
	tally t = {.quiet = true};
	compare_bundle(&f, w, &u, &t);
	CHECK_INT(t.mismatches, 3); /* OUTPUT_COMPONENT, OUTPUT_LANE, OFFSET */
	/* An opcode the spec has no leaf for: freduce runs on no unit. */
	u = b;
	u.u.alu.unit[MIDGARD_UNIT_SMUL].sca.op = 0x3F;
	CHECK_INT(midgard_pack(&u, w, N(w)), MIDGARD_OK);
	t = (tally){.quiet = true};
	compare_bundle(&f, w, &u, &t);
	CHECK(t.mismatches > 0);
	fixture_free(&f);
}

/* ---------------------------------------------------------------- errors */

TEST(reference_errors)
{
	midgard_bundle b;
	uint32_t w[MIDGARD_MAX_WORDS] = {0};
	CHECK_INT(midgard_unpack(w, 0, &b), MIDGARD_ERR_TRUNCATED);
	for (unsigned tag = 0; tag < 16; tag++) {
		w[0] = tag;
		midgard_status st = midgard_unpack(w, 16, &b);
		if (tag < 2 || tag == 6 || tag == 7)
			CHECK_INT(st, MIDGARD_ERR_TAG);
		else if (tag == 0xA || tag == 0xB || tag == 0xE || tag == 0xF)
			CHECK_INT(st, MIDGARD_ERR_SIZE); /* a lone control word in 3-4 quadwords */
		else
			CHECK_INT(st, MIDGARD_OK);
	}
	/* alu8 cut after its first quadword */
	memcpy(w, goldens[4].words, sizeof goldens[4].words);
	CHECK_INT(midgard_unpack(w, 4, &b), MIDGARD_ERR_TRUNCATED);
	CHECK_INT(midgard_unpack(w, 7, &b), MIDGARD_ERR_TRUNCATED);
	CHECK_INT(midgard_unpack(w, 8, &b), MIDGARD_OK);
	/* every unit and both branches enabled need three quadwords: alu4 is short */
	memset(w, 0, sizeof w);
	w[0] = 0x8 | 0x0EAA0000u;
	CHECK_INT(midgard_unpack(w, 16, &b), MIDGARD_ERR_OVERFLOW);
	w[0] = 0xA | 0x0EAA0000u;
	CHECK_INT(midgard_unpack(w, 16, &b), MIDGARD_OK);
	CHECK_INT(b.nparts, 13);
	w[0] = 0xB | 0x0EAA0000u; /* one more quadword: the constants */
	CHECK_INT(midgard_unpack(w, 16, &b), MIDGARD_OK);
	CHECK(b.u.alu.has_constants);
	w[0] = 0xB | (1u << 17); /* 80 bits of parts in four quadwords: two too many */
	CHECK_INT(midgard_unpack(w, 16, &b), MIDGARD_ERR_SIZE);
	/* a padding bit */
	memcpy(w, goldens[0].words, 16);
	w[3] |= 1u << 31;
	CHECK_INT(midgard_unpack(w, 4, &b), MIDGARD_ERR_PADDING);
	/* a barrier with a must-be-zero bit */
	memset(w, 0, sizeof w);
	w[0] = 0x4 | 11u << 8;
	CHECK_INT(midgard_unpack(w, 4, &b), MIDGARD_OK);
	CHECK(b.u.tex.barrier);
	w[2] = 1;
	CHECK_INT(midgard_unpack(w, 4, &b), MIDGARD_ERR_PADDING);
	/* packing: values too wide, a tag of the wrong size or kind */
	golden_struct(3, &b);
	b.u.alu.compact.offset = 64;
	CHECK_INT(midgard_pack(&b, w, N(w)), MIDGARD_ERR_RANGE);
	golden_struct(3, &b);
	b.u.alu.unit[MIDGARD_UNIT_SMUL].reg.out_reg = 32;
	CHECK_INT(midgard_pack(&b, w, N(w)), MIDGARD_ERR_RANGE);
	golden_struct(3, &b);
	b.tag = MIDGARD_TAG_ALU4 + 1;
	CHECK_INT(midgard_pack(&b, w, N(w)), MIDGARD_ERR_SIZE);
	golden_struct(3, &b);
	b.tag = MIDGARD_TAG_LOAD_STORE;
	CHECK_INT(midgard_pack(&b, w, N(w)), MIDGARD_ERR_KIND);
	golden_struct(4, &b);
	CHECK_INT(midgard_pack(&b, w, 4), MIDGARD_ERR_TRUNCATED);
	CHECK(strlen(midgard_status_text(MIDGARD_ERR_PADDING)) > 0);
	/* the tag table */
	CHECK_INT(midgard_tag_quadwords(0xB), 4);
	CHECK_INT(midgard_tag_quadwords(0xE), 3);
	CHECK_INT(midgard_tag_quadwords(0x1), 0);
	/* the generator is seeded: equal seeds, equal bundles */
	midgard_rng r1, r2;
	midgard_rng_seed(&r1, 7);
	midgard_rng_seed(&r2, 7);
	for (int i = 0; i < 100; i++) {
		midgard_bundle x, y;
		uint32_t wx[MIDGARD_MAX_WORDS], wy[MIDGARD_MAX_WORDS];
		midgard_random_bundle(&r1, &x);
		midgard_random_bundle(&r2, &y);
		CHECK_INT(midgard_pack(&x, wx, N(wx)), MIDGARD_OK);
		CHECK_INT(midgard_pack(&y, wy, N(wy)), MIDGARD_OK);
		CHECK(x.nwords == y.nwords && !memcmp(wx, wy, x.nwords * sizeof *wx));
	}
}

int main(void)
{
	RUN(golden_bundles);
	RUN(random_bundles_agree);
	RUN(disagreement_is_seen);
	RUN(reference_errors);
	return testlib_finish();
}
