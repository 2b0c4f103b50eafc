/*
 * report.h - what `isacheck prove` and `isacheck check` print, in every
 * format (private to src/cli).  One report covers the files of one run;
 * each file has its lint diagnostics (check only) and its proof result.
 */
#ifndef ISACHECK_REPORT_H
#define ISACHECK_REPORT_H

#include "check.h"
#include "spec.h"

#include <stdio.h>

typedef struct report_file {
	const char *path;            /* as given on the command line */
	const spec_model *model;     /* NULL: unusable input (see diags) */
	const spec_diags *diags;     /* loading and lint diagnostics, sorted;
	                                for `prove` only the fatal ones */
	const prove_result *result;  /* NULL when model is NULL */
	const semantic_stats *semantic; /* --semantic's counts; NULL: not asked */
} report_file;

typedef struct report {
	const char *command;         /* "prove" or "check" */
	const report_file *files;
	size_t nfiles;
	const prove_allowlist *allow;/* NULL: none given */
	const char *allow_path;
	const spec_diags *allow_diags; /* problems in the allowlist file */
	prove_engine engine;
	int exit_code;               /* 0 proved, 1 findings, 2 unusable, 3 unknown */
} report;

/* Stable rule ids of the proof findings (lint findings keep theirs). */
#define RULE_OVERLAP      "overlap"         /* two leaves match one word */
#define RULE_UNACCOUNTED  "unaccounted-bits"/* a leaf bit nothing claims */
#define RULE_DOUBLY       "doubly-claimed-bits" /* a leaf bit claimed twice */
#define RULE_STALE        "allowlist-stale" /* an allowlist entry matching nothing */
#define RULE_UNKNOWN      "unknown"         /* the solver could not decide */
/* `isacheck diff`: changes between two versions, reported as notes */
#define RULE_DIFF_LEAF     "diff-leaf"      /* a leaf added, removed, renamed, re-patterned */
#define RULE_DIFF_FIELD    "diff-field"     /* a field reads other bits or another type */
#define RULE_DIFF_DECODING "diff-decoding"  /* words that decode differently */
#define RULE_DIFF_DISPLAY  "diff-display"   /* a leaf prints differently */

void report_write_text(FILE *f, const report *r);
void report_write_json(FILE *f, const report *r);
void report_write_sarif(FILE *f, const report *r);
void report_write_codequality(FILE *f, const report *r);

#endif
