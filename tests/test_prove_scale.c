/*
 * test_prove_scale.c - the cube engine's indexed searches against plain
 * loops, on specs too wide to enumerate and with many leaves.
 *
 * The prover finds overlapping leaves and grows holes through an index
 * over the leaves (src/check/index.c) instead of asking every pair.  Here
 * random specs of hundreds to thousands of leaves, on roots of 32, 96 and
 * 200 bits, are generated so that leaves cluster (families sharing an
 * opcode, near misses one bit apart, don't-cares, copies, generation
 * ranges) and the prover's answers are held against loops over the
 * loaded model written here:
 *  - overlaps: exactly the pairs whose cubes meet and whose gen ranges
 *    meet, in the order a then b, each witness matching both leaves;
 *  - holes: every listed hole is free (no live leaf meets it) and maximal
 *    (freeing any one of its fixed bits lets a live leaf in).
 *
 * Usage: test_prove_scale [SEED [COUNT]]   (defaults 1 and 24; 12 under
 * the sanitizers).
 */
#include "check.h"
#include "spec.h"
#include "testlib.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rng(void)
{
	return testlib_splitmix64(&rng_state);
}

static unsigned below(unsigned n) { return n ? (unsigned)(rng() % n) : 0; }
static bool chance(unsigned percent) { return below(100) < percent; }

typedef struct text {
	char *p;
	size_t n, cap;
} text;

__attribute__((format(printf, 2, 3))) static void put(text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[1024];
	int k = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (k < 0)
		abort();
	size_t len = (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1;
	if (t->n + len + 1 > t->cap) {
		t->cap = (t->n + len + 1) * 2;
		t->p = realloc(t->p, t->cap);
		if (!t->p)
			abort();
	}
	memcpy(t->p + t->n, buf, len);
	t->n += len;
	t->p[t->n] = 0;
}

/* Leaves as in an ISA: a major opcode at one place, told apart within a
 * family by a sub-opcode at the family's own place; then copies, near
 * misses one bit away, don't-cares and a leaf fixing few bits make
 * overlaps, and unused opcodes and sub-opcodes make holes.  Patterns are
 * kept most significant bit first. */
static void gen_spec(text *t, unsigned size, unsigned nleaves)
{
	enum { MAX_FAMILIES = 32 };
	unsigned nfam = 2 + below(MAX_FAMILIES - 1), oplen = 5, opat = size - oplen;
	unsigned sub_at[MAX_FAMILIES], sub_len[MAX_FAMILIES], next[MAX_FAMILIES];
	unsigned per = nleaves / nfam + 1, need = 1;
	while ((1u << need) < per * 2)
		need++;
	for (unsigned f = 0; f < nfam; f++) {
		sub_len[f] = need + below(3);
		sub_at[f] = below(opat - sub_len[f] + 1);
		next[f] = below(4);
	}
	put(t, "<isa>\n<bitset name=\"#instruction\" size=\"%u\">\n</bitset>\n", size);
	char prev[256] = "";
	unsigned catch_all = chance(30) ? below(nleaves) : nleaves;
	for (unsigned i = 0; i < nleaves; i++) {
		char pat[256];
		memset(pat, 'x', size);
		pat[size] = 0;
		if (i && chance(2)) {
			memcpy(pat, prev, sizeof pat); /* a copy */
		} else if (i && chance(5)) {
			memcpy(pat, prev, sizeof pat); /* a near miss: one fixed bit other */
			unsigned b = below(size);
			while (pat[b] == 'x')
				b = (b + 1) % size;
			pat[b] = pat[b] == '1' ? '0' : '1';
		} else {
			/* bit b of the word is pat[size - 1 - b] */
			unsigned f = below(nfam), code = next[f];
			next[f] += 1 + (chance(20) ? below(3) : 0);
			for (unsigned k = 0; k < oplen; k++)
				pat[size - 1 - (opat + k)] = (f >> k) & 1 ? '1' : '0';
			for (unsigned k = 0; k < sub_len[f]; k++)
				pat[size - 1 - (sub_at[f] + k)] = (code >> k) & 1 ? '1' : '0';
			if (chance(10)) /* a don't-care among them */
				pat[size - 1 - (chance(10) ? opat + below(oplen) : sub_at[f] + below(sub_len[f]))] =
					'x';
			if (chance(2)) /* one more fixed bit elsewhere */
				pat[below(size)] = chance(50) ? '1' : '0';
			if (i == catch_all) /* only part of the major opcode: meets much */
				for (unsigned b = 2; b < size; b++)
					pat[b] = 'x';
		}
		memcpy(prev, pat, sizeof pat);
		put(t, "<bitset name=\"l%u\" extends=\"#instruction\">\n<display>l%u</display>\n", i, i);
		/* in pieces of at most 64 bits, low bits first */
		for (unsigned lo = 0; lo < size; lo += 64) {
			unsigned hi = lo + 63 < size - 1 ? lo + 63 : size - 1;
			char piece[65];
			for (unsigned b = hi + 1; b-- > lo;)
				piece[hi - b] = pat[size - 1 - b];
			piece[hi - lo + 1] = 0;
			put(t, "<pattern low=\"%u\" high=\"%u\">%s</pattern>\n", lo, hi, piece);
		}
		if (chance(5)) {
			unsigned a = below(4), b = a + below(4);
			put(t, "<gen min=\"%u\" max=\"%u\"/>\n", a, b);
		}
		put(t, "</bitset>\n");
	}
	put(t, "</isa>\n");
}

static bool fixed_bit(const spec_bitset *b, unsigned bit, bool *value)
{
	unsigned w = bit / 64;
	uint64_t m = (uint64_t)1 << (bit % 64);
	if (!(b->mask.w[w] & m) || (b->dontcare.w[w] & m))
		return false;
	*value = (b->match.w[w] & m) != 0;
	return true;
}

static bool leaves_meet(const spec_bitset *a, const spec_bitset *b)
{
	for (unsigned w = 0; w < a->mask.nwords; w++) {
		uint64_t fa = a->mask.w[w] & ~a->dontcare.w[w], fb = b->mask.w[w] & ~b->dontcare.w[w];
		if ((a->match.w[w] ^ b->match.w[w]) & fa & fb)
			return false;
	}
	return a->gen.min <= a->gen.max && b->gen.min <= b->gen.max && a->gen.min <= b->gen.max &&
	       b->gen.min <= a->gen.max;
}

/* Does leaf b match some word of cube c? */
static bool leaf_meets_cube(const spec_bitset *b, const prove_cube *c, unsigned size)
{
	for (unsigned bit = 0; bit < size; bit++) {
		unsigned w = bit / 64;
		uint64_t m = (uint64_t)1 << (bit % 64);
		bool vb;
		if ((c->fixed[w] & m) && fixed_bit(b, bit, &vb) && vb != !!(c->value[w] & m))
			return false;
	}
	return true;
}

static bool live_in(const spec_bitset *b, spec_gen g)
{
	return b->gen.min <= g.min && g.max <= b->gen.max;
}

static bool hole_touched(const spec_root *r, const prove_interval *iv, const prove_cube *c)
{
	for (size_t i = 0; i < r->nleaves; i++)
		if (live_in(r->leaves[i], iv->gen) && leaf_meets_cube(r->leaves[i], c, iv->root->bitset->size))
			return true;
	return false;
}

static void check_one(unsigned seed, unsigned size, unsigned nleaves)
{
	text t = {0};
	gen_spec(&t, size, nleaves);
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("scale.xml", t.p, t.n, ".", &d);
	CHECK(m != NULL);
	if (!m) {
		fprintf(stderr, "seed %u: %s\n", seed, d.count ? d.items[0].message : "?");
		free(t.p);
		spec_diags_free(&d);
		return;
	}
	CHECK_INT(m->nroots, 1);
	const spec_root *r = &m->roots[0];
	CHECK_INT(r->nleaves, nleaves);
	prove_options opt = prove_default_options();
	prove_result res;
	CHECK(prove_model(m, &opt, &res, &d));

	/* overlaps: the plain pairwise loop, in its order */
	size_t k = 0, want = 0;
	bool same = true;
	for (size_t i = 0; i < r->nleaves; i++)
		for (size_t j = i + 1; j < r->nleaves; j++) {
			if (!leaves_meet(r->leaves[i], r->leaves[j]))
				continue;
			want++;
			if (k >= res.noverlaps || res.overlaps[k].a != r->leaves[i] ||
			    res.overlaps[k].b != r->leaves[j]) {
				if (same)
					fprintf(stderr, "seed %u: overlap %zu should be %s/%s\n", seed, k,
					        r->leaves[i]->name, r->leaves[j]->name);
				same = false;
				continue;
			}
			const prove_overlap *o = &res.overlaps[k++];
			same &= prove_leaf_matches(o->a, o->witness, o->gen.min) &&
			        prove_leaf_matches(o->b, o->witness, o->gen.max);
		}
	CHECK(same);
	CHECK_INT(res.noverlaps, want);

	/* holes: free and maximal */
	bool holes_ok = true;
	size_t nholes = 0;
	for (size_t i = 0; i < res.nintervals; i++) {
		const prove_interval *iv = &res.intervals[i];
		for (size_t h = 0; h < iv->nholes; h++) {
			prove_cube c = iv->holes[h];
			nholes++;
			holes_ok &= !hole_touched(r, iv, &c);
			for (unsigned bit = 0; bit < size; bit++) {
				unsigned w = bit / 64;
				uint64_t mbit = (uint64_t)1 << (bit % 64);
				if (!(c.fixed[w] & mbit))
					continue;
				c.fixed[w] &= ~mbit;
				holes_ok &= hole_touched(r, iv, &c);
				c.fixed[w] |= mbit;
			}
		}
	}
	if (!holes_ok)
		fprintf(stderr, "seed %u: a hole is not free or not maximal\n", seed);
	CHECK(holes_ok);
	if (getenv("VERBOSE"))
		fprintf(stderr, "seed %u: %u bits, %u leaves, %zu overlaps, %zu holes\n", seed, size,
		        nleaves, res.noverlaps, nholes);
	prove_result_free(&res);
	spec_model_free(m);
	spec_diags_free(&d);
	free(t.p);
}

int main(int argc, char **argv)
{
	unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1;
#ifdef ISACHECK_SANITIZED
	unsigned count_default = 12; /* the sanitizers make it several times slower */
#else
	unsigned count_default = 24;
#endif
	unsigned count = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : count_default;
	static const unsigned sizes[] = {32, 96, 200};
	for (unsigned i = 0; i < count; i++) {
		/* everything follows from the seed: `test_prove_scale S 1`
		 * repeats spec S alone */
		unsigned s = seed + i;
		rng_state = (uint64_t)s * 0x2545f4914f6cdd1dull;
		unsigned size = sizes[s % 3];
		unsigned n = s % 4 == 0 ? 1000 + below(1000) : 20 + below(400);
		check_one(s, size, n);
	}
	return testlib_finish();
}
