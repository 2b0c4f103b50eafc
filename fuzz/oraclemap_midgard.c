/*
 * oraclemap_midgard.c - isa/midgard.xml against Mesa's Midgard
 * disassembler: what Mesa must print, predicted from our decoding, and
 * the line-by-line comparison (oraclemap_midgard.h says what is mapped to
 * what).  The tables of names below are the mapping; the printers write
 * Mesa's conventions (which field prints how, and when it is left out),
 * written anew for this purpose, from our field values.
 */
#include "oraclemap_midgard.h"

#include "mesa_oracle.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

/* In a predicted line: any text up to the next ", " outside <> and []
 * (an operand a quirk spoils), and any text to the end of the line
 * (after the marker of a part our spec does not decode). */
#define ANY_OPERAND '\x01'
#define ANY_REST '\x02'

const char *const oraclemap_midgard_quirk_names[OM_QUIRK_COUNT] = {
	[OM_QUIRK_ATOMIC64_NAME] = "the 64-bit atomics 0x41, 0x45, ... 0x65 print with the "
	                           "names of their big-endian forms (\".64.be\")",
	[OM_QUIRK_ATOMIC64_BE] = "the big-endian 64-bit atomics 0x43, 0x47, ... 0x67 have no "
	                         "name (ldst_op_43)",
	[OM_QUIRK_UNIT] = "an ALU opcode on a unit that cannot run it prints as if valid",
	[OM_QUIRK_FREDUCE] = "opcode 0x3F prints as FREDUCE though no unit runs it",
	[OM_QUIRK_CONTROL_BITS] = "control-word bits 8-15 and 28-31 are never read (no warning)",
	[OM_QUIRK_PADDING] = "the zero padding of an ALU bundle is never read",
	[OM_QUIRK_ALU_SIZE] = "an ALU bundle's parts are not checked against its tag's size "
	                      "(Mesa reads past the bundle, or skips quadwords)",
	[OM_QUIRK_BARRIER_OPCODE] = "a barrier is recognised by opcode bits 8-11 alone; bits 12-13 "
	                            "of its 6-bit opcode are never read",
	[OM_QUIRK_SCALAR_CONSTANT] = "a 32-bit scalar constant source is indexed by its 16-bit "
	                             "component, not halved (r26.y prints constant z)",
	[OM_QUIRK_CONSTANT64] = "a 64-bit constant source is indexed by one 32-bit selector per "
	                        "lane (not the selector pair), reading past the constants",
	[OM_QUIRK_CONSTANT_LANES] = "a constant source prints other constants than the letters "
	                            "Mesa prints for a register source with the same fields (16-bit "
	                            "lanes 4-7 take selector 0; rep/swap ignored at 32 bits)",
	[OM_QUIRK_TRAP] = "TRAP (0xFC) has no name: printed as ldst_op_FC with its offset",
	[OM_QUIRK_INT_OUTMOD] = "an integer result's output modifier is left out unless shrunk: "
	                        "its rule (keeplo) is an assert",
	[OM_QUIRK_CONSTANT_EXPAND] = "an expanding constant source prints half-width lanes, "
	                             "ignoring the expand mode's half",
};

/* ------------------------------------------------------------------ text */

typedef struct om_text {
	char *s;
	size_t len, cap;
	bool oom;
} om_text;

static void tx_reserve(om_text *t, size_t more)
{
	if (t->oom || t->len + more + 1 <= t->cap)
		return;
	size_t cap = t->cap ? t->cap : 1024;
	while (cap < t->len + more + 1)
		cap *= 2;
	char *s = realloc(t->s, cap);
	if (!s) {
		t->oom = true;
		return;
	}
	t->s = s;
	t->cap = cap;
}

static void tx_put(om_text *t, const char *s, size_t n)
{
	tx_reserve(t, n);
	if (t->oom)
		return;
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static void tx_puts(om_text *t, const char *s)
{
	tx_put(t, s, strlen(s));
}

static void tx_putc(om_text *t, char c)
{
	tx_put(t, &c, 1);
}

static void tx_printf(om_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tx_printf(om_text *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof buf) {
		tx_put(t, buf, (size_t)n);
		return;
	}
	tx_reserve(t, (size_t)n);
	if (t->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static char *copy_text(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* A line of s at *at (up to '\n' or the end); advances past it.  False at
 * the end of s. */
static bool next_line(const char *s, size_t len, size_t *at, const char **line, size_t *n)
{
	if (*at >= len)
		return false;
	const char *p = s + *at, *e = memchr(p, '\n', len - *at);
	*line = p;
	*n = e ? (size_t)(e - p) : len - *at;
	*at += *n + (e ? 1 : 0);
	return true;
}

/* Whether Mesa's line m matches the predicted line p (its wildcards). */
static bool line_match(const char *p, size_t pl, const char *m, size_t ml)
{
	size_t i = 0, j = 0;
	while (i < pl) {
		char c = p[i++];
		if (c == ANY_REST)
			return true;
		if (c == ANY_OPERAND) {
			int depth = 0;
			for (; j < ml; j++) {
				char d = m[j];
				if (d == '<' || d == '[')
					depth++;
				else if ((d == '>' || d == ']') && depth)
					depth--;
				else if (!depth && d == ',' && j + 1 < ml && m[j + 1] == ' ')
					break;
			}
			continue;
		}
		if (j >= ml || m[j] != c)
			return false;
		j++;
	}
	return j == ml;
}

/* ---------------------------------------------------------------- model */

struct oraclemap_midgard {
	const codec *c;
	const spec_program *program;
	const spec_root *vector;  /* #vector-alu: the name of an opcode on a scalar unit */
	const spec_root *ldst_op; /* #load-store-op: one load/store word on its own */
};

/* A part's decoding with its own storage. */
typedef struct om_dec {
	codec_decoded d;
	codec_value values[96];
	codec_issue issues[16];
} om_dec;

/* The ALU units in bundle order, their step names and kinds. */
enum { U_VMUL, U_SADD, U_VADD, U_SMUL, U_VLUT, UNITS };
static const char *const unit_names[UNITS] = {"vmul", "sadd", "vadd", "smul", "vlut"};
static bool unit_vector(int u)
{
	return u == U_VMUL || u == U_VADD || u == U_VLUT;
}

/* One bundle as our framing cut it. */
typedef struct om_bundle {
	int kind;                     /* OM_KIND_*; -1 for a rejected tag */
	size_t bit, end;              /* its bits in the program */
	const codec_item *first;      /* control, load-store, texture or unknown data */
	const codec_item *reg[UNITS], *unit[UNITS];
	const codec_item *compact, *extended, *constants;
	bool has_imm[UNITS];
	int64_t imm[UNITS];
	bool pad_bad;                 /* padding that must be zero is not */
	const codec_frame_error *fatal; /* the walk stopped here */
} om_bundle;

/* One part's validity on both sides. */
typedef struct om_check {
	char what[64];
	bool unclean;   /* our spec flags it */
	bool marker;    /* Mesa's text carries an error marker for it */
	const char *marker_text; /* the first such marker */
	int quirk;      /* a quirk explains a difference (-1: none) */
} om_check;

typedef struct om_ctx {
	oraclemap_midgard *om;
	oraclemap_midgard_result *r;
	const uint32_t *words;
	size_t nwords;
	om_text t;                    /* the current bundle's predicted lines */
	uint16_t written;             /* Mesa's heuristic: r0-r15 written so far */
	unsigned *tags;               /* Mesa's per-word table of branch-target tags */
	char err[300];                /* our decoding lacks what the mapping needs */
	om_check checks[24];
	size_t nchecks;
} om_ctx;

static bool decode_item(const om_ctx *x, const codec_item *it, om_dec *out)
{
	memset(&out->d, 0, sizeof out->d);
	out->d.values = out->values;
	out->d.cap_values = N(out->values);
	out->d.issues = out->issues;
	out->d.cap_issues = N(out->issues);
	/* false means an issue; the leaf (and its values) is what counts here */
	codec_decode(x->om->c, it->root, it->w, 0, &out->d);
	return out->d.leaf != NULL;
}

/* Bits lo..lo+n-1 of an item (n <= 32). */
static uint32_t item_bits(const codec_item *it, unsigned lo, unsigned n)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < n && lo + i < it->bits; i++)
		if ((it->w[(lo + i) / 64] >> ((lo + i) % 64)) & 1u)
			v |= UINT32_C(1) << i;
	return v;
}

/* A field's value: of the instruction (word NULL) or of the bitset field
 * `word` (WORD1, WORD2 of a load/store bundle). */
static const codec_value *find_value(const codec_decoded *d, const char *word, const char *name)
{
	const char *cur = NULL;
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		if (v->depth == 0) {
			if (!word && !strcmp(v->field->name, name))
				return v;
			cur = v->sub ? v->field->name : NULL;
		} else if (word && v->depth == 1 && cur && !strcmp(cur, word) &&
		           !strcmp(v->field->name, name)) {
			return v;
		}
	}
	return NULL;
}

static const codec_value *need(om_ctx *x, const codec_decoded *d, const char *word,
                               const char *name)
{
	const codec_value *v = find_value(d, word, name);
	if (!v && !*x->err)
		snprintf(x->err, sizeof x->err, "our decoding of %s has no field %s%s%s",
		         d->leaf ? d->leaf->name : "?", word ? word : "", word ? "." : "", name);
	return v;
}

static int64_t val(om_ctx *x, const codec_decoded *d, const char *word, const char *name)
{
	const codec_value *v = need(x, d, word, name);
	return v ? v->value : 0;
}

/* The name our spec's enum gives a field's value; NULL when the enum has
 * none (the caller prints Mesa's marker for an unknown value). */
static const char *name_of(om_ctx *x, const codec_decoded *d, const char *word, const char *name)
{
	const codec_value *v = need(x, d, word, name);
	if (!v)
		return NULL;
	if (v->field->type != SPEC_TYPE_ENUM || !v->field->enm) {
		if (!*x->err)
			snprintf(x->err, sizeof x->err, "field %s of %s is not an enum", name,
			         d->leaf ? d->leaf->name : "?");
		return NULL;
	}
	const spec_enum_value *e = spec_enum_lookup(v->field->enm, v->value);
	return e ? e->display : NULL;
}

/* The enum a field has in this decoding ("#int-outmod", ...), or "". */
static const char *enum_of(om_ctx *x, const codec_decoded *d, const char *name)
{
	const codec_value *v = need(x, d, NULL, name);
	return v && v->field->enm ? v->field->enm->name : "";
}

/* Index of s in a table of names, -1 when absent. */
static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* Our leaf's name without the v./s. prefix of ALU leaves. */
static const char *base_name(const spec_bitset *leaf)
{
	const char *n = leaf->name;
	return (n[0] == 'v' || n[0] == 's') && n[1] == '.' ? n + 2 : n;
}

static const char *leaf_display(const spec_bitset *leaf)
{
	return leaf->displayname ? leaf->displayname : leaf->name;
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Records a part's validity on both sides. */
static om_check *check(om_ctx *x, const char *what, bool unclean)
{
	if (x->nchecks == N(x->checks))
		return &x->checks[N(x->checks) - 1];
	om_check *c = &x->checks[x->nchecks++];
	snprintf(c->what, sizeof c->what, "%s", what);
	c->unclean = unclean;
	c->marker = false;
	c->marker_text = NULL;
	c->quirk = -1;
	return c;
}

/* Mesa marks the part as an error with this text. */
static void mark(om_check *c, const char *text)
{
	if (!c->marker)
		c->marker_text = text;
	c->marker = true;
}

static void quirk(om_ctx *x, int q)
{
	x->r->quirks[q]++;
}

/* ------------------------------------------------------------- the names
 *
 * Mesa's names for our names.  Tags: our #tag enum's names in Mesa's
 * numbering, and Mesa's short names. */

static const char *const our_tags[16] = {
	"invalid", "break", "texture-vtx", "texture", "texture-barrier", "load-store",
	"unknown-6", "unknown-7", "alu4", "alu8", "alu12", "alu16",
	"alu4-writeout", "alu8-writeout", "alu12-writeout", "alu16-writeout",
};
static const char *const mesa_tags[16] = {
	"invalid", "break", "tex/vt", "tex", "tex/bar", "ldst", "unk1", "unk2",
	"alu/4", "alu/8", "alu/12", "alu/16", "aluw/4", "aluw/8", "aluw/12", "aluw/16",
};

/* Mesa's number of a tag our enum (or control leaf) names; -1 if unknown. */
static int tag_number(const char *ours)
{
	return lookup(our_tags, N(our_tags), ours);
}

static const char *mesa_tag(int n)
{
	return n >= 0 && n < 16 ? mesa_tags[n] : "?";
}

static const char comps[] = "xyzwefghijklmnop";

static char comp(unsigned i)
{
	return i < 16 ? comps[i] : '?';
}

/* Selector i (0-3) of a swizzle, from the letters of our #swizzle name
 * (lane 0 first); -1 when the name is not four of xyzw. */
static int selector(const char *name, unsigned i)
{
	if (!name || strlen(name) != 4)
		return -1;
	const char *p = strchr("xyzw", name[i]);
	return p && *p ? (int)(p - "xyzw") : -1;
}

/* ------------------------------------------------------------------ ALU */

/* Mesa's register names for an ALU operand: r24/r25 TMP, r26/r27 AL,
 * r28/r29 AT (written) or TA (read), r31 read PC_SP, r16-r23 and the
 * r8-r15 not yet written U(23 - r), the rest R. */
static void alu_reg(om_ctx *x, unsigned reg, bool write)
{
	om_text *t = &x->t;
	bool uniform = (reg >= 8 && reg < 16 && !(x->written & (1u << reg))) ||
	               (reg >= 16 && reg <= 23);
	if (reg == 24 || reg == 25)
		tx_printf(t, "TMP%u", reg - 24);
	else if (reg == 28 || reg == 29)
		tx_printf(t, "%s%u", write ? "AT" : "TA", reg - 28);
	else if (reg == 26 || reg == 27)
		tx_printf(t, "AL%u", reg - 26);
	else if (uniform)
		tx_printf(t, "U%u", 23 - reg);
	else if (reg == 31 && !write)
		tx_puts(t, "PC_SP");
	else
		tx_printf(t, "R%u", reg);
}

static void note_write(om_ctx *x, unsigned reg)
{
	if (reg < 16)
		x->written |= (uint16_t)(1u << reg);
}

static void alu_dest(om_ctx *x, unsigned reg)
{
	note_write(x, reg);
	alu_reg(x, reg, true);
}

static unsigned popcount(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The 8-bit mask (one bit per 16-bit lane) as one bit per lane of `bits`:
 * 8-bit lanes take each bit twice, wider lanes their first bit. */
static uint32_t lanes_of_mask(unsigned mask, unsigned bits)
{
	uint32_t o = 0;
	if (bits == 8) {
		for (unsigned i = 0; i < 8; i++)
			if (mask & (1u << i))
				o |= 3u << (2 * i);
		return o;
	}
	unsigned step = bits / 16;
	for (unsigned i = 0; step && i < 128 / bits; i++)
		if (mask & (1u << (i * step)))
			o |= 1u << i;
	return o;
}

/* One bit per lane back to the 8-bit mask, each lane taking 8 / lanes bits. */
static unsigned mask_of_lanes(unsigned lanes_mask, unsigned lanes)
{
	unsigned per = 8 / lanes, o = 0;
	for (unsigned i = 0; per && i < lanes; i++)
		if (lanes_mask & (1u << i))
			o |= ((1u << per) - 1u) << (per * i);
	return o;
}

/* How many components a reduction reads (FDOT3: 3; FDOT4 and the
 * all/any compares: 4); 0 for other opcodes.  Mesa's remark on a mask
 * that writes more than one component comes from this. */
static unsigned reduction_width(const char *base)
{
	static const char *const three[] = {"fdot3", "fdot3r", NULL};
	if (in_list(base, three))
		return 3;
	if (!strcmp(base, "fdot4") || starts(base, "fball_") || starts(base, "fbany_") ||
	    starts(base, "iball_") || starts(base, "ibany_") || starts(base, "uball_") ||
	    starts(base, "ubany_"))
		return 4;
	return 0;
}

/* Mesa's codes for our #expand names (its numbering). */
static const char *const expand_names[8] = {
	"", ".rep_low", ".rep_high", ".swap", ".expand_low", ".expand_high",
	".expand_low_swap", ".expand_high_swap",
};

/* Where the two halves of a vector source's selectors start in Mesa's
 * component letters, for an expand mode (register sources). */
static void halves(unsigned expand, unsigned bits, unsigned *first, unsigned *second)
{
	unsigned eb = expand >= 4 ? bits / 2 : bits;
	unsigned s = eb ? (128 / eb) / 2 : 0;
	*first = 0;
	*second = s;
	switch (expand) {
	case 1: *second = 0; break;
	case 2: *first = s; break;
	case 3: *first = s; *second = 0; break;
	case 4: *second = s / 2; break;
	case 5: *first = s; *second = s + s / 2; break;
	case 6: *first = s / 2; *second = 0; break;
	case 7: *first = s + s / 2; break;
	default: break;
	}
}

/* A vector register source's letters, as Mesa prints them: the lanes the
 * mask keeps, each a component letter (two for 8-bit lanes; X/Y or a
 * [pair] for 64-bit ones); nothing for the identity swizzle without an
 * expand mode. */
static void vector_swizzle(om_ctx *x, const int sel[4], bool identity, unsigned expand,
                           unsigned bits, unsigned mask)
{
	om_text *t = &x->t;
	if (expand == 0 && identity)
		return;
	unsigned first, second;
	halves(expand, bits, &first, &second);
	tx_putc(t, '.');
	if (bits == 64) {
		bool expands = expand >= 4;
		unsigned mbit = 0;
		for (unsigned i = first; i < 4; i += expands ? 1 : 2, mbit += 4) {
			if (!(mask & (1u << mbit)))
				continue;
			unsigned a = (unsigned)sel[i];
			if (expands) {
				tx_putc(t, comp((a + (expand == 5 ? 2 : 0)) / 2));
				continue;
			}
			unsigned b = i + 1 < 4 ? (unsigned)sel[i + 1] : 0;
			if (b == a + 1)
				tx_putc(t, a >> 1 ? 'Y' : 'X');
			else
				tx_printf(t, "[%c%c]", comp(a), comp(b));
		}
		return;
	}
	unsigned skip = bits / 16 ? bits / 16 : 1, moff = 0;
	for (int half = 0; half < (bits <= 16 ? 2 : 1); half++)
		for (unsigned i = 0; i < 4; i++, moff += skip) {
			if (!(mask & (1u << moff)))
				continue;
			unsigned c = (unsigned)sel[i] * (bits == 8 ? 2 : 1) + (half ? second : first);
			tx_putc(t, comp(c));
			if (bits == 8)
				tx_putc(t, comp(c + 1));
		}
}

/* The destination mask: nothing for a full mask without shrink, else the
 * letters of the lanes written (shifted to the upper half by an upper
 * shrink), and the raw mask in a remark when a lane's bits disagree. */
static void alu_mask(om_ctx *x, unsigned mask, unsigned bits, unsigned shrink)
{
	om_text *t = &x->t;
	if (shrink == 2 && mask == 0xFF)
		return;
	tx_putc(t, '.');
	unsigned skip = bits / 16 ? bits / 16 : 1, off = shrink == 1 ? 128 / bits : 0;
	bool tripped = false;
	for (unsigned i = 0; i < 8; i += skip) {
		bool a = (mask >> i) & 1u;
		for (unsigned j = 1; j < skip; j++)
			tripped |= ((mask >> (i + j)) & 1u) != a;
		if (!a)
			continue;
		unsigned ci = bits == 8 ? i * 2 : i;
		tx_putc(t, comp(off + ci / skip));
		if (bits == 8)
			tx_putc(t, comp(off + ci + 1));
	}
	if (tripped)
		tx_printf(t, " /* %X */", mask);
}

/* How an opcode's constants print: by its input type, unsigned opcodes
 * in decimal, bitwise ones (iand ... ipopcnt) in hex. */
typedef struct optype {
	bool is_int, is_uint, is_hex;
} optype;

static optype optype_of(const char *base, bool is_int)
{
	static const char *const bitwise[] = {"iand", "ior", "inand", "inor", "iandnot", "iornot",
	                                      "ixor", "inxor", "iclz", "ipopcnt", NULL};
	optype o = {is_int, false, false};
	if (is_int) {
		o.is_uint = base[0] == 'u';
		o.is_hex = !o.is_uint && in_list(base, bitwise);
	}
	return o;
}

static float half_to_float(uint16_t h)
{
	unsigned s = h >> 15, e = (h >> 10) & 31u, m = h & 1023u;
	uint32_t f;
	if (e == 0) {
		float v = ldexpf((float)m, -24);
		return s ? -v : v;
	}
	if (e == 31)
		f = (uint32_t)s << 31 | 0x7F800000u | (uint32_t)m << 13;
	else
		f = (uint32_t)s << 31 | (uint32_t)(e + 112) << 23 | (uint32_t)m << 13;
	float out;
	memcpy(&out, &f, sizeof out);
	return out;
}

/* Constant element c of `bits` (16 bytes, little-endian) as Mesa prints
 * it for an operand: typed by the opcode, float modifiers applied, an
 * integer modifier widening a half-width element (zext, lshift). */
static void print_constant(om_text *t, const uint8_t k[16], unsigned c, unsigned bits, bool half,
                           unsigned mod, optype ty)
{
	if (half)
		bits /= 2;
	bool sint = ty.is_int && !ty.is_uint && !ty.is_hex;
	uint64_t u = 0;
	unsigned bytes = bits / 8;
	if (!bytes || (c + 1) * bytes > 16)
		return; /* 4-bit elements: Mesa prints nothing */
	for (unsigned i = 0; i < bytes; i++)
		u |= (uint64_t)k[c * bytes + i] << (8 * i);
	switch (bits) {
	case 64:
		if (sint) {
			tx_printf(t, "%lld", (long long)(int64_t)u);
		} else if (ty.is_int) {
			tx_printf(t, ty.is_uint ? "%llu" : "0x%llX", (unsigned long long)u);
		} else {
			double v;
			memcpy(&v, &u, sizeof v);
			if (mod & 1)
				v = fabs(v);
			if (mod & 2)
				v = -v;
			tx_printf(t, "%g", v);
		}
		break;
	case 32: {
		uint32_t w = (uint32_t)u;
		if (sint) {
			int64_t v = half && mod == 1   ? (int64_t)w
			            : half && mod == 3 ? (int64_t)((uint64_t)w << 32)
			                               : (int64_t)(int32_t)w;
			tx_printf(t, "%lld", (long long)v);
		} else if (ty.is_int) {
			uint64_t v = half && mod == 3 ? (uint64_t)w << 32 : w;
			tx_printf(t, ty.is_uint ? "%llu" : "0x%llX", (unsigned long long)v);
		} else {
			float v;
			memcpy(&v, &w, sizeof v);
			if (mod & 1)
				v = fabsf(v);
			if (mod & 2)
				v = -v;
			tx_printf(t, "%g", (double)v);
		}
		break;
	}
	case 16: {
		uint16_t h = (uint16_t)u;
		if (sint) {
			int32_t v = half && mod == 1   ? (int32_t)h
			            : half && mod == 3 ? (int32_t)((uint32_t)h << 16)
			                               : (int32_t)(int16_t)h;
			tx_printf(t, "%d", v);
		} else if (ty.is_int) {
			uint32_t v = half && mod == 3 ? (uint32_t)h << 16 : h;
			tx_printf(t, ty.is_uint ? "%u" : "0x%X", v);
		} else {
			float v = half_to_float(h);
			if (mod & 1)
				v = fabsf(v);
			if (mod & 2)
				v = -v;
			tx_printf(t, "%g", (double)v);
		}
		break;
	}
	case 8:
		tx_printf(t, "0x%X", (unsigned)(uint8_t)u);
		if (mod)
			tx_printf(t, " /* %u */", mod);
		break;
	default:
		break;
	}
}

/* The constants quadword of a bundle as 16 bytes. */
static void constant_bytes(const om_bundle *b, uint8_t k[16])
{
	memset(k, 0, 16);
	for (unsigned i = 0; b->constants && i < 16 && i < b->constants->bits / 8; i++)
		k[i] = (uint8_t)(b->constants->w[i / 8] >> (8 * (i % 8)));
}

/* The constant a lane of a vector constant source reads, as Mesa's
 * register printer names it for the same fields (its letter's index, in
 * elements of `bits`); -1 when the letters name no element (a 64-bit
 * lane whose two selectors are not a pair). */
static int lane_element(const int sel[4], unsigned expand, unsigned bits, unsigned lane)
{
	unsigned first, second;
	halves(expand, bits, &first, &second);
	if (bits == 64) {
		unsigned i = first + 2 * lane;
		if (i > 3)
			return -1;
		unsigned a = (unsigned)sel[i], b = i + 1 < 4 ? (unsigned)sel[i + 1] : 0;
		return b == a + 1 && !(a & 1) ? (int)(a >> 1) : -1;
	}
	if (bits == 8) {
		unsigned k = lane >> 1;
		return sel[k & 3] * 2 + (int)(k < 4 ? first : second) + (int)(lane & 1);
	}
	if (bits == 16)
		return sel[lane & 3] + (int)(lane < 4 ? first : second);
	return sel[lane & 3] + (int)first;
}

/* The constant Mesa's constant printer reads for a lane: the lane's own
 * selector (none past the fourth), moved by the expand mode at 8 and 16
 * bits only. */
static int mesa_element(const int sel[4], unsigned expand, unsigned bits, unsigned lane)
{
	int s = lane < 4 ? sel[lane] : 0;
	if (bits == 16) {
		bool upper = lane >= 4;
		switch (expand) {
		case 0: return s + (upper ? 4 : 0);
		case 2: return s + 4;
		case 3: return s + (upper ? 0 : 4);
		default: return s;
		}
	}
	if (bits == 8) {
		bool upper = lane >= 8;
		int c = sel[(lane >> 1) & 3] * 2;
		switch (expand) {
		case 0: c += upper ? 8 : 0; break;
		case 2: c += 8; break;
		case 3: c += upper ? 0 : 8; break;
		default: break;
		}
		return c + (int)(lane & 1);
	}
	return s;
}

typedef struct vsrc {
	unsigned reg;
	unsigned mod;         /* float: bit 0 abs, bit 1 neg; int: Mesa's int-mod code */
	unsigned expand;      /* Mesa's code */
	int sel[4];
	bool identity;        /* the swizzle is xyzw */
} vsrc;

/* A vector constant source (r26): "#v" for one lane, "<v, v, ...>" for
 * more, the lanes the mask (or the reduction) keeps. */
static void vector_constants(om_ctx *x, const om_bundle *b, const vsrc *s, unsigned bits,
                             unsigned mask, unsigned rep, optype ty)
{
	om_text *t = &x->t;
	if (s->expand >= 4) {
		quirk(x, OM_QUIRK_CONSTANT_EXPAND);
		tx_putc(t, ANY_OPERAND);
		return;
	}
	unsigned lanes = 128 / bits;
	uint32_t keep = rep ? (1u << rep) - 1u : lanes_of_mask(mask, bits);
	for (unsigned i = 0; i < lanes; i++)
		if ((keep >> i) & 1u) {
			int want = lane_element(s->sel, s->expand, bits, i);
			if (want < 0 || want != mesa_element(s->sel, s->expand, bits, i)) {
				quirk(x, bits == 64 ? OM_QUIRK_CONSTANT64 : OM_QUIRK_CONSTANT_LANES);
				tx_putc(t, ANY_OPERAND);
				return;
			}
		}
	uint8_t k[16];
	constant_bytes(b, k);
	unsigned n = popcount(keep);
	tx_putc(t, n > 1 ? '<' : '#');
	bool first = true;
	for (unsigned i = 0; i < lanes; i++)
		if ((keep >> i) & 1u) {
			if (!first)
				tx_puts(t, ", ");
			first = false;
			print_constant(t, k, (unsigned)mesa_element(s->sel, s->expand, bits, i), bits,
			               false, s->mod, ty);
		}
	if (n > 1)
		tx_putc(t, '>');
	x->r->constants++;
}

static const char *const int_mod_mesa[4] = {".sext", ".zext", ".replicate", ".lshift"};
static const char *const int_mod_ours[4] = {"", ".zext", ".replicate", ".lshift"};

/* A source modifier from our #float-mod or #int-mod name, in Mesa's code. */
static unsigned mod_code(const char *name, bool is_int, unsigned raw)
{
	if (!name)
		return raw;
	if (is_int) {
		int i = lookup(int_mod_ours, N(int_mod_ours), name);
		return i < 0 ? raw : (unsigned)i;
	}
	return (strstr(name, "abs") ? 1u : 0u) | (strstr(name, "neg") ? 2u : 0u);
}

static void srcmod(om_ctx *x, bool is_int, bool expands, unsigned mod)
{
	om_text *t = &x->t;
	if (is_int) {
		if (expands)
			tx_puts(t, int_mod_mesa[mod & 3]);
		return;
	}
	if (mod & 1)
		tx_puts(t, ".abs");
	if (mod & 2)
		tx_puts(t, ".neg");
	if (expands)
		tx_puts(t, ".widen");
}

/* Reads source n (1 or 2) of a vector decoding. */
static vsrc read_vsrc(om_ctx *x, const codec_decoded *d, int n, unsigned reg, bool is_int)
{
	char f_mod[16], f_exp[16], f_swz[16];
	snprintf(f_mod, sizeof f_mod, "SRC%d_MOD", n);
	snprintf(f_exp, sizeof f_exp, "SRC%d_EXPAND", n);
	snprintf(f_swz, sizeof f_swz, "SRC%d_SWIZZLE", n);
	vsrc s = {.reg = reg};
	s.mod = mod_code(name_of(x, d, NULL, f_mod), is_int, (unsigned)val(x, d, NULL, f_mod));
	int e = lookup(expand_names, N(expand_names), name_of(x, d, NULL, f_exp));
	s.expand = e < 0 ? (unsigned)val(x, d, NULL, f_exp) : (unsigned)e;
	const char *sw = name_of(x, d, NULL, f_swz);
	for (unsigned i = 0; i < 4; i++) {
		s.sel[i] = selector(sw, i);
		if (s.sel[i] < 0) {
			s.sel[i] = 0;
			if (!*x->err)
				snprintf(x->err, sizeof x->err, "%s of %s: our #swizzle name '%s' is not a "
				         "swizzle", f_swz, d->leaf->name, sw ? sw : "(none)");
		}
	}
	s.identity = s.sel[0] == 0 && s.sel[1] == 1 && s.sel[2] == 2 && s.sel[3] == 3;
	return s;
}

static void print_immediate(om_ctx *x, int64_t imm, bool is_int)
{
	if (is_int)
		tx_printf(&x->t, "#%u", (unsigned)(uint16_t)imm);
	else
		tx_printf(&x->t, "#%g", (double)half_to_float((uint16_t)imm));
	x->r->immediates++;
}

static const char *const float_outmods[4] = {"", ".clamp_0_inf", ".clamp_m1_1", ".clamp_0_1"};
static const char *const int_outmods_ours[4] = {".ssat", ".usat", "", ".keephi"};
static const char *const int_outmods_mesa[4] = {".ssat", ".usat", ".keeplo", ".keephi"};

/* The output modifier, as Mesa prints it: an integer result's only when
 * it is shrunk (keeplo is the rule otherwise), a float's always, after
 * ".shrink" when shrunk. */
static void outmod(om_ctx *x, const codec_decoded *d, bool is_int_out, bool shrunk)
{
	const char *name = name_of(x, d, NULL, "OUTMOD");
	int code = lookup(is_int_out ? int_outmods_ours : float_outmods, 4, name);
	if (code < 0)
		code = (int)(val(x, d, NULL, "OUTMOD") & 3);
	if (is_int_out) {
		if (shrunk)
			tx_puts(&x->t, int_outmods_mesa[code]);
		return;
	}
	if (shrunk)
		tx_puts(&x->t, ".shrink");
	tx_puts(&x->t, float_outmods[code]);
}

/* Whether an integer result's output modifier is not keeplo. */
static bool keeplo_broken(om_ctx *x, const codec_decoded *d)
{
	const char *name = name_of(x, d, NULL, "OUTMOD");
	return lookup(int_outmods_ours, N(int_outmods_ours), name) != 2;
}

/* The name Mesa prints for an ALU opcode our root for the unit lacks: the
 * name of our vector leaf of that opcode (any unit's), or NULL. */
static const char *any_unit_name(const om_ctx *x, unsigned op)
{
	om_dec d;
	uint64_t w[1] = {op};
	memset(&d.d, 0, sizeof d.d);
	d.d.values = d.values;
	d.d.cap_values = N(d.values);
	d.d.issues = d.issues;
	d.d.cap_issues = N(d.issues);
	if (!x->om->vector)
		return NULL;
	codec_decode(x->om->c, x->om->vector, w, 0, &d.d);
	if (!d.d.leaf)
		return NULL;
	return leaf_display(d.d.leaf);
}

/* An ALU unit our root does not decode: Mesa's name for its opcode (a
 * marker, or a quirk when Mesa names it) and any text after. */
static void alu_undecoded(om_ctx *x, om_check *chk, const codec_item *it, bool vector,
                          unsigned out)
{
	unsigned op = item_bits(it, 0, 8);
	const char *name = vector ? NULL : any_unit_name(x, op);
	/* the units that may run it, by the reference codec's table (facts
	 * from Mesa's opcode properties): a quirk only where none of this
	 * kind may; otherwise our root lacks an opcode it should have */
	unsigned kind = vector ? 1u << MIDGARD_UNIT_VMUL | 1u << MIDGARD_UNIT_VADD |
	                             1u << MIDGARD_UNIT_VLUT
	                       : 1u << MIDGARD_UNIT_SADD | 1u << MIDGARD_UNIT_SMUL;
	bool runs = (midgard_alu_op_units(op) & kind) != 0;
	if (op == 0x3F) {
		tx_puts(&x->t, "FREDUCE");
		if (!runs)
			chk->quirk = OM_QUIRK_FREDUCE;
	} else if (name) {
		tx_puts(&x->t, name);
		if (!runs)
			chk->quirk = OM_QUIRK_UNIT;
	} else {
		tx_printf(&x->t, "alu_op_%02X", op);
		mark(chk, "alu_op_XX");
	}
	tx_putc(&x->t, ANY_REST);
	tx_putc(&x->t, '\n');
	note_write(x, out);
}

/* The register word's fields. */
typedef struct regw {
	unsigned src1, src2, out;
	bool imm;
} regw;

static bool read_reg_word(om_ctx *x, const codec_item *it, regw *r)
{
	om_dec d;
	if (!it || !decode_item(x, it, &d)) {
		if (!*x->err)
			snprintf(x->err, sizeof x->err, "a register word does not decode");
		return false;
	}
	r->src1 = (unsigned)val(x, &d.d, NULL, "SRC1");
	r->src2 = (unsigned)val(x, &d.d, NULL, "SRC2");
	r->out = (unsigned)val(x, &d.d, NULL, "OUT");
	r->imm = val(x, &d.d, NULL, "SRC2_IMM") != 0;
	return true;
}

/* One vector unit's line. */
static void vector_line(om_ctx *x, const om_bundle *b, int u)
{
	om_text *t = &x->t;
	const codec_item *it = b->unit[u];
	om_dec dv;
	regw rw;
	bool ok = decode_item(x, it, &dv);
	om_check *chk = check(x, unit_names[u], !it->clean);
	if (!read_reg_word(x, b->reg[u], &rw))
		return;
	if (!ok) {
		alu_undecoded(x, chk, it, true, rw.out);
		return;
	}
	const codec_decoded *d = &dv.d;
	const char *base = base_name(d->leaf);
	bool is_int = !strcmp(enum_of(x, d, "SRC1_MOD"), "#int-mod");
	bool is_int_out = !strcmp(enum_of(x, d, "OUTMOD"), "#int-outmod");
	const char *mode = name_of(x, d, NULL, "REG_MODE");
	unsigned bits = mode ? (unsigned)atoi(mode) : 0;
	if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
		snprintf(x->err, sizeof x->err, "REG_MODE of %s names '%s', not 8, 16, 32 or 64",
		         d->leaf->name, mode ? mode : "(none)");
		return;
	}
	static const char *const shrinks[3] = {".lower", ".upper", ""};
	int shrink = lookup(shrinks, N(shrinks), name_of(x, d, NULL, "SHRINK"));
	if (shrink < 0)
		shrink = (int)val(x, d, NULL, "SHRINK");
	unsigned mask = (unsigned)val(x, d, NULL, "MASK") & 0xFFu;
	unsigned rep = reduction_width(base);

	tx_printf(t, "%s.%c%u ", leaf_display(d->leaf), is_int_out ? 'i' : 'f', bits);
	alu_dest(x, rw.out);
	if (shrink != 2 && (bits == 8 || shrink == 3)) {
		tx_printf(t, "/* do%d */ ", shrink);
		mark(chk, "/* doN */ (shrink)");
	}
	if (rep && popcount(lanes_of_mask(mask, bits)) != 1) {
		tx_puts(t, "/* err too many components */");
		mark(chk, "/* err too many components */");
	}
	alu_mask(x, mask, bits, (unsigned)shrink);
	outmod(x, d, is_int_out, shrink != 2);
	/* our spec requires keeplo of an integer result not shrunk; Mesa
	 * asserts it, and prints nothing either way */
	if (is_int_out && shrink == 2 && !chk->marker && !it->clean && keeplo_broken(x, d))
		chk->quirk = OM_QUIRK_INT_OUTMOD;
	/* a reduction reads its first components whatever the mask */
	unsigned src_mask = mask;
	if (rep)
		src_mask = bits == 8 ? 0 : mask_of_lanes((1u << rep) - 1u, 128 / bits);
	optype ty = optype_of(base, is_int);
	for (int n = 1; n <= 2; n++) {
		tx_puts(t, ", ");
		unsigned reg = n == 1 ? rw.src1 : rw.src2;
		if (n == 2 && rw.imm) {
			if (!b->has_imm[u]) {
				snprintf(x->err, sizeof x->err, "no joined immediate %s.imm", unit_names[u]);
				return;
			}
			print_immediate(x, b->imm[u], is_int);
			continue;
		}
		vsrc s = read_vsrc(x, d, n, reg, is_int);
		if (reg == 26) {
			vector_constants(x, b, &s, bits, mask, rep, ty);
			continue;
		}
		alu_reg(x, reg, false);
		vector_swizzle(x, s.sel, s.identity, s.expand, bits, src_mask);
		if (n == 1 && (!strcmp(base, "ishladd") || !strcmp(base, "ishlsub")))
			tx_puts(t, ".x2");
		srcmod(x, is_int, s.expand >= 4, s.mod);
	}
	tx_putc(t, '\n');
}

/* A scalar lane from our #scalar-lane name: x-w a 32-bit component,
 * h plus a letter a 16-bit one. */
static bool scalar_lane(const char *name, bool *full, unsigned *c)
{
	if (!name)
		return false;
	const char *p;
	if (name[0] == 'h' && name[1] && !name[2] && (p = strchr("xyzwefgh", name[1]))) {
		*full = false;
		*c = (unsigned)(p - "xyzwefgh");
		return true;
	}
	if (name[0] && !name[1] && (p = strchr("xyzw", name[0]))) {
		*full = true;
		*c = (unsigned)(p - "xyzw");
		return true;
	}
	return false;
}

static bool read_lane(om_ctx *x, const codec_decoded *d, const char *field, bool *full,
                      unsigned *c)
{
	const char *name = name_of(x, d, NULL, field);
	if (scalar_lane(name, full, c))
		return true;
	if (!*x->err)
		snprintf(x->err, sizeof x->err, "%s of %s: '%s' names no scalar lane", field,
		         d->leaf->name, name ? name : "(none)");
	return false;
}

/* One scalar unit's line(s). */
static void scalar_line(om_ctx *x, const om_bundle *b, int u)
{
	om_text *t = &x->t;
	const codec_item *it = b->unit[u];
	om_dec dv;
	regw rw;
	bool ok = decode_item(x, it, &dv);
	om_check *chk = check(x, unit_names[u], !it->clean);
	if (!read_reg_word(x, b->reg[u], &rw))
		return;
	/* bit 25: our don't-care bit, Mesa's reserved-bit warning */
	if (item_bits(it, 25, 1)) {
		tx_puts(t, "scalar ALU reserved bit set\n");
		mark(chk, "scalar ALU reserved bit set");
	}
	if (!ok) {
		alu_undecoded(x, chk, it, false, rw.out);
		return;
	}
	const codec_decoded *d = &dv.d;
	const char *base = base_name(d->leaf);
	bool is_int = !strcmp(enum_of(x, d, "SRC1_MOD"), "#int-mod");
	bool is_int_out = !strcmp(enum_of(x, d, "OUTMOD"), "#int-outmod");
	bool full;
	unsigned c;
	tx_printf(t, "%s.%c32 ", leaf_display(d->leaf), is_int_out ? 'i' : 'f');
	alu_dest(x, rw.out);
	if (!read_lane(x, d, "OUTPUT_LANE", &full, &c))
		return;
	tx_printf(t, ".%c", comp(c));
	outmod(x, d, is_int_out, !full);
	if (is_int_out && full && keeplo_broken(x, d))
		chk->quirk = OM_QUIRK_INT_OUTMOD;
	optype ty = optype_of(base, is_int);
	for (int n = 1; n <= 2; n++) {
		char f_mod[16], f_lane[16];
		snprintf(f_mod, sizeof f_mod, "SRC%d_MOD", n);
		snprintf(f_lane, sizeof f_lane, "SRC%d_LANE", n);
		tx_puts(t, ", ");
		unsigned reg = n == 1 ? rw.src1 : rw.src2;
		if (n == 2 && rw.imm) {
			if (!b->has_imm[u]) {
				snprintf(x->err, sizeof x->err, "no joined immediate %s.imm", unit_names[u]);
				return;
			}
			print_immediate(x, b->imm[u], is_int);
			continue;
		}
		unsigned mod = mod_code(name_of(x, d, NULL, f_mod), is_int,
		                        (unsigned)val(x, d, NULL, f_mod));
		if (!read_lane(x, d, f_lane, &full, &c))
			return;
		if (reg == 26) {
			/* Mesa indexes a 32-bit constant by the 16-bit component,
			 * which names another (or none) unless it is 0 */
			char f_comp[24];
			snprintf(f_comp, sizeof f_comp, "SRC%d_COMPONENT", n);
			if (full && val(x, d, NULL, f_comp) != 0) {
				quirk(x, OM_QUIRK_SCALAR_CONSTANT);
				tx_putc(t, ANY_OPERAND);
				continue;
			}
			uint8_t k[16];
			constant_bytes(b, k);
			tx_putc(t, '#');
			print_constant(t, k, c, full ? 32 : 16, false, mod, ty);
			x->r->constants++;
			continue;
		}
		alu_reg(x, reg, false);
		tx_printf(t, ".%c", comp(c));
		srcmod(x, is_int, !full, mod);
	}
	tx_putc(t, '\n');
}

/* ------------------------------------------------------------- branches */

/* Mesa's word for a branch operation, by our leaf ("br-cond-compact"
 * is a conditional branch, ...). */
static const char *branch_op(const char *leaf)
{
	static const struct {
		const char *ours, *mesa;
	} ops[] = {
		{"br-compact", "uncond."}, {"br-extended", "uncond."},
		{"br-cond-compact", "cond."}, {"br-cond-extended", "cond."},
		{"discard-compact", "discard."}, {"discard-extended", "discard."},
		{"tilebuffer-pending-compact", "tilebuffer."},
		{"tilebuffer-pending-extended", "tilebuffer."},
		{"writeout-compact", "write."}, {"writeout-extended", "write."},
	};
	for (size_t i = 0; i < N(ops); i++)
		if (!strcmp(leaf, ops[i].ours))
			return ops[i].mesa;
	return NULL;
}

static const char *const call_modes_ours[4] = {NULL, "", ".call", ".return"};
static const char *const conds_ours[4] = {".write0", ".false", ".true", ""};
static const char *const conds_mesa[4] = {"write0", "false", "true", "always"};

/* " +3 -> alu/8": the offset in quadwords, the target's tag. */
static void branch_target(om_ctx *x, const codec_decoded *d)
{
	int64_t off = val(x, d, NULL, "OFFSET");
	int tag = tag_number(name_of(x, d, NULL, "DEST_TAG"));
	tx_printf(&x->t, " %s%lld -> %s", off >= 0 ? "+" : "", (long long)off, mesa_tag(tag));
}

static const char *call_mode(om_ctx *x, const codec_decoded *d, om_check *chk)
{
	int i = lookup(call_modes_ours, N(call_modes_ours), name_of(x, d, NULL, "CALL_MODE"));
	if (i < 0) {
		mark(chk, ".reserved (call mode)");
		return ".reserved";
	}
	return call_modes_ours[i];
}

/* The compact branch: returns whether it branches forward (Mesa then
 * goes on past a break). */
static bool compact_line(om_ctx *x, const om_bundle *b)
{
	om_text *t = &x->t;
	om_dec dd;
	om_check *chk = check(x, "compact branch", !b->compact->clean);
	x->r->branches++;
	if (!decode_item(x, b->compact, &dd)) {
		/* operations 0, 3 and 5: Mesa's "unkN." */
		tx_printf(t, "br.unk%u.", item_bits(b->compact, 0, 3));
		tx_putc(t, ANY_REST);
		tx_putc(t, '\n');
		mark(chk, "br.unkN");
		/* the conditional layout: the offset's sign is bit 13 */
		return item_bits(b->compact, 13, 1) == 0;
	}
	const codec_decoded *d = &dd.d;
	const char *op = branch_op(d->leaf->name);
	if (!op) {
		snprintf(x->err, sizeof x->err, "compact branch leaf %s unknown", d->leaf->name);
		return false;
	}
	if (!strcmp(op, "uncond.")) {
		tx_printf(t, "br.uncond%s", call_mode(x, d, chk));
	} else {
		int cond = lookup(conds_ours, N(conds_ours), name_of(x, d, NULL, "COND"));
		tx_printf(t, "br.%s%s", op, cond < 0 ? "?" : conds_mesa[cond]);
	}
	branch_target(x, d);
	tx_putc(t, '\n');
	return val(x, d, NULL, "OFFSET") >= 0;
}

/* The extended branch: its line, the table of branch-target tags Mesa
 * keeps (word index of the target: the word after this bundle plus four
 * per quadword of offset), and its remark when two branches give one
 * target different tags. */
static bool extended_line(om_ctx *x, const om_bundle *b)
{
	om_text *t = &x->t;
	om_dec dd;
	om_check *chk = check(x, "extended branch", !b->extended->clean);
	x->r->branches++;
	size_t next = b->end / 32;
	if (!decode_item(x, b->extended, &dd)) {
		tx_puts(t, "brx");
		tx_putc(t, ANY_REST);
		tx_putc(t, '\n');
		mark(chk, "brx...unkN");
		/* the table entry is written all the same */
		int32_t off = (int32_t)(item_bits(b->extended, 9, 23) << 9) >> 9;
		unsigned dest = item_bits(b->extended, 3, 4);
		size_t at = next + (size_t)((int64_t)off * 4);
		if (at < x->nwords) {
			if (x->tags[at] && x->tags[at] != dest)
				tx_printf(t, "\t/* XXX TAG ERROR: jumping to %s but tagged %s \n",
				          mesa_tag((int)dest), mesa_tag((int)x->tags[at]));
			x->tags[at] = dest;
		}
		return off >= 0;
	}
	const codec_decoded *d = &dd.d;
	const char *op = branch_op(d->leaf->name);
	if (!op) {
		snprintf(x->err, sizeof x->err, "extended branch leaf %s unknown", d->leaf->name);
		return false;
	}
	unsigned cond = (unsigned)val(x, d, NULL, "COND") & 0xFFFFu;
	bool single = true;
	for (unsigned i = 0; i < 16; i += 2)
		single &= ((cond >> i) & 3u) == (cond & 3u);
	tx_printf(t, "brx%s.%s", call_mode(x, d, chk), op);
	if (single)
		tx_puts(t, conds_mesa[cond & 3u]);
	else
		tx_printf(t, "lut%X", cond);
	branch_target(x, d);
	tx_putc(t, '\n');
	int64_t off = val(x, d, NULL, "OFFSET");
	int dest = tag_number(name_of(x, d, NULL, "DEST_TAG"));
	int64_t at = (int64_t)next + off * 4;
	if (at >= 0 && (size_t)at < x->nwords && dest >= 0) {
		if (x->tags[at] && x->tags[at] != (unsigned)dest)
			tx_printf(t, "\t/* XXX TAG ERROR: jumping to %s but tagged %s \n", mesa_tag(dest),
			          mesa_tag((int)x->tags[at]));
		x->tags[at] = (unsigned)dest;
	}
	return off >= 0;
}

/* ------------------------------------------------------------- ALU bundle */


/* An ALU bundle's lines: the unknown-bit warnings between the units
 * (our don't-care bits 16, 18, 20, 22, 24), the units in bundle order,
 * the branches, the constants, "writeout" for the writeout tags.
 * Returns whether a branch goes forward. */
static bool alu_bundle(om_ctx *x, const om_bundle *b, unsigned tag)
{
	om_text *t = &x->t;
	const codec_item *ctl = b->first;
	uint32_t control = item_bits(ctl, 0, 32);
	om_check *chk = check(x, "control word", !ctl->clean);
	/* bits Mesa never reads: our don't-care bits all the same */
	if (control & 0xF000FF00u)
		chk->quirk = OM_QUIRK_CONTROL_BITS;
	bool forward = false;
	for (int u = 0; u < UNITS; u++) {
		unsigned bit = 16 + 2 * (unsigned)u;
		if (control & (1u << bit)) {
			tx_printf(t, "unknown bit %u enabled\n", bit);
			mark(chk, "unknown bit N enabled");
		}
		if (!b->unit[u])
			continue;
		if (unit_vector(u))
			vector_line(x, b, u);
		else
			scalar_line(x, b, u);
	}
	if (b->compact)
		forward |= compact_line(x, b);
	if (b->extended)
		forward |= extended_line(x, b);
	if (b->constants) {
		uint8_t k[16];
		constant_bytes(b, k);
		uint32_t c[4];
		for (int i = 0; i < 4; i++)
			c[i] = (uint32_t)k[4 * i] | (uint32_t)k[4 * i + 1] << 8 |
			       (uint32_t)k[4 * i + 2] << 16 | (uint32_t)k[4 * i + 3] << 24;
		tx_printf(t, "uconstants 0x%X, 0x%X, 0x%X, 0x%X\n", c[0], c[1], c[2], c[3]);
	}
	if (b->pad_bad) {
		om_check *p = check(x, "padding", true);
		p->quirk = OM_QUIRK_PADDING;
	}
	if (tag >= 12)
		tx_puts(t, "writeout\n");
	return forward;
}

/* ----------------------------------------------------------- load/store */

/* How Mesa prints a load/store operation, by our leaf's name (Mesa's
 * properties of the opcode: a store reads its register, an attribute op
 * has tables, an address op an address expression, ...). */
typedef struct ldst_class {
	bool store, attrib, def_secondary, def_primary, image, typed, ubo, address, reg2reg,
	     keeps_swizzle, atomic, cmpxchg, special, pack, trap;
} ldst_class;

static bool plain_memory(const char *n)
{
	static const char *const sizes[] = {"u8", "i8", "u16", "i16", "32", "64", "128", NULL};
	if (!starts(n, "ld_") && !starts(n, "st_"))
		return false;
	for (const char *const *s = sizes; *s; s++)
		if (starts(n + 3, *s) && (!n[3 + strlen(*s)] || n[3 + strlen(*s)] == '_'))
			return true;
	return false;
}

static ldst_class ldst_class_of(const char *n)
{
	ldst_class k = {0};
	k.store = starts(n, "st_") && !starts(n, "st_special_") && !starts(n, "st_tilebuffer_");
	k.def_secondary = starts(n, "st_vary_") || starts(n, "ld_vary_");
	k.def_primary = starts(n, "ld_attr_");
	k.image = starts(n, "ld_image_") || starts(n, "st_image_") || !strcmp(n, "lea_image");
	k.attrib = k.def_secondary || k.def_primary || k.image;
	k.typed = !strcmp(n, "ld_cubemap_coords") || starts(n, "ldst_perspective_div_");
	k.ubo = starts(n, "ld_ubo_");
	k.atomic = starts(n, "atomic_");
	k.cmpxchg = starts(n, "atomic_cmpxchg");
	k.address = !strcmp(n, "lea") || k.atomic || plain_memory(n);
	k.pack = starts(n, "pack_colour_") || starts(n, "unpack_colour_");
	k.reg2reg = k.pack || !strcmp(n, "lea") || !strcmp(n, "lea_image") || k.typed ||
	            !strcmp(n, "ldst_mov");
	k.keeps_swizzle = !((k.reg2reg && strcmp(n, "lea") && strcmp(n, "lea_image")) || k.atomic);
	k.special = starts(n, "ld_special_") || starts(n, "st_special_");
	k.trap = !strcmp(n, "trap");
	return k;
}

static const char *const ldst_regs_ours[8] = {
	"r26", "r27", "pc_sp", "local_storage_ptr", "local_thread_id", "group_id",
	"global_thread_id", "zero",
};
static const char *const ldst_regs_mesa[8] = {
	"AL0", "AL1", "PC_SP", "LOCAL_STORAGE_PTR", "LOCAL_THREAD_ID", "GROUP_ID",
	"GLOBAL_THREAD_ID", "0",
};

/* A load/store register field: by our #ldst-reg name, Mesa's name for it
 * and its number in *n (7: zero); a field our spec reads as a plain
 * number names a work register (R5), which Mesa never prints for one,
 * and *n is -1. */
static const char *ldst_reg(om_ctx *x, const codec_decoded *d, const char *word,
                            const char *field, int *n, char buf[16])
{
	const codec_value *v = need(x, d, word, field);
	int i = -1;
	if (n)
		*n = -1;
	if (!v)
		return "?";
	if (v->field->type != SPEC_TYPE_ENUM) {
		snprintf(buf, 16, "R%u", (unsigned)v->value);
		return buf;
	}
	i = lookup(ldst_regs_ours, N(ldst_regs_ours), name_of(x, d, word, field));
	if (i < 0) {
		if (!*x->err)
			snprintf(x->err, sizeof x->err, "%s.%s of %s names no load/store register", word,
			         field, d->leaf ? d->leaf->name : "?");
		return "?";
	}
	if (n)
		*n = i;
	return ldst_regs_mesa[i];
}

static char ldst_comp(om_ctx *x, const codec_decoded *d, const char *word, const char *field)
{
	const char *s = name_of(x, d, word, field);
	return s && s[0] && !s[1] ? s[0] : '?';
}

/* " + 0x10", " - 0x4", or nothing for 0. */
static void print_sint(om_text *t, int64_t n)
{
	if (n > 0)
		tx_printf(t, " + 0x%llX", (unsigned long long)n);
	else if (n < 0)
		tx_printf(t, " - 0x%llX", (unsigned long long)-n);
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t sign = UINT64_C(1) << (bits - 1u);
	v &= (sign << 1) - 1u;
	return (int64_t)(v ^ sign) - (int64_t)sign;
}

/* One operation of a load/store bundle (word is "WORD1" or "WORD2"). */
static void ldst_line(om_ctx *x, const codec_decoded *d, const char *word)
{
	om_text *t = &x->t;
	const codec_value *wv = need(x, d, NULL, word);
	if (!wv)
		return;
	uint64_t raw = wv->raw;
	const spec_bitset *leaf = wv->sub;
	char what[32];
	snprintf(what, sizeof what, "load/store %s", word);
	/* the word on its own root says whether our spec flags it */
	om_dec own;
	uint64_t w[1] = {raw};
	memset(&own.d, 0, sizeof own.d);
	own.d.values = own.values;
	own.d.cap_values = N(own.values);
	own.d.issues = own.issues;
	own.d.cap_issues = N(own.issues);
	bool clean = x->om->ldst_op && codec_decode(x->om->c, x->om->ldst_op, w, 0, &own.d) &&
	             own.d.leaf && !own.d.nissues;
	om_check *chk = check(x, what, !clean);
	if (leaf && !strcmp(leaf->name, "nop") && raw == 3)
		return; /* an empty slot: no line */
	if (!leaf || !strcmp(leaf->name, "nop")) {
		tx_printf(t, "ldst_op_%02X", (unsigned)(raw & 0xFF));
		tx_putc(t, ANY_REST);
		tx_putc(t, '\n');
		mark(chk, "ldst_op_XX");
		note_write(x, (unsigned)(raw >> 8) & 31u);
		return;
	}
	const char *n = leaf->name;
	ldst_class k = ldst_class_of(n);
	if (k.atomic && strlen(n) > 8 && !strcmp(n + strlen(n) - 5, "64_be")) {
		/* Mesa's table gives the big-endian 64-bit atomics no name */
		tx_printf(t, "ldst_op_%02X", (unsigned)(raw & 0xFF));
		tx_putc(t, ANY_REST);
		tx_putc(t, '\n');
		mark(chk, "ldst_op_XX");
		chk->quirk = OM_QUIRK_ATOMIC64_BE;
		note_write(x, (unsigned)(raw >> 8) & 31u);
		return;
	}
	if (k.trap) {
		/* Mesa knows the opcode (it prints the offset) but has no name */
		tx_printf(t, "ldst_op_%02X 0x%X\n", (unsigned)(raw & 0xFF),
		          (unsigned)(int32_t)val(x, d, word, "OFFSET"));
		mark(chk, "ldst_op_XX");
		chk->quirk = OM_QUIRK_TRAP;
		return;
	}
	tx_puts(t, leaf_display(leaf));
	if (k.atomic && !strcmp(n + strlen(n) - 2, "64")) {
		tx_puts(t, ".be");
		quirk(x, OM_QUIRK_ATOMIC64_NAME);
	}
	int64_t off = val(x, d, word, "OFFSET");
	unsigned fmt = (unsigned)val(x, d, word, "INDEX_FORMAT") & 3u;
	bool toggle = val(x, d, word, "BITSIZE_TOGGLE") != 0;
	if (k.attrib) {
		bool secondary = fmt & 2u;
		if (fmt & 1u)
			tx_puts(t, ".a32");
		if ((k.def_secondary || k.def_primary) && secondary != k.def_secondary)
			tx_puts(t, secondary ? ".secondary" : ".primary");
	} else if (k.typed) {
		tx_puts(t, toggle ? ".f32" : ".f16");
	}
	tx_putc(t, ' ');

	const char *sw = name_of(x, d, word, "SWIZZLE");
	int sel[4];
	for (unsigned i = 0; i < 4; i++)
		sel[i] = selector(sw, i) < 0 ? 0 : selector(sw, i);
	bool identity = sel[0] == 0 && sel[1] == 1 && sel[2] == 2 && sel[3] == 3;
	const char *mask_name = name_of(x, d, word, "MASK");
	unsigned mask = 0;
	for (unsigned i = 0; mask_name && i < 4 && mask_name[i]; i++)
		if (mask_name[i] != '_')
			mask |= 1u << i;
	unsigned reg = 0;
	if (!k.store) {
		reg = (unsigned)val(x, d, word, "REG");
		if (reg == 26 || reg == 27)
			tx_printf(t, "AL%u", reg - 26);
		else if (reg == 28 || reg == 29)
			tx_printf(t, "AT%u", reg - 28);
		else if (reg == 31)
			tx_puts(t, "PC_SP");
		else
			tx_printf(t, "R%u", reg);
		tx_putc(t, '.');
		for (unsigned i = 0; i < 4; i++)
			tx_putc(t, (mask >> i) & 1u ? comp(k.keeps_swizzle ? (unsigned)sel[i] : i) : '~');
	} else {
		char rb[16];
		tx_puts(t, ldst_reg(x, d, word, "REG", NULL, rb));
		vector_swizzle(x, sel, identity, 0, 32, mask_of_lanes(mask, 4));
	}
	int argn, idxn;
	char argb[16], idxb[16];
	const char *arg = ldst_reg(x, d, word, "ARG_REG", &argn, argb);
	const char *idx = ldst_reg(x, d, word, "INDEX_REG", &idxn, idxb);
	char argc = ldst_comp(x, d, word, "ARG_COMP"), idxc = ldst_comp(x, d, word, "INDEX_COMP");
	unsigned shift = (unsigned)val(x, d, word, "INDEX_SHIFT");
	if (k.ubo) {
		if (off & 1) {
			unsigned imm = (unsigned)val(x, d, word, "ARG_COMP") |
			               (unsigned)val(x, d, word, "ARG_REG") << 2 |
			               (unsigned)toggle << 5 | fmt << 6;
			tx_printf(t, ", %u", imm);
		} else {
			tx_printf(t, ", %s.%c", arg, argc);
		}
		tx_printf(t, ", %s.%c", idx, idxc);
		if (shift)
			tx_printf(t, " << %u", shift);
		print_sint(t, off >> 2);
	}
	if (k.address) {
		bool first = true;
		tx_puts(t, ", ");
		if (argn != 7) {
			tx_printf(t, "%s.u%d.%c", arg, toggle ? 64 : 32, argc);
			first = false;
		}
		if (!k.cmpxchg && idxn != 7) {
			const char *f = name_of(x, d, word, "INDEX_FORMAT");
			tx_printf(t, "%s%s%s.%c", first ? "" : " + ", idx, f ? f : "?", idxc);
			if (shift)
				tx_printf(t, " << %u", shift);
		}
		print_sint(t, off);
	}
	if (k.reg2reg) {
		tx_printf(t, ", %s", arg);
		vector_swizzle(x, sel, identity, 0, 32, 0xFF);
	}
	if (k.atomic) {
		unsigned s = (unsigned)val(x, d, word, "SWIZZLE");
		tx_printf(t, ", %s.%c", ldst_regs_mesa[(s >> 2) & 7u], comp(s & 3u));
	}
	if (k.cmpxchg)
		tx_printf(t, ", %s.%c", idx, idxc);
	if (k.special || k.attrib) {
		tx_printf(t, ", %s.%c", idx, idxc);
		if (shift)
			tx_printf(t, " << %u", shift);
		print_sint(t, off >> 9);
	}
	if (k.attrib) {
		tx_printf(t, ", %s", arg);
		if (k.image)
			tx_printf(t, ".u%d", toggle ? 64 : 32);
		tx_printf(t, ".%c", argc);
		if (toggle && !k.image)
			print_sint(t, sext((uint64_t)off & 0x1FFu, 9));
	}
	if (k.pack)
		tx_printf(t, ", 0x%X", (unsigned)((uint32_t)off << 4 | shift));
	tx_putc(t, '\n');
	if (!k.store)
		note_write(x, reg);
}

static void ldst_bundle(om_ctx *x, const om_bundle *b)
{
	om_dec dd;
	decode_item(x, b->first, &dd);
	if (!dd.d.leaf) {
		snprintf(x->err, sizeof x->err, "a load/store bundle does not decode");
		return;
	}
	ldst_line(x, &dd.d, "WORD1");
	ldst_line(x, &dd.d, "WORD2");
}

/* -------------------------------------------------------------- texture */

static const char *const tex_leaves[][2] = {
	{"tex", "TEX"}, {"tex_grad", "TEX_GRAD"}, {"tex_fetch", "TEX_FETCH"},
	{"tex_grad_from_derivative", "DER_TO_GRAD"}, {"tex_mov", "MOV"},
	{"tex_grad_from_coords", "COORDS_TO_GRAD"}, {"tex_derivative", "DERIVATIVE"},
	{"barrier", "BARRIER"},
};
static const char *const tex_modes_ours[7] = {
	"", ".shadow", ".gather_shadow", ".gather_x", ".gather_y", ".gather_z", ".gather_w",
};
static const char *const tex_modes_mesa[7] = {
	"", ".shadow", ".gather.shadow", ".gatherX", ".gatherY", ".gatherZ", ".gatherW",
};
static const char *const tex_derivs_ours[2] = {".dfdx", ".dfdy"};
static const char *const tex_derivs_mesa[2] = {".x", ".y"};
static const char *const tex_formats[4] = {".cube", ".1d", ".2d", ".3d"};
static const char *const tex_execs[4] = {NULL, ".skip", ".kill", ""};
static const char *const sampler_types_ours[4] = {NULL, ".f32", ".u32", ".s32"};

/* An 8-bit texture register select (a handle or the LOD with its *_REG
 * bit set): AT0/AT1, a component (the upper half adds four), its size. */
static void tex_regsel(om_ctx *x, unsigned u)
{
	unsigned c = (u >> 3) & 3u;
	if (u & 4u)
		c += 4;
	tx_printf(&x->t, "AT%u.%c.%d", (u >> 1) & 1u, comp(c), u & 1u ? 32 : 16);
}

static void swizzle_of(om_ctx *x, const codec_decoded *d, const char *field, int sel[4],
                       bool *identity)
{
	const char *sw = name_of(x, d, NULL, field);
	for (unsigned i = 0; i < 4; i++) {
		sel[i] = selector(sw, i);
		if (sel[i] < 0) {
			sel[i] = 0;
			if (!*x->err)
				snprintf(x->err, sizeof x->err, "%s: '%s' is not a swizzle", field,
				         sw ? sw : "(none)");
		}
	}
	*identity = sel[0] == 0 && sel[1] == 1 && sel[2] == 2 && sel[3] == 3;
}

static void texture_bundle(om_ctx *x, const om_bundle *b)
{
	om_text *t = &x->t;
	const codec_item *it = b->first;
	om_dec dd;
	om_check *chk = check(x, "texture", !it->clean);
	unsigned unknown4 = item_bits(it, 60, 8), unknown8 = item_bits(it, 35, 2);
	if (!decode_item(x, it, &dd)) {
		if (item_bits(it, 8, 4) == 11) {
			/* Mesa takes any opcode 11 for a barrier */
			bool zeros = item_bits(it, 14, 2) || item_bits(it, 18, 14) ||
			             item_bits(it, 32, 24) || item_bits(it, 60, 4) ||
			             item_bits(it, 64, 32) || item_bits(it, 96, 32);
			tx_puts(t, "BARRIER");
			tx_putc(t, ANY_REST);
			tx_putc(t, '\n');
			if (zeros)
				mark(chk, "/* zeroN = ... */");
			else
				chk->quirk = OM_QUIRK_BARRIER_OPCODE;
			return;
		}
		tx_printf(t, "tex_op_%02X", item_bits(it, 8, 4));
		tx_putc(t, ANY_REST);
		tx_putc(t, '\n');
		mark(chk, "tex_op_XX");
		if (unknown4 || unknown8)
			tx_printf(t, "// unknown4 = 0x%x\n// unknown8 = 0x%x\n", unknown4, unknown8);
		return;
	}
	const codec_decoded *d = &dd.d;
	const char *leaf = d->leaf->name, *name = NULL;
	for (size_t i = 0; i < N(tex_leaves); i++)
		if (!strcmp(leaf, tex_leaves[i][0]))
			name = tex_leaves[i][1];
	if (!name) {
		snprintf(x->err, sizeof x->err, "texture leaf %s has no Mesa name", leaf);
		return;
	}
	tx_puts(t, name);
	int tag = tag_number(name_of(x, d, NULL, "TAG"));
	unsigned ooo = (unsigned)val(x, d, NULL, "OUT_OF_ORDER");
	if (!strcmp(leaf, "barrier")) {
		if (tag != 4) {
			tx_printf(t, "/* barrier tag %X != tex/bar */ ", (unsigned)tag);
			mark(chk, "/* barrier tag N != tex/bar */");
		}
		if (!val(x, d, NULL, "CONT"))
			tx_puts(t, "/* cont missing? */");
		if (!val(x, d, NULL, "LAST"))
			tx_puts(t, "/* last missing? */");
		if (ooo)
			tx_printf(t, ".ooo%u", ooo);
		tx_putc(t, '\n');
		return;
	}
	if (tag == 4) {
		tx_puts(t, "/* nonbarrier had tex/bar tag */ ");
		mark(chk, "/* nonbarrier had tex/bar tag */");
	} else if (tag == 2) {
		tx_puts(t, ".vtx");
	}
	bool deriv = !strcmp(leaf, "tex_derivative");
	const char *mode = name_of(x, d, NULL, "MODE");
	int m = deriv ? lookup(tex_derivs_ours, N(tex_derivs_ours), mode)
	              : lookup(tex_modes_ours, N(tex_modes_ours), mode);
	if (m < 0) {
		tx_puts(t, "unk");
		mark(chk, "unk (texture mode)");
	} else {
		tx_puts(t, deriv ? tex_derivs_mesa[m] : tex_modes_mesa[m]);
	}
	int fmt = lookup(tex_formats, N(tex_formats), name_of(x, d, NULL, "FORMAT"));
	tx_puts(t, fmt < 0 ? ".?" : tex_formats[fmt]);
	int exec = lookup(tex_execs, N(tex_execs), name_of(x, d, NULL, "EXEC"));
	if (exec < 0) {
		tx_puts(t, ".reserved");
		mark(chk, ".reserved (execution mode)");
	} else {
		tx_puts(t, tex_execs[exec]);
	}
	if (ooo)
		tx_printf(t, ".ooo%u", ooo);

	/* the output register, its mask and type */
	tx_printf(t, " TA%u", (unsigned)(val(x, d, NULL, "OUT_REG") - 28));
	const char *mask_name = name_of(x, d, NULL, "MASK");
	unsigned mask = 0;
	for (unsigned i = 0; mask_name && i < 4 && mask_name[i]; i++)
		if (mask_name[i] != '_')
			mask |= 1u << i;
	bool upper = val(x, d, NULL, "OUT_UPPER") != 0;
	if (mask == 0xF) {
		if (upper)
			tx_putc(t, '\'');
	} else {
		tx_putc(t, '.');
		for (unsigned i = 0; i < 4; i++)
			if (mask & (1u << i))
				tx_putc(t, comp(i + (upper ? 4 : 0)));
	}
	int st = lookup(sampler_types_ours, N(sampler_types_ours), name_of(x, d, NULL, "SAMPLER_TYPE"));
	if (st < 0)
		mark(chk, "?sampler");
	tx_printf(t, ".%c%d", st == 1 ? 'f' : 'i', val(x, d, NULL, "OUT_FULL") ? 32 : 16);
	if (st == 1) {
		/* only a float result shows its clamp */
		int om = lookup(float_outmods, N(float_outmods), name_of(x, d, NULL, "OUTMOD"));
		tx_puts(t, om < 0 ? ".?" : float_outmods[om]);
	}

	/* texture and sampler: an immediate index or a register */
	unsigned th = (unsigned)val(x, d, NULL, "TEXTURE_HANDLE");
	unsigned sh = (unsigned)val(x, d, NULL, "SAMPLER_HANDLE");
	if (val(x, d, NULL, "TEXTURE_REG")) {
		tx_puts(t, ", texture[");
		tex_regsel(x, th & 0xFFu);
		tx_puts(t, "], ");
	} else {
		tx_printf(t, ", texture%u, ", th);
	}
	tx_printf(t, "%csampler", st < 0 ? '?' : "?fui"[st]);
	if (val(x, d, NULL, "SAMPLER_REG")) {
		tx_putc(t, '[');
		tex_regsel(x, sh & 0xFFu);
		tx_putc(t, ']');
	} else {
		tx_printf(t, "%u", sh);
	}
	int sel[4];
	bool identity;
	swizzle_of(x, d, "SWIZZLE", sel, &identity);
	vector_swizzle(x, sel, identity, 0, 32, 0xFF);

	/* the input register: an upper half is the expand_high letters */
	tx_printf(t, ", AT%u", (unsigned)(val(x, d, NULL, "IN_REG") - 28));
	swizzle_of(x, d, "IN_SWIZZLE", sel, &identity);
	vector_swizzle(x, sel, identity, val(x, d, NULL, "IN_UPPER") ? 5 : 0, 32, 0xFF);
	tx_printf(t, ".%d", val(x, d, NULL, "IN_FULL") ? 32 : 16);

	/* the offset: a register (full, select, upper, swizzle) or three
	 * 4-bit immediates */
	unsigned off = (unsigned)val(x, d, NULL, "OFFSET") & 0xFFFu;
	if (val(x, d, NULL, "OFFSET_REG")) {
		unsigned sw = off >> 3;
		for (unsigned i = 0; i < 4; i++)
			sel[i] = (int)((sw >> (2 * i)) & 3u);
		tx_printf(t, " + AT%u", (off >> 1) & 1u);
		/* the identity test reads the ninth bit too */
		vector_swizzle(x, sel, sw == 0xE4, off & 4u ? 5 : 0, 32, 0xFF);
		tx_printf(t, ".%d, ", off & 1u ? 32 : 16);
	} else if (off) {
		tx_printf(t, " + <%u, %u, %u>, ", off & 0xFu, (off >> 4) & 0xFu, (off >> 8) & 0xFu);
	} else {
		tx_puts(t, ", ");
	}

	/* the LOD: a register, a fetch's integer level, or a bias */
	bool is_bias = !strcmp(leaf, "tex");
	unsigned bias = (unsigned)val(x, d, NULL, "BIAS") & 0xFFu;
	int bias_int = (int)val(x, d, NULL, "BIAS_INT");
	if (val(x, d, NULL, "LOD_REG")) {
		tx_printf(t, "lod %c ", is_bias ? '+' : '=');
		tex_regsel(x, bias);
		tx_puts(t, ", ");
		if (bias_int) {
			tx_printf(t, " /* bias_int = 0x%X */", (unsigned)bias_int);
			mark(chk, "/* bias_int = ... */ (LOD register)");
		}
	} else if (!strcmp(leaf, "tex_fetch")) {
		if (bias_int) {
			tx_printf(t, " /* bias_int = 0x%X */ ", (unsigned)bias_int);
			mark(chk, "/* bias_int = ... */ (fetch)");
		}
		tx_printf(t, "lod = %u, ", bias);
	} else if (bias || bias_int) {
		float f = (float)bias_int + (float)bias / 256.0f;
		char sign = f >= 0.0f ? '+' : '-';
		tx_printf(t, "lod %c %f, ", is_bias ? sign : '=', (double)fabsf(f));
	}
	tx_putc(t, '\n');
	if (unknown4 || unknown8) {
		tx_printf(t, "// unknown4 = 0x%x\n// unknown8 = 0x%x\n", unknown4, unknown8);
		mark(chk, "// unknown4 / unknown8");
	}
}

/* ---------------------------------------------------------------- bundles */

static int unit_of(const char *name, size_t len)
{
	for (int u = 0; u < UNITS; u++)
		if (strlen(unit_names[u]) == len && !strncmp(name, unit_names[u], len))
			return u;
	return -1;
}

/* Our framing's bundles: one begins at each control word, load/store or
 * texture part and unknown data; the parts, data and values after it
 * belong to it.  A bad tag (our <reject>) is a bundle of its own with no
 * items.  Returns how many, or (size_t)-1 when the walk holds an item
 * the mapping does not know. */
static size_t cut_bundles(const codec_program *pr, size_t nbits, om_bundle *bs, size_t cap,
                          char *err, size_t errlen)
{
	size_t n = 0;
	for (size_t i = 0; i < pr->nitems; i++) {
		const codec_item *it = &pr->items[i];
		const char *name = it->name ? it->name : "";
		bool starts_bundle = (it->kind == CODEC_ITEM_PART &&
		                      (!strcmp(name, "control") || !strcmp(name, "load-store") ||
		                       !strcmp(name, "texture"))) ||
		                     (it->kind == CODEC_ITEM_DATA && !strcmp(name, "unknown"));
		if (starts_bundle) {
			if (n == cap)
				return (size_t)-1;
			om_bundle *b = &bs[n++];
			memset(b, 0, sizeof *b);
			b->kind = !strcmp(name, "control")      ? OM_KIND_ALU
			          : !strcmp(name, "load-store") ? OM_KIND_LOAD_STORE
			          : !strcmp(name, "texture")    ? OM_KIND_TEXTURE
			                                        : OM_KIND_UNKNOWN;
			b->bit = it->bit;
			b->first = it;
			continue;
		}
		if (!n) {
			snprintf(err, errlen, "item %zu (%s) comes before any bundle", i, name);
			return (size_t)-1;
		}
		om_bundle *b = &bs[n - 1];
		const char *dot = strchr(name, '.');
		int u = unit_of(name, dot ? (size_t)(dot - name) : strlen(name));
		switch (it->kind) {
		case CODEC_ITEM_PART:
			if (u >= 0 && dot && !strcmp(dot, ".reg"))
				b->reg[u] = it;
			else if (u >= 0 && !dot)
				b->unit[u] = it;
			else if (!strcmp(name, "branch") &&
			         !strcmp(it->root->bitset->name, "#branch-compact"))
				b->compact = it;
			else if (!strcmp(name, "branch"))
				b->extended = it;
			else
				goto unknown;
			break;
		case CODEC_ITEM_DATA:
			if (strcmp(name, "constants"))
				goto unknown;
			b->constants = it;
			break;
		case CODEC_ITEM_VALUE:
			if (u < 0 || !dot || strcmp(dot, ".imm"))
				goto unknown;
			b->has_imm[u] = true;
			b->imm[u] = it->value;
			break;
		case CODEC_ITEM_PAD:
			if (!it->clean)
				b->pad_bad = true;
			break;
		}
		continue;
	unknown:
		snprintf(err, errlen, "the walk's item %zu (%s) is not one the mapping knows", i, name);
		return (size_t)-1;
	}
	for (size_t k = 0; k < n; k++)
		bs[k].end = k + 1 < n ? bs[k + 1].bit : nbits;
	/* the walk's fatal error: a bad tag starts a bundle of its own */
	for (size_t e = 0; e < pr->nerrors; e++) {
		const codec_frame_error *fe = &pr->errors[e];
		if (!fe->fatal)
			continue;
		bool bad_tag = fe->kind == CODEC_FRAME_REJECTED && !strncmp(fe->text, "bad tag", 7);
		if (bad_tag || !n) {
			if (n == cap)
				return (size_t)-1;
			if (n)
				bs[n - 1].end = fe->bit;
			om_bundle *b = &bs[n++];
			memset(b, 0, sizeof *b);
			b->kind = -1;
			b->bit = fe->bit;
			b->end = fe->bit + 128;
		}
		bs[n - 1].fatal = fe;
		break;
	}
	return n;
}

/* The bundle's tag and next tag, as our decoding names them, in Mesa's
 * numbers; false when our decoding does not name them. */
static bool bundle_tags(om_ctx *x, const om_bundle *b, int *tag, int *next)
{
	if (b->kind == -1 || b->kind == OM_KIND_UNKNOWN) {
		size_t i = b->bit / 32;
		uint32_t w = i < x->nwords ? x->words[i] : 0;
		*tag = (int)(w & 15u);
		*next = (int)((w >> 4) & 15u);
		return true;
	}
	om_dec d;
	if (!decode_item(x, b->first, &d)) {
		/* a texture operation our spec does not decode: its tags as read */
		*tag = (int)item_bits(b->first, 0, 4);
		*next = (int)item_bits(b->first, 4, 4);
		return b->kind == OM_KIND_TEXTURE;
	}
	if (b->kind == OM_KIND_ALU)
		*tag = tag_number(d.d.leaf->name);
	else if (b->kind == OM_KIND_LOAD_STORE)
		*tag = tag_number(d.d.leaf->name);
	else
		*tag = tag_number(name_of(x, &d.d, NULL, "TAG"));
	*next = tag_number(name_of(x, &d.d, NULL, "NEXT_TAG"));
	return *tag >= 0 && *next >= 0;
}

/* Mesa's lines for a bundle whose tag it does not know (0, 1, 6, 7): the
 * tag and the quadword in hex. */
static void unknown_bundle(om_ctx *x, const om_bundle *b, unsigned tag)
{
	size_t i = b->bit / 32;
	tx_printf(&x->t, "Unknown word type %u:\n", tag);
	for (unsigned k = 0; k < 4; k++)
		tx_printf(&x->t, "0x%08X%s ", i + k < x->nwords ? x->words[i + k] : 0u,
		          k == 3 ? "" : ",");
	tx_puts(&x->t, "\n\n");
	/* ours: a bad tag (the walk stops) or data our framing marks as
	 * unexplained */
	bool flagged = b->kind == -1 || (b->first && b->first->step && b->first->step->unexplained);
	om_check *chk = check(x, "unknown bundle", flagged);
	mark(chk, "Unknown word type");
}

/* A predicted line for a report: wildcards as "...". */
static void show_line(om_text *o, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] == ANY_OPERAND || p[i] == ANY_REST)
			tx_puts(o, "...");
		else
			tx_putc(o, p[i]);
	tx_putc(o, '\n');
}

/* The bundle's lines on both sides, for a report: the predicted ones
 * and as many of Mesa's from m0, and a few more. */
static void show_bundle(om_ctx *x, const char *mesa, size_t mlen, size_t m0)
{
	om_text e = {0}, g = {0};
	const char *p, *m;
	size_t pn, mn, q = 0, a = m0, lines = 0;
	while (next_line(x->t.s, x->t.len, &q, &p, &pn)) {
		show_line(&e, p, pn);
		lines++;
	}
	for (size_t i = 0; i < lines + 3 && next_line(mesa, mlen, &a, &m, &mn); i++) {
		tx_put(&g, m, mn);
		tx_putc(&g, '\n');
	}
	free(x->r->expected_lines);
	free(x->r->mesa_lines);
	x->r->expected_lines = e.s ? e.s : copy_text("");
	x->r->mesa_lines = g.s ? g.s : copy_text("");
}

/* Mesa's lines from *at against the predicted ones; false (with r->what
 * and the lines) at the first that differs. */
static bool compare_lines(om_ctx *x, const char *mesa, size_t mlen, size_t *at, size_t bundle)
{
	oraclemap_midgard_result *r = x->r;
	size_t pat = 0, m0 = *at, line = 0;
	const char *p, *m;
	size_t pn, mn;
	while (next_line(x->t.s, x->t.len, &pat, &p, &pn)) {
		bool have = next_line(mesa, mlen, at, &m, &mn);
		if (have && line_match(p, pn, m, mn)) {
			line++;
			r->lines++;
			continue;
		}
		om_text e = {0};
		show_line(&e, p, pn);
		if (e.len)
			e.s[--e.len] = '\0';
		snprintf(r->what, sizeof r->what, "bundle %zu, line %zu: Mesa prints \"%.*s\", our "
		         "decoding says \"%s\"", bundle, line, have ? (int)mn : 0, have ? m : "",
		         e.s ? e.s : "");
		free(e.s);
		show_bundle(x, mesa, mlen, m0);
		return false;
	}
	return true;
}

/* The validity of each part: both sides flag it, or neither, or a quirk
 * says why not.  False (with r->what) otherwise. */
static bool compare_validity(om_ctx *x, size_t bundle, const char *mesa, size_t mlen,
                             size_t m0)
{
	for (size_t i = 0; i < x->nchecks; i++) {
		const om_check *c = &x->checks[i];
		if (c->unclean == c->marker) {
			x->r->unclean += c->unclean;
			continue;
		}
		if (c->quirk >= 0) {
			quirk(x, c->quirk);
			continue;
		}
		if (c->unclean)
			snprintf(x->r->what, sizeof x->r->what, "bundle %zu: our spec flags its %s (a "
			         "hole, a set don't-care bit or an unnamed value), Mesa prints it without "
			         "an error marker", bundle, c->what);
		else
			snprintf(x->r->what, sizeof x->r->what, "bundle %zu: our spec decodes its %s "
			         "cleanly, Mesa marks it as an error: %s", bundle, c->what,
			         c->marker_text ? c->marker_text : "?");
		show_bundle(x, mesa, mlen, m0);
		return false;
	}
	return true;
}

bool oraclemap_midgard_compare(oraclemap_midgard *om, const uint32_t *words, size_t nwords,
                               oraclemap_midgard_result *r)
{
	memset(r, 0, sizeof *r);
	r->verdict = OM_SAME;

	/* Mesa's text */
	size_t cap = 4096 + nwords * 512;
	char *mesa = NULL;
	int st = 0;
	for (int round = 0; round < 2; round++) {
		char *m = realloc(mesa, cap);
		if (!m) {
			free(mesa);
			return false;
		}
		mesa = m;
		st = mesa_oracle_midgard_disasm((const uint8_t *)words, nwords * 4, mesa, cap);
		if (st < 0 || (size_t)st < cap)
			break;
		cap = (size_t)st + 1;
	}
	r->mesa_status = st;
	r->mesa_text = mesa;
	if (st == MESA_ORACLE_E_NOMEM)
		return false;
	if (st < 0) {
		r->verdict = OM_REFUSED;
		snprintf(r->refusal, sizeof r->refusal, "%s: %s", mesa_oracle_strerror(st),
		         mesa_oracle_last_detail());
		return true;
	}
	size_t mlen = (size_t)st;

	/* ours */
	codec_disasm_options opt = {.gen = 0};
	codec_program *pr = codec_program_walk(om->c, om->program, words, nwords, &opt);
	if (!pr)
		return false;
	r->our_text = copy_text(pr->text ? pr->text : "");
	size_t bcap = nwords / 4 + 2;
	om_bundle *bs = calloc(bcap, sizeof *bs);
	om_ctx x = {.om = om, .r = r, .words = words, .nwords = nwords};
	x.tags = calloc(nwords ? nwords : 1, sizeof *x.tags);
	if (!bs || !x.tags || !r->our_text) {
		free(bs);
		free(x.tags);
		codec_program_free(pr);
		return false;
	}
	char err[300] = "";
	size_t nb = cut_bundles(pr, nwords * 32, bs, bcap, err, sizeof err);
	if (nb == (size_t)-1) {
		r->verdict = OM_DIFFERENT;
		snprintf(r->what, sizeof r->what, "our walk: %s", err[0] ? err : "too many bundles");
		goto done;
	}

	/* Mesa's loop over the bundles, predicted */
	size_t at = 0;
	int last_next = -1;
	bool forward = false, stopped = false;
	for (size_t k = 0; k < nb && !stopped; k++) {
		const om_bundle *b = &bs[k];
		x.t.len = 0;
		if (x.t.s)
			x.t.s[0] = '\0';
		x.nchecks = 0;
		x.err[0] = '\0';
		if (b->fatal && b->kind != -1) {
			/* our framing stops inside the bundle: its parts do not fit the
			 * tag's size, or the tag gives a quadword too many; Mesa
			 * prints it regardless, from words past the bundle or with
			 * quadwords skipped */
			if (b->fatal->kind == CODEC_FRAME_OVERFLOW ||
			    b->fatal->kind == CODEC_FRAME_REJECTED)
				quirk(&x, OM_QUIRK_ALU_SIZE);
			r->cut = true;
			break;
		}
		int tag, next;
		if (!bundle_tags(&x, b, &tag, &next)) {
			r->verdict = OM_DIFFERENT;
			snprintf(r->what, sizeof r->what, "bundle %zu: our decoding names no tag or next "
			         "tag%s%s", k, x.err[0] ? ": " : "", x.err);
			break;
		}
		size_t i = b->bit / 32;
		if (i < nwords) {
			if (x.tags[i] && x.tags[i] != (unsigned)tag)
				tx_printf(&x.t, "\t/* XXX: TAG ERROR branch, got %s expected %s */\n",
				          mesa_tag(tag), mesa_tag((int)x.tags[i]));
			x.tags[i] = (unsigned)tag;
		}
		if (next == 0)
			tx_puts(&x.t, "\t/* XXX: invalid next tag */\n");
		if (last_next > 1 && last_next != tag)
			tx_printf(&x.t, "\t/* XXX: TAG ERROR sequence, got %s expexted %s */\n",
			          mesa_tag(tag), mesa_tag(last_next));
		last_next = next;
		switch (b->kind) {
		case OM_KIND_ALU: forward = alu_bundle(&x, b, (unsigned)tag); break;
		case OM_KIND_LOAD_STORE: ldst_bundle(&x, b); break;
		case OM_KIND_TEXTURE: texture_bundle(&x, b); break;
		default: unknown_bundle(&x, b, (unsigned)tag); break;
		}
		if (next == 1) {
			if (forward) {
				tx_puts(&x.t, "break\n");
			} else {
				stopped = true; /* Mesa stops at a break no branch jumps past */
			}
		}
		tx_putc(&x.t, '\n');
		if (x.t.oom) {
			free(bs);
			free(x.tags);
			free(x.t.s);
			codec_program_free(pr);
			return false;
		}
		if (x.err[0]) {
			r->verdict = OM_DIFFERENT;
			snprintf(r->what, sizeof r->what, "bundle %zu: the mapping cannot read our "
			         "decoding: %s", k, x.err);
			break;
		}
		size_t m0 = at;
		if (!compare_lines(&x, mesa, mlen, &at, k) || !compare_validity(&x, k, mesa, mlen, m0)) {
			r->verdict = OM_DIFFERENT;
			break;
		}
		r->bundles++;
		r->kinds[b->kind < 0 ? OM_KIND_UNKNOWN : b->kind]++;
		if (b->fatal) {
			r->cut = true; /* a bad tag: our framing stops, Mesa goes on */
			break;
		}
	}
	if (r->verdict == OM_SAME && !r->cut && !stopped) {
		x.t.len = 0;
		if (last_next != 1)
			tx_printf(&x.t, "/* XXX: shader ended with tag %s */\n", mesa_tag(last_next));
		if (x.t.oom) {
			free(bs);
			free(x.tags);
			free(x.t.s);
			codec_program_free(pr);
			return false;
		}
		if (!compare_lines(&x, mesa, mlen, &at, nb))
			r->verdict = OM_DIFFERENT;
	}
	if (r->verdict == OM_SAME && !r->cut && at < mlen) {
		r->verdict = OM_DIFFERENT;
		snprintf(r->what, sizeof r->what, "Mesa prints more after our last bundle: \"%.80s\"",
		         mesa + at);
	}
	if (r->verdict == OM_DIFFERENT && r->bundle == 0 && nb) {
		size_t k = r->bundles < nb ? r->bundles : nb - 1;
		r->bundle = k;
		r->bit = bs[k].bit;
	}
done:
	free(bs);
	free(x.tags);
	free(x.t.s);
	codec_program_free(pr);
	return true;
}

void oraclemap_midgard_result_free(oraclemap_midgard_result *r)
{
	free(r->mesa_lines);
	free(r->expected_lines);
	free(r->our_text);
	free(r->mesa_text);
	memset(r, 0, sizeof *r);
}

oraclemap_midgard *oraclemap_midgard_new(const codec *c, char *err, size_t errlen)
{
	const spec_model *m = codec_model(c);
	static const char *const roots[] = {
		"#tag", "#alu-control", "#reg-word", "#vector-alu", "#scalar-alu",
		"#branch-compact", "#branch-extended", "#load-store-op", "#load-store", "#texture",
	};
	for (size_t i = 0; i < N(roots); i++)
		if (!spec_find_root(m, roots[i])) {
			snprintf(err, errlen, "%s: no root %s", m->path, roots[i]);
			return NULL;
		}
	const spec_program *p = spec_find_program(m, NULL);
	if (!p) {
		snprintf(err, errlen, "%s: no <program>", m->path);
		return NULL;
	}
	oraclemap_midgard *om = calloc(1, sizeof *om);
	if (!om) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	om->c = c;
	om->program = p;
	om->vector = spec_find_root(m, "#vector-alu");
	om->ldst_op = spec_find_root(m, "#load-store-op");
	return om;
}

void oraclemap_midgard_free(oraclemap_midgard *om)
{
	free(om);
}

/* ------------------------------------------------------------- programs */

static unsigned rnd(midgard_rng *r, unsigned n)
{
	return (unsigned)((midgard_rng_next(r) >> 32) % n);
}

static bool reads_r26(const midgard_alu_unit *un)
{
	return un->enabled && (un->reg.src1_reg == 26 || (!un->reg.src2_imm && un->reg.src2_reg == 26));
}

/* What Mesa's printer cannot take (its table of component letters has 16
 * entries): an 8-bit vector op with an upper shrink or an expand_high
 * source.  Those fields are redrawn. */
static void mesa_safe(midgard_bundle *b)
{
	for (unsigned u = 0; u < MIDGARD_UNITS; u++) {
		midgard_alu_unit *un = &b->u.alu.unit[u];
		if (!un->enabled || !midgard_unit_is_vector((midgard_unit)u) || un->vec.reg_mode)
			continue;
		if (un->vec.shrink_mode == 1)
			un->vec.shrink_mode = 0;
		if (un->vec.src1.expand == 5 || un->vec.src1.expand == 7)
			un->vec.src1.expand -= 1;
		if (!un->reg.src2_imm && (un->vec.src2.expand == 5 || un->vec.src2.expand == 7))
			un->vec.src2.expand -= 1;
	}
}

size_t oraclemap_midgard_program(midgard_rng *rng, unsigned n, unsigned flags, uint32_t *words,
                                 size_t cap, size_t kinds[OM_KIND_COUNT])
{
	static midgard_bundle bs[OM_MAX_BUNDLES];
	size_t start[OM_MAX_BUNDLES + 1];
	if (n < 1 || n > OM_MAX_BUNDLES)
		return 0;
	start[0] = 0;
	for (unsigned k = 0; k < n; k++) {
		midgard_bundle *b = &bs[k];
		midgard_random_bundle(rng, b);
		if (b->kind == MIDGARD_KIND_ALU) {
			midgard_alu_bundle *a = &b->u.alu;
			bool writeout = b->tag >= MIDGARD_TAG_ALU4_WRITEOUT;
			if (flags & OM_GEN_MESA)
				mesa_safe(b);
			bool r26 = false;
			for (unsigned u = 0; u < MIDGARD_UNITS; u++)
				r26 |= reads_r26(&a->unit[u]);
			if ((flags & OM_GEN_CONSTANTS) && r26 && !a->has_constants) {
				a->has_constants = true;
				for (int i = 0; i < 4; i++)
					a->constants[i] = (uint32_t)midgard_rng_next(rng);
			}
			b->tag = (uint8_t)midgard_alu_tag(a, writeout);
		}
		start[k + 1] = start[k] + midgard_tag_quadwords(b->tag) * 4u;
		if (kinds)
			kinds[b->kind == MIDGARD_KIND_ALU          ? OM_KIND_ALU
			      : b->kind == MIDGARD_KIND_LOAD_STORE ? OM_KIND_LOAD_STORE
			                                           : OM_KIND_TEXTURE]++;
	}
	if (start[n] > cap)
		return 0;
	for (unsigned k = 0; k < n; k++) {
		midgard_bundle *b = &bs[k];
		if (flags & OM_GEN_CHAIN)
			b->next_tag = k + 1 < n ? bs[k + 1].tag : MIDGARD_TAG_BREAK;
		if ((flags & OM_GEN_TARGETS) && b->kind == MIDGARD_KIND_ALU && b->u.alu.has_extended) {
			/* a bundle of the program, mostly named by its own tag */
			unsigned t = rnd(rng, n);
			midgard_branch_extended *e = &b->u.alu.extended;
			e->offset = (int32_t)(((int64_t)start[t] - (int64_t)start[k + 1]) / 4);
			if (rnd(rng, 8))
				e->dest_tag = bs[t].tag;
		}
		if (midgard_pack(b, words + start[k], cap - start[k]) != MIDGARD_OK)
			return 0;
	}
	return start[n];
}
