/*
 * oracle_isaspec.c - fuzz targets oracle_mesa_<isa> (ir3, etnaviv, afuc):
 * isacheck, reading Mesa's XML, and Mesa's own decoder generated from the
 * same XML (../shared/oracles/mesa) print the same words; the text must
 * be byte-identical, errors included.  Built per ISA from
 * fuzz/targets.cmake (FUZZ_SPEC, FUZZ_ORACLE_ISA, FUZZ_NO_MATCH: the
 * style of the ISA's Mesa tool).
 *
 * Input: the word-target layout of fuzz.h, but for the top three bits of
 * the header, which pick the options:
 *
 *   bit 15  branch labels the other way from the tool's default
 *   bit 14  errors shown or hidden, the other way from the tool's default
 *   bit 13  the ISA's other no-match style, where it has one (ir3: the
 *           isaspec "no match:" of ir3-disasm instead of the unit test's
 *           "raw 0x...")
 *   bits 0-12  the generation (folded as fuzz_spec_gen does)
 *
 * The instructions are printed as one buffer with those options (labels,
 * and a bitset conflict's error on the next line, span instructions); an
 * input of one instruction without labels is printed codec_disasm_one's
 * way (fuzz/oracle.c).  One call of Mesa's decoder an input: it costs
 * more than all of isacheck's work on it.
 */
#include "fuzz.h"
#include "mesa_oracle.h"
#include "oracle.h"

#include <stdlib.h>
#include <string.h>

static fuzz_spec spec;
static codec_no_match_style styles[2];
static size_t nstyles;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	nstyles = oracle_isaspec_styles(FUZZ_ORACLE_ISA, styles);
	if (!nstyles || styles[0] != FUZZ_NO_MATCH ||
	    spec.nbytes != 4 * mesa_oracle_isaspec_words(FUZZ_ORACLE_ISA)) {
		fprintf(stderr, "fuzz: %s: the oracle's %s does not fit this spec\n", spec.path,
		        FUZZ_ORACLE_ISA);
		exit(2);
	}
	return 0;
}

/* A difference: both texts, and the line where they part. */
static void report(const uint8_t *data, size_t size, const uint64_t *w,
                   const codec_disasm_options *o, const oracle_isaspec_result *r,
                   const char *how)
{
	char what[512], a[1024], b[1024];
	snprintf(what, sizeof what,
	         "isacheck and Mesa's %s decoder print differently (%s; errors %s, labels %s, "
	         "no-match style %d), line %zu", FUZZ_ORACLE_ISA, how,
	         o->show_errors ? "shown" : "hidden", o->branch_labels ? "on" : "off",
	         (int)o->no_match, r->diff.line + 1);
	snprintf(a, sizeof a, "%.*s", (int)r->diff.ourslen, r->diff.ours);
	snprintf(b, sizeof b, "%.*s", (int)r->diff.mesalen, r->diff.mesa);
	fuzz_side fa = {"isacheck", w, NULL, a}, fb = {"Mesa", NULL, NULL, b};
	fuzz_finding_lines(FUZZ_TARGET, &spec, data, size, o->gen, what, &fa, &fb, r->ours,
	                   r->mesa);
}

/* One comparison (a finding abort()s, or is counted under FUZZ_KEEP_GOING). */
static void compare(const uint8_t *data, size_t size, const uint32_t *u, size_t n,
                    const uint64_t *w, const codec_disasm_options *o, const char *how)
{
	oracle_isaspec_result r;
	if (!oracle_isaspec_compare(spec.c, FUZZ_ORACLE_ISA, u, n, o, &r)) {
		oracle_isaspec_result_free(&r);
		return; /* out of memory: nothing to say */
	}
	/* Mesa's code refused the input (its README: undefined behaviour in
	 * Mesa); the isaspec decoders never do on whole instructions */
	if (r.status < 0 && r.status != MESA_ORACLE_E_NOMEM) {
		char what[256];
		snprintf(what, sizeof what, "Mesa's %s decoder refused the input: %s (%s)",
		         FUZZ_ORACLE_ISA, mesa_oracle_strerror(r.status), mesa_oracle_last_detail());
		fuzz_side fa = {"isacheck", w, NULL, NULL};
		fuzz_finding(FUZZ_TARGET, &spec, data, size, o->gen, what, &fa, NULL);
	} else if (r.status >= 0 && !r.same) {
		report(data, size, w, o, &r, how);
	}
	oracle_isaspec_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned head = (unsigned)data[0] | (unsigned)data[1] << 8;
	uint32_t gen = fuzz_spec_gen(&spec, (uint16_t)(head & 0x1fff));
	uint32_t u[FUZZ_MAX_INSTR * FUZZ_MAX_WORDS * 2];
	uint64_t w[FUZZ_MAX_INSTR][FUZZ_MAX_WORDS];
	size_t n = 0, per = spec.nbytes / 4;
	while (n < FUZZ_MAX_INSTR && fuzz_input_instr(&spec, data, size, n, w[n], u + n * per))
		n++;
	if (!n)
		return 0;
	codec_no_match_style style = styles[(head >> 13 & 1u) % nstyles];
	codec_disasm_options o = oracle_isaspec_options(FUZZ_ORACLE_ISA, style, gen);
	o.branch_labels ^= (head >> 15) & 1u;
	o.show_errors ^= (head >> 14) & 1u;
	compare(data, size, u, n, w[0], &o, n > 1 ? "the whole input as one buffer"
	                                           : "one instruction");
	return 0;
}
