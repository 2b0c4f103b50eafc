/*
 * test_isa_etnaviv.c - our description of the Vivante GC instruction set
 * (isa/etnaviv.xml) held against three others:
 *
 *  (a) Mesa's vectors (../shared/mesa/vectors/etnaviv.tsv): every word
 *      decodes with our XML to the same meaning (instruction, destination,
 *      sources, immediates, modifiers) as with Mesa's etnaviv.xml, and
 *      prints the vector's text;
 *  (b) the hand-written reference codec (src/ref/etnaviv.c): on every
 *      vector and on ISACHECK_ETNA_WORDS random words (default 1,000,000)
 *      both accept the same words, decode them to the same meaning, and
 *      re-encode to the same canonical words, each from its own decoding
 *      and from the other's;
 *  (c) Mesa's etnaviv.xml on as many random words: every disagreement
 *      falls in one of the classes listed in known_classes[] below, with
 *      its explanation (docs/isa/etnaviv.md has the evidence), and each
 *      listed class is seen, so the list cannot go stale.
 *
 * "Meaning" is a ref_etnaviv_inst filled from the codec's value list
 * through a table of each spec's field names, plus what the XML derives
 * (immediate values, the data type, the dual-16 half).  Random words are
 * partly uniform and mostly shaped: a random leaf's pattern bits laid
 * over random bits, sometimes with one bit flipped, so that every
 * instruction and every reject path is exercised.
 */
#include "codec.h"
#include "etnaviv.h"
#include "refmap_etnaviv.h"
#include "spec.h"
#include "testlib.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

static size_t random_words(void)
{
	const char *env = getenv("ISACHECK_ETNA_WORDS");
	return env && *env ? (size_t)strtoull(env, NULL, 10) : 1000000;
}

/* ------------------------------------------------------ field names */

/* Mesa's names.  Where one name serves two members (Mesa's RMODE is the
 * ALU rounding, 2 bits, and the texture sampler's index, 3 bits), the
 * width tells them apart. */
static const refmap_etnaviv_names mesa_names = {
	"COND", "SAT", "TYPE_BIT2", "TYPE_BIT01", "TYPE",
	"DST_USE", "DST", "AMODE", "REG", "COMPS", "COMPS",
	"RMODE", "RMODE", "PMODE", "SKPHP", "LOCAL", "DENORM",
	"LEFT_SHIFT", "LEFT_SHIFT",
	"LOW_HALF", "HIGH_HALF", "THREAD", "DST_FULL",
	"TEX_ID", "TEX_SWIZ", "TARGET",
	{"SRC0_USE", "SRC1_USE", "SRC2_USE"}, {"SRC0_REG", "SRC1_REG", "SRC2_REG"},
	{"SRC0", "SRC1", "SRC2"}, {"SRC0_AMODE", "SRC1_AMODE", "SRC2_AMODE"},
	{"SRC0_RGROUP", "SRC1_RGROUP", "SRC2_RGROUP"},
	"SRC_SWIZ", {"SWIZ_X", "SWIZ_Y", "SWIZ_Z", "SWIZ_W"}, "SRC_NEG", "SRC_ABS", "IMMED",
	"IMMED_TYPE",
};

static bool is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* ------------------------------------------------------------ specs */

typedef struct loaded {
	spec_model *m;
	codec *c;
	const spec_root *root;
} loaded;

static loaded load(const char *path)
{
	testlib_codec t = testlib_load_codec(path);
	return (loaded){t.m, t.c, t.c ? codec_default_root(t.c) : NULL};
}

static void unload(loaded *l)
{
	testlib_unload_codec(&(testlib_codec){l->m, l->c});
}

typedef struct decoding {
	codec_decoded d;
	codec_value values[96];
	codec_issue issues[8];
} decoding;

static void decode(const loaded *l, const uint32_t w[4], decoding *out)
{
	memset(&out->d, 0, sizeof out->d);
	out->d.values = out->values;
	out->d.cap_values = N(out->values);
	out->d.issues = out->issues;
	out->d.cap_issues = N(out->issues);
	uint64_t w64[2] = {(uint64_t)w[0] | (uint64_t)w[1] << 32,
	                   (uint64_t)w[2] | (uint64_t)w[3] << 32};
	codec_decode(l->c, l->root, w64, 0, &out->d);
}

/* Issues other than the expected ones (no match, a set don't-care bit,
 * a value its enum does not name) would mean the XML is broken. */
static size_t odd_issues(const codec_decoded *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nissues; i++)
		n += d->issues[i].kind != CODEC_NO_MATCH && d->issues[i].kind != CODEC_DONTCARE_SET &&
		     d->issues[i].kind != CODEC_ENUM_MISSING;
	return n;
}

/* ---------------------------------------------------------- vectors */

typedef struct vector {
	uint32_t w[4];
	char text[256];
} vector;

static vector vecs[400];
static size_t nvecs;

static void read_vectors(void)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/vectors/etnaviv.tsv");
	testlib_tsv t;
	bool opened = testlib_tsv_open(&t, path);
	CHECK(opened);
	if (!opened)
		return;
	size_t nc;
	char *cols[4];
	while (nvecs < N(vecs) && (nc = testlib_tsv_next(&t, cols, 4))) {
		if (nc < 3)
			continue;
		vector *v = &vecs[nvecs];
		if (testlib_parse_words(cols[1], v->w, 4) != 4)
			continue;
		/* the text is C-escaped and ends in "\n" */
		testlib_unescape(cols[2]);
		size_t o = strlen(cols[2]);
		while (o && cols[2][o - 1] == '\n')
			o--;
		snprintf(v->text, sizeof v->text, "%.*s", (int)o, cols[2]);
		nvecs++;
	}
	testlib_tsv_close(&t);
}

static loaded ours, mesa;

/* (a) */
TEST(vectors_same_meaning_as_mesa)
{
	CHECK_INT(nvecs, 156);
	size_t same = 0, same_text = 0;
	for (size_t i = 0; i < nvecs; i++) {
		decoding a, b;
		decode(&ours, vecs[i].w, &a);
		decode(&mesa, vecs[i].w, &b);
		refmap_etnaviv_meaning ma, mb;
		refmap_etnaviv_from_decoded(&a.d, &refmap_etnaviv_our_names, &ma);
		refmap_etnaviv_from_decoded(&b.d, &mesa_names, &mb);
		CHECK(ma.name != NULL);
		const char *diff = refmap_etnaviv_diff(&ma, &mb, "match");
		same += diff == NULL;
		if (diff)
			fprintf(stderr, "vector %zu %08x %08x %08x %08x: %s differs (ours %s, mesa %s)\n", i,
			        vecs[i].w[0], vecs[i].w[1], vecs[i].w[2], vecs[i].w[3], diff,
			        ma.name ? ma.name : "-", mb.name ? mb.name : "-");
		CHECK_INT(odd_issues(&a.d), 0);
		/* our displays write the assembly language the vectors are in */
		char text[512];
		codec_disasm_options o = {.gen = 0, .show_errors = true, .no_match = CODEC_NO_MATCH_MESA};
		codec_disasm_one(ours.c, vecs[i].w, &o, text, sizeof text);
		bool t = !strcmp(text, vecs[i].text);
		same_text += t;
		if (!t)
			fprintf(stderr, "vector %zu: ours \"%s\", expected \"%s\"\n", i, text, vecs[i].text);
	}
	CHECK_INT(same, nvecs);
	CHECK_INT(same_text, nvecs);
	printf("(a) %zu/%zu vectors: same meaning as Mesa's XML; %zu print the vector's text\n",
	       same, nvecs, same_text);
}

/* ------------------------------------------------------- word source */

typedef struct rng {
	uint64_t s;
} rng;

static uint64_t next(rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

/* A random word: a quarter uniform, the rest shaped on a random leaf of
 * one of the specs (its 0/1 bits over random bits), then half the time
 * with its x bits cleared, and an eighth of the time one bit flipped. */
static void random_word(rng *r, const loaded *const *specs, size_t nspecs, uint32_t w[4])
{
	uint64_t a = next(r), b = next(r), c = next(r);
	uint64_t lo = a, hi = b;
	if (c % 4) {
		const loaded *l = specs[(c >> 8) % nspecs];
		const spec_root *root = l->root;
		const spec_bitset *leaf = root->leaves[(c >> 16) % root->nleaves];
		lo = (lo & ~leaf->mask.w[0]) | leaf->match.w[0];
		hi = (hi & ~leaf->mask.w[1]) | leaf->match.w[1];
		if ((c >> 40) & 1) {
			lo &= ~leaf->dontcare.w[0];
			hi &= ~leaf->dontcare.w[1];
		}
		/* sparse operands, so that unused slots and zero fields occur too */
		if ((c >> 41) & 1) {
			uint64_t z = next(r) & next(r);
			lo = (lo & ~leaf->mask.w[0] & ~z) | (lo & leaf->mask.w[0]);
			hi = (hi & ~leaf->mask.w[1] & ~(z * 0x9e3779b97f4a7c15ull)) | (hi & leaf->mask.w[1]);
		}
		if (((c >> 42) & 7) == 0) {
			unsigned bit = (unsigned)(c >> 48) % 128;
			if (bit < 64)
				lo ^= (uint64_t)1 << bit;
			else
				hi ^= (uint64_t)1 << (bit - 64);
		}
	}
	w[0] = (uint32_t)lo;
	w[1] = (uint32_t)(lo >> 32);
	w[2] = (uint32_t)hi;
	w[3] = (uint32_t)(hi >> 32);
}

/* ----------------------------------------------- (b) reference codec */

typedef struct ref_stats {
	size_t words, accepted, rejected, disagree, reencode_bad;
	size_t accepted_per_leaf[128];
} ref_stats;

static void hex4(const uint32_t w[4], char *buf, size_t len)
{
	snprintf(buf, len, "%08x %08x %08x %08x", w[0], w[1], w[2], w[3]);
}

/* One word through both codecs, both ways. */
static void ref_check_word(const uint32_t w[4], ref_stats *st)
{
	st->words++;
	decoding sd;
	decode(&ours, w, &sd);
	refmap_etnaviv_meaning ms, mr;
	refmap_etnaviv_from_decoded(&sd.d, &refmap_etnaviv_our_names, &ms);
	ref_etnaviv_status rs = refmap_etnaviv_from_ref(w, &mr);
	char hx[64];
	const char *diff = refmap_etnaviv_diff(&ms, &mr, "match");
	if (diff || odd_issues(&sd.d)) {
		if (st->disagree++ < 8) {
			hex4(w, hx, sizeof hx);
			fprintf(stderr, "ref vs spec on %s: %s (spec %s, ref %s: %s)\n", hx,
			        diff ? diff : "odd issue", ms.name ? ms.name : "no match",
			        mr.name ? mr.name : "rejects", ref_etnaviv_status_text(rs));
		}
		return;
	}
	if (!ms.name) {
		st->rejected++;
		return;
	}
	st->accepted++;
	for (size_t i = 0; i < ours.root->nleaves && i < N(st->accepted_per_leaf); i++)
		if (ours.root->leaves[i] == ms.leaf)
			st->accepted_per_leaf[i]++;

	/* re-encode: the reference from its decoding and from the spec's,
	 * the spec codec from its own; all equal the word without its x bits */
	uint32_t canon[4], wr[4], wx[4], wc[4];
	for (int k = 0; k < 4; k++)
		canon[k] = w[k] & ~mr.inst.dontcare[k];
	char err[160];
	ref_etnaviv_status e1 = ref_etnaviv_encode(&mr.inst, wr, err, sizeof err);
	ref_etnaviv_status e2 = ref_etnaviv_encode(&ms.inst, wx, err, sizeof err);
	uint64_t w64[2] = {0, 0};
	bool e3 = codec_encode(ours.c, &sd.d, w64, err, sizeof err);
	wc[0] = (uint32_t)w64[0];
	wc[1] = (uint32_t)(w64[0] >> 32);
	wc[2] = (uint32_t)w64[1];
	wc[3] = (uint32_t)(w64[1] >> 32);
	bool ok = e1 == REF_ETNAVIV_OK && e2 == REF_ETNAVIV_OK && e3 &&
	          !memcmp(wr, canon, sizeof canon) && !memcmp(wx, canon, sizeof canon) &&
	          !memcmp(wc, canon, sizeof canon);
	if (!ok && st->reencode_bad++ < 8) {
		hex4(w, hx, sizeof hx);
		fprintf(stderr, "re-encoding %s (%s): ref %d, ref(spec) %d, spec %d (%s)\n", hx,
		        ms.name, e1, e2, e3, err);
	}
}

TEST(reference_codec_agrees)
{
	ref_stats st = {0};
	for (size_t i = 0; i < nvecs; i++)
		ref_check_word(vecs[i].w, &st);
	CHECK_INT(st.disagree, 0);
	CHECK_INT(st.reencode_bad, 0);
	CHECK_INT(st.accepted, nvecs);
	printf("(b) vectors: %zu/%zu agree and re-encode\n", st.accepted, nvecs);

	ref_stats rs = {0};
	rng r = {0x7a6f1c2b3d4e5f61ull};
	const loaded *specs[] = {&ours};
	size_t n = random_words();
	for (size_t i = 0; i < n; i++) {
		uint32_t w[4];
		random_word(&r, specs, 1, w);
		ref_check_word(w, &rs);
	}
	CHECK_INT(rs.disagree, 0);
	CHECK_INT(rs.reencode_bad, 0);
	/* every instruction was met and accepted, and some words rejected */
	size_t unmet = 0;
	for (size_t i = 0; i < ours.root->nleaves; i++)
		if (!rs.accepted_per_leaf[i] && unmet++ < 5)
			fprintf(stderr, "no random word decoded to %s\n", ours.root->leaves[i]->name);
	CHECK_INT(unmet, 0);
	CHECK(rs.rejected > n / 10);
	printf("(b) %zu random words: %zu accepted, %zu rejected by both; %zu disagree, "
	       "%zu re-encode differently\n", rs.words, rs.accepted, rs.rejected, rs.disagree,
	       rs.reencode_bad);
}

/* The reference encoder refuses what does not fit, with a reason. */
TEST(reference_encode_errors)
{
	ref_etnaviv_inst in;
	uint32_t w[4];
	char err[160];
	memset(&in, 0, sizeof in);
	in.opcode = 0x09; /* mov: slot 2 */
	in.src[2].use = true;
	in.src[2].reg = 5;
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_OK);
	CHECK_INT(w[0], 0x09);
	CHECK_INT(w[3], 0x00000008u | 5u << 4);
	in.src[2].reg = 512;
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_RANGE);
	CHECK(strstr(err, "src[2].reg") != NULL);
	CHECK(w[0] == 0 && w[3] == 0);
	in.src[2].reg = 5;
	in.dst_reg = 128;
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_RANGE);
	in.dst_reg = 0;
	in.src[0].use = true; /* mov does not read slot 0 */
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_SLOT);
	in.src[0].use = false;
	in.target = 3; /* only control flow has a target */
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_FIELD);
	CHECK(strstr(err, "target") != NULL);
	in.target = 0;
	in.opcode = 0x04; /* no instruction known */
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_OPCODE);
	in.opcode = 0x7F;
	in.ext_op = 0x0D;
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_OPCODE);
	in.opcode = 0x09;
	in.ext_op = 1;
	CHECK_INT(ref_etnaviv_encode(&in, w, err, sizeof err), REF_ETNAVIV_E_FIELD);
	/* decode rejects with the reason */
	uint32_t bad[4] = {0x04, 0, 0, 0};
	ref_etnaviv_inst out;
	CHECK_INT(ref_etnaviv_decode(bad, &out), REF_ETNAVIV_E_OPCODE);
	uint32_t nop_reserved[4] = {1u << 27, 0, 0, 0};
	CHECK_INT(ref_etnaviv_decode(nop_reserved, &out), REF_ETNAVIV_E_RESERVED);
	uint32_t nop_slot[4] = {0, 1u << 11, 0, 0}; /* bit 43: slot 0 used */
	CHECK_INT(ref_etnaviv_decode(nop_slot, &out), REF_ETNAVIV_E_SLOT);
	CHECK_STR(ref_etnaviv_opcode_name(0x16, 0), "branch");
	CHECK_STR(ref_etnaviv_opcode_name(0x7F, 0x0C), "bit_findmsb");
	CHECK(ref_etnaviv_opcode_name(0x7F, 0x0D) == NULL);
	CHECK(ref_etnaviv_opcode_name(0x0B, 0) == NULL);
}

/* ------------------------------------------------ (c) Mesa's XML */

/* A class of disagreement between our XML and Mesa's, with the reason.
 * docs/isa/etnaviv.md has the evidence for each. */
typedef struct known_class {
	const char *id;
	const char *kind; /* "Mesa's bug", "ours", "interpretation" */
	const char *why;
	bool (*fits)(const refmap_etnaviv_meaning *ours, const refmap_etnaviv_meaning *mesa, const char *diff);
	size_t seen;
} known_class;

static bool newer_opcode(const refmap_etnaviv_meaning *o, const refmap_etnaviv_meaning *m, const char *diff)
{
	static const char *const names[] = {"swizzle", "txf", "texldgpcf", "img_store"};
	if (!is(diff, "match") || !o->name || m->name)
		return false;
	for (size_t i = 0; i < N(names); i++)
		if (!strcmp(o->name, names[i]))
			return true;
	return false;
}

static known_class known_classes[] = {
	{"newer-opcodes", "interpretation",
	 "swizzle 0x2B, txf 0x49, texldgpcf 0x70, img_store 0x7A: newer Mesa names them "
	 "(ISA-FACTS 3.5 item 4; etna_viv's SWIZZLE, TEXELFETCH, TEXLDGPCF, IMG_STORE); "
	 "the Mesa 24.3 file in ../shared predates them",
	 newer_opcode, 0},
};

TEST(mesa_xml_agrees)
{
	size_t n = random_words();
	rng r = {0x1b873593cc9e2d51ull};
	const loaded *specs[] = {&ours, &mesa};
	size_t agree = 0, both_match = 0, unexplained = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t w[4];
		random_word(&r, specs, 2, w);
		decoding a, b;
		decode(&ours, w, &a);
		decode(&mesa, w, &b);
		refmap_etnaviv_meaning ma, mb;
		refmap_etnaviv_from_decoded(&a.d, &refmap_etnaviv_our_names, &ma);
		refmap_etnaviv_from_decoded(&b.d, &mesa_names, &mb);
		const char *diff = refmap_etnaviv_diff(&ma, &mb, "match");
		if (!diff) {
			agree++;
			both_match += ma.name != NULL;
			continue;
		}
		bool explained = false;
		for (size_t k = 0; k < N(known_classes) && !explained; k++)
			if (known_classes[k].fits(&ma, &mb, diff)) {
				known_classes[k].seen++;
				explained = true;
			}
		if (!explained && unexplained++ < 8) {
			char hx[64];
			hex4(w, hx, sizeof hx);
			fprintf(stderr, "ours vs Mesa on %s: %s (ours %s, Mesa %s)\n", hx, diff,
			        ma.name ? ma.name : "no match", mb.name ? mb.name : "no match");
		}
	}
	CHECK_INT(unexplained, 0);
	printf("(c) %zu random words: %zu agree (%zu of them decode), %zu unexplained\n", n, agree,
	       both_match, unexplained);
	for (size_t k = 0; k < N(known_classes); k++) {
		printf("    %-14s %8zu  %s: %s\n", known_classes[k].id, known_classes[k].seen,
		       known_classes[k].kind, known_classes[k].why);
		/* a listed class that never occurs is stale */
		CHECK(n < 10000 || known_classes[k].seen > 0);
	}
	CHECK(both_match > n / 4);
}

int main(void)
{
	RUN(reference_encode_errors);
	/* ISACHECK_ETNA_XML: another description to hold against the same
	 * checks (how the checks themselves were tested: mutated copies) */
	const char *xml = getenv("ISACHECK_ETNA_XML");
	ours = load(xml && *xml ? xml : ISACHECK_SOURCE_DIR "/isa/etnaviv.xml");
	if (ours.c) {
		/* (b) on random words needs nothing from ../shared */
		char probe[1024];
		testlib_shared_path(probe, sizeof probe, "mesa/vectors/etnaviv.tsv");
		if (testlib_have_shared(probe)) {
			char path[1024];
			testlib_shared_path(path, sizeof path, "mesa/src/etnaviv/isa/etnaviv.xml");
			mesa = load(path);
			read_vectors();
			if (mesa.c) {
				RUN(vectors_same_meaning_as_mesa);
				RUN(reference_codec_agrees);
				RUN(mesa_xml_agrees);
			}
			unload(&mesa);
		}
	}
	unload(&ours);
	return testlib_finish();
}
