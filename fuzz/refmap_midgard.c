/*
 * refmap_midgard.c - the reference codec's midgard_bundle (src/ref/midgard.h)
 * read as isa/midgard.xml's field values and leaves: shared by
 * tests/test_isa_midgard.c and the fuzz target diff_midgard, so that a
 * renamed field is renamed once.
 */
#include "refmap_midgard.h"

#include <stdio.h>
#include <string.h>

const char *const refmap_midgard_root_names[MIDGARD_ROOT_COUNT] = {
	"#tag", "#alu-control", "#reg-word", "#vector-alu", "#scalar-alu",
	"#branch-compact", "#branch-extended", "#load-store", "#texture",
};

static int64_t lane(bool full, unsigned comp)
{
	return full ? (int64_t)(comp >> 1) : 8 + (int64_t)comp;
}

#define F(str, val)                                                            \
	do {                                                                   \
		if (!strcmp(name, str)) {                                      \
			*v = (int64_t)(val);                                   \
			return true;                                           \
		}                                                              \
	} while (0)

static bool expect_ldst(const midgard_ldst_op *l, const char *name, int64_t *v)
{
	F("REG", l->reg);
	F("MASK", l->mask);
	F("SWIZZLE", l->swizzle);
	F("ARG_COMP", l->arg_comp);
	F("ARG_REG", l->arg_reg);
	F("BITSIZE_TOGGLE", l->bitsize_toggle);
	F("INDEX_FORMAT", l->index_format);
	F("INDEX_COMP", l->index_comp);
	F("INDEX_REG", l->index_reg);
	F("INDEX_SHIFT", l->index_shift);
	F("OFFSET", l->offset);
	return false;
}

static bool expect_texture(const midgard_texture_bundle *t, const char *name, int64_t *v)
{
	F("OUT_OF_ORDER", t->out_of_order);
	if (t->barrier) {
		F("CONT", t->cont);
		F("LAST", t->last);
		return false;
	}
	F("MODE", t->mode);
	F("EXEC", t->exec);
	F("FORMAT", t->format);
	F("SAMPLER_REG", t->sampler_reg);
	F("TEXTURE_REG", t->texture_reg);
	F("LOD_REG", t->lod_reg);
	F("OFFSET_REG", t->offset_reg);
	F("IN_FULL", t->in_full);
	F("IN_SELECT", t->in_select);
	F("IN_UPPER", t->in_upper);
	F("IN_SWIZZLE", t->in_swizzle);
	F("OUT_FULL", t->out_full);
	F("SAMPLER_TYPE", t->sampler_type);
	F("OUT_SELECT", t->out_select);
	F("OUT_UPPER", t->out_upper);
	F("MASK", t->mask);
	F("OUTMOD", t->outmod);
	F("SWIZZLE", t->swizzle);
	F("OFFSET", t->offset);
	F("BIAS", t->bias);
	F("BIAS_INT", t->bias_int);
	F("SAMPLER_HANDLE", t->sampler_handle);
	F("TEXTURE_HANDLE", t->texture_handle);
	F("IN_REG", 28 + t->in_select);
	F("OUT_REG", 28 + t->out_select);
	return false;
}

/* The reference's value of field `name` of the part; word is the
 * enclosing bitset field (WORD1/WORD2 of a load/store bundle) or NULL. */
bool refmap_midgard_expect(const refmap_midgard_part *pr, const char *word, const char *name,
                           int64_t *v)
{
	const midgard_bundle *b = pr->b;
	const midgard_alu_bundle *a = &b->u.alu;
	const midgard_alu_unit *un = pr->p && pr->p->unit >= 0 ? &a->unit[pr->p->unit] : NULL;
	switch (pr->root) {
	case MIDGARD_ROOT_TAG:
		F("NEXT_TAG", b->next_tag);
		return false;
	case MIDGARD_ROOT_CONTROL:
		F("NEXT_TAG", b->next_tag);
		F("VMUL", a->unit[MIDGARD_UNIT_VMUL].enabled);
		F("SADD", a->unit[MIDGARD_UNIT_SADD].enabled);
		F("VADD", a->unit[MIDGARD_UNIT_VADD].enabled);
		F("SMUL", a->unit[MIDGARD_UNIT_SMUL].enabled);
		F("VLUT", a->unit[MIDGARD_UNIT_VLUT].enabled);
		F("BR_COMPACT", a->has_compact);
		F("BR_EXTENDED", a->has_extended);
		return false;
	case MIDGARD_ROOT_REG:
		F("SRC1", un->reg.src1_reg);
		F("SRC2", un->reg.src2_reg);
		F("OUT", un->reg.out_reg);
		F("SRC2_IMM", un->reg.src2_imm);
		F("IMM_HI", midgard_unit_imm(un, (midgard_unit)pr->p->unit) & 0xF800u);
		return false;
	case MIDGARD_ROOT_VECTOR: {
		const midgard_vector_alu *x = &un->vec;
		F("REG_MODE", x->reg_mode);
		F("SRC1_MOD", x->src1.mod);
		F("SRC1_EXPAND", x->src1.expand);
		F("SRC1_SWIZZLE", x->src1.swizzle);
		F("SRC2_MOD", x->src2.mod);
		F("SRC2_EXPAND", x->src2.expand);
		F("SRC2_SWIZZLE", x->src2.swizzle);
		F("SHRINK", x->shrink_mode);
		F("OUTMOD", x->outmod);
		F("MASK", x->mask);
		F("IMM_LO", midgard_unit_imm(un, (midgard_unit)pr->p->unit) & 0x7FFu);
		return false;
	}
	case MIDGARD_ROOT_SCALAR: {
		const midgard_scalar_alu *x = &un->sca;
		F("SRC1_MOD", x->src1.mod);
		F("SRC1_FULL", x->src1.full);
		F("SRC1_COMPONENT", x->src1.component);
		F("SRC2_MOD", x->src2.mod);
		F("SRC2_FULL", x->src2.full);
		F("SRC2_COMPONENT", x->src2.component);
		F("SRC2_IMM_BITS", x->src2_imm_bits);
		F("OUTMOD", x->outmod);
		F("OUTPUT_FULL", x->output_full);
		F("OUTPUT_COMPONENT", x->output_component);
		F("SRC1_LANE", lane(x->src1.full, x->src1.component));
		F("SRC2_LANE", lane(x->src2.full, x->src2.component));
		F("OUTPUT_LANE", lane(x->output_full, x->output_component));
		F("OUTPUT_BITS", x->output_full ? 32 : 16);
		F("IMM_LO", midgard_unit_imm(un, (midgard_unit)pr->p->unit) & 0x7FFu);
		return false;
	}
	case MIDGARD_ROOT_COMPACT:
		F("DEST_TAG", a->compact.dest_tag);
		F("OFFSET", a->compact.offset);
		if (a->compact.op == 1)
			F("CALL_MODE", a->compact.call_mode);
		else
			F("COND", a->compact.cond);
		return false;
	case MIDGARD_ROOT_EXTENDED:
		F("DEST_TAG", a->extended.dest_tag);
		F("CALL_MODE", a->extended.call_mode);
		F("OFFSET", a->extended.offset);
		F("COND", a->extended.cond);
		return false;
	case MIDGARD_ROOT_LDST:
		if (!word) {
			F("NEXT_TAG", b->next_tag);
			F("WORD1", b->u.ldst.op[0].raw);
			F("WORD2", b->u.ldst.op[1].raw);
			return false;
		}
		return expect_ldst(&b->u.ldst.op[strcmp(word, "WORD1") ? 1 : 0], name, v);
	case MIDGARD_ROOT_TEXTURE:
		F("TAG", b->tag);
		F("NEXT_TAG", b->next_tag);
		return expect_texture(&b->u.tex, name, v);
	}
	return false;
}

#undef F

static unsigned kind_units(int root)
{
	if (root == MIDGARD_ROOT_VECTOR)
		return 1u << MIDGARD_UNIT_VMUL | 1u << MIDGARD_UNIT_VADD | 1u << MIDGARD_UNIT_VLUT;
	return 1u << MIDGARD_UNIT_SADD | 1u << MIDGARD_UNIT_SMUL;
}

/* A load/store word's leaf by the reference; "" when unnamed. */
const char *refmap_midgard_ldst_leaf(const midgard_ldst_op *l)
{
	const char *s = l->op == MIDGARD_LDST_NOOP ? "nop" : midgard_ldst_op_name(l->op);
	/* a store names one of the eight load/store registers, no more */
	if (s && midgard_ldst_is_store(l->op) && l->reg >= 8)
		return "";
	return s ? s : "";
}

/* The leaf a part must decode to by the reference's opcode; "" when the
 * reference's tables name no such opcode (the spec must match nothing).
 * An ALU root serves every unit of its kind, so an opcode counts as
 * named when some unit of that kind may run it. */
void refmap_midgard_expected_leaf(const refmap_midgard_part *pr, bool named_only, char *buf,
                                  size_t len)
{
	static const char *const tag_names[16] = {
		"", "", "texture-vtx", "texture", "texture-barrier", "load-store", "", "",
		"alu4", "alu8", "alu12", "alu16",
		"alu4-writeout", "alu8-writeout", "alu12-writeout", "alu16-writeout",
	};
	static const char *const branch_names[8] = {
		"", "br", "br-cond", "", "discard", "", "tilebuffer-pending", "writeout",
	};
	static const char *const tex_names[16] = {
		[1] = "tex", [2] = "tex_grad", [4] = "tex_fetch", [9] = "tex_grad_from_derivative",
		[10] = "tex_mov", [11] = "barrier", [12] = "tex_grad_from_coords",
		[13] = "tex_derivative",
	};
	const midgard_bundle *b = pr->b;
	const midgard_alu_unit *un = pr->p && pr->p->unit >= 0 ? &b->u.alu.unit[pr->p->unit] : NULL;
	const char *s;
	buf[0] = '\0';
	switch (pr->root) {
	case MIDGARD_ROOT_TAG: snprintf(buf, len, "tag.%s", tag_names[b->tag & 15]); return;
	case MIDGARD_ROOT_CONTROL: snprintf(buf, len, "%s", tag_names[b->tag & 15]); return;
	case MIDGARD_ROOT_REG: snprintf(buf, len, "#reg-word"); return;
	case MIDGARD_ROOT_VECTOR:
	case MIDGARD_ROOT_SCALAR: {
		unsigned op = pr->root == MIDGARD_ROOT_VECTOR ? un->vec.op : un->sca.op;
		s = midgard_alu_op_name(op);
		/* a rule the sources state makes the part invalid (the spec flags it) */
		bool broken = pr->root == MIDGARD_ROOT_VECTOR ? midgard_vector_rule(&un->vec) != NULL
		                                              : midgard_scalar_rule(&un->sca) != NULL;
		if (!named_only)
			snprintf(buf, len, "%s.%s", pr->root == MIDGARD_ROOT_VECTOR ? "v" : "s",
			         s ? s : "?");
		else if (s && !broken && (midgard_alu_op_units(op) & kind_units(pr->root)))
			snprintf(buf, len, "%s.%s", pr->root == MIDGARD_ROOT_VECTOR ? "v" : "s", s);
		return;
	}
	case MIDGARD_ROOT_COMPACT:
		s = branch_names[b->u.alu.compact.op & 7];
		if (*s || !named_only)
			snprintf(buf, len, "%s-compact", s);
		return;
	case MIDGARD_ROOT_EXTENDED:
		s = branch_names[b->u.alu.extended.op & 7];
		if (*s || !named_only)
			snprintf(buf, len, "%s-extended", s);
		return;
	case MIDGARD_ROOT_LDST:
		/* a word whose opcode the tables do not name matches nothing */
		if (!named_only || (*refmap_midgard_ldst_leaf(&b->u.ldst.op[0]) &&
		                    *refmap_midgard_ldst_leaf(&b->u.ldst.op[1])))
			snprintf(buf, len, "load-store");
		return;
	case MIDGARD_ROOT_TEXTURE:
		s = tex_names[b->u.tex.op & 15];
		if (!named_only)
			snprintf(buf, len, "%s", s ? s : "?");
		else if (s && midgard_tex_op_valid(b->u.tex.op) && !midgard_texture_rule(b))
			snprintf(buf, len, "%s", s);
		return;
	}
}

int refmap_midgard_part_root(const midgard_part *p)
{
	switch (p->kind) {
	case MIDGARD_PART_CONTROL: return MIDGARD_ROOT_CONTROL;
	case MIDGARD_PART_REG_WORD: return MIDGARD_ROOT_REG;
	case MIDGARD_PART_VECTOR_ALU: return MIDGARD_ROOT_VECTOR;
	case MIDGARD_PART_SCALAR_ALU: return MIDGARD_ROOT_SCALAR;
	case MIDGARD_PART_BRANCH_COMPACT: return MIDGARD_ROOT_COMPACT;
	case MIDGARD_PART_BRANCH_EXTENDED: return MIDGARD_ROOT_EXTENDED;
	case MIDGARD_PART_LOAD_STORE: return MIDGARD_ROOT_LDST;
	case MIDGARD_PART_TEXTURE: return MIDGARD_ROOT_TEXTURE;
	case MIDGARD_PART_CONSTANTS: return -1;
	}
	return -1;
}

/* Bits off .. off+bits-1 of a bundle into 64-bit words, part bit 0 first. */
void refmap_midgard_extract(const uint32_t *words, unsigned off, unsigned bits,
                            uint64_t out[2])
{
	out[0] = out[1] = 0;
	for (unsigned i = 0; i < bits; i++)
		if ((words[(off + i) / 32] >> ((off + i) % 32)) & 1u)
			out[i / 64] |= UINT64_C(1) << (i % 64);
}
