/*
 * main.c - the isacheck command: one binary, git-style subcommands,
 * the same flags and exit codes everywhere (see cli.h).
 */
#include "cli.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: isacheck <command> [options] FILE...\n"
	      "\n"
	      "commands:\n"
	      "  check FILE...   lint, then prove: what users and CI run\n"
	      "  lint FILE...    load isaspec XML files (with imports) and report every finding\n"
	      "  prove FILE...   prove no two leaves overlap and every bit is accounted for;\n"
	      "                  measure the undecoded words (Z3 with --solver=z3)\n"
	      "  disasm SPEC     print instructions as Mesa's disassembler does\n"
	      "  decode SPEC     decode instructions into leaf, fields and issues (JSON)\n"
	      "  asm SPEC        assemble text into instructions, by the display templates\n"
	      "  diff OLD NEW    what an edit changes: leaves, decodings, text, holes, overlaps (proved)\n"
	      "  tops [FILE...]  the top-level isaspec specs whose imports hold FILEs (for merge gates)\n"
	      "  triage SPEC INPUT...  find and cluster what SPEC does not explain in binaries\n"
	      "  doc SPEC        write SPEC's encoding reference as Markdown (tables, bit diagrams, holes)\n"
	      "  rules           list the rules lint can report\n"
	      "  help            this text\n"
	      "\n"
	      "options: --version, and per command --help\n"
	      "exit codes: 0 clean, 1 findings, 2 unusable input or bad usage, 3 unknown (solver)\n",
	      f);
}

static int cmd_rules(void)
{
	for (const spec_rule *r = spec_rules(); r->id; r++)
		printf("%-22s %-8s %s\n", r->id,
		       r->severity == SPEC_FATAL ? "fatal" : spec_severity_name(r->severity),
		       r->summary);
	return EXIT_CLEAN;
}

/* Long options that take a value, given as "--gen=600" or, as git takes
 * them too, "--gen 600".  --program and --git take one only after '=':
 * alone they mean something of their own. */
static const char *const valued_options[] = {
	"--allow", "--examples", "--format", "--gen", "--gen-column", "--holes", "--html",
	"--ignore", "--import-dir", "--input", "--json", "--max-spec-size", "--nearest",
	"--no-match", "--output", "--printer", "--rlimit", "--root", "--solver", "--time-limit",
	"--timeout", "--top",
};

static bool valued_option(const char *a)
{
	for (size_t i = 0; i < sizeof valued_options / sizeof *valued_options; i++)
		if (!strcmp(a, valued_options[i]))
			return true;
	return false;
}

/* argv with every "--opt VALUE" of a valued option joined into
 * "--opt=VALUE" (up to a "--"), which is the one form the commands
 * read; *keep: what to free.  NULL with a message when an option's
 * value is missing or memory is. */
static char **join_option_values(int *argc, char **argv, char ***keep)
{
	char **out = calloc((size_t)*argc + 1, sizeof *out);
	char **own = calloc((size_t)*argc + 1, sizeof *own);
	*keep = own;
	if (!out || !own) {
		free(out);
		fputs("isacheck: out of memory\n", stderr);
		return NULL;
	}
	int n = 0, nown = 0;
	bool options = true;
	for (int i = 0; i < *argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			options = false;
		if (!options || i < 2 || !valued_option(a)) {
			out[n++] = argv[i];
			continue;
		}
		if (i + 1 == *argc) {
			fprintf(stderr, "isacheck %s: option '%s' needs a value (%s=VALUE or %s VALUE)\n",
			        argv[1], a, a, a);
			free(out);
			return NULL;
		}
		size_t la = strlen(a), lv = strlen(argv[i + 1]);
		char *j = malloc(la + lv + 2);
		if (!j) {
			fputs("isacheck: out of memory\n", stderr);
			free(out);
			return NULL;
		}
		memcpy(j, a, la);
		j[la] = '=';
		memcpy(j + la + 1, argv[i + 1], lv + 1);
		own[nown++] = j;
		out[n++] = j;
		i++;
	}
	*argc = n;
	return out;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	char **keep = NULL;
	char **joined = join_option_values(&argc, argv, &keep);
	int rc = joined ? run(argc, joined) : EXIT_UNUSABLE;
	/* whatever a command printed must have arrived: a full disk or a
	 * closed pipe is exit 2, never a silent 0 */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_UNUSABLE) {
		fprintf(stderr, "isacheck: error writing standard output: %s\n",
		        strerror(errno ? errno : EIO));
		rc = EXIT_UNUSABLE;
	}
	for (char **k = keep; k && *k; k++)
		free(*k);
	free(keep);
	free(joined);
	return rc;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_UNUSABLE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("isacheck %s\n", ISACHECK_VERSION);
		return EXIT_CLEAN;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return EXIT_CLEAN;
	}
	if (!strcmp(cmd, "lint"))
		return cmd_lint(argc - 1, argv + 1);
	if (!strcmp(cmd, "prove"))
		return cmd_prove(argc - 1, argv + 1, false);
	if (!strcmp(cmd, "check"))
		return cmd_prove(argc - 1, argv + 1, true);
	if (!strcmp(cmd, "disasm"))
		return cmd_codec(argc - 1, argv + 1, false);
	if (!strcmp(cmd, "decode"))
		return cmd_codec(argc - 1, argv + 1, true);
	if (!strcmp(cmd, "asm"))
		return cmd_asm(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "tops"))
		return cmd_tops(argc - 1, argv + 1);
	if (!strcmp(cmd, "doc"))
		return cmd_doc(argc - 1, argv + 1);
	if (!strcmp(cmd, "triage"))
		return cmd_triage(argc - 1, argv + 1);
	if (!strcmp(cmd, "rules"))
		return cmd_rules();
	fprintf(stderr, "isacheck: unknown command '%s'\n", cmd);
	usage(stderr);
	return EXIT_UNUSABLE;
}
