/*
 * program.c - whole programs: runs a spec's <program> steps (spec.h,
 * docs/framing.md) over a program's words, producing its items (each
 * instruction with the root it was decoded against, raw data, padding,
 * joined values), its disassembly and structured framing errors.
 *
 * Termination on any input: a <repeat to-end> iteration must consume
 * input, a <repeat count-at> that has not found its count must too, and
 * every step executed is paid for from a budget proportional to the
 * input's size.  Positions and sizes computed by expressions are range
 * checked before use.  Nothing is read outside the input.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM_TEXT_MAX   (64u << 20) /* disassembly text of one program */
#define PROGRAM_INSTR_TEXT 65536u      /* one instruction's text */

typedef struct pvar {
	const char *name;
	int64_t value;
	bool set;         /* an export of a field the decoded leaf lacks is unset */
} pvar;

typedef struct sbuf {
	char *s;
	size_t n, cap;
	bool failed;
} sbuf;

struct codec_program_private {
	uint64_t *pool;   /* the items' bits */
	size_t npool, cappool;
	size_t *woff;     /* per item: offset of its bits in pool */
	size_t capitems;
};

typedef struct walk {
	const codec *c;
	const spec_program *p;
	const uint32_t *in;
	size_t nbits;
	uint32_t gen;
	bool show_errors;
	codec_program *r;
	pvar *vars;
	size_t nvars, capvars;
	size_t cursor, region_end;
	size_t budget;
	bool stop;
	bool unset_hit;   /* the last evaluation met an unset variable */
	cx *x;
	char *ibuf;       /* one instruction's text */
	sbuf text;
	codec_value values[512];
	codec_issue issues[16];
} walk;

/* ------------------------------------------------------------ helpers */

static void sb_put(sbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *p = cap <= PROGRAM_TEXT_MAX ? realloc(b->s, cap) : NULL;
		if (!p) {
			b->failed = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

const char *codec_frame_error_name(codec_frame_error_kind k)
{
	static const char *const names[] = {
		"truncated", "rejected", "overflow", "uncovered", "overlap",
		"loop", "expression", "count", "padding", "memory",
	};
	return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

static void werror(walk *W, codec_frame_error_kind kind, bool fatal, size_t bit,
                   const spec_step *step, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void werror(walk *W, codec_frame_error_kind kind, bool fatal, size_t bit,
                   const spec_step *step, const char *fmt, ...)
{
	codec_program *r = W->r;
	if (fatal)
		W->stop = true;
	if (r->nerrors >= CODEC_PROGRAM_MAX_ERRORS)
		return;
	codec_frame_error *e = &r->errors[r->nerrors++];
	e->kind = kind;
	e->fatal = fatal;
	e->bit = bit;
	e->step = step;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
}

/* Pays for one step; false (with a LOOP error) when the budget is gone. */
static bool pay(walk *W, const spec_step *s)
{
	if (W->budget == 0) {
		werror(W, CODEC_FRAME_LOOP, true, W->cursor, s,
		       "the walk took more steps than an input of %zu bits allows: a loop", W->nbits);
		return false;
	}
	W->budget--;
	return true;
}

static bool push_var(walk *W, const char *name, int64_t v, bool set)
{
	pvar *p = spec_grow(W->vars, W->nvars + 1, &W->capvars, sizeof *p, 64);
	if (!p) {
		werror(W, CODEC_FRAME_MEMORY, true, W->cursor, NULL, "out of memory");
		return false;
	}
	W->vars = p;
	W->vars[W->nvars++] = (pvar){name, v, set};
	return true;
}

static const pvar *find_var(const walk *W, const char *name)
{
	for (size_t i = W->nvars; i-- > 0;)
		if (!strcmp(W->vars[i].name, name))
			return &W->vars[i];
	return NULL;
}

static bool builtin(const walk *W, const char *name, int64_t *v)
{
	if (!strcmp(name, "_pos"))
		*v = (int64_t)W->cursor;
	else if (!strcmp(name, "_left"))
		*v = (int64_t)(W->region_end - W->cursor);
	else if (!strcmp(name, "_end"))
		*v = (int64_t)W->nbits;
	else
		return false;
	return true;
}

static bool lookup(void *ctx, const char *name, unsigned depth, int64_t *value, char *err,
                   size_t errlen)
{
	(void)depth;
	const walk *W = ctx;
	const pvar *v = find_var(W, name);
	if (v && !v->set) {
		((walk *)ctx)->unset_hit = true;
		snprintf(err, errlen, "{%s} has no value here (the decoded leaf has no such field)",
		         name);
		return false;
	}
	if (v) {
		*value = v->value;
		return true;
	}
	return builtin(W, name, value);
}

/* Evaluates e; false (with a fatal EXPR error at step s) on failure. */
static bool weval(walk *W, const spec_step *s, const spec_expr *e, const char *what,
                  int64_t *out)
{
	spec_eval_env env = {lookup, W, (int64_t)W->gen, 0};
	char err[200];
	if (!spec_expr_eval(e, &env, out, err, sizeof err)) {
		werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "%s \"%s\": %s", what,
		       spec_expr_text(e), err);
		return false;
	}
	return true;
}

/* An expression giving a position, size or count: false (the error
 * recorded, as `label="text" gives -1`) when it fails or is negative. */
static bool weval_count(walk *W, const spec_step *s, const spec_expr *e, const char *what,
                        const char *label, int64_t *out)
{
	if (!weval(W, s, e, what, out))
		return false;
	if (*out < 0) {
		werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "%s=\"%s\" gives %" PRId64, label,
		       spec_expr_text(e), *out);
		return false;
	}
	return true;
}

/* when= of a step: true when absent. */
static bool holds(walk *W, const spec_step *s, const spec_expr *when, bool *ok)
{
	int64_t v = 1;
	*ok = !when || weval(W, s, when, "when", &v);
	return *ok && v != 0;
}

/* Bits [pos, pos + n) of the input into out (item bit 0 first). */
static void extract(const uint32_t *in, size_t pos, unsigned n, uint64_t *out)
{
	memset(out, 0, ((n + 63) / 64) * sizeof *out);
	for (unsigned i = 0; i < n;) {
		size_t b = pos + i;
		unsigned sh = (unsigned)(b % 32), take = 32 - sh;
		if (take > n - i)
			take = n - i;
		uint64_t v = (uint64_t)(in[b / 32] >> sh);
		if (take < 32)
			v &= ((uint64_t)1 << take) - 1;
		out[i / 64] |= v << (i % 64);
		if (i % 64 + take > 64)
			out[i / 64 + 1] |= v >> (64 - i % 64);
		i += take;
	}
}

/* Appends an item with n bits taken from the input at pos. */
static codec_item *add_item(walk *W, codec_item_kind kind, const spec_step *s, size_t pos,
                            unsigned n)
{
	codec_program *r = W->r;
	struct codec_program_private *pv = r->priv;
	size_t nw = (n + 63) / 64;
	if (r->nitems == pv->capitems) {
		size_t cap = pv->capitems ? pv->capitems * 2 : 64;
		codec_item *it = realloc(r->items, cap * sizeof *it);
		size_t *wo = it ? realloc(pv->woff, cap * sizeof *wo) : NULL;
		if (it)
			r->items = it;
		if (!wo) {
			werror(W, CODEC_FRAME_MEMORY, true, pos, s, "out of memory");
			return NULL;
		}
		pv->woff = wo;
		pv->capitems = cap;
	}
	uint64_t *pool = spec_grow(pv->pool, pv->npool + nw, &pv->cappool, sizeof *pool, 256);
	if (!pool) {
		werror(W, CODEC_FRAME_MEMORY, true, pos, s, "out of memory");
		return NULL;
	}
	pv->pool = pool;
	if (nw)
		extract(W->in, pos, n, pv->pool + pv->npool);
	pv->woff[r->nitems] = pv->npool;
	pv->npool += nw;
	codec_item *it = &r->items[r->nitems++];
	*it = (codec_item){.kind = kind, .step = s, .name = s ? s->name : NULL, .bit = pos,
	                   .bits = n, .clean = true};
	return it;
}

static const uint64_t *item_bits(const walk *W, const codec_item *it)
{
	const codec_program *r = W->r;
	return r->priv->pool + r->priv->woff[it - r->items];
}

/* Where a span of n bits at pos ends, checked against the region and
 * the input.  False with a fatal error. */
static bool fits(walk *W, const spec_step *s, size_t pos, uint64_t n, bool in_region,
                 const char *what)
{
	size_t end = in_region ? W->region_end : W->nbits;
	if (pos <= end && n <= end - pos)
		return true;
	if (!in_region || W->region_end == W->nbits || pos + n > W->nbits)
		werror(W, CODEC_FRAME_TRUNCATED, true, pos, s,
		       "%s needs bits %zu..%llu, but the program ends at bit %zu (word %zu)", what,
		       pos, (unsigned long long)(pos + n - 1), W->nbits, W->nbits / 32);
	else
		werror(W, CODEC_FRAME_OVERFLOW, true, pos, s,
		       "%s needs bits %zu..%llu, past the end of its region at bit %zu", what, pos,
		       (unsigned long long)(pos + n - 1), W->region_end);
	return false;
}

/* ------------------------------------------------------------- text */

/* One instruction of root ri as the codec's disassembler prints it. */
static void render_instr(walk *W, size_t ri, const uint64_t *w, sbuf *out)
{
	cx *x = W->x;
	cx_init(x, W->c, CX_DISASM, W->gen);
	cx_out o = {.buf = W->ibuf, .cap = PROGRAM_INSTR_TEXT};
	x->out = &o;
	const spec_bitset *b = cx_find_bitset(x, ri, w);
	if (!b) {
		char hex[CODEC_MAX_WORDS * 16 + 1];
		cx_hex(x, w, hex, sizeof hex);
		sb_str(out, "no match: ");
		sb_str(out, hex);
	} else {
		cx_display_top(x, b, w);
		sb_put(out, W->ibuf, o.len < PROGRAM_INSTR_TEXT ? o.len : PROGRAM_INSTR_TEXT - 1);
	}
	if (x->nerr && W->show_errors) {
		sb_str(out, "\t; ");
		for (unsigned i = 0; i < x->nerr; i++) {
			if (i)
				sb_str(out, ", ");
			sb_str(out, x->err[i]);
		}
	}
}

/* A display, <text> or <reject> message: {_} is instr, {NAME} a
 * variable in decimal, {NAME:hex} in hex with 0x. */
static void render_template(walk *W, const char *t, const char *instr, sbuf *out)
{
	for (const char *p = t; *p;) {
		const char *open = strchr(p, '{');
		char name[128];
		const char *format = NULL;
		const char *close = open ? spec_frame_ref(open, name, sizeof name, &format) : NULL;
		if (!close) {
			sb_str(out, p);
			return;
		}
		sb_put(out, p, (size_t)(open - p));
		bool hex = format && !strcmp(format, "hex");
		int64_t v;
		const pvar *var = find_var(W, name);
		if (!strcmp(name, "_")) {
			sb_str(out, instr ? instr : "");
		} else if ((var && var->set) || (!var && builtin(W, name, &v))) {
			char num[32];
			if (var)
				v = var->value;
			if (hex)
				snprintf(num, sizeof num, "0x%" PRIx64, (uint64_t)v);
			else
				snprintf(num, sizeof num, "%" PRId64, v);
			sb_str(out, num);
		} else {
			sb_str(out, "?");
		}
		p = close + 1;
	}
}

/* Inserts n bytes at offset at of b. */
static void sb_insert(sbuf *b, size_t at, const char *s, size_t n)
{
	size_t len = b->n;
	sb_put(b, s, n); /* grows b; the bytes are moved into place below */
	if (b->failed)
		return;
	memmove(b->s + at + n, b->s + at, len - at);
	memcpy(b->s + at, s, n);
}

/* The <suffix>es of step s on the item text printed from offset from of
 * W->text (each of its lines ends in "\n").  A suffix whose when= needs
 * a variable the part left unset (it did not decode) is not printed; a
 * line the text does not have gets nothing. */
static bool suffix_item(walk *W, const spec_step *s, size_t from)
{
	for (size_t i = 0; i < s->nsuffixes; i++) {
		const spec_frame_suffix *x = &s->suffixes[i];
		if (x->when) {
			spec_eval_env env = {lookup, W, (int64_t)W->gen, 0};
			char err[200];
			int64_t v;
			W->unset_hit = false;
			if (!spec_expr_eval(x->when, &env, &v, err, sizeof err)) {
				if (W->unset_hit)
					continue;
				werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "suffix when \"%s\": %s",
				       spec_expr_text(x->when), err);
				return false;
			}
			if (!v)
				continue;
		}
		size_t end = from;
		for (unsigned line = 1; end < W->text.n; end++)
			if (W->text.s[end] == '\n' && line++ == x->line)
				break;
		if (end >= W->text.n)
			continue;
		sbuf t = {0};
		render_template(W, x->text, NULL, &t);
		if (t.failed)
			W->text.failed = true;
		else if (t.n)
			sb_insert(&W->text, end, t.s, t.n);
		free(t.s);
	}
	return true;
}

/* Prints an item's line: the first display whose when= holds, or {_};
 * then its suffixes. */
static bool display_item(walk *W, const spec_step *s, const char *instr)
{
	size_t from = W->text.n;
	if (!s->ndisplays) {
		sb_str(&W->text, instr);
		sb_put(&W->text, "\n", 1);
		return suffix_item(W, s, from);
	}
	for (size_t i = 0; i < s->ndisplays; i++) {
		bool ok;
		if (!holds(W, s, s->displays[i].when, &ok)) {
			if (!ok)
				return false;
			continue;
		}
		render_template(W, s->displays[i].text, instr, &W->text);
		sb_put(&W->text, "\n", 1);
		return suffix_item(W, s, from);
	}
	return true;
}

/* ------------------------------------------------------------- steps */

static void run_steps(walk *W, const spec_step *steps, size_t n);

static void pad_item(walk *W, const spec_step *s, size_t from, size_t to, bool zero)
{
	if (to <= from)
		return;
	if (to - from > UINT32_MAX) {
		werror(W, CODEC_FRAME_OVERFLOW, true, from, s, "padding of %zu bits", to - from);
		return;
	}
	codec_item *it = add_item(W, CODEC_ITEM_PAD, s, from, (unsigned)(to - from));
	if (!it || !zero)
		return;
	const uint64_t *w = item_bits(W, it);
	for (size_t i = 0; i < (it->bits + 63) / 64; i++)
		if (w[i]) {
			it->clean = false;
			werror(W, CODEC_FRAME_PADDING, false, from, s,
			       "padding bits %zu..%zu (words %zu..%zu) are not zero", from, to - 1,
			       from / 32, (to - 1) / 32);
			break;
		}
}

static void run_part(walk *W, const spec_step *s)
{
	const codec *c = W->c;
	size_t pos = W->cursor;
	if (s->at) {
		int64_t at;
		if (!weval_count(W, s, s->at, "at", "at", &at))
			return;
		pos = (size_t)at; /* fits() checks it against the input without overflow */
	}
	const char *what = s->kind == SPEC_STEP_PART ? "instruction" : "data";
	char label[160];
	snprintf(label, sizeof label, "%s %s%s%s", s->kind == SPEC_STEP_PART ? s->root->bitset->name
	                                                                     : what,
	         s->name ? "'" : "", s->name ? s->name : "", s->name ? "'" : "");
	if (!fits(W, s, pos, s->bits, !s->at, label))
		return;
	codec_item *it = add_item(W, s->kind == SPEC_STEP_PART ? CODEC_ITEM_PART : CODEC_ITEM_DATA,
	                          s, pos, s->bits);
	if (!it)
		return;
	if (!s->at)
		W->cursor += s->bits;
	size_t mark = W->text.n;
	sbuf instr = {0};
	if (s->kind == SPEC_STEP_DATA) {
		const uint64_t *w = item_bits(W, it);
		for (unsigned k = 0; k < (s->bits + 31) / 32; k++) {
			char h[16];
			snprintf(h, sizeof h, "%s%08" PRIx32, k ? " " : "",
			         (uint32_t)(w[k / 2] >> (32 * (k % 2))));
			sb_str(&instr, h);
		}
	} else {
		uint64_t w[CODEC_MAX_WORDS] = {0};
		memcpy(w, item_bits(W, it), ((s->bits + 63) / 64) * sizeof *w);
		it->root = s->root;
		codec_decoded d = {.values = W->values, .cap_values = 512, .issues = W->issues,
		                   .cap_issues = 16};
		bool ok = codec_decode(c, s->root, w, W->gen, &d);
		it->leaf = d.leaf;
		it->clean = ok && d.leaf && !d.nissues;
		W->r->nparts++;
		W->r->nclean += it->clean;
		for (size_t i = 0; i < s->nexports; i++) {
			const spec_export *ex = &s->exports[i];
			int64_t v = 0;
			bool set = false;
			if (ex->field) {
				for (size_t k = 0; k < d.nvalues && !set; k++)
					if (d.values[k].depth == 0 && d.values[k].field &&
					    !strcmp(d.values[k].field->name, ex->field)) {
						v = d.values[k].value;
						set = true;
					}
			} else {
				set = true;
				for (const spec_bitset *b = d.leaf; b && !v; b = b->parent)
					for (size_t k = 0; k < ex->nis && !v; k++)
						v = !strcmp(b->name, ex->is[k]);
			}
			if (!push_var(W, ex->as, v, set))
				break;
		}
		render_instr(W, (size_t)(s->root - c->m->roots), w, &instr);
	}
	if (!instr.failed)
		display_item(W, s, instr.s ? instr.s : "");
	free(instr.s);
	if (W->stop && W->text.n > mark) /* a failed display: no half line */
		W->text.s[W->text.n = mark] = 0;
}

static void run_group(walk *W, const spec_step *s)
{
	size_t mark = W->nvars, saved_end = W->region_end;
	if (!s->expr) {
		run_steps(W, s->steps, s->nsteps);
		W->nvars = mark;
		return;
	}
	int64_t size;
	if (!weval_count(W, s, s->expr, "bits", "region bits", &size))
		return;
	size_t start = W->cursor;
	if (!fits(W, s, start, (uint64_t)size, true, "a region"))
		return;
	W->region_end = start + (size_t)size;
	run_steps(W, s->steps, s->nsteps);
	size_t end = W->region_end;
	W->region_end = saved_end;
	W->nvars = mark;
	if (W->stop)
		return;
	pad_item(W, s, W->cursor, end, s->zero);
	W->cursor = end;
}

static void run_repeat(walk *W, const spec_step *s)
{
	size_t mark = W->nvars;
	int64_t count = 0;
	bool known = !s->count_at && !s->to_end;
	if (known && !weval_count(W, s, s->expr, "count", "count", &count))
		return;
	for (int64_t i = 0; !W->stop; i++) {
		if (known && i >= count)
			break;
		if (!known && W->cursor >= W->region_end) {
			if (s->count_at)
				werror(W, CODEC_FRAME_COUNT, true, W->cursor, s,
				       "the %s ends after %" PRId64 " iterations, and count-at=\"%s\" "
				       "never held", W->region_end == W->nbits ? "program" : "region", i,
				       spec_expr_text(s->count_at));
			break;
		}
		if (!pay(W, s))
			break;
		size_t before = W->cursor;
		if (s->name && !push_var(W, s->name, i, true))
			break;
		run_steps(W, s->steps, s->nsteps);
		if (W->stop)
			break;
		if (s->count_at && !known) {
			int64_t at;
			if (!weval(W, s, s->count_at, "count-at", &at))
				break;
			if (at) {
				if (!weval(W, s, s->expr, "count", &count))
					break;
				known = true;
				if (count < i + 1) {
					werror(W, CODEC_FRAME_COUNT, true, W->cursor, s,
					       "count=\"%s\" gives %" PRId64 " after %" PRId64
					       " iterations already ran", spec_expr_text(s->expr), count, i + 1);
					break;
				}
			}
		}
		if (!known && W->cursor == before) {
			werror(W, CODEC_FRAME_LOOP, true, W->cursor, s,
			       "iteration %" PRId64 " of a repeat consumed nothing: it would never end", i);
			break;
		}
		W->nvars = mark;
	}
	W->nvars = mark;
}

static void run_steps(walk *W, const spec_step *steps, size_t n)
{
	for (size_t i = 0; i < n && !W->stop; i++) {
		const spec_step *s = &steps[i];
		bool ok;
		if (!pay(W, s))
			return;
		if (!holds(W, s, s->when, &ok))
			continue;
		switch (s->kind) {
		case SPEC_STEP_PART:
			if (s->root)
				run_part(W, s);
			break;
		case SPEC_STEP_DATA:
			if (s->bits)
				run_part(W, s);
			break;
		case SPEC_STEP_READ: {
			unsigned nb = s->high - s->low + 1;
			if (!fits(W, s, W->cursor + s->low, nb, false, "a read"))
				return;
			uint64_t v;
			extract(W->in, W->cursor + s->low, nb, &v);
			push_var(W, s->name, (int64_t)v, true);
			break;
		}
		case SPEC_STEP_LET: {
			int64_t v = 0;
			if (!s->expr || !s->name)
				break;
			/* a value joined from a part that did not decode is unset in
			 * turn, not an error: only using it (when, at, ...) is */
			spec_eval_env env = {lookup, W, (int64_t)W->gen, 0};
			char err[200];
			W->unset_hit = false;
			if (!spec_expr_eval(s->expr, &env, &v, err, sizeof err)) {
				if (!W->unset_hit) {
					werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "%s \"%s\": %s", s->name,
					       spec_expr_text(s->expr), err);
					return;
				}
				push_var(W, s->name, 0, false);
				break;
			}
			push_var(W, s->name, v, true);
			if (s->item) {
				codec_item *it = add_item(W, CODEC_ITEM_VALUE, s, W->cursor, 0);
				if (it)
					it->value = v;
			}
			break;
		}
		case SPEC_STEP_ALIGN: {
			if (!s->bits)
				break;
			size_t to = (W->cursor + s->bits - 1) / s->bits * s->bits;
			if (!fits(W, s, W->cursor, to - W->cursor, true, "alignment padding"))
				return;
			pad_item(W, s, W->cursor, to, s->zero);
			W->cursor = to;
			break;
		}
		case SPEC_STEP_REJECT: {
			sbuf m = {0};
			render_template(W, s->text ? s->text : "rejected", NULL, &m);
			werror(W, CODEC_FRAME_REJECTED, true, W->cursor, s, "%s", m.s ? m.s : "rejected");
			free(m.s);
			return;
		}
		case SPEC_STEP_TEXT:
			render_template(W, s->text, NULL, &W->text);
			sb_put(&W->text, "\n", 1);
			break;
		case SPEC_STEP_GROUP:
			run_group(W, s);
			break;
		case SPEC_STEP_REPEAT:
			run_repeat(W, s);
			break;
		}
	}
}

/* cover="true": every bit in exactly one item. */
static void check_cover(walk *W)
{
	codec_program *r = W->r;
	uint8_t *seen = calloc(W->nbits / 8 + 1, 1);
	if (!seen) {
		werror(W, CODEC_FRAME_MEMORY, true, 0, NULL, "out of memory");
		return;
	}
	unsigned overlaps = 0;
	for (size_t i = 0; i < r->nitems; i++) {
		const codec_item *it = &r->items[i];
		for (size_t b = it->bit; b < it->bit + it->bits && b < W->nbits; b++) {
			if (seen[b / 8] >> (b % 8) & 1) {
				/* name the earlier item that holds the bit */
				size_t j = 0;
				while (j < i && !(r->items[j].bit <= b && b < r->items[j].bit + r->items[j].bits))
					j++;
				if (overlaps++ < 8)
					werror(W, CODEC_FRAME_OVERLAP, false, it->bit, it->step,
					       "item %zu (bits %zu..%zu, word %zu) overlaps item %zu (bits %zu..%zu)",
					       i, it->bit, it->bit + it->bits - 1, it->bit / 32, j, r->items[j].bit,
					       r->items[j].bit + r->items[j].bits - 1);
				break;
			}
			seen[b / 8] |= (uint8_t)(1u << (b % 8));
		}
		for (size_t b = it->bit; b < it->bit + it->bits && b < W->nbits; b++)
			seen[b / 8] |= (uint8_t)(1u << (b % 8));
	}
	for (size_t b = 0; b < W->nbits;) {
		if (seen[b / 8] >> (b % 8) & 1) {
			b++;
			continue;
		}
		size_t e = b;
		while (e < W->nbits && !(seen[e / 8] >> (e % 8) & 1))
			e++;
		werror(W, CODEC_FRAME_UNCOVERED, false, b, NULL,
		       "bits %zu..%zu (words %zu..%zu) belong to no item: no step covers them", b,
		       e - 1, b / 32, (e - 1) / 32);
		b = e;
	}
	free(seen);
}

codec_program *codec_program_walk(const codec *c, const spec_program *p, const uint32_t *words,
                                  size_t nwords, const codec_disasm_options *opt)
{
	if (!c)
		return NULL;
	if (!p)
		p = spec_find_program(c->m, NULL);
	if (!p || (!words && nwords) || nwords > SIZE_MAX / 64)
		return NULL;
	codec_program *r = calloc(1, sizeof *r);
	walk *W = calloc(1, sizeof *W);
	if (r)
		r->priv = calloc(1, sizeof *r->priv);
	if (r)
		r->errors = calloc(CODEC_PROGRAM_MAX_ERRORS, sizeof *r->errors);
	if (W) {
		W->x = malloc(sizeof *W->x);
		W->ibuf = malloc(PROGRAM_INSTR_TEXT);
	}
	if (!r || !W || !r->priv || !r->errors || !W->x || !W->ibuf) {
		if (W) {
			free(W->x);
			free(W->ibuf);
		}
		free(W);
		codec_program_free(r);
		return NULL;
	}
	r->program = p;
	r->nwords = nwords;
	static const uint32_t none[1] = {0};
	W->c = c;
	W->p = p;
	W->in = words ? words : none;
	W->nbits = nwords * 32;
	W->gen = opt ? opt->gen : 0;
	W->show_errors = opt ? opt->show_errors : true;
	W->r = r;
	W->region_end = W->nbits;
	/* each step is paid for: a walk is linear in its input */
	W->budget = W->nbits * 4 + 4096;
	run_steps(W, p->steps, p->nsteps);
	if (p->cover && !W->stop)
		check_cover(W);
	if (W->text.failed)
		werror(W, CODEC_FRAME_MEMORY, true, W->cursor, NULL,
		       "the disassembly is larger than %u bytes", PROGRAM_TEXT_MAX);
	r->stopped = W->stop;
	for (size_t i = 0; i < r->nitems; i++)
		r->items[i].w = r->priv->pool + r->priv->woff[i];
	r->text = W->text.s ? W->text.s : calloc(1, 1);
	r->textlen = W->text.s ? W->text.n : 0;
	free(W->vars);
	free(W->x);
	free(W->ibuf);
	free(W);
	if (!r->text) {
		codec_program_free(r);
		return NULL;
	}
	return r;
}

void codec_program_free(codec_program *pr)
{
	if (!pr)
		return;
	if (pr->priv) {
		free(pr->priv->pool);
		free(pr->priv->woff);
		free(pr->priv);
	}
	free(pr->items);
	free(pr->errors);
	free(pr->text);
	free(pr);
}

/* ------------------------------------------------------------ encoding */

static bool put_bits(uint32_t *words, size_t nwords, uint8_t *set, size_t pos, unsigned n,
                     const uint64_t *w, char *err, size_t errlen, size_t index)
{
	if (pos > nwords * 32 || n > nwords * 32 - pos) {
		snprintf(err, errlen, "item %zu (bits %zu..%zu) lies outside the %zu words", index, pos,
		         pos + n - 1, nwords);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		size_t b = pos + i;
		uint32_t bit = (uint32_t)(w[i / 64] >> (i % 64)) & 1u;
		uint32_t have = (words[b / 32] >> (b % 32)) & 1u;
		if (set[b / 8] >> (b % 8) & 1) {
			if (have != bit) {
				snprintf(err, errlen, "item %zu sets bit %zu to %u, which another item set to %u",
				         index, b, bit, have);
				return false;
			}
			continue;
		}
		set[b / 8] |= (uint8_t)(1u << (b % 8));
		words[b / 32] |= bit << (b % 32);
	}
	return true;
}

bool codec_program_encode(const codec_item *items, size_t nitems, uint32_t *words,
                          size_t nwords, char *err, size_t errlen)
{
	if ((!items && nitems) || (!words && nwords)) {
		snprintf(err, errlen, "no items or no words");
		return false;
	}
	if (nwords)
		memset(words, 0, nwords * sizeof *words);
	uint8_t *set = calloc(nwords * 4 + 1, 1);
	if (!set) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	bool ok = true;
	for (size_t i = 0; i < nitems && ok; i++)
		if (items[i].kind != CODEC_ITEM_VALUE && items[i].bits)
			ok = items[i].w && put_bits(words, nwords, set, items[i].bit, items[i].bits,
			                            items[i].w, err, errlen, i);
	free(set);
	return ok;
}

bool codec_program_reencode(const codec *c, const codec_program *pr, uint32_t gen,
                            uint32_t *words, size_t nwords, char *err, size_t errlen)
{
	if (!c || !pr) {
		snprintf(err, errlen, "no codec or no program");
		return false;
	}
	codec_item *items = malloc((pr->nitems ? pr->nitems : 1) * sizeof *items);
	uint64_t *bits = malloc((pr->nitems ? pr->nitems : 1) * CODEC_MAX_WORDS * sizeof *bits);
	codec_value *values = malloc(512 * sizeof *values);
	codec_issue issues[16];
	bool ok = items && bits && values;
	if (!ok)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; ok && i < pr->nitems; i++) {
		items[i] = pr->items[i];
		if (items[i].kind != CODEC_ITEM_PART)
			continue;
		uint64_t *w = bits + i * CODEC_MAX_WORDS;
		uint64_t in[CODEC_MAX_WORDS] = {0};
		memcpy(in, pr->items[i].w, ((items[i].bits + 63) / 64) * sizeof *in);
		codec_decoded d = {.values = values, .cap_values = 512, .issues = issues,
		                   .cap_issues = 16};
		codec_decode(c, items[i].root, in, gen, &d);
		char why[200];
		if (!d.leaf) {
			snprintf(err, errlen, "item %zu (bit %zu) does not decode against %s", i,
			         items[i].bit, items[i].root->bitset->name);
			ok = false;
		} else if (!codec_encode(c, &d, w, why, sizeof why)) {
			snprintf(err, errlen, "item %zu (bit %zu, %s): %s", i, items[i].bit, d.leaf->name,
			         why);
			ok = false;
		} else {
			items[i].w = w;
		}
	}
	if (ok)
		ok = codec_program_encode(items, pr->nitems, words, nwords, err, errlen);
	free(items);
	free(bits);
	free(values);
	return ok;
}
