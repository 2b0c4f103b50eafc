/*
 * test_fuzz_support.c - what the round-trip fuzz targets take for granted
 * (fuzz/support.c).
 *
 * roundtrip.c does not decode a re-encoding equal to the input again: the
 * same words must decode alike.  It leaves out the third encoding when
 * fuzz_same_encoder_input says the second decoding equals the first in
 * all the encoder reads: that must imply the same words.  Both held here
 * on random words of our three specs, every root, against the calls
 * skipped; and each thing the encoder reads, changed alone, must make the
 * two decodings differ.
 */
#include "codec.h"
#include "fuzz.h"
#include "spec.h"
#include "testlib.h"

#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

typedef struct skip_tally {
	unsigned long decoded, implied, same_words;
} skip_tally;

/* One word under root r: the round trip as roundtrip.c runs it, and the
 * encoding it skips done anyway. */
static void hold_skip(const fuzz_spec *S, const spec_root *r, const uint64_t *w,
                      skip_tally *t)
{
	static fuzz_decoding d1, d2;
	fuzz_spec V = fuzz_spec_view(S, r);
	uint64_t w2[FUZZ_MAX_WORDS] = {0}, w3[FUZZ_MAX_WORDS] = {0};
	char err[256];
	fuzz_decode(&V, w, 0, &d1);
	if (!codec_decoding_has_meaning(&d1.d) || !codec_encode(V.c, &d1.d, w2, err, sizeof err))
		return;
	t->decoded++;
	fuzz_decode(&V, w2, 0, &d2);
	bool same_words = !memcmp(w, w2, V.nwords * sizeof *w);
	if (same_words) {
		char why[256];
		CHECK(fuzz_same_meaning(&d1.d, &d2.d, why, sizeof why));
		CHECK(fuzz_same_encoder_input(&d1.d, &d2.d));
		CHECK_INT(d1.d.nissues, d2.d.nissues);
	}
	if (!fuzz_same_encoder_input(&d1.d, &d2.d))
		return;
	t->implied++;
	t->same_words += same_words;
	CHECK(codec_encode(V.c, &d2.d, w3, err, sizeof err));
	CHECK(!memcmp(w2, w3, V.nwords * sizeof *w2));
}

static void hold_spec(const char *name, unsigned words)
{
	fuzz_spec S;
	int rc = fuzz_spec_load(&S, name, CODEC_NO_MATCH_MESA);
	CHECK_INT(rc, 0);
	if (rc)
		return;
	skip_tally t = {0};
	for (unsigned i = 0; i < words; i++) {
		uint64_t w[FUZZ_MAX_WORDS];
		for (unsigned k = 0; k < FUZZ_MAX_WORDS; k++)
			w[k] = next_random();
		for (size_t r = 0; r < S.m->nroots; r++) {
			unsigned bits = S.m->roots[r].bitset->size;
			if (!bits || bits > 64 * FUZZ_MAX_WORDS)
				continue;
			uint64_t v[FUZZ_MAX_WORDS];
			memcpy(v, w, sizeof v);
			if (bits % 64)
				v[bits / 64] &= ((uint64_t)1 << (bits % 64)) - 1;
			for (unsigned k = (bits + 63) / 64; k < FUZZ_MAX_WORDS; k++)
				v[k] = 0;
			hold_skip(&S, &S.m->roots[r], v, &t);
		}
	}
	printf("%s: %u random words, %lu decoded with a meaning and encoded, %lu second "
	       "decodings equal for the encoder (%lu of them the same words)\n",
	       name, words, t.decoded, t.implied, t.same_words);
	/* the property was exercised on words the encoder changed, not passed
	 * for want of cases */
	CHECK(t.implied - t.same_words > 10);
	fuzz_spec_free(&S);
}

TEST(skipped_encoding_is_implied)
{
	hold_spec("repo:isa/etnaviv.xml", 20000);
	hold_spec("repo:isa/a2xx.xml", 20000);
	hold_spec("repo:isa/midgard.xml", 20000);
}

/* A decoding of our etnaviv with a bitset-typed value and another: found
 * among random words, so that every attribute below has a value to change. */
static bool find_decoding(const fuzz_spec *S, fuzz_decoding *d)
{
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t w[FUZZ_MAX_WORDS] = {0};
		for (unsigned k = 0; k < S->nwords; k++)
			w[k] = next_random();
		fuzz_decode(S, w, 0, d);
		if (!codec_decoding_has_meaning(&d->d))
			continue;
		bool sub = false, plain = false;
		for (size_t j = 0; j < d->d.nvalues; j++) {
			sub |= d->d.values[j].sub != NULL;
			plain |= d->d.values[j].sub == NULL;
		}
		if (sub && plain)
			return true;
	}
	return false;
}

TEST(each_encoder_input_tells_decodings_apart)
{
	fuzz_spec S;
	int rc = fuzz_spec_load(&S, "repo:isa/etnaviv.xml", CODEC_NO_MATCH_MESA);
	CHECK_INT(rc, 0);
	if (rc)
		return;
	static fuzz_decoding a, b;
	CHECK(find_decoding(&S, &a));
	CHECK(fuzz_same_encoder_input(&a.d, &a.d));
	size_t sub = 0, plain = 0;
	for (size_t j = 0; j < a.d.nvalues; j++) {
		if (a.d.values[j].sub)
			sub = j;
		else
			plain = j;
	}
	/* b: a copy of a with one change at a time */
#define CHANGED(stmt)                                                              \
	do {                                                                           \
		b = a;                                                                     \
		b.d.values = b.values;                                                     \
		stmt;                                                                      \
		CHECK(!fuzz_same_encoder_input(&a.d, &b.d));                               \
	} while (0)
	CHANGED(b.d.leaf = S.m->bitsets[0] == a.d.leaf ? S.m->bitsets[1] : S.m->bitsets[0]);
	CHANGED(b.d.gen++);
	CHANGED(b.d.nvalues--);
	CHANGED(b.values[plain].value++);
	CHANGED(b.values[plain].raw++);
	CHANGED(b.values[plain].depth++);
	CHANGED(b.values[plain].field = a.d.values[sub].field);
	CHANGED(b.values[plain].owner = b.values[plain].owner ? NULL : a.d.leaf);
	CHANGED(b.values[plain].kase = b.values[plain].kase ? NULL : &a.d.leaf->cases[0]);
	CHANGED(b.values[sub].sub = NULL);
#undef CHANGED
	/* a sub leaf stands for the raw bits of its field (its x bits among
	 * them): those are not the encoder's input */
	b = a;
	b.d.values = b.values;
	b.values[sub].raw ^= 1;
	CHECK(fuzz_same_encoder_input(&a.d, &b.d));
	fuzz_spec_free(&S);
}

int main(void)
{
	RUN(skipped_encoding_is_implied);
	RUN(each_encoder_input_tells_decodings_apart);
	return testlib_finish();
}
