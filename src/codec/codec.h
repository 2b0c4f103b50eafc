/*
 * codec.h - the whole API of src/codec: decode, disassemble (and, later,
 * encode and assemble) instructions of any spec, driven only by the
 * model of src/spec.  The CLI, tests, fuzzers, triage and diff all use it.
 *
 * A codec is compiled once from a model: per root a decision structure
 * over distinguishing bits (classification is a table look-up and one
 * compare, not a scan over leaves), and per bitset its displays parsed
 * into ops and its field look-ups resolved.  Decoding then allocates
 * nothing.  Nothing here keeps global state.
 *
 * Words: an instruction of N bits is given as N/64 rounded up uint64_t
 * (bit i = bit i%64 of word i/64), or, for the disassembler, as the
 * little-endian uint32_t words of memory, as Mesa's isa_disasm takes them.
 */
#ifndef ISACHECK_CODEC_H
#define ISACHECK_CODEC_H

#include "spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct codec codec;

/* Compiles the model; NULL (with a diagnostic) only when memory runs out
 * or the model has no root.  The model must outlive the codec. */
codec *codec_new(const spec_model *m, spec_diags *diags);
/* The same codec without its compiled fast paths (decode tables, plans,
 * rendered texts): every call gives the same results, each word costs
 * more, the build costs less.  For callers that decode each leaf a few
 * times, such as lint's printing probe on a spec of 10^5 leaves. */
codec *codec_new_general(const spec_model *m, spec_diags *diags);
/* A general codec for these words only: ninstr instructions of root, iw
 * 32-bit words each (low first), decoded at generation gen.  Only the
 * leaves of root they match are compiled, with every leaf of the roots
 * their bitset-typed fields reach (transitively), and root is classified
 * by a scan, not the classifier.  Other
 * words of root, or other generations, must not be given to it.  Falls
 * back to codec_new_general where that is not cheaper or not sound (a
 * root that is also a field's type; too many words for a scan). */
codec *codec_new_for_words(const spec_model *m, const spec_root *root, const uint32_t *words,
                           unsigned iw, size_t ninstr, uint32_t gen, spec_diags *diags);
void codec_free(codec *c);
const spec_model *codec_model(const codec *c);
/* The root instructions are decoded against: "#instruction" when there
 * is one, else the widest root. */
const spec_root *codec_default_root(const codec *c);
/* The same for a model, before any codec is built. */
const spec_root *codec_model_default_root(const spec_model *m);

/* -------------------------------------------------------- classification */

/* The leaves of root that match word w at generation gen (ISASPEC.md
 * section 3), in document order: up to max of them are stored in out;
 * the return value is how many match in all (0: no match; 2 or more: an
 * ambiguity).  Uses the compiled decision structure. */
size_t codec_classify(const codec *c, const spec_root *root, const uint64_t *w,
                      uint32_t gen, const spec_bitset **out, size_t max);
/* The same by a plain scan over every leaf: the reference the fast path
 * is tested and benchmarked against. */
size_t codec_classify_linear(const codec *c, const spec_root *root, const uint64_t *w,
                             uint32_t gen, const spec_bitset **out, size_t max);

/* -------------------------------------------------------------- decoding */

typedef enum codec_issue_kind {
	CODEC_NO_MATCH,        /* no leaf matches (at top level, or in a bitset field) */
	CODEC_AMBIGUOUS,       /* more than one leaf matches */
	CODEC_DONTCARE_SET,    /* a declared x bit of the chosen leaf is 1 */
	CODEC_ASSERT_MISMATCH, /* an <assert> that was checked does not hold */
	CODEC_NO_FIELD,        /* a display or expression names an unknown field */
	CODEC_EXPR_ERROR,      /* an expression failed (division by zero, ...) */
	CODEC_NO_DISPLAY,      /* the leaf has no display template */
	CODEC_ENUM_MISSING,    /* a field value its enum does not name */
	CODEC_TEXT_TOO_LONG,   /* the instruction's text passed CODEC_MAX_TEXT, or
	                          it decoded CODEC_MAX_SUBFIELDS bitset fields:
	                          the rest is not printed */
} codec_issue_kind;

/* The most text one instruction may print.  Bitset-typed fields nest up
 * to 16 deep and a display can name a field many times, so a few
 * kilobytes of spec can ask for gigabytes of text; Mesa's longest lines
 * are a few hundred bytes. */
#define CODEC_MAX_TEXT (1u << 20)
/* ... and the most bitset-typed fields it may decode (the same nesting
 * can ask for billions of decodings that print nothing). */
#define CODEC_MAX_SUBFIELDS 65536u

typedef struct codec_issue {
	codec_issue_kind kind;
	const spec_bitset *leaf;   /* the leaf concerned (NULL for no match) */
	const spec_bitset *other;  /* AMBIGUOUS: the second leaf */
	const spec_field *field;   /* the field concerned, when there is one */
	uint64_t bits;             /* DONTCARE_SET: the x bits that are set
	                              (low 64 bits of the leaf); ASSERT: the value seen */
	char text[160];            /* Mesa's words for it, e.g. "dontcare bits in add: ..." */
} codec_issue;

/* One field value of a decoded instruction: fields, derived fields and
 * bitset-typed fields (whose sub-decoding follows in the same list, with
 * depth + 1), in the order the leaf's active case and ancestors define
 * them. */
typedef struct codec_value {
	const spec_field *field;
	const spec_bitset *owner;  /* the bitset whose case defines it */
	const spec_case *kase;     /* that case (NULL: not known; the encoder
	                              then looks for it among owner's) */
	uint64_t raw;              /* the bits (derived: the expression's value) */
	int64_t value;             /* sign-extended where the type is signed
	                              (int, offset, branch); otherwise == raw */
	unsigned depth;            /* 0: the instruction; 1: inside a bitset field... */
	const spec_bitset *sub;    /* bitset-typed: the leaf its bits decode to */
} codec_value;

/* A case the decoder found to hold while choosing a scope's display
 * (Mesa's find_display): the walk takes the cases from the leaf upwards,
 * checks the asserts of each that holds and stops at the first that
 * has a display.  What the meaning proofs confirm their witnesses with
 * (an override "holds", an assert "was checked"). */
typedef struct codec_case_taken {
	const spec_case *kase;
	const spec_bitset *owner;  /* the bitset kase belongs to */
	const spec_bitset *leaf;   /* the scope's leaf */
	unsigned depth;            /* of the scope, as codec_value.depth */
	bool shown;                /* its display is the one shown; else it held on
	                              the way to it (its asserts were checked) */
} codec_case_taken;

/* A decoding, written into caller-provided storage (no allocation):
 * the caller sets values/cap_values and issues/cap_issues, and may set
 * cases/cap_cases (left NULL: not recorded). */
typedef struct codec_decoded {
	const spec_root *root;
	const spec_bitset *leaf;   /* NULL: no match or ambiguous */
	uint32_t gen;
	codec_value *values;
	size_t nvalues, cap_values;
	codec_issue *issues;
	size_t nissues, cap_issues;
	codec_case_taken *cases;   /* in the order the walks found them; past
	                              cap_cases, counted in ncases but not kept */
	size_t ncases, cap_cases;
} codec_decoded;

/* Decodes one instruction of root (NULL: the default root) at gen. */
bool codec_decode(const codec *c, const spec_root *root, const uint64_t *w, uint32_t gen,
                  codec_decoded *out);

/* Decodes one instruction of root at gen, for a proof to compare two
 * words by: true when it decodes to one leaf (*leaf) with no issue but
 * set don't-care bits, missing displays and names a display prints that
 * resolve to nothing; then its text (as codec_disasm_root prints it,
 * Mesa's style; with the errors, as Mesa's tools print them, where a
 * display or a name is missing) goes to text (len bytes) and a digest
 * of every value it
 * decodes (field, value, sub-leaf, depth: what tells two decodings
 * apart) to *digest. */
bool codec_decode_digest(const codec *c, const spec_root *root, const uint64_t *w, uint32_t gen,
                         const spec_bitset **leaf, char *text, size_t len, uint64_t *digest);
/* What tells the decodings of words a and b apart, for a person: the
 * values they disagree on, "NAME a vs b" (a field inside a bitset field
 * as "OUTER.NAME"), or where their lists part ("SRC: leaf x vs y"),
 * joined by ", " into buf (len bytes, cut with "..." when longer).
 * Returns the number of differences named (0: the decodings agree). */
size_t codec_describe_difference(const codec *c, const spec_root *root, const uint64_t *a,
                                 const uint64_t *b, uint32_t gen, char *buf, size_t len);

/* -------------------------------------------------------------- encoding */

/* Encodes a decoding (or one the assembler built) back into words: the
 * leaf's 0/1 pattern bits (x bits stay 0: the canonical form), each
 * assert's bits at its value, and every depth-0 field value at its bits;
 * a bitset-typed field is encoded from its sub leaf and the values that
 * follow it at depth + 1.  Each value is range-checked (signed types
 * -2^(w-1) .. 2^(w-1)-1, others 0 .. 2^w-1) and must agree with pattern
 * bits and with other fields on shared bits.  Derived fields are not
 * placed.  w gets the root's words.  Returns false with a one-line
 * reason in err. */
bool codec_encode(const codec *c, const codec_decoded *d, uint64_t *w, char *err,
                  size_t errlen);

/* An encoder that remembers, per leaf and set of cases that hold, what
 * codec_encode decided (a template: the bits the pattern and asserts
 * fix, and per value whether and where it goes), so that the next
 * decoding of that shape is encoded without deciding again.  Its answers
 * (result, words, message) are codec_encode's, always: a decoding the
 * template does not fit goes codec_encode's way.  It keeps at most 64
 * MiB of templates.  One thread at a time; NULL when out of memory. */
typedef struct codec_encoder codec_encoder;
codec_encoder *codec_encoder_new(const codec *c);
void codec_encoder_free(codec_encoder *enc);
bool codec_encoder_encode(codec_encoder *enc, const codec_decoded *d, uint64_t *w, char *err,
                          size_t errlen);
/* What an encoder keeps and how often it served: templates and shapes
 * (the places of a leaf's values, which its overrides read) kept, their
 * bytes, and leaves encoded by a template (hits) or the general way
 * after a template did not fit (misses). */
typedef struct codec_encoder_stats {
	size_t templates, shapes, bytes;
	unsigned long hits, misses;
} codec_encoder_stats;
codec_encoder_stats codec_encoder_get_stats(const codec_encoder *enc);

/* Whether decoding d has a meaning: one leaf, and no issue but set
 * don't-care bits, enum values without a name and display problems (no
 * display, a name it cannot find). */
bool codec_decoding_has_meaning(const codec_decoded *d);

/* A decoding's round trip, as the round-trip proof (prove_semantic) and
 * the fuzz targets define it: decode w as root at gen; if it has a
 * meaning (one leaf; no issue but set don't-care bits, enum values
 * without a name, display problems), encode it and compare with w with
 * the decoding's don't-care bits (the leaf's, and each sub leaf's at its
 * field) cleared. */
typedef enum codec_roundtrip_result {
	CODEC_RT_NO_MEANING, /* no leaf, or an issue that leaves no meaning */
	CODEC_RT_KEPT,       /* re-encoded to w, don't-care bits 0 */
	CODEC_RT_REFUSED,    /* codec_encode refused the decoding (why says why) */
	CODEC_RT_CHANGED,    /* re-encoded to other words (why gives them and the bits) */
} codec_roundtrip_result;
/* *leaf (not NO_MEANING), the re-encoding in out (root-sized; 0 when
 * refused), the bits where it differs from w with the don't-care bits
 * cleared in diff (root-sized, may be NULL; 0 unless CHANGED) and a
 * one-line reason in why (len bytes). */
codec_roundtrip_result codec_roundtrip(const codec *c, const spec_root *root, const uint64_t *w,
                                       uint32_t gen, const spec_bitset **leaf, uint64_t *out,
                                       uint64_t *diff, char *why, size_t len);

/* ------------------------------------------------------------- assembly */

/* Assembles one line of text (as codec_disasm_one prints it without
 * error suffixes) into an instruction of the default root at gen, by
 * parsing it against the spec's display templates; every candidate is
 * encoded and disassembled again, and only one that prints exactly the
 * text is accepted.  Returns how many distinct encodings print the text:
 * 0 (err says why), 1 (w holds it), or 2 (ambiguous; w holds the first
 * found, and err gives both).  Encodings that decode with an issue (an
 * enum value the spec does not name, in a field the text does not show)
 * count only when no clean one prints the text: then 1, and err says so. */
size_t codec_assemble_one(const codec *c, const char *text, uint32_t gen, uint64_t *w,
                          char *err, size_t errlen);

/* Whether every display leaf can print with can be parsed back into the
 * bits the decoder reads (see invert.c): false, with a one-line reason
 * in why, when a bit is not printed, an enum prints two values alike, a
 * derived value does not tell its inputs apart, or two numbers are
 * printed with nothing between them. */
bool codec_display_invertible(const codec *c, const spec_bitset *leaf, char *why, size_t len);
/* The same question for one instruction of the default root: false, with
 * a witness in why, when some other word prints the same text.  Tries
 * every single-bit change outside the leaf's don't-care bits: a sound
 * proof of a lossy text when it finds one, not a proof of the converse. */
bool codec_word_invertible(const codec *c, const uint64_t *w, uint32_t gen, char *why,
                           size_t len);
/* The same for every leaf of every root, as warnings of the rule
 * "display-not-invertible" at each leaf; returns how many. */
size_t codec_lint_displays(const codec *c, spec_diags *diags);
/* Decodes and prints every leaf of the roots that print alone (no field
 * decodes through them) from a few words it matches (pattern bits, x
 * bits 0, the rest 0s, 1s and two mixes) and adds an error
 * (rule disasm-fails) with the word for each leaf whose printing fails:
 * a name no field resolves, no display, a derived value that cannot be
 * evaluated, text over its budget.  What fails for every word of a leaf
 * is always found.  The count of leaves reported. */
size_t codec_lint_words(const codec *c, spec_diags *diags);

/* ---------------------------------------------------------- disassembly */

/* Which Mesa tool's callbacks the text is printed with (isa_disasm's
 * options): its no-match line and, for afuc, more. */
typedef enum codec_no_match_style {
	CODEC_NO_MATCH_MESA,  /* "no match: <hex, high word first>" (isa_disasm's default) */
	CODEC_NO_MATCH_IR3,   /* "raw 0x%X%X" (ir3's test callback print_raw) */
	CODEC_NO_MATCH_AFUC,  /* afuc-disasm without its register database: "[%08x]",
	                         custom fields CONTROLREG and SQEREG as "0x%03x" (field_print_cb),
	                         "\t; 0x%03x" after an immediate that names a pipe register
	                         (post_instr_cb); printed by the interpreting path only */
} codec_no_match_style;

/* codec_assemble_one (above) for text as the Mesa tool of no-match
 * style `style` prints it (codec_disasm_options.no_match; codec_assemble_one reads Mesa's
 * isa_disasm text, CODEC_NO_MATCH_MESA).  The style decides what a field
 * of type custom prints: nothing in isa_disasm (its caller's), so its
 * value is 0; with CODEC_NO_MATCH_AFUC, {CONTROLREG} and {SQEREG} as
 * afuc-disasm prints them, 0x%03x, read back; the comment it may append
 * ("\t; 0x%03x", a function of the immediate printed before it) is
 * neither read nor compared. */
size_t codec_assemble_as(const codec *c, const char *text, uint32_t gen,
                         codec_no_match_style style, uint64_t *w, char *err, size_t errlen);
/* codec_word_invertible (above) for the text the Mesa tool of style
 * prints (afuc-disasm's shows its register fields, Mesa's does not). */
bool codec_word_invertible_as(const codec *c, const uint64_t *w, uint32_t gen,
                              codec_no_match_style style, char *why, size_t len);

typedef struct codec_disasm_options {
	uint32_t gen;              /* Mesa's gpu_id scale of the spec (ir3: 600, afuc: 6) */
	bool show_errors;          /* append "\t; error, error" as Mesa does */
	bool branch_labels;        /* l<N>: / fxn<N>: labels over the whole program */
	codec_no_match_style no_match;
} codec_disasm_options;

/* Disassembles n instructions from little-endian 32-bit words (each
 * instruction is bitsize/32 words of the default root's size), writing
 * exactly the text Mesa's isa_disasm writes with the same options:
 * one line per instruction, each ending in "\n".  Returns the number of
 * instructions that decoded without issues. */
size_t codec_disasm(const codec *c, const uint32_t *words, size_t ninstr,
                    const codec_disasm_options *opt, FILE *out);

/* One instruction into a buffer, without the trailing newline.  Returns
 * the length (as snprintf does: the text may have been cut). */
size_t codec_disasm_one(const codec *c, const uint32_t *words, const codec_disasm_options *opt,
                        char *buf, size_t len);
/* The same for an instruction of any root (a sub-bitset's own root, a
 * part of a framed program), given as 64-bit words (bit i of w[i/64]);
 * a word no leaf matches prints as "no match: <hex>".  opt's gen and
 * show_errors apply. */
size_t codec_disasm_root(const codec *c, const spec_root *root, const uint64_t *w,
                         const codec_disasm_options *opt, char *buf, size_t len);
/* codec_decode at opt->gen and the instruction's text as the disassembler
 * prints it with opt (codec_disasm_one for the default root,
 * codec_disasm_root for another), *textlen getting what that
 * returns: the same results as the two calls, for one walk of the words
 * where the display prints straight through without an error suffix,
 * labels or afuc-disasm's hooks (the decoding walks that display anyway,
 * for its issues).  The round-trip fuzz targets want both of every word. */
bool codec_decode_text(const codec *c, const spec_root *root, const uint64_t *w,
                       const codec_disasm_options *opt, codec_decoded *out, char *buf,
                       size_t len, size_t *textlen);

/* ======================================================= whole programs
 *
 * A spec's <program> (spec.h, docs/framing.md) says how a whole program
 * is cut into instructions: a2xx's CF area and the ALU/FETCH slots its
 * EXEC clauses address, Midgard's tag-framed bundles.  Walking a program
 * runs those steps over the words and yields every item (instruction,
 * raw data, padding, recorded value) with its position, and the
 * program's disassembly.  A walk ends on any input: every loop either
 * consumes input or is cut off by a budget proportional to the input.
 */

typedef enum codec_item_kind {
	CODEC_ITEM_PART,  /* an instruction of item.root */
	CODEC_ITEM_DATA,  /* raw bits (<data>) */
	CODEC_ITEM_PAD,   /* padding (<align>, or the rest of a sized <group>) */
	CODEC_ITEM_VALUE, /* a <let item="true">: a value joined from parts; no bits */
} codec_item_kind;

typedef struct codec_item {
	codec_item_kind kind;
	const spec_step *step;     /* the framing step that made it */
	const char *name;          /* the step's name= (VALUE: the variable), or NULL */
	size_t bit;                /* position in bits from the start of the program */
	unsigned bits;             /* size in bits (VALUE: 0) */
	const spec_root *root;     /* PART */
	const spec_bitset *leaf;   /* PART: the leaf it decodes to; NULL: no match or ambiguous */
	bool clean;                /* PART: decoded without issues; PAD: zero where required */
	int64_t value;             /* VALUE */
	const uint64_t *w;         /* the bits, (bits + 63) / 64 words, item bit 0 first */
} codec_item;

typedef enum codec_frame_error_kind {
	CODEC_FRAME_TRUNCATED, /* a part, read or region runs past the end of the input */
	CODEC_FRAME_REJECTED,  /* a <reject> held (a bad tag, ...) */
	CODEC_FRAME_OVERFLOW,  /* steps run past the end of their sized region */
	CODEC_FRAME_UNCOVERED, /* input bits no item covers (an a2xx slot no EXEC covers) */
	CODEC_FRAME_OVERLAP,   /* two items cover the same bits */
	CODEC_FRAME_LOOP,      /* an iteration consumed nothing, or the step budget ran out */
	CODEC_FRAME_EXPR,      /* an expression failed, or a size, position or count is negative */
	CODEC_FRAME_COUNT,     /* count-at never held, or fixed a count below the iterations run */
	CODEC_FRAME_PADDING,   /* padding that must be zero is not */
	CODEC_FRAME_MEMORY,    /* out of memory */
} codec_frame_error_kind;

typedef struct codec_frame_error {
	codec_frame_error_kind kind;
	bool fatal;                /* the walk stopped here */
	size_t bit;                /* where in the program, in bits */
	const spec_step *step;     /* the step at fault (its loc), or NULL */
	char text[256];            /* one line, e.g. "bad tag 0x0" */
} codec_frame_error;

/* A walked program; everything it points to lives until codec_program_free. */
typedef struct codec_program {
	const spec_program *program;
	size_t nwords;             /* input size in 32-bit words */
	codec_item *items;         /* in the order the steps produced them */
	size_t nitems;
	codec_frame_error *errors; /* at most CODEC_PROGRAM_MAX_ERRORS */
	size_t nerrors;
	bool stopped;              /* a fatal error ended the walk early */
	size_t nparts, nclean;     /* PART items, and those decoded without issues */
	char *text;                /* the disassembly, NUL-terminated */
	size_t textlen;
	struct codec_program_private *priv;
} codec_program;

#define CODEC_PROGRAM_MAX_ERRORS 64u

/* Walks program p (NULL: the spec's only <program>) over nwords
 * little-endian 32-bit words.  opt gives the generation and whether
 * instruction error suffixes appear in the text (branch_labels and
 * no_match are ignored: the style is Mesa's default).  Returns NULL only
 * when memory runs out or there is no program; framing problems are in
 * ->errors.  p may be of another model than c's (its names are resolved
 * for the walk), but a part of it names that model's root, which c does
 * not decode: such a part is a fatal REJECTED error. */
codec_program *codec_program_walk(const codec *c, const spec_program *p, const uint32_t *words,
                                  size_t nwords, const codec_disasm_options *opt);
void codec_program_free(codec_program *pr);

/* A walker: what walks need besides the program (the decoder's and the
 * text's room, the variables' table), kept from walk to walk, and a
 * memory of the parts it walked, for a caller that walks many programs
 * sharing instructions (a fuzz target, whose every input is a few
 * mutations from an earlier one): each part's words with the step that
 * read them, the generation and show_errors, and what the walk made of
 * them (its leaf, whether it decoded cleanly, its exported values and
 * its text), and once asked for, its re-encoding.  A part recalled is
 * not decoded again; a walk is the same with the memory as without it
 * (tests/test_framing.c holds every walk of a few thousand programs to
 * that).  Parts of up to 128 bits, 8 exports and a text of
 * CODEC_WALKER_TEXT - 1 bytes; 2^log2_parts of them at most (0: no
 * memory), a newer one taking an older one's slot (about 300 bytes a
 * slot); parts of a program of another model than c's are not kept.  A
 * walker serves the codec it was made for, and one thread at a time. */
typedef struct codec_walker codec_walker;
#define CODEC_WALKER_TEXT 192u
typedef struct codec_walker_stats {
	unsigned long long asked, recalled;         /* parts walked */
	unsigned long long enc_asked, enc_recalled; /* parts re-encoded */
	unsigned long long resumed;    /* quiet walks that went on from the last's trail */
	unsigned long long items_kept; /* items they kept from it, not walked again */
	unsigned long long joined;     /* quiet walks that joined the last's after a change */
	unsigned long long items_joined; /* items they took from it, not walked again */
	unsigned long long shared;     /* recent decodings re-encoded or given out (below) */
} codec_walker_stats;
/* NULL when out of memory, c is NULL or log2_parts is over 20. */
codec_walker *codec_walker_new(const codec *c, unsigned log2_parts);
void codec_walker_free(codec_walker *w);
codec_walker_stats codec_walker_get_stats(const codec_walker *w);
/* codec_program_walk with w's codec. */
codec_program *codec_walker_walk(codec_walker *w, const spec_program *p, const uint32_t *words,
                                 size_t nwords, const codec_disasm_options *opt);
/* codec_program_free for a walk w's codec_walker_walk (or
 * codec_program_walk) returned, whose room (items, bits, errors, text)
 * w may keep for its next walks instead: up to two.  Does nothing with
 * NULL or w's quiet result. */
void codec_walker_recycle(codec_walker *w, codec_program *pr);
/* codec_walker_walk without printing, stopping at the first error: the
 * walk's items as far as it went (each with its bits), stopped when it
 * met an error, no text (""), and at most one error, the first the walk
 * meets (its kind, bit, step and fatal; an empty message).  A part is
 * decoded only when the walk reads one of its exports, or at the end of
 * a walk without an error: so without an error every part has its leaf
 * and clean, and nparts and nclean count them all, as the walk's; with
 * one, a part nothing read has leaf NULL and clean false, and nparts
 * and nclean count the parts decoded.  Errors only printing raises (a <display>'s or <suffix>'s
 * when= that fails, a text over the size limit) are not looked for: no
 * error means none in the framing, and the items are then the walk's;
 * an error means codec_walker_walk reports at least one.  The result is
 * the walker's, valid until its next quiet walk or codec_walker_free;
 * NULL when memory runs out or there is no program.  Parts are
 * remembered as walks remember them, and a walker with a memory keeps a
 * trail of its last quiet walk: the next goes on from the last iteration
 * of the program's own repeats before which that walk read no word that
 * changed and asked nothing of the input's size that differs, and where
 * the input has as many words, joins that walk at an iteration it
 * reaches in the same state after which that walk read no changed word
 * (the same result as a walk from the start; docs/framing.md).  (A fuzz target walks every input
 * so, and in full only those whose text it compares: printing and
 * error messages were most of the cost of a walk it did not check.) */
const codec_program *codec_walker_walk_quiet(codec_walker *w, const spec_program *p,
                                             const uint32_t *words, size_t nwords,
                                             const codec_disasm_options *opt);
/* Whether the walk found nothing: no error and every part clean. */
static inline bool codec_program_clean(const codec_program *pr)
{
	return pr && !pr->nerrors && pr->nclean == pr->nparts;
}
/* "bad tag", "truncated", ...: a stable name per error kind. */
const char *codec_frame_error_name(codec_frame_error_kind k);

/* Writes items back into words[0..nwords): every item's bits at its
 * position (VALUE items have none).  Bits no item covers are 0.  False,
 * with a reason in err, when an item lies outside the words or two items
 * disagree on a bit they share. */
bool codec_program_encode(const codec_item *items, size_t nitems, uint32_t *words,
                          size_t nwords, char *err, size_t errlen);

/* Re-encodes each PART item of a walk from its decoding (codec_decode,
 * then codec_encode: the canonical form, don't-care bits 0) and writes
 * the program as codec_program_encode does.  False with a reason when a
 * part does not decode or encode. */
bool codec_program_reencode(const codec *c, const codec_program *pr, uint32_t gen,
                            uint32_t *words, size_t nwords, char *err, size_t errlen);
/* codec_program_reencode with w's codec: a part w's memory holds at gen
 * with its re-encoding is not decoded and encoded again, one its walks
 * decoded lately (codec_walker_decoding) is not decoded again, and
 * where w has a memory the others are encoded by its codec_encoder (its
 * templates; codec_encode's answers). */
bool codec_walker_reencode(codec_walker *w, const codec_program *pr, uint32_t gen,
                           uint32_t *words, size_t nwords, char *err, size_t errlen);
/* The decoding at gen of part item it (of a walk of w's codec), where a
 * walk of w decoded that part afresh lately: a walker with a memory
 * keeps the last few parts its walks decoded (by their memory slots) with
 * 256 values or fewer, whole.  It is what codec_decode gives the part
 * into room for at least as many values and 16 issues (no cases).  NULL
 * where w has none of it; valid until w's next walk.  (A fuzz target
 * reading the parts of a program it walked decodes each new part once.) */
const codec_decoded *codec_walker_decoding(codec_walker *w, const codec_item *it, uint32_t gen);

#ifdef __cplusplus
}
#endif

#endif
