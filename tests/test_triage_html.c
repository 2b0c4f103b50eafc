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
#include <sys/stat.h>
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

/* A 32-bit root and a leaf with x bits 24-27. */
#define ROOT_AND_ADD \
	"<bitset name=\"#instruction\" size=\"32\"/>\n" \
	"<bitset name=\"add\" extends=\"#instruction\">\n" \
	"  <display>add {A}</display>\n" \
	"  <pattern low=\"28\" high=\"31\">0001</pattern>\n" \
	"  <pattern low=\"24\" high=\"27\">xxxx</pattern>\n" \
	"  <field name=\"A\" low=\"0\" high=\"23\" type=\"uint\"/>\n" \
	"</bitset>\n"

/* A 32-bit ISA with an x bit (add) and reserved bits (mov). */
static const char spec[] =
	"<isa>\n"
	ROOT_AND_ADD
	"<bitset name=\"mov\" extends=\"#instruction\">\n"
	"  <display>mov {A}</display>\n"
	"  <pattern low=\"28\" high=\"31\">0010</pattern>\n"
	"  <field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	"</bitset>\n"
	"</isa>\n";

/* The browser, or NULL (skipped, or a failure under CI=true). */
static const char *need_browser(void)
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
	}
	return b;
}

/* The DOM of page html once its scripts ran (malloc'd), or NULL. */
static char *render(const char *b, const char *html)
{
	char cmd[2000];
	snprintf(cmd, sizeof cmd,
	         "%s --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=%s/profile "
	         "--dump-dom file://%s 2>/dev/null", b, tmp, html);
	char *dom;
	testlib_run_capture(cmd, &dom); /* the DOM is checked, not the browser's exit code */
	CHECK(dom != NULL);
	return dom;
}

/* Writes tmp/NAME.xml (spec text) and tmp/NAME.bin (the words), runs
 * `isacheck triage --html=tmp/NAME.html` on the spec, the binary and
 * extra (more inputs, "" for none), which must exit 1 (something
 * unexplained), and returns the page's DOM once drawn (malloc'd), or
 * NULL. */
static char *triage_dom(const char *b, const char *name, const char *text, const uint32_t *w,
                        size_t n, const char *extra)
{
	char xml[300], bin[300], html[300], cmd[2000];
	snprintf(xml, sizeof xml, "%s/%s.xml", tmp, name);
	snprintf(bin, sizeof bin, "%s/%s.bin", tmp, name);
	snprintf(html, sizeof html, "%s/%s.html", tmp, name);
	testlib_write_file(xml, text);
	FILE *f = fopen(bin, "wb");
	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK_INT(fwrite(w, sizeof *w, n, f), n);
	CHECK(fclose(f) == 0);
	snprintf(cmd, sizeof cmd, "%s triage --html=%s %s %s %s >/dev/null", ISACHECK_BINARY, html,
	         xml, bin, extra);
	CHECK_INT(testlib_run(cmd, NULL, 0), 1);
	return render(b, html);
}

TEST(html_heatmaps_render)
{
	const char *b = need_browser();
	if (!b)
		return;
	/* 3 clusters: add with bit 25 (x) set, mov with bit 20 (reserved),
	 * and a word no leaf matches; a file name that tries to end the
	 * script block */
	static const uint32_t w[] = {0x10000001, 0x12000002, 0x12000003, 0x20000004, 0x20100005,
	                             0x70000000, 0x10000006};
	/* a second input with the same words, whose path holds "</script>":
	 * a directory "x<" and a file "script>y.bin" */
	char dir[300], evil[320], arg[330];
	snprintf(dir, sizeof dir, "%s/x<", tmp);
	snprintf(evil, sizeof evil, "%s/script>y.bin", dir);
	snprintf(arg, sizeof arg, "'%s'", evil);
	CHECK(mkdir(dir, 0700) == 0);
	FILE *f = fopen(evil, "wb");
	CHECK(f && fwrite(w, sizeof w, 1, f) == 1);
	CHECK(f && fclose(f) == 0);
	char *dom = triage_dom(b, "blob", spec, w, sizeof w / sizeof *w, arg);
	if (!dom)
		return;
	CHECK(strstr(dom, ">rendered</p>") != NULL);
	/* no unexplained data: no section for it */
	CHECK(!strstr(dom, "unexplained-data") && attr(dom, "data-data-maps") == -1);
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

/* Whole programs of the ISA above: a word with tag 15 (bits 28-31)
 * starts 64 bits of data the framing marks unexplained. */
static const char framed_spec[] =
	"<isa>\n"
	ROOT_AND_ADD
	"<program name=\"p\">\n"
	"  <repeat to-end=\"true\">\n"
	"    <read name=\"tag\" low=\"28\" high=\"31\"/>\n"
	"    <part root=\"#instruction\" when=\"{tag} != 15\"/>\n"
	"    <data name=\"blob\" bits=\"64\" when=\"{tag} == 15\" unexplained=\"tag 15: not known\"/>\n"
	"  </repeat>\n"
	"</program>\n"
	"</isa>\n";

/* Unexplained data gets its own section: one heatmap per data cluster,
 * one cell per bit, its reason and examples. */
TEST(html_unexplained_data)
{
	const char *b = need_browser();
	if (!b)
		return;
	/* add, data (2 words), add, data: 2 instructions (explained), one
	 * data cluster of 2 items */
	static const uint32_t w[] = {0x10000001, 0xf0000000, 0x00000001, 0x10000002, 0xf0000000,
	                             0x00000003};
	char *dom = triage_dom(b, "framed", framed_spec, w, sizeof w / sizeof *w, "");
	if (!dom)
		return;
	CHECK(strstr(dom, ">rendered</p>") != NULL);
	CHECK_INT(attr(dom, "data-cluster-maps"), 0);
	CHECK_INT(attr(dom, "data-leaf-maps"), 1);
	CHECK_INT(attr(dom, "data-data-maps"), 1);
	CHECK_INT(attr(dom, "data-cells"), 32 + 64);
	CHECK(strstr(dom, "D1 \u2014 2 items \u2014 data blob, 64 bits") != NULL);
	CHECK(strstr(dom, "not understood: tag 15: not known") != NULL);
	CHECK(strstr(dom, "2 distinct content(s)") != NULL);
	CHECK(strstr(dom, "framed.bin+0x4  00000001_f0000000") != NULL);
	CHECK(strstr(dom, "framed.bin+0x10  00000003_f0000000") != NULL);
	free(dom);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(html_heatmaps_render);
	RUN(html_unexplained_data);
	if (!testlib_remove_tree(tmp))
		fprintf(stderr, "could not remove %s\n", tmp);
	return testlib_finish();
}
