/* afl_driver.c - main() for a fuzz target under AFL++ (built with
 * afl-clang-fast or afl-clang-lto, preset "afl"): persistent mode with
 * test cases in shared memory, so one process runs many inputs without
 * fork or read.  The target's spec is loaded before __AFL_INIT, in the
 * fork server's parent, so each child starts with it.
 *
 * Given file arguments, it runs them once each instead, like
 * fuzz/repro.c (afl-cmin and afl-tmin pass inputs as files or stdin). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef __AFL_FUZZ_TESTCASE_LEN
#error "build this file with afl-clang-fast or afl-clang-lto (preset afl)"
#endif

/* AFL++'s macros are GNU C by design (statement expressions); this file
 * alone is built with them. */
#pragma clang diagnostic ignored "-Wgnu-statement-expression"
#pragma clang diagnostic ignored "-Wextra-semi"

__AFL_FUZZ_INIT();

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		int rc = 0;
		for (int i = 1; i < argc; i++)
			rc |= run_file(argv[i]);
		return rc;
	}
	__AFL_INIT();
	const unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(100000))
		LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
	return 0;
}
