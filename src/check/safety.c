/*
 * safety.c - expression safety (check.h, prove_semantic): no word makes an
 * expression of the spec go wrong, proved with Z3 leaf by leaf.
 *
 * Mesa's generator turns each <expr> into C over int64_t, so a word that
 * makes one overflow, divide by zero or shift by 64 or more is undefined
 * behaviour in Mesa's decoder and an evaluation error (or a wrapped value)
 * in ours.  And a <derived> value is printed through its width: an int,
 * offset or branch is sign-extended from its width (1 when none is given),
 * a float read as its 16 or 32 bits, so a value that does not fit prints
 * as another number.  For every expression a leaf's decoding can
 * evaluate (the override conditions and derived values of its bitset and
 * every ancestor) we ask, over the leaf's words and generations:
 *   - can it overflow int64 (+ - * unary -, bits a << pushes out,
 *     INT64_MIN / -1)?                                (expr-overflow)
 *   - can it divide or take a remainder by 0?         (expr-divide-by-zero)
 *   - can a shift count fall outside 0..63?           (expr-shift-range)
 *   - for a derived value evaluated without any of these: can it have
 *     bits above its width?                            (derived-value-lost)
 * following C's short-circuits (the right of && || and the arms of ?: are
 * evaluated only where they are reached; z3expr.c, z3_expr_hazards).  A
 * derived value inside an override counts only where the override holds.
 *
 * Each leaf of each root is its own scope: a sub-bitset's leaf taken alone
 * (a name its enclosing bitset passes as a <param> cannot be stated, and
 * the question is then unknown).  A question that cannot be put to Z3
 * exactly, or that Z3 gives up on, is unknown (semantic-unknown), never
 * proved.  The proofs speak of an expression evaluated for a word of a
 * leaf that has it; whether that word's display makes the decoder
 * evaluate it is not asked (so a finding may need a display that reaches
 * the expression; a "safe" holds whatever the display).
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAFE_WORDS (SPEC_MAX_BITS / 64u)
/* The hazards of z3_expr_hazards, then a derived value's width. */
#define SAFE_LOST Z3_HAZARDS
/* ...and, of an <assert>, that its bits can hold their value (here a
 * found word is the good outcome; never found, the finding) */
#define SAFE_ASSERT (Z3_HAZARDS + 1)
#define SAFE_KINDS (Z3_HAZARDS + 2)

enum { SAFE_YET, SAFE_UNKNOWN, SAFE_FOUND };

typedef struct safe_item {
	const spec_expr *x;        /* NULL: an assert's item */
	const spec_field *assert;  /* the assert (SAFE_ASSERT's question) */
	const spec_field *derived; /* the derived field x is the value of; NULL: a condition */
	const spec_bitset *owner;  /* the bitset whose case holds it */
	uint8_t state[SAFE_KINDS];
	bool applies[SAFE_KINDS];  /* asked at least once, in some scope */
	/* the first word found for each kind */
	uint64_t w[SAFE_KINDS][SAFE_WORDS];
	uint32_t gen[SAFE_KINDS];
	unsigned size[SAFE_KINDS];
	const spec_bitset *leaf[SAFE_KINDS];
	int64_t value; /* derived-value-lost: the value */
	/* unknown taken alone (a sub-bitset's param): asked again through
	 * the fields that decode it; retried: some such field was found */
	bool retry, retried;
	bool by_decoder; /* an assert unknown here, shown to hold by the decoder */
	bool decoded[SAFE_KINDS]; /* the word found is loose, the decoder's value bears it out */
} safe_item;

/* One question, waiting to be asked together with the same question of
 * other leaves: Z3 shares equal terms, so the leaves where an expression
 * reads the same give the same formula, asked once over all their words
 * (ir3's leaves share most of their ancestors' expressions). */
typedef struct safe_question {
	size_t it;        /* index in the run's items, which grow */
	unsigned kind;
	Z3_ast q;         /* the words of the scope (its leaf aside) that meet it */
	Z3_ast term;      /* derived-value-lost: the value; else NULL */
	bool loose;       /* a name stood for any value: a yes is not a finding */
	const spec_bitset *leaf;
	Z3_ast in;        /* the leaf's words */
} safe_question;

typedef struct safe_run {
	const spec_model *m;
	safe_item *items;
	size_t n, cap;
	safe_question *qs; /* of the root being asked */
	size_t nq, qcap;
	bool retry_only;   /* the second pass: only the items marked retry */
	semantic_stats *st;
	prove_settle_asserts *settle;
	void *settle_ctx;
	/* the decoder, to confirm a loose word with (NULL: none); the root
	 * being asked when words start from it (NULL: a root some field
	 * decodes, whose words alone mean little) */
	const prove_text_ops *ops;
	const spec_root *top;
	prove_taken *taken;
} safe_run;

/* Appends item, returning where it now lives; NULL when memory runs out. */
static safe_item *add_item(safe_run *r, safe_item item)
{
	safe_item *v = spec_grow(r->items, r->n + 1, &r->cap, sizeof *v, 64);
	if (!v)
		return NULL;
	r->items = v;
	r->items[r->n] = item;
	return &r->items[r->n++];
}

static safe_item *assert_item(safe_run *r, const spec_field *a, const spec_bitset *owner)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->items[i].assert == a)
			return &r->items[i];
	return add_item(r, (safe_item){.assert = a, .owner = owner});
}

static safe_item *item_of(safe_run *r, const spec_expr *x, const spec_field *derived,
                          const spec_bitset *owner)
{
	/* one item for one expression as one thing's value: an override's
	 * case or a bitset's variants that repeat a derived field share it */
	for (size_t i = 0; i < r->n; i++) {
		const safe_item *it = &r->items[i];
		if (it->x == x && it->owner == owner && !it->derived == !derived &&
		    (!derived || !strcmp(it->derived->name, derived->name)))
			return &r->items[i];
	}
	return add_item(r, (safe_item){.x = x, .derived = derived, .owner = owner});
}

/* Whether t is the constant false (asking Z3 about it is pointless). */
static bool is_false(z3_base *b, Z3_ast t)
{
	return Z3_get_bool_value(b->ctx, t) == Z3_L_FALSE;
}

/* Queues question k of it in scope s (whose leaf's words are `in`). */
static void queue_as(safe_run *r, z3_base *b, const z3_scope *s, Z3_ast in, safe_item *it,
                     unsigned k, Z3_ast q, Z3_ast term, bool loose);

static void queue(safe_run *r, z3_base *b, const z3_scope *s, Z3_ast in, safe_item *it,
                  unsigned k, Z3_ast q, Z3_ast term)
{
	queue_as(r, b, s, in, it, k, q, term, false);
}

/* queue, loose: a word found does not stand (the question covers more
 * words than the real ones), but "none" is still a proof. */
static void queue_as(safe_run *r, z3_base *b, const z3_scope *s, Z3_ast in, safe_item *it,
                     unsigned k, Z3_ast q, Z3_ast term, bool loose)
{
	if (r->retry_only && !it->retry)
		return;
	it->applies[k] = true;
	it->retried |= r->retry_only;
	if (it->state[k] == SAFE_FOUND || is_false(b, q))
		return;
	safe_question *v = spec_grow(r->qs, r->nq + 1, &r->qcap, sizeof *v, 256);
	if (!v) {
		it->state[k] = SAFE_UNKNOWN; /* not asked: not proved */
		return;
	}
	r->qs = v;
	/* the word is the outermost scope's: name its leaf */
	const z3_scope *top = s;
	while (top->outer)
		top = top->outer;
	r->qs[r->nq++] = (safe_question){(size_t)(it - r->items), k, q, term,
	                                 loose || (s->free_names && *s->free_names), top->leaf, in};
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
	return x < y ? -1 : x > y;
}

/* The order that puts one question of many leaves together. */
static int cmp_question(const void *pa, const void *pb)
{
	const safe_question *a = pa, *b = pb;
	int c = (a->it > b->it) - (a->it < b->it);
	if (!c)
		c = (a->kind > b->kind) - (a->kind < b->kind);
	if (!c)
		c = (a->loose > b->loose) - (a->loose < b->loose);
	if (!c)
		c = cmp_ptr(a->q, b->q);
	if (!c)
		c = cmp_ptr(a->term, b->term);
	return c;
}

static bool same_question(const safe_question *a, const safe_question *b)
{
	return a->it == b->it && a->kind == b->kind && a->loose == b->loose && a->q == b->q &&
	       a->term == b->term;
}

static char width_use(const spec_field *f);
static unsigned field_width(const spec_field *f);

/* Whether derived value v (raw bits) of field f does not print as itself
 * through its width: the concrete form of value_lost. */
static bool raw_lost(const spec_field *f, uint64_t v)
{
	unsigned w = field_width(f);
	if (width_use(f) == 'f')
		return v > (w == 16 ? 0xffffu : 0xffffffffu);
	if (w >= 64)
		return false;
	int64_t x = (int64_t)v, lo = -((int64_t)1 << (w - 1));
	int64_t hi = w == 63 ? INT64_MAX : ((int64_t)1 << w) - 1;
	return x < lo || x > hi;
}

/* A loose word for a derived-value-lost question: whether the decoder,
 * decoding it from r->top, takes this very definition (it->derived) and
 * computes a value its width does not keep.  Then that value is the
 * finding's (it->value). */
static bool lost_by_decoder(safe_run *r, z3_base *b, safe_item *it, unsigned k, Z3_model m)
{
	if (k != SAFE_LOST || !it->derived || !r->ops || !r->top || !r->taken)
		return false;
	uint64_t w[SAFE_WORDS] = {0};
	uint32_t gen = 0;
	z3_model_word(b, m, w, &gen);
	prove_taken *t = r->taken;
	if (!r->ops->taken(r->ops->ctx, r->top, w, gen, t))
		return false;
	for (size_t i = 0; i < t->ndecided; i++)
		if (t->decided[i].field == it->derived && raw_lost(it->derived, t->decided[i].raw)) {
			it->value = (int64_t)t->decided[i].raw;
			return true;
		}
	return false;
}

/* Asks the questions of group g[0..n) at once: does q hold for some word
 * of one of their leaves?  A yes records the word, its leaf and (for a
 * derived value) the value. */
static void ask_group(safe_run *r, z3_base *b, const safe_question *g, size_t n)
{
	safe_item *it = &r->items[g->it];
	unsigned k = g->kind;
	if (it->state[k] == SAFE_FOUND)
		return;
	Z3_ast *ins = malloc(n * sizeof *ins);
	if (!ins) {
		it->state[k] = SAFE_UNKNOWN;
		return;
	}
	for (size_t i = 0; i < n; i++)
		ins[i] = g[i].in;
	Z3_ast parts[2] = {g->q, n == 1 ? ins[0] : Z3_mk_or(b->ctx, (unsigned)n, ins)};
	free(ins);
	/* made before the push: an AST lives until a pop below the level it
	 * was made at */
	Z3_ast query = Z3_mk_and(b->ctx, 2, parts);
	Z3_solver_push(b->ctx, b->solver);
	Z3_solver_assert(b->ctx, b->solver, query);
	r->st->queries++;
	z3_answer a = z3_answer_of(z3_solve(b, b->solver));
	/* a word found where a name stood for any value may not be real,
	 * unless the decoder's own value for it bears it out */
	Z3_model m = a == Z3_ANSWER_YES ? Z3_solver_get_model(b->ctx, b->solver) : NULL;
	if (m)
		Z3_model_inc_ref(b->ctx, m);
	if (a == Z3_ANSWER_YES && g->loose) {
		if (m && lost_by_decoder(r, b, it, k, m))
			it->decoded[k] = true;
		else
			a = Z3_ANSWER_UNKNOWN;
	}
	if (a == Z3_ANSWER_YES) {
		if (m) {
			z3_model_word(b, m, it->w[k], &it->gen[k]);
			Z3_ast v;
			uint64_t u = 0;
			if (g->term && Z3_model_eval(b->ctx, m, g->term, true, &v))
				Z3_get_numeral_uint64(b->ctx, v, &u);
			if (!it->decoded[k])
				it->value = (int64_t)u;
		}
		it->state[k] = SAFE_FOUND;
		it->size[k] = b->size;
		it->leaf[k] = g->leaf;
		for (size_t i = 0; i < n; i++)
			if (prove_leaf_matches(g[i].leaf, it->w[k], it->gen[k])) {
				it->leaf[k] = g[i].leaf;
				break;
			}
	} else if (a == Z3_ANSWER_UNKNOWN) {
		it->state[k] = SAFE_UNKNOWN;
	}
	if (m)
		Z3_model_dec_ref(b->ctx, m);
	Z3_solver_pop(b->ctx, b->solver, 1);
}

/* Asks every question queued for one root, one query per group. */
static void ask_queued(safe_run *r, z3_base *b)
{
	if (!r->nq)
		return; /* and r->qs may be NULL, which qsort must not see */
	qsort(r->qs, r->nq, sizeof *r->qs, cmp_question);
	for (size_t i = 0, j; i < r->nq; i = j) {
		for (j = i + 1; j < r->nq && same_question(&r->qs[i], &r->qs[j]); j++)
			;
		ask_group(r, b, &r->qs[i], j - i);
	}
	r->nq = 0;
}

static void all_unknown(safe_item *it, unsigned from, unsigned to)
{
	it->retried = true;
	for (unsigned k = from; k < to; k++) {
		it->applies[k] = true;
		if (it->state[k] != SAFE_FOUND)
			it->state[k] = SAFE_UNKNOWN;
	}
}

/* How a derived field's type prints through its width: 0 in full (no
 * loss possible), 's' sign-extended from the width, 'f' a float's 16 or
 * 32 bits. */
static char width_use(const spec_field *f)
{
	switch (f->type) {
	case SPEC_TYPE_INT:
	case SPEC_TYPE_OFFSET:
	case SPEC_TYPE_BRANCH:
	case SPEC_TYPE_ABSBRANCH:
		return 's';
	case SPEC_TYPE_FLOAT:
		return 'f';
	default:
		return 0;
	}
}

static unsigned field_width(const spec_field *f)
{
	return f->high >= f->low ? f->high - f->low + 1 : 1;
}

/* The words whose derived value v does not print as itself. */
static Z3_ast value_lost(z3_base *b, const spec_field *f, Z3_ast v)
{
	Z3_context c = b->ctx;
	Z3_sort s64 = Z3_mk_bv_sort(c, 64);
	unsigned w = field_width(f);
	if (width_use(f) == 'f') {
		uint64_t lim = w == 16 ? 1ull << 16 : 1ull << 32;
		return Z3_mk_not(c, Z3_mk_bvule(c, v, Z3_mk_unsigned_int64(c, lim - 1, s64)));
	}
	if (w >= 64)
		return Z3_mk_false(c);
	/* sign-extended from bit w-1: a value of w bits, read as signed or
	 * as unsigned (a raw pattern the type reads as negative, ir3's
	 * offsets assembled from two fields), keeps every bit; anything
	 * else has bits the width drops: v must lie in -2^(w-1) .. 2^w - 1 */
	int64_t lo = -((int64_t)1 << (w - 1));
	int64_t hi = w == 63 ? INT64_MAX : ((int64_t)1 << w) - 1;
	Z3_ast in[2] = {Z3_mk_bvsle(c, Z3_mk_int64(c, lo, s64), v),
	                Z3_mk_bvsle(c, v, Z3_mk_int64(c, hi, s64))};
	return Z3_mk_not(c, Z3_mk_and(c, 2, in));
}


/* The questions of one expression in scope s, for the words `reach`
 * (NULL: the override around it cannot be stated, so a yes proves
 * nothing and is unknown). */
static void expr_questions(safe_run *r, z3_base *b, const z3_scope *s, Z3_ast in,
                           safe_item *it, Z3_ast reach)
{
	Z3_ast hz[Z3_HAZARDS], v = NULL;
	if (!z3_expr_hazards(b, s, it->x, hz, &v)) {
		all_unknown(it, 0, SAFE_KINDS);
		return;
	} else {
		/* where the case around it cannot be stated, every word of the
		 * leaf is asked: more words than evaluate it, so a word found
		 * proves nothing (loose), but none found proves it safe */
		bool loose = !reach;
		Z3_ast where = reach ? reach : Z3_mk_true(b->ctx);
		for (unsigned k = 0; k < Z3_HAZARDS; k++)
			queue_as(r, b, s, in, it, k, z3_and_kept_false(b, where, hz[k]), NULL, loose);
		if (!it->derived || !width_use(it->derived))
			return;
		/* asked of the words that evaluate it without a hazard: for the
		 * others the value is undefined (Mesa) or an error (isacheck) */
		Z3_ast none = Z3_mk_not(b->ctx, Z3_mk_or(b->ctx, Z3_HAZARDS, hz));
		queue_as(r, b, s, in, it, SAFE_LOST,
		         z3_and_kept_false(b, z3_and_kept_false(b, where, none),
		                           value_lost(b, it->derived, v)),
		         v, loose);
	}
}

/* Whether assert a can hold: its bits equal its value for some word of
 * s's leaf where its case holds (`reach`, NULL: cannot be stated). */
static void assert_question(safe_run *r, z3_base *b, const z3_scope *s, Z3_ast in,
                            safe_item *it, Z3_ast reach)
{
	const spec_field *a = it->assert;
	if (a->high >= s->leaf->size || a->high < a->low) {
		it->applies[SAFE_ASSERT] = true; /* lint reports it: nothing to prove here */
		return;
	}
	if (!reach) {
		all_unknown(it, SAFE_ASSERT, SAFE_ASSERT + 1);
		return;
	}
	unsigned n = a->high - a->low + 1;
	bool *bits = malloc(n * sizeof *bits);
	if (!bits) {
		all_unknown(it, SAFE_ASSERT, SAFE_ASSERT + 1);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		bits[i] = spec_bit(a->assert_value, a->low + i);
	Z3_ast eq = Z3_mk_eq(b->ctx, Z3_mk_extract(b->ctx, a->high, a->low, s->word),
	                     Z3_mk_bv_numeral(b->ctx, n, bits));
	free(bits);
	queue(r, b, s, in, it, SAFE_ASSERT, z3_and_kept_false(b, reach, eq), NULL);
}

/* Every expression the decoding of s's leaf can evaluate. */
static void scope_safety(safe_run *r, z3_base *b, const z3_scope *s, Z3_ast in)
{
	Z3_ast yes = Z3_mk_true(b->ctx);
	for (const spec_bitset *lv = s->leaf; lv; lv = lv->parent)
		for (size_t k = 0; k < lv->ncases; k++) {
			const spec_case *c = &lv->cases[k];
			Z3_ast holds = yes;
			if (c->expr) {
				safe_item *it = item_of(r, c->expr, NULL, lv);
				if (it)
					expr_questions(r, b, s, in, it, yes);
				Z3_ast cond = z3_expr_in(b, s, c->expr);
				holds = cond ? z3_is_true(b, cond) : NULL;
			}
			for (size_t f = 0; f < c->nfields; f++) {
				const spec_field *fd = &c->fields[f];
				if (fd->kind == SPEC_ASSERT) {
					safe_item *it = assert_item(r, fd, lv);
					if (it)
						assert_question(r, b, s, in, it, holds);
					continue;
				}
				if (fd->kind != SPEC_DERIVED || !fd->expr)
					continue;
				safe_item *it = item_of(r, fd->expr, fd, lv);
				if (it)
					expr_questions(r, b, s, in, it, holds);
			}
		}
}

static const char *const kind_rule[SAFE_KINDS] = {
	"expr-overflow", "expr-divide-by-zero", "expr-shift-range", "derived-value-lost",
	"assert-never-holds"};

/* An assert's verdict: it holds for some word (nothing to say), never
 * does (assert-never-holds), or that is unknown. */
static void report_assert(const safe_item *it, spec_diags *diags, semantic_stats *st)
{
	if (!it->applies[SAFE_ASSERT])
		return;
	const spec_field *a = it->assert;
	st->asserts++;
	if (it->state[SAFE_ASSERT] == SAFE_FOUND)
		return;
	if (it->by_decoder) {
		st->asserts_by_decoder++;
		return;
	}
	char want[SPEC_MAX_BITS + 1];
	unsigned n = a->high - a->low + 1, k = 0;
	for (unsigned i = n; i-- > 0 && k + 1 < sizeof want;)
		want[k++] = spec_bit(a->assert_value, a->low + i) ? '1' : '0';
	want[k] = '\0';
	if (it->state[SAFE_ASSERT] == SAFE_UNKNOWN) {
		st->asserts_unknown++;
		spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", a->loc,
		              "whether the assert of bits %u..%u (%s) in '%s' ever holds is unknown "
		              "(a name is not exactly translatable for Z3, or Z3 gave up)", a->low,
		              a->high, want, it->owner->name);
		return;
	}
	st->asserts_never++;
	bool in_override = false;
	for (size_t c = 0; c + 1 < it->owner->ncases && !in_override; c++)
		in_override = a >= it->owner->cases[c].fields &&
		              a < it->owner->cases[c].fields + it->owner->cases[c].nfields;
	spec_diag_add(diags, SPEC_WARNING, "assert-never-holds", a->loc,
	              "the assert of bits %u..%u (%s) in '%s' never holds: no word of any leaf "
	              "that has it, where its case holds, has those bits, so the decoder warns on "
	              "every such word it checks it for (proved by Z3)%s", a->low, a->high, want,
	              it->owner->name,
	              in_override ? "; in an <override>, that flags every word the override "
	                            "selects, which is by design if it is meant as a warning" : "");
}

static void report(const safe_item *it, spec_diags *diags, semantic_stats *st)
{
	if (it->assert) {
		report_assert(it, diags, st);
		return;
	}
	const char *text = spec_expr_text(it->x);
	spec_loc loc = spec_expr_loc(it->x);
	char what[160];
	if (it->derived)
		snprintf(what, sizeof what, "derived '%s' of '%s'", it->derived->name, it->owner->name);
	else
		snprintf(what, sizeof what, "the condition of an override of '%s'", it->owner->name);
	bool any = false, found = false;
	char unknown[200] = "";
	size_t ul = 0;
	for (unsigned k = 0; k < SAFE_KINDS; k++) {
		if (!it->applies[k])
			continue;
		any = true;
		if (it->state[k] == SAFE_UNKNOWN) {
			static const char *const asks[SAFE_LOST + 1] = {
				"can overflow int64", "can divide by zero", "can shift by a count outside 0..63",
				"can lose bits to its width"};
			int n = snprintf(unknown + ul, sizeof unknown - ul, "%s%s", ul ? ", " : "", asks[k]);
			if (n > 0 && (size_t)n < sizeof unknown - ul)
				ul += (size_t)n;
			continue;
		}
		if (it->state[k] != SAFE_FOUND)
			continue;
		found = true;
		char word[SPEC_MAX_BITS / 4u + SAFE_WORDS + 8u];
		prove_format_hex(it->w[k], it->size[k], word, sizeof word);
		const char *leaf = it->leaf[k]->name;
		if (k == SAFE_LOST) {
			const spec_field *f = it->derived;
			unsigned w = field_width(f);
			int64_t shown;
			if (width_use(f) == 'f')
				shown = (int64_t)((uint64_t)it->value & (w == 16 ? 0xffffu : 0xffffffffu));
			else {
				uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1, u = (uint64_t)it->value & m;
				shown = w < 64 && (u >> (w - 1)) & 1 ? (int64_t)(u | ~m) : (int64_t)u;
			}
			spec_diag_add(diags, SPEC_WARNING, kind_rule[k], loc,
			              "%s (%s, width %u%s) is %" PRId64 " for word %s of '%s' at gen %" PRIu32
			              ", printed as %s%" PRId64 ": the value has bits above its width "
			              "(%s)", what, f->type_name ? f->type_name : "?", w,
			              f->has_width ? "" : ", none given: 1", it->value, word, leaf,
			              it->gen[k], width_use(f) == 'f' ? "the float of bits " : "", shown,
			              it->decoded[k] ? "found by Z3, confirmed by the decoder's value"
			                             : "proved by Z3");
			continue;
		}
		spec_diag_add(diags, SPEC_ERROR, kind_rule[k], loc,
		              "%s (%s) %s for word %s of '%s' at gen %" PRIu32 " (Mesa's generated C: "
		              "undefined behaviour; isacheck: %s) (proved by Z3)", what, text,
		              k == Z3_HAZARD_OVERFLOW ? "overflows int64"
		              : k == Z3_HAZARD_DIVIDE ? "divides by zero"
		                                      : "shifts by a count outside 0..63",
		              word, leaf, it->gen[k],
		              k == Z3_HAZARD_OVERFLOW ? "the value wraps" : "an expression error");
	}
	if (!any)
		return;
	if (ul)
		spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", loc,
		              "%s (%s): whether it %s is unknown (a <param> stands for any value, "
		              "a name is not exactly translatable for Z3, or Z3 gave up)", what, text,
		              unknown);
	st->exprs++;
	if (found)
		st->expr_findings++;
	else if (ul)
		st->expr_unknown++;
	else
		st->expr_safe++;
}

/* Whether root has an item to ask again. */
static bool root_retries(const safe_run *r, const spec_bitset *root)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->items[i].retry && r->items[i].owner->root == root)
			return true;
	return false;
}

/* The second pass: the items unknown in a sub-bitset taken alone, asked
 * in each place its words come from: every leaf with a field of its type
 * (any case; an override's field where the override holds), the field's
 * bits its word, its params resolved in that leaf.  One level: a leaf
 * that is itself a sub-bitset's lends names that stand for any value. */
static bool retry_through_fields(safe_run *r, const spec_model *m, const prove_options *opt,
                                 spec_diags *diags)
{
	for (size_t ri = 0; ri < m->nroots; ri++) {
		const spec_root *root = &m->roots[ri];
		bool outer_sub = spec_is_field_type(m, root->bitset), started = false;
		r->top = outer_sub ? NULL : root;
		z3_base b;
		for (size_t l = 0; l < root->nleaves; l++) {
			const spec_bitset *leaf = root->leaves[l];
			bool free_names = false;
			z3_scope o = {leaf, NULL, NULL, NULL, !outer_sub, NULL, &free_names, NULL, NULL};
			for (const spec_bitset *lv = leaf; lv; lv = lv->parent)
				for (size_t k = 0; k < lv->ncases; k++)
					for (size_t f = 0; f < lv->cases[k].nfields; f++) {
						const spec_field *fd = &lv->cases[k].fields[f];
						const spec_root *sub = NULL;
						for (size_t t = 0; t < m->nroots && !sub; t++)
							if (m->roots[t].bitset == fd->bitset)
								sub = &m->roots[t];
						if (fd->kind != SPEC_FIELD || fd->type != SPEC_TYPE_BITSET || !sub ||
						    fd->high >= leaf->size ||
						    fd->high - fd->low + 1 != fd->bitset->size ||
						    !root_retries(r, fd->bitset))
							continue;
						if (!started) {
							/* a context of its own for each leaf, asked and
							 * dropped with it: Z3 keeps what one context ever
							 * made (etnaviv: 500 MB when it was one per root) */
							if (!z3_base_init(&b, root->bitset->size, opt)) {
								z3_cannot_start(diags, root->bitset->loc);
								return false;
							}
							started = true;
							o.word = b.w;
							o.memo = z3_memo_new();
						}
						Z3_ast reach = semantic_leaf_holds(&b, leaf, b.w);
						if (!reach)
							continue;
						if (lv->cases[k].expr) {
							Z3_ast cond = z3_expr_in(&b, &o, lv->cases[k].expr);
							reach = cond ? z3_and_kept_false(&b, reach, z3_is_true(&b, cond)) : NULL;
						}
						if (!reach) {
							for (size_t i = 0; i < r->n; i++)
								if (r->items[i].retry &&
								    r->items[i].owner->root == fd->bitset)
									for (unsigned q = 0; q < SAFE_KINDS; q++)
										if (r->items[i].applies[q])
											all_unknown(&r->items[i], q, q + 1);
							continue;
						}
						Z3_ast word = Z3_mk_extract(b.ctx, fd->high, fd->low, b.w);
						for (size_t sl = 0; sl < sub->nleaves; sl++) {
							Z3_ast in = semantic_leaf_holds(&b, sub->leaves[sl], word);
							if (!in)
								continue;
							z3_scope inner = {sub->leaves[sl], word, fd, &o, true,
							                  z3_memo_new(), &free_names, NULL, NULL};
							scope_safety(r, &b, &inner, z3_and_kept_false(&b, reach, in));
							z3_memo_free(inner.memo);
						}
					}
			if (started) {
				ask_queued(r, &b);
				z3_memo_free(o.memo);
				z3_base_free(&b);
				started = false;
			}
		}
	}
	return true;
}

/* The asserts still unknown, put to r->settle together. */
static bool settle_unknown_asserts(safe_run *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->items[i].assert && r->items[i].applies[SAFE_ASSERT] &&
		     r->items[i].state[SAFE_ASSERT] == SAFE_UNKNOWN;
	if (!n || !r->settle)
		return true;
	const spec_bitset **owners = malloc(n * sizeof *owners);
	const spec_field **asserts = malloc(n * sizeof *asserts);
	bool *held = malloc(n * sizeof *held);
	size_t *which = malloc(n * sizeof *which);
	bool ok = owners && asserts && held && which;
	for (size_t i = 0, k = 0; ok && i < r->n; i++)
		if (r->items[i].assert && r->items[i].applies[SAFE_ASSERT] &&
		    r->items[i].state[SAFE_ASSERT] == SAFE_UNKNOWN) {
			owners[k] = r->items[i].owner;
			asserts[k] = r->items[i].assert;
			which[k++] = i;
		}
	/* out of memory here only leaves them unknown */
	if (ok && r->settle(r->settle_ctx, n, owners, asserts, held))
		for (size_t k = 0; k < n; k++)
			r->items[which[k]].by_decoder = held[k];
	free(owners);
	free(asserts);
	free(held);
	free(which);
	return true;
}

bool prove_expression_safety(const spec_model *m, const prove_options *opt, spec_diags *diags,
                             semantic_stats *st, prove_settle_asserts *settle, void *settle_ctx)
{
	safe_run r = {.m = m, .st = st, .settle = settle, .settle_ctx = settle_ctx, .ops = opt->text};
	if (r.ops && (!r.ops->taken || !(r.taken = malloc(sizeof *r.taken))))
		r.ops = NULL; /* nothing to confirm with: loose words stay unknown */
	bool ok = true;
	for (size_t ri = 0; ok && ri < m->nroots; ri++) {
		const spec_root *root = &m->roots[ri];
		/* a root some field decodes is reached through that field: its
		 * params come from outside, and a name found nowhere is then
		 * unknown, not 0 */
		bool sub = spec_is_field_type(m, root->bitset);
		r.top = sub ? NULL : root;
		z3_base b;
		bool started = false;
		for (size_t l = 0; ok && l < root->nleaves; l++) {
			const spec_bitset *leaf = root->leaves[l];
			bool has_expr = false;
			for (const spec_bitset *lv = leaf; lv && !has_expr; lv = lv->parent)
				for (size_t k = 0; k < lv->ncases && !has_expr; k++) {
					has_expr = lv->cases[k].expr != NULL;
					for (size_t f = 0; f < lv->cases[k].nfields && !has_expr; f++)
						has_expr = lv->cases[k].fields[f].kind != SPEC_FIELD;
				}
			if (!has_expr)
				continue;
			if (!started) {
				if (!z3_base_init(&b, root->bitset->size, opt)) {
					z3_cannot_start(diags, root->bitset->loc);
					ok = false;
					break;
				}
				started = true;
			}
			Z3_ast in = semantic_leaf_holds(&b, leaf, b.w);
			if (!in)
				continue;
			/* set once a name stands for any value, and kept: the
			 * scope's memo may hold such a translation from then on */
			bool free_names = false;
			z3_scope s = {leaf, b.w, NULL, NULL, !sub, z3_memo_new(), &free_names, NULL, NULL};
			scope_safety(&r, &b, &s, in);
			z3_memo_free(s.memo);
		}
		if (started) {
			ask_queued(&r, &b);
			z3_base_free(&b);
		}
	}
	/* what is unknown in a sub-bitset taken alone, asked again where
	 * its words come from */
	bool again = false;
	for (size_t i = 0; ok && i < r.n; i++) {
		safe_item *it = &r.items[i];
		for (unsigned k = 0; k < SAFE_KINDS; k++)
			if (it->state[k] == SAFE_UNKNOWN && spec_is_field_type(m, it->owner->root)) {
				it->retry = true;
				again = true;
			}
		if (it->retry)
			for (unsigned k = 0; k < SAFE_KINDS; k++)
				if (it->state[k] == SAFE_UNKNOWN)
					it->state[k] = SAFE_YET;
	}
	if (again) {
		r.retry_only = true;
		ok = retry_through_fields(&r, m, opt, diags);
		/* no field reaches it: as unknown as it was alone */
		for (size_t i = 0; ok && i < r.n; i++)
			if (r.items[i].retry && !r.items[i].retried)
				for (unsigned k = 0; k < SAFE_KINDS; k++)
					if (r.items[i].applies[k] && r.items[i].state[k] == SAFE_YET)
						r.items[i].state[k] = SAFE_UNKNOWN;
	}
	ok = ok && settle_unknown_asserts(&r);
	for (size_t i = 0; ok && i < r.n; i++)
		report(&r.items[i], diags, st);
	free(r.items);
	free(r.qs);
	free(r.taken);
	return ok;
}
