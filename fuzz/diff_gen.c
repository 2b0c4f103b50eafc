/*
 * diff_gen.c - random spec pairs and diff's proofs judged against
 * brute force (diff_gen.h).
 */
#include "diff_gen.h"

#include "check.h"
#include "codec.h"
#include "spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diffgen_free(diffgen_pair *p)
{
	free(p->old_xml);
	free(p->new_xml);
	p->old_xml = p->new_xml = NULL;
}

/* A failed verdict: counted, and the first one described in a line. */
static void fail(diffgen_tally *t, const diffgen_pair *p, char *why, size_t len,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void fail(diffgen_tally *t, const diffgen_pair *p, char *why, size_t len,
                 const char *fmt, ...)
{
	(void)p;
	t->failures++;
	if (!why || !len || why[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

#define EXPECT(cond, ...)                                                    \
	do {                                                                  \
		if (!(cond))                                                  \
			fail(t, p, why, len, __VA_ARGS__);                    \
	} while (0)

static spec_model *load_str(const char *xml)
{
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("t.xml", xml, strlen(xml), ".", &d);
	spec_diags_free(&d);
	return m;
}

/* ------------------------------------------------------ decoding pairs */

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

static void rnd_leaf_init(rnd_leaf *l, unsigned k, semgen_rng *r)
{
	l->present = true;
	snprintf(l->name, sizeof l->name, "l%u", k);
	for (unsigned b = 0; b < RND_RELEVANT; b++)
		l->bit[b] = "01xf01"[semgen_below(r, 6)];
	l->has_gen = semgen_below(r, 3) == 0;
	l->gmin = semgen_below(r, 4);
	l->gmax = l->gmin + semgen_below(r, 4);
}

static void rnd_mutate(rnd_spec *s, unsigned k, semgen_rng *r)
{
	rnd_leaf *l = &s->l[semgen_below(r, RND_LEAVES)];
	switch (semgen_below(r, 6)) {
	case 0:
		l->bit[semgen_below(r, RND_RELEVANT)] = "01xf"[semgen_below(r, 4)];
		break;
	case 1:
		snprintf(l->name, sizeof l->name, "r%u", k);
		break;
	case 2:
		l->has_gen = true;
		l->gmin = semgen_below(r, 4);
		l->gmax = l->gmin + semgen_below(r, 4);
		break;
	case 3:
		l->present = false;
		break;
	case 4:
		rnd_leaf_init(&s->l[RND_LEAVES], 100 + k, r);
		break;
	default:
		l->bit[semgen_below(r, RND_RELEVANT)] = 'f';
		break;
	}
}

static char *rnd_xml(const rnd_spec *s)
{
	semgen_text x = {0};
	semgen_printf(&x, "<isa>\n<bitset name=\"#r\" size=\"32\">\n"
	                  "<display>{NAME}</display>\n</bitset>\n");
	for (unsigned i = 0; i <= RND_LEAVES; i++) {
		const rnd_leaf *l = &s->l[i];
		if (!l->present)
			continue;
		semgen_printf(&x, "<bitset name=\"%s\" extends=\"#r\">\n", l->name);
		if (l->has_gen)
			semgen_printf(&x, "<gen min=\"%u\" max=\"%u\"/>\n", l->gmin, l->gmax);
		for (unsigned b = 0; b < RND_RELEVANT; b++) {
			if (l->bit[b] == 'f')
				semgen_printf(&x, "<field name=\"F%u\" low=\"%u\" high=\"%u\" type=\"uint\"/>\n",
				              rnd_bits[b], rnd_bits[b], rnd_bits[b]);
			else
				semgen_printf(&x, "<pattern pos=\"%u\">%c</pattern>\n", rnd_bits[b], l->bit[b]);
		}
		semgen_printf(&x, "<field name=\"MID\" low=\"6\" high=\"25\" type=\"uint\"/>\n"
		                  "</bitset>\n");
	}
	semgen_printf(&x, "</isa>\n");
	return x.s;
}

void diffgen_pair_make(diffgen_pair *p, semgen_rng *r)
{
	rnd_spec a, b;
	memset(&a, 0, sizeof a);
	for (unsigned i = 0; i < RND_LEAVES; i++)
		rnd_leaf_init(&a.l[i], i, r);
	b = a;
	for (unsigned e = 1 + semgen_below(r, 3), k = 0; e; e--, k++)
		rnd_mutate(&b, 10 + k, r);
	p->old_xml = rnd_xml(&a);
	p->new_xml = rnd_xml(&b);
}

bool diffgen_matches(const spec_bitset *b, const uint64_t *w, uint32_t gen)
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

static size_t find_key(const tkey *keys, size_t nkeys, uint32_t omask, uint32_t nmask)
{
	size_t k = 0;
	while (k < nkeys && !(keys[k].omask == omask && keys[k].nmask == nmask))
		k++;
	return k;
}

/* A leaf of the random specs as two masks: a word matches when its
 * pinned bits equal match (the specs are 32 bits wide). */
typedef struct leaf_masks {
	uint64_t pinned, match;
	bool never; /* a match bit outside the pinned ones */
	uint32_t gmin, gmax;
} leaf_masks;

static leaf_masks masks_of(const spec_bitset *b)
{
	leaf_masks m = {0, 0, false, b->gen.min, b->gen.max};
	for (unsigned i = 0; i < b->size && i < 64; i++) {
		bool pinned = spec_bit(b->mask, i) && !spec_bit(b->dontcare, i);
		if (pinned)
			m.pinned |= (uint64_t)1 << i;
		if (spec_bit(b->match, i)) {
			m.match |= (uint64_t)1 << i;
			m.never |= !pinned;
		}
	}
	return m;
}

/* bit i: leaf i of the root matches w at gen (diffgen_matches, with the
 * masks taken once: the sweep below asks 4096 words at ten generations) */
static uint32_t matching(const leaf_masks *m, size_t n, uint64_t w, uint32_t gen)
{
	uint32_t set = 0;
	for (size_t i = 0; i < n; i++)
		set |= (uint32_t)(!m[i].never && gen >= m[i].gmin && gen <= m[i].gmax &&
		                  (w & m[i].pinned) == m[i].match) << i;
	return set;
}

/* Ground truth at one generation: every assignment of the relevant bits
 * (the others are free in every leaf, so each stands for 2^20 words)
 * classified on both sides; the words summed per pair of leaf sets, and
 * the changed pairs compared with the report. */
static void judge_gen(const diffgen_pair *p, const spec_model *om, const spec_model *nm,
                      const diff_result *r, uint32_t gen, diffgen_tally *t, char *why,
                      size_t len)
{
	const spec_root *ro = spec_find_root(om, "#r"), *rn = spec_find_root(nm, "#r");
	if (!ro || !rn || ro->nleaves > RND_LEAVES + 1 || rn->nleaves > RND_LEAVES + 1) {
		EXPECT(!ro || !rn, "a random spec has more leaves than it was given");
		return;
	}
	leaf_masks om_masks[RND_LEAVES + 1], nm_masks[RND_LEAVES + 1];
	for (size_t i = 0; i < ro->nleaves; i++)
		om_masks[i] = masks_of(ro->leaves[i]);
	for (size_t i = 0; i < rn->nleaves; i++)
		nm_masks[i] = masks_of(rn->leaves[i]);
	/* the words of each pair of leaf sets (a set is 7 bits at most) */
	enum { SETS = 1u << (RND_LEAVES + 1) };
	uint32_t words[SETS * SETS] = {0};
	tkey all[1u << RND_RELEVANT], keys[256];
	size_t nall = 0, nkeys = 0;
	for (uint32_t a = 0; a < (1u << RND_RELEVANT); a++) {
		uint64_t w = 0;
		for (unsigned b = 0; b < RND_RELEVANT; b++)
			if ((a >> b) & 1)
				w |= (uint64_t)1 << rnd_bits[b];
		uint32_t om_ = matching(om_masks, ro->nleaves, w, gen);
		uint32_t nm_ = matching(nm_masks, rn->nleaves, w, gen);
		if (!words[om_ * SETS + nm_]++)
			all[nall++] = (tkey){om_, nm_, 0};
	}
	for (size_t k = 0; k < nall; k++)
		all[k].count = words[all[k].omask * SETS + all[k].nmask];
	/* changed: the sets differ (leaves mapped through the report's
	 * matching), or one leaf whose fields changed */
	for (size_t k = 0; k < nall; k++) {
		uint32_t om_ = all[k].omask, nm_ = all[k].nmask;
		bool changed = !maps_onto(r, ro, rn, om_, nm_);
		if (!changed && __builtin_popcount(om_) == 1)
			changed = fields_changed(r, ro->leaves[__builtin_ctz(om_)]);
		if (changed && nkeys < 256)
			keys[nkeys++] = all[k];
	}
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
		EXPECT(k < nkeys, "gen %u: a reported decoding change (old leaves 0x%x, new 0x%x) no "
		       "word has", gen, om_, nm_);
		if (k < nkeys) {
			prove_count want = {{0}};
			want.w[0] = keys[k].count << 20;
			EXPECT(!memcmp(&want, &x->words, sizeof want), "gen %u: the change from old "
			       "leaves 0x%x to new 0x%x is reported with another count of words (%llu "
			       "words have it)", gen, om_, nm_, (unsigned long long)want.w[0]);
		}
	}
	/* same-leaf sets with unchanged fields that stay ambiguous are no
	 * decoding change; every other key must be reported */
	size_t expect = 0;
	for (size_t k = 0; k < nkeys; k++)
		expect += !(__builtin_popcount(keys[k].omask) > 1 &&
		            maps_onto(r, ro, rn, keys[k].omask, keys[k].nmask));
	EXPECT(seen == expect, "gen %u: %zu decoding changes reported, the words have %zu", gen,
	       seen, expect);
}

/* Every witness, decoded by src/codec with both models at its
 * generation, matches exactly the leaves the report says. */
static void judge_witnesses(const diffgen_pair *p, const spec_model *om, const spec_model *nm,
                            const diff_result *r, diffgen_tally *t, char *why, size_t len)
{
	spec_diags d = {0};
	codec *co = codec_new(om, &d), *cn = codec_new(nm, &d);
	spec_diags_free(&d);
	EXPECT(co && cn, "no codec for one of the specs");
	for (size_t i = 0; co && cn && i < r->ndecodings; i++) {
		const diff_decoding *x = &r->decodings[i];
		const spec_root *ro = spec_find_root(om, x->root), *rn = spec_find_root(nm, x->root);
		const spec_bitset *got[16];
		size_t n = ro ? codec_classify(co, ro, x->witness, x->witness_gen, got, 16) : 0;
		bool same = n == x->nold;
		for (size_t k = 0; same && k < n; k++)
			same = got[k] == x->old_leaves[k];
		size_t m = rn ? codec_classify(cn, rn, x->witness, x->witness_gen, got, 16) : 0;
		same = same && m == x->nnew;
		for (size_t k = 0; same && k < m; k++)
			same = got[k] == x->new_leaves[k];
		size_t at_max = ro ? codec_classify(co, ro, x->witness, x->gen.max, got, 16) : 0;
		EXPECT(same && at_max == x->nold, "decoding change %zu: its witness does not decode "
		       "to the leaves it names (at gen %u, or at the range's end)", i, x->witness_gen);
	}
	for (size_t i = 0; co && cn && i < r->ndisplays; i++) {
		const diff_display *x = &r->displays[i];
		if (!x->witness)
			continue;
		const spec_bitset *a[4], *b[4];
		size_t na = codec_classify(co, spec_find_root(om, x->old_leaf->root->name), x->witness,
		                           x->witness_gen, a, 4);
		size_t nb = codec_classify(cn, spec_find_root(nm, x->new_leaf->root->name), x->witness,
		                           x->witness_gen, b, 4);
		EXPECT(na == 1 && a[0] == x->old_leaf && nb == 1 && b[0] == x->new_leaf,
		       "display change %zu: its witness is not a word of its two leaves", i);
	}
	codec_free(co);
	codec_free(cn);
}

/* Both engines: the same report, entry by entry; Z3 asked, nothing unknown. */
static bool judge_engines(const diffgen_pair *p, const spec_model *om, const spec_model *nm,
                          diff_result *rc, diffgen_tally *t, char *why, size_t len)
{
	prove_options oc = prove_default_options(), oz = prove_default_options();
	oz.engine = PROVE_ENGINE_Z3;
	diff_result rz;
	spec_diags d = {0};
	bool okc = diff_models(om, nm, &oc, rc, &d), okz = diff_models(om, nm, &oz, &rz, &d);
	EXPECT(okc && okz, "diff_models failed (%s)", d.count ? d.items[0].message : "no reason");
	EXPECT(!d.count, "diff_models has a diagnostic: %s", d.count ? d.items[0].message : "");
	spec_diags_free(&d);
	if (!okc || !okz) {
		if (okc)
			diff_result_free(rc);
		if (okz)
			diff_result_free(&rz);
		return false;
	}
	EXPECT(!rc->any_unknown && !rz.any_unknown, "an engine left something unknown");
	EXPECT(rz.queries > rz.old_proof.queries + rz.new_proof.queries, "Z3 asked nothing of the "
	       "pair");
	bool same = rc->ndecodings == rz.ndecodings;
	for (size_t i = 0; same && i < rc->ndecodings; i++) {
		const diff_decoding *a = &rc->decodings[i], *b = &rz.decodings[i];
		same = !strcmp(a->root, b->root) && a->gen.min == b->gen.min &&
		       a->gen.max == b->gen.max && a->nold == b->nold && a->nnew == b->nnew &&
		       a->fields_only == b->fields_only && !memcmp(&a->words, &b->words, sizeof a->words) &&
		       !memcmp(a->witness, b->witness, (a->size + 63) / 64 * 8);
	}
	same = same && rc->nleaves == rz.nleaves && rc->nholes == rz.nholes &&
	       rc->noverlaps_introduced == rz.noverlaps_introduced &&
	       rc->noverlaps_fixed == rz.noverlaps_fixed;
	EXPECT(same, "the cube engine and Z3 report the pair differently (decoding changes %zu "
	       "and %zu)", rc->ndecodings, rz.ndecodings);
	diff_result_free(&rz);
	return true;
}

void diffgen_pair_judge(const diffgen_pair *p, diffgen_tally *t, char *why, size_t len)
{
	spec_model *om = p->old_xml ? load_str(p->old_xml) : NULL;
	spec_model *nm = p->new_xml ? load_str(p->new_xml) : NULL;
	EXPECT(om && nm, "a generated spec does not load");
	diff_result r;
	if (om && nm && judge_engines(p, om, nm, &r, t, why, len)) {
		judge_witnesses(p, om, nm, &r, t, why, len);
		t->changed += r.ndecodings;
		for (uint32_t g = 0; g <= 8; g++)
			judge_gen(p, om, nm, &r, g, t, why, len);
		judge_gen(p, om, nm, &r, UINT32_MAX, t, why, len);
		diff_result_free(&r);
		/* a spec against itself: empty, proved by both engines */
		diff_result same;
		if (judge_engines(p, om, om, &same, t, why, len)) {
			EXPECT(diff_is_empty(&same), "the old spec against itself is not empty");
			diff_result_free(&same);
		}
		t->pairs++;
	}
	spec_model_free(om);
	spec_model_free(nm);
}

/* ----------------------------------------------------------- text pairs */

typedef struct tx_spec {
	char enum_str[4][8];
	char parent_disp[48];
	char leaf_disp[3][48]; /* "" : inherit */
	int over_val[3];       /* -1: no override; else {B} == v prints "z" */
	int over_form[3];      /* how the condition is written (some forms differ) */
	char sub_half[8];      /* "h" or "q" */
	char param_src[4];     /* "P" or "Q" */
	int b_low;             /* B's low bit (B is 3 bits wide) */
} tx_spec;

static const char *const tx_strs[] = {"", ".a", ".b", ".c", ".d", ".aa"};

static void tx_init(tx_spec *s, semgen_rng *r)
{
	for (int i = 0; i < 4; i++)
		snprintf(s->enum_str[i], sizeof s->enum_str[i], "%s", tx_strs[semgen_below(r, 6)]);
	snprintf(s->parent_disp, sizeof s->parent_disp, "{NAME}{E} {B}, {S}");
	for (int i = 0; i < 3; i++) {
		s->leaf_disp[i][0] = 0;
		s->over_val[i] = semgen_below(r, 2) ? -1 : (int)semgen_below(r, 8);
		s->over_form[i] = 0;
	}
	snprintf(s->sub_half, sizeof s->sub_half, "h");
	snprintf(s->param_src, sizeof s->param_src, "P");
	s->b_low = 4;
}

static void tx_mutate(tx_spec *s, semgen_rng *r)
{
	static const char *const disps[] = {"{NAME}{E} {B}, {S}", "{NAME} {B}, {S}",
	                                    "{NAME}{E} {S}", "{NAME}{E}{B}, {S}",
	                                    "{NAME}{E} {B}, {S}"};
	switch (semgen_below(r, 8)) {
	case 7: /* the override's condition rewritten: Z3 decides */
		s->over_form[semgen_below(r, 3)] = (int)semgen_below(r, 5);
		break;
	case 0:
		snprintf(s->enum_str[semgen_below(r, 4)], sizeof s->enum_str[0], "%s",
		         tx_strs[semgen_below(r, 6)]);
		break;
	case 1:
		snprintf(s->parent_disp, sizeof s->parent_disp, "%s", disps[semgen_below(r, 5)]);
		break;
	case 2:
		snprintf(s->leaf_disp[semgen_below(r, 3)], sizeof s->leaf_disp[0], "%s",
		         disps[semgen_below(r, 5)]);
		break;
	case 3:
		s->over_val[semgen_below(r, 3)] = semgen_below(r, 2) ? -1 : (int)semgen_below(r, 8);
		break;
	case 4:
		snprintf(s->sub_half, sizeof s->sub_half, "%s", semgen_below(r, 2) ? "h" : "q");
		break;
	case 5:
		snprintf(s->param_src, sizeof s->param_src, "%s", semgen_below(r, 2) ? "P" : "Q");
		break;
	default:
		s->b_low = semgen_below(r, 2) ? 4 : 5; /* B moves: bits 4..6 or 5..7 (all free) */
		break;
	}
}

static char *tx_xml(const tx_spec *s)
{
	semgen_text x = {0};
	semgen_printf(&x, "<isa>\n<enum name=\"#e\">\n");
	for (int i = 0; i < 4; i++)
		semgen_printf(&x, "<value val=\"%d\" display=\"%s\"/>\n", i, s->enum_str[i]);
	semgen_printf(&x, "</enum>\n<bitset name=\"#s\" size=\"4\">\n"
	                  "<override><expr>{HALF}</expr><display>%s{R}</display></override>\n"
	                  "<display>r{R}</display></bitset>\n"
	                  "<bitset name=\"s\" extends=\"#s\">"
	                  "<field name=\"R\" low=\"0\" high=\"3\" type=\"uint\"/></bitset>\n"
	                  "<bitset name=\"#i\" size=\"32\">\n<display>%s</display>\n"
	                  "<pattern low=\"16\" high=\"27\">000000000000</pattern>\n"
	                  "<pattern low=\"8\" high=\"11\">0000</pattern>\n"
	                  "<field name=\"E\" low=\"12\" high=\"13\" type=\"#e\"/>\n"
	                  "<field name=\"P\" pos=\"14\" type=\"bool\"/>\n"
	                  "<field name=\"Q\" pos=\"15\" type=\"bool\"/>\n"
	                  "<field name=\"B\" low=\"%d\" high=\"%d\" type=\"uint\"/>\n"
	                  "<field name=\"S\" low=\"0\" high=\"3\" type=\"#s\">"
	                  "<param name=\"%s\" as=\"HALF\"/></field>\n</bitset>\n",
	              s->sub_half, s->parent_disp, s->b_low, s->b_low + 2, s->param_src);
	for (int i = 0; i < 3; i++) {
		semgen_printf(&x, "<bitset name=\"op%d\" extends=\"#i\">\n", i);
		/* forms 0..3 say {B} == v; form 4 says {B} == v + 1 */
		if (s->over_val[i] >= 0) {
			int v = s->over_val[i];
			char cond[64];
			switch (s->over_form[i]) {
			case 1: snprintf(cond, sizeof cond, "({B} ^ %d) == 0", v); break;
			case 2: snprintf(cond, sizeof cond, "!({B} != %d)", v); break;
			case 3: snprintf(cond, sizeof cond, "{B} - %d == 0", v); break;
			case 4: snprintf(cond, sizeof cond, "{B} == %d + 1", v); break;
			default: snprintf(cond, sizeof cond, "{B} == %d", v); break;
			}
			semgen_printf(&x, "<override><expr>%s</expr>"
			                  "<display>{NAME} z, {S}</display></override>\n",
			              cond);
		}
		if (s->leaf_disp[i][0])
			semgen_printf(&x, "<display>%s</display>\n", s->leaf_disp[i]);
		semgen_printf(&x, "<pattern low=\"28\" high=\"31\">%d%d%d%d</pattern>\n</bitset>\n",
		              (i + 1) >> 3 & 1, (i + 1) >> 2 & 1, (i + 1) >> 1 & 1, (i + 1) & 1);
	}
	semgen_printf(&x, "</isa>\n");
	return x.s;
}

void diffgen_text_make(diffgen_pair *p, semgen_rng *r)
{
	tx_spec a, b;
	tx_init(&a, r);
	b = a;
	for (unsigned e = 1 + semgen_below(r, 2); e; e--)
		tx_mutate(&b, r);
	p->old_xml = tx_xml(&a);
	p->new_xml = tx_xml(&b);
}

typedef struct tx_codecs {
	codec *c[2];
} tx_codecs;

static const spec_bitset *tx_leaf_of(void *ctx, int side, const spec_root *root,
                                     const uint64_t *w, uint32_t gen)
{
	tx_codecs *cs = ctx;
	const spec_bitset *out[2];
	return codec_classify(cs->c[side], root, w, gen, out, 2) == 1 ? out[0] : NULL;
}

static void tx_print(void *ctx, int side, const spec_root *root, const uint64_t *w,
                     uint32_t gen, char *buf, size_t len)
{
	tx_codecs *cs = ctx;
	codec_disasm_options o = {.gen = gen};
	codec_disasm_root(cs->c[side], root, w, &o, buf, len);
}

void diffgen_text_judge(const diffgen_pair *p, diffgen_tally *t, char *why, size_t len)
{
	spec_model *om = p->old_xml ? load_str(p->old_xml) : NULL;
	spec_model *nm = p->new_xml ? load_str(p->new_xml) : NULL;
	spec_diags d = {0};
	tx_codecs cs = {{om ? codec_new(om, &d) : NULL, nm ? codec_new(nm, &d) : NULL}};
	EXPECT(cs.c[0] && cs.c[1], "a generated spec does not load or has no codec");
	diff_result r;
	bool ok = cs.c[0] && cs.c[1] && diff_models(om, nm, NULL, &r, &d);
	EXPECT(!cs.c[0] || !cs.c[1] || ok, "diff_models failed");
	diff_codec_ops ops = {.ctx = &cs, .default_root = "#i", .leaf_of = tx_leaf_of,
	                      .print = tx_print};
	if (ok && !diff_texts(om, nm, NULL, &ops, &r, &d)) {
		EXPECT(false, "diff_texts failed");
		diff_result_free(&r);
		ok = false;
	}
	const spec_root *ro = ok ? spec_find_root(om, "#i") : NULL;
	const spec_root *rn = ok ? spec_find_root(nm, "#i") : NULL;
	for (unsigned k = 0; ro && rn && k < 3 && k < ro->nleaves; k++) {
		/* brute force: every word of op<k> (bits 0..7 and 12..15 free) */
		uint64_t ndiff = 0;
		for (uint32_t a = 0; a < 4096; a++) {
			uint64_t w = ((uint64_t)(k + 1) << 28) | (a >> 8) << 12 | (a & 0xff);
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
			EXPECT(ndiff == 0, "op%u: %llu words print differently, and the report names "
			       "none", k, (unsigned long long)ndiff);
			continue;
		}
		t->differing++;
		EXPECT(dt->verdict == DIFF_TEXT_DIFFERS && dt->counted && dt->words.w[0] == ndiff &&
		       ndiff > 0, "op%u: the report says %llu words print differently (verdict %d), "
		       "%llu do", k, (unsigned long long)dt->words.w[0], (int)dt->verdict,
		       (unsigned long long)ndiff);
		char t0[256], t1[256];
		tx_print(&cs, 0, ro, dt->witness, dt->witness_gen, t0, sizeof t0);
		tx_print(&cs, 1, rn, dt->witness, dt->witness_gen, t1, sizeof t1);
		EXPECT(strcmp(t0, t1) && !strcmp(t0, dt->old_text) && !strcmp(t1, dt->new_text),
		       "op%u: the witness does not print the report's two texts (\"%s\" / \"%s\")", k,
		       dt->old_text, dt->new_text);
	}
	if (ok) {
		t->by_z3 += r.texts_z3;
		t->pairs++;
		diff_result_free(&r);
	}
	codec_free(cs.c[0]);
	codec_free(cs.c[1]);
	spec_diags_free(&d);
	spec_model_free(om);
	spec_model_free(nm);
}
