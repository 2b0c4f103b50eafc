/*
 * text.c - fuzz target text_<spec>: disassemble, assemble, compare.
 * Built once per spec (FUZZ_SPEC, FUZZ_TARGET from fuzz/targets.cmake).
 *
 * For every instruction of the input that decodes to a leaf (set
 * don't-care bits aside: they do not print), its text (errors not shown)
 * goes through codec_assemble_as, read in the style it was printed in
 * (text_mesa_afuc: afuc-disasm's, register fields included).  The
 * contract:
 *
 *  - when the assembler answers with one encoding, that encoding decodes
 *    cleanly and prints exactly the text;
 *  - and, for a leaf whose display shows every bit (words_must_match),
 *    it equals the input outside the don't-care bits.
 *
 *  - the assembler finds an encoding: the input's word prints the text,
 *    so an answer of 0 is the assembler's gap (a finding since
 *    2026-12-02; before, it was only counted, which hid 71 of Mesa's
 *    vector texts and negative absbranch targets).
 *
 * The assembler may answer 2 (the text is ambiguous: the display blurs
 * bits); that is not a finding.  FUZZ_STATS=1 in the environment prints
 * the tally at exit.
 *
 * Which leaves must give their words back: by default those the static
 * check (codec_display_invertible) calls invertible.  With
 * FUZZ_DISPLAY_VERDICTS=FILE, the output of `isacheck lint --displays
 * --format=json SPEC`, every leaf that lint does not report: Z3 proved
 * its text determines its word, or the static check did and Z3 showed
 * no pair (docs/codec.md, "Invertibility").  That is more leaves (ir3:
 * 55 more), each held to a proof about the model.  fuzz/with-display-verdicts
 * makes the file and runs a target with it (FUZZ_PRINT_SPEC=1 makes the
 * target print its spec's path and exit).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* The spec, loaded once per process (libFuzzer gives no context). */
static fuzz_spec spec;
static struct {
	unsigned long instr, meaningful, assembled, unassembled, ambiguous, word_for_word;
} tally;
/* With FUZZ_DISPLAY_VERDICTS: per bitset index, 1 when lint reported the
 * leaf (display-not-invertible); NULL without it. */
static uint8_t *reported;

/* The file name after its last '/'. */
static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Reads lint's JSON: one diagnostic a line, as cli/output.c writes them
 * ({"file":"...","line":N,"column":M,...,"rule":"..."}); a leaf is
 * reported when a display-not-invertible diagnostic sits at its
 * location (file name, line, column).  Exits on anything else: a
 * verdict file that does not fit the spec would make false findings. */
static void load_verdicts(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "%s: FUZZ_DISPLAY_VERDICTS: cannot read '%s'\n", FUZZ_TARGET, path);
		exit(2);
	}
	reported = calloc(spec.m->nbitsets + 1, 1);
	static char line[1 << 16];
	bool ours = false, any = false;
	while (reported && fgets(line, sizeof line, f)) {
		char file[1024];
		unsigned ln, col;
		const char *p = strstr(line, "{\"path\":\"");
		if (p) { /* a file's record: it must be this target's spec */
			if (sscanf(p + 9, "%1023[^\"]", file) == 1)
				ours = !strcmp(base_of(file), base_of(spec.path));
			any |= ours;
			continue;
		}
		if (!ours || !strstr(line, "\"rule\":\"display-not-invertible\"") ||
		    sscanf(line, " {\"file\":\"%1023[^\"]\",\"line\":%u,\"column\":%u", file, &ln,
		           &col) != 3)
			continue;
		bool found = false;
		for (size_t r = 0; r < spec.m->nroots; r++)
			for (size_t i = 0; i < spec.m->roots[r].nleaves; i++) {
				const spec_bitset *b = spec.m->roots[r].leaves[i];
				if (b->loc.line == ln && b->loc.col == col && b->loc.file &&
				    !strcmp(base_of(b->loc.file), base_of(file)) && b->index < spec.m->nbitsets) {
					reported[b->index] = 1;
					found = true;
				}
			}
		if (!found) {
			fprintf(stderr, "%s: FUZZ_DISPLAY_VERDICTS: '%s' reports %s:%u:%u, no leaf of %s\n",
			        FUZZ_TARGET, path, file, ln, col, spec.path);
			exit(2);
		}
	}
	fclose(f);
	if (!reported || !any) {
		fprintf(stderr, "%s: FUZZ_DISPLAY_VERDICTS: '%s' has no lint record of %s\n",
		        FUZZ_TARGET, path, base_of(spec.path));
		exit(2);
	}
}

static void print_tally(void)
{
	fprintf(stderr, "%s: %lu instructions, %lu with a meaning: %lu assembled to one "
	        "encoding (%lu held word for word, by %s), %lu not assembled, %lu ambiguous\n",
	        FUZZ_TARGET, tally.instr, tally.meaningful, tally.assembled, tally.word_for_word,
	        reported ? "lint's verdicts" : "the static check", tally.unassembled, tally.ambiguous);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	/* for fuzz/with-display-verdicts: which file to ask lint about */
	const char *ps = getenv("FUZZ_PRINT_SPEC");
	if (ps && *ps && *ps != '0') {
		printf("%s\n", spec.path);
		exit(0);
	}
	const char *vf = getenv("FUZZ_DISPLAY_VERDICTS");
	if (vf && *vf)
		load_verdicts(vf);
	const char *st = getenv("FUZZ_STATS");
	if (st && *st && *st != '0')
		atexit(print_tally);
	return 0;
}

/* Whether the assembler must give the very words back for this leaf: only
 * when its display neither loses nor blurs bits.  The one place that
 * decides it: codec_display_invertible when the codec has it (CMake
 * defines FUZZ_HAVE_DISPLAY_INVERTIBLE when codec.h declares it), and
 * until then never, since a display that drops a bit is no bug. */
static bool words_must_match(const codec *c, const spec_bitset *leaf)
{
	if (reported)
		return leaf->index < spec.m->nbitsets && !reported[leaf->index];
#ifdef FUZZ_HAVE_DISPLAY_INVERTIBLE
	/* The analysis is exhaustive over expression inputs and its answer
	 * is the leaf's: worked out once per leaf (it was most of the time
	 * of an exec), per process, as the spec is. */
	static uint8_t *verdict; /* per bitset index: 0 not yet, 1 yes, 2 no */
	if (!verdict && !(verdict = calloc(spec.m->nbitsets + 1, 1))) {
		char why[256];
		return codec_display_invertible(c, leaf, why, sizeof why);
	}
	if (leaf->index < spec.m->nbitsets && !verdict[leaf->index]) {
		char why[256];
		verdict[leaf->index] = codec_display_invertible(c, leaf, why, sizeof why) ? 1 : 2;
	}
	return leaf->index < spec.m->nbitsets && verdict[leaf->index] == 1;
#else
	(void)c;
	(void)leaf;
	return false;
#endif
}

static void text_one(const uint8_t *data, size_t size, const uint64_t *w, const uint32_t *u,
                     uint32_t gen)
{
	static fuzz_decoding d1, d2;
	tally.instr++;
	fuzz_decode(&spec, w, gen, &d1);
	if (!d1.d.leaf)
		return;
	for (size_t i = 0; i < d1.d.nissues; i++)
		if (d1.d.issues[i].kind != CODEC_DONTCARE_SET)
			return;
	tally.meaningful++;
	codec_disasm_options opt = {.gen = gen, .show_errors = false, .no_match = spec.no_match};
	char t1[1024], t2[1024], err[256] = "", what[512];
	if (codec_disasm_one(spec.c, u, &opt, t1, sizeof t1) >= sizeof t1)
		return; /* cut: not a whole line to assemble */
	uint64_t w2[FUZZ_MAX_WORDS] = {0};
	size_t n = codec_assemble_as(spec.c, t1, gen, spec.no_match, w2, err, sizeof err);
	if (n != 1) {
		if (n == 0) {
			/* The input's own word prints the text: "no encoding" is
			 * the assembler's gap, whatever the display hides. */
			tally.unassembled++;
			snprintf(what, sizeof what, "the assembler finds no encoding for the text of %s, "
			         "which the input prints: %s", d1.d.leaf->name, err);
			fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what,
			             &(fuzz_side){"input", w, &d1.d, t1}, NULL);
		} else {
			tally.ambiguous++;
		}
		return;
	}
	tally.assembled++;
	uint32_t u2[FUZZ_MAX_WORDS * 2];
	for (unsigned k = 0; k < spec.nbytes / 4; k++)
		u2[k] = (uint32_t)(w2[k / 2] >> (32 * (k % 2)));
	codec_disasm_one(spec.c, u2, &opt, t2, sizeof t2);
	fuzz_decode(&spec, w2, gen, &d2);
	fuzz_side in = {"input", w, &d1.d, t1}, as = {"assembled", w2, &d2.d, t2};
	if (strcmp(t1, t2)) {
		snprintf(what, sizeof what, "the assembled %s prints other text", d1.d.leaf->name);
		fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, &in, &as);
		return;
	}
	if (!d2.ok) {
		snprintf(what, sizeof what, "the assembled %s does not decode cleanly: %s",
		         d1.d.leaf->name, d2.d.nissues ? d2.d.issues[0].text : "?");
		fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, &in, &as);
		return;
	}
	if (!words_must_match(spec.c, d1.d.leaf))
		return;
	tally.word_for_word++;
	/* Outside the x bits, and outside the bits of asserts (the assembler
	 * writes their expected value; a word that breaks one Mesa does not
	 * check prints like the canonical word). */
	uint64_t x[FUZZ_MAX_WORDS], am[FUZZ_MAX_WORDS], acc[FUZZ_MAX_WORDS];
	fuzz_decoding_masks(&spec, &d1.d, x, am, acc);
	for (unsigned k = 0; k < spec.nwords; k++) {
		/* holes in Mesa's specs are theirs (see roundtrip.c) */
#ifndef FUZZ_STRICT_SPEC
		x[k] |= ~acc[k];
#endif
		if ((w[k] ^ w2[k]) & ~x[k] & ~am[k]) {
			snprintf(what, sizeof what, "%s: its display is invertible, but the assembled "
			         "words differ (word %u: bits 0x%016llx)", d1.d.leaf->name, k,
			         (unsigned long long)((w[k] ^ w2[k]) & ~x[k] & ~am[k]));
			fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, &in, &as);
			return;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint32_t gen = fuzz_spec_gen(&spec, (uint16_t)(data[0] | data[1] << 8));
	uint64_t w[FUZZ_MAX_WORDS];
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (size_t i = 0; fuzz_input_instr(&spec, data, size, i, w, u); i++)
		text_one(data, size, w, u, gen);
	return 0;
}
