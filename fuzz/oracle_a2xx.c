/*
 * oracle_a2xx.c - fuzz target oracle_a2xx: whole a2xx programs printed by
 * isacheck (isa/a2xx.xml's <program>s) and by Mesa's own disasm_a2xx()
 * (../shared/oracles/mesa) must be byte-identical, or each side's refusal
 * must be the one fuzz/oracle_a2xx_compare.h allows.
 *
 * Input:
 *
 *   byte 0, bit 0   the stage: 0 vertex (program "vs"), 1 fragment ("fs")
 *           bit 1   0: bytes 1.. are the program's words (little-endian
 *                   32-bit words, as `isacheck disasm --program` reads a
 *                   binary; a trailing 1-3 bytes are ignored)
 *                   1: a valid program from the reference codec's
 *                   generator (src/ref/a2xx.h, a2xx_program_random):
 *                   bytes 1-8 its seed (little-endian, missing bytes 0),
 *                   and bytes 9.. xor'ed over its words from word 0,
 *                   extending the program where they run past its end
 *           bit 2   (generated) don't-care bits set in some instructions
 *           bit 3   (generated) texture filters only from named values
 *                   (Mesa's code indexes its name tables past their end
 *                   with 6: E_MESA_UB)
 *
 * so that a seed names a valid program and mutations of the tail bend it
 * a few bits at a time, while raw inputs reach every framing corner (the
 * first EXEC far down the CF list, clauses in the CF area or past the
 * end, no EXEC at all).  Each input is printed by the stage's variant and
 * by the default program (whose text is Mesa's without its comments),
 * and held to Mesa's text of the same words for that stage.
 *
 * FUZZ_STATS=1 in the environment prints at exit how many inputs ended in
 * each verdict.
 */
#include "a2xx.h"
#include "fuzz.h"
#include "mesa_oracle.h"
#include "oracle_a2xx_compare.h"

#include <stdlib.h>
#include <string.h>

/* Mesa reaches at most 1565 dwords (2 * 511 CFs and the slots of their
 * clauses); inputs somewhat longer still end the same way. */
#define PROGRAM_MAX_WORDS 2048u

static fuzz_spec spec;
static oracle_a2xx_programs programs;
static unsigned long tally[ORACLE_A2XX_NVERDICTS], inputs;

static void print_tally(void)
{
	fprintf(stderr, "%s: %lu inputs, each printed by a variant and by the default program:",
	        FUZZ_TARGET, inputs);
	for (int v = 0; v < ORACLE_A2XX_NVERDICTS; v++)
		fprintf(stderr, "%s %lu %s", v ? "," : "", tally[v],
		        oracle_a2xx_verdict_name((oracle_a2xx_verdict)v));
	fputc('\n', stderr);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	if (!oracle_a2xx_find_programs(spec.m, &programs)) {
		fprintf(stderr, "fuzz: %s: no programs \"vs\" and \"fs\" beside a default one\n",
		        spec.path);
		exit(2);
	}
	const char *st = getenv("FUZZ_STATS");
	if (st && *st && *st != '0')
		atexit(print_tally);
	return 0;
}

/* The program an input stands for, into w; its length in words. */
static size_t input_words(const uint8_t *data, size_t size, uint32_t *w)
{
	size_t n = 0;
	if (data[0] & 2) {
		uint64_t seed = 0;
		for (size_t i = 0; i < 8 && 1 + i < size; i++)
			seed |= (uint64_t)data[1 + i] << (8 * i);
		unsigned flags = (data[0] & 4 ? A2XX_RANDOM_DONTCARE : 0) |
		                 (data[0] & 8 ? A2XX_RANDOM_NAMED_FILTERS : 0);
		if (a2xx_program_random(seed, flags, w, PROGRAM_MAX_WORDS, &n) != A2XX_OK)
			n = 0;
		for (size_t i = 9; i < size && (i - 9) / 4 < PROGRAM_MAX_WORDS; i++) {
			size_t k = (i - 9) / 4;
			while (n <= k)
				w[n++] = 0;
			w[k] ^= (uint32_t)data[i] << (8 * ((i - 9) % 4));
		}
		return n;
	}
	for (size_t i = 1; i + 4 <= size && n < PROGRAM_MAX_WORDS; i += 4)
		w[n++] = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 |
		         (uint32_t)data[i + 2] << 16 | (uint32_t)data[i + 3] << 24;
	return n;
}

static void report(const uint8_t *data, size_t size, const uint32_t *w, size_t n,
                   const spec_program *p, int type, const char *detail,
                   const oracle_a2xx_result *r)
{
	char what[1024];
	snprintf(what, sizeof what,
	         "program '%s' (Mesa's %s stage%s): %s; oracle status %d (%s%s%s)%s%s, line %zu",
	         p->name, type == MESA_ORACLE_A2XX_VS ? "vertex" : "fragment",
	         p == programs.none ? ", comments cut" : "", r->why, r->status,
	         mesa_oracle_strerror(r->status), *detail ? ": " : "", detail,
	         r->stopped ? "; our walk stopped: " : "", r->stopped ? r->stop : "", r->diff.line + 1);
	const char *keep = getenv("FUZZ_KEEP_GOING");
	if (!keep || !*keep || *keep == '0') {
		fprintf(stderr, "inspect:   %s disasm %s --program=%s --hex", ISACHECK_BINARY,
		        spec.path, p->name);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, " %08x", w[i]);
		fprintf(stderr, "\n");
	}
	char a[512], b[512];
	snprintf(a, sizeof a, "%.*s", (int)r->diff.ourslen, r->diff.ours);
	snprintf(b, sizeof b, "%.*s", (int)r->diff.mesalen, r->diff.mesa);
	fuzz_side fa = {"isacheck", NULL, NULL, a}, fb = {"Mesa", NULL, NULL, b};
	fuzz_finding_lines(FUZZ_TARGET, NULL, data, size, 0, what, &fa, &fb, r->ours, r->mesa);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t w[PROGRAM_MAX_WORDS + 8];
	if (size < 1)
		return 0;
	size_t n = input_words(data, size, w);
	if (!n)
		return 0;
	int type = data[0] & 1 ? MESA_ORACLE_A2XX_FS : MESA_ORACLE_A2XX_VS;
	char *mesa = NULL, detail[256];
	int status = oracle_a2xx_mesa(w, n, type, &mesa, detail, sizeof detail);
	if (status == MESA_ORACLE_E_NOMEM)
		return 0;
	inputs++;
	const spec_program *both[2] = {type == MESA_ORACLE_A2XX_VS ? programs.vs : programs.fs,
	                               programs.none};
	for (int k = 0; k < 2; k++) {
		oracle_a2xx_result r;
		if (oracle_a2xx_check(spec.c, both[k], k == 0, w, n, mesa, status, detail, &r)) {
			tally[r.verdict]++;
			if (r.verdict == ORACLE_A2XX_DIFFER)
				report(data, size, w, n, both[k], type, detail, &r);
		}
		oracle_a2xx_result_free(&r);
	}
	free(mesa);
	return 0;
}
