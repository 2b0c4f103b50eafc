/*
 * fast.c - instructions printed straight through.
 *
 * An instruction whose every scope has a plan (plan.c) is printed
 * without opening scopes at all: the plans say which display each scope
 * shows, where every {NAME} ends and where each param of a nested
 * bitset field comes from, so what is left is reading bits, evaluating
 * pure expressions and printing.  At load, in three passes:
 *
 * - compiling: each plan's display becomes fops; a run of ops whose text
 *   depends only on a few of the scope's own bits (flags, small enums, a
 *   register number, a memoised nested field, literal text between them)
 *   becomes one segment whose every text is rendered now, so printing it
 *   is a gather of bits and a copy;
 * - inlining: a nested bitset field whose params come from the
 *   instruction's bits is printed inside the instruction's program (its
 *   leaf checked, its plan chosen and its program run over the
 *   instruction's bits), recursively;
 * - merging: neighbouring bit-printing ops of a program become one
 *   segment again, and text before an inlined field joins its programs.
 *
 * The issues the general way would record on the way (a failed assert,
 * a nested field that matches no leaf or several, don't-care bits, a
 * memoised field's own issues, a name no param passes in) are recorded
 * as it records them, in the same order.  Overrides whose expressions
 * meet each other are evaluated nested, as Mesa's find_display does
 * (display_walk_nested).  Anything a plan does not settle (an override
 * that cannot be decided, an unbound param, an expression error, a
 * limit met) gives up: the output and the issues are taken back and the
 * instruction goes the general way (disasm.c), which produces the same
 * text.  The tests compare the two on every vector, on mutated and
 * random words and on words seeded from every leaf.
 */
#include "out.h"

#include <stdlib.h>
#include <string.h>

enum {
	F_TEXT,   /* pad to align, text; col >= 0: it holds a newline, the column after it */
	F_PAD,    /* pad to align */
	F_SEG,    /* a segment (seg) */
	F_SEGT,   /* a segment whose texts fit its entries (seg, tx: see seg_op) */
	F_BOOL, F_ENUM, F_UINT, F_HEX, /* a plain field in one word (as cpop) */
	F_SUB,    /* a bitset field in one word of the scope: step arg (sub) */
	F_STEP,   /* any other field of the scope: step arg, padded to align */
	F_PARAM,  /* a param: slot arg, padded to align; unbound and absent: text, len
	           * (the name as written) are for the "no field" issue */
	F_BAIL,   /* a look-up the plan does not settle */
	/* Made by inlining (see there): */
	F_INLINE, /* a nested field's scope, printed in this one (inl) */
	F_MEMO,   /* a memoised nested field (mm) */
	F_ASSERT, /* bits (word, shift, mask) must equal aval */
	F_VAL,    /* a field's value from bits (word, shift, mask), any type but bitset */
	F_TVAL,   /* a field's value from a table (vt), any type but bitset */
	F_EXPR,   /* a derived value evaluated over bits and tables (ex), any type but bitset */
	F_END,    /* every program's last op: back to the program that ran it, or done */
	/* Made last (lower_inlines): */
	F_INLP,   /* a plain F_INLINE, what its usual case needs in the op (itab) */
	F_INLC,   /* an F_INLINE of a root with several leaves: the leaf by a table
	           * over the field's value (ctab), then that leaf's F_INLP (alts) */
	F_INLPT,  /* an F_INLP right before its program's F_END, which its
	           * inlined program's F_END does for it */
	F_NSEG, F_NSEGT, /* an F_UINT (fw, ushift, len) then an F_SEG, F_SEGT */
	/* The four segment kinds right before their program's F_END, which
	 * they do themselves (fuse_ends): */
	F_SEGE, F_SEGTE, F_NSEGE, F_NSEGTE,
	F_TEXTE,  /* an F_TEXT right before its program's F_END, which it does */
	F_EXPRG,  /* an F_EXPR that only moves bits (ex->ng), of type int, uint or hex */
	F_INLCT,  /* an F_INLC right before its program's F_END: the leaf's program
	           * returns for it, as F_INLPT's */
	F_MEMOE,  /* an F_MEMO right before its program's F_END, which it does */
	F_KINDS
};

#define FAST_SEG_BITS   8u /* a segment renders at most 2^this texts */
#define FAST_VTAB_BITS 12u /* a derived value's table has at most 2^this values */
#define FAST_SEG_INPUTS 8u
#define FAST_PAD        CODEC_TEXT_PAD /* bytes readable past every text copied whole */
#define FAST_SEG_LEN    254u
#define FAST_NOSEG      UINT32_MAX
#define FAST_TX_NONE    0xffu /* an F_SEGT entry's length byte: give up */
/* An F_INLC table's value that names no leaf: no leaf can match it in
 * any generation, or it cannot tell (the F_INLINE way) */
#define FAST_CTAB_NONE  0xfeu
#define FAST_CTAB_ANY   0xffu
#define FAST_RETURNS    16u /* inlined programs run without a call, this deep */

typedef struct fseg_in {
	uint8_t word, shift, at;  /* bits of word >> shift, at this bit of the key */
	uint64_t mask;
} fseg_in;

/* A segment's key has the bits it reads in order, lowest word and bit
 * first: the runs in[] place them (seg_canonical), and so does one bit
 * extraction per word (px; px.n 0: the runs must be used). */
typedef struct fseg {
	/* what printing needs first, in one cache line: on whole programs
	 * the tables outgrow the first-level cache, and every line counts */
	const uint32_t *ent;      /* per key: offset << 8 | length; FAST_NOSEG: give up */
	const char *pool;
	unsigned depth, slots;    /* memoised nested fields: the room Mesa's walk needs */
	codec_pext px;
	/* F_SEGT: per key, its text in bytes 0..14 and its length in byte 15
	 * (FAST_TX_NONE: give up); NULL: not made (yet) */
	const uint8_t *tx;
	unsigned nin;
	fseg_in in[FAST_SEG_INPUTS];
} fseg;

/* The key px gathers from words w (px->n > 0, the CPU's pext fast). */
static inline uint32_t pext_key(const codec_pext *px, const uint64_t *w)
{
	return (uint32_t)(codec_pext_u64(w[px->pw[0]], px->pm[0]) |
	                  codec_pext_u64(w[px->pw[1]], px->pm[1]) << px->pn0);
}

/* A derived value as a table over the few bits it reads. */
typedef struct fvtab {
	unsigned nin;
	fseg_in in[FAST_SEG_INPUTS];
	const uint64_t *val;
} fvtab;

/* The key that runs in[0..n) gather from words w. */
static inline uint32_t runs_key(const fseg_in *in, unsigned n, const uint64_t *w)
{
	uint32_t key = 0;
	for (unsigned i = 0; i < n; i++)
		key |= (uint32_t)((w[in[i].word] >> in[i].shift) & in[i].mask) << in[i].at;
	return key;
}

static inline uint64_t vtab_value(const fvtab *vt, const uint64_t *w)
{
	return vt->val[runs_key(vt->in, vt->nin, w)];
}

/* Where a param of the only leaf of a nested field's root comes from. */
enum { FB_BITS, FB_PARAM, FB_STEP };

typedef struct fbind {
	uint8_t kind;
	uint8_t j;                /* the leaf's pnames slot */
	uint8_t word, shift;      /* BITS */
	int32_t arg;              /* PARAM: slot here; STEP: step here */
	uint64_t mask;            /* BITS */
	const cfield *field;      /* BITS, STEP: the field it prints as */
	const fvtab *vt;          /* STEP: its value by table; NULL: evaluate */
} fbind;

/* A bitset field whose root has one leaf: that leaf's match, checked
 * directly, and its params' sources here. */
typedef struct fsub {
	const cleaf *only;
	uint64_t match, mask, dontcare; /* of the leaf's first word; the rest are 0 */
	uint32_t gmin, gmax;
	const fbind *bind;
	unsigned nbind;
	uint32_t absent;          /* bit j: the field passes no param as pnames[j] */
	bool all;                 /* every required param (pnames[0..npn)) has a source */
} fsub;

/* An op of a program, 64 bytes: one cache line each where the program
 * is aligned (fast_ops_alloc), since whole programs outgrow the
 * first-level cache.  Fields no kind uses together share room. */
typedef struct fop {
	uint8_t kind;
	/* BOOL..HEX, SUB, INLINE, MEMO, ASSERT, VAL; SEG: the words of its
	 * bit extraction (seg_op: a segment's op carries what printing it
	 * needs, so that it is one cache line, not three) */
	uint8_t word, shift;
	uint8_t fw;               /* INLP: the word of its field's check */
	int32_t align;
	union {
		int32_t arg;
		struct {
			uint8_t pn, pn0;  /* SEG: its codec_pext's n, pn0 */
			uint8_t ushift;   /* NSEG: the number's bits (fw, ushift, len) */
		};
	};
	union {
		int32_t col;          /* TEXT */
		uint32_t depth;       /* MEMO, SEG: the room Mesa's walk needs, with slots */
	};
	union {
		struct {
			uint32_t len;     /* TEXT */
			uint32_t slots;   /* MEMO */
		};
		const fsub *const *subs; /* SUB: per leaf of a root with several (NULL: none) */
		const struct fop *ipre; /* INLC: the text before the field (finl.pre); NULL: none */
		const citext *ait;    /* ASSERT: its issue's text (issue.c); NULL: looked up */
	};
	uint64_t mask;            /* as word, shift */
	union {
		const char *text;     /* TEXT: FAST_PAD bytes readable past len */
		const fseg *seg;      /* SEG */
		const fvtab *vt;      /* STEP: its derived value by table (else NULL); TVAL */
		const struct finl *inl; /* INLINE */
		const struct fexpr *ex; /* EXPR */
		const cmemo *mm;      /* MEMO */
		uint64_t aval;        /* ASSERT */
		const struct fitab *itab; /* INLP */
		const uint8_t *ctab;  /* INLC: per value, the leaf (alts), or FAST_CTAB_* */
	};
	union {
		/* BOOL..HEX, VAL, TVAL, EXPR; SUB, MEMO: the bitset field;
		 * ASSERT: the assert */
		const cfield *field;
		const uint32_t *ent;  /* SEG: its entries */
		const uint8_t *tx;    /* SEGT: its entries, texts inside */
		uint64_t ichk;        /* INLP: the leaf's check, as bits of word fw */
		const struct fop *alts; /* INLC: per leaf of the root, its F_INLP */
	};
	union {
		const cpop *po;       /* STEP, SUB: the plan's op (its params' sources) */
		const spec_bitset *dsowner; /* ASSERT: the bitset whose case has it */
		const char *pool;     /* SEG: its texts */
		uint64_t imatch;      /* INLP: what ichk's bits must be */
		const struct fop *cslow; /* INLC: the F_INLINE op it stands for */
	};
	union {
		const fsub *sub;      /* SUB: NULL when the root has several leaves */
		const cleaf *owner;   /* MEMO, ASSERT: the leaf whose field or assert it is */
		uint64_t pm1;         /* SEG: its codec_pext's pm[1] (mask: pm[0]) */
		const citext *nmt;    /* INLC: the issue of a value no leaf can match (issue.c);
		                       * NULL: the F_INLINE way */
	};
} fop;
_Static_assert(sizeof(fop) <= 64, "an op fits a cache line");

/* An F_INLP op's programs by plan key, one cache line with its header
 * where they fit: the op, this line and the program are all an inline
 * reads in the usual case (the F_INLINE way reads the finl's two lines,
 * the plan table and the program list besides). */
typedef struct fitab {
	const fop *slow;          /* the F_INLINE op it stands for: any other case */
	uint32_t gmin, gmax;
	const fop *prog[];        /* per key; NULL: the F_INLINE way */
} fitab;

/* An expression of an inlined scope, its references read from the
 * running scope's bits (or tables over them). */
#define FAST_GATHERS 16u

typedef struct fexpr {
	const cins *prog;
	/* ng > 0: the program only moves bits, so its value is cbits with
	 * gather g[i] of the bits placed at its bit at (gather_expr) */
	unsigned ng;
	uint64_t cbits;
	fseg_in g[FAST_GATHERS];
	unsigned nrefs;
	struct {
		uint8_t word, shift;
		uint64_t mask;
		const fvtab *vt;      /* not NULL: the value is this table's */
	} ref[];
} fexpr;

/* An input of a nested scope's plan key, in the enclosing scope's bits. */
enum { FK_BITS, FK_PARAM, FK_GEN, FK_TAB };

typedef struct fkin {
	uint8_t kind, word, shift, at;
	uint8_t width;            /* FK_PARAM, FK_TAB: the value must fit this many bits */
	uint64_t mask;
	const struct fvtab *vt;   /* FK_TAB */
} fkin;

/* A nested field whose root has one leaf, printed inside the scope that
 * runs the program: its leaf's check, its plan's key and the programs of
 * its plans with every bit and param moved to the scope's bits. */
typedef struct finl {
	/* What the plain way needs, first: one leaf whose match and
	 * don't-care bits check as (value & chk) == match, a plan table
	 * (tab, ps's), every key input FK_BITS, the key by bit extraction
	 * as a segment's (px) */
	bool plain;
	uint32_t gmin, gmax;
	uint64_t chk, match;
	unsigned depth, slots;    /* the room its scope would take */
	const uint8_t *tab;
	codec_pext px;
	const fop *const *prog;   /* per plan; NULL: open the scope (orig) */
	uint64_t mask, dontcare;  /* the leaf's, over the field's value */
	const cplans *ps;
	unsigned nin;
	fkin in[CODEC_PLAN_INPUTS];
	const uint32_t *nprog;
	const struct fop *orig;   /* the F_SUB it replaces in the running scope's program */
	/* A root with several leaves: the value is classified first, and
	 * the inline of the leaf found is run (NULL: give up / open). */
	const classifier *cls;
	const spec_root *root;
	const struct finl *const *alt; /* per leaf of root */
	/* For the issues a value may raise: the leaf whose field it is, the
	 * field, and the nested leaf (NULL: a root with several) */
	const cleaf *owner;
	const cfield *field;
	const cleaf *leaf;
	uint32_t leaf_index;      /* leaf's bitset index (its don't-care issue) */
	/* Text before the field that its programs print first (absorb_text):
	 * printed alone when no leaf matches.  NULL: none. */
	const struct fop *pre;
} finl;

/* --------------------------------------------------------------- running */

typedef struct fscope {
	const cleaf *lf;
	const uint64_t *val;
	unsigned v;                /* the variant of the plans (cleaf.pnames) */
	unsigned depth;            /* scopes around it, as cx_push counts them */
	unsigned cused;            /* expression cache slots of those and its own */
	const cplan *pl;           /* its plan, once found */
	uint64_t truth, known;     /* which overrides hold, of those decided (case bits) */
	uint32_t pbound;           /* bit j: pnames[j] bound in pval, pfield */
	/* bit j: no param passes pnames[j] in, from any scope around (the
	 * instruction's own scope, or a field without a param of that name):
	 * a look-up of it finds nothing, Mesa's "no field" */
	uint32_t pabsent;
	uint64_t pval[CODEC_MAX_PNAMES];
	const cfield *pfield[CODEC_MAX_PNAMES];
} fscope;

/* Text of at most FAST_PAD characters without a newline, from a source
 * with FAST_PAD bytes readable: one fixed-size copy. */
static inline void fast_put(cx_out *o, const char *s, uint32_t n)
{
	if (n <= FAST_PAD && o->len + FAST_PAD < o->cap) {
		memcpy(o->buf + o->len, s, FAST_PAD);
		out_wrote(o, n);
	} else {
		out_raw(o, s, n);
	}
}

/* Text of at most 15 characters without a newline, 16 bytes readable. */
static inline void fast_put16(cx_out *o, const char *s, uint32_t n)
{
	if (o->len + 16 < o->cap) {
		memcpy(o->buf + o->len, s, 16);
		out_wrote(o, n);
	} else {
		out_raw(o, s, n);
	}
}

static bool fast_eval(const cx *x, const fscope *s, int k, unsigned depth, uint64_t *out);

/* Mesa's expression stack while fast_scope settles a leaf's overrides
 * (decode.c's x->es, for one scope): the expressions being evaluated,
 * as indices of the leaf's. */
#define FAST_ESTACK 8u /* Mesa's own is this deep (and unchecked) */
typedef struct fstack {
	unsigned n;
	int k[FAST_ESTACK];
	/* the walk passed a case that holds and has asserts: an issue raised
	 * now would come after theirs, which run_plan records later */
	bool asserts;
} fstack;

/* Whether override k is the one being evaluated, on top of st: as in
 * Mesa's find_field, only the innermost counts as holding. */
static bool stacked(const cleaf *lf, const fstack *st, int k)
{
	return st->n && lf->ex[st->k[st->n - 1]].e == lf->ex[k].e;
}

static int case_nested(cx *x, fscope *s, int k, fstack *st);

/* Where ref_resolve evaluates an override not decided yet, nested, as
 * decode.c's find_field does: the scope and the expressions being
 * evaluated (NULL: it gives up instead). */
typedef struct fnest {
	cx *x;
	fscope *s;
	fstack *st;
} fnest;

/* Where reference r of an expression of a leaf's scope ends: a step
 * (*step) or, when no case defines it, a slot of the params (*step -1,
 * *slot).  Fixed when the expression is pure, else by the overrides'
 * truth (*truth, of those *known): while the expression is evaluated,
 * the one on top of the stack counts as holding, and one not decided yet gives up
 * or, with nest, is evaluated there (which decides it in nest->s, whose
 * truth truth and known then are).  False: give up.  Inlined, so that
 * without nest the nesting costs nothing. */
static inline __attribute__((always_inline)) bool
ref_resolve(const cleaf *lf, unsigned v, const uint64_t *truth, const uint64_t *known,
            const cref *r, const fnest *nest, int *step, int *slot)
{
	int ss = r->sstep[v];
	*slot = ss == -2 ? r->pslot : -1;
	if (ss == -1) {
		uint32_t j0, n;
		cx_lookup_steps(lf, r->lk, &j0, &n);
		for (uint32_t j = j0; j < j0 + n && ss < 0; j++) {
			const cstep *cs = &lf->steps[j];
			if (cs->cex >= 0) {
				uint64_t bit = (uint64_t)1 << lf->ex[cs->cex].case_bit;
				bool on = nest && stacked(lf, nest->st, cs->cex);
				if (*known & bit) {
					if (!(*truth & bit) && !on)
						continue;
				} else if (!on) {
					if (!nest)
						return false; /* not decided yet */
					int h = case_nested(nest->x, nest->s, cs->cex, nest->st);
					if (h < 0)
						return false;
					if (!h)
						continue;
				}
			}
			if (cs->field)
				ss = (int)j;
		}
		for (unsigned j = 0; ss < 0 && *slot < 0 && j < lf->nbn; j++)
			if (lf->pnames[j] == r->name)
				*slot = (int)j;
		if (ss < 0 && *slot < 0)
			return false;
	}
	*step = ss;
	return true;
}

static bool fast_ref(const cx *x, const fscope *s, const cref *r, unsigned depth, uint64_t *u)
{
	const cleaf *lf = s->lf;
	int ss, slot;
	if (!ref_resolve(lf, s->v, &s->truth, &s->known, r, NULL, &ss, &slot))
		return false;
	if (ss < 0) {
		if (slot < 0 || !((s->pbound >> slot) & 1u))
			return false;
		*u = s->pval[slot];
		return true;
	}
	const cstep *st = &lf->steps[ss];
	const spec_field *f = st->field->f;
	if (f->kind == SPEC_DERIVED)
		return st->fex >= 0 && fast_eval(x, s, st->fex, depth + 1, u);
	if (f->kind != SPEC_FIELD)
		return false;
	*u = cx_get64(s->val, x->c->nw, f->low, f->high);
	return true;
}

/* The value of expression k: pure, or one whose references the plan
 * settles (false when it settles them not, or evaluation fails). */
static bool fast_eval_as(const cx *x, const fscope *s, int k, unsigned depth, bool as_case,
                         uint64_t *out);

static bool fast_eval(const cx *x, const fscope *s, int k, unsigned depth, uint64_t *out)
{
	return fast_eval_as(x, s, k, depth, false, out);
}

/* as_case: k is an override's expression, evaluated as find_display
 * does (that override counts as holding meanwhile: s->truth says so). */
static bool fast_eval_as(const cx *x, const fscope *s, int k, unsigned depth, bool as_case,
                         uint64_t *out)
{
	const cleaf *lf = s->lf;
	const cexpr *ce = &lf->ex[k];
	if (depth > 16 || (!ce->pure[s->v] && ce->is_case && !as_case))
		return false;
	const cref *refs = lf->refs + ce->ref0;
	uint64_t idx;
	if (ce->tab[s->v] &&
	    cx_tab_index(lf, ce, s->v, s->val, x->c->nw, s->pval, s->pbound, &idx)) {
		*out = ce->tab[s->v][idx];
		return true;
	}
	int64_t pv[64], r;
	if (!ce->prog || ce->nrefs > 64)
		return false;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		uint64_t u;
		if (!fast_ref(x, s, &refs[i], depth, &u))
			return false;
		pv[i] = (int64_t)u;
	}
	if (!codec_vm_run(ce->prog, pv, (int64_t)x->gen, &r))
		return false;
	*out = (uint64_t)r;
	return true;
}


/* Reference r of the expression on top of st, resolved as decode.c's
 * find_field does it: an override not decided yet is evaluated there,
 * nested in the one being evaluated; the innermost one being evaluated counts as
 * holding.  A name that no param passes in is 0 and Mesa's "no field"
 * issue.  False: give up (what it ends at is not a plain field or a
 * param bound or absent, or an evaluation gives up). */
static bool ref_nested(cx *x, fscope *s, const cref *r, fstack *st, uint64_t *u)
{
	const cleaf *lf = s->lf;
	const fnest nest = {x, s, st};
	int ss, slot;
	if (!ref_resolve(lf, s->v, &s->truth, &s->known, r, &nest, &ss, &slot))
		return false;
	if (ss < 0) {
		if ((s->pbound >> slot) & 1u) {
			*u = s->pval[slot];
			return true;
		}
		if (!((s->pabsent >> slot) & 1u) || st->asserts)
			return false;
		cx_issue(x, CODEC_NO_FIELD, lf->b, NULL, NULL, 0, "no field '%s'", r->text);
		*u = 0;
		return true;
	}
	const spec_field *f = lf->steps[ss].field->f;
	if (f->kind != SPEC_FIELD)
		return false;
	*u = cx_get64(s->val, x->c->nw, f->low, f->high);
	return true;
}

/* Override expression k evaluated as decode.c's cx_eval does it, with
 * st being evaluated around it: decided already, its value; on st (but
 * for its first slot, as Mesa searches it), 0 and not decided; else
 * evaluated, its references resolved by ref_nested, and decided.  The
 * value's truth, or -1: give up. */
static int case_nested(cx *x, fscope *s, int k, fstack *st)
{
	const cleaf *lf = s->lf;
	const cexpr *ce = &lf->ex[k];
	uint64_t bit = (uint64_t)1 << ce->case_bit;
	if (s->known & bit)
		return (s->truth & bit) != 0;
	for (unsigned i = st->n; i-- > 1;)
		if (lf->ex[st->k[i]].e == ce->e)
			return 0;
	if (!ce->prog || ce->nrefs > 64 || st->n == FAST_ESTACK)
		return -1;
	st->k[st->n++] = k;
	const cref *refs = lf->refs + ce->ref0;
	int64_t pv[64], r;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		uint64_t u;
		if (!ref_nested(x, s, &refs[i], st, &u))
			return -1;
		pv[i] = (int64_t)u;
	}
	if (!codec_vm_run(ce->prog, pv, (int64_t)x->gen, &r))
		return -1;
	st->n--;
	/* a re-entrant evaluation nested in this one (Mesa searches not the
	 * stack's first slot) may have decided k already: this, the outer
	 * evaluation, has the last word, as decode.c's cache has it */
	s->known |= bit;
	if (r)
		s->truth |= bit;
	else
		s->truth &= ~bit;
	return r != 0;
}

/* find_display's walk over the overrides of scope s, as decode.c makes
 * it: each in turn until one with a display holds, the others its
 * expressions' look-ups meet evaluated nested in it (ir3's
 * #cat1-immed-src: every override reads SRC_TYPE, which no case
 * defines, so the first one's look-up evaluates all the others inside
 * it, and what the third's {IMMED} finds depends on which are being
 * evaluated then).  Decides those it evaluates; false: give up. */
static bool display_walk_nested(cx *x, fscope *s)
{
	const cleaf *lf = s->lf;
	fstack st = {0};
	for (size_t i = 0; i < lf->nds; i++) {
		const cdstep *d = &lf->ds[i];
		int h = 1;
		if (d->cex >= 0 && (h = case_nested(x, s, d->cex, &st)) < 0)
			return false;
		if (h && d->op0 >= 0)
			return true;
		st.asserts |= h && d->nasserts;
	}
	return true;
}

/* The value of a step's field (plain or derived) in its scope. */
static bool fast_step_value(const cx *x, const fscope *s, const cstep *st, uint64_t *out)
{
	const spec_field *f = st->field->f;
	if (f->kind == SPEC_DERIVED)
		return st->fex >= 0 && fast_eval(x, s, st->fex, 0, out);
	if (f->kind != SPEC_FIELD)
		return false;
	*out = cx_get64(s->val, x->c->nw, f->low, f->high);
	return true;
}

static bool fast_scope(cx *x, fscope *s);
static bool fast_ops(cx *x, fscope *s, const fop *pc);

/* A bitset field of scope s with value val (its bits, or a derived
 * value), printed as disasm.c's display_bitset_field would. */
static bool fast_bitset_field(cx *x, const fscope *s, const cstep *st, const cpop *po,
                              uint64_t val)
{
	const codec *c = x->c;
	const cfield *f = st->field;
	unsigned nw = c->nw;
	const cmemo *mm = c->memo[f->root_index];
	if (mm && !f->nparams && f->f->kind != SPEC_DERIVED && f->width <= f->root->bitset->size &&
	    s->depth + 1 + mm->depth <= CODEC_MAX_SCOPES &&
	    s->cused + mm->slots <= CODEC_CACHE_SLOTS) {
		const cmemo_ent *e = &mm->ent[cx_get64(s->val, nw, f->f->low, f->f->high)];
		if (!e->noleaf) {
			if (e->nl)
				out_put(x->out, mm->pool + e->text, e->len);
			else
				fast_put(x->out, mm->pool + e->text, e->len);
			memo_issues(x, mm, e, f->f);
			return true;
		}
	}
	if (s->depth + 1 >= CODEC_MAX_SCOPES)
		return false;
	fscope ns;
	uint64_t *w = x->val[s->depth + 1];
	if (f->f->kind == SPEC_DERIVED) {
		memset(w, 0, nw * sizeof *w);
		w[0] = val;
	} else {
		cx_extract(s->val, f->f->low, f->f->high, w, nw);
	}
	/* as display_bitset_field: issues recorded, nothing printed when
	 * no single leaf matches */
	const spec_bitset *b = cx_find_bitset(x, f->root_index, w);
	if (!b) {
		cx_no_match_named(x, s->lf->name, f->f, w);
		return true;
	}
	ns.lf = b->index < c->m->nbitsets ? c->leaf[b->index] : NULL;
	if (!ns.lf || CODEC_CACHE_SLOTS - s->cused < ns.lf->nex)
		return false;
	ns.val = w;
	ns.depth = s->depth + 1;
	ns.cused = s->cused + (unsigned)ns.lf->nex;
	ns.pbound = 0;
	ns.pabsent = 0;
	/* its params, as bind_params would bind them, from where the plan
	 * says each resolves here */
	bool all = true;
	for (unsigned j = 0; j < ns.lf->nbn; j++) {
		size_t i = 0;
		while (i < f->nparams && f->params[i].as != ns.lf->pnames[j])
			i++;
		bool bound = false;
		if (i < f->nparams && po->psrc) {
			const cpop *src = &po->psrc[i];
			if (src->kind == PO_STEP) {
				const cstep *ps = &s->lf->steps[src->arg];
				ns.pfield[j] = ps->field;
				bound = fast_step_value(x, s, ps, &ns.pval[j]);
			} else if (src->kind == PO_PARAM && ((s->pbound >> src->arg) & 1u)) {
				ns.pfield[j] = s->pfield[src->arg];
				ns.pval[j] = s->pval[src->arg];
				bound = true;
			} else if (src->kind == PO_PARAM) {
				ns.pabsent |= ((s->pabsent >> src->arg) & 1u) << j;
			}
		} else if (i == f->nparams) {
			ns.pabsent |= (uint32_t)1 << j;
		}
		if (bound)
			ns.pbound |= (uint32_t)1 << j;
		else if (j < ns.lf->npn)
			all = false;
	}
	ns.v = ns.lf->v1 && all;
	return fast_scope(x, &ns);
}

/* An F_SUB op: a bitset field in one word of scope s. */
static bool fast_sub(cx *x, const fscope *s, const fop *op)
{
	const cstep *st = &s->lf->steps[op->arg];
	const fsub *sb = op->sub;
	uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
	if (!sb || (v & sb->mask) != sb->match || (v & sb->dontcare) ||
	    x->gen - sb->gmin > sb->gmax - sb->gmin || s->depth + 1 >= CODEC_MAX_SCOPES ||
	    CODEC_CACHE_SLOTS - s->cused < sb->only->nex)
		return fast_bitset_field(x, s, st, op->po, v);
	fscope ns;
	unsigned nw = x->c->nw;
	uint64_t *w = x->val[s->depth + 1];
	w[0] = v;
	if (nw == 2)
		w[1] = 0;
	else if (nw > 2)
		memset(w + 1, 0, (nw - 1) * sizeof *w);
	ns.lf = sb->only;
	ns.val = w;
	ns.depth = s->depth + 1;
	ns.cused = s->cused + (unsigned)sb->only->nex;
	ns.pbound = 0;
	ns.pabsent = sb->absent;
	bool all = sb->all;
	for (unsigned i = 0; i < sb->nbind; i++) {
		const fbind *bd = &sb->bind[i];
		unsigned j = bd->j;
		switch (bd->kind) {
		case FB_BITS:
			ns.pval[j] = (s->val[bd->word] >> bd->shift) & bd->mask;
			ns.pfield[j] = bd->field;
			break;
		case FB_PARAM:
			if (!((s->pbound >> bd->arg) & 1u)) {
				all &= j >= sb->only->npn;
				ns.pabsent |= ((s->pabsent >> bd->arg) & 1u) << j;
				continue;
			}
			ns.pval[j] = s->pval[bd->arg];
			ns.pfield[j] = s->pfield[bd->arg];
			break;
		default:
			if (bd->vt) {
				ns.pval[j] = vtab_value(bd->vt, s->val);
			} else if (!fast_step_value(x, s, &s->lf->steps[bd->arg], &ns.pval[j])) {
				all &= j >= sb->only->npn;
				continue;
			}
			ns.pfield[j] = bd->field;
			break;
		}
		ns.pbound |= (uint32_t)1 << j;
	}
	ns.v = sb->only->v1 && all;
	return fast_scope(x, &ns);
}

/* Scope s's display by its plan: false when it has none or gives up. */
/* The asserts of scope s's plan, each an issue when it fails. */
static __attribute__((noinline)) void scope_asserts(cx *x, const fscope *s)
{
	const cleaf *lf = s->lf;
	const cplan *pl = s->pl;
	for (int i = 0; i <= pl->ds; i++) {
		const cdstep *d = &lf->ds[i];
		if (d->cex >= 0 && !cx_plan_holds(lf, pl, d->cex))
			continue;
		for (uint32_t j = 0; j < d->nasserts; j++) {
			const cfield *a = lf->asserts[d->assert0 + j];
			uint64_t v[CODEC_MAX_WORDS];
			cx_extract(s->val, a->f->low, a->f->high, v, x->c->nw);
			if (memcmp(v, a->aval, x->c->nw * sizeof *v) != 0)
				cx_assert_failed(x, lf->b, d->owner, a, v);
		}
	}
}

/* Scope s under plan pl (its truth, whether it has asserts, its
 * program): the asserts checked, then the program run. */
static inline __attribute__((always_inline)) bool
run_plan(cx *x, fscope *s, const cplan *pl, uint64_t truth, bool asserts, const fop *fops)
{
	s->pl = pl;
	s->truth = truth;
	s->known = ~(uint64_t)0;
	if (asserts)
		scope_asserts(x, s);
	return fast_ops(x, s, fops);
}

static bool fast_scope(cx *x, fscope *s)
{
	const cleaf *lf = s->lf;
	const cplans *ps = lf->plan[s->v];
	if (!ps)
		return false;
	const cplan *pl;
	if (ps->eval) {
		unsigned comb = 0;
		s->pl = NULL;
		s->truth = s->known = 0;
		/* find_display's walk first, as Mesa makes it, then the
		 * overrides it left, each holding while its own expression is
		 * evaluated; a look-up that meets one not decided yet then
		 * gives up */
		if (!display_walk_nested(x, s))
			return false;
		for (unsigned i = 0; i < ps->ncase; i++) {
			uint64_t r, bit = (uint64_t)1 << lf->ex[ps->cases[i]].case_bit;
			if (!(s->known & bit)) {
				s->truth |= bit;
				s->known |= bit;
				if (!fast_eval_as(x, s, ps->cases[i], 0, true, &r))
					return false;
				if (!r)
					s->truth &= ~bit;
			}
			comb |= (unsigned)((s->truth & bit) != 0) << i;
		}
		pl = ps->eidx[comb] == 0xff ? NULL : &ps->plans[ps->eidx[comb]];
	} else if (ps->px.n && x->c->pext) {
		uint32_t key = pext_key(&ps->px, s->val);
		pl = ps->tab[key] == 0xff ? NULL : &ps->plans[ps->tab[key]];
	} else {
		pl = cx_plan_find(ps, s->val, x->c->nw, s->pval, x->gen);
	}
	if (!pl || !pl->fops)
		return false;
	return run_plan(x, s, pl, pl->truth, pl->asserts, pl->fops);
}

/* The instruction's scope s by its leaf's entry t. */
static inline bool fast_scope_top(cx *x, fscope *s, const ftop *t)
{
	if (!t->plans || (t->tab && !x->c->pext))
		return fast_scope(x, s);
	unsigned idx = t->tab ? t->tab[codec_pext_u64(s->val[t->pw[0]], t->pm[0]) |
	                               codec_pext_u64(s->val[t->pw[1]], t->pm[1]) << t->pn0]
	                      : 0;
	if (idx == 0xff)
		return false;
	const ftop_plan *p = &t->plans[idx];
	if (!p->fops)
		return false;
	return run_plan(x, s, p->pl, p->truth, p->asserts, p->fops);
}

/* A nested field's value v that matches no single leaf of its root, as
 * display_bitset_field has it: the issues recorded (an ambiguity, then
 * no match) and nothing printed.  False: a leaf matches after all. */
static __attribute__((noinline)) bool fast_no_match(cx *x, const cleaf *owner, const cfield *f,
                                                    uint64_t v)
{
	uint64_t w[CODEC_MAX_WORDS];
	w[0] = v;
	for (unsigned i = 1; i < x->c->nw; i++)
		w[i] = 0;
	if (cx_find_bitset(x, f->root_index, w))
		return false;
	cx_no_match_named(x, owner->name, f->f, w);
	return true;
}

/* An F_INLC op's value v that no leaf of its root can match in any
 * generation (so no ambiguity either): as its F_INLINE op's way, the
 * padding, the issue and the text before the field, from what the op
 * holds (the F_INLINE op's lines are not read). */
static __attribute__((noinline)) void fast_inl_none(cx *x, const fop *op, uint64_t v)
{
	out_pad(x->out, op->align);
	uint64_t w[CODEC_MAX_WORDS];
	w[0] = v;
	for (unsigned i = 1; i < x->c->nw; i++)
		w[i] = 0;
	if (op->nmt) {
		cx_issue_itext(x, CODEC_NO_MATCH, NULL, op->nmt->k2, op->nmt, w);
	} else {
		const finl *in = op->cslow->inl;
		cx_no_match_named(x, in->owner->name, in->field->f, w);
	}
	if (op->ipre)
		fast_put(x->out, op->ipre->text, op->ipre->len);
}

/* What inline_plan_index returns when there is no plan to run. */
enum {
	FAST_INL_BAIL = -1,  /* give up */
	FAST_INL_OPEN = -2,  /* open the scope (orig) */
	FAST_INL_NONE = -3,  /* no leaf matched: issues recorded, nothing to print */
};

/* The plan key of inline in over scope bits w at generation gen, as its
 * plan table has it; false where it gives up (a param or a table value
 * wider than the plan assumed). */
static bool inline_key(const finl *in, const uint64_t *w, uint32_t gen, uint32_t *key)
{
	*key = 0;
	for (unsigned i = 0; i < in->nin; i++) {
		const fkin *k = &in->in[i];
		uint64_t kv = 0;
		if (k->kind == FK_GEN) {
			while (kv < in->ps->ngb && gen >= in->ps->gbound[kv])
				kv++;
		} else {
			kv = k->kind == FK_TAB ? vtab_value(k->vt, w) : (w[k->word] >> k->shift) & k->mask;
			if (k->kind != FK_BITS && (kv >> k->width))
				return false;
		}
		*key |= (uint32_t)kv << k->at;
	}
	return true;
}

/* The plan index of an F_INLINE op's nested scope, or a FAST_INL_*: a
 * value that matches no leaf is FAST_INL_NONE, don't-care bits are an
 * issue; it gives up when a limit is met or a param is wider than its
 * plan assumed. */
static __attribute__((noinline)) int inline_plan_slow(cx *x, const fscope *s, const fop *op,
                                                      const finl **which)
{
	const finl *in = op->inl;
	uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
	if (in->cls) {
		uint64_t w[CODEC_MAX_WORDS];
		unsigned nw = x->c->nw;
		w[0] = v;
		for (unsigned i = 1; i < nw; i++)
			w[i] = 0;
		const spec_bitset *hit[2];
		size_t n = classifier_run(in->cls, w, x->gen, hit, 2);
		if (n == 0) {
			/* as fast_no_match would find: no leaf, so no ambiguity */
			cx_no_match_named(x, in->owner->name, in->field->f, w);
			return FAST_INL_NONE;
		}
		if (n != 1)
			return fast_no_match(x, in->owner, in->field, v) ? FAST_INL_NONE : FAST_INL_BAIL;
		size_t li = 0;
		while (li < in->root->nleaves && in->root->leaves[li] != hit[0])
			li++;
		if (li == in->root->nleaves || !in->alt[li])
			return in->orig ? FAST_INL_OPEN : FAST_INL_BAIL;
		in = in->alt[li];
	}
	*which = in;
	/* a leaf's mask may cover its don't-care bits: they match anything */
	if ((v & in->mask & ~in->dontcare) != (in->match & ~in->dontcare) ||
	    x->gen - in->gmin > in->gmax - in->gmin)
		return fast_no_match(x, in->owner, in->field, v) ? FAST_INL_NONE : FAST_INL_BAIL;
	if (s->depth + in->depth >= CODEC_MAX_SCOPES || s->cused + in->slots > CODEC_CACHE_SLOTS)
		return FAST_INL_BAIL;
	if (v & in->dontcare) {
		uint64_t dc[CODEC_MAX_WORDS];
		dc[0] = v & in->dontcare;
		for (unsigned i = 1; i < x->c->nw; i++)
			dc[i] = 0;
		cx_dontcare_set(x, in->leaf->b, in->leaf_index, dc);
	}
	if (!in->ps->tab)
		return 0;
	uint32_t key;
	if (!inline_key(in, s->val, x->gen, &key))
		return FAST_INL_BAIL;
	uint8_t idx = in->ps->tab[key];
	return idx == 0xff ? FAST_INL_BAIL : idx;
}

/* inline_plan_slow, for the plain inlines without a call. */
static inline int inline_plan_index(cx *x, const fscope *s, const fop *op, const finl **which)
{
	const finl *in = op->inl;
	if (!in->plain)
		return inline_plan_slow(x, s, op, which);
	*which = in;
	uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
	if ((v & in->chk) != in->match || x->gen - in->gmin > in->gmax - in->gmin ||
	    s->depth + in->depth >= CODEC_MAX_SCOPES || s->cused + in->slots > CODEC_CACHE_SLOTS)
		return inline_plan_slow(x, s, op, which);
	uint32_t key = 0;
	if (x->c->pext && in->px.n) {
		key = pext_key(&in->px, s->val);
	} else {
		for (unsigned i = 0; i < in->nin; i++)
			key |= (uint32_t)((s->val[in->in[i].word] >> in->in[i].shift) & in->in[i].mask)
			       << in->in[i].at;
	}
	uint8_t idx = in->tab[key];
	return idx == 0xff ? FAST_INL_BAIL : idx;
}

/* An F_ASSERT op whose bits have the value v, not the one asserted: the
 * issue. */
static __attribute__((noinline)) void fast_assert_failed(cx *x, const fop *op, uint64_t v)
{
	uint64_t w[CODEC_MAX_WORDS];
	w[0] = v;
	for (unsigned i = 1; i < x->c->nw; i++)
		w[i] = 0;
	if (op->ait)
		cx_issue_itext(x, CODEC_ASSERT_MISMATCH, op->owner->b, op->field->f, op->ait, w);
	else
		cx_assert_failed(x, op->owner->b, op->dsowner, op->field, w);
}

/* The ops fast_ops does not expect often. */
static __attribute__((noinline)) bool fast_rare_op(cx *x, fscope *s, const fop *op)
{
	const cleaf *lf = s->lf;
	cx_out *o = x->out;
	switch (op->kind) {
	case F_SUB:
		out_pad(o, op->align);
		return fast_sub(x, s, op);
	case F_MEMO: {
		/* the padding is done */
		uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
		const cmemo_ent *e = &op->mm->ent[v];
		if (s->depth + op->depth > CODEC_MAX_SCOPES || s->cused + op->slots > CODEC_CACHE_SLOTS)
			return false;
		if (e->noleaf)
			return fast_no_match(x, op->owner, op->field, v);
		out_put(o, op->mm->pool + e->text, e->len);
		memo_issues(x, op->mm, e, op->field->f);
		return true;
	}
	case F_VAL:
		out_pad(o, op->align);
		cx_print_value(x, op->field, (s->val[op->word] >> op->shift) & op->mask);
		return true;
	case F_TVAL:
		out_pad(o, op->align);
		cx_print_value(x, op->field, vtab_value(op->vt, s->val));
		return true;
	case F_EXPR: {
		const fexpr *e = op->ex;
		if (e->ng) {
			uint64_t u = e->cbits;
			for (unsigned i = 0; i < e->ng; i++)
				u |= ((s->val[e->g[i].word] >> e->g[i].shift) & e->g[i].mask) << e->g[i].at;
			out_pad(o, op->align);
			cx_print_value(x, op->field, u);
			return true;
		}
		int64_t vals[64], r;
		for (unsigned i = 0; i < e->nrefs; i++)
			vals[i] = (int64_t)(e->ref[i].vt ? vtab_value(e->ref[i].vt, s->val)
			                                 : (s->val[e->ref[i].word] >> e->ref[i].shift) &
			                                       e->ref[i].mask);
		if (!codec_vm_run(e->prog, vals, (int64_t)x->gen, &r))
			return false;
		out_pad(o, op->align);
		cx_print_value(x, op->field, (uint64_t)r);
		return true;
	}
	case F_STEP: {
		const cstep *st = &lf->steps[op->arg];
		uint64_t val;
		out_pad(o, op->align);
		if (st->field->f->kind == SPEC_ASSERT)
			return true;
		if (op->vt)
			val = vtab_value(op->vt, s->val);
		else if (!fast_step_value(x, s, st, &val))
			return false;
		if (st->field->type == SPEC_TYPE_BITSET)
			return fast_bitset_field(x, s, st, op->po, val);
		cx_print_value(x, st->field, val);
		return true;
	}
	case F_PARAM: {
		if (!((s->pbound >> op->arg) & 1u)) {
			/* as display_field_op: the issue, no padding */
			if (!((s->pabsent >> op->arg) & 1u))
				return false;
			cx_issue(x, CODEC_NO_FIELD, lf->b, NULL, NULL, 0, "no field '%.*s'", (int)op->len,
			         op->text);
			return true;
		}
		const cfield *f = s->pfield[op->arg];
		uint64_t v = s->pval[op->arg];
		out_pad(o, op->align);
		if (f->type == SPEC_TYPE_ENUM && v < 256 && f->en && !f->en->nl && f->en->dense[v])
			fast_put(o, f->en->dense[v], f->en->dense_len[v]);
		else if (f->type == SPEC_TYPE_UINT)
			out_u64(o, v);
		else if (f->type != SPEC_TYPE_BITSET)
			cx_print_value(x, f, v);
		else
			return false;
		return true;
	}
	default:
		return false;
	}
}

/* fast_ops dispatches through a table of label addresses where the
 * compiler has them (GCC, clang): no range check (GCC merges the jumps
 * back into one; forcing one per op changed nothing measurable).  The
 * switch stays, for other compilers. */
#if defined(__GNUC__)
#define FAST_GOTO 1
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#define FAST_LABEL(name) name:
#else
#define FAST_GOTO 0
#define FAST_LABEL(name)
#endif

/* An F_INLP op's program in inline_plan_index's usual case, with what
 * it reads in the op and one line of programs by key; NULL: any other
 * case (the F_INLINE way). */
static inline const fop *inlp_program(const cx *x, const fscope *s, const fop *op, bool pext)
{
	const fitab *it = op->itab;
	if ((s->val[op->fw] & op->ichk) != op->imatch || !pext ||
	    s->depth + op->depth >= CODEC_MAX_SCOPES || s->cused + op->slots > CODEC_CACHE_SLOTS)
		return NULL;
	const fop *p = it->prog[codec_pext_u64(s->val[op->word], op->mask) |
	                        codec_pext_u64(s->val[op->shift], op->pm1) << op->pn0];
	return p && x->gen - it->gmin <= it->gmax - it->gmin ? p : NULL;
}

/* An F_INLC(T) op's leaf, by its table over the field's value: that
 * leaf's F_INLP (among alts); else NULL, and *slow the F_INLINE op to
 * run instead, or NULL when no leaf can match (fast_inl_none has
 * recorded the issue). */
static inline __attribute__((always_inline)) const fop *inlc_alt(cx *x, const fscope *s,
                                                                 const fop *op, const fop **slow)
{
	uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
	uint8_t li = op->ctab[v];
	*slow = NULL;
	if (li == FAST_CTAB_NONE) {
		fast_inl_none(x, op, v);
		return NULL;
	}
	if (li == FAST_CTAB_ANY) {
		*slow = op->cslow;
		return NULL;
	}
	return &op->alts[li];
}

/* A segment op's key by its runs, where there is no pext: the first run
 * outside the loop (GCC's code for this loop is better so). */
static inline uint32_t seg_runs_key(const fscope *s, const fop *op)
{
	const fseg *g = op->seg;
	const fseg_in *in = g->in;
	uint32_t key = (uint32_t)((s->val[in[0].word] >> in[0].shift) & in[0].mask);
	for (unsigned i = 1; i < g->nin; i++)
		key |= (uint32_t)((s->val[in[i].word] >> in[i].shift) & in[i].mask) << in[i].at;
	return key;
}

/* A segment op's key. */
static inline __attribute__((always_inline)) uint32_t seg_key(const fscope *s, const fop *op, bool pext)
{
	if (pext && op->pn)
		return (uint32_t)(codec_pext_u64(s->val[op->word], op->mask) |
		                  codec_pext_u64(s->val[op->shift], op->pm1) << op->pn0);
	return seg_runs_key(s, op);
}

/* An F_SEGT op's text (the text in the entry: one cache line read, not
 * two); false: give up. */
static inline __attribute__((always_inline)) bool fast_segt(const fscope *s, const fop *op, bool pext, cx_out *o)
{
	if (op->depth && (s->depth + op->depth > CODEC_MAX_SCOPES ||
	                  s->cused + op->slots > CODEC_CACHE_SLOTS))
		return false;
	const uint8_t *t = op->tx + 16 * (size_t)seg_key(s, op, pext);
	if (t[15] == FAST_TX_NONE)
		return false;
	fast_put16(o, (const char *)t, t[15]);
	return true;
}

/* An F_SEG op's text; false: give up. */
static inline __attribute__((always_inline)) bool fast_seg(const fscope *s, const fop *op, bool pext, cx_out *o)
{
	if (op->depth && (s->depth + op->depth > CODEC_MAX_SCOPES ||
	                  s->cused + op->slots > CODEC_CACHE_SLOTS))
		return false;
	uint32_t e = op->ent[seg_key(s, op, pext)];
	if (e == FAST_NOSEG)
		return false;
	fast_put(o, op->pool + (e >> 8), e & 255u);
	return true;
}

/* An F_TEXT op's text: padded to align; col >= 0: it holds a newline,
 * the column after it. */
static inline __attribute__((always_inline)) void fast_text(cx_out *o, const fop *op)
{
	if (op->align)
		out_pad(o, op->align);
	if (op->col < 0) {
		fast_put(o, op->text, op->len);
	} else {
		out_raw(o, op->text, op->len);
		o->col = (unsigned)op->col;
	}
}

/* An F_UINT's value v. */
static inline __attribute__((always_inline)) void fast_uint(const cx *x, cx_out *o, uint64_t v)
{
	if (v < CODEC_DEC_N) /* register numbers, mostly: no loop over digits */
		fast_put(o, x->c->dec + 4 * v, 1u + (v >= 10) + (v >= 100));
	else
		out_u64(o, v);
}

/* The program at pc over scope s (inlined ones included), to its F_END.
 * Aligned to a cache line: where the linker happens to put it moved
 * random words' speed by 3-5% between builds of the same code. */
static __attribute__((aligned(64))) bool fast_ops(cx *x, fscope *s, const fop *pc)
{
	cx_out *o = x->out;
	const bool pext = x->c->pext;
	/* inlined programs run in this loop: where each one returns to */
	const fop *ret[FAST_RETURNS];
	unsigned nret = 0;
#if FAST_GOTO
	static const void *const at[F_KINDS] = {
		[F_TEXT] = &&l_text, [F_PAD] = &&l_pad, [F_SEG] = &&l_seg, [F_SEGT] = &&l_segt,
		[F_BOOL] = &&l_bool,
		[F_ENUM] = &&l_enum, [F_UINT] = &&l_uint, [F_HEX] = &&l_hex, [F_SUB] = &&l_other,
		[F_STEP] = &&l_other, [F_PARAM] = &&l_other, [F_BAIL] = &&l_other,
		[F_INLINE] = &&l_inline, [F_MEMO] = &&l_memo, [F_ASSERT] = &&l_assert,
		[F_VAL] = &&l_other, [F_TVAL] = &&l_other, [F_EXPR] = &&l_other, [F_END] = &&l_end,
		[F_INLP] = &&l_inlp, [F_INLC] = &&l_inlc, [F_INLPT] = &&l_inlpt,
		[F_NSEG] = &&l_nseg, [F_NSEGT] = &&l_nsegt, [F_SEGE] = &&l_sege,
		[F_SEGTE] = &&l_segte, [F_NSEGE] = &&l_nsege, [F_NSEGTE] = &&l_nsegte,
		[F_TEXTE] = &&l_texte, [F_EXPRG] = &&l_exprg, [F_INLCT] = &&l_inlct,
		[F_MEMOE] = &&l_memoe,
	};
#endif
	for (;;) {
		const fop *op = pc++;
#if FAST_GOTO
		goto *at[op->kind];
#endif
		switch (op->kind) {
		case F_END:
		l_end:
			if (!nret)
				return !o->over;
			pc = ret[--nret];
			continue;
		case F_TEXT:
		FAST_LABEL(l_text)
			fast_text(o, op);
			continue;
		case F_TEXTE:
		FAST_LABEL(l_texte)
			fast_text(o, op);
			goto l_end;
		case F_EXPRG:
		FAST_LABEL(l_exprg) {
			/* etnaviv's immediates: bits of five fields, as fast_rare_op's
			 * F_EXPR, printed without its call */
			const fexpr *e = op->ex;
			uint64_t u = e->cbits;
			for (unsigned i = 0; i < e->ng; i++)
				u |= ((s->val[e->g[i].word] >> e->g[i].shift) & e->g[i].mask) << e->g[i].at;
			out_pad(o, op->align);
			const cfield *f = op->field;
			if (f->type == SPEC_TYPE_INT)
				out_i64(o, cx_sext(u, f->width > 64 ? 64 : f->width), false);
			else if (f->type == SPEC_TYPE_UINT)
				fast_uint(x, o, u);
			else
				out_hex(o, u, false);
			continue;
		}
		case F_PAD:
		FAST_LABEL(l_pad)
			out_pad(o, op->align);
			continue;
		case F_NSEGT:
		FAST_LABEL(l_nsegt)
			fast_uint(x, o, (s->val[op->fw] >> op->ushift) & op->len);
			/* fall through */
		case F_SEGT:
		FAST_LABEL(l_segt)
			if (!fast_segt(s, op, pext, o))
				return false;
			continue;
		case F_NSEG:
		FAST_LABEL(l_nseg)
			fast_uint(x, o, (s->val[op->fw] >> op->ushift) & op->len);
			/* fall through */
		case F_SEG:
		FAST_LABEL(l_seg)
			if (!fast_seg(s, op, pext, o))
				return false;
			continue;
		case F_NSEGTE:
		FAST_LABEL(l_nsegte)
			fast_uint(x, o, (s->val[op->fw] >> op->ushift) & op->len);
			/* fall through */
		case F_SEGTE:
		FAST_LABEL(l_segte)
			if (!fast_segt(s, op, pext, o))
				return false;
			goto l_end;
		case F_NSEGE:
		FAST_LABEL(l_nsege)
			fast_uint(x, o, (s->val[op->fw] >> op->ushift) & op->len);
			/* fall through */
		case F_SEGE:
		FAST_LABEL(l_sege)
			if (!fast_seg(s, op, pext, o))
				return false;
			goto l_end;
		case F_BOOL:
		FAST_LABEL(l_bool) {
			uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
			out_pad(o, op->align);
			if ((v != 0) == (op->field->type == SPEC_TYPE_BOOL))
				out_raw(o, op->field->f->display, op->field->disp_len);
			continue;
		}
		case F_ENUM:
		FAST_LABEL(l_enum) {
			uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
			const cenum *en = op->field->en;
			out_pad(o, op->align);
			if (en->dense[v])
				fast_put(o, en->dense[v], en->dense_len[v]);
			else
				out_u64(o, v);
			continue;
		}
		case F_UINT:
		FAST_LABEL(l_uint)
			out_pad(o, op->align);
			fast_uint(x, o, (s->val[op->word] >> op->shift) & op->mask);
			continue;
		case F_HEX:
		FAST_LABEL(l_hex)
			out_pad(o, op->align);
			out_hex(o, (s->val[op->word] >> op->shift) & op->mask, false);
			continue;
		case F_INLCT:
		FAST_LABEL(l_inlct) {
			const fop *slow, *alt = inlc_alt(x, s, op, &slow);
			if (alt) {
				op = alt;
				goto l_inlpt_run;
			}
			if (!slow)
				goto l_end;
			op = slow;
			goto l_inline;
		}
		case F_INLPT:
		FAST_LABEL(l_inlpt)
		l_inlpt_run: {
			/* the program's last op: the inlined one returns for it */
			if (o->over || ++x->subfields > CODEC_MAX_SUBFIELDS)
				return false; /* the slow path cuts the text */
			const fop *p = inlp_program(x, s, op, pext);
			if (p) {
				out_pad(o, op->align);
				pc = p;
				continue;
			}
			op = op->itab->slow;
			goto l_inline;
		}
		case F_INLC:
		FAST_LABEL(l_inlc) {
			const fop *slow, *alt = inlc_alt(x, s, op, &slow);
			if (!alt && !slow)
				continue;
			if (!alt) {
				op = slow;
				goto l_inline;
			}
			op = alt;
		}
		/* fall through - the leaf's F_INLP */
		case F_INLP:
		l_inlp: {
			if (o->over || ++x->subfields > CODEC_MAX_SUBFIELDS)
				return false; /* the slow path cuts the text */
			const fop *p = nret < FAST_RETURNS ? inlp_program(x, s, op, pext) : NULL;
			if (p) {
				out_pad(o, op->align);
				ret[nret++] = pc;
				pc = p;
				continue;
			}
			op = op->itab->slow;
		}
		/* fall through - any other case goes the F_INLINE way */
		case F_INLINE:
		l_inline: {
			const finl *in = op->inl;
			/* the buffer is full, or too many fields: the slow path cuts */
			if (o->over || ++x->subfields > CODEC_MAX_SUBFIELDS)
				return false;
			out_pad(o, op->align);
			int idx = inline_plan_index(x, s, op, &in);
			if (idx >= 0 && in->prog[idx] && nret < FAST_RETURNS) {
				ret[nret++] = pc;
				pc = in->prog[idx];
				continue;
			}
			if (idx == FAST_INL_NONE) {
				if (op->inl->pre)
					fast_put(o, op->inl->pre->text, op->inl->pre->len);
				continue;
			}
			if (idx == FAST_INL_OPEN ? !fast_sub(x, s, op->inl->orig)
			    : idx < 0 ? true
			    : !in->prog[idx] ? !fast_sub(x, s, in->orig)
			                     : !fast_ops(x, s, in->prog[idx]))
				return false;
			continue;
		}
		case F_ASSERT:
		FAST_LABEL(l_assert) {
			/* the usual case, a call only when it fails */
			uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
			if (v != op->aval)
				fast_assert_failed(x, op, v);
			continue;
		}
		case F_MEMO:
		case F_MEMOE:
		FAST_LABEL(l_memo)
		FAST_LABEL(l_memoe) {
			uint64_t v = (s->val[op->word] >> op->shift) & op->mask;
			const cmemo_ent *e = &op->mm->ent[v];
			out_pad(o, op->align);
			if (e->noleaf || e->nerr || e->nl || s->depth + op->depth > CODEC_MAX_SCOPES ||
			    s->cused + op->slots > CODEC_CACHE_SLOTS) {
				if (!fast_rare_op(x, s, op))
					return false;
				continue;
			}
			fast_put(o, op->mm->pool + e->text, e->len);
			if (op->kind == F_MEMOE)
				goto l_end;
			continue;
		}
		default:
		FAST_LABEL(l_other)
			if (!fast_rare_op(x, s, op))
				return false;
			continue;
		}
	}
}

#if FAST_GOTO
#pragma GCC diagnostic pop
#endif

/* Leaf b's display over words w straight through, its issues recorded;
 * false (nothing printed, no issue kept) when it gives up. */
static inline __attribute__((always_inline)) bool
display_fast(cx *x, const spec_bitset *b, const uint64_t *w)
{
	const codec *c = x->c;
	cx_out *o = x->out;
	uint32_t bi = b == x->found ? x->found_index : b->index;
	const ftop *t = c->ftop && bi < c->m->nbitsets ? &c->ftop[bi] : NULL;
	/* codec_decode walks the display for its issues alone: straight
	 * through as well, unless it asks which cases were taken (the plans
	 * do not say) */
	if (!t || !t->lf || x->nsc || x->esp || !o->buf ||
	    (x->afuc && !(c->afuc_quiet && bi < c->m->nbitsets && c->afuc_quiet[bi])) ||
	    (x->mode == CX_DECODE && (!x->dec || x->dec->cases)))
		return false;
	if (o->f && o->cap - o->len < 1024)
		cx_out_flush(o);
	/* nothing is flushed while held: these are all that can change */
	size_t len = o->len, total = o->total;
	unsigned col = o->col;
	bool over = o->over;
	fscope s; /* not zeroed: pval and pfield are read only where bound */
	s.lf = t->lf;
	s.val = w;
	s.v = t->v;
	s.depth = 0;
	s.cused = t->nex;
	s.pl = NULL;
	s.truth = s.known = 0;
	s.pbound = 0;
	s.pabsent = ~(uint32_t)0; /* the instruction's scope: no params at all */
	unsigned nerr = x->nerr, issues = x->issues;
	size_t kept = x->mode == CX_DECODE ? x->dec->nissues : 0;
	o->hold = true;
	bool done = fast_scope_top(x, &s, t);
	o->hold = false;
	if (!done) {
		/* gave up: take it all back */
		o->len = len;
		o->total = total;
		o->col = col;
		o->over = over;
		x->nerr = nerr;
		x->issues = issues;
		if (x->mode == CX_DECODE)
			x->dec->nissues = kept;
	}
	return done;
}

bool cx_display_fast(cx *x, const spec_bitset *b, const uint64_t *w)
{
	x->text_start = x->out ? x->out->total : 0;
	x->text_cut = false;
	x->subfields = 0;
	bool done = display_fast(x, b, w);
	x->subfields = 0;
	return done;
}

bool cx_display_top(cx *x, const spec_bitset *b, const uint64_t *w)
{
	x->text_start = x->out ? x->out->total : 0;
	x->text_cut = false;
	x->subfields = 0;
	if (display_fast(x, b, w))
		return true;
	x->subfields = 0; /* the fast path's count is taken back with its text */
	cx_scope *s = cx_push(x, b, NULL, w, NULL);
	if (!s)
		return false;
	cx_display(x, s);
	cx_pop(x);
	return true;
}

size_t codec_fast_count(const codec *c, const uint32_t *words, size_t n, uint32_t gen)
{
	cx *x = c ? malloc(sizeof *x) : NULL;
	if (!x)
		return 0;
	char buf[4096];
	size_t fast = 0;
	size_t ri = (size_t)(c->defroot - c->m->roots);
	for (size_t k = 0; k < n; k++) {
		uint64_t w[CODEC_MAX_WORDS];
		cx_instr_words(c, words + k * c->instr_words, w);
		cx_init(x, c, CX_DISASM, gen);
		cx_out o = {.buf = buf, .cap = sizeof buf};
		x->out = &o;
		const spec_bitset *b = cx_find_bitset(x, ri, w);
		fast += b && display_fast(x, b, w);
	}
	free(x);
	return fast;
}

/* ------------------------------------------------------------- compiling */

typedef struct fast_build {
	codec *c;
	cx *x;                     /* renders segments */
	bool ok;                   /* memory */
	/* segments already rendered, by signature (shared between plans) */
	struct known_seg {
		uint64_t hash;
		char *sig;
		size_t siglen;
		const void *val;       /* a segment, or an inline's programs */
	} *known;                  /* open addressing; val NULL: empty */
	size_t nknown, capknown;   /* capknown: a power of 2 */
	/* per root: root_leaf_table's table, once made */
	const uint8_t **ctab;
	/* programs lower_inlines has been through */
	const void **seen;         /* open addressing; NULL: empty */
	size_t nseen, capseen;     /* capseen: a power of 2 */
	unsigned seg_bits;         /* bits a compiled segment reads at most */
	size_t merge_cap;          /* bytes a merged segment's tables may take */
	size_t table_bytes;        /* of texts and entries rendered (known_bytes) */
} fast_build;

static const char *known_bytes(fast_build *F, char kind, const char *b, size_t n, size_t pad);

/* Segment g's entries with their texts inside (16 bytes a key), when
 * every text has 15 characters or fewer; NULL when not (or no memory). */
static const uint8_t *seg_texts(fast_build *F, const fseg *g)
{
	if (g->tx)
		return g->tx;
	unsigned bits = 0;
	for (unsigned i = 0; i < g->nin; i++)
		bits += (unsigned)__builtin_popcountll(g->in[i].mask);
	if (bits > FAST_SEG_BITS + 4)
		return NULL;
	size_t nkeys = (size_t)1 << bits;
	for (size_t k = 0; k < nkeys; k++)
		if (g->ent[k] != FAST_NOSEG && (g->ent[k] & 255u) > 15)
			return NULL;
	uint8_t *tx = calloc(nkeys, 16);
	if (!tx) {
		F->ok = false;
		return NULL;
	}
	for (size_t k = 0; k < nkeys; k++) {
		uint32_t e = g->ent[k];
		if (e == FAST_NOSEG) {
			tx[16 * k + 15] = FAST_TX_NONE;
			continue;
		}
		memcpy(tx + 16 * k, g->pool + (e >> 8), e & 255u);
		tx[16 * k + 15] = (uint8_t)(e & 255u);
	}
	const uint8_t *keep = (const uint8_t *)known_bytes(F, 'T', (const char *)tx, 16 * nkeys, 0);
	free(tx);
	((fseg *)g)->tx = keep; /* made once, shared by every op of g */
	return keep;
}

/* The op that prints segment g: it carries what printing needs, so that
 * it is one cache line read (the entries and texts one more). */
static fop seg_op(fast_build *F, const fseg *g)
{
	fop r = {.kind = F_SEG, .seg = g, .word = g->px.pw[0], .shift = g->px.pw[1],
	         .pn = g->px.n, .pn0 = g->px.pn0, .mask = g->px.pm[0], .pm1 = g->px.pm[1],
	         .depth = g->depth, .slots = g->slots, .ent = g->ent, .pool = g->pool};
	const uint8_t *tx = seg_texts(F, g);
	if (tx) {
		r.kind = F_SEGT;
		r.tx = tx;
	}
	return r;
}

/* Room for n ops (zeroed), the first at the start of a cache line, so
 * that each op takes one (NULL: out of memory). */
static fop *fast_ops_alloc(fast_build *F, size_t n)
{
	char *p = codec_alloc(F->c, n * sizeof(fop) + 48); /* the arena aligns to 16 */
	if (!p)
		return NULL;
	return (fop *)(p + (64 - (uintptr_t)p % 64) % 64);
}

/* One op of a segment being gathered. */
typedef struct seg_item {
	const cop *op;
	const cpop *po;
} seg_item;

typedef struct seg_acc {
	seg_item items[64];
	unsigned n;
	unsigned nr;
	struct { unsigned low, width; } r[FAST_SEG_INPUTS];
	unsigned bits, depth, slots;
	unsigned maxbits;         /* of its inputs; 0: FAST_SEG_BITS */
} seg_acc;

/* Adds own bits [low, low+width) to the segment's inputs. */
static bool acc_range(seg_acc *a, unsigned low, unsigned width)
{
	for (unsigned i = 0; i < a->nr; i++)
		if (a->r[i].low == low && a->r[i].width == width)
			return true;
	if (a->nr == FAST_SEG_INPUTS || a->bits + width > (a->maxbits ? a->maxbits : FAST_SEG_BITS) ||
	    low / 64 != (low + width - 1) / 64)
		return false;
	a->r[a->nr].low = low;
	a->r[a->nr].width = width;
	a->nr++;
	a->bits += width;
	return true;
}

/* The own bits a pure expression reads (through derived fields);
 * false when it reads params or the generation. */
static bool acc_expr(seg_acc *a, const cleaf *lf, unsigned v, const cplan *pl, int k,
                     unsigned depth)
{
	const cexpr *ce = &lf->ex[k];
	if (depth > 16 || (!ce->pure[v] && ce->is_case) || !ce->prog ||
	    spec_expr_uses_gpu_id(ce->e))
		return false;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		int ss, slot;
		uint64_t truth = pl ? pl->truth : 0, known = pl ? ~(uint64_t)0 : 0;
		if (!ref_resolve(lf, v, &truth, &known, &lf->refs[ce->ref0 + i], NULL, &ss, &slot) ||
		    ss < 0)
			return false;
		const cstep *st = &lf->steps[ss];
		const spec_field *f = st->field->f;
		if (f->kind == SPEC_DERIVED) {
			if (st->fex < 0 || !acc_expr(a, lf, v, pl, st->fex, depth + 1))
				return false;
		} else if (f->kind != SPEC_FIELD || !acc_range(a, f->low, f->high - f->low + 1)) {
			return false;
		}
	}
	return true;
}

/* Whether a field's value prints the same wherever the instruction is
 * (no branch labels) and without a newline. */
static bool prints_plainly(const cfield *f)
{
	switch (f->type) {
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		return !f->disp_nl;
	case SPEC_TYPE_ENUM:
		return !f->en || !f->en->nl;
	case SPEC_TYPE_INT:
	case SPEC_TYPE_UINT:
	case SPEC_TYPE_HEX:
	case SPEC_TYPE_UNKNOWN:
	case SPEC_TYPE_OFFSET:
	case SPEC_TYPE_UOFFSET:
	case SPEC_TYPE_FLOAT:
	case SPEC_TYPE_CUSTOM:
		return true;
	default:
		return false;
	}
}

/* Adds op (its plan op po) to the segment when its text depends on own
 * bits only and they fit; false (nothing added) otherwise. */
static bool acc_add(fast_build *F, seg_acc *a, const cleaf *lf, unsigned v, const cplan *pl,
                    const cop *op, const cpop *po)
{
	if (a->n == 64)
		return false;
	seg_acc t = *a;
	switch (po->kind) {
	case PO_LIT:
		if (op->nl >= 0)
			return false;
		break;
	case PO_NAME:
		if (op->align || lf->namenl >= 0)
			return false;
		break;
	case PO_BOOL:
	case PO_ENUM:
	case PO_UINT:
	case PO_HEX:
	case PO_STEP: {
		const cstep *st = &lf->steps[po->arg];
		const cfield *f = st->field;
		const spec_field *sf = f->f;
		if (op->align)
			return false;
		if (sf->kind == SPEC_ASSERT)
			break;
		if (f->type == SPEC_TYPE_BITSET) {
			const cmemo *mm = F->c->memo[f->root_index];
			if (!mm || f->nparams || sf->kind != SPEC_FIELD || f->width > f->root->bitset->size ||
			    !acc_range(&t, sf->low, sf->high - sf->low + 1))
				return false;
			if (1 + mm->depth > t.depth)
				t.depth = 1 + mm->depth;
			if (mm->slots > t.slots)
				t.slots = mm->slots;
			break;
		}
		if (!prints_plainly(f))
			return false;
		if (sf->kind == SPEC_DERIVED) {
			if (st->fex < 0 || !acc_expr(&t, lf, v, pl, st->fex, 0))
				return false;
		} else if (sf->kind != SPEC_FIELD || !acc_range(&t, sf->low, sf->high - sf->low + 1)) {
			return false;
		}
		break;
	}
	default:
		return false;
	}
	t.items[t.n++] = (seg_item){op, po};
	*a = t;
	return true;
}

/* The key of ranges a->r: in bit order, neighbours in one word merged
 * (fewer gathers: the key's layout is ours to choose).  Returns the
 * number of inputs written to in. */
static unsigned key_layout(const seg_acc *a, fseg_in *in)
{
	unsigned order[FAST_SEG_INPUTS], at = 0, n = 0;
	for (unsigned i = 0; i < a->nr; i++) {
		unsigned j = i;
		while (j > 0 && a->r[order[j - 1]].low > a->r[i].low) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (unsigned k = 0; k < a->nr; k++) {
		unsigned low = a->r[order[k]].low, width = a->r[order[k]].width;
		fseg_in *prev = n ? &in[n - 1] : NULL;
		if (prev && prev->word == low / 64 &&
		    prev->shift + (unsigned)__builtin_popcountll(prev->mask) == low % 64) {
			prev->mask = (prev->mask << width) | (((uint64_t)1 << width) - 1);
		} else {
			in[n++] = (fseg_in){(uint8_t)(low / 64), (uint8_t)(low % 64), (uint8_t)at,
			                    ((uint64_t)1 << width) - 1};
		}
		at += width;
	}
	return n;
}

/* Words with the bits of key spread as in[0..n) say. */
static void key_words(const fseg_in *in, unsigned n, uint32_t key, uint64_t *w, unsigned nw)
{
	for (unsigned i = 0; i < nw; i++)
		w[i] = 0;
	for (unsigned i = 0; i < n; i++)
		w[in[i].word] |= ((key >> in[i].at) & in[i].mask) << in[i].shift;
}

/* A derived value of a leaf under a plan, as a table over the few own
 * bits it reads (NULL: it reads more, or params, or the generation). */
static const fvtab *make_vtab(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                              const cstep *st)
{
	seg_acc t;
	memset(&t, 0, sizeof t);
	t.maxbits = FAST_VTAB_BITS;
	if (!pl || st->field->f->kind != SPEC_DERIVED || st->fex < 0 ||
	    !acc_expr(&t, lf, v, pl, st->fex, 0))
		return NULL;
	fvtab *vt = codec_alloc(F->c, sizeof *vt);
	size_t nkeys = (size_t)1 << t.bits;
	uint64_t *val = codec_alloc(F->c, nkeys * sizeof *val);
	if (!vt || !val) {
		F->ok = false;
		return NULL;
	}
	vt->nin = key_layout(&t, vt->in);
	for (uint32_t key = 0; key < nkeys; key++) {
		uint64_t w[CODEC_MAX_WORDS];
		key_words(vt->in, vt->nin, key, w, F->c->nw);
		fscope fs = {.lf = lf, .val = w, .v = v, .pl = pl, .truth = pl->truth,
		             .known = ~(uint64_t)0};
		if (!fast_step_value(F->x, &fs, st, &val[key]))
			return NULL;
	}
	vt->val = val;
	return vt;
}

/* Renders one op of a segment over words w; false when its text cannot
 * be part of a segment's (a nested field that would raise an issue, a
 * newline, too long). */
static bool render_item(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                        const seg_item *it, const uint64_t *w, char *buf, size_t *len)
{
	const codec *c = F->c;
	cx *x = F->x;
	fscope s = {.lf = lf, .val = w, .v = v, .pl = pl, .truth = pl->truth,
	            .known = ~(uint64_t)0};
	cx_out o = {.buf = buf, .cap = FAST_SEG_LEN + 1};
	x->out = &o;
	const cop *op = it->op;
	const cpop *po = it->po;
	if (po->kind == PO_LIT) {
		out_raw(&o, op->text, op->len);
	} else if (po->kind == PO_NAME) {
		out_raw(&o, lf->name, lf->namelen);
	} else {
		const cstep *st = &lf->steps[po->arg];
		const cfield *f = st->field;
		uint64_t val;
		if (f->f->kind == SPEC_ASSERT) {
			/* prints nothing */
		} else if (!fast_step_value(x, &s, st, &val)) {
			return false;
		} else if (f->type == SPEC_TYPE_BITSET) {
			const cmemo *mm = c->memo[f->root_index];
			const cmemo_ent *e = &mm->ent[val];
			if (e->noleaf || e->nerr || e->nl)
				return false;
			out_raw(&o, mm->pool + e->text, e->len);
		} else {
			cx_print_value(x, f, val);
		}
	}
	*len = o.len;
	return o.total <= FAST_SEG_LEN && !memchr(buf, '\n', o.len);
}

/* The texts of one op of a segment, per value of the bits it reads. */
typedef struct item_tab {
	seg_acc in;               /* only its ranges are used */
	uint32_t *ent;            /* per value: offset << 8 | length in the texts; FAST_NOSEG */
} item_tab;

/* The value of the ranges of t in words w, the first range lowest. */
static uint32_t item_key(const item_tab *t, const uint64_t *w)
{
	uint32_t k = 0;
	unsigned at = 0;
	for (unsigned i = 0; i < t->in.nr; i++) {
		unsigned low = t->in.r[i].low, width = t->in.r[i].width;
		k |= (uint32_t)((w[low / 64] >> (low % 64)) & (((uint64_t)1 << width) - 1)) << at;
		at += width;
	}
	return k;
}

/* A hash of n bytes, eight at a time (signatures and texts at load). */
static uint64_t sig_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n;
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t v;
		memcpy(&v, s, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	uint64_t t = 0;
	memcpy(&t, s, n);
	h = (h ^ t) * 0xc4ceb9fe1a85ec53u;
	return h ^ (h >> 29);
}

/* What a segment's texts depend on: the inputs and each op's identity.
 * Plain fields, literal text and memoised nested fields print the same
 * in any leaf (leaves that inherit them share the segment); the name
 * and derived values are the leaf's, under its plan. */
static size_t seg_signature(const cleaf *lf, unsigned v, const cplan *pl, const seg_acc *a,
                            char *sig, size_t cap)
{
	size_t n = 0;
	bool own = false;
	CODEC_SIG_PUT(sig, n, cap, 'S');
	for (unsigned i = 0; i < a->n; i++) {
		const cpop *po = a->items[i].po;
		own |= po->kind == PO_NAME ||
		       ((po->kind == PO_STEP || (po->kind >= PO_BOOL && po->kind <= PO_HEX)) &&
		        lf->steps[po->arg].field->f->kind == SPEC_DERIVED);
	}
	if (own) {
		CODEC_SIG_PUT(sig, n, cap, lf);
		CODEC_SIG_PUT(sig, n, cap, v);
		CODEC_SIG_PUT(sig, n, cap, pl->truth);
	}
	for (unsigned i = 0; i < a->nr; i++) {
		CODEC_SIG_PUT(sig, n, cap, a->r[i].low);
		CODEC_SIG_PUT(sig, n, cap, a->r[i].width);
	}
	for (unsigned i = 0; i < a->n; i++) {
		const cpop *po = a->items[i].po;
		CODEC_SIG_PUT(sig, n, cap, po->kind);
		if (po->kind == PO_LIT) {
			CODEC_SIG_PUT(sig, n, cap, a->items[i].op->text);
			CODEC_SIG_PUT(sig, n, cap, a->items[i].op->len);
		} else if (po->kind != PO_NAME) {
			const cfield *f = lf->steps[po->arg].field;
			CODEC_SIG_PUT(sig, n, cap, f->f);
			CODEC_SIG_PUT(sig, n, cap, f->type);
			CODEC_SIG_PUT(sig, n, cap, f->en);
			CODEC_SIG_PUT(sig, n, cap, f->root_index);
			if (f->f->kind == SPEC_DERIVED)
				CODEC_SIG_PUT(sig, n, cap, po->arg);
		}
	}
	return n;
}

/* What was built before with this signature (a segment, an inline's
 * programs: the signature says which), or NULL. */
static const void *known_find(const fast_build *F, const char *sig, size_t siglen, uint64_t h)
{
	if (!F->capknown)
		return NULL;
	for (size_t i = h & (F->capknown - 1); F->known[i].val; i = (i + 1) & (F->capknown - 1))
		if (F->known[i].hash == h && F->known[i].siglen == siglen &&
		    !memcmp(F->known[i].sig, sig, siglen))
			return F->known[i].val;
	return NULL;
}

/* Remembers g under its signature (only memory can fail). */
static void known_add(fast_build *F, const char *sig, size_t siglen, uint64_t h, const void *g)
{
	if (2 * (F->nknown + 1) > F->capknown) {
		size_t cap = F->capknown ? 2 * F->capknown : 1024;
		struct known_seg *k = calloc(cap, sizeof *k);
		if (!k) {
			F->ok = false;
			return;
		}
		for (size_t i = 0; i < F->capknown; i++) {
			if (!F->known[i].val)
				continue;
			size_t j = F->known[i].hash & (cap - 1);
			while (k[j].val)
				j = (j + 1) & (cap - 1);
			k[j] = F->known[i];
		}
		free(F->known);
		F->known = k;
		F->capknown = cap;
	}
	char *copy = codec_alloc(F->c, siglen + 1);
	if (!copy) {
		F->ok = false;
		return;
	}
	memcpy(copy, sig, siglen);
	size_t j = h & (F->capknown - 1);
	while (F->known[j].val)
		j = (j + 1) & (F->capknown - 1);
	F->known[j] = (struct known_seg){h, copy, siglen, g};
	F->nknown++;
}

/* Bytes b[0..n) kept in the codec with pad readable bytes after them,
 * once for all the tables that hold the same ones (the same texts at
 * other bits: another instruction's register field, say); NULL (memory
 * noted) when there is no room. */
static const char *known_bytes(fast_build *F, char kind, const char *b, size_t n, size_t pad)
{
	char sig[1 + sizeof(uint64_t) + sizeof(size_t)];
	size_t sl = 0;
	uint64_t h = sig_hash(b, n);
	CODEC_SIG_PUT(sig, sl, sizeof sig, kind);
	CODEC_SIG_PUT(sig, sl, sizeof sig, h);
	CODEC_SIG_PUT(sig, sl, sizeof sig, n);
	const char *same = known_find(F, sig, sl, h);
	if (same && !memcmp(same, b, n))
		return same;
	char *keep = n < (1u << 24) ? codec_alloc(F->c, n + pad) : NULL;
	if (!keep) {
		F->ok = false;
		return NULL;
	}
	memcpy(keep, b, n);
	F->table_bytes += n;
	if (!same)
		known_add(F, sig, sl, h, keep);
	return keep;
}

/* A segment of nkeys texts being built: its entries and scratch room for
 * the longest texts (NULL, memory noted, when there is none). */
static fseg *seg_begin(fast_build *F, size_t nkeys, uint32_t **ent, char **tmp)
{
	fseg *g = codec_alloc(F->c, sizeof *g);
	*ent = malloc(nkeys * sizeof **ent); /* kept by seg_finish */
	*tmp = malloc(nkeys * (FAST_SEG_LEN + 1) + FAST_PAD);
	if (!g || !*ent || !*tmp) {
		free(*ent);
		free(*tmp);
		*ent = NULL;
		*tmp = NULL;
		F->ok = false;
		return NULL;
	}
	g->ent = *ent;
	return g;
}

static uint64_t low_mask(unsigned width);

/* The bit extractions of segment g, whose runs are in key order. */
static void seg_pext_masks(fseg *g)
{
	g->px.n = 0;
	unsigned at = 0, next = 0; /* the key's next bit; the lowest bit a run may start at */
	for (unsigned i = 0; i < g->nin; i++) {
		const fseg_in *in = &g->in[i];
		unsigned width = (unsigned)__builtin_popcountll(in->mask), pos = in->word * 64u + in->shift;
		if (in->at != at || pos < next || in->shift + width > 64)
			return; /* not in key order (cannot happen after seg_canonical) */
		at += width;
		next = pos + width;
	}
	uint8_t pw[2] = {0, 0};
	uint64_t pm[2] = {0, 0};
	unsigned np = 0;
	for (unsigned i = 0; i < g->nin; i++) {
		if (!np || g->in[i].word != pw[np - 1]) {
			if (np == 2)
				return;
			pw[np++] = g->in[i].word;
		}
		pm[np - 1] |= g->in[i].mask << g->in[i].shift;
	}
	if (!np)
		return;
	g->px.n = (uint8_t)np;
	g->px.pw[0] = pw[0];
	g->px.pw[1] = np == 2 ? pw[1] : pw[0];
	g->px.pm[0] = pm[0];
	g->px.pm[1] = np == 2 ? pm[1] : 0;
	g->px.pn0 = (uint8_t)__builtin_popcountll(pm[0]);
}

/* Segment g keyed by the bits it reads in order (a joined segment's
 * parts may read them in any order, or the same bits twice), its table
 * rebuilt when that changes it; then its bit extractions. */
static void seg_canonical(fast_build *F, fseg *g)
{
	uint64_t M[CODEC_MAX_WORDS] = {0};
	unsigned top = 0;
	for (unsigned i = 0; i < g->nin; i++) {
		M[g->in[i].word] |= g->in[i].mask << g->in[i].shift;
		if (g->in[i].word >= top)
			top = g->in[i].word + 1u;
	}
	fseg_in in[FAST_SEG_INPUTS];
	unsigned n = 0, at = 0;
	for (unsigned w = 0; w < top; w++)
		for (uint64_t m = M[w]; m;) {
			unsigned lo = (unsigned)__builtin_ctzll(m), len = 0;
			while (lo + len < 64 && ((m >> (lo + len)) & 1))
				len++;
			if (n == FAST_SEG_INPUTS)
				return; /* cannot happen: no more runs than inputs */
			in[n++] = (fseg_in){(uint8_t)w, (uint8_t)lo, (uint8_t)at, low_mask(len)};
			at += len;
			m &= ~(low_mask(len) << lo);
		}
	bool same = n == g->nin;
	for (unsigned i = 0; same && i < n; i++)
		same = in[i].word == g->in[i].word && in[i].shift == g->in[i].shift &&
		       in[i].at == g->in[i].at && in[i].mask == g->in[i].mask;
	if (!same) {
		uint32_t *ent = malloc(((size_t)1 << at) * sizeof *ent);
		if (!ent) {
			F->ok = false;
			return;
		}
		for (uint32_t k = 0; k < (uint32_t)1 << at; k++) {
			uint64_t w[CODEC_MAX_WORDS];
			key_words(in, n, k, w, top);
			ent[k] = g->ent[runs_key(g->in, g->nin, w)];
		}
		memcpy(g->in, in, sizeof in);
		g->nin = n;
		free((uint32_t *)g->ent);
		g->ent = ent;
	}
	seg_pext_masks(g);
}

/* Moves texts tmp[0..used) where segment g keeps them (tmp freed). */
static const fseg *seg_finish(fast_build *F, fseg *g, char *tmp, size_t used)
{
	g->pool = known_bytes(F, 'P', tmp, used, FAST_PAD);
	free(tmp);
	if (g->pool)
		seg_canonical(F, g);
	/* the entries (seg_begin's, or seg_canonical's) kept once */
	uint32_t *ent = (uint32_t *)g->ent;
	unsigned bits = 0;
	for (unsigned i = 0; i < g->nin; i++)
		bits += (unsigned)__builtin_popcountll(g->in[i].mask);
	g->ent = F->ok ? (const uint32_t *)known_bytes(F, 'E', (const char *)ent,
	                                                ((size_t)1 << bits) * sizeof *ent, 0)
	               : NULL;
	free(ent);
	return F->ok ? g : NULL;
}

/* The segment of the gathered ops, rendered (or found rendered). */
static const fseg *make_seg(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                            const seg_acc *a)
{
	char sig[2048];
	size_t siglen = seg_signature(lf, v, pl, a, sig, sizeof sig);
	if (siglen > sizeof sig)
		return NULL;
	uint64_t h = sig_hash(sig, siglen);
	const fseg *found = known_find(F, sig, siglen, h);
	if (found)
		return found;
	size_t nkeys = (size_t)1 << a->bits;
	uint32_t *ent;
	char *tmp;
	fseg *g = seg_begin(F, nkeys, &ent, &tmp);
	if (!g)
		return NULL;
	g->depth = a->depth;
	g->slots = a->slots;
	g->nin = key_layout(a, g->in);
	/* Each op's texts over the bits it reads, rendered once; a key's
	 * text is theirs joined. */
	item_tab *its = calloc(a->n, sizeof *its);
	char *itext = NULL;
	size_t iused = 0, icap = 0;
	bool ok = its != NULL;
	for (unsigned i = 0; ok && i < a->n; i++) {
		item_tab *t = &its[i];
		ok = acc_add(F, &t->in, lf, v, pl, a->items[i].op, a->items[i].po);
		size_t nsub = (size_t)1 << t->in.bits;
		t->ent = ok ? malloc(nsub * sizeof *t->ent) : NULL;
		ok = ok && t->ent;
		for (uint32_t sub = 0; ok && sub < nsub; sub++) {
			if (icap - iused < FAST_SEG_LEN + 1) {
				icap = 2 * icap + 4096;
				char *nt = realloc(itext, icap);
				if (!nt) {
					ok = false;
					break;
				}
				itext = nt;
			}
			uint64_t w[CODEC_MAX_WORDS];
			for (unsigned q = 0; q < F->c->nw; q++)
				w[q] = 0;
			unsigned at2 = 0;
			for (unsigned r = 0; r < t->in.nr; r++) {
				unsigned low = t->in.r[r].low, width = t->in.r[r].width;
				w[low / 64] |= ((sub >> at2) & (((uint64_t)1 << width) - 1)) << (low % 64);
				at2 += width;
			}
			size_t len;
			if (render_item(F, lf, v, pl, &a->items[i], w, itext + iused, &len)) {
				t->ent[sub] = (uint32_t)(iused << 8) | (uint32_t)len;
				iused += len;
			} else {
				t->ent[sub] = FAST_NOSEG;
			}
		}
	}
	/* texts already in the pool, by hash: the same text is kept once */
	size_t hcap = 2 * nkeys;
	uint32_t *seen = ok ? malloc(hcap * sizeof *seen) : NULL;
	if (!seen) {
		for (unsigned i = 0; its && i < a->n; i++)
			free(its[i].ent);
		free(its);
		free(itext);
		free(tmp);
		free(ent);
		F->ok = false;
		return NULL;
	}
	for (size_t i = 0; i < hcap; i++)
		seen[i] = FAST_NOSEG;
	size_t used = 0;
	uint64_t w[CODEC_MAX_WORDS];
	for (uint32_t key = 0; key < nkeys; key++) {
		key_words(g->in, g->nin, key, w, F->c->nw);
		size_t len = 0;
		bool fits = true;
		for (unsigned i = 0; fits && i < a->n; i++) {
			uint32_t e = its[i].ent[item_key(&its[i], w)];
			fits = e != FAST_NOSEG && len + (e & 255u) <= FAST_SEG_LEN;
			if (fits)
				memcpy(tmp + used + len, itext + (e >> 8), e & 255u);
			len += e & 255u;
		}
		if (!fits) {
			ent[key] = FAST_NOSEG;
			continue;
		}
		size_t off = used;
		size_t slot = (size_t)sig_hash(tmp + used, len) & (hcap - 1);
		for (; seen[slot] != FAST_NOSEG; slot = (slot + 1) & (hcap - 1)) {
			uint32_t e = seen[slot];
			if ((e & 255u) == len && !memcmp(tmp + (e >> 8), tmp + used, len)) {
				off = e >> 8;
				break;
			}
		}
		ent[key] = (uint32_t)(off << 8) | (uint32_t)len;
		if (off == used) {
			seen[slot] = ent[key];
			used += len;
		}
	}
	free(seen);
	for (unsigned i = 0; i < a->n; i++)
		free(its[i].ent);
	free(its);
	free(itext);
	if (!seg_finish(F, g, tmp, used))
		return NULL;
	known_add(F, sig, siglen, h, g);
	return g;
}

/* Text copied where FAST_PAD bytes past its end can be read. */
static const char *padded(fast_build *F, const char *s, size_t n)
{
	char *p = codec_alloc(F->c, n + FAST_PAD);
	if (!p) {
		F->ok = false;
		return NULL;
	}
	memcpy(p, s, n);
	return p;
}

/* Emits the gathered ops: one text when they print no field, else a
 * segment (or, when that is not worth it, the ops one by one). */
static bool flush_acc(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl, seg_acc *a,
                      fop *out, uint32_t *n)
{
	if (!a->n)
		return true;
	if (!a->bits) {
		/* literal text, the name and fields that print nothing */
		char buf[4096];
		size_t len = 0;
		for (unsigned i = 0; i < a->n; i++) {
			const cop *op = a->items[i].op;
			const char *t = NULL;
			size_t tl = 0;
			if (a->items[i].po->kind == PO_LIT) {
				t = op->text;
				tl = op->len;
			} else if (a->items[i].po->kind == PO_NAME) {
				t = lf->name;
				tl = lf->namelen;
			}
			if (len + tl > sizeof buf)
				return false;
			if (tl)
				memcpy(buf + len, t, tl);
			len += tl;
		}
		const char *p = padded(F, buf, len);
		if (!p)
			return false;
		out[(*n)++] = (fop){.kind = F_TEXT, .text = p, .len = (uint32_t)len, .col = -1};
	} else {
		const fseg *g = make_seg(F, lf, v, pl, a);
		if (!g)
			return false;
		out[(*n)++] = seg_op(F, g);
	}
	memset(a, 0, sizeof *a);
	a->maxbits = F->seg_bits;
	return true;
}

/* The first word of a bitset's bits, when the others are all 0. */
static bool first_word(const spec_bits *b, uint64_t *w)
{
	*w = b->nwords ? b->w[0] : 0;
	for (size_t i = 1; i < b->nwords; i++)
		if (b->w[i])
			return false;
	return true;
}

/* A bitset field's root, when it has one leaf: how to check it and bind
 * its params without the classifier and the look-ups (NULL: not so). */
static const fsub *make_sub_leaf(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                                const cpop *po, const spec_bitset *b);

/* The F_SUB of a bitset field whose root has one leaf (NULL: several,
 * or memoised). */
static const fsub *make_sub(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                           const cpop *po)
{
	const cfield *f = lf->steps[po->arg].field;
	if (f->root->nleaves != 1 || (F->c->memo[f->root_index] && !f->nparams))
		return NULL;
	return make_sub_leaf(F, lf, v, pl, po, f->root->leaves[0]);
}

/* The same for each leaf of a root with several (NULL: one, or
 * memoised, or too many). */
static const fsub *const *make_subs(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                                    const cpop *po)
{
	const cfield *f = lf->steps[po->arg].field;
	size_t n = f->root->nleaves;
	if (n < 2 || n > 64 || (F->c->memo[f->root_index] && !f->nparams))
		return NULL;
	const fsub **subs = codec_alloc(F->c, n * sizeof *subs);
	if (!subs) {
		F->ok = false;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		subs[i] = make_sub_leaf(F, lf, v, pl, po, f->root->leaves[i]);
	return subs;
}

/* How a bitset field's nested scope would be bound when its value
 * matches leaf b: its check and its params' sources here. */
static const fsub *make_sub_leaf(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                                const cpop *po, const spec_bitset *b)
{
	const codec *c = F->c;
	const cstep *st = &lf->steps[po->arg];
	const cfield *f = st->field;
	const cleaf *only = b->index < c->m->nbitsets ? c->leaf[b->index] : NULL;
	fsub *sb = codec_alloc(F->c, sizeof *sb);
	fbind *bind = only ? codec_alloc(F->c, (only->nbn + 1) * sizeof *bind) : NULL;
	if (!only || !sb || !bind) {
		F->ok = F->ok && only;
		return NULL;
	}
	if (!first_word(&b->match, &sb->match) || !first_word(&b->mask, &sb->mask) ||
	    !first_word(&b->dontcare, &sb->dontcare))
		return NULL;
	sb->only = only;
	sb->gmin = b->gen.min;
	sb->gmax = b->gen.max;
	sb->all = true;
	unsigned nb = 0;
	for (unsigned j = 0; j < only->nbn; j++) {
		size_t i = 0;
		while (i < f->nparams && f->params[i].as != only->pnames[j])
			i++;
		const cpop *src = i < f->nparams && po->psrc ? &po->psrc[i] : NULL;
		if (i == f->nparams)
			sb->absent |= (uint32_t)1 << j;
		fbind *bd = &bind[nb];
		*bd = (fbind){.j = (uint8_t)j};
		if (src && src->kind == PO_STEP) {
			const cstep *ps = &lf->steps[src->arg];
			const spec_field *sf = ps->field->f;
			bd->field = ps->field;
			bd->arg = src->arg;
			bd->kind = FB_STEP;
			bd->vt = make_vtab(F, lf, v, pl, ps);
			if (sf->kind == SPEC_FIELD && sf->low / 64 == sf->high / 64) {
				bd->kind = FB_BITS;
				bd->word = (uint8_t)(sf->low / 64);
				bd->shift = (uint8_t)(sf->low % 64);
				bd->mask = ps->field->width >= 64 ? ~(uint64_t)0
				                                  : ((uint64_t)1 << ps->field->width) - 1;
			}
			nb++;
		} else if (src && src->kind == PO_PARAM) {
			bd->kind = FB_PARAM;
			bd->arg = src->arg;
			nb++;
		} else if (j < only->npn) {
			sb->all = false;
		}
	}
	sb->bind = bind;
	sb->nbind = nb;
	return sb;
}

/* One op that is not part of a segment. */
static fop single_op(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl, const cop *op,
                     const cpop *po)
{
	switch (po->kind) {
	case PO_LIT: {
		const char *p = padded(F, op->text, op->len);
		return (fop){.kind = F_TEXT, .text = p, .len = op->len,
		             .col = op->nl >= 0 ? (int32_t)(op->len - (unsigned)op->nl) : -1};
	}
	case PO_NAME:
		return (fop){.kind = F_TEXT, .text = padded(F, lf->name, lf->namelen),
		             .len = (uint32_t)lf->namelen, .align = op->align,
		             .col = lf->namenl >= 0 ? (int32_t)(lf->namelen - (size_t)lf->namenl) : -1};
	case PO_ALIGN:
		return (fop){.kind = F_PAD, .align = op->align};
	case PO_BOOL:
	case PO_ENUM:
	case PO_UINT:
	case PO_HEX:
		return (fop){.kind = (uint8_t)(F_BOOL + (po->kind - PO_BOOL)), .word = po->word,
		             .shift = po->shift, .mask = po->mask, .arg = po->arg,
		             .align = op->align, .field = lf->steps[po->arg].field};
	case PO_STEP: {
		const cfield *f = lf->steps[po->arg].field;
		const spec_field *sf = f->f;
		if (f->type == SPEC_TYPE_BITSET && sf->kind == SPEC_FIELD &&
		    sf->low / 64 == sf->high / 64)
			return (fop){.kind = F_SUB, .arg = po->arg, .align = op->align, .po = po,
			             .word = (uint8_t)(sf->low / 64), .shift = (uint8_t)(sf->low % 64),
			             .mask = f->width >= 64 ? ~(uint64_t)0
			                                    : ((uint64_t)1 << f->width) - 1,
			             .sub = make_sub(F, lf, v, pl, po), .subs = make_subs(F, lf, v, pl, po),
			             .field = f};
		return (fop){.kind = F_STEP, .arg = po->arg, .align = op->align, .po = po,
		             .vt = make_vtab(F, lf, v, pl, &lf->steps[po->arg])};
	}
	case PO_PARAM:
		return (fop){.kind = F_PARAM, .arg = po->arg, .align = op->align, .text = op->text,
		             .len = op->len};
	default:
		break;
	}
	return (fop){.kind = F_BAIL};
}

static bool compile_plan(fast_build *F, const cleaf *lf, unsigned v, cplan *pl)
{
	const cdstep *d = &lf->ds[pl->ds];
	fop *out = fast_ops_alloc(F, d->nops + 2);
	if (!out) {
		F->ok = false;
		return false;
	}
	uint32_t n = 0;
	seg_acc a;
	memset(&a, 0, sizeof a);
	a.maxbits = F->seg_bits;
	const cop *op = lf->ops + d->op0;
	for (uint32_t i = 0; i < d->nops; i++) {
		const cpop *po = &pl->ops[i];
		if (acc_add(F, &a, lf, v, pl, &op[i], po))
			continue;
		if (!flush_acc(F, lf, v, pl, &a, out, &n))
			return false;
		if (acc_add(F, &a, lf, v, pl, &op[i], po))
			continue;
		out[n++] = single_op(F, lf, v, pl, &op[i], po);
	}
	if (!flush_acc(F, lf, v, pl, &a, out, &n))
		return false;
	if (!F->ok)
		return false;
	out[n] = (fop){.kind = F_END};
	pl->fops = out;
	pl->nfops = n;
	return true;
}

/* ------------------------------------------------------------- inlining
 *
 * A nested field whose root has one leaf, whose params all come from
 * bits of the scope, is printed inside the scope: its leaf's match is
 * checked on the field's bits, its plan key gathered from the scope's
 * bits, and the program of that plan run with every range moved to the
 * scope's bits.  Nested fields inside it are inlined the same way.
 */

/* Where the bits of an inlined scope are in the scope that runs it. */
typedef struct fmap {
	unsigned base, width;      /* its bit b is bit base + b, for b < width */
	unsigned depth, slots;     /* the scopes and cache slots up to and with it */
	struct {
		bool ok;
		unsigned low, width;
		const cfield *f;
		const fvtab *vt;   /* not bits: a table over bits of the scope */
	} p[CODEC_MAX_PNAMES];     /* its params, as bits of the scope */
} fmap;

static bool map_range(const fmap *m, unsigned low, unsigned width, uint8_t *word, uint8_t *shift);

/* Table vt over bits of an inlined scope, moved to the running scope's
 * by m (NULL: it is the running scope's already). */
static const fvtab *reloc_vtab(fast_build *F, const fvtab *vt, const fmap *m)
{
	if (!m)
		return vt;
	fvtab *r = codec_alloc(F->c, sizeof *r);
	if (!r) {
		F->ok = false;
		return NULL;
	}
	*r = *vt;
	for (unsigned k = 0; k < r->nin; k++)
		if (!map_range(m, r->in[k].word * 64u + r->in[k].shift,
		               (unsigned)__builtin_popcountll(r->in[k].mask), &r->in[k].word,
		               &r->in[k].shift))
			return NULL;
	return r;
}

/* Bits [low, low+width) of an inlined scope, as a word and shift of the
 * running scope (false: not within one word, or beyond the field). */
static bool map_range(const fmap *m, unsigned low, unsigned width, uint8_t *word, uint8_t *shift)
{
	if (!width || width > 64 || low + width > m->width)
		return false;
	unsigned sl = m->base + low;
	if (sl / 64 != (sl + width - 1) / 64)
		return false;
	*word = (uint8_t)(sl / 64);
	*shift = (uint8_t)(sl % 64);
	return true;
}

static uint64_t low_mask(unsigned width)
{
	return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

static const finl *make_inline(fast_build *F, const cleaf *lf, const fop *sop,
                               const fmap *pm);
static void merge_program(fast_build *F, fop *ops, uint32_t *n);

/* The asserts plan cp of leaf L checks (those of the cases its display
 * walk passes that hold). */
static unsigned plan_nasserts(const cleaf *L, const cplan *cp)
{
	unsigned na = 0;
	for (int d = 0; cp->asserts && d <= cp->ds; d++)
		if (L->ds[d].cex < 0 || cx_plan_holds(L, cp, L->ds[d].cex))
			na += L->ds[d].nasserts;
	return na;
}

/* Those asserts as F_ASSERT ops at out, in the order scope_asserts
 * checks them, their bits moved by m; false when one cannot be an op
 * (wider than a word, or its value is). */
static bool assert_ops(fast_build *F, const cleaf *L, const cplan *cp, const fmap *m, fop *out)
{
	uint32_t n = 0;
	for (int d = 0; cp->asserts && d <= cp->ds; d++) {
		if (L->ds[d].cex >= 0 && !cx_plan_holds(L, cp, L->ds[d].cex))
			continue;
		for (uint32_t j = 0; j < L->ds[d].nasserts; j++) {
			const cfield *a = L->asserts[L->ds[d].assert0 + j];
			unsigned aw = a->f->high - a->f->low + 1;
			for (unsigned q = 1; q < F->c->nw; q++)
				if (a->aval[q])
					return false;
			fop *r = &out[n++];
			*r = (fop){.kind = F_ASSERT, .mask = low_mask(aw), .aval = a->aval[0],
			           .field = a, .owner = L, .dsowner = L->ds[d].owner,
			           .ait = cx_itext(F->c, CODEC_ASSERT_MISMATCH, L->ds[d].owner, a)};
			if (!map_range(m, a->f->low, aw, &r->word, &r->shift))
				return false;
		}
	}
	return true;
}
static void absorb_texts(fast_build *F, fop *ops, uint32_t *n);

/* An op that prints field f's value from bits of the running scope. */
static fop value_op(const cfield *f, uint8_t word, uint8_t shift, int32_t align)
{
	fop r = {.kind = F_VAL, .word = word, .shift = shift, .mask = low_mask(f->width),
	         .align = align, .field = f};
	switch (f->type) {
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		if (f->f->display && !f->disp_nl)
			r.kind = F_BOOL;
		break;
	case SPEC_TYPE_ENUM:
		if (f->en && !f->en->nl && f->width <= 8)
			r.kind = F_ENUM;
		break;
	case SPEC_TYPE_UINT: r.kind = F_UINT; break;
	case SPEC_TYPE_HEX: r.kind = F_HEX; break;
	default: break;
	}
	return r;
}

/* The memo op of an F_SUB whose root is memoised (at bits word, shift
 * of the running scope), or kind F_BAIL when it is not. */
static fop memo_op(const fast_build *F, const cleaf *lf, const fop *sop, uint8_t word,
                   uint8_t shift, unsigned depth, unsigned slots)
{
	const cfield *f = lf->steps[sop->arg].field;
	const cmemo *mm = F->c->memo[f->root_index];
	if (!mm || f->nparams || f->width > f->root->bitset->size)
		return (fop){.kind = F_BAIL};
	return (fop){.kind = F_MEMO, .word = word, .shift = shift, .mask = sop->mask,
	             .align = sop->align, .mm = mm, .depth = depth + 1 + mm->depth,
	             .slots = slots + mm->slots, .field = f, .owner = lf};
}

/* Where each bit of a value comes from, while gather_expr runs its
 * program: a constant 0 or 1, or bit b of reference r (GB_REF + r * 64 +
 * b). */
enum { GB_ZERO, GB_ONE, GB_REF };

static bool gb_const(const uint16_t *v, uint64_t *c)
{
	*c = 0;
	for (unsigned b = 0; b < 64; b++) {
		if (v[b] >= GB_REF)
			return false;
		*c |= (uint64_t)v[b] << b;
	}
	return true;
}

/* Fills e->ng, e->g and e->cbits when e's program only shifts its
 * references by constants and joins them with |, + or & with a
 * constant, none of them touching the sign bit: etnaviv's immediates,
 * twenty bits from five fields.  The program's value is then the
 * references' bits moved (checked against the VM at load by the
 * tests' comparison with the interpretation).  Otherwise e->ng stays 0
 * and the VM runs. */
static void gather_expr(fexpr *e)
{
	uint16_t st[CODEC_VM_STACK + 1][64];
	int sp = -1;
	e->ng = 0;
	for (const cins *p = e->prog;; p++) {
		uint64_t c;
		switch (p->op) {
		case VI_CONST:
			if (p->imm < 0 || sp >= CODEC_VM_STACK)
				return;
			sp++;
			for (unsigned b = 0; b < 64; b++)
				st[sp][b] = (uint16_t)((p->imm >> b) & 1);
			continue;
		case VI_REF: {
			if (sp >= CODEC_VM_STACK || (unsigned)p->arg >= e->nrefs || e->ref[p->arg].vt ||
			    e->ref[p->arg].mask >> 63)
				return;
			unsigned w = (unsigned)__builtin_popcountll(e->ref[p->arg].mask);
			sp++;
			for (unsigned b = 0; b < 64; b++)
				st[sp][b] = (uint16_t)(b < w ? GB_REF + (unsigned)p->arg * 64 + b : GB_ZERO);
			continue;
		}
		case VI_END: {
			if (sp != 0)
				return;
			/* runs of consecutive bits of one reference */
			uint64_t cb = 0;
			unsigned ng = 0;
			for (unsigned b = 0; b < 64;) {
				if (st[0][b] < GB_REF) {
					cb |= (uint64_t)st[0][b] << b;
					b++;
					continue;
				}
				unsigned r = (st[0][b] - GB_REF) / 64, sb = (st[0][b] - GB_REF) % 64, n = 1;
				while (b + n < 64 && st[0][b + n] == st[0][b] + n && sb + n < 64)
					n++;
				if (ng == FAST_GATHERS || e->ref[r].shift + sb + n > 64)
					return;
				e->g[ng++] = (fseg_in){e->ref[r].word, (uint8_t)(e->ref[r].shift + sb),
				                       (uint8_t)b, low_mask(n)};
				b += n;
			}
			e->cbits = cb;
			e->ng = ng;
			return;
		}
		case VI_SHL:
		case VI_SHR:
			if (sp < 1 || !gb_const(st[sp], &c) || c > 63)
				return;
			sp--;
			if (p->op == VI_SHL) {
				for (unsigned b = 64; b-- > 0;) {
					if (b >= 63 - c && st[sp][b] != GB_ZERO)
						return; /* into the sign bit or past it */
					st[sp][b] = b >= c ? st[sp][b - c] : GB_ZERO;
				}
			} else {
				if (st[sp][63] != GB_ZERO)
					return;
				for (unsigned b = 0; b < 64; b++)
					st[sp][b] = b + c < 64 ? st[sp][b + c] : GB_ZERO;
			}
			continue;
		case VI_BITOR:
		case VI_ADD:
		case VI_BITAND:
			if (sp < 1)
				return;
			for (unsigned b = 0; b < 64; b++) {
				uint16_t l = st[sp - 1][b], r = st[sp][b];
				if (p->op == VI_BITAND) {
					if (l >= GB_REF && r >= GB_REF)
						return;
					l = l == GB_ZERO || r == GB_ZERO ? GB_ZERO : l == GB_ONE ? r : l;
				} else if (l == GB_ZERO) {
					l = r;
				} else if (r != GB_ZERO) {
					/* both set: | of two constants only (+ would carry) */
					if (p->op == VI_ADD || l >= GB_REF || r >= GB_REF)
						return;
				}
				st[sp - 1][b] = l;
			}
			sp--;
			if (st[sp][63] != GB_ZERO)
				return;
			continue;
		default:
			return;
		}
	}
}

/* Derived field st of inlined leaf lf (variant v, plan pl), its
 * expression's references moved to the running scope's bits by m; NULL
 * when one reads anything else (another derived value, say). */
static const fexpr *reloc_expr(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                               const cstep *st, const fmap *m)
{
	if (st->field->f->kind != SPEC_DERIVED || st->fex < 0)
		return NULL;
	const cexpr *ce = &lf->ex[st->fex];
	if (!ce->prog || ce->nrefs > 64 || (!ce->pure[v] && ce->is_case))
		return NULL;
	fexpr *e = codec_alloc(F->c, sizeof *e + ce->nrefs * sizeof e->ref[0]);
	if (!e) {
		F->ok = false;
		return NULL;
	}
	e->prog = ce->prog;
	e->nrefs = ce->nrefs;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		int ss, slot;
		const uint64_t all = ~(uint64_t)0;
		if (!ref_resolve(lf, v, &pl->truth, &all, &lf->refs[ce->ref0 + i], NULL, &ss, &slot))
			return NULL;
		if (ss >= 0) {
			const spec_field *f = lf->steps[ss].field->f;
			unsigned w = f->high - f->low + 1;
			if (f->kind != SPEC_FIELD || !map_range(m, f->low, w, &e->ref[i].word, &e->ref[i].shift))
				return NULL;
			e->ref[i].mask = low_mask(w);
		} else if (slot >= 0 && slot < (int)CODEC_MAX_PNAMES && m->p[slot].ok) {
			if (m->p[slot].vt) {
				e->ref[i].vt = m->p[slot].vt;
			} else {
				unsigned lo = m->p[slot].low, w = m->p[slot].width;
				if (w > 64 || lo / 64 != (lo + w - 1) / 64)
					return NULL;
				e->ref[i].word = (uint8_t)(lo / 64);
				e->ref[i].shift = (uint8_t)(lo % 64);
				e->ref[i].mask = low_mask(w);
			}
		} else {
			return NULL;
		}
	}
	gather_expr(e);
	return e;
}

/* F_STEP op of leaf lf as an op over the running scope's bits (m maps
 * lf's), into *r: a field's value from bits, a derived value from a table
 * or evaluated over bits; false when it cannot be (a bitset field, or a
 * value known only when the scope runs). */
static bool step_value_op(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                          const fop *op, const fmap *m, fop *r)
{
	const cfield *f = lf->steps[op->arg].field;
	if (f->f->kind == SPEC_ASSERT) {
		*r = (fop){.kind = F_PAD, .align = op->align};
		return true;
	}
	if (f->type == SPEC_TYPE_BITSET)
		return false;
	if (f->f->kind == SPEC_FIELD) {
		uint8_t word, shift;
		if (!map_range(m, f->f->low, f->f->high - f->f->low + 1, &word, &shift))
			return false;
		*r = value_op(f, word, shift, op->align);
		return true;
	}
	if (!op->vt) {
		const fexpr *e = reloc_expr(F, lf, v, pl, &lf->steps[op->arg], m);
		if (!e)
			return false;
		*r = (fop){.kind = F_EXPR, .align = op->align, .field = f, .ex = e};
		return true;
	}
	*r = (fop){.kind = F_TVAL, .align = op->align, .field = f, .vt = reloc_vtab(F, op->vt, m)};
	return r->vt != NULL;
}

/* Program src[0..n) of inlined leaf lf moved to the running scope's bits
 * by m, into out (room for n ops); false when some op cannot be. */
static bool reloc_ops(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl, const fop *src,
                      uint32_t n, const fmap *m, fop *out)
{
	for (uint32_t i = 0; i < n; i++) {
		const fop *op = &src[i];
		fop *r = &out[i];
		*r = *op;
		switch (op->kind) {
		case F_TEXT:
		case F_PAD:
		case F_BAIL:
			break;
		case F_SEG:
		case F_SEGT: {
			fseg *g = codec_alloc(F->c, sizeof *g);
			if (!g) {
				F->ok = false;
				return false;
			}
			*g = *op->seg;
			for (unsigned k = 0; k < g->nin; k++) {
				unsigned low = g->in[k].word * 64u + g->in[k].shift;
				if (!map_range(m, low, (unsigned)__builtin_popcountll(g->in[k].mask),
				               &g->in[k].word, &g->in[k].shift))
					return false;
			}
			if (g->depth) {
				g->depth += m->depth;
				g->slots += m->slots;
			}
			seg_pext_masks(g);
			*r = seg_op(F, g);
			break;
		}
		case F_BOOL:
		case F_ENUM:
		case F_UINT:
		case F_HEX:
			if (!map_range(m, op->word * 64u + op->shift, (unsigned)__builtin_popcountll(op->mask),
			               &r->word, &r->shift))
				return false;
			break;
		case F_PARAM: {
			unsigned j = (unsigned)op->arg;
			uint8_t word, shift;
			if (j < CODEC_MAX_PNAMES && m->p[j].ok && m->p[j].vt &&
			    m->p[j].f->type != SPEC_TYPE_BITSET) {
				*r = (fop){.kind = F_TVAL, .align = op->align, .field = m->p[j].f,
				           .vt = m->p[j].vt};
				break;
			}
			if (j >= CODEC_MAX_PNAMES || !m->p[j].ok || m->p[j].vt ||
			    m->p[j].f->type == SPEC_TYPE_BITSET ||
			    m->p[j].width > 64 || m->p[j].low / 64 != (m->p[j].low + m->p[j].width - 1) / 64)
				return false;
			word = (uint8_t)(m->p[j].low / 64);
			shift = (uint8_t)(m->p[j].low % 64);
			*r = value_op(m->p[j].f, word, shift, op->align);
			break;
		}
		case F_SUB: {
			uint8_t word, shift;
			if (!map_range(m, op->word * 64u + op->shift, (unsigned)__builtin_popcountll(op->mask),
			               &word, &shift))
				return false;
			fop mo = memo_op(F, lf, op, word, shift, m->depth, m->slots);
			if (mo.kind == F_MEMO) {
				*r = mo;
				break;
			}
			const finl *in = make_inline(F, lf, op, m);
			if (!in)
				return false;
			*r = (fop){.kind = F_INLINE, .word = word, .shift = shift, .mask = op->mask,
			           .align = op->align, .inl = in};
			break;
		}
		case F_STEP:
			if (!step_value_op(F, lf, v, pl, op, m, r))
				return false;
			break;
		default:
			return false;
		}
	}
	return true;
}

/* The inline of op sop (an F_SUB of leaf lf, whose bits m maps to the
 * running scope's; NULL: lf is the running scope), or NULL. */
static const finl *make_inline_leaf(fast_build *F, const cleaf *lf, const fop *sop,
                                    const fsub *sb, const fmap *pm);

/* The inline of op sop (an F_SUB of leaf lf, whose bits pm maps to the
 * running scope's; NULL: lf is the running scope), or NULL. */
static const finl *make_inline(fast_build *F, const cleaf *lf, const fop *sop, const fmap *pm)
{
	if (sop->sub || !sop->subs)
		return make_inline_leaf(F, lf, sop, sop->sub, pm);
	const cfield *f = sop->field;
	const spec_root *root = f->root;
	finl *in = codec_alloc(F->c, sizeof *in);
	const finl **alt = codec_alloc(F->c, root->nleaves * sizeof *alt);
	if (!in || !alt) {
		F->ok = false;
		return NULL;
	}
	bool any = false;
	for (size_t i = 0; i < root->nleaves && F->ok; i++) {
		alt[i] = make_inline_leaf(F, lf, sop, sop->subs[i], pm);
		any |= alt[i] != NULL;
	}
	if (!any)
		return NULL;
	in->cls = F->c->cls[f->root_index];
	in->root = root;
	in->alt = alt;
	in->owner = lf;
	in->field = f;
	in->orig = pm ? NULL : sop; /* a leaf not inlined opens its scope */
	return in;
}

/* The inline of op sop of leaf lf for the nested scope of leaf sb->only. */
static const finl *make_inline_leaf(fast_build *F, const cleaf *lf, const fop *sop,
                                    const fsub *sb, const fmap *pm)
{
	if (!sb || !F->ok)
		return NULL;
	const cleaf *L = sb->only;
	unsigned width = (unsigned)__builtin_popcountll(sop->mask);
	unsigned low = sop->word * 64u + sop->shift;
	fmap cm;
	memset(&cm, 0, sizeof cm);
	if (pm) {
		uint8_t w, sh;
		if (!map_range(pm, low, width, &w, &sh))
			return NULL;
		cm.base = w * 64u + sh;
	} else {
		cm.base = low;
	}
	cm.width = width;
	cm.depth = (pm ? pm->depth : 0) + 1;
	cm.slots = (pm ? pm->slots : 0) + (unsigned)L->nex;
	if (cm.depth > 8)
		return NULL;
	bool all = sb->all;
	for (unsigned i = 0; i < sb->nbind; i++) {
		const fbind *bd = &sb->bind[i];
		if (bd->kind == FB_BITS) {
			unsigned bl = bd->word * 64u + bd->shift, bw = bd->field->width;
			if (pm) {
				uint8_t w, sh;
				if (!map_range(pm, bl, bw, &w, &sh))
					return NULL;
				bl = w * 64u + sh;
			}
			cm.p[bd->j].ok = true;
			cm.p[bd->j].low = bl;
			cm.p[bd->j].width = bw;
			cm.p[bd->j].f = bd->field;
		} else if (bd->kind == FB_PARAM && pm && pm->p[bd->arg].ok) {
			cm.p[bd->j] = pm->p[bd->arg];
		} else if (bd->kind == FB_STEP && bd->vt) {
			cm.p[bd->j].ok = true;
			cm.p[bd->j].f = bd->field;
			cm.p[bd->j].vt = reloc_vtab(F, bd->vt, pm);
			if (!cm.p[bd->j].vt)
				return NULL;
		} else {
			return NULL; /* known only when it runs */
		}
	}
	unsigned v = L->v1 && all;
	const cplans *ps = L->plan[v];
	if (!ps || ps->eval)
		return NULL;
	finl *in = codec_alloc(F->c, sizeof *in);
	const fop **prog = codec_alloc(F->c, ps->nplans * sizeof *prog);
	uint32_t *nprog = codec_alloc(F->c, ps->nplans * sizeof *nprog);
	if (!in || !prog || !nprog) {
		F->ok = false;
		return NULL;
	}
	in->owner = lf;
	in->field = sop->field;
	in->leaf = L;
	in->leaf_index = (uint32_t)L->b->index;
	in->match = sb->match;
	in->mask = sb->mask;
	in->dontcare = sb->dontcare;
	in->gmin = sb->gmin;
	in->gmax = sb->gmax;
	in->depth = cm.depth;
	in->slots = cm.slots;
	in->ps = ps;
	in->tab = ps->tab;
	in->nin = ps->nin;
	unsigned at = 0;
	for (unsigned i = 0; i < ps->nin; i++) {
		const cplan_in *pi = &ps->in[i];
		fkin *k = &in->in[i];
		k->at = (uint8_t)at;
		k->width = (uint8_t)pi->width;
		at += pi->width;
		if (pi->slot == -2) {
			k->kind = FK_GEN;
		} else if (pi->slot == -1) {
			k->kind = FK_BITS;
			k->mask = low_mask(pi->width);
			if (!map_range(&cm, pi->low, pi->width, &k->word, &k->shift))
				return NULL;
		} else if (cm.p[pi->slot].ok && cm.p[pi->slot].vt) {
			k->kind = FK_TAB;
			k->vt = cm.p[pi->slot].vt;
		} else {
			unsigned j = (unsigned)pi->slot;
			if (!cm.p[j].ok || cm.p[j].width > 64 ||
			    cm.p[j].low / 64 != (cm.p[j].low + cm.p[j].width - 1) / 64)
				return NULL;
			/* a param no wider than the plan assumed needs no check */
			k->kind = cm.p[j].width <= pi->width ? FK_BITS : FK_PARAM;
			k->word = (uint8_t)(cm.p[j].low / 64);
			k->shift = (uint8_t)(cm.p[j].low % 64);
			k->mask = low_mask(cm.p[j].width);
		}
	}
	/* neighbours in the scope's bits and in the key gathered at once */
	unsigned nk = 0;
	for (unsigned i = 0; i < in->nin; i++) {
		fkin *prev = nk ? &in->in[nk - 1] : NULL, *k = &in->in[i];
		unsigned pw = prev ? (unsigned)__builtin_popcountll(prev->mask) : 0;
		if (prev && prev->kind == FK_BITS && k->kind == FK_BITS && prev->word == k->word &&
		    prev->shift + pw == k->shift && prev->at + pw == k->at &&
		    pw + (unsigned)__builtin_popcountll(k->mask) < 64) {
			prev->mask |= k->mask << pw;
			continue;
		}
		in->in[nk++] = *k;
	}
	in->nin = nk;
	in->chk = in->mask | in->dontcare;
	in->plain = ps->tab && !(in->match & ~in->mask) && !(in->mask & in->dontcare) &&
	            nk <= FAST_SEG_INPUTS;
	for (unsigned i = 0; i < nk; i++)
		in->plain &= in->in[i].kind == FK_BITS;
	if (in->plain) {
		fseg g = {.nin = nk};
		for (unsigned i = 0; i < nk; i++)
			g.in[i] = (fseg_in){.word = in->in[i].word, .shift = in->in[i].shift,
			                    .at = in->in[i].at, .mask = in->in[i].mask};
		seg_pext_masks(&g);
		in->px = g.px;
	}
	/* the same scope at the same bits elsewhere: its programs shared */
	char sig[1024];
	size_t sl = 0;
	CODEC_SIG_PUT(sig, sl, sizeof sig, 'I');
	CODEC_SIG_PUT(sig, sl, sizeof sig, L);
	CODEC_SIG_PUT(sig, sl, sizeof sig, v);
	CODEC_SIG_PUT(sig, sl, sizeof sig, pm != NULL);
	CODEC_SIG_PUT(sig, sl, sizeof sig, cm.base);
	CODEC_SIG_PUT(sig, sl, sizeof sig, cm.width);
	CODEC_SIG_PUT(sig, sl, sizeof sig, cm.depth);
	CODEC_SIG_PUT(sig, sl, sizeof sig, cm.slots);
	for (unsigned j = 0; j < CODEC_MAX_PNAMES; j++) {
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].ok);
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].low);
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].width);
		/* a field prints as its spec field says, whichever leaf it is in */
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].f ? cm.p[j].f->f : NULL);
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].f ? cm.p[j].f->type : SPEC_TYPE_UINT);
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].f ? cm.p[j].f->en : NULL);
		CODEC_SIG_PUT(sig, sl, sizeof sig, cm.p[j].vt);
	}
	uint64_t h = sl <= sizeof sig ? sig_hash(sig, sl) : 0;
	const finl *same = sl <= sizeof sig ? known_find(F, sig, sl, h) : NULL;
	if (same) {
		in->prog = same->prog;
		in->nprog = same->nprog;
		in->orig = sop;
		return in;
	}
	for (unsigned pi = 0; pi < ps->nplans; pi++) {
		const cplan *cp = &ps->plans[pi];
		/* its asserts first, as bits of the running scope */
		unsigned na = plan_nasserts(L, cp);
		fop *out = fast_ops_alloc(F, na + cp->nfops + 2);
		if (!out) {
			F->ok = false;
			return NULL;
		}
		if (!assert_ops(F, L, cp, &cm, out))
			return NULL;
		uint32_t n = na;
		if (!cp->fops) {
			out[n++] = (fop){.kind = F_BAIL};
		} else if (reloc_ops(F, L, v, cp, cp->fops, cp->nfops, &cm, out + n)) {
			uint32_t m = cp->nfops;
			merge_program(F, out + n, &m);
			absorb_texts(F, out + n, &m);
			n += m;
		} else if (!pm && F->ok) {
			/* this plan reads what only its own scope can give (a
			 * derived value of its params, say): it opens one */
			out = NULL;
		} else {
			return NULL;
		}
		if (out)
			out[n] = (fop){.kind = F_END};
		prog[pi] = out;
		nprog[pi] = n;
	}
	in->prog = prog;
	in->nprog = nprog;
	in->orig = sop;
	if (sl <= sizeof sig)
		known_add(F, sig, sl, h, in);
	return in;
}

/* ------------------------------------------------------------- merging
 *
 * Once nested scopes are inlined, neighbouring ops of one program that
 * print from a few bits (segments, small plain fields, memoised nested
 * fields, literal text) are merged into one segment of at most
 * FAST_MERGE_BITS bits: its texts are theirs joined, so it costs one
 * gather and one copy.
 */

#define FAST_MERGE_BITS 12u
/* Where the tables of texts outgrow their budget (c->fast_budget,
 * codec_build_fast), compiled segments read at most FAST_SEG_BITS_CAPPED
 * bits and merged ones take at most FAST_MERGE_CAP bytes. */
#define FAST_MERGE_CAP       ((size_t)4096)
#define FAST_SEG_BITS_CAPPED 6u

/* An op as a segment (inputs and texts), when it is one. */
typedef struct segform {
	fseg g;
	unsigned bits;
	uint32_t one;             /* a constant text's entry */
	uint32_t *own;            /* entries of its own (malloc'd): segform_free */
} segform;

static void segform_free(segform *sf)
{
	free(sf->own);
	sf->own = NULL;
}

/* The text of value v of a small plain field op, as fast_ops prints it. */
static bool small_text(fast_build *F, const fop *op, uint64_t v, char *buf, size_t *len)
{
	cx_out o = {.buf = buf, .cap = FAST_SEG_LEN + 1};
	F->x->out = &o;
	const cfield *f = op->field;
	switch (op->kind) {
	case F_BOOL:
		if ((v != 0) == (f->type == SPEC_TYPE_BOOL))
			out_raw(&o, f->f->display, f->disp_len);
		break;
	case F_ENUM:
		if (f->en->dense[v])
			out_raw(&o, f->en->dense[v], f->en->dense_len[v]);
		else
			out_u64(&o, v);
		break;
	case F_UINT:
		out_u64(&o, v);
		break;
	case F_HEX:
		out_hex(&o, v, false);
		break;
	default: /* F_VAL */
		cx_print_value(F->x, f, v);
		break;
	}
	*len = o.len;
	return o.total <= FAST_SEG_LEN && !memchr(buf, '\n', o.len);
}

/* Whether expression e's value is a function of the bits it reads (its
 * program does not read the generation), few enough to tabulate. */
static bool expr_tabulable(const fexpr *e)
{
	if (e->ng)
		return true;
	if (e->nrefs > 64)
		return false;
	for (const cins *p = e->prog; p->op != VI_END; p++)
		if (p->op == VI_GPU)
			return false;
	return true;
}

/* The runs of bits an F_TVAL or F_EXPR op reads (in[].at unset), at
 * most FAST_SEG_INPUTS of them. */
static bool value_inputs(const fop *op, fseg_in *in, unsigned *nin)
{
	unsigned n = 0;
	if (op->kind == F_TVAL || op->ex->ng) {
		const fseg_in *from = op->kind == F_TVAL ? op->vt->in : op->ex->g;
		n = op->kind == F_TVAL ? op->vt->nin : op->ex->ng;
		if (n > FAST_SEG_INPUTS)
			return false;
		memcpy(in, from, n * sizeof *in);
	} else {
		const fexpr *e = op->ex;
		for (unsigned i = 0; i < e->nrefs; i++) {
			const fseg_in *from = e->ref[i].vt ? e->ref[i].vt->in : NULL;
			unsigned k = e->ref[i].vt ? e->ref[i].vt->nin : 1;
			if (n + k > FAST_SEG_INPUTS)
				return false;
			for (unsigned j = 0; j < k; j++)
				in[n++] = from ? from[j]
				               : (fseg_in){e->ref[i].word, e->ref[i].shift, 0, e->ref[i].mask};
		}
	}
	*nin = n;
	return true;
}

/* The value op prints where its inputs in[0..nin) (key packed from bit
 * 0) read key k; *ok false where it cannot be had (the VM fails). */
static uint64_t seg_value(const fast_build *F, const fop *op, const fseg_in *in, unsigned nin,
                          uint32_t k, bool *ok)
{
	if (op->kind != F_TVAL && op->kind != F_EXPR)
		return k;
	uint64_t w[CODEC_MAX_WORDS];
	key_words(in, nin, k, w, F->c->nw);
	if (op->kind == F_TVAL)
		return vtab_value(op->vt, w);
	const fexpr *e = op->ex; /* as fast_rare_op has it */
	if (e->ng) {
		uint64_t u = e->cbits;
		for (unsigned i = 0; i < e->ng; i++)
			u |= ((w[e->g[i].word] >> e->g[i].shift) & e->g[i].mask) << e->g[i].at;
		return u;
	}
	int64_t vals[64], r;
	for (unsigned i = 0; i < e->nrefs; i++)
		vals[i] = (int64_t)(e->ref[i].vt ? vtab_value(e->ref[i].vt, w)
		                                 : (w[e->ref[i].word] >> e->ref[i].shift) & e->ref[i].mask);
	/* expr_tabulable: the program does not read the generation */
	if (!codec_vm_run(e->prog, vals, 0, &r))
		*ok = false;
	return (uint64_t)r;
}

/* op as a segment into sf; false when it is not one.  pool collects the
 * texts of ops that had none (malloc'd, *pn bytes used). */
static bool as_segment(fast_build *F, const fop *op, segform *sf, char **pool, size_t *pn,
                       size_t *pcap)
{
	memset(sf, 0, sizeof *sf);
	switch (op->kind) {
	case F_SEG:
	case F_SEGT:
		sf->g = *op->seg;
		for (unsigned i = 0; i < sf->g.nin; i++)
			sf->bits += (unsigned)__builtin_popcountll(sf->g.in[i].mask);
		return sf->bits <= FAST_MERGE_BITS;
	case F_TEXT:
		if (op->align || op->col >= 0 || op->len > FAST_SEG_LEN)
			return false;
		sf->g.pool = op->text;
		sf->one = op->len;
		sf->g.ent = &sf->one;
		return true;
	case F_VAL:
	case F_TVAL:
	case F_EXPR:
		if (op->field->type == SPEC_TYPE_BRANCH || op->field->type == SPEC_TYPE_ABSBRANCH ||
		    op->field->type == SPEC_TYPE_BITSET || (op->kind == F_EXPR && !expr_tabulable(op->ex)))
			return false;
		__attribute__((fallthrough));
	case F_BOOL:
	case F_ENUM:
	case F_UINT:
	case F_HEX:
	case F_MEMO: {
		/* the bits it reads, their key packed from bit 0 */
		fseg_in in[FAST_SEG_INPUTS];
		unsigned nin = 1, w = 0;
		if (op->kind == F_TVAL || op->kind == F_EXPR) {
			if (!value_inputs(op, in, &nin))
				return false;
			for (unsigned i = 0; i < nin; i++) {
				in[i].at = (uint8_t)w;
				w += (unsigned)__builtin_popcountll(in[i].mask);
			}
		} else {
			in[0] = (fseg_in){op->word, op->shift, 0, op->mask};
			w = (unsigned)__builtin_popcountll(op->mask);
		}
		/* values printed the general way are worth wider tables than
		 * those fast_ops prints itself */
		bool general = op->kind == F_VAL || op->kind == F_TVAL || op->kind == F_EXPR;
		if (op->align || w > (general ? FAST_MERGE_BITS : FAST_SEG_BITS) || !nin)
			return false;
		size_t nk = (size_t)1 << w;
		uint32_t *ent = malloc(nk * sizeof *ent);
		if (!ent) {
			F->ok = false;
			return false;
		}
		sf->own = ent;
		for (uint64_t v = 0; v < nk; v++) {
			if (*pcap - *pn < FAST_SEG_LEN + 1) {
				size_t cap = 2 * *pcap + 4096;
				char *np = realloc(*pool, cap);
				if (!np) {
					segform_free(sf);
					F->ok = false;
					return false;
				}
				*pool = np;
				*pcap = cap;
			}
			size_t len = 0;
			bool ok;
			if (op->kind == F_MEMO) {
				const cmemo_ent *e = &op->mm->ent[v];
				ok = !e->noleaf && !e->nerr && !e->nl && e->len <= FAST_SEG_LEN;
				if (ok) {
					len = e->len;
					memcpy(*pool + *pn, op->mm->pool + e->text, len);
				}
			} else {
				bool valued = true;
				uint64_t val = seg_value(F, op, in, nin, (uint32_t)v, &valued);
				ok = valued && small_text(F, op, val, *pool + *pn, &len);
			}
			ent[v] = ok ? (uint32_t)(*pn << 8) | (uint32_t)len : FAST_NOSEG;
			*pn += ok ? len : 0;
		}
		sf->g.nin = nin;
		memcpy(sf->g.in, in, nin * sizeof *in);
		sf->g.ent = ent;
		sf->g.pool = NULL; /* in the collected pool: fixed up by the caller */
		sf->bits = w;
		if (op->kind == F_MEMO) {
			sf->g.depth = op->depth;
			sf->g.slots = op->slots;
		}
		return true;
	}
	default:
		return false;
	}
}

/* The segment of parts[0..n) printed one after the other (pools[i]
 * holds part i's texts). */
static const fseg *join_segments(fast_build *F, const segform *parts, const char *const *pools,
                                 unsigned n)
{
	unsigned bits = 0, nin = 0;
	for (unsigned i = 0; i < n; i++) {
		bits += parts[i].bits;
		nin += parts[i].g.nin;
	}
	if (nin > FAST_SEG_INPUTS)
		return NULL;
	size_t nk = (size_t)1 << bits;
	uint32_t *ent;
	char *tmp;
	fseg *g = seg_begin(F, nk, &ent, &tmp);
	if (!g)
		return NULL;
	unsigned at = 0;
	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = 0; j < parts[i].g.nin; j++) {
			g->in[g->nin] = parts[i].g.in[j];
			g->in[g->nin++].at = (uint8_t)(parts[i].g.in[j].at + at);
		}
		at += parts[i].bits;
		if (parts[i].g.depth > g->depth)
			g->depth = parts[i].g.depth;
		if (parts[i].g.slots > g->slots)
			g->slots = parts[i].g.slots;
	}
	size_t used = 0;
	for (size_t k = 0; k < nk; k++) {
		size_t len = 0, rest = k;
		bool ok = true;
		for (unsigned i = 0; ok && i < n; i++) {
			uint32_t e = parts[i].g.ent[rest & (((size_t)1 << parts[i].bits) - 1)];
			rest >>= parts[i].bits;
			ok = e != FAST_NOSEG && len + (e & 255u) <= FAST_SEG_LEN;
			if (ok)
				memcpy(tmp + used + len, pools[i] + (e >> 8), e & 255u);
			len += e & 255u;
		}
		ent[k] = ok ? (uint32_t)(used << 8) | (uint32_t)len : FAST_NOSEG;
		used += ok ? len : 0;
	}
	return seg_finish(F, g, tmp, used);
}

/* The bytes a merged segment's tables take (texts, 4-byte entries)
 * when part sf joins a run of *jn keys and *jt bytes of text, which it
 * updates. */
static size_t join_bytes(const segform *sf, size_t *jn, size_t *jt)
{
	size_t n = (size_t)1 << sf->bits, t = 0;
	for (size_t k = 0; k < n; k++)
		t += sf->g.ent[k] == FAST_NOSEG ? 0 : (sf->g.ent[k] & 255u);
	*jt = *jt * n + t * *jn;
	*jn *= n;
	return *jt + 4 * *jn;
}

/* Merges runs of neighbouring ops of ops[0..*n) that print from few bits
 * (and, past the first op, tables of at most F->merge_cap bytes; no
 * bound, and nothing counted, at SIZE_MAX). */
static void merge_program(fast_build *F, fop *ops, uint32_t *n)
{
	char *pool = NULL;
	size_t pn = 0, pcap = 0;
	uint32_t out = 0, i = 0;
	segform parts[FAST_SEG_INPUTS];
	while (i < *n && F->ok) {
		/* the longest run from i within the bits and inputs allowed */
		unsigned np = 0, bits = 0, nin = 0;
		size_t jn = 1, jt = 0;
		pn = 0;
		while (i + np < *n && np < FAST_SEG_INPUTS) {
			segform sf;
			size_t mark = pn;
			if (!as_segment(F, &ops[i + np], &sf, &pool, &pn, &pcap) ||
			    bits + sf.bits > FAST_MERGE_BITS || nin + sf.g.nin > FAST_SEG_INPUTS ||
			    (F->merge_cap != SIZE_MAX && join_bytes(&sf, &jn, &jt) > F->merge_cap && np)) {
				segform_free(&sf);
				pn = mark;
				break;
			}
			parts[np] = sf;
			if (sf.g.ent == &sf.one) /* a constant text: its entry moves with it */
				parts[np].g.ent = &parts[np].one;
			np++;
			bits += sf.bits;
			nin += sf.g.nin;
		}
		/* a value printed the general way is worth a segment alone */
		if (np >= 2 || (np == 1 && (ops[i].kind == F_TVAL || ops[i].kind == F_EXPR))) {
			/* the same run elsewhere (the same ops at the same bits) */
			char sig[512];
			size_t sl = 0;
			CODEC_SIG_PUT(sig, sl, sizeof sig, 'M');
			for (unsigned j = 0; j < np; j++) {
				const fop *op = &ops[i + j];
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->kind);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->word);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->shift);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->mask);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->len);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->text); /* or mm, seg */
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->field);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->depth);
				CODEC_SIG_PUT(sig, sl, sizeof sig, op->slots);
				if (op->kind == F_SEG || op->kind == F_SEGT) {
					CODEC_SIG_PUT(sig, sl, sizeof sig, op->seg->ent);
					CODEC_SIG_PUT(sig, sl, sizeof sig, op->seg->pool);
					CODEC_SIG_PUT(sig, sl, sizeof sig, op->seg->nin);
					for (unsigned q = 0; q < op->seg->nin; q++) {
						const fseg_in *si = &op->seg->in[q];
						CODEC_SIG_PUT(sig, sl, sizeof sig, si->word);
						CODEC_SIG_PUT(sig, sl, sizeof sig, si->shift);
						CODEC_SIG_PUT(sig, sl, sizeof sig, si->at);
						CODEC_SIG_PUT(sig, sl, sizeof sig, si->mask);
					}
					CODEC_SIG_PUT(sig, sl, sizeof sig, op->seg->depth);
					CODEC_SIG_PUT(sig, sl, sizeof sig, op->seg->slots);
				}
			}
			uint64_t h = sl <= sizeof sig ? sig_hash(sig, sl) : 0;
			const fseg *old = sl <= sizeof sig ? known_find(F, sig, sl, h) : NULL;
			const fseg *g = old;
			if (!g) {
				const char *pools[FAST_SEG_INPUTS];
				for (unsigned j = 0; j < np; j++)
					pools[j] = parts[j].g.pool ? parts[j].g.pool : pool;
				g = join_segments(F, parts, pools, np);
				if (g && sl <= sizeof sig)
					known_add(F, sig, sl, h, g);
			}
			for (unsigned j = 0; j < np; j++)
				segform_free(&parts[j]);
			if (g) {
				ops[out++] = seg_op(F, g);
				i += np;
				continue;
			}
		} else {
			for (unsigned j = 0; j < np; j++)
				segform_free(&parts[j]);
		}
		ops[out++] = ops[i++];
	}
	free(pool);
	*n = out;
}

/* An inline whose every program starts with text t (an F_TEXT op) and
 * is merged again, or NULL when some leaf or plan opens a scope instead
 * (the text would then be lost). */
static const finl *absorb_text(fast_build *F, const finl *in, const fop *t)
{
	finl *r = codec_alloc(F->c, sizeof *r);
	if (!r) {
		F->ok = false;
		return NULL;
	}
	if (in->pre)
		return NULL; /* one text only */
	*r = *in;
	fop *pre = codec_alloc(F->c, sizeof *pre);
	if (!pre) {
		F->ok = false;
		return NULL;
	}
	*pre = *t;
	r->pre = pre;
	if (in->cls) {
		const finl **alt = codec_alloc(F->c, in->root->nleaves * sizeof *alt);
		if (!alt) {
			F->ok = false;
			return NULL;
		}
		for (size_t i = 0; i < in->root->nleaves; i++)
			if (!in->alt[i] || !(alt[i] = absorb_text(F, in->alt[i], t)))
				return NULL;
		r->alt = alt;
		return r;
	}
	const fop **prog = codec_alloc(F->c, in->ps->nplans * sizeof *prog);
	uint32_t *nprog = codec_alloc(F->c, in->ps->nplans * sizeof *nprog);
	if (!prog || !nprog) {
		F->ok = false;
		return NULL;
	}
	for (unsigned pi = 0; pi < in->ps->nplans; pi++) {
		if (!in->prog[pi])
			return NULL;
		fop *p = fast_ops_alloc(F, in->nprog[pi] + 2);
		if (!p) {
			F->ok = false;
			return NULL;
		}
		p[0] = *t;
		memcpy(p + 1, in->prog[pi], in->nprog[pi] * sizeof *p);
		nprog[pi] = in->nprog[pi] + 1;
		merge_program(F, p, &nprog[pi]);
		p[nprog[pi]] = (fop){.kind = F_END};
		prog[pi] = p;
	}
	r->prog = prog;
	r->nprog = nprog;
	return r;
}

/* Text right before an inlined field joins the field's programs, where
 * it merges with their first segment: one op fewer per instruction. */
static void absorb_texts(fast_build *F, fop *ops, uint32_t *n)
{
	uint32_t out = 0;
	for (uint32_t i = 0; i < *n; i++) {
		if (i + 1 < *n && ops[i].kind == F_TEXT && !ops[i].align && ops[i].col < 0 &&
		    ops[i + 1].kind == F_INLINE && !ops[i + 1].align) {
			const finl *in = absorb_text(F, ops[i + 1].inl, &ops[i]);
			if (in) {
				ops[out] = ops[i + 1];
				ops[out++].inl = in;
				i++;
				continue;
			}
		}
		ops[out++] = ops[i];
	}
	*n = out;
}

/* Plan pl of leaf lf with its nested fields inlined where they can be
 * (kept apart from pl->fops until every plan is done: inlining reads
 * the programs as compiled). */
static const fop *inline_plan(fast_build *F, const cleaf *lf, unsigned v, const cplan *pl,
                              uint32_t *n)
{
	const fmap own = {.base = 0, .width = lf->b->size}; /* the scope's bits are its own */
	fop *out = fast_ops_alloc(F, pl->nfops + 2);
	if (!out) {
		F->ok = false;
		return NULL;
	}
	for (uint32_t i = 0; i < pl->nfops; i++) {
		const fop *op = &pl->fops[i];
		out[i] = *op;
		fop r;
		if (op->kind == F_STEP && step_value_op(F, lf, v, pl, op, &own, &r))
			out[i] = r;
		if (op->kind != F_SUB)
			continue;
		fop mo = memo_op(F, lf, op, op->word, op->shift, 0, 0);
		if (mo.kind == F_MEMO) {
			out[i] = mo;
			continue;
		}
		const finl *in = make_inline(F, lf, op, NULL);
		if (in)
			out[i] = (fop){.kind = F_INLINE, .word = op->word, .shift = op->shift,
			               .mask = op->mask, .align = op->align, .inl = in};
	}
	*n = pl->nfops;
	merge_program(F, out, n);
	absorb_texts(F, out, n);
	out[*n] = (fop){.kind = F_END};
	return out;
}

bool codec_fast_set_pext(codec *c, bool on)
{
	c->pext = on && codec_cpu_pext();
	for (size_t i = 0; c->cls && i < c->m->nroots; i++)
		if (c->cls[i])
			classifier_set_pext(c->cls[i], c->pext);
	return c->pext;
}

/* Plan table ps re-keyed with its inputs in bit order (all of them the
 * scope's own bits), the order bit extraction gathers them in: the
 * table is permuted to match, so a look-up by the inputs in[] (as
 * cx_plan_find's) finds what it did. */
static void plans_in_bit_order(cplans *ps)
{
	unsigned order[CODEC_PLAN_INPUTS], n = ps->nin, bits = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned j = i;
		while (j > 0 && ps->in[order[j - 1]].low > ps->in[i].low) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
		bits += ps->in[i].width;
	}
	bool same = true;
	for (unsigned i = 0; i < n; i++)
		same = same && order[i] == i;
	if (same || bits > CODEC_PLAN_BITS)
		return;
	unsigned old_at[CODEC_PLAN_INPUTS], at = 0;
	for (unsigned i = 0; i < n; i++) {
		old_at[i] = at;
		at += ps->in[i].width;
	}
	_Static_assert(CODEC_PLAN_BITS <= 16, "a plan table fits the stack");
	uint8_t tab[1u << CODEC_PLAN_BITS];
	for (uint32_t key = 0; key < (1u << bits); key++) {
		uint32_t old = 0;
		at = 0;
		for (unsigned j = 0; j < n; j++) {
			const cplan_in *in = &ps->in[order[j]];
			old |= ((key >> at) & ((1u << in->width) - 1)) << old_at[order[j]];
			at += in->width;
		}
		tab[key] = ps->tab[old];
	}
	memcpy((uint8_t *)ps->tab, tab, (size_t)1 << bits);
	cplan_in in[CODEC_PLAN_INPUTS];
	for (unsigned j = 0; j < n; j++)
		in[j] = ps->in[order[j]];
	memcpy(ps->in, in, n * sizeof *in);
}

/* A plan table's key by bit extraction, when every input is the scope's
 * own bits (not a param, not the generation), put in key order. */
static void plans_pext_masks(cplans *ps)
{
	ps->px.n = 0;
	if (!ps->tab || !ps->nin || ps->nin > FAST_SEG_INPUTS)
		return;
	for (unsigned i = 0; i < ps->nin; i++) {
		const cplan_in *in = &ps->in[i];
		if (in->slot != -1 || !in->width || in->low % 64 + in->width > 64)
			return;
	}
	plans_in_bit_order(ps);
	fseg g = {.nin = ps->nin};
	unsigned at = 0;
	for (unsigned i = 0; i < ps->nin; i++) {
		const cplan_in *in = &ps->in[i];
		g.in[i] = (fseg_in){.word = (uint8_t)(in->low / 64), .shift = (uint8_t)(in->low % 64),
		                    .at = (uint8_t)at, .mask = low_mask(in->width)};
		at += in->width;
	}
	seg_pext_masks(&g);
	ps->px = g.px;
}

/* ------------------------------------------------------------- lowering
 *
 * Last, every F_INLINE op whose usual case is plain (one leaf, checked
 * by a mask; a plan key by bit extraction or a single plan) becomes an
 * F_INLP op: the check and the key's masks in the op, the programs in a
 * table by key.  Rendering is unchanged: any other case runs the
 * F_INLINE op it stands for.
 */

#define FAST_INLP_BITS 12u /* a table of at most 2^this programs */

/* Whether p is new to the set (added); false when seen or no memory. */
static bool seen_add(fast_build *F, const void *p)
{
	if (2 * (F->nseen + 1) > F->capseen) {
		size_t cap = F->capseen ? 2 * F->capseen : 256;
		const void **t = calloc(cap, sizeof *t);
		if (!t) {
			F->ok = false;
			return false;
		}
		for (size_t i = 0; i < F->capseen; i++) {
			if (!F->seen[i])
				continue;
			size_t h = ((uintptr_t)F->seen[i] >> 6) * 0x9e3779b97f4a7c15ull >> 20 & (cap - 1);
			while (t[h])
				h = (h + 1) & (cap - 1);
			t[h] = F->seen[i];
		}
		free(F->seen);
		F->seen = t;
		F->capseen = cap;
	}
	size_t h = ((uintptr_t)p >> 6) * 0x9e3779b97f4a7c15ull >> 20 & (F->capseen - 1);
	while (F->seen[h]) {
		if (F->seen[h] == p)
			return false;
		h = (h + 1) & (F->capseen - 1);
	}
	F->seen[h] = p;
	F->nseen++;
	return true;
}

static void lower_program(fast_build *F, const fop *prog);

static void lower_finl(fast_build *F, const finl *in)
{
	if (in && in->cls) {
		for (size_t i = 0; in->alt && i < in->root->nleaves; i++)
			lower_finl(F, in->alt[i]);
	} else if (in && in->prog && in->ps) {
		for (unsigned pi = 0; pi < in->ps->nplans; pi++)
			lower_program(F, in->prog[pi]);
	}
}

/* F_INLINE op *op as an F_INLP op, when its usual case is plain: one
 * leaf checked by a mask, and a plan key that is a function of at most
 * FAST_INLP_BITS of the scope's bits in two words (its inputs' bits,
 * those of the tables it reads included), made a table of programs by
 * those bits. */
static bool lower_inline(fast_build *F, fop *op, const fop *slow)
{
	const finl *in = op->inl;
	uint64_t chk = in->chk & op->mask;
	if (in->cls || !in->prog || !in->ps || (in->match & ~in->mask) ||
	    (in->mask & in->dontcare) || (in->match & ~chk) || (chk << op->shift) >> op->shift != chk)
		return false;
	/* the bits the key reads, per word */
	uint64_t used[CODEC_MAX_WORDS] = {0};
	for (unsigned i = 0; in->ps->tab && i < in->nin; i++) {
		const fkin *k = &in->in[i];
		if (k->kind == FK_GEN)
			return false;
		if (k->kind == FK_TAB) {
			for (unsigned j = 0; j < k->vt->nin; j++)
				used[k->vt->in[j].word] |= k->vt->in[j].mask << k->vt->in[j].shift;
		} else {
			used[k->word] |= k->mask << k->shift;
		}
	}
	fseg g = {.nin = 0};
	unsigned bits = 0;
	for (unsigned i = 0; i < F->c->nw; i++) {
		if (!used[i])
			continue;
		if (g.nin == 2)
			return false;
		g.in[g.nin++] = (fseg_in){.word = (uint8_t)i, .shift = 0, .at = (uint8_t)bits,
		                          .mask = used[i]};
		bits += (unsigned)__builtin_popcountll(used[i]);
	}
	if (bits > FAST_INLP_BITS)
		return false;
	codec_pext px = {.pw = {g.in[0].word, g.in[g.nin > 1].word}, .pm = {used[g.in[0].word], 0}};
	if (g.nin > 1)
		px.pm[1] = used[g.in[1].word];
	if (!g.nin)
		px.pm[0] = 0;
	px.pn0 = (uint8_t)__builtin_popcountll(px.pm[0]);
	size_t nkeys = (size_t)1 << bits;
	fop *copy = slow ? NULL : codec_alloc(F->c, sizeof *copy);
	char *mem = codec_alloc(F->c, sizeof(fitab) + nkeys * sizeof(const fop *) + 48);
	if ((!slow && !copy) || !mem) {
		F->ok = false;
		return false;
	}
	fitab *it = (fitab *)(mem + (64 - (uintptr_t)mem % 64) % 64);
	if (copy)
		*copy = *op;
	it->slow = slow ? slow : copy;
	it->gmin = in->gmin;
	it->gmax = in->gmax;
	for (size_t r = 0; r < nkeys; r++) {
		/* the words whose bits the key reads are r, as pext gathers them */
		uint64_t w[CODEC_MAX_WORDS] = {0};
		uint64_t pm = px.pm[0], bit = 1;
		for (; pm; pm &= pm - 1, bit <<= 1)
			if (r & bit)
				w[px.pw[0]] |= pm & -pm;
		for (pm = px.pm[1]; pm; pm &= pm - 1, bit <<= 1)
			if (r & bit)
				w[px.pw[1]] |= pm & -pm;
		uint32_t key = 0;
		/* (no FK_GEN input here: the generation is not known at load) */
		unsigned idx = !in->ps->tab ? 0 : inline_key(in, w, 0, &key) ? in->ps->tab[key] : 0xff;
		it->prog[r] = idx == 0xff ? NULL : in->prog[idx];
	}
	*op = (fop){.kind = F_INLP, .word = px.pw[0], .shift = px.pw[1], .fw = op->word,
	            .align = op->align, .pn0 = px.pn0, .depth = in->depth, .slots = in->slots,
	            .mask = px.pm[0], .pm1 = px.pm[1], .itab = it, .ichk = chk << op->shift,
	            .imatch = in->match << op->shift};
	return true;
}

#define FAST_INLC_BITS 16u /* a leaf table of at most 2^this values */

/* Per value of root r's leaves' first word, below 2^width: the index of
 * the only leaf whose bits match it in some generation; FAST_CTAB_NONE
 * when no leaf can match it in any generation; FAST_CTAB_ANY when
 * several may, or the table cannot tell (made once per root; its leaves
 * fewer than 0xfd). */
static const uint8_t *root_leaf_table(fast_build *F, const spec_root *r, unsigned width)
{
	size_t ri = (size_t)(r - F->c->m->roots);
	if (F->ctab[ri])
		return F->ctab[ri];
	size_t n = (size_t)1 << width;
	uint8_t *t = codec_alloc(F->c, n);
	if (!t) {
		F->ok = false;
		return NULL;
	}
	/* while it is made, 0xfd: no leaf yet; 0xfe: two or more */
	memset(t, 0xfd, n);
	bool every = true; /* every leaf that can match is in t */
	for (size_t li = 0; li < r->nleaves; li++) {
		const spec_bitset *l = r->leaves[li];
		uint64_t fixed = l->mask.nwords ? l->mask.w[0] : 0, match = l->match.nwords ? l->match.w[0] : 0;
		if (l->dontcare.nwords)
			fixed &= ~l->dontcare.w[0];
		bool high = false; /* bits fixed beyond the first word, or beyond width */
		for (unsigned i = 1; i < l->match.nwords; i++)
			high |= l->match.w[i] != 0;
		if (l->gen.min > l->gen.max)
			continue; /* in no generation */
		if (high || (match & ~fixed) || (width < 64 && (match >> width))) {
			every = false;
			continue;
		}
		/* every value with the fixed bits: the free bits counted through */
		uint64_t free_bits = ~fixed & (n - 1);
		uint64_t v = 0;
		do {
			uint64_t val = match | v;
			t[val] = t[val] == 0xfd ? (uint8_t)li : 0xfe;
			v = (v - free_bits) & free_bits;
		} while (v);
	}
	for (size_t v = 0; v < n; v++)
		if (t[v] == 0xfe || (t[v] == 0xfd && !every))
			t[v] = FAST_CTAB_ANY;
		else if (t[v] == 0xfd)
			t[v] = FAST_CTAB_NONE;
	F->ctab[ri] = t;
	return t;
}

/* F_INLINE op *op of a root with several leaves as an F_INLC op, when
 * the field is narrow: a table gives the leaf, and each leaf's F_INLP
 * the rest. */
static void lower_cls(fast_build *F, fop *op)
{
	const finl *in = op->inl;
	const spec_root *r = in->root;
	unsigned width = (unsigned)__builtin_popcountll(op->mask);
	if (!in->alt || r->nleaves >= 0xfd || width > FAST_INLC_BITS ||
	    op->mask != ((uint64_t)1 << width) - 1 || r->bitset->size > FAST_INLC_BITS)
		return;
	const uint8_t *leafof = root_leaf_table(F, r, width);
	fop *alts = fast_ops_alloc(F, r->nleaves);
	fop *slow = codec_alloc(F->c, sizeof *slow);
	fitab *none = codec_alloc(F->c, sizeof *none);
	if (!leafof || !alts || !slow || !none) {
		F->ok = false;
		return;
	}
	*slow = *op;
	none->slow = slow;
	bool any = false;
	for (size_t li = 0; li < r->nleaves; li++) {
		alts[li] = (fop){.kind = F_INLINE, .word = op->word, .shift = op->shift, .mask = op->mask,
		                 .align = op->align, .inl = in->alt[li]};
		if (in->alt[li] && lower_inline(F, &alts[li], slow)) {
			any = true;
			continue;
		}
		/* a check that never holds: the F_INLINE way (the root's table
		 * is shared, whichever leaves each op lowers) */
		alts[li] = (fop){.kind = F_INLP, .ichk = 0, .imatch = 1, .itab = none};
	}
	if (!any || !F->ok)
		return;
	*op = (fop){.kind = F_INLC, .word = op->word, .shift = op->shift, .mask = op->mask,
	            .align = op->align, .ctab = leafof, .alts = alts, .cslow = slow,
	            .ipre = in->pre, .nmt = cx_itext(F->c, CODEC_NO_MATCH, in->owner->name, in->field->f)};
}

/* A number right before a segment (a register's, before its swizzle,
 * say) is printed by the segment's op: one dispatch fewer. */
static void fuse_numbers(fop *prog)
{
	fop *out = prog;
	for (fop *op = prog;; op++) {
		if (op->kind == F_UINT && !op->align && op->mask <= UINT32_MAX &&
		    (op[1].kind == F_SEG || op[1].kind == F_SEGT)) {
			fop n = op[1];
			n.kind = op[1].kind == F_SEG ? F_NSEG : F_NSEGT;
			n.fw = op->word;
			n.ushift = op->shift;
			n.len = (uint32_t)op->mask;
			*out++ = n;
			op++;
			continue;
		}
		*out++ = *op;
		if (op->kind == F_END)
			break;
	}
}

/* A segment or a text right before its program's end does the end
 * itself (the F_END stays, for whatever reads the program to its end);
 * a gathered immediate of a plain type is printed in the loop. */
static void fuse_ends(fop *prog)
{
	static const uint8_t ended[F_KINDS] = {
		[F_SEG] = F_SEGE, [F_SEGT] = F_SEGTE, [F_NSEG] = F_NSEGE, [F_NSEGT] = F_NSEGTE,
		[F_TEXT] = F_TEXTE, [F_MEMO] = F_MEMOE,
	};
	for (fop *op = prog; op->kind != F_END; op++) {
		if (op[1].kind == F_END && ended[op->kind])
			op->kind = ended[op->kind];
		if (op->kind == F_EXPR && op->ex->ng &&
		    (op->field->type == SPEC_TYPE_INT || op->field->type == SPEC_TYPE_UINT ||
		     op->field->type == SPEC_TYPE_HEX))
			op->kind = F_EXPRG;
	}
}

static void lower_program(fast_build *F, const fop *prog)
{
	if (!prog || !F->ok || !seen_add(F, prog))
		return;
	fuse_numbers((fop *)prog);
	fuse_ends((fop *)prog);
	for (fop *op = (fop *)prog; op->kind != F_END && F->ok; op++) {
		if (op->kind != F_INLINE)
			continue;
		lower_finl(F, op->inl);
		if (op->inl->cls) {
			lower_cls(F, op);
			if (op->kind == F_INLC && op[1].kind == F_END)
				op->kind = F_INLCT;
		} else if (lower_inline(F, op, NULL) && op[1].kind == F_END)
			op->kind = F_INLPT;
	}
}

/* Plan pl of leaf lf as the instruction: its asserts as F_ASSERT ops
 * before a copy of its program, so that the instruction's scope runs one
 * program and no scope_asserts; NULL: none needed, or they cannot be
 * ops, or no memory (F->ok says). */
static const fop *top_program(fast_build *F, const cleaf *lf, const cplan *pl)
{
	unsigned na = plan_nasserts(lf, pl);
	if (!na || !pl->fops)
		return NULL;
	fop *out = fast_ops_alloc(F, na + pl->nfops + 1);
	if (!out) {
		F->ok = false;
		return NULL;
	}
	const fmap own = {.base = 0, .width = lf->b->size};
	if (!assert_ops(F, lf, pl, &own, out))
		return NULL;
	memcpy(out + na, pl->fops, (pl->nfops + 1) * sizeof *out); /* with its F_END */
	return out;
}

/* codec.ftop, from the leaves' final programs. */
static bool build_tops(fast_build *F)
{
	codec *c = F->c;
	size_t n = c->m->nbitsets;
	char *mem = codec_alloc(c, n * sizeof(ftop) + 48);
	if (!mem)
		return false;
	ftop *tops = (ftop *)(mem + (64 - (uintptr_t)mem % 64) % 64);
	memset(tops, 0, n * sizeof *tops);
	for (size_t i = 0; i < n; i++) {
		const spec_bits *dc = &c->m->bitsets[i]->dontcare;
		tops[i].dc2 = c->nw <= 2;
		for (unsigned k = 0; k < 2 && k < c->nw; k++)
			tops[i].dc[k] = k < dc->nwords ? dc->w[k] : 0;
		const cleaf *lf = c->leaf[i];
		unsigned v = lf && lf->v1 && !lf->npn;
		if (!lf || !lf->plan[v] || lf->nex > CODEC_CACHE_SLOTS)
			continue;
		const cplans *ps = lf->plan[v];
		ftop *t = &tops[i];
		t->lf = lf;
		t->v = (uint8_t)v;
		t->nex = (uint16_t)lf->nex;
		if (ps->eval || (ps->tab && !ps->px.n))
			continue; /* fast_scope's way */
		ftop_plan *p = codec_alloc(c, ps->nplans * sizeof *p);
		if (!p)
			return false;
		for (unsigned k = 0; k < ps->nplans; k++) {
			const cplan *pl = &ps->plans[k];
			const fop *top = top_program(F, lf, pl);
			if (!F->ok)
				return false;
			p[k] = (ftop_plan){.fops = top ? top : pl->fops, .pl = pl, .truth = pl->truth,
			                   .asserts = !top && pl->asserts};
		}
		t->plans = p;
		t->tab = ps->tab;
		t->pw[0] = ps->px.pw[0];
		t->pw[1] = ps->px.pw[1];
		t->pn0 = ps->px.pn0;
		t->pm[0] = ps->px.pm[0];
		t->pm[1] = ps->px.pm[1];
	}
	c->ftop = tops;
	return true;
}

typedef enum { FAST_BUILT, FAST_NO_MEMORY, FAST_OVER_BUDGET } fast_outcome;

/* Every plan's program compiled (segments of at most seg_bits bits),
 * inlined and lowered (merged segments' tables, past their first op, at
 * most merge_cap bytes); *bytes: the tables rendered.  Uncapped (a
 * merge_cap of SIZE_MAX), it stops as soon as the compiled segments'
 * tables alone pass the budget: merging only adds to them. */
static fast_outcome build_fast_once(codec *c, unsigned seg_bits, size_t merge_cap, size_t *bytes)
{
	char *dec = codec_alloc(c, 4 * CODEC_DEC_N + FAST_PAD);
	if (!dec)
		return FAST_NO_MEMORY;
	for (unsigned v = 0; v < CODEC_DEC_N; v++)
		snprintf(dec + 4 * v, 4, "%u", v);
	c->dec = dec;
	fast_build F = {.c = c, .ok = true, .seg_bits = seg_bits, .merge_cap = merge_cap};
	F.x = malloc(sizeof *F.x);
	if (!F.x)
		return FAST_NO_MEMORY;
	cx_init(F.x, c, CX_DISASM, 0);
	for (size_t i = 0; i < c->m->nbitsets && F.ok; i++) {
		const cleaf *lf = c->leaf[i];
		if (!lf)
			continue;
		for (unsigned v = 0; v < 2 && F.ok; v++) {
			cplans *ps = (cplans *)lf->plan[v];
			if (!ps)
				continue;
			plans_pext_masks(ps);
			for (unsigned k = 0; k < ps->nplans && F.ok; k++)
				compile_plan(&F, lf, v, (cplan *)&ps->plans[k]);
		}
	}
	*bytes = F.table_bytes;
	if (F.ok && merge_cap == SIZE_MAX && F.table_bytes > F.c->fast_budget) {
		free(F.x);
		free(F.known);
		return FAST_OVER_BUDGET;
	}
	/* then nested fields inlined, every plan from the programs as compiled */
	size_t np = 0, k = 0;
	for (size_t i = 0; i < c->m->nbitsets; i++)
		for (unsigned v = 0; c->leaf[i] && v < 2; v++)
			np += c->leaf[i]->plan[v] ? c->leaf[i]->plan[v]->nplans : 0;
	const fop **inl = calloc(np + 1, sizeof *inl);
	uint32_t *ninl = calloc(np + 1, sizeof *ninl);
	F.ok = F.ok && inl && ninl;
	for (size_t i = 0; i < c->m->nbitsets && F.ok; i++)
		for (unsigned v = 0; c->leaf[i] && v < 2 && F.ok; v++)
			for (unsigned q = 0; c->leaf[i]->plan[v] && q < c->leaf[i]->plan[v]->nplans; q++, k++) {
				const cplan *pl = &c->leaf[i]->plan[v]->plans[q];
				inl[k] = pl->fops ? inline_plan(&F, c->leaf[i], v, pl, &ninl[k]) : NULL;
			}
	k = 0;
	for (size_t i = 0; i < c->m->nbitsets && F.ok; i++)
		for (unsigned v = 0; c->leaf[i] && v < 2; v++)
			for (unsigned q = 0; c->leaf[i]->plan[v] && q < c->leaf[i]->plan[v]->nplans; q++, k++)
				if (inl[k]) {
					((cplan *)&c->leaf[i]->plan[v]->plans[q])->fops = inl[k];
					((cplan *)&c->leaf[i]->plan[v]->plans[q])->nfops = ninl[k];
				}
	free(inl);
	free(ninl);
	F.ctab = calloc(c->m->nroots + 1, sizeof *F.ctab);
	F.ok = F.ok && F.ctab;
	for (size_t i = 0; i < c->m->nbitsets && F.ok; i++)
		for (unsigned v = 0; c->leaf[i] && v < 2; v++)
			for (unsigned q = 0; c->leaf[i]->plan[v] && q < c->leaf[i]->plan[v]->nplans; q++)
				lower_program(&F, c->leaf[i]->plan[v]->plans[q].fops);
	free(F.ctab);
	F.ok = F.ok && build_tops(&F);
	free(F.seen);
	free(F.x);
	free(F.known);
	*bytes = F.table_bytes;
	if (!F.ok)
		return FAST_NO_MEMORY;
	return merge_cap == SIZE_MAX && F.table_bytes > F.c->fast_budget ? FAST_OVER_BUDGET
	                                                                  : FAST_BUILT;
}

bool codec_build_fast(codec *c)
{
	codec_fast_set_pext(c, true);
	codec_mark mark = codec_arena_mark(c);
	size_t bytes = 0;
	fast_outcome r = build_fast_once(c, FAST_SEG_BITS, SIZE_MAX, &bytes);
	c->fast_table_bytes = bytes;
	c->fast_capped = 0;
	if (r != FAST_OVER_BUDGET)
		return r == FAST_BUILT;
	c->fast_capped = c->ftop ? 2 : 1;
	/* Wide segments are what makes a program fast when their tables stay
	 * in the cache, and what makes it slow when every word reads a line
	 * of its own from megabytes of them (random words of a large ISA:
	 * ir3's tables come to 8.5 MB, 0.64 MB capped).  So once the tables
	 * outgrow a second-level cache, everything fast.c made is given back
	 * and built again with narrower segments (ir3's compiled segments
	 * alone pass the budget: 30 ms of 140 thrown away, not the whole). */
	codec_arena_release(c, mark);
	for (size_t i = 0; i < c->m->nbitsets; i++)
		for (unsigned v = 0; c->leaf[i] && v < 2; v++)
			for (unsigned q = 0; c->leaf[i]->plan[v] && q < c->leaf[i]->plan[v]->nplans; q++) {
				cplan *pl = (cplan *)&c->leaf[i]->plan[v]->plans[q];
				pl->fops = NULL;
				pl->nfops = 0;
			}
	c->ftop = NULL;
	c->dec = NULL;
	if (build_fast_once(c, FAST_SEG_BITS_CAPPED, FAST_MERGE_CAP, &bytes) != FAST_BUILT)
		return false;
	c->fast_table_bytes = bytes;
	return true;
}
