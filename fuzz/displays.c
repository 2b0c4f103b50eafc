/*
 * displays.c - fuzz target: the display proofs (does a leaf's text give
 * its word back?) against brute force, on specs of 16-bit roots the
 * input chooses.
 *
 * The input's bytes are the choices of fuzz/display_gen.c's generator,
 * one byte each (past its end, a generator seeded from the input goes
 * on; it also picks the words asked one at a time).  Every word of the
 * spec is decoded and printed; prove_semantic's verdict on every leaf's
 * text (proved, or two words that print alike) and prove_display_word's
 * on six words of each leaf (as `asm --exact` asks) must agree with that
 * table (display_gen.h).  A spec that does not load or a proof that
 * cannot run is a finding too: every spec the generator makes is valid.
 *
 * Z3 is needed: without it (libz3 not found) the target exits
 * FUZZ_EXIT_SKIP from LLVMFuzzerInitialize.
 */
#include "display_gen.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	semgen_require_z3(FUZZ_TARGET);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	semgen_rng r = {.data = data, .size = size, .state = fuzz_input_seed(data, size)};
	semgen_text xml = {0};
	dispgen_make(&xml, &r);
	dispgen_tally t = {0};
	static char why[1 << 16];
	if (!dispgen_judge_both("fuzz.xml", xml.s, &r, FUZZ_Z3_BUDGET_MS, &t, why, sizeof why)) {
		fuzz_finding_spec(FUZZ_TARGET, data, size, why, xml.s);
	}
	free(xml.s);
	return 0;
}
