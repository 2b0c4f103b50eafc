/*
 * test_codec_encoder.c - codec_encoder_encode answers as codec_encode.
 *
 * The encoder keeps templates (per leaf and set of held cases: what the
 * general way decided) and shapes (where a leaf's overrides find the
 * values they read).  Neither may change an answer: on decodings of
 * random words and of words seeded from every bitset's pattern, under
 * every root of our three specs and Mesa's (../shared), the result, the
 * words and the message must be codec_encode's, the first time a shape
 * is seen (recorded) and every time after (served from the template);
 * and so on decodings changed the ways a template must notice (a value
 * out of range, another field, a value missing or added, another case)
 * or need not (another value that fits).
 */
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#define MAX_VALUES 512
#define MAX_WORDS (SPEC_MAX_BITS / 64)

static uint64_t rng = 0x2545f4914f6cdd1du;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

typedef struct tally {
	unsigned long decoded, changed, refused, refused_changed;
} tally;

/* Both encoders on d: the same answer, words and message. */
static bool same_answer(const codec *c, codec_encoder *enc, const codec_decoded *d, bool *ok)
{
	uint64_t w1[MAX_WORDS], w2[MAX_WORDS];
	char e1[256], e2[256];
	unsigned nw = d->leaf ? (d->leaf->size + 63) / 64 : 0;
	memset(w1, 0xa5, sizeof w1);
	memset(w2, 0xa5, sizeof w2);
	bool r1 = codec_encode(c, d, w1, e1, sizeof e1);
	bool r2 = codec_encoder_encode(enc, d, w2, e2, sizeof e2);
	*ok = r1;
	bool same = r1 == r2 && !strcmp(e1, e2) && (!r1 || !memcmp(w1, w2, nw * sizeof *w1));
	if (!same)
		fprintf(stderr, "%s: codec_encode %s (%s), the encoder %s (%s)\n", d->leaf->name,
		        r1 ? "encodes" : "refuses", e1, r2 ? "encodes" : "refuses", e2);
	return same;
}

/* d changed in one of the ways a template must notice or need not. */
static void change(const codec_decoded *d, codec_decoded *x, codec_value *vals, unsigned how)
{
	*x = *d;
	memcpy(vals, d->values, d->nvalues * sizeof *vals);
	x->values = vals;
	size_t i = (size_t)(next_random() % d->nvalues);
	codec_value *v = &vals[i];
	switch (how) {
	case 0: /* another value, in range or not */
		v->value = (int64_t)(next_random() >> (next_random() % 64));
		v->raw = (uint64_t)v->value;
		break;
	case 1: /* a value one past its field's range */
		if (v->field && v->field->high >= v->field->low && v->field->high - v->field->low < 62)
			v->value = (int64_t)1 << (v->field->high - v->field->low + 1);
		break;
	case 2: /* another value's field, owner and case */
		{
			const codec_value *o = &d->values[next_random() % d->nvalues];
			v->field = o->field;
			v->owner = o->owner;
			v->kase = o->kase;
		}
		break;
	case 3: /* a value left out */
		memmove(v, v + 1, (d->nvalues - i - 1) * sizeof *v);
		x->nvalues--;
		break;
	case 4: /* a value twice */
		if (d->nvalues < MAX_VALUES) {
			memmove(v + 1, v, (d->nvalues - i) * sizeof *v);
			x->nvalues++;
		}
		break;
	case 5: /* its case not known */
		v->kase = NULL;
		break;
	default: /* one level deeper */
		v->depth++;
		break;
	}
}

static void try_word(const codec *c, codec_encoder *enc, const spec_root *r, const uint64_t *w,
                     tally *t)
{
	static codec_value values[MAX_VALUES], changed[MAX_VALUES];
	static codec_issue issues[64];
	codec_decoded d = {.values = values, .cap_values = MAX_VALUES, .issues = issues,
	                   .cap_issues = 64};
	uint32_t gen = (uint32_t)(next_random() % 1000);
	codec_decode(c, r, w, gen, &d);
	if (!d.leaf || !d.nvalues || d.nvalues >= MAX_VALUES - 1)
		return;
	t->decoded++;
	bool ok;
	CHECK(same_answer(c, enc, &d, &ok)); /* recorded, or served */
	CHECK(same_answer(c, enc, &d, &ok)); /* served */
	t->refused += !ok;
	for (unsigned how = 0; how < 7; how++) {
		codec_decoded x;
		change(&d, &x, changed, how);
		CHECK(same_answer(c, enc, &x, &ok));
		t->changed++;
		t->refused_changed += !ok;
	}
}

static void hold_spec(const char *path, unsigned words)
{
	testlib_codec l = testlib_load_codec(path);
	const spec_model *m = l.m;
	const codec *c = l.c;
	if (!c) {
		testlib_unload_codec(&l);
		return;
	}
	codec_encoder *enc = codec_encoder_new(c);
	CHECK(enc != NULL);
	tally t = {0};
	for (size_t ri = 0; enc && ri < m->nroots; ri++) {
		const spec_root *r = &m->roots[ri];
		unsigned bits = r->bitset->size, nw = (bits + 63) / 64;
		if (!bits || nw > MAX_WORDS)
			continue;
		uint64_t w[MAX_WORDS] = {0};
		/* random words, then every bitset's pattern over random bits */
		for (unsigned i = 0; i < words; i++) {
			for (unsigned k = 0; k < nw; k++)
				w[k] = next_random();
			if (bits % 64)
				w[nw - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
			try_word(c, enc, r, w, &t);
		}
		for (size_t bi = 0; bi < m->nbitsets; bi++) {
			const spec_bitset *b = m->bitsets[bi];
			if (b->root != r->bitset)
				continue;
			for (unsigned rep = 0; rep < 4; rep++) {
				for (unsigned k = 0; k < nw; k++) {
					uint64_t mask = k < b->mask.nwords ? b->mask.w[k] : 0;
					uint64_t match = k < b->match.nwords ? b->match.w[k] : 0;
					w[k] = (next_random() & ~mask) | (match & mask);
				}
				if (bits % 64)
					w[nw - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
				try_word(c, enc, r, w, &t);
			}
		}
	}
	codec_encoder_stats st = enc ? codec_encoder_get_stats(enc) : (codec_encoder_stats){0};
	printf("%s: %lu decodings (%lu refused), %lu changed (%lu refused); %zu templates, %zu "
	       "shapes, %zu bytes; %lu leaves by a template, %lu sent the general way\n",
	       path, t.decoded, t.refused, t.changed, t.refused_changed, st.templates, st.shapes,
	       st.bytes, st.hits, st.misses);
	/* both ways were taken, and the changes were refused and accepted */
	CHECK(t.decoded > 100);
	CHECK(st.templates > 0 && st.hits > t.decoded);
	CHECK(st.misses > 0);
	CHECK(t.refused_changed > 0 && t.refused_changed < t.changed);
	codec_encoder_free(enc);
	testlib_unload_codec(&l);
}

TEST(ours_answer_alike)
{
	hold_spec(ISACHECK_SOURCE_DIR "/isa/a2xx.xml", 3000);
	hold_spec(ISACHECK_SOURCE_DIR "/isa/midgard.xml", 3000);
	hold_spec(ISACHECK_SOURCE_DIR "/isa/etnaviv.xml", 3000);
}

TEST(mesas_answer_alike)
{
	char ir3[1024], etna[1024], afuc[1024];
	testlib_shared_path(ir3, sizeof ir3, "mesa/src/freedreno/isa/ir3.xml");
	testlib_shared_path(etna, sizeof etna, "mesa/src/etnaviv/isa/etnaviv.xml");
	testlib_shared_path(afuc, sizeof afuc, "mesa/src/freedreno/afuc/afuc.xml");
	if (!testlib_have_shared(ir3))
		return;
	hold_spec(ir3, 3000);
	hold_spec(etna, 3000);
	hold_spec(afuc, 3000);
}

/* A decoding without a leaf is refused alike. */
TEST(null_leaf_is_refused_alike)
{
	testlib_codec l = testlib_load_codec(ISACHECK_SOURCE_DIR "/isa/etnaviv.xml");
	const codec *c = l.c;
	if (!c) {
		testlib_unload_codec(&l);
		return;
	}
	codec_encoder *enc = codec_encoder_new(c);
	codec_decoded d = {0};
	uint64_t w[MAX_WORDS];
	char e1[128], e2[128];
	CHECK(!codec_encode(c, &d, w, e1, sizeof e1));
	CHECK(!codec_encoder_encode(enc, &d, w, e2, sizeof e2));
	CHECK_STR(e1, e2);
	codec_encoder_free(enc);
	codec_encoder_free(NULL);
	testlib_unload_codec(&l);
}

/* A value whose field lies past its leaf's bits (a decoding made by
 * hand) is refused, by both, and nothing is written past the leaf's
 * words (the caller's buffer may have no more). */
TEST(field_outside_the_leaf_is_refused)
{
	testlib_codec l = testlib_load_codec(ISACHECK_SOURCE_DIR "/isa/midgard.xml");
	const spec_model *m = l.m;
	const codec *c = l.c;
	if (!c) {
		testlib_unload_codec(&l);
		return;
	}
	codec_encoder *enc = codec_encoder_new(c);
	/* the narrowest root, and a field of the model past its size */
	const spec_root *r = NULL;
	for (size_t i = 0; i < m->nroots; i++)
		if (m->roots[i].bitset->size && (!r || m->roots[i].bitset->size < r->bitset->size))
			r = &m->roots[i];
	const spec_field *far = NULL;
	for (size_t bi = 0; bi < m->nbitsets && !far; bi++)
		for (size_t ci = 0; ci < m->bitsets[bi]->ncases && !far; ci++)
			for (size_t fi = 0; fi < m->bitsets[bi]->cases[ci].nfields && !far; fi++) {
				const spec_field *f = &m->bitsets[bi]->cases[ci].fields[fi];
				if (f->kind == SPEC_FIELD && f->type != SPEC_TYPE_BITSET &&
				    r && f->low >= r->bitset->size + 64)
					far = f;
			}
	CHECK(r != NULL && far != NULL);
	static codec_value values[MAX_VALUES];
	static codec_issue issues[64];
	unsigned tried = 0;
	for (unsigned i = 0; r && far && i < 2000 && tried < 50; i++) {
		codec_decoded d = {.values = values, .cap_values = MAX_VALUES, .issues = issues,
		                   .cap_issues = 64};
		uint64_t w[MAX_WORDS] = {next_random()};
		if (r->bitset->size < 64)
			w[0] &= ((uint64_t)1 << r->bitset->size) - 1;
		codec_decode(c, r, w, 0, &d);
		size_t vi = 0;
		while (vi < d.nvalues && (!d.values[vi].field || d.values[vi].depth ||
		                          d.values[vi].field->kind != SPEC_FIELD))
			vi++;
		if (!d.leaf || vi == d.nvalues)
			continue;
		tried++;
		for (int pass = 0; pass < 2; pass++) {
			/* the first pass records the leaf's template, the second
			 * changes the value (a template serves it, or not) */
			if (pass)
				d.values[vi].field = far;
			uint64_t w1[MAX_WORDS + 1], w2[MAX_WORDS + 1];
			unsigned nw = (d.leaf->size + 63) / 64;
			memset(w1, 0xa5, sizeof w1);
			memset(w2, 0xa5, sizeof w2);
			char e1[256], e2[256];
			bool r1 = codec_encode(c, &d, w1, e1, sizeof e1);
			bool r2 = codec_encoder_encode(enc, &d, w2, e2, sizeof e2);
			CHECK(r1 == r2);
			CHECK_STR(e1, e2);
			if (pass) {
				CHECK(!r1);
				CHECK(strstr(e1, "lies outside") != NULL);
			}
			/* nothing past the leaf's words */
			CHECK(w1[nw] == 0xa5a5a5a5a5a5a5a5u && w2[nw] == 0xa5a5a5a5a5a5a5a5u);
		}
	}
	CHECK(tried == 50);
	codec_encoder_free(enc);
	testlib_unload_codec(&l);
}

int main(void)
{
	RUN(ours_answer_alike);
	RUN(mesas_answer_alike);
	RUN(null_leaf_is_refused_alike);
	RUN(field_outside_the_leaf_is_refused);
	return testlib_finish();
}
