/*
 * triage_report.h - what `isacheck triage` writes (private to src/cli):
 * the text summary and the JSON results (triage_report.c), and the
 * self-contained HTML report built on that JSON (triage_html.c).
 */
#ifndef ISACHECK_TRIAGE_REPORT_H
#define ISACHECK_TRIAGE_REPORT_H

#include "triage.h"

#include <stdio.h>

typedef struct triage_report {
	const triage *t;             /* finished */
	const char *spec_path;
	const spec_root *root;       /* the root instructions were read as */
	int64_t gen;                 /* --gen, or -1 when rows gave their own */
	size_t top_text;             /* clusters the text shows */
	size_t top_html;             /* clusters the HTML draws */
	const char *program;         /* the <program> inputs were framed by, or NULL */
	size_t frame_errors;         /* framing errors met (printed on standard error) */
} triage_report;

void triage_write_text(FILE *f, const triage_report *r);
/* Every cluster, every leaf seen (docs/triage.schema.json). */
void triage_write_json(FILE *f, const triage_report *r);
/* The JSON with at most max_clusters clusters (the largest). */
void triage_write_json_limit(FILE *f, const triage_report *r, size_t max_clusters);
/* One HTML file, no network: the JSON of the top_html clusters and every
 * leaf, drawn into bit heatmaps by a script in the page. */
void triage_write_html(FILE *f, const triage_report *r);

#endif
