/*
 * spec.h - the whole API of src/spec: load an isaspec XML description
 * (with its imports), resolve it into an immutable, checked model, and
 * lint it.  Everything downstream (prover, codec, fuzzers, tests) reads
 * the model through this header only.
 *
 * Ownership: spec_load() returns a spec_model that owns every string,
 * array and expression it points to; spec_model_free() releases all of
 * it.  Nothing here keeps global state: each model and each diagnostic
 * list is independent, so several can live in one process.
 *
 * Bit numbering follows ../shared/ISASPEC.md section 1: bit i of an
 * instruction is bit (i % 64) of spec_bits word (i / 64), that is, the
 * little-endian 32-bit words of memory paired into 64-bit words.
 */
#ifndef ISACHECK_SPEC_H
#define ISACHECK_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- limits */

/* Resource limits; each is enforced with a diagnostic, never a crash. */
#define SPEC_MAX_FILE_BYTES   (16u << 20) /* one XML file */
#define SPEC_MAX_TOTAL_BYTES  (64u << 20) /* all files of one model together */
#define SPEC_MAX_DEPTH        64u         /* element nesting */
#define SPEC_MAX_IMPORTS      256u        /* files per model, top file included */
#define SPEC_MAX_BITS         4096u       /* size of a root bitset */
#define SPEC_MAX_ELEMENTS     1000000u    /* elements per model */
#define SPEC_MAX_ATTRIBUTES   1024u       /* attributes of one element */
#define SPEC_MAX_EXPR_DEPTH   64u         /* evaluations nested in evaluations */
#define SPEC_MAX_AST_DEPTH    256u        /* depth of one parsed expression tree */
#define SPEC_MAX_FIELD_BITS   64u         /* a field value (non-bitset types) */
#define SPEC_MAX_CHAIN        256u        /* bitsets from a leaf to its root, both counted */
#define SPEC_MAX_ALIGN        4096u       /* the column of a display's {X:align=N} */
#define SPEC_MAX_DISPLAY_BYTES 65536u     /* one display, templates spliced */
#define SPEC_MAX_DISPLAY_TOTAL (64u << 20) /* all displays of a model, spliced */
#define SPEC_MAX_MODEL_BYTES  ((size_t)2 << 30) /* memory of one model (its arena) */
/* The first five are defaults: spec_load_options.max_bytes raises the
 * XML one model may read up to SPEC_MAX_SPEC_BYTES (libxml2 takes a
 * file's length as an int), and the element, display and memory budgets
 * grow with it (spec_limits_for). */
#define SPEC_MAX_SPEC_BYTES   ((size_t)1 << 30)

/* The budgets one load works to. */
typedef struct spec_limits {
	size_t file_bytes, total_bytes; /* XML: one file, all files together */
	size_t elements;                /* elements, all files together */
	size_t display_bytes;           /* all displays, templates spliced */
	size_t model_bytes;             /* the model's memory */
} spec_limits;
/* The budgets for max_bytes of XML (0: the defaults above): one file
 * and all files together may then be that large, and past the default
 * total the element, display and memory budgets grow by the same factor
 * (rounded up), so that time and memory stay in proportion to what was
 * allowed in.  Above SPEC_MAX_SPEC_BYTES it is taken as that. */
spec_limits spec_limits_for(size_t max_bytes);
/* Reads a size for max_bytes: digits with an optional K, M or G (powers
 * of 1024); false unless it is at least 1 and at most SPEC_MAX_SPEC_BYTES. */
bool spec_parse_size(const char *s, size_t *out);

/* ------------------------------------------------------ growable arrays */

/* Room for need elements of size bytes in array, a malloc'd array (or
 * NULL) whose capacity is *cap.  Returns array itself when it is large
 * enough; otherwise array reallocated to the capacity doubled (first when
 * *cap is 0) until need fits, with *cap updated.  NULL only when memory
 * runs out or the size overflows (so a NULL array always gets room for
 * first elements, even when need is 0); array is then untouched and
 * still the caller's.  The modules' small lists grow through this. */
void *spec_grow(void *array, size_t need, size_t *cap, size_t size, size_t first);

/* ------------------------------------------------------- arena blocks */

/* The blocks the arenas (the model's, the codec's) carve allocations
 * from.  The size of the next block for an arena that holds `held` bytes
 * in blocks and needs `need` more at once: at least need; the first 64
 * KiB, the second SPEC_BLOCK_HUGE, then as large as all it holds (8 MiB
 * at most), so that a small model stays small and a big one takes few
 * blocks, faulted in by huge pages where the kernel offers them.  Sizes
 * of SPEC_BLOCK_HUGE and more are rounded up to a multiple of it.  0
 * when need is too large to round. */
#define SPEC_BLOCK_HUGE ((size_t)2 << 20)
size_t spec_block_size(size_t need, size_t held);
/* A block of size bytes (NULL when memory runs out), given back with
 * spec_block_free and the same size.  Any size will do; those
 * spec_block_size gives waste nothing.  *zeroed (when zeroed is not
 * NULL) tells whether its bytes are zero already (fresh from the
 * kernel); otherwise they are undefined and the caller clears what it
 * uses: clearing a whole block up front touches pages no one uses. */
void *spec_block_alloc(size_t size, bool *zeroed);
void spec_block_free(void *block, size_t size);

/* ----------------------------------------------------------- locations */

typedef struct spec_loc {
	const char *file; /* path as given (top file) or as resolved (imports) */
	unsigned line;    /* 1-based; 0 when unknown */
	unsigned col;     /* 1-based byte column; 0 when unknown */
} spec_loc;

/* ---------------------------------------------------------- diagnostics */

typedef enum spec_severity {
	SPEC_WARNING = 1, /* the model is usable; Mesa would accept or ignore it */
	SPEC_ERROR = 2,   /* the model is usable, but the spec is wrong */
	SPEC_FATAL = 3,   /* the input could not be read into a model at all */
} spec_severity;

typedef struct spec_diag {
	spec_severity severity;
	const char *rule;    /* stable rule id, e.g. "undefined-bits" */
	spec_loc loc;        /* loc.file is the diagnostic's own copy */
	char *message;       /* one line, no trailing newline */
} spec_diag;

typedef struct spec_diags {
	spec_diag *items;
	size_t count, cap;
} spec_diags;

/* Opens a file for reading only when it is a regular file: a FIFO, a
 * device or a directory is refused by fstat before any read (and a FIFO
 * without waiting for a writer).  NULL with the reason in why (errno in
 * *err, 0 when the file is not regular). */
FILE *spec_fopen_regular(const char *path, const char *mode, char *why, size_t whylen,
                         int *err);
/* The same as a file descriptor open for reading (-1 on failure), with
 * the file's fstat in *st: for a caller that reads the file whole and
 * needs no stdio buffer. */
struct stat;
int spec_open_regular(const char *path, struct stat *st, char *why, size_t whylen, int *err);

/* A printf into fresh memory (free it); NULL when memory runs out. */
char *spec_strdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends a diagnostic; the message is formatted like printf.  Returns
 * false only when memory runs out (the diagnostic is then dropped). */
bool spec_diag_add(spec_diags *d, spec_severity sev, const char *rule,
                   spec_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void spec_diags_free(spec_diags *d);
/* Stable order: by file, line, column, then rule. */
void spec_diags_sort(spec_diags *d);
const char *spec_severity_name(spec_severity s);

/* One rule the loader or linter can report. */
typedef struct spec_rule {
	const char *id;
	spec_severity severity;
	const char *summary;
} spec_rule;
/* The table of every rule, terminated by an entry with id == NULL. */
const spec_rule *spec_rules(void);
const spec_rule *spec_rule_find(const char *id);
/* Whether a finding of rule id means the model's encoding space differs
 * from the file's: the loader dropped or neutralised something that
 * decides which words a leaf matches (a pattern, a <gen>, a size, an
 * extends, a redefinition).  Proofs of such a model are not proofs of
 * the file, so `prove` shows these findings too. */
bool spec_rule_changes_matching(const char *id);

/* ----------------------------------------------------------- bit masks */

/* A bit vector as wide as its root: nwords = (size + 63) / 64 words. */
typedef struct spec_bits {
	const uint64_t *w;
	unsigned nwords;
} spec_bits;

static inline bool spec_bit(spec_bits b, unsigned i)
{
	return (i / 64u) < b.nwords && ((b.w[i / 64u] >> (i % 64u)) & 1u);
}

/* ---------------------------------------------------------- expressions */

typedef struct spec_expr spec_expr; /* opaque parsed expression */

/* How an evaluation looks up {FIELD} references and ISA_GPU_ID(). */
typedef struct spec_eval_env {
	/* Returns true and sets *value when the name resolves; false when it
	 * names nothing (the evaluation then fails with "unknown field").  A
	 * lookup may itself evaluate expressions: it passes depth + 1 on. */
	bool (*lookup)(void *ctx, const char *name, unsigned depth,
	               int64_t *value, char *err, size_t errlen);
	void *ctx;
	int64_t gpu_id;
	unsigned depth; /* nesting of evaluations so far; over SPEC_MAX_EXPR_DEPTH fails */
} spec_eval_env;

/* Parses C-subset expression text (see ../shared/ISASPEC.md section 2).
 * loc is where the text starts; errors are reported there with the
 * column inside the expression.  Returns NULL and adds an error
 * (rule "expr-syntax") on failure. */
spec_expr *spec_expr_parse(const char *text, spec_loc loc, spec_diags *diags);
void spec_expr_free(spec_expr *e);

/* Evaluates with int64 wrap-around semantics.  Division or modulo by
 * zero, INT64_MIN / -1, an unknown field, a shift count outside 0..63
 * and too deep a nesting are errors: returns false and writes a one-line
 * message into err (which always holds a string afterwards). */
bool spec_expr_eval(const spec_expr *e, const spec_eval_env *env,
                    int64_t *result, char *err, size_t errlen);

/* The tree of an expression, for symbolic evaluation (src/check puts
 * expressions to Z3 this way): operators as the C subset has them. */
typedef enum spec_expr_op {
	SPEC_OP_NUM,    /* num */
	SPEC_OP_FIELD,  /* name: a {FIELD} reference */
	SPEC_OP_GPU_ID, /* ISA_GPU_ID() */
	SPEC_OP_NOT, SPEC_OP_BITNOT, SPEC_OP_NEG, SPEC_OP_POS,
	SPEC_OP_MUL, SPEC_OP_DIV, SPEC_OP_MOD,
	SPEC_OP_ADD, SPEC_OP_SUB,
	SPEC_OP_SHL, SPEC_OP_SHR,
	SPEC_OP_LT, SPEC_OP_GT, SPEC_OP_LE, SPEC_OP_GE,
	SPEC_OP_EQ, SPEC_OP_NE,
	SPEC_OP_BITAND, SPEC_OP_BITXOR, SPEC_OP_BITOR,
	SPEC_OP_AND, SPEC_OP_OR,
	SPEC_OP_COND,   /* kids[0] ? kids[1] : kids[2] */
} spec_expr_op;

/* Builds one node from its already built kids (unused ones NULL); NULL
 * means "cannot", which ends the fold. */
typedef void *(*spec_expr_build)(void *ctx, spec_expr_op op, int64_t num, const char *name,
                                 void *const kids[3]);
/* Folds the tree bottom-up through build; returns the root's result, or
 * NULL when a build returned NULL. */
void *spec_expr_fold(const spec_expr *e, spec_expr_build build, void *ctx);

/* The distinct {FIELD} names the expression references, in order of
 * first appearance; valid as long as the expression lives. */
size_t spec_expr_ref_count(const spec_expr *e);
const char *spec_expr_ref(const spec_expr *e, size_t i);
/* Whether the expression calls ISA_GPU_ID(). */
bool spec_expr_uses_gpu_id(const spec_expr *e);
/* The source text as written (comments included). */
const char *spec_expr_text(const spec_expr *e);
/* Where the text starts, as given to spec_expr_parse (loc.file must
 * outlive the expression; in a model it does): evaluation errors are
 * reported there. */
spec_loc spec_expr_loc(const spec_expr *e);

/* ---------------------------------------------------------------- model */

typedef struct spec_bitset spec_bitset;
typedef struct spec_enum spec_enum;

typedef enum spec_type_kind {
	SPEC_TYPE_UINT,
	SPEC_TYPE_INT,
	SPEC_TYPE_HEX,
	SPEC_TYPE_BOOL,
	SPEC_TYPE_BOOL_INV,
	SPEC_TYPE_FLOAT,
	SPEC_TYPE_OFFSET,
	SPEC_TYPE_UOFFSET,
	SPEC_TYPE_BRANCH,
	SPEC_TYPE_ABSBRANCH,
	SPEC_TYPE_CUSTOM,
	SPEC_TYPE_ENUM,    /* spec_field.enm */
	SPEC_TYPE_BITSET,  /* spec_field.bitset: a root, decoded recursively */
	SPEC_TYPE_UNKNOWN, /* a wrong type (reported): opaque bits, possibly over 64 */
} spec_type_kind;

typedef enum spec_field_kind {
	SPEC_FIELD,   /* <field>: a named bit range */
	SPEC_DERIVED, /* <derived>: computed by expr, occupies no bits */
	SPEC_ASSERT,  /* <assert>: bits expected to equal assert_bits */
} spec_field_kind;

typedef struct spec_param {
	const char *name; /* name in the enclosing scope */
	const char *as;   /* name inside the sub-bitset (defaults to name) */
	spec_loc loc;
} spec_param;

typedef struct spec_field {
	spec_field_kind kind;
	const char *name;     /* assert: "<bitset>#assertN" as Mesa names it */
	spec_loc loc;
	unsigned low, high;   /* inclusive bit range; derived: 0 .. width-1 */
	bool has_width;       /* derived: whether width= was given */
	spec_type_kind type;
	const char *type_name;    /* as written; NULL for asserts */
	const spec_enum *enm;     /* SPEC_TYPE_ENUM */
	const spec_bitset *bitset;/* SPEC_TYPE_BITSET: the root */
	const char *display;      /* display= attribute, or NULL */
	bool call;                /* call="true" */
	const spec_param *params;
	size_t nparams;
	const spec_expr *expr;    /* derived */
	const char *expr_name;    /* derived with expr="NAME" */
	spec_bits assert_value;   /* assert: value bits at their positions */
} spec_field;

typedef struct spec_case {
	const spec_expr *expr;    /* NULL for the default case */
	const char *expr_name;    /* override expr="NAME", else NULL */
	spec_loc loc;
	const spec_field *fields; /* <field>, <derived>, <assert>, in document order */
	size_t nfields;
	const char *display;      /* NULL when the case has no <display> */
	spec_loc display_loc;
	spec_bits field_mask;     /* bits of its fields and asserts */
} spec_case;

typedef struct spec_meta {
	const char *key, *value;
} spec_meta;

typedef struct spec_encode_map {
	const char *name, *expr;
	bool force;
	spec_loc loc;
} spec_encode_map;

/* One <pattern> as written (default case): bits low..high, text MSB
 * first of '0', '1', 'x' (a malformed text is kept as all 'x'). */
typedef struct spec_pattern {
	unsigned low, high;
	const char *bits;
	spec_loc loc;
} spec_pattern;

typedef struct spec_gen {
	uint32_t min, max; /* inclusive */
} spec_gen;

struct spec_bitset {
	const char *name;
	const char *displayname;     /* NULL when absent */
	spec_loc loc;
	const spec_bitset *parent;   /* NULL for a root */
	const spec_bitset *root;     /* itself for a root */
	unsigned size;               /* the root's size in bits */
	unsigned index;              /* position in spec_model.bitsets */

	spec_gen gen_own;            /* as written (defaults 0 .. UINT32_MAX) */
	spec_gen gen;                /* effective: intersected with ancestors */
	bool has_gen;

	const spec_pattern *patterns; /* own <pattern>s, document order */
	size_t npatterns;
	/* This bitset's own <pattern> bits, then merged with every ancestor. */
	spec_bits own_match, own_mask, own_dontcare;
	spec_bits match, mask, dontcare;
	spec_bits field_mask;        /* default-case fields and asserts, merged */

	const spec_case *cases;      /* overrides in document order, default last */
	size_t ncases;

	const spec_bitset *const *children;
	size_t nchildren;

	const spec_meta *meta;       /* own <meta> attributes */
	size_t nmeta;
	bool has_encode;             /* an <encode> (Mesa generates an encoder for a root
	                                that has one) */
	const char *encode_type, *encode_case_prefix;
	const spec_encode_map *maps;
	size_t nmaps;
	bool has_decode;
	const char *doc;             /* first <doc> text, trimmed, or NULL */
};

typedef struct spec_enum_value {
	int64_t val;
	const char *val_text;
	const char *display;
	const char *name;            /* NULL when absent */
	spec_loc loc;
} spec_enum_value;

struct spec_enum {
	const char *name;
	spec_loc loc;
	const spec_enum_value *values;
	size_t nvalues;
};

typedef struct spec_named_expr {
	const char *name;       /* "anon_N" for an inline <expr> */
	bool anonymous;         /* an <expr> inside <override> or <derived> */
	spec_loc loc;
	const spec_expr *expr;
} spec_named_expr;

typedef struct spec_template {
	const char *name;
	spec_loc loc;
	const char *text;
} spec_template;

typedef struct spec_root {
	const spec_bitset *bitset;
	const spec_bitset *const *leaves; /* in document order */
	size_t nleaves;
} spec_root;

typedef struct spec_model {
	const char *path;                  /* the top-level file */
	const char *const *files;          /* every file read, top first */
	size_t nfiles;
	const spec_bitset *const *bitsets; /* imported files' bitsets first, as Mesa reads them */
	size_t nbitsets;
	const spec_root *roots;
	size_t nroots;
	const spec_enum *enums;
	size_t nenums;
	const spec_named_expr *exprs;
	size_t nexprs;
	const spec_template *templates;
	size_t ntemplates;
	unsigned bitsize;                  /* largest root size */
	struct spec_model_private *priv;
} spec_model;

/* Loads path and its imports, resolves and lints.  Every finding goes to
 * diags (never stopping at the first).  Returns NULL only when the input
 * is unusable (a SPEC_FATAL diagnostic says why); otherwise a model in
 * which erroneous parts are left out or neutralised, as the diagnostics
 * describe. */
spec_model *spec_load(const char *path, spec_diags *diags);

/* How a spec may be loaded.  Imports are read from the top-level file's
 * folder and below only (symlinks resolved; rule import-outside), and
 * from the folders named here. */
typedef struct spec_load_options {
	const char *const *import_dirs;
	size_t nimport_dirs;
	/* A folder of parsed files (NULL: none): a file whose bytes were
	 * parsed before is read from there instead of through the XML
	 * parser, and a file parsed now is saved there (docs/cache.md).
	 * The model is the same either way. */
	const char *cache_dir;
	/* Skips the lint that follows building (spec_lint_model's findings
	 * only: the model is the same), for callers that never show them. */
	bool skip_lint;
	/* The most XML the model may read, all files together (0: the
	 * default, SPEC_MAX_TOTAL_BYTES); the other budgets follow
	 * (spec_limits_for).  The CLI's --max-spec-size. */
	size_t max_bytes;
} spec_load_options;
/* Whether buf is a well-formed entry of a cache_dir (for any file):
 * every check of the reader but the match with a file's bytes. */
bool spec_cache_entry_valid(const void *buf, size_t n);
/* Rewrites the checksum of the entry in buf to match its contents (false
 * when it is too short to have one): how tests and the fuzz target put
 * altered entries past the checksum, to the structural checks. */
bool spec_cache_entry_seal(void *buf, size_t n);
spec_model *spec_load_with(const char *path, const spec_load_options *opt, spec_diags *diags);
/* Readies the XML library for loads on several threads at once: libxml2
 * sets itself up on its first use, which two threads must not do
 * together.  Call it once before starting them; it is harmless again. */
void spec_load_prepare(void);
/* The same from a buffer; imports are read relative to base_dir. */
spec_model *spec_load_buffer(const char *name, const char *data, size_t len,
                             const char *base_dir, spec_diags *diags);
void spec_model_free(spec_model *m);

/* Look-ups; NULL when there is none.  A name shared by per-generation
 * variants returns the first; use gen to pick (UINT32_MAX: any). */
const spec_bitset *spec_find_bitset(const spec_model *m, const char *name);
const spec_bitset *spec_find_bitset_gen(const spec_model *m, const char *name,
                                        uint32_t gen);
const spec_root *spec_find_root(const spec_model *m, const char *name);
/* Whether some field of m has bitset b as its type: a root's leaves are
 * then decoded inside their parents (with the params those pass), not
 * only as instructions of their own.  A scan of every field. */
bool spec_is_field_type(const spec_model *m, const spec_bitset *b);
const spec_enum *spec_find_enum(const spec_model *m, const char *name);
const spec_named_expr *spec_find_expr(const spec_model *m, const char *name);
const spec_template *spec_find_template(const spec_model *m, const char *name);
const spec_enum_value *spec_enum_lookup(const spec_enum *e, int64_t val);

static inline bool spec_is_leaf(const spec_bitset *b) { return b->nchildren == 0; }
static inline bool spec_is_root(const spec_bitset *b) { return b->parent == NULL; }
/* A leaf is an instruction unless its name starts with '#'. */
static inline bool spec_is_internal(const spec_bitset *b) { return b->name[0] == '#'; }
/* The displayed name: displayname when given, else name. */
static inline const char *spec_display_name(const spec_bitset *b)
{
	return b->displayname ? b->displayname : b->name;
}

/* Counts for reports and conformance tests. */
typedef struct spec_stats {
	size_t files, bitsets, roots, leaves, leaf_names, enums, exprs, templates;
} spec_stats;
spec_stats spec_model_stats(const spec_model *m);

/* ====================================================== program framing
 *
 * Our extension of the dialect (docs/framing.md): a top-level <program>
 * says how a whole program (a2xx's CF area and EXEC-addressed ALU/FETCH
 * slots, Midgard's tag-framed bundles) is cut into instructions of which
 * roots.  Mesa's generator reads only the elements it knows, so it never
 * sees any of this.  Positions and sizes are in bits from the start of the
 * program (bit i = bit i%32 of little-endian 32-bit word i/32).
 */

#define SPEC_MAX_FRAME_DEPTH 16u /* <group>/<repeat> nesting inside a <program> */

typedef enum spec_step_kind {
	SPEC_STEP_PART,   /* <part>: one instruction of a root, decoded */
	SPEC_STEP_DATA,   /* <data>: raw bits, not decoded (Midgard's constants) */
	SPEC_STEP_READ,   /* <read>: bits at the cursor into a variable; consumes nothing */
	SPEC_STEP_LET,    /* <let>: a variable from an expression */
	SPEC_STEP_ALIGN,  /* <align>: padding up to a multiple of bits */
	SPEC_STEP_REJECT, /* <reject>: the program is malformed when `when` holds */
	SPEC_STEP_TEXT,   /* <text>: literal disassembly text */
	SPEC_STEP_GROUP,  /* <group>: steps; with bits=, a region of that size */
	SPEC_STEP_REPEAT, /* <repeat>: steps, count times or to the end */
} spec_step_kind;

/* <export> inside <part>: a variable for the steps after the part. */
typedef struct spec_export {
	const char *field;       /* field= : the value of this field of the decoding */
	const char *const *is;   /* is= : 1 when the leaf or an ancestor has one of these names */
	size_t nis;
	const char *as;          /* the variable's name (default: field) */
	spec_loc loc;
} spec_export;

/* <display> inside <part>/<data>: the first whose `when` holds is printed. */
typedef struct spec_frame_display {
	const spec_expr *when;   /* NULL: always */
	const char *text;        /* escapes (\t \n \\) resolved; {_} is the instruction */
	spec_loc loc;
} spec_frame_display;

/* <suffix> inside <part>/<data>: text appended to one line of the item's
 * printed text when `when` holds (a2xx's export comments, which depend
 * on the shader stage a program variant sets, not on the words). */
typedef struct spec_frame_suffix {
	unsigned line;           /* 1: the first line of the item's text */
	const spec_expr *when;   /* NULL: always; an unset variable: not printed */
	const char *text;        /* escapes resolved, as a display's; no {_} */
	spec_loc loc;
} spec_frame_suffix;

typedef struct spec_step spec_step;
struct spec_step {
	spec_step_kind kind;
	spec_loc loc;
	const char *name;            /* part/data: item name; read/let: variable; repeat: index */
	const spec_expr *when;       /* NULL: always */
	const spec_root *root;       /* part */
	unsigned bits;               /* part/data: width (part: default the root's size);
	                                align: the multiple */
	const spec_expr *at;         /* part/data: absolute bit position; NULL: the cursor */
	unsigned low, high;          /* read: bits relative to the cursor */
	const spec_expr *expr;       /* let: value; group: region size in bits; repeat: count */
	const spec_expr *count_at;   /* repeat: the count is fixed by the first iteration
	                                after which this holds */
	bool to_end;                 /* repeat: until the region (or input) ends */
	bool zero;                   /* align/group: padding must be zero bits */
	bool item;                   /* let: also record the value as an item */
	const char *text;            /* text: the text; reject: the message */
	const spec_export *exports;
	size_t nexports;
	const spec_frame_display *displays;
	size_t ndisplays;
	const spec_frame_suffix *suffixes;
	size_t nsuffixes;
	const spec_step *steps;      /* group/repeat body */
	size_t nsteps;
	const char *unexplained;     /* data: unexplained="REASON", why its bits are not
	                                understood (triage reports every such item);
	                                NULL: the data is understood */
};

typedef struct spec_program {
	const char *name;
	spec_loc loc;
	/* extends="BASE": a variant of an earlier program, whose steps are
	 * BASE's with each top-level <let> this program sets again replaced
	 * (e.g. a2xx's "vs" and "fs": the stage for the export comments) */
	const char *extends;
	bool cover;                  /* every input bit must lie in exactly one item */
	const char *doc;
	const spec_step *steps;
	size_t nsteps;
} spec_program;

/* The <program>s of a model, in document order. */
size_t spec_program_count(const spec_model *m);
const spec_program *spec_program_at(const spec_model *m, size_t i);
/* NULL name: the only program that extends no other (NULL when there
 * are none or several). */
const spec_program *spec_find_program(const spec_model *m, const char *name);

/* One {NAME} or {NAME:format} of a <display>, <text> or <reject> text,
 * open pointing at its '{' (the loader checks these, the codec prints
 * them: one parser keeps the two agreed).  Copies what stands between
 * '{' and '}' into name (at most cap - 1 bytes, cap > 0) and cuts it at
 * its first ':': *format is then what followed the ':' (pointing into
 * name), or NULL when there is no ':'.  Returns the '}', or NULL when
 * there is none (name and *format are then untouched). */
const char *spec_frame_ref(const char *open, char *name, size_t cap, const char **format);

#ifdef __cplusplus
}
#endif

#endif
