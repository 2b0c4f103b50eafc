/*
 * oracle.c - isacheck held to Mesa's own isaspec decoders (oracle.h).
 */
#include "oracle.h"

#include "mesa_oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

/* An instruction of the buffer as the codec's 64-bit words. */
static void instr_w64(const uint32_t *u, unsigned w, uint64_t *out)
{
	memset(out, 0, SPEC_MAX_BITS / 8);
	for (unsigned k = 0; k < w && k < SPEC_MAX_BITS / 32; k++)
		out[k / 2] |= (uint64_t)u[k] << (32 * (k % 2));
}

/* Whether Mesa's isa_disasm would end the buffer with errors pending:
 * errors an instruction records while no leaf is chosen (a bitset
 * conflict: two leaves match) are printed on the next instruction a leaf
 * matches, and a buffer whose last instructions are such leaves them
 * unprinted, and leaks their texts (Mesa's bug). */
static bool errors_pending_at_end(const codec *c, const uint32_t *words, size_t ninstr,
                                  unsigned w, const codec_disasm_options *o)
{
	if (!o->show_errors)
		return false; /* none are recorded */
	const spec_root *root = codec_default_root(c);
	for (size_t i = ninstr; i-- > 0;) {
		uint64_t w64[SPEC_MAX_BITS / 64];
		const spec_bitset *hit[2];
		instr_w64(words + i * w, w, w64);
		size_t n = codec_classify(c, root, w64, o->gen, hit, 2);
		if (n == 1)
			return false;
		if (n > 1)
			return true;
	}
	return false;
}

/* An instruction exactly one leaf matches at gen: the pattern of the
 * first leaf that alone matches its own pattern, fields 0. */
static bool clean_instruction(const codec *c, uint32_t gen, unsigned w, uint32_t *out)
{
	const spec_root *root = codec_default_root(c);
	for (size_t l = 0; l < root->nleaves; l++) {
		const spec_bitset *leaf = root->leaves[l];
		if (gen < leaf->gen.min || gen > leaf->gen.max)
			continue;
		uint64_t w64[SPEC_MAX_BITS / 64] = {0};
		for (unsigned k = 0; k < leaf->match.nwords && k < SPEC_MAX_BITS / 64; k++)
			w64[k] = leaf->match.w[k];
		const spec_bitset *hit[2];
		if (codec_classify(c, root, w64, gen, hit, 2) != 1)
			continue;
		for (unsigned k = 0; k < w; k++)
			out[k] = (uint32_t)(w64[k / 2] >> (32 * (k % 2)));
		return true;
	}
	return false;
}

size_t oracle_isaspec_styles(const char *isa, codec_no_match_style out[2])
{
	if (!isa)
		return 0;
	if (!strcmp(isa, "ir3")) {
		out[0] = CODEC_NO_MATCH_IR3;
		out[1] = CODEC_NO_MATCH_MESA;
		return 2;
	}
	if (!strcmp(isa, "etnaviv")) {
		out[0] = CODEC_NO_MATCH_MESA;
		return 1;
	}
	if (!strcmp(isa, "afuc")) {
		out[0] = CODEC_NO_MATCH_AFUC;
		return 1;
	}
	return 0;
}

codec_disasm_options oracle_isaspec_options(const char *isa, codec_no_match_style style,
                                            uint32_t gen)
{
	bool afuc = isa && !strcmp(isa, "afuc");
	bool tool = style == CODEC_NO_MATCH_AFUC || (style == CODEC_NO_MATCH_MESA && isa &&
	                                             !strcmp(isa, "ir3"));
	return (codec_disasm_options){.gen = gen, .show_errors = !afuc, .branch_labels = tool,
	                              .no_match = style};
}

/* The oracle's flags for the same options. */
static unsigned oracle_flags(const char *isa, const codec_disasm_options *o)
{
	unsigned f = MESA_ORACLE_RAW_GPU_ID;
	f |= o->show_errors ? MESA_ORACLE_SHOW_ERRORS : MESA_ORACLE_NO_ERRORS;
	if (o->branch_labels)
		f |= MESA_ORACLE_BRANCH_LABELS;
	/* ir3's default is its unit test's print_raw; etnaviv's is isaspec's
	 * own no match already; afuc's is afuc-disasm's */
	if (!strcmp(isa, "ir3") && o->no_match == CODEC_NO_MATCH_MESA)
		f |= MESA_ORACLE_NO_MATCH_PLAIN;
	return f;
}

bool oracle_first_difference(const char *ours, const char *mesa, oracle_line_diff *d)
{
	const char *a = ours, *b = mesa;
	for (size_t line = 0;; line++) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
		size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
		if (la != lb || memcmp(a, b, la) || !ea != !eb) {
			*d = (oracle_line_diff){line, a, b, la, lb};
			return true;
		}
		if (!ea)
			return false;
		a = ea + 1;
		b = eb + 1;
	}
}

/* Both texts of the buffer as it is. */
static bool compare_texts(const codec *c, const char *isa, const uint32_t *words, size_t ninstr,
                          unsigned w, const codec_disasm_options *o, oracle_isaspec_result *r)
{
	if (ninstr == 1 && !o->branch_labels) {
		/* one instruction: codec_disasm_one's way (its line without
		 * the newline Mesa ends it with) */
		char line[4096];
		size_t n = codec_disasm_one(c, words, o, line, sizeof line);
		if (n >= sizeof line || !(r->ours = malloc(n + 2)))
			return false;
		memcpy(r->ours, line, n);
		memcpy(r->ours + n, "\n", 2);
		r->ourslen = n + 1;
	} else {
		FILE *f = open_memstream(&r->ours, &r->ourslen);
		if (!f)
			return false;
		codec_disasm(c, words, ninstr, o, f);
		if (fclose(f) || !r->ours)
			return false;
	}
	/* Mesa's text: one try with room for most, a second with its length */
	size_t cap = 512 * ninstr + 1024;
	for (int round = 0; round < 2; round++) {
		free(r->mesa);
		r->mesa = malloc(cap);
		if (!r->mesa)
			return false;
		r->status = mesa_oracle_isaspec_disasm_ex(isa, o->gen, words, ninstr * w,
		                                          oracle_flags(isa, o), r->mesa, cap);
		if (r->status < 0 || (size_t)r->status < cap)
			break;
		cap = (size_t)r->status + 1;
	}
	if (r->status < 0)
		return true;
	r->mesalen = (size_t)r->status;
	r->same = r->ourslen == r->mesalen && !memcmp(r->ours, r->mesa, r->mesalen);
	if (!r->same && !oracle_first_difference(r->ours, r->mesa, &r->diff))
		r->diff = (oracle_line_diff){0, "", "", 0, 0}; /* a NUL inside: same lines */
	return true;
}

bool oracle_isaspec_compare(const codec *c, const char *isa, const uint32_t *words,
                            size_t ninstr, const codec_disasm_options *o,
                            oracle_isaspec_result *r)
{
	memset(r, 0, sizeof *r);
	unsigned w = mesa_oracle_isaspec_words(isa);
	if (!w)
		return false;
	/* errors pending at the end: one clean instruction more, on both
	 * sides, prints them (so they are compared too) */
	uint32_t *padded = NULL;
	if (errors_pending_at_end(c, words, ninstr, w, o)) {
		padded = malloc((ninstr + 1) * w * sizeof *padded);
		if (!padded || !clean_instruction(c, o->gen, w, padded + ninstr * w)) {
			free(padded);
			return false;
		}
		memcpy(padded, words, ninstr * w * sizeof *padded);
		words = padded;
		ninstr++;
		r->padded = true;
	}
	bool ok = compare_texts(c, isa, words, ninstr, w, o, r);
	free(padded);
	return ok;
}

void oracle_isaspec_result_free(oracle_isaspec_result *r)
{
	free(r->ours);
	free(r->mesa);
	memset(r, 0, sizeof *r);
}
