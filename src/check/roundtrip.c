/*
 * roundtrip.c - does the encoder give every word back?  (check.h,
 * prove_semantic, the round-trip part: prove_roundtrip.)
 *
 * For every leaf of a root words start from, the claim is: for each word
 * w the leaf matches, at each generation, that decodes with a meaning,
 * encode(decode(w)) is w with the decoding's don't-care bits cleared
 * (codec_roundtrip's definition, which the fuzz targets check by
 * sampling).  Here it is proved from the model.
 *
 * The decoder (decode.c, list_values) lists, walking the cases from the
 * leaf upwards (each bitset's overrides in document order, then its
 * default), every case that holds, each name once, by the first case
 * that defines it.  The encoder (encode.c) starts from the pattern bits,
 * places the asserts of the cases it visits (those that hold, up to the
 * first with a display), every listed <field> at its bits unless another
 * visited case's fields take them (a "shadowed" value), each bitset-typed
 * field from its own sub-leaf, and last the asserts of the default cases
 * where nothing else was placed.  Which override cases hold is the only
 * thing that changes this shape: for each assignment of true/false to
 * the override cases of the leaf's chain, every bit of the re-encoding
 * is known to come from the word (a pattern or field bit: the same bit),
 * from a constant (an assert's value), from a sub-instruction (the same
 * question a level down, over each sub-leaf), or from nothing (0).  A
 * bit loses the word where its source can differ from the word's bit
 * with the don't-care bits cleared (several sources that disagree make
 * the encoder refuse: a loss too).
 *
 * One question per leaf to Z3: is there a word of the leaf, at a
 * generation, under some assignment its conditions give, where a bit
 * loses it?  The conditions are translated as the decoder evaluates them
 * (z3expr.c); a name that cannot be translated is any value (a question
 * with no answer for any value has none for the real one).  No answer is
 * a proof.  An answer is a witness only once the real codec
 * (prove_text_ops.roundtrip) decodes it with a meaning and does not give
 * it back; otherwise it is blocked and Z3 asked again, a few times, and
 * then the verdict is unknown, never proved.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RT_WORDS (SPEC_MAX_BITS / 64u)
/* Override cases of one chain: 2^this shapes at most. */
#define RT_MAX_OVERRIDES 10u
/* Cases of one chain looked at. */
#define RT_MAX_CASES 64u
/* Values of one listing. */
#define RT_MAX_LISTED 256u
/* Bitset fields followed down, below the leaf. */
#define RT_MAX_DEPTH 3u
/* Witnesses the codec may turn down before a leaf is left unknown. */
#define RT_TRIES 4u
/* As the encoder's ENC_MAX_HELD: visited cases it remembers for shadowing. */
#define RT_MAX_HELD 16u

/* Why a leaf's verdict is unknown (bits of rt_run.why). */
enum {
	RT_WHY_CASES = 1u << 0,   /* more override cases than RT_MAX_OVERRIDES, or
	                             more shapes or ways to lose a word than kept */
	RT_WHY_DEPTH = 1u << 1,   /* bitset fields nested deeper than RT_MAX_DEPTH */
	RT_WHY_SIZE = 1u << 2,    /* a bitset field not as wide as its bitset */
	RT_WHY_SOLVER = 1u << 3,  /* Z3 gave up */
	RT_WHY_CODEC = 1u << 4,   /* the codec did not confirm Z3's witnesses */
	RT_WHY_DERIVED = 1u << 5, /* a derived value listed before a field of its name */
	RT_WHY_OVERLAP = 1u << 6, /* two placed bitset fields sharing bits */
	RT_WHY_TIME = 1u << 7,    /* the file's time for these proofs was spent */
	RT_WHY_WIDE = 1u << 8,    /* a field past its bitset's size, or wider than 64 bits */
};

static const char *const rt_why_text[] = {
	"more than 10 override cases in its chain, or too many shapes or sub-leaves",
	"bitset fields nested more than 3 deep",
	"a bitset field not as wide as its bitset",
	"Z3 gave up",
	"the codec did not confirm Z3's witnesses",
	"a derived value listed before a field of the same name",
	"two bitset fields sharing bits",
	"the time the semantic proofs may take per file was spent",
	"a field past its bitset's size, or wider than 64 bits",
};

typedef struct rt_run {
	const spec_model *m;
	z3_base *b;
	semantic_stats *st;
	unsigned why;
	bool oom;
	/* the word's own leaf: its override cases' conditions (for the
	 * witness's explanation) */
	Z3_ast top_cond[RT_MAX_OVERRIDES];
	unsigned top_nov;
	/* and per decoder assignment a, the encoder's conditions
	 * (top_enc[a * top_nov + j]; NULL: not made) */
	Z3_ast *top_enc;
} rt_run;

/* One case of a leaf's chain, in the decoder's order. */
typedef struct rt_case {
	const spec_bitset *owner;
	const spec_case *k;
	int ov;      /* its index among the chain's override cases, or -1 */
	bool usable; /* the decoder looks at it: the default, or an override
	                whose expression loaded */
} rt_case;

/* A listed value. */
typedef struct rt_value {
	const spec_field *f;
	const spec_bitset *owner;
	const spec_case *k;
} rt_value;

/* Where the bits of one re-encoding come from, for one assignment. */
typedef struct rt_shape {
	uint64_t copied[RT_WORDS]; /* the word's own bit: pattern, field */
	uint64_t constm[RT_WORDS], constv[RT_WORDS]; /* an assert's value */
	uint64_t checkm[RT_WORDS], checkv[RT_WORDS]; /* asserts the decoder checks */
	uint64_t none[RT_WORDS];   /* nothing: 0 */
	uint64_t shadow[RT_WORDS]; /* of none, bits of values left to a visited case */
	const spec_field *subs[RT_MAX_LISTED];
	size_t nsubs;
	bool derived_bitset; /* a derived bitset-typed value with a sub-leaf */
	bool conflict;       /* two asserts the encoder visits disagree: it refuses */
} rt_shape;

static unsigned words_of(unsigned size) { return (size + 63) / 64; }

static void set_range(uint64_t *m, unsigned low, unsigned high)
{
	for (unsigned i = low; i <= high && i < SPEC_MAX_BITS; i++)
		m[i / 64] |= (uint64_t)1 << (i % 64);
}

static size_t chain_cases(const spec_bitset *leaf, rt_case *out, size_t *nov)
{
	size_t n = 0;
	*nov = 0;
	for (const spec_bitset *s = leaf; s; s = s->parent)
		for (size_t ci = 0; ci < s->ncases; ci++) {
			if (n == RT_MAX_CASES)
				return SIZE_MAX;
			const spec_case *k = &s->cases[ci];
			bool dflt = ci + 1 == s->ncases && !k->expr;
			out[n] = (rt_case){s, k, k->expr ? (int)(*nov)++ : -1, dflt || k->expr};
			n++;
		}
	return n;
}

/* Whether case c holds under assignment a, as the decoder sees it
 * (usable only) and as the encoder does (a case without an expression
 * holds). */
static bool holds_dec(const rt_case *c, unsigned a)
{
	return c->usable && (c->ov < 0 || ((a >> c->ov) & 1));
}
static bool holds_enc(const rt_case *c, unsigned a)
{
	return c->ov < 0 || ((a >> c->ov) & 1);
}

/* encode.c's shadowed(): a listed field whose case the encoder does not
 * visit, whose bits a visited case's fields take, and that no visited
 * case names. */
static bool shadowed(const rt_value *v, const spec_case *const *held, size_t nheld)
{
	for (size_t i = 0; i < nheld; i++)
		if (held[i] == v->k)
			return false;
	bool overlap = false;
	for (size_t i = 0; i < nheld && !overlap; i++)
		for (size_t j = 0; j < held[i]->nfields && !overlap; j++)
			overlap = held[i]->fields[j].kind == SPEC_FIELD &&
			          held[i]->fields[j].low <= v->f->high && v->f->low <= held[i]->fields[j].high;
	if (!overlap)
		return false;
	for (size_t i = 0; i < nheld; i++)
		for (size_t j = 0; j < held[i]->nfields; j++)
			if (!strcmp(held[i]->fields[j].name, v->f->name))
				return false;
	return true;
}

/* Places an assert's bits where nothing is (soft) or over everything. */
static void put_assert(rt_shape *sh, uint64_t *placed, const spec_field *f, bool soft)
{
	for (unsigned i = f->low; i <= f->high && i < SPEC_MAX_BITS; i++) {
		uint64_t bit = (uint64_t)1 << (i % 64);
		unsigned k = i / 64;
		if (soft && (placed[k] & bit))
			continue;
		uint64_t v = k < f->assert_value.nwords ? (f->assert_value.w[k] & bit) : 0;
		if ((sh->constm[k] & bit) && (sh->constv[k] & bit) != v)
			sh->conflict = true;
		sh->constm[k] |= bit;
		sh->constv[k] = (sh->constv[k] & ~bit) | v;
		placed[k] |= bit;
	}
}

/* The decoder's listing of leaf (cases cs) under assignment a of its
 * override cases: each name once, by the first case that holds and
 * defines it.  False when the model cannot say (r->why set). */
static bool list_values(rt_run *r, const rt_case *cs, size_t ncs, unsigned a, rt_value *listed,
                        size_t *nlisted)
{
	size_t nl = 0;
	for (size_t i = 0; i < ncs; i++) {
		if (!holds_dec(&cs[i], a))
			continue;
		for (size_t j = 0; j < cs[i].k->nfields; j++) {
			const spec_field *f = &cs[i].k->fields[j];
			if (f->kind == SPEC_ASSERT)
				continue;
			size_t t = 0;
			while (t < nl && strcmp(listed[t].f->name, f->name))
				t++;
			if (t < nl) {
				/* a derived value that fails to evaluate is left out, and
				 * this field listed in its place */
				if (listed[t].f->kind == SPEC_DERIVED && f->kind == SPEC_FIELD) {
					r->why |= RT_WHY_DERIVED;
					return false;
				}
				continue;
			}
			if (nl == RT_MAX_LISTED) {
				r->why |= RT_WHY_CASES;
				return false;
			}
			listed[nl++] = (rt_value){f, cs[i].owner, cs[i].k};
		}
	}
	*nlisted = nl;
	return true;
}

/* The shape of the re-encoding of leaf (cases cs) with listing listed:
 * the decoder's assignment a (the asserts it checks, where checked) and
 * the encoder's e (the cases it visits).  False when the model cannot
 * say (r->why set). */
static bool shape_of(rt_run *r, const spec_bitset *leaf, const rt_case *cs, size_t ncs,
                     const rt_value *listed, size_t nl, unsigned a, unsigned e, bool checked,
                     rt_shape *sh)
{
	memset(sh, 0, sizeof *sh);
	unsigned nw = words_of(leaf->size);
	uint64_t placed[RT_WORDS] = {0};
	for (unsigned k = 0; k < nw; k++) {
		uint64_t fixed = (k < leaf->mask.nwords ? leaf->mask.w[k] : 0) &
		                 ~(k < leaf->dontcare.nwords ? leaf->dontcare.w[k] : 0);
		sh->copied[k] = placed[k] = fixed;
	}
	/* the decoder checks the asserts of the cases it visits looking for
	 * the display: for the word's leaf always, for a sub-leaf where the
	 * text prints its field (the caller's question) */
	for (size_t i = 0; checked && i < ncs; i++) {
		if (!holds_dec(&cs[i], a))
			continue;
		for (size_t j = 0; j < cs[i].k->nfields; j++) {
			const spec_field *f = &cs[i].k->fields[j];
			if (f->kind != SPEC_ASSERT)
				continue;
			set_range(sh->checkm, f->low, f->high);
			for (unsigned b = f->low; b <= f->high && b < SPEC_MAX_BITS; b++)
				if (b / 64 < f->assert_value.nwords && (f->assert_value.w[b / 64] >> (b % 64)) & 1)
					sh->checkv[b / 64] |= (uint64_t)1 << (b % 64);
		}
		if (cs[i].k->display)
			break;
	}
	/* the cases the encoder visits, and their asserts */
	const spec_case *held[RT_MAX_HELD];
	size_t nheld = 0;
	for (size_t i = 0; i < ncs; i++) {
		if (!holds_enc(&cs[i], e))
			continue;
		for (size_t j = 0; j < cs[i].k->nfields; j++)
			if (cs[i].k->fields[j].kind == SPEC_ASSERT)
				put_assert(sh, placed, &cs[i].k->fields[j], false);
		if (nheld < RT_MAX_HELD)
			held[nheld++] = cs[i].k;
		if (cs[i].k->display)
			break;
	}
	uint64_t skipped[RT_WORDS] = {0};
	for (size_t i = 0; i < nl; i++) {
		const spec_field *f = listed[i].f;
		if (f->kind != SPEC_FIELD) {
			sh->derived_bitset |= f->type == SPEC_TYPE_BITSET && f->bitset;
			continue;
		}
		if (f->high >= leaf->size || f->high - f->low >= 64) {
			r->why |= RT_WHY_WIDE;
			return false;
		}
		if (shadowed(&listed[i], held, nheld)) {
			set_range(skipped, f->low, f->high);
			continue;
		}
		if (f->type == SPEC_TYPE_BITSET && f->bitset) {
			/* two sub-instructions on one bit: not modelled */
			for (size_t k = 0; k < sh->nsubs; k++)
				if (sh->subs[k]->low <= f->high && f->low <= sh->subs[k]->high) {
					r->why |= RT_WHY_OVERLAP;
					return false;
				}
			sh->subs[sh->nsubs++] = f;
		} else {
			set_range(sh->copied, f->low, f->high);
		}
		set_range(placed, f->low, f->high);
	}
	for (const spec_bitset *s = leaf; s; s = s->parent) {
		if (!s->ncases)
			continue;
		const spec_case *d = &s->cases[s->ncases - 1];
		for (size_t j = 0; j < d->nfields; j++)
			if (d->fields[j].kind == SPEC_ASSERT)
				put_assert(sh, placed, &d->fields[j], true);
	}
	for (unsigned k = 0; k < nw; k++) {
		uint64_t in = leaf->size % 64 && k == nw - 1 ? ((uint64_t)1 << (leaf->size % 64)) - 1
		                                             : ~(uint64_t)0;
		sh->none[k] = ~placed[k] & in;
		sh->shadow[k] = skipped[k] & sh->none[k];
	}
	return true;
}

static Z3_ast bits_of(rt_run *r, const uint64_t *w, unsigned size)
{
	return z3_bits_sized(r->b, w, size);
}

static bool any_bits(const uint64_t *m, unsigned nw)
{
	for (unsigned k = 0; k < nw; k++)
		if (m[k])
			return true;
	return false;
}

/* (v & m) != 0, or NULL when m is empty. */
static Z3_ast some_bit(rt_run *r, Z3_ast v, const uint64_t *m, unsigned size)
{
	if (!any_bits(m, words_of(size)))
		return NULL;
	Z3_context c = r->b->ctx;
	uint64_t zero[RT_WORDS] = {0};
	return Z3_mk_not(c, Z3_mk_eq(c, Z3_mk_bvand(c, v, bits_of(r, m, size)),
	                             bits_of(r, zero, size)));
}

/* A disjunction being built: the ways a word can be lost. */
typedef struct rt_terms {
	Z3_ast v[RT_MAX_LISTED + 8];
	unsigned n;
	bool full; /* a way did not fit: any word may be lost */
} rt_terms;

static void add(rt_terms *t, Z3_ast a)
{
	if (!a)
		return;
	if (t->n < sizeof t->v / sizeof *t->v)
		t->v[t->n++] = a;
	else
		t->full = true;
}

/* The disjunction, or NULL when empty.  One that overflowed is true:
 * leaving a way out would prove too much. */
static Z3_ast any_of(rt_run *r, rt_terms *t)
{
	if (t->full) {
		r->why |= RT_WHY_CASES;
		return Z3_mk_true(r->b->ctx);
	}
	return t->n == 0 ? NULL : t->n == 1 ? t->v[0] : Z3_mk_or(r->b->ctx, t->n, t->v);
}

/* How the encoder reads a name while it chooses a case (encode.c,
 * scope_lookup): the first value of the bitset's listing with that name,
 * else through the params of the field it was opened from, the
 * enclosing bitset's.  Values as the decoder gives them: a field
 * sign-extended by its width for int, offset and branch types, else its
 * bits; a derived value the decoder's value of its expression. */
typedef struct rt_enc_scope {
	rt_run *r;
	const z3_scope *dec;       /* the decoder's scope of the same bitset */
	const rt_value *listed;
	size_t nlisted;
	const spec_field *opener;  /* NULL at the top */
	const struct rt_enc_scope *parent;
} rt_enc_scope;

static bool signed_type(spec_type_kind t)
{
	return t == SPEC_TYPE_INT || t == SPEC_TYPE_OFFSET || t == SPEC_TYPE_BRANCH;
}

/* found: the name resolves (else the encoder's expression fails, and its
 * case does not hold); the term, or NULL when it cannot be given. */
static Z3_ast enc_lookup(const rt_enc_scope *es, const char *name, bool *found)
{
	z3_base *b = es->r->b;
	Z3_context c = b->ctx;
	for (size_t i = 0; i < es->nlisted; i++) {
		const spec_field *f = es->listed[i].f;
		if (strcmp(f->name, name))
			continue;
		*found = true;
		unsigned w = f->high - f->low + 1;
		Z3_ast raw;
		if (f->kind == SPEC_DERIVED) {
			raw = f->expr ? z3_expr_in(b, es->dec, f->expr) : NULL;
		} else {
			if (f->high >= es->dec->leaf->size || w > 64)
				return NULL;
			raw = Z3_mk_extract(c, f->high, f->low, es->dec->word);
			if (w < 64)
				raw = signed_type(f->type) ? Z3_mk_sign_ext(c, 64 - w, raw)
				                           : Z3_mk_zero_ext(c, 64 - w, raw);
			return raw;
		}
		if (raw && signed_type(f->type) && w < 64)
			raw = Z3_mk_sign_ext(c, 64 - w, Z3_mk_extract(c, w - 1, 0, raw));
		return raw;
	}
	for (size_t p = 0; es->opener && es->parent && p < es->opener->nparams; p++) {
		const spec_param *pa = &es->opener->params[p];
		if (!strcmp(pa->as ? pa->as : pa->name, name))
			return enc_lookup(es->parent, pa->name, found);
	}
	*found = false;
	return NULL;
}

static Z3_ast enc_lookup_cb(void *ctx, const char *name)
{
	bool found = false;
	return enc_lookup(ctx, name, &found);
}

/* Whether every name expression x reads resolves for the encoder. */
typedef struct names_ok {
	const rt_enc_scope *es;
	bool ok;
} names_ok;

static void *check_name(void *ctx, spec_expr_op op, int64_t num, const char *name,
                        void *const kids[3])
{
	(void)num;
	(void)kids;
	names_ok *n = ctx;
	if (op == SPEC_OP_FIELD) {
		bool found = false;
		enc_lookup(n->es, name, &found);
		n->ok = n->ok && found;
	}
	return ctx;
}

/* The encoder's condition for override expression x: a Bool term; false
 * when a name it reads is not found; a fresh constant when it cannot be
 * translated. */
static Z3_ast enc_condition(const rt_enc_scope *es, const spec_expr *x)
{
	z3_base *b = es->r->b;
	Z3_context c = b->ctx;
	names_ok n = {es, true};
	spec_expr_fold(x, check_name, &n);
	if (!n.ok)
		return Z3_mk_false(c);
	z3_scope s = *es->dec;
	s.memo = NULL;
	s.free_names = NULL;
	s.lookup = enc_lookup_cb;
	s.lookup_ctx = (void *)es;
	Z3_ast v = z3_expr_in(b, &s, x);
	return v ? z3_is_true(b, v) : Z3_mk_fresh_const(c, "enc", Z3_mk_bool_sort(c));
}

static Z3_ast level_lost(rt_run *r, const z3_scope *s, const rt_enc_scope *parent,
                         const uint64_t *xo, bool checked, unsigned depth);

/* Whether display d prints field name (at its top: "{NAME}"). */
static bool prints(const char *d, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = d ? strchr(d, '{') : NULL; p; p = strchr(p + 1, '{'))
		if (!strncmp(p + 1, name, n) && p[1 + n] == '}')
			return true;
	return false;
}

/* The display the decoder prints for leaf under assignment a. */
static const char *display_of(const rt_case *cs, size_t ncs, unsigned a)
{
	for (size_t i = 0; i < ncs; i++)
		if (holds_dec(&cs[i], a) && cs[i].k->display)
			return cs[i].k->display;
	return NULL;
}

/* The words of sub-field f of scope s (its word) whose sub-instruction
 * does not come back, or clashes with what else the shape sh places on
 * its bits: over every leaf of f's bitset.  xo: the outer don't-care
 * bits, in s's word; es: the encoder's view of s. */
static Z3_ast sub_lost(rt_run *r, const z3_scope *s, const rt_enc_scope *es, const rt_shape *sh,
                       const spec_field *f, const uint64_t *xo, bool checked, unsigned depth)
{
	Z3_context c = r->b->ctx;
	const spec_root *sub = NULL;
	for (size_t ri = 0; ri < r->m->nroots && !sub; ri++)
		if (r->m->roots[ri].bitset == f->bitset)
			sub = &r->m->roots[ri];
	unsigned width = f->high - f->low + 1;
	if (!sub || width != f->bitset->size) {
		r->why |= RT_WHY_SIZE;
		return Z3_mk_true(c);
	}
	if (depth >= RT_MAX_DEPTH) {
		r->why |= RT_WHY_DEPTH;
		return Z3_mk_true(c);
	}
	/* the outer don't-care bits, and what else is placed, in the
	 * sub-word's bits */
	uint64_t xi[RT_WORDS] = {0}, cp[RT_WORDS] = {0}, km[RT_WORDS] = {0}, kv[RT_WORDS] = {0};
	for (unsigned i = 0; i < width; i++) {
		unsigned at = f->low + i;
		uint64_t bit = (uint64_t)1 << (i % 64);
		if ((xo[at / 64] >> (at % 64)) & 1)
			xi[i / 64] |= bit;
		if ((sh->copied[at / 64] >> (at % 64)) & 1)
			cp[i / 64] |= bit;
		if ((sh->constm[at / 64] >> (at % 64)) & 1) {
			km[i / 64] |= bit;
			if ((sh->constv[at / 64] >> (at % 64)) & 1)
				kv[i / 64] |= bit;
		}
	}
	bool shared = any_bits(cp, words_of(width)) || any_bits(km, words_of(width));
	Z3_ast word = Z3_mk_extract(c, f->high, f->low, s->word);
	rt_terms t = {.n = 0};
	for (size_t l = 0; l < sub->nleaves; l++) {
		Z3_ast in = semantic_leaf_holds(r->b, sub->leaves[l], word);
		if (!in)
			continue;
		bool free_names = false;
		z3_scope inner = {sub->leaves[l], word, f, s, true, z3_memo_new(), &free_names, NULL, NULL};
		Z3_ast lost = level_lost(r, &inner, es, xi, checked, depth + 1);
		z3_memo_free(inner.memo);
		if (shared) {
			/* where it comes back it writes the sub-word with the sub-leaf's
			 * x bits cleared; a bit copied from the word or an assert's
			 * value on the same bit must agree, or the encoder refuses */
			const spec_bitset *sl = sub->leaves[l];
			uint64_t dx[RT_WORDS], ndx[RT_WORDS], m[RT_WORDS];
			for (unsigned k = 0; k < words_of(width); k++) {
				dx[k] = xi[k] | (k < sl->dontcare.nwords ? sl->dontcare.w[k] : 0);
				ndx[k] = ~dx[k];
				m[k] = cp[k] & dx[k];
			}
			Z3_ast out = Z3_mk_bvand(c, word, bits_of(r, ndx, width));
			rt_terms k2 = {.n = 0};
			add(&k2, lost);
			add(&k2, some_bit(r, word, m, width));
			add(&k2, some_bit(r, Z3_mk_bvxor(c, out, bits_of(r, kv, width)), km, width));
			lost = any_of(r, &k2);
		}
		if (lost) {
			Z3_ast both[2] = {in, lost};
			add(&t, Z3_mk_and(c, 2, both));
		}
	}
	return any_of(r, &t);
}

/* The words of one shape that do not come back (NULL: none). */
static Z3_ast shape_lost(rt_run *r, const z3_scope *s, const rt_enc_scope *es, const rt_shape *sh,
                         const uint64_t *x, Z3_ast want, const char *display, bool checked,
                         unsigned depth)
{
	Z3_context c = r->b->ctx;
	unsigned size = s->leaf->size, nw = words_of(size);
	rt_terms t = {.n = 0};
	uint64_t m[RT_WORDS];
	/* a bit copied from the word where it is a don't-care */
	for (unsigned k = 0; k < nw; k++)
		m[k] = sh->copied[k] & x[k];
	add(&t, some_bit(r, s->word, m, size));
	/* an assert's value where the word's bit differs */
	add(&t, some_bit(r, Z3_mk_bvxor(c, want, bits_of(r, sh->constv, size)), sh->constm, size));
	/* nothing where the word has a 1 */
	add(&t, some_bit(r, want, sh->none, size));
	for (size_t i = 0; i < sh->nsubs; i++)
		add(&t, sub_lost(r, s, es, sh, sh->subs[i], x,
		                 checked && prints(display, sh->subs[i]->name), depth));
	if (sh->derived_bitset || sh->conflict)
		add(&t, Z3_mk_true(c));
	Z3_ast lost = any_of(r, &t);
	if (!lost || !any_bits(sh->checkm, nw))
		return lost;
	/* the asserts the decoder checks hold, or there is no meaning */
	Z3_ast parts[2] = {lost, Z3_mk_eq(c, Z3_mk_bvand(c, s->word, bits_of(r, sh->checkm, size)),
	                                  bits_of(r, sh->checkv, size))};
	return Z3_mk_and(c, 2, parts);
}

/* Shapes of one leaf at most (decoder and encoder assignments together). */
#define RT_MAX_SHAPES 4096u

/* The words of scope s's leaf that the encoder does not give back, as
 * a formula over b's word and generation; NULL: none.  parent: the
 * encoder's view of the enclosing bitset (NULL at the top).  xo:
 * don't-care bits from outside (those of the leaf are added).  checked:
 * the decoder prints this leaf's display, and so checks the asserts of
 * the cases it visits (the word's own leaf always).
 *
 * For each assignment a of the override conditions as the decoder
 * evaluates them, the encoder evaluates the same expressions over the
 * values the decoder listed (encode.c), which can differ (a case whose
 * expression reads a name it defines itself, a signed field): each
 * condition whose term is not the decoder's is split again. */
static Z3_ast level_lost(rt_run *r, const z3_scope *s, const rt_enc_scope *parent,
                         const uint64_t *xo, bool checked, unsigned depth)
{
	Z3_context c = r->b->ctx;
	const spec_bitset *leaf = s->leaf;
	unsigned size = leaf->size, nw = words_of(size);
	rt_case cs[RT_MAX_CASES];
	size_t nov;
	size_t ncs = chain_cases(leaf, cs, &nov);
	if (ncs == SIZE_MAX || nov > RT_MAX_OVERRIDES) {
		r->why |= RT_WHY_CASES;
		return Z3_mk_true(c);
	}
	Z3_ast cond[RT_MAX_OVERRIDES];
	for (size_t i = 0; i < ncs; i++)
		if (cs[i].ov >= 0) {
			Z3_ast e = z3_expr_in(r->b, s, cs[i].k->expr);
			cond[cs[i].ov] = e ? z3_is_true(r->b, e)
			                   : Z3_mk_fresh_const(c, "cond", Z3_mk_bool_sort(c));
		}
	if (depth == 0) {
		r->top_nov = (unsigned)nov;
		for (unsigned j = 0; j < nov; j++)
			r->top_cond[j] = cond[j];
		free(r->top_enc);
		r->top_enc = nov ? calloc((size_t)nov << nov, sizeof *r->top_enc) : NULL;
	}
	uint64_t x[RT_WORDS] = {0};
	for (unsigned k = 0; k < nw; k++)
		x[k] = (k < leaf->dontcare.nwords ? leaf->dontcare.w[k] : 0) | (xo ? xo[k] : 0);
	uint64_t nx[RT_WORDS];
	for (unsigned k = 0; k < nw; k++)
		nx[k] = ~x[k];
	/* the word's bits that must come back: w & ~x */
	Z3_ast want = Z3_mk_bvand(c, s->word, bits_of(r, nx, size));
	/* a term per shape, and one per assignment the listing cannot say */
	Z3_ast *per = malloc((RT_MAX_SHAPES + (1u << RT_MAX_OVERRIDES)) * sizeof *per);
	rt_value *listed = malloc(RT_MAX_LISTED * sizeof *listed);
	if (!per || !listed) {
		free(per);
		free(listed);
		r->oom = true;
		return NULL;
	}
	unsigned nper = 0, shapes = 0;
	bool too_many = false;
	for (unsigned a = 0; a < (1u << nov) && !too_many; a++) {
		size_t nl = 0;
		Z3_ast dec[RT_MAX_OVERRIDES + 1];
		unsigned nd = 0;
		for (unsigned j = 0; j < nov; j++)
			dec[nd++] = (a >> j) & 1 ? cond[j] : Z3_mk_not(c, cond[j]);
		if (!list_values(r, cs, ncs, a, listed, &nl)) {
			/* what the model cannot say may lose the word */
			dec[nd++] = Z3_mk_true(c);
			per[nper++] = Z3_mk_and(c, nd, dec);
			continue;
		}
		rt_enc_scope es = {r, s, listed, nl, s->via, parent};
		Z3_ast enc[RT_MAX_OVERRIDES];
		unsigned split = 0; /* conditions the encoder may see otherwise */
		for (size_t i = 0; i < ncs; i++)
			if (cs[i].ov >= 0) {
				enc[cs[i].ov] = enc_condition(&es, cs[i].k->expr);
				if (!Z3_is_eq_ast(c, enc[cs[i].ov], cond[cs[i].ov]))
					split |= 1u << cs[i].ov;
			}
		if (depth == 0 && r->top_enc)
			for (unsigned j = 0; j < nov; j++)
				r->top_enc[a * nov + j] = enc[j];
		const char *display = display_of(cs, ncs, a);
		/* each encoder assignment e that differs from a only where split */
		for (unsigned sub = split;; sub = (sub - 1) & split) {
			unsigned e = (a & ~split) | sub;
			if (++shapes > RT_MAX_SHAPES) {
				too_many = true;
				break;
			}
			rt_shape sh;
			Z3_ast lost;
			if (!shape_of(r, leaf, cs, ncs, listed, nl, a, e, checked, &sh))
				lost = Z3_mk_true(c);
			else
				lost = shape_lost(r, s, &es, &sh, x, want, display, checked, depth);
			if (lost) {
				Z3_ast is[2 * RT_MAX_OVERRIDES + 2];
				unsigned n = 0;
				for (unsigned j = 0; j < nd; j++)
					is[n++] = dec[j];
				for (unsigned j = 0; j < nov; j++)
					if ((split >> j) & 1)
						is[n++] = (e >> j) & 1 ? enc[j] : Z3_mk_not(c, enc[j]);
				is[n++] = lost;
				per[nper++] = Z3_mk_and(c, n, is);
			}
			if (sub == 0)
				break;
		}
	}
	free(listed);
	if (too_many) {
		r->why |= RT_WHY_CASES;
		free(per);
		return Z3_mk_true(c);
	}
	Z3_ast out = nper == 0 ? NULL : nper == 1 ? per[0] : Z3_mk_or(c, nper, per);
	free(per);
	return out;
}

/* ---------------------------------------------------------- one leaf */

static void hex_of(const uint64_t *m, unsigned size, char *buf, size_t len)
{
	prove_format_hex(m, size, buf, len);
}

/* Appends text to buf (len bytes), as much as fits. */
static void append(char *buf, size_t len, const char *text)
{
	size_t at = strlen(buf), n = strlen(text);
	if (at + 1 >= len)
		return;
	if (n > len - at - 1)
		n = len - at - 1;
	memcpy(buf + at, text, n);
	buf[at + n] = 0;
}

/* Appends "; bits M what" to buf when m has any. */
static void say_bits(char *buf, size_t len, const uint64_t *m, unsigned size, const char *what)
{
	if (!any_bits(m, words_of(size)))
		return;
	char h[SPEC_MAX_BITS / 4u + 8u];
	hex_of(m, size, h, sizeof h);
	append(buf, len, buf[0] ? "; bits " : "bits ");
	append(buf, len, h);
	append(buf, len, " ");
	append(buf, len, what);
}

/* Why the model says word w (assignments a of its leaf's override
 * cases as the decoder evaluates them, e as the encoder does) does not
 * come back, from its shape; diff: the bits the codec re-encoded
 * otherwise (0 when it refused). */
static void explain(rt_run *r, const spec_bitset *leaf, const uint64_t *w, const uint64_t *diff,
                    unsigned a, unsigned e, char *buf, size_t len)
{
	buf[0] = 0;
	rt_case cs[RT_MAX_CASES];
	size_t nov, nl = 0;
	size_t ncs = chain_cases(leaf, cs, &nov);
	rt_shape sh;
	rt_value listed[RT_MAX_LISTED];
	unsigned why = r->why;
	if (ncs == SIZE_MAX || nov > RT_MAX_OVERRIDES || !list_values(r, cs, ncs, a, listed, &nl) ||
	    !shape_of(r, leaf, cs, ncs, listed, nl, a, e, true, &sh)) {
		r->why = why;
		return;
	}
	if (a != e) {
		for (size_t i = 0; i < ncs; i++)
			if (cs[i].ov >= 0 && ((a ^ e) >> cs[i].ov) & 1) {
				char line[64];
				snprintf(line, sizeof line, "%u", cs[i].k->loc.line);
				append(buf, len, buf[0] ? "; " : "");
				append(buf, len, "the encoder reads the override at line ");
				append(buf, len, line);
				append(buf, len, (e >> cs[i].ov) & 1 ? " as holding, the decoder does not"
				                                     : " as not holding, the decoder does");
			}
	}
	unsigned size = leaf->size, nw = words_of(size);
	uint64_t want[RT_WORDS], m[RT_WORDS];
	for (unsigned k = 0; k < nw; k++)
		want[k] = w[k] & ~(k < leaf->dontcare.nwords ? leaf->dontcare.w[k] : 0);
	for (unsigned k = 0; k < nw; k++)
		m[k] = sh.copied[k] & w[k] & ~want[k];
	say_bits(buf, len, m, size, "are don't-care bits that a field of the cases that apply reads");
	for (unsigned k = 0; k < nw; k++)
		m[k] = sh.constm[k] & (sh.constv[k] ^ want[k]);
	say_bits(buf, len, m, size,
	         "belong to an assert the decoder does not check here, whose value the encoder writes");
	for (unsigned k = 0; k < nw; k++)
		m[k] = sh.shadow[k] & want[k];
	say_bits(buf, len, m, size,
	         "belong to a field the decoder lists but the encoder leaves to another case it "
	         "visits, which has no field there");
	for (unsigned k = 0; k < nw; k++)
		m[k] = sh.none[k] & ~sh.shadow[k] & want[k];
	say_bits(buf, len, m, size,
	         "are read by no pattern, field or assert of the cases that apply: the encoder "
	         "writes 0 there");
	/* the bitset fields whose bits differ */
	for (size_t i = 0; i < sh.nsubs; i++) {
		const spec_field *f = sh.subs[i];
		bool differs = false;
		for (unsigned b = f->low; b <= f->high && !differs; b++)
			differs = (diff[b / 64] >> (b % 64)) & 1;
		if (!differs)
			continue;
		char line[160];
		snprintf(line, sizeof line, "bits %u-%u (field '%s') hold a sub-instruction that does "
		         "not come back", f->low, f->high, f->name);
		append(buf, len, buf[0] ? "; " : "");
		append(buf, len, line);
	}
	if (sh.conflict) {
		size_t at = strlen(buf);
		snprintf(buf + at, len - at, "%stwo asserts of the cases the encoder visits disagree",
		         at ? "; " : "");
	}
	if (sh.derived_bitset) {
		size_t at = strlen(buf);
		snprintf(buf + at, len - at, "%sa derived bitset-typed value decodes a sub-instruction "
		         "the encoder does not place", at ? "; " : "");
	}
}

typedef struct rt_out {
	const rt_run *r;
	uint64_t *w;
	uint32_t *gen;
	unsigned *a, *e;
} rt_out;

static void take_word(void *ctx, z3_base *b, Z3_model m)
{
	rt_out *o = ctx;
	const rt_run *r = o->r;
	z3_model_word(b, m, o->w, o->gen);
	for (unsigned j = 0; j < r->top_nov; j++) {
		Z3_ast v;
		if (Z3_model_eval(b->ctx, m, r->top_cond[j], true, &v) &&
		    Z3_get_bool_value(b->ctx, v) == Z3_L_TRUE)
			*o->a |= 1u << j;
	}
	*o->e = *o->a;
	for (unsigned j = 0; r->top_enc && j < r->top_nov; j++) {
		Z3_ast v, t = r->top_enc[*o->a * r->top_nov + j];
		if (t && Z3_model_eval(b->ctx, m, t, true, &v))
			*o->e = (*o->e & ~(1u << j)) | (unsigned)(Z3_get_bool_value(b->ctx, v) == Z3_L_TRUE)
			                                   << j;
	}
}

/* Asks q; on yes the word, the generation and the assignments of the
 * word's leaf's override cases, as the decoder (a) and the encoder (e)
 * evaluate them. */
static z3_answer ask(rt_run *r, Z3_ast q, uint64_t *w, uint32_t *gen, unsigned *a, unsigned *e)
{
	*a = *e = 0;
	rt_out o = {r, w, gen, a, e};
	r->st->queries++;
	return z3_ask(r->b, q, take_word, &o);
}

static void report_unknown(rt_run *r, const spec_bitset *leaf, unsigned why, spec_diags *diags)
{
	char text[1024];
	semantic_why_text(why, rt_why_text, sizeof rt_why_text / sizeof *rt_why_text, text,
	                  sizeof text);
	r->st->roundtrip_unknown++;
	spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", leaf->loc,
	              "whether the encoder gives every word of '%s' back is unknown (%s)", leaf->name,
	              text);
}

typedef struct rt_args {
	const spec_model *m;
	const prove_text_ops *ops;
} rt_args;

/* Leaf l of root: proved, a finding, or unknown (a diagnostic). */
static void rt_prove_leaf(rt_run *rp, const prove_text_ops *ops, const spec_root *root, size_t l,
                          spec_diags *diags)
{
	rt_run r = *rp;
	z3_base *b = r.b;
	semantic_stats *st = r.st;
	const spec_bitset *leaf = root->leaves[l];
	Z3_context c = b->ctx;
	Z3_ast in = semantic_leaf_holds(b, leaf, b->w);
	Z3_ast lost = NULL;
	if (in) {
		bool free_names = false;
		z3_scope s = {leaf, b->w, NULL, NULL, true, z3_memo_new(), &free_names, NULL, NULL};
		lost = level_lost(&r, &s, NULL, NULL, true, 0);
		z3_memo_free(s.memo);
	}
	rp->top_enc = r.top_enc;
	if (r.oom) {
		spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", leaf->loc,
		              "whether the encoder gives every word of '%s' back is unknown (out of "
		              "memory)", leaf->name);
		st->roundtrip_unknown++;
		return;
	}
	if (!lost) {
		/* no word, or none the shapes can lose: proved without a query */
		st->roundtrip_kept++;
		return;
	}
	Z3_ast both[2] = {in, lost};
	Z3_ast q = Z3_mk_and(c, 2, both);
	for (unsigned tries = 0; tries <= RT_TRIES && !r.oom; tries++) {
		uint64_t w[RT_WORDS] = {0};
		uint32_t gen = 0;
		unsigned a = 0, e = 0;
		z3_answer ans = ask(&r, q, w, &gen, &a, &e);
		if (ans == Z3_ANSWER_NO) {
			st->roundtrip_kept++;
			return;
		}
		if (ans == Z3_ANSWER_UNKNOWN) {
			r.why |= RT_WHY_SOLVER;
			break;
		}
		const spec_bitset *got = NULL;
		char did[512];
		uint64_t diff[RT_WORDS] = {0};
		int v = ops->roundtrip(ops->ctx, root, w, gen, &got, diff, did, sizeof did);
		if (v == PROVE_RT_LOST && got == leaf) {
			char h[SPEC_MAX_BITS / 4u + 8u], why[1024];
			hex_of(w, root->bitset->size, h, sizeof h);
			explain(&r, leaf, w, diff, a, e, why, sizeof why);
			st->roundtrip_findings++;
			spec_diag_add(diags, SPEC_WARNING, "roundtrip-lost", leaf->loc,
			              "the encoder does not give every word of '%s' back: %s (gen %" PRIu32
			              ") decodes to it, and %s%s%s%s (found by Z3, confirmed by the codec)",
			              leaf->name, h, gen, did, why[0] ? " (" : "", why, why[0] ? ")" : "");
			return;
		}
		r.why |= RT_WHY_CODEC;
		/* not this word again */
		Z3_ast at[2] = {Z3_mk_eq(c, b->w, z3_bits_sized(b, w, b->size)),
		                Z3_mk_eq(c, b->g, Z3_mk_unsigned_int64(c, gen, b->gen_sort))};
		Z3_ast blocked[2] = {q, Z3_mk_not(c, Z3_mk_and(c, 2, at))};
		q = Z3_mk_and(c, 2, blocked);
	}
	report_unknown(&r, leaf, r.why, diags);
}

static void rt_leaf(void *arg, z3_base *b, const spec_root *root, size_t l, bool spent,
                    semantic_stats *st, spec_diags *diags)
{
	const rt_args *args = arg;
	rt_run r = {.m = args->m, .b = b, .st = st};
	st->roundtrips++;
	if (spent)
		report_unknown(&r, root->leaves[l], RT_WHY_TIME, diags);
	else
		rt_prove_leaf(&r, args->ops, root, l, diags);
	free(r.top_enc);
}

bool prove_roundtrip(const spec_model *m, const prove_options *opt, spec_diags *diags,
                     semantic_stats *st)
{
	const prove_text_ops *ops = opt->text;
	if (!ops || !ops->roundtrip)
		return true;
	bool *top = semantic_top_roots(m);
	if (!top) {
		spec_diag_add(diags, SPEC_FATAL, "out-of-memory", (spec_loc){m->path, 0, 0},
		              "out of memory for the round-trip proofs");
		return false;
	}
	rt_args args = {m, ops};
	bool ok = true;
	for (size_t ri = 0; ok && ri < m->nroots; ri++)
		if (top[ri])
			ok = semantic_each_leaf(&m->roots[ri], opt, rt_leaf, &args, diags, st);
	free(top);
	return ok;
}
