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

/* Which overrides hold for every input combination, kept for the next
 * leaf with the same overrides over the same inputs (ir3's mov-* leaves
 * share their parent's). */
typedef struct truth_memo {
	char *sig;
	size_t siglen;
	uint64_t *res;       /* per key: bit i, case i holds; TRUTH_FAILED: evaluation failed */
} truth_memo;

#define TRUTH_FAILED UINT64_MAX

typedef struct plan_build {
	codec *c;
	const cleaf *lf;
	int v;
	cplans ps;
	int *pw;             /* per name id: assumed width of a param (-1: unknown yet) */
	bool ok;             /* memory */
	truth_memo *tm;
	size_t ntm, captm;
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
		if (ps->in[i].slot == slot && (slot != -1 || (ps->in[i].low == low &&
		                                              ps->in[i].width == width)))
			return (int)i;
	if (ps->nin == CODEC_PLAN_INPUTS)
		return -1;
	ps->in[ps->nin] = (cplan_in){slot, low, width};
	return (int)ps->nin++;
}

static bool is_compare(int op)
{
	return op >= VI_LT && op <= VI_NE;
}

/* Adds generation bound b (kept sorted); false when there are too many. */
static bool add_gbound(cplans *ps, int64_t b)
{
	if (b <= 0 || b > (int64_t)UINT32_MAX)
		return true; /* every generation is on the same side */
	unsigned i = 0;
	while (i < ps->ngb && ps->gbound[i] < (uint32_t)b)
		i++;
	if (i < ps->ngb && ps->gbound[i] == (uint32_t)b)
		return true;
	if (ps->ngb == CODEC_PLAN_GENS)
		return false;
	memmove(&ps->gbound[i + 1], &ps->gbound[i], (ps->ngb - i) * sizeof ps->gbound[0]);
	ps->gbound[i] = (uint32_t)b;
	ps->ngb++;
	return true;
}

/* The generation as an input: only when every use of it in program p is
 * a comparison with a constant, so that between the bounds (each
 * constant and the next number) the program cannot tell generations
 * apart. */
static bool gen_bounds(plan_build *P, const cins *p)
{
	size_t n = 0;
	while (p[n].op != VI_END)
		n++;
	for (size_t i = 0; i < n; i++) {
		if (p[i].op != VI_GPU)
			continue;
		size_t c, cmp;
		if (p[i + 1].op == VI_CONST && is_compare(p[i + 2].op)) {
			c = i + 1;
			cmp = i + 2;
		} else if (i > 0 && p[i - 1].op == VI_CONST && is_compare(p[i + 1].op)) {
			c = i - 1;
			cmp = i + 1;
		} else {
			return false;
		}
		/* no jump may land inside the comparison */
		for (size_t j = 0; j < n; j++) {
			int op = p[j].op;
			if ((op == VI_SCAND || op == VI_SCOR || op == VI_JZ || op == VI_JMP) &&
			    (size_t)p[j].arg > (c < i ? c : i) && (size_t)p[j].arg <= cmp)
				return false;
		}
		if (!add_gbound(&P->ps, p[c].imm) || !add_gbound(&P->ps, p[c].imm + 1))
			return false;
	}
	return true;
}

/* Gathers the inputs of expression k (through the pure derived values it
 * reads); false when it reads anything else or uses the generation in a
 * way that is not a comparison with a constant. */
static bool collect_inputs(plan_build *P, int k, unsigned depth)
{
	const cleaf *lf = P->lf;
	const cexpr *ce = &lf->ex[k];
	if (depth > 32 || !ce->pure[P->v] || !ce->prog)
		return false;
	if (spec_expr_uses_gpu_id(ce->e)) {
		if (!gen_bounds(P, ce->prog) || add_input(P, -2, 0, 0) < 0)
			return false;
	}
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
/* The input reference r reads: its index; -2 when it reads a derived
 * value; -1 when nothing. */
static int ref_input(const plan_build *P, const cref *r)
{
	const cleaf *lf = P->lf;
	int st = r->sstep[P->v];
	if (st >= 0 && lf->steps[st].field->f->kind == SPEC_DERIVED)
		return -2;
	if (st == -1)
		return -1;
	for (unsigned j = 0; j < P->ps.nin; j++) {
		const cplan_in *pi = &P->ps.in[j];
		if (st == -2 ? pi->slot == r->pslot
		             : (pi->slot == -1 && pi->low == lf->steps[st].field->f->low &&
		                pi->width == lf->steps[st].field->f->high - lf->steps[st].field->f->low + 1))
			return (int)j;
	}
	return -1;
}

/* Evaluates expression k over the inputs' values. */
static bool eval_over(const plan_build *P, int k, const uint64_t *in, int64_t gpu,
                      unsigned depth, int64_t *out)
{
	const cleaf *lf = P->lf;
	const cexpr *ce = &lf->ex[k];
	int64_t vals[64];
	if (depth > 32 || ce->nrefs > 64 || !ce->prog)
		return false;
	for (uint32_t i = 0; i < ce->nrefs; i++) {
		const cref *r = &lf->refs[ce->ref0 + i];
		int idx = ref_input(P, r);
		if (idx == -2) {
			if (!eval_over(P, lf->steps[r->sstep[P->v]].fex, in, gpu, depth + 1, &vals[i]))
				return false;
			continue;
		}
		if (idx < 0)
			return false;
		vals[i] = (int64_t)in[idx];
	}
	return codec_vm_run(ce->prog, vals, gpu, out);
}

/* What the truth of cases[0..nc) over the inputs depends on, or 0 when
 * a case reads a derived value (not worth describing). */
static size_t truth_signature(const plan_build *P, const int *cases, unsigned nc, char *sig,
                              size_t cap)
{
	size_t n = 0;
	CODEC_SIG_PUT(sig, n, cap, P->ps.nin);
	for (unsigned i = 0; i < P->ps.nin; i++)
		CODEC_SIG_PUT(sig, n, cap, P->ps.in[i]);
	CODEC_SIG_PUT(sig, n, cap, P->ps.ngb);
	for (unsigned i = 0; i < P->ps.ngb; i++)
		CODEC_SIG_PUT(sig, n, cap, P->ps.gbound[i]);
	CODEC_SIG_PUT(sig, n, cap, nc);
	for (unsigned i = 0; i < nc; i++) {
		const cexpr *ce = &P->lf->ex[cases[i]];
		CODEC_SIG_PUT(sig, n, cap, ce->e);
		for (uint32_t j = 0; j < ce->nrefs; j++) {
			int idx = ref_input(P, &P->lf->refs[ce->ref0 + j]);
			if (idx < 0)
				return 0;
			CODEC_SIG_PUT(sig, n, cap, idx);
		}
	}
	return n;
}

/* Which of cases[0..nc) hold, per key (memoised by truth_signature). */
static const uint64_t *case_results(plan_build *P, const int *cases, unsigned nc, size_t nkeys)
{
	char sig[1024];
	size_t siglen = truth_signature(P, cases, nc, sig, sizeof sig);
	if (siglen > sizeof sig)
		siglen = 0; /* too long to describe: not remembered */
	for (size_t i = 0; siglen && i < P->ntm; i++)
		if (P->tm[i].siglen == siglen && !memcmp(P->tm[i].sig, sig, siglen))
			return P->tm[i].res;
	if (P->ntm == P->captm) {
		size_t cap = P->captm ? 2 * P->captm : 16;
		truth_memo *t = realloc(P->tm, cap * sizeof *t);
		if (!t) {
			P->ok = false;
			return NULL;
		}
		P->tm = t;
		P->captm = cap;
	}
	uint64_t *res = malloc(nkeys * sizeof *res);
	char *copy = malloc(siglen + 1);
	if (!res || !copy) {
		free(res);
		free(copy);
		P->ok = false;
		return NULL;
	}
	memcpy(copy, sig, siglen);
	/* kept (and freed) with the rest; siglen 0 never matches */
	P->tm[P->ntm++] = (truth_memo){copy, siglen, res};
	/* each case's references as inputs, worked out once (a case that
	 * reads a derived value goes through eval_over) */
	int map[64][64];
	bool direct[64];
	for (unsigned i = 0; i < nc; i++) {
		const cexpr *ce = &P->lf->ex[cases[i]];
		direct[i] = ce->nrefs <= 64 && ce->prog;
		for (uint32_t j = 0; direct[i] && j < ce->nrefs; j++) {
			map[i][j] = ref_input(P, &P->lf->refs[ce->ref0 + j]);
			direct[i] = map[i][j] >= 0;
		}
	}
	for (size_t key = 0; key < nkeys; key++) {
		uint64_t in[CODEC_PLAN_INPUTS];
		unsigned sh = 0;
		for (unsigned i = 0; i < P->ps.nin; i++) {
			in[i] = (key >> sh) & (((uint64_t)1 << P->ps.in[i].width) - 1);
			sh += P->ps.in[i].width;
		}
		/* a generation of the class the key names */
		int64_t gpu = 0;
		for (unsigned i = 0; i < P->ps.nin; i++)
			if (P->ps.in[i].slot == -2 && in[i])
				gpu = in[i] <= P->ps.ngb ? (int64_t)P->ps.gbound[in[i] - 1] : -1;
		uint64_t r = 0;
		bool ok = gpu >= 0;
		for (unsigned i = 0; i < nc && ok; i++) {
			int64_t v;
			if (direct[i]) {
				const cexpr *ce = &P->lf->ex[cases[i]];
				int64_t vals[64];
				for (uint32_t j = 0; j < ce->nrefs; j++)
					vals[j] = (int64_t)in[map[i][j]];
				ok = codec_vm_run(ce->prog, vals, gpu, &v);
			} else {
				ok = eval_over(P, cases[i], in, gpu, 0, &v);
			}
			if (ok && v)
				r |= (uint64_t)1 << i;
		}
		res[key] = ok ? r : TRUTH_FAILED;
	}
	return res;
}

static bool holds(const cleaf *lf, uint64_t truth, int cex)
{
	return cex < 0 || ((truth >> lf->ex[cex].case_bit) & 1u);
}

/* Where a name (look-up lk) ends for this truth vector: as find_field
 * walks, then the scope's bound params. */
static cpop resolve_name(const cleaf *lf, uint64_t truth, uint32_t name, int lk)
{
	uint32_t j0, n;
	cx_lookup_steps(lf, lk, &j0, &n);
	for (uint32_t j = j0; j < j0 + n; j++) {
		const cstep *st = &lf->steps[j];
		if (!holds(lf, truth, st->cex))
			continue;
		if (st->field)
			return (cpop){.kind = PO_STEP, .arg = (int32_t)j};
	}
	for (unsigned j = 0; j < lf->nbn; j++)
		if (lf->pnames[j] == name)
			return (cpop){.kind = PO_PARAM, .arg = (int32_t)j};
	return (cpop){.kind = PO_SLOW};
}

static cpop resolve_op(const cleaf *lf, uint64_t truth, const cop *op)
{
	return resolve_name(lf, truth, op->name, op->lk);
}

/* A bitset field's params, each resolved as the field's scope would
 * find it here (so the nested scope's params are known: disasm.c). */
static bool param_sources(plan_build *P, uint64_t truth, cpop *po)
{
	const cleaf *lf = P->lf;
	const cstep *st = &lf->steps[po->arg];
	const cfield *f = st->field;
	if (f->type != SPEC_TYPE_BITSET || !f->nparams || !st->plk)
		return true;
	cpop *src = codec_alloc(P->c, f->nparams * sizeof *src);
	if (!src)
		return false;
	for (size_t i = 0; i < f->nparams; i++)
		src[i] = resolve_name(lf, truth, f->params[i].name, st->plk[i]);
	po->psrc = src;
	return true;
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

/* The value-list steps listed under truth (list_values' choice, made
 * once): NULL with P->ok when a plan cannot fix them.  Linear in the
 * leaf's steps: each step's name is known by the first step of it, and a
 * step has a later one of its name when some step's prev_same is it. */
static const uint16_t *plan_values(plan_build *P, uint64_t truth, uint32_t *n)
{
	const cleaf *lf = P->lf;
	*n = 0;
	if (lf->nvs > CODEC_LIST_STEPS)
		return NULL;
	uint16_t first[CODEC_LIST_STEPS], steps[CODEC_LIST_STEPS];
	bool later[CODEC_LIST_STEPS], listed[CODEC_LIST_STEPS];
	for (size_t i = 0; i < lf->nvs; i++) {
		int p = lf->vs[i].prev_same;
		first[i] = p >= 0 ? first[p] : (uint16_t)i;
		later[i] = listed[i] = false;
		if (p >= 0)
			later[p] = true;
	}
	uint32_t ns = 0, skip_case = 0;
	for (size_t i = 0; i < lf->nvs; i++) {
		const cvstep *v = &lf->vs[i];
		if (v->case_id == skip_case)
			continue;
		if (!holds(lf, truth, v->cex)) {
			skip_case = v->case_id;
			continue;
		}
		if (listed[first[i]])
			continue; /* a step of its name was listed before */
		/* a derived value left out when it fails lets a later step of
		 * its name be listed: that depends on the words */
		if (v->derived && later[i])
			return NULL;
		listed[first[i]] = true;
		steps[ns++] = (uint16_t)i;
	}
	uint16_t *out = codec_alloc(P->c, (ns ? ns : 1) * sizeof *out);
	if (!out) {
		P->ok = false;
		return NULL;
	}
	memcpy(out, steps, ns * sizeof *out);
	*n = ns;
	return out;
}

/* The plan of one truth vector: false (no plan) when no case displays. */
static bool make_plan(plan_build *P, uint64_t truth, cplan *pl)
{
	const cleaf *lf = P->lf;
	memset(pl, 0, sizeof *pl);
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
		default:
			ops[i] = specialise(lf, op, resolve_op(lf, truth, op));
			if (ops[i].kind == PO_STEP && !param_sources(P, truth, &ops[i])) {
				P->ok = false;
				return false;
			}
			break;
		}
	}
	pl->ops = ops;
	pl->vlist = plan_values(P, truth, &pl->nvlist);
	return P->ok;
}

/* Plans for a leaf whose overrides read too many bits for a table (ir3's
 * #cat1-immed-src compares a 32-bit immediate): one per combination of
 * which of them hold; the fast printer (fast.c) evaluates them to
 * choose, as find_display would.  The interpretation does not use
 * these. */
static const cplans *build_evaluated(plan_build *P, const int *cases, unsigned nc)
{
	const cleaf *lf = P->lf;
	if (!nc || nc > CODEC_PLAN_EVAL)
		return NULL;
	cplans *ps = codec_alloc(P->c, sizeof *ps);
	int *cs = codec_alloc(P->c, nc * sizeof *cs);
	cplan *pl = codec_alloc(P->c, ((size_t)1 << nc) * sizeof *pl);
	if (!ps || !cs || !pl) {
		P->ok = false;
		return NULL;
	}
	/* in the order find_display evaluates them (fast.c evaluates them
	 * so): the display steps' first, then any other */
	unsigned n = 0;
	for (size_t d = 0; d < lf->nds; d++)
		for (unsigned i = 0; i < nc; i++)
			if (lf->ds[d].cex == cases[i]) {
				unsigned j = 0;
				while (j < n && cs[j] != cases[i])
					j++;
				if (j == n)
					cs[n++] = cases[i];
			}
	for (unsigned i = 0; i < nc; i++) {
		unsigned j = 0;
		while (j < n && cs[j] != cases[i])
			j++;
		if (j == n)
			cs[n++] = cases[i];
	}
	unsigned np = 0;
	for (unsigned comb = 0; comb < (1u << nc); comb++) {
		uint64_t truth = 0;
		for (unsigned i = 0; i < nc; i++)
			if ((comb >> i) & 1u)
				truth |= (uint64_t)1 << lf->ex[cs[i]].case_bit;
		ps->eidx[comb] = 0xff;
		if (make_plan(P, truth, &pl[np]))
			ps->eidx[comb] = (uint8_t)np++;
		else if (!P->ok)
			return NULL;
	}
	if (!np)
		return NULL;
	ps->eval = true;
	ps->ncase = nc;
	ps->cases = cs;
	ps->plans = pl;
	ps->nplans = np;
	return ps;
}

static const cplans *build_one(plan_build *P)
{
	const cleaf *lf = P->lf;
	memset(&P->ps, 0, sizeof P->ps);
	if (lf->nov > 63) /* TRUTH_FAILED must not be a truth vector */
		return NULL;
	int cases[64];
	unsigned nc = 0;
	bool narrow = true, compiled = true;
	for (size_t k = 0; k < lf->nex; k++) {
		if (!lf->ex[k].is_case)
			continue;
		compiled &= lf->ex[k].prog != NULL;
		if (narrow && !collect_inputs(P, (int)k, 0))
			narrow = false;
		cases[nc++] = (int)k;
	}
	if (!narrow)
		return compiled ? build_evaluated(P, cases, nc) : NULL;
	for (unsigned i = 0; i < P->ps.nin; i++)
		if (P->ps.in[i].slot == -2)
			while ((1u << P->ps.in[i].width) <= P->ps.ngb)
				P->ps.in[i].width++;
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
		return compiled ? build_evaluated(P, cases, nc) : NULL;
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
	/* nc < 64: see lf->nov above */
	const uint64_t *res = nc ? case_results(P, cases, nc, nkeys) : NULL;
	if (nc && !res)
		return NULL;
	for (size_t key = 0; key < (nc ? nkeys : 1); key++) {
		uint64_t truth = 0;
		bool ok = !nc || res[key] != TRUTH_FAILED;
		for (unsigned i = 0; i < nc && ok; i++)
			if ((res[key] >> i) & 1u)
				truth |= (uint64_t)1 << lf->ex[cases[i]].case_bit;
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
	for (size_t i = 0; i < P.ntm; i++) {
		free(P.tm[i].sig);
		free(P.tm[i].res);
	}
	free(P.tm);
	return P.ok;
}
