/*
 * test_invert.c - the invertibility analysis (src/codec/invert.c) on
 * small specs, each built to show one reason or one way a display is
 * proven invertible, with the exact verdict and reason expected.
 */
#include "codec.h"
#include "spec.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

/* The verdict for leaf name of a spec made of body inside an <isa>. */
static bool verdict(const char *body, const char *name, char *why, size_t len)
{
	char xml[8192];
	snprintf(xml, sizeof xml, "<isa>\n%s\n</isa>\n", body);
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("t.xml", xml, strlen(xml), ".", &d);
	for (size_t i = 0; i < d.count; i++)
		if (d.items[i].severity == SPEC_FATAL)
			fprintf(stderr, "unexpected: %s\n", d.items[i].message);
	spec_diags_free(&d);
	CHECK(m != NULL);
	codec *c = m ? codec_new(m, &d) : NULL;
	spec_diags_free(&d);
	const spec_bitset *b = m ? spec_find_bitset(m, name) : NULL;
	CHECK(b != NULL);
	bool ok = c && b && codec_display_invertible(c, b, why, len);
	codec_free(c);
	spec_model_free(m);
	return ok;
}

#define ROOT "<bitset name=\"#i\" size=\"16\"><display>{NAME}</display></bitset>\n"

TEST(numbers_and_patterns_invert)
{
	char why[256];
	CHECK(verdict(ROOT "<bitset name=\"add\" extends=\"#i\"><display>add r{A}, r{B}</display>"
	              "<pattern low=\"0\" high=\"7\">00000001</pattern>"
	              "<field name=\"A\" low=\"8\" high=\"11\" type=\"uint\"/>"
	              "<field name=\"B\" low=\"12\" high=\"15\" type=\"uint\"/></bitset>",
	              "add", why, sizeof why));
}

TEST(unprinted_bit)
{
	char why[256];
	CHECK(!verdict(ROOT "<bitset name=\"add\" extends=\"#i\"><display>add r{A}</display>"
	               "<pattern low=\"0\" high=\"7\">00000001</pattern>"
	               "<field name=\"A\" low=\"8\" high=\"11\" type=\"uint\"/>"
	               "<field name=\"B\" low=\"12\" high=\"15\" type=\"uint\"/></bitset>",
	               "add", why, sizeof why));
	CHECK_STR(why, "bit 12 (B) is not determined by the text of the display at line 3");
}

TEST(adjacent_numbers)
{
	char why[256];
	CHECK(!verdict(ROOT "<bitset name=\"add\" extends=\"#i\"><display>add {A}{B}</display>"
	               "<pattern low=\"0\" high=\"7\">00000001</pattern>"
	               "<field name=\"A\" low=\"8\" high=\"11\" type=\"uint\"/>"
	               "<field name=\"B\" low=\"12\" high=\"15\" type=\"uint\"/></bitset>",
	               "add", why, sizeof why));
	CHECK_STR(why, "A and B are printed next to each other with nothing between them");
}

/* Conservative: one digit each cannot run together, but the static check
 * does not count digits; `lint --displays` asks Z3, which proves it
 * (test_cli, lint_displays_exact). */
TEST(adjacent_single_digits)
{
	char why[256];
	CHECK(!verdict(ROOT "<bitset name=\"add\" extends=\"#i\"><display>add {A}{B}</display>"
	               "<pattern low=\"0\" high=\"7\">00000001</pattern>"
	               "<field name=\"A\" low=\"8\" high=\"9\" type=\"uint\"/>"
	               "<field name=\"B\" low=\"10\" high=\"10\" type=\"uint\"/>"
	               "<pattern low=\"11\" high=\"15\">xxxxx</pattern></bitset>",
	               "add", why, sizeof why));
	CHECK_STR(why, "A and B are printed next to each other with nothing between them");
}

TEST(enum_prints_two_values_alike)
{
	char why[256];
	CHECK(!verdict("<enum name=\"#grp\"><value val=\"0\" display=\"t\"/><value val=\"1\" display=\"u\"/>"
	               "<value val=\"2\" display=\"u\"/><value val=\"3\" display=\"c\"/></enum>\n" ROOT
	               "<bitset name=\"mov\" extends=\"#i\"><display>mov {G}{A}</display>"
	               "<pattern low=\"0\" high=\"9\">0000000001</pattern>"
	               "<field name=\"G\" low=\"10\" high=\"11\" type=\"#grp\"/>"
	               "<field name=\"A\" low=\"12\" high=\"15\" type=\"uint\"/></bitset>",
	               "mov", why, sizeof why));
	CHECK_STR(why, "G: enum #grp prints \"u\" for both 1 and 2");
}

/* A derived value made of two fields tells them apart: both determined. */
TEST(injective_derived_value)
{
	char why[256];
	CHECK(verdict(ROOT "<bitset name=\"ld\" extends=\"#i\"><display>ld {OFF}</display>"
	              "<pattern low=\"0\" high=\"7\">00000010</pattern>"
	              "<field name=\"LO\" low=\"8\" high=\"11\" type=\"uint\"/>"
	              "<field name=\"HI\" low=\"12\" high=\"15\" type=\"uint\"/>"
	              "<derived name=\"OFF\" type=\"uint\"><expr>{HI} &lt;&lt; 4 | {LO}</expr></derived>"
	              "</bitset>", "ld", why, sizeof why));
	/* ... but a sum does not. */
	CHECK(!verdict(ROOT "<bitset name=\"ld\" extends=\"#i\"><display>ld {OFF}</display>"
	               "<pattern low=\"0\" high=\"7\">00000010</pattern>"
	               "<field name=\"LO\" low=\"8\" high=\"11\" type=\"uint\"/>"
	               "<field name=\"HI\" low=\"12\" high=\"15\" type=\"uint\"/>"
	               "<derived name=\"OFF\" type=\"uint\"><expr>{HI} + {LO}</expr></derived>"
	               "</bitset>", "ld", why, sizeof why));
	CHECK_STR(why, "bit 8 (LO) is not determined by the text of the display at line 3");
}

/* An override whose expression fixes a field determines it; the default
 * display prints it.  Both displays must invert. */
TEST(override_fixes_its_input)
{
	char why[256];
	CHECK(verdict(ROOT "<bitset name=\"br\" extends=\"#i\">"
	              "<override><expr>{R} == 0</expr><display>br {T}</display></override>"
	              "<display>br{R} {T}</display>"
	              "<pattern low=\"0\" high=\"7\">00000011</pattern>"
	              "<field name=\"R\" low=\"8\" high=\"9\" type=\"uint\"/>"
	              "<field name=\"T\" low=\"10\" high=\"15\" type=\"uint\"/></bitset>",
	              "br", why, sizeof why));
	/* An override that holds for two values of R does not fix it. */
	CHECK(!verdict(ROOT "<bitset name=\"br\" extends=\"#i\">"
	               "<override><expr>{R} &lt; 2</expr><display>br {T}</display></override>"
	               "<display>br{R} {T}</display>"
	               "<pattern low=\"0\" high=\"7\">00000011</pattern>"
	               "<field name=\"R\" low=\"8\" high=\"9\" type=\"uint\"/>"
	               "<field name=\"T\" low=\"10\" high=\"15\" type=\"uint\"/></bitset>",
	               "br", why, sizeof why));
	CHECK_STR(why, "bit 8 (R) is not determined by the text of the display at line 3");
}

/* A sub-bitset printing a param determines the enclosing field. */
TEST(param_printed_by_sub_bitset)
{
	char why[256];
	const char *sub = "<bitset name=\"#src\" size=\"4\"><display>{NEG}r{REG}</display>"
	                  "<field name=\"REG\" low=\"0\" high=\"3\" type=\"uint\"/></bitset>\n";
	char body[4096];
	snprintf(body, sizeof body, "%s" ROOT
	         "<bitset name=\"neg\" extends=\"#i\"><display>neg {SRC}</display>"
	         "<pattern low=\"0\" high=\"10\">00000000100</pattern>"
	         "<field name=\"N\" pos=\"11\" type=\"bool\"/>"
	         "<field name=\"SRC\" low=\"12\" high=\"15\" type=\"#src\"><param name=\"N\" as=\"NEG\"/></field>"
	         "</bitset>", sub);
	/* NEG is printed as a bool without display: "0" or "1". */
	bool ok = verdict(body, "neg", why, sizeof why);
	if (!ok)
		fprintf(stderr, "why: %s\n", why);
	CHECK(ok);
}

/* Mesa's files: how many leaves the analysis flags (docs/codec.md). */
static size_t flagged(const char *rel)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", rel);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	spec_diags_free(&d);
	codec *c = m ? codec_new(m, &d) : NULL;
	size_t n = c ? codec_lint_displays(c, &d) : (size_t)-1;
	for (size_t i = 0; i < d.count; i++)
		CHECK_STR(d.items[i].rule, "display-not-invertible");
	spec_diags_free(&d);
	codec_free(c);
	spec_model_free(m);
	return n;
}

TEST(mesa_files)
{
	CHECK_INT(flagged("freedreno/isa/ir3.xml"), 228);
	CHECK_INT(flagged("etnaviv/isa/etnaviv.xml"), 84);
	CHECK_INT(flagged("freedreno/afuc/afuc.xml"), 0);
}

int main(void)
{
	RUN(numbers_and_patterns_invert);
	RUN(unprinted_bit);
	RUN(adjacent_numbers);
	RUN(adjacent_single_digits);
	RUN(enum_prints_two_values_alike);
	RUN(injective_derived_value);
	RUN(override_fixes_its_input);
	RUN(param_printed_by_sub_bitset);
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/afuc/afuc.xml");
	if (testlib_have_shared(probe))
		RUN(mesa_files);
	return testlib_finish();
}
