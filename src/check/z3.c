/*
 * z3.c - the Z3 engine: the same questions as the cube engine, asked of
 * the SMT solver.  One engine per root: the word is a bit-vector of the
 * root's size, the generation a 32-bit bit-vector, and each leaf a
 * condition C(w, g) = (w & fixed) == value && min <= g <= max.  Each
 * condition sits behind a selector literal, so a pair query is one
 * incremental check under two assumptions.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <z3.h>

struct z3_engine {
	Z3_context ctx;
	Z3_solver solver;      /* holds sel => cond for every leaf */
	Z3_solver pair_solver; /* empty; one pair at a time under push/pop */
	const root_view *v;
	Z3_sort word_sort, gen_sort;
	Z3_ast w, g;
	Z3_ast *cond; /* per leaf */
	Z3_ast *sel;  /* per leaf: sel => cond is asserted */
	size_t queries;
};

/* Z3 calls this instead of aborting; callers look at the error code. */
static void ignore_error(Z3_context c, Z3_error_code e)
{
	(void)c;
	(void)e;
}

static Z3_ast bits_const(z3_engine *z, const uint64_t *w, unsigned size)
{
	bool *b = malloc(size * sizeof *b);
	if (!b)
		return NULL;
	for (unsigned i = 0; i < size; i++)
		b[i] = (w[i / 64] >> (i % 64)) & 1;
	Z3_ast r = Z3_mk_bv_numeral(z->ctx, size, b);
	free(b);
	return r;
}

static Z3_ast gen_const(z3_engine *z, uint32_t v)
{
	return Z3_mk_unsigned_int64(z->ctx, v, z->gen_sort);
}

static Z3_ast in_gen(z3_engine *z, spec_gen gen)
{
	Z3_ast parts[2] = {Z3_mk_bvule(z->ctx, gen_const(z, gen.min), z->g),
	                   Z3_mk_bvule(z->ctx, z->g, gen_const(z, gen.max))};
	return Z3_mk_and(z->ctx, 2, parts);
}

static Z3_ast in_cube(z3_engine *z, const uint64_t *fixed, const uint64_t *value)
{
	unsigned size = z->v->size;
	return Z3_mk_eq(z->ctx, Z3_mk_bvand(z->ctx, z->w, bits_const(z, fixed, size)),
	                bits_const(z, value, size));
}

z3_engine *z3_engine_new(const root_view *v, const prove_options *opt, spec_diags *diags)
{
	z3_engine *z = calloc(1, sizeof *z);
	if (!z)
		return NULL;
	z->v = v;
	Z3_config cfg = Z3_mk_config();
	z->ctx = cfg ? Z3_mk_context(cfg) : NULL;
	if (cfg)
		Z3_del_config(cfg);
	if (!z->ctx) {
		spec_diag_add(diags, SPEC_FATAL, "solver", v->root->bitset->loc,
		              "cannot start the Z3 solver");
		free(z);
		return NULL;
	}
	Z3_set_error_handler(z->ctx, ignore_error);
	z->solver = Z3_mk_solver(z->ctx);
	Z3_solver_inc_ref(z->ctx, z->solver);
	Z3_params p = Z3_mk_params(z->ctx);
	Z3_params_inc_ref(z->ctx, p);
	if (opt->timeout_ms)
		Z3_params_set_uint(z->ctx, p, Z3_mk_string_symbol(z->ctx, "timeout"), opt->timeout_ms);
	if (opt->rlimit)
		Z3_params_set_uint(z->ctx, p, Z3_mk_string_symbol(z->ctx, "rlimit"), opt->rlimit);
	Z3_solver_set_params(z->ctx, z->solver, p);
	z->pair_solver = Z3_mk_solver(z->ctx);
	Z3_solver_inc_ref(z->ctx, z->pair_solver);
	Z3_solver_set_params(z->ctx, z->pair_solver, p);
	Z3_params_dec_ref(z->ctx, p);

	z->word_sort = Z3_mk_bv_sort(z->ctx, v->size);
	z->gen_sort = Z3_mk_bv_sort(z->ctx, 32);
	z->w = Z3_mk_const(z->ctx, Z3_mk_string_symbol(z->ctx, "w"), z->word_sort);
	z->g = Z3_mk_const(z->ctx, Z3_mk_string_symbol(z->ctx, "g"), z->gen_sort);
	z->cond = calloc(v->nleaves + 1, sizeof *z->cond);
	z->sel = calloc(v->nleaves + 1, sizeof *z->sel);
	if (!z->cond || !z->sel) {
		z3_engine_free(z);
		return NULL;
	}
	for (size_t i = 0; i < v->nleaves; i++) {
		const leaf_cube *l = &v->leaves[i];
		Z3_ast parts[2] = {in_cube(z, l->fixed, l->value), in_gen(z, l->gen)};
		z->cond[i] = l->empty ? Z3_mk_false(z->ctx) : Z3_mk_and(z->ctx, 2, parts);
		z->sel[i] = Z3_mk_fresh_const(z->ctx, "sel", Z3_mk_bool_sort(z->ctx));
		Z3_solver_assert(z->ctx, z->solver, Z3_mk_implies(z->ctx, z->sel[i], z->cond[i]));
	}
	if (Z3_get_error_code(z->ctx) != Z3_OK) {
		spec_diag_add(diags, SPEC_FATAL, "solver", v->root->bitset->loc,
		              "Z3 failed to encode root '%s': %s", v->root->bitset->name,
		              Z3_get_error_msg(z->ctx, Z3_get_error_code(z->ctx)));
		z3_engine_free(z);
		return NULL;
	}
	return z;
}

void z3_engine_free(z3_engine *z)
{
	if (!z)
		return;
	if (z->ctx) {
		if (z->solver)
			Z3_solver_dec_ref(z->ctx, z->solver);
		if (z->pair_solver)
			Z3_solver_dec_ref(z->ctx, z->pair_solver);
		Z3_del_context(z->ctx);
	}
	free(z->cond);
	free(z->sel);
	free(z);
}

size_t z3_engine_queries(const z3_engine *z)
{
	return z->queries;
}

/* Reads a bit-vector value of the model, 64 bits at a time. */
static bool read_bits(z3_engine *z, Z3_model m, Z3_ast t, unsigned size, uint64_t *out)
{
	for (unsigned lo = 0; lo < size; lo += 64) {
		unsigned hi = lo + 63 < size ? lo + 63 : size - 1;
		Z3_ast val = NULL;
		if (!Z3_model_eval(z->ctx, m, Z3_mk_extract(z->ctx, hi, lo, t), true, &val) || !val)
			return false;
		uint64_t u = 0;
		if (!Z3_get_numeral_uint64(z->ctx, val, &u))
			return false;
		out[lo / 64] = u;
	}
	return true;
}

static z3_answer answer(Z3_lbool r)
{
	return r == Z3_L_TRUE ? Z3_ANSWER_YES : r == Z3_L_FALSE ? Z3_ANSWER_NO : Z3_ANSWER_UNKNOWN;
}

z3_answer z3_overlap(z3_engine *z, size_t i, size_t j, uint64_t *witness, uint32_t *gen)
{
	Z3_ast both[2] = {z->cond[i], z->cond[j]};
	Z3_solver_push(z->ctx, z->pair_solver);
	Z3_solver_assert(z->ctx, z->pair_solver, Z3_mk_and(z->ctx, 2, both));
	z->queries++;
	z3_answer a = answer(Z3_solver_check(z->ctx, z->pair_solver));
	Z3_model m = a == Z3_ANSWER_YES ? Z3_solver_get_model(z->ctx, z->pair_solver) : NULL;
	if (m) {
		Z3_model_inc_ref(z->ctx, m);
		uint64_t g = 0;
		if (!read_bits(z, m, z->w, z->v->size, witness) || !read_bits(z, m, z->g, 32, &g))
			a = Z3_ANSWER_UNKNOWN;
		*gen = (uint32_t)g;
		Z3_model_dec_ref(z->ctx, m);
	} else if (a == Z3_ANSWER_YES) {
		a = Z3_ANSWER_UNKNOWN;
	}
	Z3_solver_pop(z->ctx, z->pair_solver, 1);
	return a;
}

z3_answer z3_accounting(z3_engine *z, const uint64_t *const *claims, size_t nclaims,
                        uint64_t *unaccounted, uint64_t *doubly)
{
	unsigned size = z->v->size;
	Z3_context c = z->ctx;
	Z3_ast zero = Z3_mk_int64(c, 0, z->word_sort);
	Z3_ast once = zero, twice = zero;
	for (size_t k = 0; k < nclaims; k++) {
		Z3_ast bits = bits_const(z, claims[k], size);
		twice = Z3_mk_bvor(c, twice, Z3_mk_bvand(c, once, bits));
		once = Z3_mk_bvor(c, once, bits);
	}
	Z3_ast u = Z3_mk_fresh_const(c, "unclaimed", z->word_sort);
	Z3_ast d = Z3_mk_fresh_const(c, "twice", z->word_sort);
	Z3_solver_push(c, z->solver);
	Z3_solver_assert(c, z->solver, Z3_mk_eq(c, u, Z3_mk_bvnot(c, once)));
	Z3_solver_assert(c, z->solver, Z3_mk_eq(c, d, twice));
	z->queries++;
	z3_answer a = answer(Z3_solver_check(c, z->solver));
	if (a == Z3_ANSWER_YES) {
		Z3_model m = Z3_solver_get_model(c, z->solver);
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
	Z3_solver_pop(c, z->solver, 1);
	return a;
}

z3_answer z3_coverage(z3_engine *z, spec_gen gen, const prove_cube *holes, size_t nholes)
{
	Z3_context c = z->ctx;
	const root_view *v = z->v;
	Z3_ast *any = malloc((v->nleaves + nholes + 1) * sizeof *any);
	if (!any)
		return Z3_ANSWER_UNKNOWN;
	for (size_t i = 0; i < v->nleaves; i++)
		any[i] = z->cond[i];
	Z3_ast matched = v->nleaves ? Z3_mk_or(c, (unsigned)v->nleaves, any) : Z3_mk_false(c);
	for (size_t k = 0; k < nholes; k++)
		any[k] = in_cube(z, holes[k].fixed, holes[k].value);
	Z3_ast in_hole = nholes ? Z3_mk_or(c, (unsigned)nholes, any) : Z3_mk_false(c);
	free(any);
	Z3_ast g = in_gen(z, gen);

	/* 1: every word outside the holes is decoded. */
	Z3_ast q1[3] = {g, Z3_mk_not(c, matched), Z3_mk_not(c, in_hole)};
	Z3_solver_push(c, z->solver);
	Z3_solver_assert(c, z->solver, Z3_mk_and(c, 3, q1));
	z->queries++;
	z3_answer a1 = answer(Z3_solver_check(c, z->solver));
	Z3_solver_pop(c, z->solver, 1);
	if (a1 != Z3_ANSWER_NO)
		return a1;
	/* 2: no word inside a hole is decoded. */
	Z3_ast q2[3] = {g, matched, in_hole};
	Z3_solver_push(c, z->solver);
	Z3_solver_assert(c, z->solver, Z3_mk_and(c, 3, q2));
	z->queries++;
	z3_answer a2 = answer(Z3_solver_check(c, z->solver));
	Z3_solver_pop(c, z->solver, 1);
	return a2;
}
