/*
 * display_gen.h - the display proofs (does a leaf's text give its word
 * back?) judged against brute force on specs of 16-bit roots, whose
 * 65,536 words are all decoded and printed.  Shared by
 * tests/test_displays.c (hand-made specs and a seeded sample of random
 * ones) and the fuzz target "displays" (the input's bytes choose the
 * random spec and the words asked one at a time).
 *
 * The random specs (dispgen_make): an enum with random strings (some
 * alike, some digits that print like numbers), a 4-bit sub-bitset of
 * registers and constants (or two leaves printing alike, at times
 * reading a param), and one to three 16-bit leaves of random fields
 * (uint, int, hex, offset, the enum, bools with displays, the
 * sub-bitset), x and fixed patterns, overrides that retype a field or
 * print a display of their own, and displays printing every field (or
 * all but one) in a random order between random literals.
 *
 * Two judgements:
 *   dispgen_judge        prove_semantic's verdict on every leaf's text
 *                        (proved: no two words of the leaf print alike
 *                        and decode to other values; display-same-text:
 *                        two do) against the table of all words;
 *   dispgen_judge_lines  prove_display_word (what `asm --exact` asks) on
 *                        six words of each leaf, a quarter of them words
 *                        whose text another word shares.
 * Unknown is counted and allowed; a verdict the table contradicts, or a
 * spec that does not load or prove, is a disagreement.
 */
#ifndef ISACHECK_DISPLAY_GEN_H
#define ISACHECK_DISPLAY_GEN_H

#include "check.h"
#include "semantic_gen.h"

/* A random spec into b. */
void dispgen_make(semgen_text *b, semgen_rng *r);

typedef struct dispgen_options {
	prove_printer printer; /* whose text: Mesa's isa_disasm or afuc-disasm's */
	unsigned rlimit;       /* Z3's resource limit per query (0: none) */
	/* per leaf of the 16-bit roots in order (NULL: any): the verdict
	 * expected ("proved", "finding", "unknown") and a piece of text the
	 * finding must say */
	const char *const *expect;
	const char *const *says;
} dispgen_options;

typedef struct dispgen_tally {
	size_t leaves, proved, findings, unknown;
	/* dispgen_judge_lines: words asked, of them sharing their text */
	size_t asked, colliding;
	size_t disagree; /* verdicts brute force contradicts, or a wrong count */
	size_t unusable; /* specs that did not load, have no codec or no proof */
} dispgen_tally;

/* The leaf verdicts of prove_semantic on xml against brute force (o may
 * be NULL: Mesa's printer, no rlimit, nothing expected); adds to t.  The
 * first disagreement is described in why, with the spec; false on any. */
bool dispgen_judge(const char *name, const char *xml, const dispgen_options *o,
                   dispgen_tally *t, char *why, size_t len);

/* prove_display_word on words r picks against brute force; the same. */
bool dispgen_judge_lines(const char *name, const char *xml, semgen_rng *r, dispgen_tally *t,
                         char *why, size_t len);

/* Both, with Mesa's printer, on one load of the spec and one table of
 * its words (the fuzz target's execution, at about half the cost), each
 * Z3 run given budget_ms (0: the defaults; past it, unknown). */
bool dispgen_judge_both(const char *name, const char *xml, semgen_rng *r, unsigned budget_ms,
                        dispgen_tally *t, char *why, size_t len);

#endif
