/*
 * diff_gen.h - random pairs of specs (an old one and an edit of it) and
 * the proofs of `isacheck diff` judged against brute force.  Shared by
 * tests/test_diff.c (seeded samples) and the fuzz target spec_diff (the
 * input's bytes choose the pair).
 *
 * Decoding pairs (diffgen_pair_make): a 32-bit root whose leaves each
 * decide 12 bits (0..5, 26..31) as 0, 1, x or a one-bit field, and own
 * bits 6..25 as a field, some only at some generations; the edit flips a
 * bit's kind, renames, moves a generation range, drops a leaf or adds
 * one.  Every assignment of the 12 bits is classified on both sides by
 * the judge's own reading of the masks, at generations 0..8 and the
 * last: the report's changed decodings and their word counts must be
 * exactly those, both engines (cube, Z3) must report alike with nothing
 * unknown, every witness must decode (src/codec) to the leaves the
 * report names, and each spec against itself must be empty.
 *
 * Text pairs (diffgen_text_make): leaves that print an enum, a
 * sub-bitset through a param and an override on a field's value; the
 * edit changes enum strings, displays, an override's value or how its
 * condition is written (Z3 decides those alike or not), the param, a
 * field's place.  Every word of every leaf is printed on both sides: a
 * leaf the report leaves out prints no word differently; one it names
 * has a witness that does, and the count of words that do.
 */
#ifndef ISACHECK_DIFF_GEN_H
#define ISACHECK_DIFF_GEN_H

#include "semantic_gen.h"
#include "spec.h"

#include <stddef.h>

typedef struct diffgen_pair {
	char *old_xml, *new_xml;
} diffgen_pair;

void diffgen_pair_make(diffgen_pair *p, semgen_rng *r);
void diffgen_text_make(diffgen_pair *p, semgen_rng *r);
void diffgen_free(diffgen_pair *p);

typedef struct diffgen_tally {
	size_t pairs;     /* judged */
	size_t changed;   /* decoding changes reported (not vacuous) */
	size_t differing; /* text pairs: leaves reported as printing differently */
	size_t by_z3;     /* text pairs: conditions Z3 proved alike */
	size_t failures;  /* verdicts that disagree with the words */
} diffgen_tally;

/* Judge the pair: t->failures counts the verdicts the words refute, and
 * the first one is described in a line in why (left alone once set). */
void diffgen_pair_judge(const diffgen_pair *p, diffgen_tally *t, char *why, size_t len);
void diffgen_text_judge(const diffgen_pair *p, diffgen_tally *t, char *why, size_t len);

/* Whether leaf b matches w at gen, by the judge's own reading of the
 * masks (not src/codec's): pinned bits equal, the gen in range. */
bool diffgen_matches(const spec_bitset *b, const uint64_t *w, uint32_t gen);

#endif
