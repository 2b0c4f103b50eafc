/*
 * fuzz.h - what every fuzz target shares.  A target is one C file that
 * defines LLVMFuzzerInitialize and LLVMFuzzerTestOneInput; it builds
 * three ways from fuzz/targets.cmake:
 *
 *   fuzz_<target>   libFuzzer (clang -fsanitize=fuzzer, preset "fuzz")
 *   afl_<target>    AFL++ persistent mode with shared-memory test cases
 *                   (fuzz/afl_driver.c, preset "afl")
 *   repro_<target>  a plain program running the files it is given
 *                   (fuzz/repro.c, every build; ctest runs the corpora)
 *
 * Word targets (roundtrip_*, text_*, crossspec_*) read their input as
 *
 *   bytes 0-1   the generation, little-endian (clamped into the spec's
 *               range: see fuzz_spec_gen)
 *   then        up to FUZZ_MAX_INSTR instructions of the spec's default
 *               root, each its size/8 bytes, little-endian 32-bit words
 *               in memory order (as Mesa's disassembler takes them)
 *
 * so a seed is written without the model: fuzz/make-corpus does it.
 *
 * A finding prints the input in hex, both sides side by side and one
 * command that reproduces it, then abort()s so that every engine records
 * the input.  A target whose spec file is absent exits FUZZ_EXIT_SKIP
 * (ctest's "skipped") from LLVMFuzzerInitialize.
 */
#ifndef ISACHECK_FUZZ_H
#define ISACHECK_FUZZ_H

#include "codec.h"
#include "spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_EXIT_SKIP 77
#define FUZZ_MAX_INSTR 8
#define FUZZ_MAX_WORDS (SPEC_MAX_BITS / 64)
#define FUZZ_MAX_VALUES 256
#define FUZZ_MAX_ISSUES 16
/* Z3's time per proof run in the targets that prove (semantic, displays):
 * AFL++ counts an input over a second as a hang, and a random expression
 * can keep Z3 busy for seconds; past the budget a verdict is unknown,
 * which the judges allow.  bench/fuzz-slowest measures what is left. */
#define FUZZ_Z3_BUDGET_MS 150

/* ------------------------------------------------------------ spec files */

/* Finds a spec named as in fuzz/targets.cmake: "shared:REL" (REL under
 * ../shared: Mesa's files) or "repo:REL" (under the source tree: ours).
 * Looked up, in order, under $ISACHECK_SHARED_DIR (resp.
 * $ISACHECK_SOURCE_DIR), under isacheck-data/shared (resp. /repo) next
 * to the running binary (where .clusterfuzzlite/build.sh puts them), and
 * under the directory compiled in.  Returns false when none exists;
 * out then holds the compiled-in candidate, for the message. */
bool fuzz_find_spec(const char *spec, char *out, size_t len);

/* A loaded spec with everything a word target needs. */
typedef struct fuzz_spec {
	char path[1024];
	spec_model *m;
	codec *c;
	const spec_root *root;      /* the default root */
	unsigned nbytes;            /* bytes of one instruction */
	unsigned nwords;            /* 64-bit words of one instruction */
	/* The start of every interval of generations over which no bitset's
	 * <gen> range begins or ends, inside the root's range, ascending. */
	uint32_t gens[64];
	size_t ngens;
	/* Every generation at which some bitset of the model, of any root,
	 * starts or stops applying, ascending (fuzz_spec_gen_class); none,
	 * and gen_exact, where the generation can matter anywhere. */
	uint32_t gen_bounds[64];
	size_t ngen_bounds;
	bool gen_exact;
	codec_no_match_style no_match;
	/* per bitset index, where its masks are in bits (see support.c) */
	const struct fuzz_bitset_bits *bits_index;
	const uint64_t *bits;
	/* The bitset-typed fields whose value the encoder can read: those
	 * whose name an expression or a param names (sorted by address). */
	const spec_field **read_subs;
	size_t nread_subs;
	/* the encoder the targets encode with: codec_encode's answers, with
	 * its templates kept across runs (views share it) */
	codec_encoder *enc;
} fuzz_spec;

/* Loads and compiles spec (as for fuzz_find_spec).  Returns 0, or
 * FUZZ_EXIT_SKIP when the file is absent, or 2 when it does not load;
 * prints why on stderr.  Under FUZZ_SPEC_COVERAGE, shows libFuzzer the
 * spec's first 512 counters at once (a round trip's first module). */
int fuzz_spec_load(fuzz_spec *s, const char *spec, codec_no_match_style no_match);
/* fuzz_spec_load, or exit with its code: most targets cannot run at all
 * without their spec. */
void fuzz_spec_load_or_exit(fuzz_spec *s, const char *spec, codec_no_match_style no_match);
void fuzz_spec_free(fuzz_spec *s);

/* The same spec seen through another root (a2xx's #cf, a Midgard part's
 * root): nbytes and nwords of that root, for decoding, masks and the
 * finding report, which then names the root in its inspect command.
 * Shares the model and codec: never free a view. */
fuzz_spec fuzz_spec_view(const fuzz_spec *s, const spec_root *root);

/* The generation an input's two header bytes select: raw itself when it
 * lies between the spec's first and last generation boundary (or the
 * spec has no generations), else one of the boundaries. */
uint32_t fuzz_spec_gen(const fuzz_spec *s, uint16_t raw);
/* Which generations the codec cannot tell apart: gen's class, equal for
 * two generations exactly when no bitset of the model starts or stops
 * applying between them, in a model where no expression calls
 * ISA_GPU_ID() (then the generation decides only which bitsets apply:
 * the decoding, encoding and text of a word are the same at both, the
 * generation a decoding records aside).  In a model whose expressions
 * read the generation, or with more than 64 bounds, the class is gen
 * itself.  The round trips' memory keys on it (an a2xx instruction read
 * under another header is the same instruction); test_fuzz_support
 * holds the claim to the codec on random words. */
uint32_t fuzz_spec_gen_class(const fuzz_spec *s, uint32_t gen);

/* Instruction i of an input (0-based) into w (s->nwords words, the bits
 * past s's root cleared: s may be a view) and, unless u is NULL, into
 * the 32-bit memory words u (s->nbytes / 4 of them); false when the
 * input has no instruction i.  Inputs are read as in the comment above. */
bool fuzz_input_instr(const fuzz_spec *s, const uint8_t *data, size_t size, size_t i,
                      uint64_t *w, uint32_t *u);

/* ------------------------------------------------------------- decodings */

/* The spec's counters one decoding may list (fuzz_decoding.marks). */
#define FUZZ_MAX_MARKS 52
/* A decoding with its own storage, and the spec's counters marking it
 * set (fuzz_decode, fuzz_decode_text; see fuzz_spec_coverage below):
 * each once, in the order set; nmarks past FUZZ_MAX_MARKS says that it
 * set more than are listed. */
typedef struct fuzz_decoding {
	codec_value values[FUZZ_MAX_VALUES];
	codec_issue issues[FUZZ_MAX_ISSUES];
	codec_decoded d;
	bool ok;
	size_t nmarks;
	uint16_t marks[FUZZ_MAX_MARKS];
} fuzz_decoding;
/* out->d emptied over out's own storage (no cases recorded), for a
 * codec call of the caller's: returns &out->d. */
codec_decoded *fuzz_decoding_reset(fuzz_decoding *out);

/* Decodes w at gen into out, and marks the parts of the spec the decoding
 * reached (fuzz_spec_coverage). */
void fuzz_decode(const fuzz_spec *s, const uint64_t *w, uint32_t gen, fuzz_decoding *out);
/* The same without marking, for a decoding that must reach what one
 * already marked did, or be a finding: a re-encoding's (the same leaf,
 * values and cases, fewer issues), the same word through another codec
 * of the same spec.  Marking it again cost a run time and told libFuzzer
 * nothing. */
void fuzz_decode_again(const fuzz_spec *s, const uint64_t *w, uint32_t gen, fuzz_decoding *out);
/* fuzz_decode at opt->gen with the instruction's text as the disassembler
 * prints it with opt into text (len bytes), in one walk where the codec
 * can (codec_decode_text); returns the disassembler's length. */
size_t fuzz_decode_text(const fuzz_spec *s, const uint64_t *w, const codec_disasm_options *opt,
                        fuzz_decoding *out, char *text, size_t len);

/* Coverage of the spec, not of the code that interprets it.  The codec's
 * decoder, encoder and printer run the same code for every leaf, so
 * their edges tell the fuzzer little about which instructions an input
 * holds, yet libFuzzer reads every edge counter of the program on every
 * run.  The word and text targets (SPEC_COVERAGE in fuzz/targets.cmake)
 * link our libraries without edge counters under libFuzzer, and this
 * harness too, and mark instead, in counters of their own, what each
 * decoding reached: its leaf; a value's case where its bitset has
 * several, and the sub leaf a bitset field decoded to (other values'
 * cases the leaf decides); each kind of issue with its field; and (over
 * all leaves) each value's type, sign and length in bits, which decide
 * how it prints.  Each thing has a counter of its own while any is left
 * (FUZZ_SPEC_COUNTERS; past them, things share counters and the target
 * says so once on stderr), and libFuzzer is told of the counters 512 at
 * a time as things are first reached, so it reads only about as many as
 * were reached.  A counter is set, not incremented: an input with the
 * same instruction twice reaches nothing new. */
#ifndef FUZZ_SPEC_COUNTERS
#define FUZZ_SPEC_COUNTERS 65536u
#endif
void fuzz_spec_coverage(const codec_decoded *d);
/* fuzz_spec_coverage, listing the counters it set in marks (room for
 * cap), each once: returns how many it set (more than cap: the list is
 * cut).  Nothing listed without FUZZ_SPEC_COVERAGE. */
size_t fuzz_spec_coverage_list(const codec_decoded *d, uint16_t *marks, size_t cap);
/* Sets the counters of such a list again, as the decoding did. */
void fuzz_spec_coverage_replay(const uint16_t *marks, size_t n);
/* Marks what a target's check made of d's instruction: outcome, a
 * number of the target's own (fuzz/roundtrip.c: the ways a round trip
 * can end without a finding), for d's leaf.  The counter is added to d's
 * list, once, so that the memory of instructions sets it again with the
 * rest.  A target whose own edges depend on what the memory recalls
 * (fuzz/roundtrip.c) tells libFuzzer its paths this way instead
 * (OUTCOMES in fuzz/targets.cmake). */
void fuzz_spec_coverage_outcome(fuzz_decoding *d, uint32_t outcome);
/* Marks an outcome of a target's own that belongs to no one instruction
 * (fuzz/roundtrip_program.c: how a whole program's round trip went):
 * outcome, a number of the target's, takes a counter of its own. */
void fuzz_spec_coverage_mark(uint32_t outcome);
/* The counters, for the tests (FUZZ_SPEC_COUNTERS bytes; NULL and
 * fuzz_spec_coverage does nothing unless the target is built with
 * FUZZ_SPEC_COVERAGE: the row's SPEC_COVERAGE in fuzz/targets.cmake, in a
 * libFuzzer build). */
uint8_t *fuzz_spec_counters(void);
/* Forgets which counter each thing took, and clears them (for the tests). */
void fuzz_spec_coverage_reset(void);

/* A memory of instructions a target has checked and found nothing in:
 * each instruction (its words, generation and the view of the spec it
 * was read through) with the spec's counters its decoding set.  A target
 * whose check of an instruction is a function of those (the round trips)
 * asks it first: an instruction recalled is not checked again, its
 * counters are set again instead, so the spec's coverage of an input is
 * what checking all of it would mark (with the outcome a check marked,
 * fuzz_spec_coverage_outcome).  What libFuzzer also reads, the edges of
 * the classifier where a round trip keeps them (ir3's: CLASSIFIER_EDGES
 * in fuzz/targets.cmake), a recalled instruction does not set again:
 * they were set when it was checked, so no input is new for them, but a
 * recalled instruction adds nothing to their hit counts (docs/fuzzing.md,
 * "The round trips' memory"; the round trips' own file, and the other
 * round trips' classifier, have no edges under libFuzzer for this reason,
 * OUTCOMES in fuzz/targets.cmake).
 *
 * Instructions of up to FUZZ_MEMO_WORDS words, those of one view all of
 * one size (the words are compared, not their number); 2^log2_slots of
 * them at most (FUZZ_MEMO_LOG2_SLOTS: 128 bytes each), a newer one
 * taking an older one's slot; views 0 to 65,534.  One thread at a time. */
#define FUZZ_MEMO_WORDS 2
#define FUZZ_MEMO_LOG2_SLOTS 14
typedef struct fuzz_memo fuzz_memo;
typedef struct fuzz_memo_stats {
	unsigned long long asked, recalled, kept;
} fuzz_memo_stats;
/* NULL when out of memory, or log2_slots is 0 or over 24. */
fuzz_memo *fuzz_memo_new(unsigned log2_slots);
void fuzz_memo_free(fuzz_memo *m);
/* Whether w (nw words) at gen through view was kept; then its counters
 * are set (fuzz_spec_coverage_replay). */
bool fuzz_memo_recall(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw,
                      uint32_t gen);
/* Keeps w at gen through view with d's counters (d: its decoding by
 * fuzz_decode or fuzz_decode_text); false where it cannot (more than
 * FUZZ_MEMO_WORDS words, a view past 65,534, or more counters than d
 * lists). */
bool fuzz_memo_keep(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw, uint32_t gen,
                    const fuzz_decoding *d);
fuzz_memo_stats fuzz_memo_get_stats(const fuzz_memo *m);
/* A memory whose slots hold payload bytes (up to 4,096) beside the
 * counters: fuzz_memo_keep_payload keeps them, fuzz_memo_recall_payload
 * returns them (NULL: not recalled); fuzz_memo_keep keeps nothing in
 * such a memory. */
fuzz_memo *fuzz_memo_new_with(unsigned log2_slots, size_t payload);
const void *fuzz_memo_recall_payload(fuzz_memo *m, uint32_t view, const uint64_t *w,
                                     unsigned nw, uint32_t gen);
bool fuzz_memo_keep_payload(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw,
                            uint32_t gen, const fuzz_decoding *d, const void *payload);

/* What a round trip of whole programs (fuzz/roundtrip_program.c) needs
 * of one part read through view: its leaf, whether it has a meaning
 * (fuzz_has_meaning), and where it has, its three masks
 * (fuzz_decoding_masks, view->nwords words).  fuzz_part_read decodes the
 * part at generation 0 (scratch: the decoding's room) and marks what the
 * decoding reached (fuzz_decode), or recalls it all from m (made by
 * fuzz_part_memo_new; NULL: no memory), setting the counters again.
 * known, where not NULL, is asked (known(ctx), once, and only where m
 * lacks the part) for the part's decoding at generation 0 where the
 * caller has it made with room for more values than FUZZ_MAX_VALUES and
 * for FUZZ_MAX_ISSUES issues (codec_walker_decoding's; NULL where it has
 * none): taken instead of decoding the part where it has fewer than
 * FUZZ_MAX_VALUES values (then it is what decoding would give).  (Asked
 * for every part, codec_walker_decoding's look-up was a hundredth of
 * roundtrip_program_a2xx's run; the memory answers most parts.)
 * Here, not in the target's file: that file's edges, which libFuzzer
 * counts, must not depend on what the memory recalls. */
typedef struct fuzz_part {
	const spec_bitset *leaf;
	bool meaning;
	uint64_t dontcare[FUZZ_MAX_WORDS], asserts[FUZZ_MAX_WORDS], accounted[FUZZ_MAX_WORDS];
} fuzz_part;
fuzz_memo *fuzz_part_memo_new(unsigned log2_slots);
typedef const codec_decoded *fuzz_known_decoding(const void *ctx);
void fuzz_part_read(fuzz_memo *m, const fuzz_spec *view, uint32_t viewid, const uint64_t *w,
                    fuzz_known_decoding *known, const void *ctx, fuzz_decoding *scratch,
                    fuzz_part *out);

/* Loops over a program's words for fuzz/roundtrip_program.c, here (no
 * traced comparisons, no edges) rather than in the target's file: their
 * compares meet masks, re-encodings and the previous input, never a
 * constant of the spec, and under libFuzzer each was a call (4-5% of a
 * program round trip's run; memcmp's hook copies 64 bytes a call).
 *
 * fuzz_words_equal: whether a and b agree in their n words.
 * fuzz_words_meet: whether a[k] & m[k] is set for some k < n.
 * fuzz_words_first_off: the first k < n where a re-encoding b of a
 *   differs from it outside the don't-care bits x or sets one of them
 *   ((a[k] ^ b[k]) & ~x[k] or b[k] & x[k]); n where there is none.
 * fuzz_or_masks: ors bits [0, n) of each of the three src[j] into the
 *   words dst[j] from bit at on (the bits must lie inside them): a
 *   part's three masks placed in the program's in one pass. */
bool fuzz_words_equal(const uint32_t *a, const uint32_t *b, size_t n);
bool fuzz_words_meet(const uint32_t *a, const uint32_t *m, size_t n);
size_t fuzz_words_first_off(const uint32_t *a, const uint32_t *b, const uint32_t *x, size_t n);
void fuzz_or_masks(uint32_t *const dst[3], size_t at, const uint64_t *const src[3], unsigned n);

/* With FUZZ_RECORD=FILE in the environment, appends each input a target
 * is given to FILE, in the order given (each a 4-byte little-endian
 * length, then its bytes), so that an engine's run can be replayed
 * outside it, input for input (repro.c --replay, bench/fuzz-replay).
 * Without it, or once FILE cannot be written (said once on stderr),
 * nothing.  The round trips call it first thing. */
void fuzz_record_input(const uint8_t *data, size_t size);

/* The three masks of a decoding, each s->nwords words:
 *
 *  dontcare   the x bits: the leaf's, and those of every sub-bitset leaf
 *             at the bits of its field;
 *  asserts    the bits of every <assert> (of every case) of the leaf, its
 *             ancestors and every sub-bitset leaf at its field.  Mesa
 *             checks an assert only where it prints a display, so a
 *             decoding can be clean while a word breaks an ancestor's
 *             assert; such a word has no canonical form;
 *  accounted  the bits a decoding accounts for: x, pattern and assert
 *             bits of the leaf, its ancestors and its sub leaves, and the
 *             bits of every field value decoded (the active cases'
 *             fields).  A bit outside it is a hole in the spec: words
 *             differing there decode alike.
 *
 * Each bitset's own share is worked out once, when the spec is loaded.
 * accounted may be NULL (not wanted: the values' bits are then not
 * gathered, which is most of the work). */
void fuzz_decoding_masks(const fuzz_spec *s, const codec_decoded *d, uint64_t *dontcare,
                         uint64_t *asserts, uint64_t *accounted);

/* Whether two decodings mean the same: same leaf, and the same values
 * (field, owner, raw bits, depth, sub leaf) in the same order.  On a
 * difference, why says where (one line). */
bool fuzz_same_meaning(const codec_decoded *a, const codec_decoded *b, char *why, size_t len);

/* Whether two decodings are equal in everything codec_encode reads: the
 * leaf and generation, and per value its field, owner, case, depth, sub
 * leaf, value, and raw bits where no sub leaf stands for them.  Then
 * they encode alike, the encoder being a function of those.  The value
 * of a bitset-typed field with a sub leaf (its bits, don't-care bits of
 * the sub leaf among them) is read only by expressions and params that
 * name the field: it counts only for the fields s->read_subs lists. */
/* d changed as a decoding made by hand might be, r choosing how and
 * where: another value (in range or not), one just past its field's
 * range, another value's field (with its owner and case), a value left
 * out, a value twice, its case unknown, one level deeper.  Into x, its
 * values in vals (room for d->nvalues + 1; d has at least one value).
 * Returns which of those seven (0..6). */
unsigned fuzz_change_decoding(const codec_decoded *d, codec_decoded *x, codec_value *vals,
                              uint64_t r);
/* The encoder that remembers (s->enc) must answer as codec_encode: the
 * same result, words and message, and nothing written past the leaf's
 * words.  Why not, in why; false when they agree. */
bool fuzz_encoders_differ(const fuzz_spec *s, const codec_decoded *d, char *why, size_t len);
bool fuzz_same_encoder_input(const fuzz_spec *s, const codec_decoded *a,
                             const codec_decoded *b);

/* ---------------------------------------------------------------- report */

/* The finding report: a title line, the input in hex, the two sides
 * (words, decodings, texts) side by side, and the commands that
 * reproduce it.  Either decoding may be NULL (a side that was not
 * reached).  Then abort(), unless FUZZ_KEEP_GOING=1 is in the
 * environment (bench/fuzz measures speed past known findings): then it
 * only counts, and returns; the caller stops checking that instruction. */
typedef struct fuzz_side {
	const char *label;          /* e.g. "input", "re-encoded" */
	const uint64_t *w;          /* NULL: none */
	const codec_decoded *d;     /* NULL: none */
	const char *text;           /* NULL: none */
} fuzz_side;

void fuzz_finding(const char *target, const fuzz_spec *s, const uint8_t *data, size_t size,
                  uint32_t gen, const char *what, const fuzz_side *left, const fuzz_side *right);

/* The same report with more lines on each side (either may be NULL):
 * text, one line per newline-separated line, printed side by side after
 * the issues.  The diff_ targets show there each codec's meaning mapped
 * onto common names, so that the field they disagree on has a "|".
 * With s NULL only the lines are printed (whole programs); with s and
 * right_lines NULL, left_lines alone as they are (a generated spec). */
void fuzz_finding_lines(const char *target, const fuzz_spec *s, const uint8_t *data,
                        size_t size, uint32_t gen, const char *what, const fuzz_side *left,
                        const fuzz_side *right, const char *left_lines,
                        const char *right_lines);

/* The report of a generated spec's finding: the first line of why as
 * its title (why is cut there), the spec's text xml after the input. */
void fuzz_finding_spec(const char *target, const uint8_t *data, size_t size, char *why,
                       const char *xml);

/* Appends to the NUL-terminated text in buf (len bytes in all), cutting
 * what does not fit: for building the lines above. */
void fuzz_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The first n bytes of p (at most 8) as a little-endian number: a seed
 * or a word from an input that may end early. */
uint64_t fuzz_read_le(const uint8_t *p, size_t n);

/* A seed made of all of data (FNV-1a): for a generator that goes on
 * where the input's bytes end. */
uint64_t fuzz_input_seed(const uint8_t *data, size_t size);

/* Prints data as hex bytes, 16 a line, each line indented. */
void fuzz_print_hex(FILE *f, const uint8_t *data, size_t size);
/* Prints "printf '\x..' | REPRO" for data: the one command that runs
 * this very input through the target's plain reproducer. */
void fuzz_print_repro(FILE *f, const char *target, const uint8_t *data, size_t size);

/* Whether a decoding keeps its meaning: a leaf, and no issue but a set
 * don't-care bit, an unnamed enum value, a missing display or an unknown
 * field name (which leave the bits' reading intact); the round trips hold
 * only such decodings to their words. */
bool fuzz_has_meaning(const codec_decoded *d);

#endif
