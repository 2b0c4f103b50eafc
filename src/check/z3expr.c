/*
 * z3expr.c - a leaf's expressions as Z3 terms (internal.h, "expressions
 * as terms"): what diff's text proofs (difftext.c) and the meaning
 * proofs (semantic.c) both reason about.
 *
 * A term has 64 bits over the word w and the generation g of a z3_base,
 * with the decoder's semantics: a field is its bits, unsigned; a derived
 * field is its expression; arithmetic wraps as int64 does.  Whatever
 * could mean more than that is left untranslated (NULL), so that callers
 * answer unknown rather than guess: a name an earlier <override> may
 * define (its value depends on which case holds), a <param> (its value
 * comes from the enclosing bitset), a division, remainder or shift by a
 * value that is not a constant the decoder accepts.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Mesa's decoder keeps a stack of the expressions being evaluated, 8
 * deep; so does the translation. */
#define Z3_TR_STACK 8u

/* A question a translation asked on the way (whether y is on the stack
 * in a searched slot), with the answer: the highest slot y is in (0:
 * none, slot 0 being never searched).  These and the depth reached are
 * all a translation's result can depend on the stack by (z3_eval). */
typedef struct tr_ask {
	const spec_expr *y;
	unsigned slot;
} tr_ask;

/* The questions asked so far by the translations open on a stack, each
 * translation's from where it started (shared by the copies of a z3_tr
 * made for a param's outer scope). */
typedef struct z3_rec {
	tr_ask *asked;
	size_t n, cap;
	unsigned maxsp; /* the deepest stack an evaluation began on */
	bool lost;      /* a question not recorded (no memory): keep nothing */
} z3_rec;

typedef struct z3_tr {
	z3_base *b;
	const z3_scope *scope;
	const spec_expr *stack[Z3_TR_STACK];
	unsigned sp;
	z3_rec *rec;
} z3_tr;

static Z3_ast z3_num(z3_base *b, int64_t v)
{
	return Z3_mk_int64(b->ctx, v, Z3_mk_bv_sort(b->ctx, 64));
}

static Z3_ast z3_bool01(z3_base *b, Z3_ast cond)
{
	return Z3_mk_ite(b->ctx, cond, z3_num(b, 1), z3_num(b, 0));
}

Z3_ast z3_is_true(z3_base *b, Z3_ast v)
{
	return Z3_mk_not(b->ctx, Z3_mk_eq(b->ctx, v, z3_num(b, 0)));
}

/* A constant term's value (simplified first). */
static bool z3_const_of(z3_base *b, Z3_ast t, int64_t *v)
{
	Z3_ast s = Z3_simplify(b->ctx, t);
	return Z3_is_numeral_ast(b->ctx, s) && Z3_get_numeral_int64(b->ctx, s, v);
}

static void *z3_tr_build(void *ctx, spec_expr_op op, int64_t num, const char *name,
                         void *const kids[3]);

static void record(z3_rec *r, const spec_expr *y, unsigned slot)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		tr_ask *a = realloc(r->asked, cap * sizeof *a);
		if (!a) {
			r->lost = true;
			return;
		}
		r->asked = a;
		r->cap = cap;
	}
	r->asked[r->n++] = (tr_ask){y, slot};
}

/* The highest slot among 1..top of stack st that holds y, or 0. */
static unsigned slot_of(const spec_expr *const *st, unsigned top, const spec_expr *y)
{
	for (unsigned i = top; i >= 1; i--)
		if (st[i] == y)
			return i;
	return 0;
}

/* Whether Mesa's evaluate_expr would refuse x as re-entrant: x is on
 * the stack in a slot other than the first (Mesa does not search slot 0,
 * and evaluates x again when it is only there).  Recorded. */
static bool reentrant(const z3_tr *t, const spec_expr *x)
{
	unsigned slot = t->sp ? slot_of(t->stack, t->sp - 1, x) : 0;
	record(t->rec, x, slot);
	return slot != 0;
}

/* Mesa caches the value of every expression it evaluates, per scope; the
 * translation keeps one per expression and scope for each way the stack
 * could change it.  The expression on top of the stack (which override
 * holds) is x or one pushed above it, the same wherever x is pushed; so
 * a translation's result depends on the stack below x only through the
 * re-entrancy questions asked on the way and the depth limit.  A kept
 * translation answers for a stack that gives its questions the same
 * answers: a question answered by a slot above x's (its own evaluation's
 * stack) is answered alike anywhere; one answered below (or by x's own
 * slot) must get the same answer there, and the stack must be as
 * shallow (or, if the limit was met, as deep).  Keyed by the whole stack
 * instead, the reductions of Midgard (four overrides, each reading MASK
 * past the others) were translated once per order of the stack: 0.44 s
 * a leaf. */
typedef struct memo_entry {
	const spec_expr *x;
	Z3_ast v;               /* NULL: not translatable there */
	size_t asked, nasked;   /* into z3_memo.asked; slot: over x's own, or 0 */
	uint32_t below;         /* bit i: question i answered below x's slot, yes */
	unsigned depth;         /* deepest slot an evaluation began on, over x's */
	unsigned at;            /* x's slot, when the limit was met (else ~0u) */
	size_t next;            /* the next entry of the same x, + 1; 0: none */
} memo_entry;

/* Questions answered below a kept translation's slot, at most: one with
 * more is kept for its exact stack only. */
#define MEMO_BELOW 32u

struct z3_memo {
	memo_entry *e;
	size_t n, cap;
	tr_ask *asked;
	size_t nasked, capasked;
	/* x -> its first entry + 1, an open hash (nslots a power of two above
	 * twice the number of expressions) */
	const spec_expr **xs;
	size_t *first;
	size_t nslots, nxs;
};

z3_memo *z3_memo_new(void)
{
	return calloc(1, sizeof(z3_memo));
}

void z3_memo_free(z3_memo *m)
{
	if (m) {
		free(m->e);
		free(m->asked);
		free(m->xs);
		free(m->first);
		free(m);
	}
}

static size_t x_hash(const spec_expr *x)
{
	uint64_t h = (uint64_t)(uintptr_t)x * 0x9e3779b97f4a7c15ull;
	return (size_t)(h ^ (h >> 29));
}

/* The hash slot of x in m (empty if x has none); m has slots. */
static size_t x_slot(const z3_memo *m, const spec_expr *x)
{
	size_t i = x_hash(x) & (m->nslots - 1);
	while (m->xs[i] && m->xs[i] != x)
		i = (i + 1) & (m->nslots - 1);
	return i;
}

/* Whether kept translation e answers for x pushed on t's stack. */
static bool memo_fits(const z3_memo *m, const memo_entry *e, const z3_tr *t)
{
	unsigned p = t->sp;
	if (e->at != ~0u ? p != e->at : p + e->depth >= Z3_TR_STACK)
		return false;
	for (size_t i = 0; i < e->nasked; i++) {
		const tr_ask *q = &m->asked[e->asked + i];
		if (q->slot)
			continue; /* answered on x's own evaluation's stack */
		bool yes = (p >= 1 && q->y == e->x) || slot_of(t->stack, p ? p - 1 : 0, q->y);
		if (yes != (i < MEMO_BELOW && (e->below >> i & 1)))
			return false;
	}
	return true;
}

static const memo_entry *memo_find(const z3_memo *m, const spec_expr *x, const z3_tr *t)
{
	if (!m || !m->nslots)
		return NULL;
	size_t i = x_slot(m, x);
	for (size_t k = m->xs[i] ? m->first[i] : 0; k; k = m->e[k - 1].next)
		if (memo_fits(m, &m->e[k - 1], t))
			return &m->e[k - 1];
	return NULL;
}

/* Keeps the translation of x pushed at slot p: v, the questions asked
 * from index from of rec on, the deepest slot reached. */
static void memo_put(z3_memo *m, const spec_expr *x, Z3_ast v, const z3_rec *rec, size_t from,
                     unsigned p)
{
	if (!m || rec->lost)
		return;
	size_t nq = rec->n - from;
	memo_entry e = {x, v, m->nasked, 0, 0, rec->maxsp - p, rec->maxsp >= Z3_TR_STACK ? p : ~0u, 0};
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		memo_entry *n2 = realloc(m->e, cap * sizeof *n2);
		if (!n2)
			return;
		m->e = n2;
		m->cap = cap;
	}
	if (m->nasked + nq > m->capasked) {
		size_t cap = m->capasked ? m->capasked : 64;
		while (cap < m->nasked + nq)
			cap *= 2;
		tr_ask *a = realloc(m->asked, cap * sizeof *a);
		if (!a)
			return;
		m->asked = a;
		m->capasked = cap;
	}
	if ((m->nxs + 1) * 2 > m->nslots) {
		size_t ns = m->nslots ? m->nslots * 2 : 64;
		const spec_expr **xs = calloc(ns, sizeof *xs);
		size_t *first = calloc(ns, sizeof *first);
		if (!xs || !first) {
			free(xs);
			free(first);
			return;
		}
		const spec_expr **oxs = m->xs;
		size_t *ofirst = m->first, on = m->nslots;
		m->xs = xs;
		m->first = first;
		m->nslots = ns;
		for (size_t i = 0; i < on; i++)
			if (oxs[i]) {
				size_t j = x_slot(m, oxs[i]);
				m->xs[j] = oxs[i];
				m->first[j] = ofirst[i];
			}
		free(oxs);
		free(ofirst);
	}
	/* a question asked twice the same way counts once */
	for (size_t i = from; i < rec->n; i++) {
		tr_ask q = rec->asked[i];
		q.slot = q.slot > p ? q.slot - p : 0;
		bool yes = rec->asked[i].slot != 0 && rec->asked[i].slot <= p;
		bool dup = false;
		for (size_t k = 0; k < e.nasked && !dup; k++) {
			const tr_ask *o = &m->asked[e.asked + k];
			dup = o->y == q.y && o->slot == q.slot &&
			      (q.slot || (k < MEMO_BELOW && (e.below >> k & 1)) == yes);
		}
		if (dup)
			continue;
		if (!q.slot && yes) {
			if (e.nasked >= MEMO_BELOW)
				return; /* too many to keep */
			e.below |= (uint32_t)1 << e.nasked;
		}
		m->asked[m->nasked + e.nasked++] = q;
	}
	m->nasked += e.nasked;
	size_t i = x_slot(m, x);
	if (!m->xs[i]) {
		m->xs[i] = x;
		m->nxs++;
	}
	e.next = m->first[i];
	m->e[m->n++] = e;
	m->first[i] = m->n;
}

/* x evaluated on top of t's stack, in t's scope (the caller has made
 * sure it is not re-entrant). */
static Z3_ast z3_eval(z3_tr *t, const spec_expr *x)
{
	z3_rec *rec = t->rec;
	z3_memo *m = t->scope->memo;
	unsigned p = t->sp;
	if (p > rec->maxsp)
		rec->maxsp = p;
	if (p == Z3_TR_STACK)
		return NULL;
	const memo_entry *e = memo_find(m, x, t);
	if (e) {
		/* its questions are the open translations' too, as they were
		 * answered here; and the depth it reached */
		for (size_t i = 0; i < e->nasked; i++) {
			const tr_ask *q = &m->asked[e->asked + i];
			record(rec, q->y, q->slot ? q->slot + p
			                          : q->y == x && p >= 1 ? p : slot_of(t->stack, p ? p - 1 : 0, q->y));
		}
		if (p + e->depth > rec->maxsp)
			rec->maxsp = p + e->depth;
		return e->v;
	}
	size_t from = rec->n;
	unsigned maxsp = rec->maxsp;
	rec->maxsp = p;
	t->stack[t->sp++] = x;
	Z3_ast r = spec_expr_fold(x, z3_tr_build, t);
	t->sp--;
	memo_put(m, x, r, rec, from, p);
	if (maxsp > rec->maxsp)
		rec->maxsp = maxsp;
	return r;
}

/* The value of one field definition in t's scope. */
static Z3_ast z3_value(z3_tr *t, const spec_field *f)
{
	z3_base *b = t->b;
	const z3_scope *s = t->scope;
	if (f->kind == SPEC_FIELD && f->high < s->leaf->size && f->high - f->low < 64) {
		unsigned w = f->high - f->low + 1;
		Z3_ast x = Z3_mk_extract(b->ctx, f->high, f->low, s->word);
		return w < 64 ? Z3_mk_zero_ext(b->ctx, 64 - w, x) : x;
	}
	/* a re-entrant derived value is 0 in Mesa, whatever it is else: a
	 * value that depends on what is being evaluated, not on the word */
	if (f->kind == SPEC_DERIVED && f->expr) {
		if (!reentrant(t, f->expr))
			return z3_eval(t, f->expr);
		if (b->lenient)
			return z3_num(b, 0); /* what Mesa reads there */
	}
	return NULL;
}

/* The decoder looks a name up case by case from the leaf upwards, each
 * bitset's overrides in document order and then its default, and takes
 * the first case that defines it and holds.  A default case holds; so
 * does the override whose expression is on top of the stack (Mesa
 * counts the innermost expression being evaluated as true, no other);
 * any other override holds as its condition says, evaluated nested.
 * So the value is a chain of if-then-else over the conditional definers
 * before the first unconditional one.  A name no case defines is a
 * <param> of the field the scope's word came from: the enclosing scope's
 * name for it, looked up there.
 *
 * Mesa evaluates the overrides on the way that define nothing of the
 * name as well, and caches every value it computes, per scope; and an
 * evaluation of an expression already on its stack (but for slot 0) is
 * refused as 0, not cached.  The translation follows that as long as
 * every value it computes is a function of the word alone, so that the
 * cache cannot make a difference: an override on the way that defines
 * nothing is skipped when Mesa would refuse it, else translated (and its
 * value dropped); a definer or derived value that Mesa would refuse (0
 * here, maybe not elsewhere) makes the translation give up (NULL). */
static Z3_ast z3_lookup(z3_tr *t, const spec_bitset *from, size_t case0, const char *name)
{
	const z3_scope *s = t->scope;
	z3_base *b = t->b;
	const spec_expr *top = t->sp ? t->stack[t->sp - 1] : NULL;
	for (const spec_bitset *bs = from; bs; bs = bs->parent, case0 = 0)
		for (size_t c = case0; c < bs->ncases; c++) {
			const spec_case *sc = &bs->cases[c];
			const spec_field *def = NULL;
			for (size_t f = 0; f < sc->nfields && !def; f++)
				if (sc->fields[f].kind != SPEC_ASSERT && !strcmp(sc->fields[f].name, name))
					def = &sc->fields[f];
			if (!def) {
				if (sc->expr && sc->expr != top && !reentrant(t, sc->expr) &&
				    !z3_eval(t, sc->expr) && !b->lenient)
					return NULL;
				continue;
			}
			if (!sc->expr || sc->expr == top)
				return z3_value(t, def);
			/* leniently, a condition Mesa refuses reads 0, as there, and
			 * one that cannot be translated does not hold */
			if (reentrant(t, sc->expr)) {
				if (b->lenient)
					continue;
				return NULL;
			}
			Z3_ast cond = z3_eval(t, sc->expr);
			if (!cond) {
				if (b->lenient)
					continue;
				return NULL;
			}
			Z3_ast then = z3_value(t, def);
			Z3_ast rest = then ? z3_lookup(t, bs, c + 1, name) : NULL;
			return rest ? Z3_mk_ite(b->ctx, z3_is_true(b, cond), then, rest) : NULL;
		}
	for (size_t p = 0; s->via && s->outer && p < s->via->nparams; p++) {
		const spec_param *pa = &s->via->params[p];
		if (strcmp(pa->as ? pa->as : pa->name, name))
			continue;
		z3_tr up = *t;
		up.scope = s->outer;
		return z3_lookup(&up, s->outer->leaf, 0, pa->name);
	}
	/* Found nowhere: the decoder reports it and reads 0; but a scope
	 * that is not the whole decoding (a sub-bitset taken alone) may
	 * lack the params its enclosing bitset would pass. */
	return s->complete ? z3_num(b, 0) : NULL;
}

static Z3_ast z3_field(z3_tr *t, const char *name)
{
	if (t->scope->lookup)
		return t->scope->lookup(t->scope->lookup_ctx, name);
	Z3_ast r = z3_lookup(t, t->scope->leaf, 0, name);
	if (!r && t->scope->free_names) {
		/* whatever the decoder would read there: any value */
		*t->scope->free_names = true;
		return Z3_mk_fresh_const(t->b->ctx, "any", Z3_mk_bv_sort(t->b->ctx, 64));
	}
	return r;
}

static void *z3_tr_build(void *ctx, spec_expr_op op, int64_t num, const char *name,
                         void *const kids[3])
{
	z3_tr *t = ctx;
	z3_base *b = t->b;
	Z3_context c = b->ctx;
	Z3_ast x = kids[0], y = kids[1], z = kids[2];
	int64_t k;
	switch (op) {
	case SPEC_OP_NUM: return z3_num(b, num);
	case SPEC_OP_FIELD: return z3_field(t, name);
	case SPEC_OP_GPU_ID: return Z3_mk_zero_ext(c, 32, b->g);
	case SPEC_OP_NOT: return z3_bool01(b, Z3_mk_eq(c, x, z3_num(b, 0)));
	case SPEC_OP_BITNOT: return Z3_mk_bvnot(c, x);
	case SPEC_OP_NEG: return Z3_mk_bvneg(c, x);
	case SPEC_OP_POS: return x;
	case SPEC_OP_MUL: return Z3_mk_bvmul(c, x, y);
	case SPEC_OP_ADD: return Z3_mk_bvadd(c, x, y);
	case SPEC_OP_SUB: return Z3_mk_bvsub(c, x, y);
	case SPEC_OP_DIV:
	case SPEC_OP_MOD:
		/* the decoder fails on 0 and on INT64_MIN / -1: constants only */
		if (!z3_const_of(b, y, &k) || k == 0 || k == -1)
			return NULL;
		return op == SPEC_OP_DIV ? Z3_mk_bvsdiv(c, x, y) : Z3_mk_bvsrem(c, x, y);
	case SPEC_OP_SHL:
	case SPEC_OP_SHR:
		if (!z3_const_of(b, y, &k) || k < 0 || k > 63)
			return NULL;
		return op == SPEC_OP_SHL ? Z3_mk_bvshl(c, x, y) : Z3_mk_bvashr(c, x, y);
	case SPEC_OP_LT: return z3_bool01(b, Z3_mk_bvslt(c, x, y));
	case SPEC_OP_GT: return z3_bool01(b, Z3_mk_bvsgt(c, x, y));
	case SPEC_OP_LE: return z3_bool01(b, Z3_mk_bvsle(c, x, y));
	case SPEC_OP_GE: return z3_bool01(b, Z3_mk_bvsge(c, x, y));
	case SPEC_OP_EQ: return z3_bool01(b, Z3_mk_eq(c, x, y));
	case SPEC_OP_NE: return z3_bool01(b, Z3_mk_not(c, Z3_mk_eq(c, x, y)));
	case SPEC_OP_BITAND: return Z3_mk_bvand(c, x, y);
	case SPEC_OP_BITXOR: return Z3_mk_bvxor(c, x, y);
	case SPEC_OP_BITOR: return Z3_mk_bvor(c, x, y);
	case SPEC_OP_AND: {
		Z3_ast both[2] = {z3_is_true(b, x), z3_is_true(b, y)};
		return z3_bool01(b, Z3_mk_and(c, 2, both));
	}
	case SPEC_OP_OR: {
		Z3_ast either[2] = {z3_is_true(b, x), z3_is_true(b, y)};
		return z3_bool01(b, Z3_mk_or(c, 2, either));
	}
	case SPEC_OP_COND: return Z3_mk_ite(c, z3_is_true(b, x), y, z);
	}
	return NULL;
}

/* ------------------------------------------------ expression hazards */

/* A node of the hazard fold: the value, as z3_tr_build makes it, and for
 * each hazard the words whose evaluation of the node meets it. */
typedef struct hz_node {
	Z3_ast v;
	Z3_ast h[Z3_HAZARDS];
	struct hz_node *next; /* every node of a fold, to free them */
} hz_node;

typedef struct hz_fold {
	z3_tr t;
	hz_node *nodes;
} hz_fold;

static bool hz_never(z3_base *b, Z3_ast x)
{
	return Z3_get_bool_value(b->ctx, x) == Z3_L_FALSE;
}

/* x or y, and x and y, kept literally false where a side is: most
 * expressions have no hazard at all, and a false formula is not asked */
static Z3_ast hz_or(z3_base *b, Z3_ast x, Z3_ast y)
{
	if (hz_never(b, x))
		return y;
	if (hz_never(b, y))
		return x;
	Z3_ast both[2] = {x, y};
	return Z3_mk_or(b->ctx, 2, both);
}

Z3_ast z3_and_kept_false(z3_base *b, Z3_ast x, Z3_ast y)
{
	if (hz_never(b, x))
		return x;
	if (hz_never(b, y))
		return y;
	Z3_ast both[2] = {x, y};
	return Z3_mk_and(b->ctx, 2, both);
}

static Z3_ast hz_negative(z3_base *b, Z3_ast x)
{
	return Z3_mk_bvslt(b->ctx, x, z3_num(b, 0));
}

/* What the node's own operator adds: signed overflow of + - * and unary
 * -, bits a << pushes out (C's undefined behaviour, which Mesa's
 * generated decoder has; ours wraps), a division or remainder by 0 or of
 * INT64_MIN by -1, a shift count outside 0..63. */
static void hz_own(z3_base *b, spec_expr_op op, Z3_ast x, Z3_ast y, Z3_ast r,
                   Z3_ast h[Z3_HAZARDS])
{
	Z3_context c = b->ctx;
	switch (op) {
	case SPEC_OP_ADD: /* operands of one sign, a result of the other */
		h[Z3_HAZARD_OVERFLOW] = hz_negative(b, Z3_mk_bvand(c, Z3_mk_bvxor(c, x, r),
		                                                   Z3_mk_bvxor(c, y, r)));
		break;
	case SPEC_OP_SUB:
		h[Z3_HAZARD_OVERFLOW] = hz_negative(b, Z3_mk_bvand(c, Z3_mk_bvxor(c, x, y),
		                                                   Z3_mk_bvxor(c, x, r)));
		break;
	case SPEC_OP_MUL:
		/* The product of the operands sign-extended to 128 bits is not
		 * the 64-bit result's sign extension.  Not Z3's own
		 * Z3_mk_bvmul_no_overflow/_no_underflow: Z3 4.8.12 (Debian 12's)
		 * folds both to false for any negative constant operand, so
		 * (-63) * -1 "overflowed" (found by the fuzz target semantic). */
		h[Z3_HAZARD_OVERFLOW] = Z3_mk_not(
		    c, Z3_mk_eq(c, Z3_mk_bvmul(c, Z3_mk_sign_ext(c, 64, x), Z3_mk_sign_ext(c, 64, y)),
		                Z3_mk_sign_ext(c, 64, r)));
		break;
	case SPEC_OP_NEG:
		h[Z3_HAZARD_OVERFLOW] = Z3_mk_eq(c, x, z3_num(b, INT64_MIN));
		break;
	case SPEC_OP_DIV:
	case SPEC_OP_MOD:
		h[Z3_HAZARD_DIVIDE] = Z3_mk_eq(c, y, z3_num(b, 0));
		h[Z3_HAZARD_OVERFLOW] = z3_and_kept_false(b, Z3_mk_eq(c, x, z3_num(b, INT64_MIN)),
		                               Z3_mk_eq(c, y, z3_num(b, -1)));
		break;
	case SPEC_OP_SHL: /* bits lost only by a shift that is in range */
		h[Z3_HAZARD_SHIFT] = Z3_mk_not(c, Z3_mk_bvule(c, y, z3_num(b, 63)));
		h[Z3_HAZARD_OVERFLOW] = z3_and_kept_false(b, Z3_mk_bvule(c, y, z3_num(b, 63)),
		                               Z3_mk_not(c, Z3_mk_eq(c, Z3_mk_bvashr(c, r, y), x)));
		break;
	case SPEC_OP_SHR:
		h[Z3_HAZARD_SHIFT] = Z3_mk_not(c, Z3_mk_bvule(c, y, z3_num(b, 63)));
		break;
	default:
		break;
	}
}

static void *hz_build(void *ctx, spec_expr_op op, int64_t num, const char *name,
                      void *const kids[3])
{
	hz_fold *F = ctx;
	z3_base *b = F->t.b;
	Z3_context c = b->ctx;
	const hz_node *k[3] = {kids[0], kids[1], kids[2]};
	hz_node *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->next = F->nodes;
	F->nodes = n;
	Z3_ast x = k[0] ? k[0]->v : NULL, y = k[1] ? k[1]->v : NULL;
	switch (op) {
	case SPEC_OP_DIV: n->v = Z3_mk_bvsdiv(c, x, y); break;
	case SPEC_OP_MOD: n->v = Z3_mk_bvsrem(c, x, y); break;
	case SPEC_OP_SHL: n->v = Z3_mk_bvshl(c, x, y); break;
	case SPEC_OP_SHR: n->v = Z3_mk_bvashr(c, x, y); break;
	default: {
		void *vals[3] = {x, y, k[2] ? k[2]->v : NULL};
		n->v = z3_tr_build(&F->t, op, num, name, vals);
	}
	}
	if (!n->v)
		return NULL; /* a name that cannot be translated: unknown */
	Z3_ast own[Z3_HAZARDS] = {0};
	hz_own(b, op, x, y, n->v, own);
	for (unsigned h = 0; h < Z3_HAZARDS; h++) {
		Z3_ast any = own[h] ? own[h] : Z3_mk_false(c);
		/* a kid is evaluated only where C's && || ?: get to it */
		for (unsigned i = 0; i < 3; i++) {
			if (!k[i])
				continue;
			Z3_ast kid = k[i]->h[h];
			if (i > 0 && (op == SPEC_OP_AND || (op == SPEC_OP_COND && i == 1)))
				kid = z3_and_kept_false(b, z3_is_true(b, x), kid);
			else if (i > 0 && (op == SPEC_OP_OR || op == SPEC_OP_COND))
				kid = z3_and_kept_false(b, Z3_mk_not(c, z3_is_true(b, x)), kid);
			any = hz_or(b, any, kid);
		}
		n->h[h] = any;
	}
	return n;
}

bool z3_expr_hazards(z3_base *b, const z3_scope *scope, const spec_expr *x,
                     Z3_ast hz[Z3_HAZARDS], Z3_ast *value)
{
	z3_rec rec = {0};
	hz_fold F = {.t = {.b = b, .scope = scope, .rec = &rec}};
	if (!x)
		return false;
	/* evaluated as z3_eval does: x on the stack while it is folded */
	F.t.stack[F.t.sp++] = x;
	const hz_node *top = spec_expr_fold(x, hz_build, &F);
	bool ok = top && Z3_get_error_code(b->ctx) == Z3_OK;
	for (unsigned h = 0; h < Z3_HAZARDS; h++)
		hz[h] = ok ? top->h[h] : NULL;
	if (value)
		*value = ok ? top->v : NULL;
	while (F.nodes) {
		hz_node *next = F.nodes->next;
		free(F.nodes);
		F.nodes = next;
	}
	free(rec.asked);
	return ok;
}

Z3_ast z3_expr_in(z3_base *b, const z3_scope *scope, const spec_expr *x)
{
	z3_rec rec = {0};
	z3_tr t = {.b = b, .scope = scope, .rec = &rec};
	Z3_ast r = x ? z3_eval(&t, x) : NULL;
	free(rec.asked);
	return r && Z3_get_error_code(b->ctx) == Z3_OK ? r : NULL;
}

Z3_ast z3_name_in(z3_base *b, const z3_scope *scope, const char *name)
{
	z3_rec rec = {0};
	z3_tr t = {.b = b, .scope = scope, .rec = &rec};
	Z3_ast r = z3_field(&t, name);
	free(rec.asked);
	return r && Z3_get_error_code(b->ctx) == Z3_OK ? r : NULL;
}

Z3_ast z3_plain_name_in(z3_base *b, const z3_scope *scope, const char *name)
{
	/* bounded by the scopes' nesting, which the loader bounds */
	for (const z3_scope *s = scope; s; ) {
		for (const spec_bitset *bs = s->leaf; bs; bs = bs->parent)
			for (size_t c = 0; c < bs->ncases; c++) {
				const spec_case *sc = &bs->cases[c];
				for (size_t f = 0; f < sc->nfields; f++) {
					const spec_field *fd = &sc->fields[f];
					if (fd->kind == SPEC_ASSERT || strcmp(fd->name, name))
						continue;
					if (sc->expr || fd->kind != SPEC_FIELD || fd->high >= s->leaf->size ||
					    fd->high - fd->low >= 64)
						return NULL; /* a condition, or a value Mesa computes */
					unsigned w = fd->high - fd->low + 1;
					Z3_ast x = Z3_mk_extract(b->ctx, fd->high, fd->low, s->word);
					return w < 64 ? Z3_mk_zero_ext(b->ctx, 64 - w, x) : x;
				}
			}
		/* no case defines it: the param that passes it in, further out */
		const z3_scope *up = NULL;
		for (size_t p = 0; s->via && s->outer && p < s->via->nparams && !up; p++) {
			const spec_param *pa = &s->via->params[p];
			if (!strcmp(pa->as ? pa->as : pa->name, name)) {
				name = pa->name;
				up = s->outer;
			}
		}
		s = up;
	}
	return NULL;
}

typedef struct plain_names {
	z3_base *b;
	const z3_scope *scope;
} plain_names;

static Z3_ast plain_lookup(void *ctx, const char *name)
{
	const plain_names *p = ctx;
	return z3_plain_name_in(p->b, p->scope, name);
}

Z3_ast z3_plain_expr_in(z3_base *b, const z3_scope *scope, const spec_expr *x)
{
	plain_names p = {b, scope};
	z3_scope s = *scope;
	s.memo = NULL;
	s.free_names = NULL;
	s.lookup = plain_lookup;
	s.lookup_ctx = &p;
	return z3_expr_in(b, &s, x);
}

Z3_ast z3_expr(z3_base *b, const spec_bitset *leaf, const spec_expr *x)
{
	z3_scope s = {leaf, b->w, NULL, NULL, false, z3_memo_new(), NULL, NULL, NULL};
	Z3_ast r = z3_expr_in(b, &s, x);
	z3_memo_free(s.memo);
	return r;
}

void z3_model_word(z3_base *b, Z3_model m, uint64_t *w, uint32_t *gen)
{
	for (unsigned i = 0; i < words_for(b->size); i++) {
		unsigned hi = (i + 1) * 64 - 1 < b->size - 1 ? (i + 1) * 64 - 1 : b->size - 1;
		Z3_ast part = Z3_mk_extract(b->ctx, hi, i * 64, b->w), v;
		uint64_t u = 0;
		if (Z3_model_eval(b->ctx, m, part, true, &v))
			Z3_get_numeral_uint64(b->ctx, v, &u);
		w[i] = u;
	}
	Z3_ast v;
	uint64_t g = 0;
	if (Z3_model_eval(b->ctx, m, b->g, true, &v))
		Z3_get_numeral_uint64(b->ctx, v, &g);
	*gen = (uint32_t)g;
}
