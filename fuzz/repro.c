/* repro.c - main() for a fuzz target outside any fuzzing engine: runs
 * each file given (or standard input) through LLVMFuzzerTestOneInput
 * once, after LLVMFuzzerInitialize.  A directory argument runs every
 * regular file in it.  A finding abort()s, as under the engines, so the
 * exit status tells; 77 means the target's spec file is absent.
 *
 * --time prints each input's wall time (initialization excluded, as in
 * an engine's persistent loop) and the slowest: AFL++ under OSS-Fuzz
 * counts an input over about a second as a hang (bench/fuzz-slowest).
 *
 * --bench=PASSES reads every input into memory, then runs all of them
 * PASSES times a round, five rounds, and prints the best round's time an
 * input: the body of the target without an engine's work or its
 * instrumentation (bench/fuzz-body).  --bench=0 only initializes and
 * reads, which is what a count of instructions subtracts.
 *
 * --replay=FILE runs the inputs an engine's run recorded (FUZZ_RECORD:
 * fuzz_record_input in fuzz.h) once each, in their order, and prints
 * the time a run; --runs=N stops after N of them (0: initialize and
 * read only).  In the replay build (bench/fuzz-replay) the round trips
 * keep their memory of instructions from run to run as under the
 * engine, so a replay costs what the engine's runs cost the target's
 * body, input for input.  A file that does not hold whole records
 * is refused (exit 2) before anything runs. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct run_times {
	bool on;
	double slowest_ms;
	char slowest[4096];
} run_times;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The bytes of path ("-": standard input) in a buffer of *n bytes, or
 * NULL with the reason printed. */
static uint8_t *read_input(const char *path, size_t *n)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		perror(path);
		return NULL;
	}
	size_t cap = 1 << 16;
	*n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t r; buf && (r = fread(buf + *n, 1, cap - *n, f)) > 0;) {
		*n += r;
		if (*n == cap) {
			uint8_t *b = realloc(buf, cap *= 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
		}
	}
	if (f != stdin)
		fclose(f);
	if (!buf)
		fprintf(stderr, "%s: out of memory\n", path);
	return buf;
}

static int run_file(const char *path, run_times *t)
{
	size_t n;
	uint8_t *buf = read_input(path, &n);
	if (!buf)
		return 1;
	double start = now_ms();
	LLVMFuzzerTestOneInput(buf, n);
	double ms = now_ms() - start;
	if (t->on) {
		printf("%10.1f ms  %s\n", ms, path);
		if (ms >= t->slowest_ms) {
			t->slowest_ms = ms;
			snprintf(t->slowest, sizeof t->slowest, "%s", path);
		}
	}
	free(buf);
	return 0;
}

/* The inputs --bench runs, in memory. */
typedef struct input_set {
	uint8_t **data;
	size_t *size;
	size_t n, cap;
} input_set;

static int load_file(const char *path, input_set *in)
{
	size_t n;
	uint8_t *buf = read_input(path, &n);
	if (!buf)
		return 1;
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 256;
		uint8_t **d = realloc(in->data, cap * sizeof *d);
		if (d)
			in->data = d;
		size_t *z = d ? realloc(in->size, cap * sizeof *z) : NULL;
		if (!z) {
			free(buf);
			fprintf(stderr, "%s: out of memory\n", path);
			return 1;
		}
		in->size = z;
		in->cap = cap;
	}
	in->data[in->n] = buf;
	in->size[in->n++] = n;
	return 0;
}

/* Every input, PASSES times a round; the best of five rounds. */
static void bench(const input_set *in, long passes)
{
	enum { ROUNDS = 5 };
	double best = 0, round_ns[ROUNDS];
	for (int r = 0; r < ROUNDS && passes > 0 && in->n; r++) {
		double start = now_ms();
		for (long p = 0; p < passes; p++)
			for (size_t i = 0; i < in->n; i++)
				LLVMFuzzerTestOneInput(in->data[i], in->size[i]);
		round_ns[r] = (now_ms() - start) * 1e6 / ((double)passes * (double)in->n);
		if (r == 0 || round_ns[r] < best)
			best = round_ns[r];
	}
	printf("%zu inputs, %ld passes a round", in->n, passes);
	if (passes > 0 && in->n) {
		printf(", best of %d rounds: %.0f ns an input (rounds:", ROUNDS, best);
		for (int r = 0; r < ROUNDS; r++)
			printf(" %.0f", round_ns[r]);
		printf(")");
	}
	printf("\n");
}

/* --replay: the records of path (a 4-byte little-endian length, then
 * the input), each run once in order, at most max of them (-1: all);
 * prints the count and the time a run.  2 on a file that is not whole
 * records, 1 when it cannot be read. */
static int replay(const char *path, long max)
{
	size_t n;
	uint8_t *buf = read_input(path, &n);
	if (!buf)
		return 1;
	size_t count = 0;
	for (size_t at = 0; at < n;) {
		uint32_t len = n - at < 4 ? 0 : (uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8 |
		                                  (uint32_t)buf[at + 2] << 16 |
		                                  (uint32_t)buf[at + 3] << 24;
		if (n - at < 4 || len > n - at - 4) {
			fprintf(stderr, "%s: byte %zu: a record cut short (not a FUZZ_RECORD file?)\n",
			        path, at);
			free(buf);
			return 2;
		}
		at += 4 + (size_t)len;
		count++;
	}
	size_t runs = max >= 0 && (size_t)max < count ? (size_t)max : count;
	double start = now_ms();
	size_t at = 0;
	for (size_t i = 0; i < runs; i++) {
		size_t len = (size_t)buf[at] | (size_t)buf[at + 1] << 8 | (size_t)buf[at + 2] << 16 |
		             (size_t)buf[at + 3] << 24;
		LLVMFuzzerTestOneInput(buf + at + 4, len);
		at += 4 + len;
	}
	double ms = now_ms() - start;
	printf("%zu of %zu recorded inputs replayed", runs, count);
	if (runs)
		printf(": %.0f ns a run", ms * 1e6 / (double)runs);
	printf("\n");
	free(buf);
	return 0;
}

/* Runs path now, or (--bench) keeps it for later. */
static int take(const char *path, long passes, run_times *t, input_set *in)
{
	return passes < 0 ? run_file(path, t) : load_file(path, in);
}

int main(int argc, char **argv)
{
	int rc = 0, runs = 0;
	run_times t = {0};
	long passes = -1; /* --bench: the passes a round; -1: run each input once */
	const char *replay_file = NULL;
	long replay_runs = -1; /* --runs: -1, all */
	while (argc > 1 && (!strcmp(argv[1], "--time") || !strncmp(argv[1], "--bench=", 8) ||
	                    !strncmp(argv[1], "--replay=", 9) || !strncmp(argv[1], "--runs=", 7))) {
		if (!strcmp(argv[1], "--time")) {
			t.on = true;
		} else if (!strncmp(argv[1], "--replay=", 9)) {
			replay_file = argv[1] + 9;
		} else if (!strncmp(argv[1], "--runs=", 7)) {
			char *end;
			replay_runs = strtol(argv[1] + 7, &end, 10);
			if (end == argv[1] + 7 || *end || replay_runs < 0) {
				fprintf(stderr, "%s: --runs=N takes a number of runs, 0 or more\n", argv[0]);
				return 2;
			}
		} else {
			char *end;
			passes = strtol(argv[1] + 8, &end, 10);
			if (end == argv[1] + 8 || *end || passes < 0) {
				fprintf(stderr, "%s: --bench=PASSES takes a number of passes, 0 or more\n",
				        argv[0]);
				return 2;
			}
		}
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (replay_file && (argc > 1 || passes >= 0 || t.on)) {
		fprintf(stderr, "%s: --replay=FILE takes no inputs and no --bench or --time\n",
		        argv[0]);
		return 2;
	}
	if (replay_runs >= 0 && !replay_file) {
		fprintf(stderr, "%s: --runs=N goes with --replay=FILE\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	if (replay_file)
		return replay(replay_file, replay_runs);
	input_set in = {0};
	if (argc < 2) {
		rc = take("-", passes, &t, &in);
		runs = 1;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			for (struct dirent *e; d && (e = readdir(d));) {
				char p[4096];
				snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
				if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
					rc |= take(p, passes, &t, &in);
					runs++;
				}
			}
			if (d)
				closedir(d);
		} else {
			rc |= take(argv[i], passes, &t, &in);
			runs++;
		}
	}
	if (passes >= 0) {
		bench(&in, passes);
		for (size_t i = 0; i < in.n; i++)
			free(in.data[i]);
		free(in.data);
		free(in.size);
		return rc;
	}
	if (argc >= 2)
		printf("%d inputs run\n", runs);
	if (t.on && runs)
		printf("slowest: %.1f ms  %s\n", t.slowest_ms, t.slowest);
	return rc;
}
