/*
 * diff_cmd.c - `isacheck diff`: what an edit of a spec does to its
 * encoding space, for merge review.  The comparison itself is
 * diff_models (src/check/diff.c); this file finds the two versions
 * (files, folders, or a git revision against the working tree), compares
 * lint findings, prints witness words through both codecs, and writes
 * text, JSON, SARIF (through report_formats.c) or a Markdown comment.
 */
/* nftw() is X/Open */
#define _XOPEN_SOURCE 700
#include "cli.h"
#include "codec.h"
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char diff_usage[] =
	"usage: isacheck diff [options] OLD NEW\n"
	"       isacheck diff [options] --git=REV FILE...\n"
	"  show what an edit does to the encoding space: leaves added, removed or\n"
	"  renamed, words whose decoding changes (exact counts, one witness per\n"
	"  pair of decodings), words that print another line (every leaf pair\n"
	"  proved to print alike, or a witness printed old and new, or unknown),\n"
	"  holes opened or filled, overlaps, unaccounted bits and lint findings\n"
	"  introduced or fixed (matched by subject), one entry per edit.\n"
	"  OLD and NEW are spec files (imports read relative to each) or folders\n"
	"  (their top-level files, those no other file imports, are paired by name);\n"
	"  --git=REV compares each FILE of the working tree with its version (and\n"
	"  the XML files beside it) at git revision REV.\n"
	"options:\n"
	"  --format=text|json|sarif|markdown   output format (default text)\n"
	"  --output=FILE        write the report to FILE instead of standard output\n"
	"  --solver=cube|z3     cube: exact mask algebra (default); z3: every answer\n"
	"                       proved again by the Z3 solver (changed expressions\n"
	"                       in the text proofs go to Z3 with either engine)\n"
	"  --timeout=MS         Z3 time limit per query (default 10000; 0 none)\n"
	"  --time-limit=S       Z3 time for the whole run (default 600; 0 none): once\n"
	"                       spent, the questions not asked are unknown (exit 3)\n"
	"  --rlimit=N           Z3 resource limit per query (default none)\n"
	"  --max-spec-size=SIZE read up to SIZE bytes of XML a side (K, M, G; default\n"
	"                       64M, at most 1G); element and memory budgets grow with it\n"
	"  --fail-on=changes|new-findings   exit 1 on any change (default), or only\n"
	"                       when NEW has overlaps, unaccounted bits or lint\n"
	"                       findings that OLD did not (CI)\n"
	"exit: 0 no change (or no new finding), 1 changes (or new findings),\n"
	"      2 unusable input or bad usage, 3 unknown (solver)\n";

/* ------------------------------------------------------------- inputs */

/* One comparison: the names shown, the paths loaded. */
typedef struct diff_input {
	char *old_name, *new_name; /* as the user knows them */
	char *old_path, *new_path; /* what is loaded; NULL: the side is missing */
} diff_input;

typedef struct inputs {
	diff_input *items;
	size_t n, cap;
	char *tmpdir; /* --git: the revision's files, removed at the end */
	size_t max_bytes; /* --max-spec-size (0: the loader's default) */
} inputs;

static bool inputs_add(inputs *in, const char *on, const char *nn, const char *op,
                       const char *np)
{
	if (in->n == in->cap) {
		size_t cap = in->cap ? in->cap * 2 : 8;
		diff_input *p = realloc(in->items, cap * sizeof *p);
		if (!p)
			return false;
		in->items = p;
		in->cap = cap;
	}
	diff_input *d = &in->items[in->n++];
	*d = (diff_input){strdup(on), strdup(nn), op ? strdup(op) : NULL, np ? strdup(np) : NULL};
	return d->old_name && d->new_name && (!op || d->old_path) && (!np || d->new_path);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void inputs_free(inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->items[i].old_name);
		free(in->items[i].new_name);
		free(in->items[i].old_path);
		free(in->items[i].new_path);
	}
	free(in->items);
	if (in->tmpdir) {
		nftw(in->tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		free(in->tmpdir);
	}
}

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	size_t o = la;
	if (la && a[la - 1] != '/')
		s[o++] = '/';
	memcpy(s + o, b, lb + 1);
	return s;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The top-level spec files of a folder: its *.xml files that no other of
 * them imports, sorted by name.  NULL with *n = 0 when there is none. */
static char **folder_tops(const char *dir, size_t max_bytes, size_t *n)
{
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **names = NULL;
	size_t cap = 0, count = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".xml"))
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 16;
			char **p = realloc(names, cap * sizeof *p);
			if (!p)
				break;
			names = p;
		}
		if (!(names[count] = strdup(e->d_name)))
			break;
		count++;
	}
	closedir(d);
	if (!names)
		return NULL;
	qsort(names, count, sizeof *names, cmp_str);
	bool *imported = calloc(count + 1, sizeof *imported);
	for (size_t i = 0; imported && i < count; i++) {
		char *path = path_join(dir, names[i]);
		spec_diags dg = {0};
		spec_load_options lo = {.max_bytes = max_bytes};
		spec_model *m = path ? spec_load_with(path, &lo, &dg) : NULL;
		for (size_t f = 1; m && f < m->nfiles; f++)
			for (size_t k = 0; k < count; k++)
				if (k != i && !strcmp(base_name(m->files[f]), names[k]))
					imported[k] = true;
		spec_model_free(m);
		spec_diags_free(&dg);
		free(path);
	}
	size_t k = 0;
	for (size_t i = 0; i < count; i++) {
		if (imported && imported[i])
			free(names[i]);
		else
			names[k++] = names[i];
	}
	free(imported);
	*n = k;
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool names_have(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Two folders: their top-level files paired by name; a file on one side
 * only is compared with nothing. */
static bool inputs_folders(inputs *in, const char *old_dir, const char *new_dir)
{
	size_t no, nn;
	char **on = folder_tops(old_dir, in->max_bytes, &no);
	char **nn_ = folder_tops(new_dir, in->max_bytes, &nn);
	bool ok = true;
	for (size_t i = 0; ok && i < nn; i++) {
		char *np = path_join(new_dir, nn_[i]), *op = path_join(old_dir, nn_[i]);
		bool both = names_have(on, no, nn_[i]);
		ok = np && op && inputs_add(in, op, np, both ? op : NULL, np);
		free(np);
		free(op);
	}
	for (size_t i = 0; ok && i < no; i++) {
		if (names_have(nn_, nn, on[i]))
			continue;
		char *np = path_join(new_dir, on[i]), *op = path_join(old_dir, on[i]);
		ok = np && op && inputs_add(in, op, np, op, NULL);
		free(np);
		free(op);
	}
	free_names(on, no);
	free_names(nn_, nn);
	return ok;
}

/* Runs git with argv (no shell), its standard output into *out (NUL
 * terminated).  Returns git's exit status, or -1 when it could not run.
 * Only while the inputs are gathered, before any proof: libz3 (4.8.12)
 * registers a fork handler that stops its timer threads, and a fork
 * while another thread is in a query with a time limit aborted a test
 * program in glibc's mutex code (2026-12-06), where one thread forking
 * between its own queries ran 686 times without fault. */
static int run_git(char *const argv[], char **out, size_t *len)
{
	int fd[2];
	*out = NULL;
	*len = 0;
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		execvp("git", argv);
		_exit(127);
	}
	close(fd[1]);
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);
	bool oom = !buf;
	for (;;) {
		if (!oom && used + 1 >= cap) {
			char *p = cap < SPEC_MAX_TOTAL_BYTES ? realloc(buf, cap * 2) : NULL;
			if (!p)
				oom = true;
			else
				buf = p, cap *= 2;
		}
		char sink[4096];
		ssize_t r = oom ? read(fd[0], sink, sizeof sink)
		                : read(fd[0], buf + used, cap - 1 - used);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (!oom)
			used += (size_t)r;
	}
	close(fd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (oom) {
		free(buf);
		return -1;
	}
	buf[used] = 0;
	*out = buf;
	*len = used;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Creates the folders of path (a file below base), as mkdir -p would. */
static bool make_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
		*p = '/';
		if (!ok)
			return false;
	}
	return true;
}

static bool write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

/* Strips trailing newlines of git's one-line answers. */
static void chomp(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
}

/* --git=REV FILE: the XML files of FILE's folder (and below) at REV go
 * into a temporary folder under the same relative paths, so that imports
 * resolve as they did at REV. */
static bool inputs_git(inputs *in, const char *rev, const char *file, char *err, size_t errlen)
{
	char *dir = dir_of(file), *top = NULL, *prefix = NULL, *list = NULL;
	size_t len;
	bool ok = false;
	if (!dir)
		goto out;
	char *a1[] = {"git", "-C", dir, "rev-parse", "--show-toplevel", NULL};
	if (run_git(a1, &top, &len) != 0) {
		snprintf(err, errlen, "%s: not inside a git work tree", file);
		goto out;
	}
	chomp(top);
	char *a2[] = {"git", "-C", dir, "rev-parse", "--show-prefix", NULL};
	if (run_git(a2, &prefix, &len) != 0)
		goto out;
	chomp(prefix);
	char revspec[512];
	snprintf(revspec, sizeof revspec, "%s^{commit}", rev);
	char *a3[] = {"git", "-C", top, "rev-parse", "--verify", "--quiet", revspec, NULL};
	char *sha = NULL;
	int st = run_git(a3, &sha, &len);
	free(sha);
	if (st != 0) {
		snprintf(err, errlen, "%s: no such git revision", rev);
		goto out;
	}
	if (!in->tmpdir) {
		const char *t = getenv("TMPDIR");
		char *tmpl = path_join(t && *t ? t : "/tmp", "isacheck-diff-XXXXXX");
		if (!tmpl || !mkdtemp(tmpl)) {
			free(tmpl);
			snprintf(err, errlen, "cannot create a temporary folder: %s", strerror(errno));
			goto out;
		}
		in->tmpdir = tmpl;
	}
	char *a4[] = {"git", "-C", top, "ls-tree", "-r", "--name-only", "-z", (char *)rev, "--",
	              *prefix ? prefix : ".", NULL};
	if (run_git(a4, &list, &len) != 0) {
		snprintf(err, errlen, "%s: git ls-tree failed", rev);
		goto out;
	}
	for (size_t o = 0; o < len;) {
		const char *name = list + o;
		size_t nl = strlen(name);
		o += nl + 1;
		if (nl < 5 || strcmp(name + nl - 4, ".xml"))
			continue;
		char *obj = malloc(strlen(rev) + nl + 2), *data = NULL, *dest = path_join(in->tmpdir, name);
		size_t dlen = 0;
		bool got = false;
		if (obj && dest) {
			sprintf(obj, "%s:%s", rev, name);
			char *a5[] = {"git", "-C", top, "show", obj, NULL};
			got = run_git(a5, &data, &dlen) == 0 && make_parents(dest) &&
			      write_file(dest, data, dlen);
		}
		free(obj);
		free(data);
		free(dest);
		if (!got) {
			snprintf(err, errlen, "%s:%s: cannot read it from git", rev, name);
			goto out;
		}
	}
	/* FILE's path inside the repository, at REV */
	char *rel = malloc(strlen(prefix) + strlen(base_name(file)) + 1);
	if (!rel)
		goto out;
	sprintf(rel, "%s%s", prefix, base_name(file));
	char *oldp = path_join(in->tmpdir, rel);
	char *shown = malloc(strlen(rev) + strlen(rel) + 2);
	if (oldp && shown) {
		sprintf(shown, "%s:%s", rev, rel);
		struct stat sb;
		ok = inputs_add(in, shown, file, stat(oldp, &sb) == 0 ? oldp : NULL, file);
	}
	free(rel);
	free(oldp);
	free(shown);
out:
	free(dir);
	free(top);
	free(prefix);
	free(list);
	if (!ok && !*err)
		snprintf(err, errlen, "%s: cannot read revision %s", file, rev);
	return ok;
}

/* ------------------------------------------------------- one comparison */

/* A side that does not exist is an empty spec: every leaf of the other
 * is added or removed and every finding new or fixed. */
static const char empty_spec[] = "<isa></isa>\n";

typedef struct compared {
	const diff_input *in;
	spec_model *old_model, *new_model;
	spec_diags old_diags, new_diags; /* loading and lint */
	spec_diags diff_diags;           /* the comparison's own (solver, limits) */
	codec *old_codec, *new_codec;    /* for printing witnesses; may be NULL */
	diff_result res;
	bool diffed;
	/* lint findings of one side that the other has not (by rule, file
	 * name and message: lines move with every edit) */
	const spec_diag **lint_introduced, **lint_fixed;
	size_t nlint_introduced, nlint_fixed;
} compared;

static spec_model *load_side(const char *path, const char *name, size_t max_bytes,
                              spec_diags *d)
{
	spec_load_options lo = {.max_bytes = max_bytes};
	if (path)
		return spec_load_with(path, &lo, d);
	return spec_load_buffer(name, empty_spec, sizeof empty_spec - 1, ".", d);
}

/* A message with the spec's own file paths cut to their names and the
 * ":line" after them dropped: lint messages cite other places ("field
 * 'X' of 'y' (ir3-cat1.xml:152)"), and both move between versions. */
static char *message_key(const char *msg, const spec_model *m)
{
	size_t len = strlen(msg);
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t best = 0;
		const char *name = NULL;
		for (size_t f = 0; m && f < m->nfiles; f++) {
			size_t fl = strlen(m->files[f]);
			/* the top file is the same file on both sides, whatever
			 * each is called (a.xml against b.xml) */
			if (fl > best && !strncmp(msg + i, m->files[f], fl))
				best = fl, name = f ? base_name(m->files[f]) : "<top>";
		}
		if (!best) {
			out[o++] = msg[i++];
			continue;
		}
		size_t nl = strlen(name);
		memcpy(out + o, name, nl);
		o += nl;
		i += best;
		if (msg[i] == ':' && msg[i + 1] >= '0' && msg[i + 1] <= '9')
			for (i++; msg[i] >= '0' && msg[i] <= '9'; i++)
				;
	}
	out[o] = 0;
	return out;
}

/* Which file a diagnostic is in, by name: the top file is the same file
 * on both sides whatever each is called (a.xml against b.xml); imports
 * are known by their names. */
static const char *diag_file_key(const spec_diag *d, const char *top)
{
	if (!d->loc.file || (top && !strcmp(d->loc.file, top)))
		return "";
	return base_name(d->loc.file);
}

/* A message key with every quoted bitset name of m ('#cat5-type',
 * 'sign.f') made '<bitset>': a finding that moved to another bitset with
 * the edit (the same rule, file, enum, field and values) is the same
 * finding. */
static char *subject_key(const char *key, const spec_model *m)
{
	char *out = malloc(strlen(key) * 2 + 16);
	if (!out)
		return NULL;
	size_t o = 0;
	for (const char *p = key; *p;) {
		const char *q = *p == '\'' ? strchr(p + 1, '\'') : NULL;
		bool bitset = false;
		for (size_t i = 0; q && i < m->nbitsets && !bitset; i++)
			bitset = strlen(m->bitsets[i]->name) == (size_t)(q - p - 1) &&
			         !strncmp(m->bitsets[i]->name, p + 1, (size_t)(q - p - 1));
		if (bitset) {
			memcpy(out + o, "'<bitset>'", 10);
			o += 10;
			p = q + 1;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = 0;
	return out;
}

/* The diagnostics of x (of model xm) that y (of ym) lacks, counted as
 * multisets: compared by rule, file and message, not by line; what is
 * left is then matched by subject (subject_key). */
static const spec_diag **lint_minus(const spec_diags *x, const spec_model *xm,
                                    const spec_diags *y, const spec_model *ym, size_t *n)
{
	size_t nx = x->count, ny = y->count;
	const spec_diag **out = calloc(nx + 1, sizeof *out);
	bool *used = calloc(ny + 1, sizeof *used), *matched = calloc(nx + 1, sizeof *matched);
	char **ykeys = calloc(2 * ny + 1, sizeof *ykeys), **xkeys = calloc(2 * nx + 1, sizeof *xkeys);
	bool ok = out && used && matched && ykeys && xkeys;
	*n = 0;
	for (size_t k = 0; ok && k < ny; k++)
		ok = (ykeys[k] = message_key(y->items[k].message, ym)) &&
		     (ykeys[ny + k] = subject_key(ykeys[k], ym));
	for (size_t i = 0; ok && i < nx; i++)
		ok = (xkeys[i] = message_key(x->items[i].message, xm)) &&
		     (xkeys[nx + i] = subject_key(xkeys[i], xm));
	for (int pass = 0; ok && pass < 2; pass++)
		for (size_t i = 0; i < nx; i++) {
			const spec_diag *d = &x->items[i];
			if (d->severity == SPEC_FATAL || matched[i])
				continue;
			for (size_t k = 0; k < ny && !matched[i]; k++)
				if (!used[k] && !strcmp(d->rule, y->items[k].rule) &&
				    !strcmp(xkeys[pass * nx + i], ykeys[pass * ny + k]) &&
				    !strcmp(diag_file_key(d, xm->path), diag_file_key(&y->items[k], ym->path)))
					matched[i] = used[k] = true;
		}
	for (size_t i = 0; ok && i < nx; i++)
		if (x->items[i].severity != SPEC_FATAL && !matched[i])
			out[(*n)++] = &x->items[i];
	for (size_t k = 0; ykeys && k < 2 * ny; k++)
		free(ykeys[k]);
	for (size_t k = 0; xkeys && k < 2 * nx; k++)
		free(xkeys[k]);
	free(ykeys);
	free(xkeys);
	free(used);
	free(matched);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

static void compared_free(compared *c)
{
	if (c->diffed)
		diff_result_free(&c->res);
	codec_free(c->old_codec);
	codec_free(c->new_codec);
	spec_model_free(c->old_model);
	spec_model_free(c->new_model);
	spec_diags_free(&c->old_diags);
	spec_diags_free(&c->new_diags);
	spec_diags_free(&c->diff_diags);
	free(c->lint_introduced);
	free(c->lint_fixed);
}

/* diff_texts' view of the codecs: side 0 is OLD, 1 NEW. */
static const spec_bitset *ops_leaf_of(void *ctx, int side, const spec_root *root,
                                      const uint64_t *w, uint32_t gen)
{
	const compared *c = ctx;
	const spec_bitset *out[2];
	return codec_classify(side ? c->new_codec : c->old_codec, root, w, gen, out, 2) == 1
	           ? out[0]
	           : NULL;
}

static void ops_print(void *ctx, int side, const spec_root *root, const uint64_t *w,
                      uint32_t gen, char *buf, size_t len)
{
	const compared *c = ctx;
	codec_disasm_options o = {.gen = gen, .no_match = CODEC_NO_MATCH_MESA};
	codec_disasm_root(side ? c->new_codec : c->old_codec, root, w, &o, buf, len);
}

/* Loads and compares; false when either side is unusable or the
 * comparison could not run (the diagnostics say why). */
static bool compare_one(compared *c, const diff_input *in, size_t max_bytes,
                        const prove_options *opt)
{
	*c = (compared){.in = in};
	c->old_model = load_side(in->old_path, in->old_name, max_bytes, &c->old_diags);
	c->new_model = load_side(in->new_path, in->new_name, max_bytes, &c->new_diags);
	spec_diags_sort(&c->old_diags);
	spec_diags_sort(&c->new_diags);
	if (!c->old_model || !c->new_model)
		return false;
	spec_diags scratch = {0};
	c->old_codec = codec_new(c->old_model, &scratch);
	c->new_codec = codec_new(c->new_model, &scratch);
	spec_diags_free(&scratch);
	c->diffed = true;
	bool ok = diff_models(c->old_model, c->new_model, opt, &c->res, &c->diff_diags);
	if (ok && c->old_codec && c->new_codec) {
		diff_codec_ops ops = {.ctx = c, .leaf_of = ops_leaf_of, .print = ops_print,
		                      .default_root = codec_default_root(c->old_codec)
		                                          ? codec_default_root(c->old_codec)->bitset->name
		                                          : NULL};
		ok = diff_texts(c->old_model, c->new_model, opt, &ops, &c->res, &c->diff_diags);
	} else if (ok) {
		/* no printer, no proof of the text: unknown, never "no change" */
		c->res.any_unknown = true;
		spec_diag_add(&c->diff_diags, SPEC_WARNING, "diff-text",
		              (spec_loc){c->new_model->path, 0, 0},
		              "the printed text was not compared: a side's disassembler could not "
		              "be built (see lint)");
	}
	c->lint_introduced = lint_minus(&c->new_diags, c->new_model, &c->old_diags,
	                                c->old_model, &c->nlint_introduced);
	c->lint_fixed = lint_minus(&c->old_diags, c->old_model, &c->new_diags, c->new_model,
	                           &c->nlint_fixed);
	return ok && c->lint_introduced && c->lint_fixed;
}

static bool has_fatal(const spec_diags *d)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].severity == SPEC_FATAL)
			return true;
	return false;
}

static size_t new_findings(const compared *c)
{
	return c->res.noverlaps_introduced + c->res.naccounting_introduced + c->nlint_introduced;
}

static bool any_change(const compared *c)
{
	return !diff_is_empty(&c->res) || c->nlint_introduced || c->nlint_fixed;
}

/* ------------------------------------------------------------ printing */

static void hex_of(const uint64_t *w, unsigned size, char *buf, size_t len)
{
	prove_format_hex(w, size, buf, len);
}

/* The witness printed by a side's disassembler, when the leaf belongs to
 * its default root (other roots are bitset-typed operands: no line of
 * their own).  Empty when it cannot be printed. */
static void disasm_text(const codec *cd, const spec_bitset *root, const uint64_t *w,
                        uint32_t gen, char *buf, size_t len)
{
	buf[0] = 0;
	if (!cd || !codec_default_root(cd) || codec_default_root(cd)->bitset->size != root->size ||
	    strcmp(codec_default_root(cd)->bitset->name, root->name))
		return;
	uint32_t w32[SPEC_MAX_BITS / 32];
	unsigned n32 = (root->size + 31) / 32;
	for (unsigned i = 0; i < n32; i++)
		w32[i] = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
	codec_disasm_options o = {.gen = gen, .no_match = CODEC_NO_MATCH_MESA};
	codec_disasm_one(cd, w32, &o, buf, len);
}

static const spec_bitset *root_named(const spec_model *m, const char *name)
{
	const spec_root *r = spec_find_root(m, name);
	return r ? r->bitset : NULL;
}

/* The witness through both sides' disassemblers: a from OLD as a word of
 * root ro, b from NEW as one of rn (empty where a side has no such root
 * or cannot print it). */
static void disasm_pair(const compared *c, const spec_bitset *ro, const spec_bitset *rn,
                        const uint64_t *w, uint32_t gen, char *a, char *b, size_t len)
{
	a[0] = b[0] = 0;
	if (ro)
		disasm_text(c->old_codec, ro, w, gen, a, len);
	if (rn)
		disasm_text(c->new_codec, rn, w, gen, b, len);
}

/* A set of leaves as text: "'a'", "'a' + 'b' (ambiguous)", "nothing". */
static void leaves_text(const spec_bitset *const *l, size_t n, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	if (!n) {
		snprintf(buf, len, "nothing");
		return;
	}
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		int k = snprintf(buf + o, len - o, "%s'%s'", i ? " + " : "", l[i]->name);
		o += k > 0 ? (size_t)k : 0;
	}
	if (n > 1 && o + 1 < len)
		snprintf(buf + o, len - o, " (ambiguous)");
}

static void field_text(const spec_field *f, char *buf, size_t len)
{
	if (!f) {
		snprintf(buf, len, "none");
		return;
	}
	const char *type = f->type == SPEC_TYPE_ENUM && f->enm ? f->enm->name
	                   : f->type == SPEC_TYPE_BITSET && f->bitset ? f->bitset->name
	                   : f->type_name ? f->type_name : "";
	if (f->kind == SPEC_DERIVED)
		snprintf(buf, len, "derived %s = %s", type, f->expr ? spec_expr_text(f->expr)
		                                          : f->expr_name ? f->expr_name : "?");
	else if (f->kind == SPEC_ASSERT)
		snprintf(buf, len, "assert %u..%u", f->low, f->high);
	else if (f->low == f->high)
		snprintf(buf, len, "%s %u", type, f->low);
	else
		snprintf(buf, len, "%s %u..%u", type, f->low, f->high);
}

static const char *leaf_kind_name(diff_leaf_kind k)
{
	switch (k) {
	case DIFF_LEAF_ADDED: return "added";
	case DIFF_LEAF_REMOVED: return "removed";
	case DIFF_LEAF_RENAMED: return "renamed";
	case DIFF_LEAF_PATTERN: return "pattern";
	case DIFF_LEAF_GEN: return "gen";
	}
	return "?";
}

/* A leaf's merged pattern, most significant bit first: 0/1 pinned, x don't
 * care, '.' a field. */

/* A bitset's own <pattern> bits (not its ancestors'), over the root. */
static void own_pattern_text(const spec_bitset *b, char *buf, size_t len)
{
	size_t o = 0;
	for (unsigned i = b->size; i-- > 0 && o + 1 < len;)
		buf[o++] = !spec_bit(b->own_mask, i) && !spec_bit(b->own_dontcare, i) ? '.'
		           : spec_bit(b->own_dontcare, i) ? 'x' : spec_bit(b->own_match, i) ? '1' : '0';
	buf[o] = 0;
}

/* The bitset on a pattern-changed leaf's chain whose own pattern was
 * edited: the leaf's, else the nearest ancestor's (a shared parent). */
static void pattern_cause(const spec_bitset *o, const spec_bitset *n, const spec_bitset **co,
                          const spec_bitset **cn)
{
	char a[SPEC_MAX_BITS + 1], b[SPEC_MAX_BITS + 1];
	*co = o;
	*cn = n;
	for (; o && n && !strcmp(o->name, n->name); o = o->parent, n = n->parent) {
		own_pattern_text(o, a, sizeof a);
		own_pattern_text(n, b, sizeof b);
		if (strcmp(a, b)) {
			*co = o;
			*cn = n;
			return;
		}
	}
}

/* Expression text as one line: blanks squashed, ends trimmed. */
static void squash(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	bool blank = false;
	for (; s && *s && o + 2 < len; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			blank = o > 0;
			continue;
		}
		if (blank)
			buf[o++] = ' ';
		blank = false;
		buf[o++] = *s;
	}
	buf[o] = 0;
}

/* How leaf changes group: one line per edit.  Pattern changes group by
 * the bitset whose own pattern changed; the rest are one each. */
static bool leaf_rows_alike(const diff_leaf *x, const diff_leaf *y)
{
	if (x->kind != DIFF_LEAF_PATTERN || y->kind != DIFF_LEAF_PATTERN)
		return x == y;
	const spec_bitset *xo, *xn, *yo, *yn;
	pattern_cause(x->old_leaf, x->new_leaf, &xo, &xn);
	pattern_cause(y->old_leaf, y->new_leaf, &yo, &yn);
	return xn == yn && xo == yo;
}

static void field_key(const diff_field *d, char *buf, size_t len)
{
	char e[1024], a[1024], b[1024];
	squash(d->case_expr, e, sizeof e);
	field_text(d->old_field, a, sizeof a);
	field_text(d->new_field, b, sizeof b);
	snprintf(buf, len, "%s\x01%s\x01%s\x01%s", d->name, e, a, b);
}

static bool field_rows_alike(const diff_field *x, const diff_field *y)
{
	char a[4096], b[4096];
	field_key(x, a, sizeof a);
	field_key(y, b, sizeof b);
	return !strcmp(a, b);
}

/* Decoding rows group by root, gen and shape: one leaf to nothing,
 * nothing to one leaf, or the same leaf with other fields. */
static int decoding_shape(const diff_decoding *d)
{
	return d->fields_only ? 1 : d->nold == 1 && !d->nnew ? 2 : !d->nold && d->nnew == 1 ? 3 : 0;
}

static bool decoding_rows_alike(const diff_decoding *x, const diff_decoding *y)
{
	if (x == y)
		return true;
	int sx = decoding_shape(x);
	return sx && sx == decoding_shape(y) && !strcmp(x->root, y->root) &&
	       x->gen.min == y->gen.min && x->gen.max == y->gen.max;
}

/* Rows of one section grouped into edits: the rows alike to row i not
 * yet taken (done) go into idx; their number is returned. */
typedef bool (*rows_alike_fn)(const diff_result *r, size_t i, size_t j);

static size_t group_take(const diff_result *r, size_t nrows, rows_alike_fn alike, size_t i,
                         bool *done, size_t *idx)
{
	size_t n = 0;
	for (size_t j = i; j < nrows; j++)
		if (!done[j] && alike(r, i, j))
			done[j] = true, idx[n++] = j;
	return n;
}

/* Scratch for grouping any section of r: false when memory runs out. */
static bool group_buffers(const diff_result *r, size_t *nrows, size_t **idx, bool **done)
{
	*nrows = r->nleaves > r->nfields ? r->nleaves : r->nfields;
	if (r->ndecodings > *nrows)
		*nrows = r->ndecodings;
	*idx = calloc(*nrows + 1, sizeof **idx);
	*done = calloc(*nrows + 1, sizeof **done);
	if (*idx && *done)
		return true;
	free(*idx);
	free(*done);
	return false;
}

/* How many groups (edits) a section's rows make. */
static size_t group_count(const diff_result *r, size_t nrows, rows_alike_fn alike)
{
	size_t n = 0;
	for (size_t i = 0; i < nrows; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = !alike(r, j, i);
		n += first;
	}
	return n;
}

static bool leaf_rows(const diff_result *r, size_t i, size_t j)
{
	return leaf_rows_alike(&r->leaves[i], &r->leaves[j]);
}

static bool field_rows(const diff_result *r, size_t i, size_t j)
{
	return field_rows_alike(&r->fields[i], &r->fields[j]);
}

static bool decoding_rows(const diff_result *r, size_t i, size_t j)
{
	return decoding_rows_alike(&r->decodings[i], &r->decodings[j]);
}

/* Prints up to 8 names of a group's leaves and how many more. */
static void group_names(FILE *f, size_t n, size_t shown_max, const char *(*name_of)(const void *, size_t),
                        const void *ctx, const size_t *idx)
{
	size_t k = 0;
	for (; k < n && k < shown_max; k++)
		fprintf(f, "%s'%s'", k ? ", " : "", name_of(ctx, idx[k]));
	if (n > k)
		fprintf(f, " (+%zu more)", n - k);
}

static const char *leaf_row_name(const void *ctx, size_t i)
{
	const diff_leaf *d = &((const diff_result *)ctx)->leaves[i];
	return (d->new_leaf ? d->new_leaf : d->old_leaf)->name;
}

static const char *field_row_name(const void *ctx, size_t i)
{
	return ((const diff_result *)ctx)->fields[i].new_leaf->name;
}

static const char *decoding_row_name(const void *ctx, size_t i)
{
	const diff_decoding *d = &((const diff_result *)ctx)->decodings[i];
	return d->nnew ? d->new_leaves[0]->name : d->old_leaves[0]->name;
}

static const char *where(const spec_bitset *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", b->loc.file, b->loc.line);
	return buf;
}

static const char *engine_name(const prove_options *opt)
{
	return opt->engine == PROVE_ENGINE_Z3 ? "the Z3 solver" : "the cube engine";
}

/* The findings sections of the text: a heading, then one line each;
 * nothing when the list is empty. */
static void text_overlaps(FILE *f, const char *heading, const prove_overlap *const *l,
                          size_t n)
{
	char gen[48], hex[1200];
	if (n)
		fputs(heading, f);
	for (size_t i = 0; i < n; i++) {
		const prove_overlap *o = l[i];
		format_gen(o->gen, gen, sizeof gen);
		hex_of(o->witness, o->a->size, hex, sizeof hex);
		fprintf(f, "  %s:%u:%u: leaves '%s' and '%s' of root '%s' both match %s at gen %s\n",
		        o->a->loc.file, o->a->loc.line, o->a->loc.col, o->a->name, o->b->name,
		        o->root->bitset->name, hex, gen);
	}
}

static void text_accounting(FILE *f, const char *heading, const prove_accounting *const *l,
                            size_t n)
{
	char un[2048], db[2048];
	if (n)
		fputs(heading, f);
	for (size_t i = 0; i < n; i++) {
		const prove_accounting *a = l[i];
		prove_format_ranges(a->unaccounted, a->leaf->size, un, sizeof un);
		prove_format_ranges(a->doubly, a->leaf->size, db, sizeof db);
		fprintf(f, "  %s:%u:%u: leaf '%s':%s%s%s%s\n", a->leaf->loc.file, a->leaf->loc.line,
		        a->leaf->loc.col, a->leaf->name, *un ? " unaccounted bits " : "", un,
		        *db ? " bits claimed twice " : "", db);
	}
}

static void text_diags(FILE *f, const char *heading, const spec_diag *const *l, size_t n)
{
	if (n)
		fputs(heading, f);
	for (size_t i = 0; i < n; i++) {
		fputs("  ", f);
		print_diag_text(f, l[i]);
	}
}

/* a += b, as exact counts. */
static void count_sum(prove_count *a, const prove_count *b)
{
	unsigned carry = 0;
	for (size_t k = 0; k < sizeof a->w / sizeof *a->w; k++) {
		uint64_t x = a->w[k], s2 = x + b->w[k] + carry;
		carry = s2 < x || (carry && s2 == x);
		a->w[k] = s2;
	}
}

/* Text changes come grouped by what changed in the XML: the cause and
 * its places on both sides.  Whether texts i and j share a group. */
static bool same_cause(const diff_text *a, const diff_text *b)
{
	return a->verdict == b->verdict && !strcmp(a->cause, b->cause) &&
	       a->old_loc.line == b->old_loc.line && a->new_loc.line == b->new_loc.line &&
	       !strcmp(a->old_loc.file ? a->old_loc.file : "", b->old_loc.file ? b->old_loc.file : "") &&
	       !strcmp(a->new_loc.file ? a->new_loc.file : "", b->new_loc.file ? b->new_loc.file : "");
}

/* Whether text i is the first of its group. */
static bool cause_first(const diff_result *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_cause(&r->texts[j], &r->texts[i]))
			return false;
	return true;
}

/* A text change's witness for a same-leaf decoding row: a word of the
 * row (the leaf on both sides, a generation of its range) whose text
 * differs, to show rather than one that prints alike. */
static const diff_text *text_witness(const diff_result *r, const diff_decoding *d)
{
	for (size_t i = 0; i < r->ntexts; i++) {
		const diff_text *t = &r->texts[i];
		if (t->verdict == DIFF_TEXT_DIFFERS && d->nnew == 1 && t->new_leaf == d->new_leaves[0] &&
		    d->nold == 1 && t->old_leaf == d->old_leaves[0] && t->witness_gen >= d->gen.min &&
		    t->witness_gen <= d->gen.max)
			return t;
	}
	return NULL;
}

/* Whether the text section says anything of a same-leaf row's leaf:
 * when not, its words were proved to print alike. */
static bool text_entry(const diff_result *r, const diff_decoding *d)
{
	for (size_t i = 0; i < r->ntexts; i++)
		if (d->nnew == 1 && r->texts[i].new_leaf == d->new_leaves[0])
			return true;
	return false;
}

/* The number of edits the text section reports (its groups). */
static size_t diff_text_groups(const diff_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ntexts; i++)
		n += r->texts[i].verdict == DIFF_TEXT_DIFFERS && cause_first(r, i);
	return n;
}

static void loc_text(spec_loc l, char *buf, size_t len)
{
	if (l.file && l.line)
		snprintf(buf, len, "%s:%u", base_name(l.file), l.line);
	else
		snprintf(buf, len, "-");
}

/* The exact number of differing words of a group, when every pair in it
 * was counted: false otherwise. */
static bool cause_count(const diff_result *r, size_t i, prove_count *sum)
{
	*sum = (prove_count){0};
	for (size_t j = i; j < r->ntexts; j++) {
		if (!same_cause(&r->texts[j], &r->texts[i]))
			continue;
		if (!r->texts[j].counted)
			return false;
		count_sum(sum, &r->texts[j].words);
	}
	return true;
}

static void write_texts(FILE *f, const compared *c)
{
	const diff_result *r = &c->res;
	char lo[300], ln[300], gen[48], hex[1200], cnt[1400];
	fputs("text (words that decode to the same leaf on both sides):\n", f);
	for (size_t i = 0; i < r->ntexts; i++) {
		if (!cause_first(r, i))
			continue;
		const diff_text *t = &r->texts[i];
		loc_text(t->old_loc, lo, sizeof lo);
		loc_text(t->new_loc, ln, sizeof ln);
		fprintf(f, "  %s (%s -> %s)\n", t->cause, lo, ln);
		size_t nleaves = 0, shown = 0;
		for (size_t j = i; j < r->ntexts; j++)
			nleaves += same_cause(&r->texts[j], t);
		fprintf(f, "    %s %zu lea%s: ", t->verdict == DIFF_TEXT_DIFFERS ? "prints differently in"
		                                     : "[unknown] may print differently in",
		        nleaves, nleaves == 1 ? "f" : "ves");
		for (size_t j = i; j < r->ntexts && shown < 8; j++)
			if (same_cause(&r->texts[j], t))
				fprintf(f, "%s'%s'", shown++ ? ", " : "", r->texts[j].new_leaf->name);
		if (nleaves > shown)
			fprintf(f, " (+%zu more)", nleaves - shown);
		fputc('\n', f);
		prove_count sum;
		if (t->verdict == DIFF_TEXT_DIFFERS && cause_count(r, i, &sum)) {
			prove_count_format(&sum, cnt, sizeof cnt);
			fprintf(f, "    %s words per generation (every word enumerated)\n", cnt);
		}
		if (t->verdict == DIFF_TEXT_DIFFERS) {
			hex_of(t->witness, t->size, hex, sizeof hex);
			format_gen((spec_gen){t->witness_gen, t->witness_gen}, gen, sizeof gen);
			fprintf(f, "    e.g. %s '%s' %s at gen %s: \"%s\" -> \"%s\"\n", t->root,
			        t->new_leaf->name, hex, gen, t->old_text, t->new_text);
		} else {
			fputs("    no word found that prints differently, and no proof that none "
			      "does\n", f);
		}
	}
}

static void write_text_one(FILE *f, const compared *c, const prove_options *opt)
{
	const diff_result *r = &c->res;
	char a[4096], b[4096], w1[128], gen[48], gen2[48], hex[1200], cnt[1400];
	fprintf(f, "%s -> %s\n", c->in->old_name, c->in->new_name);
	if (!c->in->old_path)
		fprintf(f, "  (%s does not exist: compared with an empty spec)\n", c->in->old_name);
	if (!c->in->new_path)
		fprintf(f, "  (%s does not exist: compared with an empty spec)\n", c->in->new_name);
	if (!any_change(c)) {
		fprintf(f, "no change: both decode every word alike at every generation "
		           "(proved by %s)\n", engine_name(opt));
		return;
	}
	if (r->nroots) {
		fputs("roots:\n", f);
		for (size_t i = 0; i < r->nroots; i++) {
			const diff_root *d = &r->roots[i];
			if (!d->old_root)
				fprintf(f, "  added '%s' (%s, %u bits)\n", d->new_root->name,
				        where(d->new_root, w1, sizeof w1), d->new_root->size);
			else if (!d->new_root)
				fprintf(f, "  removed '%s' (%s)\n", d->old_root->name,
				        where(d->old_root, w1, sizeof w1));
			else
				fprintf(f, "  resized '%s' (%s): %u -> %u bits: words not compared\n",
				        d->new_root->name, where(d->new_root, w1, sizeof w1),
				        d->old_root->size, d->new_root->size);
		}
	}
	size_t nrows;
	size_t *idx;
	bool *done;
	if (!group_buffers(r, &nrows, &idx, &done)) {
		fputs("(out of memory)\n", f);
		return;
	}
	if (r->nleaves) {
		fputs("leaves:\n", f);
		memset(done, 0, (nrows + 1) * sizeof *done);
		for (size_t i = 0; i < r->nleaves; i++) {
			if (done[i])
				continue;
			size_t n = group_take(r, r->nleaves, leaf_rows, i, done, idx);
			const diff_leaf *d = &r->leaves[i];
			const spec_bitset *o = d->old_leaf, *nl = d->new_leaf, *any = nl ? nl : o;
			if (d->kind == DIFF_LEAF_PATTERN) {
				const spec_bitset *co, *cn;
				pattern_cause(o, nl, &co, &cn);
				own_pattern_text(co, a, sizeof a);
				own_pattern_text(cn, b, sizeof b);
				fprintf(f, "  pattern  '%s' (%s): %s -> %s", cn->name, where(cn, w1, sizeof w1),
				        a, b);
				if (n > 1 || cn != nl) {
					fprintf(f, ": %zu lea%s ", n, n == 1 ? "f" : "ves");
					group_names(f, n, 8, leaf_row_name, r, idx);
				}
				fputc('\n', f);
				continue;
			}
			fprintf(f, "  %-8s '%s'", leaf_kind_name(d->kind), (o ? o : nl)->name);
			if (d->kind == DIFF_LEAF_RENAMED) {
				fprintf(f, " -> '%s'", nl->name);
			} else if (d->kind == DIFF_LEAF_GEN) {
				format_gen(o->gen, gen, sizeof gen);
				format_gen(nl->gen, gen2, sizeof gen2);
				fprintf(f, ": gen %s -> %s", gen, gen2);
			}
			fprintf(f, " (%s, %s)\n", any->root->name, where(any, w1, sizeof w1));
		}
	}
	if (r->nfields) {
		fputs("fields:\n", f);
		memset(done, 0, (nrows + 1) * sizeof *done);
		for (size_t i = 0; i < r->nfields; i++) {
			if (done[i])
				continue;
			size_t n = group_take(r, r->nfields, field_rows, i, done, idx);
			const diff_field *d = &r->fields[i];
			char e[1024];
			squash(d->case_expr, e, sizeof e);
			field_text(d->old_field, a, sizeof a);
			field_text(d->new_field, b, sizeof b);
			if (n == 1) {
				fprintf(f, "  '%s' %s%s%s: %s -> %s (%s)\n", d->new_leaf->name, d->name,
				        d->case_expr ? " when " : "", e, a, b,
				        where(d->new_leaf, w1, sizeof w1));
				continue;
			}
			fprintf(f, "  %s%s%s: %s -> %s: %zu leaves ", d->name, d->case_expr ? " when " : "",
			        e, a, b, n);
			group_names(f, n, 8, field_row_name, r, idx);
			fputc('\n', f);
		}
	}
	if (r->ndecodings) {
		fprintf(f, "decoding (words per generation, proved by %s):\n", engine_name(opt));
		memset(done, 0, (nrows + 1) * sizeof *done);
		for (size_t i = 0; i < r->ndecodings; i++) {
			if (done[i])
				continue;
			size_t n = group_take(r, r->ndecodings, decoding_rows, i, done, idx);
			prove_count sum = {0};
			for (size_t k = 0; k < n; k++)
				count_sum(&sum, &r->decodings[idx[k]].words);
			const diff_decoding *d = &r->decodings[i];
			format_gen(d->gen, gen, sizeof gen);
			prove_count_format(&sum, cnt, sizeof cnt);
			/* a same-leaf row shows a word whose text differs, if any */
			const diff_text *tw = d->fields_only ? text_witness(r, d) : NULL;
			hex_of(tw ? tw->witness : d->witness, d->size, hex, sizeof hex);
			if (n > 1) {
				int shape = decoding_shape(d);
				fprintf(f, "  %s gen %s: %zu leaves %s: %s words, e.g. '%s' %s", d->root, gen, n,
				        shape == 1 ? "read their fields differently"
				        : shape == 2 ? "-> nothing" : "<- nothing (filled)",
				        cnt, decoding_row_name(r, i), hex);
			} else if (d->fields_only) {
				fprintf(f, "  %s gen %s: '%s' reads its fields differently: %s words, "
				        "e.g. %s", d->root, gen, d->new_leaves[0]->name, cnt, hex);
			} else {
				leaves_text(d->old_leaves, d->nold, a, sizeof a);
				leaves_text(d->new_leaves, d->nnew, b, sizeof b);
				fprintf(f, "  %s gen %s: %s -> %s: %s words, e.g. %s", d->root, gen, a, b,
				        cnt, hex);
			}
			if (tw) {
				fprintf(f, " (\"%s\" -> \"%s\")", tw->old_text, tw->new_text);
			} else {
				disasm_pair(c, root_named(c->old_model, d->root),
				            root_named(c->new_model, d->root), d->witness, d->witness_gen, a, b,
				            sizeof a);
				bool proved = d->fields_only && *a && !strcmp(a, b);
				for (size_t k = 0; proved && k < n; k++)
					proved = !text_entry(r, &r->decodings[idx[k]]);
				if (proved)
					fprintf(f, " (\"%s\": %s text is unchanged, proved)", a,
					        n == 1 ? "its" : "their");
				else if (*a || *b)
					fprintf(f, " (\"%s\" -> \"%s\")", a, b);
			}
			fputc('\n', f);
			if (n > 1) {
				fputs("    ", f);
				group_names(f, n, 8, decoding_row_name, r, idx);
				fputc('\n', f);
			}
		}
	}
	free(idx);
	free(done);
	if (r->nholes) {
		fputs("holes (words per generation):\n", f);
		for (size_t i = 0; i < r->nholes; i++) {
			const diff_holes *h = &r->holes[i];
			char c2[1400];
			format_gen(h->gen, gen, sizeof gen);
			prove_count_format(&h->opened, cnt, sizeof cnt);
			prove_count_format(&h->filled, c2, sizeof c2);
			fprintf(f, "  %s gen %s: %s opened, %s filled\n", h->root, gen, cnt, c2);
		}
	}
	if (r->ntexts)
		write_texts(f, c);
	text_overlaps(f, "overlaps introduced:\n", r->overlaps_introduced, r->noverlaps_introduced);
	text_overlaps(f, "overlaps fixed:\n", r->overlaps_fixed, r->noverlaps_fixed);
	text_accounting(f, "bit accounting problems introduced:\n", r->accounting_introduced,
	                r->naccounting_introduced);
	text_accounting(f, "bit accounting problems fixed:\n", r->accounting_fixed,
	                r->naccounting_fixed);
	text_diags(f, "lint findings introduced:\n", c->lint_introduced, c->nlint_introduced);
	text_diags(f, "lint findings fixed:\n", c->lint_fixed, c->nlint_fixed);
	fprintf(f, "summary: %zu root, %zu leaf, %zu field, %zu decoding, %zu text changes; "
	        "%zu new findings, %zu fixed\n", r->nroots, group_count(r, r->nleaves, leaf_rows), group_count(r, r->nfields, field_rows),
	        group_count(r, r->ndecodings, decoding_rows), diff_text_groups(r), new_findings(c),
	        r->noverlaps_fixed + r->naccounting_fixed + c->nlint_fixed);
}

/* ------------------------------------------------------------ Markdown */

/* Text for a table cell: no line breaks, '|' escaped, code spans safe. */
static void md_cell(FILE *f, const char *s, bool code)
{
	if (code)
		fputc('`', f);
	for (const char *p = s ? s : ""; *p; p++) {
		if (*p == '|')
			fputs("\\|", f);
		else if (*p == '`')
			fputc('\'', f);
		else if (*p == '\n' || *p == '\r')
			fputc(' ', f);
		else
			fputc(*p, f);
	}
	if (code)
		fputc('`', f);
}

/* One side of a leaf change: its name, and its gens when those changed. */
static void md_leaf_cell(FILE *f, const spec_bitset *leaf, diff_leaf_kind kind)
{
	char gen[48];
	if (!leaf)
		return;
	md_cell(f, leaf->name, true);
	if (kind == DIFF_LEAF_GEN) {
		format_gen(leaf->gen, gen, sizeof gen);
		fprintf(f, " gen %s", gen);
	}
}

/* A group's leaves in a table cell: a few inline, all of them folded
 * in <details> when there are more. */
static void md_names(FILE *f, size_t n, const char *(*name_of)(const void *, size_t),
                     const void *ctx, const size_t *idx)
{
	if (n > 3)
		fprintf(f, "<details><summary>%zu leaves</summary>", n);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : "", f);
		md_cell(f, name_of(ctx, idx[k]), true);
	}
	if (n > 3)
		fputs("</details>", f);
}

/* Text changes for a merge-request comment: one item per edit, its
 * witness printed old and new, the leaves it affects folded away. */
static void md_texts(FILE *f, const compared *c)
{
	const diff_result *r = &c->res;
	char lo[300], ln[300], hex[1200], cnt[1400];
	fputs("#### What instructions print\n\n", f);
	for (size_t i = 0; i < r->ntexts; i++) {
		if (!cause_first(r, i))
			continue;
		const diff_text *t = &r->texts[i];
		loc_text(t->old_loc, lo, sizeof lo);
		loc_text(t->new_loc, ln, sizeof ln);
		size_t nleaves = 0;
		for (size_t j = i; j < r->ntexts; j++)
			nleaves += same_cause(&r->texts[j], t);
		fputs("- ", f);
		md_cell(f, t->cause, false);
		fprintf(f, " (%s → %s)", lo, ln);
		if (t->verdict == DIFF_TEXT_DIFFERS) {
			hex_of(t->witness, t->size, hex, sizeof hex);
			fprintf(f, "\n  - `%s` `%s` prints ", t->new_leaf->name, hex);
			md_cell(f, t->old_text, true);
			fputs(" → ", f);
			md_cell(f, t->new_text, true);
			prove_count sum;
			if (cause_count(r, i, &sum)) {
				prove_count_format(&sum, cnt, sizeof cnt);
				fprintf(f, " (%s words per generation)", cnt);
			}
		} else {
			fputs("\n  - **unknown**: no word found that prints differently, and no proof "
			      "that none does", f);
		}
		fputs("\n  - ", f);
		if (nleaves > 3)
			fprintf(f, "<details><summary>%zu leaves</summary>", nleaves);
		size_t shown = 0;
		for (size_t j = i; j < r->ntexts; j++)
			if (same_cause(&r->texts[j], t)) {
				fputs(shown++ ? ", " : "", f);
				md_cell(f, r->texts[j].new_leaf->name, true);
			}
		fputs(nleaves > 3 ? "</details>\n" : "\n", f);
	}
	fputc('\n', f);
}

static void write_markdown_one(FILE *f, const compared *c, const prove_options *opt)
{
	const diff_result *r = &c->res;
	char a[4096], b[4096], gen[48], hex[1200], cnt[1400];
	fputs("### isacheck diff: ", f);
	md_cell(f, c->in->old_name, true);
	fputs(" → ", f);
	md_cell(f, c->in->new_name, true);
	fputs("\n\n", f);
	if (!any_change(c)) {
		fprintf(f, "No change: both versions decode every word alike at every generation "
		           "(proved by %s).\n\n", engine_name(opt));
		return;
	}
	size_t nf = new_findings(c);
	fprintf(f, "%s**%zu new finding%s**, %zu fixed · %zu leaf, %zu field, %zu decoding and "
	        "%zu text changes (proved by %s)\n\n", nf ? ":x: " : ":white_check_mark: ", nf,
	        nf == 1 ? "" : "s", r->noverlaps_fixed + r->naccounting_fixed + c->nlint_fixed,
	        group_count(r, r->nleaves, leaf_rows), group_count(r, r->nfields, field_rows), group_count(r, r->ndecodings, decoding_rows), diff_text_groups(r),
	        engine_name(opt));
	if (nf) {
		fputs("#### New findings\n\n", f);
		for (size_t i = 0; i < r->noverlaps_introduced; i++) {
			const prove_overlap *o = r->overlaps_introduced[i];
			format_gen(o->gen, gen, sizeof gen);
			hex_of(o->witness, o->a->size, hex, sizeof hex);
			fprintf(f, "- overlap: `%s` and `%s` (root `%s`) both match `%s` at gen %s "
			        "(%s:%u)\n", o->a->name, o->b->name, o->root->bitset->name, hex, gen,
			        base_name(o->a->loc.file), o->a->loc.line);
		}
		for (size_t i = 0; i < r->naccounting_introduced; i++) {
			const prove_accounting *x = r->accounting_introduced[i];
			prove_format_ranges(x->unaccounted, x->leaf->size, a, sizeof a);
			prove_format_ranges(x->doubly, x->leaf->size, b, sizeof b);
			fprintf(f, "- bits of `%s`:%s%s%s%s (%s:%u)\n", x->leaf->name,
			        *a ? " unaccounted " : "", a, *b ? " claimed twice " : "", b,
			        base_name(x->leaf->loc.file), x->leaf->loc.line);
		}
		for (size_t i = 0; i < c->nlint_introduced; i++) {
			const spec_diag *d = c->lint_introduced[i];
			fprintf(f, "- %s `%s`: ", d->severity == SPEC_WARNING ? "warning" : "error",
			        d->rule);
			md_cell(f, d->message, false);
			fprintf(f, " (%s:%u)\n", base_name(d->loc.file), d->loc.line);
		}
		fputc('\n', f);
	}
	size_t nrows;
	size_t *idx;
	bool *done;
	if (!group_buffers(r, &nrows, &idx, &done)) {
		fputs("(out of memory)\n", f);
		return;
	}
	if (r->nleaves) {
		fputs("#### Leaves\n\n| change | root | old | new | leaves |\n|---|---|---|---|---|\n", f);
		for (size_t i = 0; i < r->nleaves; i++) {
			if (done[i])
				continue;
			size_t n = group_take(r, r->nleaves, leaf_rows, i, done, idx);
			const diff_leaf *d = &r->leaves[i];
			const spec_bitset *any = d->new_leaf ? d->new_leaf : d->old_leaf;
			fprintf(f, "| %s | ", leaf_kind_name(d->kind));
			md_cell(f, any->root->name, true);
			fputs(" | ", f);
			if (d->kind == DIFF_LEAF_PATTERN) {
				const spec_bitset *co, *cn;
				pattern_cause(d->old_leaf, d->new_leaf, &co, &cn);
				own_pattern_text(co, a, sizeof a);
				own_pattern_text(cn, b, sizeof b);
				md_cell(f, cn->name, true);
				fputs(" ", f);
				md_cell(f, a, true);
				fputs(" | ", f);
				md_cell(f, b, true);
			} else {
				md_leaf_cell(f, d->old_leaf, d->kind);
				fputs(" | ", f);
				md_leaf_cell(f, d->new_leaf, d->kind);
			}
			fputs(" | ", f);
			md_names(f, n, leaf_row_name, r, idx);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	if (r->nfields) {
		fputs("#### Fields\n\n| field | old | new | leaves |\n|---|---|---|---|\n", f);
		memset(done, 0, (nrows + 1) * sizeof *done);
		for (size_t i = 0; i < r->nfields; i++) {
			if (done[i])
				continue;
			size_t n = group_take(r, r->nfields, field_rows, i, done, idx);
			const diff_field *d = &r->fields[i];
			char e[1024];
			squash(d->case_expr, e, sizeof e);
			field_text(d->old_field, a, sizeof a);
			field_text(d->new_field, b, sizeof b);
			fputs("| ", f);
			md_cell(f, d->name, true);
			if (d->case_expr) {
				fputs(" when ", f);
				md_cell(f, e, true);
			}
			fputs(" | ", f);
			md_cell(f, a, false);
			fputs(" | ", f);
			md_cell(f, b, false);
			fputs(" | ", f);
			md_names(f, n, field_row_name, r, idx);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	if (r->ndecodings) {
		fputs("#### Words whose decoding changes (per generation)\n\n"
		      "| root | gen | old | new | words | e.g. |\n|---|---|---|---|---:|---|\n", f);
		memset(done, 0, (nrows + 1) * sizeof *done);
		for (size_t i = 0; i < r->ndecodings; i++) {
			if (done[i])
				continue;
			size_t n = group_take(r, r->ndecodings, decoding_rows, i, done, idx);
			prove_count sum = {0};
			for (size_t k = 0; k < n; k++)
				count_sum(&sum, &r->decodings[idx[k]].words);
			const diff_decoding *d = &r->decodings[i];
			format_gen(d->gen, gen, sizeof gen);
			prove_count_format(&sum, cnt, sizeof cnt);
			const diff_text *tw = d->fields_only ? text_witness(r, d) : NULL;
			hex_of(tw ? tw->witness : d->witness, d->size, hex, sizeof hex);
			fputs("| ", f);
			md_cell(f, d->root, true);
			fprintf(f, " | %s | ", gen);
			if (n > 1) {
				md_names(f, n, decoding_row_name, r, idx);
				fputs(d->fields_only ? " | same leaves, fields read differently" : " | ", f);
				if (!d->fields_only)
					fputs(decoding_shape(d) == 2 ? "nothing" : "(their leaves)", f);
			} else {
				leaves_text(d->old_leaves, d->nold, a, sizeof a);
				if (d->fields_only)
					snprintf(b, sizeof b, "same leaf, fields read differently");
				else
					leaves_text(d->new_leaves, d->nnew, b, sizeof b);
				md_cell(f, a, false);
				fputs(" | ", f);
				md_cell(f, b, false);
			}
			fprintf(f, " | %s | `%s`", cnt, hex);
			if (tw) {
				fputs(" ", f);
				md_cell(f, tw->old_text, true);
				fputs(" → ", f);
				md_cell(f, tw->new_text, true);
			} else {
				disasm_pair(c, root_named(c->old_model, d->root),
				            root_named(c->new_model, d->root), d->witness, d->witness_gen, a, b,
				            sizeof a);
				if (*a || *b) {
					fputs(" ", f);
					md_cell(f, a, true);
					fputs(" → ", f);
					md_cell(f, b, true);
				}
			}
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	free(idx);
	free(done);
	if (r->nholes) {
		fputs("#### Holes (words no leaf matches, per generation)\n\n"
		      "| root | gen | opened | filled |\n|---|---|---:|---:|\n", f);
		for (size_t i = 0; i < r->nholes; i++) {
			const diff_holes *h = &r->holes[i];
			char c2[1400];
			format_gen(h->gen, gen, sizeof gen);
			prove_count_format(&h->opened, cnt, sizeof cnt);
			prove_count_format(&h->filled, c2, sizeof c2);
			fputs("| ", f);
			md_cell(f, h->root, true);
			fprintf(f, " | %s | %s | %s |\n", gen, cnt, c2);
		}
		fputc('\n', f);
	}
	if (r->ntexts)
		md_texts(f, c);
	size_t fixed = r->noverlaps_fixed + r->naccounting_fixed + c->nlint_fixed;
	if (fixed) {
		fputs("#### Fixed\n\n", f);
		for (size_t i = 0; i < r->noverlaps_fixed; i++) {
			const prove_overlap *o = r->overlaps_fixed[i];
			fprintf(f, "- overlap of `%s` and `%s` (root `%s`)\n", o->a->name, o->b->name,
			        o->root->bitset->name);
		}
		for (size_t i = 0; i < r->naccounting_fixed; i++)
			fprintf(f, "- bit accounting of `%s`\n", r->accounting_fixed[i]->leaf->name);
		for (size_t i = 0; i < c->nlint_fixed; i++) {
			fprintf(f, "- `%s`: ", c->lint_fixed[i]->rule);
			md_cell(f, c->lint_fixed[i]->message, false);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

/* ---------------------------------------------------------------- JSON */

static void json_leaf_ref(FILE *f, const spec_bitset *b)
{
	if (!b) {
		fputs("null", f);
		return;
	}
	fputs("{\"name\":", f);
	json_string(f, b->name);
	fputs(",\"file\":", f);
	json_string(f, b->loc.file);
	fprintf(f, ",\"line\":%u,\"gen\":", b->loc.line);
	json_gen(f, b->gen);
	fputc('}', f);
}

static void json_field(FILE *f, const spec_field *x)
{
	if (!x) {
		fputs("null", f);
		return;
	}
	static const char *const kinds[] = {[SPEC_FIELD] = "field", [SPEC_DERIVED] = "derived",
	                                    [SPEC_ASSERT] = "assert"};
	fprintf(f, "{\"kind\":\"%s\",\"low\":%u,\"high\":%u,\"type\":", kinds[x->kind], x->low,
	        x->high);
	json_string(f, x->type == SPEC_TYPE_ENUM && x->enm ? x->enm->name
	               : x->type == SPEC_TYPE_BITSET && x->bitset ? x->bitset->name
	               : x->type_name);
	if (x->kind == SPEC_DERIVED) {
		fputs(",\"expr\":", f);
		json_string(f, x->expr ? spec_expr_text(x->expr) : x->expr_name);
	}
	fputc('}', f);
}

static void json_names(FILE *f, const spec_bitset *const *l, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_string(f, l[i]->name);
	}
	fputc(']', f);
}

static void json_text_pair(FILE *f, const compared *c, const spec_bitset *ro,
                           const spec_bitset *rn, const uint64_t *w, uint32_t gen)
{
	char a[4096], b[4096];
	disasm_pair(c, ro, rn, w, gen, a, b, sizeof a);
	fputs(",\"old_text\":", f);
	json_string_or_null(f, *a ? a : NULL);
	fputs(",\"new_text\":", f);
	json_string_or_null(f, *b ? b : NULL);
}

static void json_overlaps(FILE *f, const prove_overlap *const *l, size_t n)
{
	char hex[1200];
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		const prove_overlap *o = l[i];
		hex_of(o->witness, o->a->size, hex, sizeof hex);
		fputs(i ? ",{\"root\":" : "{\"root\":", f);
		json_string(f, o->root->bitset->name);
		fputs(",\"leaves\":[", f);
		json_leaf_ref(f, o->a);
		fputc(',', f);
		json_leaf_ref(f, o->b);
		fputs("],\"gen\":", f);
		json_gen(f, o->gen);
		fputs(",\"witness\":", f);
		json_string(f, hex);
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_accounting(FILE *f, const prove_accounting *const *l, size_t n)
{
	char un[2048], db[2048];
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		const prove_accounting *x = l[i];
		prove_format_ranges(x->unaccounted, x->leaf->size, un, sizeof un);
		prove_format_ranges(x->doubly, x->leaf->size, db, sizeof db);
		fputs(i ? ",{\"root\":" : "{\"root\":", f);
		json_string(f, x->leaf->root->name);
		fputs(",\"leaf\":", f);
		json_leaf_ref(f, x->leaf);
		fputs(",\"unaccounted\":", f);
		json_string(f, un);
		fputs(",\"doubly\":", f);
		json_string(f, db);
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_diags(FILE *f, const spec_diag *const *l, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		print_diag_json(f, l[i]);
	}
	fputc(']', f);
}

/* {"file":..,"line":..}, or null for no place. */
static void json_place(FILE *f, spec_loc l)
{
	if (!l.file || !l.line) {
		fputs("null", f);
		return;
	}
	fputs("{\"file\":", f);
	json_string(f, l.file);
	fprintf(f, ",\"line\":%u}", l.line);
}

static void write_json_one(FILE *f, const compared *c)
{
	const diff_result *r = &c->res;
	char hex[1200], cnt[1400];
	fputs("{\"old\":", f);
	json_string(f, c->in->old_name);
	fputs(",\"new\":", f);
	json_string(f, c->in->new_name);
	fprintf(f, ",\"old_exists\":%s,\"new_exists\":%s,\"changed\":%s,\"queries\":%zu",
	        c->in->old_path ? "true" : "false", c->in->new_path ? "true" : "false",
	        any_change(c) ? "true" : "false", r->queries);
	fputs(",\n \"roots\":[", f);
	for (size_t i = 0; i < r->nroots; i++) {
		const diff_root *d = &r->roots[i];
		fputs(i ? ",{\"change\":" : "{\"change\":", f);
		json_string(f, !d->old_root ? "added" : !d->new_root ? "removed" : "resized");
		fputs(",\"name\":", f);
		json_string(f, (d->new_root ? d->new_root : d->old_root)->name);
		fprintf(f, ",\"old_size\":%u,\"new_size\":%u}", d->old_root ? d->old_root->size : 0,
		        d->new_root ? d->new_root->size : 0);
	}
	fputs("],\n \"leaves\":[", f);
	for (size_t i = 0; i < r->nleaves; i++) {
		const diff_leaf *d = &r->leaves[i];
		fputs(i ? ",\n  {\"change\":" : "\n  {\"change\":", f);
		json_string(f, leaf_kind_name(d->kind));
		fputs(",\"root\":", f);
		json_string(f, (d->new_leaf ? d->new_leaf : d->old_leaf)->root->name);
		fputs(",\"old\":", f);
		json_leaf_ref(f, d->old_leaf);
		fputs(",\"new\":", f);
		json_leaf_ref(f, d->new_leaf);
		fputc('}', f);
	}
	fputs("],\n \"fields\":[", f);
	for (size_t i = 0; i < r->nfields; i++) {
		const diff_field *d = &r->fields[i];
		fputs(i ? ",\n  {\"leaf\":" : "\n  {\"leaf\":", f);
		json_string(f, d->new_leaf->name);
		fputs(",\"old_leaf\":", f);
		json_string(f, d->old_leaf->name);
		fputs(",\"field\":", f);
		json_string(f, d->name);
		fputs(",\"case\":", f);
		json_string_or_null(f, d->case_expr);
		fputs(",\"old\":", f);
		json_field(f, d->old_field);
		fputs(",\"new\":", f);
		json_field(f, d->new_field);
		fputc('}', f);
	}
	fputs("],\n \"decodings\":[", f);
	for (size_t i = 0; i < r->ndecodings; i++) {
		const diff_decoding *d = &r->decodings[i];
		prove_count_format(&d->words, cnt, sizeof cnt);
		hex_of(d->witness, d->size, hex, sizeof hex);
		fputs(i ? ",\n  {\"root\":" : "\n  {\"root\":", f);
		json_string(f, d->root);
		fputs(",\"gen\":", f);
		json_gen(f, d->gen);
		fputs(",\"old\":", f);
		json_names(f, d->old_leaves, d->nold);
		fputs(",\"new\":", f);
		json_names(f, d->new_leaves, d->nnew);
		fprintf(f, ",\"fields_only\":%s,\"words\":\"%s\",\"witness\":\"%s\","
		        "\"witness_gen\":%" PRIu32, d->fields_only ? "true" : "false", cnt, hex,
		        d->witness_gen);
		json_text_pair(f, c, root_named(c->old_model, d->root),
		               root_named(c->new_model, d->root), d->witness, d->witness_gen);
		fputc('}', f);
	}
	fputs("],\n \"holes\":[", f);
	for (size_t i = 0; i < r->nholes; i++) {
		const diff_holes *h = &r->holes[i];
		char c2[1400];
		prove_count_format(&h->opened, cnt, sizeof cnt);
		prove_count_format(&h->filled, c2, sizeof c2);
		fputs(i ? ",{\"root\":" : "{\"root\":", f);
		json_string(f, h->root);
		fputs(",\"gen\":", f);
		json_gen(f, h->gen);
		fprintf(f, ",\"opened\":\"%s\",\"filled\":\"%s\"}", cnt, c2);
	}
	fputs("],\n \"displays\":[", f);
	for (size_t i = 0; i < r->ndisplays; i++) {
		const diff_display *d = &r->displays[i];
		fputs(i ? ",\n  {\"old_leaf\":" : "\n  {\"old_leaf\":", f);
		json_leaf_ref(f, d->old_leaf);
		fputs(",\"new_leaf\":", f);
		json_leaf_ref(f, d->new_leaf);
		fputs(",\"old_template\":", f);
		json_string_or_null(f, d->old_text);
		fputs(",\"new_template\":", f);
		json_string_or_null(f, d->new_text);
		fputs(",\"witness\":", f);
		if (d->witness) {
			hex_of(d->witness, d->new_leaf->size, hex, sizeof hex);
			json_string(f, hex);
			fprintf(f, ",\"witness_gen\":%" PRIu32, d->witness_gen);
			json_text_pair(f, c, d->old_leaf->root, d->new_leaf->root, d->witness,
			               d->witness_gen);
		} else {
			fputs("null", f);
		}
		fputc('}', f);
	}
	fputs("],\n \"texts\":[", f);
	for (size_t i = 0; i < r->ntexts; i++) {
		const diff_text *t = &r->texts[i];
		fputs(i ? ",\n  {\"root\":" : "\n  {\"root\":", f);
		json_string(f, t->root);
		fputs(",\"gen\":", f);
		json_gen(f, t->gen);
		fputs(",\"old_leaf\":", f);
		json_leaf_ref(f, t->old_leaf);
		fputs(",\"new_leaf\":", f);
		json_leaf_ref(f, t->new_leaf);
		fprintf(f, ",\"verdict\":\"%s\",\"cause\":",
		        t->verdict == DIFF_TEXT_DIFFERS ? "differs" : "unknown");
		json_string(f, t->cause);
		fputs(",\"old_at\":", f);
		json_place(f, t->old_loc);
		fputs(",\"new_at\":", f);
		json_place(f, t->new_loc);
		fputs(",\"words\":", f);
		if (t->counted) {
			prove_count_format(&t->words, cnt, sizeof cnt);
			fprintf(f, "\"%s\"", cnt);
		} else {
			fputs("null", f);
		}
		fputs(",\"witness\":", f);
		if (t->verdict == DIFF_TEXT_DIFFERS) {
			hex_of(t->witness, t->size, hex, sizeof hex);
			json_string(f, hex);
			fprintf(f, ",\"witness_gen\":%" PRIu32 ",\"old_text\":", t->witness_gen);
			json_string(f, t->old_text);
			fputs(",\"new_text\":", f);
			json_string(f, t->new_text);
		} else {
			fputs("null", f);
		}
		fputc('}', f);
	}
	fputs("],\n \"overlaps\":{\"introduced\":", f);
	json_overlaps(f, r->overlaps_introduced, r->noverlaps_introduced);
	fputs(",\"fixed\":", f);
	json_overlaps(f, r->overlaps_fixed, r->noverlaps_fixed);
	fputs("},\n \"accounting\":{\"introduced\":", f);
	json_accounting(f, r->accounting_introduced, r->naccounting_introduced);
	fputs(",\"fixed\":", f);
	json_accounting(f, r->accounting_fixed, r->naccounting_fixed);
	fputs("},\n \"lint\":{\"introduced\":", f);
	json_diags(f, c->lint_introduced, c->nlint_introduced);
	fputs(",\"fixed\":", f);
	json_diags(f, c->lint_fixed, c->nlint_fixed);
	fputs("}}", f);
}

/* --------------------------------------------------------------- SARIF */

/* SARIF goes through report_write_sarif: NEW with only the findings OLD
 * did not have (errors, as `isacheck check` reports them), and every
 * change as a diff-* note at the leaf it concerns. */
typedef struct sarif_side {
	spec_diags diags;
	prove_result result;
	prove_overlap *ov;
	prove_accounting *acct;
} sarif_side;

static void sarif_notes(spec_diags *d, const compared *c)
{
	const diff_result *r = &c->res;
	char a[4096], b[4096], gen[48], hex[1200], cnt[1400];
	for (size_t i = 0; i < r->nleaves; i++) {
		const diff_leaf *x = &r->leaves[i];
		const spec_bitset *l = x->new_leaf ? x->new_leaf : x->old_leaf;
		spec_diag_add(d, SPEC_WARNING, RULE_DIFF_LEAF, l->loc, "leaf '%s' %s%s%s%s",
		              (x->old_leaf ? x->old_leaf : l)->name, leaf_kind_name(x->kind),
		              x->kind == DIFF_LEAF_RENAMED ? " to '" : "",
		              x->kind == DIFF_LEAF_RENAMED ? x->new_leaf->name : "",
		              x->kind == DIFF_LEAF_RENAMED ? "'" : "");
	}
	for (size_t i = 0; i < r->nfields; i++) {
		const diff_field *x = &r->fields[i];
		field_text(x->old_field, a, sizeof a);
		field_text(x->new_field, b, sizeof b);
		spec_diag_add(d, SPEC_WARNING, RULE_DIFF_FIELD,
		              x->new_field ? x->new_field->loc : x->new_leaf->loc,
		              "field %s of leaf '%s': %s -> %s", x->name, x->new_leaf->name, a, b);
	}
	for (size_t i = 0; i < r->ndecodings; i++) {
		const diff_decoding *x = &r->decodings[i];
		format_gen(x->gen, gen, sizeof gen);
		prove_count_format(&x->words, cnt, sizeof cnt);
		hex_of(x->witness, x->size, hex, sizeof hex);
		leaves_text(x->old_leaves, x->nold, a, sizeof a);
		leaves_text(x->new_leaves, x->nnew, b, sizeof b);
		const spec_bitset *at = x->nnew ? x->new_leaves[0]
		                        : root_named(c->new_model, x->root);
		spec_loc loc = at ? at->loc : (spec_loc){c->in->new_name, 0, 0};
		if (x->fields_only)
			spec_diag_add(d, SPEC_WARNING, RULE_DIFF_DECODING, loc,
			              "%s words of root '%s' at gen %s decode to %s with other fields, "
			              "e.g. %s", cnt, x->root, gen, b, hex);
		else
			spec_diag_add(d, SPEC_WARNING, RULE_DIFF_DECODING, loc,
			              "%s words of root '%s' at gen %s decoded to %s and now to %s, "
			              "e.g. %s", cnt, x->root, gen, a, b, hex);
	}
	for (size_t i = 0; i < r->ntexts; i++) {
		const diff_text *x = &r->texts[i];
		spec_loc at = x->new_loc.line ? x->new_loc : x->new_leaf->loc;
		if (x->verdict == DIFF_TEXT_DIFFERS)
			spec_diag_add(d, SPEC_WARNING, RULE_DIFF_DISPLAY, at,
			              "'%s' prints \"%s\" where it printed \"%s\" (%s)",
			              x->new_leaf->name, x->new_text, x->old_text, x->cause);
		else
			spec_diag_add(d, SPEC_WARNING, RULE_DIFF_DISPLAY, at,
			              "'%s' may print differently (%s): unknown", x->new_leaf->name,
			              x->cause);
	}
}

static void copy_diag(spec_diags *to, const spec_diag *x)
{
	spec_diag_add(to, x->severity, x->rule, x->loc, "%s", x->message);
}

static void copy_fatal_diags(spec_diags *to, const spec_diags *from)
{
	for (size_t k = 0; k < from->count; k++)
		if (from->items[k].severity == SPEC_FATAL)
			copy_diag(to, &from->items[k]);
}

static bool sarif_side_init(sarif_side *s, const compared *c)
{
	*s = (sarif_side){0};
	const diff_result *r = &c->res;
	for (size_t i = 0; i < c->nlint_introduced; i++)
		copy_diag(&s->diags, c->lint_introduced[i]);
	sarif_notes(&s->diags, c);
	s->ov = calloc(r->noverlaps_introduced + 1, sizeof *s->ov);
	s->acct = calloc(r->naccounting_introduced + 1, sizeof *s->acct);
	if (!s->ov || !s->acct)
		return false;
	for (size_t i = 0; i < r->noverlaps_introduced; i++)
		s->ov[i] = *r->overlaps_introduced[i];
	for (size_t i = 0; i < r->naccounting_introduced; i++)
		s->acct[i] = *r->accounting_introduced[i];
	s->result = (prove_result){.overlaps = s->ov, .noverlaps = r->noverlaps_introduced,
	                           .accounting = s->acct,
	                           .naccounting = r->naccounting_introduced};
	return true;
}

static void sarif_side_free(sarif_side *s)
{
	spec_diags_free(&s->diags);
	free(s->ov);
	free(s->acct);
}

static void write_sarif(FILE *f, const compared *cs, size_t n, const prove_options *opt,
                        int exit_code)
{
	sarif_side *sides = calloc(n + 1, sizeof *sides);
	report_file *rf = calloc(n + 1, sizeof *rf);
	if (sides && rf) {
		for (size_t i = 0; i < n; i++) {
			bool usable = cs[i].diffed && sarif_side_init(&sides[i], &cs[i]);
			if (!usable) { /* unusable input: its fatal diagnostics, no model */
				copy_fatal_diags(&sides[i].diags, &cs[i].new_diags);
				copy_fatal_diags(&sides[i].diags, &cs[i].old_diags);
			}
			rf[i] = (report_file){cs[i].in->new_name, usable ? cs[i].new_model : NULL,
			                      &sides[i].diags, usable ? &sides[i].result : NULL, NULL};
		}
		report r = {"diff", rf, n, NULL, NULL, NULL, opt->engine, exit_code};
		report_write_sarif(f, &r);
	}
	for (size_t i = 0; sides && i < n; i++)
		sarif_side_free(&sides[i]);
	free(sides);
	free(rf);
}

/* ----------------------------------------------------------------- main */

int cmd_diff(int argc, char **argv)
{
	prove_options opt = prove_default_options();
	const char *format = "text", *output = NULL, *rev = NULL;
	bool ci = false, options_done = false;
	size_t max_bytes = 0;
	char **args = calloc((size_t)argc + 1, sizeof *args);
	int nargs = 0;
	if (!args)
		return EXIT_UNUSABLE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (options_done || a[0] != '-' || !strcmp(a, "-")) {
			args[nargs++] = argv[i];
		} else if (!strcmp(a, "--")) {
			options_done = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(diff_usage, stdout);
			free(args);
			return EXIT_CLEAN;
		} else if (!strncmp(a, "--format=", 9)) {
			format = a + 9;
			ok = !strcmp(format, "text") || !strcmp(format, "json") ||
			     !strcmp(format, "sarif") || !strcmp(format, "markdown");
		} else if (!strncmp(a, "--solver=", 9)) {
			if (!strcmp(a + 9, "z3"))
				opt.engine = PROVE_ENGINE_Z3;
			else if (!strcmp(a + 9, "cube"))
				opt.engine = PROVE_ENGINE_CUBE;
			else
				ok = false;
		} else if (!strncmp(a, "--timeout=", 10)) {
			ok = parse_uint_arg(a + 10, &opt.timeout_ms);
		} else if (!strncmp(a, "--time-limit=", 13)) {
			ok = parse_uint_arg(a + 13, &opt.time_limit_s);
		} else if (!strncmp(a, "--rlimit=", 9)) {
			ok = parse_uint_arg(a + 9, &opt.rlimit);
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			ok = spec_parse_size(a + 16, &max_bytes);
		} else if (!strncmp(a, "--output=", 9) && a[9]) {
			output = a + 9;
		} else if (!strncmp(a, "--git=", 6) && a[6] && a[6] != '-') {
			rev = a + 6;
		} else if (!strcmp(a, "--git") && i + 1 < argc && argv[i + 1][0] != '-') {
			rev = argv[++i];
		} else if (!strcmp(a, "--fail-on=new-findings")) {
			ci = true;
		} else if (!strcmp(a, "--fail-on=changes")) {
			ci = false;
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "isacheck diff: bad option '%s'\n%s", a, diff_usage);
			free(args);
			return EXIT_UNUSABLE;
		}
	}
	if (rev ? nargs < 1 : nargs != 2) {
		fprintf(stderr, "isacheck diff: %s\n%s",
		        rev ? "no FILE given" : "give OLD and NEW (or --git=REV FILE...)", diff_usage);
		free(args);
		return EXIT_UNUSABLE;
	}
	char why[512];
	if (opt.engine == PROVE_ENGINE_Z3 && !prove_z3_available(why, sizeof why)) {
		fprintf(stderr, "isacheck diff: %s; use --solver=cube\n", why);
		free(args);
		return EXIT_UNUSABLE;
	}
	/* The holes of the proofs are not shown here: skip growing them. */
	opt.max_holes = 0;

	inputs in = {.max_bytes = max_bytes};
	char err[1024] = "";
	bool ok = true;
	if (rev) {
		for (int i = 0; i < nargs && ok; i++)
			ok = inputs_git(&in, rev, args[i], err, sizeof err);
	} else if (is_dir(args[0]) != is_dir(args[1])) {
		snprintf(err, sizeof err, "%s and %s: give two files or two folders", args[0],
		         args[1]);
		ok = false;
	} else if (is_dir(args[0])) {
		ok = inputs_folders(&in, args[0], args[1]);
		if (ok && !in.n) {
			snprintf(err, sizeof err, "%s, %s: no XML files", args[0], args[1]);
			ok = false;
		}
	} else {
		ok = inputs_add(&in, args[0], args[1], args[0], args[1]);
	}
	free(args);
	if (!ok) {
		fprintf(stderr, "isacheck diff: error: %s\n", *err ? err : "out of memory");
		inputs_free(&in);
		return EXIT_UNUSABLE;
	}

	compared *cs = calloc(in.n + 1, sizeof *cs);
	if (!cs) {
		inputs_free(&in);
		return EXIT_UNUSABLE;
	}
	/* an --output that is one of the specs read is refused before reading */
	const char **paths = calloc(2 * in.n + 1, sizeof *paths);
	output_file o;
	for (size_t i = 0; paths && i < in.n; i++) {
		paths[2 * i] = in.items[i].old_path;
		paths[2 * i + 1] = in.items[i].new_path;
	}
	if (!paths || !output_open(&o, "diff", output, false, paths, 2 * in.n)) {
		free(paths);
		free(cs);
		inputs_free(&in);
		return EXIT_UNUSABLE;
	}
	free(paths);
	bool unusable = false, changes = false, findings = false, unknown = false;
	for (size_t i = 0; i < in.n; i++) {
		bool done = compare_one(&cs[i], &in.items[i], in.max_bytes, &opt);
		if (!done || has_fatal(&cs[i].old_diags) || has_fatal(&cs[i].new_diags) ||
		    has_fatal(&cs[i].diff_diags)) {
			unusable = true;
			/* an unusable side's reasons, on standard error in every format */
			print_fatal_diags(stderr, &cs[i].old_diags);
			print_fatal_diags(stderr, &cs[i].new_diags);
			print_fatal_diags(stderr, &cs[i].diff_diags);
			if (cs[i].diffed) {
				diff_result_free(&cs[i].res);
				cs[i].diffed = false;
			}
			continue;
		}
		changes |= any_change(&cs[i]);
		findings |= new_findings(&cs[i]) > 0;
		unknown |= cs[i].res.any_unknown;
	}
	int code = unusable ? EXIT_UNUSABLE
	           : (ci ? findings : changes) ? EXIT_FINDINGS
	           : unknown ? EXIT_UNKNOWN : EXIT_CLEAN;

	FILE *out = o.f;
	if (!strcmp(format, "sarif")) {
		write_sarif(out, cs, in.n, &opt, code);
	} else if (!strcmp(format, "json")) {
		fprintf(out, "{\"version\":1,\"tool\":\"isacheck\",\"command\":\"diff\","
		        "\"engine\":\"%s\",\"comparisons\":[",
		        opt.engine == PROVE_ENGINE_Z3 ? "z3" : "cube");
		size_t shown = 0;
		for (size_t i = 0; i < in.n; i++)
			if (cs[i].diffed) {
				fputs(shown++ ? ",\n" : "\n", out);
				write_json_one(out, &cs[i]);
			}
		size_t nch = 0, nnew = 0;
		for (size_t i = 0; i < in.n; i++)
			if (cs[i].diffed) {
				nch += any_change(&cs[i]);
				nnew += new_findings(&cs[i]);
			}
		fprintf(out, "\n],\"summary\":{\"changed\":%zu,\"new_findings\":%zu,\"unknown\":%s},"
		        "\"exit_code\":%d}\n", nch, nnew, unknown ? "true" : "false", code);
	} else {
		for (size_t i = 0; i < in.n; i++) {
			if (!cs[i].diffed)
				continue;
			if (!strcmp(format, "markdown"))
				write_markdown_one(out, &cs[i], &opt);
			else
				write_text_one(out, &cs[i], &opt);
		}
		if (unknown && !strcmp(format, "text"))
			fputs("unknown: the solver could not decide everything; see the diagnostics\n",
			      out);
	}
	/* limits reached, solver disagreements: why an answer is unknown */
	for (size_t i = 0; i < in.n; i++)
		for (size_t k = 0; cs[i].diffed && k < cs[i].diff_diags.count; k++)
			print_diag_text(stderr, &cs[i].diff_diags.items[k]);
	/* the expression proofs need Z3, which the cube engine runs without */
	if (unknown && !prove_z3_available(why, sizeof why))
		fprintf(stderr, "isacheck diff: note: %s: changed expressions were not proved\n", why);
	if (!output_commit(&o))
		code = EXIT_UNUSABLE;
	for (size_t i = 0; i < in.n; i++)
		compared_free(&cs[i]);
	free(cs);
	inputs_free(&in);
	return code;
}
