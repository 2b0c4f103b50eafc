/* test_report_formats.c - the JSON, SARIF and GitLab Code Quality writers
 * of `isacheck prove` / `check`, on a report built by hand: a tiny spec,
 * a proof result filled in field by field, lint and allowlist problems,
 * and an unusable file whose path is not even UTF-8. */
#include "testlib.h"

#include "cli.h"
#include "report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ISACHECK_SOURCE_DIR
#define ISACHECK_SOURCE_DIR "."
#endif

/* Lines: #instruction 3, ldl 6, ldib.b 11, stl 15 (one more each with a
 * prefix line). */
static const char spec_head[] = "<isa>\n";
static const char spec_body[] =
	"<!-- report writer test -->\n"                                          /* 2 */
	"<bitset name=\"#instruction\" size=\"64\">\n"                          /* 3 */
	"  <display>{NAME} {SRC}</display>\n"
	"</bitset>\n"
	"<bitset name=\"ldl\" extends=\"#instruction\">\n"                      /* 6 */
	"  <pattern low=\"32\" high=\"63\">11000000011000000000000000000000</pattern>\n"
	"  <field name=\"SRC\" low=\"0\" high=\"31\" type=\"hex\"/>\n"
	"  <gen min=\"600\"/>\n"
	"</bitset>\n"
	"<bitset name=\"ldib.b\" extends=\"#instruction\">\n"                   /* 11 */
	"  <pattern low=\"32\" high=\"63\">1100000001100000000000000000000x</pattern>\n"
	"  <field name=\"SRC\" low=\"0\" high=\"31\" type=\"hex\"/>\n"
	"</bitset>\n"
	"<bitset name=\"stl\" extends=\"#instruction\">\n"                      /* 15 */
	"  <pattern low=\"32\" high=\"63\">11000000011000000000000000000xx1</pattern>\n"
	"  <field name=\"SRC\" low=\"0\" high=\"31\" type=\"hex\"/>\n"
	"  <gen min=\"500\" max=\"700\"/>\n"
	"</bitset>\n"
	"</isa>\n";

/* Not UTF-8 (0xff), with a space: JSON must stay valid, URIs encoded. */
#define BAD_PATH "/tmp/my specs/b\xff" "ad.xml"

/* Everything one report points to; filled in place, never moved. */
typedef struct fixture {
	spec_model *m;
	spec_diags lint, fatal, allow_diags;
	prove_allow allow_items[2];
	prove_allowlist allow;
	const prove_allow *stale[1];
	uint64_t witness0[1], witness1[1], unacc[1], doubly[1], fixed[1], value[1];
	prove_overlap overlaps[3];
	prove_accounting acc[1];
	prove_cube hole;
	prove_interval iv[2];
	prove_result res;
	report_file files[2];
	report r;
} fixture;

static const spec_bitset *leaf(const spec_model *m, const char *name)
{
	const spec_bitset *b = spec_find_bitset(m, name);
	CHECK(b != NULL);
	return b;
}

/* prefix_lines extra lines before the body move every location down. */
static bool fixture_init(fixture *fx, int prefix_lines)
{
	memset(fx, 0, sizeof *fx);
	char text[4096];
	snprintf(text, sizeof text, "%s%s%s", spec_head, prefix_lines ? "\n" : "", spec_body);
	spec_diags load = {0};
	fx->m = spec_load_buffer("t.xml", text, strlen(text), ".", &load);
	CHECK(fx->m != NULL);
	CHECK_INT(load.count, 0);
	for (size_t i = 0; i < load.count; i++)
		print_diag_text(stderr, &load.items[i]);
	spec_diags_free(&load);
	if (!fx->m)
		return false;
	const spec_bitset *ldl = leaf(fx->m, "ldl"), *ldib = leaf(fx->m, "ldib.b"),
	                  *stl = leaf(fx->m, "stl");
	if (!ldl || !ldib || !stl)
		return false;
	const spec_root *root = &fx->m->roots[0];

	/* Lint: a warning with characters JSON must escape, and its twin on
	 * another line (same fingerprint key: they must still differ). */
	spec_diag_add(&fx->lint, SPEC_WARNING, "enum-value-range", (spec_loc){"t.xml", 7, 3},
	              "value \"4\"\tdoesn't fit\x01");
	spec_diag_add(&fx->lint, SPEC_WARNING, "enum-value-range", (spec_loc){"t.xml", 8, 3},
	              "value \"4\"\tdoesn't fit\x01");
	spec_diag_add(&fx->fatal, SPEC_FATAL, "io", (spec_loc){BAD_PATH, 0, 0},
	              "cannot read '%s': No such file or directory", BAD_PATH);
	spec_diag_add(&fx->allow_diags, SPEC_ERROR, "allowlist-syntax",
	              (spec_loc){"allow.txt", 4, 1}, "expected two leaf names");

	fx->allow_items[0] = (prove_allow){"stl", "ldib.b", "#instruction", {0, UINT32_MAX},
	                                   "decoded by \"gen\"", {"allow.txt", 2, 1}};
	fx->allow_items[1] = (prove_allow){"ldl", "gone", NULL, {0, 599}, NULL,
	                                   {"allow.txt", 3, 1}};
	fx->allow = (prove_allowlist){fx->allow_items, 2, NULL};
	fx->stale[0] = &fx->allow_items[1];

	fx->witness0[0] = 0xc060000000e18001u;
	fx->witness1[0] = 0xc060000100000000u;
	fx->overlaps[0] = (prove_overlap){root, ldl, ldib, {600, UINT32_MAX}, fx->witness0,
	                                  NULL, false};
	fx->overlaps[1] = (prove_overlap){root, ldib, stl, {500, 700}, fx->witness1,
	                                  &fx->allow_items[0], false};
	fx->overlaps[2] = (prove_overlap){root, ldl, stl, {600, 700}, NULL, NULL, true};

	fx->unacc[0] = 0x8f;        /* bits 0..3, 7 */
	fx->doubly[0] = 1ull << 40; /* bit 40 */
	fx->acc[0] = (prove_accounting){ldl, fx->unacc, fx->doubly, false};

	fx->fixed[0] = 0xffff000000000000u;
	fx->value[0] = 0x1234000000000000u;
	fx->hole = (prove_cube){fx->fixed, fx->value, 48};
	fx->iv[0] = (prove_interval){.root = root, .gen = {701, UINT32_MAX}, .live_leaves = 2,
	                             .fraction = 0.5, .holes = &fx->hole, .nholes = 1,
	                             .holes_exact = true};
	fx->iv[0].undecoded.w[0] = (1ull << 63) + 5;
	fx->iv[1] = (prove_interval){.root = root, .gen = {0, 499}, .live_leaves = 1,
	                             .unknown = true};

	fx->res = (prove_result){.overlaps = fx->overlaps, .noverlaps = 3,
	                         .accounting = fx->acc, .naccounting = 1,
	                         .intervals = fx->iv, .nintervals = 2,
	                         .stale = fx->stale, .nstale = 1, .any_unknown = true};
	fx->files[0] = (report_file){"t.xml", fx->m, &fx->lint, &fx->res, NULL};
	fx->files[1] = (report_file){BAD_PATH, NULL, &fx->fatal, NULL, NULL};
	fx->r = (report){.command = "check", .files = fx->files, .nfiles = 2,
	                 .allow = &fx->allow, .allow_path = "allow.txt",
	                 .allow_diags = &fx->allow_diags, .engine = PROVE_ENGINE_CUBE,
	                 .exit_code = 2};
	return true;
}

static void fixture_free(fixture *fx)
{
	spec_model_free(fx->m);
	spec_diags_free(&fx->lint);
	spec_diags_free(&fx->fatal);
	spec_diags_free(&fx->allow_diags);
}

/* What a writer prints, as one string (caller frees). */
static char *capture(void (*writer)(FILE *, const report *), const report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return NULL;
	writer(f, r);
	fclose(f);
	return buf;
}

/* FNV-1a 64 of the parts, each closed by a NUL: the documented key. */
static void fingerprint(char out[17], const char *const *parts, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < n; i++) {
		for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++)
			h = (h ^ *p) * 0x100000001b3u;
		h *= 0x100000001b3u;
	}
	snprintf(out, 17, "%016" PRIx64, h);
}

static size_t count_of(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The values of every `"key":"..."` in order, joined by spaces. */
static void values_of(const char *s, const char *key, char *out, size_t len)
{
	size_t used = 0, kl = strlen(key);
	out[0] = 0;
	for (const char *p = s; p && (p = strstr(p, key)); p += kl) {
		const char *v = p + kl, *end = strchr(v, '"');
		if (!end)
			break;
		used += (size_t)snprintf(out + used, len - used, "%.*s ", (int)(end - v), v);
		if (used >= len)
			break;
	}
}

/* Whether every space-separated word of list is different. */
static bool all_distinct(const char *list)
{
	char copy[4096], *words[256];
	size_t n = 0;
	snprintf(copy, sizeof copy, "%s", list);
	for (char *save = NULL, *t = strtok_r(copy, " ", &save); t && n < 256;
	     t = strtok_r(NULL, " ", &save))
		words[n++] = t;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(words[i], words[j]))
				return false;
	return n > 0;
}

TEST(json_content)
{
	fixture fx;
	if (!fixture_init(&fx, 0)) {
		fixture_free(&fx);
		return;
	}
	char *out = capture(report_write_json, &fx.r);
	CHECK(out != NULL);
	if (!out) {
		fixture_free(&fx);
		return;
	}
	static const char head[] = "{\"version\":1,\"tool\":\"isacheck\",\"command\":"
	                           "\"check\",\"engine\":\"cube\",\"files\":[\n{\"path\":";
	CHECK(!strncmp(out, head, strlen(head)));

	char fp[17], expect[2048];
	fingerprint(fp, (const char *[]){"overlap", "#instruction", "ldib.b", "ldl"}, 4);
	snprintf(expect, sizeof expect,
	         "{\"kind\":\"overlap\",\"rule\":\"overlap\",\"severity\":\"error\",\"message\":"
	         "\"leaves 'ldl' and 'ldib.b' of root '#instruction' both match "
	         "c0600000_00e18001 at gen 600..max\",\"file\":\"t.xml\",\"line\":6,\"column\":1,"
	         "\"related\":[{\"file\":\"t.xml\",\"line\":11,\"column\":1}],"
	         "\"fingerprint\":\"%s\",\"root\":\"#instruction\",\"leaves\":["
	         "{\"name\":\"ldl\",\"gen\":{\"min\":600,\"max\":4294967295}},"
	         "{\"name\":\"ldib.b\",\"gen\":{\"min\":0,\"max\":4294967295}}],"
	         "\"gen\":{\"min\":600,\"max\":4294967295},\"witness\":\"c0600000_00e18001\","
	         "\"accepted\":false}", fp);
	CHECK(strstr(out, expect) != NULL);

	/* The accepted one names its allowlist entry; the undecided one is a
	 * warning of rule unknown, without witness. */
	CHECK(strstr(out, "\"accepted\":true,\"allowlist\":{\"file\":\"allow.txt\",\"line\":2,"
	                  "\"column\":1,\"reason\":\"decoded by \\\"gen\\\"\"}}") != NULL);
	CHECK(strstr(out, "\"rule\":\"unknown\",\"severity\":\"warning\",\"message\":\"the solver "
	                  "could not decide whether leaves 'ldl' and 'stl' of root '#instruction' "
	                  "overlap at gen 600..700\"") != NULL);
	CHECK(strstr(out, "\"witness\":null,\"accepted\":false") != NULL);

	/* Accounting: one finding per kind, ranges and counts. */
	CHECK(strstr(out, "\"message\":\"leaf 'ldl' leaves bits 0..3, 7 unaccounted: no pattern, "
	                  "field or assert of it or its ancestors claims them\"") != NULL);
	CHECK(strstr(out, "\"bits\":\"0..3, 7\",\"count\":5}") != NULL);
	CHECK(strstr(out, "\"rule\":\"doubly-claimed-bits\"") != NULL);
	CHECK(strstr(out, "\"message\":\"leaf 'ldl' claims bit 40 more than once") != NULL);
	CHECK(strstr(out, "\"bits\":\"40\",\"count\":1}") != NULL);

	/* Stale entry, at its own line. */
	CHECK(strstr(out, "{\"kind\":\"stale\",\"rule\":\"allowlist-stale\",\"severity\":\"error\","
	                  "\"message\":\"allowlist entry for 'ldl' and 'gone' (gen 0..599) accepts "
	                  "no overlap: remove it\",\"file\":\"allow.txt\",\"line\":3,"
	                  "\"column\":1,") != NULL);
	CHECK(strstr(out, "\"entry\":{\"a\":\"ldl\",\"b\":\"gone\",\"root\":null,"
	                  "\"gen\":{\"min\":0,\"max\":599},\"reason\":null}}") != NULL);

	/* Coverage: the count as a decimal string, holes as patterns. */
	CHECK(strstr(out, "{\"root\":\"#instruction\",\"size\":64,\"gen\":{\"min\":701,"
	                  "\"max\":4294967295},\"live_leaves\":2,\"undecoded\":\"9223372036854775813\","
	                  "\"fraction\":0.5,\"unknown\":false,\"limit\":false,\"budget\":false,"
	                  "\"holes_exact\":true,\"holes\":[{\"pattern\":"
	                  "\"0001001000110100xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\","
	                  "\"free_bits\":48}]}") != NULL);
	CHECK(strstr(out, "\"kind\":\"coverage\",\"rule\":\"unknown\"") != NULL);

	/* Lint diagnostics as `lint --format=json` prints them, escaped. */
	CHECK(strstr(out, "{\"file\":\"t.xml\",\"line\":7,\"column\":3,\"severity\":\"warning\","
	                  "\"rule\":\"enum-value-range\",\"message\":\"value \\\"4\\\"\\tdoesn't "
	                  "fit\\u0001\"}") != NULL);
	/* The unusable file: not loaded, its path made UTF-8. */
	CHECK(strstr(out, "{\"path\":\"/tmp/my specs/b\xef\xbf\xbd" "ad.xml\",\"loaded\":false,"
	                  "\"diagnostics\":[") != NULL);
	CHECK(strstr(out, "\"findings\":[],\"coverage\":[]}") != NULL);
	CHECK(strstr(out, ",\"allowlist\":{\"path\":\"allow.txt\",\"entries\":2,\"diagnostics\":[\n"
	                  "  {\"file\":\"allow.txt\",\"line\":4,\"column\":1,\"severity\":\"error\","
	                  "\"rule\":\"allowlist-syntax\"") != NULL);
	CHECK(strstr(out, ",\"summary\":{\"overlaps\":1,\"accepted\":1,\"unaccounted\":1,"
	                  "\"doubly\":1,\"stale\":1,\"unknown\":2,\"lint_errors\":1,"
	                  "\"lint_warnings\":2,\"allowlist_problems\":1},\"exit_code\":2}\n") != NULL);
	free(out);
	fixture_free(&fx);
}

TEST(sarif_content)
{
	fixture fx;
	if (!fixture_init(&fx, 0)) {
		fixture_free(&fx);
		return;
	}
	char *out = capture(report_write_sarif, &fx.r);
	CHECK(out != NULL);
	if (!out) {
		fixture_free(&fx);
		return;
	}
	CHECK(strstr(out, "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
	                  "\"isacheck\",\"version\":\"" ISACHECK_VERSION "\",\"rules\":[") != NULL);
	CHECK(strstr(out, "informationUri") == NULL);
	/* Rules in order of first use, lint rules described by spec_rules(). */
	char expect[1024];
	snprintf(expect, sizeof expect, "{\"id\":\"enum-value-range\",\"shortDescription\":"
	         "{\"text\":\"%s\"},\"defaultConfiguration\":{\"level\":\"warning\"}}",
	         spec_rule_find("enum-value-range")->summary);
	CHECK(strstr(out, expect) != NULL);
	CHECK(strstr(out, "{\"id\":\"overlap\",\"shortDescription\"") != NULL);
	CHECK(strstr(out, "{\"id\":\"allowlist-syntax\",\"shortDescription\"") != NULL);
	CHECK_INT(count_of(out, "\"shortDescription\""), 8);
	CHECK_INT(count_of(out, "{\"ruleId\":"), 11);

	char fp[17];
	fingerprint(fp, (const char *[]){"overlap", "#instruction", "ldib.b", "ldl"}, 4);
	snprintf(expect, sizeof expect,
	         "{\"ruleId\":\"overlap\",\"ruleIndex\":1,\"level\":\"error\",\"message\":{\"text\":"
	         "\"leaves 'ldl' and 'ldib.b' of root '#instruction' both match c0600000_00e18001 "
	         "at gen 600..max\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
	         "{\"uri\":\"t.xml\",\"uriBaseId\":\"%%SRCROOT%%\"},\"region\":{\"startLine\":6,"
	         "\"startColumn\":1}}}],\"relatedLocations\":[{\"id\":1,\"message\":{\"text\":"
	         "\"leaf 'ldib.b'\"},\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"t.xml\","
	         "\"uriBaseId\":\"%%SRCROOT%%\"},\"region\":{\"startLine\":11,\"startColumn\":1}}}],"
	         "\"partialFingerprints\":{\"isacheck/v1\":\"%s\"},\"properties\":{\"root\":"
	         "\"#instruction\",\"gen\":{\"min\":600,\"max\":4294967295},\"witness\":"
	         "\"c0600000_00e18001\",\"leaves\":[", fp);
	CHECK(strstr(out, expect) != NULL);
	/* Accepted: a note with an external suppression. */
	CHECK(strstr(out, "\"level\":\"note\",\"message\":{\"text\":\"leaves 'ldib.b' and 'stl'") != NULL);
	CHECK(strstr(out, "\"suppressions\":[{\"kind\":\"external\",\"justification\":"
	                  "\"decoded by \\\"gen\\\"\",\"location\":{\"physicalLocation\":"
	                  "{\"artifactLocation\":{\"uri\":\"allow.txt\"") != NULL);
	CHECK_INT(count_of(out, "\"suppressions\""), 1);
	/* An absolute path is a file URI, percent-encoded, and line 0 has no region. */
	CHECK(strstr(out, "{\"uri\":\"file:///tmp/my%20specs/b%FFad.xml\"}}}]") != NULL);
	/* Accounting and lint keys as documented. */
	fingerprint(fp, (const char *[]){"unaccounted-bits", "ldl"}, 2);
	snprintf(expect, sizeof expect, "\"isacheck/v1\":\"%s\"", fp);
	CHECK(strstr(out, expect) != NULL);
	fingerprint(fp, (const char *[]){"enum-value-range", "t.xml",
	                                 "value \"4\"\tdoesn't fit\x01"}, 3);
	snprintf(expect, sizeof expect, "\"isacheck/v1\":\"%s\"", fp);
	CHECK(strstr(out, expect) != NULL);
	CHECK(strstr(out, "\"invocations\":[{\"executionSuccessful\":false,\"exitCode\":2}]") != NULL);

	char fps[4096];
	values_of(out, "\"isacheck/v1\":\"", fps, sizeof fps);
	CHECK(all_distinct(fps));
	free(out);
	fixture_free(&fx);
}

/* Fingerprints must not change when lines move. */
TEST(fingerprints_survive_line_moves)
{
	fixture a, b;
	bool ok = fixture_init(&a, 0);
	ok = fixture_init(&b, 1) && ok; /* both initialised, so both can be freed */
	char *sa = ok ? capture(report_write_sarif, &a.r) : NULL;
	char *sb = ok ? capture(report_write_sarif, &b.r) : NULL;
	if (sa && sb) {
		char fa[4096], fb[4096];
		values_of(sa, "\"isacheck/v1\":\"", fa, sizeof fa);
		values_of(sb, "\"isacheck/v1\":\"", fb, sizeof fb);
		CHECK_INT(count_of(fa, " "), 11);
		CHECK_STR(fa, fb);
		CHECK(strstr(sa, "\"startLine\":6,") != NULL);
		CHECK(strstr(sb, "\"startLine\":7,") != NULL);
		CHECK(strstr(sb, "\"startLine\":6,") == NULL);
	}
	free(sa);
	free(sb);
	fixture_free(&a);
	fixture_free(&b);
}

TEST(codequality_content)
{
	fixture fx;
	if (!fixture_init(&fx, 0)) {
		fixture_free(&fx);
		return;
	}
	char *out = capture(report_write_codequality, &fx.r);
	CHECK(out != NULL);
	if (!out) {
		fixture_free(&fx);
		return;
	}
	CHECK(out[0] == '[');
	CHECK_INT(count_of(out, "\"check_name\""), 10); /* all but the accepted overlap */
	CHECK(strstr(out, "'ldib.b' and 'stl'") == NULL);
	char fp[17], expect[1024];
	fingerprint(fp, (const char *[]){"overlap", "#instruction", "ldib.b", "ldl"}, 4);
	snprintf(expect, sizeof expect,
	         "{\"description\":\"leaves 'ldl' and 'ldib.b' of root '#instruction' both match "
	         "c0600000_00e18001 at gen 600..max\",\"check_name\":\"overlap\",\"fingerprint\":"
	         "\"%s\",\"severity\":\"major\",\"location\":{\"path\":\"t.xml\",\"lines\":"
	         "{\"begin\":6}}}", fp);
	CHECK(strstr(out, expect) != NULL);
	CHECK(strstr(out, "\"check_name\":\"enum-value-range\",\"fingerprint\":") != NULL);
	CHECK_INT(count_of(out, "\"severity\":\"minor\""), 4); /* 2 lint, 2 unknown */
	CHECK(strstr(out, "\"check_name\":\"io\"") != NULL);
	CHECK(strstr(out, "\"lines\":{\"begin\":1}}}") != NULL); /* the line-0 io error */
	char fps[4096];
	values_of(out, "\"fingerprint\":\"", fps, sizeof fps);
	CHECK(all_distinct(fps));
	free(out);
	fixture_free(&fx);
}

TEST(empty_report)
{
	report r = {.command = "prove", .engine = PROVE_ENGINE_Z3};
	char *out = capture(report_write_json, &r);
	CHECK_STR(out, "{\"version\":1,\"tool\":\"isacheck\",\"command\":\"prove\",\"engine\":\"z3\","
	               "\"files\":[\n],\"summary\":{\"overlaps\":0,\"accepted\":0,\"unaccounted\":0,"
	               "\"doubly\":0,\"stale\":0,\"unknown\":0,\"lint_errors\":0,\"lint_warnings\":0,"
	               "\"allowlist_problems\":0},\"exit_code\":0}\n");
	free(out);
	out = capture(report_write_codequality, &r);
	CHECK_STR(out, "[]\n");
	free(out);
	out = capture(report_write_sarif, &r);
	CHECK(out && strstr(out, "\"rules\":[]}},") && strstr(out, "\"results\":[\n]}]}\n"));
	free(out);
}

/* Writes text to a fresh temporary file; path receives its name. */
static bool temp_file(char path[64], const char *text)
{
	snprintf(path, 64, "/tmp/isacheck-report-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	size_t len = strlen(text);
	bool ok = write(fd, text, len) == (ssize_t)len;
	return close(fd) == 0 && ok;
}

/* Python's strict parser (UTF-8 checked), SARIF's rule indices, and the
 * JSON schema when the jsonschema module is there. */
static const char validator[] =
	"import json, sys\n"
	"kind, path = sys.argv[1], sys.argv[2]\n"
	"doc = json.load(open(path, encoding='utf-8'))\n"
	"if kind == 'sarif':\n"
	"    run = doc['runs'][0]\n"
	"    ids = [r['id'] for r in run['tool']['driver']['rules']]\n"
	"    assert len(ids) == len(set(ids)), ids\n"
	"    for res in run['results']:\n"
	"        assert ids[res['ruleIndex']] == res['ruleId'], res\n"
	"        assert res['level'] in ('error', 'warning', 'note')\n"
	"elif kind == 'codequality':\n"
	"    for i in doc:\n"
	"        assert set(i) == {'description', 'check_name', 'fingerprint', 'severity', 'location'}\n"
	"        assert i['location']['lines']['begin'] >= 1\n"
	"elif kind == 'json':\n"
	"    try:\n"
	"        import jsonschema\n"
	"    except ImportError:\n"
	"        print('jsonschema not installed: schema not checked')\n"
	"        sys.exit(0)\n"
	"    schema = json.load(open(sys.argv[3], encoding='utf-8'))\n"
	"    jsonschema.Draft202012Validator.check_schema(schema)\n"
	"    jsonschema.Draft202012Validator(schema).validate(doc)\n";

static void validate(const char *kind, const char *doc, const char *script)
{
	char path[64], cmd[512];
	CHECK(doc != NULL);
	if (!doc || !temp_file(path, doc)) {
		CHECK(!"cannot write a temporary file");
		return;
	}
	snprintf(cmd, sizeof cmd, "python3 %s %s %s %s/docs/prove.schema.json", script, kind,
	         path, ISACHECK_SOURCE_DIR);
	int rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "%s output failed validation, kept in %s\n", kind, path);
	else
		unlink(path);
	CHECK_INT(rc, 0);
}

TEST(outputs_parse)
{
	if (system("command -v python3 >/dev/null 2>&1") != 0) {
		SKIP("python3 not found: outputs not parsed");
		return;
	}
	char script[64];
	if (!temp_file(script, validator)) {
		CHECK(!"cannot write the validator");
		return;
	}
	fixture fx;
	if (fixture_init(&fx, 0)) {
		report empty = {.command = "prove"};
		const report *reports[] = {&fx.r, &empty};
		for (size_t i = 0; i < 2; i++) {
			char *out = capture(report_write_json, reports[i]);
			validate("json", out, script);
			free(out);
			out = capture(report_write_sarif, reports[i]);
			validate("sarif", out, script);
			free(out);
			out = capture(report_write_codequality, reports[i]);
			validate("codequality", out, script);
			free(out);
		}
	}
	fixture_free(&fx);
	unlink(script);
}

int main(void)
{
	RUN(json_content);
	RUN(sarif_content);
	RUN(fingerprints_survive_line_moves);
	RUN(codequality_content);
	RUN(empty_report);
	RUN(outputs_parse);
	return testlib_finish();
}
