/*
 * triage_cmd.c - `isacheck triage SPEC INPUT...`: read vendor binaries,
 * hex dumps and vector TSVs, triage every instruction (src/triage), and
 * report what the spec does not explain: a text summary, the full
 * results as JSON, and a self-contained HTML report (triage_html.c).
 *
 * Inputs are read whole (at most MAX_INPUT_BYTES each) and told apart by
 * extension, else by content: bytes that are not text make a binary; a
 * first line with tabs and a "hex..." column makes a TSV; other text is
 * hex, one instruction per line or whole dumps (8-digit words, low word
 * first, across lines), through the same parser as `disasm --hex`
 * (the readers: triage_input.c).
 * Instructions go to the triage through a triage_queue, which decodes
 * them on -j threads; the report is the same for any number.
 */
#include "cli.h"
#include "codec.h"
#include "triage.h"
#include "triage_input.h"
#include "triage_report.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INPUT_BYTES (256u << 20)
#define MAX_DIR_DEPTH 16

static const char triage_usage[] =
	"usage: isacheck triage SPEC [options] INPUT...\n"
	"  triage instructions a vendor compiler emitted: which decode, which do not\n"
	"  (no match, ambiguous, don't-care or reserved bits set, assert mismatch, enum\n"
	"  value missing; in whole programs, data the framing marks unexplained),\n"
	"  clustered by situation\n"
	"INPUT: a file or a directory (every file below it, by name); '-' reads standard input\n"
	"  binary  raw little-endian instructions (one shader per file)\n"
	"  hex     text: 8-digit words low word first (whole dumps across lines), or whole\n"
	"          instructions high word first ('c0600000_00e18001'); '#', ';', '//'\n"
	"          start comments, 'ADDR:' tokens are skipped\n"
	"  tsv     a header line naming a hex_words (or hex) column, as ../shared's vectors\n"
	"options:\n"
	"  --gen=N            generation to decode for (required when SPEC has <gen>, unless\n"
	"                     a TSV gives it per row)\n"
	"  --gen-column=NAME  TSV column holding each row's generation: a number, or a family\n"
	"                     as 'a6xx' (default decoder_gpu_id, else gpu_gen)\n"
	"  --root=NAME        decode against this root (default #instruction, else the widest)\n"
	"  --program[=NAME]   each input (file, or TSV row) is one whole program, cut into\n"
	"                     instructions by SPEC's <program> (the default when SPEC has one)\n"
	"  --no-program       read instructions of one root even when SPEC has a <program>\n"
	"  --input=auto|bin|hex|tsv  how to read the inputs (default auto)\n"
	"  --format=text|json what to print (default text)\n"
	"  --output=FILE      write it to FILE instead of standard output\n"
	"  --json=FILE        also write the full results as JSON\n"
	"  --html=FILE        also write a self-contained HTML report with bit heatmaps\n"
	"  --top=N            clusters shown in the text (default 10) and HTML (default 500);\n"
	"                     0..1000000\n"
	"  --nearest=N        nearest leaves kept per unmatched word (default 3); 1..16\n"
	"  --examples=N       example instructions kept per cluster (default 3); 1..100\n"
	"  -j N, --jobs=N     threads decoding at once (default %u: the cores it may run\n"
	"                     on, as nproc counts); the results are the same for any N\n"
	"  --no-cache         parse SPEC's files, bypassing the cache of parsed files\n"
	"                     (docs/cache.md)\n"
	"  --max-spec-size=SIZE  read up to SIZE bytes of SPEC's XML (K, M, G; default\n"
	"                     64M, at most 1G); element and memory budgets grow with it\n"
	"exit: 0 everything explained, 1 unexplained instructions found, 2 unusable input\n";

/* ------------------------------------------------------------- input */

static char *read_whole(const char *path, size_t *len, char *err, size_t errlen)
{
	char why[600];
	FILE *f = input_open_err(path, "rb", why, sizeof why);
	if (!f) {
		snprintf(err, errlen, "%s: error: %s", path, why);
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		if (n == cap) {
			if (cap >= MAX_INPUT_BYTES) {
				snprintf(err, errlen, "%s: error: larger than %u bytes", path, MAX_INPUT_BYTES);
				free(buf);
				buf = NULL;
				break;
			}
			cap *= 2;
			char *p = realloc(buf, cap + 1);
			if (!p) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (!buf && !*err)
		snprintf(err, errlen, "%s: error: out of memory", path);
	if (buf && ferror(f)) {
		snprintf(err, errlen, "%s: error: cannot read: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

static bool triage_file(triage_run *r, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	err[0] = 0;
	char *buf = read_whole(path, &len, err, errlen);
	if (!buf)
		return false;
	bool ok = triage_read_buffer(r, path, buf, len, err, errlen);
	free(buf);
	return ok;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every regular file below dir, in name order, dot files left out. */
static bool triage_dir(triage_run *r, const char *dir, int depth, char *err, size_t errlen)
{
	if (depth > MAX_DIR_DEPTH) {
		snprintf(err, errlen, "%s: error: directories nested deeper than %d", dir, MAX_DIR_DEPTH);
		return false;
	}
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: error: cannot read: %s", dir, strerror(errno));
		return false;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	for (struct dirent *de; ok && (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **p = realloc(names, cap * sizeof *p);
			if (!p) {
				ok = false;
				break;
			}
			names = p;
		}
		size_t l = strlen(dir) + strlen(de->d_name) + 2;
		names[n] = malloc(l);
		if (!names[n]) {
			ok = false;
			break;
		}
		snprintf(names[n], l, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		n++;
	}
	closedir(d);
	if (!ok)
		snprintf(err, errlen, "%s: error: out of memory", dir);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; ok && i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			ok = triage_dir(r, names[i], depth + 1, err, errlen);
		else if (S_ISREG(st.st_mode))
			ok = triage_file(r, names[i], err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

static bool triage_input(triage_run *r, const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return triage_dir(r, path, 0, err, errlen);
	return triage_file(r, path, err, errlen);
}

/* ------------------------------------------------------------ command */

static bool write_to(const char *path, const triage_report *rep,
                     void (*fn)(FILE *, const triage_report *), const char *const *inputs,
                     size_t ninputs)
{
	output_file o;
	if (!output_open(&o, "triage", path, false, inputs, ninputs))
		return false;
	fn(o.f, rep);
	return output_commit(&o);
}

int cmd_triage(int argc, char **argv)
{
	const char *spec_path = NULL, *root_name = NULL, *output = NULL, *json_path = NULL,
	           *html_path = NULL;
	unsigned long gen = 0, top = 0, nearest = 0, examples = 0;
	bool json = false, have_top = false, no_program = false, no_cache = false;
	size_t max_bytes = 0;
	unsigned jobs = default_jobs(TRIAGE_MAX_JOBS);
	const char *program = NULL; /* --program: "" for the spec's only one */
	triage_run r = {.cmd = "triage", .gen_column = "decoder_gpu_id"};
	const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
	size_t ninputs = 0;
	if (!inputs)
		return EXIT_UNUSABLE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf(triage_usage, default_jobs(TRIAGE_MAX_JOBS));
			free(inputs);
			return EXIT_CLEAN;
		} else if (!strncmp(a, "--gen=", 6)) {
			ok = parse_ulong_arg(a + 6, UINT32_MAX, &gen);
			r.have_gen = true;
		} else if (!strncmp(a, "--gen-column=", 13) && a[13]) {
			r.gen_column = a + 13;
			r.gen_column_given = true;
		} else if (!strncmp(a, "--root=", 7) && a[7]) {
			root_name = a + 7;
		} else if (!strcmp(a, "--program") || !strncmp(a, "--program=", 10)) {
			program = a[9] ? a + 10 : "";
		} else if (!strcmp(a, "--no-program")) {
			no_program = true;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = true;
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			ok = spec_parse_size(a + 16, &max_bytes);
		} else if (!strcmp(a, "--format=text")) {
			json = false;
		} else if (!strcmp(a, "--format=json")) {
			json = true;
		} else if (!strncmp(a, "--output=", 9) && a[9]) {
			output = a + 9;
		} else if (!strncmp(a, "--json=", 7) && a[7]) {
			json_path = a + 7;
		} else if (!strncmp(a, "--html=", 7) && a[7]) {
			html_path = a + 7;
		} else if (!strncmp(a, "--top=", 6)) {
			ok = parse_ulong_arg(a + 6, 1000000, &top);
			have_top = true;
		} else if (!strncmp(a, "--nearest=", 10)) {
			ok = parse_ulong_arg(a + 10, 16, &nearest) && nearest > 0;
		} else if (!strncmp(a, "--examples=", 11)) {
			ok = parse_ulong_arg(a + 11, 100, &examples) && examples > 0;
		} else if (!strncmp(a, "--input=", 8)) {
			const char *k = a + 8;
			r.kind = !strcmp(k, "auto") ? INPUT_AUTO : !strcmp(k, "bin") ? INPUT_BIN
			         : !strcmp(k, "hex") ? INPUT_HEX : !strcmp(k, "tsv") ? INPUT_TSV
			         : (input_kind)-1;
			ok = (int)r.kind >= 0;
		} else if (!strncmp(a, "--jobs=", 7) || !strncmp(a, "-j", 2)) {
			const char *bad = parse_jobs_arg(argc, argv, &i, TRIAGE_MAX_JOBS, &jobs);
			if (bad) {
				if (*bad)
					fprintf(stderr, "isacheck triage: bad number of jobs '%s': give 1..%u "
					        "(-j N, -jN or --jobs=N)\n", bad, TRIAGE_MAX_JOBS);
				else
					fprintf(stderr, "isacheck triage: '%s' needs a number of jobs, 1..%u\n",
					        a, TRIAGE_MAX_JOBS);
				free(inputs);
				return EXIT_UNUSABLE;
			}
		} else if (a[0] == '-' && a[1]) {
			ok = false;
		} else if (!spec_path) {
			spec_path = a;
		} else {
			inputs[ninputs++] = a;
		}
		if (!ok) {
			fprintf(stderr, "isacheck triage: bad argument '%s'\n", a);
			fprintf(stderr, triage_usage, default_jobs(TRIAGE_MAX_JOBS));
			free(inputs);
			return EXIT_UNUSABLE;
		}
	}
	if (!spec_path || !ninputs) {
		fputs("isacheck triage: give SPEC and at least one INPUT\n", stderr);
		fprintf(stderr, triage_usage, default_jobs(TRIAGE_MAX_JOBS));
		free(inputs);
		return EXIT_UNUSABLE;
	}
	r.gen = (uint32_t)gen;

	int rc = EXIT_UNUSABLE;
	spec_diags diags = {0};
	/* no report may overwrite what it reads: the spec or an input */
	inputs[ninputs] = spec_path;
	output_file o;
	if (!output_open(&o, "triage", output, false, inputs, ninputs + 1)) {
		free(inputs);
		return EXIT_UNUSABLE;
	}
	FILE *out = o.f;
	char cache[4096];
	spec_load_options lo = {.cache_dir = cache_dir_for(no_cache, cache, sizeof cache),
	                        .max_bytes = max_bytes};
	r.m = spec_load_with(spec_path, &lo, &diags);
	if (!r.m) {
		spec_diags_sort(&diags);
		print_fatal_diags(stderr, &diags);
		goto done;
	}
	r.c = codec_new(r.m, &diags);
	if (!r.c) {
		print_fatal_diags(stderr, &diags); /* codec_new says why */
		fprintf(stderr, "isacheck triage: cannot build a codec for '%s'\n", spec_path);
		goto done;
	}
	r.root = root_name ? spec_find_root(r.m, root_name) : codec_default_root(r.c);
	if (!r.root) {
		fprintf(stderr, "isacheck triage: '%s' has no root '%s'\n", spec_path,
		        root_name ? root_name : "#instruction");
		goto done;
	}
	for (size_t i = 0; i < r.m->nbitsets; i++)
		r.spec_has_gen |= r.m->bitsets[i]->has_gen;
	/* whole programs when asked, or by default when the spec frames them */
	if (program || (!no_program && !root_name && spec_program_count(r.m))) {
		r.prog = spec_find_program(r.m, program && *program ? program : NULL);
		if (r.prog && refuse_bad_program("triage", &diags))
			goto done;
		if (!r.prog) {
			if (program && *program)
				fprintf(stderr, "isacheck triage: '%s' has no <program name=\"%s\">\n",
				        spec_path, program);
			else if (!spec_program_count(r.m))
				fprintf(stderr, "isacheck triage: '%s' has no <program>: it cannot frame "
				        "whole programs\n", spec_path);
			else
				fprintf(stderr, "isacheck triage: '%s' has %zu programs: name one with "
				        "--program=NAME\n", spec_path, spec_program_count(r.m));
			goto done;
		}
	}
	char err[1024];
	if (r.have_gen && !triage_check_gen(&r, r.gen, "isacheck triage", err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		goto done;
	}
	r.iw = (r.root->bitset->size + 31) / 32;
	triage_options topt = {.nearest_max = (unsigned)nearest, .examples = (unsigned)examples};
	r.t = triage_new(r.c, &topt);
	r.q = r.t ? triage_queue_new(r.t, jobs) : NULL;
	if (!r.q) {
		fprintf(stderr, "isacheck triage: out of memory\n");
		goto done;
	}
	for (size_t i = 0; i < ninputs; i++)
		if (!triage_input(&r, inputs[i], err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			goto done;
		}
	if (!triage_queue_flush(r.q)) {
		fprintf(stderr, "isacheck triage: out of memory\n");
		goto done;
	}
	triage_finish(r.t);

	triage_report rep = {
		.t = r.t, .spec_path = spec_path, .root = r.root,
		.gen = r.have_gen ? (int64_t)r.gen : -1,
		.top_text = have_top ? (size_t)top : 10, .top_html = have_top ? (size_t)top : 500,
		.program = r.prog ? r.prog->name : NULL, .frame_errors = r.frame_errors,
	};
	if (json)
		triage_write_json(out, &rep);
	else
		triage_write_text(out, &rep);
	if (json_path && !write_to(json_path, &rep, triage_write_json, inputs, ninputs + 1))
		goto done;
	if (html_path && !write_to(html_path, &rep, triage_write_html, inputs, ninputs + 1))
		goto done;
	rc = triage_get_summary(r.t).unexplained || r.frame_errors ? EXIT_FINDINGS : EXIT_CLEAN;
done:
	if (rc == EXIT_UNUSABLE)
		output_abort(&o); /* no half report over an old one */
	else if (!output_commit(&o))
		rc = EXIT_UNUSABLE;
	triage_queue_free(r.q);
	triage_free(r.t);
	codec_free(r.c);
	spec_model_free(r.m);
	spec_diags_free(&diags);
	free(inputs);
	return rc;
}
