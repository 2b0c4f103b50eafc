/* prove_cmd.c - `isacheck prove` (proofs) and `isacheck check` (lint,
 * then proofs): the one command users and CI run. */
#include "cli.h"
#include "report.h"

#include "codec.h"
#include "prove_ops.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char prove_usage[] =
	"usage: isacheck %s [options] FILE...\n"
	"  %s\n"
	"options:\n"
	"  --format=text|json|sarif|codequality   output format (default text)\n"
	"  --output=FILE        write the report to FILE instead of standard output\n"
	"  --solver=cube|z3     cube: exact mask algebra (default); z3: every query\n"
	"                       through the Z3 solver\n"
	"  --timeout=MS         Z3 time limit per query (default 10000; 0 none)\n"
	"  --time-limit=S       Z3 time for each FILE (default 600; 0 none): once\n"
	"                       spent, the questions not asked are unknown (exit 3)\n"
	"  --rlimit=N           Z3 resource limit per query (default none)\n"
	"  --allow=FILE         accepted overlaps (format: docs/prove.md)\n"
	"  --import-dir=DIR     also allow imports from DIR (default: only the spec's\n"
	"                       own folder and below); may be repeated\n"
	"  --no-cache           parse every file, bypassing the cache of parsed files\n"
	"                       (docs/cache.md)\n"
	"  --max-spec-size=SIZE read up to SIZE bytes of XML (K, M, G; default 64M, at\n"
	"                       most 1G); the element and memory budgets grow with it\n"
	"  --holes=N            largest unallocated cubes listed per interval (default 8);\n"
	"                       0..10000\n"
	"  --semantic           also prove what instructions mean, with Z3: every\n"
	"                       <override> holds for some word and decides what it\n"
	"                       defines (rules override-dead, override-shadowed),\n"
	"                       every enum value can be printed (enum-value-dead), no\n"
	"                       expression overflows, divides by 0 or shifts out of\n"
	"                       range, no derived value loses bits to its width\n"
	"                       (expr-overflow, expr-divide-by-zero, expr-shift-range,\n"
	"                       derived-value-lost), every <assert> can hold\n"
	"                       (assert-never-holds), a leaf's text gives its word\n"
	"                       back (display-same-text), the encoder gives every word\n"
	"                       of a leaf back (roundtrip-lost); semantic-unknown where\n"
	"                       Z3 cannot decide: exit 3)\n"
	"  --printer=mesa|afuc  whose text the display proof models (default mesa):\n"
	"                       mesa: Mesa's isa_disasm, which leaves a custom field to\n"
	"                       its caller, so a display printing one is unknown;\n"
	"                       afuc: afuc-disasm without its register database, as\n"
	"                       `disasm --no-match=afuc` prints ({CONTROLREG} and\n"
	"                       {SQEREG} as 0x%%03x, other custom fields as nothing)\n"
	"  -j N, --jobs=N       files checked at once (default %u: the cores it may run\n"
	"                       on, as nproc counts), or, for one file, its display\n"
	"                       proofs' threads; the report is the same for any N\n"
	"%s"
	"exit: 0 proved, 1 findings, 2 unusable input or bad usage, 3 unknown (solver)\n";

/* Keeps the diagnostics a command shows: all for check (less --ignore);
 * for prove the fatal ones, those that mean the loader changed the
 * encoding space the proofs are of (spec_rule_changes_matching: a bad
 * <gen> is proved as no <gen>), and every diagnostic of the prover
 * itself, items from the first-th on (a coverage limit). */
static void filter_diags(spec_diags *d, bool lint, const char *ignore, size_t first)
{
	size_t k = 0;
	for (size_t i = 0; i < d->count; i++) {
		spec_diag *x = &d->items[i];
		bool keep = x->severity == SPEC_FATAL ||
		            (lint ? !(ignore && rule_in_list(ignore, x->rule))
		                  : spec_rule_changes_matching(x->rule) || i >= first);
		if (keep) {
			d->items[k++] = *x;
		} else {
			free(x->message);
			free((char *)x->loc.file);
		}
	}
	d->count = k;
}

static int exit_code_of(const report *r)
{
	bool unusable = false, findings = false, unknown = false;
	if (r->allow_diags)
		for (size_t i = 0; i < r->allow_diags->count; i++) {
			unusable |= r->allow_diags->items[i].severity == SPEC_FATAL;
			findings = true;
		}
	for (size_t f = 0; f < r->nfiles; f++) {
		const report_file *rf = &r->files[f];
		if (!rf->model) {
			unusable = true;
			continue;
		}
		for (size_t i = 0; i < rf->diags->count; i++) {
			/* an undecided meaning proof is unknown, not a finding */
			if (!strcmp(rf->diags->items[i].rule, "semantic-unknown"))
				unknown = true;
			else
				findings = true;
		}
		const prove_result *pr = rf->result;
		if (!pr)
			continue;
		for (size_t i = 0; i < pr->noverlaps; i++) {
			if (pr->overlaps[i].unknown)
				unknown = true;
			else if (!pr->overlaps[i].allowed_by)
				findings = true;
		}
		for (size_t i = 0; i < pr->naccounting; i++) {
			if (pr->accounting[i].unknown)
				unknown = true;
			else
				findings = true;
		}
		findings |= pr->nstale > 0;
		unknown |= pr->any_unknown;
	}
	return unusable ? EXIT_UNUSABLE : findings ? EXIT_FINDINGS : unknown ? EXIT_UNKNOWN
	                                                                     : EXIT_CLEAN;
}

/* The files of one run, checked by one or more threads: each file's
 * model, diagnostics and result have their own slot, so the report,
 * written once all are done, is the same whatever the number of jobs. */
typedef struct check_run {
	char **files;
	int nfiles;
	const spec_load_options *load_opt;
	const prove_options *opt;
	bool lint, semantic;
	const char *ignore;
	spec_diags *diags;
	spec_model **models;
	prove_result *results;
	semantic_stats *semantic_stats; /* per file, for --semantic */
	report_file *rf;
	atomic_int next;
} check_run;

bool prove_with_codec(const spec_model *m, const struct codec *cd, const prove_options *opt,
                      spec_diags *diags, semantic_stats *st, bool displays_only)
{
	prove_text_ops ops = prove_codec_ops(cd);
	prove_options o = *opt;
	o.text = cd ? &ops : NULL;
	return displays_only ? prove_displays(m, &o, diags, st) : prove_semantic(m, &o, diags, st);
}

/* prove_semantic with the codec of model m to confirm witnesses with. */
static bool prove_meaning(const spec_model *m, const prove_options *opt, spec_diags *diags,
                          semantic_stats *st)
{
	spec_diags scratch = {0};
	codec *cd = codec_new(m, &scratch);
	spec_diags_free(&scratch);
	bool ok = prove_with_codec(m, cd, opt, diags, st, false);
	codec_free(cd);
	return ok;
}

static void check_file(check_run *c, int i)
{
	c->models[i] = spec_load_with(c->files[i], c->load_opt, &c->diags[i]);
	if (c->lint)
		lint_printing(c->models[i], &c->diags[i]);
	bool proved = false;
	size_t loaded = c->diags[i].count;
	if (c->models[i])
		proved = prove_model(c->models[i], c->opt, &c->results[i], &c->diags[i]);
	if (proved && c->semantic)
		proved = prove_meaning(c->models[i], c->opt, &c->diags[i], &c->semantic_stats[i]);
	filter_diags(&c->diags[i], c->lint, c->ignore, loaded);
	spec_diags_sort(&c->diags[i]);
	if (c->models[i] && !proved) { /* the solver or memory failed: unusable */
		spec_model_free(c->models[i]);
		c->models[i] = NULL;
	}
	c->rf[i] = (report_file){c->files[i], c->models[i], &c->diags[i],
	                         c->models[i] ? &c->results[i] : NULL,
	                         c->models[i] && c->semantic ? &c->semantic_stats[i] : NULL};
}

static void *check_worker(void *arg)
{
	check_run *c = arg;
	for (int i; (i = atomic_fetch_add(&c->next, 1)) < c->nfiles;)
		check_file(c, i);
	return NULL;
}

/* Checks every file with up to jobs threads (this one among them); a
 * thread that cannot be started leaves its share to the others. */
static void check_files(check_run *c, unsigned jobs)
{
	if (jobs > (unsigned)c->nfiles)
		jobs = (unsigned)c->nfiles;
	if (jobs > 256)
		jobs = 256;
	pthread_t tid[256];
	unsigned started = 0;
	if (jobs > 1)
		spec_load_prepare();
	for (unsigned j = 1; j < jobs; j++)
		if (!pthread_create(&tid[started], NULL, check_worker, c))
			started++;
	check_worker(c);
	for (unsigned j = 0; j < started; j++)
		pthread_join(tid[j], NULL);
}

int cmd_prove(int argc, char **argv, bool lint)
{
	const char *cmd = lint ? "check" : "prove";
	const char *what = lint ? "lint each FILE, then prove it unambiguous and fully accounted for"
	                        : "prove each FILE unambiguous and fully accounted for, and measure "
	                          "its coverage";
	const char *extra = lint ? "  --ignore=RULE[,RULE...]  drop lint findings of these rules\n" : "";
	prove_options opt = prove_default_options();
	const char *format = "text", *allow_path = NULL, *output = NULL, *ignore = NULL;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	int nfiles = 0;
	const char **import_dirs = calloc((size_t)argc + 1, sizeof *import_dirs);
	spec_load_options load_opt = {.import_dirs = import_dirs};
	char cache_buf[4096];
	bool no_cache = false;
	if (!files || !import_dirs) {
		free(files);
		free(import_dirs);
		return EXIT_UNUSABLE;
	}
	bool options_done = false, semantic = false;
	unsigned jobs = default_jobs(256);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (options_done || a[0] != '-' || !strcmp(a, "-")) {
			files[nfiles++] = argv[i];
		} else if (!strcmp(a, "--")) {
			options_done = true;
		} else if (!strncmp(a, "--jobs=", 7) || !strncmp(a, "-j", 2)) {
			ok = !parse_jobs_arg(argc, argv, &i, 256, &jobs);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf(prove_usage, cmd, what, default_jobs(256), extra);
			free(files);
			free(import_dirs);
			return EXIT_CLEAN;
		} else if (!strcmp(a, "--semantic")) {
			semantic = true;
		} else if (!strncmp(a, "--printer=", 10)) {
			ok = parse_printer_arg(a + 10, &opt);
		} else if (!strncmp(a, "--format=", 9)) {
			format = a + 9;
			ok = !strcmp(format, "text") || !strcmp(format, "json") ||
			     !strcmp(format, "sarif") || !strcmp(format, "codequality");
		} else if (!strncmp(a, "--solver=", 9)) {
			if (!strcmp(a + 9, "z3"))
				opt.engine = PROVE_ENGINE_Z3;
			else if (!strcmp(a + 9, "cube") || !strcmp(a + 9, "auto"))
				opt.engine = PROVE_ENGINE_CUBE;
			else
				ok = false;
		} else if (!strncmp(a, "--timeout=", 10)) {
			ok = parse_uint_arg(a + 10, &opt.timeout_ms);
		} else if (!strncmp(a, "--time-limit=", 13)) {
			ok = parse_uint_arg(a + 13, &opt.time_limit_s);
		} else if (!strncmp(a, "--rlimit=", 9)) {
			ok = parse_uint_arg(a + 9, &opt.rlimit);
		} else if (!strncmp(a, "--holes=", 8)) {
			ok = parse_uint_arg(a + 8, &opt.max_holes) && opt.max_holes <= 10000;
		} else if (!strncmp(a, "--allow=", 8) && a[8]) {
			allow_path = a + 8;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = true;
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			ok = spec_parse_size(a + 16, &load_opt.max_bytes);
		} else if (!strncmp(a, "--import-dir=", 13) && a[13]) {
			import_dirs[load_opt.nimport_dirs++] = a + 13;
		} else if (!strncmp(a, "--output=", 9) && a[9]) {
			output = a + 9;
		} else if (lint && !strncmp(a, "--ignore=", 9)) {
			ignore = a + 9;
			for (const char *p = ignore; ok && p && *p;) {
				const char *q = strchr(p, ',');
				char rule[64];
				snprintf(rule, sizeof rule, "%.*s", (int)(q ? (size_t)(q - p) : strlen(p)), p);
				ok = spec_rule_find(rule) != NULL;
				p = q ? q + 1 : NULL;
			}
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "isacheck %s: bad option '%s'\n", cmd, a);
			fprintf(stderr, prove_usage, cmd, what, default_jobs(256), extra);
			free(files);
			free(import_dirs);
			return EXIT_UNUSABLE;
		}
	}
	load_opt.cache_dir = cache_dir_for(no_cache, cache_buf, sizeof cache_buf);
	if (!nfiles) {
		fprintf(stderr, "isacheck %s: no FILE given\n", cmd);
		fprintf(stderr, prove_usage, cmd, what, default_jobs(256), extra);
		free(files);
		free(import_dirs);
		return EXIT_UNUSABLE;
	}
	char why[512];
	if ((opt.engine == PROVE_ENGINE_Z3 || semantic) && !prove_z3_available(why, sizeof why)) {
		fprintf(stderr, "isacheck %s: %s; %s\n", cmd, why,
		        semantic ? "--semantic needs it" : "use --solver=cube");
		free(files);
		free(import_dirs);
		return EXIT_UNUSABLE;
	}
	/* the inputs an --output must not be: the specs and the allowlist */
	const char **inputs = calloc((size_t)nfiles + 1, sizeof *inputs);
	output_file o;
	for (int i = 0; inputs && i < nfiles; i++)
		inputs[i] = files[i];
	if (inputs)
		inputs[nfiles] = allow_path;
	if (!inputs || !output_open(&o, cmd, output, false, inputs, (size_t)nfiles + 1)) {
		free(inputs);
		free(files);
		free(import_dirs);
		return EXIT_UNUSABLE;
	}
	free(inputs);
	FILE *out = o.f;

	prove_allowlist allow = {0};
	spec_diags allow_diags = {0};
	if (allow_path) {
		prove_allowlist_load(allow_path, &allow, &allow_diags);
		opt.allow = &allow;
	}
	report_file *rf = calloc((size_t)nfiles, sizeof *rf);
	spec_diags *diags = calloc((size_t)nfiles, sizeof *diags);
	spec_model **models = calloc((size_t)nfiles, sizeof *models);
	prove_result *results = calloc((size_t)nfiles, sizeof *results);
	semantic_stats *sstats = calloc((size_t)nfiles, sizeof *sstats);
	if (!rf || !diags || !models || !results || !sstats) {
		free(sstats);
		free(rf);
		free(diags);
		free(models);
		free(results);
		free(files);
		free(import_dirs);
		output_abort(&o);
		return EXIT_UNUSABLE;
	}
	/* the threads go to the files, or, for one file, to its display proofs */
	opt.jobs = nfiles > 1 ? 1 : jobs;
	check_run run = {.files = files, .nfiles = nfiles, .load_opt = &load_opt, .opt = &opt,
	                 .lint = lint, .semantic = semantic, .ignore = ignore, .diags = diags, .models = models,
	                 .results = results, .semantic_stats = sstats, .rf = rf};
	atomic_init(&run.next, 0);
	check_files(&run, jobs);
	spec_diags_sort(&allow_diags);
	report r = {cmd, rf, (size_t)nfiles, allow_path ? &allow : NULL, allow_path,
	            allow_path ? &allow_diags : NULL, opt.engine, 0};
	r.exit_code = exit_code_of(&r);
	if (!strcmp(format, "json"))
		report_write_json(out, &r);
	else if (!strcmp(format, "sarif"))
		report_write_sarif(out, &r);
	else if (!strcmp(format, "codequality"))
		report_write_codequality(out, &r);
	else
		report_write_text(out, &r);
	if (!output_commit(&o))
		r.exit_code = EXIT_UNUSABLE;
	for (int i = 0; i < nfiles; i++) {
		prove_result_free(&results[i]);
		spec_model_free(models[i]);
		spec_diags_free(&diags[i]);
	}
	prove_allowlist_free(&allow);
	spec_diags_free(&allow_diags);
	free(sstats);
	free(rf);
	free(diags);
	free(models);
	free(results);
	free(files);
	free(import_dirs);
	return r.exit_code;
}
