/* test_cli.c - the isacheck command as a user runs it: exit codes,
 * output formats and usage errors. */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/isacheck-cli-XXXXXX";
static char clean[300], faulty[300];

TEST(version_and_usage)
{
	char out[4096], cmd[600];
	snprintf(cmd, sizeof cmd, "%s --version", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(!strncmp(out, "isacheck ", 9));
	snprintf(cmd, sizeof cmd, "%s 2>/dev/null", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s frobnicate 2>/dev/null", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s lint 2>/dev/null", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s lint --bogus %s 2>/dev/null", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s rules", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "undefined-bits") != NULL);
}

TEST(lint_exit_codes_and_text)
{
	char out[8192], cmd[900];
	snprintf(cmd, sizeof cmd, "%s lint %s", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "");
	snprintf(cmd, sizeof cmd, "%s lint %s 2>/dev/null", ISACHECK_BINARY, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	char expect[600];
	snprintf(expect, sizeof expect,
	         "%s:9:1: error: leaf 'b' leaves bits 4..7 undefined: declare them as a "
	         "pattern (0, 1 or x), a field or an assert [undefined-bits]\n", faulty);
	CHECK_STR(out, expect);
	/* The worst file decides: missing file is unusable input. */
	snprintf(cmd, sizeof cmd, "%s lint %s %s/nope.xml 2>/dev/null", ISACHECK_BINARY,
	         faulty, dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "nope.xml:0:0: error: cannot read") != NULL);
	CHECK(strstr(out, "[io]") != NULL);
	/* --ignore drops a rule; an unknown rule name is a usage error. */
	snprintf(cmd, sizeof cmd, "%s lint --ignore=undefined-bits %s", ISACHECK_BINARY, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	snprintf(cmd, sizeof cmd, "%s lint --ignore=undefined-bitz %s 2>/dev/null",
	         ISACHECK_BINARY, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
}

TEST(lint_json)
{
	char out[8192], cmd[900];
	snprintf(cmd, sizeof cmd, "%s lint --format=json %s %s", ISACHECK_BINARY, clean, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(!strncmp(out, "{\"version\":1,\"tool\":\"isacheck\",\"command\":\"lint\"", 47));
	CHECK(strstr(out, "\"rule\":\"undefined-bits\"") != NULL);
	CHECK(strstr(out, "\"line\":9,\"column\":1,\"severity\":\"error\"") != NULL);
	CHECK(strstr(out, "\"summary\":{\"errors\":1,\"warnings\":0,\"fatal\":0},\"exit_code\":1}") != NULL);
	CHECK(strstr(out, "\"stats\":{\"files\":1,\"bitsets\":3,\"roots\":1,\"leaves\":2") != NULL);
	/* When python3 is there, the whole document must parse as JSON. */
	snprintf(cmd, sizeof cmd,
	         "command -v python3 >/dev/null || exit 0; %s lint --format=json %s %s "
	         "| python3 -c 'import json,sys; json.load(sys.stdin)'",
	         ISACHECK_BINARY, clean, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
}

TEST(prove_and_check)
{
	char out[16384], cmd[900];
	/* clean: proved (0); faulty has an unaccounted leaf: findings (1) */
	snprintf(cmd, sizeof cmd, "%s prove %s", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "isacheck prove: proved: 0 overlaps") != NULL);
	CHECK(strstr(out, "coverage of root '#i' (32 bits, 1 leaves):") != NULL);
	snprintf(cmd, sizeof cmd, "%s check %s", ISACHECK_BINARY, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "[undefined-bits]") != NULL);    /* lint */
	CHECK(strstr(out, "[unaccounted-bits]") != NULL);  /* proof */
	CHECK(strstr(out, "leaf 'b' leaves bits 4..7 unaccounted for") != NULL);
	/* prove shows no lint findings, but still proves */
	snprintf(cmd, sizeof cmd, "%s prove %s", ISACHECK_BINARY, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "[undefined-bits]") == NULL);
	/* the same with every query through Z3 */
	snprintf(cmd, sizeof cmd, "%s prove --solver=z3 %s", ISACHECK_BINARY, faulty);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "(z3 engine)") != NULL);
	/* a solver that gives up is unknown (3), never proved */
	snprintf(cmd, sizeof cmd, "%s prove --solver=z3 --rlimit=1 %s", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 3);
	/* unusable input and bad usage */
	snprintf(cmd, sizeof cmd, "%s check %s/nope.xml", ISACHECK_BINARY, dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s prove --solver=magic %s 2>/dev/null", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s prove --allow=%s/none.txt %s", ISACHECK_BINARY, dir, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	/* machine formats parse (when python3 is there) */
	const char *fmts[] = {"json", "sarif", "codequality"};
	for (int i = 0; i < 3; i++) {
		snprintf(cmd, sizeof cmd,
		         "command -v python3 >/dev/null || exit 0; %s check --format=%s %s %s "
		         "| python3 -c 'import json,sys; json.load(sys.stdin)'",
		         ISACHECK_BINARY, fmts[i], clean, faulty);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	}
	/* --output writes the report to a file */
	snprintf(cmd, sizeof cmd, "%s check --format=sarif --output=%s/r.sarif %s && "
	         "grep -c '\"ruleId\"' %s/r.sarif", ISACHECK_BINARY, dir, faulty, dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1); /* check's exit: findings */
	snprintf(cmd, sizeof cmd, "grep -c '\"ruleId\": *\"unaccounted-bits\"' %s/r.sarif", dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	char rs[300];
	snprintf(rs, sizeof rs, "%s/r.sarif", dir);
	unlink(rs);
}

TEST(codec_commands)
{
	char out[8192], cmd[900];
	/* clean.xml: #i is 32 bits: top 24 bits 0, A in 0..7 */
	snprintf(cmd, sizeof cmd, "%s disasm %s --hex 00000005", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "#i 5\n");
	snprintf(cmd, sizeof cmd, "%s disasm %s --hex 80000005", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK_STR(out, "no match: 80000005\n");
	snprintf(cmd, sizeof cmd, "%s decode %s --hex 00000007", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "\"leaf\":\"#i\"") && strstr(out, "\"name\":\"A\""));
	snprintf(cmd, sizeof cmd, "printf '#i 9\\n' | %s asm %s -", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "00000009\n");
	snprintf(cmd, sizeof cmd, "printf 'bogus\\n' | %s asm %s - 2>/dev/null", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	/* garbage: bad hex, odd-length binary, unknown generation */
	snprintf(cmd, sizeof cmd, "%s disasm %s --hex 12zz 2>/dev/null", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "printf 'abc' > %s/odd.bin; %s disasm %s %s/odd.bin 2>/dev/null",
	         dir, ISACHECK_BINARY, clean, dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "rm -f %s/odd.bin; %s disasm %s --gen=x --hex 0 2>/dev/null", dir,
	         ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	/* a valued option's value may also be the next argument, as in git */
	snprintf(cmd, sizeof cmd, "%s disasm %s --root '#i' --no-match mesa --hex 00000005",
	         ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "#i 5\n");
	snprintf(cmd, sizeof cmd, "%s disasm %s --gen x --hex 0 2>/dev/null", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "%s disasm %s --hex 00000005 --root 2>&1", ISACHECK_BINARY, clean);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK_STR(out, "isacheck disasm: option '--root' needs a value (--root=VALUE or --root VALUE)\n");
}

/* disasm --root of a root other than the default: one line an
 * instruction of that root's size (in 32-bit words), its no-match text
 * Mesa's isa_disasm's; --labels counts the default root's instructions,
 * so it is refused there. */
TEST(disasm_other_root)
{
	char out[8192], cmd[900], spec[300];
	snprintf(spec, sizeof spec, "%s/roots.xml", dir);
	testlib_write_file(spec, "<isa>\n<bitset name=\"#s\" size=\"16\">\n"
	                   "  <pattern low=\"12\" high=\"15\">0101</pattern>\n"
	                   "  <field name=\"B\" low=\"0\" high=\"11\" type=\"hex\"/>\n"
	                   "  <display>s 0x{B}</display>\n</bitset>\n"
	                   "<bitset name=\"#instruction\" size=\"32\">\n"
	                   "  <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n"
	                   "  <display>i {A}</display>\n</bitset>\n</isa>\n");
	snprintf(cmd, sizeof cmd, "%s disasm %s --root=#s --hex 00005abc 00001234", ISACHECK_BINARY,
	         spec);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK_STR(out, "s 0xabc\nno match: 00001234\n");
	snprintf(cmd, sizeof cmd, "%s disasm %s --root '#s' --hex 0000500f", ISACHECK_BINARY, spec);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "s 0xf\n");
	snprintf(cmd, sizeof cmd, "%s disasm %s --hex 0000500f", ISACHECK_BINARY, spec);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "i 20495\n");
	snprintf(cmd, sizeof cmd, "%s disasm %s --root=#s --labels --hex 0000500f 2>&1",
	         ISACHECK_BINARY, spec);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "--labels needs the default root (#instruction)") != NULL);
	unlink(spec);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(clean, sizeof clean, "%s/clean.xml", dir);
	snprintf(faulty, sizeof faulty, "%s/faulty.xml", dir);
	testlib_write_file(clean, "<isa>\n<bitset name=\"#i\" size=\"32\">\n"
	                  "  <pattern low=\"8\" high=\"31\">000000000000000000000000</pattern>\n"
	                  "  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
	                  "  <display>{NAME} {A}</display>\n</bitset>\n</isa>\n");
	testlib_write_file(faulty, "<isa>\n<bitset name=\"#i\" size=\"32\">\n"
	                   "  <pattern low=\"8\" high=\"31\">000000000000000000000000</pattern>\n"
	                   "</bitset>\n<bitset name=\"a\" extends=\"#i\">\n"
	                   "  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
	                   "  <display>{NAME} {A}</display>\n</bitset>\n"
	                   "<bitset name=\"b\" extends=\"#i\">\n"
	                   "  <field name=\"A\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
	                   "  <display>{NAME} {A}</display>\n</bitset>\n</isa>\n");
	RUN(version_and_usage);
	RUN(lint_exit_codes_and_text);
	RUN(lint_json);
	RUN(prove_and_check);
	RUN(codec_commands);
	RUN(disasm_other_root);
	unlink(clean);
	unlink(faulty);
	rmdir(dir);
	return testlib_finish();
}
