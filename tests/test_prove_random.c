/*
 * test_prove_random.c - the prover against brute force, on many small
 * random specs.
 *
 * Each spec is generated as XML text together with a record of what it
 * means: which bits every leaf fixes and to what, at which generations it
 * lives, and how often each of its bits is claimed.  Roots are at most 16
 * bits wide, so every word can be enumerated; that enumeration over the
 * generator's record (not the model's masks) is the ground truth that
 * both engines' overlaps, accounting and coverage are compared with.
 *
 * Usage: test_prove_random [SEED [COUNT]]   (defaults 1 and 300).
 * Every 5th spec also goes through the Z3 engine, which is slower.
 */
#include "check.h"
#include "spec.h"
#include "testlib.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BITS 16     /* widest root: 2^16 words stay enumerable */
#define NODE_BUDGET 24  /* no new inner bitsets beyond this many bitsets */
#define MAX_LEAVES 128  /* per spec; a root has at most 4 * 3 * 3 = 36 (a live set is a uint64_t) */
#define MAX_WORDS ((1u << MAX_BITS) / 64u)
#define Z3_EVERY 5
#define SHOW_FAILURES 25 /* mismatch messages printed */
#define SHOW_SPECS 3     /* failing specs whose XML is printed */

/* ------------------------------------------------------------ random */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	return testlib_splitmix64(&rng_state);
}

/* Uniform in 0 .. n-1 (0 when n is 0); n may exceed 32 bits. */
static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned percent)
{
	return below(100) < percent;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

typedef testlib_text sbuf;
#define sb_printf testlib_printf

/* ------------------------------------------------------ the generator */

/* What the generator knows about a leaf: this is the ground truth. */
typedef struct gleaf {
	char name[16];
	int root;                /* index into gspec.roots */
	spec_gen gen;            /* effective: intersected along the chain */
	uint32_t fixed, value;   /* merged 0/1 pattern bits and their values */
	uint8_t claims[MAX_BITS];/* pattern chars, field and assert bits along the chain */
	const spec_bitset *b;    /* the model's leaf, once mapped */
} gleaf;

typedef struct groot {
	char name[16];
	unsigned size;
	spec_gen gen;
	int leaf0, nleaves;      /* its leaves are gspec.leaves[leaf0 ..] */
	const spec_root *r;      /* the model's root, once mapped */
} groot;

typedef struct gspec {
	sbuf xml;
	groot roots[2];
	int nroots;
	gleaf leaves[MAX_LEAVES];
	int nleaves;
	int nnodes, nnames;      /* counters for unique names */
} gspec;

/* What a bitset inherits from its ancestors, and what its parent asks of
 * it: a pattern on the parent's discriminator run (the bits the parent
 * left for telling its children apart). */
typedef struct chain {
	uint32_t avail;          /* bits no ancestor claimed on purpose */
	uint32_t fixed, value;
	uint8_t claims[MAX_BITS];
	spec_gen gen;
	char disc[MAX_BITS + 1]; /* pattern text, MSB first; "" for none */
	unsigned disc_lo;
} chain;

/* A forced <gen> for one of two same-named per-generation variants. */
typedef struct forced_gen {
	bool has_min, has_max;
	uint32_t min, max;
} forced_gen;

static uint32_t range_mask(unsigned lo, unsigned hi)
{
	return (uint32_t)((((uint64_t)1 << (hi + 1)) - 1) & ~(((uint64_t)1 << lo) - 1));
}

static void emit_range(sbuf *x, unsigned lo, unsigned hi)
{
	/* Both spellings of a one-bit range occur in Mesa's files. */
	if (lo == hi && chance(50))
		sb_printf(x, " pos=\"%u\"", lo);
	else
		sb_printf(x, " low=\"%u\" high=\"%u\"", lo, hi);
}

/* A <pattern> with the given text (MSB first) over lo..; updates the chain. */
static void emit_pattern(sbuf *x, chain *c, unsigned lo, const char *text)
{
	unsigned len = (unsigned)strlen(text), hi = lo + len - 1;
	sb_printf(x, "  <pattern");
	emit_range(x, lo, hi);
	sb_printf(x, ">%s</pattern>\n", text);
	for (unsigned i = 0; i < len; i++) {
		unsigned bit = hi - i;
		c->claims[bit]++;
		if (text[i] != 'x') {
			c->fixed |= 1u << bit;
			if (text[i] == '1')
				c->value |= 1u << bit;
		}
	}
}

static void emit_field(sbuf *x, gspec *g, chain *c, unsigned lo, unsigned hi)
{
	sb_printf(x, "  <field name=\"f%d\"", g->nnames++);
	emit_range(x, lo, hi);
	sb_printf(x, " type=\"uint\"/>\n");
	for (unsigned bit = lo; bit <= hi; bit++)
		c->claims[bit]++;
}

static void emit_assert(sbuf *x, chain *c, unsigned lo, unsigned hi)
{
	sb_printf(x, "  <assert");
	emit_range(x, lo, hi);
	sb_printf(x, ">");
	for (unsigned bit = hi + 1; bit-- > lo;)
		sb_printf(x, "%c", chance(50) ? '1' : '0');
	sb_printf(x, "</assert>\n");
	for (unsigned bit = lo; bit <= hi; bit++)
		c->claims[bit]++;
}

/* Claims the bits of `claim` with patterns, fields and asserts cut from
 * its contiguous runs. */
static void emit_claims(sbuf *x, gspec *g, chain *c, uint32_t claim, unsigned size)
{
	for (unsigned lo = 0; lo < size;) {
		if (!((claim >> lo) & 1u)) {
			lo++;
			continue;
		}
		unsigned end = lo;
		while (end + 1 < size && ((claim >> (end + 1)) & 1u))
			end++;
		while (lo <= end) {
			unsigned hi = lo + (unsigned)below(end - lo + 1);
			unsigned kind = (unsigned)below(100);
			if (kind < 50) {
				char text[MAX_BITS + 1];
				unsigned len = hi - lo + 1;
				for (unsigned i = 0; i < len; i++) {
					unsigned r = (unsigned)below(10);
					text[i] = r < 4 ? '0' : r < 8 ? '1' : 'x';
				}
				text[len] = '\0';
				emit_pattern(x, c, lo, text);
			} else if (kind < 85) {
				emit_field(x, g, c, lo, hi);
			} else {
				emit_assert(x, c, lo, hi);
			}
			lo = hi + 1;
		}
	}
}

/* A random start of `len` consecutive bits inside avail; false if none. */
static bool find_run(uint32_t avail, unsigned len, unsigned size, unsigned *lo)
{
	unsigned cand[MAX_BITS], n = 0;
	if (len == 0) {
		*lo = 0;
		return true;
	}
	for (unsigned s = 0; s + len <= size; s++)
		if ((avail & range_mask(s, s + len - 1)) == range_mask(s, s + len - 1))
			cand[n++] = s;
	if (!n)
		return false;
	*lo = cand[below(n)];
	return true;
}

static unsigned ceil_log2(unsigned n)
{
	unsigned d = 0;
	while ((1u << d) < n)
		d++;
	return d;
}

/* Generates one bitset and, depth first, its children.  parent is NULL
 * for a root.  Document order is preorder, so parents come first. */
static void gen_bitset(gspec *g, int ri, const char *parent, const chain *in, int depth,
                       int maxdepth, const forced_gen *fg, const char *fixed_name)
{
	groot *r = &g->roots[ri];
	unsigned size = r->size;
	sbuf *x = &g->xml;
	int nchild = 0;
	/* Up to 3 children (plus a variant) at the root, 2 (plus one) below:
	 * the leaf bound above holds whatever the budget does. */
	if (depth < maxdepth && g->nnodes < NODE_BUDGET)
		nchild = 1 + (int)below(depth ? 2 : 3);
	g->nnodes++;

	char name[16];
	if (fixed_name)
		snprintf(name, sizeof name, "%s", fixed_name);
	else if (!parent)
		snprintf(name, sizeof name, "r%d", ri);
	else
		snprintf(name, sizeof name, "%c%d", nchild ? 'n' : 'i', g->nnames++);
	if (parent)
		sb_printf(x, "<bitset name=\"%s\" extends=\"%s\">\n", name, parent);
	else
		sb_printf(x, "<bitset name=\"%s\" size=\"%u\">\n", name, size);

	/* Generations: a child only narrows; unwritten bounds inherit. */
	spec_gen pg = in->gen, eff = pg;
	forced_gen own = {0};
	if (fg) {
		own = *fg;
	} else if (chance(30)) {
		unsigned mode = (unsigned)below(3); /* 0: min, 1: max, 2: both */
		if (mode != 1) {
			own.has_min = true;
			own.min = pg.min + (uint32_t)below(min_u64((uint64_t)pg.max - pg.min, 20) + 1);
		}
		uint32_t lo = own.has_min ? own.min : pg.min;
		if (mode != 0) {
			own.has_max = true;
			own.max = lo + (uint32_t)below(min_u64((uint64_t)pg.max - lo, 20) + 1);
			if (pg.max == UINT32_MAX && chance(15))
				own.max = UINT32_MAX; /* written out: the top boundary */
		}
	}
	if (own.has_min)
		eff.min = own.min;
	if (own.has_max)
		eff.max = own.max;
	if (own.has_min || own.has_max) {
		sb_printf(x, "  <gen");
		if (own.has_min)
			sb_printf(x, " min=\"%" PRIu32 "\"", own.min);
		if (own.has_max)
			sb_printf(x, " max=\"%" PRIu32 "\"", own.max);
		sb_printf(x, "/>\n");
	}
	if (!parent)
		r->gen = eff;

	chain c = *in;
	c.gen = eff;
	c.disc[0] = '\0';
	uint32_t avail = in->avail;
	if (in->disc[0]) {
		emit_pattern(x, &c, in->disc_lo, in->disc);
		avail &= ~range_mask(in->disc_lo, in->disc_lo + (unsigned)strlen(in->disc) - 1);
	}

	/* Children: a run of bits to tell them apart, sometimes one bit more
	 * than needed (leaving holes); sometimes the last two are per-gen
	 * variants of one name. */
	bool pair = nchild > 0 && eff.max > eff.min && chance(25);
	unsigned nslots = (unsigned)nchild + pair, dlen = ceil_log2(nslots), dlo = 0;
	if (nslots) {
		unsigned want = dlen + (chance(25) ? 1u : 0u);
		if (find_run(avail, want, size, &dlo)) {
			dlen = want;
		} else if (!find_run(avail, dlen, size, &dlo)) {
			nchild = 1; /* no room to discriminate: one child */
			pair = false;
			nslots = 1;
			dlen = 0;
		}
	}
	uint32_t dmask = dlen ? range_mask(dlo, dlo + dlen - 1) : 0;
	uint32_t rest = avail & ~dmask, claim = 0;
	if (!nslots) {
		/* A leaf claims everything left, except sometimes one bit. */
		claim = rest;
		if (rest && chance(6)) {
			unsigned bit;
			do
				bit = (unsigned)below(size);
			while (!((rest >> bit) & 1u));
			claim &= ~(1u << bit);
		}
	} else {
		/* An inner bitset claims pieces; its children the rest. */
		for (unsigned lo = 0; lo < size;) {
			if (!((rest >> lo) & 1u)) {
				lo++;
				continue;
			}
			unsigned end = lo;
			while (end + 1 < size && ((rest >> (end + 1)) & 1u))
				end++;
			if (chance(50)) {
				unsigned a = lo + (unsigned)below(end - lo + 1);
				unsigned b = a + (unsigned)below(end - a + 1);
				claim |= range_mask(a, b);
			}
			lo = end + 1;
		}
	}
	emit_claims(x, g, &c, claim, size);
	c.avail = avail & ~claim;

	/* Deliberately a bit claimed twice: a field or an assert anywhere. */
	if (chance(4)) {
		unsigned lo = (unsigned)below(size);
		unsigned hi = lo + (unsigned)below(min_u64(4, size - lo));
		if (chance(70))
			emit_field(x, g, &c, lo, hi);
		else
			emit_assert(x, &c, lo, hi);
	}
	/* An override: its field claims nothing for accounting. */
	if (chance(10)) {
		unsigned lo = (unsigned)below(size);
		unsigned hi = lo + (unsigned)below(min_u64(4, size - lo));
		int f = g->nnames++;
		sb_printf(x, "  <override>\n    <expr>1</expr>\n    <display>{NAME} {o%d}</display>\n"
		             "    <field name=\"o%d\" low=\"%u\" high=\"%u\" type=\"uint\"/>\n"
		             "  </override>\n", f, f, lo, hi);
	}
	if (!parent)
		sb_printf(x, "  <display>{NAME}</display>\n");
	sb_printf(x, "</bitset>\n");

	if (!nslots) {
		if (g->nleaves == MAX_LEAVES)
			abort(); /* cannot happen: see the bound at MAX_LEAVES */
		gleaf *l = &g->leaves[g->nleaves++];
		snprintf(l->name, sizeof l->name, "%s", name);
		l->root = ri;
		l->gen = eff;
		l->fixed = c.fixed;
		l->value = c.value;
		memcpy(l->claims, c.claims, sizeof l->claims);
		l->b = NULL;
		r->nleaves++;
		return;
	}

	/* Discriminator values: distinct, except sometimes copied or with a
	 * don't-care (both make overlapping leaves likely). */
	unsigned vals[8], nv = 1u << dlen;
	for (unsigned i = 0; i < nv; i++)
		vals[i] = i;
	for (unsigned i = nv; i-- > 1;) {
		unsigned j = (unsigned)below(i + 1), t = vals[i];
		vals[i] = vals[j];
		vals[j] = t;
	}
	char vname[16] = "";
	forced_gen fa = {0}, fb = {0};
	if (pair) {
		snprintf(vname, sizeof vname, "i%d", g->nnames++);
		uint32_t s = eff.min + (uint32_t)below(min_u64((uint64_t)eff.max - eff.min - 1, 20) + 1);
		fa.has_max = true;
		fa.max = s;
		if (chance(30)) {
			fa.has_min = true;
			fa.min = eff.min;
		}
		fb.has_min = true;
		fb.min = s + 1 + (uint32_t)below(min_u64((uint64_t)eff.max - (s + 1), 2) + 1);
	}
	for (unsigned i = 0; i < nslots; i++) {
		chain cc = c;
		unsigned v = vals[i];
		bool second = pair && i == nslots - 1;
		if (i > 0 && (chance(10) || (second && chance(50))))
			v = vals[i - 1];
		for (unsigned k = 0; k < dlen; k++)
			cc.disc[k] = (v >> (dlen - 1 - k)) & 1u ? '1' : '0';
		cc.disc[dlen] = '\0';
		if (dlen && chance(10))
			cc.disc[below(dlen)] = 'x';
		cc.disc_lo = dlo;
		if (pair && i >= nslots - 2)
			gen_bitset(g, ri, name, &cc, depth + 1, depth + 1, second ? &fb : &fa, vname);
		else
			gen_bitset(g, ri, name, &cc, depth + 1, maxdepth, NULL, NULL);
	}
}

static void gen_spec(gspec *g)
{
	memset(g, 0, sizeof *g);
	sb_printf(&g->xml, "<?xml version=\"1.0\"?>\n<isa>\n");
	g->nroots = chance(30) ? 2 : 1;
	for (int ri = 0; ri < g->nroots; ri++) {
		groot *r = &g->roots[ri];
		snprintf(r->name, sizeof r->name, "r%d", ri);
		r->size = 4 + (unsigned)below(MAX_BITS - 3);
		r->leaf0 = g->nleaves;
		chain c = {0};
		c.avail = range_mask(0, r->size - 1);
		c.gen = (spec_gen){0, UINT32_MAX};
		gen_bitset(g, ri, NULL, &c, 0, (int)below(4), NULL, NULL);
	}
	sb_printf(&g->xml, "</isa>\n");
}

/* ------------------------------------------------------- ground truth */

static bool gmatch(const gleaf *l, uint32_t w, uint32_t gen)
{
	return (w & l->fixed) == l->value && gen >= l->gen.min && gen <= l->gen.max;
}

static bool gen_in(spec_gen g, uint32_t gen)
{
	return gen >= g.min && gen <= g.max;
}

/* Which words each leaf's patterns match (generations aside), and which
 * leaf pairs share a word: computed once per spec from the generator's
 * record by enumerating every word. */
static uint64_t leaf_words[MAX_LEAVES][MAX_WORDS];
static bool pair_shares[MAX_LEAVES][MAX_LEAVES];

static unsigned nwords_of(unsigned size)
{
	return ((1u << size) + 63u) / 64u;
}

static void compute_truth(const gspec *g)
{
	for (int i = 0; i < g->nleaves; i++) {
		const gleaf *l = &g->leaves[i];
		unsigned size = g->roots[l->root].size;
		memset(leaf_words[i], 0, sizeof leaf_words[i]);
		for (uint32_t w = 0; w < (1u << size); w++)
			if ((w & l->fixed) == l->value)
				leaf_words[i][w / 64] |= (uint64_t)1 << (w % 64);
	}
	for (int i = 0; i < g->nleaves; i++)
		for (int j = 0; j < g->nleaves; j++) {
			bool s = false;
			if (g->leaves[i].root == g->leaves[j].root) {
				unsigned nw = nwords_of(g->roots[g->leaves[i].root].size);
				for (unsigned k = 0; k < nw && !s; k++)
					s = (leaf_words[i][k] & leaf_words[j][k]) != 0;
			}
			pair_shares[i][j] = s;
		}
}

/* Two leaves overlap when some word matches both at some generation.
 * Matching a word does not depend on the generation, so that is: they
 * share a word, and their ranges meet (at the later of the two mins, a
 * boundary inside both ranges). */
static bool expect_overlap(const gspec *g, int i, int j)
{
	spec_gen a = g->leaves[i].gen, b = g->leaves[j].gen;
	return i != j && pair_shares[i][j] && a.min <= b.max && b.min <= a.max;
}

static spec_gen gen_meet(spec_gen a, spec_gen b)
{
	return (spec_gen){a.min > b.min ? a.min : b.min, a.max < b.max ? a.max : b.max};
}

/* The leaves of root ri live at gen, as a bit set over leaf0.. */
static uint64_t live_at(const gspec *g, int ri, uint32_t gen)
{
	const groot *r = &g->roots[ri];
	uint64_t live = 0;
	for (int i = 0; i < r->nleaves; i++)
		if (gen_in(g->leaves[r->leaf0 + i].gen, gen))
			live |= (uint64_t)1 << i;
	return live;
}

typedef struct einterval {
	spec_gen gen;
	uint64_t live;
} einterval;

/* The root's range cut where any leaf starts or ends; neighbours with the
 * same live set merged. */
static int expected_intervals(const gspec *g, int ri, einterval *out)
{
	const groot *r = &g->roots[ri];
	uint32_t pts[1 + 2 * MAX_LEAVES];
	int n = 0, m = 0;
	pts[n++] = r->gen.min;
	for (int i = 0; i < r->nleaves; i++) {
		spec_gen lg = g->leaves[r->leaf0 + i].gen;
		if (lg.min > r->gen.min)
			pts[n++] = lg.min;
		if (lg.max < r->gen.max)
			pts[n++] = lg.max + 1;
	}
	for (int i = 1; i < n; i++) /* insertion sort: n is small */
		for (int j = i; j > 0 && pts[j - 1] > pts[j]; j--) {
			uint32_t t = pts[j];
			pts[j] = pts[j - 1];
			pts[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		if (i > 0 && pts[i] == pts[i - 1])
			continue;
		uint32_t hi = r->gen.max;
		for (int k = i + 1; k < n; k++)
			if (pts[k] != pts[i]) {
				hi = pts[k] - 1;
				break;
			}
		uint64_t live = live_at(g, ri, pts[i]);
		if (m > 0 && out[m - 1].live == live)
			out[m - 1].gen.max = hi;
		else
			out[m++] = (einterval){{pts[i], hi}, live};
	}
	return m;
}

/* ----------------------------------------------------------- checking */

static int shown_failures;
static char context[96]; /* which spec and engine, for messages */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	testlib_checks++;
	testlib_failures++;
	if (shown_failures++ >= SHOW_FAILURES)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "MISMATCH %s: ", context);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

#define EXPECT(cond, ...)                      \
	do {                                   \
		if (cond)                      \
			testlib_checks++;      \
		else                           \
			fail(__VA_ARGS__);     \
	} while (0)

static int leaf_index(const gspec *g, const spec_bitset *b)
{
	for (int i = 0; i < g->nleaves; i++)
		if (g->leaves[i].b == b)
			return i;
	return -1;
}

static int root_index(const gspec *g, const spec_root *r)
{
	for (int i = 0; i < g->nroots; i++)
		if (g->roots[i].r == r)
			return i;
	return -1;
}

/* Finds the model's roots and leaves for the generator's, checking that
 * the loader kept them all.  False when the mapping is incomplete. */
static bool map_model(gspec *g, const spec_model *m)
{
	bool ok = true;
	EXPECT(m->nroots == (size_t)g->nroots, "model has %zu roots, generated %d", m->nroots,
	       g->nroots);
	for (int ri = 0; ri < g->nroots; ri++) {
		groot *r = &g->roots[ri];
		r->r = spec_find_root(m, r->name);
		if (!r->r) {
			fail("root %s missing from the model", r->name);
			ok = false;
			continue;
		}
		EXPECT(r->r->nleaves == (size_t)r->nleaves, "root %s has %zu leaves, generated %d",
		       r->name, r->r->nleaves, r->nleaves);
		EXPECT(r->r->bitset->gen.min == r->gen.min && r->r->bitset->gen.max == r->gen.max,
		       "root %s gen %u..%u, generated %u..%u", r->name, r->r->bitset->gen.min,
		       r->r->bitset->gen.max, r->gen.min, r->gen.max);
		for (int i = 0; i < r->nleaves; i++) {
			gleaf *l = &g->leaves[r->leaf0 + i];
			l->b = NULL;
			for (size_t k = 0; k < r->r->nleaves; k++) {
				const spec_bitset *b = r->r->leaves[k];
				if (!strcmp(b->name, l->name) && b->gen.min == l->gen.min &&
				    b->gen.max == l->gen.max)
					l->b = b;
			}
			if (!l->b) {
				fail("leaf %s (gen %u..%u) missing from the model", l->name,
				     l->gen.min, l->gen.max);
				ok = false;
				continue;
			}
			EXPECT(spec_find_bitset_gen(m, l->name, l->gen.min) == l->b,
			       "spec_find_bitset_gen(%s, %u) is not that leaf", l->name, l->gen.min);
		}
	}
	return ok;
}

/* The distinct generations where anything can change for root ri. */
static int boundaries(const gspec *g, int ri, uint32_t *out)
{
	const groot *r = &g->roots[ri];
	int n = 0;
	out[n++] = 0;
	out[n++] = UINT32_MAX;
	for (int i = 0; i < r->nleaves; i++) {
		spec_gen lg = g->leaves[r->leaf0 + i].gen;
		out[n++] = lg.min;
		out[n++] = lg.max;
		if (lg.min > 0)
			out[n++] = lg.min - 1;
		if (lg.max < UINT32_MAX)
			out[n++] = lg.max + 1;
	}
	return n;
}

/* Extra cross-check of prove_leaf_matches (and so of the loaded masks)
 * against the generator, at every boundary, on a few words per leaf. */
static void check_leaf_matches(const gspec *g)
{
	uint32_t gens[2 + 4 * MAX_LEAVES];
	for (int i = 0; i < g->nleaves; i++) {
		const gleaf *l = &g->leaves[i];
		unsigned size = g->roots[l->root].size;
		int ng = boundaries(g, l->root, gens);
		uint32_t words[6] = {l->value, l->value ^ (l->fixed & (0u - l->fixed))};
		for (int k = 2; k < 6; k++)
			words[k] = (uint32_t)below(1u << size);
		int bad = 0;
		for (int k = 0; k < 6; k++)
			for (int j = 0; j < ng; j++) {
				uint64_t w = words[k];
				bad += prove_leaf_matches(l->b, &w, gens[j]) != gmatch(l, words[k], gens[j]);
			}
		EXPECT(!bad, "prove_leaf_matches disagrees with the generator on leaf %s %d times",
		       l->name, bad);
	}
}

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static void format_expected_cube(uint64_t fixed, uint64_t value, unsigned size, char *buf)
{
	for (unsigned i = 0; i < size; i++) {
		unsigned bit = size - 1 - i;
		buf[i] = !((fixed >> bit) & 1u) ? 'x' : ((value >> bit) & 1u) ? '1' : '0';
	}
	buf[size] = '\0';
}

typedef struct totals {
	size_t specs, z3_specs, z3_queries, leaves, overlaps, holes, accounting, intervals;
	size_t holes_checked_maximal; /* intervals whose holes brute force held to maximality */
} totals;

static void check_overlaps(const gspec *g, const prove_result *res, totals *t)
{
	static bool seen[MAX_LEAVES][MAX_LEAVES];
	memset(seen, 0, sizeof seen);
	for (size_t k = 0; k < res->noverlaps; k++) {
		const prove_overlap *o = &res->overlaps[k];
		int ia = leaf_index(g, o->a), ib = leaf_index(g, o->b);
		if (ia < 0 || ib < 0) {
			fail("overlap %zu names a bitset that is not a leaf", k);
			continue;
		}
		const gleaf *la = &g->leaves[ia], *lb = &g->leaves[ib];
		const groot *r = &g->roots[la->root];
		unsigned size = r->size;
		EXPECT(o->root == r->r && la->root == lb->root,
		       "overlap %s/%s: wrong root", la->name, lb->name);
		EXPECT(ia < ib, "overlap %s/%s: a does not come first in document order",
		       la->name, lb->name);
		EXPECT(!o->unknown, "overlap %s/%s: unknown", la->name, lb->name);
		EXPECT(o->allowed_by == NULL, "overlap %s/%s: allowed without an allowlist",
		       la->name, lb->name);
		int lo = ia < ib ? ia : ib, hi = ia < ib ? ib : ia;
		EXPECT(!seen[lo][hi], "overlap %s/%s reported twice", la->name, lb->name);
		seen[lo][hi] = true;
		if (!expect_overlap(g, ia, ib)) {
			fail("overlap %s (gen %u..%u) / %s (gen %u..%u) reported, but no word "
			     "matches both at a common generation", la->name, la->gen.min,
			     la->gen.max, lb->name, lb->gen.min, lb->gen.max);
			continue;
		}
		spec_gen want = gen_meet(la->gen, lb->gen);
		EXPECT(o->gen.min == want.min && o->gen.max == want.max,
		       "overlap %s/%s: gen %u..%u, expected %u..%u", la->name, lb->name,
		       o->gen.min, o->gen.max, want.min, want.max);
		uint64_t w = o->witness ? o->witness[0] : ~0ull;
		EXPECT(o->witness && (w >> size) == 0, "overlap %s/%s: witness %#" PRIx64
		       " wider than %u bits", la->name, lb->name, w, size);
		if (!o->witness || (w >> size))
			continue;
		uint32_t gens[2] = {o->gen.min, o->gen.max};
		for (int k2 = 0; k2 < 2; k2++) {
			EXPECT(gmatch(la, (uint32_t)w, gens[k2]) && gmatch(lb, (uint32_t)w, gens[k2]),
			       "overlap %s/%s: witness %#" PRIx64 " does not match both at gen %u",
			       la->name, lb->name, w, gens[k2]);
			EXPECT(prove_leaf_matches(o->a, o->witness, gens[k2]) &&
			       prove_leaf_matches(o->b, o->witness, gens[k2]),
			       "overlap %s/%s: prove_leaf_matches rejects witness %#" PRIx64
			       " at gen %u", la->name, lb->name, w, gens[k2]);
		}
	}
	for (int i = 0; i < g->nleaves; i++)
		for (int j = i + 1; j < g->nleaves; j++) {
			if (!expect_overlap(g, i, j))
				continue;
			t->overlaps++;
			EXPECT(seen[i][j], "overlap %s (gen %u..%u) / %s (gen %u..%u) not reported",
			       g->leaves[i].name, g->leaves[i].gen.min, g->leaves[i].gen.max,
			       g->leaves[j].name, g->leaves[j].gen.min, g->leaves[j].gen.max);
		}
}

static void check_accounting(const gspec *g, const prove_result *res, totals *t)
{
	bool seen[MAX_LEAVES] = {0};
	for (size_t k = 0; k < res->naccounting; k++) {
		const prove_accounting *a = &res->accounting[k];
		int i = leaf_index(g, a->leaf);
		if (i < 0) {
			fail("accounting entry %zu names a bitset that is not a leaf", k);
			continue;
		}
		const gleaf *l = &g->leaves[i];
		EXPECT(!seen[i], "accounting of %s reported twice", l->name);
		seen[i] = true;
		EXPECT(!a->unknown, "accounting of %s: unknown", l->name);
		uint64_t un = 0, db = 0;
		for (unsigned bit = 0; bit < g->roots[l->root].size; bit++) {
			un |= (uint64_t)(l->claims[bit] == 0) << bit;
			db |= (uint64_t)(l->claims[bit] >= 2) << bit;
		}
		uint64_t gun = a->unaccounted ? a->unaccounted[0] : ~0ull;
		uint64_t gdb = a->doubly ? a->doubly[0] : ~0ull;
		EXPECT(gun == un && gdb == db,
		       "accounting of %s: unaccounted %#" PRIx64 " doubly %#" PRIx64
		       ", expected %#" PRIx64 " and %#" PRIx64, l->name, gun, gdb, un, db);
	}
	for (int i = 0; i < g->nleaves; i++) {
		bool problem = false;
		for (unsigned bit = 0; bit < g->roots[g->leaves[i].root].size; bit++)
			problem |= g->leaves[i].claims[bit] != 1;
		t->accounting += problem;
		EXPECT(seen[i] == problem, "leaf %s: %s", g->leaves[i].name,
		       problem ? "bits unaccounted or doubly claimed, not reported"
		               : "reported in accounting, but every bit is claimed once");
	}
}

/* One reported interval against enumeration at its first generation. */
/* The holes are the largest maximal free cubes, by brute force over
 * every cube of a root of up to MAX_EXACT_HOLE_BITS bits: free[c] for
 * cube c in base 3 (digit 0 or 1 a fixed bit, 2 a free one), from its
 * two halves; maximal when no fixed bit can be freed.  Every hole listed
 * is maximal; when the prover says the list is exact, no unlisted
 * maximal cube is larger than the smallest listed, and all are listed
 * when fewer than asked for are. */
#define MAX_EXACT_HOLE_BITS 11

static void check_holes_maximal(const gspec *g, int ri, const prove_interval *iv,
                                const uint64_t *covered, const prove_options *opt, totals *t)
{
	const groot *r = &g->roots[ri];
	unsigned size = r->size;
	if (size > MAX_EXACT_HOLE_BITS)
		return;
	uint32_t ncubes = 1;
	for (unsigned b = 0; b < size; b++)
		ncubes *= 3;
	static uint8_t freec[177147], maximal[177147];
	uint32_t pow3[MAX_EXACT_HOLE_BITS + 1];
	pow3[0] = 1;
	for (unsigned b = 1; b <= size; b++)
		pow3[b] = pow3[b - 1] * 3;
	for (uint32_t c = 0; c < ncubes; c++) {
		uint32_t word = 0;
		int freebit = -1;
		for (unsigned b = 0; b < size; b++) {
			unsigned d = c / pow3[b] % 3;
			if (d == 2 && freebit < 0)
				freebit = (int)b;
			word |= (uint32_t)(d == 1) << b;
		}
		if (freebit < 0)
			freec[c] = !((covered[word / 64] >> (word % 64)) & 1u);
		else
			freec[c] = freec[c - 2 * pow3[freebit]] && freec[c - pow3[freebit]];
	}
	size_t nmax = 0;
	for (uint32_t c = 0; c < ncubes; c++) {
		maximal[c] = freec[c];
		for (unsigned b = 0; b < size && maximal[c]; b++) {
			unsigned d = c / pow3[b] % 3;
			if (d != 2 && freec[c + (2 - d) * pow3[b]])
				maximal[c] = 0;
		}
		nmax += maximal[c];
	}
	unsigned bar = size + 1;
	for (size_t h = 0; h < iv->nholes; h++) {
		const prove_cube *hc = &iv->holes[h];
		uint32_t c = 0;
		for (unsigned b = 0; b < size; b++) {
			bool fx = (hc->fixed[0] >> b) & 1u, one = (hc->value[0] >> b) & 1u;
			c += (fx ? (one ? 1u : 0u) : 2u) * pow3[b];
		}
		char cube[MAX_BITS + 64];
		prove_format_cube(hc, size, cube, sizeof cube);
		EXPECT(maximal[c], "interval %u..%u of %s: hole %s is not maximal", iv->gen.min,
		       iv->gen.max, r->name, cube);
		maximal[c] = 2; /* listed */
		if (hc->free_bits < bar)
			bar = hc->free_bits;
	}
	EXPECT(iv->holes_exact, "interval %u..%u of %s: the hole search ran out of steps",
	       iv->gen.min, iv->gen.max, r->name);
	size_t larger = 0;
	for (uint32_t c = 0; c < ncubes && iv->holes_exact; c++) {
		if (maximal[c] != 1)
			continue;
		unsigned fb = 0;
		for (unsigned b = 0; b < size; b++)
			fb += c / pow3[b] % 3 == 2;
		if (fb > bar || iv->nholes < opt->max_holes) {
			if (!larger++)
				fail("interval %u..%u of %s: an unlisted maximal hole of 2^%u words (the "
				     "smallest listed: 2^%u; %zu listed of %u asked, %zu maximal in all)",
				     iv->gen.min, iv->gen.max, r->name, fb, bar, iv->nholes,
				     opt->max_holes, nmax);
		}
	}
	t->holes_checked_maximal++;
}

static void check_interval(const gspec *g, int ri, const prove_interval *iv,
                           const prove_options *opt, totals *t)
{
	const groot *r = &g->roots[ri];
	unsigned size = r->size, nw = nwords_of(size);
	uint32_t nall = 1u << size;
	uint64_t live = live_at(g, ri, iv->gen.min);
	EXPECT(live == live_at(g, ri, iv->gen.max),
	       "interval %u..%u of %s: live leaves change inside it", iv->gen.min, iv->gen.max,
	       r->name);
	EXPECT(iv->live_leaves == popcount64(live), "interval %u..%u of %s: %zu live leaves, "
	       "expected %u", iv->gen.min, iv->gen.max, r->name, iv->live_leaves,
	       popcount64(live));
	EXPECT(!iv->unknown, "interval %u..%u of %s: unknown", iv->gen.min, iv->gen.max, r->name);

	static uint64_t covered[MAX_WORDS];
	memset(covered, 0, sizeof covered);
	for (int i = 0; i < r->nleaves; i++)
		if ((live >> i) & 1u)
			for (unsigned k = 0; k < nw; k++)
				covered[k] |= leaf_words[r->leaf0 + i][k];
	uint32_t decoded = 0;
	for (unsigned k = 0; k < nw; k++)
		decoded += popcount64(covered[k] & (nall >= 64 ? ~0ull : ((uint64_t)1 << nall) - 1));
	uint32_t undecoded = nall - decoded;
	bool high_zero = true;
	for (size_t k = 1; k < sizeof iv->undecoded.w / sizeof iv->undecoded.w[0]; k++)
		high_zero &= iv->undecoded.w[k] == 0;
	EXPECT(iv->undecoded.w[0] == undecoded && high_zero,
	       "interval %u..%u of %s: undecoded %" PRIu64 "%s, expected %u", iv->gen.min,
	       iv->gen.max, r->name, iv->undecoded.w[0], high_zero ? "" : " (+ high words)",
	       undecoded);
	double frac = (double)undecoded / (double)nall;
	EXPECT(fabs(iv->fraction - frac) <= 1e-12, "interval %u..%u of %s: fraction %.17g, "
	       "expected %.17g", iv->gen.min, iv->gen.max, r->name, iv->fraction, frac);
	char buf[1300], want[32];
	prove_count_format(&iv->undecoded, buf, sizeof buf);
	snprintf(want, sizeof want, "%" PRIu64, iv->undecoded.w[0]);
	if (high_zero)
		EXPECT(!strcmp(buf, want), "prove_count_format gives \"%s\" for %s", buf, want);

	EXPECT(iv->nholes <= opt->max_holes, "interval %u..%u of %s: %zu holes, max_holes %u",
	       iv->gen.min, iv->gen.max, r->name, iv->nholes, opt->max_holes);
	EXPECT(undecoded == 0 ? iv->nholes == 0 : iv->nholes >= 1,
	       "interval %u..%u of %s: %zu holes for %u undecoded words", iv->gen.min,
	       iv->gen.max, r->name, iv->nholes, undecoded);
	t->holes += iv->nholes;
	for (size_t h = 0; h < iv->nholes; h++) {
		const prove_cube *c = &iv->holes[h];
		if (!c->fixed || !c->value) {
			fail("interval %u..%u of %s: hole %zu without vectors", iv->gen.min,
			     iv->gen.max, r->name, h);
			continue;
		}
		uint64_t fixed = c->fixed[0], value = c->value[0] & fixed;
		uint64_t freem = ~fixed & (nall - 1u);
		EXPECT((fixed >> size) == 0 && c->free_bits == size - popcount64(fixed),
		       "interval %u..%u of %s: hole %zu has fixed %#" PRIx64 " and free_bits %u",
		       iv->gen.min, iv->gen.max, r->name, h, fixed, c->free_bits);
		if (h > 0)
			EXPECT(iv->holes[h - 1].free_bits >= c->free_bits,
			       "interval %u..%u of %s: hole %zu larger than the one before",
			       iv->gen.min, iv->gen.max, r->name, h);
		/* Every word of the cube: enumerate the subsets of its free bits. */
		uint64_t sub = 0, bad = 0, badword = 0;
		do {
			uint64_t w = value | sub;
			if ((covered[w / 64] >> (w % 64)) & 1u) {
				if (!bad++)
					badword = w;
			}
			sub = (sub - freem) & freem;
		} while (sub);
		char cube[MAX_BITS + 1];
		format_expected_cube(fixed, value, size, cube);
		EXPECT(!bad, "interval %u..%u of %s: hole %s holds %" PRIu64 " decoded words, e.g. %#"
		       PRIx64, iv->gen.min, iv->gen.max, r->name, cube, bad, badword);
		char got[MAX_BITS + 64];
		prove_format_cube(c, size, got, sizeof got);
		EXPECT(!strcmp(got, cube), "prove_format_cube gives \"%s\", expected \"%s\"", got,
		       cube);
	}
	check_holes_maximal(g, ri, iv, covered, opt, t);
}

static void check_intervals(const gspec *g, const prove_result *res,
                            const prove_options *opt, totals *t)
{
	for (size_t k = 0; k < res->nintervals; k++)
		EXPECT(root_index(g, res->intervals[k].root) >= 0, "interval %zu has no known root",
		       k);
	for (int ri = 0; ri < g->nroots; ri++) {
		const groot *r = &g->roots[ri];
		einterval want[1 + 2 * MAX_LEAVES];
		int nwant = expected_intervals(g, ri, want), ngot = 0;
		for (size_t k = 0; k < res->nintervals; k++) {
			const prove_interval *iv = &res->intervals[k];
			if (iv->root != r->r)
				continue;
			if (ngot < nwant)
				EXPECT(iv->gen.min == want[ngot].gen.min &&
				       iv->gen.max == want[ngot].gen.max,
				       "%s interval %d: gen %u..%u, expected %u..%u", r->name, ngot,
				       iv->gen.min, iv->gen.max, want[ngot].gen.min,
				       want[ngot].gen.max);
			check_interval(g, ri, iv, opt, t);
			ngot++;
		}
		t->intervals += (size_t)nwant;
		EXPECT(ngot == nwant, "%s: %d intervals, expected %d", r->name, ngot, nwant);
	}
}

static void check_result(const gspec *g, const prove_result *res, const prove_options *opt,
                         totals *t)
{
	EXPECT(!res->any_unknown, "any_unknown set");
	EXPECT(res->nstale == 0, "%zu stale allowlist entries without an allowlist", res->nstale);
	check_overlaps(g, res, t);
	check_accounting(g, res, t);
	check_intervals(g, res, opt, t);
}

/* The engines must agree on everything but the witnesses and holes. */
static void compare_engines(const prove_result *a, const prove_result *b)
{
	EXPECT(a->noverlaps == b->noverlaps && a->naccounting == b->naccounting &&
	       a->nintervals == b->nintervals,
	       "engines differ: cube %zu overlaps, %zu accounting, %zu intervals; z3 %zu, %zu, %zu",
	       a->noverlaps, a->naccounting, a->nintervals, b->noverlaps, b->naccounting,
	       b->nintervals);
	if (a->noverlaps == b->noverlaps)
		for (size_t k = 0; k < a->noverlaps; k++) {
			const prove_overlap *x = &a->overlaps[k], *y = &b->overlaps[k];
			EXPECT(x->a == y->a && x->b == y->b && x->gen.min == y->gen.min &&
			       x->gen.max == y->gen.max, "engines differ on overlap %zu (%s/%s)", k,
			       x->a->name, x->b->name);
		}
	if (a->nintervals == b->nintervals)
		for (size_t k = 0; k < a->nintervals; k++) {
			const prove_interval *x = &a->intervals[k], *y = &b->intervals[k];
			EXPECT(x->gen.min == y->gen.min && x->gen.max == y->gen.max &&
			       !memcmp(&x->undecoded, &y->undecoded, sizeof x->undecoded),
			       "engines differ on interval %zu", k);
		}
}

static void print_diags(const spec_diags *d)
{
	for (size_t i = 0; i < d->count; i++)
		fprintf(stderr, "  %s %s: %s\n", spec_severity_name(d->items[i].severity),
		        d->items[i].rule, d->items[i].message);
}

/* Generates, loads and proves spec number n, checking everything. */
static void run_spec(uint64_t seed, unsigned n, totals *t)
{
	gspec *g = calloc(1, sizeof *g);
	if (!g)
		abort();
	rng_state = seed * 0x100000001b3ull + n;
	gen_spec(g);
	int failures_before = testlib_failures;
	snprintf(context, sizeof context, "seed %" PRIu64 " spec %u (load)", seed, n);

	spec_diags d = {0};
	spec_model *m = spec_load_buffer("random.xml", g->xml.p, g->xml.n, ".", &d);
	EXPECT(m != NULL, "spec_load_buffer returned NULL");
	if (!m) {
		print_diags(&d);
		goto out;
	}
	t->specs++;
	t->leaves += (size_t)g->nleaves;
	if (!map_model(g, m))
		goto out;
	compute_truth(g);
	check_leaf_matches(g);

	prove_options opt = prove_default_options();
	opt.max_holes = 1 + (unsigned)below(8);
	prove_result cube = {0}, z3 = {0};
	snprintf(context, sizeof context, "seed %" PRIu64 " spec %u (cube)", seed, n);
	spec_diags pd = {0};
	bool ok = prove_model(m, &opt, &cube, &pd);
	EXPECT(ok, "prove_model (cube) failed");
	if (!ok)
		print_diags(&pd);
	spec_diags_free(&pd);
	if (ok)
		check_result(g, &cube, &opt, t);

	if (n % Z3_EVERY == 0) {
		/* Totals count each spec once: the Z3 run adds to a scratch copy. */
		totals scratch = *t;
		prove_options zopt = opt;
		zopt.engine = PROVE_ENGINE_Z3;
		snprintf(context, sizeof context, "seed %" PRIu64 " spec %u (z3)", seed, n);
		bool zok = prove_model(m, &zopt, &z3, &pd);
		EXPECT(zok, "prove_model (z3) failed");
		if (!zok)
			print_diags(&pd);
		spec_diags_free(&pd);
		if (zok) {
			t->z3_specs++;
			t->z3_queries += z3.queries;
			check_result(g, &z3, &zopt, &scratch);
			if (ok)
				compare_engines(&cube, &z3);
			prove_result_free(&z3);
		}
	}
	if (ok)
		prove_result_free(&cube);
out:
	if (testlib_failures != failures_before) {
		static int shown_specs;
		if (shown_specs++ < SHOW_SPECS)
			fprintf(stderr, "---- spec (seed %" PRIu64 ", number %u):\n%s----\n", seed, n,
			        g->xml.p);
	}
	spec_model_free(m);
	spec_diags_free(&d);
	free(g->xml.p);
	free(g);
}

/* prove_count_format on counts no small root reaches. */
static void check_count_format(void)
{
	static const struct {
		uint64_t w0, w1;
		const char *text;
	} cases[] = {
		{0, 0, "0"},
		{65536, 0, "65536"},
		{UINT64_MAX, 0, "18446744073709551615"},
		{0, 1, "18446744073709551616"},
		{1, 1, "18446744073709551617"},
	};
	snprintf(context, sizeof context, "prove_count_format");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		prove_count c;
		memset(&c, 0, sizeof c);
		c.w[0] = cases[i].w0;
		c.w[1] = cases[i].w1;
		char buf[1300];
		prove_count_format(&c, buf, sizeof buf);
		EXPECT(!strcmp(buf, cases[i].text), "gives \"%s\", expected \"%s\"", buf,
		       cases[i].text);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	unsigned count = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 300;
	totals t = {0};
	check_count_format();
	for (unsigned n = 0; n < count; n++)
		run_spec(seed, n, &t);
	/* An engine that quietly fell back to cubes would make no queries. */
	snprintf(context, sizeof context, "seed %" PRIu64 " (z3)", seed);
	EXPECT(!t.z3_specs || t.z3_queries > 0, "the Z3 engine made no solver queries");
	printf("prove_random: seed %" PRIu64 ", %zu specs (%zu also with z3, %zu queries), "
	       "%zu leaves, %zu overlaps, %zu leaves with accounting findings, %zu intervals, "
	       "%zu holes (%zu intervals' held to every maximal cube)\n", seed, t.specs,
	       t.z3_specs, t.z3_queries, t.leaves, t.overlaps, t.accounting, t.intervals,
	       t.holes, t.holes_checked_maximal);
	/* roots of 4 to 16 bits: many are small enough for the brute force */
	EXPECT(t.holes_checked_maximal * 4 >= t.intervals, "only %zu of %zu intervals' holes held "
	       "to every maximal cube", t.holes_checked_maximal, t.intervals);
	return testlib_finish();
}
