/*
 * classify.c - which leaves of a root match a word: a compiled decision
 * table (the fast path) and the plain scan over leaves (the reference).
 *
 * A leaf matches word w at generation gen when, in every 64-bit word,
 * (w & mask & ~dontcare) == match, and gen.min <= gen <= gen.max.  Call
 * fixed = mask & ~dontcare.  A leaf whose match has a 1 outside fixed can
 * never match (Mesa compares exactly that way), and neither can one with
 * an empty gen range, so the table leaves them out.
 *
 * The table has two levels.  Level one: up to CLS_MAX_BITS bit positions
 * are chosen greedily, each time the one that tells apart the most pairs
 * of leaves not yet told apart (a bit tells two leaves apart when both fix
 * it, to different values).  Gathered from the word by a few shift-and-
 * mask chunks, they index a table of nodes.  Level two: each node splits
 * the leaves consistent with its index once more, on one window of up to
 * CLS_SUB_BITS adjacent bits chosen for just those leaves (opcode
 * sub-fields are usually adjacent), so the few groups level one leaves
 * together cost no more table bits for everyone.  The sub-entry points to
 * the list of leaves consistent with both, in document order; identical
 * lists are stored once.
 *
 * A look-up is a gather, three loads, and a compare per candidate,
 * usually just one, without a branch on the outcome.  Nothing is
 * allocated at look-up time.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Level-one index bits: the node table has at most 2^16 entries. */
#ifndef CLS_MAX_BITS
#define CLS_MAX_BITS 16u
#endif
/* A level-one bit must save a real word at least 2/CLS_STOP compares on
 * average (about 2 * pairs / leaves); the rest is left to level two. */
#ifndef CLS_STOP
#define CLS_STOP 4u
#endif
/* The widest level-two window, and the most leaves split by one. */
#define CLS_SUB_BITS 6u
#define CLS_SUB_SET 64u
/* Leaves whose pairs are counted when choosing level-one bits: the cost
 * is quadratic, and a sample is as good a guide for huge roots.  A sample
 * of m leaves stops telling bits apart near log2(m) of them, so a root
 * past CLS_SAMPLE * CLS_SAMPLE_PER leaves gets one leaf in CLS_SAMPLE_PER,
 * up to CLS_SAMPLE_MAX: with 512 a root of 10^6 leaves got 9 bits and
 * lists of 2,000 leaves too long for level two, and decoding scanned them
 * (4,096 leaves: 8 M pairs a bit, a few tenths of a second in all). */
#define CLS_SAMPLE 512u
#define CLS_SAMPLE_PER 256u
#define CLS_SAMPLE_MAX 4096u
/* Bit positions considered for level one (the best balanced ones). */
#define CLS_CANDIDATES 256u
/* Records over all candidate lists, at least (or CLS_RECS_PER_LEAF a
 * leaf of the root, for huge roots); above it level one gets fewer bits,
 * which bounds the memory of roots with many pattern-less leaves. */
#define CLS_MAX_RECS (1u << 18)
#define CLS_RECS_PER_LEAF 4u
/* Pair tests one level-two window search may spend, and sub-table
 * entries over all nodes (beyond it, nodes get no window). */
#define CLS_WINDOW_BUDGET (1u << 20)
#define CLS_MAX_SUB (1u << 18) /* ... or CLS_RECS_PER_LEAF a leaf */

/* idx |= ((w[word] >> rshift) << lshift) & mask: one run of chosen bits
 * that are adjacent in the word and in the index. */
typedef struct cls_chunk {
	uint32_t word, rshift, lshift;
	uint64_t mask;
} cls_chunk;

/* A level-one entry: its sub-table starts at base, and is indexed by
 * (w[word] >> shift) & mask (mask 0: a single list). */
typedef struct cls_node {
	uint32_t base;
	uint16_t mask;
	uint8_t shift, word;
} cls_node;

/* A further word a candidate fixes bits in, beyond its primary word. */
typedef struct cls_term {
	uint64_t fixed, value;
	uint32_t word;
} cls_term;

/* One candidate in a list: 64 bytes, one aligned cache line.  The two words
 * where the leaf fixes the most bits are checked inline, so one-word
 * roots look at the first only and two-word roots never look further. */
typedef struct cls_rec {
	uint64_t fixed, value;     /* the primary word */
	uint64_t fixed2, value2;   /* the second word (all 0 when there is none) */
	const spec_bitset *leaf;   /* NULL after the first record: the end */
	uint8_t word, word2;
	uint8_t more;              /* another candidate follows (else the end's line is not read) */
	uint32_t index;            /* leaf->index, without reading the leaf's line */
	uint32_t gmin, gspan;      /* gen - gmin <= gspan: one unsigned compare */
	uint32_t xstart, xcount;   /* further words: terms[xstart .. +xcount) */
} cls_rec;
_Static_assert(sizeof(cls_rec) == 64, "a record is one cache line");
_Static_assert(CODEC_MAX_WORDS <= 256, "a record's word numbers fit a byte");

struct classifier {
	unsigned nwords;
	unsigned nbits;
	unsigned nchunks;
	cls_chunk chunks[CLS_MAX_BITS];
	/* The same index by pext (the bits are in position order): the bits
	 * pm[0] of word pw[0] below the bits pm[1] of word pw[1] */
	bool pext, pext_ok;       /* used; possible (two words at most) */
	uint8_t pw[2], pn0;
	uint64_t pm[2];
	cls_node *nodes;  /* 2^nbits */
	/* Sub-tables: offsets into recs, 16-bit ones when they fit, which
	 * keeps more of them in the first-level cache. */
	uint16_t *sub16;
	uint32_t *sub32;
	size_t nsub;
	cls_rec *recs;    /* the lists; each holds at least one record */
	size_t nrecs;
	cls_term *terms;
	size_t nterms;
};

/* ------------------------------------------------------- the reference */

static uint64_t bits_word(spec_bits b, unsigned i)
{
	return i < b.nwords ? b.w[i] : 0;
}

static unsigned root_nwords(const spec_root *root)
{
	return (root->bitset->size + 63u) / 64u;
}

static bool leaf_matches(const spec_bitset *l, const uint64_t *w, unsigned nwords,
                         uint32_t gen)
{
	if (gen < l->gen.min || gen > l->gen.max)
		return false;
	for (unsigned i = 0; i < nwords; i++) {
		uint64_t fixed = bits_word(l->mask, i) & ~bits_word(l->dontcare, i);
		if ((w[i] & fixed) != bits_word(l->match, i))
			return false;
	}
	return true;
}

size_t classify_linear(const spec_root *root, const uint64_t *w, uint32_t gen,
                       const spec_bitset **out, size_t max)
{
	unsigned nwords = root_nwords(root);
	size_t n = 0;
	for (size_t i = 0; i < root->nleaves; i++) {
		if (!leaf_matches(root->leaves[i], w, nwords, gen))
			continue;
		if (n < max)
			out[n] = root->leaves[i];
		n++;
	}
	return n;
}

/* ------------------------------------------------------------ look-up */

static uint32_t gather(const classifier *c, const uint64_t *w)
{
	uint64_t idx = 0;
	for (unsigned i = 0; i < c->nchunks; i++) {
		const cls_chunk *k = &c->chunks[i];
		idx |= ((w[k->word] >> k->rshift) << k->lshift) & k->mask;
	}
	return (uint32_t)idx;
}

/* In a one-word root the index bits are the chosen positions in order,
 * so no chunk moves bits up: lshift is always 0. */
static uint32_t gather1(const classifier *c, uint64_t w0)
{
	uint64_t idx = 0;
	for (unsigned i = 0; i < c->nchunks; i++)
		idx |= (w0 >> c->chunks[i].rshift) & c->chunks[i].mask;
	return (uint32_t)idx;
}

static const cls_rec *sub_list(const classifier *c, uint32_t i)
{
	return c->recs + (c->sub16 ? c->sub16[i] : c->sub32[i]);
}

/* The list for w: level one, then the node's window. */
static const cls_rec *find1(const classifier *c, uint64_t w0)
{
	const cls_node *e = &c->nodes[c->pext ? (uint32_t)codec_pext_u64(w0, c->pm[0]) : gather1(c, w0)];
	return sub_list(c, e->base + (uint32_t)((w0 >> e->shift) & e->mask));
}

static const cls_rec *find(const classifier *c, const uint64_t *w)
{
	const cls_node *e =
	    &c->nodes[c->pext ? (uint32_t)(codec_pext_u64(w[c->pw[0]], c->pm[0]) |
	                                   codec_pext_u64(w[c->pw[1]], c->pm[1]) << c->pn0)
	                      : gather(c, w)];
	return sub_list(c, e->base + (uint32_t)((w[e->word] >> e->shift) & e->mask));
}

static bool terms_match(const classifier *c, const cls_rec *r, const uint64_t *w)
{
	const cls_term *t = c->terms + r->xstart;
	for (uint32_t i = 0; i < r->xcount; i++)
		if ((w[t[i].word] & t[i].fixed) != t[i].value)
			return false;
	return true;
}

/* The primary word and the generation: bitwise &, so the compiler need
 * not branch on each part. */
static inline bool rec_hit(const cls_rec *r, uint64_t word, uint32_t gen)
{
	return ((word & r->fixed) == r->value) & (gen - r->gmin <= r->gspan);
}

/* The first record is stored whatever the outcome (NULL on a miss), the
 * leaf masked rather than chosen, so nothing branches on the outcome;
 * a later record that is the first hit stores its index again. */
static void store_first(const cls_rec *r, size_t hit, const spec_bitset **out, size_t max,
                        uint32_t *index0)
{
	if (max)
		out[0] = (const spec_bitset *)((uintptr_t)r->leaf & -(uintptr_t)hit);
	if (index0)
		*index0 = r->index;
}

/* Every list holds at least one record (an empty one a record that
 * matches nothing), so the usual case, a single candidate, runs straight
 * through; further candidates follow until a record with leaf NULL. */
static inline __attribute__((always_inline)) size_t run1(const classifier *c, uint64_t w0, uint32_t gen,
                          const spec_bitset **out, size_t max, uint32_t *index0)
{
	const cls_rec *r = find1(c, w0);
	size_t n = rec_hit(r, w0, gen);
	store_first(r, n, out, max, index0);
	while (r->more) {
		r++;
		if (!rec_hit(r, w0, gen))
			continue;
		if (n < max)
			out[n] = r->leaf;
		if (!n && index0)
			*index0 = r->index;
		n++;
	}
	return n;
}

static inline bool rec_hit2(const cls_rec *r, const uint64_t *w, uint32_t gen)
{
	return rec_hit(r, w[r->word], gen) & ((w[r->word2] & r->fixed2) == r->value2);
}

/* The same for wider roots: two words inline, then any others. */
static inline __attribute__((always_inline)) size_t run_words(const classifier *c, const uint64_t *w, uint32_t gen,
                               const spec_bitset **out, size_t max, uint32_t *index0)
{
	const cls_rec *r = find(c, w);
	size_t n = rec_hit2(r, w, gen);
	if (n && r->xcount)
		n = terms_match(c, r, w);
	store_first(r, n, out, max, index0);
	while (r->more) {
		r++;
		if (!rec_hit2(r, w, gen) || (r->xcount && !terms_match(c, r, w)))
			continue;
		if (n < max)
			out[n] = r->leaf;
		if (!n && index0)
			*index0 = r->index;
		n++;
	}
	return n;
}

/* As internal.h says; besides, when max > 0 and nothing matches, out[0]
 * is set to NULL. */
size_t classifier_run(const classifier *c, const uint64_t *w, uint32_t gen,
                      const spec_bitset **out, size_t max)
{
	return classifier_run_index(c, w, gen, out, max, NULL);
}

size_t classifier_run_index(const classifier *c, const uint64_t *w, uint32_t gen,
                            const spec_bitset **out, size_t max, uint32_t *index0)
{
	return c->nwords == 1 ? run1(c, w[0], gen, out, max, index0)
	                      : run_words(c, w, gen, out, max, index0);
}

void classifier_free(classifier *c)
{
	if (!c)
		return;
	free(c->nodes);
	free(c->sub16);
	free(c->sub32);
	free(c->recs);
	free(c->terms);
	free(c);
}

/* ------------------------------------------------------------ building */

/* A leaf that can match, as the builder sees it. */
typedef struct cls_leaf {
	const spec_bitset *b;
	const uint64_t *fixed, *value; /* nwords each */
	uint32_t cm, cv;  /* over the level-one bits: which it fixes, to what */
	uint32_t word, word2; /* the words it fixes most bits in */
	uint32_t xstart, xcount;
} cls_leaf;

#define CLS_END UINT32_MAX        /* in a list pool: the end of a list */
#define CLS_NONE (UINT32_MAX - 1) /* in a list pool: a record matching nothing */

/* Distinct lists of leaf numbers, each stored once and ended by CLS_END;
 * offset 0 is the empty list, [CLS_NONE, CLS_END]. */
typedef struct listset {
	uint32_t *pool;
	size_t n, cap;
	uint32_t *hash;   /* open addressing over offsets; 0 marks a free slot */
	size_t nhash, cap_hash;
} listset;

typedef struct builder {
	const spec_root *root;
	unsigned nwords, size;
	cls_leaf *leaves;  /* the leaves that can match, document order */
	size_t n;
	uint64_t *bits;    /* fixed and value words of every leaf */
	unsigned chosen[CLS_MAX_BITS]; /* bit positions, most useful first */
	unsigned nchosen;

	/* One table build (repeated with fewer bits when too big). */
	unsigned nbits;
	unsigned rank_pos[CLS_MAX_BITS]; /* index bit -> bit position */
	uint32_t *table;   /* level one: offsets into first */
	listset first;     /* level-one lists */
	listset final;     /* level-two lists: the records */
	uint32_t *sub;     /* sub-tables: offsets into final */
	size_t nsub, cap_sub;
	uint32_t *scratch; /* (nbits + 2) * n leaf numbers */
	size_t max_recs;   /* CLS_MAX_RECS, or more for a huge root */
	size_t max_sub;    /* CLS_MAX_SUB, likewise */
	bool too_big;
} builder;

static bool leaf_can_match(const spec_bitset *l, unsigned nwords)
{
	if (l->gen.min > l->gen.max)
		return false;
	for (unsigned i = 0; i < nwords; i++) {
		uint64_t fixed = bits_word(l->mask, i) & ~bits_word(l->dontcare, i);
		if (bits_word(l->match, i) & ~fixed)
			return false;
	}
	return true;
}

static bool collect_leaves(builder *b)
{
	const spec_root *r = b->root;
	b->leaves = calloc(r->nleaves ? r->nleaves : 1, sizeof *b->leaves);
	b->bits = calloc((r->nleaves ? r->nleaves : 1) * 2u * b->nwords, sizeof *b->bits);
	if (!b->leaves || !b->bits)
		return false;
	for (size_t i = 0; i < r->nleaves; i++) {
		const spec_bitset *l = r->leaves[i];
		if (!leaf_can_match(l, b->nwords))
			continue;
		uint64_t *fixed = b->bits + b->n * 2u * b->nwords, *value = fixed + b->nwords;
		for (unsigned k = 0; k < b->nwords; k++) {
			fixed[k] = bits_word(l->mask, k) & ~bits_word(l->dontcare, k);
			value[k] = bits_word(l->match, k);
		}
		b->leaves[b->n++] = (cls_leaf){.b = l, .fixed = fixed, .value = value};
	}
	return true;
}

static bool leaf_fixes(const cls_leaf *l, unsigned pos, bool *value)
{
	uint64_t m = (uint64_t)1 << (pos % 64u);
	*value = (l->value[pos / 64u] & m) != 0;
	return (l->fixed[pos / 64u] & m) != 0;
}

/* State of the bit choice: a sample of leaves and candidate positions. */
typedef struct chooser {
	const builder *b;
	size_t *sample;     /* leaf numbers */
	uint32_t *cm, *cv;  /* per sample leaf, over the bits chosen so far */
	size_t m;
	unsigned *cand;     /* candidate positions */
	unsigned *balance;  /* per candidate: leaves fixing it the rarer way */
	size_t ncand;
	int *cand_of;       /* position -> candidate number, -1 if none */
	uint64_t *cand_mask;/* nwords: the candidate positions */
	uint64_t *count;    /* per candidate: pairs it would separate */
} chooser;

/* Candidates are the positions with the best balance min(#0, #1) among
 * the leaves that fix them; a position no two leaves disagree on
 * separates nothing. */
static bool choose_candidates(chooser *ch)
{
	const builder *b = ch->b;
	unsigned *bal = calloc(b->size ? b->size : 1, sizeof *bal);
	if (!bal)
		return false;
	for (unsigned pos = 0; pos < b->size; pos++) {
		size_t n0 = 0, n1 = 0;
		for (size_t i = 0; i < ch->m; i++) {
			bool v;
			if (leaf_fixes(&b->leaves[ch->sample[i]], pos, &v))
				*(v ? &n1 : &n0) += 1;
		}
		bal[pos] = (unsigned)(n0 < n1 ? n0 : n1);
	}
	for (unsigned pos = 0; pos < b->size; pos++) {
		if (!bal[pos])
			continue;
		/* Insertion into the sorted top list (best balance first). */
		size_t at = ch->ncand;
		while (at > 0 && ch->balance[at - 1] < bal[pos])
			at--;
		if (at >= CLS_CANDIDATES)
			continue;
		size_t end = ch->ncand < CLS_CANDIDATES ? ch->ncand : CLS_CANDIDATES - 1;
		memmove(ch->cand + at + 1, ch->cand + at, (end - at) * sizeof *ch->cand);
		memmove(ch->balance + at + 1, ch->balance + at, (end - at) * sizeof *ch->balance);
		ch->cand[at] = pos;
		ch->balance[at] = bal[pos];
		if (ch->ncand < CLS_CANDIDATES)
			ch->ncand++;
	}
	free(bal);
	for (size_t k = 0; k < ch->ncand; k++) {
		ch->cand_of[ch->cand[k]] = (int)k;
		ch->cand_mask[ch->cand[k] / 64u] |= (uint64_t)1 << (ch->cand[k] % 64u);
	}
	return true;
}

/* For every candidate, how many sampled pairs not yet told apart it would
 * tell apart. */
static void count_separations(chooser *ch)
{
	const builder *b = ch->b;
	memset(ch->count, 0, ch->ncand * sizeof *ch->count);
	for (size_t i = 0; i < ch->m; i++) {
		const cls_leaf *li = &b->leaves[ch->sample[i]];
		for (size_t j = i + 1; j < ch->m; j++) {
			if (ch->cm[i] & ch->cm[j] & (ch->cv[i] ^ ch->cv[j]))
				continue;
			const cls_leaf *lj = &b->leaves[ch->sample[j]];
			for (unsigned k = 0; k < b->nwords; k++) {
				uint64_t s = li->fixed[k] & lj->fixed[k] & (li->value[k] ^ lj->value[k]) &
				             ch->cand_mask[k];
				for (; s; s &= s - 1)
					ch->count[ch->cand_of[k * 64u + (unsigned)__builtin_ctzll(s)]]++;
			}
		}
	}
}

static bool is_chosen(const builder *b, unsigned pos)
{
	for (unsigned k = 0; k < b->nchosen; k++)
		if (b->chosen[k] == pos)
			return true;
	return false;
}

/* Next to a chosen bit in the same word: the gather stays one chunk. */
static bool adjacent_to_chosen(const builder *b, unsigned pos)
{
	return (pos % 64u && is_chosen(b, pos - 1)) ||
	       ((pos + 1) % 64u && is_chosen(b, pos + 1));
}

/* The best candidate: most pairs separated, then adjacency, then balance,
 * then the lowest position; -1 when none separates anything. */
static int best_candidate(const chooser *ch)
{
	int best = -1;
	for (size_t k = 0; k < ch->ncand; k++) {
		if (!ch->count[k] || is_chosen(ch->b, ch->cand[k]))
			continue;
		if (best < 0 || ch->count[k] > ch->count[best]) {
			best = (int)k;
			continue;
		}
		if (ch->count[k] < ch->count[best])
			continue;
		bool adj_k = adjacent_to_chosen(ch->b, ch->cand[k]);
		bool adj_b = adjacent_to_chosen(ch->b, ch->cand[best]);
		if (adj_k != adj_b ? adj_k :
		    ch->balance[k] != ch->balance[best] ? ch->balance[k] > ch->balance[best] :
		    ch->cand[k] < ch->cand[best])
			best = (int)k;
	}
	return best;
}

static void chooser_free(chooser *ch)
{
	free(ch->sample);
	free(ch->cm);
	free(ch->cv);
	free(ch->cand);
	free(ch->balance);
	free(ch->cand_of);
	free(ch->cand_mask);
	free(ch->count);
}

static bool choose_bits(builder *b)
{
	chooser ch = {.b = b};
	size_t want = b->n / CLS_SAMPLE_PER;
	want = want < CLS_SAMPLE ? CLS_SAMPLE : want > CLS_SAMPLE_MAX ? CLS_SAMPLE_MAX : want;
	ch.m = b->n < want ? b->n : want;
	size_t m1 = ch.m ? ch.m : 1;
	ch.sample = calloc(m1, sizeof *ch.sample);
	ch.cm = calloc(m1, sizeof *ch.cm);
	ch.cv = calloc(m1, sizeof *ch.cv);
	ch.cand = calloc(CLS_CANDIDATES, sizeof *ch.cand);
	ch.balance = calloc(CLS_CANDIDATES, sizeof *ch.balance);
	ch.cand_of = calloc(b->size ? b->size : 1, sizeof *ch.cand_of);
	ch.cand_mask = calloc(b->nwords, sizeof *ch.cand_mask);
	ch.count = calloc(CLS_CANDIDATES, sizeof *ch.count);
	bool ok = ch.sample && ch.cm && ch.cv && ch.cand && ch.balance && ch.cand_of &&
	          ch.cand_mask && ch.count;
	if (ok) {
		/* Evenly spread over the document, so every group of leaves is seen. */
		for (size_t i = 0; i < ch.m; i++)
			ch.sample[i] = i * b->n / ch.m;
		for (unsigned pos = 0; pos < b->size; pos++)
			ch.cand_of[pos] = -1;
		ok = choose_candidates(&ch);
	}
	while (ok && b->nchosen < CLS_MAX_BITS) {
		count_separations(&ch);
		int k = best_candidate(&ch);
		/* Too few pairs for a table twice the size: level two's job. */
		if (k < 0 || ch.count[k] * CLS_STOP < ch.m)
			break;
		unsigned pos = ch.cand[k], bit = b->nchosen;
		b->chosen[b->nchosen++] = pos;
		for (size_t i = 0; i < ch.m; i++) {
			bool v;
			if (leaf_fixes(&b->leaves[ch.sample[i]], pos, &v)) {
				ch.cm[i] |= (uint32_t)1 << bit;
				ch.cv[i] |= (uint32_t)v << bit;
			}
		}
	}
	chooser_free(&ch);
	return ok;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

/* Index bit r is the r-th lowest of the first nbits chosen positions, so
 * runs of adjacent positions become single chunks. */
static void assign_ranks(builder *b, classifier *c)
{
	memcpy(b->rank_pos, b->chosen, b->nbits * sizeof *b->rank_pos);
	qsort(b->rank_pos, b->nbits, sizeof *b->rank_pos, cmp_unsigned);
	for (size_t i = 0; i < b->n; i++) {
		cls_leaf *l = &b->leaves[i];
		l->cm = l->cv = 0;
		for (unsigned r = 0; r < b->nbits; r++) {
			bool v;
			if (leaf_fixes(l, b->rank_pos[r], &v)) {
				l->cm |= (uint32_t)1 << r;
				l->cv |= (uint32_t)v << r;
			}
		}
	}
	c->nbits = b->nbits;
	c->nchunks = 0;
	for (unsigned r = 0; r < b->nbits;) {
		unsigned pos = b->rank_pos[r], len = 1;
		while (r + len < b->nbits && b->rank_pos[r + len] == pos + len &&
		       (pos + len) / 64u == pos / 64u)
			len++;
		unsigned s = pos % 64u;
		c->chunks[c->nchunks++] = (cls_chunk){
			.word = pos / 64u,
			.rshift = s > r ? s - r : 0,
			.lshift = r > s ? r - s : 0,
			.mask = (((uint64_t)1 << len) - 1) << r,
		};
		r += len;
	}
	/* the index bits by word, for pext */
	c->pext_ok = true;
	c->pw[0] = c->pw[1] = 0;
	c->pm[0] = c->pm[1] = 0;
	unsigned np = 0;
	for (unsigned r = 0; r < b->nbits; r++) {
		unsigned w = b->rank_pos[r] / 64u;
		if (!np || w != c->pw[np - 1]) {
			if (np == 2) {
				c->pext_ok = false;
				break;
			}
			c->pw[np++] = (uint8_t)w;
		}
		c->pm[np - 1] |= (uint64_t)1 << (b->rank_pos[r] % 64u);
	}
	if (np < 2)
		c->pw[1] = c->pw[0];
	c->pn0 = (uint8_t)__builtin_popcountll(c->pm[0]);
	c->pext = c->pext_ok && codec_cpu_pext();
}

bool classifier_set_pext(classifier *c, bool on)
{
	c->pext = on && c->pext_ok && codec_cpu_pext();
	return c->pext;
}

/* ------------------------------------------------------ distinct lists */

static uint32_t hash_list(const uint32_t *set, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ set[i]) * 16777619u;
	return h;
}

static size_t list_len(const listset *s, uint32_t off)
{
	size_t n = 0;
	while (s->pool[off + n] != CLS_END)
		n++;
	return n;
}

static bool list_equal(const listset *s, uint32_t off, const uint32_t *set, size_t n)
{
	const uint32_t *p = s->pool + off;
	for (size_t i = 0; i < n; i++)
		if (p[i] != set[i])
			return false;
	return p[n] == CLS_END;
}

static bool listset_init(listset *s)
{
	*s = (listset){.cap = 1024, .cap_hash = 1024};
	s->pool = malloc(s->cap * sizeof *s->pool);
	s->hash = calloc(s->cap_hash, sizeof *s->hash);
	if (!s->pool || !s->hash)
		return false;
	s->pool[0] = CLS_NONE;
	s->pool[1] = CLS_END;
	s->n = 2;
	return true;
}

static void listset_free(listset *s)
{
	free(s->pool);
	free(s->hash);
	*s = (listset){0};
}

/* The free slot for a new offset, or the slot holding an equal list. */
static size_t hash_slot(const listset *s, const uint32_t *set, size_t n)
{
	size_t mask = s->cap_hash - 1, h = hash_list(set, n) & mask;
	while (s->hash[h] && !list_equal(s, s->hash[h], set, n))
		h = (h + 1) & mask;
	return h;
}

/* Doubles the hash table, keeping it at most half full. */
static bool rehash(listset *s)
{
	listset t = *s;
	t.cap_hash = s->cap_hash * 2;
	t.hash = calloc(t.cap_hash, sizeof *t.hash);
	if (!t.hash)
		return false;
	for (size_t i = 0; i < s->cap_hash; i++) {
		uint32_t off = s->hash[i];
		if (off)
			t.hash[hash_slot(&t, s->pool + off, list_len(s, off))] = off;
	}
	free(s->hash);
	*s = t;
	return true;
}

/* Offset of the stored copy of this list, stored now if new; CLS_END when
 * out of memory or over max records (then *too_big is set). */
static uint32_t intern_list(listset *s, const uint32_t *set, size_t n, size_t max,
                            bool *too_big)
{
	if (n == 0)
		return 0;
	size_t h = hash_slot(s, set, n);
	if (s->hash[h])
		return s->hash[h];
	if (s->n + n + 1 > max) {
		*too_big = true;
		return CLS_END;
	}
	uint32_t *p = spec_grow(s->pool, s->n + n + 1, &s->cap, sizeof *p, 1);
	if (!p)
		return CLS_END;
	s->pool = p;
	uint32_t off = (uint32_t)s->n;
	memcpy(s->pool + off, set, n * sizeof *set);
	s->pool[off + n] = CLS_END;
	s->n += n + 1;
	s->hash[h] = off;
	if (++s->nhash * 2 > s->cap_hash && !rehash(s))
		return CLS_END;
	return off;
}

/* ------------------------------------------------------------ level one */

static void fill_range(builder *b, uint32_t base, unsigned k, uint32_t off)
{
	for (uint32_t i = 0; i < ((uint32_t)1 << k); i++)
		b->table[base + i] = off;
}

/* Fills table[base .. base + 2^k): index bits k-1 .. 0 are still open, and
 * set (n leaf numbers, document order) holds the leaves consistent with
 * the bits above.  Splits on bit k-1 until no leaf of the set fixes any
 * open bit. */
static bool fill(builder *b, unsigned k, uint32_t base, const uint32_t *set, size_t n)
{
	uint32_t open = ((uint32_t)1 << k) - 1, any = 0;
	for (size_t i = 0; i < n; i++)
		any |= b->leaves[set[i]].cm & open;
	if (!any) {
		uint32_t off = intern_list(&b->first, set, n, b->max_recs, &b->too_big);
		if (off == CLS_END)
			return false;
		fill_range(b, base, k, off);
		return true;
	}
	uint32_t *sub = b->scratch + (size_t)(k - 1) * (b->n ? b->n : 1);
	uint32_t bit = (uint32_t)1 << (k - 1);
	for (uint32_t v = 0; v < 2; v++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			const cls_leaf *l = &b->leaves[set[i]];
			if (!(l->cm & bit) || ((l->cv & bit) != 0) == v)
				sub[m++] = set[i];
		}
		if (!fill(b, k - 1, base + v * bit, sub, m))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ level two */

typedef struct cls_window {
	unsigned word, shift, width; /* width 0: no split */
	size_t unsplit;              /* pairs left together */
} cls_window;

/* The bits of word k that tell leaves x and y apart. */
static uint64_t pair_sep(const builder *b, uint32_t x, uint32_t y, unsigned k)
{
	const cls_leaf *lx = &b->leaves[x], *ly = &b->leaves[y];
	return lx->fixed[k] & ly->fixed[k] & (lx->value[k] ^ ly->value[k]);
}

static size_t pairs_together(const builder *b, const uint32_t *set, size_t n, unsigned k,
                             uint64_t wmask)
{
	size_t together = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			together += !(pair_sep(b, set[i], set[j], k) & wmask);
	return together;
}

/* The window of at most CLS_SUB_BITS adjacent bits of one word that
 * leaves the fewest pairs of the set together, the narrowest of equals.
 * Windows start and end on bits that tell some pair apart: other bits
 * would only widen the sub-table. */
static cls_window choose_window(const builder *b, const uint32_t *set, size_t n)
{
	cls_window best = {.unsplit = n * (n - (n > 0)) / 2};
	if (n < 2 || n > CLS_SUB_SET)
		return best;
	size_t budget = CLS_WINDOW_BUDGET, cost = n * (n - 1) / 2;
	for (unsigned k = 0; k < b->nwords; k++) {
		uint64_t sep = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++)
				sep |= pair_sep(b, set[i], set[j], k);
		for (uint64_t lows = sep; lows; lows &= lows - 1) {
			unsigned s = (unsigned)__builtin_ctzll(lows);
			for (unsigned width = 1; width <= CLS_SUB_BITS && s + width <= 64; width++) {
				if (!((sep >> (s + width - 1)) & 1))
					continue;
				if (budget < cost)
					return best;
				budget -= cost;
				uint64_t wmask = (((uint64_t)1 << width) - 1) << s;
				size_t together = pairs_together(b, set, n, k, wmask);
				if (together < best.unsplit ||
				    (together == best.unsplit && best.width && width < best.width))
					best = (cls_window){k, s, width, together};
			}
		}
	}
	return best;
}

static bool push_sub(builder *b, uint32_t off)
{
	uint32_t *p = spec_grow(b->sub, b->nsub + 1, &b->cap_sub, sizeof *p, 1024);
	if (!p)
		return false;
	b->sub = p;
	b->sub[b->nsub++] = off;
	return true;
}

/* The node of one level-one list: its window, and a sub-table of the
 * final lists for each value of the window. */
static bool make_node(builder *b, uint32_t off, cls_node *node)
{
	size_t n1 = b->n ? b->n : 1;
	uint32_t *set = b->scratch, *part = b->scratch + n1, n = 0;
	if (off != 0)
		for (const uint32_t *p = b->first.pool + off; *p != CLS_END; p++)
			set[n++] = *p;
	cls_window win = choose_window(b, set, n);
	if (b->nsub + ((size_t)1 << win.width) > b->max_sub)
		win = (cls_window){0};
	*node = (cls_node){
		.base = (uint32_t)b->nsub,
		.mask = (uint16_t)(((uint32_t)1 << win.width) - 1),
		.shift = (uint8_t)win.shift,
		.word = (uint8_t)win.word,
	};
	for (uint64_t v = 0; v < ((uint64_t)1 << win.width); v++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			const cls_leaf *l = &b->leaves[set[i]];
			uint64_t fm = l->fixed[win.word] >> win.shift, fv = l->value[win.word] >> win.shift;
			if (!((fv ^ v) & fm & node->mask))
				part[m++] = set[i];
		}
		uint32_t po = intern_list(&b->final, part, m, b->max_recs, &b->too_big);
		if (po == CLS_END || !push_sub(b, po))
			return false;
	}
	return true;
}

/* Level two for every distinct level-one list, shared by the entries
 * that hold the same list. */
static bool make_nodes(builder *b, classifier *c)
{
	size_t entries = (size_t)1 << b->nbits;
	c->nodes = malloc(entries * sizeof *c->nodes);
	cls_node *memo = malloc(b->first.n * sizeof *memo);
	bool *done = calloc(b->first.n, sizeof *done);
	bool ok = c->nodes && memo && done && listset_init(&b->final);
	for (size_t i = 0; ok && i < entries; i++) {
		uint32_t off = b->table[i];
		if (!done[off])
			ok = make_node(b, off, &memo[off]);
		done[off] = ok;
		c->nodes[i] = memo[off];
	}
	free(memo);
	free(done);
	return ok;
}

/* ------------------------------------------------------------ assembly */

static void table_free(builder *b)
{
	free(b->table);
	free(b->scratch);
	free(b->sub);
	listset_free(&b->first);
	listset_free(&b->final);
	b->table = b->scratch = b->sub = NULL;
	b->nsub = b->cap_sub = 0;
}

/* One attempt with b->nbits level-one bits. */
static bool build_table(builder *b, classifier *c)
{
	size_t entries = (size_t)1 << b->nbits, n1 = b->n ? b->n : 1;
	b->too_big = false;
	b->table = calloc(entries, sizeof *b->table);
	b->scratch = malloc((b->nbits + 2) * n1 * sizeof *b->scratch);
	if (!b->table || !b->scratch || !listset_init(&b->first))
		return false;
	assign_ranks(b, c);
	uint32_t *all = b->scratch + (size_t)(b->nbits + 1) * n1;
	for (size_t i = 0; i < b->n; i++)
		all[i] = (uint32_t)i;
	return fill(b, b->nbits, 0, all, b->n) && make_nodes(b, c);
}

static int popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* The word the leaf fixes most bits in, other than skip (the lowest of
 * equals; 0 when it fixes none). */
static unsigned busiest_word(const builder *b, const cls_leaf *l, unsigned skip)
{
	unsigned best = skip == 0 && b->nwords > 1 ? 1 : 0;
	for (unsigned k = 0; k < b->nwords; k++)
		if (k != skip && popcount64(l->fixed[k]) > popcount64(l->fixed[best]))
			best = k;
	return best;
}

/* Per leaf: the two words it fixes most bits in, checked inline, and its
 * other fixed words as terms. */
static bool make_terms(builder *b, classifier *c)
{
	size_t nterms = 0;
	for (size_t i = 0; i < b->n; i++)
		for (unsigned k = 0; k < b->nwords; k++)
			nterms += b->leaves[i].fixed[k] != 0;
	c->terms = calloc(nterms ? nterms : 1, sizeof *c->terms);
	if (!c->terms)
		return false;
	for (size_t i = 0; i < b->n; i++) {
		cls_leaf *l = &b->leaves[i];
		l->word = busiest_word(b, l, b->nwords);
		l->word2 = b->nwords > 1 ? busiest_word(b, l, l->word) : l->word;
		l->xstart = (uint32_t)c->nterms;
		for (unsigned k = 0; k < b->nwords; k++)
			if (k != l->word && k != l->word2 && l->fixed[k])
				c->terms[c->nterms++] = (cls_term){l->fixed[k], l->value[k], k};
		l->xcount = (uint32_t)c->nterms - l->xstart;
	}
	return true;
}

/* The records of the final lists, and the sub-tables in their width. */
static bool make_records(builder *b, classifier *c)
{
	const listset *f = &b->final;
	/* Aligned, so a record never straddles two cache lines. */
	c->recs = aligned_alloc(sizeof *c->recs, f->n * sizeof *c->recs);
	if (!c->recs)
		return false;
	memset(c->recs, 0, f->n * sizeof *c->recs);
	c->nrecs = f->n;
	for (size_t i = 0; i < f->n; i++) {
		if (f->pool[i] == CLS_END)
			continue; /* leaf NULL: the end of a list */
		bool more = i + 1 < f->n && f->pool[i + 1] != CLS_END;
		if (f->pool[i] == CLS_NONE) {
			c->recs[i].value = 1; /* (w & 0) != 1 */
			c->recs[i].more = more;
			continue;
		}
		const cls_leaf *l = &b->leaves[f->pool[i]];
		c->recs[i] = (cls_rec){
			.fixed = l->fixed[l->word],
			.value = l->value[l->word],
			.fixed2 = l->word2 != l->word ? l->fixed[l->word2] : 0,
			.value2 = l->word2 != l->word ? l->value[l->word2] : 0,
			.leaf = l->b,
			.word = (uint8_t)l->word,
			.word2 = (uint8_t)l->word2,
			.more = more,
			.index = l->b->index,
			.gmin = l->b->gen.min,
			.gspan = l->b->gen.max - l->b->gen.min,
			.xstart = l->xstart,
			.xcount = l->xcount,
		};
	}
	c->nsub = b->nsub;
	if (f->n <= (size_t)UINT16_MAX + 1) {
		c->sub16 = malloc(b->nsub * sizeof *c->sub16);
		if (!c->sub16)
			return false;
		for (size_t i = 0; i < b->nsub; i++)
			c->sub16[i] = (uint16_t)b->sub[i];
	} else {
		c->sub32 = b->sub;
		b->sub = NULL;
	}
	return true;
}

static bool build(builder *b, classifier *c)
{
	if (!collect_leaves(b))
		return false;
	/* Budgets that grow with the root, so that a root of a million
	 * leaves is classified (its single list alone has a million records)
	 * while a small root's memory stays bounded as before. */
	size_t scaled = b->n > SIZE_MAX / CLS_RECS_PER_LEAF ? SIZE_MAX : b->n * CLS_RECS_PER_LEAF;
	b->max_recs = scaled > CLS_MAX_RECS ? scaled : CLS_MAX_RECS;
	b->max_sub = scaled > CLS_MAX_SUB ? scaled : CLS_MAX_SUB;
	if (!choose_bits(b) || !make_terms(b, c))
		return false;
	/* Fewer bits until the lists fit; with none there is a single list. */
	for (b->nbits = b->nchosen;; b->nbits--) {
		bool ok = build_table(b, c);
		if (ok)
			return make_records(b, c);
		if (!b->too_big || b->nbits == 0)
			return false;
		table_free(b);
		free(c->nodes);
		c->nodes = NULL;
	}
}

classifier *classifier_build(const spec_root *root)
{
	classifier *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->nwords = root_nwords(root);
	builder b = {.root = root, .nwords = c->nwords, .size = c->nwords * 64u};
	bool ok = build(&b, c);
	table_free(&b);
	free(b.leaves);
	free(b.bits);
	if (!ok) {
		classifier_free(c);
		return NULL;
	}
	return c;
}
