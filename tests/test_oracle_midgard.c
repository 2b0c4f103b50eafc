/*
 * test_oracle_midgard.c - isa/midgard.xml held to Mesa's own Midgard
 * disassembler (../shared/oracles/mesa), through the mapping of
 * fuzz/oraclemap_midgard.h, which the fuzz target oracle_midgard shares:
 *
 *  - at least 100,000 bundles of random programs from the reference
 *    codec's generator (src/ref/midgard.c), every kind, one bundle (three
 *    programs in four) or two to six (chained by their next tags,
 *    extended branches landing in the program), printed by Mesa and
 *    predicted from our decoding: 0 differences; the counts of bundles
 *    compared, of programs Mesa refuses (and why) and of each known Mesa
 *    quirk that applied are printed;
 *  - disorderly programs (next tags and branch targets at random, bits
 *    flipped, raw random words): whatever Mesa prints agrees, invalid
 *    parts included (both sides flag them);
 *  - the known quirks (docs/isa/midgard.md): the example words of each
 *    apply its rule, compare equal and print what the table says;
 *  - the comparison can fail: a copy of the spec with one opcode renamed,
 *    one left out, an enum mislabelled, two fields swapped, or a fixed bug
 *    put back differs from Mesa on the first programs that show it.
 *
 * ISACHECK_ORACLE_MIDGARD_BUNDLES overrides the number of bundles.
 */
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if ISACHECK_HAVE_ORACLE
#include "mesa_oracle.h"
#include "midgard.h"
#include "oraclemap_midgard.h"

#define N(a) (sizeof(a) / sizeof(*(a)))

typedef struct fixture {
	spec_model *m;
	codec *c;
	oraclemap_midgard *om;
} fixture;

static void fixture_free(fixture *f)
{
	oraclemap_midgard_free(f->om);
	codec_free(f->c);
	spec_model_free(f->m);
	memset(f, 0, sizeof *f);
}

/* Loads a spec (a file, or a buffer when text is given) and the mapping. */
static bool fixture_load(fixture *f, const char *path, const char *text)
{
	spec_diags d = {0};
	memset(f, 0, sizeof *f);
	f->m = text ? spec_load_buffer("midgard.xml", text, strlen(text),
	                               ISACHECK_SOURCE_DIR "/isa", &d)
	            : spec_load(path, &d);
	CHECK(f->m != NULL);
	for (size_t i = 0; i < d.count; i++)
		fprintf(stderr, "%s:%u: %s\n", d.items[i].loc.file, d.items[i].loc.line,
		        d.items[i].message);
	CHECK_INT(d.count, 0);
	if (f->m)
		f->c = codec_new(f->m, &d);
	spec_diags_free(&d);
	char err[300] = "";
	if (f->c)
		f->om = oraclemap_midgard_new(f->c, err, sizeof err);
	if (!f->om) {
		fprintf(stderr, "oraclemap: %s\n", err);
		CHECK(f->om != NULL);
		fixture_free(f);
		return false;
	}
	return true;
}

/* --------------------------------------------------------------- tallies */

#define MAX_REASONS 16

typedef struct tally {
	unsigned long programs, bundles, kinds[OM_KIND_COUNT], lines, unclean, branches,
	    immediates, constants, cut, differences;
	unsigned long quirks[OM_QUIRK_COUNT];
	unsigned long refused, refused_bundles;
	struct {
		char why[160];
		unsigned long n;
	} reasons[MAX_REASONS];
	size_t nreasons;
} tally;

static void count_refusal(tally *t, const char *why)
{
	t->refused++;
	char key[160];
	snprintf(key, sizeof key, "%.150s", why);
	/* one reason per kind: numbers (bytes, lines) as N */
	char *o = key;
	for (const char *p = key; *p; p++)
		if (*p < '0' || *p > '9')
			*o++ = *p;
		else if (o == key || o[-1] != 'N')
			*o++ = 'N';
	*o = '\0';
	for (size_t i = 0; i < t->nreasons; i++)
		if (!strcmp(t->reasons[i].why, key)) {
			t->reasons[i].n++;
			return;
		}
	if (t->nreasons < MAX_REASONS) {
		snprintf(t->reasons[t->nreasons].why, sizeof t->reasons[0].why, "%s", key);
		t->reasons[t->nreasons++].n = 1;
	}
}

static void report_difference(const uint32_t *w, size_t n, const oraclemap_midgard_result *r)
{
	fprintf(stderr, "DIFFERENT: %s\n  words:", r->what);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %08x", (unsigned)w[i]);
	fprintf(stderr, "\n  Mesa's lines:\n%s  expected lines:\n%s",
	        r->mesa_lines ? r->mesa_lines : "", r->expected_lines ? r->expected_lines : "");
	fprintf(stderr, "  our text:\n%s\n", r->our_text ? r->our_text : "");
}

/* How much run() says about a difference. */
enum { SHOW_NONE, SHOW_LINE, SHOW_ALL };

/* One program through the comparison; false on a difference. */
static bool run(fixture *f, tally *t, const uint32_t *w, size_t n, int show)
{
	oraclemap_midgard_result r;
	CHECK(oraclemap_midgard_compare(f->om, w, n, &r));
	t->programs++;
	bool ok = r.verdict != OM_DIFFERENT;
	if (r.verdict == OM_REFUSED) {
		count_refusal(t, r.refusal);
		t->refused_bundles += n / 4;
	} else {
		if (!ok) {
			t->differences++;
			if (show == SHOW_ALL)
				report_difference(w, n, &r);
			else if (show == SHOW_LINE && t->differences < 200)
				fprintf(stderr, "DIFFERENT: %s\n", r.what);
		}
		/* what was compared before a difference counts */
		t->bundles += r.bundles;
		for (int k = 0; k < OM_KIND_COUNT; k++)
			t->kinds[k] += r.kinds[k];
		t->lines += r.lines;
		t->unclean += r.unclean;
		t->branches += r.branches;
		t->immediates += r.immediates;
		t->constants += r.constants;
		t->cut += r.cut;
		for (int q = 0; q < OM_QUIRK_COUNT; q++)
			t->quirks[q] += r.quirks[q];
	}
	oraclemap_midgard_result_free(&r);
	return ok;
}

static void print_tally(const char *title, const tally *t)
{
	printf("%s: %lu programs; %lu bundles compared (%lu ALU, %lu load/store, %lu texture, "
	       "%lu unknown), %lu of Mesa's lines; %lu parts both flag; %lu branches, "
	       "%lu immediates, %lu constant operands; %lu programs cut short by our framing; "
	       "%lu differences\n",
	       title, t->programs, t->bundles, t->kinds[OM_KIND_ALU], t->kinds[OM_KIND_LOAD_STORE],
	       t->kinds[OM_KIND_TEXTURE], t->kinds[OM_KIND_UNKNOWN], t->lines, t->unclean,
	       t->branches, t->immediates, t->constants, t->cut, t->differences);
	printf("  refused by Mesa: %lu programs (%lu words' worth of bundles)\n", t->refused,
	       t->refused_bundles);
	for (size_t i = 0; i < t->nreasons; i++)
		printf("    %6lu  %s\n", t->reasons[i].n, t->reasons[i].why);
	for (int q = 0; q < OM_QUIRK_COUNT; q++)
		if (t->quirks[q])
			printf("  known Mesa quirk, %6lu times: %s\n", t->quirks[q],
			       oraclemap_midgard_quirk_names[q]);
}

/* ------------------------------------------------------------------ tests */

static fixture fx;
static bool have;

static unsigned long bundles_wanted(void)
{
	const char *s = getenv("ISACHECK_ORACLE_MIDGARD_BUNDLES");
	return s && *s ? strtoul(s, NULL, 0) : 100000;
}

/* Random programs, chained, branches inside, in Mesa's domain: every
 * bundle compared. */
TEST(test_generated_programs)
{
	if (!have)
		return;
	static tally t;
	uint32_t w[OM_MAX_BUNDLES * 16];
	size_t shown = 0;
	clock_t t0 = clock();
	unsigned long want = bundles_wanted();
	for (uint64_t seed = 1; t.bundles < want; seed++) {
		midgard_rng rng;
		midgard_rng_seed(&rng, seed);
		unsigned n = seed % 4 ? 1 : 2 + (unsigned)(seed / 4 % 5);
		size_t nw = oraclemap_midgard_program(&rng, n, OM_GEN_ALL, w, N(w), NULL);
		CHECK(nw > 0);
		if (!nw)
			break;
		if (!run(&fx, &t, w, nw, shown < 5 ? SHOW_ALL : SHOW_LINE))
			shown++;
		if (t.programs > 20 * want)
			break;
	}
	print_tally("generated", &t);
	printf("  %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	CHECK(t.bundles >= want);
	CHECK_INT(t.differences, 0);
	for (int k = 0; k < OM_KIND_UNKNOWN; k++)
		CHECK(t.kinds[k] > 0);
}

/* Programs as the generator makes them (next tags and branch targets at
 * random: Mesa stops at a break, comments on the tags, refuses branches
 * out of the program), the same with bits flipped, and raw words. */
TEST(test_disorderly_programs)
{
	if (!have)
		return;
	static tally t;
	uint32_t w[OM_MAX_BUNDLES * 16];
	size_t shown = 0;
	clock_t t0 = clock();
	unsigned long want = bundles_wanted() / 4;
	for (uint64_t seed = 1; seed <= want; seed++) {
		midgard_rng rng;
		midgard_rng_seed(&rng, seed ^ 0x5eed);
		unsigned n = 1 + (unsigned)(seed % 6);
		unsigned flags = seed % 3 == 0 ? 0 : OM_GEN_ALL & ~(seed % 3 == 1 ? OM_GEN_CHAIN : 0u);
		size_t nw = oraclemap_midgard_program(&rng, n, flags, w, N(w), NULL);
		CHECK(nw > 0);
		if (!nw)
			break;
		switch (seed % 4) {
		case 0: /* as made */
			break;
		case 1: /* a few bits flipped */
		case 2:
			for (unsigned k = 0; k < 1 + seed % 3; k++) {
				uint64_t r = midgard_rng_next(&rng);
				w[(r >> 8) % nw] ^= 1u << (r & 31);
			}
			break;
		default: /* raw words */
			for (size_t i = 0; i < nw; i++)
				w[i] = (uint32_t)midgard_rng_next(&rng);
			break;
		}
		if (!run(&fx, &t, w, nw, shown < 5 ? SHOW_ALL : SHOW_LINE))
			shown++;
	}
	print_tally("disorderly", &t);
	printf("  %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	CHECK_INT(t.differences, 0);
	/* every kind, invalid parts both sides flag, and programs Mesa refuses */
	for (int k = 0; k < OM_KIND_COUNT; k++)
		CHECK(t.kinds[k] > 0);
	CHECK(t.unclean > 0);
	CHECK(t.refused > 0);
}

/* --------------------------------------------------------------- quirks */

/* One example of each known Mesa quirk (docs/isa/midgard.md), built with
 * the reference codec's structs: the comparison applies the quirk's rule
 * and finds no difference; Mesa's text shows the quirk, ours the meaning. */
typedef struct quirk_example {
	int quirk;
	uint32_t words[12];
	size_t n;
	const char *mesa;    /* a line of Mesa's text */
	const char *ours;    /* a line of our text */
} quirk_example;

static const quirk_example quirk_examples[] = {
	/* AADD.64 (0x41) r0, the second slot empty */
	{OM_QUIRK_ATOMIC64_NAME, {0x09e04115, 0x00003838, 0x00000030, 0x00000000}, 4,
	 "AADD.64.be R0.xyzw, , AL1.x", "AADD.64 r0.xyzw, .xyxx, zero.x, zero.x<<0, 0; NOP"},
	/* AADD.64.be (0x43) */
	{OM_QUIRK_ATOMIC64_BE, {0x09e04315, 0x00003838, 0x00000030, 0x00000000}, 4,
	 "ldst_op_43 R0.xyxx", "AADD.64.be r0.xyzw, .xyxx, zero.x, zero.x<<0, 0; NOP"},
	/* SADD FRCP r0.x <- r1.x, r2.x: FRCP runs on VLUT only */
	{OM_QUIRK_UNIT, {0x00080018, 0x04f00041, 0x00001001, 0x00000000}, 4,
	 "FRCP.f32 R0.x, R1.x, R2.x", "\tsadd no match: 000000000000000000000000100104f0"},
	/* VMUL opcode 0x3F */
	{OM_QUIRK_FREDUCE, {0x00020018, 0x023f0041, 0xff2e4072, 0x00000000}, 4,
	 "FREDUCE.f32 R0, R1, R2", "\tvmul no match: 00000000000000000000ff2e4072023f"},
	/* VADD FADD with control bit 28 set */
	{OM_QUIRK_CONTROL_BITS, {0x10200018, 0x02100041, 0xff2e4072, 0x00000000}, 4,
	 "FADD.f32 R0, R1, R2", "\tvadd FADD.f32 mask:ff, .xyzw, .xyzw"},
	/* SADD FADD, padding bit 127 set */
	{OM_QUIRK_PADDING, {0x00080018, 0x04100041, 0x00001001, 0x80000000}, 4,
	 "FADD.f32 R0.x, R1.x, R2.x", "\tsadd FADD.f32 .x, .x, .x"},
	/* alu8 with five units, which need three quadwords; a barrier after */
	{OM_QUIRK_ALU_SIZE,
	 {0x02aa0049, 0x04410041, 0x0c410841, 0x02301041, 0xff2e4072, 0x10010430, 0x40720230,
	  0x0430ff2e, 0x00030b14, 0x00000000, 0x00000000, 0x00000000},
	 12, "alu_op_03.f8 R4/* do0 */ ..shrink, R1., R2.", "\tvadd FMOV.f32 mask:ff, .xyzw, .xyzw"},
	/* a barrier with opcode bit 12 set (its 6-bit opcode is 0x1B) */
	{OM_QUIRK_BARRIER_OPCODE, {0x00031b14, 0x00000000, 0x00000000, 0x00000000}, 4, "BARRIER",
	 "no match: 00000000000000000000000000031b14"},
	/* SADD FADD r0.x <- r26.y (constants 1.0, 2.0, 3.0, 4.0), r1.x */
	{OM_QUIRK_SCALAR_CONSTANT,
	 {0x00080019, 0x1410003a, 0x00001001, 0x00000000, 0x3f800000, 0x40000000, 0x40400000,
	  0x40800000},
	 8, "FADD.f32 R0.x, #3, R1.x", "\tsadd FADD.f32 .x, .y, .x"},
	/* VADD FADD.f64 r0 <- r26.zwxy (1.0, 2.0 as doubles), r1; a barrier after */
	{OM_QUIRK_CONSTANT64,
	 {0x00200049, 0x0310003a, 0xff2e4027, 0x00000000, 0x00000000, 0x3ff00000, 0x00000000,
	  0x40000000, 0x00030b14, 0x00000000, 0x00000000, 0x00000000},
	 12, "FADD.f64 R0, <9.85384e-319, 0>, R1", "\tvadd FADD.f64 mask:ff, .zwxy, .xyzw"},
	/* VADD FADD.f16 r0 <- r26.yxzw (halves 1.0 ... 8.0), r1 */
	{OM_QUIRK_CONSTANT_LANES,
	 {0x00200019, 0x8110003a, 0xff2e4070, 0x00000000, 0x40003c00, 0x44004200, 0x46004500,
	  0x48004700},
	 8, "FADD.f16 R0, <2, 1, 3, 4, 5, 5, 5, 5>, R1", "\tvadd FADD.f16 mask:ff, .yxzw, .xyzw"},
	/* VADD FADD.f32 r0 <- r26.expand_high (halves 1.0 ... 8.0), r1 */
	{OM_QUIRK_CONSTANT_EXPAND,
	 {0x00200019, 0x5210003a, 0xff2e4072, 0x00000000, 0x40003c00, 0x44004200, 0x46004500,
	  0x48004700},
	 8, "FADD.f32 R0, <1, 2, 3, 4, 1, 1, 1, 1>, R1",
	 "\tvadd FADD.f32 mask:ff, .xyzw.expand_high, .xyzw"},
	/* SADD ADD r0.x <- r1.x, r2.x, a 32-bit result with output modifier ssat */
	{OM_QUIRK_INT_OUTMOD, {0x00080018, 0x04400041, 0x00001001, 0x00000000}, 4,
	 "ADD.i32 R0.x, R1.x, R2.x", "\tsadd ADD.i32.ssat .x, .x, .x"},
	/* TRAP with offset 16 */
	{OM_QUIRK_TRAP, {0x0000fc15, 0x00400000, 0x00000030, 0x00000000}, 4, "ldst_op_FC 0x10",
	 "TRAP r0.____, .xxxx, r26.x, r26.x<<0, 16; NOP"},
};

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !memcmp(p, line, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

TEST(test_quirk_examples)
{
	if (!have)
		return;
	bool seen[OM_QUIRK_COUNT] = {false};
	for (size_t i = 0; i < N(quirk_examples); i++) {
		const quirk_example *e = &quirk_examples[i];
		oraclemap_midgard_result r;
		CHECK(oraclemap_midgard_compare(fx.om, e->words, e->n, &r));
		if (r.verdict != OM_SAME) {
			fprintf(stderr, "quirk %d: %s\n", e->quirk, r.what[0] ? r.what : r.refusal);
			report_difference(e->words, e->n, &r);
		}
		CHECK_INT(r.verdict, OM_SAME);
		CHECK(r.quirks[e->quirk] > 0);
		for (int q = 0; q < OM_QUIRK_COUNT; q++)
			if (q != e->quirk && r.quirks[q])
				fprintf(stderr, "quirk %d's example applies quirk %d too\n", e->quirk, q);
		if (!has_line(r.mesa_text, e->mesa) || !has_line(r.our_text, e->ours))
			fprintf(stderr, "quirk %d: Mesa:\n%s\nours:\n%s\n", e->quirk, r.mesa_text,
			        r.our_text);
		CHECK(has_line(r.mesa_text, e->mesa));
		CHECK(has_line(r.our_text, e->ours));
		seen[e->quirk] = true;
		oraclemap_midgard_result_free(&r);
	}
	for (int q = 0; q < OM_QUIRK_COUNT; q++)
		if (!seen[q])
			fprintf(stderr, "quirk %d has no example\n", q);
	for (int q = 0; q < OM_QUIRK_COUNT; q++)
		CHECK(seen[q]);
}

/* ---------------------------------------------------------- it can fail */

/* A copy of isa/midgard.xml with one edit (old -> new, which must occur
 * once), compared on generated programs: the edit must show. */
static void wrong_spec(const char *what, const char *old, const char *new_text)
{
	char *xml = testlib_read_file(ISACHECK_SOURCE_DIR "/isa/midgard.xml");
	CHECK(xml != NULL);
	if (!xml)
		return;
	char *at = strstr(xml, old);
	CHECK(at != NULL);
	CHECK(at && !strstr(at + 1, old));
	if (!at) {
		free(xml);
		return;
	}
	size_t lo = strlen(old), ln = strlen(new_text), len = strlen(xml);
	char *edited = malloc(len - lo + ln + 1);
	CHECK(edited != NULL);
	if (!edited) {
		free(xml);
		return;
	}
	memcpy(edited, xml, (size_t)(at - xml));
	memcpy(edited + (at - xml), new_text, ln);
	strcpy(edited + (at - xml) + ln, at + lo);
	free(xml);
	fixture f;
	bool ok = fixture_load(&f, NULL, edited);
	free(edited);
	if (!ok)
		return;
	static tally t;
	memset(&t, 0, sizeof t);
	uint32_t w[OM_MAX_BUNDLES * 16];
	for (uint64_t seed = 1; seed <= 4000 && !t.differences; seed++) {
		midgard_rng rng;
		midgard_rng_seed(&rng, seed);
		size_t nw = oraclemap_midgard_program(&rng, 1, OM_GEN_ALL, w, N(w), NULL);
		oraclemap_midgard_result r;
		if (!nw || !oraclemap_midgard_compare(f.om, w, nw, &r))
			continue;
		t.programs++;
		if (r.verdict == OM_DIFFERENT) {
			t.differences++;
			printf("  %s: a difference after %lu programs: %s\n", what, t.programs, r.what);
		}
		oraclemap_midgard_result_free(&r);
	}
	CHECK(t.differences > 0);
	fixture_free(&f);
}

TEST(test_wrong_specs_differ)
{
	if (!have)
		return;
	wrong_spec("FADD renamed", "name=\"v.fadd\" extends=\"#vector-float\" displayname=\"FADD\"",
	           "name=\"v.fadd\" extends=\"#vector-float\" displayname=\"FSUB\"");
	wrong_spec("F2I with a float result (the old spec)",
	           "name=\"v.f2i_rte\" extends=\"#vector-float-int\"",
	           "name=\"v.f2i_rte\" extends=\"#vector-float\"");
	wrong_spec("1d and 2d swapped", "<value val=\"1\" display=\".1d\"/>\n\t<value val=\"2\" display=\".2d\"/>",
	           "<value val=\"1\" display=\".2d\"/>\n\t<value val=\"2\" display=\".1d\"/>");
	wrong_spec("SRC1 and SRC2 of the register word swapped",
	           "<field name=\"SRC1\" low=\"0\" high=\"4\" type=\"uint\"/>\n\t<field name=\"SRC2\" low=\"5\" high=\"9\" type=\"uint\"/>",
	           "<field name=\"SRC1\" low=\"5\" high=\"9\" type=\"uint\"/>\n\t<field name=\"SRC2\" low=\"0\" high=\"4\" type=\"uint\"/>");
	wrong_spec("ST.32 read as writing a full register (the old spec)",
	           "name=\"st_32\" extends=\"#load-store-store\"", "name=\"st_32\" extends=\"#load-store-load\"");
	wrong_spec("scalar FADD left out",
	           "<bitset name=\"s.fadd\" extends=\"#scalar-float\" displayname=\"FADD\">\n"
	           "\t<pattern low=\"0\" high=\"7\">00010000</pattern>\n</bitset>",
	           "");
	wrong_spec("the compact branch's condition values rotated",
	           "<value val=\"0\" display=\".write0\"/>\n\t<value val=\"1\" display=\".false\"/>",
	           "<value val=\"0\" display=\".false\"/>\n\t<value val=\"1\" display=\".write0\"/>");
}

int main(void)
{
	if (!testlib_have_shared(ISACHECK_SHARED_DIR "/oracles/mesa/glue/mesa_oracle.h"))
		return testlib_failures ? 1 : 77;
	have = fixture_load(&fx, ISACHECK_SOURCE_DIR "/isa/midgard.xml", NULL);
	RUN(test_generated_programs);
	RUN(test_disorderly_programs);
	RUN(test_quirk_examples);
	RUN(test_wrong_specs_differ);
	fixture_free(&fx);
	printf("%d checks, %d failed\n", testlib_checks, testlib_failures);
	return testlib_failures ? 1 : testlib_skipped ? 77 : 0;
}

#else

int main(void)
{
	/* built without ../shared/oracles/mesa: skipped, but not in CI */
	if (!testlib_have_shared(ISACHECK_ORACLE_DIR "/glue/mesa_oracle.h"))
		return testlib_failures ? 1 : 77;
	printf("SKIP: the Mesa oracle appeared after this build was configured: re-run cmake\n");
	return 77;
}

#endif
