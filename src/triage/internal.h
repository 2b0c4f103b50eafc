/*
 * internal.h - inside src/triage, not part of its API (triage.h is): how
 * triage.c cuts the work on one instruction in two, so that queue.c can
 * do the costly half on other threads.
 *
 * Analysing an instruction (classifying and decoding it, working out its
 * situation and the key of its cluster) reads only what a triage fixes
 * when it is made (its codec, model and options) and writes only into an
 * analyser: threads, each with an analyser of its own, may analyse while
 * the triage goes on counting.  What an analysis finds is counted by
 * triage_count_found, one instruction at a time, on one thread, in input
 * order; only counting reads or makes records in the triage (memo, leaf
 * records, spec problems, clusters), and so it fixes every order the
 * results show.  triage_add is the two halves one after the other.
 */
#ifndef ISACHECK_TRIAGE_INTERNAL_H
#define ISACHECK_TRIAGE_INTERNAL_H

#include "triage.h"

typedef struct analyser analyser;
typedef struct memo memo;
typedef struct finding finding;

/* What analysing an instruction gave: the triage's memo of its words
 * (nothing left to analyse), or a finding in the analyser's memory;
 * neither when memory ran out. */
typedef struct triage_found {
	const memo *hit;
	finding *f;
} triage_found;

/* An analyser of t: its own scratch, nearest-leaf indexes and findings.
 * NULL when memory runs out. */
analyser *analyser_new(const triage *t);
void analyser_free(analyser *an);

/* Starts a batch.  An analyser keeps the findings of two batches, the
 * one being counted and the one being analysed: which (0 or 1) says
 * which this is, and the findings of the last batch there are given
 * up.  recall: the input repeats itself (triage_memo_worth_asking), so
 * remember this batch's findings by hash, and a word met again in it is
 * not analysed twice. */
void analyser_begin(analyser *an, unsigned which, bool recall);
/* Analyses the instruction w (masked to the root's size) of root at gen,
 * whose memo hash is hash (triage_memo_ask).  Writes only an and out;
 * the finding, which points to w, lives until the batch of its slot is
 * begun again, and w must too. */
void analyser_item(analyser *an, const spec_root *root, const uint64_t *w, uint32_t gen,
                   uint64_t hash, triage_found *out);

/* Whether the memo answers often enough to be asked about every word. */
bool triage_memo_worth_asking(const triage *t);
/* The memo of w (masked) of root at gen, when it is worth asking (or
 * always is set: one word in 64 is, to see whether the input starts
 * repeating itself); NULL otherwise.  *hash gets the word's hash either
 * way. */
const memo *triage_memo_ask(triage *t, const spec_root *root, const uint64_t *w, uint32_t gen,
                            bool always, uint64_t *hash);
/* Counts instruction w of root, as analysis found it (triage_add's
 * result).  ask: look the words up in the memo first when there is no
 * hit (in a batch, an item counted since it was asked may have put
 * them in). */
bool triage_count_found(triage *t, const spec_root *root, const uint64_t *w,
                        const triage_found *fd, const triage_origin *origin, bool ask);

/* NULL *root becomes the codec's default root; false when it is not one
 * of the model's roots. */
bool triage_check_root(const triage *t, const spec_root **root);
/* Whether triage_add_data takes such a data item. */
bool triage_check_data(const spec_step *step, const uint64_t *w, unsigned bits);
/* Copies the (bits + 63) / 64 words of w, bits past bits cleared. */
void triage_copy_bits(uint64_t *out, const uint64_t *w, unsigned bits);

#endif
