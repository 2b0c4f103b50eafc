/*
 * plan.c - display plans: Mesa's display walk, worked out in advance.
 *
 * Displaying a scope the way Mesa does means evaluating the leaf's
 * overrides in order until one with a display holds, then resolving
 * every {NAME} of that display through the cases again (an override
 * that holds hides the default case's field of that name), and, when
 * no case defines it, through the params of the enclosing fields.
 * decode.c interprets that, caching each expression per scope; it is
 * the reference.  When every override of a leaf is pure in a variant
 * (its value depends on fields and bound params only, and evaluating it
 * cannot be observed: see analyse_purity in codec.c) and their inputs
 * are narrow, which overrides hold is a function of a few bits: one
 * table look-up.  Each distinct truth vector then fixes everything the
 * walk would find, and a plan records it: the display, whether asserts
 * must be checked, and per {NAME} the step it ends at or the param slot
 * it comes from.  The interpretation remains the fallback for anything
 * a plan does not cover (an input wider than assumed, a param that is
 * not bound, a combination whose evaluation fails).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct plan_build {
	codec *c;
	const cleaf *lf;
	int v;
	cplans ps;
	int *pw;             /* per name id: assumed width of a param (-1: unknown yet) */
	bool ok;             /* memory */
} plan_build;

/* The largest of fn(field, ctx) over every field of the model. */
static unsigned over_fields(const spec_model *m, unsigned (*fn)(const spec_field *, const void *),
                            const void *ctx)
{
	unsigned most = 0;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t ci = 0; ci < b->ncases; ci++)
			for (size_t fi = 0; fi < b->cases[ci].nfields; fi++) {
				unsigned v = fn(&b->cases[ci].fields[fi], ctx);
				if (v > most)
					most = v;
			}
	}
	return most;
}

/* The width of a field named name (a derived value without a width
 * counts as 64 bits), else 0. */
static unsigned width_if_named(const spec_field *f, const void *name)
{
	if (strcmp(f->name, name))
		return 0;
	return f->kind == SPEC_DERIVED && !f->has_width ? 64 : f->high - f->low + 1;
}

typedef struct passed_as {
	const spec_model *m;
	const char *as;
} passed_as;

/* The widest field a <param> of f passes in under the name pa->as. */
static unsigned width_passed_as(const spec_field *f, const void *ctx)
{
	const passed_as *pa = ctx;
	unsigned w = 0;
	for (size_t pi = 0; pi < f->nparams; pi++) {
		const spec_param *p = &f->params[pi];
		if (strcmp(p->as ? p->as : p->name, pa->as))
			continue;
		unsigned fw = over_fields(pa->m, width_if_named, p->name);
		if (fw > w)
			w = fw;
	}
	return w;
}

/* The width a param named `as` inside a sub-bitset is assumed to have:
 * the widest field any bitset field's <param> passes in under that
 * name.  Only an assumption: a value that does not fit at run time
 * sends the scope to the interpretation. */
static unsigned param_width(plan_build *P, uint32_t as)
{
	if (P->pw[as] < 0) {
		passed_as pa = {P->c->m, P->c->names[as]};
		P->pw[as] = (int)over_fields(P->c->m, width_passed_as, &pa);
	}
	return (unsigned)P->pw[as];
}

/* The input for own bits low..low+width-1 or param slot (-1 when there
 * is no room), added once. */
static int add_input(plan_build *P, int slot, unsigned low, unsigned width)
{
	cplans *ps = &P->ps;
	for (unsigned i = 0; i < ps->nin; i++)
		if (ps->in[i].slot == slot && (slot >= 0 || (ps->in[i].low == low &&
		                                              ps->in[i].width == width)))
			return (int)i;
	if (ps->nin == CODEC_PLAN_INPUTS)
		return -1;
	ps->in[ps->nin] = (cplan_in){slot, low, width};
	return (int)ps->nin++;
}

/* Gathers the inputs of expression k (through the pure derived values it
 * reads); false when it reads anything else or uses the generation. */
static bool collect_inputs(plan_build *P, int k, unsigned depth)
{
	const cleaf *lf = P->lf;
	const cexpr *ce = &lf->ex[k];
	if (depth > 32 || !ce->pure[P->v] || !ce->prog || spec_expr_uses_gpu_id(ce->e))
		return false;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		const cref *r = &lf->refs[ce->ref0 + i];
		int st = r->sstep[P->v];
		if (st == -2) {
			if (r->pslot < 0 || (unsigned)r->pslot >= lf->npn ||
			    add_input(P, r->pslot, 0, param_width(P, r->name)) < 0)
				return false;
		} else if (st >= 0) {
			const cstep *s = &lf->steps[st];
			const spec_field *f = s->field->f;
			if (f->kind == SPEC_DERIVED) {
				if (s->fex < 0 || !collect_inputs(P, s->fex, depth + 1))
					return false;
			} else if (f->kind != SPEC_FIELD || f->high - f->low + 1 > 64 ||
			           add_input(P, -1, f->low, f->high - f->low + 1) < 0) {
				return false;
			}
		} else {
			return false;
		}
	}
	return true;
}

/* Evaluates expression k over the inputs' values. */
static bool eval_over(const plan_build *P, int k, const uint64_t *in, unsigned depth,
                      int64_t *out)
{
	const cleaf *lf = P->lf;
	const cexpr *ce = &lf->ex[k];
	int64_t vals[64];
	if (depth > 32 || ce->nrefs > 64 || !ce->prog)
		return false;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		const cref *r = &lf->refs[ce->ref0 + i];
		int st = r->sstep[P->v], idx = -1;
		if (st >= 0 && lf->steps[st].field->f->kind == SPEC_DERIVED) {
			if (!eval_over(P, lf->steps[st].fex, in, depth + 1, &vals[i]))
				return false;
			continue;
		}
		for (unsigned j = 0; j < P->ps.nin && idx < 0; j++) {
			const cplan_in *pi = &P->ps.in[j];
			if (st == -2 ? pi->slot == r->pslot
			             : (pi->slot < 0 && pi->low == lf->steps[st].field->f->low &&
			                pi->width == lf->steps[st].field->f->high -
			                                 lf->steps[st].field->f->low + 1))
				idx = (int)j;
		}
		if (idx < 0)
			return false;
		vals[i] = (int64_t)in[idx];
	}
	return codec_vm_run(ce->prog, vals, 0, out);
}

static bool holds(const cleaf *lf, uint64_t truth, int cex)
{
	return cex < 0 || ((truth >> lf->ex[cex].case_bit) & 1u);
}

/* Where {NAME} ends for this truth vector: as find_field walks. */
static cpop resolve_op(const cleaf *lf, uint64_t truth, const cop *op)
{
	uint32_t j0 = op->lk < 0 ? lf->none0 : lf->lk[op->lk].step0;
	uint32_t n = op->lk < 0 ? lf->nnone : lf->lk[op->lk].nsteps;
	for (uint32_t j = j0; j < j0 + n; j++) {
		const cstep *st = &lf->steps[j];
		if (!holds(lf, truth, st->cex))
			continue;
		if (st->field)
			return (cpop){.kind = PO_STEP, .arg = (int32_t)j};
	}
	for (unsigned j = 0; j < lf->nbn; j++)
		if (lf->pnames[j] == op->name)
			return (cpop){.kind = PO_PARAM, .arg = (int32_t)j};
	return (cpop){.kind = PO_SLOW};
}

/* A step op that prints a plain field of the scope as one of the common
 * types, unaligned, from one 64-bit word: printed without display_value's
 * general path (the text is the same: tests compare with the plain
 * interpretation). */
static cpop specialise(const cleaf *lf, const cop *op, cpop po)
{
	if (po.kind != PO_STEP || op->align)
		return po;
	const cfield *f = lf->steps[po.arg].field;
	const spec_field *sf = f->f;
	if (sf->kind != SPEC_FIELD || sf->low / 64 != sf->high / 64)
		return po;
	int kind = -1;
	switch (f->type) {
	case SPEC_TYPE_BOOL:
	case SPEC_TYPE_BOOL_INV:
		if (sf->display && !f->disp_nl)
			kind = PO_BOOL;
		break;
	case SPEC_TYPE_ENUM:
		if (f->en && !f->en->nl && f->width <= 8)
			kind = PO_ENUM;
		break;
	case SPEC_TYPE_UINT: kind = PO_UINT; break;
	case SPEC_TYPE_HEX: kind = PO_HEX; break;
	default: break;
	}
	if (kind < 0)
		return po;
	po.kind = (uint8_t)kind;
	po.word = (uint8_t)(sf->low / 64);
	po.shift = (uint8_t)(sf->low % 64);
	po.mask = f->width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << f->width) - 1;
	return po;
}

/* The plan of one truth vector: false (no plan) when no case displays. */
static bool make_plan(plan_build *P, uint64_t truth, cplan *pl)
{
	const cleaf *lf = P->lf;
	pl->truth = truth;
	pl->ds = -1;
	pl->asserts = false;
	for (size_t i = 0; i < lf->nds; i++) {
		const cdstep *d = &lf->ds[i];
		if (!holds(lf, truth, d->cex))
			continue;
		pl->asserts |= d->nasserts > 0;
		if (d->op0 >= 0) {
			pl->ds = (int)i;
			break;
		}
	}
	if (pl->ds < 0)
		return false;
	const cdstep *d = &lf->ds[pl->ds];
	cpop *ops = codec_alloc(P->c, (d->nops + 1) * sizeof *ops);
	if (!ops) {
		P->ok = false;
		return false;
	}
	for (uint32_t i = 0; i < d->nops; i++) {
		const cop *op = &lf->ops[d->op0 + (int)i];
		switch (op->kind) {
		case COP_LIT: ops[i].kind = PO_LIT; break;
		case COP_NAME: ops[i].kind = PO_NAME; break;
		case COP_ALIGN: ops[i].kind = PO_ALIGN; break;
		default: ops[i] = specialise(lf, op, resolve_op(lf, truth, op)); break;
		}
	}
	pl->ops = ops;
	return true;
}

static const cplans *build_one(plan_build *P)
{
	const cleaf *lf = P->lf;
	memset(&P->ps, 0, sizeof P->ps);
	if (lf->nov > 64)
		return NULL;
	int cases[64];
	unsigned nc = 0;
	for (size_t k = 0; k < lf->nex; k++) {
		if (!lf->ex[k].is_case)
			continue;
		if (!collect_inputs(P, (int)k, 0))
			return NULL;
		cases[nc++] = (int)k;
	}
	/* Own fields take their widths; params share what is left (a value
	 * computed elsewhere may be declared 64 bits wide and still be a
	 * count of 0..3: values that do not fit are checked at run time). */
	unsigned bits = 0, nparam = 0;
	for (unsigned i = 0; i < P->ps.nin; i++) {
		if (P->ps.in[i].slot < 0)
			bits += P->ps.in[i].width;
		else
			nparam++;
	}
	if (bits + nparam > CODEC_PLAN_BITS)
		return NULL;
	for (unsigned i = 0; i < P->ps.nin; i++) {
		cplan_in *in = &P->ps.in[i];
		if (in->slot < 0)
			continue;
		unsigned share = (CODEC_PLAN_BITS - bits) / nparam--;
		if (in->width > share)
			in->width = share;
		if (!in->width)
			in->width = 1;
		bits += in->width;
	}
	size_t nkeys = (size_t)1 << bits;
	uint8_t *tab = nc ? codec_alloc(P->c, nkeys) : NULL;
	cplan plans[255];
	unsigned np = 0;
	if (nc && !tab) {
		P->ok = false;
		return NULL;
	}
	for (size_t key = 0; key < (nc ? nkeys : 1); key++) {
		uint64_t in[CODEC_PLAN_INPUTS];
		unsigned sh = 0;
		for (unsigned i = 0; i < P->ps.nin; i++) {
			in[i] = (key >> sh) & (((uint64_t)1 << P->ps.in[i].width) - 1);
			sh += P->ps.in[i].width;
		}
		uint64_t truth = 0;
		bool ok = true;
		for (unsigned i = 0; i < nc && ok; i++) {
			int64_t r;
			ok = eval_over(P, cases[i], in, 0, &r);
			if (ok && r)
				truth |= (uint64_t)1 << lf->ex[cases[i]].case_bit;
		}
		unsigned idx = 0;
		while (idx < np && plans[idx].truth != truth)
			idx++;
		if (ok && idx == np) {
			if (np == 255 || !make_plan(P, truth, &plans[np]))
				ok = false;
			else
				np++;
		}
		if (!nc) {
			if (!ok)
				return NULL;
			break;
		}
		tab[key] = ok ? (uint8_t)idx : 0xff;
	}
	if (!np)
		return NULL;
	cplans *ps = codec_alloc(P->c, sizeof *ps);
	cplan *pl = codec_alloc(P->c, np * sizeof *pl);
	if (!ps || !pl) {
		P->ok = false;
		return NULL;
	}
	memcpy(pl, plans, np * sizeof *pl);
	*ps = P->ps;
	ps->tab = tab;
	ps->plans = pl;
	ps->nplans = np;
	return ps;
}

bool codec_build_plans(codec *c)
{
	plan_build P = {.c = c, .ok = true};
	P.pw = malloc((c->nnames + 1) * sizeof *P.pw);
	if (!P.pw)
		return false;
	for (size_t i = 0; i <= c->nnames; i++)
		P.pw[i] = -1;
	for (size_t i = 0; i < c->m->nbitsets && P.ok; i++) {
		cleaf *lf = (cleaf *)c->leaf[i];
		if (!lf || !lf->ex)
			continue;
		P.lf = lf;
		for (int v = 0; v < 2 && P.ok; v++) {
			if (v == 1 && !lf->v1)
				continue;
			P.v = v;
			lf->plan[v] = build_one(&P);
		}
	}
	free(P.pw);
	return P.ok;
}
