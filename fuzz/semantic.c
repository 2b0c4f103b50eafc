/*
 * semantic.c - fuzz target: the meaning proofs (prove_semantic, Z3)
 * against brute force, on small specs the input chooses.
 *
 * Byte 0 picks one of fuzz/semantic_gen.c's three generators (byte 0
 * mod 3 = 0: a spec with overrides, 1: a random expression, 2: a 16-bit
 * spec for the round trips); the other bytes are its choices, one byte
 * each (past their end, a generator seeded from the input goes on).
 *
 * Overrides: which overrides each bitset has, their conditions,
 * displays, asserts and redefined fields, the leaves' generations.
 * Every word of the spec is printed at every generation that matters, by
 * the compiled codec and by the general one, which must print alike;
 * then every verdict on an override or an assert, of Z3 alone and with
 * the decoder confirming witnesses, must agree with what the words
 * printed.
 *
 * Expressions: a derived value over three 4-bit fields, every operator
 * and edge constants; the expression-safety verdicts (overflow, divide
 * by zero, shift range, a value its width loses) must agree with an
 * evaluator of the generator's own over all 4,096 words.
 *
 * Round trips: leaves of fields, holes, asserts, x bits and a sub-bitset
 * with asserts of its own, overrides whose fields shadow the default's;
 * every word is decoded and encoded again, and each leaf's verdict (every
 * word comes back, or the word named does not) must agree.
 *
 * A spec that does not load, or a proof that fails to run, is a finding
 * too: every spec the generators make is valid (semantic_gen.h).
 *
 * Z3 is needed: without it (libz3 not found) the target exits
 * FUZZ_EXIT_SKIP from LLVMFuzzerInitialize.
 */
#include "fuzz.h"
#include "semantic_gen.h"

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
	if (size < 1)
		return 0;
	/* byte 0: which generator; the rest: its choices */
	semgen_rng r = {.data = data + 1, .size = size - 1, .state = fuzz_input_seed(data, size)};
	static char why[1 << 16];
	if (data[0] % 3 == 2) {
		semgen_text xml = {0};
		semgen_rt_make(&xml, &r);
		semgen_rt_tally t = {0};
		if (!semgen_rt_judge("fuzz.xml", xml.s, NULL, &t, why, sizeof why))
			fuzz_finding_spec(FUZZ_TARGET, data, size, why, xml.s);
		free(xml.s);
		return 0;
	}
	if (data[0] % 3 == 1) {
		semgen_expr x;
		semgen_expr_make(&x, &r);
		x.budget_ms = FUZZ_Z3_BUDGET_MS;
		semgen_expr_tally t = {0};
		if (!semgen_expr_judge(&x, &t, why, sizeof why))
			fuzz_finding_spec(FUZZ_TARGET, data, size, why, x.xml.s);
		semgen_expr_free(&x);
		return 0;
	}
	semgen_spec g;
	semgen_make(&g, &r);
	g.budget_ms = FUZZ_Z3_BUDGET_MS;
	semgen_tally t = {0};
	if (!semgen_judge(&g, &t, why, sizeof why))
		fuzz_finding_spec(FUZZ_TARGET, data, size, why, g.xml.s);
	semgen_free(&g);
	return 0;
}
