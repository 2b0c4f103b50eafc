/* expr.c - fuzz target: the expression parser and evaluator.  Every
 * field reads a value derived from its name; evaluation must end with a
 * result or an error, never undefined behaviour. */
#include "fuzz.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

static bool lookup(void *ctx, const char *name, unsigned depth, int64_t *value,
                   char *err, size_t errlen)
{
	(void)ctx; (void)depth; (void)err; (void)errlen;
	if (name[0] == 'U')
		return false; /* names starting with U are unknown */
	uint64_t h = 1469598103934665603ull;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	*value = (int64_t)(h >> (h & 63));
	return true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	spec_diags d = {0};
	spec_expr *e = spec_expr_parse(text, (spec_loc){"fuzz", 1, 1}, &d);
	if (!e != (d.count == 1))
		abort(); /* failure iff exactly one diagnostic */
	if (e) {
		spec_eval_env env = {.lookup = lookup, .gpu_id = 600};
		int64_t v;
		char err[256];
		spec_expr_eval(e, &env, &v, err, sizeof err);
		for (size_t i = 0; i < spec_expr_ref_count(e); i++)
			if (!spec_expr_ref(e, i))
				abort();
		if (strcmp(spec_expr_text(e), text))
			abort();
	}
	spec_expr_free(e);
	spec_diags_free(&d);
	free(text);
	return 0;
}
