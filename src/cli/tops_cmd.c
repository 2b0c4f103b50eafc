/*
 * tops_cmd.c - `isacheck tops`: which isaspec specs a change touches.
 *
 * A merge gate is given changed files; what it must check are the
 * top-level specs whose import closure holds one of them (staging only
 * ir3-cat6.xml changes ir3.xml, which imports it).  Most XML in a tree
 * like Mesa's is not isaspec at all (register databases, build files):
 * only files whose root element is <isa> count, the rest are skipped
 * without a word.  Imports are read from the text (<import file=...>),
 * not by loading the spec, so a broken fragment still finds the spec it
 * breaks, which is then checked and reported.
 */
#define _XOPEN_SOURCE 700
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char tops_usage[] =
	"usage: isacheck tops [--under=DIR] [FILE...]\n"
	"\n"
	"Lists the top-level isaspec specs under DIR (default: .), one path a line:\n"
	"the XML files whose root element is <isa> that no other such file\n"
	"imports.  Given FILEs (changed files, for a merge gate), lists only the\n"
	"specs whose import closure holds one of them; FILEs that are not isaspec\n"
	"XML are ignored.  Exit 0 (even when nothing is listed), 2 on bad usage or\n"
	"an unreadable DIR.\n";

/* Files larger than this are not read (no isaspec file is near it). */
#define TOPS_MAX_FILE (64u << 20)

typedef struct isa_file {
	char *path;      /* as found under DIR */
	char *real;      /* realpath */
	char **imports;  /* realpaths (or normalised paths of missing files) */
	size_t nimports;
	bool imported;   /* by another isaspec file */
} isa_file;

typedef struct tops_walk {
	isa_file *v;
	size_t n, cap;
	bool oom;
} tops_walk;

/* Folders deeper than this are not entered (a tree of symlinks is not
 * followed at all: lstat). */
#define TOPS_MAX_DEPTH 64

static char *read_small(const char *path, size_t *len)
{
	char why[600];
	FILE *f = input_open_err(path, "rb", why, sizeof why);
	if (!f)
		return NULL; /* not a regular file, or unreadable: not a spec to list */
	struct stat st;
	char *buf = NULL;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (unsigned long long)st.st_size <= TOPS_MAX_FILE &&
	    (buf = malloc((size_t)st.st_size + 1))) {
		*len = fread(buf, 1, (size_t)st.st_size, f);
		buf[*len] = 0;
	}
	fclose(f);
	return buf;
}

/* Whether the document's root element is <isa>: past a BOM, blanks, the
 * XML declaration, processing instructions, comments and a DOCTYPE. */
static bool root_is_isa(const char *s)
{
	if (!strncmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (!strncmp(s, "<?", 2)) {
			const char *e = strstr(s, "?>");
			if (!e)
				return false;
			s = e + 2;
		} else if (!strncmp(s, "<!--", 4)) {
			const char *e = strstr(s + 4, "-->");
			if (!e)
				return false;
			s = e + 3;
		} else if (!strncmp(s, "<!", 2)) {
			const char *e = strchr(s, '>');
			if (!e)
				return false;
			s = e + 1;
		} else {
			return !strncmp(s, "<isa", 4) &&
			       (s[4] == '>' || s[4] == '/' || s[4] == ' ' || s[4] == '\t' ||
			        s[4] == '\r' || s[4] == '\n');
		}
	}
}

/* path with "." and ".." resolved as far as the file system allows: the
 * realpath, or for a missing file its directory's realpath and its name. */
static char *resolve(const char *path)
{
	char buf[PATH_MAX];
	if (realpath(path, buf))
		return strdup(buf);
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (!*dir)
		snprintf(dir, sizeof dir, "/");
	if (!realpath(dir, buf))
		return strdup(path);
	size_t n = strlen(buf) + strlen(slash ? slash : path) + 2;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "%s/%s", buf, slash ? slash + 1 : path);
	return out;
}

/* The files a spec's text imports, resolved against its folder. */
static void scan_imports(tops_walk *walk, isa_file *f, const char *text)
{
	const char *slash = strrchr(f->path, '/');
	for (const char *p = strstr(text, "<import"); p; p = strstr(p + 7, "<import")) {
		const char *end = strchr(p, '>');
		const char *a = strstr(p, "file=");
		if (!end || !a || a > end || (a[5] != '"' && a[5] != '\''))
			continue;
		const char *v = a + 6, *q = strchr(v, a[5]);
		if (!q || q > end)
			continue;
		char rel[PATH_MAX];
		if (v[0] == '/')
			snprintf(rel, sizeof rel, "%.*s", (int)(q - v), v);
		else
			snprintf(rel, sizeof rel, "%.*s%.*s", slash ? (int)(slash - f->path + 1) : 0,
			         f->path, (int)(q - v), v);
		char **im = realloc(f->imports, (f->nimports + 1) * sizeof *im);
		if (!im) {
			walk->oom = true;
			return;
		}
		f->imports = im;
		if ((im[f->nimports] = resolve(rel)))
			f->nimports++;
	}
}

/* Takes one regular *.xml file when its root element is <isa>. */
static void take_file(tops_walk *walk, const char *path)
{
	size_t n;
	char *text = read_small(path, &n);
	if (!text || !root_is_isa(text)) {
		free(text);
		return;
	}
	if (walk->n == walk->cap) {
		size_t cap = walk->cap ? 2 * walk->cap : 32;
		isa_file *v = realloc(walk->v, cap * sizeof *v);
		if (!v) {
			free(text);
			walk->oom = true;
			return;
		}
		walk->v = v;
		walk->cap = cap;
	}
	isa_file *f = &walk->v[walk->n];
	*f = (isa_file){.path = strdup(path), .real = resolve(path)};
	if (!f->path || !f->real) {
		free(f->path);
		free(f->real);
		free(text);
		walk->oom = true;
		return;
	}
	walk->n++;
	scan_imports(walk, f, text);
	free(text);
}

/* Every isaspec file under dir; hidden folders (.git) are skipped.
 * False when dir cannot be read. */
static bool walk_dir(tops_walk *walk, const char *dir, unsigned depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	for (struct dirent *e; !walk->oom && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *path = malloc(len);
		if (!path) {
			walk->oom = true;
			break;
		}
		if (!depth && !strcmp(dir, "."))
			snprintf(path, len, "%s", e->d_name); /* paths as git names them */
		else
			snprintf(path, len, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
		struct stat st;
		size_t nl = strlen(e->d_name);
		if (lstat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < TOPS_MAX_DEPTH)
				walk_dir(walk, path, depth + 1);
			else if (S_ISREG(st.st_mode) && nl > 4 && !strcmp(e->d_name + nl - 4, ".xml"))
				take_file(walk, path);
		}
		free(path);
	}
	closedir(d);
	return true;
}

static isa_file *find_real(const tops_walk *walk, const char *real)
{
	for (size_t i = 0; i < walk->n; i++)
		if (!strcmp(walk->v[i].real, real))
			return &walk->v[i];
	return NULL;
}

/* Whether changed (a realpath) is top or in its import closure. */
static bool closure_has(const tops_walk *walk, const isa_file *top, const char *changed,
                        bool *seen)
{
	size_t i = (size_t)(top - walk->v);
	if (seen[i])
		return false;
	seen[i] = true;
	if (!strcmp(top->real, changed))
		return true;
	for (size_t k = 0; k < top->nimports; k++) {
		if (!strcmp(top->imports[k], changed))
			return true;
		const isa_file *im = find_real(walk, top->imports[k]);
		if (im && closure_has(walk, im, changed, seen))
			return true;
	}
	return false;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const isa_file *)a)->path, ((const isa_file *)b)->path);
}

int cmd_tops(int argc, char **argv)
{
	const char *under = ".";
	int first = argc;
	for (int i = 1; i < argc; i++) { /* argv[0] is "tops" */
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			first = i + 1;
			break;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(tops_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strncmp(a, "--under=", 8) && a[8]) {
			under = a + 8;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "isacheck tops: unknown option '%s'\n%s", a, tops_usage);
			return EXIT_UNUSABLE;
		} else {
			first = i;
			break;
		}
	}
	struct stat st;
	if (stat(under, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "isacheck tops: %s: %s\n", under,
		        errno ? strerror(errno) : "not a directory");
		return EXIT_UNUSABLE;
	}
	tops_walk walk = {0};
	if (!walk_dir(&walk, under, 0)) {
		fprintf(stderr, "isacheck tops: %s: cannot read the folder\n", under);
		return EXIT_UNUSABLE;
	}
	int rc = EXIT_CLEAN;
	if (walk.oom) {
		fputs("isacheck tops: out of memory\n", stderr);
		rc = EXIT_UNUSABLE;
	}
	if (walk.n)
		qsort(walk.v, walk.n, sizeof *walk.v, cmp_path);
	for (size_t i = 0; i < walk.n; i++)
		for (size_t k = 0; k < walk.v[i].nimports; k++) {
			isa_file *im = find_real(&walk, walk.v[i].imports[k]);
			if (im && im != &walk.v[i])
				im->imported = true;
		}
	bool *seen = calloc(walk.n + 1, sizeof *seen);
	for (size_t i = 0; rc == EXIT_CLEAN && seen && i < walk.n; i++) {
		const isa_file *t = &walk.v[i];
		if (t->imported)
			continue;
		bool hit = first >= argc;
		for (int a = first; a < argc && !hit; a++) {
			char *real = resolve(argv[a]);
			memset(seen, 0, (walk.n + 1) * sizeof *seen);
			hit = real && closure_has(&walk, t, real, seen);
			free(real);
		}
		if (hit && fprintf(stdout, "%s\n", t->path) < 0)
			rc = EXIT_UNUSABLE;
	}
	if (!seen)
		rc = EXIT_UNUSABLE;
	free(seen);
	for (size_t i = 0; i < walk.n; i++) {
		for (size_t k = 0; k < walk.v[i].nimports; k++)
			free(walk.v[i].imports[k]);
		free(walk.v[i].imports);
		free(walk.v[i].path);
		free(walk.v[i].real);
	}
	free(walk.v);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "isacheck tops: error writing standard output: %s\n",
		        strerror(errno ? errno : EIO));
		rc = EXIT_UNUSABLE;
	}
	return rc;
}
