/*
 * frame.c - the program-framing extension: reads every top-level
 * <program> into spec_program/spec_step records and checks them.
 *
 * A <program> is a small list of steps run against a program's words by
 * the codec (src/codec/program.c): parts decoded with a root, raw data,
 * padding, variables, groups and repeats.  Everything here is static:
 * that every root and every bitset named exists, that every {NAME} in an
 * expression is a variable set by an earlier step (or a builtin), that
 * sizes are sane, and that no loop can spin without consuming input.
 * What depends on the words (counts, positions, region sizes) is checked
 * when a program is walked, with an error, never undefined behaviour.
 *
 * docs/framing.md describes each element; Mesa's isa.py reads only the
 * direct children of <isa> it knows, so a <program> is invisible to it.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Expressions are malloc'd by spec_expr_parse; the list frees them. */
struct spec_frames {
	spec_program *programs;
	size_t nprograms;
	spec_expr **exprs;
	size_t nexprs, cap;
};

typedef struct frame_loader {
	spec_model *m;
	arena *a;
	spec_diags *diags;
	struct spec_frames *f;
	/* names visible to the step being read: variables, then builtins */
	const char **scope;
	size_t nscope, cap;
	const spec_program *prog;
} frame_loader;

#define FDIAG(F, sev, rule, loc, ...) spec_diag_add((F)->diags, sev, rule, loc, __VA_ARGS__)

static const char *const frame_builtins[] = {"_pos", "_left", "_end"};

static spec_loc frame_attr_loc(const xml_elem *e, const char *name)
{
	const xml_attr *at = xml_attr_find(e, name);
	return at ? at->loc : e->loc;
}

static bool frame_keep_expr(frame_loader *F, spec_expr *e)
{
	struct spec_frames *f = F->f;
	spec_expr **v = spec_grow(f->exprs, f->nexprs + 1, &f->cap, sizeof *v, 32);
	if (!v) {
		spec_expr_free(e);
		return false;
	}
	f->exprs = v;
	f->exprs[f->nexprs++] = e;
	return true;
}

static bool frame_push_name(frame_loader *F, const char *name)
{
	const char **v = spec_grow(F->scope, F->nscope + 1, &F->cap, sizeof *v, 32);
	if (!v)
		return false;
	F->scope = v;
	F->scope[F->nscope++] = name;
	return true;
}

static bool frame_name_known(const frame_loader *F, const char *name)
{
	for (size_t i = F->nscope; i-- > 0;)
		if (!strcmp(F->scope[i], name))
			return true;
	for (size_t i = 0; i < sizeof frame_builtins / sizeof *frame_builtins; i++)
		if (!strcmp(frame_builtins[i], name))
			return true;
	return false;
}

/* Parses attribute attr of e as an expression and checks its names
 * against the scope.  NULL when absent or wrong (reported). */
static const spec_expr *frame_expr(frame_loader *F, const xml_elem *e, const char *attr)
{
	const xml_attr *at = xml_attr_find(e, attr);
	if (!at)
		return NULL;
	spec_expr *x = spec_expr_parse(at->value, at->loc, F->diags);
	if (!x || !frame_keep_expr(F, x))
		return NULL;
	for (size_t i = 0; i < spec_expr_ref_count(x); i++) {
		const char *r = spec_expr_ref(x, i);
		if (!frame_name_known(F, r))
			FDIAG(F, SPEC_ERROR, "frame-ref-unknown", at->loc,
			      "%s=\"%s\" on <%s> names {%s}, which no earlier step of program "
			      "'%s' sets (and which is no builtin: _pos, _left, _end)",
			      attr, at->value, e->name, r, F->prog->name);
	}
	if (spec_expr_uses_gpu_id(x))
		FDIAG(F, SPEC_ERROR, "frame-ref-unknown", at->loc,
		      "%s=\"%s\" on <%s> calls ISA_GPU_ID(); framing expressions may use only "
		      "variables", attr, at->value, e->name);
	return x;
}

/* An unsigned attribute in 1..max; 0 when absent, reported when bad. */
static bool frame_uint(frame_loader *F, const xml_elem *e, const char *attr, uint64_t max,
                       bool allow_zero, unsigned *out)
{
	const char *v = xml_attr_get(e, attr);
	uint64_t x;
	if (!v)
		return false;
	if (!text_parse_uint(v, UINT64_MAX, &x)) {
		FDIAG(F, SPEC_ERROR, "bad-number", frame_attr_loc(e, attr),
		      "%s=\"%s\" on <%s> is not a whole number", attr, v, e->name);
		return false;
	}
	if ((!allow_zero && x == 0) || x > max) {
		FDIAG(F, SPEC_ERROR, "frame-size", frame_attr_loc(e, attr),
		      "%s=\"%s\" on <%s> is outside %u..%llu", attr, v, e->name, allow_zero ? 0u : 1u,
		      (unsigned long long)max);
		return false;
	}
	*out = (unsigned)x;
	return true;
}

static bool frame_bool(frame_loader *F, const xml_elem *e, const char *attr)
{
	const char *v = xml_attr_get(e, attr);
	if (!v)
		return false;
	if (!strcmp(v, "true"))
		return true;
	if (strcmp(v, "false"))
		FDIAG(F, SPEC_ERROR, "bad-number", frame_attr_loc(e, attr),
		      "%s=\"%s\" on <%s> is neither true nor false", attr, v, e->name);
	return false;
}

static const char *frame_need(frame_loader *F, const xml_elem *e, const char *attr)
{
	const char *v = xml_attr_get(e, attr);
	if (!v || !*v)
		FDIAG(F, SPEC_ERROR, "missing-attribute", e->loc, "<%s> in program '%s' needs %s=",
		      e->name, F->prog->name, attr);
	return v && *v ? v : NULL;
}

/* Display and text bodies: trimmed of the XML's own white space, then
 * \t, \n and \\ stand for a tab, a newline and a backslash (tabs would
 * not survive an editor, and leading ones not the trimming). */
static const char *frame_text(frame_loader *F, const char *raw)
{
	const char *s = raw;
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	char *out = arena_alloc(F->a, n + 1);
	if (!out)
		return "";
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && (s[i + 1] == 't' || s[i + 1] == 'n' || s[i + 1] == '\\')) {
			out[k++] = s[i + 1] == 't' ? '\t' : s[i + 1] == 'n' ? '\n' : '\\';
			i++;
		} else {
			out[k++] = s[i];
		}
	}
	out[k] = 0;
	return out;
}

const char *spec_frame_ref(const char *open, char *name, size_t cap, const char **format)
{
	const char *close = strchr(open, '}');
	if (!close)
		return NULL;
	size_t n = (size_t)(close - open - 1);
	if (n >= cap)
		n = cap - 1;
	memcpy(name, open + 1, n);
	name[n] = 0;
	char *colon = strchr(name, ':');
	*format = colon ? colon + 1 : NULL;
	if (colon)
		*colon = 0;
	return close;
}

/* Checks {NAME} in a display, suffix or text: {_} (unless the element
 * named by no_instr, which has no instruction text) and variables in
 * scope, with an optional ":hex". */
static void frame_check_template(frame_loader *F, const char *t, spec_loc loc,
                                 const char *no_instr)
{
	for (const char *p = strchr(t, '{'); p; p = strchr(p + 1, '{')) {
		char name[128];
		const char *format;
		const char *close = spec_frame_ref(p, name, sizeof name, &format);
		if (!close) {
			FDIAG(F, SPEC_ERROR, "display-syntax", loc, "'{' without '}' in \"%s\"", t);
			return;
		}
		if (format && strcmp(format, "hex"))
			FDIAG(F, SPEC_ERROR, "display-syntax", loc,
			      "{%s:%s} in \"%s\": the only format is :hex", name, format, t);
		if (!strcmp(name, "_")) {
			if (no_instr)
				FDIAG(F, SPEC_ERROR, "frame-ref-unknown", loc,
				      "{_} (the instruction's text) in a <%s>, which has no instruction",
				      no_instr);
		} else if (!frame_name_known(F, name)) {
			FDIAG(F, SPEC_ERROR, "frame-ref-unknown", loc,
			      "{%s} in \"%s\" names no variable set before it", name, t);
		}
		p = close;
	}
}

/* Whether a bitset of root r defines a field or derived field name. */
static bool frame_root_has_field(const spec_model *m, const spec_root *r, const char *name)
{
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		if (b->root != r->bitset)
			continue;
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t k = 0; k < b->cases[c].nfields; k++)
				if (b->cases[c].fields[k].kind != SPEC_ASSERT &&
				    !strcmp(b->cases[c].fields[k].name, name))
					return true;
	}
	return false;
}

static bool frame_root_has_bitset(const spec_model *m, const spec_root *r, const char *name)
{
	for (size_t i = 0; i < m->nbitsets; i++)
		if (m->bitsets[i]->root == r->bitset && !strcmp(m->bitsets[i]->name, name))
			return true;
	return false;
}

static void frame_steps(frame_loader *F, const xml_elem *parent, const spec_step **out,
                        size_t *nout, unsigned depth);

/* Zeroed room for an element of size bytes per child of e named name
 * (at least one, so that no child is not an allocation failure). */
static void *frame_alloc_children(frame_loader *F, const xml_elem *e, const char *name,
                                  size_t size)
{
	size_t n = 0;
	for (const xml_elem *c = e->first; c; c = c->next)
		n += !strcmp(c->name, name);
	return arena_alloc(F->a, (n ? n : 1) * size);
}

static void frame_exports(frame_loader *F, spec_step *s, const xml_elem *e)
{
	spec_export *ex = frame_alloc_children(F, e, "export", sizeof *ex);
	if (!ex)
		return;
	size_t k = 0;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (strcmp(c->name, "export"))
			continue;
		spec_export *x = &ex[k];
		x->loc = c->loc;
		x->field = xml_attr_get(c, "field");
		const char *is = xml_attr_get(c, "is");
		x->as = xml_attr_get(c, "as");
		if (!x->field == !is) {
			FDIAG(F, SPEC_ERROR, "missing-attribute", c->loc,
			      "<export> needs field= or is= (one of them)");
			continue;
		}
		if (!x->as)
			x->as = x->field;
		if (!x->as) {
			FDIAG(F, SPEC_ERROR, "missing-attribute", c->loc, "<export is=...> needs as=");
			continue;
		}
		if (x->field && s->root && !frame_root_has_field(F->m, s->root, x->field))
			FDIAG(F, SPEC_ERROR, "frame-field-unknown", frame_attr_loc(c, "field"),
			      "<export field=\"%s\">: no bitset of root '%s' has that field", x->field,
			      s->root->bitset->name);
		if (is) {
			/* a space-separated list of bitset names */
			size_t cnt = 0;
			const char **names = arena_alloc(F->a, (strlen(is) / 2 + 2) * sizeof *names);
			if (!names)
				return;
			size_t len;
			for (const char *p = is, *w; (w = text_next_word(&p, &len));) {
				names[cnt] = arena_strndup(F->a, w, len);
				if (names[cnt] && s->root &&
				    !frame_root_has_bitset(F->m, s->root, names[cnt]))
					FDIAG(F, SPEC_ERROR, "frame-field-unknown", frame_attr_loc(c, "is"),
					      "<export is=...> names '%s', which is no bitset of root '%s'",
					      names[cnt], s->root->bitset->name);
				cnt += names[cnt] != NULL;
			}
			x->is = names;
			x->nis = cnt;
		}
		k++;
	}
	s->exports = ex;
	s->nexports = k;
}

static void frame_displays(frame_loader *F, spec_step *s, const xml_elem *e)
{
	spec_frame_display *d = frame_alloc_children(F, e, "display", sizeof *d);
	if (!d)
		return;
	size_t k = 0;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (strcmp(c->name, "display"))
			continue;
		d[k].loc = c->loc;
		d[k].when = frame_expr(F, c, "when");
		d[k].text = frame_text(F, c->text);
		frame_check_template(F, d[k].text, c->loc, NULL);
		k++;
	}
	s->displays = d;
	s->ndisplays = k;
}

/* <suffix line="N" when="EXPR">TEXT</suffix>: TEXT at the end of line N
 * of the item's printed text.  It is printed after the instruction, so
 * {_} is not for it (the display already holds the instruction). */
static void frame_suffixes(frame_loader *F, spec_step *s, const xml_elem *e)
{
	spec_frame_suffix *x = frame_alloc_children(F, e, "suffix", sizeof *x);
	if (!x)
		return;
	size_t k = 0;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (strcmp(c->name, "suffix"))
			continue;
		x[k].loc = c->loc;
		if (frame_need(F, c, "line"))
			frame_uint(F, c, "line", SPEC_MAX_BITS, false, &x[k].line);
		x[k].when = frame_expr(F, c, "when");
		x[k].text = frame_text(F, c->text);
		frame_check_template(F, x[k].text, c->loc, "suffix");
		k++;
	}
	s->suffixes = x;
	s->nsuffixes = k;
}

/* unexplained="REASON" on <data>: the bits are not understood, and
 * triage reports every such item under its reason.  The reason is the
 * one line a person reads in the report, so it must say something:
 * empty, a boolean, several lines or a {NAME} (which would be printed as
 * written: triage knows no framing variables) are errors.  NULL when
 * absent or wrong. */
static const char *frame_unexplained(frame_loader *F, const xml_elem *e)
{
	const char *v = xml_attr_get(e, "unexplained");
	if (!v)
		return NULL;
	spec_loc loc = frame_attr_loc(e, "unexplained");
	const char *r = text_strip(F->a, v);
	const char *why = NULL;
	if (!r)
		return NULL;
	if (!*r)
		why = "gives no reason";
	else if (!strcasecmp(r, "true") || !strcasecmp(r, "false") || !strcasecmp(r, "yes") ||
	         !strcasecmp(r, "no"))
		why = "is a yes or no, not a reason";
	else if (strpbrk(r, "{}"))
		why = "holds a brace: the reason is printed as written, no {NAME} is replaced";
	for (const char *p = r; !why && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			why = "is not one line of text";
	if (why) {
		/* the message stays one line whatever the value holds */
		char shown[64];
		size_t n = 0;
		for (const char *p = v; *p && n + 4 < sizeof shown; p++)
			shown[n++] = (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p;
		if (strlen(v) > n) {
			memcpy(shown + n, "...", 3);
			n += 3;
		}
		shown[n] = 0;
		FDIAG(F, SPEC_ERROR, "frame-unexplained", loc,
		      "unexplained=\"%s\" on <data> %s; say why the bits are not understood "
		      "(e.g. unexplained=\"layout unknown\")", shown, why);
		return NULL;
	}
	return r;
}

/* Whether running these steps can consume any bit at the cursor. */
static bool frame_can_consume(const spec_step *steps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const spec_step *s = &steps[i];
		switch (s->kind) {
		case SPEC_STEP_PART:
		case SPEC_STEP_DATA:
			if (!s->at)
				return true;
			break;
		case SPEC_STEP_ALIGN:
			return true;
		case SPEC_STEP_GROUP:
			if (s->expr || frame_can_consume(s->steps, s->nsteps))
				return true;
			break;
		case SPEC_STEP_REPEAT:
			if (frame_can_consume(s->steps, s->nsteps))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

static void frame_step(frame_loader *F, const xml_elem *e, spec_step *s, unsigned depth)
{
	static const char *const names[] = {"part", "data", "read", "let", "align",
	                                    "reject", "text", "group", "repeat"};
	size_t kind = 0;
	while (kind < sizeof names / sizeof *names && strcmp(names[kind], e->name))
		kind++;
	s->kind = (spec_step_kind)kind;
	s->loc = e->loc;
	s->name = xml_attr_get(e, "name");
	/* `when` sees what the steps before it set */
	s->when = frame_expr(F, e, "when");
	switch (s->kind) {
	case SPEC_STEP_PART: {
		const char *root = frame_need(F, e, "root");
		if (root) {
			s->root = spec_find_root(F->m, root);
			if (!s->root) {
				const spec_bitset *b = spec_find_bitset(F->m, root);
				FDIAG(F, SPEC_ERROR, "frame-root-unknown", frame_attr_loc(e, "root"),
				      b ? "<part root=\"%s\">: '%s' is a bitset but not a root (no size=)"
				        : "<part root=\"%s\">: no root bitset is called '%s'", root, root);
			}
		}
		if (frame_uint(F, e, "bits", SPEC_MAX_BITS, false, &s->bits) && s->root &&
		    s->bits > s->root->bitset->size)
			FDIAG(F, SPEC_ERROR, "frame-part-width", frame_attr_loc(e, "bits"),
			      "<part bits=\"%u\"> is wider than its root '%s' (%u bits)", s->bits,
			      s->root->bitset->name, s->root->bitset->size);
		if (!s->bits && s->root)
			s->bits = s->root->bitset->size;
		s->at = frame_expr(F, e, "at");
		frame_exports(F, s, e);
		for (size_t i = 0; i < s->nexports; i++)
			frame_push_name(F, s->exports[i].as);
		frame_displays(F, s, e);
		frame_suffixes(F, s, e);
		break;
	}
	case SPEC_STEP_DATA:
		if (frame_need(F, e, "bits"))
			frame_uint(F, e, "bits", SPEC_MAX_BITS, false, &s->bits);
		s->at = frame_expr(F, e, "at");
		frame_displays(F, s, e);
		frame_suffixes(F, s, e);
		s->unexplained = frame_unexplained(F, e);
		break;
	case SPEC_STEP_READ: {
		uint64_t lo = 0, hi = 0;
		const char *pos = xml_attr_get(e, "pos");
		bool ok = true;
		if (pos) {
			ok = frame_uint(F, e, "pos", SPEC_MAX_BITS - 1, true, &s->low);
			s->high = s->low;
		} else if (xml_attr_get(e, "low") && xml_attr_get(e, "high")) {
			ok = frame_uint(F, e, "low", SPEC_MAX_BITS - 1, true, &s->low);
			ok = frame_uint(F, e, "high", SPEC_MAX_BITS - 1, true, &s->high) && ok;
		} else {
			FDIAG(F, SPEC_ERROR, "bad-range", e->loc, "<read> needs pos, or low and high");
			ok = false;
		}
		lo = s->low;
		hi = s->high;
		if (ok && lo > hi) {
			FDIAG(F, SPEC_ERROR, "bad-range", e->loc, "<read> has low=%llu above high=%llu",
			      (unsigned long long)lo, (unsigned long long)hi);
			s->high = s->low;
		} else if (ok && hi - lo + 1 > 64) {
			FDIAG(F, SPEC_ERROR, "frame-size", e->loc,
			      "<read> of %llu bits; a variable holds at most 64",
			      (unsigned long long)(hi - lo + 1));
			s->high = s->low + 63;
		}
		if (frame_need(F, e, "name"))
			frame_push_name(F, s->name);
		break;
	}
	case SPEC_STEP_LET:
		frame_need(F, e, "name");
		if (frame_need(F, e, "expr"))
			s->expr = frame_expr(F, e, "expr");
		s->item = frame_bool(F, e, "item");
		if (s->name)
			frame_push_name(F, s->name);
		break;
	case SPEC_STEP_ALIGN:
		if (frame_need(F, e, "bits"))
			frame_uint(F, e, "bits", SPEC_MAX_BITS, false, &s->bits);
		s->zero = frame_bool(F, e, "zero");
		break;
	case SPEC_STEP_REJECT:
		s->text = frame_need(F, e, "message");
		if (!s->when)
			FDIAG(F, SPEC_WARNING, "frame-reject", e->loc,
			      "<reject> without when= rejects every program");
		break;
	case SPEC_STEP_TEXT:
		s->text = frame_text(F, e->text);
		frame_check_template(F, s->text, e->text_loc, "text");
		break;
	case SPEC_STEP_GROUP: {
		s->expr = frame_expr(F, e, "bits");
		s->zero = frame_bool(F, e, "zero");
		size_t mark = F->nscope;
		frame_steps(F, e, &s->steps, &s->nsteps, depth + 1);
		F->nscope = mark;
		break;
	}
	case SPEC_STEP_REPEAT: {
		bool has_count = xml_attr_get(e, "count") != NULL;
		bool has_count_at = xml_attr_get(e, "count-at") != NULL;
		s->to_end = frame_bool(F, e, "to-end");
		if (has_count && s->to_end)
			FDIAG(F, SPEC_ERROR, "frame-repeat", e->loc,
			      "<repeat> has both count= and to-end=\"true\"; give one");
		else if (!has_count && !s->to_end)
			FDIAG(F, SPEC_ERROR, "frame-repeat", e->loc,
			      "<repeat> needs count= or to-end=\"true\"");
		if (has_count_at && !has_count)
			FDIAG(F, SPEC_ERROR, "frame-repeat", e->loc,
			      "<repeat count-at=...> needs count= too");
		if (has_count && !has_count_at)
			s->expr = frame_expr(F, e, "count");
		size_t mark = F->nscope;
		if (s->name)
			frame_push_name(F, s->name);
		/* count may name what the body exports only when count-at says
		 * which iteration fixes it: check it again inside the body */
		frame_steps(F, e, &s->steps, &s->nsteps, depth + 1);
		if (has_count_at && has_count) {
			/* both are evaluated after an iteration, in its scope */
			s->count_at = frame_expr(F, e, "count-at");
			s->expr = frame_expr(F, e, "count");
		}
		F->nscope = mark;
		if ((s->to_end || s->count_at) && !frame_can_consume(s->steps, s->nsteps))
			FDIAG(F, SPEC_ERROR, "frame-loop", e->loc,
			      "<repeat %s> has no step that consumes input at the cursor: it could "
			      "never end", s->to_end ? "to-end" : "count-at");
		break;
	}
	default:
		break; /* unknown elements are reported by the schema check */
	}
}

static void frame_steps(frame_loader *F, const xml_elem *parent, const spec_step **out,
                        size_t *nout, unsigned depth)
{
	static const char *const step_names =
		" part data read let align reject text group repeat ";
	size_t n = 0;
	for (const xml_elem *c = parent->first; c; c = c->next) {
		char key[40];
		snprintf(key, sizeof key, " %.32s ", c->name);
		n += strstr(step_names, key) != NULL;
	}
	*out = NULL;
	*nout = 0;
	if (depth > SPEC_MAX_FRAME_DEPTH) {
		FDIAG(F, SPEC_ERROR, "frame-depth", parent->loc,
		      "<group>/<repeat> nested deeper than %u levels", SPEC_MAX_FRAME_DEPTH);
		return;
	}
	spec_step *steps = arena_alloc(F->a, (n ? n : 1) * sizeof *steps);
	if (!steps)
		return;
	size_t k = 0;
	for (const xml_elem *c = parent->first; c; c = c->next) {
		char key[40];
		snprintf(key, sizeof key, " %.32s ", c->name);
		if (strstr(step_names, key))
			frame_step(F, c, &steps[k++], depth);
	}
	*out = steps;
	*nout = k;
}

/* <program name="V" extends="BASE">: a variant of an earlier program.
 * Its steps are BASE's, each top-level <let> of BASE whose variable one
 * of V's <let>s sets again replaced by that <let> (which is checked, as
 * a first step, against the builtins alone).  A variant holds nothing
 * else: variants of one program frame the words alike and differ only
 * in what their variables select (a2xx's stage, for the export
 * comments).  cover is BASE's unless V gives its own. */
static void frame_variant(frame_loader *F, spec_program *p, const xml_elem *e)
{
	const struct spec_frames *f = F->f;
	const spec_program *base = NULL;
	for (size_t j = 0; j < f->nprograms; j++)
		if (!strcmp(f->programs[j].name, p->extends))
			base = &f->programs[j];
	if (!base || base == p) {
		FDIAG(F, SPEC_ERROR, "frame-variant", frame_attr_loc(e, "extends"),
		      "program '%s' extends '%s', which no <program> before it is", p->name,
		      p->extends);
		return;
	}
	p->cover = xml_attr_get(e, "cover") ? frame_bool(F, e, "cover") : base->cover;
	spec_step *steps = arena_alloc(F->a, (base->nsteps ? base->nsteps : 1) * sizeof *steps);
	if (!steps)
		return;
	if (base->nsteps)
		memcpy(steps, base->steps, base->nsteps * sizeof *steps);
	p->steps = steps;
	p->nsteps = base->nsteps;
	for (const xml_elem *c = e->first; c; c = c->next) {
		if (c->kind == EL_DOC)
			continue;
		if (strcmp(c->name, "let")) {
			FDIAG(F, SPEC_ERROR, "frame-variant", c->loc,
			      "<%s> in program '%s', a variant of '%s': a variant only sets variables "
			      "of its base again, with <let>", c->name, p->name, base->name);
			continue;
		}
		spec_step v = {0};
		F->nscope = 0;
		frame_step(F, c, &v, 1);
		bool found = false;
		for (size_t k = 0; k < p->nsteps && v.name; k++)
			if (steps[k].kind == SPEC_STEP_LET && steps[k].name &&
			    !strcmp(steps[k].name, v.name)) {
				steps[k] = v;
				found = true;
			}
		if (!found && v.name)
			FDIAG(F, SPEC_ERROR, "frame-variant", c->loc,
			      "<let name=\"%s\"> in program '%s': its base '%s' sets no variable '%s' "
			      "at its top level", v.name, p->name, base->name, v.name);
	}
}

void spec_frame_load(spec_model *m, arena *a, const xml_elem *const *defs, size_t ndefs,
                     spec_diags *diags)
{
	struct spec_frames *f = calloc(1, sizeof *f);
	if (!f) {
		a->failed = true;
		return;
	}
	m->priv->frames = f;
	size_t n = 0;
	for (size_t i = 0; i < ndefs; i++)
		n += !strcmp(defs[i]->name, "program");
	if (!n)
		return;
	f->programs = arena_alloc(a, n * sizeof *f->programs);
	if (!f->programs)
		return;
	frame_loader F = {.m = m, .a = a, .diags = diags, .f = f};
	for (size_t i = 0; i < ndefs; i++) {
		const xml_elem *e = defs[i];
		if (strcmp(e->name, "program"))
			continue;
		spec_program *p = &f->programs[f->nprograms];
		p->loc = e->loc;
		p->name = xml_attr_get(e, "name");
		if (!p->name || !*p->name) {
			FDIAG(&F, SPEC_ERROR, "missing-attribute", e->loc, "<program> needs a name");
			continue;
		}
		for (size_t j = 0; j < f->nprograms; j++)
			if (!strcmp(f->programs[j].name, p->name))
				FDIAG(&F, SPEC_ERROR, "frame-duplicate", e->loc,
				      "program '%s' is defined again (first at %s:%u)", p->name,
				      f->programs[j].loc.file, f->programs[j].loc.line);
		F.prog = p;
		F.nscope = 0;
		for (const xml_elem *c = e->first; c && !p->doc; c = c->next)
			if (c->kind == EL_DOC)
				p->doc = text_strip(a, c->text);
		p->extends = xml_attr_get(e, "extends");
		if (p->extends) {
			frame_variant(&F, p, e);
		} else {
			p->cover = frame_bool(&F, e, "cover");
			frame_steps(&F, e, &p->steps, &p->nsteps, 1);
		}
		f->nprograms++;
	}
	free(F.scope);
}

void spec_frame_free(struct spec_model_private *priv)
{
	if (!priv || !priv->frames)
		return;
	for (size_t i = 0; i < priv->frames->nexprs; i++)
		spec_expr_free(priv->frames->exprs[i]);
	free(priv->frames->exprs);
	free(priv->frames);
	priv->frames = NULL;
}

size_t spec_program_count(const spec_model *m)
{
	return m && m->priv && m->priv->frames ? m->priv->frames->nprograms : 0;
}

const spec_program *spec_program_at(const spec_model *m, size_t i)
{
	return i < spec_program_count(m) ? &m->priv->frames->programs[i] : NULL;
}

const spec_program *spec_find_program(const spec_model *m, const char *name)
{
	size_t n = spec_program_count(m);
	if (!name) {
		/* variants are chosen by name: the default is the one base */
		const spec_program *only = NULL;
		for (size_t i = 0; i < n; i++) {
			const spec_program *p = &m->priv->frames->programs[i];
			if (p->extends)
				continue;
			if (only)
				return NULL;
			only = p;
		}
		return only;
	}
	const spec_program *found = NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m->priv->frames->programs[i].name, name))
			found = &m->priv->frames->programs[i]; /* the last, as Mesa's later wins */
	return found;
}
