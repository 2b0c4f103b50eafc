/*
 * crossspec.c - fuzz target crossspec_<isa>: two descriptions of one ISA
 * (FUZZ_SPEC, ours; FUZZ_SPEC2, Mesa's) on the same words must agree in
 * meaning: both give the word a meaning (a leaf, no failing assert or
 * expression) or neither does, and when both do, both print the same
 * text (errors not shown).  Built from fuzz/targets.cmake.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* The two specs, loaded once per process (libFuzzer gives no context). */
static fuzz_spec ours, theirs;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	int rc = fuzz_spec_load(&ours, FUZZ_SPEC, FUZZ_NO_MATCH);
	if (!rc)
		rc = fuzz_spec_load(&theirs, FUZZ_SPEC2, FUZZ_NO_MATCH);
	if (!rc && ours.nbytes != theirs.nbytes) {
		fprintf(stderr, "fuzz: %s and %s have instructions of %u and %u bytes\n",
		        ours.path, theirs.path, ours.nbytes, theirs.nbytes);
		rc = 2;
	}
	if (rc)
		exit(rc);
	return 0;
}

static bool has_meaning(const codec_decoded *d)
{
	if (!d->leaf)
		return false;
	for (size_t i = 0; i < d->nissues; i++)
		if (d->issues[i].kind == CODEC_ASSERT_MISMATCH ||
		    d->issues[i].kind == CODEC_EXPR_ERROR || d->issues[i].kind == CODEC_NO_MATCH ||
		    d->issues[i].kind == CODEC_AMBIGUOUS)
			return false;
	return true;
}

/* The opcodes newer Mesa names and the Mesa 24.3 file in ../shared does
 * not (docs/isa/etnaviv.md, class "newer-opcodes"; tests/test_isa_etnaviv.c
 * holds the same list): ours decodes them, Mesa's matches nothing. */
static bool newer_opcode(const spec_bitset *leaf)
{
	static const char *const names[] = {"swizzle", "txf", "texldgpcf", "img_store"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(spec_display_name(leaf), names[i]))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static fuzz_decoding a, b;
	if (size < 2)
		return 0;
	uint16_t raw = (uint16_t)(data[0] | data[1] << 8);
	uint32_t ga = fuzz_spec_gen(&ours, raw), gb = fuzz_spec_gen(&theirs, raw);
	uint64_t w[FUZZ_MAX_WORDS];
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (size_t i = 0; fuzz_input_instr(&ours, data, size, i, w, u); i++) {
		fuzz_decode(&ours, w, ga, &a);
		fuzz_decode(&theirs, w, gb, &b);
		codec_disasm_options oa = {.gen = ga, .no_match = ours.no_match};
		codec_disasm_options ob = {.gen = gb, .no_match = theirs.no_match};
		char ta[1024], tb[1024], what[256];
		codec_disasm_one(ours.c, u, &oa, ta, sizeof ta);
		codec_disasm_one(theirs.c, u, &ob, tb, sizeof tb);
		fuzz_side l = {ours.path, w, &a.d, ta}, r = {theirs.path, w, &b.d, tb};
		bool ma = has_meaning(&a.d), mb = has_meaning(&b.d);
		if (ma && !mb && newer_opcode(a.d.leaf))
			continue; /* a documented difference, not a finding */
		if (ma != mb) {
			snprintf(what, sizeof what, "only %s gives the word a meaning",
			         ma ? "ours" : "Mesa's");
			fuzz_finding(FUZZ_TARGET, &ours, data, size, ga, what, &l, &r);
			return 0;
		}
		if (ma && strcmp(ta, tb)) {
			snprintf(what, sizeof what, "the two print different text (%s vs %s)",
			         a.d.leaf->name, b.d.leaf->name);
			fuzz_finding(FUZZ_TARGET, &ours, data, size, ga, what, &l, &r);
			return 0;
		}
	}
	return 0;
}
