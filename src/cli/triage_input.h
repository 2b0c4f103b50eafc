/*
 * triage_input.h - reading the inputs of `isacheck triage` (triage_input.c):
 * the state of one run of the command and the reader of one input.
 */
#ifndef ISACHECK_TRIAGE_INPUT_H
#define ISACHECK_TRIAGE_INPUT_H

#include "cli.h"
#include "codec.h"
#include "triage.h"

#include <stdio.h>

typedef enum input_kind { INPUT_AUTO, INPUT_BIN, INPUT_HEX, INPUT_TSV } input_kind;

typedef struct triage_run {
	const char *cmd;
	spec_model *m;
	codec *c;
	const spec_root *root;
	triage *t;
	triage_queue *q;           /* feeds t, on one thread or more (-j) */
	unsigned iw;               /* 32-bit words per instruction */
	bool spec_has_gen, have_gen;
	uint32_t gen;
	const char *gen_column;
	bool gen_column_given;
	input_kind kind;
	const spec_program *prog;  /* frame every input as whole programs */
	size_t frame_errors;
	FILE *diag;                /* where framing errors are printed; NULL: stderr */
} triage_run;

/* Reads one input held in buf (len bytes, buf[len] == 0; changed in
 * place) into r->q: its kind is r->kind, or what its name and bytes
 * say (INPUT_AUTO).  False with a one-line "PATH[:LINE]: error: ..." in
 * err when the input is unusable; framing errors of whole programs are
 * findings, printed on standard error and counted in r->frame_errors. */
bool triage_read_buffer(triage_run *r, const char *path, char *buf, size_t len, char *err,
                        size_t errlen);

/* Whether gen lies in the root's range; else the error, where first. */
bool triage_check_gen(const triage_run *r, uint32_t gen, const char *where, char *err, size_t errlen);

#endif
