/*
 * midgard.c - the hand-written Mali Midgard reference codec: bundle layout
 * from ../shared/facts/ISA-FACTS.md section 2, opcode tables from
 * ../shared/facts/midgard_opcode_tables.md.  Independent of the XML by
 * design: the test holds the XML-driven codec to agree with it.
 */
#include "midgard.h"
#include "bits.h"

#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

/* ------------------------------------------------------------- tables */

#define U(x) (1u << MIDGARD_UNIT_##x)

typedef struct alu_op_entry {
	uint8_t op;
	const char *name;
	unsigned units;
} alu_op_entry;

/* Every ALU opcode and the units Mesa's midgard_ops.c lets run it. */
static const alu_op_entry alu_ops[] = {
	{0x10, "fadd", U(SADD) | U(VADD)},
	{0x11, "fadd_rtz", U(SADD) | U(VADD)},
	{0x12, "fadd_rtn", U(SADD) | U(VADD)},
	{0x13, "fadd_rtp", U(SADD) | U(VADD)},
	{0x14, "fmul", U(VMUL) | U(SMUL) | U(VLUT)},
	{0x15, "fmul_rtz", U(VMUL) | U(SMUL) | U(VLUT)},
	{0x16, "fmul_rtn", U(VMUL) | U(SMUL) | U(VLUT)},
	{0x17, "fmul_rtp", U(VMUL) | U(SMUL) | U(VLUT)},
	{0x28, "fmin", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x29, "fmin_nan", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x2A, "fabsmin", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x2B, "fabsmin_nan", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x2C, "fmax", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x2D, "fmax_nan", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x2E, "fabsmax", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x2F, "fabsmax_nan", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x30, "fmov", U(VMUL) | U(SADD) | U(VADD) | U(SMUL) | U(VLUT)},
	{0x31, "fmov_rtz", U(VMUL) | U(SADD) | U(VADD) | U(SMUL) | U(VLUT)},
	{0x32, "fmov_rtn", U(VMUL) | U(SADD) | U(VADD) | U(SMUL) | U(VLUT)},
	{0x33, "fmov_rtp", U(VMUL) | U(SADD) | U(VADD) | U(SMUL) | U(VLUT)},
	{0x34, "froundeven", U(SADD) | U(VADD)},
	{0x35, "ftrunc", U(SADD) | U(VADD)},
	{0x36, "ffloor", U(SADD) | U(VADD)},
	{0x37, "fceil", U(SADD) | U(VADD)},
	{0x38, "ffma", U(VLUT)},
	{0x39, "ffma_rtz", U(VLUT)},
	{0x3A, "ffma_rtn", U(VLUT)},
	{0x3B, "ffma_rtp", U(VLUT)},
	{0x3C, "fdot3", U(VMUL)},
	{0x3D, "fdot3r", U(VMUL)},
	{0x3E, "fdot4", U(VMUL)},
	{0x3F, "freduce", 0},
	{0x40, "iadd", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x41, "ishladd", U(VMUL) | U(SMUL)},
	{0x46, "isub", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x47, "ishlsub", U(VMUL) | U(SMUL)},
	{0x48, "iaddsat", U(SADD) | U(VADD)},
	{0x49, "uaddsat", U(SADD) | U(VADD)},
	{0x4E, "isubsat", U(SADD) | U(VADD)},
	{0x4F, "usubsat", U(SADD) | U(VADD)},
	{0x58, "imul", U(VMUL) | U(SMUL)},
	{0x59, "iwmul", U(VMUL)},
	{0x5A, "uwmul", U(VMUL)},
	{0x5B, "iuwmul", U(VMUL)},
	{0x60, "imin", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x61, "umin", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x62, "imax", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x63, "umax", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x64, "iavg", U(SADD) | U(VADD)},
	{0x65, "uavg", U(SADD) | U(VADD)},
	{0x66, "iravg", U(SADD) | U(VADD)},
	{0x67, "uravg", U(SADD) | U(VADD)},
	{0x68, "iasr", U(SADD) | U(VADD)},
	{0x69, "ilsr", U(SADD) | U(VADD)},
	{0x6C, "ishlsat", U(SADD) | U(VADD)},
	{0x6D, "ushlsat", U(SADD) | U(VADD)},
	{0x6E, "ishl", U(SADD) | U(VADD)},
	{0x70, "iand", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x71, "ior", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x72, "inand", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x73, "inor", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x74, "iandnot", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x75, "iornot", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x76, "ixor", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x77, "inxor", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x78, "iclz", U(SADD) | U(VADD)},
	{0x7A, "ipopcnt", U(VADD)},
	{0x7B, "imov", U(VMUL) | U(SADD) | U(VADD) | U(SMUL) | U(VLUT)},
	{0x7C, "iabsdiff", U(SADD) | U(VADD)},
	{0x7D, "uabsdiff", U(SADD) | U(VADD)},
	{0x7E, "ichoose", U(SADD) | U(VADD)},
	{0x80, "feq", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x81, "fne", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x82, "flt", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x83, "fle", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0x88, "fball_eq", U(VMUL) | U(VADD)},
	{0x89, "fball_neq", U(VMUL) | U(VADD)},
	{0x8A, "fball_lt", U(VMUL) | U(VADD)},
	{0x8B, "fball_lte", U(VMUL) | U(VADD)},
	{0x90, "fbany_eq", U(VMUL) | U(VADD)},
	{0x91, "fbany_neq", U(VMUL) | U(VADD)},
	{0x92, "fbany_lt", U(VMUL) | U(VADD)},
	{0x93, "fbany_lte", U(VMUL) | U(VADD)},
	{0x98, "f2i_rte", U(SADD) | U(VADD)},
	{0x99, "f2i_rtz", U(SADD) | U(VADD)},
	{0x9A, "f2i_rtn", U(SADD) | U(VADD)},
	{0x9B, "f2i_rtp", U(SADD) | U(VADD)},
	{0x9C, "f2u_rte", U(SADD) | U(VADD)},
	{0x9D, "f2u_rtz", U(SADD) | U(VADD)},
	{0x9E, "f2u_rtn", U(SADD) | U(VADD)},
	{0x9F, "f2u_rtp", U(SADD) | U(VADD)},
	{0xA0, "ieq", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0xA1, "ine", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0xA2, "ult", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0xA3, "ule", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0xA4, "ilt", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0xA5, "ile", U(VMUL) | U(SADD) | U(VADD) | U(SMUL)},
	{0xA8, "iball_eq", U(VMUL) | U(VADD)},
	{0xA9, "iball_neq", U(VMUL) | U(VADD)},
	{0xAA, "uball_lt", U(VMUL) | U(VADD)},
	{0xAB, "uball_lte", U(VMUL) | U(VADD)},
	{0xAC, "iball_lt", U(VMUL) | U(VADD)},
	{0xAD, "iball_lte", U(VMUL) | U(VADD)},
	{0xB0, "ibany_eq", U(VMUL) | U(VADD)},
	{0xB1, "ibany_neq", U(VMUL) | U(VADD)},
	{0xB2, "ubany_lt", U(VMUL) | U(VADD)},
	{0xB3, "ubany_lte", U(VMUL) | U(VADD)},
	{0xB4, "ibany_lt", U(VMUL) | U(VADD)},
	{0xB5, "ibany_lte", U(VMUL) | U(VADD)},
	{0xB8, "i2f_rte", U(SADD) | U(VADD)},
	{0xB9, "i2f_rtz", U(SADD) | U(VADD)},
	{0xBA, "i2f_rtn", U(SADD) | U(VADD)},
	{0xBB, "i2f_rtp", U(SADD) | U(VADD)},
	{0xBC, "u2f_rte", U(SADD) | U(VADD)},
	{0xBD, "u2f_rtz", U(SADD) | U(VADD)},
	{0xBE, "u2f_rtn", U(SADD) | U(VADD)},
	{0xBF, "u2f_rtp", U(SADD) | U(VADD)},
	{0xC0, "icsel_v", U(VADD)},
	{0xC1, "icsel", U(VADD) | U(SMUL)},
	{0xC4, "fcsel_v", U(VADD)},
	{0xC5, "fcsel", U(VADD) | U(SMUL)},
	{0xC6, "froundaway", U(SADD) | U(VADD)},
	{0xE8, "fatan2_pt2", U(VLUT)},
	{0xEC, "fpow_pt1", U(VLUT)},
	{0xED, "fpown_pt1", U(VLUT)},
	{0xEE, "fpowr_pt1", U(VLUT)},
	{0xF0, "frcp", U(VLUT)},
	{0xF2, "frsqrt", U(VLUT)},
	{0xF3, "fsqrt", U(VLUT)},
	{0xF4, "fexp2", U(VLUT)},
	{0xF5, "flog2", U(VLUT)},
	{0xF6, "fsinpi", U(VLUT)},
	{0xF7, "fcospi", U(VLUT)},
	{0xF9, "fatan2_pt1", U(VLUT)},
};

#undef U

typedef struct ldst_op_entry {
	uint8_t op;
	const char *name;
} ldst_op_entry;

static const ldst_op_entry ldst_ops[] = {
	{0x03, "ld_st_noop"},
	{0x04, "unpack_colour_f32"},
	{0x05, "unpack_colour_f16"},
	{0x06, "unpack_colour_u32"},
	{0x07, "unpack_colour_s32"},
	{0x08, "pack_colour_f32"},
	{0x09, "pack_colour_f16"},
	{0x0A, "pack_colour_u32"},
	{0x0B, "pack_colour_s32"},
	{0x0C, "lea"},
	{0x0D, "lea_image"},
	{0x0E, "ld_cubemap_coords"},
	{0x10, "ldst_mov"},
	{0x11, "ldst_perspective_div_y"},
	{0x12, "ldst_perspective_div_z"},
	{0x13, "ldst_perspective_div_w"},
	{0x40, "atomic_add"},
	{0x41, "atomic_add64"},
	{0x42, "atomic_add_be"},
	{0x43, "atomic_add64_be"},
	{0x44, "atomic_and"},
	{0x45, "atomic_and64"},
	{0x46, "atomic_and_be"},
	{0x47, "atomic_and64_be"},
	{0x48, "atomic_or"},
	{0x49, "atomic_or64"},
	{0x4A, "atomic_or_be"},
	{0x4B, "atomic_or64_be"},
	{0x4C, "atomic_xor"},
	{0x4D, "atomic_xor64"},
	{0x4E, "atomic_xor_be"},
	{0x4F, "atomic_xor64_be"},
	{0x50, "atomic_imin"},
	{0x51, "atomic_imin64"},
	{0x52, "atomic_imin_be"},
	{0x53, "atomic_imin64_be"},
	{0x54, "atomic_umin"},
	{0x55, "atomic_umin64"},
	{0x56, "atomic_umin_be"},
	{0x57, "atomic_umin64_be"},
	{0x58, "atomic_imax"},
	{0x59, "atomic_imax64"},
	{0x5A, "atomic_imax_be"},
	{0x5B, "atomic_imax64_be"},
	{0x5C, "atomic_umax"},
	{0x5D, "atomic_umax64"},
	{0x5E, "atomic_umax_be"},
	{0x5F, "atomic_umax64_be"},
	{0x60, "atomic_xchg"},
	{0x61, "atomic_xchg64"},
	{0x62, "atomic_xchg_be"},
	{0x63, "atomic_xchg64_be"},
	{0x64, "atomic_cmpxchg"},
	{0x65, "atomic_cmpxchg64"},
	{0x66, "atomic_cmpxchg_be"},
	{0x67, "atomic_cmpxchg64_be"},
	{0x80, "ld_u8"},
	{0x81, "ld_i8"},
	{0x84, "ld_u16"},
	{0x85, "ld_i16"},
	{0x86, "ld_u16_be"},
	{0x87, "ld_i16_be"},
	{0x88, "ld_32"},
	{0x89, "ld_32_bswap2"},
	{0x8A, "ld_32_bswap4"},
	{0x8C, "ld_64"},
	{0x8D, "ld_64_bswap2"},
	{0x8E, "ld_64_bswap4"},
	{0x8F, "ld_64_bswap8"},
	{0x90, "ld_128"},
	{0x91, "ld_128_bswap2"},
	{0x92, "ld_128_bswap4"},
	{0x93, "ld_128_bswap8"},
	{0x94, "ld_attr_32"},
	{0x95, "ld_attr_16"},
	{0x96, "ld_attr_32u"},
	{0x97, "ld_attr_32i"},
	{0x98, "ld_vary_32"},
	{0x99, "ld_vary_16"},
	{0x9A, "ld_vary_32u"},
	{0x9B, "ld_vary_32i"},
	{0x9C, "ld_special_32f"},
	{0x9D, "ld_special_16f"},
	{0x9E, "ld_special_32u"},
	{0x9F, "ld_special_32i"},
	{0xA0, "ld_ubo_u8"},
	{0xA1, "ld_ubo_i8"},
	{0xA4, "ld_ubo_u16"},
	{0xA5, "ld_ubo_i16"},
	{0xA6, "ld_ubo_u16_be"},
	{0xA7, "ld_ubo_i16_be"},
	{0xA8, "ld_ubo_32"},
	{0xA9, "ld_ubo_32_bswap2"},
	{0xAA, "ld_ubo_32_bswap4"},
	{0xAC, "ld_ubo_64"},
	{0xAD, "ld_ubo_64_bswap2"},
	{0xAE, "ld_ubo_64_bswap4"},
	{0xAF, "ld_ubo_64_bswap8"},
	{0xB0, "ld_ubo_128"},
	{0xB1, "ld_ubo_128_bswap2"},
	{0xB2, "ld_ubo_128_bswap4"},
	{0xB3, "ld_ubo_128_bswap8"},
	{0xB4, "ld_image_32f"},
	{0xB5, "ld_image_16f"},
	{0xB6, "ld_image_32u"},
	{0xB7, "ld_image_32i"},
	{0xB8, "ld_tilebuffer_32f"},
	{0xB9, "ld_tilebuffer_16f"},
	{0xBA, "ld_tilebuffer_raw"},
	{0xC0, "st_u8"},
	{0xC1, "st_i8"},
	{0xC4, "st_u16"},
	{0xC5, "st_i16"},
	{0xC6, "st_u16_be"},
	{0xC7, "st_i16_be"},
	{0xC8, "st_32"},
	{0xC9, "st_32_bswap2"},
	{0xCA, "st_32_bswap4"},
	{0xCC, "st_64"},
	{0xCD, "st_64_bswap2"},
	{0xCE, "st_64_bswap4"},
	{0xCF, "st_64_bswap8"},
	{0xD0, "st_128"},
	{0xD1, "st_128_bswap2"},
	{0xD2, "st_128_bswap4"},
	{0xD3, "st_128_bswap8"},
	{0xD4, "st_vary_32"},
	{0xD5, "st_vary_16"},
	{0xD6, "st_vary_32u"},
	{0xD7, "st_vary_32i"},
	{0xD8, "st_image_32f"},
	{0xD9, "st_image_16f"},
	{0xDA, "st_image_32u"},
	{0xDB, "st_image_32i"},
	{0xDC, "st_special_32f"},
	{0xDD, "st_special_16f"},
	{0xDE, "st_special_32u"},
	{0xDF, "st_special_32i"},
	{0xE8, "st_tilebuffer_32f"},
	{0xE9, "st_tilebuffer_16f"},
	{0xEA, "st_tilebuffer_raw"},
	{0xFC, "trap"},
};

const char *midgard_alu_op_name(unsigned op)
{
	for (size_t i = 0; i < N(alu_ops); i++)
		if (alu_ops[i].op == op)
			return alu_ops[i].name;
	return NULL;
}

unsigned midgard_alu_op_units(unsigned op)
{
	for (size_t i = 0; i < N(alu_ops); i++)
		if (alu_ops[i].op == op)
			return alu_ops[i].units;
	return 0;
}

const char *midgard_ldst_op_name(unsigned op)
{
	for (size_t i = 0; i < N(ldst_ops); i++)
		if (ldst_ops[i].op == op)
			return ldst_ops[i].name;
	return NULL;
}

/* The texture opcodes Mesa's newer header names (11 is the barrier). */
static const uint8_t tex_ops[] = {1, 2, 4, 9, 10, 12, 13};

bool midgard_tex_op_valid(unsigned op)
{
	for (size_t i = 0; i < N(tex_ops); i++)
		if (tex_ops[i] == op)
			return true;
	return op == MIDGARD_TEX_OP_BARRIER;
}

bool midgard_ldst_is_store(unsigned op)
{
	/* ST (0xC0-0xD3), ST_VARY (0xD4-0xD7), ST_IMAGE (0xD8-0xDB); not
	 * ST_SPECIAL or ST_TILEBUFFER, which Mesa prints with a full register */
	return op >= 0xC0 && op <= 0xDB && midgard_ldst_op_name(op);
}

bool midgard_alu_op_reduces(unsigned op)
{
	return (op >= 0x3C && op <= 0x3E) || (op >= 0x88 && op <= 0x8B) ||
	       (op >= 0x90 && op <= 0x93) || (op >= 0xA8 && op <= 0xAD) ||
	       (op >= 0xB0 && op <= 0xB5);
}

/* The components a vector mask writes at a lane width of 8 << reg_mode
 * bits: each lane's first mask bit (8-bit lanes take one bit for two). */
static unsigned mask_components(unsigned mask, unsigned reg_mode)
{
	unsigned step = reg_mode ? 1u << (reg_mode - 1u) : 1u, n = 0;
	for (unsigned i = 0; i < 8; i += step)
		n += (mask >> i) & 1u;
	return reg_mode ? n : 2u * n;
}

bool midgard_alu_op_int_result(unsigned op)
{
	bool int_in = (op >= 0x40 && op <= 0x7E) || (op >= 0xA0 && op <= 0xC1);
	/* the conversions: FCMP (with their all/any forms), F2I and F2U give
	 * integers, I2F and U2F floats */
	bool converts = (op >= 0x80 && op <= 0x9F) || (op >= 0xB8 && op <= 0xBF);
	return int_in != converts;
}

const char *midgard_vector_rule(const midgard_vector_alu *v)
{
	if (v->reg_mode == 0 && v->shrink_mode < 2)
		return "an 8-bit result is shrunk";
	if (midgard_alu_op_reduces(v->op) && mask_components(v->mask, v->reg_mode) != 1)
		return "a reduction's mask does not select one component";
	if (midgard_alu_op_int_result(v->op) && v->shrink_mode == 2 && v->outmod != 2)
		return "an integer result not shrunk without keeplo";
	return NULL;
}

const char *midgard_scalar_rule(const midgard_scalar_alu *s)
{
	if (midgard_alu_op_int_result(s->op) && s->output_full && s->outmod != 2)
		return "a 32-bit integer result without keeplo";
	return NULL;
}

const char *midgard_texture_rule(const midgard_bundle *b)
{
	const midgard_texture_bundle *t = &b->u.tex;
	if (t->barrier != (b->tag == MIDGARD_TAG_TEXTURE_BARRIER))
		return t->barrier ? "a barrier outside a barrier bundle"
		                  : "a texture operation in a barrier bundle";
	if (!t->barrier && t->bias_int && (t->lod_reg || t->op == 4))
		return "BIAS_INT beside a LOD register or in a fetch";
	return NULL;
}

const char *midgard_unit_name(midgard_unit u)
{
	static const char *const names[MIDGARD_UNITS] = {"vmul", "sadd", "vadd", "smul", "vlut"};
	return (unsigned)u < MIDGARD_UNITS ? names[u] : "?";
}

const char *midgard_status_text(midgard_status s)
{
	switch (s) {
	case MIDGARD_OK: return "ok";
	case MIDGARD_ERR_TRUNCATED: return "bundle truncated: fewer words than its tag says";
	case MIDGARD_ERR_TAG: return "tag of no known bundle (0, 1, 6 or 7)";
	case MIDGARD_ERR_OVERFLOW: return "the enabled ALU parts do not fit the bundle's size";
	case MIDGARD_ERR_SIZE: return "bundle size does not match its parts";
	case MIDGARD_ERR_PADDING: return "padding or must-be-zero bit set";
	case MIDGARD_ERR_RANGE: return "field value does not fit its bits";
	case MIDGARD_ERR_KIND: return "bundle kind does not match its tag";
	}
	return "unknown status";
}

unsigned midgard_tag_quadwords(unsigned tag)
{
	static const uint8_t q[16] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 1, 2, 3, 4};
	return tag < 16 ? q[tag] : 0;
}

/* ----------------------------------------------------------- bit access */

static int64_t sext(uint64_t v, unsigned n)
{
	uint64_t sign = UINT64_C(1) << (n - 1u);
	return (int64_t)((v ^ sign) - sign);
}

/* A packer: writes fields into zeroed words and remembers the first value
 * that did not fit. */
typedef struct writer {
	uint32_t *w;
	midgard_status st;
} writer;

static void put(writer *o, unsigned off, unsigned n, uint64_t v)
{
	if (n < 64u && (v >> n) != 0) {
		if (o->st == MIDGARD_OK)
			o->st = MIDGARD_ERR_RANGE;
		v &= (UINT64_C(1) << n) - 1u;
	}
	for (unsigned done = 0; done < n;) {
		unsigned pos = off + done, sh = pos % 32u, take = 32u - sh;
		if (take > n - done)
			take = n - done;
		uint32_t chunk = (uint32_t)(v >> done);
		if (take < 32u)
			chunk &= (UINT32_C(1) << take) - 1u;
		o->w[pos / 32u] |= chunk << sh;
		done += take;
	}
}

static void put_signed(writer *o, unsigned off, unsigned n, int64_t v)
{
	int64_t lo = -(INT64_C(1) << (n - 1u)), hi = (INT64_C(1) << (n - 1u)) - 1;
	if (v < lo || v > hi) {
		if (o->st == MIDGARD_OK)
			o->st = MIDGARD_ERR_RANGE;
	}
	put(o, off, n, (uint64_t)v & ((UINT64_C(1) << n) - 1u));
}

/* ------------------------------------------------------------ ALU parts */

static void unpack_reg(const uint32_t *w, unsigned off, midgard_reg_word *r)
{
	r->src1_reg = (uint8_t)ref_bits_get(w, off + 0, 5);
	r->src2_reg = (uint8_t)ref_bits_get(w, off + 5, 5);
	r->out_reg = (uint8_t)ref_bits_get(w, off + 10, 5);
	r->src2_imm = ref_bits_get(w, off + 15, 1) != 0;
}

static void pack_reg(writer *o, unsigned off, const midgard_reg_word *r)
{
	put(o, off + 0, 5, r->src1_reg);
	put(o, off + 5, 5, r->src2_reg);
	put(o, off + 10, 5, r->out_reg);
	put(o, off + 15, 1, r->src2_imm);
}

/* A 13-bit vector source: mod [0-1], expand [2-4], swizzle [5-12]. */
static void unpack_vsrc(const uint32_t *w, unsigned off, midgard_vector_src *s)
{
	s->mod = (uint8_t)ref_bits_get(w, off, 2);
	s->expand = (uint8_t)ref_bits_get(w, off + 2, 3);
	s->swizzle = (uint8_t)ref_bits_get(w, off + 5, 8);
}

static void pack_vsrc(writer *o, unsigned off, const midgard_vector_src *s)
{
	put(o, off, 2, s->mod);
	put(o, off + 2, 3, s->expand);
	put(o, off + 5, 8, s->swizzle);
}

static void unpack_vector(const uint32_t *w, unsigned off, midgard_vector_alu *v)
{
	v->op = (uint8_t)ref_bits_get(w, off, 8);
	v->reg_mode = (uint8_t)ref_bits_get(w, off + 8, 2);
	unpack_vsrc(w, off + 10, &v->src1);
	unpack_vsrc(w, off + 23, &v->src2);
	v->shrink_mode = (uint8_t)ref_bits_get(w, off + 36, 2);
	v->outmod = (uint8_t)ref_bits_get(w, off + 38, 2);
	v->mask = (uint8_t)ref_bits_get(w, off + 40, 8);
}

static void pack_vector(writer *o, unsigned off, const midgard_vector_alu *v)
{
	put(o, off, 8, v->op);
	put(o, off + 8, 2, v->reg_mode);
	pack_vsrc(o, off + 10, &v->src1);
	pack_vsrc(o, off + 23, &v->src2);
	put(o, off + 36, 2, v->shrink_mode);
	put(o, off + 38, 2, v->outmod);
	put(o, off + 40, 8, v->mask);
}

/* A 6-bit scalar source: mod [0-1], full [2], component [3-5]. */
static void unpack_ssrc(const uint32_t *w, unsigned off, midgard_scalar_src *s)
{
	s->mod = (uint8_t)ref_bits_get(w, off, 2);
	s->full = ref_bits_get(w, off + 2, 1) != 0;
	s->component = (uint8_t)ref_bits_get(w, off + 3, 3);
}

static void pack_ssrc(writer *o, unsigned off, const midgard_scalar_src *s)
{
	put(o, off, 2, s->mod);
	put(o, off + 2, 1, s->full);
	put(o, off + 3, 3, s->component);
}

static void unpack_scalar(const uint32_t *w, unsigned off, midgard_scalar_alu *s)
{
	s->op = (uint8_t)ref_bits_get(w, off, 8);
	unpack_ssrc(w, off + 8, &s->src1);
	unpack_ssrc(w, off + 14, &s->src2);
	s->src2_imm_bits = (uint8_t)ref_bits_get(w, off + 20, 5);
	s->reserved = ref_bits_get(w, off + 25, 1) != 0;
	s->outmod = (uint8_t)ref_bits_get(w, off + 26, 2);
	s->output_full = ref_bits_get(w, off + 28, 1) != 0;
	s->output_component = (uint8_t)ref_bits_get(w, off + 29, 3);
}

static void pack_scalar(writer *o, unsigned off, const midgard_scalar_alu *s)
{
	put(o, off, 8, s->op);
	pack_ssrc(o, off + 8, &s->src1);
	pack_ssrc(o, off + 14, &s->src2);
	put(o, off + 20, 5, s->src2_imm_bits);
	put(o, off + 25, 1, s->reserved);
	put(o, off + 26, 2, s->outmod);
	put(o, off + 28, 1, s->output_full);
	put(o, off + 29, 3, s->output_component);
}

/* Compact branches: an unconditional one (op 1) has the call mode at 7-8
 * and the offset at 9-15; the others the offset at 7-13 and the condition
 * at 14-15. */
static void unpack_compact(const uint32_t *w, unsigned off, midgard_branch_compact *b)
{
	memset(b, 0, sizeof *b);
	b->op = (uint8_t)ref_bits_get(w, off, 3);
	b->dest_tag = (uint8_t)ref_bits_get(w, off + 3, 4);
	if (b->op == 1) {
		b->call_mode = (uint8_t)ref_bits_get(w, off + 7, 2);
		b->offset = (int8_t)sext(ref_bits_get(w, off + 9, 7), 7);
	} else {
		b->offset = (int8_t)sext(ref_bits_get(w, off + 7, 7), 7);
		b->cond = (uint8_t)ref_bits_get(w, off + 14, 2);
	}
}

static void pack_compact(writer *o, unsigned off, const midgard_branch_compact *b)
{
	put(o, off, 3, b->op);
	put(o, off + 3, 4, b->dest_tag);
	if (b->op == 1) {
		put(o, off + 7, 2, b->call_mode);
		put_signed(o, off + 9, 7, b->offset);
	} else {
		put_signed(o, off + 7, 7, b->offset);
		put(o, off + 14, 2, b->cond);
	}
}

static void unpack_extended(const uint32_t *w, unsigned off, midgard_branch_extended *b)
{
	b->op = (uint8_t)ref_bits_get(w, off, 3);
	b->dest_tag = (uint8_t)ref_bits_get(w, off + 3, 4);
	b->call_mode = (uint8_t)ref_bits_get(w, off + 7, 2);
	b->offset = (int32_t)sext(ref_bits_get(w, off + 9, 23), 23);
	b->cond = (uint16_t)ref_bits_get(w, off + 32, 16);
}

static void pack_extended(writer *o, unsigned off, const midgard_branch_extended *b)
{
	put(o, off, 3, b->op);
	put(o, off + 3, 4, b->dest_tag);
	put(o, off + 7, 2, b->call_mode);
	put_signed(o, off + 9, 23, b->offset);
	put(o, off + 32, 16, b->cond);
}

/* -------------------------------------------------------------- layout */

static void add_part(midgard_bundle *b, midgard_part_kind k, int unit, unsigned off,
                     unsigned bits)
{
	if (b->nparts < MIDGARD_MAX_PARTS)
		b->parts[b->nparts++] = (midgard_part){k, unit, off, bits};
}

/* Lays out an ALU bundle's parts in their fixed order, from the enable
 * bits alone; returns the bits they take (control word included). */
static unsigned alu_layout(midgard_bundle *b)
{
	const midgard_alu_bundle *a = &b->u.alu;
	unsigned off = 0;
	b->nparts = 0;
	add_part(b, MIDGARD_PART_CONTROL, -1, off, 32);
	off += 32;
	for (int u = 0; u < (int)MIDGARD_UNITS; u++)
		if (a->unit[u].enabled) {
			add_part(b, MIDGARD_PART_REG_WORD, u, off, 16);
			off += 16;
		}
	for (int u = 0; u < (int)MIDGARD_UNITS; u++)
		if (a->unit[u].enabled) {
			bool vec = midgard_unit_is_vector((midgard_unit)u);
			add_part(b, vec ? MIDGARD_PART_VECTOR_ALU : MIDGARD_PART_SCALAR_ALU, u, off,
			         vec ? 48u : 32u);
			off += vec ? 48u : 32u;
		}
	if (a->has_compact) {
		add_part(b, MIDGARD_PART_BRANCH_COMPACT, -1, off, 16);
		off += 16;
	}
	if (a->has_extended) {
		add_part(b, MIDGARD_PART_BRANCH_EXTENDED, -1, off, 48);
		off += 48;
	}
	return off;
}

static unsigned quadwords_for(unsigned bits)
{
	return (bits + 127u) / 128u;
}

unsigned midgard_alu_tag(const midgard_alu_bundle *a, bool writeout)
{
	midgard_bundle tmp;
	tmp.u.alu = *a;
	unsigned q = quadwords_for(alu_layout(&tmp)) + (a->has_constants ? 1u : 0u);
	if (q > 4)
		q = 4;
	return (writeout ? MIDGARD_TAG_ALU4_WRITEOUT : MIDGARD_TAG_ALU4) + q - 1u;
}

static midgard_status unpack_alu(const uint32_t *w, midgard_bundle *b)
{
	midgard_alu_bundle *a = &b->u.alu;
	uint32_t control = w[0];
	unsigned quads = midgard_tag_quadwords(b->tag);
	memset(a, 0, sizeof *a);
	a->control_reserved = control & MIDGARD_CONTROL_RESERVED;
	for (unsigned u = 0; u < MIDGARD_UNITS; u++)
		a->unit[u].enabled = (control >> (17u + 2u * u)) & 1u;
	a->has_compact = (control >> 26) & 1u;
	a->has_extended = (control >> 27) & 1u;
	unsigned used = alu_layout(b);
	unsigned need = quadwords_for(used);
	if (need > quads)
		return MIDGARD_ERR_OVERFLOW;
	if (quads > need + 1u)
		return MIDGARD_ERR_SIZE;
	for (unsigned p = 0; p < b->nparts; p++) {
		const midgard_part *pt = &b->parts[p];
		midgard_alu_unit *un = pt->unit >= 0 ? &a->unit[pt->unit] : NULL;
		switch (pt->kind) {
		case MIDGARD_PART_REG_WORD: unpack_reg(w, pt->offset, &un->reg); break;
		case MIDGARD_PART_VECTOR_ALU: unpack_vector(w, pt->offset, &un->vec); break;
		case MIDGARD_PART_SCALAR_ALU: unpack_scalar(w, pt->offset, &un->sca); break;
		case MIDGARD_PART_BRANCH_COMPACT: unpack_compact(w, pt->offset, &a->compact); break;
		case MIDGARD_PART_BRANCH_EXTENDED: unpack_extended(w, pt->offset, &a->extended); break;
		default: break;
		}
	}
	/* Padding runs from the last part to the end of its quadword. */
	for (unsigned bit = used; bit < need * 128u;) {
		unsigned n = need * 128u - bit < 64u ? need * 128u - bit : 64u;
		if (ref_bits_get(w, bit, n))
			return MIDGARD_ERR_PADDING;
		bit += n;
	}
	if (quads == need + 1u) {
		a->has_constants = true;
		memcpy(a->constants, w + need * 4u, sizeof a->constants);
		add_part(b, MIDGARD_PART_CONSTANTS, -1, need * 128u, 128);
	}
	return MIDGARD_OK;
}

static midgard_status pack_alu(midgard_bundle *b, writer *o)
{
	const midgard_alu_bundle *a = &b->u.alu;
	unsigned used = alu_layout(b);
	unsigned need = quadwords_for(used);
	if (midgard_tag_quadwords(b->tag) != need + (a->has_constants ? 1u : 0u))
		return MIDGARD_ERR_SIZE;
	uint32_t control = b->tag | (uint32_t)b->next_tag << 4;
	if (a->control_reserved & ~MIDGARD_CONTROL_RESERVED)
		return MIDGARD_ERR_RANGE;
	control |= a->control_reserved;
	for (unsigned u = 0; u < MIDGARD_UNITS; u++)
		if (a->unit[u].enabled)
			control |= 1u << (17u + 2u * u);
	if (a->has_compact)
		control |= 1u << 26;
	if (a->has_extended)
		control |= 1u << 27;
	o->w[0] = control;
	for (unsigned p = 0; p < b->nparts; p++) {
		const midgard_part *pt = &b->parts[p];
		const midgard_alu_unit *un = pt->unit >= 0 ? &a->unit[pt->unit] : NULL;
		switch (pt->kind) {
		case MIDGARD_PART_REG_WORD: pack_reg(o, pt->offset, &un->reg); break;
		case MIDGARD_PART_VECTOR_ALU: pack_vector(o, pt->offset, &un->vec); break;
		case MIDGARD_PART_SCALAR_ALU: pack_scalar(o, pt->offset, &un->sca); break;
		case MIDGARD_PART_BRANCH_COMPACT: pack_compact(o, pt->offset, &a->compact); break;
		case MIDGARD_PART_BRANCH_EXTENDED: pack_extended(o, pt->offset, &a->extended); break;
		default: break;
		}
	}
	if (a->has_constants) {
		memcpy(o->w + need * 4u, a->constants, sizeof a->constants);
		add_part(b, MIDGARD_PART_CONSTANTS, -1, need * 128u, 128);
	}
	return o->st;
}

/* ----------------------------------------------------------- load/store */

static void unpack_ldst_op(const uint32_t *w, unsigned off, midgard_ldst_op *l)
{
	l->raw = ref_bits_get(w, off, 60);
	l->op = (uint8_t)ref_bits_get(w, off, 8);
	l->reg = (uint8_t)ref_bits_get(w, off + 8, 5);
	l->mask = (uint8_t)ref_bits_get(w, off + 13, 4);
	l->swizzle = (uint8_t)ref_bits_get(w, off + 17, 8);
	l->arg_comp = (uint8_t)ref_bits_get(w, off + 25, 2);
	l->arg_reg = (uint8_t)ref_bits_get(w, off + 27, 3);
	l->bitsize_toggle = ref_bits_get(w, off + 30, 1) != 0;
	l->index_format = (uint8_t)ref_bits_get(w, off + 31, 2);
	l->index_comp = (uint8_t)ref_bits_get(w, off + 33, 2);
	l->index_reg = (uint8_t)ref_bits_get(w, off + 35, 3);
	l->index_shift = (uint8_t)ref_bits_get(w, off + 38, 4);
	l->offset = (int32_t)sext(ref_bits_get(w, off + 42, 18), 18);
}

static void pack_ldst_op(writer *o, unsigned off, const midgard_ldst_op *l)
{
	put(o, off, 8, l->op);
	put(o, off + 8, 5, l->reg);
	put(o, off + 13, 4, l->mask);
	put(o, off + 17, 8, l->swizzle);
	put(o, off + 25, 2, l->arg_comp);
	put(o, off + 27, 3, l->arg_reg);
	put(o, off + 30, 1, l->bitsize_toggle);
	put(o, off + 31, 2, l->index_format);
	put(o, off + 33, 2, l->index_comp);
	put(o, off + 35, 3, l->index_reg);
	put(o, off + 38, 4, l->index_shift);
	put_signed(o, off + 42, 18, l->offset);
}

/* -------------------------------------------------------------- texture */

static midgard_status unpack_texture(const uint32_t *w, midgard_texture_bundle *t)
{
	memset(t, 0, sizeof *t);
	t->op = (uint8_t)ref_bits_get(w, 8, 4);
	t->out_of_order = (uint8_t)ref_bits_get(w, 56, 4);
	if (t->op == MIDGARD_TEX_OP_BARRIER) {
		/* The barrier layout: a 6-bit opcode, cont, last; zeros elsewhere. */
		t->barrier = true;
		t->cont = ref_bits_get(w, 16, 1) != 0;
		t->last = ref_bits_get(w, 17, 1) != 0;
		if (ref_bits_get(w, 12, 4) || ref_bits_get(w, 18, 38) || ref_bits_get(w, 60, 64) ||
		    ref_bits_get(w, 124, 4))
			return MIDGARD_ERR_PADDING;
		return MIDGARD_OK;
	}
	t->mode = (uint8_t)ref_bits_get(w, 12, 4);
	t->exec = (uint8_t)ref_bits_get(w, 16, 2);
	t->format = (uint8_t)ref_bits_get(w, 18, 2);
	t->sampler_reg = ref_bits_get(w, 20, 1) != 0;
	t->texture_reg = ref_bits_get(w, 21, 1) != 0;
	t->lod_reg = ref_bits_get(w, 22, 1) != 0;
	t->offset_reg = ref_bits_get(w, 23, 1) != 0;
	t->in_full = ref_bits_get(w, 24, 1) != 0;
	t->in_select = ref_bits_get(w, 25, 1) != 0;
	t->in_upper = ref_bits_get(w, 26, 1) != 0;
	t->in_swizzle = (uint8_t)ref_bits_get(w, 27, 8);
	t->unknown8 = (uint8_t)ref_bits_get(w, 35, 2);
	t->out_full = ref_bits_get(w, 37, 1) != 0;
	t->sampler_type = (uint8_t)ref_bits_get(w, 38, 2);
	t->out_select = ref_bits_get(w, 40, 1) != 0;
	t->out_upper = ref_bits_get(w, 41, 1) != 0;
	t->mask = (uint8_t)ref_bits_get(w, 42, 4);
	t->outmod = (uint8_t)ref_bits_get(w, 46, 2);
	t->swizzle = (uint8_t)ref_bits_get(w, 48, 8);
	t->unknown4 = (uint8_t)ref_bits_get(w, 60, 8);
	t->offset = (uint16_t)ref_bits_get(w, 68, 12);
	t->bias = (uint8_t)ref_bits_get(w, 80, 8);
	t->bias_int = (int8_t)sext(ref_bits_get(w, 88, 8), 8);
	t->sampler_handle = (uint16_t)ref_bits_get(w, 96, 16);
	t->texture_handle = (uint16_t)ref_bits_get(w, 112, 16);
	return MIDGARD_OK;
}

static void pack_texture(writer *o, const midgard_texture_bundle *t)
{
	put(o, 56, 4, t->out_of_order);
	if (t->barrier) {
		put(o, 8, 6, t->op);
		put(o, 16, 1, t->cont);
		put(o, 17, 1, t->last);
		return;
	}
	put(o, 8, 4, t->op);
	put(o, 12, 4, t->mode);
	put(o, 16, 2, t->exec);
	put(o, 18, 2, t->format);
	put(o, 20, 1, t->sampler_reg);
	put(o, 21, 1, t->texture_reg);
	put(o, 22, 1, t->lod_reg);
	put(o, 23, 1, t->offset_reg);
	put(o, 24, 1, t->in_full);
	put(o, 25, 1, t->in_select);
	put(o, 26, 1, t->in_upper);
	put(o, 27, 8, t->in_swizzle);
	put(o, 35, 2, t->unknown8);
	put(o, 37, 1, t->out_full);
	put(o, 38, 2, t->sampler_type);
	put(o, 40, 1, t->out_select);
	put(o, 41, 1, t->out_upper);
	put(o, 42, 4, t->mask);
	put(o, 46, 2, t->outmod);
	put(o, 48, 8, t->swizzle);
	put(o, 60, 8, t->unknown4);
	put(o, 68, 12, t->offset);
	put(o, 80, 8, t->bias);
	put_signed(o, 88, 8, t->bias_int);
	put(o, 96, 16, t->sampler_handle);
	put(o, 112, 16, t->texture_handle);
}

/* ------------------------------------------------------------- bundles */

static midgard_kind kind_of_tag(unsigned tag)
{
	if (tag >= MIDGARD_TAG_ALU4)
		return MIDGARD_KIND_ALU;
	return tag == MIDGARD_TAG_LOAD_STORE ? MIDGARD_KIND_LOAD_STORE : MIDGARD_KIND_TEXTURE;
}

static bool tag_known(unsigned tag)
{
	return tag >= MIDGARD_TAG_TEXTURE_VTX && tag <= 0xF && tag != 6 && tag != 7;
}

midgard_status midgard_unpack(const uint32_t *words, size_t nwords, midgard_bundle *out)
{
	memset(out, 0, sizeof *out);
	if (nwords == 0)
		return MIDGARD_ERR_TRUNCATED;
	out->tag = words[0] & 0xFu;
	out->next_tag = (words[0] >> 4) & 0xFu;
	if (!tag_known(out->tag))
		return MIDGARD_ERR_TAG;
	out->kind = kind_of_tag(out->tag);
	out->nwords = midgard_tag_quadwords(out->tag) * 4u;
	if (nwords < out->nwords)
		return MIDGARD_ERR_TRUNCATED;
	switch (out->kind) {
	case MIDGARD_KIND_ALU:
		return unpack_alu(words, out);
	case MIDGARD_KIND_LOAD_STORE:
		unpack_ldst_op(words, 8, &out->u.ldst.op[0]);
		unpack_ldst_op(words, 68, &out->u.ldst.op[1]);
		add_part(out, MIDGARD_PART_LOAD_STORE, -1, 0, 128);
		return MIDGARD_OK;
	case MIDGARD_KIND_TEXTURE:
		add_part(out, MIDGARD_PART_TEXTURE, -1, 0, 128);
		return unpack_texture(words, &out->u.tex);
	}
	return MIDGARD_ERR_TAG;
}

midgard_status midgard_pack(midgard_bundle *b, uint32_t *words, size_t cap)
{
	if (b->tag > 0xF || b->next_tag > 0xF)
		return MIDGARD_ERR_RANGE;
	if (!tag_known(b->tag))
		return MIDGARD_ERR_TAG;
	if (kind_of_tag(b->tag) != b->kind)
		return MIDGARD_ERR_KIND;
	b->nwords = midgard_tag_quadwords(b->tag) * 4u;
	if (cap < b->nwords)
		return MIDGARD_ERR_TRUNCATED;
	memset(words, 0, b->nwords * sizeof *words);
	writer o = {words, MIDGARD_OK};
	b->nparts = 0;
	if (b->kind == MIDGARD_KIND_ALU)
		return pack_alu(b, &o);
	put(&o, 0, 4, b->tag);
	put(&o, 4, 4, b->next_tag);
	if (b->kind == MIDGARD_KIND_LOAD_STORE) {
		pack_ldst_op(&o, 8, &b->u.ldst.op[0]);
		pack_ldst_op(&o, 68, &b->u.ldst.op[1]);
		add_part(b, MIDGARD_PART_LOAD_STORE, -1, 0, 128);
	} else {
		pack_texture(&o, &b->u.tex);
		add_part(b, MIDGARD_PART_TEXTURE, -1, 0, 128);
	}
	return o.st;
}

/* ----------------------------------------------------------- immediates */

uint16_t midgard_unit_imm(const midgard_alu_unit *u, midgard_unit which)
{
	unsigned hi = (unsigned)u->reg.src2_reg << 11;
	if (midgard_unit_is_vector(which))
		return (uint16_t)(hi | (unsigned)u->vec.src2.expand << 8 | u->vec.src2.swizzle);
	const midgard_scalar_alu *s = &u->sca;
	return (uint16_t)(hi | (unsigned)s->src2.mod << 9 | (unsigned)s->src2.full << 8 |
	                  (unsigned)s->src2.component << 5 | s->src2_imm_bits);
}

void midgard_unit_set_imm(midgard_alu_unit *u, midgard_unit which, uint16_t imm)
{
	u->reg.src2_imm = true;
	u->reg.src2_reg = (uint8_t)(imm >> 11);
	if (midgard_unit_is_vector(which)) {
		u->vec.src2.expand = (uint8_t)((imm >> 8) & 7u);
		u->vec.src2.swizzle = (uint8_t)(imm & 0xFFu);
		return;
	}
	u->sca.src2.mod = (uint8_t)((imm >> 9) & 3u);
	u->sca.src2.full = (imm >> 8) & 1u;
	u->sca.src2.component = (uint8_t)((imm >> 5) & 7u);
	u->sca.src2_imm_bits = (uint8_t)(imm & 0x1Fu);
}

/* ------------------------------------------------------------ generator */

void midgard_rng_seed(midgard_rng *r, uint64_t seed)
{
	r->state = seed ? seed : UINT64_C(0x9E3779B97F4A7C15);
}

uint64_t midgard_rng_next(midgard_rng *r)
{
	/* xorshift64* */
	uint64_t x = r->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

static unsigned rnd(midgard_rng *r, unsigned n)
{
	return (unsigned)((midgard_rng_next(r) >> 32) % n);
}

static int64_t rnd_signed(midgard_rng *r, unsigned bits)
{
	return sext(midgard_rng_next(r) >> (64u - bits), bits);
}

/* Tags a bundle can name as its successor or branch target. */
static const uint8_t bundle_tags[] = {2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
static const uint8_t branch_ops[] = {1, 2, 4, 6, 7};

static unsigned random_alu_op(midgard_rng *r, midgard_unit u)
{
	/* Reservoir choice among the opcodes the unit may run. */
	unsigned pick = 0, seen = 0;
	for (size_t i = 0; i < N(alu_ops); i++)
		if (alu_ops[i].units & (1u << u))
			if (rnd(r, ++seen) == 0)
				pick = alu_ops[i].op;
	return pick;
}

static void random_scalar_src(midgard_rng *r, midgard_scalar_src *s)
{
	s->mod = (uint8_t)rnd(r, 4);
	s->full = rnd(r, 2);
	s->component = (uint8_t)(s->full ? 2u * rnd(r, 4) : rnd(r, 8));
}

static void random_unit(midgard_rng *r, midgard_alu_unit *un, midgard_unit u)
{
	un->enabled = true;
	un->reg.src1_reg = (uint8_t)rnd(r, 32);
	un->reg.src2_reg = (uint8_t)rnd(r, 32);
	un->reg.out_reg = (uint8_t)rnd(r, 32);
	if (midgard_unit_is_vector(u)) {
		midgard_vector_alu *v = &un->vec;
		v->op = (uint8_t)random_alu_op(r, u);
		v->reg_mode = (uint8_t)rnd(r, 4);
		midgard_vector_src *src[2] = {&v->src1, &v->src2};
		for (int i = 0; i < 2; i++) {
			src[i]->mod = (uint8_t)rnd(r, 4);
			src[i]->expand = (uint8_t)rnd(r, 8);
			src[i]->swizzle = (uint8_t)rnd(r, 256);
		}
		v->shrink_mode = (uint8_t)rnd(r, 3); /* 3 is undefined */
		v->outmod = (uint8_t)rnd(r, 4);
		v->mask = (uint8_t)rnd(r, 256);
		/* an 8-bit result has no half to shrink into */
		if (v->reg_mode == 0)
			v->shrink_mode = 2;
		/* an integer result not shrunk keeps its low half */
		if (midgard_alu_op_int_result(v->op) && v->shrink_mode == 2)
			v->outmod = 2;
		/* a reduction writes one component, of 16 bits or more */
		if (midgard_alu_op_reduces(v->op)) {
			v->reg_mode = (uint8_t)(1u + rnd(r, 3));
			unsigned lanes = 8u >> (v->reg_mode - 1u), per = 8u / lanes;
			v->mask = (uint8_t)(((1u << per) - 1u) << (per * rnd(r, lanes)));
		}
	} else {
		midgard_scalar_alu *s = &un->sca;
		s->op = (uint8_t)random_alu_op(r, u);
		random_scalar_src(r, &s->src1);
		random_scalar_src(r, &s->src2);
		s->outmod = (uint8_t)rnd(r, 4);
		s->output_full = rnd(r, 2);
		s->output_component = (uint8_t)(s->output_full ? 2u * rnd(r, 4) : rnd(r, 8));
		if (midgard_alu_op_int_result(s->op) && s->output_full)
			s->outmod = 2; /* keeplo */
	}
	if (rnd(r, 4) == 0)
		midgard_unit_set_imm(un, u, (uint16_t)rnd(r, 65536));
}

static void random_alu(midgard_rng *r, midgard_bundle *b)
{
	midgard_alu_bundle *a = &b->u.alu;
	bool any = false;
	for (unsigned u = 0; u < MIDGARD_UNITS; u++)
		if (rnd(r, 2)) {
			random_unit(r, &a->unit[u], (midgard_unit)u);
			any = true;
		}
	switch (rnd(r, any ? 3 : 2)) {
	case 0:
		a->has_compact = true;
		a->compact.op = branch_ops[rnd(r, N(branch_ops))];
		a->compact.dest_tag = bundle_tags[rnd(r, N(bundle_tags))];
		a->compact.offset = (int8_t)rnd_signed(r, 7);
		if (a->compact.op == 1)
			a->compact.call_mode = (uint8_t)(1u + rnd(r, 3));
		else
			a->compact.cond = (uint8_t)rnd(r, 4);
		break;
	case 1:
		a->has_extended = true;
		a->extended.op = branch_ops[rnd(r, N(branch_ops))];
		a->extended.dest_tag = bundle_tags[rnd(r, N(bundle_tags))];
		a->extended.call_mode = (uint8_t)(1u + rnd(r, 3));
		a->extended.offset = (int32_t)rnd_signed(r, 23);
		a->extended.cond = (uint16_t)rnd(r, 65536);
		break;
	default:
		break;
	}
	if (rnd(r, 4) == 0) {
		a->has_constants = true;
		for (int i = 0; i < 4; i++)
			a->constants[i] = (uint32_t)midgard_rng_next(r);
	}
	b->tag = (uint8_t)midgard_alu_tag(a, rnd(r, 4) == 0);
}

static void random_ldst_op(midgard_rng *r, midgard_ldst_op *l)
{
	if (rnd(r, 4) == 0) {
		l->op = MIDGARD_LDST_NOOP;
		return;
	}
	/* Any named opcode but the no-op (the first entry). */
	l->op = ldst_ops[1 + rnd(r, (unsigned)N(ldst_ops) - 1u)].op;
	/* a store reads one of the eight load/store registers */
	l->reg = (uint8_t)rnd(r, midgard_ldst_is_store(l->op) ? 8 : 32);
	l->mask = (uint8_t)rnd(r, 16);
	l->swizzle = (uint8_t)rnd(r, 256);
	l->arg_comp = (uint8_t)rnd(r, 4);
	l->arg_reg = (uint8_t)rnd(r, 8);
	l->bitsize_toggle = rnd(r, 2);
	l->index_format = (uint8_t)rnd(r, 4);
	l->index_comp = (uint8_t)rnd(r, 4);
	l->index_reg = (uint8_t)rnd(r, 8);
	l->index_shift = (uint8_t)rnd(r, 16);
	l->offset = (int32_t)rnd_signed(r, 18);
}

static void random_texture(midgard_rng *r, midgard_texture_bundle *t)
{
	static const uint8_t modes[] = {1, 5, 6, 8, 9, 10, 11};
	t->out_of_order = (uint8_t)rnd(r, 16);
	if (rnd(r, 8) == 0) {
		t->barrier = true;
		t->op = MIDGARD_TEX_OP_BARRIER;
		t->cont = rnd(r, 2);
		t->last = rnd(r, 2);
		return;
	}
	t->op = tex_ops[rnd(r, N(tex_ops))];
	t->mode = t->op == 13 ? (uint8_t)rnd(r, 2) : modes[rnd(r, N(modes))];
	t->exec = (uint8_t)(1u + rnd(r, 3));
	t->format = (uint8_t)rnd(r, 4);
	t->sampler_reg = rnd(r, 2);
	t->texture_reg = rnd(r, 2);
	t->lod_reg = rnd(r, 2);
	t->offset_reg = rnd(r, 2);
	t->in_full = rnd(r, 2);
	t->in_select = rnd(r, 2);
	t->in_upper = rnd(r, 2);
	t->in_swizzle = (uint8_t)rnd(r, 256);
	t->out_full = rnd(r, 2);
	t->sampler_type = (uint8_t)(1u + rnd(r, 3));
	t->out_select = rnd(r, 2);
	t->out_upper = rnd(r, 2);
	t->mask = (uint8_t)rnd(r, 16);
	t->outmod = (uint8_t)rnd(r, 4);
	t->swizzle = (uint8_t)rnd(r, 256);
	t->offset = (uint16_t)rnd(r, 4096);
	t->bias = (uint8_t)rnd(r, 256);
	t->bias_int = (int8_t)rnd_signed(r, 8);
	/* a LOD register or a fetch's integer LOD leaves BIAS_INT zero */
	if (t->lod_reg || t->op == 4)
		t->bias_int = 0;
	t->sampler_handle = (uint16_t)rnd(r, 65536);
	t->texture_handle = (uint16_t)rnd(r, 65536);
}

void midgard_random_bundle(midgard_rng *r, midgard_bundle *out)
{
	memset(out, 0, sizeof *out);
	static const uint8_t next_tags[] = {1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
	out->next_tag = next_tags[rnd(r, N(next_tags))];
	unsigned k = rnd(r, 5);
	if (k < 3) {
		out->kind = MIDGARD_KIND_ALU;
		random_alu(r, out);
	} else if (k == 3) {
		out->kind = MIDGARD_KIND_LOAD_STORE;
		out->tag = MIDGARD_TAG_LOAD_STORE;
		random_ldst_op(r, &out->u.ldst.op[0]);
		random_ldst_op(r, &out->u.ldst.op[1]);
	} else {
		out->kind = MIDGARD_KIND_TEXTURE;
		random_texture(r, &out->u.tex);
		/* a barrier is the bundle of tag 4, the other ops 2 or 3 */
		out->tag = out->u.tex.barrier ? (uint8_t)MIDGARD_TAG_TEXTURE_BARRIER
		                              : (uint8_t)(MIDGARD_TAG_TEXTURE_VTX + rnd(r, 2));
	}
}
