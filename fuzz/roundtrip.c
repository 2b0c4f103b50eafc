/*
 * roundtrip.c - fuzz target roundtrip_<spec>: decode, encode, decode.
 * Built once per spec (FUZZ_SPEC, FUZZ_TARGET from fuzz/targets.cmake).
 *
 * For every instruction of the input that decodes to a leaf (don't-care
 * bits set, enum values without a name and display-only problems are
 * fine: the instruction still has a meaning), the contract is:
 *
 *  1. codec_encode accepts the decoding;
 *  2. the re-encoding equals the input outside the declared don't-care
 *     bits (the leaf's and those of every sub-bitset leaf at its field),
 *     and has those bits 0 (the canonical form); bits of asserts Mesa
 *     does not check, and holes in the spec, are discussed below;
 *  3. the re-encoding decodes to the same meaning (leaf, and every value
 *     with its field, owner, depth and sub leaf, which decide the text)
 *     with the same issues, set don't-care bits aside;
 *  4. encoding is idempotent: the second decoding encodes to the same
 *     words.
 *
 * 3 and 4 rest on the decoder and the encoder being functions of their
 * inputs: a re-encoding equal to the input is not decoded again (its
 * decoding is the input's), and a second decoding equal to the first in
 * all the encoder reads is not encoded again; the checks run all the
 * same, on what stands for the skipped call.
 *
 * Words that decode to nothing, ambiguously, or with a failing assert
 * or expression have no meaning to keep; they are still disassembled
 * (no crash, bounded text).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* libFuzzer's interface gives a target no context argument: the spec is
 * loaded once per process into this, as every fuzz target must; so are
 * the decodings of an instruction (the input's, the re-encoding's, the
 * second encoding's) and the memory of instructions checked. */
static fuzz_spec spec;
static fuzz_decoding d1, d2, d3;

/* Under libFuzzer, where the spec's coverage steers (FUZZ_SPEC_COVERAGE),
 * an instruction this process has round-tripped without a finding is
 * recalled (fuzz.h, fuzz_memo) rather than checked again: decoding and
 * encoding are functions of the words, the generation and the root, so
 * the check would find what it found then.  A mutated input repeats
 * most of its parent's instructions: about half of those an a2xx or ir3
 * run reads were checked a few runs before.  The encoder's templates
 * are the one state a check leaves behind: an instruction is kept only
 * once its round trip added no template and took no template that did
 * not fit, so that checking it again would take the same way.  It is
 * recalled under any generation the codec cannot tell from the one it
 * was checked at (fuzz_spec_gen_class: an a2xx input's header picks a
 * generation, and a2xx has no <gen> ranges nor ISA_GPU_ID()).
 * FUZZ_NO_MEMO=1 in the environment checks every instruction (the
 * reproducers and AFL++ builds always do). */
#ifdef FUZZ_SPEC_COVERAGE
static fuzz_memo *memo;

static void print_memo_stats(void)
{
	fuzz_memo_stats st = fuzz_memo_get_stats(memo);
	fprintf(stderr, "stat::roundtrip_instructions:  %llu\n", st.asked);
	fprintf(stderr, "stat::roundtrip_recalled:      %llu\n", st.recalled);
	fprintf(stderr, "stat::roundtrip_kept:          %llu\n", st.kept);
}
#endif

static void find_tops(void);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	find_tops();
#ifdef FUZZ_SPEC_COVERAGE
	const char *off = getenv("FUZZ_NO_MEMO");
	if (!off || strcmp(off, "1"))
		memo = fuzz_memo_new(FUZZ_MEMO_LOG2_SLOTS);
	/* with libFuzzer's own figures, in their form (or, as other
	 * targets, with FUZZ_STATS=1: a replay has no libFuzzer flags) */
	const char *st = getenv("FUZZ_STATS");
	bool stats = st && !strcmp(st, "1");
	for (int i = 1; i < *argc; i++)
		stats |= !strcmp((*argv)[i], "-print_final_stats=1");
	if (memo && stats)
		atexit(print_memo_stats);
#else
	(void)argc;
	(void)argv;
#endif
	return 0;
}


/* Whether the decoding has an issue other than a set don't-care bit:
 * those must survive the round trip unchanged. */
static size_t count_issues_but_dontcare(const codec_decoded *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nissues; i++)
		n += d->issues[i].kind != CODEC_DONTCARE_SET;
	return n;
}

/* A spec without "#instruction" (ours: a2xx, Midgard) can have several
 * roots that stand for instructions of their own: those no field
 * decodes through (a2xx's #alu, #fetch, #cf-pair; Midgard's units).  The
 * first header byte picks the one the input's instructions belong to,
 * so each is round-tripped, not only the widest; roots that are some
 * field's type are round-tripped inside their parents.  With
 * "#instruction" (Mesa's), its root alone. */
static const spec_root *tops[64];
static size_t ntops;
/* The spec seen through each of tops, made once (a fuzz_spec is over a
 * kilobyte: copying one per input showed in the profile). */
static fuzz_spec views[64];

static void find_tops(void)
{
	const spec_model *m = spec.m;
	if (spec_find_root(m, "#instruction"))
		return;
	for (size_t r = 0; r < m->nroots && ntops < 64; r++) {
		const spec_bitset *b = m->roots[r].bitset;
		if (b->size && b->size <= 64 * FUZZ_MAX_WORDS && !spec_is_field_type(m, b)) {
			views[ntops] = fuzz_spec_view(&spec, &m->roots[r]);
			tops[ntops++] = &m->roots[r];
		}
	}
}

static const fuzz_spec *pick_root(const uint8_t *data)
{
	if (ntops < 2)
		return &spec;
	return &views[data[0] % ntops];
}

/* The input's instructions, for a root of any size (S may be a view),
 * into ws; returns how many. */
static size_t input_instrs(const fuzz_spec *S, const uint8_t *data, size_t size,
                           uint64_t (*ws)[FUZZ_MAX_WORDS])
{
	size_t n = 0;
	while (fuzz_input_instr(S, data, size, n, ws[n], NULL))
		n++;
	return n;
}

/* The text of an instruction of S's root, for a report. */
static size_t disasm(const fuzz_spec *S, const uint64_t *w, const codec_disasm_options *opt,
                     char *buf, size_t len)
{
	if (S->root != codec_default_root(S->c))
		return codec_disasm_root(S->c, S->root, w, opt, buf, len);
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (unsigned k = 0; k < 2 * S->nwords; k++)
		u[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
	return codec_disasm_one(S->c, u, opt, buf, len);
}

/* How a round trip that found nothing went, as fuzz_spec_coverage_outcome
 * marks it for the instruction's leaf.  Under libFuzzer this file has no
 * edge counters of its own (OUTCOMES in fuzz/targets.cmake): a recalled
 * instruction runs none of its code, so its edges would depend on what
 * the process happened to check before, and they were two fifths of
 * a2xx's features a run, each costing the engine its bookkeeping.  What
 * the edges told beyond the spec's counters is the less common ways a
 * round trip goes (RT_UNUSUAL), marked per leaf rather than over all
 * leaves.  The common ways are not marked: whether the re-encoding is
 * the input's very words or differs in x bits only follows from whether
 * the input sets x bits, which the spec's counters mark (an issue). */
enum {
	RT_MEANING = 1,       /* a leaf, no failing assert or expression */
	RT_OUTSIDE_X = 2,     /* the re-encoding differs outside the x bits */
	RT_UNCHECKED = 4,     /* ... at an assert Mesa does not check: nothing kept */
	RT_HOLE = 8,          /* ... at bits the active cases account for nowhere */
	RT_ENCODED_AGAIN = 16, /* the re-encoding's decoding was encoded again */
	RT_UNUSUAL = RT_OUTSIDE_X | RT_UNCHECKED | RT_HOLE | RT_ENCODED_AGAIN
};

/* Round-trips one instruction (the contract at the top); false when it
 * reported a finding (under FUZZ_KEEP_GOING=1 it returns), true when it
 * found nothing, with how it went in *how (RT_*).  The input's decoding
 * is left in d1. */
static bool roundtrip_check(const fuzz_spec *S, const uint8_t *data, size_t size,
                            const uint64_t *w, uint32_t gen, unsigned *how)
{
	codec_disasm_options opt = {.gen = gen, .show_errors = false, .no_match = S->no_match};
	char t1[1024], t2[1024];
	/* the decoding and the text, in one walk where the display prints
	 * straight through (the decoder walks it for its issues anyway) */
	size_t tl = fuzz_decode_text(S, w, &opt, &d1, t1, sizeof t1);
	if (tl < strlen(t1)) {
		fuzz_finding(FUZZ_TARGET, S, data, size, gen, "the disassembler returned "
		             "less than the text's length",
		             &(fuzz_side){"input", w, NULL, t1}, NULL);
		return false;
	}
	if (!fuzz_has_meaning(&d1.d))
		return true;
	*how |= RT_MEANING;
	fuzz_side in = {"input", w, &d1.d, t1};

	/* the instruction's words only (zeroing all FUZZ_MAX_WORDS, twice,
	 * showed in the profile): codec_encode writes the leaf's, the rest
	 * of the root's stay 0 */
	uint64_t w2[FUZZ_MAX_WORDS], w3[FUZZ_MAX_WORDS];
	memset(w2, 0, S->nwords * sizeof *w2);
	memset(w3, 0, S->nwords * sizeof *w3);
	uint64_t x[FUZZ_MAX_WORDS];
	char err[256] = "";
	char what[512];
	if (!codec_encoder_encode(S->enc, &d1.d, w2, err, sizeof err)) {
		snprintf(what, sizeof what, "codec_encode refuses a decoded %s: %s",
		         d1.d.leaf->name, err);
		fuzz_finding(FUZZ_TARGET, S, data, size, gen, what, &in, NULL);
		return false;
	}
	uint64_t am[FUZZ_MAX_WORDS], acc[FUZZ_MAX_WORDS], mask[FUZZ_MAX_WORDS];
	fuzz_decoding_masks(S, &d1.d, x, am, NULL);
	/* the accounted bits matter only where the words differ outside the
	 * x bits (rare): elsewhere every bit counts as accounted */
	bool outside_x = false;
	for (unsigned k = 0; k < S->nwords; k++)
		outside_x |= ((w[k] ^ w2[k]) & ~x[k]) != 0;
	if (outside_x) {
		*how |= RT_OUTSIDE_X;
		fuzz_decoding_masks(S, &d1.d, x, am, acc);
	} else {
		memset(acc, 0xff, S->nwords * sizeof *acc);
	}
	/* The re-encoding's text is printed for a report only (the values
	 * decide the text: printing it on every run would double the cost of
	 * a run). */
	t2[0] = 0;
	/* the same words decode alike (see the top of the file) */
	bool same_words = !memcmp(w, w2, S->nwords * sizeof *w2);
	if (!same_words)
		fuzz_decode_again(S, w2, gen, &d2);
	const codec_decoded *r2 = same_words ? &d1.d : &d2.d;
	fuzz_side re = {"re-encoded", w2, r2, t2};
#define RT_FINDING(left, right)                                                      \
	do {                                                                         \
		disasm(S, w2, &opt, t2, sizeof t2);                                  \
		fuzz_finding(FUZZ_TARGET, S, data, size, gen, what, left, right); \
		return false;                                                         \
	} while (0)
	/* Two kinds of difference are the spec's, not the codec's.  A word
	 * that breaks an assert Mesa does not check (outside the display's
	 * bitset) decodes cleanly, yet is no canonical instruction: nothing
	 * to keep.  A bit that the active cases account for nowhere (no
	 * field, pattern, assert or x) is a hole in the spec: a finding for
	 * our own specs (FUZZ_STRICT_SPEC), tolerated in Mesa's, whose holes
	 * `isacheck check` reports and tests/test_prove.c pins. */
	for (unsigned k = 0; k < S->nwords; k++) {
		if ((w[k] ^ w2[k]) & ~x[k] & am[k]) {
			*how |= RT_UNCHECKED;
			return true;
		}
		uint64_t hole = (w[k] ^ w2[k]) & ~acc[k] & ~x[k];
		*how |= hole ? RT_HOLE : 0;
#ifdef FUZZ_STRICT_SPEC
		if (hole) {
			snprintf(what, sizeof what, "spec hole: the active cases of %s account "
			         "nowhere for bits (word %u: 0x%016llx), so words differing there "
			         "decode alike", d1.d.leaf->name, k, (unsigned long long)hole);
			RT_FINDING(&in, &re);
		}
		mask[k] = x[k];
#else
		mask[k] = x[k] | hole;
#endif
	}
	for (unsigned k = 0; k < S->nwords; k++) {
		if ((w[k] ^ w2[k]) & ~mask[k]) {
			snprintf(what, sizeof what, "the re-encoding of %s differs outside its "
			         "don't-care bits (word %u: bits 0x%016llx)", d1.d.leaf->name, k,
			         (unsigned long long)((w[k] ^ w2[k]) & ~mask[k]));
			RT_FINDING(&in, &re);
		}
		if (w2[k] & x[k]) {
			snprintf(what, sizeof what, "the re-encoding of %s sets don't-care bits "
			         "(word %u: 0x%016llx)", d1.d.leaf->name, k,
			         (unsigned long long)(w2[k] & x[k]));
			RT_FINDING(&in, &re);
		}
	}
	char why[256];
	if (!fuzz_same_meaning(&d1.d, r2, why, sizeof why)) {
		snprintf(what, sizeof what, "the re-encoding of %s means something else: %s",
		         d1.d.leaf->name, why);
		RT_FINDING(&in, &re);
	}
	if (count_issues_but_dontcare(&d1.d) != r2->nissues) {
		snprintf(what, sizeof what, "the re-encoding of %s has other issues (%zu, "
		         "against %zu besides don't-care bits)", d1.d.leaf->name, r2->nissues,
		         count_issues_but_dontcare(&d1.d));
		RT_FINDING(&in, &re);
	}
	if (same_words || fuzz_same_encoder_input(S, &d1.d, r2))
		return true; /* encodes as d1 did: to w2 */
	*how |= RT_ENCODED_AGAIN;
	if (!codec_encoder_encode(S->enc, r2, w3, err, sizeof err) ||
	    memcmp(w2, w3, S->nwords * sizeof *w2)) {
		fuzz_decode_again(S, w3, gen, &d3);
		snprintf(what, sizeof what, "encoding %s is not idempotent%s%s", d1.d.leaf->name,
		         *err ? ": " : "", err);
		fuzz_finding(FUZZ_TARGET, S, data, size, gen, what, &re,
		             &(fuzz_side){"encoded again", w3, &d3.d, NULL});
		return false;
	}
	return true;
}

/* roundtrip_check, its outcome marked where the instruction has a
 * meaning and the round trip went an unusual way (see RT_UNUSUAL). */
static bool roundtrip_one(const fuzz_spec *S, const uint8_t *data, size_t size,
                          const uint64_t *w, uint32_t gen)
{
	unsigned how = 0;
	if (!roundtrip_check(S, data, size, w, gen, &how))
		return false;
	if ((how & RT_MEANING) && (how & RT_UNUSUAL))
		fuzz_spec_coverage_outcome(&d1, how);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_record_input(data, size);
	if (size < 2)
		return 0;
	const fuzz_spec *S = pick_root(data);
	uint32_t gen = fuzz_spec_gen(S, (uint16_t)(data[0] | data[1] << 8));
	uint64_t ws[FUZZ_MAX_INSTR][FUZZ_MAX_WORDS];
	size_t n = input_instrs(S, data, size, ws);
#ifdef FUZZ_SPEC_COVERAGE
	uint32_t view = S == &spec ? 0 : (uint32_t)(S - views) + 1;
	/* the generations the codec cannot tell apart are one to the memory */
	uint32_t gen_class = fuzz_spec_gen_class(S, gen);
	for (size_t i = 0; i < n; i++) {
		const uint64_t *w = ws[i];
		if (!memo) {
			roundtrip_one(S, data, size, w, gen);
			continue;
		}
		if (fuzz_memo_recall(memo, view, w, S->nwords, gen_class))
			continue;
		codec_encoder_stats was = codec_encoder_get_stats(S->enc);
		if (!roundtrip_one(S, data, size, w, gen))
			continue;
		codec_encoder_stats is = codec_encoder_get_stats(S->enc);
		if (is.templates == was.templates && is.shapes == was.shapes &&
		    is.misses == was.misses)
			fuzz_memo_keep(memo, view, w, S->nwords, gen_class, &d1);
	}
#else
	for (size_t i = 0; i < n; i++)
		roundtrip_one(S, data, size, ws[i], gen);
#endif
	return 0;
}
