/*
 * internal.h - private to src/check: the per-root view of leaves as
 * cubes, the small helpers prove.c and diff.c share (shared.c), the Z3
 * engine's interface and the Z3 pieces diff.c's own proof builds on.
 */
#ifndef ISACHECK_CHECK_INTERNAL_H
#define ISACHECK_CHECK_INTERNAL_H

#include "check.h"

#include <z3.h>

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

/* ------------------------------------------------ shared.c: cube helpers */

/* Leaf b as a cube of nw words, its bits in fixed and value. */
void leaf_cube_init(leaf_cube *c, const spec_bitset *b, uint64_t *fixed, uint64_t *value,
                    unsigned nw);

/* An array of items of `size` bytes that grows by doubling. */
typedef struct growable {
	void *items;
	size_t n, cap, size;
} growable;
/* A new zeroed item at the end; NULL when memory runs out. */
void *grow(growable *g);

/* c += 2^e (carries past the top are lost: counts fit by construction). */
void count_add_pow2(prove_count *c, unsigned e);

/* Appends to pts (room for 2 * nc more) the generations inside rg where a
 * cube of c starts to live or has just stopped (its max + 1); returns the
 * new count.  Between two cuts the set of live leaves does not change. */
size_t gen_cuts_add(uint32_t *pts, size_t n, spec_gen rg, const leaf_cube *c, size_t nc);
/* qsort's comparison of two uint32_t, ascending. */
int cmp_u32(const void *pa, const void *pb);
/* Sorts cut points and drops repeats; returns how many remain. */
size_t gen_cuts_sort(uint32_t *pts, size_t n);

/* Choosing the bit to split a region on (the one most leaves still pin,
 * as a BDD would): bitcount_add counts, per bit, the bits a cube pins
 * (cfixed: its fixed bits) that the region (fixed) leaves free, and marks
 * them in touched (inline: the splits call it for every leaf of every
 * region); bitcount_best sets *best to the bit with the highest count
 * (the lowest such bit) and returns that count, or 0, leaving *best
 * alone, when no bit is pinned.  It also clears the counts and touched
 * it read (both start all zero), so a split costs what its leaves pin,
 * not the root's size. */
static inline void bitcount_add(unsigned *bitcount, uint64_t *touched, const uint64_t *cfixed,
                                const uint64_t *fixed, unsigned nw)
{
	for (unsigned w = 0; w < nw; w++) {
		uint64_t m = cfixed[w] & ~fixed[w];
		touched[w] |= m;
		for (; m; m &= m - 1)
			bitcount[w * 64 + (unsigned)__builtin_ctzll(m)]++;
	}
}
unsigned bitcount_best(unsigned *bitcount, uint64_t *touched, unsigned nw, unsigned *best);

/* ------------------------------------- index.c: which cubes meet a cube */

/* An index over cubes[0 .. n-1] (their bits are copied: the array and
 * the cubes need not outlive it); NULL when memory runs out.  Gen ranges
 * and the `empty` flag are not looked at: callers filter. */
typedef struct cube_index cube_index;
cube_index *cube_index_new(const leaf_cube *const *cubes, size_t n, unsigned size);
void cube_index_free(cube_index *x);

/* Called with k for each cube k that meets the query; false stops. */
typedef bool cube_visit(void *ctx, size_t k);
/* Calls visit for every cube that shares a word with the cube (fixed,
 * value) and is switched on, in no particular order; false when visit
 * stopped it. */
bool cube_index_meeting(const cube_index *x, const uint64_t *fixed, const uint64_t *value,
                        cube_visit *visit, void *ctx);
/* Switches cube k (k < n) off or on; all are on when the index is made.
 * Costs the depth of its bucket. */
void cube_index_switch(cube_index *x, size_t k, bool on);

/* What building such a tree takes, for other trees over cubes: the bits
 * all of cubes[items[lo .. hi-1]] fix alike (fixed, value: nw words
 * each; hi > lo), and the three-way partition of items[lo .. hi-1] in
 * place into the cubes that fix bit to 0, those that fix it to 1 and
 * those that leave it free; bounds[] gets {lo, end of the first, end of
 * the second, hi}. */
void cube_common(const leaf_cube *const *cubes, const uint32_t *items, size_t lo, size_t hi,
                 unsigned nw, uint64_t *fixed, uint64_t *value);
void cube_partition(const leaf_cube *const *cubes, uint32_t *items, size_t lo, size_t hi,
                    unsigned bit, size_t bounds[4]);

/* ------------------------------------------------------------- Z3 engine */

typedef enum z3_answer { Z3_ANSWER_NO, Z3_ANSWER_YES, Z3_ANSWER_UNKNOWN } z3_answer;

typedef struct z3_engine z3_engine;

/* What the roots of one run share (all zero at first): the context, made
 * by the first z3_base_init_in, and prove's coverage solver.  Making a
 * context costs about 5 ms of CPU and touches 17 MB anew each time, and
 * a solver's first query some more. */
typedef struct z3_shared {
	Z3_context ctx;
	Z3_solver cover;
} z3_shared;

/* One engine per root, in what the run's roots share (which must outlive
 * it); NULL with a diagnostic when Z3 cannot start. */
z3_engine *z3_engine_new(const root_view *v, z3_shared *shared, const prove_options *opt,
                         spec_diags *diags);
void z3_engine_free(z3_engine *z);
size_t z3_engine_queries(const z3_engine *z);
bool z3_engine_out_of_time(z3_engine *z); /* the run's time is spent (checks the clock) */

/* Can leaves i and j match one word at one generation?  On YES, writes a
 * witness word (nw words) and a generation. */
z3_answer z3_overlap(z3_engine *z, size_t i, size_t j, uint64_t *witness, uint32_t *gen);

/* The overlaps asked one leaf at a time rather than one pair at a time:
 * z3_overlap_begin opens leaf i's phase (false when the solver cannot be
 * set up); z3_overlap_next asks for a word and a generation that leaf i
 * and some later leaf not blocked yet both match, and on YES sets
 * match[j] for every later leaf j the solver's word matches (blocked ones
 * too; at least one is not), with the word and generation written as for
 * z3_overlap; z3_overlap_block(j) takes leaf j out of the question for
 * the rest of the phase (its words stay), so asking again finds the next;
 * NO means leaf i overlaps no later leaf left.  z3_overlap_end closes the
 * phase. */
bool z3_overlap_begin(z3_engine *z, const prove_options *opt, size_t i);
z3_answer z3_overlap_next(z3_engine *z, bool *match, uint64_t *witness, uint32_t *gen);
void z3_overlap_block(z3_engine *z, size_t j);
void z3_overlap_end(z3_engine *z);

/* Evaluates the claim-count masks of one leaf through Z3: given the bit
 * sets of each claiming element, computes the unclaimed and the
 * twice-claimed bits as bit-vector terms and reads back the constants
 * Z3 evaluates them to (no solver query: the terms have no unknown).
 * The answer is UNKNOWN when Z3 fails to give a constant, and once the
 * run's time is spent, as for the queries. */
z3_answer z3_accounting(z3_engine *z, const uint64_t *const *claims, size_t nclaims,
                        uint64_t *unaccounted, uint64_t *doubly);

/* Is there a word at a generation in gen that no live leaf matches and
 * that lies outside every cube of `holes`?  NO proves the holes are
 * exactly the undecoded words.  Also checks that no word of any hole is
 * matched by a live leaf (returned as YES when one is). */
z3_answer z3_coverage(z3_engine *z, const prove_options *opt, spec_gen gen,
                      const prove_cube *holes, size_t nholes);

/* ------------------------------------- Z3 pieces (z3.c), diff.c's too */

/* A context with one solver under the options' limits, and the unknowns
 * of every question: the word w (size bits) and the generation g (32). */
typedef struct z3_base {
	Z3_context ctx;
	Z3_solver solver;
	Z3_sort word_sort, gen_sort;
	Z3_ast w, g;
	unsigned size;
	size_t queries;
	double deadline;  /* the run's (CLOCK_MONOTONIC seconds); 0: none */
	unsigned timeout_ms; /* per query, as the options say */
	bool out_of_time; /* a query was not asked: the run's time was spent */
	bool borrowed;    /* ctx is shared (z3_base_init_in): not b's to delete */
	/* Translate leniently (z3expr.c): an override condition met on a
	 * look-up's way that cannot be translated is passed over, one Mesa
	 * refuses as re-entrant (or cannot be translated) does not hold, a
	 * re-entrant derived value reads 0, whatever Mesa's expression cache
	 * would have made of them.  Not the decoder's meaning: only for
	 * proposing witnesses that the decoder then confirms, with scopes
	 * (and memos) of their own. */
	bool lenient;
} z3_base;

/* Sets opt's deadline from its time_limit_s, unless a caller already did. */
void z3_start_run(prove_options *opt);
/* Z3_solver_check of s, or Z3_L_UNDEF without asking once b's run is
 * past its deadline (each query still has its own timeout). */
Z3_lbool z3_solve(z3_base *b, Z3_solver s);

/* False when Z3 cannot start: libz3 not loaded (prove_z3_available, asked
 * first, so that no Z3 function runs without it) or ctx NULL.  Z3 errors
 * do not abort: they stay in Z3_get_error_code for the caller to look at. */
bool z3_base_init(z3_base *b, unsigned size, const prove_options *opt);
/* z3_base_init in shared's context, made first if there is none yet. */
bool z3_base_init_in(z3_base *b, z3_shared *shared, unsigned size, const prove_options *opt);
/* Once every base in it is freed. */
void z3_shared_free(z3_shared *shared);
/* z3_base_init_in the solver's context, or z3_base_init without one. */
bool z3_base_init_with(z3_base *b, prove_solver *s, unsigned size, const prove_options *opt);
/* After z3_base_init failed: a fatal "solver" diagnostic at loc saying
 * why (libz3 missing, or the context could not be made). */
void z3_cannot_start(spec_diags *diags, spec_loc loc);
/* Frees what init made; b may be all zero. */
void z3_base_free(z3_base *b);
/* The constant of b->size bits whose bit i is bit i of w. */
Z3_ast z3_bits(const z3_base *b, const uint64_t *w);
/* (w & fixed) == value */
Z3_ast z3_in_cube(const z3_base *b, const uint64_t *fixed, const uint64_t *value);
/* gen.min <= g <= gen.max */
Z3_ast z3_in_gen(const z3_base *b, spec_gen gen);
z3_answer z3_answer_of(Z3_lbool r);
/* Whether q can hold together with what b->solver holds (asked in a
 * push/pop scope, counted in b->queries). */
z3_answer z3_check(z3_base *b, Z3_ast q);
/* z3_check, and on yes take (unless NULL) is given the model, before the
 * scope is popped. */
z3_answer z3_ask(z3_base *b, Z3_ast q, void (*take)(void *ctx, z3_base *b, Z3_model m), void *ctx);

/* ------------------------------ z3expr.c: expressions as terms */

/* Where an expression is evaluated: a leaf, the term of its word (as
 * wide as the leaf's root), and, for a sub-bitset decoded from a field
 * of an enclosing leaf, that field (its <param>s) and the enclosing
 * scope.  complete: the chain of scopes is the whole decoding, up to a
 * root decoded alone, so a name found nowhere reads as the decoder
 * reads it (0, after an error) rather than unknown. */
typedef struct z3_memo z3_memo;
typedef struct z3_scope {
	const spec_bitset *leaf;
	Z3_ast word;
	const spec_field *via;
	const struct z3_scope *outer;
	bool complete;
	/* the scope's translated expressions, as Mesa caches their values
	 * per scope; NULL: none kept.  Made with z3_memo_new. */
	z3_memo *memo;
	/* Not NULL: a name that cannot be translated exactly (a <param> of a
	 * sub-bitset taken alone, a value Mesa's expression stack decides)
	 * is any 64-bit value, a fresh constant, and *free_names is set: a
	 * question with no answer for any value has none for the real one,
	 * but an answer found may not be real.  NULL: such a name makes the
	 * translation NULL (unknown). */
	bool *free_names;
	/* Not NULL: names are looked up by this instead, as another reader
	 * of the word would (the round-trip proof's encoder, which reads the
	 * decoder's listed values): a term of 64 bits, or NULL (the
	 * translation gives up). */
	Z3_ast (*lookup)(void *ctx, const char *name);
	void *lookup_ctx;
} z3_scope;
/* A memo for a scope's translations, and its end; NULL when memory runs
 * out (translating then works without). */
z3_memo *z3_memo_new(void);
void z3_memo_free(z3_memo *m);
/* Expression x in scope, as the decoder evaluates it (see z3_expr). */
Z3_ast z3_expr_in(z3_base *b, const z3_scope *scope, const spec_expr *x);
/* Expression x of leaf as a 64-bit term over b's word and generation,
 * as the decoder evaluates it: a name is looked up as Mesa's find_field
 * does, the expression on top of the stack counting as true (an
 * override's own condition, while it is evaluated).  NULL when x cannot
 * be translated exactly (see z3expr.c): unknown, never a guess. */
Z3_ast z3_expr(z3_base *b, const spec_bitset *leaf, const spec_expr *x);
/* A numeral of `size` bits (at most SPEC_MAX_BITS) from words w. */
Z3_ast z3_bits_sized(z3_base *b, const uint64_t *w, unsigned size);
/* The value of name in scope, as the decoder looks it up for a display
 * or an expression (a 64-bit term); NULL as z3_expr_in. */
Z3_ast z3_name_in(z3_base *b, const z3_scope *scope, const char *name);
/* The value of name in scope as a display reads it (no expression on
 * the stack), when the first case that defines it, in the order Mesa's
 * find_field walks them, is a default case's plain field (here or
 * through the params, further out): its bits, whatever Mesa's
 * expression cache holds.  The overrides passed on the way define
 * nothing of the name, so their conditions, which Mesa evaluates (and
 * caches) there, decide nothing of it.  NULL otherwise. */
Z3_ast z3_plain_name_in(z3_base *b, const z3_scope *scope, const char *name);
/* Expression x in scope with every name read as z3_plain_name_in reads
 * it: the value Mesa computes for x wherever the names it reads are such
 * fields (their bits are theirs whatever the cache holds, and x reads
 * nothing else); NULL when a name is not. */
Z3_ast z3_plain_expr_in(z3_base *b, const z3_scope *scope, const spec_expr *x);
/* semantic.c: the words of leaf in a term of its root's size, at its
 * generations; NULL when the leaf matches no word. */
Z3_ast semantic_leaf_holds(z3_base *b, const spec_bitset *leaf, Z3_ast word);
/* safety.c: expression safety, the part of prove_semantic that asks
 * every leaf about every expression its decoding can evaluate; counts
 * go to st (exprs, expr_*), queries added to st->queries.  The asserts
 * whether each ever holds stays unknown are put to settle (may be NULL)
 * together, before they are reported: held[i] true when the decoder was
 * shown to check assert i and find it holding for some word (counted in
 * st->asserts_by_decoder); false from settle: out of memory or Z3. */
typedef bool prove_settle_asserts(void *ctx, size_t n, const spec_bitset *const *owners,
                                  const spec_field *const *asserts, bool *held);
bool prove_expression_safety(const spec_model *m, const prove_options *opt, spec_diags *diags,
                             semantic_stats *st, prove_settle_asserts *settle, void *settle_ctx);

/* displays.c: prove_displays (check.h), the display part of prove_semantic. */

/* What can go wrong evaluating an expression (z3_expr_hazards). */
typedef enum z3_hazard {
	Z3_HAZARD_OVERFLOW, /* int64 overflow of + - * unary -, bits lost by <<, INT64_MIN / -1 */
	Z3_HAZARD_DIVIDE,   /* a division or remainder by 0 */
	Z3_HAZARD_SHIFT,    /* a shift count outside 0..63 */
	Z3_HAZARDS
} z3_hazard;
/* For each hazard, a formula over b's word and generation that holds for
 * exactly the words whose evaluation of x in scope meets it, following
 * the short-circuits of && || ?: as C and the decoder do (false: never);
 * and in *value (unless NULL) x's value, exact for the words that meet
 * none (where one is met, what Z3's operations give).  A name inside is
 * translated as z3_expr_in does; false (every hz and *value NULL) when
 * it cannot be: unknown. */
bool z3_expr_hazards(z3_base *b, const z3_scope *scope, const spec_expr *x,
                     Z3_ast hz[Z3_HAZARDS], Z3_ast *value);
/* x and y, left literally false when either side is (so that a caller
 * can tell "never" without asking Z3). */
Z3_ast z3_and_kept_false(z3_base *b, Z3_ast x, Z3_ast y);
/* A term taken as a condition: it is not 0. */
Z3_ast z3_is_true(z3_base *b, Z3_ast v);
/* The word and generation of a model (bits it leaves free are 0). */
void z3_model_word(z3_base *b, Z3_model m, uint64_t *w, uint32_t *gen);

/* Registers p with the result, to be freed by diff_result_free; NULL
 * when p is NULL or memory runs out (p is then freed). */
void *diff_own(diff_result *r, void *p);

/* ----------------------------- leaves.c: per-leaf semantic proofs */
/* One leaf's proof: leaf l of root in b (a context of its own, root-sized);
 * spent: the file's time for these proofs is spent (ask nothing, say so);
 * counts into st, findings into d (merged in leaf order). */
typedef void (*semantic_leaf_fn)(void *arg, z3_base *b, const spec_root *root, size_t l,
                                 bool spent, semantic_stats *st, spec_diags *d);
/* fn on every leaf of root, on o->jobs threads; each thread's counts added
 * into st.  False when Z3 cannot start (a fatal diagnostic says so). */
bool semantic_each_leaf(const spec_root *root, const prove_options *o, semantic_leaf_fn fn,
                        void *arg, spec_diags *diags, semantic_stats *st);
/* The per-leaf counts of from (queries, displays, round trips) added to to. */
void semantic_stats_add(semantic_stats *to, const semantic_stats *from);
/* The texts[i] of the bits i set in why, joined by "; " into buf (len
 * bytes), or "unknown" when none is. */
void semantic_why_text(unsigned why, const char *const *texts, size_t ntexts, char *buf,
                       size_t len);
/* Per root of m: whether words start from it (no field decodes it; every
 * root when each is some field's).  NULL when memory runs out. */
bool *semantic_top_roots(const spec_model *m);
/* roundtrip.c: the round-trip part of prove_semantic (with opt->text
 * and its roundtrip: otherwise nothing is asked). */
bool prove_roundtrip(const spec_model *m, const prove_options *opt, spec_diags *diags,
                     semantic_stats *st);
#endif
