/*
 * test_isa_a2xx.c - isa/a2xx.xml against the real a2xx words and against
 * the hand-written reference codec (src/ref/a2xx.c):
 *
 *  - every CF, ALU and FETCH row of ../shared/blob/a2xx.tsv decodes with
 *    the XML-driven codec; rows with Mesa's disassembly print the same
 *    text after normalising (whitespace, the program's "ALU:"/"FETCH:"/
 *    "(S)" prefixes, the stage-dependent "; gl_..." comments); rows with
 *    the 2012 notes' text agree on opcode and registers, every difference
 *    listed with its reason;
 *  - every whole_program row: the reference codec's CF walk finds the
 *    program's slots, the per-slot rows of the same dump are those words
 *    and kinds, every slot decodes, and the listing built from the walk
 *    equals Mesa's (normalised);
 *  - XML codec and reference codec agree, field by field, on every row
 *    and on random words (A2XX_RANDOM words per root, default 1,000,000),
 *    decoding and re-encoding;
 *  - each choice between disagreeing sources (facts 1.8) is pinned by a
 *    check that would fail under the other reading;
 *  - the reference codec's own error paths.
 *
 * The blob part skips (exit 77) without ../shared, except under CI=true.
 */
#include "a2xx.h"
#include "codec.h"
#include "refmap_a2xx.h"
#include "spec.h"
#include "testlib.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

/* ------------------------------------------------------------- the spec */

/* The spec loaded once per root we print: disassembly goes through the
 * default root, so a small wrapper file makes "#instruction" a field of
 * the root wanted (the display is the root's own, unchanged). */
typedef struct a2xx_spec {
	spec_model *m;
	codec *c;
	const spec_root *cf, *pair, *alu, *fetch;
	spec_model *wm[3];
	codec *wc[3]; /* printing #cf-pair, #alu, #fetch */
} a2xx_spec;

enum { W_PAIR, W_ALU, W_FETCH };

static bool load_wrapper(a2xx_spec *s, int i, const char *root)
{
	char xml[512];
	snprintf(xml, sizeof xml,
	         "<isa><import file=\"a2xx.xml\"/>"
	         "<bitset name=\"#instruction\" size=\"96\">"
	         "<field name=\"I\" low=\"0\" high=\"95\" type=\"%s\"/>"
	         "<display>{I}</display></bitset></isa>",
	         root);
	spec_diags d = {0};
	s->wm[i] = spec_load_buffer("wrapper.xml", xml, strlen(xml), ISACHECK_SOURCE_DIR "/isa", &d);
	if (s->wm[i])
		s->wc[i] = codec_new(s->wm[i], &d);
	for (size_t k = 0; k < d.count; k++)
		if (d.items[k].severity >= SPEC_ERROR)
			fprintf(stderr, "wrapper: %s\n", d.items[k].message);
	spec_diags_free(&d);
	return s->wc[i] != NULL;
}

static bool load_spec(a2xx_spec *s)
{
	memset(s, 0, sizeof *s);
	spec_diags d = {0};
	s->m = spec_load(ISACHECK_SOURCE_DIR "/isa/a2xx.xml", &d);
	size_t bad = 0;
	for (size_t k = 0; k < d.count; k++) {
		fprintf(stderr, "a2xx.xml:%u: %s: %s\n", d.items[k].loc.line, d.items[k].rule,
		        d.items[k].message);
		bad++;
	}
	CHECK_INT(bad, 0); /* lint clean */
	if (s->m)
		s->c = codec_new(s->m, &d);
	spec_diags_free(&d);
	CHECK(s->c != NULL);
	if (!s->c)
		return false;
	s->cf = spec_find_root(s->m, "#cf");
	s->pair = spec_find_root(s->m, "#cf-pair");
	s->alu = spec_find_root(s->m, "#alu");
	s->fetch = spec_find_root(s->m, "#fetch");
	CHECK(s->cf && s->pair && s->alu && s->fetch);
	CHECK_INT(s->cf->bitset->size, 48);
	CHECK_INT(s->alu->bitset->size, 96);
	CHECK_INT(s->fetch->bitset->size, 96);
	bool ok = load_wrapper(s, W_PAIR, "#cf-pair") && load_wrapper(s, W_ALU, "#alu") &&
	          load_wrapper(s, W_FETCH, "#fetch");
	CHECK(ok);
	return ok && s->cf && s->pair && s->alu && s->fetch;
}

static void free_spec(a2xx_spec *s)
{
	for (int i = 0; i < 3; i++) {
		codec_free(s->wc[i]);
		spec_model_free(s->wm[i]);
	}
	codec_free(s->c);
	spec_model_free(s->m);
}

static void disasm(const a2xx_spec *s, int which, const uint32_t w[3], char *buf, size_t len)
{
	codec_disasm_options opt = {.gen = 0, .show_errors = true};
	codec_disasm_one(s->wc[which], w, &opt, buf, len);
}

/* A decoding in fixed storage. */
typedef struct decoding {
	codec_decoded d;
	codec_value values[128];
	codec_issue issues[16];
} decoding;

static void decode(const a2xx_spec *s, const spec_root *root, const uint64_t *w, decoding *out)
{
	memset(out, 0, sizeof *out);
	out->d.values = out->values;
	out->d.cap_values = N(out->values);
	out->d.issues = out->issues;
	out->d.cap_issues = N(out->issues);
	codec_decode(s->c, root, w, 0, &out->d);
}

static bool has_issue(const decoding *x, codec_issue_kind k)
{
	return refmap_a2xx_has_issue(&x->d, k);
}

static void words96(const uint32_t w[3], uint64_t v[2])
{
	v[0] = (uint64_t)w[0] | (uint64_t)w[1] << 32;
	v[1] = w[2];
}

/* ---------------------------------------------- comparing with the ref */

/* The spec's canonical encoding (don't-care bits 0) of its own decoding. */
static bool spec_reencode(const a2xx_spec *s, const decoding *x, uint64_t *w)
{
	char err[200];
	w[0] = w[1] = 0;
	return codec_encode(s->c, &x->d, w, err, sizeof err);
}

/* Decodes one word of each kind with both codecs and compares decoding
 * and canonical re-encoding.  Returns 1 when they agree, else 0 (and
 * prints the first few disagreements). */
enum kind { K_CF = REFMAP_A2XX_CF, K_ALU = REFMAP_A2XX_ALU, K_FETCH = REFMAP_A2XX_FETCH };

static unsigned disagreements_printed;

static int compare_word(const a2xx_spec *s, enum kind k, const uint32_t w3[3], uint64_t cf)
{
	decoding x;
	refmap_a2xx_expect e;
	uint64_t v[2] = {cf, 0};
	if (k == K_CF) {
		decode(s, s->cf, v, &x);
		refmap_a2xx_expect_cf(cf, &e);
	} else {
		words96(w3, v);
		decode(s, k == K_ALU ? s->alu : s->fetch, v, &x);
		if (k == K_ALU)
			refmap_a2xx_expect_alu(w3, &e);
		else
			refmap_a2xx_expect_fetch(w3, &e);
	}
	char why[200] = "";
	bool ok = refmap_a2xx_agree(&x.d, &e, false, why, sizeof why);
	if (ok && e.valid) {
		/* encoding: the reference re-encodes its decoding without the
		 * don't-care bits; the spec codec's canonical form must match */
		uint64_t ws[2];
		uint64_t wr[2] = {0, 0};
		a2xx_status st = refmap_a2xx_canonical((int)k, w3, cf, wr);
		if (st != A2XX_OK) {
			ok = false;
			snprintf(why, sizeof why, "reference encode: %s", a2xx_status_name(st));
		} else if (!spec_reencode(s, &x, ws)) {
			ok = false;
			snprintf(why, sizeof why, "spec encode failed");
		} else if (ws[0] != wr[0] || ws[1] != wr[1]) {
			ok = false;
			snprintf(why, sizeof why, "encode: spec %08llx_%016llx, ref %08llx_%016llx",
			         (unsigned long long)ws[1], (unsigned long long)ws[0],
			         (unsigned long long)wr[1], (unsigned long long)wr[0]);
		}
	}
	if (!ok && disagreements_printed++ < 10)
		fprintf(stderr, "%s %08x %08x %08x (cf %012llx): %s\n",
		        k == K_CF ? "CF" : k == K_ALU ? "ALU" : "FETCH", w3 ? w3[0] : 0,
		        w3 ? w3[1] : 0, w3 ? w3[2] : 0, (unsigned long long)cf, why);
	return ok;
}

/* ------------------------------------------------------------ the TSV */

typedef struct row {
	char *source, *text;
	uint32_t w[64];
	size_t nw;
	char kind[16]; /* whole_program, cf_pair, alu, fetch */
	int slot;      /* -1: none */
	char group[512];
	bool mesa_text, notes_text;
} row;

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static size_t read_rows(row *rows, size_t max)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "blob/a2xx.tsv");
	if (!testlib_have_shared(path))
		return 0;
	testlib_tsv t;
	testlib_tsv_open(&t, path);
	size_t n = 0, nc;
	char *cols[3];
	while (n < max && (nc = testlib_tsv_next(&t, cols, 3))) {
		if (nc < 2)
			continue;
		row *r = &rows[n];
		memset(r, 0, sizeof *r);
		r->source = dupstr(cols[0]);
		r->nw = testlib_parse_words(cols[1], r->w, N(r->w));
		r->text = dupstr(nc > 2 ? cols[2] : "");
		testlib_unescape(r->text);
		r->mesa_text = strstr(r->text, "[mesa disasm-a2xx.c output") != NULL;
		r->notes_text = strstr(r->text, "[2012 RE notes") != NULL;
		const char *k = strstr(r->source, "kind=");
		r->slot = -1;
		if (k) {
			sscanf(k + 5, "%15[a-z_]", r->kind);
			const char *sl = strstr(k, "slot=");
			if (sl)
				r->slot = atoi(sl + 5);
			size_t glen = (size_t)(k - r->source);
			snprintf(r->group, sizeof r->group, "%.*s", (int)glen, r->source);
		} else if (strstr(r->text, " CF:")) {
			strcpy(r->kind, "cf_pair");
		} else if (strstr(r->text, "FETCH:")) {
			strcpy(r->kind, "fetch");
		} else if (strstr(r->text, "ALU:")) {
			strcpy(r->kind, "alu");
		}
		n++;
	}
	testlib_tsv_close(&t);
	return n;
}

static void free_rows(row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].source);
		free(rows[i].text);
	}
}

/* Normalises disassembly for comparison: drops the "[...]" provenance
 * tag, the stage-dependent "; gl_Name" comments (Mesa knows the shader
 * stage; one instruction does not), optionally the program-level
 * "(S)"/"ALU:"/"FETCH:" prefixes, and collapses whitespace. */
static void normalise(const char *in, char *out, size_t len, bool strip_prefixes)
{
	char tmp[8192];
	size_t o = 0;
	const char *p = in;
	if (*p == '[') {
		const char *e = strchr(p, ']');
		if (e)
			p = e + 1;
	}
	while (*p && o + 1 < sizeof tmp) {
		if (*p == ';') {
			const char *q = p + 1;
			while (*q == ' ' || *q == '\t')
				q++;
			if (!strncmp(q, "gl_", 3)) {
				while (*q && !isspace((unsigned char)*q))
					q++;
				p = q;
				continue;
			}
		}
		if (strip_prefixes) {
			if (!strncmp(p, "(S)", 3)) {
				p += 3;
				continue;
			}
			if (!strncmp(p, "ALU:", 4)) {
				p += 4;
				continue;
			}
			if (!strncmp(p, "FETCH:", 6)) {
				p += 6;
				continue;
			}
		}
		tmp[o++] = *p++;
	}
	tmp[o] = '\0';
	/* collapse whitespace */
	size_t j = 0;
	bool space = true;
	for (size_t i = 0; tmp[i] && j + 1 < len; i++) {
		if (isspace((unsigned char)tmp[i])) {
			if (!space)
				out[j++] = ' ';
			space = true;
		} else {
			out[j++] = tmp[i];
			space = false;
		}
	}
	if (j && out[j - 1] == ' ')
		j--;
	out[j] = '\0';
}

/* Text of one slot as the spec codec prints it. */
static void slot_text(const a2xx_spec *s, const char *kind, const uint32_t *w, char *buf, size_t len)
{
	int which = !strcmp(kind, "cf_pair") ? W_PAIR : !strcmp(kind, "alu") ? W_ALU : W_FETCH;
	disasm(s, which, w, buf, len);
}

/* Whether a row's 96-bit words decode cleanly (no issue at all) with the
 * spec codec against the root of its kind. */
static bool slot_decodes(const a2xx_spec *s, const char *kind, const uint32_t *w)
{
	uint64_t v[2];
	words96(w, v);
	decoding x;
	const spec_root *root = !strcmp(kind, "cf_pair") ? s->pair
	                        : !strcmp(kind, "alu")   ? s->alu
	                                                 : s->fetch;
	decode(s, root, v, &x);
	if (x.d.leaf && x.d.nissues)
		fprintf(stderr, "%s %08x %08x %08x: %s\n", kind, w[0], w[1], w[2], x.d.issues[0].text);
	return x.d.leaf && !x.d.nissues;
}

/* The 2012 notes' text for an ALU/FETCH/CF row against ours: the opcode
 * and registers agree, or the difference is a known one (returned as
 * its reason, else NULL when they agree).  *ok is false on an
 * unexplained difference. */
typedef struct notes_diff {
	const char *what;   /* a substring of the notes' text */
	const char *reason;
} notes_diff;

static const notes_diff known_notes_diffs[] = {
	{"val - dot", "the notes give one text for three words; this one negates src2"},
	{"-val + dot", "the notes give one text for three words; this one negates src1"},
};

/* Pulls "OP DST = SRC, SRC" out of text (after any prefix): the opcode,
 * the destination register without its mask and the sources as printed
 * (their swizzles kept only when the other side printed one). */
typedef struct parsed {
	char op[32], dst[32];
	char src[3][32];
	int nsrc;
} parsed;

static void parse_instr(const char *t, parsed *p)
{
	memset(p, 0, sizeof *p);
	const char *q = t;
	const char *pre[] = {"ALU:", "FETCH:"};
	for (size_t i = 0; i < N(pre); i++) {
		const char *f = strstr(q, pre[i]);
		if (f)
			q = f + strlen(pre[i]);
	}
	char buf[256];
	normalise(q, buf, sizeof buf, true);
	char *sp = buf;
	sscanf(sp, "%31s %31[^ .=]", p->op, p->dst);
	char *eq = strstr(sp, "= ");
	if (!eq)
		return;
	eq += 2;
	while (p->nsrc < 3 && *eq) {
		int used = 0;
		if (sscanf(eq, "%31[^ ,]%n", p->src[p->nsrc], &used) != 1)
			break;
		p->nsrc++;
		eq += used;
		if (eq[0] == ',' && eq[1] == ' ')
			eq += 2;
		else
			break;
	}
}

static bool src_matches(const char *notes, const char *ours)
{
	if (!strcmp(notes, ours))
		return true;
	/* the notes omit an identity-like swizzle we print (or the reverse) */
	size_t n = strcspn(notes, "."), o = strcspn(ours, ".");
	return n == o && !strncmp(notes, ours, n) && (!notes[n] || !ours[o]);
}

static const char *compare_notes(const a2xx_spec *s, const row *r, bool *ok)
{
	*ok = true;
	for (size_t i = 0; i < N(known_notes_diffs); i++)
		if (strstr(r->text, known_notes_diffs[i].what))
			return known_notes_diffs[i].reason;
	char ours[1024];
	if (!strcmp(r->kind, "cf_pair")) {
		/* "NN CF: ADDR(0x3) CNT(0x6)": the notes name the pair by its first CF */
		unsigned a = 0, c = 0;
		const char *p = strstr(r->text, "ADDR(");
		if (!p || sscanf(p, "ADDR(0x%x) CNT(0x%x)", &a, &c) != 2) {
			*ok = false;
			return NULL;
		}
		uint64_t cf0, cf1;
		a2xx_cf_pair_unpack(r->w, &cf0, &cf1);
		decoding x;
		uint64_t v[2] = {cf0, 0};
		decode(s, s->cf, v, &x);
		unsigned sa = 0, sc = 0;
		for (size_t i = 0; i < x.d.nvalues; i++) {
			if (!strcmp(x.d.values[i].field->name, "ADDRESS"))
				sa = (unsigned)x.d.values[i].raw;
			if (!strcmp(x.d.values[i].field->name, "COUNT"))
				sc = (unsigned)x.d.values[i].raw;
		}
		*ok = x.d.leaf && sa == a && sc == c;
		return NULL;
	}
	slot_text(s, r->kind, r->w, ours, sizeof ours);
	parsed pn, po;
	parse_instr(r->text, &pn);
	parse_instr(ours, &po);
	/* 3-source vector ops: the notes leave out src3 (the accumulator) */
	int skip = po.nsrc == 3 && pn.nsrc == 2;
	/* the notes print an export destination as the register of that
	 * number: the export bit (15) was not known in 2012 */
	const char *reason = NULL;
	unsigned ne, nr;
	if (strcmp(pn.dst, po.dst) && sscanf(po.dst, "export%u", &ne) == 1 &&
	    sscanf(pn.dst, "R%u", &nr) == 1) {
		if (ne == nr)
			reason = "the notes print export N as RN (the export bit was not known in 2012)";
		else if (ne == nr + 32 && nr >= 30)
			reason = "1.8 choice 2: the notes' 5-bit R30/R31 are export62/63 with 6 bits";
		if (reason)
			snprintf(pn.dst, sizeof pn.dst, "%s", po.dst);
	}
	if (!strcmp(pn.op, "DOTv4") && !strcmp(po.op, "DOT4v")) {
		reason = "a typo in the notes for DOT4v (vector opcode 15)";
		strcpy(pn.op, po.op);
	}
	if (!strcmp(pn.op, "SAMPLE") && !strcmp(po.op, "VERTEX")) {
		reason = "1.8 choice 6: the notes call a vertex fetch SAMPLE";
		strcpy(pn.op, po.op);
	}
	*ok = !strcmp(pn.op, po.op) && !strcmp(pn.dst, po.dst) && pn.nsrc + skip == po.nsrc;
	for (int i = 0; *ok && i < pn.nsrc; i++)
		*ok = src_matches(pn.src[i], po.src[i + skip]);
	if (!*ok)
		fprintf(stderr, "notes row %s: \"%s\" vs ours \"%s\"\n", r->source, r->text, ours);
	return reason;
}

/* The listing Mesa's disassembler prints for a program, rebuilt from the
 * reference walk and the spec codec's instruction text. */
static bool program_listing(const a2xx_spec *s, const row *r, const a2xx_slot *slots,
                            size_t ncf, char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t p = 0; p < ncf; p++) {
		uint64_t cf[2];
		a2xx_cf_pair_unpack(r->w + 3 * p, &cf[0], &cf[1]);
		char pair[512];
		disasm(s, W_PAIR, r->w + 3 * p, pair, sizeof pair);
		char *line2 = strchr(pair, '\n');
		if (!line2)
			return false;
		*line2++ = '\0';
		for (int k = 0; k < 2; k++) {
			o += (size_t)snprintf(out + o, len - o, "\t%s\n", k ? line2 : pair);
			a2xx_cf c;
			a2xx_cf_decode(cf[k], &c);
			if (!a2xx_cf_is_exec(c.opc))
				continue;
			for (uint32_t i = 0; i < c.count && o < len; i++) {
				size_t a = c.address + i;
				char text[512];
				bool fetch = slots[a].kind == A2XX_SLOT_FETCH;
				disasm(s, fetch ? W_FETCH : W_ALU, r->w + 3 * a, text, sizeof text);
				o += (size_t)snprintf(out + o, len - o, "\t   %s%s:\t%s\n",
				                      slots[a].serialize ? "(S)" : "   ",
				                      fetch ? "FETCH" : "ALU", text);
			}
			if (o >= len)
				return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------- tests */

static a2xx_spec S;
static bool have_spec;

TEST(test_check_roots)
{
	/* every leaf of every root has no unaccounted bits: the prover's
	 * property, checked here on the model's masks for the roots we name */
	const char *names[] = {"#cf", "#cf-pair", "#alu", "#fetch", "#alu-src"};
	for (size_t i = 0; i < N(names); i++) {
		const spec_root *r = spec_find_root(S.m, names[i]);
		CHECK(r != NULL);
		if (!r)
			continue;
		for (size_t l = 0; l < r->nleaves; l++) {
			const spec_bitset *b = r->leaves[l];
			for (unsigned bit = 0; bit < b->size; bit++) {
				bool pat = spec_bit(b->mask, bit) || spec_bit(b->dontcare, bit);
				bool fld = spec_bit(b->field_mask, bit);
				if (pat == fld)
					fprintf(stderr, "%s bit %u: pattern %d field %d\n", b->name, bit, pat, fld);
				CHECK(pat != fld);
			}
		}
	}
	CHECK_INT(spec_find_root(S.m, "#cf")->nleaves, 16);
	CHECK_INT(spec_find_root(S.m, "#alu")->nleaves, 31);
	CHECK_INT(spec_find_root(S.m, "#fetch")->nleaves, 10);
}

static row rows[400];
static size_t nrows;

TEST(test_blob_rows)
{
	if (!nrows)
		return;
	size_t n_inst = 0, n_decoded = 0, n_ref = 0, n_agree = 0;
	size_t n_mesa = 0, n_mesa_same = 0, n_notes = 0, n_notes_same = 0, n_notes_known = 0;
	for (size_t i = 0; i < nrows; i++) {
		row *r = &rows[i];
		if (!strcmp(r->kind, "whole_program"))
			continue;
		CHECK(r->kind[0] != '\0');
		CHECK_INT(r->nw, 3);
		if (r->nw != 3)
			continue;
		n_inst++;
		bool dec = slot_decodes(&S, r->kind, r->w);
		CHECK(dec);
		n_decoded += dec;
		/* the reference codec decodes it, and both agree */
		bool rok;
		int same;
		if (!strcmp(r->kind, "cf_pair")) {
			uint64_t cf0, cf1;
			a2xx_cf c0, c1;
			a2xx_cf_pair_unpack(r->w, &cf0, &cf1);
			rok = a2xx_cf_decode(cf0, &c0) == A2XX_OK && a2xx_cf_decode(cf1, &c1) == A2XX_OK;
			same = compare_word(&S, K_CF, r->w, cf0) & compare_word(&S, K_CF, r->w, cf1);
			uint32_t back[3];
			CHECK(a2xx_cf_pair_pack(cf0, cf1, back) == A2XX_OK);
			CHECK(!memcmp(back, r->w, sizeof back));
		} else if (!strcmp(r->kind, "alu")) {
			a2xx_alu a;
			rok = a2xx_alu_decode(r->w, &a) == A2XX_OK;
			same = compare_word(&S, K_ALU, r->w, 0);
		} else {
			a2xx_fetch f;
			rok = a2xx_fetch_decode(r->w, &f) == A2XX_OK;
			same = compare_word(&S, K_FETCH, r->w, 0);
		}
		CHECK(rok);
		CHECK(same);
		n_ref += rok;
		n_agree += same;
		if (r->mesa_text) {
			char ours[1024], a[1024], b[1024];
			slot_text(&S, r->kind, r->w, ours, sizeof ours);
			normalise(r->text, a, sizeof a, true);
			normalise(ours, b, sizeof b, true);
			n_mesa++;
			if (strcmp(a, b))
				fprintf(stderr, "text differs:\n  mesa: %s\n  ours: %s\n", a, b);
			CHECK_STR(b, a);
			n_mesa_same += !strcmp(a, b);
		} else if (r->notes_text) {
			bool ok;
			const char *reason = compare_notes(&S, r, &ok);
			n_notes++;
			CHECK(ok);
			if (reason)
				n_notes_known++;
			else
				n_notes_same += ok;
		}
	}
	printf("blob rows: %zu instruction rows (CF pair, ALU, FETCH); spec decodes %zu cleanly; "
	       "reference decodes %zu; both agree on %zu\n",
	       n_inst, n_decoded, n_ref, n_agree);
	printf("blob text: Mesa's text %zu/%zu rows equal (normalised); 2012 notes %zu/%zu agree "
	       "on opcode and registers, %zu differ for listed reasons\n",
	       n_mesa_same, n_mesa, n_notes_same, n_notes, n_notes_known);
	/* the TSV's own counts (facts 1.9 and the file): if the file changes, look again */
	CHECK_INT(n_inst, 130);
	CHECK(n_mesa > 0 && n_notes > 0);
}

TEST(test_blob_programs)
{
	if (!nrows)
		return;
	size_t nprog = 0, nprog_ok = 0, nslot_rows = 0;
	for (size_t i = 0; i < nrows; i++) {
		row *r = &rows[i];
		if (strcmp(r->kind, "whole_program"))
			continue;
		nprog++;
		a2xx_slot slots[32];
		size_t nslots = 0, ncf = 0;
		a2xx_status st = a2xx_program_walk(r->w, r->nw, slots, N(slots), &nslots, &ncf);
		CHECK_INT(st, A2XX_OK);
		if (st != A2XX_OK)
			continue;
		bool ok = true;
		/* every slot is run by some EXEC or is a CF pair, and decodes */
		for (size_t a = 0; a < nslots; a++) {
			static const char *const kinds[] = {"unused", "cf_pair", "alu", "fetch"};
			CHECK(slots[a].kind != A2XX_SLOT_UNUSED);
			if (slots[a].kind == A2XX_SLOT_UNUSED) {
				ok = false;
				continue;
			}
			bool dec = slot_decodes(&S, kinds[slots[a].kind], r->w + 3 * a);
			CHECK(dec);
			ok &= dec;
		}
		/* the per-slot rows of the same dump are these words and kinds */
		for (size_t j = 0; j < nrows; j++) {
			const row *q = &rows[j];
			if (q == r || strcmp(q->group, r->group) || q->slot < 0)
				continue;
			nslot_rows++;
			CHECK((size_t)q->slot < nslots);
			if ((size_t)q->slot >= nslots) {
				ok = false;
				continue;
			}
			static const char *const kinds[] = {"unused", "cf_pair", "alu", "fetch"};
			CHECK_STR(kinds[slots[q->slot].kind], q->kind);
			CHECK(!memcmp(q->w, r->w + 3 * q->slot, 3 * sizeof(uint32_t)));
			ok &= !strcmp(kinds[slots[q->slot].kind], q->kind) &&
			      !memcmp(q->w, r->w + 3 * q->slot, 3 * sizeof(uint32_t));
			/* the serialize mark Mesa printed is the walk's */
			if (q->mesa_text)
				CHECK_INT(strstr(q->text, "(S)") != NULL, slots[q->slot].serialize);
		}
		/* the whole listing, as Mesa prints it (normalised) */
		if (r->mesa_text) {
			char listing[8192], a[8192], b[8192];
			CHECK(program_listing(&S, r, slots, ncf, listing, sizeof listing));
			normalise(r->text, a, sizeof a, false);
			normalise(listing, b, sizeof b, false);
			if (strcmp(a, b))
				fprintf(stderr, "program listing differs:\n  mesa: %s\n  ours: %s\n", a, b);
			CHECK_STR(b, a);
			ok &= !strcmp(a, b);
		}
		nprog_ok += ok;
	}
	printf("blob programs: %zu whole programs, %zu walk, decode and print as Mesa does; "
	       "%zu per-slot rows match their program\n",
	       nprog, nprog_ok, nslot_rows);
	CHECK_INT(nprog, 11);
	CHECK_INT(nprog_ok, nprog);
	CHECK_INT(nslot_rows, 50);
}

/* a fixed seed, so a failure can be replayed */
static uint64_t rng_next(uint64_t *s)
{
	return testlib_splitmix64(s);
}

TEST(test_random_agreement)
{
	/* the sanitizer build, there for memory errors, checks a quarter
	 * (the first of the same words); the plain build a million */
#ifdef ISACHECK_SANITIZED
	size_t count = 250000;
#else
	size_t count = 1000000;
#endif
	const char *env = getenv("A2XX_RANDOM");
	if (env && *env)
		count = strtoull(env, NULL, 10);
	uint64_t seed = 0xa2a2a2a2ull;
	static const uint32_t fetch_ops[] = {0, 1, 16, 17, 18, 19, 24, 25, 26, 27};
	for (int k = K_CF; k <= K_FETCH; k++) {
		size_t agree_n = 0, valid_n = 0;
		for (size_t i = 0; i < count; i++) {
			uint64_t a = rng_next(&seed), b = rng_next(&seed);
			uint32_t w[3] = {(uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b};
			/* half the words get an assigned opcode (and, for vertex
			 * fetches, bit 19 set), so valid encodings are well covered;
			 * the other half are raw and mostly hit the holes */
			if (k == K_FETCH && (b >> 32) & 1) {
				uint32_t op = fetch_ops[(b >> 33) % N(fetch_ops)];
				w[0] = (w[0] & ~0x1fu) | op;
				if (op == 0)
					w[0] |= 1u << 19;
			}
			if (k == K_ALU && ((b >> 32) & 1) && ((w[2] >> 24) & 0x1f) == 30)
				w[2] ^= 1u << 24;
			uint64_t cf = a & 0xffffffffffffull;
			agree_n += (size_t)compare_word(&S, (enum kind)k, w, cf);
			if (k == K_CF) {
				valid_n++;
			} else if (k == K_ALU) {
				a2xx_alu x;
				valid_n += a2xx_alu_decode(w, &x) == A2XX_OK;
			} else {
				a2xx_fetch x;
				valid_n += a2xx_fetch_decode(w, &x) == A2XX_OK;
			}
		}
		printf("random %s: %zu words (%zu valid), decode + canonical encode agree on %zu\n",
		       k == K_CF ? "#cf" : k == K_ALU ? "#alu" : "#fetch", count, valid_n, agree_n);
		CHECK_INT(agree_n, count);
		CHECK(valid_n > count / 4);
	}
}

/* Each facts-1.8 choice, pinned by a word where the other reading would
 * decode differently. */
TEST(test_choices)
{
	char t[512];
	/* 1. scalar opcode = 6 bits at 26-31: dword0 0xa0cb8000 has 40 there
	 * (SQRT_IEEE); the 2012 5-bit reading at 27-31 gives 20 ("SQRT") */
	uint32_t sq[3] = {0xa0cb8000, 0x00000040, 0xe2000001};
	a2xx_alu a;
	CHECK_INT(a2xx_alu_decode(sq, &a), A2XX_OK);
	CHECK_INT(a.scalar_opc, 40);
	CHECK_STR(a2xx_scalar_opc_name(a.scalar_opc), "SQRT_IEEE");
	disasm(&S, W_ALU, sq, t, sizeof t);
	CHECK(strstr(t, "SQRT_IEEE\texport0.__zw = R1.xyzx") != NULL);
	/* 2. 6-bit destinations: 0x3e is export62, not R30 */
	uint32_t pos[3] = {0x140f803e, 0x00000000, 0xe2010100};
	disasm(&S, W_ALU, pos, t, sizeof t);
	CHECK_STR(t, "MAXv\texport62 = R1, R1");
	/* 3. EXEC address is 9 bits: bit 9 is don't-care (Xenia: address bit) */
	uint64_t ex = 0x100000001203ull; /* EXEC, address bits 0x203 */
	decoding x;
	uint64_t v[2] = {ex, 0};
	decode(&S, S.cf, v, &x);
	CHECK(x.d.leaf && !strcmp(x.d.leaf->name, "EXEC"));
	CHECK(has_issue(&x, CODEC_DONTCARE_SET));
	a2xx_cf c;
	CHECK_INT(a2xx_cf_decode(ex, &c), A2XX_OK);
	CHECK_INT(c.address, 3);
	CHECK(c.dontcare == (1ull << 9));
	/* ... and ALLOC size is 4 bits (Xenia: 3): size 8 round-trips */
	c = (a2xx_cf){.opc = A2XX_CF_ALLOC, .size = 8, .buffer = 2};
	uint64_t al;
	CHECK_INT(a2xx_cf_encode(&c, &al), A2XX_OK);
	v[0] = al;
	decode(&S, S.cf, v, &x);
	CHECK(x.d.leaf && !strcmp(x.d.leaf->name, "ALLOC") && !x.d.nissues);
	uint32_t pw[3];
	CHECK_INT(a2xx_cf_pair_pack(al, 0, pw), A2XX_OK);
	disasm(&S, W_PAIR, pw, t, sizeof t);
	CHECK_STR(t, "ALLOC PARAM/PIXEL SIZE(0x8)\nNOP");
	/* 4. instr-a2xx.h names: vector 29 is MOVAv (Xenia: MAXA) and
	 * COND_EXEC_PRED_CLEAN keeps bool_addr and condition */
	CHECK_STR(a2xx_vector_opc_name(29), "MOVAv");
	c = (a2xx_cf){.opc = A2XX_CF_COND_EXEC_PRED_CLEAN, .address = 4, .count = 1,
	              .bool_addr = 5, .condition = 1};
	uint64_t ce;
	CHECK_INT(a2xx_cf_encode(&c, &ce), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(ce, 0, pw), A2XX_OK);
	disasm(&S, W_PAIR, pw, t, sizeof t);
	CHECK_STR(t, "COND_EXEC_PRED_CLEAN ADDR(0x4) CNT(0x1) BOOL_ADDR(0x5) COND(1)\nNOP");
	/* 5. the scalar operand is src3 with its swizzle */
	CHECK(strstr(t, "COND(") != NULL);
	disasm(&S, W_ALU, sq, t, sizeof t);
	CHECK(strstr(t, "= R1.xyzx") != NULL); /* src3 = R1, swizzle 0x40 */
	/* 6. the notes' "SAMPLE" vertex fetch is VERTEX */
	uint32_t vf[3] = {0x1a181000, 0x00000688, 0x00000000};
	disasm(&S, W_FETCH, vf, t, sizeof t);
	CHECK(!strncmp(t, "VERTEX\t", 7));
	/* 7. use_reg_lod is two bits: value 2 (bit 62 alone) prints */
	uint32_t tf[3] = {0x10000001, 0x1ffffe88 | (1u << 30), 0x00000002};
	disasm(&S, W_FETCH, tf, t, sizeof t);
	CHECK(strstr(t, " REG_LOD(2)") != NULL);
	a2xx_fetch f;
	CHECK_INT(a2xx_fetch_decode(tf, &f), A2XX_OK);
	CHECK_INT(f.use_reg_lod, 2);
	/* 8. overlapping export masks: both operations print (Xenia: 1.0) */
	disasm(&S, W_ALU, sq, t, sizeof t);
	CHECK(strstr(t, "MAXv\texport0.xy_w") && strstr(t, "SQRT_IEEE\texport0.__zw"));
	/* a constant's index is the whole byte: CONST is 130 in the decoding,
	 * and the text is Mesa's, 6 bits and bit 7 as abs bars: |C2| */
	uint32_t cw[3] = {0x140f0000, 0x00000000, 0xa0008200};
	CHECK_INT(a2xx_alu_decode(cw, &a), A2XX_OK);
	CHECK(!a.src[1].temp && a.src[1].reg == 0x82);
	decode(&S, S.alu, (uint64_t[2]){(uint64_t)cw[1] << 32 | cw[0], cw[2]}, &x);
	bool const130 = false;
	for (size_t i = 0; i < x.d.nvalues; i++)
		const130 |= x.d.values[i].field && !strcmp(x.d.values[i].field->name, "CONST") &&
		            x.d.values[i].value == 130;
	CHECK(const130);
	disasm(&S, W_ALU, cw, t, sizeof t);
	CHECK_STR(t, "ADDv\tR0 = R0, |C2|");
}

TEST(test_displays)
{
	char t[512];
	/* relative swizzles: 0x6c is xxxx in every channel */
	uint32_t w[3] = {0x14010001, 0x026c6c00, 0x60010100};
	disasm(&S, W_ALU, w, t, sizeof t);
	CHECK_STR(t, "ADDv\tR1.x___ = C1.xxxx, -R1.xxxx");
	unsigned yyyy[4] = {1, 1, 1, 1};
	CHECK_INT(a2xx_swizzle_make(yyyy), 0xb1);
	for (unsigned i = 0; i < 4; i++)
		CHECK_INT(a2xx_swizzle_component(0xb1, i), 1);
	/* three sources print src3 first; predication and clamp */
	uint32_t m[3] = {0x150f0002, 0x18000000, 0xeb010402};
	disasm(&S, W_ALU, m, t, sizeof t);
	CHECK_STR(t, "MULADDvEQ\tR2 = R2, R1, R4 CLAMP");
	/* absolute value bars on a temporary */
	uint32_t ab[3] = {0x140f0000, 0x00000000, 0xe0818100};
	disasm(&S, W_ALU, ab, t, sizeof t);
	CHECK_STR(t, "ADDv\tR0 = |R1|, |R1|");
	/* CF forms and their optional parts */
	a2xx_cf c = {.opc = A2XX_CF_COND_JMP, .address = 0x12, .predicated = true, .condition = 1,
	             .direction = 1, .absolute = true};
	uint64_t v;
	uint32_t pw[3];
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_OK);
	a2xx_cf l = {.opc = A2XX_CF_LOOP_START, .address = 7, .loop_id = 3};
	uint64_t lv;
	CHECK_INT(a2xx_cf_encode(&l, &lv), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(v, lv, pw), A2XX_OK);
	disasm(&S, W_PAIR, pw, t, sizeof t);
	CHECK_STR(t, "COND_JMP ADDR(0x12) DIR(1) COND(1) ABSOLUTE_ADDR\nLOOP_START ADDR(0x7) LOOP_ID(3)");
	c = (a2xx_cf){.opc = A2XX_CF_EXEC, .address = 2, .count = 1, .yield = true, .vc = 3};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(v, 0xf00000000000ull, pw), A2XX_OK);
	disasm(&S, W_PAIR, pw, t, sizeof t);
	CHECK_STR(t, "EXEC ADDR(0x2) CNT(0x1) YIELD VC(0x3)\nMARK_VS_FETCH_DONE");
	/* texture fetch with filters, LOD bias and offsets */
	a2xx_fetch f = {.opc = A2XX_TEX_FETCH, .dst_reg = 3, .src_reg = 2, .dst_swiz = 0x688,
	                .src_swiz = 0x24, .const_index = 5, .mag_filter = 1, .min_filter = 3,
	                .mip_filter = 3, .aniso_filter = 7, .arbitrary_filter = 7,
	                .vol_mag_filter = 3, .vol_min_filter = 3, .lod_bias = 4,
	                .sample_location = 1, .offset_x = 1, .offset_z = 2, .pred_select = true};
	uint32_t fw[3];
	CHECK_INT(a2xx_fetch_encode(&f, fw), A2XX_OK);
	disasm(&S, W_FETCH, fw, t, sizeof t);
	CHECK_STR(t, "SAMPLENE\tR3.xyzw = R2.xyz CONST(5) MAG(LINEAR) LOD(0) LOD_BIAS(4) "
	             "LOCATION(CENTER) OFFSET(1,0,2)");
}

/* Where Mesa's name tables have gaps or other names, the text is Mesa's
 * (disasm-a2xx.c; tests/test_oracle_a2xx.c holds the whole programs to
 * Mesa's own code), the decoding keeps the hardware's meaning. */
TEST(test_mesa_text)
{
	char t[512];
	/* vector 31 (VECTOR_NONE): no name in Mesa's table, one operand */
	uint32_t vn[3] = {0x000f0000, 0, 0x1f000000};
	disasm(&S, W_ALU, vn, t, sizeof t);
	CHECK_STR(t, "(null)\tR0 = C0");
	/* scalar 63 (SCALAR_NONE) and the unassigned 41: OP(n) */
	uint32_t sn[3] = {0xfc1f0000, 0, 0x01000000};
	disasm(&S, W_ALU, sn, t, sizeof t);
	CHECK_STR(t, "MULv\tR0 = C0, C0\n\t\t    \tOP(63)\tR0.x___ = C0");
	uint32_t s41[3] = {0xa41f0000, 0, 0x01000000};
	disasm(&S, W_ALU, s41, t, sizeof t);
	CHECK(!strncmp(t, "MULv\tR0 = C0, C0\n\t\t    \tOP(41)\tR0.x___ = C0\t; ", 41));
	a2xx_alu a;
	CHECK_INT(a2xx_alu_decode(s41, &a), A2XX_BAD_OPCODE);
	/* a jump's boolean address prints as BOOL_ADDR */
	a2xx_cf c = {.opc = A2XX_CF_COND_CALL, .address = 3, .bool_addr = 5};
	uint64_t v;
	uint32_t pw[3];
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(v, 0, pw), A2XX_OK);
	disasm(&S, W_PAIR, pw, t, sizeof t);
	CHECK_STR(t, "COND_CALL ADDR(0x3) DIR(0) BOOL_ADDR(0x5)\nNOP");
	/* texture: the TEX_GET and gradient forms are "?", arbitrary filters
	 * have a small x */
	a2xx_fetch f = {.opc = A2XX_TEX_GET_GRADIENTS, .dst_swiz = 0xfff, .mag_filter = 3,
	                .min_filter = 3, .mip_filter = 3, .aniso_filter = 7,
	                .arbitrary_filter = 0, .vol_mag_filter = 3, .vol_min_filter = 3,
	                .use_comp_lod = true};
	uint32_t fw[3];
	CHECK_INT(a2xx_fetch_encode(&f, fw), A2XX_OK);
	disasm(&S, W_FETCH, fw, t, sizeof t);
	CHECK_STR(t, "?\tR0.____ = R0.xxx CONST(0) ARBITRARY(2x4_SYM) LOCATION(CENTROID)");
	/* vertex formats: Mesa names 14 of them, the others print TYPE(0xN) */
	a2xx_fetch vf = {.opc = A2XX_VTX_FETCH, .dst_swiz = 0x688, .format = 36, .num_format = 1};
	CHECK_INT(a2xx_fetch_encode(&vf, fw), A2XX_OK);
	disasm(&S, W_FETCH, fw, t, sizeof t);
	CHECK_STR(t, "VERTEX\tR0.xyzw = R0.x FMT_32_FLOAT UNSIGNED STRIDE(0) CONST(0, 0)");
	vf.format = 1;
	CHECK_INT(a2xx_fetch_encode(&vf, fw), A2XX_OK);
	disasm(&S, W_FETCH, fw, t, sizeof t);
	CHECK_STR(t, "VERTEX\tR0.xyzw = R0.x TYPE(0x1) UNSIGNED STRIDE(0) CONST(0, 0)");
	/* bit 19 of a vertex fetch is an <assert>: clear, the fetch still
	 * prints as Mesa prints it, with the warning, and the reference
	 * calls it a wrong fixed bit */
	fw[0] &= ~(1u << 19);
	disasm(&S, W_FETCH, fw, t, sizeof t);
	CHECK(!strncmp(t, "VERTEX\tR0.xyzw = R0.x TYPE(0x1) UNSIGNED STRIDE(0) CONST(0, 0)\t; "
	                  "WARNING: unexpected bits[19:19]", 84));
	CHECK_INT(a2xx_fetch_decode(fw, &f), A2XX_FIXED_BIT);
}

TEST(test_ref_errors)
{
	uint64_t v;
	a2xx_cf c = {.opc = A2XX_CF_EXEC, .address = 512};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_RANGE);
	c = (a2xx_cf){.opc = A2XX_CF_LOOP_END, .address = 1023};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_OK);
	c = (a2xx_cf){.opc = A2XX_CF_ALLOC, .count = 1};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_UNUSED_FIELD);
	c = (a2xx_cf){.opc = (a2xx_cf_opc)16};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_BAD_OPCODE);
	c = (a2xx_cf){.opc = A2XX_CF_NOP, .dontcare = 1ull << 44};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_RANGE);
	a2xx_cf d;
	CHECK_INT(a2xx_cf_decode(1ull << 48, &d), A2XX_RANGE);
	uint32_t w[3];
	CHECK_INT(a2xx_cf_pair_pack(1ull << 48, 0, w), A2XX_RANGE);

	a2xx_alu a = {0};
	a.vector_opc = 30;
	CHECK_INT(a2xx_alu_encode(&a, w), A2XX_BAD_OPCODE);
	a.vector_opc = 0;
	a.scalar_opc = 41;
	CHECK_INT(a2xx_alu_encode(&a, w), A2XX_BAD_OPCODE);
	a.scalar_opc = 0;
	a.src[0].temp = true;
	a.src[0].reg = 64;
	CHECK_INT(a2xx_alu_encode(&a, w), A2XX_RANGE);
	a.src[0] = (a2xx_alu_src){.temp = false, .reg = 255};
	CHECK_INT(a2xx_alu_encode(&a, w), A2XX_OK);
	a.src[0].abs = true;
	CHECK_INT(a2xx_alu_encode(&a, w), A2XX_UNUSED_FIELD);
	a.src[0].abs = false;
	a.vector_mask = 16;
	CHECK_INT(a2xx_alu_encode(&a, w), A2XX_RANGE);
	uint32_t bad[3] = {0, 0, 30u << 24};
	CHECK_INT(a2xx_alu_decode(bad, &a), A2XX_BAD_OPCODE);

	a2xx_fetch f = {.opc = 2};
	CHECK_INT(a2xx_fetch_encode(&f, w), A2XX_BAD_OPCODE);
	f = (a2xx_fetch){.opc = A2XX_VTX_FETCH, .mag_filter = 1};
	CHECK_INT(a2xx_fetch_encode(&f, w), A2XX_UNUSED_FIELD);
	f = (a2xx_fetch){.opc = A2XX_TEX_FETCH, .offset_x = 32};
	CHECK_INT(a2xx_fetch_encode(&f, w), A2XX_RANGE);
	uint32_t novtx[3] = {0, 0, 0}; /* vertex fetch with bit 19 clear */
	CHECK_INT(a2xx_fetch_decode(novtx, &f), A2XX_FIXED_BIT);
	CHECK_STR(a2xx_status_name(A2XX_FIXED_BIT), "fixed bit has the wrong value");

	/* program walks: no EXEC, truncation, overlapping claims */
	uint32_t prog[9] = {0};
	a2xx_slot slots[3];
	size_t n, ncf;
	CHECK_INT(a2xx_program_walk(prog, 9, slots, 3, &n, &ncf), A2XX_BAD_PROGRAM);
	CHECK_INT(a2xx_program_walk(prog, 8, slots, 3, &n, &ncf), A2XX_TRUNCATED);
	CHECK_INT(a2xx_program_walk(prog, 9, slots, 2, &n, &ncf), A2XX_TOO_MANY);
	/* EXEC ADDR(1) CNT(3) in a 3-slot program: runs past the end */
	c = (a2xx_cf){.opc = A2XX_CF_EXEC, .address = 1, .count = 3};
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(v, 0, prog), A2XX_OK);
	CHECK_INT(a2xx_program_walk(prog, 9, slots, 3, &n, &ncf), A2XX_TRUNCATED);
	/* two EXECs claiming slot 1 as ALU and as FETCH */
	a2xx_cf c2 = {.opc = A2XX_CF_EXEC_END, .address = 1, .count = 1, .serialize = 1};
	uint64_t v2;
	c.count = 1;
	CHECK_INT(a2xx_cf_encode(&c, &v), A2XX_OK);
	CHECK_INT(a2xx_cf_encode(&c2, &v2), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(v, v2, prog), A2XX_OK);
	CHECK_INT(a2xx_program_walk(prog, 6, slots, 3, &n, &ncf), A2XX_BAD_PROGRAM);
	c2.serialize = 0;
	CHECK_INT(a2xx_cf_encode(&c2, &v2), A2XX_OK);
	CHECK_INT(a2xx_cf_pair_pack(v, v2, prog), A2XX_OK);
	CHECK_INT(a2xx_program_walk(prog, 6, slots, 3, &n, &ncf), A2XX_OK);
	CHECK_INT(n, 2);
	CHECK_INT(ncf, 1);
	CHECK_INT(slots[1].kind, A2XX_SLOT_ALU);
}

int main(void)
{
	have_spec = load_spec(&S);
	if (have_spec) {
		RUN(test_check_roots);
		RUN(test_choices);
		RUN(test_displays);
	RUN(test_mesa_text);
		nrows = read_rows(rows, N(rows));
		RUN(test_blob_rows);
		RUN(test_blob_programs);
		RUN(test_random_agreement);
	}
	RUN(test_ref_errors);
	free_rows(rows, nrows);
	free_spec(&S);
	return testlib_finish();
}
