/*
 * issue.c - the fixed parts of the issue texts a decoding raises often,
 * built at load.
 *
 * On random words most instructions that match a leaf raise two or
 * three issues: don't-care bits set, a nested field that matches no
 * leaf, an assert that fails.  Each text is a part fixed by the leaf and
 * field ("dontcare bits in add.f: "), the value in hex, and for asserts
 * another fixed part (" vs 00000000").  Joining names and numbers anew
 * for every issue cost more than printing the instruction itself; with
 * the fixed parts ready, raising one copies blocks and writes the hex.
 *
 * The table is keyed by what the raising code has at hand (the leaf, the
 * field, the display's owner), as pointers, so a look-up is a hash and a
 * compare.  Don't-care bits, raised by most random words, are not in it:
 * their entries are an array by bitset index (codec.dcit), which the
 * classifier gives, so that look-up is no more than reading the entry.
 * A key that is not in either (nothing forbids a model to raise an
 * issue this file did not foresee) is formatted the general way, with
 * the same text.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each kind's head, padded: cx_issue_itext (out.h) copies 32 bytes. */
const char codec_itext_heads[3][64] = {CODEC_HEAD_DONTCARE, CODEC_HEAD_NO_MATCH,
                                       CODEC_HEAD_ASSERT};

static uint64_t itext_hash(uint32_t kind, const void *k1, const void *k2)
{
	uint64_t h = (uint64_t)(uintptr_t)k1 * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)(uintptr_t)k2 * 0xc2b2ae3d27d4eb4full;
	h ^= kind;
	return h ^ (h >> 29);
}

const citext *cx_itext(const codec *c, uint32_t kind, const void *k1, const void *k2)
{
	if (!c->itext)
		return NULL;
	size_t mask = c->itmask;
	for (size_t i = itext_hash(kind, k1, k2) & mask;; i = (i + 1) & mask) {
		const citext *t = &c->itext[i];
		if (t->k1 == k1 && t->k2 == k2 && t->kind == kind)
			return t;
		if (!t->k1)
			return NULL;
	}
}

/* The table being built: open addressing, never more than half full. */
typedef struct itbuild {
	codec *c;
	citext *t;
	size_t mask, n;
	citext *dc;               /* per bitset index (codec.dcit) */
	bool ok;
} itbuild;

/* The empty text of every entry that has one: read often, so in lines
 * that stay in the cache. */
static const char itext_empty[CODEC_ITEXT_PAD];

/* A copy of s[0..n) that CODEC_ITEXT_PAD bytes past its end may be read
 * from (cx_issue_itext copies whole blocks). */
static const char *itext_copy(itbuild *B, const char *s, size_t n)
{
	if (!n)
		return itext_empty;
	char *d = codec_alloc(B->c, n + CODEC_ITEXT_PAD);
	if (!d) {
		B->ok = false;
		return NULL;
	}
	memcpy(d, s, n);
	memset(d + n, 0, CODEC_ITEXT_PAD);
	return d;
}

static bool itext_grow(itbuild *B)
{
	size_t cap = B->t ? 2 * (B->mask + 1) : 1024;
	citext *t = calloc(cap, sizeof *t);
	if (!t)
		return false;
	for (size_t i = 0; B->t && i <= B->mask; i++) {
		const citext *e = &B->t[i];
		if (!e->k1)
			continue;
		size_t j = itext_hash(e->kind, e->k1, e->k2) & (cap - 1);
		while (t[j].k1)
			j = (j + 1) & (cap - 1);
		t[j] = *e;
	}
	free(B->t);
	B->t = t;
	B->mask = cap - 1;
	return true;
}

/* Adds the entry for (kind, k1, k2) unless it is there: the text after
 * the kind's head and before the hex digits, and the one after them.
 * Its var is outside for now (entries move while the table grows);
 * itext_place moves it inside where it fits. */
static void itext_add(itbuild *B, uint32_t kind, const void *k1, const void *k2, const char *var,
                      size_t nvar, const char *suf, size_t nsuf)
{
	if (!B->ok || !k1)
		return;
	/* a text this long is rare, and the general way cuts it right */
	if (nvar > UINT16_MAX || nsuf > UINT16_MAX)
		return;
	if (2 * (B->n + 1) > (B->t ? B->mask + 1 : 0) && !itext_grow(B)) {
		B->ok = false;
		return;
	}
	size_t i = itext_hash(kind, k1, k2) & B->mask;
	for (; B->t[i].k1; i = (i + 1) & B->mask)
		if (B->t[i].k1 == k1 && B->t[i].k2 == k2 && B->t[i].kind == kind)
			return;
	citext e = {.k1 = k1, .k2 = k2, .kind = kind, .nvar = (uint16_t)nvar, .nsuf = (uint16_t)nsuf};
	e.var.out = itext_copy(B, var, nvar);
	e.suf = itext_copy(B, suf, nsuf);
	if (!B->ok)
		return;
	B->t[i] = e;
	B->n++;
}

/* The texts of one entry, at most ITEXT_MAX bytes each: a longer one
 * (a name of hundreds of characters) is left to the general way. */
#define ITEXT_MAX 512

static bool fits(int n)
{
	return n >= 0 && n < ITEXT_MAX;
}

/* The parts of one leaf's don't-care issue, in B->dc. */
static void leaf_dontcare(itbuild *B, const cleaf *lf)
{
	char pre[ITEXT_MAX];
	bool dc = false;
	for (size_t i = 0; i < lf->b->dontcare.nwords; i++)
		dc = dc || lf->b->dontcare.w[i];
	int n = snprintf(pre, sizeof pre, "%s: ", spec_display_name(lf->b));
	if (dc && fits(n) && lf->b->index < B->c->m->nbitsets) {
		citext *e = &B->dc[lf->b->index];
		*e = (citext){.k1 = lf->b, .kind = CODEC_DONTCARE_SET, .nvar = (uint16_t)n};
		e->var.out = itext_copy(B, pre, (size_t)n);
		e->suf = itext_copy(B, "", 0);
		if (!B->ok)
			e->k1 = NULL;
	}
}

/* The parts of one leaf's other issues: its bitset fields that match no
 * leaf, its asserts. */
static void leaf_itexts(itbuild *B, const cleaf *lf)
{
	const codec *c = B->c;
	char pre[ITEXT_MAX], suf[ITEXT_MAX];
	int n;
	/* every step of every look-up, and those of names no case defines */
	for (size_t k = 0; k <= lf->nlk; k++) {
		uint32_t s0 = k < lf->nlk ? lf->lk[k].step0 : lf->none0;
		uint32_t ns = k < lf->nlk ? lf->lk[k].nsteps : lf->nnone;
		for (uint32_t s = s0; s < s0 + ns; s++) {
			const cfield *f = lf->steps[s].field;
			if (!f || f->type != SPEC_TYPE_BITSET)
				continue;
			n = snprintf(pre, sizeof pre, "%s.%s': ", lf->name, f->f->name);
			if (fits(n))
				itext_add(B, CODEC_NO_MATCH, lf->name, f->f, pre, (size_t)n, "", 0);
		}
	}
	for (size_t i = 0; i < lf->nds; i++) {
		const cdstep *d = &lf->ds[i];
		for (uint32_t j = 0; j < d->nasserts; j++) {
			const cfield *a = lf->asserts[d->assert0 + j];
			n = snprintf(pre, sizeof pre, "%u:%u] in %s: ", a->f->low, a->f->high,
			             spec_display_name(d->owner));
			size_t ns = 4 + (size_t)c->hexw * 8;
			memcpy(suf, " vs ", 4);
			if (ns < sizeof suf)
				cx_hex_words(c, a->aval, c->hexw, suf + 4);
			if (fits(n) && ns < sizeof suf)
				itext_add(B, CODEC_ASSERT_MISMATCH, d->owner, a, pre, (size_t)n, suf, ns);
		}
	}
}

/* n entries, aligned so that each is one line, and a line more for the
 * blocks cx_issue_itext copies out of the last one; NULL: no memory. */
static citext *itext_lines(codec *c, size_t n)
{
	char *mem = codec_alloc(c, (n + 1) * sizeof(citext) + 48);
	return mem ? (citext *)(mem + (64 - (uintptr_t)mem % 64) % 64) : NULL;
}

/* Entries t[0..n) moved into the lines of the codec: var inside the
 * entry where it fits.  NULL: no memory. */
static const citext *itext_place(codec *c, const citext *t, size_t n)
{
	citext *tab = itext_lines(c, n);
	if (!tab)
		return NULL;
	memcpy(tab, t, n * sizeof *tab);
	for (size_t i = 0; i < n; i++)
		if (tab[i].k1 && tab[i].nvar <= CODEC_ITEXT_INLINE) {
			const char *out = tab[i].var.out;
			memset(tab[i].var.inl, 0, sizeof tab[i].var.inl);
			memcpy(tab[i].var.inl, out, tab[i].nvar);
		}
	return tab;
}

bool codec_build_itexts(codec *c)
{
	itbuild B = {.c = c, .ok = true};
	for (size_t i = 0; i < c->m->nbitsets && B.ok; i++)
		if (c->leaf[i])
			leaf_itexts(&B, c->leaf[i]);
	if (B.ok && B.t) {
		c->itext = itext_place(c, B.t, B.mask + 1);
		c->itmask = B.mask;
		B.ok = c->itext != NULL;
	}
	free(B.t);
	return B.ok;
}

bool codec_build_dontcare_itexts(codec *c)
{
	size_t nb = c->m->nbitsets;
	itbuild B = {.c = c, .ok = true, .dc = calloc(nb ? nb : 1, sizeof(citext))};
	B.ok = B.dc != NULL;
	for (size_t i = 0; i < nb && B.ok; i++)
		if (c->leaf[i])
			leaf_dontcare(&B, c->leaf[i]);
	if (B.ok && nb) {
		c->dcit = itext_place(c, B.dc, nb);
		B.ok = c->dcit != NULL;
	}
	free(B.dc);
	return B.ok;
}
