/*
 * lint.c - checks on a built model that Mesa's generator does not make
 * (../shared/ISASPEC.md section 4): names that resolve to nothing,
 * same-named variants that overlap, enum values that cannot fit, and
 * definitions made twice.  The structural checks Mesa does make live in
 * load.c, where the model is built.
 *
 * Name resolution follows Mesa's decoder: a display or expression of a
 * bitset is evaluated in the scope of the LEAF being decoded, so a name
 * resolves when the leaf or one of its ancestors defines it (in any
 * case), or when a <param> passes it into the leaf's root.  A template
 * written on a parent is therefore checked once per leaf below it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One name a leaf can see, in Mesa's look-up order: the derived fields a
 * look-up may evaluate (overrides' first, up to the first definition in
 * a default case, which shadows everything above it). */
typedef struct scope_name {
	const char *name;
	unsigned stamp;       /* the leaf this entry belongs to */
	bool closed;          /* a default-case definition was seen */
	bool used;            /* its derived fields were already checked */
	bool active;          /* being checked: met again, its value needs itself */
	unsigned nderived;
	const spec_field *derived[4];
} scope_name;

/* A (place, name) pair already reported. */
typedef struct seen_key {
	const void *where;
	char name[64];
} seen_key;

typedef struct lint {
	const spec_model *m;
	spec_diags *diags;
	/* names passed into each root by <param as>, indexed by bitset index */
	const char ***root_params;
	size_t *nroot_params;
	/* the names the current leaf sees (open addressing, reset by stamp) */
	scope_name *scope;
	size_t scope_cap;
	unsigned stamp;
	/* findings already made, to report each (place, name) once */
	seen_key *seen;
	size_t nseen, seen_cap;
} lint;

static bool once(lint *l, const void *where, const char *name)
{
	if (l->nseen * 2 >= l->seen_cap) {
		size_t cap = l->seen_cap ? l->seen_cap * 2 : 256;
		seen_key *t = calloc(cap, sizeof *t);
		if (!t)
			return true;
		for (size_t i = 0; i < l->seen_cap; i++) {
			if (!l->seen[i].where)
				continue;
			size_t j = (size_t)(text_hash(l->seen[i].name) ^ (uintptr_t)l->seen[i].where) & (cap - 1);
			while (t[j].where)
				j = (j + 1) & (cap - 1);
			t[j] = l->seen[i];
		}
		free(l->seen);
		l->seen = t;
		l->seen_cap = cap;
	}
	char key[64];
	snprintf(key, sizeof key, "%s", name);
	size_t j = (size_t)(text_hash(key) ^ (uintptr_t)where) & (l->seen_cap - 1);
	for (; l->seen[j].where; j = (j + 1) & (l->seen_cap - 1))
		if (l->seen[j].where == where && !strcmp(l->seen[j].name, key))
			return false;
	l->seen[j].where = where;
	memcpy(l->seen[j].name, key, sizeof key);
	l->nseen++;
	return true;
}

static scope_name *scope_slot(lint *l, const char *name, bool insert)
{
	size_t j = (size_t)text_hash(name) & (l->scope_cap - 1);
	for (; l->scope[j].stamp == l->stamp; j = (j + 1) & (l->scope_cap - 1))
		if (!strcmp(l->scope[j].name, name))
			return &l->scope[j];
	if (!insert)
		return NULL;
	l->scope[j] = (scope_name){.name = name, .stamp = l->stamp};
	return &l->scope[j];
}

/* Fills the scope table with what the leaf sees.  False when out of memory. */
static bool build_scope(lint *l, const spec_bitset *leaf)
{
	size_t n = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			n += s->cases[c].nfields;
	n += l->nroot_params[leaf->root->index];
	if (n * 2 + 1 > l->scope_cap) {
		size_t cap = 64;
		while (cap < n * 2 + 1)
			cap *= 2;
		scope_name *t = calloc(cap, sizeof *t);
		if (!t)
			return false;
		free(l->scope);
		l->scope = t;
		l->scope_cap = cap;
		l->stamp = 0;
	}
	if (++l->stamp == 0) { /* wrapped: clear for real */
		memset(l->scope, 0, l->scope_cap * sizeof *l->scope);
		l->stamp = 1;
	}
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			for (size_t f = 0; f < s->cases[c].nfields; f++) {
				const spec_field *fl = &s->cases[c].fields[f];
				if (fl->kind == SPEC_ASSERT)
					continue;
				scope_name *e = scope_slot(l, fl->name, true);
				if (e->closed)
					continue;
				if (fl->kind == SPEC_DERIVED && e->nderived < 4)
					e->derived[e->nderived++] = fl;
				if (!s->cases[c].expr)
					e->closed = true;
			}
	unsigned r = leaf->root->index;
	for (size_t i = 0; i < l->nroot_params[r]; i++)
		scope_slot(l, l->root_params[r][i], true);
	return true;
}

/* Whether name is a field or derived field of the current leaf or an
 * ancestor, or is passed into its root by a <param>. */
static bool resolves(lint *l, const char *name)
{
	return scope_slot(l, name, false) != NULL;
}

static void collect_root_params(lint *l)
{
	const spec_model *m = l->m;
	l->root_params = calloc(m->nbitsets + 1, sizeof *l->root_params);
	l->nroot_params = calloc(m->nbitsets + 1, sizeof *l->nroot_params);
	if (!l->root_params || !l->nroot_params)
		return;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				const spec_field *fl = &b->cases[c].fields[f];
				if (fl->type != SPEC_TYPE_BITSET || !fl->nparams)
					continue;
				unsigned r = fl->bitset->index;
				const char **v = realloc(l->root_params[r],
				                         (l->nroot_params[r] + fl->nparams) * sizeof *v);
				if (!v)
					continue;
				for (size_t p = 0; p < fl->nparams; p++)
					v[l->nroot_params[r]++] = fl->params[p].as;
				l->root_params[r] = v;
			}
	}
}

/* Mesa prints the bitset name for {NAME} and, by a prefix compare, for
 * {N}, {NA}, {NAM} and {} too. */
static bool is_name_ref(const char *s, size_t n)
{
	return n <= 4 && !strncmp("NAME", s, n);
}

static bool is_template(const spec_model *m, const char *s, size_t n)
{
	for (size_t i = 0; i < m->ntemplates; i++)
		if (strlen(m->templates[i].name) == n && !strncmp(m->templates[i].name, s, n))
			return true;
	return false;
}

static void use_name(lint *l, const spec_bitset *leaf, const char *name, unsigned depth);

/* Checks the {..} references of one display for the given leaf. */
static void check_display(lint *l, const spec_bitset *owner, const spec_case *c,
                          const spec_bitset *leaf)
{
	const char *d = c->display;
	for (const char *p = strchr(d, '{'); p; p = strchr(p + 1, '{')) {
		const char *close = strchr(p, '}');
		if (!close) {
			if (once(l, c, "{"))
				spec_diag_add(l->diags, SPEC_ERROR, "display-syntax", c->display_loc,
				              "display of '%s' has a '{' with no '}'; Mesa reads past "
				              "the end of the string", owner->name);
			return;
		}
		const char *colon = memchr(p, ':', (size_t)(close - p));
		size_t n = (size_t)((colon ? colon : close) - p - 1);
		if (colon) {
			const char *opt = colon + 1;
			size_t ol = (size_t)(close - opt);
			bool ok = ol > 6 && !strncmp(opt, "align=", 6);
			for (size_t i = 6; ok && i < ol; i++)
				ok = opt[i] >= '0' && opt[i] <= '9';
			/* the column: past SPEC_MAX_ALIGN Mesa would pad a line to
			 * gigabytes, and our printer stops there */
			unsigned long col = 0;
			for (size_t i = 6; ok && i < ol && col <= SPEC_MAX_ALIGN; i++)
				col = col * 10 + (unsigned long)(opt[i] - '0');
			char o[64];
			snprintf(o, sizeof o, "%.*s", (int)(ol < 63 ? ol : 63), opt);
			if (!ok) {
				if (once(l, c, o))
					spec_diag_add(l->diags, SPEC_ERROR, "display-syntax", c->display_loc,
					              "display of '%s' has option ':%s'; the only option is "
					              ":align=N", owner->name, o);
			} else if (col > SPEC_MAX_ALIGN && once(l, c, o)) {
				spec_diag_add(l->diags, SPEC_ERROR, "display-syntax", c->display_loc,
				              "display of '%s' aligns to column %s; at most %u (Mesa would "
				              "pad the line that far)", owner->name, o + 6, SPEC_MAX_ALIGN);
			}
		}
		/* templates were spliced when the file was read, in one pass as
		 * Mesa does: a {T} still here came from inside a template and is
		 * looked up as a field when printed */
		if (is_name_ref(p + 1, n))
			continue;
		char name[256];
		if (n >= sizeof name)
			n = sizeof name - 1;
		memcpy(name, p + 1, n);
		name[n] = 0;
		if (resolves(l, name)) {
			use_name(l, leaf, name, 0);
			continue;
		}
		if (is_template(l->m, p + 1, n) && once(l, c, name)) {
			spec_diag_add(l->diags, SPEC_ERROR, "ref-unknown", c->display_loc,
			              "display of '%s' prints {%s}, a template named inside another "
			              "template: templates are spliced once, as Mesa does, so it is "
			              "printed as a field, and no field has that name", owner->name, name);
			continue;
		}
		if (once(l, c, name)) {
			if (leaf == owner)
				spec_diag_add(l->diags, SPEC_ERROR, "ref-unknown", c->display_loc,
				              "display of '%s' prints {%s}, which names no field",
				              owner->name, name);
			else
				spec_diag_add(l->diags, SPEC_ERROR, "ref-unknown", c->display_loc,
				              "display of '%s' prints {%s}, which names no field of "
				              "leaf '%s' that uses it", owner->name, name, leaf->name);
		}
	}
}

/* The field a leaf's default cases give name, from the leaf up (the one
 * printed unless an override redefines it), or NULL. */
static const spec_field *default_field(const spec_bitset *leaf, const char *name, size_t n)
{
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		const spec_case *k = s->ncases ? &s->cases[s->ncases - 1] : NULL;
		for (size_t i = 0; k && !k->expr && i < k->nfields; i++)
			if (k->fields[i].kind != SPEC_ASSERT && !strncmp(k->fields[i].name, name, n) &&
			    !k->fields[i].name[n])
				return &k->fields[i];
	}
	return NULL;
}

#define SPLIT_MAX_STRINGS 256u

/* The texts field f can print, when they are a small known set (an enum,
 * a bool with display=): the count, 0 when not.  Enum values the field is
 * too narrow to hold are left out. */
static size_t field_strings(const spec_field *f, const char **out)
{
	unsigned width = f->high - f->low + 1;
	if (f->kind != SPEC_FIELD)
		return 0;
	if ((f->type == SPEC_TYPE_BOOL || f->type == SPEC_TYPE_BOOL_INV) && f->display) {
		out[0] = f->display;
		out[1] = "";
		return 2;
	}
	if (f->type != SPEC_TYPE_ENUM || !f->enm || f->enm->nvalues > SPLIT_MAX_STRINGS)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < f->enm->nvalues; i++) {
		int64_t v = f->enm->values[i].val;
		if (v >= 0 && (width >= 63 || (uint64_t)v < ((uint64_t)1 << width)))
			out[n++] = f->enm->values[i].display;
	}
	return n;
}

/* Two fields printed with nothing between them, A then B, can print one
 * text two ways when A prints a1 and a2 = a1 s (s not empty) and B prints
 * b1 = s b2 and b2: a1 b1 = a2 b2.  asm then finds two encodings for the
 * text disassembly printed (it reports it ambiguous).  Exact for the
 * string sets above; other field types are not judged. */
static void check_split(lint *l, const spec_bitset *owner, const spec_case *c,
                        const spec_bitset *leaf, const spec_field *fa, const spec_field *fb)
{
	const char *as[SPLIT_MAX_STRINGS], *bs[SPLIT_MAX_STRINGS];
	size_t na = field_strings(fa, as), nb = field_strings(fb, bs);
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < na; j++) {
			size_t la = strlen(as[i]);
			if (i == j || strlen(as[j]) <= la || strncmp(as[i], as[j], la))
				continue;
			const char *s = as[j] + la; /* a2 = a1 s */
			size_t ls = strlen(s);
			for (size_t k = 0; k < nb; k++)
				for (size_t q = 0; q < nb; q++) {
					if (k == q || strncmp(bs[k], s, ls) || strcmp(bs[k] + ls, bs[q]))
						continue;
					char key[64];
					snprintf(key, sizeof key, "split %.24s %.24s", fa->name, fb->name);
					if (once(l, c, key))
						spec_diag_add(l->diags, SPEC_WARNING, "display-split-ambiguous",
						              c->display_loc,
						              "display of '%s' prints {%s}{%s} with nothing between: "
						              "\"%s\"+\"%s\" and \"%s\"+\"%s\" are the same text, so "
						              "the text cannot be read back (asm finds two encodings)%s%s",
						              owner->name, fa->name, fb->name, as[i], bs[k], as[j],
						              bs[q], leaf == owner ? "" : "; leaf ",
						              leaf == owner ? "" : leaf->name);
					return;
				}
		}
}

/* Each pair of fields a display prints side by side, for check_split. */
static void check_display_splits(lint *l, const spec_bitset *owner, const spec_case *c,
                                 const spec_bitset *leaf)
{
	const spec_field *prev = NULL;
	for (const char *p = c->display; *p;) {
		if (*p != '{') {
			prev = NULL;
			p++;
			continue;
		}
		const char *close = strchr(p, '}');
		if (!close)
			return;
		size_t n = strcspn(p + 1, ":}");
		/* an aligned field starts where the padding puts it: not judged */
		const spec_field *f = p[1 + n] == '}' ? default_field(leaf, p + 1, n) : NULL;
		if (prev && f)
			check_split(l, owner, c, leaf, prev, f);
		prev = f;
		p = close + 1;
	}
}

static const spec_named_expr *expr_def(const spec_model *m, const spec_expr *e)
{
	for (size_t i = 0; i < m->nexprs; i++)
		if (m->exprs[i].expr == e)
			return &m->exprs[i];
	return NULL;
}

static void check_expr(lint *l, const spec_expr *e, const char *what,
                       const spec_bitset *owner, const spec_bitset *leaf, unsigned depth)
{
	if (!e)
		return;
	for (size_t i = 0; i < spec_expr_ref_count(e); i++) {
		const char *name = spec_expr_ref(e, i);
		if (resolves(l, name)) {
			use_name(l, leaf, name, depth + 1);
			continue;
		}
		if (!once(l, e, name))
			continue;
		const spec_named_expr *d = expr_def(l->m, e);
		spec_loc loc = d ? d->loc : owner->loc;
		spec_diag_add(l->diags, SPEC_ERROR, "ref-unknown", loc,
		              "expression %s%s%s used by %s of '%s' refers to {%s}, which names "
		              "no field of '%s'", d && !d->anonymous ? "'" : "",
		              d && !d->anonymous ? d->name : "", d && !d->anonymous ? "'" : "",
		              what, owner->name, name, leaf->name);
	}
}

/* The bitset on the leaf's chain that defines field fl. */
static const spec_bitset *field_owner(const spec_bitset *leaf, const spec_field *fl)
{
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			if (fl >= s->cases[c].fields && fl < s->cases[c].fields + s->cases[c].nfields)
				return s;
	return leaf;
}

/* A name the leaf's decode evaluates: when it is a derived field, its
 * expression is evaluated too, so its references must resolve.  Derived
 * fields nobody prints or uses are never evaluated, and not checked. */
static void use_name(lint *l, const spec_bitset *leaf, const char *name, unsigned depth)
{
	scope_name *e = scope_slot(l, name, false);
	if (e && e->active && e->nderived && once(l, e->derived[0], "cycle")) {
		/* Mesa's push_expr finds the repeat only from the second one on
		 * (its loop skips slot 0): it evaluates the expression twice,
		 * then reads the innermost reference as 0 */
		const spec_field *fl = e->derived[0];
		spec_diag_add(l->diags, SPEC_WARNING, "expr-cycle", fl->loc,
		              "derived field '%s' (as leaf '%s' sees it) depends on its own value: "
		              "Mesa cuts the loop by reading 0 after two evaluations, so what it "
		              "prints means nothing", name, leaf->name);
	}
	if (!e || e->used || depth > SPEC_MAX_EXPR_DEPTH)
		return;
	e->used = true; /* also ends cycles of derived fields */
	e->active = true;
	for (unsigned i = 0; i < e->nderived; i++) {
		const spec_field *fl = e->derived[i];
		check_expr(l, fl->expr, "derived field", field_owner(leaf, fl), leaf, depth);
	}
	e = scope_slot(l, name, false); /* the table does not move while checking */
	if (e)
		e->active = false;
}

/* Whether every leaf of root (a bitset-typed field's type) defines name
 * in itself or an ancestor: its decoder then never looks it up through a
 * <param>. */
static bool root_defines_everywhere(const spec_model *m, const spec_bitset *root,
                                    const char *name)
{
	const spec_root *r = spec_find_root(m, root->name);
	if (!r || !r->nleaves)
		return false;
	for (size_t i = 0; i < r->nleaves; i++) {
		bool found = false;
		for (const spec_bitset *b = r->leaves[i]; b && !found; b = b->parent)
			for (size_t c = 0; c < b->ncases && !found; c++)
				for (size_t f = 0; f < b->cases[c].nfields && !found; f++)
					found = !strcmp(b->cases[c].fields[f].name, name);
		if (!found)
			return false;
	}
	return true;
}

/* Everything a leaf's decode may evaluate or print, checked in its scope:
 * the displays it can use, the override conditions on its path, the
 * derived fields those reach, and the params of its fields. */
static void check_leaf_scope(lint *l, const spec_bitset *leaf)
{
	if (!build_scope(l, leaf))
		return;
	bool has_display = false;
	for (const spec_bitset *s = leaf; s && !has_display; s = s->parent)
		for (size_t c = 0; c < s->ncases && !has_display; c++)
			has_display = s->cases[c].display != NULL;
	if (!has_display)
		spec_diag_add(l->diags, SPEC_ERROR, "display-missing", leaf->loc,
		              "leaf '%s' has no <display>, nor has any ancestor: Mesa's "
		              "decoder prints an error instead of it", leaf->name);
	bool display_settled = false;
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		for (size_t c = 0; c < s->ncases; c++) {
			const spec_case *sc = &s->cases[c];
			check_expr(l, sc->expr, "an override", s, leaf, 0);
			if (sc->display && !display_settled) {
				check_display(l, s, sc, leaf);
				check_display_splits(l, s, sc, leaf);
			}
			if (sc->display && !sc->expr)
				display_settled = true; /* the default display always applies */
			for (size_t f = 0; f < sc->nfields; f++) {
				const spec_field *fl = &sc->fields[f];
				for (size_t p = 0; p < fl->nparams; p++) {
					const spec_param *pa = &fl->params[p];
					/* a name only the encoder gives (a <map>: etnaviv's
					 * COMPS) is the encoder's to pass, when the decoder
					 * never reads it: every leaf of the field's root
					 * defines the name itself */
					if (resolves(l, pa->name) || !once(l, pa, pa->name) ||
					    (spec_encoder_maps(leaf, pa->name) && fl->bitset &&
					     root_defines_everywhere(l->m, fl->bitset,
					                             pa->as ? pa->as : pa->name)))
						continue;
					spec_diag_add(l->diags, SPEC_ERROR, "param-unknown", pa->loc,
					              "<param name=\"%s\"> of field '%s' passes a name that "
					              "no field of '%s' defines, nor a <map> of its encoder",
					              pa->name, fl->name, leaf->name);
				}
			}
		}
	}
}

static bool gens_overlap(spec_gen a, spec_gen b)
{
	return a.min <= b.max && b.min <= a.max && a.min <= a.max && b.min <= b.max;
}

static int by_name_then_index(const void *pa, const void *pb)
{
	const spec_bitset *a = *(const spec_bitset *const *)pa;
	const spec_bitset *b = *(const spec_bitset *const *)pb;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Same-named bitsets: sorted by name, each later one against the earlier.
 * Per-generation variants are reported pairwise, every overlapping pair
 * (three variants can overlap twice); any other redefinition once, at its
 * first definition. */
static void check_duplicate_bitsets(lint *l)
{
	const spec_model *m = l->m;
	const spec_bitset **v = malloc((m->nbitsets + 1) * sizeof *v);
	if (!v)
		return;
	memcpy(v, m->bitsets, m->nbitsets * sizeof *v);
	qsort(v, m->nbitsets, sizeof *v, by_name_then_index);
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = v[i];
		for (size_t j = i; j-- > 0 && !strcmp(v[j]->name, b->name);) {
			const spec_bitset *a = v[j];
			if (!gens_overlap(a->gen, b->gen))
				continue;
			bool variants = spec_is_leaf(a) && spec_is_leaf(b) && a->parent && b->parent;
			if (variants)
				spec_diag_add(l->diags, SPEC_ERROR, "variant-gen-overlap", b->loc,
				              "leaf '%s' (gen %u..%u) overlaps the same-named leaf at "
				              "%s:%u (gen %u..%u); per-generation variants need disjoint "
				              "gen ranges", b->name, b->gen.min, b->gen.max,
				              a->loc.file, a->loc.line, a->gen.min, a->gen.max);
			else
				spec_diag_add(l->diags, SPEC_ERROR, "duplicate-name", b->loc,
				              "bitset '%s' is defined again (first at %s:%u)", b->name,
				              a->loc.file, a->loc.line);
			if (!variants)
				break;
		}
	}
	free(v);
}

/* Reports each definition whose name an earlier one of the same kind
 * has: names[i] is the i-th definition's (NULL: unnamed), locs[i] where.
 * One hash table of first indexes, so 100,000 definitions cost as many
 * look-ups, not their pairs. */
static void report_repeats(lint *l, const char *kind, size_t n,
                           const char *(*name_of)(const spec_model *, size_t),
                           spec_loc (*loc_of)(const spec_model *, size_t))
{
	size_t cap = 16;
	while (cap < n * 2)
		cap *= 2;
	size_t *first = malloc(cap * sizeof *first);
	if (!first)
		return;
	for (size_t k = 0; k < cap; k++)
		first[k] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		const char *name = name_of(l->m, i);
		if (!name)
			continue;
		size_t k = (size_t)text_hash(name) & (cap - 1);
		while (first[k] != SIZE_MAX && strcmp(name_of(l->m, first[k]), name))
			k = (k + 1) & (cap - 1);
		if (first[k] == SIZE_MAX) {
			first[k] = i;
			continue;
		}
		spec_loc at = loc_of(l->m, i), was = loc_of(l->m, first[k]);
		spec_diag_add(l->diags, SPEC_ERROR, "duplicate-name", at,
		              "%s '%s' is defined again (first at %s:%u); Mesa silently keeps "
		              "this later one", kind, name, was.file, was.line);
	}
	free(first);
}

static const char *enum_name(const spec_model *m, size_t i) { return m->enums[i].name; }
static spec_loc enum_loc(const spec_model *m, size_t i) { return m->enums[i].loc; }
static const char *expr_name(const spec_model *m, size_t i)
{
	return m->exprs[i].anonymous ? NULL : m->exprs[i].name;
}
static spec_loc expr_loc(const spec_model *m, size_t i) { return m->exprs[i].loc; }
static const char *template_name(const spec_model *m, size_t i) { return m->templates[i].name; }
static spec_loc template_loc(const spec_model *m, size_t i) { return m->templates[i].loc; }

static void check_duplicate_defs(lint *l)
{
	report_repeats(l, "enum", l->m->nenums, enum_name, enum_loc);
	report_repeats(l, "expression", l->m->nexprs, expr_name, expr_loc);
	report_repeats(l, "template", l->m->ntemplates, template_name, template_loc);
}

static void check_enum_widths(lint *l)
{
	const spec_model *m = l->m;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				const spec_field *fl = &b->cases[c].fields[f];
				if (fl->type != SPEC_TYPE_ENUM ||
				    (fl->kind == SPEC_DERIVED && !fl->has_width))
					continue;
				unsigned w = fl->high - fl->low + 1;
				for (size_t v = 0; v < fl->enm->nvalues; v++) {
					const spec_enum_value *ev = &fl->enm->values[v];
					bool fits = ev->val >= 0 &&
					            (w >= 63 || (uint64_t)ev->val < ((uint64_t)1 << w));
					char key[32];
					snprintf(key, sizeof key, "w%u", w);
					if (fits || !once(l, ev, key))
						continue;
					spec_diag_add(l->diags, SPEC_WARNING, "enum-value-range", ev->loc,
					              "value %s of enum '%s' does not fit the %u-bit field "
					              "'%s' of '%s' (%s:%u)", ev->val_text, fl->enm->name, w,
					              fl->name, b->name, fl->loc.file, fl->loc.line);
				}
			}
	}
}

/* Checks on single definitions that need no scope. */
static void check_definitions(lint *l)
{
	const spec_model *m = l->m;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		if (b->displayname && !spec_is_leaf(b))
			spec_diag_add(l->diags, SPEC_WARNING, "displayname-nonleaf", b->loc,
			              "displayname=\"%s\" on '%s', which has children: {NAME} "
			              "prints the decoded leaf's name, so it is never shown",
			              b->displayname, b->name);
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				const spec_field *fl = &b->cases[c].fields[f];
				bool signed_type = fl->type == SPEC_TYPE_INT ||
				                   fl->type == SPEC_TYPE_OFFSET ||
				                   fl->type == SPEC_TYPE_BRANCH;
				if (fl->kind == SPEC_DERIVED && signed_type && !fl->has_width)
					spec_diag_add(l->diags, SPEC_WARNING, "derived-width", fl->loc,
					              "derived field '%s' of type %s has no width: Mesa "
					              "sign-extends it from 1 bit, so it reads 0 or -1",
					              fl->name, fl->type_name);
			}
	}
}

/* ------------------------------------------------- bitset-type cycles */

/* The first bitset-typed field of root r (in its tree, document order)
 * whose type is a root on the DFS stack: a cycle of roots decoding
 * through each other.  state: 0 unseen, 1 on the stack, 2 done. */
static const spec_field *root_cycle(const spec_model *m, size_t r, unsigned char *state)
{
	state[r] = 1;
	const spec_bitset *root = m->roots[r].bitset;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		if (b->root != root)
			continue;
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				const spec_field *fl = &b->cases[c].fields[f];
				/* a field under an <override> is decoded only while its
				 * condition holds: a recursion may end there */
				if (fl->type != SPEC_TYPE_BITSET || !fl->bitset || b->cases[c].expr)
					continue;
				size_t k = (size_t)(spec_find_root(m, fl->bitset->name) - m->roots);
				if (k >= m->nroots)
					continue;
				if (state[k] == 1)
					return fl;
				if (!state[k]) {
					const spec_field *hit = root_cycle(m, k, state);
					if (hit)
						return hit;
				}
			}
	}
	state[r] = 2;
	return NULL;
}

/* Roots that decode through each other (a field of #a typed #b, one of
 * #b typed #a, outside any <override>): a word whose every level decodes
 * to such a leaf never ends; Mesa's decoder recurses until the stack is
 * gone, ours stops at its depth limit. */
static void check_bitset_cycles(lint *l)
{
	unsigned char *state = calloc(l->m->nroots + 1, 1);
	if (!state)
		return;
	for (size_t r = 0; r < l->m->nroots; r++) {
		if (state[r])
			continue;
		const spec_field *hit = root_cycle(l->m, r, state);
		if (hit) {
			spec_diag_add(l->diags, SPEC_WARNING, "bitset-field-cycle", hit->loc,
			              "field '%s' decodes through '%s', which decodes back through this "
			              "field's root: a word whose every level has such a field never "
			              "ends decoding", hit->name, hit->bitset->name);
			break; /* one cycle is enough to say: the rest hangs off it */
		}
	}
	free(state);
}

/* ----------------------------------------------- division by zero */

/* Constant folding for expr-div-zero: each node's value when every input
 * of it is a number (kept in a list, handed to spec_expr_fold as index+1). */
typedef struct cfold {
	struct cnode {
		bool konst;
		int64_t v;
	} *v;
	size_t n, cap;
	bool div_zero;
} cfold;

static void *cfold_build(void *ctx, spec_expr_op op, int64_t num, const char *name,
                         void *const kids[3])
{
	(void)name;
	cfold *f = ctx;
	struct cnode k[3] = {{0}};
	for (int i = 0; i < 3; i++)
		if (kids[i])
			k[i] = f->v[(uintptr_t)kids[i] - 1];
	struct cnode r = {op == SPEC_OP_NUM, num};
	uint64_t a = (uint64_t)k[0].v, b = (uint64_t)k[1].v;
	bool both = k[0].konst && k[1].konst;
	switch (op) {
	case SPEC_OP_DIV:
	case SPEC_OP_MOD:
		if (k[1].konst && k[1].v == 0)
			f->div_zero = true;
		else if (both && !(k[0].v == INT64_MIN && k[1].v == -1))
			r = (struct cnode){true, op == SPEC_OP_DIV ? k[0].v / k[1].v : k[0].v % k[1].v};
		break;
	case SPEC_OP_ADD: r = (struct cnode){both, (int64_t)(a + b)}; break;
	case SPEC_OP_SUB: r = (struct cnode){both, (int64_t)(a - b)}; break;
	case SPEC_OP_MUL: r = (struct cnode){both, (int64_t)(a * b)}; break;
	case SPEC_OP_BITAND: r = (struct cnode){both, (int64_t)(a & b)}; break;
	case SPEC_OP_BITOR: r = (struct cnode){both, (int64_t)(a | b)}; break;
	case SPEC_OP_BITXOR: r = (struct cnode){both, (int64_t)(a ^ b)}; break;
	case SPEC_OP_NEG: r = (struct cnode){k[0].konst, (int64_t)(0 - a)}; break;
	case SPEC_OP_POS: r = k[0]; break;
	default: break; /* the rest: not needed to find a constant divisor */
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 32;
		struct cnode *v = realloc(f->v, cap * sizeof *v);
		if (!v)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = r;
	return (void *)(uintptr_t)f->n;
}

/* An expression that divides by a constant 0 fails on every word it is
 * evaluated for: the decoder prints an error where the value should be. */
static void check_div_zero(lint *l)
{
	for (size_t i = 0; i < l->m->nexprs; i++) {
		const spec_named_expr *ne = &l->m->exprs[i];
		cfold f = {0};
		if (ne->expr && spec_expr_fold(ne->expr, cfold_build, &f) && f.div_zero)
			spec_diag_add(l->diags, SPEC_ERROR, "expr-div-zero", spec_expr_loc(ne->expr),
			              "expression '%s' divides by zero on every word it is evaluated "
			              "for (the decoder prints an error in place of its value)",
			              spec_expr_text(ne->expr));
		free(f.v);
	}
}

void spec_lint_model(const spec_model *m, spec_diags *diags)
{
	lint l = {.m = m, .diags = diags};
	if (m->nroots) {
		const spec_bitset *widest = m->roots[0].bitset;
		for (size_t i = 0; i < m->nroots; i++)
			if (m->roots[i].bitset->size > widest->size)
				widest = m->roots[i].bitset;
		if (widest->size % 32)
			spec_diag_add(diags, SPEC_ERROR, "bitsize-multiple", widest->loc,
			              "the widest root '%s' is %u bits; Mesa needs the widest "
			              "instruction to be a multiple of 32 bits", widest->name,
			              widest->size);
	}
	collect_root_params(&l);
	if (l.root_params && l.nroot_params)
		for (size_t i = 0; i < m->nbitsets; i++)
			if (spec_is_leaf(m->bitsets[i]))
				check_leaf_scope(&l, m->bitsets[i]);
	check_definitions(&l);
	check_duplicate_bitsets(&l);
	check_duplicate_defs(&l);
	check_enum_widths(&l);
	check_div_zero(&l);
	check_bitset_cycles(&l);
	spec_lint_encoder(m, diags);
	for (size_t i = 0; l.root_params && i < m->nbitsets; i++)
		free(l.root_params[i]);
	free(l.root_params);
	free(l.nroot_params);
	free(l.seen);
	free(l.scope);
}
