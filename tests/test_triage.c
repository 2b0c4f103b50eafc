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
 *    binaries, odd-length and garbage hex, short rows.
 */
#include "codec.h"
#include "spec.h"
#include "testlib.h"
#include "triage.h"

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

typedef struct loaded {
	spec_model *m;
	codec *c;
} loaded;

static loaded load(const char *path)
{
	spec_diags d = {0};
	loaded l = {0};
	l.m = spec_load(path, &d);
	CHECK(l.m != NULL);
	if (l.m) {
		l.c = codec_new(l.m, &d);
		CHECK(l.c != NULL);
	}
	spec_diags_free(&d);
	return l;
}

static void unload(loaded *l)
{
	codec_free(l->c);
	spec_model_free(l->m);
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
	snprintf(want, sizeof want, "%s: word ", p);
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

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(synth_path, sizeof synth_path, "%s/synth.xml", tmp);
	testlib_write_file(synth_path, synth_xml);
	RUN(synthetic_planted);
	RUN(nearest_and_reserved);
	RUN(mesa_vectors);
	RUN(cli_inputs_and_exit_codes);
	RUN(cli_errors);
	RUN(cli_programs);
	if (!testlib_remove_tree(tmp))
		fprintf(stderr, "could not remove %s\n", tmp);
	return testlib_finish();
}
