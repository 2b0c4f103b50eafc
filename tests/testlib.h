/*
 * testlib.h - the few macros our C tests share.  A test file defines
 * TEST(name) functions and lists them in main() with RUN(name); each
 * failed CHECK prints file:line and the values, and the process exits 1
 * when any check failed, 77 (ctest's "skipped") when SKIP() was called
 * and nothing failed.
 */
#ifndef ISACHECK_TESTLIB_H
#define ISACHECK_TESTLIB_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int testlib_failures;
static int testlib_checks;
static int testlib_skipped;

#define TEST(name) static void name(void)

#define RUN(name)                                                      \
	do {                                                           \
		int before_ = testlib_failures;                        \
		name();                                                \
		printf("%s %s\n",                                      \
		       testlib_failures == before_ ? "ok  " : "FAIL", #name); \
	} while (0)

#define CHECK(cond)                                                    \
	do {                                                           \
		testlib_checks++;                                      \
		if (!(cond)) {                                         \
			testlib_failures++;                            \
			fprintf(stderr, "%s:%d: check failed: %s\n",   \
			        __FILE__, __LINE__, #cond);            \
		}                                                      \
	} while (0)

#define CHECK_INT(a, b)                                                \
	do {                                                           \
		long long a_ = (long long)(a), b_ = (long long)(b);    \
		testlib_checks++;                                      \
		if (a_ != b_) {                                        \
			testlib_failures++;                            \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", \
			        __FILE__, __LINE__, #a, a_, #b, b_);   \
		}                                                      \
	} while (0)

#define CHECK_STR(a, b)                                                \
	do {                                                           \
		const char *a_ = (a), *b_ = (b);                       \
		testlib_checks++;                                      \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {               \
			testlib_failures++;                            \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
			        __FILE__, __LINE__, #a, a_ ? a_ : "(null)", \
			        b_ ? b_ : "(null)");                   \
		}                                                      \
	} while (0)

/* Marks the whole test program as skipped, with the reason on stdout. */
#define SKIP(...)                                                      \
	do {                                                           \
		printf("SKIP: " __VA_ARGS__);                          \
		printf("\n");                                          \
		testlib_skipped = 1;                                   \
	} while (0)

/* Writes text to path, checking that it worked. */
static inline void testlib_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		CHECK(fputs(text, f) >= 0);
		CHECK(fclose(f) == 0);
	}
}

/* For tests that read ../shared: true when probe (a file in it) is
 * readable.  Otherwise the test is skipped with a message, except under
 * CI=true, where the absence is a failure (CI must run these tests). */
static inline bool testlib_have_shared(const char *probe)
{
	FILE *f = fopen(probe, "r");
	if (f) {
		fclose(f);
		return true;
	}
	const char *ci = getenv("CI");
	if (ci && !strcmp(ci, "true")) {
		fprintf(stderr, "CI=true but %s is missing: this test may not be skipped in CI\n",
		        probe);
		testlib_failures++;
	} else {
		SKIP("%s not found: this test needs ../shared beside the clone", probe);
	}
	return false;
}

static inline int testlib_finish(void)
{
	printf("%d checks, %d failed\n", testlib_checks, testlib_failures);
	if (testlib_failures)
		return 1;
	return testlib_skipped && !testlib_checks ? 77 : 0;
}

#endif
