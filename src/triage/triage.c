/*
 * triage.c - items in, situations out (see triage.h).
 *
 * Per instruction: codec_decode gives the leaf and the issues; from them
 * and the model's masks we compute the exact set of unexplained bits
 * (don't-care and reserved bits set, in the leaf and in the sub-leaves
 * of its bitset fields; the bits of an assert that differ; the bits of
 * a field whose value is not in its enum or matches no sub-leaf).  That
 * mask, with the leaf and the issues the mask cannot say, is serialised
 * into a key; equal keys are one cluster, found through a hash table.
 * A word no leaf matches is keyed by its nearest leaves and the bits in
 * which each differs, which is the pattern a reverse engineer looks for
 * ("one bit away from add.f, at bit 52").
 */
#include "internal.h"
#include "nearest.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WORDS (SPEC_MAX_BITS / 64u)
#define MAX_NEAREST 16u
#define MAX_VALUES 256u
#define MAX_ISSUES 16u
/* A key: header, mask, nearest leaves with diffs, details. */
#define MAX_KEY (8u + MAX_WORDS + MAX_NEAREST * (1u + MAX_WORDS) + MAX_ISSUES * 5u)

/* ------------------------------------------------------------- arena */

typedef struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
} arena_block;

typedef struct arena {
	arena_block *head;
	arena_block *spare;          /* blocks arena_reset gave back, for reuse */
} arena;

/* Memory the caller fills completely (no zeroing). */
static void *arena_alloc_raw(arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (!a->head || a->head->cap - a->head->used < n) {
		arena_block *b = a->spare;
		if (b && b->cap >= n) {
			a->spare = b->next;
		} else {
			size_t cap = n > (1u << 20) ? n : (1u << 20);
			b = malloc(sizeof *b + cap);
			if (!b)
				return NULL;
			b->cap = cap;
		}
		b->next = a->head;
		b->used = 0;
		a->head = b;
	}
	void *p = a->head->data + a->head->used;
	a->head->used += n;
	return p;
}

static void *arena_alloc(arena *a, size_t n)
{
	void *p = arena_alloc_raw(a, n);
	if (p)
		memset(p, 0, n);
	return p;
}

static void blocks_free(arena_block *b)
{
	for (arena_block *n; b; b = n) {
		n = b->next;
		free(b);
	}
}

static void arena_free(arena *a)
{
	blocks_free(a->head);
	blocks_free(a->spare);
	a->head = a->spare = NULL;
}

/* Everything allocated is given up; the blocks are kept for what comes
 * next (a batch of findings after the last one). */
static void arena_reset(arena *a)
{
	while (a->head) {
		arena_block *b = a->head;
		a->head = b->next;
		b->next = a->spare;
		a->spare = b;
	}
}

static char *arena_strdup(arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = arena_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* ------------------------------------------------------------ tables */

/* A slot of an open-addressing table: a hash and what it stands for
 * (NULL: empty).  A probe compares hashes without touching the records,
 * each of which would be a cache miss on random input. */
typedef struct slot {
	uint64_t hash;
	void *rec;
} slot;

/* Puts rec in the first empty slot from its hash's (cap: a power of 2). */
static void slot_put(slot *tab, size_t cap, uint64_t hash, void *rec)
{
	size_t j = (size_t)hash & (cap - 1);
	while (tab[j].rec)
		j = (j + 1) & (cap - 1);
	tab[j] = (slot){hash, rec};
}

/* Doubles a table (from nothing: 1024 slots); false when memory runs
 * out, the table unchanged. */
static bool slots_grow(slot **tab, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 1024;
	slot *nt = calloc(ncap, sizeof *nt);
	if (!nt)
		return false;
	for (size_t i = 0; i < *cap; i++)
		if ((*tab)[i].rec)
			slot_put(nt, ncap, (*tab)[i].hash, (*tab)[i].rec);
	free(*tab);
	*tab = nt;
	*cap = ncap;
	return true;
}

/* ------------------------------------------------------------- state */

typedef struct situation situation;
typedef struct memo_sub memo_sub;
typedef struct memo_enum memo_enum;
typedef struct found_sub found_sub;

/* Distinct words whose triage is remembered (blobs repeat themselves);
 * past half of it, new words are triaged without being remembered. */
#define MEMO_SLOTS (1u << 19)
/* After this many words remembered, remembering goes on only while the
 * input repeats itself at least as often. */
#define MEMO_TRIAL (1u << 14)

typedef struct cluster_rec {
	triage_cluster pub;
	uint64_t hash;
	const uint64_t *key;
	size_t keylen;
	triage_example *ex;          /* room for cap_ex examples */
	unsigned cap_ex;
	uint64_t *ex_words;          /* room for cap_ex examples' words */
	uint64_t *ones;              /* from the second instruction on */
	uint32_t name_rank;          /* of its leaf's name, while sorting */
} cluster_rec;

/* A cluster of unexplained data items (triage_add_data). */
typedef struct data_rec {
	triage_data_cluster pub;
	uint64_t *ones;              /* nw * 64 entries */
	triage_example *ex;          /* room for opt.examples */
	uint64_t *ex_words;          /* and their words */
	slot *seen;                  /* the distinct contents, by hash */
	size_t seen_cap;
} data_rec;

typedef struct leaf_rec {
	triage_leaf pub;
	uint64_t *ones;
	uint64_t *reserved;
	triage_enum_seen *enums;
	size_t cap_enums;
} leaf_rec;

struct triage {
	bool have_popcnt;          /* the CPU counts bits in one instruction */
	const codec *c;
	const spec_model *m;
	triage_options opt;
	arena mem;
	char **sources;
	size_t nsources, cap_sources;
	triage_summary sum;
	cluster_rec **clusters;      /* in order of creation, sorted by triage_finish */
	size_t nclusters, cap_clusters;
	slot *table;                 /* the clusters by key hash */
	size_t table_cap;
	triage_spec_problem *problems;
	size_t nproblems, cap_problems;
	leaf_rec **leaf_by_index;    /* by spec_bitset.index */
	analyser *own;               /* triage_add's */
	slot *memos;                 /* by hash of (root, gen, words); at most MEMO_SLOTS */
	size_t memo_cap;
	size_t nmemos, memo_hits, memo_lookups;
	memo *scratch_memo;
	memo_sub *scratch_subs;      /* MAX_VALUES */
	size_t *scratch_probs;       /* MAX_ISSUES */
	uint32_t *name_rank;         /* by bitset index (rank_names) */
	data_rec **data;             /* unexplained data clusters, sorted by triage_finish */
	size_t ndata, cap_data;
	const triage_leaf **leaves;  /* the leaves seen, document order (after finish) */
	size_t nleaves;
	bool sorted;
};

const char *triage_kind_name(triage_kind k)
{
	static const char *const names[TRIAGE_NKINDS] = {
		"no-match", "ambiguous", "dontcare", "reserved", "assert", "enum",
		"unexplained-data", "spec-error",
	};
	return (unsigned)k < TRIAGE_NKINDS ? names[k] : "?";
}

static bool alloc_scratch(triage *t);
static bool rank_names(triage *t);

triage *triage_new(const codec *c, const triage_options *opt)
{
	if (!c)
		return NULL;
	triage *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->c = c;
	t->m = codec_model(c);
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	t->have_popcnt = __builtin_cpu_supports("popcnt");
#endif
	if (opt)
		t->opt = *opt;
	if (!t->opt.nearest_max)
		t->opt.nearest_max = 3;
	if (t->opt.nearest_max > MAX_NEAREST)
		t->opt.nearest_max = MAX_NEAREST;
	if (!t->opt.examples)
		t->opt.examples = 3;
	t->leaf_by_index = calloc(t->m->nbitsets ? t->m->nbitsets : 1, sizeof *t->leaf_by_index);
	t->own = analyser_new(t);
	if (!t->leaf_by_index || !slots_grow(&t->table, &t->table_cap) || !t->own ||
	    !alloc_scratch(t) || !rank_names(t)) {
		triage_free(t);
		return NULL;
	}
	return t;
}

void triage_free(triage *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->m->nbitsets && t->leaf_by_index; i++)
		if (t->leaf_by_index[i])
			free(t->leaf_by_index[i]->enums);
	free(t->leaf_by_index);
	free(t->problems);
	analyser_free(t->own);
	free(t->memos);
	free(t->scratch_memo);
	free(t->scratch_subs);
	free(t->scratch_probs);
	for (size_t i = 0; i < t->nsources; i++)
		free(t->sources[i]);
	free(t->sources);
	free(t->clusters);
	free(t->table);
	for (size_t i = 0; i < t->ndata; i++)
		free(t->data[i]->seen);
	free(t->data);
	free(t->leaves);
	free(t->name_rank);
	arena_free(&t->mem);
	free(t);
}

int triage_add_source(triage *t, const char *name)
{
	char **p = spec_grow(t->sources, t->nsources + 1, &t->cap_sources, sizeof *p, 16);
	if (!p)
		return -1;
	t->sources = p;
	if (t->nsources >= (size_t)0x7fffffff)
		return -1;
	char *s = strdup(name ? name : "");
	if (!s)
		return -1;
	t->sources[t->nsources] = s;
	t->sum.sources = t->nsources + 1;
	return (int)t->nsources++;
}

const char *triage_source_name(const triage *t, int source)
{
	return source >= 0 && (size_t)source < t->nsources ? t->sources[source] : "";
}

/* ------------------------------------------------------------ bits */

static void set_range(uint64_t *m, unsigned nw, unsigned low, unsigned high)
{
	for (unsigned i = low; i <= high && i / 64 < nw; i++)
		m[i / 64] |= (uint64_t)1 << (i % 64);
}

static bool get_bit(const uint64_t *w, unsigned i)
{
	return (w[i / 64] >> (i % 64)) & 1;
}

/* Bits low..high of w (at most 64 of them). */
static uint64_t extract64(const uint64_t *w, unsigned nw, unsigned low, unsigned high)
{
	unsigned n = high - low + 1, k = low / 64, sh = low % 64;
	uint64_t v = k < nw ? w[k] >> sh : 0;
	if (sh && sh + n > 64 && k + 1 < nw)
		v |= w[k + 1] << (64 - sh);
	return n < 64 ? v & (((uint64_t)1 << n) - 1) : v;
}

/* ORs v (at most 64 bits) into m at bit low. */
static void or_at(uint64_t *m, unsigned nw, uint64_t v, unsigned low)
{
	unsigned k = low / 64, sh = low % 64;
	if (k < nw)
		m[k] |= v << sh;
	if (sh && k + 1 < nw)
		m[k + 1] |= v >> (64 - sh);
}

static void count_ones(uint64_t *ones, const uint64_t *w, unsigned nw)
{
	for (unsigned k = 0; k < nw; k++)
		for (uint64_t x = w[k]; x; x &= x - 1)
			ones[k * 64 + (unsigned)__builtin_ctzll(x)]++;
}

static void or_bits(uint64_t *out, spec_bits b, unsigned nw)
{
	for (unsigned k = 0; k < nw && k < b.nwords; k++)
		out[k] |= b.w[k];
}

void triage_reserved_bits(const spec_bitset *leaf, uint64_t *out, unsigned nwords)
{
	uint64_t acc[MAX_WORDS] = {0};
	unsigned nw = nwords < MAX_WORDS ? nwords : MAX_WORDS;
	or_bits(acc, leaf->mask, nw);
	or_bits(acc, leaf->dontcare, nw);
	or_bits(acc, leaf->field_mask, nw);
	/* an override's fields count too: a bit explained in some case is
	 * not one the blob may never set */
	for (const spec_bitset *b = leaf; b; b = b->parent)
		for (size_t i = 0; i < b->ncases; i++)
			or_bits(acc, b->cases[i].field_mask, nw);
	for (unsigned k = 0; k < nwords; k++) {
		out[k] = k < nw ? ~acc[k] : 0;
		unsigned lo = k * 64;
		if (lo >= leaf->size)
			out[k] = 0;
		else if (leaf->size - lo < 64)
			out[k] &= ((uint64_t)1 << (leaf->size - lo)) - 1;
	}
}

/* The nearest leaves found so far (triage_nearest's outputs). */
typedef struct near_acc {
	const spec_bitset **leaves;
	unsigned *distance;
	uint64_t *diffs;
	size_t max, ties;
	unsigned best, nw;
} near_acc;

/* Word k of the fixed bits of b in which w differs. */
static uint64_t near_diff(const spec_bitset *b, const uint64_t *w, unsigned k)
{
	return (w[k] ^ (k < b->match.nwords ? b->match.w[k] : 0)) & near_fixed(b, k);
}

/* Scores leaf b by the fixed bits in which w differs: kept when among
 * the nearest. */
static void near_offer(near_acc *a, const spec_bitset *b, const uint64_t *w)
{
	unsigned nw = a->nw, d = 0;
	for (unsigned k = 0; k < nw; k++)
		d += near_pop64(near_diff(b, w, k));
	if (d > a->best)
		return;
	if (d < a->best) {
		a->best = d;
		a->ties = 0;
	}
	if (a->ties < a->max) {
		a->leaves[a->ties] = b;
		a->distance[a->ties] = d;
		for (unsigned k = 0; k < nw; k++)
			a->diffs[a->ties * nw + k] = near_diff(b, w, k);
	}
	a->ties++;
}

/* The plain scan over every leaf: the reference near_index_search
 * (nearest.c) is tested against. */
size_t triage_nearest(const spec_root *root, const uint64_t *w, uint32_t gen,
                      const spec_bitset **leaves, unsigned *distance, uint64_t *diffs,
                      size_t max)
{
	near_acc a = {leaves, distance, diffs, max, 0, ~0u, (root->bitset->size + 63) / 64};
	for (size_t i = 0; i < root->nleaves; i++) {
		const spec_bitset *b = root->leaves[i];
		if (gen >= b->gen.min && gen <= b->gen.max)
			near_offer(&a, b, w);
	}
	return a.ties;
}

/* ----------------------------------------------------------- leaves */

static leaf_rec *leaf_get(triage *t, const spec_bitset *b)
{
	if (b->index >= t->m->nbitsets)
		return NULL;
	leaf_rec *r = t->leaf_by_index[b->index];
	if (r)
		return r;
	unsigned nw = (b->size + 63) / 64;
	r = arena_alloc(&t->mem, sizeof *r);
	uint64_t *words = arena_alloc(&t->mem, ((size_t)b->size + nw) * sizeof *words);
	if (!r || !words)
		return NULL;
	r->ones = words;
	r->reserved = words + b->size;
	triage_reserved_bits(b, r->reserved, nw);
	r->pub.leaf = b;
	r->pub.ones = r->ones;
	r->pub.reserved = r->reserved;
	t->leaf_by_index[b->index] = r;
	t->sorted = false;
	return r;
}

static bool leaf_enum(leaf_rec *r, const spec_bitset *owner, const spec_field *f, uint64_t v)
{
	for (size_t i = 0; i < r->pub.nenums; i++)
		if (r->enums[i].owner == owner && r->enums[i].field == f && r->enums[i].value == v) {
			r->enums[i].count++;
			return true;
		}
	triage_enum_seen *p = spec_grow(r->enums, r->pub.nenums + 1, &r->cap_enums, sizeof *p, 4);
	if (!p)
		return false;
	r->enums = p;
	r->enums[r->pub.nenums++] = (triage_enum_seen){owner, f, v, 1};
	r->pub.enums = r->enums;
	return true;
}

/* --------------------------------------------------------- clusters */

static uint64_t hash_key(const uint64_t *k, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (size_t i = 0; i < n; i++) {
		h ^= k[i];
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	/* the tables index by the low bits: mix the high ones down */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

static triage_kind kind_of(codec_issue_kind k)
{
	switch (k) {
	case CODEC_NO_MATCH: return TRIAGE_NO_MATCH;
	case CODEC_AMBIGUOUS: return TRIAGE_AMBIGUOUS;
	case CODEC_DONTCARE_SET: return TRIAGE_DONTCARE;
	case CODEC_ASSERT_MISMATCH: return TRIAGE_ASSERT;
	case CODEC_ENUM_MISSING: return TRIAGE_ENUM;
	default: return TRIAGE_SPEC_ERROR;
	}
}

/* What triaging one distinct word found, kept so that the same word met
 * again (blobs repeat themselves) costs a hash look-up instead of a
 * decoding: applying a memo to the counters is all counting does. */
struct memo_sub {
	leaf_rec *r;
	uint64_t sub;                /* the bitset field's bits */
	bool unexplained;
};

struct memo_enum {
	const spec_bitset *owner;
	const spec_field *f;
	uint64_t v;
};

struct memo {
	uint64_t hash;
	const spec_root *root;
	uint32_t gen;
	const uint64_t *w;
	leaf_rec *lr;
	cluster_rec *cl;             /* NULL: explained */
	unsigned kinds;
	bool spec_error;
	const memo_sub *subs;
	size_t nsubs;
	const memo_enum *enums;
	size_t nenums;
	const size_t *probs;         /* indexes into t->problems */
	size_t nprobs;
};

/* A bitset field's sub-leaf as analysis finds it (memo_sub once its
 * leaf record is looked up): the sub-leaf gets a histogram of its own. */
struct found_sub {
	const spec_bitset *leaf;
	uint64_t sub;                /* the field's bits */
	bool unexplained;
};

/* What one instruction leaves unexplained, before it becomes a key, and
 * the decoding it comes from: an analyser's scratch. */
struct situation {
	const spec_root *root;
	uint32_t gen;
	const spec_bitset *leaf;
	const spec_bitset *matches[2];
	unsigned kinds;
	unsigned nw;
	uint64_t mask[MAX_WORDS];
	const spec_bitset *near[MAX_NEAREST];
	unsigned dist[MAX_NEAREST];
	uint64_t diffs[MAX_NEAREST * MAX_WORDS];
	size_t nnear, ties;
	const codec_issue *details[MAX_ISSUES];
	size_t ndetails;
	/* what the counters get besides */
	bool spec_error;
	found_sub subs[MAX_VALUES];
	size_t nsubs;
	memo_enum enums[MAX_ISSUES];
	size_t nenums;
	const char *probs[MAX_ISSUES]; /* the texts of the spec problems met, in order */
	size_t nprobs;
	uint64_t key[MAX_KEY];
	/* the decoding */
	codec_value values[MAX_VALUES];
	codec_issue issues[MAX_ISSUES];
};

/* What analysing one instruction found (internal.h): its situation,
 * packed into the analyser's memory, with the records of the triage it
 * concerns (leaves, spec problems, cluster) named but not looked up or
 * made: only the counting thread touches the triage (resolve). */
struct finding {
	uint64_t hash;               /* of (root, gen, words): the memo's */
	const spec_root *root;
	uint32_t gen;
	const uint64_t *w;           /* the words, where the analyser's caller keeps them */
	bool ok;                     /* false: memory ran out */
	bool spec_error;
	const spec_bitset *leaf;
	const spec_bitset *matches[2];
	unsigned kinds, nw;
	const found_sub *subs;
	size_t nsubs;
	const memo_enum *enums;
	size_t nenums;
	const char *const *probs;    /* as situation.probs */
	size_t nprobs;
	/* the cluster (kinds != 0): its key, and what a new one is made of */
	const uint64_t *key;
	size_t keylen;
	uint64_t key_hash;
	const spec_bitset *const *near;
	const unsigned *dist;
	size_t nnear, ties;
	const triage_detail *details; /* texts in the analyser's memory */
	size_t ndetails;
	const memo *kept;            /* set by the counting thread: remembered as this */
};

/* Findings of one batch an analyser remembers by hash, so that a word
 * met again in the batch (before the triage's memo has it) is not
 * decoded again. */
#define RECENT_SLOTS 4096u

/* Analysis reads only what the triage fixes when it is made (the
 * codec, the model, the options), never what counting changes: threads
 * may analyse while the triage counts. */
struct analyser {
	const triage *t;
	near_index **near;           /* by root index, built when first needed (an index
	                                keeps scratch, so each analyser has its own) */
	const uint64_t **reserved;   /* by bitset index: triage_reserved_bits, when first needed */
	arena keep;                  /* the reserved bits */
	arena mem[2];                /* findings of the two batches that may be in flight */
	unsigned slot;               /* ... of the one being analysed */
	bool recall;                 /* look words up in recent */
	finding *recent[RECENT_SLOTS];
	situation s;
};

analyser *analyser_new(const triage *t)
{
	analyser *an = calloc(1, sizeof *an);
	if (!an)
		return NULL;
	an->t = t;
	an->near = calloc(t->m->nroots ? t->m->nroots : 1, sizeof *an->near);
	an->reserved = calloc(t->m->nbitsets ? t->m->nbitsets : 1, sizeof *an->reserved);
	if (!an->near || !an->reserved) {
		analyser_free(an);
		return NULL;
	}
	return an;
}

void analyser_free(analyser *an)
{
	if (!an)
		return;
	for (size_t i = 0; i < an->t->m->nroots && an->near; i++)
		near_index_free(an->near[i]);
	free(an->near);
	free(an->reserved);
	arena_free(&an->keep);
	arena_free(&an->mem[0]);
	arena_free(&an->mem[1]);
	free(an);
}

/* The bits of b nothing accounts for (the blob may not set them), made
 * when first needed: at least one word.  NULL when memory runs out. */
static const uint64_t *reserved_of(analyser *an, const spec_bitset *b)
{
	if (b->index >= an->t->m->nbitsets)
		return NULL;
	const uint64_t **r = &an->reserved[b->index];
	if (!*r) {
		unsigned nw = (b->size + 63) / 64;
		uint64_t *p = arena_alloc(&an->keep, (nw ? nw : 1) * sizeof *p);
		if (p)
			triage_reserved_bits(b, p, nw);
		*r = p;
	}
	return *r;
}

/* triage_nearest's answer through the root's index, built when first
 * needed. */
static size_t nearest_fast(analyser *an, const spec_root *root, const uint64_t *w,
                           uint32_t gen, const spec_bitset **leaves, unsigned *distance,
                           uint64_t *diffs, size_t max)
{
	size_t ri = (size_t)(root - an->t->m->roots), n = SIZE_MAX;
	if (!an->near[ri])
		an->near[ri] = near_index_new(root);
	if (an->near[ri])
		n = near_index_search(an->near[ri], w, gen, an->t->have_popcnt, leaves, distance, diffs,
		                      max);
	/* short of memory for the index, the plain scan still answers */
	return n != SIZE_MAX ? n : triage_nearest(root, w, gen, leaves, distance, diffs, max);
}

static int cmp_issue(const void *a, const void *b)
{
	const codec_issue *x = *(const codec_issue *const *)a, *y = *(const codec_issue *const *)b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	unsigned lx = x->leaf ? x->leaf->index + 1 : 0, ly = y->leaf ? y->leaf->index + 1 : 0;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	if (x->bits != y->bits)
		return x->bits < y->bits ? -1 : 1;
	return strcmp(x->text, y->text);
}

static size_t make_key(const situation *s, uint64_t *k)
{
	size_t n = 0;
	k[n++] = (uint64_t)(s->root->bitset->index);
	k[n++] = s->gen;
	k[n++] = s->leaf ? s->leaf->index + 1ull : 0;
	k[n++] = s->matches[0] ? s->matches[0]->index + 1ull : 0;
	k[n++] = s->matches[1] ? s->matches[1]->index + 1ull : 0;
	k[n++] = s->kinds;
	for (unsigned i = 0; i < s->nw; i++)
		k[n++] = s->mask[i];
	k[n++] = s->nnear;
	for (size_t j = 0; j < s->nnear; j++) {
		k[n++] = s->near[j]->index;
		for (unsigned i = 0; i < s->nw; i++)
			k[n++] = s->diffs[j * s->nw + i];
	}
	k[n++] = s->ndetails;
	for (size_t j = 0; j < s->ndetails; j++) {
		const codec_issue *is = s->details[j];
		k[n++] = is->kind;
		k[n++] = is->leaf ? is->leaf->index + 1ull : 0;
		k[n++] = is->other ? is->other->index + 1ull : 0;
		k[n++] = (uint64_t)(uintptr_t)is->field;
		k[n++] = is->bits;
	}
	return n;
}

/* One allocation per cluster, nothing zeroed that is written anyway:
 * random input makes hundreds of thousands of clusters, most of them of
 * one instruction, and their memory (and the kernel's zeroing of it) was
 * a good part of the run.  The mask and the nearest leaves' diffs are
 * read from the key, which holds them (make_key); room for one example
 * and its words comes with the cluster, room for more with its second
 * instruction (apply). */
static cluster_rec *cluster_new(triage *t, const finding *f)
{
	if ((t->nclusters + 1) * 2 > t->table_cap && !slots_grow(&t->table, &t->table_cap))
		return NULL;
	cluster_rec **p = spec_grow(t->clusters, t->nclusters + 1, &t->cap_clusters, sizeof *p, 64);
	if (!p)
		return NULL;
	t->clusters = p;
	unsigned nw = f->nw;
	size_t keylen = f->keylen;
	size_t off_key = (sizeof(cluster_rec) + 15) & ~(size_t)15;
	size_t off_ex = off_key + keylen * sizeof(uint64_t);
	size_t off_w = off_ex + sizeof(triage_example);
	size_t off_near = off_w + nw * sizeof(uint64_t);
	size_t off_det = off_near + f->nnear * sizeof(triage_near);
	size_t total = off_det + f->ndetails * sizeof(triage_detail);
	unsigned char *mem = arena_alloc_raw(&t->mem, total);
	if (!mem)
		return NULL;
	cluster_rec *r = (cluster_rec *)mem;
	uint64_t *k = (uint64_t *)(mem + off_key);
	triage_near *near = f->nnear ? (triage_near *)(mem + off_near) : NULL;
	triage_detail *det = f->ndetails ? (triage_detail *)(mem + off_det) : NULL;
	memcpy(k, f->key, keylen * sizeof *k);
	/* make_key's layout: 6 words, the mask, nnear, then per nearest
	 * leaf its index and diff */
	const uint64_t *mask = k + 6, *diffs = k + 6 + nw + 1;
	for (size_t j = 0; j < f->nnear; j++)
		near[j] = (triage_near){f->near[j], f->dist[j], diffs + j * (1 + nw) + 1};
	for (size_t j = 0; j < f->ndetails; j++) {
		det[j] = f->details[j];
		det[j].text = arena_strdup(&t->mem, f->details[j].text);
		if (!det[j].text)
			return NULL;
	}
	*r = (cluster_rec){
		.pub = {
			.root = f->root, .gen = f->gen, .leaf = f->leaf,
			.matches = {f->matches[0], f->matches[1]}, .kinds = f->kinds, .nwords = nw,
			.mask = mask, .nearest = near, .nnearest = f->nnear, .nearest_ties = f->ties,
			.details = det, .ndetails = f->ndetails, .ones = NULL,
			.examples = (triage_example *)(mem + off_ex),
		},
		.hash = f->key_hash, .key = k, .keylen = keylen, .ex = (triage_example *)(mem + off_ex),
		.cap_ex = 1, .ex_words = (uint64_t *)(mem + off_w),
	};
	slot_put(t->table, t->table_cap, f->key_hash, r);
	t->clusters[t->nclusters++] = r;
	t->sum.clusters = t->nclusters;
	t->sorted = false;
	return r;
}

static cluster_rec *cluster_find(triage *t, const finding *f)
{
	for (size_t j = (size_t)f->key_hash & (t->table_cap - 1); t->table[j].rec;
	     j = (j + 1) & (t->table_cap - 1)) {
		cluster_rec *r = t->table[j].rec;
		if (t->table[j].hash == f->key_hash && r->keylen == f->keylen &&
		    !memcmp(r->key, f->key, f->keylen * sizeof *f->key))
			return r;
	}
	return cluster_new(t, f);
}

/* ---------------------------------------------------------- triage */

/* The index of the problem in t->problems (listed, not yet counted):
 * SIZE_MAX - 1 when the list is full, SIZE_MAX when memory runs out. */
static size_t spec_problem(triage *t, const spec_bitset *leaf, const char *text)
{
	for (size_t i = 0; i < t->nproblems; i++)
		if (t->problems[i].leaf == leaf && !strcmp(t->problems[i].text, text))
			return i;
	if (t->nproblems >= 1000) /* a spec is not that broken: stop listing */
		return SIZE_MAX - 1;
	triage_spec_problem *p = spec_grow(t->problems, t->nproblems + 1, &t->cap_problems,
	                                   sizeof *p, 8);
	if (!p)
		return SIZE_MAX;
	t->problems = p;
	char *copy = arena_strdup(&t->mem, text);
	if (!copy)
		return SIZE_MAX;
	t->problems[t->nproblems] = (triage_spec_problem){leaf, copy, 0};
	return t->nproblems++;
}

size_t triage_spec_problem_count(const triage *t)
{
	return t->nproblems;
}

const triage_spec_problem *triage_spec_problem_at(const triage *t, size_t i)
{
	return i < t->nproblems ? &t->problems[i] : NULL;
}

/* Marks the bits of field f of bitset owner that hold value: at their
 * place when owner is the instruction's leaf, and shifted to the field
 * of every depth-0 bitset field whose sub-leaf is owner and holds the
 * value there (the codec reports an issue met twice once).  Only the
 * bits that differ from mark_ref are marked when it is given (asserts);
 * deeper sub-leaves mark nothing: their issue still goes into the key. */
static void mark_field(const codec_decoded *d, const uint64_t *w, unsigned size,
                       const spec_bitset *owner, const spec_field *f, uint64_t value,
                       const spec_bits *ref, uint64_t *mask)
{
	unsigned nw = (size + 63) / 64;
	if (f->kind == SPEC_DERIVED || f->high - f->low >= 64)
		return;
	for (size_t i = 0; i <= d->nvalues; i++) {
		unsigned off;
		if (i == d->nvalues) {
			if (owner != d->leaf)
				continue;
			off = 0;
		} else {
			const codec_value *v = &d->values[i];
			if (v->depth || v->sub != owner || !v->field || v->field->kind != SPEC_FIELD)
				continue;
			off = v->field->low;
		}
		if (off + f->high >= size || extract64(w, nw, off + f->low, off + f->high) != value)
			continue;
		for (unsigned b = f->low; b <= f->high; b++)
			if (!ref || get_bit(w, off + b) != spec_bit(*ref, b))
				set_range(mask, nw, off + b, off + b);
	}
}

static bool is_top_field(const codec_decoded *d, const spec_field *f)
{
	for (size_t i = 0; i < d->nvalues; i++)
		if (d->values[i].depth == 0 && d->values[i].field == f)
			return f->kind == SPEC_FIELD;
	return false;
}

static bool alloc_scratch(triage *t)
{
	t->scratch_memo = malloc(sizeof *t->scratch_memo);
	t->scratch_subs = malloc(MAX_VALUES * sizeof *t->scratch_subs);
	t->scratch_probs = malloc(MAX_ISSUES * sizeof *t->scratch_probs);
	return t->scratch_memo && t->scratch_subs && t->scratch_probs;
}

static uint64_t memo_hash(const spec_root *root, uint32_t gen, const uint64_t *w, unsigned nw)
{
	uint64_t h = hash_key(w, nw);
	return h ^ ((uint64_t)(uintptr_t)root * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)gen << 32 | gen);
}

static const memo *memo_find(const triage *t, uint64_t h, const spec_root *root, uint32_t gen,
                             const uint64_t *w, unsigned nw)
{
	if (!t->memos)
		return NULL;
	for (size_t j = (size_t)h & (t->memo_cap - 1); t->memos[j].rec;
	     j = (j + 1) & (t->memo_cap - 1)) {
		const memo *m = t->memos[j].rec;
		if (t->memos[j].hash == h && m->root == root && m->gen == gen &&
		    !memcmp(m->w, w, nw * sizeof *w))
			return m;
	}
	return NULL;
}

/* Whether a memo would be kept now: input that hardly repeats (random
 * words) is not worth remembering. */
static bool memo_open(const triage *t)
{
	return t->nmemos < MEMO_SLOTS / 2 && (t->nmemos < MEMO_TRIAL || t->memo_hits >= t->nmemos);
}

/* Input that hardly ever repeats a word (random words) is looked up for
 * one word in 64 only (to see whether it starts repeating): every
 * look-up is a cache miss.  The memo only saves work, so whether it is
 * asked changes no result. */
bool triage_memo_worth_asking(const triage *t)
{
	return t->memo_lookups < MEMO_TRIAL * 4 || t->memo_hits * 64 >= t->memo_lookups;
}

const memo *triage_memo_ask(triage *t, const spec_root *root, const uint64_t *w, uint32_t gen,
                            bool always, uint64_t *hash)
{
	unsigned nw = (root->bitset->size + 63) / 64;
	*hash = memo_hash(root, gen, w, nw);
	if (!always && !triage_memo_worth_asking(t))
		return NULL;
	const memo *m = memo_find(t, *hash, root, gen, w, nw);
	t->memo_lookups++;
	t->memo_hits += m != NULL;
	return m;
}

/* Keeps the scratch memo for good, when there is room: the memo kept,
 * or NULL. */
static const memo *memo_keep(triage *t, const memo *sm, const uint64_t *w, unsigned nw)
{
	if (!memo_open(t))
		return NULL;
	/* the table grows with what it holds, so that input which soon
	 * stops being remembered is looked up in a small table */
	if ((t->nmemos + 1) * 2 > t->memo_cap && !slots_grow(&t->memos, &t->memo_cap))
		return NULL;
	memo *m = arena_alloc_raw(&t->mem, sizeof *m);
	uint64_t *wc = arena_alloc_raw(&t->mem, nw * sizeof *wc);
	memo_sub *subs = sm->nsubs ? arena_alloc_raw(&t->mem, sm->nsubs * sizeof *subs) : NULL;
	memo_enum *enums = sm->nenums ? arena_alloc_raw(&t->mem, sm->nenums * sizeof *enums) : NULL;
	size_t *probs = sm->nprobs ? arena_alloc_raw(&t->mem, sm->nprobs * sizeof *probs) : NULL;
	if (!m || !wc || (sm->nsubs && !subs) || (sm->nenums && !enums) || (sm->nprobs && !probs))
		return NULL;
	*m = *sm;
	memcpy(wc, w, nw * sizeof *wc);
	m->w = wc;
	if (subs)
		memcpy(subs, sm->subs, sm->nsubs * sizeof *subs);
	if (enums)
		memcpy(enums, sm->enums, sm->nenums * sizeof *enums);
	if (probs)
		memcpy(probs, sm->probs, sm->nprobs * sizeof *probs);
	m->subs = subs;
	m->enums = enums;
	m->probs = probs;
	slot_put(t->memos, t->memo_cap, m->hash, m);
	t->nmemos++;
	return m;
}

/* n bytes rounded up to 8, the alignment of everything a finding holds. */
static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The next n bytes of a finding's block. */
static void *take(unsigned char **p, size_t n)
{
	void *r = *p;
	*p += round8(n);
	return r;
}

/* The situation as a finding, in one block of the analyser's memory.
 * NULL when memory runs out. */
static finding *pack(analyser *an, situation *s, const uint64_t *w, uint64_t hash, bool ok)
{
	size_t keylen = s->kinds ? make_key(s, s->key) : 0, text = 0;
	for (size_t i = 0; i < s->nprobs; i++)
		text += strlen(s->probs[i]) + 1;
	for (size_t i = 0; i < s->ndetails; i++)
		text += strlen(s->details[i]->text) + 1;
	const size_t sizes[] = {
		sizeof(finding), keylen * sizeof(uint64_t), s->nsubs * sizeof(found_sub),
		s->nenums * sizeof(memo_enum), s->ndetails * sizeof(triage_detail),
		s->nprobs * sizeof(char *), s->nnear * sizeof(spec_bitset *),
		s->nnear * sizeof(unsigned), text,
	};
	size_t total = 0;
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		total += round8(sizes[i]);
	unsigned char *p = arena_alloc_raw(&an->mem[an->slot], total);
	if (!p)
		return NULL;
	finding *f = take(&p, sizes[0]);
	uint64_t *key = take(&p, sizes[1]);
	found_sub *subs = take(&p, sizes[2]);
	memo_enum *enums = take(&p, sizes[3]);
	triage_detail *det = take(&p, sizes[4]);
	const char **probs = take(&p, sizes[5]);
	const spec_bitset **near = take(&p, sizes[6]);
	unsigned *dist = take(&p, sizes[7]);
	char *txt = take(&p, sizes[8]);
	memcpy(key, s->key, sizes[1]);
	memcpy(subs, s->subs, sizes[2]);
	memcpy(enums, s->enums, sizes[3]);
	memcpy(near, s->near, sizes[6]);
	memcpy(dist, s->dist, sizes[7]);
	for (size_t i = 0; i < s->nprobs; i++) {
		size_t n = strlen(s->probs[i]) + 1;
		probs[i] = memcpy(txt, s->probs[i], n);
		txt += n;
	}
	for (size_t j = 0; j < s->ndetails; j++) {
		const codec_issue *is = s->details[j];
		size_t n = strlen(is->text) + 1;
		det[j] = (triage_detail){kind_of(is->kind), is->leaf, is->other, is->field, is->bits,
		                         memcpy(txt, is->text, n)};
		txt += n;
	}
	uint64_t key_hash = keylen ? hash_key(key, keylen) : 0;
	*f = (finding){
		.hash = hash, .root = s->root, .gen = s->gen, .w = w, .ok = ok,
		.spec_error = s->spec_error, .leaf = s->leaf, .matches = {s->matches[0], s->matches[1]},
		.kinds = s->kinds, .nw = s->nw, .subs = subs, .nsubs = s->nsubs, .enums = enums,
		.nenums = s->nenums, .probs = probs, .nprobs = s->nprobs,
		.key = key, .keylen = keylen, .key_hash = key_hash, .near = near, .dist = dist,
		.nnear = s->nnear, .ties = s->ties, .details = det, .ndetails = s->ndetails,
	};
	return f;
}

/* Decodes w and works out its situation, as a finding in the analyser's
 * memory (NULL when memory runs out).  Reads the triage, changes only
 * the analyser. */
static finding *analyse(analyser *an, const spec_root *root, const uint64_t *w, uint32_t gen,
                        uint64_t hash)
{
	const triage *t = an->t;
	situation *s = &an->s;
	unsigned size = root->bitset->size, nw = (size + 63) / 64;
	codec_decoded d = {.values = s->values, .cap_values = MAX_VALUES, .issues = s->issues,
	                   .cap_issues = MAX_ISSUES};
	/* Classification alone tells a word no leaf matches (most of random
	 * or corrupt input); decoding it would only say so, in a message.
	 * Such a word is described by its nearest leaves, below. */
	const spec_bitset *hit[2];
	if (codec_classify(t->c, root, w, gen, hit, 2))
		codec_decode(t->c, root, w, gen, &d);

	s->root = root;
	s->gen = gen;
	s->leaf = d.leaf;
	s->matches[0] = s->matches[1] = NULL;
	s->kinds = 0;
	s->nw = nw;
	memset(s->mask, 0, nw * sizeof *s->mask);
	s->nnear = s->ties = 0;
	s->ndetails = 0;
	s->nsubs = s->nenums = s->nprobs = 0;
	s->spec_error = false;

	bool ok = true;
	if (d.leaf) {
		const uint64_t *res = reserved_of(an, d.leaf);
		ok = res != NULL;
		/* don't-care and reserved bits of the leaf, then of the
		 * sub-leaves of its bitset fields, at their place */
		for (unsigned k = 0; k < nw; k++) {
			uint64_t dc = k < d.leaf->dontcare.nwords ? w[k] & d.leaf->dontcare.w[k] : 0;
			uint64_t rs = res ? w[k] & res[k] : 0;
			s->mask[k] |= dc | rs;
			s->kinds |= (dc ? 1u << TRIAGE_DONTCARE : 0) | (rs ? 1u << TRIAGE_RESERVED : 0);
		}
		for (size_t i = 0; i < d.nvalues; i++) {
			const codec_value *v = &d.values[i];
			if (v->depth || !v->sub || !v->field || v->field->kind != SPEC_FIELD ||
			    v->field->high - v->field->low >= 64)
				continue;
			const uint64_t *sres = reserved_of(an, v->sub);
			if (!sres)
				continue;
			uint64_t sub = extract64(w, nw, v->field->low, v->field->high);
			uint64_t dc = v->sub->dontcare.nwords ? sub & v->sub->dontcare.w[0] : 0;
			uint64_t rs = sub & sres[0];
			/* the sub-leaf gets its own histogram, over its own bits */
			s->subs[s->nsubs++] = (found_sub){v->sub, sub, (dc | rs) != 0};
			or_at(s->mask, nw, dc | rs, v->field->low);
			s->kinds |= (dc ? 1u << TRIAGE_DONTCARE : 0) | (rs ? 1u << TRIAGE_RESERVED : 0);
		}
	}
	for (size_t i = 0; i < d.nissues; i++) {
		const codec_issue *is = &d.issues[i];
		triage_kind k = kind_of(is->kind);
		if (k == TRIAGE_SPEC_ERROR) {
			s->spec_error = true;
			s->probs[s->nprobs++] = is->text;
			continue;
		}
		s->kinds |= 1u << k;
		if (!d.leaf && (is->kind == CODEC_NO_MATCH || is->kind == CODEC_AMBIGUOUS) &&
		    !is->field) {
			/* the instruction itself */
			if (is->kind == CODEC_AMBIGUOUS) {
				s->matches[0] = is->leaf;
				s->matches[1] = is->other;
			}
			continue;
		}
		if (is->kind == CODEC_DONTCARE_SET && is->leaf == d.leaf)
			continue; /* the mask says it all */
		if (s->ndetails < MAX_ISSUES)
			s->details[s->ndetails++] = is;
		if (!d.leaf || !is->field)
			continue;
		const spec_field *f = is->field;
		if (is->kind == CODEC_ASSERT_MISMATCH) {
			mark_field(&d, w, size, is->leaf, f, is->bits, &f->assert_value, s->mask);
		} else if (is->kind == CODEC_ENUM_MISSING) {
			mark_field(&d, w, size, is->leaf, f, is->bits, NULL, s->mask);
			s->enums[s->nenums++] = (memo_enum){is->leaf, f, is->bits};
		} else if (is->kind == CODEC_NO_MATCH && is_top_field(&d, f)) {
			set_range(s->mask, nw, f->low, f->high);
		}
	}
	if (!d.leaf && !s->matches[0]) {
		s->kinds |= 1u << TRIAGE_NO_MATCH;
		s->ties = nearest_fast(an, root, w, gen, s->near, s->dist, s->diffs,
		                       t->opt.nearest_max);
		s->nnear = s->ties < t->opt.nearest_max ? s->ties : t->opt.nearest_max;
	}
	if (s->ndetails > 1)
		qsort(s->details, s->ndetails, sizeof *s->details, cmp_issue);
	return pack(an, s, w, hash, ok);
}

void analyser_begin(analyser *an, unsigned which, bool recall)
{
	an->slot = which & 1;
	arena_reset(&an->mem[an->slot]);
	memset(an->recent, 0, sizeof an->recent);
	an->recall = recall;
}

void analyser_item(analyser *an, const spec_root *root, const uint64_t *w, uint32_t gen,
                   uint64_t hash, triage_found *out)
{
	unsigned nw = (root->bitset->size + 63) / 64;
	finding **recent = &an->recent[hash & (RECENT_SLOTS - 1)];
	finding *r = *recent;
	out->hit = NULL;
	if (an->recall && r && r->hash == hash && r->root == root && r->gen == gen &&
	    !memcmp(r->w, w, nw * sizeof *w)) {
		out->f = r;
		return;
	}
	out->f = analyse(an, root, w, gen, hash);
	if (an->recall)
		*recent = out->f;
}

/* The memo of a finding: the triage's records it concerns (leaves,
 * spec problems, cluster) looked up, or made when first met.  Only the
 * counting thread calls this, in input order, so problems are listed
 * in the order one thread meets them.  False when memory runs out. */
static bool resolve(triage *t, const finding *f, memo *out)
{
	bool ok = f->ok;
	memo_sub *subs = t->scratch_subs;
	size_t *probs = t->scratch_probs;
	*out = (memo){.hash = f->hash, .root = f->root, .gen = f->gen, .kinds = f->kinds,
	              .spec_error = f->spec_error, .subs = subs, .enums = f->enums,
	              .nenums = f->nenums, .probs = probs};
	if (f->leaf) {
		out->lr = leaf_get(t, f->leaf);
		ok &= out->lr != NULL;
	}
	for (size_t i = 0; i < f->nsubs; i++) {
		leaf_rec *sr = leaf_get(t, f->subs[i].leaf);
		if (sr)
			subs[out->nsubs++] = (memo_sub){sr, f->subs[i].sub, f->subs[i].unexplained};
		ok &= sr != NULL;
	}
	for (size_t i = 0; i < f->nprobs; i++) {
		size_t pi = spec_problem(t, f->leaf, f->probs[i]);
		if (pi == SIZE_MAX)
			ok = false;
		else if (pi != SIZE_MAX - 1)
			probs[out->nprobs++] = pi;
	}
	if (f->kinds) {
		out->cl = cluster_find(t, f);
		ok &= out->cl != NULL;
	}
	return ok;
}

/* Counts one instruction as the memo says. */
static bool apply(triage *t, const memo *m, const uint64_t *w, unsigned nw,
                  const triage_origin *origin)
{
	bool ok = true;
	t->sum.instructions++;
	t->sum.by_kind[TRIAGE_SPEC_ERROR] += m->spec_error;
	for (size_t i = 0; i < m->nprobs; i++)
		t->problems[m->probs[i]].count++;
	for (size_t i = 0; i < m->nsubs; i++) {
		leaf_rec *sr = m->subs[i].r;
		sr->pub.count++;
		sr->pub.unexplained += m->subs[i].unexplained;
		count_ones(sr->ones, &m->subs[i].sub, 1);
	}
	if (m->lr) {
		m->lr->pub.count++;
		m->lr->pub.unexplained += m->kinds != 0;
		count_ones(m->lr->ones, w, nw);
		for (size_t i = 0; i < m->nenums; i++)
			ok &= leaf_enum(m->lr, m->enums[i].owner, m->enums[i].f, m->enums[i].v);
	}
	if (!m->kinds) {
		t->sum.explained++;
		return ok;
	}
	t->sum.unexplained++;
	for (unsigned k = 0; k < TRIAGE_SPEC_ERROR; k++)
		t->sum.by_kind[k] += (m->kinds >> k) & 1;
	cluster_rec *r = m->cl;
	if (!r)
		return false;
	r->pub.count++;
	/* one instruction's bits are its example's: count from the second */
	if (r->pub.count == 2 && r->pub.nexamples) {
		r->ones = arena_alloc(&t->mem, (size_t)nw * 64 * sizeof *r->ones);
		if (!r->ones)
			return false;
		count_ones(r->ones, r->pub.examples[0].w, nw);
		r->pub.ones = r->ones;
	}
	if (r->ones && r->pub.count >= 2)
		count_ones(r->ones, w, nw);
	if (r->pub.nexamples < t->opt.examples) {
		if (r->pub.nexamples == r->cap_ex) {
			/* a second instruction: room for all the examples */
			unsigned cap = t->opt.examples;
			triage_example *ex = arena_alloc_raw(&t->mem, cap * sizeof *ex);
			uint64_t *words = arena_alloc_raw(&t->mem, (size_t)cap * nw * sizeof *words);
			if (!ex || !words)
				return false;
			for (unsigned i = 0; i < r->pub.nexamples; i++) {
				memcpy(words + (size_t)i * nw, r->ex[i].w, nw * sizeof *words);
				ex[i] = (triage_example){r->ex[i].origin, words + (size_t)i * nw};
			}
			r->ex = ex;
			r->ex_words = words;
			r->cap_ex = cap;
			r->pub.examples = ex;
		}
		uint64_t *copy = r->ex_words + (size_t)r->pub.nexamples * nw;
		memcpy(copy, w, nw * sizeof *copy);
		r->ex[r->pub.nexamples++] = (triage_example){
			origin ? *origin : (triage_origin){.source = -1}, copy};
	}
	return ok;
}

bool triage_count_found(triage *t, const spec_root *root, const uint64_t *w,
                        const triage_found *fd, const triage_origin *origin, bool ask)
{
	unsigned nw = (root->bitset->size + 63) / 64;
	const memo *m = fd->hit;
	finding *f = fd->f;
	t->sorted = false;
	if (!m && !f) { /* analysis ran out of memory */
		t->sum.instructions++;
		return false;
	}
	if (!m)
		m = f->kept;
	if (!m && ask && memo_open(t)) {
		/* analysed in a batch before the memo had it, perhaps met and
		 * remembered since */
		m = memo_find(t, f->hash, root, f->gen, w, nw);
		t->memo_lookups++;
		t->memo_hits += m != NULL;
	}
	if (m)
		return apply(t, m, w, nw, origin);
	memo *sm = t->scratch_memo;
	bool ok = resolve(t, f, sm);
	if (ok)
		f->kept = memo_keep(t, sm, w, nw);
	return apply(t, sm, w, nw, origin) && ok;
}

bool triage_check_root(const triage *t, const spec_root **root)
{
	if (!*root)
		*root = codec_default_root(t->c);
	return *root && *root >= t->m->roots && *root < t->m->roots + t->m->nroots;
}

void triage_copy_bits(uint64_t *out, const uint64_t *w, unsigned bits)
{
	unsigned nw = (bits + 63) / 64;
	memcpy(out, w, nw * sizeof *out);
	if (bits % 64)
		out[nw - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
}

bool triage_add(triage *t, const spec_root *root, const uint64_t *win, uint32_t gen,
                const triage_origin *origin)
{
	if (!triage_check_root(t, &root) || !win)
		return false;
	uint64_t w[MAX_WORDS], h;
	triage_copy_bits(w, win, root->bitset->size);
	triage_found fd = {triage_memo_ask(t, root, w, gen, t->sum.instructions % 64 == 0, &h),
	                   NULL};
	if (!fd.hit) {
		arena_reset(&t->own->mem[0]);
		fd.f = analyse(t->own, root, w, gen, h);
	}
	return triage_count_found(t, root, w, &fd, origin, false);
}

/* -------------------------------------------------- unexplained data */

static bool same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The cluster of a step's name, reason and size, made when first met. */
static data_rec *data_find(triage *t, const spec_step *step, unsigned bits)
{
	for (size_t i = 0; i < t->ndata; i++) {
		data_rec *r = t->data[i];
		if (r->pub.bits == bits && (r->pub.step == step ||
		                            (same_name(r->pub.name, step->name) &&
		                             !strcmp(r->pub.reason, step->unexplained))))
			return r;
	}
	data_rec **p = spec_grow(t->data, t->ndata + 1, &t->cap_data, sizeof *p, 8);
	if (!p)
		return NULL;
	t->data = p;
	unsigned nw = (bits + 63) / 64;
	data_rec *r = arena_alloc(&t->mem, sizeof *r);
	uint64_t *ones = arena_alloc(&t->mem, (size_t)nw * 64 * sizeof *ones);
	triage_example *ex = arena_alloc(&t->mem, t->opt.examples * sizeof *ex);
	uint64_t *words = arena_alloc(&t->mem, (size_t)t->opt.examples * nw * sizeof *words);
	if (!r || !ones || !ex || !words)
		return NULL;
	*r = (data_rec){
		.pub = {.step = step, .name = step->name, .reason = step->unexplained, .bits = bits,
		        .ones = ones, .examples = ex},
		.ones = ones, .ex = ex, .ex_words = words,
	};
	t->data[t->ndata++] = r;
	t->sum.data_clusters = t->ndata;
	return r;
}

/* Counts w among the cluster's distinct contents, up to the cap. */
static bool data_seen(triage *t, data_rec *r, const uint64_t *w, unsigned nw)
{
	if (r->pub.distinct >= TRIAGE_DATA_DISTINCT_MAX)
		return true;
	uint64_t h = hash_key(w, nw);
	for (size_t j = r->seen_cap ? (size_t)h & (r->seen_cap - 1) : 0; r->seen_cap && r->seen[j].rec;
	     j = (j + 1) & (r->seen_cap - 1))
		if (r->seen[j].hash == h && !memcmp(r->seen[j].rec, w, nw * sizeof *w))
			return true;
	if ((r->pub.distinct + 1) * 2 > r->seen_cap && !slots_grow(&r->seen, &r->seen_cap))
		return false;
	uint64_t *copy = arena_alloc_raw(&t->mem, nw * sizeof *copy);
	if (!copy)
		return false;
	memcpy(copy, w, nw * sizeof *copy);
	slot_put(r->seen, r->seen_cap, h, copy);
	r->pub.distinct++;
	return true;
}

bool triage_check_data(const spec_step *step, const uint64_t *w, unsigned bits)
{
	return step && step->kind == SPEC_STEP_DATA && step->unexplained && w && bits &&
	       bits <= SPEC_MAX_BITS;
}

bool triage_add_data(triage *t, const spec_step *step, const uint64_t *win, unsigned bits,
                     const triage_origin *origin)
{
	if (!triage_check_data(step, win, bits))
		return false;
	unsigned nw = (bits + 63) / 64;
	uint64_t w[MAX_WORDS];
	triage_copy_bits(w, win, bits);
	data_rec *r = data_find(t, step, bits);
	if (!r)
		return false;
	t->sorted = false;
	t->sum.instructions++;
	t->sum.unexplained++;
	t->sum.by_kind[TRIAGE_DATA]++;
	r->pub.count++;
	count_ones(r->ones, w, nw);
	if (r->pub.nexamples < t->opt.examples) {
		uint64_t *copy = r->ex_words + r->pub.nexamples * nw;
		memcpy(copy, w, nw * sizeof *copy);
		r->ex[r->pub.nexamples++] = (triage_example){
			origin ? *origin : (triage_origin){.source = -1}, copy};
	}
	return data_seen(t, r, w, nw);
}

static int cmp_data(const void *a, const void *b)
{
	const triage_data_cluster *p = &(*(const data_rec *const *)a)->pub;
	const triage_data_cluster *q = &(*(const data_rec *const *)b)->pub;
	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	int c = strcmp(p->name ? p->name : "", q->name ? q->name : "");
	if (!c)
		c = strcmp(p->reason, q->reason);
	if (!c && p->bits != q->bits)
		c = p->bits < q->bits ? -1 : 1;
	if (!c && !p->name != !q->name)
		c = p->name ? 1 : -1;
	return c;
}

size_t triage_data_cluster_count(const triage *t)
{
	return t->ndata;
}

const triage_data_cluster *triage_data_cluster_at(const triage *t, size_t i)
{
	return i < t->ndata ? &t->data[i]->pub : NULL;
}

/* ---------------------------------------------------------- results */

static int cmp_words(const uint64_t *a, const uint64_t *b, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* The leaf a cluster is listed under: decoded to, first of an
 * ambiguity, or nearest; NULL for none. */
static const spec_bitset *cluster_leaf(const triage_cluster *c)
{
	if (c->leaf)
		return c->leaf;
	if (c->matches[0])
		return c->matches[0];
	return c->nnearest ? c->nearest[0].leaf : NULL;
}

static int cmp_bitset_name(const void *a, const void *b)
{
	return strcmp((*(const spec_bitset *const *)a)->name, (*(const spec_bitset *const *)b)->name);
}

/* Per bitset index, the rank of its name in strcmp order (equal names,
 * equal ranks; "" is 0, as is no leaf at all), so that sorting clusters
 * compares numbers, not strings.  False when memory runs out. */
static bool rank_names(triage *t)
{
	size_t n = t->m->nbitsets;
	const spec_bitset **v = malloc((n ? n : 1) * sizeof *v);
	t->name_rank = malloc((n ? n : 1) * sizeof *t->name_rank);
	if (!v || !t->name_rank) {
		free(v);
		free(t->name_rank);
		t->name_rank = NULL;
		return false;
	}
	memcpy(v, t->m->bitsets, n * sizeof *v);
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_bitset_name);
	uint32_t rank = 0;
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(v[i - 1]->name, v[i]->name))
			rank++;
		t->name_rank[v[i]->index] = v[i]->name[0] ? rank : 0;
	}
	free(v);
	return true;
}

static int cmp_cluster(const void *a, const void *b)
{
	const cluster_rec *x = *(const cluster_rec *const *)a, *y = *(const cluster_rec *const *)b;
	const triage_cluster *p = &x->pub, *q = &y->pub;
	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	if (p->root != q->root)
		return p->root < q->root ? -1 : 1;
	if (p->gen != q->gen)
		return p->gen < q->gen ? -1 : 1;
	if (x->name_rank != y->name_rank)
		return x->name_rank < y->name_rank ? -1 : 1;
	int c;
	if (p->kinds != q->kinds)
		return p->kinds < q->kinds ? -1 : 1;
	if ((c = cmp_words(p->mask, q->mask, p->nwords)))
		return c;
	/* what remains (nearest diffs, details) decides through the key */
	size_t n = x->keylen < y->keylen ? x->keylen : y->keylen;
	for (size_t i = 0; i < n; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return x->keylen < y->keylen ? -1 : x->keylen > y->keylen;
}

void triage_finish(triage *t)
{
	if (t->sorted)
		return;
	if (t->nclusters > 1) {
		for (size_t i = 0; i < t->nclusters; i++) {
			const spec_bitset *b = cluster_leaf(&t->clusters[i]->pub);
			t->clusters[i]->name_rank = b ? t->name_rank[b->index] : 0;
		}
		qsort(t->clusters, t->nclusters, sizeof *t->clusters, cmp_cluster);
	}
	for (size_t i = 0; i < t->nclusters; i++)
		t->clusters[i]->pub.id = i + 1;
	if (t->ndata > 1)
		qsort(t->data, t->ndata, sizeof *t->data, cmp_data);
	for (size_t i = 0; i < t->ndata; i++)
		t->data[i]->pub.id = i + 1;
	free(t->leaves);
	t->leaves = NULL;
	t->nleaves = 0;
	size_t n = 0;
	for (size_t i = 0; i < t->m->nbitsets; i++)
		n += t->leaf_by_index[i] && t->leaf_by_index[i]->pub.count;
	t->leaves = calloc(n ? n : 1, sizeof *t->leaves);
	if (t->leaves)
		for (size_t i = 0; i < t->m->nbitsets; i++)
			if (t->leaf_by_index[i] && t->leaf_by_index[i]->pub.count)
				t->leaves[t->nleaves++] = &t->leaf_by_index[i]->pub;
	t->sorted = true;
}

triage_summary triage_get_summary(const triage *t)
{
	return t->sum;
}

size_t triage_cluster_count(const triage *t)
{
	return t->nclusters;
}

const triage_cluster *triage_cluster_at(const triage *t, size_t i)
{
	return i < t->nclusters ? &t->clusters[i]->pub : NULL;
}

size_t triage_leaf_count(const triage *t)
{
	return t->sorted ? t->nleaves : 0;
}

const triage_leaf *triage_leaf_at(const triage *t, size_t i)
{
	return t->sorted && i < t->nleaves ? t->leaves[i] : NULL;
}
