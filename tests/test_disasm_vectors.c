/*
 * test_disasm_vectors.c - the decoder and disassembler (src/codec):
 *
 *  - conformance with Mesa's own vectors (../shared/mesa/vectors): every
 *    ir3 and etnaviv vector prints byte-identical text; afuc sections,
 *    decoded as whole programs, match on every row that needs neither
 *    afuc's register database nor its labels;
 *  - unit tests on small specs written here: every field type's
 *    printing, overrides, derived fields, params, {NAME}, align,
 *    templates, asserts, don't-care bits, no match, ambiguity, errors,
 *    garbage input, and codec_decode's value list.
 *
 * The conformance part skips (exit 77) when ../shared is absent, unless
 * CI=true, where that is a failure.  ISACHECK_BENCH=1 also measures the
 * disassembly speed over the ir3 and etnaviv vectors.
 */
/* Private to src/codec, by path (src/spec has an internal.h of its own):
 * the codec without its fast paths (codec_new_opt), the plain
 * interpretation the fast one must agree with; how many instructions
 * print straight through (codec_fast_count); the text writer. */
#include "../src/codec/out.h"
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>

#define N(a) (sizeof(a) / sizeof(*(a)))


/* ------------------------------------------------------------ helpers */

/* Everything codec_disasm writes for these words, as a malloc'd string. */
static char *disasm_str(const codec *c, const uint32_t *words, size_t n,
                        const codec_disasm_options *opt, size_t *ok)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	size_t r = codec_disasm(c, words, n, opt, f);
	fclose(f);
	if (ok)
		*ok = r;
	return buf;
}

typedef testlib_codec loaded;

static loaded load_mesa(const char *rel)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", rel);
	return testlib_load_codec(path);
}

static void unload(loaded *l)
{
	testlib_unload_codec(l);
}

static bool open_vectors(testlib_tsv *t, const char *name)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/vectors/%s", name);
	bool ok = testlib_tsv_open(t, path);
	CHECK(ok);
	return ok;
}

/* --------------------------------------------------------- ir3 / etnaviv */

typedef struct vector {
	uint32_t words[4];
	size_t nwords;
	uint32_t gen;
	char *expected;
} vector;

static size_t read_vectors(const char *name, vector *v, size_t max, int gen_col)
{
	testlib_tsv t;
	if (!open_vectors(&t, name))
		return 0;
	size_t n = 0, nc;
	char *cols[16];
	while (n < max && (nc = testlib_tsv_next(&t, cols, 16))) {
		if (nc < 3)
			continue;
		v[n].nwords = testlib_parse_words(cols[1], v[n].words, 4);
		v[n].gen = gen_col >= 0 && (size_t)gen_col < nc ? (uint32_t)strtoul(cols[gen_col], NULL, 10) : 0;
		testlib_unescape(cols[2]);
		v[n].expected = strdup(cols[2]);
		n++;
	}
	testlib_tsv_close(&t);
	return n;
}

static void free_vectors(vector *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].expected);
}

static vector ir3_vec[400], etna_vec[200];
static size_t nir3, netna;

TEST(ir3_vectors)
{
	loaded l = load_mesa("freedreno/isa/ir3.xml");
	if (!l.c)
		return;
	nir3 = read_vectors("ir3.tsv", ir3_vec, N(ir3_vec), 3);
	CHECK_INT(nir3, 322);
	size_t same = 0;
	for (size_t i = 0; i < nir3; i++) {
		const vector *v = &ir3_vec[i];
		codec_disasm_options opt = {.gen = v->gen, .show_errors = true,
		                            .branch_labels = false, .no_match = CODEC_NO_MATCH_IR3};
		char *text = disasm_str(l.c, v->words, 1, &opt, NULL);
		CHECK(text != NULL);
		if (!text)
			continue;
		/* ir3's test trims the trailing newline */
		size_t tl = strlen(text);
		while (tl && text[tl - 1] == '\n')
			text[--tl] = '\0';
		char one[1024];
		size_t ol = codec_disasm_one(l.c, v->words, &opt, one, sizeof one);
		CHECK_INT(ol, strlen(one));
		bool ok = !strcmp(text, v->expected) && !strcmp(one, v->expected);
		same += ok;
		if (!ok)
			fprintf(stderr, "ir3 %08x %08x gen %u:\n  got      \"%s\"\n"
			        "  one      \"%s\"\n  expected \"%s\"\n",
			        v->words[0], v->words[1], v->gen, text, one, v->expected);
		free(text);
	}
	CHECK_INT(same, nir3);
	printf("ir3: %zu/%zu vectors identical\n", same, nir3);
	unload(&l);
}

TEST(etnaviv_vectors)
{
	loaded l = load_mesa("etnaviv/isa/etnaviv.xml");
	if (!l.c)
		return;
	netna = read_vectors("etnaviv.tsv", etna_vec, N(etna_vec), -1);
	CHECK_INT(netna, 156);
	size_t same = 0;
	for (size_t i = 0; i < netna; i++) {
		const vector *v = &etna_vec[i];
		codec_disasm_options opt = {.gen = 0, .show_errors = true, .branch_labels = false,
		                            .no_match = CODEC_NO_MATCH_MESA};
		char *text = disasm_str(l.c, v->words, 1, &opt, NULL);
		CHECK(text != NULL);
		if (!text)
			continue;
		bool ok = !strcmp(text, v->expected);
		same += ok;
		if (!ok)
			fprintf(stderr, "etnaviv %08x %08x %08x %08x:\n  got      \"%s\"\n  expected \"%s\"\n",
			        v->words[0], v->words[1], v->words[2], v->words[3], text, v->expected);
		free(text);
	}
	CHECK_INT(same, netna);
	printf("etnaviv: %zu/%zu vectors identical\n", same, netna);
	unload(&l);
}

/* ----------------------------------------------------------------- afuc */

typedef struct afuc_row {
	char fw[160], section[16];
	uint32_t word;
	uint32_t gen;
	size_t n;           /* n_in_section */
	char kind[48];
	bool label_refs;
	char *expected;
} afuc_row;

/* Whether a row's text can come from isaspec alone: no register name
 * (afuc prints custom fields, @CONTROLREG and %SQEREG, from its rnn
 * register database through field_print_cb), no rnn comment ("\t; ..."),
 * no jump-table literal. */
static bool afuc_isaspec_only(const codec *c, const afuc_row *r)
{
	if (strstr(r->kind, "jumptbl") || strchr(r->expected, '@') ||
	    strchr(r->expected, '%') || strstr(r->expected, "\t;"))
		return false;
	codec_value vals[32];
	codec_issue iss[8];
	codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss,
	                   .cap_issues = N(iss)};
	uint64_t w = r->word;
	codec_decode(c, NULL, &w, r->gen, &d);
	for (size_t i = 0; i < d.nvalues; i++)
		if (d.values[i].field->type == SPEC_TYPE_CUSTOM)
			return false;
	return true;
}

TEST(afuc_vectors)
{
	loaded l = load_mesa("freedreno/afuc/afuc.xml");
	if (!l.c)
		return;
	testlib_tsv tsv;
	if (!open_vectors(&tsv, "afuc.tsv")) {
		unload(&l);
		return;
	}
	static afuc_row rows[400];
	size_t nrows = 0, nc;
	char *cols[16];
	while (nrows < N(rows) && (nc = testlib_tsv_next(&tsv, cols, 16))) {
		if (nc < 10)
			continue;
		afuc_row *r = &rows[nrows++];
		snprintf(r->fw, sizeof r->fw, "%s", cols[9]);
		snprintf(r->section, sizeof r->section, "%s", cols[3]);
		testlib_parse_words(cols[1], &r->word, 1);
		r->gen = !strcmp(cols[0], "a7xx") ? 7 : 6;
		r->n = strtoul(cols[5], NULL, 10);
		snprintf(r->kind, sizeof r->kind, "%s", cols[6]);
		r->label_refs = cols[7][0] != '\0';
		testlib_unescape(cols[2]);
		r->expected = strdup(cols[2]);
	}
	testlib_tsv_close(&tsv);
	CHECK_INT(nrows, 346);

	size_t same = 0, eligible = 0, eligible_same = 0, other_same = 0;
	size_t why_jumptbl = 0, why_comment = 0, why_register = 0;
	for (size_t i = 0; i < nrows;) {
		/* one section: consecutive rows of one fw file and section */
		size_t j = i;
		while (j < nrows && !strcmp(rows[j].fw, rows[i].fw) &&
		       !strcmp(rows[j].section, rows[i].section))
			j++;
		/* words at their index in the section; a gap (words that are no
		 * row, e.g. after LPAC's last instruction) stays 0 */
		size_t n = 0;
		for (size_t k = i; k < j; k++)
			n = rows[k].n + 1 > n ? rows[k].n + 1 : n;
		uint32_t *words = calloc(n ? n : 1, sizeof *words);
		afuc_row **at = calloc(n ? n : 1, sizeof *at);
		CHECK(words && at);
		for (size_t k = i; words && at && k < j; k++) {
			words[rows[k].n] = rows[k].word;
			at[rows[k].n] = &rows[k];
		}
		codec_disasm_options opt = {.gen = rows[i].gen, .show_errors = true,
		                            .branch_labels = true, .no_match = CODEC_NO_MATCH_AFUC};
		char *text = words && at ? disasm_str(l.c, words, n, &opt, NULL) : NULL;
		CHECK(text != NULL);
		/* drop label lines (and the empty line before a function's),
		 * then line k is instruction k */
		size_t k = 0;
		for (char *p = text, *e; p && *p && k < n; p = e + 1) {
			e = strchr(p, '\n');
			if (!e)
				break;
			*e = '\0';
			size_t ll = strlen(p);
			if (!ll || (p[ll - 1] == ':' && (p[0] == 'l' || !strncmp(p, "fxn", 3))))
				continue;
			afuc_row *r = at[k++];
			if (!r)
				continue;
			bool ok = !strcmp(p, r->expected);
			bool el = afuc_isaspec_only(l.c, r);
			same += ok;
			eligible += el;
			eligible_same += el && ok;
			other_same += !el && ok;
			if (!ok) {
				/* why afuc's own disassembler prints something else */
				if (strstr(r->kind, "jumptbl"))
					why_jumptbl++;
				else if (strstr(r->expected, "\t;"))
					why_comment++;
				else
					why_register++;
			}
			if (el && !ok)
				fprintf(stderr, "afuc %s %s #%zu %08x: got \"%s\", expected \"%s\"\n",
				        r->fw, r->section, r->n, r->word, p, r->expected);
		}
		CHECK_INT(k, n);
		free(text);
		free(words);
		free(at);
		i = j;
	}
	printf("afuc: %zu/%zu rows identical; %zu/%zu of the rows that need no register names "
	       "or comments (+%zu others); the rest: %zu jump-table literals, %zu rnn comments, "
	       "%zu register names (custom fields)\n",
	       same, nrows, eligible_same, eligible, other_same, why_jumptbl, why_comment,
	       why_register);
	CHECK(eligible >= 224);
	CHECK_INT(eligible_same, eligible);
	for (size_t i = 0; i < nrows; i++)
		free(rows[i].expected);
	unload(&l);
}

/* The vectors with a few bits flipped: valid instructions of every kind,
 * with and without don't-care bits, asserts and no-matches; the fast
 * paths must print and decode them exactly as the plain interpretation. */
TEST(mutated_vectors)
{
	const char *files[] = {"freedreno/isa/ir3.xml", "etnaviv/isa/etnaviv.xml"};
	vector *sets[] = {ir3_vec, etna_vec};
	size_t counts[] = {nir3, netna};
	uint64_t seed = 0x13198a2e03707344ull;
	for (int f = 0; f < 2; f++) {
		loaded l = load_mesa(files[f]);
		if (!l.c)
			continue;
		spec_diags dd = {0};
		codec *slow = codec_new_opt(l.m, &dd, false);
		spec_diags_free(&dd);
		CHECK(slow != NULL);
		size_t differ = 0, matched = 0, total = 0;
		for (size_t i = 0; slow && i < counts[f]; i++) {
			for (int m = 0; m < 200; m++) {
				uint32_t w[4];
				memcpy(w, sets[f][i].words, sizeof w);
				for (int k = 0; k < 1 + m % 3; k++) {
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					unsigned bit = (unsigned)(seed % (f ? 128 : 64));
					w[bit / 32] ^= 1u << (bit % 32);
				}
				codec_disasm_options o = {.gen = sets[f][i].gen, .show_errors = true,
				                          .branch_labels = m % 5 == 0,
				                          .no_match = CODEC_NO_MATCH_MESA};
				char a[512], b[512];
				codec_disasm_one(l.c, w, &o, a, sizeof a);
				codec_disasm_one(slow, w, &o, b, sizeof b);
				total++;
				matched += strncmp(a, "no match", 8) != 0;
				if (strcmp(a, b) && differ++ < 5)
					fprintf(stderr, "fast/plain differ on %s %08x %08x %08x %08x:\n"
					        "  fast  \"%s\"\n  plain \"%s\"\n", files[f], w[0], w[1],
					        w[2], w[3], a, b);
			}
		}
		CHECK_INT(differ, 0);
		printf("mutated %s: %zu words, %zu matched a leaf, %zu differ\n", files[f], total,
		       matched, differ);
		/* a codec built for some words only (codec_new_for_words, what
		 * disasm uses for a few) prints them as the general one does:
		 * batches of 1 to 7 mutated words of every 8th vector */
		unsigned iw = f ? 4 : 2;
		size_t batches = 0, bdiffer = 0;
		for (size_t i = 0; slow && i < counts[f]; i += 8) {
			for (int m = 0; m < 40; m++) {
				uint32_t w[7 * 4];
				size_t n = 1 + (size_t)m % 7;
				for (size_t k = 0; k < n; k++) {
					memcpy(w + k * iw, sets[f][i].words, iw * 4);
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					unsigned bit = (unsigned)(seed % (iw * 32));
					w[k * iw + bit / 32] ^= 1u << (bit % 32);
				}
				codec_disasm_options o = {.gen = sets[f][i].gen, .show_errors = true,
				                          .branch_labels = m % 3 == 0,
				                          .no_match = CODEC_NO_MATCH_MESA};
				spec_diags bd = {0};
				codec *few = codec_new_for_words(l.m, codec_default_root(slow), w, iw, n,
				                                 o.gen, &bd);
				spec_diags_free(&bd);
				CHECK(few != NULL);
				char *a = few ? disasm_str(few, w, n, &o, NULL) : NULL;
				char *b = disasm_str(slow, w, n, &o, NULL);
				batches++;
				if (!a || !b || strcmp(a, b)) {
					if (bdiffer++ < 5)
						fprintf(stderr, "for-words/general differ on %s:\n%s---\n%s", files[f],
						        a ? a : "(none)\n", b ? b : "(none)\n");
				}
				free(a);
				free(b);
				codec_free(few);
			}
		}
		CHECK_INT(bdiffer, 0);
		CHECK(batches > 100);
		printf("mutated %s: %zu batches through a codec for their words, %zu differ\n", files[f],
		       batches, bdiffer);
		CHECK(matched > total / 4);
		codec_free(slow);
		unload(&l);
	}
}

/* Disassembly speed over the ir3 and etnaviv vectors (informative). */
TEST(speed)
{
	const char *env = getenv("ISACHECK_BENCH");
	if (!env || !*env || !nir3 || !netna)
		return;
	const char *files[] = {"freedreno/isa/ir3.xml", "etnaviv/isa/etnaviv.xml"};
	vector *sets[] = {ir3_vec, etna_vec};
	size_t counts[] = {nir3, netna};
	for (int s = 0; s < 2; s++) {
		loaded l = load_mesa(files[s]);
		if (!l.c)
			continue;
		char buf[512];
		size_t total = 0, len = 0;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (int rep = 0; rep < 20000; rep++)
			for (size_t i = 0; i < counts[s]; i++) {
				const vector *v = &sets[s][i];
				codec_disasm_options opt = {.gen = v->gen, .show_errors = true,
				                            .no_match = s ? CODEC_NO_MATCH_MESA : CODEC_NO_MATCH_IR3};
				len += codec_disasm_one(l.c, v->words, &opt, buf, sizeof buf);
				total++;
			}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		printf("speed %s: %zu instructions in %.3f s: %.2f M instr/s (%zu chars)\n", files[s],
		       total, sec, (double)total / sec / 1e6, len);
		unload(&l);
	}
}

/* Every hostile or broken spec of tests/bad (and the fuzz corpus) that
 * loads into a model: a codec compiles, and random words decode and
 * print without a crash or an over-long text, fast and plain alike. */
TEST(hostile_specs)
{
	const char *dirs[] = {ISACHECK_SOURCE_DIR "/tests/bad", ISACHECK_SOURCE_DIR "/tests/bad/inc",
	                      ISACHECK_SOURCE_DIR "/corpus/spec_loader"};
	size_t loaded_specs = 0;
	uint64_t seed = 0xa4093822299f31d0ull;
	for (size_t di = 0; di < N(dirs); di++) {
		DIR *dir = opendir(dirs[di]);
		if (!dir)
			continue;
		for (struct dirent *de; (de = readdir(dir));) {
			if (de->d_name[0] == '.')
				continue;
			char path[1024];
			snprintf(path, sizeof path, "%s/%s", dirs[di], de->d_name);
			spec_diags d = {0};
			spec_model *m = spec_load(path, &d);
			codec *c = m ? codec_new(m, &d) : NULL;
			codec *slow = m ? codec_new_opt(m, &d, false) : NULL;
			spec_diags_free(&d);
			if (!m || !m->nroots) {
				codec_free(c);
				codec_free(slow);
				spec_model_free(m);
				continue;
			}
			CHECK(c != NULL && slow != NULL);
			loaded_specs++;
			for (int i = 0; c && slow && i < 300; i++) {
				uint32_t w[SPEC_MAX_BITS / 32];
				for (size_t k = 0; k < N(w); k++) {
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					w[k] = i % 3 ? (uint32_t)seed : 0;
				}
				codec_disasm_options o = {.gen = (uint32_t)(seed >> 40) % 1000,
				                          .show_errors = true, .branch_labels = i % 2,
				                          .no_match = (codec_no_match_style)(i % 3)};
				char a[600], b[600];
				size_t na = codec_disasm_one(c, w, &o, a, sizeof a);
				size_t nb = codec_disasm_one(slow, w, &o, b, sizeof b);
				CHECK(na == nb && !strcmp(a, b));
				codec_value vals[32];
				codec_issue iss[4];
				uint64_t w64[SPEC_MAX_BITS / 64];
				for (size_t k = 0; k < N(w64); k++)
					w64[k] = (uint64_t)w[2 * k] | (uint64_t)w[2 * k + 1] << 32;
				for (size_t r = 0; r < m->nroots; r++) {
					codec_decoded dd = {.values = vals, .cap_values = N(vals),
					                    .issues = iss, .cap_issues = N(iss)};
					codec_decode(c, &m->roots[r], w64, o.gen, &dd);
					CHECK(dd.nvalues <= N(vals) && dd.nissues <= N(iss));
				}
			}
			if (c && slow) {
				/* a whole program, labels and all */
				uint32_t prog[64];
				for (size_t k = 0; k < N(prog); k++)
					prog[k] = (uint32_t)(k * 0x9e3779b9u);
				size_t W = (codec_default_root(c)->bitset->size + 31) / 32;
				codec_disasm_options o = {.show_errors = true, .branch_labels = true};
				char *x1 = disasm_str(c, prog, N(prog) / W, &o, NULL);
				char *x2 = disasm_str(slow, prog, N(prog) / W, &o, NULL);
				CHECK(x1 && x2 && !strcmp(x1, x2));
				free(x1);
				free(x2);
			}
			codec_free(c);
			codec_free(slow);
			spec_model_free(m);
		}
		closedir(dir);
	}
	printf("hostile specs: %zu loaded and decoded\n", loaded_specs);
	CHECK(loaded_specs > 10);
}

/* ------------------------------------------------------------ unit tests */

typedef struct tspec {
	spec_model *m;
	codec *c;
} tspec;

static tspec load_str(const char *xml)
{
	spec_diags d = {0};
	tspec t = {0};
	t.m = spec_load_buffer("t.xml", xml, strlen(xml), ".", &d);
	CHECK(t.m != NULL);
	if (t.m) {
		t.c = codec_new(t.m, &d);
		CHECK(t.c != NULL);
	}
	for (size_t i = 0; i < d.count; i++)
		if (d.items[i].severity == SPEC_FATAL)
			fprintf(stderr, "  %u: %s [%s]\n", d.items[i].loc.line, d.items[i].message,
			        d.items[i].rule);
	spec_diags_free(&d);
	return t;
}

static void tfree(tspec *t)
{
	codec_free(t->c);
	spec_model_free(t->m);
}

static char dis_buf[4096];

/* One instruction (low word first) as codec_disasm_one prints it. */
static const char *dis_opt(const tspec *t, uint64_t w, const codec_disasm_options *o)
{
	uint32_t words[2] = {(uint32_t)w, (uint32_t)(w >> 32)};
	dis_buf[0] = '\0';
	if (!t->c)
		return dis_buf;
	size_t n = codec_disasm_one(t->c, words, o, dis_buf, sizeof dis_buf);
	CHECK_INT(n, strlen(dis_buf));
	return dis_buf;
}

static const char *dis(const tspec *t, uint64_t w)
{
	codec_disasm_options o = {.gen = 0, .show_errors = true};
	return dis_opt(t, w, &o);
}

/* A whole program through codec_disasm, as one string (static). */
static const char *dis_prog(const tspec *t, const uint32_t *words, size_t n,
                            const codec_disasm_options *o)
{
	static char out[8192];
	out[0] = '\0';
	if (!t->c)
		return out;
	char *s = disasm_str(t->c, words, n, o, NULL);
	if (s) {
		snprintf(out, sizeof out, "%s", s);
		free(s);
	}
	return out;
}

#define HDR "<?xml version=\"1.0\"?>\n<isa>\n"

static const char types_xml[] = HDR
	"<enum name=\"#e\"><value val=\"1\" display=\"one\"/><value val=\"0x2\" display=\"two\"/></enum>\n"
	"<bitset name=\"#i\" size=\"64\">\n"
	"  <display>{NAME}?</display>\n"
	"</bitset>\n"
	"<bitset name=\"t\" extends=\"#i\">\n"
	"  <field name=\"U\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
	"  <field name=\"I\" low=\"4\" high=\"7\" type=\"int\"/>\n"
	"  <field name=\"H\" low=\"8\" high=\"15\" type=\"hex\"/>\n"
	"  <field name=\"B\" pos=\"16\" type=\"bool\"/>\n"
	"  <field name=\"BD\" pos=\"17\" type=\"bool\" display=\"(bd)\"/>\n"
	"  <field name=\"BI\" pos=\"18\" type=\"bool_inv\"/>\n"
	"  <field name=\"BID\" pos=\"19\" type=\"bool_inv\" display=\"(bid)\"/>\n"
	"  <field name=\"O\" low=\"20\" high=\"23\" type=\"offset\"/>\n"
	"  <field name=\"UO\" low=\"24\" high=\"27\" type=\"uoffset\"/>\n"
	"  <field name=\"E\" low=\"28\" high=\"29\" type=\"#e\"/>\n"
	"  <field name=\"C\" low=\"30\" high=\"31\" type=\"custom\"/>\n"
	"  <field name=\"F\" low=\"32\" high=\"47\" type=\"float\"/>\n"
	"  <pattern low=\"48\" high=\"63\">0000000000000001</pattern>\n"
	"  <display>{U} {I} {H} {B}{BD} {BI}{BID} [{O}] [{UO}] {E} &lt;{C}&gt; {F}</display>\n"
	"</bitset>\n"
	"<bitset name=\"f32\" extends=\"#i\">\n"
	"  <field name=\"F\" low=\"0\" high=\"31\" type=\"float\"/>\n"
	"  <pattern low=\"32\" high=\"63\">00000000000000000000000000000010</pattern>\n"
	"  <display>{F}</display>\n"
	"</bitset>\n"
	"</isa>\n";

static uint64_t t_word(unsigned u, unsigned i, unsigned h, unsigned b, unsigned bd, unsigned bi,
                       unsigned bid, unsigned o, unsigned uo, unsigned e, unsigned c,
                       unsigned f)
{
	return (uint64_t)u | (uint64_t)i << 4 | (uint64_t)h << 8 | (uint64_t)b << 16 |
	       (uint64_t)bd << 17 | (uint64_t)bi << 18 | (uint64_t)bid << 19 |
	       (uint64_t)o << 20 | (uint64_t)uo << 24 | (uint64_t)e << 28 | (uint64_t)c << 30 |
	       (uint64_t)f << 32 | (uint64_t)1 << 48;
}

TEST(field_types)
{
	tspec t = load_str(types_xml);
	if (!t.c)
		return;
	CHECK_STR(dis(&t, t_word(15, 8, 0xab, 1, 1, 1, 1, 0, 0, 1, 3, 0x3c00)),
	          "15 -8 ab 1(bd) 0 [] [] one <> 1.000000");
	CHECK_STR(dis(&t, t_word(0, 7, 0, 0, 0, 0, 0, 15, 3, 2, 0, 0xc000)),
	          "0 7 0 0 1(bid) [-1] [+3] two <> -2.000000");
	CHECK_STR(dis(&t, t_word(1, 15, 1, 0, 0, 0, 0, 7, 15, 0, 0, 0x7e00)),
	          "1 -1 1 0 1(bid) [+7] [+15] 0 <> nan");
	CHECK_STR(dis(&t, t_word(1, 0, 0, 0, 0, 0, 0, 8, 0, 3, 0, 0xfe00)),
	          "1 0 0 0 1(bid) [-8] [] 3 <> -nan");
	CHECK_STR(dis(&t, t_word(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0001)),
	          "0 0 0 0 1(bid) [] [] 0 <> 0.000000");
	CHECK_STR(dis(&t, t_word(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7c00)),
	          "0 0 0 0 1(bid) [] [] 0 <> inf");
	CHECK_STR(dis(&t, t_word(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3555)),
	          "0 0 0 0 1(bid) [] [] 0 <> 0.333252");
	uint64_t f32 = (uint64_t)2 << 32;
	CHECK_STR(dis(&t, f32 | 0x3f800000u), "1.000000");
	CHECK_STR(dis(&t, f32 | 0xc1200000u), "-10.000000");
	CHECK_STR(dis(&t, f32 | 0xffc00000u), "-nan");
	CHECK_STR(dis(&t, f32 | 0x7fc00000u), "nan");
	CHECK_STR(dis(&t, f32 | 0x00000001u), "0.000000");
	/* the enum value 3 is missing: codec_decode says so */
	codec_value vals[32];
	codec_issue iss[8];
	codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss, .cap_issues = N(iss)};
	uint64_t w = t_word(0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0);
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.nissues, 1);
	CHECK_INT(d.issues[0].kind, CODEC_ENUM_MISSING);
	tfree(&t);
}

/* Float fields print with our own "%f": byte for byte glibc's printf on
 * every half, on every dyadic k / 2^n that can tie at the sixth decimal,
 * and on random floats; what it does not print (NaN, infinities, values
 * of 2^64 and more) it leaves to printf. */
static unsigned long f6_bad;

static void f6_check(double d)
{
	char mine[40], libc[400];
	int n = codec_format_f6(d, mine);
	snprintf(libc, sizeof libc, "%f", d);
	if (n < 0 ? !(d != d || d - d != 0 || d >= 18446744073709551616.0 ||
	              d <= -18446744073709551616.0)
	          : (strcmp(mine, libc) || (size_t)n != strlen(libc))) {
		if (f6_bad++ < 5)
			fprintf(stderr, "  %%f of %a: ours %s, printf %s\n", d, n < 0 ? "(none)" : mine,
			        libc);
	}
}

static double f32_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* Hex digits come 8 at a time from bit arithmetic (cx_hex8): each value
 * prints as printf's %llx / %llX / %X do, without leading zeros (out_hex,
 * out_hex32_upper), and as Mesa's fixed-width words (cx_hex). */
static size_t hex_bad;

static void hex_check(uint64_t v)
{
	char want[40], got[40];
	for (int upper = 0; upper < 2; upper++) {
		snprintf(want, sizeof want, upper ? "%llX" : "%llx", (unsigned long long)v);
		cx_out o = {.buf = got, .cap = sizeof got};
		out_hex(&o, v, upper);
		got[o.len] = '\0';
		if (strcmp(want, got) && hex_bad++ < 5)
			fprintf(stderr, "out_hex(%llx, %d): \"%s\"\n", (unsigned long long)v, upper, got);
	}
	snprintf(want, sizeof want, "%X", (unsigned)(uint32_t)v);
	cx_out o32 = {.buf = got, .cap = sizeof got};
	out_hex32_upper(&o32, (uint32_t)v);
	got[o32.len] = '\0';
	if (strcmp(want, got) && hex_bad++ < 5)
		fprintf(stderr, "out_hex32_upper(%08x): \"%s\"\n", (unsigned)(uint32_t)v, got);
	/* both ways of spreading the digits: shifts, and pdep where the
	 * CPU has it fast */
	for (int pdep = 0; pdep < 1 + codec_cpu_pext(); pdep++) {
		uint64_t d = cx_hex8p((uint32_t)v, false, pdep);
		memcpy(got, &d, 8);
		got[8] = '\0';
		snprintf(want, sizeof want, "%08x", (unsigned)(uint32_t)v);
		if (strcmp(want, got) && hex_bad++ < 5)
			fprintf(stderr, "cx_hex8p(%08x, pdep %d): \"%s\"\n", (unsigned)(uint32_t)v, pdep,
			        got);
	}
	/* decimal, as printf's %llu (out_u64: two digits at a time) */
	snprintf(want, sizeof want, "%llu", (unsigned long long)v);
	cx_out od = {.buf = got, .cap = sizeof got};
	out_u64(&od, v);
	got[od.len] = '\0';
	if (strcmp(want, got) && hex_bad++ < 5)
		fprintf(stderr, "out_u64(%llu): \"%s\"\n", (unsigned long long)v, got);
}

TEST(number_text_as_printf)
{
	hex_bad = 0;
	hex_check(0);
	for (unsigned b = 0; b < 64; b++) {
		uint64_t p = (uint64_t)1 << b;
		hex_check(p);
		hex_check(p - 1);
		hex_check(~(p - 1));
	}
	/* every digit in every place */
	for (uint64_t d = 0; d < 16; d++)
		for (unsigned place = 0; place < 16; place++) {
			hex_check(d << (4 * place));
			hex_check(0x0123456789abcdefull ^ (d << (4 * place)));
		}
	/* decimal lengths change at the powers of ten */
	for (uint64_t p = 1, q = 0; q < 20; q++, p *= 10) {
		hex_check(p);
		hex_check(p - 1);
		hex_check(p + 1);
	}
	hex_check(~(uint64_t)0);
	uint64_t r = 0x2545f4914f6cdd1dull;
	for (unsigned i = 0; i < 200000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		hex_check(r >> (i % 64));
	}
	CHECK_INT(hex_bad, 0);
	/* Mesa's words: the model's width (etnaviv: 128 bits), high word first */
	spec_model *m = spec_load(ISACHECK_SOURCE_DIR "/isa/etnaviv.xml", NULL);
	codec *c = m ? codec_new(m, NULL) : NULL;
	CHECK(c != NULL);
	if (c) {
		cx x;
		cx_init(&x, c, CX_DISASM, 0);
		uint64_t w[CODEC_MAX_WORDS] = {0x0123456789abcdefull, 0xfedcba9876543210ull};
		char buf[CODEC_MAX_WORDS * 16 + 1];
		cx_hex(&x, w, buf, sizeof buf);
		CHECK_STR(buf, "fedcba98765432100123456789abcdef");
		cx_hex(&x, w, buf, 11); /* cut */
		CHECK_STR(buf, "fedcba9876");
	}
	codec_free(c);
	spec_model_free(m);
}

TEST(float_text_as_printf)
{
	f6_bad = 0;
	for (uint32_t h = 0; h < 0x10000; h++) {
		/* a half as a float: sign, exponent rebased by 112, mantissa */
		uint32_t e = (h >> 10) & 31, m = h & 1023, u = (h & 0x8000u) << 16;
		double d;
		if (e == 31)
			u |= 0x7f800000u | m << 13, d = f32_of(u);
		else if (e == 0)
			d = (h & 0x8000u ? -1.0 : 1.0) * m / 16777216.0;
		else
			d = f32_of(u | (e + 112) << 23 | m << 13);
		f6_check(d);
	}
	for (unsigned n = 0; n <= 40; n++)
		for (unsigned k = 0; k < 4096; k++) {
			double d = (double)k / (double)((uint64_t)1 << n);
			f6_check(d);
			f6_check(-d);
			f6_check(d + 1048576.0);
		}
	uint64_t r = 0x9e3779b97f4a7c15u;
	for (unsigned i = 0; i < 400000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		f6_check(f32_of((uint32_t)r));
		/* exponents near the range printed without printf */
		f6_check(f32_of(((uint32_t)(r >> 32) & 0x807fffffu) | (uint32_t)(100 + r % 100) << 23));
	}
	f6_check(18446744073709551616.0);
	f6_check(18446744073709549568.0);
	f6_check(-0.0);
	f6_check(1e-300);
	f6_check(0.0000005);
	f6_check(0.0000015);
	f6_check(0.9999995);
	f6_check(9.9999995);
	CHECK_INT(f6_bad, 0);
	char b[40];
	CHECK_INT(codec_format_f6(0.0078125, b), 8); /* a tie: to even */
	CHECK_STR(b, "0.007812");
	CHECK_INT(codec_format_f6(0.0234375, b), 8);
	CHECK_STR(b, "0.023438");
	CHECK_INT(codec_format_f6(1.0 / 0.0, b), -1);
}

static const char branch_xml[] = HDR
	"<bitset name=\"#b\" size=\"32\">\n"
	"  <field name=\"OP\" low=\"16\" high=\"31\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"br\" extends=\"#b\">\n"
	"  <field name=\"T\" low=\"0\" high=\"15\" type=\"branch\"/>\n"
	"  <display>br {T}</display>\n"
	"  <pattern low=\"16\" high=\"31\">0000000000000001</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"call\" extends=\"#b\">\n"
	"  <field name=\"T\" low=\"0\" high=\"15\" type=\"absbranch\" call=\"true\"/>\n"
	"  <display>call {T}</display>\n"
	"  <pattern low=\"16\" high=\"31\">0000000000000010</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"jmp\" extends=\"#b\">\n"
	"  <field name=\"T\" low=\"0\" high=\"15\" type=\"absbranch\"/>\n"
	"  <display>jmp {T}</display>\n"
	"  <pattern low=\"16\" high=\"31\">0000000000000011</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"nop\" extends=\"#b\">\n"
	"  <display>nop</display>\n"
	"  <pattern low=\"0\" high=\"31\">00000000000000000000000000000000</pattern>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(branches)
{
	tspec t = load_str(branch_xml);
	if (!t.c)
		return;
	uint32_t prog[] = {0x00010002, 0x00020000, 0x00000000, 0x0001fffb, 0x00030001, 0x0003ffff};
	codec_disasm_options o = {.gen = 0, .show_errors = true, .branch_labels = false};
	CHECK_STR(dis_prog(&t, prog, N(prog), &o),
	          "br 2\ncall 0\nnop\nbr -5\njmp 1\njmp -1\n");
	o.branch_labels = true;
	CHECK_STR(dis_prog(&t, prog, N(prog), &o),
	          "fxn0:\nbr l2\nl1:\ncall fxn0\nl2:\nnop\nbr -5\njmp l1\njmp -1\n");
	/* one instruction: n = 0 of 1 */
	CHECK_STR(dis_opt(&t, 0x00010000, &o), "br l0");
	CHECK_STR(dis_opt(&t, 0x00010001, &o), "br 1");
	tfree(&t);
}

static const char override_xml[] = HDR
	"<expr name=\"#big\">{A} &gt; 100</expr>\n"
	"<expr name=\"#neg\">{A} &amp; 1</expr>\n"
	"<template name=\"TPL\">&lt;{A}&gt;</template>\n"
	"<bitset name=\"#r\" size=\"32\">\n"
	"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
	"  <display>{NAME} {TPL}</display>\n"
	"</bitset>\n"
	"<bitset name=\"ov\" extends=\"#r\" displayname=\"OV\">\n"
	"  <override expr=\"#big\">\n"
	"    <display>{NAME} big {A}</display>\n"
	"  </override>\n"
	"  <override>\n"
	"    <expr>{X} == 3</expr>\n"
	"    <field name=\"X\" low=\"8\" high=\"9\" type=\"hex\"/>\n"
	"    <display>{NAM} x{X} {D} {W}</display>\n"
	"  </override>\n"
	"  <field name=\"Y\" low=\"8\" high=\"9\" type=\"uint\"/>\n"
	"  <derived name=\"D\" type=\"int\" expr=\"#neg\"/>\n"
	"  <derived name=\"W\" type=\"int\" width=\"8\">\n"
	"    <expr>{A} - 200</expr>\n"
	"  </derived>\n"
	"  <derived name=\"Q\" type=\"uint\">\n"
	"    <expr>{Q} + 1</expr>\n"
	"  </derived>\n"
	"  <pattern low=\"10\" high=\"31\">0000000000000000000001</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"plain\" extends=\"#r\">\n"
	"  <field name=\"B\" low=\"8\" high=\"9\" type=\"uint\"/>\n"
	"  <pattern low=\"10\" high=\"31\">0000000000000000000010</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"re\" extends=\"#r\">\n"
	"  <derived name=\"Q\" type=\"uint\">\n"
	"    <expr>{Q} + 1</expr>\n"
	"  </derived>\n"
	"  <field name=\"B\" low=\"8\" high=\"9\" type=\"uint\"/>\n"
	"  <pattern low=\"10\" high=\"31\">0000000000000000000011</pattern>\n"
	"  <display>{Q} {Q}</display>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(overrides_derived_templates)
{
	tspec t = load_str(override_xml);
	if (!t.c)
		return;
	uint64_t ov = (uint64_t)1 << 10, plain = (uint64_t)2 << 10;
	/* the default case: the parent's display, with the template */
	CHECK_STR(dis(&t, ov | 5), "OV <5>");
	/* the first override is true */
	CHECK_STR(dis(&t, ov | 101), "OV big 101");
	/* the second: its expression reads its own field X; derived D is
	 * sign-extended from 1 bit, W from 8 */
	CHECK_STR(dis(&t, ov | 3u << 8 | 7), "OV x3 -1 63");
	CHECK_STR(dis(&t, ov | 3u << 8 | 200), "OV big 200");
	CHECK_STR(dis(&t, ov | 3u << 8 | 6), "OV x3 0 62");
	CHECK_STR(dis(&t, plain | 9), "plain <9>");
	/* a derived field that reads itself: Mesa's re-entrancy gives 0 one
	 * level down (slot 0 of its stack is not searched), so 2, cached */
	CHECK_STR(dis(&t, (uint64_t)3 << 10), "2 2");
	tfree(&t);
}

/* Loads xml into t and, beside its codec, the codec without the fast
 * paths (the plain interpretation) they must agree with; NULL, with t
 * freed, when either fails. */
static codec *load_with_plain(const char *xml, tspec *t)
{
	*t = load_str(xml);
	codec *plain = t->m ? codec_new_opt(t->m, NULL, false) : NULL;
	CHECK(plain != NULL);
	if (!t->c || !plain) {
		codec_free(plain);
		tfree(t);
		return NULL;
	}
	return plain;
}

/* Overrides whose expressions' look-ups meet each other, as ir3's
 * #cat1-immed-src: each reads T, which no case defines, so the first
 * evaluation (by find_display's walk) evaluates the others nested in it;
 * only the innermost expression counts as holding (Mesa's find_field
 * compares the top of its stack), so the second's {IMM}, evaluated inside
 * the first, finds its own 16-bit field, not the first override's 8 bits;
 * the walk's look-ups of M, which the field passes in no param, are
 * Mesa's "no field" issue and 0, as is the display's {Z}. */
static const char nested_xml[] = HDR
	"<bitset name=\"#imm\" size=\"16\">\n"
	"  <override>\n"
	"    <expr>{T} == 0</expr>\n"
	"    <display>h({IMM})</display>\n"
	"    <field name=\"IMM\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
	"  </override>\n"
	"  <override>\n"
	"    <expr>({T} == 1) &amp;&amp; ({IMM} &gt; 0x10)</expr>\n"
	"    <display>0x{IMM}</display>\n"
	"    <field name=\"IMM\" low=\"0\" high=\"15\" type=\"hex\"/>\n"
	"  </override>\n"
	"  <override>\n"
	"    <expr>{T} == 2</expr>\n"
	"    <field name=\"IMM\" low=\"0\" high=\"15\" type=\"int\"/>\n"
	"  </override>\n"
	"  <override>\n"
	"    <expr>({T} == 3) &amp;&amp; {M}</expr>\n"
	"    <display>m{IMM}</display>\n"
	"  </override>\n"
	"  <display>{IMM}{Z}</display>\n"
	"  <field name=\"IMM\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"#i\" size=\"32\">\n"
	"  <display>{NAME} {SRC}{NOP}</display>\n"
	"  <field name=\"SRC\" low=\"0\" high=\"15\" type=\"#imm\">\n"
	"    <param name=\"T\"/>\n"
	"  </field>\n"
	"  <field name=\"T\" low=\"16\" high=\"18\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"mv\" extends=\"#i\">\n"
	"  <pattern low=\"19\" high=\"31\">0000000000001</pattern>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(nested_overrides_straight_through)
{
	tspec t;
	codec *plain = load_with_plain(nested_xml, &t);
	if (!plain)
		return;
	codec_disasm_options o = {.gen = 0, .show_errors = true};
	size_t n = 0, straight = 0, differ = 0;
	for (uint32_t type = 0; type < 8; type++)
		for (uint32_t imm = 0; imm < 0x10000; imm += 1 + (imm > 0x300) * 7) {
			uint32_t w = 1u << 19 | type << 16 | imm;
			char a[256], b[256];
			codec_disasm_one(t.c, &w, &o, a, sizeof a);
			codec_disasm_one(plain, &w, &o, b, sizeof b);
			if (strcmp(a, b) && differ++ < 5)
				fprintf(stderr, "%08x: fast \"%s\", plain \"%s\"\n", w, a, b);
			straight += codec_fast_count(t.c, &w, 1, 0);
			n++;
		}
	CHECK_INT(differ, 0);
	CHECK_INT(straight, n);
	/* T == 1: the second override's {IMM} is its own 16 bits (0x100 >
	 * 0x10: it holds; were the first override's 8 bits read, as when
	 * every stacked expression held, 0x00 would not, and 256 would
	 * print); the fourth is evaluated inside the first whatever T is (no
	 * short circuit), so M is looked up, and is no field, every time */
	CHECK_STR(dis(&t, 1u << 19 | 1u << 16 | 0x1ff), "mv 0x1ff\t; no field 'M', no field 'NOP'");
	CHECK_STR(dis(&t, 1u << 19 | 1u << 16 | 0x100), "mv 0x100\t; no field 'M', no field 'NOP'");
	CHECK_STR(dis(&t, 1u << 19 | 1u << 16 | 0x10),
	          "mv 16\t; no field 'M', no field 'Z', no field 'NOP'");
	/* T == 3: M is no field, 0, so the default display */
	CHECK_STR(dis(&t, 1u << 19 | 3u << 16 | 5),
	          "mv 5\t; no field 'M', no field 'Z', no field 'NOP'");
	codec_free(plain);
	tfree(&t);
}

static const char params_xml[] = HDR
	"<bitset name=\"#sub\" size=\"8\">\n"
	"  <display>{SRC_R}s{V}{H}</display>\n"
	"  <field name=\"V\" low=\"0\" high=\"6\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"#sub-a\" extends=\"#sub\">\n"
	"  <pattern pos=\"7\">0</pattern>\n"
	"  <derived name=\"H\" type=\"bool\" display=\"h\">\n"
	"    <expr>!{FULL}</expr>\n"
	"  </derived>\n"
	"</bitset>\n"
	"<bitset name=\"#sub-b\" extends=\"#sub\">\n"
	"  <pattern pos=\"7\">1</pattern>\n"
	"  <display>{NAME}:{V}</display>\n"
	"  <derived name=\"H\" type=\"uint\" expr=\"#zero\"/>\n"
	"</bitset>\n"
	"<expr name=\"#zero\">0</expr>\n"
	"<bitset name=\"#i\" size=\"32\">\n"
	"  <field name=\"R\" pos=\"16\" type=\"bool\" display=\"(r)\"/>\n"
	"  <field name=\"FULL\" pos=\"17\" type=\"bool\"/>\n"
	"</bitset>\n"
	"<bitset name=\"op\" extends=\"#i\">\n"
	"  <field name=\"S1\" low=\"0\" high=\"7\" type=\"#sub\">\n"
	"    <param name=\"R\" as=\"SRC_R\"/>\n"
	"    <param name=\"FULL\"/>\n"
	"  </field>\n"
	"  <field name=\"S2\" low=\"8\" high=\"15\" type=\"#sub\">\n"
	"    <param name=\"FULL\"/>\n"
	"  </field>\n"
	"  <pattern low=\"18\" high=\"31\">00000000000001</pattern>\n"
	"  <display>op {S1}, {S2}</display>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(params_and_bitset_fields)
{
	tspec t = load_str(params_xml);
	if (!t.c)
		return;
	uint64_t op = (uint64_t)1 << 18;
	/* S2 has no SRC_R param: Mesa's "no field" error */
	CHECK_STR(dis(&t, op | 1u << 16 | 1u << 17 | 5 | 6u << 8),
	          "op (r)s5, s6\t; no field 'SRC_R'");
	CHECK_STR(dis(&t, op | 5 | 0x80u << 8 | 3u << 8), "op s5h, #sub-b:3");

	/* codec_decode: the sub-decodings follow their field at depth 1 */
	codec_value vals[32];
	codec_issue iss[8];
	codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss, .cap_issues = N(iss)};
	uint64_t w = op | 1u << 16 | 5 | 6u << 8;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK(d.leaf && !strcmp(d.leaf->name, "op"));
	/* the leaf's own definitions first, then its parents' */
	const char *want[] = {"S1", "H", "V", "S2", "H", "V", "R", "FULL"};
	unsigned depth[] = {0, 1, 1, 0, 1, 1, 0, 0};
	uint64_t raw[] = {5, 1, 5, 6, 1, 6, 1, 0};
	CHECK_INT(d.nvalues, N(want));
	for (size_t i = 0; i < d.nvalues && i < N(want); i++) {
		CHECK_STR(d.values[i].field->name, want[i]);
		CHECK_INT(d.values[i].depth, depth[i]);
		CHECK_INT(d.values[i].raw, raw[i]);
	}
	CHECK(d.values[0].sub && !strcmp(d.values[0].sub->name, "#sub-a"));
	CHECK_INT(d.nissues, 1);
	if (d.nissues)
		CHECK_INT(d.issues[0].kind, CODEC_NO_FIELD);
	tfree(&t);
}

/* Derived values over a bound param, read from a table of the param's
 * first 1 << CODEC_TAB_PARAM_BITS values and computed past them (a2xx's
 * operands read their swizzle so): the values and the text are the
 * expressions' on both sides of the boundary, and the tables exist (or
 * the first half would test nothing new). */
static const char param_tables_xml[] = HDR
	"<bitset name=\"#sub\" size=\"4\">\n"
	"  <field name=\"F\" low=\"0\" high=\"1\" type=\"uint\"/>\n"
	"  <pattern low=\"2\" high=\"3\">00</pattern>\n"
	"  <derived name=\"D\" type=\"uint\"><expr>{P} * 3 + 1</expr></derived>\n"
	"  <derived name=\"E\" type=\"uint\"><expr>{P} + {F} * 1000</expr></derived>\n"
	"  <derived name=\"M\" type=\"uint\"><expr>{P} ^ 85</expr></derived>\n"
	"  <display>{D}:{E}:{M}</display>\n"
	"</bitset>\n"
	"<bitset name=\"#i\" size=\"32\">\n"
	"  <field name=\"W\" low=\"0\" high=\"11\" type=\"uint\"/>\n"
	"  <field name=\"S\" low=\"12\" high=\"15\" type=\"#sub\">\n"
	"    <param name=\"W\" as=\"P\"/>\n"
	"  </field>\n"
	"</bitset>\n"
	"<bitset name=\"op\" extends=\"#i\">\n"
	"  <pattern low=\"16\" high=\"31\">0000000000000001</pattern>\n"
	"  <display>op {S}</display>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(param_tables)
{
	tspec t = load_str(param_tables_xml);
	if (!t.c)
		return;
	const spec_bitset *sub = spec_find_bitset(t.m, "#sub");
	const cleaf *lf = sub ? t.c->leaf[sub->index] : NULL;
	CHECK(lf != NULL && lf->v1);
	size_t tables = 0;
	for (size_t k = 0; lf && k < lf->nex; k++)
		tables += lf->ex[k].tab[1] != NULL;
	CHECK_INT(tables, 3);
	const int64_t ws[] = {0, 5, 255, 256, 257, 700, 4095};
	for (size_t i = 0; i < N(ws); i++)
		for (int64_t f = 0; f < 4; f++) {
			int64_t wv = ws[i];
			uint64_t w = (uint64_t)1 << 16 | (uint64_t)f << 12 | (uint64_t)wv;
			char want[96];
			snprintf(want, sizeof want, "op %lld:%lld:%lld", (long long)(3 * wv + 1),
			         (long long)(wv + 1000 * f), (long long)(wv ^ 85));
			CHECK_STR(dis(&t, w), want);
			codec_value vals[16];
			codec_issue iss[4];
			codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss,
			                   .cap_issues = N(iss)};
			CHECK(codec_decode(t.c, NULL, &w, 0, &d));
			const char *names[] = {"D", "E", "M"};
			const int64_t expect[] = {3 * wv + 1, wv + 1000 * f, wv ^ 85};
			for (size_t n = 0; n < N(names); n++) {
				const codec_value *v = NULL;
				for (size_t j = 0; j < d.nvalues && !v; j++)
					if (d.values[j].depth == 1 && !strcmp(d.values[j].field->name, names[n]))
						v = &d.values[j];
				CHECK(v != NULL);
				if (v)
					CHECK_INT(v->value, expect[n]);
			}
		}
	tfree(&t);
}

static const char misc_xml[] = HDR
	"<bitset name=\"#i\" size=\"64\">\n"
	"  <assert low=\"40\" high=\"43\">1010</assert>\n"
	"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"#mid\" extends=\"#i\">\n"
	"  <display>{NAME}{:align=6}|{A:align=10}|{N} {A}</display>\n"
	"  <assert low=\"44\" high=\"47\">0101</assert>\n"
	"</bitset>\n"
	"<bitset name=\"al\" extends=\"#mid\">\n"
	"  <pattern low=\"8\" high=\"15\">x000000x</pattern>\n"
	"  <pattern low=\"16\" high=\"39\">000000000000000000000001</pattern>\n"
	"  <pattern low=\"48\" high=\"63\">0000000000000000</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"amb1\" extends=\"#i\">\n"
	"  <pattern low=\"8\" high=\"39\">00000000000000000000001000000000</pattern>\n"
	"  <pattern low=\"44\" high=\"63\">xxxxxxxxxxxxxxxxxxx0</pattern>\n"
	"  <display>amb1</display>\n"
	"</bitset>\n"
	"<bitset name=\"amb2\" extends=\"#i\">\n"
	"  <pattern low=\"8\" high=\"39\">00000000000000000000001000000000</pattern>\n"
	"  <pattern low=\"44\" high=\"63\">0000000000000000000x</pattern>\n"
	"  <display>amb2</display>\n"
	"</bitset>\n"
	"<bitset name=\"errs\" extends=\"#i\">\n"
	"  <pattern low=\"8\" high=\"39\">00000000000000000000001100000000</pattern>\n"
	"  <pattern low=\"44\" high=\"63\">00000000000000000000</pattern>\n"
	"  <display>e{P}{Q}{R}{S}{T}</display>\n"
	"</bitset>\n"
	"<bitset name=\"nodisp\" extends=\"#i\">\n"
	"  <pattern low=\"8\" high=\"39\">00000000000000000000010000000000</pattern>\n"
	"  <pattern low=\"44\" high=\"63\">00000000000000000000</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"div\" extends=\"#i\">\n"
	"  <field name=\"B\" low=\"8\" high=\"11\" type=\"uint\"/>\n"
	"  <derived name=\"Z\" type=\"uint\">\n"
	"    <expr>{A} / {B}</expr>\n"
	"  </derived>\n"
	"  <pattern low=\"12\" high=\"39\">0000000000000000010100000000</pattern>\n"
	"  <pattern low=\"44\" high=\"63\">00000000000000000000</pattern>\n"
	"  <display>div {Z}</display>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(display_errors_and_issues)
{
	tspec t = load_str(misc_xml);
	if (!t.c)
		return;
	uint64_t al = (uint64_t)1 << 16 | (uint64_t)0xa << 40 | (uint64_t)0x5 << 44;
	/* {:align=N} pads to column N; {FIELD:align=N} too; {N} is {NAME} */
	CHECK_STR(dis(&t, al | 7), "al    |   7|al 7");
	/* a set x bit */
	CHECK_STR(dis(&t, al | 1u << 8 | 7),
	          "al    |   7|al 7\t; dontcare bits in al: 0000000000000100");
	/* a failing assert of the case whose display is used */
	CHECK_STR(dis(&t, (al & ~((uint64_t)0xf << 44)) | (uint64_t)0x3 << 44 | 9),
	          "al    |   9|al 9\t; WARNING: unexpected bits[44:47] in #mid: 0000000000000003 vs "
	          "0000000000000005");
	/* #i's assert is never checked under #mid, which has a display */
	CHECK_STR(dis(&t, (al & ~((uint64_t)0xf << 40)) | 9), "al    |   9|al 9");
	/* ... but it is when the look-up for a display gets up to #i */
	CHECK_STR(dis(&t, (uint64_t)0x400 << 8),
	          "\t; WARNING: unexpected bits[40:43] in #i: 0000000000000000 vs 000000000000000a, "
	          "nodisp: no display template");
	/* at most 4 errors */
	uint64_t errs = (uint64_t)0x300 << 8 | (uint64_t)0xa << 40;
	CHECK_STR(dis(&t, errs), "e\t; no field 'P', no field 'Q', no field 'R', no field 'S'");
	/* no display anywhere */
	CHECK_STR(dis(&t, (uint64_t)0x400 << 8 | (uint64_t)0xa << 40),
	          "\t; nodisp: no display template");
	/* a division by zero is an issue, never a crash */
	uint64_t div = (uint64_t)0x5 << 20 | (uint64_t)0xa << 40 | 9;
	CHECK_STR(dis(&t, div | 3u << 8), "div 3");
	const char *z = dis(&t, div);
	CHECK(strstr(z, "div 0\t; ") == z && strstr(z, "division by zero"));

	/* no match, in each style */
	codec_disasm_options o = {.gen = 0, .show_errors = true, .no_match = CODEC_NO_MATCH_MESA};
	CHECK_STR(dis_opt(&t, 0xf00000001ull, &o), "no match: 0000000f00000001");
	o.no_match = CODEC_NO_MATCH_IR3;
	CHECK_STR(dis_opt(&t, 0xf00000001ull, &o), "raw 0x1F");
	o.no_match = CODEC_NO_MATCH_AFUC;
	CHECK_STR(dis_opt(&t, 0xf00000001ull, &o), "[00000001]");

	/* an ambiguity: "no match", and Mesa's error shows on the next line */
	uint64_t amb = (uint64_t)0x200 << 8 | (uint64_t)0xa << 40;
	uint32_t prog[] = {(uint32_t)amb, (uint32_t)(amb >> 32), (uint32_t)al | 4,
	                   (uint32_t)(al >> 32)};
	CHECK(t.c != NULL);
	o.no_match = CODEC_NO_MATCH_MESA;
	CHECK_STR(dis_prog(&t, prog, 2, &o),
	          "no match: 00000a0000020000\nal    |   4|al 4\t; bitset conflict: amb1 vs amb2\n");
	o.show_errors = false;
	CHECK_STR(dis_prog(&t, prog, 2, &o), "no match: 00000a0000020000\nal    |   4|al 4\n");
	size_t ok = 0;
	char *s = disasm_str(t.c, prog, 2, &o, &ok);
	free(s);
	CHECK_INT(ok, 1);
	/* each of them alone, once the other's bits differ */
	CHECK_STR(dis(&t, amb | (uint64_t)1 << 63), "amb1\t; dontcare bits in amb1: 8000000000000000");

	codec_value vals[16];
	codec_issue iss[8];
	codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss, .cap_issues = N(iss)};
	CHECK(!codec_decode(t.c, NULL, &amb, 0, &d));
	CHECK(d.leaf == NULL);
	CHECK_INT(d.nissues, 1);
	CHECK_INT(d.issues[0].kind, CODEC_AMBIGUOUS);
	CHECK(d.issues[0].leaf && d.issues[0].other);
	CHECK_STR(d.issues[0].text, "bitset conflict: amb1 vs amb2");
	const spec_bitset *two[4];
	CHECK_INT(codec_classify(t.c, NULL, &amb, 0, two, 4), 2);
	CHECK_INT(codec_classify_linear(t.c, NULL, &amb, 0, two, 4), 2);
	uint64_t w = al | 1u << 8 | 7;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.nissues, 1);
	CHECK_INT(d.issues[0].kind, CODEC_DONTCARE_SET);
	CHECK_INT(d.issues[0].bits, 0x100);
	w = (al & ~((uint64_t)0xf << 44)) | (uint64_t)0x3 << 44 | 9;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.nissues, 1);
	CHECK_INT(d.issues[0].kind, CODEC_ASSERT_MISMATCH);
	CHECK_INT(d.values[0].raw, 9);
	w = 0xf00000001ull;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.issues[0].kind, CODEC_NO_MATCH);
	w = (uint64_t)0x400 << 8 | (uint64_t)0xa << 40;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.issues[0].kind, CODEC_NO_DISPLAY);
	w = div;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.issues[0].kind, CODEC_EXPR_ERROR);
	w = al | 7;
	CHECK(codec_decode(t.c, NULL, &w, 0, &d));
	CHECK_INT(d.nissues, 0);
	tfree(&t);
}

static const char recursive_xml[] = HDR
	"<bitset name=\"#rec\" size=\"8\">\n"
	"  <display>({S})</display>\n"
	"  <field name=\"S\" low=\"0\" high=\"7\" type=\"#rec\"/>\n"
	"</bitset>\n"
	"<bitset name=\"r\" extends=\"#rec\"/>\n"
	"<bitset name=\"#i\" size=\"32\">\n"
	"  <field name=\"S\" low=\"0\" high=\"7\" type=\"#rec\"/>\n"
	"  <pattern low=\"8\" high=\"31\">000000000000000000000000</pattern>\n"
	"  <display>{S}</display>\n"
	"</bitset>\n"
	"<bitset name=\"top\" extends=\"#i\"/>\n"
	"</isa>\n";

/* A bitset field of its own root: Mesa recurses forever; we stop. */
TEST(recursion_limit)
{
	tspec t = load_str(recursive_xml);
	if (!t.c)
		return;
	const char *s = dis(&t, 0x5);
	CHECK(!strncmp(s, "((((", 4) && strstr(s, "nested too deep"));
	codec_value vals[64];
	codec_issue iss[4];
	codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss, .cap_issues = N(iss)};
	uint64_t w = 5;
	CHECK(!codec_decode(t.c, NULL, &w, 0, &d));
	CHECK(d.nvalues > 2 && d.nissues >= 1);
	tfree(&t);
}

/* Whether two decodings agree in all they say: leaf, every value (field,
 * bits, depth, sub leaf, owner, case) and every issue (kind, text). */
static bool decodings_equal(const codec_decoded *a, const codec_decoded *b)
{
	bool same = a->leaf == b->leaf && a->nvalues == b->nvalues && a->nissues == b->nissues;
	for (size_t q = 0; same && q < a->nvalues; q++) {
		const codec_value *x = &a->values[q], *y = &b->values[q];
		same = x->field == y->field && x->raw == y->raw && x->depth == y->depth &&
		       x->sub == y->sub && x->owner == y->owner && x->kase == y->kase;
	}
	for (size_t q = 0; same && q < a->nissues; q++)
		same = a->issues[q].kind == b->issues[q].kind &&
		       !strcmp(a->issues[q].text, b->issues[q].text);
	return same;
}

/* Whether codecs a and b decode w alike (and in *leaf, when given,
 * whether a found a leaf). */
static bool decode_alike(const codec *a, const codec *b, const spec_root *root,
                         const uint64_t *w, uint32_t gen, bool *leaf)
{
	codec_value va[64], vb[64];
	codec_issue ia[8], ib[8];
	codec_decoded da = {.values = va, .cap_values = N(va), .issues = ia, .cap_issues = N(ia)};
	codec_decoded db = {.values = vb, .cap_values = N(vb), .issues = ib, .cap_issues = N(ib)};
	codec_decode(a, root, w, gen, &da);
	codec_decode(b, root, w, gen, &db);
	if (leaf)
		*leaf = da.leaf != NULL;
	return decodings_equal(&da, &db);
}

/* codec_decode_text against codec_decode and the disassembler's own call
 * (codec_disasm_one for the default root, codec_disasm_root for another):
 * the same text, length, result and decoding.  Returns whether it agrees,
 * and counts in *walked the calls with a leaf whose options allow the one
 * walk (whether the display then prints straight through is the codec's
 * business: the plain codec never does). */
static bool decode_text_agrees(const codec *c, const spec_root *root, const uint64_t *w,
                               const codec_disasm_options *o, size_t *walked)
{
	char a[600], b[600];
	size_t na, nb;
	codec_value va[64], vb[64];
	codec_issue ia[8], ib[8];
	codec_decoded da = {.values = va, .cap_values = N(va), .issues = ia, .cap_issues = N(ia)};
	codec_decoded db = {.values = vb, .cap_values = N(vb), .issues = ib, .cap_issues = N(ib)};
	bool ra = codec_decode_text(c, root, w, o, &da, a, sizeof a, &na);
	bool rb = codec_decode(c, root, w, o->gen, &db);
	const spec_root *r = root ? root : codec_default_root(c);
	if (r == codec_default_root(c)) {
		uint32_t u[2 * (SPEC_MAX_BITS / 64)];
		for (size_t k = 0; k < (r->bitset->size + 31) / 32 && k < N(u); k++)
			u[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
		nb = codec_disasm_one(c, u, o, b, sizeof b);
	} else {
		nb = codec_disasm_root(c, r, w, o, b, sizeof b);
	}
	*walked += da.leaf && !o->show_errors && !o->branch_labels &&
	           (o->no_match != CODEC_NO_MATCH_AFUC ||
	            (c->afuc_quiet && c->afuc_quiet[da.leaf->index]));
	bool same = ra == rb && na == nb && !strcmp(a, b) && decodings_equal(&da, &db);
	if (!same)
		fprintf(stderr, "codec_decode_text differs: root %s word %016llx %016llx gen %u:\n"
		        "  one walk \"%s\" (%zu)\n  two calls \"%s\" (%zu)\n", r->bitset->name,
		        (unsigned long long)w[1], (unsigned long long)w[0], o->gen, a, na, b, nb);
	return same;
}

/* Random words through Mesa's three specs: never a crash (the sanitizers
 * watch), classification agrees with the plain scan, codec_decode agrees
 * with the classification, and the fast paths (expression programs and
 * tables, pure expressions, direct look-ups) change nothing: the text
 * and the decoding equal those of the plain interpretation. */
TEST(random_words)
{
	static const char *files[] = {"freedreno/isa/ir3.xml", "etnaviv/isa/etnaviv.xml",
	                              "freedreno/afuc/afuc.xml"};
	static const uint32_t gens[][3] = {{300, 600, 700}, {0, 0, 0}, {5, 6, 7}};
	uint64_t seed = 0x243f6a8885a308d3ull;
	for (size_t f = 0; f < N(files); f++) {
		loaded l = load_mesa(files[f]);
		if (!l.c)
			continue;
		spec_diags dd = {0};
		codec *slow = codec_new_opt(l.m, &dd, false);
		spec_diags_free(&dd);
		CHECK(slow != NULL);
		size_t bad = 0, differ = 0, differ_text = 0, walked = 0;
		for (int i = 0; i < 20000; i++) {
			uint32_t w[4];
			for (int k = 0; k < 4; k++) {
				seed ^= seed << 13;
				seed ^= seed >> 7;
				seed ^= seed << 17;
				w[k] = (uint32_t)seed;
			}
			if (i & 1) /* more matches: keep a known-good high word */
				w[1] &= 0xf0ffffffu;
			codec_disasm_options o = {.gen = gens[f][i % 3], .show_errors = true,
			                          .branch_labels = (i % 7) == 0,
			                          .no_match = (codec_no_match_style)(i % 3)};
			char buf[256];
			size_t n = codec_disasm_one(l.c, w, &o, buf, sizeof buf);
			CHECK(n >= strlen(buf));
			uint64_t w64[2] = {(uint64_t)w[0] | (uint64_t)w[1] << 32,
			                   (uint64_t)w[2] | (uint64_t)w[3] << 32};
			const spec_bitset *a[4], *b[4];
			size_t na = codec_classify(l.c, NULL, w64, o.gen, a, 4);
			size_t nb = codec_classify_linear(l.c, NULL, w64, o.gen, b, 4);
			bad += na != nb || memcmp(a, b, (na < 4 ? na : 4) * sizeof *a) != 0;
			codec_value vals[64];
			codec_issue iss[8];
			codec_decoded d = {.values = vals, .cap_values = N(vals), .issues = iss,
			                   .cap_issues = N(iss)};
			codec_decode(l.c, NULL, w64, o.gen, &d);
			CHECK((d.leaf != NULL) == (na == 1));
			/* the decoding with its text, with every option above and
			 * as the round trips ask (no error suffix, no labels) */
			codec_disasm_options plain = {.gen = o.gen, .no_match = o.no_match};
			differ_text += !decode_text_agrees(l.c, NULL, w64, &o, &walked);
			differ_text += !decode_text_agrees(l.c, NULL, w64, &plain, &walked);
			if (!slow)
				continue;
			char sbuf[256];
			codec_disasm_one(slow, w, &o, sbuf, sizeof sbuf);
			codec_value svals[64];
			codec_issue siss[8];
			codec_decoded sd = {.values = svals, .cap_values = N(svals), .issues = siss,
			                    .cap_issues = N(siss)};
			codec_decode(slow, NULL, w64, o.gen, &sd);
			bool same = !strcmp(buf, sbuf) && decodings_equal(&d, &sd);
			if (!same && differ++ < 5)
				fprintf(stderr, "fast/plain differ on %s %08x %08x %08x %08x gen %u:\n"
				        "  fast  \"%s\"\n  plain \"%s\"\n", files[f], w[0], w[1], w[2],
				        w[3], o.gen, buf, sbuf);
		}
		CHECK_INT(bad, 0);
		CHECK_INT(differ, 0);
		CHECK_INT(differ_text, 0);
		/* random etnaviv words seldom match a leaf (15 of 40,000) */
		printf("random words of %s: 40000 decoded with their text, %zu with a leaf and "
		       "options for one walk\n", files[f], walked);
		CHECK(walked >= 10);
		codec_free(slow);
		/* a tiny buffer cuts, and still says how long the text is */
		char tiny[4];
		uint32_t z[4] = {0};
		codec_disasm_options o = {.gen = gens[f][1], .show_errors = true};
		char big[256];
		size_t full = codec_disasm_one(l.c, z, &o, big, sizeof big);
		CHECK_INT(codec_disasm_one(l.c, z, &o, tiny, sizeof tiny), full);
		CHECK(strlen(tiny) == (full < 3 ? full : 3) && !strncmp(tiny, big, strlen(tiny)));
		unload(&l);
	}
}

/* Fast and plain codecs on words made to match each leaf of each root
 * in turn (its 0/1 bits, random elsewhere): every leaf's display plans
 * (plan.c) and fast paths are exercised, sub-bitset roots included, and
 * must print and decode exactly as the plain interpretation does. */
static void leaf_seeded_words(const char *path, const uint32_t *gens, size_t ngens,
                              int per_leaf, codec_no_match_style style)
{
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	codec *fast = m ? codec_new(m, &d) : NULL;
	codec *slow = m ? codec_new_opt(m, &d, false) : NULL;
	spec_diags_free(&d);
	CHECK(fast != NULL && slow != NULL);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t words = 0, decoded = 0, differ = 0, differ_text = 0, walked = 0, walked_plain = 0;
	for (size_t r = 0; fast && slow && r < m->nroots; r++) {
		const spec_root *root = &m->roots[r];
		for (size_t li = 0; li < root->nleaves; li++) {
			const spec_bitset *leaf = root->leaves[li];
			for (int k = 0; k < per_leaf; k++) {
				uint64_t w[SPEC_MAX_BITS / 64] = {0};
				unsigned nw = (root->bitset->size + 63) / 64;
				for (unsigned i = 0; i < nw && i < N(w); i++) {
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					uint64_t mask = i < leaf->mask.nwords ? leaf->mask.w[i] : 0;
					uint64_t match = i < leaf->match.nwords ? leaf->match.w[i] : 0;
					/* every other word also sparse: small field values */
					uint64_t rnd = k & 1 ? seed & (seed >> 17) : seed;
					w[i] = (rnd & ~mask) | (match & mask);
				}
				uint32_t gen = gens[(size_t)k % ngens];
				codec_disasm_options o = {.gen = gen, .show_errors = true, .no_match = style};
				char a[600], b[600];
				size_t na = codec_disasm_root(fast, root, w, &o, a, sizeof a);
				size_t nb = codec_disasm_root(slow, root, w, &o, b, sizeof b);
				bool leaf_found;
				bool alike = decode_alike(fast, slow, root, w, gen, &leaf_found);
				bool same = na == nb && !strcmp(a, b) && alike;
				/* and the decoding with its text in one walk, with
				 * and without the error suffix */
				codec_disasm_options ot = {.gen = gen, .show_errors = k % 4 == 3,
				                           .no_match = style};
				differ_text += !decode_text_agrees(fast, root, w, &ot, &walked);
				differ_text += !decode_text_agrees(slow, root, w, &ot, &walked_plain);
				words++;
				decoded += leaf_found;
				if (!same && differ++ < 5)
					fprintf(stderr, "fast/plain differ: %s root %s leaf %s word %016llx "
					        "%016llx gen %u:\n  fast  \"%s\"\n  plain \"%s\"\n", path,
					        root->bitset->name, spec_display_name(leaf),
					        (unsigned long long)w[1], (unsigned long long)w[0], gen, a, b);
			}
		}
	}
	printf("leaf-seeded %s: %zu words, %zu decoded to a leaf, %zu differ; decoded with "
	       "their text: %zu differ, %zu with options for one walk\n", path, words, decoded, differ,
	       differ_text, walked);
	CHECK_INT(differ, 0);
	CHECK_INT(differ_text, 0);
	/* three in four are asked without the error suffix */
	/* afuc's style walks once for its quiet leaves only, which only the
	 * fast codec knows */
	if (style == CODEC_NO_MATCH_AFUC)
		CHECK(walked > decoded / 3 && walked_plain == 0);
	else
		CHECK(walked > decoded / 2 && walked_plain == walked);
	/* the words match their leaf unless another leaf overlaps it */
	CHECK(decoded > words / 2);
	codec_free(fast);
	codec_free(slow);
	spec_model_free(m);
}

/* Printing straight through (fast.c) covers the vectors that decode
 * cleanly, and whole programs come out as the plain interpretation
 * prints them: in a stream across many buffer flushes, with branch
 * labels, and cut to every buffer size. */
static void straight_through(const char *xml, const vector *v, size_t n, unsigned stride,
                             size_t min_fast, codec_no_match_style nm)
{
	loaded l = load_mesa(xml);
	codec *slow = l.m ? codec_new_opt(l.m, NULL, false) : NULL;
	CHECK(l.c != NULL && slow != NULL);
	if (!l.c || !slow) {
		codec_free(slow);
		unload(&l);
		return;
	}
	/* every vector at its generation: how many print straight through */
	size_t fast = 0;
	for (size_t i = 0; i < n; i++)
		fast += codec_fast_count(l.c, v[i].words, 1, v[i].gen);
	printf("straight through %s: %zu of %zu vectors\n", xml, fast, n);
	CHECK(fast >= min_fast);
	CHECK_INT(codec_fast_count(slow, v[0].words, 1, v[0].gen), 0);
	/* a program of the vectors (at the first one's generation) 60 times
	 * over: about 200 KB of text, so the stream's buffer is flushed
	 * mid-instruction many times */
	size_t reps = 60, ni = n * reps;
	uint32_t *prog = malloc(ni * stride * sizeof *prog);
	CHECK(prog != NULL);
	for (size_t k = 0; prog && k < ni; k++)
		memcpy(prog + k * stride, v[k % n].words, stride * sizeof *prog);
	/* with labels and without; segment keys by the CPU's bit extraction
	 * where it has it, and by the runs */
	bool has_pext = codec_fast_set_pext((codec *)l.c, true);
	for (int run = 0; prog && run < 4; run++) {
		int labels = run & 1;
		codec_fast_set_pext((codec *)l.c, run < 2 && has_pext);
		codec_disasm_options o = {.gen = v[0].gen, .show_errors = true,
		                          .branch_labels = labels, .no_match = nm};
		size_t oka = 0, okb = 0;
		char *a = disasm_str(l.c, prog, ni, &o, &oka);
		char *b = disasm_str(slow, prog, ni, &o, &okb);
		CHECK(a && b && strlen(a) > 100000 && !strcmp(a, b));
		CHECK_INT(oka, okb);
		free(a);
		free(b);
	}
	codec_fast_set_pext((codec *)l.c, true);
	/* cut: each buffer size gives the text's start and its whole length */
	for (size_t i = 0; i < n; i += 7) {
		codec_disasm_options o = {.gen = v[i].gen, .show_errors = true, .no_match = nm};
		char full[1024], cut[1024];
		size_t len = codec_disasm_one(l.c, v[i].words, &o, full, sizeof full);
		CHECK(len < sizeof full);
		for (size_t cap = 1; cap <= len + 1 && len < sizeof full; cap++) {
			memset(cut, 'X', sizeof cut);
			size_t got = codec_disasm_one(l.c, v[i].words, &o, cut, cap);
			if (got != len || strlen(cut) != cap - 1 || strncmp(cut, full, cap - 1)) {
				CHECK(!"a cut text is the full text's start");
				break;
			}
		}
	}
	free(prog);
	codec_free(slow);
	unload(&l);
}

/* Words that raise issues (a nested field matching no leaf, don't-care
 * bits set, a failed assert) print straight through too, the issues
 * recorded in the order the interpretation records them (random_words
 * compares the texts): of random ir3 words that match a leaf, most do,
 * and many of those carry issues. */
static void straight_through_issues(void)
{
	loaded l = load_mesa("freedreno/isa/ir3.xml");
	if (!l.c)
		return;
	uint64_t r = 0x9e3779b97f4a7c15ull;
	size_t matched = 0, fast = 0, fast_issues = 0;
	for (int i = 0; i < 20000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		uint32_t w[2] = {(uint32_t)r, (uint32_t)(r >> 32)};
		codec_disasm_options o = {.gen = 600, .show_errors = true,
		                          .no_match = CODEC_NO_MATCH_IR3};
		char buf[512];
		codec_disasm_one(l.c, w, &o, buf, sizeof buf);
		if (!strncmp(buf, "raw 0x", 6))
			continue;
		matched++;
		if (codec_fast_count(l.c, w, 1, 600)) {
			fast++;
			fast_issues += strstr(buf, "\t; ") != NULL;
		}
	}
	printf("straight through, random ir3 words: %zu of %zu that match a leaf, %zu of them "
	       "with issues\n", fast, matched, fast_issues);
	CHECK(matched > 5000);
	/* all but brax, whose leaf has no display (2 in 10,000) */
	CHECK(fast * 1000 >= matched * 997);
	CHECK(fast_issues * 4 >= fast);
	unload(&l);
}

/* ir3's #cat1-immed-src: every override reads SRC_TYPE, which no case
 * defines, so find_display's first evaluation evaluates the others
 * nested in it.  Only the innermost expression being evaluated counts as
 * holding (Mesa's find_field compares the top of its stack alone): while
 * the third (u32 and {IMMED} > 0x1000) is evaluated inside the first
 * (f16), the first does not hold, so {IMMED} is the whole 32-bit field
 * and Mesa prints 0x10000000 in hex (Mesa's decoder prints exactly this;
 * an earlier rule that let every stacked expression hold printed it in
 * decimal).  These words print straight through (display_walk_nested in
 * fast.c), with the interpretation's text, for every source type. */
static void straight_through_nested_overrides(void)
{
	loaded l = load_mesa("freedreno/isa/ir3.xml");
	if (!l.c)
		return;
	codec *slow = codec_new_opt(l.m, NULL, false);
	CHECK(slow != NULL);
	static const uint32_t imm[] = {0, 0x1000, 0x1001, 0x12000, 0x10000000, 0xffff0fff,
	                               0x3c00, 0xbf800000};
	codec_disasm_options o = {.gen = 600, .show_errors = true, .no_match = CODEC_NO_MATCH_IR3};
	char fast[512], plain[512];
	size_t n = 0, straight = 0;
	for (uint32_t type = 0; slow && type < 8; type++)
		for (size_t i = 0; i < sizeof imm / sizeof *imm; i++) {
			/* mov.f32f32 r0.x, (0.0) with source type and immediate */
			uint32_t w[2] = {imm[i], (0x20444000u & ~(7u << 18)) | type << 18};
			codec_disasm_one(l.c, w, &o, fast, sizeof fast);
			codec_disasm_one(slow, w, &o, plain, sizeof plain);
			CHECK_STR(fast, plain);
			straight += codec_fast_count(l.c, w, 1, 600);
			n++;
		}
	CHECK_INT(straight, n);
	uint32_t big[2] = {0x10000000, 0x204c4000}, hex[2] = {0x12000, 0x204c4000};
	codec_disasm_one(l.c, big, &o, fast, sizeof fast);
	CHECK_STR(fast, "cov.u32f32 r0.x, 0x10000000");
	codec_disasm_one(l.c, hex, &o, fast, sizeof fast);
	CHECK_STR(fast, "cov.u32f32 r0.x, 0x12000");
	/* the random word the comparison with Mesa's own decoder found
	 * (issue 22), printed as Mesa's generated decoder prints it, both
	 * ways */
	uint32_t found[2] = {0x9ed900b9, 0x314d1878};
	codec_disasm_one(l.c, found, &o, fast, sizeof fast);
	CHECK_STR(fast, "(sy)(ss)cov.u32s16 (pos_infinity)hr30.x, 0x9ed900b9");
	codec_disasm_one(slow, found, &o, plain, sizeof plain);
	CHECK_STR(plain, "(sy)(ss)cov.u32s16 (pos_infinity)hr30.x, 0x9ed900b9");
	/* A name no case defines and no param passes in: Mesa's "no field"
	 * issue, in its place among the others (dp2acc's {NOP} in a display
	 * of #instruction-cat3-dp, wmm's sources whose override reads the
	 * IMMED_ENCODING param their field does not pass). */
	static const struct {
		uint32_t w[2];
		const char *text;
	} nofield[] = {
		{{0x0fab2f73, 0x6e86b5a6},
		 "(ss)(jp)(sat)(nop) (ul)dp2acc.unsigned.low r41.z, c<a0.x + -141>, r3.y, "
		 "c<a0.x + -85>\t; no field 'NOP'"},
		{{0xf1f5215b, 0x7efa3311}, NULL},
		{{0xaa02f263, 0x6f51d1ec},
		 "(ss)(jp)(rpt1)wmm r59.x, (neg)c152.w, (r)r40.w, (r)r<a0.x + -510>"
		 "\t; no field 'IMMED_ENCODING'"},
		{{0x239b36bf, 0x7f30634d}, NULL},
	};
	for (size_t i = 0; slow && i < sizeof nofield / sizeof *nofield; i++) {
		codec_disasm_one(l.c, nofield[i].w, &o, fast, sizeof fast);
		codec_disasm_one(slow, nofield[i].w, &o, plain, sizeof plain);
		CHECK_STR(fast, plain);
		CHECK(strstr(fast, "no field '") != NULL);
		CHECK_INT(codec_fast_count(l.c, nofield[i].w, 1, 600), 1);
		if (nofield[i].text)
			CHECK_STR(fast, nofield[i].text);
	}
	codec_free(slow);
	unload(&l);
}

TEST(straight_through_vectors)
{
	straight_through_issues();
	straight_through_nested_overrides();
	/* ir3: 322 rows, all but the one that matches no leaf (mov
	 * immediates too: display_walk_nested); etnaviv: all 156 */
	if (nir3)
		straight_through("freedreno/isa/ir3.xml", ir3_vec, nir3, 2, 321, CODEC_NO_MATCH_IR3);
	if (netna)
		straight_through("etnaviv/isa/etnaviv.xml", etna_vec, netna, 4, 156,
		                 CODEC_NO_MATCH_MESA);
}

/* Texts the codec built within its tables' budget print as those built
 * without one, on every vector at its generation and on random words,
 * and as many print straight through. */
static void same_texts(const codec *a, const codec *b, const vector *v, size_t n, uint32_t gen,
                       codec_no_match_style nm)
{
	size_t differ = 0, fa = 0, fb = 0;
	uint64_t seed = 0x452821e638d01377ull;
	for (size_t i = 0; i < n + 20000; i++) {
		uint32_t w[4] = {0};
		if (i < n) {
			memcpy(w, v[i].words, sizeof w);
		} else {
			for (int k = 0; k < 4; k++) {
				seed ^= seed << 13;
				seed ^= seed >> 7;
				seed ^= seed << 17;
				w[k] = (uint32_t)seed;
			}
		}
		codec_disasm_options o = {.gen = i < n ? v[i].gen : gen, .show_errors = true,
		                          .no_match = nm};
		char ta[512], tb[512];
		codec_disasm_one(a, w, &o, ta, sizeof ta);
		codec_disasm_one(b, w, &o, tb, sizeof tb);
		if (strcmp(ta, tb) && differ++ < 5)
			fprintf(stderr, "budgets differ on %08x %08x %08x %08x:\n  \"%s\"\n  \"%s\"\n",
			        w[0], w[1], w[2], w[3], ta, tb);
		fa += codec_fast_count(a, w, 1, o.gen);
		fb += codec_fast_count(b, w, 1, o.gen);
	}
	CHECK_INT(differ, 0);
	CHECK_INT(fa, fb);
	CHECK(fa > n);
}

/* fast.c keeps its tables of texts within a budget (CODEC_TABLE_BUDGET):
 * ir3's compiled segments alone outgrow it, so ir3 is built again with
 * narrower segments; etnaviv's fit.  A budget that etnaviv's pass only
 * once merged takes the other way (the whole build thrown away). */
TEST(table_budget)
{
	if (nir3) {
		loaded l = load_mesa("freedreno/isa/ir3.xml");
		codec *wide = l.m ? codec_new_tuned(l.m, NULL, true, SIZE_MAX) : NULL;
		CHECK(l.c != NULL && wide != NULL);
		if (l.c && wide) {
			printf("ir3 tables: %zu bytes, %zu without a budget\n", l.c->fast_table_bytes,
			       wide->fast_table_bytes);
			CHECK_INT(l.c->fast_capped, 1);
			CHECK(l.c->fast_table_bytes <= CODEC_TABLE_BUDGET);
			CHECK_INT(wide->fast_capped, 0);
			CHECK(wide->fast_table_bytes > 4 * CODEC_TABLE_BUDGET);
			same_texts(l.c, wide, ir3_vec, nir3, 600, CODEC_NO_MATCH_IR3);
		}
		codec_free(wide);
		unload(&l);
	}
	if (netna) {
		loaded l = load_mesa("etnaviv/isa/etnaviv.xml");
		CHECK(l.c != NULL);
		if (!l.c)
			return;
		size_t full = l.c->fast_table_bytes;
		CHECK_INT(l.c->fast_capped, 0);
		CHECK(full > 0 && full <= CODEC_TABLE_BUDGET);
		codec *late = codec_new_tuned(l.m, NULL, true, full - 1);
		codec *early = codec_new_tuned(l.m, NULL, true, 1);
		CHECK(late != NULL && early != NULL);
		if (late && early) {
			CHECK_INT(late->fast_capped, 2);
			CHECK_INT(early->fast_capped, 1);
			CHECK(late->fast_table_bytes < full);
			CHECK_INT(late->fast_table_bytes, early->fast_table_bytes);
			same_texts(late, l.c, etna_vec, netna, 0, CODEC_NO_MATCH_MESA);
		}
		codec_free(late);
		codec_free(early);
		unload(&l);
	}
}

/* codec_decode_text's bad arguments: no codec, options, words or
 * decoding is refused (false, empty text, length 0); no buffer or no
 * length pointer still decodes; a buffer of one byte gets the empty
 * string and the full length. */
TEST(decode_text_arguments)
{
	spec_diags d = {0};
	spec_model *m = spec_load(ISACHECK_SOURCE_DIR "/isa/etnaviv.xml", &d);
	codec *c = m ? codec_new(m, &d) : NULL;
	spec_diags_free(&d);
	CHECK(c != NULL);
	if (!c) {
		spec_model_free(m);
		return;
	}
	const spec_root *root = codec_default_root(c);
	const spec_bitset *leaf = root->leaves[0];
	uint64_t w[2] = {leaf->match.w[0] & leaf->mask.w[0],
	                 leaf->mask.nwords > 1 ? leaf->match.w[1] & leaf->mask.w[1] : 0};
	codec_disasm_options o = {.gen = 0};
	codec_value v[64];
	codec_issue is[8];
	codec_decoded dd = {.values = v, .cap_values = N(v), .issues = is, .cap_issues = N(is)};
	char buf[256] = "x";
	size_t n = 99;
	CHECK(!codec_decode_text(NULL, root, w, &o, &dd, buf, sizeof buf, &n));
	CHECK(n == 0 && buf[0] == '\0');
	n = 99;
	CHECK(!codec_decode_text(c, root, NULL, &o, &dd, buf, sizeof buf, &n) && n == 0);
	CHECK(!codec_decode_text(c, root, w, NULL, &dd, buf, sizeof buf, &n) && n == 0);
	CHECK(!codec_decode_text(c, root, w, &o, NULL, buf, sizeof buf, &n) && n == 0);
	/* the text as the printer gives it, then without a buffer or length */
	char want[256];
	uint32_t u[4] = {(uint32_t)w[0], (uint32_t)(w[0] >> 32), (uint32_t)w[1],
	                 (uint32_t)(w[1] >> 32)};
	size_t full = codec_disasm_one(c, u, &o, want, sizeof want);
	codec_decode_text(c, NULL, w, &o, &dd, buf, sizeof buf, &n);
	CHECK_STR(buf, want);
	CHECK_INT(n, full);
	CHECK(dd.leaf == leaf);
	CHECK(full > 0);
	dd.leaf = NULL;
	codec_decode_text(c, root, w, &o, &dd, NULL, 0, NULL);
	CHECK(dd.leaf == leaf);
	char one[1] = {'x'};
	codec_decode_text(c, root, w, &o, &dd, one, sizeof one, &n);
	CHECK(one[0] == '\0');
	CHECK_INT(n, full);
	codec_free(c);
	spec_model_free(m);
}

TEST(leaf_seeded_shipped)
{
	static const uint32_t none[] = {0};
	leaf_seeded_words(ISACHECK_SOURCE_DIR "/isa/etnaviv.xml", none, 1, 200, CODEC_NO_MATCH_MESA);
	leaf_seeded_words(ISACHECK_SOURCE_DIR "/isa/a2xx.xml", none, 1, 200, CODEC_NO_MATCH_MESA);
	leaf_seeded_words(ISACHECK_SOURCE_DIR "/isa/midgard.xml", none, 1, 200, CODEC_NO_MATCH_MESA);
}

TEST(leaf_seeded_mesa)
{
	static const uint32_t ir3[] = {300, 400, 500, 600, 700}, afuc[] = {5, 6, 7}, none[] = {0};
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/isa/ir3.xml");
	leaf_seeded_words(path, ir3, N(ir3), 100, CODEC_NO_MATCH_MESA);
	testlib_shared_path(path, sizeof path, "mesa/src/etnaviv/isa/etnaviv.xml");
	leaf_seeded_words(path, none, 1, 100, CODEC_NO_MATCH_MESA);
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/afuc/afuc.xml");
	leaf_seeded_words(path, afuc, N(afuc), 100, CODEC_NO_MATCH_MESA);
	/* as afuc-disasm prints (its hooks), straight through where quiet */
	leaf_seeded_words(path, afuc, N(afuc), 100, CODEC_NO_MATCH_AFUC);
}

/* afuc's quiet leaves (codec.afuc_quiet: their text under afuc-disasm's
 * style is that under Mesa's, so the straight-through printer serves
 * them): on words seeded from every leaf, through the plain codec (its
 * general walk runs the hooks), a quiet leaf's text is the same in both
 * styles; and the hooks do change the text of some leaf that is not
 * quiet, so the analysis is not vacuous. */
TEST(afuc_quiet_leaves)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/afuc/afuc.xml");
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	codec *fast = m ? codec_new(m, &d) : NULL;
	codec *slow = m ? codec_new_opt(m, &d, false) : NULL;
	spec_diags_free(&d);
	CHECK(fast != NULL && slow != NULL && fast->afuc_quiet != NULL);
	uint64_t seed = 0x243f6a8885a308d3ull;
	size_t quiet = 0, loud = 0, quiet_differ = 0, loud_differ = 0;
	/* the instruction's root: afuc-disasm's hooks run there */
	for (size_t r = 0; fast && slow && fast->afuc_quiet && r < m->nroots; r++) {
		const spec_root *root = &m->roots[r];
		if (root != codec_default_root(fast))
			continue;
		for (size_t li = 0; li < root->nleaves; li++) {
			const spec_bitset *leaf = root->leaves[li];
			bool q = fast->afuc_quiet[leaf->index];
			quiet += q;
			loud += !q;
			size_t d0 = quiet_differ;
			for (int k = 0; k < 200; k++) {
				uint64_t w[SPEC_MAX_BITS / 64] = {0};
				for (unsigned i = 0; i < (root->bitset->size + 63) / 64 && i < N(w); i++) {
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					uint64_t mask = i < leaf->mask.nwords ? leaf->mask.w[i] : 0;
					uint64_t match = i < leaf->match.nwords ? leaf->match.w[i] : 0;
					/* small values too: a shift of 16 or more with the
					 * low bits clear is what the comment needs */
					uint64_t rnd = k & 1 ? seed & (seed >> 17) & (seed >> 29) : seed;
					w[i] = (rnd & ~mask) | (match & mask);
				}
				/* half the words of a leaf that writes $addr (DST 0x1d)
				 * with a shift of 24: where afuc-disasm comments */
				for (const spec_bitset *s = leaf; k >= 100 && s; s = s->parent)
					for (size_t ci = 0; ci < s->ncases; ci++)
						for (size_t fi = 0; fi < s->cases[ci].nfields; fi++) {
							const spec_field *f = &s->cases[ci].fields[fi];
							uint64_t v = !strcmp(f->name, "DST") ? 0x1d
							             : !strcmp(f->name, "SHIFT") ? 24 : UINT64_MAX;
							unsigned width = f->high - f->low + 1;
							if (v == UINT64_MAX || f->kind != SPEC_FIELD || f->high >= 64 ||
							    width >= 64)
								continue;
							uint64_t fm = (((uint64_t)1 << width) - 1) << f->low;
							w[0] = (w[0] & ~fm) | ((v << f->low) & fm);
						}
				codec_disasm_options om = {.gen = 6, .no_match = CODEC_NO_MATCH_MESA};
				codec_disasm_options oa = {.gen = 6, .no_match = CODEC_NO_MATCH_AFUC};
				char a[600], b[600];
				uint32_t u[2] = {(uint32_t)w[0], (uint32_t)(w[0] >> 32)};
				codec_disasm_one(slow, u, &om, a, sizeof a);
				codec_disasm_one(slow, u, &oa, b, sizeof b);
				/* the decoded leaf's (words that match none print
				 * each style's no-match line) */
				codec_value va[64];
				codec_issue ia[8];
				codec_decoded dd = {.values = va, .cap_values = N(va), .issues = ia,
				                    .cap_issues = N(ia)};
				codec_decode(fast, root, w, 6, &dd);
				if (!dd.leaf)
					continue;
				q = fast->afuc_quiet[dd.leaf->index];
				bool differ = strcmp(a, b) != 0;
				if (q && differ && quiet_differ++ < d0 + 1)
					fprintf(stderr, "quiet leaf %s prints \"%s\" as afuc, \"%s\" as Mesa\n",
					        dd.leaf->name, b, a);
				loud_differ += !q && differ;
			}
		}
	}
	printf("afuc: %zu quiet leaves, %zu not; %zu texts of leaves not quiet differ\n", quiet,
	       loud, loud_differ);
	CHECK(quiet_differ == 0);
	CHECK(quiet > 0 && loud > 0 && loud_differ > 0);
	codec_free(fast);
	codec_free(slow);
	spec_model_free(m);
}

/* A plan fixes which value-list steps a decoding lists (plan_values),
 * but not where a derived value may fail: in "nz" the override's derived
 * F reads Z, which "nz" lacks, so F (which the display does not print:
 * printed, it would be listed as printed) fails and the default case's
 * field F is listed in its place; in "z" it evaluates and the field is
 * not.  The
 * value lists of the codec with plans equal those of the plain
 * interpretation, and say so on every word of both leaves. */
static const char planned_values_xml[] = HDR
	"<bitset name=\"#b\" size=\"32\">\n"
	"  <override>\n"
	"    <expr>{M} == 1</expr>\n"
	"    <derived name=\"F\" type=\"uint\">\n"
	"      <expr>{Z} + 1</expr>\n"
	"    </derived>\n"
	"    <field name=\"G\" low=\"12\" high=\"13\" type=\"uint\"/>\n"
	"  </override>\n"
	"  <field name=\"M\" low=\"8\" high=\"9\" type=\"uint\"/>\n"
	"  <field name=\"F\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
	"  <field name=\"G\" low=\"14\" high=\"15\" type=\"uint\"/>\n"
	"  <display>{NAME} {G}</display>\n"
	"</bitset>\n"
	"<bitset name=\"z\" extends=\"#b\">\n"
	"  <field name=\"Z\" low=\"4\" high=\"7\" type=\"uint\"/>\n"
	"  <pattern low=\"16\" high=\"31\">0000000000000001</pattern>\n"
	"</bitset>\n"
	"<bitset name=\"nz\" extends=\"#b\">\n"
	"  <pattern low=\"16\" high=\"31\">0000000000000010</pattern>\n"
	"</bitset>\n"
	"</isa>\n";

/* The value of the decoding's field named name (-1: none listed). */
static int64_t value_named(const codec_decoded *d, const char *name)
{
	for (size_t i = 0; i < d->nvalues; i++)
		if (d->values[i].field && !strcmp(d->values[i].field->name, name))
			return d->values[i].value;
	return -1;
}

TEST(planned_value_lists)
{
	tspec t;
	codec *plain = load_with_plain(planned_values_xml, &t);
	if (!plain)
		return;
	size_t differ = 0;
	for (uint32_t leaf = 1; leaf <= 2; leaf++)
		for (uint32_t low = 0; low < 0x10000; low++) {
			uint64_t w = (uint64_t)leaf << 16 | low;
			if (!decode_alike(t.c, plain, NULL, &w, 0, NULL) && differ++ < 5)
				fprintf(stderr, "planned values differ on %08llx\n", (unsigned long long)w);
		}
	CHECK_INT(differ, 0);
	/* the override holds (M = 1): in z, F is Z + 1 and G bits 12..13; in
	 * nz, F is the default case's bits 0..3, G still the override's */
	codec_value v[16];
	codec_issue is[4];
	codec_decoded d = {.values = v, .cap_values = N(v), .issues = is, .cap_issues = N(is)};
	uint64_t wz = (uint64_t)1 << 16 | 1u << 8 | 0x5u << 4 | 0x9u | 2u << 12 | 3u << 14;
	codec_decode(t.c, NULL, &wz, 0, &d);
	CHECK_INT(value_named(&d, "F"), 6);
	CHECK_INT(value_named(&d, "G"), 2);
	uint64_t wnz = (uint64_t)2 << 16 | 1u << 8 | 0x9u | 2u << 12 | 3u << 14;
	codec_decode(t.c, NULL, &wnz, 0, &d);
	CHECK_INT(value_named(&d, "F"), 9);
	CHECK_INT(value_named(&d, "G"), 2);
	/* M = 0: the default case's F and G */
	uint64_t w0 = (uint64_t)1 << 16 | 0x9u | 2u << 12 | 3u << 14;
	codec_decode(t.c, NULL, &w0, 0, &d);
	CHECK_INT(value_named(&d, "F"), 9);
	CHECK_INT(value_named(&d, "G"), 3);
	codec_free(plain);
	tfree(&t);
}

int main(void)
{
	RUN(field_types);
	RUN(float_text_as_printf);
	RUN(number_text_as_printf);
	RUN(branches);
	RUN(overrides_derived_templates);
	RUN(nested_overrides_straight_through);
	RUN(params_and_bitset_fields);
	RUN(param_tables);
	RUN(display_errors_and_issues);
	RUN(recursion_limit);
	RUN(planned_value_lists);
	RUN(hostile_specs);
	RUN(decode_text_arguments);
	RUN(leaf_seeded_shipped);
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/vectors/ir3.tsv");
	if (testlib_have_shared(probe)) {
		RUN(ir3_vectors);
		RUN(etnaviv_vectors);
		RUN(afuc_vectors);
		RUN(random_words);
		RUN(mutated_vectors);
		RUN(leaf_seeded_mesa);
		RUN(afuc_quiet_leaves);
		RUN(straight_through_vectors);
		RUN(table_budget);
		RUN(speed);
	}
	free_vectors(ir3_vec, nir3);
	free_vectors(etna_vec, netna);
	return testlib_finish();
}
