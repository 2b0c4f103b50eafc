/*
 * oracle.h - isacheck held to Mesa's own disassemblers (the mesa_oracle
 * library built from ../shared/oracles/mesa, glue/mesa_oracle.h): the
 * one comparison that the fuzz targets oracle_mesa_<isa> and the ctest
 * conformance test tests/test_oracle_isaspec.c both run, and the line
 * difference every oracle comparison reports.
 *
 * For ir3, etnaviv and afuc the question is exact: the same words, read
 * by isacheck from Mesa's XML and by Mesa's decoder generated from that
 * XML, must print the same bytes, line for line, errors included.  The
 * options are those of the Mesa tool each no-match style stands for:
 *
 *   style  ISA      Mesa tool                     errors   labels
 *   ir3    ir3      the ir3 unit test (print_raw)   shown    off
 *   mesa   ir3      ir3-disasm (isaspec's no match) shown    on
 *   mesa   etnaviv  the etnaviv unit test           shown    off
 *   afuc   afuc     afuc-disasm (its callbacks)     hidden   on
 *
 * and each of them with errors and labels either way.  The generation
 * goes to Mesa's decoder unchanged (MESA_ORACLE_RAW_GPU_ID), so that an
 * expression reading ISA_GPU_ID() sees what isacheck's does.
 */
#ifndef ISACHECK_FUZZ_ORACLE_H
#define ISACHECK_FUZZ_ORACLE_H

#include "codec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where two texts part: the first line (0-based) that differs, and the
 * two lines (views into the texts, not NUL-terminated; a line past a
 * text's end is empty).  Every oracle comparison reports it. */
typedef struct oracle_line_diff {
	size_t line;
	const char *ours, *mesa;
	size_t ourslen, mesalen;
} oracle_line_diff;

/* Fills d for two NUL-terminated texts; false when they are the same. */
bool oracle_first_difference(const char *ours, const char *mesa, oracle_line_diff *d);

/* The no-match styles of isa ("ir3", "etnaviv", "afuc") that some Mesa
 * tool prints, the tool's default first; how many (0: not an isaspec
 * ISA of the oracle). */
size_t oracle_isaspec_styles(const char *isa, codec_no_match_style out[2]);

/* The options isa's Mesa tool for style uses (the table above). */
codec_disasm_options oracle_isaspec_options(const char *isa, codec_no_match_style style,
                                            uint32_t gen);

/* One comparison's texts: isacheck's and Mesa's, each NUL-terminated and
 * owned by the result (oracle_isaspec_result_free).  status is the
 * oracle's: >= 0 its text is Mesa's; < 0 (MESA_ORACLE_E_*) Mesa's code
 * could not run on this input, and nothing is compared. */
typedef struct oracle_isaspec_result {
	char *ours, *mesa;
	size_t ourslen, mesalen;
	int status;
	bool same;
	/* the buffer's last instructions left errors pending (a bitset
	 * conflict, printed on the next line): one more instruction, the
	 * first leaf that alone matches its own pattern, was printed after
	 * them on both sides, so that they are printed and compared (and
	 * Mesa's isa_disasm, which leaks such errors, does not) */
	bool padded;
	oracle_line_diff diff;     /* where they part, when not the same */
} oracle_isaspec_result;

/* ninstr instructions of words (the default root's size each), printed
 * by codec c as one buffer (codec_disasm; one instruction without labels
 * by codec_disasm_one) and by Mesa's decoder of isa in one isa_disasm
 * call with the same options.  False only when memory runs out, a line
 * passes 4 KiB, or the buffer needs padding (r->padded) and no leaf
 * alone matches its own pattern at the generation (r says nothing then). */
bool oracle_isaspec_compare(const codec *c, const char *isa, const uint32_t *words,
                            size_t ninstr, const codec_disasm_options *o,
                            oracle_isaspec_result *r);
void oracle_isaspec_result_free(oracle_isaspec_result *r);

#endif
