/*
 * semantic.c - what an instruction means, beyond which leaf it is
 * (check.h, section "semantic", prove_semantic): dead and shadowed
 * <override> cases, proved with Z3.
 *
 * The decoder reads an override case through two look-ups (Mesa's
 * find_field and find_display): for a name, it walks the cases from the
 * leaf upwards, each bitset's overrides in document order and then its
 * default, and takes the first case that defines the name and holds; a
 * display is the first holding case that has one.  So an override case
 * decides something only where its condition holds and no case before it
 * in that walk both defines the same thing and holds.
 *
 * For each override case we ask, leaf by leaf below its bitset (the
 * leaf's pattern bits and generations are the words it can meet):
 *   - does its condition hold for some word?  If never, for any leaf,
 *     it is dead (override-dead);
 *   - for each thing it defines (its display, each field and derived
 *     value), is there a word where it holds and every earlier definer
 *     of that thing does not?  If a thing never gets such a word, the
 *     case never decides it (override-shadowed, naming what shadows it).
 * A question answered once is not asked again for later leaves, so the
 * cost is the live cases once plus the dead and shadowed ones once per
 * leaf.  A condition Z3 cannot be given exactly (z3expr.c: a name an
 * earlier override may define, a param, a division by a variable), or a
 * query Z3 gives up on, makes the verdict unknown (semantic-unknown),
 * never proved.  With a codec to ask (prove_text_ops.taken), the walk is
 * made once more for what is unknown (confirm_walk): a word Z3 proposes
 * through a lenient translation, and the decoder's report of what it
 * took for that word, settles "holds" and "decides" (and, for
 * expression safety, an assert that holds), never "never".
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEM_WORDS (SPEC_MAX_BITS / 64u)
/* Bitset-typed fields followed down from a root's leaves. */
#define SEM_MAX_DEPTH 4u

/* What one override case defines: its display (item 0, when it has
 * one) and its fields and derived values (asserts decide nothing). */
typedef struct sem_item {
	const char *name;   /* NULL: the display */
	bool used, unknown;
} sem_item;

typedef struct sem_case {
	const spec_bitset *owner;
	size_t index;       /* in owner->cases */
	bool live, live_unknown;
	bool by_decoder;    /* live shown by a decoded witness (confirm_walk) */
	unsigned tries;     /* words confirm_walk had the decoder decode for it */
	uint64_t witness[SEM_WORDS];
	uint32_t witness_gen;
	unsigned witness_size; /* bits: the root decoding started from */
	sem_item *items;
	size_t nitems;
} sem_case;

/* Root `outer` has a field decoded by root `inner`. */
typedef struct sem_sub {
	const spec_bitset *outer, *inner;
} sem_sub;

/* An assert expression safety left unknown, asked of the decoder. */
typedef struct sem_assert {
	const spec_field *a;
	const spec_bitset *owner;
	const spec_case *kase; /* of owner's cases, the one that has it */
	bool held;             /* the decoder checked it and it held */
	unsigned tries;
} sem_assert;

typedef struct sem_run {
	const spec_model *m;
	prove_options opt;
	sem_case *cases;    /* every override case of the model */
	size_t ncases;
	size_t *first_of;   /* per bitset index: its first case in cases, or SIZE_MAX */
	sem_sub *subs;
	size_t nsubs;
	/* per enum of the model (index in m->enums), per value: a field of
	 * that enum can hold it (reached), or maybe can (unknown); used: some
	 * field has the enum's type */
	uint8_t **enum_state;
	bool *enum_used;
	bool enum_open; /* a derived enum field exists, and a value of its enum is not reached */
	bool enum_touched;
	semantic_stats *st;
	/* the walk that asks the decoder (confirm_walk): the root words
	 * start from, and what the decoder took for the last witness */
	bool confirm;
	const spec_root *top;
	prove_taken *taken;
	struct sem_assert *want; /* the asserts asked about (settle_asserts) */
	size_t nwant;
	spec_diags *diags;
} sem_run;

enum { ENUM_UNSEEN, ENUM_UNKNOWN, ENUM_REACHED };

static bool case_defines(const spec_case *c, const char *name)
{
	if (!name)
		return c->display != NULL;
	for (size_t f = 0; f < c->nfields; f++)
		if (c->fields[f].kind != SPEC_ASSERT && !strcmp(c->fields[f].name, name))
			return true;
	return false;
}

static bool settled(const sem_case *sc)
{
	if (!sc->live)
		return false;
	for (size_t i = 0; i < sc->nitems; i++)
		if (!sc->items[i].used)
			return false;
	return true;
}

/* Asks whether q can hold with what b's solver holds; on yes, the word
 * and generation of a model go to w and gen (when w is not NULL). */
static z3_answer ask(sem_run *r, z3_base *b, Z3_ast q, uint64_t *w, uint32_t *gen)
{
	Z3_solver_push(b->ctx, b->solver);
	Z3_solver_assert(b->ctx, b->solver, q);
	r->st->queries++;
	z3_answer a = z3_answer_of(z3_solve(b, b->solver));
	if (a == Z3_ANSWER_YES && w) {
		Z3_model m = Z3_solver_get_model(b->ctx, b->solver);
		if (m) {
			Z3_model_inc_ref(b->ctx, m);
			z3_model_word(b, m, w, gen);
			Z3_model_dec_ref(b->ctx, m);
		}
	}
	Z3_solver_pop(b->ctx, b->solver, 1);
	return a;
}

/* The condition of override c as the decoder evaluates it in scope s
 * (c assumed while it is evaluated); NULL: not exactly translatable. */
static Z3_ast condition(z3_base *b, const z3_scope *s, const spec_case *c)
{
	return z3_expr_in(b, s, c->expr);
}

/* That case k of owner decides item `name` (NULL: the display) for the
 * words of scope s: k's condition `holds`, and no case the decoder looks
 * at first (lower bitsets of the chain, then owner's cases before k)
 * defines the item and holds.  *never: a default case comes first, so it
 * never does.  NULL (and *never false) when a condition cannot be
 * translated. */
static Z3_ast decides(z3_base *b, const z3_scope *s, const spec_bitset *owner, size_t k,
                      const char *name, Z3_ast holds, bool *never)
{
	Z3_ast parts[64];
	unsigned n = 0;
	*never = false;
	parts[n++] = holds;
	for (const spec_bitset *lv = s->leaf; lv; lv = lv->parent) {
		size_t end = lv == owner ? k : lv->ncases;
		for (size_t j = 0; j < end; j++) {
			const spec_case *c = &lv->cases[j];
			if (!case_defines(c, name))
				continue;
			if (!c->expr) {
				*never = true; /* a default before it always wins */
				return NULL;
			}
			Z3_ast e = condition(b, s, c);
			if (!e || n == sizeof parts / sizeof *parts)
				return NULL;
			parts[n++] = Z3_mk_not(b->ctx, z3_is_true(b, e));
		}
		if (lv == owner)
			break;
	}
	return n == 1 ? holds : Z3_mk_and(b->ctx, n, parts);
}

/* Every unsettled override case on the chain of scope s's leaf, for the
 * words that reach s (`where`).  In a scope whose reaching could not be
 * stated exactly (`loose`: a condition left out, so more words than the
 * real ones), a "no" still proves no, but a "yes" proves nothing. */
/* The model's index of enum e. */
static size_t enum_index(const spec_model *m, const spec_enum *e)
{
	return (size_t)(e - m->enums);
}

/* The values a derived enum-typed field of scope s's chain can take for
 * the words that reach s: one question per value not reached yet.  (A
 * plain field's values are a question of bits: enum_plain.) */
static void enum_open_update(sem_run *r);

static void enum_derived(sem_run *r, z3_base *b, const z3_scope *s, bool loose)
{
	if (!r->enum_open)
		return;
	for (const spec_bitset *lv = s->leaf; lv; lv = lv->parent)
		for (size_t k = 0; k < lv->ncases; k++)
			for (size_t f = 0; f < lv->cases[k].nfields; f++) {
				const spec_field *fd = &lv->cases[k].fields[f];
				if (fd->kind != SPEC_DERIVED || fd->type != SPEC_TYPE_ENUM || !fd->enm)
					continue;
				uint8_t *st = r->enum_state[enum_index(r->m, fd->enm)];
				bool pending = false;
				for (size_t v = 0; v < fd->enm->nvalues && !pending; v++)
					pending = st[v] != ENUM_REACHED;
				if (!pending)
					continue;
				Z3_ast x = z3_expr_in(b, s, fd->expr);
				for (size_t v = 0; v < fd->enm->nvalues; v++) {
					if (st[v] == ENUM_REACHED)
						continue;
					r->enum_touched = true;
					if (!x) {
						st[v] = ENUM_UNKNOWN;
						continue;
					}
					Z3_ast val = Z3_mk_int64(b->ctx, fd->enm->values[v].val,
					                         Z3_mk_bv_sort(b->ctx, 64));
					z3_answer a = ask(r, b, Z3_mk_eq(b->ctx, x, val), NULL, NULL);
					if (a == Z3_ANSWER_YES && !loose)
						st[v] = ENUM_REACHED;
					else if (a != Z3_ANSWER_NO)
						st[v] = ENUM_UNKNOWN;
				}
			}
}

/* The values plain enum-typed fields can hold: a value is reached when
 * some leaf's pattern leaves room for it in such a field (words that
 * reach the leaf through an enclosing field may fix more bits: counting
 * them in can only find more values, so a value never reached is never
 * produced). */
static void enum_plain(sem_run *r)
{
	const spec_model *m = r->m;
	for (size_t ri = 0; ri < m->nroots; ri++)
		for (size_t l = 0; l < m->roots[ri].nleaves; l++) {
			const spec_bitset *leaf = m->roots[ri].leaves[l];
			leaf_cube lc;
			uint64_t fixed[SEM_WORDS], value[SEM_WORDS];
			leaf_cube_init(&lc, leaf, fixed, value, words_for(leaf->size));
			for (const spec_bitset *lv = leaf; lv; lv = lv->parent)
				for (size_t k = 0; k < lv->ncases; k++)
					for (size_t f = 0; f < lv->cases[k].nfields; f++) {
						const spec_field *fd = &lv->cases[k].fields[f];
						if (fd->type != SPEC_TYPE_ENUM || !fd->enm)
							continue;
						size_t e = enum_index(m, fd->enm);
						r->enum_used[e] = true;
						if (fd->kind != SPEC_FIELD || lc.empty || fd->high >= leaf->size ||
						    fd->high - fd->low >= 64)
							continue;
						unsigned width = fd->high - fd->low + 1;
						uint64_t fmask = width == 64 ? ~0ull : (1ull << width) - 1, fx = 0, fv = 0;
						for (unsigned i = 0; i < width; i++) {
							unsigned bit = fd->low + i;
							fx |= (fixed[bit / 64] >> (bit % 64) & 1) << i;
							fv |= (value[bit / 64] >> (bit % 64) & 1) << i;
						}
						for (size_t v = 0; v < fd->enm->nvalues; v++) {
							uint64_t u = (uint64_t)fd->enm->values[v].val;
							if ((u & ~fmask) == 0 && (u & fx) == fv)
								r->enum_state[e][v] = ENUM_REACHED;
						}
					}
		}
}

/* Whether some derived enum-typed field's enum has a value not reached. */
static void enum_open_update(sem_run *r)
{
	const spec_model *m = r->m;
	r->enum_open = false;
	for (size_t i = 0; i < m->nbitsets && !r->enum_open; i++) {
		const spec_bitset *bs = m->bitsets[i];
		for (size_t k = 0; k < bs->ncases && !r->enum_open; k++)
			for (size_t f = 0; f < bs->cases[k].nfields && !r->enum_open; f++) {
				const spec_field *fd = &bs->cases[k].fields[f];
				if (fd->kind != SPEC_DERIVED || fd->type != SPEC_TYPE_ENUM || !fd->enm)
					continue;
				const uint8_t *st = r->enum_state[enum_index(m, fd->enm)];
				for (size_t v = 0; v < fd->enm->nvalues && !r->enum_open; v++)
					r->enum_open = st[v] != ENUM_REACHED;
			}
	}
}

static void scope_questions(sem_run *r, z3_base *b, const z3_scope *s, Z3_ast where, bool loose)
{
	bool pushed = false;
	for (const spec_bitset *lv = s->leaf; lv; lv = lv->parent) {
		size_t first = r->first_of[lv->index];
		if (first == SIZE_MAX)
			continue;
		for (size_t k = 0; k + 1 < lv->ncases; k++) {
			sem_case *sc = &r->cases[first + k];
			if (settled(sc))
				continue;
			if (!pushed) {
				Z3_solver_push(b->ctx, b->solver);
				Z3_solver_assert(b->ctx, b->solver, where);
				pushed = true;
			}
			const spec_case *c = &lv->cases[k];
			Z3_ast cond = condition(b, s, c);
			if (!cond) {
				sc->live_unknown |= !sc->live;
				for (size_t i = 0; i < sc->nitems; i++)
					sc->items[i].unknown |= !sc->items[i].used;
				continue;
			}
			Z3_ast holds = z3_is_true(b, cond);
			bool live_here = sc->live;
			if (!sc->live) {
				uint64_t w[SEM_WORDS];
				uint32_t gen;
				z3_answer a = ask(r, b, holds, w, &gen);
				if (a == Z3_ANSWER_YES && !loose) {
					sc->live = live_here = true;
					memcpy(sc->witness, w, sizeof w);
					sc->witness_gen = gen;
					sc->witness_size = b->size;
				} else if (a != Z3_ANSWER_NO) {
					sc->live_unknown = true;
					live_here = a == Z3_ANSWER_YES;
				}
			}
			if (!live_here)
				continue;
			for (size_t i = 0; i < sc->nitems; i++) {
				sem_item *it = &sc->items[i];
				if (it->used)
					continue;
				bool never;
				Z3_ast q = decides(b, s, lv, k, it->name, holds, &never);
				z3_answer a = never ? Z3_ANSWER_NO
				              : q  ? ask(r, b, q, NULL, NULL)
				                   : Z3_ANSWER_UNKNOWN;
				if (a == Z3_ANSWER_YES && !loose)
					it->used = true;
				else if (a != Z3_ANSWER_NO)
					it->unknown = true;
			}
		}
	}
	if (r->enum_open) {
		if (!pushed) {
			Z3_solver_push(b->ctx, b->solver);
			Z3_solver_assert(b->ctx, b->solver, where);
			pushed = true;
		}
		r->enum_touched = false;
		enum_derived(r, b, s, loose);
		if (r->enum_touched)
			enum_open_update(r);
	}
	if (pushed)
		Z3_solver_pop(b->ctx, b->solver, 1);
}

Z3_ast z3_bits_sized(z3_base *b, const uint64_t *w, unsigned size)
{
	bool bit[SPEC_MAX_BITS];
	for (unsigned i = 0; i < size; i++)
		bit[i] = (w[i / 64] >> (i % 64)) & 1;
	return Z3_mk_bv_numeral(b->ctx, size, bit);
}

Z3_ast semantic_leaf_holds(z3_base *b, const spec_bitset *leaf, Z3_ast word)
{
	leaf_cube lc;
	uint64_t fixed[SEM_WORDS], value[SEM_WORDS];
	leaf_cube_init(&lc, leaf, fixed, value, words_for(leaf->size));
	if (lc.empty)
		return NULL;
	Z3_ast parts[2] = {
		Z3_mk_eq(b->ctx, Z3_mk_bvand(b->ctx, word, z3_bits_sized(b, fixed, leaf->size)),
		         z3_bits_sized(b, value, leaf->size)),
		z3_in_gen(b, leaf->gen)};
	return Z3_mk_and(b->ctx, 2, parts);
}

static bool confirmable(const sem_case *sc);
static bool assert_pending(const sem_run *r, const spec_bitset *root);

/* Whether any override case of root (or of roots its leaves' bitset
 * fields decode, depth levels down) is unsettled (in confirm_walk: is
 * unknown and may be settled by a word, or has an assert asked about). */
static bool root_pending(const sem_run *r, const spec_bitset *root, unsigned depth)
{
	if (r->confirm && assert_pending(r, root))
		return true;
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].owner->root == root &&
		    (r->confirm ? confirmable(&r->cases[i]) : !settled(&r->cases[i])))
			return true;
	if (depth >= SEM_MAX_DEPTH)
		return false;
	for (size_t i = 0; i < r->nsubs; i++)
		if (r->subs[i].outer == root && r->subs[i].inner != root &&
		    root_pending(r, r->subs[i].inner, depth + 1))
			return true;
	return false;
}

/* Whether a derived enum-typed field still has values to ask about: the
 * walk over the leaves must then go on after the overrides are settled. */
static bool enums_open(const sem_run *r)
{
	return r->enum_open && !r->confirm;
}

static void confirm_questions(sem_run *r, z3_base *b, const z3_scope *s, Z3_ast where);

static Z3_ast and2(z3_base *b, Z3_ast x, Z3_ast y)
{
	Z3_ast both[2] = {x, y};
	return Z3_mk_and(b->ctx, 2, both);
}

/* Asks the questions of scope s (in confirm_walk: the decoder's), then
 * goes into every bitset-typed field the decoder takes from s's leaf:
 * each leaf of that field's root, its word the field's bits, reached
 * where the field is the case's to decide. */
static void visit(sem_run *r, z3_base *b, const z3_scope *s, Z3_ast where, bool loose,
                  unsigned depth)
{
	if (r->confirm)
		confirm_questions(r, b, s, where);
	else
		scope_questions(r, b, s, where, loose);
	if (depth >= SEM_MAX_DEPTH)
		return;
	for (const spec_bitset *lv = s->leaf; lv; lv = lv->parent)
		for (size_t k = 0; k < lv->ncases; k++) {
			const spec_case *c = &lv->cases[k];
			for (size_t f = 0; f < c->nfields; f++) {
				const spec_field *fd = &c->fields[f];
				if (fd->kind != SPEC_FIELD || fd->type != SPEC_TYPE_BITSET || !fd->bitset ||
				    fd->high >= s->leaf->size || fd->high - fd->low + 1 != fd->bitset->size)
					continue;
				const spec_root *sub = NULL;
				for (size_t ri = 0; ri < r->m->nroots && !sub; ri++)
					if (r->m->roots[ri].bitset == fd->bitset)
						sub = &r->m->roots[ri];
				if (!sub || (!root_pending(r, fd->bitset, depth + 1) && !enums_open(r)))
					continue;
				bool sub_loose = loose, never = false;
				Z3_ast reach = where, d = NULL;
				Z3_ast cond = c->expr ? condition(b, s, c) : Z3_mk_true(b->ctx);
				if (cond)
					d = decides(b, s, lv, k, fd->name,
					            c->expr ? z3_is_true(b, cond) : cond, &never);
				if (never)
					continue;
				if (d && r->confirm && c->display) {
					/* proposing words for the decoder: Mesa decodes a
					 * bitset field where a display shown prints it, so
					 * ask for the case's own display to be the one shown */
					bool unshown;
					Z3_ast shown = decides(b, s, lv, k, NULL,
					                       c->expr ? z3_is_true(b, cond) : cond, &unshown);
					if (shown && !unshown)
						d = and2(b, d, shown);
				}
				if (d) {
					Z3_ast both[2] = {where, d};
					reach = Z3_mk_and(b->ctx, 2, both);
				} else {
					sub_loose = true;
				}
				Z3_ast word = Z3_mk_extract(b->ctx, fd->high, fd->low, s->word);
				for (size_t l = 0; l < sub->nleaves; l++) {
					Z3_ast in = semantic_leaf_holds(b, sub->leaves[l], word);
					if (!in)
						continue;
					Z3_ast both[2] = {reach, in};
					z3_scope inner = {sub->leaves[l], word, fd, s, true, z3_memo_new(), NULL, NULL, NULL};
					visit(r, b, &inner, Z3_mk_and(b->ctx, 2, both), sub_loose, depth + 1);
					z3_memo_free(inner.memo);
				}
			}
		}
}

/* The earlier cases of the owner's own level that define something case
 * k defines and can hold: the usual shadows, listed in the finding. */
static void earlier_definers(const sem_case *sc, char *buf, size_t len)
{
	const spec_bitset *o = sc->owner;
	size_t used = 0;
	buf[0] = 0;
	for (size_t j = 0; j < sc->index && used + 1 < len; j++) {
		const sem_case *e = sc - sc->index + j; /* the owner's cases are consecutive */
		if (!e->live && !e->live_unknown)
			continue; /* dead: it shadows nothing */
		bool shares = false;
		for (size_t i = 0; i < sc->nitems && !shares; i++)
			shares = case_defines(&o->cases[j], sc->items[i].name);
		if (!shares)
			continue;
		int n = snprintf(buf + used, len - used, "%s%s:%u", used ? ", " : "",
		                 o->cases[j].loc.file ? o->cases[j].loc.file : "?",
		                 o->cases[j].loc.line);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

static void report_case(sem_run *r, const sem_case *sc, spec_diags *diags)
{
	const spec_case *c = &sc->owner->cases[sc->index];
	semantic_stats *st = r->st;
	if (!sc->live) {
		if (sc->live_unknown) {
			st->unknown++;
			spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", c->loc,
			              "override %zu of '%s': whether its condition ever holds is "
			              "unknown (not exactly translatable for Z3, or Z3 gave up)",
			              sc->index + 1, sc->owner->name);
		} else {
			st->dead++;
			spec_diag_add(diags, SPEC_WARNING, "override-dead", c->loc,
			              "override %zu of '%s' is never selected: its condition is false "
			              "for every word of every leaf below it, at every generation "
			              "(proved by Z3)",
			              sc->index + 1, sc->owner->name);
		}
		return;
	}
	char unused[512] = "", unknown[512] = "", why[512];
	size_t nunused = 0, nunknown = 0, lu = 0, lk = 0;
	for (size_t i = 0; i < sc->nitems; i++) {
		const sem_item *it = &sc->items[i];
		if (it->used)
			continue;
		char *list = it->unknown ? unknown : unused;
		size_t *len = it->unknown ? &lk : &lu;
		*(it->unknown ? &nunknown : &nunused) += 1;
		int n = snprintf(list + *len, sizeof unused - *len, "%s%s%s%s", *len ? ", " : "",
		                 it->name ? "field '" : "its display", it->name ? it->name : "",
		                 it->name ? "'" : "");
		if (n > 0 && (size_t)n < sizeof unused - *len)
			*len += (size_t)n;
	}
	/* the witness is a word of the root decoding starts from */
	char word[SPEC_MAX_BITS / 4u + SEM_WORDS + 8u], also[600] = "";
	prove_format_hex(sc->witness, sc->witness_size, word, sizeof word);
	if (nunknown)
		snprintf(also, sizeof also, "; whether it decides %s is unknown (not exactly "
		         "translatable for Z3, or Z3 gave up)", unknown);
	if (nunused) {
		st->shadowed++;
		earlier_definers(sc, why, sizeof why);
		spec_diag_add(diags, SPEC_WARNING, "override-shadowed", c->loc,
		              "override %zu of '%s' holds (e.g. word %s at gen %" PRIu32 "%s) but "
		              "never decides %s: wherever it holds, a case the decoder looks at first "
		              "defines the same and holds too%s%s%s (proved by Z3)%s",
		              sc->index + 1, sc->owner->name, word, sc->witness_gen,
		              sc->by_decoder ? ", which the decoder takes it for" : "",
		              nunused == sc->nitems ? "anything it defines" : unused,
		              why[0] ? " (earlier cases: " : "", why, why[0] ? ")" : "", also);
	} else if (nunknown) {
		st->unknown++;
		spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", c->loc,
		              "override %zu of '%s' holds (e.g. word %s at gen %" PRIu32 "%s)%s",
		              sc->index + 1, sc->owner->name, word, sc->witness_gen,
		              sc->by_decoder ? ", which the decoder takes it for" : "", also);
	} else {
		st->live++;
		st->live_by_decoder += sc->by_decoder;
	}
}

/* ------------------------------------------------------- the confirm pass */

/* Where the exact translation gives no verdict (a name or condition that
 * Mesa's expression stack decides, or a scope reached through such a
 * condition), Z3 is asked again through a lenient translation for a word
 * where the case holds (or decides an item, or an assert's bits hold
 * their value), and the decoder says what it took for that word: a case
 * it found to hold, a definition it resolved a name to, an assert it
 * checked and found holding, is a fact about the decoder, whatever the
 * lenient formula got wrong.  A "never" is not concluded this way: only
 * a witness can settle something here. */
#define SEM_CONFIRM_TRIES 6u

/* A case whose verdict is unknown and a witness could settle. */
static bool confirmable(const sem_case *sc)
{
	if (sc->tries >= SEM_CONFIRM_TRIES)
		return false;
	if (!sc->live)
		return sc->live_unknown;
	for (size_t i = 0; i < sc->nitems; i++)
		if (!sc->items[i].used && sc->items[i].unknown)
			return true;
	return false;
}

static bool want_pending(const sem_assert *a)
{
	return !a->held && a->tries < SEM_CONFIRM_TRIES;
}

/* Whether an assert asked about is pending (with root: one of root's). */
static bool assert_pending(const sem_run *r, const spec_bitset *root)
{
	for (size_t i = 0; i < r->nwant; i++)
		if (want_pending(&r->want[i]) && (!root || r->want[i].owner->root == root))
			return true;
	return false;
}

/* The case of the run that case k of owner is; NULL if none (a default). */
static sem_case *case_of(sem_run *r, const spec_bitset *owner, const spec_case *kase)
{
	if (!owner || owner->index >= r->m->nbitsets || r->first_of[owner->index] == SIZE_MAX ||
	    kase < owner->cases || kase >= owner->cases + owner->ncases - 1)
		return NULL;
	return &r->cases[r->first_of[owner->index] + (size_t)(kase - owner->cases)];
}

static void mark_live(sem_case *sc, const uint64_t *w, uint32_t gen, unsigned size)
{
	if (sc->live)
		return;
	sc->live = sc->by_decoder = true;
	memcpy(sc->witness, w, sizeof sc->witness);
	sc->witness_gen = gen;
	sc->witness_size = size;
}

/* Everything the decoding of w (r->taken) shows, for every case and the
 * assert asked about. */
static void note_taken(sem_run *r, const uint64_t *w, uint32_t gen, unsigned size)
{
	const prove_taken *t = r->taken;
	for (size_t a = 0; a < r->nwant && !t->cut; a++) {
		sem_assert *want = &r->want[a];
		bool failed = false;
		for (size_t i = 0; i < t->nfailed; i++)
			failed |= t->failed[i] == want->a;
		for (size_t i = 0; i < t->nheld && !failed; i++)
			want->held |= t->held[i].owner == want->owner && t->held[i].kase == want->kase;
	}
	for (size_t i = 0; i < t->nheld; i++) {
		sem_case *sc = case_of(r, t->held[i].owner, t->held[i].kase);
		if (!sc)
			continue;
		mark_live(sc, w, gen, size);
		for (size_t j = 0; j < sc->nitems && t->held[i].shown; j++)
			sc->items[j].used |= !sc->items[j].name;
	}
	for (size_t i = 0; i < t->ndecided; i++) {
		const spec_bitset *o = t->decided[i].owner;
		const spec_field *f = t->decided[i].field;
		for (size_t k = 0; o && k + 1 < o->ncases; k++) {
			const spec_case *c = &o->cases[k];
			if (f < c->fields || f >= c->fields + c->nfields)
				continue;
			sem_case *sc = case_of(r, o, c);
			if (!sc)
				break;
			mark_live(sc, w, gen, size);
			for (size_t j = 0; j < sc->nitems; j++)
				sc->items[j].used |= sc->items[j].name && !strcmp(sc->items[j].name, f->name);
			break;
		}
	}
}

/* Asks Z3 for words meeting q, each decoded, until *done (the decoder
 * settled what was asked) or *tries (words decoded for it, over the
 * whole walk) reaches the limit; a word the decoder does not bear out is
 * excluded from the next question. */
static void confirm_by_words(sem_run *r, z3_base *b, Z3_ast q, const bool *done, unsigned *tries)
{
	const prove_text_ops *ops = r->opt.text;
	Z3_solver_push(b->ctx, b->solver);
	Z3_solver_assert(b->ctx, b->solver, q);
	while (*tries < SEM_CONFIRM_TRIES && !*done) {
		r->st->queries++;
		if (z3_answer_of(z3_solve(b, b->solver)) != Z3_ANSWER_YES)
			break;
		Z3_model m = Z3_solver_get_model(b->ctx, b->solver);
		if (!m)
			break;
		++*tries; /* words the decoder was asked about */
		Z3_model_inc_ref(b->ctx, m);
		uint64_t w[SEM_WORDS] = {0};
		uint32_t gen = 0;
		z3_model_word(b, m, w, &gen);
		Z3_model_dec_ref(b->ctx, m);
		if (ops->taken(ops->ctx, r->top, w, gen, r->taken))
			note_taken(r, w, gen, b->size);
		/* not this word again */
		Z3_ast same[2] = {Z3_mk_eq(b->ctx, b->w, z3_bits_sized(b, w, b->size)),
		                  Z3_mk_eq(b->ctx, b->g, Z3_mk_int64(b->ctx, gen, b->gen_sort))};
		Z3_solver_assert(b->ctx, b->solver, Z3_mk_not(b->ctx, Z3_mk_and(b->ctx, 2, same)));
	}
	Z3_solver_pop(b->ctx, b->solver, 1);
}

/* The assert asked about, in scope s: a word where its case holds and
 * its bits have their value. */
static void confirm_assert(sem_run *r, z3_base *b, const z3_scope *s, Z3_ast where,
                           sem_assert *want)
{
	const spec_field *a = want->a;
	const spec_case *c = want->kase;
	if (a->high >= s->leaf->size || a->high < a->low)
		return;
	Z3_ast holds = Z3_mk_true(b->ctx);
	if (c->expr) {
		Z3_ast cond = condition(b, s, c);
		if (!cond)
			return;
		holds = z3_is_true(b, cond);
	}
	/* its asserts are checked where it holds and no case with a display
	 * before it on the walk does */
	bool never;
	Z3_ast walked = decides(b, s, want->owner, (size_t)(c - want->owner->cases), NULL, holds,
	                        &never);
	if (never)
		return;
	if (walked)
		holds = walked;
	unsigned n = a->high - a->low + 1;
	uint64_t v[SEM_WORDS] = {0};
	for (unsigned i = 0; i < n; i++)
		v[i / 64] |= (uint64_t)spec_bit(a->assert_value, a->low + i) << (i % 64);
	Z3_ast eq = Z3_mk_eq(b->ctx, Z3_mk_extract(b->ctx, a->high, a->low, s->word),
	                     z3_bits_sized(b, v, n));
	confirm_by_words(r, b, and2(b, where, and2(b, holds, eq)), &want->held, &want->tries);
}

static void confirm_questions(sem_run *r, z3_base *b, const z3_scope *s, Z3_ast where)
{
	for (const spec_bitset *lv = s->leaf; lv; lv = lv->parent) {
		for (size_t a = 0; a < r->nwant; a++)
			if (r->want[a].owner == lv && want_pending(&r->want[a]))
				confirm_assert(r, b, s, where, &r->want[a]);
		size_t first = r->first_of[lv->index];
		if (first == SIZE_MAX)
			continue;
		for (size_t k = 0; k + 1 < lv->ncases; k++) {
			sem_case *sc = &r->cases[first + k];
			if (!confirmable(sc))
				continue;
			Z3_ast cond = condition(b, s, &lv->cases[k]);
			if (!cond)
				continue;
			Z3_ast holds = z3_is_true(b, cond);
			if (!sc->live)
				confirm_by_words(r, b, and2(b, where, holds), &sc->live, &sc->tries);
			for (size_t i = 0; i < sc->nitems && sc->live; i++) {
				sem_item *it = &sc->items[i];
				if (it->used || !it->unknown || sc->tries >= SEM_CONFIRM_TRIES)
					continue;
				bool never;
				Z3_ast q = decides(b, s, lv, k, it->name, holds, &never);
				if (q && !never)
					confirm_by_words(r, b, and2(b, where, q), &it->used, &sc->tries);
			}
		}
	}
}

/* The roots words start from (those no field decodes; all of them if
 * every root is some field's), as visit's walk takes them. */
static bool is_top(const sem_run *r, const spec_root *root, unsigned pass)
{
	for (size_t i = 0; i < r->nsubs && pass == 0; i++)
		if (r->subs[i].inner == root->bitset)
			return false;
	return true;
}

/* The walk again, leniently, while a case (or r->want) is unknown and
 * the decoder can be asked. */
static bool confirm_walk(sem_run *r)
{
	const spec_model *m = r->m;
	if (!r->opt.text || !r->opt.text->taken)
		return true;
	bool any = assert_pending(r, NULL);
	for (size_t i = 0; i < r->ncases && !any; i++)
		any = confirmable(&r->cases[i]);
	if (!any)
		return true;
	prove_taken *t = malloc(sizeof *t);
	if (!t) {
		spec_diag_add(r->diags, SPEC_FATAL, "out-of-memory", (spec_loc){m->path, 0, 0},
		              "out of memory for the meaning proofs");
		return false;
	}
	r->taken = t;
	r->confirm = true;
	bool ok = true, any_top = false;
	for (unsigned pass = 0; ok && pass < 2 && !any_top; pass++)
		for (size_t ri = 0; ok && ri < m->nroots; ri++) {
			const spec_root *root = &m->roots[ri];
			if (!is_top(r, root, pass))
				continue;
			any_top = true;
			if (!root_pending(r, root->bitset, 0))
				continue;
			z3_base b;
			if (!z3_base_init(&b, root->bitset->size, &r->opt)) {
				z3_cannot_start(r->diags, root->bitset->loc);
				ok = false;
				break;
			}
			b.lenient = true;
			r->top = root;
			for (size_t l = 0; l < root->nleaves && root_pending(r, root->bitset, 0); l++) {
				Z3_ast in = semantic_leaf_holds(&b, root->leaves[l], b.w);
				if (!in)
					continue;
				z3_scope s = {root->leaves[l], b.w, NULL, NULL, true, z3_memo_new(), NULL, NULL, NULL};
				visit(r, &b, &s, in, false, 0);
				z3_memo_free(s.memo);
			}
			z3_base_free(&b);
		}
	r->confirm = false;
	r->taken = NULL;
	free(t);
	return ok;
}

/* prove_expression_safety's question about the asserts it could not
 * settle: does the decoder check each and find it holding for some
 * word?  One walk for all of them. */
static bool settle_asserts(void *ctx, size_t n, const spec_bitset *const *owners,
                           const spec_field *const *asserts, bool *held)
{
	sem_run *r = ctx;
	sem_assert *want = calloc(n ? n : 1, sizeof *want);
	if (!want)
		return false;
	for (size_t i = 0; i < n; i++) {
		const spec_bitset *o = owners[i];
		want[i] = (sem_assert){asserts[i], o, NULL, false, SEM_CONFIRM_TRIES};
		for (size_t k = 0; k < o->ncases && !want[i].kase; k++)
			if (asserts[i] >= o->cases[k].fields &&
			    asserts[i] < o->cases[k].fields + o->cases[k].nfields) {
				want[i].kase = &o->cases[k];
				want[i].tries = 0;
			}
	}
	r->want = want;
	r->nwant = n;
	bool ok = confirm_walk(r);
	for (size_t i = 0; i < n; i++)
		held[i] = ok && want[i].held;
	r->want = NULL;
	r->nwant = 0;
	free(want);
	return ok;
}

bool prove_semantic(const spec_model *m, const prove_options *opt, spec_diags *diags,
                    semantic_stats *st)
{
	*st = (semantic_stats){0};
	sem_run r = {.m = m, .opt = *opt, .st = st, .diags = diags};
	z3_start_run(&r.opt);
	r.first_of = malloc((m->nbitsets ? m->nbitsets : 1) * sizeof *r.first_of);
	size_t total = 0, nitems = 0;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *bs = m->bitsets[i];
		for (size_t k = 0; k + 1 < bs->ncases; k++) {
			total++;
			nitems += bs->cases[k].display != NULL;
			for (size_t f = 0; f < bs->cases[k].nfields; f++)
				nitems += bs->cases[k].fields[f].kind != SPEC_ASSERT;
		}
	}
	r.cases = calloc(total ? total : 1, sizeof *r.cases);
	sem_item *items = calloc(nitems ? nitems : 1, sizeof *items);
	bool ok = r.first_of && r.cases && items;
	if (!ok)
		spec_diag_add(diags, SPEC_FATAL, "out-of-memory", (spec_loc){m->path, 0, 0},
		              "out of memory for the meaning proofs");
	for (size_t i = 0, n = 0, ni = 0; ok && i < m->nbitsets; i++) {
		const spec_bitset *bs = m->bitsets[i];
		r.first_of[bs->index] = bs->ncases > 1 ? n : SIZE_MAX;
		for (size_t k = 0; k + 1 < bs->ncases; k++) {
			sem_case *sc = &r.cases[n++];
			const spec_case *c = &bs->cases[k];
			sc->owner = bs;
			sc->index = k;
			sc->items = items + ni;
			if (c->display)
				items[ni++].name = NULL;
			for (size_t f = 0; f < c->nfields; f++)
				if (c->fields[f].kind != SPEC_ASSERT)
					items[ni++].name = c->fields[f].name;
			sc->nitems = (size_t)(items + ni - sc->items);
		}
	}
	r.ncases = total;
	st->cases = total;
	/* enum values: what plain fields can hold is a matter of bits */
	r.enum_state = calloc(m->nenums ? m->nenums : 1, sizeof *r.enum_state);
	r.enum_used = calloc(m->nenums ? m->nenums : 1, sizeof *r.enum_used);
	ok = ok && r.enum_state && r.enum_used;
	for (size_t e = 0; ok && e < m->nenums; e++)
		ok = (r.enum_state[e] = calloc(m->enums[e].nvalues + 1, 1)) != NULL;
	if (ok) {
		enum_plain(&r);
		enum_open_update(&r);
	}
	/* which roots decode which through a bitset-typed field */
	growable subs = {.size = sizeof(sem_sub)};
	for (size_t ri = 0; ok && ri < m->nroots; ri++)
		for (size_t l = 0; l < m->roots[ri].nleaves; l++)
			for (const spec_bitset *lv = m->roots[ri].leaves[l]; lv; lv = lv->parent)
				for (size_t k = 0; k < lv->ncases; k++)
					for (size_t f = 0; f < lv->cases[k].nfields; f++) {
						const spec_field *fd = &lv->cases[k].fields[f];
						if (fd->type != SPEC_TYPE_BITSET || !fd->bitset)
							continue;
						sem_sub *x = grow(&subs);
						if (!x) {
							ok = false;
							break;
						}
						*x = (sem_sub){m->roots[ri].bitset, fd->bitset};
					}
	r.subs = subs.items;
	r.nsubs = subs.n;
	/* the roots no field decodes are where words start; if every root is
	 * some field's, all of them are */
	bool any_top = false;
	for (size_t pass = 0; ok && (total || r.enum_open) && pass < 2 && !any_top; pass++)
		for (size_t ri = 0; ok && ri < m->nroots; ri++) {
			const spec_root *root = &m->roots[ri];
			if (!is_top(&r, root, (unsigned)pass))
				continue;
			any_top = true;
			z3_base b;
			if (!z3_base_init(&b, root->bitset->size, &r.opt)) {
				z3_cannot_start(diags, root->bitset->loc);
				ok = false;
				break;
			}
			for (size_t l = 0; l < root->nleaves &&
			                   (root_pending(&r, root->bitset, 0) || enums_open(&r)); l++) {
				Z3_ast in = semantic_leaf_holds(&b, root->leaves[l], b.w);
				if (!in)
					continue;
				z3_scope s = {root->leaves[l], b.w, NULL, NULL, true, z3_memo_new(), NULL, NULL, NULL};
				visit(&r, &b, &s, in, false, 0);
				z3_memo_free(s.memo);
			}
			z3_base_free(&b);
		}
	ok = ok && confirm_walk(&r);
	for (size_t i = 0; ok && i < total; i++)
		report_case(&r, &r.cases[i], diags);
	for (size_t e = 0; ok && e < m->nenums; e++) {
		if (!r.enum_used[e])
			continue; /* no field prints it */
		const spec_enum *en = &m->enums[e];
		for (size_t v = 0; v < en->nvalues; v++) {
			const spec_enum_value *ev = &en->values[v];
			st->enum_values++;
			if (r.enum_state[e][v] == ENUM_UNSEEN) {
				st->enum_dead++;
				spec_diag_add(diags, SPEC_WARNING, "enum-value-dead", ev->loc,
				              "value %s (\"%s\") of enum '%s' is never printed: no field of "
				              "that enum can hold it in any word of any leaf (%s)",
				              ev->val_text ? ev->val_text : "?", ev->display ? ev->display : "",
				              en->name, "proved by the leaves' patterns and Z3");
			} else if (r.enum_state[e][v] == ENUM_UNKNOWN) {
				st->enum_unknown++;
				spec_diag_add(diags, SPEC_WARNING, "semantic-unknown", ev->loc,
				              "value %s (\"%s\") of enum '%s': whether a derived field "
				              "can produce it is unknown (not exactly translatable for Z3, "
				              "or Z3 gave up)",
				              ev->val_text ? ev->val_text : "?", ev->display ? ev->display : "",
				              en->name);
			}
		}
	}
	/* then every expression, leaf by leaf (safety.c) */
	ok = ok && prove_expression_safety(m, &r.opt, diags, st, settle_asserts, &r);
	/* and whether each leaf's text gives its word back (displays.c) */
	ok = ok && prove_displays(m, &r.opt, diags, st);
	/* and whether the encoder gives each leaf's words back (roundtrip.c) */
	ok = ok && prove_roundtrip(m, &r.opt, diags, st);
	for (size_t e = 0; r.enum_state && e < m->nenums; e++)
		free(r.enum_state[e]);
	free(r.enum_state);
	free(r.enum_used);
	free(subs.items);
	free(items);
	free(r.cases);
	free(r.first_of);
	return ok;
}
