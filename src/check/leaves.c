/*
 * leaves.c - the per-leaf proofs of prove_semantic (displays, round
 * trips) run leaf by leaf on the options' threads, each leaf in a Z3
 * context of its own: its formulas, Z3's answers and its witnesses do
 * not depend on which leaves went before it, so the report is the same
 * whatever the number of threads.
 */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void semantic_why_text(unsigned why, const char *const *texts, size_t ntexts, char *buf,
                       size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < ntexts && i < 32; i++)
		if (why & (1u << i)) {
			int n = snprintf(buf + at, len - at, "%s%s", at ? "; " : "", texts[i]);
			if (n > 0 && (size_t)n < len - at)
				at += (size_t)n;
		}
	if (!at)
		snprintf(buf, len, "unknown");
}

void semantic_stats_add(semantic_stats *to, const semantic_stats *from)
{
	to->queries += from->queries;
	to->displays += from->displays;
	to->display_invertible += from->display_invertible;
	to->display_findings += from->display_findings;
	to->display_unknown += from->display_unknown;
	to->roundtrips += from->roundtrips;
	to->roundtrip_kept += from->roundtrip_kept;
	to->roundtrip_findings += from->roundtrip_findings;
	to->roundtrip_unknown += from->roundtrip_unknown;
}

typedef struct leaf_work {
	const spec_root *root;
	const prove_options *o;
	semantic_leaf_fn fn;
	void *arg;
	spec_diags *leaf_diags;   /* per leaf: merged in leaf order */
	atomic_size_t next;       /* the next leaf to take */
	atomic_bool no_solver;    /* Z3 could not be started */
} leaf_work;

typedef struct leaf_worker {
	leaf_work *w;
	semantic_stats st; /* this thread's counts (display_verdict shared:
	                      each leaf writes its own byte) */
} leaf_worker;

static void *take_leaves(void *arg)
{
	leaf_worker *k = arg;
	leaf_work *w = k->w;
	for (size_t l; (l = atomic_fetch_add(&w->next, 1)) < w->root->nleaves;) {
		z3_base b;
		if (!z3_base_init(&b, w->root->bitset->size, w->o)) {
			atomic_store(&w->no_solver, true);
			break;
		}
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		bool spent = w->o->deadline_ && (double)now.tv_sec + now.tv_nsec / 1e9 >= w->o->deadline_;
		w->fn(w->arg, &b, w->root, l, spent, &k->st, &w->leaf_diags[l]);
		z3_base_free(&b);
	}
	return NULL;
}

bool semantic_each_leaf(const spec_root *root, const prove_options *o, semantic_leaf_fn fn,
                        void *arg, spec_diags *diags, semantic_stats *st)
{
	unsigned jobs = o->jobs ? o->jobs : 1;
	if (jobs > 64)
		jobs = 64;
	if (jobs > root->nleaves)
		jobs = root->nleaves ? (unsigned)root->nleaves : 1;
	leaf_work w = {.root = root, .o = o, .fn = fn, .arg = arg,
	               .leaf_diags = calloc(root->nleaves + 1, sizeof *w.leaf_diags)};
	leaf_worker k[64];
	pthread_t tid[64];
	bool started[64] = {false};
	if (!w.leaf_diags) {
		spec_diag_add(diags, SPEC_FATAL, "out-of-memory", root->bitset->loc,
		              "out of memory for the semantic proofs");
		return false;
	}
	atomic_init(&w.next, 0);
	atomic_init(&w.no_solver, false);
	for (unsigned t = 0; t < jobs; t++)
		k[t] = (leaf_worker){.w = &w, .st = {.display_verdict = st->display_verdict}};
	/* a thread that cannot be started leaves its share to the others */
	for (unsigned t = 1; t < jobs; t++)
		started[t] = pthread_create(&tid[t], NULL, take_leaves, &k[t]) == 0;
	take_leaves(&k[0]);
	for (unsigned t = 1; t < jobs; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	bool ok = !atomic_load(&w.no_solver);
	if (!ok)
		z3_cannot_start(diags, root->bitset->loc);
	for (unsigned t = 0; t < jobs; t++)
		semantic_stats_add(st, &k[t].st);
	for (size_t l = 0; l < root->nleaves; l++) {
		for (size_t i = 0; i < w.leaf_diags[l].count; i++) {
			const spec_diag *x = &w.leaf_diags[l].items[i];
			spec_diag_add(diags, x->severity, x->rule, x->loc, "%s", x->message);
		}
		spec_diags_free(&w.leaf_diags[l]);
	}
	free(w.leaf_diags);
	return ok;
}

bool *semantic_top_roots(const spec_model *m)
{
	bool *sub = calloc(m->nroots ? m->nroots : 1, sizeof *sub);
	if (!sub)
		return NULL;
	size_t nsub = 0;
	for (size_t i = 0; i < m->nbitsets; i++)
		for (size_t k = 0; k < m->bitsets[i]->ncases; k++)
			for (size_t f = 0; f < m->bitsets[i]->cases[k].nfields; f++) {
				const spec_field *fd = &m->bitsets[i]->cases[k].fields[f];
				for (size_t ri = 0; fd->type == SPEC_TYPE_BITSET && ri < m->nroots; ri++)
					if (m->roots[ri].bitset == fd->bitset && !sub[ri]) {
						sub[ri] = true;
						nsub++;
					}
			}
	/* the roots no field decodes are where words start; if every root is
	 * some field's, all of them are */
	for (size_t ri = 0; ri < m->nroots; ri++)
		sub[ri] = !sub[ri] || nsub == m->nroots;
	return sub;
}
