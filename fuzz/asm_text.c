/*
 * asm_text.c - fuzz target asm_<spec>: any text to the assembler.
 * Built once per spec (FUZZ_SPEC, FUZZ_TARGET from fuzz/targets.cmake).
 *
 * The text_<spec> targets give the assembler only what the disassembler
 * printed; users give it what they typed.  Here the input after a
 * two-byte header (the generation, as every word target reads it) is
 * text, cut into lines at '\n' and NUL, each line given to
 * codec_assemble_as in the target's style.  The contract, line by line:
 *
 *  - the answer is 0, 1 or 2, and the reason (err) is one NUL-terminated
 *    line within its buffer;
 *  - an answer of 1 or 2 holds words that decode to a leaf and print the
 *    line exactly, as the assembler reads it (outer spaces trimmed;
 *    afuc-disasm's "\t; ..." comment cut in the afuc style);
 *  - and whatever the text: no crash, no undefined behaviour, time and
 *    memory within the engine's limits (the assembler's own work limit
 *    must end every search).
 */
#include "fuzz.h"

#include <ctype.h>
#include <string.h>

/* The spec, loaded once per process (libFuzzer gives no context). */
static fuzz_spec spec;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	return 0;
}

/* The line as the assembler reads it: outer spaces trimmed and, in
 * afuc-disasm's style, its comment cut. */
static void as_read(const char *line, char *out, size_t len)
{
	size_t n = strlen(line);
	const char *s = line;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	if (n >= len)
		n = len - 1;
	memmove(out, s, n); /* out may be line */
	out[n] = 0;
	if (spec.no_match == CODEC_NO_MATCH_AFUC) {
		char *c = strstr(out, "\t; ");
		if (c)
			*c = 0;
		for (n = strlen(out); n && isspace((unsigned char)out[n - 1]);)
			out[--n] = 0;
	}
}

static void assemble_line(const uint8_t *data, size_t size, uint32_t gen, const char *line)
{
	uint64_t w[FUZZ_MAX_WORDS] = {0};
	char err[512], what[1024];
	memset(err, 'x', sizeof err); /* a reason left unterminated shows */
	size_t n = codec_assemble_as(spec.c, line, gen, spec.no_match, w, err, sizeof err);
	if (n > 2 || !memchr(err, 0, sizeof err) || strchr(err, '\n')) {
		snprintf(what, sizeof what, "codec_assemble_as answers %zu for \"%.200s\", with a "
		         "reason that is not one line", n, line);
		fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, NULL, NULL);
		return;
	}
	if (n == 0)
		return;
	char want[1024], back[2048];
	as_read(line, want, sizeof want);
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (unsigned k = 0; k < spec.nbytes / 4; k++)
		u[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
	codec_disasm_options opt = {.gen = gen, .show_errors = false, .no_match = spec.no_match};
	codec_disasm_one(spec.c, u, &opt, back, sizeof back);
	as_read(back, back, sizeof back);
	static fuzz_decoding d;
	fuzz_decode(&spec, w, gen, &d);
	if (!d.d.leaf || strcmp(want, back)) {
		snprintf(what, sizeof what, "the assembler's answer to \"%.200s\" %s", want,
		         d.d.leaf ? "prints other text" : "decodes to no leaf");
		fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what,
		             &(fuzz_side){"assembled", w, &d.d, back}, NULL);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint32_t gen = fuzz_spec_gen(&spec, (uint16_t)(data[0] | data[1] << 8));
	/* at most 8 lines of up to 1 KiB: the assembler refuses longer ones */
	char line[1200];
	size_t at = 2;
	for (int lines = 0; at < size && lines < 8; lines++) {
		size_t n = 0;
		while (at < size && data[at] != '\n' && data[at] != 0) {
			if (n < sizeof line - 1)
				line[n++] = (char)data[at];
			at++;
		}
		at++;
		line[n] = 0;
		assemble_line(data, size, gen, line);
	}
	return 0;
}
