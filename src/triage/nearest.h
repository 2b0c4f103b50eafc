/*
 * nearest.h - inside src/triage, not part of its API (triage.h is): the
 * nearest leaves of a word no leaf matches, found without scoring every
 * leaf of the root.
 *
 * The answer is triage_nearest's (the plain scan, kept as the reference):
 * the leaves in the generation whose fixed (0/1 pattern) bits differ from
 * the word in the fewest places, the first `max` of them in document
 * order, and how many share that least distance.  An index is built once
 * per root and searched for every unmatched word (see nearest.c).
 */
#ifndef ISACHECK_TRIAGE_NEAREST_H
#define ISACHECK_TRIAGE_NEAREST_H

#include "spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct near_index near_index;

/* Bits set in x, without a library call when the compiler is not told
 * the CPU has POPCNT. */
static inline unsigned near_pop64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* The 0/1 pattern bits of word k of b (its mask holds the x bits too). */
static inline uint64_t near_fixed(const spec_bitset *b, unsigned k)
{
	if (k >= b->mask.nwords)
		return 0;
	return b->mask.w[k] & ~(k < b->dontcare.nwords ? b->dontcare.w[k] : 0);
}

/* NULL when memory runs out. */
near_index *near_index_new(const spec_root *root);
void near_index_free(near_index *x);

/* triage_nearest's answer for w at gen (leaves, distance, diffs: max
 * entries; diffs nwords each).  popcnt: the CPU has the POPCNT
 * instruction.  SIZE_MAX when memory runs out (a tree is built for each
 * new set of leaves a generation selects).  Not reentrant: the index
 * keeps its scratch. */
size_t near_index_search(near_index *x, const uint64_t *w, uint32_t gen, bool popcnt,
                         const spec_bitset **leaves, unsigned *distance, uint64_t *diffs,
                         size_t max);

#endif
