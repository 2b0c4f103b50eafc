/*
 * internal.h - private to src/codec: the pieces codec.c puts together.
 */
#ifndef ISACHECK_CODEC_INTERNAL_H
#define ISACHECK_CODEC_INTERNAL_H

#include "codec.h"

#include <string.h>

/* x86's pext, written out so that no compiler flag is needed: used only
 * where codec_cpu_pext says the running CPU has it, fast. */
#if defined(__x86_64__) && defined(__GNUC__)
#define CODEC_HAVE_PEXT 1
static inline uint64_t codec_pext_u64(uint64_t v, uint64_t mask)
{
	uint64_t r;
	__asm__("pextq %2, %1, %0" : "=r"(r) : "r"(v), "rm"(mask));
	return r;
}
/* ... and its inverse, pdep (the same CPUs have both, as fast) */
static inline uint64_t codec_pdep_u64(uint64_t v, uint64_t mask)
{
	uint64_t r;
	__asm__("pdepq %2, %1, %0" : "=r"(r) : "r"(v), "rm"(mask));
	return r;
}
#else
#define CODEC_HAVE_PEXT 0
static inline uint64_t codec_pext_u64(uint64_t v, uint64_t mask)
{
	(void)v;
	(void)mask;
	return 0; /* never called: codec_cpu_pext is false */
}
static inline uint64_t codec_pdep_u64(uint64_t v, uint64_t mask)
{
	(void)v;
	(void)mask;
	return 0; /* never called: codec_cpu_pext is false */
}
#endif

/* Whether the running CPU has a fast pext (Zen 1 and 2 have it in
 * microcode: slower than shifts and masks). */
static inline bool codec_cpu_pext(void)
{
#if CODEC_HAVE_PEXT
	return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
	       !__builtin_cpu_is("znver2");
#else
	return false;
#endif
}

/* ---------------------------------------------------- classify.c */

/* The decision structure of one root: built once, then every look-up is
 * a gather of a few distinguishing bits, a table index and a mask
 * compare per candidate. */
typedef struct classifier classifier;

classifier *classifier_build(const spec_root *root);  /* NULL: out of memory */
void classifier_free(classifier *c);
/* Whether look-ups gather their index bits by pext (made so where the
 * CPU has it fast and the bits are in two words at most); the tests
 * turn it off to run the other way.  Returns the setting now. */
bool classifier_set_pext(classifier *c, bool on);
size_t classifier_run(const classifier *c, const uint64_t *w, uint32_t gen,
                      const spec_bitset **out, size_t max);
/* The same, with the first candidate's bitset index in *index0 (the
 * leaf's index when exactly one matched). */
size_t classifier_run_index(const classifier *c, const uint64_t *w, uint32_t gen,
                            const spec_bitset **out, size_t max, uint32_t *index0);
/* The plain scan (the reference). */
size_t classify_linear(const spec_root *root, const uint64_t *w, uint32_t gen,
                       const spec_bitset **out, size_t max);

/* ------------------------------------------ the compiled model (codec.c) */

/* Limits of one decoding; each is enforced with an issue, never a crash. */
#define CODEC_MAX_SCOPES     16u   /* nested bitset fields, the instruction included */
#define CODEC_MAX_EXPR_STACK 64u   /* expressions being evaluated at once */
#define CODEC_MAX_WORDS      (SPEC_MAX_BITS / 64u)
#define CODEC_CACHE_SLOTS    2048u /* cached expression values of all open scopes */
#define CODEC_MAX_ERRORS     4u    /* errors Mesa keeps per instruction */
#define CODEC_ERR_LEN        2560u /* one error text: two 4096-bit values fit */
#define CODEC_MAX_ALIGN      SPEC_MAX_ALIGN /* {X:align=N} pads at most this far */
#define CODEC_MAX_PNAMES     16u   /* bound params per scope (variant 1, then display names) */
#define CODEC_LIST_STEPS     1024u /* value-list steps a scope tracks in a bitmap */

/* Bytes readable past the end of every enum display in cenum.dense and
 * of a memo's pool: fast.c copies short texts as whole blocks. */
#define CODEC_TEXT_PAD 32u
#define CODEC_DEC_N    1000u

typedef struct cenum {
	const spec_enum *e;
	const char **disp;    /* per value: the display Mesa prints for it */
	const char *dense[256]; /* values 0..255: display (CODEC_TEXT_PAD readable past it), NULL when absent */
	uint32_t dense_len[256];
	bool nl;              /* some display holds a newline */
} cenum;

typedef struct cparam {
	uint32_t name, as;    /* name ids */
} cparam;

/* One field, derived field or assert of the model, compiled. */
typedef struct cfield {
	const spec_field *f;
	uint32_t name;        /* name id */
	unsigned width;       /* 1 + high - low */
	spec_type_kind type;
	const cenum *en;      /* SPEC_TYPE_ENUM */
	const cparam *params; /* SPEC_TYPE_BITSET */
	size_t nparams;
	const spec_root *root;/* SPEC_TYPE_BITSET: the root its bits decode against */
	size_t root_index;
	uint64_t *aval;       /* assert: the expected value, shifted down to bit 0 */
	size_t disp_len;      /* bool: strlen(display) */
	bool disp_nl;         /* ... and whether it holds a newline */
} cfield;

/* One case visited while a name is looked up from a leaf (find_field). */
typedef struct cstep {
	const cfield *field;      /* the case's field of that name; NULL: none */
	const spec_bitset *owner; /* the bitset the case belongs to */
	int cex;                  /* override: local expression index; -1: default case */
	int fex;                  /* derived field: local expression index; else -1 */
	const int *plk;           /* bitset field: its params' look-ups in this leaf */
} cstep;

typedef struct clookup {
	uint32_t name;            /* name id; the table is sorted by it */
	uint32_t step0, nsteps;
	/* Per variant (see cleaf.pnames): */
	int direct[2];            /* the step that always wins (see "pure"); -1: walk */
	bool param[2];            /* nothing here defines it, nothing to evaluate: params */
	bool nofield;             /* no step defines it: the walk only evaluates overrides */
} clookup;

/* One {FIELD} reference of an expression, in Mesa's (sorted) order. */
typedef struct cref {
	uint32_t name;
	int lk;                   /* index in the leaf's look-ups; -1: none */
	const char *text;         /* the name */
	const char *eref;         /* the parser's pointer for it (callback key), or NULL */
	/* Per variant: while its expression is evaluated, the step it always
	 * resolves to (-1: walk; -2: variant 1, a bound param, pslot) ... */
	int sstep[2];
	bool param[2];            /* ... or straight to the params */
	int pslot;                /* variant 1: its index in cleaf.pnames */
	/* Per variant, where its expression has a table: the bits it takes
	 * of the table's index (a field's width; a bound param's value is
	 * looked up when below 1 << CODEC_TAB_PARAM_BITS), and a field's
	 * lowest bit (so that a look-up reads nothing but the references) */
	uint8_t tbits[2];
	uint16_t tlow[2];
} cref;

/* The bits a bound param takes of a table's index: a2xx's operands get
 * their swizzle (8 bits) and negation through params, and their derived
 * channels, each a small program, are read on every decoding. */
#define CODEC_TAB_PARAM_BITS 8u
/* The bits of a table's index, at most */
#define CODEC_TAB_BITS 10u

/* An expression compiled for a small stack machine (codec.c), checked
 * against spec_expr_eval when compiled; run by decode.c, which falls
 * back to spec_expr_eval whenever the program reports an error (so the
 * message is the reference's). */
enum {
	VI_CONST, VI_REF, VI_GPU, VI_NOT, VI_BITNOT, VI_NEG,
	VI_MUL, VI_DIV, VI_MOD, VI_ADD, VI_SUB, VI_SHL, VI_SHR,
	VI_LT, VI_GT, VI_LE, VI_GE, VI_EQ, VI_NE, VI_BITAND, VI_BITXOR, VI_BITOR,
	VI_BOOL,   /* top = top != 0 */
	VI_SCAND,  /* top == 0: keep 0, jump to arg; else pop */
	VI_SCOR,   /* top != 0: top = 1, jump to arg; else pop */
	VI_JZ,     /* pop; zero: jump to arg */
	VI_JMP,
	VI_END,
};
#define CODEC_VM_STACK 32

typedef struct cins {
	int op;
	int32_t arg;
	int64_t imm;
} cins;

/* printf's "%f" of d into buf (32 bytes at least), exactly as glibc
 * prints it (the exact value rounded to six decimals, ties to even),
 * without printf: the values of floats and halves below 2^64.  Returns
 * the length, or -1 for the others (NaN, infinities, larger values),
 * which printf must print. */
int codec_format_f6(double d, char *buf);

/* A 64-bit two's complement value of u (the machine's wrapping). */
static inline int64_t codec_vm_wrap(uint64_t u)
{
	return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* a op b for a binary operation (VI_MUL .. VI_BITOR) as the machine
 * computes it; false where it fails (division by zero or INT64_MIN by
 * -1, a shift out of 0..63, not a binary operation).  The one
 * definition of their meaning: codec_vm_run and the program walk's
 * shapes of expressions (program.c) both compute by it. */
static inline bool codec_vm_binop(int op, int64_t a, int64_t b, int64_t *out)
{
	switch (op) {
	case VI_MUL: *out = codec_vm_wrap((uint64_t)a * (uint64_t)b); return true;
	case VI_ADD: *out = codec_vm_wrap((uint64_t)a + (uint64_t)b); return true;
	case VI_SUB: *out = codec_vm_wrap((uint64_t)a - (uint64_t)b); return true;
	case VI_DIV:
	case VI_MOD:
		if (b == 0 || (a == INT64_MIN && b == -1))
			return false;
		*out = op == VI_DIV ? a / b : a % b;
		return true;
	case VI_SHL:
	case VI_SHR:
		if (b < 0 || b > 63)
			return false;
		*out = op == VI_SHL ? codec_vm_wrap((uint64_t)a << b) : (a < 0 ? ~(~a >> b) : a >> b);
		return true;
	case VI_LT: *out = a < b; return true;
	case VI_GT: *out = a > b; return true;
	case VI_LE: *out = a <= b; return true;
	case VI_GE: *out = a >= b; return true;
	case VI_EQ: *out = a == b; return true;
	case VI_NE: *out = a != b; return true;
	case VI_BITAND: *out = (int64_t)((uint64_t)a & (uint64_t)b); return true;
	case VI_BITXOR: *out = codec_vm_wrap((uint64_t)a ^ (uint64_t)b); return true;
	case VI_BITOR: *out = codec_vm_wrap((uint64_t)a | (uint64_t)b); return true;
	default: return false;
	}
}

/* Runs a program over the values of the expression's references (in
 * cexpr order); false on an evaluation error. */
bool codec_vm_run(const cins *p, const int64_t *refs, int64_t gpu_id, int64_t *out);
/* e compiled for codec_vm_run, its references named names[0..n) in that
 * order, kept in c's arena; NULL where the compiler does not take it or
 * its results differ from spec_expr_eval's on the probe inputs (then
 * evaluate e with spec_expr_eval). */
const cins *codec_vm_compile(codec *c, const spec_expr *e, const char **names, size_t n);

typedef struct cexpr {
	const spec_expr *e;
	uint32_t ref0, nrefs;
	const cins *prog;         /* NULL: evaluate with spec_expr_eval */
	/* Pure: every reference resolves to one known field whatever the
	 * overrides, and evaluation cannot fail; so when (or whether) it is
	 * evaluated cannot be observed, and the references are read
	 * directly.  With a table: the value for each combination of the
	 * references' bits (cref.tbits), concatenated low ref first; a
	 * bound param's value past its bits is computed (cx_tab_index). */
	bool pure[2];             /* per variant */
	bool is_case;             /* an override's expression in this leaf */
	int case_bit;             /* is_case: its bit in a plan's truth vector (-1: past 64) */
	const uint64_t *tab[2];
} cexpr;

enum { COP_LIT, COP_NAME, COP_ALIGN, COP_FIELD };

/* One piece of a display template. */
typedef struct cop {
	int kind;
	int align;                /* pad to this column first (0: none) */
	const char *text;         /* LIT: the text; FIELD: the name as written */
	uint32_t len;
	uint32_t name;            /* FIELD: name id */
	int lk;                   /* FIELD: index in the leaf's look-ups; -1: none */
	int nl;                   /* LIT: length up to its last newline; -1: none */
} cop;

/* One case visited while the display is looked up (find_display). */
typedef struct cdstep {
	const spec_bitset *owner;
	const spec_case *kase;    /* the case it was made from */
	int cex;                  /* override: local expression index; -1: default */
	uint32_t assert0, nasserts;
	int op0;                  /* first op of its display; -1: the case has none */
	uint32_t nops;
} cdstep;

/* One field of the value list codec_decode produces, in order.  What
 * listing a value reads of its field (kind, bits, type, whether every
 * value of an enum is named) is copied here: reaching it through field
 * and the model's spec_field, two dependent loads a value, was the
 * largest cost of listing the values (docs/benchmarks.md). */
typedef struct cvstep {
	const cfield *field;
	const spec_field *f;      /* field->f */
	const spec_bitset *owner;
	const spec_case *kase;    /* the case of owner that defines it */
	int cex, fex;
	uint32_t case_id;         /* consecutive steps of one case share it */
	int prev_same;            /* the step before with the same name; -1: none */
	uint16_t low, high, width;/* f's bits; field->width (SPEC_MAX_BITS fits) */
	uint8_t type;             /* field->type */
	bool derived;             /* f is SPEC_DERIVED */
	bool check_enum;          /* an enum some value of whose width is not named */
} cvstep;

/* A leaf, compiled: everything a decoding in its scope needs. */
typedef struct cleaf {
	const spec_bitset *b;
	const char *name;         /* displayed name */
	size_t namelen;
	int namenl;               /* length up to its last newline; -1: none */
	const clookup *lk;
	size_t nlk;
	const cstep *steps;
	uint32_t none0, nnone;    /* steps for a name no case defines */
	const cexpr *ex;
	size_t nex;
	const cref *refs;
	const cdstep *ds;
	size_t nds;
	const cfield *const *asserts;
	const cop *ops;
	const cvstep *vs;
	size_t nvs;
	unsigned nov;             /* local expressions that are overrides' */
	bool none_param[2];       /* a name no case defines: nothing to evaluate, params */
	/* Two variants of the fast paths: 0 assumes nothing of the params;
	 * 1 assumes that each of pnames comes through a param of the field
	 * that opened the scope, from a look-up of the parent that always
	 * ends at one field whose value is fixed: cx_push checks that and
	 * reads the values into the scope (pval). */
	const uint32_t *pnames;
	unsigned npn;
	unsigned nbn;             /* pnames[npn..nbn): display names bound when they can be */
	unsigned nsb;             /* ... of which cx_push binds [0..nsb); the rest only pass
	                           * through to nested fields (fast.c binds them) */
	bool v1;                  /* variant 1 can be used at all */
	const struct cplans *plan[2]; /* per variant; NULL: interpret (plan.c) */
} cleaf;

/* The steps a look-up of lk walks (lk < 0: a name no case defines):
 * [*j0, *j0 + *n) of the leaf's steps. */
static inline void cx_lookup_steps(const cleaf *lf, int lk, uint32_t *j0, uint32_t *n)
{
	*j0 = lk < 0 ? lf->none0 : lf->lk[lk].step0;
	*n = lk < 0 ? lf->nnone : lf->lk[lk].nsteps;
}

/* ------------------------------------------ display plans (plan.c)
 *
 * When every override of a leaf is pure in a variant and their inputs
 * (own fields, bound params) are narrow, which cases hold is a table
 * look-up, and with it, everything Mesa's display walk would find: the
 * display, the asserts to check and the step (or param) each {NAME}
 * ends at.  A plan is that, per distinct truth vector of the overrides;
 * the interpretation in decode.c stays the reference and the fallback. */
enum {
	PO_LIT, PO_NAME, PO_ALIGN, PO_STEP, PO_PARAM, PO_SLOW,
	/* A plain field of this scope printed without alignment, its bits in
	 * one 64-bit word: printed straight from the bits (disasm.c). */
	PO_BOOL, PO_ENUM, PO_UINT, PO_HEX,
};

typedef struct cpop {
	uint8_t kind;
	uint8_t word, shift;      /* BOOL..HEX: where the bits are */
	int32_t arg;              /* STEP..HEX: step index; PARAM: pnames slot */
	uint64_t mask;            /* BOOL..HEX: the field's bits, shifted down */
	/* STEP of a bitset field with params: where each of its params
	 * resolves here (STEP, PARAM or SLOW), per cparam; else NULL. */
	const struct cpop *psrc;
} cpop;

struct fop;

typedef struct cplan {
	uint64_t truth;           /* bit case_bit: that override holds */
	int ds;                   /* the display's cdstep */
	bool asserts;             /* a case visited on the way has asserts */
	const cpop *ops;          /* per op of the display */
	/* The value-list steps (cleaf.vs) listed under this truth vector, in
	 * order: those whose case holds, each name by the first of them
	 * (list_values).  NULL: list the general way (a derived value that
	 * fails to evaluate would let a later step of its name be listed). */
	const uint16_t *vlist;
	uint32_t nvlist;
	/* The display compiled for printing straight through (fast.c);
	 * NULL: not compiled. */
	const struct fop *fops;
	uint32_t nfops;
} cplan;

#define CODEC_PLAN_INPUTS 8u
#define CODEC_PLAN_BITS   14u

#define CODEC_PLAN_GENS 8u      /* generation bounds a plan tells apart */
#define CODEC_PLAN_EVAL 6u      /* overrides of a leaf with evaluated plans, at most */

typedef struct cplan_in {
	int slot;                 /* >= 0: a bound param; -1: own bits; -2: the generation */
	unsigned low, width;
} cplan_in;

/* A key gathered by one bit extraction per word (x86's pext, fast.c):
 * the bits pm[0] of word pw[0] below the bits pm[1] of word pw[1]; n:
 * the words needed, 0 when the key's bits are not in key order. */
typedef struct codec_pext {
	uint8_t n, pw[2], pn0;    /* pn0: bits of pm[0] */
	uint64_t pm[2];
} codec_pext;

typedef struct cplans {
	unsigned nin;
	cplan_in in[CODEC_PLAN_INPUTS];
	const uint8_t *tab;       /* per input combination: plan index, 0xff none; NULL: plans[0] */
	/* The generation input: its class is how many of these it reaches
	 * (overrides compare the generation with constants only). */
	uint32_t gbound[CODEC_PLAN_GENS];
	unsigned ngb;
	const cplan *plans;
	unsigned nplans;
	/* Evaluated plans (no table: the overrides read too many bits):
	 * bit i of a combination is whether cases[i] holds, eidx its plan
	 * (0xff: none).  Only fast.c uses them; cx_scope_plan does not. */
	bool eval;
	unsigned ncase;
	const int *cases;
	uint8_t eidx[1u << CODEC_PLAN_EVAL];
	/* fast.c: when every input is the scope's own bits, in key order,
	 * the key by bit extraction */
	codec_pext px;
} cplans;

/* Appends sz bytes at p to a signature of n bytes with room for cap:
 * the new length (past cap nothing is written: the caller checks). */
size_t codec_sig_put(char *sig, size_t n, size_t cap, const void *p, size_t sz);
#define CODEC_SIG_PUT(sig, n, cap, val)                                      \
	do {                                                                     \
		__typeof__(val) codec_sig_v_ = (val);                                \
		(n) = codec_sig_put((sig), (n), (cap), &codec_sig_v_, sizeof codec_sig_v_); \
	} while (0)

/* Arena memory of the codec (zeroed; freed with it). */
void *codec_alloc(codec *c, size_t n);
/* A point of the arena, and giving back everything allocated after it
 * (fast.c builds its tables again, smaller, when they outgrow a cache). */
typedef struct codec_mark {
	struct codec_arena *block;
	size_t used;
} codec_mark;
codec_mark codec_arena_mark(const codec *c);
void codec_arena_release(codec *c, codec_mark m);
/* An open-addressed table of entries kept by their hashes (NULL p:
 * empty): the builder's shared arrays (codec.c) and the encoder's
 * templates and shapes (encode.c).  codec_htab_room makes room for one
 * more entry, doubling the slots and placing the entries again by their
 * hashes (false: out of memory, nothing changed); the caller probes from
 * h & (cap - 1) and fills the empty slot it stops at. */
typedef struct codec_hent {
	size_t h, n;
	const void *p;
} codec_hent;
typedef struct codec_htab {
	codec_hent *slot;
	size_t cap, n;
} codec_htab;
bool codec_htab_room(codec_htab *t);
/* The hashes the tables use: of n bytes of text (FNV-1a), of an address
 * (inline: a program's walk hashes an address for every name it uses). */
size_t codec_hash_str(const char *s, size_t n);
static inline size_t codec_hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

/* Builds every leaf's plans; false when memory ran out. */
bool codec_build_plans(codec *c);
/* Resolves the <program>s' names and compiles their texts into
 * c->programs (program.c); false when memory ran out. */
typedef struct codec_programs codec_programs;
bool codec_build_programs(codec *c);
void codec_programs_free(codec_programs *P);
/* Works out c->afuc_quiet (disasm.c); false when memory ran out. */
bool codec_build_afuc_quiet(codec *c);
/* Compiles every plan's display for printing straight through (fast.c),
 * once plans and memos are built; false when memory ran out. */
bool codec_build_fast(codec *c);

/* The fixed parts of one issue's text (issue.c): the text is its kind's
 * head (cx_itext_head), var (cx_itext_var), the value's hex digits as
 * cx_hex prints them, and suf; var and suf readable CODEC_ITEXT_PAD bytes
 * past their ends, and at least that many from their starts.  Keyed by
 * the kind and what the code raising it has: don't-care bits (the leaf,
 * NULL), a nested field that matches no leaf (the leaf's displayed name
 * as cleaf.name, the spec_field), a failed assert (the display's owner,
 * the cfield).  One cache line: var is in it when it fits (up to
 * CODEC_ITEXT_INLINE characters, 97% of ir3's), and an empty suf is a
 * text every entry shares, so raising the issue reads no other line but
 * a non-empty suf's. */
#define CODEC_ITEXT_PAD 32u
#define CODEC_ITEXT_INLINE 32u
typedef struct citext {
	const void *k1, *k2;
	const char *suf;
	uint32_t kind;
	uint16_t nvar, nsuf;
	union {
		char inl[CODEC_ITEXT_INLINE]; /* nvar <= CODEC_ITEXT_INLINE */
		const char *out;              /* any longer */
	} var;
} __attribute__((aligned(64))) citext;
_Static_assert(sizeof(citext) == 64, "an issue text's entry is one cache line");
static inline const char *cx_itext_var(const citext *it)
{
	return it->nvar <= CODEC_ITEXT_INLINE ? it->var.inl : it->var.out;
}
/* The text every issue of a kind with such entries starts with. */
#define CODEC_HEAD_DONTCARE "dontcare bits in "
#define CODEC_HEAD_NO_MATCH "no match: FIELD: '"
#define CODEC_HEAD_ASSERT   "WARNING: unexpected bits["
extern const char codec_itext_heads[3][64]; /* the three, padded (issue.c) */
/* Kind's head, CODEC_ITEXT_PAD bytes readable past its end; its length
 * in *n. */
static inline const char *cx_itext_head(uint32_t kind, size_t *n)
{
	switch (kind) {
	case CODEC_DONTCARE_SET:
		*n = sizeof CODEC_HEAD_DONTCARE - 1;
		return codec_itext_heads[0];
	case CODEC_NO_MATCH:
		*n = sizeof CODEC_HEAD_NO_MATCH - 1;
		return codec_itext_heads[1];
	default:
		*n = sizeof CODEC_HEAD_ASSERT - 1;
		return codec_itext_heads[2];
	}
}
/* The table of issue texts (before codec_build_fast: ops point at its
 * entries), and the don't-care entries by bitset index (after it, so
 * that the straight-through tables lie in memory as they did before
 * those entries existed: etnaviv's vectors, the most sensitive to where
 * their tables fall in the first-level cache, printed 2% slower). */
bool codec_build_itexts(codec *c);
bool codec_build_dontcare_itexts(codec *c);
/* The entry for the key, or NULL: format the text the general way. */
const citext *cx_itext(const codec *c, uint32_t kind, const void *k1, const void *k2);
/* The entry of don't-care bits of the bitset of index bi, found without
 * a hash (codec.dcit), or NULL. */
static inline const citext *cx_dontcare_itext(const codec *c, uint32_t bi);
/* The issue whose text is it's (cx_issue_itext, out.h), in the cases
 * other than the usual one: joined as the general way joins them. */
struct cx;
void cx_issue_itext_joined(struct cx *x, codec_issue_kind kind, const spec_bitset *leaf,
                           const spec_field *f, const citext *it, const uint64_t *v);

/* The text a small root's bits display as, for every value, when that
 * cannot depend on where it is displayed (no params reach out of it, no
 * generation, no branch, no alignment): codec.c renders them once. */
#define CODEC_MEMO_BITS 12u

typedef struct cmemo_ent {
	uint32_t text, len;        /* in pool */
	uint16_t err0, nerr;       /* in errs */
	bool noleaf;               /* no single leaf: decode it the long way */
	bool nl;                   /* the text holds a newline */
} cmemo_ent;

typedef struct cmemo_err {
	uint32_t text;             /* in pool, NUL-terminated */
} cmemo_err;

typedef struct cmemo {
	const cmemo_ent *ent;      /* 2^size entries */
	const cmemo_err *errs;
	const char *pool;
	unsigned depth, slots;     /* scopes and cache slots a rendering needs at most */
} cmemo;

/* A leaf's plan as the instruction (fast.c): its program, and what the
 * scope takes of the plan. */
typedef struct ftop_plan {
	const struct fop *fops;   /* NULL: give up */
	const cplan *pl;
	uint64_t truth;
	bool asserts;
} ftop_plan;

/* A bitset's entry as the instruction (codec.ftop): its don't-care bits
 * and, for a leaf printed straight through (fast.c), what display_fast
 * reads of the leaf, its variant and its plans, in one cache line, not
 * the several of spec_bitset, cleaf, cplans and cplan. */
typedef struct ftop {
	uint64_t dc[2];           /* the don't-care bits of words 0 and 1 ... */
	bool dc2;                 /* ... which are all of them */
	uint8_t v;                /* the variant of the plans */
	uint8_t pw[2], pn0;       /* the plan key by bit extraction, as codec_pext */
	uint16_t nex;
	const cleaf *lf;          /* NULL: the leaf's scope the general way */
	const uint8_t *tab;       /* plan index by key; NULL: plans[0] */
	const ftop_plan *plans;   /* NULL: fast_scope's way (overrides evaluated, no key) */
	uint64_t pm[2];
} __attribute__((aligned(64))) ftop;
_Static_assert(sizeof(ftop) == 64, "a bitset's entry is one cache line");

/* An override as the encoder evaluates it (encode.c): its references as
 * name ids, in the order its program reads them, and the program. */
typedef struct cenc_case {
	const cins *prog;         /* NULL: evaluate with spec_expr_eval */
	const uint32_t *refs;
	uint32_t nrefs;
	/* the bits of the case's <field>s (not derived, not asserts), nfw
	 * words: whether a field overlaps one of them is a mask test */
	uint32_t nfw;
	const uint64_t *fields;
	/* its asserts, in document order: placing them need not look at
	 * every field of the case */
	uint32_t nasserts;
	const spec_field *const *asserts;
} cenc_case;

struct codec {
	const spec_model *m;
	const cmemo **memo;        /* per root; NULL: none */
	const spec_root *defroot;
	size_t defroot_index;      /* defroot - m->roots */
	classifier **cls;          /* per root, as m->roots */
	const cleaf **leaf;        /* per bitset index; NULL: not a leaf */
	unsigned nw;               /* 64-bit words of the widest root */
	unsigned hexw;             /* 32-bit words Mesa prints in hex */
	unsigned instr_words;      /* 32-bit words of one default-root instruction */
	const char **names;        /* name ids -> text */
	size_t nnames;
	struct codec_arena *arena;
	/* fast.c gathers a segment's key with the CPU's bit extraction
	 * (x86's pext), where it is fast */
	bool pext;
	/* fast.c: the decimal text of each value below CODEC_DEC_N, 4 bytes
	 * apart (NUL padded), CODEC_TEXT_PAD bytes readable past the last */
	const char *dec;
	/* fast.c: per bitset index, a leaf's straight-through entry as the
	 * instruction; NULL: none built */
	const ftop *ftop;
	/* fast.c: the bytes its tables of texts may take (above them, its
	 * segments are built narrower), the bytes they take, and when they
	 * were found too many: 0 never, 1 once compiled, 2 once built */
	size_t fast_budget, fast_table_bytes;
	uint8_t fast_capped;
	/* issue.c: the fixed parts of the issue texts raised often, an open
	 * hash table of itmask + 1 entries; NULL: none */
	const struct citext *itext;
	size_t itmask;
	/* issue.c: per bitset index, its don't-care bits' entry (k1 NULL:
	 * none); NULL: none built */
	const struct citext *dcit;
	/* encode.c: per bitset index, per case, the override compiled
	 * (NULL: none built); and every field's name id, by an open hash on
	 * the field's address (fkeys[i] NULL: empty; fmask + 1 slots) */
	const cenc_case *const *enc;
	const spec_field **enc_fkeys;
	uint32_t *enc_fids;
	const uint32_t **enc_fparams; /* per slot: 2 ids a param (see below) */
	size_t enc_fmask;
	/* disasm.c: per bitset index, whether no display the leaf's walk
	 * may print names what afuc-disasm's hooks act on (then its text
	 * under afuc's style is that under Mesa's); NULL: not worked out */
	const bool *afuc_quiet;
	/* program.c: the model's <program>s with their names resolved to
	 * numbers and their texts compiled; NULL: the model has none */
	struct codec_programs *programs;
};

/* The name id of field f of the model (codec.names), or UINT32_MAX
 * when the codec has no encoder tables or f is not the model's. */
uint32_t codec_field_name_id(const codec *c, const spec_field *f);
/* Field f's params as name ids, two each: the name inside the bitset
 * (as=, else name=) and the name in the enclosing scope; NULL when it
 * has none, or the codec has no encoder tables. */
const uint32_t *codec_field_param_ids(const codec *c, const spec_field *f);

static inline const citext *cx_dontcare_itext(const codec *c, uint32_t bi)
{
	const citext *t = c->dcit ? &c->dcit[bi] : NULL;
	return t && t->k1 ? t : NULL;
}

int codec_lookup_find(const cleaf *lf, uint32_t name);

/* codec_new, optionally without the fast paths (expression programs,
 * pure expressions and their tables, direct look-ups, the walk
 * shortcut): the plain interpretation of Mesa's algorithm, which the
 * tests compare the fast one against. */
codec *codec_new_opt(const spec_model *m, spec_diags *diags, bool fast);
/* ... and with a budget for fast.c's tables of texts other than
 * CODEC_TABLE_BUDGET, which the tests use to build both ways. */
codec *codec_new_tuned(const spec_model *m, spec_diags *diags, bool fast, size_t table_budget);

/* Rendered tables (texts and entries of every segment, fast.c) beyond
 * this many bytes do not stay in a second-level cache (1 MiB a core on
 * the machine kind measured, docs/codec.md). */
#define CODEC_TABLE_BUDGET ((size_t)1 << 20)

/* ------------------------------------------------ decoding (decode.c) */

typedef enum cx_mode { CX_DISASM, CX_DECODE } cx_mode;

typedef struct cx_out {
	char *buf;                 /* NULL: a sink that only counts columns */
	size_t len, cap;           /* string mode: cap includes the NUL */
	size_t total;              /* characters produced */
	FILE *f;                   /* stream mode: buf is flushed here */
	unsigned col;              /* output column, as Mesa's line_column */
	bool ferr;
	/* While held, text that does not fit is dropped and noted instead
	 * of flushed or cut, so the caller can take it all back. */
	bool hold, over;
} cx_out;

typedef struct cx_scope {
	const cleaf *lf;
	struct cx_scope *parent;
	const cfield *pf;          /* the bitset field it decodes (params); NULL at top */
	uint64_t *val;
	uint64_t *cv;              /* per local expression: cached value */
	uint8_t *cs;               /* per local expression: cached? */
	unsigned depth;
	unsigned novc;             /* overrides' expressions cached so far */
	const int *plk;            /* pf's params: their look-ups in the parent's leaf */
	unsigned pb;               /* the variant in use (cleaf.pnames) */
	uint32_t pbound;           /* bit j: pnames[j] is bound (pval, pst) */
	uint64_t pval[CODEC_MAX_PNAMES];
	const cstep *pst[CODEC_MAX_PNAMES]; /* the parent's step each comes from */
} cx_scope;

typedef struct cx {
	const codec *c;
	cx_mode mode;
	uint32_t gen;
	cx_out *out;
	/* branch labels */
	bool labels;
	uint32_t n, num_instr;
	uint8_t *branch_t, *call_t;
	/* Mesa's expression stack */
	const spec_expr *es[CODEC_MAX_EXPR_STACK];
	unsigned esp;
	/* scopes */
	cx_scope sc[CODEC_MAX_SCOPES];
	unsigned nsc;
	uint64_t val[CODEC_MAX_SCOPES][CODEC_MAX_WORDS];
	uint64_t cv[CODEC_CACHE_SLOTS];
	uint8_t cs[CODEC_CACHE_SLOTS];
	unsigned cused;
	/* errors of the current line (Mesa keeps 4) */
	unsigned nerr;
	char err[CODEC_MAX_ERRORS][CODEC_ERR_LEN];
	uint32_t errlen[CODEC_MAX_ERRORS]; /* strlen of each */
	unsigned issues;           /* every issue recorded, kept or not */
	size_t text_start;         /* out->total when the instruction began */
	bool text_cut;             /* CODEC_TEXT_TOO_LONG said for it */
	unsigned subfields;        /* bitset fields it decoded so far */
	/* the leaf cx_find_bitset found last and its index (read from the
	 * classifier's line, not the leaf's) */
	const spec_bitset *found;
	uint32_t found_index;
	/* CX_DECODE */
	codec_decoded *dec;
	/* CODEC_NO_MATCH_AFUC: afuc-disasm's hooks (field_print_cb,
	 * field_cb, post_instr_cb), which run only on the interpreted path;
	 * what its field_cb records of a line (struct decode_state of
	 * Mesa's afuc/disasm.c) */
	bool afuc;
	struct cx_afuc {
		uint32_t immed;
		uint8_t shift;
		bool has_immed, dst_is_addr;
	} af;
} cx;

/* A context for codec c (inline: it is a few stores, made for every
 * instruction disassembled alone). */
static inline void cx_init(cx *x, const codec *c, cx_mode mode, uint32_t gen)
{
	x->c = c;
	x->mode = mode;
	x->gen = gen;
	x->out = NULL;
	x->labels = false;
	x->n = 0;
	x->num_instr = 1;
	x->branch_t = x->call_t = NULL;
	x->esp = 0;
	x->nsc = 0;
	x->cused = 0;
	x->nerr = 0;
	x->issues = 0;
	x->text_start = 0;
	x->text_cut = false;
	x->subfields = 0;
	x->dec = NULL;
	x->found = NULL;
	x->afuc = false;
}
void cx_issue(cx *x, codec_issue_kind kind, const spec_bitset *leaf,
              const spec_bitset *other, const spec_field *f, uint64_t bits,
              const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Mesa's BITSET_FORMAT of words: the model's width in hex, high word
 * first; the length written. */
size_t cx_hex(const cx *x, const uint64_t *w, char *buf, size_t len);
/* The 8 hex digits of v, most significant first, as the bytes of the
 * result in memory order (store it with memcpy): each nibble spread to a
 * byte and turned into its digit at once. */
static inline uint64_t cx_hex8p(uint32_t v, bool upper, bool pdep)
{
	uint64_t x = v;
	if (pdep) {
		x = codec_pdep_u64(x, 0x0f0f0f0f0f0f0f0full); /* byte i: nibble i */
	} else {
		x = (x | x << 16) & 0x0000ffff0000ffffull;
		x = (x | x << 8) & 0x00ff00ff00ff00ffull;
		x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	}
	uint64_t letter = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	x += 0x3030303030303030ull + letter * (upper ? 'A' - '9' - 1 : 'a' - '9' - 1);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return x; /* byte 0, the most significant nibble's, comes first */
#else
	return __builtin_bswap64(x);
#endif
}
/* pdep: the spreading in one instruction, where the CPU has it fast
 * (codec.pext says so). */
static inline uint64_t cx_hex8(uint32_t v, bool upper)
{
	return cx_hex8p(v, upper, false);
}
/* Mesa's BITSET_FORMAT digits of words w (hexw 32-bit words, high word
 * first, 8 digits each) at d, without a NUL: 8 digits at a time, from
 * registers (d has room for them all). */
static inline __attribute__((always_inline)) void cx_hex_words_p(const uint64_t *w, unsigned hexw,
                                                                 char *d, bool pdep)
{
	if (hexw == 2) {
		/* a 64-bit model's: no loop */
		uint64_t hi = cx_hex8p((uint32_t)(w[0] >> 32), false, pdep),
		         lo = cx_hex8p((uint32_t)w[0], false, pdep);
		memcpy(d, &hi, 8);
		memcpy(d + 8, &lo, 8);
		return;
	}
	for (unsigned i = hexw; i-- > 0; d += 8) {
		uint64_t h = cx_hex8p((uint32_t)(w[i / 2] >> (32 * (i % 2))), false, pdep);
		memcpy(d, &h, 8);
	}
}
/* cx_hex8 with codec c's pdep where it is fast (c->pext). */
static inline uint64_t cx_hex8c(const codec *c, uint32_t v, bool upper)
{
	return c->pext ? cx_hex8p(v, upper, true) : cx_hex8p(v, upper, false);
}
/* The same, where the CPU's pdep is fast (c->pext) or not. */
static inline __attribute__((always_inline)) void cx_hex_words(const codec *c, const uint64_t *w,
                                                               unsigned hexw, char *d)
{
	if (c->pext)
		cx_hex_words_p(w, hexw, d, true);
	else
		cx_hex_words_p(w, hexw, d, false);
}
/* find_bitset: the single matching leaf, or NULL (issues recorded). */
const spec_bitset *cx_find_bitset(cx *x, size_t root_index, const uint64_t *w);
/* The issue of leaf b's don't-care bits dc (its words) being set. */
void cx_dontcare_set(cx *x, const spec_bitset *b, uint32_t bi, const uint64_t *dc);
/* Opens a scope for leaf over words w (copied, unless w is cx_next_val). */
cx_scope *cx_push(cx *x, const spec_bitset *leaf, const cfield *pf, const uint64_t *w,
                  const int *plk);
/* The low 64 bits of field [low, high] of words w[0..nw). */
static inline uint64_t cx_get64(const uint64_t *w, unsigned nw, unsigned low, unsigned high)
{
	unsigned width = high - low + 1;
	unsigned wi = low / 64, sh = low % 64;
	if (wi >= nw)
		return 0;
	uint64_t v = w[wi] >> sh;
	if (sh && width > 64 - sh && wi + 1 < nw)
		v |= w[wi + 1] << (64 - sh);
	if (width < 64)
		v &= ((uint64_t)1 << width) - 1;
	return v;
}

/* The index into a pure expression's table (variant v) of the values of
 * a scope (its words val, nw of them; its bound params pval, pbound):
 * false when a param is not bound or its value is past the bits the
 * table gives it, for the caller to compute it instead. */
static inline bool cx_tab_index(const cleaf *lf, const cexpr *ce, unsigned v, const uint64_t *val,
                                unsigned nw, const uint64_t *pval, uint32_t pbound, uint64_t *idx)
{
	const cref *refs = lf->refs + ce->ref0;
	uint64_t i = 0;
	unsigned sh = 0;
	for (uint32_t k = 0; k < ce->nrefs; k++) {
		unsigned bits = refs[k].tbits[v];
		uint64_t u;
		if (refs[k].sstep[v] < 0) {
			int slot = refs[k].pslot;
			if (slot < 0 || (unsigned)slot >= CODEC_MAX_PNAMES || !((pbound >> slot) & 1u))
				return false;
			u = pval[slot];
			if (u >> bits)
				return false;
		} else {
			u = cx_get64(val, nw, refs[k].tlow[v], refs[k].tlow[v] + bits - 1);
		}
		i |= u << sh;
		sh += bits;
	}
	*idx = i;
	return true;
}

/* An instruction of root (bitset size bits) read from w into iw: the
 * codec's nw words, bits past the root's size cleared.  Only nw words
 * are written (clearing all CODEC_MAX_WORDS, 512 bytes, was a tenth of
 * a decoding's own time); nothing reads iw past them. */
static inline void cx_root_words(const codec *c, unsigned size, const uint64_t *w, uint64_t *iw)
{
	unsigned rw = (size + 63) / 64;
	for (unsigned i = 0; i < c->nw; i++)
		iw[i] = i < rw ? w[i] : 0;
	if (rw && size % 64 && rw <= c->nw)
		iw[rw - 1] &= ((uint64_t)1 << (size % 64)) - 1;
}

/* Where the next scope's words will live (NULL: no room). */
static inline uint64_t *cx_next_val(cx *x)
{
	return x->nsc < CODEC_MAX_SCOPES ? x->val[x->nsc] : NULL;
}
void cx_pop(cx *x);
uint64_t cx_eval(cx *x, cx_scope *s, int k);
/* The value of a field (or derived field) in its scope. */
static inline uint64_t cx_step_value(cx *x, cx_scope *s, const cstep *st)
{
	const spec_field *f = st->field->f;
	if (f->kind == SPEC_DERIVED)
		return cx_eval(x, s, st->fex);
	return cx_get64(s->val, x->c->nw, f->low, f->high);
}
/* resolve_field: the step of the field, the scope that holds it and its
 * value (low 64 bits); NULL when nothing resolves. */
const cstep *cx_resolve(cx *x, cx_scope *s, uint32_t name, int lk, cx_scope **where,
                        uint64_t *val);
/* The error of a bitset field whose bits match no leaf of its root. */
void cx_no_match_field(cx *x, const cx_scope *s, const spec_field *f, const uint64_t *w);
/* The same, for field f of the leaf named leaf_name. */
void cx_no_match_named(cx *x, const char *leaf_name, const spec_field *f, const uint64_t *w);
/* Checks assert a of case d over the scope's bits (an issue if it fails). */
void cx_check_assert(cx *x, cx_scope *s, const cdstep *d, const cfield *a);
/* The issue of assert a of owner failing in a scope of leaf with value v. */
void cx_assert_failed(cx *x, const spec_bitset *leaf, const spec_bitset *owner, const cfield *a,
                      const uint64_t *v);
/* An issue whose text is given whole. */
void cx_issue_text(cx *x, codec_issue_kind kind, const spec_field *f, const char *text);
/* find_display: the display's step (asserts checked), or NULL. */
const cdstep *cx_find_display(cx *x, cx_scope *s);
/* Records that case d held in scope s on the display walk (shown: its
 * display is the one chosen), when the decoding asks (codec_decoded.cases). */
static inline void cx_case_taken(cx *x, const cx_scope *s, const cdstep *d, bool shown)
{
	codec_decoded *o = x->dec;
	if (!o || !o->cases)
		return;
	if (o->ncases < o->cap_cases)
		o->cases[o->ncases] = (codec_case_taken){d->kase, d->owner, s->lf->b, s->depth, shown};
	o->ncases++;
}
void cx_extract(const uint64_t *w, unsigned low, unsigned high, uint64_t *out, unsigned nw);

/* ------------------------------------ expression inputs (invert.c) */

/* A name an expression reads, with the width and the value it is given:
 * invert.c and asm.c probe expressions by evaluating them over inputs
 * spread from the bits of one number. */
typedef struct codec_input {
	const char *name;
	unsigned width;
	int64_t value;
} codec_input;

/* Sets the values of in[0..n) from the bits of x, the first input lowest. */
void codec_input_spread(codec_input *in, size_t n, uint64_t x);
/* Evaluates e with in[0..n) as the values of its references; false when
 * the evaluation fails (a reference not among them, say). */
bool codec_input_eval(const spec_expr *e, const codec_input *in, size_t n, int64_t gpu_id,
                      int64_t *r);

/* The plan for these own bits and param values, or NULL: interpret. */
static inline const cplan *cx_plan_find(const cplans *ps, const uint64_t *val, unsigned nw,
                                        const uint64_t *pval, uint32_t gen)
{
	if (!ps->tab)
		return ps->plans;
	uint32_t key = 0;
	unsigned sh = 0;
	for (unsigned i = 0; i < ps->nin; i++) {
		const cplan_in *in = &ps->in[i];
		uint64_t v;
		if (in->slot == -1) {
			v = cx_get64(val, nw, in->low, in->low + in->width - 1);
		} else if (in->slot == -2) {
			v = 0;
			while (v < ps->ngb && gen >= ps->gbound[v])
				v++;
		} else {
			v = pval[in->slot];
			if (v >> in->width)
				return NULL; /* wider than the plan assumed */
		}
		key |= (uint32_t)v << sh;
		sh += in->width;
	}
	uint8_t k = ps->tab[key];
	return k == 0xff ? NULL : &ps->plans[k];
}

/* The plan of a scope, or NULL: interpret. */
static inline const cplan *cx_scope_plan(const cx *x, const cx_scope *s)
{
	const cplans *ps = s->lf->plan[s->pb];
	if (!ps || ps->eval || x->esp || x->afuc)
		return NULL;
	return cx_plan_find(ps, s->val, x->c->nw, s->pval, x->gen);
}

/* afuc-disasm's field_print_cb (CODEC_NO_MATCH_AFUC): a custom field
 * written {CONTROLREG} or {SQEREG} (name, len bytes, as written; with
 * ":align=" it is another name) prints as 0x%03x; any other custom field
 * prints nothing.  disasm.c prints by it and asm.c reads by it. */
static inline bool cx_afuc_register_field(const char *name, size_t len)
{
	return (len == 10 && !memcmp(name, "CONTROLREG", 10)) ||
	       (len == 6 && !memcmp(name, "SQEREG", 6));
}

/* Whether override expression k holds, by a plan's truth vector. */
static inline bool cx_plan_holds(const cleaf *lf, const cplan *pl, int k)
{
	return (pl->truth >> lf->ex[k].case_bit) & 1u;
}

/* ---------------------------------------------- display (disasm.c) */

/* The words (c->nw) of one default-root instruction from its 32-bit
 * memory words, low first (inline: once per instruction disassembled). */
static inline void cx_instr_words(const codec *c, const uint32_t *words, uint64_t *w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the common case: the instruction fills the words, and memory
	 * order is already theirs */
	if (c->instr_words == 2 * c->nw) {
		if (c->nw == 1)
			memcpy(w, words, sizeof *w); /* ir3's, afuc's: no call */
		else
			memcpy(w, words, c->nw * sizeof *w);
		return;
	}
#endif
	/* 32-bit words, low first, two to a 64-bit word */
	unsigned k = 0, iw = c->instr_words;
	for (; k + 1 < iw && k / 2 < c->nw; k += 2)
		w[k / 2] = words[k] | (uint64_t)words[k + 1] << 32;
	if (k < iw && k / 2 < c->nw) {
		w[k / 2] = words[k];
		k += 2;
	}
	for (k /= 2; k < c->nw; k++)
		w[k] = 0;
}
/* Prints a value of any type but bitset as Mesa's display_field does. */
void cx_print_value(cx *x, const cfield *f, uint64_t val);
/* Prints scope s's display into x->out (a sink counts columns only). */
void cx_display(cx *x, cx_scope *s);
/* Prints the display of leaf b over words w as an instruction (no
 * scope open): straight through the plans when they cover it, else
 * with a scope and cx_display.  False when no scope could be opened. */
bool cx_display_top(cx *x, const spec_bitset *b, const uint64_t *w);
/* Leaf b's display straight through (fast.c), its issues recorded as the
 * walk records them; false, with nothing printed or kept, where the
 * compiled programs do not settle it (the caller walks it then). */
bool cx_display_fast(cx *x, const spec_bitset *b, const uint64_t *w);
/* For the tests: how many of n instructions (of the default root) print
 * straight through, without opening a scope. */
size_t codec_fast_count(const codec *c, const uint32_t *words, size_t n, uint32_t gen);
/* For the tests: turns the bit extraction off (or back on, where the
 * CPU has it); returns whether it is on. */
bool codec_fast_set_pext(codec *c, bool on);

/* Renders value v of root ri alone, as a field without params: text
 * into buf (NUL-terminated, *len), its errors (at most CODEC_MAX_ERRORS)
 * into errs.  False when no single leaf matches, a limit is met or the
 * text does not fit. */
bool cx_render_alone(const codec *c, size_t ri, uint64_t v, char *buf, size_t cap, size_t *len,
                     char (*errs)[CODEC_ERR_LEN], unsigned *nerr);

#endif
