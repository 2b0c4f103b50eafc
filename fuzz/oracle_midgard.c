/*
 * oracle_midgard.c - fuzz target oracle_midgard: isa/midgard.xml against
 * Mesa's own Midgard disassembler (../shared/oracles/mesa), whole
 * programs, compared in meaning by fuzz/oraclemap_midgard.h (shared with
 * tests/test_oracle_midgard.c): every line Mesa prints is predicted from
 * our decoding, and our spec and Mesa agree on which parts are invalid,
 * known Mesa quirks aside.
 *
 * Input: byte 0 chooses where the program comes from (bits 0-1):
 *
 *   0  the reference's random bundle generator (src/ref/midgard.h),
 *      seeded with bytes 1-8 (little-endian): 1 + (byte 0 >> 2) % 8
 *      bundles, chained by their next tags, extended branches landing in
 *      the program (oraclemap_midgard_program with OM_GEN_ALL);
 *   1  bytes 1... as little-endian 32-bit words: any program;
 *   2  as 0, with bytes 9... XORed into the words: a valid program with
 *      some bits changed;
 *   3  as 0 with the OM_GEN_* flags byte 0 >> 2 (any subset: unchained
 *      next tags, branches anywhere, sources of constants without them)
 *      and 1 + (byte 0 >> 6) bundles.
 *
 * A program Mesa's code cannot run (the oracle's negative statuses) is
 * skipped.  A difference is a finding: the bundle's lines as Mesa prints
 * them beside the lines our decoding says it must print.
 */
#include "fuzz.h"
#include "oraclemap_midgard.h"

#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

static fuzz_spec spec;
static oraclemap_midgard *om;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	char err[300];
	om = oraclemap_midgard_new(spec.c, err, sizeof err);
	if (!om) {
		fprintf(stderr, "fuzz: %s: %s\n", spec.path, err);
		exit(2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t words[OM_MAX_BUNDLES * 16];
	if (size < 1)
		return 0;
	size_t nwords = 0;
	unsigned mode = data[0] & 3;
	if (mode == 1) {
		for (size_t i = 1; i + 4 <= size && nwords < N(words); i += 4)
			words[nwords++] = (uint32_t)fuzz_read_le(data + i, 4);
	} else {
		midgard_rng rng;
		midgard_rng_seed(&rng, fuzz_read_le(data + 1, size - 1));
		unsigned n = 1 + (data[0] >> 2) % 8, flags = OM_GEN_ALL;
		if (mode == 3) {
			flags = (data[0] >> 2) & OM_GEN_ALL;
			n = 1 + (data[0] >> 6);
		}
		nwords = oraclemap_midgard_program(&rng, n, flags, words, N(words), NULL);
		if (!nwords) {
			fuzz_finding_lines(FUZZ_TARGET, NULL, data, size, 0,
			                   "the reference does not pack its own random program", NULL,
			                   NULL, NULL, NULL);
			return 0;
		}
		for (size_t i = 9; mode == 2 && i < size && (i - 9) / 4 < nwords; i++)
			words[(i - 9) / 4] ^= (uint32_t)data[i] << (8 * ((i - 9) % 4));
	}
	if (!nwords)
		return 0;

	oraclemap_midgard_result r;
	if (!oraclemap_midgard_compare(om, words, nwords, &r))
		return 0; /* out of memory: nothing to say */
	if (r.verdict == OM_DIFFERENT) {
		static char left[16384], right[16384];
		left[0] = right[0] = '\0';
		fuzz_appendf(left, sizeof left, "[Mesa's text, bundle %zu (word %zu)]\n%s", r.bundle,
		             r.bit / 32, r.mesa_lines ? r.mesa_lines : "");
		fuzz_appendf(right, sizeof right, "[what our decoding says]\n%s",
		             r.expected_lines ? r.expected_lines : "");
		fuzz_appendf(left, sizeof left, "[the program's words]\n");
		for (size_t i = 0; i < nwords; i++)
			fuzz_appendf(left, sizeof left, "%08x%s", (unsigned)words[i],
			             i % 4 == 3 || i + 1 == nwords ? "\n" : " ");
		fuzz_appendf(right, sizeof right, "[our program's text]\n%s",
		             r.our_text ? r.our_text : "");
		fuzz_finding_lines(FUZZ_TARGET, NULL, data, size, 0, r.what, NULL, NULL, left, right);
	}
	oraclemap_midgard_result_free(&r);
	return 0;
}
