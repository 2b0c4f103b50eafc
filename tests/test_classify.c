/*
 * test_classify.c - the compiled classifier (classifier_run) against the
 * plain scan (classify_linear): the same count and the same leaves in the
 * same order, for every root of Mesa's ir3, etnaviv and afuc and of small
 * specs written here, on Mesa's test vectors, on random words at every
 * generation boundary, and on words built from each leaf's pattern (so
 * every leaf that can match is hit, and missed by one flipped bit).
 */
/* By path: src/spec has an internal.h of its own. */
#include "../src/codec/internal.h"
#include "testlib.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_MAX 64           /* leaves compared per word */
#define MAX_WORDS 64         /* 4096 bits */
/* Random words over all gens, for roots of >= 64 leaves; the sanitizer
 * build, several times slower, checks an eighth of them (the plain
 * build checks them all). */
#ifdef ISACHECK_SANITIZED
#define RANDOM_BIG (1u << 18)
#else
#define RANDOM_BIG (1u << 21)
#endif
#define RANDOM_SMALL (1u << 15)
/* leaf_words checks each leaf's words against the linear reference, which
 * walks every leaf: quadratic in the leaves.  The sanitizer build walks
 * every fourth leaf of a root of more than 256 (the plain build, all). */
#ifdef ISACHECK_SANITIZED
#define LEAF_STRIDE_BIG 4u
#else
#define LEAF_STRIDE_BIG 1u
#endif

/* ---------------------------------------------------------- helpers */

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static unsigned nwords_of(const spec_root *r)
{
	return (r->bitset->size + 63u) / 64u;
}

static spec_model *load_str(const char *xml, spec_diags *d)
{
	return spec_load_buffer("t.xml", xml, strlen(xml), ".", d);
}

static uint64_t fixed_word(const spec_bitset *l, unsigned i)
{
	return l->mask.w[i] & ~l->dontcare.w[i];
}

/* Whether any word at all can match the leaf (the corner of Mesa's
 * compare: a match bit outside the fixed bits matches nothing). */
static bool can_match(const spec_bitset *l, unsigned nwords)
{
	if (l->gen.min > l->gen.max)
		return false;
	for (unsigned i = 0; i < nwords; i++)
		if (l->match.w[i] & ~fixed_word(l, i))
			return false;
	return true;
}

/* One root under test: its classifier, and which leaves were hit. */
typedef struct subject {
	const spec_root *root;
	classifier *c;
	unsigned nwords;
	bool *hit;         /* per leaf: returned by classifier_run at least once */
	size_t leaf_stride; /* leaf_words visited every leaf_stride-th leaf */
	unsigned long words, bad;
	unsigned long matched, ambiguous;
} subject;

static bool subject_init(subject *s, const spec_root *r)
{
	*s = (subject){.root = r, .nwords = nwords_of(r)};
	s->c = classifier_build(r);
	s->hit = calloc(r->nleaves ? r->nleaves : 1, sizeof *s->hit);
	CHECK(s->c != NULL);
	CHECK(s->hit != NULL);
	return s->c && s->hit;
}

static void subject_free(subject *s)
{
	classifier_free(s->c);
	free(s->hit);
}

static void print_word(const uint64_t *w, unsigned nwords)
{
	for (unsigned i = nwords; i-- > 0;)
		fprintf(stderr, "%016llx%s", (unsigned long long)w[i], i ? "_" : "");
}

static void mark_hits(subject *s, const spec_bitset *const *got, size_t n)
{
	for (size_t i = 0; i < n && i < OUT_MAX; i++)
		for (size_t k = 0; k < s->root->nleaves; k++)
			if (s->root->leaves[k] == got[i])
				s->hit[k] = true;
}

/* The fast path against the reference on one word; returns the count. */
static size_t compare(subject *s, const uint64_t *w, uint32_t gen)
{
	const spec_bitset *fast[OUT_MAX], *slow[OUT_MAX], *one[1];
	size_t nf = classifier_run(s->c, w, gen, fast, OUT_MAX);
	size_t ns = classify_linear(s->root, w, gen, slow, OUT_MAX);
	/* Fewer slots than matches: the count stays the total. */
	size_t n0 = classifier_run(s->c, w, gen, NULL, 0);
	size_t n1 = classifier_run(s->c, w, gen, one, 1);
	/* the index gathered by shifts and masks, where pext was used */
	const spec_bitset *other[OUT_MAX];
	bool had_pext = classifier_set_pext(s->c, false);
	size_t no = classifier_run(s->c, w, gen, other, OUT_MAX);
	classifier_set_pext(s->c, had_pext);
	/* the index comes with the first match, from the classifier's line */
	const spec_bitset *first[1];
	uint32_t index0 = UINT32_MAX;
	size_t ni = classifier_run_index(s->c, w, gen, first, 1, &index0);
	bool same = nf == ns && n0 == ns && n1 == ns && no == ns && ni == ns &&
	            (!ns || (one[0] == slow[0] && first[0] == slow[0] && index0 == slow[0]->index));
	/* On a miss the first slot is cleared (classify.c stores it blindly). */
	same = same && (ns || (!fast[0] && !one[0]));
	for (size_t i = 0; same && i < ns && i < OUT_MAX; i++)
		same = fast[i] == slow[i] && other[i] == slow[i];
	s->words++;
	s->matched += ns == 1;
	s->ambiguous += ns > 1;
	if (!same && s->bad++ < 5) {
		fprintf(stderr, "  %s: word ", s->root->bitset->name);
		print_word(w, s->nwords);
		fprintf(stderr, " gen %u: fast %zu (%s), linear %zu (%s)\n", gen, nf,
		        nf ? fast[0]->name : "-", ns, ns ? slow[0]->name : "-");
	}
	mark_hits(s, fast, nf);
	return ns;
}

/* Generations worth testing: 0, the maximum, and every leaf's bounds
 * with their neighbours outside. */
static size_t boundary_gens(const spec_root *r, uint32_t **out)
{
	size_t n = 0, cap = 2 + r->nleaves * 4;
	uint32_t *g = malloc(cap * sizeof *g);
	if (!g)
		return 0;
	g[n++] = 0;
	g[n++] = UINT32_MAX;
	for (size_t i = 0; i < r->nleaves; i++) {
		spec_gen lg = r->leaves[i]->gen;
		g[n++] = lg.min;
		g[n++] = lg.max;
		if (lg.min > 0)
			g[n++] = lg.min - 1;
		if (lg.max < UINT32_MAX)
			g[n++] = lg.max + 1;
	}
	/* Sort and drop repeats (a small insertion sort is plenty). */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && g[j - 1] > g[j]; j--) {
			uint32_t t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || g[m - 1] != g[i])
			g[m++] = g[i];
	*out = g;
	return m;
}

static void random_words(subject *s, size_t total, uint64_t seed)
{
	uint32_t *gens = NULL;
	size_t ng = boundary_gens(s->root, &gens);
	CHECK(ng > 0);
	uint64_t w[MAX_WORDS], st = seed;
	size_t per = total / (ng ? ng : 1) + 1;
	for (size_t g = 0; g < ng; g++)
		for (size_t i = 0; i < per; i++) {
			for (unsigned k = 0; k < s->nwords; k++)
				w[k] = xorshift(&st);
			compare(s, w, gens[g]);
		}
	free(gens);
}

/* Whether leaf l is among the matches of w at gen (by the reference). */
static bool leaf_in(const subject *s, const spec_bitset *l, const uint64_t *w, uint32_t gen)
{
	const spec_bitset *got[OUT_MAX];
	size_t n = classify_linear(s->root, w, gen, got, OUT_MAX);
	for (size_t i = 0; i < n && i < OUT_MAX; i++)
		if (got[i] == l)
			return true;
	return false;
}

/* Words from each leaf's pattern with random free bits, at its gen bounds
 * and middle, then with one fixed bit flipped. */
static void leaf_words(subject *s, uint64_t seed)
{
	uint64_t w[MAX_WORDS], st = seed;
	size_t stride = s->root->nleaves > 256 ? LEAF_STRIDE_BIG : 1;
	s->leaf_stride = stride;
	for (size_t i = 0; i < s->root->nleaves; i += stride) {
		const spec_bitset *l = s->root->leaves[i];
		bool live = can_match(l, s->nwords);
		uint32_t gens[3] = {l->gen.min, l->gen.max,
		                    l->gen.min + (l->gen.max - l->gen.min) / 2};
		for (unsigned rep = 0; rep < 12; rep++) {
			uint32_t gen = gens[rep % 3];
			for (unsigned k = 0; k < s->nwords; k++)
				w[k] = (xorshift(&st) & ~fixed_word(l, k)) | l->match.w[k];
			compare(s, w, gen);
			if (live)
				CHECK(leaf_in(s, l, w, gen));
		}
		/* Flip each fixed bit (at most 256 of them): l itself must miss. */
		unsigned flips = 0;
		for (unsigned k = 0; k < s->nwords && flips < 256; k++)
			for (uint64_t f = fixed_word(l, k); f && flips < 256; f &= f - 1, flips++) {
				for (unsigned j = 0; j < s->nwords; j++)
					w[j] = (xorshift(&st) & ~fixed_word(l, j)) | l->match.w[j];
				w[k] ^= f & -f;
				compare(s, w, gens[flips % 3]);
				if (live)
					CHECK(!leaf_in(s, l, w, gens[flips % 3]));
			}
	}
}

static void subject_finish(subject *s)
{
	CHECK_INT(s->bad, 0);
	for (size_t i = 0; i < s->root->nleaves; i++) {
		const spec_bitset *l = s->root->leaves[i];
		bool live = can_match(l, s->nwords);
		/* a leaf leaf_words passed over need not have been returned */
		bool visited = !s->leaf_stride || i % s->leaf_stride == 0;
		if (!visited && live)
			continue;
		CHECK(s->hit[i] == live);
		if (s->hit[i] != live)
			fprintf(stderr, "  %s: leaf %s (#%zu) %s\n", s->root->bitset->name, l->name,
			        i, live ? "never returned" : "returned but can never match");
	}
}

/* Every check on one root, with optional vectors (nvec words of nwords). */
static void check_root(const spec_root *r, const uint64_t *vec, const uint32_t *vgen,
                       size_t nvec, size_t nrandom, uint64_t seed)
{
	subject s;
	if (!subject_init(&s, r)) {
		subject_free(&s);
		return;
	}
	for (size_t i = 0; i < nvec; i++)
		compare(&s, vec + i * s.nwords, vgen[i]);
	random_words(&s, nrandom, seed);
	leaf_words(&s, seed * 31 + 7);
	subject_finish(&s);
	subject_free(&s);
}

static size_t random_budget(const spec_root *r)
{
	return r->nleaves >= 64 ? RANDOM_BIG : RANDOM_SMALL;
}

static void check_all_roots(const spec_model *m, uint64_t seed)
{
	for (size_t i = 0; i < m->nroots; i++)
		check_root(&m->roots[i], NULL, NULL, 0, random_budget(&m->roots[i]), seed + i);
}

/* ------------------------------------------------------- small specs */

/* 128 bits: per-generation variants, patterns in both words, overlapping
 * leaves, a leaf without patterns of its own, and two matching nothing
 * (one's 1 sits under an ancestor's x; one's gen range is empty). */
static const char spec128[] =
	"<isa>\n"
	"<bitset name=\"#w\" size=\"128\">\n"
	"  <pattern low=\"124\" high=\"127\">1010</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"a\" extends=\"#w\">\n"
	"  <pattern low=\"0\" high=\"7\">00000001</pattern>\n"
	"  <pattern low=\"64\" high=\"71\">11110000</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"b\" extends=\"#w\">\n"
	"  <gen max=\"99\"/>\n"
	"  <pattern low=\"0\" high=\"7\">00000010</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"b\" extends=\"#w\">\n"
	"  <gen min=\"100\"/>\n"
	"  <pattern low=\"0\" high=\"7\">00000010</pattern>\n"
	"  <pattern pos=\"100\">1</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"c\" extends=\"#w\">\n"
	"  <pattern low=\"8\" high=\"15\">11111111</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"#x\" extends=\"#w\">\n"
	"  <pattern pos=\"16\">x</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"nothing\" extends=\"#x\">\n"
	"  <pattern pos=\"16\">1</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"open\" extends=\"#w\">\n"
	"  <gen min=\"50\" max=\"60\"/>\n"
	"</bitset>\n"
	"<bitset name=\"#old\" extends=\"#w\">\n"
	"  <gen max=\"99\"/>\n"
	"  <pattern pos=\"17\">1</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"never\" extends=\"#old\">\n"
	"  <gen min=\"200\"/>\n"
	"</bitset>\n"
	"<bitset name=\"hi\" extends=\"#w\">\n"
	"  <pattern low=\"110\" high=\"123\">x1x0x1x0x1x0x1</pattern>\n"
	"</bitset>\n"
	"</isa>\n";

/* 4096 bits, with patterns near both ends and in the middle. */
static const char spec4096[] =
	"<isa>\n"
	"<bitset name=\"#big\" size=\"4096\">\n"
	"  <pattern low=\"4090\" high=\"4095\">110011</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"p\" extends=\"#big\">\n"
	"  <pattern low=\"0\" high=\"3\">0001</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"q\" extends=\"#big\">\n"
	"  <gen min=\"3\" max=\"5\"/>\n"
	"  <pattern low=\"0\" high=\"3\">0010</pattern>\n"
	"  <pattern low=\"2047\" high=\"2050\">1xx1</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"r\" extends=\"#big\">\n"
	"  <pattern low=\"4000\" high=\"4003\">0110</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"s\" extends=\"#big\">\n"
	"  <pattern low=\"0\" high=\"3\">0011</pattern>\n"
	"  <pattern low=\"1000\" high=\"1063\">"
	"1010101010101010101010101010101010101010101010101010101010101010</pattern>\n"
	"</bitset>\n"
	"</isa>\n";

/* Roots of 1, 5, 16 and 64 bits, a root that is its own only leaf, and a
 * leaf that fixes no bit at all. */
static const char spec_small[] =
	"<isa>\n"
	"<bitset name=\"#one\" size=\"1\"/>\n"
	"<bitset name=\"zero\" extends=\"#one\"><pattern pos=\"0\">0</pattern></bitset>\n"
	"<bitset name=\"unit\" extends=\"#one\"><pattern pos=\"0\">1</pattern></bitset>\n"
	"<bitset name=\"#five\" size=\"5\"/>\n"
	"<bitset name=\"f1\" extends=\"#five\"><pattern low=\"0\" high=\"4\">1x0x1</pattern></bitset>\n"
	"<bitset name=\"f2\" extends=\"#five\"><pattern low=\"0\" high=\"4\">1x0xx</pattern></bitset>\n"
	"<bitset name=\"alone\" size=\"64\"><pattern pos=\"63\">1</pattern></bitset>\n"
	"<bitset name=\"#free\" size=\"16\"/>\n"
	"<bitset name=\"any\" extends=\"#free\"/>\n"
	"<bitset name=\"some\" extends=\"#free\"><pattern low=\"4\" high=\"5\">10</pattern></bitset>\n"
	"</isa>\n";

static const spec_root *root_named(const spec_model *m, const char *name)
{
	const spec_root *r = spec_find_root(m, name);
	CHECK(r != NULL);
	return r;
}

/* A leaf's name; NULL (no leaf) fails CHECK_STR. */
static const char *name_of(const spec_bitset *b)
{
	return b ? b->name : NULL;
}

static size_t count(const spec_root *r, const uint64_t *w, uint32_t gen,
                    const spec_bitset **out, size_t max)
{
	classifier *c = classifier_build(r);
	CHECK(c != NULL);
	size_t n = c ? classifier_run(c, w, gen, out, max) : 0;
	classifier_free(c);
	return n;
}

TEST(spec_128)
{
	spec_diags d = {0};
	spec_model *m = load_str(spec128, &d);
	CHECK(m != NULL);
	const spec_root *r = m ? root_named(m, "#w") : NULL;
	if (r) {
		CHECK_INT(r->nleaves, 8);
		const spec_bitset *got[8] = {0};
		/* a and c overlap: bits 0-7 of a, 8-15 of c. */
		uint64_t w[2] = {0xff01, 0xa0000000000000f0ull};
		CHECK_INT(count(r, w, 0, got, 8), 2);
		CHECK_STR(name_of(got[0]), "a");
		CHECK_STR(name_of(got[1]), "c");
		/* b before gen 100 needs no bit 100; from gen 100 it does. */
		uint64_t wb[2] = {0x02, 0xa000000000000000ull};
		CHECK_INT(count(r, wb, 99, got, 8), 1);
		CHECK_INT(count(r, wb, 100, got, 8), 0);
		wb[1] |= (uint64_t)1 << 36;
		CHECK_INT(count(r, wb, 100, got, 8), 1);
		CHECK(got[0] && got[0]->gen.min == 100);
		/* "open" fixes only the root's bits, at gens 50..60. */
		CHECK_INT(count(r, wb, 55, got, 8), 2);
		CHECK_STR(name_of(got[1]), "open");
		const spec_bitset *nothing = spec_find_bitset(m, "nothing");
		CHECK(nothing && !can_match(nothing, 2));
		const spec_bitset *never = spec_find_bitset(m, "never");
		CHECK(never && never->gen.min > never->gen.max);
		check_root(r, NULL, NULL, 0, RANDOM_SMALL * 4, 1);
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(spec_4096)
{
	spec_diags d = {0};
	spec_model *m = load_str(spec4096, &d);
	CHECK(m != NULL);
	const spec_root *r = m ? root_named(m, "#big") : NULL;
	if (r) {
		CHECK_INT(r->nleaves, 4);
		uint64_t w[64] = {0};
		w[63] = (uint64_t)0x33 << 58;
		w[0] = 0x2;
		w[2047 / 64] |= (uint64_t)1 << (2047 % 64);
		w[2050 / 64] |= (uint64_t)1 << (2050 % 64);
		const spec_bitset *got[4] = {0};
		CHECK_INT(count(r, w, 4, got, 4), 1);
		CHECK_STR(name_of(got[0]), "q");
		CHECK_INT(count(r, w, 6, got, 4), 0);
		check_root(r, NULL, NULL, 0, RANDOM_SMALL, 2);
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(spec_small_roots)
{
	spec_diags d = {0};
	spec_model *m = load_str(spec_small, &d);
	CHECK(m != NULL);
	if (m) {
		CHECK_INT(m->nroots, 4);
		const spec_root *five = root_named(m, "#five");
		if (five) {
			uint64_t w = 0x11; /* 1x0x1 and 1x0xx both match */
			const spec_bitset *got[1] = {0};
			CHECK_INT(count(five, &w, 0, got, 1), 2);
			CHECK_STR(name_of(got[0]), "f1");
		}
		check_all_roots(m, 3);
		/* A root with no leaves at all (the model never makes one). */
		spec_root empty = {.bitset = m->roots[0].bitset, .leaves = NULL, .nleaves = 0};
		classifier *c = classifier_build(&empty);
		CHECK(c != NULL);
		uint64_t w = 1;
		if (c)
			CHECK_INT(classifier_run(c, &w, 0, NULL, 0), 0);
		CHECK_INT(classify_linear(&empty, &w, 0, NULL, 0), 0);
		classifier_free(c);
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

/* Appends to a growing string; false when out of memory. */
static bool append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		while (c < *len + n + 1)
			c *= 2;
		char *p = realloc(*buf, c);
		if (!p)
			return false;
		*buf = p;
		*cap = c;
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return true;
}

/* A generated 64-bit spec: nleaves leaves with random patterns of 4 to 23
 * bits somewhere in bits 0..47, some with gen ranges, plus nopen leaves
 * with no pattern of their own.  More leaves than the classifier samples,
 * and the pattern-less ones in every list, push its size limits. */
static char *generated_spec(unsigned nleaves, unsigned nopen, uint64_t seed)
{
	char *buf = NULL, line[256];
	size_t len = 0, cap = 0;
	bool ok = append(&buf, &len, &cap, "<isa>\n<bitset name=\"#g\" size=\"64\">\n"
	                 "  <pattern low=\"60\" high=\"63\">0101</pattern>\n</bitset>\n");
	uint64_t st = seed;
	for (unsigned i = 0; ok && i < nleaves + nopen; i++) {
		snprintf(line, sizeof line, "<bitset name=\"l%u\" extends=\"#g\">\n", i);
		ok = append(&buf, &len, &cap, line);
		if (ok && xorshift(&st) % 4 == 0) {
			unsigned lo = (unsigned)(xorshift(&st) % 8);
			snprintf(line, sizeof line, "  <gen min=\"%u\" max=\"%u\"/>\n", lo,
			         lo + (unsigned)(xorshift(&st) % 8));
			ok = append(&buf, &len, &cap, line);
		}
		if (ok && i < nleaves) {
			unsigned width = 4 + (unsigned)(xorshift(&st) % 20);
			unsigned low = (unsigned)(xorshift(&st) % (48 - width));
			char bits[32];
			for (unsigned k = 0; k < width; k++)
				bits[k] = "01x01"[xorshift(&st) % 5];
			bits[width] = 0;
			snprintf(line, sizeof line, "  <pattern low=\"%u\" high=\"%u\">%s</pattern>\n",
			         low, low + width - 1, bits);
			ok = append(&buf, &len, &cap, line);
		}
		ok = ok && append(&buf, &len, &cap, "</bitset>\n");
	}
	ok = ok && append(&buf, &len, &cap, "</isa>\n");
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* 256 leaves with their own value of bits 0-7, 256 with their own value
 * of bits 8-15, and nopen leaves with no pattern of their own: the 2^16
 * combinations are distinct lists of nopen + 2 leaves each, too many
 * records for a full table, so the classifier must make do with fewer
 * level-one bits. */
static char *layered_spec(unsigned nopen)
{
	char *buf = NULL, line[256];
	size_t len = 0, cap = 0;
	bool ok = append(&buf, &len, &cap, "<isa>\n<bitset name=\"#g\" size=\"64\">\n"
	                 "  <pattern low=\"60\" high=\"63\">0101</pattern>\n</bitset>\n");
	for (unsigned i = 0; ok && i < 512 + nopen; i++) {
		char bits[9] = {0};
		for (unsigned k = 0; k < 8; k++)
			bits[k] = (char)('0' + ((i >> (7 - k)) & 1));
		if (i < 512)
			snprintf(line, sizeof line,
			         "<bitset name=\"l%u\" extends=\"#g\">"
			         "<pattern low=\"%u\" high=\"%u\">%s</pattern></bitset>\n",
			         i, i < 256 ? 0 : 8, i < 256 ? 7 : 15, bits);
		else
			snprintf(line, sizeof line, "<bitset name=\"l%u\" extends=\"#g\"/>\n", i);
		ok = append(&buf, &len, &cap, line);
	}
	ok = ok && append(&buf, &len, &cap, "</isa>\n");
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void check_xml(char *xml, unsigned nleaves, size_t nrandom, uint64_t seed)
{
	CHECK(xml != NULL);
	if (!xml)
		return;
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	const spec_root *r = m ? root_named(m, "#g") : NULL;
	if (r) {
		CHECK_INT(r->nleaves, nleaves);
		check_root(r, NULL, NULL, 0, nrandom, seed);
	}
	spec_model_free(m);
	spec_diags_free(&d);
	free(xml);
}

TEST(layered)
{
	check_xml(layered_spec(8), 520, RANDOM_SMALL, 15);
}

static void check_generated(unsigned nleaves, unsigned nopen, uint64_t seed)
{
	check_xml(generated_spec(nleaves, nopen, seed), nleaves + nopen, RANDOM_SMALL * 4, seed);
}

TEST(generated)
{
	check_generated(40, 0, 11);
	check_generated(300, 3, 12);
	check_generated(700, 20, 13);
	check_generated(2500, 0, 14);
}

/* ------------------------------------------------------ Mesa's specs */

/* Reads a vector file: column 2 holds nw32 hex words, low first; the
 * generation is column gen_col (1-based; 0: always gen0).  Returns the
 * number of words, as 64-bit words of nwords each. */
static size_t read_vectors(const char *name, unsigned nw32, unsigned gen_col, uint32_t gen0,
                           uint64_t **words, uint32_t **gens)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/vectors/%s", name);
	testlib_tsv t;
	bool opened = testlib_tsv_open(&t, path);
	CHECK(opened);
	*words = NULL;
	*gens = NULL;
	if (!opened)
		return 0;
	unsigned nwords = (nw32 + 1) / 2;
	size_t n = 0, cap = 0, ncol;
	char *col[16];
	while ((ncol = testlib_tsv_next(&t, col, 16))) {
		CHECK(ncol > 3 && ncol > gen_col);
		if (ncol <= 3 || ncol <= gen_col)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 512;
			uint64_t *w = realloc(*words, cap * nwords * sizeof *w);
			uint32_t *g = w ? realloc(*gens, cap * sizeof *g) : NULL;
			if (w)
				*words = w;
			if (!w || !g)
				break;
			*gens = g;
		}
		uint64_t *w = *words + n * nwords;
		memset(w, 0, nwords * sizeof *w);
		char *p = col[1], *end;
		for (unsigned k = 0; k < nw32; k++) {
			unsigned long v = strtoul(p, &end, 16);
			CHECK(end != p);
			w[k / 2] |= (uint64_t)(v & 0xffffffffu) << (32 * (k % 2));
			p = end;
		}
		(*gens)[n] = gen_col ? (uint32_t)strtoul(col[gen_col - 1], NULL, 10) : gen0;
		n++;
	}
	testlib_tsv_close(&t);
	CHECK(n > 0);
	return n;
}

/* The vector's text says whether Mesa found exactly one leaf: ir3 prints
 * unmatched words as "raw 0x...", afuc as "[xxxxxxxx]". */
static bool decodes(const char *text)
{
	return strncmp(text, "raw 0x", 6) != 0 && text[0] != '[';
}

/* Every root of the model: #instruction with the vectors too. */
static void check_mesa(const char *xml, const char *tsv, unsigned nw32, unsigned gen_col,
                       uint32_t gen0, uint64_t seed)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", xml);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	CHECK(m != NULL);
	if (!m) {
		spec_diags_free(&d);
		return;
	}
	const spec_root *instr = root_named(m, "#instruction");
	uint64_t *words = NULL;
	uint32_t *gens = NULL;
	size_t nvec = instr ? read_vectors(tsv, nw32, gen_col, gen0, &words, &gens) : 0;
	if (instr && nvec) {
		CHECK_INT(nwords_of(instr), (nw32 + 1) / 2);
		check_root(instr, words, gens, nvec, RANDOM_BIG, seed);
	}
	for (size_t i = 0; i < m->nroots; i++)
		if (&m->roots[i] != instr)
			check_root(&m->roots[i], NULL, NULL, 0, random_budget(&m->roots[i]),
			           seed + i + 1);
	free(words);
	free(gens);
	spec_model_free(m);
	spec_diags_free(&d);
}

/* Mesa decoded each vector to the leaf its text shows, or to nothing. */
static void check_vector_outcomes(const char *xml, const char *tsv, unsigned nw32,
                                  unsigned gen_col, uint32_t gen0)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", xml);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	const spec_root *r = m ? spec_find_root(m, "#instruction") : NULL;
	classifier *c = r ? classifier_build(r) : NULL;
	CHECK(c != NULL);
	testlib_shared_path(path, sizeof path, "mesa/vectors/%s", tsv);
	testlib_tsv in;
	bool opened = testlib_tsv_open(&in, path);
	CHECK(opened);
	uint64_t *words = NULL;
	uint32_t *gens = NULL;
	size_t nvec = c && opened ? read_vectors(tsv, nw32, gen_col, gen0, &words, &gens) : 0;
	size_t row = 0, wrong = 0, nc;
	unsigned nwords = (nw32 + 1) / 2;
	char *cols[3];
	while (row < nvec && (nc = testlib_tsv_next(&in, cols, 3))) {
		if (nc < 3)
			continue;
		size_t n = classifier_run(c, words + row * nwords, gens[row], NULL, 0);
		if ((n == 1) != decodes(cols[2]) && wrong++ < 5)
			fprintf(stderr, "  %s row %zu: %zu leaves for \"%.40s\"\n", tsv, row + 2, n,
			        cols[2]);
		row++;
	}
	CHECK_INT(row, nvec);
	CHECK_INT(wrong, 0);
	testlib_tsv_close(&in);
	free(words);
	free(gens);
	classifier_free(c);
	spec_model_free(m);
	spec_diags_free(&d);
}

/* afuc's first column is the section's gpu ("a6xx", "a7xx"); afuc's gen
 * scale is the digit. */
static void check_afuc(void)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/afuc/afuc.xml");
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	CHECK(m != NULL);
	const spec_root *instr = m ? root_named(m, "#instruction") : NULL;
	uint64_t *words = NULL;
	uint32_t *gens = NULL;
	size_t nvec = instr ? read_vectors("afuc.tsv", 1, 0, 0, &words, &gens) : 0;
	testlib_shared_path(path, sizeof path, "mesa/vectors/afuc.tsv");
	testlib_tsv in;
	testlib_tsv_open(&in, path);
	size_t row = 0;
	char *gpu;
	while (row < nvec && testlib_tsv_next(&in, &gpu, 1))
		gens[row++] = gpu[0] == 'a' ? (uint32_t)(gpu[1] - '0') : 0;
	testlib_tsv_close(&in);
	CHECK_INT(row, nvec);
	if (instr && nvec)
		check_root(instr, words, gens, nvec, RANDOM_BIG, 5);
	for (size_t i = 0; m && i < m->nroots; i++)
		if (&m->roots[i] != instr)
			check_root(&m->roots[i], NULL, NULL, 0, random_budget(&m->roots[i]), 50 + i);
	free(words);
	free(gens);
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(mesa_ir3)
{
	check_mesa("freedreno/isa/ir3.xml", "ir3.tsv", 2, 4, 0, 21);
	check_vector_outcomes("freedreno/isa/ir3.xml", "ir3.tsv", 2, 4, 0);
}

TEST(mesa_etnaviv)
{
	check_mesa("etnaviv/isa/etnaviv.xml", "etnaviv.tsv", 4, 0, 0, 22);
	check_vector_outcomes("etnaviv/isa/etnaviv.xml", "etnaviv.tsv", 4, 0, 0);
}

TEST(mesa_afuc)
{
	check_afuc();
}

int main(void)
{
	RUN(spec_128);
	RUN(spec_4096);
	RUN(spec_small_roots);
	RUN(generated);
	RUN(layered);

	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe)) {
		/* The small specs ran, but the test is incomplete: skipped. */
		int rc = testlib_finish();
		return rc ? rc : 77;
	}
	RUN(mesa_ir3);
	RUN(mesa_etnaviv);
	RUN(mesa_afuc);
	return testlib_finish();
}
