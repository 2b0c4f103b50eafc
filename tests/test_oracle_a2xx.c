/*
 * test_oracle_a2xx.c - `isacheck disasm isa/a2xx.xml --program=vs|fs` (and
 * the default program, which prints no export comments) against Mesa's own
 * disasm_a2xx() (../shared/oracles/mesa), at scale: 100,000 seeded random
 * valid programs from the reference codec's generator (src/ref/a2xx.h,
 * a2xx_program_random), each printed for the vertex and the fragment
 * stage, and the whole programs of ../shared/blob/a2xx.tsv, must print
 * byte for byte as Mesa prints them.  The comparison and what must hold
 * when a side refuses are fuzz/oracle_a2xx_compare.h's, the one the fuzz
 * target oracle_a2xx runs; every case of that contract is shown here on a
 * program made for it, and so is the comparison's failing.
 */
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#if ISACHECK_HAVE_ORACLE
#include "a2xx.h"
#include "mesa_oracle.h"
#include "oracle_a2xx_compare.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 2.25 walks and 2 calls of Mesa's code per program: about 15 s of CPU
 * plain, over a minute under ASan+UBSan (a walk allocates some 150 KiB,
 * which ASan's quarantine makes fresh pages each time).  The sanitizer
 * build, there for memory errors, walks a quarter of the programs (the
 * first of the same seeds); the plain build compares all of them.  A
 * multiple of 8: a stage's default program is every eighth. */
#ifdef ISACHECK_SANITIZED
#define RANDOM_PROGRAMS 25000u
#else
#define RANDOM_PROGRAMS 100000u
#endif
_Static_assert(RANDOM_PROGRAMS % 8 == 0, "a stage's default program is every eighth");

/* ------------------------------------ the framing the variants stand on
 *
 * <suffix> and <program extends> (docs/framing.md, Variants), which the
 * a2xx variants use, on a model of their own: they need no oracle. */

static const char suffix_model[] =
	"<isa>"
	"<bitset name=\"#w\" size=\"32\"><pattern pos=\"31\">0</pattern>"
	"<field name=\"V\" low=\"0\" high=\"30\" type=\"uint\"/><display>w{V}</display></bitset>"
	"<program name=\"base\">"
	"<let name=\"mode\" expr=\"0\"/>"
	"<repeat to-end=\"true\"><part root=\"#w\"><export field=\"V\"/>"
	"<display>{_}\\nsecond</display>"
	"<suffix line=\"1\" when=\"{mode} == 1\">\\t; one</suffix>"
	"<suffix line=\"2\" when=\"{mode} &amp;&amp; {V} == 7\">\\t; seven {V}</suffix>"
	"<suffix line=\"2\" when=\"{mode}\"> |and</suffix>"
	"<suffix line=\"3\">never</suffix>"
	"</part></repeat></program>"
	"<program name=\"one\" extends=\"base\"><doc>mode 1</doc><let name=\"mode\" expr=\"1\"/></program>"
	"</isa>";

/* The rules a model raises, sorted by line, one "rule@line" each. */
static void rules_of(const char *xml, char *out, size_t len)
{
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("model.xml", xml, strlen(xml), ".", &d);
	out[0] = 0;
	for (size_t i = 0; i < d.count; i++) {
		size_t o = strlen(out);
		snprintf(out + o, len - o, "%s%s", o ? " " : "", d.items[i].rule);
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(framing_variants_and_suffixes)
{
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("model.xml", suffix_model, strlen(suffix_model), ".", &d);
	for (size_t i = 0; i < d.count; i++)
		fprintf(stderr, "model.xml:%u: %s [%s]\n", d.items[i].loc.line, d.items[i].message,
		        d.items[i].rule);
	CHECK_INT(d.count, 0);
	spec_diags_free(&d);
	codec *c = m ? codec_new(m, &d) : NULL;
	CHECK(c != NULL);
	if (!c) {
		spec_model_free(m);
		return;
	}
	const spec_program *base = spec_find_program(m, "base"), *one = spec_find_program(m, "one");
	CHECK(base && one && spec_find_program(m, NULL) == base);
	CHECK(one && one->extends && !strcmp(one->extends, "base") && one->nsteps == 2);
	/* 7, 1, and a word no leaf matches (bit 31): its V is unset, so the
	 * suffix that reads it does not print, and nothing stops; a suffix's
	 * text is trimmed as a display's is (" |and" prints "|and") */
	static const uint32_t w[] = {7, 1, 0x80000000u};
	codec_disasm_options o = {.show_errors = false};
	codec_program *pb = codec_program_walk(c, base, w, 3, &o);
	codec_program *p1 = codec_program_walk(c, one, w, 3, &o);
	CHECK_STR(pb ? pb->text : NULL, "w7\nsecond\nw1\nsecond\nno match: 80000000\nsecond\n");
	CHECK_STR(p1 ? p1->text : NULL, "w7\t; one\nsecond\t; seven 7|and\nw1\t; one\nsecond|and\n"
	                                "no match: 80000000\t; one\nsecond|and\n");
	CHECK(p1 && !p1->stopped && pb && pb->nitems == p1->nitems);
	codec_program_free(pb);
	codec_program_free(p1);
	codec_free(c);
	spec_model_free(m);

	/* the loader's checks */
	char got[512];
	static const char head[] = "<isa><bitset name=\"#w\" size=\"32\"><field name=\"V\" "
	                           "low=\"0\" high=\"31\" type=\"uint\"/><display>w</display>"
	                           "</bitset><program name=\"p\"><let name=\"a\" expr=\"0\"/>"
	                           "<part root=\"#w\">";
	static const struct {
		const char *part, *after, *want;
	} bad[] = {
		{"", "<program name=\"v\" extends=\"none\"/>", "frame-variant"},
		{"", "<program name=\"v\" extends=\"v\"/>", "frame-variant"},
		{"", "<program name=\"v\" extends=\"p\"><part root=\"#w\"/></program>",
		 "frame-variant"},
		{"", "<program name=\"v\" extends=\"p\"><let name=\"b\" expr=\"1\"/></program>",
		 "frame-variant"},
		{"", "<program name=\"v\" extends=\"p\"><let name=\"a\" expr=\"{a}\"/></program>",
		 "frame-ref-unknown"},
		{"<suffix line=\"0\">x</suffix>", "", "frame-size"},
		{"<suffix>x</suffix>", "", "missing-attribute"},
		{"<suffix line=\"1\">{_}</suffix>", "", "frame-ref-unknown"},
		{"<suffix line=\"1\" when=\"{b}\">x</suffix>", "", "frame-ref-unknown"},
		{"<suffix line=\"1\" colour=\"red\">x</suffix>", "", "unknown-attribute"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char xml[2048];
		snprintf(xml, sizeof xml, "%s%s</part></program>%s</isa>", head, bad[i].part,
		         bad[i].after);
		rules_of(xml, got, sizeof got);
		if (strcmp(got, bad[i].want))
			fprintf(stderr, "bad model %zu: %s\n", i, xml);
		CHECK_STR(got, bad[i].want);
	}
	/* a variant is no default: two bases are */
	char xml[2048];
	snprintf(xml, sizeof xml, "%s</part></program><program name=\"q\"><part root=\"#w\"/>"
	         "</program></isa>", head);
	spec_diags d2 = {0};
	m = spec_load_buffer("model.xml", xml, strlen(xml), ".", &d2);
	CHECK(m && spec_program_count(m) == 2 && spec_find_program(m, NULL) == NULL);
	spec_model_free(m);
	spec_diags_free(&d2);
}

#if ISACHECK_HAVE_ORACLE

static const char *const stage_names[2] = {"vertex", "fragment"};

typedef struct loaded {
	testlib_codec l;
	oracle_a2xx_programs p;
} loaded;

static bool load(loaded *x)
{
	x->l = testlib_load_codec(ISACHECK_SOURCE_DIR "/isa/a2xx.xml");
	bool ok = x->l.c && oracle_a2xx_find_programs(x->l.m, &x->p);
	CHECK(ok);
	return ok;
}

static const spec_program *variant(const loaded *x, int type)
{
	return type == MESA_ORACLE_A2XX_VS ? x->p.vs : x->p.fs;
}

static void show(const char *what, const uint32_t *w, size_t n, const oracle_a2xx_result *r)
{
	fprintf(stderr, "%s: %s (%s), line %zu\n  words:", what,
	        oracle_a2xx_verdict_name(r->verdict), r->why ? r->why : "", r->diff.line + 1);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %08x", w[i]);
	fprintf(stderr, "\n  isacheck: %.*s\n  Mesa:     %.*s\n", (int)r->diff.ourslen, r->diff.ours,
	        (int)r->diff.mesalen, r->diff.mesa);
}

/* Mesa's text of w for a stage, then the variant's and (when also_default)
 * the default program's verdicts, into v[0] and v[1]. */
static int check_both(const loaded *x, const uint32_t *w, size_t n, int type, bool also_default,
                      oracle_a2xx_verdict v[2], char *detail, size_t dlen, bool *commented)
{
	char *mesa = NULL;
	int st = oracle_a2xx_mesa(w, n, type, &mesa, detail, dlen);
	CHECK(mesa != NULL);
	*commented = mesa && strstr(mesa, "\t; gl_") != NULL;
	for (int k = 0; k < 1 + also_default; k++) {
		oracle_a2xx_result r;
		bool ok = oracle_a2xx_check(x->l.c, k ? x->p.none : variant(x, type), k == 0, w, n,
		                            mesa, st, detail, &r);
		CHECK(ok);
		v[k] = ok ? r.verdict : ORACLE_A2XX_NO_MEMORY;
		if (ok && r.verdict == ORACLE_A2XX_DIFFER)
			show(k ? "default program" : stage_names[type], w, n, &r);
		oracle_a2xx_result_free(&r);
	}
	free(mesa);
	return st;
}

/* A refusal's reason without its numbers, to count alike ones together. */
static void reason_key(const char *detail, char *out, size_t len)
{
	size_t o = 0;
	for (const char *p = detail; *p && o + 1 < len; p++)
		if (*p < '0' || *p > '9')
			out[o++] = *p;
		else if (!o || out[o - 1] != 'N')
			out[o++] = 'N';
	out[o] = 0;
}

typedef struct reasons {
	char key[8][160];
	size_t count[8], n;
} reasons;

static void count_reason(reasons *rs, const char *detail)
{
	char key[160];
	reason_key(detail, key, sizeof key);
	size_t i = 0;
	while (i < rs->n && strcmp(rs->key[i], key))
		i++;
	if (i == rs->n && rs->n < 8)
		snprintf(rs->key[rs->n++], sizeof rs->key[0], "%s", key);
	if (i < rs->n)
		rs->count[i]++;
}

/* The generator's programs: all of them frame cleanly on our side, so
 * every one Mesa prints must print alike, comments and all; Mesa refuses
 * only those whose texture filters are 6 (one seed in 16 may have them). */
TEST(random_programs)
{
	loaded x;
	if (!load(&x))
		return;
	clock_t t0 = clock();
	size_t verdicts[2][2][ORACLE_A2XX_NVERDICTS] = {{{0}}}, commented[2] = {0};
	size_t refused[2] = {0}, generated = 0, bad = 0;
	reasons rs = {0};
	static uint32_t w[A2XX_RANDOM_MAX_DWORDS];
	for (uint32_t i = 0; i < RANDOM_PROGRAMS; i++) {
		unsigned flags = (i & 1 ? A2XX_RANDOM_DONTCARE : 0) |
		                 (i % 16 != 15 ? A2XX_RANDOM_NAMED_FILTERS : 0);
		size_t n = 0;
		uint64_t seed = UINT64_C(0x6a09e667f3bcc908) + i;
		if (a2xx_program_random(seed, flags, w, A2XX_RANDOM_MAX_DWORDS, &n) != A2XX_OK) {
			bad++;
			continue;
		}
		generated++;
		/* the generator's promise: the reference walks it */
		a2xx_slot slots[A2XX_RANDOM_MAX_DWORDS / 3];
		size_t ns, ncf;
		if (a2xx_program_walk(w, n, slots, A2XX_RANDOM_MAX_DWORDS / 3, &ns, &ncf) != A2XX_OK)
			bad++;
		for (int type = 0; type < 2; type++) {
			oracle_a2xx_verdict v[2] = {ORACLE_A2XX_NO_MEMORY, ORACLE_A2XX_NO_MEMORY};
			char detail[256];
			bool c;
			/* the default program, for one program in four (a stage each
			 * time in turn): it prints the same for both stages, and a walk
			 * costs a millisecond under the sanitizers */
			bool def = i % 4 == 0 && (int)(i / 4 % 2) == type;
			int st = check_both(&x, w, n, type, def, v, detail, sizeof detail, &c);
			commented[type] += c;
			if (st < 0) {
				refused[type]++;
				count_reason(&rs, detail);
			}
			for (int k = 0; k < 1 + def; k++) {
				verdicts[type][k][v[k]]++;
				/* a valid program: compared in full, or refused by Mesa */
				if (v[k] != ORACLE_A2XX_SAME && v[k] != ORACLE_A2XX_MESA_UB &&
				    verdicts[type][k][v[k]] <= 3)
					fprintf(stderr, "seed %#llx, %s stage%s: %s\n", (unsigned long long)seed,
					        stage_names[type], k ? " (default program)" : "",
					        oracle_a2xx_verdict_name(v[k]));
			}
		}
	}
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	printf("%zu random programs (seeds 0x6a09e667f3bcc908 + 0..%u) in %.1f s of CPU\n", generated,
	       RANDOM_PROGRAMS - 1, secs);
	for (int type = 0; type < 2; type++)
		for (int k = 0; k < 2; k++) {
			const size_t *v = verdicts[type][k];
			printf("  %s stage, %s: %zu compared, %zu the same, %zu refused by Mesa's code, "
			       "%zu different, %zu other\n", stage_names[type],
			       k ? "default program (comments cut)" : "its variant", v[ORACLE_A2XX_SAME] +
			       v[ORACLE_A2XX_DIFFER], v[ORACLE_A2XX_SAME], v[ORACLE_A2XX_MESA_UB],
			       v[ORACLE_A2XX_DIFFER], v[ORACLE_A2XX_UNDECODABLE] + v[ORACLE_A2XX_WE_STOP] +
			       v[ORACLE_A2XX_MESA_OVERREAD] + v[ORACLE_A2XX_NO_MEMORY]);
			CHECK_INT(v[ORACLE_A2XX_DIFFER], 0);
			/* the generator's programs are valid: nothing else may happen */
			CHECK_INT(v[ORACLE_A2XX_SAME] + v[ORACLE_A2XX_MESA_UB],
			          k ? generated / 8 : generated);
		}
	for (size_t i = 0; i < rs.n; i++)
		printf("  refused by Mesa's code (both stages): %zu x %s\n", rs.count[i], rs.key[i]);
	printf("  Mesa's text has an export comment: %zu vertex, %zu fragment\n", commented[0],
	       commented[1]);
	CHECK_INT(bad, 0);
	CHECK_INT(generated, RANDOM_PROGRAMS);
	/* the sample reaches what it is for: comments of both stages, and far
	 * more comparisons than refusals */
	CHECK(commented[0] > generated / 10 && commented[1] > generated / 10);
	CHECK(refused[0] < generated / 10 && refused[1] < generated / 10);
	testlib_unload_codec(&x.l);
}

/* ../shared/blob/a2xx.tsv: the whole programs of the blob dumps, with the
 * text Mesa printed for them (its stage in the row's source: "VS" or
 * "FS").  The oracle prints that text, and so do we. */
TEST(blob_programs)
{
	char path[1024];
	if (!testlib_have_shared(testlib_shared_path(path, sizeof path, "blob/a2xx.tsv")))
		return;
	loaded x;
	if (!load(&x))
		return;
	testlib_tsv t;
	CHECK(testlib_tsv_open(&t, path));
	size_t programs = 0, same = 0, stages[2] = {0};
	char *cols[3];
	size_t nc;
	while ((nc = testlib_tsv_next(&t, cols, 3))) {
		if (nc < 3 || !strstr(cols[0], "kind=whole_program"))
			continue;
		int type = strstr(cols[0], " VS") ? MESA_ORACLE_A2XX_VS
		           : strstr(cols[0], " FS") ? MESA_ORACLE_A2XX_FS : -1;
		CHECK(type >= 0);
		if (type < 0)
			continue;
		programs++;
		stages[type]++;
		uint32_t w[512];
		size_t n = testlib_parse_words(cols[1], w, 512);
		char *text = cols[2], *mark = strstr(text, "] ");
		if (text[0] == '[' && mark)
			text = mark + 2;
		testlib_unescape(text);
		char *mesa = NULL, detail[256];
		int st = oracle_a2xx_mesa(w, n, type, &mesa, detail, sizeof detail);
		CHECK(st >= 0 && mesa);
		/* the TSV's text lacks the last newline */
		CHECK(mesa && !strncmp(mesa, text, strlen(text)) && !strcmp(mesa + strlen(text), "\n"));
		oracle_a2xx_verdict v[2];
		bool c;
		check_both(&x, w, n, type, true, v, detail, sizeof detail, &c);
		CHECK_INT(v[0], ORACLE_A2XX_SAME);
		CHECK_INT(v[1], ORACLE_A2XX_SAME);
		same += v[0] == ORACLE_A2XX_SAME && v[1] == ORACLE_A2XX_SAME;
		free(mesa);
	}
	testlib_tsv_close(&t);
	printf("blob: %zu whole programs (%zu vertex, %zu fragment), %zu print as Mesa does, "
	       "with and without comments\n", programs, stages[0], stages[1], same);
	CHECK_INT(programs, 11);
	testlib_unload_codec(&x.l);
}

/* One program made for a case of the contract: its verdict for both
 * stages and programs, and Mesa's status (PRINTS: any text, >= 0). */
#define PRINTS 0
static void expect(const loaded *x, const char *name, const uint32_t *w, size_t n,
                   int want_status, oracle_a2xx_verdict want)
{
	for (int type = 0; type < 2; type++) {
		oracle_a2xx_verdict v[2];
		char detail[256];
		bool c;
		int st = check_both(x, w, n, type, true, v, detail, sizeof detail, &c);
		if (want_status == PRINTS && st >= 0)
			st = PRINTS;
		if (st != want_status || v[0] != want || v[1] != want)
			fprintf(stderr, "%s, %s stage: status %d (%s), verdicts %s / %s\n", name,
			        stage_names[type], st, detail, oracle_a2xx_verdict_name(v[0]),
			        oracle_a2xx_verdict_name(v[1]));
		CHECK_INT(st, want_status);
		CHECK_INT(v[0], want);
		CHECK_INT(v[1], want);
	}
}

TEST(contract_cases)
{
	loaded x;
	if (!load(&x))
		return;
	/* EXEC ADDR(0x1) CNT(0x1) and a NOP; slot 1 an ALU of vector opcode 30,
	 * which no leaf explains and Mesa prints as "(null)" */
	static const uint32_t op30[] = {0x00001001, 0x00001000, 0, 0x000f0000, 0, 0x1e000000};
	expect(&x, "vector opcode 30", op30, 6, PRINTS, ORACLE_A2XX_UNDECODABLE);
	/* the same with MULv: the same bytes */
	static const uint32_t mul[] = {0x00001001, 0x00001000, 0, 0x000f0000, 0, 0x01000000};
	expect(&x, "MULv", mul, 6, PRINTS, ORACLE_A2XX_SAME);
	/* EXEC ADDR(0x0): Mesa prints no CF at all; we stop on the count */
	static const uint32_t addr0[] = {0x00000000, 0x00001000, 0};
	expect(&x, "EXEC ADDR(0x0)", addr0, 3, PRINTS, ORACLE_A2XX_WE_STOP);
	/* a NOP first, then EXEC ADDR(0x0) (bits 48-95 of the pair): Mesa
	 * prints nothing, we the NOP and the EXEC, then stop */
	static const uint32_t late[] = {0, 0, 0x10000000};
	expect(&x, "EXEC at CF 1, ADDR(0x0)", late, 3, PRINTS, ORACLE_A2XX_WE_STOP);
	/* EXEC ADDR(0x1) CNT(0x1) whose slot lies past the input */
	static const uint32_t past[] = {0x00001001, 0x00001000, 0};
	expect(&x, "a clause past the end", past, 3, MESA_ORACLE_E_OVERREAD,
	       ORACLE_A2XX_MESA_OVERREAD);
	/* no EXEC-type CF: Mesa's scan would run off the input */
	static const uint32_t nops[] = {0, 0, 0};
	expect(&x, "no EXEC", nops, 3, MESA_ORACLE_E_MESA_UB, ORACLE_A2XX_MESA_UB);
	/* a FETCH slot (serialize bit 0) of opcode 2, which neither side has */
	static const uint32_t fetch2[] = {0x00011001, 0x00001000, 0, 2, 0, 0};
	expect(&x, "fetch opcode 2", fetch2, 6, MESA_ORACLE_E_MESA_UB, ORACLE_A2XX_MESA_UB);

	/* the comparison can fail: a text that differs by one byte, a walk
	 * that stops where Mesa's text is not the start of ours, an overread
	 * we would not stop on */
	char *mesa = NULL, detail[256];
	int st = oracle_a2xx_mesa(mul, 6, MESA_ORACLE_A2XX_FS, &mesa, detail, sizeof detail);
	CHECK(st > 0 && mesa);
	if (mesa) {
		oracle_a2xx_result r;
		mesa[st - 2] ^= 1;
		CHECK(oracle_a2xx_check(x.l.c, x.p.fs, true, mul, 6, mesa, st, detail, &r));
		CHECK_INT(r.verdict, ORACLE_A2XX_DIFFER);
		CHECK_INT(r.diff.line, 2);
		oracle_a2xx_result_free(&r);
		CHECK(oracle_a2xx_check(x.l.c, x.p.fs, true, addr0, 3, mesa, 0, "", &r));
		CHECK_INT(r.verdict, ORACLE_A2XX_DIFFER);
		oracle_a2xx_result_free(&r);
		CHECK(oracle_a2xx_check(x.l.c, x.p.fs, true, mul, 6, mesa, MESA_ORACLE_E_OVERREAD, "",
		                        &r));
		CHECK_INT(r.verdict, ORACLE_A2XX_DIFFER);
		oracle_a2xx_result_free(&r);
		CHECK(oracle_a2xx_check(x.l.c, x.p.fs, true, mul, 6, mesa, MESA_ORACLE_E_MESA_UB,
		                        "no EXEC-type CF", &r));
		CHECK_INT(r.verdict, ORACLE_A2XX_DIFFER);
		oracle_a2xx_result_free(&r);
	}
	free(mesa);
	testlib_unload_codec(&x.l);
}

/* The stage is chosen by name; the default program is the base, a2xx,
 * and the CLI prints each as the walk does. */
TEST(variants)
{
	loaded x;
	if (!load(&x))
		return;
	CHECK_STR(x.p.none->name, "a2xx");
	CHECK_STR(x.p.vs->extends, "a2xx");
	CHECK_STR(x.p.fs->extends, "a2xx");
	CHECK(x.p.vs->cover && x.p.fs->cover && x.p.none->cover);
	/* EXEC_END ADDR(0x1) CNT(0x1) and a NOP; an ALU exporting to 62 (vector,
	 * xyzw) and 0 (scalar, x): MULv export62 = R0, R0 and ADDs export0.x */
	static const uint32_t w[] = {0x00001001, 0x00002000, 0, 0x001f803e, 0, 0xe1000000};
	codec_disasm_options o = {.show_errors = false};
	const char *want[3] = {"\tEXEC_END ADDR(0x1) CNT(0x1)\n"
	                       "\t      ALU:\tMULv\texport62 = R0, R0\t; gl_Position\n"
	                       "\t\t    \tADDs\texport0.x___ = R0\n\tNOP\n",
	                       "\tEXEC_END ADDR(0x1) CNT(0x1)\n"
	                       "\t      ALU:\tMULv\texport62 = R0, R0\n"
	                       "\t\t    \tADDs\texport0.x___ = R0\t; gl_FragColor\n\tNOP\n",
	                       "\tEXEC_END ADDR(0x1) CNT(0x1)\n"
	                       "\t      ALU:\tMULv\texport62 = R0, R0\n"
	                       "\t\t    \tADDs\texport0.x___ = R0\n\tNOP\n"};
	const spec_program *ps[3] = {x.p.vs, x.p.fs, x.p.none};
	const char *names[3] = {"=vs", "=fs", ""};
	for (int k = 0; k < 3; k++) {
		codec_program *pr = codec_program_walk(x.l.c, ps[k], w, 6, &o);
		CHECK(pr && codec_program_clean(pr));
		CHECK_STR(pr ? pr->text : NULL, want[k]);
		if (k < 2) {
			char *mesa = NULL, detail[256];
			oracle_a2xx_mesa(w, 6, k ? MESA_ORACLE_A2XX_FS : MESA_ORACLE_A2XX_VS, &mesa,
			                 detail, sizeof detail);
			CHECK_STR(mesa, want[k]);
			free(mesa);
		}
		codec_program_free(pr);
		char cmd[2048], *out = NULL;
		snprintf(cmd, sizeof cmd, "'%s' disasm '%s' --program%s --hex 00001001 00002000 0 "
		         "001f803e 0 e1000000", ISACHECK_BINARY, ISACHECK_SOURCE_DIR "/isa/a2xx.xml",
		         names[k]);
		CHECK_INT(testlib_run_capture(cmd, &out), 0);
		CHECK_STR(out, want[k]);
		free(out);
	}
	/* an instruction with an issue (EXEC's don't-care bit 9): the CLI
	 * notes it as it does for any spec, exit 1; --no-errors prints Mesa's
	 * text alone */
	static const uint32_t dc[] = {0x00001201, 0x00002000, 0, 0x001f803e, 0, 0xe1000000};
	char *mesa = NULL, detail[256], cmd[2048], *out = NULL;
	oracle_a2xx_mesa(dc, 6, MESA_ORACLE_A2XX_VS, &mesa, detail, sizeof detail);
	const char *src = ISACHECK_SOURCE_DIR "/isa/a2xx.xml";
	snprintf(cmd, sizeof cmd, "'%s' disasm '%s' --program=vs --no-errors --hex 00001201 "
	         "00002000 0 001f803e 0 e1000000", ISACHECK_BINARY, src);
	CHECK_INT(testlib_run_capture(cmd, &out), 1);
	CHECK_STR(out, mesa);
	free(out);
	snprintf(cmd, sizeof cmd, "'%s' disasm '%s' --program=vs --hex 00001201 00002000 0 "
	         "001f803e 0 e1000000", ISACHECK_BINARY, src);
	CHECK_INT(testlib_run_capture(cmd, &out), 1);
	CHECK(out && strstr(out, "\tEXEC_END ADDR(0x1) CNT(0x1)\t; dontcare bits in EXEC_END"));
	free(out);
	free(mesa);
	testlib_unload_codec(&x.l);
}

#else

TEST(oracle_absent)
{
	/* without the oracle there is nothing to compare against: skipped,
	 * except under CI=true, where ../shared must be there */
	testlib_have_shared(ISACHECK_ORACLE_DIR "/oracle.cmake");
}

#endif

int main(void)
{
	RUN(framing_variants_and_suffixes);
#if ISACHECK_HAVE_ORACLE
	RUN(variants);
	RUN(contract_cases);
	RUN(blob_programs);
	RUN(random_programs);
#else
	RUN(oracle_absent);
#endif
	return testlib_finish();
}
