/*
 * check.h - the whole API of src/check: proofs over a loaded spec_model.
 *
 *  - overlap: no two leaves of a root can match the same word at a
 *    generation inside both their gen ranges (ISASPEC.md section 3);
 *  - accounting: every bit of every leaf, merged with its ancestors, is
 *    exactly one of pattern bit, don't-care x, field bit, assert bit;
 *  - coverage: per root and generation interval, the exact number of
 *    words that decode to nothing, and the largest unallocated cubes.
 *
 * Two engines decide the same questions.  The cube engine is exact for
 * everything here (a leaf's matching set is one cube: fixed bits and free
 * bits), so it is the default; the Z3 engine puts every query through the
 * SMT solver and is the cross-check (`--solver=z3`).  A solver answer of
 * unknown (timeout, resource limit) is reported as unknown, never as
 * proved.
 */
#ifndef ISACHECK_CHECK_H
#define ISACHECK_CHECK_H

#include "spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum prove_engine {
	PROVE_ENGINE_CUBE, /* exact mask algebra; Z3 not called */
	PROVE_ENGINE_Z3,   /* every query through Z3 */
} prove_engine;

/* ------------------------------------------------------------ allowlist */

/* One accepted overlap: a pair of leaf names, optionally limited to a
 * root and a generation range.  See docs/prove.md for the file format. */
typedef struct prove_allow {
	const char *a, *b;  /* leaf names (unordered) */
	const char *root;   /* NULL: any root */
	spec_gen gen;       /* the overlap's gen range must lie inside */
	const char *reason; /* the text after ':', or NULL */
	spec_loc loc;       /* file:line of the entry */
} prove_allow;

typedef struct prove_allowlist {
	prove_allow *items;
	size_t count;
	struct prove_allowlist_private *priv;
} prove_allowlist;

/* Parses an allowlist file.  Bad lines are SPEC_ERROR diagnostics (rule
 * "allowlist-syntax"); an unreadable file is SPEC_FATAL ("io").  Returns
 * false on a fatal problem. */
bool prove_allowlist_load(const char *path, prove_allowlist *out, spec_diags *diags);
void prove_allowlist_free(prove_allowlist *a);

/* ------------------------------------------------------------- options */

typedef struct prove_options {
	prove_engine engine;
	unsigned timeout_ms;   /* per Z3 query; 0: none */
	unsigned rlimit;       /* Z3 resource limit per query; 0: none */
	unsigned max_holes;    /* largest unallocated cubes listed per interval */
	const prove_allowlist *allow; /* NULL: none */
} prove_options;

/* The defaults: cube engine, 10 s per query, no rlimit, 8 holes. */
prove_options prove_default_options(void);

/* ------------------------------------------------------------- results */

/* A cube of words: bits in `fixed` hold the value in `value`; the others
 * are free.  Both are root-sized bit vectors. */
typedef struct prove_cube {
	uint64_t *fixed, *value;
	unsigned free_bits;
} prove_cube;

typedef struct prove_overlap {
	const spec_root *root;
	const spec_bitset *a, *b; /* a comes first in document order */
	spec_gen gen;             /* where both live */
	uint64_t *witness;        /* root-sized; matches both leaves */
	const prove_allow *allowed_by; /* non-NULL: accepted by this entry */
	bool unknown;             /* the solver could not decide this pair */
} prove_overlap;

typedef struct prove_accounting {
	const spec_bitset *leaf;
	uint64_t *unaccounted;    /* bits nothing claims */
	uint64_t *doubly;         /* bits claimed more than once */
	bool unknown;
} prove_accounting;

/* An unsigned integer of up to SPEC_MAX_BITS + 1 bits, little-endian words. */
typedef struct prove_count {
	uint64_t w[SPEC_MAX_BITS / 64 + 1];
} prove_count;

typedef struct prove_interval {
	const spec_root *root;
	spec_gen gen;             /* a maximal range with one set of live leaves */
	size_t live_leaves;
	prove_count undecoded;    /* words that decode to nothing here */
	double fraction;          /* undecoded / 2^size */
	prove_cube *holes;        /* largest unallocated cubes, largest first */
	size_t nholes;
	bool unknown;
} prove_interval;

typedef struct prove_result {
	prove_overlap *overlaps;  /* grouped by root, then by a, then b */
	size_t noverlaps;
	prove_accounting *accounting; /* only leaves with a problem */
	size_t naccounting;
	prove_interval *intervals;    /* by root, then generation */
	size_t nintervals;
	/* allowlist entries that match no overlap (stale) */
	const prove_allow **stale;
	size_t nstale;
	size_t queries;           /* solver queries made (Z3 engine) */
	bool any_unknown;
	struct prove_result_private *priv;
} prove_result;

/* Runs every proof over every root.  Returns false only when memory or
 * the solver cannot be set up (a diagnostic says why). */
bool prove_model(const spec_model *m, const prove_options *opt, prove_result *out,
                 spec_diags *diags);
void prove_result_free(prove_result *r);

/* ------------------------------------------------------------- helpers */

/* Whether leaf b matches word w (root-sized) at generation gen, exactly as
 * ISASPEC.md section 3 says.  Independent of the engines. */
bool prove_leaf_matches(const spec_bitset *b, const uint64_t *w, uint32_t gen);

/* Decimal text of a count, into buf (at least 1300 bytes for 4096 bits). */
void prove_count_format(const prove_count *c, char *buf, size_t len);

/* Hex of a root-sized word, most significant 32-bit word first, words
 * separated by '_' (e.g. "c0600000_00e18001"). */
void prove_format_hex(const uint64_t *w, unsigned size, char *buf, size_t len);

/* The set bits of a root-sized vector as ranges: "0..3, 7, 12..15". */
void prove_format_ranges(const uint64_t *w, unsigned size, char *buf, size_t len);

/* A cube as a pattern, most significant bit first: 0, 1, x (free). */
void prove_format_cube(const prove_cube *c, unsigned size, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
