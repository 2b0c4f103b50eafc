/*
 * encode.c - from a decoding (leaf and field values) back to words.
 * Canonical form: pattern bits as the leaf pins them, don't-care bits 0,
 * assert bits at their expected value, fields at their values.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
	codec_encoder *cache; /* NULL: no templates (codec_encode) */
} encoder;

/* What a leaf's overrides read, for one shape of its values (the
 * fields at its depth, in order): per case of its chain (the leaf's
 * cases, then its parent's, ...), the position among those values of
 * each name its compiled override reads, in the program's order; NULL
 * where the case has no override or one that is not settled that way (a
 * name from a param, no program: case_holds decides).  The first value
 * of a name is the one an override reads, as lookup_id finds it; the
 * names of the values (ids) answer the look-ups of the scopes below
 * through their params, without an index of the scope. */
typedef struct eshape {
	const spec_bitset *leaf;
	uint32_t nvals, nchain;
	bool ok;                  /* every field has its name id (else none is used) */
	const spec_field **fields;
	const uint32_t *ids;      /* per value, its field's name id */
	const uint8_t **pos;
} eshape;

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
	/* With an encoder, its shape and the index in the decoding of each
	 * of its values (NULL: none; then ids and slot, as above). */
	const eshape *shape;
	const uint32_t *idx;
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

/* The name id of every value (e->ids): false when some field has none
 * (not the model's: then names decide) or there are too many values. */
static bool make_ids(encoder *e)
{
	const codec_decoded *d = e->d;
	if (d->nvalues > ENC_MAX_IDS)
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
	return e->ids_ok;
}

static bool lookup_id(enc_scope *sc, uint32_t id, int64_t *value)
{
	encoder *e = sc->e;
	const codec_decoded *d = e->d;
	const eshape *sh = sc->shape;
	if (sh) {
		if (!sh->ok)
			return false;
		for (uint32_t k = 0; k < sh->nvals; k++)
			if (sh->ids[k] == id) {
				*value = d->values[sc->idx[k]].value;
				return true;
			}
		goto params;
	}
	if (!make_ids(e))
		return false;
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
params:;
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
	if (!ce->prog || ce->nrefs > 64)
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

/* ------------------------------------------------------------ templates
 *
 * What encode_leaf does for a leaf depends, besides the values, only on
 * the cases that hold up its chain (the asserts placed, which values are
 * shadowed) and on each value's field, owner and case: a template,
 * recorded the first time the general way encodes a leaf with a set of
 * held cases, is those decisions made once.  It holds the words and
 * placed bits after the pattern and the held cases' asserts, one step a
 * value (its field, owner and case, checked against the value's, and
 * what to do: skip, skip with its sub values, encode its sub leaf, or
 * place its bits at a precomputed word, shift and mask) and the default
 * cases' asserts where no value claimed the bits.  Anything the template
 * did not see (another field, a value that does not fit, a clash on a
 * shared bit, a sub leaf that fails) sends the leaf back the general
 * way, from its first value, which then says what is wrong: a template
 * never changes what the encoder answers, only how fast
 * (tests/test_codec_encoder.c compares the two on every spec). */

enum { T_SKIP, T_SHADOW, T_SUB, T_PLACE1, T_PLACE };

typedef struct tstep {
	const spec_field *field;
	const spec_bitset *owner;
	const spec_case *kase;
	uint8_t kind;
	uint8_t word, shift;      /* T_PLACE1 */
	bool sign;                /* T_PLACE1: a signed type */
	unsigned width;           /* T_PLACE1 */
	uint64_t mask;            /* T_PLACE1: the field's bits in word */
} tstep;

typedef struct etpl {
	const spec_bitset *leaf;
	uint32_t nheld, nsteps, nw;
	const spec_case **held;
	tstep *steps;
	uint64_t *init_w, *init_p, *soft_w; /* nw words each */
} etpl;

/* A decoding's leaf rarely has more values than this at one depth; a
 * longer one is encoded the general way, unrecorded. */
#define TPL_MAX_STEPS 128u
/* A leaf and set of held cases whose values come in several shapes (a
 * derived value left out, a case that holds past the display) has a
 * template for each, up to this many, tried in turn. */
#define TPL_PER_KEY 4u
/* Bounds on what an encoder keeps: past them it records nothing more. */
#define TPL_MAX_COUNT 65536u
#define TPL_MAX_BYTES ((size_t)64 << 20)

struct codec_encoder {
	const codec *c;
	codec_htab tpl, shape;    /* p: an etpl, an eshape */
	size_t bytes;             /* kept in both, with their headers */
	unsigned long hits, misses;
};

codec_encoder_stats codec_encoder_get_stats(const codec_encoder *enc)
{
	return (codec_encoder_stats){enc->tpl.n, enc->shape.n, enc->bytes, enc->hits,
	                             enc->misses};
}

codec_encoder *codec_encoder_new(const codec *c)
{
	codec_encoder *enc = calloc(1, sizeof *enc);
	if (!enc)
		return NULL;
	enc->c = c;
	return enc;
}

static void htab_free(codec_htab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free((void *)t->slot[i].p);
	free(t->slot);
}

void codec_encoder_free(codec_encoder *enc)
{
	if (!enc)
		return;
	htab_free(&enc->tpl);
	htab_free(&enc->shape);
	free(enc);
}

/* Adds p under hash (false: out of memory, nothing added). */
static bool htab_add(codec_htab *t, size_t hash, const void *p)
{
	if (!codec_htab_room(t))
		return false;
	size_t i = hash & (t->cap - 1);
	while (t->slot[i].p)
		i = (i + 1) & (t->cap - 1);
	t->slot[i] = (codec_hent){hash, 0, p};
	t->n++;
	return true;
}

/* Room for size more bytes, within the encoder's bounds. */
static bool encoder_room(const codec_encoder *enc, size_t size)
{
	return enc->tpl.n + enc->shape.n < TPL_MAX_COUNT && enc->bytes + size <= TPL_MAX_BYTES;
}

static size_t tpl_hash(const spec_bitset *leaf, const spec_case *const *held, size_t nheld)
{
	uint64_t h = (uint64_t)(uintptr_t)leaf * 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < nheld; i++)
		h = (h ^ (uint64_t)(uintptr_t)held[i]) * 0xC2B2AE3D27D4EB4Full;
	return (size_t)(h ^ h >> 29);
}

static bool tpl_is(const etpl *t, const spec_bitset *leaf, const spec_case *const *held,
                   size_t nheld)
{
	if (t->leaf != leaf || t->nheld != nheld)
		return false;
	for (size_t i = 0; i < nheld; i++)
		if (t->held[i] != held[i])
			return false;
	return true;
}

/* The next template of leaf and held after slot *at (start: *at =
 * SIZE_MAX), NULL past the last. */
static const etpl *tpl_next(const codec_encoder *enc, const spec_bitset *leaf,
                            const spec_case *const *held, size_t nheld, size_t h, size_t *at)
{
	const codec_htab *t = &enc->tpl;
	if (!t->n)
		return NULL;
	size_t i = *at == SIZE_MAX ? h & (t->cap - 1) : (*at + 1) & (t->cap - 1);
	for (; t->slot[i].p; i = (i + 1) & (t->cap - 1))
		if (t->slot[i].h == h && tpl_is(t->slot[i].p, leaf, held, nheld)) {
			*at = i;
			return t->slot[i].p;
		}
	return NULL;
}

/* Keeps a template (one block: the header, its held cases, steps and
 * words); out of memory or past the bounds, nothing is kept, and the
 * leaf stays the general way's. */
static void tpl_keep(codec_encoder *enc, const spec_bitset *leaf, const spec_case *const *held,
                     size_t nheld, const tstep *steps, size_t nsteps, unsigned nw,
                     const uint64_t *init_w, const uint64_t *init_p, const uint64_t *soft_w)
{
	size_t size = sizeof(etpl) + nsteps * sizeof(tstep) + 3 * nw * sizeof(uint64_t) +
	              nheld * sizeof(const spec_case *);
	if (!encoder_room(enc, size))
		return;
	/* the steps first (pointer-aligned), then the words, then the cases */
	etpl *t = malloc(size);
	if (!t)
		return;
	t->leaf = leaf;
	t->nheld = (uint32_t)nheld;
	t->nsteps = (uint32_t)nsteps;
	t->nw = nw;
	t->steps = (tstep *)(t + 1);
	t->init_w = (uint64_t *)(t->steps + nsteps);
	t->init_p = t->init_w + nw;
	t->soft_w = t->init_p + nw;
	t->held = (const spec_case **)(t->soft_w + nw);
	memcpy(t->steps, steps, nsteps * sizeof *steps);
	memcpy(t->init_w, init_w, nw * sizeof *init_w);
	memcpy(t->init_p, init_p, nw * sizeof *init_p);
	memcpy(t->soft_w, soft_w, nw * sizeof *soft_w);
	memcpy(t->held, held, nheld * sizeof *held);
	if (!htab_add(&enc->tpl, tpl_hash(leaf, held, nheld), t)) {
		free(t);
		return;
	}
	enc->bytes += size;
}

/* The cases of leaf's chain a shape covers at most. */
#define SHAPE_MAX_CHAIN 64u

static size_t shape_hash_step(size_t h, const spec_field *f)
{
	return (h ^ (size_t)(uintptr_t)f) * (size_t)0x9E3779B97F4A7C15ull;
}

/* Makes and keeps the shape of leaf's values fields[0..n) (NULL: out of
 * memory or past the bounds). */
static const eshape *shape_make(codec_encoder *enc, const spec_bitset *leaf,
                                const spec_field *const *fields, uint32_t n, size_t hash)
{
	const codec *c = enc->c;
	uint32_t nchain = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		nchain += (uint32_t)s->ncases;
	if (nchain > SHAPE_MAX_CHAIN || !c || !c->enc)
		return NULL;
	/* the name ids of the values (UINT32_MAX: none, or not the model's:
	 * then no case is settled by the shape, as case_by_ids gives up) */
	uint32_t ids[TPL_MAX_STEPS];
	bool ok = true;
	for (uint32_t k = 0; k < n; k++) {
		ids[k] = codec_field_name_id(c, fields[k]);
		ok &= !fields[k] || ids[k] != UINT32_MAX;
	}
	/* the positions: per case with a usable program, nrefs bytes */
	const uint8_t *pos[SHAPE_MAX_CHAIN];
	uint8_t posv[SHAPE_MAX_CHAIN * 64];
	size_t npos = 0;
	uint32_t chain = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t ci = 0; ci < s->ncases; ci++, chain++) {
			pos[chain] = NULL;
			const cenc_case *ce = s->cases[ci].expr && ok && s->index < c->m->nbitsets &&
			                      c->m->bitsets[s->index] == s ? &c->enc[s->index][ci] : NULL;
			if (!ce || !ce->prog || ce->nrefs > 64)
				continue;
			size_t at = npos;
			uint32_t j = 0;
			for (; j < ce->nrefs; j++) {
				uint32_t k = 0;
				while (k < n && ids[k] != ce->refs[j])
					k++;
				if (k == n)
					break; /* from a param, or nowhere: case_holds */
				posv[npos++] = (uint8_t)k;
			}
			if (j < ce->nrefs) {
				npos = at;
				continue;
			}
			pos[chain] = posv + at; /* made absolute below */
		}
	size_t size = sizeof(eshape) + n * sizeof(const spec_field *) +
	              nchain * sizeof(const uint8_t *) + n * sizeof(uint32_t) + npos;
	if (!encoder_room(enc, size))
		return NULL;
	eshape *sh = malloc(size);
	if (!sh)
		return NULL;
	sh->leaf = leaf;
	sh->nvals = n;
	sh->nchain = nchain;
	sh->ok = ok;
	sh->fields = (const spec_field **)(sh + 1);
	sh->pos = (const uint8_t **)(sh->fields + n);
	uint32_t *iv = (uint32_t *)(sh->pos + nchain);
	uint8_t *pv = (uint8_t *)(iv + n);
	memcpy(iv, ids, n * sizeof *ids);
	sh->ids = iv;
	memcpy(sh->fields, fields, n * sizeof *fields);
	memcpy(pv, posv, npos);
	for (uint32_t k = 0; k < nchain; k++)
		sh->pos[k] = pos[k] ? pv + (pos[k] - posv) : NULL;
	if (!htab_add(&enc->shape, hash, sh)) {
		free(sh);
		return NULL;
	}
	enc->bytes += size;
	return sh;
}

/* The shape of the values of leaf's scope (from e->next, at depth), and
 * in idx the index in the decoding of each (NULL: more values than a
 * shape holds, or none could be made). */
static const eshape *scope_shape(encoder *e, const spec_bitset *leaf, unsigned depth,
                                 uint32_t *idx)
{
	const codec_decoded *d = e->d;
	const spec_field *fields[TPL_MAX_STEPS];
	uint32_t n = 0;
	size_t h = (size_t)(uintptr_t)leaf * (size_t)0xC2B2AE3D27D4EB4Full;
	for (size_t i = e->next; i < d->nvalues && d->values[i].depth >= depth; i++) {
		if (d->values[i].depth != depth)
			continue;
		if (n == TPL_MAX_STEPS)
			return NULL;
		idx[n] = (uint32_t)i;
		fields[n++] = d->values[i].field;
		h = shape_hash_step(h, d->values[i].field);
	}
	h ^= n;
	const codec_htab *t = &e->cache->shape;
	for (size_t i = t->n ? h & (t->cap - 1) : 0; t->n && t->slot[i].p; i = (i + 1) & (t->cap - 1)) {
		const eshape *sh = t->slot[i].p;
		if (t->slot[i].h == h && sh->leaf == leaf && sh->nvals == n &&
		    !memcmp(sh->fields, fields, n * sizeof *fields))
			return sh;
	}
	return shape_make(e->cache, leaf, fields, n, h);
}

/* Whether case ci of bitset s (chain index chain) holds, by the shape's
 * positions where it has them, else as case_holds. */
static bool shaped_holds(enc_scope *sc, const eshape *sh, const uint32_t *idx,
                         const spec_bitset *s, size_t ci, uint32_t chain)
{
	const uint8_t *pos = sh && chain < sh->nchain ? sh->pos[chain] : NULL;
	if (!pos)
		return case_holds(sc, s, ci);
	const codec_decoded *d = sc->e->d;
	const cenc_case *ce = &sc->e->c->enc[s->index][ci];
	int64_t vals[64], r;
	for (uint32_t j = 0; j < ce->nrefs; j++)
		vals[j] = d->values[idx[pos[j]]].value;
	if (codec_vm_run(ce->prog, vals, (int64_t)d->gen, &r))
		return r != 0;
	return case_holds(sc, s, ci);
}

/* Runs template t over the values from e->next on: true when it
 * encoded the leaf; false when the values are not what it saw or
 * something failed (the caller goes the general way from the leaf's
 * first value). */
static bool tpl_run(encoder *e, const etpl *t, unsigned depth, uint64_t *w, enc_scope *scope)
{
	const codec_decoded *d = e->d;
	uint64_t placed[SPEC_MAX_BITS / 64];
	memcpy(w, t->init_w, t->nw * sizeof *w);
	memcpy(placed, t->init_p, t->nw * sizeof *placed);
	for (uint32_t i = 0; i < t->nsteps; i++) {
		const tstep *st = &t->steps[i];
		if (e->next >= d->nvalues)
			return false;
		const codec_value *v = &d->values[e->next];
		if (v->depth != depth || v->field != st->field || v->owner != st->owner ||
		    v->kase != st->kase)
			return false;
		e->next++;
		switch (st->kind) {
		case T_SKIP:
			break;
		case T_SHADOW:
			while (e->next < d->nvalues && d->values[e->next].depth > depth)
				e->next++;
			break;
		case T_SUB:
			if (!encode_sub(e, v, depth, w, placed, scope))
				return false;
			break;
		case T_PLACE1: {
			/* fits, then the three operations of encode_leaf's word */
			uint64_t u = (uint64_t)v->value, lim = (uint64_t)1 << st->width;
			if (st->sign ? u + (lim >> 1) >= lim : u >= lim)
				return false;
			unsigned k = st->word;
			uint64_t b = (u & (lim - 1)) << st->shift;
			if (placed[k] & st->mask & (w[k] ^ b))
				return false;
			placed[k] |= st->mask;
			w[k] = (w[k] & ~st->mask) | b;
			break;
		}
		default: {
			const spec_field *f = v->field;
			unsigned width = f->high - f->low + 1;
			if (!fits(v->value, width, f->type))
				return false;
			uint64_t bits = width >= 64 ? (uint64_t)v->value
			                            : (uint64_t)v->value & (((uint64_t)1 << width) - 1);
			if (!place(e, w, placed, &bits, width, f->low, f->name))
				return false;
			break;
		}
		}
	}
	if (e->next < d->nvalues && d->values[e->next].depth >= depth)
		return false;
	for (unsigned k = 0; k < t->nw; k++)
		w[k] |= t->soft_w[k];
	return true;
}

/* The step the general way takes for value v (see tstep). */
static tstep tpl_step(const codec_value *v, uint8_t kind)
{
	tstep st = {.field = v->field, .owner = v->owner, .kase = v->kase, .kind = kind};
	const spec_field *f = v->field;
	if (kind == T_PLACE) {
		unsigned width = f->high - f->low + 1;
		if (width < 64 && f->low / 64 == f->high / 64) {
			st.kind = T_PLACE1;
			st.word = (uint8_t)(f->low / 64);
			st.shift = (uint8_t)(f->low % 64);
			st.width = width;
			st.sign = signed_type(f->type);
			st.mask = (((uint64_t)1 << width) - 1) << st.shift;
		}
	}
	return st;
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
	enc_scope scope;
	scope.e = e;
	scope.first = e->next;
	scope.depth = depth;
	scope.opener = opener;
	scope.parent = parent;
	scope.indexed = 0; /* slot is zeroed when it is first filled */
	/* The cases whose asserts hold: the decoder checks those of the cases
	 * it visits while it looks for the display (from the leaf up, each
	 * case that holds, until one has a display), so those must hold; the
	 * default cases' asserts further up are placed last, where no field
	 * claimed the bits.  Whether a case holds reads the values only, so
	 * all are known before any bit is placed. */
	bool found_display = false;
	const spec_case *held[ENC_MAX_HELD];
	const cenc_case *heldc[ENC_MAX_HELD];
	size_t nheld = 0, nholding = 0;
	const codec *c = e->c;
	bool tables = c && c->enc && leaf->index < c->m->nbitsets && c->m->bitsets[leaf->index] == leaf;
	/* with an encoder, the overrides read the values by their places in
	 * the scope's shape */
	uint32_t idx[TPL_MAX_STEPS];
	const eshape *shape = e->cache ? scope_shape(e, leaf, depth, idx) : NULL;
	scope.shape = shape;
	scope.idx = idx;
	uint32_t chain = 0;
	for (const spec_bitset *s = leaf; s && !found_display; chain += (uint32_t)s->ncases, s = s->parent) {
		for (size_t ci = 0; ci < s->ncases && !found_display; ci++) {
			if (!shaped_holds(&scope, shape, idx, s, ci, chain + (uint32_t)ci))
				continue;
			found_display = s->cases[ci].display != NULL;
			if (nheld < ENC_MAX_HELD) {
				heldc[nheld] = tables ? &c->enc[s->index][ci] : NULL;
				held[nheld++] = &s->cases[ci];
			}
			nholding++;
		}
	}
	/* a template needs every held case in its key */
	bool keyed = e->cache && nholding == nheld && nw <= SPEC_MAX_BITS / 64;
	size_t ntpl = 0; /* of this key, all tried */
	if (keyed) {
		size_t h = tpl_hash(leaf, held, nheld), at = SIZE_MAX;
		for (const etpl *t; (t = tpl_next(e->cache, leaf, held, nheld, h, &at)); ntpl++) {
			if (tpl_run(e, t, depth, w, &scope)) {
				e->cache->hits++;
				return true;
			}
			e->next = scope.first; /* the next, or the general way, from the start */
		}
		e->cache->misses += ntpl > 0;
	}
	/* The pattern: 0/1 bits as merged over the ancestors, x bits 0. */
	for (unsigned k = 0; k < nw; k++) {
		uint64_t fixed = leaf->mask.w[k] & ~leaf->dontcare.w[k];
		w[k] = leaf->match.w[k] & fixed;
		placed[k] = fixed;
	}
	/* The held cases' asserts, in the order the cases were found; past
	 * ENC_MAX_HELD, those of the rest (found again) as well. */
	for (size_t i = 0; i < nheld; i++)
		if (!place_asserts(e, held[i], heldc[i], w, placed, false))
			return false;
	if (nholding > nheld) {
		size_t seen = 0;
		found_display = false;
		for (const spec_bitset *s = leaf; s && !found_display; s = s->parent)
			for (size_t ci = 0; ci < s->ncases && !found_display; ci++) {
				if (!case_holds(&scope, s, ci))
					continue;
				found_display = s->cases[ci].display != NULL;
				if (seen++ >= nheld &&
				    !place_asserts(e, &s->cases[ci], tables ? &c->enc[s->index][ci] : NULL,
				                   w, placed, false))
					return false;
			}
	}
	/* what a template starts from, and its steps as they are taken */
	tstep steps[TPL_MAX_STEPS];
	size_t nsteps = 0;
	uint64_t init_w[SPEC_MAX_BITS / 64], init_p[SPEC_MAX_BITS / 64];
	if (keyed) {
		memcpy(init_w, w, nw * sizeof *w);
		memcpy(init_p, placed, nw * sizeof *placed);
	}
#define RECORD(v, kind)                                          \
	do {                                                     \
		if (keyed && nsteps < TPL_MAX_STEPS)             \
			steps[nsteps] = tpl_step(v, kind);       \
		nsteps++;                                        \
	} while (0)
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
		if (!f || f->kind != SPEC_FIELD) {
			RECORD(v, T_SKIP);
			continue; /* derived values are computed, not placed */
		}
		/* a decoding made by hand can name any field of the model: one
		 * past the leaf's bits would be placed outside its words */
		if (f->high >= leaf->size || f->low > f->high)
			return fail(e, "field '%s' (bits %u..%u) lies outside the %u-bit %s", f->name,
			            f->low, f->high, leaf->size, leaf->name);
		if (shadowed(f, v->owner, v->kase, held, nheld, heldbits, hw)) {
			RECORD(v, T_SHADOW);
			/* with its sub-instruction's values */
			while (e->next < d->nvalues && d->values[e->next].depth > depth)
				e->next++;
			continue;
		}
		unsigned width = f->high - f->low + 1;
		if (f->type == SPEC_TYPE_BITSET) {
			if (!encode_sub(e, v, depth, w, placed, &scope))
				return false;
			RECORD(v, T_SUB);
			continue;
		}
		if (!fits(v->value, width, f->type))
			return fail(e, "value %lld does not fit the %u-bit %s field '%s'",
			            (long long)v->value, width,
			            signed_type(f->type) ? "signed" : "unsigned", f->name);
		RECORD(v, T_PLACE);
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
#undef RECORD
	uint64_t before[SPEC_MAX_BITS / 64];
	if (keyed)
		memcpy(before, placed, nw * sizeof *placed);
	for (const spec_bitset *s = leaf; s; s = s->parent)
		if (s->ncases && !place_asserts(e, &s->cases[s->ncases - 1],
		                                tables ? &c->enc[s->index][s->ncases - 1] : NULL, w,
		                                placed, true))
			return false;
	if (keyed && nsteps <= TPL_MAX_STEPS && ntpl < TPL_PER_KEY) {
		/* the default cases' asserts took the bits no value had */
		uint64_t soft_w[SPEC_MAX_BITS / 64];
		for (unsigned k = 0; k < nw; k++)
			soft_w[k] = w[k] & ~before[k];
		tpl_keep(e->cache, leaf, held, nheld, steps, nsteps, nw, init_w, init_p, soft_w);
	}
	return true;
}

/* One encoding, with templates (cache) or without (NULL). */
static bool encode_with(const codec *c, codec_encoder *cache, const codec_decoded *d,
                        uint64_t *w, char *err, size_t errlen)
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
	e.cache = cache;
	if (err && errlen)
		err[0] = 0;
	if (!d->leaf)
		return fail(&e, "nothing to encode: the decoding has no leaf");
	memset(w, 0, ((d->leaf->size + 63) / 64) * sizeof *w);
	if (!encode_leaf(&e, d->leaf, 0, w, NULL, NULL))
		return false;
	if (e.next != d->nvalues)
		return fail(&e, "%zu values left over after the instruction", d->nvalues - e.next);
	if (err && errlen)
		err[0] = 0; /* a template that failed on the way said something */
	return true;
}

bool codec_encode(const codec *c, const codec_decoded *d, uint64_t *w, char *err,
                  size_t errlen)
{
	return encode_with(c, NULL, d, w, err, errlen);
}

bool codec_encoder_encode(codec_encoder *enc, const codec_decoded *d, uint64_t *w, char *err,
                          size_t errlen)
{
	return encode_with(enc->c, enc, d, w, err, errlen);
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
