/*
 * program.c - whole programs: runs a spec's <program> steps (spec.h,
 * docs/framing.md) over a program's words, producing its items (each
 * instruction with the root it was decoded against, raw data, padding,
 * joined values), its disassembly and structured framing errors.
 *
 * Termination on any input: a <repeat to-end> iteration must consume
 * input, a <repeat count-at> that has not found its count must too, and
 * every step executed is paid for from a budget proportional to the
 * input's size.  Positions and sizes computed by expressions are range
 * checked before use.  Nothing is read outside the input.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM_TEXT_MAX   (64u << 20) /* disassembly text of one program */
#define PROGRAM_INSTR_TEXT 65536u      /* one instruction's text */

/* A variable bound by a step: its name's number in the codec's
 * programs (below), and the binding of that name it hides. */
typedef struct pvar {
	uint32_t id;
	uint32_t hides;   /* the index + 1 of the binding it hides; 0: none */
	int64_t value;
	bool set;         /* an export of a field the decoded leaf lacks is unset */
	uint8_t ex;       /* an export: its number in its step */
	uint32_t pend;    /* an export of a part not decided yet: the item's index + 1 */
} pvar;

typedef struct sbuf {
	char *s;
	size_t n, cap;
	bool failed;
} sbuf;

struct codec_program_private {
	uint64_t *pool;   /* the items' bits */
	size_t npool, cappool;
	size_t *woff;     /* per item: offset of its bits in pool */
	bool *undecided;  /* per item: a part a quiet walk has not decoded yet */
	size_t capitems;
	size_t caperrors;
	size_t captext;   /* text's room (a recycled program's, codec_walker_recycle) */
};

/* The table's answers the walks asked for, by address: a walk asks the
 * same few dozen (its expressions, texts and names) over and over, and
 * the table's probe took a twentieth of a fuzz run. */
#define KEY_CACHE 1024u
typedef struct key_cached {
	const void *p;
	uint32_t kind, value;
} key_cached;

typedef struct walk {
	const codec *c;
	const spec_program *p;
	const codec_programs *P;  /* p's names and texts */
	uint32_t *top;    /* per name's number: its binding's index + 1; 0: none */
	const uint32_t *in;
	size_t nbits;
	uint32_t gen;
	bool show_errors;
	codec_program *r;
	pvar *vars;       /* the walker's */
	size_t nvars, capvars;
	size_t cursor, region_end;
	size_t budget;
	bool stop;
	bool quiet;       /* codec_walker_walk_quiet: no text, stop at the first error */
	bool foreign;     /* p is of another model than c's */
	bool unset_hit;   /* the last evaluation met an unset variable */
	bool oom;         /* an error could not be kept */
	cx *x;            /* the walker's */
	char *ibuf;       /* the walker's: one instruction's text */
	sbuf *instr;      /* the walker's: one item's text, where not in ibuf */
	sbuf text;
	codec_value *values; /* the walker's: WALK_VALUES, a decoding's */
	codec_issue *issues; /* the walker's: 16 */
	codec_walker *memo;  /* the walker, where it has a memory of parts */
	codec_walker *room;  /* the walker (its room: the cover bitmap) */
	codec_walker *trail; /* the walker, where this quiet walk leaves its trail */
	bool tailing;        /* the walker's tail may be joined (trail_join) */
	bool joined;         /* it was: the walk's end is the last walk's */
	bool joined_stop;    /* that walk's steps stopped */
	/* what the walk so far asked of the input's size: at least need_end
	 * bits (every span it checked against the end fitted and every
	 * <repeat> that runs to the end went on), or (read_end) the size
	 * itself, {_end} or {_left} at the top */
	size_t need_end;
	bool read_end;
	key_cached *cache;   /* the walker's, KEY_CACHE of P's answers */
} walk;

#define WALK_VALUES 512u

/* ------------------------------------------------------------ helpers */

/* spec_grow, its check inline: the room is most often there already (the
 * calls were 2% of a Midgard fuzz run). */
static inline void *grow(void *array, size_t need, size_t *cap, size_t size, size_t first)
{
	return need <= *cap && array ? array : spec_grow(array, need, cap, size, first);
}

/* grow (64 elements first) that gives back array itself where memory
 * runs out, *room then false: for several arrays grown together. */
static void *grow_kept(void *array, size_t need, size_t *cap, size_t size, bool *room)
{
	void *p = grow(array, need, cap, size, 64);
	if (!p)
		*room = false;
	return p ? p : array;
}

static void sb_put(sbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *p = cap <= PROGRAM_TEXT_MAX ? realloc(b->s, cap) : NULL;
		if (!p) {
			b->failed = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

/* A 32-bit word as eight hex digits (a data item's text). */
static void sb_hex32(sbuf *b, uint32_t v)
{
	char h[8];
	for (int i = 7; i >= 0; i--, v >>= 4)
		h[i] = "0123456789abcdef"[v & 15];
	sb_put(b, h, sizeof h);
}

/* ------------------------------------------------------ part memory */

#define MEMO_WORDS   2u  /* 128 bits */
#define MEMO_EXPORTS 8u

/* Where an iteration of a repeat among the program's own steps began in
 * a quiet walk: the walk's state there, from which the next quiet walk
 * may go on (codec_walker_walk_quiet, the trail below). */
typedef struct trail_mark {
	size_t step;          /* the repeat's index in the program's steps */
	int64_t i, count;     /* the iteration; its count where known */
	bool known;
	size_t cursor, budget;
	size_t nitems, npool; /* the items made before it */
	size_t nreads;        /* the <read>s before it */
	size_t var0, nvars;   /* its bindings: trail_vars[var0, var0 + nvars) */
	size_t need_end;      /* the least input size in bits the walk before it needs */
	bool read_end;        /* the walk before it read the input's size */
} trail_mark;

/* A <read> of a quiet walk: its bits. */
typedef struct trail_read {
	size_t bit;
	unsigned bits;
} trail_read;

/* What a quiet walk may join of the last one (trail_join): that walk's
 * marks from the first after which it read no word that changed, and
 * what it made from there on, its indices the last walk's (those of
 * marks[0] come first in each array). */
typedef struct trail_tail {
	trail_mark *marks;
	size_t nmarks, capmarks, next; /* next: the first a walk may still join */
	codec_item *items;
	size_t *woff;
	bool *undecided;
	size_t nitems, capitems, capwoff, capundecided;
	uint64_t *pool;
	size_t npool, cappool;
	trail_read *reads;
	size_t nreads, capreads;
	pvar *vars;
	size_t nvars, capvars;
} trail_tail;

/* How the last quiet walk's steps ended (before check_cover). */
typedef struct trail_end {
	bool valid;
	size_t cursor, budget, need_end;
	bool read_end, stop;
	bool err;                /* the steps raised an error: its kind, ... (a quiet walk's
	                          * has no message) */
	codec_frame_error_kind kind;
	bool fatal;
	size_t bit;
	const spec_step *step;
} trail_end;

/* One part as a walk made it (codec.h, codec_walker). */
typedef struct part_slot {
	const spec_step *step;   /* NULL: empty */
	uint64_t w[MEMO_WORDS];  /* bits past the part's are 0 */
	uint32_t gen;
	bool show_errors;
	bool clean;
	bool encoded;            /* enc holds its re-encoding at gen */
	uint8_t set;             /* bit i: export i has a value */
	const spec_bitset *leaf;
	int64_t value[MEMO_EXPORTS];
	uint64_t enc[MEMO_WORDS];
	char text[CODEC_WALKER_TEXT];
} part_slot;

/* A part a walk decoded afresh, whole: the decoding its re-encoding and
 * the walker's caller (codec_walker_decoding) take rather than decoding
 * the part again.  A new part of a program that frames was decoded three
 * times, by the walk, the fuzz target's reading and the re-encoding
 * (decoding was a fifth of a program round trip's run, half of it
 * repeated).  Kept by the part's memory slot,
 * the last RECENT_PARTS, a decoding of RECENT_VALUES values or fewer. */
#define RECENT_PARTS  32u
#define RECENT_VALUES 256u
typedef struct recent_key {
	const spec_step *step;   /* NULL: empty */
	uint64_t w[MEMO_WORDS];
	uint32_t gen;
} recent_key;
typedef struct recent_part {
	codec_decoded d;         /* over values and issues below */
	codec_value values[RECENT_VALUES + 1]; /* (one more: a decoding cut short shows) */
	codec_issue issues[16];
} recent_part;

struct codec_walker {
	const codec *c;
	const codec_programs *cached; /* the table cache holds answers of */
	key_cached cache[KEY_CACHE];
	part_slot *slots;  /* NULL: no memory */
	size_t mask;
	recent_part *recent; /* RECENT_PARTS, with the memory */
	recent_key recent_keys[RECENT_PARTS]; /* theirs (apart: a look-up reads a line) */
	codec_walker_stats st;
	/* the walks' room */
	cx *x;
	char *ibuf;        /* PROGRAM_INSTR_TEXT: one instruction's text */
	codec_value *values; /* WALK_VALUES, a decoding's */
	codec_issue issues[16];
	uint32_t *top;     /* the names' bindings: per name's number */
	size_t ntop;
	pvar *vars;
	size_t capvars;
	sbuf instr;
	codec_program *quiet; /* codec_walker_walk_quiet's result, kept */
	/* codec_walker_reencode's, with a memory: an encoder that keeps
	 * templates (codec_encode's answers, decided once a leaf's shape),
	 * and the room of its items (made per call, they showed in a fuzz
	 * run's profile) */
	codec_encoder *enc;
	codec_item *enc_items;
	uint64_t *enc_bits;
	size_t enc_cap;
	/* the last quiet walk's trail, where the walker has a memory: its
	 * words, program and options, where each iteration of the
	 * program's own repeats began (marks) and its <read>s.  The next
	 * quiet walk goes on from the last mark before which nothing read a
	 * word that changed and the walk asked nothing of the input's size
	 * that differs (trail_resume): its state there is what walking the
	 * new words up to it would give (a walk is a function of the bits it
	 * reads, what it asks of the size and the options).  A fuzz target's
	 * inputs are mostly the last one with a few bytes changed. */
	bool trail_ok;
	const spec_program *trail_p;
	uint32_t trail_gen;
	bool trail_show;
	uint32_t *enc_set;   /* codec_walker_reencode's room: the bits put */
	size_t enc_capset;
	uint32_t *trail_words;
	size_t trail_nwords, trail_capwords;
	size_t trail_nitems, trail_npool;
	trail_mark *marks;
	size_t nmarks, capmarks;
	pvar *trail_vars;
	size_t ntrail_vars, captrail_vars;
	trail_read *reads;
	size_t nreads, capreads;
	trail_end end;
	trail_tail tail;
	uint64_t *seen;    /* check_cover's bitmap */
	size_t capseen;
	codec_program *spare[2]; /* codec_walker_recycle's: room for the next walks */
	size_t nspare;
};

codec_walker *codec_walker_new(const codec *c, unsigned log2_parts)
{
	if (!c || log2_parts > 20)
		return NULL;
	codec_walker *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->c = c;
	w->x = malloc(sizeof *w->x);
	w->ibuf = malloc(PROGRAM_INSTR_TEXT);
	w->values = malloc(WALK_VALUES * sizeof *w->values);
	if (log2_parts) {
		/* a block of its own (20 MiB for 2^16 slots), in huge pages
		 * where the kernel has them: each part walked probes a slot at
		 * random, and in 4 KiB pages most probes missed the TLB (a fuzz
		 * run replayed took 15-20% longer; docs/benchmarks.md) */
		w->mask = ((size_t)1 << log2_parts) - 1;
		bool zeroed;
		w->slots = spec_block_alloc((w->mask + 1) * sizeof *w->slots, &zeroed);
		if (w->slots && !zeroed)
			memset(w->slots, 0, (w->mask + 1) * sizeof *w->slots);
		w->recent = calloc(RECENT_PARTS, sizeof *w->recent);
	}
	if (!w->x || !w->ibuf || !w->values || (log2_parts && (!w->slots || !w->recent))) {
		codec_walker_free(w);
		return NULL;
	}
	return w;
}

void codec_walker_free(codec_walker *w)
{
	if (!w)
		return;
	if (w->slots)
		spec_block_free(w->slots, (w->mask + 1) * sizeof *w->slots);
	free(w->recent);
	free(w->x);
	free(w->ibuf);
	free(w->values);
	free(w->top);
	free(w->vars);
	free(w->instr.s);
	codec_program_free(w->quiet);
	codec_encoder_free(w->enc);
	free(w->enc_items);
	free(w->enc_bits);
	free(w->enc_set);
	free(w->trail_words);
	free(w->marks);
	free(w->trail_vars);
	free(w->reads);
	free(w->tail.marks);
	free(w->tail.items);
	free(w->tail.woff);
	free(w->tail.undecided);
	free(w->tail.pool);
	free(w->tail.reads);
	free(w->tail.vars);
	free(w->seen);
	while (w->nspare)
		codec_program_free(w->spare[--w->nspare]);
	free(w);
}

codec_walker_stats codec_walker_get_stats(const codec_walker *w)
{
	return w ? w->st : (codec_walker_stats){0};
}

static uint64_t memo_mix(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xD6E8FEB86659FD93ull;
	h ^= h >> 32;
	return h;
}

/* The slot of the part step s reads as w (MEMO_WORDS words) at gen: where
 * it is or would be kept.  show_errors is not hashed (a re-encoding does
 * not depend on it). */
static part_slot *memo_slot(codec_walker *m, const spec_step *s, uint32_t gen,
                            const uint64_t *w)
{
	uint64_t h = memo_mix((uint64_t)(uintptr_t)s ^ (uint64_t)gen << 40);
	for (unsigned k = 0; k < MEMO_WORDS; k++)
		h = memo_mix(h ^ w[k]);
	return &m->slots[(h >> 24) & m->mask];
}

/* A part's n bits into w as the decoder reads them: 0 past them up to
 * the root's size, and up to MEMO_WORDS words, which the memory hashes
 * (clearing all of CODEC_MAX_WORDS, 512 bytes, twice a part showed in
 * a fuzz run's profile). */
static void part_words(uint64_t *w, const uint64_t *bits, unsigned n, const spec_root *root)
{
	size_t nw = (n + 63) / 64, need = (root->bitset->size + 63) / 64;
	if (need < MEMO_WORDS)
		need = MEMO_WORDS;
	if (need > CODEC_MAX_WORDS)
		need = CODEC_MAX_WORDS;
	memcpy(w, bits, nw * sizeof *w);
	if (nw < need)
		memset(w + nw, 0, (need - nw) * sizeof *w);
}

static bool slot_holds(const part_slot *p, const spec_step *s, uint32_t gen, const uint64_t *w)
{
	return p->step == s && p->gen == gen && p->w[0] == w[0] && p->w[1] == w[1];
}

/* The recent decoding of the part whose memory slot is slot, where the
 * entry for it holds that part (step s read as w at gen); else NULL. */
static size_t recent_index(const codec_walker *m, const part_slot *slot)
{
	return (size_t)(slot - m->slots) & (RECENT_PARTS - 1);
}

static const codec_decoded *recent_find(codec_walker *m, const part_slot *slot,
                                        const spec_step *s, uint32_t gen, const uint64_t *w)
{
	size_t i = recent_index(m, slot);
	const recent_key *k = &m->recent_keys[i];
	if (k->step != s || k->gen != gen || k->w[0] != w[0] || k->w[1] != w[1])
		return NULL;
	m->st.shared++;
	return &m->recent[i].d;
}

/* The room of the recent decoding of the part whose slot is slot, its
 * entry emptied: the part is decoded straight into it (recent_keep),
 * not copied there (a new part's values were copied twice). */
static recent_part *recent_room(codec_walker *m, const part_slot *slot)
{
	size_t i = recent_index(m, slot);
	m->recent_keys[i].step = NULL;
	return &m->recent[i];
}

/* Keeps decoding d of the part (s, gen, w) whose slot is slot among the
 * recent ones, where it was made in its recent_room (one that filled
 * that room, RECENT_VALUES + 1 values, may have been cut short: decide_part
 * makes it again in the walk's room) and has no cases. */
static void recent_keep(codec_walker *m, const part_slot *slot, const spec_step *s, uint32_t gen,
                        const uint64_t *w, const codec_decoded *d)
{
	size_t i = recent_index(m, slot);
	recent_key *k = &m->recent_keys[i];
	recent_part *r = &m->recent[i];
	if (d->values != r->values || d->ncases)
		return;
	k->step = s;
	k->gen = gen;
	memcpy(k->w, w, sizeof k->w);
	r->d = *d;
}

/* ----------------------------------------------------- names, texts */

/* The names of a spec's <program>s, resolved once when the codec is
 * built: every name a step binds or an expression, export or text uses
 * gets a number, so that the walk finds a variable by the address of the
 * name it holds (a table of addresses) and never compares strings.  The
 * walks of a2xx's and Midgard's programs spent a third of their time in
 * strcmp, most of it matching a name against each variable in scope, and
 * under libFuzzer each call is traced as well.  Each <display>, <suffix>,
 * <text> and <reject> text is compiled into pieces (literal text, a
 * variable's number, {_}), and each export's field and is= names are
 * matched to the model's fields and bitsets by address.
 *
 * The table holds addresses from the model; a program of another model
 * gets a table of its own for the walk (codec_program_walk). */
enum {
	PK_NAME,     /* a name's text (address) -> its number */
	PK_FIELD,    /* a spec_field -> its name's number, or NOT_EXPORTED */
	PK_BITSET,   /* a spec_bitset -> its name's number, or NOT_EXPORTED */
	PK_TEXT,     /* a display's text -> its template's index */
	PK_PROGRAM,  /* a spec_program the table covers -> 0 */
	PK_EXPR,     /* an expression of a step -> its compiled form's index */
	PK_STEPS,    /* an array of steps -> the index of its first step's record in rec */
	PK_KINDS
};
#define NO_ID        UINT32_MAX
#define NOT_EXPORTED (UINT32_MAX - 1)

/* the names every program has (builtin), numbered first */
enum { ID_POS, ID_LEFT, ID_END, ID_BUILTINS };
static const char *const builtin_names[ID_BUILTINS] = {"_pos", "_left", "_end"};

typedef enum tpiece_kind { TP_TEXT, TP_INSTR, TP_VAR, TP_VAR_HEX } tpiece_kind;
typedef struct tpiece {
	tpiece_kind kind;
	uint32_t id;      /* TP_VAR*: the name's number */
	const char *text; /* TP_TEXT: len bytes of the template */
	size_t len;
} tpiece;
typedef struct ttemplate {
	size_t first, n;  /* pieces */
} ttemplate;
#define PX_MAX_NODES 6u
#define PX_MAX_SLOTS 16u

/* An expression of a step compiled for codec_vm_run, with the numbers of
 * the names it references in its program's order: a2xx's walk evaluates
 * a dozen expressions a part, and the tree evaluator's call back per
 * reference, each a look-up of the name's address, took a fifth of it. */
typedef struct pexpr {
	const cins *prog;
	size_t first, n;  /* refid[first .. first + n) */
	/* the shape most of a2xx's and Midgard's expressions have, found
	 * when compiled, evaluated without the machine (the machine and the
	 * look for a shape at each evaluation were a quarter of a Midgard
	 * fuzz run): A is reference 0, B reference 1, K a constant */
	enum {
		PX_MACHINE,  /* none of these */
		PX_A,        /* {A} */
		PX_A_OP_K,   /* {A} op K, op binary (codec_vm_binop) */
		PX_K_OP_A,   /* K op {A} (Midgard's 128 * {quads}) */
		PX_A_OP_B,   /* {A} op {B} */
		PX_NOT_A,    /* !{A} */
		PX_A_AND_B,  /* {A} && {B} */
		PX_A_AND,    /* {A} && ... && ...: 0 when A is (else the machine) */
		PX_NODES,    /* binary operations over names and numbers alone: nodes */
	} shape;
	int op;           /* PX_A_OP_K, PX_K_OP_A, PX_A_OP_B: the VI_ operation */
	int64_t k;
	/* PX_NODES: the machine's program as operations on slots (the names'
	 * values, then the numbers, then each operation's result), in the
	 * machine's order: a2xx's "96 * ({ADDRESS} + {k})" is two operations
	 * instead of six steps of the stack machine, which took a tenth of an
	 * a2xx fuzz run */
	uint8_t nnodes, nk, result;
	struct pnode {
		uint8_t op, a, b, out;
	} node[PX_MAX_NODES];
	int64_t kv[PX_MAX_NODES + 1]; /* the numbers' slots */
} pexpr;

/* What a walk needs of a step, found once when the table is built: the
 * compiled forms of its expressions (NO_ID: the tree evaluator's), its
 * name's number and its exports' names' (exid[exports ...]).  A walk
 * finds a whole array's records with one look-up (run_steps), not one
 * a name or an expression (a look-up a step and a name were 3% of a
 * Midgard fuzz run). */
typedef struct pstep {
	uint32_t when, at, expr, count_at;
	uint32_t name;
	uint32_t exports;
} pstep;

struct codec_programs {
	/* (address, kind): n = value * PK_KINDS + kind; the model's fields
	 * and bitsets (thousands) apart from the programs' names and texts
	 * (tens, looked up for every variable: their table stays in cache) */
	codec_htab keys, model;
	codec_htab texts;  /* a name's text -> its number (p: the text) */
	struct pname {
		const char *text;
		bool exported; /* an export's field= or is= name */
	} *name;           /* per number */
	size_t nids, capids;
	char **copies;     /* the names cut out of templates */
	size_t ncopies, capcopies;
	ttemplate *tmpl;
	size_t ntmpl, captmpl;
	tpiece *piece;
	size_t npiece, cappiece;
	codec *compile;    /* where expressions are compiled to; NULL: none are */
	pexpr *expr;
	size_t nexpr, capexpr;
	uint32_t *refid;
	size_t nrefid, caprefid;
	uint32_t *exid;    /* per step with exports, the numbers of their as= names */
	size_t nexid, capexid;
	pstep *rec;        /* per step, by its array (PK_STEPS) */
	size_t nrec, caprec;
	bool oom;
};

static size_t key_hash(const void *p, unsigned kind)
{
	return codec_hash_ptr(p) ^ (size_t)kind * 0x9E3779B97F4A7C15ull;
}

static const codec_htab *key_table(const codec_programs *P, unsigned kind)
{
	return kind == PK_FIELD || kind == PK_BITSET ? &P->model : &P->keys;
}

static uint32_t key_get(const codec_programs *P, const void *p, unsigned kind)
{
	const codec_htab *t = key_table(P, kind);
	if (!t->cap)
		return NO_ID;
	size_t mask = t->cap - 1;
	for (size_t j = key_hash(p, kind) & mask; t->slot[j].p; j = (j + 1) & mask)
		if (t->slot[j].p == p && t->slot[j].n % PK_KINDS == kind)
			return (uint32_t)(t->slot[j].n / PK_KINDS);
	return NO_ID;
}

static void key_put(codec_programs *P, const void *p, unsigned kind, uint32_t value)
{
	codec_htab *t = kind == PK_FIELD || kind == PK_BITSET ? &P->model : &P->keys;
	if (P->oom || key_get(P, p, kind) != NO_ID)
		return;
	if (!codec_htab_room(t)) {
		P->oom = true;
		return;
	}
	size_t h = key_hash(p, kind), mask = t->cap - 1, j = h & mask;
	while (t->slot[j].p)
		j = (j + 1) & mask;
	t->slot[j] = (codec_hent){h, (size_t)value * PK_KINDS + kind, p};
	t->n++;
}

/* The number of a name's text, or NO_ID. */
static uint32_t text_id(const codec_programs *P, const char *s)
{
	if (!P->texts.cap)
		return NO_ID;
	size_t mask = P->texts.cap - 1;
	for (size_t j = codec_hash_str(s, strlen(s)) & mask; P->texts.slot[j].p; j = (j + 1) & mask)
		if (!strcmp(P->texts.slot[j].p, s))
			return (uint32_t)P->texts.slot[j].n;
	return NO_ID;
}

/* The number of name s (kept by address: s must live as long as P). */
static uint32_t intern(codec_programs *P, const char *s)
{
	uint32_t id = text_id(P, s);
	if (id != NO_ID || P->oom)
		return id;
	struct pname *nm = grow(P->name, P->nids + 1, &P->capids, sizeof *nm, 16);
	if (!nm || !codec_htab_room(&P->texts)) {
		if (nm)
			P->name = nm;
		P->oom = true;
		return NO_ID;
	}
	P->name = nm;
	size_t h = codec_hash_str(s, strlen(s)), mask = P->texts.cap - 1, j = h & mask;
	while (P->texts.slot[j].p)
		j = (j + 1) & mask;
	id = (uint32_t)P->nids++;
	P->texts.slot[j] = (codec_hent){h, id, s};
	P->texts.n++;
	P->name[id] = (struct pname){s, false};
	return id;
}

/* The number of the name at address s: by its address, or (a name no
 * step of the table's programs holds) by its text; NO_ID when it has
 * none (or there is no name), which no binding and no builtin has. */
static uint32_t walk_name(const codec_programs *P, const char *s)
{
	if (!s) /* a step the loader left without its name (a lint error) */
		return NO_ID;
	uint32_t id = key_get(P, s, PK_NAME);
	return id != NO_ID ? id : text_id(P, s);
}

/* Numbers the name at address s (a step's, an export's, an expression
 * reference's) and keys the address to it. */
static uint32_t name_key(codec_programs *P, const char *s)
{
	uint32_t id = intern(P, s);
	if (id != NO_ID)
		key_put(P, s, PK_NAME, id);
	return id;
}

/* Whether op is a binary operation (codec_vm_binop's). */
static bool shape_op(int op)
{
	return op >= VI_MUL && op <= VI_BITOR;
}

/* Finds px's shape in its compiled program (PX_MACHINE: none). */
static void expr_shape(pexpr *px)
{
	const cins *p = px->prog;
	if (p[0].op == VI_CONST && p[1].op == VI_REF && p[1].arg == 0 && shape_op(p[2].op) &&
	    p[3].op == VI_END) {
		px->shape = PX_K_OP_A;
		px->op = p[2].op;
		px->k = p[0].imm;
		return;
	}
	if (p[0].op != VI_REF || p[0].arg != 0)
		return;
	if (p[1].op == VI_END) {
		px->shape = PX_A;
	} else if (p[1].op == VI_NOT && p[2].op == VI_END) {
		px->shape = PX_NOT_A;
	} else if (p[1].op == VI_CONST && shape_op(p[2].op) && p[3].op == VI_END) {
		px->shape = PX_A_OP_K;
		px->op = p[2].op;
		px->k = p[1].imm;
	} else if (p[1].op == VI_REF && p[1].arg == 1 && shape_op(p[2].op) && p[3].op == VI_END) {
		px->shape = PX_A_OP_B;
		px->op = p[2].op;
	} else if (p[1].op == VI_SCAND && p[1].arg == 4 && p[2].op == VI_REF && p[2].arg == 1 &&
	           p[3].op == VI_BOOL && p[4].op == VI_END) {
		px->shape = PX_A_AND_B;
	} else if (p[1].op == VI_SCAND) {
		/* 0 jumps from && to && ({A} && {B} && ...): to the end? */
		int32_t t = p[1].arg;
		while (p[t].op == VI_SCAND)
			t = p[t].arg;
		if (p[t].op == VI_END)
			px->shape = PX_A_AND;
	}
}

/* Makes px a PX_NODES expression where its program is binary operations
 * over names and numbers alone and fits the slots; leaves it as it is
 * otherwise. */
static void expr_nodes(pexpr *px)
{
	uint8_t stack[PX_MAX_SLOTS];
	unsigned sp = 0, nk = 0, nn = 0;
	if (px->n > PX_MAX_SLOTS)
		return;
	/* (slots: the names' values first, the numbers after them, then the
	 * results: a number's or a result's slot is numbered once all the
	 * numbers are known; on the stack until then, 0x80 | its number and
	 * 0x40 | its node's) */
	for (const cins *p = px->prog;; p++) {
		if (p->op == VI_END) {
			if (sp != 1)
				return;
			break;
		}
		if (p->op == VI_REF && p->arg >= 0 && (size_t)p->arg < px->n && sp < PX_MAX_SLOTS) {
			stack[sp++] = (uint8_t)p->arg;
		} else if (p->op == VI_CONST && nk <= PX_MAX_NODES && sp < PX_MAX_SLOTS) {
			px->kv[nk] = p->imm;
			stack[sp++] = (uint8_t)(0x80 | nk++); /* a number: its slot later */
		} else if (shape_op(p->op) && sp >= 2 && nn < PX_MAX_NODES) {
			struct pnode *nd = &px->node[nn];
			nd->op = (uint8_t)p->op;
			nd->b = stack[--sp];
			nd->a = stack[--sp];
			stack[sp++] = (uint8_t)(0x40 | nn++); /* a result: its slot later */
		} else {
			return;
		}
	}
	size_t nslots = px->n + nk + nn;
	if (!nn || nslots > PX_MAX_SLOTS)
		return;
	/* the slots' numbers: names 0.., numbers from n, results after */
	for (unsigned k = 0; k < nn; k++) {
		struct pnode *nd = &px->node[k];
		uint8_t *ops[2] = {&nd->a, &nd->b};
		for (int o = 0; o < 2; o++) {
			uint8_t v = *ops[o];
			*ops[o] = v & 0x80 ? (uint8_t)(px->n + (v & 0x3f))
			          : v & 0x40 ? (uint8_t)(px->n + nk + (v & 0x3f)) : v;
		}
		nd->out = (uint8_t)(px->n + nk + k);
	}
	px->nnodes = (uint8_t)nn;
	px->nk = (uint8_t)nk;
	px->result = (uint8_t)(px->n + nk + nn - 1);
	px->shape = PX_NODES;
}


static void expr_keys(codec_programs *P, const spec_expr *e)
{
	size_t n = e ? spec_expr_ref_count(e) : 0;
	for (size_t i = 0; i < n; i++)
		name_key(P, spec_expr_ref(e, i));
	if (!e || !P->compile || n > 64 || P->oom || key_get(P, e, PK_EXPR) != NO_ID)
		return;
	const char *names[64];
	for (size_t i = 0; i < n; i++)
		names[i] = spec_expr_ref(e, i);
	const cins *prog = codec_vm_compile(P->compile, e, names, n);
	if (!prog)
		return; /* the tree evaluator's */
	pexpr *px = grow(P->expr, P->nexpr + 1, &P->capexpr, sizeof *px, 16);
	uint32_t *ids = px ? grow(P->refid, P->nrefid + n + 1, &P->caprefid, sizeof *ids, 32)
	                   : NULL;
	if (px)
		P->expr = px;
	if (!ids) {
		P->oom = true;
		return;
	}
	P->refid = ids;
	for (size_t i = 0; i < n; i++)
		ids[P->nrefid + i] = walk_name(P, names[i]);
	P->expr[P->nexpr] = (pexpr){.prog = prog, .first = P->nrefid, .n = n, .shape = PX_MACHINE};
	expr_shape(&P->expr[P->nexpr]);
	if (P->expr[P->nexpr].shape == PX_MACHINE)
		expr_nodes(&P->expr[P->nexpr]);
	P->nrefid += n;
	key_put(P, e, PK_EXPR, (uint32_t)P->nexpr++);
}

static void add_piece(codec_programs *P, tpiece p)
{
	tpiece *np = grow(P->piece, P->npiece + 1, &P->cappiece, sizeof *np, 32);
	if (!np) {
		P->oom = true;
		return;
	}
	P->piece = np;
	P->piece[P->npiece++] = p;
}

/* The number of a name cut out of a template (copied, as the table keeps
 * names by address). */
static uint32_t intern_copy(codec_programs *P, const char *s)
{
	uint32_t id = text_id(P, s);
	if (id != NO_ID || P->oom)
		return id;
	char **nc = grow(P->copies, P->ncopies + 1, &P->capcopies, sizeof *nc, 16);
	char *copy = nc ? strdup(s) : NULL;
	if (nc)
		P->copies = nc;
	if (!copy) {
		P->oom = true;
		return NO_ID;
	}
	P->copies[P->ncopies++] = copy;
	return intern(P, copy);
}

/* Compiles a display, <suffix>, <text> or <reject> text: {_} is the
 * instruction, {NAME} a variable in decimal, {NAME:hex} in hex with 0x;
 * a '{' without its '}' is text. */
static void template_key(codec_programs *P, const char *t)
{
	if (!t || key_get(P, t, PK_TEXT) != NO_ID || P->oom)
		return;
	ttemplate tt = {P->npiece, 0};
	for (const char *p = t; *p && !P->oom;) {
		const char *open = strchr(p, '{');
		char name[128];
		const char *format = NULL;
		const char *close = open ? spec_frame_ref(open, name, sizeof name, &format) : NULL;
		if (!close) {
			add_piece(P, (tpiece){TP_TEXT, 0, p, strlen(p)});
			break;
		}
		if (open > p)
			add_piece(P, (tpiece){TP_TEXT, 0, p, (size_t)(open - p)});
		if (!strcmp(name, "_"))
			add_piece(P, (tpiece){TP_INSTR, 0, NULL, 0});
		else
			add_piece(P, (tpiece){format && !strcmp(format, "hex") ? TP_VAR_HEX : TP_VAR,
			                      intern_copy(P, name), NULL, 0});
		p = close + 1;
	}
	ttemplate *nt = grow(P->tmpl, P->ntmpl + 1, &P->captmpl, sizeof *nt, 16);
	if (!nt || P->oom) {
		P->oom = true;
		return;
	}
	P->tmpl = nt;
	tt.n = P->npiece - tt.first;
	P->tmpl[P->ntmpl] = tt;
	key_put(P, t, PK_TEXT, (uint32_t)P->ntmpl++);
}

/* Numbers what steps bind and use, and marks the names exports match
 * fields and bitsets by. */
static void steps_keys(codec_programs *P, const spec_step *steps, size_t n)
{
	if (!n || P->oom || key_get(P, steps, PK_STEPS) != NO_ID)
		return;
	pstep *rec = n <= UINT32_MAX - P->nrec
	             ? grow(P->rec, P->nrec + n, &P->caprec, sizeof *rec, 64) : NULL;
	if (!rec) {
		P->oom = true;
		return;
	}
	P->rec = rec;
	size_t base = P->nrec;
	P->nrec += n;
	key_put(P, steps, PK_STEPS, (uint32_t)base);
	for (size_t i = 0; i < n && !P->oom; i++) {
		const spec_step *s = &steps[i];
		expr_keys(P, s->when);
		expr_keys(P, s->at);
		expr_keys(P, s->expr);
		expr_keys(P, s->count_at);
		pstep ps = {
			.when = s->when ? key_get(P, s->when, PK_EXPR) : NO_ID,
			.at = s->at ? key_get(P, s->at, PK_EXPR) : NO_ID,
			.expr = s->expr ? key_get(P, s->expr, PK_EXPR) : NO_ID,
			.count_at = s->count_at ? key_get(P, s->count_at, PK_EXPR) : NO_ID,
			.name = s->name && (s->kind == SPEC_STEP_READ || s->kind == SPEC_STEP_LET ||
			                    s->kind == SPEC_STEP_REPEAT) ? name_key(P, s->name) : NO_ID,
			.exports = (uint32_t)P->nexid,
		};
		uint32_t *ids = s->nexports && s->nexports <= UINT32_MAX - P->nexid
		                ? grow(P->exid, P->nexid + s->nexports, &P->capexid, sizeof *ids, 64)
		                : NULL;
		if (s->nexports && !ids) {
			P->oom = true;
			return;
		}
		if (ids) {
			P->exid = ids;
			P->nexid += s->nexports;
		}
		P->rec[base + i] = ps;
		for (size_t k = 0; k < s->nexports; k++) {
			const spec_export *ex = &s->exports[k];
			uint32_t as = ex->as ? name_key(P, ex->as) : NO_ID;
			if (ids)
				P->exid[P->nexid - s->nexports + k] = as;
			/* field= or is=: matched to the decoding by these names */
			const char *const *match = ex->field ? &ex->field : ex->is;
			size_t nmatch = ex->field ? 1 : ex->nis;
			for (size_t j = 0; j < nmatch; j++) {
				uint32_t id = match[j] ? name_key(P, match[j]) : NO_ID;
				if (id != NO_ID)
					P->name[id].exported = true;
			}
		}
		for (size_t k = 0; k < s->ndisplays; k++) {
			expr_keys(P, s->displays[k].when);
			template_key(P, s->displays[k].text);
		}
		for (size_t k = 0; k < s->nsuffixes; k++) {
			expr_keys(P, s->suffixes[k].when);
			template_key(P, s->suffixes[k].text);
		}
		if (s->kind == SPEC_STEP_TEXT || s->kind == SPEC_STEP_REJECT)
			template_key(P, s->text);
		steps_keys(P, s->steps, s->nsteps);
	}
}

/* The fields and bitsets of the model by address, with the number of
 * their name where an export matches by it (NOT_EXPORTED otherwise), so
 * that an address the table lacks is one of another model. */
static void model_keys(codec_programs *P, const spec_model *m)
{
	for (size_t i = 0; i < m->nbitsets && !P->oom; i++) {
		const spec_bitset *b = m->bitsets[i];
		uint32_t id = b->name ? text_id(P, b->name) : NO_ID;
		key_put(P, b, PK_BITSET, id != NO_ID && P->name[id].exported ? id : NOT_EXPORTED);
		for (size_t ci = 0; ci < b->ncases; ci++)
			for (size_t fi = 0; fi < b->cases[ci].nfields; fi++) {
				const spec_field *f = &b->cases[ci].fields[fi];
				id = f->name ? text_id(P, f->name) : NO_ID;
				key_put(P, f, PK_FIELD,
				        id != NO_ID && P->name[id].exported ? id : NOT_EXPORTED);
			}
	}
}

void codec_programs_free(codec_programs *P)
{
	if (!P)
		return;
	free(P->keys.slot);
	free(P->model.slot);
	free(P->texts.slot);
	free(P->name);
	for (size_t i = 0; i < P->ncopies; i++)
		free(P->copies[i]);
	free(P->copies);
	free(P->tmpl);
	free(P->piece);
	free(P->expr);
	free(P->refid);
	free(P->exid);
	free(P->rec);
	free(P);
}

/* The table of programs progs[0..n) of model m, their expressions
 * compiled into compile's arena (NULL: not compiled); NULL when out of
 * memory. */
static codec_programs *programs_build(const spec_model *m, const spec_program *const *progs,
                                      size_t n, codec *compile)
{
	codec_programs *P = calloc(1, sizeof *P);
	if (!P)
		return NULL;
	P->compile = compile;
	for (unsigned b = 0; b < ID_BUILTINS; b++)
		intern(P, builtin_names[b]);
	for (size_t i = 0; i < n; i++) {
		key_put(P, progs[i], PK_PROGRAM, 0);
		steps_keys(P, progs[i]->steps, progs[i]->nsteps);
	}
	model_keys(P, m);
	if (P->oom) {
		codec_programs_free(P);
		return NULL;
	}
	return P;
}

bool codec_build_programs(codec *c)
{
	size_t n = spec_program_count(c->m);
	c->programs = NULL;
	if (!n)
		return true;
	const spec_program **progs = malloc(n * sizeof *progs);
	if (!progs)
		return false;
	for (size_t i = 0; i < n; i++)
		progs[i] = spec_program_at(c->m, i);
	c->programs = programs_build(c->m, progs, n, c);
	free(progs);
	return c->programs != NULL;
}

const char *codec_frame_error_name(codec_frame_error_kind k)
{
	static const char *const names[] = {
		"truncated", "rejected", "overflow", "uncovered", "overlap",
		"loop", "expression", "count", "padding", "memory",
	};
	return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

static void werror(walk *W, codec_frame_error_kind kind, bool fatal, size_t bit,
                   const spec_step *step, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void werror(walk *W, codec_frame_error_kind kind, bool fatal, size_t bit,
                   const spec_step *step, const char *fmt, ...)
{
	codec_program *r = W->r;
	if (fatal || W->quiet)
		W->stop = true;
	if (W->quiet) { /* the first, without its message */
		if (!r->nerrors)
			r->errors[r->nerrors++] = (codec_frame_error){kind, fatal, bit, step, ""};
		return;
	}
	if (r->nerrors >= CODEC_PROGRAM_MAX_ERRORS)
		return;
	if (r->nerrors == r->priv->caperrors) {
		/* room as errors come: most walks of a fuzz run have one */
		size_t cap = r->nerrors ? CODEC_PROGRAM_MAX_ERRORS : 4;
		codec_frame_error *ne = realloc(r->errors, cap * sizeof *ne);
		if (!ne) {
			W->stop = W->oom = true;
			return;
		}
		r->errors = ne;
		r->priv->caperrors = cap;
	}
	codec_frame_error *e = &r->errors[r->nerrors++];
	e->kind = kind;
	e->fatal = fatal;
	e->bit = bit;
	e->step = step;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
}

/* Pays for one step; false (with a LOOP error) when the budget is gone. */
static bool pay(walk *W, const spec_step *s)
{
	if (W->budget == 0) {
		werror(W, CODEC_FRAME_LOOP, true, W->cursor, s,
		       "the walk took more steps than an input of %zu bits allows: a loop", W->nbits);
		return false;
	}
	W->budget--;
	return true;
}

/* The answers key_get(W->P, p, kind) missed in the walker's cache. */
static __attribute__((noinline)) uint32_t walk_key_miss(const walk *W, key_cached *k,
                                                        const void *p, unsigned kind)
{
	*k = (key_cached){p, kind, key_get(W->P, p, kind)};
	return k->value;
}

/* key_get(W->P, p, kind) through the walker's cache: its slot by the
 * address's bits above the allocator's alignment (a walk asks a few dozen
 * addresses a hundred times a run; the call and the hash of each asking
 * were 8% of an a2xx fuzz run's instructions). */
static inline uint32_t walk_key(const walk *W, const void *p, unsigned kind)
{
	uintptr_t a = (uintptr_t)p;
	key_cached *k = &W->cache[(a >> 4 ^ a >> 12 ^ kind) & (KEY_CACHE - 1)];
	if (k->p != p || k->kind != kind)
		return walk_key_miss(W, k, p, kind);
	return k->value;
}

static uint32_t walk_id(const walk *W, const char *s)
{
	if (!s) /* a step the loader left without its name (a lint error) */
		return NO_ID;
	uint32_t id = walk_key(W, s, PK_NAME);
	return id != NO_ID ? id : text_id(W->P, s);
}

/* Room for one more binding: false (the walk stopped) when memory runs
 * out.  (The room is the walker's, kept from walk to walk: grown rarely,
 * out of line.) */
static __attribute__((noinline)) bool vars_room(walk *W)
{
	pvar *p = W->nvars < UINT32_MAX
	          ? grow(W->vars, W->nvars + 1, &W->capvars, sizeof *p, 64) : NULL;
	if (!p) {
		werror(W, CODEC_FRAME_MEMORY, true, W->cursor, NULL, "out of memory");
		return false;
	}
	W->vars = p;
	return true;
}

static inline bool push_var(walk *W, uint32_t id, int64_t v, bool set)
{
	if ((W->nvars >= W->capvars || W->nvars >= UINT32_MAX) && !vars_room(W))
		return false;
	uint32_t hides = 0;
	if (id < W->P->nids) {
		hides = W->top[id];
		W->top[id] = (uint32_t)W->nvars + 1;
	}
	W->vars[W->nvars++] = (pvar){.id = id, .hides = hides, .value = v, .set = set};
	return true;
}

/* Unbinds the variables bound since the scope's mark. */
static void pop_vars(walk *W, size_t mark)
{
	while (W->nvars > mark) {
		const pvar *v = &W->vars[--W->nvars];
		if (v->id < W->P->nids)
			W->top[v->id] = v->hides;
	}
}

static void force_export(walk *W, pvar *v);

/* The binding of name id, NULL where none; an export of a part a quiet
 * walk has not decided yet gets its value here, the part decided. */
static inline const pvar *find_var(walk *W, uint32_t id)
{
	if (id >= W->P->nids || !W->top[id])
		return NULL;
	pvar *v = &W->vars[W->top[id] - 1];
	if (v->pend)
		force_export(W, v);
	return v;
}

static bool builtin(walk *W, uint32_t id, int64_t *v)
{
	switch (id) {
	case ID_POS: *v = (int64_t)W->cursor; return true;
	case ID_LEFT:
		W->read_end |= W->region_end == W->nbits;
		*v = (int64_t)(W->region_end - W->cursor);
		return true;
	case ID_END: W->read_end = true; *v = (int64_t)W->nbits; return true;
	default: return false;
	}
}

static bool lookup(void *ctx, const char *name, unsigned depth, int64_t *value, char *err,
                   size_t errlen)
{
	(void)depth;
	walk *W = ctx;
	uint32_t id = walk_id(W, name);
	const pvar *v = find_var(W, id);
	if (v && !v->set) {
		W->unset_hit = true;
		if (!W->quiet) /* (a quiet walk keeps no message) */
			snprintf(err, errlen, "{%s} has no value here (the decoded leaf has no such "
			         "field)", name);
		return false;
	}
	if (v) {
		*value = v->value;
		return true;
	}
	return builtin(W, id, value);
}

/* The value of px's reference i: false when it has none here (unset,
 * or neither bound nor a builtin). */
static inline bool ref_value(walk *W, const pexpr *px, size_t i, int64_t *v)
{
	uint32_t id = W->P->refid[px->first + i];
	const pvar *var = find_var(W, id);
	if (!var)
		return builtin(W, id, v);
	*v = var->value;
	return var->set;
}

/* A PX_NODES expression (eval_shape): false where a name it reads has
 * no value or an operation fails (the machine's, codec_vm_binop). */
static __attribute__((noinline)) bool eval_nodes(walk *W, const pexpr *px, int64_t *out)
{
	int64_t v[PX_MAX_SLOTS];
	for (size_t i = 0; i < px->n; i++)
		if (!ref_value(W, px, i, &v[i]))
			return false;
	for (unsigned i = 0; i < px->nk; i++)
		v[px->n + i] = px->kv[i];
	for (unsigned i = 0; i < px->nnodes; i++) {
		const struct pnode *nd = &px->node[i];
		if (!codec_vm_binop(nd->op, v[nd->a], v[nd->b], &v[nd->out]))
			return false;
	}
	*out = v[px->result];
	return true;
}

/* Expression k by its shape, where it has one and every name it reads
 * has a value: false where not (the machine or the tree decides).  Kept
 * small and inline: the whole evaluator's entry and exit (its room for
 * the machine's values and the messages) were 4% of a Midgard fuzz run,
 * and most evaluations are shapes. */
static inline __attribute__((always_inline)) bool eval_shape(walk *W, uint32_t k,
                                                              int64_t *out)
{
	if (k == NO_ID)
		return false;
	const pexpr *px = &W->P->expr[k];
	int64_t a, b = 0;
	switch (px->shape) {
	case PX_A:
		return ref_value(W, px, 0, out);
	case PX_NOT_A:
		if (!ref_value(W, px, 0, &a))
			return false;
		*out = a == 0;
		return true;
	case PX_A_OP_K: /* (a failing operation: the tree's message) */
		return ref_value(W, px, 0, &a) && codec_vm_binop(px->op, a, px->k, out);
	case PX_K_OP_A:
		return ref_value(W, px, 0, &a) && codec_vm_binop(px->op, px->k, a, out);
	case PX_A_OP_B:
		return ref_value(W, px, 0, &a) && ref_value(W, px, 1, &b) &&
		       codec_vm_binop(px->op, a, b, out);
	case PX_A_AND_B:
		if (!ref_value(W, px, 0, &a) || (a != 0 && !ref_value(W, px, 1, &b)))
			return false;
		*out = a != 0 && b != 0;
		return true;
	case PX_A_AND:
		if (!ref_value(W, px, 0, &a) || a != 0)
			return false;
		*out = 0;
		return true;
	case PX_NODES:
		return eval_nodes(W, px, out);
	case PX_MACHINE:
		return false;
	}
	return false;
}

/* Expression k (NO_ID: not compiled) where eval_shape did not decide it:
 * by its compiled program where every name it reads has a value, else
 * (and for an error's message) by spec_expr_eval, which reads only the
 * names the evaluation reaches (a2xx's "{vs} && {EXPORT} ..." with vs 0
 * and EXPORT unset is 0, not an error); an unset name it reaches sets
 * W->unset_hit. */
static __attribute__((noinline)) bool eval_slow(walk *W, uint32_t k, const spec_expr *e,
                                                int64_t *out, char *err, size_t errlen)
{
	if (k != NO_ID) {
		const pexpr *px = &W->P->expr[k];
		int64_t vals[64];
		size_t i = 0;
		while (i < px->n && ref_value(W, px, i, &vals[i]))
			i++;
		if (i == px->n && codec_vm_run(px->prog, vals, (int64_t)W->gen, out))
			return true;
	}
	spec_eval_env env = {lookup, W, (int64_t)W->gen, 0};
	if (W->quiet && errlen) /* its errors have no message: none is formatted */
		err[0] = 0;
	return spec_expr_eval(e, &env, out, err, W->quiet ? 0 : errlen);
}

/* Evaluates e, its compiled form k (NO_ID: none): by its shape
 * (eval_shape) or eval_slow. */
static inline bool eval_px(walk *W, uint32_t k, const spec_expr *e, int64_t *out, char *err,
                           size_t errlen)
{
	return eval_shape(W, k, out) || eval_slow(W, k, e, out, err, errlen);
}

/* The number of e's compiled form, NO_ID where it has none. */
static uint32_t expr_key(const walk *W, const spec_expr *e)
{
	return e ? walk_key(W, e, PK_EXPR) : NO_ID;
}

/* The records of an array of steps the table holds (its first step's),
 * NULL where it does not hold it. */
static const pstep *step_recs(const walk *W, const spec_step *steps)
{
	uint32_t b = walk_key(W, steps, PK_STEPS);
	return b != NO_ID ? &W->P->rec[b] : NULL;
}

/* Step s's record made on the spot (an array the table lacks: a part of
 * one, as a walk that goes on from its trail starts). */
static pstep step_rec(const walk *W, const spec_step *s)
{
	bool named = s->kind == SPEC_STEP_READ || s->kind == SPEC_STEP_LET ||
	             s->kind == SPEC_STEP_REPEAT;
	return (pstep){expr_key(W, s->when), expr_key(W, s->at), expr_key(W, s->expr),
	               expr_key(W, s->count_at), named ? walk_id(W, s->name) : NO_ID, NO_ID};
}

/* weval where eval_shape did not decide e. */
static __attribute__((noinline)) bool weval_slow(walk *W, const spec_step *s, uint32_t k,
                                                 const spec_expr *e, const char *what,
                                                 int64_t *out)
{
	char err[200];
	if (!eval_slow(W, k, e, out, err, sizeof err)) {
		werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "%s \"%s\": %s", what,
		       spec_expr_text(e), err);
		return false;
	}
	return true;
}

/* Evaluates e (k: its compiled form's number, NO_ID: none); false (with
 * a fatal EXPR error at step s) on failure. */
static inline bool weval(walk *W, const spec_step *s, uint32_t k, const spec_expr *e,
                         const char *what, int64_t *out)
{
	return eval_shape(W, k, out) || weval_slow(W, s, k, e, what, out);
}

/* An expression giving a position, size or count: false (the error
 * recorded, as `label="text" gives -1`) when it fails or is negative. */
static bool weval_count(walk *W, const spec_step *s, uint32_t k, const spec_expr *e,
                        const char *what, const char *label, int64_t *out)
{
	if (!weval(W, s, k, e, what, out))
		return false;
	if (*out < 0) {
		werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "%s=\"%s\" gives %" PRId64, label,
		       spec_expr_text(e), *out);
		return false;
	}
	return true;
}

/* when= of a step: true when absent. */
static bool holds(walk *W, const spec_step *s, uint32_t k, const spec_expr *when, bool *ok)
{
	int64_t v = 1;
	*ok = !when || weval(W, s, k, when, "when", &v);
	return *ok && v != 0;
}

/* Bits [pos, pos + n) of the input into out (item bit 0 first), 64 at
 * a time from the two or three input words that hold them (no word past
 * the last bit is read). */
static void extract(const uint32_t *in, size_t pos, unsigned n, uint64_t *out)
{
	unsigned sh = (unsigned)(pos % 32);
	const uint32_t *p = in + pos / 32;
	for (unsigned i = 0; i < n; i += 64, p += 2) {
		unsigned take = n - i < 64 ? n - i : 64, need = (sh + take + 31) / 32;
		uint64_t lo = p[0] | (need > 1 ? (uint64_t)p[1] << 32 : 0);
		uint64_t v = lo >> sh;
		if (need > 2)
			v |= (uint64_t)p[2] << (64 - sh); /* (need > 2: sh > 0) */
		if (take < 64)
			v &= ((uint64_t)1 << take) - 1;
		out[i / 64] = v;
	}
}

/* Room in r for n items in all: false when memory runs out. */
static bool items_room(codec_program *r, size_t n)
{
	struct codec_program_private *pv = r->priv;
	if (n <= pv->capitems)
		return true;
	size_t cap = pv->capitems ? pv->capitems * 2 : 64;
	while (cap < n)
		cap *= 2;
	codec_item *it = realloc(r->items, cap * sizeof *it);
	size_t *wo = it ? realloc(pv->woff, cap * sizeof *wo) : NULL;
	bool *un = wo ? realloc(pv->undecided, cap * sizeof *un) : NULL;
	if (it)
		r->items = it;
	if (wo)
		pv->woff = wo;
	if (un)
		pv->undecided = un;
	if (!un)
		return false;
	pv->capitems = cap;
	return true;
}

/* Appends an item with n bits taken from the input at pos. */
static codec_item *add_item(walk *W, codec_item_kind kind, const spec_step *s, size_t pos,
                            unsigned n)
{
	codec_program *r = W->r;
	struct codec_program_private *pv = r->priv;
	size_t nw = (n + 63) / 64;
	if (r->nitems == pv->capitems && !items_room(r, r->nitems + 1)) {
		werror(W, CODEC_FRAME_MEMORY, true, pos, s, "out of memory");
		return NULL;
	}
	uint64_t *pool = grow(pv->pool, pv->npool + nw, &pv->cappool, sizeof *pool, 256);
	if (!pool) {
		werror(W, CODEC_FRAME_MEMORY, true, pos, s, "out of memory");
		return NULL;
	}
	pv->pool = pool;
	if (nw)
		extract(W->in, pos, n, pv->pool + pv->npool);
	pv->woff[r->nitems] = pv->npool;
	pv->undecided[r->nitems] = false;
	pv->npool += nw;
	codec_item *it = &r->items[r->nitems++];
	*it = (codec_item){.kind = kind, .step = s, .name = s ? s->name : NULL, .bit = pos,
	                   .bits = n, .clean = true};
	return it;
}

static const uint64_t *item_bits(const walk *W, const codec_item *it)
{
	const codec_program *r = W->r;
	return r->priv->pool + r->priv->woff[it - r->items];
}

/* Whether a span of n bits at pos lies inside the region (or, not
 * in_region, the input). */
static bool span_fits(walk *W, size_t pos, uint64_t n, bool in_region)
{
	size_t end = in_region ? W->region_end : W->nbits;
	bool fit = pos <= end && n <= end - pos;
	if (fit && end == W->nbits && pos + n > W->need_end)
		W->need_end = pos + (size_t)n;
	return fit;
}

/* span_fits; false with a fatal error naming what. */
static bool fits(walk *W, const spec_step *s, size_t pos, uint64_t n, bool in_region,
                 const char *what)
{
	if (span_fits(W, pos, n, in_region))
		return true;
	if (!in_region || W->region_end == W->nbits || pos + n > W->nbits)
		werror(W, CODEC_FRAME_TRUNCATED, true, pos, s,
		       "%s needs bits %zu..%llu, but the program ends at bit %zu (word %zu)", what,
		       pos, (unsigned long long)(pos + n - 1), W->nbits, W->nbits / 32);
	else
		werror(W, CODEC_FRAME_OVERFLOW, true, pos, s,
		       "%s needs bits %zu..%llu, past the end of its region at bit %zu", what, pos,
		       (unsigned long long)(pos + n - 1), W->region_end);
	return false;
}

/* ------------------------------------------------------------- text */

/* One instruction of root ri as the codec's disassembler prints it. */
static void render_instr(walk *W, size_t ri, const uint64_t *w, sbuf *out)
{
	cx *x = W->x;
	cx_init(x, W->c, CX_DISASM, W->gen);
	cx_out o = {.buf = W->ibuf, .cap = PROGRAM_INSTR_TEXT};
	x->out = &o;
	const spec_bitset *b = cx_find_bitset(x, ri, w);
	if (!b) {
		char hex[CODEC_MAX_WORDS * 16 + 1];
		cx_hex(x, w, hex, sizeof hex);
		sb_str(out, "no match: ");
		sb_str(out, hex);
	} else {
		cx_display_top(x, b, w);
		sb_put(out, W->ibuf, o.len < PROGRAM_INSTR_TEXT ? o.len : PROGRAM_INSTR_TEXT - 1);
	}
	if (x->nerr && W->show_errors) {
		sb_str(out, "\t; ");
		for (unsigned i = 0; i < x->nerr; i++) {
			if (i)
				sb_str(out, ", ");
			sb_str(out, x->err[i]);
		}
	}
}

/* A display, <text> or <reject> message as compiled (template_key):
 * {_} is instr, {NAME} a variable in decimal, {NAME:hex} in hex with 0x,
 * an unset or unknown one "?". */
static void render_template(walk *W, const char *t, const char *instr, sbuf *out)
{
	uint32_t ti = t ? walk_key(W, t, PK_TEXT) : NO_ID;
	if (ti == NO_ID) { /* not a text of the table's programs: as written */
		if (t)
			sb_str(out, t);
		return;
	}
	const ttemplate *tt = &W->P->tmpl[ti];
	for (size_t i = tt->first; i < tt->first + tt->n; i++) {
		const tpiece *pc = &W->P->piece[i];
		if (pc->kind == TP_TEXT) {
			sb_put(out, pc->text, pc->len);
			continue;
		}
		if (pc->kind == TP_INSTR) {
			sb_str(out, instr ? instr : "");
			continue;
		}
		int64_t v;
		const pvar *var = find_var(W, pc->id);
		if ((var && var->set) || (!var && builtin(W, pc->id, &v))) {
			char num[32];
			if (var)
				v = var->value;
			if (pc->kind == TP_VAR_HEX)
				snprintf(num, sizeof num, "0x%" PRIx64, (uint64_t)v);
			else
				snprintf(num, sizeof num, "%" PRId64, v);
			sb_str(out, num);
		} else {
			sb_str(out, "?");
		}
	}
}

/* Inserts n bytes at offset at of b. */
static void sb_insert(sbuf *b, size_t at, const char *s, size_t n)
{
	size_t len = b->n;
	sb_put(b, s, n); /* grows b; the bytes are moved into place below */
	if (b->failed)
		return;
	memmove(b->s + at + n, b->s + at, len - at);
	memcpy(b->s + at, s, n);
}

/* The <suffix>es of step s on the item text printed from offset from of
 * W->text (each of its lines ends in "\n").  A suffix whose when= needs
 * a variable the part left unset (it did not decode) is not printed; a
 * line the text does not have gets nothing. */
static bool suffix_item(walk *W, const spec_step *s, size_t from)
{
	for (size_t i = 0; i < s->nsuffixes; i++) {
		const spec_frame_suffix *x = &s->suffixes[i];
		if (x->when) {
			char err[200];
			int64_t v;
			W->unset_hit = false;
			if (!eval_px(W, expr_key(W, x->when), x->when, &v, err, sizeof err)) {
				if (W->unset_hit)
					continue;
				werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "suffix when \"%s\": %s",
				       spec_expr_text(x->when), err);
				return false;
			}
			if (!v)
				continue;
		}
		size_t end = from;
		for (unsigned line = 1; end < W->text.n; end++)
			if (W->text.s[end] == '\n' && line++ == x->line)
				break;
		if (end >= W->text.n)
			continue;
		sbuf t = {0};
		render_template(W, x->text, NULL, &t);
		if (t.failed)
			W->text.failed = true;
		else if (t.n)
			sb_insert(&W->text, end, t.s, t.n);
		free(t.s);
	}
	return true;
}

/* Prints an item's line: the first display whose when= holds, or {_};
 * then its suffixes. */
static bool display_item(walk *W, const spec_step *s, const char *instr)
{
	if (W->quiet)
		return true;
	size_t from = W->text.n;
	if (!s->ndisplays) {
		sb_str(&W->text, instr);
		sb_put(&W->text, "\n", 1);
		return suffix_item(W, s, from);
	}
	for (size_t i = 0; i < s->ndisplays; i++) {
		bool ok;
		if (!holds(W, s, expr_key(W, s->displays[i].when), s->displays[i].when, &ok)) {
			if (!ok)
				return false;
			continue;
		}
		render_template(W, s->displays[i].text, instr, &W->text);
		sb_put(&W->text, "\n", 1);
		return suffix_item(W, s, from);
	}
	return true;
}

/* ------------------------------------------------------------- steps */

static void run_steps(walk *W, const spec_step *steps, size_t n, const pstep *recs);

static void pad_item(walk *W, const spec_step *s, size_t from, size_t to, bool zero)
{
	if (to <= from)
		return;
	if (to - from > UINT32_MAX) {
		werror(W, CODEC_FRAME_OVERFLOW, true, from, s, "padding of %zu bits", to - from);
		return;
	}
	codec_item *it = add_item(W, CODEC_ITEM_PAD, s, from, (unsigned)(to - from));
	if (!it || !zero)
		return;
	const uint64_t *w = item_bits(W, it);
	for (size_t i = 0; i < (it->bits + 63) / 64; i++)
		if (w[i]) {
			it->clean = false;
			werror(W, CODEC_FRAME_PADDING, false, from, s,
			       "padding bits %zu..%zu (words %zu..%zu) are not zero", from, to - 1,
			       from / 32, (to - 1) / 32);
			break;
		}
}

/* The number of the name a field or bitset has where an export matches
 * by it, NOT_EXPORTED where none does: by address, or by name for one
 * the table does not hold. */
static uint32_t export_id(const walk *W, const void *p, unsigned kind, const char *name)
{
	uint32_t id = walk_key(W, p, kind);
	if (id == NO_ID)
		id = name ? text_id(W->P, name) : NO_ID;
	return id == NO_ID ? NOT_EXPORTED : id;
}

/* The values of the exports of part s from its decoding d: field= the
 * first value of that field of the instruction itself (unset when the
 * leaf has none), is= 1 when the leaf or an ancestor bears one of the
 * names.  Into ev (the part's bindings, NULL where they are gone) and,
 * where slot is not NULL (s has at most MEMO_EXPORTS exports), slot. */
static void export_values(walk *W, const spec_step *s, const codec_decoded *d, part_slot *slot,
                          pvar *ev)
{
	if (!s->nexports)
		return;
	/* each value's field by number, once for all the exports */
	uint32_t fid[WALK_VALUES];
	size_t nv = d->nvalues < WALK_VALUES ? d->nvalues : WALK_VALUES;
	for (size_t k = 0; k < nv; k++) {
		const codec_value *cv = &d->values[k];
		fid[k] = cv->depth == 0 && cv->field
		         ? export_id(W, cv->field, PK_FIELD, cv->field->name) : NOT_EXPORTED;
	}
	for (size_t i = 0; i < s->nexports; i++) {
		const spec_export *ex = &s->exports[i];
		int64_t v = 0;
		bool set = false;
		if (ex->field) {
			uint32_t want = walk_id(W, ex->field);
			for (size_t k = 0; k < nv && !set; k++)
				if (fid[k] == want) {
					v = d->values[k].value;
					set = true;
				}
		} else {
			set = true;
			for (const spec_bitset *b = d->leaf; b && !v; b = b->parent) {
				uint32_t bid = export_id(W, b, PK_BITSET, b->name);
				for (size_t k = 0; k < ex->nis && !v; k++)
					v = bid == walk_id(W, ex->is[k]);
			}
		}
		if (slot) {
			slot->value[i] = v;
			slot->set = (uint8_t)(slot->set | (unsigned)set << i);
		}
		if (ev) {
			ev[i].value = v;
			ev[i].set = set;
		}
	}
}

/* Whether root r is one of c's model's (a program of another model
 * names its own model's roots, which c cannot decode). */
static bool own_root(const codec *c, const spec_root *r)
{
	uintptr_t a = (uintptr_t)r, lo = (uintptr_t)c->m->roots;
	return a >= lo && a - lo < c->m->nroots * sizeof *r && (a - lo) % sizeof *r == 0;
}

/* Decides part item idx (a PART step's): its leaf and clean, counted in
 * nparts and nclean, and its exports' values into ev (its bindings, in
 * the step's order; NULL where they are gone).  Returns its text ({_}),
 * NULL where printing it failed.  A walk decides each part where it
 * walks it; a quiet walk puts that off until an export of the part is
 * read (force_export) or, where it ends without an error, to its end:
 * the framing of most inputs a fuzz target walks quietly fails, and
 * decoding parts nothing reads was a fifth of such a walk. */
static const char *decide_part(walk *W, size_t idx, pvar *ev)
{
	const codec *c = W->c;
	codec_item *it = &W->r->items[idx];
	const spec_step *s = it->step;
	W->r->priv->undecided[idx] = false;
	uint64_t w[CODEC_MAX_WORDS];
	part_words(w, item_bits(W, it), s->bits, s->root);
	/* the memory, where it can hold the part */
	part_slot *slot = W->memo && s->bits <= 64 * MEMO_WORDS && s->nexports <= MEMO_EXPORTS
	                  ? memo_slot(W->memo, s, W->gen, w) : NULL;
	if (slot) {
		W->memo->st.asked++;
		if (slot_holds(slot, s, W->gen, w) && slot->show_errors == W->show_errors) {
			W->memo->st.recalled++;
			it->leaf = slot->leaf;
			it->clean = slot->clean;
			W->r->nparts++;
			W->r->nclean += it->clean;
			for (size_t i = 0; ev && i < s->nexports; i++) {
				ev[i].value = slot->value[i];
				ev[i].set = slot->set >> i & 1;
			}
			return slot->text;
		}
		/* kept below once the part's text is known */
		*slot = (part_slot){0};
	}
	/* the decoding and a leaf's text in one walk of the words where
	 * the codec can (codec_decode_text: the text codec_disasm_root
	 * prints, as render_instr does for a word with a leaf); where the
	 * memory keeps it, in the room of the recent decodings, and where
	 * it may have been cut short there, again in the walk's room */
	codec_disasm_options o = {.gen = W->gen, .show_errors = W->show_errors};
	size_t tl = 0;
	recent_part *rp = slot ? recent_room(W->memo, slot) : NULL;
	codec_decoded d = {.values = rp ? rp->values : W->values,
	                   .cap_values = rp ? RECENT_VALUES + 1 : WALK_VALUES,
	                   .issues = rp ? rp->issues : W->issues, .cap_issues = 16};
	bool ok = codec_decode_text(c, s->root, w, &o, &d, W->ibuf, PROGRAM_INSTR_TEXT, &tl);
	if (rp && d.nvalues > RECENT_VALUES) {
		d = (codec_decoded){.values = W->values, .cap_values = WALK_VALUES,
		                    .issues = W->issues, .cap_issues = 16};
		ok = codec_decode_text(c, s->root, w, &o, &d, W->ibuf, PROGRAM_INSTR_TEXT, &tl);
	}
	if (slot) /* (the decoding does not depend on the text's options) */
		recent_keep(W->memo, slot, s, W->gen, w, &d);
	it->leaf = d.leaf;
	it->clean = ok && d.leaf && !d.nissues;
	W->r->nparts++;
	W->r->nclean += it->clean;
	export_values(W, s, &d, slot, ev);
	const char *text = NULL;
	sbuf *instr = W->instr;
	if (d.leaf) {
		text = W->ibuf; /* cut to PROGRAM_INSTR_TEXT - 1 bytes */
	} else { /* "no match", also where the classifier raised an error */
		instr->n = 0;
		instr->failed = false;
		render_instr(W, (size_t)(s->root - c->m->roots), w, instr);
		if (!instr->failed)
			text = instr->s ? instr->s : "";
	}
	size_t len = text ? strlen(text) : CODEC_WALKER_TEXT;
	if (slot && len < CODEC_WALKER_TEXT && !W->stop) {
		slot->step = s;
		memcpy(slot->w, w, sizeof slot->w);
		slot->gen = W->gen;
		slot->show_errors = W->show_errors;
		slot->clean = it->clean;
		slot->leaf = d.leaf;
		memcpy(slot->text, text, len + 1);
	}
	return text;
}

/* An export v of a part not decided yet is read: the part decided, all
 * its exports that are still bound get their values. */
static void force_export(walk *W, pvar *v)
{
	size_t idx = v->pend - 1;
	pvar *first = v - v->ex;
	decide_part(W, idx, first);
	for (size_t i = 0; i < W->r->items[idx].step->nexports; i++)
		first[i].pend = 0;
}

static void run_part(walk *W, const spec_step *s, const pstep *ps)
{
	const codec *c = W->c;
	size_t pos = W->cursor;
	if (W->foreign && s->kind == SPEC_STEP_PART && !own_root(c, s->root)) {
		werror(W, CODEC_FRAME_REJECTED, true, pos, s, "part of root %s: the root is of another "
		       "model than the codec's, which decodes only its own", s->root->bitset->name);
		return;
	}
	if (s->at) {
		int64_t at;
		if (!weval_count(W, s, ps->at, s->at, "at", "at", &at))
			return;
		pos = (size_t)at; /* fits() checks it against the input without overflow */
	}
	if (!span_fits(W, pos, s->bits, !s->at)) {
		/* the label only for the error (printing it for every part
		 * showed in the profile), and not for a quiet walk's, which has
		 * no message (a sixtieth of a2xx's run) */
		char label[160] = "";
		if (!W->quiet)
			snprintf(label, sizeof label, "%s %s%s%s",
			         s->kind == SPEC_STEP_PART ? s->root->bitset->name : "data",
			         s->name ? "'" : "", s->name ? s->name : "", s->name ? "'" : "");
		fits(W, s, pos, s->bits, !s->at, label);
		return;
	}
	codec_item *it = add_item(W, s->kind == SPEC_STEP_PART ? CODEC_ITEM_PART : CODEC_ITEM_DATA,
	                          s, pos, s->bits);
	if (!it)
		return;
	if (!s->at)
		W->cursor += s->bits;
	size_t mark = W->text.n;
	/* the item's text ({_}): W->instr, kept from part to part, or where
	 * the decoding printed it, W->ibuf */
	sbuf *instr = W->instr;
	instr->n = 0;
	instr->failed = false;
	if (instr->s)
		instr->s[0] = 0;
	const char *text = NULL;
	if (s->kind == SPEC_STEP_DATA) {
		if (W->quiet) /* (its text is printing's) */
			return;
		const uint64_t *w = item_bits(W, it);
		for (unsigned k = 0; k < (s->bits + 31) / 32; k++) {
			if (k)
				sb_put(instr, " ", 1);
			sb_hex32(instr, (uint32_t)(w[k / 2] >> (32 * (k % 2))));
		}
		text = instr->failed ? NULL : instr->s ? instr->s : "";
	} else {
		it->root = s->root;
		it->leaf = NULL;
		it->clean = false;
		size_t idx = (size_t)(it - W->r->items), base = W->nvars;
		/* the exports bound undecided, given their values as the part
		 * is decided */
		uint32_t pend = idx < UINT32_MAX ? (uint32_t)idx + 1 : 0;
		/* (their names' numbers from the table: a look-up a part, not
		 * one an export) */
		uint32_t x0 = ps->exports;
		for (size_t i = 0; i < s->nexports; i++) {
			const spec_export *ex = &s->exports[i];
			uint32_t id = x0 != NO_ID ? W->P->exid[x0 + i] : ex->as ? walk_id(W, ex->as) : NO_ID;
			if (!push_var(W, id, 0, false)) {
				pend = 0; /* (the walk stops: out of memory) */
				break;
			}
			W->vars[W->nvars - 1].ex = (uint8_t)i;
			W->vars[W->nvars - 1].pend = pend;
		}
		if (W->nvars - base < s->nexports) {
			for (size_t i = base; i < W->nvars; i++)
				W->vars[i].pend = 0;
			return;
		}
		if (W->quiet && pend && s->nexports <= UINT8_MAX) {
			W->r->priv->undecided[idx] = true;
			return;
		}
		for (size_t i = base; i < W->nvars; i++)
			W->vars[i].pend = 0;
		/* (no exports: no room may have been made for bindings yet) */
		text = decide_part(W, idx, s->nexports ? &W->vars[base] : NULL);
		if (W->quiet)
			return;
	}
	if (text)
		display_item(W, s, text);
	if (W->stop && W->text.n > mark) /* a failed display: no half line */
		W->text.s[W->text.n = mark] = 0;
}

static void run_group(walk *W, const spec_step *s, const pstep *ps)
{
	size_t mark = W->nvars, saved_end = W->region_end;
	if (!s->expr) {
		run_steps(W, s->steps, s->nsteps, NULL);
		pop_vars(W, mark);
		return;
	}
	int64_t size;
	if (!weval_count(W, s, ps->expr, s->expr, "bits", "region bits", &size))
		return;
	size_t start = W->cursor;
	if (!fits(W, s, start, (uint64_t)size, true, "a region"))
		return;
	W->region_end = start + (size_t)size;
	run_steps(W, s->steps, s->nsteps, NULL);
	size_t end = W->region_end;
	W->region_end = saved_end;
	pop_vars(W, mark);
	if (W->stop)
		return;
	pad_item(W, s, W->cursor, end, s->zero);
	W->cursor = end;
}

/* Marks the start of iteration i of repeat s, one of the program's own
 * steps, in the walker's trail (its bindings' exports decided first: a
 * part before the mark is not decided after it); a mark that cannot be
 * kept ends the trail. */
static void mark_trail(walk *W, const spec_step *s, int64_t i, int64_t count, bool known)
{
	codec_walker *t = W->trail;
	for (size_t k = 0; k < W->nvars; k++)
		if (W->vars[k].pend)
			force_export(W, &W->vars[k]);
	trail_mark *m = grow(t->marks, t->nmarks + 1, &t->capmarks, sizeof *m, 64);
	pvar *v = m ? grow(t->trail_vars, t->ntrail_vars + W->nvars, &t->captrail_vars,
	                        sizeof *v, 64) : NULL;
	if (m)
		t->marks = m;
	if (!v) {
		t->trail_ok = false;
		W->trail = NULL;
		return;
	}
	t->trail_vars = v;
	if (W->nvars)
		memcpy(v + t->ntrail_vars, W->vars, W->nvars * sizeof *v);
	t->marks[t->nmarks++] = (trail_mark){
		.step = (size_t)(s - W->p->steps), .i = i, .count = count, .known = known,
		.cursor = W->cursor, .budget = W->budget, .nitems = W->r->nitems,
		.npool = W->r->priv->npool, .nreads = t->nreads, .var0 = t->ntrail_vars,
		.nvars = W->nvars, .need_end = W->need_end, .read_end = W->read_end,
	};
	t->ntrail_vars += W->nvars;
}

/* Joins the last quiet walk: walk W has just marked iteration i of its
 * own repeat number step (count, known) in its trail; where the last
 * walk's tail (tail_keep) has a mark of the same iteration in the same
 * state (position, bindings, the repeat's count, what was asked of the
 * input's size, and a step budget that will not run out sooner), the
 * rest of this walk is that walk's from there: a walk from a state is a
 * function of the bits it reads, and that walk read no word that
 * changed after the mark.  W then has that walk's items, trail and end
 * (joined), and stops.  A fuzz target's mutant mostly changes a few
 * words: the walk after them is its parent's. */
static void trail_join(walk *W, size_t step, int64_t i, int64_t count, bool known)
{
	codec_walker *wk = W->trail;
	trail_tail *t = &wk->tail;
	while (t->next < t->nmarks && (t->marks[t->next].step < step ||
	                               (t->marks[t->next].step == step && t->marks[t->next].i < i)))
		t->next++;
	if (t->next == t->nmarks) {
		W->tailing = false;
		return;
	}
	const trail_mark *o = &t->marks[t->next], *base = &t->marks[0];
	const trail_end *e = &wk->end;
	if (o->step != step || o->i != i || o->known != known || (known && o->count != count) ||
	    o->cursor != W->cursor || o->need_end != W->need_end || o->read_end != W->read_end ||
	    o->nvars != W->nvars)
		return;
	/* the last walk's steps from the mark on paid o->budget - e->budget;
	 * a walk that ran out of its budget there must have the same */
	bool spent = e->err && e->kind == CODEC_FRAME_LOOP;
	if (spent ? W->budget != o->budget : W->budget < o->budget - e->budget)
		return;
	const pvar *ov = t->vars + (o->var0 - base->var0);
	for (size_t k = 0; k < W->nvars; k++)
		if (ov[k].id != W->vars[k].id || ov[k].value != W->vars[k].value ||
		    ov[k].set != W->vars[k].set)
			return;
	codec_program *r = W->r;
	struct codec_program_private *pv = r->priv;
	size_t i0 = o->nitems - base->nitems, ni = t->nitems - i0;
	size_t p0 = o->npool - base->npool, np = t->npool - p0;
	size_t r0 = o->nreads - base->nreads, nr = t->nreads - r0;
	size_t v0 = o->var0 + o->nvars - base->var0, nv = t->nvars - v0;
	size_t m0 = t->next + 1, nm = t->nmarks - m0;
	bool room = true;
	pv->pool = grow_kept(pv->pool, pv->npool + np, &pv->cappool, sizeof *pv->pool, &room);
	wk->marks = grow_kept(wk->marks, wk->nmarks + nm, &wk->capmarks, sizeof *wk->marks, &room);
	wk->reads = grow_kept(wk->reads, wk->nreads + nr, &wk->capreads, sizeof *wk->reads, &room);
	wk->trail_vars = grow_kept(wk->trail_vars, wk->ntrail_vars + nv, &wk->captrail_vars,
	                           sizeof *wk->trail_vars, &room);
	if (!room || !items_room(r, r->nitems + ni)) {
		W->tailing = false; /* (the walk goes on by itself) */
		return;
	}
	/* what the indices of the last walk's add to this one's */
	size_t d_items = r->nitems - o->nitems, d_pool = pv->npool - o->npool;
	size_t d_reads = wk->nreads - o->nreads, d_budget = W->budget - o->budget;
	size_t d_vars = wk->ntrail_vars - o->nvars - o->var0; /* (this mark's are in) */
	if (ni) { /* (r's arrays may be NULL without items) */
		memcpy(r->items + r->nitems, t->items + i0, ni * sizeof *r->items);
		memcpy(pv->undecided + r->nitems, t->undecided + i0, ni * sizeof *pv->undecided);
	}
	for (size_t k = 0; k < ni; k++) {
		pv->woff[r->nitems + k] = t->woff[i0 + k] + d_pool;
		const codec_item *it = &t->items[i0 + k];
		if (it->kind == CODEC_ITEM_PART && !t->undecided[i0 + k]) {
			r->nparts++;
			r->nclean += it->clean;
		}
	}
	r->nitems += ni;
	memcpy(pv->pool + pv->npool, t->pool + p0, np * sizeof *pv->pool);
	pv->npool += np;
	for (size_t k = 0; k < nm; k++) {
		trail_mark m = t->marks[m0 + k];
		m.nitems += d_items;
		m.npool += d_pool;
		m.nreads += d_reads;
		m.var0 += d_vars;
		m.budget += d_budget;
		wk->marks[wk->nmarks++] = m;
	}
	memcpy(wk->reads + wk->nreads, t->reads + r0, nr * sizeof *wk->reads);
	wk->nreads += nr;
	memcpy(wk->trail_vars + wk->ntrail_vars, t->vars + v0, nv * sizeof *wk->trail_vars);
	wk->ntrail_vars += nv;
	W->cursor = e->cursor;
	W->budget = e->budget + d_budget;
	W->need_end = e->need_end;
	W->read_end = e->read_end;
	if (e->err) {
		codec_frame_error *x = &r->errors[0];
		x->kind = e->kind;
		x->fatal = e->fatal;
		x->bit = e->bit;
		x->step = e->step;
		x->text[0] = 0;
		r->nerrors = 1;
	}
	W->joined = W->stop = true; /* (its steps unwind) */
	W->joined_stop = e->stop;
	W->tailing = false;
	wk->st.joined++;
	wk->st.items_joined += ni;
}

/* Iterations i0 on of repeat s, its count known (count) or not. */
static void run_repeat_from(walk *W, const spec_step *s, const pstep *ps, int64_t i0,
                            int64_t count, bool known)
{
	size_t mark = W->nvars;
	bool own = W->trail && s >= W->p->steps && s < W->p->steps + W->p->nsteps;
	for (int64_t i = i0; !W->stop; i++) {
		if (own && W->trail) {
			mark_trail(W, s, i, count, known);
			if (W->tailing && W->trail) {
				trail_join(W, (size_t)(s - W->p->steps), i, count, known);
				if (W->joined)
					break;
			}
		}
		if (known && i >= count)
			break;
		if (!known && W->region_end == W->nbits && W->cursor < W->nbits &&
		    W->cursor + 1 > W->need_end)
			W->need_end = W->cursor + 1; /* it goes on: the end is past the cursor */
		if (!known && W->cursor >= W->region_end) {
			if (s->count_at)
				werror(W, CODEC_FRAME_COUNT, true, W->cursor, s,
				       "the %s ends after %" PRId64 " iterations, and count-at=\"%s\" "
				       "never held", W->region_end == W->nbits ? "program" : "region", i,
				       spec_expr_text(s->count_at));
			break;
		}
		if (!pay(W, s))
			break;
		size_t before = W->cursor;
		if (s->name && !push_var(W, ps->name, i, true))
			break;
		run_steps(W, s->steps, s->nsteps, NULL);
		if (W->stop)
			break;
		if (s->count_at && !known) {
			int64_t at;
			if (!weval(W, s, ps->count_at, s->count_at, "count-at", &at))
				break;
			if (at) {
				if (!weval(W, s, ps->expr, s->expr, "count", &count))
					break;
				known = true;
				if (count < i + 1) {
					werror(W, CODEC_FRAME_COUNT, true, W->cursor, s,
					       "count=\"%s\" gives %" PRId64 " after %" PRId64
					       " iterations already ran", spec_expr_text(s->expr), count, i + 1);
					break;
				}
			}
		}
		if (!known && W->cursor == before) {
			werror(W, CODEC_FRAME_LOOP, true, W->cursor, s,
			       "iteration %" PRId64 " of a repeat consumed nothing: it would never end", i);
			break;
		}
		pop_vars(W, mark);
	}
	pop_vars(W, mark);
}

static void run_repeat(walk *W, const spec_step *s, const pstep *ps)
{
	int64_t count = 0;
	bool known = !s->count_at && !s->to_end;
	if (known && !weval_count(W, s, ps->expr, s->expr, "count", "count", &count))
		return;
	run_repeat_from(W, s, ps, 0, count, known);
}

/* Runs steps[0..n), their records recs (NULL: found here). */
static void run_steps(walk *W, const spec_step *steps, size_t n, const pstep *recs)
{
	if (!recs && n)
		recs = step_recs(W, steps);
	for (size_t i = 0; i < n && !W->stop; i++) {
		const spec_step *s = &steps[i];
		pstep slow;
		const pstep *ps = recs ? &recs[i] : (slow = step_rec(W, s), &slow);
		bool ok;
		if (!pay(W, s))
			return;
		if (!holds(W, s, ps->when, s->when, &ok))
			continue;
		switch (s->kind) {
		case SPEC_STEP_PART:
			if (s->root)
				run_part(W, s, ps);
			break;
		case SPEC_STEP_DATA:
			if (s->bits)
				run_part(W, s, ps);
			break;
		case SPEC_STEP_READ: {
			unsigned nb = s->high - s->low + 1;
			if (!fits(W, s, W->cursor + s->low, nb, false, "a read"))
				return;
			uint64_t v;
			extract(W->in, W->cursor + s->low, nb, &v);
			push_var(W, ps->name, (int64_t)v, true);
			if (W->trail) {
				codec_walker *t = W->trail;
				trail_read *rd = grow(t->reads, t->nreads + 1, &t->capreads, sizeof *rd,
				                           64);
				if (rd) {
					t->reads = rd;
					t->reads[t->nreads++] = (trail_read){W->cursor + s->low, nb};
				} else {
					t->trail_ok = false;
					W->trail = NULL;
				}
			}
			break;
		}
		case SPEC_STEP_LET: {
			int64_t v = 0;
			if (!s->expr || !s->name)
				break;
			/* a value joined from a part that did not decode is unset in
			 * turn, not an error: only using it (when, at, ...) is */
			char err[200];
			W->unset_hit = false;
			if (!eval_px(W, ps->expr, s->expr, &v, err, sizeof err)) {
				if (!W->unset_hit) {
					werror(W, CODEC_FRAME_EXPR, true, W->cursor, s, "%s \"%s\": %s", s->name,
					       spec_expr_text(s->expr), err);
					return;
				}
				push_var(W, ps->name, 0, false);
				break;
			}
			push_var(W, ps->name, v, true);
			if (s->item) {
				codec_item *it = add_item(W, CODEC_ITEM_VALUE, s, W->cursor, 0);
				if (it)
					it->value = v;
			}
			break;
		}
		case SPEC_STEP_ALIGN: {
			if (!s->bits)
				break;
			size_t to = (W->cursor + s->bits - 1) / s->bits * s->bits;
			if (!fits(W, s, W->cursor, to - W->cursor, true, "alignment padding"))
				return;
			pad_item(W, s, W->cursor, to, s->zero);
			W->cursor = to;
			break;
		}
		case SPEC_STEP_REJECT: {
			if (W->quiet) {
				werror(W, CODEC_FRAME_REJECTED, true, W->cursor, s, "rejected");
				return;
			}
			sbuf m = {0};
			if (s->text)
				render_template(W, s->text, NULL, &m);
			else
				sb_str(&m, "rejected");
			werror(W, CODEC_FRAME_REJECTED, true, W->cursor, s, "%s", m.s ? m.s : "rejected");
			free(m.s);
			return;
		}
		case SPEC_STEP_TEXT:
			if (W->quiet)
				break;
			render_template(W, s->text, NULL, &W->text);
			sb_put(&W->text, "\n", 1);
			break;
		case SPEC_STEP_GROUP:
			run_group(W, s, ps);
			break;
		case SPEC_STEP_REPEAT:
			run_repeat(W, s, ps);
			break;
		}
	}
}

/* The first bit of [lo, hi) of bitmap m that is 1 (want) or 0, or hi. */
static size_t find_bit(const uint64_t *m, size_t lo, size_t hi, bool want)
{
	while (lo < hi) {
		uint64_t w = (want ? m[lo / 64] : ~m[lo / 64]) & ~(uint64_t)0 << (lo % 64);
		if (w) {
			size_t b = lo / 64 * 64 + (size_t)__builtin_ctzll(w);
			return b < hi ? b : hi;
		}
		lo = (lo / 64 + 1) * 64;
	}
	return hi;
}

/* Sets bits [lo, hi) of bitmap m. */
static void set_bits(uint64_t *m, size_t lo, size_t hi)
{
	while (lo < hi) {
		size_t k = lo / 64, top = hi - k * 64 < 64 ? hi - k * 64 : 64;
		uint64_t below = top == 64 ? ~(uint64_t)0 : ((uint64_t)1 << top) - 1;
		m[k] |= below & ~(uint64_t)0 << (lo % 64);
		lo = k * 64 + top;
	}
}

/* Sets bits [lo, hi) of bitmap m where none of them is set yet: false
 * (m half set) where one is. */
static bool set_bits_once(uint64_t *m, size_t lo, size_t hi)
{
	while (lo < hi) {
		size_t k = lo / 64, top = hi - k * 64 < 64 ? hi - k * 64 : 64;
		uint64_t below = top == 64 ? ~(uint64_t)0 : ((uint64_t)1 << top) - 1;
		uint64_t bits = below & ~(uint64_t)0 << (lo % 64);
		if (m[k] & bits)
			return false;
		m[k] |= bits;
		lo = k * 64 + top;
	}
	return true;
}

/* The UNCOVERED error of bits [b, e). */
static void uncovered(walk *W, size_t b, size_t e)
{
	werror(W, CODEC_FRAME_UNCOVERED, false, b, NULL,
	       "bits %zu..%zu (words %zu..%zu) belong to no item: no step covers them", b, e - 1,
	       b / 32, (e - 1) / 32);
}

/* check_cover where no two items overlap: the items sorted by their
 * first bit, the gaps between them are the bits no item covers, each
 * raised as the bitmap below finds them (in order; a quiet walk stops at
 * the first).  False, with nothing raised, where two overlap or more
 * than COVER_SORTED items have bits (not sorted here). */
#define COVER_SORTED 64u
static bool cover_sorted(walk *W)
{
	const codec_program *r = W->r;
	struct span {
		size_t lo, hi;
	} sp[COVER_SORTED];
	size_t n = 0;
	for (size_t i = 0; i < r->nitems; i++) {
		const codec_item *it = &r->items[i];
		size_t lo = it->bit, hi = it->bit + it->bits < W->nbits ? it->bit + it->bits : W->nbits;
		if (lo >= hi)
			continue;
		if (n == COVER_SORTED)
			return false;
		/* insertion: the items mostly come in order already */
		size_t k = n++;
		for (; k > 0 && sp[k - 1].lo > lo; k--)
			sp[k] = sp[k - 1];
		sp[k] = (struct span){lo, hi};
	}
	for (size_t k = 1; k < n; k++)
		if (sp[k].lo < sp[k - 1].hi)
			return false;
	size_t end = 0;
	for (size_t k = 0; k <= n && !(W->quiet && W->stop); k++) {
		size_t lo = k < n ? sp[k].lo : W->nbits;
		if (lo > end)
			uncovered(W, end, lo);
		if (k < n)
			end = sp[k].hi;
	}
	return true;
}

/* cover="true": every bit in exactly one item (a word of the bitmap at
 * a time: bit by bit, it took a twentieth of a walk); a quiet walk's
 * first overlap or uncovered range ends it. */
static void check_cover(walk *W)
{
	codec_program *r = W->r;
	/* Without the bitmap where the items tile the input in order, each
	 * starting where the last ended (Midgard's mostly do), or where no
	 * two overlap (cover_sorted); the bitmap below finds the overlaps in
	 * the items' order.  (The bitmap was a twentieth of a resumed walk,
	 * which checks all its items again; a2xx's items are not in order,
	 * its clauses' parts lying after its control flow's, and the bitmap
	 * was a fortieth of its fuzz target's run.) */
	size_t end = 0;
	bool in_order = true;
	for (size_t i = 0; i < r->nitems && in_order; i++) {
		const codec_item *it = &r->items[i];
		size_t lo = it->bit, hi = it->bit + it->bits < W->nbits ? it->bit + it->bits : W->nbits;
		if (lo >= hi)
			continue;
		in_order = lo == end;
		end = hi;
	}
	if ((in_order && end == W->nbits) || cover_sorted(W))
		return;
	/* (the walker's room, kept from walk to walk: a calloc and a free
	 * a walk showed in a fuzz run) */
	codec_walker *wk = W->room;
	size_t nseen = W->nbits / 64 + 1;
	uint64_t *seen = grow(wk->seen, nseen, &wk->capseen, sizeof *seen, 64);
	if (!seen) {
		werror(W, CODEC_FRAME_MEMORY, true, 0, NULL, "out of memory");
		return;
	}
	wk->seen = seen;
	/* Each item's bits set where none of them is set yet, a word at a
	 * time: the first item that finds one set overlaps an earlier one;
	 * where none does, the bitmap is the items' union.  A quiet walk
	 * stops at that overlap; a walk names the earlier item of each
	 * overlap (up to 8), the bitmap made again bit range by range. */
	memset(seen, 0, nseen * sizeof *seen);
	size_t first = r->nitems;
	for (size_t i = 0; i < r->nitems && first == r->nitems; i++) {
		const codec_item *it = &r->items[i];
		size_t lo = it->bit, hi = it->bit + it->bits < W->nbits ? it->bit + it->bits : W->nbits;
		if (!set_bits_once(seen, lo, hi))
			first = i;
	}
	if (first < r->nitems && W->quiet) {
		werror(W, CODEC_FRAME_OVERLAP, false, r->items[first].bit, r->items[first].step,
		       "overlap");
		return;
	}
	if (first < r->nitems) {
		memset(seen, 0, nseen * sizeof *seen);
		unsigned overlaps = 0;
		for (size_t i = 0; i < r->nitems; i++) {
			const codec_item *it = &r->items[i];
			size_t lo = it->bit;
			size_t hi = it->bit + it->bits < W->nbits ? it->bit + it->bits : W->nbits;
			if (lo >= hi)
				continue;
			size_t b = find_bit(seen, lo, hi, true);
			if (b < hi && overlaps++ < 8) {
				/* name the earlier item that holds the bit */
				size_t j = 0;
				while (j < i &&
				       !(r->items[j].bit <= b && b < r->items[j].bit + r->items[j].bits))
					j++;
				werror(W, CODEC_FRAME_OVERLAP, false, it->bit, it->step,
				       "item %zu (bits %zu..%zu, word %zu) overlaps item %zu (bits %zu..%zu)",
				       i, it->bit, it->bit + it->bits - 1, it->bit / 32, j, r->items[j].bit,
				       r->items[j].bit + r->items[j].bits - 1);
			}
			set_bits(seen, lo, hi);
		}
	}
	/* (a quiet walk stops at its first error: one is enough) */
	for (size_t b = find_bit(seen, 0, W->nbits, false); b < W->nbits && !(W->quiet && W->stop);) {
		size_t e = find_bit(seen, b, W->nbits, true);
		uncovered(W, b, e);
		b = find_bit(seen, e, W->nbits, false);
	}
}

codec_program *codec_program_walk(const codec *c, const spec_program *p, const uint32_t *words,
                                  size_t nwords, const codec_disasm_options *opt)
{
	codec_walker *w = codec_walker_new(c, 0);
	codec_program *r = w ? codec_walker_walk(w, p, words, nwords, opt) : NULL;
	codec_walker_free(w);
	return r;
}

/* Whether bits [bit, bit + n) of words differ from the trail's old
 * words, given that words before first do not and that both have the
 * words before common (a word past either's end differs). */
static bool trail_changed(const uint32_t *old, const uint32_t *words, size_t first,
                          size_t common, size_t bit, size_t n)
{
	if (!n)
		return false;
	size_t lo = bit / 32, hi = (bit + n - 1) / 32;
	for (size_t k = lo < first ? first : lo; k <= hi; k++)
		if (k >= common || old[k] != words[k])
			return true;
	return false;
}

/* Whether mark m holds for an input of nbits bits, the trail's being
 * old_bits: the walk before it asked nothing of the size that differs,
 * and its step budget (4 a bit) did not run out. */
static bool mark_fits_size(const trail_mark *m, size_t nbits, size_t old_bits)
{
	if (nbits == old_bits)
		return true;
	return !m->read_end && m->need_end <= nbits &&
	       (nbits > old_bits || m->budget >= 4 * (old_bits - nbits));
}

/* The mark of the walker's trail a quiet walk of words (p, gen, show)
 * goes on from: the last before which no item and no <read> of the last
 * quiet walk (r's items, kept) took a bit of a word that changed (or is
 * past the end of either input) and whose walk fits the new input's
 * size (mark_fits_size); NULL where there is none or the trail is of
 * another program or options. */
static const trail_mark *trail_resume(const codec_walker *wk, const codec_program *r,
                                      const spec_program *p, const uint32_t *words,
                                      size_t nwords, uint32_t gen, bool show)
{
	if (!wk->trail_ok || !wk->nmarks || wk->trail_p != p || wk->trail_gen != gen ||
	    wk->trail_show != show)
		return NULL;
	const uint32_t *old = wk->trail_words;
	size_t common = nwords < wk->trail_nwords ? nwords : wk->trail_nwords, first = 0;
	while (first < common && old[first] == words[first])
		first++;
	size_t fi = wk->trail_nitems, fr = wk->nreads;
	for (size_t i = 0; i < wk->trail_nitems && fi == wk->trail_nitems; i++)
		if (trail_changed(old, words, first, common, r->items[i].bit, r->items[i].bits))
			fi = i;
	for (size_t i = 0; i < wk->nreads && fr == wk->nreads; i++)
		if (trail_changed(old, words, first, common, wk->reads[i].bit, wk->reads[i].bits))
			fr = i;
	for (size_t k = wk->nmarks; k-- > 0;) {
		const trail_mark *m = &wk->marks[k];
		if (m->nitems <= fi && m->nreads <= fr &&
		    mark_fits_size(m, nwords * 32, wk->trail_nwords * 32))
			return m;
	}
	return NULL;
}

/* Whether bits [bit, bit + n) of words differ from old's, given that
 * both have the same number of words and that they differ only in words
 * [first, last). */
static bool span_changed(const uint32_t *old, const uint32_t *words, size_t first, size_t last,
                         size_t bit, size_t n)
{
	if (!n)
		return false;
	size_t lo = bit / 32, hi = (bit + n - 1) / 32 + 1;
	for (size_t k = lo < first ? first : lo; k < hi && k < last; k++)
		if (old[k] != words[k])
			return true;
	return false;
}

/* Keeps in wk's tail what a quiet walk of words may join of the last
 * one (trail_join), where the trail is of as many words and of the
 * walk's program and options, and tells how that walk's steps ended: its
 * marks from the first at or after mark from after which none of its
 * items and <read>s took a bit of a word that changed, and what it made
 * from there on (copied: the walk writes over the last one's as it
 * goes).  False where there is no such mark or memory for it. */
static bool tail_keep(codec_walker *wk, const uint32_t *words, size_t from)
{
	const codec_program *r = wk->quiet;
	const uint32_t *old = wk->trail_words;
	size_t nwords = wk->trail_nwords, first = 0, last = nwords;
	while (first < nwords && old[first] == words[first])
		first++;
	while (last > first && old[last - 1] == words[last - 1])
		last--;
	/* the items and <read>s from li and lr on take no changed bit */
	size_t li = 0, lr = 0;
	for (size_t i = wk->trail_nitems; first < last && i-- > 0;)
		if (span_changed(old, words, first, last, r->items[i].bit, r->items[i].bits)) {
			li = i + 1;
			break;
		}
	for (size_t i = wk->nreads; first < last && i-- > 0;)
		if (span_changed(old, words, first, last, wk->reads[i].bit, wk->reads[i].bits)) {
			lr = i + 1;
			break;
		}
	size_t e = from;
	while (e < wk->nmarks && (wk->marks[e].nitems < li || wk->marks[e].nreads < lr))
		e++;
	if (e == wk->nmarks)
		return false;
	trail_tail *t = &wk->tail;
	const trail_mark *m = &wk->marks[e];
	size_t nm = wk->nmarks - e, ni = wk->trail_nitems - m->nitems;
	size_t np = wk->trail_npool - m->npool, nr = wk->nreads - m->nreads;
	size_t nv = wk->ntrail_vars - m->var0;
	bool room = true;
	t->marks = grow_kept(t->marks, nm, &t->capmarks, sizeof *t->marks, &room);
	t->items = grow_kept(t->items, ni, &t->capitems, sizeof *t->items, &room);
	t->woff = grow_kept(t->woff, ni, &t->capwoff, sizeof *t->woff, &room);
	t->undecided = grow_kept(t->undecided, ni, &t->capundecided, sizeof *t->undecided, &room);
	t->pool = grow_kept(t->pool, np, &t->cappool, sizeof *t->pool, &room);
	t->reads = grow_kept(t->reads, nr, &t->capreads, sizeof *t->reads, &room);
	t->vars = grow_kept(t->vars, nv, &t->capvars, sizeof *t->vars, &room);
	if (!room)
		return false;
	/* (each only where it has something: an array nothing was put in
	 * may be NULL) */
	const struct codec_program_private *pv = r->priv;
	memcpy(t->marks, m, nm * sizeof *t->marks);
	if (ni) {
		memcpy(t->items, r->items + m->nitems, ni * sizeof *t->items);
		memcpy(t->woff, pv->woff + m->nitems, ni * sizeof *t->woff);
		memcpy(t->undecided, pv->undecided + m->nitems, ni * sizeof *t->undecided);
	}
	if (np)
		memcpy(t->pool, pv->pool + m->npool, np * sizeof *t->pool);
	if (nr)
		memcpy(t->reads, wk->reads + m->nreads, nr * sizeof *t->reads);
	if (nv)
		memcpy(t->vars, wk->trail_vars + m->var0, nv * sizeof *t->vars);
	t->nmarks = nm;
	t->nitems = ni;
	t->npool = np;
	t->nreads = nr;
	t->nvars = nv;
	t->next = 0;
	return true;
}

/* Puts walk W in the state of mark m of its walker's trail (its items,
 * bits and <read>s before m kept from the last quiet walk): false when
 * memory runs out. */
static bool trail_restore(walk *W, codec_walker *wk, const trail_mark *m)
{
	codec_program *r = W->r;
	if (m->nvars > W->capvars) {
		pvar *v = grow(W->vars, m->nvars, &W->capvars, sizeof *v, 64);
		if (!v)
			return false;
		W->vars = v;
	}
	if (m->nvars)
		memcpy(W->vars, wk->trail_vars + m->var0, m->nvars * sizeof *W->vars);
	W->nvars = m->nvars;
	for (size_t k = 0; k < m->nvars; k++)
		if (W->vars[k].id < W->P->nids)
			W->top[W->vars[k].id] = (uint32_t)k + 1;
	W->cursor = m->cursor;
	/* the budget is 4 a bit of the input (mark_fits_size) */
	size_t old_bits = wk->trail_nwords * 32;
	W->budget = W->nbits >= old_bits ? m->budget + 4 * (W->nbits - old_bits)
	                                 : m->budget - 4 * (old_bits - W->nbits);
	W->need_end = m->need_end;
	W->read_end = m->read_end;
	r->nitems = m->nitems;
	r->priv->npool = m->npool;
	/* the parts decided before it (the last walk may have decided
	 * some of them after it: a part's leaf is a function of its bits) */
	for (size_t i = 0; i < m->nitems; i++)
		if (r->items[i].kind == CODEC_ITEM_PART && !r->priv->undecided[i]) {
			r->nparts++;
			r->nclean += r->items[i].clean;
		}
	wk->nmarks = (size_t)(m - wk->marks);
	wk->ntrail_vars = m->var0;
	wk->nreads = m->nreads;
	return true;
}

/* Runs p (NULL: the model's only program) over words into r, a fresh
 * result (quiet false) or the walker's (codec_walker_walk_quiet): false
 * when memory runs out or there is no program. */
static bool run_walk(codec_walker *wk, const spec_program *p, const uint32_t *words,
                     size_t nwords, const codec_disasm_options *opt, codec_program *r, bool quiet)
{
	const codec *c = wk->c;
	if (!p)
		p = spec_find_program(c->m, NULL);
	if (!p || (!words && nwords) || nwords > SIZE_MAX / 64)
		return false;
	/* a program of c's model has its names resolved in c; another gets
	 * them resolved for this walk */
	codec_programs *own = NULL;
	const codec_programs *P = c->programs;
	if (!P || key_get(P, p, PK_PROGRAM) == NO_ID)
		P = own = programs_build(c->m, &p, 1, NULL);
	if (P && wk->ntop < P->nids) {
		uint32_t *t = realloc(wk->top, P->nids * sizeof *t);
		if (t) {
			wk->top = t;
			wk->ntop = P->nids;
		}
	}
	if (!P || wk->ntop < P->nids) {
		codec_programs_free(own);
		return false;
	}
	if (wk->cached != P || own) {
		/* another table (a foreign program's is new each walk) */
		memset(wk->cache, 0, sizeof wk->cache);
		wk->cached = own ? NULL : P;
	}
	memset(wk->top, 0, P->nids * sizeof *wk->top);
	walk W = {
		.c = c, .p = p, .P = P, .top = wk->top, .r = r, .quiet = quiet, .foreign = own != NULL,
		.vars = wk->vars, .capvars = wk->capvars,
		.x = wk->x, .ibuf = wk->ibuf, .instr = &wk->instr, .values = wk->values,
		/* (a program of another model is not remembered: its steps,
		 * the memory's keys, may be freed and their addresses reused) */
		.issues = wk->issues, .memo = wk->slots && !own ? wk : NULL, .cache = wk->cache,
		.room = wk,
	};
	r->program = p;
	r->nwords = nwords;
	if (!quiet && r->text) { /* a recycled program's room */
		W.text.s = r->text;
		W.text.cap = r->priv->captext;
		W.text.s[0] = 0;
		r->text = NULL;
	}
	static const uint32_t none[1] = {0};
	W.in = words ? words : none;
	W.nbits = nwords * 32;
	W.gen = opt ? opt->gen : 0;
	W.show_errors = opt ? opt->show_errors : true;
	W.region_end = W.nbits;
	/* each step is paid for: a walk is linear in its input */
	W.budget = W.nbits * 4 + 4096;
	/* a quiet walk with a memory goes on from its last trail where it
	 * can, and leaves its own */
	trail_mark from = {0};
	bool resume = false;
	if (quiet && W.memo) {
		const trail_mark *m = trail_resume(wk, r, p, W.in, nwords, W.gen, W.show_errors);
		/* (before trail_restore: the last walk's end, and the size of
		 * its trail, are what the tail is of) */
		W.tailing = wk->trail_ok && wk->nmarks && wk->trail_p == p && wk->trail_gen == W.gen &&
		            wk->trail_show == W.show_errors && nwords == wk->trail_nwords &&
		            wk->end.valid && tail_keep(wk, W.in, m ? (size_t)(m - wk->marks) : 0);
		if (m) {
			from = *m;
			resume = trail_restore(&W, wk, m);
		}
		if (!resume)
			wk->nmarks = wk->ntrail_vars = wk->nreads = 0;
		wk->trail_ok = true;
		W.trail = wk;
	}
	if (resume) {
		wk->st.resumed++;
		wk->st.items_kept += from.nitems;
		const pstep *recs = step_recs(&W, p->steps);
		pstep slow = recs ? recs[from.step] : step_rec(&W, &p->steps[from.step]);
		run_repeat_from(&W, &p->steps[from.step], &slow, from.i, from.count, from.known);
		run_steps(&W, p->steps + from.step + 1, p->nsteps - from.step - 1,
		          recs ? recs + from.step + 1 : NULL);
	} else {
		run_steps(&W, p->steps, p->nsteps, NULL);
	}
	if (W.joined)
		W.stop = W.joined_stop;
	if (W.trail) { /* (for the next walk that joins this one: trail_join) */
		trail_end *e = &wk->end;
		e->valid = !W.oom;
		e->cursor = W.cursor;
		e->budget = W.budget;
		e->need_end = W.need_end;
		e->read_end = W.read_end;
		e->stop = W.stop;
		e->err = r->nerrors != 0;
		if (e->err) {
			e->kind = r->errors[0].kind;
			e->fatal = r->errors[0].fatal;
			e->bit = r->errors[0].bit;
			e->step = r->errors[0].step;
		}
	}
	if (p->cover && !W.stop)
		check_cover(&W);
	/* a quiet walk without an error decides the parts it put off */
	for (size_t i = 0; quiet && !r->nerrors && i < r->nitems; i++)
		if (r->priv->undecided[i])
			decide_part(&W, i, NULL);
	if (W.text.failed)
		werror(&W, CODEC_FRAME_MEMORY, true, W.cursor, NULL,
		       "the disassembly is larger than %u bytes", PROGRAM_TEXT_MAX);
	r->stopped = W.stop;
	wk->vars = W.vars;
	wk->capvars = W.capvars;
	if (W.trail && wk->trail_ok) { /* the words the trail is of */
		uint32_t *tw = grow(wk->trail_words, nwords ? nwords : 1, &wk->trail_capwords,
		                         sizeof *tw, 64);
		if (tw) {
			wk->trail_words = tw;
			memcpy(tw, W.in, nwords * sizeof *tw);
			wk->trail_nwords = nwords;
			wk->trail_p = p;
			wk->trail_gen = W.gen;
			wk->trail_show = W.show_errors;
			wk->trail_nitems = r->nitems;
			wk->trail_npool = r->priv->npool;
		} else {
			wk->trail_ok = false;
		}
	} else if (quiet && W.memo) {
		wk->trail_ok = false;
	}
	codec_programs_free(own);
	for (size_t i = 0; i < r->nitems; i++)
		r->items[i].w = r->priv->pool + r->priv->woff[i];
	if (quiet)
		return !W.oom;
	r->text = W.text.s ? W.text.s : calloc(1, 1);
	r->textlen = W.text.s ? W.text.n : 0;
	r->priv->captext = W.text.s ? W.text.cap : 1;
	return r->text && !W.oom;
}

codec_program *codec_walker_walk(codec_walker *wk, const spec_program *p, const uint32_t *words,
                                 size_t nwords, const codec_disasm_options *opt)
{
	if (!wk)
		return NULL;
	codec_program *r = wk->nspare ? wk->spare[--wk->nspare] : NULL;
	if (r) { /* a recycled one: its room, nothing of its walk */
		struct codec_program_private *pv = r->priv;
		r->nitems = r->nerrors = r->nparts = r->nclean = 0;
		r->stopped = false;
		r->textlen = 0;
		if (r->text)
			r->text[0] = 0;
		pv->npool = 0;
	} else {
		r = calloc(1, sizeof *r + sizeof *r->priv);
		if (!r)
			return NULL;
		/* (one block: codec_program_free knows) */
		r->priv = (struct codec_program_private *)(r + 1);
	}
	if (!run_walk(wk, p, words, nwords, opt, r, false)) {
		codec_program_free(r);
		return NULL;
	}
	return r;
}

const codec_program *codec_walker_walk_quiet(codec_walker *wk, const spec_program *p,
                                             const uint32_t *words, size_t nwords,
                                             const codec_disasm_options *opt)
{
	if (!wk)
		return NULL;
	codec_program *r = wk->quiet;
	if (!r) {
		r = calloc(1, sizeof *r + sizeof *r->priv);
		if (!r)
			return NULL;
		r->priv = (struct codec_program_private *)(r + 1);
		r->errors = calloc(1, sizeof *r->errors);
		r->text = calloc(1, 1);
		r->priv->caperrors = 1;
		if (!r->errors || !r->text) {
			codec_program_free(r);
			return NULL;
		}
		wk->quiet = r;
	}
	/* the items' room kept from walk to walk */
	r->nitems = r->nerrors = r->nparts = r->nclean = 0;
	r->stopped = false;
	r->priv->npool = 0;
	return run_walk(wk, p, words, nwords, opt, r, true) ? r : NULL;
}

void codec_walker_recycle(codec_walker *w, codec_program *pr)
{
	if (!pr)
		return;
	if (!w || w->nspare == sizeof w->spare / sizeof *w->spare || pr == w->quiet) {
		if (!w || pr != w->quiet)
			codec_program_free(pr);
		return;
	}
	w->spare[w->nspare++] = pr;
}

void codec_program_free(codec_program *pr)
{
	if (!pr)
		return;
	if (pr->priv) { /* in pr's block */
		free(pr->priv->pool);
		free(pr->priv->woff);
		free(pr->priv->undecided);
	}
	free(pr->items);
	free(pr->errors);
	free(pr->text);
	free(pr);
}

/* ------------------------------------------------------------ encoding */

/* Puts bits into word *d whose bits mask covers where set marks the bits
 * items put before: false where one of them differs (*clash: those). */
static inline bool put_word(uint32_t *d, uint32_t *set, uint32_t bits, uint32_t mask,
                            uint32_t *clash)
{
	*clash = (*d ^ bits) & *set & mask;
	if (*clash)
		return false;
	*d |= bits & ~*set;
	*set |= mask;
	return true;
}

/* put_bits' error: item index sets bits clash of word k (d) otherwise
 * than an earlier item did.  False. */
static bool clashes(char *err, size_t errlen, size_t index, size_t k, uint32_t d, uint32_t clash)
{
	unsigned b = (unsigned)__builtin_ctz(clash);
	snprintf(err, errlen, "item %zu sets bit %zu to %u, which another item set to %u", index,
	         k * 32 + b, (unsigned)((d ^ clash) >> b & 1), (unsigned)(d >> b & 1));
	return false;
}

/* Puts n bits of w at bit pos of words (0 where set is 0), a 32-bit word
 * of w at a time (bit by bit, it was a twentieth of a fuzz run; a chunk
 * at a time up to each word's end, a fiftieth of a2xx's program round
 * trip): set marks the bits an item put, and an item may put a bit
 * another put only with the same value, the lowest that differs named. */
static bool put_bits(uint32_t *words, size_t nwords, uint32_t *set, size_t pos, unsigned n,
                     const uint64_t *w, char *err, size_t errlen, size_t index)
{
	if (pos > nwords * 32 || n > nwords * 32 - pos) {
		snprintf(err, errlen, "item %zu (bits %zu..%zu) lies outside the %zu words", index, pos,
		         pos + n - 1, nwords);
		return false;
	}
	unsigned sh = (unsigned)(pos % 32);
	size_t k0 = pos / 32;
	for (unsigned c = 0; c * 32 < n; c++) {
		unsigned take = n - c * 32 < 32 ? n - c * 32 : 32;
		uint32_t m = take == 32 ? ~0u : (1u << take) - 1;
		uint32_t v = (uint32_t)(w[c / 2] >> (32 * (c % 2))) & m, clash;
		/* its low bits into word k0 + c from bit sh, the rest into the next */
		size_t k = k0 + c;
		if (!put_word(&words[k], &set[k], v << sh, m << sh, &clash))
			return clashes(err, errlen, index, k, words[k], clash);
		if (sh && m >> (32 - sh) &&
		    !put_word(&words[k + 1], &set[k + 1], v >> (32 - sh), m >> (32 - sh), &clash))
			return clashes(err, errlen, index, k + 1, words[k + 1], clash);
	}
	return true;
}

/* codec_program_encode with the room set for nwords + 1 words, zeroed. */
static bool place_items(const codec_item *items, size_t nitems, uint32_t *words, size_t nwords,
                        uint32_t *set, char *err, size_t errlen)
{
	if (nwords)
		memset(words, 0, nwords * sizeof *words);
	bool ok = true;
	for (size_t i = 0; i < nitems && ok; i++)
		if (items[i].kind != CODEC_ITEM_VALUE && items[i].bits)
			ok = items[i].w && put_bits(words, nwords, set, items[i].bit, items[i].bits,
			                            items[i].w, err, errlen, i);
	return ok;
}

bool codec_program_encode(const codec_item *items, size_t nitems, uint32_t *words,
                          size_t nwords, char *err, size_t errlen)
{
	if ((!items && nitems) || (!words && nwords)) {
		snprintf(err, errlen, "no items or no words");
		return false;
	}
	uint32_t *set = calloc(nwords + 1, sizeof *set);
	if (!set) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	bool ok = place_items(items, nitems, words, nwords, set, err, errlen);
	free(set);
	return ok;
}

/* codec_program_reencode, through the memory of memo where not NULL. */
static bool reencode(const codec *c, const codec_program *pr, uint32_t gen, uint32_t *words,
                     size_t nwords, char *err, size_t errlen, codec_walker *memo)
{
	if (!c || !pr) {
		snprintf(err, errlen, "no codec or no program");
		return false;
	}
	size_t room = pr->nitems ? pr->nitems : 1;
	codec_item *items;
	uint64_t *bits;
	codec_value *values;
	bool ok;
	if (memo) {
		/* the walker's room and encoder, made as first needed */
		if (memo->enc_cap < room) {
			codec_item *ni = realloc(memo->enc_items, room * sizeof *ni);
			if (ni)
				memo->enc_items = ni;
			uint64_t *nb = ni ? realloc(memo->enc_bits, room * CODEC_MAX_WORDS * sizeof *nb)
			                  : NULL;
			if (nb) {
				memo->enc_bits = nb;
				memo->enc_cap = room;
			}
		}
		if (!memo->enc)
			memo->enc = codec_encoder_new(c);
		items = memo->enc_items;
		bits = memo->enc_bits;
		values = memo->values;
		ok = memo->enc_cap >= room && memo->enc;
	} else {
		items = malloc(room * sizeof *items);
		bits = malloc(room * CODEC_MAX_WORDS * sizeof *bits);
		values = malloc(WALK_VALUES * sizeof *values);
		ok = items && bits && values;
	}
	codec_issue issues[16];
	if (!ok)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; ok && i < pr->nitems; i++) {
		items[i] = pr->items[i];
		if (items[i].kind != CODEC_ITEM_PART)
			continue;
		uint64_t *w = bits + i * CODEC_MAX_WORDS;
		uint64_t in[CODEC_MAX_WORDS];
		part_words(in, pr->items[i].w, items[i].bits, items[i].root);
		part_slot *slot_any = memo && items[i].bits <= 64 * MEMO_WORDS
		                      ? memo_slot(memo, items[i].step, gen, in) : NULL;
		part_slot *slot = slot_any;
		if (slot && !slot_holds(slot, items[i].step, gen, in))
			slot = NULL; /* kept by walks only, with their text */
		if (memo)
			memo->st.enc_asked++;
		if (slot && slot->encoded) {
			memo->st.enc_recalled++;
			memcpy(w, slot->enc, sizeof slot->enc);
			items[i].w = w;
			continue;
		}
		const codec_decoded *known = slot_any ? recent_find(memo, slot_any, items[i].step, gen, in)
		                                      : NULL;
		codec_decoded d = {.values = values, .cap_values = WALK_VALUES, .issues = issues,
		                   .cap_issues = 16};
		if (known)
			d = *known; /* (read only) */
		else
			codec_decode(c, items[i].root, in, gen, &d);
		char why[200];
		if (!d.leaf) {
			snprintf(err, errlen, "item %zu (bit %zu) does not decode against %s", i,
			         items[i].bit, items[i].root->bitset->name);
			ok = false;
		} else if (!(memo ? codec_encoder_encode(memo->enc, &d, w, why, sizeof why)
		                  : codec_encode(c, &d, w, why, sizeof why))) {
			snprintf(err, errlen, "item %zu (bit %zu, %s): %s", i, items[i].bit, d.leaf->name,
			         why);
			ok = false;
		} else {
			items[i].w = w;
			if (slot) {
				memcpy(slot->enc, w, sizeof slot->enc);
				slot->encoded = true;
			}
		}
	}
	/* the bits put: in the walker's room where it has one (a calloc a
	 * program showed in the profile) */
	uint32_t *set = ok && memo && (words || !nwords)
	                ? grow(memo->enc_set, nwords + 1, &memo->enc_capset, sizeof *set, 64) : NULL;
	if (set) {
		memo->enc_set = set;
		memset(set, 0, (nwords + 1) * sizeof *set);
		ok = place_items(items, pr->nitems, words, nwords, set, err, errlen);
	} else if (ok) { /* (its checks and messages, out of memory too) */
		ok = codec_program_encode(items, pr->nitems, words, nwords, err, errlen);
	}
	if (!memo) {
		free(items);
		free(bits);
		free(values);
	}
	return ok;
}

const codec_decoded *codec_walker_decoding(codec_walker *w, const codec_item *it, uint32_t gen)
{
	if (!w || !w->slots || !it || it->kind != CODEC_ITEM_PART || !it->step || !it->w ||
	    it->bits > 64 * MEMO_WORDS)
		return NULL;
	uint64_t in[CODEC_MAX_WORDS];
	part_words(in, it->w, it->bits, it->root);
	return recent_find(w, memo_slot(w, it->step, gen, in), it->step, gen, in);
}

bool codec_program_reencode(const codec *c, const codec_program *pr, uint32_t gen,
                            uint32_t *words, size_t nwords, char *err, size_t errlen)
{
	return reencode(c, pr, gen, words, nwords, err, errlen, NULL);
}

bool codec_walker_reencode(codec_walker *w, const codec_program *pr, uint32_t gen,
                           uint32_t *words, size_t nwords, char *err, size_t errlen)
{
	if (!w) {
		snprintf(err, errlen, "no walker");
		return false;
	}
	return reencode(w->c, pr, gen, words, nwords, err, errlen, w->slots ? w : NULL);
}
