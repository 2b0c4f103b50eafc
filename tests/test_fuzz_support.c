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
 *
 * The libFuzzer builds steer by what of the spec a decoding reached
 * (fuzz_spec_coverage) rather than by the codec's edges: the counters it
 * sets must tell apart what the decodings reached, and only that.
 */
#include "codec.h"
#include "fuzz.h"
#include "spec.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

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
		CHECK(fuzz_same_encoder_input(&V, &d1.d, &d2.d));
		CHECK_INT(d1.d.nissues, d2.d.nissues);
	}
	if (!fuzz_same_encoder_input(&V, &d1.d, &d2.d))
		return;
	t->implied++;
	t->same_words += same_words;
	CHECK(codec_encode(V.c, &d2.d, w3, err, sizeof err));
	CHECK(!memcmp(w2, w3, V.nwords * sizeof *w2));
}

static void hold_spec(const char *name, unsigned words)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, name))
		return;
	skip_tally t = {0};
	for (unsigned i = 0; i < words; i++) {
		uint64_t w[FUZZ_MAX_WORDS];
		testlib_random_instr(&rng, w, 64 * FUZZ_MAX_WORDS, NULL);
		for (size_t r = 0; r < S.m->nroots; r++) {
			unsigned bits = S.m->roots[r].bitset->size;
			if (!bits || bits > 64 * FUZZ_MAX_WORDS)
				continue;
			uint64_t v[FUZZ_MAX_WORDS];
			testlib_instr_bits(w, bits, v, FUZZ_MAX_WORDS);
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
		testlib_random_instr(&rng, w, 64 * S->nwords, NULL);
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
	if (!testlib_fuzz_spec(&S, "repo:isa/etnaviv.xml"))
		return;
	static fuzz_decoding a, b;
	CHECK(find_decoding(&S, &a));
	CHECK(fuzz_same_encoder_input(&S, &a.d, &a.d));
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
		CHECK(!fuzz_same_encoder_input(&S, &a.d, &b.d));                               \
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
	 * them): those are not the encoder's input, unless a name reads them */
	b = a;
	b.d.values = b.values;
	b.values[sub].raw ^= 1;
	b.values[sub].value ^= 1;
	const spec_field **loaded = S.read_subs;
	size_t nloaded = S.nread_subs;
	bool named = false;
	for (size_t i = 0; i < nloaded; i++)
		named |= loaded[i] == a.d.values[sub].field;
	CHECK(fuzz_same_encoder_input(&S, &a.d, &b.d) == !named);
	const spec_field *read[1] = {a.d.values[sub].field};
	S.read_subs = read;
	S.nread_subs = 1;
	CHECK(!fuzz_same_encoder_input(&S, &a.d, &b.d));
	S.nread_subs = 0;
	CHECK(fuzz_same_encoder_input(&S, &a.d, &b.d));
	S.read_subs = loaded;
	S.nread_subs = nloaded;
	fuzz_spec_free(&S);
}

/* Which bitset-typed fields' values the encoder can read, by facts of
 * our files: etnaviv's #immediate-value reads {SWZ} (a #swizzle, a
 * bitset), nothing reads its DEST (a #destination); nothing names a2xx's
 * CF0 and CF1, whose don't-care bits then need no third encoding. */
static size_t count_read(const fuzz_spec *S, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < S->nread_subs; i++) {
		n += !strcmp(S->read_subs[i]->name, name);
		CHECK(S->read_subs[i]->type == SPEC_TYPE_BITSET);
		if (i)
			CHECK(S->read_subs[i - 1] < S->read_subs[i]);
	}
	return n;
}

TEST(bitset_values_read_by_name)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, "repo:isa/etnaviv.xml"))
		return;
	CHECK(count_read(&S, "SWZ") > 0);
	CHECK_INT(count_read(&S, "DEST"), 0);
	fuzz_spec_free(&S);
	if (!testlib_fuzz_spec(&S, "repo:isa/a2xx.xml"))
		return;
	CHECK_INT(count_read(&S, "CF0") + count_read(&S, "CF1"), 0);
	fuzz_spec_free(&S);
}

/* ------------------------------------------------- coverage of the spec */

/* libFuzzer's side of the counters: it is told of them as of a module's
 * (inline 8-bit counters, then their table of PCs), a slice at a time.
 * Here the calls are recorded; under libFuzzer, libFuzzer takes them. */
static struct {
	uint8_t *start, *stop;
	const uintptr_t *pcs, *pcs_stop;
} slices[256];
static size_t nslices, npcs_calls;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop);

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
{
	if (nslices < sizeof slices / sizeof *slices) {
		slices[nslices].start = start;
		slices[nslices++].stop = stop;
	}
}

void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop)
{
	/* each table follows its counters, as the compiler's constructors call them */
	if (npcs_calls + 1 == nslices) {
		slices[npcs_calls].pcs = start;
		slices[npcs_calls].pcs_stop = stop;
	}
	npcs_calls++;
}

/* A digest of a set of 64-bit items, whatever their order. */
static uint64_t set_digest(uint64_t *items, size_t n)
{
	uint64_t h = 0x84222325cbf29ce4u;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = items[i] * 0x9e3779b97f4a7c15u;
		h += x ^ (x >> 29); /* a sum: the order does not count */
	}
	return h ^ n;
}

/* Every thing reached_digest listed, over a spec's decodings (repeats
 * kept: sorted and counted at the end). */
static uint64_t all_items[1 << 20];
static size_t nall;

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* What fuzz_spec_coverage is to tell apart, read straight from the
 * decoding: its leaf, and every value's owning case and sub leaf and every
 * issue's kind and field, and every value's type, sign and length in
 * bits, as a set.  0 for a decoding without a leaf.  The coverage marks
 * a value's case only where its bitset has several or the value has a
 * sub leaf, holding the others implied by the leaf and sub leaves: those
 * count in the digest (what was reached) but are not listed in all_items
 * (what takes a counter). */
static uint64_t reached_digest(const codec_decoded *d)
{
	if (!d->leaf)
		return 0;
	uint64_t items[2 * FUZZ_MAX_VALUES + FUZZ_MAX_ISSUES + 1];
	bool implied[2 * FUZZ_MAX_VALUES + FUZZ_MAX_ISSUES + 1] = {false};
	size_t n = 0;
	items[n++] = (uintptr_t)d->leaf;
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		uint64_t item = (((uintptr_t)d->leaf * 31 + (uintptr_t)v->kase) * 31 +
		                 (uintptr_t)v->owner) * 31 + (uintptr_t)v->sub;
		bool item_implied = !v->sub && !(v->owner && v->owner->ncases > 1);
		/* and how it prints: type, sign, length in bits */
		int len = 0;
		for (uint64_t u = v->value < 0 ? ~(uint64_t)v->value : (uint64_t)v->value; u; u >>= 1)
			len++;
		uint64_t shape = v->field ? 1 + (((uint64_t)v->field->type * 2 + (v->value < 0)) << 8 |
		                                 (uint64_t)len) : 0;
		bool seen = false, seen_shape = !shape;
		for (size_t j = 1; j < n; j++) {
			seen |= items[j] == item;
			seen_shape |= items[j] == shape;
		}
		if (!seen) {
			implied[n] = item_implied;
			items[n++] = item;
		}
		if (!seen_shape)
			items[n++] = shape;
	}
	for (size_t i = 0; i < d->nissues; i++) {
		const codec_issue *is = &d->issues[i];
		uint64_t item = (((uintptr_t)d->leaf * 31 + is->kind) * 31 + (uintptr_t)is->leaf) * 31 +
		                (is->field ? (uint64_t)is->field->low << 16 | is->field->high : 0);
		bool seen = false;
		for (size_t j = 1; j < n && !seen; j++)
			seen = items[j] == item;
		if (!seen)
			items[n++] = item;
	}
	for (size_t i = 0; i < n && nall < sizeof all_items / sizeof *all_items; i++)
		if (!implied[i])
			all_items[nall++] = items[i];
	return set_digest(items, n);
}

/* The counters fuzz_spec_coverage set, as a digest; *n gets how many;
 * each is set in any too (unless NULL). */
_Static_assert(FUZZ_SPEC_COUNTERS % 8 == 0, "counters_digest reads eight at a time");
static uint64_t counters_digest(size_t *n, uint8_t *any)
{
	static uint64_t set[FUZZ_SPEC_COUNTERS];
	const uint8_t *c = fuzz_spec_counters();
	size_t above_one = 0;
	*n = 0;
	/* eight counters at a time: almost all are 0, and this runs four
	 * times a decoding (a byte at a time it was four fifths of the
	 * test's time under ASan) */
	for (size_t i = 0; i < FUZZ_SPEC_COUNTERS; i += 8) {
		uint64_t eight;
		memcpy(&eight, c + i, sizeof eight);
		if (!eight)
			continue;
		for (size_t j = i; j < i + 8; j++) {
			above_one += c[j] > 1;
			if (c[j])
				set[(*n)++] = j;
		}
	}
	for (size_t i = 0; any && i < *n; i++)
		any[set[i]] = 1;
	CHECK_INT(above_one, 0); /* set, never counted up */
	return set_digest(set, *n);
}

typedef struct reach_pair {
	uint64_t reached, counters;
} reach_pair;

static int by_reached(const void *a, const void *b)
{
	const reach_pair *x = a, *y = b;
	if (x->reached != y->reached)
		return x->reached < y->reached ? -1 : 1;
	return x->counters < y->counters ? -1 : x->counters > y->counters;
}

static int by_counters(const void *a, const void *b)
{
	const reach_pair *x = a, *y = b;
	return x->counters < y->counters ? -1 : x->counters > y->counters;
}

/* Random words of spec under every root, in turn left random and aimed at
 * each bitset (its pattern bits set as it matches): each decoding marks the same
 * counters every time, at most one per thing it reached and at least its
 * leaf; decodings that reached the same things mark the same counters,
 * and decodings that reached other things (another leaf, another case,
 * another sub leaf, another issue) other counters. */
static void hold_coverage(const char *name, unsigned words)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, name))
		return;
	static fuzz_decoding d;
	static reach_pair pairs[60000];
	size_t np = 0;
	fuzz_spec_coverage_reset();
	uint8_t *c = fuzz_spec_counters();
	static uint8_t any[FUZZ_SPEC_COUNTERS]; /* set by some decoding */
	memset(any, 0, sizeof any);
	nall = 0;
	for (unsigned i = 0; i < words; i++) {
		uint64_t w[FUZZ_MAX_WORDS];
		testlib_random_instr(&rng, w, 64 * FUZZ_MAX_WORDS,
		                     i % 2 ? S.m->bitsets[i / 2 % S.m->nbitsets] : NULL);
		for (size_t r = 0; r < S.m->nroots && np < sizeof pairs / sizeof *pairs; r++) {
			unsigned bits = S.m->roots[r].bitset->size;
			if (!bits || bits > 64 * FUZZ_MAX_WORDS)
				continue;
			fuzz_spec V = fuzz_spec_view(&S, &S.m->roots[r]);
			uint64_t v[FUZZ_MAX_WORDS];
			testlib_instr_bits(w, bits, v, FUZZ_MAX_WORDS);
			memset(c, 0, FUZZ_SPEC_COUNTERS);
			fuzz_decode(&V, v, 0, &d);
			size_t n1, n2;
			uint64_t c1 = counters_digest(&n1, NULL);
			if (!d.d.leaf)
				continue;
			CHECK(n1 >= 1 && n1 <= 1 + 2 * d.d.nvalues + d.d.nissues);
			/* the decoding lists what it set, each once (the memory of
			 * instructions sets them again from the list) */
			CHECK_INT(d.nmarks, n1);
			if (d.nmarks <= FUZZ_MAX_MARKS) {
				memset(c, 0, FUZZ_SPEC_COUNTERS);
				fuzz_spec_coverage_replay(d.marks, d.nmarks);
				CHECK(counters_digest(&n2, NULL) == c1 && n2 == n1);
			}
			/* the same word again, counters kept: nothing new, and
			 * the list the same though every counter was set */
			uint16_t first[FUZZ_MAX_MARKS];
			memcpy(first, d.marks, sizeof first);
			fuzz_decode(&V, v, 0, &d);
			CHECK(counters_digest(&n2, any) == c1 && n2 == n1);
			CHECK_INT(d.nmarks, n1);
			CHECK(!memcmp(first, d.marks, (n1 < FUZZ_MAX_MARKS ? n1 : FUZZ_MAX_MARKS) *
			                                      sizeof *first));
			/* decoded again unmarked: the same decoding, no counter set */
			static fuzz_decoding again;
			memset(c, 0, FUZZ_SPEC_COUNTERS);
			fuzz_decode_again(&V, v, 0, &again);
			counters_digest(&n2, NULL);
			CHECK_INT(n2, 0);
			CHECK(again.d.leaf == d.d.leaf && again.d.nvalues == d.d.nvalues &&
			      again.d.nissues == d.d.nissues);
			pairs[np++] = (reach_pair){reached_digest(&d.d), c1};
		}
	}
	qsort(pairs, np, sizeof *pairs, by_reached);
	size_t kinds = 0, unlike = 0;
	for (size_t i = 0; i < np; i++) {
		if (i && pairs[i].reached == pairs[i - 1].reached) {
			unlike += pairs[i].counters != pairs[i - 1].counters;
			continue;
		}
		kinds++;
	}
	CHECK_INT(unlike, 0); /* the same things reached, the same counters */
	qsort(pairs, np, sizeof *pairs, by_counters);
	size_t marks = 0;
	for (size_t i = 0; i < np; i++)
		marks += !i || pairs[i].counters != pairs[i - 1].counters;
	qsort(all_items, nall, sizeof *all_items, by_value);
	size_t things = 0, used = 0;
	for (size_t i = 0; i < nall; i++)
		things += !i || all_items[i] != all_items[i - 1];
	for (size_t k = 0; k < FUZZ_SPEC_COUNTERS; k++)
		used += any[k] != 0;
	printf("%s: %zu decodings with a leaf, %zu sets of things reached, %zu sets of "
	       "counters; %zu things, %zu counters\n", name, np, kinds, marks, things, used);
	CHECK(kinds > 50);
	/* Each thing its own counter while counters are left (here 323 to
	 * 1,442 of 65,536), and no counter for what the leaf implies (marking
	 * every value's case took 378 to 2,032); a thing left out of the
	 * marks (say, a sub leaf) would merge dozens of sets. */
	CHECK(things <= FUZZ_SPEC_COUNTERS);
	CHECK_INT(used, things);
	CHECK_INT(marks, kinds);
	fuzz_spec_free(&S);
}

TEST(spec_coverage_tells_what_was_reached)
{
	hold_coverage("repo:isa/etnaviv.xml", 10000);
	hold_coverage("repo:isa/a2xx.xml", 10000);
	hold_coverage("repo:isa/midgard.xml", 10000);
}

/* libFuzzer is told of the counters 512 at a time, in order, each slice
 * with a table of as many PCs (the counters' addresses, the first marked
 * as a function's entry), as far as the counters taken, and no further;
 * the first as the spec is loaded, before any is taken (a round trip
 * without edges lists it as its first module).  Run first: the tests
 * forget which counter each thing took, not what libFuzzer was told. */
TEST(spec_counters_are_shown_as_taken)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, "repo:isa/midgard.xml"))
		return;
	CHECK_INT(nslices, 1);
	CHECK_INT(npcs_calls, 1);
	static fuzz_decoding d;
	const uint8_t *c = fuzz_spec_counters();
	fuzz_spec_coverage_reset();
	size_t taken = 0;
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t w[FUZZ_MAX_WORDS];
		testlib_random_instr(&rng, w, 64 * FUZZ_MAX_WORDS, S.m->bitsets[i % S.m->nbitsets]);
		fuzz_spec V = fuzz_spec_view(&S, &S.m->roots[i % S.m->nroots]);
		fuzz_decode(&V, w, 0, &d);
		/* counters are taken in order and set when taken (never cleared here) */
		while (taken < FUZZ_SPEC_COUNTERS && c[taken])
			taken++;
		CHECK_INT(npcs_calls, nslices);
		CHECK_INT(nslices, (taken + 511) / 512);
	}
	for (size_t k = taken; k < FUZZ_SPEC_COUNTERS; k++)
		CHECK_INT(c[k], 0);
	printf("repo:isa/midgard.xml: %zu counters taken, %zu slices shown\n", taken, nslices);
	CHECK(nslices >= 2); /* and the test saw a second slice come */
	for (size_t i = 0; i < nslices && i < sizeof slices / sizeof *slices; i++) {
		CHECK(slices[i].start == c + 512 * i && slices[i].stop == c + 512 * (i + 1));
		CHECK(slices[i].pcs_stop - slices[i].pcs == 2 * 512);
		for (size_t k = 0; slices[i].pcs && k < 512; k++) {
			CHECK(slices[i].pcs[2 * k] == (uintptr_t)(slices[i].start + k));
			CHECK_INT(slices[i].pcs[2 * k + 1], k == 0);
		}
	}
	fuzz_spec_free(&S);
}

/* The memory of instructions (fuzz_memo): an instruction kept is
 * recalled by its words, generation and view exactly (never a neighbour
 * one bit away, at another generation or through another view), and
 * recalling it sets the counters its decoding set, no more and no
 * fewer; a newer instruction takes an older one's slot; what cannot be
 * kept (too many words, a list of counters cut short) is refused. */
TEST(memo_recalls_what_it_kept)
{
	CHECK(fuzz_memo_new(0) == NULL);
	CHECK(fuzz_memo_new(25) == NULL);
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, "repo:isa/a2xx.xml"))
		return;
	CHECK_INT(S.nwords, 2); /* 96 bits: the memory's words, the last in part */
	fuzz_memo *m = fuzz_memo_new(4);
	CHECK(m != NULL);
	if (!m)
		return;
	uint8_t *c = fuzz_spec_counters();
	static fuzz_decoding d;
	unsigned long long kept = 0, recalled = 0, asked = 0;
	size_t listed = 0;
	for (unsigned i = 0; i < 2000; i++) {
		uint64_t w[FUZZ_MAX_WORDS] = {0};
		testlib_random_instr(&rng, w, S.root->bitset->size,
		                     i % 2 ? S.m->bitsets[i / 2 % S.m->nbitsets] : NULL);
		uint32_t gen = (uint32_t)(i % 3);
		memset(c, 0, FUZZ_SPEC_COUNTERS);
		fuzz_decode(&S, w, gen, &d);
		size_t n1;
		uint64_t c1 = counters_digest(&n1, NULL);
		CHECK(!fuzz_memo_recall(m, 0, w, S.nwords, gen)); /* random: new */
		asked++;
		if (!fuzz_memo_keep(m, 0, w, S.nwords, gen, &d)) {
			CHECK(d.nmarks > FUZZ_MAX_MARKS);
			continue;
		}
		kept++;
		listed += d.nmarks;
		memset(c, 0, FUZZ_SPEC_COUNTERS);
		CHECK(fuzz_memo_recall(m, 0, w, S.nwords, gen));
		asked++, recalled++;
		size_t n2;
		CHECK(counters_digest(&n2, NULL) == c1 && n2 == n1);
		/* not one bit away, not at another generation or view */
		uint64_t x[FUZZ_MAX_WORDS];
		memcpy(x, w, sizeof x);
		unsigned bit = (unsigned)(testlib_random(&rng) % S.root->bitset->size);
		x[bit / 64] ^= (uint64_t)1 << (bit % 64);
		memset(c, 0, FUZZ_SPEC_COUNTERS);
		CHECK(!fuzz_memo_recall(m, 0, x, S.nwords, gen));
		CHECK(!fuzz_memo_recall(m, 0, w, S.nwords, gen + 1));
		CHECK(!fuzz_memo_recall(m, 1, w, S.nwords, gen));
		CHECK(!fuzz_memo_recall(m, 0, w, 1, gen)); /* the first word alone */
		asked += 4;
		counters_digest(&n2, NULL);
		CHECK_INT(n2, 0); /* and nothing set */
		/* more words than it keeps */
		CHECK(!fuzz_memo_keep(m, 0, w, FUZZ_MEMO_WORDS + 1, gen, &d));
		CHECK(!fuzz_memo_recall(m, 0, w, FUZZ_MEMO_WORDS + 1, gen));
		asked++;
	}
	CHECK(kept > 1500);
	CHECK(listed > kept); /* lists of more than one counter were kept */
	/* 16 slots: of the last 100 kept, at most 16 are still there, and
	 * the very last is */
	uint64_t last[100][FUZZ_MAX_WORDS];
	for (unsigned i = 0; i < 100; i++) {
		memset(last[i], 0, sizeof last[i]);
		testlib_random_instr(&rng, last[i], S.root->bitset->size, NULL);
		fuzz_decode(&S, last[i], 0, &d);
		CHECK(fuzz_memo_keep(m, 0, last[i], S.nwords, 0, &d) || d.nmarks > FUZZ_MAX_MARKS);
		kept += d.nmarks <= FUZZ_MAX_MARKS;
	}
	unsigned still = 0;
	for (unsigned i = 0; i < 100; i++)
		still += fuzz_memo_recall(m, 0, last[i], S.nwords, 0);
	asked += 100, recalled += still;
	CHECK(still >= 1 && still <= 16);
	CHECK(fuzz_memo_recall(m, 0, last[99], S.nwords, 0));
	asked++, recalled++;
	/* a list cut short is refused */
	d.nmarks = FUZZ_MAX_MARKS + 1;
	CHECK(!fuzz_memo_keep(m, 0, last[0], S.nwords, 0, &d));
	fuzz_memo_stats st = fuzz_memo_get_stats(m);
	CHECK(st.asked == asked && st.recalled == recalled && st.kept == kept);
	printf("repo:isa/a2xx.xml: %llu kept, %zu counters listed, %u of the last 100 "
	       "still recalled from 16 slots\n", kept, listed, still);
	fuzz_memo_free(m);
	fuzz_memo_free(NULL);
	fuzz_spec_free(&S);
}

/* An outcome of no one instruction (fuzz_spec_coverage_mark, the
 * program round trips'): each sets one counter of its own, the same one
 * each time, and no other; two outcomes take two counters. */
TEST(program_outcomes_are_marked)
{
	uint8_t *c = fuzz_spec_counters();
	size_t first[4], n;
	for (uint32_t k = 0; k < 4; k++) {
		for (int again = 0; again < 2; again++) {
			memset(c, 0, FUZZ_SPEC_COUNTERS);
			fuzz_spec_coverage_mark(1000 + k);
			static uint8_t any[FUZZ_SPEC_COUNTERS];
			memset(any, 0, sizeof any);
			counters_digest(&n, any);
			CHECK(n == 1);
			size_t at = 0;
			while (at < FUZZ_SPEC_COUNTERS && !any[at])
				at++;
			if (!again)
				first[k] = at;
			else
				CHECK(at == first[k]);
		}
		for (uint32_t j = 0; j < k; j++)
			CHECK(first[j] != first[k]);
	}
	memset(c, 0, FUZZ_SPEC_COUNTERS);
}

/* The program round trip's loops over words (fuzz_words_equal,
 * fuzz_words_meet, fuzz_words_first_off, fuzz_or_masks) against the same
 * worked out bit by bit, on words that mostly agree (a differing or
 * meeting bit is rare, so where it lies matters). */
TEST(word_loops_as_bits)
{
	enum { N = 40 };
	unsigned tried = 0, equal = 0, met = 0, off = 0;
	for (unsigned round = 0; round < 3000; round++) {
		uint32_t a[N], b[N], x[N];
		size_t n = (size_t)(testlib_random(&rng) % (N + 1));
		/* b: a's re-encoding (its don't-care bits x cleared); half of the
		 * a have none set; a third of the b have one bit flipped */
		for (size_t k = 0; k < N; k++) {
			a[k] = (uint32_t)testlib_random(&rng);
			x[k] = (uint32_t)(testlib_random(&rng) & testlib_random(&rng) & testlib_random(&rng));
			if (round % 2)
				a[k] &= ~x[k];
			b[k] = a[k] & ~x[k];
		}
		if (n && round % 3 == 1) {
			size_t bit = (size_t)(testlib_random(&rng) % (32 * n));
			b[bit / 32] ^= 1u << (bit % 32);
		}
		bool want_equal = true, want_meet = false;
		size_t want_off = n;
		for (size_t bit = 0; bit < 32 * n; bit++) {
			unsigned ab = a[bit / 32] >> (bit % 32) & 1, bb = b[bit / 32] >> (bit % 32) & 1;
			unsigned xb = x[bit / 32] >> (bit % 32) & 1;
			want_equal &= ab == bb;
			want_meet |= ab && xb;
			if (want_off == n && ((ab != bb && !xb) || (bb && xb)))
				want_off = bit / 32;
		}
		CHECK(fuzz_words_equal(a, b, n) == want_equal);
		CHECK(fuzz_words_equal(a, a, n));
		CHECK(fuzz_words_meet(a, x, n) == want_meet);
		CHECK(fuzz_words_first_off(a, b, x, n) == want_off);
		equal += want_equal;
		met += want_meet;
		off += want_off < n;
		/* n bits of three 128-bit sources placed at a bit inside three
		 * destinations, each its own */
		uint64_t src[3][2];
		uint32_t dst[3][N], want[3][N];
		unsigned nb = (unsigned)(testlib_random(&rng) % 129);
		size_t at = (size_t)(testlib_random(&rng) % (32 * N - nb + 1));
		for (unsigned j = 0; j < 3; j++) {
			src[j][0] = testlib_random(&rng);
			src[j][1] = testlib_random(&rng);
			for (size_t k = 0; k < N; k++)
				dst[j][k] = want[j][k] = (uint32_t)testlib_random(&rng) & 0x11111111u;
			for (unsigned i = 0; i < nb; i++)
				if (src[j][i / 64] >> (i % 64) & 1)
					want[j][(at + i) / 32] |= 1u << ((at + i) % 32);
		}
		fuzz_or_masks((uint32_t *const[3]){dst[0], dst[1], dst[2]}, at,
		              (const uint64_t *const[3]){src[0], src[1], src[2]}, nb);
		CHECK(!memcmp(dst, want, sizeof dst));
		tried++;
	}
	printf("word loops: %u rounds, %u equal, %u meeting, %u with a word off\n", tried, equal,
	       met, off);
	CHECK(equal > 100 && equal < tried && met > 100 && off > 100);
}

/* The decoding a test gives fuzz_part_read (ctx: a known_ctx), counting
 * the times it is asked for. */
typedef struct known_ctx {
	const codec_decoded *d;
	unsigned asked;
} known_ctx;

static const codec_decoded *known_given(const void *ctx)
{
	known_ctx *k = (known_ctx *)(uintptr_t)ctx;
	k->asked++;
	return k->d;
}

/* What a program round trip reads of a part (fuzz_part_read): with a
 * memory, the first reading decodes and keeps, the second recalls, both
 * giving what a reading without the memory gives (leaf, meaning, masks)
 * and setting the same counters; so does a reading given the part's
 * decoding made with more room (codec_walker_decoding's), while one made
 * at another generation or through another root is not taken; the
 * decoding is asked for once where the memory lacks the part and not
 * where it recalls it; a memory with a payload keeps nothing through
 * fuzz_memo_keep.  Every root of our a2xx and Midgard. */
TEST(parts_read_as_decoded)
{
	CHECK(fuzz_memo_new_with(4, 5000) == NULL);
	const char *specs[] = {"repo:isa/a2xx.xml", "repo:isa/midgard.xml"};
	unsigned long long compared = 0;
	for (size_t k = 0; k < 2; k++) {
		fuzz_spec S;
		if (!testlib_fuzz_spec(&S, specs[k]))
			continue;
		fuzz_memo *m = fuzz_part_memo_new(6);
		CHECK(m != NULL);
		uint8_t *c = fuzz_spec_counters();
		static fuzz_decoding d;
		for (size_t r = 0; m && r < S.m->nroots; r++) {
			fuzz_spec V = fuzz_spec_view(&S, &S.m->roots[r]);
			if (V.nwords > FUZZ_MEMO_WORDS)
				continue; /* not kept: read afresh each time */
			for (unsigned i = 0; i < 400; i++) {
				uint64_t w[FUZZ_MAX_WORDS] = {0};
				testlib_random_instr(&rng, w, S.m->roots[r].bitset->size, NULL);
				fuzz_part plain, first, again, given, other;
				memset(c, 0, FUZZ_SPEC_COUNTERS);
				fuzz_part_read(NULL, &V, (uint32_t)r, w, NULL, NULL, &d, &plain);
				size_t n0, n1, n2, n3, n4;
				uint64_t c0 = counters_digest(&n0, NULL);
				memset(c, 0, FUZZ_SPEC_COUNTERS);
				/* (asked for no decoding: decoded afresh) */
				known_ctx none = {NULL, 0}, asked = {NULL, 0};
				unsigned long long rec0 = fuzz_memo_get_stats(m).recalled;
				fuzz_part_read(m, &V, (uint32_t)r, w, known_given, &none, &d, &first);
				bool recalled = fuzz_memo_get_stats(m).recalled > rec0; /* (a word seen) */
				uint64_t c1 = counters_digest(&n1, NULL);
				memset(c, 0, FUZZ_SPEC_COUNTERS);
				bool kept = recalled || d.nmarks <= FUZZ_MAX_MARKS;
				fuzz_part_read(m, &V, (uint32_t)r, w, known_given, &asked, &d, &again);
				uint64_t c2 = counters_digest(&n2, NULL);
				CHECK(c0 == c1 && n0 == n1);
				/* recalled, unless the decoding listed too many counters:
				 * then asked for the decoding again */
				CHECK((c1 == c2 && n1 == n2) || !kept);
				CHECK_INT(none.asked, recalled ? 0 : 1);
				CHECK_INT(asked.asked, kept ? 0 : 1);
				/* given the decoding (d's room scribbled over first) */
				static codec_value kv[2 * FUZZ_MAX_VALUES];
				codec_issue ki[FUZZ_MAX_ISSUES];
				codec_decoded kd = {.values = kv, .cap_values = 2 * FUZZ_MAX_VALUES,
				                    .issues = ki, .cap_issues = FUZZ_MAX_ISSUES};
				codec_decode(S.c, V.root, w, 0, &kd);
				memset(&d, 0xa5, sizeof d);
				memset(c, 0, FUZZ_SPEC_COUNTERS);
				known_ctx kc = {&kd, 0};
				fuzz_part_read(NULL, &V, (uint32_t)r, w, known_given, &kc, &d, &given);
				uint64_t c3 = counters_digest(&n3, NULL);
				CHECK(c0 == c3 && n0 == n3);
				/* another word's, at another generation or through another
				 * root: not taken (the part is decoded afresh) */
				uint64_t w2[FUZZ_MAX_WORDS] = {0};
				testlib_random_instr(&rng, w2, S.m->roots[r].bitset->size, NULL);
				const spec_root *r2 = &S.m->roots[(r + 1) % S.m->nroots];
				if (i % 2 || r2 == V.root)
					codec_decode(S.c, V.root, w2, 1, &kd);
				else
					codec_decode(S.c, r2, w2, 0, &kd);
				memset(c, 0, FUZZ_SPEC_COUNTERS);
				fuzz_part_read(NULL, &V, (uint32_t)r, w, known_given, &kc, &d, &other);
				CHECK_INT(kc.asked, 2);
				uint64_t c4 = counters_digest(&n4, NULL);
				CHECK(c0 == c4 && n0 == n4 && d.d.values == d.values);
				const fuzz_part *both[4] = {&first, &again, &given, &other};
				for (size_t j = 0; j < 4; j++) {
					const fuzz_part *p = both[j];
					CHECK(p->leaf == plain.leaf && p->meaning == plain.meaning);
					CHECK(!memcmp(p->dontcare, plain.dontcare, V.nwords * 8) &&
					      !memcmp(p->asserts, plain.asserts, V.nwords * 8) &&
					      !memcmp(p->accounted, plain.accounted, V.nwords * 8));
				}
				compared++;
			}
		}
		fuzz_memo_stats st = m ? fuzz_memo_get_stats(m) : (fuzz_memo_stats){0};
		CHECK(st.recalled > st.asked / 3);
		/* a memory with a payload keeps nothing without it */
		CHECK(!m || !fuzz_memo_keep(m, 0, (const uint64_t[2]){1, 2}, 1, 0, &d));
		fuzz_memo_free(m);
		fuzz_spec_free(&S);
	}
	printf("parts: %llu read five ways\n", compared);
	CHECK(compared > 1000);
}

/* A check's outcome (fuzz_spec_coverage_outcome, fuzz/roundtrip.c's
 * round trips): a counter of its own per leaf and outcome, set and added
 * to the decoding's list once, so that the memory of instructions sets
 * it again on a recall; a list already full says it is cut, and the
 * memory then refuses it. */
TEST(outcomes_are_marked_per_leaf)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, "repo:isa/a2xx.xml"))
		return;
	uint8_t *c = fuzz_spec_counters();
	static fuzz_decoding d;
	fuzz_memo *m = fuzz_memo_new(4);
	CHECK(m != NULL);
	/* the counter each (leaf, outcome) took, for leaves seen */
	enum { NLEAVES = 8, NOUT = 3 };
	const spec_bitset *leaves[NLEAVES];
	size_t slots[NLEAVES][NOUT], nleaves = 0, tried = 0;
	for (unsigned i = 0; i < 4000 && nleaves < NLEAVES && m; i++) {
		/* through each root (a2xx's default, #cf-pair, has one leaf) */
		uint32_t r = (uint32_t)(i % S.m->nroots);
		unsigned bits = S.m->roots[r].bitset->size;
		if (!bits || bits > 64 * FUZZ_MAX_WORDS)
			continue;
		fuzz_spec V = fuzz_spec_view(&S, &S.m->roots[r]);
		uint64_t w[FUZZ_MAX_WORDS] = {0};
		testlib_random_instr(&rng, w, bits, S.m->bitsets[i / 2 % S.m->nbitsets]);
		fuzz_decode(&V, w, 0, &d);
		if (!d.d.leaf || d.nmarks + NOUT > FUZZ_MAX_MARKS)
			continue;
		size_t k = 0;
		while (k < nleaves && leaves[k] != d.d.leaf)
			k++;
		if (k < nleaves)
			continue;
		tried++;
		size_t n0 = d.nmarks;
		uint16_t before[FUZZ_MAX_MARKS];
		memcpy(before, d.marks, sizeof before);
		for (unsigned o = 0; o < NOUT; o++) {
			memset(c, 0, FUZZ_SPEC_COUNTERS);
			fuzz_spec_coverage_outcome(&d, 1u + 2 * o);
			size_t n;
			counters_digest(&n, NULL);
			CHECK_INT(n, 1); /* its counter alone */
			CHECK_INT(d.nmarks, n0 + o + 1);
			slots[nleaves][o] = d.marks[n0 + o];
			CHECK(c[slots[nleaves][o]] == 1);
			/* the same outcome again: set, not listed twice */
			fuzz_spec_coverage_outcome(&d, 1u + 2 * o);
			CHECK_INT(d.nmarks, n0 + o + 1);
		}
		/* the decoding's own marks are untouched, and none is an outcome's */
		CHECK(!memcmp(before, d.marks, n0 * sizeof *before));
		for (size_t j = 0; j < n0; j++)
			for (unsigned o = 0; o < NOUT; o++)
				CHECK(d.marks[j] != slots[nleaves][o]);
		/* recalled, the instruction sets its outcomes with the rest */
		CHECK(fuzz_memo_keep(m, r, w, V.nwords, 0, &d));
		memset(c, 0, FUZZ_SPEC_COUNTERS);
		CHECK(fuzz_memo_recall(m, r, w, V.nwords, 0));
		size_t n;
		counters_digest(&n, NULL);
		CHECK_INT(n, d.nmarks);
		for (unsigned o = 0; o < NOUT; o++)
			CHECK(c[slots[nleaves][o]] == 1);
		leaves[nleaves++] = d.d.leaf;
	}
	CHECK_INT(nleaves, NLEAVES);
	/* every (leaf, outcome) its own counter */
	for (size_t a = 0; a < nleaves * NOUT; a++)
		for (size_t b = a + 1; b < nleaves * NOUT; b++)
			CHECK(slots[a / NOUT][a % NOUT] != slots[b / NOUT][b % NOUT]);
	/* a list already full: counted past it, and not kept */
	uint64_t w[FUZZ_MAX_WORDS] = {0};
	fuzz_decode(&S, w, 0, &d);
	d.nmarks = FUZZ_MAX_MARKS;
	fuzz_spec_coverage_outcome(&d, 1);
	CHECK_INT(d.nmarks, FUZZ_MAX_MARKS + 1);
	CHECK(!fuzz_memo_keep(m, 0, w, S.nwords, 0, &d));
	printf("repo:isa/a2xx.xml: %zu leaves x %d outcomes, each its own counter\n", nleaves,
	       (int)NOUT);
	fuzz_memo_free(m);
	fuzz_spec_free(&S);
}

/* A generation in gen's class: between the bounds around it (at most
 * 100,000 past the lower one). */
static uint32_t same_class_gen(const fuzz_spec *S, uint32_t gen)
{
	uint32_t c = fuzz_spec_gen_class(S, gen);
	uint64_t lo = c ? S->gen_bounds[c - 1] : 0;
	uint64_t hi = c < S->ngen_bounds ? S->gen_bounds[c] : (uint64_t)UINT32_MAX + 1;
	uint64_t span = hi - lo < 100000 ? hi - lo : 100000;
	return (uint32_t)(lo + testlib_random(&rng) % span);
}

/* The classes of generations the round trips' memory keys on
 * (fuzz_spec_gen_class): a word of every root decoded at two
 * generations of one class has the same leaf, values, issues and text,
 * and encodes alike.  Held on random words at random generations of
 * afuc (58 <gen> ranges, each up to 5 or 6 or from 6 or 7: bounds 6 and
 * 7, no ISA_GPU_ID()) and of our a2xx (none: one class); ir3's
 * expressions read the generation, so its classes are the generations
 * themselves. */
static void hold_gen_classes(const char *name, unsigned words, size_t want_bounds)
{
	fuzz_spec S;
	if (!testlib_fuzz_spec(&S, name))
		return;
	CHECK(!S.gen_exact);
	CHECK_INT(S.ngen_bounds, want_bounds);
	for (size_t i = 1; i < S.ngen_bounds; i++)
		CHECK(S.gen_bounds[i - 1] < S.gen_bounds[i]);
	static fuzz_decoding d1, d2;
	unsigned long compared = 0, differ_gen = 0;
	for (unsigned i = 0; i < words; i++) {
		const spec_root *r = &S.m->roots[i % S.m->nroots];
		unsigned bits = r->bitset->size;
		if (!bits || bits > 64 * FUZZ_MAX_WORDS)
			continue;
		fuzz_spec V = fuzz_spec_view(&S, r);
		uint64_t w[FUZZ_MAX_WORDS] = {0};
		testlib_random_instr(&rng, w, bits,
		                     i % 2 ? S.m->bitsets[i / 2 % S.m->nbitsets] : NULL);
		/* generations about the bounds, where the classes change */
		uint32_t g1 = S.ngen_bounds && i % 3
		              ? S.gen_bounds[i % S.ngen_bounds] - 2 + (uint32_t)(testlib_random(&rng) % 5)
		              : (uint32_t)(testlib_random(&rng) % 2000);
		uint32_t g2 = same_class_gen(&S, g1);
		CHECK_INT(fuzz_spec_gen_class(&S, g2), fuzz_spec_gen_class(&S, g1));
		codec_disasm_options opt = {.gen = g1, .show_errors = true};
		char t1[1024], t2[1024], why[256];
		fuzz_decode_text(&V, w, &opt, &d1, t1, sizeof t1);
		opt.gen = g2;
		fuzz_decode_text(&V, w, &opt, &d2, t2, sizeof t2);
		compared++;
		differ_gen += g1 != g2;
		CHECK(d1.d.leaf == d2.d.leaf);
		CHECK(d1.d.leaf == NULL || fuzz_same_meaning(&d1.d, &d2.d, why, sizeof why));
		CHECK_INT(d1.d.nissues, d2.d.nissues);
		for (size_t k = 0; k < d1.d.nissues && k < d2.d.nissues; k++)
			CHECK_INT(d1.d.issues[k].kind, d2.d.issues[k].kind);
		CHECK_STR(t1, t2);
		if (!codec_decoding_has_meaning(&d1.d))
			continue;
		uint64_t e1[FUZZ_MAX_WORDS] = {0}, e2[FUZZ_MAX_WORDS] = {0};
		char err[256];
		bool ok1 = codec_encode(V.c, &d1.d, e1, err, sizeof err);
		bool ok2 = codec_encode(V.c, &d2.d, e2, err, sizeof err);
		CHECK(ok1 == ok2);
		CHECK(!memcmp(e1, e2, sizeof e1));
	}
	printf("%s: %zu generation bounds, %lu words decoded at two generations of one class "
	       "(%lu at two different ones): alike\n", name, S.ngen_bounds, compared, differ_gen);
	CHECK(differ_gen > words / 2);
	fuzz_spec_free(&S);
}

TEST(generation_classes_decode_alike)
{
	hold_gen_classes("repo:isa/a2xx.xml", 20000, 0);
	fuzz_spec S;
	if (testlib_fuzz_spec(&S, "repo:isa/a2xx.xml")) {
		/* a2xx has no <gen>: every generation is one class */
		CHECK_INT(S.ngen_bounds, 0);
		CHECK_INT(fuzz_spec_gen_class(&S, 0), fuzz_spec_gen_class(&S, 65535));
		fuzz_spec_free(&S);
	}
	char probe[4096];
	if (!testlib_have_shared(testlib_shared_path(probe, sizeof probe,
	                                             "mesa/src/freedreno/afuc/afuc.xml")))
		return;
	hold_gen_classes("shared:mesa/src/freedreno/afuc/afuc.xml", 40000, 2);
	if (testlib_fuzz_spec(&S, "shared:mesa/src/freedreno/afuc/afuc.xml")) {
		CHECK(S.gen_bounds[0] == 6 && S.gen_bounds[1] == 7);
		CHECK_INT(fuzz_spec_gen_class(&S, 5), 0);
		CHECK_INT(fuzz_spec_gen_class(&S, 6), 1);
		CHECK_INT(fuzz_spec_gen_class(&S, 7), 2);
		CHECK_INT(fuzz_spec_gen_class(&S, 70000), 2);
		fuzz_spec_free(&S);
	}
	if (testlib_fuzz_spec(&S, "shared:mesa/src/freedreno/isa/ir3.xml")) {
		/* ir3-cat5.xml's expressions call ISA_GPU_ID() */
		CHECK(S.gen_exact);
		CHECK_INT(S.ngen_bounds, 0);
		CHECK_INT(fuzz_spec_gen_class(&S, 630), 630);
		CHECK_INT(fuzz_spec_gen_class(&S, 631), 631);
		fuzz_spec_free(&S);
	}
}

int main(void)
{
	RUN(spec_counters_are_shown_as_taken);
	RUN(skipped_encoding_is_implied);
	RUN(each_encoder_input_tells_decodings_apart);
	RUN(bitset_values_read_by_name);
	RUN(spec_coverage_tells_what_was_reached);
	RUN(memo_recalls_what_it_kept);
	RUN(program_outcomes_are_marked);
	RUN(word_loops_as_bits);
	RUN(parts_read_as_decoded);
	RUN(outcomes_are_marked_per_leaf);
	RUN(generation_classes_decode_alike);
	return testlib_finish();
}
