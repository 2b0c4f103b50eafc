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

typedef struct z3_tr {
	z3_base *b;
	const z3_scope *scope;
	const spec_expr *stack[Z3_TR_STACK];
	unsigned sp;
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

/* Whether Mesa's evaluate_expr would refuse x as re-entrant: x is on
 * the stack in a slot other than the first (Mesa does not search slot 0,
 * and evaluates x again when it is only there). */
static bool reentrant(const z3_tr *t, const spec_expr *x)
{
	for (unsigned i = 1; i < t->sp; i++)
		if (t->stack[i] == x)
			return true;
	return false;
}

/* What a translation gives depends on the expression and on the stack
 * it is made on (re-entrancy): one translation per scope, expression and
 * stack serves every later need of the same, exactly as translating it
 * again would.  Without it, the overrides evaluated on every look-up's
 * way are translated again and again (Midgard: 50 s and 850 MB). */
typedef struct memo_key {
	const spec_expr *x;
	const spec_expr *stack[Z3_TR_STACK];
	unsigned sp;
} memo_key;

struct z3_memo {
	memo_key *keys;
	Z3_ast *vals;  /* NULL: not translatable there */
	size_t n, cap;
	/* an open hash index over keys (entry + 1; 0 empty), nslots a power
	 * of two above twice n: a scope translates hundreds of expressions
	 * on the way of every look-up (Midgard's leaves), so a linear search
	 * made the meaning proofs quadratic */
	uint32_t *slots;
	size_t nslots;
};

z3_memo *z3_memo_new(void)
{
	return calloc(1, sizeof(z3_memo));
}

void z3_memo_free(z3_memo *m)
{
	if (m) {
		free(m->keys);
		free(m->vals);
		free(m->slots);
		free(m);
	}
}

static memo_key key_of(const z3_tr *t, const spec_expr *x)
{
	memo_key k = {x, {0}, t->sp};
	memcpy(k.stack, t->stack, t->sp * sizeof *k.stack);
	return k;
}

static bool key_eq(const memo_key *a, const memo_key *b)
{
	return a->x == b->x && a->sp == b->sp && !memcmp(a->stack, b->stack, a->sp * sizeof *a->stack);
}

static size_t key_hash(const memo_key *k)
{
	uint64_t h = (uint64_t)(uintptr_t)k->x * 0x9e3779b97f4a7c15ull ^ k->sp;
	for (unsigned i = 0; i < k->sp; i++)
		h = (h ^ (uint64_t)(uintptr_t)k->stack[i]) * 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 31));
}

/* The entry of k in m, or -1. */
static long memo_find(const z3_memo *m, const memo_key *k)
{
	if (!m || !m->nslots)
		return -1;
	for (size_t i = key_hash(k) & (m->nslots - 1); m->slots[i]; i = (i + 1) & (m->nslots - 1))
		if (key_eq(&m->keys[m->slots[i] - 1], k))
			return (long)m->slots[i] - 1;
	return -1;
}

static void memo_index(z3_memo *m, size_t e)
{
	size_t i = key_hash(&m->keys[e]) & (m->nslots - 1);
	while (m->slots[i])
		i = (i + 1) & (m->nslots - 1);
	m->slots[i] = (uint32_t)e + 1;
}

static void memo_put(z3_memo *m, const memo_key *k, Z3_ast v)
{
	if (!m || m->n >= UINT32_MAX - 1)
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		memo_key *k2 = realloc(m->keys, cap * sizeof *k2);
		if (!k2)
			return;
		m->keys = k2;
		Z3_ast *v2 = realloc(m->vals, cap * sizeof *v2);
		if (!v2)
			return;
		m->vals = v2;
		m->cap = cap;
	}
	if ((m->n + 1) * 2 > m->nslots) {
		size_t ns = m->nslots ? m->nslots * 2 : 64;
		uint32_t *sl = calloc(ns, sizeof *sl);
		if (!sl)
			return;
		free(m->slots);
		m->slots = sl;
		m->nslots = ns;
		for (size_t e = 0; e < m->n; e++)
			memo_index(m, e);
	}
	m->keys[m->n] = *k;
	m->vals[m->n] = v;
	memo_index(m, m->n++);
}

/* x evaluated on top of t's stack, in t's scope (the caller has made
 * sure it is not re-entrant). */
static Z3_ast z3_eval(z3_tr *t, const spec_expr *x)
{
	if (t->sp == Z3_TR_STACK)
		return NULL;
	memo_key k = key_of(t, x);
	long at = memo_find(t->scope->memo, &k);
	if (at >= 0)
		return t->scope->memo->vals[at];
	t->stack[t->sp++] = x;
	Z3_ast r = spec_expr_fold(x, z3_tr_build, t);
	t->sp--;
	memo_put(t->scope->memo, &k, r);
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
	if (f->kind == SPEC_DERIVED && f->expr && !reentrant(t, f->expr))
		return z3_eval(t, f->expr);
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
				    !z3_eval(t, sc->expr))
					return NULL;
				continue;
			}
			if (!sc->expr || sc->expr == top)
				return z3_value(t, def);
			if (reentrant(t, sc->expr))
				return NULL;
			Z3_ast cond = z3_eval(t, sc->expr);
			if (!cond)
				return NULL;
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
		h[Z3_HAZARD_OVERFLOW] = Z3_mk_not(c, z3_and_kept_false(b, Z3_mk_bvmul_no_overflow(c, x, y, true),
		                                            Z3_mk_bvmul_no_underflow(c, x, y)));
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
	hz_fold F = {.t = {.b = b, .scope = scope}};
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
	return ok;
}

Z3_ast z3_expr_in(z3_base *b, const z3_scope *scope, const spec_expr *x)
{
	z3_tr t = {.b = b, .scope = scope};
	Z3_ast r = x ? z3_eval(&t, x) : NULL;
	return r && Z3_get_error_code(b->ctx) == Z3_OK ? r : NULL;
}

Z3_ast z3_name_in(z3_base *b, const z3_scope *scope, const char *name)
{
	z3_tr t = {.b = b, .scope = scope};
	Z3_ast r = z3_field(&t, name);
	return r && Z3_get_error_code(b->ctx) == Z3_OK ? r : NULL;
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
