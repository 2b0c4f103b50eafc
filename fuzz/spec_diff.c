/*
 * spec_diff.c - fuzz target spec_diff: `isacheck diff`'s proofs against
 * brute force, on pairs of small specs the input chooses (fuzz/diff_gen.c;
 * tests/test_diff.c draws a fixed sample of the same generators).
 *
 * Byte 0 picks the generator (even: decoding pairs, which leaves every
 * word matches on both sides, both engines, the witnesses, the counts;
 * odd: text pairs, what every word prints on both sides); the other
 * bytes are its choices, one each.  A verdict the words refute is a
 * finding, reported with both specs.  Without libz3 it exits 77.
 */
#include "diff_gen.h"
#include "fuzz.h"

#include <stdio.h>
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
	semgen_rng r = {.data = data + 1, .size = size - 1, .state = fuzz_input_seed(data, size)};
	diffgen_pair p = {0};
	diffgen_tally t = {0};
	static char why[4096];
	why[0] = 0;
	if (data[0] % 2) {
		diffgen_text_make(&p, &r);
		diffgen_text_judge(&p, &t, why, sizeof why);
	} else {
		diffgen_pair_make(&p, &r);
		diffgen_pair_judge(&p, &t, why, sizeof why);
	}
	if (t.failures) {
		semgen_text both = {0};
		semgen_printf(&both, "<!-- old -->\n%s<!-- new -->\n%s", p.old_xml, p.new_xml);
		fuzz_finding_spec(FUZZ_TARGET, data, size, why, both.s);
		free(both.s);
	}
	diffgen_free(&p);
	return 0;
}
