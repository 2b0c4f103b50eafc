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

/* Whose text the display proofs model (prove_options.printer).  Mesa's
 * isa_disasm leaves a `custom` field to its caller's field_print_cb, so
 * what such a field prints depends on the tool. */
typedef enum prove_printer {
	PROVE_PRINTER_MESA, /* isa_disasm alone: a custom field's text is
	                       unknown, and so is each display that prints one */
	PROVE_PRINTER_AFUC, /* afuc-disasm without its register database (as
	                       disasm --no-match=afuc prints): {CONTROLREG} and
	                       {SQEREG} of type custom as 0x%03x, any other
	                       custom field (or one aligned) as nothing */
} prove_printer;

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

/* What the decoder took for one word (prove_text_ops.taken): the proofs
 * of meaning confirm a witness Z3 proposed through a lenient translation
 * with it, so that a "holds" found so is the decoder's own.  Lists past
 * PROVE_TAKEN_MAX are cut (cut is then true, and nothing is concluded
 * from what is missing). */
#define PROVE_TAKEN_MAX 256u
typedef struct prove_taken_case {
	const spec_bitset *owner;
	const spec_case *kase;
	bool shown; /* its display is the one shown (else it held on the way) */
} prove_taken_case;
typedef struct prove_taken_field {
	const spec_bitset *owner;
	const spec_field *field;
	uint64_t raw; /* its value (codec_value.raw) */
} prove_taken_field;
typedef struct prove_taken {
	prove_taken_case held[PROVE_TAKEN_MAX];     /* held on a display walk (asserts checked) */
	size_t nheld;
	prove_taken_field decided[PROVE_TAKEN_MAX]; /* the definitions names resolved to, and values */
	size_t ndecided;
	const spec_field *failed[PROVE_TAKEN_MAX / 8]; /* asserts checked that failed */
	size_t nfailed;
	bool cut;
} prove_taken;

/* What the decoder makes of a word: the display proofs confirm every
 * witness Z3 gives with it (the CLI passes the codec's). */
typedef struct prove_text_ops {
	void *ctx;
	/* May be NULL (the display proof is then left out).  Decodes w
	 * (root-sized) as root at gen.  True when it decodes to
	 * one leaf (*leaf) with no issue but set don't-care bits; then its
	 * text goes to text (len bytes) and a digest of every value it
	 * decodes (field, value, sub-leaf, depth) to *digest. */
	bool (*decode)(void *ctx, const spec_root *root, const uint64_t *w, uint32_t gen,
	               const spec_bitset **leaf, char *text, size_t len, uint64_t *digest);
	/* May be NULL.  What tells the decodings of a and b apart, for the
	 * message ("SRC1 3 vs 5, ..."), into buf (len bytes). */
	void (*differ)(void *ctx, const spec_root *root, const uint64_t *a, const uint64_t *b,
	               uint32_t gen, char *buf, size_t len);
	/* May be NULL (the round-trip proof is then left out).  Decodes w as
	 * root at gen; when the decoding has a meaning (one leaf, no issue
	 * but set don't-care bits, enum values without a name, display
	 * problems), encodes it and compares it with w, the decoding's
	 * don't-care bits cleared.  Returns PROVE_RT_NO_MEANING,
	 * PROVE_RT_KEPT, or PROVE_RT_LOST with *leaf, in diff (root-sized)
	 * the bits where the re-encoding differs (0 when the encoder refuses)
	 * and, in why (len bytes), what the encoder did. */
	int (*roundtrip)(void *ctx, const spec_root *root, const uint64_t *w, uint32_t gen,
	                 const spec_bitset **leaf, uint64_t *diff, char *why, size_t len);
	/* May be NULL (questions only Mesa's expression stack decides then
	 * stay unknown).  Decodes w as root at gen and says what the decoder
	 * took (prove_taken); false when w decodes to no single leaf. */
	bool (*taken)(void *ctx, const spec_root *root, const uint64_t *w, uint32_t gen,
	              prove_taken *out);
} prove_text_ops;


/* prove_text_ops.roundtrip's answers. */
enum { PROVE_RT_NO_MEANING, PROVE_RT_KEPT, PROVE_RT_LOST };

typedef struct prove_options {
	prove_engine engine;
	unsigned timeout_ms;   /* per Z3 query; 0: none */
	unsigned rlimit;       /* Z3 resource limit per query; 0: none */
	unsigned time_limit_s; /* all Z3 queries of one run (prove_model, diff_models,
	                          diff_texts) together: once spent, no query starts
	                          and each unasked one is unknown; 0: none */
	unsigned time_limit_ms; /* the same in milliseconds, when not 0 (a fuzz
	                          target's budget per input); wins over _s */
	double deadline_;      /* set by those calls from the time limit; leave 0 */
	unsigned max_holes;    /* largest unallocated cubes listed per interval */
	const prove_allowlist *allow; /* NULL: none */
	const prove_text_ops *text; /* NULL: prove_semantic leaves displays out */
	unsigned jobs;         /* threads for the display proofs (0 or 1: this
	                          one); the report is the same for any number */
	prove_printer printer; /* the display proofs' text: Mesa's by default */
	struct prove_solver *solver; /* NULL: prove_display_word starts a Z3
	                          context of its own each call (below) */
} prove_options;

/* The defaults: cube engine, 10 s per query, no rlimit, 600 s of Z3 per
 * run, 8 holes. */
prove_options prove_default_options(void);

/* A Z3 context kept across prove_display_word calls, for a caller that
 * asks it of many words (the displays fuzz target): starting a context
 * costs about 1.5 ms (12 ms under ASan, whose allocator all of Z3's
 * memory goes through), most of such a call.
 * Set prove_options.solver to it; one thread at a time.  Z3's search
 * follows the order of the terms the context already holds, so a witness
 * word may differ, and a query near its timeout may turn to or from
 * unknown (never a proof to a finding); the context keeps the terms of
 * every call until it goes: keep one per batch of words.  `asm
 * --exact` does not use one, so that a line's message does not depend on
 * the lines before it.  NULL when Z3 cannot start. */
typedef struct prove_solver prove_solver;
prove_solver *prove_solver_new(void);
void prove_solver_free(prove_solver *s);

/* Whether Z3 can run.  libz3 is opened on first use (src/check/z3_lazy.c):
 * false when it, or one of the functions we call, cannot be found, and
 * why (len bytes; may be NULL) then says so, "Z3 is not available
 * (REASON)"; "" otherwise.  Any thread. */
bool prove_z3_available(char *why, size_t len);

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
	prove_cube *holes;        /* largest unallocated cubes (maximal: no bit more can
	                             be freed), largest first */
	size_t nholes;
	bool holes_exact;         /* no maximal free cube is larger than the smallest
	                             listed, nor unlisted while fewer than asked for are
	                             listed (false: the search ran out of steps) */
	bool unknown;             /* the figures mean nothing: */
	bool limit;               /* ... the cube engine's piece limit was reached
	                             (rule coverage-limit), not the solver's */
	bool budget;              /* ... that limit being the root's coverage
	                             budget, spent before this interval */
	size_t budget_leaves;     /* that budget, in live leaves (set with budget) */
} prove_interval;

/* Coverage takes time for every live leaf of every interval (about two
 * microseconds each); a spec whose leaves start and stop at thousands of
 * generations could make that leaves times intervals.  Past a budget of
 * live leaves summed over a root's intervals, the intervals left are
 * reported unknown (rule coverage-limit, budget) instead.  The budget is
 * PROVE_MAX_COVERAGE_LEAVES, or PROVE_COVERAGE_PER_LEAF times the root's
 * leaves when that is more: the work stays linear in the spec, and a
 * root of a million leaves over a few intervals fits.  Mesa's ir3 sums
 * to about 9,000; 100,000 leaves over 3 intervals fit. */
#define PROVE_MAX_COVERAGE_LEAVES 300000u
#define PROVE_COVERAGE_PER_LEAF 4u

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
	bool out_of_time;         /* the options' time_limit_s was spent: queries
	                             not asked are unknown */
	size_t not_asked;         /* pairs of leaves never asked for that reason
	                             (unknown, counted, not in overlaps) */
	struct prove_result_private *priv;
} prove_result;

/* Runs every proof over every root.  Returns false only when memory or
 * the solver cannot be set up (a diagnostic says why). */
bool prove_model(const spec_model *m, const prove_options *opt, prove_result *out,
                 spec_diags *diags);
void prove_result_free(prove_result *r);

/* ------------------------------------------- semantic (semantic.c) */

/* What the meaning proofs looked at and found. */
typedef struct semantic_stats {
	size_t cases;     /* <override> cases of the model */
	size_t live;      /* proved to hold for some word and to decide all it defines */
	size_t dead;      /* proved never to hold (override-dead) */
	size_t shadowed;  /* hold, but something they define never decides (override-shadowed) */
	size_t unknown;   /* else, a verdict Z3 could not give (semantic-unknown);
	                     live + dead + shadowed + unknown == cases */
	size_t live_by_decoder; /* of live, those whose holding was shown by a
	                           witness Z3 proposed leniently and the decoder
	                           bore out (Mesa's expression stack decides them) */
	size_t queries;   /* Z3 queries asked */
	size_t enum_values;  /* values of enums some field has as its type */
	size_t enum_dead;    /* of those, never held by such a field (enum-value-dead) */
	size_t enum_unknown; /* of those, undecided (semantic-unknown) */
	/* expression safety: override conditions and derived values (each
	 * expression once per derived field it is the value of) */
	size_t exprs;         /* asked about, in some leaf */
	size_t expr_safe;     /* proved never to overflow, divide by 0, shift out
	                         of range or (derived) lose bits to its width */
	size_t expr_findings; /* a word shown to do one of these */
	size_t expr_unknown;  /* else, a question Z3 could not answer */
	size_t asserts;          /* <assert>s of the leaves' chains */
	size_t asserts_never;    /* proved never to hold where their case holds */
	size_t asserts_unknown;  /* undecided */
	size_t asserts_by_decoder; /* shown to hold by a lenient witness the decoder
	                              bore out (counted as holding) */
	/* display invertibility (only with prove_options.text): leaves of
	 * the roots words start from */
	size_t displays;           /* leaves asked */
	size_t display_invertible; /* proved: their text determines their word */
	size_t display_findings;   /* two words shown to print alike (display-same-text) */
	size_t display_unknown;    /* else (semantic-unknown) */
	/* Optional (NULL: not kept), allocated by the caller with a byte per
	 * bitset of the model: each leaf's display verdict, by its index. */
	unsigned char *display_verdict;
	/* round trips (only with prove_options.text and its roundtrip):
	 * leaves of the roots words start from */
	size_t roundtrips;         /* leaves asked */
	size_t roundtrip_kept;     /* proved: encode(decode(w)) gives every word of
	                              theirs back, don't-care bits cleared */
	size_t roundtrip_findings; /* a word shown not to come back (roundtrip-lost) */
	size_t roundtrip_unknown;  /* else (semantic-unknown) */
} semantic_stats;

/* semantic_stats.display_verdict values. */
enum {
	PROVE_DISPLAY_NOT_ASKED, /* not a leaf of a root words start from */
	PROVE_DISPLAY_PROVED,    /* its text determines its word */
	PROVE_DISPLAY_SAME_TEXT, /* two words shown to print alike (display-same-text) */
	PROVE_DISPLAY_UNKNOWN,   /* Z3 could not decide (semantic-unknown) */
};

/* The meaning proofs, with Z3: every <override> case holds for some word
 * of some leaf below its bitset at some generation, and decides each
 * thing it defines (its display, its fields) for some word, the
 * decoder's look-up order considered; every value of an enum that a
 * field has as its type is held by such a field for some word; no word
 * of a leaf makes one of its expressions overflow, divide by zero or
 * shift out of range, or a derived value lose bits to its width; every
 * <assert> holds for some word where its case holds.
 * Findings go to diags (rules override-dead, override-shadowed,
 * enum-value-dead, expr-overflow, expr-divide-by-zero, expr-shift-range,
 * derived-value-lost, assert-never-holds; semantic-unknown where Z3 cannot decide, never
 * counted as proved).  Returns false only when memory or
 * Z3 cannot be set up (a fatal diagnostic says why). */
bool prove_semantic(const spec_model *m, const prove_options *opt, spec_diags *diags,
                    semantic_stats *st);
/* The display proof of prove_semantic alone (opt->text is required: with
 * none, nothing is asked): for each leaf of the roots words start from,
 * whether its text determines its word (display-same-text, or
 * semantic-unknown, in diags; the counts and verdicts in st).  `lint
 * --displays` uses it to replace its static verdicts with these. */
bool prove_displays(const spec_model *m, const prove_options *opt, spec_diags *diags,
                    semantic_stats *st);
/* The display proof for one word: whether another word of w's leaf (of
 * root, at gen) prints what w prints.  PROVE_DISPLAY_PROVED: Z3 proves
 * none does (the text determines w outside its don't-care bits);
 * PROVE_DISPLAY_SAME_TEXT: the display-same-text finding naming such a
 * word (confirmed by the decoder) is in diags; PROVE_DISPLAY_UNKNOWN: why
 * is in diags (semantic-unknown); PROVE_DISPLAY_NOT_ASKED: w decodes to
 * no single leaf of root without issues, or opt->text has no decode.
 * text_of_w (may be NULL) is w's text in opt->printer's style: then the
 * other word's text is held to it part by part (every way of cutting it
 * into a display's parts, each part's values parsed back from its
 * stretch), which settles lines whose leaf's displays do not split
 * uniquely; without it, w's text is stated by the leaf's formulas.
 * `asm --exact` asks it of each line whose leaf has no proof. */
int prove_display_word(const spec_model *m, const prove_options *opt, const spec_root *root,
                       const uint64_t *w, uint32_t gen, const char *text_of_w,
                       spec_diags *diags);

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


/* ================================================================= diff */

/*
 * What an edit of a spec changes (`isacheck diff OLD NEW`).  Roots are
 * matched by name; leaves of a root by name (per-generation variants by
 * equal, then overlapping, gen ranges), and a leaf left unmatched on both
 * sides with the same pattern cube and the same fields is a rename.
 *
 * Per root and generation interval (cut wherever a leaf of either side
 * starts or stops living) the word space is split, as the prover's
 * coverage does, on one bit at a time, but only where the two sides can
 * differ: a region where every leaf of one side has a counterpart on the
 * other that pins the same bits to the same values there decodes alike
 * throughout and is not split further.  The regions left are disjoint
 * cubes with a fixed set of matching leaves on each side, so the words
 * whose decoding changes are counted exactly.  With the Z3 engine each
 * interval is then proved: no word outside the regions decodes
 * differently, and every word of a region has exactly its recorded
 * leaves on both sides.
 */

typedef enum diff_leaf_kind {
	DIFF_LEAF_ADDED,   /* new_leaf only */
	DIFF_LEAF_REMOVED, /* old_leaf only */
	DIFF_LEAF_RENAMED, /* same pattern and fields, another name */
	DIFF_LEAF_PATTERN, /* same name, other pattern bits (merged with ancestors) */
	DIFF_LEAF_GEN,     /* same name, other effective gen range */
} diff_leaf_kind;

typedef struct diff_leaf {
	diff_leaf_kind kind;
	const spec_bitset *old_leaf, *new_leaf; /* NULL on the side it is missing */
} diff_leaf;

/* A field of a matched leaf (merged with its ancestors, per case) that
 * reads other bits, has another type, or exists on one side only. */
typedef struct diff_field {
	const spec_bitset *old_leaf, *new_leaf;
	const char *name;
	const char *case_expr;                 /* NULL: the default case */
	const spec_field *old_field, *new_field; /* NULL: absent on that side */
} diff_field;

/* The words of one root and gen range that decode to one set of leaves in
 * OLD and another in NEW (empty: nothing matches; two or more: ambiguous),
 * or, when fields_only, to one matched leaf whose fields read differently. */
typedef struct diff_decoding {
	const char *root;             /* root name */
	unsigned size;                /* root size in bits */
	spec_gen gen;
	const spec_bitset *const *old_leaves;
	size_t nold;
	const spec_bitset *const *new_leaves;
	size_t nnew;
	bool fields_only;
	prove_count words;            /* how many words, at each generation of gen */
	const uint64_t *witness;      /* one of them (root-sized) */
	uint32_t witness_gen;         /* gen.min */
} diff_decoding;

/* Holes per root and gen range: words no leaf matches. */
typedef struct diff_holes {
	const char *root;
	spec_gen gen;
	prove_count opened;           /* decoded in OLD, nothing matches in NEW */
	prove_count filled;           /* nothing matched in OLD, decoded in NEW */
} diff_holes;

/* A matched leaf whose display (template of the default case, inherited
 * if not its own, or displayed name) changed, with a word that decodes to
 * it on both sides, to be printed old and new. */
typedef struct diff_display {
	const spec_bitset *old_leaf, *new_leaf;
	const char *old_text, *new_text; /* templates; NULL: none */
	const uint64_t *witness;      /* NULL: no word decodes to it alone on both sides */
	uint32_t witness_gen;
} diff_display;

/* What an edit does to the printed text of the words that decode to the
 * same leaf on both sides (diff_texts): a leaf pair whose printing may
 * differ, with the first thing that changed (the cause) and a word that
 * prints differently, or unknown when no word was found and no proof
 * was either. */
typedef enum diff_text_verdict {
	DIFF_TEXT_DIFFERS, /* witness prints old_text in OLD, new_text in NEW */
	DIFF_TEXT_UNKNOWN, /* not proved alike, no witness found */
} diff_text_verdict;

typedef struct diff_text {
	const char *root;
	unsigned size;
	spec_gen gen;                 /* where both leaves live */
	const spec_bitset *old_leaf, *new_leaf;
	diff_text_verdict verdict;
	const char *cause;            /* "enum #cond value 2 (field COND of 'cmp'): ".lt" -> ".LT"" */
	spec_loc old_loc, new_loc;    /* the changed element on each side (line 0: none) */
	bool counted;                 /* words is exact (every word enumerated) */
	prove_count words;            /* words per generation that print differently */
	const uint64_t *witness;      /* DIFF_TEXT_DIFFERS: root-sized */
	uint32_t witness_gen;
	const char *old_text, *new_text;
} diff_text;

/* How diff_texts decodes and prints a word of a root: the codec, given
 * by the caller so that src/check does not depend on it.  side 0 is OLD,
 * 1 NEW; root is that side's. */
typedef struct diff_codec_ops {
	void *ctx;
	const char *default_root;     /* the root that prints whole instructions */
	/* the one leaf w decodes to, NULL when none or several */
	const spec_bitset *(*leaf_of)(void *ctx, int side, const spec_root *root,
	                              const uint64_t *w, uint32_t gen);
	void (*print)(void *ctx, int side, const spec_root *root, const uint64_t *w,
	              uint32_t gen, char *buf, size_t len);
} diff_codec_ops;

typedef struct diff_root {
	const spec_bitset *old_root, *new_root; /* NULL: added or removed */
} diff_root;

typedef struct diff_result {
	prove_result old_proof, new_proof; /* the proofs of both sides */
	diff_root *roots;             /* added, removed, or resized (not compared) */
	size_t nroots;
	diff_leaf *leaves;
	size_t nleaves;
	diff_field *fields;
	size_t nfields;
	diff_decoding *decodings;     /* by root, then gen, then region order */
	size_t ndecodings;
	diff_holes *holes;            /* only ranges where holes changed */
	size_t nholes;
	diff_display *displays;
	size_t ndisplays;
	/* Overlaps and accounting problems of NEW that OLD did not have
	 * (compared by leaf names, renames followed), and those of OLD that
	 * NEW no longer has. */
	const prove_overlap **overlaps_introduced, **overlaps_fixed;
	size_t noverlaps_introduced, noverlaps_fixed;
	const prove_accounting **accounting_introduced, **accounting_fixed;
	size_t naccounting_introduced, naccounting_fixed;
	diff_text *texts;             /* by root, then leaf (diff_texts) */
	size_t ntexts;
	/* leaf pairs whose text was proved alike: by equal components, by
	 * the cube (a changed enum value no word can hold), by enumeration,
	 * by Z3 (changed expressions that agree on every word) */
	size_t texts_structural, texts_cube, texts_enumerated, texts_z3;
	size_t queries;               /* Z3 queries of the diff proof itself */
	bool any_unknown;             /* some question went undecided */
	struct diff_result_private *priv;
} diff_result;

/* Compares two loaded specs.  Both models must outlive the result.
 * Returns false only when memory or the solver cannot be set up (a
 * diagnostic says why). */
bool diff_models(const spec_model *old_model, const spec_model *new_model,
                 const prove_options *opt, diff_result *out, spec_diags *diags);
/* Adds to r what the edit does to the printed text of the words that
 * decode to the same leaf on both sides (roots that print on their own:
 * the default root and roots no field decodes through; a bitset-typed
 * operand's text is judged inside its parents).  Call after diff_models
 * on the same models.  Returns false only when memory runs out. */
bool diff_texts(const spec_model *old_model, const spec_model *new_model,
                const prove_options *opt, const diff_codec_ops *ops, diff_result *r,
                spec_diags *diags);
void diff_result_free(diff_result *r);
/* Whether the encoding spaces are the same: no root, leaf, field,
 * decoding, hole, display, overlap or accounting change. */
bool diff_is_empty(const diff_result *r);
/* The leaf pairs whose text is shown to change (unknown ones not counted). */
size_t diff_text_changes(const diff_result *r);

#ifdef __cplusplus
}
#endif

#endif
