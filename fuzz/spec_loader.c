/* spec_loader.c - fuzz target: arbitrary bytes as an isaspec file through
 * load, resolve and lint.  No crash, no leak, bounded time and memory;
 * the diagnostics must be well formed. */
#include "fuzz.h"
#include "check.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
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
	spec_model_free(m);
	spec_diags_free(&d);
	return 0;
}
