/*
 * testlib.h - the few macros our C tests share.  A test file defines
 * TEST(name) functions and lists them in main() with RUN(name); each
 * failed CHECK prints file:line and the values, and the process exits 1
 * when any check failed, 77 (ctest's "skipped") when SKIP() was called
 * and nothing failed.  Below them, the helpers several tests need: files,
 * running the isacheck command, paths in ../shared, and reading its TSV
 * vector files.
 */
#ifndef ISACHECK_TESTLIB_H
#define ISACHECK_TESTLIB_H

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int testlib_failures;
static int testlib_checks;
static int testlib_skipped;

#define TEST(name) static void name(void)

/* Each test's line gives its wall time, so a slow test shows in the
 * ctest log (bench/ measures speed; this only says where time goes).
 * The line is flushed at once: a test killed later (its watchdog, a
 * timeout) still shows which tests it finished. */
#define RUN(name)                                                      \
	do {                                                           \
		int before_ = testlib_failures;                        \
		testlib_current = #name;                               \
		testlib_watchdog_arm();                                \
		double t0_ = testlib_now();                            \
		name();                                                \
		printf("%s %s (%.2f s)\n",                             \
		       testlib_failures == before_ ? "ok  " : "FAIL", #name, \
		       testlib_now() - t0_);                           \
		fflush(stdout);                                        \
	} while (0)

/* ------------------------------------------------------- watchdog */

/* ctest kills a test that outlasts its TIMEOUT without a word of where
 * it was or why.  With ISACHECK_TEST_WATCHDOG=N in the environment
 * (seconds; tests/CMakeLists.txt sets it some way below each test's
 * TIMEOUT), the first RUN arms an alarm; when it rings, the running
 * test's name goes to standard error, then tests/watchdog's picture of
 * the process and of all it started (states, CPU time, what each waits
 * on, stacks), and the process exits 1, what it started killed.  Only
 * async-signal-safe calls in the handler: write, fork, exec, waitpid. */
static const char *volatile testlib_current = "(before the first test)";
static volatile unsigned testlib_watchdog_seconds;

static inline void testlib_say(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* v in decimal into buf (24 bytes): no printf in a signal handler. */
static inline const char *testlib_decimal(char *buf, unsigned long v)
{
	char *p = buf + 23;
	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) && p > buf);
	return p;
}

static inline void testlib_watchdog_ring(int sig)
{
	(void)sig;
	char pid[24], secs[24];
	const char *ps = testlib_decimal(pid, (unsigned long)getpid());
	testlib_say("\nwatchdog: test ");
	testlib_say((const char *)testlib_current);
	testlib_say(" still running after ");
	testlib_say(testlib_decimal(secs, testlib_watchdog_seconds));
	testlib_say(" s of the program (ISACHECK_TEST_WATCHDOG): stopping it\n");
#ifdef ISACHECK_SOURCE_DIR
	pid_t c = fork();
	if (c == 0) {
		execl("/bin/sh", "sh", ISACHECK_SOURCE_DIR "/tests/watchdog", ps, (char *)NULL);
		_exit(127);
	}
	while (c > 0 && waitpid(c, NULL, 0) < 0 && errno == EINTR) {
	}
#else
	(void)ps;
#endif
	_exit(1);
}

static inline void testlib_watchdog_arm(void)
{
	static bool armed;
	if (armed)
		return;
	armed = true;
	const char *env = getenv("ISACHECK_TEST_WATCHDOG");
	long n = env ? strtol(env, NULL, 10) : 0;
	if (n <= 0 || n > 86400)
		return;
	testlib_watchdog_seconds = (unsigned)n;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = testlib_watchdog_ring;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) == 0)
		alarm(testlib_watchdog_seconds);
}

static inline double testlib_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* Reproducible random numbers (xorshift64): *state is the test's seed,
 * never 0, and each call's number. */
static inline uint64_t testlib_random(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* Copies an instruction of bits bits from w to v (FUZZ_MAX_WORDS-like
 * room of nv words): its words, the bits past it clear. */
static inline void testlib_instr_bits(const uint64_t *w, unsigned bits, uint64_t *v, unsigned nv)
{
	for (unsigned k = 0; k < nv; k++)
		v[k] = 64 * k < bits ? w[k] : 0;
	if (bits % 64 && bits / 64 < nv)
		v[bits / 64] &= ((uint64_t)1 << (bits % 64)) - 1;
}

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

/* ------------------------------------------------------------ files */

/* The whole file at path, malloc'd and NUL-terminated; NULL when it
 * cannot be opened or read in full. */
static inline char *testlib_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	char *s = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

/* Removes a test's temporary folder and all in it; true when it worked. */
static inline bool testlib_remove_tree(const char *dir)
{
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0;
}

/* ------------------------------------------------------ commands */

/* Runs a shell command line (the isacheck CLI, mostly); returns its exit
 * code, -1 when it could not be started or did not exit (a crash).  Its
 * whole standard output is *out, malloc'd, or NULL when the command
 * could not be started or memory ran out. */
static inline int testlib_run_capture(const char *cmdline, char **out)
{
	*out = NULL;
	FILE *p = popen(cmdline, "r");
	if (!p)
		return -1;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (size_t r; buf && (r = fread(buf + len, 1, cap - len - 1, p)) > 0;) {
		len += r;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	/* Read to the end even without a buffer: a command whose output is
	 * cut off would die of SIGPIPE, and its exit code be lost. */
	while (fgetc(p) != EOF) {
	}
	if (buf)
		buf[len] = '\0';
	int st = pclose(p);
	*out = buf;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The same with (a prefix of) its standard output in out[outlen],
 * NUL-terminated; out may be NULL when the output does not matter. */
static inline int testlib_run(const char *cmdline, char *out, size_t outlen)
{
	char *all;
	int rc = testlib_run_capture(cmdline, &all);
	if (out && outlen) {
		size_t n = all ? strlen(all) : 0;
		if (n > outlen - 1)
			n = outlen - 1;
		memcpy(out, all ? all : "", n);
		out[n] = '\0';
	}
	free(all);
	return rc;
}

/* ------------------------------------------------------- ../shared */

#ifdef ISACHECK_SHARED_DIR
/* ../shared, or where the environment's ISACHECK_SHARED_DIR says it is. */
static inline const char *testlib_shared_dir(void)
{
	const char *env = getenv("ISACHECK_SHARED_DIR");
	return env && *env ? env : ISACHECK_SHARED_DIR;
}

/* Writes the path of a file in ../shared, given printf-style relative to
 * it ("mesa/vectors/%s"), into buf; returns buf. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline char *testlib_shared_path(char *buf, size_t len, const char *rel, ...)
{
	int n = snprintf(buf, len, "%s/", testlib_shared_dir());
	if (n >= 0 && (size_t)n < len) {
		va_list ap;
		va_start(ap, rel);
		vsnprintf(buf + n, len - (size_t)n, rel, ap);
		va_end(ap);
	}
	return buf;
}
#endif

/* ------------------------------------------------ TSV vector files */

/* Splits a TSV line in place, its line end cut first; returns the
 * number of columns (at most max; the last one is cut at its tab). */
static inline size_t testlib_split_tabs(char *line, char **cols, size_t max)
{
	size_t n = 0, len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	for (char *p = line; n < max;) {
		cols[n++] = p;
		char *tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

/* A vector file (the .tsv files of ../shared's mesa/vectors/ and blob/:
 * a header line, then a row a line) read row by row. */
typedef struct testlib_tsv {
	FILE *f;
	size_t line; /* the file's line number of the row last read */
	char buf[16384];
} testlib_tsv;

/* Opens path and passes its header; false when it cannot be read. */
static inline bool testlib_tsv_open(testlib_tsv *t, const char *path)
{
	t->line = 1;
	t->f = fopen(path, "r");
	if (t->f && !fgets(t->buf, sizeof t->buf, t->f)) {
		fclose(t->f);
		t->f = NULL;
	}
	return t->f != NULL;
}

/* The next row's columns, split in place in t (they live until the next
 * call); returns their number, 0 at the end of the file. */
static inline size_t testlib_tsv_next(testlib_tsv *t, char **cols, size_t max)
{
	if (!t->f || !fgets(t->buf, sizeof t->buf, t->f))
		return 0;
	t->line++;
	return testlib_split_tabs(t->buf, cols, max);
}

static inline void testlib_tsv_close(testlib_tsv *t)
{
	if (t->f)
		fclose(t->f);
	t->f = NULL;
}

/* Undoes the TSV's C escapes (\t, \n, \\; any other escaped character
 * stands for itself), in place. */
static inline void testlib_unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Reads up to max hex words separated by blanks ("00000000 0x1f");
 * returns how many. */
static inline size_t testlib_parse_words(const char *s, uint32_t *w, size_t max)
{
	size_t n = 0;
	while (*s && n < max) {
		char *end;
		unsigned long v = strtoul(s, &end, 16);
		if (end == s)
			break;
		w[n++] = (uint32_t)v;
		s = end;
	}
	return n;
}

#ifdef ISACHECK_FUZZ_H
/* Loads spec name for a fuzz target's harness (fuzz_spec_load, Mesa's
 * no-match style) as a check: false, the load's error printed, when it
 * failed (when fuzz.h is included before this header). */
static inline bool testlib_fuzz_spec(fuzz_spec *s, const char *name)
{
	int rc = fuzz_spec_load(s, name, CODEC_NO_MATCH_MESA);
	CHECK_INT(rc, 0);
	return rc == 0;
}
#endif

#ifdef ISACHECK_CODEC_H
/* Random words w for an instruction of bits bits, aimed at bitset aim
 * (its pattern bits set as it matches; NULL: left random): one number
 * a word, the bits past the instruction clear. */
static inline void testlib_random_instr(uint64_t *state, uint64_t *w, unsigned bits,
                                        const spec_bitset *aim)
{
	unsigned nw = (bits + 63) / 64;
	for (unsigned k = 0; k < nw; k++) {
		uint64_t mask = aim && k < aim->mask.nwords ? aim->mask.w[k] : 0;
		uint64_t match = aim && k < aim->match.nwords ? aim->match.w[k] : 0;
		w[k] = (testlib_random(state) & ~mask) | (match & mask);
	}
	testlib_instr_bits(w, bits, w, nw);
}

/* A spec and its codec, for tests of src/codec and what uses it (when
 * codec.h is included before this header).  Failing to load is a failed
 * check (the fatal diagnostics printed); the fields are then NULL. */
typedef struct testlib_codec {
	spec_model *m;
	codec *c;
} testlib_codec;

static inline testlib_codec testlib_load_codec(const char *path)
{
	spec_diags d = {0};
	testlib_codec l = {0};
	l.m = spec_load(path, &d);
	CHECK(l.m != NULL);
	if (l.m) {
		l.c = codec_new(l.m, &d);
		CHECK(l.c != NULL);
	}
	for (size_t i = 0; i < d.count; i++)
		if (d.items[i].severity == SPEC_FATAL)
			fprintf(stderr, "%s: %s\n", path, d.items[i].message);
	spec_diags_free(&d);
	return l;
}

static inline void testlib_unload_codec(testlib_codec *l)
{
	codec_free(l->c);
	spec_model_free(l->m);
}
#endif

static inline int testlib_finish(void)
{
	printf("%d checks, %d failed\n", testlib_checks, testlib_failures);
	if (testlib_failures)
		return 1;
	return testlib_skipped && !testlib_checks ? 77 : 0;
}

/* A growing text (the tests' generated specs): p is NUL-terminated once
 * anything was written; free(p) at the end.  Out of memory aborts: a
 * test cannot go on without its input. */
typedef struct testlib_text {
	char *p;
	size_t n, cap;
} testlib_text;

static inline void testlib_printf(testlib_text *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void testlib_printf(testlib_text *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		abort();
	if (b->n + (size_t)len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (b->n + (size_t)len + 1 > cap)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			abort();
		b->p = p;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)len + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)len;
}

/* splitmix64: tiny, the same on every platform, so a failing seed can be
 * replayed; *state is the whole generator. */
static inline uint64_t testlib_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
