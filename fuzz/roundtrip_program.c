/*
 * roundtrip_program.c - fuzz target roundtrip_program_<isa>: whole
 * programs of a spec with a <program> (isa/a2xx.xml, isa/midgard.xml),
 * walked, re-encoded and walked again.  Built once per spec (FUZZ_SPEC
 * from fuzz/targets.cmake).
 *
 * Input: the whole input is the program, little-endian 32-bit words
 * (a trailing 1-3 bytes are ignored), as `isacheck disasm --program`
 * reads a binary; no header (neither ISA has generations).
 *
 * When codec_program_walk frames the words cleanly (no framing error at
 * all: nothing fatal, uncovered, overlapping, or non-zero padding) and
 * every part has a meaning (a leaf; set don't-care bits and unnamed enum
 * values allowed), then:
 *
 *  1. codec_program_reencode accepts the walk;
 *  2. the re-encoded words equal the input outside the don't-care bits of
 *     the parts (each part's leaf's and sub leaves', at the part's
 *     position), and have those bits 0; bits of an <assert> that Mesa
 *     does not check are skipped as in roundtrip.c, and a difference
 *     outside every bit the part accounts for is reported as a hole;
 *  3. the re-encoded words walk cleanly to the same items: same kind,
 *     name, position, size, root and leaf, the same joined values, and
 *     the same text;
 *  4. re-encoding is idempotent.
 *
 * 3 and 4 rest on the walk and the encoder being functions of their
 * inputs: re-encoded words equal to the input are not walked again.
 *
 * The parts of a program that frames cleanly mark what their decodings
 * reached in the spec, in order, up to the first without a meaning; a
 * program that does not frame cleanly marks nothing (the search values
 * programs the round trip checks).  The text of every walk is checked to
 * be as long as it says (strlen), whatever the framing, except where the
 * memories are on: there the input is walked quietly
 * (codec_walker_walk_quiet: its items, no text, stopping at the first
 * error), and in full only where 3 compares its text, the full walk's
 * items then held to the quiet walk's.  A program whose printing alone
 * fails (a display's when=, which the quiet walk does not look for) is
 * then not checked further, as one that does not frame.
 *
 * Two memories spare a run the work an earlier run did (most parts of a
 * mutated input are its parent's): the codec's memory of parts
 * (codec_walker: the walk's decoding, exports and text of each part,
 * and its re-encoding) and the target's (fuzz_part_read: each part's
 * leaf, meaning, masks and counters, of the parts it read: filling it
 * from the walk's decoding of every new part, most of them in programs
 * that do not frame, cost more than it saved).  Both are exact, keyed on
 * the whole part: a recalled part is what reading it again would give.
 * With them, an input whose words are the previous run's is not checked
 * again (the checks are a function of the words), and the quiet walks
 * go through the walker's trail: a walk goes on from the last iteration
 * of the program's own repeats before which it read no changed word and
 * asked nothing of the input's size that differs, and a walk of as many
 * words as the last joins it where it reaches one of its iterations in
 * the same state after the change (codec_walker_walk_quiet).  A part
 * the walk decoded afresh is read (where the target's memory lacks it)
 * and re-encoded from that decoding (codec_walker_decoding): a new part
 * was decoded three times.  The
 * loops over the program's words are fuzz/support.c's (no traced
 * comparisons there: under libFuzzer each compare was a call).
 * FUZZ_NO_MEMO=1 in the environment walks and reads every part afresh
 * and walks every program in full, as the reproducers and AFL++ builds
 * (without FUZZ_SPEC_COVERAGE) do.
 *
 * The full walks' room is the walker's, given back after each
 * (codec_walker_recycle): their allocations showed in the profile.
 *
 * FUZZ_STATS=1 in the environment prints at exit how many inputs were
 * walked, framed cleanly (and so checked), had a don't-care bit set and
 * repeated the previous run's words, what the memories recalled, how
 * many quiet walks went on from the trail and how many joined the last.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define PROGRAM_MAX_WORDS 1024u

/* How a program's round trip went, where it went further than its walk,
 * marked among the spec's counters (fuzz_spec_coverage_mark).  Under
 * libFuzzer this file has no edge counters (OUTCOMES in
 * fuzz/targets.cmake): libFuzzer works on every counter a run sets, and
 * the file's edges were set on every run (6% of a2xx's runs a second,
 * docs/benchmarks.md).  What its edges told beyond the spec's counters
 * (each part read marks what its decoding reached) is marked instead:
 * how many parts a framed program's reading took, in powers of two (a
 * loop's edges counted so), and the ways the checks went.  Findings need
 * no mark. */
enum {
	PR_DONTCARE = 1,        /* checked, with an x bit set */
	PR_NO_CANONICAL,        /* the re-encoding differs in an assert's bits */
	PR_SAME_WORDS,          /* the re-encoding is the input */
	PR_PRINTING_FAILED,     /* the full walk's printing failed */
	PR_COMPARED,            /* walked again and compared, nothing found */
	PR_READ = 64,           /* + the parts read in powers of two, 1-64 */
	PR_CHECKED = 128,       /* + the same, where every part had a meaning */
};

/* The power of two n lies in: 0 for 0, k for [2^(k-1), 2^k). */
static unsigned magnitude(size_t n)
{
	return n ? 64 - (unsigned)__builtin_clzll((unsigned long long)n) : 0;
}

static fuzz_spec spec;
static const spec_program *program;
/* the spec seen through each root, made once (a fuzz_spec is over a
 * kilobyte: copying one per part showed in the profile) */
static fuzz_spec *views;
static struct {
	unsigned long walked, checked, dontcare, repeated;
} tally;
static codec_walker *walker;
static fuzz_memo *part_memo;
static fuzz_decoding scratch;

static void print_tally(void)
{
	fprintf(stderr, "%s: %lu programs walked, %lu framed cleanly and checked, %lu of them "
	        "with don't-care bits set; %lu inputs the previous run's words\n", FUZZ_TARGET,
	        tally.walked, tally.checked, tally.dontcare, tally.repeated);
	codec_walker_stats w = codec_walker_get_stats(walker);
	fuzz_memo_stats p = part_memo ? fuzz_memo_get_stats(part_memo) : (fuzz_memo_stats){0};
	fprintf(stderr, "%s: memories recalled %llu of %llu parts walked, %llu of %llu re-encoded, "
	        "%llu of %llu read; %llu quiet walks went on from the last's trail, keeping %llu "
	        "items, and %llu joined the last walk after a change, taking %llu; %llu parts' "
	        "decodings were the walks'\n", FUZZ_TARGET,
	        w.recalled, w.asked, w.enc_recalled, w.enc_asked, p.recalled, p.asked, w.resumed,
	        w.items_kept, w.joined, w.items_joined, w.shared);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	int rc = fuzz_spec_load(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	if (!rc && !(program = spec_find_program(spec.m, NULL))) {
		fprintf(stderr, "fuzz: %s: no <program>\n", spec.path);
		rc = 2;
	}
	if (!rc && !(views = calloc(spec.m->nroots, sizeof *views))) {
		fprintf(stderr, "fuzz: out of memory\n");
		rc = 2;
	}
	if (rc)
		exit(rc);
	for (size_t r = 0; r < spec.m->nroots; r++)
		views[r] = fuzz_spec_view(&spec, &spec.m->roots[r]);
	/* the memories where libFuzzer's search runs (and its replays): the
	 * reproducers and AFL++ builds read every part afresh, so that a
	 * finding's input reproduces by itself */
#ifdef FUZZ_SPEC_COVERAGE
	const char *off = getenv("FUZZ_NO_MEMO");
	bool memo = !off || strcmp(off, "1");
#else
	bool memo = false;
#endif
	if (memo)
		part_memo = fuzz_part_memo_new(16);
	if (!(walker = codec_walker_new(spec.c, memo ? 16 : 0)) || (memo && !part_memo)) {
		fprintf(stderr, "fuzz: out of memory\n");
		exit(2);
	}
	const char *st = getenv("FUZZ_STATS");
	if (st && *st && *st != '0')
		atexit(print_tally);
	return 0;
}


/* The decoding of the part item ctx where the walker made it lately
 * (fuzz_part_read asks only where its memory lacks the part). */
static const codec_decoded *walked_decoding(const void *ctx)
{
	return codec_walker_decoding(walker, ctx, 0);
}

/* Words (four a line) and then the text of one side of the report. */
static void program_lines(const uint32_t *w, size_t n, const uint32_t *other, const char *text,
                          char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < n && i < 128; i += 4) {
		fuzz_appendf(buf, len, "%04zx:", i);
		for (size_t k = i; k < n && k < i + 4; k++)
			fuzz_appendf(buf, len, " %08x%s", (unsigned)w[k],
			             other && other[k] != w[k] ? "*" : " ");
		fuzz_appendf(buf, len, "\n");
	}
	if (text)
		fuzz_appendf(buf, len, "%s", text);
}

typedef struct finding_ctx {
	const uint8_t *data;
	size_t size;
	const uint32_t *w, *w2;
	size_t n;
	const codec_program *p1, *p2; /* p1: NULL where the input was walked quietly */
} finding_ctx;

static void finding(const finding_ctx *f, const char *what)
{
	static char ls[16384], rs[16384];
	/* the input's text, walked in full for the report where it was
	 * walked quietly */
	codec_disasm_options opt = {.gen = 0, .show_errors = false};
	codec_program *full = f->p1 ? NULL : codec_program_walk(spec.c, program, f->w, f->n, &opt);
	const codec_program *p1 = f->p1 ? f->p1 : full;
	program_lines(f->w, f->n, f->w2, p1 ? p1->text : NULL, ls, sizeof ls);
	codec_program_free(full);
	if (f->w2)
		program_lines(f->w2, f->n, f->w, f->p2 ? f->p2->text : NULL, rs, sizeof rs);
	else
		rs[0] = 0;
	fuzz_finding_lines(FUZZ_TARGET, NULL, f->data, f->size, 0, what, NULL, NULL, ls, rs);
}

/* Whether two walks produced the same items; why says where not. */
static bool same_items(const codec_program *a, const codec_program *b, char *why, size_t len)
{
	if (a->nitems != b->nitems) {
		snprintf(why, len, "%zu items, re-encoded %zu", a->nitems, b->nitems);
		return false;
	}
	for (size_t i = 0; i < a->nitems; i++) {
		const codec_item *x = &a->items[i], *y = &b->items[i];
		const char *diff = x->kind != y->kind       ? "kind"
		                   : x->bit != y->bit       ? "position"
		                   : x->bits != y->bits     ? "size"
		                   : x->root != y->root     ? "root"
		                   : x->leaf != y->leaf     ? "leaf"
		                   : x->step != y->step     ? "framing step"
		                   : (x->kind == CODEC_ITEM_VALUE && x->value != y->value) ? "value"
		                   : NULL;
		if (diff) {
			snprintf(why, len, "item %zu (%s at bit %zu, %s) differs in its %s: %s at bit %zu", i,
			         x->name ? x->name : "-", x->bit, x->leaf ? x->leaf->name : "-", diff,
			         y->leaf ? y->leaf->name : "-", y->bit);
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t w[PROGRAM_MAX_WORDS], w2[PROGRAM_MAX_WORDS], w3[PROGRAM_MAX_WORDS];
	static uint32_t x[PROGRAM_MAX_WORDS], am[PROGRAM_MAX_WORDS], acc[PROGRAM_MAX_WORDS];
	static uint32_t prev[PROGRAM_MAX_WORDS];
	static size_t prevn = SIZE_MAX;
	fuzz_record_input(data, size);
	size_t n = size / 4;
	if (n > PROGRAM_MAX_WORDS)
		n = PROGRAM_MAX_WORDS;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(w, data, n * sizeof *w); /* (byte by byte, it showed in the profile) */
#else
	for (size_t i = 0; i < n; i++)
		w[i] = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
		       (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
#endif
	/* The memories' third: the previous input.  The checks are a
	 * function of the words, so words the previous run checked are not
	 * checked again (libFuzzer's mutations give back their input about
	 * one run in thirty) */
	if (part_memo) {
		if (n == prevn && fuzz_words_equal(w, prev, n)) {
			tally.repeated++;
			return 0;
		}
		memcpy(prev, w, n * sizeof *w);
		prevn = n;
	}
	codec_disasm_options opt = {.gen = 0, .show_errors = false};
	/* With the memories, the input is walked quietly (no text, stopping
	 * at the first error: most inputs do not frame, and printing and
	 * error messages were a fifth of their walks), and in full only
	 * where its text is compared (3 below).  Without them, in full. */
	codec_program *p1 = NULL;
	const codec_program *walked;
	if (part_memo) {
		walked = codec_walker_walk_quiet(walker, program, w, n, &opt);
	} else {
		walked = p1 = codec_walker_walk(walker, program, w, n, &opt);
	}
	if (!walked)
		return 0;
	tally.walked++;
	finding_ctx f = {data, size, w, NULL, n, p1, NULL};
	char what[600], err[300];
	/* a program the text lies about is a finding whatever its framing */
	if (p1 && strlen(p1->text) != p1->textlen) {
		finding(&f, "the walk's text length is not its length");
		codec_walker_recycle(walker, p1);
		return 0;
	}
	bool framed = walked->nerrors == 0;
	if (framed) { /* (most inputs do not frame: no masks for them) */
		memset(x, 0, n * sizeof *x);
		memset(am, 0, n * sizeof *am);
		memset(acc, 0, n * sizeof *acc);
	}
	size_t nread = 0;
	for (size_t i = 0; framed && i < walked->nitems; i++) {
		const codec_item *it = &walked->items[i];
		if (it->kind != CODEC_ITEM_PART)
			continue;
		nread++;
		/* the part's words, 0 past its bits to its root's size (of
		 * FUZZ_MAX_WORDS, 512 bytes: clearing them all showed in the
		 * profile) */
		size_t r = (size_t)(it->root - spec.m->roots);
		uint64_t in[FUZZ_MAX_WORDS];
		size_t nw = (it->bits + 63) / 64;
		memcpy(in, it->w, nw * sizeof *in);
		for (size_t k = nw; k < views[r].nwords; k++)
			in[k] = 0;
		fuzz_part pt;
		fuzz_part_read(part_memo, &views[r], (uint32_t)r, in, walked_decoding, it, &scratch,
		               &pt);
		framed = pt.meaning && pt.leaf == it->leaf;
		if (framed) /* its masks placed (a part's bits lie inside the program) */
			fuzz_or_masks((uint32_t *const[3]){x, am, acc}, it->bit,
			              (const uint64_t *const[3]){pt.dontcare, pt.asserts, pt.accounted},
			              it->bits);
	}
	if (walked->nerrors == 0)
		fuzz_spec_coverage_mark((framed ? PR_CHECKED : PR_READ) + magnitude(nread));
	if (!framed) {
		codec_walker_recycle(walker, p1);
		return 0;
	}

	tally.checked++;
	if (fuzz_words_meet(w, x, n)) {
		tally.dontcare++;
		fuzz_spec_coverage_mark(PR_DONTCARE);
	}

	/* 1. re-encode */
	if (!codec_walker_reencode(walker, walked, 0, w2, n, err, sizeof err)) {
		snprintf(what, sizeof what, "codec_program_reencode refuses a cleanly framed program: %s",
		         err);
		finding(&f, what);
		codec_walker_recycle(walker, p1);
		return 0;
	}
	f.w2 = w2;

	/* 2. the same words outside the don't-care bits, which are 0 (the
	 * first word where not; the word loops are fuzz/support.c's) */
	size_t k = fuzz_words_first_off(w, w2, x, n);
	if (k < n) {
		uint32_t diff = (w[k] ^ w2[k]) & ~x[k];
		if (diff & am[k]) {
			/* an assert Mesa does not check: no canonical form */
			fuzz_spec_coverage_mark(PR_NO_CANONICAL);
			codec_walker_recycle(walker, p1);
			return 0;
		}
		if (diff) {
			bool hole = (diff & ~acc[k]) != 0;
			snprintf(what, sizeof what, "the re-encoded program differs from the input outside "
			         "its don't-care bits (word %zu, bits 0x%08x)%s", k, (unsigned)diff,
			         hole ? ": bits no part accounts for (a hole in the spec)" : "");
			finding(&f, what);
			codec_walker_recycle(walker, p1);
			return 0;
		}
		if (w2[k] & x[k]) {
			snprintf(what, sizeof what, "the re-encoded program sets don't-care bits (word %zu: "
			         "0x%08x)", k, (unsigned)(w2[k] & x[k]));
			finding(&f, what);
			codec_walker_recycle(walker, p1);
			return 0;
		}
	}

	/* 3 and 4 hold of a re-encoding equal to the input: the walk is a
	 * function of the words, so it walks as the input did and re-encodes
	 * as it did (skipping them halves the time of such a run) */
	if (fuzz_words_equal(w, w2, n)) {
		fuzz_spec_coverage_mark(PR_SAME_WORDS);
		codec_walker_recycle(walker, p1);
		return 0;
	}

	/* 3. it walks to the same items and text: the input's walk in full
	 * where it was quiet, to the quiet walk's items (where printing
	 * fails, which the quiet walk does not look for, the program is not
	 * checked, as one that does not frame) */
	if (!p1) {
		f.p1 = p1 = codec_walker_walk(walker, program, w, n, &opt);
		if (!p1)
			return 0;
		bool bad = true;
		if (strlen(p1->text) != p1->textlen)
			snprintf(what, sizeof what, "the walk's text length is not its length");
		else if (p1->nerrors) /* printing failed (its items may stop short) */
			bad = false;
		else if (!same_items(walked, p1, err, sizeof err))
			snprintf(what, sizeof what, "the quiet walk and the walk differ: %s", err);
		else
			bad = false;
		if (bad)
			finding(&f, what);
		if (!bad && p1->nerrors)
			fuzz_spec_coverage_mark(PR_PRINTING_FAILED);
		if (bad || p1->nerrors) {
			codec_walker_recycle(walker, p1);
			return 0;
		}
	}
	/* (its parts are marked by the input's, not by their canonical forms) */
	codec_program *p2 = codec_walker_walk(walker, program, w2, n, &opt);
	if (!p2) {
		codec_walker_recycle(walker, p1);
		return 0;
	}
	f.p2 = p2;
	bool bad = true;
	if (p2->nerrors)
		snprintf(what, sizeof what, "the re-encoded program does not frame cleanly: %s [%s]",
		         p2->errors[0].text, codec_frame_error_name(p2->errors[0].kind));
	else if (!same_items(p1, p2, err, sizeof err))
		snprintf(what, sizeof what, "the re-encoded program walks differently: %s", err);
	else if (p1->textlen != p2->textlen || strcmp(p1->text, p2->text))
		snprintf(what, sizeof what, "the re-encoded program prints another text");
	/* 4. idempotent */
	else if (!codec_walker_reencode(walker, p2, 0, w3, n, err, sizeof err))
		snprintf(what, sizeof what, "re-encoding the re-encoded program fails: %s", err);
	else if (!fuzz_words_equal(w2, w3, n))
		snprintf(what, sizeof what, "re-encoding a program is not idempotent");
	else
		bad = false;
	if (bad)
		finding(&f, what);
	else
		fuzz_spec_coverage_mark(PR_COMPARED);
	codec_walker_recycle(walker, p2);
	codec_walker_recycle(walker, p1);
	return 0;
}
