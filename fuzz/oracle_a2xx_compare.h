/*
 * oracle_a2xx_compare.h - isacheck's whole a2xx programs held to Mesa's
 * disasm_a2xx() (the mesa_oracle library built from ../shared/oracles/mesa,
 * glue/mesa_oracle.h): the one comparison that the fuzz target oracle_a2xx
 * and the ctest conformance test tests/test_oracle_a2xx.c both run.
 *
 * Which of isa/a2xx.xml's programs stands for which call of Mesa's:
 *
 *   program "vs"            disasm_a2xx(words, n, 0, MESA_SHADER_VERTEX)
 *   program "fs"            disasm_a2xx(words, n, 0, MESA_SHADER_FRAGMENT)
 *   program "a2xx"          either, with Mesa's "\t; gl_Position",
 *   (the default)           "\t; gl_PointSize" and "\t; gl_FragColor" cut out
 *
 * at Mesa's level 0 (one tab), our instruction errors hidden (Mesa prints
 * none).
 *
 * The contract.  Mesa's code trusts its input; the oracle reports where
 * it would read past the input (E_OVERREAD: it ran on zero padding) or
 * misbehave (E_MESA_UB: not run).  Our walk stops (a fatal framing error)
 * where it cannot frame the words.  What must hold, by case:
 *
 *   Mesa printed (status >= 0), our walk did not stop:
 *     the texts are the same bytes; except that a part we cannot decode
 *     (no leaf: only ALU vector opcode 30, unassigned, can be one here)
 *     prints "no match: ..." where Mesa prints its missing name through
 *     printf's %s ("(null)" with glibc, undefined behaviour in C): the
 *     texts must then agree on every line before the first such one.
 *   Mesa printed, our walk stopped:
 *     Mesa's text is the start of ours.  (This happens when the first
 *     EXEC-type CF lies at or past the 2 * ADDRESS CFs it fixes: Mesa
 *     prints those CFs only, and never reads that EXEC's clause; we print
 *     up to and with it, then stop on the count, or on its clause when
 *     that lies past the input.)  Again up to a part we cannot decode.
 *   Mesa read past the input (E_OVERREAD):
 *     our walk stopped on a truncation too (it reads what Mesa reads), and
 *     our text is the start of Mesa's (which went on over zeros).
 *   Mesa would misbehave (E_MESA_UB):
 *     for "no EXEC-type CF", our walk stopped (the count is never fixed);
 *     for a fetch opcode Mesa's table lacks, our walk stopped or has a
 *     part it cannot decode (our #fetch has the same holes); for a
 *     texture filter 6 (past Mesa's name tables) nothing: we print it.
 *   Any other status: a finding (the oracle was called wrongly).
 */
#ifndef ISACHECK_FUZZ_ORACLE_A2XX_COMPARE_H
#define ISACHECK_FUZZ_ORACLE_A2XX_COMPARE_H

#include "codec.h"
#include "oracle.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* isa/a2xx.xml's programs: the vertex and fragment variants and the
 * default; false when the spec lacks one of them. */
typedef struct oracle_a2xx_programs {
	const spec_program *vs, *fs, *none;
} oracle_a2xx_programs;

bool oracle_a2xx_find_programs(const spec_model *m, oracle_a2xx_programs *out);

/* Mesa's text of n words for a stage (MESA_ORACLE_A2XX_VS or _FS): the
 * oracle's status, its text malloc'd into *text (NULL when memory ran
 * out: status is then MESA_ORACLE_E_NOMEM), and the oracle's detail for
 * a negative status copied into detail. */
int oracle_a2xx_mesa(const uint32_t *w, size_t n, int type, char **text, char *detail,
                     size_t detail_len);

typedef enum oracle_a2xx_verdict {
	ORACLE_A2XX_SAME,          /* both printed the program, byte for byte alike */
	ORACLE_A2XX_UNDECODABLE,   /* alike up to a part we cannot decode, "(null)" in Mesa */
	ORACLE_A2XX_WE_STOP,       /* we stopped past where Mesa stops: its text starts ours */
	ORACLE_A2XX_MESA_OVERREAD, /* Mesa read past the input, we stopped there */
	ORACLE_A2XX_MESA_UB,       /* Mesa's code would misbehave; not compared */
	ORACLE_A2XX_NO_MEMORY,     /* nothing said */
	ORACLE_A2XX_DIFFER,        /* a finding: the contract above does not hold */
	ORACLE_A2XX_NVERDICTS
} oracle_a2xx_verdict;

/* A short name of a verdict, for counts. */
const char *oracle_a2xx_verdict_name(oracle_a2xx_verdict v);

typedef struct oracle_a2xx_result {
	oracle_a2xx_verdict verdict;
	const char *why;          /* DIFFER: the rule that broke, one line */
	int status;               /* the oracle's */
	char *ours;               /* our text (what the walk printed, when it stopped) */
	char *mesa;               /* Mesa's, comments cut out for the default program */
	bool stopped;             /* our walk stopped on a fatal framing error */
	char stop[300];           /* its first fatal error, "kind: text" */
	oracle_line_diff diff;    /* where they part, when they do */
} oracle_a2xx_result;

/* Walks n words with program p and holds the text to mesa (Mesa's text
 * of the words for the stage p stands for, as oracle_a2xx_mesa gave it,
 * with status and detail); comments false: Mesa's export comments are
 * cut out first (the default program).  False only when memory ran out
 * (r then says NO_MEMORY).  Free r with oracle_a2xx_result_free. */
bool oracle_a2xx_check(const codec *c, const spec_program *p, bool comments,
                       const uint32_t *w, size_t n, const char *mesa, int status,
                       const char *detail, oracle_a2xx_result *r);
void oracle_a2xx_result_free(oracle_a2xx_result *r);

#endif
