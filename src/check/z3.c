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

Z3_solver z3_solver_new(const z3_base *b, const prove_options *opt)
{
	Z3_context c = b->ctx;
	Z3_solver s = Z3_mk_solver(c);
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

static double monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void z3_start_run(prove_options *opt)
{
	if (!opt->deadline_) /* a run inside a run keeps the outer deadline */
		opt->deadline_ = opt->time_limit_s ? monotonic_seconds() + opt->time_limit_s : 0;
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

bool z3_base_init(z3_base *b, unsigned size, const prove_options *opt)
{
	*b = (z3_base){.size = size, .deadline = opt->deadline_, .timeout_ms = opt->timeout_ms};
	if (!prove_z3_available(NULL, 0)) /* libz3 not loaded: no Z3 call may run */
		return false;
	Z3_config cfg = Z3_mk_config();
	b->ctx = cfg ? Z3_mk_context(cfg) : NULL;
	if (cfg)
		Z3_del_config(cfg);
	if (!b->ctx)
		return false;
	Z3_context c = b->ctx;
	Z3_set_error_handler(c, ignore_error);
	b->solver = z3_solver_new(b, opt);
	b->word_sort = Z3_mk_bv_sort(c, size);
	b->gen_sort = Z3_mk_bv_sort(c, 32);
	b->w = Z3_mk_const(c, Z3_mk_string_symbol(c, "w"), b->word_sort);
	b->g = Z3_mk_const(c, Z3_mk_string_symbol(c, "g"), b->gen_sort);
	return true;
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
		Z3_del_context(b->ctx);
	}
	*b = (z3_base){0};
}

Z3_ast z3_bits(const z3_base *b, const uint64_t *w)
{
	unsigned size = b->size;
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
	Z3_solver_push(b->ctx, b->solver);
	Z3_solver_assert(b->ctx, b->solver, q);
	z3_answer a = z3_answer_of(z3_solve(b, b->solver));
	Z3_solver_pop(b->ctx, b->solver, 1);
	return a;
}

/* ------------------------------------------------------------- engine */

struct z3_engine {
	z3_base b;             /* the context, the word and generation unknowns */
	Z3_solver pair_solver; /* empty; one question at a time under push/pop:
	                          a pair (bit-vector form), a leaf's accounting */
	Z3_solver two_solver;  /* the Boolean form: hit, on, later; a phase's
	                          leaf i and the leaves blocked in it, and the
	                          coverage questions, under push/pop; NULL until
	                          first needed */
	const root_view *v;
	Z3_ast *cond;  /* per leaf, bit-vector form (pair_solver) */
	Z3_ast *hit;   /* per leaf, in two_solver: hit == the leaf's literals */
	Z3_ast *on;    /* per leaf: switched off when blocked in a phase */
	Z3_ast *later; /* per leaf and one more: later[k] == some hit[k..] && on */
	Z3_ast *wbit;  /* in two_solver, the word: one Boolean per bit */
	size_t phase;  /* the leaf i of the phase begun */
};

z3_engine *z3_engine_new(const root_view *v, const prove_options *opt, spec_diags *diags)
{
	z3_engine *z = calloc(1, sizeof *z);
	if (!z)
		return NULL;
	z->v = v;
	if (!z3_base_init(&z->b, v->size, opt)) {
		z3_cannot_start(diags, v->root->bitset->loc);
		free(z);
		return NULL;
	}
	Z3_context c = z->b.ctx;
	z->pair_solver = z3_solver_new(&z->b, opt);
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
	z3_base_free(&z->b);
	free(z->hit);
	free(z->later);
	free(z->on);
	free(z->wbit);
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

/* Reads a bit-vector value of the model, 64 bits at a time. */
static bool read_bits(z3_engine *z, Z3_model m, Z3_ast t, unsigned size, uint64_t *out)
{
	Z3_context c = z->b.ctx;
	for (unsigned lo = 0; lo < size; lo += 64) {
		unsigned hi = lo + 63 < size ? lo + 63 : size - 1;
		Z3_ast val = NULL;
		if (!Z3_model_eval(c, m, Z3_mk_extract(c, hi, lo, t), true, &val) || !val)
			return false;
		uint64_t u = 0;
		if (!Z3_get_numeral_uint64(c, val, &u))
			return false;
		out[lo / 64] = u;
	}
	return true;
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
	z->hit = calloc(n + 1, sizeof *z->hit);
	z->later = calloc(n + 1, sizeof *z->later);
	z->on = calloc(n + 1, sizeof *z->on);
	if (!z->hit || !z->later || !z->on)
		return false;
	z->two_solver = z3_solver_new(&z->b, opt);
	Z3_sort boolean = Z3_mk_bool_sort(c);
	/* The word as one Boolean per bit: a leaf's pattern is then a
	 * conjunction of literals, which the SAT core decides without
	 * bit-blasting a bit-vector equation per leaf in every query. */
	unsigned size = z->v->size;
	z->wbit = calloc(size, sizeof *z->wbit);
	Z3_ast *lits = calloc((size_t)size + 2, sizeof *lits);
	if (!z->wbit || !lits) {
		free(lits);
		return false;
	}
	for (unsigned b = 0; b < size; b++)
		z->wbit[b] = Z3_mk_fresh_const(c, "wbit", boolean);
	z->later[n] = Z3_mk_false(c);
	for (size_t k = n; k-- > 0;) {
		const leaf_cube *l = &z->v->leaves[k];
		unsigned nl = 0;
		for (unsigned b = 0; b < size; b++) {
			uint64_t m = (uint64_t)1 << (b % 64);
			if (l->fixed[b / 64] & m)
				lits[nl++] = l->value[b / 64] & m ? z->wbit[b] : Z3_mk_not(c, z->wbit[b]);
		}
		lits[nl++] = z3_in_gen(&z->b, l->gen);
		Z3_ast cond = l->empty ? Z3_mk_false(c) : Z3_mk_and(c, nl, lits);
		z->hit[k] = Z3_mk_fresh_const(c, "hit", boolean);
		Z3_solver_assert(c, z->two_solver, Z3_mk_eq(c, z->hit[k], cond));
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

z3_answer z3_accounting(z3_engine *z, const uint64_t *const *claims, size_t nclaims,
                        uint64_t *unaccounted, uint64_t *doubly)
{
	unsigned size = z->v->size;
	Z3_context c = z->b.ctx;
	/* the question involves no leaf: the solver without them answers it
	 * without carrying every leaf's condition along */
	Z3_solver s = z->pair_solver;
	Z3_ast zero = Z3_mk_int64(c, 0, z->b.word_sort);
	Z3_ast once = zero, twice = zero;
	for (size_t k = 0; k < nclaims; k++) {
		Z3_ast bits = z3_bits(&z->b, claims[k]);
		twice = Z3_mk_bvor(c, twice, Z3_mk_bvand(c, once, bits));
		once = Z3_mk_bvor(c, once, bits);
	}
	Z3_ast u = Z3_mk_fresh_const(c, "unclaimed", z->b.word_sort);
	Z3_ast d = Z3_mk_fresh_const(c, "twice", z->b.word_sort);
	Z3_solver_push(c, s);
	Z3_solver_assert(c, s, Z3_mk_eq(c, u, Z3_mk_bvnot(c, once)));
	Z3_solver_assert(c, s, Z3_mk_eq(c, d, twice));
	z3_answer a = z3_answer_of(z3_solve(&z->b, s));
	if (a == Z3_ANSWER_YES) {
		Z3_model m = Z3_solver_get_model(c, s);
		if (m) {
			Z3_model_inc_ref(c, m);
			if (!read_bits(z, m, u, size, unaccounted) || !read_bits(z, m, d, size, doubly))
				a = Z3_ANSWER_UNKNOWN;
			Z3_model_dec_ref(c, m);
		} else {
			a = Z3_ANSWER_UNKNOWN;
		}
	} else {
		a = Z3_ANSWER_UNKNOWN; /* these equations always have a solution */
	}
	Z3_solver_pop(c, s, 1);
	return a;
}

/* A cube over the word's Boolean bits (two_solver's encoding). */
static Z3_ast bool_cube(z3_engine *z, const uint64_t *fixed, const uint64_t *value, Z3_ast *lits)
{
	Z3_context c = z->b.ctx;
	unsigned nl = 0;
	for (unsigned b = 0; b < z->v->size; b++) {
		uint64_t m = (uint64_t)1 << (b % 64);
		if (fixed[b / 64] & m)
			lits[nl++] = value[b / 64] & m ? z->wbit[b] : Z3_mk_not(c, z->wbit[b]);
	}
	return nl ? Z3_mk_and(c, nl, lits) : Z3_mk_true(c);
}

/* Both questions are asked of two_solver, whose leaves are conjunctions
 * of literals over the word's bits: a question over every leaf is then a
 * propositional one for the SAT core, not a bit-vector equation per leaf
 * (10,000 leaves: the bit-vector form ran into the query timeout). */
z3_answer z3_coverage(z3_engine *z, const prove_options *opt, spec_gen gen,
                      const prove_cube *holes, size_t nholes)
{
	Z3_context c = z->b.ctx;
	const root_view *v = z->v;
	if (!z->two_solver && !two_solver_init(z, opt))
		return Z3_ANSWER_UNKNOWN;
	Z3_ast *any = malloc((v->nleaves + nholes + 1) * sizeof *any);
	Z3_ast *lits = malloc(((size_t)v->size + 1) * sizeof *lits);
	if (!any || !lits) {
		free(any);
		free(lits);
		return Z3_ANSWER_UNKNOWN;
	}
	for (size_t i = 0; i < v->nleaves; i++)
		any[i] = z->hit[i];
	Z3_ast matched = v->nleaves ? Z3_mk_or(c, (unsigned)v->nleaves, any) : Z3_mk_false(c);
	for (size_t k = 0; k < nholes; k++)
		any[k] = bool_cube(z, holes[k].fixed, holes[k].value, lits);
	Z3_ast in_hole = nholes ? Z3_mk_or(c, (unsigned)nholes, any) : Z3_mk_false(c);
	free(any);
	free(lits);
	Z3_ast g = z3_in_gen(&z->b, gen);
	Z3_solver s = z->two_solver;

	/* 1: every word outside the holes is decoded. */
	Z3_ast q1[3] = {g, Z3_mk_not(c, matched), Z3_mk_not(c, in_hole)};
	Z3_solver_push(c, s);
	Z3_solver_assert(c, s, Z3_mk_and(c, 3, q1));
	z3_answer a1 = z3_answer_of(z3_solve(&z->b, s));
	Z3_solver_pop(c, s, 1);
	if (a1 != Z3_ANSWER_NO)
		return a1;
	/* 2: no word inside a hole is decoded. */
	Z3_ast q2[3] = {g, matched, in_hole};
	Z3_solver_push(c, s);
	Z3_solver_assert(c, s, Z3_mk_and(c, 3, q2));
	z3_answer a2 = z3_answer_of(z3_solve(&z->b, s));
	Z3_solver_pop(c, s, 1);
	return a2;
}
