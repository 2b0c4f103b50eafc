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
void codec_free(codec *c);
const spec_model *codec_model(const codec *c);
/* The root instructions are decoded against: "#instruction" when there
 * is one, else the widest root. */
const spec_root *codec_default_root(const codec *c);

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
} codec_issue_kind;

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
	uint64_t raw;              /* the bits (derived: the expression's value) */
	int64_t value;             /* sign-extended where the type is signed
	                              (int, offset, branch); otherwise == raw */
	unsigned depth;            /* 0: the instruction; 1: inside a bitset field... */
	const spec_bitset *sub;    /* bitset-typed: the leaf its bits decode to */
} codec_value;

/* A decoding, written into caller-provided storage (no allocation):
 * the caller sets values/cap_values and issues/cap_issues. */
typedef struct codec_decoded {
	const spec_root *root;
	const spec_bitset *leaf;   /* NULL: no match or ambiguous */
	uint32_t gen;
	codec_value *values;
	size_t nvalues, cap_values;
	codec_issue *issues;
	size_t nissues, cap_issues;
} codec_decoded;

/* Decodes one instruction of root (NULL: the default root) at gen. */
bool codec_decode(const codec *c, const spec_root *root, const uint64_t *w, uint32_t gen,
                  codec_decoded *out);

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

/* ------------------------------------------------------------- assembly */

/* Assembles one line of text (as codec_disasm_one prints it without
 * error suffixes) into an instruction of the default root at gen, by
 * parsing it against the spec's display templates; every candidate is
 * encoded and disassembled again, and only one that prints exactly the
 * text is accepted.  Returns how many distinct encodings print the text:
 * 0 (err says why), 1 (w holds it), or 2 (ambiguous; w holds the first
 * found, and err says so). */
size_t codec_assemble_one(const codec *c, const char *text, uint32_t gen, uint64_t *w,
                          char *err, size_t errlen);

/* ---------------------------------------------------------- disassembly */

typedef enum codec_no_match_style {
	CODEC_NO_MATCH_MESA,  /* "no match: <hex, high word first>" (isa_disasm's default) */
	CODEC_NO_MATCH_IR3,   /* "raw 0x%X%X" (ir3's test callback print_raw) */
	CODEC_NO_MATCH_AFUC,  /* "[%08x]" */
} codec_no_match_style;

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

#ifdef __cplusplus
}
#endif

#endif
