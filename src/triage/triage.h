/*
 * triage.h - the whole API of src/triage: find what a spec does not
 * explain in instructions a vendor compiler emitted, and group it so a
 * person sees the pattern.
 *
 * A triage is fed items: one instruction (a root and its words, at a
 * generation, with where it came from).  Whole programs (a2xx, Midgard)
 * are split into such items by the spec's framing before they get here,
 * so each item may name its own root.  Per item the codec decodes it;
 * what it leaves unexplained (no match, ambiguity, don't-care or
 * reserved bits set, an assert that does not hold, an enum value the
 * spec does not name, a failing expression) is reduced to a *situation*:
 * the leaf and the exact mask of unexplained bits (for a word no leaf
 * matches: its nearest leaves and the bits in which each differs).
 * Identical situations form one cluster.  Per leaf, every word decoded
 * to it adds to a per-bit count of ones, from which the histograms of
 * don't-care and reserved bits are read, and to the list of enum values
 * the spec does not name.
 *
 * Nothing here reads files or prints: the caller (src/cli) does input
 * and reports.  No global state; memory grows with the number of
 * distinct situations (bounded by the input), never per instruction.
 * A triage is used from one thread at a time; a triage_queue (below)
 * spreads the decoding of its instructions over several.
 */
#ifndef ISACHECK_TRIAGE_H
#define ISACHECK_TRIAGE_H

#include "codec.h"
#include "spec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What can be unexplained about one instruction; an instruction may have
 * several.  The order is the order reports list them in. */
typedef enum triage_kind {
	TRIAGE_NO_MATCH,     /* no leaf matches (the instruction, or a bitset field of it) */
	TRIAGE_AMBIGUOUS,    /* two leaves match */
	TRIAGE_DONTCARE,     /* a declared x bit is 1 */
	TRIAGE_RESERVED,     /* a bit no pattern, field or x accounts for is 1 */
	TRIAGE_ASSERT,       /* an <assert> does not hold */
	TRIAGE_ENUM,         /* a field value its enum does not name */
	TRIAGE_DATA,         /* a data item the framing marks unexplained="REASON" (a
	                        whole program's region nobody knows the layout of) */
	TRIAGE_SPEC_ERROR,   /* an expression failed, names no field, or a leaf has no
	                        display: a problem of the spec, not of the word, so it
	                        is tallied (triage_spec_problem_at) but leaves the
	                        instruction explained */
	TRIAGE_NKINDS
} triage_kind;

/* Stable names, used in JSON and text: "no-match", "ambiguous",
 * "dontcare", "reserved", "assert", "enum", "unexplained-data",
 * "spec-error". */
const char *triage_kind_name(triage_kind k);

typedef struct triage_options {
	unsigned nearest_max;  /* nearest leaves kept per no-match word (0: 3) */
	unsigned examples;     /* example instructions kept per cluster (0: 3) */
} triage_options;

typedef struct triage triage;

/* A triage over one codec (which must outlive it).  NULL when memory
 * runs out. */
triage *triage_new(const codec *c, const triage_options *opt);
void triage_free(triage *t);

/* Names an input (a file, "-", a TSV...) so items can say where they
 * come from; returns its number, or -1 when memory runs out.  The name
 * is copied. */
int triage_add_source(triage *t, const char *name);

/* Where an item came from: a source and, in it, a byte offset (binary
 * input) or a 1-based line (text input). */
typedef struct triage_origin {
	int source;
	bool is_line;
	uint64_t pos;
} triage_origin;

/* Triages one instruction of root (NULL: the codec's default root) at
 * gen.  w holds the root's (size + 63) / 64 words; bits past the root's
 * size are ignored.  Returns false only when memory runs out (the item
 * is then counted but not clustered) or root is not the model's. */
bool triage_add(triage *t, const spec_root *root, const uint64_t *w, uint32_t gen,
                const triage_origin *origin);

/* Sorts the clusters (most instructions first, then by leaf name and
 * mask, so output is stable) and freezes the results.  Further
 * triage_add calls are allowed and need another triage_finish. */
void triage_finish(triage *t);

/* ---------------------------------------------------------- results */

typedef struct triage_summary {
	size_t instructions;         /* items triaged (unexplained data items included) */
	size_t explained;            /* decoded to one leaf with nothing unexplained */
	size_t unexplained;          /* instructions - explained */
	size_t by_kind[TRIAGE_NKINDS]; /* instructions with at least one of each kind
	                                  (spec errors included, though not unexplained) */
	size_t clusters;             /* of instructions (triage_cluster_at) */
	size_t sources;
	size_t data_clusters;        /* of unexplained data (triage_data_cluster_at) */
} triage_summary;

triage_summary triage_get_summary(const triage *t);
const char *triage_source_name(const triage *t, int source);

/* One nearest leaf of a no-match situation: its fixed (0/1 pattern) bits
 * differ from the word in exactly the bits of diff. */
typedef struct triage_near {
	const spec_bitset *leaf;
	unsigned distance;           /* popcount of diff */
	const uint64_t *diff;        /* nwords words */
} triage_near;

/* An issue of the situation that the bit mask alone does not say: an
 * issue inside a bitset field, an enum value, a failed expression...
 * (kind, the bitset concerned, the field, the value) as the codec gave
 * them, text included. */
typedef struct triage_detail {
	triage_kind kind;
	const spec_bitset *leaf;     /* may be NULL (no match inside a field) */
	const spec_bitset *other;    /* ambiguous: the second leaf */
	const spec_field *field;     /* may be NULL */
	uint64_t value;              /* enum: the value; assert: the bits seen; ... */
	const char *text;            /* the codec's one-line message */
} triage_detail;

typedef struct triage_example {
	triage_origin origin;
	const uint64_t *w;           /* nwords words */
} triage_example;

typedef struct triage_cluster {
	size_t id;                   /* 1-based rank after triage_finish */
	const spec_root *root;
	uint32_t gen;
	const spec_bitset *leaf;     /* the leaf decoded to; NULL: no match or ambiguous */
	const spec_bitset *matches[2]; /* ambiguous: the first two leaves that match */
	unsigned kinds;              /* bit (1u << triage_kind) per kind present */
	unsigned nwords;             /* of the root */
	const uint64_t *mask;        /* the unexplained bits (not for no-match: see nearest) */
	const triage_near *nearest;  /* no-match: the nearest leaves, document order */
	size_t nnearest;
	size_t nearest_ties;         /* how many leaves share the least distance (>= nnearest) */
	const triage_detail *details;
	size_t ndetails;
	size_t count;                /* instructions in this situation */
	const uint64_t *ones;        /* per bit (size entries): how many of them have it set */
	const triage_example *examples;
	size_t nexamples;
} triage_cluster;

size_t triage_cluster_count(const triage *t);
const triage_cluster *triage_cluster_at(const triage *t, size_t i);

/* An enum value a leaf's words carry that the enum does not name. */
typedef struct triage_enum_seen {
	const spec_bitset *owner;    /* the bitset whose field it is (the leaf or a sub-leaf) */
	const spec_field *field;
	uint64_t value;
	size_t count;
} triage_enum_seen;

/* Every leaf at least one instruction decoded to (ambiguous words
 * excepted), with per-bit counts over those instructions. */
typedef struct triage_leaf {
	const spec_bitset *leaf;
	size_t count;                /* instructions decoded to it */
	size_t unexplained;          /* of which some part was unexplained */
	const uint64_t *ones;        /* per bit (size entries): how many have it set */
	const uint64_t *reserved;    /* nwords: bits neither pattern, x nor any field accounts for */
	const triage_enum_seen *enums;
	size_t nenums;
} triage_leaf;

size_t triage_leaf_count(const triage *t);
/* In the order of the model's bitsets (document order). */
const triage_leaf *triage_leaf_at(const triage *t, size_t i);

/* A problem of the spec met while decoding (TRIAGE_SPEC_ERROR), once per
 * distinct message, in order of first meeting. */
typedef struct triage_spec_problem {
	const spec_bitset *leaf;     /* the instruction's leaf */
	const char *text;            /* the codec's message, e.g. "no field 'TYPE'" */
	size_t count;                /* instructions that met it */
} triage_spec_problem;

size_t triage_spec_problem_count(const triage *t);
const triage_spec_problem *triage_spec_problem_at(const triage *t, size_t i);

/* ------------------------------------------------ unexplained data */

/* Triages one data item of a framed program whose <data> step says
 * unexplained="REASON" (spec_step.unexplained): bits it does not
 * understand at all, such as Midgard's bundles of tags 6 and 7.  The
 * item counts as one unexplained instruction of kind TRIAGE_DATA and
 * joins the data cluster of its step's name, its reason and its size
 * (two steps alike describe the same unknown thing).  w holds
 * (bits + 63) / 64 words.  Returns false when memory runs out, or when
 * step is no such step or bits is 0 or above SPEC_MAX_BITS (nothing is
 * counted then). */
bool triage_add_data(triage *t, const spec_step *step, const uint64_t *w, unsigned bits,
                     const triage_origin *origin);

/* Contents a data cluster tells apart exactly; past this many, distinct
 * says "at least". */
#define TRIAGE_DATA_DISTINCT_MAX 4096u

typedef struct triage_data_cluster {
	size_t id;                   /* 1-based rank after triage_finish */
	const spec_step *step;       /* the first <data> step met: name, unexplained, loc */
	const char *name;            /* its name= (NULL: none) */
	const char *reason;          /* its unexplained= */
	unsigned bits;               /* every item's size */
	size_t count;                /* items */
	size_t distinct;             /* different contents among them (at most
	                                TRIAGE_DATA_DISTINCT_MAX: then at least that) */
	const uint64_t *ones;        /* per bit (bits entries): how many items have it set */
	const triage_example *examples; /* in input order; w holds (bits + 63) / 64 words */
	size_t nexamples;
} triage_data_cluster;

/* Sorted by triage_finish: most items first, then name, reason, size. */
size_t triage_data_cluster_count(const triage *t);
const triage_data_cluster *triage_data_cluster_at(const triage *t, size_t i);

/* ------------------------------------------------ on several threads */

/* A queue in front of a triage that does the costly part of triaging
 * (classifying and decoding each instruction, working out its situation
 * and cluster key) on other threads.  Items wait in a batch (their words
 * copied) until TRIAGE_BATCH_ITEMS wait or their words fill it (twice
 * as many 64-bit words: wider instructions than 128 bits fill it
 * first); then threads analyse that batch while the caller goes on
 * filling the next, and once that one is full too, the caller counts the
 * analysed batch, item by item in input order (and hands the threads the
 * full one).
 * Only counting changes the triage, in the order triage_add and
 * triage_add_data would, so every result (counts, clusters, examples,
 * per-bit counts, the order spec problems are met in) is what calling
 * those in the same order gives, for any number of threads.  Memory
 * grows with two batches, not with the input.
 *
 * While items wait, the triage is not up to date: flush before reading
 * results or triage_finish, and feed the triage only through the queue
 * while it is in use (items added directly would be counted before the
 * waiting ones). */
typedef struct triage_queue triage_queue;

#define TRIAGE_BATCH_ITEMS 16384u
#define TRIAGE_MAX_JOBS 256u

/* A queue for t on up to jobs threads, the caller's among them (0 counts
 * as 1, more than TRIAGE_MAX_JOBS as that many).  With 1 there is no
 * batch: each item goes straight to triage_add or triage_add_data.
 * NULL when memory runs out. */
triage_queue *triage_queue_new(triage *t, unsigned jobs);
/* Frees the queue; items still waiting are dropped, not counted. */
void triage_queue_free(triage_queue *q);

/* triage_add and triage_add_data through the queue: false at once,
 * nothing added, when they would refuse the item (a root that is not the
 * model's, a step that is no unexplained <data>, a bad size); false also
 * when memory ran out, here or while a batch this call made full was
 * triaged (some of its items may then be counted, not clustered). */
bool triage_queue_add(triage_queue *q, const spec_root *root, const uint64_t *w, uint32_t gen,
                      const triage_origin *origin);
bool triage_queue_add_data(triage_queue *q, const spec_step *step, const uint64_t *w,
                           unsigned bits, const triage_origin *origin);
/* Triages every waiting item; false when memory ran out meanwhile. */
bool triage_queue_flush(triage_queue *q);

/* ---------------------------------------------------------- helpers */

/* Bits no pattern bit, x or field (of any case, the leaf's or an
 * ancestor's) accounts for: what the blob may not set.  out gets the
 * root's words. */
void triage_reserved_bits(const spec_bitset *leaf, uint64_t *out, unsigned nwords);

/* The nearest leaves of root at gen to w: the leaves whose fixed bits
 * differ from w in the fewest places (document order; at most max are
 * stored, with their distance and diff in diffs[i * nwords...]).
 * Returns how many leaves share the least distance. */
size_t triage_nearest(const spec_root *root, const uint64_t *w, uint32_t gen,
                      const spec_bitset **leaves, unsigned *distance, uint64_t *diffs,
                      size_t max);

#ifdef __cplusplus
}
#endif

#endif
