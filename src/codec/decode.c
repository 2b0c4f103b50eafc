/*
 * decode.c - the decoding engine Mesa's isaspec_decode_impl.c runs at
 * decode time, over the codec compiled in codec.c: scopes (one per
 * instruction and per nested bitset field), field resolution through
 * overrides, parents and params, expressions with a per-scope cache and
 * Mesa's re-entrancy rule, the choice of leaf with its conflict and
 * don't-care errors, the asserts of find_display; and codec_decode,
 * which lists the field values of one instruction.
 *
 * The fast paths codec.c found (pure expressions, tables, look-ups that
 * always end at one field or go straight to the params, params bound at
 * cx_push) skip only work whose effects cannot be observed; with
 * codec_new_opt(.., false) there are none, and this is Mesa's algorithm
 * step by step.
 *
 * Nothing here allocates: scopes, their values and the expression
 * caches live in the cx context the caller keeps on its stack.
 */
#include "internal.h"
#include "out.h"

#include <inttypes.h>
#include <stdio.h>

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

/* Where the text of the next issue goes (NULL: nowhere, it is only
 * counted): the decoding's next slot, or the line's next error. */
static char *issue_text(cx *x, size_t *cap)
{
	x->issues++;
	if (x->mode == CX_DECODE) {
		codec_decoded *d = x->dec;
		if (!d || d->nissues >= d->cap_issues || !d->issues)
			return NULL;
		*cap = sizeof d->issues[0].text;
		return d->issues[d->nissues].text;
	}
	if (x->nerr >= CODEC_MAX_ERRORS)
		return NULL;
	*cap = CODEC_ERR_LEN;
	return x->err[x->nerr];
}

/* Whether text a is t, whose length is len (< the issue's 160 bytes):
 * eight bytes at a time, without strcmp, which libFuzzer intercepts
 * process-wide and traces on every call that differs (the issues of one
 * decoding share long heads: "dontcare bits in ").  A word past either
 * terminator may differ without the texts differing, so the words
 * compared stop before len and the bytes after are compared one by one. */
static bool same_text(const char *a, const char *t, size_t len)
{
	if (a[len] != '\0')
		return false;
	if (len >= 8) {
		/* texts of one kind share their heads and differ in their ends
		 * (the bits, in hex): the last word first */
		uint64_t u, v;
		memcpy(&u, a + len - 8, 8);
		memcpy(&v, t + len - 8, 8);
		if (u != v)
			return false;
	}
	size_t k = 0;
	for (; k + 8 <= len; k += 8) {
		uint64_t u, v;
		memcpy(&u, a + k, 8);
		memcpy(&v, t + k, 8);
		if (u != v)
			return false;
	}
	for (; k < len; k++)
		if (a[k] != t[k])
			return false;
	return true;
}

/* Keeps the issue whose text (len characters) was just written. */
static void issue_keep(cx *x, codec_issue_kind kind, const spec_bitset *leaf,
                       const spec_bitset *other, const spec_field *f, uint64_t bits, size_t len)
{
	if (x->mode != CX_DECODE) {
		x->errlen[x->nerr++] = (uint32_t)len;
		return;
	}
	codec_decoded *d = x->dec;
	codec_issue *is = &d->issues[d->nissues];
	/* the display walk and the value list may meet the same issue */
	for (size_t i = 0; i < d->nissues; i++)
		if (d->issues[i].kind == kind && same_text(d->issues[i].text, is->text, len))
			return;
	is->kind = kind;
	is->leaf = leaf;
	is->other = other;
	is->field = f;
	is->bits = bits;
	d->nissues++;
}

void cx_issue(cx *x, codec_issue_kind kind, const spec_bitset *leaf,
              const spec_bitset *other, const spec_field *f, uint64_t bits,
              const char *fmt, ...)
{
	size_t cap;
	char *t = issue_text(x, &cap);
	if (!t)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t, cap, fmt, ap);
	va_end(ap);
	issue_keep(x, kind, leaf, other, f, bits,
	           n < 0 ? strlen(t) : (size_t)n < cap ? (size_t)n : cap - 1);
}

/* A piece of an issue's text and its length. */
typedef struct piece {
	const char *s;
	size_t n;
} piece;
#define PIECE(lit) {(lit), sizeof(lit) - 1}
#define PIECE_STR(str) {(str), strlen(str)}

/* cx_issue with the text given as pieces to join: on random words most
 * instructions raise one of these, and joining is much cheaper than
 * printf. */
/* memcpy for the short pieces of issue texts: two overlapping copies of
 * a fixed size read only the k bytes, without a call. */
static inline void copy_short(char *d, const char *s, size_t k)
{
	if (k > 16) {
		memcpy(d, s, k);
	} else if (k >= 8) {
		memcpy(d, s, 8);
		memcpy(d + k - 8, s + k - 8, 8);
	} else if (k >= 4) {
		memcpy(d, s, 4);
		memcpy(d + k - 4, s + k - 4, 4);
	} else if (k) {
		d[0] = s[0];
		d[k / 2] = s[k / 2];
		d[k - 1] = s[k - 1];
	}
}

/* Joins the pieces into t (cap bytes, NUL included); the length. */
static size_t join_pieces(char *t, size_t cap, const piece *parts, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n && len + 1 < cap; i++) {
		size_t k = parts[i].n;
		if (k > cap - 1 - len)
			k = cap - 1 - len;
		copy_short(t + len, parts[i].s, k);
		len += k;
	}
	t[len] = '\0';
	return len;
}

static void issue_joined(cx *x, codec_issue_kind kind, const spec_bitset *leaf,
                         const spec_bitset *other, const spec_field *f, uint64_t bits,
                         const piece *parts, size_t n)
{
	size_t cap;
	char *t = issue_text(x, &cap);
	if (!t)
		return;
	issue_keep(x, kind, leaf, other, f, bits, join_pieces(t, cap, parts, n));
}

/* cx_issue_itext's other cases (a decoding's issue, a text too long,
 * no room left); apart, so that the usual case keeps a small frame. */
__attribute__((noinline)) void cx_issue_itext_joined(cx *x, codec_issue_kind kind,
                                                     const spec_bitset *leaf, const spec_field *f,
                                                     const citext *it, const uint64_t *v)
{
	size_t cap;
	char *t = issue_text(x, &cap);
	if (!t)
		return;
	char hex[CODEC_MAX_WORDS * 16 + 1];
	size_t nh = cx_hex(x, v, hex, sizeof hex), nhead;
	const char *head = cx_itext_head(kind, &nhead);
	const piece parts[] = {{head, nhead}, {cx_itext_var(it), it->nvar}, {hex, nh}, {it->suf, it->nsuf}};
	issue_keep(x, kind, leaf, NULL, f, v[0], join_pieces(t, cap, parts, 4));
}

static const char *utoa_into(char *buf, size_t cap, uint64_t v)
{
	char *p = buf + cap;
	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v && p > buf);
	return p;
}

size_t cx_hex(const cx *x, const uint64_t *w, char *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t k = 0;
	if (len > (size_t)x->c->hexw * 8) {
		/* room for all of it */
		cx_hex_words(x->c, w, x->c->hexw, buf);
		k = (size_t)x->c->hexw * 8;
		buf[k] = '\0';
		return k;
	}
	for (unsigned i = x->c->hexw; i-- > 0;) {
		uint32_t v = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
		for (int s = 28; s >= 0; s -= 4)
			if (k + 1 < len)
				buf[k++] = digits[(v >> s) & 15];
	}
	if (!len)
		return 0;
	k = k < len ? k : len - 1;
	buf[k] = '\0';
	return k;
}

void cx_extract(const uint64_t *w, unsigned low, unsigned high, uint64_t *out, unsigned nw)
{
	if (nw == 1 && high < 64 && low <= high) {
		unsigned width = high - low + 1;
		out[0] = width == 64 ? w[0] : (w[0] >> low) & (((uint64_t)1 << width) - 1);
		return;
	}
	for (unsigned i = 0; i < nw; i++)
		out[i] = 0;
	if (high < low)
		return;
	unsigned width = high - low + 1;
	unsigned lim = nw * 64;
	if (low >= lim)
		return;
	if (width > lim - low)
		width = lim - low;
	unsigned sh = low % 64, wi = low / 64;
	for (unsigned i = 0; i * 64 < width; i++) {
		uint64_t v = w[wi + i] >> sh;
		if (sh && wi + i + 1 < nw)
			v |= w[wi + i + 1] << (64 - sh);
		unsigned left = width - i * 64;
		if (left < 64)
			v &= ((uint64_t)1 << left) - 1;
		out[i] = v;
	}
}

__attribute__((noinline)) void cx_dontcare_set(cx *x, const spec_bitset *b, uint32_t bi,
                                               const uint64_t *dc)
{
	const citext *it = cx_dontcare_itext(x->c, bi);
	if (it) {
		cx_issue_itext(x, CODEC_DONTCARE_SET, b, NULL, it, dc);
		return;
	}
	char hex[CODEC_MAX_WORDS * 16 + 1];
	size_t nh = cx_hex(x, dc, hex, sizeof hex);
	const piece parts[] = {PIECE(CODEC_HEAD_DONTCARE), PIECE_STR(spec_display_name(b)),
	                       PIECE(": "), {hex, nh}};
	issue_joined(x, CODEC_DONTCARE_SET, b, NULL, NULL, dc[0], parts, 4);
}

const spec_bitset *cx_find_bitset(cx *x, size_t root_index, const uint64_t *w)
{
	const spec_bitset *hit[2];
	uint32_t bi;
	const classifier *cls = x->c->cls[root_index];
	size_t n = cls ? classifier_run_index(cls, w, x->gen, hit, 2, &bi)
	               : classify_linear(&x->c->m->roots[root_index], w, x->gen, hit, 2);
	if (n == 0)
		return NULL;
	if (!cls)
		bi = hit[0]->index;
	if (n > 1) {
		cx_issue(x, CODEC_AMBIGUOUS, hit[0], hit[1], NULL, 0, "bitset conflict: %s vs %s",
		         spec_display_name(hit[0]), spec_display_name(hit[1]));
		return NULL;
	}
	const spec_bitset *b = hit[0];
	unsigned nw = x->c->nw;
	uint64_t any = 0;
	x->found = b;
	x->found_index = bi;
	const ftop *t = x->c->ftop ? &x->c->ftop[bi] : NULL;
	if (t && t->dc2) {
		/* in the line the instruction's display reads next */
		any = t->dc[0] & w[0];
		if (nw > 1)
			any |= t->dc[1] & w[1];
	} else {
		for (unsigned i = 0; i < nw && i < b->dontcare.nwords; i++)
			any |= b->dontcare.w[i] & w[i];
	}
	if (any) {
		uint64_t dc[CODEC_MAX_WORDS];
		if (t && t->dc2) {
			/* from the line already read, not the bitset's */
			dc[0] = t->dc[0] & w[0];
			if (nw > 1)
				dc[1] = t->dc[1] & w[1];
		} else {
			unsigned ndc = b->dontcare.nwords < nw ? (unsigned)b->dontcare.nwords : nw;
			for (unsigned i = 0; i < nw; i++)
				dc[i] = i < ndc ? b->dontcare.w[i] & w[i] : 0;
		}
		cx_dontcare_set(x, b, bi, dc);
	}
	return b;
}

/* Reads pnames[j] through the param of s->pf that passes it in, when
 * the parent's look-up always ends at one field, plain or with a pure
 * expression (so reading it now cannot be observed). */
static bool bind_param(cx *x, cx_scope *s, unsigned j)
{
	const cleaf *lf = s->lf;
	cx_scope *p = s->parent;
	size_t i = 0;
	while (i < s->pf->nparams && s->pf->params[i].as != lf->pnames[j])
		i++;
	if (i == s->pf->nparams)
		return false;
	int lk = s->plk ? s->plk[i] : codec_lookup_find(p->lf, s->pf->params[i].name);
	if (lk < 0 || p->lf->lk[lk].direct[p->pb] < 0)
		return false;
	const cstep *st = &p->lf->steps[p->lf->lk[lk].direct[p->pb]];
	const spec_field *f = st->field->f;
	if (f->kind == SPEC_DERIVED) {
		if (st->fex < 0 || !p->lf->ex[st->fex].pure[p->pb])
			return false;
		s->pval[j] = cx_eval(x, p, st->fex);
	} else {
		s->pval[j] = cx_get64(p->val, x->c->nw, f->low, f->high);
	}
	s->pst[j] = st;
	s->pbound |= (uint32_t)1 << j;
	return true;
}

/* Variant 1 of a scope: every name of pnames[0..npn) comes through a
 * param bound as above; their values are read now.  1 when so, else 0.
 * The display's names (pnames[npn..nbn)) are bound where they can be. */
static unsigned bind_params(cx *x, cx_scope *s)
{
	const cleaf *lf = s->lf;
	if (!s->pf || !s->parent)
		return lf->npn ? 0 : 1;
	unsigned v1 = 1;
	for (unsigned j = 0; j < lf->nsb; j++)
		if (!bind_param(x, s, j) && j < lf->npn)
			v1 = 0;
	return v1;
}

cx_scope *cx_push(cx *x, const spec_bitset *leaf, const cfield *pf, const uint64_t *w,
                  const int *plk)
{
	const cleaf *lf = leaf->index < x->c->m->nbitsets ? x->c->leaf[leaf->index] : NULL;
	if (!lf)
		return NULL;
	if (x->nsc >= CODEC_MAX_SCOPES || CODEC_CACHE_SLOTS - x->cused < lf->nex) {
		cx_issue(x, CODEC_EXPR_ERROR, leaf, NULL, pf ? pf->f : NULL, 0,
		         "bitset fields nested too deep in %s", spec_display_name(leaf));
		return NULL;
	}
	cx_scope *s = &x->sc[x->nsc];
	s->lf = lf;
	s->parent = x->nsc ? &x->sc[x->nsc - 1] : NULL;
	s->pf = pf;
	s->val = x->val[x->nsc];
	s->depth = x->nsc;
	s->novc = 0;
	s->plk = plk;
	s->pb = 0;
	s->pbound = 0;
	if (w != s->val)
		memcpy(s->val, w, x->c->nw * sizeof *w);
	s->cv = x->cv + x->cused;
	s->cs = x->cs + x->cused;
	memset(s->cs, 0, lf->nex);
	x->cused += (unsigned)lf->nex;
	x->nsc++;
	if (lf->v1)
		s->pb = bind_params(x, s);
	return s;
}

void cx_pop(cx *x)
{
	if (!x->nsc)
		return;
	x->nsc--;
	x->cused -= (unsigned)x->sc[x->nsc].lf->nex;
}

/* --------------------------------------------------------- expressions */

bool codec_vm_run(const cins *p0, const int64_t *refs, int64_t gpu_id, int64_t *out)
{
	int64_t st[CODEC_VM_STACK + 1];
	int sp = -1;
	for (const cins *p = p0;; p++) {
		int64_t a, b;
		switch (p->op) {
		case VI_CONST: st[++sp] = p->imm; break;
		case VI_REF: st[++sp] = refs[p->arg]; break;
		case VI_GPU: st[++sp] = gpu_id; break;
		case VI_NOT: st[sp] = st[sp] == 0; break;
		case VI_BITNOT: st[sp] = codec_vm_wrap(~(uint64_t)st[sp]); break;
		case VI_NEG: st[sp] = codec_vm_wrap(0u - (uint64_t)st[sp]); break;
		case VI_BOOL: st[sp] = st[sp] != 0; break;
		case VI_SCAND:
			if (st[sp] == 0) {
				p = p0 + p->arg - 1;
			} else {
				sp--;
			}
			break;
		case VI_SCOR:
			if (st[sp] != 0) {
				st[sp] = 1;
				p = p0 + p->arg - 1;
			} else {
				sp--;
			}
			break;
		case VI_JZ:
			if (st[sp--] == 0)
				p = p0 + p->arg - 1;
			break;
		case VI_JMP: p = p0 + p->arg - 1; break;
		case VI_END: *out = st[sp]; return true;
		default:
			b = st[sp--];
			if (!codec_vm_binop(p->op, st[sp], b, &a))
				return false;
			st[sp] = a;
			break;
		}
	}
}

typedef struct eval_refs {
	cx *x;
	cx_scope *s;
	const cexpr *ce;
	int64_t *vals;
	size_t nvals;
} eval_refs;

static uint64_t decode_field(cx *x, cx_scope *s, const cref *r);

static bool eval_lookup(void *ctx, const char *name, unsigned depth, int64_t *value,
                        char *err, size_t errlen)
{
	(void)depth;
	(void)err;
	(void)errlen;
	eval_refs *er = ctx;
	const cref *refs = er->s->lf->refs + er->ce->ref0;
	uint32_t n = er->ce->nrefs, i;
	for (i = 0; i < n && refs[i].eref != name; i++)
		;
	for (uint32_t j = 0; i == n && j < n; j++)
		if (!strcmp(refs[j].text, name))
			i = j;
	if (i < n) {
		*value = i < er->nvals ? er->vals[i]
		                       : (int64_t)decode_field(er->x, er->s, &refs[i]);
		return true;
	}
	*value = 0; /* cannot happen: every reference is listed */
	return true;
}

/* Whether e is the expression being evaluated: Mesa's find_field lets
 * only the innermost one (the top of its stack) count as holding, not
 * every one an evaluation is nested in. */
static bool on_top(const cx *x, const spec_expr *e)
{
	return x->esp && x->es[x->esp - 1] == e;
}

/* evaluate_expr: cached per scope; a re-entrant evaluation gives 0 (with
 * Mesa's quirk: slot 0 of the stack is not searched). */
uint64_t cx_eval(cx *x, cx_scope *s, int k)
{
	if (k < 0 || (size_t)k >= s->lf->nex)
		return 0;
	if (s->cs[k])
		return s->cv[k];
	const cexpr *ce = &s->lf->ex[k];
	for (unsigned i = x->esp; i-- > 1;)
		if (x->es[i] == ce->e)
			return 0;
	unsigned pb = s->pb;
	if (ce->pure[pb]) {
		/* its references always resolve to the same fields (or bound
		 * params), and it cannot fail: read them directly (nothing
		 * else can happen while it is on Mesa's stack) */
		const cref *refs = s->lf->refs + ce->ref0;
		const cleaf *lf = s->lf;
		unsigned nw = x->c->nw;
		int64_t r = 0;
		uint64_t idx;
		if (ce->tab[pb] && cx_tab_index(lf, ce, pb, s->val, nw, s->pval, s->pbound, &idx)) {
			r = (int64_t)ce->tab[pb][idx];
		} else {
			int64_t pv[64];
			for (uint32_t i = 0; i < ce->nrefs && i < 64; i++) {
				int ss = refs[i].sstep[pb];
				if (ss < 0) {
					pv[i] = (int64_t)s->pval[refs[i].pslot];
					continue;
				}
				const cstep *st = &lf->steps[ss];
				pv[i] = st->field->f->kind == SPEC_DERIVED
				        ? (int64_t)cx_eval(x, s, st->fex)
				        : (int64_t)cx_get64(s->val, nw, st->field->f->low, st->field->f->high);
			}
			codec_vm_run(ce->prog, pv, (int64_t)x->gen, &r);
		}
		s->novc += ce->is_case;
		s->cs[k] = 1;
		s->cv[k] = (uint64_t)r;
		return (uint64_t)r;
	}
	x->es[x->esp++] = ce->e;
	int64_t vals[16];
	size_t nv = ce->nrefs < 16 ? ce->nrefs : 16;
	const cref *refs = s->lf->refs + ce->ref0;
	for (size_t i = 0; i < nv; i++)
		vals[i] = (int64_t)decode_field(x, s, &refs[i]);
	int64_t r = 0;
	if (ce->prog && nv == ce->nrefs && codec_vm_run(ce->prog, vals, (int64_t)x->gen, &r))
		goto done;
	eval_refs er = {x, s, ce, vals, nv};
	spec_eval_env env = {eval_lookup, &er, (int64_t)x->gen, 0};
	char err[200];
	if (!spec_expr_eval(ce->e, &env, &r, err, sizeof err)) {
		spec_loc l = spec_expr_loc(ce->e);
		cx_issue(x, CODEC_EXPR_ERROR, s->lf->b, NULL, NULL, 0, "%s:%u: %s",
		         l.file ? l.file : "?", l.line, err);
		r = 0;
	}
done:
	x->esp--;
	s->novc += ce->is_case && !s->cs[k];
	s->cs[k] = 1;
	s->cv[k] = (uint64_t)r;
	return (uint64_t)r;
}

/* --------------------------------------------------------------- fields */

/* find_field from the scope's leaf: the step whose field wins, or NULL. */
static inline __attribute__((always_inline)) const cstep *find_field(cx *x, cx_scope *s,
                                                                     int lk)
{
	const cleaf *lf = s->lf;
	const cstep *st;
	uint32_t n;
	if (lk >= 0) {
		if (lf->lk[lk].direct[s->pb] >= 0)
			return lf->steps + lf->lk[lk].direct[s->pb];
		if (lf->lk[lk].param[s->pb])
			return NULL;
		st = lf->steps + lf->lk[lk].step0;
		n = lf->lk[lk].nsteps;
	} else {
		if (lf->none_param[s->pb])
			return NULL;
		st = lf->steps + lf->none0;
		n = lf->nnone;
	}
	if ((lk < 0 || lf->lk[lk].nofield) && s->novc == lf->nov)
		return NULL; /* every override evaluated already: nothing can happen */
	for (uint32_t i = 0; i < n; i++, st++) {
		int k = st->cex;
		if (k >= 0) {
			/* while an override's own expression is evaluated, that
			 * override counts as true */
			if (s->cs[k]) {
				if (!s->cv[k] && !on_top(x, lf->ex[k].e))
					continue;
			} else if (!on_top(x, lf->ex[k].e) && !cx_eval(x, s, k)) {
				continue;
			}
		}
		if (st->field)
			return st;
	}
	return NULL;
}

/* resolve_field after the scope's own cases found nothing: the params. */
static const cstep *resolve_params(cx *x, cx_scope *s, uint32_t name, cx_scope **where,
                                   uint64_t *val)
{
	for (;;) {
		if (!s->pf || !s->parent)
			return NULL;
		size_t i = 0;
		while (i < s->pf->nparams && s->pf->params[i].as != name)
			i++;
		if (i == s->pf->nparams)
			return NULL;
		name = s->pf->params[i].name;
		int lk = s->plk ? s->plk[i] : codec_lookup_find(s->parent->lf, name);
		s = s->parent;
		const cstep *st = find_field(x, s, lk);
		if (st) {
			*where = s;
			*val = cx_step_value(x, s, st);
			return st;
		}
	}
}

const cstep *cx_resolve(cx *x, cx_scope *s, uint32_t name, int lk, cx_scope **where,
                        uint64_t *val)
{
	const cstep *st = find_field(x, s, lk);
	if (st) {
		*where = s;
		*val = cx_step_value(x, s, st);
		return st;
	}
	return resolve_params(x, s, name, where, val);
}

/* isa_decode_field, for expressions: the raw value, or 0 and an error. */
static uint64_t decode_field(cx *x, cx_scope *s, const cref *r)
{
	cx_scope *where;
	uint64_t v;
	/* how the reference resolves while its expression is evaluated was
	 * worked out when compiling, where that cannot depend on anything */
	if (r->sstep[s->pb] >= 0)
		return cx_step_value(x, s, &s->lf->steps[r->sstep[s->pb]]);
	if (r->param[s->pb] ? !resolve_params(x, s, r->name, &where, &v)
	             : !cx_resolve(x, s, r->name, r->lk, &where, &v)) {
		cx_issue(x, CODEC_NO_FIELD, s->lf->b, NULL, NULL, 0, "no field '%s'", r->text);
		return 0;
	}
	return v;
}

/* Error paths keep their big buffers out of the recursion's frames. */
__attribute__((noinline)) void cx_assert_failed(cx *x, const spec_bitset *leaf,
                                                const spec_bitset *owner, const cfield *a,
                                                const uint64_t *v)
{
	const citext *it = cx_itext(x->c, CODEC_ASSERT_MISMATCH, owner, a);
	if (it) {
		cx_issue_itext(x, CODEC_ASSERT_MISMATCH, leaf, a->f, it, v);
		return;
	}
	char h1[CODEC_MAX_WORDS * 16 + 1], h2[CODEC_MAX_WORDS * 16 + 1];
	size_t n1 = cx_hex(x, v, h1, sizeof h1), n2 = cx_hex(x, a->aval, h2, sizeof h2);
	char lo[16], hi[16];
	const piece parts[] = {PIECE(CODEC_HEAD_ASSERT),
	                       PIECE_STR(utoa_into(lo, sizeof lo, a->f->low)),
	                       PIECE(":"),
	                       PIECE_STR(utoa_into(hi, sizeof hi, a->f->high)),
	                       PIECE("] in "),
	                       PIECE_STR(spec_display_name(owner)),
	                       PIECE(": "),
	                       {h1, n1},
	                       PIECE(" vs "),
	                       {h2, n2}};
	issue_joined(x, CODEC_ASSERT_MISMATCH, leaf, NULL, a->f, v[0], parts, 10);
}

/* "LEAF: FIELD has no value N in enum E": random words raise it often,
 * and joining the pieces costs a tenth of formatting them. */
__attribute__((noinline)) static void cx_enum_missing(cx *x, const spec_bitset *leaf,
                                                      const cfield *f, uint64_t raw)
{
	char num[24];
	const piece parts[] = {PIECE_STR(spec_display_name(leaf)),
	                       PIECE(": "),
	                       PIECE_STR(f->f->name),
	                       PIECE(" has no value "),
	                       PIECE_STR(utoa_into(num, sizeof num, raw)),
	                       PIECE(" in enum "),
	                       PIECE_STR(f->en->e->name)};
	issue_joined(x, CODEC_ENUM_MISSING, leaf, NULL, f->f, raw, parts, 7);
}

__attribute__((noinline)) void cx_no_match_named(cx *x, const char *leaf_name,
                                                 const spec_field *f, const uint64_t *w)
{
	const citext *it = cx_itext(x->c, CODEC_NO_MATCH, leaf_name, f);
	if (it) {
		cx_issue_itext(x, CODEC_NO_MATCH, NULL, f, it, w);
		return;
	}
	char hex[CODEC_MAX_WORDS * 16 + 1];
	size_t nh = cx_hex(x, w, hex, sizeof hex);
	const piece parts[] = {PIECE(CODEC_HEAD_NO_MATCH), PIECE_STR(leaf_name), PIECE("."),
	                       PIECE_STR(f->name), PIECE("': "), {hex, nh}};
	issue_joined(x, CODEC_NO_MATCH, NULL, NULL, f, w[0], parts, 6);
}

void cx_no_match_field(cx *x, const cx_scope *s, const spec_field *f, const uint64_t *w)
{
	cx_no_match_named(x, s->lf->name, f, w);
}

void cx_issue_text(cx *x, codec_issue_kind kind, const spec_field *f, const char *text)
{
	const piece p = PIECE_STR(text);
	issue_joined(x, kind, NULL, NULL, f, 0, &p, 1);
}

void cx_check_assert(cx *x, cx_scope *s, const cdstep *d, const cfield *a)
{
	unsigned nw = x->c->nw;
	uint64_t v[CODEC_MAX_WORDS];
	cx_extract(s->val, a->f->low, a->f->high, v, nw);
	if (memcmp(v, a->aval, nw * sizeof *v) != 0)
		cx_assert_failed(x, s->lf->b, d->owner, a, v);
}

const cdstep *cx_find_display(cx *x, cx_scope *s)
{
	const cleaf *lf = s->lf;
	for (size_t i = 0; i < lf->nds; i++) {
		const cdstep *d = &lf->ds[i];
		if (d->cex >= 0 && !cx_eval(x, s, d->cex))
			continue;
		/* the chosen case: check its asserts */
		for (uint32_t j = 0; j < d->nasserts; j++)
			cx_check_assert(x, s, d, lf->asserts[d->assert0 + j]);
		cx_case_taken(x, s, d, d->op0 >= 0);
		if (d->op0 >= 0)
			return d;
	}
	return NULL;
}

/* ------------------------------------------------------------ codec_decode */

static int64_t sign_extend(uint64_t v, unsigned width)
{
	if (width == 0 || width >= 64)
		return (int64_t)v;
	uint64_t m = (uint64_t)1 << (width - 1);
	v &= ((uint64_t)1 << width) - 1;
	return (int64_t)((v ^ m) - m);
}

/* What listing one value did. */
typedef enum { LISTED, LEFT_OUT, FULL } list_step;

static void list_values(cx *x, cx_scope *s);

/* Lists the value of step v of scope s, with the values of
 * its sub-instruction after it. */
static inline __attribute__((always_inline)) list_step list_one(cx *x, cx_scope *s,
                                                                const cvstep *v)
{
	codec_decoded *d = x->dec;
	const cleaf *lf = s->lf;
	const cfield *f = v->field;
	uint64_t raw;
	if (v->derived) {
		/* Mesa evaluates a derived value only where it is printed or
		 * read; one that fails here (it names a field this leaf does
		 * not have) is not part of this instruction: leave it out,
		 * and raise nothing the disassembler would not. */
		unsigned issues0 = x->issues;
		size_t n0 = d->nissues;
		raw = cx_eval(x, s, v->fex);
		if (x->issues != issues0) {
			x->issues = issues0;
			d->nissues = n0;
			return LEFT_OUT;
		}
	} else {
		raw = cx_get64(s->val, x->c->nw, v->low, v->high);
	}
	if (d->nvalues >= d->cap_values || !d->values)
		return FULL;
	codec_value *cv = &d->values[d->nvalues++];
	cv->field = v->f;
	cv->owner = v->owner;
	cv->kase = v->kase;
	cv->raw = raw;
	cv->depth = s->depth;
	cv->sub = NULL;
	switch (v->type) {
	case SPEC_TYPE_INT:
	case SPEC_TYPE_OFFSET:
	case SPEC_TYPE_BRANCH:
		cv->value = sign_extend(raw, v->width);
		break;
	default:
		cv->value = (int64_t)raw;
		break;
	}
	/* a value with a display below 256 is named: no search */
	if (v->check_enum && !(raw < 256 && f->en->dense[raw]) &&
	    !spec_enum_lookup(f->en->e, (int64_t)raw))
		cx_enum_missing(x, lf->b, f, raw);
	if (v->type == SPEC_TYPE_BITSET) {
		uint64_t w[CODEC_MAX_WORDS];
		if (v->derived) {
			memset(w, 0, x->c->nw * sizeof *w);
			w[0] = raw;
		} else {
			cx_extract(s->val, v->low, v->high, w, x->c->nw);
		}
		size_t vi = d->nvalues - 1;
		const spec_bitset *b = cx_find_bitset(x, f->root_index, w);
		if (!b) {
			cx_no_match_field(x, s, f->f, w);
			return LISTED;
		}
		d->values[vi].sub = b;
		cx_scope *ns = cx_push(x, b, f, w, NULL);
		if (ns) {
			list_values(x, ns);
			cx_pop(x);
		}
	}
	return LISTED;
}

static void list_values(cx *x, cx_scope *s)
{
	codec_decoded *d = x->dec;
	const cleaf *lf = s->lf;
	const cplan *pl = cx_scope_plan(x, s);
	if (pl && pl->vlist) {
		/* the steps the plan fixed (plan_values) */
		for (uint32_t k = 0; k < pl->nvlist; k++)
			if (list_one(x, s, &lf->vs[pl->vlist[k]]) == FULL)
				return;
		return;
	}
	size_t first = d->nvalues;
	uint32_t skip_case = 0;
	/* The steps listed so far: a name is listed once, by the first step
	 * of it whose case holds (as Mesa resolves names); past the bitmap,
	 * by comparing the names. */
	uint64_t listed[CODEC_LIST_STEPS / 64];
	size_t nl = lf->nvs < CODEC_LIST_STEPS ? lf->nvs : CODEC_LIST_STEPS;
	for (size_t j = 0; j < (nl + 63) / 64; j++)
		listed[j] = 0;
	for (size_t i = 0; i < lf->nvs; i++) {
		const cvstep *v = &lf->vs[i];
		if (v->case_id == skip_case)
			continue;
		if (v->cex >= 0 && !(pl ? cx_plan_holds(lf, pl, v->cex) : cx_eval(x, s, v->cex))) {
			skip_case = v->case_id;
			continue;
		}
		bool seen = false;
		if (i < CODEC_LIST_STEPS) {
			for (int j = v->prev_same; j >= 0 && !seen; j = lf->vs[j].prev_same)
				seen = (listed[j / 64] >> (j % 64)) & 1u;
		} else {
			for (size_t j = first; j < d->nvalues && !seen; j++)
				seen = d->values[j].depth == s->depth && d->values[j].field &&
				       !strcmp(d->values[j].field->name, v->field->f->name);
		}
		if (seen)
			continue;
		list_step r = list_one(x, s, v);
		if (r == FULL)
			return;
		if (r == LISTED && i < CODEC_LIST_STEPS)
			listed[i / 64] |= (uint64_t)1 << (i % 64);
	}
}

/* codec_decode's walk.  The display is walked for its issues; where it
 * is printed straight through, its text goes to text (NULL: a scratch
 * buffer) and *fast says so. */
static bool decode_walk(const codec *c, const spec_root *root, const uint64_t *w, uint32_t gen,
                        codec_decoded *out, cx_out *text, bool *fast)
{
	*fast = false;
	if (!c || !w || !out)
		return false;
	out->root = root ? root : c->defroot;
	out->leaf = NULL;
	out->gen = gen;
	out->nvalues = 0;
	out->nissues = 0;
	out->ncases = 0;
	size_t ri = (size_t)(out->root - c->m->roots);
	if (out->root < c->m->roots || ri >= c->m->nroots)
		return false;
	cx x;
	cx_init(&x, c, CX_DECODE, gen);
	x.dec = out;
	/* a sink: the slow walk runs for its issues only */
	cx_out sink = {0};
	x.out = &sink;
	uint64_t iw[CODEC_MAX_WORDS];
	cx_root_words(c, out->root->bitset->size, w, iw);
	const spec_bitset *b = cx_find_bitset(&x, ri, iw);
	if (!b && x.issues) /* an ambiguity, already said */
		return false;
	if (!b) {
		/* random words often match nothing: joined, not formatted */
		char hex[CODEC_MAX_WORDS * 16 + 1];
		const piece parts[] = {PIECE("no match: "), {hex, cx_hex(&x, iw, hex, sizeof hex)}};
		issue_joined(&x, CODEC_NO_MATCH, NULL, NULL, NULL, iw[0], parts, 2);
		return false;
	}
	out->leaf = b;
	/* the compiled programs need somewhere to write the text, and are a
	 * fraction of the walk's cost */
	char scratch_text[512];
	cx_out scratch = {.buf = scratch_text, .cap = sizeof scratch_text};
	x.out = text ? text : &scratch;
	*fast = cx_display_fast(&x, b, iw);
	x.out = &sink;
	cx_scope *s = cx_push(&x, b, NULL, iw, NULL);
	if (!s)
		return false;
	if (!*fast)
		cx_display(&x, s);
	list_values(&x, s);
	cx_pop(&x);
	return out->nissues == 0;
}

bool codec_decode(const codec *c, const spec_root *root, const uint64_t *w, uint32_t gen,
                  codec_decoded *out)
{
	bool fast;
	return decode_walk(c, root, w, gen, out, NULL, &fast);
}

bool codec_decode_text(const codec *c, const spec_root *root, const uint64_t *w,
                       const codec_disasm_options *opt, codec_decoded *out, char *buf,
                       size_t len, size_t *textlen)
{
	char dummy[1];
	size_t unused;
	if (!buf || !len) {
		buf = dummy;
		len = 1;
	}
	if (!textlen)
		textlen = &unused;
	buf[0] = '\0';
	*textlen = 0;
	if (!c || !opt || !w || !out)
		return false;
	cx_out o = {.buf = buf, .cap = len};
	bool fast;
	bool ok = decode_walk(c, root, w, opt->gen, out, &o, &fast);
	/* The straight-through text is the disassembler's own (it prints
	 * with the same programs) where nothing else goes on the line: no
	 * error suffix, labels or afuc-disasm's hooks (a quiet leaf gives
	 * them nothing to act on). */
	if (fast && out->leaf && !opt->show_errors && !opt->branch_labels &&
	    (opt->no_match != CODEC_NO_MATCH_AFUC ||
	     (c->afuc_quiet && out->leaf->index < c->m->nbitsets &&
	      c->m->bitsets[out->leaf->index] == out->leaf && c->afuc_quiet[out->leaf->index]))) {
		buf[o.len < len ? o.len : len - 1] = '\0';
		*textlen = o.total;
		return ok;
	}
	root = root ? root : c->defroot;
	if (root != c->defroot) {
		*textlen = codec_disasm_root(c, root, w, opt, buf, len);
		return ok;
	}
	uint32_t u[CODEC_MAX_WORDS * 2];
	for (unsigned k = 0; k < c->instr_words && k < CODEC_MAX_WORDS * 2; k++)
		u[k] = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
	*textlen = codec_disasm_one(c, u, opt, buf, len);
	return ok;
}

/* Bitset fields followed for the digest's don't-care bits. */
#define CODEC_MAX_DEPTH_DIGEST 16u

bool codec_decode_digest(const codec *c, const spec_root *root, const uint64_t *w, uint32_t gen,
                         const spec_bitset **leaf, char *text, size_t len, uint64_t *digest)
{
	/* Mesa's instructions decode to a few dozen values; a decoding that
	 * fills this is refused rather than compared by half */
	codec_value values[512];
	codec_issue issues[16];
	codec_decoded d = {.values = values, .cap_values = 512, .issues = issues, .cap_issues = 16};
	codec_decode(c, root, w, gen, &d); /* false on any issue: some are fine here */
	if (!d.leaf || d.nvalues == d.cap_values || d.nissues == d.cap_issues)
		return false;
	/* A missing display, or a name the display prints that resolves to
	 * nothing (afuc's {XREG}), is a fact about the text, not a failed
	 * decoding: Mesa prints its error (in place of the display, or of
	 * the name), and so does the text here (with every error, as Mesa's
	 * tools print them) */
	bool errors = false;
	for (size_t k = 0; k < d.nissues; k++) {
		if (issues[k].kind == CODEC_NO_DISPLAY || issues[k].kind == CODEC_NO_FIELD)
			errors = true;
		else if (issues[k].kind != CODEC_DONTCARE_SET)
			return false;
	}
	*leaf = d.leaf;
	/* FNV-1a over what was decoded, outside don't-care bits: the fields
	 * with their owner leaf's x bits cleared, and the sub-leaves (derived
	 * values follow from those, at one generation) */
	uint64_t h = 14695981039346656037u;
	const spec_bitset *scope[CODEC_MAX_DEPTH_DIGEST + 1] = {d.leaf};
	for (size_t k = 0; k < d.nvalues; k++) {
		const codec_value *v = &values[k];
		const spec_field *f = v->field;
		if (f->kind == SPEC_DERIVED || v->depth > CODEC_MAX_DEPTH_DIGEST)
			continue;
		uint64_t raw = v->raw;
		const spec_bitset *in = scope[v->depth];
		if (f->kind == SPEC_FIELD && in && f->high - f->low < 64 && f->low / 64 == f->high / 64 &&
		    f->low / 64 < in->dontcare.nwords)
			raw &= ~(in->dontcare.w[f->low / 64] >> (f->low % 64));
		if (v->sub && v->depth < CODEC_MAX_DEPTH_DIGEST)
			scope[v->depth + 1] = v->sub;
		uint64_t parts[4] = {(uint64_t)(uintptr_t)f, raw, (uint64_t)(uintptr_t)v->sub, v->depth};
		for (int p = 0; p < 4; p++)
			for (int b = 0; b < 64; b += 8)
				h = (h ^ ((parts[p] >> b) & 0xff)) * 1099511628211u;
	}
	*digest = h;
	codec_disasm_options o = {.gen = gen, .no_match = CODEC_NO_MATCH_MESA,
	                          .show_errors = errors};
	codec_disasm_root(c, root, w, &o, text, len);
	return true;
}

/* Appends "NAME" of value k of d, with the names of the bitset fields
 * it is inside of ("OUTER.NAME"). */
static void value_path(const codec_decoded *d, size_t k, char *buf, size_t len)
{
	const codec_value *v = &d->values[k];
	size_t at = 0;
	buf[0] = '\0';
	/* the enclosing bitset fields: the last value before k one level up */
	const codec_value *chain[16];
	unsigned n = 0;
	unsigned depth = v->depth;
	for (size_t j = k; j-- > 0 && depth > 0 && n < 16;)
		if (d->values[j].depth == depth - 1) {
			chain[n++] = &d->values[j];
			depth--;
		}
	while (n--) {
		int w = snprintf(buf + at, len - at, "%s.", chain[n]->field->name);
		if (w < 0 || (size_t)w >= len - at)
			return;
		at += (size_t)w;
	}
	snprintf(buf + at, len - at, "%s", v->field->name);
}

size_t codec_describe_difference(const codec *c, const spec_root *root, const uint64_t *a,
                                 const uint64_t *b, uint32_t gen, char *buf, size_t len)
{
	codec_value va[512], vb[512];
	codec_issue ia[16], ib[16];
	codec_decoded da = {.values = va, .cap_values = 512, .issues = ia, .cap_issues = 16};
	codec_decoded db = {.values = vb, .cap_values = 512, .issues = ib, .cap_issues = 16};
	if (len)
		buf[0] = '\0';
	codec_decode(c, root, a, gen, &da);
	codec_decode(c, root, b, gen, &db);
	size_t at = 0, named = 0;
	bool cut = false;
	for (size_t k = 0; k < da.nvalues && k < db.nvalues && !cut; k++) {
		const codec_value *x = &va[k], *y = &vb[k];
		char path[256], item[600];
		int w;
		if (x->field != y->field || x->depth != y->depth) {
			value_path(&da, k, path, sizeof path);
			w = snprintf(item, sizeof item, "%s vs %s (the cases differ)", path,
			             y->field ? y->field->name : "?");
			k = da.nvalues; /* the lists part here: nothing after compares */
		} else if (x->sub != y->sub) {
			value_path(&da, k, path, sizeof path);
			w = snprintf(item, sizeof item, "%s: %s vs %s", path, x->sub ? x->sub->name : "-",
			             y->sub ? y->sub->name : "-");
			k = da.nvalues;
		} else if (x->raw != y->raw) {
			value_path(&da, k, path, sizeof path);
			w = snprintf(item, sizeof item, "%s %" PRId64 " vs %" PRId64, path, x->value,
			             y->value);
		} else {
			continue;
		}
		if (w < 0)
			continue;
		size_t need = (size_t)w + (named ? 2 : 0);
		if (at + need + 4 >= len) {
			if (at + 4 < len)
				memcpy(buf + at, "...", 4);
			cut = true;
			break;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%s", named ? ", " : "", item);
		named++;
	}
	if (!cut && da.nvalues != db.nvalues && named == 0 && len > 32) {
		snprintf(buf, len, "%zu values vs %zu", da.nvalues, db.nvalues);
		named = 1;
	}
	return named;
}
