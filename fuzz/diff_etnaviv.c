/*
 * diff_etnaviv.c - fuzz target diff_etnaviv: isa/etnaviv.xml through the
 * spec codec against the hand-written reference codec (src/ref/etnaviv.h),
 * which reads no XML, both directions.  Input: the word targets' format
 * (fuzz.h: two header bytes, then up to 8 instructions of 16 bytes).
 *
 *  1. decode: both codecs accept the word or both reject it; when they
 *     accept, both give the same instruction and the same value for every
 *     member of a ref_etnaviv_inst (opcode, operation, condition, data
 *     type, destination, each source slot, the unit's own fields), the
 *     same immediates, derived thread half and data type, and the same
 *     set don't-care bits.  The spec's decoding is read into that struct
 *     through a table of isa/etnaviv.xml's field names, and a field
 *     outside the table is a finding (it would go uncompared);
 *  2. encode: the reference's encoding of its own decoding, the
 *     reference's encoding of the spec's decoding (read into the struct)
 *     and codec_encode of the spec's decoding are all the input with its
 *     don't-care bits cleared: the same canonical words.
 *
 * The mapping is fuzz/refmap_etnaviv.c, shared with
 * tests/test_isa_etnaviv.c.
 */
#include "etnaviv.h"
#include "fuzz.h"
#include "refmap_etnaviv.h"

#include <stdlib.h>
#include <string.h>

static fuzz_spec spec;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	int rc = fuzz_spec_load(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	if (!rc && spec.nbytes != 16) {
		fprintf(stderr, "fuzz: %s: the default root is %u bits, not 128\n", spec.path,
		        spec.nbytes * 8);
		rc = 2;
	}
	if (rc)
		exit(rc);
	return 0;
}

/* Each member as a line "name = value", for the report and the diff. */
static void meaning_lines(const refmap_etnaviv_meaning *m, char *buf, size_t len)
{
	buf[0] = 0;
	fuzz_appendf(buf, len, "name = %s\n", m->name ? m->name : "(rejected)");
	if (!m->name)
		return;
	const ref_etnaviv_inst *x = &m->inst;
#define L(f) fuzz_appendf(buf, len, "%s = 0x%llx\n", #f, (unsigned long long)(x->f))
	L(opcode); L(ext_op); L(cond); L(sat); L(type);
	L(dst_use); L(dst_amode); L(dst_reg); L(dst_comps);
	L(rounding); L(pack_off); L(left_shift); L(skphp); L(local);
	L(denorm); L(low_half); L(high_half); L(dst_full);
	L(tex_id); L(tex_amode); L(tex_swiz); L(target);
	for (int s = 0; s < 3; s++) {
		L(src[s].use); L(src[s].reg); L(src[s].swiz); L(src[s].neg);
		L(src[s].abs); L(src[s].amode); L(src[s].rgroup);
	}
	for (int k = 0; k < 4; k++)
		L(dontcare[k]);
#undef L
	for (int s = 0; s < 3; s++)
		fuzz_appendf(buf, len, "imm[%d] = %d kind %u 0x%llx\n", s, m->imm[s], m->imm_kind[s],
		             (unsigned long long)m->imm_raw[s]);
	fuzz_appendf(buf, len, "thread (derived) = %u\ntype (derived) = %u\n", m->thread, m->type);
}

/* Issues other than no match, set don't-care bits and unnamed enum
 * values: the XML (or the codec) is broken, whatever the reference says. */
static const codec_issue *odd_issue(const codec_decoded *d)
{
	for (size_t i = 0; i < d->nissues; i++)
		if (d->issues[i].kind != CODEC_NO_MATCH && d->issues[i].kind != CODEC_DONTCARE_SET &&
		    d->issues[i].kind != CODEC_ENUM_MISSING)
			return &d->issues[i];
	return NULL;
}

/* ----------------------------------------------------------- the check */

static void words64(const uint32_t u[4], uint64_t w[2])
{
	w[0] = (uint64_t)u[0] | (uint64_t)u[1] << 32;
	w[1] = (uint64_t)u[2] | (uint64_t)u[3] << 32;
}

static void diff_one(const uint8_t *data, size_t size, const uint64_t *w, const uint32_t *u,
                     uint32_t gen)
{
	static fuzz_decoding sd, ed;
	static char ls[4096], rs[4096];
	char what[512], ts[1024];
	fuzz_decode(&spec, w, gen, &sd);
	refmap_etnaviv_meaning ms, mr;
	refmap_etnaviv_from_decoded(&sd.d, &refmap_etnaviv_our_names, &ms);
	ref_etnaviv_status st = refmap_etnaviv_from_ref(u, &mr);
	codec_disasm_options opt = {.gen = gen, .show_errors = true, .no_match = spec.no_match};

	/* 1. decode */
	const char *diff = refmap_etnaviv_diff(&ms, &mr, "validity");
	static char unknown[160];
	const char *field = diff ? NULL : refmap_etnaviv_unknown_field(&sd.d, &refmap_etnaviv_our_names);
	if (field) {
		snprintf(unknown, sizeof unknown, "field %s (no member of the reference's struct "
		         "holds it)", field);
		diff = unknown;
	}
	const codec_issue *odd = odd_issue(&sd.d);
	if (diff || odd || sd.d.nvalues >= FUZZ_MAX_VALUES) {
		if (odd)
			snprintf(what, sizeof what, "the spec decodes with an issue: %s", odd->text);
		else if (diff)
			snprintf(what, sizeof what, "spec and reference decode differently: %s (spec %s, "
			         "reference %s: %s)", diff, ms.name ? ms.name : "no match",
			         mr.name ? mr.name : "rejects", ref_etnaviv_status_text(st));
		else
			snprintf(what, sizeof what, "more than %d values", FUZZ_MAX_VALUES);
		codec_disasm_one(spec.c, u, &opt, ts, sizeof ts);
		meaning_lines(&ms, ls, sizeof ls);
		meaning_lines(&mr, rs, sizeof rs);
		fuzz_finding_lines(FUZZ_TARGET, &spec, data, size, gen, what,
		                   &(fuzz_side){"spec", w, &sd.d, ts},
		                   &(fuzz_side){"reference", w, NULL, ref_etnaviv_status_text(st)},
		                   ls, rs);
		return;
	}
	if (!ms.name)
		return;

	/* 2. encode: three ways to the same canonical words */
	uint32_t canon[4], wr[4], wx[4];
	for (int k = 0; k < 4; k++)
		canon[k] = u[k] & ~mr.inst.dontcare[k];
	char er[200] = "", ex[200] = "", es[200] = "";
	ref_etnaviv_status e1 = ref_etnaviv_encode(&mr.inst, wr, er, sizeof er);
	ref_etnaviv_status e2 = ref_etnaviv_encode(&ms.inst, wx, ex, sizeof ex);
	uint64_t wc[2] = {0, 0}, w64r[2], w64x[2], w64c[2];
	bool e3 = codec_encode(spec.c, &sd.d, wc, es, sizeof es);
	words64(wr, w64r);
	words64(wx, w64x);
	words64(canon, w64c);
	const char *bad = NULL;
	if (e1 != REF_ETNAVIV_OK)
		bad = "the reference does not encode its own decoding";
	else if (e2 != REF_ETNAVIV_OK)
		bad = "the reference does not encode the spec's decoding";
	else if (!e3)
		bad = "codec_encode refuses the spec's decoding";
	else if (memcmp(w64r, w64c, sizeof w64c))
		bad = "the reference's encoding is not the canonical word";
	else if (memcmp(w64x, w64c, sizeof w64c))
		bad = "the reference's encoding of the spec's decoding is not the canonical word";
	else if (memcmp(wc, w64c, sizeof w64c))
		bad = "the spec's encoding is not the reference's";
	if (!bad)
		return;
	snprintf(what, sizeof what, "%s (%s)%s%s%s%s", bad, ms.name, *er ? ": " : "", er,
	         *ex ? ": " : *es ? ": " : "", *ex ? ex : es);
	/* the two encodings side by side: the spec's and the reference's */
	uint32_t uc[4] = {(uint32_t)wc[0], (uint32_t)(wc[0] >> 32), (uint32_t)wc[1],
	                  (uint32_t)(wc[1] >> 32)};
	char tr[1024];
	fuzz_decode(&spec, wc, gen, &ed);
	codec_disasm_one(spec.c, uc, &opt, ts, sizeof ts);
	codec_disasm_one(spec.c, wr, &opt, tr, sizeof tr);
	meaning_lines(&ms, ls, sizeof ls);
	meaning_lines(&mr, rs, sizeof rs);
	fuzz_finding_lines(FUZZ_TARGET, &spec, data, size, gen, what,
	                   &(fuzz_side){"spec encoded", wc, &ed.d, ts},
	                   &(fuzz_side){"reference encoded", w64r, NULL, tr}, ls, rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint32_t gen = fuzz_spec_gen(&spec, (uint16_t)(data[0] | data[1] << 8));
	uint64_t w[FUZZ_MAX_WORDS];
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (size_t i = 0; fuzz_input_instr(&spec, data, size, i, w, u); i++)
		diff_one(data, size, w, u, gen);
	return 0;
}
