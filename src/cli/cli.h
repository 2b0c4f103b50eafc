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
/* The same, or null when s is NULL. */
void json_string_or_null(FILE *f, const char *s);
/* A generation range as JSON: {"min":N,"max":N}. */
void json_gen(FILE *f, spec_gen g);
/* A generation range as a reader writes it: "600..max", "0..5", "7". */
void format_gen(spec_gen g, char *buf, size_t len);
/* Whether rule is one of a comma-separated list (--ignore=a,b). */
bool rule_in_list(const char *list, const char *rule);
/* The file name without its folders. */
const char *base_name(const char *path);
/* Prints one diagnostic as "file:line:col: severity: message [rule]". */
void print_diag_text(FILE *f, const spec_diag *d);
/* A <program> lint rejects frames nothing that can be trusted (a part of
 * an unknown root prints nothing at all): its frame-* errors go to
 * stderr and the answer is true (the command exits 2), rather than
 * printing nothing and exit 0. */
bool refuse_bad_program(const char *cmd, const spec_diags *d);
/* check and disasm agree: unless lint already found errors, every leaf
 * of m is printed from a few of its words and each failure added as a
 * disasm-fails error (codec_lint_words).  `lint` and `check` both. */
void lint_printing(const spec_model *m, spec_diags *diags);
/* prove_semantic (or, displays_only, its display proof alone) with codec
 * cd of m confirming the witnesses (NULL: no display proof). */
struct codec;
struct prove_options;
struct semantic_stats;
bool prove_with_codec(const spec_model *m, const struct codec *cd,
                      const struct prove_options *opt, spec_diags *diags,
                      struct semantic_stats *st, bool displays_only);
/* Prints one diagnostic as a JSON object (no trailing newline). */
void print_diag_json(FILE *f, const spec_diag *d);
/* Prints the fatal ones of d (why an input is unusable), as text. */
void print_fatal_diags(FILE *f, const spec_diags *d);

/* Option values (args.c).  A decimal number up to 1000000000 (--timeout=MS,
 * --rlimit=N, --holes=N). */
bool parse_uint_arg(const char *s, unsigned *out);
/* A number as C writes it (decimal, 0x hex, 0 octal) up to max (--gen=N,
 * --top=N). */
bool parse_ulong_arg(const char *s, unsigned long max, unsigned long *out);
/* -j N, -jN or --jobs=N at argv[*i], 1..max, into *jobs (*i moves past a
 * separate N): NULL, or the value that is not a number of jobs ("" when
 * it is missing). */
const char *parse_jobs_arg(int argc, char **argv, int *i, unsigned max, unsigned *jobs);
/* --printer=mesa|afuc's value (prove, check, lint --displays) into
 * opt->printer: false for another. */
bool parse_printer_arg(const char *s, struct prove_options *opt);
/* The cores online, 1..max: what -j defaults to. */
unsigned default_jobs(unsigned max);
/* The folder of parsed specs (docs/cache.md): ISACHECK_CACHE_DIR when
 * set and not empty, else $XDG_CACHE_HOME/isacheck, else
 * $HOME/.cache/isacheck, written into buf; NULL when disabled (--no-cache)
 * or there is none. */
const char *cache_dir_for(bool disabled, char *buf, size_t len);

/* 32-bit words of memory, growing (hexwords.c). */
typedef struct word_buf {
	uint32_t *w;
	size_t n, cap;
} word_buf;
/* Appends one word; false when memory runs out. */
bool push_word(word_buf *ws, uint32_t v);
/* One hex WORD as disasm --hex and triage's hex text read it: 8 digits or
 * fewer (no '_') is one memory word; longer, or with '_', a whole
 * instruction of instr_words words written high word first.  False with
 * a one-line reason in err on garbage. */
bool parse_hex_arg(const char *arg, unsigned instr_words, word_buf *ws, char *err,
                   size_t errlen);

/* A report written whole or not at all (output.c): --output goes to a
 * temporary file beside the target, renamed over it by output_commit
 * only when every write succeeded; stdout's errors are reported too. */
typedef struct output_file {
	FILE *f;           /* write here */
	const char *cmd;   /* for messages */
	char *path, *tmp;  /* NULL for stdout */
} output_file;

/* Opens path (NULL or "-": stdout) for a command whose inputs are
 * inputs[]: an output that is one of them is refused.  False with a
 * message on stderr. */
bool output_open(output_file *o, const char *cmd, const char *path, bool binary,
                 const char *const *inputs, size_t ninputs);
/* Flushes, checks, closes and renames into place: false (with a message)
 * when anything failed, the target then untouched. */
bool output_commit(output_file *o);
/* Drops what was written (stdout: flushed as it is). */
void output_abort(output_file *o);
/* Opens an input file ("-": stdin), refusing anything but a regular file
 * (a FIFO, a device, a directory) before reading: NULL with a message. */
FILE *input_open(const char *cmd, const char *path, const char *mode);
/* The same with the reason in err ("not a regular file (a FIFO)",
 * without the path) instead of on stderr. */
FILE *input_open_err(const char *path, const char *mode, char *err, size_t errlen);

int cmd_lint(int argc, char **argv);
/* prove, or check (lint then prove) when lint is true */
int cmd_prove(int argc, char **argv, bool lint);
/* disasm, or decode (structured) when decode is true */
int cmd_codec(int argc, char **argv, bool decode);
int cmd_asm(int argc, char **argv);
/* what an edit of a spec changes (OLD NEW, or --git=REV FILE...) */
int cmd_diff(int argc, char **argv);
/* `isacheck tops`: the top-level isaspec specs a set of changed files
 * touches (tops_cmd.c). */
int cmd_tops(int argc, char **argv);
/* disasm/decode --program (program_cmd.c): one whole program of n words,
 * framed by the spec's <program> NAME ("" for its only one). */
struct codec;
struct codec_disasm_options;
int program_command(const struct codec *c, const char *name, const char *input,
                    const uint32_t *w, size_t n, bool decode, bool json,
                    const struct codec_disasm_options *opt);
int cmd_triage(int argc, char **argv);
/* the Markdown encoding reference of a spec (doc_cmd.c) */
int cmd_doc(int argc, char **argv);

#endif
