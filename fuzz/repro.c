/* repro.c - main() for a fuzz target outside any fuzzing engine: runs
 * each file given (or standard input) through LLVMFuzzerTestOneInput
 * once, after LLVMFuzzerInitialize.  A directory argument runs every
 * regular file in it.  A finding abort()s, as under the engines, so the
 * exit status tells; 77 means the target's spec file is absent.
 *
 * --time prints each input's wall time (initialization excluded, as in
 * an engine's persistent loop) and the slowest: AFL++ under OSS-Fuzz
 * counts an input over about a second as a hang (bench/fuzz-slowest). */
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

static int run_file(const char *path, run_times *t)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += r;
		if (n == cap) {
			uint8_t *b = realloc(buf, cap *= 2);
			if (!b)
				break;
			buf = b;
		}
	}
	if (f != stdin)
		fclose(f);
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

int main(int argc, char **argv)
{
	int rc = 0, runs = 0;
	run_times t = {0};
	if (argc > 1 && !strcmp(argv[1], "--time")) {
		t.on = true;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	if (argc < 2)
		return run_file("-", &t);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			for (struct dirent *e; d && (e = readdir(d));) {
				char p[4096];
				snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
				if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
					rc |= run_file(p, &t);
					runs++;
				}
			}
			if (d)
				closedir(d);
		} else {
			rc |= run_file(argv[i], &t);
			runs++;
		}
	}
	printf("%d inputs run\n", runs);
	if (t.on && runs)
		printf("slowest: %.1f ms  %s\n", t.slowest_ms, t.slowest);
	return rc;
}
