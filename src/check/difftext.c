/*
 * difftext.c - what an edit does to the printed text (check.h, section
 * "diff", diff_texts).
 *
 * diff.c proves which leaf every word decodes to on both sides; this file
 * proves what the words that decode to the same leaf print.  A leaf's
 * printing is a function of what its chain (the leaf and its ancestors)
 * says: every case's condition and display, every field's bits, type,
 * format, params and derived expression, the display string of every
 * enum value it can print, and, for a bitset-typed field, how that root's
 * own leaves print.  We list those as components (a key, a value, an XML
 * place), canonical: templates are already spliced in, enums and named
 * expressions are compared by content, not by name, and expression text
 * without its spaces.  Equal components on both sides make equal text
 * for every word: the structural proof, which is what an unchanged leaf
 * gets, whatever the XML around it did (comments, spaces, moved lines).
 *
 * Where components differ, the difference either cannot be reached (an
 * enum value the field's bits can never hold inside the leaf's pattern:
 * the cube engine's proof), or is shown by a witness: a word that decodes
 * to the leaf on both sides and prints two different lines, found among
 * candidates aimed at what changed (the changed enum values, words of
 * the changed sub-bitset's leaves placed in the field, every field at 0,
 * 1 and its maximum, single bits, seeded random fills) and confirmed by
 * the real disassemblers (diff_codec_ops).  A leaf with few free bits is
 * enumerated outright: an exact count, or a proof of equal text.  A
 * difference neither proved away nor shown is reported as unknown, never
 * as equal.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Leaves with at most this many free bits are enumerated word by word. */
#define TEXT_EXHAUSTIVE_BITS 16u
/* Candidate words tried per leaf pair before giving up. */
#define TEXT_MAX_CANDIDATES 6000u
/* Sub-bitset words placed into a field, per sub-root. */
#define TEXT_MAX_SUBWORDS 48u

/* Names a parent passes into a sub-bitset with known constant values
 * (ir3's HAS_TYPE = #false): override conditions over them alone are
 * decided, so a case that never applies cannot change the text. */
#define TEXT_MAX_CONSTS 8
typedef struct const_env {
	const char *name[TEXT_MAX_CONSTS];
	int64_t val[TEXT_MAX_CONSTS];
	size_t n;
} const_env;

static bool env_equal(const const_env *a, const const_env *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->name[i], b->name[i]) || a->val[i] != b->val[i])
			return false;
	return true;
}

static bool env_lookup(void *ctx, const char *name, unsigned depth, int64_t *value, char *err,
                       size_t errlen)
{
	const const_env *e = ctx;
	(void)depth;
	for (size_t i = 0; e && i < e->n; i++)
		if (!strcmp(e->name[i], name)) {
			*value = e->val[i];
			return true;
		}
	snprintf(err, errlen, "not constant");
	return false;
}

/* Evaluates x when every name it reads is in env (and not the gen). */
static bool env_eval(const spec_expr *x, const const_env *env, int64_t *v)
{
	if (!x || spec_expr_uses_gpu_id(x))
		return false;
	char err[64];
	spec_eval_env e = {.lookup = env_lookup, .ctx = (void *)env};
	return spec_expr_eval(x, &e, v, err, sizeof err);
}

/* The value of name in leaf's scope when it is a constant: a derived
 * field with an expression of no inputs, the leaf-most definition, in a
 * default case, and no override anywhere on the chain defines it. */
static bool leaf_constant(const spec_bitset *leaf, const char *name, int64_t *v)
{
	const spec_field *first = NULL;
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++)
				if (!strcmp(b->cases[c].fields[f].name, name)) {
					if (b->cases[c].expr)
						return false;
					if (!first)
						first = &b->cases[c].fields[f];
				}
	if (!first || first->kind != SPEC_DERIVED || !first->expr ||
	    spec_expr_ref_count(first->expr))
		return false;
	return env_eval(first->expr, NULL, v);
}

/* The constants field f of leaf passes to its sub-bitset; names the
 * leaf itself got as constants (env) pass on. */
static void params_env(const spec_bitset *leaf, const spec_field *f, const const_env *env,
                       const_env *out)
{
	out->n = 0;
	for (size_t p = 0; p < f->nparams && out->n < TEXT_MAX_CONSTS; p++) {
		int64_t v;
		bool known = leaf_constant(leaf, f->params[p].name, &v);
		for (size_t i = 0; !known && env && i < env->n; i++)
			if (!strcmp(env->name[i], f->params[p].name)) {
				v = env->val[i];
				known = true;
			}
		if (known) {
			out->name[out->n] = f->params[p].as ? f->params[p].as : f->params[p].name;
			out->val[out->n++] = v;
		}
	}
}

/* One thing a leaf's printing depends on. */
typedef struct tcomp {
	char *key;        /* canonical: pairs components across the sides */
	char *what;       /* for people: "enum value 2 of field COND" */
	char *val;        /* canonical value */
	spec_loc loc;
	/* for the cube proof: an enum value of a field read from the word */
	const spec_field *field;
	int64_t enum_val;
	bool is_enum_value;
	const spec_bitset *subroot; /* a bitset field's root (val is its name) */
	const char *fname;          /* the field it belongs to; NULL: the case's own */
	bool is_field_bits;         /* a field's bits and type (field is set) */
	const char *param_as;       /* a <param>'s name inside the sub-bitset */
	const spec_expr *expr;      /* an override condition or a derived field's expression */
	bool is_condition;          /* expr is an override condition (matters by its truth) */
	const spec_case *sc;        /* the case it belongs to; NULL: the leaf's */
	const_env env;              /* a sub-bitset field's: the constants it passes */
} tcomp;

typedef struct tsig {
	tcomp *v;
	size_t n, cap;
	bool oom;
} tsig;

static tcomp *sig_add(tsig *s, spec_loc loc, char *key, char *what, char *val)
{
	if (!key || !what || !val || s->oom) {
		free(key);
		free(what);
		free(val);
		s->oom = true;
		return NULL;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		tcomp *v = realloc(s->v, cap * sizeof *v);
		if (!v) {
			free(key);
			free(what);
			free(val);
			s->oom = true;
			return NULL;
		}
		s->v = v;
		s->cap = cap;
	}
	tcomp *c = &s->v[s->n++];
	*c = (tcomp){.key = key, .what = what, .val = val, .loc = loc};
	return c;
}

static void sig_free(tsig *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].what);
		free(s->v[i].val);
	}
	free(s->v);
	*s = (tsig){0};
}

static int comp_cmp(const void *a, const void *b)
{
	return strcmp(((const tcomp *)a)->key, ((const tcomp *)b)->key);
}

/* Expression text without blanks: "{A} == 1" and "{A}==1" are one. */
static char *canon_expr(const spec_expr *x)
{
	const char *t = x ? spec_expr_text(x) : "";
	char *s = malloc(strlen(t) + 1);
	if (!s)
		return NULL;
	size_t o = 0;
	for (; *t; t++)
		if (*t != ' ' && *t != '\t' && *t != '\n' && *t != '\r')
			s[o++] = *t;
	s[o] = 0;
	return s;
}

/* Whether a display prints the leaf's name: {NAME}, and as Mesa reads
 * it, any prefix of it ({N}, {NA}, {NAM}, {}), with or without :align. */
static bool display_prints_name(const char *d)
{
	for (const char *p = d ? strchr(d, '{') : NULL; p; p = strchr(p + 1, '{')) {
		size_t n = strcspn(p + 1, "}:");
		if (p[1 + n] && n <= 4 && !strncmp("NAME", p + 1, n))
			return true;
	}
	return false;
}

static const char *type_text(const spec_field *f)
{
	static const char *const names[] = {
		[SPEC_TYPE_UINT] = "uint",        [SPEC_TYPE_INT] = "int",
		[SPEC_TYPE_HEX] = "hex",          [SPEC_TYPE_BOOL] = "bool",
		[SPEC_TYPE_BOOL_INV] = "bool_inv", [SPEC_TYPE_FLOAT] = "float",
		[SPEC_TYPE_OFFSET] = "offset",    [SPEC_TYPE_UOFFSET] = "uoffset",
		[SPEC_TYPE_BRANCH] = "branch",    [SPEC_TYPE_ABSBRANCH] = "absbranch",
		[SPEC_TYPE_CUSTOM] = "custom",    [SPEC_TYPE_ENUM] = "enum",
		[SPEC_TYPE_BITSET] = "bitset",    [SPEC_TYPE_UNKNOWN] = "unknown",
	};
	return f->type <= SPEC_TYPE_UNKNOWN ? names[f->type] : "?";
}

/* The components of one field of a case (prefix: where the case is). */
static void field_comps(tsig *s, const char *pre, const char *cwhat, const spec_field *f,
                        const spec_bitset *leaf, const const_env *env)
{
	if (f->kind == SPEC_ASSERT)
		return; /* asserts print nothing without --errors; diff's fields section has them */
	const char *kind = f->kind == SPEC_DERIVED ? "derived" : "field";
	/* a custom type prints by its name (afuc's CONTROLREG) */
	const char *tname = f->type == SPEC_TYPE_CUSTOM && f->type_name ? f->type_name : "";
	if (f->kind == SPEC_DERIVED)
		sig_add(s, f->loc, spec_strdup_printf("%s.f:%s", pre, f->name),
		        spec_strdup_printf("derived field %s %s", f->name, cwhat),
		        spec_strdup_printf("derived %s%s width=%s%u", type_text(f), tname,
		                   f->has_width ? "" : "none:", f->high - f->low + 1));
	else {
		tcomp *c = sig_add(s, f->loc, spec_strdup_printf("%s.f:%s", pre, f->name),
		                   spec_strdup_printf("field %s %s", f->name, cwhat),
		                   spec_strdup_printf("%s %s%s bits %u..%u", kind, type_text(f), tname, f->low,
		                              f->high));
		if (c) {
			c->field = f;
			c->is_field_bits = true;
		}
	}
	if (f->display)
		sig_add(s, f->loc, spec_strdup_printf("%s.f:%s.display", pre, f->name),
		        spec_strdup_printf("display= of field %s %s", f->name, cwhat), strdup(f->display));
	if (f->call)
		sig_add(s, f->loc, spec_strdup_printf("%s.f:%s.call", pre, f->name),
		        spec_strdup_printf("call= of field %s %s", f->name, cwhat), strdup("true"));
	if (f->kind == SPEC_DERIVED && f->expr) {
		tcomp *c = sig_add(s, f->loc, spec_strdup_printf("%s.f:%s.expr", pre, f->name),
		                   spec_strdup_printf("expression of derived field %s %s", f->name,
		                                      cwhat),
		                   canon_expr(f->expr));
		if (c)
			c->expr = f->expr;
	}
	for (size_t p = 0; p < f->nparams; p++) {
		const spec_param *pa = &f->params[p];
		const char *as = pa->as ? pa->as : pa->name;
		tcomp *c = sig_add(s, pa->loc, spec_strdup_printf("%s.f:%s.param:%s", pre, f->name, as),
		                   spec_strdup_printf("<param> %s of field %s %s", as, f->name, cwhat),
		                   strdup(pa->name));
		if (c) {
			c->param_as = as;
			c->field = f;
			params_env(leaf, f, env, &c->env);
		}
	}
	if (f->type == SPEC_TYPE_ENUM && f->enm) {
		for (size_t v = 0; v < f->enm->nvalues; v++) {
			const spec_enum_value *ev = &f->enm->values[v];
			tcomp *c = sig_add(s, ev->loc,
			                   spec_strdup_printf("%s.f:%s.enum=%" PRId64, pre, f->name, ev->val),
			                   spec_strdup_printf("enum %s value %" PRId64, f->enm->name, ev->val),
			                   spec_strdup_printf("\"%s\"", ev->display ? ev->display : ""));
			if (c) {
				c->field = f;
				c->enum_val = ev->val;
				c->is_enum_value = f->kind == SPEC_FIELD;
			}
		}
	}
	if (f->type == SPEC_TYPE_BITSET && f->bitset) {
		tcomp *c = sig_add(s, f->loc, spec_strdup_printf("%s.f:%s.root", pre, f->name),
		                   spec_strdup_printf("sub-bitset of field %s %s", f->name, cwhat),
		                   strdup(f->bitset->name));
		if (c) {
			c->subroot = f->bitset;
			c->field = f;
			params_env(leaf, f, env, &c->env);
		}
	}
}

/* A set of names, each a pointer into the model (a field's name, or a
 * {NAME} inside a display) and a length. */
typedef struct nameset {
	const char **v;
	size_t *len;
	size_t n, cap;
	bool oom;
} nameset;

static bool nameset_has(const nameset *ns, const char *name, size_t len)
{
	for (size_t i = 0; i < ns->n; i++)
		if (ns->len[i] == len && !strncmp(ns->v[i], name, len))
			return true;
	return false;
}

static void nameset_add_n(nameset *ns, const char *name, size_t len)
{
	if (nameset_has(ns, name, len))
		return;
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? 2 * ns->cap : 16;
		const char **v = realloc(ns->v, cap * sizeof *v);
		if (v)
			ns->v = v;
		size_t *l = v ? realloc(ns->len, cap * sizeof *l) : NULL;
		if (!v || !l) {
			ns->oom = true;
			return;
		}
		ns->len = l;
		ns->cap = cap;
	}
	ns->v[ns->n] = name;
	ns->len[ns->n++] = len;
}

static void nameset_add(nameset *ns, const char *name)
{
	nameset_add_n(ns, name, strlen(name));
}

static void nameset_free(nameset *ns)
{
	free(ns->v);
	free(ns->len);
	*ns = (nameset){0};
}

/* The names a display's {NAME}s read (as written: fields, derived
 * fields, names passed in by a param). */
static void display_uses(nameset *ns, const char *d)
{
	for (const char *p = d ? strchr(d, '{') : NULL; p; p = strchr(p + 1, '{')) {
		size_t n = strcspn(p + 1, "}:");
		if (p[1 + n])
			nameset_add_n(ns, p + 1, n);
	}
}

static void expr_uses(nameset *ns, const spec_expr *x)
{
	for (size_t i = 0; x && i < spec_expr_ref_count(x); i++)
		nameset_add(ns, spec_expr_ref(x, i));
}

/* Keeps the components that can reach the printed line: the displays
 * the leaf can print with (every override's, and the first default one
 * from the leaf up), the fields they name, and, closed over, what those
 * fields read (derived expressions, params) and what every override
 * condition reads.  A field nothing prints cannot change the text. */
/* Whether a case can never apply: an override whose condition reads
 * only constants and is false. */
static bool case_dead(const spec_case *sc, const const_env *env)
{
	int64_t v;
	return sc && sc->expr && env && env->n && env_eval(sc->expr, env, &v) && !v;
}

/* Answers of sub_reads already found: every leaf pair asks the same few
 * (ir3's #multisrc reads HALF?) many times. */
typedef struct reads_entry {
	const spec_bitset *root;
	const char *name;
	const_env env;
	bool reads;
} reads_entry;

typedef struct reads_cache {
	reads_entry *v;
	size_t n, cap;
} reads_cache;

static bool sub_reads(reads_cache *rc, const spec_bitset *root, const char *name,
                      const const_env *env, unsigned depth);

/* What the printing of leaf reads, closed over: the names of the
 * displays it can print with and of every live override condition, and
 * what the fields of those names read in turn (derived expressions; the
 * sources of the params a sub-bitset reads). */
static void printed_names(reads_cache *rc, nameset *ns, const spec_bitset *leaf,
                          const const_env *env, unsigned depth)
{
	bool default_seen = false;
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_case *sc = &b->cases[c];
			if (case_dead(sc, env))
				continue;
			expr_uses(ns, sc->expr);
			if (sc->display && (sc->expr || !default_seen))
				display_uses(ns, sc->display);
			if (sc->display && !sc->expr)
				default_seen = true;
		}
	for (size_t i = 0; i < ns->n; i++) /* the set grows as it is walked */
		for (const spec_bitset *b = leaf; b; b = b->parent)
			for (size_t c = 0; c < b->ncases; c++)
				for (size_t f = 0; f < b->cases[c].nfields; f++) {
					const spec_field *fl = &b->cases[c].fields[f];
					if (strlen(fl->name) != ns->len[i] ||
					    strncmp(fl->name, ns->v[i], ns->len[i]) || case_dead(&b->cases[c], env))
						continue;
					if (fl->kind == SPEC_DERIVED)
						expr_uses(ns, fl->expr);
					const_env penv;
					params_env(leaf, fl, env, &penv);
					for (size_t p = 0; p < fl->nparams; p++) {
						const char *as = fl->params[p].as ? fl->params[p].as : fl->params[p].name;
						if (!fl->bitset || sub_reads(rc, fl->bitset, as, &penv, depth + 1))
							nameset_add(ns, fl->params[p].name);
					}
				}
}

/* Whether some leaf of root, printed with the constants env, reads name
 * (deeper than 4 sub-bitsets: assumed to). */
static bool sub_reads_below(reads_cache *rc, const spec_bitset *b, const char *name,
                            const const_env *env, unsigned depth)
{
	if (b->nchildren) {
		for (size_t i = 0; i < b->nchildren; i++)
			if (sub_reads_below(rc, b->children[i], name, env, depth))
				return true;
		return false;
	}
	nameset ns = {0};
	printed_names(rc, &ns, b, env, depth);
	bool r = ns.oom || nameset_has(&ns, name, strlen(name));
	nameset_free(&ns);
	return r;
}

static bool sub_reads(reads_cache *rc, const spec_bitset *root, const char *name,
                      const const_env *env, unsigned depth)
{
	if (depth > 4)
		return true;
	const_env none = {0};
	if (!env)
		env = &none;
	for (size_t i = 0; i < rc->n; i++)
		if (rc->v[i].root == root && !strcmp(rc->v[i].name, name) &&
		    env_equal(&rc->v[i].env, env))
			return rc->v[i].reads;
	bool r = sub_reads_below(rc, root, name, env, depth);
	if (rc->n == rc->cap) {
		size_t cap = rc->cap ? 2 * rc->cap : 64;
		reads_entry *v = realloc(rc->v, cap * sizeof *v);
		if (!v)
			return r; /* unremembered: asked again next time */
		rc->v = v;
		rc->cap = cap;
	}
	rc->v[rc->n++] = (reads_entry){root, name, *env, r};
	return r;
}

static void keep_printed(reads_cache *rc, tsig *s, const spec_bitset *leaf,
                         const const_env *env)
{
	nameset ns = {0};
	printed_names(rc, &ns, leaf, env, 0);
	size_t o = 0;
	for (size_t i = 0; i < s->n; i++) {
		tcomp *c = &s->v[i];
		bool unread = c->param_as && c->field && c->field->bitset &&
		              !sub_reads(rc, c->field->bitset, c->param_as, &c->env, 1);
		if (!ns.oom && ((c->fname && !nameset_has(&ns, c->fname, strlen(c->fname))) ||
		                case_dead(c->sc, env) || unread)) {
			free(c->key);
			free(c->what);
			free(c->val);
			continue;
		}
		s->v[o++] = *c;
	}
	s->n = o;
	s->oom |= ns.oom;
	nameset_free(&ns);
}

/* Everything leaf's printing depends on, sorted by key. */
static void leaf_sig(reads_cache *rc, tsig *s, const spec_bitset *leaf, const const_env *env)
{
	bool prints_name = false, default_display = false;
	nameset defaults = {0};
	unsigned depth = 0;
	for (const spec_bitset *b = leaf; b; b = b->parent, depth++) {
		size_t noverride = 0;
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_case *sc = &b->cases[c];
			char pre[48], cwhat[600];
			if (sc->expr) {
				snprintf(pre, sizeof pre, "%u.o%zu", depth, noverride++);
				snprintf(cwhat, sizeof cwhat, "in an <override> of '%s'", b->name);
				tcomp *e = sig_add(s, sc->loc, spec_strdup_printf("%s.expr", pre),
				                   spec_strdup_printf("condition of an <override> of '%s'", b->name),
				                   canon_expr(sc->expr));
				if (e) {
					e->sc = sc;
					e->expr = sc->expr;
					e->is_condition = true;
				}
			} else {
				/* the default cases count as one: the first display
				 * from the leaf up, the leaf-most field of each name
				 * (what the decoder finds), wherever they are written */
				snprintf(pre, sizeof pre, "d");
				snprintf(cwhat, sizeof cwhat, "of '%s'", b->name);
			}
			if (sc->display && (sc->expr || !default_display)) {
				prints_name |= display_prints_name(sc->display) && !case_dead(sc, env);
				tcomp *e = sig_add(s, sc->display_loc, spec_strdup_printf("%s.display", pre),
				                   spec_strdup_printf("display %s", cwhat), strdup(sc->display));
				if (e)
					e->sc = sc;
			}
			if (sc->display && !sc->expr)
				default_display = true;
			for (size_t f = 0; f < sc->nfields; f++) {
				const char *fn = sc->fields[f].name;
				if (!sc->expr) {
					if (nameset_has(&defaults, fn, strlen(fn)))
						continue;
					nameset_add(&defaults, fn);
				}
				size_t before = s->n;
				field_comps(s, pre, cwhat, &sc->fields[f], leaf, env);
				for (size_t k = before; k < s->n; k++) {
					s->v[k].fname = fn;
					s->v[k].sc = sc;
				}
			}
		}
	}
	s->oom |= defaults.oom;
	nameset_free(&defaults);
	if (prints_name)
		sig_add(s, leaf->loc, strdup("name"), spec_strdup_printf("name of '%s'", leaf->name),
		        strdup(leaf->displayname ? leaf->displayname : leaf->name));
	keep_printed(rc, s, leaf, env);
	if (!s->oom && s->n)
		qsort(s->v, s->n, sizeof *s->v, comp_cmp);
}

/* ------------------------------------------------------------ roots */

/* How a root's words print, as far as its parents can see. */
typedef enum root_state {
	ROOT_UNSEEN,
	ROOT_BUSY,   /* on the stack: assumed equal (a fixed point) */
	ROOT_EQUAL,  /* every word decodes and prints alike */
	ROOT_DIFFER, /* may print differently: cause says why */
} root_state;

typedef struct root_info {
	const spec_root *o, *n;
	root_state state;
	char *cause;              /* first difference, for people */
	spec_loc old_loc, new_loc;
} root_info;

typedef struct text_ctx {
	const spec_model *om, *nm;
	const diff_codec_ops *ops;
	diff_result *r;
	root_info *roots;        /* one per root name of OLD */
	size_t nroots;
	growable out;            /* diff_text */
	bool oom;
	uint64_t rng;
	size_t structural, cube_proved, enumerated, z3_proved, z3_queries;
	unsigned env_depth;
	const prove_options *opt;
	reads_cache reads;
} text_ctx;

static root_info *root_info_of(text_ctx *t, const char *name)
{
	for (size_t i = 0; i < t->nroots; i++)
		if (!strcmp(t->roots[i].o->bitset->name, name))
			return &t->roots[i];
	return NULL;
}

static const spec_bitset *leaf_named(const spec_root *r, const char *name, spec_gen gen,
                                     size_t *count)
{
	const spec_bitset *found = NULL;
	*count = 0;
	for (size_t i = 0; i < r->nleaves; i++)
		if (!strcmp(r->leaves[i]->name, name) && r->leaves[i]->gen.min <= gen.max &&
		    gen.min <= r->leaves[i]->gen.max) {
			found = found ? found : r->leaves[i];
			++*count;
		}
	return found;
}

static bool bits_equal(spec_bits a, spec_bits b)
{
	unsigned n = a.nwords > b.nwords ? a.nwords : b.nwords;
	for (unsigned i = 0; i < n; i++)
		if ((i < a.nwords ? a.w[i] : 0) != (i < b.nwords ? b.w[i] : 0))
			return false;
	return true;
}

/* The result of comparing two leaves' components. */
typedef struct comp_diff {
	const tcomp *o, *n;         /* the first that differs (either may be NULL) */
	bool via_subroot;           /* the first difference is a sub-root's text */
	size_t ndiff;
} comp_diff;

static root_state root_text(text_ctx *t, root_info *ri, const const_env *env);

/* The next pair of components that differ, walking both sorted lists
 * from *i and *j (x or y NULL: one side only); a sub-bitset field counts
 * as differing when its root's words may print differently.  False at
 * the end. */
static bool next_difference(text_ctx *t, const tsig *a, const tsig *b, size_t *i, size_t *j,
                            const tcomp **px, const tcomp **py, bool *via_subroot)
{
	while (*i < a->n || *j < b->n) {
		int c = *i == a->n ? 1 : *j == b->n ? -1 : strcmp(a->v[*i].key, b->v[*j].key);
		const tcomp *x = c <= 0 ? &a->v[*i] : NULL, *y = c >= 0 ? &b->v[*j] : NULL;
		*i += c <= 0;
		*j += c >= 0;
		bool differs = !x || !y || strcmp(x->val, y->val), sub = false;
		if (!differs && x->subroot) {
			root_info *ri = root_info_of(t, x->subroot->name);
			sub = differs = !ri || !env_equal(&x->env, &y->env) ||
			                root_text(t, ri, &x->env) == ROOT_DIFFER;
		}
		if (differs) {
			*px = x;
			*py = y;
			*via_subroot = sub;
			return true;
		}
	}
	return false;
}

/* Walks both sorted lists; sub-roots count as differing when their own
 * words print differently. */
static comp_diff comps_compare(text_ctx *t, const tsig *a, const tsig *b)
{
	comp_diff d = {0};
	size_t i = 0, j = 0;
	const tcomp *x, *y;
	bool sub;
	while (next_difference(t, a, b, &i, &j, &x, &y, &sub)) {
		/* the cause shown: the first element changed on both sides (a
		 * param, a display, an enum string) before one only one side
		 * has (a field the change made printed) */
		bool both = x && y, had_both = d.o && d.n;
		if (!d.ndiff++ || (both && !had_both)) {
			d.o = x;
			d.n = y;
			d.via_subroot = sub;
		}
	}
	return d;
}

static void cause_set(char **cause, spec_loc *lo, spec_loc *ln, text_ctx *t, const comp_diff *d)
{
	const tcomp *x = d->o, *y = d->n;
	if (d->via_subroot) {
		root_info *ri = root_info_of(t, x->subroot->name);
		if (ri && !ri->cause)
			root_text(t, ri, NULL);
		*cause = ri && ri->cause ? strdup(ri->cause)
		                         : spec_strdup_printf("the words of '%s' print differently",
		                                      x->subroot->name);
		*lo = ri ? ri->old_loc : x->loc;
		*ln = ri ? ri->new_loc : y->loc;
		return;
	}
	const tcomp *w = y ? y : x;
	*cause = spec_strdup_printf("%s: %s -> %s", w->what, x ? x->val : "(none)", y ? y->val : "(none)");
	*lo = x ? x->loc : (spec_loc){0};
	*ln = y ? y->loc : (spec_loc){0};
}

/* A root's words print alike when its leaves pair up by name with the
 * same patterns and gens and every pair's components are equal (a
 * sub-root on the stack is assumed equal: the greatest fixed point). */
static root_state root_text_of(text_ctx *t, root_info *ri, const const_env *env);

/* With constants passed in, a root is judged afresh (no memo: another
 * parent passes others), its depth bounded. */
static root_state root_text(text_ctx *t, root_info *ri, const const_env *env)
{
	if (!env || !env->n)
		return root_text_of(t, ri, NULL);
	if (t->env_depth >= 4)
		return ROOT_DIFFER;
	root_info tmp = {.o = ri->o, .n = ri->n};
	t->env_depth++;
	root_state st = root_text_of(t, &tmp, env);
	t->env_depth--;
	free(tmp.cause);
	return st;
}

static root_state root_text_of(text_ctx *t, root_info *ri, const const_env *env)
{
	if (ri->state != ROOT_UNSEEN)
		return ri->state == ROOT_BUSY ? ROOT_EQUAL : ri->state;
	ri->state = ROOT_BUSY;
	root_state st = ROOT_EQUAL;
	const spec_root *o = ri->o, *n = ri->n;
	if (!n || n->bitset->size != o->bitset->size || n->nleaves != o->nleaves) {
		st = ROOT_DIFFER;
		ri->cause = spec_strdup_printf("the leaves of '%s' changed (see leaves and decoding)",
		                       o->bitset->name);
		ri->old_loc = o->bitset->loc;
		ri->new_loc = n ? n->bitset->loc : (spec_loc){0};
	}
	for (size_t i = 0; st == ROOT_EQUAL && i < o->nleaves; i++) {
		const spec_bitset *lo = o->leaves[i], *ln = n->leaves[i];
		if (strcmp(lo->name, ln->name) || lo->gen.min != ln->gen.min ||
		    lo->gen.max != ln->gen.max || !bits_equal(lo->match, ln->match) ||
		    !bits_equal(lo->mask, ln->mask) || !bits_equal(lo->dontcare, ln->dontcare)) {
			st = ROOT_DIFFER;
			ri->cause = spec_strdup_printf("the leaves of '%s' changed (see leaves and decoding)",
			                       o->bitset->name);
			ri->old_loc = lo->loc;
			ri->new_loc = ln->loc;
			break;
		}
		tsig a = {0}, b = {0};
		leaf_sig(&t->reads, &a, lo, env);
		leaf_sig(&t->reads, &b, ln, env);
		t->oom |= a.oom || b.oom;
		comp_diff d = comps_compare(t, &a, &b);
		if (d.ndiff) {
			/* unreachable enum values cannot show in this root either
			 * (the leaf's own cube; see enum_unreachable) */
			st = ROOT_DIFFER;
			cause_set(&ri->cause, &ri->old_loc, &ri->new_loc, t, &d);
		}
		sig_free(&a);
		sig_free(&b);
	}
	ri->state = st;
	return st;
}

/* ------------------------------------------------------------ words */

typedef struct pair_cube {
	unsigned size, nw;
	uint64_t fixed[SPEC_MAX_BITS / 64], value[SPEC_MAX_BITS / 64];
} pair_cube;

/* The words both leaves match (patterns only): false when none. */
static bool pair_cube_init(pair_cube *pc, const spec_bitset *lo, const spec_bitset *ln)
{
	pc->size = lo->size;
	pc->nw = words_for(lo->size);
	for (unsigned i = 0; i < pc->nw; i++) {
		uint64_t fo = (i < lo->mask.nwords ? lo->mask.w[i] : 0) &
		              ~(i < lo->dontcare.nwords ? lo->dontcare.w[i] : 0);
		uint64_t fn = (i < ln->mask.nwords ? ln->mask.w[i] : 0) &
		              ~(i < ln->dontcare.nwords ? ln->dontcare.w[i] : 0);
		uint64_t vo = (i < lo->match.nwords ? lo->match.w[i] : 0) & fo;
		uint64_t vn = (i < ln->match.nwords ? ln->match.w[i] : 0) & fn;
		if ((vo ^ vn) & fo & fn)
			return false;
		pc->fixed[i] = fo | fn;
		pc->value[i] = vo | vn;
	}
	if (pc->size % 64)
		pc->fixed[pc->nw - 1] |= ~top_mask(pc->size);
	return true;
}

static unsigned pair_cube_free(const pair_cube *pc)
{
	unsigned fixed = 0;
	for (unsigned i = 0; i < pc->nw; i++)
		fixed += (unsigned)__builtin_popcountll(pc->fixed[i]);
	return pc->nw * 64 - fixed;
}

static bool field_fits(const spec_field *f, unsigned size)
{
	return f->kind == SPEC_FIELD && f->high < size && f->low <= f->high;
}

static void set_bits(uint64_t *w, unsigned low, unsigned high, uint64_t v)
{
	for (unsigned b = low; b <= high; b++) {
		uint64_t bit = b - low < 64 ? (v >> (b - low)) & 1 : 0;
		w[b / 64] = (w[b / 64] & ~(1ull << (b % 64))) | (bit << (b % 64));
	}
}

static void set_bits_from(uint64_t *w, unsigned low, unsigned high, const uint64_t *src)
{
	for (unsigned b = low; b <= high; b++) {
		unsigned k = b - low;
		uint64_t bit = (src[k / 64] >> (k % 64)) & 1;
		w[b / 64] = (w[b / 64] & ~(1ull << (b % 64))) | (bit << (b % 64));
	}
}

/* Whether the field can hold v inside the cube (its pinned bits agree). */
static bool value_reachable(const pair_cube *pc, const spec_field *f, int64_t v)
{
	if (!field_fits(f, pc->size))
		return true; /* not ours to judge: keep it a difference */
	unsigned width = f->high - f->low + 1;
	if (v < 0 || (width < 64 && (uint64_t)v >> width))
		return false;
	for (unsigned b = f->low; b <= f->high; b++) {
		uint64_t bit = (uint64_t)v >> (b - f->low) & 1;
		if ((pc->fixed[b / 64] >> (b % 64) & 1) && (pc->value[b / 64] >> (b % 64) & 1) != bit)
			return false;
	}
	return true;
}

/* Whether two versions of an unsigned field read the same value from
 * every word of the cube: the same type and low bit, and the bits only
 * one of them reads pinned to 0 there (a field narrowed where its top
 * bit became a pattern 0). */
static bool same_value_in_cube(const pair_cube *pc, const spec_field *a, const spec_field *b)
{
	if (a->type != b->type || a->low != b->low || a->kind != SPEC_FIELD ||
	    b->kind != SPEC_FIELD ||
	    (a->type != SPEC_TYPE_UINT && a->type != SPEC_TYPE_HEX && a->type != SPEC_TYPE_ENUM) ||
	    (a->display || b->display ? !a->display || !b->display || strcmp(a->display, b->display)
	                              : false) ||
	    !field_fits(a, pc->size) || !field_fits(b, pc->size))
		return false;
	unsigned lo = a->high < b->high ? a->high : b->high, hi = a->high < b->high ? b->high : a->high;
	for (unsigned bit = lo + 1; bit <= hi; bit++)
		if (!(pc->fixed[bit / 64] >> (bit % 64) & 1) || (pc->value[bit / 64] >> (bit % 64) & 1))
			return false;
	return true;
}

/* Whether every differing component is an enum value no word of the
 * cube can hold: the cube engine's proof that the text is the same. */
static bool enum_unreachable(text_ctx *t, const tsig *a, const tsig *b, const pair_cube *pc)
{
	size_t i = 0, j = 0;
	const tcomp *x, *y;
	bool sub;
	while (next_difference(t, a, b, &i, &j, &x, &y, &sub)) {
		if (sub)
			return false;
		if (x && y && x->is_field_bits && y->is_field_bits &&
		    same_value_in_cube(pc, x->field, y->field))
			continue;
		const tcomp *e = x ? x : y;
		if (!e->is_enum_value || (x && !x->is_enum_value) || (y && !y->is_enum_value))
			return false;
		if (value_reachable(pc, e->field, e->enum_val))
			return false;
		/* the other side's field of that name must be unable to hold it too */
		if (x && y && value_reachable(pc, y->field, y->enum_val))
			return false;
	}
	return true;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* Candidate words are gathered in a list, aimed first. */
typedef struct wordlist {
	uint64_t *w; /* n words of nw each */
	size_t n, cap;
	unsigned nw;
	bool oom;
} wordlist;

static uint64_t *wl_add(wordlist *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		uint64_t *v = realloc(l->w, cap * l->nw * sizeof *v);
		if (!v) {
			l->oom = true;
			return NULL;
		}
		l->w = v;
		l->cap = cap;
	}
	return &l->w[l->n++ * l->nw];
}

static void fill(uint64_t *w, const pair_cube *pc, int how, uint64_t *rng)
{
	for (unsigned i = 0; i < pc->nw; i++) {
		uint64_t f = how == 0   ? 0
		             : how == 1 ? ~0ull
		             : how == 2 ? 0x5555555555555555ull
		             : how == 3 ? 0xaaaaaaaaaaaaaaaaull
		                        : rng_next(rng);
		w[i] = (f & ~pc->fixed[i]) | pc->value[i];
	}
	if (pc->size % 64)
		w[pc->nw - 1] &= top_mask(pc->size);
}

#define NFILLS 10

static void candidates(text_ctx *t, const spec_bitset *lo, const pair_cube *pc,
                       const tsig *a, const tsig *b, wordlist *out, unsigned depth);

/* Words of root r's leaves whose text may differ, for placing into a
 * parent's field. */
static void subroot_words(text_ctx *t, root_info *ri, wordlist *out, unsigned depth)
{
	const spec_root *o = ri->o, *n = ri->n;
	if (!n || depth > 4)
		return;
	for (size_t i = 0; i < o->nleaves && out->n < TEXT_MAX_SUBWORDS; i++) {
		size_t cnt;
		const spec_bitset *lo = o->leaves[i];
		const spec_bitset *ln = leaf_named(n, lo->name, lo->gen, &cnt);
		pair_cube pc;
		if (!ln || !pair_cube_init(&pc, lo, ln))
			continue;
		tsig a = {0}, b = {0};
		leaf_sig(&t->reads, &a, lo, NULL);
		leaf_sig(&t->reads, &b, ln, NULL);
		comp_diff d = comps_compare(t, &a, &b);
		if (d.ndiff) {
			wordlist sub = {.nw = pc.nw};
			candidates(t, lo, &pc, &a, &b, &sub, depth + 1);
			for (size_t k = 0; k < sub.n && k < 8; k++) {
				uint64_t *w = wl_add(out);
				if (w)
					memcpy(w, &sub.w[k * sub.nw], sub.nw * sizeof *w);
			}
			out->oom |= sub.oom;
			free(sub.w);
		}
		sig_free(&a);
		sig_free(&b);
	}
}

/* Candidates for one leaf pair, aimed at the components that differ. */
static void candidates(text_ctx *t, const spec_bitset *lo, const pair_cube *pc,
                       const tsig *a, const tsig *b, wordlist *out, unsigned depth)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)lo->index * 0x2545f4914f6cdd1dull;
	uint64_t base[NFILLS][SPEC_MAX_BITS / 64];
	for (int k = 0; k < NFILLS; k++)
		fill(base[k], pc, k < 4 ? k : 4, &rng);
	const tsig *sides[2] = {a, b};
	/* 1. the differing enum values and sub-roots, on each base fill */
	for (int s = 0; s < 2; s++) {
		const tsig *x = sides[s], *y = sides[1 - s];
		for (size_t i = 0; i < x->n; i++) {
			const tcomp *c = &x->v[i];
			const tcomp *other = NULL;
			tcomp key = {.key = c->key};
			other = y->n ? bsearch(&key, y->v, y->n, sizeof *y->v, comp_cmp) : NULL;
			bool differs = !other || strcmp(c->val, other->val);
			if (c->field && !field_fits(c->field, pc->size))
				continue;
			if (c->is_enum_value && differs) {
				for (int k = 0; k < NFILLS; k++) {
					uint64_t *w = wl_add(out);
					if (!w)
						return;
					memcpy(w, base[k], pc->nw * sizeof *w);
					set_bits(w, c->field->low, c->field->high, (uint64_t)c->enum_val);
				}
			} else if (c->subroot && s == 0) {
				root_info *ri = root_info_of(t, c->subroot->name);
				if (!ri || root_text(t, ri, &c->env) != ROOT_DIFFER)
					continue;
				wordlist sub = {.nw = words_for(c->subroot->size)};
				subroot_words(t, ri, &sub, depth);
				for (size_t k = 0; k < sub.n; k++)
					for (int f = 0; f < 3; f++) {
						uint64_t *w = wl_add(out);
						if (!w) {
							free(sub.w);
							return;
						}
						memcpy(w, base[f], pc->nw * sizeof *w);
						set_bits_from(w, c->field->low, c->field->high, &sub.w[k * sub.nw]);
					}
				out->oom |= sub.oom;
				free(sub.w);
			}
		}
	}
	if (depth)
		return; /* inside a sub-root: aimed words and fills are enough */
	/* 2. the base fills, every field at 0, 1 and its maximum, single bits */
	for (int k = 0; k < NFILLS; k++) {
		uint64_t *w = wl_add(out);
		if (w)
			memcpy(w, base[k], pc->nw * sizeof *w);
	}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s]->n; i++) {
			const tcomp *c = &sides[s]->v[i];
			if (!c->field || c->is_enum_value || !field_fits(c->field, pc->size))
				continue;
			unsigned width = c->field->high - c->field->low + 1;
			uint64_t vals[3] = {0, 1, width >= 64 ? ~0ull : (1ull << width) - 1};
			for (int v = 0; v < 3; v++)
				for (int k = 0; k < 2; k++) {
					uint64_t *w = wl_add(out);
					if (!w)
						return;
					memcpy(w, base[k], pc->nw * sizeof *w);
					set_bits(w, c->field->low, c->field->high, vals[v]);
				}
		}
	for (unsigned bit = 0; bit < pc->size; bit++) {
		if (pc->fixed[bit / 64] >> (bit % 64) & 1)
			continue;
		for (int k = 0; k < 2; k++) {
			uint64_t *w = wl_add(out);
			if (!w)
				return;
			memcpy(w, base[k], pc->nw * sizeof *w);
			w[bit / 64] ^= 1ull << (bit % 64);
		}
	}
	/* 3. random fills up to the budget */
	while (out->n < TEXT_MAX_CANDIDATES) {
		uint64_t *w = wl_add(out);
		if (!w)
			return;
		fill(w, pc, 4, &rng);
	}
}

/* ------------------------------------------------------------ Z3 */

typedef enum z3_text_answer {
	Z3_TEXT_EQUAL,   /* every differing component is an expression that
	                    agrees on every word of the cube */
	Z3_TEXT_MODEL,   /* a word where one disagrees (in *w, *gen) */
	Z3_TEXT_UNKNOWN, /* not all expressions, not translatable, or Z3 gave up */
} z3_text_answer;

/* Whether the differing components of a leaf pair are only expressions
 * (override conditions, derived fields) that Z3 proves agree on every
 * word both leaves match: then the text is the same. */
static z3_text_answer z3_exprs_agree(text_ctx *t, const tsig *a, const tsig *b,
                                     const spec_bitset *lo, const spec_bitset *ln,
                                     const pair_cube *pc, spec_gen g, uint64_t *w,
                                     uint32_t *gen)
{
	size_t i = 0, j = 0, nexpr = 0;
	const tcomp *xs[16], *ys[16], *x, *y;
	bool sub;
	while (next_difference(t, a, b, &i, &j, &x, &y, &sub)) {
		if (sub || !x || !y || !x->expr || !y->expr || nexpr == 16)
			return Z3_TEXT_UNKNOWN;
		xs[nexpr] = x;
		ys[nexpr++] = y;
	}
	if (!nexpr)
		return Z3_TEXT_UNKNOWN;
	z3_base zb;
	if (!z3_base_init(&zb, pc->size, t->opt))
		return Z3_TEXT_UNKNOWN;
	z3_text_answer ans = Z3_TEXT_EQUAL;
	Z3_ast where[2] = {z3_in_cube(&zb, pc->fixed, pc->value), z3_in_gen(&zb, g)};
	Z3_solver_assert(zb.ctx, zb.solver, Z3_mk_and(zb.ctx, 2, where));
	for (size_t k = 0; k < nexpr && ans == Z3_TEXT_EQUAL; k++) {
		Z3_ast eo = z3_expr(&zb, lo, xs[k]->expr);
		Z3_ast en = z3_expr(&zb, ln, ys[k]->expr);
		if (!eo || !en || Z3_get_error_code(zb.ctx) != Z3_OK) {
			ans = Z3_TEXT_UNKNOWN;
			break;
		}
		/* a condition matters by its truth, a derived value by itself */
		Z3_ast differ = xs[k]->is_condition
		                    ? Z3_mk_xor(zb.ctx, z3_is_true(&zb, eo), z3_is_true(&zb, en))
		                    : Z3_mk_not(zb.ctx, Z3_mk_eq(zb.ctx, eo, en));
		Z3_solver_push(zb.ctx, zb.solver);
		Z3_solver_assert(zb.ctx, zb.solver, differ);
		t->z3_queries++;
		Z3_lbool r = z3_solve(&zb, zb.solver);
		if (r == Z3_L_TRUE) {
			Z3_model m = Z3_solver_get_model(zb.ctx, zb.solver);
			if (m) {
				Z3_model_inc_ref(zb.ctx, m);
				z3_model_word(&zb, m, w, gen);
				Z3_model_dec_ref(zb.ctx, m);
				ans = Z3_TEXT_MODEL;
			} else {
				ans = Z3_TEXT_UNKNOWN;
			}
		} else if (r != Z3_L_FALSE) {
			ans = Z3_TEXT_UNKNOWN;
		}
		Z3_solver_pop(zb.ctx, zb.solver, 1);
	}
	z3_base_free(&zb);
	return ans;
}

/* ------------------------------------------------------------ output */

static char *own_str(diff_result *r, const char *s)
{
	return s ? diff_own(r, strdup(s)) : NULL;
}

/* Whether a root's words print as lines of their own: the default root,
 * and roots no field decodes through (a2xx's and Midgard's parts).  The
 * others show only inside their parents' text. */
static bool prints_alone(const text_ctx *t, const spec_root *o)
{
	if (t->ops->default_root && !strcmp(t->ops->default_root, o->bitset->name))
		return true;
	for (size_t i = 0; i < t->om->nbitsets; i++) {
		const spec_bitset *b = t->om->bitsets[i];
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++)
				if (b->cases[c].fields[f].type == SPEC_TYPE_BITSET &&
				    b->cases[c].fields[f].bitset == o->bitset)
					return false;
	}
	return true;
}

/* One leaf pair of a printed root. */
static void text_pair(text_ctx *t, const spec_root *ro, const spec_root *rn,
                      const spec_bitset *lo, const spec_bitset *ln)
{
	spec_gen g = {lo->gen.min > ln->gen.min ? lo->gen.min : ln->gen.min,
	              lo->gen.max < ln->gen.max ? lo->gen.max : ln->gen.max};
	pair_cube pc;
	if (g.min > g.max || !pair_cube_init(&pc, lo, ln))
		return; /* no word decodes to both: the decoding section's */
	tsig a = {0}, b = {0};
	leaf_sig(&t->reads, &a, lo, NULL);
	leaf_sig(&t->reads, &b, ln, NULL);
	t->oom |= a.oom || b.oom;
	comp_diff d = comps_compare(t, &a, &b);
	if (!d.ndiff) {
		t->structural++;
		goto done;
	}
	if (enum_unreachable(t, &a, &b, &pc)) {
		t->cube_proved++;
		goto done;
	}
	/* changed expressions that agree on every word: Z3's proof */
	uint64_t zw[SPEC_MAX_BITS / 64];
	uint32_t zg = g.min;
	z3_text_answer za = z3_exprs_agree(t, &a, &b, lo, ln, &pc, g, zw, &zg);
	if (za == Z3_TEXT_EQUAL) {
		t->z3_proved++;
		goto done;
	}
	diff_text dt = {.root = ro->bitset->name, .size = ro->bitset->size, .gen = g,
	                .old_leaf = lo, .new_leaf = ln};
	char *cause = NULL;
	cause_set(&cause, &dt.old_loc, &dt.new_loc, t, &d);
	dt.cause = diff_own(t->r, cause);
	if (!dt.cause)
		t->oom = true;
	char to[1024], tn[1024];
	uint64_t *wit = diff_own(t->r, calloc(pc.nw, sizeof *wit));
	const char *wo = NULL, *wn = NULL;
	uint32_t gens[2] = {g.min, g.max};
	unsigned nfree = pair_cube_free(&pc);
	bool found = false;
	if (nfree <= TEXT_EXHAUSTIVE_BITS) {
		/* every word: an exact count, or the proof that none differs */
		unsigned freebits[TEXT_EXHAUSTIVE_BITS], k = 0;
		for (unsigned bit = 0; bit < pc.size; bit++)
			if (!(pc.fixed[bit / 64] >> (bit % 64) & 1))
				freebits[k++] = bit;
		uint64_t w[SPEC_MAX_BITS / 64];
		bool gen_varies = false;
		for (uint64_t m = 0; m < (1ull << nfree); m++) {
			memcpy(w, pc.value, pc.nw * sizeof *w);
			for (unsigned i = 0; i < nfree; i++)
				if (m >> i & 1)
					w[freebits[i] / 64] |= 1ull << (freebits[i] % 64);
			if (t->ops->leaf_of(t->ops->ctx, 0, ro, w, g.min) != lo ||
			    t->ops->leaf_of(t->ops->ctx, 1, rn, w, g.min) != ln)
				continue;
			t->ops->print(t->ops->ctx, 0, ro, w, g.min, to, sizeof to);
			t->ops->print(t->ops->ctx, 1, rn, w, g.min, tn, sizeof tn);
			if (strcmp(to, tn)) {
				if (!found && wit) {
					memcpy(wit, w, pc.nw * sizeof *w);
					wo = own_str(t->r, to);
					wn = own_str(t->r, tn);
					dt.witness_gen = g.min;
				}
				found = true;
				count_add_pow2(&dt.words, 0);
			}
			/* gen-dependent text (ISA_GPU_ID) is checked at the range's ends */
			if (g.max != g.min && !gen_varies) {
				char a2[1024], b2[1024];
				t->ops->print(t->ops->ctx, 0, ro, w, g.max, a2, sizeof a2);
				t->ops->print(t->ops->ctx, 1, rn, w, g.max, b2, sizeof b2);
				gen_varies = strcmp(a2, to) || strcmp(b2, tn);
			}
		}
		if (gen_varies && !found) {
			dt.verdict = DIFF_TEXT_UNKNOWN; /* counted at one gen only */
		} else if (!found) {
			t->enumerated++;
			goto done; /* proved: every word prints alike */
		} else {
			dt.verdict = DIFF_TEXT_DIFFERS;
			dt.counted = !gen_varies;
		}
	} else {
		wordlist wl = {.nw = pc.nw};
		uint64_t *first = za == Z3_TEXT_MODEL ? wl_add(&wl) : NULL;
		if (first) /* where Z3 says an expression differs: tried first */
			memcpy(first, zw, pc.nw * sizeof *zw);
		candidates(t, lo, &pc, &a, &b, &wl, 0);
		t->oom |= wl.oom;
		dt.verdict = DIFF_TEXT_UNKNOWN;
		for (size_t k = 0; k < wl.n && dt.verdict == DIFF_TEXT_UNKNOWN; k++) {
			const uint64_t *w = &wl.w[k * wl.nw];
			for (int gi = 0; gi < 2; gi++) {
				if (gi && gens[1] == gens[0])
					break;
				if (t->ops->leaf_of(t->ops->ctx, 0, ro, w, gens[gi]) != lo ||
				    t->ops->leaf_of(t->ops->ctx, 1, rn, w, gens[gi]) != ln)
					continue;
				t->ops->print(t->ops->ctx, 0, ro, w, gens[gi], to, sizeof to);
				t->ops->print(t->ops->ctx, 1, rn, w, gens[gi], tn, sizeof tn);
				if (strcmp(to, tn)) {
					if (wit)
						memcpy(wit, w, pc.nw * sizeof *w);
					wo = own_str(t->r, to);
					wn = own_str(t->r, tn);
					dt.witness_gen = gens[gi];
					dt.verdict = DIFF_TEXT_DIFFERS;
					break;
				}
			}
		}
		free(wl.w);
	}
	if (dt.verdict == DIFF_TEXT_DIFFERS) {
		dt.witness = wit;
		dt.old_text = wo;
		dt.new_text = wn;
	} else {
		t->r->any_unknown = true;
	}
	diff_text *slot = grow(&t->out);
	if (slot)
		*slot = dt;
	else
		t->oom = true;
done:
	sig_free(&a);
	sig_free(&b);
}

bool diff_texts(const spec_model *om, const spec_model *nm, const prove_options *opt,
                const diff_codec_ops *ops, diff_result *r, spec_diags *diags)
{
	prove_options run = opt ? *opt : prove_default_options();
	z3_start_run(&run);
	text_ctx t = {.om = om, .nm = nm, .ops = ops, .r = r, .out = {.size = sizeof(diff_text)},
	              .opt = &run};
	t.roots = calloc(om->nroots + 1, sizeof *t.roots);
	if (!t.roots)
		t.oom = true;
	for (size_t i = 0; !t.oom && i < om->nroots; i++) {
		t.roots[t.nroots].o = &om->roots[i];
		t.roots[t.nroots++].n = spec_find_root(nm, om->roots[i].bitset->name);
	}
	for (size_t i = 0; !t.oom && i < t.nroots; i++) {
		const spec_root *o = t.roots[i].o, *n = t.roots[i].n;
		if (!n || n->bitset->size != o->bitset->size || !prints_alone(&t, o))
			continue;
		for (size_t k = 0; k < o->nleaves && !t.oom; k++) {
			const spec_bitset *lo = o->leaves[k];
			/* the pairs diff.c matched: same name and overlapping gens,
			 * or a rename */
			for (size_t j = 0; j < n->nleaves; j++) {
				const spec_bitset *ln = n->leaves[j];
				bool same = !strcmp(lo->name, ln->name);
				for (size_t q = 0; !same && q < r->nleaves; q++)
					same = r->leaves[q].kind == DIFF_LEAF_RENAMED &&
					       r->leaves[q].old_leaf == lo && r->leaves[q].new_leaf == ln;
				if (same)
					text_pair(&t, o, n, lo, ln);
			}
		}
	}
	free(t.reads.v);
	for (size_t i = 0; i < t.nroots; i++)
		free(t.roots[i].cause);
	free(t.roots);
	r->texts = diff_own(r, t.out.items);
	r->ntexts = t.out.n;
	r->texts_structural = t.structural;
	r->texts_cube = t.cube_proved;
	r->texts_enumerated = t.enumerated;
	r->texts_z3 = t.z3_proved;
	r->queries += t.z3_queries;
	if (t.oom || (t.out.n && !r->texts)) {
		spec_diag_add(diags, SPEC_FATAL, "io", (spec_loc){nm->path, 0, 0},
		              "out of memory while comparing the printed text");
		return false;
	}
	return true;
}
