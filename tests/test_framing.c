/*
 * test_framing.c - the program-framing extension (docs/framing.md):
 * loading and linting <program>, walking whole programs of synthetic
 * a2xx and Midgard models (tests/framing/), exact item lists and text,
 * errors on truncated and garbage programs, encoding back to words, and
 * the a2xx whole programs of ../shared/blob/a2xx.tsv against their
 * per-slot rows and Mesa's text.
 */
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define FRAMING_DIR ISACHECK_SOURCE_DIR "/tests/framing"

typedef struct loaded {
	spec_model *m;
	codec *c;
	spec_diags d;
} loaded;

static bool load(loaded *l, const char *file)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", FRAMING_DIR, file);
	memset(l, 0, sizeof *l);
	l->m = spec_load(path, &l->d);
	CHECK(l->m != NULL);
	if (!l->m)
		return false;
	for (size_t i = 0; i < l->d.count; i++)
		fprintf(stderr, "%s:%u: %s [%s]\n", l->d.items[i].loc.file, l->d.items[i].loc.line,
		        l->d.items[i].message, l->d.items[i].rule);
	CHECK_INT(l->d.count, 0);
	l->c = codec_new(l->m, &l->d);
	CHECK(l->c != NULL);
	return l->c != NULL;
}

static void unload(loaded *l)
{
	codec_free(l->c);
	spec_model_free(l->m);
	spec_diags_free(&l->d);
}

static codec_program *walk(const loaded *l, const uint32_t *w, size_t n)
{
	codec_disasm_options opt = {.show_errors = true};
	codec_program *pr = codec_program_walk(l->c, NULL, w, n, &opt);
	CHECK(pr != NULL);
	return pr;
}

/* "C" for a CF, "A" for an ALU, "F" for a FETCH, per item (a2xx). */
static void a2xx_kinds(const codec_program *pr, char *out, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < pr->nitems && k + 1 < len; i++) {
		const codec_item *it = &pr->items[i];
		if (it->kind != CODEC_ITEM_PART)
			continue;
		const char *r = it->root->bitset->name;
		out[k++] = !strcmp(r, "#cf") ? 'C' : !strcmp(r, "#alu") ? 'A' : !strcmp(r, "#fetch") ? 'F' : '?';
	}
	out[k] = 0;
}

/* The same sequence from Mesa's text: CF lines start with one tab and a
 * name, slot lines hold "ALU:" or "FETCH:", scalar lines "\t\t". */
static void mesa_kinds(const char *text, char *out, size_t len)
{
	size_t k = 0;
	for (const char *p = text; *p && k + 1 < len;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(n < 511 ? n : 511), p);
		if (strstr(line, "FETCH:"))
			out[k++] = 'F';
		else if (strstr(line, "ALU:"))
			out[k++] = 'A';
		else if (line[0] == '\t' && line[1] != '\t' && line[1] != ' ')
			out[k++] = 'C';
		p += n + (nl != NULL);
	}
	out[k] = 0;
}

/* ---------------------------------------------------------------- a2xx */

typedef struct tsv_row {
	char source[512], kind[32], hex[2048], text[8192];
	int slot;
} tsv_row;

static size_t read_tsv(tsv_row *rows, size_t max)
{
	char path[1024];
	testlib_tsv t;
	if (!testlib_tsv_open(&t, testlib_shared_path(path, sizeof path, "blob/a2xx.tsv")))
		return 0;
	size_t n = 0, nc;
	char *cols[3];
	while (n < max && (nc = testlib_tsv_next(&t, cols, 3))) {
		if (nc < 3)
			continue;
		tsv_row *r = &rows[n];
		char *kind = strstr(cols[0], "; kind=");
		if (!kind)
			continue;
		*kind = 0;
		snprintf(r->source, sizeof r->source, "%.500s", cols[0]);
		r->slot = -1;
		sscanf(kind + 7, "%31[a-z_] slot=%d", r->kind, &r->slot);
		snprintf(r->hex, sizeof r->hex, "%.2000s", cols[1]);
		char *txt = cols[2];
		char *mark = strstr(txt, "] ");
		if (txt[0] == '[' && mark)
			txt = mark + 2;
		testlib_unescape(txt);
		snprintf(r->text, sizeof r->text, "%s", txt);
		n++;
	}
	testlib_tsv_close(&t);
	return n;
}

/* The acceptance: every whole program of the TSV splits into the same
 * CF/ALU/FETCH sequence as Mesa's text, its items match the per-slot
 * rows, and the CF lines and slot prefixes print as Mesa's do. */
TEST(a2xx_blob_programs)
{
	char probe[1024];
	if (!testlib_have_shared(testlib_shared_path(probe, sizeof probe, "blob/a2xx.tsv")))
		return;
	static tsv_row rows[512];
	size_t nrows = read_tsv(rows, 512);
	CHECK(nrows > 50);
	loaded l;
	if (!load(&l, "a2xx-model.xml"))
		return;
	size_t programs = 0, slot_rows = 0;
	for (size_t i = 0; i < nrows; i++) {
		if (strcmp(rows[i].kind, "whole_program"))
			continue;
		programs++;
		uint32_t w[512];
		size_t n = testlib_parse_words(rows[i].hex, w, 512);
		codec_program *pr = walk(&l, w, n);
		if (!pr)
			continue;
		for (size_t e = 0; e < pr->nerrors; e++)
			fprintf(stderr, "%s: %s\n", rows[i].source, pr->errors[e].text);
		CHECK_INT(pr->nerrors, 0);
		CHECK_INT(pr->nclean, pr->nparts);
		char got[256], want[256];
		a2xx_kinds(pr, got, sizeof got);
		mesa_kinds(rows[i].text, want, sizeof want);
		CHECK_STR(got, want);
		/* Mesa's lines, up to the instruction's own text for slots */
		const char *p = rows[i].text, *q = pr->text;
		while (*p && *q) {
			const char *pe = strchr(p, '\n'), *qe = strchr(q, '\n');
			size_t pn = pe ? (size_t)(pe - p) : strlen(p), qn = qe ? (size_t)(qe - q) : strlen(q);
			if (p[0] == '\t' && p[1] == '\t') { /* Mesa's scalar half: our model has none */
				p += pn + (pe != NULL);
				continue;
			}
			const char *colon = memchr(p, ':', pn);
			size_t cmp = colon && colon[1] == '\t' ? (size_t)(colon - p) + 2 : pn;
			char a[512], b[512];
			snprintf(a, sizeof a, "%.*s", (int)(qn < cmp ? qn : cmp), q);
			snprintf(b, sizeof b, "%.*s", (int)cmp, p);
			CHECK_STR(a, b);
			p += pn + (pe != NULL);
			q += qn + (qe != NULL);
		}
		CHECK(!*q);
		/* the per-slot rows of the same dump */
		for (size_t j = 0; j < nrows; j++) {
			if (strcmp(rows[j].source, rows[i].source) || rows[j].slot < 0)
				continue;
			slot_rows++;
			size_t bit = (size_t)rows[j].slot * 96;
			uint32_t sw[3];
			CHECK_INT(testlib_parse_words(rows[j].hex, sw, 3), 3);
			bool cf = !strcmp(rows[j].kind, "cf_pair");
			const char *want_root = cf ? "#cf" : !strcmp(rows[j].kind, "alu") ? "#alu" : "#fetch";
			size_t found = 0;
			for (size_t k = 0; k < pr->nitems; k++) {
				const codec_item *it = &pr->items[k];
				if (it->kind != CODEC_ITEM_PART || it->bit < bit || it->bit >= bit + 96)
					continue;
				CHECK_STR(it->root->bitset->name, want_root);
				found++;
			}
			CHECK_INT(found, cf ? 2 : 1);
			for (int k = 0; k < 3; k++)
				CHECK_INT(w[rows[j].slot * 3 + k], sw[k]);
		}
		/* encoding the items gives the words back */
		uint32_t back[512];
		char err[256] = "";
		CHECK(codec_program_encode(pr->items, pr->nitems, back, n, err, sizeof err));
		CHECK(!memcmp(back, w, n * sizeof *w));
		codec_program_free(pr);
	}
	CHECK_INT(programs, 11);
	CHECK(slot_rows >= 40);
	printf("a2xx blob: %zu whole programs, %zu per-slot rows agree\n", programs, slot_rows);
	unload(&l);
}

/* ------------------------------------------- exact items and text */

typedef struct want_item {
	codec_item_kind kind;
	size_t bit;
	unsigned bits;
	const char *root, *leaf, *name; /* NULL: not checked / none */
} want_item;

static void check_items(const codec_program *pr, const want_item *want, size_t n)
{
	CHECK_INT(pr->nitems, n);
	for (size_t i = 0; i < n && i < pr->nitems; i++) {
		const codec_item *it = &pr->items[i];
		CHECK_INT(it->kind, want[i].kind);
		CHECK_INT(it->bit, want[i].bit);
		CHECK_INT(it->bits, want[i].bits);
		if (want[i].root)
			CHECK_STR(it->root ? it->root->bitset->name : NULL, want[i].root);
		if (want[i].leaf)
			CHECK_STR(it->leaf ? it->leaf->name : NULL, want[i].leaf);
		if (want[i].name)
			CHECK_STR(it->name, want[i].name);
	}
}

static bool has_error(const codec_program *pr, codec_frame_error_kind k, size_t bit, bool fatal)
{
	for (size_t i = 0; i < pr->nerrors; i++)
		if (pr->errors[i].kind == k && pr->errors[i].bit == bit && pr->errors[i].fatal == fatal)
			return true;
	for (size_t i = 0; i < pr->nerrors; i++)
		fprintf(stderr, "  (error %s at bit %zu, fatal %d: %s)\n",
		        codec_frame_error_name(pr->errors[i].kind), pr->errors[i].bit,
		        pr->errors[i].fatal, pr->errors[i].text);
	return false;
}

/* Walks, then checks that the items encode back to the words. */
static void check_roundtrip(const loaded *l, const codec_program *pr, const uint32_t *w, size_t n)
{
	uint32_t back[256], canon[256];
	char err[256] = "";
	CHECK(n <= 256);
	CHECK(codec_program_encode(pr->items, pr->nitems, back, n, err, sizeof err));
	CHECK(!memcmp(back, w, n * sizeof *w));
	/* through each part's decoding: our models have no x bits in the
	 * bits they use, so the canonical form is the same words, except
	 * where a leaf has x bits (checked by the caller's choice of words) */
	bool ok = codec_program_reencode(l->c, pr, 0, canon, n, err, sizeof err);
	if (!ok)
		fprintf(stderr, "reencode: %s\n", err);
	CHECK(ok);
	CHECK(!memcmp(canon, w, n * sizeof *w));
}

/* The Midgard bundle of docs/framing.md, words low first. */
static const uint32_t midgard_words[] = {
	/* ALU_12 (tag 0xa, next 5): control with VMUL, SADD and a compact
	 * branch; VMUL's register word asks for an inline immediate */
	0x040a005a, 0x18a48861, 0x5e000210, 0x4240ff0d, 0x00a90005, 0, 0, 0,
	0x3f800000, 0x40000000, 0x00000000, 0x12345678,
	0x00abcd35, 0x00000001, 0, 0, /* load/store (tag 5, next 3) */
	0x00000113, 0, 0, 0,          /* texture (tag 3, next 1) */
};

TEST(midgard_items_and_text)
{
	loaded l;
	if (!load(&l, "midgard-model.xml"))
		return;
	size_t n = sizeof midgard_words / sizeof *midgard_words;
	codec_program *pr = walk(&l, midgard_words, n);
	if (!pr)
		return;
	const want_item want[] = {
		{CODEC_ITEM_PART, 0, 32, "#alu-control", "alu-control", "control"},
		{CODEC_ITEM_PART, 32, 16, "#reg-word", "reg-word", "vmul.reg"},
		{CODEC_ITEM_PART, 48, 16, "#reg-word", "reg-word", "sadd.reg"},
		{CODEC_ITEM_PART, 64, 48, "#vector-alu", "vector-alu", "vmul"},
		{CODEC_ITEM_VALUE, 112, 0, NULL, NULL, "vmul_immediate"},
		{CODEC_ITEM_PART, 112, 32, "#scalar-alu", "scalar-alu", "sadd"},
		{CODEC_ITEM_PART, 144, 16, "#branch-compact", "branch-compact", "branch"},
		{CODEC_ITEM_PAD, 160, 96, NULL, NULL, NULL},
		{CODEC_ITEM_DATA, 256, 128, NULL, NULL, "constants"},
		{CODEC_ITEM_PART, 384, 128, "#load-store", "load-store", "ldst"},
		{CODEC_ITEM_PART, 512, 128, "#texture", "texture", "texture"},
	};
	check_items(pr, want, sizeof want / sizeof *want);
	/* src2_reg 3 << 11 | src2 0x1abc bits 2-4 (7) << 8 | bits 5-12 (0xd5) */
	CHECK_INT(pr->items[4].value, 3 << 11 | 7 << 8 | 0xd5);
	CHECK_INT(pr->nerrors, 0);
	CHECK_INT(pr->nparts, 8);
	CHECK_INT(pr->nclean, 8);
	CHECK(!pr->stopped);
	CHECK_STR(pr->text,
	          "bundle 0 (tag 0xa, 3 quadwords):\n"
	          "\talu tag=a next=5 units=3\n"
	          "\treg out=r2 src1=r1 src2=r3 imm=1\n"
	          "\treg out=r6 src1=r4 src2=r5 imm=0\n"
	          "\tvmul: vector op=10 src1=0 src2=1abc mask=ff\n"
	          "\tsadd: scalar op=40 src1=2 src2=15\n"
	          "\tbranch op=1 dest_tag=5 rest=1\n"
	          "\tconstants: 3f800000 40000000 00000000 12345678\n"
	          "bundle 1 (tag 0x5, 1 quadwords):\n"
	          "\tload/store next=3 100abcd 0\n"
	          "bundle 2 (tag 0x3, 1 quadwords):\n"
	          "\ttexture op=1 next=1\n");
	CHECK_INT(pr->textlen, strlen(pr->text));
	check_roundtrip(&l, pr, midgard_words, n);
	codec_program_free(pr);
	unload(&l);
}

TEST(midgard_errors)
{
	loaded l;
	if (!load(&l, "midgard-model.xml"))
		return;
	uint32_t w[32];
	codec_program *pr;

	/* tag 0 and tag 1 (break) have no size: a bad tag, at once */
	for (uint32_t tag = 0; tag < 2; tag++) {
		uint32_t z[4] = {tag, 0, 0, 0};
		pr = walk(&l, z, 4);
		CHECK(pr && pr->stopped && has_error(pr, CODEC_FRAME_REJECTED, 0, true));
		CHECK(pr && !strcmp(pr->errors[0].text, tag ? "bad tag 0x1 at the start of bundle 0"
		                                             : "bad tag 0x0 at the start of bundle 0"));
		CHECK(pr && pr->errors[0].step && pr->errors[0].step->loc.line > 0);
		codec_program_free(pr);
	}
	/* a bad tag after a good bundle: reported at its bundle */
	memcpy(w, midgard_words + 12, 4 * sizeof *w);
	memset(w + 4, 0, 4 * sizeof *w);
	pr = walk(&l, w, 8);
	CHECK(pr && has_error(pr, CODEC_FRAME_REJECTED, 128, true));
	CHECK(pr && pr->nitems == 1 && strstr(pr->text, "bundle 1") == NULL);
	codec_program_free(pr);

	/* every truncation of the example: a clean stop, never a read past
	 * the end; the cuts at bundle boundaries are whole programs */
	for (size_t cut = 0; cut < 20; cut++) {
		pr = walk(&l, midgard_words, cut);
		if (!pr)
			continue;
		bool boundary = cut == 0 || cut == 12 || cut == 16;
		CHECK_INT(pr->stopped, !boundary);
		if (!boundary)
			CHECK(has_error(pr, CODEC_FRAME_TRUNCATED, cut < 12 ? 0 : cut < 16 ? 384 : 512, true));
		for (size_t i = 0; i < pr->nitems; i++)
			CHECK(pr->items[i].bit + pr->items[i].bits <= cut * 32);
		codec_program_free(pr);
	}

	/* ALU_4 (one quadword) with every unit: its parts overflow the bundle */
	uint32_t full[8] = {0x0efa0008 | 1u << 27, 0, 0, 0, 0, 0, 0, 0};
	pr = walk(&l, full, 8);
	CHECK(pr && pr->stopped);
	CHECK(pr && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_OVERFLOW);
	codec_program_free(pr);

	/* non-zero padding is a finding, not a stop */
	memcpy(w, midgard_words, sizeof midgard_words);
	w[6] = 0x100;
	pr = walk(&l, w, 20);
	CHECK(pr && !pr->stopped && pr->nerrors == 1);
	CHECK(pr && has_error(pr, CODEC_FRAME_PADDING, 160, false));
	CHECK(pr && pr->nitems == 11 && pr->items[7].kind == CODEC_ITEM_PAD && !pr->items[7].clean);
	CHECK(pr && !codec_program_clean(pr));
	codec_program_free(pr);

	/* tags 6 and 7 have a size but no unit: one quadword of raw data */
	uint32_t unk[4] = {0x16, 0, 5, 0};
	pr = walk(&l, unk, 4);
	CHECK(pr && pr->nerrors == 0 && pr->nitems == 1 && pr->items[0].kind == CODEC_ITEM_DATA);
	CHECK(pr && !strcmp(pr->text, "bundle 0 (tag 0x6, 1 quadwords):\n"
	                              "\tunknown: 00000016 00000000 00000005 00000000\n"));
	codec_program_free(pr);
	unload(&l);
}

/* ---------------------------------------------------- a2xx, synthetic */

/* One slot of CFs: EXEC ADDR(1) CNT(3) with serialize 0b01_00_11 (slot 0
 * a FETCH with (S), slot 1 an ALU, slot 2 a FETCH), and EXEC_END
 * ADDR(4) CNT(1): an ALU.  Then the four slots. */
static const uint32_t a2xx_words[] = {
	0x00133001, 0x10041000, 0x20000000, /* CF0 = EXEC, CF1 = EXEC_END */
	0x00000001, 0, 0,                    /* slot 1: FETCH SAMPLE R0 = R0 */
	0x00000005, 0x00000000, 0x01000000, /* slot 2: ALU */
	0x00002000, 0, 0,                    /* slot 3: FETCH VERTEX R2 = R0 */
	0x001f0003, 0, 0x02000000,          /* slot 4: ALU */
};

TEST(a2xx_items_and_text)
{
	loaded l;
	if (!load(&l, "a2xx-model.xml"))
		return;
	size_t n = sizeof a2xx_words / sizeof *a2xx_words;
	codec_program *pr = walk(&l, a2xx_words, n);
	if (!pr)
		return;
	const want_item want[] = {
		{CODEC_ITEM_PART, 0, 48, "#cf", "EXEC", "cf"},
		{CODEC_ITEM_PART, 96, 96, "#fetch", "SAMPLE", "fetch"},
		{CODEC_ITEM_PART, 192, 96, "#alu", "alu", "alu"},
		{CODEC_ITEM_PART, 288, 96, "#fetch", "VERTEX", "fetch"},
		{CODEC_ITEM_PART, 48, 48, "#cf", "EXEC_END", "cf"},
		{CODEC_ITEM_PART, 384, 96, "#alu", "alu", "alu"},
	};
	check_items(pr, want, sizeof want / sizeof *want);
	for (size_t i = 0; i < pr->nerrors; i++)
		fprintf(stderr, "%s\n", pr->errors[i].text);
	CHECK_INT(pr->nerrors, 0);
	CHECK_STR(pr->text,
	          "\tEXEC ADDR(0x1) CNT(0x3)\n"
	          "\t   (S)FETCH:\tSAMPLE R0 = R0\n"
	          "\t      ALU:\tv1 s0 dst R5 mask 0/0\n"
	          "\t      FETCH:\tVERTEX R2 = R0\n"
	          "\tEXEC_END ADDR(0x4) CNT(0x1)\n"
	          "\t      ALU:\tv2 s0 dst R3 mask f/1\n");
	check_roundtrip(&l, pr, a2xx_words, n);
	codec_program_free(pr);
	unload(&l);
}

TEST(a2xx_errors)
{
	loaded l;
	if (!load(&l, "a2xx-model.xml"))
		return;
	size_t n = sizeof a2xx_words / sizeof *a2xx_words;
	uint32_t w[64];
	codec_program *pr;

	/* a slot past every clause: covered by none */
	memcpy(w, a2xx_words, sizeof a2xx_words);
	w[n] = w[n + 1] = w[n + 2] = 0;
	pr = walk(&l, w, n + 3);
	CHECK(pr && !pr->stopped && pr->nerrors == 1);
	CHECK(pr && has_error(pr, CODEC_FRAME_UNCOVERED, 480, false));
	CHECK(pr && strstr(pr->errors[0].text, "words 15..17"));
	codec_program_free(pr);

	/* EXEC_END pointing at slot 3 again: two items on one slot, and slot
	 * 4 uncovered */
	memcpy(w, a2xx_words, sizeof a2xx_words);
	w[1] = (w[1] & 0xffff) | 0x1003u << 16;
	pr = walk(&l, w, n);
	CHECK(pr && has_error(pr, CODEC_FRAME_OVERLAP, 288, false));
	CHECK(pr && has_error(pr, CODEC_FRAME_UNCOVERED, 384, false));
	codec_program_free(pr);

	/* no EXEC at all: the CF area never ends */
	uint32_t alloc[6] = {0, 0x0000c000, 0xc0000000, 0, 0x0000c000, 0xc0000000};
	pr = walk(&l, alloc, 6);
	CHECK(pr && pr->stopped && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_COUNT);
	codec_program_free(pr);

	/* EXEC ADDR(0) as the second CF: a CF area of 0 slots after 2 CFs */
	uint32_t zero[3] = {0, 0x0000c000, 0x10000000};
	pr = walk(&l, zero, 3);
	CHECK(pr && pr->stopped && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_COUNT);
	codec_program_free(pr);

	/* EXEC ADDR(0x1ff): its slots lie far past the end */
	uint32_t far[3] = {0x000011ff, 0x00001000, 0};
	pr = walk(&l, far, 3);
	CHECK(pr && pr->stopped && pr->errors[0].kind == CODEC_FRAME_TRUNCATED);
	codec_program_free(pr);

	/* every truncation */
	for (size_t cut = 0; cut < n; cut++) {
		pr = walk(&l, a2xx_words, cut);
		CHECK(pr && pr->nerrors > 0);
		for (size_t i = 0; pr && i < pr->nitems; i++)
			CHECK(pr->items[i].bit + pr->items[i].bits <= cut * 32);
		codec_program_free(pr);
	}
	unload(&l);
}

/* ------------------------------------------------------------ garbage */

/* Random words of random lengths against both models: the walk always
 * ends, within its budget, reading nothing outside the input. */
/* cover="true" worked out bit by bit, as the oracle of the codec's
 * word-wise check: the items that overlap an earlier one (the first
 * eight, at their first bit) and then each run of bits no item covers,
 * as (kind, bit) in the order the walk reports them.  True when pr's
 * OVERLAP and UNCOVERED errors are exactly these. */
static bool cover_agrees(const codec_program *pr, size_t nbits)
{
	uint8_t *seen = calloc(nbits + 1, 1);
	size_t want[2 * CODEC_PROGRAM_MAX_ERRORS][2], nwant = 0;
	unsigned overlaps = 0;
	for (size_t i = 0; i < pr->nitems; i++) {
		const codec_item *it = &pr->items[i];
		bool hit = false;
		for (size_t b = it->bit; b < it->bit + it->bits && b < nbits; b++) {
			hit |= seen[b];
			seen[b] = 1;
		}
		if (hit && overlaps++ < 8 && nwant < 2 * CODEC_PROGRAM_MAX_ERRORS) {
			want[nwant][0] = CODEC_FRAME_OVERLAP;
			want[nwant++][1] = it->bit;
		}
	}
	for (size_t b = 0; b < nbits; b++)
		if (!seen[b] && (b == 0 || seen[b - 1]) && nwant < 2 * CODEC_PROGRAM_MAX_ERRORS) {
			want[nwant][0] = CODEC_FRAME_UNCOVERED;
			want[nwant++][1] = b;
		}
	free(seen);
	size_t k = 0;
	for (size_t i = 0; i < pr->nerrors; i++) {
		const codec_frame_error *e = &pr->errors[i];
		if (e->kind != CODEC_FRAME_OVERLAP && e->kind != CODEC_FRAME_UNCOVERED)
			continue;
		if (k >= nwant || want[k][0] != e->kind || want[k][1] != e->bit)
			return false;
		k++;
	}
	return k == nwant;
}

/* Whether two walks' items are alike in everything, bits included. */
static bool same_item(const codec_item *x, const codec_item *y)
{
	return x->kind == y->kind && x->step == y->step && x->bit == y->bit && x->bits == y->bits &&
	       x->root == y->root && x->leaf == y->leaf && x->clean == y->clean &&
	       x->value == y->value && !memcmp(x->w, y->w, (x->bits + 63) / 64 * 8);
}

/* Parts a quiet walk that stopped at an error left undecided (leaf
 * NULL where the walk's has one), over the checks of quiet_agrees. */
static size_t quiet_undecided;

/* Whether a quiet walk q (codec_walker_walk_quiet) agrees with the walk
 * a of the same words, where no display or suffix of the spec can fail:
 * clean when a is, with a's items; else its one error a's first, and
 * its items the first of a's (it stopped there), their leaves a's where
 * it decided them (leaf not NULL); no text.  what says where not. */
static bool quiet_agrees(const codec_program *a, const codec_program *q, char *what, size_t len)
{
	if (!q || q->textlen || strcmp(q->text, "") || q->nerrors != (a->nerrors != 0) ||
	    (a->nerrors ? q->nitems > a->nitems : q->nitems != a->nitems)) {
		snprintf(what, len, "counts or text");
		return false;
	}
	if (q->nerrors) {
		const codec_frame_error *x = &a->errors[0], *y = &q->errors[0];
		if (x->kind != y->kind || x->bit != y->bit || x->fatal != y->fatal ||
		    x->step != y->step || !q->stopped) {
			snprintf(what, len, "the first error");
			return false;
		}
	} else if (q->nparts != a->nparts || q->nclean != a->nclean) {
		snprintf(what, len, "parts");
		return false;
	}
	size_t undecided = 0, nparts = 0;
	for (size_t i = 0; i < q->nitems; i++) {
		codec_item x = a->items[i];
		const codec_item *y = &q->items[i];
		nparts += y->kind == CODEC_ITEM_PART && y->leaf;
		if (q->nerrors && x.kind == CODEC_ITEM_PART && !y->leaf && x.leaf) {
			undecided++; /* not decided: nothing read its exports */
			x.leaf = NULL;
			x.clean = false;
		}
		if (!same_item(&x, y)) {
			snprintf(what, len, "item %zu", i);
			return false;
		}
	}
	/* an error walk counts the parts it decided (some of the parts
	 * without a leaf, too) */
	if (q->nerrors && (q->nparts < nparts || q->nparts > q->nitems || q->nclean > q->nparts)) {
		snprintf(what, len, "decided parts");
		return false;
	}
	quiet_undecided += undecided;
	return true;
}

TEST(garbage_terminates)
{
	const char *models[] = {"a2xx-model.xml", "midgard-model.xml", "loops.xml"};
	uint64_t seed = 0x9e3779b97f4a7c15u;
	size_t walks = 0, stopped = 0, covered = 0, cover_errors = 0;
	for (size_t m = 0; m < 3; m++) {
		loaded l;
		if (!load(&l, models[m]))
			continue;
		static uint32_t w[600];
		codec_walker *q = codec_walker_new(l.c, 0);
		CHECK(q != NULL);
		for (int round = 0; round < 400; round++) {
			size_t n = (size_t)(seed >> 33) % 600;
			for (size_t i = 0; i < n; i++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				uint32_t v = (uint32_t)(seed >> 32);
				/* keep some structure: small addresses, counts and tags */
				w[i] = round % 2 ? v : v & 0x0fff70ff;
			}
			for (size_t p = 0; p < spec_program_count(l.m); p++) {
				codec_disasm_options opt = {.show_errors = true};
				codec_program *pr = codec_program_walk(l.c, spec_program_at(l.m, p), w, n, &opt);
				CHECK(pr != NULL);
				if (!pr)
					continue;
				walks++;
				stopped += pr->stopped;
				for (size_t i = 0; i < pr->nitems; i++) {
					const codec_item *it = &pr->items[i];
					CHECK(it->bit + it->bits <= n * 32);
					/* its bits are the input's, bit for bit */
					for (size_t b = 0; b < it->bits && it->bit + it->bits <= n * 32; b++)
						if ((it->w[b / 64] >> (b % 64) & 1) !=
						    (w[(it->bit + b) / 32] >> ((it->bit + b) % 32) & 1)) {
							fprintf(stderr, "item %zu bit %zu is not the input's\n", i, b);
							CHECK(false);
							break;
						}
				}
				CHECK(pr->nerrors <= CODEC_PROGRAM_MAX_ERRORS);
				CHECK_INT(strlen(pr->text), pr->textlen);
				/* the quiet walk agrees */
				char what[80];
				if (q && !quiet_agrees(pr, codec_walker_walk_quiet(q, spec_program_at(l.m, p), w,
				                                                   n, &opt), what, sizeof what)) {
					fprintf(stderr, "%s, program %zu, round %d: the quiet walk differs (%s)\n",
					        models[m], p, round, what);
					CHECK(false);
				}
				/* (a full error list may have lost some of them) */
				if (spec_program_at(l.m, p)->cover && !pr->stopped &&
				    pr->nerrors < CODEC_PROGRAM_MAX_ERRORS) {
					covered++;
					for (size_t i = 0; i < pr->nerrors; i++)
						cover_errors += pr->errors[i].kind == CODEC_FRAME_OVERLAP ||
						                pr->errors[i].kind == CODEC_FRAME_UNCOVERED;
					CHECK(cover_agrees(pr, n * 32));
				}
				codec_program_free(pr);
			}
		}
		codec_walker_free(q);
		unload(&l);
	}
	printf("garbage: %zu walks, %zu stopped by a framing error; %zu checked for cover, "
	       "%zu overlaps or gaps; the quiet walks left %zu parts undecided\n", walks, stopped,
	       covered, cover_errors, quiet_undecided);
	CHECK(walks >= 1200);
	/* the quiet walks put off deciding parts nothing read (a2xx's ALU
	 * and FETCH slots) */
	CHECK(quiet_undecided > 0);
	CHECK(covered > 0 && cover_errors > 0);
	CHECK(stopped > 0 && stopped < walks);
}

TEST(loops_are_cut)
{
	loaded l;
	if (!load(&l, "loops.xml"))
		return;
	uint32_t w[4] = {0, 0, 0, 0};
	codec_disasm_options opt = {.show_errors = true};
	/* a to-end iteration that consumes nothing */
	codec_program *pr = codec_program_walk(l.c, spec_find_program(l.m, "stall"), w, 4, &opt);
	CHECK(pr && pr->stopped && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_LOOP);
	codec_program_free(pr);
	w[0] = 1; /* bit 0 set: it consumes */
	w[1] = 1;
	pr = codec_program_walk(l.c, spec_find_program(l.m, "stall"), w, 2, &opt);
	CHECK(pr && !pr->stopped && pr->nitems == 2);
	codec_program_free(pr);
	/* a count of a billion over one word: the budget stops it */
	pr = codec_program_walk(l.c, spec_find_program(l.m, "spin"), w, 1, &opt);
	CHECK(pr && pr->stopped && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_LOOP);
	codec_program_free(pr);
	/* negative and failing expressions */
	pr = codec_program_walk(l.c, spec_find_program(l.m, "negative"), w, 1, &opt);
	CHECK(pr && pr->stopped && pr->errors[0].kind == CODEC_FRAME_EXPR);
	codec_program_free(pr);
	pr = codec_program_walk(l.c, spec_find_program(l.m, "divide"), w, 1, &opt);
	CHECK(pr && pr->stopped && pr->errors[0].kind == CODEC_FRAME_EXPR &&
	      strstr(pr->errors[0].text, "division by zero"));
	codec_program_free(pr);
	CHECK(spec_find_program(l.m, NULL) == NULL); /* several: a name is needed */
	unload(&l);
}

/* ---------------------------------------------------------- lint */

/* Each tests/framing/bad-*.xml says on its first line which rules it
 * must raise at which lines ("<!-- expect: rule@line ... -->"); the
 * diagnostics must be exactly those (as a set). */
TEST(lint_negative_files)
{
	static const char *const files[] = {
		"bad-root-unknown.xml", "bad-ref-unknown.xml", "bad-field-unknown.xml",
		"bad-size.xml", "bad-part-width.xml", "bad-loop.xml", "bad-repeat.xml",
		"bad-duplicate.xml", "bad-schema.xml", "bad-expr.xml", "bad-display.xml",
		"bad-depth.xml", "bad-unexplained.xml",
	};
	for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
		char path[512], line[512], want[512] = "", got[2048] = "";
		snprintf(path, sizeof path, "%s/%s", FRAMING_DIR, files[f]);
		FILE *fp = fopen(path, "r");
		CHECK(fp != NULL);
		if (!fp)
			continue;
		if (fgets(line, sizeof line, fp)) {
			const char *p = strstr(line, "expect:");
			if (p)
				snprintf(want, sizeof want, "%s", p + 8);
			char *end = strstr(want, " -->");
			if (end)
				*end = 0;
		}
		fclose(fp);
		spec_diags d = {0};
		spec_model *m = spec_load(path, &d);
		CHECK(m != NULL);
		spec_diags_sort(&d);
		for (size_t i = 0; i < d.count; i++) {
			char one[128];
			snprintf(one, sizeof one, "%s%s@%u", *got ? " " : "", d.items[i].rule,
			         d.items[i].loc.line);
			char key[130];
			snprintf(key, sizeof key, "%s ", one + (*got ? 1 : 0));
			char hay[2100];
			snprintf(hay, sizeof hay, "%s ", got);
			if (!strstr(hay, key)) /* the same rule twice on a line counts once */
				strncat(got, one, sizeof got - strlen(got) - 1);
			CHECK(spec_rule_find(d.items[i].rule) != NULL);
		}
		if (strcmp(got, want))
			fprintf(stderr, "%s:\n  got  %s\n  want %s\n", files[f], got, want);
		CHECK_STR(got, want);
		spec_model_free(m);
		spec_diags_free(&d);
	}
}

/* The models load without a finding, their programs are kept with
 * locations, and Mesa's elements are untouched by them. */
TEST(model_loads)
{
	loaded l;
	if (!load(&l, "a2xx-model.xml"))
		return;
	CHECK_INT(spec_program_count(l.m), 1);
	const spec_program *p = spec_find_program(l.m, "a2xx");
	CHECK(p && p == spec_find_program(l.m, NULL) && p->cover);
	CHECK(p && p->loc.line > 0 && p->nsteps == 1 && p->steps[0].kind == SPEC_STEP_REPEAT);
	const spec_step *cf = p ? &p->steps[0].steps[0] : NULL;
	CHECK(cf && cf->kind == SPEC_STEP_PART && cf->bits == 48 && cf->nexports == 4 &&
	      cf->ndisplays == 1 && !strcmp(cf->displays[0].text, "\t{_}"));
	CHECK(cf && cf->root == spec_find_root(l.m, "#cf"));
	CHECK(spec_find_program(l.m, "midgard") == NULL);
	spec_stats st = spec_model_stats(l.m);
	CHECK_INT(st.roots, 3);
	unload(&l);
}

/* ------------------------------------------- the real ISA files */

/* Loads isa/X.xml, whose <program> frames it (file NULL), or a framing
 * file that imports it; false (skipped) when the ISA file is not there.
 * The framing must raise no finding. */
static bool load_real(loaded *l, const char *file, const char *isa)
{
	FILE *f = fopen(isa, "r");
	memset(l, 0, sizeof *l);
	if (!f) {
		SKIP("%s is not there yet", isa);
		return false;
	}
	fclose(f);
	char path[512];
	if (file)
		snprintf(path, sizeof path, "%s/%s", FRAMING_DIR, file);
	else
		snprintf(path, sizeof path, "%s", isa);
	l->m = spec_load(path, &l->d);
	CHECK(l->m != NULL);
	for (size_t i = 0; i < l->d.count; i++)
		if (!strncmp(l->d.items[i].rule, "frame-", 6) ||
		    (file && strstr(l->d.items[i].loc.file, file))) {
			fprintf(stderr, "%s:%u: %s [%s]\n", l->d.items[i].loc.file, l->d.items[i].loc.line,
			        l->d.items[i].message, l->d.items[i].rule);
			CHECK(false);
		}
	l->c = l->m ? codec_new(l->m, &l->d) : NULL;
	CHECK(l->c != NULL);
	return l->c != NULL;
}

/* Drops Mesa's "\t; gl_..." comments (it knows the shader's outputs;
 * the words do not say them). */
static void strip_comments(char *t)
{
	char *o = t;
	for (char *p = t; *p;) {
		if (!strncmp(p, "\t; gl_", 6)) {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		*o++ = *p++;
	}
	*o = 0;
}

TEST(a2xx_real_isa)
{
	char probe[1024];
	if (!testlib_have_shared(testlib_shared_path(probe, sizeof probe, "blob/a2xx.tsv")))
		return;
	loaded l;
	if (!load_real(&l, NULL, ISACHECK_SOURCE_DIR "/isa/a2xx.xml"))
		return;
	static tsv_row rows[512];
	size_t nrows = read_tsv(rows, 512), programs = 0, same_text = 0;
	for (size_t i = 0; i < nrows; i++) {
		if (strcmp(rows[i].kind, "whole_program"))
			continue;
		programs++;
		uint32_t w[512];
		size_t n = testlib_parse_words(rows[i].hex, w, 512);
		codec_program *pr = walk(&l, w, n);
		if (!pr)
			continue;
		CHECK_INT(pr->nerrors, 0);
		char got[256], want[256];
		a2xx_kinds(pr, got, sizeof got);
		mesa_kinds(rows[i].text, want, sizeof want);
		CHECK_STR(got, want);
		static char mesa[8192];
		snprintf(mesa, sizeof mesa, "%s", rows[i].text);
		strip_comments(mesa);
		size_t ml = strlen(mesa);
		/* Mesa ends its last line without a newline in the TSV */
		same_text += !strncmp(pr->text, mesa, ml) && !strcmp(pr->text + ml, "\n");
		codec_program_free(pr);
	}
	CHECK_INT(programs, 11);
	printf("isa/a2xx.xml: %zu whole programs framed as Mesa frames them; %zu print "
	       "exactly Mesa's text (its '; gl_' comments aside)\n", programs, same_text);
	unload(&l);
}

TEST(midgard_real_isa)
{
	loaded l;
	if (!load_real(&l, NULL, ISACHECK_SOURCE_DIR "/isa/midgard.xml"))
		return;
	size_t n = sizeof midgard_words / sizeof *midgard_words;
	codec_program *pr = walk(&l, midgard_words, n);
	if (pr) {
		const want_item want[] = {
			{CODEC_ITEM_PART, 0, 32, "#alu-control", NULL, "control"},
			{CODEC_ITEM_PART, 32, 16, "#reg-word", NULL, "vmul.reg"},
			{CODEC_ITEM_PART, 48, 16, "#reg-word", NULL, "sadd.reg"},
			{CODEC_ITEM_PART, 64, 48, "#vector-alu", NULL, "vmul"},
			{CODEC_ITEM_VALUE, 112, 0, NULL, NULL, "vmul.imm"},
			{CODEC_ITEM_PART, 112, 32, "#scalar-alu", NULL, "sadd"},
			{CODEC_ITEM_PART, 144, 16, "#branch-compact", NULL, "branch"},
			{CODEC_ITEM_PAD, 160, 96, NULL, NULL, NULL},
			{CODEC_ITEM_DATA, 256, 128, NULL, NULL, "constants"},
			{CODEC_ITEM_PART, 384, 128, "#load-store", NULL, "load-store"},
			{CODEC_ITEM_PART, 512, 128, "#texture", NULL, "texture"},
		};
		check_items(pr, want, sizeof want / sizeof *want);
		/* the real file's IMM_HI | IMM_LO equals the model's own join */
		if (pr->nitems > 4)
			CHECK_INT(pr->items[4].value, 3 << 11 | 7 << 8 | 0xd5);
		CHECK(!pr->stopped);
		codec_program_free(pr);
	}
	unload(&l);
}

/* unexplained="REASON" on <data>: loaded into the step, on the model
 * (one step for tags 6 and 7) and the real file (one per tag); the walk
 * and the text are what they were without it (triage reads the reason:
 * test_triage). */
/* The <data> steps named name, in document order, into out[0..cap). */
static size_t data_steps(const spec_step *steps, size_t n, const char *name,
                         const spec_step **out, size_t cap, size_t k)
{
	for (size_t i = 0; i < n; i++) {
		const spec_step *s = &steps[i];
		if (s->kind == SPEC_STEP_DATA && s->name && !strcmp(s->name, name) && k < cap)
			out[k++] = s;
		k = data_steps(s->steps, s->nsteps, name, out, cap, k);
	}
	return k;
}

TEST(unexplained_data)
{
	loaded l;
	if (load(&l, "midgard-model.xml")) {
		const spec_program *p = spec_find_program(l.m, NULL);
		const spec_step *u[4] = {0}, *k[4] = {0};
		CHECK(p);
		CHECK_INT(p ? data_steps(p->steps, p->nsteps, "unknown", u, 4, 0) : 0, 1);
		CHECK_INT(p ? data_steps(p->steps, p->nsteps, "constants", k, 4, 0) : 0, 1);
		CHECK_STR(u[0] ? u[0]->unexplained : NULL, "tag 6 or 7: layout not known");
		CHECK(k[0] && k[0]->unexplained == NULL);
	}
	unload(&l);

	if (!load_real(&l, NULL, ISACHECK_SOURCE_DIR "/isa/midgard.xml"))
		return;
	const spec_program *p = spec_find_program(l.m, NULL);
	const spec_step *u[4] = {0}, *k[4] = {0};
	CHECK(p);
	CHECK_INT(p ? data_steps(p->steps, p->nsteps, "unknown", u, 4, 0) : 0, 2);
	CHECK_INT(p ? data_steps(p->steps, p->nsteps, "constants", k, 4, 0) : 0, 1);
	const spec_step *u6 = u[0], *u7 = u[1];
	CHECK_STR(u6 ? u6->unexplained : NULL, "tag 6 (UNKNOWN_1): layout not known");
	CHECK_STR(u7 ? u7->unexplained : NULL, "tag 7 (UNKNOWN_2): layout not known");
	CHECK(k[0] && k[0]->unexplained == NULL);
	/* a tag-6 and a tag-7 bundle: data items of their own steps, the
	 * program clean and printed as before */
	static const uint32_t w[] = {0x00000006, 0x12345678, 0, 0xdeadbeef, 0x00000017, 0, 0, 0};
	codec_program *pr = walk(&l, w, sizeof w / sizeof *w);
	if (pr) {
		const want_item want[] = {
			{CODEC_ITEM_DATA, 0, 128, NULL, NULL, "unknown"},
			{CODEC_ITEM_DATA, 128, 128, NULL, NULL, "unknown"},
		};
		check_items(pr, want, 2);
		CHECK(pr->nitems == 2 && pr->items[0].step == u6 && pr->items[1].step == u7);
		CHECK(codec_program_clean(pr));
		CHECK_STR(pr->text, "unknown 00000006 12345678 00000000 deadbeef\n\n"
		                    "unknown 00000017 00000000 00000000 00000000\n\n");
		codec_program_free(pr);
	}
	unload(&l);
}

/* ---------------------------------------------------------------- CLI */

static int run_cli(const char *args)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", ISACHECK_BINARY, args);
	return testlib_run(cmd, NULL, 0);
}

/* disasm/decode --program: the exit codes of docs/framing.md. */
TEST(cli_exit_codes)
{
	FILE *f = fopen(ISACHECK_BINARY, "r");
	if (!f) {
		SKIP("%s is not built", ISACHECK_BINARY);
		return;
	}
	fclose(f);
	const char *a2 = FRAMING_DIR "/a2xx-model.xml", *md = FRAMING_DIR "/midgard-model.xml";
	char args[1024];
	snprintf(args, sizeof args, "disasm '%s' --program --hex 00133001 10041000 20000000 1 0 0 "
	         "5 0 01000000 2000 0 0 001f0003 0 02000000", a2);
	CHECK_INT(run_cli(args), 0);
	snprintf(args, sizeof args, "decode '%s' --program=a2xx --hex 00133001 10041000 20000000", a2);
	CHECK_INT(run_cli(args), 2); /* truncated */
	snprintf(args, sizeof args, "decode '%s' --program --format=text --hex 00000016 0 0 0 0 0 0 0", md);
	CHECK_INT(run_cli(args), 2); /* bad tag in the second bundle */
	snprintf(args, sizeof args, "disasm '%s' --program --hex 00000018 0 0 1", md);
	CHECK_INT(run_cli(args), 1); /* ALU_4 with no unit: its padding is not zero */
	snprintf(args, sizeof args, "disasm '%s' --program=nothing --hex 1", md);
	CHECK_INT(run_cli(args), 2);
	snprintf(args, sizeof args, "disasm '%s' --program --hex 1", FRAMING_DIR "/loops.xml");
	CHECK_INT(run_cli(args), 2); /* several programs: name one */
}

/* An inner binding hides an outer one of the same name until its scope
 * (group, repeat iteration) ends; builtins and :hex in texts.  The "names" program is walked by the codec of another model
 * too (its names resolved for that walk alone), to the same text. */
TEST(scopes_and_names)
{
	loaded l, other;
	if (!load(&l, "scopes.xml"))
		return;
	if (!load(&other, "scopes.xml")) {
		unload(&l);
		return;
	}
	uint32_t w[2] = {5, 6};
	codec_disasm_options opt = {.show_errors = true};
	codec_program *pr = codec_program_walk(l.c, spec_find_program(l.m, "scopes"), w, 2, &opt);
	CHECK(pr && !pr->nerrors);
	if (pr)
		CHECK_STR(pr->text, "outer n=1 pos=0 left=0x40 end=64\n"
		                    "iteration 0: n=10\n"
		                    "w 5 n=0x14 pos=32\n"
		                    "after the group: n=10\n"
		                    "iteration 1: n=11\n"
		                    "w 6 n=0x16 pos=64\n"
		                    "after the group: n=11\n"
		                    "after the repeat: n=1\n");
	codec_program_free(pr);
	const char *want = "k=0 a=3 a*2=0x3\nk=1 a=4 a*2=0x4\nk=2 a=5 a*2=0x5\na=3 end=0\n";
	const spec_program *names = spec_find_program(other.m, "names");
	codec_program *mine = codec_program_walk(other.c, names, NULL, 0, &opt);
	codec_program *foreign = codec_program_walk(l.c, names, NULL, 0, &opt);
	CHECK(mine && foreign);
	if (mine && foreign) {
		CHECK_STR(mine->text, want);
		CHECK_STR(foreign->text, want);
	}
	codec_program_free(mine);
	codec_program_free(foreign);
	/* through a walker, between walks of l's own program: its cache of
	 * the name table's answers is the foreign table's for that walk only */
	codec_walker *wk = codec_walker_new(l.c, 4);
	CHECK(wk != NULL);
	for (int i = 0; wk && i < 2; i++) {
		foreign = codec_walker_walk(wk, names, NULL, 0, &opt);
		CHECK(foreign && !strcmp(foreign->text, want));
		codec_program_free(foreign);
		pr = codec_walker_walk(wk, spec_find_program(l.m, "scopes"), w, 2, &opt);
		CHECK(pr && strstr(pr->text, "w 6 n=0x16 pos=64\nafter the group: n=11\n"));
		codec_program_free(pr);
	}
	codec_walker_free(wk);
	unload(&other);
	unload(&l);
}

/* Expressions of the shapes the walk evaluates without the compiled
 * program (a lone name, !name, a name and a number or a name under a
 * binary operation, name && name, a 0 before &&, binary operations over
 * names and numbers alone as operations on slots), and
 * ones that only look like them, give what spec_expr_eval gives; an
 * unbound name is read only where evaluation reaches it. */
TEST(expression_shapes)
{
	loaded l;
	if (!load(&l, "scopes.xml"))
		return;
	codec_disasm_options opt = {.show_errors = true};
	codec_program *pr = codec_program_walk(l.c, spec_find_program(l.m, "shapes"), NULL, 0, &opt);
	CHECK(pr && !pr->nerrors);
	if (pr)
		CHECK_STR(pr->text, "1 0 1 1 2 0 0 0 3 0 1\n"
		                    "0 1 3 0 1 0 11 1 1 0 1\n"
		                    "-2 1 9 1 384 4 8 3 0\n"
		                    "-9223372036854775808 0x8000000000000000 0x0 -42 "
		                    "0xffffffffffffffd6 0x3 0\n"
		                    "384 0 1 -2 24 -9223372036854775808 4\n");
	codec_program_free(pr);
	/* a shape whose operation fails: the walk's error, the tree's message */
	const char *failing[] = {"dividing", "dividing-k", "dividing-nodes"};
	for (size_t i = 0; i < 3; i++) {
		pr = codec_program_walk(l.c, spec_find_program(l.m, failing[i]), NULL, 0, &opt);
		CHECK(pr && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_EXPR);
		if (pr && pr->nerrors)
			CHECK(strstr(pr->errors[0].text, i == 1 ? "modulo by zero" : "division by zero") !=
			      NULL);
		codec_program_free(pr);
	}
	unload(&l);
}

/* cover="true", every way its check goes: items in order that tile
 * the input (clean), leave a gap between them or past the last (one
 * UNCOVERED at the gap), or both (two: the walk raises both, the quiet
 * walk the first), overlap (OVERLAP at the later item; with bits past
 * them, UNCOVERED too), and items out of order that tile it; the walk
 * and the quiet walk alike, and as the bit-by-bit oracle (cover_agrees)
 * has it. */
TEST(cover_checks)
{
	loaded l;
	if (!load(&l, "scopes.xml"))
		return;
	codec_walker *q = codec_walker_new(l.c, 4);
	CHECK(q != NULL);
	static const uint32_t w[4] = {1, 2, 3, 4};
	codec_disasm_options opt = {.show_errors = true};
	static const struct {
		const char *program;
		size_t nwords;
		codec_frame_error_kind kind; /* the first error; CODEC_FRAME_EXPR: none */
		size_t bit;
		size_t nerrors;               /* the walk's */
	} cases[] = {
		{"tiled", 2, CODEC_FRAME_EXPR, 0, 0},          {"tiled", 3, CODEC_FRAME_UNCOVERED, 64, 1},
		{"gapped", 3, CODEC_FRAME_UNCOVERED, 32, 1},   {"gapped", 4, CODEC_FRAME_UNCOVERED, 32, 2},
		{"overlapping", 2, CODEC_FRAME_OVERLAP, 0, 1}, {"overlapping", 3, CODEC_FRAME_OVERLAP, 0, 2},
		{"shuffled", 3, CODEC_FRAME_EXPR, 0, 0},       {"shuffled", 4, CODEC_FRAME_UNCOVERED, 96, 1},
	};
	for (size_t i = 0; q && i < sizeof cases / sizeof *cases; i++) {
		const spec_program *p = spec_find_program(l.m, cases[i].program);
		CHECK(p != NULL);
		codec_program *pr = codec_program_walk(l.c, p, w, cases[i].nwords, &opt);
		const codec_program *r = codec_walker_walk_quiet(q, p, w, cases[i].nwords, &opt);
		CHECK(pr && r && cover_agrees(pr, cases[i].nwords * 32));
		if (cases[i].kind == CODEC_FRAME_EXPR) {
			CHECK(pr && !pr->nerrors && r && !r->nerrors);
		} else {
			CHECK(pr && pr->nerrors == cases[i].nerrors &&
			      pr->errors[0].kind == cases[i].kind && pr->errors[0].bit == cases[i].bit);
			CHECK(r && r->nerrors == 1 && r->errors[0].kind == cases[i].kind &&
			      r->errors[0].bit == cases[i].bit);
		}
		codec_program_free(pr);
	}
	codec_walker_free(q);
	unload(&l);
}

/* The quiet walk (codec_walker_walk_quiet) against the walk: errors
 * only printing raises (a display's or suffix's when= failing) are the
 * walk's alone; every other error the quiet walk finds too, and it keeps
 * nothing of one walk in the next (a clean walk after one with an error
 * is clean).  A part of a program of another model is rejected
 * (the codec cannot decode that model's roots). */
TEST(quiet_walks)
{
	loaded l;
	if (!load(&l, "scopes.xml"))
		return;
	codec_walker *q = codec_walker_new(l.c, 4);
	CHECK(q != NULL);
	uint32_t w[2] = {0x1234, 0};
	codec_disasm_options opt = {.show_errors = true};
	const char *names[] = {"printing", "suffixing"};
	for (size_t i = 0; q && i < 2; i++) {
		const spec_program *p = spec_find_program(l.m, names[i]);
		codec_program *pr = codec_program_walk(l.c, p, w, 1, &opt);
		CHECK(pr && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_EXPR);
		if (pr && pr->nerrors)
			CHECK(strstr(pr->errors[0].text, "by zero") != NULL);
		codec_program_free(pr);
		const codec_program *r = codec_walker_walk_quiet(q, p, w, 1, &opt);
		CHECK(r && !r->nerrors && r->nitems == 1 && r->nparts == 1 && !strcmp(r->text, ""));
		/* no words: the part is truncated, an error of framing */
		r = codec_walker_walk_quiet(q, p, w, 0, &opt);
		CHECK(r && r->nerrors == 1 && r->errors[0].kind == CODEC_FRAME_TRUNCATED &&
		      r->errors[0].fatal && r->stopped && !strcmp(r->errors[0].text, ""));
		r = codec_walker_walk_quiet(q, p, w, 1, &opt);
		CHECK(r && !r->nerrors && !r->stopped && r->nitems == 1);
	}
	/* no parts: clean */
	const codec_program *r = codec_walker_walk_quiet(q, spec_find_program(l.m, "names"), NULL,
	                                                 0, &opt);
	CHECK(r && !r->nerrors && r->nparts == 0);
	/* a program of another model: its names are resolved for the walk,
	 * but its parts' roots are of that model, which this codec cannot
	 * decode: rejected */
	loaded other;
	if (load(&other, "scopes.xml")) {
		const spec_program *p = spec_find_program(other.m, "printing");
		codec_program *pr = codec_program_walk(l.c, p, w, 1, &opt);
		CHECK(pr && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_REJECTED);
		if (pr && pr->nerrors)
			CHECK(strstr(pr->errors[0].text, "another model") != NULL);
		codec_program_free(pr);
		r = codec_walker_walk_quiet(q, p, w, 1, &opt);
		CHECK(r && r->nerrors == 1 && r->errors[0].kind == CODEC_FRAME_REJECTED);
		pr = codec_program_walk(other.c, p, w, 1, &opt);
		CHECK(pr && pr->nerrors == 1 && pr->errors[0].kind == CODEC_FRAME_EXPR);
		codec_program_free(pr);
		unload(&other);
	}
	codec_walker_free(q);
	unload(&l);
}

/* Two programs' parts compared field by field; what says where not. */
static bool same_walks(const codec_program *a, const codec_program *b, char *what, size_t len)
{
	if (a->nitems != b->nitems || a->nerrors != b->nerrors || a->stopped != b->stopped ||
	    a->nparts != b->nparts || a->nclean != b->nclean || a->textlen != b->textlen ||
	    strcmp(a->text, b->text)) {
		snprintf(what, len, "counts or text");
		return false;
	}
	for (size_t i = 0; i < a->nitems; i++) {
		if (!same_item(&a->items[i], &b->items[i])) {
			snprintf(what, len, "item %zu", i);
			return false;
		}
	}
	for (size_t i = 0; i < a->nerrors; i++)
		if (a->errors[i].kind != b->errors[i].kind || a->errors[i].bit != b->errors[i].bit ||
		    a->errors[i].fatal != b->errors[i].fatal || strcmp(a->errors[i].text, b->errors[i].text)) {
			snprintf(what, len, "error %zu", i);
			return false;
		}
	return true;
}

/* A walker with a memory of parts walks and re-encodes every program as
 * codec_program_walk and codec_program_reencode do: programs that share
 * most parts (each a few words changed from the one before, as a fuzzer
 * mutates), a memory small enough that parts also lose their slots, on
 * the synthetic models and our a2xx and Midgard; its walks in the room
 * of programs given back (codec_walker_recycle) of other sizes. */
/* A quiet walk through a walker with a memory goes on from the last
 * one's trail (codec_walker_walk_quiet): each seed of the program
 * round trips' corpus (corpus/roundtrip_program_<isa>), then 30 inputs
 * each the last with a bit or a word changed, a word put in or taken
 * out, or the end cut or grown, as a fuzz target's are, walked quietly
 * through one walker, agree with a fresh walk of each; and most of them
 * went on from the trail, some of them across a change of size. */
TEST(quiet_walks_go_on)
{
	const char *isas[] = {"a2xx", "midgard"};
	uint64_t seed = 0x2545f4914f6cdd1du;
	for (size_t k = 0; k < 2; k++) {
		char path[512];
		loaded l;
		snprintf(path, sizeof path, "%s/isa/%s.xml", ISACHECK_SOURCE_DIR, isas[k]);
		if (!load_real(&l, NULL, path))
			continue;
		codec_walker *wk = codec_walker_new(l.c, 6);
		CHECK(wk != NULL);
		const spec_program *prog = spec_find_program(l.m, NULL);
		snprintf(path, sizeof path, "%s/corpus/roundtrip_program_%s", ISACHECK_SOURCE_DIR,
		         isas[k]);
		DIR *dir = opendir(path);
		CHECK(dir != NULL);
		size_t seeds = 0, walks = 0, framed = 0, resized = 0;
		for (struct dirent *e; wk && dir && (e = readdir(dir));) {
			static uint32_t w[1024];
			char file[1024];
			snprintf(file, sizeof file, "%s/%s", path, e->d_name);
			FILE *f = e->d_name[0] != '.' ? fopen(file, "rb") : NULL;
			size_t len = f ? fread(w, 4, 1024, f) : 0;
			if (f)
				fclose(f);
			if (!len)
				continue;
			seeds++;
			for (int round = 0; round < 31; round++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				size_t at = (size_t)(seed >> 20) % len, was = len;
				if (round && round % 5 == 0) {
					w[at] = (uint32_t)(seed >> 40) & 0xff;
				} else if (round % 7 == 3 && len < 1024) { /* a word put in */
					memmove(w + at + 1, w + at, (len - at) * sizeof *w);
					w[at] = (uint32_t)(seed >> 40) & 0xff;
					len++;
				} else if (round % 7 == 6 && len > 1) { /* a word taken out */
					memmove(w + at, w + at + 1, (len - at - 1) * sizeof *w);
					len--;
				} else if (round % 11 == 4 && len > 1) { /* the end cut */
					len -= 1 + at % 2;
				} else if (round % 11 == 8 && len < 1023) { /* the end grown */
					w[len++] = 0;
					w[len++] = (uint32_t)(seed >> 40) & 0xff;
				} else if (round) {
					w[at] ^= 1u << (seed >> 59);
				}
				/* the options change now and then: the trail is of others */
				codec_disasm_options opt = {.show_errors = round == 17};
				codec_program *a = codec_program_walk(l.c, prog, w, len, &opt);
				CHECK(a != NULL);
				char what[80];
				unsigned long long before = codec_walker_get_stats(wk).resumed;
				const codec_program *q = codec_walker_walk_quiet(wk, prog, w, len, &opt);
				resized += len != was && codec_walker_get_stats(wk).resumed > before;
				if (a && !quiet_agrees(a, q, what, sizeof what)) {
					fprintf(stderr, "%s, %s, round %d: the quiet walk from the trail differs "
					        "(%s)\n", isas[k], e->d_name, round, what);
					CHECK(false);
				}
				walks++;
				framed += a && !a->nerrors;
				codec_program_free(a);
			}
		}
		if (dir)
			closedir(dir);
		codec_walker_stats st = codec_walker_get_stats(wk);
		printf("%s: %zu seeds, %zu quiet walks (%zu framed), %llu went on from the last's "
		       "trail (%zu of another size), keeping %llu items; %llu joined the last walk "
		       "after a change, taking %llu items\n", isas[k], seeds, walks, framed,
		       st.resumed, resized, st.items_kept, st.joined, st.items_joined);
		CHECK(seeds > 0 && framed > walks / 10 && resized > 0);
		CHECK(st.resumed > walks / 2 && st.items_kept > st.resumed);
		CHECK(st.joined > walks / 10 && st.items_joined > st.joined);
		codec_walker_free(wk);
		unload(&l);
	}
}

/* The trail across sizes (tests/framing/trail.xml): inputs of 8, 9, 7,
 * 40, 3, 8 and 8 words, the same words where they overlap, walked quietly
 * through one walker after one another, agree with fresh walks: a walk
 * before a mark that read the size, or whose step budget a shorter input
 * would have spent, is not carried over; "words" shows that an input of
 * another size still goes on where it can. */
TEST(trail_across_sizes)
{
	loaded l;
	if (!load(&l, "trail.xml"))
		return;
	static const size_t sizes[] = {8, 9, 7, 40, 3, 8, 8};
	static uint32_t w[40];
	for (size_t i = 0; i < 40; i++)
		w[i] = (uint32_t)(i * 0x9e3779b9u);
	const char *progs[] = {"sized", "spent", "left", "words"};
	for (size_t p = 0; p < 4; p++) {
		const spec_program *prog = spec_find_program(l.m, progs[p]);
		codec_walker *wk = codec_walker_new(l.c, 6);
		CHECK(prog != NULL && wk != NULL);
		for (size_t k = 0; prog && wk && k < sizeof sizes / sizeof *sizes; k++) {
			codec_disasm_options opt = {.show_errors = true};
			codec_program *a = codec_program_walk(l.c, prog, w, sizes[k], &opt);
			char what[80];
			CHECK(a != NULL);
			if (a && !quiet_agrees(a, codec_walker_walk_quiet(wk, prog, w, sizes[k], &opt),
			                       what, sizeof what)) {
				fprintf(stderr, "%s, %zu words after %zu: the quiet walk differs (%s)\n",
				        progs[p], sizes[k], k ? sizes[k - 1] : 0, what);
				CHECK(false);
			}
			codec_program_free(a);
		}
		codec_walker_stats st = codec_walker_get_stats(wk);
		printf("trail across sizes, %s: %llu of %zu walks went on from the trail, keeping "
		       "%llu items\n", progs[p], st.resumed, sizeof sizes / sizeof *sizes - 1,
		       st.items_kept);
		/* "sized" and "left" read the size before every mark but the
		 * first: only the input of the same size keeps items; "words"
		 * keeps the words before the first that differs or is past
		 * either end (8, 7, 7, 3, 3, 8) */
		if (p == 0 || p == 2)
			CHECK_INT(st.items_kept, 8);
		if (p == 3)
			CHECK_INT(st.items_kept, 8 + 7 + 7 + 3 + 3 + 8);
		codec_walker_free(wk);
	}
	unload(&l);
}

/* A quiet walk joins the last one where it reaches one of that walk's
 * marks in the same state, the words read after it unchanged
 * (tests/framing/trail.xml, "budget": 8 words, a step budget of 5,120;
 * a word of N costs 2N + 3 steps).  The inputs differ in word 0 alone:
 * 1 and 2 leave room for the 2,000 steps of word 1, 600 does not (a
 * LOOP error in the second iteration), so a walk after one of the
 * others must not take its end; the bits above N change nothing. */
/* The walks of "trail.xml"'s program name over 8 words that differ from
 * walk to walk in word 0 alone (heads): each walked in full afresh and
 * quietly through one walker, which must agree.  The number of fresh
 * walks with an error, of those that ran out of steps, and of quiet ones
 * that joined the last. */
static void walks_of_heads(const loaded *l, const char *name, const uint32_t *heads, size_t n,
                           size_t *errors, size_t *loops, unsigned long long *joined)
{
	const spec_program *prog = spec_find_program(l->m, name);
	codec_walker *wk = codec_walker_new(l->c, 6);
	CHECK(prog != NULL && wk != NULL);
	uint32_t w[8] = {0, 2000, 0, 3, 0, 0, 1, 0};
	*errors = *loops = 0;
	for (size_t k = 0; prog && wk && k < n; k++) {
		w[0] = heads[k];
		codec_disasm_options opt = {.show_errors = true};
		codec_program *a = codec_program_walk(l->c, prog, w, 8, &opt);
		char what[80];
		CHECK(a != NULL);
		if (a && !quiet_agrees(a, codec_walker_walk_quiet(wk, prog, w, 8, &opt), what,
		                       sizeof what)) {
			fprintf(stderr, "%s, word 0 %#x after %#x: the quiet walk differs (%s)\n", name,
			        (unsigned)heads[k], k ? (unsigned)heads[k - 1] : 0, what);
			CHECK(false);
		}
		*errors += a && a->nerrors;
		*loops += a && a->nerrors && a->errors[0].kind == CODEC_FRAME_LOOP;
		codec_program_free(a);
	}
	codec_walker_stats st = codec_walker_get_stats(wk);
	*joined = st.joined;
	printf("trail joins, %s: %llu of %zu walks joined the last, taking %llu items; %zu ran "
	       "out of steps\n", name, st.joined, n - 1, st.items_joined, *loops);
	codec_walker_free(wk);
}

TEST(trail_joins)
{
	loaded l;
	if (!load(&l, "trail.xml"))
		return;
	size_t errors, loops;
	unsigned long long joined;
	static const uint32_t first[] = {1, 600, 1, 2, 0x70001, 600, 600, 2, 1};
	walks_of_heads(&l, "budget", first, sizeof first / sizeof *first, &errors, &loops, &joined);
	/* 1 after 1 (after 600, 1 may not join), 2 after 1, 0x70001 after 2,
	 * 600 after 600, 2 after 600 (it may not), 1 after 2 */
	CHECK_INT(errors, 3);
	CHECK_INT(loops, 3);
	CHECK_INT(joined, 4);
	/* "carry": word 0's N, bound before the repeat, decides whether its
	 * words are parts or data; only 0x10001 after 1 (N the same) joins */
	static const uint32_t heads[] = {1, 5, 1, 0x10001};
	walks_of_heads(&l, "carry", heads, sizeof heads / sizeof *heads, &errors, &loops, &joined);
	CHECK_INT(errors, 0);
	CHECK_INT(joined, 1);
	unload(&l);
}

/* Whether two decodings list the same leaf, values and issues. */
static bool same_decoding(const codec_decoded *a, const codec_decoded *b)
{
	if (a->leaf != b->leaf || a->root != b->root || a->gen != b->gen ||
	    a->nvalues != b->nvalues || a->nissues != b->nissues)
		return false;
	for (size_t i = 0; i < a->nvalues; i++) {
		const codec_value *x = &a->values[i], *y = &b->values[i];
		if (x->field != y->field || x->owner != y->owner || x->kase != y->kase ||
		    x->raw != y->raw || x->value != y->value || x->depth != y->depth || x->sub != y->sub)
			return false;
	}
	for (size_t i = 0; i < a->nissues; i++)
		if (a->issues[i].kind != b->issues[i].kind || strcmp(a->issues[i].text, b->issues[i].text))
			return false;
	return true;
}

/* The parts of walk b the walker wk gives a decoding of
 * (codec_walker_decoding) decode so afresh; none at another generation.
 * Adds to *given how many it gave. */
static void decodings_agree(const codec *c, codec_walker *wk, const codec_program *b,
                            size_t *given)
{
	static codec_value values[512];
	codec_issue issues[16];
	for (size_t i = 0; i < b->nitems; i++) {
		const codec_item *it = &b->items[i];
		const codec_decoded *known = codec_walker_decoding(wk, it, 0);
		CHECK(codec_walker_decoding(wk, it, 1) == NULL);
		if (!known)
			continue;
		CHECK(it->kind == CODEC_ITEM_PART);
		uint64_t in[SPEC_MAX_BITS / 64] = {0};
		memcpy(in, it->w, (it->bits + 63) / 64 * sizeof *in);
		codec_decoded d = {.values = values, .cap_values = 512, .issues = issues,
		                   .cap_issues = 16};
		codec_decode(c, it->root, in, 0, &d);
		CHECK(same_decoding(known, &d));
		(*given)++;
	}
}

TEST(walker_remembers)
{
	const char *isas[] = {"a2xx-model.xml", "midgard-model.xml", "a2xx.xml", "midgard.xml"};
	uint64_t seed = 0x853c49e6748fea9bu;
	size_t walks = 0, checked = 0, framed = 0, given = 0;
	codec_walker_stats all = {0};
	for (size_t k = 0; k < 4; k++) {
		char path[512];
		loaded l;
		bool ok;
		if (k < 2) {
			ok = load(&l, isas[k]);
		} else {
			snprintf(path, sizeof path, "%s/isa/%s", ISACHECK_SOURCE_DIR, isas[k]);
			ok = load_real(&l, NULL, path);
		}
		if (!ok)
			continue;
		codec_walker *wk = codec_walker_new(l.c, 6), *bare = codec_walker_new(l.c, 0);
		CHECK(wk != NULL && bare != NULL);
		static uint32_t w[96], w1[96], w2[96];
		size_t n = 96;
		memset(w, 0, sizeof w);
		for (int round = 0; wk && round < 1500; round++) {
			/* a few words changed, with small values often (addresses,
			 * counts and tags the framing follows) */
			for (int c = 0; c < 1 + round % 3; c++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				uint32_t v = (uint32_t)(seed >> 32);
				w[(seed >> 17) % n] = round % 4 ? v & 0x0000f0ff : v;
			}
			if (round % 200 == 0)
				memset(w, 0, sizeof w);
			size_t len = 4 + (size_t)(seed >> 40) % (n - 4);
			for (size_t p = 0; p < spec_program_count(l.m); p++) {
				const spec_program *prog = spec_program_at(l.m, p);
				codec_disasm_options opt = {.show_errors = round % 2};
				codec_program *a = codec_program_walk(l.c, prog, w, len, &opt);
				codec_program *b = codec_walker_walk(wk, prog, w, len, &opt);
				CHECK(a && b);
				char what[80];
				if (a && b && !same_walks(a, b, what, sizeof what)) {
					fprintf(stderr, "%s, program %zu, round %d: the walker's walk differs (%s)\n",
					        isas[k], p, round, what);
					CHECK(false);
				}
				walks++;
				if (b)
					decodings_agree(l.c, wk, b, &given);
				/* the quiet walk, through the memory and without, agrees
				 * (no display of these specs fails) */
				for (int m = 0; a && m < 2; m++)
					if (!quiet_agrees(a, codec_walker_walk_quiet(m ? bare : wk, prog, w, len, &opt),
					                  what, sizeof what)) {
						fprintf(stderr, "%s, program %zu, round %d: the quiet walk %s differs "
						        "(%s)\n", isas[k], p, round, m ? "without memory" : "", what);
						CHECK(false);
					}
				framed += a && !a->nerrors;
				/* re-encoded twice through the walker: the second time
				 * from its memory where the first kept the parts */
				for (int twice = 0; a && b && twice < 2; twice++) {
					char e1[300] = "", e2[300] = "";
					bool r1 = codec_program_reencode(l.c, a, 0, w1, len, e1, sizeof e1);
					bool r2 = codec_walker_reencode(wk, b, 0, w2, len, e2, sizeof e2);
					CHECK(r1 == r2);
					CHECK_STR(e1, e2);
					if (r1 && r2)
						CHECK(!memcmp(w1, w2, len * sizeof *w1));
					checked += r1;
				}
				/* the walker's next walks take b's room (and now and then
				 * a's, another walker's): they still agree with fresh ones */
				codec_walker_recycle(wk, b);
				if (round % 5 == 0)
					codec_walker_recycle(wk, a);
				else
					codec_program_free(a);
			}
		}
		codec_walker_stats st = codec_walker_get_stats(wk);
		all.asked += st.asked;
		all.recalled += st.recalled;
		all.enc_asked += st.enc_asked;
		all.enc_recalled += st.enc_recalled;
		all.shared += st.shared;
		codec_walker_free(wk);
		codec_walker_free(bare);
		unload(&l);
	}
	printf("walker: %zu walks (%zu framed cleanly), %zu re-encoded; the memory recalled %llu of %llu parts walked, "
	       "%llu of %llu re-encoded; %zu recent decodings given out and compared, %llu shared in "
	       "all\n", walks, framed, checked, all.recalled, all.asked, all.enc_recalled,
	       all.enc_asked, given, all.shared);
	CHECK(walks >= 6000);
	CHECK(checked > 100);
	CHECK(framed >= 10 && framed < walks);
	/* the memory was used, and parts were decoded afresh too */
	CHECK(all.recalled > all.asked / 4 && all.recalled < all.asked);
	CHECK(all.enc_recalled > 0 && all.enc_recalled < all.enc_asked);
	/* decodings of recent walks were given out and re-encoded */
	CHECK(given > 100);
	CHECK(all.shared > given);
	/* no codec, or too large a memory: no walker */
	CHECK(codec_walker_new(NULL, 4) == NULL);
	CHECK(codec_walker_new((const codec *)&all, 21) == NULL);
	CHECK(codec_walker_walk_quiet(NULL, NULL, NULL, 0, NULL) == NULL);
}

/* codec_program_encode against the same worked out bit by bit: items of
 * 1 to 200 bits at random places in 12 words (their words' bits past
 * their size set at random), some put on bits an earlier item put, with
 * the same values there or not, some past the end, some VALUE items
 * (which put nothing); the words where it accepts them, the message
 * (the first item, and its lowest bit, that differs from an earlier
 * item's) where it does not. */
TEST(program_encode_as_bits)
{
	enum { NW = 12, NI = 6 };
	uint64_t seed = 0x6a09e667f3bcc909u;
	unsigned accepted = 0, clashed = 0, outside = 0;
	for (int round = 0; round < 4000; round++) {
		codec_item items[NI];
		uint64_t bits[NI][4];
		uint8_t val[NW * 32], set[NW * 32];
		memset(val, 0, sizeof val);
		memset(set, 0, sizeof set);
		char want[200] = "", err[200] = "";
		uint32_t words[NW], expect[NW] = {0};
		size_t ni = 1 + round % NI;
		for (size_t i = 0; i < ni; i++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			unsigned n = 1 + (unsigned)(seed >> 33) % 200;
			size_t pos = (size_t)(seed >> 12) % (NW * 32 + 8);
			for (int k = 0; k < 4; k++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				bits[i][k] = seed ^ seed >> 29;
			}
			/* half the time, the bits an earlier item put where this one
			 * puts them too */
			for (unsigned t = 0; round % 2 && t < n && pos + t < NW * 32; t++)
				if (set[pos + t] && (seed >> 7) % 8) {
					bits[i][t / 64] &= ~((uint64_t)1 << (t % 64));
					bits[i][t / 64] |= (uint64_t)val[pos + t] << (t % 64);
				}
			items[i] = (codec_item){.kind = (seed >> 40) % 9 ? CODEC_ITEM_PART : CODEC_ITEM_VALUE,
			                        .bit = pos, .bits = n, .w = bits[i]};
			if (want[0] || items[i].kind == CODEC_ITEM_VALUE)
				continue;
			if (pos + n > NW * 32) {
				snprintf(want, sizeof want, "item %zu (bits %zu..%zu) lies outside the %d words", i,
				         pos, pos + n - 1, NW);
				continue;
			}
			for (unsigned t = 0; t < n && !want[0]; t++) {
				unsigned v = bits[i][t / 64] >> (t % 64) & 1;
				if (set[pos + t] && val[pos + t] != v)
					snprintf(want, sizeof want,
					         "item %zu sets bit %zu to %u, which another item set to %u", i,
					         pos + t, v, val[pos + t]);
				val[pos + t] = (uint8_t)v;
				set[pos + t] = 1;
			}
		}
		for (size_t b = 0; b < NW * 32; b++)
			expect[b / 32] |= (uint32_t)val[b] << (b % 32);
		bool ok = codec_program_encode(items, ni, words, NW, err, sizeof err);
		CHECK(ok == !want[0]);
		if (ok)
			CHECK(!memcmp(words, expect, sizeof words));
		else if (strcmp(err, want)) {
			fprintf(stderr, "round %d: \"%s\", wanted \"%s\"\n", round, err, want);
			CHECK(false);
		}
		accepted += ok;
		clashed += !ok && strstr(want, "sets bit") != NULL;
		outside += !ok && strstr(want, "outside") != NULL;
	}
	printf("program encode: %u accepted, %u with a bit put two ways, %u past the end\n",
	       accepted, clashed, outside);
	CHECK(accepted > 500 && clashed > 500 && outside > 500);
}

/* A part with more values than the walker keeps of a recent decoding
 * (256): a spec written here whose 64-bit part lists 64 bit fields and
 * 200 derived ones, the last exported and printed.  Decoded into the
 * room of the recent decodings, such a part fills it and is decoded
 * again with the walk's room; so the walker's walks, quiet or not,
 * agree with fresh ones (the export read from value 263) and give out
 * no decoding of it (codec_walker_decoding), but do of a part with few
 * values. */
TEST(walker_wide_parts)
{
	char path[] = "/tmp/isacheck-wide-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "<isa>\n<bitset name=\"#wide\" size=\"64\">\n<display>w {B0}</display>\n");
	for (int i = 0; i < 64; i++)
		fprintf(f, "<field name=\"B%d\" pos=\"%d\" type=\"uint\"/>\n", i, i);
	for (int i = 0; i < 200; i++)
		fprintf(f, "<derived name=\"D%d\" type=\"uint\"><expr>{B%d} + %d</expr></derived>\n", i,
		        i % 64, i);
	fprintf(f, "</bitset>\n<bitset name=\"wide\" extends=\"#wide\"/>\n"
	           "<bitset name=\"#narrow\" size=\"32\">\n<display>n {V}</display>\n"
	           "<field name=\"V\" low=\"0\" high=\"31\" type=\"hex\"/>\n</bitset>\n"
	           "<bitset name=\"narrow\" extends=\"#narrow\"/>\n"
	           "<program name=\"p\">\n<repeat name=\"i\" to-end=\"true\">\n"
	           "<part name=\"x\" root=\"#wide\"><export field=\"D199\" as=\"last\"/>"
	           "<display>{_} last={last}</display></part>\n"
	           "<part name=\"y\" root=\"#narrow\" when=\"{last} %% 2\"/>\n"
	           "</repeat>\n</program>\n</isa>\n");
	fclose(f);
	loaded l = {0};
	l.m = spec_load(path, &l.d);
	remove(path);
	CHECK(l.m != NULL && l.d.count == 0);
	l.c = l.m ? codec_new(l.m, &l.d) : NULL;
	CHECK(l.c != NULL);
	if (!l.c) {
		unload(&l);
		return;
	}
	const spec_program *prog = spec_find_program(l.m, NULL);
	codec_walker *wk = codec_walker_new(l.c, 6);
	CHECK(prog != NULL && wk != NULL);
	uint64_t seed = 0x9e3779b97f4a7c15u;
	size_t wide = 0, narrow = 0, given = 0, nvalues = 0;
	for (int round = 0; prog && wk && round < 200; round++) {
		uint32_t w[12];
		for (size_t k = 0; k < 12; k++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			w[k] = (uint32_t)(seed >> 32) & (round % 2 ? 0xffffffffu : 0x3u);
		}
		codec_disasm_options opt = {.show_errors = round % 3 == 0};
		codec_program *a = codec_program_walk(l.c, prog, w, 12, &opt);
		codec_program *b = codec_walker_walk(wk, prog, w, 12, &opt);
		char what[80];
		CHECK(a && b);
		if (a && b && !same_walks(a, b, what, sizeof what)) {
			fprintf(stderr, "round %d: the walker's walk differs (%s)\n%s\n%s\n", round, what,
			        a->text, b->text);
			CHECK(false);
		}
		for (size_t i = 0; b && i < b->nitems; i++) {
			const codec_item *it = &b->items[i];
			if (it->kind != CODEC_ITEM_PART || !it->leaf)
				continue;
			const codec_decoded *d = codec_walker_decoding(wk, it, 0);
			if (it->bits == 64) {
				wide++;
				CHECK(d == NULL);
			} else if (d) {
				given++;
				nvalues += d->nvalues;
			} else {
				narrow++;
			}
		}
		if (a && !quiet_agrees(a, codec_walker_walk_quiet(wk, prog, w, 12, &opt), what,
		                       sizeof what)) {
			fprintf(stderr, "round %d: the quiet walk differs (%s)\n", round, what);
			CHECK(false);
		}
		codec_program_free(a);
		codec_walker_recycle(wk, b);
	}
	printf("wide parts: %zu walked, none given out; %zu narrow ones given out (%zu values), "
	       "%zu recalled\n", wide, given, nvalues, narrow);
	CHECK(wide > 100 && given > 10 && nvalues == given);
	codec_walker_free(wk);
	unload(&l);
}

/* A part's text comes from the walk that decodes it (codec_decode_text)
 * where a leaf matched; the walk printed it apart before, as
 * codec_disasm_root does: the two agree on random words of every root
 * of our a2xx and Midgard, with and without error suffixes. */
TEST(part_text_one_walk)
{
	const char *isas[] = {"a2xx.xml", "midgard.xml"};
	uint64_t seed = 0x2545F4914F6CDD1Du;
	size_t compared = 0;
	for (size_t k = 0; k < 2; k++) {
		char path[512];
		snprintf(path, sizeof path, "%s/isa/%s", ISACHECK_SOURCE_DIR, isas[k]);
		loaded l;
		if (!load_real(&l, NULL, path))
			continue;
		static codec_value values[512];
		codec_issue issues[16];
		for (size_t r = 0; r < l.m->nroots; r++)
			for (int i = 0; i < 3000; i++) {
				uint64_t w[SPEC_MAX_BITS / 64] = {0};
				for (unsigned j = 0; j < (l.m->roots[r].bitset->size + 63) / 64; j++) {
					seed = seed * 6364136223846793005u + 1442695040888963407u;
					w[j] = seed ^ seed >> 29;
				}
				codec_disasm_options opt = {.show_errors = i % 2};
				codec_decoded d = {.values = values, .cap_values = 512, .issues = issues,
				                   .cap_issues = 16};
				char one[4096], apart[4096];
				size_t n1 = 0;
				codec_decode_text(l.c, &l.m->roots[r], w, &opt, &d, one, sizeof one, &n1);
				if (!d.leaf)
					continue;
				size_t n2 = codec_disasm_root(l.c, &l.m->roots[r], w, &opt, apart, sizeof apart);
				compared++;
				CHECK_INT(n1, n2);
				CHECK_STR(one, apart);
			}
		unload(&l);
	}
	printf("part texts: %zu compared\n", compared);
	CHECK(compared > 1000);
}

int main(void)
{
	RUN(model_loads);
	RUN(lint_negative_files);
	RUN(a2xx_items_and_text);
	RUN(a2xx_errors);
	RUN(midgard_items_and_text);
	RUN(midgard_errors);
	RUN(loops_are_cut);
	RUN(scopes_and_names);
	RUN(expression_shapes);
	RUN(cover_checks);
	RUN(walker_remembers);
	RUN(quiet_walks_go_on);
	RUN(trail_across_sizes);
	RUN(trail_joins);
	RUN(quiet_walks);
	RUN(program_encode_as_bits);
	RUN(walker_wide_parts);
	RUN(part_text_one_walk);
	RUN(garbage_terminates);
	RUN(a2xx_blob_programs);
	RUN(a2xx_real_isa);
	RUN(midgard_real_isa);
	RUN(unexplained_data);
	RUN(cli_exit_codes);
	return testlib_finish();
}
