/*
 * fuzz.h - what every fuzz target shares.  A target is one C file that
 * defines LLVMFuzzerTestOneInput; fuzz/repro.c gives it a main() that
 * runs the files named on the command line (or standard input), so the
 * same file builds for libFuzzer and as a plain reproducer.
 */
#ifndef ISACHECK_FUZZ_H
#define ISACHECK_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
