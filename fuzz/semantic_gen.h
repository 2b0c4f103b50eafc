/*
 * semantic_gen.h - three generators of small random specs, each with
 * the ground truth of every one of its words, and the meaning proofs
 * (prove_semantic) judged against it: overrides and asserts (below),
 * expressions (semgen_expr_*) and round trips (semgen_rt_*).  Shared by
 * tests/test_semantic.c and tests/test_roundtrip.c (seeded samples) and
 * the fuzz target "semantic" (the input's bytes choose the spec).
 *
 * Each spec has a 32-bit #instruction root whose words have only 12 free
 * bits (fields A, B, E, a derived D and a 3-bit sub-bitset field S whose
 * root #sub takes B as its param P), four leaves told apart by bits
 * 10-11, some of them with generations, and random <override>s on the
 * root, on the leaves and on #sub.  Conditions are random expressions
 * over the fields; some overrides redefine A (so that a later
 * condition's A depends on which earlier case holds) and some conditions
 * name fields only the override itself defines.  Every override prints a
 * marker of its own ("@oN@", "@sN@"), and every display prints {S}.
 *
 * The ground truth is the disassembler: every word at every generation
 * where the set of leaves changes is printed (by the compiled codec and
 * by the general one, which must agree), and an override's display is
 * decided somewhere exactly when its marker appears.  The verdicts must
 * agree: no finding (or a finding that names only fields) where the
 * marker appears, override-dead or override-shadowed naming the display
 * where it never does; semantic-unknown is counted and allowed.  An
 * assert Z3 says never holds must never be seen to hold, and one the
 * decoder settles as holding must have held for some word.
 */
#ifndef ISACHECK_SEMANTIC_GEN_H
#define ISACHECK_SEMANTIC_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEMGEN_MAX_OVERRIDES 32
#define SEMGEN_FREE_BITS 12u

/* Where the choices come from: bytes first (one per choice, so that a
 * fuzzer's mutation changes one choice), then splitmix64 from state. */
typedef struct semgen_rng {
	const uint8_t *data;
	size_t size, at;
	uint64_t state;
} semgen_rng;

/* For a fuzz target of these proofs: exits FUZZ_EXIT_SKIP (77, ctest's
 * and the fuzz scripts' "skipped"), saying why, when libz3 cannot be
 * opened; from LLVMFuzzerInitialize. */
void semgen_require_z3(const char *target);

/* 64 bits of the generator's own (never the input's bytes): for words
 * to ask about, which a byte a choice would not reach. */
uint64_t semgen_draw64(semgen_rng *r);

/* A choice among n (below 256 for a byte to choose it alone). */
unsigned semgen_below(semgen_rng *r, unsigned n);

/* A growing text (s: NUL-terminated, free()d by its owner). */
typedef struct semgen_text {
	char *s;
	size_t n, cap;
	unsigned line; /* lines written so far */
} semgen_text;

void semgen_printf(semgen_text *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef struct semgen_override {
	unsigned line; /* of its <override> */
	char marker[16]; /* "" : it has no display */
	unsigned aline;  /* of its <assert>; 0: none */
	bool seen;       /* brute force: its marker was printed */
	bool held;       /* brute force: the assert was checked and held for some word */
} semgen_override;

typedef struct semgen_spec {
	semgen_text xml;
	semgen_override ov[SEMGEN_MAX_OVERRIDES];
	unsigned nov;
	uint32_t gens[16];
	unsigned ngens;
	unsigned budget_ms; /* Z3's time per proof run, 0: the defaults (a
	                       fuzz target's bound: past it, unknown) */
} semgen_spec;

/* What one spec's runs came to (added up over specs by the caller). */
typedef struct semgen_tally {
	unsigned specs, overrides, dead, shadowed, unknown, used, agree;
	/* asserts: unknown to Z3 alone, then settled as holding by a decoded
	 * witness (each checked against brute force), never holding */
	unsigned asserts, a_unknown, a_by_decoder, a_c_unknown, a_never;
	/* asserts left unknown without the decoder and not with it, when a
	 * run may have had queries cut by its time: which of Z3 and the
	 * decoder settled them cannot be told, so they are not judged */
	unsigned a_cut;
	/* the same with the decoder confirming lenient witnesses */
	unsigned c_unknown, c_agree, c_by_decoder;
	unsigned codecs_differ; /* words the compiled and general codecs print apart */
	unsigned disagree;      /* verdicts brute force contradicts: each a bug */
	unsigned unusable;      /* specs that did not load or prove: each a bug */
} semgen_tally;

/* Writes the first disagreement's description into why (len bytes)
 * followed by the spec, xml; later ones leave it (they are counted). */
void semgen_note(char *why, size_t len, const char *xml, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A random spec (free with semgen_free). */
void semgen_make(semgen_spec *g, semgen_rng *r);
void semgen_free(semgen_spec *g);

/* Loads g, prints every word, runs prove_semantic twice (Z3 alone, then
 * with the decoder confirming witnesses, as the CLI runs it) and judges
 * every verdict; adds to t.  The first disagreement is described in
 * why (with the spec's XML); returns false on any (t->disagree,
 * t->codecs_differ or t->unusable grew). */
bool semgen_judge(semgen_spec *g, semgen_tally *t, char *why, size_t len);

/* Random expressions: a derived D (int, of a random width) over three
 * 4-bit fields A, B, C whose expression mixes every operator (division,
 * remainder, shifts, ?:, negation, logic) and edge constants (0, 63, 64,
 * INT64_MIN, ...).  Its truth comes from an evaluator of this file's
 * own over all 4,096 words, modelling the proofs' semantics (Z3's
 * bit-vector operations, C's short-circuits): whether some word
 * overflows, divides by zero, shifts by 64 or more, or (hazard-free)
 * gives a value the width loses.  expr-overflow, expr-divide-by-zero,
 * expr-shift-range and derived-value-lost must say the same; unknown may
 * stand for a yes, never for a wrong no. */
typedef struct semgen_expr {
	semgen_text xml, text; /* the spec, and the expression alone */
	unsigned width;
	bool want[4]; /* overflow, divide by zero, shift range, value lost */
	unsigned budget_ms; /* as semgen_spec's */
} semgen_expr;

typedef struct semgen_expr_tally {
	size_t asked, agree, unknown, found, unusable;
} semgen_expr_tally;

void semgen_expr_make(semgen_expr *x, semgen_rng *r);
void semgen_expr_free(semgen_expr *x);
/* The proofs on x against its truth; adds to t; false on a disagreement
 * or a spec that does not load or prove (why says which, with the spec). */
bool semgen_expr_judge(const semgen_expr *x, semgen_expr_tally *t, char *why, size_t len);

/* Symbolic round trips (prove_semantic's roundtrip-lost: does every
 * word of a leaf come back from its decoding?) on 16-bit specs: leaves
 * told apart by bits 14-15, bits 0-13 cut into fixed and don't-care
 * pattern bits, fields, holes, asserts, and 4-bit #sub fields whose
 * leaves have asserts, x bits and holes of their own (one an override on
 * a param); overrides with fields of their own over other bits (new
 * names or the default case's: the encoder's shadowed values), asserts,
 * displays printing the #sub field or not, derived values.  Every word
 * is decoded and encoded again (codec_roundtrip): proved means no word
 * of the leaf fails to come back, a finding names one that does. */
void semgen_rt_make(semgen_text *b, semgen_rng *r);

typedef struct semgen_rt_tally {
	size_t leaves, proved, findings, unknown, lost_words;
	size_t disagree, unusable;
} semgen_rt_tally;

/* The round-trip verdicts on xml against brute force; expect (NULL or per
 * leaf of #instruction): "proved", "finding" or "unknown".  Adds to t;
 * false on a disagreement or an unusable spec (why says which). */
bool semgen_rt_judge(const char *name, const char *xml, const char *const *expect,
                     semgen_rt_tally *t, char *why, size_t len);

#endif
