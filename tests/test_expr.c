/* test_expr.c - the isaspec expression parser and evaluator (src/spec/expr.c). */
#include "spec.h"
#include "testlib.h"

#include <stdbool.h>
#include <stdint.h>

/* Several tests compare with C's own value of the same text, written
 * without the parentheses C compilers would like to see. */
#pragma GCC diagnostic ignored "-Wparentheses"
#ifdef __clang__
#pragma clang diagnostic ignored "-Wshift-op-parentheses"
#pragma clang diagnostic ignored "-Wbitwise-op-parentheses"
#pragma clang diagnostic ignored "-Wlogical-op-parentheses"
#pragma clang diagnostic ignored "-Wconstant-logical-operand"
#endif

/* ------------------------------------------------------------ helpers */

/* The fields every test can read, and how often each was looked up. */
typedef struct field_def {
	const char *name;
	int64_t value;
} field_def;

static const field_def fields[] = {
	{"A", 5}, {"B", 3}, {"C", -7}, {"ZERO", 0}, {"ONE", 1},
	{"MAX", INT64_MAX}, {"MIN", INT64_MIN}, {"SRC_TYPE", 0}, {"DST", 7},
	{"W", 4}, {"OFF_HI", 0x12}, {"OFF_LO", 0x34}, {"FULL", 0},
	{"DESC_MODE", 3}, {"TYPE", 2}, {"f_1", 11}, {"9", 9},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

typedef struct lookup_ctx {
	int calls[NFIELDS];
	int unknown_calls;   /* look-ups of names not in fields[] */
	const char *message; /* written into err on failure, if set */
	unsigned last_depth;
	/* Names "F<n>" resolve to n (for the many-fields test). */
	bool numbered;
} lookup_ctx;

static bool test_lookup(void *vctx, const char *name, unsigned depth,
                        int64_t *value, char *err, size_t errlen)
{
	lookup_ctx *ctx = vctx;
	ctx->last_depth = depth;
	for (size_t i = 0; i < NFIELDS; i++) {
		if (strcmp(fields[i].name, name) == 0) {
			ctx->calls[i]++;
			*value = fields[i].value;
			return true;
		}
	}
	if (ctx->numbered && name[0] == 'F') {
		*value = strtoll(name + 1, NULL, 10);
		return true;
	}
	ctx->unknown_calls++;
	if (ctx->message)
		snprintf(err, errlen, "%s", ctx->message);
	return false;
}

static int calls_of(const lookup_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (strcmp(fields[i].name, name) == 0)
			return ctx->calls[i];
	return -1;
}

static spec_eval_env make_env(lookup_ctx *ctx)
{
	return (spec_eval_env){.lookup = test_lookup, .ctx = ctx, .gpu_id = 630, .depth = 0};
}

static const spec_loc test_loc = {"test.xml", 3, 10};

/* Parses and evaluates text, which must succeed; returns its value
 * (a recognisable poison value on failure, after reporting). */
static int64_t eval_env(const char *text, const spec_eval_env *env)
{
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse(text, test_loc, &d);
	if (!e) {
		fprintf(stderr, "parse of \"%s\" failed: %s\n", text,
		        d.count ? d.items[0].message : "(no diagnostic)");
		spec_diags_free(&d);
		return INT64_C(0x5eadbeef5eadbeef);
	}
	if (d.count)
		fprintf(stderr, "parse of \"%s\" added diagnostics\n", text);
	int64_t v = INT64_C(0x5eadbeef5eadbeef);
	char err[128];
	if (!spec_expr_eval(e, env, &v, err, sizeof err))
		fprintf(stderr, "eval of \"%s\" failed: %s\n", text, err);
	spec_expr_free(e);
	spec_diags_free(&d);
	return v;
}

static int64_t eval(const char *text)
{
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	return eval_env(text, &env);
}

/* The text as an expression, and C's value of the same text. */
#define CEXPR(x) CHECK_INT(eval(#x), (int64_t)(x))

static bool same_file(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

/* True when text fails to parse with exactly one expr-syntax error at
 * line:col with this message; details go to stderr otherwise. */
static bool parse_fails_at(const char *text, spec_loc loc, unsigned line,
                           unsigned col, const char *message)
{
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse(text, loc, &d);
	bool ok = e == NULL && d.count == 1 && d.items[0].severity == SPEC_ERROR &&
	          strcmp(d.items[0].rule, "expr-syntax") == 0 &&
	          same_file(d.items[0].loc.file, loc.file) && d.items[0].loc.line == line &&
	          d.items[0].loc.col == col && strcmp(d.items[0].message, message) == 0;
	if (!ok) {
		fprintf(stderr, "parse of \"%.60s\": %s, %zu diagnostics", text,
		        e ? "succeeded" : "failed", d.count);
		if (d.count)
			fprintf(stderr, ", first %s at %u:%u \"%s\"", d.items[0].rule,
			        d.items[0].loc.line, d.items[0].loc.col, d.items[0].message);
		fprintf(stderr, "; expected %u:%u \"%s\"\n", line, col, message);
	}
	spec_expr_free(e);
	spec_diags_free(&d);
	return ok;
}

/* Parse error at test_loc (line 3, column 10). */
#define PARSE_ERR(text, line, col, msg) CHECK(parse_fails_at(text, test_loc, line, col, msg))

/* True when text parses but its evaluation fails with this message. */
static bool eval_fails_env(const char *text, const spec_eval_env *env, const char *message)
{
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse(text, test_loc, &d);
	if (!e) {
		fprintf(stderr, "parse of \"%s\" failed\n", text);
		spec_diags_free(&d);
		return false;
	}
	char err[128];
	memset(err, 'x', sizeof err);
	int64_t v = 12345;
	bool ok = !spec_expr_eval(e, env, &v, err, sizeof err) &&
	          strcmp(err, message) == 0 && v == 12345;
	if (!ok)
		fprintf(stderr, "eval of \"%s\": got \"%.127s\" (value %" PRId64
		        "), expected failure \"%s\"\n", text, err, v, message);
	spec_expr_free(e);
	spec_diags_free(&d);
	return ok;
}

static bool eval_fails(const char *text, const char *message)
{
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	return eval_fails_env(text, &env, message);
}

#define EVAL_ERR(text, msg) CHECK(eval_fails(text, msg))

/* A heap string of n copies of unit, followed by tail. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
	char *s = malloc(hl + ul * n + tl + 1);
	if (!s)
		abort();
	memcpy(s, head, hl);
	for (size_t i = 0; i < n; i++)
		memcpy(s + hl + i * ul, unit, ul);
	memcpy(s + hl + ul * n, tail, tl + 1);
	return s;
}

/* ----------------------------------------------------------- literals */

TEST(literals_decimal_hex_octal)
{
	CHECK_INT(eval("0"), 0);
	CHECK_INT(eval("7"), 7);
	CHECK_INT(eval("1234567890"), 1234567890);
	CHECK_INT(eval("0x1f"), 31);
	CHECK_INT(eval("0X1F"), 31);
	CHECK_INT(eval("0xAbCdEf"), 0xabcdef);
	CHECK_INT(eval("0x0000000000000000000000000001"), 1);
	CHECK_INT(eval("017"), 15);
	CHECK_INT(eval("00"), 0);
	CHECK_INT(eval("0777"), 511);
	CHECK_INT(eval("9223372036854775807"), INT64_MAX);
	CHECK_INT(eval("9223372036854775808"), INT64_MIN);
	CHECK_INT(eval("18446744073709551615"), -1);
	CHECK_INT(eval("0xffffffffffffffff"), -1);
	CHECK_INT(eval("0x8000000000000000"), INT64_MIN);
	CHECK_INT(eval("01777777777777777777777"), -1);
	CHECK_INT(eval("0x7fffffffffffffff"), INT64_MAX);
}

TEST(literal_suffixes)
{
	static const char *const suffixes[] = {
		"u", "U", "l", "L", "ll", "LL", "ul", "uL", "Ul", "UL", "lu", "Lu",
		"lU", "LU", "ull", "uLL", "Ull", "ULL", "llu", "LLu", "llU", "LLU",
	};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		char buf[64];
		snprintf(buf, sizeof buf, "12%s", suffixes[i]);
		CHECK_INT(eval(buf), 12);
		snprintf(buf, sizeof buf, "0x1f%s", suffixes[i]);
		CHECK_INT(eval(buf), 31);
		snprintf(buf, sizeof buf, "010%s", suffixes[i]);
		CHECK_INT(eval(buf), 8);
		snprintf(buf, sizeof buf, "0%s", suffixes[i]);
		CHECK_INT(eval(buf), 0);
	}
	/* "0xfull" is 0xf with suffix ull, as in C. */
	CHECK_INT(eval("0xfull"), 15);
	CHECK_INT(eval("2ULL << 3"), 16);
	CHECK_INT(eval("0xffffffffffffffffULL"), -1);
}

TEST(literal_errors)
{
	PARSE_ERR("18446744073709551616", 3, 10,
	          "integer literal '18446744073709551616' does not fit in 64 bits");
	PARSE_ERR("1 + 0x10000000000000000ull", 3, 14,
	          "integer literal '0x10000000000000000ull' does not fit in 64 bits");
	PARSE_ERR("02000000000000000000000", 3, 10,
	          "integer literal '02000000000000000000000' does not fit in 64 bits");
	PARSE_ERR("99999999999999999999999999999", 3, 10,
	          "integer literal '99999999999999999999999999999' does not fit in 64 bits");
	PARSE_ERR("1lul", 3, 11, "invalid suffix 'lul' on integer literal");
	PARSE_ERR("1uu", 3, 11, "invalid suffix 'uu' on integer literal");
	PARSE_ERR("1lL", 3, 11, "invalid suffix 'lL' on integer literal");
	PARSE_ERR("1lll", 3, 11, "invalid suffix 'lll' on integer literal");
	PARSE_ERR("12abc", 3, 12, "invalid suffix 'abc' on integer literal");
	PARSE_ERR("1e5", 3, 11, "invalid suffix 'e5' on integer literal");
	PARSE_ERR("0b101", 3, 11, "invalid suffix 'b101' on integer literal");
	PARSE_ERR("0x1g", 3, 13, "invalid suffix 'g' on integer literal");
	PARSE_ERR("0x", 3, 12, "expected a hexadecimal digit after '0x' but found end of expression");
	PARSE_ERR("0Xg", 3, 12, "expected a hexadecimal digit after '0X' but found 'g'");
	PARSE_ERR("0xULL", 3, 12, "expected a hexadecimal digit after '0x' but found 'U'");
	PARSE_ERR("1 + 08", 3, 15, "expected an octal digit (0-7) but found '8'");
	PARSE_ERR("0179", 3, 13, "expected an octal digit (0-7) but found '9'");
	PARSE_ERR("1.5", 3, 11, "expected an operator or end of expression but found '.'");
}

/* ---------------------------------------------------------- operators */

TEST(unary_operators)
{
	CEXPR(!0);
	CEXPR(!5);
	CEXPR(!!7);
	CEXPR(~0);
	CEXPR(~5);
	CEXPR(-5);
	CEXPR(- -5);
	CEXPR(+5);
	CEXPR(-+-+5);
	/* Unlike C, "--" is two minus signs: there is no decrement to
	 * confuse it with (and a run of 10000 must hit the depth limit). */
	CHECK_INT(eval("--5"), 5);
	CHECK_INT(eval("1--1"), 2);
	CHECK_INT(eval("++5"), 5);
	CHECK_INT(eval("1+-+1"), 0);
	CEXPR(!-1);
	CEXPR(~-1);
	CEXPR(-~5);
	CHECK_INT(eval("-{A}"), -5);
	CHECK_INT(eval("~{ZERO}"), -1);
	CHECK_INT(eval("!{ZERO}"), 1);
	CHECK_INT(eval("!{C}"), 0);
}

TEST(binary_operators)
{
	CEXPR(6 * 7);
	CEXPR(-6 * 7);
	CEXPR(47 / 5);
	CEXPR(-47 / 5);
	CEXPR(47 / -5);
	CEXPR(47 % 5);
	CEXPR(-47 % 5);
	CEXPR(47 % -5);
	CEXPR(2 + 3);
	CEXPR(2 - 3);
	CEXPR(3 << 4);
	CEXPR(1 << 0);
	CEXPR(0x300 >> 8);
	CEXPR(1 < 2);
	CEXPR(2 < 1);
	CEXPR(2 < 2);
	CEXPR(-1 < 0);
	CEXPR(1 > 2);
	CEXPR(2 > 1);
	CEXPR(2 > 2);
	CEXPR(2 <= 2);
	CEXPR(3 <= 2);
	CEXPR(2 >= 2);
	CEXPR(1 >= 2);
	CEXPR(3 == 3);
	CEXPR(3 == 4);
	CEXPR(3 != 3);
	CEXPR(3 != 4);
	CEXPR(0xc & 0xa);
	CEXPR(0xc ^ 0xa);
	CEXPR(0xc | 0xa);
	CEXPR(0 && 1);
	CEXPR(2 && 3);
	CEXPR(2 && 0);
	CEXPR(0 || 0);
	CEXPR(0 || 5);
	CEXPR(7 || 0);
	CEXPR(1 ? 2 : 3);
	CEXPR(0 ? 2 : 3);
	CEXPR(-4 ? 2 : 3);
	/* Comparisons are signed even between fields. */
	CHECK_INT(eval("{C} < {B}"), 1);
	CHECK_INT(eval("{MIN} < {MAX}"), 1);
	CHECK_INT(eval("0xffffffffffffffff < 0"), 1);
	/* >> is arithmetic. */
	CHECK_INT(eval("-8 >> 1"), -4);
	CHECK_INT(eval("-1 >> 63"), -1);
	CHECK_INT(eval("{MIN} >> 63"), -1);
	CHECK_INT(eval("{MIN} >> 62"), -2);
	CHECK_INT(eval("{MAX} >> 62"), 1);
	CHECK_INT(eval("-7 >> 0"), -7);
}

TEST(precedence)
{
	CEXPR(1 + 2 * 3);
	CEXPR(2 * 3 + 1);
	CEXPR(10 - 4 / 2);
	CEXPR(10 % 4 * 3);
	CEXPR(1 << 2 + 1);
	CEXPR(1 + 2 << 1);
	CEXPR(256 >> 2 - 1);
	CEXPR(1 << 3 < 7);
	CEXPR(3 < 4 == 1);
	CEXPR(2 == 2 < 1);
	CEXPR(1 < 2 != 0);
	CEXPR(6 & 3 == 3);
	CEXPR(6 & 2 != 0);
	CEXPR(1 | 2 ^ 3);
	CEXPR(6 ^ 3 & 5);
	CEXPR(4 | 1 & 0);
	CEXPR(1 | 2 && 0);
	CEXPR(0 && 1 | 2);
	CEXPR(1 || 0 && 0);
	CEXPR(0 && 0 || 1);
	CEXPR(0 || 1 ? 5 : 6);
	CEXPR(1 ? 2 : 3 + 10);
	CEXPR(-2 * -3);
	CEXPR(-2 - -3);
	CEXPR(!0 + 1);
	CEXPR(~1 & 7);
	CHECK_INT(eval("-1 << 2"), -4);
	CEXPR((1 + 2) * 3);
	CEXPR(2 * (3 + 4) << (1 + 1));
	CEXPR(((((7)))));
	CEXPR(1 + 2 * 3 << 2 > 20 == 1 & 1 ^ 0 | 0 && 1 || 0);
	CEXPR(3 * 4 % 5 + 6 / 2 - 1 << 1 >> 1);
	CEXPR(5 > 3 > 0);
	CEXPR(9 & 5 | 2 ^ 7 & 3);
}

TEST(associativity)
{
	CEXPR(10 - 3 - 2);
	CEXPR(100 / 10 / 5);
	CEXPR(100 % 30 % 7);
	CEXPR(2 << 1 << 2);
	CEXPR(256 >> 2 >> 1);
	CEXPR(1 - 2 + 3);
	CEXPR(3 > 2 > 1);
	CEXPR(1 == 2 == 0);
	CEXPR(2 * 3 / 4);
	CEXPR(7 / 2 * 2);
}

TEST(ternary)
{
	CEXPR(1 ? 2 : 0 ? 3 : 4);
	CEXPR(0 ? 2 : 0 ? 3 : 4);
	CEXPR(0 ? 2 : 1 ? 3 : 4);
	CEXPR(1 ? 0 ? 5 : 6 : 7);
	CEXPR(1 ? 1 ? 5 : 6 : 7);
	CEXPR(0 ? 1 ? 5 : 6 : 7);
	CHECK_INT(eval("(0 ? 1 : 2) ? 8 : 9"), 8);
	CEXPR(1 ? 2 + 3 : 4);
	CEXPR(2 > 1 ? 10 : 20);
	CEXPR(1 ? 2 : 3 ? 4 : 5);
	CHECK_INT(eval("{A} > {B} ? {A} - {B} : {B} - {A}"), 2);
	CHECK_INT(eval("{ZERO} ? 1 : {ONE} ? 2 : 3"), 2);
}

TEST(wrap_around)
{
	CHECK_INT(eval("0x7fffffffffffffff + 1"), INT64_MIN);
	CHECK_INT(eval("0x7fffffffffffffff + 1 == 0x8000000000000000"), 1);
	CHECK_INT(eval("{MAX} + 1 == {MIN}"), 1);
	CHECK_INT(eval("{MIN} - 1"), INT64_MAX);
	CHECK_INT(eval("-{MIN}"), INT64_MIN);
	CHECK_INT(eval("{MAX} * 2"), -2);
	CHECK_INT(eval("{MIN} * -1"), INT64_MIN);
	CHECK_INT(eval("1 << 63"), INT64_MIN);
	CHECK_INT(eval("3 << 63"), INT64_MIN);
	CHECK_INT(eval("-1 << 63"), INT64_MIN);
	CHECK_INT(eval("0xffffffff * 0xffffffff"), (int64_t)0xfffffffe00000001ull);
	CHECK_INT(eval("~{MIN}"), INT64_MAX);
	CHECK_INT(eval("{MIN} / 1"), INT64_MIN);
	CHECK_INT(eval("{MIN} % 1"), 0);
	CHECK_INT(eval("{MIN} / 2"), INT64_MIN / 2);
}

/* ------------------------------------------------------- comments etc */

TEST(comments_and_space)
{
	CHECK_INT(eval("1 /* one */ + /* two */ 2"), 3);
	CHECK_INT(eval("/* lead */ 4"), 4);
	CHECK_INT(eval("4 /* trail */"), 4);
	CHECK_INT(eval("4// trail"), 4);
	CHECK_INT(eval("1 + // rest of line\n 2"), 3);
	CHECK_INT(eval("1 +/**/2"), 3);
	CHECK_INT(eval("1 /* a * b / c ** / */ + 1"), 2);
	CHECK_INT(eval("1 /* // not a line comment */ + 1"), 2);
	CHECK_INT(eval("1 // /* not a block\n + 5"), 6);
	CHECK_INT(eval("\t\r\n 1\r\n\t+\n2 \n"), 3);
	CHECK_INT(eval("ISA_GPU_ID /* x */ ( // y\n )"), 630);
	/* A '/' next to a comment is still division. */
	CHECK_INT(eval("8/ /**/2"), 4);
	CHECK_INT(eval("{SRC_TYPE} == 0 /* f16 */ && {DST} < 8"), 1);
}

/* --------------------------------------------------------------- refs */

TEST(refs_and_text)
{
	spec_diags d = {0};
	const char *text = "{B} + {A} * {B} /* {X} */ + {f_1} + {A} + {9}";
	spec_expr *e = spec_expr_parse(text, test_loc, &d);
	CHECK(e != NULL);
	CHECK_INT(d.count, 0);
	CHECK_INT(spec_expr_ref_count(e), 4);
	CHECK_STR(spec_expr_ref(e, 0), "B");
	CHECK_STR(spec_expr_ref(e, 1), "A");
	CHECK_STR(spec_expr_ref(e, 2), "f_1");
	CHECK_STR(spec_expr_ref(e, 3), "9");
	CHECK(spec_expr_ref(e, 4) == NULL);
	CHECK(!spec_expr_uses_gpu_id(e));
	CHECK_STR(spec_expr_text(e), text);
	CHECK(spec_expr_text(e) != text); /* an owned copy */
	spec_expr_free(e);

	e = spec_expr_parse("  ISA_GPU_ID ( ) >= 600 // gen\n", test_loc, &d);
	CHECK(e != NULL);
	CHECK(spec_expr_uses_gpu_id(e));
	CHECK_INT(spec_expr_ref_count(e), 0);
	CHECK(spec_expr_ref(e, 0) == NULL);
	CHECK_STR(spec_expr_text(e), "  ISA_GPU_ID ( ) >= 600 // gen\n");
	spec_expr_free(e);

	/* Refs on the untaken side of a short circuit still count. */
	e = spec_expr_parse("0 && {Q} ? ISA_GPU_ID() : {R}", test_loc, &d);
	CHECK(e != NULL);
	CHECK_INT(spec_expr_ref_count(e), 2);
	CHECK_STR(spec_expr_ref(e, 0), "Q");
	CHECK_STR(spec_expr_ref(e, 1), "R");
	CHECK(spec_expr_uses_gpu_id(e));
	spec_expr_free(e);
	CHECK_INT(d.count, 0);
	spec_diags_free(&d);

	/* The accessors accept NULL. */
	CHECK_INT(spec_expr_ref_count(NULL), 0);
	CHECK(spec_expr_ref(NULL, 0) == NULL);
	CHECK(!spec_expr_uses_gpu_id(NULL));
	CHECK(spec_expr_text(NULL) == NULL);
	spec_expr_free(NULL);
}

/* ------------------------------------------------------------ lookups */

TEST(fields_and_gpu_id)
{
	CHECK_INT(eval("{A}"), 5);
	CHECK_INT(eval("{A} * {B} + {C}"), 8);
	CHECK_INT(eval("{9} + {f_1}"), 20);
	CHECK_INT(eval("ISA_GPU_ID()"), 630);
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	env.gpu_id = -5;
	CHECK_INT(eval_env("ISA_GPU_ID() * 2", &env), -10);
	env.gpu_id = 700;
	CHECK_INT(eval_env("ISA_GPU_ID() >= 600 && ISA_GPU_ID() < 700", &env), 0);
	env.gpu_id = 699;
	CHECK_INT(eval_env("ISA_GPU_ID() >= 600 && ISA_GPU_ID() < 700", &env), 1);
	/* The look-up sees the evaluation depth one deeper. */
	env.depth = 7;
	CHECK_INT(eval_env("{A}", &env), 5);
	CHECK_INT(ctx.last_depth, 8);
}

TEST(short_circuit)
{
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	CHECK_INT(eval_env("0 && {NOPE}", &env), 0);
	CHECK_INT(eval_env("{ZERO} && {NOPE}", &env), 0);
	CHECK_INT(eval_env("1 || {NOPE}", &env), 1);
	CHECK_INT(eval_env("{A} || {NOPE}", &env), 1);
	CHECK_INT(eval_env("1 ? {B} : {NOPE}", &env), 3);
	CHECK_INT(eval_env("0 ? {NOPE} : {A}", &env), 5);
	CHECK_INT(eval_env("{ONE} ? 2 : 1 / 0", &env), 2);
	CHECK_INT(eval_env("0 && 1 / 0", &env), 0);
	CHECK_INT(eval_env("1 || 1 << 64", &env), 1);
	CHECK_INT(ctx.unknown_calls, 0);
	CHECK_INT(calls_of(&ctx, "B"), 1);
	CHECK_INT(calls_of(&ctx, "A"), 2);
	/* The taken side is evaluated, so the bad name is looked up. */
	CHECK(eval_fails_env("1 && {NOPE}", &env, "unknown field 'NOPE'"));
	CHECK(eval_fails_env("0 || {NOPE}", &env, "unknown field 'NOPE'"));
	CHECK(eval_fails_env("0 ? 1 : {NOPE}", &env, "unknown field 'NOPE'"));
	CHECK(eval_fails_env("{NOPE} ? 1 : 2", &env, "unknown field 'NOPE'"));
	CHECK_INT(ctx.unknown_calls, 4);
	/* && and || yield 0 or 1, not the operand. */
	CHECK_INT(eval_env("{A} && {B}", &env), 1);
	CHECK_INT(eval_env("0 || {C}", &env), 1);
}

TEST(each_field_looked_up_once)
{
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	CHECK_INT(eval_env("{A} + {A} * {A} + {B} + ({A} ? {B} : 0) + {A}", &env), 41);
	CHECK_INT(calls_of(&ctx, "A"), 1);
	CHECK_INT(calls_of(&ctx, "B"), 1);
	CHECK_INT(calls_of(&ctx, "C"), 0);
	/* The cache lives for one call only: values may differ next time. */
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse("{A} - {A}", test_loc, &d);
	int64_t v = -1;
	char err[64];
	CHECK(spec_expr_eval(e, &env, &v, err, sizeof err));
	CHECK(spec_expr_eval(e, &env, &v, err, sizeof err));
	CHECK_INT(v, 0);
	CHECK_INT(calls_of(&ctx, "A"), 3);
	spec_expr_free(e);
	spec_diags_free(&d);
}

TEST(many_fields)
{
	/* 10000 distinct names in 100 groups of 100 (so the tree stays
	 * shallow): exercises the ref hash and a heap-allocated cache. */
	size_t cap = 200000, len = 0;
	char *text = malloc(cap);
	CHECK(text != NULL);
	if (!text)
		return;
	for (int g = 0; g < 100; g++) {
		len += (size_t)snprintf(text + len, cap - len, "%s(", g ? "+" : "");
		for (int i = 0; i < 100; i++)
			len += (size_t)snprintf(text + len, cap - len, "%s{F%d}",
			                        i ? "+" : "", g * 100 + i);
		len += (size_t)snprintf(text + len, cap - len, ")");
	}
	/* Each name again, which must not add refs. */
	len += (size_t)snprintf(text + len, cap - len, "-({F0}+{F9999}+{F5000})");
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse(text, test_loc, &d);
	CHECK(e != NULL);
	CHECK_INT(d.count, 0);
	CHECK_INT(spec_expr_ref_count(e), 10000);
	CHECK_STR(spec_expr_ref(e, 0), "F0");
	CHECK_STR(spec_expr_ref(e, 4321), "F4321");
	CHECK_STR(spec_expr_ref(e, 9999), "F9999");
	lookup_ctx ctx = {.numbered = true};
	spec_eval_env env = make_env(&ctx);
	int64_t v = 0;
	char err[64];
	CHECK(spec_expr_eval(e, &env, &v, err, sizeof err));
	CHECK_INT(v, 9999 * 10000 / 2 - 14999);
	spec_expr_free(e);
	spec_diags_free(&d);
	free(text);
}

/* -------------------------------------------------------- eval errors */

TEST(eval_errors)
{
	EVAL_ERR("1 / 0", "division by zero");
	EVAL_ERR("{A} / {ZERO}", "division by zero");
	EVAL_ERR("1 % 0", "modulo by zero");
	EVAL_ERR("{MIN} / -1", "division overflows: INT64_MIN / -1");
	EVAL_ERR("0x8000000000000000 % -1", "modulo overflows: INT64_MIN % -1");
	EVAL_ERR("1 << 64", "shift count 64 is outside 0..63");
	EVAL_ERR("1 << -1", "shift count -1 is outside 0..63");
	EVAL_ERR("1 >> 64", "shift count 64 is outside 0..63");
	EVAL_ERR("-1 >> -1", "shift count -1 is outside 0..63");
	EVAL_ERR("1 << {MIN}", "shift count -9223372036854775808 is outside 0..63");
	EVAL_ERR("{NOPE}", "unknown field 'NOPE'");
	EVAL_ERR("{A} + {NOPE} * 2", "unknown field 'NOPE'");
	/* The first error wins; the later division is not reached. */
	EVAL_ERR("{NOPE} + 1 / 0", "unknown field 'NOPE'");
	EVAL_ERR("(1 / 0) + {NOPE}", "division by zero");
	/* Boundary counts are fine. */
	CHECK_INT(eval("1 << 63 >> 63"), -1);
	CHECK_INT(eval("{MIN} / -2"), (int64_t)1 << 62);
	CHECK_INT(eval("-{MAX} / -1"), INT64_MAX);
}

TEST(eval_lookup_messages)
{
	lookup_ctx ctx = {.message = "field 'NOPE' is recursive"};
	spec_eval_env env = make_env(&ctx);
	CHECK(eval_fails_env("{NOPE}", &env, "field 'NOPE' is recursive"));
	/* No look-up function: every field is unknown, literals still work. */
	spec_eval_env bare = {.gpu_id = 5};
	CHECK(eval_fails_env("1 + {A}", &bare, "unknown field 'A'"));
	CHECK_INT(eval_env("ISA_GPU_ID() + 1", &bare), 6);
}

TEST(eval_depth_limit)
{
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	env.depth = SPEC_MAX_EXPR_DEPTH;
	CHECK_INT(eval_env("{A} + 1", &env), 6);
	CHECK_INT(ctx.last_depth, SPEC_MAX_EXPR_DEPTH + 1);
	env.depth = SPEC_MAX_EXPR_DEPTH + 1;
	CHECK(eval_fails_env("1", &env, "expressions nested too deeply (over 64 "
	                                "evaluations; recursive definition?)"));
	CHECK_INT(calls_of(&ctx, "A"), 1);
}

TEST(eval_err_buffer)
{
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse("7 / {ZERO}", test_loc, &d);
	spec_expr *ok = spec_expr_parse("7", test_loc, &d);
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	char err[8];
	int64_t v = 0;
	/* Truncated, but always terminated. */
	memset(err, 'x', sizeof err);
	CHECK(!spec_expr_eval(e, &env, &v, err, 5));
	CHECK_STR(err, "divi");
	/* Success leaves an empty string. */
	memset(err, 'x', sizeof err);
	CHECK(spec_expr_eval(ok, &env, &v, err, sizeof err));
	CHECK_STR(err, "");
	CHECK_INT(v, 7);
	/* No buffer at all is allowed. */
	CHECK(!spec_expr_eval(e, &env, &v, NULL, 0));
	CHECK(spec_expr_eval(ok, &env, NULL, err, sizeof err));
	/* A NULL expression fails cleanly. */
	CHECK(!spec_expr_eval(NULL, &env, &v, err, sizeof err));
	CHECK_STR(err, "no expr");
	spec_expr_free(e);
	spec_expr_free(ok);
	CHECK_INT(d.count, 0);
	spec_diags_free(&d);
}

/* ------------------------------------------------------- parse errors */

TEST(parse_errors)
{
	PARSE_ERR("", 3, 10, "expected an expression but found end of expression");
	PARSE_ERR("   ", 3, 13, "expected an expression but found end of expression");
	PARSE_ERR(" /* only */ // this\n", 4, 1,
	          "expected an expression but found end of expression");
	PARSE_ERR("1 +", 3, 13, "expected an operand but found end of expression");
	PARSE_ERR("(1", 3, 12, "expected ')' but found end of expression");
	PARSE_ERR("(1 + 2 ]", 3, 17, "expected ')' but found ']'");
	PARSE_ERR("1)", 3, 11, "expected an operator or end of expression but found ')'");
	PARSE_ERR("()", 3, 11, "expected an operand but found ')'");
	PARSE_ERR("1 2", 3, 12, "expected an operator or end of expression but found '2'");
	PARSE_ERR("{A} {B}", 3, 14,
	          "expected an operator or end of expression but found '{B}'");
	PARSE_ERR("FOO + 1", 3, 10, "unknown identifier 'FOO' (write {FOO} for a field)");
	PARSE_ERR("1 + isa_gpu_id()", 3, 14,
	          "unknown identifier 'isa_gpu_id' (write {isa_gpu_id} for a field)");
	PARSE_ERR("{A} BAR", 3, 14,
	          "expected an operator or end of expression but found 'BAR'");
	PARSE_ERR("{A B}", 3, 12, "expected '}' in field reference but found ' '");
	PARSE_ERR("{A-B}", 3, 12, "expected '}' in field reference but found '-'");
	PARSE_ERR("{A", 3, 12, "expected '}' in field reference but found end of expression");
	PARSE_ERR("1 + {}", 3, 15,
	          "expected a field name ([A-Za-z0-9_]+) in field reference but found '}'");
	PARSE_ERR("{ A}", 3, 11,
	          "expected a field name ([A-Za-z0-9_]+) in field reference but found ' '");
	PARSE_ERR("{#A}", 3, 11,
	          "expected a field name ([A-Za-z0-9_]+) in field reference but found '#'");
	PARSE_ERR("1 @ 2", 3, 12, "expected an operator or end of expression but found '@'");
	PARSE_ERR("1 = 2", 3, 12, "expected an operator or end of expression but found '='");
	PARSE_ERR("1 \x01", 3, 12,
	          "expected an operator or end of expression but found byte 0x01");
	PARSE_ERR("1 + \xc3\xa9", 3, 14, "expected an operand but found byte 0xc3");
	PARSE_ERR("1 ? 2", 3, 15, "expected ':' but found end of expression");
	PARSE_ERR("1 ? 2 : ", 3, 18, "expected an operand but found end of expression");
	PARSE_ERR("1 : 2", 3, 12, "expected an operator or end of expression but found ':'");
	PARSE_ERR("ISA_GPU_ID", 3, 20,
	          "expected '(' after 'ISA_GPU_ID' but found end of expression");
	PARSE_ERR("ISA_GPU_ID(1)", 3, 21,
	          "expected ')' after 'ISA_GPU_ID(' (it takes no arguments) but found '1'");
	PARSE_ERR("1 & & 2", 3, 14, "expected an operand but found '&'");
	PARSE_ERR("1 /* open", 3, 12,
	          "unterminated comment: expected '*/' but found end of expression");
	PARSE_ERR("1 + /* a */ /* b", 3, 22,
	          "unterminated comment: expected '*/' but found end of expression");
	PARSE_ERR("1 /*/", 3, 12,
	          "unterminated comment: expected '*/' but found end of expression");
	/* Long tokens are shortened in messages. */
	PARSE_ERR("1 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 3, 12,
	          "expected an operator or end of expression but found "
	          "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...'");
	/* The error is the first one in the text. */
	PARSE_ERR("(1 @ 2) /* open", 3, 13, "expected ')' but found '@'");
}

TEST(parse_error_locations)
{
	/* Later lines count columns from 1; the first from loc.col. */
	PARSE_ERR("{A} +\n  {B} +\n\t  )", 5, 4, "expected an operand but found ')'");
	PARSE_ERR("1 +\n2 3", 4, 3, "expected an operator or end of expression but found '3'");
	PARSE_ERR("1 /* a\nb */ + @", 4, 8, "expected an operand but found '@'");
	PARSE_ERR("1 // x\n  + // y\n", 5, 1, "expected an operand but found end of expression");
	PARSE_ERR("1 +\r\n  ?", 4, 3, "expected an operand but found '?'");
	PARSE_ERR("1 +\n\n\nFOO", 6, 1, "unknown identifier 'FOO' (write {FOO} for a field)");
	PARSE_ERR("{A} +\n /* x", 4, 2,
	          "unterminated comment: expected '*/' but found end of expression");
	PARSE_ERR("(1 +\n 2", 4, 3, "expected ')' but found end of expression");

	/* Unknown position: line and column stay 0. */
	spec_loc none = {"x.xml", 0, 0};
	CHECK(parse_fails_at("1 +\n 2 3", none, 0, 0,
	                     "expected an operator or end of expression but found '3'"));
	CHECK(parse_fails_at("1 2", none, 0, 0,
	                     "expected an operator or end of expression but found '2'"));
	/* The file name is carried over (and may be NULL). */
	spec_loc other = {"other.xml", 1, 1};
	CHECK(parse_fails_at("  )", other, 1, 3, "expected an operand but found ')'"));
	spec_loc nofile = {NULL, 2, 5};
	CHECK(parse_fails_at("x", nofile, 2, 5,
	                     "unknown identifier 'x' (write {x} for a field)"));
	CHECK(parse_fails_at(NULL, nofile, 2, 5,
	                     "expected an expression but found end of expression"));
}

/* --------------------------------------------------------- deep input */

/* Parses text, which must fail with "too deeply nested" at column col
 * of test_loc's line (col 0: anywhere). */
static bool fails_too_deep(const char *text, unsigned col)
{
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse(text, test_loc, &d);
	bool ok = e == NULL && d.count == 1 &&
	          strcmp(d.items[0].rule, "expr-syntax") == 0 &&
	          strcmp(d.items[0].message, "expression too deeply nested") == 0 &&
	          (col == 0 || d.items[0].loc.col == col);
	if (!ok)
		fprintf(stderr, "deep parse: %s, %zu diagnostics, first \"%s\" at col %u\n",
		        e ? "succeeded" : "failed", d.count,
		        d.count ? d.items[0].message : "", d.count ? d.items[0].loc.col : 0);
	spec_expr_free(e);
	spec_diags_free(&d);
	return ok;
}

TEST(deep_nesting_refused)
{
	char *s = repeat("", "(", 10000, "1");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("", "(", 10000, "");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("", "-", 10000, "1");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("", "!~", 50000, "{A}");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("1", "+1", 99999, "");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("1", "*(1", 10000, "");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("", "1?", 10000, "1:1");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("0", "?1:0", 10000, "");
	CHECK(fails_too_deep(s, 0));
	free(s);
	s = repeat("", "1<<(", 10000, "");
	CHECK(fails_too_deep(s, 0));
	free(s);
}

TEST(depth_boundaries)
{
	/* A chain of n terms is a tree of height n: 256 fit, the 257th
	 * term's '+' is refused (at byte 2 * 256 - 1). */
	char *s = repeat("1", "+1", 255, "");
	CHECK_INT(eval(s), 256);
	free(s);
	s = repeat("1", "+1", 256, "");
	CHECK(fails_too_deep(s, 10 + 511));
	free(s);
	/* 255 unary operators on a leaf: height 256. */
	s = repeat("", "-", 255, "3");
	CHECK_INT(eval(s), -3);
	free(s);
	s = repeat("", "-", 256, "3");
	CHECK(fails_too_deep(s, 0));
	free(s);
	/* Parentheses add no height but do nest: 255 levels are accepted. */
	s = repeat("", "(", 255, "4");
	char *t = repeat(s, ")", 255, "");
	CHECK_INT(eval(t), 4);
	free(s);
	free(t);
	s = repeat("", "(", 256, "4");
	t = repeat(s, ")", 256, "");
	CHECK(fails_too_deep(t, 10 + 256));
	free(s);
	free(t);
	/* Right-nested sums in parentheses: 100 levels evaluate fine. */
	s = repeat("", "1+(", 100, "1");
	t = repeat(s, ")", 100, "");
	CHECK_INT(eval(t), 101);
	free(s);
	free(t);
}

/* ------------------------------------------------------- Mesa examples */

TEST(mesa_expressions)
{
	lookup_ctx ctx = {0};
	spec_eval_env env = make_env(&ctx);
	CHECK_INT(eval_env("{SRC_TYPE} == 0 /* f16 */ && {DST} < 8", &env), 1);
	CHECK_INT(eval_env("({OFF_HI} << 8) | {OFF_LO}", &env), 0x1234);
	CHECK_INT(eval_env("2ULL << {W}", &env), 32);
	CHECK_INT(eval_env("!{FULL}", &env), 1);
	CHECK_INT(eval_env("ISA_GPU_ID() >= 600 && ISA_GPU_ID() < 700 && ({A} || {B})", &env), 1);
	CHECK_INT(eval_env("({FULL} == {ZERO}) && ({DST} <= 0xf7 /* p0.x */)", &env), 1);
	CHECK_INT(eval_env("({TYPE} == 0) /* f16 */ ||\n\t({TYPE} == 2) /* u16 */ ||\n"
	                   "\t({TYPE} == 4) /* s16 */ ||\n\t({TYPE} == 6) /* u8 */", &env), 1);
	CHECK_INT(eval_env("ISA_GPU_ID() >= 700 &&\n\t(({DESC_MODE} == 1) /* A1_UNIFORM */ ||\n"
	                   "\t ({DESC_MODE} == 3) /* A1_NONUNIFORM */ ||\n"
	                   "\t ({DESC_MODE} == 7))/* A1_IMM */", &env), 0);
	env.gpu_id = 750;
	CHECK_INT(eval_env("ISA_GPU_ID() >= 700 &&\n\t(({DESC_MODE} == 1) /* A1_UNIFORM */ ||\n"
	                   "\t ({DESC_MODE} == 3) /* A1_NONUNIFORM */ ||\n"
	                   "\t ({DESC_MODE} == 7))/* A1_IMM */", &env), 1);
	CHECK_INT(eval_env("(((({A} & 0x1) << 19) |\n\t\t  ({B} << 18) |\n\t\t  ({ONE} << 17) |\n"
	                   "\t\t  ({W} << 9) |\n\t\t   {DST}) << 12)", &env),
	          (int64_t)((5 & 1) << 19 | 3 << 18 | 1 << 17 | 4 << 9 | 7) << 12);
	CHECK_INT(eval_env("\n\t{A} + 1\n", &env), 6);
}

int main(void)
{
	RUN(literals_decimal_hex_octal);
	RUN(literal_suffixes);
	RUN(literal_errors);
	RUN(unary_operators);
	RUN(binary_operators);
	RUN(precedence);
	RUN(associativity);
	RUN(ternary);
	RUN(wrap_around);
	RUN(comments_and_space);
	RUN(refs_and_text);
	RUN(fields_and_gpu_id);
	RUN(short_circuit);
	RUN(each_field_looked_up_once);
	RUN(many_fields);
	RUN(eval_errors);
	RUN(eval_lookup_messages);
	RUN(eval_depth_limit);
	RUN(eval_err_buffer);
	RUN(parse_errors);
	RUN(parse_error_locations);
	RUN(deep_nesting_refused);
	RUN(depth_boundaries);
	RUN(mesa_expressions);
	return testlib_finish();
}
