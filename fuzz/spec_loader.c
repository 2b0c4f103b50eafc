/* spec_loader.c - fuzz target: arbitrary bytes as an isaspec file through
 * load, resolve and lint.  No crash, no leak, bounded time and memory;
 * the diagnostics must be well formed.  A model with <program>s is
 * compiled and each program walked over the input's own bytes as words:
 * the walk's names, scopes and texts (src/codec/program.c) see programs
 * no shipped ISA has. */
#include "fuzz.h"
#include "check.h"
#include "codec.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* Walks every program (at most 8) of m over the first 256 words of the
 * input, with and without error suffixes: each walk ends, its items lie
 * inside the words, its text is as long as it says, and its items
 * encode back into words without disagreeing. */
static void walk_programs(const spec_model *m, const uint8_t *data, size_t size)
{
	size_t np = spec_program_count(m);
	if (!np || !m->nroots)
		return;
	spec_diags cd = {0};
	codec *c = codec_new_general(m, &cd);
	uint32_t w[256], back[256];
	size_t n = size / 4 < 256 ? size / 4 : 256;
	for (size_t i = 0; i < n; i++)
		w[i] = (uint32_t)fuzz_read_le(data + 4 * i, 4);
	for (size_t p = 0; c && p < np && p < 8; p++)
		for (int errs = 0; errs < 2; errs++) {
			codec_disasm_options opt = {.show_errors = errs};
			codec_program *pr = codec_program_walk(c, spec_program_at(m, p), w, n, &opt);
			if (!pr)
				continue; /* out of memory */
			if (pr->nerrors > CODEC_PROGRAM_MAX_ERRORS || strlen(pr->text) != pr->textlen)
				abort();
			for (size_t i = 0; i < pr->nitems; i++)
				if (pr->items[i].bit > n * 32 || pr->items[i].bits > n * 32 - pr->items[i].bit)
					abort();
			char err[256];
			/* items taken from the same words cannot disagree */
			if (!codec_program_encode(pr->items, pr->nitems, back, n, err, sizeof err))
				abort();
			codec_program_free(pr);
		}
	codec_free(c);
	spec_diags_free(&cd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	spec_diags d = {0};
	/* Imports resolve inside a folder that does not exist, so a fuzzed
	 * input cannot make the run depend on files of the machine. */
	spec_model *m = spec_load_buffer("fuzz.xml", (const char *)data, size,
	                                 "/nonexistent-isacheck-fuzz", &d);
	for (size_t i = 0; i < d.count; i++) {
		if (!spec_rule_find(d.items[i].rule) || strchr(d.items[i].message, '\n'))
			abort();
	}
	if (!m && (d.count == 0 || d.items[d.count - 1].severity != SPEC_FATAL))
		abort(); /* an unusable input always says why */
	if (m) {
		spec_stats s = spec_model_stats(m);
		if (s.leaves > s.bitsets || s.roots > s.bitsets)
			abort();
		/* and prove it (cube engine): every overlap's witness must match
		 * both leaves at both ends of its gen range */
		prove_result r;
		spec_diags pd = {0};
		if (prove_model(m, NULL, &r, &pd)) {
			for (size_t i = 0; i < r.noverlaps; i++) {
				const prove_overlap *o = &r.overlaps[i];
				if (!prove_leaf_matches(o->a, o->witness, o->gen.min) ||
				    !prove_leaf_matches(o->b, o->witness, o->gen.max))
					abort();
			}
		}
		prove_result_free(&r);
		spec_diags_free(&pd);
	}
	if (m)
		walk_programs(m, data, size);
	spec_model_free(m);
	spec_diags_free(&d);
	return 0;
}
