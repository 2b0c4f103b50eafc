/*
 * diff.c - what an edit of a spec does to its encoding space (check.h,
 * section "diff").
 *
 * Both sides' leaves are cubes (fixed bits, values) crossed with gen
 * ranges, so the words whose decoding changes are a union of cubes too:
 * we split the word space on one bit at a time, as prove.c's coverage
 * does, until every region either decodes alike on both sides (each leaf
 * meeting it has a counterpart that pins the same free bits to the same
 * values) or has a fixed set of matching leaves on each side.  Only bits
 * pinned by leaves that differ drive the split, so an unchanged spec is
 * proved equal at the first region, and a small edit costs a few
 * regions per bit the edit touches.  The Z3 engine then proves each
 * interval's answer from the leaves alone (see verify_interval).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <z3.h>

/* More regions than this in one interval: reported unknown rather than
 * letting a hostile pair of specs run time and memory away. */
#define DIFF_MAX_REGIONS (1u << 20)

struct diff_result_private {
	void **blocks; /* everything the result points to */
	size_t n, cap;
};

/* Registers p with the result (freed by diff_result_free); NULL when p
 * is NULL or memory runs out (p is then freed). */
void *diff_own(diff_result *r, void *p)
{
	struct diff_result_private *q = r->priv;
	if (!p)
		return NULL;
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		void **b = realloc(q->blocks, cap * sizeof *b);
		if (!b) {
			free(p);
			return NULL;
		}
		q->blocks = b;
		q->cap = cap;
	}
	q->blocks[q->n++] = p;
	return p;
}

static void *own_alloc(diff_result *r, size_t n)
{
	return diff_own(r, calloc(n ? n : 1, 1));
}

static void count_add(prove_count *a, const prove_count *b)
{
	unsigned carry = 0;
	for (size_t k = 0; k < sizeof a->w / sizeof *a->w; k++) {
		uint64_t s = a->w[k] + b->w[k];
		unsigned c1 = s < a->w[k];
		uint64_t t = s + carry;
		carry = c1 | (t < s);
		a->w[k] = t;
	}
}

static bool count_zero(const prove_count *c)
{
	for (size_t k = 0; k < sizeof c->w / sizeof *c->w; k++)
		if (c->w[k])
			return false;
	return true;
}

/* ------------------------------------------------------- leaf readings */

/* One field as a leaf reads it: the leaf-most definition of each
 * (case, name) on the chain from the leaf to its root. */
typedef struct reading {
	const char *case_key; /* "" for the default case, else the override's expression */
	const spec_field *f;
} reading;

static const char *case_key(const spec_case *c)
{
	if (!c->expr && !c->expr_name)
		return "";
	return c->expr ? spec_expr_text(c->expr) : c->expr_name;
}

static reading *leaf_readings(const spec_bitset *leaf, size_t *n)
{
	size_t cap = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++)
			cap += s->cases[c].nfields;
	reading *r = calloc(cap + 1, sizeof *r);
	*n = 0;
	if (!r)
		return NULL;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t c = 0; c < s->ncases; c++) {
			const char *key = case_key(&s->cases[c]);
			for (size_t i = 0; i < s->cases[c].nfields; i++) {
				const spec_field *f = &s->cases[c].fields[i];
				bool seen = false;
				for (size_t k = 0; k < *n && !seen; k++)
					seen = !strcmp(r[k].case_key, key) && !strcmp(r[k].f->name, f->name);
				if (!seen)
					r[(*n)++] = (reading){key, f};
			}
		}
	return r;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The name of what a field's value is read as: an enum or bitset by
 * name, else the type as written. */
static const char *type_ident(const spec_field *f)
{
	if (f->type == SPEC_TYPE_ENUM && f->enm)
		return f->enm->name;
	if (f->type == SPEC_TYPE_BITSET && f->bitset)
		return f->bitset->name;
	return f->type_name;
}

/* Whether a field reads the same bits the same way on both sides. */
static bool field_equal(const spec_field *a, const spec_field *b)
{
	if (a->kind != b->kind || a->type != b->type || !str_eq(type_ident(a), type_ident(b)))
		return false;
	if (a->kind == SPEC_DERIVED)
		return str_eq(a->expr ? spec_expr_text(a->expr) : NULL,
		              b->expr ? spec_expr_text(b->expr) : NULL) &&
		       str_eq(a->expr_name, b->expr_name) && a->high == b->high;
	if (a->low != b->low || a->high != b->high)
		return false;
	if (a->kind == SPEC_ASSERT)
		for (unsigned i = a->low; i <= a->high; i++)
			if (spec_bit(a->assert_value, i) != spec_bit(b->assert_value, i))
				return false;
	return true;
}

/* Records that leaf a's reading x and leaf b's differ (old or new_ NULL:
 * the field is on one side only); false when memory runs out. */
static bool push_field(growable *out, const spec_bitset *a, const spec_bitset *b,
                       const reading *x, const spec_field *old, const spec_field *new_)
{
	diff_field *d = grow(out);
	if (!d)
		return false;
	*d = (diff_field){a, b, x->f->name, *x->case_key ? x->case_key : NULL, old, new_};
	return true;
}

/* Compares two leaves' readings; each difference goes to out (when not
 * NULL).  Returns whether they read alike, or -1 when memory runs out. */
static int readings_compare(const spec_bitset *a, const spec_bitset *b, diff_result *r,
                            growable *out)
{
	size_t na, nb;
	reading *ra = leaf_readings(a, &na), *rb = leaf_readings(b, &nb);
	int same = 1;
	if (!ra || !rb) {
		same = -1;
		goto done;
	}
	for (size_t i = 0; i < na && (out || same); i++) {
		const spec_field *other = NULL;
		for (size_t k = 0; k < nb && !other; k++)
			if (!strcmp(ra[i].case_key, rb[k].case_key) &&
			    !strcmp(ra[i].f->name, rb[k].f->name))
				other = rb[k].f;
		if (other && field_equal(ra[i].f, other))
			continue;
		same = 0;
		if (out && !push_field(out, a, b, &ra[i], ra[i].f, other)) {
			same = -1;
			goto done;
		}
	}
	for (size_t k = 0; k < nb && (out || same); k++) {
		bool found = false;
		for (size_t i = 0; i < na && !found; i++)
			found = !strcmp(ra[i].case_key, rb[k].case_key) &&
			        !strcmp(ra[i].f->name, rb[k].f->name);
		if (found)
			continue;
		same = 0;
		if (out && !push_field(out, a, b, &rb[k], NULL, rb[k].f)) {
			same = -1;
			goto done;
		}
	}
done:
	(void)r;
	free(ra);
	free(rb);
	return same;
}

/* The template a leaf prints with: its default case's display, else the
 * nearest ancestor's (as Mesa looks it up). */
static const char *leaf_display(const spec_bitset *leaf)
{
	for (const spec_bitset *s = leaf; s; s = s->parent)
		if (s->ncases && s->cases[s->ncases - 1].display)
			return s->cases[s->ncases - 1].display;
	return NULL;
}

#define DIFF_MAX_DISPLAYS 64

/* The displays a leaf can print with, as the decoder looks for one: from
 * the leaf up, each override's, then the default case's, which ends the
 * search. */
static size_t leaf_displays(const spec_bitset *leaf, const spec_case **out)
{
	size_t n = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t ci = 0; ci < s->ncases; ci++) {
			const spec_case *k = &s->cases[ci];
			if (!k->display)
				continue;
			if (n < DIFF_MAX_DISPLAYS)
				out[n++] = k;
			if (!k->expr)
				return n;
		}
	return n;
}

/* The first display that differs between two leaves, override displays
 * included (an override is the same when its expression's text is): its
 * template on each side (NULL where that side has none).  False when the
 * displays are the same. */
static bool display_difference(const spec_bitset *a, const spec_bitset *b, const char **ta,
                               const char **tb)
{
	const spec_case *ka[DIFF_MAX_DISPLAYS], *kb[DIFF_MAX_DISPLAYS];
	size_t na = a ? leaf_displays(a, ka) : 0, nb = b ? leaf_displays(b, kb) : 0;
	for (size_t i = 0; i < na || i < nb; i++) {
		const spec_case *x = i < na ? ka[i] : NULL, *y = i < nb ? kb[i] : NULL;
		const char *ex = x && x->expr ? spec_expr_text(x->expr) : NULL;
		const char *ey = y && y->expr ? spec_expr_text(y->expr) : NULL;
		if (x && y && str_eq(x->display, y->display) && str_eq(ex, ey))
			continue;
		*ta = x ? x->display : NULL;
		*tb = y ? y->display : NULL;
		return true;
	}
	*ta = leaf_display(a);
	*tb = leaf_display(b);
	return false;
}

/* ------------------------------------------------------------ root pairs */

/* One root on both sides (either may be missing: then no leaves). */
typedef struct root_pair {
	const spec_root *old_root, *new_root;
	const char *name;
	unsigned size, nw;
	leaf_cube *lo, *ln; /* old and new leaves as cubes */
	size_t no, nn;
	uint64_t *store;
	ptrdiff_t *o2n, *n2o; /* the matching, -1: none */
	bool *fields_changed, *display_changed; /* by old index */
	size_t *display_entry; /* by old index: its diff_display, or SIZE_MAX */
} root_pair;

static bool pair_init(root_pair *p, const spec_root *o, const spec_root *n)
{
	memset(p, 0, sizeof *p);
	p->old_root = o;
	p->new_root = n;
	p->name = (o ? o : n)->bitset->name;
	p->size = (o ? o : n)->bitset->size;
	p->nw = words_for(p->size);
	p->no = o ? o->nleaves : 0;
	p->nn = n ? n->nleaves : 0;
	size_t all = p->no + p->nn + 1;
	p->lo = calloc(p->no + 1, sizeof *p->lo);
	p->ln = calloc(p->nn + 1, sizeof *p->ln);
	p->store = calloc(all * 2 * p->nw, sizeof *p->store);
	p->o2n = malloc((p->no + 1) * sizeof *p->o2n);
	p->n2o = malloc((p->nn + 1) * sizeof *p->n2o);
	p->fields_changed = calloc(p->no + 1, sizeof *p->fields_changed);
	p->display_changed = calloc(p->no + 1, sizeof *p->display_changed);
	p->display_entry = malloc((p->no + 1) * sizeof *p->display_entry);
	if (!p->lo || !p->ln || !p->store || !p->o2n || !p->n2o || !p->fields_changed ||
	    !p->display_changed || !p->display_entry)
		return false;
	uint64_t *s = p->store;
	for (size_t i = 0; i < p->no; i++, s += 2 * p->nw)
		leaf_cube_init(&p->lo[i], o->leaves[i], s, s + p->nw, p->nw);
	for (size_t i = 0; i < p->nn; i++, s += 2 * p->nw)
		leaf_cube_init(&p->ln[i], n->leaves[i], s, s + p->nw, p->nw);
	for (size_t i = 0; i < p->no; i++) {
		p->o2n[i] = -1;
		p->display_entry[i] = SIZE_MAX;
	}
	for (size_t i = 0; i < p->nn; i++)
		p->n2o[i] = -1;
	return true;
}

static void pair_free(root_pair *p)
{
	free(p->lo);
	free(p->ln);
	free(p->store);
	free(p->o2n);
	free(p->n2o);
	free(p->fields_changed);
	free(p->display_changed);
	free(p->display_entry);
}

static bool cube_equal(const leaf_cube *a, const leaf_cube *b, unsigned nw)
{
	if (a->empty != b->empty)
		return false;
	if (a->empty)
		return true;
	for (unsigned k = 0; k < nw; k++)
		if (a->fixed[k] != b->fixed[k] || a->value[k] != b->value[k])
			return false;
	return true;
}

static bool gen_equal(spec_gen a, spec_gen b)
{
	return a.min == b.min && a.max == b.max;
}

static bool gen_meets(spec_gen a, spec_gen b)
{
	return a.min <= b.max && b.min <= a.max && a.min <= a.max && b.min <= b.max;
}

/* Matches leaves by name: per-generation variants first by equal gen
 * ranges, then by overlapping ones, in document order; then renames. */
static void pair_match(root_pair *p)
{
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < p->no; i++) {
			if (p->o2n[i] >= 0)
				continue;
			const spec_bitset *a = p->lo[i].leaf;
			for (size_t j = 0; j < p->nn; j++) {
				if (p->n2o[j] >= 0)
					continue;
				const spec_bitset *b = p->ln[j].leaf;
				if (strcmp(a->name, b->name))
					continue;
				bool ok = pass == 0 ? gen_equal(a->gen_own, b->gen_own)
				          : pass == 1 ? gen_meets(a->gen, b->gen) : true;
				if (ok) {
					p->o2n[i] = (ptrdiff_t)j;
					p->n2o[j] = (ptrdiff_t)i;
					break;
				}
			}
		}
}

/* Unmatched leaves with the same cube and the same readings are renames. */
static bool pair_renames(root_pair *p, diff_result *r)
{
	for (size_t i = 0; i < p->no; i++) {
		if (p->o2n[i] >= 0)
			continue;
		for (size_t j = 0; j < p->nn; j++) {
			if (p->n2o[j] >= 0 || !cube_equal(&p->lo[i], &p->ln[j], p->nw))
				continue;
			int same = readings_compare(p->lo[i].leaf, p->ln[j].leaf, r, NULL);
			if (same < 0)
				return false;
			if (same) {
				p->o2n[i] = (ptrdiff_t)j;
				p->n2o[j] = (ptrdiff_t)i;
				break;
			}
		}
	}
	return true;
}

/* ------------------------------------------------------------ the split */

/* One set of matching leaves per side, and what its words add up to. */
typedef struct change_key {
	uint32_t *old_idx, *new_idx;
	size_t nold, nnew;
	prove_count words;
	uint64_t *witness; /* the first region's lowest word */
	size_t nregions;
} change_key;

typedef struct region {
	size_t key;
	uint64_t *fixed, *value; /* owned by the interval */
} region;

typedef struct interval {
	spec_gen gen;
	growable keys;    /* change_key */
	growable regions; /* region, kept for the Z3 proof */
	bool too_many;
} interval;

typedef struct differ {
	const prove_options *opt;
	diff_result *r;
	spec_diags *diags;
	root_pair *p;
	interval *iv;
	bool keep_regions;
	/* per interval: which leaves live */
	uint8_t *olive, *nlive;
	/* scratch, per leaf: 1 while the current region sees it meeting / good */
	uint8_t *nmeet, *ogood;
	unsigned *bitcount;
	uint64_t *touched; /* the bits bitcount counts (see bitcount_add) */
	size_t nregions;
	bool oom;
} differ;

static bool meets(const leaf_cube *c, const uint64_t *fixed, const uint64_t *value,
                  unsigned nw)
{
	for (unsigned k = 0; k < nw; k++)
		if ((value[k] ^ c->value[k]) & fixed[k] & c->fixed[k])
			return false;
	return true;
}

static bool contains(const leaf_cube *c, const uint64_t *fixed, unsigned nw)
{
	for (unsigned k = 0; k < nw; k++)
		if (c->fixed[k] & ~fixed[k])
			return false;
	return true;
}

/* Whether two leaves pin the same free bits of a region to the same values. */
static bool restricted_equal(const leaf_cube *a, const leaf_cube *b, const uint64_t *fixed,
                             unsigned nw)
{
	for (unsigned k = 0; k < nw; k++) {
		uint64_t fa = a->fixed[k] & ~fixed[k], fb = b->fixed[k] & ~fixed[k];
		if (fa != fb || ((a->value[k] ^ b->value[k]) & fa))
			return false;
	}
	return true;
}

static bool idx_equal(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na * sizeof *a));
}

static void record(differ *d, const uint32_t *ko, size_t mo, const uint32_t *kn, size_t mn,
                   const uint64_t *fixed, const uint64_t *value, unsigned nfree)
{
	unsigned nw = d->p->nw;
	interval *iv = d->iv;
	change_key *keys = iv->keys.items;
	size_t k = iv->keys.n;
	/* Most regions of one key come one after another: search backwards. */
	for (size_t i = iv->keys.n; i-- > 0;)
		if (idx_equal(keys[i].old_idx, keys[i].nold, ko, mo) &&
		    idx_equal(keys[i].new_idx, keys[i].nnew, kn, mn)) {
			k = i;
			break;
		}
	if (k == iv->keys.n) {
		change_key *c = grow(&iv->keys);
		if (!c) {
			d->oom = true;
			return;
		}
		c->old_idx = malloc((mo + 1) * sizeof *c->old_idx);
		c->new_idx = malloc((mn + 1) * sizeof *c->new_idx);
		c->witness = calloc(nw, sizeof *c->witness);
		if (!c->old_idx || !c->new_idx || !c->witness) {
			d->oom = true;
			return;
		}
		memcpy(c->old_idx, ko, mo * sizeof *ko);
		memcpy(c->new_idx, kn, mn * sizeof *kn);
		c->nold = mo;
		c->nnew = mn;
		memcpy(c->witness, value, nw * sizeof *value);
		/* Same leaf, fields changed: free bits at 1 make a field that now
		 * reads other bits show it when printed. */
		const root_pair *p = d->p;
		if (mo == 1 && mn == 1 && p->o2n[ko[0]] == (ptrdiff_t)kn[0] &&
		    p->fields_changed[ko[0]]) {
			for (unsigned i = 0; i < nw; i++)
				c->witness[i] = value[i] | (~fixed[i] & (i == nw - 1 ? top_mask(p->size)
				                                                     : ~(uint64_t)0));
		}
	}
	change_key *c = (change_key *)iv->keys.items + k;
	count_add_pow2(&c->words, nfree);
	c->nregions++;
	if (d->keep_regions) {
		region *g = grow(&iv->regions);
		uint64_t *fv = malloc(2 * nw * sizeof *fv);
		if (!g || !fv) {
			free(fv);
			if (g)
				iv->regions.n--;
			d->oom = true;
			return;
		}
		memcpy(fv, fixed, nw * sizeof *fv);
		memcpy(fv + nw, value, nw * sizeof *fv);
		*g = (region){k, fv, fv + nw};
	}
}

/* The recursion over regions; oi/ni are the leaves of each side that can
 * still meet the region.  Depth is at most the root's size. */
static void split(differ *d, const uint32_t *oi, size_t on, const uint32_t *ni, size_t nn,
                  uint64_t *fixed, uint64_t *value, unsigned nfree)
{
	const root_pair *p = d->p;
	unsigned nw = p->nw;
	if (d->oom || d->iv->too_many)
		return;
	if (++d->nregions > DIFF_MAX_REGIONS) {
		d->iv->too_many = true;
		return;
	}
	uint32_t *ko = malloc((on + 1) * sizeof *ko), *kn = malloc((nn + 1) * sizeof *kn);
	if (!ko || !kn) {
		free(ko);
		free(kn);
		d->oom = true;
		return;
	}
	size_t mo = 0, mn = 0;
	bool uniform = true;
	for (size_t i = 0; i < on; i++)
		if (meets(&p->lo[oi[i]], fixed, value, nw)) {
			ko[mo++] = oi[i];
			uniform &= contains(&p->lo[oi[i]], fixed, nw);
		}
	for (size_t i = 0; i < nn; i++)
		if (meets(&p->ln[ni[i]], fixed, value, nw)) {
			kn[mn++] = ni[i];
			uniform &= contains(&p->ln[ni[i]], fixed, nw);
		}
	/* Alike throughout: every leaf meeting here has a counterpart meeting
	 * here that pins the same free bits alike, and nothing else meets. */
	for (size_t i = 0; i < mn; i++)
		d->nmeet[kn[i]] = 1;
	size_t good = 0;
	for (size_t i = 0; i < mo; i++) {
		uint32_t a = ko[i];
		ptrdiff_t b = p->o2n[a];
		bool g = b >= 0 && d->nmeet[b] && !p->fields_changed[a] && !p->display_changed[a] &&
		         restricted_equal(&p->lo[a], &p->ln[b], fixed, nw);
		d->ogood[a] = g;
		good += g;
	}
	for (size_t i = 0; i < mn; i++)
		d->nmeet[kn[i]] = 0;
	bool alike = good == mo && mo == mn;
	if (alike || uniform) {
		for (size_t i = 0; i < mo; i++)
			d->ogood[ko[i]] = 0;
		if (!alike)
			record(d, ko, mo, kn, mn, fixed, value, nfree);
		free(ko);
		free(kn);
		return;
	}
	/* Split on the free bit most often pinned by leaves that differ; when
	 * those all cover the region, by the leaves that do not. */
	unsigned best = 0, best_n = 0;
	for (int pass = 0; pass < 2 && !best_n; pass++) {
		for (size_t i = 0; i < mo + mn; i++) {
			bool old_side = i < mo;
			uint32_t x = old_side ? ko[i] : kn[i - mo];
			const leaf_cube *c = old_side ? &p->lo[x] : &p->ln[x];
			bool differs = old_side ? !d->ogood[x]
			                        : p->n2o[x] < 0 || !d->ogood[p->n2o[x]];
			if (pass > 0 || differs)
				bitcount_add(d->bitcount, d->touched, c->fixed, fixed, nw);
		}
		best_n = bitcount_best(d->bitcount, d->touched, nw, &best);
	}
	for (size_t i = 0; i < mo; i++)
		d->ogood[ko[i]] = 0;
	uint64_t bit = (uint64_t)1 << (best % 64);
	unsigned w = best / 64;
	fixed[w] |= bit;
	value[w] &= ~bit;
	split(d, ko, mo, kn, mn, fixed, value, nfree - 1);
	value[w] |= bit;
	split(d, ko, mo, kn, mn, fixed, value, nfree - 1);
	fixed[w] &= ~bit;
	value[w] &= ~bit;
	free(ko);
	free(kn);
}

static void interval_free(interval *iv)
{
	change_key *keys = iv->keys.items;
	for (size_t i = 0; i < iv->keys.n; i++) {
		free(keys[i].old_idx);
		free(keys[i].new_idx);
		free(keys[i].witness);
	}
	free(iv->keys.items);
	region *g = iv->regions.items;
	for (size_t i = 0; i < iv->regions.n; i++)
		free(g[i].fixed);
	free(iv->regions.items);
	*iv = (interval){0};
}

/* -------------------------------------------------------------- the Z3 proof */

typedef struct zproof {
	z3_base b;       /* context, solver, word w and gen g (z3.c) */
	Z3_ast *mo, *mn; /* per leaf: it matches (w, g) */
	Z3_ast differs;  /* some leaf's match differs between the sides, or a
	                    leaf with changed fields or display matches */
} zproof;

/* A leaf's condition straight from its merged masks, as ISASPEC.md
 * section 3 states it: (w & mask & ~dontcare) == match, gen in range. */
static Z3_ast z_leaf(zproof *z, const spec_bitset *b)
{
	unsigned nw = words_for(z->b.size);
	uint64_t *m = calloc(nw, sizeof *m);
	if (!m)
		return NULL;
	for (unsigned k = 0; k < nw; k++)
		m[k] = b->mask.w[k] & ~b->dontcare.w[k];
	Z3_ast parts[2] = {z3_in_cube(&z->b, m, b->match.w), z3_in_gen(&z->b, b->gen)};
	free(m);
	return Z3_mk_and(z->b.ctx, 2, parts);
}

static void zproof_free(zproof *z)
{
	z3_base_free(&z->b);
	free(z->mo);
	free(z->mn);
	*z = (zproof){0};
}

static bool zproof_init(zproof *z, const root_pair *p, const prove_options *opt,
                        spec_diags *diags)
{
	*z = (zproof){0};
	if (!z3_base_init(&z->b, p->size, opt)) {
		z3_cannot_start(diags, (p->old_root ? p->old_root : p->new_root)->bitset->loc);
		return false;
	}
	Z3_context c = z->b.ctx;
	z->mo = calloc(p->no + 1, sizeof *z->mo);
	z->mn = calloc(p->nn + 1, sizeof *z->mn);
	Z3_ast *any = calloc(p->no + p->nn + 1, sizeof *any);
	if (!z->mo || !z->mn || !any) {
		free(any);
		return false;
	}
	for (size_t i = 0; i < p->no; i++)
		z->mo[i] = z_leaf(z, p->lo[i].leaf);
	for (size_t i = 0; i < p->nn; i++)
		z->mn[i] = z_leaf(z, p->ln[i].leaf);
	/* Identical conditions are one term to Z3, so an untouched leaf's
	 * xor folds to false and an unchanged spec is proved at once. */
	size_t n = 0;
	for (size_t i = 0; i < p->no; i++) {
		ptrdiff_t j = p->o2n[i];
		if (j < 0)
			any[n++] = z->mo[i];
		else if (p->fields_changed[i] || p->display_changed[i])
			any[n++] = Z3_mk_or(c, 2, (Z3_ast[]){z->mo[i], z->mn[j]});
		else
			any[n++] = Z3_mk_xor(c, z->mo[i], z->mn[j]);
	}
	for (size_t j = 0; j < p->nn; j++)
		if (p->n2o[j] < 0)
			any[n++] = z->mn[j];
	z->differs = n ? Z3_mk_or(c, (unsigned)n, any) : Z3_mk_false(c);
	free(any);
	if (Z3_get_error_code(c) != Z3_OK) {
		spec_diag_add(diags, SPEC_FATAL, "solver", (p->old_root ? p->old_root : p->new_root)->bitset->loc,
		              "Z3 failed to encode root '%s'", p->name);
		return false;
	}
	return true;
}

/* Proves one interval's regions from the leaves' own conditions:
 *  1. no word at a gen of the interval, outside every region, differs;
 *  2. per set pair, no word of its regions has other matching leaves on
 *     either side than the pair says.
 * Returns NO when both hold (nothing else is), YES when the solver found
 * a counterexample (a bug), UNKNOWN when it gave up. */
static z3_answer verify_interval(zproof *z, const root_pair *p, const interval *iv)
{
	Z3_context c = z->b.ctx;
	const region *rg = iv->regions.items;
	const change_key *keys = iv->keys.items;
	Z3_ast *t = calloc(iv->regions.n + p->no + p->nn + 1, sizeof *t);
	if (!t)
		return Z3_ANSWER_UNKNOWN;
	for (size_t i = 0; i < iv->regions.n; i++)
		t[i] = z3_in_cube(&z->b, rg[i].fixed, rg[i].value);
	Z3_ast in_any = iv->regions.n ? Z3_mk_or(c, (unsigned)iv->regions.n, t) : Z3_mk_false(c);
	Z3_ast q1[3] = {z3_in_gen(&z->b, iv->gen), z->differs, Z3_mk_not(c, in_any)};
	z3_answer a = z3_check(&z->b, Z3_mk_and(c, 3, q1));
	for (size_t k = 0; k < iv->keys.n && a == Z3_ANSWER_NO; k++) {
		size_t n = 0;
		for (size_t i = 0; i < iv->regions.n; i++)
			if (rg[i].key == k)
				t[n++] = z3_in_cube(&z->b, rg[i].fixed, rg[i].value);
		Z3_ast in_key = Z3_mk_or(c, (unsigned)n, t);
		/* the label: exactly these leaves match on each side */
		n = 0;
		size_t io = 0, in = 0;
		for (size_t i = 0; i < p->no; i++) {
			bool want = io < keys[k].nold && keys[k].old_idx[io] == i;
			io += want;
			t[n++] = want ? z->mo[i] : Z3_mk_not(c, z->mo[i]);
		}
		for (size_t j = 0; j < p->nn; j++) {
			bool want = in < keys[k].nnew && keys[k].new_idx[in] == j;
			in += want;
			t[n++] = want ? z->mn[j] : Z3_mk_not(c, z->mn[j]);
		}
		Z3_ast label = n ? Z3_mk_and(c, (unsigned)n, t) : Z3_mk_true(c);
		Z3_ast q2[3] = {z3_in_gen(&z->b, iv->gen), in_key, Z3_mk_not(c, label)};
		a = z3_check(&z->b, Z3_mk_and(c, 3, q2));
	}
	free(t);
	return a;
}

/* ------------------------------------------------------------ the report */

typedef struct builder {
	diff_result *r;
	growable roots, leaves, fields, decodings, holes, displays;
	bool oom;
} builder;

/* Whether a key's two sets are the same leaves (a matched leaf counts as
 * itself): then its words decode alike unless fields changed. */
static bool key_same_leaves(const root_pair *p, const change_key *k)
{
	if (k->nold != k->nnew)
		return false;
	for (size_t i = 0; i < k->nold; i++)
		if (p->o2n[k->old_idx[i]] != (ptrdiff_t)k->new_idx[i])
			return false;
	return true;
}

/* What one key reports: a decoding change (2), a field-only change (1), or
 * nothing about decoding (0; display witnesses are taken separately). */
static int key_kind(const root_pair *p, const change_key *k)
{
	if (!key_same_leaves(p, k))
		return 2;
	return k->nold == 1 && p->fields_changed[k->old_idx[0]] ? 1 : 0;
}

/* Two intervals report the same when their reported keys agree. */
static bool intervals_alike(const root_pair *p, const interval *a, const interval *b)
{
	if (a->too_many || b->too_many)
		return false;
	const change_key *ka = a->keys.items, *kb = b->keys.items;
	size_t i = 0, j = 0;
	for (;;) {
		while (i < a->keys.n && !key_kind(p, &ka[i]))
			i++;
		while (j < b->keys.n && !key_kind(p, &kb[j]))
			j++;
		if (i == a->keys.n || j == b->keys.n)
			return i == a->keys.n && j == b->keys.n;
		if (!idx_equal(ka[i].old_idx, ka[i].nold, kb[j].old_idx, kb[j].nold) ||
		    !idx_equal(ka[i].new_idx, ka[i].nnew, kb[j].new_idx, kb[j].nnew) ||
		    memcmp(&ka[i].words, &kb[j].words, sizeof ka[i].words))
			return false;
		i++, j++;
	}
}

static const spec_bitset *const *leaf_list(builder *bd, const leaf_cube *cubes,
                                           const uint32_t *idx, size_t n)
{
	const spec_bitset **l = own_alloc(bd->r, (n + 1) * sizeof *l);
	if (!l) {
		bd->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		l[i] = cubes[idx[i]].leaf;
	return l;
}

/* Turns a run of alike intervals (first..last) into report entries. */
static void emit_run(builder *bd, const root_pair *p, const interval *first, spec_gen gen)
{
	const change_key *keys = first->keys.items;
	diff_holes h = {p->name, gen, {{0}}, {{0}}};
	for (size_t i = 0; i < first->keys.n; i++) {
		const change_key *k = &keys[i];
		int kind = key_kind(p, k);
		if (!kind)
			continue;
		diff_decoding *dd = grow(&bd->decodings);
		uint64_t *w = own_alloc(bd->r, p->nw * sizeof *w);
		if (!dd || !w) {
			bd->oom = true;
			return;
		}
		memcpy(w, k->witness, p->nw * sizeof *w);
		*dd = (diff_decoding){p->name, p->size, gen,
		                      leaf_list(bd, p->lo, k->old_idx, k->nold), k->nold,
		                      leaf_list(bd, p->ln, k->new_idx, k->nnew), k->nnew,
		                      kind == 1, k->words, w, gen.min};
		if (!k->nnew)
			count_add(&h.opened, &k->words);
		if (!k->nold)
			count_add(&h.filled, &k->words);
	}
	if (!count_zero(&h.opened) || !count_zero(&h.filled)) {
		diff_holes *dh = grow(&bd->holes);
		if (!dh) {
			bd->oom = true;
			return;
		}
		*dh = h;
	}
}

/* Display witnesses: the first word found that decodes to the leaf alone
 * on both sides. */
static void take_display_witnesses(builder *bd, const root_pair *p, const interval *iv)
{
	const change_key *keys = iv->keys.items;
	for (size_t i = 0; i < iv->keys.n; i++) {
		const change_key *k = &keys[i];
		if (k->nold != 1 || !key_same_leaves(p, k) || !p->display_changed[k->old_idx[0]])
			continue;
		size_t e = p->display_entry[k->old_idx[0]];
		if (e == SIZE_MAX || ((diff_display *)bd->displays.items)[e].witness)
			continue;
		diff_display *dd = (diff_display *)bd->displays.items + e;
		uint64_t *w = own_alloc(bd->r, p->nw * sizeof *w);
		if (!w) {
			bd->oom = true;
			return;
		}
		memcpy(w, k->witness, p->nw * sizeof *w);
		dd->witness = w;
		dd->witness_gen = iv->gen.min;
	}
}

/* The whole comparison of one root. */
static bool diff_root_pair(builder *bd, root_pair *p, const prove_options *opt,
                           spec_diags *diags)
{
	diff_result *r = bd->r;
	/* leaves */
	for (size_t i = 0; i < p->no && !bd->oom; i++) {
		ptrdiff_t j = p->o2n[i];
		const spec_bitset *a = p->lo[i].leaf, *b = j >= 0 ? p->ln[j].leaf : NULL;
		diff_leaf *dl;
		if (!b) {
			if (!(dl = grow(&bd->leaves)))
				return false;
			*dl = (diff_leaf){DIFF_LEAF_REMOVED, a, NULL};
			continue;
		}
		if (strcmp(a->name, b->name)) {
			if (!(dl = grow(&bd->leaves)))
				return false;
			*dl = (diff_leaf){DIFF_LEAF_RENAMED, a, b};
		} else if (!cube_equal(&p->lo[i], &p->ln[j], p->nw)) {
			if (!(dl = grow(&bd->leaves)))
				return false;
			*dl = (diff_leaf){DIFF_LEAF_PATTERN, a, b};
		}
		if (!gen_equal(a->gen, b->gen)) {
			if (!(dl = grow(&bd->leaves)))
				return false;
			*dl = (diff_leaf){DIFF_LEAF_GEN, a, b};
		}
		int same = readings_compare(a, b, r, &bd->fields);
		if (same < 0)
			return false;
		p->fields_changed[i] = !same;
		const char *ta, *tb;
		bool shown_differently = display_difference(a, b, &ta, &tb);
		if (shown_differently || strcmp(spec_display_name(a), spec_display_name(b))) {
			p->display_changed[i] = true;
			diff_display *dd = grow(&bd->displays);
			if (!dd)
				return false;
			*dd = (diff_display){a, b, ta, tb, NULL, 0};
			p->display_entry[i] = bd->displays.n - 1;
		}
	}
	for (size_t j = 0; j < p->nn; j++)
		if (p->n2o[j] < 0) {
			diff_leaf *dl = grow(&bd->leaves);
			if (!dl)
				return false;
			*dl = (diff_leaf){DIFF_LEAF_ADDED, NULL, p->ln[j].leaf};
		}

	/* generation intervals: cut wherever a leaf of either side starts or stops */
	spec_gen rg = {UINT32_MAX, 0};
	const spec_root *sides[2] = {p->old_root, p->new_root};
	for (int s = 0; s < 2; s++)
		if (sides[s] && sides[s]->bitset->gen.min <= sides[s]->bitset->gen.max) {
			spec_gen g = sides[s]->bitset->gen;
			rg.min = g.min < rg.min ? g.min : rg.min;
			rg.max = g.max > rg.max ? g.max : rg.max;
		}
	if (rg.min > rg.max)
		return true;
	uint32_t *pts = calloc(2 * (p->no + p->nn) + 2, sizeof *pts);
	differ d = {.opt = opt, .r = r, .diags = diags, .p = p,
	            .keep_regions = opt->engine == PROVE_ENGINE_Z3};
	d.olive = calloc(p->no + 1, 1);
	d.nlive = calloc(p->nn + 1, 1);
	d.nmeet = calloc(p->nn + 1, 1);
	d.ogood = calloc(p->no + 1, 1);
	d.bitcount = calloc(p->size, sizeof *d.bitcount);
	d.touched = calloc(p->nw, sizeof *d.touched);
	uint32_t *oi = calloc(p->no + 1, sizeof *oi), *ni = calloc(p->nn + 1, sizeof *ni);
	uint64_t *fixed = calloc(p->nw, sizeof *fixed), *value = calloc(p->nw, sizeof *value);
	interval cur = {0}, run = {0};
	spec_gen run_gen = {0, 0};
	bool have_run = false, ok = true;
	zproof z = {0};
	if (!pts || !d.olive || !d.nlive || !d.nmeet || !d.ogood || !d.bitcount || !d.touched || !oi || !ni ||
	    !fixed || !value) {
		ok = false;
		goto out;
	}
	if (opt->engine == PROVE_ENGINE_Z3 && !zproof_init(&z, p, opt, diags)) {
		ok = false;
		goto out;
	}
	size_t n = 0;
	pts[n++] = rg.min;
	n = gen_cuts_add(pts, n, rg, p->lo, p->no);
	n = gen_cuts_add(pts, n, rg, p->ln, p->nn);
	size_t u = gen_cuts_sort(pts, n);
	for (size_t i = 0; i < u && ok; i++) {
		spec_gen g = {pts[i], i + 1 < u ? pts[i + 1] - 1 : rg.max};
		size_t on = 0, nn = 0;
		for (size_t k = 0; k < p->no; k++)
			if (!p->lo[k].empty && p->lo[k].gen.min <= g.min && g.max <= p->lo[k].gen.max)
				oi[on++] = (uint32_t)k;
		for (size_t k = 0; k < p->nn; k++)
			if (!p->ln[k].empty && p->ln[k].gen.min <= g.min && g.max <= p->ln[k].gen.max)
				ni[nn++] = (uint32_t)k;
		cur = (interval){.gen = g, .keys = {.size = sizeof(change_key)},
		                 .regions = {.size = sizeof(region)}};
		d.iv = &cur;
		d.nregions = 0;
		memset(fixed, 0, p->nw * sizeof *fixed);
		memset(value, 0, p->nw * sizeof *value);
		split(&d, oi, on, ni, nn, fixed, value, p->size);
		if (d.oom) {
			ok = false;
			break;
		}
		if (cur.too_many) {
			r->any_unknown = true;
			spec_diag_add(diags, SPEC_WARNING, "diff-limit",
			              (p->new_root ? p->new_root : p->old_root)->bitset->loc,
			              "the changed words of '%s' at gen %u..%u need more than %u "
			              "regions: not compared", p->name, g.min, g.max, DIFF_MAX_REGIONS);
		} else if (z.b.ctx) {
			z3_answer a = verify_interval(&z, p, &cur);
			if (a != Z3_ANSWER_NO)
				r->any_unknown = true;
			if (a == Z3_ANSWER_YES)
				spec_diag_add(diags, SPEC_ERROR, "internal",
				              (p->new_root ? p->new_root : p->old_root)->bitset->loc,
				              "the solver disagrees with the cube engine on the changed "
				              "words of '%s' at gen %u..%u: please report this",
				              p->name, g.min, g.max);
		}
		take_display_witnesses(bd, p, &cur);
		/* Alike neighbours are one range in the report. */
		if (have_run && intervals_alike(p, &run, &cur)) {
			run_gen.max = g.max;
			interval_free(&cur);
			continue;
		}
		if (have_run) {
			emit_run(bd, p, &run, run_gen);
			interval_free(&run);
		}
		run = cur;
		cur = (interval){0};
		run_gen = g;
		have_run = true;
	}
	if (have_run && ok)
		emit_run(bd, p, &run, run_gen);
out:
	interval_free(&run);
	interval_free(&cur);
	r->queries += z.b.queries;
	zproof_free(&z);
	free(pts);
	free(d.olive);
	free(d.nlive);
	free(d.nmeet);
	free(d.ogood);
	free(d.bitcount);
	free(d.touched);
	free(oi);
	free(ni);
	free(fixed);
	free(value);
	return ok && !bd->oom;
}

/* ------------------------------------------------- overlaps, accounting */

/* The name a leaf of OLD has in NEW (renames followed), by root. */
static const char *renamed(const root_pair *pairs, size_t npairs, const spec_bitset *leaf)
{
	for (size_t r = 0; r < npairs; r++)
		for (size_t i = 0; i < pairs[r].no; i++)
			if (pairs[r].lo[i].leaf == leaf)
				return pairs[r].o2n[i] >= 0 ? pairs[r].ln[pairs[r].o2n[i]].leaf->name
				                            : leaf->name;
	return leaf->name;
}

static bool same_overlap(const prove_overlap *o, const prove_overlap *n, const root_pair *pairs,
                         size_t npairs)
{
	if (strcmp(o->root->bitset->name, n->root->bitset->name))
		return false;
	const char *a = renamed(pairs, npairs, o->a), *b = renamed(pairs, npairs, o->b);
	return (!strcmp(a, n->a->name) && !strcmp(b, n->b->name)) ||
	       (!strcmp(a, n->b->name) && !strcmp(b, n->a->name));
}

/* Whether some bit set in x (of a problem entry) is not in y. */
static bool acct_has_more(const prove_accounting *x, const prove_accounting *y)
{
	unsigned nw = words_for(x->leaf->size);
	for (unsigned k = 0; k < nw; k++) {
		uint64_t yu = y && y->leaf->size == x->leaf->size ? y->unaccounted[k] : 0;
		uint64_t yd = y && y->leaf->size == x->leaf->size ? y->doubly[k] : 0;
		if ((x->unaccounted[k] & ~yu) || (x->doubly[k] & ~yd))
			return true;
	}
	return false;
}

static const prove_accounting *acct_find(const prove_result *pr, const char *root,
                                         const char *leaf, spec_gen gen)
{
	const prove_accounting *any = NULL;
	for (size_t i = 0; i < pr->naccounting; i++) {
		const spec_bitset *b = pr->accounting[i].leaf;
		if (strcmp(b->root->name, root) || strcmp(b->name, leaf))
			continue;
		if (gen_meets(b->gen, gen))
			return &pr->accounting[i];
		any = any ? any : &pr->accounting[i];
	}
	return any;
}

/* The name a leaf of NEW had in OLD (renames followed back). */
static const char *old_name(const root_pair *pairs, size_t npairs, const spec_bitset *leaf)
{
	const char *name = leaf->name;
	for (size_t rp = 0; rp < npairs; rp++)
		for (size_t j = 0; j < pairs[rp].nn; j++)
			if (pairs[rp].ln[j].leaf == leaf && pairs[rp].n2o[j] >= 0)
				name = pairs[rp].lo[pairs[rp].n2o[j]].leaf->name;
	return name;
}

/* The overlaps of `from` that `other` has not, into out; from_new says
 * which side `from` is (same_overlap takes OLD's first).  An undecided
 * pair is neither introduced nor fixed: it is unknown. */
static size_t overlaps_minus(const prove_result *from, const prove_result *other, bool from_new,
                             const root_pair *pairs, size_t npairs, const prove_overlap **out)
{
	size_t n = 0;
	for (size_t i = 0; i < from->noverlaps; i++) {
		const prove_overlap *x = &from->overlaps[i];
		bool seen = x->unknown;
		for (size_t k = 0; k < other->noverlaps && !seen; k++)
			seen = from_new ? same_overlap(&other->overlaps[k], x, pairs, npairs)
			                : same_overlap(x, &other->overlaps[k], pairs, npairs);
		if (!seen)
			out[n++] = x;
	}
	return n;
}

/* The accounting problems of `from` with bits the same leaf of `other`
 * (by its name there) does not have, into out. */
static size_t accounting_minus(const prove_result *from, const prove_result *other,
                               bool from_new, const root_pair *pairs, size_t npairs,
                               const prove_accounting **out)
{
	size_t n = 0;
	for (size_t i = 0; i < from->naccounting; i++) {
		const prove_accounting *x = &from->accounting[i];
		if (x->unknown)
			continue;
		const char *name = from_new ? old_name(pairs, npairs, x->leaf)
		                            : renamed(pairs, npairs, x->leaf);
		const prove_accounting *y = acct_find(other, x->leaf->root->name, name, x->leaf->gen);
		if (acct_has_more(x, y && !y->unknown ? y : NULL))
			out[n++] = x;
	}
	return n;
}

static bool compare_proofs(diff_result *r, const root_pair *pairs, size_t npairs)
{
	const prove_result *po = &r->old_proof, *pn = &r->new_proof;
	r->overlaps_introduced = own_alloc(r, (pn->noverlaps + 1) * sizeof *r->overlaps_introduced);
	r->overlaps_fixed = own_alloc(r, (po->noverlaps + 1) * sizeof *r->overlaps_fixed);
	r->accounting_introduced = own_alloc(r, (pn->naccounting + 1) *
	                                             sizeof *r->accounting_introduced);
	r->accounting_fixed = own_alloc(r, (po->naccounting + 1) * sizeof *r->accounting_fixed);
	if (!r->overlaps_introduced || !r->overlaps_fixed || !r->accounting_introduced ||
	    !r->accounting_fixed)
		return false;
	r->noverlaps_introduced = overlaps_minus(pn, po, true, pairs, npairs,
	                                         r->overlaps_introduced);
	r->noverlaps_fixed = overlaps_minus(po, pn, false, pairs, npairs, r->overlaps_fixed);
	r->naccounting_introduced = accounting_minus(pn, po, true, pairs, npairs,
	                                             r->accounting_introduced);
	r->naccounting_fixed = accounting_minus(po, pn, false, pairs, npairs, r->accounting_fixed);
	return true;
}

/* ------------------------------------------------------------------ main */

bool diff_models(const spec_model *om, const spec_model *nm, const prove_options *opt,
                 diff_result *out, spec_diags *diags)
{
	prove_options run = opt ? *opt : prove_default_options();
	z3_start_run(&run);
	opt = &run;
	*out = (diff_result){0};
	out->priv = calloc(1, sizeof *out->priv);
	if (!out->priv)
		return false;
	builder bd = {.r = out, .roots = {.size = sizeof(diff_root)},
	              .leaves = {.size = sizeof(diff_leaf)}, .fields = {.size = sizeof(diff_field)},
	              .decodings = {.size = sizeof(diff_decoding)},
	              .holes = {.size = sizeof(diff_holes)},
	              .displays = {.size = sizeof(diff_display)}};
	bool ok = prove_model(om, opt, &out->old_proof, diags) &&
	          prove_model(nm, opt, &out->new_proof, diags);
	out->any_unknown = out->old_proof.any_unknown || out->new_proof.any_unknown;
	out->queries = out->old_proof.queries + out->new_proof.queries;

	/* Roots by name; a resized root cannot be compared word by word. */
	root_pair *pairs = calloc(om->nroots + nm->nroots + 1, sizeof *pairs);
	size_t npairs = 0;
	if (!pairs)
		ok = false;
	for (size_t i = 0; ok && i < om->nroots + nm->nroots; i++) {
		const spec_root *o = NULL, *n = NULL;
		if (i < om->nroots) {
			o = &om->roots[i];
			n = spec_find_root(nm, o->bitset->name);
		} else {
			n = &nm->roots[i - om->nroots];
			if (spec_find_root(om, n->bitset->name))
				continue;
		}
		if (!o || !n || o->bitset->size != n->bitset->size) {
			diff_root *dr = grow(&bd.roots);
			if (!dr) {
				ok = false;
				break;
			}
			*dr = (diff_root){o ? o->bitset : NULL, n ? n->bitset : NULL};
			if (o && n)
				continue;
		}
		root_pair *p = &pairs[npairs++];
		if (!pair_init(p, o, n)) {
			ok = false;
			break;
		}
		pair_match(p);
		if (!pair_renames(p, out)) {
			ok = false;
			break;
		}
	}
	for (size_t i = 0; ok && i < npairs; i++)
		ok = diff_root_pair(&bd, &pairs[i], opt, diags);
	if (ok)
		ok = compare_proofs(out, pairs, npairs);
	for (size_t i = 0; pairs && i < npairs; i++)
		pair_free(&pairs[i]);
	free(pairs);
	ok = ok && !bd.oom;

	/* each list is owned by the result; one that could not be registered
	 * is gone (diff_own freed it), so its count goes with it */
#define DIFF_TAKE(list)                                                    \
	do {                                                               \
		out->list = diff_own(out, bd.list.items);                  \
		out->n##list = out->list ? bd.list.n : 0;                  \
		ok = ok && (out->list || !bd.list.items);                  \
	} while (0)
	DIFF_TAKE(roots);
	DIFF_TAKE(leaves);
	DIFF_TAKE(fields);
	DIFF_TAKE(decodings);
	DIFF_TAKE(holes);
	DIFF_TAKE(displays);
#undef DIFF_TAKE
	if (!ok && !(diags->count && diags->items[diags->count - 1].severity == SPEC_FATAL))
		spec_diag_add(diags, SPEC_FATAL, "io", (spec_loc){nm->path, 0, 0},
		              "out of memory while comparing");
	return ok;
}

void diff_result_free(diff_result *r)
{
	if (!r)
		return;
	prove_result_free(&r->old_proof);
	prove_result_free(&r->new_proof);
	if (r->priv) {
		for (size_t i = 0; i < r->priv->n; i++)
			free(r->priv->blocks[i]);
		free(r->priv->blocks);
		free(r->priv);
	}
	*r = (diff_result){0};
}

bool diff_is_empty(const diff_result *r)
{
	return !r->nroots && !r->nleaves && !r->nfields && !r->ndecodings && !r->nholes &&
	       !r->ndisplays && !r->noverlaps_introduced && !r->noverlaps_fixed &&
	       !r->naccounting_introduced && !r->naccounting_fixed && !diff_text_changes(r);
}

size_t diff_text_changes(const diff_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ntexts; i++)
		n += r->texts[i].verdict == DIFF_TEXT_DIFFERS;
	return n;
}
