/*
 * invert.c - can a leaf's text be parsed back into its bits?
 *
 * The assembler inverts displays by parsing text against them; some
 * displays lose bits or print two values alike, and then no parser can
 * give the words back.  This is the static side of that question: for
 * every display a leaf can use, every bit the decoder reads must be
 * determined by the text:
 *
 *   - a pattern or assert bit is determined;
 *   - a field printed as a number, a bool with a display, an enum whose
 *     values print differently, or a bitset whose leaves are themselves
 *     invertible, determines its bits;
 *   - a derived value determines the fields its expression reads when the
 *     expression is injective over them (otherwise it determines nothing) (checked exhaustively when they
 *     span at most INV_EXHAUSTIVE_BITS, else by probing single bits);
 *   - an override's expression determines what it reads when exactly one
 *     combination of those values makes it hold;
 *   - a name a sub-bitset prints through a <param> determines the field
 *     of the enclosing bitset it comes from.
 *
 * A bit nothing determines, an enum that prints two values alike, or two
 * numbers printed side by side make the display "not invertible", and the
 * reason says which.  The assembler never guesses either way: it verifies
 * every encoding by disassembling it again.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define INV_EXHAUSTIVE_BITS 16u
#define INV_MAX_NAMES 32u
#define INV_MAX_DEPTH 8u

/* One analysis: the leaf, the field that opened it (its params) and the
 * enclosing analysis (to resolve params). */
typedef struct inv_scope {
	const spec_model *m;
	const spec_bitset *leaf;
	const spec_case *dcase;          /* the case whose display is analysed */
	const spec_field *opener;
	const struct inv_scope *parent;
	unsigned depth;
	uint64_t known[SPEC_MAX_BITS / 64]; /* bits the text determines */
	const char *printed_params[INV_MAX_NAMES]; /* params it prints, by the inner name */
	const spec_expr *pending[INV_MAX_NAMES];   /* printed derived values, not yet used */
	unsigned npending;
	unsigned nprinted;
	char *why;
	size_t len;
	bool failed;
} inv_scope;

static void say(inv_scope *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(inv_scope *s, const char *fmt, ...)
{
	if (s->failed)
		return;
	s->failed = true;
	if (!s->why || !s->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->why, s->len, fmt, ap);
	va_end(ap);
}

static void mark(inv_scope *s, unsigned low, unsigned high)
{
	for (unsigned b = low; b <= high && b < SPEC_MAX_BITS; b++)
		s->known[b / 64] |= (uint64_t)1 << (b % 64);
}

/* The field a name means in this leaf and display case: the case's own
 * fields, then each bitset's default case from the leaf up. */
static const spec_field *resolve(const inv_scope *s, const char *name)
{
	for (size_t i = 0; s->dcase && i < s->dcase->nfields; i++)
		if (s->dcase->fields[i].kind != SPEC_ASSERT && !strcmp(s->dcase->fields[i].name, name))
			return &s->dcase->fields[i];
	for (const spec_bitset *b = s->leaf; b; b = b->parent) {
		const spec_case *k = b->ncases ? &b->cases[b->ncases - 1] : NULL;
		for (size_t i = 0; k && i < k->nfields; i++)
			if (k->fields[i].kind != SPEC_ASSERT && !strcmp(k->fields[i].name, name))
				return &k->fields[i];
	}
	return NULL;
}

/* A name that comes in through a param: the param (NULL: it does not). */
static const spec_param *as_param(const inv_scope *s, const char *name)
{
	for (size_t i = 0; s->opener && i < s->opener->nparams; i++) {
		const spec_param *p = &s->opener->params[i];
		if (!strcmp(p->as ? p->as : p->name, name))
			return p;
	}
	return NULL;
}

static bool param_printed(inv_scope *s, const char *name)
{
	for (unsigned i = 0; i < s->nprinted; i++)
		if (!strcmp(s->printed_params[i], name))
			return true;
	return false;
}

/* Notes a param as printed, keeping the model's own copy of its name
 * (the caller's may be a buffer). */
static void note_param(inv_scope *s, const char *name)
{
	const spec_param *p = as_param(s, name);
	if (p && !param_printed(s, name) && s->nprinted < INV_MAX_NAMES)
		s->printed_params[s->nprinted++] = p->as ? p->as : p->name;
}

/* The width a name has for evaluation: a field's bits, a param's field
 * in the enclosing scope, a derived value's declared width. */
static unsigned name_width(const inv_scope *s, const char *name, unsigned hops)
{
	const spec_field *f = resolve(s, name);
	if (f)
		return f->high - f->low + 1;
	const spec_param *p = as_param(s, name);
	if (p && s->parent && hops < INV_MAX_DEPTH)
		return name_width(s->parent, p->name, hops + 1);
	return 0;
}

/* Expression inputs (internal.h): the assembler probes derived values
 * with them too. */

void codec_input_spread(codec_input *in, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++) {
		unsigned w = in[i].width;
		in[i].value = (int64_t)(w >= 64 ? x : x & (((uint64_t)1 << w) - 1));
		x = w >= 64 ? 0 : x >> w;
	}
}

typedef struct input_table {
	const codec_input *in;
	size_t n;
} input_table;

static bool input_lookup(void *ctx, const char *name, unsigned depth, int64_t *value,
                         char *err, size_t errlen)
{
	(void)depth;
	const input_table *t = ctx;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->in[i].name, name)) {
			*value = t->in[i].value;
			return true;
		}
	snprintf(err, errlen, "%s unknown", name);
	return false;
}

bool codec_input_eval(const spec_expr *e, const codec_input *in, size_t n, int64_t gpu_id,
                      int64_t *r)
{
	input_table t = {in, n};
	spec_eval_env env = {input_lookup, &t, gpu_id, 0};
	char err[64];
	return spec_expr_eval(e, &env, r, err, sizeof err);
}

/* The inputs of an expression: the names it reads, with their widths;
 * false when one has no width (a derived value feeding another, say). */
static bool expr_inputs(const inv_scope *s, const spec_expr *e, codec_input *in, size_t *n)
{
	size_t k = spec_expr_ref_count(e);
	if (k > INV_MAX_NAMES)
		return false;
	for (size_t i = 0; i < k; i++) {
		const char *name = spec_expr_ref(e, i);
		const spec_field *f = resolve(s, name);
		if (f && f->kind == SPEC_DERIVED)
			return false;
		unsigned w = name_width(s, name, 0);
		if (!w || w > 64)
			return false;
		in[i] = (codec_input){name, w, 0};
	}
	*n = k;
	return true;
}

static unsigned total_width(const codec_input *in, size_t n)
{
	unsigned t = 0;
	for (size_t i = 0; i < n; i++)
		t += in[i].width;
	return t;
}

/* Evaluates with the first n inputs taken from x; the nfixed inputs
 * after them keep their values. */
static bool eval_at(const spec_expr *e, codec_input *in, size_t n, size_t nfixed, uint64_t x,
                    int64_t *r)
{
	codec_input_spread(in, n, x);
	return codec_input_eval(e, in, n + nfixed, 0, r);
}

/* Whether e tells its inputs apart.  Small input spaces are checked
 * whole (a bitmap of the values seen); larger ones must behave as a bit
 * permutation: each input bit alone flips one distinct output bit. */
static bool injective(const spec_expr *e, codec_input *in, size_t n, size_t nfixed)
{
	unsigned t = total_width(in, n);
	if (t == 0)
		return true;
	if (t <= INV_EXHAUSTIVE_BITS) {
		/* Distinct inputs must give distinct values: sort-free check by
		 * hashing into a table twice the size of the input space. */
		size_t cap = (size_t)2 << t;
		int64_t *vals = calloc(cap, sizeof *vals);
		uint8_t *used = calloc(cap, 1);
		bool ok = vals && used;
		for (uint64_t x = 0; ok && x < ((uint64_t)1 << t); x++) {
			int64_t r;
			if (!eval_at(e, in, n, nfixed, x, &r)) {
				ok = false;
				break;
			}
			size_t h = (size_t)(((uint64_t)r * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
			while (used[h] && vals[h] != r)
				h = (h + 1) & (cap - 1);
			if (used[h])
				ok = false;
			used[h] = 1;
			vals[h] = r;
		}
		free(vals);
		free(used);
		return ok;
	}
	if (t > 64)
		return false;
	int64_t base;
	if (!eval_at(e, in, n, nfixed, 0, &base))
		return false;
	uint64_t seen = 0, all = 0;
	for (unsigned b = 0; b < t; b++) {
		int64_t r;
		if (!eval_at(e, in, n, nfixed, (uint64_t)1 << b, &r))
			return false;
		uint64_t moved = (uint64_t)(r ^ base);
		if (!moved || (moved & (moved - 1)) || (seen & moved))
			return false;
		seen |= moved;
		all |= (uint64_t)1 << b;
	}
	int64_t r;
	return eval_at(e, in, n, nfixed, all, &r) && (uint64_t)(r ^ base) == seen;
}

/* Whether e tells the inputs flagged unknown apart, for every value of
 * the others (which the text determines elsewhere). */
static bool injective_given(const spec_expr *e, codec_input *in, size_t n, const bool *unknown)
{
	codec_input un[INV_MAX_NAMES], kn[INV_MAX_NAMES];
	size_t nu = 0, nk = 0;
	for (size_t i = 0; i < n; i++) {
		if (unknown[i])
			un[nu++] = in[i];
		else
			kn[nk++] = in[i];
	}
	unsigned tk = total_width(kn, nk);
	if (tk > 12)
		return false;
	if (!nk)
		return injective(e, un, nu, 0);
	/* The evaluation must see every input: give it the known ones as a
	 * fixed tail after the unknown ones. */
	for (uint64_t x = 0; x < ((uint64_t)1 << tk); x++) {
		codec_input_spread(kn, nk, x);
		codec_input all[INV_MAX_NAMES];
		memcpy(all, un, nu * sizeof *all);
		memcpy(all + nu, kn, nk * sizeof *all);
		if (!injective(e, all, nu, nk))
			return false;
	}
	return true;
}

/* Marks what the inputs stand for: fields' bits here, params' fields in
 * the enclosing scope. */
static void mark_name(inv_scope *s, const char *name)
{
	const spec_field *f = resolve(s, name);
	if (f && f->kind == SPEC_FIELD) {
		mark(s, f->low, f->high);
		return;
	}
	if (!f && as_param(s, name))
		note_param(s, name);
}

/* An override expression determines each input that has one value in
 * every combination making it hold (REPEAT in "{REPEAT} == 0 && ..."). */
static void case_determines(inv_scope *s, const spec_expr *e)
{
	codec_input in[INV_MAX_NAMES];
	size_t n;
	if (!expr_inputs(s, e, in, &n) || total_width(in, n) > INV_EXHAUSTIVE_BITS)
		return;
	unsigned t = total_width(in, n);
	int64_t first[INV_MAX_NAMES];
	bool fixed[INV_MAX_NAMES], any = false;
	for (uint64_t x = 0; x < ((uint64_t)1 << t); x++) {
		int64_t r;
		if (!eval_at(e, in, n, 0, x, &r) || !r)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (!any) {
				first[i] = in[i].value;
				fixed[i] = true;
			} else if (in[i].value != first[i]) {
				fixed[i] = false;
			}
		}
		any = true;
	}
	for (size_t i = 0; any && i < n; i++)
		if (fixed[i])
			mark_name(s, in[i].name);
}

static bool numeric(const spec_field *f)
{
	switch (f->type) {
	case SPEC_TYPE_UINT: case SPEC_TYPE_INT: case SPEC_TYPE_HEX: case SPEC_TYPE_FLOAT:
	case SPEC_TYPE_OFFSET: case SPEC_TYPE_UOFFSET: case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH: case SPEC_TYPE_CUSTOM: case SPEC_TYPE_UNKNOWN:
		return true;
	case SPEC_TYPE_BOOL: case SPEC_TYPE_BOOL_INV:
		return f->display == NULL;
	default:
		return false;
	}
}

static bool leaf_case_invertible(const spec_model *m, const spec_bitset *leaf,
                                 const spec_case *dcase, const spec_field *opener,
                                 const inv_scope *parent, unsigned depth, char *why,
                                 size_t len, const char ***printed, unsigned *nprinted);

#define INV_MAX_DISPLAYS 64u

/* The cases whose display a leaf can print with, as the decoder looks
 * for one: from the leaf up, the overrides, then the default case; a
 * default case with a display ends the search. */
static size_t reachable_displays(const spec_bitset *leaf, const spec_case **out)
{
	size_t n = 0;
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t ci = 0; ci < b->ncases; ci++) {
			const spec_case *k = &b->cases[ci];
			if (!k->display)
				continue;
			if (n < INV_MAX_DISPLAYS)
				out[n++] = k;
			if (!k->expr)
				return n;
		}
	return n;
}

/* Whether every leaf of a sub-bitset's root is invertible in every
 * display; the params every one of them prints are noted in s. */
static void sub_root(inv_scope *s, const spec_field *f)
{
	const spec_root *root = NULL;
	for (size_t i = 0; i < s->m->nroots; i++)
		if (s->m->roots[i].bitset == f->bitset)
			root = &s->m->roots[i];
	if (!root)
		return;
	const char *common[INV_MAX_NAMES];
	unsigned ncommon = 0;
	bool first = true;
	for (size_t li = 0; li < root->nleaves && !s->failed; li++) {
		const spec_bitset *leaf = root->leaves[li];
		const spec_case *ks[INV_MAX_DISPLAYS];
		size_t nk = reachable_displays(leaf, ks);
		{
			for (size_t ki = 0; ki < nk && !s->failed; ki++) {
				const spec_case *k = ks[ki];
				char why[192];
				const char **pp = NULL;
				unsigned np = 0;
				if (!leaf_case_invertible(s->m, leaf, k, f, s, s->depth + 1, why, sizeof why,
				                          &pp, &np)) {
					say(s, "%s: %s", f->name, why);
					free(pp);
					break;
				}
				/* keep the params printed in every display */
				if (first) {
					for (unsigned i = 0; i < np && ncommon < INV_MAX_NAMES; i++)
						common[ncommon++] = pp[i];
					first = false;
				} else {
					unsigned o = 0;
					for (unsigned i = 0; i < ncommon; i++) {
						bool in = false;
						for (unsigned j = 0; j < np && !in; j++)
							in = !strcmp(pp[j], common[i]);
						if (in)
							common[o++] = common[i];
					}
					ncommon = o;
				}
				free(pp);
			}
		}
	}
	for (unsigned i = 0; i < ncommon; i++) {
		const spec_param *p = as_param(&(inv_scope){.opener = f}, common[i]);
		if (p)
			mark_name(s, p->name);
	}
}

static void analyse_text(inv_scope *s, const char *d, unsigned tdepth);

/* One {NAME} of the display. */
static void analyse_ref(inv_scope *s, const char *name, const spec_field **prev_num,
                        unsigned tdepth)
{
	if (!strcmp(name, "NAME"))
		return;
	const spec_field *f = resolve(s, name);
	if (!f) {
		const spec_template *t = spec_find_template(s->m, name);
		if (t && tdepth < INV_MAX_DEPTH) {
			analyse_text(s, t->text, tdepth + 1);
			return;
		}
		if (as_param(s, name))
			note_param(s, name);
		*prev_num = NULL;
		return;
	}
	if (numeric(f) && *prev_num) {
		say(s, "%s and %s are printed next to each other with nothing between them",
		    (*prev_num)->name, f->name);
		return;
	}
	*prev_num = numeric(f) ? f : NULL;
	if (f->kind == SPEC_DERIVED) {
		codec_input in[INV_MAX_NAMES];
		size_t n = 0;
		/* Whether it determines its inputs may depend on what else the
		 * text determines: settled once the whole display is read. */
		if (f->expr && expr_inputs(s, f->expr, in, &n) && s->npending < INV_MAX_NAMES)
			s->pending[s->npending++] = f->expr;
		return;
	}
	switch (f->type) {
	case SPEC_TYPE_ENUM:
		for (size_t i = 0; f->enm && i < f->enm->nvalues; i++)
			for (size_t j = i + 1; j < f->enm->nvalues; j++)
				if (f->enm->values[i].val != f->enm->values[j].val &&
				    !strcmp(f->enm->values[i].display, f->enm->values[j].display)) {
					say(s, "%s: enum %s prints \"%s\" for both %lld and %lld", f->name,
					    f->enm->name, f->enm->values[i].display,
					    (long long)f->enm->values[i].val, (long long)f->enm->values[j].val);
					return;
				}
		break;
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		if (f->display && !*f->display) {
			say(s, "the bool %s prints nothing either way", f->name);
			return;
		}
		break;
	case SPEC_TYPE_BITSET:
		if (s->depth + 1 >= INV_MAX_DEPTH) {
			say(s, "%s: bitset fields nested too deeply to analyse", f->name);
			return;
		}
		sub_root(s, f);
		break;
	default:
		break;
	}
	mark(s, f->low, f->high);
}

static void analyse_text(inv_scope *s, const char *d, unsigned tdepth)
{
	const spec_field *prev_num = NULL;
	for (const char *p = d; *p && !s->failed;) {
		if (*p != '{') {
			prev_num = NULL;
			p++;
			continue;
		}
		const char *e = p + 1;
		while (*e && *e != '}' && *e != ':')
			e++;
		char name[128];
		size_t n = (size_t)(e - p - 1);
		if (n >= sizeof name)
			n = sizeof name - 1;
		memcpy(name, p + 1, n);
		name[n] = 0;
		analyse_ref(s, name, &prev_num, tdepth);
		while (*e && *e != '}')
			e++;
		p = *e ? e + 1 : e;
	}
}

/* Whether the text determines a name: every bit of its field, or the
 * param printed. */
static bool name_known(const inv_scope *s, const char *name)
{
	const spec_field *f = resolve(s, name);
	if (f && f->kind == SPEC_FIELD) {
		for (unsigned b = f->low; b <= f->high; b++)
			if (!((s->known[b / 64] >> (b % 64)) & 1))
				return false;
		return true;
	}
	return !f && param_printed((inv_scope *)s, name);
}

/* The printed derived values: each determines the inputs the text does
 * not otherwise determine when it tells them apart for every value of
 * the others; what one settles may let another settle, so repeat. */
static void settle_derived(inv_scope *s)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (unsigned i = 0; i < s->npending; i++) {
			codec_input in[INV_MAX_NAMES];
			bool unknown[INV_MAX_NAMES];
			size_t n = 0;
			bool any = false;
			if (!expr_inputs(s, s->pending[i], in, &n))
				continue;
			for (size_t k = 0; k < n; k++)
				any |= unknown[k] = !name_known(s, in[k].name);
			if (!any || !injective_given(s->pending[i], in, n, unknown))
				continue;
			for (size_t k = 0; k < n; k++)
				if (unknown[k])
					mark_name(s, in[k].name);
			s->pending[i--] = s->pending[--s->npending];
			changed = true;
		}
	}
}

static bool leaf_case_invertible(const spec_model *m, const spec_bitset *leaf,
                                 const spec_case *dcase, const spec_field *opener,
                                 const inv_scope *parent, unsigned depth, char *why,
                                 size_t len, const char ***printed, unsigned *nprinted)
{
	inv_scope *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(why, len, "out of memory");
		return false;
	}
	*s = (inv_scope){.m = m, .leaf = leaf, .dcase = dcase, .opener = opener,
	                 .parent = parent, .depth = depth, .why = why, .len = len};
	unsigned nw = (leaf->size + 63) / 64;
	for (unsigned k = 0; k < nw; k++)
		s->known[k] = leaf->mask.w[k] | leaf->dontcare.w[k];
	/* asserts of the display's case and of the default cases */
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t ci = 0; ci < b->ncases; ci++) {
			const spec_case *k = &b->cases[ci];
			if (k != dcase && ci + 1 != b->ncases)
				continue;
			for (size_t i = 0; i < k->nfields; i++)
				if (k->fields[i].kind == SPEC_ASSERT)
					mark(s, k->fields[i].low, k->fields[i].high);
			if (k == dcase && k->expr)
				case_determines(s, k->expr);
		}
	analyse_text(s, dcase->display, 0);
	settle_derived(s);
	/* every field the decoder reads must be determined */
	for (const spec_bitset *b = leaf; b && !s->failed; b = b->parent) {
		const spec_case *k = b->ncases ? &b->cases[b->ncases - 1] : NULL;
		for (int pass = 0; pass < 2 && !s->failed; pass++, k = dcase) {
			for (size_t i = 0; k && i < k->nfields && !s->failed; i++) {
				const spec_field *f = &k->fields[i];
				if (f->kind != SPEC_FIELD || resolve(s, f->name) != f)
					continue;
				for (unsigned bit = f->low; bit <= f->high; bit++)
					if (!((s->known[bit / 64] >> (bit % 64)) & 1)) {
						say(s, "bit %u (%s) is not determined by the text of the display at line %u", bit,
						    f->name, dcase->display_loc.line);
						break;
					}
			}
			if (b != leaf)
				break;
		}
	}
	bool ok = !s->failed;
	if (printed) {
		*printed = NULL;
		*nprinted = 0;
		if (ok && s->nprinted) {
			*printed = malloc(s->nprinted * sizeof **printed);
			if (*printed) {
				memcpy(*printed, s->printed_params, s->nprinted * sizeof **printed);
				*nprinted = s->nprinted;
			}
		}
	}
	free(s);
	return ok;
}

bool codec_display_invertible(const codec *c, const spec_bitset *leaf, char *why, size_t len)
{
	if (why && len)
		why[0] = 0;
	if (!c || !leaf)
		return false;
	const spec_case *ks[INV_MAX_DISPLAYS];
	size_t nk = reachable_displays(leaf, ks);
	for (size_t i = 0; i < nk; i++)
		if (!leaf_case_invertible(c->m, leaf, ks[i], NULL, NULL, 0, why, len, NULL, NULL))
			return false;
	if (!nk && why && len)
		snprintf(why, len, "no display");
	return nk > 0;
}

size_t codec_lint_displays(const codec *c, spec_diags *diags)
{
	size_t n = 0;
	for (size_t r = 0; c && r < c->m->nroots; r++) {
		const spec_root *root = &c->m->roots[r];
		for (size_t i = 0; i < root->nleaves; i++) {
			char why[256];
			const spec_bitset *leaf = root->leaves[i];
			if (codec_display_invertible(c, leaf, why, sizeof why))
				continue;
			spec_diag_add(diags, SPEC_WARNING, "display-not-invertible", leaf->loc,
			              "the text of %s cannot be parsed back into its bits: %s",
			              spec_display_name(leaf), why);
			n++;
		}
	}
	return n;
}

/* The field of leaf (its default cases, from the leaf up) that holds
 * bit b, or NULL. */
static const spec_field *field_at(const spec_bitset *leaf, unsigned b)
{
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		const spec_case *k = s->ncases ? &s->cases[s->ncases - 1] : NULL;
		for (size_t i = 0; k && i < k->nfields; i++)
			if (k->fields[i].kind == SPEC_FIELD && k->fields[i].low <= b &&
			    b <= k->fields[i].high)
				return &k->fields[i];
	}
	return NULL;
}

bool codec_word_invertible(const codec *c, const uint64_t *w, uint32_t gen, char *why,
                           size_t len)
{
	return codec_word_invertible_as(c, w, gen, CODEC_NO_MATCH_MESA, why, len);
}

bool codec_word_invertible_as(const codec *c, const uint64_t *w, uint32_t gen,
                              codec_no_match_style style, char *why, size_t len)
{
	if (why && len)
		why[0] = 0;
	const spec_root *root = c ? codec_default_root(c) : NULL;
	if (!root || !w)
		return false;
	unsigned size = root->bitset->size, n32 = (size + 31) / 32;
	const spec_bitset *leaf;
	if (codec_classify(c, root, w, gen, &leaf, 1) != 1) {
		if (why && len)
			snprintf(why, len, "the word does not decode to one leaf");
		return false;
	}
	uint32_t w32[SPEC_MAX_BITS / 32];
	codec_disasm_options o = {.gen = gen, .no_match = style};
	char text[1024], other[1024];
	for (unsigned k = 0; k < n32; k++)
		w32[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
	codec_disasm_one(c, w32, &o, text, sizeof text);
	for (unsigned b = 0; b < size; b++) {
		if (spec_bit(leaf->dontcare, b))
			continue;
		w32[b / 32] ^= (uint32_t)1 << (b % 32);
		codec_disasm_one(c, w32, &o, other, sizeof other);
		w32[b / 32] ^= (uint32_t)1 << (b % 32);
		if (strcmp(text, other))
			continue;
		if (why && len) {
			const spec_field *f = field_at(leaf, b);
			snprintf(why, len, "flipping bit %u%s%s%s changes the word but not its text", b,
			         f ? " (" : "", f ? f->name : "", f ? ")" : "");
		}
		return false;
	}
	return true;
}
