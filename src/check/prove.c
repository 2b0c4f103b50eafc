/*
 * prove.c - overlap, accounting and coverage proofs for every root.
 *
 * A leaf matches word w at generation g when (w & fixed) == value and g
 * lies in its effective gen range (ISASPEC.md section 3): its matching
 * set is a cube.  Two cubes meet exactly when no bit is fixed to
 * different values in both, and the words no leaf matches are the
 * universe minus a union of cubes, which cube subtraction splits into
 * disjoint cubes that can be counted exactly.  This is the cube engine.
 * The Z3 engine (z3.c) answers every question again through the solver;
 * tests hold the two to identical findings.
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prove_result_private {
	uint64_t **blocks; /* every bit vector the result points to */
	size_t nblocks, cap;
};

static uint64_t *result_bits(prove_result *r, unsigned nw)
{
	struct prove_result_private *p = r->priv;
	if (p->nblocks == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		uint64_t **b = realloc(p->blocks, cap * sizeof *b);
		if (!b)
			return NULL;
		p->blocks = b;
		p->cap = cap;
	}
	uint64_t *w = calloc(nw ? nw : 1, sizeof *w);
	if (w)
		p->blocks[p->nblocks++] = w;
	return w;
}

void prove_format_ranges(const uint64_t *w, unsigned size, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < size;) {
		if (!((w[i / 64] >> (i % 64)) & 1)) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < size && ((w[(j + 1) / 64] >> ((j + 1) % 64)) & 1))
			j++;
		int n = i == j ? snprintf(buf + used, len - used, "%s%u", used ? ", " : "", i)
		               : snprintf(buf + used, len - used, "%s%u..%u", used ? ", " : "", i, j);
		if (n < 0 || (size_t)n >= len - used) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		used += (size_t)n;
		i = j + 1;
	}
}

bool prove_leaf_matches(const spec_bitset *b, const uint64_t *w, uint32_t gen)
{
	if (gen < b->gen.min || gen > b->gen.max)
		return false;
	for (unsigned i = 0; i < b->mask.nwords; i++)
		if ((w[i] & b->mask.w[i] & ~b->dontcare.w[i]) != b->match.w[i])
			return false;
	return true;
}

prove_options prove_default_options(void)
{
	return (prove_options){.engine = PROVE_ENGINE_CUBE, .timeout_ms = 10000,
	                       .time_limit_s = 600, .max_holes = 8};
}

/* ---------------------------------------------------------- root views */

static bool view_init(root_view *v, const spec_root *r)
{
	v->root = r;
	v->size = r->bitset->size;
	v->nw = words_for(v->size);
	v->nleaves = r->nleaves;
	v->leaves = calloc(r->nleaves ? r->nleaves : 1, sizeof *v->leaves);
	uint64_t *store = v->store = calloc((size_t)v->nw * 2 * (r->nleaves ? r->nleaves : 1), sizeof *store);
	if (!v->leaves || !store) {
		free(v->leaves);
		free(store);
		return false;
	}
	for (size_t i = 0; i < r->nleaves; i++) {
		uint64_t *fixed = store + i * 2 * v->nw;
		leaf_cube_init(&v->leaves[i], r->leaves[i], fixed, fixed + v->nw, v->nw);
	}
	return true;
}

static void view_free(root_view *v)
{
	free(v->store);
	free(v->leaves);
}

static bool gen_meet(spec_gen a, spec_gen b, spec_gen *out)
{
	spec_gen g = {a.min > b.min ? a.min : b.min, a.max < b.max ? a.max : b.max};
	if (g.min > g.max || a.min > a.max || b.min > b.max)
		return false;
	*out = g;
	return true;
}

/* ------------------------------------------------------------ results */

typedef struct prover {
	const spec_model *m;
	const prove_options *opt;
	prove_result *r;
	spec_diags *diags;
	growable overlaps, accounting, intervals;
	/* The overlap search's index of the current root and the cubes it is
	 * over, kept for coverage: an interval whose live leaves are most of
	 * them uses it, the others switched off, instead of building its own
	 * (coverage_interval). */
	cube_index *kept;
	const leaf_cube **kept_live;
	size_t kept_n;
	bool oom;
} prover;

static void prover_drop_index(prover *p)
{
	cube_index_free(p->kept);
	free(p->kept_live);
	p->kept = NULL;
	p->kept_live = NULL;
	p->kept_n = 0;
}

/* ------------------------------------------------------------ overlaps */

static bool allow_matches(const prove_allow *a, const prove_overlap *o)
{
	const char *x = o->a->name, *y = o->b->name;
	bool names = (!strcmp(a->a, x) && !strcmp(a->b, y)) ||
	             (!strcmp(a->a, y) && !strcmp(a->b, x));
	return names && (!a->root || !strcmp(a->root, o->root->bitset->name)) &&
	       a->gen.min <= o->gen.min && o->gen.max <= a->gen.max;
}

static void add_overlap(prover *p, const root_view *v, size_t i, size_t j, spec_gen g,
                        const uint64_t *witness, bool unknown)
{
	prove_overlap *o = grow(&p->overlaps);
	uint64_t *w = result_bits(p->r, v->nw);
	if (!o || !w) {
		p->oom = true;
		return;
	}
	if (witness)
		memcpy(w, witness, v->nw * sizeof *w);
	*o = (prove_overlap){v->root, v->leaves[i].leaf, v->leaves[j].leaf, g, w, NULL, unknown};
	if (p->opt->allow && !unknown)
		for (size_t k = 0; k < p->opt->allow->count; k++)
			if (allow_matches(&p->opt->allow->items[k], o)) {
				o->allowed_by = &p->opt->allow->items[k];
				break;
			}
}

/* Every pair of live leaves that meet, each asked of the index once per
 * leaf (cost grows with leaves times the tree's depth, plus the pairs
 * found), reported as the pairwise loop would: by a, then b. */
typedef struct pair_search {
	const leaf_cube *const *live;
	size_t self;        /* the leaf asking */
	growable found;     /* uint32_t: later leaves it meets */
	bool oom;
} pair_search;

static bool pair_visit(void *ctx, size_t k)
{
	pair_search *ps = ctx;
	spec_gen g;
	if (k <= ps->self || !gen_meet(ps->live[ps->self]->gen, ps->live[k]->gen, &g))
		return true;
	uint32_t *slot = grow(&ps->found);
	if (!slot) {
		ps->oom = true;
		return false;
	}
	*slot = (uint32_t)k;
	return true;
}

static void overlaps_cube(prover *p, const root_view *v)
{
	uint64_t *w = calloc(v->nw, sizeof *w);
	const leaf_cube **live = calloc(v->nleaves + 1, sizeof *live);
	size_t *leaf_of = calloc(v->nleaves + 1, sizeof *leaf_of);
	cube_index *x = NULL;
	pair_search ps = {.found = {.size = sizeof(uint32_t)}};
	if (!w || !live || !leaf_of)
		goto oom;
	size_t n = 0;
	for (size_t i = 0; i < v->nleaves; i++)
		if (!v->leaves[i].empty && v->leaves[i].gen.min <= v->leaves[i].gen.max) {
			leaf_of[n] = i;
			live[n++] = &v->leaves[i];
		}
	x = cube_index_new(live, n, v->size);
	if (!x)
		goto oom;
	ps.live = live;
	for (size_t i = 0; i < n; i++) {
		ps.self = i;
		ps.found.n = 0;
		cube_index_meeting(x, live[i]->fixed, live[i]->value, pair_visit, &ps);
		if (ps.oom)
			goto oom;
		uint32_t *js = ps.found.items;
		if (ps.found.n > 1)
			qsort(js, ps.found.n, sizeof *js, cmp_u32);
		for (size_t f = 0; f < ps.found.n; f++) {
			const leaf_cube *a = live[i], *b = live[js[f]];
			spec_gen g;
			gen_meet(a->gen, b->gen, &g);
			for (unsigned k = 0; k < v->nw; k++)
				w[k] = a->value[k] | b->value[k];
			add_overlap(p, v, leaf_of[i], leaf_of[js[f]], g, w, false);
		}
	}
	prover_drop_index(p);
	p->kept = x;
	p->kept_live = live;
	p->kept_n = n;
	x = NULL;
	live = NULL;
	goto out;
oom:
	p->oom = true;
out:
	cube_index_free(x);
	free(ps.found.items);
	free(w);
	free(live);
	free(leaf_of);
}

/* A pair the Z3 engine decided (or could not). */
typedef struct z3_pair {
	uint32_t j;
	uint32_t gen;       /* the solver's generation */
	uint64_t *witness;  /* result-owned; NULL when unknown */
	bool unknown;
} z3_pair;

static int cmp_pair_j(const void *pa, const void *pb)
{
	const z3_pair *a = pa, *b = pb;
	return (a->j > b->j) - (a->j < b->j);
}

/* Leaf by leaf: the solver is asked for a word that leaf i and some later
 * leaf match; every later leaf its word matches overlaps i and is blocked
 * before asking again, until the answer is no.  One query per word found
 * and one per leaf, not one per pair.  Should a query come back unknown,
 * the later leaves not found yet are asked one pair at a time, so that
 * each undecided pair is named. */
static void overlaps_z3(prover *p, const root_view *v, z3_engine *z)
{
	size_t n = v->nleaves;
	uint64_t *w = calloc(v->nw, sizeof *w);
	bool *match = calloc(n + 1, sizeof *match), *done = calloc(n + 1, sizeof *done);
	growable row = {.size = sizeof(z3_pair)};
	if (!w || !match || !done)
		goto oom;
	/* The last leaf has no later leaf to overlap: no question to ask (a
	 * query of hit[i] && later[n], later[n] being false). */
	for (size_t i = 0; i + 1 < n; i++) {
		row.n = 0;
		z3_answer a = Z3_ANSWER_UNKNOWN;
		if (!z3_engine_out_of_time(z) && z3_overlap_begin(z, p->opt, i)) {
			for (;;) {
				uint32_t gen = 0;
				a = z3_overlap_next(z, match, w, &gen);
				if (a != Z3_ANSWER_YES)
					break;
				uint64_t *shared = result_bits(p->r, v->nw);
				if (!shared) {
					z3_overlap_end(z);
					goto oom;
				}
				memcpy(shared, w, v->nw * sizeof *w);
				bool any = false;
				for (size_t j = i + 1; j < n; j++) {
					if (!match[j] || done[j])
						continue;
					any = true;
					z3_pair *fp = grow(&row);
					if (!fp) {
						z3_overlap_end(z);
						goto oom;
					}
					*fp = (z3_pair){(uint32_t)j, gen, shared, false};
					done[j] = true;
					z3_overlap_block(z, j);
				}
				if (!any) {
					a = Z3_ANSWER_UNKNOWN; /* the model broke its own rule */
					break;
				}
			}
			z3_overlap_end(z);
		}
		bool stop = false;
		for (size_t j = i + 1; a == Z3_ANSWER_UNKNOWN && j < n; j++) {
			if (done[j])
				continue;
			if (z3_engine_out_of_time(z)) {
				/* the run's time is spent: the pairs left are counted,
				 * not listed one by one */
				size_t later = (n - 1 - i) * (n - 2 - i) / 2;
				for (size_t k = j; k < n; k++)
					later += !done[k];
				p->r->not_asked += later;
				p->r->any_unknown = true;
				stop = true;
				break;
			}
			uint32_t gen = 0;
			z3_answer pa = z3_overlap(z, i, j, w, &gen);
			if (pa == Z3_ANSWER_NO)
				continue;
			uint64_t *own = pa == Z3_ANSWER_YES ? result_bits(p->r, v->nw) : NULL;
			z3_pair *fp = grow(&row);
			if ((pa == Z3_ANSWER_YES && !own) || !fp)
				goto oom;
			if (own)
				memcpy(own, w, v->nw * sizeof *w);
			*fp = (z3_pair){(uint32_t)j, gen, own, pa == Z3_ANSWER_UNKNOWN};
		}
		z3_pair *rp = row.items;
		if (row.n > 1)
			qsort(rp, row.n, sizeof *rp, cmp_pair_j);
		for (size_t k = 0; k < row.n; k++) {
			done[rp[k].j] = false;
			spec_gen g;
			/* The gen range where both live is their intersection: the
			 * solver showed it is not empty by exhibiting `gen` in it. */
			if (!gen_meet(v->leaves[i].gen, v->leaves[rp[k].j].gen, &g))
				g = (spec_gen){rp[k].gen, rp[k].gen};
			add_overlap(p, v, i, rp[k].j, g, rp[k].witness, rp[k].unknown);
			if (rp[k].unknown)
				p->r->any_unknown = true;
		}
		if (stop)
			break;
	}
	goto out;
oom:
	p->oom = true;
out:
	free(row.items);
	free(match);
	free(done);
	free(w);
}

/* ---------------------------------------------------------- accounting */

/* The bit sets of every element that claims bits of a leaf: each
 * pattern, and each field and assert of a default case, on its chain.
 * One set serves leaf after leaf, its arrays grown as needed: an
 * allocation per leaf cost a 65,536-leaf root more than the sums. */
typedef struct claim_set {
	uint64_t **claims;
	uint64_t *store;
	size_t n, cap;
} claim_set;

static void claim_range(claim_set *cs, unsigned nw, unsigned low, unsigned high)
{
	uint64_t *c = cs->claims[cs->n] = cs->store + cs->n * nw;
	memset(c, 0, nw * sizeof *c);
	for (unsigned b = low; b <= high; b++)
		c[b / 64] |= (uint64_t)1 << (b % 64);
	cs->n++;
}

static bool leaf_claims(const spec_bitset *leaf, unsigned nw, claim_set *cs)
{
	size_t n = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		n += s->npatterns;
		const spec_case *dc = s->ncases ? &s->cases[s->ncases - 1] : NULL;
		for (size_t f = 0; dc && f < dc->nfields; f++)
			n += dc->fields[f].kind != SPEC_DERIVED;
	}
	cs->n = 0;
	if (n + 1 > cs->cap) {
		size_t cap = 2 * (n + 1);
		uint64_t **claims = realloc(cs->claims, cap * sizeof *claims);
		if (claims)
			cs->claims = claims;
		uint64_t *store = realloc(cs->store, cap * nw * sizeof *store);
		if (store)
			cs->store = store;
		if (!claims || !store)
			return false;
		cs->cap = cap;
	}
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		for (size_t i = 0; i < s->npatterns; i++)
			claim_range(cs, nw, s->patterns[i].low, s->patterns[i].high);
		const spec_case *dc = s->ncases ? &s->cases[s->ncases - 1] : NULL;
		for (size_t f = 0; dc && f < dc->nfields; f++)
			if (dc->fields[f].kind != SPEC_DERIVED)
				claim_range(cs, nw, dc->fields[f].low, dc->fields[f].high);
	}
	return true;
}

static void free_claims(claim_set *cs)
{
	free(cs->claims);
	free(cs->store);
}

static void accounting_cube(const uint64_t *const *claims, size_t n, unsigned size,
                            uint64_t *unaccounted, uint64_t *doubly)
{
	unsigned nw = words_for(size);
	for (unsigned k = 0; k < nw; k++) {
		uint64_t once = 0, twice = 0;
		for (size_t c = 0; c < n; c++) {
			twice |= once & claims[c][k];
			once |= claims[c][k];
		}
		unaccounted[k] = ~once & (k == nw - 1 ? top_mask(size) : ~(uint64_t)0);
		doubly[k] = twice;
	}
}

static void accounting(prover *p, const root_view *v, z3_engine *z)
{
	claim_set cs = {0};
	/* each leaf's sums go to scratch first: the result keeps only those
	 * of the leaves it reports */
	uint64_t *scratch = calloc(2 * (size_t)v->nw + 1, sizeof *scratch);
	uint64_t *un = scratch, *db = scratch + v->nw;
	if (!scratch)
		p->oom = true;
	for (size_t i = 0; scratch && i < v->nleaves; i++) {
		const spec_bitset *leaf = v->leaves[i].leaf;
		if (!leaf_claims(leaf, v->nw, &cs)) {
			p->oom = true;
			break;
		}
		bool unknown = false;
		/* as fresh vectors: an undecided answer may leave them unwritten */
		memset(scratch, 0, 2 * v->nw * sizeof *scratch);
		if (z)
			unknown = z3_accounting(z, (const uint64_t *const *)cs.claims, cs.n, un, db) ==
			          Z3_ANSWER_UNKNOWN;
		else
			accounting_cube((const uint64_t *const *)cs.claims, cs.n, v->size, un, db);
		if (!unknown && !bits_popcount(un, v->nw) && !bits_popcount(db, v->nw))
			continue;
		uint64_t *kept_un = result_bits(p->r, v->nw), *kept_db = result_bits(p->r, v->nw);
		prove_accounting *a = kept_un && kept_db ? grow(&p->accounting) : NULL;
		if (!a) {
			p->oom = true;
			break;
		}
		memcpy(kept_un, un, v->nw * sizeof *un);
		memcpy(kept_db, db, v->nw * sizeof *db);
		*a = (prove_accounting){leaf, kept_un, kept_db, unknown};
		p->r->any_unknown |= unknown;
	}
	free_claims(&cs);
	free(scratch);
}

/* ----------------------------------------------------------- coverage */

/* A list of disjoint cubes, each 2*nw words (fixed, value) plus its
 * count of free bits. */
typedef struct cube_list {
	uint64_t *w;
	unsigned *free_bits;
	size_t n, cap;
	unsigned nw;
} cube_list;

static uint64_t *cube_push(cube_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		uint64_t *w = realloc(l->w, cap * 2 * l->nw * sizeof *w);
		if (!w)
			return NULL;
		l->w = w;
		unsigned *f = realloc(l->free_bits, cap * sizeof *f);
		if (!f)
			return NULL;
		l->free_bits = f;
		l->cap = cap;
	}
	return l->w + l->n++ * 2 * l->nw;
}

/* The words no live leaf matches, as disjoint cubes, by splitting the
 * word space on one bit at a time (the bit most of the remaining leaves
 * fix, as a BDD would): a region no leaf touches is a hole, a region
 * some leaf covers whole is decoded, anything else is split again.  Far
 * fewer pieces than subtracting leaf after leaf.  Recursion depth is at
 * most the root's size. */
typedef struct splitter {
	const uint64_t *store; /* per leaf of the root: fixed, then value, nw words each */
	unsigned size, nw;
	unsigned *bitcount; /* scratch: per bit, how many leaves fix it */
	uint64_t *touched;  /* scratch: the bits counted */
	/* The lists of leaves (their numbers) of the regions on the current
	 * path, one after another, each popped when its region is done: one
	 * buffer rather than an allocation per region. */
	uint32_t *lists;
	size_t nlists, lists_cap;
	cube_list *out;
	bool oom;
	bool too_many; /* more pieces than PROVE_MAX_PIECES: count unknown */
} splitter;

/* A hostile spec can make the undecoded set need exponentially many
 * cubes (think parity); past this many the count is reported unknown
 * rather than letting time and memory run away. */
#define PROVE_MAX_PIECES (1u << 20)

/* Splits the region (fixed, value) whose leaves that can meet it are the
 * n of sp->lists from parent_at. */
static void split(splitter *sp, size_t parent_at, size_t n, uint64_t *fixed,
                  uint64_t *value, unsigned nfree)
{
	unsigned nw = sp->nw;
	if (sp->oom || sp->too_many)
		return;
	if (sp->out->n >= PROVE_MAX_PIECES) {
		sp->too_many = true;
		return;
	}
	/* Leaves that can still meet this region; one that fixes nothing
	 * beyond it covers it whole. */
	size_t at = sp->nlists;
	uint32_t *lists = spec_grow(sp->lists, at + n + 1, &sp->lists_cap, sizeof *lists, 1024);
	if (!lists) {
		sp->oom = true;
		return;
	}
	sp->lists = lists;
	const uint32_t *idx = lists + parent_at;
	uint32_t *keep = lists + at;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const uint64_t *cf = sp->store + (size_t)idx[i] * 2 * nw, *cv = cf + nw;
		bool meet = true, inside = true;
		for (unsigned w = 0; w < nw && meet; w++) {
			meet = ((value[w] ^ cv[w]) & fixed[w] & cf[w]) == 0;
			inside &= (cf[w] & ~fixed[w]) == 0;
		}
		if (!meet)
			continue;
		if (inside)
			return; /* decoded */
		keep[k++] = idx[i];
	}
	if (!k) {
		uint64_t *d = cube_push(sp->out);
		if (!d) {
			sp->oom = true;
		} else {
			memcpy(d, fixed, nw * sizeof *d);
			memcpy(d + nw, value, nw * sizeof *d);
			sp->out->free_bits[sp->out->n - 1] = nfree;
		}
		return;
	}
	unsigned best = 0;
	for (size_t i = 0; i < k; i++)
		bitcount_add(sp->bitcount, sp->touched, sp->store + (size_t)keep[i] * 2 * nw, fixed, nw);
	bitcount_best(sp->bitcount, sp->touched, nw, &best);
	uint64_t bit = (uint64_t)1 << (best % 64);
	unsigned w = best / 64;
	sp->nlists = at + k;
	fixed[w] |= bit;
	value[w] &= ~bit;
	split(sp, at, k, fixed, value, nfree - 1);
	value[w] |= bit;
	split(sp, at, k, fixed, value, nfree - 1);
	fixed[w] &= ~bit;
	value[w] &= ~bit;
	sp->nlists = at;
}

/* Grows a hole into a largest unallocated cube: frees its fixed bits one
 * at a time, top bit first, keeping each freed bit while no live leaf
 * reaches into the bigger cube.  The result is maximal (freeing any one
 * more bit would take in a decoded word); such cubes may overlap each
 * other, which is what a person looking for free encoding space wants. */
static bool stop_at_first(void *ctx, size_t k)
{
	(void)ctx;
	(void)k;
	return false;
}

/* live indexes the live leaves (with any others switched off). */
static unsigned expand_hole(uint64_t *fixed, uint64_t *value, unsigned free_bits,
                            const cube_index *live, unsigned size)
{
	for (unsigned b = size; b-- > 0;) {
		uint64_t bit = (uint64_t)1 << (b % 64);
		unsigned k = b / 64;
		if (!(fixed[k] & bit))
			continue;
		/* The cube is free, so no live leaf meets the cube with bit b
		 * freed exactly when none meets its other half, b flipped: ask
		 * that, which fixes one bit more for the index to cut on. */
		value[k] ^= bit;
		if (cube_index_meeting(live, fixed, value, stop_at_first, NULL)) {
			fixed[k] &= ~bit;
			value[k] &= ~bit;
			free_bits++;
		} else {
			value[k] ^= bit;
		}
	}
	return free_bits;
}

/* The largest free cubes, exactly.  A cube is free when, for every live
 * leaf, it fixes some bit the leaf fixes to the other value (it "hits"
 * the leaf); it is maximal when each of its fixed bits is the only one
 * hitting some leaf.  Growing pieces of the decomposition finds maximal
 * cubes but not always the largest (leaves 10xx and x1x0 leave 00xx,
 * x1x1 and 0xx1; growing finds the first two).  So the holes are then
 * searched for, as minimal hitting sets: from the empty cube, pick the
 * unhit leaf with the fewest bits left to hit it with, and try each
 * (a literal once tried is banned in its later siblings' subtrees, so
 * each set is built once: Murakami and Uno's MMCS order).  Every maximal
 * cube with k fixed bits is reached along a path of k literals, so a
 * branch is cut as soon as it cannot end below the smallest of the want
 * largest kept: those are then the want largest there are.  The search
 * has a budget of steps; past it, what was found is kept and marked not
 * proved (holes_exact). */
#define HOLE_SEARCH_STEPS 200000u
/* ... and of leaves looked at (each step reads its parent's list of
 * unhit leaves), so that many leaves cannot make the steps slow: Mesa's
 * ir3 needs a few hundred steps and under 10^5 leaf looks per interval. */
#define HOLE_SEARCH_LOOKS 20000000u

/* One search node's pass over its parent's list of unhit leaves (see
 * hole_search_from), the search's inner loop: per live leaf, the bits
 * it fixes to 0 and those it fixes to 1 side by side (nw words each),
 * read straight from one array rather than through the leaf's cube. */
typedef struct node_scan {
	const uint64_t *hits; /* per live leaf, 2 * nw words: fixed to 0, fixed to 1 */
	const uint64_t *open; /* 2 * nw words: the bits a literal may still set to 1,
	                       * then those it may set to 0 (not fixed, not banned) */
	size_t hit_at;        /* the new literal hits a leaf whose word hit_at of */
	uint64_t hit_bit;     /* hits has hit_bit (0: there is no new literal) */
} node_scan;

#define SCAN_DEAD (SIZE_MAX - 1) /* some leaf can no longer be hit */

/* Copies the leaves of parent[0 .. nparent) that the new literal does not
 * hit to unhit (*nunhit of them) and returns the first of those with the
 * fewest literals left to hit it, SIZE_MAX when there is none, or
 * SCAN_DEAD at the first with none left.  Inlined into each of the
 * callers below with nw a constant where it can be, so that the usual
 * root of at most 64 bits runs one word without a loop. */
static inline __attribute__((always_inline)) size_t
scan_node_nw(const node_scan *s, unsigned nw, const uint32_t *parent, size_t nparent,
             uint32_t *unhit, size_t *nunhit)
{
	const uint64_t *hits = s->hits, *open = s->open, hit_bit = s->hit_bit;
	const size_t hit_at = s->hit_at;
	size_t n = 0, pick = SIZE_MAX;
	unsigned fewest = UINT32_MAX;
	for (size_t i = 0; i < nparent; i++) {
		const uint64_t *c = hits + (size_t)parent[i] * 2 * nw;
		if (c[hit_at] & hit_bit)
			continue;
		unhit[n++] = parent[i];
		/* hitting c fixes one of its bits, not fixed yet, to the value
		 * c does not want, unless that literal is banned here */
		unsigned avail = 0;
		for (unsigned w = 0; w < nw; w++)
			avail += (unsigned)__builtin_popcountll((c[w] & open[w]) |
			                                        (c[nw + w] & open[nw + w]));
		if (!avail)
			return SCAN_DEAD;
		if (avail < fewest) {
			fewest = avail;
			pick = parent[i];
		}
	}
	*nunhit = n;
	return pick;
}

static inline __attribute__((always_inline)) size_t
scan_node_any(const node_scan *s, unsigned nw, const uint32_t *parent, size_t nparent,
              uint32_t *unhit, size_t *nunhit)
{
	return nw == 1 ? scan_node_nw(s, 1, parent, nparent, unhit, nunhit)
	               : scan_node_nw(s, nw, parent, nparent, unhit, nunhit);
}

typedef size_t scan_node_fn(const node_scan *s, unsigned nw, const uint32_t *parent,
                            size_t nparent, uint32_t *unhit, size_t *nunhit);

static size_t scan_node_plain(const node_scan *s, unsigned nw, const uint32_t *parent,
                              size_t nparent, uint32_t *unhit, size_t *nunhit)
{
	return scan_node_any(s, nw, parent, nparent, unhit, nunhit);
}

#if defined(__x86_64__) || defined(__i386__)
/* The same with the popcnt instruction, which the x86-64 baseline the
 * build targets lacks (its popcount is a call into libgcc: a third of
 * this loop's time); chosen at run time where the processor has it. */
__attribute__((target("popcnt")))
static size_t scan_node_popcnt(const node_scan *s, unsigned nw, const uint32_t *parent,
                               size_t nparent, uint32_t *unhit, size_t *nunhit)
{
	return scan_node_any(s, nw, parent, nparent, unhit, nunhit);
}
#endif

static scan_node_fn *scan_node_choose(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (__builtin_cpu_supports("popcnt"))
		return scan_node_popcnt;
#endif
	return scan_node_plain;
}

typedef struct hole_search {
	const leaf_cube *const *live;
	const uint64_t *hits;      /* per live leaf, as node_scan has them */
	scan_node_fn *scan;        /* scan_node_choose's */
	const cube_index *index;   /* over live (any other cubes switched off) */
	unsigned size, nw;
	uint64_t *fixed, *value;   /* the cube being built */
	uint64_t *ban0, *ban1;     /* literals banned here: bit fixed to 0, to 1 */
	uint64_t *open;            /* scratch: node_scan's open, 2 * nw */
	uint64_t *grown;           /* scratch: a found cube grown (fixed, value) */
	unsigned nfixed;
	unsigned bar;              /* hole_bar, kept up to date by hole_keep */
	prove_cube *keep;          /* the largest found, at most want */
	size_t nkeep, want;
	prove_result *r;           /* owns the kept cubes' bits */
	size_t steps, looks;
	/* The unhit lists of the nodes on the current path, one after
	 * another (a node's list is popped when it returns), and each depth's
	 * tried literals: one buffer each rather than an allocation per node,
	 * which under ASan's quarantine cost more than the search itself. */
	uint32_t *lists;
	size_t nlists, lists_cap;
	uint64_t *tried; /* 2 * nw per depth, size + 1 depths */
	bool cut, oom;
} hole_search;

/* Fixed bits of the smallest kept cube; a new one must fix fewer. */
static unsigned hole_bar(const hole_search *h)
{
	if (h->nkeep < h->want)
		return h->size + 1;
	unsigned worst = h->keep[0].free_bits;
	for (size_t i = 1; i < h->nkeep; i++)
		if (h->keep[i].free_bits < worst)
			worst = h->keep[i].free_bits;
	return h->size - worst;
}

/* Keeps a free cube (made maximal first) unless it is kept already or
 * smaller than every kept one when the list is full. */
static void hole_keep(hole_search *h, const uint64_t *fixed, const uint64_t *value)
{
	unsigned nw = h->nw;
	/* Inside a kept cube: growing it finds nothing new that matters,
	 * since the search reaches every maximal cube along its own path. */
	for (size_t i = 0; i < h->nkeep; i++) {
		bool inside = true;
		for (unsigned w = 0; w < nw && inside; w++)
			inside = (h->keep[i].fixed[w] & ~fixed[w]) == 0 &&
			         ((h->keep[i].value[w] ^ value[w]) & h->keep[i].fixed[w]) == 0;
		if (inside)
			return;
	}
	uint64_t *fx = h->grown, *vl = h->grown + nw;
	memcpy(fx, fixed, nw * sizeof *fx);
	memcpy(vl, value, nw * sizeof *vl);
	unsigned fb = expand_hole(fx, vl, h->size - bits_popcount(fx, nw), h->index, h->size);
	for (size_t i = 0; i < h->nkeep; i++)
		if (!memcmp(h->keep[i].fixed, fx, nw * sizeof *fx) &&
		    !memcmp(h->keep[i].value, vl, nw * sizeof *vl))
			return;
	size_t slot = h->nkeep;
	if (h->nkeep == h->want) {
		slot = 0;
		for (size_t i = 1; i < h->nkeep; i++)
			if (h->keep[i].free_bits < h->keep[slot].free_bits)
				slot = i;
		if (fb <= h->keep[slot].free_bits)
			return;
	}
	uint64_t *kf = result_bits(h->r, nw), *kv = result_bits(h->r, nw);
	if (!kf || !kv) {
		h->oom = true;
		return;
	}
	memcpy(kf, fx, nw * sizeof *kf);
	memcpy(kv, vl, nw * sizeof *kv);
	h->keep[slot] = (prove_cube){kf, kv, fb};
	if (slot == h->nkeep)
		h->nkeep++;
	h->bar = hole_bar(h);
}

/* A search node: the leaves its cube does not hit yet are those of its
 * parent's list that the literal just added (bit `lit` set to `to1`)
 * does not hit, in document order.  Among them: the one with the fewest
 * literals left to hit it (the first among equals); one with none ends
 * the branch. */
static void hole_search_from(hole_search *h, size_t parent_at, size_t nparent, unsigned lit,
                             bool to1)
{
	unsigned nw = h->nw;
	if (h->cut || h->oom)
		return;
	h->looks += nparent;
	if (++h->steps > HOLE_SEARCH_STEPS || h->looks > HOLE_SEARCH_LOOKS) {
		h->cut = true;
		return;
	}
	size_t at = h->nlists;
	uint32_t *lists = spec_grow(h->lists, at + nparent, &h->lists_cap, sizeof *lists, 1024);
	if (!lists) {
		h->oom = true;
		return;
	}
	h->lists = lists;
	for (unsigned w = 0; w < nw; w++) {
		h->open[w] = ~h->ban1[w] & ~h->fixed[w];
		h->open[nw + w] = ~h->ban0[w] & ~h->fixed[w];
	}
	/* the new literal hits a leaf that fixes its bit to the other value */
	node_scan ns = {h->hits, h->open, 0, 0};
	if (lit != UINT32_MAX) {
		ns.hit_at = (to1 ? 0 : nw) + lit / 64;
		ns.hit_bit = (uint64_t)1 << (lit % 64);
	}
	size_t nunhit = 0;
	size_t pick = h->scan(&ns, nw, lists + parent_at, nparent, lists + at, &nunhit);
	if (pick == SCAN_DEAD)
		return; /* this branch can never hit some leaf */
	if (pick == SIZE_MAX) {
		hole_keep(h, h->fixed, h->value);
		return;
	}
	if (h->nfixed + 1 >= h->bar)
		return;
	h->nlists = at + nunhit;
	const leaf_cube *c = h->live[pick];
	/* the literals tried here, banned for the later ones and undone at
	 * the end (a depth is nfixed, at most size) */
	uint64_t *tried0 = h->tried + (size_t)h->nfixed * 2 * nw, *tried1 = tried0 + nw;
	memset(tried0, 0, 2 * nw * sizeof *tried0);
	/* c's literals, lowest bit first: the bits it fixes that the cube
	 * does not (the recursion leaves h->fixed as it found it) */
	bool stop = false;
	for (unsigned w = 0; w < nw && !stop; w++)
		for (uint64_t lits = c->fixed[w] & ~h->fixed[w]; lits && !stop; lits &= lits - 1) {
			stop = h->cut || h->oom;
			if (stop)
				break;
			unsigned b = w * 64 + (unsigned)__builtin_ctzll(lits);
			uint64_t bit = lits & -lits;
			bool one = !(c->value[w] & bit); /* the value c does not want */
			if ((one ? h->ban1[w] : h->ban0[w]) & bit)
				continue;
			if (h->nfixed + 1 >= h->bar) {
				stop = true;
				break;
			}
			h->fixed[w] |= bit;
			if (one)
				h->value[w] |= bit;
			h->nfixed++;
			hole_search_from(h, at, nunhit, b, one);
			h->nfixed--;
			h->fixed[w] &= ~bit;
			h->value[w] &= ~bit;
			if (one) {
				h->ban1[w] |= bit;
				tried1[w] |= bit;
			} else {
				h->ban0[w] |= bit;
				tried0[w] |= bit;
			}
		}
	for (unsigned w = 0; w < nw; w++) {
		h->ban0[w] &= ~tried0[w];
		h->ban1[w] &= ~tried1[w];
	}
	h->nlists = at;
}

/* The coverage of interval g, whose live leaves are leaves[on[0 ..
 * nlive-1]] (in document order). */
static void coverage_interval(prover *p, const root_view *v, spec_gen g, const uint32_t *on,
                              size_t nlive, z3_engine *z)
{
	unsigned nw = v->nw;
	const leaf_cube **live = calloc(nlive + 1, sizeof *live);
	cube_list a = {.nw = nw};
	uint32_t *idx = calloc(nlive + 1, sizeof *idx);
	uint64_t *fixed = calloc(nw, sizeof *fixed), *value = calloc(nw, sizeof *value);
	unsigned *bitcount = calloc(v->size, sizeof *bitcount);
	uint64_t *touched = calloc(nw, sizeof *touched);
	cube_index *index = NULL;
	if (!live || !idx || !fixed || !value || !bitcount || !touched) {
		p->oom = true;
		goto out;
	}
	for (size_t i = 0; i < nlive; i++) {
		idx[i] = (uint32_t)i;
		live[i] = &v->leaves[on[i]];
	}
	/* The overlap search's index is over every leaf that can be live, in
	 * document order, so this interval's live leaves are a subsequence of
	 * its cubes: use it, with the others switched off, when most are
	 * live, rather than build another. */
	if (p->kept && nlive * 2 >= p->kept_n) {
		size_t k = 0;
		bool sub = nlive > 0;
		for (size_t i = 0; sub && i < nlive; i++, k++) {
			while (k < p->kept_n && p->kept_live[k] != live[i])
				k++;
			sub = k < p->kept_n; /* else not a subsequence after all: build one */
		}
		if (sub) {
			index = p->kept;
			for (size_t i = 0, j = 0; j < p->kept_n; j++) {
				bool lives = i < nlive && p->kept_live[j] == live[i];
				i += lives;
				cube_index_switch(index, j, lives);
			}
		}
	}
	if (!index)
		index = cube_index_new(live, nlive, v->size);
	if (!index) {
		p->oom = true;
		goto out;
	}
	splitter sp = {.store = v->store, .size = v->size, .nw = nw, .bitcount = bitcount,
	               .touched = touched, .out = &a};
	sp.lists = spec_grow(NULL, nlive + 1, &sp.lists_cap, sizeof *sp.lists, 1024);
	if (sp.lists) {
		memcpy(sp.lists, on, nlive * sizeof *sp.lists);
		sp.nlists = nlive;
		split(&sp, 0, nlive, fixed, value, v->size);
	} else {
		sp.oom = true;
	}
	free(sp.lists);
	if (sp.oom) {
		p->oom = true;
		goto out;
	}
	if (sp.too_many) {
		prove_interval *iv = grow(&p->intervals);
		if (!iv) {
			p->oom = true;
			goto out;
		}
		*iv = (prove_interval){.root = v->root, .gen = g, .live_leaves = nlive,
		                       .unknown = true, .limit = true};
		p->r->any_unknown = true;
		spec_diag_add(p->diags, SPEC_WARNING, "coverage-limit", v->root->bitset->loc,
		              "the undecoded words of '%s' at gen %u..%u need more than %u cubes: "
		              "not counted", v->root->bitset->name, g.min, g.max, PROVE_MAX_PIECES);
		goto out;
	}
	prove_interval *iv = grow(&p->intervals);
	if (!iv) {
		p->oom = true;
		goto out;
	}
	iv->root = v->root;
	iv->gen = g;
	iv->live_leaves = nlive;
	/* count = sum of 2^free; fraction = sum of 2^(free - size) */
	long double fr = 0;
	for (size_t i = 0; i < a.n; i++) {
		count_add_pow2(&iv->undecoded, a.free_bits[i]);
		fr += ldexpl(1.0L, (int)a.free_bits[i] - (int)v->size);
	}
	iv->fraction = (double)fr;
	if (z) {
		prove_cube *all = calloc(a.n + 1, sizeof *all);
		if (!all) {
			p->oom = true;
			goto out;
		}
		for (size_t i = 0; i < a.n; i++)
			all[i] = (prove_cube){a.w + i * 2 * nw, a.w + i * 2 * nw + nw, a.free_bits[i]};
		z3_answer ans = z3_coverage(z, p->opt, g, all, a.n);
		free(all);
		if (ans == Z3_ANSWER_UNKNOWN) {
			iv->unknown = true;
			p->r->any_unknown = true;
		} else if (ans == Z3_ANSWER_YES) {
			spec_diag_add(p->diags, SPEC_ERROR, "internal", v->root->bitset->loc,
			              "the solver disagrees with the cube engine on the undecoded "
			              "words of '%s' at gen %u..%u: please report this",
			              v->root->bitset->name, g.min, g.max);
			iv->unknown = true;
			p->r->any_unknown = true;
		}
	}
	/* The largest holes: grow the biggest pieces of the decomposition into
	 * maximal cubes, drop repeats, keep the largest. */
	size_t want = p->opt->max_holes;
	size_t grow_n = a.n < 4 * want + 16 ? a.n : 4 * want + 16;
	/* the grow_n largest pieces, equal ones in order: one counting pass */
	size_t *pick = calloc(grow_n + 1, sizeof *pick), *count = calloc(v->size + 2, sizeof *count);
	prove_cube *cand = calloc(grow_n + 1, sizeof *cand);
	iv->holes = calloc(want ? want : 1, sizeof *iv->holes);
	if (!pick || !count || !cand || !iv->holes) {
		free(pick);
		free(count);
		free(cand);
		p->oom = true;
		goto out;
	}
	for (size_t i = 0; i < a.n; i++)
		count[a.free_bits[i]]++;
	unsigned bar = v->size + 1;
	size_t above = 0; /* pieces larger than bar */
	while (bar > 0 && above + count[bar - 1] < grow_n)
		above += count[--bar];
	size_t npick = 0, at_bar = grow_n - above;
	if (bar > 0)
		bar--;
	for (size_t i = 0; i < a.n && npick < grow_n; i++)
		if (a.free_bits[i] > bar || (a.free_bits[i] == bar && at_bar && at_bar--))
			pick[npick++] = i;
	for (size_t i = 1; i < npick; i++)
		for (size_t j = i; j > 0 && a.free_bits[pick[j]] > a.free_bits[pick[j - 1]]; j--) {
			size_t t = pick[j];
			pick[j] = pick[j - 1];
			pick[j - 1] = t;
		}
	free(count);
	size_t ncand = 0;
	for (size_t h = 0; h < npick; h++) {
		size_t best = pick[h];
		uint64_t *fx = result_bits(p->r, nw), *vl = result_bits(p->r, nw);
		if (!fx || !vl) {
			p->oom = true;
			break;
		}
		memcpy(fx, a.w + best * 2 * nw, nw * sizeof *fx);
		memcpy(vl, a.w + best * 2 * nw + nw, nw * sizeof *vl);
		unsigned fb = expand_hole(fx, vl, a.free_bits[best], index, v->size);
		bool seen = false;
		for (size_t c = 0; c < ncand && !seen; c++)
			seen = !memcmp(cand[c].fixed, fx, nw * sizeof *fx) &&
			       !memcmp(cand[c].value, vl, nw * sizeof *vl);
		if (!seen)
			cand[ncand++] = (prove_cube){fx, vl, fb};
	}
	for (size_t h = 0; h < want && h < ncand; h++) {
		size_t best = ncand;
		for (size_t c = 0; c < ncand; c++)
			if (cand[c].fixed && (best == ncand || cand[c].free_bits > cand[best].free_bits))
				best = c;
		iv->holes[iv->nholes++] = cand[best];
		cand[best].fixed = NULL;
	}
	free(cand);
	free(pick);
	/* then the exact search, which the grown ones give a bar to start */
	iv->holes_exact = !want;
	uint64_t *scratch = want ? calloc(8 * (size_t)nw, sizeof *scratch) : NULL;
	uint64_t *tried = want ? calloc(((size_t)v->size + 1) * 2 * nw, sizeof *tried) : NULL;
	uint32_t *lists = want ? malloc((nlive + 1) * sizeof *lists) : NULL;
	uint64_t *hits = want ? malloc((nlive + 1) * 2 * nw * sizeof *hits) : NULL;
	if (want && (!scratch || !tried || !lists || !hits)) {
		free(scratch);
		free(tried);
		free(lists);
		free(hits);
		p->oom = true;
		goto out;
	}
	if (want) {
		for (size_t i = 0; i < nlive; i++)
			for (unsigned w = 0; w < nw; w++) {
				hits[i * 2 * nw + w] = live[i]->fixed[w] & ~live[i]->value[w];
				hits[i * 2 * nw + nw + w] = live[i]->fixed[w] & live[i]->value[w];
			}
		hole_search hs = {.live = live, .hits = hits, .scan = scan_node_choose(),
		                  .index = index, .size = v->size, .nw = nw,
		                  .fixed = scratch, .value = scratch + nw, .ban0 = scratch + 2 * nw,
		                  .ban1 = scratch + 3 * nw, .grown = scratch + 4 * nw,
		                  .open = scratch + 6 * nw,
		                  .keep = iv->holes, .nkeep = iv->nholes, .want = want, .r = p->r,
		                  .lists = lists, .nlists = nlive, .lists_cap = nlive + 1,
		                  .tried = tried};
		memcpy(lists, idx, nlive * sizeof *lists);
		hs.bar = hole_bar(&hs);
		hole_search_from(&hs, 0, nlive, UINT32_MAX, false);
		free(scratch);
		free(tried);
		free(hits);
		free(hs.lists);
		if (hs.oom) {
			p->oom = true;
			goto out;
		}
		iv->nholes = hs.nkeep;
		iv->holes_exact = !hs.cut;
		/* largest first; equal ones in the order found */
		for (size_t i = 1; i < iv->nholes; i++)
			for (size_t j = i; j > 0 && iv->holes[j].free_bits > iv->holes[j - 1].free_bits;
			     j--) {
				prove_cube t = iv->holes[j];
				iv->holes[j] = iv->holes[j - 1];
				iv->holes[j - 1] = t;
			}
	}
out:
	if (index != p->kept)
		cube_index_free(index);
	free(live);
	free(idx);
	free(fixed);
	free(value);
	free(bitcount);
	free(touched);
	free(a.w);
	free(a.free_bits);
}


/* The leaf numbers on[0 .. nlive) (distinct, below n) in order, into
 * sorted.  When they are an eighth of the n or more, by marking them
 * (mark is n zeroes, and is left so) and sweeping the n: linear, not a
 * sort of every live leaf per interval.  Fewer are sorted. */
static void live_in_order(const uint32_t *on, size_t nlive, size_t n, unsigned char *mark,
                          uint32_t *sorted)
{
	if (nlive * 8 < n) {
		memcpy(sorted, on, nlive * sizeof *sorted);
		if (nlive > 1)
			qsort(sorted, nlive, sizeof *sorted, cmp_u32);
		return;
	}
	for (size_t i = 0; i < nlive; i++)
		mark[on[i]] = 1;
	for (size_t leaf = 0, k = 0; k < nlive; leaf++)
		if (mark[leaf]) {
			mark[leaf] = 0;
			sorted[k++] = (uint32_t)leaf;
		}
}

typedef struct gen_event {
	uint32_t at;   /* the first generation where it holds */
	uint32_t leaf;
	bool start;    /* starts living at `at`; otherwise stops living there */
} gen_event;

static int cmp_event(const void *pa, const void *pb)
{
	const gen_event *a = pa, *b = pb;
	return (a->at > b->at) - (a->at < b->at);
}

/* Cuts the root's gen range where the set of live leaves changes and
 * sweeps it, keeping that set up to date from each leaf's start and stop,
 * so that an interval costs what lives in it, not every leaf.  Between
 * two neighbouring cut points the live set differs: each cut point is
 * where some leaf with a gen range starts or stops, and a leaf that stops
 * there either lived since the last cut or started at one in between. */
static void coverage(prover *p, const root_view *v, z3_engine *z)
{
	spec_gen rg = v->root->bitset->gen;
	if (rg.min > rg.max)
		return;
	size_t n = v->nleaves;
	uint32_t *pts = calloc(2 * n + 2, sizeof *pts), *on = calloc(n + 1, sizeof *on);
	uint32_t *slot = calloc(n + 1, sizeof *slot), *sorted = calloc(n + 1, sizeof *sorted);
	gen_event *ev = calloc(2 * n + 1, sizeof *ev);
	unsigned char *mark = calloc(n + 1, 1);
	if (!pts || !on || !slot || !sorted || !ev || !mark) {
		p->oom = true;
		goto out;
	}
	size_t npts = 0, nev = 0;
	pts[npts++] = rg.min;
	for (size_t i = 0; i < n; i++) {
		spec_gen g = v->leaves[i].gen;
		if (g.min > g.max || g.max < rg.min || g.min > rg.max)
			continue; /* never lives here */
		if (g.min > rg.min)
			pts[npts++] = g.min;
		if (g.max < rg.max)
			pts[npts++] = g.max + 1;
		if (v->leaves[i].empty)
			continue; /* cuts the range, matches nothing */
		ev[nev++] = (gen_event){g.min > rg.min ? g.min : rg.min, (uint32_t)i, true};
		if (g.max < rg.max)
			ev[nev++] = (gen_event){g.max + 1, (uint32_t)i, false};
	}
	size_t u = gen_cuts_sort(pts, npts);
	qsort(ev, nev, sizeof *ev, cmp_event);
	size_t nlive = 0, e = 0, spent = 0;
	size_t budget = n > PROVE_MAX_COVERAGE_LEAVES / PROVE_COVERAGE_PER_LEAF
	                ? n * PROVE_COVERAGE_PER_LEAF : PROVE_MAX_COVERAGE_LEAVES;
	bool over = false;
	for (size_t i = 0; i < u && !p->oom; i++) {
		uint32_t lo = pts[i], hi = i + 1 < u ? pts[i + 1] - 1 : rg.max;
		for (; e < nev && ev[e].at <= lo; e++) {
			uint32_t leaf = ev[e].leaf;
			if (ev[e].start) {
				slot[leaf] = (uint32_t)nlive;
				on[nlive++] = leaf;
			} else {
				/* swap-remove: the order is restored below */
				uint32_t last = on[--nlive];
				on[slot[leaf]] = last;
				slot[last] = slot[leaf];
			}
		}
		spent += nlive;
		if (spent > budget) {
			if (!over)
				spec_diag_add(p->diags, SPEC_WARNING, "coverage-limit",
				              v->root->bitset->loc,
				              "coverage of '%s' from gen %u on is not computed: its %zu "
				              "intervals have more than %zu live leaves in all",
				              v->root->bitset->name, lo, u, budget);
			over = true;
			prove_interval *iv = grow(&p->intervals);
			if (!iv) {
				p->oom = true;
				break;
			}
			*iv = (prove_interval){.root = v->root, .gen = {lo, hi}, .live_leaves = nlive,
			                       .unknown = true, .limit = true, .budget = true,
			                       .budget_leaves = budget};
			p->r->any_unknown = true;
			continue;
		}
		live_in_order(on, nlive, n, mark, sorted);
		coverage_interval(p, v, (spec_gen){lo, hi}, sorted, nlive, z);
	}
out:
	free(mark);
	free(pts);
	free(on);
	free(slot);
	free(sorted);
	free(ev);
}

/* ---------------------------------------------------------------- main */

bool prove_model(const spec_model *m, const prove_options *opt, prove_result *out,
                 spec_diags *diags)
{
	prove_options run = opt ? *opt : prove_default_options();
	z3_start_run(&run);
	opt = &run;
	*out = (prove_result){0};
	out->priv = calloc(1, sizeof *out->priv);
	if (!out->priv)
		return false;
	prover p = {.m = m, .opt = opt, .r = out, .diags = diags,
	            .overlaps = {.size = sizeof(prove_overlap)},
	            .accounting = {.size = sizeof(prove_accounting)},
	            .intervals = {.size = sizeof(prove_interval)}};
	bool ok = true;
	z3_shared zshared = {0}; /* for every root */
	for (size_t r = 0; r < m->nroots && ok && !p.oom; r++) {
		root_view v;
		if (!view_init(&v, &m->roots[r])) {
			p.oom = true;
			break;
		}
		z3_engine *z = NULL;
		if (opt->engine == PROVE_ENGINE_Z3) {
			z = z3_engine_new(&v, &zshared, opt, diags);
			if (!z) {
				view_free(&v);
				ok = false;
				break;
			}
			overlaps_z3(&p, &v, z);
		} else {
			overlaps_cube(&p, &v);
		}
		accounting(&p, &v, z);
		coverage(&p, &v, z);
		prover_drop_index(&p);
		if (z) {
			out->queries += z3_engine_queries(z);
			out->out_of_time |= z3_engine_out_of_time(z);
			z3_engine_free(z);
		}
		view_free(&v);
	}
	z3_shared_free(&zshared);
	out->overlaps = p.overlaps.items;
	out->noverlaps = p.overlaps.n;
	out->accounting = p.accounting.items;
	out->naccounting = p.accounting.n;
	out->intervals = p.intervals.items;
	out->nintervals = p.intervals.n;
	/* Allowlist entries that accepted nothing are stale. */
	if (opt->allow && opt->allow->count) {
		out->stale = calloc(opt->allow->count, sizeof *out->stale);
		p.oom |= !out->stale;
		for (size_t k = 0; out->stale && k < opt->allow->count; k++) {
			bool used = false;
			for (size_t i = 0; i < out->noverlaps && !used; i++)
				used = out->overlaps[i].allowed_by == &opt->allow->items[k];
			if (!used)
				out->stale[out->nstale++] = &opt->allow->items[k];
		}
	}
	if (p.oom) {
		spec_diag_add(diags, SPEC_FATAL, "io", (spec_loc){m->path, 0, 0},
		              "out of memory while proving");
		ok = false;
	}
	return ok;
}

void prove_result_free(prove_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nintervals; i++)
		free(r->intervals[i].holes);
	free(r->overlaps);
	free(r->accounting);
	free(r->intervals);
	free(r->stale);
	if (r->priv) {
		for (size_t i = 0; i < r->priv->nblocks; i++)
			free(r->priv->blocks[i]);
		free(r->priv->blocks);
		free(r->priv);
	}
	*r = (prove_result){0};
}

/* ------------------------------------------------------------ formats */

void prove_count_format(const prove_count *c, char *buf, size_t len)
{
	/* Repeated division by 10^18 of a little-endian copy. */
	enum { NW = sizeof c->w / sizeof *c->w };
	uint64_t t[NW];
	memcpy(t, c->w, sizeof t);
	char digits[1400];
	size_t nd = 0;
	for (;;) {
		bool zero = true;
		for (size_t k = 0; k < NW; k++)
			zero &= t[k] == 0;
		if (zero)
			break;
		__uint128_t rem = 0;
		for (size_t k = NW; k-- > 0;) {
			__uint128_t cur = (rem << 64) | t[k];
			t[k] = (uint64_t)(cur / 1000000000000000000ull);
			rem = cur % 1000000000000000000ull;
		}
		uint64_t chunk = (uint64_t)rem;
		bool last;
		{
			bool z2 = true;
			for (size_t k = 0; k < NW; k++)
				z2 &= t[k] == 0;
			last = z2;
		}
		for (int d = 0; d < 18 && (!last || chunk); d++) {
			digits[nd++] = (char)('0' + chunk % 10);
			chunk /= 10;
		}
	}
	if (!nd)
		digits[nd++] = '0';
	size_t o = 0;
	while (nd && o + 1 < len)
		buf[o++] = digits[--nd];
	buf[o] = 0;
}

void prove_format_hex(const uint64_t *w, unsigned size, char *buf, size_t len)
{
	unsigned n32 = (size + 31) / 32;
	size_t o = 0;
	for (unsigned i = n32; i-- > 0 && o + 10 < len;) {
		uint32_t word = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
		o += (size_t)snprintf(buf + o, len - o, "%s%08x", o ? "_" : "", word);
	}
	if (!o && len)
		buf[0] = 0;
}

void prove_format_cube(const prove_cube *c, unsigned size, char *buf, size_t len)
{
	size_t o = 0;
	for (unsigned b = size; b-- > 0 && o + 1 < len;) {
		uint64_t bit = (uint64_t)1 << (b % 64);
		buf[o++] = !(c->fixed[b / 64] & bit) ? 'x' : (c->value[b / 64] & bit) ? '1' : '0';
	}
	if (len)
		buf[o] = 0;
}
