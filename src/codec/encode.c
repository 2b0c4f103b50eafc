/*
 * encode.c - from a decoding (leaf and field values) back to words.
 * Canonical form: pattern bits as the leaf pins them, don't-care bits 0,
 * assert bits at their expected value, fields at their values.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Values whose name ids an encoding keeps at most; past it, overrides
 * are evaluated by names. */
#define ENC_MAX_IDS 256u

typedef struct encoder {
	const codec *c;
	const codec_decoded *d;
	size_t next;   /* the next value to consume */
	char *err;
	size_t errlen;
	/* per value, its field's name id (UINT32_MAX: none), made when an
	 * override is first evaluated (ids_made); ids_ok: every field is the
	 * model's, so that ids find what names would */
	bool ids_made, ids_ok;
	uint32_t ids[ENC_MAX_IDS];
} encoder;

/* The values of one bitset being encoded, for the override expressions
 * that choose its case: those at its depth from first on (until the
 * list climbs out of it), and through the params of the field that
 * opened it, its parent's. */
#define ENC_SLOTS 64u /* a power of 2 */

typedef struct enc_scope {
	encoder *e;
	size_t first;
	unsigned depth;
	const spec_field *opener;   /* the bitset field it encodes; NULL at top */
	struct enc_scope *parent;
	/* Its values by name id (lookup_id), made at the first look-up:
	 * every override of a scope reads a few of them, and scanning the
	 * list for each (as often as there are cases up the chain) was the
	 * encoder's largest cost.  slot: value index + 1 (0: empty), open
	 * addressing; the first value of a name wins, as a scan finds it.
	 * A scope with more names than fit a sparse table is scanned. */
	uint8_t indexed; /* 0: not yet, 1: slot holds them, 2: too many: scan */
	uint16_t slot[ENC_SLOTS];
} enc_scope;

static bool scope_lookup(void *ctx, const char *name, unsigned depth, int64_t *value,
                         char *err, size_t errlen)
{
	(void)depth;
	const enc_scope *sc = ctx;
	const codec_decoded *d = sc->e->d;
	for (size_t i = sc->first; i < d->nvalues && d->values[i].depth >= sc->depth; i++) {
		const codec_value *v = &d->values[i];
		if (v->depth == sc->depth && v->field && v->field->name[0] == name[0] &&
		    !strcmp(v->field->name, name)) {
			*value = v->value;
			return true;
		}
	}
	for (size_t i = 0; sc->opener && sc->parent && i < sc->opener->nparams; i++) {
		const spec_param *p = &sc->opener->params[i];
		if (!strcmp(p->as ? p->as : p->name, name))
			return scope_lookup((void *)sc->parent, p->name, depth, value, err, errlen);
	}
	/* a name that resolves to nothing: the expression then fails as
	 * "unknown field", which case_holds does not read (formatting a
	 * message here cost afuc's round trip 8% of its time) */
	(void)err;
	(void)errlen;
	return false;
}

/* scope_lookup by name id (the encoder's ids made): false where the
 * name resolves to nothing. */
static unsigned id_slot(uint32_t id)
{
	return (id * 2654435761u) >> (32 - 6);
}

static void index_scope(enc_scope *sc)
{
	const encoder *e = sc->e;
	const codec_decoded *d = e->d;
	unsigned n = 0;
	sc->indexed = 1;
	memset(sc->slot, 0, sizeof sc->slot);
	for (size_t i = sc->first; i < d->nvalues && d->values[i].depth >= sc->depth; i++) {
		uint32_t id = e->ids[i];
		if (d->values[i].depth != sc->depth || id == UINT32_MAX)
			continue;
		unsigned h = id_slot(id);
		while (sc->slot[h] && e->ids[sc->slot[h] - 1] != id)
			h = (h + 1) % ENC_SLOTS;
		if (sc->slot[h])
			continue; /* a later value of a name already listed */
		if (++n > ENC_SLOTS / 2) {
			sc->indexed = 2;
			return;
		}
		sc->slot[h] = (uint16_t)(i + 1);
	}
}

static bool lookup_id(enc_scope *sc, uint32_t id, int64_t *value)
{
	const encoder *e = sc->e;
	const codec_decoded *d = e->d;
	if (!sc->indexed)
		index_scope(sc);
	if (sc->indexed == 1) {
		for (unsigned h = id_slot(id); sc->slot[h]; h = (h + 1) % ENC_SLOTS)
			if (e->ids[sc->slot[h] - 1] == id) {
				*value = d->values[sc->slot[h] - 1].value;
				return true;
			}
	} else {
		for (size_t i = sc->first; i < d->nvalues && d->values[i].depth >= sc->depth; i++)
			if (d->values[i].depth == sc->depth && e->ids[i] == id) {
				*value = d->values[i].value;
				return true;
			}
	}
	const uint32_t *pids = sc->opener && sc->parent
	                       ? codec_field_param_ids(e->c, sc->opener) : NULL;
	for (size_t j = 0; pids && j < sc->opener->nparams; j++)
		if (pids[2 * j] == id)
			return lookup_id(sc->parent, pids[2 * j + 1], value);
	return false;
}

/* The override's value by its compiled program, every name it reads
 * found by its id as scope_lookup finds it by name.  False: not settled
 * that way (a name that resolves to nothing, an evaluation error), for
 * spec_expr_eval to decide. */
static bool case_by_ids(enc_scope *sc, const cenc_case *ce, int64_t *r)
{
	encoder *e = sc->e;
	const codec_decoded *d = e->d;
	if (!ce->prog || ce->nrefs > 64 || d->nvalues > ENC_MAX_IDS)
		return false;
	if (!e->ids_made) {
		e->ids_ok = true;
		for (size_t i = 0; i < d->nvalues; i++) {
			e->ids[i] = codec_field_name_id(e->c, d->values[i].field);
			if (d->values[i].field && e->ids[i] == UINT32_MAX)
				e->ids_ok = false;
		}
		e->ids_made = true;
	}
	if (!e->ids_ok)
		return false;
	int64_t vals[64];
	for (uint32_t j = 0; j < ce->nrefs; j++)
		if (!lookup_id(sc, ce->refs[j], &vals[j]))
			return false;
	return codec_vm_run(ce->prog, vals, (int64_t)d->gen, r);
}

/* Whether case ci of bitset b applies: the default always; an override
 * when its expression holds over the values (an expression that cannot
 * be evaluated, for want of a value, does not hold).  By ids where the
 * codec has its encoder tables, else by names. */
static bool case_holds(enc_scope *sc, const spec_bitset *b, size_t ci)
{
	const spec_case *k = &b->cases[ci];
	if (!k->expr)
		return true;
	int64_t r = 0;
	const codec *c = sc->e->c;
	if (c && c->enc && b->index < c->m->nbitsets && c->m->bitsets[b->index] == b &&
	    case_by_ids(sc, &c->enc[b->index][ci], &r))
		return r != 0;
	spec_eval_env env = {scope_lookup, (void *)sc, (int64_t)sc->e->d->gen, 0};
	/* why it cannot be evaluated does not matter: it does not hold */
	return spec_expr_eval(k->expr, &env, &r, NULL, 0) && r != 0;
}

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
	/* one test, not three: this runs for every value encoded */
	return (1u << t) & (1u << SPEC_TYPE_INT | 1u << SPEC_TYPE_OFFSET | 1u << SPEC_TYPE_BRANCH);
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
 * fixed there (pattern bits, asserts, other fields); a word of bits at a
 * time. */
static bool place(encoder *e, uint64_t *w, uint64_t *placed, const uint64_t *bits,
                  unsigned width, unsigned low, const char *what)
{
	for (unsigned i = 0; i < width;) {
		unsigned b = low + i, sh = b % 64, n = 64 - sh;
		if (n > width - i)
			n = width - i;
		/* bits i .. i+n-1 of the value */
		uint64_t v = bits[i / 64] >> (i % 64);
		if (i % 64 && n > 64 - i % 64)
			v |= bits[i / 64 + 1] << (64 - i % 64);
		uint64_t m = (n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1) << sh;
		v = (v << sh) & m;
		uint64_t clash = placed[b / 64] & m & (w[b / 64] ^ v);
		if (clash) {
			unsigned at = (unsigned)__builtin_ctzll(clash);
			int want = (int)((v >> at) & 1);
			return fail(e, "%s needs bit %u to be %d, but it is already %d", what,
			            (b / 64) * 64 + at, want, !want);
		}
		placed[b / 64] |= m;
		w[b / 64] = (w[b / 64] & ~m) | v;
		i += n;
	}
	return true;
}

static bool encode_leaf(encoder *e, const spec_bitset *leaf, unsigned depth, uint64_t *w,
                        const spec_field *opener, enc_scope *parent);

/* A bitset-typed field: its sub leaf and the values that follow it. */
static bool encode_sub(encoder *e, const codec_value *v, unsigned depth, uint64_t *w,
                       uint64_t *placed, enc_scope *scope)
{
	const spec_field *f = v->field;
	uint64_t sw[SPEC_MAX_BITS / 64];
	/* only the words the field's bits or its sub leaf take */
	unsigned bits = f->high - f->low + 1;
	if (v->sub && v->sub->size > bits)
		bits = v->sub->size;
	memset(sw, 0, ((bits + 63) / 64 < SPEC_MAX_BITS / 64 ? (bits + 63) / 64 : SPEC_MAX_BITS / 64) *
	                  sizeof *sw);
	const codec_decoded *d = e->d;
	bool has_subvalues = e->next < d->nvalues && d->values[e->next].depth > depth;
	if (v->sub) {
		/* Its leaf, even one without fields: its x bits become 0. */
		if (!encode_leaf(e, v->sub, depth + 1, sw, f, scope))
			return false;
	} else if (!has_subvalues) {
		/* No leaf was decoded and no values follow: its bits as given. */
		sw[0] = v->raw;
	} else {
		return fail(e, "field '%s' has no decoded sub-instruction to encode", f->name);
	}
	return place(e, w, placed, sw, f->high - f->low + 1, f->low, f->name);
}

#define ENC_MAX_HELD 16

/* The bits of low..high that fall in word k. */
static uint64_t range_mask(unsigned k, unsigned low, unsigned high)
{
	unsigned lo = k == low / 64 ? low % 64 : 0, hi = k == high / 64 ? high % 64 : 63;
	return (hi == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (hi + 1)) - 1) & ~(((uint64_t)1 << lo) - 1);
}

/* Whether bits low..high meet bits (nw words). */
static bool meets(const uint64_t *bits, unsigned nw, unsigned low, unsigned high)
{
	for (unsigned k = low / 64; k <= high / 64 && k < nw; k++)
		if (bits[k] & range_mask(k, low, high))
			return true;
	return false;
}

static void set_range(uint64_t *bits, unsigned low, unsigned high)
{
	for (unsigned k = low / 64; k <= high / 64; k++)
		bits[k] |= range_mask(k, low, high);
}

/* A field whose bits a field of an override that holds (of owner or of
 * another bitset of the leaf's chain: one the decoder visited looking for
 * the display) also reads, while the field's own case is not among those:
 * the decoder lists both (every case that holds adds the names it does not
 * shadow), but the encoding is the visited case's, as Mesa's encoder
 * writes only the case that applies; the other value (and asserts of its
 * sub-leaf) must not be forced onto those bits.  heldbits: the bits of
 * the fields of every held case (hw words). */
static bool shadowed(const spec_field *f, const spec_bitset *owner, const spec_case *kase,
                     const spec_case *const *held, size_t nheld, const uint64_t *heldbits,
                     unsigned hw)
{
	if (!owner || !owner->ncases)
		return false;
	/* the decoder's word for it, when it is one of owner's cases */
	const spec_case *own =
	    kase && kase >= owner->cases && kase < owner->cases + owner->ncases ? kase : NULL;
	for (size_t ci = 0; ci < owner->ncases && !own; ci++) {
		const spec_case *k = &owner->cases[ci];
		if (f >= k->fields && f < k->fields + k->nfields)
			own = k;
	}
	if (!own)
		return false;
	for (size_t i = 0; i < nheld; i++)
		if (held[i] == own)
			return false;
	if (!meets(heldbits, hw, f->low, f->high))
		return false;
	/* A visited case with a field of the same name takes this value (the
	 * decoder listed the name once); none: the overlap decides. */
	for (size_t i = 0; i < nheld; i++)
		for (size_t j = 0; j < held[i]->nfields; j++)
			if (!strcmp(held[i]->fields[j].name, f->name))
				return false;
	return true;
}

/* The union of the bits of the held cases' <field>s into bits: their
 * compiled masks (heldc[i]) or, without one, each field's range.  The
 * number of words written. */
static unsigned held_bits(const spec_case *const *held, const cenc_case *const *heldc,
                          size_t nheld, uint64_t *bits)
{
	unsigned n = 0;
	for (size_t i = 0; i < nheld; i++) {
		unsigned need = n;
		if (heldc[i]) {
			need = heldc[i]->nfw;
		} else {
			for (size_t j = 0; j < held[i]->nfields; j++)
				if (held[i]->fields[j].kind == SPEC_FIELD &&
				    held[i]->fields[j].high / 64 + 1 > need)
					need = held[i]->fields[j].high / 64 + 1;
		}
		if (need > SPEC_MAX_BITS / 64)
			need = SPEC_MAX_BITS / 64;
		for (; n < need; n++)
			bits[n] = 0;
		if (heldc[i]) {
			for (unsigned k = 0; k < heldc[i]->nfw && k < n; k++)
				bits[k] |= heldc[i]->fields[k];
			continue;
		}
		for (size_t j = 0; j < held[i]->nfields; j++) {
			const spec_field *f = &held[i]->fields[j];
			if (f->kind == SPEC_FIELD && f->high < SPEC_MAX_BITS)
				set_range(bits, f->low, f->high);
		}
	}
	return n;
}

/* Places the asserts of case k (false: a conflict; soft: skip bits
 * already placed instead). */
static bool place_asserts(encoder *e, const spec_case *k, const cenc_case *ce, uint64_t *w,
                          uint64_t *placed, bool soft)
{
	size_t count = ce ? ce->nasserts : k->nfields;
	for (size_t i = 0; i < count; i++) {
		const spec_field *f = ce ? ce->asserts[i] : &k->fields[i];
		if (f->kind != SPEC_ASSERT)
			continue;
		/* the expected bits at their places, a word at a time */
		unsigned width = f->high - f->low + 1;
		uint64_t bits[SPEC_MAX_BITS / 64];
		for (unsigned at = 0; at < width; at += 64) {
			unsigned b = f->low + at, wi = b / 64, sh = b % 64;
			const spec_bits *av = &f->assert_value;
			uint64_t v = wi < av->nwords ? av->w[wi] >> sh : 0;
			if (sh && wi + 1 < av->nwords)
				v |= av->w[wi + 1] << (64 - sh);
			if (width - at < 64)
				v &= ((uint64_t)1 << (width - at)) - 1;
			bits[at / 64] = v;
		}
		if (!soft) {
			if (!place(e, w, placed, bits, width, f->low, f->name))
				return false;
			continue;
		}
		/* only where nothing is placed yet */
		for (unsigned at = 0; at < width;) {
			unsigned b = f->low + at, sh = b % 64, n = 64 - sh < width - at ? 64 - sh : width - at;
			uint64_t m = (n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1) << sh;
			uint64_t v = bits[at / 64] >> (at % 64);
			if (at % 64 && n > 64 - at % 64)
				v |= bits[at / 64 + 1] << (64 - at % 64);
			m &= ~placed[b / 64];
			placed[b / 64] |= m;
			w[b / 64] |= (v << sh) & m;
			at += n;
		}
	}
	return true;
}

static bool encode_leaf(encoder *e, const spec_bitset *leaf, unsigned depth, uint64_t *w,
                        const spec_field *opener, enc_scope *parent)
{
	unsigned nw = (leaf->size + 63) / 64;
	/* words 0..nw-1 are set below, and every bit placed lies in the leaf:
	 * zeroing all 64 words was the encoder's largest single cost */
	uint64_t placed[SPEC_MAX_BITS / 64];
	if (depth > SPEC_MAX_EXPR_DEPTH)
		return fail(e, "bitset fields nested too deeply");
	/* The pattern: 0/1 bits as merged over the ancestors, x bits 0. */
	for (unsigned k = 0; k < nw; k++) {
		uint64_t fixed = leaf->mask.w[k] & ~leaf->dontcare.w[k];
		w[k] = leaf->match.w[k] & fixed;
		placed[k] = fixed;
	}
	/* Asserts: the decoder checks those of the cases it visits while it
	 * looks for the display (from the leaf up, each case that holds, until
	 * one has a display), so those must hold; the default cases' asserts
	 * further up are placed last, where no field claimed the bits. */
	enc_scope scope;
	scope.e = e;
	scope.first = e->next;
	scope.depth = depth;
	scope.opener = opener;
	scope.parent = parent;
	scope.indexed = 0; /* slot is zeroed when it is first filled */
	bool found_display = false;
	const spec_case *held[ENC_MAX_HELD];
	const cenc_case *heldc[ENC_MAX_HELD];
	size_t nheld = 0;
	const codec *c = e->c;
	bool tables = c && c->enc && leaf->index < c->m->nbitsets && c->m->bitsets[leaf->index] == leaf;
	for (const spec_bitset *s = leaf; s && !found_display; s = s->parent) {
		for (size_t ci = 0; ci < s->ncases && !found_display; ci++) {
			const spec_case *k = &s->cases[ci];
			if (!case_holds(&scope, s, ci))
				continue;
			const cenc_case *ce = tables ? &c->enc[s->index][ci] : NULL;
			if (!place_asserts(e, k, ce, w, placed, false))
				return false;
			found_display = k->display != NULL;
			if (nheld < ENC_MAX_HELD) {
				heldc[nheld] = ce;
				held[nheld++] = k;
			}
		}
	}
	/* The bits of the held cases' fields, for shadowed: one mask test a
	 * value instead of one a value and held case (the largest cost of
	 * encoding an instruction whose fields come from a parent's case). */
	uint64_t heldbits[SPEC_MAX_BITS / 64];
	unsigned hw = held_bits(held, heldc, nheld, heldbits);
	const codec_decoded *d = e->d;
	while (e->next < d->nvalues && d->values[e->next].depth >= depth) {
		const codec_value *v = &d->values[e->next++];
		const spec_field *f = v->field;
		if (v->depth > depth)
			return fail(e, "value '%s' is nested deeper than any bitset field before it",
			            f ? f->name : "?");
		if (!f || f->kind != SPEC_FIELD)
			continue; /* derived values are computed, not placed */
		if (shadowed(f, v->owner, v->kase, held, nheld, heldbits, hw)) {
			/* with its sub-instruction's values */
			while (e->next < d->nvalues && d->values[e->next].depth > depth)
				e->next++;
			continue;
		}
		unsigned width = f->high - f->low + 1;
		if (f->type == SPEC_TYPE_BITSET) {
			if (!encode_sub(e, v, depth, w, placed, &scope))
				return false;
			continue;
		}
		if (!fits(v->value, width, f->type))
			return fail(e, "value %lld does not fit the %u-bit %s field '%s'",
			            (long long)v->value, width,
			            signed_type(f->type) ? "signed" : "unsigned", f->name);
		uint64_t bits = width >= 64 ? (uint64_t)v->value
		                            : (uint64_t)v->value & (((uint64_t)1 << width) - 1);
		if (width < 64 && f->low / 64 == f->high / 64) {
			/* within one word, as nearly every field: place's loop in
			 * three operations (a clash goes to place, which says so) */
			unsigned k = f->low / 64, sh = f->low % 64;
			uint64_t m = (((uint64_t)1 << width) - 1) << sh, b = bits << sh;
			if (!(placed[k] & m & (w[k] ^ b))) {
				placed[k] |= m;
				w[k] = (w[k] & ~m) | b;
				continue;
			}
		}
		if (!place(e, w, placed, &bits, width, f->low, f->name))
			return false;
	}
	for (const spec_bitset *s = leaf; s; s = s->parent)
		if (s->ncases && !place_asserts(e, &s->cases[s->ncases - 1],
		                                tables ? &c->enc[s->index][s->ncases - 1] : NULL, w,
		                                placed, true))
			return false;
	return true;
}

bool codec_encode(const codec *c, const codec_decoded *d, uint64_t *w, char *err,
                  size_t errlen)
{
	/* field by field: an initializer would clear ids, a kilobyte, on
	 * every call (they are written before they are read: ids_made) */
	encoder e;
	e.c = c;
	e.d = d;
	e.next = 0;
	e.err = err;
	e.errlen = errlen;
	e.ids_made = e.ids_ok = false;
	if (err && errlen)
		err[0] = 0;
	if (!d->leaf)
		return fail(&e, "nothing to encode: the decoding has no leaf");
	memset(w, 0, ((d->leaf->size + 63) / 64) * sizeof *w);
	if (!encode_leaf(&e, d->leaf, 0, w, NULL, NULL))
		return false;
	if (e.next != d->nvalues)
		return fail(&e, "%zu values left over after the instruction", d->nvalues - e.next);
	return true;
}

bool codec_decoding_has_meaning(const codec_decoded *d)
{
	if (!d->leaf)
		return false;
	for (size_t i = 0; i < d->nissues; i++)
		switch (d->issues[i].kind) {
		case CODEC_DONTCARE_SET:
		case CODEC_ENUM_MISSING:
		case CODEC_NO_DISPLAY:
		case CODEC_NO_FIELD:
			break;
		default:
			return false;
		}
	return true;
}

/* x: the leaf's don't-care bits, and each sub leaf's at its field (as
 * far as the field's width), root-sized. */
static void decoding_dontcare(const codec_decoded *d, uint64_t *x, unsigned nw)
{
	memset(x, 0, nw * sizeof *x);
	unsigned base[SPEC_MAX_EXPR_DEPTH + 2] = {0};
	for (unsigned k = 0; k < nw && k < d->leaf->dontcare.nwords; k++)
		x[k] = d->leaf->dontcare.w[k];
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		if (!v->sub || !v->field || v->field->kind != SPEC_FIELD ||
		    v->depth + 1 >= SPEC_MAX_EXPR_DEPTH + 2)
			continue;
		unsigned at = base[v->depth] + v->field->low, width = v->field->high - v->field->low + 1;
		base[v->depth + 1] = at;
		for (unsigned j = 0; j < width && j < v->sub->size; j++)
			if (j / 64 < v->sub->dontcare.nwords && (v->sub->dontcare.w[j / 64] >> (j % 64)) & 1 &&
			    (at + j) / 64 < nw)
				x[(at + j) / 64] |= (uint64_t)1 << ((at + j) % 64);
	}
}

codec_roundtrip_result codec_roundtrip(const codec *c, const spec_root *root, const uint64_t *w,
                                       uint32_t gen, const spec_bitset **leaf, uint64_t *out,
                                       uint64_t *diffs, char *why, size_t len)
{
	codec_value values[512];
	codec_issue issues[16];
	codec_decoded d = {.values = values, .cap_values = 512, .issues = issues, .cap_issues = 16};
	if (why && len)
		why[0] = 0;
	codec_decode(c, root, w, gen, &d); /* false on any issue: some leave a meaning */
	if (!d.leaf || d.nvalues == d.cap_values || d.nissues == d.cap_issues)
		return CODEC_RT_NO_MEANING;
	if (!codec_decoding_has_meaning(&d))
		return CODEC_RT_NO_MEANING;
	*leaf = d.leaf;
	unsigned size = d.root->bitset->size, nw = (size + 63) / 64;
	memset(out, 0, nw * sizeof *out);
	if (diffs)
		memset(diffs, 0, nw * sizeof *diffs);
	char err[256];
	if (!codec_encode(c, &d, out, err, sizeof err)) {
		memset(out, 0, nw * sizeof *out);
		if (why && len)
			snprintf(why, len, "the encoder refuses its decoding: %s", err);
		return CODEC_RT_REFUSED;
	}
	uint64_t x[SPEC_MAX_BITS / 64];
	decoding_dontcare(&d, x, nw);
	uint64_t diff[SPEC_MAX_BITS / 64];
	bool same = true;
	for (unsigned k = 0; k < nw; k++) {
		uint64_t want = w[k] & ~x[k];
		if (size % 64 && k == nw - 1)
			want &= ((uint64_t)1 << (size % 64)) - 1;
		diff[k] = out[k] ^ want;
		same &= diff[k] == 0;
	}
	if (same)
		return CODEC_RT_KEPT;
	if (diffs)
		memcpy(diffs, diff, nw * sizeof *diffs);
	if (why && len) {
		size_t at = (size_t)snprintf(why, len, "it re-encodes as 0x");
		for (unsigned k = nw; k-- > 0 && at < len;)
			at += (size_t)snprintf(why + at, len - at, k == nw - 1 ? "%" PRIx64 : "%016" PRIx64,
			                       out[k]);
		if (at < len)
			at += (size_t)snprintf(why + at, len - at, ", bits 0x");
		for (unsigned k = nw; k-- > 0 && at < len;)
			at += (size_t)snprintf(why + at, len - at, k == nw - 1 ? "%" PRIx64 : "%016" PRIx64,
			                       diff[k]);
		if (at < len)
			snprintf(why + at, len - at, " differ from the word's outside its don't-care bits");
	}
	return CODEC_RT_CHANGED;
}
