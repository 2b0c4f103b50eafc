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
#define ASM_MAX_DERIVED  16
#define ASM_MAX_SUBSOLS  32
#define ASM_MAX_CANDS    64
#define ASM_MAX_DEPTH    6
#define ASM_WORK_LIMIT   2000000u  /* steps per line, against pathological templates */
#define ASM_MAX_COMBOS   4096u     /* value combinations of unprinted fields tried per reading */

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
	/* a sub-instruction that printed nothing here (ir3's #cat5-type
	 * without HAS_TYPE): its bits are a guess, which the hidden-field
	 * search may replace where an expression reads the field (cat5's
	 * DST_HALF is #type-half of it) */
	bool open;
} assign;

typedef struct asm_run {
	const codec *c;
	uint32_t gen;
	codec_no_match_style style; /* whose text the line is (the custom fields) */
	unsigned *work;
	bool over_limit;
	/* top level */
	const char *line;
	uint64_t *result;  /* words of the first verified encoding */
	size_t found;      /* distinct verified encodings */
	uint64_t first[SPEC_MAX_BITS / 64];
	uint64_t second[SPEC_MAX_BITS / 64]; /* another encoding, when there is one */
	size_t unclean;            /* encodings that print the line but decode with an issue */
	unsigned rootsize;
	/* the reading of the line that got furthest, for the error message */
	size_t best_col;
	const spec_bitset *best_leaf;
	const spec_case *best_case;
	char best_part[64];
	bool best_complete;        /* it read the whole line; the final check refused */
} asm_run;

typedef struct frame frame;
struct frame {
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
	const spec_field *derived[ASM_MAX_DERIVED]; /* derived values the text fixed */
	uint64_t derived_val[ASM_MAX_DERIVED]; /* and their values */
	unsigned nderived;
	unsigned depth;
	bool top;
	subsol *out;                /* sub level: the solutions */
	size_t nout;
	const struct frame *up;     /* the frame whose field this one reads */
};

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

/* The field a display reference names, as the decoder resolves it: from
 * the leaf up, so that a bitset below the one whose display is printed
 * redefines the name (ir3's ldib.b and stib.b print {OFFSET}, which the
 * display's own bitset defines as a derived 0 and theirs as the offset's
 * bits); within the display's bitset, the display's own case first (an
 * override's display prints the override's fields). */
static const spec_field *display_field(const frame *fr, const char *name)
{
	for (const spec_bitset *s = fr->leaf; s; s = s->parent) {
		bool owns = fr->dcase && fr->dcase >= s->cases && fr->dcase < s->cases + s->ncases;
		const spec_field *f = owns ? case_field(fr->dcase, name) : NULL;
		for (size_t c = s->ncases; !f && c-- > 0;)
			f = case_field(&s->cases[c], name);
		if (f)
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
		/* %f prints six decimals, so other floats print the same: those
		 * with fewer mantissa bits matter, since a derived float may be
		 * built from fewer bits (etnaviv's 20-bit immediates: the low 12
		 * bits are 0).  Offer each rounding that prints this text. */
		for (unsigned drop = 1; width == 32 && drop < 23 && !isnan(f); drop++) {
			uint32_t r = (bits + ((uint32_t)1 << (drop - 1))) & ~(((uint32_t)1 << drop) - 1);
			float g;
			memcpy(&g, &r, 4);
			char again[64];
			snprintf(again, sizeof again, "%f", (double)g);
			if (r != bits && !strcmp(again, buf))
				add_cand(cs, n, end, r);
		}
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
	case SPEC_TYPE_ABSBRANCH: /* printed sign-extended, as a branch (no label) */
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
		number_cands(t, avail, false, false, false, width, false, cs, n);
		break;
	default: /* custom (custom_cands) and unknown types print what we cannot read back */
		break;
	}
}

/* What a custom field written {name} (align: with ":align=") prints, as
 * the tool of style prints it: afuc-disasm prints CONTROLREG and SQEREG
 * unaligned as 0x%03x (cx_afuc_register_field); any other custom field, and
 * every one in Mesa's isa_disasm (its caller's to print), prints nothing,
 * so its value is not in the text: 0, as an unprinted field's. */
static void custom_cands(const spec_field *f, const part *pt, codec_no_match_style style,
                         const char *t, size_t avail, cand *cs, size_t *n)
{
	bool hex3 = style == CODEC_NO_MATCH_AFUC && !pt->align &&
	            cx_afuc_register_field(pt->name, strlen(pt->name));
	if (!hex3) {
		add_cand(cs, n, 0, 0);
		return;
	}
	if (avail < 3 || t[0] != '0' || t[1] != 'x')
		return;
	cand num[ASM_MAX_CANDS];
	size_t nn = 0;
	unsigned width = f->high - f->low + 1;
	number_cands(t + 2, avail - 2, true, false, false, width < 32 ? width : 32, false, num, &nn);
	for (size_t k = 0; k < nn; k++)
		add_cand(cs, n, num[k].len + 2, num[k].bits);
}

/* ------------------------------------------------------------ search */

static void sub_assemble(asm_run *run, const spec_root *root, const spec_field *via,
                         const frame *up, const char *text, size_t len,
                         unsigned depth, subsol *out, size_t *nout);

/* Sets bit b of w to v unless something placed it already: then false
 * when it differs (a conflict), unless soft. */
static bool place_bit(uint64_t *w, uint64_t *placed, unsigned b, bool v, bool soft)
{
	uint64_t one = (uint64_t)1 << (b % 64);
	if (placed[b / 64] & one)
		return soft || ((w[b / 64] & one) != 0) == v;
	placed[b / 64] |= one;
	if (v)
		w[b / 64] |= one;
	return true;
}

static bool place_bits(uint64_t *w, uint64_t *placed, unsigned low, unsigned width,
                       uint64_t bits)
{
	for (unsigned i = 0; i < width && i < 64; i++)
		if (!place_bit(w, placed, low + i, (bits >> i) & 1, false))
			return false;
	return true;
}

static bool frame_case_holds(const frame *fr, const spec_case *k);

/* Places the asserts of case k: all of them (false on a conflict), or
 * softly, only where nothing claimed the bits. */
static bool place_case_asserts(uint64_t *w, uint64_t *placed, const spec_case *k, bool soft)
{
	for (size_t i = 0; i < k->nfields; i++) {
		const spec_field *f = &k->fields[i];
		if (f->kind != SPEC_ASSERT || f->high - f->low >= 64)
			continue;
		for (unsigned b = f->low; b <= f->high; b++)
			if (!place_bit(w, placed, b, spec_bit(f->assert_value, b), soft))
				return false;
	}
	return true;
}

/* The words of the frame's leaf: pattern bits, the asserts the decoder
 * checks (those of the cases it visits looking for the display: each
 * that holds, from the leaf up, until one has a display), assigned
 * fields, and last the default cases' other asserts where free. */
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
	bool found = false;
	for (const spec_bitset *s = leaf; s && !found; s = s->parent)
		for (size_t c = 0; c < s->ncases && !found; c++) {
			const spec_case *k = &s->cases[c];
			if (k != fr->dcase && !frame_case_holds(fr, k))
				continue;
			if (!place_case_asserts(w, placed, k, false))
				return false;
			found = k->display != NULL;
		}
	for (size_t i = 0; i < fr->na; i++) {
		const spec_field *f = fr->a[i].f;
		bool replaced = false; /* an open guess a later assignment replaces */
		for (size_t j = i + 1; j < fr->na && fr->a[i].open && !replaced; j++)
			replaced = fr->a[j].f == f;
		if (!replaced && !place_bits(w, placed, f->low, f->high - f->low + 1, fr->a[i].bits))
			return false;
	}
	for (const spec_bitset *s = leaf; s; s = s->parent)
		if (s->ncases)
			place_case_asserts(w, placed, &s->cases[s->ncases - 1], true);
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
			printed = !fr->a[k].open &&
			          (fr->a[k].f == f ||
			           (fr->a[k].f->low <= f->high && f->low <= fr->a[k].f->high));
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
			/* a field of a few bits: every value (movmsk's .w{W} is
			 * ({REPEAT} + 1) * 32, whose printed 128 names none of
			 * REPEAT's 3 by the rules below) */
			for (uint64_t v = 2; f->high - f->low < 4 && v >> (f->high - f->low + 1) == 0; v++)
				hidden_add_val(&out[k], v);
		}
		if (printed_val)
			hidden_add_near(&out[k], *printed_val);
		hidden_add_literals(&out[k], spec_expr_text(e));
	}
}

/* The fields the override conditions on the leaf's chain read: what
 * chooses the display. */
static size_t hidden_case_fields(const frame *fr, hidden *out, size_t max)
{
	size_t n = 0;
	for (const spec_bitset *s = fr->leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			if (s->cases[c].expr)
				hidden_from_expr(fr, s->cases[c].expr, out, &n, max, 0, NULL);
	return n;
}

/* The expressions a decode of this text evaluates: the override
 * conditions and the derived fields it printed. */
static size_t hidden_fields(const frame *fr, hidden *out, size_t max)
{
	size_t n = hidden_case_fields(fr, out, max);
	for (unsigned i = 0; i < fr->nderived; i++)
		hidden_from_expr(fr, fr->derived[i]->expr, out, &n, max, 0, &fr->derived_val[i]);
	return n;
}

/* Keeps the first hidden fields whose value combinations, times the
 * *combos there are already, stay within ASM_MAX_COMBOS (the others
 * stay 0); *combos becomes the product. */
static size_t hidden_fit(const hidden *h, size_t nh, uint64_t *combos)
{
	for (size_t k = 0; k < nh; k++)
		*combos *= h[k].nvals;
	while (*combos > ASM_MAX_COMBOS && nh)
		*combos /= h[--nh].nvals;
	return nh;
}

/* Assigns the hidden fields the values that combination number rest
 * picks (mixed radix). */
static void hidden_assign(frame *fr, const hidden *h, size_t nh, uint64_t rest)
{
	for (size_t k = 0; k < nh && fr->na < ASM_MAX_ASSIGN; k++) {
		fr->a[fr->na++] = (assign){h[k].f, h[k].vals[rest % h[k].nvals], false};
		rest /= h[k].nvals;
	}
}

static void complete_words(frame *fr);

/* ------------------------------------------- a sub-instruction's case
 *
 * Which display a sub-instruction prints with can depend on names it
 * reads from outside through <param>s (etnaviv's destination prints
 * "void" when the enclosing DST_USE is 0).  The text shows the display
 * used, so those names are solved for: every value that makes the
 * decoder choose this display is handed out, with the sub solution, for
 * the enclosing instruction to set. */

#define ASM_MAX_TRIAL 4
#define ASM_TRIAL_VALS 8

typedef struct frame_env {
	const frame *fr;
	const ext *trial;
	unsigned ntrial;
} frame_env;

static const char *outer_name(const frame *fr, const char *inner)
{
	for (size_t k = 0; k < fr->nparams; k++)
		if (!strcmp(fr->params[k].as, inner))
			return fr->params[k].name;
	return NULL;
}

static bool frame_lookup(void *ctx, const char *name, unsigned depth, int64_t *value,
                         char *err, size_t errlen)
{
	const frame_env *fe = ctx;
	const frame *fr = fe->fr;
	for (size_t i = fr->na; i-- > 0;)
		if (!strcmp(fr->a[i].f->name, name)) {
			*value = (int64_t)fr->a[i].bits;
			return true;
		}
	const char *outer = outer_name(fr, name);
	if (outer) {
		for (unsigned i = 0; i < fe->ntrial; i++)
			if (!strcmp(fe->trial[i].name, outer)) {
				*value = (int64_t)fe->trial[i].bits;
				return true;
			}
		for (unsigned i = 0; i < fr->nex; i++)
			if (!strcmp(fr->ex[i].name, outer)) {
				*value = (int64_t)fr->ex[i].bits;
				return true;
			}
		if (fr->up && depth < SPEC_MAX_EXPR_DEPTH) {
			/* what the enclosing frame read so far */
			frame_env up = {fr->up, NULL, 0};
			return frame_lookup(&up, outer, depth + 1, value, err, errlen);
		}
		snprintf(err, errlen, "%s unknown", name);
		return false;
	}
	const spec_field *f = find_field(fr->leaf, name);
	if (f && f->kind == SPEC_DERIVED && f->expr) {
		spec_eval_env env = {frame_lookup, (void *)fe, (int64_t)fr->run->gen, depth + 1};
		return spec_expr_eval(f->expr, &env, value, err, errlen);
	}
	if (f && f->kind == SPEC_FIELD) {
		*value = 0; /* unprinted: encoded as 0 */
		return true;
	}
	snprintf(err, errlen, "%s unknown", name);
	return false;
}

/* Whether case k applies to the frame's values (an expression that
 * cannot be evaluated does not hold). */
static bool frame_case_holds(const frame *fr, const spec_case *k)
{
	if (!k->expr)
		return true;
	frame_env fe = {fr, NULL, 0};
	spec_eval_env env = {frame_lookup, &fe, (int64_t)fr->run->gen, 0};
	int64_t v = 0;
	char err[64];
	return spec_expr_eval(k->expr, &env, &v, err, sizeof err) && v;
}

/* Whether the decoder would print the frame's leaf with fr->dcase. */
static bool display_selected(const frame *fr, const ext *trial, unsigned ntrial)
{
	frame_env fe = {fr, trial, ntrial};
	spec_eval_env env = {frame_lookup, &fe, (int64_t)fr->run->gen, 0};
	for (const spec_bitset *s = fr->leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++) {
			const spec_case *k = &s->cases[c];
			if (k->expr) {
				int64_t v = 0;
				char err[64];
				if (!spec_expr_eval(k->expr, &env, &v, err, sizeof err) || !v)
					continue;
			}
			if (k->display)
				return k == fr->dcase;
		}
	return false;
}

/* The outside names the case expressions on the chain read that the
 * frame has no value for yet, with values worth trying for each. */
/* Whether the frame has a value for name: a derived value (computed), a
 * field it assigned, a param it or its own enclosing frame knows. */
static bool frame_knows(const frame *fr, const char *name, unsigned depth)
{
	if (!fr || depth > ASM_MAX_DEPTH)
		return false;
	const spec_field *f = find_field(fr->leaf, name);
	if (f && f->kind == SPEC_DERIVED)
		return true;
	if (f) {
		for (size_t i = 0; i < fr->na; i++)
			if (fr->a[i].f == f)
				return true;
		return false;
	}
	const char *outer = outer_name(fr, name);
	if (!outer)
		return false;
	for (unsigned i = 0; i < fr->nex; i++)
		if (!strcmp(fr->ex[i].name, outer))
			return true;
	return frame_knows(fr->up, outer, depth + 1);
}

static void trial_from_expr(const frame *fr, const spec_expr *e, ext *names,
                            uint64_t (*vals)[ASM_TRIAL_VALS], unsigned *nvals, unsigned *np,
                            unsigned depth)
{
	unsigned n = *np;
	for (size_t r = 0; e && r < spec_expr_ref_count(e); r++) {
		const spec_field *df = find_field(fr->leaf, spec_expr_ref(e, r));
		if (df && df->kind == SPEC_DERIVED && depth < 3) {
			*np = n;
			trial_from_expr(fr, df->expr, names, vals, nvals, np, depth + 1);
			n = *np;
			continue;
		}
		const char *outer = outer_name(fr, spec_expr_ref(e, r));
		bool known = !outer || frame_knows(fr->up, outer, 0);
		for (unsigned i = 0; outer && i < fr->nex && !known; i++)
			known = !strcmp(fr->ex[i].name, outer);
		for (unsigned i = 0; outer && i < n && !known; i++)
			known = !strcmp(names[i].name, outer);
		if (known || n == ASM_MAX_TRIAL)
			continue;
		names[n] = (ext){outer, 0};
		const spec_field *of = fr->outer ? find_field(fr->outer, outer) : NULL;
		unsigned w = of ? of->high - of->low + 1 : 64;
		hidden h = {.f = &(spec_field){.low = 0, .high = w - 1}};
		if (w <= 3) { /* small: every value */
			for (uint64_t x = 0; x < ((uint64_t)1 << w); x++)
				hidden_add_val(&h, x);
		} else {
			hidden_add_val(&h, 0);
			hidden_add_val(&h, 1);
			hidden_add_literals(&h, spec_expr_text(e));
		}
		nvals[n] = h.nvals < ASM_TRIAL_VALS ? h.nvals : ASM_TRIAL_VALS;
		memcpy(vals[n], h.vals, nvals[n] * sizeof **vals);
		n++;
	}
	*np = n;
}

static unsigned trial_names(const frame *fr, ext *names, uint64_t (*vals)[ASM_TRIAL_VALS],
                            unsigned *nvals)
{
	unsigned n = 0;
	for (const spec_bitset *s = fr->leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			trial_from_expr(fr, s->cases[c].expr, names, vals, nvals, &n, 0);
	return n;
}

/* ------------------------------------------- printed derived values
 *
 * A derived value that is a bit permutation of what it reads (etnaviv's
 * immediates: the source's register, swizzle, modifier and mode bits
 * shifted into one number; ir3's BASE = BASE_HI << 1 | BASE_LO) is
 * inverted directly: probing each input bit alone shows which output
 * bit it moves, and the printed value gives every input bit.  Other
 * derived values are left to the search and the final check.  "Printed"
 * includes a derived value of this frame that a sub-instruction printed
 * through a <param> (try_cand hands it back here). */

#define ASM_MAX_DIN 8

/* Where an input of the derived value comes from. */
typedef struct din {
	const spec_field *field; /* a field of the frame's leaf, or NULL: a param */
	const char *outer;       /* a param: its name outside */
} din;

static bool din_eval(const frame *fr, const spec_expr *x, codec_input *in, size_t n,
                     uint64_t bits, int64_t *r)
{
	codec_input_spread(in, n, bits);
	return codec_input_eval(x, in, n, (int64_t)fr->run->gen, r);
}

/* Sets (as assignments and outside values) the inputs of derived field
 * f that the printed value v determines; false when they contradict what
 * the frame already holds.  Leaves the frame alone when f is not a bit
 * permutation of its inputs. */
static bool solve_derived(frame *fr, const spec_field *f, uint64_t v)
{
	const spec_expr *x = f->expr;
	size_t k = x ? spec_expr_ref_count(x) : 0;
	if (!k || k > ASM_MAX_DIN)
		return true;
	codec_input in[ASM_MAX_DIN];
	din from[ASM_MAX_DIN];
	unsigned total = 0;
	for (size_t i = 0; i < k; i++) {
		const char *name = spec_expr_ref(x, i);
		const spec_field *g = find_field(fr->leaf, name);
		const char *outer = g ? NULL : outer_name(fr, name);
		const spec_field *og = outer && fr->outer ? find_field(fr->outer, outer) : NULL;
		if (g && g->kind != SPEC_FIELD)
			return true;
		if (!g && !og)
			return true;
		unsigned w = g ? g->high - g->low + 1 : og->high - og->low + 1;
		if (w > 32)
			return true;
		in[i] = (codec_input){name, w, 0};
		from[i] = (din){g, outer};
		total += w;
	}
	if (total > 63)
		return true;
	int64_t base, r;
	if (!din_eval(fr, x, in, k, 0, &base))
		return true;
	/* Each input bit alone flips one distinct output bit, or none (bits
	 * the value does not show, such as the mode bits above etnaviv's
	 * immediate sign: something else must set them). */
	int pos[64];
	uint64_t seen = 0;
	for (unsigned b = 0; b < total; b++) {
		if (!din_eval(fr, x, in, k, (uint64_t)1 << b, &r))
			return true;
		uint64_t moved = (uint64_t)(r ^ base);
		pos[b] = -1;
		if (!moved)
			continue;
		if ((moved & (moved - 1)) || (seen & moved))
			return true;
		seen |= moved;
		pos[b] = __builtin_ctzll(moved);
	}
	/* Single bits moving single bits does not make a permutation
	 * ({MODE} < 6 moves none; {A} + {B} carries; {T} == 0 || {T} == 2
	 * moves one for bit 0 alone): check that the bits combine as one, on
	 * a few words of several of them at once. */
	if (!seen)
		return true;
	static const uint64_t probes[] = {~(uint64_t)0, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull,
	                                  0x3333333333333333ull, 0xccccccccccccccccull};
	uint64_t all = total >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << total) - 1;
	for (size_t q = 0; q < sizeof probes / sizeof *probes; q++) {
		uint64_t bits = probes[q] & all, want = (uint64_t)base;
		for (unsigned b = 0; b < total; b++)
			if (((bits >> b) & 1) && pos[b] >= 0)
				want ^= (uint64_t)1 << pos[b];
		if (!din_eval(fr, x, in, k, bits, &r) || (uint64_t)r != want)
			return true;
	}
	uint64_t d = v ^ (uint64_t)base;
	if (d & ~seen)
		return false; /* the value has bits no input can set */
	unsigned at = 0;
	for (size_t i = 0; i < k; i++) {
		uint64_t val = 0, mask = 0;
		for (unsigned j = 0; j < in[i].width; j++, at++)
			if (pos[at] >= 0) {
				mask |= (uint64_t)1 << j;
				val |= ((d >> pos[at]) & 1) << j;
			}
		if (!mask)
			continue;
		uint64_t *have = NULL;
		if (from[i].field) {
			for (size_t j = 0; j < fr->na && !have; j++)
				if (fr->a[j].f == from[i].field && !fr->a[j].open)
					have = &fr->a[j].bits;
		} else {
			for (unsigned j = 0; j < fr->nex && !have; j++)
				if (!strcmp(fr->ex[j].name, from[i].outer))
					have = &fr->ex[j].bits;
		}
		if (have) {
			if ((*have ^ val) & mask)
				return false;
			continue;
		}
		if (from[i].field) {
			if (fr->na >= ASM_MAX_ASSIGN)
				return false;
			fr->a[fr->na++] = (assign){from[i].field, val, false};
		} else {
			if (fr->nex >= ASM_MAX_EXT)
				return false;
			fr->ex[fr->nex++] = (ext){from[i].outer, val};
		}
	}
	return true;
}

/* Solves every printed derived value; false on a contradiction. */
static bool solve_all_derived(frame *fr)
{
	for (unsigned i = 0; i < fr->nderived; i++)
		if (!solve_derived(fr, fr->derived[i], fr->derived_val[i]))
			return false;
	return true;
}

/* A sub-instruction's display choice can hang on names it reads from
 * outside (trial names) and on its own fields no reference printed
 * (ir3's #cat6-typed prints "typed" when its one bit, read only by the
 * override's expression, is 1): both are searched, and a combination
 * counts when the decoder would pick the display the text was read
 * with. */
static void complete_sub(frame *fr)
{
	ext names[ASM_MAX_TRIAL];
	uint64_t vals[ASM_MAX_TRIAL][ASM_TRIAL_VALS];
	unsigned nvals[ASM_MAX_TRIAL];
	unsigned nt = trial_names(fr, names, vals, nvals);
	if (fr->nex + nt > ASM_MAX_EXT)
		nt = 0;
	hidden hid[4];
	size_t nh = hidden_case_fields(fr, hid, 4);
	size_t mark_na = fr->na;
	unsigned mark = fr->nex;
	if (!nt && !nh) {
		if (solve_all_derived(fr))
			complete_words(fr);
		fr->na = mark_na;
		fr->nex = mark;
		return;
	}
	uint64_t combos = 1;
	for (unsigned k = 0; k < nt; k++)
		combos *= nvals[k];
	nh = hidden_fit(hid, nh, &combos);
	bool any = false;
	for (uint64_t combo = 0; combo < combos && fr->nout < ASM_MAX_SUBSOLS; combo++) {
		if (++*fr->run->work > ASM_WORK_LIMIT) {
			fr->run->over_limit = true;
			break;
		}
		uint64_t rest = combo;
		for (unsigned k = 0; k < nt; k++) {
			names[k].bits = vals[k][rest % nvals[k]];
			rest /= nvals[k];
		}
		memcpy(fr->ex + mark, names, nt * sizeof *names);
		fr->nex = mark + nt;
		hidden_assign(fr, hid, nh, rest);
		if (solve_all_derived(fr) && display_selected(fr, NULL, 0)) {
			any = true;
			complete_words(fr);
		}
		fr->na = mark_na;
		fr->nex = mark;
	}
	if (!any && solve_all_derived(fr)) /* nothing solved: the final check decides */
		complete_words(fr);
	fr->na = mark_na;
	fr->nex = mark;
}

static void complete_top(frame *fr);

static void complete(frame *fr)
{
	if (!fr->top) {
		complete_sub(fr);
		return;
	}
	size_t mark_na = fr->na;
	unsigned mark_ex = fr->nex;
	if (solve_all_derived(fr))
		complete_top(fr);
	fr->na = mark_na;
	fr->nex = mark_ex;
}

static void complete_top(frame *fr)
{
	hidden hid[8];
	size_t nh = hidden_fields(fr, hid, 8);
	uint64_t combos = 1;
	nh = hidden_fit(hid, nh, &combos);
	size_t mark = fr->na;
	for (uint64_t combo = 0; combo < combos; combo++) {
		fr->na = mark;
		hidden_assign(fr, hid, nh, combo);
		size_t before = fr->run->found;
		complete_words(fr);
		if (fr->run->found > before || fr->run->found > 1 || fr->run->over_limit ||
		    ++*fr->run->work > ASM_WORK_LIMIT)
			break;
	}
	fr->na = mark;
}

/* afuc-disasm's comment after a line ("\t; 0x%03x", post_instr_cb): a
 * function of what the line prints, not part of what is read. */
static void cut_afuc_comment(char *line)
{
	char *c = strstr(line, "\t; ");
	if (c)
		*c = 0;
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
			if (fr->out[i].bits == w[0] && fr->out[i].nex == fr->nex &&
			    !memcmp(fr->out[i].ex, fr->ex, fr->nex * sizeof *fr->ex))
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
	codec_disasm_options o = {.gen = run->gen, .show_errors = false, .no_match = run->style};
	char back[1024];
	codec_disasm_one(run->c, w32, &o, back, sizeof back);
	if (run->style == CODEC_NO_MATCH_AFUC)
		cut_afuc_comment(back);
	size_t bl = strlen(back);
	while (bl && (back[bl - 1] == '\n' || back[bl - 1] == ' '))
		back[--bl] = 0;
	if (strcmp(back, run->line))
		return;
	unsigned nw = (run->rootsize + 63) / 64;
	/* An encoding that decodes with an issue (a value its enum does not
	 * name, in a field the text does not show) is kept only while no
	 * clean one prints the line. */
	codec_value values[256];
	codec_issue issues[16];
	codec_decoded dec = {.values = values, .cap_values = 256, .issues = issues,
	                     .cap_issues = 16};
	codec_decode(run->c, NULL, w, run->gen, &dec);
	/* A name the display prints that no case defines (afuc's sread
	 * prints {XREG}) is the leaf's, the same for every word: Mesa
	 * prints the line all the same, and so it is clean here.  Of the
	 * rest, only a value its enum does not name is an issue an encoding
	 * may keep: a broken assert (bits the decoder expects at a fixed
	 * value) makes no instruction, whatever it prints (a reading of
	 * other layout's fields can put bits there). */
	bool clean = dec.leaf != NULL;
	for (size_t k = 0; k < dec.nissues; k++) {
		if (dec.issues[k].kind == CODEC_NO_FIELD)
			continue;
		if (dec.issues[k].kind != CODEC_ENUM_MISSING)
			return;
		clean = false;
	}
	if (!dec.leaf)
		return;
	if (!clean) {
		if (!run->found && !run->unclean)
			memcpy(run->first, w, nw * sizeof *w);
		run->unclean += !run->found;
		return;
	}
	if (run->found && !memcmp(run->first, w, nw * sizeof *w))
		return;
	memcpy(run->found ? run->second : run->first, w, nw * sizeof *w);
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
		if (fr->nderived < ASM_MAX_DERIVED) {
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
	unsigned mark_ex = fr->nex, mark_nd = fr->nderived;
	fr->a[fr->na++] = (assign){f, c->bits, c->sub && c->len == 0};
	bool ok = true;
	if (c->sub) {
		/* names the sub-instruction read through params are ours: a
		 * field takes the value; a derived value must come out as the
		 * sub-instruction read it (ir3's HALF prints "h" in a source
		 * and is !{FULL}), so it is solved like a printed one */
		for (unsigned k = 0; k < c->sol->nex && ok; k++) {
			const spec_field *pf = find_field(fr->leaf, c->sol->ex[k].name);
			if (pf && pf->kind == SPEC_FIELD && fr->na < ASM_MAX_ASSIGN)
				fr->a[fr->na++] = (assign){pf, c->sol->ex[k].bits, false};
			else if (pf && pf->kind == SPEC_DERIVED && fr->nderived < ASM_MAX_DERIVED) {
				fr->derived_val[fr->nderived] = c->sol->ex[k].bits;
				fr->derived[fr->nderived++] = pf;
			} else if (!pf && fr->params && fr->nex < ASM_MAX_EXT)
				fr->ex[fr->nex++] = c->sol->ex[k]; /* passed further out */
		}
	}
	if (ok)
		match(fr, i + 1, p + c->len);
	fr->na = mark_na;
	fr->nex = mark_ex;
	fr->nderived = mark_nd;
}

/* Reads field f (of the frame's leaf, or ext_name's outside) for part i
 * at p: a sub-instruction's every solution, or a value's candidates. */
static void read_field(frame *fr, size_t i, size_t p, const spec_field *f, const part *pt,
                       const char *ext_name)
{
	asm_run *run = fr->run;
	const char *t = fr->text + p;
	size_t avail = fr->len - p;
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
			sub_assemble(run, root, f, fr, t, end, fr->depth + 1, sols, &ns);
			for (size_t s = 0; s < ns; s++) {
				cand c = {end, sols[s].bits, true, &sols[s]};
				try_cand(fr, i, p, f, &c, false, NULL);
			}
		}
		return;
	}
	if (f->type == SPEC_TYPE_CUSTOM)
		custom_cands(f, pt, run->style, t, avail, cs, &n);
	else
		type_cands(f, t, avail, cs, &n);
	for (size_t k = 0; k < n; k++)
		try_cand(fr, i, p, f, &cs[k], ext_name != NULL, ext_name);
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
	if (fr->top && (p > run->best_col || !run->best_leaf)) {
		run->best_col = p;
		run->best_leaf = fr->leaf;
		run->best_case = fr->dcase;
		run->best_complete = false;
		if (i < fr->nparts && !fr->parts[i].lit)
			snprintf(run->best_part, sizeof run->best_part, "{%s}", fr->parts[i].name);
		else if (i < fr->nparts)
			snprintf(run->best_part, sizeof run->best_part, "\"%.*s\"",
			         (int)(fr->parts[i].len < 40 ? fr->parts[i].len : 40), fr->parts[i].lit);
		else
			snprintf(run->best_part, sizeof run->best_part, "the end of the display");
	}
	if (i == fr->nparts) {
		if (p == fr->len) {
			if (fr->top)
				run->best_complete = true;
			complete(fr);
		}
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
	/* {:align=N} only pads: the spaces are read above, where the part's
	 * align is cleared for the tries after them, so the empty name (not
	 * align) says what it is; else it would be read as a prefix of NAME. */
	if (!pt->name[0]) {
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
	const spec_field *f = display_field(fr, pt->name);
	const char *ext_name = NULL;
	if (!f) {
		/* a name passed in by the enclosing field's <param as> */
		for (size_t k = 0; k < fr->nparams && !f; k++)
			if (!strcmp(fr->params[k].as, pt->name)) {
				f = fr->outer ? find_field(fr->outer, fr->params[k].name) : NULL;
				ext_name = fr->params[k].name;
			}
		if (!f) {
			/* a name nothing defines prints nothing (Mesa adds an
			 * error, which is not read): read nothing for it */
			if (!ext_name)
				match(fr, i + 1, p);
			return;
		}
	}
	read_field(fr, i, p, f, pt, ext_name);
	if (ext_name)
		return;
	/* The decoder reads a name through the first case that holds and
	 * defines it, whichever display it prints: ir3's #cat1-immed-src
	 * prints {IMMED} with its default display, yet reads it as the s16
	 * override's 16-bit int when SRC_TYPE is 4 (`mov.s16s16 hr1.y, -1`),
	 * and alias's {SRC} is a register or a constant by which override
	 * holds.  So every case's definition of the name is read; the final
	 * check keeps what prints the line. */
	const spec_field *tried[8] = {f};
	size_t ntried = 1;
	for (const spec_bitset *s = fr->leaf; s && ntried < 8; s = s->parent)
		for (size_t c = 0; c < s->ncases && ntried < 8; c++) {
			const spec_field *g = case_field(&s->cases[c], pt->name);
			bool seen = !g || g->kind != SPEC_FIELD || g->type == SPEC_TYPE_CUSTOM;
			for (size_t q = 0; q < ntried && !seen; q++)
				seen = tried[q]->type == g->type && tried[q]->low == g->low &&
				       tried[q]->high == g->high && tried[q]->bitset == g->bitset;
			if (seen)
				continue;
			tried[ntried++] = g;
			read_field(fr, i, p, g, pt, NULL);
		}
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

/* Cheap filter, before any frame is set up: every literal of template d
 * (the text between its {...} references, as split_template cuts it)
 * occurs in the text, in order.  Every leaf is tried for every line, so
 * this is what most leaves cost. */
static bool literals_occur(const char *d, const char *text, size_t len)
{
	size_t at = 0;
	for (const char *p = d; *p;) {
		if (*p == '{') {
			const char *close = strchr(p, '}');
			if (!close)
				return false; /* split_template refuses it too */
			p = close + 1;
			continue;
		}
		const char *q = strchr(p, '{');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		const char *hit = NULL;
		for (size_t k = at; k + n <= len && !hit; k++)
			if (!memcmp(text + k, p, n))
				hit = text + k;
		if (!hit)
			return false;
		at = (size_t)(hit - text) + n;
		p += n;
	}
	return true;
}

static void assemble_leaf(asm_run *run, const spec_bitset *leaf, const spec_field *via,
                          const frame *up, const char *text, size_t len,
                          unsigned depth, subsol *out, size_t *nout)
{
	const spec_case *disp[16];
	size_t nd = leaf_displays(leaf, disp, 16);
	frame *fr = NULL; /* about 10 KiB: only for a display that may fit */
	for (size_t d = 0; d < nd; d++) {
		if (!literals_occur(disp[d]->display, text, len))
			continue;
		if (!fr && !(fr = malloc(sizeof *fr)))
			return;
		*fr = (frame){.run = run, .leaf = leaf, .dcase = disp[d], .text = text, .len = len,
		              .depth = depth,
		              .top = via == NULL, .out = out, .nout = *nout,
		              .params = via ? via->params : NULL, .nparams = via ? via->nparams : 0,
		              .outer = up ? up->leaf : NULL, .up = up};
		if (!split_template(disp[d]->display, fr))
			continue;
		match(fr, 0, 0);
		*nout = fr->nout;
	}
	free(fr);
}

static void sub_assemble(asm_run *run, const spec_root *root, const spec_field *via,
                         const frame *up, const char *text, size_t len,
                         unsigned depth, subsol *out, size_t *nout)
{
	for (size_t l = 0; l < root->nleaves && *nout < ASM_MAX_SUBSOLS; l++) {
		const spec_bitset *leaf = root->leaves[l];
		if (run->gen < leaf->gen.min || run->gen > leaf->gen.max)
			continue;
		assemble_leaf(run, leaf, via, up, text, len, depth, out, nout);
	}
}

size_t codec_assemble_one(const codec *c, const char *text, uint32_t gen, uint64_t *w,
                          char *err, size_t errlen)
{
	return codec_assemble_as(c, text, gen, CODEC_NO_MATCH_MESA, w, err, errlen);
}

size_t codec_assemble_as(const codec *c, const char *text, uint32_t gen,
                         codec_no_match_style style, uint64_t *w, char *err, size_t errlen)
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
	if (style == CODEC_NO_MATCH_AFUC) {
		cut_afuc_comment(line);
		n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = 0;
	}
	unsigned work = 0;
	asm_run run = {.c = c, .gen = gen, .style = style, .work = &work, .line = line,
	               .rootsize = root->bitset->size};
	for (size_t l = 0; l < root->nleaves && run.found < 2 && !run.over_limit; l++) {
		const spec_bitset *leaf = root->leaves[l];
		if (gen < leaf->gen.min || gen > leaf->gen.max)
			continue;
		size_t none = 0;
		assemble_leaf(&run, leaf, NULL, NULL, line, n, 0, NULL, &none);
	}
	if (!run.found && run.unclean) {
		/* only encodings with an issue print the line: give the first */
		memcpy(w, run.first, ((run.rootsize + 63) / 64) * sizeof *w);
		if (err)
			snprintf(err, errlen, "the encoding that prints this text decodes with an issue");
		return 1;
	}
	if (run.found)
		memcpy(w, run.first, ((run.rootsize + 63) / 64) * sizeof *w);
	if (err && !run.found && run.over_limit)
		snprintf(err, errlen, "gave up: the templates allow too many readings of this text");
	else if (err && !run.found && run.best_leaf && run.best_complete)
		snprintf(err, errlen, "no encoding of this spec prints this text (the display of %s "
		         "at line %u reads it all, but no encoding of the values read prints it back)",
		         spec_display_name(run.best_leaf), run.best_case->display_loc.line);
	else if (err && !run.found && run.best_leaf)
		snprintf(err, errlen, "no encoding of this spec prints this text (the closest reading, "
		         "with the display of %s at line %u, stops at column %zu at %s)",
		         spec_display_name(run.best_leaf), run.best_case->display_loc.line,
		         run.best_col + 1, run.best_part);
	else if (err && !run.found)
		snprintf(err, errlen, "no encoding of this spec prints this text");
	else if (err && run.found > 1) {
		/* both, high word first, as isacheck prints instructions */
		char a[SPEC_MAX_BITS / 4 + 1], b[SPEC_MAX_BITS / 4 + 1];
		size_t al = 0, bl = 0;
		for (unsigned k = (run.rootsize + 31) / 32; k-- > 0;) {
			al += (size_t)snprintf(a + al, sizeof a - al, "%08x",
			                       (uint32_t)(run.first[k / 2] >> (32 * (k % 2))));
			bl += (size_t)snprintf(b + bl, sizeof b - bl, "%08x",
			                       (uint32_t)(run.second[k / 2] >> (32 * (k % 2))));
		}
		snprintf(err, errlen, "ambiguous: more than one encoding prints this text "
		         "(0x%s and 0x%s)", a, b);
	}
	return run.found;
}
