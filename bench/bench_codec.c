/*
 * bench_codec.c - single-threaded throughput of the codec: classifications
 * per second of the compiled classifier and of the plain scan over leaves,
 * on Mesa's ir3 (#instruction at gen 600) and etnaviv (#instruction at
 * gen 0), over the test vectors and over 2^20 random words; with
 * -DBENCH_WITH_DISASM, also disassembled instructions per second; with
 * -DBENCH_WITH_ORACLE (the build links Mesa's own decoders from
 * ../shared/oracles/mesa), Mesa's disassembly beside ours in the same
 * run, interleaved, and the ratio.
 *
 *   bench_codec [SHARED_DIR]
 *
 * SHARED_DIR holds mesa/src and mesa/vectors; it defaults to the build's
 * ISACHECK_SHARED_DIR, else ../shared.  Each figure is the rate over at
 * least MEASURE_SECONDS of repeating the word set; a checksum of every
 * result is printed so the compiler cannot drop the work.
 */
#include "../src/codec/internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef ISACHECK_SHARED_DIR
#define ISACHECK_SHARED_DIR "../shared"
#endif

#define MEASURE_SECONDS 0.5
#define RANDOM_WORDS (1u << 20)
/* Classifications between two reads of the clock. */
#define BATCH (1u << 16)

typedef struct target {
	const char *name;      /* "ir3" */
	const char *xml;       /* under mesa/src */
	const char *tsv;       /* under mesa/vectors */
	uint32_t gen;
	codec_no_match_style no_match;
} target;

/* The word set of one measurement: n instructions of nwords 64-bit words. */
typedef struct words {
	uint64_t *w;
	size_t n;
	unsigned nwords;
} words;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* Column 2 of each row after the header: hex 32-bit words, low first. */
static bool read_vectors(const char *path, unsigned nwords, words *out)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "bench_codec: cannot read %s\n", path);
		return false;
	}
	*out = (words){.nwords = nwords};
	size_t cap = 0;
	char line[4096];
	bool ok = true, header = true;
	while (ok && fgets(line, sizeof line, f)) {
		char *p = strchr(line, '\t');
		if (header || !p) {
			header = false;
			continue;
		}
		if (out->n == cap) {
			cap = cap ? cap * 2 : 256;
			uint64_t *w = realloc(out->w, cap * nwords * sizeof *w);
			if (!w) {
				ok = false;
				break;
			}
			out->w = w;
		}
		uint64_t *w = out->w + out->n * nwords;
		memset(w, 0, nwords * sizeof *w);
		for (unsigned k = 0; k < nwords * 2; k++) {
			char *end;
			unsigned long v = strtoul(p + 1, &end, 16);
			if (end == p + 1)
				break;
			w[k / 2] |= (uint64_t)(v & 0xffffffffu) << (32 * (k % 2));
			p = end;
		}
		out->n++;
	}
	fclose(f);
	if (!ok || !out->n) {
		fprintf(stderr, "bench_codec: %s: %s\n", path, ok ? "no vectors" : "out of memory");
		free(out->w);
		return false;
	}
	return true;
}

static bool random_set(unsigned nwords, words *out)
{
	*out = (words){.n = RANDOM_WORDS, .nwords = nwords};
	out->w = malloc((size_t)RANDOM_WORDS * nwords * sizeof *out->w);
	if (!out->w)
		return false;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < (size_t)RANDOM_WORDS * nwords; i++)
		out->w[i] = xorshift(&s);
	return true;
}

/* Folds one result into the checksum. */
static uint64_t fold(uint64_t sum, size_t n, const spec_bitset *first)
{
	return sum * 31 + n + (n ? (uintptr_t)first : 0);
}

/* Classifications per second; the two loops differ only in the call,
 * so the comparison is of the classifiers alone. */
static double rate_fast(const classifier *c, const words *ws, uint32_t gen, uint64_t *sum)
{
	const spec_bitset *out[4] = {0};
	size_t done = 0, i = 0;
	double t0 = now(), t;
	do {
		for (unsigned b = 0; b < BATCH; b++) {
			size_t n = classifier_run(c, ws->w + i * ws->nwords, gen, out, 4);
			*sum = fold(*sum, n, out[0]);
			if (++i == ws->n)
				i = 0;
		}
		done += BATCH;
		t = now() - t0;
	} while (t < MEASURE_SECONDS);
	return (double)done / t;
}

static double rate_linear(const spec_root *r, const words *ws, uint32_t gen, uint64_t *sum)
{
	const spec_bitset *out[4] = {0};
	size_t done = 0, i = 0;
	double t0 = now(), t;
	do {
		for (unsigned b = 0; b < BATCH; b++) {
			size_t n = classify_linear(r, ws->w + i * ws->nwords, gen, out, 4);
			*sum = fold(*sum, n, out[0]);
			if (++i == ws->n)
				i = 0;
		}
		done += BATCH;
		t = now() - t0;
	} while (t < MEASURE_SECONDS);
	return (double)done / t;
}

static void classify_line(const char *name, const char *set, const classifier *c,
                          const spec_root *r, const words *ws, uint32_t gen, uint64_t *sum)
{
	double fast = rate_fast(c, ws, gen, sum);
	double linear = rate_linear(r, ws, gen, sum);
	printf("classify %s %s: fast %.1f M/s, linear %.1f M/s (%.0fx)\n", name, set,
	       fast / 1e6, linear / 1e6, fast / linear);
	fflush(stdout);
}

#ifdef BENCH_WITH_DISASM
/* Disassembled instructions per second over a word set (set: its name). */
static void disasm_line(const target *t, const spec_model *m, const words *ws, const char *set,
                        uint64_t *sum)
{
	spec_diags d = {0};
	codec *c = codec_new(m, &d);
	spec_diags_free(&d);
	uint32_t *w32 = malloc(ws->n * ws->nwords * 2 * sizeof *w32);
	if (!c || !w32) {
		fprintf(stderr, "bench_codec: %s: no codec\n", t->name);
		codec_free(c);
		free(w32);
		return;
	}
	for (size_t i = 0; i < ws->n * ws->nwords; i++) {
		w32[2 * i] = (uint32_t)ws->w[i];
		w32[2 * i + 1] = (uint32_t)(ws->w[i] >> 32);
	}
	unsigned stride = (codec_default_root(c)->bitset->size + 31) / 32;
	size_t ninstr = ws->n * ws->nwords * 2 / stride;
	codec_disasm_options opt = {.gen = t->gen, .show_errors = true, .no_match = t->no_match};
	char buf[512];
	size_t done = 0, i = 0;
	double t0 = now(), el;
	do {
		for (unsigned b = 0; b < 1024; b++) {
			size_t n = codec_disasm_one(c, w32 + i * stride, &opt, buf, sizeof buf);
			*sum = *sum * 31 + n + (unsigned char)buf[0];
			if (++i == ninstr)
				i = 0;
		}
		done += 1024;
		el = now() - t0;
	} while (el < MEASURE_SECONDS);
	printf("disasm %s %s: %.2f M instr/s\n", t->name, set, (double)done / el / 1e6);
	fflush(stdout);
	codec_free(c);
	free(w32);
}
#endif

#ifdef BENCH_WITH_ORACLE
#include "mesa_oracle.h"

/* Mesa's decoder beside ours.  Mesa prints through isa_disasm into a
 * FILE (the oracle's open_memstream, copied out), one call per
 * instruction as its unit tests do, or one call per buffer as its tools
 * do; ours is timed the same two ways, codec_disasm_one into a buffer and
 * codec_disasm into an open_memstream.  The two alternate, ROUNDS times
 * each, so that a neighbour's load falls on both; each figure is the
 * median of its rounds.  Mesa's decoder has no classification of its
 * own to call (find_bitset is static): its algorithm is a scan over every
 * leaf, the "linear" figure above. */
#define ROUNDS 5
#define ROUND_SECONDS 0.2
#define BUFFER_INSTR 4096u

typedef struct side_by_side {
	const target *t;
	const codec *c;
	const uint32_t *w32;
	size_t ninstr;
	unsigned stride;
	codec_disasm_options opt;
	unsigned oracle_flags;
	char *buf;
	size_t buflen;
	uint64_t sum;
} side_by_side;

/* One round of one side: instructions per second; whole: buffers of
 * BUFFER_INSTR instructions (the last one shorter) instead of one. */
static double round_rate(side_by_side *b, bool mesa, bool whole)
{
	size_t done = 0, i = 0;
	double t0 = now(), el;
	do {
		size_t n = whole ? b->ninstr - i : 1;
		if (n > BUFFER_INSTR)
			n = BUFFER_INSTR;
		const uint32_t *w = b->w32 + i * b->stride;
		size_t len;
		if (mesa) {
			int r = mesa_oracle_isaspec_disasm_ex(b->t->name, b->opt.gen, w, n * b->stride,
			                                      b->oracle_flags, b->buf, b->buflen);
			len = r < 0 ? 0 : (size_t)r;
		} else if (!whole) {
			len = codec_disasm_one(b->c, w, &b->opt, b->buf, b->buflen);
		} else {
			char *text = NULL;
			FILE *f = open_memstream(&text, &len);
			if (f) {
				codec_disasm(b->c, w, n, &b->opt, f);
				fclose(f);
			}
			len = text ? len : 0;
			free(text);
		}
		b->sum = b->sum * 31 + len + (unsigned char)b->buf[0];
		done += n;
		i = (i + n) % b->ninstr;
		el = now() - t0;
	} while (el < ROUND_SECONDS);
	return (double)done / el;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void side_by_side_line(side_by_side *b, const char *set, bool whole)
{
	double ours[ROUNDS], mesa[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		ours[r] = round_rate(b, false, whole);
		mesa[r] = round_rate(b, true, whole);
	}
	qsort(ours, ROUNDS, sizeof *ours, cmp_double);
	qsort(mesa, ROUNDS, sizeof *mesa, cmp_double);
	double o = ours[ROUNDS / 2], m = mesa[ROUNDS / 2];
	printf("vs Mesa %s %s, %s: isacheck %.2f M instr/s, Mesa %.3f M instr/s (%.0fx)\n",
	       b->t->name, set, whole ? "buffers of 4096" : "one call an instruction", o / 1e6,
	       m / 1e6, o / m);
	fflush(stdout);
}

static void oracle_lines(const target *t, const spec_model *m, const words *ws,
                         const char *set, uint64_t *sum)
{
	spec_diags d = {0};
	codec *c = codec_new(m, &d);
	spec_diags_free(&d);
	unsigned stride = c ? (codec_default_root(c)->bitset->size + 31) / 32 : 1;
	side_by_side b = {.t = t, .c = c, .stride = stride,
	                  .ninstr = ws->n * ws->nwords * 2 / stride,
	                  .opt = {.gen = t->gen, .show_errors = true, .no_match = t->no_match},
	                  .oracle_flags = MESA_ORACLE_RAW_GPU_ID | MESA_ORACLE_SHOW_ERRORS |
	                                  (t->no_match == CODEC_NO_MATCH_MESA && !strcmp(t->name, "ir3")
	                                   ? MESA_ORACLE_NO_MATCH_PLAIN : 0u),
	                  .buflen = (size_t)BUFFER_INSTR * 1024};
	uint32_t *w32 = malloc(ws->n * ws->nwords * 2 * sizeof *w32);
	b.buf = malloc(b.buflen);
	if (c && w32 && b.buf) {
		for (size_t i = 0; i < ws->n * ws->nwords; i++) {
			w32[2 * i] = (uint32_t)ws->w[i];
			w32[2 * i + 1] = (uint32_t)(ws->w[i] >> 32);
		}
		b.w32 = w32;
		side_by_side_line(&b, set, false);
		side_by_side_line(&b, set, true);
		*sum = *sum * 31 + b.sum;
	} else {
		fprintf(stderr, "bench_codec: %s: no codec or memory for Mesa's side\n", t->name);
	}
	free(b.buf);
	free(w32);
	codec_free(c);
}
#endif

static bool bench_target(const char *shared, const target *t, uint64_t *sum)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/mesa/src/%s", shared, t->xml);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	spec_diags_free(&d);
	const spec_root *r = m ? spec_find_root(m, "#instruction") : NULL;
	if (!r) {
		fprintf(stderr, "bench_codec: %s: no #instruction root\n", path);
		spec_model_free(m);
		return false;
	}
	classifier *c = classifier_build(r);
	unsigned nwords = (r->bitset->size + 63) / 64;
	words vec = {0}, rnd = {0};
	snprintf(path, sizeof path, "%s/mesa/vectors/%s", shared, t->tsv);
	bool ok = c && read_vectors(path, nwords, &vec) && random_set(nwords, &rnd);
	if (ok) {
		classify_line(t->name, "vectors", c, r, &vec, t->gen, sum);
		classify_line(t->name, "random", c, r, &rnd, t->gen, sum);
#ifdef BENCH_WITH_DISASM
		disasm_line(t, m, &vec, "vectors", sum);
		disasm_line(t, m, &rnd, "random", sum);
#endif
#ifdef BENCH_WITH_ORACLE
		oracle_lines(t, m, &vec, "vectors", sum);
		oracle_lines(t, m, &rnd, "random", sum);
#endif
	} else {
		fprintf(stderr, "bench_codec: %s: setup failed\n", t->name);
	}
	free(vec.w);
	free(rnd.w);
	classifier_free(c);
	spec_model_free(m);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: bench_codec [SHARED_DIR]\n");
		return 2;
	}
	const char *shared = argc == 2 ? argv[1] : ISACHECK_SHARED_DIR;
	static const target targets[] = {
		{"ir3", "freedreno/isa/ir3.xml", "ir3.tsv", 600, CODEC_NO_MATCH_IR3},
		{"etnaviv", "etnaviv/isa/etnaviv.xml", "etnaviv.tsv", 0, CODEC_NO_MATCH_MESA},
	};
	uint64_t sum = 0;
	bool ok = true;
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		ok = bench_target(shared, &targets[i], &sum) && ok;
	printf("checksum %016llx\n", (unsigned long long)sum);
	return ok ? 0 : 1;
}
