/* model.c - look-ups, statistics and release of a loaded model. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void spec_model_free(spec_model *m)
{
	if (!m)
		return;
	struct spec_model_private *priv = m->priv;
	for (size_t i = 0; i < m->nexprs; i++)
		spec_expr_free((spec_expr *)m->exprs[i].expr);
	spec_frame_free(priv);
	arena_free(&priv->arena); /* m itself lives in the arena */
	free(priv);
}

const spec_bitset *spec_find_bitset_gen(const spec_model *m, const char *name,
                                        uint32_t gen)
{
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		if (!strcmp(b->name, name) &&
		    (gen == UINT32_MAX || (b->gen.min <= gen && gen <= b->gen.max)))
			return b;
	}
	return NULL;
}

const spec_bitset *spec_find_bitset(const spec_model *m, const char *name)
{
	return spec_find_bitset_gen(m, name, UINT32_MAX);
}

const spec_root *spec_find_root(const spec_model *m, const char *name)
{
	for (size_t i = 0; i < m->nroots; i++)
		if (!strcmp(m->roots[i].bitset->name, name))
			return &m->roots[i];
	return NULL;
}

bool spec_is_field_type(const spec_model *m, const spec_bitset *b)
{
	for (size_t i = 0; i < m->nbitsets; i++)
		for (size_t k = 0; k < m->bitsets[i]->ncases; k++) {
			const spec_case *c = &m->bitsets[i]->cases[k];
			for (size_t f = 0; f < c->nfields; f++)
				if (c->fields[f].type == SPEC_TYPE_BITSET && c->fields[f].bitset == b)
					return true;
		}
	return false;
}

/* Later definitions win, as in Mesa: search from the end. */
const spec_enum *spec_find_enum(const spec_model *m, const char *name)
{
	for (size_t i = m->nenums; i-- > 0;)
		if (!strcmp(m->enums[i].name, name))
			return &m->enums[i];
	return NULL;
}

const spec_named_expr *spec_find_expr(const spec_model *m, const char *name)
{
	for (size_t i = m->nexprs; i-- > 0;)
		if (!m->exprs[i].anonymous && !strcmp(m->exprs[i].name, name))
			return &m->exprs[i];
	return NULL;
}

const spec_template *spec_find_template(const spec_model *m, const char *name)
{
	for (size_t i = m->ntemplates; i-- > 0;)
		if (!strcmp(m->templates[i].name, name))
			return &m->templates[i];
	return NULL;
}

const spec_enum_value *spec_enum_lookup(const spec_enum *e, int64_t val)
{
	for (size_t i = 0; i < e->nvalues; i++)
		if (e->values[i].val == val)
			return &e->values[i];
	return NULL;
}

static int name_order(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

spec_stats spec_model_stats(const spec_model *m)
{
	spec_stats s = {.files = m->nfiles, .bitsets = m->nbitsets, .roots = m->nroots,
	                .enums = m->nenums, .exprs = m->nexprs, .templates = m->ntemplates};
	const char **names = malloc((m->nbitsets ? m->nbitsets : 1) * sizeof *names);
	for (size_t i = 0; i < m->nbitsets; i++)
		if (spec_is_leaf(m->bitsets[i])) {
			if (names)
				names[s.leaves] = m->bitsets[i]->name;
			s.leaves++;
		}
	/* distinct names, sorted: a pairwise search took 10 s at 40,000
	 * leaves (isacheck doc, lint's counts) */
	if (names) {
		qsort(names, s.leaves, sizeof *names, name_order);
		for (size_t i = 0; i < s.leaves; i++)
			s.leaf_names += !i || strcmp(names[i - 1], names[i]);
		free(names);
	} else {
		/* no memory for the list: the pairwise search */
		for (size_t i = 0; i < m->nbitsets; i++) {
			const spec_bitset *b = m->bitsets[i];
			bool first = spec_is_leaf(b);
			for (size_t j = 0; j < i && first; j++)
				first = !(spec_is_leaf(m->bitsets[j]) && !strcmp(m->bitsets[j]->name, b->name));
			s.leaf_names += first;
		}
	}
	return s;
}
