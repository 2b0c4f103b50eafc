/*
 * encode.c - from a decoding (leaf and field values) back to words.
 * Canonical form: pattern bits as the leaf pins them, don't-care bits 0,
 * assert bits at their expected value, fields at their values.
 */
#include "internal.h"

#include <stdarg.h>
#include <string.h>

typedef struct encoder {
	const codec_decoded *d;
	size_t next;   /* the next value to consume */
	char *err;
	size_t errlen;
} encoder;

static bool fail(encoder *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(encoder *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (e->err && e->errlen)
		vsnprintf(e->err, e->errlen, fmt, ap);
	va_end(ap);
	return false;
}

static bool signed_type(spec_type_kind t)
{
	return t == SPEC_TYPE_INT || t == SPEC_TYPE_OFFSET || t == SPEC_TYPE_BRANCH;
}

/* Does v fit a field of width bits and type t? */
static bool fits(int64_t v, unsigned width, spec_type_kind t)
{
	if (width >= 64)
		return true;
	if (signed_type(t)) {
		int64_t lo = -((int64_t)1 << (width - 1)), hi = ((int64_t)1 << (width - 1)) - 1;
		return v >= lo && v <= hi;
	}
	return (uint64_t)v < ((uint64_t)1 << width);
}

/* Places value bits at low.. of w, checking them against what is already
 * fixed there (pattern bits, asserts, other fields). */
static bool place(encoder *e, uint64_t *w, uint64_t *placed, const uint64_t *bits,
                  unsigned width, unsigned low, const char *what)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned b = low + i;
		uint64_t one = (uint64_t)1 << (b % 64);
		bool v = (bits[i / 64] >> (i % 64)) & 1;
		if (placed[b / 64] & one) {
			if (((w[b / 64] & one) != 0) != v)
				return fail(e, "%s needs bit %u to be %d, but it is already %d", what, b, v,
				            !v);
			continue;
		}
		placed[b / 64] |= one;
		if (v)
			w[b / 64] |= one;
		else
			w[b / 64] &= ~one;
	}
	return true;
}

static bool encode_leaf(encoder *e, const spec_bitset *leaf, unsigned depth, uint64_t *w);

/* A bitset-typed field: its sub leaf and the values that follow it. */
static bool encode_sub(encoder *e, const codec_value *v, unsigned depth, uint64_t *w,
                       uint64_t *placed)
{
	const spec_field *f = v->field;
	uint64_t sw[SPEC_MAX_BITS / 64] = {0};
	const codec_decoded *d = e->d;
	bool has_subvalues = e->next < d->nvalues && d->values[e->next].depth > depth;
	if (!has_subvalues) {
		/* No values of its own follow: its bits are as decoded. */
		sw[0] = v->raw;
	} else {
		if (!v->sub)
			return fail(e, "field '%s' has no decoded sub-instruction to encode", f->name);
		if (!encode_leaf(e, v->sub, depth + 1, sw))
			return false;
	}
	return place(e, w, placed, sw, f->high - f->low + 1, f->low, f->name);
}

static bool encode_leaf(encoder *e, const spec_bitset *leaf, unsigned depth, uint64_t *w)
{
	unsigned nw = (leaf->size + 63) / 64;
	uint64_t placed[SPEC_MAX_BITS / 64] = {0};
	if (depth > SPEC_MAX_EXPR_DEPTH)
		return fail(e, "bitset fields nested too deeply");
	/* The pattern: 0/1 bits as merged over the ancestors, x bits 0. */
	for (unsigned k = 0; k < nw; k++) {
		uint64_t fixed = leaf->mask.w[k] & ~leaf->dontcare.w[k];
		w[k] = leaf->match.w[k] & fixed;
		placed[k] = fixed;
	}
	/* Asserts of the default cases on the chain hold their value. */
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		const spec_case *dc = s->ncases ? &s->cases[s->ncases - 1] : NULL;
		for (size_t i = 0; dc && i < dc->nfields; i++) {
			const spec_field *f = &dc->fields[i];
			if (f->kind != SPEC_ASSERT)
				continue;
			uint64_t bits[SPEC_MAX_BITS / 64] = {0};
			for (unsigned b = f->low; b <= f->high; b++)
				if (spec_bit(f->assert_value, b))
					bits[(b - f->low) / 64] |= (uint64_t)1 << ((b - f->low) % 64);
			if (!place(e, w, placed, bits, f->high - f->low + 1, f->low, f->name))
				return false;
		}
	}
	const codec_decoded *d = e->d;
	while (e->next < d->nvalues && d->values[e->next].depth >= depth) {
		const codec_value *v = &d->values[e->next++];
		const spec_field *f = v->field;
		if (v->depth > depth)
			return fail(e, "value '%s' is nested deeper than any bitset field before it",
			            f ? f->name : "?");
		if (!f || f->kind != SPEC_FIELD)
			continue; /* derived values are computed, not placed */
		unsigned width = f->high - f->low + 1;
		if (f->type == SPEC_TYPE_BITSET) {
			if (!encode_sub(e, v, depth, w, placed))
				return false;
			continue;
		}
		if (!fits(v->value, width, f->type))
			return fail(e, "value %lld does not fit the %u-bit %s field '%s'",
			            (long long)v->value, width,
			            signed_type(f->type) ? "signed" : "unsigned", f->name);
		uint64_t bits = width >= 64 ? (uint64_t)v->value
		                            : (uint64_t)v->value & (((uint64_t)1 << width) - 1);
		if (!place(e, w, placed, &bits, width, f->low, f->name))
			return false;
	}
	return true;
}

bool codec_encode(const codec *c, const codec_decoded *d, uint64_t *w, char *err,
                  size_t errlen)
{
	(void)c;
	encoder e = {d, 0, err, errlen};
	if (err && errlen)
		err[0] = 0;
	if (!d->leaf)
		return fail(&e, "nothing to encode: the decoding has no leaf");
	memset(w, 0, ((d->leaf->size + 63) / 64) * sizeof *w);
	if (!encode_leaf(&e, d->leaf, 0, w))
		return false;
	if (e.next != d->nvalues)
		return fail(&e, "%zu values left over after the instruction", d->nvalues - e.next);
	return true;
}
