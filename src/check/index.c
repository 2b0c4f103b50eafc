/*
 * index.c - which cubes of a set meet a given cube, without testing
 * every one of them.
 *
 * The proofs keep asking one question of the leaves of a root: which of
 * them can match some word of this cube?  Every pair of leaves (overlap),
 * growing a hole one bit at a time (does any leaf reach into it), and the
 * hole search (which leaves does this cube not exclude yet).  Asked of
 * every leaf in turn that makes the proofs quadratic in leaves.
 *
 * The index is a tree split one bit at a time: a node's cubes that fix
 * the bit to 0, fix it to 1, or leave it free go to three children.  Each
 * node keeps the bits all of its cubes fix to one value, so a query cube
 * that fixes one of them the other way skips the whole subtree; a query
 * that fixes the split bit skips one child.  The split bit is the one
 * that parts the most cubes evenly (the largest min(fixed to 0, fixed to
 * 1)), as the classifier does; when no bit parts two cubes, the one that
 * most cubes fix and some do not.  Small nodes are buckets tested cube by
 * cube.  Each cube is in exactly one bucket, so the tree has O(n) nodes
 * and its depth is at most the root's size (a split bit is never chosen
 * again below: it is fixed alike or free in every cube of a child).
 *
 * Cubes can be switched off and on again (coverage asks one interval of
 * generations after another, each with most of the same leaves live):
 * each node counts its live cubes, a query skips a node with none, and a
 * switch updates the counts on one path, so the index is built once per
 * root rather than once per interval.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define INDEX_BUCKET 8u
#define INDEX_NONE UINT32_MAX

typedef struct index_node {
	uint32_t bit;      /* INDEX_NONE: a bucket */
	uint32_t child[3]; /* fixed to 0, fixed to 1, free; INDEX_NONE: empty */
	uint32_t first, count; /* a bucket's cubes: items[first .. first + count) */
	uint32_t parent;   /* INDEX_NONE at the top */
	uint32_t live;     /* cubes below that are switched on */
} index_node;

struct cube_index {
	/* per cube: its fixed words, then its value words; a copy, so that
	 * building and asking read them without going through the cube */
	uint64_t *bits;
	unsigned size, nw;
	uint32_t *items;     /* cube numbers, grouped by bucket */
	index_node *nodes;
	uint64_t *common;    /* per node: nw words fixed alike, then their nw values */
	size_t nnodes, cap;
	uint32_t *bucket_of; /* per cube: its bucket */
	uint8_t *on;         /* per cube: switched on */
	size_t n;            /* cubes */
	unsigned *count0, *count1; /* scratch while building, per bit */
	uint64_t *seen;      /* scratch while building: bits some cube fixes */
};

static const uint64_t *cube_bits(const cube_index *x, uint32_t k)
{
	return x->bits + (size_t)k * 2 * x->nw;
}

static uint32_t node_new(cube_index *x)
{
	if (x->nnodes == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 64;
		index_node *n = realloc(x->nodes, cap * sizeof *n);
		if (!n)
			return INDEX_NONE;
		x->nodes = n;
		uint64_t *c = realloc(x->common, cap * 2 * x->nw * sizeof *c);
		if (!c)
			return INDEX_NONE;
		x->common = c;
		x->cap = cap;
	}
	return (uint32_t)x->nnodes++;
}

/* Chooses the split bit of items[lo, hi); INDEX_NONE when every cube
 * fixes the same bits to the same values (nothing can part them).  The
 * bits common fixes alike in all of them part nothing either, and are
 * not counted: below the top of a tree that is most of each cube's. */
static uint32_t choose_bit(cube_index *x, size_t lo, size_t hi, const uint64_t *common)
{
	unsigned nw = x->nw;
	memset(x->seen, 0, nw * sizeof *x->seen);
	for (size_t i = lo; i < hi; i++) {
		const uint64_t *cf = cube_bits(x, x->items[i]), *cv = cf + nw;
		for (unsigned w = 0; w < nw; w++) {
			uint64_t own = cf[w] & ~common[w];
			x->seen[w] |= own;
			for (uint64_t m = own; m; m &= m - 1) {
				unsigned b = w * 64 + (unsigned)__builtin_ctzll(m);
				if (cv[w] >> (b % 64) & 1)
					x->count1[b]++;
				else
					x->count0[b]++;
			}
		}
	}
	size_t n = hi - lo;
	uint32_t best = INDEX_NONE;
	unsigned best_min = 0, best_sum = 0;
	for (unsigned w = 0; w < nw; w++)
		for (uint64_t m = x->seen[w]; m; m &= m - 1) {
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(m);
			unsigned c0 = x->count0[b], c1 = x->count1[b];
			unsigned lo_side = c0 < c1 ? c0 : c1, sum = c0 + c1;
			x->count0[b] = x->count1[b] = 0;
			/* a bit every cube fixes to one value parts nothing */
			if (!lo_side && sum == n)
				continue;
			if (lo_side > best_min || (lo_side == best_min && sum > best_sum)) {
				best = b;
				best_min = lo_side;
				best_sum = sum;
			}
		}
	return best;
}

void cube_common(const leaf_cube *const *cubes, const uint32_t *items, size_t lo, size_t hi,
                 unsigned nw, uint64_t *fixed, uint64_t *value)
{
	const leaf_cube *c0 = cubes[items[lo]];
	for (unsigned w = 0; w < nw; w++) {
		fixed[w] = c0->fixed[w];
		value[w] = c0->value[w];
	}
	for (size_t i = lo + 1; i < hi; i++) {
		const leaf_cube *c = cubes[items[i]];
		for (unsigned w = 0; w < nw; w++) {
			fixed[w] &= c->fixed[w] & ~(c->value[w] ^ value[w]);
			value[w] &= fixed[w];
		}
	}
}

void cube_partition(const leaf_cube *const *cubes, uint32_t *items, size_t lo, size_t hi,
                    unsigned bit, size_t bounds[4])
{
	unsigned w = bit / 64;
	uint64_t m = (uint64_t)1 << (bit % 64);
	size_t a = lo, i = lo, b = hi;
	while (i < b) {
		const leaf_cube *c = cubes[items[i]];
		int side = !(c->fixed[w] & m) ? 2 : (c->value[w] & m) ? 1 : 0;
		uint32_t t = items[i];
		if (side == 0) {
			items[i++] = items[a];
			items[a++] = t;
		} else if (side == 2) {
			items[i] = items[--b];
			items[b] = t;
		} else {
			i++;
		}
	}
	bounds[0] = lo;
	bounds[1] = a;
	bounds[2] = b;
	bounds[3] = hi;
}

/* Builds the node for items[lo, hi) (not empty); INDEX_NONE when memory
 * runs out. */
static uint32_t build(cube_index *x, size_t lo, size_t hi, uint32_t parent)
{
	unsigned nw = x->nw;
	uint32_t id = node_new(x);
	if (id == INDEX_NONE)
		return INDEX_NONE;
	uint64_t *cf = x->common + (size_t)id * 2 * nw, *cv = cf + nw;
	const uint64_t *c0 = cube_bits(x, x->items[lo]);
	for (unsigned w = 0; w < nw; w++) {
		cf[w] = c0[w];
		cv[w] = c0[nw + w];
	}
	for (size_t i = lo + 1; i < hi; i++) {
		const uint64_t *c = cube_bits(x, x->items[i]);
		for (unsigned w = 0; w < nw; w++) {
			cf[w] &= c[w] & ~(c[nw + w] ^ cv[w]);
			cv[w] &= cf[w];
		}
	}
	uint32_t bit = hi - lo > INDEX_BUCKET ? choose_bit(x, lo, hi, cf) : INDEX_NONE;
	x->nodes[id] = (index_node){bit, {INDEX_NONE, INDEX_NONE, INDEX_NONE}, (uint32_t)lo,
	                            (uint32_t)(hi - lo), parent, (uint32_t)(hi - lo)};
	if (bit == INDEX_NONE) {
		for (size_t i = lo; i < hi; i++)
			x->bucket_of[x->items[i]] = id;
		return id;
	}
	/* three-way partition of items[lo, hi): fixed to 0, fixed to 1, free */
	unsigned w = bit / 64;
	uint64_t m = (uint64_t)1 << (bit % 64);
	size_t a = lo, i = lo, b = hi;
	while (i < b) {
		const uint64_t *c = cube_bits(x, x->items[i]);
		int side = !(c[w] & m) ? 2 : (c[nw + w] & m) ? 1 : 0;
		uint32_t t = x->items[i];
		if (side == 0) {
			x->items[i++] = x->items[a];
			x->items[a++] = t;
		} else if (side == 2) {
			x->items[i] = x->items[--b];
			x->items[b] = t;
		} else {
			i++;
		}
	}
	size_t bounds[4] = {lo, a, b, hi};
	for (int s = 0; s < 3; s++) {
		if (bounds[s] == bounds[s + 1])
			continue;
		uint32_t child = build(x, bounds[s], bounds[s + 1], id);
		if (child == INDEX_NONE)
			return INDEX_NONE;
		x->nodes[id].child[s] = child; /* x->nodes may have moved */
	}
	return id;
}

cube_index *cube_index_new(const leaf_cube *const *cubes, size_t n, unsigned size)
{
	cube_index *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->n = n;
	x->size = size;
	x->nw = words_for(size);
	x->bits = malloc(((n ? n : 1) * 2 * x->nw + 1) * sizeof *x->bits);
	for (size_t i = 0; x->bits && i < n; i++) {
		memcpy(x->bits + i * 2 * x->nw, cubes[i]->fixed, x->nw * sizeof *x->bits);
		memcpy(x->bits + i * 2 * x->nw + x->nw, cubes[i]->value, x->nw * sizeof *x->bits);
	}
	x->items = calloc(n ? n : 1, sizeof *x->items);
	x->count0 = calloc(size ? size : 1, sizeof *x->count0);
	x->count1 = calloc(size ? size : 1, sizeof *x->count1);
	x->seen = calloc(x->nw ? x->nw : 1, sizeof *x->seen);
	x->bucket_of = calloc(n ? n : 1, sizeof *x->bucket_of);
	x->on = malloc(n ? n : 1);
	bool ok = x->bits && x->items && x->count0 && x->count1 && x->seen && x->bucket_of && x->on &&
	          n < INDEX_NONE;
	for (size_t i = 0; ok && i < n; i++)
		x->items[i] = (uint32_t)i;
	if (ok)
		memset(x->on, 1, n);
	if (ok && n)
		ok = build(x, 0, n, INDEX_NONE) != INDEX_NONE;
	free(x->count0);
	free(x->count1);
	free(x->seen);
	x->count0 = x->count1 = NULL;
	x->seen = NULL;
	if (!ok) {
		cube_index_free(x);
		return NULL;
	}
	return x;
}

void cube_index_free(cube_index *x)
{
	if (!x)
		return;
	free(x->bits);
	free(x->items);
	free(x->nodes);
	free(x->common);
	free(x->bucket_of);
	free(x->on);
	free(x->count0);
	free(x->count1);
	free(x->seen);
	free(x);
}

static bool meets(const uint64_t *fa, const uint64_t *va, const uint64_t *fb,
                  const uint64_t *vb, unsigned nw)
{
	for (unsigned w = 0; w < nw; w++)
		if ((va[w] ^ vb[w]) & fa[w] & fb[w])
			return false;
	return true;
}

static bool visit_node(const cube_index *x, uint32_t id, const uint64_t *fixed,
                       const uint64_t *value, cube_visit *visit, void *ctx)
{
	unsigned nw = x->nw;
	const index_node *n = &x->nodes[id];
	const uint64_t *cf = x->common + (size_t)id * 2 * nw;
	if (!n->live || !meets(fixed, value, cf, cf + nw, nw))
		return true;
	if (n->bit == INDEX_NONE) {
		for (uint32_t i = n->first; i < n->first + n->count; i++) {
			const uint64_t *c = cube_bits(x, x->items[i]);
			if (x->on[x->items[i]] && meets(fixed, value, c, c + nw, nw) &&
			    !visit(ctx, x->items[i]))
				return false;
		}
		return true;
	}
	unsigned w = n->bit / 64;
	uint64_t m = (uint64_t)1 << (n->bit % 64);
	for (int s = 0; s < 3; s++) {
		if (n->child[s] == INDEX_NONE)
			continue;
		/* a query fixing the bit cannot meet the cubes fixing it otherwise */
		if (s < 2 && (fixed[w] & m) && !!(value[w] & m) != (s == 1))
			continue;
		if (!visit_node(x, n->child[s], fixed, value, visit, ctx))
			return false;
	}
	return true;
}

bool cube_index_meeting(const cube_index *x, const uint64_t *fixed, const uint64_t *value,
                        cube_visit *visit, void *ctx)
{
	if (!x->nnodes)
		return true;
	return visit_node(x, 0, fixed, value, visit, ctx);
}

void cube_index_switch(cube_index *x, size_t k, bool on)
{
	if (k >= x->n || x->on[k] == on)
		return;
	x->on[k] = on;
	for (uint32_t id = x->bucket_of[k]; id != INDEX_NONE; id = x->nodes[id].parent)
		x->nodes[id].live += on ? 1u : (uint32_t)-1;
}
