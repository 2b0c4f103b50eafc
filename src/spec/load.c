/*
 * load.c - from XML files to a resolved spec_model.
 *
 * Phases: read the top file and its imports (imported definitions come
 * first, as Mesa's isa.py reads them); check every element and attribute
 * against the dialect; collect enums, expressions and templates; resolve
 * `extends` into a forest (unknown targets, variants and cycles are
 * reported and cut off); then build bitsets parents first, merging
 * patterns and checking bits as Mesa's generator does.  Whatever is
 * wrong is reported and left out, so one run reports everything.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ name map */

/* Open-addressing map from name to the index of its LAST definition
 * (later definitions win, as in Mesa). */
typedef struct name_map {
	const char **keys;
	size_t *vals;
	size_t cap;
} name_map;

static bool map_init(arena *a, name_map *m, size_t n)
{
	m->cap = 16;
	while (m->cap < n * 2 + 1)
		m->cap *= 2;
	m->keys = arena_alloc(a, m->cap * sizeof *m->keys);
	m->vals = arena_alloc(a, m->cap * sizeof *m->vals);
	return m->keys && m->vals;
}

static void map_put(name_map *m, const char *key, size_t val)
{
	size_t i = (size_t)text_hash(key) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = key;
	m->vals[i] = val;
}

static bool map_get(const name_map *m, const char *key, size_t *val)
{
	if (!m->cap)
		return false;
	size_t i = (size_t)text_hash(key) & (m->cap - 1);
	while (m->keys[i]) {
		if (!strcmp(m->keys[i], key)) {
			*val = m->vals[i];
			return true;
		}
		i = (i + 1) & (m->cap - 1);
	}
	return false;
}

/* ------------------------------------------------------------- vectors */

/* A growable array of pointers, malloc'd during loading only. */
typedef struct ptrvec {
	void **v;
	size_t n, cap;
} ptrvec;

static bool vec_push(ptrvec *pv, void *p)
{
	void **v = spec_grow(pv->v, pv->n + 1, &pv->cap, sizeof *v, 16);
	if (!v)
		return false;
	pv->v = v;
	pv->v[pv->n++] = p;
	return true;
}

/* ------------------------------------------------------------- loader */

typedef struct bnode bnode;

typedef struct loader {
	arena *a;
	spec_diags *diags;
	const char *base_dir;
	char *root_real;      /* realpath of base_dir (malloc): imports stay below it */
	const spec_load_options *opt;
	bool too_deep;        /* an extends chain over SPEC_MAX_CHAIN: unusable */
	bool too_long;        /* a display over its budget: unusable */
	size_t display_left;  /* display bytes still allowed, templates spliced */
	size_t budget;        /* elements still allowed */
	size_t bytes_left;    /* file bytes still allowed, all files together */
	spec_limits lim;      /* the budgets this load works to */
	ptrvec files;     /* const char * display paths */
	ptrvec realpaths; /* char * (malloc), parallel to files */
	ptrvec stack;     /* char * realpaths of files being read */
	ptrvec defs;      /* xml_elem * top-level definitions, Mesa order */
	ptrvec bnodes;    /* bnode * */
	name_map bitset_map, enum_map, expr_map, template_map;
	ptrvec enums, exprs, templates; /* spec_enum *, spec_named_expr *, spec_template * */
	unsigned anon_exprs;
} loader;

struct bnode {
	spec_bitset *b;
	const xml_elem *e;
	bnode *parent;
	bnode *next_same; /* next bitset of the same name, document order */
	size_t index;
	unsigned depth;   /* distance from the root, once resolved */
	bool dropped;
	bool built;
	bool has_child;
	unsigned visit;   /* cycle search stamp */
};

#define DIAG(L, sev, rule, loc, ...) spec_diag_add((L)->diags, sev, rule, loc, __VA_ARGS__)

/* ---------------------------------------------------------- the schema */

typedef struct elem_rule {
	const char *name;
	const char *parents; /* space separated; "*" for any */
	const char *attrs;   /* space separated; "*" for any */
	bool text;           /* may hold character data */
} elem_rule;

static const elem_rule schema[] = {
	{"isa", "", "", false},
	{"import", "isa", "file", false},
	{"bitset", "isa", "name size extends displayname", false},
	{"enum", "isa", "name", false},
	{"value", "enum", "val display name", false},
	{"expr", "isa", "name", true},
	{"expr", "override derived", "", true},
	{"template", "isa", "name", true},
	{"doc", "*", "*", true},
	{"gen", "bitset", "min max", false},
	{"meta", "bitset", "*", false},
	{"pattern", "bitset override", "pos low high", true},
	{"field", "bitset override", "name pos low high type display call", false},
	{"param", "field", "name as", false},
	{"assert", "bitset override", "pos low high", true},
	{"derived", "bitset override", "name type expr width display call", false},
	{"override", "bitset", "expr", false},
	{"display", "bitset override", "", true},
	{"encode", "bitset", "type case-prefix", false},
	{"map", "encode", "name force", true},
	{"decode", "bitset", "", false},
	/* program framing, our extension (frame.c, docs/framing.md) */
	{"program", "isa", "name cover extends", false},
	{"part", "program group repeat", "name root bits at when", false},
	{"data", "program group repeat", "name bits at when unexplained", false},
	{"read", "program group repeat", "name pos low high when", false},
	{"let", "program group repeat", "name expr when item", false},
	{"align", "program group repeat", "bits zero when", false},
	{"reject", "program group repeat", "message when", false},
	{"text", "program group repeat", "when", true},
	{"group", "program group repeat", "bits zero when", false},
	{"repeat", "program group repeat", "name count count-at to-end when", false},
	{"export", "part", "field is as", false},
	{"display", "part data", "when", true},
	{"suffix", "part data", "line when", true},
};

static bool word_in(const char *list, const char *word)
{
	size_t wl = strlen(word), n;
	for (const char *p = list, *w; (w = text_next_word(&p, &n));)
		if (n == wl && !strncmp(w, word, wl))
			return true;
	return false;
}

/* The closest word of a space-separated list, for "did you mean". */
static const char *closest_word(arena *a, const char *list, const char *word)
{
	const char *best = NULL;
	unsigned best_d = strlen(word) <= 3 ? 1 : 2;
	size_t n;
	for (const char *p = list, *w; (w = text_next_word(&p, &n));) {
		char *cand = arena_strndup(a, w, n);
		if (!cand)
			continue;
		unsigned d = text_distance(word, cand, best_d);
		if (d <= best_d && strcmp(cand, word)) {
			best_d = d;
			best = cand;
			if (d == 0)
				break;
		}
	}
	return best;
}

static const elem_rule *find_rule(const char *name, const char *parent)
{
	for (size_t i = 0; i < sizeof schema / sizeof *schema; i++)
		if (!strcmp(schema[i].name, name) &&
		    (!strcmp(schema[i].parents, "*") ||
		     (parent && word_in(schema[i].parents, parent)) ||
		     (!parent && !*schema[i].parents)))
			return &schema[i];
	return NULL;
}

/* Children the dialect allows inside parent, space separated. */
static void allowed_children(const char *parent, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < sizeof schema / sizeof *schema; i++)
		if (!strcmp(schema[i].parents, "*") || word_in(schema[i].parents, parent)) {
			if (word_in(buf, schema[i].name))
				continue;
			size_t l = strlen(buf);
			snprintf(buf + l, len - l, "%s%s", l ? " " : "", schema[i].name);
		}
}

/* find_rule and word_in answered by the addresses of the names they are
 * asked about: a file's element and attribute names are the parser's few
 * copies (xml.c), so nearly every element asks again with the same
 * addresses, and strings the arena holds never change, so an address
 * seen before is the same name.  (Direct-mapped; a miss just asks.) */
#define SCHEMA_MEMO 64
typedef struct schema_memo {
	struct rule_memo {
		const char *name, *parent; /* parent NULL: the document element */
		const elem_rule *rule;
		bool set;
	} rules[SCHEMA_MEMO];
	struct attr_memo {
		const elem_rule *rule;
		const char *attr;
		bool allowed;
	} attrs[SCHEMA_MEMO];
} schema_memo;

static size_t memo_slot(const void *a, const void *b)
{
	uint64_t h = ((uint64_t)(uintptr_t)a ^ ((uint64_t)(uintptr_t)b << 1)) *
	             0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 32) % SCHEMA_MEMO;
}

static const elem_rule *memo_rule(schema_memo *sm, const char *name, const char *parent)
{
	struct rule_memo *m = &sm->rules[memo_slot(name, parent)];
	if (!m->set || m->name != name || m->parent != parent)
		*m = (struct rule_memo){name, parent, find_rule(name, parent), true};
	return m->rule;
}

static bool memo_attr_allowed(schema_memo *sm, const elem_rule *r, const char *attr)
{
	struct attr_memo *m = &sm->attrs[memo_slot(r, attr)];
	if (m->rule != r || m->attr != attr)
		*m = (struct attr_memo){r, attr, word_in(r->attrs, attr)};
	return m->allowed;
}

static void check_schema(loader *L, schema_memo *sm, const xml_elem *e)
{
	const char *parent = e->parent ? e->parent->name : NULL;
	const elem_rule *r = memo_rule(sm, e->name, parent);
	if (!r) {
		char allowed[256];
		allowed_children(parent ? parent : "", allowed, sizeof allowed);
		const char *near = closest_word(L->a, allowed, e->name);
		bool known = false;
		for (size_t i = 0; i < sizeof schema / sizeof *schema; i++)
			known |= !strcmp(schema[i].name, e->name);
		if (e->kind == EL_PATTERN && parent && !strcmp(parent, "override"))
			return; /* reported as override-pattern where cases are built */
		if (known)
			DIAG(L, SPEC_ERROR, "unknown-element", e->loc,
			     "<%s> is not allowed inside <%s>; Mesa ignores it", e->name,
			     parent ? parent : "(document)");
		else if (near)
			DIAG(L, SPEC_ERROR, "unknown-element", e->loc,
			     "unknown element <%s> (did you mean <%s>?); Mesa ignores it",
			     e->name, near);
		else
			DIAG(L, SPEC_ERROR, "unknown-element", e->loc,
			     "unknown element <%s>; Mesa ignores it", e->name);
		return;
	}
	if (strcmp(r->attrs, "*"))
		for (unsigned i = 0; i < e->nattrs; i++) {
			const char *an = e->attrs[i].name;
			if (memo_attr_allowed(sm, r, an))
				continue;
			const char *near = closest_word(L->a, r->attrs, an);
			if (near)
				DIAG(L, SPEC_ERROR, "unknown-attribute", e->attrs[i].loc,
				     "unknown attribute '%s' on <%s> (did you mean '%s'?); Mesa ignores it",
				     an, e->name, near);
			else
				DIAG(L, SPEC_ERROR, "unknown-attribute", e->attrs[i].loc,
				     "unknown attribute '%s' on <%s>; Mesa ignores it", an, e->name);
		}
	if (!r->text && e->has_text)
		DIAG(L, SPEC_WARNING, "unexpected-text", e->text_ws_loc,
		     "text inside <%s> means nothing and is ignored", e->name);
	if (e->kind == EL_DOC)
		return; /* free-form documentation */
	for (const xml_elem *c = e->first; c; c = c->next)
		check_schema(L, sm, c);
}

/* ------------------------------------------------------------- files */

static char *read_whole_file(loader *L, const char *path, spec_loc at,
                             bool is_import, size_t *len)
{
	/* a FIFO (as the spec, or as an import) is refused, not waited on */
	char why[200];
	int err;
	struct stat st;
	int fd = spec_open_regular(path, &st, why, sizeof why, &err);
	if (fd < 0) {
		DIAG(L, SPEC_FATAL, is_import && err == ENOENT ? "import-missing" : "io", at,
		     "cannot read '%s': %s", path, why);
		return NULL;
	}
	if ((uint64_t)st.st_size > L->lim.file_bytes) {
		DIAG(L, SPEC_FATAL, "file-too-large", at,
		     "'%s' is %lld bytes; the limit is %zu (--max-spec-size raises it)", path,
		     (long long)st.st_size, L->lim.file_bytes);
		close(fd);
		return NULL;
	}
	size_t n = (size_t)st.st_size;
	/* a block, as the arena's: a big file faults in by huge pages; read
	 * straight into it, as stdio would add a buffer of its own */
	char *buf = spec_block_alloc(n + 1, NULL);
	size_t done = 0;
	bool failed = false;
	while (buf && done < n && !failed) {
		ssize_t r = read(fd, buf + done, n - done);
		if (r > 0)
			done += (size_t)r;
		else
			failed = r == 0 || errno != EINTR;
	}
	if (!buf || done != n) {
		DIAG(L, SPEC_FATAL, "io", at, "cannot read '%s': %s", path,
		     buf ? "short read" : "out of memory");
		spec_block_free(buf, n + 1);
		close(fd);
		return NULL;
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

static bool load_tree(loader *L, const char *name, char *data, size_t len,
                      char *real, bool owned);

static bool load_file(loader *L, const char *path, spec_loc at, bool is_import)
{
	size_t len = 0;
	char *data = read_whole_file(L, path, at, is_import, &len);
	if (!data)
		return false;
	char *real = realpath(path, NULL);
	if (!real)
		real = strdup(path);
	if (!real) {
		spec_block_free(data, len + 1);
		return false;
	}
	return load_tree(L, arena_strdup(L->a, path), data, len, real, true);
}

static char *join_path(arena *a, const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !*dir)
		return arena_strdup(a, file);
	size_t dl = strlen(dir), fl = strlen(file);
	char *p = arena_alloc(a, dl + fl + 2);
	if (p) {
		memcpy(p, dir, dl);
		p[dl] = '/';
		memcpy(p + dl + 1, file, fl + 1);
	}
	return p;
}

/* Whether real (a resolved path) lies in dir (resolved) or below it. */
static bool path_below(const char *real, const char *dir)
{
	size_t n = strlen(dir);
	if (n && dir[n - 1] == '/')
		n--; /* "/" itself */
	return !strncmp(real, dir, n) && (real[n] == '/' || real[n] == '\0');
}

/* Imports are read only from the top-level file's folder and below, or
 * from a folder the caller allows: a spec from an untrusted merge request
 * must not make a CI job read /etc/passwd (symlinks resolved first). */
static bool import_allowed(loader *L, const char *real)
{
	if (L->root_real && path_below(real, L->root_real))
		return true;
	for (size_t i = 0; L->opt && i < L->opt->nimport_dirs; i++) {
		char *dir = realpath(L->opt->import_dirs[i], NULL);
		bool ok = dir && path_below(real, dir);
		free(dir);
		if (ok)
			return true;
	}
	return false;
}

static bool handle_import(loader *L, const xml_elem *imp)
{
	const char *file = xml_attr_get(imp, "file");
	if (!file || !*file) {
		DIAG(L, SPEC_ERROR, "missing-attribute", imp->loc,
		     "<import> needs a file attribute");
		return true;
	}
	char *path = join_path(L->a, L->base_dir, file);
	if (!path)
		return false;
	char *real = realpath(path, NULL);
	if (real && !import_allowed(L, real)) {
		DIAG(L, SPEC_FATAL, "import-outside", imp->loc,
		     "'%s' is '%s', outside '%s': imports are confined to the top-level file's "
		     "folder and below (name another folder with --import-dir=DIR)",
		     file, real, L->root_real ? L->root_real : L->base_dir);
		free(real);
		return false;
	}
	if (real) {
		for (size_t i = 0; i < L->stack.n; i++)
			if (!strcmp(L->stack.v[i], real)) {
				DIAG(L, SPEC_FATAL, "import-cycle", imp->loc,
				     "importing '%s' makes a cycle: it is already being read", file);
				free(real);
				return false;
			}
		for (size_t i = 0; i < L->realpaths.n; i++)
			if (!strcmp(L->realpaths.v[i], real)) {
				DIAG(L, SPEC_WARNING, "import-repeated", imp->loc,
				     "'%s' is already imported; this import is skipped (Mesa would "
				     "read it twice and redefine everything in it)", file);
				free(real);
				return true;
			}
		free(real);
	}
	if (L->files.n >= SPEC_MAX_IMPORTS) {
		DIAG(L, SPEC_FATAL, "import-limit", imp->loc,
		     "more than %u files imported", SPEC_MAX_IMPORTS);
		return false;
	}
	return load_file(L, path, imp->loc, true);
}

/* Takes ownership of real (malloc'd) and, when owned, of data (a block
 * of len + 1 bytes from read_whole_file), which is freed as soon as it
 * is parsed: imports are read after, so at most one file's bytes are
 * held at a time. */
static bool load_tree(loader *L, const char *name, char *data, size_t len,
                      char *real, bool owned)
{
	if (!name || !vec_push(&L->files, (void *)name) || !vec_push(&L->realpaths, real)) {
		free(real);
		if (owned)
			spec_block_free(data, len + 1);
		return false;
	}
	if (len > L->bytes_left) {
		DIAG(L, SPEC_FATAL, "file-too-large", (spec_loc){name, 0, 0},
		     "the files read so far exceed %zu bytes together (--max-spec-size raises it)",
		     L->lim.total_bytes);
		if (owned)
			spec_block_free(data, len + 1);
		return false;
	}
	L->bytes_left -= len;
	const char *cache = L->opt ? L->opt->cache_dir : NULL;
	xml_elem *root = xml_cache_load(L->a, cache, name, data, len, &L->budget);
	if (!root) {
		root = xml_parse(L->a, name, data, len, &L->budget, L->diags);
		xml_cache_store(cache, data, len, root);
	}
	if (owned)
		spec_block_free(data, len + 1);
	if (!root)
		return false;
	if (root->kind != EL_ISA) {
		DIAG(L, SPEC_FATAL, "not-isa", root->loc,
		     "the document element is <%s>; an isaspec file has <isa>", root->name);
		return false;
	}
	schema_memo sm = {0};
	check_schema(L, &sm, root);
	if (!vec_push(&L->stack, real))
		return false;
	bool ok = true;
	for (const xml_elem *c = root->first; c && ok; c = c->next)
		if (c->kind == EL_IMPORT)
			ok = handle_import(L, c);
	L->stack.n--;
	for (const xml_elem *c = root->first; c && ok; c = c->next)
		if (c->kind != EL_IMPORT && c->kind != EL_DOC)
			ok = vec_push(&L->defs, (void *)c);
	return ok;
}

/* ------------------------------------------------------- attribute help */

static spec_loc attr_loc(const xml_elem *e, const char *name)
{
	const xml_attr *at = xml_attr_find(e, name);
	return at ? at->loc : e->loc;
}

/* Reads an unsigned decimal attribute; reports bad-number. */
static bool get_uint(loader *L, const xml_elem *e, const char *attr, uint64_t max,
                     uint64_t *out)
{
	const char *v = xml_attr_get(e, attr);
	if (!v)
		return false;
	if (!text_parse_uint(v, max, out)) {
		DIAG(L, SPEC_ERROR, "bad-number", attr_loc(e, attr),
		     "%s=\"%s\" on <%s> is not a whole number from 0 to %llu", attr, v,
		     e->name, (unsigned long long)max);
		return false;
	}
	return true;
}

/* Reads pos or low+high, checked against the root size. */
static bool get_range(loader *L, const xml_elem *e, unsigned size, unsigned *low,
                      unsigned *high)
{
	const char *pos = xml_attr_get(e, "pos");
	const char *lo = xml_attr_get(e, "low"), *hi = xml_attr_get(e, "high");
	uint64_t l = 0, h = 0;
	if (pos && (lo || hi)) {
		DIAG(L, SPEC_ERROR, "bad-range", e->loc,
		     "<%s> has pos together with low/high; give one or the other", e->name);
		return false;
	}
	if (pos) {
		if (!get_uint(L, e, "pos", UINT32_MAX, &l))
			return false;
		h = l;
	} else if (lo && hi) {
		bool ok = get_uint(L, e, "low", UINT32_MAX, &l);
		ok = get_uint(L, e, "high", UINT32_MAX, &h) && ok;
		if (!ok)
			return false;
		if (l > h) {
			DIAG(L, SPEC_ERROR, "bad-range", e->loc,
			     "<%s> has low=%llu above high=%llu", e->name,
			     (unsigned long long)l, (unsigned long long)h);
			return false;
		}
	} else {
		DIAG(L, SPEC_ERROR, "bad-range", e->loc,
		     "<%s> needs pos, or low and high", e->name);
		return false;
	}
	if (h >= size) {
		DIAG(L, SPEC_ERROR, "range-outside", e->loc,
		     "<%s> bits %llu..%llu lie outside the %u-bit root", e->name,
		     (unsigned long long)l, (unsigned long long)h, size);
		return false;
	}
	*low = (unsigned)l;
	*high = (unsigned)h;
	return true;
}

/* ------------------------------------------------- enums, exprs, templates */

struct value_at {
	int64_t val;
	size_t index;
};

static int by_value_then_index(const void *pa, const void *pb)
{
	const struct value_at *a = pa, *b = pb;
	if (a->val != b->val)
		return a->val < b->val ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Each value an enum gives again, against its first place: sorted, so
 * an enum of 200,000 values costs n log n, not its pairs. */
static void report_repeated_values(loader *L, const char *name, const spec_enum_value *vals,
                                   size_t n)
{
	struct value_at *s = malloc((n ? n : 1) * sizeof *s);
	if (!s) {
		L->a->failed = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		s[i] = (struct value_at){vals[i].val, i};
	qsort(s, n, sizeof *s, by_value_then_index);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (s[i].val != s[first].val) {
			first = i;
			continue;
		}
		const spec_enum_value *d = &vals[s[i].index], *f = &vals[s[first].index];
		DIAG(L, SPEC_ERROR, "duplicate-enum-value", d->loc,
		     "enum '%s' gives value %s twice (first at line %u, display \"%s\"); "
		     "Mesa keeps one silently", name, d->val_text, f->loc.line, f->display);
	}
	free(s);
}

static void build_enum(loader *L, const xml_elem *e)
{
	const char *name = xml_attr_get(e, "name");
	if (!name) {
		DIAG(L, SPEC_ERROR, "missing-attribute", e->loc, "<enum> needs a name");
		return;
	}
	spec_enum *en = arena_alloc(L->a, sizeof *en);
	size_t n = 0;
	for (const xml_elem *c = e->first; c; c = c->next)
		n += c->kind == EL_VALUE;
	spec_enum_value *vals = arena_alloc(L->a, (n ? n : 1) * sizeof *vals);
	if (!en || !vals)
		return;
	en->name = name;
	en->loc = e->loc;
	size_t k = 0;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (c->kind != EL_VALUE)
			continue;
		const char *val = xml_attr_get(c, "val"), *disp = xml_attr_get(c, "display");
		if (!val || !disp) {
			DIAG(L, SPEC_ERROR, "missing-attribute", c->loc,
			     "<value> in enum '%s' needs %s", name,
			     !val && !disp ? "val and display" : !val ? "val" : "display");
			continue;
		}
		int64_t v;
		if (!text_parse_c_int(val, &v)) {
			DIAG(L, SPEC_ERROR, "bad-number", attr_loc(c, "val"),
			     "val=\"%s\" in enum '%s' is not an integer", val, name);
			continue;
		}
		vals[k++] = (spec_enum_value){v, val, disp, xml_attr_get(c, "name"), c->loc};
	}
	report_repeated_values(L, name, vals, k);
	en->values = vals;
	en->nvalues = k;
	map_put(&L->enum_map, name, L->enums.n);
	vec_push(&L->enums, en);
}

/* Parses an expression's text and records it in the model's list. */
static spec_named_expr *add_expr(loader *L, const xml_elem *e, const char *name)
{
	spec_named_expr *ne = arena_alloc(L->a, sizeof *ne);
	if (!ne)
		return NULL;
	if (!name) {
		char buf[32];
		snprintf(buf, sizeof buf, "anon_%u", L->anon_exprs++);
		name = arena_strdup(L->a, buf);
		ne->anonymous = true;
	}
	ne->name = name;
	ne->loc = e->loc;
	ne->expr = spec_expr_parse(e->text, e->text_loc, L->diags);
	if (!vec_push(&L->exprs, ne))
		return NULL;
	if (!ne->anonymous)
		map_put(&L->expr_map, name, L->exprs.n - 1);
	return ne;
}

static void build_template(loader *L, const xml_elem *e)
{
	const char *name = xml_attr_get(e, "name");
	if (!name) {
		DIAG(L, SPEC_ERROR, "missing-attribute", e->loc, "<template> needs a name");
		return;
	}
	spec_template *t = arena_alloc(L->a, sizeof *t);
	if (!t)
		return;
	t->name = name;
	t->loc = e->loc;
	t->text = text_strip(L->a, e->text);
	map_put(&L->template_map, name, L->templates.n);
	vec_push(&L->templates, t);
}

/* Replaces every {T} naming a template by its text, in one pass, as
 * Mesa does at parse time.  A display may name a long template many
 * times, so the result is held to SPEC_MAX_DISPLAY_BYTES, and all
 * displays together to SPEC_MAX_DISPLAY_TOTAL: past either the model is
 * unusable (display-too-long), never gigabytes of text. */
static const char *splice_templates(loader *L, const xml_elem *e, const char *text)
{
	size_t n = strlen(text), cap = n + 1;
	bool over = n > SPEC_MAX_DISPLAY_BYTES;
	const char *res = text;
	char *out = !over && L->templates.n && strchr(text, '{') ? malloc(cap) : NULL;
	if (out) {
		n = 0;
		for (const char *p = text; *p && !over;) {
			const char *piece = p;
			size_t len = 1, idx;
			const char *close = *p == '{' ? strchr(p, '}') : NULL;
			if (close && (size_t)(close - p - 1) < 256) {
				char name[256];
				memcpy(name, p + 1, (size_t)(close - p - 1));
				name[close - p - 1] = 0;
				if (map_get(&L->template_map, name, &idx)) {
					piece = ((spec_template *)L->templates.v[idx])->text;
					len = strlen(piece);
					p = close;
				}
			}
			p++;
			over = n + len > SPEC_MAX_DISPLAY_BYTES;
			if (!over && n + len + 1 > cap) {
				char *o2 = realloc(out, cap = (n + len + 1) * 2);
				if (!o2) {
					L->a->failed = true;
					break;
				}
				out = o2;
			}
			if (!over) {
				memcpy(out + n, piece, len);
				n += len;
			}
		}
		out[n] = 0;
		res = over ? "" : arena_strndup(L->a, out, n);
		free(out);
		if (!res)
			res = text;
	}
	if (over || n > L->display_left) {
		if (!L->too_long)
			DIAG(L, SPEC_FATAL, "display-too-long", e->loc,
			     over ? "the display is longer than %zu bytes once templates are spliced"
			          : "the displays together are longer than %zu bytes once templates are spliced",
			     over ? (size_t)SPEC_MAX_DISPLAY_BYTES : L->lim.display_bytes);
		L->too_long = true;
		L->display_left = 0;
		return "";
	}
	L->display_left -= n;
	return res;
}

/* ---------------------------------------------------------- bitsets */

static const char *const builtin_types[] = {
	"uint", "int", "hex", "bool", "bool_inv", "float", "offset",
	"uoffset", "branch", "absbranch", "custom",
};
static const spec_type_kind builtin_kinds[] = {
	SPEC_TYPE_UINT, SPEC_TYPE_INT, SPEC_TYPE_HEX, SPEC_TYPE_BOOL,
	SPEC_TYPE_BOOL_INV, SPEC_TYPE_FLOAT, SPEC_TYPE_OFFSET,
	SPEC_TYPE_UOFFSET, SPEC_TYPE_BRANCH, SPEC_TYPE_ABSBRANCH,
	SPEC_TYPE_CUSTOM,
};

static bnode *bnode_by_name(loader *L, const char *name)
{
	size_t idx;
	/* bitset_map holds the FIRST definition of a name (see resolve). */
	return map_get(&L->bitset_map, name, &idx) ? L->bnodes.v[idx] : NULL;
}

/* Suggests a type name close to an unknown one. */
static const char *closest_type(loader *L, const char *t)
{
	const char *best = NULL;
	unsigned best_d = strlen(t) <= 3 ? 1 : 2;
	for (size_t i = 0; i < sizeof builtin_types / sizeof *builtin_types; i++) {
		unsigned d = text_distance(t, builtin_types[i], best_d);
		if (d <= best_d) {
			best_d = d;
			best = builtin_types[i];
		}
	}
	for (size_t i = 0; i < L->enums.n; i++) {
		const char *n = ((spec_enum *)L->enums.v[i])->name;
		unsigned d = text_distance(t, n, best_d);
		if (d <= best_d) {
			best_d = d;
			best = n;
		}
	}
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (n->b->parent || n->dropped)
			continue;
		unsigned d = text_distance(t, n->b->name, best_d);
		if (d <= best_d) {
			best_d = d;
			best = n->b->name;
		}
	}
	return best;
}

/* Resolves and checks a field's type; false drops the field. */
static bool resolve_type(loader *L, const xml_elem *e, spec_field *f)
{
	const char *t = f->type_name;
	size_t idx;
	unsigned width = f->high - f->low + 1;
	f->type = SPEC_TYPE_UNKNOWN;
	for (size_t i = 0; i < sizeof builtin_types / sizeof *builtin_types; i++)
		if (!strcmp(t, builtin_types[i]))
			f->type = builtin_kinds[i];
	if (f->type == SPEC_TYPE_UNKNOWN && map_get(&L->enum_map, t, &idx)) {
		f->type = SPEC_TYPE_ENUM;
		f->enm = L->enums.v[idx];
	}
	if (f->type == SPEC_TYPE_UNKNOWN) {
		bnode *n = bnode_by_name(L, t);
		if (n && !n->dropped) {
			if (n->b->parent || xml_attr_get(n->e, "extends")) {
				DIAG(L, SPEC_ERROR, "bitset-field-not-root", attr_loc(e, "type"),
				     "field '%s' has type '%s', a bitset that is not a root "
				     "(only roots, bitsets with size=, can decode a field)",
				     f->name, t);
				return false;
			}
			f->type = SPEC_TYPE_BITSET;
			f->bitset = n->b;
			if (f->kind == SPEC_FIELD && n->b->size != width) {
				DIAG(L, SPEC_ERROR, "bitset-field-size", e->loc,
				     "field '%s' is %u bits wide but its type '%s' is a %u-bit root",
				     f->name, width, t, n->b->size);
				return false;
			}
		}
	}
	if (f->type == SPEC_TYPE_UNKNOWN) {
		const char *near = closest_type(L, t);
		if (near)
			DIAG(L, SPEC_ERROR, "type-unknown", attr_loc(e, "type"),
			     "field '%s' has unknown type '%s' (did you mean '%s'?)", f->name, t, near);
		else
			DIAG(L, SPEC_ERROR, "type-unknown", attr_loc(e, "type"),
			     "field '%s' has unknown type '%s': not a builtin type, an enum or a root bitset",
			     f->name, t);
		return false;
	}
	if (f->type == SPEC_TYPE_FLOAT && width != 16 && width != 32 &&
	    (f->kind == SPEC_FIELD || f->has_width)) {
		DIAG(L, SPEC_ERROR, "float-width", e->loc,
		     "float field '%s' is %u bits wide; floats are 16 or 32 bits", f->name, width);
		return false;
	}
	if (f->type != SPEC_TYPE_BITSET && width > SPEC_MAX_FIELD_BITS) {
		DIAG(L, SPEC_ERROR, "field-too-wide", e->loc,
		     "field '%s' is %u bits wide; field values are at most %u bits",
		     f->name, width, SPEC_MAX_FIELD_BITS);
		return false;
	}
	return true;
}

/* Resolves an expression given as expr="NAME" or as one <expr> child. */
static bool get_expr(loader *L, const xml_elem *e, const spec_expr **out,
                     const char **name_out)
{
	const char *name = xml_attr_get(e, "expr");
	const xml_elem *child = NULL;
	unsigned nchild = 0;
	for (const xml_elem *c = e->first; c; c = c->next)
		if (c->kind == EL_EXPR) {
			child = child ? child : c;
			nchild++;
		}
	if (name && nchild) {
		DIAG(L, SPEC_ERROR, "expr-missing", e->loc,
		     "<%s> has both expr=\"%s\" and an <expr> child; give one", e->name, name);
		return false;
	}
	if (name) {
		size_t idx;
		if (!map_get(&L->expr_map, name, &idx)) {
			DIAG(L, SPEC_ERROR, "expr-unknown", attr_loc(e, "expr"),
			     "expr=\"%s\" names no <expr>", name);
			return false;
		}
		*out = ((spec_named_expr *)L->exprs.v[idx])->expr;
		*name_out = name;
		return *out != NULL;
	}
	if (nchild != 1) {
		DIAG(L, SPEC_ERROR, "expr-missing", e->loc,
		     "<%s> needs an expr attribute or exactly one <expr> child (it has %u)",
		     e->name, nchild);
		return false;
	}
	spec_named_expr *ne = add_expr(L, child, NULL);
	*out = ne ? ne->expr : NULL;
	return *out != NULL;
}

typedef struct case_build {
	ptrvec fields;         /* spec_field * */
	uint64_t *mask;        /* bits of fields and asserts */
	const char *display;
	spec_loc display_loc;
	unsigned nasserts;
} case_build;

/* A bitset may not redefine bits its ancestors define (Mesa's "bitset
 * conflict"); reported at the element that does it. */
static void report_ancestor_clash(loader *L, bnode *n, const xml_elem *e,
                                  const uint64_t *bits, const uint64_t *ancestors)
{
	unsigned nw = bits_words(n->b->size);
	uint64_t c[BITS_MAX_WORDS];
	bool any = false;
	for (unsigned i = 0; i < nw; i++) {
		c[i] = bits[i] & ancestors[i];
		any |= c[i] != 0;
	}
	if (!any)
		return;
	char r[128];
	bits_format_ranges(c, n->b->size, r, sizeof r);
	DIAG(L, SPEC_ERROR, "bits-conflict", e->loc,
	     "<%s> of '%s' redefines bits %s that its ancestors already define",
	     e->name, n->b->name, r);
}

/* Parses <field>, <derived> or <assert>; adds it to cb.  `defined`
 * collects the bits defined so far in this scope for overlap checks. */
static void build_field(loader *L, bnode *n, const xml_elem *e, case_build *cb,
                        uint64_t *defined, const uint64_t *ancestors, bool in_override,
                        unsigned *assert_no)
{
	spec_bitset *b = n->b;
	unsigned nw = bits_words(b->size);
	spec_field *f = arena_alloc(L->a, sizeof *f);
	if (!f)
		return;
	f->loc = e->loc;
	if (e->kind == EL_ASSERT) {
		f->kind = SPEC_ASSERT;
		char buf[64];
		snprintf(buf, sizeof buf, "#assert%u", (*assert_no)++);
		size_t bl = strlen(b->name);
		char *nm = arena_alloc(L->a, bl + strlen(buf) + 1);
		if (nm) {
			memcpy(nm, b->name, bl);
			strcpy(nm + bl, buf);
		}
		f->name = nm;
		if (!get_range(L, e, b->size, &f->low, &f->high))
			return;
		size_t len;
		const char *txt = text_trim(e->text, &len);
		uint64_t *val = bits_new(L->a, nw);
		/* A bad text is reported, and the assert then expects zeros:
		 * its bits stay accounted for, so nothing else cascades. */
		if (len != f->high - f->low + 1) {
			DIAG(L, SPEC_ERROR, "pattern-length", e->text_loc,
			     "<assert> has %zu characters for %u bits (%u..%u)", len,
			     f->high - f->low + 1, f->low, f->high);
			len = 0;
		}
		for (size_t i = 0; val && i < len; i++) {
			char c = txt[i];
			if (c != '0' && c != '1') {
				DIAG(L, SPEC_ERROR, "assert-char", e->text_loc,
				     "<assert> may hold only 0 and 1, not '%c'%s", c,
				     c == 'x' ? " (use a pattern x for a don't-care bit)" : "");
				memset(val, 0, nw * sizeof *val);
				break;
			}
			if (c == '1') {
				unsigned bit = f->high - (unsigned)i;
				val[bit / 64] |= (uint64_t)1 << (bit % 64);
			}
		}
		f->assert_value = (spec_bits){val, nw};
	} else {
		f->kind = e->kind != EL_DERIVED ? SPEC_FIELD : SPEC_DERIVED;
		f->name = xml_attr_get(e, "name");
		if (!f->name) {
			DIAG(L, SPEC_ERROR, "missing-attribute", e->loc, "<%s> needs a name", e->name);
			return;
		}
		f->type_name = xml_attr_get(e, "type");
		f->display = xml_attr_get(e, "display");
		const char *call = xml_attr_get(e, "call");
		f->call = call && !strcmp(call, "true");
		if (f->kind == SPEC_DERIVED) {
			uint64_t w = 0;
			if (xml_attr_get(e, "width")) {
				if (!get_uint(L, e, "width", SPEC_MAX_FIELD_BITS, &w))
					return;
				f->has_width = true;
			}
			f->low = 0;
			f->high = w ? (unsigned)w - 1 : 0;
			if (!get_expr(L, e, &f->expr, &f->expr_name))
				return;
		} else if (!get_range(L, e, b->size, &f->low, &f->high)) {
			return;
		}
		if (!f->type_name) {
			DIAG(L, SPEC_ERROR, "missing-attribute", e->loc,
			     "<%s name=\"%s\"> needs a type", e->name, f->name);
			return;
		}
		if (!resolve_type(L, e, f))
			f->type = SPEC_TYPE_UNKNOWN; /* reported; its bits stay accounted for */
		size_t np = 0;
		for (const xml_elem *c = e->first; c; c = c->next)
			np += c->kind == EL_PARAM;
		spec_param *ps = arena_alloc(L->a, np * sizeof *ps);
		size_t k = 0;
		for (const xml_elem *c = e->first; ps && c; c = c->next) {
			if (c->kind != EL_PARAM)
				continue;
			const char *pn = xml_attr_get(c, "name");
			if (!pn) {
				DIAG(L, SPEC_ERROR, "missing-attribute", c->loc, "<param> needs a name");
				continue;
			}
			const char *as = xml_attr_get(c, "as");
			ps[k++] = (spec_param){pn, as ? as : pn, c->loc};
		}
		f->params = ps;
		f->nparams = k;
	}
	if (f->kind != SPEC_DERIVED) {
		uint64_t m[BITS_MAX_WORDS];
		memset(m, 0, nw * sizeof *m);
		bits_set_range(m, f->low, f->high);
		if (ancestors)
			report_ancestor_clash(L, n, e, m, ancestors);
		bool clash = false;
		for (unsigned i = 0; i < nw; i++)
			clash |= (m[i] & defined[i]) != 0;
		if (clash) {
			char r[128];
			for (unsigned i = 0; i < nw; i++)
				m[i] &= defined[i];
			bits_format_ranges(m, b->size, r, sizeof r);
			/* Reported, and kept: the prover's accounting then sees the
			 * bits claimed twice, as lint does. */
			if (!in_override)
				DIAG(L, SPEC_ERROR, "bits-redefined", e->loc,
				     "%s '%s' of '%s' redefines bits %s",
				     e->name, f->kind == SPEC_ASSERT ? "assert" : f->name, b->name, r);
			else
				DIAG(L, SPEC_ERROR, "override-overlap", e->loc,
				     "%s '%s' in an override of '%s' reuses bits %s, already defined "
				     "by a pattern or by another field of that override",
				     e->name, f->kind == SPEC_ASSERT ? "assert" : f->name, b->name, r);
			bits_set_range(m, f->low, f->high);
		}
		for (unsigned i = 0; i < nw; i++) {
			defined[i] |= m[i];
			cb->mask[i] |= m[i];
		}
	}
	vec_push(&cb->fields, f);
}

static void build_pattern(loader *L, bnode *n, const xml_elem *e, uint64_t *defined,
                          const uint64_t *ancestors, uint64_t *match, uint64_t *mask,
                          uint64_t *dontcare, ptrvec *patterns)
{
	spec_bitset *b = n->b;
	unsigned low, high;
	if (!get_range(L, e, b->size, &low, &high))
		return;
	size_t len;
	const char *txt = text_trim(e->text, &len); /* copied below, as bits */
	bool bad = false;
	if (len != high - low + 1) {
		DIAG(L, SPEC_ERROR, "pattern-length", e->text_loc,
		     "<pattern> has %zu characters for %u bits (%u..%u)", len,
		     high - low + 1, low, high);
		bad = true;
	}
	for (size_t i = 0; !bad && i < len; i++)
		if (txt[i] != '0' && txt[i] != '1' && txt[i] != 'x') {
			DIAG(L, SPEC_ERROR, "pattern-char", e->text_loc,
			     "<pattern> may hold only 0, 1 and x, not '%c'", txt[i]);
			bad = true;
		}
	unsigned nw = bits_words(b->size);
	uint64_t m[BITS_MAX_WORDS];
	if (ancestors) {
		memset(m, 0, nw * sizeof *m);
		bits_set_range(m, low, high);
		report_ancestor_clash(L, n, e, m, ancestors);
	}
	for (unsigned bit = low; bit <= high; bit++) {
		if ((defined[bit / 64] >> (bit % 64)) & 1u) {
			char r[128];
			memset(m, 0, nw * sizeof *m);
			bits_set_range(m, low, high);
			for (unsigned i = 0; i < nw; i++)
				m[i] &= defined[i];
			bits_format_ranges(m, b->size, r, sizeof r);
			DIAG(L, SPEC_ERROR, "bits-redefined", e->loc,
			     "<pattern> of '%s' redefines bits %s", b->name, r);
			break; /* reported once, and kept (see build_field) */
		}
	}
	spec_pattern *sp = arena_alloc(L->a, sizeof *sp);
	char *bits = arena_alloc(L->a, high - low + 2);
	if (!sp || !bits)
		return;
	for (unsigned i = 0; i <= high - low; i++)
		bits[i] = bad ? 'x' : txt[i];
	*sp = (spec_pattern){low, high, bits, e->loc};
	vec_push(patterns, sp);
	for (unsigned bit = low; bit <= high; bit++) {
		/* A malformed pattern is reported above and then matches as x:
		 * its bits are accounted for and constrain nothing. */
		char c = bits[high - bit];
		uint64_t one = (uint64_t)1 << (bit % 64);
		mask[bit / 64] |= one;
		defined[bit / 64] |= one;
		if (c == '1')
			match[bit / 64] |= one;
		else if (c == 'x')
			dontcare[bit / 64] |= one;
	}
}

static void finish_case(loader *L, spec_case *c, case_build *cb, unsigned nw)
{
	c->fields = NULL;
	c->nfields = cb->fields.n;
	/* sized exactly: most leaves have no fields of their own, and a
	 * field is 144 bytes (an empty list is a small block all the same) */
	spec_field *fs = arena_alloc(L->a, cb->fields.n * sizeof *fs);
	for (size_t i = 0; fs && i < cb->fields.n; i++)
		fs[i] = *(spec_field *)cb->fields.v[i];
	c->fields = fs;
	if (!fs)
		c->nfields = 0;
	c->display = cb->display;
	c->display_loc = cb->display_loc;
	c->field_mask = (spec_bits){cb->mask, nw};
	free(cb->fields.v);
}

static void take_display(loader *L, const xml_elem *e, case_build *cb)
{
	/* Several <display>: the last wins, as in Mesa. */
	cb->display = splice_templates(L, e, text_strip(L->a, e->text));
	cb->display_loc = e->loc;
}

static void gen_attr(loader *L, const xml_elem *g, const char *attr, uint32_t *v,
                     bool *given)
{
	uint64_t x;
	if (xml_attr_get(g, attr) && get_uint(L, g, attr, UINT32_MAX, &x)) {
		*v = (uint32_t)x;
		*given = true;
	}
}

static void build_bitset(loader *L, bnode *n)
{
	spec_bitset *b = n->b;
	const spec_bitset *p = b->parent;
	unsigned nw = bits_words(b->size);
	const xml_elem *e = n->e;

	/* Generations: unspecified bounds inherit the parent's. */
	spec_gen pg = p ? p->gen : (spec_gen){0, UINT32_MAX};
	bool gmin = false, gmax = false;
	spec_gen own = pg;
	const xml_elem *gen_el = NULL;
	for (const xml_elem *c = e->first; c; c = c->next)
		if (c->kind == EL_GEN) {
			gen_attr(L, c, "min", &own.min, &gmin);
			gen_attr(L, c, "max", &own.max, &gmax);
			gen_el = c;
		}
	b->has_gen = gen_el != NULL;
	b->gen_own = own;
	b->gen = (spec_gen){own.min > pg.min ? own.min : pg.min,
	                    own.max < pg.max ? own.max : pg.max};
	if (gen_el && own.min > own.max) {
		DIAG(L, SPEC_ERROR, "gen-invalid", gen_el->loc,
		     "<gen> of '%s' has min %u above max %u", b->name, own.min, own.max);
	} else if (gen_el && p && ((gmin && own.min < pg.min) || (gmax && own.max > pg.max))) {
		DIAG(L, SPEC_ERROR, "gen-widen", gen_el->loc,
		     "<gen> of '%s' (%u..%u) widens its parent '%s' (%u..%u); a child may "
		     "only narrow", b->name, own.min, own.max, p->name, pg.min, pg.max);
	}

	/* The bit vectors the model keeps of this bitset, in one block (a
	 * block each doubled a 64-bit root's), and the working sets on the
	 * stack: own_defined holds the bits its default case and patterns
	 * define, anc those its ancestors define. */
	uint64_t *kept = bits_new(L->a, 8 * nw);
	if (!kept)
		return;
	uint64_t *match = kept, *mask = kept + nw, *dc = kept + 2 * nw;
	uint64_t own_defined[BITS_MAX_WORDS], anc_bits[BITS_MAX_WORDS];
	memset(own_defined, 0, nw * sizeof *own_defined);

	/* Cases: overrides in order, then the default. */
	size_t nover = 0;
	for (const xml_elem *c = e->first; c; c = c->next)
		nover += c->kind == EL_OVERRIDE;
	spec_case *cases = arena_alloc(L->a, (nover + 1) * sizeof *cases);
	if (!cases)
		return;
	case_build def = {.mask = kept + 3 * nw};
	uint64_t *anc = p ? anc_bits : NULL;
	for (unsigned i = 0; anc && i < nw; i++)
		anc[i] = p->mask.w[i] | p->field_mask.w[i];
	unsigned assert_no = 0;
	size_t k = 0;
	ptrvec patterns = {0};
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (c->kind == EL_FIELD || c->kind == EL_DERIVED ||
		    c->kind == EL_ASSERT)
			build_field(L, n, c, &def, own_defined, anc, false, &assert_no);
		else if (c->kind == EL_PATTERN)
			build_pattern(L, n, c, own_defined, anc, match, mask, dc, &patterns);
		else if (c->kind == EL_DISPLAY)
			take_display(L, c, &def);
	}
	/* Merged patterns of the ancestors and this bitset, for override checks. */
	uint64_t pat[BITS_MAX_WORDS];
	for (unsigned i = 0; i < nw; i++)
		pat[i] = mask[i] | (p ? p->mask.w[i] : 0);
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (c->kind != EL_OVERRIDE)
			continue;
		spec_case *sc = &cases[k++];
		sc->loc = c->loc;
		get_expr(L, c, &sc->expr, &sc->expr_name);
		case_build cb = {.mask = bits_new(L->a, nw)};
		uint64_t defined[BITS_MAX_WORDS];
		if (!cb.mask)
			return;
		memcpy(defined, pat, nw * sizeof *defined);
		for (const xml_elem *f = c->first; f; f = f->next) {
			if (f->kind == EL_FIELD || f->kind == EL_DERIVED ||
			    f->kind == EL_ASSERT)
				build_field(L, n, f, &cb, defined, NULL, true, &assert_no);
			else if (f->kind == EL_DISPLAY)
				take_display(L, f, &cb);
			else if (f->kind == EL_PATTERN)
				DIAG(L, SPEC_WARNING, "override-pattern", f->loc,
				     "<pattern> inside <override> of '%s' is ignored (by Mesa too): "
				     "overrides cannot change matching, and these bits count as undefined",
				     b->name);
		}
		finish_case(L, sc, &cb, nw);
	}
	spec_case *dcase = &cases[k++];
	dcase->loc = e->loc;
	finish_case(L, dcase, &def, nw);
	b->cases = cases;
	b->ncases = k;

	spec_pattern *pats = arena_alloc(L->a, patterns.n * sizeof *pats);
	for (size_t i = 0; pats && i < patterns.n; i++)
		pats[i] = *(spec_pattern *)patterns.v[i];
	b->patterns = pats;
	b->npatterns = pats ? patterns.n : 0;
	free(patterns.v);
	b->own_match = (spec_bits){match, nw};
	b->own_mask = (spec_bits){mask, nw};
	b->own_dontcare = (spec_bits){dc, nw};
	uint64_t *mm = kept + 4 * nw, *mk = kept + 5 * nw, *md = kept + 6 * nw, *mf = kept + 7 * nw;
	for (unsigned i = 0; i < nw; i++) {
		mm[i] = match[i] | (p ? p->match.w[i] : 0);
		mk[i] = mask[i] | (p ? p->mask.w[i] : 0);
		md[i] = dc[i] | (p ? p->dontcare.w[i] : 0);
		mf[i] = def.mask[i] | (p ? p->field_mask.w[i] : 0);
	}
	b->match = (spec_bits){mm, nw};
	b->mask = (spec_bits){mk, nw};
	b->dontcare = (spec_bits){md, nw};
	b->field_mask = (spec_bits){mf, nw};

	/* Metadata. */
	size_t nmeta = 0, nmaps = 0;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (c->kind == EL_META)
			nmeta += c->nattrs;
		if (c->kind == EL_ENCODE)
			for (const xml_elem *m = c->first; m; m = m->next)
				nmaps += m->kind == EL_MAP;
	}
	spec_meta *meta = arena_alloc(L->a, nmeta * sizeof *meta);
	spec_encode_map *maps = arena_alloc(L->a, nmaps * sizeof *maps);
	if (!meta || !maps)
		return;
	nmeta = nmaps = 0;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (c->kind == EL_META)
			for (unsigned i = 0; i < c->nattrs; i++)
				meta[nmeta++] = (spec_meta){c->attrs[i].name, c->attrs[i].value};
		else if (c->kind == EL_DECODE)
			b->has_decode = true;
		else if (c->kind == EL_DOC && !b->doc)
			b->doc = text_strip(L->a, c->text);
		else if (c->kind == EL_ENCODE) {
			b->has_encode = true;
			b->encode_type = xml_attr_get(c, "type");
			b->encode_case_prefix = xml_attr_get(c, "case-prefix");
			for (const xml_elem *m = c->first; m; m = m->next) {
				if (m->kind != EL_MAP)
					continue;
				const char *force = xml_attr_get(m, "force");
				maps[nmaps++] = (spec_encode_map){
					xml_attr_get(m, "name"), text_strip(L->a, m->text),
					force && !strcmp(force, "true"), m->loc};
			}
		}
	}
	b->meta = meta;
	b->nmeta = nmeta;
	b->maps = maps;
	b->nmaps = nmaps;
	n->built = true;
}

/* The generation range a bitset writes, read quietly (build_bitset
 * reports bad values later). */
static spec_gen raw_gen(const xml_elem *e)
{
	spec_gen g = {0, UINT32_MAX};
	for (const xml_elem *c = e->first; c; c = c->next) {
		uint64_t v;
		if (c->kind != EL_GEN)
			continue;
		if (text_parse_uint(xml_attr_get(c, "min"), UINT32_MAX, &v))
			g.min = (uint32_t)v;
		if (text_parse_uint(xml_attr_get(c, "max"), UINT32_MAX, &v))
			g.max = (uint32_t)v;
	}
	return g;
}

/* A name defined more than once is either a set of per-generation
 * variants (disjoint gen ranges) or a plain redefinition.  When some
 * bitset extends a redefined name, Mesa's later definition wins: report
 * it, keep only the last, and let the children extend that one.  Names
 * nobody extends stay as they are; lint judges them (variant-gen-overlap
 * or duplicate-name), and extending true variants is extends-variant. */
static void resolve_duplicates(loader *L)
{
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *first = L->bnodes.v[i];
		size_t idx;
		if (!first->next_same || !map_get(&L->bitset_map, first->b->name, &idx) ||
		    L->bnodes.v[idx] != first)
			continue;
		bool extended = false;
		for (size_t k = 0; k < L->bnodes.n && !extended; k++) {
			const char *ext = xml_attr_get(((bnode *)L->bnodes.v[k])->e, "extends");
			extended = ext && !strcmp(ext, first->b->name);
		}
		if (!extended)
			continue;
		bool disjoint = true;
		for (bnode *a = first; a && disjoint; a = a->next_same)
			for (bnode *b = a->next_same; b && disjoint; b = b->next_same) {
				spec_gen ga = raw_gen(a->e), gb = raw_gen(b->e);
				disjoint = ga.max < gb.min || gb.max < ga.min;
			}
		if (disjoint)
			continue;
		bnode *last = first;
		while (last->next_same)
			last = last->next_same;
		for (bnode *a = first; a != last; a = a->next_same) {
			bnode *later = a->next_same;
			DIAG(L, SPEC_ERROR, "duplicate-name", later->e->loc,
			     "bitset '%s' is defined again (first at %s:%u); as in Mesa, the "
			     "last definition is the one used", later->b->name, first->e->loc.file,
			     first->e->loc.line);
			a->dropped = true;
		}
		for (bnode *a = first, *nx; a; a = nx) {
			nx = a->next_same;
			a->next_same = NULL;
		}
		map_put(&L->bitset_map, last->b->name, last->index);
	}
}

/* Creates a node for every <bitset> with a name; reports the rest. */
static void collect_bitsets(loader *L)
{
	for (size_t i = 0; i < L->defs.n; i++) {
		const xml_elem *e = L->defs.v[i];
		if (e->kind != EL_BITSET)
			continue;
		const char *name = xml_attr_get(e, "name");
		if (!name) {
			DIAG(L, SPEC_ERROR, "missing-attribute", e->loc, "<bitset> needs a name");
			continue;
		}
		bnode *n = arena_alloc(L->a, sizeof *n);
		spec_bitset *b = arena_alloc(L->a, sizeof *b);
		if (!n || !b)
			return;
		b->name = name;
		b->displayname = xml_attr_get(e, "displayname");
		b->loc = e->loc;
		n->b = b;
		n->e = e;
		n->index = L->bnodes.n;
		vec_push(&L->bnodes, n);
	}
	map_init(L->a, &L->bitset_map, L->bnodes.n);
	/* Map each name to its first definition and chain the others. */
	for (size_t i = L->bnodes.n; i-- > 0;) {
		bnode *n = L->bnodes.v[i];
		size_t idx;
		if (map_get(&L->bitset_map, n->b->name, &idx))
			n->next_same = L->bnodes.v[idx];
		map_put(&L->bitset_map, n->b->name, i);
	}
	resolve_duplicates(L);
}

/* Links parents, checks size/extends, and cuts off cycles. */
static void resolve_parents(loader *L)
{
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		const xml_elem *e = n->e;
		const char *size = xml_attr_get(e, "size"), *ext = xml_attr_get(e, "extends");
		if (n->dropped)
			continue; /* an overridden duplicate */
		if ((size != NULL) == (ext != NULL)) {
			DIAG(L, SPEC_ERROR, "size-and-extends", e->loc,
			     size ? "bitset '%s' has both size and extends; a root has size, a child extends"
			          : "bitset '%s' has neither size nor extends", n->b->name);
			n->dropped = true;
			continue;
		}
		if (size) {
			uint64_t s;
			if (!get_uint(L, e, "size", UINT32_MAX, &s)) {
				n->dropped = true;
			} else if (s == 0 || s > SPEC_MAX_BITS) {
				DIAG(L, SPEC_ERROR, "size-invalid", attr_loc(e, "size"),
				     "bitset '%s' has size %llu; sizes run from 1 to %u bits",
				     n->b->name, (unsigned long long)s, SPEC_MAX_BITS);
				n->dropped = true;
			} else {
				n->b->size = (unsigned)s;
			}
			continue;
		}
		bnode *t = bnode_by_name(L, ext);
		if (!t) {
			DIAG(L, SPEC_ERROR, "extends-unknown", attr_loc(e, "extends"),
			     "bitset '%s' extends '%s', which is not defined", n->b->name, ext);
			n->dropped = true;
		} else if (t->next_same) {
			DIAG(L, SPEC_ERROR, "extends-variant", attr_loc(e, "extends"),
			     "bitset '%s' extends '%s', a name defined more than once "
			     "(lines %u and %u); a parent must be unique", n->b->name, ext,
			     t->e->loc.line, t->next_same->e->loc.line);
			n->dropped = true;
		} else {
			n->parent = t;
		}
	}
	/* Cycles: follow parents with a per-start stamp. */
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		unsigned stamp = (unsigned)i + 1;
		bnode *q = n;
		while (q && !q->visit && !q->dropped) {
			q->visit = stamp;
			q = q->parent;
		}
		if (q && q->visit == stamp && !q->dropped) {
			/* q is on a cycle: report it once, at its earliest member. */
			bnode *first = q;
			size_t len = 0;
			bnode *r = q;
			do {
				if (r->index < first->index)
					first = r;
				len++;
				r = r->parent;
			} while (r != q);
			char chain[512];
			size_t used = 0;
			r = first;
			do {
				int w = snprintf(chain + used, sizeof chain - used, "%s -> ", r->b->name);
				if (w < 0 || (size_t)w >= sizeof chain - used)
					break;
				used += (size_t)w;
				r = r->parent;
			} while (r != first);
			snprintf(chain + used, sizeof chain - used, "%s", first->b->name);
			DIAG(L, SPEC_ERROR, "extends-cycle", first->e->loc,
			     "bitsets extend each other in a cycle: %s", chain);
			r = q;
			for (size_t j = 0; j < len; j++) {
				r->dropped = true;
				r = r->parent;
			}
		}
	}
	/* Anything hanging from a dropped bitset has no root: drop it too.
	 * Depth is computed without recursion, so long chains are safe. */
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		size_t up = 0;
		bnode *q = n;
		while (q->parent && !q->dropped && !q->depth) {
			q = q->parent;
			up++;
		}
		bool dead = q->dropped;
		unsigned base = q->depth;
		for (bnode *r = n; r != q; r = r->parent) {
			r->dropped |= dead;
			r->depth = base + (unsigned)up--;
		}
	}
	/* A chain longer than the codec walks would be cut there: the decoder
	 * would lose the root's display and fields while the proofs, which
	 * read the merged masks, said nothing.  A budget, not a finding. */
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (!n->dropped && n->depth >= SPEC_MAX_CHAIN) {
			DIAG(L, SPEC_FATAL, "chain-too-deep", n->b ? n->b->loc : n->e->loc,
			     "this bitset is %u extends below its root; at most %u are allowed",
			     n->depth, SPEC_MAX_CHAIN - 1);
			L->too_deep = true;
			break;
		}
	}
}

static int by_depth(const void *pa, const void *pb)
{
	const bnode *a = *(bnode *const *)pa, *b = *(bnode *const *)pb;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static void build_bitsets(loader *L)
{
	bnode **order = malloc((L->bnodes.n ? L->bnodes.n : 1) * sizeof *order);
	if (!order)
		return;
	if (L->bnodes.n)
		memcpy(order, L->bnodes.v, L->bnodes.n * sizeof *order);
	qsort(order, L->bnodes.n, sizeof *order, by_depth);
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = order[i];
		if (n->dropped)
			continue;
		if (n->parent) {
			if (!n->parent->built) {
				n->dropped = true;
				continue;
			}
			n->b->parent = n->parent->b;
			n->b->root = n->parent->b->root;
			n->b->size = n->parent->b->size;
			n->parent->has_child = true;
		} else {
			n->b->root = n->b;
		}
		build_bitset(L, n);
		if (!n->built)
			n->dropped = true;
	}
	free(order);
}

/* A leaf must account for every bit. */
static void check_leaf_bits(loader *L)
{
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (n->dropped || n->has_child)
			continue;
		spec_bitset *b = n->b;
		unsigned nw = bits_words(b->size);
		uint64_t u[BITS_MAX_WORDS];
		bool any = false;
		for (unsigned w = 0; w < nw; w++) {
			u[w] = ~(b->mask.w[w] | b->field_mask.w[w]);
			if (w == nw - 1 && b->size % 64)
				u[w] &= ((uint64_t)1 << (b->size % 64)) - 1;
			any |= u[w] != 0;
		}
		if (any) {
			char r[160];
			bits_format_ranges(u, b->size, r, sizeof r);
			DIAG(L, SPEC_ERROR, "undefined-bits", b->loc,
			     "leaf '%s' leaves bits %s undefined: declare them as a pattern "
			     "(0, 1 or x), a field or an assert", b->name, r);
		}
	}
}

/* ---------------------------------------------------------- assembly */

static const void **freeze(arena *a, ptrvec *v)
{
	const void **out = arena_alloc(a, (v->n ? v->n : 1) * sizeof *out);
	if (out && v->n)
		memcpy(out, v->v, v->n * sizeof *out);
	return out;
}

static spec_model *assemble(loader *L, const char *path)
{
	spec_model *m = arena_alloc(L->a, sizeof *m);
	if (!m)
		return NULL;
	m->path = arena_strdup(L->a, path);
	m->files = (const char *const *)freeze(L->a, &L->files);
	m->nfiles = L->files.n;

	ptrvec live = {0}, roots = {0};
	for (size_t i = 0; i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (n->dropped)
			continue;
		n->b->index = (unsigned)live.n;
		vec_push(&live, n->b);
		if (!n->parent)
			vec_push(&roots, n);
	}
	/* Children lists. */
	size_t *nkids = calloc(L->bnodes.n + 1, sizeof *nkids);
	for (size_t i = 0; nkids && i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (!n->dropped && n->parent)
			nkids[n->parent->index]++;
	}
	for (size_t i = 0; nkids && i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (n->dropped || !nkids[i])
			continue;
		n->b->children = arena_alloc(L->a, nkids[i] * sizeof(spec_bitset *));
	}
	for (size_t i = 0; nkids && i < L->bnodes.n; i++) {
		bnode *n = L->bnodes.v[i];
		if (n->dropped || !n->parent || !n->parent->b->children)
			continue;
		spec_bitset *pb = n->parent->b;
		((const spec_bitset **)pb->children)[pb->nchildren++] = n->b;
	}
	free(nkids);
	m->bitsets = (const spec_bitset *const *)freeze(L->a, &live);
	m->nbitsets = live.n;

	spec_root *rs = arena_alloc(L->a, (roots.n ? roots.n : 1) * sizeof *rs);
	for (size_t r = 0; rs && r < roots.n; r++) {
		bnode *rn = roots.v[r];
		ptrvec leaves = {0};
		for (size_t i = 0; i < live.n; i++) {
			spec_bitset *b = live.v[i];
			if (b->root == rn->b && !b->nchildren)
				vec_push(&leaves, b);
		}
		rs[r].bitset = rn->b;
		rs[r].leaves = (const spec_bitset *const *)freeze(L->a, &leaves);
		rs[r].nleaves = leaves.n;
		free(leaves.v);
		if (rn->b->size > m->bitsize)
			m->bitsize = rn->b->size;
	}
	m->roots = rs;
	m->nroots = rs ? roots.n : 0;
	free(live.v);
	free(roots.v);

	spec_enum *en = arena_alloc(L->a, (L->enums.n ? L->enums.n : 1) * sizeof *en);
	for (size_t i = 0; en && i < L->enums.n; i++)
		en[i] = *(spec_enum *)L->enums.v[i];
	m->enums = en;
	m->nenums = en ? L->enums.n : 0;
	spec_named_expr *ex = arena_alloc(L->a, (L->exprs.n ? L->exprs.n : 1) * sizeof *ex);
	for (size_t i = 0; ex && i < L->exprs.n; i++)
		ex[i] = *(spec_named_expr *)L->exprs.v[i];
	m->exprs = ex;
	m->nexprs = ex ? L->exprs.n : 0;
	spec_template *tp = arena_alloc(L->a, (L->templates.n ? L->templates.n : 1) * sizeof *tp);
	for (size_t i = 0; tp && i < L->templates.n; i++)
		tp[i] = *(spec_template *)L->templates.v[i];
	m->templates = tp;
	m->ntemplates = tp ? L->templates.n : 0;
	return m;
}

/* Fields point at enums by address; move them to the model's copies. */
static void repoint_enums(loader *L, spec_model *m)
{
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				spec_field *fl = (spec_field *)&b->cases[c].fields[f];
				for (size_t k = 0; fl->enm && k < L->enums.n; k++)
					if (fl->enm == L->enums.v[k]) {
						fl->enm = &m->enums[k];
						break;
					}
			}
	}
}

static void free_exprs(ptrvec *exprs)
{
	for (size_t i = 0; i < exprs->n; i++)
		spec_expr_free((spec_expr *)((spec_named_expr *)exprs->v[i])->expr);
}

static void loader_release(loader *L)
{
	for (size_t i = 0; i < L->realpaths.n; i++)
		free(L->realpaths.v[i]);
	free(L->files.v);
	free(L->realpaths.v);
	free(L->stack.v);
	free(L->defs.v);
	free(L->bnodes.v);
	free(L->enums.v);
	free(L->exprs.v);
	free(L->templates.v);
	free(L->root_real);
}

static char *dir_of(arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return arena_strdup(a, ".");
	if (slash == path)
		return arena_strdup(a, "/");
	return arena_strndup(a, path, (size_t)(slash - path));
}

static spec_model *load_common(const char *path, const char *data, size_t len,
                               const char *base_dir, const spec_load_options *opt,
                               spec_diags *diags)
{
	struct spec_model_private *priv = calloc(1, sizeof *priv);
	if (!priv) {
		spec_diag_add(diags, SPEC_FATAL, "out-of-memory", (spec_loc){path, 0, 0},
		              "out of memory before reading the file");
		return NULL;
	}
	spec_limits lim = spec_limits_for(opt ? opt->max_bytes : 0);
	priv->arena.limit = lim.model_bytes;
	loader L = {.a = &priv->arena, .diags = diags, .budget = lim.elements,
	            .bytes_left = lim.total_bytes, .display_left = lim.display_bytes, .lim = lim};
	L.base_dir = base_dir ? arena_strdup(L.a, base_dir) : dir_of(L.a, path);
	L.opt = opt;
	L.root_real = L.base_dir ? realpath(L.base_dir, NULL) : NULL;
	bool ok;
	if (data) {
		char *real = strdup(path);
		ok = real && load_tree(&L, arena_strdup(L.a, path), (char *)data, len, real, false);
	} else {
		ok = load_file(&L, path, (spec_loc){path, 0, 0}, false);
	}
	spec_model *m = NULL;
	if (ok && !L.a->failed) {
		size_t ndefs = L.defs.n, nkind[EL_NKINDS] = {0};
		for (size_t i = 0; i < ndefs; i++)
			nkind[((const xml_elem *)L.defs.v[i])->kind]++;
		/* each map as large as the definitions that can go in it: sized
		 * by every definition, three maps of 65,536 bitsets' spec took
		 * 12 MiB that no one used */
		map_init(L.a, &L.enum_map, nkind[EL_ENUM]);
		map_init(L.a, &L.expr_map, nkind[EL_EXPR]);
		map_init(L.a, &L.template_map, nkind[EL_TEMPLATE]);
		for (size_t i = 0; i < ndefs; i++) {
			const xml_elem *e = L.defs.v[i];
			if (e->kind == EL_EXPR)
				add_expr(&L, e, xml_attr_get(e, "name"));
			else if (e->kind == EL_ENUM)
				build_enum(&L, e);
			else if (e->kind == EL_TEMPLATE)
				build_template(&L, e);
		}
		collect_bitsets(&L);
		resolve_parents(&L);
		if (L.too_deep)
			goto unusable;
		build_bitsets(&L);
		if (L.too_long)
			goto unusable;
		check_leaf_bits(&L);
		m = assemble(&L, path);
		if (m) {
			repoint_enums(&L, m);
			m->priv = priv;
			spec_frame_load(m, L.a, (const xml_elem *const *)L.defs.v, L.defs.n, diags);
		}
	}
unusable:
	if (!m || L.a->failed) {
		if (L.a->failed)
			spec_diag_add(diags, SPEC_FATAL, "out-of-memory", (spec_loc){path, 0, 0},
			              L.a->bytes + (64u << 20) > lim.model_bytes
			              ? "the model needs more than its budget of %zu MiB"
			              : "out of memory building the model (%zu MiB held)",
			              (L.a->bytes + (64u << 20) > lim.model_bytes
			               ? lim.model_bytes : L.a->bytes) >> 20);
		free_exprs(&L.exprs);
		loader_release(&L);
		spec_frame_free(priv);
		arena_free(&priv->arena);
		free(priv);
		return NULL;
	}
	loader_release(&L);
	if (!opt || !opt->skip_lint)
		spec_lint_model(m, diags);
	return m;
}

spec_model *spec_load(const char *path, spec_diags *diags)
{
	return load_common(path, NULL, 0, NULL, NULL, diags);
}

spec_model *spec_load_with(const char *path, const spec_load_options *opt, spec_diags *diags)
{
	return load_common(path, NULL, 0, NULL, opt, diags);
}

spec_model *spec_load_buffer(const char *name, const char *data, size_t len,
                             const char *base_dir, spec_diags *diags)
{
	return load_common(name, data, len, base_dir ? base_dir : ".", NULL, diags);
}
