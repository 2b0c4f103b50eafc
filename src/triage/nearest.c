/*
 * nearest.c - the nearest leaves of an unmatched word by branch and bound.
 *
 * Random or corrupt input is mostly words no leaf matches, and each one
 * needs its nearest leaves: scoring all of a root's leaves per word was
 * a third of triaging random ir3 words.  Instead the leaves are put in a
 * tree once per root.  A node splits its leaves by one bit: those whose
 * pattern fixes it to 0, to 1, and those that leave it free.  Every node
 * keeps its *core*: the bits all its leaves fix to the same value.  Any
 * leaf below a node differs from the word in at least the core bits in
 * which the word differs from the core's value, so a node whose bound
 * exceeds the best distance found so far holds no nearest leaf and is
 * skipped whole.  The child that agrees with the word on the split bit
 * is searched first, so a small distance is found early and most of the
 * tree is cut away.
 *
 * Ties must come out exactly as the plain scan gives them (the first
 * `max` in document order, and the count of all): only nodes whose bound
 * is strictly greater than the best are skipped, so every leaf at the
 * least distance is reached, and they are collected in a bitmap over
 * document positions, read in order at the end.
 *
 * A tree holds only the leaves of one generation (a word is compared with
 * those alone, and their cores are larger than those of all leaves): an
 * index keeps the trees of the last few sets of leaves it was asked
 * about, so inputs of several generations (a TSV's rows) do not rebuild
 * one tree over and over.
 */
#include "nearest.h"

#include <stdlib.h>
#include <string.h>

/* A node with at most this many leaves is scored leaf by leaf. */
#define BUCKET_MAX 16u
/* Deeper than this, a node is a bucket whatever its size (keeps the
 * build's recursion and the search's stack small on odd specs). */
#define MAX_DEPTH 48u
#define NONE UINT32_MAX

typedef struct near_node {
	uint32_t kid[3];             /* bit 0, bit 1, bit not fixed; NONE: empty */
	uint32_t bit;                /* the split bit (inner nodes) */
	uint32_t first, count;       /* a bucket: its slots; count 0: inner node */
} near_node;

/* The tree of one set of leaves (those of some generations). */
typedef struct near_tree {
	uint64_t *in;                /* bitmap over document positions: its leaves */
	near_node *node;
	uint32_t nnodes;
	uint64_t *node_bits;         /* per node: nw core words, nw value words */
	uint32_t nslots;
	uint32_t *slot_pos;          /* per slot (leaves in bucket order): document position */
	uint64_t *slot_bits;         /* per slot: nw match words, nw fixed words */
	uint32_t *pos_slot;          /* per document position: its slot */
} near_tree;

/* Trees kept per index; the oldest goes when another is needed. */
#define MAX_TREES 8u

struct near_index {
	unsigned nw, size;
	const spec_bitset *const *leaves; /* the root's, in document order */
	size_t nleaves, nbitmap;     /* nbitmap: words of a bitmap over positions */
	near_tree *tree[MAX_TREES];
	unsigned ntrees, next_evict;
	near_tree *cur;              /* the tree of cur_gen */
	uint32_t cur_gen;
	uint64_t *ties;              /* bitmap over document positions */
	uint64_t *in;                /* scratch bitmap */
	uint32_t *stack;             /* the search's pending nodes and their bounds */
	uint32_t *cnt_fixed, *cnt_one; /* per bit, while building */
	uint32_t *tmp;               /* positions, while partitioning */
};

static void tree_free(near_tree *t)
{
	if (!t)
		return;
	free(t->in);
	free(t->node);
	free(t->node_bits);
	free(t->slot_pos);
	free(t->slot_bits);
	free(t->pos_slot);
	free(t);
}

void near_index_free(near_index *x)
{
	if (!x)
		return;
	for (unsigned i = 0; i < x->ntrees; i++)
		tree_free(x->tree[i]);
	free(x->ties);
	free(x->in);
	free(x->stack);
	free(x->cnt_fixed);
	free(x->cnt_one);
	free(x->tmp);
	free(x);
}

/* The split bit of the leaves at pos[0..n): one that some fix to 0 and
 * some to 1, splitting them as evenly as possible and left free by as
 * few as possible.  NONE when no bit tells them apart. */
static uint32_t choose_bit(near_index *x, const uint32_t *pos, size_t n)
{
	memset(x->cnt_fixed, 0, x->size * sizeof *x->cnt_fixed);
	memset(x->cnt_one, 0, x->size * sizeof *x->cnt_one);
	for (size_t i = 0; i < n; i++) {
		const spec_bitset *b = x->leaves[pos[i]];
		for (unsigned k = 0; k < x->nw; k++) {
			uint64_t f = near_fixed(b, k), m = k < b->match.nwords ? b->match.w[k] : 0;
			for (uint64_t r = f; r; r &= r - 1) {
				unsigned bit = k * 64 + (unsigned)__builtin_ctzll(r);
				if (bit >= x->size)
					break;
				x->cnt_fixed[bit]++;
				x->cnt_one[bit] += (unsigned)(m >> (bit % 64)) & 1;
			}
		}
	}
	uint32_t best = NONE;
	long best_score = 0;
	for (uint32_t bit = 0; bit < x->size; bit++) {
		long n1 = x->cnt_one[bit], n0 = (long)x->cnt_fixed[bit] - n1;
		long nx = (long)n - x->cnt_fixed[bit];
		if (!n0 || !n1)
			continue;
		/* an even split halves the work below; a leaf that leaves the
		 * bit free gains no bound from it */
		long score = 2 * (n0 < n1 ? n0 : n1) - nx;
		if (best == NONE || score > best_score) {
			best = bit;
			best_score = score;
		}
	}
	return best;
}

/* Builds the node over pos[0..n) (n > 0) in tree t; returns its index. */
static uint32_t build(near_index *x, near_tree *t, uint32_t *pos, size_t n, unsigned depth)
{
	unsigned nw = x->nw;
	uint32_t id = t->nnodes++;
	uint64_t *core = t->node_bits + (size_t)id * 2 * nw, *val = core + nw;
	for (unsigned k = 0; k < nw; k++) {
		uint64_t and_f = ~0ull, and_m = ~0ull, or_m = 0;
		for (size_t i = 0; i < n; i++) {
			const spec_bitset *b = x->leaves[pos[i]];
			uint64_t m = k < b->match.nwords ? b->match.w[k] : 0;
			and_f &= near_fixed(b, k);
			and_m &= m;
			or_m |= m;
		}
		/* fixed by all, to the same value by all */
		core[k] = and_f & (and_m | ~or_m);
		val[k] = and_m & core[k];
	}
	t->node[id] = (near_node){{NONE, NONE, NONE}, 0, 0, 0};
	uint32_t bit = n > BUCKET_MAX && depth < MAX_DEPTH ? choose_bit(x, pos, n) : NONE;
	if (bit == NONE) {
		t->node[id].first = t->nslots;
		t->node[id].count = (uint32_t)n;
		for (size_t i = 0; i < n; i++) {
			uint32_t sl = t->nslots++;
			const spec_bitset *b = x->leaves[pos[i]];
			uint64_t *sb = t->slot_bits + (size_t)sl * 2 * nw;
			for (unsigned k = 0; k < nw; k++) {
				sb[k] = k < b->match.nwords ? b->match.w[k] : 0;
				sb[nw + k] = near_fixed(b, k);
			}
			t->slot_pos[sl] = pos[i];
			t->pos_slot[pos[i]] = sl;
		}
		return id;
	}
	/* partition: fixed to 0, fixed to 1, free */
	unsigned bk = bit / 64;
	uint64_t one = (uint64_t)1 << (bit % 64);
	size_t cnt[3] = {0, 0, 0}, at[3];
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			at[0] = 0;
			at[1] = cnt[0];
			at[2] = cnt[0] + cnt[1];
		}
		for (size_t i = 0; i < n; i++) {
			const spec_bitset *b = x->leaves[pos[i]];
			uint64_t m = bk < b->match.nwords ? b->match.w[bk] : 0;
			unsigned side = (near_fixed(b, bk) & one) ? (m & one) != 0 : 2;
			if (pass)
				x->tmp[at[side]++] = pos[i];
			else
				cnt[side]++;
		}
	}
	memcpy(pos, x->tmp, n * sizeof *pos);
	t->node[id].bit = bit;
	for (size_t c = 0, off = 0; c < 3; off += cnt[c], c++)
		if (cnt[c]) {
			uint32_t kid = build(x, t, pos + off, cnt[c], depth + 1);
			t->node[id].kid[c] = kid; /* t->node is never reallocated */
		}
	return id;
}

/* The tree over the leaves of bitmap in (a copy is kept); NULL when
 * memory runs out. */
static near_tree *tree_new(near_index *x, const uint64_t *in)
{
	size_t n = 0;
	for (size_t k = 0; k < x->nbitmap; k++)
		n += (size_t)__builtin_popcountll(in[k]);
	/* every inner node has two children or more: fewer than 2n nodes */
	size_t nn = 2 * n + 1, np = x->nleaves + 1;
	near_tree *t = calloc(1, sizeof *t);
	uint32_t *pos = malloc(np * sizeof *pos);
	if (t) {
		t->in = malloc(x->nbitmap * sizeof *t->in);
		t->node = malloc(nn * sizeof *t->node);
		t->node_bits = malloc(nn * 2 * x->nw * sizeof *t->node_bits);
		t->slot_pos = malloc(np * sizeof *t->slot_pos);
		t->slot_bits = malloc(np * 2 * x->nw * sizeof *t->slot_bits);
		t->pos_slot = malloc(np * sizeof *t->pos_slot);
	}
	if (!t || !pos || !t->in || !t->node || !t->node_bits || !t->slot_pos || !t->slot_bits ||
	    !t->pos_slot) {
		free(pos);
		tree_free(t);
		return NULL;
	}
	memcpy(t->in, in, x->nbitmap * sizeof *in);
	n = 0;
	for (size_t k = 0; k < x->nbitmap; k++)
		for (uint64_t r = in[k]; r; r &= r - 1)
			pos[n++] = (uint32_t)(k * 64 + (unsigned)__builtin_ctzll(r));
	if (n)
		build(x, t, pos, n, 0);
	free(pos);
	return t;
}

near_index *near_index_new(const spec_root *root)
{
	near_index *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	size_t n = root->nleaves;
	x->size = root->bitset->size;
	x->nw = (x->size + 63) / 64;
	x->leaves = root->leaves;
	x->nleaves = n;
	x->nbitmap = n / 64 + 1;
	x->ties = calloc(x->nbitmap, sizeof *x->ties);
	x->in = calloc(x->nbitmap, sizeof *x->in);
	/* a node and its bound per entry: at most every node is pending */
	x->stack = malloc((2 * n + 1) * 2 * sizeof *x->stack);
	x->cnt_fixed = malloc((x->size + 1) * sizeof *x->cnt_fixed);
	x->cnt_one = malloc((x->size + 1) * sizeof *x->cnt_one);
	x->tmp = malloc((n + 1) * sizeof *x->tmp);
	if (!x->ties || !x->in || !x->stack || !x->cnt_fixed || !x->cnt_one || !x->tmp) {
		near_index_free(x);
		return NULL;
	}
	return x;
}

/* The tree of the leaves in generation gen, found or built. */
static near_tree *tree_for(near_index *x, uint32_t gen)
{
	if (x->cur && x->cur_gen == gen)
		return x->cur;
	memset(x->in, 0, x->nbitmap * sizeof *x->in);
	for (size_t i = 0; i < x->nleaves; i++)
		if (gen >= x->leaves[i]->gen.min && gen <= x->leaves[i]->gen.max)
			x->in[i / 64] |= (uint64_t)1 << (i % 64);
	near_tree *t = NULL;
	for (unsigned i = 0; i < x->ntrees && !t; i++)
		if (!memcmp(x->tree[i]->in, x->in, x->nbitmap * sizeof *x->in))
			t = x->tree[i];
	if (!t) {
		t = tree_new(x, x->in);
		if (!t)
			return NULL;
		if (x->ntrees < MAX_TREES) {
			x->tree[x->ntrees++] = t;
		} else {
			tree_free(x->tree[x->next_evict]);
			x->tree[x->next_evict] = t;
			x->next_evict = (x->next_evict + 1) % MAX_TREES;
		}
	}
	x->cur = t;
	x->cur_gen = gen;
	return t;
}

/* The search, built for each way of counting bits, and with the number
 * of words known (1: ir3, afuc; 2: etnaviv) or not.  The stack holds pairs (node,
 * its bound): a child whose bound is already too large is not pushed,
 * one that became too large while waiting is dropped when popped. */
static inline __attribute__((always_inline)) size_t
search_with(near_index *x, const near_tree *t, const uint64_t *w, const spec_bitset **leaves,
            unsigned *distance, uint64_t *diffs, size_t max, unsigned nw,
            unsigned (*pop)(uint64_t))
{
	unsigned best = ~0u;
	size_t nties = 0, sp = 0;
	uint32_t *stack = x->stack;
	/* the node in hand and its bound; NONE: take one from the stack */
	uint32_t cur = t->nnodes ? 0 : NONE;
	unsigned bound = 0;
	for (;;) {
		if (cur == NONE) {
			if (!sp)
				break;
			bound = stack[--sp];
			cur = stack[--sp];
		}
		const near_node *nd = &t->node[cur];
		cur = NONE;
		if (bound > best)
			continue;
		if (nd->count) {
			const uint64_t *mt = t->slot_bits + (size_t)nd->first * 2 * nw;
			for (uint32_t s = 0; s < nd->count; s++, mt += 2 * nw) {
				unsigned d = 0;
				for (unsigned k = 0; k < nw; k++)
					d += pop((w[k] ^ mt[k]) & mt[nw + k]);
				if (d > best)
					continue;
				if (d < best) {
					best = d;
					nties = 0;
					for (size_t k = 0; k < x->nbitmap; k++)
						x->ties[k] = 0;
				}
				uint32_t p = t->slot_pos[nd->first + s];
				x->ties[p / 64] |= (uint64_t)1 << (p % 64);
				nties++;
			}
			continue;
		}
		/* the child that agrees with the word is searched next, the
		 * others wait on the stack (the free one on top) unless their
		 * bound is already too large */
		unsigned wb = (unsigned)(w[nd->bit / 64] >> (nd->bit % 64)) & 1;
		uint32_t order[3] = {nd->kid[!wb], nd->kid[2], nd->kid[wb]};
		for (unsigned i = 0; i < 3; i++) {
			if (order[i] == NONE)
				continue;
			const uint64_t *core = t->node_bits + (size_t)order[i] * 2 * nw;
			unsigned b = 0;
			for (unsigned k = 0; k < nw; k++)
				b += pop((w[k] ^ core[nw + k]) & core[k]);
			if (b > best)
				continue;
			if (i == 2) {
				cur = order[i];
				bound = b;
			} else {
				stack[sp++] = order[i];
				stack[sp++] = b;
			}
		}
	}
	size_t kept = 0;
	for (size_t k = 0; nties && kept < max && k < x->nbitmap; k++)
		for (uint64_t r = x->ties[k]; r && kept < max; r &= r - 1) {
			uint32_t p = (uint32_t)(k * 64 + (unsigned)__builtin_ctzll(r));
			const uint64_t *mt = t->slot_bits + (size_t)t->pos_slot[p] * 2 * nw;
			leaves[kept] = x->leaves[p];
			distance[kept] = best;
			for (unsigned i = 0; i < nw; i++)
				diffs[kept * nw + i] = (w[i] ^ mt[i]) & mt[nw + i];
			kept++;
		}
	return nties;
}

static size_t search_soft(near_index *x, const near_tree *t, const uint64_t *w,
                          const spec_bitset **leaves, unsigned *distance, uint64_t *diffs,
                          size_t max)
{
	if (x->nw == 1)
		return search_with(x, t, w, leaves, distance, diffs, max, 1, near_pop64);
	if (x->nw == 2)
		return search_with(x, t, w, leaves, distance, diffs, max, 2, near_pop64);
	return search_with(x, t, w, leaves, distance, diffs, max, x->nw, near_pop64);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) static inline unsigned pop64_hw(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

__attribute__((target("popcnt"))) static size_t
search_popcnt(near_index *x, const near_tree *t, const uint64_t *w, const spec_bitset **leaves,
              unsigned *distance, uint64_t *diffs, size_t max)
{
	if (x->nw == 1)
		return search_with(x, t, w, leaves, distance, diffs, max, 1, pop64_hw);
	if (x->nw == 2)
		return search_with(x, t, w, leaves, distance, diffs, max, 2, pop64_hw);
	return search_with(x, t, w, leaves, distance, diffs, max, x->nw, pop64_hw);
}
#endif

size_t near_index_search(near_index *x, const uint64_t *w, uint32_t gen, bool popcnt,
                         const spec_bitset **leaves, unsigned *distance, uint64_t *diffs,
                         size_t max)
{
	const near_tree *t = tree_for(x, gen);
	if (!t)
		return SIZE_MAX;
#if defined(__x86_64__) && defined(__GNUC__)
	if (popcnt)
		return search_popcnt(x, t, w, leaves, distance, diffs, max);
#else
	(void)popcnt;
#endif
	return search_soft(x, t, w, leaves, distance, diffs, max);
}
