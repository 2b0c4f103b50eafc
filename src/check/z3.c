/*
 * z3.c - the Z3 engine: the same questions as the cube engine, asked of
 * the SMT solver.  One engine per root: the word is a bit-vector of the
 * root's size, the generation a 32-bit bit-vector, and each leaf a
 * condition C(w, g) = (w & fixed) == value && min <= g <= max.  The
 * overlap and coverage questions are asked of a second solver in which
 * the word is one Boolean per bit and each leaf a conjunction of literals
 * (two_solver): propositional questions over thousands of leaves that
 * the SAT core answers in milliseconds where the bit-vector form timed
 * out.  A pair still undecided after an unknown is asked in the
 * bit-vector form, one pair at a time (z3_overlap).
 *
 * The context, the solver under the options' limits, the word and gen
 * unknowns and the constants built on them (z3_base) serve diff.c too.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

/* ------------------------------------------------------------ z3_base */

/* Z3 calls this instead of aborting; callers look at the error code. */
static void ignore_error(Z3_context c, Z3_error_code e)
{
	(void)c;
	(void)e;
}

/* Takes a reference to s and puts it under the options' limits. */
static Z3_solver with_limits(const z3_base *b, const prove_options *opt, Z3_solver s)
{
	Z3_context c = b->ctx;
	Z3_solver_inc_ref(c, s);
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	if (opt->timeout_ms)
		Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), opt->timeout_ms);
	if (opt->rlimit)
		Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), opt->rlimit);
	Z3_solver_set_params(c, s, p);
	Z3_params_dec_ref(c, p);
	return s;
}

/* Every solver here is used incrementally (push/pop) from the first
 * query on, and a solver made by Z3_mk_solver then answers every query
 * with the SMT core alone, the one Z3_mk_simple_solver makes, under the
 * same parameters.  Only without the default solver's tactic (its other
 * half, for a first query without push), which is built the first time
 * a solver is used and cost about 4 ms of CPU each time: for two solvers
 * per root, a fifth of ir3's run in the engine; for the base of every
 * leaf, root and expression the meaning proofs open, about 4.5 ms each
 * (measured against the simple solver, 5.7 ms against 1.1 ms for a first
 * small query after push). */
static Z3_solver incremental_solver_new(const z3_base *b, const prove_options *opt)
{
	return with_limits(b, opt, Z3_mk_simple_solver(b->ctx));
}

static double monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void z3_start_run(prove_options *opt)
{
	double limit_s = opt->time_limit_ms ? opt->time_limit_ms / 1e3 : opt->time_limit_s;
	if (!opt->deadline_) /* a run inside a run keeps the outer deadline */
		opt->deadline_ = limit_s ? monotonic_seconds() + limit_s : 0;
}

Z3_lbool z3_solve(z3_base *b, Z3_solver s)
{
	if (!b->deadline) {
		b->queries++;
		return Z3_solver_check(b->ctx, s);
	}
	double left_ms = (b->deadline - monotonic_seconds()) * 1e3;
	if (left_ms < 1) {
		b->out_of_time = true;
		return Z3_L_UNDEF;
	}
	b->queries++;
	/* the query may not outlast the run: its timeout is cut to what is left */
	bool cut = !b->timeout_ms || left_ms < b->timeout_ms;
	if (cut) {
		Z3_params p = Z3_mk_params(b->ctx);
		Z3_params_inc_ref(b->ctx, p);
		Z3_params_set_uint(b->ctx, p, Z3_mk_string_symbol(b->ctx, "timeout"),
		                   (unsigned)left_ms);
		Z3_solver_set_params(b->ctx, s, p);
		Z3_params_dec_ref(b->ctx, p);
	}
	Z3_lbool r = Z3_solver_check(b->ctx, s);
	if (cut && r == Z3_L_UNDEF)
		b->out_of_time = true;
	return r;
}

static Z3_context context_new(void)
{
	if (!prove_z3_available(NULL, 0)) /* libz3 not loaded: no Z3 call may run */
		return NULL;
	Z3_config cfg = Z3_mk_config();
	Z3_context c = cfg ? Z3_mk_context(cfg) : NULL;
	if (cfg)
		Z3_del_config(cfg);
	if (c)
		Z3_set_error_handler(c, ignore_error);
	return c;
}

/* b's solver and unknowns, in b->ctx. */
static void base_on(z3_base *b, const prove_options *opt)
{
	Z3_context c = b->ctx;
	b->solver = incremental_solver_new(b, opt);
	b->word_sort = Z3_mk_bv_sort(c, b->size);
	b->gen_sort = Z3_mk_bv_sort(c, 32);
	b->w = Z3_mk_const(c, Z3_mk_string_symbol(c, "w"), b->word_sort);
	b->g = Z3_mk_const(c, Z3_mk_string_symbol(c, "g"), b->gen_sort);
}

bool z3_base_init(z3_base *b, unsigned size, const prove_options *opt)
{
	*b = (z3_base){.size = size, .deadline = opt->deadline_, .timeout_ms = opt->timeout_ms};
	b->ctx = context_new();
	if (!b->ctx)
		return false;
	base_on(b, opt);
	return true;
}

bool z3_base_init_in(z3_base *b, z3_shared *shared, unsigned size, const prove_options *opt)
{
	*b = (z3_base){.size = size, .deadline = opt->deadline_, .timeout_ms = opt->timeout_ms,
	               .borrowed = true};
	if (!shared->ctx)
		shared->ctx = context_new();
	b->ctx = shared->ctx;
	if (!b->ctx)
		return false;
	base_on(b, opt);
	return true;
}

void z3_shared_free(z3_shared *shared)
{
	if (shared->ctx) {
		if (shared->cover)
			Z3_solver_dec_ref(shared->ctx, shared->cover);
		Z3_del_context(shared->ctx);
	}
	*shared = (z3_shared){0};
}

struct prove_solver {
	z3_shared shared;
};

prove_solver *prove_solver_new(void)
{
	prove_solver *s = calloc(1, sizeof *s);
	if (s && !(s->shared.ctx = context_new())) {
		free(s);
		s = NULL;
	}
	return s;
}

void prove_solver_free(prove_solver *s)
{
	if (s)
		z3_shared_free(&s->shared);
	free(s);
}

bool z3_base_init_with(z3_base *b, prove_solver *s, unsigned size, const prove_options *opt)
{
	return s ? z3_base_init_in(b, &s->shared, size, opt) : z3_base_init(b, size, opt);
}

void z3_cannot_start(spec_diags *diags, spec_loc loc)
{
	char why[512];
	if (prove_z3_available(why, sizeof why))
		spec_diag_add(diags, SPEC_FATAL, "solver", loc, "cannot start the Z3 solver");
	else
		spec_diag_add(diags, SPEC_FATAL, "solver", loc, "%s; use --solver=cube", why);
}

void z3_base_free(z3_base *b)
{
	if (b->ctx) {
		if (b->solver)
			Z3_solver_dec_ref(b->ctx, b->solver);
		if (!b->borrowed)
			Z3_del_context(b->ctx);
	}
	*b = (z3_base){0};
}

Z3_ast z3_bits(const z3_base *b, const uint64_t *w)
{
	unsigned size = b->size;
	if (size <= 64) /* the same numeral, without a Boolean per bit */
		return Z3_mk_unsigned_int64(b->ctx, size < 64 ? w[0] & top_mask(size) : w[0],
		                            b->word_sort);
	bool *bit = malloc(size * sizeof *bit);
	if (!bit)
		return NULL;
	for (unsigned i = 0; i < size; i++)
		bit[i] = (w[i / 64] >> (i % 64)) & 1;
	Z3_ast r = Z3_mk_bv_numeral(b->ctx, size, bit);
	free(bit);
	return r;
}

static Z3_ast gen_const(const z3_base *b, uint32_t v)
{
	return Z3_mk_unsigned_int64(b->ctx, v, b->gen_sort);
}

Z3_ast z3_in_gen(const z3_base *b, spec_gen gen)
{
	Z3_ast parts[2] = {Z3_mk_bvule(b->ctx, gen_const(b, gen.min), b->g),
	                   Z3_mk_bvule(b->ctx, b->g, gen_const(b, gen.max))};
	return Z3_mk_and(b->ctx, 2, parts);
}

Z3_ast z3_in_cube(const z3_base *b, const uint64_t *fixed, const uint64_t *value)
{
	return Z3_mk_eq(b->ctx, Z3_mk_bvand(b->ctx, b->w, z3_bits(b, fixed)), z3_bits(b, value));
}

z3_answer z3_answer_of(Z3_lbool r)
{
	return r == Z3_L_TRUE ? Z3_ANSWER_YES : r == Z3_L_FALSE ? Z3_ANSWER_NO : Z3_ANSWER_UNKNOWN;
}

z3_answer z3_check(z3_base *b, Z3_ast q)
{
	return z3_ask(b, q, NULL, NULL);
}

z3_answer z3_ask(z3_base *b, Z3_ast q, void (*take)(void *ctx, z3_base *b, Z3_model m), void *ctx)
{
	Z3_solver_push(b->ctx, b->solver);
	Z3_solver_assert(b->ctx, b->solver, q);
	z3_answer a = z3_answer_of(z3_solve(b, b->solver));
	if (a == Z3_ANSWER_YES && take) {
		Z3_model m = Z3_solver_get_model(b->ctx, b->solver);
		if (m) {
			Z3_model_inc_ref(b->ctx, m);
			take(ctx, b, m);
			Z3_model_dec_ref(b->ctx, m);
		}
	}
	Z3_solver_pop(b->ctx, b->solver, 1);
	return a;
}

/* ------------------------------------------------------------- engine */

struct z3_engine {
	z3_base b;             /* the context, the word and generation unknowns */
	z3_shared *shared;     /* the run's context and coverage solver */
	Z3_solver pair_solver; /* empty; one question at a time under push/pop:
	                          a pair (bit-vector form) */
	Z3_solver two_solver;  /* the Boolean form: hit, on, later; a phase's
	                          leaf i and the leaves blocked in it, under
	                          push/pop; NULL until first needed */
	const root_view *v;
	Z3_ast *cond;  /* per leaf, bit-vector form (pair_solver) */
	Z3_ast *hit;   /* per leaf: hit == the leaf's literals (def) */
	Z3_ast *def;   /* per leaf: that equation, asserted where needed */
	Z3_ast *on;    /* per leaf: switched off when blocked in a phase */
	Z3_ast *later; /* per leaf and one more: later[k] == some hit[k..] && on */
	Z3_ast *wbit;  /* the word: one Boolean per bit */
	Z3_ast *nbit;  /* their negations, each made once, when first used */
	size_t ndefs;  /* leaves whose hit and def are made, from the last */
	size_t phase;  /* the leaf i of the phase begun */
	bool covering; /* the root's scope of the coverage solver is open */
	Z3_model nothing; /* empty: evaluates the accounting's constant terms */
};

z3_engine *z3_engine_new(const root_view *v, z3_shared *shared, const prove_options *opt,
                         spec_diags *diags)
{
	z3_engine *z = calloc(1, sizeof *z);
	if (!z)
		return NULL;
	z->v = v;
	z->shared = shared;
	if (!z3_base_init_in(&z->b, shared, v->size, opt)) {
		z3_cannot_start(diags, v->root->bitset->loc);
		free(z);
		return NULL;
	}
	Z3_context c = z->b.ctx;
	z->pair_solver = incremental_solver_new(&z->b, opt);
	z->cond = calloc(v->nleaves + 1, sizeof *z->cond);
	if (!z->cond) {
		z3_engine_free(z);
		return NULL;
	}
	for (size_t i = 0; i < v->nleaves; i++) {
		const leaf_cube *l = &v->leaves[i];
		Z3_ast parts[2] = {z3_in_cube(&z->b, l->fixed, l->value), z3_in_gen(&z->b, l->gen)};
		z->cond[i] = l->empty ? Z3_mk_false(c) : Z3_mk_and(c, 2, parts);
	}
	if (Z3_get_error_code(c) != Z3_OK) {
		spec_diag_add(diags, SPEC_FATAL, "solver", v->root->bitset->loc,
		              "Z3 failed to encode root '%s': %s", v->root->bitset->name,
		              Z3_get_error_msg(c, Z3_get_error_code(c)));
		z3_engine_free(z);
		return NULL;
	}
	return z;
}

void z3_engine_free(z3_engine *z)
{
	if (!z)
		return;
	if (z->b.ctx && z->pair_solver)
		Z3_solver_dec_ref(z->b.ctx, z->pair_solver);
	if (z->b.ctx && z->two_solver)
		Z3_solver_dec_ref(z->b.ctx, z->two_solver);
	if (z->b.ctx && z->nothing)
		Z3_model_dec_ref(z->b.ctx, z->nothing);
	if (z->covering)
		Z3_solver_pop(z->b.ctx, z->shared->cover, 1);
	z3_base_free(&z->b);
	free(z->hit);
	free(z->def);
	free(z->later);
	free(z->on);
	free(z->wbit);
	free(z->nbit);
	free(z->cond);
	free(z);
}

size_t z3_engine_queries(const z3_engine *z)
{
	return z->b.queries;
}

bool z3_engine_out_of_time(z3_engine *z)
{
	if (!z->b.out_of_time && z->b.deadline && monotonic_seconds() >= z->b.deadline)
		z->b.out_of_time = true;
	return z->b.out_of_time;
}

/* Reads a bit-vector value of the model, 64 bits at a time, completing
 * the model or not (Z3 then builds its evaluator anew: a constant term
 * needs no completion, and costs a tenth without). */
static bool read_bits_in(z3_engine *z, Z3_model m, bool complete, Z3_ast t, unsigned size,
                         uint64_t *out)
{
	Z3_context c = z->b.ctx;
	for (unsigned lo = 0; lo < size; lo += 64) {
		unsigned hi = lo + 63 < size ? lo + 63 : size - 1;
		Z3_ast val = NULL;
		if (!Z3_model_eval(c, m, Z3_mk_extract(c, hi, lo, t), complete, &val) || !val)
			return false;
		uint64_t u = 0;
		if (!Z3_get_numeral_uint64(c, val, &u))
			return false;
		out[lo / 64] = u;
	}
	return true;
}

static bool read_bits(z3_engine *z, Z3_model m, Z3_ast t, unsigned size, uint64_t *out)
{
	return read_bits_in(z, m, true, t, size, out);
}

z3_answer z3_overlap(z3_engine *z, size_t i, size_t j, uint64_t *witness, uint32_t *gen)
{
	Z3_context c = z->b.ctx;
	Z3_ast both[2] = {z->cond[i], z->cond[j]};
	Z3_solver_push(c, z->pair_solver);
	Z3_solver_assert(c, z->pair_solver, Z3_mk_and(c, 2, both));
	z3_answer a = z3_answer_of(z3_solve(&z->b, z->pair_solver));
	Z3_model m = a == Z3_ANSWER_YES ? Z3_solver_get_model(c, z->pair_solver) : NULL;
	if (m) {
		Z3_model_inc_ref(c, m);
		uint64_t g = 0;
		if (!read_bits(z, m, z->b.w, z->v->size, witness) || !read_bits(z, m, z->b.g, 32, &g))
			a = Z3_ANSWER_UNKNOWN;
		*gen = (uint32_t)g;
		Z3_model_dec_ref(c, m);
	} else if (a == Z3_ANSWER_YES) {
		a = Z3_ANSWER_UNKNOWN;
	}
	Z3_solver_pop(c, z->pair_solver, 1);
	return a;
}

/* "Bit b of the word is v", over the word's Boolean bits. */
static Z3_ast bit_lit(z3_engine *z, unsigned b, bool v)
{
	if (!v && !z->nbit[b])
		z->nbit[b] = Z3_mk_not(z->b.ctx, z->wbit[b]);
	return v ? z->wbit[b] : z->nbit[b];
}

/* The literals of a cube over the word's Boolean bits, into lits (one a
 * fixed bit); returns how many.  A negation is made once per bit, not
 * once per cube: the holes of a coverage question alone made some
 * 300,000 Z3 calls for etnaviv's 3,439 holes of 128 bits. */
static unsigned cube_lits(z3_engine *z, const uint64_t *fixed, const uint64_t *value,
                          Z3_ast *lits)
{
	unsigned nl = 0;
	for (unsigned w = 0; w < words_for(z->v->size); w++)
		for (uint64_t m = fixed[w]; m; m &= m - 1) {
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(m);
			lits[nl++] = bit_lit(z, b, value[w] >> (b % 64) & 1);
		}
	return nl;
}

/* The word as one Boolean per bit, and room for each leaf's hit and def:
 * a leaf's pattern is then a conjunction of literals, which the SAT core
 * decides without bit-blasting a bit-vector equation per leaf in every
 * query. */
static bool bool_word_init(z3_engine *z)
{
	if (z->wbit)
		return true;
	size_t n = z->v->nleaves;
	unsigned size = z->v->size;
	z->hit = calloc(n + 1, sizeof *z->hit);
	z->def = calloc(n + 1, sizeof *z->def);
	z->wbit = calloc(size + 1, sizeof *z->wbit);
	z->nbit = calloc(size + 1, sizeof *z->nbit);
	if (!z->hit || !z->def || !z->wbit || !z->nbit) {
		Z3_ast **all[4] = {&z->hit, &z->def, &z->wbit, &z->nbit};
		for (int i = 0; i < 4; i++) {
			free(*all[i]);
			*all[i] = NULL;
		}
		return false;
	}
	Z3_sort boolean = Z3_mk_bool_sort(z->b.ctx);
	for (unsigned b = 0; b < size; b++)
		z->wbit[b] = Z3_mk_fresh_const(z->b.ctx, "wbit", boolean);
	z->ndefs = 0;
	return true;
}

/* Leaf k's hit and def (k is the last leaf without them: they are made
 * from the last leaf down, as two_solver_init asserts them). */
static void leaf_def(z3_engine *z, size_t k, Z3_ast *lits)
{
	Z3_context c = z->b.ctx;
	const leaf_cube *l = &z->v->leaves[k];
	unsigned nl = cube_lits(z, l->fixed, l->value, lits);
	lits[nl++] = z3_in_gen(&z->b, l->gen);
	Z3_ast cond = l->empty ? Z3_mk_false(c) : Z3_mk_and(c, nl, lits);
	z->hit[k] = Z3_mk_fresh_const(c, "hit", Z3_mk_bool_sort(c));
	z->def[k] = Z3_mk_eq(c, z->hit[k], cond);
	z->ndefs++;
}

/* Every leaf's hit and def, those not made yet. */
static bool leaf_defs(z3_engine *z)
{
	size_t n = z->v->nleaves;
	Z3_ast *lits = bool_word_init(z) && z->ndefs < n
	                   ? calloc((size_t)z->v->size + 2, sizeof *lits)
	                   : NULL;
	if (lits)
		while (z->ndefs < n)
			leaf_def(z, n - 1 - z->ndefs, lits);
	free(lits);
	return z->wbit && z->ndefs == n && Z3_get_error_code(z->b.ctx) == Z3_OK;
}

/* The first phase builds the solver: one Boolean per leaf equal to its
 * condition, a switch per leaf, and a chain
 * later[k] == (hit[k] && on[k]) || later[k + 1], so that "some leaf after
 * i that is still switched on matches" is one literal.  Blocking a leaf
 * switches it off; asserting that it does not match instead would also
 * rule out every word it shares with the leaves still to be found. */
static bool two_solver_init(z3_engine *z, const prove_options *opt)
{
	Z3_context c = z->b.ctx;
	size_t n = z->v->nleaves;
	z->later = calloc(n + 1, sizeof *z->later);
	z->on = calloc(n + 1, sizeof *z->on);
	Z3_ast *lits = calloc((size_t)z->v->size + 2, sizeof *lits);
	if (!z->later || !z->on || !lits || !bool_word_init(z)) {
		free(lits);
		return false;
	}
	z->two_solver = incremental_solver_new(&z->b, opt);
	Z3_sort boolean = Z3_mk_bool_sort(c);
	z->later[n] = Z3_mk_false(c);
	for (size_t k = n; k-- > 0;) {
		if (k < n - z->ndefs) /* not made yet: leaves are made from the last */
			leaf_def(z, k, lits);
		Z3_solver_assert(c, z->two_solver, z->def[k]);
		z->on[k] = Z3_mk_fresh_const(c, "on", boolean);
		z->later[k] = Z3_mk_fresh_const(c, "later", boolean);
		Z3_ast both[2] = {z->hit[k], z->on[k]};
		Z3_ast either[2] = {Z3_mk_and(c, 2, both), z->later[k + 1]};
		Z3_solver_assert(c, z->two_solver, Z3_mk_eq(c, z->later[k], Z3_mk_or(c, 2, either)));
	}
	free(lits);
	return Z3_get_error_code(c) == Z3_OK;
}

bool z3_overlap_begin(z3_engine *z, const prove_options *opt, size_t i)
{
	Z3_context c = z->b.ctx;
	if (!z->two_solver && !two_solver_init(z, opt))
		return false;
	Z3_solver_push(c, z->two_solver);
	Z3_solver_assert(c, z->two_solver, z->hit[i]);
	Z3_solver_assert(c, z->two_solver, z->later[i + 1]);
	z->phase = i;
	return Z3_get_error_code(c) == Z3_OK;
}

z3_answer z3_overlap_next(z3_engine *z, bool *match, uint64_t *witness, uint32_t *gen)
{
	Z3_context c = z->b.ctx;
	z3_answer a = z3_answer_of(z3_solve(&z->b, z->two_solver));
	if (a != Z3_ANSWER_YES)
		return a;
	Z3_model m = Z3_solver_get_model(c, z->two_solver);
	if (!m)
		return Z3_ANSWER_UNKNOWN;
	Z3_model_inc_ref(c, m);
	uint64_t g = 0;
	bool ok = read_bits(z, m, z->b.g, 32, &g);
	*gen = (uint32_t)g;
	memset(witness, 0, words_for(z->v->size) * sizeof *witness);
	for (unsigned b = 0; ok && b < z->v->size; b++) {
		Z3_ast val = NULL;
		ok = Z3_model_eval(c, m, z->wbit[b], true, &val) && val;
		if (ok && Z3_get_bool_value(c, val) == Z3_L_TRUE)
			witness[b / 64] |= (uint64_t)1 << (b % 64);
	}
	size_t nmatch = 0;
	for (size_t j = z->phase + 1; ok && j < z->v->nleaves; j++) {
		Z3_ast val = NULL;
		ok = Z3_model_eval(c, m, z->hit[j], true, &val) && val;
		match[j] = ok && Z3_get_bool_value(c, val) == Z3_L_TRUE;
		nmatch += match[j];
	}
	Z3_model_dec_ref(c, m);
	return ok && nmatch ? Z3_ANSWER_YES : Z3_ANSWER_UNKNOWN;
}

void z3_overlap_block(z3_engine *z, size_t j)
{
	Z3_context c = z->b.ctx;
	Z3_solver_assert(c, z->two_solver, Z3_mk_not(c, z->on[j]));
}

void z3_overlap_end(z3_engine *z)
{
	Z3_solver_pop(z->b.ctx, z->two_solver, 1);
}

/* The question involves no unknown: the bits claimed once and twice are
 * bit-vector terms over the claims' constants, which Z3 evaluates in a
 * model of nothing (one per engine: a model keeps its evaluator, where
 * each Z3_simplify builds a rewriter anew).  Asking a solver for a model
 * of u == ~once, d == twice, as this once did, made it do the same
 * folding in its preprocessing, plus a search and a model, for each
 * leaf: a sixth of ir3's run. */
z3_answer z3_accounting(z3_engine *z, const uint64_t *const *claims, size_t nclaims,
                        uint64_t *unaccounted, uint64_t *doubly)
{
	Z3_context c = z->b.ctx;
	if (z3_engine_out_of_time(z)) /* as when this was a query */
		return Z3_ANSWER_UNKNOWN;
	Z3_ast zero = Z3_mk_int64(c, 0, z->b.word_sort);
	Z3_ast once = zero, twice = zero;
	for (size_t k = 0; k < nclaims; k++) {
		Z3_ast bits = z3_bits(&z->b, claims[k]);
		twice = Z3_mk_bvor(c, twice, Z3_mk_bvand(c, once, bits));
		once = Z3_mk_bvor(c, once, bits);
	}
	if (!z->nothing) {
		z->nothing = Z3_mk_model(c);
		if (!z->nothing)
			return Z3_ANSWER_UNKNOWN;
		Z3_model_inc_ref(c, z->nothing);
	}
	unsigned size = z->v->size;
	return read_bits_in(z, z->nothing, false, Z3_mk_bvnot(c, once), size, unaccounted) &&
	               read_bits_in(z, z->nothing, false, twice, size, doubly)
	           ? Z3_ANSWER_YES
	           : Z3_ANSWER_UNKNOWN;
}

/* ----------------------------------------------------------- coverage */

/* The run's coverage solver, made on first use.  Its questions want no
 * model, only yes or no, so it runs without relevancy propagation (Z3's
 * filter of the atoms a model must assign), which took most of the time
 * of these questions; the overlap questions keep it in two_solver, whose
 * witnesses are models. */
static Z3_solver cover_solver(z3_engine *z, const prove_options *opt)
{
	z3_shared *sh = z->shared;
	if (!sh->cover) {
		Z3_context c = z->b.ctx;
		sh->cover = incremental_solver_new(&z->b, opt);
		Z3_params p = Z3_mk_params(c);
		Z3_params_inc_ref(c, p);
		Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "relevancy"), 0);
		Z3_solver_set_params(c, sh->cover, p);
		Z3_params_dec_ref(c, p);
	}
	return sh->cover;
}

/* "Some of items[0 .. n-1]" as a tree of disjunctions of at most 8, each
 * inner one a fresh Boolean defined in s (in the scope open): a
 * disjunction of thousands, asserted or refuted, is one clause that every
 * propagation walks, and the coverage questions took seconds on it.
 * Overwrites items. */
static Z3_ast or_tree(Z3_context c, Z3_solver s, Z3_ast *items, size_t n)
{
	enum { FAN = 8 };
	Z3_sort boolean = Z3_mk_bool_sort(c);
	while (n > FAN) {
		size_t m = 0;
		for (size_t i = 0; i < n; i += FAN) {
			unsigned k = n - i < FAN ? (unsigned)(n - i) : FAN;
			Z3_ast o = Z3_mk_fresh_const(c, "some", boolean);
			Z3_solver_assert(c, s, Z3_mk_eq(c, o, Z3_mk_or(c, k, items + i)));
			items[m++] = o;
		}
		n = m;
	}
	return n ? Z3_mk_or(c, (unsigned)n, items) : Z3_mk_false(c);
}

/* The union of cubes as a term that shares what they have in common, as
 * a decision tree does: the literals all cubes of a set have (not fixed
 * above), then a split on the bit most of them fix (the choice of the
 * cube engine's coverage split, whose holes these are) into those that
 * fix it to 0, to 1, or not at all, each under its branch's literal.
 * The holes are thousands of cubes of up to 128 literals, most of them
 * alike: as one conjunction each they were 340,000 literals for Z3 to
 * take in (165 ms for etnaviv); shared, a few per cube.  (The cube
 * index's own tree, split evenly into buckets, made the questions about
 * it a fifth slower.) */
typedef struct cube_union {
	z3_engine *z;
	const leaf_cube *const *cubes;
	uint32_t *items;   /* cube numbers, partitioned in place */
	uint64_t *above;   /* bits fixed on the way down */
	unsigned *count;   /* scratch of bitcount_add: per bit, the cubes fixing it */
	uint64_t *touched; /* and the bits counted */
	unsigned nw;
} cube_union;

static Z3_ast union_of(cube_union *u, size_t lo, size_t hi, Z3_ast branch)
{
	z3_engine *z = u->z;
	Z3_context c = z->b.ctx;
	unsigned nw = u->nw;
	Z3_ast *lits = malloc(((size_t)z->v->size + 2) * sizeof *lits);
	uint64_t *cf = calloc(3 * (size_t)nw + 1, sizeof *cf), *cv = cf + nw, *was = cv + nw;
	if (!lits || !cf) {
		free(lits);
		free(cf);
		return NULL;
	}
	/* the literals all of them have; below, no cube has them */
	cube_common(u->cubes, u->items, lo, hi, nw, cf, cv);
	for (unsigned w = 0; w < nw; w++) {
		was[w] = u->above[w];
		cf[w] &= ~u->above[w];
		u->above[w] |= cf[w];
	}
	unsigned nl = branch != NULL;
	lits[0] = branch;
	nl += cube_lits(z, cf, cv, lits + nl);
	/* the bit most of them fix; none left in one: it is the whole region */
	bool whole = false, failed = false;
	for (size_t i = lo; i < hi && !whole; i++) {
		const uint64_t *fixed = u->cubes[u->items[i]]->fixed;
		whole = true;
		for (unsigned w = 0; w < nw; w++)
			whole &= !(fixed[w] & ~u->above[w]);
		bitcount_add(u->count, u->touched, fixed, u->above, nw);
	}
	unsigned bit = 0;
	if (bitcount_best(u->count, u->touched, nw, &bit) && !whole) {
		size_t bounds[4];
		cube_partition(u->cubes, u->items, lo, hi, bit, bounds);
		Z3_ast kids[3];
		unsigned nk = 0, w = bit / 64;
		uint64_t m = (uint64_t)1 << (bit % 64);
		for (int side = 0; side < 3 && !failed; side++) {
			if (bounds[side] == bounds[side + 1])
				continue;
			if (side < 2)
				u->above[w] |= m;
			kids[nk] = union_of(u, bounds[side], bounds[side + 1],
			                    side < 2 ? bit_lit(z, bit, side) : NULL);
			u->above[w] &= ~m;
			failed = !kids[nk++];
		}
		if (!failed)
			lits[nl++] = nk == 1 ? kids[0] : Z3_mk_or(c, nk, kids);
	}
	memcpy(u->above, was, nw * sizeof *was);
	Z3_ast r = failed ? NULL : nl == 1 ? lits[0] : nl ? Z3_mk_and(c, nl, lits) : Z3_mk_true(c);
	free(lits);
	free(cf);
	return r;
}

/* The union of the cubes as a term: false if there are none, NULL when
 * memory runs out. */
static Z3_ast union_term(z3_engine *z, const prove_cube *cubes, size_t n)
{
	if (!n)
		return Z3_mk_false(z->b.ctx);
	unsigned nw = words_for(z->v->size);
	leaf_cube *as_leaves = calloc(n, sizeof *as_leaves);
	const leaf_cube **ptrs = calloc(n, sizeof *ptrs);
	cube_union u = {z, ptrs, calloc(n, sizeof *u.items), calloc(2 * (size_t)nw, sizeof *u.above),
	                calloc(z->v->size, sizeof *u.count), NULL, nw};
	Z3_ast r = NULL;
	if (as_leaves && ptrs && u.items && u.above && u.count) {
		for (size_t k = 0; k < n; k++) {
			as_leaves[k] = (leaf_cube){.fixed = cubes[k].fixed, .value = cubes[k].value};
			ptrs[k] = &as_leaves[k];
			u.items[k] = (uint32_t)k;
		}
		u.touched = u.above + nw;
		r = union_of(&u, 0, n, NULL);
	}
	free(as_leaves);
	free(ptrs);
	free(u.items);
	free(u.above);
	free(u.count);
	return r;
}

/* Whether q can hold in s, asked in a scope of its own. */
static z3_answer cover_check(z3_engine *z, Z3_solver s, unsigned n, Z3_ast *q)
{
	Z3_context c = z->b.ctx;
	Z3_solver_push(c, s);
	Z3_solver_assert(c, s, Z3_mk_and(c, n, q));
	z3_answer a = z3_answer_of(z3_solve(&z->b, s));
	Z3_solver_pop(c, s, 1);
	return a;
}

/* Both questions are asked over the Boolean form, whose leaves are
 * conjunctions of literals over the word's bits: a question over every
 * leaf is then a propositional one for the SAT core, not a bit-vector
 * equation per leaf (10,000 leaves: the bit-vector form ran into the
 * query timeout).  They go to the run's coverage solver, which takes the
 * root's leaves in a scope of its own the first time. */
z3_answer z3_coverage(z3_engine *z, const prove_options *opt, spec_gen gen,
                      const prove_cube *holes, size_t nholes)
{
	Z3_context c = z->b.ctx;
	const root_view *v = z->v;
	Z3_solver s = cover_solver(z, opt);
	if (!z->covering) {
		if (!leaf_defs(z))
			return Z3_ANSWER_UNKNOWN;
		Z3_solver_push(c, s);
		z->covering = true;
		for (size_t k = 0; k < v->nleaves; k++)
			Z3_solver_assert(c, s, z->def[k]);
	}
	Z3_ast *any = malloc((v->nleaves + 1) * sizeof *any);
	Z3_ast in_hole = any ? union_term(z, holes, nholes) : NULL;
	if (!in_hole) {
		free(any);
		return Z3_ANSWER_UNKNOWN;
	}
	Z3_solver_push(c, s); /* the interval's disjunctions */
	memcpy(any, z->hit, v->nleaves * sizeof *any);
	Z3_ast matched = or_tree(c, s, any, v->nleaves);
	free(any);
	Z3_ast g = z3_in_gen(&z->b, gen);
	/* 1: every word outside the holes is decoded. */
	Z3_ast q1[3] = {g, Z3_mk_not(c, matched), Z3_mk_not(c, in_hole)};
	z3_answer a = cover_check(z, s, 3, q1);
	if (a == Z3_ANSWER_NO) {
		/* 2: no word inside a hole is decoded. */
		Z3_ast q2[3] = {g, matched, in_hole};
		a = cover_check(z, s, 3, q2);
	}
	Z3_solver_pop(c, s, 1);
	return a;
}
