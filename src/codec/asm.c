/*
 * asm.c - text to words, by parsing against the spec's own display
 * templates: no per-ISA grammar.
 *
 * For each leaf that can live at the generation, each display it can use
 * is split into literal text and {references}; the text is matched
 * against it with backtracking, each reference reading what its field's
 * type can print (a number, an enum's display, a bool's display or
 * nothing, a sub-instruction for a bitset-typed field, parsed the same
 * way against that root).  A complete match gives field values; they are
 * encoded (pattern bits, asserts, values; unprinted fields 0) and the
 * words are disassembled again: only an encoding that prints exactly the
 * given text is accepted.  So the assembler never guesses; it may find
 * no encoding (text it cannot invert) or several (an ambiguous display).
 */
#include "internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ASM_MAX_PARTS    96
#define ASM_MAX_ASSIGN   96
#define ASM_MAX_EXT      8
#define ASM_MAX_SUBSOLS  8
#define ASM_MAX_CANDS    64
#define ASM_MAX_DEPTH    6
#define ASM_WORK_LIMIT   2000000u  /* steps per line, against pathological templates */

typedef struct part {
	const char *lit;   /* literal text (not NUL-terminated), or NULL for a reference */
	size_t len;
	char name[64];     /* reference */
	bool align;        /* {X:align=N}: spaces may precede */
} part;

/* A value for a name the sub-instruction reads through a <param>. */
typedef struct ext {
	const char *name;  /* the param's name in the enclosing scope */
	uint64_t bits;
} ext;

typedef struct subsol {
	uint64_t bits;
	ext ex[ASM_MAX_EXT];
	unsigned nex;
} subsol;

typedef struct assign {
	const spec_field *f;
	uint64_t bits;
} assign;

typedef struct asm_run {
	const codec *c;
	uint32_t gen;
	unsigned *work;
	bool over_limit;
	/* top level */
	const char *line;
	uint64_t *result;  /* words of the first verified encoding */
	size_t found;      /* distinct verified encodings */
	uint64_t first[SPEC_MAX_BITS / 64];
	unsigned rootsize;
} asm_run;

typedef struct frame {
	asm_run *run;
	const spec_bitset *leaf;
	const spec_case *dcase;     /* the case whose display is being matched */
	const spec_param *params;   /* refs the sub-instruction reads from outside */
	size_t nparams;
	const spec_bitset *outer;   /* the enclosing leaf (for param types) */
	const char *text;
	size_t len;
	part parts[ASM_MAX_PARTS];
	size_t nparts;
	assign a[ASM_MAX_ASSIGN];
	size_t na;
	ext ex[ASM_MAX_EXT];
	unsigned nex;
	const spec_field *derived[16]; /* derived fields the text printed */
	uint64_t derived_val[16];      /* and the values it printed for them */
	unsigned nderived;
	unsigned depth;
	bool top;
	subsol *out;                /* sub level: the solutions */
	size_t nout;
} frame;

/* ---------------------------------------------------------- templates */

static bool split_template(const char *d, frame *fr)
{
	fr->nparts = 0;
	for (const char *p = d; *p;) {
		if (fr->nparts >= ASM_MAX_PARTS)
			return false;
		part *pt = &fr->parts[fr->nparts++];
		memset(pt, 0, sizeof *pt);
		if (*p != '{') {
			const char *q = strchr(p, '{');
			pt->lit = p;
			pt->len = q ? (size_t)(q - p) : strlen(p);
			p += pt->len;
			continue;
		}
		const char *close = strchr(p, '}');
		if (!close)
			return false;
		const char *colon = memchr(p, ':', (size_t)(close - p));
		size_t n = (size_t)((colon ? colon : close) - p - 1);
		if (n >= sizeof pt->name)
			return false;
		memcpy(pt->name, p + 1, n);
		pt->name[n] = 0;
		pt->align = colon != NULL;
		p = close + 1;
	}
	return true;
}

/* The field a reference names, in the leaf's scope: the leaf's cases and
 * then its ancestors'.  Any case: which one applies is settled by the
 * final check, not here. */
static const spec_field *case_field(const spec_case *c, const char *name)
{
	for (size_t i = 0; c && i < c->nfields; i++)
		if (c->fields[i].kind != SPEC_ASSERT && !strcmp(c->fields[i].name, name))
			return &c->fields[i];
	return NULL;
}

static const spec_field *find_field(const spec_bitset *leaf, const char *name)
{
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t c = s->ncases; c-- > 0;)
			for (size_t i = 0; i < s->cases[c].nfields; i++) {
				const spec_field *f = &s->cases[c].fields[i];
				if (f->kind != SPEC_ASSERT && !strcmp(f->name, name))
					return f;
			}
	return NULL;
}

/* -------------------------------------------------------- candidates */

typedef struct cand {
	size_t len;
	uint64_t bits;
	bool sub;         /* bitset-typed: bits come from a sub solution */
	const subsol *sol;
} cand;

static bool fits_width(int64_t v, unsigned width, bool is_signed)
{
	if (width >= 64)
		return true;
	if (is_signed)
		return v >= -((int64_t)1 << (width - 1)) && v < ((int64_t)1 << (width - 1));
	return v >= 0 && (uint64_t)v < ((uint64_t)1 << width);
}

static uint64_t to_bits(int64_t v, unsigned width)
{
	return width >= 64 ? (uint64_t)v : (uint64_t)v & (((uint64_t)1 << width) - 1);
}

static void add_cand(cand *cs, size_t *n, size_t len, uint64_t bits)
{
	if (*n < ASM_MAX_CANDS)
		cs[(*n)++] = (cand){len, bits, false, NULL};
}

/* Decimal (or hex) numbers at text[p..], every length, longest first. */
static void number_cands(const char *t, size_t avail, bool hex, bool sign, bool plus_only,
                         unsigned width, bool is_signed, cand *cs, size_t *n)
{
	size_t i = 0;
	bool neg = false;
	if (sign && i < avail && (t[i] == '-' || t[i] == '+')) {
		neg = t[i] == '-';
		if (neg && plus_only)
			return;
		i++;
	} else if (plus_only) {
		return;
	}
	size_t start = i;
	while (i < avail && (hex ? isxdigit((unsigned char)t[i]) && !isupper((unsigned char)t[i])
	                         : isdigit((unsigned char)t[i])))
		i++;
	for (size_t end = i; end > start; end--) {
		uint64_t v = 0;
		bool over = false;
		for (size_t k = start; k < end; k++) {
			unsigned dgt = isdigit((unsigned char)t[k]) ? (unsigned)(t[k] - '0')
			                                            : (unsigned)(t[k] - 'a' + 10);
			unsigned base = hex ? 16 : 10;
			if (v > (UINT64_MAX - dgt) / base)
				over = true;
			v = v * base + dgt;
		}
		if (over)
			continue;
		int64_t sv = neg ? -(int64_t)v : (int64_t)v;
		if (fits_width(is_signed ? sv : (int64_t)v, width, is_signed) || (!is_signed && width >= 64))
			add_cand(cs, n, end, to_bits(is_signed ? sv : (int64_t)v, width));
	}
}

static uint16_t float_to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
	if (exp == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		uint32_t shift = (uint32_t)(14 - e);
		uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

static void float_cands(const char *t, size_t avail, unsigned width, cand *cs, size_t *n)
{
	char buf[64];
	size_t k = 0;
	while (k < avail && k < sizeof buf - 1 && strchr("+-0123456789.naif", t[k]))
		k++;
	for (size_t end = k; end > 0; end--) {
		memcpy(buf, t, end);
		buf[end] = 0;
		char *e;
		double d = strtod(buf, &e);
		if (*e)
			continue;
		float f = (float)d;
		uint32_t bits;
		memcpy(&bits, &f, 4);
		if (!strcmp(buf, "nan") || !strcmp(buf, "-nan")) /* glibc's %f of a quiet NaN */
			bits = (buf[0] == '-' ? 0x80000000u : 0) | 0x7fc00000u;
		add_cand(cs, n, end, width == 16 ? float_to_half(f) : bits);
		break; /* the longest float reading only: %f is not ambiguous */
	}
}

static void type_cands(const spec_field *f, const char *t, size_t avail, cand *cs, size_t *n)
{
	unsigned width = f->kind == SPEC_DERIVED ? (f->has_width ? f->high + 1 : 64)
	                                          : f->high - f->low + 1;
	switch (f->type) {
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV: {
		bool inv = f->type == SPEC_TYPE_BOOL_INV;
		if (f->display && *f->display) {
			size_t dl = strlen(f->display);
			if (dl <= avail && !strncmp(t, f->display, dl))
				add_cand(cs, n, dl, inv ? 0 : 1);
			add_cand(cs, n, 0, inv ? 1 : 0);
		} else {
			if (avail && (t[0] == '0' || t[0] == '1'))
				add_cand(cs, n, 1, (uint64_t)(t[0] == '1') ^ inv);
			if (f->display) /* display="" prints nothing either way */
				add_cand(cs, n, 0, inv ? 1 : 0), add_cand(cs, n, 0, inv ? 0 : 1);
		}
		break;
	}
	case SPEC_TYPE_ENUM:
		for (size_t i = 0; f->enm && i < f->enm->nvalues; i++) {
			const spec_enum_value *v = &f->enm->values[i];
			size_t dl = strlen(v->display);
			if (dl <= avail && !strncmp(t, v->display, dl) && fits_width(v->val, width, false))
				add_cand(cs, n, dl, (uint64_t)v->val);
		}
		number_cands(t, avail, false, false, false, width, false, cs, n);
		break;
	case SPEC_TYPE_HEX:
		number_cands(t, avail, true, false, false, width, false, cs, n);
		break;
	case SPEC_TYPE_INT:
	case SPEC_TYPE_BRANCH:
		number_cands(t, avail, false, true, false, width, true, cs, n);
		break;
	case SPEC_TYPE_OFFSET:
		add_cand(cs, n, 0, 0);
		number_cands(t, avail, false, true, false, width, true, cs, n);
		break;
	case SPEC_TYPE_UOFFSET:
		add_cand(cs, n, 0, 0);
		number_cands(t, avail, false, true, true, width, false, cs, n);
		break;
	case SPEC_TYPE_FLOAT:
		float_cands(t, avail, width, cs, n);
		break;
	case SPEC_TYPE_UINT:
	case SPEC_TYPE_ABSBRANCH:
		number_cands(t, avail, false, false, false, width, false, cs, n);
		break;
	default: /* custom and unknown types print what we cannot read back */
		break;
	}
}

/* ------------------------------------------------------------ search */

static void sub_assemble(asm_run *run, const spec_root *root, const spec_field *via,
                         const spec_bitset *outer, const char *text, size_t len,
                         unsigned depth, subsol *out, size_t *nout);

static bool place_bits(uint64_t *w, uint64_t *placed, unsigned low, unsigned width,
                       uint64_t bits)
{
	for (unsigned i = 0; i < width && i < 64; i++) {
		unsigned b = low + i;
		uint64_t one = (uint64_t)1 << (b % 64);
		bool v = (bits >> i) & 1;
		if (placed[b / 64] & one) {
			if (((w[b / 64] & one) != 0) != v)
				return false;
			continue;
		}
		placed[b / 64] |= one;
		if (v)
			w[b / 64] |= one;
	}
	return true;
}

/* The words of the frame's leaf: pattern bits, asserts, assigned fields. */
static bool frame_words(const frame *fr, uint64_t *w)
{
	const spec_bitset *leaf = fr->leaf;
	unsigned nw = (leaf->size + 63) / 64;
	uint64_t placed[SPEC_MAX_BITS / 64] = {0};
	for (unsigned k = 0; k < nw; k++) {
		uint64_t fixed = leaf->mask.w[k] & ~leaf->dontcare.w[k];
		w[k] = leaf->match.w[k] & fixed;
		placed[k] = fixed;
	}
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		const spec_case *dc = s->ncases ? &s->cases[s->ncases - 1] : NULL;
		for (size_t i = 0; dc && i < dc->nfields; i++) {
			const spec_field *f = &dc->fields[i];
			if (f->kind != SPEC_ASSERT || f->high - f->low >= 64)
				continue;
			uint64_t v = 0;
			for (unsigned b = f->low; b <= f->high; b++)
				v |= (uint64_t)spec_bit(f->assert_value, b) << (b - f->low);
			if (!place_bits(w, placed, f->low, f->high - f->low + 1, v))
				return false;
		}
	}
	for (size_t i = 0; i < fr->na; i++) {
		const spec_field *f = fr->a[i].f;
		if (!place_bits(w, placed, f->low, f->high - f->low + 1, fr->a[i].bits))
			return false;
	}
	return true;
}

/* Fields no reference printed but some expression of the leaf reads (an
 * override's condition, a derived field's value): the text fixes them
 * only through what those expressions make the display print, so they
 * are searched, over the values those expressions single out: 0, 1 and
 * every number written in an expression that reads the field. */
typedef struct hidden {
	const spec_field *f;
	uint64_t vals[16];
	unsigned nvals;
} hidden;

static void hidden_add_val(hidden *h, uint64_t v)
{
	unsigned w = h->f->high - h->f->low + 1;
	if (w < 64 && v >> w)
		return;
	for (unsigned i = 0; i < h->nvals; i++)
		if (h->vals[i] == v)
			return;
	if (h->nvals < 16)
		h->vals[h->nvals++] = v;
}

static void hidden_add_literals(hidden *h, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > text && (isalnum((unsigned char)p[-1]) ||
		                                                 p[-1] == '_')))
			continue;
		char *end;
		uint64_t v = strtoull(p, &end, 0);
		hidden_add_val(h, v);
		p = end - 1;
	}
}

/* Values worth trying for a field that a printed derived value v is
 * computed from: v itself, its neighbours (sizes printed as field + 1),
 * and its logarithm (sizes printed as 1 << field). */
static void hidden_add_near(hidden *h, uint64_t v)
{
	hidden_add_val(h, v);
	hidden_add_val(h, v + 1);
	if (v >= 1)
		hidden_add_val(h, v - 1);
	if (v >= 2)
		hidden_add_val(h, v - 2);
	if (v && !(v & (v - 1)))
		hidden_add_val(h, (uint64_t)__builtin_ctzll(v));
}

static void hidden_from_expr(const frame *fr, const spec_expr *e, hidden *out, size_t *n,
                             size_t max, unsigned depth, const uint64_t *printed_val)
{
	for (size_t r = 0; e && r < spec_expr_ref_count(e); r++) {
		const spec_field *f = find_field(fr->leaf, spec_expr_ref(e, r));
		if (f && f->kind == SPEC_DERIVED && depth < 3) {
			hidden_from_expr(fr, f->expr, out, n, max, depth + 1, NULL);
			continue;
		}
		if (!f || f->kind != SPEC_FIELD || f->high - f->low >= 64)
			continue;
		bool printed = false;
		for (size_t k = 0; k < fr->na && !printed; k++)
			printed = fr->a[k].f == f ||
			          (fr->a[k].f->low <= f->high && f->low <= fr->a[k].f->high);
		if (printed)
			continue;
		size_t k = 0;
		while (k < *n && out[k].f != f)
			k++;
		if (k == *n) {
			if (*n == max)
				continue;
			out[(*n)++] = (hidden){.f = f};
			hidden_add_val(&out[k], 0);
			hidden_add_val(&out[k], 1);
		}
		if (printed_val)
			hidden_add_near(&out[k], *printed_val);
		hidden_add_literals(&out[k], spec_expr_text(e));
	}
}

/* The expressions a decode of this text evaluates: the override
 * conditions on the leaf's chain and the derived fields it printed. */
static size_t hidden_fields(const frame *fr, hidden *out, size_t max)
{
	size_t n = 0;
	for (const spec_bitset *s = fr->leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			if (s->cases[c].expr)
				hidden_from_expr(fr, s->cases[c].expr, out, &n, max, 0, NULL);
	for (unsigned i = 0; i < fr->nderived; i++)
		hidden_from_expr(fr, fr->derived[i]->expr, out, &n, max, 0, &fr->derived_val[i]);
	return n;
}

static void complete_words(frame *fr);

static void complete(frame *fr)
{
	if (!fr->top) {
		complete_words(fr);
		return;
	}
	hidden hid[8];
	size_t nh = hidden_fields(fr, hid, 8);
	uint64_t combos = 1;
	for (size_t k = 0; k < nh; k++)
		combos *= hid[k].nvals;
	while (combos > 4096 && nh) { /* too many: the last ones stay 0 */
		combos /= hid[nh - 1].nvals;
		nh--;
	}
	size_t mark = fr->na;
	for (uint64_t combo = 0; combo < combos; combo++) {
		fr->na = mark;
		uint64_t rest = combo;
		for (size_t k = 0; k < nh && fr->na < ASM_MAX_ASSIGN; k++) {
			fr->a[fr->na++] = (assign){hid[k].f, hid[k].vals[rest % hid[k].nvals]};
			rest /= hid[k].nvals;
		}
		size_t before = fr->run->found;
		complete_words(fr);
		if (fr->run->found > before || fr->run->found > 1 || fr->run->over_limit ||
		    ++*fr->run->work > ASM_WORK_LIMIT)
			break;
	}
	fr->na = mark;
}

static void complete_words(frame *fr)
{
	asm_run *run = fr->run;
	uint64_t w[SPEC_MAX_BITS / 64] = {0};
	if (!frame_words(fr, w))
		return;
	if (!fr->top) {
		if (fr->nout >= ASM_MAX_SUBSOLS)
			return;
		for (size_t i = 0; i < fr->nout; i++)
			if (fr->out[i].bits == w[0])
				return;
		subsol *s = &fr->out[fr->nout++];
		s->bits = w[0];
		s->nex = fr->nex;
		memcpy(s->ex, fr->ex, fr->nex * sizeof *fr->ex);
		return;
	}
	/* The final word: it must print exactly the line. */
	unsigned n32 = (run->rootsize + 31) / 32;
	uint32_t w32[SPEC_MAX_BITS / 32];
	for (unsigned k = 0; k < n32; k++)
		w32[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
	codec_disasm_options o = {.gen = run->gen, .show_errors = false};
	char back[1024];
	codec_disasm_one(run->c, w32, &o, back, sizeof back);
	size_t bl = strlen(back);
	while (bl && (back[bl - 1] == '\n' || back[bl - 1] == ' '))
		back[--bl] = 0;
	if (strcmp(back, run->line))
		return;
	unsigned nw = (run->rootsize + 63) / 64;
	if (run->found && !memcmp(run->first, w, nw * sizeof *w))
		return;
	if (!run->found)
		memcpy(run->first, w, nw * sizeof *w);
	run->found++;
}

static void match(frame *fr, size_t i, size_t p);

static void try_cand(frame *fr, size_t i, size_t p, const spec_field *f, const cand *c,
                     bool is_ext, const char *ext_name)
{
	if (is_ext) {
		if (fr->nex >= ASM_MAX_EXT)
			return;
		fr->ex[fr->nex++] = (ext){ext_name, c->bits};
		match(fr, i + 1, p + c->len);
		fr->nex--;
		return;
	}
	if (f->kind == SPEC_DERIVED) { /* computed: the final check decides */
		if (fr->nderived < 16) {
			fr->derived_val[fr->nderived] = c->bits;
			fr->derived[fr->nderived++] = f;
		}
		match(fr, i + 1, p + c->len);
		if (fr->nderived && fr->derived[fr->nderived - 1] == f)
			fr->nderived--;
		return;
	}
	if (fr->na >= ASM_MAX_ASSIGN)
		return;
	size_t mark_na = fr->na;
	unsigned mark_ex = fr->nex;
	fr->a[fr->na++] = (assign){f, c->bits};
	bool ok = true;
	if (c->sub) {
		/* names the sub-instruction read through params are ours */
		for (unsigned k = 0; k < c->sol->nex && ok; k++) {
			const spec_field *pf = find_field(fr->leaf, c->sol->ex[k].name);
			if (pf && pf->kind == SPEC_FIELD && fr->na < ASM_MAX_ASSIGN)
				fr->a[fr->na++] = (assign){pf, c->sol->ex[k].bits};
			else if (!pf && fr->params && fr->nex < ASM_MAX_EXT)
				fr->ex[fr->nex++] = c->sol->ex[k]; /* passed further out */
		}
	}
	if (ok)
		match(fr, i + 1, p + c->len);
	fr->na = mark_na;
	fr->nex = mark_ex;
}

static void match(frame *fr, size_t i, size_t p)
{
	asm_run *run = fr->run;
	if (run->over_limit || (fr->top && run->found > 1))
		return;
	if (++*run->work > ASM_WORK_LIMIT) {
		run->over_limit = true;
		return;
	}
	if (i == fr->nparts) {
		if (p == fr->len)
			complete(fr);
		return;
	}
	const part *pt = &fr->parts[i];
	const char *t = fr->text + p;
	size_t avail = fr->len - p;
	if (pt->lit) {
		if (pt->len <= avail && !memcmp(t, pt->lit, pt->len))
			match(fr, i + 1, p + pt->len);
		return;
	}
	if (pt->align) { /* padding to a column: any run of spaces */
		size_t sp = 0;
		while (sp < avail && t[sp] == ' ')
			sp++;
		if (sp) {
			part saved = *pt;
			fr->parts[i].align = false;
			for (size_t k = 0; k <= sp; k++)
				match(fr, i, p + k);
			fr->parts[i] = saved;
			return;
		}
	}
	if (pt->align && !pt->name[0]) { /* {:align=N} only pads; the spaces are read above */
		match(fr, i + 1, p);
		return;
	}
	if (strlen(pt->name) <= 4 && !strncmp("NAME", pt->name, strlen(pt->name))) {
		const char *nm = spec_display_name(fr->leaf);
		size_t nl = strlen(nm);
		if (nl <= avail && !memcmp(t, nm, nl))
			match(fr, i + 1, p + nl);
		return;
	}
	/* The display's own case first: an override's display prints the
	 * override's fields. */
	const spec_field *f = case_field(fr->dcase, pt->name);
	if (!f)
		f = find_field(fr->leaf, pt->name);
	const char *ext_name = NULL;
	if (!f) {
		/* a name passed in by the enclosing field's <param as> */
		for (size_t k = 0; k < fr->nparams && !f; k++)
			if (!strcmp(fr->params[k].as, pt->name)) {
				f = fr->outer ? find_field(fr->outer, fr->params[k].name) : NULL;
				ext_name = fr->params[k].name;
			}
		if (!f)
			return;
	}
	cand cs[ASM_MAX_CANDS];
	size_t n = 0;
	if (f->type == SPEC_TYPE_BITSET && !ext_name) {
		if (fr->depth + 1 >= ASM_MAX_DEPTH || f->high - f->low >= 64)
			return;
		const spec_root *root = NULL;
		const spec_model *m = codec_model(run->c);
		for (size_t r = 0; r < m->nroots && !root; r++)
			if (m->roots[r].bitset == f->bitset)
				root = &m->roots[r];
		if (!root)
			return;
		/* Where may the sub-instruction end?  Where the next literal
		 * starts, or anywhere when a reference follows. */
		const part *next = i + 1 < fr->nparts ? &fr->parts[i + 1] : NULL;
		for (size_t end = avail + 1; end-- > 0;) {
			if (next && next->lit && (next->len > avail - end ||
			                          memcmp(t + end, next->lit, next->len)))
				continue;
			if (!next && end != avail)
				continue;
			subsol sols[ASM_MAX_SUBSOLS];
			size_t ns = 0;
			sub_assemble(run, root, f, fr->leaf, t, end, fr->depth + 1, sols, &ns);
			for (size_t s = 0; s < ns; s++) {
				cand c = {end, sols[s].bits, true, &sols[s]};
				try_cand(fr, i, p, f, &c, false, NULL);
			}
		}
		return;
	}
	type_cands(f, t, avail, cs, &n);
	for (size_t k = 0; k < n; k++)
		try_cand(fr, i, p, f, &cs[k], ext_name != NULL, ext_name);
}

/* The displays a leaf can print, in the order Mesa would consider them:
 * its cases, then its ancestors'. */
static size_t leaf_displays(const spec_bitset *leaf, const spec_case **out, size_t max)
{
	size_t n = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		bool settled = false;
		for (size_t c = 0; c < s->ncases && n < max; c++)
			if (s->cases[c].display) {
				out[n++] = &s->cases[c];
				settled |= !s->cases[c].expr;
			}
		if (settled)
			break;
	}
	return n;
}

/* Cheap filter: every literal of the template occurs in the text, in order. */
static bool literals_occur(const frame *fr)
{
	size_t p = 0;
	for (size_t i = 0; i < fr->nparts; i++) {
		const part *pt = &fr->parts[i];
		if (!pt->lit || !pt->len)
			continue;
		const char *hit = NULL;
		for (size_t q = p; q + pt->len <= fr->len && !hit; q++)
			if (!memcmp(fr->text + q, pt->lit, pt->len))
				hit = fr->text + q;
		if (!hit)
			return false;
		p = (size_t)(hit - fr->text) + pt->len;
	}
	return true;
}

static void assemble_leaf(asm_run *run, const spec_bitset *leaf, const spec_field *via,
                          const spec_bitset *outer, const char *text, size_t len,
                          unsigned depth, subsol *out, size_t *nout)
{
	const spec_case *disp[16];
	size_t nd = leaf_displays(leaf, disp, 16);
	frame *fr = calloc(1, sizeof *fr);
	if (!fr)
		return;
	for (size_t d = 0; d < nd; d++) {
		*fr = (frame){.run = run, .leaf = leaf, .dcase = disp[d], .text = text, .len = len,
		              .depth = depth,
		              .top = via == NULL, .out = out, .nout = *nout,
		              .params = via ? via->params : NULL, .nparams = via ? via->nparams : 0,
		              .outer = outer};
		if (!split_template(disp[d]->display, fr) || !literals_occur(fr))
			continue;
		match(fr, 0, 0);
		*nout = fr->nout;
	}
	free(fr);
}

static void sub_assemble(asm_run *run, const spec_root *root, const spec_field *via,
                         const spec_bitset *outer, const char *text, size_t len,
                         unsigned depth, subsol *out, size_t *nout)
{
	for (size_t l = 0; l < root->nleaves && *nout < ASM_MAX_SUBSOLS; l++) {
		const spec_bitset *leaf = root->leaves[l];
		if (run->gen < leaf->gen.min || run->gen > leaf->gen.max)
			continue;
		assemble_leaf(run, leaf, via, outer, text, len, depth, out, nout);
	}
}

size_t codec_assemble_one(const codec *c, const char *text, uint32_t gen, uint64_t *w,
                          char *err, size_t errlen)
{
	const spec_root *root = codec_default_root(c);
	char line[1024];
	size_t n = strlen(text);
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	const char *s = text;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	if (err && errlen)
		err[0] = 0;
	if (!root || n >= sizeof line) {
		if (err)
			snprintf(err, errlen, "%s", root ? "line too long" : "the spec has no root");
		return 0;
	}
	memcpy(line, s, n);
	line[n] = 0;
	unsigned work = 0;
	asm_run run = {.c = c, .gen = gen, .work = &work, .line = line,
	               .rootsize = root->bitset->size};
	for (size_t l = 0; l < root->nleaves && run.found < 2 && !run.over_limit; l++) {
		const spec_bitset *leaf = root->leaves[l];
		if (gen < leaf->gen.min || gen > leaf->gen.max)
			continue;
		size_t none = 0;
		assemble_leaf(&run, leaf, NULL, NULL, line, n, 0, NULL, &none);
	}
	if (run.found)
		memcpy(w, run.first, ((run.rootsize + 63) / 64) * sizeof *w);
	if (err && !run.found)
		snprintf(err, errlen, run.over_limit
		         ? "gave up: the templates allow too many readings of this text"
		         : "no encoding of this spec prints this text");
	else if (err && run.found > 1)
		snprintf(err, errlen, "ambiguous: more than one encoding prints this text");
	return run.found;
}
