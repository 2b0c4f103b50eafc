/*
 * main.c - the isacheck command: one binary, git-style subcommands,
 * the same flags and exit codes everywhere (see cli.h).
 */
#include "cli.h"

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
	      "  diff OLD NEW    what an edit changes: leaves, decodings, holes, overlaps (proved)\n"
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

int main(int argc, char **argv)
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
