/*
 * test_diff.c - `isacheck diff`: the hand-written edit pairs of
 * tests/diff/ with their exact reports; both engines agreeing; every
 * witness decoded with both models by src/codec; counts against ground
 * truth from enumerating words of random spec pairs; an unchanged spec
 * proved equal; folders, --git, CI mode, formats and bad input; and an
 * edit of Mesa's ir3.
 */
#include "check.h"
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Replaces every occurrence of from with to, in place (to no longer). */
static void replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	for (char *p = strstr(s, from); p; p = strstr(p + tl, from)) {
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
		memcpy(p, to, tl);
	}
}

/* ------------------------------------------------ the edit pairs, exactly */

static const struct {
	const char *name; /* a folder of tests/diff, or difftext/NAME of tests/difftext */
	int rc;          /* exit code of a plain diff */
	int rc_ci;       /* with --fail-on=new-findings */
} cases[] = {
	/* what the edits do to the printed text (tests/difftext/base.xml):
	 * every kind an isaspec edit takes, each report exact */
	{"../difftext/enum-string", 1, 0},
	{"../difftext/enum-unreachable", 0, 0},
	{"../difftext/param", 1, 0},
	{"../difftext/template", 1, 0},
	{"../difftext/override-expr", 1, 0},
	{"../difftext/field-type", 1, 0},
	{"../difftext/shared-parent", 1, 0},
	{"../difftext/whitespace", 0, 0},
	{"../difftext/rename", 1, 0},
	/* COND moved into a new parent '#op': its warning names '#op' now,
	 * the same finding (matched by subject), and nothing prints otherwise */
	{"../difftext/moved-warning", 0, 0},
	{"unchanged", 0, 0},
	{"rename", 1, 0},
	{"split", 1, 0},
	{"widen", 1, 0},
	{"field-to-pattern", 1, 0},
	{"narrow-gen", 1, 0},
	{"display", 1, 0},
	{"override-display", 1, 0},
	{"overlap", 1, 1},
};

TEST(exact_reports)
{
	char cmd[2048], out[65536];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/tests/diff/%s/expected.txt", ISACHECK_SOURCE_DIR,
		         cases[i].name);
		char *want = testlib_read_file(path);
		CHECK(want != NULL);
		if (!want)
			continue;
		for (int z = 0; z < 2; z++) {
			snprintf(cmd, sizeof cmd, "cd '%s/tests/diff/%s' && '%s' diff %s ../base.xml new.xml",
			         ISACHECK_SOURCE_DIR, cases[i].name, ISACHECK_BINARY,
			         z ? "--solver=z3" : "");
			int rc = testlib_run(cmd, out, sizeof out);
			CHECK_INT(rc, cases[i].rc);
			if (z)
				replace_all(out, "the Z3 solver", "the cube engine");
			if (strcmp(out, want))
				fprintf(stderr, "case %s (%s): got\n%s\nwanted\n%s\n", cases[i].name,
				        z ? "z3" : "cube", out, want);
			CHECK_STR(out, want);
		}
		snprintf(cmd, sizeof cmd, "cd '%s/tests/diff/%s' && '%s' diff --fail-on=new-findings "
		         "../base.xml new.xml", ISACHECK_SOURCE_DIR, cases[i].name, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), cases[i].rc_ci);
		free(want);
	}
}

/* -------------------------------------------------- library-level checks */

static spec_model *load(const char *path)
{
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	spec_diags_free(&d);
	CHECK(m != NULL);
	return m;
}

static spec_model *load_str(const char *xml)
{
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("t.xml", xml, strlen(xml), ".", &d);
	spec_diags_free(&d);
	CHECK(m != NULL);
	return m;
}

/* The matching leaves of a word by this test's own reading of the masks. */
static bool matches(const spec_bitset *b, const uint64_t *w, uint32_t gen)
{
	if (gen < b->gen.min || gen > b->gen.max)
		return false;
	for (unsigned i = 0; i < b->size; i++) {
		bool pinned = spec_bit(b->mask, i) && !spec_bit(b->dontcare, i);
		if (!pinned) {
			if (spec_bit(b->match, i))
				return false;
			continue;
		}
		if (((w[i / 64] >> (i % 64)) & 1) != spec_bit(b->match, i))
			return false;
	}
	return true;
}

/* Every witness, decoded by src/codec with both models at its
 * generation, matches exactly the leaves the report says. */
static void check_witnesses(const spec_model *om, const spec_model *nm, const diff_result *r)
{
	spec_diags d = {0};
	codec *co = codec_new(om, &d), *cn = codec_new(nm, &d);
	spec_diags_free(&d);
	CHECK(co && cn);
	for (size_t i = 0; co && cn && i < r->ndecodings; i++) {
		const diff_decoding *x = &r->decodings[i];
		const spec_root *ro = spec_find_root(om, x->root), *rn = spec_find_root(nm, x->root);
		const spec_bitset *got[16];
		size_t n = ro ? codec_classify(co, ro, x->witness, x->witness_gen, got, 16) : 0;
		CHECK_INT(n, x->nold);
		for (size_t k = 0; k < n && k < x->nold; k++)
			CHECK(got[k] == x->old_leaves[k]);
		n = rn ? codec_classify(cn, rn, x->witness, x->witness_gen, got, 16) : 0;
		CHECK_INT(n, x->nnew);
		for (size_t k = 0; k < n && k < x->nnew; k++)
			CHECK(got[k] == x->new_leaves[k]);
		/* and at the other end of its gen range */
		n = ro ? codec_classify(co, ro, x->witness, x->gen.max, got, 16) : 0;
		CHECK_INT(n, x->nold);
	}
	for (size_t i = 0; co && cn && i < r->ndisplays; i++) {
		const diff_display *x = &r->displays[i];
		if (!x->witness)
			continue;
		const spec_bitset *got[4];
		CHECK_INT(codec_classify(co, spec_find_root(om, x->old_leaf->root->name), x->witness,
		                         x->witness_gen, got, 4), 1);
		CHECK(got[0] == x->old_leaf);
		CHECK_INT(codec_classify(cn, spec_find_root(nm, x->new_leaf->root->name), x->witness,
		                         x->witness_gen, got, 4), 1);
		CHECK(got[0] == x->new_leaf);
	}
	codec_free(co);
	codec_free(cn);
}

/* Both engines: the same report, entry by entry; Z3 asked, nothing unknown. */
static void check_engines(const spec_model *om, const spec_model *nm, diff_result *rc)
{
	prove_options oc = prove_default_options(), oz = prove_default_options();
	oz.engine = PROVE_ENGINE_Z3;
	diff_result rz;
	spec_diags d = {0};
	CHECK(diff_models(om, nm, &oc, rc, &d));
	CHECK(diff_models(om, nm, &oz, &rz, &d));
	CHECK_INT(d.count, 0);
	for (size_t i = 0; i < d.count; i++)
		fprintf(stderr, "  %s\n", d.items[i].message);
	spec_diags_free(&d);
	CHECK(!rc->any_unknown && !rz.any_unknown);
	CHECK(rz.queries > rz.old_proof.queries + rz.new_proof.queries);
	CHECK_INT(rc->ndecodings, rz.ndecodings);
	for (size_t i = 0; i < rc->ndecodings && i < rz.ndecodings; i++) {
		const diff_decoding *a = &rc->decodings[i], *b = &rz.decodings[i];
		CHECK(!strcmp(a->root, b->root) && a->gen.min == b->gen.min && a->gen.max == b->gen.max);
		CHECK(a->nold == b->nold && a->nnew == b->nnew && a->fields_only == b->fields_only);
		CHECK(!memcmp(&a->words, &b->words, sizeof a->words));
		CHECK(!memcmp(a->witness, b->witness, (a->size + 63) / 64 * 8));
	}
	CHECK_INT(rc->nleaves, rz.nleaves);
	CHECK_INT(rc->nholes, rz.nholes);
	CHECK_INT(rc->noverlaps_introduced, rz.noverlaps_introduced);
	CHECK_INT(rc->noverlaps_fixed, rz.noverlaps_fixed);
	diff_result_free(&rz);
}

TEST(cases_witnesses_and_engines)
{
	char base[1024], path[1024];
	snprintf(base, sizeof base, "%s/tests/diff/base.xml", ISACHECK_SOURCE_DIR);
	spec_model *om = load(base);
	for (size_t i = 0; om && i < sizeof cases / sizeof *cases; i++) {
		snprintf(path, sizeof path, "%s/tests/diff/%s/new.xml", ISACHECK_SOURCE_DIR,
		         cases[i].name);
		spec_model *nm = load(path);
		if (!nm)
			continue;
		diff_result r;
		check_engines(om, nm, &r);
		check_witnesses(om, nm, &r);
		CHECK(diff_is_empty(&r) == !strcmp(cases[i].name, "unchanged"));
		diff_result_free(&r);
		spec_model_free(nm);
	}
	spec_model_free(om);
}

/* The split case in detail: counts, witnesses, holes. */
TEST(field_to_pattern_details)
{
	char base[1024], path[1024];
	snprintf(base, sizeof base, "%s/tests/diff/base.xml", ISACHECK_SOURCE_DIR);
	snprintf(path, sizeof path, "%s/tests/diff/field-to-pattern/new.xml", ISACHECK_SOURCE_DIR);
	spec_model *om = load(base), *nm = load(path);
	if (!om || !nm)
		goto out;
	diff_result r;
	spec_diags d = {0};
	CHECK(diff_models(om, nm, NULL, &r, &d));
	CHECK_INT(r.ndecodings, 2);
	CHECK_INT(r.nholes, 1);
	if (r.nholes == 1) {
		char n[64];
		prove_count_format(&r.holes[0].opened, n, sizeof n);
		CHECK_STR(n, "134217728"); /* 2^27: st words with bit 19 set */
		prove_count_format(&r.holes[0].filled, n, sizeof n);
		CHECK_STR(n, "0");
	}
	for (size_t i = 0; i < r.ndecodings; i++) {
		const diff_decoding *x = &r.decodings[i];
		CHECK(matches(x->old_leaves[0], x->witness, 0));
		if (x->nnew)
			CHECK(matches(x->new_leaves[0], x->witness, 0));
	}
	CHECK_INT(r.nfields, 1);
	if (r.nfields == 1) {
		CHECK_STR(r.fields[0].name, "SRC");
		CHECK_INT(r.fields[0].old_field->high, 19);
		CHECK_INT(r.fields[0].new_field->high, 18);
	}
	diff_result_free(&r);
	spec_diags_free(&d);
out:
	spec_model_free(om);
	spec_model_free(nm);
}

/* ------------------------------------------------------- random pairs */

/* A random 32-bit spec: each leaf decides bits 0..5 and 26..31 (the
 * "relevant" bits, 12 of them) as pattern 0/1/x or a one-bit field, and
 * owns bits 6..25 as a field; some live only at some generations. */
#define RND_LEAVES 6
#define RND_RELEVANT 12
static const unsigned rnd_bits[RND_RELEVANT] = {0, 1, 2, 3, 4, 5, 26, 27, 28, 29, 30, 31};

typedef struct rnd_leaf {
	bool present;
	char name[16];
	char bit[RND_RELEVANT]; /* '0', '1', 'x', 'f' (field) */
	uint32_t gmin, gmax;
	bool has_gen;
} rnd_leaf;

typedef struct rnd_spec {
	rnd_leaf l[RND_LEAVES + 1];
} rnd_spec;

static uint64_t rnd_state = 0x9e3779b97f4a7c15u;
static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

static void rnd_leaf_init(rnd_leaf *l, unsigned k)
{
	l->present = true;
	snprintf(l->name, sizeof l->name, "l%u", k);
	for (unsigned b = 0; b < RND_RELEVANT; b++)
		l->bit[b] = "01xf01"[rnd(6)];
	l->has_gen = rnd(3) == 0;
	l->gmin = rnd(4);
	l->gmax = l->gmin + rnd(4);
}

static void rnd_mutate(rnd_spec *s, unsigned k)
{
	rnd_leaf *l = &s->l[rnd(RND_LEAVES)];
	switch (rnd(6)) {
	case 0:
		l->bit[rnd(RND_RELEVANT)] = "01xf"[rnd(4)];
		break;
	case 1:
		snprintf(l->name, sizeof l->name, "r%u", k);
		break;
	case 2:
		l->has_gen = true;
		l->gmin = rnd(4);
		l->gmax = l->gmin + rnd(4);
		break;
	case 3:
		l->present = false;
		break;
	case 4:
		rnd_leaf_init(&s->l[RND_LEAVES], 100 + k);
		break;
	default:
		l->bit[rnd(RND_RELEVANT)] = 'f';
		break;
	}
}

static char *rnd_xml(const rnd_spec *s)
{
	size_t cap = 65536, o = 0;
	char *x = malloc(cap);
	if (!x)
		return NULL;
	o += (size_t)snprintf(x + o, cap - o, "<isa>\n<bitset name=\"#r\" size=\"32\">\n"
	                      "<display>{NAME}</display>\n</bitset>\n");
	for (unsigned i = 0; i <= RND_LEAVES; i++) {
		const rnd_leaf *l = &s->l[i];
		if (!l->present)
			continue;
		o += (size_t)snprintf(x + o, cap - o, "<bitset name=\"%s\" extends=\"#r\">\n", l->name);
		if (l->has_gen)
			o += (size_t)snprintf(x + o, cap - o, "<gen min=\"%u\" max=\"%u\"/>\n", l->gmin,
			                      l->gmax);
		for (unsigned b = 0; b < RND_RELEVANT; b++) {
			if (l->bit[b] == 'f')
				o += (size_t)snprintf(x + o, cap - o, "<field name=\"F%u\" low=\"%u\" "
				                      "high=\"%u\" type=\"uint\"/>\n", rnd_bits[b],
				                      rnd_bits[b], rnd_bits[b]);
			else
				o += (size_t)snprintf(x + o, cap - o, "<pattern pos=\"%u\">%c</pattern>\n",
				                      rnd_bits[b], l->bit[b]);
		}
		o += (size_t)snprintf(x + o, cap - o, "<field name=\"MID\" low=\"6\" high=\"25\" "
		                      "type=\"uint\"/>\n</bitset>\n");
	}
	snprintf(x + o, cap - o, "</isa>\n");
	return x;
}

/* The leaf of NEW that an OLD leaf is, by the report: the same name, or
 * its rename. */
static const spec_bitset *counterpart(const diff_result *r, const spec_root *nr,
                                      const spec_bitset *a)
{
	for (size_t i = 0; i < r->nleaves; i++)
		if (r->leaves[i].kind == DIFF_LEAF_RENAMED && r->leaves[i].old_leaf == a)
			return r->leaves[i].new_leaf;
	for (size_t i = 0; nr && i < nr->nleaves; i++)
		if (!strcmp(nr->leaves[i]->name, a->name))
			return nr->leaves[i];
	return NULL;
}

static bool fields_changed(const diff_result *r, const spec_bitset *a)
{
	for (size_t i = 0; i < r->nfields; i++)
		if (r->fields[i].old_leaf == a)
			return true;
	return false;
}

/* Whether the report's matching takes the OLD leaves of omask (bit i:
 * leaf i of ro) to exactly the NEW leaves of nmask (bit j: leaf j of rn);
 * false too when one of them has no counterpart among rn's leaves. */
static bool maps_onto(const diff_result *r, const spec_root *ro, const spec_root *rn,
                      uint32_t omask, uint32_t nmask)
{
	uint32_t mapped = 0;
	for (size_t i = 0; i < ro->nleaves; i++) {
		if (!((omask >> i) & 1))
			continue;
		const spec_bitset *b = counterpart(r, rn, ro->leaves[i]);
		size_t j = 0;
		while (b && j < rn->nleaves && rn->leaves[j] != b)
			j++;
		if (!b || j == rn->nleaves)
			return false;
		mapped |= 1u << j;
	}
	return mapped == nmask;
}

/* One pair of leaf sets of the ground truth, and its words. */
typedef struct tkey {
	uint32_t omask, nmask; /* bit i: leaf i of the root matches */
	uint64_t count;
} tkey;

/* The index of the pair (omask, nmask) in keys, or nkeys. */
static size_t find_key(const tkey *keys, size_t nkeys, uint32_t omask, uint32_t nmask)
{
	size_t k = 0;
	while (k < nkeys && !(keys[k].omask == omask && keys[k].nmask == nmask))
		k++;
	return k;
}

/* Ground truth at one generation: every assignment of the relevant bits
 * (the others are free in every leaf, so each assignment stands for 2^20
 * words) classified by this test's matcher on both sides; the changed
 * ones summed per pair of leaf sets and compared with the report. */
static void check_ground_truth(const spec_model *om, const spec_model *nm,
                               const diff_result *r, uint32_t gen)
{
	const spec_root *ro = spec_find_root(om, "#r"), *rn = spec_find_root(nm, "#r");
	if (!ro || !rn)
		return;
	tkey keys[256];
	size_t nkeys = 0;
	for (uint32_t a = 0; a < (1u << RND_RELEVANT); a++) {
		uint64_t w = 0;
		for (unsigned b = 0; b < RND_RELEVANT; b++)
			if ((a >> b) & 1)
				w |= (uint64_t)1 << rnd_bits[b];
		uint32_t om_ = 0, nm_ = 0;
		for (size_t i = 0; i < ro->nleaves; i++)
			om_ |= (uint32_t)matches(ro->leaves[i], &w, gen) << i;
		for (size_t i = 0; i < rn->nleaves; i++)
			nm_ |= (uint32_t)matches(rn->leaves[i], &w, gen) << i;
		/* changed: the sets differ (leaves mapped through the report's
		 * matching), or one leaf whose fields changed */
		bool changed = !maps_onto(r, ro, rn, om_, nm_);
		if (!changed && __builtin_popcount(om_) == 1)
			changed = fields_changed(r, ro->leaves[__builtin_ctz(om_)]);
		if (!changed)
			continue;
		size_t k = find_key(keys, nkeys, om_, nm_);
		if (k == nkeys && nkeys < 256)
			keys[nkeys++] = (tkey){om_, nm_, 0};
		if (k < nkeys)
			keys[k].count++;
	}
	/* the report's entries at this generation */
	size_t seen = 0;
	for (size_t i = 0; i < r->ndecodings; i++) {
		const diff_decoding *x = &r->decodings[i];
		if (gen < x->gen.min || gen > x->gen.max)
			continue;
		seen++;
		uint32_t om_ = 0, nm_ = 0;
		for (size_t k = 0; k < x->nold; k++)
			for (size_t j = 0; j < ro->nleaves; j++)
				om_ |= (uint32_t)(ro->leaves[j] == x->old_leaves[k]) << j;
		for (size_t k = 0; k < x->nnew; k++)
			for (size_t j = 0; j < rn->nleaves; j++)
				nm_ |= (uint32_t)(rn->leaves[j] == x->new_leaves[k]) << j;
		size_t k = find_key(keys, nkeys, om_, nm_);
		CHECK(k < nkeys);
		if (k < nkeys) {
			prove_count want = {{0}};
			want.w[0] = keys[k].count << 20;
			CHECK(!memcmp(&want, &x->words, sizeof want));
		}
	}
	/* Same-leaf sets with unchanged fields that stay ambiguous are no
	 * decoding change; every other key must be reported. */
	size_t expect = 0;
	for (size_t k = 0; k < nkeys; k++) {
		bool same_amb = __builtin_popcount(keys[k].omask) > 1 &&
		                maps_onto(r, ro, rn, keys[k].omask, keys[k].nmask);
		expect += !same_amb;
	}
	CHECK_INT(seen, expect);
}

/* Random spec pairs of random_pairs: the sanitizer build, ten times
 * slower here, checks half of them. */
#ifdef ISACHECK_SANITIZED
#define RND_PAIRS 30u
#else
#define RND_PAIRS 60u
#endif

TEST(random_pairs)
{
	int pairs = 0;
	size_t changed = 0;
	for (unsigned iter = 0; iter < RND_PAIRS; iter++) {
		rnd_spec a = {{{0}}}, b;
		for (unsigned i = 0; i < RND_LEAVES; i++)
			rnd_leaf_init(&a.l[i], i);
		b = a;
		unsigned edits = 1 + rnd(3);
		for (unsigned e = 0; e < edits; e++)
			rnd_mutate(&b, iter * 10 + e);
		char *xa = rnd_xml(&a), *xb = rnd_xml(&b);
		spec_model *om = xa ? load_str(xa) : NULL, *nm = xb ? load_str(xb) : NULL;
		if (om && nm) {
			diff_result r;
			check_engines(om, nm, &r);
			check_witnesses(om, nm, &r);
			changed += r.ndecodings;
			for (uint32_t g = 0; g <= 8; g++)
				check_ground_truth(om, nm, &r, g);
			check_ground_truth(om, nm, &r, UINT32_MAX);
			diff_result_free(&r);
			/* a spec against itself: empty, proved by both engines */
			diff_result same;
			check_engines(om, om, &same);
			CHECK(diff_is_empty(&same));
			diff_result_free(&same);
			pairs++;
		}
		spec_model_free(om);
		spec_model_free(nm);
		free(xa);
		free(xb);
	}
	CHECK_INT(pairs, RND_PAIRS);
	/* the edits did change decodings (the ground truth was not vacuous) */
	CHECK(changed >= RND_PAIRS);
}

/* --------------------------------------------------- random text pairs */

/* A random spec whose leaves print: a 32-bit root with bits 16..27 a 0
 * pattern and opcode 28..31, so every leaf has 16 free bits and every
 * word can be printed.  Leaves print an enum (two bits), a sub-bitset
 * through a param, and may have an override on a field's value. */
typedef struct tx_spec {
	char enum_str[4][8];
	char parent_disp[48];
	char leaf_disp[3][48];   /* "" : inherit */
	int over_val[3];         /* -1: no override; else {B} == v prints "z" */
	int over_form[3];        /* how the condition is written (some forms differ) */
	char sub_half[8];        /* "h" or "q" */
	char param_src[4];       /* "P" or "Q" */
	int b_low;               /* B's low bit (B is 3 bits wide) */
} tx_spec;

static void tx_init(tx_spec *t)
{
	static const char *const strs[] = {"", ".a", ".b", ".c", ".d", ".aa"};
	for (int i = 0; i < 4; i++)
		snprintf(t->enum_str[i], sizeof t->enum_str[i], "%s", strs[rnd(6)]);
	snprintf(t->parent_disp, sizeof t->parent_disp, "{NAME}{E} {B}, {S}");
	for (int i = 0; i < 3; i++) {
		t->leaf_disp[i][0] = 0;
		t->over_val[i] = rnd(2) ? -1 : (int)rnd(8);
		t->over_form[i] = 0;
	}
	snprintf(t->sub_half, sizeof t->sub_half, "h");
	snprintf(t->param_src, sizeof t->param_src, "P");
	t->b_low = 4;
}

static void tx_mutate(tx_spec *t)
{
	static const char *const strs[] = {"", ".a", ".b", ".c", ".d", ".aa"};
	static const char *const disps[] = {"{NAME}{E} {B}, {S}", "{NAME} {B}, {S}", "{NAME}{E} {S}",
	                                    "{NAME}{E}{B}, {S}", "{NAME}{E} {B}, {S}"};
	switch (rnd(8)) {
	case 7: /* the override's condition rewritten: Z3 decides */
		t->over_form[rnd(3)] = (int)rnd(5);
		break;
	case 0:
		snprintf(t->enum_str[rnd(4)], sizeof t->enum_str[0], "%s", strs[rnd(6)]);
		break;
	case 1:
		snprintf(t->parent_disp, sizeof t->parent_disp, "%s", disps[rnd(5)]);
		break;
	case 2:
		snprintf(t->leaf_disp[rnd(3)], sizeof t->leaf_disp[0], "%s", disps[rnd(5)]);
		break;
	case 3:
		t->over_val[rnd(3)] = rnd(2) ? -1 : (int)rnd(8);
		break;
	case 4:
		snprintf(t->sub_half, sizeof t->sub_half, "%s", rnd(2) ? "h" : "q");
		break;
	case 5:
		snprintf(t->param_src, sizeof t->param_src, "%s", rnd(2) ? "P" : "Q");
		break;
	default:
		t->b_low = rnd(2) ? 4 : 5; /* B moves: bits 4..6 or 5..7 (all free) */
		break;
	}
}

static char *tx_xml(const tx_spec *t)
{
	size_t cap = 8192, o = 0;
	char *x = malloc(cap);
	if (!x)
		return NULL;
	o += (size_t)snprintf(x + o, cap - o, "<isa>\n<enum name=\"#e\">\n");
	for (int i = 0; i < 4; i++)
		o += (size_t)snprintf(x + o, cap - o, "<value val=\"%d\" display=\"%s\"/>\n", i,
		                      t->enum_str[i]);
	o += (size_t)snprintf(x + o, cap - o,
	                      "</enum>\n<bitset name=\"#s\" size=\"4\">\n"
	                      "<override><expr>{HALF}</expr><display>%s{R}</display></override>\n"
	                      "<display>r{R}</display></bitset>\n"
	                      "<bitset name=\"s\" extends=\"#s\">"
	                      "<field name=\"R\" low=\"0\" high=\"3\" type=\"uint\"/></bitset>\n"
	                      "<bitset name=\"#i\" size=\"32\">\n<display>%s</display>\n"
	                      "<pattern low=\"16\" high=\"27\">000000000000</pattern>\n"
	                      "<field name=\"E\" low=\"12\" high=\"13\" type=\"#e\"/>\n"
	                      "<field name=\"P\" pos=\"14\" type=\"bool\"/>\n"
	                      "<field name=\"Q\" pos=\"15\" type=\"bool\"/>\n"
	                      "<field name=\"B\" low=\"%d\" high=\"%d\" type=\"uint\"/>\n"
	                      "<field name=\"S\" low=\"0\" high=\"3\" type=\"#s\">"
	                      "<param name=\"%s\" as=\"HALF\"/></field>\n</bitset>\n",
	                      t->sub_half, t->parent_disp, t->b_low, t->b_low + 2, t->param_src);
	for (int i = 0; i < 3; i++) {
		o += (size_t)snprintf(x + o, cap - o, "<bitset name=\"op%d\" extends=\"#i\">\n", i);
		/* forms 0..3 say {B} == v; form 4 says {B} == v + 1 */
		if (t->over_val[i] >= 0) {
			char cond[64];
			int v = t->over_val[i];
			switch (t->over_form[i]) {
			case 1: snprintf(cond, sizeof cond, "({B} ^ %d) == 0", v); break;
			case 2: snprintf(cond, sizeof cond, "!({B} != %d)", v); break;
			case 3: snprintf(cond, sizeof cond, "{B} - %d == 0", v); break;
			case 4: snprintf(cond, sizeof cond, "{B} == %d + 1", v); break;
			default: snprintf(cond, sizeof cond, "{B} == %d", v); break;
			}
			o += (size_t)snprintf(x + o, cap - o,
			                      "<override><expr>%s</expr>"
			                      "<display>{NAME} z, {S}</display></override>\n",
			                      cond);
		}
		if (t->leaf_disp[i][0])
			o += (size_t)snprintf(x + o, cap - o, "<display>%s</display>\n", t->leaf_disp[i]);
		o += (size_t)snprintf(x + o, cap - o,
		                      "<pattern low=\"28\" high=\"31\">%d%d%d%d</pattern>\n</bitset>\n",
		                      (i + 1) >> 3 & 1, (i + 1) >> 2 & 1, (i + 1) >> 1 & 1, (i + 1) & 1);
	}
	snprintf(x + o, cap - o, "</isa>\n");
	return x;
}

typedef struct tx_codecs {
	codec *c[2];
} tx_codecs;

static const spec_bitset *tx_leaf_of(void *ctx, int side, const spec_root *root,
                                     const uint64_t *w, uint32_t gen)
{
	tx_codecs *t = ctx;
	const spec_bitset *out[2];
	return codec_classify(t->c[side], root, w, gen, out, 2) == 1 ? out[0] : NULL;
}

static void tx_print(void *ctx, int side, const spec_root *root, const uint64_t *w,
                     uint32_t gen, char *buf, size_t len)
{
	tx_codecs *t = ctx;
	codec_disasm_options o = {.gen = gen};
	codec_disasm_root(t->c[side], root, w, &o, buf, len);
}

/* Every verdict of diff_texts against printing every word on both
 * sides: no entry for a leaf means no word of it prints differently; an
 * entry's witness does, and its count is the number of words that do. */
TEST(random_text_pairs)
{
	int pairs = 0, differing = 0;
	size_t by_z3 = 0;
	/* all 60 in both builds: fewer leave no rewritten condition for Z3 */
	for (unsigned iter = 0; iter < 60; iter++) {
		tx_spec a, b;
		tx_init(&a);
		b = a;
		for (unsigned e = 1 + rnd(2); e; e--)
			tx_mutate(&b);
		char *xa = tx_xml(&a), *xb = tx_xml(&b);
		spec_model *om = xa ? load_str(xa) : NULL, *nm = xb ? load_str(xb) : NULL;
		spec_diags d = {0};
		tx_codecs cs = {{om ? codec_new(om, &d) : NULL, nm ? codec_new(nm, &d) : NULL}};
		CHECK(cs.c[0] && cs.c[1]);
		if (cs.c[0] && cs.c[1]) {
			diff_result r;
			CHECK(diff_models(om, nm, NULL, &r, &d));
			diff_codec_ops ops = {.ctx = &cs, .default_root = "#i", .leaf_of = tx_leaf_of,
			                      .print = tx_print};
			CHECK(diff_texts(om, nm, NULL, &ops, &r, &d));
			by_z3 += r.texts_z3;
			const spec_root *ro = spec_find_root(om, "#i"), *rn = spec_find_root(nm, "#i");
			for (unsigned k = 0; k < 3; k++) {
				/* brute force: every word of op<k> */
				uint64_t ndiff = 0;
				for (uint32_t v = 0; v < 65536; v++) {
					uint64_t w = ((uint64_t)(k + 1) << 28) | v;
					char t0[256], t1[256];
					tx_print(&cs, 0, ro, &w, 0, t0, sizeof t0);
					tx_print(&cs, 1, rn, &w, 0, t1, sizeof t1);
					ndiff += strcmp(t0, t1) != 0;
				}
				const diff_text *dt = NULL;
				for (size_t i = 0; i < r.ntexts; i++)
					if (!strcmp(r.texts[i].new_leaf->name, ro->leaves[k]->name))
						dt = &r.texts[i];
				if (!dt) {
					if (ndiff)
						fprintf(stderr, "iter %u op%u: %llu words differ, none reported\n%s\n%s\n",
						        iter, k, (unsigned long long)ndiff, xa, xb);
					CHECK(ndiff == 0);
					continue;
				}
				differing++;
				CHECK(dt->verdict == DIFF_TEXT_DIFFERS); /* 16 free bits: always decided */
				CHECK(dt->counted);
				CHECK(dt->words.w[0] == ndiff && ndiff > 0);
				char t0[256], t1[256];
				tx_print(&cs, 0, ro, dt->witness, dt->witness_gen, t0, sizeof t0);
				tx_print(&cs, 1, rn, dt->witness, dt->witness_gen, t1, sizeof t1);
				CHECK(strcmp(t0, t1) != 0);
				CHECK_STR(t0, dt->old_text);
				CHECK_STR(t1, dt->new_text);
			}
			diff_result_free(&r);
			pairs++;
		}
		codec_free(cs.c[0]);
		codec_free(cs.c[1]);
		spec_diags_free(&d);
		spec_model_free(om);
		spec_model_free(nm);
		free(xa);
		free(xb);
	}
	CHECK_INT(pairs, 60);
	CHECK(differing >= 30); /* the edits did change text: not vacuous */
	CHECK(by_z3 > 0);       /* and some rewritten conditions were proved alike by Z3 */
}

/* The text changes in JSON and Markdown: every field of a text entry,
 * and Markdown's witness printed old and new. */
TEST(text_formats)
{
	char cmd[2048], out[65536];
	snprintf(cmd, sizeof cmd, "cd '%s/tests/difftext/enum-string' && '%s' diff --format=json "
	         "../base.xml new.xml", ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"texts\":[\n  {\"root\":\"#instruction\",\"gen\":") != NULL);
	CHECK(strstr(out, "\"verdict\":\"differs\",\"cause\":\"enum #cond value 1: \\\".lt\\\" -> "
	                  "\\\".LT\\\"\"") != NULL);
	CHECK(strstr(out, "\"new_at\":{\"file\":\"new.xml\",\"line\":10}") != NULL);
	CHECK(strstr(out, "\"words\":\"16384\",\"witness\":\"10001000\",\"witness_gen\":0,"
	                  "\"old_text\":\"add.lt 0, r0\",\"new_text\":\"add.LT 0, r0\"}") != NULL);
	snprintf(cmd, sizeof cmd, "cd '%s/tests/difftext/enum-string' && '%s' diff "
	         "--format=markdown ../base.xml new.xml", ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "#### What instructions print\n\n- enum #cond value 1: \".lt\" -> \".LT\" "
	                  "(base.xml:10 → new.xml:10)\n  - `add` `10001000` prints `add.lt 0, r0` → "
	                  "`add.LT 0, r0` (32768 words per generation)\n  - `add`, `mov`\n") != NULL);
}

/* ------------------------------------------------ the pre-commit hook */

/* docs/ci/pre-commit in a Mesa-like tree: staging only a fragment that
 * ir3.xml imports, with an edit that adds overlaps, is refused (the spec
 * that imports it is checked); staging only XML that is not isaspec
 * passes without a word. */
TEST(pre_commit_hook)
{
	char probe[1024], cmd[8192], out[65536];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	char dir[] = "/tmp/isacheck-test-hook-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof cmd,
	         "cd %s && git init -q && git config user.email t@example.org && "
	         "git config user.name t && mkdir -p src/freedreno/isa src/registers && "
	         "cp %s/mesa/src/freedreno/isa/*.xml src/freedreno/isa/ && "
	         "printf '<database>\\n<reg name=\"a\"/>\\n</database>\\n' > src/registers/a.xml && "
	         "git add -A && git commit -qm base",
	         dir, testlib_shared_dir());
	CHECK_INT(system(cmd), 0);
	/* the fragment alone, staged: ldg's opcode 00000 becomes 0000x */
	snprintf(cmd, sizeof cmd,
	         "cd %s/src/freedreno && sed -i '0,/<pattern low=\"54\" high=\"58\">00000</"
	         "s//<pattern low=\"54\" high=\"58\">0000x</' isa/ir3-cat6.xml && "
	         "git add isa/ir3-cat6.xml && ISACHECK='%s' '%s/docs/ci/pre-commit' 2>&1",
	         dir, ISACHECK_BINARY, ISACHECK_SOURCE_DIR);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "src/freedreno/isa/ir3.xml\n") != NULL);
	CHECK(strstr(out, "overlaps introduced:\n") != NULL);
	CHECK(strstr(out, "leaves 'ldg' and 'ldl' of root '#instruction' both match") != NULL);
	CHECK(strstr(out, "pre-commit: new isacheck findings") != NULL);
	/* `isacheck tops` names that spec, and nothing for other XML */
	snprintf(cmd, sizeof cmd, "cd %s && '%s' tops src/freedreno/isa/ir3-cat6.xml "
	         "src/registers/a.xml", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "src/freedreno/isa/ir3.xml\n");
	/* only XML that is not isaspec, staged: quietly passes */
	snprintf(cmd, sizeof cmd,
	         "cd %s && git reset -q --hard && "
	         "printf '<database>\\n<reg name=\"b\"/>\\n</database>\\n' > src/registers/a.xml && "
	         "git add src/registers/a.xml && ISACHECK='%s' '%s/docs/ci/pre-commit' 2>&1",
	         dir, ISACHECK_BINARY, ISACHECK_SOURCE_DIR);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "");
	CHECK(testlib_remove_tree(dir));
}

/* ------------------------------------------------ CLI: inputs and formats */

TEST(folders_and_formats)
{
	char cmd[4096], out[65536];
	char dir[] = "/tmp/isacheck-test-diff-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	/* two folders, top file importing a second one */
	snprintf(cmd, sizeof cmd,
	         "mkdir -p %s/a %s/b %s/tmp && cd %s && "
	         "printf '<isa>\\n<import file=\"ops.xml\"/>\\n</isa>\\n' > a/top.xml && "
	         "cp a/top.xml b/top.xml && "
	         "sed -e '/<?xml/d' -e 's/<isa>//' -e 's#</isa>##' '%s/tests/diff/base.xml' > body && "
	         "(echo '<isa>'; cat body; echo '</isa>') > a/ops.xml && "
	         "sed 's/name=\"add\"/name=\"iadd\"/' a/ops.xml > b/ops.xml",
	         dir, dir, dir, dir, ISACHECK_SOURCE_DIR);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "a/top.xml -> b/top.xml\n") != NULL);
	CHECK(strstr(out, "renamed  'add' -> 'iadd'") != NULL);
	CHECK(strstr(out, "ops.xml ->") == NULL); /* imported: not a top file */
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff --format=json a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"change\":\"renamed\"") != NULL);
	CHECK(strstr(out, "\"exit_code\":1}") != NULL);
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff --format=markdown a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "| renamed | `#instruction` | `add` | `iadd` |") != NULL);
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff --format=sarif a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"ruleId\":\"diff-leaf\"") != NULL);
	CHECK(strstr(out, "\"level\":\"note\"") != NULL);
	/* the same folder twice: no change */
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff a a", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);

	/* --git: commit, edit the working tree, compare */
	snprintf(cmd, sizeof cmd,
	         "command -v git >/dev/null || exit 77; cd %s/a && git init -q . && "
	         "git -c user.name=t -c user.email=t@t add top.xml ops.xml && "
	         "git -c user.name=t -c user.email=t@t commit -q -m one && cp ../b/ops.xml ops.xml",
	         dir);
	int g = system(cmd);
	if (WIFEXITED(g) && WEXITSTATUS(g) == 77) {
		printf("git not installed: --git not tested\n");
	} else {
		CHECK_INT(g, 0);
		snprintf(cmd, sizeof cmd, "cd %s/a && TMPDIR=%s/tmp '%s' diff --git=HEAD top.xml", dir,
		         dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, "HEAD:top.xml -> top.xml\n") != NULL);
		CHECK(strstr(out, "renamed  'add' -> 'iadd'") != NULL);
		snprintf(cmd, sizeof cmd, "cd %s/a && TMPDIR=%s/tmp '%s' diff --git HEAD "
		         "--fail-on=new-findings top.xml", dir, dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
		snprintf(cmd, sizeof cmd, "cd %s/a && TMPDIR=%s/tmp '%s' diff --git=nosuchrev top.xml 2>&1",
		         dir, dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
		CHECK(strstr(out, "nosuchrev: no such git revision") != NULL);
		/* a file new since REV: compared with an empty spec */
		snprintf(cmd, sizeof cmd, "cd %s/a && cp top.xml new.xml && TMPDIR=%s/tmp '%s' diff "
		         "--git=HEAD new.xml", dir, dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, "does not exist: compared with an empty spec") != NULL);
		CHECK(strstr(out, "added    'iadd'") != NULL);
	}
	/* the temporary folders of --git are gone */
	snprintf(cmd, sizeof cmd, "ls -A '%s/tmp'", dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "");
	CHECK(testlib_remove_tree(dir));
}

TEST(bad_input)
{
	char cmd[4096], out[8192];
	snprintf(cmd, sizeof cmd, "cd '%s/tests' && '%s' diff diff/base.xml bad/07-mismatched-tag.xml 2>&1",
	         ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "bad/07-mismatched-tag.xml:") != NULL && strstr(out, ": error: ") != NULL);
	snprintf(cmd, sizeof cmd, "'%s' diff only-one.xml 2>&1", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "'%s' diff --format=yaml a b 2>&1", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "'%s' diff /nonexistent/a.xml /nonexistent/b.xml 2>&1",
	         ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "/nonexistent/a.xml") != NULL);
	snprintf(cmd, sizeof cmd, "cd '%s/tests' && '%s' diff diff bad/01-empty.xml 2>&1",
	         ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "give two files or two folders") != NULL);
}

/* ------------------------------------------------------- Mesa's ir3 */

TEST(mesa_ir3_edit)
{
	char probe[1024], cmd[4096], out[65536];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	char dir[] = "/tmp/isacheck-test-ir3-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	/* mad.u16's opcode 0000 becomes 000x: it swallows madsh.u16 (0001) */
	snprintf(cmd, sizeof cmd,
	         "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
	         "sed -i '/name=\"mad.u16\"/{n;s/>0000</>000x</}' ir3-cat3.xml && "
	         "grep -A1 'name=\"mad.u16\"' ir3-cat3.xml | grep -q 000x",
	         testlib_shared_dir(), dir, dir);
	CHECK_INT(system(cmd), 0);
	for (int z = 0; z < 2; z++) {
		snprintf(cmd, sizeof cmd, "'%s' diff %s %s/mesa/src/freedreno/isa/ir3.xml %s/ir3.xml",
		         ISACHECK_BINARY, z ? "--solver=z3" : "", testlib_shared_dir(), dir);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, "  #instruction gen 300..max: 'madsh.u16' -> 'mad.u16' + "
		                  "'madsh.u16' (ambiguous): 72057594037927936 words, e.g. "
		                  "60800000_00000000") != NULL);
		CHECK(strstr(out, "summary: 0 root, 1 leaf, 0 field, 1 decoding, 0 text changes; "
		                  "1 new findings, 0 fixed\n") != NULL);
		CHECK(strstr(out, "overlaps introduced:\n") != NULL);
	}
	/* the unchanged copy: proved equal, lint findings (which cite other
	 * files by path) neither new nor fixed */
	snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/ir3-cat3.xml %s/ && '%s' diff "
	         "%s/mesa/src/freedreno/isa/ir3.xml %s/ir3.xml", testlib_shared_dir(), dir,
	         ISACHECK_BINARY, testlib_shared_dir(), dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "no change: both decode every word alike") != NULL);

	/* text edits on the real file: #type's u32 spelled U32 prints in 123
	 * leaves (one edit, one group); a <param> of cat5's SRC1 changed
	 * prints differently in 30 and is proved not to matter in the others
	 * (getbuf's NUM_SRC makes #cat5-src1 read no HALF); both decided */
	const char *const text_edits[][3] = {
		{"ir3-common.xml", "s/display=\"u32\"/display=\"U32\"/",
		 "  enum #type value 3: \"u32\" -> \"U32\" (ir3-common.xml:309 -> ir3-common.xml:309)\n"
		 "    prints differently in 123 leaves: "},
		{"ir3-cat5.xml", "66s/<param name=\"HALF\"\\/>/<param name=\"FULL\" as=\"HALF\"\\/>/",
		 "  <param> HALF of field SRC1 of '#instruction-cat5': HALF -> FULL "
		 "(ir3-cat5.xml:66 -> ir3-cat5.xml:66)\n    prints differently in 30 leaves: "},
	};
	for (size_t e = 0; e < 2; e++) {
		snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
		         "sed -i '%s' %s && ! cmp -s %s %s/mesa/src/freedreno/isa/%s && '%s' diff "
		         "%s/mesa/src/freedreno/isa/ir3.xml ir3.xml", testlib_shared_dir(), dir, dir,
		         text_edits[e][1], text_edits[e][0], text_edits[e][0], testlib_shared_dir(),
		         text_edits[e][0], ISACHECK_BINARY, testlib_shared_dir());
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, text_edits[e][2]) != NULL);
		CHECK(strstr(out, "[unknown]") == NULL);
		CHECK(strstr(out, "summary: 0 root, 0 leaf, 0 field, 0 decoding, 1 text changes; "
		                  "0 new findings, 0 fixed\n") != NULL);
	}

	/* #cat2-cat3-nop-encoding rewritten: the same truth on every word
	 * (Z3 proves it: no text change), or another (witnesses) */
	const char *const nop_edits[][2] = {
		{"33s/.*/!{REPEAT} \\&amp;\\&amp; ({SRC2_R} | {SRC1_R})/", NULL},
		{"33s/.*/!{REPEAT} \\&amp;\\&amp; {SRC2_R}/",
		 "    prints differently in 25 leaves: 'add.f', 'min.f'"},
	};
	for (size_t e = 0; e < 2; e++) {
		snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
		         "sed -i '%s' ir3-common.xml && grep -q SRC2_R ir3-common.xml && '%s' diff "
		         "%s/mesa/src/freedreno/isa/ir3.xml ir3.xml", testlib_shared_dir(), dir, dir,
		         nop_edits[e][0], ISACHECK_BINARY, testlib_shared_dir());
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1); /* the cases' fields moved */
		if (nop_edits[e][1]) {
			CHECK(strstr(out, nop_edits[e][1]) != NULL);
		} else {
			CHECK(strstr(out, "\ntext (") == NULL);
			CHECK(strstr(out, "their text is unchanged, proved") != NULL);
		}
		CHECK(strstr(out, "[unknown]") == NULL);
	}

	/* a shared parent's edit (cat2's EI bit becomes a 0 pattern) is one
	 * group per section, and its Markdown fits a screen */
	snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
	         "sed -i 's/<field name=\"EI\" pos=\"47\" type=\"bool\" display=\"(ei)\"\\/>/"
	         "<pattern pos=\"47\">0<\\/pattern>/' ir3-cat2.xml && grep -q 'pos=\"47\">0<' "
	         "ir3-cat2.xml && '%s' diff --format=markdown %s/mesa/src/freedreno/isa/ir3.xml "
	         "ir3.xml", testlib_shared_dir(), dir, dir, ISACHECK_BINARY, testlib_shared_dir());
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	CHECK(lines <= 60);
	CHECK(strstr(out, "· 1 leaf, 1 field, 4 decoding and 0 text changes") != NULL);
	CHECK(strstr(out, "<details><summary>47 leaves</summary>") != NULL);
	CHECK(testlib_remove_tree(dir));
}

int main(void)
{
	RUN(exact_reports);
	RUN(cases_witnesses_and_engines);
	RUN(field_to_pattern_details);
	RUN(random_pairs);
	RUN(random_text_pairs);
	RUN(text_formats);
	RUN(pre_commit_hook);
	RUN(folders_and_formats);
	RUN(bad_input);
	RUN(mesa_ir3_edit);
	return testlib_finish();
}
