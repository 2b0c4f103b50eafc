/*
 * semantic.c - fuzz target: the meaning proofs (prove_semantic, Z3)
 * against brute force, on small specs the input chooses.
 *
 * The input's bytes are the choices of fuzz/semantic_gen.c's generator,
 * one byte each (past its end, a generator seeded from it goes on): which
 * overrides each bitset has, their conditions, displays, asserts and
 * redefined fields, the leaves' generations.  Every word of the spec is
 * printed at every generation that matters, by the compiled codec and
 * by the general one, which must print alike; then every verdict on an
 * override or an assert, of Z3 alone and with the decoder confirming
 * witnesses, must agree with what the words printed (semantic_gen.h).
 * A spec that does not load, or a proof that fails to run, is a finding
 * too: every spec the generator makes is valid.
 *
 * Z3 is needed: without it (libz3 not found) the target exits
 * FUZZ_EXIT_SKIP from LLVMFuzzerInitialize.
 */
#include "check.h"
#include "fuzz.h"
#include "semantic_gen.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char why[256];
	if (!prove_z3_available(why, sizeof why)) {
		fprintf(stderr, "semantic: %s: nothing to fuzz\n", why);
		exit(FUZZ_EXIT_SKIP);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	semgen_rng r = {.data = data, .size = size, .state = fuzz_input_seed(data, size)};
	semgen_spec g;
	semgen_make(&g, &r);
	semgen_tally t = {0};
	static char why[1 << 16];
	if (!semgen_judge(&g, &t, why, sizeof why)) {
		/* the first line says what; the spec follows it */
		char *nl = strchr(why, '\n');
		if (nl)
			*nl = 0;
		fuzz_finding_lines(FUZZ_TARGET, NULL, data, size, 0, why, NULL, NULL, g.xml.s, NULL);
	}
	semgen_free(&g);
	return 0;
}
