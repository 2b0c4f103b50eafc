/*
 * encode_lint.c - the encoder side of the dialect, checked the way Mesa's
 * encode.py reads it (../shared/mesa/SEMANTICS.md section 1.8).
 *
 * Mesa generates an encoder for every root that has an <encode>, leaf by
 * leaf.  For each case of a leaf that has a display (its own, then its
 * ancestors' while the default case has none), it packs the fields the
 * display names (templates expanded), those of <map force="true">, and
 * what resolving them brings in: the fields an override's or a derived
 * field's expression reads, and the source fields of a bitset field's
 * <param>s.  A field's value comes from the first <map> of that name met
 * from the leaf up to its root.  A param's or an expression's input may
 * also be a derived field, or a name some <param> passes into a root (the
 * encoder's "p->NAME").  A name none of these gives is encoded as 0, and
 * encode.py prints "WARNING: no encode mapping for LEAF.NAME": the rule
 * encode-unmapped, reported once per leaf and name, at the leaf.
 *
 * A <map> without an expression stops Mesa's isa.py (it strips the text
 * of the element, which has none): encode-map-empty.  A <map> no leaf's
 * encoding ever looks up (a misspelt name, a field that moved away) is
 * encode-map-unused.  And lint.c asks spec_encoder_maps whether a <param>
 * that names no field is one the encoder reads (etnaviv's COMPS).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

bool spec_encoder_maps(const spec_bitset *leaf, const char *name)
{
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t i = 0; i < b->nmaps; i++)
			if (b->maps[i].name && !strcmp(b->maps[i].name, name))
				return true;
	return false;
}

/* The map of name the encoder of leaf uses (the first from the leaf up). */
static const spec_encode_map *map_of(const spec_bitset *leaf, const char *name)
{
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t i = 0; i < b->nmaps; i++)
			if (b->maps[i].name && !strcmp(b->maps[i].name, name))
				return &b->maps[i];
	return NULL;
}

/* A growing list of names (the display fields of one case: resolving one
 * may add more, which are resolved in turn, as encode.py's list grows
 * while it is walked), without repeats.  Past NAMES_LINEAR names a hash
 * index finds them: ir3's displays name some hundreds of fields, and a
 * strcmp against each was a tenth of `check ir3.xml`. */
typedef struct names {
	const char **v;
	size_t n, cap;
	uint32_t *index;  /* open addressing: a position in v + 1, 0 free */
	size_t index_cap; /* a power of two, over twice n; 0 while there is no index */
	bool oom;
} names;

#define NAMES_LINEAR 8u

/* The position of s in l, or SIZE_MAX. */
static size_t names_find(const names *l, const char *s)
{
	if (!l->index_cap) {
		for (size_t i = 0; i < l->n; i++)
			if (!strcmp(l->v[i], s))
				return i;
		return SIZE_MAX;
	}
	for (size_t h = (size_t)text_hash(s) & (l->index_cap - 1); l->index[h];
	     h = (h + 1) & (l->index_cap - 1))
		if (!strcmp(l->v[l->index[h] - 1], s))
			return l->index[h] - 1;
	return SIZE_MAX;
}

static void names_index_put(names *l, size_t i)
{
	size_t h = (size_t)text_hash(l->v[i]) & (l->index_cap - 1);
	while (l->index[h])
		h = (h + 1) & (l->index_cap - 1);
	l->index[h] = (uint32_t)i + 1;
}

/* Indexes every name of l anew, in a table four times their number. */
static bool names_reindex(names *l)
{
	size_t cap = 4 * NAMES_LINEAR;
	while (cap < 4 * l->n)
		cap *= 2;
	uint32_t *index = calloc(cap, sizeof *index);
	if (!index)
		return false;
	free(l->index);
	l->index = index;
	l->index_cap = cap;
	for (size_t i = 0; i < l->n; i++)
		names_index_put(l, i);
	return true;
}

static void names_add(names *l, const char *s)
{
	if (names_find(l, s) != SIZE_MAX)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		/* (positions in the index are 32-bit) */
		const char **v = cap <= UINT32_MAX ? realloc(l->v, cap * sizeof *v) : NULL;
		if (!v) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	if (l->n > NAMES_LINEAR && 2 * l->n > l->index_cap) {
		if (!names_reindex(l)) {
			l->n--; /* not findable: as if never added */
			l->oom = true;
		}
	} else if (l->index_cap) {
		names_index_put(l, l->n - 1);
	}
}

static void names_free(names *l)
{
	free(l->v);
	free(l->index);
}

/* A set of addresses (open addressing; NULL marks a free slot). */
typedef struct ptrset {
	const void **slot;
	size_t n, cap;
} ptrset;

static size_t ptr_hash(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
	return (size_t)(x ^ (x >> 32));
}

static bool ptrset_has(const ptrset *s, const void *p)
{
	if (!s->cap)
		return false;
	for (size_t h = ptr_hash(p) & (s->cap - 1); s->slot[h]; h = (h + 1) & (s->cap - 1))
		if (s->slot[h] == p)
			return true;
	return false;
}

/* Adds p; false when it was there already or memory ran out (*oom). */
static bool ptrset_add(ptrset *s, const void *p, bool *oom)
{
	if (ptrset_has(s, p))
		return false;
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		const void **t = calloc(cap, sizeof *t);
		if (!t) {
			*oom = true;
			return false;
		}
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i]) {
				size_t h = ptr_hash(s->slot[i]) & (cap - 1);
				while (t[h])
					h = (h + 1) & (cap - 1);
				t[h] = s->slot[i];
			}
		free(s->slot);
		s->slot = t;
		s->cap = cap;
	}
	size_t h = ptr_hash(p) & (s->cap - 1);
	while (s->slot[h])
		h = (h + 1) & (s->cap - 1);
	s->slot[h] = p;
	s->n++;
	return true;
}

static void ptrset_clear(ptrset *s)
{
	if (s->cap)
		memset(s->slot, 0, s->cap * sizeof *s->slot);
	s->n = 0;
}

typedef struct enc {
	const spec_model *m;
	spec_diags *diags;
	ptrset used;      /* maps looked up */
	/* (leaf, name) pairs already reported */
	struct reported {
		const spec_bitset *leaf;
		const char *name;
	} *rep;
	size_t nrep, cap_rep;
	/* every name a <param as> passes into a root: the encoder's p->NAME */
	names params;
	names interned; /* strings this pass made (template names) */
	ptrset rendered;  /* expressions of the current root rendered already */
	bool oom;
} enc;

/* Whether expression x is met for the first time in this root. */
static bool first_use(enc *e, const spec_expr *x)
{
	return ptrset_add(&e->rendered, x, &e->oom);
}

static void mark_used(enc *e, const spec_encode_map *mp)
{
	ptrset_add(&e->used, mp, &e->oom);
}

/* The first definition of name in the cases of leaf and its ancestors,
 * the last case first as encode.py's resolve_simple_field takes it. */
static const spec_field *simple_field(const spec_bitset *leaf, const char *name)
{
	for (const spec_bitset *b = leaf; b; b = b->parent) {
		const spec_field *found = NULL;
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t i = 0; i < b->cases[c].nfields; i++)
				if (!strcmp(b->cases[c].fields[i].name, name))
					found = &b->cases[c].fields[i];
		if (found)
			return found;
	}
	return NULL;
}

static void unmapped(enc *e, const spec_bitset *leaf, const char *name, const char *why)
{
	for (size_t i = 0; i < e->nrep; i++)
		if (e->rep[i].leaf == leaf && !strcmp(e->rep[i].name, name))
			return;
	if (e->nrep == e->cap_rep) {
		size_t cap = e->cap_rep ? 2 * e->cap_rep : 32;
		struct reported *v = realloc(e->rep, cap * sizeof *v);
		if (!v) {
			e->oom = true;
			return;
		}
		e->rep = v;
		e->cap_rep = cap;
	}
	e->rep[e->nrep++] = (struct reported){leaf, name};
	spec_diag_add(e->diags, SPEC_WARNING, "encode-unmapped", leaf->loc,
	              "the encoder of '%s' needs '%s' (%s), but no <map name=\"%s\"> of its "
	              "<encode>s gives it: Mesa's encode.py warns \"no encode mapping for %s.%s\" "
	              "and writes 0", leaf->name, name, why, name, leaf->name, name);
}

/* A field value the encoder packs: its map. */
static void extract(enc *e, const spec_bitset *leaf, const char *name, const char *why)
{
	const spec_encode_map *mp = map_of(leaf, name);
	if (mp)
		mark_used(e, mp);
	else
		unmapped(e, leaf, name, why);
}

/* An expression's input or a param's source: a map, else a derived
 * field, else a name a param passes in. */
static void extract_value(enc *e, const spec_bitset *leaf, const char *name, const char *why)
{
	const spec_encode_map *mp = map_of(leaf, name);
	if (mp) {
		mark_used(e, mp);
		return;
	}
	const spec_field *f = simple_field(leaf, name);
	if (f && f->kind == SPEC_DERIVED)
		return;
	if (names_find(&e->params, name) != SIZE_MAX)
		return;
	unmapped(e, leaf, name, why);
}

/* The {NAME}s of a display, templates expanded (Mesa's isa.py expands
 * them before encode.py reads the display), ":..." cut off. */
static void display_names(enc *e, const char *text, names *out, unsigned depth)
{
	for (const char *p = strchr(text, '{'); p && depth < 16; p = strchr(p + 1, '{')) {
		const char *q = p + 1;
		while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		       (*q >= '0' && *q <= '9') || *q == '_' || *q == ':' || *q == '=')
			q++;
		if (*q != '}' || q == p + 1)
			continue;
		size_t n = (size_t)(q - p - 1);
		const char *colon = memchr(p + 1, ':', n);
		if (colon)
			n = (size_t)(colon - p - 1);
		if (!n)
			continue;
		const spec_template *t = NULL;
		for (size_t i = 0; i < e->m->ntemplates && !t; i++)
			if (strlen(e->m->templates[i].name) == n &&
			    !memcmp(e->m->templates[i].name, p + 1, n))
				t = &e->m->templates[i];
		if (t) {
			display_names(e, t->text, out, depth + 1);
			continue;
		}
		char *s = malloc(n + 1);
		if (!s) {
			e->oom = true;
			continue;
		}
		memcpy(s, p + 1, n);
		s[n] = '\0';
		size_t at = names_find(&e->interned, s);
		const char *kept = at != SIZE_MAX ? e->interned.v[at] : NULL;
		if (!kept) {
			size_t before = e->interned.n;
			names_add(&e->interned, s);
			kept = e->interned.n > before ? s : NULL;
		}
		if (kept != s)
			free(s);
		if (kept)
			names_add(out, kept);
	}
}

static void add_expr_refs(names *l, const spec_expr *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < spec_expr_ref_count(x); i++)
		names_add(l, spec_expr_ref(x, i));
}

/* One display field of one case, resolved as encode.py's DisplayField:
 * every case met adds its expression's inputs; the field found packs
 * (a bitset field also brings its params' sources, a derived field its
 * expression's inputs); a default case ends the walk. */
static void display_field(enc *e, const spec_bitset *leaf, const char *name, names *fields)
{
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_case *sc = &b->cases[c];
			add_expr_refs(fields, sc->expr);
			const spec_field *f = NULL;
			for (size_t i = 0; i < sc->nfields && !f; i++)
				if (!strcmp(sc->fields[i].name, name))
					f = &sc->fields[i];
			if (f) {
				if (f->type == SPEC_TYPE_BITSET)
					for (size_t p = 0; p < f->nparams; p++) {
						names_add(fields, f->params[p].name);
						extract_value(e, leaf, f->params[p].name, "a <param> of a field");
					}
				if (f->kind == SPEC_DERIVED)
					add_expr_refs(fields, f->expr);
				else if (f->kind == SPEC_FIELD)
					extract(e, leaf, f->name, "a field it packs");
			}
			if (f && !sc->expr)
				return;
		}
}

/* The cases of leaf with a display, as encode.py's bitset_cases. */
static void encode_leaf(enc *e, const spec_bitset *leaf)
{
	bool up = true;
	for (const spec_bitset *b = leaf; b && up; b = b->parent) {
		up = false;
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_case *sc = &b->cases[c];
			if (!sc->display) {
				up = !sc->expr; /* a default case without display: go up */
				continue;
			}
			names fields = {0};
			display_names(e, sc->display, &fields, 0);
			for (const spec_bitset *f = leaf; f; f = f->parent)
				for (size_t i = 0; i < f->nmaps; i++)
					if (f->maps[i].force && f->maps[i].name)
						names_add(&fields, f->maps[i].name);
			for (size_t i = 0; i < fields.n; i++) /* the list grows as it is walked */
				display_field(e, leaf, fields.v[i], &fields);
			e->oom |= fields.oom;
			names_free(&fields);
		}
	}
	/* the expressions the leaf's encoder evaluates, its cases' and its
	 * derived fields' from the leaf up: encode.py makes one function of
	 * each per root, with the extractors of the first leaf that uses it
	 * (so only that leaf's look-ups can warn) */
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_case *sc = &b->cases[c];
			for (size_t i = 0; i <= sc->nfields; i++) {
				const spec_expr *x = i == sc->nfields ? sc->expr
				                     : sc->fields[i].kind == SPEC_DERIVED ? sc->fields[i].expr
				                                                          : NULL;
				if (!x || !first_use(e, x))
					continue;
				for (size_t k = 0; k < spec_expr_ref_count(x); k++)
					extract_value(e, leaf, spec_expr_ref(x, k), "an input of an expression");
			}
		}
}

void spec_lint_encoder(const spec_model *m, spec_diags *diags)
{
	enc e = {.m = m, .diags = diags};
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t k = 0; k < b->nmaps; k++)
			if (b->maps[k].name && (!b->maps[k].expr || !*b->maps[k].expr))
				spec_diag_add(diags, SPEC_ERROR, "encode-map-empty", b->maps[k].loc,
				              "<map name=\"%s\"> of '%s' has no expression: Mesa's isa.py "
				              "fails on it", b->maps[k].name, b->name);
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++)
				for (size_t p = 0; p < b->cases[c].fields[f].nparams; p++) {
					const spec_param *pa = &b->cases[c].fields[f].params[p];
					names_add(&e.params, pa->as ? pa->as : pa->name);
				}
	}
	for (size_t r = 0; r < m->nroots; r++) {
		if (!m->roots[r].bitset->has_encode)
			continue;
		ptrset_clear(&e.rendered);
		for (size_t i = 0; i < m->roots[r].nleaves; i++)
			encode_leaf(&e, m->roots[r].leaves[i]);
	}
	/* maps no encoder looks up (those under a root without <encode> are
	 * never generated at all) */
	for (size_t i = 0; !e.oom && i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t k = 0; k < b->nmaps; k++) {
			if (ptrset_has(&e.used, &b->maps[k]) || !b->maps[k].name || !b->maps[k].expr || !*b->maps[k].expr)
				continue; /* (an empty one is encode-map-empty already) */
			if (!b->root->has_encode)
				spec_diag_add(diags, SPEC_WARNING, "encode-map-unused", b->maps[k].loc,
				              "<map name=\"%s\"> of '%s' is never used: its root '%s' has "
				              "no <encode>, so Mesa generates no encoder for it",
				              b->maps[k].name, b->name, b->root->name);
			else
				spec_diag_add(diags, SPEC_WARNING, "encode-map-unused", b->maps[k].loc,
				              "<map name=\"%s\"> of '%s' is never used: no leaf's encoder "
				              "packs or reads '%s' through it (a nearer <map> of that name, "
				              "or no field, display or expression needs it)",
				              b->maps[k].name, b->name, b->maps[k].name);
		}
	}
	if (e.oom || e.params.oom || e.interned.oom)
		spec_diag_add(diags, SPEC_ERROR, "out-of-memory", (spec_loc){m->path, 0, 0},
		              "out of memory checking the encoder");
	for (size_t i = 0; i < e.interned.n; i++)
		free((char *)e.interned.v[i]);
	names_free(&e.interned);
	names_free(&e.params);
	free(e.used.slot);
	free(e.rep);
	free(e.rendered.slot);
}
