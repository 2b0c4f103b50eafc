/*
 * diff_a2xx.c - fuzz target diff_a2xx: isa/a2xx.xml through the spec
 * codec against the hand-written reference codec (src/ref/a2xx.h), which
 * reads no XML, both directions.
 *
 * Input: the word targets' format (fuzz.h) with the two header bytes
 * choosing roots instead of a generation (a2xx has none): up to 8 slots
 * of 96 bits, and bits 2i..2i+1 of the header (little-endian) say what
 * slot i is: 0 a CF pair (both 48-bit CFs, each at #cf), 1 #alu, 2 #fetch,
 * 3 all three readings of the same bits.
 *
 *  1. decode: both accept the instruction or both reject it (a vector
 *     opcode 30, an unassigned scalar or fetch opcode, a vertex fetch
 *     with bit 19 clear, an enum value the spec does not name); when they
 *     accept, the spec's leaf is the reference's opcode name, both see a
 *     set don't-care bit or neither does, and every field the spec
 *     decodes (depth 0, and an ALU operand's REG or CONST) has the
 *     reference's value, and the reverse;
 *  2. encode: the reference's encoding of its decoding with the
 *     don't-care bits cleared equals codec_encode of the spec's decoding.
 *
 * The field mapping is fuzz/refmap_a2xx.c, shared with
 * tests/test_isa_a2xx.c.
 */
#include "a2xx.h"
#include "fuzz.h"
#include "refmap_a2xx.h"

#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

static fuzz_spec spec;
static const spec_root *root_cf, *root_alu, *root_fetch;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	int rc = fuzz_spec_load(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	if (!rc) {
		root_cf = spec_find_root(spec.m, "#cf");
		root_alu = spec_find_root(spec.m, "#alu");
		root_fetch = spec_find_root(spec.m, "#fetch");
		if (!root_cf || !root_alu || !root_fetch || spec.nbytes != 12) {
			fprintf(stderr, "fuzz: %s: no #cf, #alu and #fetch roots of 96-bit slots\n",
			        spec.path);
			rc = 2;
		}
	}
	if (rc)
		exit(rc);
	return 0;
}

/* Both views as "NAME = value" lines in the reference's order, so that
 * the report marks the field they disagree on. */
static void both_lines(const codec_decoded *d, const refmap_a2xx_expect *e, char *ls, size_t ll, char *rs,
                       size_t rl)
{
	static refmap_a2xx_seen s;
	refmap_a2xx_spec_fields(d, true, &s);
	ls[0] = rs[0] = 0;
	fuzz_appendf(ls, ll, "leaf = %s\n", d->leaf ? d->leaf->name : "(none)");
	fuzz_appendf(rs, rl, "leaf = %s (%s)\n", e->leaf ? e->leaf : "(unnamed)", e->status);
	bool used[N(s.f)] = {false};
	for (size_t k = 0; k < e->n; k++) {
		size_t i = 0;
		while (i < s.n && strcmp(s.f[i].name, e->f[k].name))
			i++;
		fuzz_appendf(rs, rl, "%s = 0x%llx\n", e->f[k].name, (unsigned long long)e->f[k].value);
		if (i < s.n) {
			used[i] = true;
			fuzz_appendf(ls, ll, "%s = 0x%llx\n", s.f[i].name,
			             (unsigned long long)s.f[i].value);
		} else {
			fuzz_appendf(ls, ll, "%s: none\n", e->f[k].name);
		}
	}
	for (size_t i = 0; i < s.n; i++)
		if (!used[i])
			fuzz_appendf(ls, ll, "%s = 0x%llx (not in the reference)\n", s.f[i].name,
			             (unsigned long long)s.f[i].value);
}

/* ----------------------------------------------------------- the check */

enum kind { K_CF = REFMAP_A2XX_CF, K_ALU = REFMAP_A2XX_ALU, K_FETCH = REFMAP_A2XX_FETCH };

static void words96(const uint32_t w[3], uint64_t v[2])
{
	v[0] = (uint64_t)w[0] | (uint64_t)w[1] << 32;
	v[1] = w[2];
}

/* One instruction of one kind through both codecs, both ways. */
static void diff_one(const uint8_t *data, size_t size, enum kind k, const uint32_t w3[3],
                     uint64_t cf)
{
	static fuzz_decoding x, y;
	static refmap_a2xx_expect e;
	static char ls[4096], rs[4096];
	const spec_root *root = k == K_CF ? root_cf : k == K_ALU ? root_alu : root_fetch;
	fuzz_spec view = fuzz_spec_view(&spec, root);
	uint64_t v[2] = {cf, 0};
	if (k != K_CF)
		words96(w3, v);
	fuzz_decoding_reset(&x);
	codec_decode(spec.c, root, v, 0, &x.d);
	fuzz_spec_coverage(&x.d);
	if (k == K_CF)
		refmap_a2xx_expect_cf(cf, &e);
	else if (k == K_ALU)
		refmap_a2xx_expect_alu(w3, &e);
	else
		refmap_a2xx_expect_fetch(w3, &e);
	codec_disasm_options opt = {.gen = 0, .show_errors = true};
	char why[300], what[400], ts[1024], tr[1024];

	/* 1. decode */
	if (!refmap_a2xx_agree(&x.d, &e, true, why, sizeof why) || x.d.nvalues >= FUZZ_MAX_VALUES) {
		snprintf(what, sizeof what, "%s: spec and reference decode differently: %s",
		         root->bitset->name, why);
		codec_disasm_root(spec.c, root, v, &opt, ts, sizeof ts);
		both_lines(&x.d, &e, ls, sizeof ls, rs, sizeof rs);
		fuzz_finding_lines(FUZZ_TARGET, &view, data, size, 0, what,
		                   &(fuzz_side){"spec", v, &x.d, ts},
		                   &(fuzz_side){"reference", v, NULL, NULL}, ls, rs);
		return;
	}
	if (!e.valid)
		return;

	/* 2. encode: the reference without its don't-care bits, and the spec */
	uint64_t wr[2] = {0, 0}, ws[2] = {0, 0};
	a2xx_status st = refmap_a2xx_canonical((int)k, w3, cf, wr);
	char err[200] = "";
	bool sok = codec_encode(spec.c, &x.d, ws, err, sizeof err);
	if (st == A2XX_OK && sok && ws[0] == wr[0] && ws[1] == wr[1])
		return;
	if (st != A2XX_OK)
		snprintf(what, sizeof what, "%s: the reference does not encode its decoding of %s: %s",
		         root->bitset->name, x.d.leaf->name, a2xx_status_name(st));
	else if (!sok)
		snprintf(what, sizeof what, "%s: codec_encode refuses a decoded %s: %s",
		         root->bitset->name, x.d.leaf->name, err);
	else
		snprintf(what, sizeof what, "%s: the canonical encodings of %s differ",
		         root->bitset->name, x.d.leaf->name);
	fuzz_decoding_reset(&y);
	codec_decode(spec.c, root, ws, 0, &y.d);
	codec_disasm_root(spec.c, root, ws, &opt, ts, sizeof ts);
	codec_disasm_root(spec.c, root, wr, &opt, tr, sizeof tr);
	both_lines(&x.d, &e, ls, sizeof ls, rs, sizeof rs);
	fuzz_finding_lines(FUZZ_TARGET, &view, data, size, 0, what,
	                   &(fuzz_side){"spec encoded", ws, &y.d, ts},
	                   &(fuzz_side){"reference encoded", wr, NULL, tr}, ls, rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned roots = (unsigned)(data[0] | data[1] << 8);
	uint64_t w[FUZZ_MAX_WORDS];
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (size_t i = 0; fuzz_input_instr(&spec, data, size, i, w, u); i++) {
		unsigned sel = (roots >> (2 * i)) & 3;
		if (sel == 0 || sel == 3) {
			uint64_t cf0, cf1;
			a2xx_cf_pair_unpack(u, &cf0, &cf1);
			diff_one(data, size, K_CF, u, cf0);
			diff_one(data, size, K_CF, u, cf1);
		}
		if (sel == 1 || sel == 3)
			diff_one(data, size, K_ALU, u, 0);
		if (sel == 2 || sel == 3)
			diff_one(data, size, K_FETCH, u, 0);
	}
	return 0;
}
