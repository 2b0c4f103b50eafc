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
#include "fuzz.h"
#include "spec.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WORDS (SPEC_MAX_BITS / 64)

static uint64_t rng = 0x2545f4914f6cdd1du;

typedef struct tally {
	unsigned long decoded, changed, refused, refused_changed;
} tally;

/* Both encoders on d (fuzz_encoders_differ); whether codec_encode
 * accepted it in *ok. */
static bool same_answer(const fuzz_spec *S, const codec_decoded *d, bool *ok)
{
	char why[512];
	uint64_t w[MAX_WORDS];
	*ok = codec_encode(S->c, d, w, NULL, 0);
	bool differ = fuzz_encoders_differ(S, d, why, sizeof why);
	if (differ)
		fprintf(stderr, "%s: %s\n", d->leaf ? d->leaf->name : "(no leaf)", why);
	return !differ;
}

static void try_word(const fuzz_spec *S, const spec_root *r, const uint64_t *w, tally *t)
{
	static fuzz_decoding d;
	static codec_value changed[FUZZ_MAX_VALUES + 1];
	uint32_t gen = (uint32_t)(testlib_random(&rng) % 1000);
	fuzz_decoding_reset(&d);
	codec_decode(S->c, r, w, gen, &d.d);
	if (!d.d.leaf || !d.d.nvalues || d.d.nvalues >= FUZZ_MAX_VALUES)
		return;
	t->decoded++;
	bool ok;
	CHECK(same_answer(S, &d.d, &ok)); /* recorded, or served */
	CHECK(same_answer(S, &d.d, &ok)); /* served */
	t->refused += !ok;
	for (unsigned how = 0; how < 7; how++) {
		codec_decoded x;
		/* each kind of change in turn, the rest of r at random */
		fuzz_change_decoding(&d.d, &x, changed, testlib_random(&rng) / 7 * 7 + how);
		CHECK(same_answer(S, &x, &ok));
		t->changed++;
		t->refused_changed += !ok;
	}
}

static void hold_spec(const char *name, unsigned words)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, name))
		return;
	const spec_model *m = S.m;
	tally t = {0};
	for (size_t ri = 0; ri < m->nroots; ri++) {
		const spec_root *r = &m->roots[ri];
		unsigned bits = r->bitset->size, nw = (bits + 63) / 64;
		if (!bits || nw > MAX_WORDS)
			continue;
		uint64_t w[MAX_WORDS] = {0};
		/* random words, then every bitset's pattern over random bits */
		for (unsigned i = 0; i < words; i++) {
			testlib_random_instr(&rng, w, bits, NULL);
			try_word(&S, r, w, &t);
		}
		for (size_t bi = 0; bi < m->nbitsets; bi++) {
			const spec_bitset *b = m->bitsets[bi];
			if (b->root != r->bitset)
				continue;
			for (unsigned rep = 0; rep < 4; rep++) {
				testlib_random_instr(&rng, w, bits, b);
				try_word(&S, r, w, &t);
			}
		}
	}
	codec_encoder_stats st = codec_encoder_get_stats(S.enc);
	printf("%s: %lu decodings (%lu refused), %lu changed (%lu refused); %zu templates, %zu "
	       "shapes, %zu bytes; %lu leaves by a template, %lu sent the general way\n",
	       S.path, t.decoded, t.refused, t.changed, t.refused_changed, st.templates, st.shapes,
	       st.bytes, st.hits, st.misses);
	/* both ways were taken, and the changes were refused and accepted */
	CHECK(t.decoded > 100);
	CHECK(st.templates > 0 && st.hits > t.decoded);
	CHECK(st.misses > 0);
	CHECK(t.refused_changed > 0 && t.refused_changed < t.changed);
	fuzz_spec_free(&S);
}

TEST(ours_answer_alike)
{
	hold_spec("repo:isa/a2xx.xml", 3000);
	hold_spec("repo:isa/midgard.xml", 3000);
	hold_spec("repo:isa/etnaviv.xml", 3000);
}

TEST(mesas_answer_alike)
{
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	hold_spec("shared:mesa/src/freedreno/isa/ir3.xml", 3000);
	hold_spec("shared:mesa/src/etnaviv/isa/etnaviv.xml", 3000);
	hold_spec("shared:mesa/src/freedreno/afuc/afuc.xml", 3000);
}

/* A decoding without a leaf is refused alike. */
TEST(null_leaf_is_refused_alike)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, "repo:isa/etnaviv.xml"))
		return;
	codec_decoded d = {0};
	uint64_t w[MAX_WORDS];
	char why[256];
	CHECK(!codec_encode(S.c, &d, w, NULL, 0));
	CHECK(!fuzz_encoders_differ(&S, &d, why, sizeof why));
	codec_encoder_free(NULL);
	fuzz_spec_free(&S);
}

/* A value whose field lies past its leaf's bits (a decoding made by
 * hand) is refused, by both, and nothing is written past the leaf's
 * words (the caller's buffer may have no more). */
TEST(field_outside_the_leaf_is_refused)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, "repo:isa/midgard.xml"))
		return;
	const spec_model *m = S.m;
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
	static fuzz_decoding d;
	unsigned tried = 0;
	for (unsigned i = 0; r && far && i < 2000 && tried < 50; i++) {
		uint64_t w[MAX_WORDS] = {testlib_random(&rng)};
		if (r->bitset->size < 64)
			w[0] &= ((uint64_t)1 << r->bitset->size) - 1;
		fuzz_decoding_reset(&d);
		codec_decode(S.c, r, w, 0, &d.d);
		size_t vi = 0;
		while (vi < d.d.nvalues && (!d.d.values[vi].field || d.d.values[vi].depth ||
		                            d.d.values[vi].field->kind != SPEC_FIELD))
			vi++;
		if (!d.d.leaf || vi == d.d.nvalues)
			continue;
		tried++;
		char why[512], err[256];
		/* the first pass records the leaf's template, the second
		 * changes the value (a template serves it, or not) */
		CHECK(!fuzz_encoders_differ(&S, &d.d, why, sizeof why));
		d.d.values[vi].field = far;
		CHECK(!fuzz_encoders_differ(&S, &d.d, why, sizeof why));
		uint64_t out[MAX_WORDS];
		CHECK(!codec_encode(S.c, &d.d, out, err, sizeof err));
		CHECK(strstr(err, "lies outside") != NULL);
	}
	CHECK(tried == 50);
	fuzz_spec_free(&S);
}

int main(void)
{
	RUN(ours_answer_alike);
	RUN(mesas_answer_alike);
	RUN(null_leaf_is_refused_alike);
	RUN(field_outside_the_leaf_is_refused);
	return testlib_finish();
}
