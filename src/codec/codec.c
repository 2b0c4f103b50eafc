/*
 * codec.c - compiles a model into a codec: a classifier per root (from
 * classify.c) and, per leaf, everything its decoding needs resolved in
 * advance, so that decoding does no string work and no allocation:
 *
 *  - names (fields, {FIELD} references, params) become dense ids;
 *  - per leaf, a look-up table from name id to the cases Mesa's
 *    find_field visits for that name, in order (overrides, whose
 *    expression decides at decode time, and the first default case that
 *    defines it, which ends the walk);
 *  - per leaf, the expressions its scope can evaluate, numbered locally
 *    (the per-scope cache is a plain array), with their {FIELD}
 *    references in Mesa's evaluation order (sorted) and pre-looked-up,
 *    each compiled for a small stack machine and checked against
 *    spec_expr_eval on probe inputs;
 *  - per leaf, the cases find_display visits, with their asserts and
 *    their display templates parsed into ops (literal text, {NAME},
 *    {:align=N}, fields with their look-up entry).
 *
 * Then the fast paths, which must not change a byte of output (the tests
 * compare them with codec_new_opt(.., false) on ~10^5 words): which
 * expressions are "pure" (their evaluation can neither fail nor be
 * observed, so it may happen early, late or from a table), and so which
 * look-ups always end at one field whatever the overrides say.  Variant
 * 1 of that analysis also counts names that come through params, for
 * scopes whose params cx_push finds bound to fixed parent fields.
 */
#include "internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arena */

typedef struct codec_arena {
	struct codec_arena *next;
	size_t used, cap; /* of data */
	size_t block;     /* the whole block (spec_block_alloc), this header included */
	size_t held;      /* data of this block and those after it in the list */
	bool zeroed;      /* data past used is zero already */
	_Alignas(16) unsigned char data[];
} codec_arena;

static void *arena_alloc(codec_arena **a, size_t n);

size_t codec_sig_put(char *sig, size_t n, size_t cap, const void *p, size_t sz)
{
	if (n + sz <= cap)
		memcpy(sig + n, p, sz);
	return n + sz;
}

void *codec_alloc(codec *c, size_t n)
{
	return arena_alloc(&c->arena, n);
}

codec_mark codec_arena_mark(const codec *c)
{
	return (codec_mark){.block = c->arena, .used = c->arena ? c->arena->used : 0};
}

void codec_arena_release(codec *c, codec_mark m)
{
	/* blocks are only ever pushed in front: those before m's are newer */
	while (c->arena != m.block) {
		codec_arena *next = c->arena->next;
		spec_block_free(c->arena, c->arena->block);
		c->arena = next;
	}
	/* what is given back is dirty: arena_alloc clears it when reused */
	if (c->arena) {
		c->arena->zeroed = false;
		c->arena->used = m.used;
	}
}

static void *arena_alloc(codec_arena **a, size_t n)
{
	if (n > SIZE_MAX / 2) /* keeps the roundings below from wrapping */
		return NULL;
	n = (n + 15u) & ~(size_t)15u;
	if (!n)
		n = 16;
	if (!*a || (*a)->cap - (*a)->used < n) {
		size_t held = *a ? (*a)->held : 0;
		size_t block = spec_block_size(sizeof **a + n, held);
		bool zeroed;
		codec_arena *b = block ? spec_block_alloc(block, &zeroed) : NULL;
		if (!b)
			return NULL;
		b->next = *a;
		b->used = 0;
		b->block = block;
		b->cap = block - sizeof *b;
		b->held = held + b->cap;
		b->zeroed = zeroed;
		*a = b;
	}
	void *p = (*a)->data + (*a)->used;
	(*a)->used += n;
	/* handed out zeroed: cleared as used, so untouched pages of a block
	 * are never faulted in (unless the kernel cleared it already) */
	if (!(*a)->zeroed)
		memset(p, 0, n);
	return p;
}

static void arena_free(codec_arena *a)
{
	while (a) {
		codec_arena *n = a->next;
		spec_block_free(a, a->block);
		a = n;
	}
}

/* ------------------------------------------------------- growable vector */

typedef struct vec {
	void *v;
	size_t n, cap, size;
} vec;

static void *vec_add(vec *v)
{
	void *a = spec_grow(v->v, v->n + 1, &v->cap, v->size, 16);
	if (!a)
		return NULL;
	v->v = a;
	void *p = (char *)v->v + v->n++ * v->size;
	memset(p, 0, v->size);
	return p;
}

/* Buffers of vectors that are done, for the next leaf's vectors: a
 * build of 10^5 leaves would otherwise allocate and free a dozen small
 * vectors per leaf, which under ASan (whose quarantine keeps what is
 * freed) cost more memory and time than the build itself. */
#define VEC_POOL 16
typedef struct vec_pool {
	void *buf[VEC_POOL];
	size_t bytes[VEC_POOL];
	size_t n;
} vec_pool;

/* An empty vector of elements of size bytes, on a pooled buffer if any. */
static vec vec_take(vec_pool *pool, size_t size)
{
	vec v = {.size = size};
	if (pool && pool->n) {
		pool->n--;
		v.v = pool->buf[pool->n];
		v.cap = pool->bytes[pool->n] / size;
	}
	return v;
}

/* Empties v, its buffer back to the pool (or freed: a full pool, none). */
static void vec_give(vec_pool *pool, vec *v)
{
	if (v->v && pool && pool->n < VEC_POOL) {
		pool->buf[pool->n] = v->v;
		pool->bytes[pool->n++] = v->cap * v->size;
	} else {
		free(v->v);
	}
	*v = (vec){.size = v->size};
}

static void vec_pool_free(vec_pool *pool)
{
	while (pool->n)
		free(pool->buf[--pool->n]);
}

/* Copies a vector into the arena; the vector is emptied (as vec_give). */
static void *vec_freeze(codec_arena **a, vec_pool *pool, vec *v, bool *ok)
{
	void *p = arena_alloc(a, v->n * v->size);
	if (!p)
		*ok = false;
	else if (v->n)
		memcpy(p, v->v, v->n * v->size);
	vec_give(pool, v);
	return p;
}

/* ------------------------------------------------------- compile state */

typedef struct pmap_ent {
	const void *key;
	void *val;
} pmap_ent;

typedef struct builder {
	codec *c;
	bool ok;
	/* names: open addressing, string -> id */
	uint32_t *nh;       /* id + 1, 0: empty */
	size_t nhcap;
	vec names;          /* const char * */
	/* spec_field * -> cfield * */
	pmap_ent *fm;
	size_t fmcap, fmn;
	/* spec_enum * -> cenum * */
	pmap_ent *em;
	size_t emcap, emn;
	/* spec_expr * -> its program (or &no_prog) */
	pmap_ent *xm;
	size_t xmcap, xmn;
	vec tabs; /* tab_ent: expression tables, shared */
	vec_pool pool; /* compile_leaf's vectors' buffers, from leaf to leaf */
	/* compile_leaf's finished arrays by their bytes (share_bytes) */
	codec_htab sh;
	bool share; /* look for equal arrays at all (a big model: SHARE_LEAVES) */
	bool fast;
} builder;

/* Below this many leaves (all roots) share_bytes only copies: hashing
 * every array costs a small spec's start-up about 5% (ir3, one word) and
 * saves it next to nothing. */
#define SHARE_LEAVES 4096u

static const cins no_prog[1] = {{VI_END, 0, 0}};

size_t codec_hash_str(const char *s, size_t n)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * (1099511628211ull & SIZE_MAX);
	return h;
}

bool codec_htab_room(codec_htab *t)
{
	if (2 * (t->n + 1) <= t->cap)
		return true;
	size_t cap = t->cap ? 2 * t->cap : 256;
	codec_hent *slot = cap <= SIZE_MAX / sizeof *slot ? calloc(cap, sizeof *slot) : NULL;
	if (!slot)
		return false;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i].p)
			continue;
		size_t j = t->slot[i].h & (cap - 1);
		while (slot[j].p)
			j = (j + 1) & (cap - 1);
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return true;
}

/* A copy of src[0..n) in the codec's arena, made once for all the equal
 * arrays asked for: siblings that add only a pattern to what their
 * parent defines compile to the same look-ups, steps, ops and
 * expressions, byte for byte (pointers into the model included), and
 * nothing writes a leaf's arrays once compile_leaf returns.  A synthetic
 * spec of a million leaves in families of 64 needed about 680 bytes of
 * codec a leaf without this.  NULL (B->ok false) when out of memory. */
static const void *share_bytes(builder *B, const void *src, size_t n)
{
	if (!n)
		src = ""; /* an empty vector has no buffer */
	if (!B->share) {
		void *p = arena_alloc(&B->c->arena, n);
		if (!p)
			B->ok = false;
		else if (n)
			memcpy(p, src, n);
		return p;
	}
	if (!codec_htab_room(&B->sh)) {
		B->ok = false;
		return NULL;
	}
	/* eight bytes a step: the arrays are a few hundred bytes, a million
	 * leaves' worth */
	uint64_t h64 = n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, (const char *)src + i, 8);
		h64 = (h64 ^ x) * 0x9e3779b97f4a7c15ull;
		h64 ^= h64 >> 29;
	}
	codec_hent *sh = B->sh.slot;
	size_t h = (size_t)h64 ^ codec_hash_str((const char *)src + i, n - i);
	size_t j = h & (B->sh.cap - 1);
	for (; sh[j].p; j = (j + 1) & (B->sh.cap - 1))
		if (sh[j].h == h && sh[j].n == n && !memcmp(sh[j].p, src, n))
			return sh[j].p;
	void *p = arena_alloc(&B->c->arena, n);
	if (!p) {
		B->ok = false;
		return NULL;
	}
	if (n)
		memcpy(p, src, n);
	sh[j] = (codec_hent){h, n, p};
	B->sh.n++;
	return p;
}

/* Room for an array compile_leaf writes until its end and then shares:
 * on the heap when it will be shared (share_done frees it), in the
 * arena, where it stays, when not. */
static void *share_room(builder *B, size_t count, size_t size)
{
	return B->share ? calloc(count, size)
	       : count <= SIZE_MAX / size ? arena_alloc(&B->c->arena, count * size) : NULL;
}

/* The array kept for room p of n bytes (NULL stays NULL). */
static const void *share_done(builder *B, void *p, size_t n)
{
	if (!p || !B->share)
		return p;
	const void *kept = share_bytes(B, p, n);
	free(p);
	return kept;
}

/* share_bytes of a vector's elements; the vector is given back. */
static const void *vec_share(builder *B, vec *v)
{
	const void *p = share_bytes(B, v->v, v->n * v->size);
	vec_give(&B->pool, v);
	return p;
}

/* The id of name[0..n), interned on first use. */
static uint32_t intern(builder *B, const char *s, size_t n)
{
	if (B->names.n * 2 + 2 > B->nhcap) {
		size_t cap = B->nhcap ? B->nhcap * 2 : 256;
		uint32_t *nh = calloc(cap, sizeof *nh);
		if (!nh) {
			B->ok = false;
			return 0;
		}
		for (size_t i = 0; i < B->names.n; i++) {
			const char *t = ((const char **)B->names.v)[i];
			size_t h = codec_hash_str(t, strlen(t)) & (cap - 1);
			while (nh[h])
				h = (h + 1) & (cap - 1);
			nh[h] = (uint32_t)i + 1;
		}
		free(B->nh);
		B->nh = nh;
		B->nhcap = cap;
	}
	size_t h = codec_hash_str(s, n) & (B->nhcap - 1);
	while (B->nh[h]) {
		const char *t = ((const char **)B->names.v)[B->nh[h] - 1];
		if (!strncmp(t, s, n) && t[n] == '\0')
			return B->nh[h] - 1;
		h = (h + 1) & (B->nhcap - 1);
	}
	char *copy = arena_alloc(&B->c->arena, n + 1);
	const char **slot = vec_add(&B->names);
	if (!copy || !slot) {
		B->ok = false;
		return 0;
	}
	memcpy(copy, s, n);
	*slot = copy;
	B->nh[h] = (uint32_t)B->names.n;
	return (uint32_t)B->names.n - 1;
}

static uint32_t intern_z(builder *B, const char *s)
{
	return intern(B, s ? s : "", s ? strlen(s) : 0);
}

static void **pmap_slot(builder *B, pmap_ent **m, size_t *cap, size_t *n, const void *key)
{
	if (*n * 2 + 2 > *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		pmap_ent *nm = calloc(ncap, sizeof *nm);
		if (!nm) {
			B->ok = false;
			return NULL;
		}
		for (size_t i = 0; i < *cap; i++)
			if ((*m)[i].key) {
				size_t h = codec_hash_ptr((*m)[i].key) & (ncap - 1);
				while (nm[h].key)
					h = (h + 1) & (ncap - 1);
				nm[h] = (*m)[i];
			}
		free(*m);
		*m = nm;
		*cap = ncap;
	}
	size_t h = codec_hash_ptr(key) & (*cap - 1);
	while ((*m)[h].key && (*m)[h].key != key)
		h = (h + 1) & (*cap - 1);
	if (!(*m)[h].key) {
		(*m)[h].key = key;
		(*n)++;
	}
	return &(*m)[h].val;
}

/* ------------------------------------------------------------- enums */

/* Sorts value indexes of e by their val string, then by position (a
 * merge sort: qsort has no context to reach e). */
static bool sort_by_val_text(const spec_enum *e, size_t *ix, size_t n)
{
	if (n < 2)
		return true;
	size_t h = n / 2;
	if (!sort_by_val_text(e, ix, h) || !sort_by_val_text(e, ix + h, n - h))
		return false;
	size_t *tmp = malloc(n * sizeof *tmp);
	if (!tmp)
		return false;
	size_t a = 0, b = h, k = 0;
	while (a < h || b < n) {
		bool take_a = b >= n;
		if (a < h && b < n) {
			const char *x = e->values[ix[a]].val_text, *y = e->values[ix[b]].val_text;
			int c = !x || !y ? (x ? 1 : y ? -1 : 0) : strcmp(x, y);
			take_a = c < 0 || (c == 0 && ix[a] < ix[b]);
		}
		tmp[k++] = take_a ? ix[a++] : ix[b++];
	}
	memcpy(ix, tmp, n * sizeof *tmp);
	free(tmp);
	return true;
}

static const cenum *get_enum(builder *B, const spec_enum *e)
{
	if (!e)
		return NULL;
	void **slot = pmap_slot(B, &B->em, &B->emcap, &B->emn, e);
	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	cenum *ce = arena_alloc(&B->c->arena, sizeof *ce);
	const char **disp = arena_alloc(&B->c->arena, (e->nvalues + 1) * sizeof *disp);
	if (!ce || !disp) {
		B->ok = false;
		return NULL;
	}
	ce->e = e;
	ce->disp = disp;
	/* isa.py keys values by the val string: a repeated string keeps the
	 * first position and the last display.  Sorted by string, so that
	 * enums of many values cost n log n. */
	size_t *order = malloc((e->nvalues + 1) * sizeof *order);
	for (size_t i = 0; order && i < e->nvalues; i++) {
		disp[i] = e->values[i].display;
		order[i] = i;
	}
	if (!order || !sort_by_val_text(e, order, e->nvalues)) {
		free(order);
		B->ok = false;
		return NULL;
	}
	for (size_t i = 0, run = 0; i <= e->nvalues; i++) {
		if (i < e->nvalues && e->values[order[i]].val_text &&
		    e->values[order[run]].val_text &&
		    !strcmp(e->values[order[i]].val_text, e->values[order[run]].val_text))
			continue;
		/* order[run..i) share one string: all print the last one's display */
		for (size_t k = run; k + 1 < i; k++)
			disp[order[k]] = e->values[order[i - 1]].display;
		run = i;
	}
	free(order);
	for (size_t i = e->nvalues; i-- > 0;) {
		int64_t v = e->values[i].val;
		if (disp[i] && strchr(disp[i], '\n'))
			ce->nl = true;
		if (v >= 0 && v < 256 && disp[i]) {
			/* a copy with room past its end (fast.c copies whole blocks) */
			size_t n = strlen(disp[i]);
			char *t = arena_alloc(&B->c->arena, n + 1 + CODEC_TEXT_PAD);
			if (!t) {
				B->ok = false;
				return NULL;
			}
			memcpy(t, disp[i], n + 1);
			ce->dense[v] = t;
			ce->dense_len[v] = (uint32_t)n;
		}
	}
	*slot = ce;
	return ce;
}

/* ------------------------------------------------------------ fields */

static size_t root_index_of(const spec_model *m, const spec_bitset *b)
{
	for (size_t i = 0; i < m->nroots; i++)
		if (m->roots[i].bitset == b)
			return i;
	return SIZE_MAX;
}

static const cfield *get_field(builder *B, const spec_field *f)
{
	void **slot = pmap_slot(B, &B->fm, &B->fmcap, &B->fmn, f);
	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	cfield *cf = arena_alloc(&B->c->arena, sizeof *cf);
	if (!cf) {
		B->ok = false;
		return NULL;
	}
	cf->f = f;
	cf->name = intern_z(B, f->name);
	cf->width = f->high >= f->low ? f->high - f->low + 1 : 1;
	cf->type = f->kind == SPEC_ASSERT ? SPEC_TYPE_UNKNOWN : f->type;
	if (f->display) {
		cf->disp_len = strlen(f->display);
		cf->disp_nl = strchr(f->display, '\n') != NULL;
	}
	if (f->kind == SPEC_ASSERT) {
		unsigned nw = B->c->nw;
		cf->aval = arena_alloc(&B->c->arena, nw * sizeof *cf->aval);
		if (!cf->aval) {
			B->ok = false;
			return NULL;
		}
		uint64_t tmp[CODEC_MAX_WORDS] = {0};
		unsigned an = f->assert_value.nwords < nw ? f->assert_value.nwords : nw;
		for (unsigned i = 0; i < an; i++)
			tmp[i] = f->assert_value.w[i];
		cx_extract(tmp, f->low, f->high, cf->aval, nw);
	}
	if (cf->type == SPEC_TYPE_ENUM)
		cf->en = get_enum(B, f->enm);
	if (cf->type == SPEC_TYPE_BITSET) {
		cf->root_index = f->bitset ? root_index_of(B->c->m, f->bitset) : SIZE_MAX;
		if (cf->root_index == SIZE_MAX)
			cf->type = SPEC_TYPE_UNKNOWN;
		else
			cf->root = &B->c->m->roots[cf->root_index];
		cparam *ps = arena_alloc(&B->c->arena, (f->nparams + 1) * sizeof *ps);
		if (!ps) {
			B->ok = false;
			return NULL;
		}
		for (size_t i = 0; i < f->nparams; i++) {
			ps[i].name = intern_z(B, f->params[i].name);
			ps[i].as = intern_z(B, f->params[i].as ? f->params[i].as : f->params[i].name);
		}
		cf->params = ps;
		cf->nparams = f->nparams;
	}
	*slot = cf;
	return cf;
}

/* ------------------------------------------------ expression programs */

/* A second, small compiler of the expression text into a stack program:
 * spec_expr_eval walks a tree and calls back per reference; the program
 * reads pre-resolved values from an array.  Whatever this compiler does
 * not accept exactly, or whose results differ from spec_expr_eval's on
 * a set of probe inputs, is left to spec_expr_eval. */

typedef struct vmc {
	const char *s;
	size_t pos;
	vec code;          /* cins */
	const char **names;/* the expression's references, in cexpr order */
	size_t nnames;
	int depth, maxdepth, nest;
	bool fail;
} vmc;

typedef enum vtok {
	VT_END, VT_NUM, VT_REF, VT_GPU, VT_LP, VT_RP, VT_Q, VT_COLON,
	VT_NOT, VT_TILDE, VT_STAR, VT_SLASH, VT_PCT, VT_PLUS, VT_MINUS, VT_SHL, VT_SHR,
	VT_LT, VT_GT, VT_LE, VT_GE, VT_EQ, VT_NE, VT_AMP, VT_CARET, VT_PIPE, VT_ANDAND, VT_OROR,
	VT_BAD,
} vtok;

static void vm_skip(vmc *v)
{
	for (;;) {
		char ch = v->s[v->pos];
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
			v->pos++;
		} else if (ch == '/' && v->s[v->pos + 1] == '*') {
			const char *e = strstr(v->s + v->pos + 2, "*/");
			if (!e) {
				v->fail = true;
				return;
			}
			v->pos = (size_t)(e - v->s) + 2;
		} else if (ch == '/' && v->s[v->pos + 1] == '/') {
			while (v->s[v->pos] && v->s[v->pos] != '\n')
				v->pos++;
		} else {
			return;
		}
	}
}

/* Peeks (without consuming) the next token; *len is its length. */
static vtok vm_peek(vmc *v, size_t *len, int64_t *num, int *ref)
{
	vm_skip(v);
	const char *t = v->s + v->pos;
	*len = 1;
	if (v->fail || !*t)
		return v->fail ? VT_BAD : VT_END;
	if (isdigit((unsigned char)*t)) {
		size_t i = 0;
		unsigned base = 10;
		if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
			base = 16;
			i = 2;
			if (!isxdigit((unsigned char)t[2]))
				return VT_BAD;
		} else if (t[0] == '0') {
			base = 8;
		}
		uint64_t val = 0;
		for (;; i++) {
			unsigned d;
			char ch = t[i];
			if (ch >= '0' && ch <= '9')
				d = (unsigned)(ch - '0');
			else if (base == 16 && ch >= 'a' && ch <= 'f')
				d = (unsigned)(ch - 'a' + 10);
			else if (base == 16 && ch >= 'A' && ch <= 'F')
				d = (unsigned)(ch - 'A' + 10);
			else
				break;
			if (d >= base || val > (UINT64_MAX - d) / base)
				return VT_BAD;
			val = val * base + d;
		}
		/* suffixes: at most one u and one l/ll */
		bool u = false, l = false;
		while (isalnum((unsigned char)t[i]) || t[i] == '_') {
			if ((t[i] == 'u' || t[i] == 'U') && !u) {
				u = true;
				i++;
			} else if ((t[i] == 'l' || t[i] == 'L') && !l) {
				l = true;
				i += t[i + 1] == t[i] ? 2 : 1;
			} else {
				return VT_BAD;
			}
		}
		*len = i;
		*num = (int64_t)val; /* wraps as spec_expr_eval's literal does (probed) */
		return VT_NUM;
	}
	if (*t == '{') {
		size_t i = 1;
		while (isalnum((unsigned char)t[i]) || t[i] == '_')
			i++;
		if (i == 1 || t[i] != '}')
			return VT_BAD;
		*len = i + 1;
		for (size_t k = 0; k < v->nnames; k++)
			if (strlen(v->names[k]) == i - 1 && !strncmp(v->names[k], t + 1, i - 1)) {
				*ref = (int)k;
				return VT_REF;
			}
		return VT_BAD;
	}
	if (isalpha((unsigned char)*t) || *t == '_') {
		size_t i = 0;
		while (isalnum((unsigned char)t[i]) || t[i] == '_')
			i++;
		*len = i;
		return i == 10 && !strncmp(t, "ISA_GPU_ID", 10) ? VT_GPU : VT_BAD;
	}
	static const struct {
		const char *t;
		vtok k;
	} p[] = {
		{"<<", VT_SHL}, {">>", VT_SHR}, {"<=", VT_LE}, {">=", VT_GE}, {"==", VT_EQ},
		{"!=", VT_NE}, {"&&", VT_ANDAND}, {"||", VT_OROR}, {"(", VT_LP}, {")", VT_RP},
		{"?", VT_Q}, {":", VT_COLON}, {"!", VT_NOT}, {"~", VT_TILDE}, {"*", VT_STAR},
		{"/", VT_SLASH}, {"%", VT_PCT}, {"+", VT_PLUS}, {"-", VT_MINUS}, {"<", VT_LT},
		{">", VT_GT}, {"&", VT_AMP}, {"^", VT_CARET}, {"|", VT_PIPE},
	};
	for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
		size_t n = strlen(p[k].t);
		if (!strncmp(t, p[k].t, n)) {
			*len = n;
			return p[k].k;
		}
	}
	return VT_BAD;
}

static size_t vm_emit(vmc *v, int op, int32_t arg, int64_t imm, int push)
{
	cins *i = vec_add(&v->code);
	if (!i) {
		v->fail = true;
		return 0;
	}
	*i = (cins){op, arg, imm};
	v->depth += push;
	if (v->depth > v->maxdepth)
		v->maxdepth = v->depth;
	return v->code.n - 1;
}

static void vm_patch(vmc *v, size_t at)
{
	if (!v->fail)
		((cins *)v->code.v)[at].arg = (int32_t)v->code.n;
}

static void vm_cond(vmc *v);

static void vm_unary(vmc *v)
{
	size_t len;
	int64_t num = 0;
	int ref = 0;
	if (++v->nest > 200)
		v->fail = true;
	vtok t = vm_peek(v, &len, &num, &ref);
	if (v->fail)
		return;
	switch (t) {
	case VT_NOT:
	case VT_TILDE:
	case VT_MINUS:
	case VT_PLUS:
		v->pos += len;
		vm_unary(v);
		if (t != VT_PLUS)
			vm_emit(v, t == VT_NOT ? VI_NOT : t == VT_TILDE ? VI_BITNOT : VI_NEG, 0, 0, 0);
		break;
	case VT_NUM:
		v->pos += len;
		vm_emit(v, VI_CONST, 0, num, 1);
		break;
	case VT_REF:
		v->pos += len;
		vm_emit(v, VI_REF, ref, 0, 1);
		break;
	case VT_GPU:
		v->pos += len;
		if (vm_peek(v, &len, &num, &ref) != VT_LP) {
			v->fail = true;
			break;
		}
		v->pos += len;
		if (vm_peek(v, &len, &num, &ref) != VT_RP) {
			v->fail = true;
			break;
		}
		v->pos += len;
		vm_emit(v, VI_GPU, 0, 0, 1);
		break;
	case VT_LP:
		v->pos += len;
		vm_cond(v);
		if (vm_peek(v, &len, &num, &ref) != VT_RP) {
			v->fail = true;
			break;
		}
		v->pos += len;
		break;
	default:
		v->fail = true;
		break;
	}
	v->nest--;
}

/* Binary operators by C precedence level (1: ||, 10: * / %). */
static int vm_binop(vtok t, int *level)
{
	switch (t) {
	case VT_OROR: *level = 1; return -1;
	case VT_ANDAND: *level = 2; return -1;
	case VT_PIPE: *level = 3; return VI_BITOR;
	case VT_CARET: *level = 4; return VI_BITXOR;
	case VT_AMP: *level = 5; return VI_BITAND;
	case VT_EQ: *level = 6; return VI_EQ;
	case VT_NE: *level = 6; return VI_NE;
	case VT_LT: *level = 7; return VI_LT;
	case VT_GT: *level = 7; return VI_GT;
	case VT_LE: *level = 7; return VI_LE;
	case VT_GE: *level = 7; return VI_GE;
	case VT_SHL: *level = 8; return VI_SHL;
	case VT_SHR: *level = 8; return VI_SHR;
	case VT_PLUS: *level = 9; return VI_ADD;
	case VT_MINUS: *level = 9; return VI_SUB;
	case VT_STAR: *level = 10; return VI_MUL;
	case VT_SLASH: *level = 10; return VI_DIV;
	case VT_PCT: *level = 10; return VI_MOD;
	default: *level = 0; return -1;
	}
}

static void vm_binary(vmc *v, int min)
{
	if (min > 10) {
		vm_unary(v);
		return;
	}
	vm_binary(v, min + 1);
	for (;;) {
		size_t len;
		int64_t num;
		int ref, level;
		vtok t = vm_peek(v, &len, &num, &ref);
		if (v->fail)
			return;
		int op = vm_binop(t, &level);
		if (level != min)
			return;
		v->pos += len;
		if (t == VT_ANDAND || t == VT_OROR) {
			size_t j = vm_emit(v, t == VT_ANDAND ? VI_SCAND : VI_SCOR, 0, 0, -1);
			vm_binary(v, min + 1);
			vm_emit(v, VI_BOOL, 0, 0, 0);
			vm_patch(v, j);
		} else {
			vm_binary(v, min + 1);
			vm_emit(v, op, 0, 0, -1);
		}
	}
}

static void vm_cond(vmc *v)
{
	size_t len;
	int64_t num;
	int ref;
	if (++v->nest > 200)
		v->fail = true;
	vm_binary(v, 1);
	if (!v->fail && vm_peek(v, &len, &num, &ref) == VT_Q) {
		v->pos += len;
		size_t jz = vm_emit(v, VI_JZ, 0, 0, -1);
		vm_cond(v);
		size_t jmp = vm_emit(v, VI_JMP, 0, 0, -1);
		if (vm_peek(v, &len, &num, &ref) != VT_COLON)
			v->fail = true;
		v->pos += len;
		vm_patch(v, jz);
		vm_cond(v);
		vm_patch(v, jmp);
	}
	v->nest--;
}

typedef struct probe_ctx {
	const char **names;
	const int64_t *vals;
	size_t n;
} probe_ctx;

static bool probe_lookup(void *ctx, const char *name, unsigned depth, int64_t *value,
                         char *err, size_t errlen)
{
	(void)depth;
	(void)err;
	(void)errlen;
	const probe_ctx *p = ctx;
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->names[i], name)) {
			*value = p->vals[i];
			return true;
		}
	*value = 0;
	return true;
}

static uint64_t probe_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The program for e (refs named names[0..n), in that order) in *arena,
 * or NULL (pool: vectors to reuse, or NULL). */
static const cins *vm_compile(codec_arena **arena, vec_pool *pool, const spec_expr *e,
                              const char **names, size_t n)
{
	const char *text = spec_expr_text(e);
	if (!text || n > 64)
		return NULL;
	vmc v = {.s = text, .names = names, .nnames = n};
	v.code = vec_take(pool, sizeof(cins));
	vm_cond(&v);
	size_t len;
	int64_t num;
	int ref;
	if (!v.fail && vm_peek(&v, &len, &num, &ref) != VT_END)
		v.fail = true;
	vm_emit(&v, VI_END, 0, 0, 0);
	if (v.fail || v.maxdepth > CODEC_VM_STACK || v.depth != 1) {
		vec_give(pool, &v.code);
		return NULL;
	}
	bool ok = true;
	const cins *prog = vec_freeze(arena, pool, &v.code, &ok);
	if (!ok)
		return NULL;
	/* probe: the program must agree with spec_expr_eval */
	static const int64_t special[] = {0, 1, 2, -1, 3, 61, 62, 63, 64, 7, 0xff, INT64_MIN, INT64_MAX};
	static const int64_t gens[] = {0, 300, 400, 500, 600, 700, 5, 6, 7};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int64_t vals[64];
	for (int round = 0; round < 256; round++) {
		for (size_t i = 0; i < n; i++) {
			uint64_t r = probe_rand(&seed);
			switch (r % 4) {
			case 0: vals[i] = special[(r >> 8) % (sizeof special / sizeof *special)]; break;
			case 1: vals[i] = (int64_t)((r >> 8) % 16); break;
			case 2: vals[i] = (int64_t)((r >> 8) % 1024); break;
			default: vals[i] = (int64_t)probe_rand(&seed); break;
			}
		}
		int64_t gpu = gens[round % (int)(sizeof gens / sizeof *gens)];
		probe_ctx pc = {names, vals, n};
		spec_eval_env env = {probe_lookup, &pc, gpu, 0};
		int64_t a = 0, b = 0;
		char err[160];
		bool ra = spec_expr_eval(e, &env, &a, err, sizeof err);
		bool rb = codec_vm_run(prog, vals, gpu, &b);
		if (ra != rb || (ra && a != b))
			return NULL;
	}
	return prog;
}

static const cins *compile_prog(builder *B, const spec_expr *e, const char **names, size_t n)
{
	return vm_compile(&B->c->arena, &B->pool, e, names, n);
}

const cins *codec_vm_compile(codec *c, const spec_expr *e, const char **names, size_t n)
{
	return vm_compile(&c->arena, NULL, e, names, n);
}

/* ------------------------------------------------------------ encoder */

static size_t field_slot(const codec *c, const spec_field *f)
{
	size_t h = codec_hash_ptr(f) & c->enc_fmask;
	while (c->enc_fkeys[h] && c->enc_fkeys[h] != f)
		h = (h + 1) & c->enc_fmask;
	return h;
}

uint32_t codec_field_name_id(const codec *c, const spec_field *f)
{
	if (!c->enc_fkeys || !f)
		return UINT32_MAX;
	size_t h = field_slot(c, f);
	return c->enc_fkeys[h] ? c->enc_fids[h] : UINT32_MAX;
}

const uint32_t *codec_field_param_ids(const codec *c, const spec_field *f)
{
	if (!c->enc_fkeys || !f)
		return NULL;
	size_t h = field_slot(c, f);
	return c->enc_fkeys[h] ? c->enc_fparams[h] : NULL;
}

static void expr_ref_names(builder *B, const spec_expr *e, vec *ids);
static size_t sort_names_text(uint32_t *v, size_t n, const char **names);

/* The bits of case k's <field>s into ce (false: out of memory). */
static bool case_field_bits(builder *B, const spec_case *k, cenc_case *ce)
{
	unsigned top = 0;
	for (size_t fi = 0; fi < k->nfields; fi++)
		if (k->fields[fi].kind == SPEC_FIELD && k->fields[fi].high / 64 + 1 > top)
			top = k->fields[fi].high / 64 + 1;
	uint64_t *bits = top ? arena_alloc(&B->c->arena, top * sizeof *bits) : NULL;
	if (top && !bits) {
		B->ok = false;
		return false;
	}
	uint32_t na = 0;
	for (size_t fi = 0; fi < k->nfields; fi++) {
		const spec_field *f = &k->fields[fi];
		na += f->kind == SPEC_ASSERT;
		for (unsigned b = f->low; f->kind == SPEC_FIELD && b <= f->high; b++)
			bits[b / 64] |= (uint64_t)1 << (b % 64);
	}
	const spec_field **asserts = na ? arena_alloc(&B->c->arena, na * sizeof *asserts) : NULL;
	if (na && !asserts) {
		B->ok = false;
		return false;
	}
	na = 0;
	for (size_t fi = 0; fi < k->nfields; fi++)
		if (k->fields[fi].kind == SPEC_ASSERT)
			asserts[na++] = &k->fields[fi];
	ce->nfw = top;
	ce->fields = bits;
	ce->nasserts = na;
	ce->asserts = asserts;
	return true;
}

/* What the encoder needs to choose cases without comparing names: every
 * field's name id, and every override's program over its references'
 * ids (as a leaf's expressions are compiled, in the same order, sharing
 * the programs through B->xm). */
static void build_encoder(builder *B)
{
	codec *c = B->c;
	const spec_model *m = c->m;
	size_t nf = 0;
	for (size_t i = 0; i < m->nbitsets; i++)
		for (size_t ci = 0; ci < m->bitsets[i]->ncases; ci++)
			nf += m->bitsets[i]->cases[ci].nfields;
	size_t cap = 16;
	while (cap < 2 * nf + 2)
		cap *= 2;
	c->enc_fmask = cap - 1;
	c->enc_fkeys = arena_alloc(&c->arena, cap * sizeof *c->enc_fkeys);
	c->enc_fids = arena_alloc(&c->arena, cap * sizeof *c->enc_fids);
	c->enc_fparams = arena_alloc(&c->arena, cap * sizeof *c->enc_fparams);
	const cenc_case **enc = arena_alloc(&c->arena, (m->nbitsets + 1) * sizeof *enc);
	vec ids = vec_take(&B->pool, sizeof(uint32_t));
	if (!c->enc_fkeys || !c->enc_fids || !c->enc_fparams || !enc)
		B->ok = false;
	for (size_t i = 0; B->ok && i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		cenc_case *cases = arena_alloc(&c->arena, (b->ncases + 1) * sizeof *cases);
		if (!cases) {
			B->ok = false;
			break;
		}
		enc[i] = cases;
		for (size_t ci = 0; B->ok && ci < b->ncases; ci++) {
			const spec_case *k = &b->cases[ci];
			for (size_t fi = 0; fi < k->nfields; fi++) {
				const spec_field *f = &k->fields[fi];
				const cfield *cf = get_field(B, f);
				uint32_t *pids = f->nparams
				                 ? arena_alloc(&c->arena, 2 * f->nparams * sizeof *pids) : NULL;
				if (!cf || (f->nparams && !pids)) {
					B->ok = false;
					break;
				}
				for (size_t pi = 0; pi < f->nparams; pi++) {
					const spec_param *pa = &f->params[pi];
					pids[2 * pi] = intern_z(B, pa->as ? pa->as : pa->name);
					pids[2 * pi + 1] = intern_z(B, pa->name);
				}
				size_t h = field_slot(c, f);
				c->enc_fkeys[h] = f;
				c->enc_fids[h] = cf->name;
				c->enc_fparams[h] = pids;
			}
			if (!case_field_bits(B, k, &cases[ci]) || !k->expr)
				continue;
			ids.n = 0;
			expr_ref_names(B, k->expr, &ids);
			size_t n = ids.n ? sort_names_text(ids.v, ids.n, (const char **)B->names.v) : 0;
			uint32_t *refs = arena_alloc(&c->arena, (n + 1) * sizeof *refs);
			void **slot = pmap_slot(B, &B->xm, &B->xmcap, &B->xmn, k->expr);
			if (!refs || !slot) {
				B->ok = false;
				break;
			}
			memcpy(refs, ids.v, n * sizeof *refs);
			if (!*slot) {
				const char *nms[64];
				for (size_t j = 0; j < n && j < 64; j++)
					nms[j] = ((const char **)B->names.v)[refs[j]];
				const cins *prog = n <= 64 ? compile_prog(B, k->expr, nms, n) : NULL;
				*slot = (void *)(prog ? prog : no_prog);
			}
			cases[ci].prog = *slot == (void *)no_prog ? NULL : *slot;
			cases[ci].refs = refs;
			cases[ci].nrefs = (uint32_t)n;
		}
	}
	vec_give(&B->pool, &ids);
	c->enc = B->ok ? enc : NULL;
}

/* ------------------------------------------------------------ leaves */

/* The case is the bitset's default (its own definitions), always last. */
static bool case_is_default(const spec_bitset *b, size_t ci)
{
	return ci + 1 == b->ncases && !b->cases[ci].expr;
}

/* Whether a case takes part at all: the default, or an override whose
 * expression loaded (a broken one can never be true). */
static bool case_usable(const spec_bitset *b, size_t ci)
{
	return case_is_default(b, ci) || b->cases[ci].expr != NULL;
}

typedef struct leaf_build {
	builder *B;
	const spec_bitset *chain[256];
	size_t nchain;
	vec exprs;  /* const spec_expr * */
	vec names;  /* uint32_t */
} leaf_build;

static int local_expr(leaf_build *L, const spec_expr *e)
{
	const spec_expr **v = L->exprs.v;
	for (size_t i = 0; i < L->exprs.n; i++)
		if (v[i] == e)
			return (int)i;
	const spec_expr **slot = vec_add(&L->exprs);
	if (!slot) {
		L->B->ok = false;
		return -1;
	}
	*slot = e;
	return (int)L->exprs.n - 1;
}

static void add_name(leaf_build *L, uint32_t id)
{
	uint32_t *slot = vec_add(&L->names);
	if (!slot)
		L->B->ok = false;
	else
		*slot = id;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int codec_lookup_find(const cleaf *lf, uint32_t name)
{
	size_t lo = 0, hi = lf->nlk;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (lf->lk[mid].name < name)
			lo = mid + 1;
		else if (lf->lk[mid].name > name)
			hi = mid;
		else
			return (int)mid;
	}
	return -1;
}

/* Parses the {...} of a display (Mesa's display_field) into an op. */
static void parse_field_ref(builder *B, const char *inner, size_t n, cop *op)
{
	char tmp[512];
	size_t tn = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
	memcpy(tmp, inner, tn);
	tmp[tn] = '\0';
	const char *align = strstr(tmp, ":align=");
	size_t name_len = align ? (size_t)(align - tmp) : n;
	op->align = 0;
	if (align) {
		/* atoi, clamped */
		const char *v = strchr(align, '=') + 1;
		while (isspace((unsigned char)*v))
			v++;
		bool neg = *v == '-';
		if (*v == '-' || *v == '+')
			v++;
		long a = 0;
		while (isdigit((unsigned char)*v) && a <= CODEC_MAX_ALIGN)
			a = a * 10 + (*v++ - '0');
		if (a > CODEC_MAX_ALIGN)
			a = CODEC_MAX_ALIGN;
		op->align = neg ? 0 : (int)a;
	}
	op->text = inner;
	op->len = (uint32_t)name_len;
	if (align == tmp) {
		op->kind = COP_ALIGN;
	} else if (name_len <= 4 && !strncmp("NAME", inner, name_len)) {
		/* Mesa's test is !strncmp("NAME", field_name, len): {N}, {NA},
		 * {NAM} and {} print the name too. */
		op->kind = COP_NAME;
	} else {
		op->kind = COP_FIELD;
		op->name = intern(B, inner, name_len);
	}
}

/* Splits a display into ops (field ops' look-up indices come later). */
static void parse_display(builder *B, const char *d, vec *ops)
{
	const char *lit = d, *p = d;
	while (*p) {
		if (*p != '{') {
			p++;
			continue;
		}
		if (p > lit) {
			cop *op = vec_add(ops);
			if (!op) {
				B->ok = false;
				return;
			}
			*op = (cop){.kind = COP_LIT, .text = lit, .len = (uint32_t)(p - lit), .lk = -1};
		}
		const char *e = p + 1;
		while (*e && *e != '}')
			e++;
		cop *op = vec_add(ops);
		if (!op) {
			B->ok = false;
			return;
		}
		op->lk = -1;
		parse_field_ref(B, p + 1, (size_t)(e - p - 1), op);
		if (!*e)
			return; /* unterminated: Mesa reads past the end; we stop */
		p = lit = e + 1;
	}
	if (p > lit) {
		cop *op = vec_add(ops);
		if (!op) {
			B->ok = false;
			return;
		}
		*op = (cop){.kind = COP_LIT, .text = lit, .len = (uint32_t)(p - lit), .lk = -1};
	}
}

/* The {FIELD} names of an expression, as Mesa's isa.py finds them: the
 * regex {([a-zA-Z0-9_]+)} over the text (comments included), sorted;
 * plus any reference the parser found that the regex does not. */
static void expr_ref_names(builder *B, const spec_expr *e, vec *ids)
{
	const char *t = spec_expr_text(e);
	for (const char *p = t ? t : ""; *p; p++) {
		if (*p != '{')
			continue;
		const char *q = p + 1;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (*q == '}' && q > p + 1) {
			uint32_t *slot = vec_add(ids);
			if (!slot) {
				B->ok = false;
				return;
			}
			*slot = intern(B, p + 1, (size_t)(q - p - 1));
		}
	}
	for (size_t i = 0; i < spec_expr_ref_count(e); i++) {
		uint32_t *slot = vec_add(ids);
		if (!slot) {
			B->ok = false;
			return;
		}
		*slot = intern_z(B, spec_expr_ref(e, i));
	}
}

static int cmp_name_text(const void *a, const void *b, const char **names)
{
	return strcmp(names[*(const uint32_t *)a], names[*(const uint32_t *)b]);
}

/* insertion sort by name text, then unique */
static size_t sort_names_text(uint32_t *v, size_t n, const char **names)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;
		while (j > 0 && cmp_name_text(&v[j - 1], &x, names) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* ---------------------------------------------------------- purity */

/* Whether a program can never fail: every division, modulo and shift
 * has a constant right operand that is valid, reached by no jump. */
static bool prog_error_free(const cins *p0)
{
	size_t n = 0;
	while (p0[n].op != VI_END)
		n++;
	for (size_t i = 0; i < n; i++) {
		int op = p0[i].op;
		if (op != VI_DIV && op != VI_MOD && op != VI_SHL && op != VI_SHR)
			continue;
		if (i == 0 || p0[i - 1].op != VI_CONST)
			return false;
		int64_t k = p0[i - 1].imm;
		if ((op == VI_DIV || op == VI_MOD) && (k == 0 || k == -1))
			return false;
		if ((op == VI_SHL || op == VI_SHR) && (k < 0 || k > 63))
			return false;
		for (size_t j = 0; j < n; j++)
			if ((p0[j].op == VI_SCAND || p0[j].op == VI_SCOR || p0[j].op == VI_JZ ||
			     p0[j].op == VI_JMP) && (size_t)p0[j].arg == i)
				return false;
	}
	return true;
}

/* The step a look-up always ends at, when that does not depend on any
 * override's value: overrides before it that define nothing of that
 * name and are pure are skipped (evaluating them or not cannot be
 * observed); `assume` is the expression being evaluated, whose override
 * counts as true.  -1: it depends; -2: no case defines it and every
 * override on the way can be skipped: it goes to the params.  A derived
 * field counts only when its expression is pure, unless any_derived. */
static int static_step(const cleaf *lf, const cstep *steps, int lk, int assume,
                       const bool *pure, bool any_derived)
{
	uint32_t j0, n;
	cx_lookup_steps(lf, lk, &j0, &n);
	for (uint32_t j = j0; j < j0 + n; j++) {
		const cstep *st = &steps[j];
		if (st->cex >= 0) {
			if (st->cex == assume) {
				if (st->field)
					return (int)j;
				continue;
			}
			if (st->field || !pure[st->cex])
				return -1;
			continue;
		}
		if (!st->field)
			return -1;
		if (st->field->f->kind == SPEC_DERIVED && !any_derived &&
		    (st->fex < 0 || !pure[st->fex]))
			return -1;
		return (int)j;
	}
	return -2;
}

typedef struct tab_ent {
	const spec_expr *e;
	unsigned widths[16];
	size_t n;
	const uint64_t *tab;
} tab_ent;

/* The table of a pure expression over plain-field references and (with
 * params) bound params, or NULL (too wide, uses the generation, or fails
 * for some input).  A param's values past CODEC_TAB_PARAM_BITS are not
 * in it: only an expression that cannot fail may have one (its program
 * computes those), not one that a table is to make pure. */
static const uint64_t *build_table(builder *B, vec *tabs, const cexpr *ce, cref *refs,
                                   const cstep *steps, int v, bool params)
{
	if (ce->nrefs > 16 || spec_expr_uses_gpu_id(ce->e))
		return NULL;
	unsigned widths[16], lows[16], total = 0;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		const cref *r = &refs[ce->ref0 + i];
		lows[i] = 0;
		if (r->sstep[v] == -2 && params && v == 1 && ce->prog) {
			widths[i] = CODEC_TAB_PARAM_BITS;
		} else if (r->sstep[v] < 0) {
			return NULL;
		} else {
			const cfield *f = steps[r->sstep[v]].field;
			if (f->f->kind == SPEC_DERIVED || f->width > CODEC_TAB_BITS)
				return NULL;
			widths[i] = f->width;
			lows[i] = f->f->low;
		}
		total += widths[i];
	}
	if (total > CODEC_TAB_BITS)
		return NULL;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		refs[ce->ref0 + i].tbits[v] = (uint8_t)widths[i];
		refs[ce->ref0 + i].tlow[v] = (uint16_t)lows[i];
	}
	for (size_t i = 0; i < tabs->n; i++) {
		tab_ent *t = &((tab_ent *)tabs->v)[i];
		if (t->e == ce->e && t->n == ce->nrefs &&
		    !memcmp(t->widths, widths, ce->nrefs * sizeof *widths))
			return t->tab;
	}
	uint64_t *tab = arena_alloc(&B->c->arena, ((size_t)1 << total) * sizeof *tab);
	if (!tab) {
		B->ok = false;
		return NULL;
	}
	const char *names[16];
	for (uint32_t i = 0; i < ce->nrefs; i++)
		names[i] = refs[ce->ref0 + i].text;
	for (size_t idx = 0; idx < ((size_t)1 << total); idx++) {
		int64_t vals[16];
		unsigned sh = 0;
		for (uint32_t i = 0; i < ce->nrefs; i++) {
			vals[i] = (int64_t)((idx >> sh) & (((uint64_t)1 << widths[i]) - 1));
			sh += widths[i];
		}
		int64_t r = 0;
		bool ok;
		if (ce->prog) {
			ok = codec_vm_run(ce->prog, vals, 0, &r);
		} else {
			probe_ctx pc = {names, vals, ce->nrefs};
			spec_eval_env env = {probe_lookup, &pc, 0, 0};
			char err[160];
			ok = spec_expr_eval(ce->e, &env, &r, err, sizeof err);
		}
		if (!ok)
			return NULL;
		tab[idx] = (uint64_t)r;
	}
	tab_ent *t = vec_add(tabs);
	if (t) {
		t->e = ce->e;
		memcpy(t->widths, widths, ce->nrefs * sizeof *widths);
		t->n = ce->nrefs;
		t->tab = tab;
	}
	return tab;
}

/* Depth-first search over "k reads a derived field with expression j"
 * among pure expressions: true when k is on a circle (1: on the path). */
static bool derived_cycle(const cexpr *ex, const cref *refs, const cstep *steps,
                          const bool *pure, uint8_t *color, int k, int v, unsigned depth)
{
	if (color[k] == 1)
		return true;
	if (color[k] == 2 || depth > 256)
		return depth > 256;
	color[k] = 1;
	for (uint32_t i = 0; i < ex[k].nrefs; i++) {
		int st = refs[ex[k].ref0 + i].sstep[v];
		if (st < 0 || steps[st].field->f->kind != SPEC_DERIVED || steps[st].fex < 0)
			continue;
		int j = steps[st].fex;
		if (pure[j] && derived_cycle(ex, refs, steps, pure, color, j, v, depth + 1))
			return true;
	}
	color[k] = 2;
	return false;
}

/* Finds the pure expressions of a leaf, their tables, and the look-ups
 * that always end at one field, for variant v (see cleaf.pnames).  An
 * expression is pure when every reference resolves, whatever the
 * overrides' values and whatever else is being evaluated, to one field
 * (or, in variant 1, to a bound param), the overrides on the way
 * defining no field of that name and being pure themselves, and when it
 * cannot fail (a checked program, or a table).  That is a greatest fixed
 * point: overrides that evaluate each other on the way stay pure, since
 * neither changes what the other sees.  A derived field may be
 * referenced when its expression is pure, as long as no such references
 * go round in a circle: so a pure evaluation never recurses into itself
 * and Mesa's re-entrancy rule never applies to it. */
static void analyse_purity(builder *B, vec *tabs, cleaf *lf, const cstep *steps, clookup *lk,
                           cexpr *ex, cref *refs, int v, vec *pnames)
{
	size_t nex = lf->nex;
	bool *pure = calloc(nex + 1, sizeof *pure);
	uint8_t *color = calloc(nex + 1, sizeof *color);
	bool *safe = calloc(nex + 1, sizeof *safe);
	if (!pure || !color || !safe) {
		free(pure);
		free(color);
		free(safe);
		B->ok = false;
		return;
	}
	for (size_t k = 0; k < nex; k++)
		safe[k] = ex[k].prog && prog_error_free(ex[k].prog);
	for (size_t k = 0; k < nex; k++)
		pure[k] = true;
	for (bool again = true; again;) {
		again = false;
		for (bool changed = true; changed;) {
			changed = false;
			for (size_t k = 0; k < nex; k++) {
				if (!pure[k])
					continue;
				cexpr *ce = &ex[k];
				bool ok = true;
				for (uint32_t i = 0; i < ce->nrefs && ok; i++) {
					cref *r = &refs[ce->ref0 + i];
					int st = static_step(lf, steps, r->lk, (int)k, pure, true);
					r->sstep[v] = st;
					if (st >= 0 && steps[st].field->f->kind == SPEC_DERIVED)
						ok = steps[st].fex >= 0 && steps[st].fex != (int)k &&
						     pure[steps[st].fex];
					else
						ok = st >= 0 || (st == -2 && v == 1);
				}
				if (ok && !safe[k]) {
					ce->tab[v] = build_table(B, tabs, ce, refs, steps, v, false);
					ok = ce->tab[v] != NULL;
				}
				if (!ok) {
					pure[k] = false;
					changed = true;
				}
			}
		}
		/* derived references must not go round in a circle: those on
		 * one are not pure (Mesa's re-entrancy rule would apply) */
		for (size_t k = 0; k < nex; k++)
			color[k] = 0;
		for (size_t k = 0; k < nex; k++)
			if (pure[k] && !color[k] && derived_cycle(ex, refs, steps, pure, color, (int)k, v, 0)) {
				pure[k] = false;
				again = true;
			}
	}
	for (size_t k = 0; k < nex; k++) {
		ex[k].pure[v] = pure[k];
		ex[k].tab[v] = NULL;
		for (uint32_t i = 0; i < ex[k].nrefs; i++) {
			cref *r = &refs[ex[k].ref0 + i];
			int st = static_step(lf, steps, r->lk, (int)k, pure, true);
			r->param[v] = false;
			if (pure[k]) {
				r->sstep[v] = st;
				if (st == -2) {
					/* a bound param: its slot */
					uint32_t *pn = pnames->v;
					size_t j = 0;
					while (j < pnames->n && pn[j] != r->name)
						j++;
					if (j == pnames->n) {
						uint32_t *slot = vec_add(pnames);
						if (!slot) {
							B->ok = false;
							break;
						}
						*slot = r->name;
					}
					r->pslot = (int)j;
				}
			} else {
				/* how its references resolve while it is evaluated */
				r->sstep[v] = st >= 0 ? st : -1;
				r->param[v] = st == -2;
			}
		}
		if (pure[k])
			ex[k].tab[v] = build_table(B, tabs, &ex[k], refs, steps, v, true);
	}
	lf->none_param[v] = static_step(lf, steps, -1, -1, pure, true) == -2;
	for (size_t i = 0; i < lf->nlk; i++) {
		int st = static_step(lf, steps, (int)i, -1, pure, true);
		lk[i].direct[v] = st >= 0 ? st : -1;
		lk[i].param[v] = st == -2;
	}
	free(pure);
	free(color);
	free(safe);
}

/* Whether a look-up of name can end in the params: no case defines it,
 * or every case that does is an override that may not hold. */
static bool falls_to_params(const cleaf *lf, const cstep *steps, uint32_t name)
{
	int lk = codec_lookup_find(lf, name);
	if (lk < 0)
		return true;
	for (uint32_t j = lf->lk[lk].step0; j < lf->lk[lk].step0 + lf->lk[lk].nsteps; j++)
		if (steps[j].cex < 0 && steps[j].field)
			return false;
	return true;
}

/* Adds name to the params bound when they can be (cleaf.pnames) if a
 * look-up of it can end in the params, there is room, and it is not
 * there yet. */
static void pname_maybe(const cleaf *lf, const cstep *steps, vec *pn, uint32_t name)
{
	if (pn->n >= CODEC_MAX_PNAMES || !falls_to_params(lf, steps, name))
		return;
	for (size_t j = 0; j < pn->n; j++)
		if (((uint32_t *)pn->v)[j] == name)
			return;
	uint32_t *slot = vec_add(pn);
	if (slot)
		*slot = name;
}

/* Whether decoding f must look its value up: an enum with a value of
 * its width that has no name (the decoder then says so). */
static bool enum_has_gaps(const cfield *cf)
{
	if (cf->type != SPEC_TYPE_ENUM || !cf->en)
		return false;
	if (cf->width > 8)
		return true;
	for (uint64_t v = 0; v < ((uint64_t)1 << cf->width); v++)
		if (!cf->en->dense[v])
			return true;
	return false;
}

static const cleaf *compile_leaf(builder *B, const spec_bitset *leaf)
{
	codec_arena **A = &B->c->arena;
	leaf_build L = {.B = B};
	L.exprs = vec_take(&B->pool, sizeof(const spec_expr *));
	L.names = vec_take(&B->pool, sizeof(uint32_t));
	for (const spec_bitset *b = leaf; b && L.nchain < 256; b = b->parent)
		L.chain[L.nchain++] = b;

	cleaf *lf = arena_alloc(A, sizeof *lf);
	if (!lf) {
		vec_give(&B->pool, &L.exprs);
		vec_give(&B->pool, &L.names);
		B->ok = false;
		return NULL;
	}
	lf->b = leaf;
	lf->name = spec_display_name(leaf);
	lf->namelen = strlen(lf->name);
	lf->namenl = -1;
	for (size_t i = 0; i < lf->namelen; i++)
		if (lf->name[i] == '\n')
			lf->namenl = (int)i + 1;

	/* 1. local expressions, names, display ops (unresolved) */
	vec ops = vec_take(&B->pool, sizeof(cop));
	vec ds = vec_take(&B->pool, sizeof(cdstep));
	vec asserts = vec_take(&B->pool, sizeof(const cfield *));
	vec vs = vec_take(&B->pool, sizeof(cvstep));
	uint32_t case_id = 0;
	for (size_t l = 0; l < L.nchain; l++) {
		const spec_bitset *b = L.chain[l];
		for (size_t ci = 0; ci < b->ncases; ci++) {
			const spec_case *c = &b->cases[ci];
			if (!case_usable(b, ci))
				continue;
			int cex = c->expr ? local_expr(&L, c->expr) : -1;
			cdstep *d = vec_add(&ds);
			if (!d) {
				B->ok = false;
				break;
			}
			d->owner = b;
			d->kase = c;
			d->cex = cex;
			d->assert0 = (uint32_t)asserts.n;
			d->op0 = -1;
			case_id++;
			for (size_t fi = 0; fi < c->nfields; fi++) {
				const spec_field *f = &c->fields[fi];
				const cfield *cf = get_field(B, f);
				if (!cf)
					continue;
				add_name(&L, cf->name);
				int fex = f->kind == SPEC_DERIVED && f->expr ? local_expr(&L, f->expr) : -1;
				if (f->kind == SPEC_ASSERT) {
					const cfield **slot = vec_add(&asserts);
					if (slot)
						*slot = cf;
					else
						B->ok = false;
					continue;
				}
				cvstep *v = vec_add(&vs);
				if (!v) {
					B->ok = false;
					continue;
				}
				*v = (cvstep){.field = cf, .f = f, .owner = b, .kase = c, .cex = cex,
				              .fex = fex, .case_id = case_id, .prev_same = -1,
				              .low = (uint16_t)f->low, .high = (uint16_t)f->high,
				              .width = (uint16_t)cf->width,
				              .type = (uint8_t)cf->type, .derived = f->kind == SPEC_DERIVED,
				              .check_enum = enum_has_gaps(cf)};
				for (size_t j = vs.n - 1; j-- > 0;)
					if (((cvstep *)vs.v)[j].field->name == cf->name) {
						v->prev_same = (int)j;
						break;
					}
				for (size_t pi = 0; pi < cf->nparams; pi++)
					add_name(&L, cf->params[pi].name);
			}
			d = &((cdstep *)ds.v)[ds.n - 1];
			d->nasserts = (uint32_t)asserts.n - d->assert0;
			if (c->display) {
				d->op0 = (int)ops.n;
				parse_display(B, c->display, &ops);
				d = &((cdstep *)ds.v)[ds.n - 1];
				d->nops = (uint32_t)ops.n - (uint32_t)d->op0;
			}
		}
	}
	for (size_t i = 0; i < ops.n; i++) {
		const cop *op = &((cop *)ops.v)[i];
		if (op->kind == COP_FIELD)
			add_name(&L, op->name);
	}
	/* expression references (and their expressions' own names) */
	vec refnames = vec_take(&B->pool, sizeof(uint32_t));
	vec exrefs = vec_take(&B->pool, sizeof(uint32_t) * 2); /* per expr: start, count in refnames */
	for (size_t i = 0; i < L.exprs.n; i++) {
		size_t start = refnames.n;
		expr_ref_names(B, ((const spec_expr **)L.exprs.v)[i], &refnames);
		size_t k = refnames.n > start
		           ? sort_names_text((uint32_t *)refnames.v + start, refnames.n - start,
		                             (const char **)B->names.v)
		           : 0;
		refnames.n = start + k;
		uint32_t *se = vec_add(&exrefs);
		if (!se) {
			B->ok = false;
			break;
		}
		se[0] = (uint32_t)start;
		se[1] = (uint32_t)k;
		for (size_t j = 0; j < k; j++)
			add_name(&L, ((uint32_t *)refnames.v)[start + j]);
	}

	/* 2. the look-up table */
	uint32_t *nm = L.names.v;
	size_t nn = L.names.n;
	if (nn)
		qsort(nm, nn, sizeof *nm, cmp_u32);
	size_t k = 0;
	for (size_t i = 0; i < nn; i++)
		if (!k || nm[k - 1] != nm[i])
			nm[k++] = nm[i];
	nn = k;
	/* lk, ex, refs and each step's plk are written until the end, then
	 * shared (share_bytes) */
	clookup *lk = share_room(B, nn + 1, sizeof *lk);
	vec steps = vec_take(&B->pool, sizeof(cstep));
	if (!lk)
		B->ok = false;
	for (size_t i = 0; lk && i < nn; i++) {
		lk[i].name = nm[i];
		lk[i].step0 = (uint32_t)steps.n;
		bool done = false;
		for (size_t l = 0; l < L.nchain && !done; l++) {
			const spec_bitset *b = L.chain[l];
			for (size_t ci = 0; ci < b->ncases && !done; ci++) {
				const spec_case *c = &b->cases[ci];
				if (!case_usable(b, ci))
					continue;
				const spec_field *hit = NULL;
				for (size_t fi = 0; fi < c->nfields && !hit; fi++) {
					const cfield *cf = get_field(B, &c->fields[fi]);
					if (cf && cf->name == nm[i])
						hit = &c->fields[fi];
				}
				if (!c->expr && !hit)
					continue;
				cstep *s = vec_add(&steps);
				if (!s) {
					B->ok = false;
					done = true;
					break;
				}
				s->owner = b;
				s->cex = c->expr ? local_expr(&L, c->expr) : -1;
				s->field = hit ? get_field(B, hit) : NULL;
				s->fex = hit && hit->kind == SPEC_DERIVED && hit->expr
				         ? local_expr(&L, hit->expr) : -1;
				if (!c->expr)
					done = true; /* a default case that defines it: found */
			}
		}
		lk[i].nsteps = (uint32_t)steps.n - lk[i].step0;
	}
	lf->lk = lk;
	lf->nlk = nn;
	/* a name no case defines: every override is still evaluated */
	lf->none0 = (uint32_t)steps.n;
	for (size_t l = 0; l < L.nchain; l++) {
		const spec_bitset *b = L.chain[l];
		for (size_t ci = 0; ci < b->ncases; ci++) {
			if (!b->cases[ci].expr)
				continue;
			cstep *s = vec_add(&steps);
			if (!s) {
				B->ok = false;
				break;
			}
			*s = (cstep){NULL, b, local_expr(&L, b->cases[ci].expr), -1, NULL};
		}
	}
	lf->nnone = (uint32_t)steps.n - lf->none0;
	vec_give(&B->pool, &L.names);

	/* 3. expressions and their references */
	lf->nex = L.exprs.n;
	cexpr *ex = share_room(B, L.exprs.n + 1, sizeof *ex);
	size_t nrefs = refnames.n;
	cref *refs = share_room(B, nrefs + 1, sizeof *refs);
	if (!ex || !refs)
		B->ok = false;
	for (size_t i = 0; ex && refs && i < L.exprs.n && i < exrefs.n; i++) {
		const spec_expr *e = ((const spec_expr **)L.exprs.v)[i];
		const uint32_t *se = (const uint32_t *)exrefs.v + 2 * i;
		ex[i] = (cexpr){.e = e, .ref0 = se[0], .nrefs = se[1]};
		for (uint32_t j = 0; j < se[1]; j++) {
			uint32_t id = ((uint32_t *)refnames.v)[se[0] + j];
			cref *r = &refs[se[0] + j];
			r->name = id;
			r->lk = codec_lookup_find(lf, id);
			r->text = ((const char **)B->names.v)[id];
			r->eref = NULL;
			for (size_t q = 0; q < spec_expr_ref_count(e); q++)
				if (!strcmp(spec_expr_ref(e, q), r->text))
					r->eref = spec_expr_ref(e, q);
		}
	}
	for (size_t i = 0; ex && refs && i < L.exprs.n && i < exrefs.n; i++) {
		for (uint32_t j = 0; j < ex[i].nrefs; j++) {
			cref *r = &refs[ex[i].ref0 + j];
			r->sstep[0] = r->sstep[1] = r->pslot = -1;
		}
		void **slot = pmap_slot(B, &B->xm, &B->xmcap, &B->xmn, ex[i].e);
		if (!slot)
			break;
		if (!*slot) {
			const char *nms[64];
			size_t nn2 = ex[i].nrefs < 64 ? ex[i].nrefs : 0;
			for (size_t j = 0; j < nn2; j++)
				nms[j] = refs[ex[i].ref0 + j].text;
			const cins *prog = ex[i].nrefs <= 64 && B->fast
			                   ? compile_prog(B, ex[i].e, nms, nn2) : NULL;
			*slot = (void *)(prog ? prog : no_prog);
		}
		ex[i].prog = *slot == (void *)no_prog ? NULL : *slot;
	}
	vec_give(&B->pool, &refnames);
	vec_give(&B->pool, &exrefs);
	vec_give(&B->pool, &L.exprs);
	lf->ex = ex;
	lf->refs = refs;
	for (size_t i = 0; lk && i < nn; i++) {
		lk[i].direct[0] = lk[i].direct[1] = -1;
		lk[i].nofield = true;
		for (uint32_t j = 0; j < lk[i].nsteps; j++)
			if (((cstep *)steps.v)[lk[i].step0 + j].field)
				lk[i].nofield = false;
	}
	/* bitset fields: where their params are looked up in this leaf */
	for (size_t j = 0; lk && j < steps.n; j++) {
		cstep *st = &((cstep *)steps.v)[j];
		if (!st->field || !st->field->nparams)
			continue;
		int *plk = share_room(B, st->field->nparams, sizeof *plk);
		for (size_t q = 0; plk && q < st->field->nparams; q++)
			plk[q] = codec_lookup_find(lf, st->field->params[q].name);
		st->plk = share_done(B, plk, st->field->nparams * sizeof *plk);
		if (!st->plk) {
			B->ok = false;
			break;
		}
	}
	for (size_t j = 0; ex && j < lf->nex; j++) {
		for (size_t q = lf->none0; q < lf->none0 + lf->nnone; q++)
			if (((cstep *)steps.v)[q].cex == (int)j)
				ex[j].is_case = true;
		ex[j].case_bit = ex[j].is_case && lf->nov < 64 ? (int)lf->nov : -1;
		lf->nov += ex[j].is_case;
	}
	if (ex && refs && lk && B->ok && B->fast) {
		vec pn0 = vec_take(&B->pool, sizeof(uint32_t)), pn1 = vec_take(&B->pool, sizeof(uint32_t));
		analyse_purity(B, &B->tabs, lf, steps.v, lk, ex, refs, 0, &pn0);
		analyse_purity(B, &B->tabs, lf, steps.v, lk, ex, refs, 1, &pn1);
		lf->npn = (unsigned)pn1.n;
		lf->v1 = pn1.n <= CODEC_MAX_PNAMES;
		/* Names the display may find only through the params come after
		 * the required ones: bound when they can be (cx_push), so a
		 * display plan reads them without walking the parents. */
		for (size_t i = 0; lf->v1 && i < ops.n; i++) {
			const cop *op = &((cop *)ops.v)[i];
			if (op->kind == COP_FIELD)
				pname_maybe(lf, steps.v, &pn1, op->name);
		}
		lf->nsb = lf->v1 ? (unsigned)pn1.n : 0;
		/* ... and so do the names its bitset fields pass on to their
		 * params from further up: bound here, they bind the nested
		 * scope's params too (fast.c; the interpretation does not bind
		 * them, it has no use for them). */
		for (size_t i = 0; lf->v1 && i < steps.n; i++) {
			const cfield *f = ((cstep *)steps.v)[i].field;
			for (size_t q = 0; f && f->type == SPEC_TYPE_BITSET && q < f->nparams; q++)
				pname_maybe(lf, steps.v, &pn1, f->params[q].name);
		}
		/* ... and the names the overrides that are not pure read from
		 * the params: fast.c evaluates those as find_display would,
		 * nested (its display_walk_nested), and reads them there */
		for (size_t e = 0; lf->v1 && e < lf->nex; e++)
			for (uint32_t i = 0; !ex[e].pure[1] && ex[e].is_case && i < ex[e].nrefs; i++)
				pname_maybe(lf, steps.v, &pn1, refs[ex[e].ref0 + i].name);
		lf->nbn = lf->v1 ? (unsigned)pn1.n : 0;
		lf->pnames = vec_share(B, &pn1);
		vec_give(&B->pool, &pn0);
	}
	if (!B->fast)
		lf->nov = UINT32_MAX; /* never "all evaluated": always walk */

	/* 4. field ops get their look-up entries */
	for (size_t i = 0; i < ops.n; i++) {
		cop *op = &((cop *)ops.v)[i];
		if (op->kind == COP_FIELD)
			op->lk = codec_lookup_find(lf, op->name);
		op->nl = -1;
		if (op->kind == COP_LIT)
			for (uint32_t j = 0; j < op->len; j++)
				if (op->text[j] == '\n')
					op->nl = (int)j + 1;
	}
	lf->steps = vec_share(B, &steps);
	lf->nds = ds.n;
	/* each leaf's own: a step of its own case names it as the owner */
	lf->ds = vec_freeze(A, &B->pool, &ds, &B->ok);
	lf->asserts = vec_share(B, &asserts);
	lf->ops = vec_share(B, &ops);
	lf->nvs = vs.n;
	lf->vs = vec_share(B, &vs);
	lf->lk = share_done(B, lk, (nn + 1) * sizeof *lk);
	lf->ex = share_done(B, ex, (lf->nex + 1) * sizeof *ex);
	lf->refs = share_done(B, refs, (nrefs + 1) * sizeof *refs);
	return lf;
}

/* ------------------------------------------------------------- memos */

/* Whether what root ri displays can depend only on its own bits: no leaf
 * under it (or under the roots of its bitset fields) has a generation
 * range, an alignment, an expression using the generation or a branch
 * field.  Also how many scopes and cache slots a rendering may take.
 * state per root: 0 unknown, 1 on the path, 2 yes, 3 no. */
static bool memo_ok(const codec *c, size_t ri, uint8_t *state, unsigned *depth,
                    unsigned *slots)
{
	if (state[ri] == 1 || state[ri] == 3)
		return false;
	if (state[ri] == 2)
		return true;
	state[ri] = 1;
	const spec_root *r = &c->m->roots[ri];
	bool ok = true;
	unsigned d = 1, sl = 0;
	for (size_t i = 0; ok && i < r->nleaves; i++) {
		const spec_bitset *b = r->leaves[i];
		const cleaf *lf = b->index < c->m->nbitsets ? c->leaf[b->index] : NULL;
		if (!lf || b->gen.min != 0 || b->gen.max != UINT32_MAX) {
			ok = false;
			break;
		}
		for (size_t k = 0; ok && k < lf->nds; k++)
			for (uint32_t j = 0; ok && lf->ds[k].op0 >= 0 && j < lf->ds[k].nops; j++) {
				const cop *op = &lf->ops[lf->ds[k].op0 + (int)j];
				ok = op->kind != COP_ALIGN && op->align <= 0;
			}
		for (size_t k = 0; ok && k < lf->nex; k++)
			ok = !spec_expr_uses_gpu_id(lf->ex[k].e);
		unsigned cd = 0, cs = 0;
		for (size_t k = 0; ok && k < lf->nvs; k++) {
			const cfield *f = lf->vs[k].field;
			if (f->type == SPEC_TYPE_BRANCH || f->type == SPEC_TYPE_ABSBRANCH)
				ok = false;
			else if (f->type == SPEC_TYPE_BITSET) {
				ok = memo_ok(c, f->root_index, state, depth, slots);
				if (ok) {
					cd = cd > depth[f->root_index] ? cd : depth[f->root_index];
					cs = cs > slots[f->root_index] ? cs : slots[f->root_index];
				}
			}
		}
		d = d > 1 + cd ? d : 1 + cd;
		sl = sl > (unsigned)lf->nex + cs ? sl : (unsigned)lf->nex + cs;
	}
	depth[ri] = d;
	slots[ri] = sl;
	state[ri] = ok ? 2 : 3;
	return ok;
}

static const cmemo *build_memo(codec *c, size_t ri, unsigned depth, unsigned slots, bool *okp)
{
	unsigned size = c->m->roots[ri].bitset->size;
	size_t n = (size_t)1 << size;
	cmemo *mm = arena_alloc(&c->arena, sizeof *mm);
	cmemo_ent *ent = arena_alloc(&c->arena, n * sizeof *ent);
	char (*errs)[CODEC_ERR_LEN] = malloc(CODEC_MAX_ERRORS * sizeof *errs);
	char *buf = malloc(4096);
	vec pool = {.size = 1}, ev = {.size = sizeof(cmemo_err)};
	bool ok = mm && ent && errs && buf;
	for (size_t v = 0; ok && v < n; v++) {
		size_t len;
		unsigned nerr = 0;
		if (!cx_render_alone(c, ri, v, buf, 4096, &len, errs, &nerr) || ev.n + nerr > 65535 ||
		    pool.n > UINT32_MAX / 2) {
			ent[v].noleaf = true;
			continue;
		}
		ent[v].text = (uint32_t)pool.n;
		ent[v].len = (uint32_t)len;
		ent[v].nl = memchr(buf, '\n', len) != NULL;
		ent[v].err0 = (uint16_t)ev.n;
		ent[v].nerr = (uint16_t)nerr;
		for (size_t i = 0; ok && i <= len; i++) {
			char *ch = vec_add(&pool);
			if (ch)
				*ch = buf[i];
			ok = ch != NULL;
		}
		for (unsigned e = 0; ok && e < nerr; e++) {
			cmemo_err *me = vec_add(&ev);
			ok = me != NULL;
			if (!ok)
				break;
			me->text = (uint32_t)pool.n;
			for (size_t i = 0; ok && i <= strlen(errs[e]); i++) {
				char *ch = vec_add(&pool);
				if (ch)
					*ch = errs[e][i];
				ok = ch != NULL;
			}
		}
	}
	/* room past the last text: the fast printer copies whole blocks */
	for (unsigned i = 0; ok && i < CODEC_TEXT_PAD; i++) {
		char *ch = vec_add(&pool);
		if (ch)
			*ch = '\0';
		ok = ch != NULL;
	}
	free(errs);
	free(buf);
	if (!ok) {
		free(pool.v);
		free(ev.v);
		*okp = false;
		return NULL;
	}
	mm->ent = ent;
	mm->pool = vec_freeze(&c->arena, NULL, &pool, okp);
	mm->errs = vec_freeze(&c->arena, NULL, &ev, okp);
	mm->depth = depth;
	mm->slots = slots;
	return mm;
}

/* ------------------------------------------------------------ the codec */

codec *codec_new(const spec_model *m, spec_diags *diags)
{
	return codec_new_opt(m, diags, true);
}

codec *codec_new_general(const spec_model *m, spec_diags *diags)
{
	return codec_new_opt(m, diags, false);
}

codec *codec_new_opt(const spec_model *m, spec_diags *diags, bool fast)
{
	return codec_new_tuned(m, diags, fast, CODEC_TABLE_BUDGET);
}

const spec_root *codec_model_default_root(const spec_model *m)
{
	if (!m || !m->nroots)
		return NULL;
	const spec_root *r = spec_find_root(m, "#instruction");
	if (!r) {
		r = &m->roots[0];
		for (size_t i = 1; i < m->nroots; i++)
			if (m->roots[i].bitset->size > r->bitset->size)
				r = &m->roots[i];
	}
	return r;
}

/* Which leaves of one root a codec is built for (the other roots' are
 * all built): codec_new_for_words. */
typedef struct codec_subset {
	size_t root_index;
	const uint8_t *want;  /* per bitset index */
	const uint8_t *roots; /* per root: its leaves can be met (others are not built) */
} codec_subset;

static codec *codec_build(const spec_model *m, spec_diags *diags, bool fast, size_t table_budget,
                          const codec_subset *sub);

codec *codec_new_tuned(const spec_model *m, spec_diags *diags, bool fast, size_t table_budget)
{
	return codec_build(m, diags, fast, table_budget, NULL);
}

/* The words a restricted codec scans every leaf for (at build, then at
 * each decode): above this many leaf tests the classifier is cheaper. */
#define CODEC_LINEAR_TESTS 4000000u

codec *codec_new_for_words(const spec_model *m, const spec_root *root, const uint32_t *words,
                           unsigned iw, size_t ninstr, uint32_t gen, spec_diags *diags)
{
	if (!m || !root || root < m->roots || root >= m->roots + m->nroots || !iw ||
	    iw > SPEC_MAX_BITS / 32 || (root->nleaves && ninstr > CODEC_LINEAR_TESTS / root->nleaves) ||
	    spec_is_field_type(m, root->bitset))
		return codec_new_general(m, diags);
	uint8_t *want = calloc(m->nbitsets ? m->nbitsets : 1, 1);
	if (!want)
		return codec_new_general(m, diags);
	for (size_t n = 0; n < ninstr; n++) {
		uint64_t w64[SPEC_MAX_BITS / 64] = {0};
		for (unsigned k = 0; k < iw; k++)
			w64[k / 2] |= (uint64_t)words[n * iw + k] << (32 * (k % 2));
		/* decoding looks at the first two matches (a third only makes
		 * the ambiguity the same); all are built */
		const spec_bitset *hit[64];
		size_t nh = classify_linear(root, w64, gen, hit, 64);
		for (size_t h = 0; h < nh && h < 64; h++)
			want[hit[h]->index] = 1;
	}
	/* the roots the decoding can reach from those leaves, through
	 * bitset-typed fields of any case of their chains, transitively */
	size_t ri = (size_t)(root - m->roots);
	uint8_t *roots = calloc(m->nroots, 1);
	if (!roots) {
		free(want);
		return codec_new_general(m, diags);
	}
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t r = 0; r < m->nroots; r++)
			for (size_t l = 0; l < m->roots[r].nleaves; l++) {
				const spec_bitset *lf = m->roots[r].leaves[l];
				if (r == ri ? !want[lf->index] : !roots[r])
					continue;
				for (const spec_bitset *b = lf; b; b = b->parent)
					for (size_t k = 0; k < b->ncases; k++)
						for (size_t f = 0; f < b->cases[k].nfields; f++) {
							const spec_field *fd = &b->cases[k].fields[f];
							if (fd->type != SPEC_TYPE_BITSET || !fd->bitset)
								continue;
							for (size_t t = 0; t < m->nroots; t++)
								if (m->roots[t].bitset == fd->bitset && !roots[t] && t != ri) {
									roots[t] = 1;
									grew = true;
								}
						}
			}
	}
	roots[ri] = 1;
	codec_subset sub = {ri, want, roots};
	codec *c = codec_build(m, diags, false, CODEC_TABLE_BUDGET, &sub);
	free(roots);
	free(want);
	return c;
}

static codec *codec_build(const spec_model *m, spec_diags *diags, bool fast, size_t table_budget,
                          const codec_subset *sub)
{
	spec_loc loc = {m ? m->path : NULL, 0, 0};
	if (!m || !m->nroots) {
		spec_diag_add(diags, SPEC_FATAL, "codec", loc, "the model has no root to decode against");
		return NULL;
	}
	codec *c = calloc(1, sizeof *c);
	if (!c)
		goto oom;
	c->m = m;
	c->fast_budget = table_budget;
	c->defroot = codec_model_default_root(m);
	c->defroot_index = (size_t)(c->defroot - m->roots);
	unsigned bits = m->bitsize ? m->bitsize : 1;
	if (bits > SPEC_MAX_BITS)
		bits = SPEC_MAX_BITS;
	c->nw = (bits + 63) / 64;
	c->hexw = (bits + 31) / 32;
	c->instr_words = (c->defroot->bitset->size + 31) / 32;
	if (!c->instr_words)
		c->instr_words = 1;

	c->cls = calloc(m->nroots, sizeof *c->cls);
	c->leaf = calloc(m->nbitsets ? m->nbitsets : 1, sizeof *c->leaf);
	if (!c->cls || !c->leaf)
		goto oom;
	for (size_t i = 0; i < m->nroots; i++) {
		if (sub && (i == sub->root_index || !sub->roots[i]))
			continue; /* classified by a scan (codec_classify), or never met */
		c->cls[i] = classifier_build(&m->roots[i]);
		if (!c->cls[i])
			goto oom;
	}

	builder B = {.c = c, .ok = true, .fast = fast};
	B.names.size = sizeof(const char *);
	B.tabs.size = sizeof(struct tab_ent);
	size_t nleaves = 0;
	for (size_t r = 0; r < m->nroots; r++)
		nleaves += m->roots[r].nleaves;
	B.share = nleaves >= SHARE_LEAVES;
	for (size_t r = 0; r < m->nroots && B.ok; r++)
		for (size_t i = 0; i < m->roots[r].nleaves && B.ok; i++) {
			const spec_bitset *b = m->roots[r].leaves[i];
			if (sub && (!sub->roots[r] ||
			            (r == sub->root_index && b->index < m->nbitsets && !sub->want[b->index])))
				continue;
			if (b->index < m->nbitsets && !c->leaf[b->index])
				c->leaf[b->index] = compile_leaf(&B, b);
		}
	/* before the names are frozen: it interns the fields' */
	if (fast && B.ok)
		build_encoder(&B);
	c->nnames = B.names.n;
	c->names = vec_freeze(&c->arena, NULL, &B.names, &B.ok);
	/* plans before memos: the memos are rendered with them */
	if (fast && B.ok)
		B.ok = codec_build_plans(c);
	c->memo = calloc(m->nroots, sizeof *c->memo);
	uint8_t *state = calloc(m->nroots, 1);
	unsigned *depth = calloc(m->nroots, sizeof *depth);
	unsigned *slots = calloc(m->nroots, sizeof *slots);
	if (!c->memo || !state || !depth || !slots)
		B.ok = false;
	for (size_t r = 0; fast && B.ok && r < m->nroots; r++)
		if (m->roots[r].bitset->size <= CODEC_MEMO_BITS && &m->roots[r] != c->defroot &&
		    memo_ok(c, r, state, depth, slots))
			c->memo[r] = build_memo(c, r, depth[r], slots[r], &B.ok);
	free(state);
	free(depth);
	free(slots);
	if (B.ok)
		B.ok = codec_build_programs(c);
	if (fast && B.ok)
		B.ok = codec_build_afuc_quiet(c);
	/* issue texts first: fast.c's ops point at them */
	if (fast && B.ok)
		B.ok = codec_build_itexts(c);
	if (fast && B.ok)
		B.ok = codec_build_fast(c);
	if (fast && B.ok)
		B.ok = codec_build_dontcare_itexts(c);
	free(B.nh);
	free(B.sh.slot);
	free(B.fm);
	free(B.em);
	free(B.xm);
	free(B.tabs.v);
	vec_pool_free(&B.pool);
	if (!B.ok)
		goto oom;
	return c;
oom:
	spec_diag_add(diags, SPEC_FATAL, "out-of-memory", loc, "out of memory compiling the codec");
	codec_free(c);
	return NULL;
}

void codec_free(codec *c)
{
	if (!c)
		return;
	if (c->cls)
		for (size_t i = 0; i < c->m->nroots; i++)
			classifier_free(c->cls[i]);
	free(c->cls);
	free(c->leaf);
	free((void *)c->memo);
	codec_programs_free(c->programs);
	arena_free(c->arena);
	free(c);
}

const spec_model *codec_model(const codec *c)
{
	return c ? c->m : NULL;
}

const spec_root *codec_default_root(const codec *c)
{
	return c ? c->defroot : NULL;
}

static size_t root_idx(const codec *c, const spec_root *root)
{
	if (!root)
		return (size_t)(c->defroot - c->m->roots);
	if (root >= c->m->roots && root < c->m->roots + c->m->nroots)
		return (size_t)(root - c->m->roots);
	return root_index_of(c->m, root->bitset);
}

size_t codec_classify(const codec *c, const spec_root *root, const uint64_t *w,
                      uint32_t gen, const spec_bitset **out, size_t max)
{
	size_t i = root_idx(c, root);
	if (i >= c->m->nroots)
		return 0;
	if (!c->cls[i])
		return classify_linear(&c->m->roots[i], w, gen, out, max);
	return classifier_run(c->cls[i], w, gen, out, max);
}

size_t codec_classify_linear(const codec *c, const spec_root *root, const uint64_t *w,
                             uint32_t gen, const spec_bitset **out, size_t max)
{
	size_t i = root_idx(c, root);
	if (i >= c->m->nroots)
		return 0;
	return classify_linear(&c->m->roots[i], w, gen, out, max);
}
