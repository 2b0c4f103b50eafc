/*
 * triage_input.c - fuzz target triage_input: any bytes as an input of
 * `isacheck triage` (src/cli/triage_input.c), read into a triage that is
 * then finished and reported.
 *
 * Users point triage at whatever a vendor driver left behind: binaries
 * cut short, hex dumps with stray text, TSVs with missing columns.  The
 * first byte of the input chooses how it is read:
 *
 *   bits 0-1  the kind: auto (by name and bytes), bin, hex, tsv
 *   bit  2    the spec: ours, a2xx (96-bit, whole programs) or Midgard
 *             (bundles framed by their tags)
 *   bit  3    whole programs (the spec's <program>) or single
 *             instructions of its default root
 *   bits 4-5  the input's name: no extension, .bin, .hex, .tsv (what
 *             sniff reads first)
 *
 * and the rest is the file.  The contract:
 *
 *  - an unusable input is refused with one line that names it
 *    ("input.hex:3: error: ..."), never a crash, a leak, undefined
 *    behaviour or a runaway;
 *  - a binary read as single instructions gives exactly one item per
 *    instruction's bytes, and a usable input's triage finishes and
 *    reports (JSON) with every item counted once.
 */
#include "fuzz.h"

#include "cli/triage_input.h"
#include "cli/triage_report.h"

#include <stdlib.h>
#include <string.h>

static fuzz_spec specs[2];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&specs[0], FUZZ_SPEC, FUZZ_NO_MATCH);
	fuzz_spec_load_or_exit(&specs[1], FUZZ_SPEC2, FUZZ_NO_MATCH);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static const char *const names[4] = {"input", "input.bin", "input.hex", "input.tsv"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const fuzz_spec *S = &specs[(data[0] >> 2) & 1];
	triage_run r = {.cmd = "triage", .gen_column = "decoder_gpu_id", .m = S->m, .c = S->c,
	                .root = S->root, .kind = (input_kind)(data[0] & 3), .diag = devnull};
	if ((data[0] >> 3) & 1)
		r.prog = spec_find_program(S->m, NULL);
	r.iw = (r.root->bitset->size + 31) / 32;
	const char *path = names[(data[0] >> 4) & 3];
	size_t len = size - 1;
	char *buf = malloc(len + 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, len);
	buf[len] = 0;
	r.t = triage_new(r.c, &(triage_options){0});
	r.q = r.t ? triage_queue_new(r.t, 1) : NULL;
	if (!r.q)
		abort();
	char err[1024], what[1280];
	bool ok = triage_read_buffer(&r, path, buf, len, err, sizeof err);
	free(buf);
	if (!ok) {
		size_t pl = strlen(path);
		if (strncmp(err, path, pl) || (err[pl] != ':') || !strstr(err, ": error: ") ||
		    strchr(err, '\n')) {
			snprintf(what, sizeof what, "an unusable input's error is not one line naming it: "
			         "\"%.1000s\"", err);
			fuzz_finding(FUZZ_TARGET, S, data, size, 0, what, NULL, NULL);
		}
	} else {
		if (!triage_queue_flush(r.q))
			abort();
		triage_finish(r.t);
		triage_summary sum = triage_get_summary(r.t);
		input_kind k = r.kind;
		size_t ib = (size_t)r.iw * 4;
		if (k == INPUT_BIN && !r.prog && sum.instructions != len / ib) {
			snprintf(what, sizeof what, "a binary of %zu bytes read as %zu-byte instructions "
			         "gives %zu items", len, ib, sum.instructions);
			fuzz_finding(FUZZ_TARGET, S, data, size, 0, what, NULL, NULL);
		}
		if (sum.explained + sum.unexplained != sum.instructions) {
			snprintf(what, sizeof what, "the summary counts %zu items as %zu explained and %zu "
			         "not", sum.instructions, sum.explained, sum.unexplained);
			fuzz_finding(FUZZ_TARGET, S, data, size, 0, what, NULL, NULL);
		}
		triage_report rep = {.t = r.t, .spec_path = S->path, .root = r.root, .gen = -1,
		                     .top_text = 10, .top_html = 10,
		                     .program = r.prog ? r.prog->name : NULL,
		                     .frame_errors = r.frame_errors};
		triage_write_json(devnull, &rep);
	}
	triage_queue_free(r.q);
	triage_free(r.t);
	return 0;
}
