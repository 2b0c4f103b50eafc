/*
 * z3_lazy.c - libz3 is opened when Z3 is first used, not when isacheck
 * starts.  Mapping and relocating libz3 cost every run about 3 ms of CPU,
 * which lint, disasm and the cube engine never need (docs/benchmarks.md,
 * start-up).
 *
 * With ISACHECK_Z3_LAZY (CMake option of that name, on by default) this
 * file defines each Z3 function that src/check calls, with the prototype
 * <z3.h> declares (the compiler compares the two), as a forwarder through
 * a table that dlopen/dlsym fill on first use.  The library is the one
 * the build found, by its SONAME (ISACHECK_Z3_SONAME, from CMake), or
 * the file named by ISACHECK_Z3_LIBRARY in the environment.  A Z3
 * function called anywhere in src/check but missing from the list below
 * is an undefined reference at link time: add its line.
 *
 * Every path that uses Z3 starts with z3_base_init, which first asks
 * prove_z3_available: no forwarder runs before the table is complete,
 * and when the library or one of its functions cannot be found the
 * caller gets a message instead of a crash.  Without ISACHECK_Z3_LAZY
 * the executable links libz3 and Z3 is always available.
 */
#include "internal.h"

#ifdef ISACHECK_Z3_LAZY

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ISACHECK_Z3_SONAME
#define ISACHECK_Z3_SONAME "libz3.so.4"
#endif

/* Common shapes of the list below. */
#define Z3_UNARY(R, name) R(Z3_ast, name, (Z3_context c, Z3_ast a), (c, a))
#define Z3_BINARY(R, name) R(Z3_ast, name, (Z3_context c, Z3_ast a, Z3_ast b), (c, a, b))
#define Z3_NARY(R, name) \
	R(Z3_ast, name, (Z3_context c, unsigned n, Z3_ast const args[]), (c, n, args))
#define Z3_CONSTANT(R, name) R(Z3_ast, name, (Z3_context c), (c))
#define Z3_SOLVER_OP(V, name) V(name, (Z3_context c, Z3_solver s), (c, s))

/* Every Z3 function src/check calls: R(type, name, (parameters),
 * (arguments)) for one that returns a value, V(name, (parameters),
 * (arguments)) for one that returns nothing (C forbids `return f();` in
 * a void function). */
#define Z3_FUNCTIONS(R, V)                                                                   \
	/* configuration, contexts, errors */                                                \
	R(Z3_config, Z3_mk_config, (void), ())                                               \
	V(Z3_del_config, (Z3_config cfg), (cfg))                                             \
	R(Z3_context, Z3_mk_context, (Z3_config cfg), (cfg))                                 \
	V(Z3_del_context, (Z3_context c), (c))                                               \
	V(Z3_set_error_handler, (Z3_context c, Z3_error_handler h), (c, h))                  \
	R(Z3_error_code, Z3_get_error_code, (Z3_context c), (c))                             \
	R(Z3_string, Z3_get_error_msg, (Z3_context c, Z3_error_code e), (c, e))              \
	/* parameters and solvers */                                                         \
	R(Z3_params, Z3_mk_params, (Z3_context c), (c))                                      \
	V(Z3_params_inc_ref, (Z3_context c, Z3_params p), (c, p))                            \
	V(Z3_params_dec_ref, (Z3_context c, Z3_params p), (c, p))                            \
	V(Z3_params_set_uint, (Z3_context c, Z3_params p, Z3_symbol k, unsigned v),          \
	  (c, p, k, v))                                                                      \
	R(Z3_solver, Z3_mk_simple_solver, (Z3_context c), (c))                               \
	Z3_SOLVER_OP(V, Z3_solver_inc_ref)                                                   \
	Z3_SOLVER_OP(V, Z3_solver_dec_ref)                                                   \
	Z3_SOLVER_OP(V, Z3_solver_push)                                                      \
	V(Z3_solver_pop, (Z3_context c, Z3_solver s, unsigned n), (c, s, n))                 \
	V(Z3_solver_set_params, (Z3_context c, Z3_solver s, Z3_params p), (c, s, p))         \
	V(Z3_solver_assert, (Z3_context c, Z3_solver s, Z3_ast a), (c, s, a))                \
	R(Z3_lbool, Z3_solver_check, (Z3_context c, Z3_solver s), (c, s))                    \
	R(Z3_model, Z3_solver_get_model, (Z3_context c, Z3_solver s), (c, s))                \
	/* models */                                                                         \
	R(Z3_model, Z3_mk_model, (Z3_context c), (c))                                        \
	V(Z3_model_inc_ref, (Z3_context c, Z3_model m), (c, m))                              \
	V(Z3_model_dec_ref, (Z3_context c, Z3_model m), (c, m))                              \
	R(Z3_bool_opt, Z3_model_eval,                                                        \
	  (Z3_context c, Z3_model m, Z3_ast t, bool completion, Z3_ast *v),                  \
	  (c, m, t, completion, v))                                                          \
	R(Z3_lbool, Z3_get_bool_value, (Z3_context c, Z3_ast a), (c, a))                     \
	R(bool, Z3_get_numeral_int64, (Z3_context c, Z3_ast a, int64_t *v), (c, a, v))       \
	R(bool, Z3_get_numeral_uint64, (Z3_context c, Z3_ast a, uint64_t *v), (c, a, v))     \
	R(bool, Z3_is_numeral_ast, (Z3_context c, Z3_ast a), (c, a))                         \
	R(bool, Z3_is_eq_ast, (Z3_context c, Z3_ast a, Z3_ast b), (c, a, b))                 \
	/* sorts, symbols, constants */                                                      \
	R(Z3_sort, Z3_mk_bool_sort, (Z3_context c), (c))                                     \
	R(Z3_sort, Z3_mk_bv_sort, (Z3_context c, unsigned size), (c, size))                  \
	R(Z3_symbol, Z3_mk_string_symbol, (Z3_context c, Z3_string s), (c, s))               \
	R(Z3_ast, Z3_mk_const, (Z3_context c, Z3_symbol s, Z3_sort t), (c, s, t))            \
	R(Z3_ast, Z3_mk_fresh_const, (Z3_context c, Z3_string prefix, Z3_sort t),            \
	  (c, prefix, t))                                                                    \
	R(Z3_ast, Z3_mk_bv_numeral, (Z3_context c, unsigned size, bool const *bits),         \
	  (c, size, bits))                                                                   \
	R(Z3_ast, Z3_mk_int64, (Z3_context c, int64_t v, Z3_sort t), (c, v, t))              \
	R(Z3_ast, Z3_mk_unsigned_int64, (Z3_context c, uint64_t v, Z3_sort t), (c, v, t))    \
	Z3_CONSTANT(R, Z3_mk_true)                                                           \
	Z3_CONSTANT(R, Z3_mk_false)                                                          \
	/* terms */                                                                          \
	Z3_NARY(R, Z3_mk_and)                                                                \
	Z3_NARY(R, Z3_mk_or)                                                                 \
	Z3_UNARY(R, Z3_mk_not)                                                               \
	Z3_BINARY(R, Z3_mk_xor)                                                              \
	Z3_BINARY(R, Z3_mk_eq)                                                               \
	R(Z3_ast, Z3_mk_ite, (Z3_context c, Z3_ast a, Z3_ast b, Z3_ast e), (c, a, b, e))     \
	Z3_UNARY(R, Z3_simplify)                                                             \
	R(Z3_ast, Z3_mk_extract, (Z3_context c, unsigned hi, unsigned lo, Z3_ast a),         \
	  (c, hi, lo, a))                                                                    \
	R(Z3_ast, Z3_mk_zero_ext, (Z3_context c, unsigned i, Z3_ast a), (c, i, a))           \
	R(Z3_ast, Z3_mk_sign_ext, (Z3_context c, unsigned i, Z3_ast a), (c, i, a))           \
	Z3_UNARY(R, Z3_mk_bvnot)                                                             \
	Z3_UNARY(R, Z3_mk_bvneg)                                                             \
	Z3_BINARY(R, Z3_mk_bvand)                                                            \
	Z3_BINARY(R, Z3_mk_bvor)                                                             \
	Z3_BINARY(R, Z3_mk_bvxor)                                                            \
	Z3_BINARY(R, Z3_mk_bvadd)                                                            \
	Z3_BINARY(R, Z3_mk_bvsub)                                                            \
	Z3_BINARY(R, Z3_mk_bvmul)                                                            \
	Z3_BINARY(R, Z3_mk_bvsdiv)                                                           \
	Z3_BINARY(R, Z3_mk_bvsrem)                                                           \
	Z3_BINARY(R, Z3_mk_bvshl)                                                            \
	Z3_BINARY(R, Z3_mk_bvashr)                                                           \
	Z3_BINARY(R, Z3_mk_bvule)                                                            \
	Z3_BINARY(R, Z3_mk_bvuge)                                                            \
	Z3_BINARY(R, Z3_mk_bvslt)                                                            \
	Z3_BINARY(R, Z3_mk_bvsle)                                                            \
	Z3_BINARY(R, Z3_mk_bvsgt)                                                            \
	Z3_BINARY(R, Z3_mk_bvsge)

#define Z3_POINTER(type, name, params, args) type(*name) params;
#define Z3_VOID_POINTER(name, params, args) void(*name) params;

/* The loaded library, the one piece of global state here: the functions
 * of libz3 belong to the process, not to a run, so every context of every
 * thread (check -j N) shares one table.  pthread_once fills it exactly
 * once, in whichever thread first asks, and makes what it wrote visible
 * to every thread that returns from it; from then on it is only read.
 * `error` is empty when every function was found; otherwise every
 * pointer stays NULL and the forwarders are never reached, since each
 * use of Z3 starts by asking prove_z3_available. */
typedef struct z3_library {
	Z3_FUNCTIONS(Z3_POINTER, Z3_VOID_POINTER)
} z3_library;

static struct {
	pthread_once_t once;
	char error[512];
	z3_library fn;
} z3lib = {.once = PTHREAD_ONCE_INIT};

/* ISO C has no conversion between object and function pointers; POSIX
 * makes dlsym's answer usable as one, and the bytes are copied rather
 * than cast so that -Wpedantic has nothing to say. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "dlsym's void * must hold a function pointer");

static bool z3lib_symbol(void *handle, const char *name, void *slot)
{
	void *sym = dlsym(handle, name);
	if (sym)
		memcpy(slot, &sym, sizeof sym);
	return sym != NULL;
}

static void z3lib_load(void)
{
	const char *path = getenv("ISACHECK_Z3_LIBRARY");
	if (!path || !*path)
		path = ISACHECK_Z3_SONAME;
	z3_library fn = {0};
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	bool ok = handle != NULL;
#define Z3_RESOLVE(name) ok = ok && z3lib_symbol(handle, #name, &fn.name);
#define Z3_RESOLVE_R(type, name, params, args) Z3_RESOLVE(name)
#define Z3_RESOLVE_V(name, params, args) Z3_RESOLVE(name)
	Z3_FUNCTIONS(Z3_RESOLVE_R, Z3_RESOLVE_V)
	if (ok) {
		z3lib.fn = fn;
		return;
	}
	const char *why = dlerror();
	snprintf(z3lib.error, sizeof z3lib.error, "Z3 is not available (%s)",
	         why ? why : path);
	if (handle)
		dlclose(handle);
}

bool prove_z3_available(char *why, size_t len)
{
	pthread_once(&z3lib.once, z3lib_load);
	if (why && len)
		snprintf(why, len, "%s", z3lib.error);
	return !z3lib.error[0];
}

/* The forwarders, each with <z3.h>'s prototype. */
#define Z3_FORWARD(type, name, params, args) \
	type name params { return z3lib.fn.name args; }
#define Z3_FORWARD_VOID(name, params, args) \
	void name params { z3lib.fn.name args; }
Z3_FUNCTIONS(Z3_FORWARD, Z3_FORWARD_VOID)

#else /* libz3 is linked: nothing to load */

bool prove_z3_available(char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	return true;
}

#endif
