/*
 * test_hostile.c - the resource model of docs/model.md held end to end:
 * about a hundred hostile inputs, made here at run time (most are too big
 * to keep in the repository), each given to the isacheck command as a CI
 * job on an untrusted merge request would give it.  Every case states the
 * exit code and the rule id (or text) it must produce, and runs under a
 * watchdog and a memory ceiling: a hang, a crash, a missing diagnostic or
 * a run past its memory budget is a failure.  The watchdog (60 s, three
 * times that under sanitizers) only tells a hang from an answer; speed
 * is measured in bench/, not here.
 *
 * Without sanitizers each command also runs under a 4 GiB address-space
 * limit (RLIMIT_AS), so an allocation that fails must be handled, not
 * crash; ASan reserves terabytes of address space, so under it the
 * ceiling is the peak resident size alone.
 */
#include "testlib.h"

/* the table below names only the fields a case needs */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifdef ISACHECK_SANITIZED
#define SLOWER 3
#else
#define SLOWER 1
#endif

static char dir[256];

static FILE *create(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	return f;
}

static void finish(FILE *f)
{
	if (f)
		CHECK(fclose(f) == 0);
}

/* ----------------------------------------------------------- generators */

static const char *zeros(unsigned n)
{
	static char buf[4097];
	memset(buf, '0', n);
	buf[n] = 0;
	return buf;
}

/* A root that matches everything, and its display. */
static void plain_root(FILE *f, const char *display)
{
	fprintf(f, "  <bitset name=\"#instruction\" size=\"32\">\n"
	           "    <display>%s</display>\n"
	           "    <pattern low=\"0\" high=\"31\">%s</pattern>\n"
	           "  </bitset>\n", display, zeros(32));
}

static void gen_attributes(const char *name, unsigned n, const char *element)
{
	FILE *f = create(name);
	if (!f)
		return;
	if (!strcmp(element, "isa")) {
		fputs("<isa", f);
		for (unsigned i = 0; i < n; i++)
			fprintf(f, " a%u=\"1\"", i);
		fputs("/>\n", f);
	} else {
		fputs("<isa>\n  <bitset name=\"#r\" size=\"32\">\n    <field name=\"X\" low=\"0\" "
		      "high=\"31\" type=\"uint\"", f);
		for (unsigned i = 0; i < n; i++)
			fprintf(f, " b%u='2'", i);
		fputs("/>\n  </bitset>\n</isa>\n", f);
	}
	finish(f);
}

/* An enum of n values, pretty-printed: text between elements must not
 * cost once per element. */
static void gen_enum(const char *name, unsigned n)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n  <enum name=\"#e\">\n", f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "    <value val=\"%u\" display=\"v%u\"/>\n", i, i);
	fputs("  </enum>\n", f);
	fputs("  <bitset name=\"#instruction\" size=\"32\">\n    <display>{E}</display>\n"
	      "    <field name=\"E\" low=\"0\" high=\"31\" type=\"#e\"/>\n  </bitset>\n</isa>\n", f);
	finish(f);
}

/* n leaves told apart by their low bits; with two_gens, leaf 0 lives
 * from generation 1 on, so that the others live in two intervals. */
static void gen_leaves_in(const char *name, unsigned n, bool two_gens)
{
	FILE *f = create(name);
	if (!f)
		return;
	unsigned bits = 1;
	while ((1u << bits) < n)
		bits++;
	fprintf(f, "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	           "    <field name=\"X\" low=\"%u\" high=\"31\" type=\"uint\"/>\n  </bitset>\n", bits);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "  <bitset name=\"l%u\" extends=\"#instruction\">\n"
		           "    <display>l%u {X}</display>\n    <pattern low=\"0\" high=\"%u\">",
		        i, i, bits - 1);
		for (unsigned b = bits; b-- > 0;)
			fputc('0' + ((i >> b) & 1), f);
		fputs(i == 0 && two_gens ? "</pattern>\n    <gen min=\"1\"/>\n  </bitset>\n"
		                         : "</pattern>\n  </bitset>\n", f);
	}
	fputs("</isa>\n", f);
	finish(f);
}

static void gen_leaves(const char *name, unsigned n)
{
	gen_leaves_in(name, n, false);
}

/* npoint leaves living at one generation each (npoint intervals) beside
 * nall leaves living at all of them. */
static void gen_generations(const char *name, unsigned npoint, unsigned nall)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	      "    <field name=\"X\" low=\"15\" high=\"31\" type=\"uint\"/>\n  </bitset>\n", f);
	for (unsigned i = 0; i < npoint + nall; i++) {
		fprintf(f, "  <bitset name=\"l%u\" extends=\"#instruction\">\n"
		           "    <display>l%u {X}</display>\n    <pattern low=\"0\" high=\"14\">",
		        i, i);
		for (unsigned b = 15; b-- > 0;)
			fputc('0' + ((i >> b) & 1), f);
		fputs("</pattern>\n", f);
		if (i < npoint)
			fprintf(f, "    <gen min=\"%u\" max=\"%u\"/>\n", i, i);
		fputs("  </bitset>\n", f);
	}
	fputs("</isa>\n", f);
	finish(f);
}

static void gen_depth(const char *name, unsigned depth)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>", f);
	for (unsigned i = 1; i < depth; i++)
		fputs("<doc>", f);
	for (unsigned i = 1; i < depth; i++)
		fputs("</doc>", f);
	fputs("</isa>\n", f);
	finish(f);
}

static void gen_elements(const char *name, unsigned n)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>", f);
	for (unsigned i = 0; i < n; i++)
		fputs("<doc/>", f);
	fputs("</isa>\n", f);
	finish(f);
}

/* A file of about mib MiB: a comment holding it up. */
static void gen_big(const char *name, unsigned mib, const char *import)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n", f);
	if (import)
		fprintf(f, "  <import file=\"%s\"/>\n", import);
	fputs("<!--", f);
	static char line[1024];
	memset(line, 'c', sizeof line - 1);
	line[sizeof line - 2] = '\n';
	for (unsigned i = 0; i < mib * 1024u; i++)
		fputs(line, f);
	fputs("-->\n", f);
	plain_root(f, "x");
	fputs("</isa>\n", f);
	finish(f);
}

/* One template of len bytes, named k times in one display, in d displays. */
static void gen_templates(const char *name, unsigned len, unsigned k, unsigned d)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n  <template name=\"T\">", f);
	for (unsigned i = 0; i < len; i++)
		fputc('t', f);
	fputs("</template>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	      "    <field name=\"X\" low=\"12\" high=\"31\" type=\"uint\"/>\n  </bitset>\n", f);
	for (unsigned j = 0; j < d; j++) {
		fprintf(f, "  <bitset name=\"l%u\" extends=\"#instruction\">\n    <display>", j);
		for (unsigned i = 0; i < k; i++)
			fputs("{T}", f);
		fputs("</display>\n    <pattern low=\"0\" high=\"11\">", f);
		for (unsigned b = 12; b-- > 0;)
			fputc('0' + ((j >> b) & 1), f);
		fputs("</pattern>\n  </bitset>\n", f);
	}
	fputs("</isa>\n", f);
	finish(f);
}

/* levels roots, each printing its bitset field k times: k^levels texts. */
static void gen_nested_display(const char *name, unsigned levels, unsigned k, unsigned leaf_len)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n", f);
	for (unsigned l = levels; l >= 1; l--) {
		fprintf(f, "  <bitset name=\"#b%u\" size=\"32\">\n    <display>", l);
		if (l == levels) {
			for (unsigned i = 0; i < leaf_len; i++)
				fputc('L', f);
			fputs("</display>\n", f);
			fprintf(f, "    <pattern low=\"0\" high=\"31\">%s</pattern>\n", zeros(32));
		} else {
			for (unsigned i = 0; i < k; i++)
				fputs("{B}", f);
			fprintf(f, "</display>\n    <field name=\"B\" low=\"0\" high=\"31\" type=\"#b%u\"/>\n",
			        l + 1);
		}
		fputs("  </bitset>\n", f);
	}
	fputs("  <bitset name=\"#instruction\" size=\"32\">\n    <display>", f);
	for (unsigned i = 0; i < k; i++)
		fputs("{B}", f);
	fputs("</display>\n    <field name=\"B\" low=\"0\" high=\"31\" type=\"#b1\"/>\n  </bitset>\n"
	      "</isa>\n", f);
	finish(f);
}

/* A chain of depth bitsets, the root included. */
static void gen_chain(const char *name, unsigned depth)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	      "    <display>x</display>\n    <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n"
	      "  </bitset>\n", f);
	for (unsigned i = 1; i < depth; i++) {
		if (i == 1)
			fputs("  <bitset name=\"c1\" extends=\"#instruction\"/>\n", f);
		else
			fprintf(f, "  <bitset name=\"c%u\" extends=\"c%u\"/>\n", i, i - 1);
	}
	fputs("</isa>\n", f);
	finish(f);
}

static void gen_bytes(const char *name, const char *data, size_t len)
{
	FILE *f = create(name);
	if (f)
		CHECK(fwrite(data, 1, len, f) == len);
	finish(f);
}

static void gen_text(const char *name, const char *text)
{
	gen_bytes(name, text, strlen(text));
}

/* An expression nested n parentheses deep. */
static void gen_expr_depth(const char *name, unsigned n)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n  <expr name=\"#e\">", f);
	for (unsigned i = 0; i < n; i++)
		fputc('(', f);
	fputs("{A}", f);
	for (unsigned i = 0; i < n; i++)
		fputc(')', f);
	fputs("</expr>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	      "    <display>{D}</display>\n    <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n"
	      "    <derived name=\"D\" expr=\"#e\" type=\"uint\"/>\n  </bitset>\n</isa>\n", f);
	finish(f);
}

/* n files importing the next. */
static void gen_imports(const char *prefix, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s%u.xml", prefix, i);
		FILE *f = create(name);
		if (!f)
			return;
		fputs("<isa>\n", f);
		if (i + 1 < n)
			fprintf(f, "  <import file=\"%s%u.xml\"/>\n", prefix, i + 1);
		else
			plain_root(f, "x");
		fputs("</isa>\n", f);
		finish(f);
	}
}

static void gen_long_value(const char *name, unsigned len, const char *attr)
{
	FILE *f = create(name);
	if (!f)
		return;
	fprintf(f, "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n    <display>x</display>\n"
	           "    <field %shigh=\"31\" type=\"uint\" %s=\"", strcmp(attr, "low") ? "low=\"0\" " : "",
	        attr);
	for (unsigned i = 0; i < len; i++)
		fputc(!strcmp(attr, "name") ? 'n' : '9', f);
	fprintf(f, "\"%s/>\n  </bitset>\n</isa>\n", strcmp(attr, "name") ? " name=\"A\"" : "");
	finish(f);
}

static void gen_many_defs(const char *name, const char *what, unsigned n)
{
	FILE *f = create(name);
	if (!f)
		return;
	fputs("<isa>\n", f);
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(what, "expr"))
			fprintf(f, "  <expr name=\"#e%u\">{A} + %u</expr>\n", i, i);
		else if (!strcmp(what, "template"))
			fprintf(f, "  <template name=\"T%u\">t%u</template>\n", i, i);
		else
			fprintf(f, "  <enum name=\"#e%u\"><value val=\"0\" display=\"z\"/></enum>\n", i);
	plain_root(f, "x");
	fputs("</isa>\n", f);
	finish(f);
}

static void gen_binary(const char *name, size_t bytes, unsigned seed)
{
	FILE *f = create(name);
	if (!f)
		return;
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < bytes; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		fputc((int)(x & 0xff), f);
	}
	finish(f);
}

/* ------------------------------------------------------------ the runner */

typedef struct hostile_case {
	const char *what;
	const char *argv[12];  /* after "isacheck"; "@x" is dir/x */
	int exit_code;
	const char *expect;    /* in stdout or stderr; NULL: nothing asked */
	unsigned rss_mib;      /* peak resident size allowed (times SLOWER) */
	const char *stdin_file;/* "@x", or NULL for /dev/null */
	size_t max_out;        /* bytes of stdout allowed; 0: 64 MiB */
} hostile_case;

static char *slurp_small(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *b = malloc(max + 1);
	size_t n = b ? fread(b, 1, max, f) : 0;
	fclose(f);
	if (b)
		b[n] = 0;
	return b;
}

/* "@x" and "--opt=@x" name dir/x. */
static const char *at(const char *a, char *buf, size_t len)
{
	const char *eq = a && a[0] == '-' ? strstr(a, "=@") : NULL;
	if (a && a[0] == '@')
		snprintf(buf, len, "%s/%s", dir, a + 1);
	else if (eq)
		snprintf(buf, len, "%.*s=%s/%s", (int)(eq - a), a, dir, eq + 2);
	else
		return a;
	return buf;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_case(const hostile_case *c)
{
	char paths[12][512], in[512], out_path[512], err_path[512];
	const char *argv[14] = {ISACHECK_BINARY};
	size_t n = 1;
	for (size_t i = 0; i < 12 && c->argv[i]; i++)
		argv[n++] = at(c->argv[i], paths[i], sizeof paths[i]);
	argv[n] = NULL;
	snprintf(out_path, sizeof out_path, "%s/out.txt", dir);
	snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
	const char *stdin_path = c->stdin_file ? at(c->stdin_file, in, sizeof in) : "/dev/null";
	double limit = 60.0 * SLOWER, t0 = now_s();
	pid_t pid = fork();
	if (pid == 0) {
		int fi = open(stdin_path, O_RDONLY);
		int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fi < 0 || fo < 0 || fe < 0)
			_exit(125);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
#ifndef ISACHECK_SANITIZED
		struct rlimit as = {(rlim_t)4 << 30, (rlim_t)4 << 30};
		setrlimit(RLIMIT_AS, &as);
#endif
		/* the output a runaway could write is bounded too */
		struct rlimit fsz = {(rlim_t)256 << 20, (rlim_t)256 << 20};
		setrlimit(RLIMIT_FSIZE, &fsz);
		execv(argv[0], (char *const *)argv);
		_exit(126);
	}
	CHECK(pid > 0);
	if (pid <= 0)
		return;
	int status = 0;
	struct rusage ru = {0};
	bool hung = false;
	for (;;) {
		pid_t r = wait4(pid, &status, WNOHANG, &ru);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			break;
		if (now_s() - t0 > limit) {
			kill(pid, SIGKILL);
			wait4(pid, &status, 0, &ru);
			hung = true;
			break;
		}
		usleep(2000);
	}
	int fails = testlib_failures;
	if (now_s() - t0 > 2)
		printf("  (%s: %.1f s)\n", c->what, now_s() - t0);
	CHECK(!hung);
	CHECK(WIFEXITED(status));
	if (WIFEXITED(status))
		CHECK_INT(WEXITSTATUS(status), c->exit_code);
	unsigned long rss_mib = (unsigned long)ru.ru_maxrss / 1024; /* ru_maxrss is in KiB */
	CHECK(rss_mib <= (unsigned long)c->rss_mib * SLOWER);
	struct stat st;
	size_t max_out = c->max_out ? c->max_out : (size_t)64 << 20;
	CHECK(stat(out_path, &st) == 0 && (size_t)st.st_size <= max_out);
	char *o = slurp_small(out_path, max_out), *e = slurp_small(err_path, 1 << 20);
	if (c->expect)
		CHECK((o && strstr(o, c->expect)) || (e && strstr(e, c->expect)));
	if (testlib_failures != fails)
		fprintf(stderr, "  case '%s': %s, exit %d (expected %d), %.1f s, %lu MiB (allowed %u), "
		        "stdout %lld bytes\n    stdout: %.300s\n    stderr: %.300s\n", c->what,
		        hung ? "hung" : WIFSIGNALED(status) ? "killed by a signal" : "finished",
		        WIFEXITED(status) ? WEXITSTATUS(status) : -1, c->exit_code, now_s() - t0,
		        rss_mib, c->rss_mib * SLOWER, (long long)st.st_size, o ? o : "", e ? e : "");
	free(o);
	free(e);
}

static void make_inputs(void)
{
	gen_attributes("attrs-1025.xml", 1025, "isa");
	gen_attributes("attrs-300k.xml", 300000, "isa");
	gen_attributes("attrs-field-5000.xml", 5000, "field");
	gen_attributes("attrs-1024.xml", 1020, "field"); /* and name, low, high, type */
	gen_enum("enum-40k.xml", 40000);
	gen_enum("enum-200k.xml", 200000);
	gen_leaves("leaves-10k.xml", 10000);
	gen_leaves("leaves-100k.xml", 100000);
	gen_leaves("leaves-300.xml", 300);
	/* past 2^18 classifier records and 300,000 live leaves of coverage
	 * work, in a 42 MB file: every budget that grows with the spec */
	gen_leaves_in("leaves-270k.xml", 270000, true);
	gen_generations("gens-20k.xml", 20000, 0);
	gen_generations("gens-10k-10k.xml", 10000, 10000);
	gen_depth("depth-64.xml", 64);
	gen_depth("depth-65.xml", 65);
	gen_depth("depth-100k.xml", 100000);
	gen_elements("elements-1M.xml", 1000001);
	gen_big("big-17M.xml", 17, NULL);
	gen_big("big-15a.xml", 15, "big-15b.xml");
	gen_big("big-15b.xml", 15, "big-15c.xml");
	gen_big("big-15c.xml", 15, "big-15d.xml");
	gen_big("big-15d.xml", 15, "big-15e.xml");
	gen_big("big-15e.xml", 15, NULL);
	gen_templates("tmpl-one-over.xml", 40000, 2, 1);
	gen_templates("tmpl-one-fits.xml", 30000, 2, 1);
	gen_templates("tmpl-total.xml", 60000, 1, 1200);
	gen_templates("tmpl-many-refs.xml", 1, 20000, 1);
	gen_nested_display("nested-3x1000.xml", 3, 1000, 4);
	gen_nested_display("nested-16x2.xml", 16, 2, 4);
	gen_nested_display("nested-6x100.xml", 6, 100, 4);
	gen_nested_display("nested-long.xml", 2, 2000, 100); /* 4 10^6 x 100 bytes */
	gen_chain("chain-255.xml", 255);
	gen_chain("chain-300.xml", 300);
	gen_text("chain-bad-name.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>x</display>\n  </bitset>\n  <bitset name=\"c\" extends=\"#nothing\"/>\n</isa>\n");
	gen_expr_depth("expr-depth-200.xml", 200);
	gen_expr_depth("expr-depth-100k.xml", 100000);
	gen_imports("imp-ok-", 256);
	gen_imports("imp-over-", 257);
	gen_long_value("long-name.xml", 1 << 20, "name");
	gen_long_value("long-low.xml", 1 << 20, "low");
	gen_many_defs("defs-expr.xml", "expr", 100000);
	gen_many_defs("defs-template.xml", "template", 100000);
	gen_many_defs("defs-enum.xml", "enum", 100000);
	gen_binary("garbage-1.bin", 1 << 20, 1);
	gen_binary("garbage-2.bin", 7, 2);
	gen_binary("garbage-3.xml", 4096, 3);
	gen_binary("garbage-4.xml", 1 << 20, 4);
	char mesh[512];
	snprintf(mesh, sizeof mesh, "%s/fifo", dir);
	CHECK(mkfifo(mesh, 0600) == 0);
	gen_text("import-fifo.xml", "<isa>\n  <import file=\"fifo\"/>\n</isa>\n");
	gen_text("import-passwd.xml", "<isa>\n  <import file=\"../../../../../../../../etc/passwd\"/>\n</isa>\n");
	gen_text("import-abs.xml", "<isa>\n  <import file=\"/etc/hostname\"/>\n</isa>\n");
	gen_text("import-self.xml", "<isa>\n  <import file=\"import-self.xml\"/>\n</isa>\n");
	gen_text("import-a.xml", "<isa>\n  <import file=\"import-b.xml\"/>\n</isa>\n");
	gen_text("import-b.xml", "<isa>\n  <import file=\"import-a.xml\"/>\n</isa>\n");
	gen_text("import-dir.xml", "<isa>\n  <import file=\".\"/>\n</isa>\n");
	gen_text("doctype.xml", "<!DOCTYPE isa [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>\n<isa>&b;</isa>\n");
	gen_text("external-entity.xml", "<!DOCTYPE isa [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<isa>&x;</isa>\n");
	static const char nul_xml[] = "<isa>\n  <bitset name=\"#i\"\0/>\n</isa>\n";
	gen_bytes("nul.xml", nul_xml, sizeof nul_xml - 1);
	gen_text("empty.xml", "");
	gen_text("truncated.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n    <disp");
	gen_text("not-isa.xml", "<html><body/></html>\n");
	gen_text("bad-utf8.xml", "<isa>\n  <doc>\xff\xfe\xc0\xaf</doc>\n</isa>\n");
	gen_text("align-5000.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>{A:align=5000}</display>\n"
	         "    <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n  </bitset>\n</isa>\n");
	gen_text("align-99999999999.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>{A:align=99999999999}</display>\n"
	         "    <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n  </bitset>\n</isa>\n");
	gen_text("size-4097.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"4097\">\n"
	         "    <display>x</display>\n  </bitset>\n</isa>\n");
	gen_text("size-huge.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"99999999999999999999\">\n"
	         "    <display>x</display>\n  </bitset>\n</isa>\n");
	gen_text("low-huge.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>x</display>\n"
	         "    <field name=\"A\" low=\"4294967296\" high=\"31\" type=\"uint\"/>\n  </bitset>\n</isa>\n");
	gen_text("div-zero.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>{D}</display>\n    <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n"
	         "    <derived name=\"D\" type=\"uint\"><expr>{A} / 0</expr></derived>\n"
	         "  </bitset>\n</isa>\n");
	gen_text("fails-everywhere.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>op {D}</display>\n"
	         "    <field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
	         "    <field name=\"B\" low=\"16\" high=\"30\" type=\"uint\"/>\n"
	         "    <derived name=\"D\" type=\"uint\"><expr>{A} / ({B} - {B})</expr></derived>\n"
	         "    <pattern pos=\"31\">0</pattern>\n  </bitset>\n</isa>\n");
	gen_text("expr-cycle.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>{D}</display>\n    <field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n"
	         "    <derived name=\"D\" type=\"uint\"><expr>{E} + 1</expr></derived>\n"
	         "    <derived name=\"E\" type=\"uint\"><expr>{D} * 2</expr></derived>\n"
	         "  </bitset>\n</isa>\n");
	gen_text("split.xml", "<isa>\n  <enum name=\"#e\"><value val=\"0\" display=\"a\"/>"
	         "<value val=\"1\" display=\"ab\"/></enum>\n"
	         "  <enum name=\"#g\"><value val=\"0\" display=\"b\"/><value val=\"1\" display=\"\"/></enum>\n"
	         "  <bitset name=\"#instruction\" size=\"32\">\n    <display>op {E}{G}</display>\n"
	         "    <field name=\"E\" pos=\"0\" type=\"#e\"/>\n    <field name=\"G\" pos=\"1\" type=\"#g\"/>\n"
	         "    <pattern low=\"2\" high=\"31\">000000000000000000000000000000</pattern>\n"
	         "  </bitset>\n</isa>\n");
	gen_text("split.txt", "op ab\n");
	gen_text("bitset-cycle.xml", "<isa>\n  <bitset name=\"#a\" size=\"32\">\n    <display>{B}</display>\n"
	         "    <field name=\"B\" low=\"0\" high=\"31\" type=\"#b\"/>\n  </bitset>\n"
	         "  <bitset name=\"#b\" size=\"32\">\n    <display>{A}</display>\n"
	         "    <field name=\"A\" low=\"0\" high=\"31\" type=\"#a\"/>\n  </bitset>\n"
	         "  <bitset name=\"#instruction\" size=\"32\">\n    <display>{A}</display>\n"
	         "    <field name=\"A\" low=\"0\" high=\"31\" type=\"#a\"/>\n  </bitset>\n</isa>\n");
	gen_text("ok.xml", "<isa>\n  <bitset name=\"#instruction\" size=\"32\">\n"
	         "    <display>w {A}</display>\n    <field name=\"A\" low=\"0\" high=\"30\" type=\"uint\"/>\n"
	         "    <pattern pos=\"31\">0</pattern>\n  </bitset>\n</isa>\n");
	gen_text("hex-garbage.txt", "zzzz not hex\n");
	gen_text("hex-long.txt", "0x123456789abcdef0123456789\n");
	static const char asm_nul[] = "w 1\nw \0 2\n";
	gen_bytes("asm-nul.txt", asm_nul, sizeof asm_nul - 1);
	gen_text("asm-bad-middle.txt", "w 1\nnonsense here\nw 3\n");
	gen_text("allow-garbage.txt", "this is: not : an allowlist\n\xff\xfe\n");
	FILE *f = create("asm-long-line.txt");
	for (unsigned i = 0; f && i < (1u << 20); i++)
		fputc('w', f);
	finish(f);
	gen_binary("trunc-3.bin", 3, 9);
	gen_binary("trunc-5.bin", 5, 10);
}

/* The table: what each input must give, and the memory it may take. */
#define OK_RSS 200
static const hostile_case cases[] = {
	/* attributes: counted before libxml2 compares them pair by pair */
	{"1025 attributes", {"lint", "@attrs-1025.xml"}, 2, "[too-many-attributes]", OK_RSS},
	{"300,000 attributes", {"lint", "@attrs-300k.xml"}, 2, "[too-many-attributes]", OK_RSS},
	{"5000 attributes on a field", {"check", "@attrs-field-5000.xml"}, 2, "[too-many-attributes]", OK_RSS},
	{"1024 attributes: the budget itself", {"lint", "@attrs-1024.xml"}, 1, "[unknown-attribute]", OK_RSS},
	/* text between elements */
	{"an enum of 40,000 values", {"lint", "@enum-40k.xml"}, 0, NULL, OK_RSS},
	{"an enum of 200,000 values", {"lint", "@enum-200k.xml"}, 0, NULL, 400},
	{"an enum of 200,000 values, disasm", {"disasm", "@enum-200k.xml", "--hex", "0001869f"}, 0, "v99999", 600},
	/* leaves */
	{"10,000 leaves, lint", {"lint", "@leaves-10k.xml"}, 0, NULL, OK_RSS},
	{"10,000 leaves, check", {"check", "@leaves-10k.xml"}, 0, "proved", OK_RSS},
	{"10,000 leaves, disasm", {"disasm", "@leaves-10k.xml", "--hex", "00012345"}, 0, "l9029 4", OK_RSS},
	{"100,000 leaves, lint", {"lint", "@leaves-100k.xml"}, 0, NULL, 600},
	{"100,000 leaves, check", {"check", "@leaves-100k.xml"}, 0, "proved", 700},
	{"20,000 generations, check", {"check", "@gens-20k.xml"}, 0, "proved", OK_RSS},
	{"10,000 generations of 10,000 leaves, check", {"check", "@gens-10k-10k.xml"}, 1,
	 "[coverage-limit]", OK_RSS},
	/* the intervals past the budget say so, not that they need too many cubes */
	{"10,000 generations of 10,000 leaves, JSON", {"check", "--format=json", "@gens-10k-10k.xml"},
	 1, "\"unknown\":true,\"limit\":true,\"budget\":true", OK_RSS},
	{"100,000 leaves, disasm", {"disasm", "@leaves-100k.xml", "--hex", "00000003"}, 0, "l3 0", 1500},
	/* --max-spec-size: past the default 16 MiB a file, the budgets grow */
	{"270,000 leaves in 42 MB", {"lint", "@leaves-270k.xml"}, 2, "[file-too-large]", OK_RSS},
	{"270,000 leaves in 42 MB, --max-spec-size=24M", {"lint", "--max-spec-size=24M",
	 "@leaves-270k.xml"}, 2, "the limit is 25165824 (--max-spec-size raises it)", OK_RSS},
	{"270,000 leaves in 42 MB, --max-spec-size=2G", {"lint", "--max-spec-size=2G",
	 "@leaves-270k.xml"}, 2, "bad option '--max-spec-size=2G'", OK_RSS},
	{"270,000 leaves over two intervals, check", {"check", "--max-spec-size=48M",
	 "@leaves-270k.xml"}, 0, "gen 1..max: 270000 live leaves; ", 1500},
	{"270,000 leaves, disasm", {"disasm", "--max-spec-size=48M", "--gen=1", "@leaves-270k.xml", "--hex",
	 "0014191f"}, 0, "l268575 2", 1500},
	{"1,000,001 elements, --max-spec-size=65M", {"lint", "--max-spec-size=65M",
	 "@elements-1M.xml"}, 0, NULL, 600},
	{"100,000 leaves, asm", {"asm", "@leaves-100k.xml", "@split.txt"}, 1, "split.txt:1:", 1500},
	/* nesting and counts */
	{"64 levels", {"lint", "@depth-64.xml"}, 0, NULL, OK_RSS},
	{"65 levels", {"lint", "@depth-65.xml"}, 2, "[xml-depth]", OK_RSS},
	{"100,000 levels", {"lint", "@depth-100k.xml"}, 2, "[xml-depth]", OK_RSS},
	{"1,000,001 elements", {"lint", "@elements-1M.xml"}, 2, "[too-many-elements]", 600},
	{"a 17 MiB file", {"lint", "@big-17M.xml"}, 2, "[file-too-large]", OK_RSS},
	{"a 17 MiB file, diff", {"diff", "@big-17M.xml", "@big-17M.xml"}, 2, "[file-too-large]",
	 OK_RSS},
	{"a 17 MiB file, diff --max-spec-size=32M", {"diff", "--max-spec-size=32M", "@big-17M.xml",
	 "@big-17M.xml"}, 0, "no change", OK_RSS},
	{"a 17 MiB file, doc --max-spec-size=32M", {"doc", "--max-spec-size=32M", "@big-17M.xml"}, 0,
	 "# ", OK_RSS},
	{"75 MiB over five imports", {"lint", "@big-15a.xml"}, 2, "[file-too-large]", 400},
	{"256 files", {"lint", "@imp-ok-0.xml"}, 0, NULL, OK_RSS},
	{"257 files", {"lint", "@imp-over-0.xml"}, 2, "[import-limit]", OK_RSS},
	/* templates and displays */
	{"a display over 64 KiB", {"lint", "@tmpl-one-over.xml"}, 2, "[display-too-long]", OK_RSS},
	{"a display of 60 KB", {"lint", "@tmpl-one-fits.xml"}, 0, NULL, OK_RSS},
	{"displays over 64 MiB", {"check", "@tmpl-total.xml"}, 2, "[display-too-long]", 400},
	{"displays over 64 MiB, doc", {"doc", "@tmpl-total.xml"}, 2, "[display-too-long]", 400},
	{"20,000 template references", {"check", "@tmpl-many-refs.xml"}, 0, NULL, OK_RSS},
	{"10^9 bytes of nested display", {"disasm", "@nested-3x1000.xml", "--hex", "00000000"}, 1,
	 "[text cut: more than 65536 bitset fields]", OK_RSS, NULL, 2u << 20},
	{"10^9 bytes of nested display, 1 MiB first", {"disasm", "@nested-long.xml", "--hex",
	 "00000000"}, 1, "[text cut: longer than 1 MiB]", OK_RSS, NULL, 2u << 20},
	{"10^6 nested fields that match nothing", {"disasm", "@nested-3x1000.xml", "--hex",
	 "00000001"}, 1, "[text cut: more than 65536 bitset fields]", OK_RSS, NULL, 2u << 20},
	{"2^16 nested displays", {"disasm", "@nested-16x2.xml", "--hex", "00000000"}, 1, NULL, OK_RSS,
	 NULL, 2u << 20},
	{"10^12 bytes of nested display, decode", {"decode", "@nested-6x100.xml", "--hex", "00000000"},
	 1, "text-too-long", OK_RSS, NULL, 2u << 20},
	{"nested display, doc", {"doc", "@nested-3x1000.xml"}, 0, NULL, OK_RSS},
	{"align=5000", {"lint", "@align-5000.xml"}, 1, "[display-syntax]", OK_RSS},
	{"align=99999999999", {"lint", "@align-99999999999.xml"}, 1, "[display-syntax]", OK_RSS},
	{"align=99999999999, disasm", {"disasm", "@align-99999999999.xml", "--hex", "00000001"}, 0,
	 NULL, OK_RSS, NULL, 8192},
	/* chains and expressions */
	{"a chain of 255", {"lint", "@chain-255.xml"}, 0, NULL, OK_RSS},
	{"a chain of 300", {"check", "@chain-300.xml"}, 2, "[chain-too-deep]", OK_RSS},
	{"a chain of 300, disasm", {"disasm", "@chain-300.xml", "--hex", "00000001"}, 2,
	 "[chain-too-deep]", OK_RSS},
	{"extends an unknown name", {"lint", "@chain-bad-name.xml"}, 1, "[extends-unknown]", OK_RSS},
	{"200 parentheses", {"lint", "@expr-depth-200.xml"}, 0, NULL, OK_RSS},
	{"100,000 parentheses", {"lint", "@expr-depth-100k.xml"}, 1, "[expr-syntax]", OK_RSS},
	{"a derived value over 0", {"lint", "@div-zero.xml"}, 1, "[expr-div-zero]", OK_RSS},
	{"a derived value over 0, disasm", {"disasm", "@div-zero.xml", "--hex", "00000001"}, 1,
	 "division by zero", OK_RSS},
	{"derived values in a cycle", {"lint", "@expr-cycle.xml"}, 1, "[expr-cycle]", OK_RSS},
	/* check and disasm agree: what fails for every word is a finding */
	{"a value no word can evaluate, check", {"check", "@fails-everywhere.xml"}, 1,
	 "[disasm-fails]", OK_RSS},
	{"a value no word can evaluate, lint", {"lint", "@fails-everywhere.xml"}, 1,
	 "division by zero\", so disasm fails where check proves [disasm-fails]", OK_RSS},
	{"a value no word can evaluate, disasm", {"disasm", "@fails-everywhere.xml", "--hex",
	 "00000005"}, 1, "division by zero", OK_RSS},
	{"derived values in a cycle, disasm", {"disasm", "@expr-cycle.xml", "--hex", "00000001"}, 0,
	 NULL, OK_RSS},
	{"enum strings that split two ways", {"lint", "@split.xml"}, 1, "[display-split-ambiguous]", OK_RSS},
	{"enum strings that split two ways, asm", {"asm", "@split.xml", "@split.txt"}, 1, "ambiguous",
	 OK_RSS},
	{"roots through each other", {"lint", "@bitset-cycle.xml"}, 1, "[bitset-field-cycle]", OK_RSS},
	{"roots through each other, disasm", {"disasm", "@bitset-cycle.xml", "--hex", "00000001"}, 1,
	 NULL, OK_RSS},
	{"a 1 MiB name", {"lint", "@long-name.xml"}, 0, NULL, OK_RSS},
	{"a 1 MiB number", {"lint", "@long-low.xml"}, 1, "[bad-number]", OK_RSS},
	{"100,000 expressions", {"lint", "@defs-expr.xml"}, 0, NULL, 400},
	{"100,000 templates", {"check", "@defs-template.xml"}, 0, NULL, 400},
	{"100,000 templates, disasm", {"disasm", "@defs-template.xml", "--hex", "00000000"}, 0, "x",
	 400},
	{"100,000 enums", {"lint", "@defs-enum.xml"}, 0, NULL, 400},
	/* imports */
	{"an import of a FIFO", {"lint", "@import-fifo.xml"}, 2, "not a regular file", OK_RSS},
	{"a FIFO as the spec", {"lint", "@fifo"}, 2, "not a regular file", OK_RSS},
	{"a FIFO as the allowlist", {"check", "--allow=@fifo", "@ok.xml"}, 2, "not a regular file", OK_RSS},
	{"a FIFO to disassemble", {"disasm", "@ok.xml", "@fifo"}, 2, "not a regular file", OK_RSS},
	{"a FIFO to triage", {"triage", "@ok.xml", "@fifo"}, 2, "not a regular file", OK_RSS},
	{"an import of /etc/passwd", {"lint", "@import-passwd.xml"}, 2, "[import-outside]", OK_RSS},
	{"an absolute import", {"check", "@import-abs.xml"}, 2, "[import-outside]", OK_RSS},
	{"an import of itself", {"lint", "@import-self.xml"}, 2, "[import-cycle]", OK_RSS},
	{"two files importing each other", {"lint", "@import-a.xml"}, 2, "[import-cycle]", OK_RSS},
	{"an import of a folder", {"lint", "@import-dir.xml"}, 2, "not a regular file", OK_RSS},
	/* XML */
	{"entity expansion", {"lint", "@doctype.xml"}, 2, "[xml-dtd]", OK_RSS},
	{"an external entity", {"lint", "@external-entity.xml"}, 2, "[xml-dtd]", OK_RSS},
	{"a NUL byte", {"lint", "@nul.xml"}, 2, "NUL byte", OK_RSS},
	{"an empty file", {"lint", "@empty.xml"}, 2, "[xml-syntax]", OK_RSS},
	{"a truncated file", {"lint", "@truncated.xml"}, 2, "[xml-syntax]", OK_RSS},
	{"not isaspec", {"lint", "@not-isa.xml"}, 2, "[not-isa]", OK_RSS},
	{"bad UTF-8", {"lint", "@bad-utf8.xml"}, 2, "[xml-syntax]", OK_RSS},
	{"random bytes as XML", {"lint", "@garbage-3.xml"}, 2, "[xml-syntax]", OK_RSS},
	{"1 MiB of random bytes as XML", {"check", "@garbage-4.xml"}, 2, "[xml-syntax]", OK_RSS},
	{"a directory as the spec", {"lint", "@."}, 2, "not a regular file", OK_RSS},
	{"a missing spec", {"check", "@missing.xml"}, 2, "cannot read", OK_RSS},
	/* numbers and sizes */
	{"size 4097", {"lint", "@size-4097.xml"}, 1, "[size-invalid]", OK_RSS},
	{"size 10^20", {"lint", "@size-huge.xml"}, 1, "[bad-number]", OK_RSS},
	{"low 2^32", {"lint", "@low-huge.xml"}, 1, "[bad-number]", OK_RSS},
	/* data */
	{"1 MiB of random words", {"disasm", "@ok.xml", "@garbage-1.bin"}, 1, NULL, OK_RSS},
	{"1 MiB of random words, triage", {"triage", "@ok.xml", "@garbage-1.bin"}, 1, NULL, OK_RSS},
	{"1 MiB of random words, decode", {"decode", "@ok.xml", "@garbage-1.bin"}, 1, NULL, OK_RSS},
	{"7 bytes (not whole words)", {"disasm", "@ok.xml", "@garbage-2.bin"}, 2, "garbage-2.bin", OK_RSS},
	{"3 bytes, triage", {"triage", "@ok.xml", "@trunc-3.bin"}, 2, "trunc-3.bin", OK_RSS},
	{"5 bytes from standard input", {"disasm", "@ok.xml", "-"}, 2, NULL, OK_RSS, "@trunc-5.bin"},
	{"garbage hex", {"disasm", "@ok.xml", "--hex", "zzzz"}, 2, "not hexadecimal", OK_RSS},
	{"an over-long hex word", {"disasm", "@ok.xml", "--hex", "123456789abcdef0123"}, 2, NULL, OK_RSS},
	{"a hex file that is not hex", {"triage", "@ok.xml", "--hex-file=@hex-garbage.txt"}, 2, NULL,
	 OK_RSS},
	{"a NUL byte in assembly", {"asm", "@ok.xml", "@asm-nul.txt"}, 1, "NUL byte", OK_RSS},
	{"a bad line in assembly", {"asm", "@ok.xml", "@asm-bad-middle.txt", "--format=hex"}, 1,
	 "asm-bad-middle.txt:2:", OK_RSS},
	{"a 1 MiB line of assembly", {"asm", "@ok.xml", "@asm-long-line.txt"}, 1, NULL, OK_RSS},
	{"a folder to assemble", {"asm", "@ok.xml", "@."}, 2, "not a regular file", OK_RSS},
	{"an allowlist of garbage", {"check", "--allow=@allow-garbage.txt", "@ok.xml"}, 1,
	 "[allowlist-syntax]", OK_RSS},
	/* a <program> lint rejects frames nothing */
	{"disasm --program with a bad <program>", {"disasm", ISACHECK_SOURCE_DIR
	 "/tests/framing/bad-root-unknown.xml", "--program", "@garbage-1.bin"}, 2,
	 "[frame-root-unknown]", OK_RSS},
	{"decode --program with a bad <program>", {"decode", ISACHECK_SOURCE_DIR
	 "/tests/framing/bad-depth.xml", "--program", "@garbage-1.bin"}, 2, "nothing is framed",
	 OK_RSS},
	{"triage with a bad <program>", {"triage", ISACHECK_SOURCE_DIR
	 "/tests/framing/bad-unexplained.xml", "@garbage-1.bin"}, 2, "nothing is framed", OK_RSS},
	/* options */
	{"--gen below zero", {"disasm", "@ok.xml", "--gen=-18446744073709551615", "--hex", "0"}, 2,
	 "bad argument '--gen=-18446744073709551615'", OK_RSS},
	{"--holes over its range", {"check", "--holes=100001", "@ok.xml"}, 2, "bad option", OK_RSS},
	{"--timeout not a number", {"check", "--timeout=ten", "@ok.xml"}, 2, "bad option", OK_RSS},
	{"--time-limit not a number", {"check", "--time-limit=-1", "@ok.xml"}, 2, "bad option", OK_RSS},
	{"--output is the spec", {"check", "--output=@ok.xml", "@ok.xml"}, 2, NULL, OK_RSS},
	{"--output in a missing folder", {"check", "--output=@no/such/dir/r.txt", "@ok.xml"}, 2, NULL,
	 OK_RSS},
	{"doc -o without a value", {"doc", "@ok.xml", "-o"}, 2, "-o", OK_RSS},
	{"an unknown command", {"frobnicate"}, 2, NULL, OK_RSS},
	/* the solver: its time for the run is bounded */
	{"300 leaves with Z3", {"check", "--solver=z3", "@leaves-300.xml"}, 0, "proved", 600},
	{"10,000 leaves with Z3 and a 2 s budget", {"check", "--solver=z3", "--time-limit=2",
	 "@leaves-10k.xml"}, 3, "--time-limit", 600},
	{"Z3 on a small spec", {"check", "--solver=z3", "@ok.xml"}, 0, "proved", 400},
};

TEST(hostile_inputs)
{
	size_t n = sizeof cases / sizeof *cases;
	printf("%zu hostile cases\n", n);
	CHECK(n >= 90);
	for (size_t i = 0; i < n; i++)
		run_case(&cases[i]);
}

/* A spec lint accepts gives the same verdict through every command that
 * loads it: the budgets are the loader's, not one command's. */
TEST(budgets_alike_everywhere)
{
	static const char *const cmds[] = {"lint", "check", "prove", "doc"};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		hostile_case c = {"display over 64 KiB", {cmds[i], "@tmpl-one-over.xml"}, 2,
		                  "[display-too-long]", OK_RSS};
		run_case(&c);
		hostile_case d = {"300 attributes over", {cmds[i], "@attrs-300k.xml"}, 2,
		                  "[too-many-attributes]", OK_RSS};
		run_case(&d);
	}
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/isacheck-hostile-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	make_inputs();
	RUN(hostile_inputs);
	RUN(budgets_alike_everywhere);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return testlib_finish();
}
