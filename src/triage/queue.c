/*
 * queue.c - triage_queue (triage.h): items gathered into batches, each
 * batch analysed on other threads while the caller counts the one
 * before it.
 *
 * Two batches are in flight: the caller fills one (reading its input)
 * while threads analyse the other; when the one being filled is full,
 * the caller helps the threads finish the other, hands them the full
 * one, and counts the one just analysed, in input order, while they
 * work.  Analysis never reads what counting changes (internal.h), so
 * the two go on at once; and counting, the only part that changes the
 * triage, goes through the items in the order one thread alone would,
 * which is why no result depends on the number of threads or on which
 * thread did what.
 *
 * The caller asks the memo about each instruction as it queues it (as
 * triage_add would: every word while the input repeats itself, else one
 * in 64), so threads do not decode words the memo already knows; the
 * ones it learns later are asked again when counted.  A batch is cut
 * into runs of RUN_ITEMS items that threads take one after another, so
 * that a run of costly words (no leaf matches them: their nearest
 * leaves are searched) does not leave the others idle.
 */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Items a thread takes at a time. */
#define RUN_ITEMS 256u
/* Instructions of a batch left to analyse (not known to the memo) below
 * which no thread is started: the caller analyses them when it finishes
 * the batch.  Blob-like input is mostly known words: a thread per batch
 * would cost more than it saves, and more still on a busy machine,
 * where the caller would wait for it to be scheduled at all. */
#define THREADED_MIN (4u * RUN_ITEMS)
/* Words a batch holds: two per item, as many as a 128-bit instruction
 * needs; a batch of wider ones is full sooner. */
#define BATCH_WORDS (2u * TRIAGE_BATCH_ITEMS)

typedef struct queued {
	const spec_root *root;       /* an instruction of this root; NULL: a data item */
	const spec_step *step;       /* a data item's step */
	unsigned bits;               /* a data item's size */
	uint32_t gen;
	uint64_t hash;               /* an instruction's, for the memo */
	size_t off;                  /* its words in the batch's */
	triage_origin origin;
	triage_found found;          /* the memo's answer when queued, else analysis' */
} queued;

typedef struct batch {
	queued *items;               /* TRIAGE_BATCH_ITEMS */
	size_t n;
	size_t todo;                 /* instructions the memo did not know when queued */
	uint64_t *words;             /* BATCH_WORDS */
	size_t nwords;
	atomic_size_t next;          /* the next run to analyse */
} batch;

/* What one thread analyses with. */
typedef struct worker {
	batch *b;
	analyser *an;
} worker;

struct triage_queue {
	triage *t;
	unsigned jobs;
	analyser **an;               /* jobs; the first is the caller's */
	batch b[2];
	unsigned fill;               /* b[fill] is being filled */
	bool busy;                   /* b[!fill] is being analysed */
	worker *workers;             /* jobs - 1 of them, ... */
	pthread_t *tid;              /* ... on these threads */
	unsigned started;
	size_t asked;                /* instructions queued (one in 64 asks the memo) */
};

triage_queue *triage_queue_new(triage *t, unsigned jobs)
{
	if (!t)
		return NULL;
	triage_queue *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	q->t = t;
	q->jobs = jobs < 1 ? 1 : jobs > TRIAGE_MAX_JOBS ? TRIAGE_MAX_JOBS : jobs;
	if (q->jobs == 1)
		return q;
	q->an = calloc(q->jobs, sizeof *q->an);
	q->workers = calloc(q->jobs, sizeof *q->workers);
	q->tid = calloc(q->jobs, sizeof *q->tid);
	bool ok = q->an && q->workers && q->tid;
	for (unsigned k = 0; ok && k < 2; k++) {
		q->b[k].items = malloc(TRIAGE_BATCH_ITEMS * sizeof *q->b[k].items);
		q->b[k].words = malloc(BATCH_WORDS * sizeof *q->b[k].words);
		atomic_init(&q->b[k].next, 0);
		ok = q->b[k].items && q->b[k].words;
	}
	for (unsigned j = 0; ok && j < q->jobs; j++)
		ok = (q->an[j] = analyser_new(t)) != NULL;
	if (!ok) {
		triage_queue_free(q);
		return NULL;
	}
	return q;
}

/* Analyses runs of the batch until none is left. */
static void *work(void *arg)
{
	const worker *wk = arg;
	batch *b = wk->b;
	size_t runs = (b->n + RUN_ITEMS - 1) / RUN_ITEMS;
	for (size_t r; (r = atomic_fetch_add(&b->next, 1)) < runs;) {
		size_t end = (r + 1) * RUN_ITEMS < b->n ? (r + 1) * RUN_ITEMS : b->n;
		for (size_t i = r * RUN_ITEMS; i < end; i++) {
			queued *it = &b->items[i];
			if (it->root && !it->found.hit)
				analyser_item(wk->an, it->root, b->words + it->off, it->gen, it->hash,
				              &it->found);
		}
	}
	return NULL;
}

/* Hands batch b (slot k) to the threads; a thread that cannot be started
 * leaves its share to the others, the caller's at the end included. */
static void start(triage_queue *q, unsigned k)
{
	batch *b = &q->b[k];
	bool recall = triage_memo_worth_asking(q->t);
	size_t runs = (b->n + RUN_ITEMS - 1) / RUN_ITEMS;
	unsigned jobs = b->todo < THREADED_MIN ? 1 : runs < q->jobs ? (unsigned)runs : q->jobs;
	for (unsigned j = 0; j < jobs; j++)
		analyser_begin(q->an[j], k, recall);
	atomic_store(&b->next, 0);
	q->started = 0;
	for (unsigned j = 1; j < jobs; j++) {
		q->workers[q->started] = (worker){b, q->an[j]};
		if (!pthread_create(&q->tid[q->started], NULL, work, &q->workers[q->started]))
			q->started++;
	}
	q->busy = true;
}

/* Analyses what is left of the batch being analysed, with the threads,
 * until it is all done. */
static void finish(triage_queue *q)
{
	work(&(worker){&q->b[!q->fill], q->an[0]});
	for (unsigned j = 0; j < q->started; j++)
		pthread_join(q->tid[j], NULL);
	q->started = 0;
	q->busy = false;
}

/* Counts every item of an analysed batch, in order, and empties it. */
static bool count(triage_queue *q, batch *b)
{
	bool ok = true;
	for (size_t i = 0; i < b->n; i++) {
		const queued *it = &b->items[i];
		const uint64_t *w = b->words + it->off;
		/* what the memo answered when the item was queued, a batch ago,
		 * has left the cache since; what a thread found is in another
		 * core's */
		if (i + 8 < b->n) {
			const triage_found *ahead = &b->items[i + 8].found;
			__builtin_prefetch(ahead->hit ? (const void *)ahead->hit : (const void *)ahead->f);
		}
		ok &= it->root ? triage_count_found(q->t, it->root, w, &it->found, &it->origin, true)
		               : triage_add_data(q->t, it->step, w, it->bits, &it->origin);
	}
	b->n = b->todo = b->nwords = 0;
	return ok;
}

/* The batch being filled goes to the threads (when it holds anything),
 * and the one they analysed before is counted meanwhile. */
static bool cycle(triage_queue *q)
{
	unsigned full = q->fill, done = !q->fill;
	if (q->busy)
		finish(q);
	if (q->b[full].n)
		start(q, full);
	bool ok = count(q, &q->b[done]);
	q->fill = done;
	return ok;
}

bool triage_queue_flush(triage_queue *q)
{
	if (!q || q->jobs == 1)
		return true;
	bool ok = cycle(q);
	if (q->busy) {
		finish(q);
		ok &= count(q, &q->b[!q->fill]);
	}
	return ok;
}

void triage_queue_free(triage_queue *q)
{
	if (!q)
		return;
	if (q->busy)
		finish(q); /* the threads must be done with what is freed */
	for (unsigned j = 0; q->an && j < q->jobs; j++)
		analyser_free(q->an[j]);
	free(q->an);
	free(q->workers);
	free(q->tid);
	for (unsigned k = 0; k < 2; k++) {
		free(q->b[k].items);
		free(q->b[k].words);
	}
	free(q);
}

/* Puts an item in the batch being filled (which is handed on first when
 * its words would not fit, and after when it is full). */
static bool enqueue(triage_queue *q, const spec_root *root, const spec_step *step,
                    const uint64_t *w, unsigned bits, uint32_t gen, const triage_origin *origin)
{
	unsigned nw = (bits + 63) / 64;
	bool ok = q->b[q->fill].nwords + nw <= BATCH_WORDS || cycle(q);
	batch *b = &q->b[q->fill];
	queued *it = &b->items[b->n++];
	uint64_t *words = b->words + b->nwords;
	triage_copy_bits(words, w, bits);
	*it = (queued){.root = root, .step = step, .bits = bits, .gen = gen, .off = b->nwords,
	               .origin = origin ? *origin : (triage_origin){.source = -1}};
	b->nwords += nw;
	if (root) {
		it->found.hit = triage_memo_ask(q->t, root, words, gen, q->asked++ % 64 == 0,
		                                &it->hash);
		b->todo += !it->found.hit;
	}
	if (b->n == TRIAGE_BATCH_ITEMS)
		ok &= cycle(q);
	return ok;
}

bool triage_queue_add(triage_queue *q, const spec_root *root, const uint64_t *w, uint32_t gen,
                      const triage_origin *origin)
{
	if (q->jobs == 1)
		return triage_add(q->t, root, w, gen, origin);
	if (!triage_check_root(q->t, &root) || !w)
		return false;
	return enqueue(q, root, NULL, w, root->bitset->size, gen, origin);
}

bool triage_queue_add_data(triage_queue *q, const spec_step *step, const uint64_t *w,
                           unsigned bits, const triage_origin *origin)
{
	if (q->jobs == 1)
		return triage_add_data(q->t, step, w, bits, origin);
	if (!triage_check_data(step, w, bits))
		return false;
	return enqueue(q, NULL, step, w, bits, 0, origin);
}
