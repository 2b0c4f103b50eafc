/*
 * refmap_etnaviv.c - a spec codec's decoding of a Vivante GC instruction
 * read into the reference codec's ref_etnaviv_inst (src/ref/etnaviv.h)
 * through a table of the spec's field names, the reference's own decoding
 * in the same form, and their comparison: shared by
 * tests/test_isa_etnaviv.c and the fuzz target diff_etnaviv, so that a
 * renamed field is renamed once.
 */
#include "refmap_etnaviv.h"

#include <string.h>

/* isa/etnaviv.xml's names. */
const refmap_etnaviv_names refmap_etnaviv_our_names = {
	"CONDITION", "SATURATE", "DTYPE_HI", "DTYPE_LO", "DTYPE",
	"DEST_USE", "DEST", "INDEX", "REG", "MASK", "MEM_MASK",
	"ROUNDING", "SAMPLER_INDEX", "PACK_OFF", "SKIP_HP", "LOCAL", "DENORM",
	"SHIFT", "AMOUNT",
	"HALF0", "HALF1", "HALF", "DEST_HP",
	"SAMPLER", "SAMPLER_SWZ", "TARGET",
	{"S0_USE", "S1_USE", "S2_USE"}, {"S0_REG", "S1_REG", "S2_REG"}, {"S0", "S1", "S2"},
	{"S0_INDEX", "S1_INDEX", "S2_INDEX"}, {"S0_FILE", "S1_FILE", "S2_FILE"},
	"SWZ", {"X", "Y", "Z", "W"}, "NEG", "ABS", "IMM", "IMM_KIND",
};


static bool is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static unsigned width(const spec_field *f)
{
	return f->high - f->low + 1;
}

/* The meaning of a codec decoding, read through the spec's names. */
void refmap_etnaviv_from_decoded(const codec_decoded *d, const refmap_etnaviv_names *n,
                                 refmap_etnaviv_meaning *m)
{
	memset(m, 0, sizeof *m);
	if (!d->leaf)
		return;
	m->leaf = d->leaf;
	m->name = spec_display_name(d->leaf);
	ref_etnaviv_inst *in = &m->inst;
	const char *ctx = NULL;  /* the depth-0 bitset field we are inside */
	const char *ctx1 = NULL; /* the depth-1 bitset field */
	unsigned swz[4] = {0};
	bool have_swz = false;
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		const char *f = v->field->name;
		unsigned raw = (unsigned)v->raw;
		if (v->depth == 0) {
			ctx = f;
			ctx1 = NULL;
			if (is(f, n->cond)) in->cond = raw;
			else if (is(f, n->sat)) in->sat = raw;
			else if (is(f, n->type)) m->type = raw;
			else if (is(f, n->type_hi)) in->type = (in->type & 3u) | (raw & 1u) << 2;
			else if (is(f, n->type_lo)) in->type = (in->type & 4u) | (raw & 3u);
			else if (is(f, n->dst_use)) in->dst_use = raw;
			else if (is(f, n->mem_comps) && v->field->kind == SPEC_FIELD && width(v->field) == 4 &&
			         v->field->low == 23) in->dst_comps = raw;
			else if (is(f, n->rounding) && width(v->field) == 2) in->rounding = raw;
			else if (is(f, n->tex_amode) && width(v->field) == 3) in->tex_amode = raw;
			else if (is(f, n->pack)) in->pack_off = raw;
			else if (is(f, n->skphp)) in->skphp = raw;
			else if (is(f, n->local)) in->local = raw;
			else if (is(f, n->denorm)) in->denorm = raw;
			else if (is(f, n->low)) in->low_half = raw;
			else if (is(f, n->high)) in->high_half = raw;
			else if (is(f, n->thread)) m->thread = raw;
			else if (is(f, n->dst_full)) in->dst_full = raw;
			else if (is(f, n->tex_id)) in->tex_id = raw;
			else if (is(f, n->target)) in->target = raw;
			else if (is(f, n->tex_swiz)) in->tex_swiz = raw;
			else if (is(f, n->left_shift)) in->left_shift = raw;
			for (unsigned s = 0; s < 3; s++) {
				if (is(f, n->use[s])) in->src[s].use = raw;
				else if (is(f, n->reg[s])) in->src[s].reg = raw;
				else if (is(f, n->amode[s])) in->src[s].amode = raw;
				else if (is(f, n->rgroup[s])) in->src[s].rgroup = raw;
				else if (is(f, n->src[s])) in->src[s].swiz = raw & 0xff; /* refined below */
			}
			continue;
		}
		if (v->depth == 1)
			ctx1 = f;
		if (is(ctx, n->dst) && v->depth == 1) {
			if (is(f, n->dst_amode)) in->dst_amode = raw;
			else if (is(f, n->dst_reg)) in->dst_reg = raw;
			else if (is(f, n->dst_comps)) in->dst_comps = raw;
		} else if (is(ctx, n->tex_swiz) && v->depth == 1) {
			for (unsigned k = 0; k < 4; k++)
				if (is(f, n->swz[k]))
					in->tex_swiz = (in->tex_swiz & ~(3u << 2 * k)) | (raw & 3u) << 2 * k;
		} else if (is(ctx, n->left_shift) && v->depth == 1 && is(f, n->left_shift_amount)) {
			in->left_shift = raw;
		}
		for (unsigned s = 0; s < 3; s++) {
			if (!is(ctx, n->src[s]))
				continue;
			if (v->depth == 1) {
				if (is(f, n->neg)) in->src[s].neg = raw;
				else if (is(f, n->abs)) in->src[s].abs = raw;
				else if (is(f, n->imm)) {
					m->imm[s] = true;
					m->imm_raw[s] = v->raw;
				} else if (is(f, n->imm_kind)) m->imm_kind[s] = raw;
				else if (is(f, n->swiz)) in->src[s].swiz = raw;
			} else if (v->depth == 2 && is(ctx1, n->swiz)) {
				for (unsigned k = 0; k < 4; k++)
					if (is(f, n->swz[k])) {
						swz[k] = raw & 3u;
						have_swz = true;
					}
				if (have_swz)
					in->src[s].swiz = swz[0] | swz[1] << 2 | swz[2] << 4 | swz[3] << 6;
			}
		}
	}
	for (unsigned s = 0; s < 3; s++)
		if (!m->imm[s])
			m->imm_kind[s] = 0;
	/* The use bits that are patterns: a slot the leaf reads has use 1 in
	 * its match bits; read them there, the spec's own statement. */
	static const unsigned use_bit[3] = {43, 70, 99};
	for (unsigned s = 0; s < 3; s++) {
		unsigned b = use_bit[s];
		if (spec_bit(d->leaf->mask, b) && spec_bit(d->leaf->match, b))
			in->src[s].use = true;
	}
	in->opcode = (unsigned)(spec_bit(d->leaf->match, 80) << 6);
	for (unsigned b = 0; b < 6; b++)
		in->opcode |= (unsigned)spec_bit(d->leaf->match, b) << b;
	if (in->opcode == REF_ETNAVIV_ESCAPE) {
		for (unsigned b = 0; b < 9; b++)
			in->ext_op |= (unsigned)spec_bit(d->leaf->match, 100 + b) << b;
		/* the escape's slot 2 is the operation, not an operand */
		memset(&in->src[2], 0, sizeof in->src[2]);
		m->imm[2] = false;
		m->imm_kind[2] = 0;
		m->imm_raw[2] = 0;
	}
	for (size_t i = 0; i < d->nissues; i++)
		if (d->issues[i].kind == CODEC_DONTCARE_SET) {
			in->dontcare[0] = (uint32_t)d->issues[i].bits;
			in->dontcare[1] = (uint32_t)(d->issues[i].bits >> 32);
		}
}

/* The meaning the reference codec gives a word. */
ref_etnaviv_status refmap_etnaviv_from_ref(const uint32_t w[4], refmap_etnaviv_meaning *m)
{
	memset(m, 0, sizeof *m);
	ref_etnaviv_status st = ref_etnaviv_decode(w, &m->inst);
	if (st != REF_ETNAVIV_OK) {
		memset(&m->inst, 0, sizeof m->inst);
		return st;
	}
	m->name = ref_etnaviv_name(&m->inst);
	m->type = m->inst.type;
	ref_etnaviv_unit u = ref_etnaviv_unit_of(&m->inst);
	if (u == REF_ETNAVIV_ALU || u == REF_ETNAVIV_LOAD || u == REF_ETNAVIV_STORE)
		m->thread = (unsigned)m->inst.high_half << 1 | m->inst.low_half;
	/* A slot of file 7 is an immediate wherever the spec decodes the slot
	 * at all: the reference zeroes the slots an instruction does not have
	 * (and the escape's slot 2), so rgroup 7 says it. */
	for (unsigned s = 0; s < 3; s++) {
		uint32_t value;
		if (ref_etnaviv_immediate(&m->inst.src[s], &m->imm_kind[s], &value)) {
			m->imm[s] = true;
			m->imm_raw[s] = m->imm_kind[s] == 0 ? (uint64_t)value << 12 : value;
		} else {
			m->imm_kind[s] = 0;
		}
	}
	return st;
}

/* Names the first member in which a and b differ, or returns NULL. */
const char *refmap_etnaviv_diff(const refmap_etnaviv_meaning *a, const refmap_etnaviv_meaning *b,
                               const char *unmatched)
{
	if ((a->name == NULL) != (b->name == NULL))
		return unmatched;
	if (!a->name)
		return NULL;
	if (strcmp(a->name, b->name))
		return "name";
	const ref_etnaviv_inst *x = &a->inst, *y = &b->inst;
#define SAME(f) if (x->f != y->f) return #f
	SAME(opcode); SAME(ext_op); SAME(cond); SAME(sat); SAME(type);
	SAME(dst_use); SAME(dst_amode); SAME(dst_reg); SAME(dst_comps);
	SAME(rounding); SAME(pack_off); SAME(left_shift); SAME(skphp); SAME(local);
	SAME(denorm); SAME(low_half); SAME(high_half); SAME(dst_full);
	SAME(tex_id); SAME(tex_amode); SAME(tex_swiz); SAME(target);
	for (int s = 0; s < 3; s++) {
		SAME(src[s].use); SAME(src[s].reg); SAME(src[s].swiz); SAME(src[s].neg);
		SAME(src[s].abs); SAME(src[s].amode); SAME(src[s].rgroup);
	}
	for (int k = 0; k < 4; k++)
		SAME(dontcare[k]);
#undef SAME
	for (int s = 0; s < 3; s++) {
		if (a->imm[s] != b->imm[s]) return "immediate";
		if (a->imm_kind[s] != b->imm_kind[s]) return "immediate kind";
		if (a->imm_raw[s] != b->imm_raw[s]) return "immediate value";
	}
	if (a->thread != b->thread) return "thread (derived)";
	if (a->type != b->type) return "type (derived)";
	return NULL;
}

/* The first field of the decoding whose name is none of n's, or NULL: a
 * value of such a field would go uncompared (a field the reference has no
 * member for, or a renamed one). */
const char *refmap_etnaviv_unknown_field(const codec_decoded *d, const refmap_etnaviv_names *n)
{
	const char *const *p = (const char *const *)(const void *)n;
	for (size_t i = 0; i < d->nvalues; i++) {
		const char *f = d->values[i].field->name;
		size_t k = 0;
		while (k < sizeof *n / sizeof *p && !is(f, p[k]))
			k++;
		if (k == sizeof *n / sizeof *p)
			return f;
	}
	return NULL;
}
