/*
 * internal.h - private to src/check: the per-root view of leaves as
 * cubes, the small bit-vector helpers, and the Z3 engine's interface.
 */
#ifndef ISACHECK_CHECK_INTERNAL_H
#define ISACHECK_CHECK_INTERNAL_H

#include "check.h"

/* A leaf seen as the set of words it matches: bits in `fixed` must equal
 * `value` (fixed = mask & ~dontcare), at generations inside `gen`. */
typedef struct leaf_cube {
	const spec_bitset *leaf;
	const uint64_t *fixed, *value;
	spec_gen gen;
	unsigned nfixed;
	/* Matches nothing: its merged match has a 1 where an ancestor's x
	 * hides the bit (a bits-conflict), and Mesa compares
	 * (w & mask & ~dontcare) == match, which then never holds. */
	bool empty;
} leaf_cube;

typedef struct root_view {
	const spec_root *root;
	unsigned size, nw;
	leaf_cube *leaves;
	size_t nleaves;
	uint64_t *store;  /* every leaf's fixed and value bits */
} root_view;

static inline unsigned words_for(unsigned size) { return (size + 63u) / 64u; }
static inline uint64_t top_mask(unsigned size)
{
	return size % 64 ? ((uint64_t)1 << (size % 64)) - 1 : ~(uint64_t)0;
}
unsigned bits_popcount(const uint64_t *w, unsigned nw);

/* ------------------------------------------------------------- Z3 engine */

typedef enum z3_answer { Z3_ANSWER_NO, Z3_ANSWER_YES, Z3_ANSWER_UNKNOWN } z3_answer;

typedef struct z3_engine z3_engine;

/* One engine per root; NULL with a diagnostic when Z3 cannot start. */
z3_engine *z3_engine_new(const root_view *v, const prove_options *opt, spec_diags *diags);
void z3_engine_free(z3_engine *z);
size_t z3_engine_queries(const z3_engine *z);

/* Can leaves i and j match one word at one generation?  On YES, writes a
 * witness word (nw words) and a generation. */
z3_answer z3_overlap(z3_engine *z, size_t i, size_t j, uint64_t *witness, uint32_t *gen);

/* Evaluates the claim-count masks of one leaf through the solver: given
 * the bit sets of each claiming element, computes the unclaimed and the
 * twice-claimed bits as solver terms and reads them back.  The answer is
 * UNKNOWN when the solver gives up. */
z3_answer z3_accounting(z3_engine *z, const uint64_t *const *claims, size_t nclaims,
                        uint64_t *unaccounted, uint64_t *doubly);

/* Is there a word at a generation in gen that no live leaf matches and
 * that lies outside every cube of `holes`?  NO proves the holes are
 * exactly the undecoded words.  Also checks that no word of any hole is
 * matched by a live leaf (returned as YES when one is). */
z3_answer z3_coverage(z3_engine *z, spec_gen gen, const prove_cube *holes, size_t nholes);

#endif
