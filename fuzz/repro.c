/* repro.c - main() for a fuzz target outside any fuzzing engine: runs
 * each file given (or standard input) through LLVMFuzzerTestOneInput
 * once, after LLVMFuzzerInitialize.  A directory argument runs every
 * regular file in it.  A finding abort()s, as under the engines, so the
 * exit status tells; 77 means the target's spec file is absent. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
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
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0, runs = 0;
	LLVMFuzzerInitialize(&argc, &argv);
	if (argc < 2)
		return run_file("-");
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			for (struct dirent *e; d && (e = readdir(d));) {
				char p[4096];
				snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
				if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
					rc |= run_file(p);
					runs++;
				}
			}
			if (d)
				closedir(d);
		} else {
			rc |= run_file(argv[i]);
			runs++;
		}
	}
	printf("%d inputs run\n", runs);
	return rc;
}
