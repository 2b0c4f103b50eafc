/*
 * diff_midgard.c - fuzz target diff_midgard: isa/midgard.xml through the
 * spec codec against the hand-written reference codec (src/ref/midgard.h),
 * which reads no XML, both directions, bundle by bundle.
 *
 * Input: byte 0 chooses where the bundles come from (bits 0-1):
 *
 *   0  the reference's random bundle generator, seeded with bytes 1-8
 *      (little-endian): 1 + (byte 0 >> 2) % 4 valid bundles, packed;
 *   1  bytes 1... as little-endian 32-bit words, cut into bundles by the
 *      reference (midgard_unpack) until one does not unpack;
 *   2  one generated bundle (seed: bytes 1-8) with bytes 9... XORed into
 *      its words: a valid bundle with some bits changed;
 *   3  as 1.
 *
 * For each bundle:
 *
 *  framing  the spec's <program> walked over the bundle's words frames it
 *           as the reference does: when the reference unpacks it, the
 *           walk has no error and its parts and data lie where the
 *           reference's parts lie, at the matching roots; when the
 *           reference rejects it, the walk reports an error (a fatal one,
 *           non-zero padding, or a part that does not decode).  Tags 6
 *           and 7 are the documented difference: the spec frames them as
 *           one quadword of unknown data, the reference rejects them;
 *  decode   every part the reference locates (and the tag byte at #tag)
 *           decodes with the spec codec at its root to the leaf of the
 *           reference's opcode, or to none when the reference's tables
 *           name no such opcode (for the root's kind of unit), with no
 *           issue but set don't-care bits and unnamed enum values, and
 *           every field value equals the reference struct's;
 *  encode   the reference packs what it unpacked back to the words, and
 *           codec_encode of each part's decoding equals the part's bits
 *           of the reference's canonical packing: its reserved and
 *           unknown members 0, and a load/store no-op's operands 0 (the
 *           reference keeps them; nothing reads them, the spec calls
 *           them don't-care).
 *
 * The field mapping is fuzz/refmap_midgard.c, shared with
 * tests/test_isa_midgard.c.
 */
#include "fuzz.h"
#include "midgard.h"
#include "refmap_midgard.h"

#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))


static fuzz_spec spec;
static const spec_root *roots[MIDGARD_ROOT_COUNT];
static const spec_program *program;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	int rc = fuzz_spec_load(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	for (int r = 0; !rc && r < MIDGARD_ROOT_COUNT; r++)
		if (!(roots[r] = spec_find_root(spec.m, refmap_midgard_root_names[r]))) {
			fprintf(stderr, "fuzz: %s: no root %s\n", spec.path, refmap_midgard_root_names[r]);
			rc = 2;
		}
	if (!rc && !(program = spec_find_program(spec.m, NULL))) {
		fprintf(stderr, "fuzz: %s: no <program>\n", spec.path);
		rc = 2;
	}
	if (rc)
		exit(rc);
	return 0;
}


/* ------------------------------------------------------------- reporting */

typedef struct input {
	const uint8_t *data;
	size_t size;
} input;

/* A finding on one part: the spec's decoding against the reference's
 * struct, read through the spec's field names. */
static void part_finding(const input *in, const refmap_midgard_part *pr, const char *what,
                         const uint64_t *w, const codec_decoded *d, const uint64_t *w2,
                         const char *label2)
{
	static char ls[4096], rs[4096];
	char text[1024], want[64];
	fuzz_spec view = fuzz_spec_view(&spec, roots[pr->root]);
	codec_disasm_options opt = {.show_errors = true};
	codec_disasm_root(spec.c, roots[pr->root], w, &opt, text, sizeof text);
	refmap_midgard_expected_leaf(pr, true, want, sizeof want);
	ls[0] = rs[0] = 0;
	fuzz_appendf(ls, sizeof ls, "leaf = %s\n", d && d->leaf ? d->leaf->name : "(none)");
	fuzz_appendf(rs, sizeof rs, "leaf = %s\n", *want ? want : "(an opcode the tables do not name)");
	const char *word = NULL;
	for (size_t i = 0; d && i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		if (v->field->kind == SPEC_ASSERT)
			continue;
		if (v->depth == 0)
			word = v->sub ? v->field->name : NULL;
		int64_t e;
		fuzz_appendf(ls, sizeof ls, "%s = %lld\n", v->field->name, (long long)v->value);
		if (refmap_midgard_expect(pr, v->depth ? word : NULL, v->field->name, &e))
			fuzz_appendf(rs, sizeof rs, "%s = %lld\n", v->field->name, (long long)e);
		else
			fuzz_appendf(rs, sizeof rs, "%s: none\n", v->field->name);
	}
	char full[600];
	snprintf(full, sizeof full, "%s %s (bits %u..%u of the bundle): %s",
	         refmap_midgard_root_names[pr->root], pr->p ? "part" : "tag byte", pr->p ? pr->p->offset : 0,
	         pr->p ? pr->p->offset + pr->p->bits - 1 : 7, what);
	fuzz_finding_lines(FUZZ_TARGET, &view, in->data, in->size, 0, full,
	                   &(fuzz_side){"spec", w, d, text},
	                   &(fuzz_side){label2, w2, NULL, "unpacked"}, ls, rs);
}

/* --------------------------------------------------------------- a part */

static bool bad_issue(const codec_decoded *d, const codec_issue **which)
{
	for (size_t i = 0; i < d->nissues; i++)
		if (d->issues[i].kind != CODEC_DONTCARE_SET &&
		    d->issues[i].kind != CODEC_ENUM_MISSING) {
			*which = &d->issues[i];
			return true;
		}
	return false;
}

/* One part: decode and compare (1), encode and compare with the
 * reference's canonical packing (2). */
static void compare_part(const input *in, const uint32_t *words, const uint32_t *canon,
                         const refmap_midgard_part *pr)
{
	static fuzz_decoding x;
	unsigned off = pr->p ? pr->p->offset : 0, bits = pr->p ? pr->p->bits : 8;
	uint64_t w[2], want_w[2], back[2] = {0, 0};
	char want[64], what[400], err[200];
	refmap_midgard_extract(words, off, bits, w);
	refmap_midgard_extract(canon, off, bits, want_w);
	fuzz_decoding_reset(&x);
	codec_decode(spec.c, roots[pr->root], w, 0, &x.d);
	fuzz_spec_coverage(&x.d);
	refmap_midgard_expected_leaf(pr, true, want, sizeof want);
	const codec_issue *issue = NULL;
	bool spec_valid = x.d.leaf && !bad_issue(&x.d, &issue);
	if (!*want) {
		/* the reference names no such opcode: the spec must not either */
		if (spec_valid) {
			snprintf(what, sizeof what, "the spec decodes %s, the reference's tables name no "
			         "such opcode", x.d.leaf->name);
			part_finding(in, pr, what, w, &x.d, w, "reference");
		}
		return;
	}
	if (!spec_valid) {
		snprintf(what, sizeof what, "the reference decodes %s, the spec %s%s", want,
		         x.d.leaf ? "with an issue: " : "matches nothing", issue ? issue->text : "");
		part_finding(in, pr, what, w, &x.d, w, "reference");
		return;
	}
	if (strcmp(x.d.leaf->name, want)) {
		snprintf(what, sizeof what, "leaf %s, the reference's opcode is %s", x.d.leaf->name,
		         want);
		part_finding(in, pr, what, w, &x.d, w, "reference");
		return;
	}
	const char *word = NULL;
	for (size_t i = 0; i < x.d.nvalues; i++) {
		const codec_value *cv = &x.d.values[i];
		if (cv->field->kind == SPEC_ASSERT)
			continue;
		if (cv->depth == 0)
			word = cv->sub ? cv->field->name : NULL;
		if (cv->depth == 0 && cv->sub && pr->root == MIDGARD_ROOT_LDST) {
			const midgard_ldst_op *l =
				&pr->b->u.ldst.op[strcmp(cv->field->name, "WORD1") ? 1 : 0];
			if (strcmp(cv->sub->name, refmap_midgard_ldst_leaf(l))) {
				snprintf(what, sizeof what, "%s is %s, the reference's opcode 0x%02x is %s",
				         cv->field->name, cv->sub->name, l->op,
				         *refmap_midgard_ldst_leaf(l) ? refmap_midgard_ldst_leaf(l) : "unnamed");
				part_finding(in, pr, what, w, &x.d, w, "reference");
				return;
			}
		}
		int64_t v;
		if (!refmap_midgard_expect(pr, cv->depth ? word : NULL, cv->field->name, &v)) {
			snprintf(what, sizeof what, "field %s has no reference value", cv->field->name);
			part_finding(in, pr, what, w, &x.d, w, "reference");
			return;
		}
		if (v != cv->value) {
			snprintf(what, sizeof what, "field %s: spec %lld, reference %lld",
			         cv->field->name, (long long)cv->value, (long long)v);
			part_finding(in, pr, what, w, &x.d, w, "reference");
			return;
		}
	}
	if (!codec_encode(spec.c, &x.d, back, err, sizeof err)) {
		snprintf(what, sizeof what, "codec_encode refuses the decoded %s: %s", x.d.leaf->name,
		         err);
		part_finding(in, pr, what, w, &x.d, want_w, "reference canonical");
		return;
	}
	if (back[0] != want_w[0] || back[1] != want_w[1]) {
		snprintf(what, sizeof what, "the spec encodes %s to other bits than the reference's "
		         "canonical packing", x.d.leaf->name);
		part_finding(in, pr, what, back, &x.d, want_w, "reference canonical");
	}
}

/* -------------------------------------------------------------- framing */

/* The reference's parts against the spec's program walk over the same
 * bundle.  Returns false after a finding. */
static bool compare_framing(const input *in, const uint32_t *words, size_t nwords,
                            midgard_status st, const midgard_bundle *b)
{
	codec_disasm_options opt = {.show_errors = false};
	codec_program *pr = codec_program_walk(spec.c, program, words, nwords, &opt);
	if (!pr)
		return true; /* out of memory: nothing to say */
	char what[600] = "";
	bool spec_error = pr->nerrors > 0;
	for (size_t i = 0; i < pr->nitems; i++)
		if (pr->items[i].kind == CODEC_ITEM_PART && !pr->items[i].leaf)
			spec_error = true;
	unsigned tag = nwords ? words[0] & 15 : 0;
	if (st != MIDGARD_OK) {
		/* tags 6 and 7: one quadword of unknown data to the spec */
		if (!spec_error && tag != 6 && tag != 7)
			snprintf(what, sizeof what, "the reference rejects the bundle (%s), the spec's "
			         "<program> frames it without an error", midgard_status_text(st));
	} else if (pr->nerrors) {
		snprintf(what, sizeof what, "the reference unpacks the bundle, the spec's <program> "
		         "reports: %s [%s]", pr->errors[0].text,
		         codec_frame_error_name(pr->errors[0].kind));
	} else {
		/* the spec's parts and data, in order, are the reference's parts */
		size_t k = 0;
		for (size_t i = 0; i < pr->nitems && !*what; i++) {
			const codec_item *it = &pr->items[i];
			if (it->kind != CODEC_ITEM_PART && it->kind != CODEC_ITEM_DATA)
				continue;
			if (k >= b->nparts) {
				snprintf(what, sizeof what, "the spec's <program> finds more parts than the "
				         "reference's %u (item %zu at bit %zu)", b->nparts, i, it->bit);
				break;
			}
			const midgard_part *p = &b->parts[k++];
			int r = refmap_midgard_part_root(p);
			bool same = it->bit == p->offset && it->bits == p->bits &&
			            (r < 0 ? it->kind == CODEC_ITEM_DATA
			                   : it->kind == CODEC_ITEM_PART && it->root == roots[r]);
			if (!same)
				snprintf(what, sizeof what, "the spec's <program> item %zu is %s at bits "
				         "%zu..%zu, the reference's part %zu is %s at bits %u..%u", i,
				         it->kind == CODEC_ITEM_PART ? it->root->bitset->name : "data",
				         it->bit, it->bit + it->bits - 1, k - 1,
				         r < 0 ? "constants" : refmap_midgard_root_names[r], p->offset,
				         p->offset + p->bits - 1);
		}
		if (!*what && k != b->nparts)
			snprintf(what, sizeof what, "the spec's <program> finds %zu parts, the reference "
			         "%u", k, b->nparts);
	}
	if (*what) {
		/* the spec's walk (text, errors) beside the reference's parts */
		static char ls[8192], rs[8192];
		ls[0] = rs[0] = 0;
		fuzz_appendf(ls, sizeof ls, "[spec's <program>]\n%s", pr->text);
		for (size_t i = 0; i < pr->nerrors; i++)
			fuzz_appendf(ls, sizeof ls, "error at bit %zu: %s [%s]\n", pr->errors[i].bit,
			             pr->errors[i].text, codec_frame_error_name(pr->errors[i].kind));
		fuzz_appendf(rs, sizeof rs, "[reference]\n%s\n", midgard_status_text(st));
		for (unsigned i = 0; st == MIDGARD_OK && i < b->nparts; i++) {
			int r = refmap_midgard_part_root(&b->parts[i]);
			fuzz_appendf(rs, sizeof rs, "%s at bits %u..%u\n",
			             r < 0 ? "constants" : refmap_midgard_root_names[r], b->parts[i].offset,
			             b->parts[i].offset + b->parts[i].bits - 1);
		}
		fuzz_appendf(rs, sizeof rs, "bundle words:\n");
		for (size_t i = 0; i < nwords; i++)
			fuzz_appendf(rs, sizeof rs, "%s%08x%s", i % 4 ? " " : "", (unsigned)words[i],
			             i % 4 == 3 || i + 1 == nwords ? "\n" : "");
		codec_program_free(pr);
		fuzz_finding_lines(FUZZ_TARGET, NULL, in->data, in->size, 0, what, NULL, NULL, ls, rs);
		return false;
	}
	codec_program_free(pr);
	return true;
}

/* -------------------------------------------------------------- bundles */

/* One bundle at words[0..avail): returns the words it took, 0 when the
 * reference does not unpack it (or after a finding). */
static size_t diff_bundle(const input *in, const uint32_t *words, size_t avail)
{
	static midgard_bundle b;
	midgard_status st = midgard_unpack(words, avail, &b);
	/* the bundle's own words, as far as the input has them */
	unsigned tag = avail ? words[0] & 15 : 0;
	size_t n = midgard_tag_quadwords(tag) * 4;
	if (!n && (tag == 6 || tag == 7))
		n = 4;
	if (n > avail || !n)
		n = avail;
	if (!compare_framing(in, words, n, st, &b) || st != MIDGARD_OK)
		return 0;

	/* the reference's own round trip, and its canonical form */
	uint32_t again[MIDGARD_MAX_WORDS], canon[MIDGARD_MAX_WORDS];
	midgard_bundle c = b;
	midgard_status ps = midgard_pack(&c, again, N(again));
	if (ps != MIDGARD_OK || c.nwords != b.nwords || memcmp(again, words, b.nwords * 4)) {
		char what[200];
		snprintf(what, sizeof what, "the reference does not pack what it unpacked back to "
		         "the words (%s)", midgard_status_text(ps));
		fuzz_finding(FUZZ_TARGET, NULL, in->data, in->size, 0, what, NULL, NULL);
		return 0;
	}
	c = b;
	if (c.kind == MIDGARD_KIND_ALU) {
		c.u.alu.control_reserved = 0;
		for (unsigned u = 0; u < MIDGARD_UNITS; u++)
			c.u.alu.unit[u].sca.reserved = false;
	} else if (c.kind == MIDGARD_KIND_TEXTURE) {
		c.u.tex.unknown8 = 0;
		c.u.tex.unknown4 = 0;
	} else {
		/* a no-op reads no operand: its other members mean nothing */
		for (unsigned k = 0; k < 2; k++)
			if (c.u.ldst.op[k].op == MIDGARD_LDST_NOOP)
				c.u.ldst.op[k] = (midgard_ldst_op){.op = MIDGARD_LDST_NOOP};
	}
	ps = midgard_pack(&c, canon, N(canon));
	if (ps != MIDGARD_OK)
		memcpy(canon, words, b.nwords * 4);

	refmap_midgard_part pr = {&b, NULL, MIDGARD_ROOT_TAG};
	compare_part(in, words, canon, &pr);
	for (unsigned i = 0; i < b.nparts; i++) {
		int r = refmap_midgard_part_root(&b.parts[i]);
		if (r < 0)
			continue;
		pr = (refmap_midgard_part){&b, &b.parts[i], r};
		compare_part(in, words, canon, &pr);
	}
	return b.nwords;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	input in = {data, size};
	static uint32_t words[4 * MIDGARD_MAX_WORDS + 64];
	size_t nwords = 0;
	unsigned mode = data[0] & 3;
	if (mode == 0 || mode == 2) {
		midgard_rng rng;
		midgard_rng_seed(&rng, fuzz_read_le(data + 1, size - 1));
		unsigned count = mode == 2 ? 1 : 1 + (data[0] >> 2) % 4;
		for (unsigned i = 0; i < count; i++) {
			midgard_bundle b;
			midgard_random_bundle(&rng, &b);
			midgard_status st = midgard_pack(&b, words + nwords, MIDGARD_MAX_WORDS);
			if (st != MIDGARD_OK) {
				char what[200];
				snprintf(what, sizeof what, "the reference does not pack its own random "
				         "bundle: %s", midgard_status_text(st));
				fuzz_finding(FUZZ_TARGET, NULL, data, size, 0, what, NULL, NULL);
				return 0;
			}
			nwords += b.nwords;
		}
		/* mode 2: the rest of the input flips bits of the bundle */
		for (size_t i = 9; mode == 2 && i < size && (i - 9) / 4 < nwords; i++)
			words[(i - 9) / 4] ^= (uint32_t)data[i] << (8 * ((i - 9) % 4));
	} else {
		for (size_t i = 1; i + 4 <= size && nwords < N(words); i += 4)
			words[nwords++] = (uint32_t)fuzz_read_le(data + i, 4);
	}
	for (size_t at = 0; at < nwords;) {
		size_t took = diff_bundle(&in, words + at, nwords - at);
		if (!took)
			break;
		at += took;
	}
	return 0;
}
