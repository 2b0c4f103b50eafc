/* lint_cmd.c - `isacheck lint`: load, resolve and lint spec files. */
#include "check.h"
#include "cli.h"
#include "codec.h"

#include <stdlib.h>
#include <string.h>

static const char lint_usage[] =
	"usage: isacheck lint [--format=text|json] [--ignore=RULE[,RULE...]] [--displays]\n"
	"                     [--printer=mesa|afuc] [--import-dir=DIR]... [--no-cache]\n"
	"                     [--max-spec-size=SIZE] FILE...\n"
	"  Loads each FILE (an isaspec XML file; imports are read relative to it, from\n"
	"  its folder and below, or from a DIR named with --import-dir)\n"
	"  and reports every finding as file:line:col: severity: message [rule].\n"
	"  --no-cache parses every file, bypassing the cache of parsed files (docs/cache.md).\n"
	"  --max-spec-size=SIZE reads up to SIZE bytes of XML (K, M, G; default 64M, at\n"
	"  most 1G); the element and memory budgets grow with it (docs/model.md).\n"
	"  --ignore drops findings of the named rules (fatal ones cannot be ignored).\n"
	"  --displays also reports each leaf whose text may not give its word back\n"
	"  (rule display-not-invertible): two words Z3 shows to print alike, or the\n"
	"  static check's doubt where Z3 cannot decide; a leaf Z3 proves is not reported.\n"
	"  --printer=mesa|afuc: whose text --displays proves of (as prove --printer)\n"
	"  exit: 0 clean, 1 findings, 2 unusable input or bad usage\n";

/* Checks every name in a --ignore list against the rule table. */
static bool valid_ignore_list(const char *list)
{
	char *copy = strdup(list);
	bool ok = copy != NULL;
	for (char *save = NULL, *t = copy ? strtok_r(copy, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save))
		if (!spec_rule_find(t)) {
			fprintf(stderr, "isacheck lint: --ignore: unknown rule '%s' (see isacheck rules)\n", t);
			ok = false;
		}
	free(copy);
	return ok;
}

void lint_printing(const spec_model *m, spec_diags *diags)
{
	if (!m || !m->nroots) /* definitions only (a file others import): nothing prints */
		return;
	/* a spec lint already finds errors in is not called proved: its
	 * errors say more than a failing word would */
	for (size_t i = 0; i < diags->count; i++)
		if (diags->items[i].severity != SPEC_WARNING)
			return;
	/* a few words per leaf: the general decoder is cheaper to build than
	 * the compiled one is to run (100,000 leaves: 1.4 s against 2.4 s) */
	codec *c = codec_new_general(m, diags);
	codec_lint_words(c, diags);
	codec_free(c);
}

/* The diagnostic of rule at loc in d, or NULL. */
static const spec_diag *diag_at(const spec_diags *d, const char *rule, spec_loc loc)
{
	for (size_t i = 0; i < d->count; i++) {
		const spec_diag *x = &d->items[i];
		if (!strcmp(x->rule, rule) && x->loc.line == loc.line && x->loc.col == loc.col &&
		    x->loc.file && loc.file && !strcmp(x->loc.file, loc.file))
			return x;
	}
	return NULL;
}

/* --displays: for every leaf, whether its text gives its word back.  The
 * static check (codec_display_invertible: does the display print every
 * bit the decoder reads, can its parts be split) says "may not" for
 * more leaves than are; Z3's display proof (prove_displays) decides the
 * leaves of the roots words start from exactly.  So a leaf is reported
 * when Z3 shows two of its words print alike (that pair is the message),
 * or when the static check doubts it and Z3 could not decide or was not
 * asked (the static reason, and why Z3 gave no verdict); a leaf Z3
 * proves is not reported, whatever the static check says. */
static void lint_displays(const spec_model *m, prove_printer printer, spec_diags *diags)
{
	codec *c = codec_new(m, diags);
	if (!c)
		return;
	semantic_stats st = {.display_verdict = calloc(m->nbitsets ? m->nbitsets : 1, 1)};
	spec_diags exact = {0};
	prove_options o = prove_default_options();
	o.jobs = default_jobs(64);
	o.printer = printer;
	/* false when Z3 or memory could not be had: the static check alone */
	bool ran = st.display_verdict && prove_with_codec(m, c, &o, &exact, &st, true);
	for (size_t r = 0; r < m->nroots; r++) {
		const spec_root *root = &m->roots[r];
		for (size_t i = 0; i < root->nleaves; i++) {
			const spec_bitset *leaf = root->leaves[i];
			unsigned v = ran && leaf->index < m->nbitsets ? st.display_verdict[leaf->index]
			                                              : PROVE_DISPLAY_NOT_ASKED;
			const spec_diag *x;
			if (v == PROVE_DISPLAY_PROVED)
				continue;
			if (v == PROVE_DISPLAY_SAME_TEXT &&
			    (x = diag_at(&exact, "display-same-text", leaf->loc))) {
				spec_diag_add(diags, SPEC_WARNING, "display-not-invertible", leaf->loc, "%s",
				              x->message);
				continue;
			}
			char why[256];
			if (codec_display_invertible(c, leaf, why, sizeof why))
				continue;
			x = v == PROVE_DISPLAY_UNKNOWN ? diag_at(&exact, "semantic-unknown", leaf->loc)
			                               : NULL;
			spec_diag_add(diags, SPEC_WARNING, "display-not-invertible", leaf->loc,
			              "the text of %s may not give its word back: %s (the static check; %s)",
			              spec_display_name(leaf), why,
			              !ran ? "the display proof could not run"
			              : x  ? x->message
			                   : "Z3 is asked only about the leaves of roots words start from");
		}
	}
	free(st.display_verdict);
	spec_diags_free(&exact);
	codec_free(c);
}

int cmd_lint(int argc, char **argv)
{
	out_format fmt = OUT_TEXT;
	const char *ignore = NULL;
	bool displays = false;
	prove_options printer_opt = prove_default_options(); /* --printer */
	int nfiles = 0;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	const char **import_dirs = calloc((size_t)argc + 1, sizeof *import_dirs);
	spec_load_options load_opt = {.import_dirs = import_dirs};
	char cache_buf[4096];
	bool no_cache = false;
	if (!files || !import_dirs) {
		free(files);
		free(import_dirs);
		return EXIT_UNUSABLE;
	}
	bool options_done = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options_done || a[0] != '-' || !strcmp(a, "-")) {
			files[nfiles++] = argv[i];
		} else if (!strcmp(a, "--")) {
			options_done = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(lint_usage, stdout);
			free(files);
			free(import_dirs);
			return EXIT_CLEAN;
		} else if (!strcmp(a, "--displays")) {
			displays = true;
		} else if (!strncmp(a, "--printer=", 10)) {
			if (!parse_printer_arg(a + 10, &printer_opt)) {
				fprintf(stderr, "isacheck lint: bad option '%s'\n%s", a, lint_usage);
				free(files);
				free(import_dirs);
				return EXIT_UNUSABLE;
			}
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = true;
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			if (!spec_parse_size(a + 16, &load_opt.max_bytes)) {
				fprintf(stderr, "isacheck lint: bad option '%s'\n%s", a, lint_usage);
				free(files);
				free(import_dirs);
				return EXIT_UNUSABLE;
			}
		} else if (!strncmp(a, "--import-dir=", 13) && a[13]) {
			import_dirs[load_opt.nimport_dirs++] = a + 13;
		} else if (!strcmp(a, "--format=text")) {
			fmt = OUT_TEXT;
		} else if (!strcmp(a, "--format=json")) {
			fmt = OUT_JSON;
		} else if (!strncmp(a, "--ignore=", 9)) {
			ignore = a + 9;
			if (!valid_ignore_list(ignore)) {
				free(files);
				free(import_dirs);
				return EXIT_UNUSABLE;
			}
		} else {
			fprintf(stderr, "isacheck lint: unknown option '%s'\n%s", a, lint_usage);
			free(files);
			free(import_dirs);
			return EXIT_UNUSABLE;
		}
	}
	load_opt.cache_dir = cache_dir_for(no_cache, cache_buf, sizeof cache_buf);
	if (!nfiles) {
		fprintf(stderr, "isacheck lint: no FILE given\n%s", lint_usage);
		free(files);
		free(import_dirs);
		return EXIT_UNUSABLE;
	}

	int exit_code = EXIT_CLEAN;
	size_t nerr = 0, nwarn = 0, nfatal = 0;
	if (fmt == OUT_JSON)
		fputs("{\"version\":1,\"tool\":\"isacheck\",\"command\":\"lint\",\"files\":[", stdout);
	for (int i = 0; i < nfiles; i++) {
		spec_diags diags = {0};
		spec_model *m = spec_load_with(files[i], &load_opt, &diags);
		lint_printing(m, &diags);
		if (m && displays)
			lint_displays(m, printer_opt.printer, &diags);
		spec_diags_sort(&diags);
		size_t shown = 0;
		if (fmt == OUT_JSON) {
			fputs(i ? ",\n{\"path\":" : "\n{\"path\":", stdout);
			json_string(stdout, files[i]);
			fprintf(stdout, ",\"loaded\":%s", m ? "true" : "false");
			if (m) {
				spec_stats s = spec_model_stats(m);
				fprintf(stdout, ",\"stats\":{\"files\":%zu,\"bitsets\":%zu,\"roots\":%zu,"
				        "\"leaves\":%zu,\"leaf_names\":%zu,\"enums\":%zu,\"exprs\":%zu,"
				        "\"templates\":%zu}", s.files, s.bitsets, s.roots, s.leaves,
				        s.leaf_names, s.enums, s.exprs, s.templates);
			}
			fputs(",\"diagnostics\":[", stdout);
		}
		for (size_t k = 0; k < diags.count; k++) {
			const spec_diag *d = &diags.items[k];
			if (d->severity != SPEC_FATAL && ignore && rule_in_list(ignore, d->rule))
				continue;
			if (fmt == OUT_JSON) {
				fputs(shown ? ",\n  " : "\n  ", stdout);
				print_diag_json(stdout, d);
			} else {
				print_diag_text(stdout, d);
			}
			shown++;
			if (d->severity == SPEC_FATAL)
				nfatal++;
			else if (d->severity == SPEC_ERROR)
				nerr++;
			else
				nwarn++;
		}
		if (fmt == OUT_JSON)
			fputs("]}", stdout);
		int code = !m ? EXIT_UNUSABLE : shown ? EXIT_FINDINGS : EXIT_CLEAN;
		if (code > exit_code)
			exit_code = code;
		spec_model_free(m);
		spec_diags_free(&diags);
	}
	if (fmt == OUT_JSON)
		fprintf(stdout, "\n],\"summary\":{\"errors\":%zu,\"warnings\":%zu,\"fatal\":%zu},"
		        "\"exit_code\":%d}\n", nerr, nwarn, nfatal, exit_code);
	else if (exit_code != EXIT_CLEAN)
		fprintf(stderr, "isacheck lint: %zu error%s, %zu warning%s%s\n", nerr + nfatal,
		        nerr + nfatal == 1 ? "" : "s", nwarn, nwarn == 1 ? "" : "s",
		        nfatal ? " (unusable input)" : "");
	free(files);
	free(import_dirs);
	return exit_code;
}
