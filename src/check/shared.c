/*
 * shared.c - the pieces prove.c (one spec) and diff.c (two versions of
 * one) both build on: leaves as cubes, exact word counts, growing arrays
 * and the generations where the set of live leaves changes.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

unsigned bits_popcount(const uint64_t *w, unsigned nw)
{
	unsigned n = 0;
	for (unsigned i = 0; i < nw; i++)
		n += (unsigned)__builtin_popcountll(w[i]);
	return n;
}

void leaf_cube_init(leaf_cube *c, const spec_bitset *b, uint64_t *fixed, uint64_t *value,
                    unsigned nw)
{
	bool empty = b->gen.min > b->gen.max;
	for (unsigned k = 0; k < nw; k++) {
		fixed[k] = b->mask.w[k] & ~b->dontcare.w[k];
		value[k] = b->match.w[k] & fixed[k];
		/* a 1 hidden under an ancestor's x: Mesa's compare never holds */
		empty |= (b->match.w[k] & ~fixed[k]) != 0;
	}
	*c = (leaf_cube){b, fixed, value, b->gen, bits_popcount(fixed, nw), empty};
}

void *grow(growable *g)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		void *p = realloc(g->items, cap * g->size);
		if (!p)
			return NULL;
		g->items = p;
		g->cap = cap;
	}
	void *slot = (char *)g->items + g->n++ * g->size;
	memset(slot, 0, g->size);
	return slot;
}

void count_add_pow2(prove_count *c, unsigned e)
{
	size_t k = e / 64;
	uint64_t add = (uint64_t)1 << (e % 64);
	while (k < sizeof c->w / sizeof *c->w) {
		uint64_t old = c->w[k];
		c->w[k] += add;
		if (c->w[k] >= old)
			break;
		add = 1;
		k++;
	}
}

size_t gen_cuts_add(uint32_t *pts, size_t n, spec_gen rg, const leaf_cube *c, size_t nc)
{
	for (size_t i = 0; i < nc; i++) {
		spec_gen g = c[i].gen;
		if (g.min > rg.min && g.min <= rg.max)
			pts[n++] = g.min;
		if (g.max < rg.max && g.max >= rg.min)
			pts[n++] = g.max + 1;
	}
	return n;
}

int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

size_t gen_cuts_sort(uint32_t *pts, size_t n)
{
	qsort(pts, n, sizeof *pts, cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || pts[i] != pts[u - 1])
			pts[u++] = pts[i];
	return u;
}

unsigned bitcount_best(unsigned *bitcount, uint64_t *touched, unsigned nw, unsigned *best)
{
	unsigned n = 0;
	for (unsigned w = 0; w < nw; w++) {
		for (uint64_t m = touched[w]; m; m &= m - 1) {
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(m);
			if (bitcount[b] > n) {
				n = bitcount[b];
				*best = b;
			}
			bitcount[b] = 0;
		}
		touched[w] = 0;
	}
	return n;
}
