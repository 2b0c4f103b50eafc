/*
 * out.h - private to src/codec: the text writer of the disassembler
 * (cx_out) and the display ops that print no field, shared by disasm.c
 * and the straight-through printer in fast.c.
 */
#ifndef ISACHECK_CODEC_OUT_H
#define ISACHECK_CODEC_OUT_H

#include "internal.h"

#include <stdio.h>
#include <string.h>


/* Flushes a stream's buffer. */
void cx_out_flush(cx_out *o);
/* What does not fit: flushed (stream), cut (string), counted (sink). */
void cx_out_slow(cx_out *o, const char *s, size_t n);

/* n characters without a newline were just stored at o->buf + o->len. */
static inline void out_wrote(cx_out *o, size_t n)
{
	o->len += n;
	o->total += n;
	o->col += (unsigned)n;
}

/* n bytes from s to d, the first min (a constant, a multiple of 16)
 * whatever n is, then blocks of 16: both have room for min and for the
 * last block.  Texts of varied lengths under min copy without a branch
 * on their length, which the CPU mispredicts when they alternate. */
static inline void cx_copy_min(char *d, const char *s, size_t n, size_t min)
{
	memcpy(d, s, min);
	for (size_t i = min; i < n; i += 16)
		memcpy(d + i, s + i, 16);
}

/* Text without a newline. */
static inline void out_raw(cx_out *o, const char *s, size_t n)
{
	o->col += (unsigned)n;
	if (o->len + n < o->cap) {
		char *d = o->buf + o->len;
		if (n <= 16) /* most pieces are short: no call */
			for (size_t i = 0; i < n; i++)
				d[i] = s[i];
		else
			memcpy(d, s, n);
		o->len += n;
		o->total += n;
	} else {
		cx_out_slow(o, s, n);
	}
}

/* Any text: Mesa's line_column counts characters since the last newline. */
static inline void out_put(cx_out *o, const char *s, size_t n)
{
	if (!memchr(s, '\n', n)) {
		out_raw(o, s, n);
		return;
	}
	size_t i = n;
	while (i > 0 && s[i - 1] != '\n')
		i--;
	unsigned col = i ? (unsigned)(n - i) : o->col + (unsigned)n;
	out_raw(o, s, n);
	o->col = col;
}

static inline void out_str(cx_out *o, const char *s)
{
	out_put(o, s, strlen(s));
}

static inline void out_pad(cx_out *o, int align)
{
	/* 64 spaces, and 64 bytes readable past any of them */
	static const char spaces[129] = "                                                                "
	                                "                                                                ";
	while ((int)o->col < align) {
		size_t n = (size_t)(align - (int)o->col);
		if (n > 64)
			n = 64;
		if (o->len + 64 < o->cap) {
			/* one copy of a fixed size, whatever the width: no loop
			 * whose length changes from line to line */
			memcpy(o->buf + o->len, spaces, 64);
			o->len += n;
			o->total += n;
			o->col += (unsigned)n;
		} else {
			out_raw(o, spaces, n);
		}
	}
}

/* "00" to "99": two digits a division (out_u64). */
extern const char codec_digit_pairs[201];

/* v's decimal digits: 1 to 20 (0 for 0). */
static inline unsigned dec_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull};
	/* log10 from log2 (1233 / 4096 ~ log10 2), then one compare */
	unsigned t = ((64u - (unsigned)__builtin_clzll(v | 1)) * 1233u) >> 12;
	return t + (v >= pow10[t]);
}

/* v in decimal: written in place, two digits at a time, where there is
 * room (no loop over single digits, no copy through a buffer). */
static inline void out_u64(cx_out *o, uint64_t v)
{
	if (o->len + 24 < o->cap) {
		unsigned n = dec_digits(v);
		n += n == 0;
		char *d = o->buf + o->len + n;
		while (v >= 100) {
			d -= 2;
			memcpy(d, codec_digit_pairs + 2 * (v % 100), 2);
			v /= 100;
		}
		if (v >= 10) {
			d -= 2;
			memcpy(d, codec_digit_pairs + 2 * v, 2);
		} else {
			*--d = (char)('0' + v);
		}
		out_wrote(o, n);
		return;
	}
	char b[24];
	char *p = b + sizeof b;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_raw(o, p, (size_t)(b + sizeof b - p));
}

/* v's low width bits as a signed number. */
static inline int64_t cx_sext(uint64_t v, unsigned width)
{
	if (width == 0 || width >= 64)
		return (int64_t)v;
	uint64_t m = (uint64_t)1 << (width - 1);
	v &= ((uint64_t)1 << width) - 1;
	return (int64_t)((v ^ m) - m);
}

static inline void out_i64(cx_out *o, int64_t v, bool plus)
{
	if (v < 0) {
		out_raw(o, "-", 1);
		out_u64(o, (uint64_t)0 - (uint64_t)v);
		return;
	}
	if (plus)
		out_raw(o, "+", 1);
	out_u64(o, (uint64_t)v);
}

/* The last n (1 to 8) of the 8 digits cx_hex8 made: they stay in a
 * register and are stored whole (a copy through memory would read back
 * stores of another size, which the CPU forwards slowly). */
static inline void out_hex_tail(cx_out *o, uint64_t d, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (o->len + 8 < o->cap) {
		d >>= 8 * (8 - n);
		memcpy(o->buf + o->len, &d, 8);
		out_wrote(o, n);
		return;
	}
#endif
	char b[8];
	memcpy(b, &d, 8);
	out_raw(o, b + 8 - n, n);
}

/* The hex digits of a 32-bit v without leading zeros. */
static inline unsigned hex_digits32(uint32_t v)
{
	return v ? (35u - (unsigned)__builtin_clz(v)) / 4 : 1;
}

/* v in hex without leading zeros. */
static inline void out_hex(cx_out *o, uint64_t v, bool upper)
{
	uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;
	if (hi) {
		out_hex_tail(o, cx_hex8(hi, upper), hex_digits32(hi));
		out_hex_tail(o, cx_hex8(lo, upper), 8);
	} else {
		out_hex_tail(o, cx_hex8(lo, upper), hex_digits32(lo));
	}
}

/* A 32-bit v in upper-case hex without leading zeros (ir3's raw words). */
static inline void out_hex32_upper(cx_out *o, uint32_t v)
{
	out_hex_tail(o, cx_hex8(v, true), hex_digits32(v));
}

static inline void out_fmt_float(cx_out *o, double d)
{
	char b[64];
	int n = codec_format_f6(d, b);
	if (n < 0)
		n = snprintf(b, sizeof b, "%f", d);
	if (n > 0)
		out_raw(o, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

/* The issues a memoised nested field's rendering raised (field f). */
static inline void memo_issues(cx *x, const cmemo *mm, const cmemo_ent *e, const spec_field *f)
{
	for (unsigned i = 0; i < e->nerr; i++)
		cx_issue_text(x, CODEC_NO_MATCH, f, mm->pool + mm->errs[e->err0 + i].text);
}

/* A display op that prints no field: literal text, alignment, {NAME}. */
static inline void display_text_op(cx_out *o, const cleaf *lf, const cop *op)
{
	switch (op->kind) {
	case COP_LIT:
		out_raw(o, op->text, op->len);
		if (op->nl >= 0)
			o->col = op->len - (unsigned)op->nl;
		break;
	case COP_ALIGN:
		out_pad(o, op->align);
		break;
	case COP_NAME:
		out_pad(o, op->align);
		out_raw(o, lf->name, lf->namelen);
		if (lf->namenl >= 0)
			o->col = (unsigned)(lf->namelen - (size_t)lf->namenl);
		break;
	}
}

/* A specialised plan op (plan.c): what display_value prints for these
 * types, without its general path. */
static inline void display_direct(cx_out *o, const cfield *f, const cpop *po, uint64_t v)
{
	switch (po->kind) {
	case PO_BOOL:
		if ((v != 0) == (f->type == SPEC_TYPE_BOOL))
			out_raw(o, f->f->display, f->disp_len);
		break;
	case PO_ENUM: {
		const char *d = f->en->dense[v];
		if (d)
			out_raw(o, d, f->en->dense_len[v]);
		else
			out_u64(o, v);
		break;
	}
	case PO_UINT:
		out_u64(o, v);
		break;
	default:
		out_hex(o, v, false);
		break;
	}
}

/* The issue of kind (it's kind: a constant where it is raised, so the
 * head is one) whose text is it's: the head, var, v in hex, suf.  The
 * usual case, a line's error, is written where it is kept, in blocks;
 * inlined where raised (on random words, most lines raise one or two). */
static inline __attribute__((always_inline)) void
cx_issue_itext(cx *x, codec_issue_kind kind, const spec_bitset *leaf, const spec_field *f,
               const citext *it, const uint64_t *v)
{
	unsigned hw = x->c->hexw;
	size_t nhead;
	const char *head = cx_itext_head(kind, &nhead);
	size_t len = nhead + it->nvar + (size_t)hw * 8 + it->nsuf;
	if (x->mode != CX_DISASM || x->nerr >= CODEC_MAX_ERRORS || len + 32 >= CODEC_ERR_LEN) {
		cx_issue_itext_joined(x, kind, leaf, f, it, v);
		return;
	}
	char *t = x->err[x->nerr];
	x->issues++;
	/* heads are shorter than 32, var and suf readable 32 past their
	 * ends (suf too when empty) */
	cx_copy_min(t, head, nhead, 32);
	cx_copy_min(t + nhead, cx_itext_var(it), it->nvar, 32);
	char *p = t + nhead + it->nvar;
	cx_hex_words(x->c, v, hw, p);
	p += (size_t)hw * 8;
	cx_copy_min(p, it->suf, it->nsuf, 32);
	t[len] = '\0';
	x->errlen[x->nerr++] = (uint32_t)len;
}

#endif
