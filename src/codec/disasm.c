/*
 * disasm.c - Mesa's isa_disasm over a compiled codec: display templates
 * run as precompiled ops, every field type printed as
 * isaspec_decode_impl.c's display_field prints it, errors appended as
 * "\t; a, b" (4 at most), branch labels from a pre-pass, and the
 * no-match styles of Mesa, ir3's test and afuc.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"

/* --------------------------------------------------------------- output */

void cx_out_flush(cx_out *o)
{
	if (o->f && o->buf && o->len) {
		if (fwrite(o->buf, 1, o->len, o->f) != o->len)
			o->ferr = true;
		o->len = 0;
	}
}

/* What does not fit: flushed (stream), cut (string), counted (sink). */
void cx_out_slow(cx_out *o, const char *s, size_t n)
{
	if (o->hold) {
		o->over = true;
		return;
	}
	o->total += n;
	if (!o->buf)
		return;
	if (o->f) {
		cx_out_flush(o);
		if (n >= o->cap) {
			if (fwrite(s, 1, n, o->f) != n)
				o->ferr = true;
			return;
		}
		memcpy(o->buf, s, n);
		o->len = n;
		return;
	}
	if (o->len + 1 < o->cap) {
		size_t k = o->cap - 1 - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
	}
}


/* ---------------------------------------------------------------- fields */

/* _mesa_half_to_float */
static float half_to_float(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) & 1u, e = (uint32_t)(h >> 10) & 0x1fu, m = h & 0x3ffu;
	uint32_t bits;
	if (e == 0) {
		if (m == 0) {
			bits = s << 31;
		} else {
			int ee = 113; /* 127 - 15 + 1 */
			while (!(m & 0x400u)) {
				m <<= 1;
				ee--;
			}
			m &= 0x3ffu;
			bits = (s << 31) | ((uint32_t)ee << 23) | (m << 13);
		}
	} else if (e == 31) {
		bits = (s << 31) | 0x7f800000u | (m << 13);
	} else {
		bits = (s << 31) | ((e + 112u) << 23) | (m << 13);
	}
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static void display_bitset_field(cx *x, cx_scope *s, cx_scope *where, const cstep *st,
                                 uint64_t val)
{
	const cfield *f = st->field;
	unsigned nw = x->c->nw;
	if (++x->subfields > CODEC_MAX_SUBFIELDS ||
	    (x->out && x->out->total - x->text_start > CODEC_MAX_TEXT)) {
		if (!x->text_cut) { /* said once, in the text too; the walk goes no deeper */
			bool nodes = x->subfields > CODEC_MAX_SUBFIELDS;
			cx_issue(x, CODEC_TEXT_TOO_LONG, s->lf->b, NULL, f->f, 0,
			         nodes ? "%s: more than %u bitset fields to print, the rest not printed"
			               : "%s: text longer than %u bytes, the rest not printed",
			         s->lf->name, nodes ? CODEC_MAX_SUBFIELDS : CODEC_MAX_TEXT);
			if (x->out)
				out_str(x->out, nodes ? " [text cut: more than 65536 bitset fields]"
				                      : " [text cut: longer than 1 MiB]");
		}
		x->text_cut = true;
		return;
	}
	const cmemo *mm = x->afuc ? NULL : x->c->memo[f->root_index];
	if (mm && x->mode == CX_DISASM && !f->nparams && f->f->kind != SPEC_DERIVED &&
	    f->width <= f->root->bitset->size &&
	    x->nsc + mm->depth <= CODEC_MAX_SCOPES && x->cused + mm->slots <= CODEC_CACHE_SLOTS) {
		/* displayed the same wherever it is: rendered when compiled */
		const cmemo_ent *e = &mm->ent[cx_get64(where->val, nw, f->f->low, f->f->high)];
		if (!e->noleaf) {
			if (e->nl)
				out_put(x->out, mm->pool + e->text, e->len);
			else
				out_raw(x->out, mm->pool + e->text, e->len);
			memo_issues(x, mm, e, f->f);
			return;
		}
	}
	uint64_t local[CODEC_MAX_WORDS];
	uint64_t *w = cx_next_val(x);
	if (!w)
		w = local;
	if (f->f->kind == SPEC_DERIVED) {
		memset(w, 0, nw * sizeof *w);
		w[0] = val;
	} else {
		cx_extract(where->val, f->f->low, f->f->high, w, nw);
	}
	const spec_bitset *b = cx_find_bitset(x, f->root_index, w);
	if (!b) {
		cx_no_match_field(x, s, f->f, w);
		return;
	}
	cx_scope *ns = cx_push(x, b, f, w, where == s ? st->plk : NULL);
	if (!ns)
		return;
	cx_display(x, ns);
	cx_pop(x);
}

/* A value of any type but bitset, as display_field prints it. */
int codec_format_f6(double d, char *buf)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	int ex = (int)((bits >> 52) & 0x7ff);
	uint64_t m = bits & (((uint64_t)1 << 52) - 1), ip;
	uint32_t frac;
	if (ex == 0x7ff)
		return -1;
	if (ex)
		m |= (uint64_t)1 << 52;
	else
		ex = 1;
	int e = ex - 1075; /* d = m * 2^e, m < 2^53 */
	if (e >= 0) {
		if (e > 11)
			return -1;
		ip = m << e;
		frac = 0;
	} else if (e < -100) {
		ip = 0; /* below 2^-47: six zeros */
		frac = 0;
	} else {
		/* the fraction times 10^6 is exact in 120 bits: round it to an
		 * integer, ties to even as glibc does */
		unsigned s = (unsigned)-e;
		u128 one = 1, fmask = (one << s) - 1;
		ip = s < 64 ? m >> s : 0;
		u128 t = ((u128)m & fmask) * 1000000u;
		u128 q = t >> s, r = t & fmask, half = one << (s - 1);
		if (r > half || (r == half && (q & 1)))
			q++;
		if (q == 1000000) {
			q = 0;
			ip++;
		}
		frac = (uint32_t)q;
	}
	char tmp[32], *p = tmp + sizeof tmp;
	for (int i = 0; i < 6; i++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	*--p = '.';
	do {
		*--p = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	if (bits >> 63)
		*--p = '-';
	int n = (int)(tmp + sizeof tmp - p);
	memcpy(buf, p, (size_t)n);
	buf[n] = '\0';
	return n;
}

void cx_print_value(cx *x, const cfield *f, uint64_t val)
{
	cx_out *o = x->out;
	unsigned width = f->width > 64 ? 64 : f->width;
	switch (f->type) {
	case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH:
		if (x->labels) {
			int64_t t = f->type == SPEC_TYPE_BRANCH ? cx_sext(val, width) + (int64_t)x->n
			                                        : (int64_t)val;
			uint32_t off = (uint32_t)(uint64_t)t; /* Mesa's int, compared unsigned */
			if (off < x->num_instr) {
				uint8_t *bm = f->f->call ? x->call_t : x->branch_t;
				out_raw(o, f->f->call ? "fxn" : "l", f->f->call ? 3 : 1);
				out_u64(o, off);
				if (bm)
					bm[off / 8] |= (uint8_t)(1u << (off % 8));
				break;
			}
		}
		out_i64(o, cx_sext(val, width), false);
		break;
	case SPEC_TYPE_INT:
		out_i64(o, cx_sext(val, width), false);
		break;
	case SPEC_TYPE_UINT:
		out_u64(o, val);
		break;
	case SPEC_TYPE_HEX:
	case SPEC_TYPE_UNKNOWN:
		out_hex(o, val, false);
		break;
	case SPEC_TYPE_OFFSET:
		if (val)
			out_i64(o, cx_sext(val, width), true);
		break;
	case SPEC_TYPE_UOFFSET:
		if (val) {
			out_raw(o, "+", 1);
			out_u64(o, val);
		}
		break;
	case SPEC_TYPE_FLOAT:
		if (width == 16) {
			out_fmt_float(o, half_to_float((uint16_t)val));
		} else {
			uint32_t u = (uint32_t)val;
			float fl;
			memcpy(&fl, &u, sizeof fl);
			out_fmt_float(o, fl);
		}
		break;
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		if (f->f->display) {
			if ((val != 0) == (f->type == SPEC_TYPE_BOOL)) {
				if (f->disp_nl)
					out_put(o, f->f->display, f->disp_len);
				else
					out_raw(o, f->f->display, f->disp_len);
			}
		} else {
			out_u64(o, f->type == SPEC_TYPE_BOOL ? (unsigned)val : !val);
		}
		break;
	case SPEC_TYPE_ENUM: {
		const char *d = NULL;
		if (f->en) {
			if (val < 256) {
				d = f->en->dense[val];
				if (d && !f->en->nl) {
					out_raw(o, d, f->en->dense_len[val]);
					break;
				}
			} else {
				for (size_t i = 0; i < f->en->e->nvalues && !d; i++)
					if ((uint64_t)f->en->e->values[i].val == val)
						d = f->en->disp[i];
			}
		}
		if (d)
			out_str(o, d);
		else
			out_u64(o, (unsigned)val);
		break;
	}
	case SPEC_TYPE_CUSTOM:
		/* printed by the caller's field_print_cb in Mesa: nothing here */
	case SPEC_TYPE_BITSET:
		break;
	}
}

static void display_value(cx *x, cx_scope *s, cx_scope *where, const cstep *st, uint64_t val)
{
	if (st->field->type == SPEC_TYPE_BITSET)
		display_bitset_field(x, s, where, st, val);
	else if (x->mode != CX_DECODE)
		/* codec_decode walks the display for its issues only, and
		 * printing a value raises none */
		cx_print_value(x, st->field, val);
}

/* afuc-disasm's hooks for a field about to be displayed (Mesa's
 * afuc/disasm.c, without its register database, as the oracle in
 * ../shared/oracles/mesa runs it): field_cb notes the immediate, its
 * shift and whether $addr is written, for the line's comment; a custom
 * field named CONTROLREG or SQEREG prints as 0x%03x (no register names).
 * Both match the name as written in the display, ":align=" included,
 * as Mesa passes it.  True when the value is printed here. */
static bool afuc_field(cx *x, const cstep *st, uint64_t val, const cop *op)
{
	bool plain = !op->align;
	if (plain && op->len == 6 && !memcmp(op->text, "RIMMED", 6)) {
		x->af.immed = (uint32_t)val;
		x->af.has_immed = true;
	} else if (plain && op->len == 5 && !memcmp(op->text, "SHIFT", 5)) {
		x->af.shift = (uint8_t)val;
	} else if (plain && op->len == 3 && !memcmp(op->text, "DST", 3) && val == 0x1d) {
		x->af.dst_is_addr = true; /* REG_ADDR, as a destination */
	}
	if (st->field->type != SPEC_TYPE_CUSTOM)
		return false;
	if (plain && cx_afuc_register_field(op->text, op->len)) {
		char b[16];
		int n = snprintf(b, sizeof b, "0x%03x", (unsigned)val);
		out_put(x->out, b, (size_t)n);
	}
	return true;
}

/* afuc-disasm's post_instr_cb: after an immediate written to $addr with
 * a shift of 16 or more that leaves the low 24 bits clear, the pipe
 * register it names, as a comment (a GPU register's name would follow
 * any other immediate, but without the register database there is
 * none). */
static void afuc_post_instr(cx *x)
{
	if (!x->af.has_immed || !x->af.dst_is_addr || x->af.shift < 16)
		return;
	uint32_t immed = x->af.shift < 32 ? x->af.immed << x->af.shift : 0;
	immed &= ~0x40000u; /* bit 18 turns off the address's auto-increment */
	if (!(immed & 0x00ffffffu)) {
		char b[16];
		int n = snprintf(b, sizeof b, "\t; 0x%03x", (unsigned)(immed >> 24));
		out_put(x->out, b, (size_t)n);
	}
}

/* A {FIELD} op once its look-up is done (st NULL: it found nothing). */
static inline void display_field_op(cx *x, cx_scope *s, cx_scope *where, const cstep *st,
                                    uint64_t val, const cop *op)
{
	if (!st) {
		cx_issue(x, CODEC_NO_FIELD, s->lf->b, NULL, NULL, 0, "no field '%.*s'", (int)op->len,
		         op->text);
		return;
	}
	out_pad(x->out, op->align);
	if (x->afuc && afuc_field(x, st, val, op))
		return;
	if (st->field->f->kind != SPEC_ASSERT)
		display_value(x, s, where, st, val);
}

/* The asserts of the cases a plan's display walk visits. */
static void plan_asserts(cx *x, cx_scope *s, const cplan *pl)
{
	const cleaf *lf = s->lf;
	for (int i = 0; i <= pl->ds; i++) {
		const cdstep *d = &lf->ds[i];
		if (d->cex >= 0 && !cx_plan_holds(lf, pl, d->cex))
			continue;
		for (uint32_t j = 0; j < d->nasserts; j++)
			cx_check_assert(x, s, d, lf->asserts[d->assert0 + j]);
	}
}

/* cx_display by a plan: what the walk would find is known. */
static void display_planned(cx *x, cx_scope *s, const cplan *pl)
{
	const cleaf *lf = s->lf;
	if (pl->asserts)
		plan_asserts(x, s, pl);
	if (x->dec && x->dec->cases) /* the walk the plan stands for, as it went */
		for (int i = 0; i <= pl->ds; i++)
			if (lf->ds[i].cex < 0 || cx_plan_holds(lf, pl, lf->ds[i].cex))
				cx_case_taken(x, s, &lf->ds[i], i == pl->ds);
	const cdstep *d = &lf->ds[pl->ds];
	const cop *op = lf->ops + d->op0;
	const cpop *po = pl->ops;
	for (uint32_t i = 0; i < d->nops; i++, op++, po++) {
		cx_scope *where = s;
		const cstep *st = NULL;
		uint64_t val = 0;
		switch (po->kind) {
		case PO_LIT:
		case PO_ALIGN:
		case PO_NAME:
			display_text_op(x->out, lf, op);
			continue;
		case PO_BOOL:
		case PO_ENUM:
		case PO_UINT:
		case PO_HEX:
			if (x->mode != CX_DECODE)
				display_direct(x->out, lf->steps[po->arg].field, po,
				               (s->val[po->word] >> po->shift) & po->mask);
			continue;
		case PO_STEP:
			st = &lf->steps[po->arg];
			val = cx_step_value(x, s, st);
			break;
		case PO_PARAM:
			if ((s->pbound >> po->arg) & 1u) {
				st = s->pst[po->arg];
				val = s->pval[po->arg];
				where = s->parent;
				break;
			}
			/* not bound here: walk */
			__attribute__((fallthrough));
		default:
			st = cx_resolve(x, s, op->name, op->lk, &where, &val);
			break;
		}
		display_field_op(x, s, where, st, val, op);
	}
}

void cx_display(cx *x, cx_scope *s)
{
	const cplan *pl = cx_scope_plan(x, s);
	if (pl) {
		display_planned(x, s, pl);
		return;
	}
	const cdstep *d = cx_find_display(x, s);
	if (!d) {
		cx_issue(x, CODEC_NO_DISPLAY, s->lf->b, NULL, NULL, 0, "%s: no display template",
		         s->lf->name);
		return;
	}
	const cop *op = s->lf->ops + d->op0;
	for (uint32_t i = 0; i < d->nops; i++, op++) {
		if (op->kind != COP_FIELD) {
			display_text_op(x->out, s->lf, op);
			continue;
		}
		cx_scope *where = s;
		uint64_t val = 0;
		const cstep *st;
		int dir = op->lk >= 0 ? s->lf->lk[op->lk].direct[s->pb] : -1;
		if (dir >= 0) {
			/* a look-up that always ends at this field */
			st = &s->lf->steps[dir];
			val = cx_step_value(x, s, st);
		} else {
			st = cx_resolve(x, s, op->name, op->lk, &where, &val);
		}
		display_field_op(x, s, where, st, val, op);
	}
}

bool cx_render_alone(const codec *c, size_t ri, uint64_t v, char *buf, size_t cap, size_t *len,
                     char (*errs)[CODEC_ERR_LEN], unsigned *nerr)
{
	cx *x = malloc(sizeof *x);
	if (!x)
		return false;
	cx_init(x, c, CX_DISASM, 0);
	cx_out o = {.buf = buf, .cap = cap};
	x->out = &o;
	uint64_t w[CODEC_MAX_WORDS];
	memset(w, 0, c->nw * sizeof *w);
	w[0] = v;
	bool ok = false;
	const spec_bitset *b = cx_find_bitset(x, ri, w);
	if (b) {
		ok = cx_display_top(x, b, w) && o.total < cap && x->issues <= CODEC_MAX_ERRORS;
	}
	*len = o.len < cap ? o.len : cap - 1;
	buf[*len] = '\0';
	*nerr = x->nerr;
	for (unsigned i = 0; i < x->nerr; i++)
		memcpy(errs[i], x->err[i], CODEC_ERR_LEN);
	free(x);
	return ok;
}

const char codec_digit_pairs[201] =
	"00010203040506070809"
	"10111213141516171819"
	"20212223242526272829"
	"30313233343536373839"
	"40414243444546474849"
	"50515253545556575859"
	"60616263646566676869"
	"70717273747576777879"
	"80818283848586878889"
	"90919293949596979899";

/* ---------------------------------------------------------- instructions */

/* ir3's raw words (two thirds of random ones) in the usual case: the
 * digits in registers, o's counts updated once; false: the general way.
 * Apart from print_no_match, whose frame is large. */
static inline __attribute__((always_inline)) bool print_raw_ir3(const cx *x, const uint32_t *words)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const char raw[8] = "raw 0x"; /* 8 bytes readable */
	cx_out *o = x->out;
	if (x->c->instr_words != 2 || o->len + 32 >= o->cap)
		return false;
	unsigned n0 = hex_digits32(words[0]), n1 = hex_digits32(words[1]);
	uint64_t d0 = cx_hex8c(x->c, words[0], true) >> 8 * (8 - n0);
	uint64_t d1 = cx_hex8c(x->c, words[1], true) >> 8 * (8 - n1);
	char *d = o->buf + o->len;
	memcpy(d, raw, 8);
	memcpy(d + 6, &d0, 8);
	memcpy(d + 6 + n0, &d1, 8);
	out_wrote(o, 6 + n0 + n1);
	return true;
#else
	(void)x;
	(void)words;
	return false;
#endif
}

static void print_no_match(cx *x, const uint32_t *words, const uint64_t *w,
                           codec_no_match_style style)
{
	cx_out *o = x->out;
	switch (style) {
	case CODEC_NO_MATCH_IR3: {
		static const char raw[8] = "raw 0x"; /* 8 bytes readable */
		if (o->len + 8 < o->cap) {
			memcpy(o->buf + o->len, raw, 8);
			o->len += 6;
			o->total += 6;
			o->col += 6;
		} else {
			out_raw(o, raw, 6);
		}
		for (unsigned i = 0; i < x->c->instr_words; i++)
			out_hex32_upper(o, words[i]);
		break;
	}
	case CODEC_NO_MATCH_AFUC: {
		char b[16];
		int n = snprintf(b, sizeof b, "[%08" PRIx32 "]", words[0]);
		out_put(o, b, (size_t)n);
		break;
	}
	case CODEC_NO_MATCH_MESA:
	default: {
		unsigned hw = x->c->hexw;
		if (o->len + 16 + 8 * (size_t)hw < o->cap) {
			/* the digits stored from registers, not through a buffer
			 * that the copies would read back in other sizes (the CPU
			 * stalls on that) */
			static const char nm[16] = "no match: ";
			char *d = o->buf + o->len;
			memcpy(d, nm, 16);
			cx_hex_words(x->c, w, hw, d + 10);
			out_wrote(o, 10 + 8 * (size_t)hw);
			break;
		}
		char hex[CODEC_MAX_WORDS * 16 + 1];
		cx_hex(x, w, hex, sizeof hex);
		out_put(o, "no match: ", 10);
		out_str(o, hex);
		break;
	}
	}
}

/* The line's errors after it.  Raw: the column no longer matters once
 * they are printed (the next line starts at column 0). */
static __attribute__((noinline)) void print_errors(const cx *x, cx_out *o)
{
	unsigned n = x->nerr;
	size_t total = 3 + 2 * (size_t)(n - 1);
	/* a sum over all the slots, those past n masked: no branch on n,
	 * which varies from line to line */
	for (unsigned i = 0; i < CODEC_MAX_ERRORS; i++)
		total += x->errlen[i] & (0u - (uint32_t)(i < n));
	if (o->len + total + 96 < o->cap) {
		/* the usual case: each text copied in blocks, the first 96
		 * bytes whatever its length (the error slots and the buffer
		 * have room past them), no call */
		char *d = o->buf + o->len;
		memcpy(d, "\t; ", 4);
		d += 3;
		for (unsigned i = 0; i < n; i++) {
			if (i) {
				memcpy(d, ", ", 2);
				d += 2;
			}
			cx_copy_min(d, x->err[i], x->errlen[i], 96);
			d += x->errlen[i];
		}
		out_wrote(o, total);
		return;
	}
	out_raw(o, "\t; ", 3);
	for (unsigned i = 0; i < x->nerr; i++) {
		if (i)
			out_raw(o, ", ", 2);
		out_raw(o, x->err[i], x->errlen[i]);
	}
}

/* One instruction: its line (and errors), with or without the newline.
 * Returns whether it decoded without issues.  Always inlined: around a
 * line printed straight through, the framing (words, classifier, calls)
 * is about a third of the cost. */
static inline __attribute__((always_inline)) bool
disasm_instr(cx *x, const uint32_t *words, const codec_disasm_options *opt, bool newline)
{
	const codec *c = x->c;
	cx_out *o = x->out;
	unsigned issues0 = x->issues;
	uint64_t w[CODEC_MAX_WORDS];
	cx_instr_words(c, words, w);
	o->col = 0;
	x->afuc = opt->no_match == CODEC_NO_MATCH_AFUC;
	x->af = (struct cx_afuc){0};
	size_t ri = c->defroot_index;
	const spec_bitset *b = cx_find_bitset(x, ri, w);
	if (!b) {
		/* errors stay pending: Mesa prints them on the next line */
		if (opt->no_match != CODEC_NO_MATCH_IR3 || !print_raw_ir3(x, words))
			print_no_match(x, words, w, opt->no_match);
		if (newline)
			out_put(o, "\n", 1);
		return false;
	}
	cx_display_top(x, b, w);
	if (x->nerr) {
		if (opt->show_errors)
			print_errors(x, o);
		x->nerr = 0;
	}
	if (x->afuc)
		afuc_post_instr(x);
	if (newline)
		out_put(o, "\n", 1);
	return x->issues == issues0;
}

size_t codec_disasm(const codec *c, const uint32_t *words, size_t ninstr,
                    const codec_disasm_options *opt, FILE *out)
{
	if (!c || !opt || !out || (!words && ninstr))
		return 0;
	cx x;
	cx_init(&x, c, CX_DISASM, opt->gen);
	char chunk[16384];
	cx_out o = {.buf = chunk, .cap = sizeof chunk, .f = out};
	x.out = &o;
	x.num_instr = ninstr > UINT32_MAX ? UINT32_MAX : (uint32_t)ninstr;
	unsigned W = c->instr_words;
	uint8_t *bm = NULL;
	if (opt->branch_labels) {
		size_t nb = (ninstr + 7) / 8;
		bm = calloc(2 * nb + 2, 1);
		if (bm) {
			x.labels = true;
			x.branch_t = bm;
			x.call_t = bm + nb + 1;
			/* the pre-pass: Mesa decodes everything into /dev/null,
			 * without the caller's hooks and errors */
			cx_out sink = {0};
			codec_disasm_options pre = {.gen = opt->gen, .branch_labels = true};
			x.out = &sink;
			for (size_t n = 0; n < ninstr && n < UINT32_MAX; n++) {
				x.n = (uint32_t)n;
				disasm_instr(&x, words + n * W, &pre, true);
				x.nerr = 0;
			}
			x.out = &o;
			x.issues = 0;
		}
	}
	size_t ok = 0;
	for (size_t n = 0; n < ninstr && n < UINT32_MAX; n++) {
		x.n = (uint32_t)n;
		if (bm) {
			/* as Mesa: a function's label after an empty line (but
			 * at the start), then a branch target's */
			if ((x.call_t[n / 8] >> (n % 8)) & 1u) {
				out_put(&o, &"\nfxn"[!n], 4 - !n);
				out_u64(&o, n);
				out_put(&o, ":\n", 2);
			}
			if ((x.branch_t[n / 8] >> (n % 8)) & 1u) {
				out_put(&o, "l", 1);
				out_u64(&o, n);
				out_put(&o, ":\n", 2);
			}
		}
		ok += disasm_instr(&x, words + n * W, opt, true);
	}
	cx_out_flush(&o);
	free(bm);
	return ok;
}

size_t codec_disasm_one(const codec *c, const uint32_t *words, const codec_disasm_options *opt,
                        char *buf, size_t len)
{
	char dummy[1];
	if (!buf || !len) {
		buf = dummy;
		len = 1;
	}
	buf[0] = '\0';
	if (!c || !opt || !words)
		return 0;
	cx x;
	cx_init(&x, c, CX_DISASM, opt->gen);
	cx_out o = {.buf = buf, .cap = len};
	x.out = &o;
	x.labels = opt->branch_labels;
	x.num_instr = 1;
	disasm_instr(&x, words, opt, false);
	buf[o.len < len ? o.len : len - 1] = '\0';
	return o.total;
}

size_t codec_disasm_root(const codec *c, const spec_root *root, const uint64_t *w,
                         const codec_disasm_options *opt, char *buf, size_t len)
{
	char dummy[1];
	if (!buf || !len) {
		buf = dummy;
		len = 1;
	}
	buf[0] = '\0';
	if (!c || !opt || !w || !root || root < c->m->roots || root >= c->m->roots + c->m->nroots)
		return 0;
	cx x;
	cx_init(&x, c, CX_DISASM, opt->gen);
	cx_out o = {.buf = buf, .cap = len};
	x.out = &o;
	size_t ri = (size_t)(root - c->m->roots);
	uint64_t iw[CODEC_MAX_WORDS];
	cx_root_words(c, root->bitset->size, w, iw);
	const spec_bitset *b = cx_find_bitset(&x, ri, iw);
	if (!b && !x.nerr) {
		char hex[CODEC_MAX_WORDS * 16 + 1];
		cx_hex(&x, iw, hex, sizeof hex);
		out_str(&o, "no match: ");
		out_str(&o, hex);
	} else if (b) {
		cx_display_top(&x, b, iw);
	}
	if (x.nerr && opt->show_errors) {
		out_put(&o, b ? "\t; " : "; ", b ? 3 : 2);
		for (unsigned i = 0; i < x.nerr; i++) {
			if (i)
				out_put(&o, ", ", 2);
			out_put(&o, x.err[i], x.errlen[i]);
		}
	}
	buf[o.len < len ? o.len : len - 1] = '\0';
	return o.total;
}

/* ------------------------------------------------------- afuc, quietly
 *
 * afuc-disasm's hooks act on what a display prints under certain names:
 * RIMMED (the immediate its comment reads; SHIFT and DST matter only
 * with it) and fields of type custom (printed their own way, or not at
 * all).  A leaf whose displays, its nested fields' included, can print
 * none of those prints under afuc's style exactly as under Mesa's, with
 * no comment: the straight-through text stands for it
 * (codec_decode_text).  The names are taken as any display may reach
 * them: every custom field's name anywhere in the model, and each name a
 * param passes one of those on as. */

static bool name_listed(const char *name, size_t len, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return true;
	return false;
}

/* Whether display d has an op ({NAME} or {NAME:...}) named in names. */
static bool display_names_one(const char *d, const char *const *names, size_t n)
{
	for (const char *p = d ? strchr(d, '{') : NULL; p; p = strchr(p, '{')) {
		const char *end = ++p;
		while (*end && *end != '}' && *end != ':')
			end++;
		if (name_listed(p, (size_t)(end - p), names, n))
			return true;
	}
	return false;
}

static size_t root_of(const spec_model *m, const spec_bitset *b)
{
	for (size_t r = 0; r < m->nroots; r++)
		if (m->roots[r].bitset == b)
			return r;
	return m->nroots;
}

/* Whether bitset b's own cases print a hooked name or nest a hooked
 * root. */
static bool cases_hooked(const spec_model *m, const spec_bitset *b, const char *const *names,
                         size_t n, const bool *root_hooked)
{
	for (size_t ci = 0; ci < b->ncases; ci++) {
		const spec_case *k = &b->cases[ci];
		if (display_names_one(k->display, names, n))
			return true;
		for (size_t fi = 0; fi < k->nfields; fi++) {
			const spec_field *f = &k->fields[fi];
			size_t r = f->type == SPEC_TYPE_BITSET && f->bitset ? root_of(m, f->bitset) : m->nroots;
			if (r < m->nroots && root_hooked[r])
				return true;
		}
	}
	return false;
}

bool codec_build_afuc_quiet(codec *c)
{
	const spec_model *m = c->m;
	size_t cap = 16, n = 0;
	const char **names = malloc(cap * sizeof *names);
	bool *root_hooked = calloc(m->nroots + 1, sizeof *root_hooked);
	bool *quiet = codec_alloc(c, (m->nbitsets + 1) * sizeof *quiet);
	bool ok = names && root_hooked && quiet;
	if (ok)
		names[n++] = "RIMMED";
	/* the names: custom fields', then what params pass them on as */
	for (bool grew = true; ok && grew;) {
		grew = false;
		for (size_t i = 0; ok && i < m->nbitsets; i++)
			for (size_t ci = 0; ok && ci < m->bitsets[i]->ncases; ci++) {
				const spec_case *k = &m->bitsets[i]->cases[ci];
				for (size_t fi = 0; ok && fi < k->nfields; fi++) {
					const spec_field *f = &k->fields[fi];
					const char *add[64];
					size_t na = 0;
					if (f->type == SPEC_TYPE_CUSTOM && f->name)
						add[na++] = f->name;
					for (size_t pi = 0; pi < f->nparams && na < 64; pi++) {
						const spec_param *p = &f->params[pi];
						if (p->name && name_listed(p->name, strlen(p->name), names, n))
							add[na++] = p->as ? p->as : p->name;
					}
					for (size_t a = 0; ok && a < na; a++) {
						if (name_listed(add[a], strlen(add[a]), names, n))
							continue;
						if (n == cap) {
							const char **more = realloc(names, 2 * cap * sizeof *names);
							ok = more != NULL;
							if (!ok)
								break;
							names = more;
							cap *= 2;
						}
						names[n++] = add[a];
						grew = true;
					}
				}
			}
	}
	/* the roots whose bitsets may print one, through nesting as well */
	for (bool grew = true; ok && grew;) {
		grew = false;
		for (size_t i = 0; i < m->nbitsets; i++) {
			const spec_bitset *b = m->bitsets[i];
			size_t r = root_of(m, b->root);
			if (r < m->nroots && !root_hooked[r] && cases_hooked(m, b, names, n, root_hooked))
				root_hooked[r] = grew = true;
		}
	}
	for (size_t i = 0; ok && i < m->nbitsets; i++) {
		quiet[i] = true;
		for (const spec_bitset *s = m->bitsets[i]; s && quiet[i]; s = s->parent)
			quiet[i] = !cases_hooked(m, s, names, n, root_hooked);
	}
	free(names);
	free(root_hooked);
	c->afuc_quiet = ok ? quiet : NULL;
	return ok;
}
