/*
 * displays.c - does a leaf's text give its word back?  (check.h,
 * prove_semantic, the display part: prove_displays.)
 *
 * For every leaf of a root decoded alone, the question is whether two
 * words of that leaf that decode to different values (a field, a
 * sub-leaf, anything the decoder reads) can print the same text.  If
 * they can, no assembler can give the word back from the text; if it is
 * proved that they cannot, the text determines the word outside its
 * don't-care bits (and outside bits nothing reads, which the accounting
 * proof reports).
 *
 * Text is compared as the decoder builds it: a display is literal text,
 * the bitset's name, padding to a column, and {FIELD}s, each printed by
 * its type.  Two facts turn "equal text" into questions on bits:
 *
 *  1. Splitting.  If every part's extent in the text is fixed by what
 *     came before it, two equal texts of one display are equal part by
 *     part.  A part's extent is fixed when no text it can print is a
 *     proper prefix of another that goes on with a character that can
 *     follow the part (alpha ∩ follow = ∅ says so for every pair at
 *     once; a finite language is checked pair by pair).  Padding is a
 *     function of the column, so it is fixed too.  Checked statically,
 *     over every value a part's type can print.
 *  2. Equal parts.  Numbers of one type print equal text exactly when
 *     their values are equal (as the type reads them); an enum when the
 *     values have the same string; a bool with a display when both are
 *     set or both clear; a bitset-typed field when the two sub-words
 *     decode to the same sub-leaf and print alike (the same question, a
 *     level down), or to two sub-leaves whose displays are proved never
 *     to print alike.
 *
 * Two displays (two override cases, two sub-leaves) print different
 * text when a fixed prefix or suffix differs, or when a character that
 * no part of either can print appears a different number of times.
 *
 * Each question is asked twice, as formulas over two copies of the word
 * at one generation: with an over-approximation of "equal text" (what
 * cannot be shown exactly counts as equal) and with an
 * under-approximation (what cannot be shown exactly counts as
 * different).  No pair under the first is a proof; a pair under the
 * second is a witness, which the real decoder (prove_text_ops) must
 * confirm, printing both words alike and decoding them to different
 * values, before it is reported.  Anything else is unknown, with the
 * reasons, never proved.
 */
#include "internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DSP_WORDS (SPEC_MAX_BITS / 64u)
/* Bitset-typed fields followed down, below the leaf. */
#define DSP_MAX_DEPTH 3u
/* Parts narrower than this have their texts listed one by one. */
#define DSP_LIST_BITS 10u
/* Witnesses the decoder may turn down before a leaf is left unknown. */
#define DSP_TRIES 4u
/* Each display query at most this long, and all of a file's together
 * (Midgard's 48-bit units, with their 256-value swizzles side by side,
 * can keep Z3 busy for the whole default 10 s, leaf after leaf): what is
 * not answered by then is unknown. */
#define DSP_QUERY_MS 1000u
#define DSP_BUDGET_S 60.0

/* Why a leaf's verdict is unknown (bits of dsp_run.why). */
enum {
	WHY_SPLIT = 1u << 0,   /* a display not shown to split into its parts uniquely */
	WHY_CROSS = 1u << 1,   /* two displays not shown to print different text */
	WHY_TYPE = 1u << 2,    /* a float or custom part */
	WHY_NAME = 1u << 3,    /* a name not resolved alike in every case, or not translatable */
	WHY_DEPTH = 1u << 4,   /* bitset fields nested deeper than DSP_MAX_DEPTH */
	WHY_SOLVER = 1u << 5,  /* Z3 gave up */
	WHY_DECODER = 1u << 6, /* the decoder did not confirm Z3's witnesses */
	WHY_DISPLAY = 1u << 7, /* the leaf has no display */
	WHY_WIDE = 1u << 8,    /* a bitset field wider than 64 bits */
	WHY_TIME = 1u << 9,    /* the file's time for display queries was spent */
	WHY_LINE = 1u << 10,   /* the formulas do not print the word's own text */
};

static const char *const why_text[] = {
	"a display not shown to split into its parts uniquely",
	"two of its displays not shown to print different text",
	"a float or custom value printed",
	"a name defined differently in its cases, or not translatable",
	"bitset fields nested more than 3 deep",
	"Z3 gave up",
	"the decoder did not confirm Z3's witnesses",
	"no display",
	"a bitset field wider than 64 bits",
	"the 60 s the display proofs may take per file were spent",
	"its own text is not what the formulas say it prints",
};

/* Sets of bytes. */
typedef struct charset {
	uint64_t b[4];
} charset;

static void cs_add(charset *s, unsigned char c) { s->b[c / 64] |= (uint64_t)1 << (c % 64); }
static bool cs_has(const charset *s, unsigned char c) { return (s->b[c / 64] >> (c % 64)) & 1; }
static void cs_or(charset *s, const charset *t)
{
	for (int i = 0; i < 4; i++)
		s->b[i] |= t->b[i];
}
static bool cs_meets(const charset *s, const charset *t)
{
	for (int i = 0; i < 4; i++)
		if (s->b[i] & t->b[i])
			return true;
	return false;
}
static void cs_add_str(charset *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cs_add(s, (unsigned char)p[i]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What a part can print: the bytes its texts contain and start with,
 * whether it can print nothing, and, when finite and small, the texts. */
typedef struct lang {
	charset alpha, first;
	bool nullable;
	char **strs; /* NULL: not listed */
	size_t nstrs;
	bool sorted;   /* strs in strcmp order */
	bool borrowed; /* strs belong to a lang_memo: never freed or sorted here */
} lang;

static void lang_free(lang *L)
{
	if (L->borrowed) {
		*L = (lang){0};
		return;
	}
	for (size_t i = 0; i < L->nstrs; i++)
		free(L->strs[i]);
	free(L->strs);
	*L = (lang){0};
}

static void lang_any(lang *L)
{
	lang_free(L);
	memset(&L->alpha, 0xff, sizeof L->alpha);
	L->first = L->alpha;
	L->nullable = true;
}

/* One piece of a display, as the decoder splits it (codec.c's
 * parse_field_ref: {X:align=N} pads, then prints X; a name that is a
 * prefix of "NAME", {} included, prints the bitset's name). */
typedef enum { OP_LIT, OP_NAME, OP_ALIGN, OP_FIELD } op_kind;
typedef struct dsp_op {
	op_kind kind;
	const char *text; /* LIT: the text; FIELD: the name */
	size_t len;
	bool aligned;     /* FIELD: written with ":align=" (afuc-disasm's hook
	                   * then leaves a custom field unprinted) */
} dsp_op;

static dsp_op *parse_ops(const char *d, size_t *nops)
{
	size_t cap = 2 * strlen(d) + 2, n = 0;
	dsp_op *ops = malloc(cap * sizeof *ops);
	if (!ops)
		return NULL;
	const char *lit = d, *p = d;
	while (*p) {
		if (*p != '{') {
			p++;
			continue;
		}
		if (p > lit)
			ops[n++] = (dsp_op){OP_LIT, lit, (size_t)(p - lit), false};
		const char *e = p + 1;
		while (*e && *e != '}')
			e++;
		const char *in = p + 1;
		size_t len = (size_t)(e - in);
		const char *al = NULL;
		for (const char *q = in; q + 7 <= e && !al; q++)
			if (!memcmp(q, ":align=", 7))
				al = q;
		size_t name_len = al ? (size_t)(al - in) : len;
		if (al)
			ops[n++] = (dsp_op){OP_ALIGN, NULL, 0, false};
		if (!al || al > in) {
			if (name_len <= 4 && !strncmp("NAME", in, name_len))
				ops[n++] = (dsp_op){OP_NAME, NULL, 0, false};
			else
				ops[n++] = (dsp_op){OP_FIELD, in, name_len, al != NULL};
		}
		if (!*e) {
			*nops = n;
			return ops; /* unterminated: the decoder stops there too */
		}
		p = lit = e + 1;
	}
	if (p > lit)
		ops[n++] = (dsp_op){OP_LIT, lit, (size_t)(p - lit), false};
	*nops = n;
	return ops;
}

/* The listed texts of fields, by definition: what a field of a listed
 * type prints depends on the definition alone, and the formulas of one
 * leaf ask it again for every pair of sub-leaves and displays (the
 * listing was a third of ir3's display proofs).  Open addressing; the
 * memo owns the texts, a lang taken from it borrows them. */
typedef struct lang_memo {
	const spec_field **keys;
	lang *vals;
	size_t n, cap; /* cap: 0 or a power of two */
} lang_memo;

static size_t memo_slot(const lang_memo *m, const spec_field *f)
{
	size_t at = (size_t)(((uintptr_t)f >> 4) * 0x9e3779b97f4a7c15ull) & (m->cap - 1);
	while (m->keys[at] && m->keys[at] != f)
		at = (at + 1) & (m->cap - 1);
	return at;
}

static const lang *lang_memo_get(const lang_memo *m, const spec_field *f)
{
	if (!m || !m->cap)
		return NULL;
	size_t at = memo_slot(m, f);
	return m->keys[at] ? &m->vals[at] : NULL;
}

/* Keeps *L for f; on success L borrows from the memo. */
static void lang_memo_put(lang_memo *m, const spec_field *f, lang *L)
{
	if (!m)
		return;
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		lang_memo bigger = {calloc(cap, sizeof *bigger.keys), calloc(cap, sizeof *bigger.vals), 0,
		                    cap};
		if (!bigger.keys || !bigger.vals) {
			free(bigger.keys);
			free(bigger.vals);
			return; /* not kept: L stays its own */
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i]) {
				size_t at = memo_slot(&bigger, m->keys[i]);
				bigger.keys[at] = m->keys[i];
				bigger.vals[at] = m->vals[i];
				bigger.n++;
			}
		free(m->keys);
		free(m->vals);
		*m = bigger;
	}
	size_t at = memo_slot(m, f);
	m->keys[at] = f;
	m->vals[at] = *L;
	m->n++;
	L->borrowed = true;
}

static void lang_memo_free(lang_memo *m)
{
	for (size_t i = 0; m && i < m->cap; i++)
		if (m->keys[i]) {
			m->vals[i].borrowed = false;
			lang_free(&m->vals[i]);
		}
	if (m) {
		free(m->keys);
		free(m->vals);
		*m = (lang_memo){0};
	}
}

/* Where a display is printed: a leaf, reached through field `via` of
 * the enclosing context (its params), or alone. */
typedef struct dsp_ctx {
	const spec_bitset *leaf;
	const spec_field *via;
	const struct dsp_ctx *outer;
	/* the display cases being printed, when known (one per side, or one
	 * for both): a name then resolves only through the cases that can
	 * hold while they are shown (with_shown) */
	const spec_case *shown[2];
	unsigned nshown;
	/* the outermost context only: the text is afuc-disasm's
	 * (PROVE_PRINTER_AFUC); see custom_print */
	bool afuc;
	/* the outermost context only: fields' listed texts (may be NULL) */
	lang_memo *memo;
} dsp_ctx;

/* What a {FIELD} of type custom prints, written as op in a display
 * printed in ctx: unknown (the caller's), afuc-disasm's 0x%03x of the
 * value's low 32 bits, or nothing.  afuc-disasm's hook prints a custom
 * field named CONTROLREG or SQEREG as written (":align=" not allowed),
 * and nothing else; src/codec/disasm.c's afuc_field does the same and
 * is held to Mesa's afuc disassembler on 10^6 words a generation. */
typedef enum { CUSTOM_CALLER, CUSTOM_HEX3, CUSTOM_NOTHING } custom_kind;

static custom_kind custom_print(const dsp_ctx *ctx, const dsp_op *op)
{
	while (ctx->outer)
		ctx = ctx->outer;
	if (!ctx->afuc)
		return CUSTOM_CALLER;
	if (!op->aligned && ((op->len == 10 && !memcmp(op->text, "CONTROLREG", 10)) ||
	                     (op->len == 6 && !memcmp(op->text, "SQEREG", 6))))
		return CUSTOM_HEX3;
	return CUSTOM_NOTHING;
}

/* ctx with display case a shown on one side and b on the other (the
 * same case: one). */
static dsp_ctx with_shown(const dsp_ctx *ctx, const spec_case *a, const spec_case *b)
{
	dsp_ctx x = *ctx;
	x.shown[0] = a;
	x.shown[1] = b;
	x.nshown = a == b ? 1 : 2;
	return x;
}

static bool name_is(const char *a, const char *b, size_t blen)
{
	return strlen(a) == blen && !memcmp(a, b, blen);
}

/* Whether two definitions of a name print alike given alike values. */
static bool prints_alike(const spec_field *a, const spec_field *b)
{
	if (a->type != b->type || a->enm != b->enm || a->bitset != b->bitset ||
	    a->high - a->low != b->high - b->low || (!a->display) != (!b->display) ||
	    (a->display && strcmp(a->display, b->display)) || a->nparams != b->nparams)
		return false;
	for (size_t p = 0; p < a->nparams; p++)
		if (strcmp(a->params[p].name, b->params[p].name) ||
		    strcmp(a->params[p].as ? a->params[p].as : a->params[p].name,
		           b->params[p].as ? b->params[p].as : b->params[p].name))
			return false;
	return true;
}

/* The definition a {name} prints through in ctx, when every case that
 * defines it prints alike (else NULL), and the context it lives in. */
/* Whether case c of leaf's chain can hold while display case k is
 * printed: 1 it holds (k itself, a default case), 0 it cannot (a case
 * with a display before k: the decoder passed it over), -1 maybe. */
static int holds_with(const spec_bitset *leaf, const spec_case *k, const spec_case *c)
{
	if (c == k || !c->expr)
		return 1;
	if (!c->display)
		return -1;
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t i = 0; i < b->ncases; i++) {
			if (&b->cases[i] == k)
				return -1;
			if (&b->cases[i] == c)
				return 0;
		}
	return -1;
}

static const spec_field *case_field(const spec_case *c, const char *name, size_t len)
{
	for (size_t f = 0; f < c->nfields; f++)
		if (c->fields[f].kind != SPEC_ASSERT && name_is(c->fields[f].name, name, len))
			return &c->fields[f];
	return NULL;
}

static const spec_field *resolve(const dsp_ctx *ctx, const char *name, size_t len,
                                 const dsp_ctx **where);

/* The definition a name printed in ctx is printed through, as its
 * param, or NULL. */
static const spec_field *resolve_param(const dsp_ctx *ctx, const char *name, size_t len,
                                       const dsp_ctx **where)
{
	for (size_t p = 0; ctx->via && ctx->outer && p < ctx->via->nparams; p++) {
		const spec_param *pa = &ctx->via->params[p];
		const char *as = pa->as ? pa->as : pa->name;
		if (name_is(as, name, len))
			return resolve(ctx->outer, pa->name, strlen(pa->name), where);
	}
	return NULL;
}

/* The definition a name printed in ctx is printed through: every
 * definition the decoder may find must print alike (else NULL).  With
 * the shown display cases known, those are the definitions of the cases
 * that can hold up to the first that does (and, when none surely does,
 * the param); otherwise every definition in the chain, or the param. */
static const spec_field *resolve(const dsp_ctx *ctx, const char *name, size_t len,
                                 const dsp_ctx **where)
{
	const spec_field *first = NULL;
	if (ctx->nshown) {
		const dsp_ctx *at = ctx;
		for (unsigned k = 0; k < ctx->nshown; k++) {
			bool sure = false;
			for (const spec_bitset *b = ctx->leaf; b && !sure; b = b->parent)
				for (size_t c = 0; c < b->ncases && !sure; c++) {
					const spec_field *fd = case_field(&b->cases[c], name, len);
					int h = fd ? holds_with(ctx->leaf, ctx->shown[k], &b->cases[c]) : 0;
					if (!h)
						continue;
					if (first && !prints_alike(first, fd))
						return NULL;
					first = first ? first : fd;
					sure = h == 1;
				}
			if (!sure) {
				const dsp_ctx *pw;
				const spec_field *pf = resolve_param(ctx, name, len, &pw);
				if (pf && first && !prints_alike(first, pf))
					return NULL;
				if (pf && !first) {
					first = pf;
					at = pw;
				}
			}
		}
		if (first)
			*where = at;
		return first;
	}
	for (const spec_bitset *b = ctx->leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_field *fd = case_field(&b->cases[c], name, len);
			if (!fd)
				continue;
			if (!first)
				first = fd;
			else if (!prints_alike(first, fd))
				return NULL;
		}
	if (first) {
		*where = ctx;
		return first;
	}
	return resolve_param(ctx, name, len, where);
}

static unsigned width_of(const spec_field *f) { return f->high - f->low + 1; }

static int64_t sext(uint64_t v, unsigned width)
{
	if (width >= 64)
		return (int64_t)v;
	uint64_t sign = (uint64_t)1 << (width - 1);
	v &= (sign << 1) - 1;
	return (int64_t)((v ^ sign) - sign);
}

static const char *enum_text(const spec_enum *e, uint64_t v)
{
	for (size_t i = 0; e && i < e->nvalues; i++)
		if ((uint64_t)e->values[i].val == v)
			return e->values[i].display;
	return NULL;
}

/* The text a value of field f prints, for the types listed one by one
 * (as the decoder's cx_print_value prints them). */
static void print_small(const spec_field *f, uint64_t v, char *buf, size_t len)
{
	unsigned w = width_of(f);
	const char *d;
	switch (f->type) {
	case SPEC_TYPE_INT:
	case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH: snprintf(buf, len, "%" PRId64, sext(v, w)); break;
	case SPEC_TYPE_UINT: snprintf(buf, len, "%" PRIu64, v); break;
	case SPEC_TYPE_OFFSET: /* nothing for 0 */
		if (v)
			snprintf(buf, len, "%+" PRId64, sext(v, w));
		else
			buf[0] = '\0';
		break;
	case SPEC_TYPE_UOFFSET:
		if (v)
			snprintf(buf, len, "+%" PRIu64, v);
		else
			buf[0] = '\0';
		break;
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		if (f->display)
			snprintf(buf, len, "%s", (v != 0) == (f->type == SPEC_TYPE_BOOL) ? f->display : "");
		else
			snprintf(buf, len, "%u", f->type == SPEC_TYPE_BOOL ? (unsigned)v : !v);
		break;
	case SPEC_TYPE_ENUM:
		d = enum_text(f->enm, v);
		if (d)
			snprintf(buf, len, "%s", d);
		else
			snprintf(buf, len, "%u", (unsigned)v);
		break;
	default: snprintf(buf, len, "%" PRIx64, v); break;
	}
}

static void add_digits(lang *L, bool sign, const char *more)
{
	charset c = {0};
	cs_add_str(&c, "0123456789", 10);
	cs_or(&L->alpha, &c);
	cs_or(&L->first, &c);
	if (sign) {
		cs_add(&L->alpha, '-');
		cs_add(&L->first, '-');
	}
	cs_add_str(&L->alpha, more, strlen(more));
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void lang_of_root(const spec_bitset *root, const spec_field *via, const dsp_ctx *outer,
                         unsigned depth, lang *L);

/* What a {FIELD} printed through definition f (in ctx) can print. */
/* Whether what field f prints is listed value by value (print_small):
 * a narrow field of a type printed as a number, an enum or a bool, or a
 * narrow value of a bool type with a display. */
static bool listed_type(const spec_field *f)
{
	if (f->type == SPEC_TYPE_BITSET || f->type == SPEC_TYPE_FLOAT ||
	    f->type == SPEC_TYPE_CUSTOM || f->type == SPEC_TYPE_UNKNOWN || width_of(f) > DSP_LIST_BITS)
		return false;
	return f->kind == SPEC_FIELD ||
	       (f->display && (f->type == SPEC_TYPE_BOOL || f->type == SPEC_TYPE_BOOL_INV));
}

static void lang_of_field(const spec_field *f, const dsp_ctx *ctx, unsigned depth, lang *L)
{
	*L = (lang){0};
	unsigned w = width_of(f);
	if (f->type == SPEC_TYPE_BITSET) {
		if (f->bitset && depth < DSP_MAX_DEPTH)
			lang_of_root(f->bitset, f, ctx, depth + 1, L);
		else
			lang_any(L);
		return;
	}
	if (f->type == SPEC_TYPE_FLOAT) { /* %f: digits and a point, or [-]nan, [-]inf */
		add_digits(L, true, ".naif");
		cs_add_str(&L->first, "ni", 2);
		return;
	}
	if (f->type == SPEC_TYPE_CUSTOM || f->type == SPEC_TYPE_UNKNOWN) {
		lang_any(L);
		return;
	}
	if (listed_type(f)) {
		const dsp_ctx *top = ctx;
		while (top && top->outer)
			top = top->outer;
		lang_memo *memo = top ? top->memo : NULL;
		const lang *kept = lang_memo_get(memo, f);
		if (kept) {
			*L = *kept;
			L->borrowed = true;
			return;
		}
		/* the texts, unique (a hash of them, index + 1, finds repeats: a
		 * search of the list was quadratic in 2^w, 65% of ir3's display
		 * proofs), then sorted */
		size_t nslots = (size_t)2 << w;
		L->strs = calloc((size_t)1 << w, sizeof *L->strs);
		uint32_t *slot = calloc(nslots, sizeof *slot);
		if (!L->strs || !slot) {
			free(slot);
			lang_any(L);
			return;
		}
		for (uint64_t v = 0; v < ((uint64_t)1 << w); v++) {
			char buf[4096];
			print_small(f, v, buf, sizeof buf);
			size_t n = strlen(buf);
			uint64_t h = 1469598103934665603ull;
			for (size_t i = 0; i < n; i++)
				h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
			size_t at = (size_t)h & (nslots - 1);
			while (slot[at] && strcmp(L->strs[slot[at] - 1], buf))
				at = (at + 1) & (nslots - 1);
			if (slot[at])
				continue;
			if (!(L->strs[L->nstrs] = strdup(buf))) {
				free(slot);
				lang_any(L);
				return;
			}
			slot[at] = (uint32_t)++L->nstrs;
			cs_add_str(&L->alpha, buf, n);
			if (n)
				cs_add(&L->first, (unsigned char)buf[0]);
			else
				L->nullable = true;
		}
		free(slot);
		qsort(L->strs, L->nstrs, sizeof *L->strs, cmp_str);
		L->sorted = true;
		lang_memo_put(memo, f, L);
		return;
	}
	switch (f->type) {
	case SPEC_TYPE_UINT: add_digits(L, false, ""); break;
	case SPEC_TYPE_INT:
	case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH: add_digits(L, true, ""); break;
	case SPEC_TYPE_HEX: add_digits(L, false, "abcdef"); cs_add_str(&L->first, "abcdef", 6); break;
	case SPEC_TYPE_OFFSET:
		add_digits(L, false, "+-");
		L->first = (charset){0};
		cs_add_str(&L->first, "+-", 2);
		L->nullable = true;
		break;
	case SPEC_TYPE_UOFFSET:
		add_digits(L, false, "+");
		L->first = (charset){0};
		cs_add(&L->first, '+');
		L->nullable = true;
		break;
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV: /* wider than listed: printed as a number or a display */
		add_digits(L, false, "");
		if (f->display) {
			cs_add_str(&L->alpha, f->display, strlen(f->display));
			if (*f->display)
				cs_add(&L->first, (unsigned char)f->display[0]);
		}
		L->nullable = true;
		break;
	case SPEC_TYPE_ENUM:
		add_digits(L, false, "");
		for (size_t i = 0; f->enm && i < f->enm->nvalues; i++) {
			const char *d = f->enm->values[i].display;
			if (!d)
				continue;
			cs_add_str(&L->alpha, d, strlen(d));
			if (*d)
				cs_add(&L->first, (unsigned char)d[0]);
			else
				L->nullable = true;
		}
		break;
	default: lang_any(L); break;
	}
}

/* What printing display d in ctx can give, into L (or'ed in). */
/* Whether a {name} printed in ctx resolves to nothing: no case of the
 * chain defines it and no param of the field ctx is printed through
 * passes it in, or the one that does names nothing further out.  The
 * decoder (as Mesa's) prints nothing there, for every word, with the
 * same "no field" error. */
static bool defined_nowhere(const dsp_ctx *ctx, const char *name, size_t len)
{
	for (const spec_bitset *b = ctx->leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++)
			if (case_field(&b->cases[c], name, len))
				return false;
	for (size_t p = 0; ctx->via && p < ctx->via->nparams; p++) {
		const spec_param *pa = &ctx->via->params[p];
		const char *as = pa->as ? pa->as : pa->name;
		if (name_is(as, name, len))
			return ctx->outer && defined_nowhere(ctx->outer, pa->name, strlen(pa->name));
	}
	return true;
}

/* One empty text: what a name printed as nothing prints. */
static void lang_nothing(lang *L)
{
	*L = (lang){.nullable = true};
	if ((L->strs = calloc(1, sizeof *L->strs)) && (L->strs[0] = strdup("")))
		L->nstrs = 1;
}

/* What {op} prints in ctx; *def (may be NULL) gets the definition it
 * prints through, NULL where it has none to print (nothing printed) or
 * none that is sure (anything printed). */
static void lang_of_name(const dsp_op *op, const dsp_ctx *ctx, unsigned depth, lang *L,
                         const spec_field **def)
{
	const dsp_ctx *where;
	const spec_field *f = resolve(ctx, op->text, op->len, &where);
	if (def)
		*def = f;
	if (!f) {
		if (defined_nowhere(ctx, op->text, op->len))
			lang_nothing(L);
		else
			lang_any(L);
		return;
	}
	custom_kind k = f->type == SPEC_TYPE_CUSTOM ? custom_print(ctx, op) : CUSTOM_CALLER;
	if (k == CUSTOM_CALLER) {
		lang_of_field(f, where, depth, L);
	} else if (k == CUSTOM_HEX3) { /* "0x" and at least three hex digits: not listed */
		*L = (lang){0};
		add_digits(L, false, "abcdefx");
		L->first = (charset){0};
		cs_add(&L->first, '0');
	} else {
		lang_nothing(L);
	}
}

static void lang_of_display(const char *d, const dsp_ctx *ctx, unsigned depth, lang *L)
{
	size_t n;
	dsp_op *ops = parse_ops(d, &n);
	if (!ops) {
		lang_any(L);
		return;
	}
	bool open = true; /* everything so far can be empty */
	for (size_t i = 0; i < n; i++) {
		lang part = {0};
		const char *name = spec_display_name(ctx->leaf);
		switch (ops[i].kind) {
		case OP_LIT: cs_add_str(&part.alpha, ops[i].text, ops[i].len); break;
		case OP_NAME: cs_add_str(&part.alpha, name, strlen(name)); break;
		case OP_ALIGN:
			cs_add(&part.alpha, ' ');
			part.nullable = true;
			break;
		case OP_FIELD: {
			lang_of_name(&ops[i], ctx, depth, &part, NULL);
			break;
		}
		}
		if (ops[i].kind == OP_LIT || ops[i].kind == OP_NAME) {
			const char *t = ops[i].kind == OP_LIT ? ops[i].text : name;
			size_t tl = ops[i].kind == OP_LIT ? ops[i].len : strlen(name);
			if (tl)
				cs_add(&part.first, (unsigned char)t[0]);
			part.nullable = tl == 0;
		} else if (ops[i].kind == OP_ALIGN) {
			cs_add(&part.first, ' ');
		}
		cs_or(&L->alpha, &part.alpha);
		if (open)
			cs_or(&L->first, &part.first);
		open = open && part.nullable;
		lang_free(&part);
	}
	L->nullable = L->nullable || open;
	free(ops);
}

/* The displays a leaf can print with: every case of its chain that has
 * one, leaf first (what selects one is a matter for Z3). */
static size_t leaf_displays(const spec_bitset *leaf, const spec_case **out, size_t cap)
{
	size_t n = 0;
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++)
			if (b->cases[c].display) {
				if (n < cap)
					out[n] = &b->cases[c];
				n++;
				if (!b->cases[c].expr)
					return n; /* a default case ends the walk */
			}
	return n;
}

#define DSP_MAX_DISPLAYS 64u

static void lang_of_root(const spec_bitset *root, const spec_field *via, const dsp_ctx *outer,
                         unsigned depth, lang *L)
{
	*L = (lang){0};
	/* the leaves of a root are the bitsets below it without children */
	const spec_bitset *stack[256];
	size_t sp = 0;
	stack[sp++] = root;
	while (sp) {
		const spec_bitset *b = stack[--sp];
		if (b->nchildren) {
			for (size_t c = 0; c < b->nchildren; c++) {
				if (sp == sizeof stack / sizeof *stack) {
					lang_any(L);
					return;
				}
				stack[sp++] = b->children[c];
			}
			continue;
		}
		const spec_case *cs[DSP_MAX_DISPLAYS];
		size_t nd = leaf_displays(b, cs, DSP_MAX_DISPLAYS);
		if (nd > DSP_MAX_DISPLAYS) {
			lang_any(L);
			return;
		}
		dsp_ctx ctx = {.leaf = b, .via = via, .outer = outer};
		for (size_t i = 0; i < nd; i++) {
			dsp_ctx shown = with_shown(&ctx, cs[i], cs[i]);
			lang_of_display(cs[i]->display, &shown, depth, L);
		}
	}
}

/* The most texts a listing may have, and the most pairs of different
 * choices with one text that a formula may name. */
#define DSP_MAX_LIST 65536u
#define DSP_MAX_COLLISIONS 512u
#define DSP_MAX_PARTS 32u

/* Ops k..end of a display whose every text can be listed: literal text,
 * the name, and fields whose texts are listed (no padding, no bitset).
 * A choice picks one text per field (mixed radix, the last field
 * fastest); texts[choice] is the whole. */
typedef struct listing {
	const dsp_op *ops;
	size_t k, end;
	size_t nparts;
	size_t op[DSP_MAX_PARTS];          /* the op of each field */
	const spec_field *def[DSP_MAX_PARTS];
	lang part[DSP_MAX_PARTS];          /* each field's texts, sorted, unique */
	char **texts;                      /* into buf */
	size_t ntexts;
	char *buf;
} listing;

static void listing_free(listing *L)
{
	for (size_t i = 0; i < L->nparts; i++)
		lang_free(&L->part[i]);
	free(L->texts);
	free(L->buf);
	*L = (listing){0};
}

/* The text of field part i's string index of choice n. */
static size_t digit_of(const listing *L, size_t n, size_t i)
{
	for (size_t j = L->nparts; j-- > i + 1;)
		n /= L->part[j].nstrs;
	return n % L->part[i].nstrs;
}

/* Lists ops k..end of ctx into L; false (L empty) when they cannot be. */
static bool list_ops(const dsp_op *ops, size_t k, size_t end, const dsp_ctx *ctx, unsigned depth,
                     listing *L)
{
	*L = (listing){.ops = ops, .k = k, .end = end};
	const char *name = spec_display_name(ctx->leaf);
	size_t total = 1;
	for (size_t i = k; i < end; i++) {
		if (ops[i].kind == OP_ALIGN)
			goto fail;
		if (ops[i].kind != OP_FIELD)
			continue;
		if (L->nparts == DSP_MAX_PARTS)
			goto fail;
		lang *P = &L->part[L->nparts];
		L->op[L->nparts] = i;
		lang_of_name(&ops[i], ctx, depth, P, &L->def[L->nparts++]);
		if (!P->strs || !P->nstrs || total > DSP_MAX_LIST / P->nstrs)
			goto fail;
		if (!P->sorted && !P->borrowed)
			qsort(P->strs, P->nstrs, sizeof *P->strs, cmp_str);
		total *= P->nstrs;
	}
	/* Text n takes string digit_of(L, n, i) of part i: the last part
	 * turns fastest.  The texts go into one block (this ran for every
	 * pair of displays a leaf compares: a malloc and two strlen of each
	 * piece per text were a tenth of ir3's proof). */
	size_t namelen = strlen(name), fixed = 0, bytes = 0;
	size_t *lens[DSP_MAX_PARTS] = {0};
	for (size_t i = k; i < end; i++)
		fixed += ops[i].kind == OP_LIT ? ops[i].len : ops[i].kind == OP_NAME ? namelen : 0;
	for (size_t i = 0; i < L->nparts; i++) {
		if (!(lens[i] = malloc(L->part[i].nstrs * sizeof *lens[i])))
			goto fail_lens;
		size_t sum = 0;
		for (size_t j = 0; j < L->part[i].nstrs; j++)
			sum += lens[i][j] = strlen(L->part[i].strs[j]);
		bytes += sum * (total / L->part[i].nstrs);
	}
	bytes += total * (fixed + 1);
	if (!(L->texts = calloc(total, sizeof *L->texts)) || !(L->buf = malloc(bytes)))
		goto fail_lens;
	size_t digit[DSP_MAX_PARTS] = {0};
	char *t = L->buf;
	for (size_t n = 0; n < total; n++) {
		L->texts[L->ntexts++] = t;
		size_t part = 0;
		for (size_t i = k; i < end; i++) {
			if (ops[i].kind == OP_LIT) {
				memcpy(t, ops[i].text, ops[i].len);
				t += ops[i].len;
			} else if (ops[i].kind == OP_NAME) {
				memcpy(t, name, namelen);
				t += namelen;
			} else if (ops[i].kind == OP_FIELD) {
				size_t d = digit[part];
				memcpy(t, L->part[part].strs[d], lens[part][d]);
				t += lens[part][d];
				part++;
			}
		}
		*t++ = '\0';
		for (size_t i = L->nparts; i-- > 0;) {
			if (++digit[i] < L->part[i].nstrs)
				break;
			digit[i] = 0;
		}
	}
	for (size_t i = 0; i < L->nparts; i++)
		free(lens[i]);
	return true;
fail_lens:
	for (size_t i = 0; i < L->nparts; i++)
		free(lens[i]);
fail:
	listing_free(L);
	return false;
}

/* A listing's texts as one part (sorted, unique). */
static bool listing_lang(const listing *L, lang *out)
{
	*out = (lang){0};
	if (!(out->strs = calloc(L->ntexts ? L->ntexts : 1, sizeof *out->strs)))
		return false;
	for (size_t i = 0; i < L->ntexts; i++) {
		size_t len = strlen(L->texts[i]);
		if (!(out->strs[out->nstrs++] = strdup(L->texts[i])))
			return false;
		cs_add_str(&out->alpha, L->texts[i], len);
		if (len)
			cs_add(&out->first, (unsigned char)L->texts[i][0]);
		else
			out->nullable = true;
	}
	qsort(out->strs, out->nstrs, sizeof *out->strs, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < out->nstrs; i++) {
		if (u && !strcmp(out->strs[u - 1], out->strs[i])) {
			free(out->strs[i]);
			continue;
		}
		out->strs[u++] = out->strs[i];
	}
	out->nstrs = u;
	return true;
}

typedef struct choice_pair {
	size_t a, b;
} choice_pair;

typedef struct keyed_text {
	const char *t;
	size_t choice;
} keyed_text;

static int cmp_keyed(const void *x, const void *y)
{
	return strcmp(((const keyed_text *)x)->t, ((const keyed_text *)y)->t);
}

static keyed_text *keyed(const listing *L)
{
	keyed_text *k = malloc((L->ntexts + 1) * sizeof *k);
	for (size_t i = 0; k && i < L->ntexts; i++)
		k[i] = (keyed_text){L->texts[i], i};
	if (k)
		qsort(k, L->ntexts, sizeof *k, cmp_keyed);
	return k;
}

/* The choices of A and of B that give one text (same: A is B, and a
 * choice with itself is left out).  False when more than cap pairs. */
static bool collisions(const listing *A, const listing *B, bool same, choice_pair *out,
                       size_t cap, size_t *n)
{
	*n = 0;
	keyed_text *ka = keyed(A), *kb = keyed(B);
	bool ok = ka && kb;
	for (size_t x = 0, y = 0; ok && x < A->ntexts && y < B->ntexts;) {
		int c = strcmp(ka[x].t, kb[y].t);
		if (c) {
			c < 0 ? x++ : y++;
			continue;
		}
		size_t xe = x, ye = y;
		while (xe < A->ntexts && !strcmp(ka[xe].t, ka[x].t))
			xe++;
		while (ye < B->ntexts && !strcmp(kb[ye].t, kb[y].t))
			ye++;
		for (size_t i = x; ok && i < xe; i++)
			for (size_t j = y; ok && j < ye; j++) {
				if (same && ka[i].choice == kb[j].choice)
					continue;
				if (*n == cap)
					ok = false;
				else
					out[(*n)++] = (choice_pair){ka[i].choice, kb[j].choice};
			}
		x = xe;
		y = ye;
	}
	free(ka);
	free(kb);
	return ok;
}

/* Parts side by side whose texts are listed: per op, where its run ends
 * (an op alone: the next op).  Splitting and comparing take the same
 * runs. */
static void find_runs(const dsp_op *ops, size_t n, const lang *langs, size_t *run_end)
{
	for (size_t i = 0; i < n; i++) {
		size_t e = i;
		while (e < n && ops[e].kind == OP_FIELD && langs[e].strs)
			e++;
		if (e - i >= 2) {
			for (size_t j = i; j < e; j++)
				run_end[j] = e;
			i = e - 1;
		} else {
			run_end[i] = i + 1;
		}
	}
}

/* Statically: does display d, printed in ctx and followed by nothing,
 * split into its parts one way only?  (Point 1 at the top; parts side
 * by side whose texts are listed are taken as one part, a run: which
 * choices of its parts print alike is left to display_equal.) */
static bool splits_uniquely(const char *d, const dsp_ctx *ctx, unsigned depth, size_t *runs)
{
	size_t n;
	dsp_op *ops = parse_ops(d, &n);
	if (!ops)
		return false;
	lang *langs = calloc(n ? n : 1, sizeof *langs);
	size_t *run_end = calloc(n ? n : 1, sizeof *run_end); /* a part's run ends before this op */
	bool ok = langs && run_end;
	for (size_t i = 0; ok && i < n; i++) {
		if (ops[i].kind == OP_FIELD)
			lang_of_name(&ops[i], ctx, depth, &langs[i], NULL);
	}
	if (ok) {
		find_runs(ops, n, langs, run_end);
		if (runs)
			memcpy(runs, run_end, n * sizeof *runs);
	}
	for (size_t i = 0; ok && i < n; i = run_end[i]) {
		if (run_end[i] == i + 1)
			continue;
		listing run;
		lang whole = {0};
		ok = list_ops(ops, i, run_end[i], ctx, depth, &run) && listing_lang(&run, &whole);
		listing_free(&run);
		lang_free(&langs[i]);
		langs[i] = whole;
	}
	const char *name = spec_display_name(ctx->leaf);
	for (size_t i = 0; ok && i < n; i = run_end[i]) {
		if (ops[i].kind != OP_FIELD)
			continue;
		charset follow = {0};
		for (size_t j = run_end[i]; j < n; j++) {
			if (ops[j].kind == OP_LIT && ops[j].len) {
				cs_add(&follow, (unsigned char)ops[j].text[0]);
				break;
			}
			if (ops[j].kind == OP_NAME && *name) {
				cs_add(&follow, (unsigned char)name[0]);
				break;
			}
			if (ops[j].kind == OP_ALIGN)
				cs_add(&follow, ' ');
			if (ops[j].kind == OP_FIELD) {
				cs_or(&follow, &langs[j].first);
				if (!langs[j].nullable)
					break;
			}
		}
		lang *L = &langs[i];
		if (!cs_meets(&L->alpha, &follow))
			continue;
		if (!L->strs) {
			ok = false;
			break;
		}
		/* listed: x a proper prefix of y, y going on with a follower
		 * (sorted, the texts x is a prefix of come right after it) */
		if (!L->sorted && !L->borrowed)
			qsort(L->strs, L->nstrs, sizeof *L->strs, cmp_str);
		for (size_t a = 0; ok && a < L->nstrs; a++) {
			size_t la = strlen(L->strs[a]);
			for (size_t b = a + 1; ok && b < L->nstrs && !strncmp(L->strs[a], L->strs[b], la);
			     b++)
				if (L->strs[b][la] && cs_has(&follow, (unsigned char)L->strs[b][la]))
					ok = false;
		}
	}
	for (size_t i = 0; langs && i < n; i++)
		lang_free(&langs[i]);
	free(langs);
	free(run_end);
	free(ops);
	return ok;
}

/* The fixed text at the start (or end) of a display, and whether the
 * whole display is fixed. */
static size_t fixed_end(const dsp_op *ops, size_t n, const char *name, bool from_end, char *buf,
                        size_t cap, bool *whole)
{
	size_t len = 0;
	*whole = true;
	for (size_t k = 0; k < n; k++) {
		const dsp_op *op = &ops[from_end ? n - 1 - k : k];
		const char *t;
		size_t tl;
		if (op->kind == OP_LIT) {
			t = op->text;
			tl = op->len;
		} else if (op->kind == OP_NAME) {
			t = name;
			tl = strlen(name);
		} else {
			*whole = false;
			break;
		}
		if (len + tl > cap) {
			*whole = false;
			break;
		}
		if (from_end) {
			memmove(buf + tl, buf, len);
			memcpy(buf, t, tl);
		} else {
			memcpy(buf + len, t, tl);
		}
		len += tl;
	}
	return len;
}

/* Statically: can display da (in ca) and display db (in cb) never
 * print the same text?  (A differing fixed prefix or suffix, or a
 * character no part prints, counted differently.) */
static bool displays_differ(const char *da, const dsp_ctx *ca, const char *db, const dsp_ctx *cb,
                            unsigned depth)
{
	size_t na, nb;
	dsp_op *oa = parse_ops(da, &na), *ob = parse_ops(db, &nb);
	bool differ = false;
	if (!oa || !ob)
		goto out;
	const char *name_a = spec_display_name(ca->leaf), *name_b = spec_display_name(cb->leaf);
	static const size_t cap = 512;
	char pa[512], pb[512];
	for (int end = 0; end < 2 && !differ; end++) {
		bool wa, wb;
		size_t la = fixed_end(oa, na, name_a, end, pa, cap, &wa);
		size_t lb = fixed_end(ob, nb, name_b, end, pb, cap, &wb);
		size_t m = la < lb ? la : lb;
		if (wa && wb)
			differ = la != lb || memcmp(pa, pb, la);
		else if (end == 0)
			differ = memcmp(pa, pb, m) != 0;
		else
			differ = memcmp(pa + la - m, pb + lb - m, m) != 0;
	}
	if (differ)
		goto out;
	/* counts of characters no part can print */
	charset var = {0};
	unsigned counts[2][256] = {{0}};
	for (int side = 0; side < 2; side++) {
		const dsp_op *ops = side ? ob : oa;
		size_t n = side ? nb : na;
		const dsp_ctx *ctx = side ? cb : ca;
		const char *name = side ? name_b : name_a;
		for (size_t i = 0; i < n; i++) {
			lang L = {0};
			switch (ops[i].kind) {
			case OP_LIT:
				for (size_t k = 0; k < ops[i].len; k++)
					counts[side][(unsigned char)ops[i].text[k]]++;
				break;
			case OP_NAME:
				for (const char *q = name; *q; q++)
					counts[side][(unsigned char)*q]++;
				break;
			case OP_ALIGN: cs_add(&var, ' '); break;
			case OP_FIELD: {
				lang_of_name(&ops[i], ctx, depth, &L, NULL);
				cs_or(&var, &L.alpha);
				lang_free(&L);
				break;
			}
			}
		}
	}
	for (unsigned c = 0; c < 256 && !differ; c++)
		differ = !cs_has(&var, (unsigned char)c) && counts[0][c] != counts[1][c];
out:
	free(oa);
	free(ob);
	return differ;
}

/* ------------------------------------------------------------ formulas */

typedef struct dsp_run {
	const spec_model *m;
	z3_base *b;
	unsigned why; /* WHY_* met building the current leaf's formulas */
	semantic_stats *st;
	bool oom;
	/* prove_display_word: the first word and its generation are this
	 * one (NULL: any word of the leaf, the leaf's proof) */
	const uint64_t *fix;
	uint32_t fix_gen;
	/* and, when not NULL, the text it prints (in the printer's style):
	 * the second word's text is then held to it part by part
	 * (text_is_leaf), not to the first word's formulas */
	const char *fix_text;
	bool afuc; /* PROVE_PRINTER_AFUC */
	lang_memo memo; /* the listed texts of fields, for this leaf's formulas */
} dsp_run;

/* A pair of approximations of one condition. */
typedef struct tq {
	Z3_ast over, under;
} tq;

static Z3_ast z_true(dsp_run *r) { return Z3_mk_true(r->b->ctx); }
static Z3_ast z_false(dsp_run *r) { return Z3_mk_false(r->b->ctx); }

/* Growable lists of terms, for the and/or of many. */
typedef struct terms {
	Z3_ast *v;
	unsigned n, cap;
	bool oom;
} terms;

static void push(terms *t, Z3_ast a)
{
	if (t->n == t->cap) {
		unsigned cap = t->cap ? 2 * t->cap : 16;
		Z3_ast *v = realloc(t->v, cap * sizeof *v);
		if (!v) {
			t->oom = true;
			return;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = a;
}

static Z3_ast fold(dsp_run *r, terms *t, bool conj)
{
	r->oom = r->oom || t->oom;
	Z3_ast x = t->n == 0   ? (conj ? z_true(r) : z_false(r))
	           : t->n == 1 ? t->v[0]
	           : conj      ? Z3_mk_and(r->b->ctx, t->n, t->v)
	                       : Z3_mk_or(r->b->ctx, t->n, t->v);
	free(t->v);
	*t = (terms){0};
	return x;
}

static Z3_ast and2(dsp_run *r, Z3_ast x, Z3_ast y)
{
	Z3_ast a[2] = {x, y};
	return Z3_mk_and(r->b->ctx, 2, a);
}

static Z3_ast and3(dsp_run *r, Z3_ast x, Z3_ast y, Z3_ast z)
{
	Z3_ast a[3] = {x, y, z};
	return Z3_mk_and(r->b->ctx, 3, a);
}

static Z3_ast low_bits(dsp_run *r, Z3_ast v, unsigned w)
{
	return w < 64 ? Z3_mk_extract(r->b->ctx, w - 1, 0, v) : v;
}

/* v, of size bits, is not 0. */
static Z3_ast nonzero(dsp_run *r, Z3_ast v, unsigned size)
{
	Z3_context c = r->b->ctx;
	return Z3_mk_not(c, Z3_mk_eq(c, v, Z3_mk_unsigned_int64(c, 0, Z3_mk_bv_sort(c, size))));
}

/* The exclusive match of leaf a of root over sub-word u: a holds and no
 * other leaf of the root that can meet it does. */
static Z3_ast match_exclusive(dsp_run *r, const spec_root *root, size_t a, Z3_ast u)
{
	uint64_t fa[DSP_WORDS], va[DSP_WORDS], fb[DSP_WORDS], vb[DSP_WORDS];
	leaf_cube ca, cb;
	unsigned nw = words_for(root->bitset->size);
	leaf_cube_init(&ca, root->leaves[a], fa, va, nw);
	if (ca.empty)
		return z_false(r);
	terms t = {0};
	push(&t, semantic_leaf_holds(r->b, root->leaves[a], u));
	for (size_t o = 0; o < root->nleaves; o++) {
		if (o == a)
			continue;
		leaf_cube_init(&cb, root->leaves[o], fb, vb, nw);
		if (cb.empty || cb.gen.max < ca.gen.min || ca.gen.max < cb.gen.min)
			continue;
		bool meet = true;
		for (unsigned i = 0; i < nw && meet; i++)
			meet = !((fa[i] & fb[i]) & (va[i] ^ vb[i]));
		if (meet)
			push(&t, Z3_mk_not(r->b->ctx, semantic_leaf_holds(r->b, root->leaves[o], u)));
	}
	return fold(r, &t, true);
}

static const spec_root *root_of(const spec_model *m, const spec_bitset *root)
{
	for (size_t i = 0; i < m->nroots; i++)
		if (m->roots[i].bitset == root)
			return &m->roots[i];
	return NULL;
}

static tq text_equal_leaf(dsp_run *r, const dsp_ctx *ctx, const z3_scope *s1, const z3_scope *s2,
                          unsigned depth);

/* Params of via alike on both sides (the names each passes in). */
static Z3_ast params_alike(dsp_run *r, const spec_field *via, const z3_scope *o1,
                           const z3_scope *o2)
{
	terms t = {0};
	for (size_t p = 0; p < via->nparams; p++) {
		Z3_ast a = z3_name_in(r->b, o1, via->params[p].name);
		Z3_ast b = z3_name_in(r->b, o2, via->params[p].name);
		if (!a || !b) {
			free(t.v);
			return z_false(r);
		}
		push(&t, Z3_mk_eq(r->b->ctx, a, b));
	}
	return fold(r, &t, true);
}

/* Whether no two leaves of root print alike, by their displays alone. */
static bool leaves_differ(const spec_root *root, const spec_field *via, const dsp_ctx *outer,
                          unsigned depth)
{
	for (size_t a = 0; a < root->nleaves; a++) {
		const spec_case *ca[DSP_MAX_DISPLAYS];
		size_t na = leaf_displays(root->leaves[a], ca, DSP_MAX_DISPLAYS);
		dsp_ctx xa = {.leaf = root->leaves[a], .via = via, .outer = outer};
		if (na > DSP_MAX_DISPLAYS)
			return false;
		for (size_t b = a + 1; b < root->nleaves; b++) {
			const spec_case *cb[DSP_MAX_DISPLAYS];
			size_t nb = leaf_displays(root->leaves[b], cb, DSP_MAX_DISPLAYS);
			dsp_ctx xb = {.leaf = root->leaves[b], .via = via, .outer = outer};
			if (nb > DSP_MAX_DISPLAYS)
				return false;
			for (size_t i = 0; i < na; i++)
				for (size_t j = 0; j < nb; j++) {
					dsp_ctx ya = with_shown(&xa, ca[i], ca[i]), yb = with_shown(&xb, cb[j], cb[j]);
					if (!displays_differ(ca[i]->display, &ya, cb[j]->display, &yb, depth))
						return false;
				}
		}
	}
	return true;
}

static Z3_ast selects(dsp_run *r, const z3_scope *s, const spec_case *const *cs, size_t k);
static Z3_ast cross_listed(dsp_run *r, const dsp_ctx *c1, const char *da, const z3_scope *s1,
                          const dsp_ctx *c2, const char *db, const z3_scope *s2, unsigned depth);

/* Roots with more leaves than this have their pairs of leaves taken
 * together (unknown if any pair may print alike), not one by one. */
#define DSP_MAX_PAIRED 24u

/* Sub-leaf a on side 1 and sub-leaf b != a on side 2 print alike: over
 * and under pushed. */
static void leaf_pair_alike(dsp_run *r, const dsp_ctx *ca, const z3_scope *n1, const dsp_ctx *cb,
                            const z3_scope *n2, Z3_ast m, terms *over, terms *under,
                            unsigned depth)
{
	const spec_case *da[DSP_MAX_DISPLAYS], *db[DSP_MAX_DISPLAYS];
	size_t na = leaf_displays(ca->leaf, da, DSP_MAX_DISPLAYS);
	size_t nb = leaf_displays(cb->leaf, db, DSP_MAX_DISPLAYS);
	if (na > DSP_MAX_DISPLAYS || nb > DSP_MAX_DISPLAYS) {
		r->why |= WHY_CROSS;
		push(over, m);
		return;
	}
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			dsp_ctx xa = with_shown(ca, da[i], da[i]), xb = with_shown(cb, db[j], db[j]);
			if (displays_differ(da[i]->display, &xa, db[j]->display, &xb, depth))
				continue;
			Z3_ast si = selects(r, n1, da, i), sj = selects(r, n2, db, j);
			if (!si || !sj) {
				r->why |= WHY_NAME;
				push(over, m);
				continue;
			}
			Z3_ast cond = and3(r, m, si, sj);
			Z3_ast rel = cross_listed(r, &xa, da[i]->display, n1, &xb, db[j]->display, n2, depth);
			if (rel) {
				push(over, and2(r, cond, rel));
				push(under, and2(r, cond, rel));
			} else {
				r->why |= WHY_CROSS;
				push(over, cond);
			}
		}
}

/* Sub-words u1, u2 of root, decoded through field via of scopes o1, o2
 * (context outer), print the same text. */
static tq text_equal_root(dsp_run *r, const spec_field *via, const dsp_ctx *outer,
                          const z3_scope *o1, const z3_scope *o2, Z3_ast u1, Z3_ast u2,
                          unsigned depth)
{
	Z3_context c = r->b->ctx;
	const spec_root *root = root_of(r->m, via->bitset);
	tq out = {z_true(r), z_false(r)};
	if (!root)
		return out;
	if (depth >= DSP_MAX_DEPTH) {
		r->why |= WHY_DEPTH;
		out.under = and2(r, Z3_mk_eq(c, u1, u2), params_alike(r, via, o1, o2));
		return out;
	}
	size_t nl = root->nleaves;
	Z3_ast *m1 = malloc((nl + 1) * sizeof *m1), *m2 = malloc((nl + 1) * sizeof *m2);
	z3_scope *n1 = malloc((nl + 1) * sizeof *n1), *n2 = malloc((nl + 1) * sizeof *n2);
	if (!m1 || !m2 || !n1 || !n2) {
		free(m1);
		free(m2);
		free(n1);
		free(n2);
		r->oom = true;
		return out;
	}
	terms over = {0}, under = {0}, any1 = {0}, any2 = {0}, same = {0};
	for (size_t a = 0; a < nl; a++) {
		m1[a] = match_exclusive(r, root, a, u1);
		m2[a] = match_exclusive(r, root, a, u2);
		n1[a] = (z3_scope){root->leaves[a], u1, via, o1, true, z3_memo_new(), NULL, NULL, NULL};
		n2[a] = (z3_scope){root->leaves[a], u2, via, o2, true, z3_memo_new(), NULL, NULL, NULL};
		dsp_ctx inner = {.leaf = root->leaves[a], .via = via, .outer = outer};
		tq t = text_equal_leaf(r, &inner, &n1[a], &n2[a], depth + 1);
		Z3_ast both = and2(r, m1[a], m2[a]);
		push(&over, and2(r, both, t.over));
		push(&under, and2(r, both, t.under));
		push(&any1, m1[a]);
		push(&any2, m2[a]);
		push(&same, both);
	}
	if (!leaves_differ(root, via, outer, depth + 1)) {
		if (nl <= DSP_MAX_PAIRED) {
			for (size_t a = 0; a < nl; a++)
				for (size_t b = 0; b < nl; b++) {
					if (a == b)
						continue;
					dsp_ctx ca = {.leaf = root->leaves[a], .via = via, .outer = outer}, cb = {.leaf = root->leaves[b], .via = via, .outer = outer};
					leaf_pair_alike(r, &ca, &n1[a], &cb, &n2[b], and2(r, m1[a], m2[b]), &over,
					                &under, depth + 1);
				}
		} else {
			r->why |= WHY_CROSS;
			push(&over, and3(r, fold(r, &any1, false), fold(r, &any2, false),
			                 Z3_mk_not(c, fold(r, &same, false))));
		}
	}
	for (size_t a = 0; a < nl; a++) {
		z3_memo_free(n1[a].memo);
		z3_memo_free(n2[a].memo);
	}
	free(m1);
	free(m2);
	free(n1);
	free(n2);
	free(any1.v);
	free(any2.v);
	free(same.v);
	out.over = fold(r, &over, false);
	out.under = fold(r, &under, false);
	return out;
}

/* The number an all-digits enum name reads as, when it is what "%u"
 * prints for that number (no leading zero, below 2^32): such a name
 * prints like the unnamed value of that number. */
static bool digit_name(const char *d, uint64_t *n)
{
	if (!all_digits(d) || (d[0] == '0' && d[1]) || strlen(d) > 10)
		return false;
	*n = strtoull(d, NULL, 10);
	return *n <= UINT32_MAX;
}

/* Whether enum e prints different values of a w-bit field (w <= 32) as
 * different text: its names differ pairwise and name values below 2^32,
 * so a named value prints like no other named one; a name that reads as
 * a number n prints like the unnamed value n, which the field cannot
 * hold when n is named (it prints its own name) or does not fit in w
 * bits.  Then equal text is equal values, with no term per name (a
 * 256-name swizzle enum on both sides made Midgard's queries slow). */
static bool enum_injective(const spec_enum *e, unsigned w)
{
	for (size_t i = 0; i < e->nvalues; i++) {
		const char *d = e->values[i].display;
		if (!d)
			continue;
		if (e->values[i].val < 0 || e->values[i].val > (int64_t)UINT32_MAX)
			return false;
		for (size_t k = 0; k < i; k++)
			if (e->values[k].display && e->values[k].val != e->values[i].val &&
			    !strcmp(e->values[k].display, d))
				return false;
		uint64_t n;
		if (digit_name(d, &n) && n != (uint64_t)e->values[i].val && n < ((uint64_t)1 << w)) {
			bool named = false;
			for (size_t k = 0; k < e->nvalues && !named; k++)
				named = e->values[k].display && e->values[k].val == (int64_t)n;
			if (!named)
				return false;
		}
	}
	return true;
}

/* v is a value enum field f names (true when it names every value of
 * f's bits, or names too many to list). */
static Z3_ast enum_named(dsp_run *r, const spec_field *f, Z3_ast v)
{
	Z3_context c = r->b->ctx;
	const spec_enum *e = f->enm;
	unsigned w = width_of(f);
	if (e->nvalues > 1024)
		return z_true(r);
	if (f->kind == SPEC_FIELD && w <= 10) {
		bool all = true;
		for (uint64_t x = 0; x < ((uint64_t)1 << w) && all; x++) {
			bool named = false;
			for (size_t i = 0; i < e->nvalues && !named; i++)
				named = e->values[i].display && e->values[i].val == (int64_t)x;
			all = named;
		}
		if (all)
			return z_true(r);
	}
	terms any = {0};
	Z3_sort s64 = Z3_mk_bv_sort(c, 64);
	for (size_t i = 0; i < e->nvalues; i++)
		if (e->values[i].display)
			push(&any, Z3_mk_eq(c, v, Z3_mk_unsigned_int64(c, (uint64_t)e->values[i].val, s64)));
	return fold(r, &any, false);
}

static Z3_ast enum_text_id(dsp_run *r, const spec_enum *e, Z3_ast v)
{
	Z3_context c = r->b->ctx;
	Z3_sort s64 = Z3_mk_bv_sort(c, 64);
	/* unnamed: the decimal of its low 32 bits */
	Z3_ast id = Z3_mk_bvor(c, Z3_mk_unsigned_int64(c, (uint64_t)1 << 40, s64),
	                       Z3_mk_zero_ext(c, 32, Z3_mk_extract(c, 31, 0, v)));
	for (size_t i = e->nvalues; i-- > 0;) {
		const char *d = e->values[i].display;
		if (!d)
			continue;
		uint64_t group = i;
		for (size_t k = 0; k < i; k++)
			if (e->values[k].display && !strcmp(e->values[k].display, d)) {
				group = k;
				break;
			}
		/* a name that reads as a number prints as that unnamed value */
		uint64_t n;
		if (digit_name(d, &n))
			group = (uint64_t)1 << 40 | n;
		id = Z3_mk_ite(c, Z3_mk_eq(c, v, Z3_mk_unsigned_int64(c, (uint64_t)e->values[i].val, s64)),
		               Z3_mk_unsigned_int64(c, group, s64), id);
	}
	return id;
}

/* {name} prints the same text in scopes s1 and s2 (both in ctx). */
static tq part_equal(dsp_run *r, const dsp_ctx *ctx, const dsp_op *op, const z3_scope *s1,
                     const z3_scope *s2, unsigned depth)
{
	Z3_context c = r->b->ctx;
	tq out = {z_true(r), z_false(r)};
	const dsp_ctx *where;
	const spec_field *f = resolve(ctx, op->text, op->len, &where);
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)(op->len < 255 ? op->len : 255), op->text);
	if (!f && defined_nowhere(ctx, op->text, op->len)) { /* nothing, always */
		out.under = z_true(r);
		return out;
	}
	Z3_ast v1 = f ? z3_name_in(r->b, s1, name) : NULL;
	Z3_ast v2 = f ? z3_name_in(r->b, s2, name) : NULL;
	if (!v1 || !v2) {
		r->why |= WHY_NAME;
		return out;
	}
	unsigned w = width_of(f);
	if (w > 64)
		w = 64;
	Z3_ast full = Z3_mk_eq(c, v1, v2);
	custom_kind ck = f->type == SPEC_TYPE_CUSTOM ? custom_print(ctx, op) : CUSTOM_CALLER;
	if (ck == CUSTOM_HEX3) { /* 0x%03x of (unsigned)value: one text a value */
		out.over = out.under = Z3_mk_eq(c, Z3_mk_extract(c, 31, 0, v1),
		                                Z3_mk_extract(c, 31, 0, v2));
		return out;
	}
	if (ck == CUSTOM_NOTHING) { /* always alike */
		out.under = z_true(r);
		return out;
	}
	switch (f->type) {
	case SPEC_TYPE_UINT:
	case SPEC_TYPE_HEX:
	case SPEC_TYPE_UOFFSET:
		/* printed whole (a derived value too, whatever its width) */
		out.over = out.under = full;
		return out;
	case SPEC_TYPE_INT:
	case SPEC_TYPE_OFFSET:
	case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH:
		/* sign-extended from the width: equal text, equal low bits;
		 * equal values, equal text */
		out.over = Z3_mk_eq(c, low_bits(r, v1, w), low_bits(r, v2, w));
		out.under = full;
		return out;
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		if (f->display && !*f->display)
			out.over = out.under = z_true(r);
		else if (f->display || f->type == SPEC_TYPE_BOOL_INV)
			out.over = out.under = Z3_mk_eq(c, nonzero(r, v1, 64), nonzero(r, v2, 64));
		else
			out.over = out.under = Z3_mk_eq(c, Z3_mk_extract(c, 31, 0, v1),
			                                 Z3_mk_extract(c, 31, 0, v2));
		return out;
	case SPEC_TYPE_ENUM:
		if (!f->enm) {
			out.over = out.under = Z3_mk_eq(c, Z3_mk_extract(c, 31, 0, v1),
			                                Z3_mk_extract(c, 31, 0, v2));
			return out;
		}
		out.over =
			f->kind == SPEC_FIELD && f->high - f->low < 32 && enum_injective(f->enm, w)
				? Z3_mk_eq(c, Z3_mk_extract(c, 31, 0, v1), Z3_mk_extract(c, 31, 0, v2))
				: Z3_mk_eq(c, enum_text_id(r, f->enm, v1), enum_text_id(r, f->enm, v2));
		/* a witness with a value the enum does not name decodes with an
		 * issue, and the decoder turns it down: ask for named ones */
		out.under = and3(r, out.over, enum_named(r, f, v1), enum_named(r, f, v2));
		return out;
	case SPEC_TYPE_BITSET:
		if (f->kind != SPEC_FIELD || !f->bitset) {
			r->why |= WHY_NAME;
			break;
		}
		if (f->bitset->size > 64) {
			r->why |= WHY_WIDE;
			break;
		}
		return text_equal_root(r, f, where, s1, s2, low_bits(r, v1, f->bitset->size),
		                       low_bits(r, v2, f->bitset->size), depth);
	default:
		r->why |= WHY_TYPE;
		break;
	}
	out.under = full;
	return out;
}

/* Field f's value v prints text t (f's texts listed). */
static Z3_ast prints_as(dsp_run *r, const spec_field *f, Z3_ast v, const char *t)
{
	Z3_context c = r->b->ctx;
	if (f->type == SPEC_TYPE_CUSTOM) /* listed only where it prints nothing */
		return *t ? z_false(r) : z_true(r);
	if ((f->type == SPEC_TYPE_BOOL || f->type == SPEC_TYPE_BOOL_INV) && f->display) {
		Z3_ast set = nonzero(r, v, 64);
		if (f->type == SPEC_TYPE_BOOL_INV)
			set = Z3_mk_not(c, set);
		if (!*f->display)
			return *t ? z_false(r) : z_true(r);
		return !strcmp(t, f->display) ? set : *t ? z_false(r) : Z3_mk_not(c, set);
	}
	unsigned w = width_of(f);
	Z3_ast low = low_bits(r, v, w);
	Z3_sort s = Z3_mk_bv_sort(c, w);
	terms any = {0};
	for (uint64_t x = 0; x < ((uint64_t)1 << w); x++) {
		char buf[4096];
		print_small(f, x, buf, sizeof buf);
		if (!strcmp(buf, t))
			push(&any, Z3_mk_eq(c, low, Z3_mk_unsigned_int64(c, x, s)));
	}
	return fold(r, &any, false);
}

/* Choice n of listing L is what scope s prints; NULL: a value that
 * cannot be translated. */
static Z3_ast choice_holds(dsp_run *r, const listing *L, size_t n, const z3_scope *s)
{
	terms t = {0};
	for (size_t i = 0; i < L->nparts; i++) {
		const dsp_op *op = &L->ops[L->op[i]];
		if (!L->def[i])
			continue; /* listed: a name defined nowhere, which prints nothing */
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(op->len < 255 ? op->len : 255), op->text);
		Z3_ast v = z3_name_in(r->b, s, name);
		if (!v) {
			free(t.v);
			return NULL;
		}
		push(&t, prints_as(r, L->def[i], v, L->part[i].strs[digit_of(L, n, i)]));
	}
	return fold(r, &t, true);
}

/* Listing A in s1 and listing B in s2 print alike through two different
 * choices (same: A is B, a choice with itself left to the caller).
 * NULL when there are too many such pairs or a value is untranslatable. */
static Z3_ast listed_equal(dsp_run *r, const listing *A, const z3_scope *s1, const listing *B,
                           const z3_scope *s2, bool same)
{
	choice_pair *pairs = malloc(DSP_MAX_COLLISIONS * sizeof *pairs);
	size_t n = 0;
	if (!pairs || !collisions(A, B, same, pairs, DSP_MAX_COLLISIONS, &n)) {
		free(pairs);
		return NULL;
	}
	terms t = {0};
	for (size_t i = 0; i < n; i++) {
		Z3_ast x = choice_holds(r, A, pairs[i].a, s1), y = choice_holds(r, B, pairs[i].b, s2);
		if (!x || !y) {
			free(t.v);
			free(pairs);
			return NULL;
		}
		push(&t, and2(r, x, y));
	}
	free(pairs);
	return fold(r, &t, false);
}

/* Display d prints the same text in s1 and s2. */
static tq display_equal(dsp_run *r, const dsp_ctx *ctx, const char *d, const z3_scope *s1,
                        const z3_scope *s2, unsigned depth)
{
	size_t n;
	dsp_op *ops = parse_ops(d, &n);
	size_t *runs = ops ? malloc((n ? n : 1) * sizeof *runs) : NULL;
	tq out = {z_true(r), z_false(r)};
	if (!ops || !runs) {
		free(ops);
		r->oom = true;
		return out;
	}
	for (size_t i = 0; i < n; i++)
		runs[i] = i + 1;
	bool split = splits_uniquely(d, ctx, depth, runs);
	if (!split)
		r->why |= WHY_SPLIT;
	terms over = {0}, under = {0};
	for (size_t i = 0; i < n; i = runs[i] > i ? runs[i] : i + 1) {
		if (ops[i].kind != OP_FIELD)
			continue;
		terms ro = {0}, ru = {0};
		for (size_t j = i; j < runs[i]; j++) {
			tq p = part_equal(r, ctx, &ops[j], s1, s2, depth);
			push(&ro, p.over);
			push(&ru, p.under);
		}
		Z3_ast po = fold(r, &ro, true), pu = fold(r, &ru, true);
		if (runs[i] > i + 1) {
			/* a run: its parts alike, or two choices that print alike */
			listing L;
			Z3_ast coll = NULL;
			if (list_ops(ops, i, runs[i], ctx, depth, &L)) {
				coll = listed_equal(r, &L, s1, &L, s2, true);
				listing_free(&L);
			}
			if (coll) {
				Z3_ast o[2] = {po, coll}, u[2] = {pu, coll};
				po = Z3_mk_or(r->b->ctx, 2, o);
				pu = Z3_mk_or(r->b->ctx, 2, u);
			} else {
				r->why |= WHY_SPLIT;
				po = z_true(r);
			}
		}
		push(&over, po);
		push(&under, pu);
	}
	free(ops);
	free(runs);
	out.over = split ? fold(r, &over, true) : (free(over.v), z_true(r));
	out.under = fold(r, &under, true);
	return out;
}

/* Display da in c1 (scope s1) and db in c2 (scope s2), both listed,
 * print alike: one of the pairs of choices with one text.  NULL when
 * they cannot be listed or have too many such pairs. */
static Z3_ast cross_listed(dsp_run *r, const dsp_ctx *c1, const char *da, const z3_scope *s1,
                          const dsp_ctx *c2, const char *db, const z3_scope *s2, unsigned depth)
{
	size_t na, nb;
	dsp_op *oa = parse_ops(da, &na), *ob = parse_ops(db, &nb);
	listing A, B;
	Z3_ast rel = NULL;
	if (oa && ob && list_ops(oa, 0, na, c1, depth, &A)) {
		if (list_ops(ob, 0, nb, c2, depth, &B)) {
			rel = listed_equal(r, &A, s1, &B, s2, false);
			listing_free(&B);
		}
		listing_free(&A);
	}
	free(oa);
	free(ob);
	return rel;
}

/* The condition under which the decoder prints with display k of the
 * list (the first listed case that holds); NULL: not translatable. */
static Z3_ast selects(dsp_run *r, const z3_scope *s, const spec_case *const *cs, size_t k)
{
	terms t = {0};
	for (size_t j = 0; j <= k; j++) {
		if (!cs[j]->expr)
			continue;
		Z3_ast e = z3_expr_in(r->b, s, cs[j]->expr);
		if (!e) {
			free(t.v);
			return NULL;
		}
		Z3_ast holds = z3_is_true(r->b, e);
		push(&t, j == k ? holds : Z3_mk_not(r->b->ctx, holds));
	}
	return fold(r, &t, true);
}

/* The leaf of ctx prints the same text in s1 and s2. */
static tq text_equal_leaf(dsp_run *r, const dsp_ctx *ctx, const z3_scope *s1, const z3_scope *s2,
                          unsigned depth)
{
	const spec_case *cs[DSP_MAX_DISPLAYS];
	size_t nd = leaf_displays(ctx->leaf, cs, DSP_MAX_DISPLAYS);
	tq out = {z_true(r), z_false(r)};
	if (nd == 0 || nd > DSP_MAX_DISPLAYS) {
		r->why |= nd ? WHY_CROSS : WHY_DISPLAY;
		return out;
	}
	Z3_ast sel1[DSP_MAX_DISPLAYS], sel2[DSP_MAX_DISPLAYS];
	for (size_t k = 0; k < nd; k++) {
		sel1[k] = selects(r, s1, cs, k);
		sel2[k] = selects(r, s2, cs, k);
		if (!sel1[k] || !sel2[k]) {
			r->why |= WHY_NAME;
			return out;
		}
	}
	terms over = {0}, under = {0};
	for (size_t i = 0; i < nd; i++)
		for (size_t j = 0; j < nd; j++) {
			Z3_ast both = and2(r, sel1[i], sel2[j]);
			dsp_ctx xi = with_shown(ctx, cs[i], cs[i]), xj = with_shown(ctx, cs[j], cs[j]);
			if (i == j || !strcmp(cs[i]->display, cs[j]->display)) {
				dsp_ctx xij = with_shown(ctx, cs[i], cs[j]);
				tq e = display_equal(r, &xij, cs[i]->display, s1, s2, depth);
				push(&over, and2(r, both, e.over));
				push(&under, and2(r, both, e.under));
			} else if (!displays_differ(cs[i]->display, &xi, cs[j]->display, &xj, depth)) {
				Z3_ast rel =
					cross_listed(r, &xi, cs[i]->display, s1, &xj, cs[j]->display, s2, depth);
				if (rel) {
					push(&over, and2(r, both, rel));
					push(&under, and2(r, both, rel));
				} else {
					r->why |= WHY_CROSS;
					push(&over, both);
				}
			}
		}
	out.over = fold(r, &over, false);
	out.under = fold(r, &under, false);
	return out;
}

static Z3_ast words_differ_leaf(dsp_run *r, const dsp_ctx *ctx, const z3_scope *s1,
                                const z3_scope *s2, unsigned depth);

/* Sub-words of root through via decode differently. */
static Z3_ast words_differ_root(dsp_run *r, const spec_field *via, const dsp_ctx *outer,
                                const z3_scope *o1, const z3_scope *o2, Z3_ast u1, Z3_ast u2,
                                unsigned depth)
{
	Z3_context c = r->b->ctx;
	const spec_root *root = root_of(r->m, via->bitset);
	if (!root || depth >= DSP_MAX_DEPTH)
		return Z3_mk_not(c, Z3_mk_eq(c, u1, u2));
	terms t = {0}, any1 = {0}, any2 = {0}, same = {0};
	for (size_t a = 0; a < root->nleaves; a++) {
		Z3_ast m1 = match_exclusive(r, root, a, u1), m2 = match_exclusive(r, root, a, u2);
		z3_scope n1 = {root->leaves[a], u1, via, o1, true, NULL, NULL, NULL, NULL};
		z3_scope n2 = {root->leaves[a], u2, via, o2, true, NULL, NULL, NULL, NULL};
		dsp_ctx inner = {.leaf = root->leaves[a], .via = via, .outer = outer};
		Z3_ast both = and2(r, m1, m2);
		push(&t, and2(r, both, words_differ_leaf(r, &inner, &n1, &n2, depth + 1)));
		push(&any1, m1);
		push(&any2, m2);
		push(&same, both);
	}
	/* a sub-word that matches no leaf, or two different ones */
	push(&t, Z3_mk_not(c, fold(r, &same, false)));
	free(any1.v);
	free(any2.v);
	return fold(r, &t, false);
}

/* Whether a name has one definition in the leaf's chain. */
static const spec_field *only_definition(const spec_bitset *leaf, const char *name)
{
	const spec_field *one = NULL;
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				const spec_field *fd = &b->cases[c].fields[f];
				if (fd->kind == SPEC_ASSERT || strcmp(fd->name, name))
					continue;
				if (one)
					return NULL;
				one = fd;
			}
	return one;
}

/* The two words of a leaf decode to different values, as the decoder
 * lists them: a field of the chain has another value (looked up as the
 * decoder does, so only the definition that holds counts), an override
 * that defines fields holds for one and not the other (other fields are
 * listed), or a bitset field decodes differently a level down.  A field
 * whose value cannot be translated counts by its bits. */
static Z3_ast words_differ_leaf(dsp_run *r, const dsp_ctx *ctx, const z3_scope *w1,
                                const z3_scope *w2, unsigned depth)
{
	Z3_context c = r->b->ctx;
	const spec_bitset *leaf = ctx->leaf;
	unsigned size = leaf->size;
	uint64_t care[DSP_WORDS] = {0};
	/* the words outside the leaf's don't-care bits: two words that
	 * differ only there are one word */
	for (unsigned i = 0; i < words_for(size); i++)
		care[i] = ~(i < leaf->dontcare.nwords ? leaf->dontcare.w[i] : 0);
	if (size % 64)
		care[words_for(size) - 1] &= ((uint64_t)1 << (size % 64)) - 1;
	Z3_ast keep = z3_bits_sized(r->b, care, size);
	z3_scope k1 = *w1, k2 = *w2;
	k1.word = Z3_mk_bvand(c, w1->word, keep);
	k2.word = Z3_mk_bvand(c, w2->word, keep);
	/* their own translations (the words are others): without a memo,
	 * Midgard's chains of derived values are translated again at every
	 * look-up */
	k1.memo = z3_memo_new();
	k2.memo = z3_memo_new();
	const z3_scope *s1 = &k1, *s2 = &k2;
	memset(care, 0, sizeof care);
	bool any_care = false;
	terms t = {0};
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t k = 0; k < b->ncases; k++) {
			const spec_case *cs = &b->cases[k];
			bool defines = false;
			for (size_t f = 0; f < cs->nfields; f++) {
				const spec_field *fd = &cs->fields[f];
				if (fd->kind == SPEC_ASSERT)
					continue;
				defines = true;
				if (fd->kind != SPEC_FIELD || fd->high >= size)
					continue;
				if (fd->type == SPEC_TYPE_BITSET && fd->bitset && fd->bitset->size <= 64 &&
				    width_of(fd) == fd->bitset->size && only_definition(leaf, fd->name) == fd) {
					Z3_ast u1 = Z3_mk_extract(c, fd->high, fd->low, s1->word);
					Z3_ast u2 = Z3_mk_extract(c, fd->high, fd->low, s2->word);
					push(&t, words_differ_root(r, fd, ctx, s1, s2, u1, u2, depth));
					continue;
				}
				Z3_ast v1 = fd->type == SPEC_TYPE_BITSET ? NULL : z3_name_in(r->b, s1, fd->name);
				Z3_ast v2 = fd->type == SPEC_TYPE_BITSET ? NULL : z3_name_in(r->b, s2, fd->name);
				if (v1 && v2) {
					push(&t, Z3_mk_not(c, Z3_mk_eq(c, v1, v2)));
					continue;
				}
				any_care = true;
				for (unsigned i = fd->low; i <= fd->high; i++)
					care[i / 64] |= (uint64_t)1 << (i % 64);
			}
			if (defines && cs->expr) {
				Z3_ast e1 = z3_expr_in(r->b, s1, cs->expr), e2 = z3_expr_in(r->b, s2, cs->expr);
				if (e1 && e2)
					push(&t, Z3_mk_not(c, Z3_mk_eq(c, z3_is_true(r->b, e1), z3_is_true(r->b, e2))));
				else
					push(&t, z_true(r)); /* cannot tell: count as different */
			}
		}
	if (any_care) {
		for (unsigned i = 0; i < words_for(size); i++)
			care[i] &= ~leaf->dontcare.w[i];
		Z3_ast mask = z3_bits_sized(r->b, care, size);
		push(&t, nonzero(r, Z3_mk_bvand(c, Z3_mk_bvxor(c, s1->word, s2->word), mask), size));
	}
	z3_memo_free(k1.memo);
	z3_memo_free(k2.memo);
	Z3_ast any = fold(r, &t, false);
	if (depth)
		return any;
	/* and, whatever could not be told above (a condition Mesa's
	 * expression cache decides counts as different), two words alike
	 * outside the don't-care bits decode alike */
	return and2(r, any, nonzero(r, Z3_mk_bvxor(c, k1.word, k2.word), size));
}

/* ------------------------------------------------------------- the run */

static void word_of(z3_base *b, Z3_model m, Z3_ast word, uint64_t *w)
{
	for (unsigned i = 0; i < words_for(b->size); i++) {
		unsigned hi = (i + 1) * 64 - 1 < b->size - 1 ? (i + 1) * 64 - 1 : b->size - 1;
		Z3_ast part = Z3_mk_extract(b->ctx, hi, i * 64, word), v;
		uint64_t u = 0;
		if (Z3_model_eval(b->ctx, m, part, true, &v))
			Z3_get_numeral_uint64(b->ctx, v, &u);
		w[i] = u;
	}
}

typedef struct pair_out {
	Z3_ast w2;
	uint64_t *a, *b2;
	uint32_t *gen;
} pair_out;

static void take_pair(void *ctx, z3_base *b, Z3_model m)
{
	pair_out *p = ctx;
	z3_model_word(b, m, p->a, p->gen);
	word_of(b, m, p->w2, p->b2);
}

/* Asks q; on yes, both words and the generation. */
static z3_answer ask_pair(dsp_run *r, Z3_ast q, Z3_ast w2, uint64_t *a, uint64_t *b2,
                          uint32_t *gen)
{
	pair_out p = {w2, a, b2, gen};
	r->st->queries++;
	return z3_ask(r->b, q, take_pair, &p);
}

/* The leaf's don't-care bits of word are clear (witnesses only: the
 * text does not depend on them, so a pair with them set has a twin
 * without, which Mesa's disassembler prints with no warning). */
static Z3_ast dontcare_clear(dsp_run *r, const spec_bitset *leaf, Z3_ast word)
{
	uint64_t dc[DSP_WORDS] = {0};
	bool any = false;
	for (size_t i = 0; i < leaf->dontcare.nwords && i < DSP_WORDS; i++)
		any |= (dc[i] = leaf->dontcare.w[i]) != 0;
	if (!any)
		return z_true(r);
	Z3_context c = r->b->ctx;
	uint64_t zero[DSP_WORDS] = {0};
	return Z3_mk_eq(c, Z3_mk_bvand(c, word, z3_bits_sized(r->b, dc, leaf->size)),
	                z3_bits_sized(r->b, zero, leaf->size));
}

/* The root field f of leaf decodes its bits through, when f is a plain
 * field as wide as its bitset (at most 64 bits) inside the leaf; else
 * NULL. */
static const spec_root *whole_sub(const dsp_run *r, const spec_bitset *leaf, const spec_field *f)
{
	if (f->kind != SPEC_FIELD || f->type != SPEC_TYPE_BITSET || !f->bitset ||
	    f->high >= leaf->size || f->high - f->low + 1 != f->bitset->size ||
	    f->bitset->size > 64)
		return NULL;
	return root_of(r->m, f->bitset);
}

/* And so are those of the sub-leaf each bitset field of the leaf's
 * default cases decodes to (one level down): if the field's bits match
 * a sub-leaf, its don't-care bits are clear. */
/* The fields of the default cases of a leaf's chain, the leaf's own
 * first: what a decoding takes where no override holds.  One at a time:
 * default_walk w = {leaf, 0}; while ((f = next_default_field(&w))) ... */
typedef struct default_walk {
	const spec_bitset *b;
	size_t i;
} default_walk;

static const spec_field *next_default_field(default_walk *w)
{
	for (; w->b; w->b = w->b->parent, w->i = 0) {
		const spec_bitset *b = w->b;
		if (b->ncases && w->i < b->cases[b->ncases - 1].nfields)
			return &b->cases[b->ncases - 1].fields[w->i++];
	}
	return NULL;
}

static Z3_ast sub_dontcare_clear(dsp_run *r, const spec_bitset *leaf, Z3_ast word)
{
	Z3_context c = r->b->ctx;
	terms t = {0};
	default_walk w = {leaf, 0};
	for (const spec_field *f; (f = next_default_field(&w));) {
		const spec_root *sub = whole_sub(r, leaf, f);
		if (!sub)
			continue;
		Z3_ast sw = Z3_mk_extract(c, f->high, f->low, word);
		for (size_t l = 0; l < sub->nleaves; l++) {
			Z3_ast in = semantic_leaf_holds(r->b, sub->leaves[l], sw);
			if (in) {
				Z3_ast either[2] = {Z3_mk_not(c, in), dontcare_clear(r, sub->leaves[l], sw)};
				push(&t, Z3_mk_or(c, 2, either));
			}
		}
	}
	return fold(r, &t, true);
}

/* The asserts of the leaf's default cases hold: words the decoder
 * checks without complaint (witnesses only: a proof needs none). */
static Z3_ast asserts_hold(dsp_run *r, const spec_bitset *leaf, Z3_ast word)
{
	terms t = {0};
	default_walk w = {leaf, 0};
	for (const spec_field *fd; (fd = next_default_field(&w));) {
		if (fd->kind != SPEC_ASSERT || fd->high >= leaf->size)
			continue;
		uint64_t mask[DSP_WORDS] = {0};
		for (unsigned i = fd->low; i <= fd->high; i++)
			mask[i / 64] |= (uint64_t)1 << (i % 64);
		push(&t, Z3_mk_eq(r->b->ctx,
		                  Z3_mk_bvand(r->b->ctx, word, z3_bits_sized(r->b, mask, leaf->size)),
		                  z3_bits_sized(r->b, fd->assert_value.w, leaf->size)));
	}
	return fold(r, &t, true);
}

/* Every enum field and derived value of the leaf's default cases holds
 * a value its enum names, as the decoder reads the name in scope s: a
 * word with an unnamed one decodes with an issue, and the decoder turns
 * it down (witnesses only; a name that cannot be translated is left
 * free). */
static Z3_ast enums_named(dsp_run *r, const z3_scope *s, unsigned depth)
{
	const spec_bitset *leaf = s->leaf;
	Z3_context c = r->b->ctx;
	terms t = {0};
	default_walk w = {leaf, 0};
	for (const spec_field *f; (f = next_default_field(&w));) {
		if (f->kind == SPEC_FIELD && f->type == SPEC_TYPE_BITSET && f->bitset) {
			/* and so do those of its sub-leaf */
			const spec_root *sub = depth < 2 ? whole_sub(r, leaf, f) : NULL;
			if (!sub)
				continue;
			Z3_ast word = Z3_mk_extract(c, f->high, f->low, s->word);
			terms any = {0};
			for (size_t l = 0; l < sub->nleaves; l++) {
				Z3_ast in = semantic_leaf_holds(r->b, sub->leaves[l], word);
				if (!in)
					continue;
				z3_scope inner = {sub->leaves[l], word, f, s, true, NULL, NULL, NULL, NULL};
				push(&any, and3(r, in, enums_named(r, &inner, depth + 1),
				                asserts_hold(r, sub->leaves[l], word)));
			}
			push(&t, fold(r, &any, false));
			continue;
		}
		if (f->kind == SPEC_ASSERT || f->type != SPEC_TYPE_ENUM || !f->enm)
			continue;
		Z3_ast v = z3_name_in(r->b, s, f->name);
		if (v)
			push(&t, enum_named(r, f, v));
	}
	return fold(r, &t, true);
}

static void note_verdict(const dsp_run *r, const spec_bitset *leaf, unsigned char v)
{
	if (r->st->display_verdict && leaf->index < r->m->nbitsets)
		r->st->display_verdict[leaf->index] = v;
}

static void report_unknown(dsp_run *r, const spec_bitset *leaf, unsigned why, spec_diags *diags)
{
	note_verdict(r, leaf, PROVE_DISPLAY_UNKNOWN);
	char text[1024];
	semantic_why_text(why, why_text, sizeof why_text / sizeof *why_text, text, sizeof text);
	r->st->display_unknown++;
	spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", leaf->loc,
	              "whether the text of '%s' determines its word is unknown (%s)", leaf->name, text);
}

static bool prints_custom(const spec_model *m, const spec_bitset *leaf, unsigned depth);

/* Whether the decoder prints words a and bw of leaf alike and decodes
 * them to different values; reported if so. */
static bool confirmed(dsp_run *r, const spec_root *root, const spec_bitset *leaf,
                      const prove_text_ops *ops, const uint64_t *a, const uint64_t *bw,
                      uint32_t gen, const char *found_by, spec_diags *diags)
{
	/* Mesa's text: a custom field is the caller's, whose text the
	 * decoder's lacks, so the decoder cannot bear a pair out (with
	 * afuc-disasm's, the formulas give such a field's text exactly) */
	if (!r->afuc && prints_custom(r->m, leaf, 0))
		return false;
	char t1[2048], t2[2048];
	const spec_bitset *l1 = NULL, *l2 = NULL;
	uint64_t d1 = 0, d2 = 0;
	if (!ops->decode(ops->ctx, root, a, gen, &l1, t1, sizeof t1, &d1) ||
	    !ops->decode(ops->ctx, root, bw, gen, &l2, t2, sizeof t2, &d2) || l1 != leaf ||
	    l2 != leaf || strcmp(t1, t2) || d1 == d2)
		return false;
	char h1[SPEC_MAX_BITS / 4u + DSP_WORDS + 8u], h2[sizeof h1];
	prove_format_hex(a, root->bitset->size, h1, sizeof h1);
	prove_format_hex(bw, root->bitset->size, h2, sizeof h2);
	char differ[512] = "";
	if (ops->differ)
		ops->differ(ops->ctx, root, a, bw, gen, differ, sizeof differ);
	r->st->display_findings++;
	note_verdict(r, leaf, PROVE_DISPLAY_SAME_TEXT);
	spec_diag_add(diags, SPEC_WARNING, "display-same-text", leaf->loc,
	              "the text of '%s' does not determine its word: %s and %s (gen %" PRIu32
	              ") decode to different values%s%s%s and both print \"%s\" (found by %s, "
	              "confirmed by the decoder)",
	              leaf->name, h1, h2, gen, differ[0] ? " (" : "", differ, differ[0] ? ")" : "",
	              t1, found_by);
	return true;
}

/* Words of a leaf sampled, each beside every neighbour one bit away
 * (outside the pattern and the don't-care bits), for a pair the decoder
 * prints alike and decodes differently: where Z3 settled nothing, a
 * pair found so is as much a fact as Z3's (confirmed the same way);
 * none found leaves the leaf unknown.  The samples come from the leaf's
 * index, so the report does not depend on the threads. */
#define DSP_SAMPLES 64u

static uint64_t dsp_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Whether a field of leaf's chain, or of a bitset some field decodes
 * through (depth levels down), has a type printed by the caller
 * (custom): there the decoder's text is not the whole text, so two
 * words it prints alike may not print alike in Mesa. */
static bool prints_custom(const spec_model *m, const spec_bitset *leaf, unsigned depth)
{
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++)
			for (size_t f = 0; f < b->cases[c].nfields; f++) {
				const spec_field *fd = &b->cases[c].fields[f];
				if (fd->type == SPEC_TYPE_CUSTOM || fd->type == SPEC_TYPE_UNKNOWN)
					return true;
				if (fd->type != SPEC_TYPE_BITSET || !fd->bitset)
					continue;
				const spec_root *sub = root_of(m, fd->bitset);
				if (!sub || depth >= DSP_MAX_DEPTH)
					return true;
				for (size_t l = 0; l < sub->nleaves; l++)
					if (prints_custom(m, sub->leaves[l], depth + 1))
						return true;
			}
	return false;
}

static bool sample_pair(dsp_run *r, const spec_root *root, const spec_bitset *leaf,
                        const prove_text_ops *ops, spec_diags *diags)
{
	unsigned size = root->bitset->size, nw = (size + 63) / 64;
	if (!size || nw > DSP_WORDS || prints_custom(r->m, leaf, 0))
		return false;
	uint64_t fixed[DSP_WORDS] = {0}, value[DSP_WORDS] = {0}, top[DSP_WORDS];
	for (unsigned i = 0; i < nw; i++) {
		fixed[i] = (i < leaf->mask.nwords ? leaf->mask.w[i] : 0) |
		           (i < leaf->dontcare.nwords ? leaf->dontcare.w[i] : 0);
		value[i] = i < leaf->match.nwords ? leaf->match.w[i] : 0;
		top[i] = i + 1 < nw || size % 64 == 0 ? ~0ull : (1ull << (size % 64)) - 1;
	}
	uint32_t gen = leaf->gen.min;
	uint64_t seed = (uint64_t)leaf->index * 0x2545f4914f6cdd1dull + 1;
	char t1[2048], t2[2048];
	for (unsigned s = 0; s < DSP_SAMPLES && !r->oom; s++) {
		uint64_t w[DSP_WORDS] = {0}, w2[DSP_WORDS];
		for (unsigned i = 0; i < nw; i++)
			w[i] = ((dsp_splitmix(&seed) & ~fixed[i]) | (value[i] & fixed[i])) & top[i];
		const spec_bitset *l1 = NULL, *l2 = NULL;
		uint64_t d1 = 0, d2 = 0;
		if (!ops->decode(ops->ctx, root, w, gen, &l1, t1, sizeof t1, &d1) || l1 != leaf)
			continue;
		for (unsigned bit = 0; bit < size; bit++) {
			if (fixed[bit / 64] >> (bit % 64) & 1)
				continue;
			memcpy(w2, w, nw * sizeof *w);
			w2[bit / 64] ^= 1ull << (bit % 64);
			if (ops->decode(ops->ctx, root, w2, gen, &l2, t2, sizeof t2, &d2) && l2 == leaf &&
			    d2 != d1 && !strcmp(t1, t2) &&
			    confirmed(r, root, leaf, ops, w, w2, gen, "sampling one-bit neighbours", diags))
				return true;
		}
	}
	return false;
}

/* ------------------------------------------------- one concrete text
 *
 * With the first word fixed, its text t is known, and "the second word
 * prints t" can be stated exactly where "two words print alike" could
 * not: every way of cutting t into a display's parts is tried (a
 * literal where it stands, a field over any stretch of the bytes its
 * type can print), and each stretch is what the field prints only for
 * the values that print it (a number parsed back, an enum's values with
 * that name, a sub-bitset's leaves that print it, the same question a
 * level down).  What cannot be stated (a float, a caller's custom
 * field, a name not translated) is left free: the formula only
 * over-approximates "prints t", so no word satisfying it is a proof and
 * a word it offers is a witness only once the decoder confirms it. */

static bool is_false(dsp_run *r, Z3_ast x) { return Z3_is_eq_ast(r->b->ctx, x, z_false(r)); }

/* t[0..n) as "%" PRIu64 prints it (no sign, no leading zero). */
static bool parse_decimal(const char *t, size_t n, uint64_t *v)
{
	if (!n || n > 20 || (t[0] == '0' && n > 1))
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i] < '0' || t[i] > '9')
			return false;
		unsigned d = (unsigned)(t[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* t[0..n) as "%" PRId64 prints it (a '-' only before a nonzero
 * magnitude), as the bits of the int64 it reads as. */
static bool parse_signed(const char *t, size_t n, uint64_t *v)
{
	bool neg = n && t[0] == '-';
	uint64_t mag;
	if (!parse_decimal(t + neg, n - neg, &mag))
		return false;
	if (neg ? mag == 0 || mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return false;
	*v = neg ? 0 - mag : mag;
	return true;
}

/* t[0..n) as "%" PRIx64 prints it (lower case, no leading zero). */
static bool parse_hex(const char *t, size_t n, uint64_t *v)
{
	if (!n || n > 16 || (t[0] == '0' && n > 1))
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d;
		if (t[i] >= '0' && t[i] <= '9')
			d = (unsigned)(t[i] - '0');
		else if (t[i] >= 'a' && t[i] <= 'f')
			d = (unsigned)(t[i] - 'a' + 10);
		else
			return false;
		x = x << 4 | d;
	}
	*v = x;
	return true;
}

static Z3_ast bv_is(dsp_run *r, Z3_ast v, unsigned w, uint64_t x)
{
	Z3_context c = r->b->ctx;
	if (w < 64)
		x &= ((uint64_t)1 << w) - 1;
	return Z3_mk_eq(c, low_bits(r, v, w), Z3_mk_unsigned_int64(c, x, Z3_mk_bv_sort(c, w)));
}

/* The float of half (IEEE binary16) or single bits x, as the decoder
 * reads a float field of width 16 or otherwise 32. */
static double float_of(uint32_t x, bool half)
{
	if (!half) {
		float f;
		memcpy(&f, &x, sizeof f);
		return f;
	}
	unsigned e = (x >> 10) & 0x1f, m = x & 0x3ff;
	double v = e == 31 ? (m ? NAN : INFINITY)
	           : e == 0 ? ldexp((double)m, -24)
	                    : ldexp((double)(1024 + m), (int)e - 25);
	return (x >> 15) & 1 ? -v : v;
}

/* The magnitudes (bits without the sign) of a float field that print
 * t[0..n) (without its '-') with "%f": [*lo, *hi], an empty range when
 * none does.  Finite magnitudes print in the order of their bits, so
 * the range is found by bisection. */
static bool float_range(const char *t, size_t n, bool half, uint32_t *lo, uint32_t *hi)
{
	uint32_t inf = half ? 0x7c00u : 0x7f800000u, top = half ? 0x7fffu : 0x7fffffffu;
	if (n == 3 && !memcmp(t, "inf", 3)) {
		*lo = *hi = inf;
		return true;
	}
	if (n == 3 && !memcmp(t, "nan", 3)) {
		*lo = inf + 1;
		*hi = top;
		return true;
	}
	char want[400], got[400];
	if (n >= sizeof want || n < 8 || t[n - 7] != '.')
		return false;
	memcpy(want, t, n);
	want[n] = '\0';
	double x = strtod(want, NULL);
	/* first magnitude printing a number >= x, last printing one <= x */
	uint32_t a = 0, b = inf; /* [a, b) */
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		snprintf(got, sizeof got, "%f", float_of(mid, half));
		if (strtod(got, NULL) >= x)
			b = mid;
		else
			a = mid + 1;
	}
	uint32_t first = a;
	a = 0;
	b = inf;
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;
		snprintf(got, sizeof got, "%f", float_of(mid, half));
		if (strtod(got, NULL) > x)
			b = mid;
		else
			a = mid + 1;
	}
	if (first >= a)
		return false;
	/* both ends print the very text (a number of another form, e.g.
	 * "0.50000" against "0.500000", prints no value) */
	snprintf(got, sizeof got, "%f", float_of(first, half));
	if (strcmp(got, want))
		return false;
	snprintf(got, sizeof got, "%f", float_of(a - 1, half));
	if (strcmp(got, want))
		return false;
	*lo = first;
	*hi = a - 1;
	return true;
}

static Z3_ast text_is_leaf(dsp_run *r, const dsp_ctx *ctx, const z3_scope *s, const char *t,
                           size_t i, size_t j, unsigned depth);

/* Sub-word u of root (field via of scope o, context outer) prints
 * t[i..j): one of the root's leaves matches it alone and prints it. */
static Z3_ast text_is_root(dsp_run *r, const spec_field *via, const dsp_ctx *outer,
                           const z3_scope *o, Z3_ast u, const char *t, size_t i, size_t j,
                           unsigned depth)
{
	const spec_root *root = root_of(r->m, via->bitset);
	if (!root)
		return z_true(r);
	if (depth >= DSP_MAX_DEPTH) {
		r->why |= WHY_DEPTH;
		return z_true(r);
	}
	terms any = {0};
	for (size_t a = 0; a < root->nleaves && !r->oom; a++) {
		z3_scope n = {root->leaves[a], u, via, o, true, z3_memo_new(), NULL, NULL, NULL};
		dsp_ctx inner = {.leaf = root->leaves[a], .via = via, .outer = outer};
		Z3_ast is = text_is_leaf(r, &inner, &n, t, i, j, depth + 1);
		if (!is_false(r, is))
			push(&any, and2(r, match_exclusive(r, root, a, u), is));
		z3_memo_free(n.memo);
	}
	return fold(r, &any, false);
}

/* {op}, printed through definition f (living in where) with value v,
 * prints t[i..e) in scope s (context ctx). */
static Z3_ast part_is_as(dsp_run *r, const dsp_ctx *ctx, const dsp_op *op, const spec_field *f,
                         const dsp_ctx *where, Z3_ast v, const z3_scope *s, const char *t,
                         size_t i, size_t e, unsigned depth)
{
	Z3_context c = r->b->ctx;
	const char *p = t + i;
	size_t n = e - i;
	unsigned w = width_of(f);
	if (w > 64)
		w = 64;
	uint64_t x;
	custom_kind ck = f->type == SPEC_TYPE_CUSTOM ? custom_print(ctx, op) : CUSTOM_CALLER;
	if (f->type == SPEC_TYPE_CUSTOM) {
		if (ck == CUSTOM_NOTHING)
			return n ? z_false(r) : z_true(r);
		if (ck == CUSTOM_CALLER) {
			r->why |= WHY_TYPE;
			return z_true(r);
		}
		/* 0x%03x of the low 32 bits */
		char buf[16];
		if (n < 5 || memcmp(p, "0x", 2) || !parse_hex(p + 2, n - 2, &x) || x > UINT32_MAX)
			return z_false(r);
		snprintf(buf, sizeof buf, "0x%03x", (unsigned)x);
		if (strlen(buf) != n || memcmp(buf, p, n))
			return z_false(r);
		return bv_is(r, v, 32, x);
	}
	if (listed_type(f)) {
		/* listed: the values that print it, one by one */
		char sub[4096];
		if (n >= sizeof sub)
			return z_false(r);
		memcpy(sub, p, n);
		sub[n] = '\0';
		return prints_as(r, f, v, sub);
	}
	switch (f->type) {
	case SPEC_TYPE_UINT: /* printed whole */
		return parse_decimal(p, n, &x) ? bv_is(r, v, 64, x) : z_false(r);
	case SPEC_TYPE_HEX:
		return parse_hex(p, n, &x) ? bv_is(r, v, 64, x) : z_false(r);
	case SPEC_TYPE_UOFFSET:
		if (!n)
			return bv_is(r, v, 64, 0);
		return p[0] == '+' && parse_decimal(p + 1, n - 1, &x) && x ? bv_is(r, v, 64, x)
		                                                          : z_false(r);
	case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH:
		if (n && p[0] != '-' && (p[0] < '0' || p[0] > '9'))
			return z_true(r); /* a label: left free */
		/* fall through */
	case SPEC_TYPE_INT: /* the low bits, sign-extended */
		return parse_signed(p, n, &x) ? bv_is(r, v, w, x) : z_false(r);
	case SPEC_TYPE_OFFSET:
		if (!n)
			return bv_is(r, v, w, 0);
		return (p[0] == '+' || p[0] == '-') && parse_signed(p + (p[0] == '+'), n - (p[0] == '+'), &x) && x
		               ? bv_is(r, v, w, x)
		               : z_false(r);
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV: {
		Z3_ast set = nonzero(r, v, 64);
		if (f->type == SPEC_TYPE_BOOL_INV)
			set = Z3_mk_not(c, set);
		if (f->display) {
			size_t dl = strlen(f->display);
			if (dl && dl == n && !memcmp(p, f->display, n))
				return set;
			return n ? z_false(r) : dl ? Z3_mk_not(c, set) : z_true(r);
		}
		if (!parse_decimal(p, n, &x))
			return z_false(r);
		if (f->type == SPEC_TYPE_BOOL)
			return x <= UINT32_MAX ? bv_is(r, v, 32, x) : z_false(r);
		return x == 1 ? Z3_mk_not(c, nonzero(r, v, 64)) : x == 0 ? nonzero(r, v, 64) : z_false(r);
	}
	case SPEC_TYPE_ENUM: {
		terms any = {0};
		Z3_sort s64 = Z3_mk_bv_sort(c, 64);
		for (size_t k = 0; f->enm && k < f->enm->nvalues; k++) {
			const char *d = f->enm->values[k].display;
			if (d && strlen(d) == n && !memcmp(d, p, n))
				push(&any, Z3_mk_eq(c, v, Z3_mk_unsigned_int64(c, (uint64_t)f->enm->values[k].val,
				                                               s64)));
		}
		/* a value without a name: the decimal of its low 32 bits */
		if (parse_decimal(p, n, &x) && x <= UINT32_MAX)
			push(&any, bv_is(r, v, 32, x));
		return fold(r, &any, false);
	}
	case SPEC_TYPE_BITSET:
		if (f->kind != SPEC_FIELD || !f->bitset) {
			r->why |= WHY_NAME;
			return z_true(r);
		}
		if (f->bitset->size > 64) {
			r->why |= WHY_WIDE;
			return z_true(r);
		}
		return text_is_root(r, f, where, s, low_bits(r, v, f->bitset->size), t, i, e, depth);
	case SPEC_TYPE_FLOAT: {
		/* "%f" of the float of the low 16 bits (a 16-bit field) or 32:
		 * the sign, and the magnitudes that print the rest */
		bool half = w == 16, neg = n && p[0] == '-';
		unsigned bits = half ? 16 : 32;
		uint32_t lo, hi;
		if (!float_range(p + neg, n - neg, half, &lo, &hi))
			return z_false(r);
		Z3_sort ms = Z3_mk_bv_sort(c, bits - 1);
		Z3_ast mag = Z3_mk_extract(c, bits - 2, 0, v);
		Z3_ast parts[3] = {
			Z3_mk_eq(c, Z3_mk_extract(c, bits - 1, bits - 1, v),
			         Z3_mk_unsigned_int64(c, neg, Z3_mk_bv_sort(c, 1))),
			Z3_mk_bvuge(c, mag, Z3_mk_unsigned_int64(c, lo, ms)),
			Z3_mk_bvule(c, mag, Z3_mk_unsigned_int64(c, hi, ms))};
		return Z3_mk_and(c, 3, parts);
	}
	default:
		r->why |= WHY_TYPE;
		return z_true(r);
	}
}

/* The definition a name printed in display case ctx->shown[0] is read
 * through, when that is sure: the case itself (which holds, as the
 * decoder prints with it) or a default case, with no case before it that
 * may hold and define the name too; the display's own derived values
 * (etnaviv's immediates) are so.  NULL otherwise. */
static const spec_field *shown_definition(const dsp_ctx *ctx, const dsp_op *op)
{
	if (ctx->nshown != 1)
		return NULL;
	for (const spec_bitset *b = ctx->leaf; b; b = b->parent)
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_field *fd = case_field(&b->cases[c], op->text, op->len);
			int h = fd ? holds_with(ctx->leaf, ctx->shown[0], &b->cases[c]) : 0;
			if (h == 1 && (fd->kind == SPEC_FIELD || fd->expr))
				return fd;
			if (h)
				return NULL;
		}
	return NULL;
}

/* {op} prints t[i..e) in scope s (context ctx): through the one
 * definition it resolves to, or, where its cases define it differently,
 * through one of those (which one is left free: a looser claim). */
static Z3_ast part_is(dsp_run *r, const dsp_ctx *ctx, const dsp_op *op, const z3_scope *s,
                      const char *t, size_t i, size_t e, unsigned depth)
{
	const dsp_ctx *where;
	const spec_field *f = resolve(ctx, op->text, op->len, &where);
	if (!f && defined_nowhere(ctx, op->text, op->len))
		return e > i ? z_false(r) : z_true(r);
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)(op->len < 255 ? op->len : 255), op->text);
	/* a plain field's bits, where Mesa's expression cache leaves the
	 * general translation without a term; or the definition of the
	 * display case being printed */
	Z3_ast v = z3_name_in(r->b, s, name);
	if (!v)
		v = z3_plain_name_in(r->b, s, name);
	const spec_field *shown = v ? NULL : shown_definition(ctx, op);
	if (shown && shown->kind == SPEC_DERIVED) {
		v = z3_plain_expr_in(r->b, s, shown->expr);
	} else if (shown && shown->high < ctx->leaf->size && shown->high - shown->low < 64) {
		unsigned bits = shown->high - shown->low + 1;
		v = Z3_mk_extract(r->b->ctx, shown->high, shown->low, s->word);
		if (bits < 64)
			v = Z3_mk_zero_ext(r->b->ctx, 64 - bits, v);
	}
	if (shown && v) {
		f = shown;
		where = ctx;
	}
	if (!v) {
		r->why |= WHY_NAME;
		return z_true(r);
	}
	if (f)
		return part_is_as(r, ctx, op, f, where, v, s, t, i, e, depth);
	terms any = {0};
	for (const spec_bitset *b = ctx->leaf; b; b = b->parent)
		for (size_t k = 0; k < b->ncases; k++) {
			const spec_field *fd = case_field(&b->cases[k], op->text, op->len);
			if (fd)
				push(&any, part_is_as(r, ctx, op, fd, ctx, v, s, t, i, e, depth));
		}
	const spec_field *pf = resolve_param(ctx, op->text, op->len, &where);
	if (pf)
		push(&any, part_is_as(r, ctx, op, pf, where, v, s, t, i, e, depth));
	else if (ctx->via && ctx->outer)
		for (size_t k = 0; k < ctx->via->nparams; k++) {
			const spec_param *pa = &ctx->via->params[k];
			if (name_is(pa->as ? pa->as : pa->name, op->text, op->len)) {
				/* a param whose own definitions differ: not followed */
				r->why |= WHY_NAME;
				free(any.v);
				return z_true(r);
			}
		}
	return fold(r, &any, false);
}

/* One cutting of t[i..j) into the parts of a display. */
typedef struct cut {
	const dsp_op *ops;
	size_t nops;
	lang *langs; /* a field's bytes, per op (others unused) */
	Z3_ast *memo; /* per (op, position): NULL not yet asked */
	const dsp_ctx *ctx;
	const z3_scope *s;
	const char *t;
	size_t i, j;
	unsigned depth;
} cut;

/* ops[q..] print t[at..j). */
static Z3_ast cut_from(dsp_run *r, cut *k, size_t q, size_t at)
{
	if (q == k->nops)
		return at == k->j ? z_true(r) : z_false(r);
	Z3_ast *slot = &k->memo[q * (k->j - k->i + 1) + (at - k->i)];
	if (*slot)
		return *slot;
	const dsp_op *op = &k->ops[q];
	const char *t = k->t;
	Z3_ast out = z_false(r);
	if (op->kind == OP_LIT || op->kind == OP_NAME) {
		const char *lit = op->kind == OP_LIT ? op->text : spec_display_name(k->ctx->leaf);
		size_t len = op->kind == OP_LIT ? op->len : strlen(lit);
		if (at + len <= k->j && !memcmp(t + at, lit, len))
			out = cut_from(r, k, q + 1, at + len);
	} else if (op->kind == OP_ALIGN) {
		/* spaces up to a column: any number of them (a looser claim) */
		terms any = {0};
		for (size_t e = at;; e++) {
			Z3_ast rest = cut_from(r, k, q + 1, e);
			if (!is_false(r, rest))
				push(&any, rest);
			if (e == k->j || t[e] != ' ')
				break;
		}
		out = fold(r, &any, false);
	} else {
		const lang *L = &k->langs[q];
		terms any = {0};
		for (size_t e = at; e <= k->j && !r->oom; e++) {
			/* t[at..e) must be bytes the part can print */
			if (e > at) {
				unsigned char ch = (unsigned char)t[e - 1];
				if (!cs_has(&L->alpha, ch) || (e == at + 1 && !cs_has(&L->first, ch)))
					break;
			} else if (!L->nullable) {
				continue;
			}
			Z3_ast rest = cut_from(r, k, q + 1, e);
			if (is_false(r, rest))
				continue;
			Z3_ast part = part_is(r, k->ctx, op, k->s, t, at, e, k->depth);
			if (!is_false(r, part))
				push(&any, and2(r, part, rest));
		}
		out = fold(r, &any, false);
	}
	return *slot = out;
}

/* Display d prints t[i..j) in scope s (context ctx). */
static Z3_ast display_is(dsp_run *r, const dsp_ctx *ctx, const char *d, const z3_scope *s,
                         const char *t, size_t i, size_t j, unsigned depth)
{
	cut k = {.ctx = ctx, .s = s, .t = t, .i = i, .j = j, .depth = depth};
	dsp_op *ops = parse_ops(d, &k.nops);
	k.ops = ops;
	k.langs = ops ? calloc(k.nops ? k.nops : 1, sizeof *k.langs) : NULL;
	k.memo = k.langs ? calloc((k.nops + 1) * (j - i + 1), sizeof *k.memo) : NULL;
	if (!k.memo) {
		free(ops);
		free(k.langs);
		r->oom = true;
		return z_true(r);
	}
	for (size_t q = 0; q < k.nops; q++)
		if (ops[q].kind == OP_FIELD)
			lang_of_name(&ops[q], ctx, depth, &k.langs[q], NULL);
	Z3_ast out = cut_from(r, &k, 0, i);
	for (size_t q = 0; q < k.nops; q++)
		lang_free(&k.langs[q]);
	free(k.langs);
	free(k.memo);
	free(ops);
	return out;
}

/* The leaf of ctx prints t[i..j) in scope s: with the display the
 * decoder selects (any of them, where the selection is not
 * translated). */
static Z3_ast text_is_leaf(dsp_run *r, const dsp_ctx *ctx, const z3_scope *s, const char *t,
                           size_t i, size_t j, unsigned depth)
{
	const spec_case *cs[DSP_MAX_DISPLAYS];
	size_t nd = leaf_displays(ctx->leaf, cs, DSP_MAX_DISPLAYS);
	if (nd == 0 || nd > DSP_MAX_DISPLAYS) {
		r->why |= nd ? WHY_CROSS : WHY_DISPLAY;
		return z_true(r);
	}
	terms any = {0};
	for (size_t k = 0; k < nd && !r->oom; k++) {
		dsp_ctx shown = with_shown(ctx, cs[k], cs[k]);
		Z3_ast is = display_is(r, &shown, cs[k]->display, s, t, i, j, depth);
		if (is_false(r, is))
			continue;
		Z3_ast sel = selects(r, s, cs, k);
		if (!sel)
			r->why |= WHY_NAME;
		push(&any, sel ? and2(r, sel, is) : is);
	}
	return fold(r, &any, false);
}

/* One leaf of root (top level). */
static void prove_leaf(dsp_run *r, const spec_root *root, size_t l, const prove_text_ops *ops,
                       Z3_ast w2, spec_diags *diags)
{
	z3_base *b = r->b;
	Z3_context c = b->ctx;
	const spec_bitset *leaf = root->leaves[l];
	r->why = 0;
	r->st->displays++;
	Z3_ast clean1 = match_exclusive(r, root, l, b->w), clean2 = match_exclusive(r, root, l, w2);
	z3_scope s1 = {leaf, b->w, NULL, NULL, true, z3_memo_new(), NULL, NULL, NULL};
	z3_scope s2 = {leaf, w2, NULL, NULL, true, z3_memo_new(), NULL, NULL, NULL};
	dsp_ctx ctx = {.leaf = leaf, .afuc = r->afuc, .memo = &r->memo};
	tq eq;
	Z3_ast own = NULL; /* fix_text: the first word prints it, as the formulas say */
	if (r->fix_text) {
		size_t tl = strlen(r->fix_text);
		eq.over = eq.under = text_is_leaf(r, &ctx, &s2, r->fix_text, 0, tl, 0);
		own = text_is_leaf(r, &ctx, &s1, r->fix_text, 0, tl, 0);
	} else {
		eq = text_equal_leaf(r, &ctx, &s1, &s2, 0);
	}
	Z3_ast differ = words_differ_leaf(r, &ctx, &s1, &s2, 0);
	Z3_ast base = and3(r, clean1, clean2, differ);
	Z3_ast fixed = z_true(r);
	if (r->fix)
		fixed = and2(r, Z3_mk_eq(c, b->w, z3_bits_sized(b, r->fix, b->size)),
		             Z3_mk_eq(c, b->g, Z3_mk_int64(c, r->fix_gen, b->gen_sort)));
	base = and2(r, base, fixed);
	Z3_ast over = and2(r, base, eq.over);
	/* what a witness must also be: asserts held, don't-care bits clear */
	Z3_ast canon = and3(r, and2(r, asserts_hold(r, leaf, b->w), asserts_hold(r, leaf, w2)),
	                    and2(r, dontcare_clear(r, leaf, b->w), dontcare_clear(r, leaf, w2)),
	                    and2(r, sub_dontcare_clear(r, leaf, b->w), sub_dontcare_clear(r, leaf, w2)));
	Z3_ast under = and3(r, base, eq.under, canon);
	/* once the decoder has turned a pair down: only pairs whose enum
	 * values are named and whose sub-leaves' asserts hold (what the
	 * decoder turns down most; left out before, as it makes the query
	 * harder) */
	Z3_ast strict = and2(r, under, and2(r, enums_named(r, &s1, 0), enums_named(r, &s2, 0)));
	z3_memo_free(s1.memo);
	z3_memo_free(s2.memo);
	uint64_t a[DSP_WORDS], bw[DSP_WORDS];
	uint32_t gen = 0;
	if (own && !r->oom) {
		/* a formula that does not let the first word print its own text
		 * would prove anything: then nothing is said */
		z3_answer self = ask_pair(r, and3(r, fixed, clean1, own), w2, a, bw, &gen);
		if (self != Z3_ANSWER_YES) {
			report_unknown(r, leaf, r->why | (self == Z3_ANSWER_NO ? WHY_LINE : WHY_SOLVER),
			               diags);
			return;
		}
	}
	if ((r->why & WHY_NAME) && !r->fix_text) {
		/* Names Mesa's expression cache decides have no exact term, so
		 * the exact formulas offer no witnesses: ask for them through a
		 * lenient translation instead (the decoder confirms any pair, so
		 * a finding stays a fact; the proof keeps the exact formula) */
		unsigned why = r->why;
		b->lenient = true;
		z3_scope l1 = {leaf, b->w, NULL, NULL, true, z3_memo_new(), NULL, NULL, NULL};
		z3_scope l2 = {leaf, w2, NULL, NULL, true, z3_memo_new(), NULL, NULL, NULL};
		tq leq = text_equal_leaf(r, &ctx, &l1, &l2, 0);
		Z3_ast lbase = and3(r, and2(r, clean1, fixed), clean2,
		                    words_differ_leaf(r, &ctx, &l1, &l2, 0));
		under = and3(r, lbase, leq.under, canon);
		strict = and2(r, under, and2(r, enums_named(r, &l1, 0), enums_named(r, &l2, 0)));
		z3_memo_free(l1.memo);
		z3_memo_free(l2.memo);
		b->lenient = false;
		r->why = why;
	}
	z3_answer ans = r->oom ? Z3_ANSWER_UNKNOWN : ask_pair(r, over, w2, a, bw, &gen);
	if (ans == Z3_ANSWER_NO) {
		r->st->display_invertible++;
		note_verdict(r, leaf, PROVE_DISPLAY_PROVED);
		return;
	}
	if (ans == Z3_ANSWER_UNKNOWN)
		r->why |= WHY_SOLVER;
	/* the pair the over-approximation found may be real; if not, ask
	 * the under-approximation, a few pairs at most (one when Z3 already
	 * gave up on the first question) */
	bool have = ans == Z3_ANSWER_YES;
	unsigned most = ans == Z3_ANSWER_UNKNOWN ? 0 : DSP_TRIES;
	terms blocked = {0};
	for (unsigned tries = 0; tries <= most && !r->oom; tries++) {
		if (!have) {
			Z3_ast u = tries ? strict : under;
			Z3_ast q = blocked.n ? and2(r, u, Z3_mk_and(c, blocked.n, blocked.v)) : u;
			ans = ask_pair(r, q, w2, a, bw, &gen);
			if (ans != Z3_ANSWER_YES) {
				if (ans == Z3_ANSWER_UNKNOWN)
					r->why |= WHY_SOLVER;
				break;
			}
		}
		have = false;
		if (confirmed(r, root, leaf, ops, a, bw, gen, "Z3", diags)) {
			free(blocked.v);
			return;
		}
		if (tries)
			r->why |= WHY_DECODER;
		/* not this pair again */
		Z3_ast eqs[2] = {Z3_mk_eq(c, b->w, z3_bits_sized(b, a, b->size)),
		                 Z3_mk_eq(c, w2, z3_bits_sized(b, bw, b->size))};
		push(&blocked, Z3_mk_not(c, Z3_mk_and(c, 2, eqs)));
	}
	free(blocked.v);
	/* sampling is of the leaf's words, not of one word's: not for fix */
	if (r->fix || !sample_pair(r, root, leaf, ops, diags))
		report_unknown(r, leaf, r->why, diags);
}

typedef struct dsp_args {
	const spec_model *m;
	const prove_text_ops *ops;
	bool afuc;
} dsp_args;

/* One leaf of root, in its own context (semantic_each_leaf). */
static void dsp_leaf(void *arg, z3_base *b, const spec_root *root, size_t l, bool spent,
                     semantic_stats *st, spec_diags *d)
{
	const dsp_args *args = arg;
	dsp_run r = {.m = args->m, .b = b, .st = st, .afuc = args->afuc};
	if (spent) {
		/* the file's time is spent: not asked */
		st->displays++;
		report_unknown(&r, root->leaves[l], WHY_TIME, d);
		return;
	}
	Z3_ast w2 = Z3_mk_const(b->ctx, Z3_mk_string_symbol(b->ctx, "w2"), b->word_sort);
	prove_leaf(&r, root, l, args->ops, w2, d);
	lang_memo_free(&r.memo);
}

bool prove_displays(const spec_model *m, const prove_options *opt, spec_diags *diags,
                    semantic_stats *st)
{
	const prove_text_ops *ops = opt->text;
	if (!ops || !ops->decode)
		return true;
	bool ok = true;
	prove_options o = *opt;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double until = (double)now.tv_sec + now.tv_nsec / 1e9 + DSP_BUDGET_S;
	if (!o.deadline_ || o.deadline_ > until)
		o.deadline_ = until;
	if (!o.timeout_ms || o.timeout_ms > DSP_QUERY_MS)
		o.timeout_ms = DSP_QUERY_MS;
	bool *top = semantic_top_roots(m);
	if (!top) {
		spec_diag_add(diags, SPEC_FATAL, "out-of-memory", (spec_loc){m->path, 0, 0},
		              "out of memory for the display proofs");
		return false;
	}
	dsp_args args = {m, ops, opt->printer == PROVE_PRINTER_AFUC};
	for (size_t ri = 0; ok && ri < m->nroots; ri++)
		if (top[ri])
			ok = semantic_each_leaf(&m->roots[ri], &o, dsp_leaf, &args, diags, st);
	free(top);
	return ok;
}

int prove_display_word(const spec_model *m, const prove_options *opt, const spec_root *root,
                       const uint64_t *w, uint32_t gen, const char *text_of_w,
                       spec_diags *diags)
{
	const prove_text_ops *ops = opt->text;
	const spec_bitset *leaf = NULL;
	char text[16];
	uint64_t digest;
	if (!ops || !ops->decode || !ops->decode(ops->ctx, root, w, gen, &leaf, text, sizeof text,
	                                         &digest))
		return PROVE_DISPLAY_NOT_ASKED;
	size_t l = 0;
	while (l < root->nleaves && root->leaves[l] != leaf)
		l++;
	if (l == root->nleaves)
		return PROVE_DISPLAY_NOT_ASKED;
	prove_options o = *opt;
	if (!o.timeout_ms || o.timeout_ms > DSP_QUERY_MS)
		o.timeout_ms = DSP_QUERY_MS;
	z3_start_run(&o);
	z3_base b;
	if (!z3_base_init_with(&b, opt->solver, root->bitset->size, &o)) {
		z3_cannot_start(diags, root->bitset->loc);
		return PROVE_DISPLAY_UNKNOWN;
	}
	semantic_stats st = {0};
	dsp_run r = {.m = m, .b = &b, .st = &st, .fix = w, .fix_gen = gen, .fix_text = text_of_w,
	             .afuc = opt->printer == PROVE_PRINTER_AFUC};
	Z3_ast w2 = Z3_mk_const(b.ctx, Z3_mk_string_symbol(b.ctx, "w2"), b.word_sort);
	prove_leaf(&r, root, l, ops, w2, diags);
	lang_memo_free(&r.memo);
	z3_base_free(&b);
	return st.display_invertible ? PROVE_DISPLAY_PROVED
	       : st.display_findings ? PROVE_DISPLAY_SAME_TEXT
	                             : PROVE_DISPLAY_UNKNOWN;
}
