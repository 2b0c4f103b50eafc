/*
 * test_oracle_isaspec.c - isacheck against Mesa's own isaspec decoders, at
 * scale: for ir3, etnaviv and afuc, a fixed seeded sample of at least a
 * million words per generation interval of the spec (200,000 in the
 * sanitizer build), printed by isacheck
 * (reading Mesa's XML from ../shared/mesa) and by Mesa's decoder generated
 * from the same XML (../shared/oracles/mesa), must come out byte for byte
 * the same, errors included.  The comparison is fuzz/oracle.c's, the one
 * the fuzz targets oracle_mesa_<isa> run.
 *
 * Words come in buffers of 64 instructions, printed in one call by each
 * side (labels, and a bitset conflict's error printed on the next line,
 * span instructions).  Half of the buffers are uniformly random words;
 * the other half are seeded from a random leaf valid at the generation
 * (its pattern bits set, the rest random, every other buffer sparse), so
 * that rare leaves, their fields, overrides and asserts are reached too.
 * The options turn with the buffer: every no-match style of the ISA's
 * Mesa tools, errors shown and hidden, branch labels on and off.  The
 * first instruction of every buffer is also printed alone with the tool's
 * own options.
 */
#include "testlib.h"

#include "codec.h"
#include "spec.h"

#if ISACHECK_HAVE_ORACLE
#include "fuzz.h"
#include "mesa_oracle.h"
#include "oracle.h"
#endif

#include <stdlib.h>
#include <string.h>

#define BATCH 64u
/* The sanitizer build, several times slower here (Mesa's decoder
 * allocates per scope), compares a fifth as many: it is there for memory
 * errors; the plain build makes the million-word comparison. */
#ifdef ISACHECK_SANITIZED
#define WORDS_PER_GEN 200000u
#else
#define WORDS_PER_GEN 1000000u
#endif

#if ISACHECK_HAVE_ORACLE

typedef struct tally {
	size_t words, buffers, alone, refused, differ;
} tally;

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The leaves of the default root that apply at gen. */
static size_t leaves_at(const spec_root *root, uint32_t gen, const spec_bitset **out)
{
	size_t n = 0;
	for (size_t i = 0; i < root->nleaves; i++)
		if (root->leaves[i]->gen.min <= gen && gen <= root->leaves[i]->gen.max)
			out[n++] = root->leaves[i];
	return n;
}

/* Buffer b's words: random, or seeded from random leaves. */
static void fill(const fuzz_spec *s, const spec_bitset *const *leaves, size_t nleaves,
                 size_t b, uint64_t *seed, uint32_t *u)
{
	unsigned per = s->nbytes / 4;
	for (unsigned i = 0; i < BATCH; i++) {
		uint32_t *iu = u + i * per;
		for (unsigned k = 0; k < per; k++)
			iu[k] = (uint32_t)rng_next(seed);
		if (b % 2 == 0 || !nleaves)
			continue;
		const spec_bitset *leaf = leaves[rng_next(seed) % nleaves];
		for (unsigned k = 0; k < per; k++) {
			unsigned wi = k / 2, sh = 32 * (k % 2);
			uint32_t mask = wi < leaf->mask.nwords ? (uint32_t)(leaf->mask.w[wi] >> sh) : 0;
			uint32_t match = wi < leaf->match.nwords ? (uint32_t)(leaf->match.w[wi] >> sh) : 0;
			uint32_t r = iu[k];
			/* sparse: small field values, zero don't-care bits */
			if (b % 4 == 3)
				r &= (uint32_t)rng_next(seed) & (uint32_t)rng_next(seed);
			iu[k] = (r & ~mask) | (match & mask);
		}
	}
}

static void show(const char *isa, uint32_t gen, const uint32_t *u, unsigned per,
                 const codec_disasm_options *o, const oracle_isaspec_result *r)
{
	/* without labels line i is instruction i: its words; with them, the
	 * buffer's first (the repro_ command of oracle_mesa_<isa> shows the
	 * whole buffer's text, given its words) */
	size_t at = o->branch_labels ? 0 : r->diff.line;
	fprintf(stderr, "%s gen %u (errors %s, labels %s, no-match style %d), line %zu, %s",
	        isa, gen, o->show_errors ? "shown" : "hidden", o->branch_labels ? "on" : "off",
	        (int)o->no_match, r->diff.line + 1,
	        o->branch_labels ? "in the buffer starting" : "instruction");
	for (unsigned k = 0; k < per; k++)
		fprintf(stderr, " %08x", u[at * per + k]);
	fprintf(stderr, "\n  isacheck: %.*s\n  Mesa:     %.*s\n", (int)r->diff.ourslen, r->diff.ours,
	        (int)r->diff.mesalen, r->diff.mesa);
}

/* One comparison, counted. */
static void compare(const fuzz_spec *s, const char *isa, const uint32_t *u, size_t n,
                    const codec_disasm_options *o, tally *t)
{
	oracle_isaspec_result r;
	bool ok = oracle_isaspec_compare(s->c, isa, u, n, o, &r);
	CHECK(ok);
	if (ok && r.status < 0)
		t->refused++;
	else if (ok && !r.same && t->differ++ < 8)
		show(isa, o->gen, u, s->nbytes / 4, o, &r);
	oracle_isaspec_result_free(&r);
}

static void sample(const char *isa, const char *spec, const uint32_t *gens, size_t ngens)
{
	codec_no_match_style styles[2];
	size_t nstyles = oracle_isaspec_styles(isa, styles);
	fuzz_spec s;
	int rc = fuzz_spec_load(&s, spec, styles[0]);
	CHECK_INT(rc, 0);
	if (rc)
		return;
	CHECK_INT(s.nbytes, 4 * mesa_oracle_isaspec_words(isa));
	/* the generations sampled meet every interval over which the
	 * spec's leaves stay the same (fuzz_spec_load's boundaries) */
	for (size_t i = 0; i < s.ngens; i++) {
		uint32_t lo = s.gens[i], hi = i + 1 < s.ngens ? s.gens[i + 1] : UINT32_MAX;
		bool met = false;
		for (size_t g = 0; g < ngens; g++)
			met |= gens[g] >= lo && gens[g] < hi;
		if (!met && hi > s.root->bitset->gen.min && lo <= s.root->bitset->gen.max)
			fprintf(stderr, "%s: no generation sampled in %u..%u\n", isa, lo, hi - 1);
		CHECK(met || hi <= s.root->bitset->gen.min || lo > s.root->bitset->gen.max);
	}
	const spec_bitset **leaves = malloc(s.root->nleaves * sizeof *leaves);
	uint32_t *u = malloc(BATCH * s.nbytes);
	CHECK(leaves && u);
	for (size_t g = 0; leaves && u && g < ngens; g++) {
		tally t = {0};
		uint64_t seed = 0x243f6a8885a308d3ull ^ gens[g];
		size_t nleaves = leaves_at(s.root, gens[g], leaves);
		for (size_t b = 0; t.words < WORDS_PER_GEN; b++) {
			fill(&s, leaves, nleaves, b, &seed, u);
			codec_disasm_options o =
				oracle_isaspec_options(isa, styles[(b / 2) % nstyles], gens[g]);
			o.branch_labels ^= (b / 4) & 1u;
			o.show_errors ^= (b / 8) & 1u;
			compare(&s, isa, u, BATCH, &o, &t);
			codec_disasm_options alone = oracle_isaspec_options(isa, styles[0], gens[g]);
			alone.branch_labels = false;
			compare(&s, isa, u, 1, &alone, &t);
			t.words += BATCH;
			t.buffers++;
			t.alone++;
		}
		printf("%s gen %u: %zu words in %zu buffers of %u, %zu printed alone too; "
		       "%zu refused by Mesa's code, %zu differ (%zu leaves at this generation)\n",
		       isa, gens[g], t.words, t.buffers, BATCH, t.alone, t.refused, t.differ, nleaves);
		CHECK_INT(t.differ, 0);
		/* Mesa's isaspec decoders take every whole instruction */
		CHECK_INT(t.refused, 0);
	}
	free(leaves);
	free(u);
	fuzz_spec_free(&s);
}

TEST(ir3_every_generation)
{
	if (!testlib_have_shared(ISACHECK_SHARED_DIR "/mesa/src/freedreno/isa/ir3.xml"))
		return;
	static const uint32_t gens[] = {300, 400, 500, 600, 700};
	sample("ir3", "shared:mesa/src/freedreno/isa/ir3.xml", gens, 5);
}

TEST(etnaviv)
{
	if (!testlib_have_shared(ISACHECK_SHARED_DIR "/mesa/src/etnaviv/isa/etnaviv.xml"))
		return;
	static const uint32_t gens[] = {0};
	sample("etnaviv", "shared:mesa/src/etnaviv/isa/etnaviv.xml", gens, 1);
}

TEST(afuc_every_generation)
{
	if (!testlib_have_shared(ISACHECK_SHARED_DIR "/mesa/src/freedreno/afuc/afuc.xml"))
		return;
	/* afuc-disasm's gpuver: a5xx, a6xx (both below 7) and a7xx */
	static const uint32_t gens[] = {5, 6, 7};
	sample("afuc", "shared:mesa/src/freedreno/afuc/afuc.xml", gens, 3);
}

#else

TEST(oracle_absent)
{
	/* without the oracle there is nothing to compare against: skipped,
	 * except under CI=true, where ../shared must be there */
	testlib_have_shared(ISACHECK_ORACLE_DIR "/oracle.cmake");
}

#endif

/* test_oracle_isaspec [ir3|etnaviv|afuc...]: the ISAs named, or all
 * (ctest runs one a process, side by side). */
int main(int argc, char **argv)
{
#if ISACHECK_HAVE_ORACLE
	static const struct {
		const char *isa;
		void (*run)(void);
		const char *name;
	} parts[] = {
		{"ir3", ir3_every_generation, "ir3_every_generation"},
		{"etnaviv", etnaviv, "etnaviv"},
		{"afuc", afuc_every_generation, "afuc_every_generation"},
	};
	for (int a = 1; a < argc; a++) {
		bool known = false;
		for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
			known |= !strcmp(argv[a], parts[i].isa);
		if (!known) {
			fprintf(stderr, "usage: test_oracle_isaspec [ir3|etnaviv|afuc...]\n");
			return 2;
		}
	}
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		bool named = argc == 1;
		for (int a = 1; a < argc; a++)
			named |= !strcmp(argv[a], parts[i].isa);
		if (!named)
			continue;
		int before = testlib_failures;
		parts[i].run();
		printf("%s %s\n", testlib_failures == before ? "ok  " : "FAIL", parts[i].name);
	}
#else
	(void)argc;
	(void)argv;
	RUN(oracle_absent);
#endif
	return testlib_finish();
}
