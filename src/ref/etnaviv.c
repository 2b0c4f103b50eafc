/*
 * etnaviv.c - the reference codec of the Vivante GC instruction set,
 * written by hand from ../shared/facts/ISA-FACTS.md section 3 (bit
 * layout 3.2, opcodes 3.3, reserved bits 3.4) and etnaviv_opcode_table.md.
 * See etnaviv.h.  Deliberately plain: a table of opcodes, a table of bit
 * positions, and straight-line code, so that it reads like the fact sheet.
 */
#include "etnaviv.h"
#include "bits.h"

#include <stdio.h>
#include <string.h>

/* How an instruction uses a source slot. */
enum slot_use {
	UNUSED,   /* every bit of the slot is 0 */
	READ,     /* use bit 1, the rest free */
	OPTIONAL, /* use bit free, the rest free */
	ESCAPE,   /* slot 2 of opcode 0x7F: use 1, reg = ext_op, amode 4, rgroup 7, rest 0 */
	TARGET,   /* slot 2 of control flow: its bits hold the branch target instead */
};

typedef struct op_info {
	unsigned opcode, ext_op;
	const char *name;
	ref_etnaviv_unit unit;
	unsigned char slot[3];
} op_info;

#define ALU REF_ETNAVIV_ALU
#define TEX REF_ETNAVIV_TEX
#define CF REF_ETNAVIV_CF
#define LD REF_ETNAVIV_LOAD
#define ST REF_ETNAVIV_STORE
#define U UNUSED
#define R READ
#define O OPTIONAL
#define T TARGET

/* Every instruction of the opcode table, by opcode; 0x16 three times (by
 * which of slots 0 and 1 it reads), 0x7F once per escaped operation.
 * The slot columns come from the table's class names ("alu-src0-src2"
 * reads slots 0 and 2, "maybe" makes a slot optional). */
static const op_info op_table[] = {
	{0x00, 0, "nop", ALU, {U, U, U}},
	{0x01, 0, "add", ALU, {R, U, R}},
	{0x02, 0, "mad", ALU, {R, R, R}},
	{0x03, 0, "mul", ALU, {R, R, U}},
	{0x05, 0, "dp3", ALU, {R, R, U}},
	{0x06, 0, "dp4", ALU, {R, R, U}},
	{0x07, 0, "dsx", ALU, {R, U, R}},
	{0x08, 0, "dsy", ALU, {R, U, R}},
	{0x09, 0, "mov", ALU, {U, U, R}},
	{0x0A, 0, "movar", ALU, {U, U, R}},
	{0x0C, 0, "rcp", ALU, {U, U, R}},
	{0x0D, 0, "rsq", ALU, {U, U, R}},
	{0x0F, 0, "select", ALU, {R, R, R}},
	{0x10, 0, "set", ALU, {R, R, U}},
	{0x11, 0, "exp", ALU, {U, U, R}},
	{0x12, 0, "log", ALU, {U, U, R}},
	{0x13, 0, "frc", ALU, {U, U, R}},
	{0x14, 0, "call", CF, {U, U, T}},
	{0x15, 0, "ret", ALU, {U, U, U}},
	{0x16, 0, "branch", CF, {U, U, T}},
	{0x16, 0, "branch", CF, {R, U, T}},
	{0x16, 0, "branch", CF, {R, R, T}},
	{0x17, 0, "texkill", ALU, {O, O, U}},
	{0x18, 0, "texld", TEX, {R, U, U}},
	{0x19, 0, "texldb", TEX, {O, O, U}},
	{0x1A, 0, "texldd", TEX, {R, R, R}},
	{0x1B, 0, "texldl", TEX, {O, O, U}},
	{0x21, 0, "sqrt", ALU, {U, U, R}},
	{0x22, 0, "sin", ALU, {U, U, R}},
	{0x23, 0, "cos", ALU, {U, U, R}},
	{0x24, 0, "branch_any", CF, {R, R, T}},
	{0x25, 0, "floor", ALU, {U, U, R}},
	{0x26, 0, "ceil", ALU, {U, U, R}},
	{0x27, 0, "sign", ALU, {U, U, R}},
	{0x2A, 0, "barrier", ALU, {U, U, U}},
	{0x2B, 0, "swizzle", ALU, {R, R, R}},
	{0x2C, 0, "i2i", ALU, {R, R, U}},
	{0x2D, 0, "i2f", ALU, {R, U, U}},
	{0x2E, 0, "f2i", ALU, {R, U, U}},
	{0x2F, 0, "f2irnd", ALU, {R, U, U}},
	{0x31, 0, "cmp", ALU, {R, R, R}},
	{0x32, 0, "load", LD, {R, R, U}},
	{0x33, 0, "store", ST, {R, R, R}},
	{0x36, 0, "clamp0_max", ALU, {R, R, U}},
	{0x3B, 0, "iaddsat", ALU, {R, U, R}},
	{0x3C, 0, "imullo0", ALU, {R, R, U}},
	{0x40, 0, "imulhi0", ALU, {R, R, U}},
	{0x44, 0, "idiv0", ALU, {R, R, U}},
	{0x48, 0, "imod", ALU, {R, R, U}},
	{0x49, 0, "txf", TEX, {R, R, R}},
	{0x4C, 0, "imadlo0", ALU, {R, R, R}},
	{0x4E, 0, "imadlosat0", ALU, {R, R, R}},
	{0x56, 0, "movai", ALU, {U, U, R}},
	{0x57, 0, "iabs", ALU, {U, U, R}},
	{0x58, 0, "leadzero", ALU, {U, U, R}},
	{0x59, 0, "lshift", ALU, {R, U, R}},
	{0x5A, 0, "rshift", ALU, {R, U, R}},
	{0x5B, 0, "rotate", ALU, {R, U, R}},
	{0x5C, 0, "or", ALU, {R, U, R}},
	{0x5D, 0, "and", ALU, {R, U, R}},
	{0x5E, 0, "xor", ALU, {R, U, R}},
	{0x5F, 0, "not", ALU, {U, U, R}},
	{0x60, 0, "bit_extract", ALU, {R, R, R}},
	{0x61, 0, "popcount", ALU, {U, U, R}},
	{0x64, 0, "div", ALU, {U, R, R}},
	{0x65, 0, "atomic_add", ALU, {R, R, R}},
	{0x66, 0, "atomic_xchg", ALU, {R, R, R}},
	{0x67, 0, "atomic_cmp_xchg", ALU, {R, R, R}},
	{0x68, 0, "atomic_min", ALU, {R, R, R}},
	{0x69, 0, "atomic_max", ALU, {R, R, R}},
	{0x6A, 0, "atomic_or", ALU, {R, R, R}},
	{0x6B, 0, "atomic_and", ALU, {R, R, R}},
	{0x6C, 0, "atomic_xor", ALU, {R, R, R}},
	{0x6D, 0, "bit_rev", ALU, {R, U, U}},
	{0x6F, 0, "texldlpcf", TEX, {R, R, R}},
	{0x70, 0, "texldgpcf", TEX, {R, R, R}},
	{0x72, 0, "conv", ALU, {R, R, U}},
	{0x73, 0, "dp2", ALU, {R, R, U}},
	{0x74, 0, "norm_dp2", ALU, {R, U, U}},
	{0x75, 0, "norm_dp3", ALU, {R, U, U}},
	{0x76, 0, "norm_dp4", ALU, {R, U, U}},
	{0x79, 0, "img_load", LD, {R, R, U}},
	{0x7A, 0, "img_store", ST, {R, R, R}},
	{0x7F, 0x0B, "bit_findlsb", ALU, {R, U, ESCAPE}},
	{0x7F, 0x0C, "bit_findmsb", ALU, {R, U, ESCAPE}},
};

#define NOPS (sizeof op_table / sizeof op_table[0])

/* ---------------------------------------------------------------- bits */

/* Whether any bit of low..high is set. */
static bool any_set(const uint32_t w[4], unsigned low, unsigned high)
{
	for (unsigned b = low; b <= high; b++)
		if ((w[b / 32] >> (b % 32)) & 1u)
			return true;
	return false;
}

static void copy_set(const uint32_t w[4], unsigned low, unsigned high, uint32_t out[4])
{
	for (unsigned b = low; b <= high; b++)
		out[b / 32] |= w[b / 32] & (1u << (b % 32));
}

/* Where each source slot's fields are (ISA-FACTS 3.2). */
typedef struct slot_layout {
	unsigned use, reg, swiz, neg, abs, amode, rgroup;
	/* the slot's bits as ranges, for "all zero" */
	unsigned ranges[3][2];
} slot_layout;

static const slot_layout slots[3] = {
	{43, 44, 54, 62, 63, 64, 67, {{43, 52}, {54, 69}, {54, 69}}},
	{70, 71, 81, 89, 90, 91, 96, {{70, 79}, {81, 93}, {96, 98}}},
	{99, 100, 110, 118, 119, 121, 124, {{99, 108}, {110, 119}, {121, 126}}},
};

static bool slot_is_zero(const uint32_t w[4], unsigned s)
{
	for (unsigned r = 0; r < 3; r++)
		if (any_set(w, slots[s].ranges[r][0], slots[s].ranges[r][1]))
			return false;
	return true;
}

static void read_slot(const uint32_t w[4], unsigned s, ref_etnaviv_src *o)
{
	const slot_layout *l = &slots[s];
	o->use = ref_bits_get(w, l->use, 1);
	o->reg = ref_bits_get(w, l->reg, 9);
	o->swiz = ref_bits_get(w, l->swiz, 8);
	o->neg = ref_bits_get(w, l->neg, 1);
	o->abs = ref_bits_get(w, l->abs, 1);
	o->amode = ref_bits_get(w, l->amode, 3);
	o->rgroup = ref_bits_get(w, l->rgroup, 3);
}

static void write_slot(uint32_t w[4], unsigned s, const ref_etnaviv_src *i)
{
	const slot_layout *l = &slots[s];
	ref_bits_put(w, l->use, 1, i->use);
	ref_bits_put(w, l->reg, 9, i->reg);
	ref_bits_put(w, l->swiz, 8, i->swiz);
	ref_bits_put(w, l->neg, 1, i->neg);
	ref_bits_put(w, l->abs, 1, i->abs);
	ref_bits_put(w, l->amode, 3, i->amode);
	ref_bits_put(w, l->rgroup, 3, i->rgroup);
}

/* ----------------------------------------------------- reserved bits */

typedef struct bit_range {
	unsigned low, high;
} bit_range;

/* Bits that must be zero, per unit (ISA-FACTS 3.4; CF also 3.2's note on
 * TARGET: bits 99..102 and 118..127 are zero). */
static const bit_range zero_alu[] = {{27, 31}, {35, 38}, {40, 42}, {0, 0}};
static const bit_range zero_tex[] = {{109, 109}, {120, 120}, {127, 127}, {0, 0}};
static const bit_range zero_cf[] = {{12, 33}, {35, 42}, {99, 102}, {118, 127}, {0, 0}};
static const bit_range zero_load[] = {{27, 33}, {38, 38}, {41, 41}, {0, 0}};
static const bit_range zero_store[] = {{38, 38}, {0, 0}};
/* Declared don't-care bits, per unit. */
static const bit_range x_cf[] = {{34, 34}, {0, 0}};
static const bit_range x_store[] = {{12, 22}, {27, 33}, {41, 41}, {0, 0}};
static const bit_range x_none[] = {{0, 0}};

static const bit_range *zero_bits(ref_etnaviv_unit u)
{
	switch (u) {
	case REF_ETNAVIV_ALU: return zero_alu;
	case REF_ETNAVIV_TEX: return zero_tex;
	case REF_ETNAVIV_CF: return zero_cf;
	case REF_ETNAVIV_LOAD: return zero_load;
	case REF_ETNAVIV_STORE: return zero_store;
	}
	return x_none;
}

static const bit_range *dontcare_bits(ref_etnaviv_unit u)
{
	if (u == REF_ETNAVIV_CF)
		return x_cf;
	if (u == REF_ETNAVIV_STORE)
		return x_store;
	return x_none;
}

/* ------------------------------------------------------------ decode */

/* Whether the word fits op's slot uses and its unit's zero bits. */
static bool fits(const op_info *op, const uint32_t w[4])
{
	for (const bit_range *r = zero_bits(op->unit); r->high; r++)
		if (any_set(w, r->low, r->high))
			return false;
	for (unsigned s = 0; s < 3; s++) {
		switch (op->slot[s]) {
		case UNUSED:
			if (!slot_is_zero(w, s))
				return false;
			break;
		case READ:
			if (!ref_bits_get(w, slots[s].use, 1))
				return false;
			break;
		case OPTIONAL:
		case TARGET:
			break;
		case ESCAPE: {
			ref_etnaviv_src e;
			read_slot(w, s, &e);
			if (!e.use || e.reg != op->ext_op || e.swiz || e.neg || e.abs ||
			    e.amode != 4 || e.rgroup != 7)
				return false;
			break;
		}
		}
	}
	return true;
}

static const op_info *find_for_word(const uint32_t w[4], unsigned opcode, unsigned ext,
                                    ref_etnaviv_status *why)
{
	bool known = false;
	*why = REF_ETNAVIV_E_OPCODE;
	for (size_t i = 0; i < NOPS; i++) {
		const op_info *op = &op_table[i];
		if (op->opcode != opcode || (opcode == REF_ETNAVIV_ESCAPE && op->ext_op != ext))
			continue;
		known = true;
		if (fits(op, w))
			return op;
	}
	if (known) {
		/* Name the first thing wrong: reserved bits before slot uses. */
		*why = REF_ETNAVIV_E_SLOT;
		for (size_t i = 0; i < NOPS; i++) {
			const op_info *op = &op_table[i];
			if (op->opcode != opcode)
				continue;
			for (const bit_range *r = zero_bits(op->unit); r->high; r++)
				if (any_set(w, r->low, r->high))
					*why = REF_ETNAVIV_E_RESERVED;
			if (op->slot[2] == ESCAPE)
				*why = REF_ETNAVIV_E_RESERVED;
			break;
		}
	}
	return NULL;
}

ref_etnaviv_status ref_etnaviv_decode(const uint32_t w[4], ref_etnaviv_inst *out)
{
	memset(out, 0, sizeof *out);
	unsigned opcode = ref_bits_get(w, 0, 6) | ref_bits_get(w, 80, 1) << 6;
	unsigned ext = opcode == REF_ETNAVIV_ESCAPE ? ref_bits_get(w, 100, 9) : 0;
	out->opcode = opcode;
	out->ext_op = ext;
	ref_etnaviv_status why;
	const op_info *op = find_for_word(w, opcode, ext, &why);
	if (!op)
		return why;

	out->cond = ref_bits_get(w, 6, 5);
	out->sat = ref_bits_get(w, 11, 1);
	out->type = ref_bits_get(w, 53, 1) << 2 | ref_bits_get(w, 94, 2);
	for (unsigned s = 0; s < 3; s++)
		if (op->slot[s] != ESCAPE && op->slot[s] != TARGET)
			read_slot(w, s, &out->src[s]);

	switch (op->unit) {
	case REF_ETNAVIV_ALU:
		out->rounding = ref_bits_get(w, 32, 2);
		break;
	case REF_ETNAVIV_TEX:
		out->tex_id = ref_bits_get(w, 27, 5);
		out->tex_amode = ref_bits_get(w, 32, 3);
		out->tex_swiz = ref_bits_get(w, 35, 8);
		break;
	case REF_ETNAVIV_CF:
		out->target = ref_bits_get(w, 103, 15);
		break;
	case REF_ETNAVIV_LOAD:
	case REF_ETNAVIV_STORE:
		out->left_shift = ref_bits_get(w, 35, 3);
		out->local = ref_bits_get(w, 40, 1);
		out->denorm = ref_bits_get(w, 42, 1);
		break;
	}
	if (op->unit != REF_ETNAVIV_CF && op->unit != REF_ETNAVIV_STORE) {
		out->dst_use = ref_bits_get(w, 12, 1);
		out->dst_amode = ref_bits_get(w, 13, 3);
		out->dst_reg = ref_bits_get(w, 16, 7);
	}
	if (op->unit != REF_ETNAVIV_CF)
		out->dst_comps = ref_bits_get(w, 23, 4);
	if (op->unit == REF_ETNAVIV_ALU || op->unit == REF_ETNAVIV_LOAD ||
	    op->unit == REF_ETNAVIV_STORE) {
		out->pack_off = ref_bits_get(w, 34, 1);
		out->skphp = ref_bits_get(w, 39, 1);
		out->low_half = ref_bits_get(w, 109, 1);
		out->high_half = ref_bits_get(w, 120, 1);
		out->dst_full = ref_bits_get(w, 127, 1);
	}
	for (const bit_range *r = dontcare_bits(op->unit); r->high; r++)
		copy_set(w, r->low, r->high, out->dontcare);
	return REF_ETNAVIV_OK;
}

/* ------------------------------------------------------------ encode */

static ref_etnaviv_status fail(ref_etnaviv_status s, uint32_t w[4], char *err, size_t errlen,
                               const char *what, unsigned value)
{
	memset(w, 0, 4 * sizeof *w);
	if (err && errlen)
		snprintf(err, errlen, "%s: %s (%u)", ref_etnaviv_status_text(s), what, value);
	return s;
}

static const op_info *find_for_inst(const ref_etnaviv_inst *in)
{
	for (size_t i = 0; i < NOPS; i++) {
		const op_info *op = &op_table[i];
		if (op->opcode != in->opcode)
			continue;
		if (in->opcode == REF_ETNAVIV_ESCAPE && op->ext_op != in->ext_op)
			continue;
		/* the three forms of branch differ in the slots they read */
		bool ok = true;
		for (unsigned s = 0; s < 2; s++)
			if ((op->slot[s] == READ && !in->src[s].use) ||
			    (op->slot[s] == UNUSED && in->src[s].use))
				ok = false;
		if (ok)
			return op;
	}
	return NULL;
}

typedef struct range_check {
	const char *name;
	unsigned value, bits;
} range_check;

ref_etnaviv_status ref_etnaviv_encode(const ref_etnaviv_inst *in, uint32_t w[4], char *err,
                                      size_t errlen)
{
	memset(w, 0, 4 * sizeof *w);
	const range_check ranges[] = {
		{"opcode", in->opcode, 7}, {"ext_op", in->ext_op, 9}, {"cond", in->cond, 5},
		{"type", in->type, 3}, {"dst_amode", in->dst_amode, 3}, {"dst_reg", in->dst_reg, 7},
		{"dst_comps", in->dst_comps, 4}, {"rounding", in->rounding, 2},
		{"left_shift", in->left_shift, 3}, {"tex_id", in->tex_id, 5},
		{"tex_amode", in->tex_amode, 3}, {"tex_swiz", in->tex_swiz, 8},
		{"target", in->target, 15},
		{"src[0].reg", in->src[0].reg, 9}, {"src[0].swiz", in->src[0].swiz, 8},
		{"src[0].amode", in->src[0].amode, 3}, {"src[0].rgroup", in->src[0].rgroup, 3},
		{"src[1].reg", in->src[1].reg, 9}, {"src[1].swiz", in->src[1].swiz, 8},
		{"src[1].amode", in->src[1].amode, 3}, {"src[1].rgroup", in->src[1].rgroup, 3},
		{"src[2].reg", in->src[2].reg, 9}, {"src[2].swiz", in->src[2].swiz, 8},
		{"src[2].amode", in->src[2].amode, 3}, {"src[2].rgroup", in->src[2].rgroup, 3},
	};
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		if (ranges[i].value >> ranges[i].bits)
			return fail(REF_ETNAVIV_E_RANGE, w, err, errlen, ranges[i].name,
			            ranges[i].value);
	if (in->opcode != REF_ETNAVIV_ESCAPE && in->ext_op)
		return fail(REF_ETNAVIV_E_FIELD, w, err, errlen, "ext_op without opcode 0x7F",
		            in->ext_op);

	const op_info *op = find_for_inst(in);
	if (!op) {
		bool known = ref_etnaviv_opcode_name(in->opcode, in->ext_op) != NULL;
		return fail(known ? REF_ETNAVIV_E_SLOT : REF_ETNAVIV_E_OPCODE, w, err, errlen,
		            known ? "slot uses fit no form of the opcode" : "opcode", in->opcode);
	}
	ref_etnaviv_unit u = op->unit;
	bool has_dst = u == REF_ETNAVIV_ALU || u == REF_ETNAVIV_TEX || u == REF_ETNAVIV_LOAD;
	bool has_mod = u == REF_ETNAVIV_ALU || u == REF_ETNAVIV_LOAD || u == REF_ETNAVIV_STORE;
	bool is_mem = u == REF_ETNAVIV_LOAD || u == REF_ETNAVIV_STORE;
	const range_check absent[] = {
		{"dst_use", !has_dst && in->dst_use, 0},
		{"dst_amode", !has_dst && in->dst_amode, 0},
		{"dst_reg", !has_dst && in->dst_reg, 0},
		{"dst_comps", u == REF_ETNAVIV_CF && in->dst_comps, 0},
		{"rounding", u != REF_ETNAVIV_ALU && in->rounding, 0},
		{"pack_off", !has_mod && in->pack_off, 0},
		{"skphp", !has_mod && in->skphp, 0},
		{"low_half", !has_mod && in->low_half, 0},
		{"high_half", !has_mod && in->high_half, 0},
		{"dst_full", !has_mod && in->dst_full, 0},
		{"left_shift", !is_mem && in->left_shift, 0},
		{"local", !is_mem && in->local, 0},
		{"denorm", !is_mem && in->denorm, 0},
		{"tex_id", u != REF_ETNAVIV_TEX && in->tex_id, 0},
		{"tex_amode", u != REF_ETNAVIV_TEX && in->tex_amode, 0},
		{"tex_swiz", u != REF_ETNAVIV_TEX && in->tex_swiz, 0},
		{"target", u != REF_ETNAVIV_CF && in->target, 0},
	};
	for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
		if (absent[i].value)
			return fail(REF_ETNAVIV_E_FIELD, w, err, errlen, absent[i].name, 1);
	static const char *const slot_names[3] = {"src[0]", "src[1]", "src[2]"};
	for (unsigned s = 0; s < 3; s++) {
		const ref_etnaviv_src *src = &in->src[s];
		bool nonzero = src->use || src->reg || src->swiz || src->neg || src->abs ||
		               src->amode || src->rgroup;
		if ((op->slot[s] == UNUSED || op->slot[s] == ESCAPE || op->slot[s] == TARGET) &&
		    nonzero)
			return fail(REF_ETNAVIV_E_SLOT, w, err, errlen, slot_names[s], s);
		if (op->slot[s] == READ && !src->use)
			return fail(REF_ETNAVIV_E_SLOT, w, err, errlen, slot_names[s], s);
	}

	ref_bits_put(w, 0, 6, in->opcode & 0x3f);
	ref_bits_put(w, 80, 1, in->opcode >> 6);
	ref_bits_put(w, 6, 5, in->cond);
	ref_bits_put(w, 11, 1, in->sat);
	ref_bits_put(w, 53, 1, in->type >> 2);
	ref_bits_put(w, 94, 2, in->type & 3);
	for (unsigned s = 0; s < 3; s++) {
		if (op->slot[s] == ESCAPE) {
			ref_etnaviv_src e = {.use = true, .reg = op->ext_op, .amode = 4, .rgroup = 7};
			write_slot(w, s, &e);
		} else if (op->slot[s] != UNUSED && op->slot[s] != TARGET) {
			write_slot(w, s, &in->src[s]);
		}
	}
	if (has_dst) {
		ref_bits_put(w, 12, 1, in->dst_use);
		ref_bits_put(w, 13, 3, in->dst_amode);
		ref_bits_put(w, 16, 7, in->dst_reg);
	}
	if (u != REF_ETNAVIV_CF)
		ref_bits_put(w, 23, 4, in->dst_comps);
	if (u == REF_ETNAVIV_ALU)
		ref_bits_put(w, 32, 2, in->rounding);
	if (u == REF_ETNAVIV_TEX) {
		ref_bits_put(w, 27, 5, in->tex_id);
		ref_bits_put(w, 32, 3, in->tex_amode);
		ref_bits_put(w, 35, 8, in->tex_swiz);
	}
	if (u == REF_ETNAVIV_CF)
		ref_bits_put(w, 103, 15, in->target);
	if (has_mod) {
		ref_bits_put(w, 34, 1, in->pack_off);
		ref_bits_put(w, 39, 1, in->skphp);
		ref_bits_put(w, 109, 1, in->low_half);
		ref_bits_put(w, 120, 1, in->high_half);
		ref_bits_put(w, 127, 1, in->dst_full);
	}
	if (is_mem) {
		ref_bits_put(w, 35, 3, in->left_shift);
		ref_bits_put(w, 40, 1, in->local);
		ref_bits_put(w, 42, 1, in->denorm);
	}
	return REF_ETNAVIV_OK;
}

/* ------------------------------------------------------------- names */

const char *ref_etnaviv_opcode_name(unsigned opcode, unsigned ext_op)
{
	for (size_t i = 0; i < NOPS; i++)
		if (op_table[i].opcode == opcode &&
		    (opcode != REF_ETNAVIV_ESCAPE || op_table[i].ext_op == ext_op))
			return op_table[i].name;
	return NULL;
}

const char *ref_etnaviv_name(const ref_etnaviv_inst *inst)
{
	const op_info *op = find_for_inst(inst);
	return op ? op->name : NULL;
}

ref_etnaviv_unit ref_etnaviv_unit_of(const ref_etnaviv_inst *inst)
{
	const op_info *op = find_for_inst(inst);
	return op ? op->unit : REF_ETNAVIV_ALU;
}

const char *ref_etnaviv_status_text(ref_etnaviv_status s)
{
	switch (s) {
	case REF_ETNAVIV_OK: return "ok";
	case REF_ETNAVIV_E_OPCODE: return "unknown opcode";
	case REF_ETNAVIV_E_RESERVED: return "reserved bits set";
	case REF_ETNAVIV_E_SLOT: return "source slot use does not fit the instruction";
	case REF_ETNAVIV_E_RANGE: return "value out of range";
	case REF_ETNAVIV_E_FIELD: return "field the instruction does not have";
	}
	return "unknown status";
}

bool ref_etnaviv_immediate(const ref_etnaviv_src *s, unsigned *kind, uint32_t *value)
{
	if (s->rgroup != 7)
		return false;
	*kind = s->amode >> 1;
	*value = (uint32_t)((s->amode & 1u) << 19 | (unsigned)s->abs << 18 |
	                    (unsigned)s->neg << 17 | (s->swiz & 0xffu) << 9 | (s->reg & 0x1ffu));
	return true;
}
