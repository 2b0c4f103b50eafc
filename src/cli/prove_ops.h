/*
 * prove_ops.h - the codec as the proofs of meaning see it
 * (prove_text_ops): what a word decodes to, prints, re-encodes to, and
 * which cases the decoder took.  Header only, so that the CLI and the
 * tests hold the proofs to one and the same decoder glue.
 */
#ifndef ISACHECK_PROVE_OPS_H
#define ISACHECK_PROVE_OPS_H

#include "check.h"
#include "codec.h"

static inline bool prove_ops_decode(void *ctx, const spec_root *root, const uint64_t *w,
                                    uint32_t gen, const spec_bitset **leaf, char *text,
                                    size_t len, uint64_t *digest)
{
	return codec_decode_digest(ctx, root, w, gen, leaf, text, len, digest);
}

static inline void prove_ops_differ(void *ctx, const spec_root *root, const uint64_t *a,
                                    const uint64_t *b, uint32_t gen, char *buf, size_t len)
{
	codec_describe_difference(ctx, root, a, b, gen, buf, len);
}

static inline int prove_ops_roundtrip(void *ctx, const spec_root *root, const uint64_t *w,
                                      uint32_t gen, const spec_bitset **leaf, uint64_t *diff,
                                      char *why, size_t len)
{
	uint64_t out[SPEC_MAX_BITS / 64];
	switch (codec_roundtrip(ctx, root, w, gen, leaf, out, diff, why, len)) {
	case CODEC_RT_KEPT:
		return PROVE_RT_KEPT;
	case CODEC_RT_REFUSED:
	case CODEC_RT_CHANGED:
		return PROVE_RT_LOST;
	default:
		return PROVE_RT_NO_MEANING;
	}
}

/* The cases the display walks found to hold, the definitions the names
 * resolved to, and the asserts that failed, for one word. */
static inline bool prove_ops_taken(void *ctx, const spec_root *root, const uint64_t *w,
                                   uint32_t gen, prove_taken *out)
{
	codec_value values[PROVE_TAKEN_MAX];
	codec_issue issues[PROVE_TAKEN_MAX / 8];
	codec_case_taken cases[PROVE_TAKEN_MAX];
	codec_decoded d = {.values = values, .cap_values = PROVE_TAKEN_MAX, .issues = issues,
	                   .cap_issues = PROVE_TAKEN_MAX / 8, .cases = cases,
	                   .cap_cases = PROVE_TAKEN_MAX};
	codec_decode(ctx, root, w, gen, &d); /* issues are fine: they are listed */
	if (!d.leaf)
		return false;
	out->cut = d.nvalues == d.cap_values || d.nissues == d.cap_issues ||
	           d.ncases > d.cap_cases;
	out->nheld = d.ncases < d.cap_cases ? d.ncases : d.cap_cases;
	for (size_t i = 0; i < out->nheld; i++)
		out->held[i] = (prove_taken_case){cases[i].owner, cases[i].kase, cases[i].shown};
	out->ndecided = d.nvalues;
	for (size_t i = 0; i < d.nvalues; i++)
		out->decided[i] = (prove_taken_field){values[i].owner, values[i].field, values[i].raw};
	out->nfailed = 0;
	for (size_t i = 0; i < d.nissues; i++)
		if (issues[i].kind == CODEC_ASSERT_MISMATCH && issues[i].field)
			out->failed[out->nfailed++] = issues[i].field;
	return true;
}

static inline prove_text_ops prove_codec_ops(const struct codec *cd)
{
	return (prove_text_ops){.ctx = (void *)cd, .decode = prove_ops_decode,
	                        .differ = prove_ops_differ, .roundtrip = prove_ops_roundtrip,
	                        .taken = prove_ops_taken};
}

#endif
