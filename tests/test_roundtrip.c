/*
 * test_roundtrip.c - the round-trip proof (prove_semantic with
 * prove_text_ops.roundtrip: roundtrip-lost and its "every word comes
 * back" proofs) against brute force.
 *
 * Every spec here has a 16-bit #instruction root: every word is decoded
 * and, where it has a meaning, encoded again (codec_roundtrip).  The
 * verdicts must agree: proved -> no word of the leaf fails to come back;
 * roundtrip-lost -> the word it names is one that fails; semantic-unknown
 * is counted and allowed, but may not be the rule.
 *
 * Random specs: leaves told apart by bits 14-15; bits 0-13 cut into
 * fixed and don't-care pattern bits, fields, bits nothing claims (holes),
 * asserts of the default case, and 4-bit #sub fields whose two leaves
 * have asserts, x bits and holes of their own, one of them an override
 * on a param P bound to a field of the leaf.  Some leaves get an
 * override on one of their fields with a field of its own over other
 * bits (a new name, or a name of the default case: the encoder's
 * "shadowed" values), an assert, a display that prints the #sub field
 * or does not (the decoder checks the sub-leaf's asserts only where it
 * prints it), and derived values.
 *
 * Usage: test_roundtrip [SEED [COUNT]]   (defaults 1 and 80; 16 under ASan).
 */
#include "check.h"
#include "codec.h"
#include "cli/prove_ops.h" /* the decoder glue the CLI passes the proofs */
#include "semantic_gen.h"
#include "spec.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ISACHECK_SANITIZED
static unsigned long seed_arg = 1, count_arg = 16;
#else
static unsigned long seed_arg = 1, count_arg = 80;
#endif

typedef testlib_text sbuf;
#define out testlib_printf

typedef semgen_rt_tally tally;

/* Proves spec xml's round trips and holds every verdict to brute force
 * (fuzz/semantic_gen.c); expect (NULL or per leaf): "proved", "finding"
 * or "unknown". */
static void check_spec(const char *name, const char *xml, tally *t, const char *const *expect)
{
	static char why[1 << 15];
	bool ok = semgen_rt_judge(name, xml, expect, t, why, sizeof why);
	CHECK(ok);
	if (!ok)
		fprintf(stderr, "%s\n", why);
}

/* ------------------------------------------------------------ by hand */

TEST(each_verdict_by_hand)
{
	const char *xml =
		"<isa>\n"
		"<bitset name=\"#instruction\" size=\"16\"></bitset>\n"
		/* every bit a pattern or field bit: proved */
		"<bitset name=\"whole\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">00</pattern>\n"
		"  <pattern low=\"12\" high=\"13\">xx</pattern>\n"
		"  <field name=\"A\" low=\"0\" high=\"11\" type=\"uint\"/>\n"
		"  <display>whole {A}</display>\n"
		"</bitset>\n"
		/* bits 8-13 nothing reads: lost */
		"<bitset name=\"holey\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">01</pattern>\n"
		"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		"  <display>holey {A}</display>\n"
		"</bitset>\n"
		/* an assert the decoder checks (its case is the display's): proved */
		"<bitset name=\"checked\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">10</pattern>\n"
		"  <assert low=\"8\" high=\"13\">000000</assert>\n"
		"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		"  <display>checked {A}</display>\n"
		"</bitset>\n"
		/* an override that holds when A is 0 and takes bits 0-3 for B: the
		 * default's A is listed too, and shadowed: bits 4-7 lost */
		"<bitset name=\"shadow\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">11</pattern>\n"
		"  <pattern low=\"8\" high=\"13\">000000</pattern>\n"
		"  <override><expr>{A} == 0x10</expr>\n"
		"    <field name=\"B\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
		"    <display>b {B}</display>\n"
		"  </override>\n"
		"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		"  <display>shadow {A}</display>\n"
		"</bitset>\n"
		"</isa>\n";
	static const char *const expect[] = {"proved", "finding", "proved", "finding"};
	tally t = {0};
	check_spec("hand.xml", xml, &t, expect);
}

/* codec_encode places each field within one 64-bit word at once and
 * any other bit by bit: both give the word back, and a value that
 * contradicts bits already placed (a pattern, another field) is refused
 * with the bit it needs.  A field across a word boundary (60-67) and
 * two fields over the same bits (B and C share 2-3). */
TEST(encoder_places_and_clashes)
{
	const char *xml =
		"<isa>\n"
		"<bitset name=\"#instruction\" size=\"80\"></bitset>\n"
		"<bitset name=\"wide\" extends=\"#instruction\">\n"
		"  <field name=\"B\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
		"  <field name=\"C\" low=\"2\" high=\"5\" type=\"uint\"/>\n"
		"  <field name=\"D\" low=\"60\" high=\"67\" type=\"hex\"/>\n"
		"  <pattern low=\"6\" high=\"59\">000000000000000000000000000000000000000000000000000000</pattern>\n"
		"  <pattern low=\"68\" high=\"79\">101010101010</pattern>\n"
		"  <display>wide {B} {C} {D}</display>\n"
		"</bitset>\n"
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("clash.xml", xml, strlen(xml), ".", &d);
	codec *c = m ? codec_new(m, &d) : NULL;
	CHECK(c != NULL);
	if (!c) {
		spec_model_free(m);
		spec_diags_free(&d);
		return;
	}
	/* B = 0xe, C = 0x3 (bits 2-3 = 11 both ways), D = 0xa5 */
	uint64_t w[2] = {0x500000000000000eull | 0x3u << 2, 0xaaaau << 4 | 0xa};
	w[1] &= 0xffff;
	codec_value vals[8];
	codec_issue iss[4];
	codec_decoded dec = {.values = vals, .cap_values = 8, .issues = iss, .cap_issues = 4};
	CHECK(codec_decode(c, NULL, w, 0, &dec));
	uint64_t out[2] = {0};
	char err[256];
	CHECK(codec_encode(c, &dec, out, err, sizeof err));
	CHECK(out[0] == w[0] && out[1] == w[1]);
	/* C = 0: bits 2-3 must be 0, but B placed 1 there */
	for (size_t i = 0; i < dec.nvalues; i++)
		if (!strcmp(dec.values[i].field->name, "C"))
			dec.values[i].value = 0;
	CHECK(!codec_encode(c, &dec, out, err, sizeof err));
	CHECK(strstr(err, "C needs bit 2 to be 0, but it is already 1") != NULL);
	codec_free(c);
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(sub_asserts_checked_where_printed)
{
	/* the sub-leaf's assert (bit 3 is 0) is checked only where the
	 * decoder prints the field: l0 prints S, l1 does not (an assert of
	 * #sub's own would not be checked at all: s has a display, so the
	 * decoder's walk stops there) */
	const char *xml =
		"<isa>\n"
		"<bitset name=\"#sub\" size=\"4\">\n"
		"  <field name=\"NUM\" low=\"0\" high=\"2\" type=\"uint\"/>\n"
		"</bitset>\n"
		"<bitset name=\"s\" extends=\"#sub\">\n"
		"  <assert pos=\"3\">0</assert>\n"
		"  <display>r{NUM}</display>\n"
		"</bitset>\n"
		"<bitset name=\"#instruction\" size=\"16\"></bitset>\n"
		"<bitset name=\"l0\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">00</pattern>\n"
		"  <pattern low=\"4\" high=\"13\">0000000000</pattern>\n"
		"  <field name=\"S\" low=\"0\" high=\"3\" type=\"#sub\"/>\n"
		"  <display>l0 {S}</display>\n"
		"</bitset>\n"
		"<bitset name=\"l1\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">01</pattern>\n"
		"  <pattern low=\"4\" high=\"13\">0000000000</pattern>\n"
		"  <field name=\"S\" low=\"0\" high=\"3\" type=\"#sub\"/>\n"
		"  <display>l1</display>\n"
		"</bitset>\n"
		"</isa>\n";
	static const char *const expect[] = {"proved", "finding"};
	tally t = {0};
	check_spec("sub.xml", xml, &t, expect);
}

TEST(many_sub_leaves)
{
	/* a bitset field whose bitset has 300 leaves, and only the last
	 * loses words (bit 9 is read by nothing there): more ways to lose a
	 * word than the proof keeps, which must make it unsure, never
	 * "proved" */
	testlib_text b = {0};
	out(&b, "<isa>\n<bitset name=\"#sub\" size=\"10\"></bitset>\n");
	for (unsigned k = 0; k < 300; k++) {
		out(&b, "<bitset name=\"s%u\" extends=\"#sub\"><pattern low=\"0\" high=\"8\">", k);
		for (unsigned i = 9; i-- > 0;)
			out(&b, "%u", (k >> i) & 1);
		out(&b, "</pattern>%s<display>s</display></bitset>\n",
		    k < 299 ? "<pattern pos=\"9\">x</pattern>" : "");
	}
	out(&b, "<bitset name=\"#instruction\" size=\"16\"></bitset>\n"
	        "<bitset name=\"op\" extends=\"#instruction\">\n"
	        "  <pattern low=\"10\" high=\"15\">000000</pattern>\n"
	        "  <field name=\"S\" low=\"0\" high=\"9\" type=\"#sub\"/>\n"
	        "  <display>op {S}</display>\n</bitset>\n</isa>\n");
	static const char *const expect[] = {NULL};
	tally t = {0};
	check_spec("many.xml", b.p, &t, expect);
	CHECK_INT(t.proved, 0);
	free(b.p);
}

/* ------------------------------------------------------------- random */

TEST(random_roundtrips_against_brute_force)
{
	tally t = {0};
	semgen_rng r = {.state = seed_arg * 0x9e3779b97f4a7c15ull + 11};
	for (unsigned long i = 0; i < count_arg; i++) {
		semgen_text b = {0};
		semgen_rt_make(&b, &r);
		char name[32];
		snprintf(name, sizeof name, "random-%lu.xml", i);
		check_spec(name, b.s, &t, NULL);
		free(b.s);
	}
	printf("random round trips: %zu leaves: %zu proved, %zu shown to lose a word, %zu unknown "
	       "(brute force: %zu words lost)\n",
	       t.leaves, t.proved, t.findings, t.unknown, t.lost_words);
	/* every kind of verdict is met, and unknown is not the rule */
	CHECK(t.proved > 0);
	CHECK(t.findings > 0);
	CHECK(t.unknown * 5 <= t.leaves);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		seed_arg = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		count_arg = strtoul(argv[2], NULL, 0);
	RUN(each_verdict_by_hand);
	RUN(encoder_places_and_clashes);
	RUN(sub_asserts_checked_where_printed);
	RUN(many_sub_leaves);
	RUN(random_roundtrips_against_brute_force);
	return testlib_finish();
}
