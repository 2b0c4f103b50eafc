/*
 * test_triage_html.c - the HTML report of `isacheck triage`, opened in a
 * headless browser (Debian's chromium): the page must draw a heatmap for
 * every leaf and every cluster the JSON holds, one cell per bit, with no
 * network.  The page's script writes its counts into #rendered when it
 * has drawn everything; we read them back from the browser's DOM.
 *
 * Skips (77) when chromium is not installed, except under CI=true,
 * where that is a failure.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp[] = "/tmp/isacheck-triage-html-XXXXXX";

static const char *browser(void)
{
	static const char *const names[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser",
	                                    "/usr/bin/google-chrome"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (access(names[i], X_OK) == 0)
			return names[i];
	return NULL;
}

/* The value of attribute name in the first tag that has it, or -1. */
static long attr(const char *dom, const char *name)
{
	char key[80];
	snprintf(key, sizeof key, "%s=\"", name);
	const char *p = strstr(dom, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* A 32-bit ISA with an x bit (add) and reserved bits (mov). */
static const char spec[] =
	"<isa>\n"
	"<bitset name=\"#instruction\" size=\"32\"/>\n"
	"<bitset name=\"add\" extends=\"#instruction\">\n"
	"  <display>add {A}</display>\n"
	"  <pattern low=\"28\" high=\"31\">0001</pattern>\n"
	"  <pattern low=\"24\" high=\"27\">xxxx</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"23\" type=\"uint\"/>\n"
	"</bitset>\n"
	"<bitset name=\"mov\" extends=\"#instruction\">\n"
	"  <display>mov {A}</display>\n"
	"  <pattern low=\"28\" high=\"31\">0010</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	"</bitset>\n"
	"</isa>\n";

TEST(html_heatmaps_render)
{
	const char *b = browser();
	if (!b) {
		const char *ci = getenv("CI");
		if (ci && !strcmp(ci, "true")) {
			fprintf(stderr, "CI=true but chromium is missing: ./run test installs it\n");
			testlib_failures++;
		} else {
			SKIP("chromium not found: the HTML report is not opened in a browser");
		}
		return;
	}
	char xml[300], bin[300], html[300], cmd[2000];
	snprintf(xml, sizeof xml, "%s/s.xml", tmp);
	snprintf(bin, sizeof bin, "%s/blob.bin", tmp);
	snprintf(html, sizeof html, "%s/report.html", tmp);
	testlib_write_file(xml, spec);
	/* 3 clusters: add with bit 25 (x) set, mov with bit 20 (reserved),
	 * and a word no leaf matches; a file name that tries to end the
	 * script block */
	uint32_t w[] = {0x10000001, 0x12000002, 0x12000003, 0x20000004, 0x20100005, 0x70000000,
	                0x10000006};
	FILE *f = fopen(bin, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_INT(fwrite(w, sizeof w, 1, f), 1);
	CHECK(fclose(f) == 0);
	/* the path holds "</script>": a directory "x<" and a file "script>y.bin" */
	char evil[300];
	snprintf(evil, sizeof evil, "%s/x</script>y.bin", tmp);
	snprintf(cmd, sizeof cmd, "mkdir '%s/x<' && cp %s '%s'", tmp, bin, evil);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s triage --html=%s %s %s '%s' >/dev/null", ISACHECK_BINARY,
	         html, xml, bin, evil);
	CHECK_INT(testlib_run(cmd, NULL, 0), 1);
	snprintf(cmd, sizeof cmd,
	         "%s --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=%s/profile "
	         "--dump-dom file://%s 2>/dev/null", b, tmp, html);
	char *dom;
	testlib_run_capture(cmd, &dom); /* the DOM is checked, not the browser's exit code */
	CHECK(dom != NULL);
	if (!dom)
		return;
	CHECK(strstr(dom, ">rendered</p>") != NULL);
	/* 3 clusters (each file's words merge), 2 leaves */
	CHECK_INT(attr(dom, "data-cluster-maps"), 3);
	CHECK_INT(attr(dom, "data-leaf-maps"), 2);
	CHECK_INT(attr(dom, "data-cells"), 5 * 32);
	/* the unexplained bits are outlined: bit 25 and bit 20 in their
	 * clusters and leaves, and the nearest leaf's differing bits */
	size_t outlined = 0;
	for (const char *p = dom; (p = strstr(p, "class=\"cell")); p++) {
		const char *end = strchr(p + 7, '"');
		const char *un = strstr(p, " un");
		outlined += un && end && un < end;
	}
	/* add x 25: cluster 1 + leaf 1; mov reserved 20: cluster 1 + leaf 1;
	 * 0111 vs add 0001 (2 bits, 29 30) or mov 0010 (2 bits, 28 30): 2 */
	CHECK_INT(outlined, 6);
	CHECK(strstr(dom, "nearest leaf add") != NULL);
	free(dom);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(html_heatmaps_render);
	if (!testlib_remove_tree(tmp))
		fprintf(stderr, "could not remove %s\n", tmp);
	return testlib_finish();
}
