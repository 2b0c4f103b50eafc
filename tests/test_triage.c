/*
 * test_triage.c - blob triage (src/triage and `isacheck triage`):
 *
 *  - synthetic blobs on a small spec written here, with unexplained bits
 *    planted in known numbers (don't-care, reserved, assert, enum, words
 *    no leaf matches), shuffled among clean words: every plant is found,
 *    in exactly the cluster it belongs to, with the exact count, mask and
 *    nearest leaves, and nothing else is;
 *  - Mesa's vectors (../shared/mesa/vectors): the rows Mesa prints as
 *    "no match" (ir3 "raw 0x...", afuc "[xxxxxxxx]") are no-match, the
 *    etnaviv rows with "dontcare bits in X: MASK" are don't-care in X with
 *    that very mask; nothing else is unexplained but enum values;
 *  - the command: inputs of every kind (binary, directory, hex text,
 *    TSV), exit codes, the JSON, and one-line errors for truncated
 *    binaries, odd-length and garbage hex, short rows;
 *  - the nearest leaves of unmatched words (an index, nearest.c) against
 *    the plain scan triage_nearest, on ir3, etnaviv and afuc words;
 *  - whole Midgard programs (isa/midgard.xml's <program>) of random valid
 *    bundles from the reference generator (src/ref/midgard.c): clean; with
 *    don't-care bits and an enum value the spec does not name planted in
 *    known parts, found and clustered exactly; truncated and with a bad
 *    tag, a framing error and exit 1;
 *  - several threads (triage_queue, `triage -j N`): every kind of item,
 *    across batches, through queues of 1, 2, 3 and 8 threads, gives the
 *    results of triage_add exactly; the command's text, JSON and HTML
 *    are the same byte for byte with -j1, 2, 3 and 8, on inputs larger
 *    than a batch (many clusters, words no leaf matches, 200-bit words,
 *    whole programs); a bad number of jobs is a one-line error.
 */
#include "codec.h"
#include "midgard.h"
#include "spec.h"
#include "testlib.h"
#include "triage.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

/* A 32-bit ISA: add has four x bits (24..27) and an enum field that
 * names 3 of its 4 values; mov has an assert (16..19 must be 0) and
 * bits 20..27 nothing accounts for (reserved). */
static const char synth_xml[] =
	"<isa>\n"
	"<enum name=\"#cond\">\n"
	"  <value val=\"0\" display=\"eq\"/><value val=\"1\" display=\"ne\"/>\n"
	"  <value val=\"2\" display=\"lt\"/>\n"
	"</enum>\n"
	"<bitset name=\"#instruction\" size=\"32\"/>\n"
	"<bitset name=\"add\" extends=\"#instruction\">\n"
	"  <display>add {A}, {B}, {C}</display>\n"
	"  <pattern low=\"28\" high=\"31\">0001</pattern>\n"
	"  <pattern low=\"24\" high=\"27\">xxxx</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"11\" type=\"uint\"/>\n"
	"  <field name=\"B\" low=\"12\" high=\"21\" type=\"uint\"/>\n"
	"  <field name=\"C\" low=\"22\" high=\"23\" type=\"#cond\"/>\n"
	"</bitset>\n"
	"<bitset name=\"mov\" extends=\"#instruction\">\n"
	"  <display>mov {A}</display>\n"
	"  <pattern low=\"28\" high=\"31\">0010</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	"  <assert low=\"16\" high=\"19\">0000</assert>\n"
	"</bitset>\n"
	"</isa>\n";

static char tmp[] = "/tmp/isacheck-triage-XXXXXX";
static char synth_path[300];

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* --------------------------------------------------------- synthetic */

typedef struct plant {
	const char *what;
	uint32_t count;
	uint32_t (*make)(void);
} plant;

static uint32_t clean_add(void)
{
	return 0x10000000u | (rnd() % 3) << 22 | (rnd() & 0x3ffu) << 12 | (rnd() & 0xfffu);
}
static uint32_t clean_mov(void) { return 0x20000000u | (rnd() & 0xffffu); }
static uint32_t add_x_24_26(void) { return clean_add() | 5u << 24; }
static uint32_t add_x_27(void) { return clean_add() | 8u << 24; }
static uint32_t add_enum3(void) { return (clean_add() & ~(3u << 22)) | 3u << 22; }
static uint32_t mov_reserved21(void) { return clean_mov() | 1u << 21; }
static uint32_t mov_assert18(void) { return clean_mov() | 1u << 18; }
static uint32_t nomatch_0011(void) { return 0x30000000u | (rnd() & 0x0fffffffu); }
static uint32_t nomatch_1110(void) { return 0xe0000000u | (rnd() & 0x0fffffffu); }

static const plant plants[] = {
	{"clean add", 1000, clean_add},
	{"clean mov", 500, clean_mov},
	{"add x 24,26", 37, add_x_24_26},
	{"add x 27", 23, add_x_27},
	{"add C=3", 11, add_enum3},
	{"mov reserved 21", 19, mov_reserved21},
	{"mov assert 18", 7, mov_assert18},
	{"no match 0011", 13, nomatch_0011},
	{"no match 1110", 5, nomatch_1110},
};

typedef testlib_codec loaded;

static loaded load(const char *path)
{
	return testlib_load_codec(path);
}

static void unload(loaded *l)
{
	testlib_unload_codec(l);
}

static const triage_cluster *find_cluster(const triage *t, const char *leaf, unsigned kinds,
                                          uint64_t mask)
{
	for (size_t i = 0; i < triage_cluster_count(t); i++) {
		const triage_cluster *c = triage_cluster_at(t, i);
		if (c->kinds == kinds && c->mask[0] == mask &&
		    (leaf ? c->leaf && !strcmp(c->leaf->name, leaf) : !c->leaf))
			return c;
	}
	return NULL;
}

static const triage_leaf *find_leaf(const triage *t, const char *name)
{
	for (size_t i = 0; i < triage_leaf_count(t); i++)
		if (!strcmp(triage_leaf_at(t, i)->leaf->name, name))
			return triage_leaf_at(t, i);
	return NULL;
}

TEST(synthetic_planted)
{
	loaded l = load(synth_path);
	if (!l.c)
		return;
	/* every word, shuffled, with its plant */
	size_t total = 0;
	for (size_t p = 0; p < N(plants); p++)
		total += plants[p].count;
	uint32_t *w = malloc(total * sizeof *w);
	CHECK(w != NULL);
	if (!w) {
		unload(&l);
		return;
	}
	size_t k = 0;
	for (size_t p = 0; p < N(plants); p++)
		for (uint32_t i = 0; i < plants[p].count; i++)
			w[k++] = plants[p].make();
	for (size_t i = total; i-- > 1;) {
		size_t j = rnd() % (i + 1);
		uint32_t x = w[i];
		w[i] = w[j];
		w[j] = x;
	}
	triage *t = triage_new(l.c, &(triage_options){.nearest_max = 4, .examples = 2});
	CHECK(t != NULL);
	int src = triage_add_source(t, "synthetic");
	CHECK_INT(src, 0);
	for (size_t i = 0; t && i < total; i++) {
		uint64_t word = w[i];
		CHECK(triage_add(t, NULL, &word, 0,
		                 &(triage_origin){.source = src, .pos = 4 * i}));
	}
	if (!t) {
		free(w);
		unload(&l);
		return;
	}
	triage_finish(t);
	triage_summary s = triage_get_summary(t);
	CHECK_INT(s.instructions, total);
	CHECK_INT(s.explained, 1500);
	CHECK_INT(s.unexplained, total - 1500);
	CHECK_INT(s.by_kind[TRIAGE_DONTCARE], 60);
	CHECK_INT(s.by_kind[TRIAGE_RESERVED], 19);
	CHECK_INT(s.by_kind[TRIAGE_ASSERT], 7);
	CHECK_INT(s.by_kind[TRIAGE_ENUM], 11);
	CHECK_INT(s.by_kind[TRIAGE_NO_MATCH], 18);
	CHECK_INT(s.by_kind[TRIAGE_AMBIGUOUS], 0);
	/* exactly one cluster per plant */
	CHECK_INT(triage_cluster_count(t), 7);

	const triage_cluster *c = find_cluster(t, "add", 1u << TRIAGE_DONTCARE, 5ull << 24);
	CHECK(c && c->count == 37);
	c = find_cluster(t, "add", 1u << TRIAGE_DONTCARE, 8ull << 24);
	CHECK(c && c->count == 23);
	c = find_cluster(t, "add", 1u << TRIAGE_ENUM, 3ull << 22);
	CHECK(c && c->count == 11);
	if (c) {
		CHECK_INT(c->ndetails, 1);
		CHECK(c->ndetails && c->details[0].kind == TRIAGE_ENUM && c->details[0].value == 3 &&
		      !strcmp(c->details[0].field->name, "C"));
		CHECK_INT(c->nexamples, 2);
		/* the examples are the words themselves, at their offsets */
		for (size_t i = 0; i < c->nexamples; i++)
			CHECK_INT(c->examples[i].w[0], w[c->examples[i].origin.pos / 4]);
		/* every instruction of the cluster has C = 3: bits 22, 23 set in all */
		CHECK_INT(c->ones[22], 11);
		CHECK_INT(c->ones[23], 11);
		CHECK_INT(c->ones[28], 11);
		CHECK_INT(c->ones[29], 0);
	}
	c = find_cluster(t, "mov", 1u << TRIAGE_RESERVED, 1ull << 21);
	CHECK(c && c->count == 19);
	c = find_cluster(t, "mov", 1u << TRIAGE_ASSERT, 1ull << 18);
	CHECK(c && c->count == 7);

	/* 0011....: one bit from add (bit 29) and from mov (bit 28) */
	c = find_cluster(t, NULL, 1u << TRIAGE_NO_MATCH, 0);
	CHECK(c != NULL);
	size_t nm = 0;
	for (size_t i = 0; i < triage_cluster_count(t); i++) {
		c = triage_cluster_at(t, i);
		if (c->leaf)
			continue;
		nm++;
		if (c->count == 13) {
			CHECK_INT(c->nnearest, 2);
			CHECK_INT(c->nearest_ties, 2);
			CHECK(c->nnearest == 2 && !strcmp(c->nearest[0].leaf->name, "add") &&
			      c->nearest[0].distance == 1 && c->nearest[0].diff[0] == 1ull << 29 &&
			      !strcmp(c->nearest[1].leaf->name, "mov") &&
			      c->nearest[1].diff[0] == 1ull << 28);
		} else {
			/* 1110....: mov (0010) is 2 bits away (30, 31), add (0001) 4 */
			CHECK_INT(c->count, 5);
			CHECK_INT(c->nnearest, 1);
			CHECK(c->nnearest == 1 && !strcmp(c->nearest[0].leaf->name, "mov") &&
			      c->nearest[0].distance == 2 &&
			      c->nearest[0].diff[0] == (1ull << 30 | 1ull << 31));
		}
	}
	CHECK_INT(nm, 2);
	/* most instructions first */
	CHECK_INT(triage_cluster_at(t, 0)->count, 37);
	CHECK_INT(triage_cluster_at(t, 0)->id, 1);
	CHECK_INT(triage_cluster_at(t, 6)->count, 5);

	/* per-leaf histograms and enum values */
	const triage_leaf *la = find_leaf(t, "add"), *lm = find_leaf(t, "mov");
	CHECK(la && lm);
	if (la && lm) {
		CHECK_INT(la->count, 1000 + 37 + 23 + 11);
		CHECK_INT(la->unexplained, 37 + 23 + 11);
		CHECK_INT(la->ones[24], 37);
		CHECK_INT(la->ones[25], 0);
		CHECK_INT(la->ones[26], 37);
		CHECK_INT(la->ones[27], 23);
		CHECK_INT(la->ones[28], 1071);
		CHECK_INT(la->reserved[0], 0);
		CHECK_INT(la->nenums, 1);
		CHECK(la->nenums == 1 && la->enums[0].value == 3 && la->enums[0].count == 11);
		CHECK_INT(lm->count, 500 + 19 + 7);
		CHECK_INT(lm->reserved[0], 0xffull << 20);
		CHECK_INT(lm->ones[21], 19);
		CHECK_INT(lm->ones[18], 7);
		CHECK_INT(lm->ones[20], 0);
		CHECK_INT(lm->nenums, 0);
	}
	CHECK_INT(triage_leaf_count(t), 2);
	triage_free(t);
	free(w);
	unload(&l);
}

TEST(nearest_and_reserved)
{
	loaded l = load(synth_path);
	if (!l.c)
		return;
	const spec_root *root = codec_default_root(l.c);
	const spec_bitset *near[4];
	unsigned dist[4];
	uint64_t diffs[4];
	uint64_t w = 0xf0000000u;
	/* 1111 vs add 0001: 3 bits; vs mov 0010: 3 bits */
	CHECK_INT(triage_nearest(root, &w, 0, near, dist, diffs, 4), 2);
	CHECK_INT(dist[0], 3);
	CHECK_INT(diffs[0], 0xe0000000u);
	CHECK_INT(diffs[1], 0xd0000000u);
	/* max 1: the first in document order, and the count of ties */
	CHECK_INT(triage_nearest(root, &w, 0, near, dist, diffs, 1), 2);
	CHECK_STR(near[0]->name, "add");
	uint64_t res = 1;
	triage_reserved_bits(spec_find_bitset(l.m, "mov"), &res, 1);
	CHECK_INT(res, 0x0ff00000u);
	triage_reserved_bits(spec_find_bitset(l.m, "add"), &res, 1);
	CHECK_INT(res, 0);
	unload(&l);
}

/* ------------------------------------------------------ Mesa vectors */

typedef struct row_result {
	size_t line;
	unsigned kinds;
	bool unexplained;
} row_result;

/* Triages every row of a vector file, one at a time, so each row's
 * outcome can be read from the summary's change.  is_flagged says
 * whether Mesa's own text says the row is unexplained. */
static void vectors(const char *xml, const char *tsv, int gen_col, bool family_gen,
                    unsigned words_per_row, bool (*is_flagged)(char **cols, size_t nc),
                    unsigned expect_kind, size_t expect_rows, size_t *flagged_out,
                    triage **tout, loaded *lout)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", xml);
	loaded l = load(path);
	*lout = l;
	*tout = NULL;
	if (!l.c)
		return;
	testlib_shared_path(path, sizeof path, "mesa/vectors/%s", tsv);
	testlib_tsv in;
	bool opened = testlib_tsv_open(&in, path);
	CHECK(opened);
	if (!opened)
		return;
	triage *t = triage_new(l.c, &(triage_options){.examples = 100});
	*tout = t;
	int src = triage_add_source(t, tsv);
	size_t rows = 0, flagged = 0, found = 0, wrong = 0, nc;
	char *cols[16];
	while ((nc = testlib_tsv_next(&in, cols, 16))) {
		size_t lineno = in.line;
		if (nc < 3)
			continue;
		uint64_t w[2] = {0};
		uint32_t w32[4] = {0};
		testlib_parse_words(cols[1], w32, words_per_row);
		for (unsigned k = 0; k < words_per_row; k++)
			w[k / 2] |= (uint64_t)w32[k] << (32 * (k % 2));
		uint32_t gen = 0;
		if (family_gen)
			gen = (uint32_t)(cols[0][1] - '0');
		else if (gen_col >= 0)
			gen = (uint32_t)strtoul(cols[gen_col], NULL, 10);
		triage_summary before = triage_get_summary(t);
		CHECK(triage_add(t, NULL, w, gen, &(triage_origin){src, true, lineno}));
		triage_summary after = triage_get_summary(t);
		bool unexplained = after.unexplained > before.unexplained;
		bool has_kind = after.by_kind[expect_kind] > before.by_kind[expect_kind];
		bool flag = is_flagged(cols, nc);
		rows++;
		flagged += flag;
		found += flag && has_kind;
		/* unexplained without Mesa saying so: only an enum value Mesa
		 * never checks may be */
		bool only_enum = true;
		for (unsigned k = 0; k < TRIAGE_SPEC_ERROR; k++)
			if (k != TRIAGE_ENUM && after.by_kind[k] > before.by_kind[k])
				only_enum = false;
		if ((flag && !has_kind) || (!flag && unexplained && !only_enum)) {
			wrong++;
			fprintf(stderr, "%s:%zu: flagged by Mesa %d, unexplained %d\n", tsv, lineno, flag,
			        unexplained);
		}
	}
	testlib_tsv_close(&in);
	triage_finish(t);
	CHECK_INT(rows, expect_rows);
	CHECK_INT(found, flagged);
	CHECK_INT(wrong, 0);
	*flagged_out = flagged;
	printf("%s: %zu rows, %zu flagged by Mesa's text, all found; %zu unexplained in %zu clusters\n",
	       tsv, rows, flagged, triage_get_summary(t).unexplained, triage_cluster_count(t));
}

static bool ir3_raw(char **cols, size_t nc)
{
	return nc > 2 && !strncmp(cols[2], "raw 0x", 6);
}

static bool etna_dontcare(char **cols, size_t nc)
{
	return nc > 2 && strstr(cols[2], "dontcare bits in") != NULL;
}

static bool afuc_no_match(char **cols, size_t nc)
{
	return nc > 6 && strstr(cols[6], "no_match") != NULL;
}

TEST(mesa_vectors)
{
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/vectors/ir3.tsv");
	if (!testlib_have_shared(probe))
		return;
	triage *t;
	loaded l;
	size_t flagged;

	vectors("freedreno/isa/ir3.xml", "ir3.tsv", 3, false, 2, ir3_raw, TRIAGE_NO_MATCH, 322,
	        &flagged, &t, &l);
	CHECK_INT(flagged, 1);
	if (t) {
		/* ffffffff_ffffffff: the nearest leaves are 2 bits away */
		const triage_cluster *c = triage_cluster_at(t, 0);
		CHECK(c && !c->leaf && c->nnearest > 0 && c->nearest[0].distance == 2);
	}
	triage_free(t);
	unload(&l);

	vectors("etnaviv/isa/etnaviv.xml", "etnaviv.tsv", -1, false, 4, etna_dontcare,
	        TRIAGE_DONTCARE, 156, &flagged, &t, &l);
	CHECK_INT(flagged, 3);
	/* each don't-care cluster's mask is the one Mesa prints */
	if (t) {
		size_t dc = 0;
		for (size_t i = 0; i < triage_cluster_count(t); i++) {
			const triage_cluster *c = triage_cluster_at(t, i);
			if (!(c->kinds & 1u << TRIAGE_DONTCARE))
				continue;
			dc++;
			char want[64];
			uint64_t ln = c->examples[0].origin.pos;
			snprintf(want, sizeof want, "%016llx%016llx", (unsigned long long)c->mask[1],
			         (unsigned long long)c->mask[0]);
			printf("  etnaviv.tsv:%llu %s: mask %s\n", (unsigned long long)ln,
			       c->leaf->name, want);
			CHECK(ln == 45 || ln == 146 || ln == 153);
			CHECK(strcmp(want, ln == 45 ? "00000000000000000000000400000000"
			                 : ln == 146 ? "00000000000000000000000000020000"
			                             : "00000000000000000000000000061000") == 0);
		}
		CHECK_INT(dc, 3);
	}
	triage_free(t);
	unload(&l);

	vectors("freedreno/afuc/afuc.xml", "afuc.tsv", -1, true, 1, afuc_no_match,
	        TRIAGE_NO_MATCH, 346, &flagged, &t, &l);
	CHECK_INT(flagged, 9);
	triage_free(t);
	unload(&l);
}

/* ------------------------------------------------------------ the CLI */

static void write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		CHECK_INT(fwrite(data, 1, n, f), n);
		CHECK(fclose(f) == 0);
	}
}

TEST(cli_inputs_and_exit_codes)
{
	char out[65536], cmd[2048], p1[500], p2[500], d[400];
	/* a directory of two shaders: one clean, one with planted bits */
	snprintf(d, sizeof d, "%s/blobs", tmp);
	CHECK(mkdir(d, 0700) == 0);
	uint32_t clean[64], dirty[64];
	for (int i = 0; i < 64; i++) {
		clean[i] = i % 2 ? clean_add() : clean_mov();
		dirty[i] = i % 8 == 3 ? add_x_27() : clean_add();
	}
	snprintf(p1, sizeof p1, "%s/a.bin", d);
	snprintf(p2, sizeof p2, "%s/b", d);
	write_bytes(p1, clean, sizeof clean);
	snprintf(cmd, sizeof cmd, "%s triage %s %s", ISACHECK_BINARY, synth_path, p1);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "triage: 64 instructions from 1 input") != NULL);
	CHECK(strstr(out, "unexplained  0 (0.0%) in 0 clusters") != NULL);
	write_bytes(p2, dirty, sizeof dirty);
	snprintf(cmd, sizeof cmd, "%s triage %s %s", ISACHECK_BINARY, synth_path, d);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "triage: 128 instructions from 2 inputs") != NULL);
	CHECK(strstr(out, "#1  8 instructions  dontcare in 'add': bit 27 (gen 0)") != NULL);
	/* the first example: b (sorted after a.bin) at byte 12 */
	char e[600];
	snprintf(e, sizeof e, "e.g. %s+0xc  %08x", p2, dirty[3]);
	CHECK(strstr(out, e) != NULL);
	CHECK(strstr(out, "add (96 instructions): 27x 8 (8.3%)") != NULL);

	/* JSON, also to a file */
	char jpath[400];
	snprintf(jpath, sizeof jpath, "%s/out.json", tmp);
	snprintf(cmd, sizeof cmd, "%s triage --format=json --json=%s %s %s", ISACHECK_BINARY,
	         jpath, synth_path, d);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"summary\":{\"instructions\":128,\"explained\":120,\"unexplained\":8,"
	                  "\"clusters\":1,") != NULL);
	CHECK(strstr(out, "\"kinds\":[\"dontcare\"],\"leaf\":\"add\",\"mask\":\"08000000\","
	                  "\"bits\":[27]") != NULL);
	char *json = testlib_read_file(jpath);
	CHECK(json != NULL);
	if (json)
		CHECK_STR(json, out);
	free(json);

	/* hex text: whole dumps across lines, addresses, comments, and
	 * whole instructions; a TSV with a hex column */
	char hx[400], tsv[400];
	snprintf(hx, sizeof hx, "%s/dump.txt", tmp);
	char text[600];
	snprintf(text, sizeof text,
	         "# a dump\n0000: %08x %08x\n0008: %08x ; x bit 27 set\n0x%x\n",
	         clean[0], clean[1], dirty[3], dirty[3]);
	testlib_write_file(hx, text);
	snprintf(cmd, sizeof cmd, "%s triage %s %s", ISACHECK_BINARY, synth_path, hx);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "triage: 4 instructions from 1 input") != NULL);
	snprintf(e, sizeof e, "e.g. %s:3  %08x", hx, dirty[3]);
	CHECK(strstr(out, e) != NULL);
	snprintf(e, sizeof e, "e.g. %s:4  %08x", hx, dirty[3]);
	CHECK(strstr(out, e) != NULL);
	snprintf(tsv, sizeof tsv, "%s/v.tsv", tmp);
	snprintf(text, sizeof text, "name\thex_words\tx\nfirst\t%08x\t-\nsecond\t%08x %08x\t-\n",
	         clean[0], nomatch_0011(), clean[1]);
	testlib_write_file(tsv, text);
	snprintf(cmd, sizeof cmd, "%s triage %s %s", ISACHECK_BINARY, synth_path, tsv);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "triage: 3 instructions from 1 input") != NULL);
	CHECK(strstr(out, "no-match (gen 0)\n    nearest 'add'") != NULL);
	snprintf(e, sizeof e, "e.g. %s:3  3", tsv);
	CHECK(strstr(out, e) != NULL);
}

TEST(cli_errors)
{
	char out[4096], cmd[2048], p[400], want[800];
	/* truncated binary: 6 bytes of 4-byte instructions */
	snprintf(p, sizeof p, "%s/short.bin", tmp);
	write_bytes(p, "\x01\x02\x03\x04\x05\x06", 6);
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1 >/dev/null", ISACHECK_BINARY, synth_path,
	         p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want,
	         "%s: error: 6 bytes is not a whole number of 4-byte instructions\n", p);
	CHECK_STR(out, want);
	/* odd-length hex: a 7-digit word */
	snprintf(p, sizeof p, "%s/odd.hex", tmp);
	testlib_write_file(p, "10000000\n2000001 10000000\n");
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1 >/dev/null", ISACHECK_BINARY, synth_path,
	         p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want, "%s:2: error: '2000001' has 7 hex digits: a 32-bit word is "
	         "written with 8 (or as 0x2000001)\n", p);
	CHECK_STR(out, want);
	/* garbage */
	testlib_write_file(p, "10000000\n\n1000000g\n");
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want, "%s:3: error: '1000000g' is not hexadecimal (bad character "
	         "'g')\n", p);
	CHECK_STR(out, want);
	/* a TSV without a hex column, and a short row */
	snprintf(p, sizeof p, "%s/bad.tsv", tmp);
	testlib_write_file(p, "a\tb\n1\t2\n");
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1 >/dev/null", ISACHECK_BINARY, synth_path,
	         p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want, "%s:1: error: no hex column in the header (hex_words or hex)\n",
	         p);
	CHECK_STR(out, want);
	testlib_write_file(p, "hex\tb\n10000000\t2\n\t3\n");
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want, "%s:3: error: 0 words are not a whole number of 1-word "
	         "instructions\n", p);
	CHECK_STR(out, want);
	/* missing input, bad usage */
	snprintf(cmd, sizeof cmd, "%s triage %s %s/none 2>&1 >/dev/null", ISACHECK_BINARY,
	         synth_path, tmp);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "/none: error: cannot read: No such file or directory") != NULL);
	snprintf(cmd, sizeof cmd, "%s triage %s 2>/dev/null", ISACHECK_BINARY, synth_path);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s triage --top=x %s %s 2>/dev/null", ISACHECK_BINARY,
	         synth_path, p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);

	/* the message of the issue, on a 128-bit ISA */
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/etnaviv/isa/etnaviv.xml");
	if (!testlib_have_shared(probe))
		return;
	snprintf(p, sizeof p, "%s/trunc.bin", tmp);
	write_bytes(p, "0123456789abcdefgh", 18);
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1 >/dev/null", ISACHECK_BINARY, probe, p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want,
	         "%s: error: 18 bytes is not a whole number of 16-byte instructions\n", p);
	CHECK_STR(out, want);
	/* an ir3 hex dump that ends inside an instruction */
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	snprintf(p, sizeof p, "%s/cut.hex", tmp);
	testlib_write_file(p, "00000000 00000000\n00000000\n");
	snprintf(cmd, sizeof cmd, "%s triage --gen=600 %s %s 2>&1 >/dev/null", ISACHECK_BINARY,
	         probe, p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want, "%s:2: error: the last instruction is cut short: 1 of its 2 "
	         "32-bit words\n", p);
	CHECK_STR(out, want);
	/* ir3 has generations: without --gen a binary cannot be read */
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1 >/dev/null", ISACHECK_BINARY, probe, p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "give --gen=N") != NULL);
}

/* Whole programs (a2xx) through the spec's <program> framing: every part
 * is triaged with its own root; framing errors are findings. */
TEST(cli_programs)
{
	const char *model = ISACHECK_SOURCE_DIR "/tests/framing/a2xx-model.xml";
	char out[65536], cmd[2048], p[400], want[600];
	FILE *probe = fopen(model, "r");
	if (!probe) {
		SKIP("%s is missing", model);
		return;
	}
	fclose(probe);
	/* one CF pair (EXEC of one ALU at slot 2, then an END), then the ALU */
	snprintf(p, sizeof p, "%s/prog.hex", tmp);
	testlib_write_file(p, "00133001 10041000 20000000\n00000000 00000000 00000000\n"
	                      "00000000 00000000 00000000\n");
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1", ISACHECK_BINARY, model, p);
	int rc = testlib_run(cmd, out, sizeof out);
	CHECK(strstr(out, "whole programs framed by <program name=\"a2xx\">") != NULL);
	CHECK(strstr(out, "triage: 0 instructions") == NULL);
	CHECK(rc == 0 || rc == 1);
	/* --no-program reads the same words as instructions of one root */
	snprintf(cmd, sizeof cmd, "%s triage --no-program --root=#alu %s %s 2>&1", ISACHECK_BINARY,
	         model, p);
	testlib_run(cmd, out, sizeof out);
	CHECK(strstr(out, "triage: 3 instructions from 1 input, read as '#alu'") != NULL);
	/* a program cut short: a framing error, exit 1 */
	testlib_write_file(p, "00133001 10041000\n");
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1", ISACHECK_BINARY, model, p);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	/* on the line where the program ends */
	snprintf(want, sizeof want, "%s:1: word ", p);
	CHECK(strstr(out, want) != NULL);
	CHECK(strstr(out, "framing error") != NULL && strstr(out, "[truncated]") != NULL);
	CHECK(strstr(out, "framing errors 1") != NULL);

	/* the blob's whole a2xx programs: every one frames */
	char tsv[1024];
	testlib_shared_path(tsv, sizeof tsv, "blob/a2xx.tsv");
	if (!testlib_have_shared(tsv))
		return;
	testlib_tsv in;
	bool opened = testlib_tsv_open(&in, tsv);
	snprintf(p, sizeof p, "%s/progs.tsv", tmp);
	FILE *o = fopen(p, "w");
	CHECK(opened && o);
	size_t progs = 0, nc;
	char *cols[4];
	if (opened && o)
		fputs("source\thex\n", o);
	while (o && (nc = testlib_tsv_next(&in, cols, 4))) {
		if (nc >= 2 && strstr(cols[0], "kind=whole_program")) {
			fprintf(o, "x\t%s\n", cols[1]);
			progs++;
		}
	}
	testlib_tsv_close(&in);
	if (o)
		fclose(o);
	CHECK(progs >= 5);
	snprintf(cmd, sizeof cmd, "%s triage %s %s 2>&1", ISACHECK_BINARY, model, p);
	rc = testlib_run(cmd, out, sizeof out);
	CHECK(strstr(out, "framing errors 0\n") != NULL);
	printf("a2xx whole programs: %zu, exit %d\n%.*s", progs, rc, 300, out);
}

/* ------------------------------------------------ nearest leaves */

static uint64_t rnd64(void)
{
	return (uint64_t)rnd() << 32 | rnd();
}

/* Words near leaves (a leaf's pattern, its other bits random, one to four
 * bits flipped) and random words, at several generations in turn: every
 * cluster of words no leaf matches has the nearest leaves, distances,
 * diffs and ties the plain scan (triage_nearest) gives its example. */
static void nearest_agrees(const char *path, const uint32_t *gens, size_t ngens)
{
	loaded l = load(path);
	if (!l.c)
		return;
	const spec_root *root = codec_default_root(l.c);
	unsigned size = root->bitset->size, nw = (size + 63) / 64;
	triage *t = triage_new(l.c, &(triage_options){.nearest_max = 4, .examples = 1});
	CHECK(t != NULL && nw <= 2);
	for (size_t i = 0; t && nw <= 2 && i < 6000; i++) {
		uint64_t w[2] = {rnd64(), rnd64()};
		if (i % 3) {
			const spec_bitset *b = root->leaves[rnd() % root->nleaves];
			for (unsigned k = 0; k < nw && k < b->mask.nwords; k++) {
				uint64_t f = b->mask.w[k] & ~(k < b->dontcare.nwords ? b->dontcare.w[k] : 0);
				w[k] = (b->match.w[k] & f) | (w[k] & ~f);
			}
			for (unsigned f = 0; f <= i % 4; f++) {
				unsigned bit = rnd() % size;
				w[bit / 64] ^= (uint64_t)1 << (bit % 64);
			}
		}
		CHECK(triage_add(t, root, w, gens[i % ngens], NULL));
	}
	if (!t) {
		unload(&l);
		return;
	}
	triage_finish(t);
	size_t checked = 0, wrong = 0;
	for (size_t i = 0; i < triage_cluster_count(t); i++) {
		const triage_cluster *c = triage_cluster_at(t, i);
		if (c->leaf || c->matches[0] || !(c->kinds & 1u << TRIAGE_NO_MATCH))
			continue;
		const spec_bitset *near[4];
		unsigned dist[4];
		uint64_t diffs[8];
		size_t ties = triage_nearest(root, c->examples[0].w, c->gen, near, dist, diffs, 4);
		bool same = ties == c->nearest_ties && c->nnearest == (ties < 4 ? ties : 4);
		for (size_t j = 0; same && j < c->nnearest; j++) {
			same = near[j] == c->nearest[j].leaf && dist[j] == c->nearest[j].distance;
			for (unsigned k = 0; same && k < nw; k++)
				same = diffs[j * nw + k] == c->nearest[j].diff[k];
		}
		checked++;
		wrong += !same;
	}
	printf("%s: nearest leaves of %zu no-match situations agree with the plain scan\n", path,
	       checked - wrong);
	CHECK(checked > 100);
	CHECK_INT(wrong, 0);
	triage_free(t);
	unload(&l);
}

TEST(nearest_index)
{
	/* twelve sets of leaves, one per generation: more than the index
	 * keeps trees for, asked for in turn */
	char path[400], xml[8192];
	size_t n = (size_t)snprintf(xml, sizeof xml, "<isa>\n<bitset name=\"#instruction\" "
	                            "size=\"16\"/>\n");
	for (unsigned op = 0; op < 12; op++)
		n += (size_t)snprintf(xml + n, sizeof xml - n,
		                      "<bitset name=\"op%u\" extends=\"#instruction\">\n"
		                      "  <gen min=\"%u\"/><display>op%u {A}</display>\n"
		                      "  <pattern low=\"12\" high=\"15\">%u%u%u%u</pattern>\n"
		                      "  <pattern low=\"8\" high=\"11\">%s</pattern>\n"
		                      "  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		                      "</bitset>\n", op, op, op, op >> 3 & 1, op >> 2 & 1, op >> 1 & 1,
		                      op & 1, op % 3 == 0 ? "0000" : op % 3 == 1 ? "1x1x" : "x00x");
	snprintf(xml + n, sizeof xml - n, "</isa>\n");
	snprintf(path, sizeof path, "%s/gens.xml", tmp);
	testlib_write_file(path, xml);
	uint32_t gens[12];
	for (unsigned g = 0; g < 12; g++)
		gens[g] = (g * 5) % 12;
	nearest_agrees(path, gens, 12);

	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	/* three generations of ir3, in turn */
	nearest_agrees(probe, (const uint32_t[]){600, 400, 700}, 3);
	testlib_shared_path(probe, sizeof probe, "mesa/src/etnaviv/isa/etnaviv.xml");
	nearest_agrees(probe, (const uint32_t[]){0}, 1);
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/afuc/afuc.xml");
	nearest_agrees(probe, (const uint32_t[]){5, 6, 7}, 3);
}

/* ---------------------------------------------- Midgard programs */

#define MG_BUNDLES 150

/* A program of random valid bundles from the reference generator, where
 * each bundle lies, and how many instructions the framing cuts it into
 * (every part but the embedded constants). */
typedef struct mg_program {
	uint32_t w[MG_BUNDLES * MIDGARD_MAX_WORDS];
	size_t nw;
	size_t start[MG_BUNDLES];
	size_t items[MG_BUNDLES];
	midgard_bundle b[MG_BUNDLES];
} mg_program;

static mg_program mg_clean, mg_dirty;

static void mg_build(mg_program *p, uint64_t seed)
{
	midgard_rng mr;
	midgard_rng_seed(&mr, seed);
	p->nw = 0;
	for (size_t i = 0; i < MG_BUNDLES; i++) {
		midgard_bundle *b = &p->b[i];
		midgard_random_bundle(&mr, b);
		CHECK_INT(midgard_pack(b, p->w + p->nw, N(p->w) - p->nw), MIDGARD_OK);
		p->start[i] = p->nw;
		p->nw += b->nwords;
		p->items[i] = 0;
		for (unsigned j = 0; j < b->nparts; j++)
			p->items[i] += b->parts[j].kind != MIDGARD_PART_CONSTANTS;
	}
}

static size_t mg_items(const mg_program *p, size_t bundles)
{
	size_t n = 0;
	for (size_t i = 0; i < bundles; i++)
		n += p->items[i];
	return n;
}

/* Writes the first nw words of p as tmp/NAME.bin (little-endian) and
 * tmp/NAME.hex (four words a line), runs `isacheck triage` on one of them
 * (hex: the text) with standard error joined to the output, and returns
 * its exit code; path gets the file's name (400 bytes). */
static int mg_run(const mg_program *p, size_t nw, const char *name, int hex, char *path,
                  char *out, size_t outlen)
{
	char bin[400], txt[400], cmd[1200];
	snprintf(bin, sizeof bin, "%s/%s.bin", tmp, name);
	snprintf(txt, sizeof txt, "%s/%s.hex", tmp, name);
	unsigned char *bytes = malloc(nw * 4 + 1);
	FILE *f = fopen(txt, "w");
	CHECK(bytes && f);
	for (size_t i = 0; bytes && f && i < nw; i++) {
		for (unsigned k = 0; k < 4; k++)
			bytes[4 * i + k] = (unsigned char)(p->w[i] >> (8 * k));
		fprintf(f, "%08x%s", (unsigned)p->w[i], i % 4 == 3 || i + 1 == nw ? "\n" : " ");
	}
	if (bytes)
		write_bytes(bin, bytes, nw * 4);
	if (f)
		CHECK(fclose(f) == 0);
	free(bytes);
	snprintf(path, 400, "%s", hex ? txt : bin);
	snprintf(cmd, sizeof cmd, "%s triage %s/isa/midgard.xml %s 2>&1", ISACHECK_BINARY,
	         ISACHECK_SOURCE_DIR, path);
	return testlib_run(cmd, out, outlen);
}

static void mg_set(mg_program *p, size_t bit)
{
	p->w[bit / 32] |= 1u << (bit % 32);
}

/* What was planted, to be found exactly: per ALU tag, control words with
 * don't-care bit 9 set; per scalar opcode, units with don't-care bit 25
 * set; per vector opcode, units whose SHRINK (bits 36-37) is 3, a value
 * the #shrink enum does not name. */
typedef struct mg_plants {
	size_t control[16], scalar[256], vector[256];
	size_t total, situations;
} mg_plants;

static void mg_plant(mg_program *p, mg_plants *pl)
{
	memset(pl, 0, sizeof *pl);
	for (size_t i = 0; i < MG_BUNDLES; i++) {
		const midgard_bundle *b = &p->b[i];
		size_t at = p->start[i] * 32;
		if (b->kind != MIDGARD_KIND_ALU)
			continue;
		if (i % 4 == 1) {
			mg_set(p, at + 9);
			pl->situations += !pl->control[b->tag]++;
			pl->total++;
		}
		for (unsigned j = 0; j < b->nparts; j++) {
			const midgard_part *part = &b->parts[j];
			if (part->kind == MIDGARD_PART_SCALAR_ALU && i % 3 == 0) {
				mg_set(p, at + part->offset + 25);
				pl->situations += !pl->scalar[b->u.alu.unit[part->unit].sca.op]++;
				pl->total++;
			} else if (part->kind == MIDGARD_PART_VECTOR_ALU && i % 5 == 2) {
				mg_set(p, at + part->offset + 36);
				mg_set(p, at + part->offset + 37);
				pl->situations += !pl->vector[b->u.alu.unit[part->unit].vec.op]++;
				pl->total++;
			}
		}
	}
}

/* Walks the program as `isacheck triage` does and triages every part. */
static triage *mg_triage(const loaded *l, const mg_program *p, size_t *frame_errors)
{
	triage *t = triage_new(l->c, &(triage_options){.examples = 2});
	codec_program *pr = codec_program_walk(l->c, NULL, p->w, p->nw, &(codec_disasm_options){0});
	CHECK(t && pr);
	for (size_t i = 0; t && pr && i < pr->nitems; i++) {
		const codec_item *it = &pr->items[i];
		triage_origin o = {.pos = it->bit / 8};
		if (it->kind == CODEC_ITEM_DATA && it->step->unexplained) {
			CHECK(triage_add_data(t, it->step, it->w, it->bits, &o));
			continue;
		}
		if (it->kind != CODEC_ITEM_PART)
			continue;
		uint64_t w[2] = {0, 0};
		memcpy(w, it->w, ((it->bits + 63) / 64) * sizeof *w);
		CHECK(triage_add(t, it->root, w, 0, &o));
	}
	*frame_errors = pr ? pr->nerrors : 1;
	codec_program_free(pr);
	if (t)
		triage_finish(t);
	return t;
}

/* The opcode of a unit's leaf: its pattern bits 0-7. */
static unsigned mg_op(const spec_bitset *leaf)
{
	return (unsigned)(leaf->match.w[0] & 0xff);
}

TEST(midgard_programs)
{
	loaded l = load(ISACHECK_SOURCE_DIR "/isa/midgard.xml");
	if (!l.c)
		return;
	const spec_root *scalar = spec_find_root(l.m, "#scalar-alu");
	const spec_root *vector = spec_find_root(l.m, "#vector-alu");
	CHECK(scalar && vector);
	mg_build(&mg_clean, 9);
	mg_dirty = mg_clean;
	mg_plants pl;
	mg_plant(&mg_dirty, &pl);
	/* every kind of plant is there, in several situations */
	CHECK(pl.total > 40 && pl.situations > 10);

	/* clean: every part explained */
	size_t fe;
	triage *t = mg_triage(&l, &mg_clean, &fe);
	CHECK_INT(fe, 0);
	if (t) {
		triage_summary s = triage_get_summary(t);
		CHECK_INT(s.instructions, mg_items(&mg_clean, MG_BUNDLES));
		CHECK_INT(s.unexplained, 0);
		CHECK_INT(triage_cluster_count(t), 0);
	}
	triage_free(t);

	/* planted: each plant in its own cluster, exact counts and masks */
	static const char *const alu_leaf[16] = {
		[8] = "alu4", [9] = "alu8", [10] = "alu12", [11] = "alu16", [12] = "alu4-writeout",
		[13] = "alu8-writeout", [14] = "alu12-writeout", [15] = "alu16-writeout",
	};
	t = mg_triage(&l, &mg_dirty, &fe);
	CHECK_INT(fe, 0);
	size_t found = 0;
	for (size_t i = 0; t && i < triage_cluster_count(t); i++) {
		const triage_cluster *c = triage_cluster_at(t, i);
		CHECK(c->leaf != NULL);
		if (!c->leaf)
			continue;
		size_t want = 0;
		if (c->root == scalar) {
			want = pl.scalar[mg_op(c->leaf)];
			CHECK_INT(c->kinds, 1u << TRIAGE_DONTCARE);
			CHECK_INT(c->mask[0], 1ull << 25);
		} else if (c->root == vector) {
			want = pl.vector[mg_op(c->leaf)];
			CHECK_INT(c->kinds, 1u << TRIAGE_ENUM);
			CHECK_INT(c->mask[0], 3ull << 36);
			CHECK(c->ndetails == 1 && c->details[0].kind == TRIAGE_ENUM &&
			      c->details[0].value == 3 && !strcmp(c->details[0].field->name, "SHRINK"));
		} else {
			unsigned tag = (unsigned)(c->leaf->match.w[0] & 0xf);
			CHECK_STR(c->leaf->name, alu_leaf[tag] ? alu_leaf[tag] : "?");
			want = pl.control[tag];
			CHECK_INT(c->kinds, 1u << TRIAGE_DONTCARE);
			CHECK_INT(c->mask[0], 1ull << 9);
		}
		CHECK_INT(c->count, want);
		found += c->count;
	}
	if (t) {
		triage_summary s = triage_get_summary(t);
		CHECK_INT(s.instructions, mg_items(&mg_dirty, MG_BUNDLES));
		CHECK_INT(s.unexplained, pl.total);
		CHECK_INT(found, pl.total);
		CHECK_INT(triage_cluster_count(t), pl.situations);
		/* the leaves' histograms say the same per bit, and the enum
		 * value is listed per vector leaf */
		size_t ctl9 = 0, shrink3 = 0;
		for (size_t i = 0; i < triage_leaf_count(t); i++) {
			const triage_leaf *lf = triage_leaf_at(t, i);
			if (spec_find_root(l.m, "#alu-control")->bitset == lf->leaf->parent)
				ctl9 += lf->ones[9];
			for (size_t e = 0; e < lf->nenums; e++)
				shrink3 += lf->enums[e].value == 3 ? lf->enums[e].count : 0;
		}
		size_t want_ctl = 0, want_vec = 0;
		for (size_t k = 0; k < 256; k++)
			want_vec += pl.vector[k];
		for (size_t k = 0; k < 16; k++)
			want_ctl += pl.control[k];
		CHECK_INT(ctl9, want_ctl);
		CHECK_INT(shrink3, want_vec);
	}
	triage_free(t);
	unload(&l);

	/* the command, on the same programs, binary and hex */
	char out[1 << 16], path[400], want[800];
	for (int k = 0; k < 2; k++) {
		CHECK_INT(mg_run(&mg_clean, mg_clean.nw, "mg-clean", k, path, out, sizeof out), 0);
		snprintf(want, sizeof want, "triage: %zu instructions from 1 input, whole programs "
		         "framed by <program name=\"midgard\">", mg_items(&mg_clean, MG_BUNDLES));
		CHECK(strstr(out, want) != NULL);
		CHECK(strstr(out, "framing errors 0\n") != NULL);
		CHECK(strstr(out, "unexplained  0 (0.0%) in 0 clusters") != NULL);

		CHECK_INT(mg_run(&mg_dirty, mg_dirty.nw, "mg-dirty", k, path, out, sizeof out), 1);
		snprintf(want, sizeof want, "unexplained  %zu (", pl.total);
		CHECK(strstr(out, want) != NULL);
		snprintf(want, sizeof want, "%%) in %zu clusters", pl.situations);
		CHECK(strstr(out, want) != NULL);

		/* truncated: the last bundle one word short; the bundles before
		 * it are triaged, the error is one line (in hex, with the line
		 * where the bundle starts), exit 1 */
		size_t last = MG_BUNDLES - 1, at = mg_clean.start[last];
		CHECK_INT(mg_run(&mg_clean, mg_clean.nw - 1, "mg-trunc", k, path, out, sizeof out), 1);
		if (k)
			snprintf(want, sizeof want, "%s:%zu: word %zu (bit %zu): framing error: ", path,
			         at / 4 + 1, at, at * 32);
		else
			snprintf(want, sizeof want, "%s: word %zu (bit %zu): framing error: ", path, at,
			         at * 32);
		CHECK(strstr(out, want) != NULL);
		CHECK(strstr(out, "[truncated]\n") != NULL);
		CHECK(strstr(out, "framing errors 1 (listed on standard error)") != NULL);
		snprintf(want, sizeof want, "triage: %zu instructions", mg_items(&mg_clean, last));
		CHECK(strstr(out, want) != NULL);
		CHECK(strstr(out, "unexplained  0 (0.0%)") != NULL);
	}
	/* a bad tag (0, then 1) at bundle 7 */
	for (unsigned tag = 0; tag < 2; tag++) {
		mg_program *p = &mg_dirty;
		*p = mg_clean;
		p->w[p->start[7]] = (p->w[p->start[7]] & ~0xfu) | tag;
		CHECK_INT(mg_run(p, p->nw, "mg-tag", 0, path, out, sizeof out), 1);
		snprintf(want, sizeof want, "%s: word %zu (bit %zu): framing error: bad tag 0x%u at the "
		         "start of bundle 7 [rejected]\n", path, p->start[7], p->start[7] * 32, tag);
		CHECK(strstr(out, want) != NULL);
		snprintf(want, sizeof want, "triage: %zu instructions", mg_items(p, 7));
		CHECK(strstr(out, want) != NULL);
	}
	/* a binary that is not whole words cannot be framed at all: exit 2 */
	char cmd[2048];
	write_bytes(path, "\x08\x00\x00\x00\x00\x00", 6);
	snprintf(cmd, sizeof cmd, "%s triage %s/isa/midgard.xml %s 2>&1", ISACHECK_BINARY,
	         ISACHECK_SOURCE_DIR, path);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(want, sizeof want, "%s: error: 6 bytes is not a whole number of 4-byte words (a "
	         "program is cut into 32-bit words)\n", path);
	CHECK_STR(out, want);
}

/* Bundles of tags 6 and 7 (Mesa's UNKNOWN_1/2), which isa/midgard.xml
 * frames as <data unexplained=...>, planted between the valid bundles of
 * mg_clean: each is found, in one data cluster per tag, with exact
 * counts, positions and bits, by the library and by the command (text,
 * JSON; binary and hex), and makes the exit code 1.  mg_clean itself,
 * which has none, stays clean (midgard_programs). */
#define MG_UNKNOWN 7

static mg_program mg_unknown;

TEST(midgard_unexplained_data)
{
	/* after these bundles of mg_clean: four of tag 6, three of tag 7 */
	static const size_t after[MG_UNKNOWN] = {10, 20, 40, 41, 90, 120, 149};
	static const unsigned tag[MG_UNKNOWN] = {6, 7, 6, 6, 7, 6, 7};
	size_t at[MG_UNKNOWN]; /* word index of each planted quadword */
	mg_build(&mg_clean, 9);
	mg_program *p = &mg_unknown;
	p->nw = 0;
	for (size_t i = 0, k = 0; i < MG_BUNDLES; i++) {
		size_t n = mg_clean.b[i].nwords;
		CHECK(p->nw + n + 4 <= N(p->w));
		memcpy(p->w + p->nw, mg_clean.w + mg_clean.start[i], n * sizeof *p->w);
		p->nw += n;
		for (; k < MG_UNKNOWN && after[k] == i; k++) {
			at[k] = p->nw;
			p->w[p->nw++] = tag[k] | (uint32_t)(k + 1) << 8;
			p->w[p->nw++] = 1u << (k + 4); /* bits 36 + k: each in one item */
			p->w[p->nw++] = 0;
			p->w[p->nw++] = 0x80000000u | 1u << k; /* bits 127 and 96 + k */
		}
	}

	loaded l = load(ISACHECK_SOURCE_DIR "/isa/midgard.xml");
	if (!l.c)
		return;
	size_t fe;
	triage *t = mg_triage(&l, p, &fe);
	CHECK_INT(fe, 0);
	if (t) {
		triage_summary s = triage_get_summary(t);
		CHECK_INT(s.instructions, mg_items(&mg_clean, MG_BUNDLES) + MG_UNKNOWN);
		CHECK_INT(s.unexplained, MG_UNKNOWN);
		CHECK_INT(s.by_kind[TRIAGE_DATA], MG_UNKNOWN);
		CHECK_INT(s.clusters, 0);
		CHECK_INT(s.data_clusters, 2);
		CHECK_INT(triage_data_cluster_count(t), 2);
		/* most items first: tag 6 (4), then tag 7 (3) */
		for (unsigned c = 0; c < 2; c++) {
			const triage_data_cluster *d = triage_data_cluster_at(t, c);
			unsigned want_tag = c ? 7 : 6;
			CHECK(d != NULL);
			if (!d)
				continue;
			CHECK_INT(d->id, c + 1);
			CHECK_INT(d->count, c ? 3 : 4);
			CHECK_INT(d->distinct, c ? 3 : 4);
			CHECK_INT(d->bits, 128);
			CHECK_STR(d->name, "unknown");
			CHECK_STR(d->reason, c ? "tag 7 (UNKNOWN_2): layout not known"
			                       : "tag 6 (UNKNOWN_1): layout not known");
			CHECK(d->step && d->step->kind == SPEC_STEP_DATA && d->step->loc.line > 0);
			/* the examples: the first three, in input order, their bits */
			CHECK_INT(d->nexamples, 2); /* mg_triage keeps 2 */
			size_t e = 0;
			for (size_t k = 0; k < MG_UNKNOWN && e < d->nexamples; k++) {
				if (tag[k] != want_tag)
					continue;
				const triage_example *x = &d->examples[e++];
				CHECK_INT(x->origin.pos, at[k] * 4);
				CHECK_INT(x->w[0], (uint64_t)p->w[at[k] + 1] << 32 | p->w[at[k]]);
				CHECK_INT(x->w[1], (uint64_t)p->w[at[k] + 3] << 32);
			}
			/* per bit: the tag's bits in every item, bit 127 too, bit 64 never */
			CHECK_INT(d->ones[0], want_tag & 1 ? d->count : 0);
			CHECK_INT(d->ones[1], d->count);
			CHECK_INT(d->ones[2], d->count);
			CHECK_INT(d->ones[3], 0);
			CHECK_INT(d->ones[127], d->count);
			CHECK_INT(d->ones[64], 0);
		}
		CHECK(triage_data_cluster_at(t, 2) == NULL);
	}
	triage_free(t);
	unload(&l);

	/* the command: binary and hex, text and JSON */
	char out[1 << 16], path[400], want[800], cmd[1200];
	for (int k = 0; k < 2; k++) {
		CHECK_INT(mg_run(p, p->nw, "mg-unknown", k, path, out, sizeof out), 1);
		snprintf(want, sizeof want, "unexplained  %d (", MG_UNKNOWN);
		CHECK(strstr(out, want) != NULL);
		CHECK(strstr(out, "%) in 2 clusters\n") != NULL);
		snprintf(want, sizeof want, "    unexplained data           %d\n", MG_UNKNOWN);
		CHECK(strstr(out, want) != NULL);
		CHECK(strstr(out, "\nunexplained data (2 of 2 clusters, most items first; ") != NULL);
		CHECK(strstr(out, "\nD1  4 items  data 'unknown' (128 bits): tag 6 (UNKNOWN_1): "
		                  "layout not known\n    framing step ") != NULL);
		CHECK(strstr(out, "\nD2  3 items  data 'unknown' (128 bits): tag 7 (UNKNOWN_2): "
		                  "layout not known\n    framing step ") != NULL);
		CHECK(strstr(out, "midgard.xml:") != NULL && strstr(out, "; 4 distinct contents\n"));
		/* bits 8-10 (k + 1), 36 + k and 96 + k vary */
		CHECK(strstr(out, "    bits set in all: 1-2, 127; in some: 8-10, 36, 38-39, 41, 96, "
		                  "98-99, 101\n") != NULL);
		CHECK(strstr(out, "    bits set in all: 0-2, 127; in some: 8-10, 37, 40, 42, 97, 100, "
		                  "102\n") != NULL);
		for (size_t j = 0; j < MG_UNKNOWN; j++) {
			char where[64];
			if (k)
				snprintf(where, sizeof where, ":%zu", at[j] / 4 + 1);
			else
				snprintf(where, sizeof where, "+0x%zx", at[j] * 4);
			snprintf(want, sizeof want, "    e.g. %s%s  %08x_00000000_%08x_%08x\n", path, where,
			         (unsigned)p->w[at[j] + 3], (unsigned)p->w[at[j] + 1],
			         (unsigned)p->w[at[j]]);
			/* three are kept per cluster: the fourth tag 6 is none */
			bool shown = j != 5;
			CHECK(!strstr(out, want) == !shown);
		}
		snprintf(cmd, sizeof cmd, "%s triage --format=json %s/isa/midgard.xml %s", ISACHECK_BINARY,
		         ISACHECK_SOURCE_DIR, path);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		snprintf(want, sizeof want, "\"unexplained\":%d,\"clusters\":0,\"data_clusters\":2,",
		         MG_UNKNOWN);
		CHECK(strstr(out, want) != NULL);
		snprintf(want, sizeof want, "\"enum\":0,\"unexplained-data\":%d,\"spec-error\":0}",
		         MG_UNKNOWN);
		CHECK(strstr(out, want) != NULL);
		CHECK(strstr(out, "\"unexplained_data\":[\n{\"id\":1,\"count\":4,\"name\":\"unknown\","
		                  "\"reason\":\"tag 6 (UNKNOWN_1): layout not known\",") != NULL);
		CHECK(strstr(out, ",\"size\":128,\"distinct\":3,\"distinct_capped\":false,") != NULL);
	}
	/* without them: clean, and nothing of the above is printed */
	CHECK_INT(mg_run(&mg_clean, mg_clean.nw, "mg-known", 0, path, out, sizeof out), 0);
	CHECK(!strstr(out, "unexplained data"));
}

/* ------------------------------------------------ several threads */

/* A 200-bit ISA (four words, the top one cut at bit 8: a batch fills by
 * its words before its items) with a bitset-typed field whose sub-leaves
 * can be ambiguous or have bits nothing accounts for, an enum, an
 * assert, and two leaves whose displays name no field (spec problems,
 * listed in the order first met). */
static const char wide_xml[] =
	"<isa>\n"
	"<enum name=\"#mode\">\n"
	"  <value val=\"0\" display=\"a\"/><value val=\"1\" display=\"b\"/>\n"
	"</enum>\n"
	"<bitset name=\"#src\" size=\"8\"/>\n"
	"<bitset name=\"reg\" extends=\"#src\">\n"
	"  <display>r{N}</display>\n"
	"  <pattern low=\"7\" high=\"7\">0</pattern>\n"
	"  <pattern low=\"6\" high=\"6\">x</pattern>\n"
	"  <field name=\"N\" low=\"0\" high=\"5\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"imm\" extends=\"#src\">\n"
	"  <display>#{N}</display>\n"
	"  <pattern low=\"6\" high=\"7\">01</pattern>\n"
	"  <field name=\"N\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"#instruction\" size=\"200\"/>\n"
	"<bitset name=\"op0\" extends=\"#instruction\">\n"
	"  <display>op0 {A}, {S}, {M}</display>\n"
	"  <pattern low=\"196\" high=\"199\">0000</pattern>\n"
	"  <pattern low=\"100\" high=\"103\">xxxx</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	"  <field name=\"S\" low=\"16\" high=\"23\" type=\"#src\"/>\n"
	"  <field name=\"M\" low=\"24\" high=\"25\" type=\"#mode\"/>\n"
	"</bitset>\n"
	"<bitset name=\"op1\" extends=\"#instruction\">\n"
	"  <display>op1 {A} {NOPE}</display>\n"
	"  <pattern low=\"196\" high=\"199\">1000</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	"  <assert low=\"150\" high=\"151\">00</assert>\n"
	"</bitset>\n"
	"<bitset name=\"op2\" extends=\"#instruction\">\n"
	"  <display>op2 {B} {ALSO}</display>\n"
	"  <pattern low=\"196\" high=\"199\">0100</pattern>\n"
	"  <field name=\"B\" low=\"0\" high=\"63\" type=\"uint\"/>\n"
	"</bitset>\n"
	"</isa>\n";

static char wide_path[300];

/* Inputs larger than a batch, so that batches follow one another (each
 * analysed while the one before is counted): 2.5 batches, and more for
 * the library, which is faster to run than the command. */
#define JOBS_BIG (TRIAGE_BATCH_ITEMS * 5 / 2)

/* One item as the command would pass it: an instruction of root, or
 * (root NULL) a data item of a framing step. */
typedef struct titem {
	const spec_root *root;
	const spec_step *step;
	unsigned bits;
	uint32_t gen;
	triage_origin o;
	uint64_t w[4];
} titem;

typedef struct titems {
	titem *v;
	size_t n, cap;
} titems;

static titem *titem_push(titems *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		titem *p = realloc(s->v, cap * sizeof *p);
		CHECK(p != NULL);
		if (!p)
			return NULL;
		s->v = p;
		s->cap = cap;
	}
	titem *it = &s->v[s->n++];
	memset(it, 0, sizeof *it);
	it->o = (triage_origin){.source = (int)(s->n % 2), .pos = s->n};
	return it;
}

/* Words of root for the tests of jobs: a third random, the rest a
 * random leaf's pattern with its other bits random and then, for half of
 * those, all bits past 64 cleared (clean words, or nearly); one to four
 * bits flipped in some.  Every word is also given again, now and then,
 * soon after (blobs repeat themselves). */
static void jobs_words(titems *s, const spec_root *root, const uint32_t *gens, size_t ngens,
                       size_t n)
{
	unsigned size = root->bitset->size, nw = (size + 63) / 64;
	for (size_t i = 0; i < n; i++) {
		titem *it = titem_push(s);
		if (!it)
			return;
		it->root = root;
		it->gen = gens[i % ngens];
		if (i % 5 == 4 && s->n > 100) {
			const titem *again = &s->v[s->n - 2 - rnd() % 90];
			if (again->root == root) {
				memcpy(it->w, again->w, sizeof it->w);
				it->gen = again->gen;
				continue;
			}
		}
		for (unsigned k = 0; k < nw; k++)
			it->w[k] = rnd64();
		if (i % 3 == 0)
			continue;
		const spec_bitset *b = root->leaves[rnd() % root->nleaves];
		for (unsigned k = 0; k < nw && k < b->mask.nwords; k++) {
			uint64_t f = b->mask.w[k] & ~(k < b->dontcare.nwords ? b->dontcare.w[k] : 0);
			if (i % 2 && k)
				it->w[k] = 0;
			it->w[k] = (b->match.w[k] & f) | (it->w[k] & ~f);
		}
		for (unsigned f = 0; f < i % 5; f++) {
			unsigned bit = rnd() % size;
			it->w[bit / 64] ^= (uint64_t)1 << (bit % 64);
		}
	}
}

/* Every part and unexplained data item of a walked program, reps times
 * (each time at other positions). */
static void jobs_program(titems *s, const loaded *l, const mg_program *p, size_t reps)
{
	codec_program *pr = codec_program_walk(l->c, NULL, p->w, p->nw, &(codec_disasm_options){0});
	CHECK(pr != NULL);
	for (size_t r = 0; pr && r < reps; r++)
		for (size_t i = 0; i < pr->nitems; i++) {
			const codec_item *ci = &pr->items[i];
			bool data = ci->kind == CODEC_ITEM_DATA && ci->step->unexplained;
			if (!data && ci->kind != CODEC_ITEM_PART)
				continue;
			titem *it = titem_push(s);
			if (!it)
				break;
			it->root = data ? NULL : ci->root;
			it->step = data ? ci->step : NULL;
			it->bits = ci->bits;
			it->o.pos = r << 20 | ci->bit / 8;
			memcpy(it->w, ci->w, ((ci->bits + 63) / 64) * sizeof *it->w);
		}
	codec_program_free(pr);
}

/* The items triaged one by one (jobs 0: triage_add, triage_add_data) or
 * through a queue of jobs threads; the results, finished. */
static triage *jobs_feed(const loaded *l, const titems *s, unsigned jobs, bool reverse)
{
	triage *t = triage_new(l->c, &(triage_options){.nearest_max = 2, .examples = 4});
	triage_queue *q = jobs && t ? triage_queue_new(t, jobs) : NULL;
	CHECK(t && (!jobs || q));
	if (!t || (jobs && !q)) {
		triage_free(t);
		return NULL;
	}
	CHECK_INT(triage_add_source(t, "even"), 0);
	CHECK_INT(triage_add_source(t, "odd"), 1);
	bool ok = true;
	for (size_t k = 0; k < s->n; k++) {
		const titem *it = &s->v[reverse ? s->n - 1 - k : k];
		if (q)
			ok &= it->root ? triage_queue_add(q, it->root, it->w, it->gen, &it->o)
			               : triage_queue_add_data(q, it->step, it->w, it->bits, &it->o);
		else
			ok &= it->root ? triage_add(t, it->root, it->w, it->gen, &it->o)
			               : triage_add_data(t, it->step, it->w, it->bits, &it->o);
	}
	if (q)
		ok &= triage_queue_flush(q);
	CHECK(ok);
	triage_queue_free(q);
	triage_finish(t);
	return t;
}

static bool same_words(const uint64_t *a, const uint64_t *b, size_t n)
{
	return (!a && !b) || (a && b && !memcmp(a, b, n * sizeof *a));
}

static bool same_examples(const triage_example *a, const triage_example *b, size_t n,
                          unsigned nw)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].origin.source != b[i].origin.source || a[i].origin.is_line != b[i].origin.is_line ||
		    a[i].origin.pos != b[i].origin.pos || !same_words(a[i].w, b[i].w, nw))
			return false;
	return true;
}

/* false, after saying so (when say is true) */
__attribute__((format(printf, 2, 3))) static bool differ(bool say, const char *fmt, ...)
{
	if (say) {
		va_list ap;
		va_start(ap, fmt);
		printf("  differ: ");
		vprintf(fmt, ap);
		printf("\n");
		va_end(ap);
	}
	return false;
}

/* Whether two triages hold the same results, everything a report can
 * show; the first difference is printed when say is true. */
static bool same_results(const triage *a, const triage *b, bool say)
{
#define DIFFER(...) differ(say, __VA_ARGS__)
	triage_summary sa = triage_get_summary(a), sb = triage_get_summary(b);
	if (memcmp(&sa, &sb, sizeof sa))
		return DIFFER("summary (%zu/%zu unexplained, %zu/%zu clusters)", sa.unexplained,
		              sb.unexplained, sa.clusters, sb.clusters);
	for (size_t i = 0; i < triage_cluster_count(a); i++) {
		const triage_cluster *x = triage_cluster_at(a, i), *y = triage_cluster_at(b, i);
		unsigned size = x->root->bitset->size;
		bool same = x->id == y->id && x->root == y->root && x->gen == y->gen &&
		            x->leaf == y->leaf && x->matches[0] == y->matches[0] &&
		            x->matches[1] == y->matches[1] && x->kinds == y->kinds &&
		            x->nwords == y->nwords && same_words(x->mask, y->mask, x->nwords) &&
		            x->nnearest == y->nnearest && x->nearest_ties == y->nearest_ties &&
		            x->ndetails == y->ndetails && x->count == y->count &&
		            same_words(x->ones, y->ones, size) && x->nexamples == y->nexamples &&
		            same_examples(x->examples, y->examples, x->nexamples, x->nwords);
		for (size_t j = 0; same && j < x->nnearest; j++)
			same = x->nearest[j].leaf == y->nearest[j].leaf &&
			       x->nearest[j].distance == y->nearest[j].distance &&
			       same_words(x->nearest[j].diff, y->nearest[j].diff, x->nwords);
		for (size_t j = 0; same && j < x->ndetails; j++) {
			const triage_detail *p = &x->details[j], *q = &y->details[j];
			same = p->kind == q->kind && p->leaf == q->leaf && p->other == q->other &&
			       p->field == q->field && p->value == q->value && !strcmp(p->text, q->text);
		}
		if (!same)
			return DIFFER("cluster #%zu", i + 1);
	}
	if (triage_leaf_count(a) != triage_leaf_count(b))
		return DIFFER("leaf count");
	for (size_t i = 0; i < triage_leaf_count(a); i++) {
		const triage_leaf *x = triage_leaf_at(a, i), *y = triage_leaf_at(b, i);
		bool same = x->leaf == y->leaf && x->count == y->count &&
		            x->unexplained == y->unexplained &&
		            same_words(x->ones, y->ones, x->leaf->size) &&
		            same_words(x->reserved, y->reserved, (x->leaf->size + 63) / 64) &&
		            x->nenums == y->nenums;
		for (size_t j = 0; same && j < x->nenums; j++)
			same = x->enums[j].owner == y->enums[j].owner &&
			       x->enums[j].field == y->enums[j].field &&
			       x->enums[j].value == y->enums[j].value &&
			       x->enums[j].count == y->enums[j].count;
		if (!same)
			return DIFFER("leaf %s", x->leaf->name);
	}
	if (triage_spec_problem_count(a) != triage_spec_problem_count(b))
		return DIFFER("spec problem count");
	for (size_t i = 0; i < triage_spec_problem_count(a); i++) {
		const triage_spec_problem *x = triage_spec_problem_at(a, i);
		const triage_spec_problem *y = triage_spec_problem_at(b, i);
		if (x->leaf != y->leaf || strcmp(x->text, y->text) || x->count != y->count)
			return DIFFER("spec problem %zu", i);
	}
	for (size_t i = 0; i < triage_data_cluster_count(a); i++) {
		const triage_data_cluster *x = triage_data_cluster_at(a, i);
		const triage_data_cluster *y = triage_data_cluster_at(b, i);
		if (x->id != y->id || x->step != y->step || x->bits != y->bits ||
		    x->count != y->count || x->distinct != y->distinct ||
		    !same_words(x->ones, y->ones, x->bits) || x->nexamples != y->nexamples ||
		    !same_examples(x->examples, y->examples, x->nexamples, (x->bits + 63) / 64))
			return DIFFER("data cluster D%zu", i + 1);
	}
	return true;
#undef DIFFER
}

/* The items one by one, then through queues of 1, 2, 3 and 8 threads:
 * the same results; in reverse order (other examples, first-seen
 * order), not: the comparison sees what the order changes. */
static void jobs_compare(const char *what, const loaded *l, const titems *s)
{
	triage *one = jobs_feed(l, s, 0, false);
	if (!one)
		return;
	triage_summary sum = triage_get_summary(one);
	printf("%s: %zu items, %zu unexplained in %zu clusters, %zu data clusters, %zu spec "
	       "problems\n", what, s->n, sum.unexplained, sum.clusters, sum.data_clusters,
	       triage_spec_problem_count(one));
	const unsigned jobs[] = {1, 2, 3, 8};
	for (size_t j = 0; j < N(jobs); j++) {
		triage *t = jobs_feed(l, s, jobs[j], false);
		CHECK(t && same_results(one, t, true));
		triage_free(t);
	}
	triage *rev = jobs_feed(l, s, 0, true);
	CHECK(rev && !same_results(one, rev, false));
	triage_free(rev);
	triage_free(one);
}

/* jobs_compare on n words of xml's default root (jobs_words). */
static void jobs_compare_words(const char *what, const char *xml, const uint32_t *gens,
                               size_t ngens, size_t n)
{
	titems s = {0};
	loaded l = load(xml);
	if (l.c) {
		jobs_words(&s, codec_default_root(l.c), gens, ngens, n);
		jobs_compare(what, &l, &s);
	}
	unload(&l);
	free(s.v);
}

/* triage_queue on every kind of item the command gives it, across
 * batches (more items than one holds; wide items that fill its words
 * first), with words repeated within and across batches: the results of
 * triage_add, whatever the number of threads. */
TEST(queue_same_as_add)
{
	titems s = {0};
	loaded l = load(synth_path);
	if (l.c) {
		jobs_words(&s, codec_default_root(l.c), (const uint32_t[]){0}, 1, 3000);
		for (size_t p = 0; p < N(plants); p++)
			for (uint32_t i = 0; i < plants[p].count; i++) {
				titem *it = titem_push(&s);
				if (it) {
					it->root = codec_default_root(l.c);
					it->w[0] = plants[p].make();
				}
			}
		jobs_compare("synthetic", &l, &s);
	}
	unload(&l);

	jobs_compare_words("200-bit", wide_path, (const uint32_t[]){0}, 1, JOBS_BIG);
	jobs_compare_words("etnaviv", ISACHECK_SOURCE_DIR "/isa/etnaviv.xml", (const uint32_t[]){0},
	                   1, 2 * JOBS_BIG);

	/* whole Midgard programs, their unexplained data among the parts,
	 * the same program over and over (blob-like) */
	s.n = 0;
	l = load(ISACHECK_SOURCE_DIR "/isa/midgard.xml");
	mg_program *p = malloc(sizeof *p);
	CHECK(p != NULL);
	if (l.c && p) {
		jobs_program(&s, &l, &mg_unknown, 60);
		mg_build(p, 77);
		mg_plants pl;
		mg_plant(p, &pl);
		jobs_program(&s, &l, p, 60);
		jobs_compare("midgard", &l, &s);
	}
	free(p);
	unload(&l);

	/* ir3 at three generations in turn; afuc, whose displays name
	 * fields that do not exist (spec problems) */
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/isa/ir3.xml");
	if (testlib_have_shared(path)) {
		jobs_compare_words("ir3", path, (const uint32_t[]){600, 400, 700}, 3, 2 * JOBS_BIG);
		testlib_shared_path(path, sizeof path, "mesa/src/freedreno/afuc/afuc.xml");
		jobs_compare_words("afuc", path, (const uint32_t[]){5, 6, 7}, 3, 30000);
	}
	free(s.v);
}

/* Writes the instructions of s (one root) as a binary of little-endian
 * 32-bit words. */
static void jobs_write_bin(const char *path, const titems *s)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	for (size_t i = 0; f && i < s->n; i++) {
		unsigned iw = (s->v[i].root->bitset->size + 31) / 32;
		for (unsigned k = 0; k < iw; k++) {
			uint32_t x = (uint32_t)(s->v[i].w[k / 2] >> (32 * (k % 2)));
			unsigned char b[4] = {(unsigned char)x, (unsigned char)(x >> 8),
			                      (unsigned char)(x >> 16), (unsigned char)(x >> 24)};
			fwrite(b, 1, 4, f);
		}
	}
	if (f)
		CHECK(fclose(f) == 0);
}

/* `isacheck triage JOBS ARGS`, standard error joined to standard output
 * (*out), the JSON and HTML reports also written (*json, *html); the
 * exit code. */
static int jobs_run(const char *jobs, const char *args, char **out, char **json, char **html)
{
	char cmd[4096], jp[400], hp[400];
	snprintf(jp, sizeof jp, "%s/jobs.json", tmp);
	snprintf(hp, sizeof hp, "%s/jobs.html", tmp);
	unlink(jp);
	unlink(hp);
	snprintf(cmd, sizeof cmd, "'%s' triage %s --json='%s' --html='%s' %s 2>&1", ISACHECK_BINARY,
	         jobs, jp, hp, args);
	int rc = testlib_run_capture(cmd, out);
	*json = testlib_read_file(jp);
	*html = testlib_read_file(hp);
	return rc;
}

static bool same_text(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The command with -j1, then -j 2, -j3, --jobs=8: the same exit code,
 * text, JSON and HTML, byte for byte. */
static void jobs_same_report(const char *what, const char *args)
{
	char *out1, *json1, *html1;
	int rc1 = jobs_run("-j1", args, &out1, &json1, &html1);
	CHECK(rc1 == 0 || rc1 == 1);
	CHECK(out1 && json1 && html1);
#ifdef ISACHECK_SANITIZED
	/* the sanitizer build, several times slower, is there for memory
	 * errors: -j1 against one number of jobs (the plain build, three) */
	const char *jobs[] = {"-j3"};
#else
	const char *jobs[] = {"-j 2", "-j3", "--jobs=8"};
#endif
	for (size_t j = 0; j < N(jobs); j++) {
		char *out, *json, *html;
		CHECK_INT(jobs_run(jobs[j], args, &out, &json, &html), rc1);
		CHECK(same_text(out, out1));
		CHECK(same_text(json, json1));
		CHECK(same_text(html, html1));
		if (!same_text(out, out1) || !same_text(json, json1) || !same_text(html, html1))
			fprintf(stderr, "%s: %s differs from -j1\n", what, jobs[j]);
		free(out);
		free(json);
		free(html);
	}
	printf("%s: exit %d, %zu bytes of text, %zu of JSON: the same with 1 job and with %s\n",
	       what, rc1, out1 ? strlen(out1) : 0, json1 ? strlen(json1) : 0,
	       N(jobs) == 1 ? "3" : "2, 3, 8");
	free(out1);
	free(json1);
	free(html1);
}

/* Whole programs as TSV rows (source, hex), one per program, reps times
 * the two given. */
static void jobs_write_programs(const char *path, const mg_program *a, const mg_program *b,
                                size_t reps)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("source\thex\n", f);
	for (size_t r = 0; r < reps; r++) {
		const mg_program *p = r % 2 ? b : a;
		fprintf(f, "program %zu\t", r);
		for (size_t i = 0; i < p->nw; i++)
			fprintf(f, "%08x%s", (unsigned)p->w[i], i + 1 < p->nw ? " " : "\n");
	}
	CHECK(fclose(f) == 0);
}

/* jobs_same_report on a binary of n words of xml's default root
 * (jobs_words), with options opts. */
static void jobs_big_report(const char *what, const char *opts, const char *xml, size_t n)
{
	titems s = {0};
	loaded l = load(xml);
	if (l.c) {
		char bin[400], args[1600];
		jobs_words(&s, codec_default_root(l.c), (const uint32_t[]){0}, 1, n);
		snprintf(bin, sizeof bin, "%s/big.bin", tmp);
		jobs_write_bin(bin, &s);
		snprintf(args, sizeof args, "%s '%s' '%s'", opts, xml, bin);
		jobs_same_report(what, args);
	}
	unload(&l);
	free(s.v);
}

/* `isacheck triage -j N`: the same report for any N, on the inputs of
 * the tests above and on inputs larger than a batch (many distinct
 * clusters, words no leaf matches, wide instructions, whole programs);
 * bad numbers of jobs are one-line errors, exit 2. */
TEST(cli_jobs_same_report)
{
	char args[2400], p[400], q[400];
	snprintf(args, sizeof args, "'%s' '%s/blobs' '%s/dump.txt' '%s/v.tsv'", synth_path, tmp,
	         tmp, tmp);
	jobs_same_report("synthetic", args);
	snprintf(args, sizeof args, "--nearest=1 --examples=1 --top=0 --format=json '%s' "
	         "'%s/blobs' '%s/dump.txt' '%s/v.tsv'", synth_path, tmp, tmp, tmp);
	jobs_same_report("synthetic, JSON, 1 nearest, 1 example", args);

	jobs_big_report("etnaviv, 2.5 batches of instructions", "", ISACHECK_SOURCE_DIR
	                "/isa/etnaviv.xml", JOBS_BIG);
	jobs_big_report("200-bit, batches full of words, 16 nearest, 5 examples",
	                "--nearest=16 --examples=5", wide_path, JOBS_BIG / 2);

	/* whole Midgard programs: 60 of them (more than two batches of
	 * parts), unexplained data among the parts */
	mg_program *dirty = malloc(sizeof *dirty);
	CHECK(dirty != NULL);
	if (dirty) {
		mg_build(dirty, 77);
		mg_plants pl;
		mg_plant(dirty, &pl);
		snprintf(p, sizeof p, "%s/mg-programs.tsv", tmp);
		jobs_write_programs(p, &mg_unknown, dirty, 60);
		snprintf(args, sizeof args, "'%s/isa/midgard.xml' '%s'", ISACHECK_SOURCE_DIR, p);
		jobs_same_report("midgard, 60 whole programs", args);
		/* programs cut short (midgard_programs wrote them), one with a bad
		 * tag (bundle 7): framing errors */
		*dirty = mg_clean;
		dirty->w[dirty->start[7]] &= ~0xfu;
		snprintf(q, sizeof q, "%s/mg-badtag.bin", tmp);
		write_bytes(q, dirty->w, dirty->nw * 4);
		snprintf(args, sizeof args, "'%s/isa/midgard.xml' '%s/mg-trunc.hex' '%s/mg-trunc.bin' "
		         "'%s'", ISACHECK_SOURCE_DIR, tmp, tmp, q);
		jobs_same_report("midgard, framing errors", args);
	}
	free(dirty);

	/* the blob's whole a2xx programs (cli_programs wrote them), Mesa's
	 * vectors */
	char path[1024];
	testlib_shared_path(path, sizeof path, "blob/a2xx.tsv");
	snprintf(p, sizeof p, "%s/progs.tsv", tmp);
	if (testlib_have_shared(path)) {
		snprintf(args, sizeof args, "'%s/isa/a2xx.xml' '%s'", ISACHECK_SOURCE_DIR, p);
		jobs_same_report("a2xx, the blob's whole programs", args);
	}
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/isa/ir3.xml");
	if (testlib_have_shared(path)) {
		char v[1024];
		testlib_shared_path(v, sizeof v, "mesa/vectors/ir3.tsv");
		snprintf(args, sizeof args, "'%s' '%s'", path, v);
		jobs_same_report("ir3 vectors, a generation per row", args);
		testlib_shared_path(path, sizeof path, "mesa/src/freedreno/afuc/afuc.xml");
		testlib_shared_path(v, sizeof v, "mesa/vectors/afuc.tsv");
		snprintf(args, sizeof args, "'%s' '%s'", path, v);
		jobs_same_report("afuc vectors", args);
	}

	/* bad numbers of jobs: one line on standard error, nothing else */
	const char *bad[] = {"-j0", "-j 257", "-jx", "--jobs=", "--jobs=-1", "-j"};
	for (size_t i = 0; i < N(bad); i++) {
		char cmd[1200], out[1024];
		snprintf(cmd, sizeof cmd, "'%s' triage '%s' '%s/blobs' %s 2>&1", ISACHECK_BINARY,
		         synth_path, tmp, bad[i]);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
		CHECK(!strncmp(out, "isacheck triage: ", 17) && strchr(out, '\n') &&
		      !strchr(out, '\n')[1]);
		CHECK(strstr(out, "1..256") != NULL);
	}
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(synth_path, sizeof synth_path, "%s/synth.xml", tmp);
	testlib_write_file(synth_path, synth_xml);
	snprintf(wide_path, sizeof wide_path, "%s/wide.xml", tmp);
	testlib_write_file(wide_path, wide_xml);
	RUN(synthetic_planted);
	RUN(nearest_and_reserved);
	RUN(mesa_vectors);
	RUN(cli_inputs_and_exit_codes);
	RUN(cli_errors);
	RUN(cli_programs);
	RUN(nearest_index);
	RUN(midgard_programs);
	RUN(midgard_unexplained_data);
	RUN(queue_same_as_add);
	RUN(cli_jobs_same_report);
	if (!testlib_remove_tree(tmp))
		fprintf(stderr, "could not remove %s\n", tmp);
	return testlib_finish();
}
