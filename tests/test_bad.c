/*
 * test_bad.c - the hostile-input corpus in tests/bad.  Each line of
 * tests/bad/EXPECT names a file, a rule, the line it must point at (0:
 * any) and the exit code the CLI would give (2 fatal, 1 findings).  A
 * file must produce exactly its listed diagnostics: nothing missing,
 * nothing more.  A few inputs too big to keep in the repository are made
 * here at run time.
 */
#include "spec.h"
#include "testlib.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct expect_line {
	char file[128], rule[64];
	unsigned line;
	int exit_code;
} expect_line;

static int exit_class(const spec_model *m, const spec_diags *d)
{
	return !m ? 2 : d->count ? 1 : 0;
}

static void check_one(const char *file, const expect_line *ex, size_t nex)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/bad/%s", ISACHECK_SOURCE_DIR, file);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	bool *used = calloc(d.count + 1, sizeof *used);
	int fails = testlib_failures;
	for (size_t i = 0; used && i < nex; i++) {
		CHECK_INT(exit_class(m, &d), ex[i].exit_code);
		bool found = false;
		for (size_t k = 0; k < d.count && !found; k++)
			if (!used[k] && !strcmp(d.items[k].rule, ex[i].rule) &&
			    (!ex[i].line || d.items[k].loc.line == ex[i].line))
				found = used[k] = true;
		CHECK(found);
		if (!found)
			fprintf(stderr, "  %s: expected [%s] at line %u\n", file, ex[i].rule, ex[i].line);
	}
	for (size_t k = 0; used && k < d.count; k++) {
		CHECK(used[k]);
		if (!used[k])
			fprintf(stderr, "  %s: unexpected %s:%u:%u [%s] %s\n", file,
			        d.items[k].loc.file, d.items[k].loc.line, d.items[k].loc.col,
			        d.items[k].rule, d.items[k].message);
	}
	/* Every diagnostic is one line with a location in a real file. */
	for (size_t k = 0; k < d.count; k++) {
		CHECK(d.items[k].loc.file != NULL);
		CHECK(strchr(d.items[k].message, '\n') == NULL);
		CHECK(spec_rule_find(d.items[k].rule) != NULL);
	}
	if (testlib_failures != fails)
		fprintf(stderr, "  (in %s)\n", file);
	free(used);
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(corpus)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/bad/EXPECT", ISACHECK_SOURCE_DIR);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	expect_line *ex = calloc(1024, sizeof *ex);
	size_t n = 0;
	char buf[512];
	while (ex && n < 1024 && fgets(buf, sizeof buf, f)) {
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = 0;
		expect_line e = {0};
		if (sscanf(buf, "%127s %63s %u %d", e.file, e.rule, &e.line, &e.exit_code) == 4)
			ex[n++] = e;
	}
	fclose(f);
	CHECK(n >= 40);
	size_t files = 0;
	for (size_t i = 0; ex && i < n; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(ex[i].file, ex[j].file) != 0;
		if (!first)
			continue;
		expect_line group[32];
		size_t ng = 0;
		for (size_t j = i; j < n && ng < 32; j++)
			if (!strcmp(ex[i].file, ex[j].file))
				group[ng++] = ex[j];
		check_one(ex[i].file, group, ng);
		files++;
	}
	printf("corpus: %zu files, %zu expectations\n", files, n);
	CHECK(files >= 40);
	free(ex);
}

static int count_rule(const spec_diags *d, const char *rule)
{
	int c = 0;
	for (size_t i = 0; i < d->count; i++)
		c += !strcmp(d->items[i].rule, rule);
	return c;
}

TEST(file_too_large)
{
	char path[] = "/tmp/isacheck-big-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	/* A sparse file: 17 MiB on paper, nothing on disk. */
	CHECK(ftruncate(fd, (off_t)17 << 20) == 0);
	close(fd);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "file-too-large"), 1);
	CHECK_INT(d.count, 1);
	spec_diags_free(&d);
	/* past the limit given, not the default one: 17 MiB under 16 MiB */
	spec_load_options lo = {.max_bytes = (size_t)16 << 20};
	m = spec_load_with(path, &lo, &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "file-too-large"), 1);
	spec_diags_free(&d);
	/* under 18 MiB it is read: a file of zeros is not XML */
	lo.max_bytes = (size_t)18 << 20;
	m = spec_load_with(path, &lo, &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "file-too-large"), 0);
	CHECK(d.count >= 1);
	spec_diags_free(&d);
	unlink(path);
}

TEST(limits_for_sizes)
{
	spec_limits l = spec_limits_for(0);
	CHECK(l.file_bytes == SPEC_MAX_FILE_BYTES && l.total_bytes == SPEC_MAX_TOTAL_BYTES);
	CHECK(l.elements == SPEC_MAX_ELEMENTS && l.model_bytes == SPEC_MAX_MODEL_BYTES);
	CHECK(l.display_bytes == SPEC_MAX_DISPLAY_TOTAL);
	/* up to the default total: only the bytes move */
	l = spec_limits_for((size_t)32 << 20);
	CHECK(l.file_bytes == (size_t)32 << 20 && l.total_bytes == (size_t)32 << 20);
	CHECK(l.elements == SPEC_MAX_ELEMENTS && l.model_bytes == SPEC_MAX_MODEL_BYTES);
	/* past it, the rest grows by the factor, rounded up */
	l = spec_limits_for(((size_t)64 << 20) + 1);
	CHECK(l.elements == 2 * (size_t)SPEC_MAX_ELEMENTS);
	CHECK(l.model_bytes == 2 * SPEC_MAX_MODEL_BYTES);
	CHECK(l.display_bytes == 2 * (size_t)SPEC_MAX_DISPLAY_TOTAL);
	l = spec_limits_for((size_t)1 << 40);
	CHECK(l.total_bytes == SPEC_MAX_SPEC_BYTES);
	CHECK(l.elements == 16 * (size_t)SPEC_MAX_ELEMENTS);

	size_t v = 0;
	CHECK(spec_parse_size("1", &v) && v == 1);
	CHECK(spec_parse_size("48M", &v) && v == (size_t)48 << 20);
	CHECK(spec_parse_size("3k", &v) && v == 3072);
	CHECK(spec_parse_size("1G", &v) && v == SPEC_MAX_SPEC_BYTES);
	CHECK(spec_parse_size("1073741824", &v) && v == SPEC_MAX_SPEC_BYTES);
	v = 7;
	CHECK(!spec_parse_size("1073741825", &v));
	CHECK(!spec_parse_size("2G", &v));
	CHECK(!spec_parse_size("1025M", &v));
	CHECK(!spec_parse_size("0", &v));
	CHECK(!spec_parse_size("", &v));
	CHECK(!spec_parse_size("M", &v));
	CHECK(!spec_parse_size("-1", &v));
	CHECK(!spec_parse_size("12x", &v));
	CHECK(!spec_parse_size("1MB", &v));
	CHECK(!spec_parse_size("99999999999999999999999999", &v));
	CHECK(v == 7); /* untouched when refused */
}

TEST(import_limit)
{
	char dir[] = "/tmp/isacheck-imports-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	/* f0 imports f1 imports ... f299: more files than the limit. */
	for (int i = 0; i < 300; i++) {
		char p[300];
		snprintf(p, sizeof p, "%s/f%d.xml", dir, i);
		FILE *f = fopen(p, "w");
		CHECK(f != NULL);
		if (!f)
			return;
		if (i < 299)
			fprintf(f, "<isa>\n<import file=\"f%d.xml\"/>\n</isa>\n", i + 1);
		else
			fprintf(f, "<isa/>\n");
		fclose(f);
	}
	char top[300];
	snprintf(top, sizeof top, "%s/f0.xml", dir);
	spec_diags d = {0};
	spec_model *m = spec_load(top, &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "import-limit"), 1);
	CHECK_INT(d.count, 1);
	spec_diags_free(&d);
	for (int i = 0; i < 300; i++) {
		char p[300];
		snprintf(p, sizeof p, "%s/f%d.xml", dir, i);
		unlink(p);
	}
	rmdir(dir);
}

TEST(generated_nesting_and_garbage)
{
	/* 100000 nested elements: refused at depth 65, no recursion blow-up. */
	size_t depth = 100000, cap = depth * 8 + 64, len = 0;
	char *xml = malloc(cap);
	CHECK(xml != NULL);
	if (!xml)
		return;
	len += (size_t)snprintf(xml, cap, "<isa>");
	for (size_t i = 0; i < depth; i++)
		len += (size_t)snprintf(xml + len, cap - len, "<doc>");
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("deep.xml", xml, len, ".", &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "xml-depth"), 1);
	spec_diags_free(&d);

	/* Random bytes never crash and are always unusable input. */
	uint32_t seed = 12345;
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + (size_t)(round * 37 % 500);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			xml[i] = (char)(seed >> 16);
		}
		m = spec_load_buffer("garbage.xml", xml, n, ".", &d);
		CHECK(m == NULL);
		CHECK(d.count >= 1 && d.items[0].severity == SPEC_FATAL);
		spec_model_free(m);
		spec_diags_free(&d);
	}
	free(xml);
}

int main(void)
{
	RUN(corpus);
	RUN(file_too_large);
	RUN(limits_for_sizes);
	RUN(import_limit);
	RUN(generated_nesting_and_garbage);
	return testlib_finish();
}
