/* cli.h - shared pieces of the isacheck command (private to src/cli). */
#ifndef ISACHECK_CLI_H
#define ISACHECK_CLI_H

#include "spec.h"

#include <stdio.h>

/* Exit codes, the same for every subcommand. */
enum {
	EXIT_CLEAN = 0,    /* nothing found / proved */
	EXIT_FINDINGS = 1, /* findings */
	EXIT_UNUSABLE = 2, /* unusable input or bad usage */
	EXIT_UNKNOWN = 3,  /* the solver could not decide */
};

typedef enum out_format { OUT_TEXT, OUT_JSON } out_format;

/* Writes s as a JSON string literal, quotes included. */
void json_string(FILE *f, const char *s);
/* A generation range as a reader writes it: "600..max", "0..5", "7". */
void format_gen(spec_gen g, char *buf, size_t len);
/* Whether rule is one of a comma-separated list (--ignore=a,b). */
bool rule_in_list(const char *list, const char *rule);
/* The file name without its folders. */
const char *base_name(const char *path);
/* Prints one diagnostic as "file:line:col: severity: message [rule]". */
void print_diag_text(FILE *f, const spec_diag *d);
/* Prints one diagnostic as a JSON object (no trailing newline). */
void print_diag_json(FILE *f, const spec_diag *d);

int cmd_lint(int argc, char **argv);
/* prove, or check (lint then prove) when lint is true */
int cmd_prove(int argc, char **argv, bool lint);
/* disasm, or decode (structured) when decode is true */
int cmd_codec(int argc, char **argv, bool decode);
int cmd_asm(int argc, char **argv);

#endif
