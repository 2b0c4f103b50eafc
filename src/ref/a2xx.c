/*
 * a2xx.c - the reference codec for Adreno a2xx (see a2xx.h), written by
 * hand from ../shared/facts/ISA-FACTS.md section 1, with plain shifts
 * and masks and no tables shared with the XML.
 */
#include "a2xx.h"
#include "bits.h"

#include <string.h>

const char *a2xx_status_name(a2xx_status s)
{
	switch (s) {
	case A2XX_OK: return "ok";
	case A2XX_BAD_OPCODE: return "unassigned opcode";
	case A2XX_FIXED_BIT: return "fixed bit has the wrong value";
	case A2XX_RANGE: return "value out of range";
	case A2XX_UNUSED_FIELD: return "field not in this layout is set";
	case A2XX_TRUNCATED: return "program truncated";
	case A2XX_BAD_PROGRAM: return "malformed program";
	case A2XX_TOO_MANY: return "too many slots";
	}
	return "unknown status";
}

/* ---------------------------------------------------------- bit helpers */

/* Bits lo..hi (inclusive, at most 32 wide) of a 96-bit word: the fact
 * sheet's notation. */
static uint32_t get96(const uint32_t w[3], unsigned lo, unsigned hi)
{
	return (uint32_t)ref_bits_get(w, lo, hi - lo + 1);
}

static bool fits(uint64_t v, unsigned width)
{
	return width >= 64 || (v >> width) == 0;
}

/* Writes v into bits lo..hi; the caller has checked that v fits. */
static void put96(uint32_t w[3], unsigned lo, unsigned hi, uint32_t v)
{
	ref_bits_put(w, lo, hi - lo + 1, v);
}

static uint32_t get48(uint64_t v, unsigned lo, unsigned hi)
{
	return (uint32_t)((v >> lo) & ((1ull << (hi - lo + 1)) - 1));
}

static uint64_t mask48(unsigned lo, unsigned hi)
{
	return ((1ull << (hi - lo + 1)) - 1) << lo;
}

/* ------------------------------------------------------------------- CF */

static const char *const cf_names[16] = {
	"NOP", "EXEC", "EXEC_END", "COND_EXEC", "COND_EXEC_END", "COND_PRED_EXEC",
	"COND_PRED_EXEC_END", "LOOP_START", "LOOP_END", "COND_CALL", "RETURN", "COND_JMP",
	"ALLOC", "COND_EXEC_PRED_CLEAN", "COND_EXEC_PRED_CLEAN_END", "MARK_VS_FETCH_DONE",
};

const char *a2xx_cf_opc_name(a2xx_cf_opc opc)
{
	return (unsigned)opc < 16 ? cf_names[opc] : NULL;
}

a2xx_cf_layout a2xx_cf_layout_of(a2xx_cf_opc opc)
{
	switch (opc) {
	case A2XX_CF_EXEC:
	case A2XX_CF_EXEC_END:
	case A2XX_CF_COND_EXEC:
	case A2XX_CF_COND_EXEC_END:
	case A2XX_CF_COND_PRED_EXEC:
	case A2XX_CF_COND_PRED_EXEC_END:
	case A2XX_CF_COND_EXEC_PRED_CLEAN:
	case A2XX_CF_COND_EXEC_PRED_CLEAN_END:
		return A2XX_CF_LAYOUT_EXEC;
	case A2XX_CF_LOOP_START:
	case A2XX_CF_LOOP_END:
		return A2XX_CF_LAYOUT_LOOP;
	case A2XX_CF_COND_CALL:
	case A2XX_CF_RETURN:
	case A2XX_CF_COND_JMP:
		return A2XX_CF_LAYOUT_JMP;
	case A2XX_CF_ALLOC:
		return A2XX_CF_LAYOUT_ALLOC;
	case A2XX_CF_NOP:
	case A2XX_CF_MARK_VS_FETCH_DONE:
		break;
	}
	return A2XX_CF_LAYOUT_BARE;
}

bool a2xx_cf_is_exec(a2xx_cf_opc opc)
{
	return (unsigned)opc < 16 && a2xx_cf_layout_of(opc) == A2XX_CF_LAYOUT_EXEC;
}

uint64_t a2xx_cf_dontcare_mask(a2xx_cf_layout l)
{
	switch (l) {
	case A2XX_CF_LAYOUT_EXEC:
		return mask48(9, 11);
	case A2XX_CF_LAYOUT_LOOP:
		return mask48(10, 15) | mask48(21, 42);
	case A2XX_CF_LAYOUT_JMP:
		return mask48(10, 12) | mask48(15, 32);
	case A2XX_CF_LAYOUT_ALLOC:
		return mask48(4, 39);
	case A2XX_CF_LAYOUT_BARE:
		break;
	}
	return mask48(0, 43);
}

a2xx_status a2xx_cf_decode(uint64_t v, a2xx_cf *cf)
{
	memset(cf, 0, sizeof *cf);
	if (v >> 48)
		return A2XX_RANGE;
	cf->opc = (a2xx_cf_opc)get48(v, 44, 47);
	a2xx_cf_layout l = a2xx_cf_layout_of(cf->opc);
	cf->dontcare = v & a2xx_cf_dontcare_mask(l);
	switch (l) {
	case A2XX_CF_LAYOUT_EXEC:
		cf->address = get48(v, 0, 8);
		cf->count = get48(v, 12, 14);
		cf->yield = get48(v, 15, 15);
		cf->serialize = get48(v, 16, 27);
		cf->vc = get48(v, 28, 33);
		cf->bool_addr = get48(v, 34, 41);
		cf->condition = get48(v, 42, 42);
		cf->absolute = get48(v, 43, 43);
		break;
	case A2XX_CF_LAYOUT_LOOP:
		cf->address = get48(v, 0, 9);
		cf->loop_id = get48(v, 16, 20);
		cf->absolute = get48(v, 43, 43);
		break;
	case A2XX_CF_LAYOUT_JMP:
		cf->address = get48(v, 0, 9);
		cf->force_call = get48(v, 13, 13);
		cf->predicated = get48(v, 14, 14);
		cf->direction = get48(v, 33, 33);
		cf->bool_addr = get48(v, 34, 41);
		cf->condition = get48(v, 42, 42);
		cf->absolute = get48(v, 43, 43);
		break;
	case A2XX_CF_LAYOUT_ALLOC:
		cf->size = get48(v, 0, 3);
		cf->no_serial = get48(v, 40, 40);
		cf->buffer = get48(v, 41, 42);
		cf->alloc_mode = get48(v, 43, 43);
		break;
	case A2XX_CF_LAYOUT_BARE:
		break;
	}
	return A2XX_OK;
}

/* Places value at lo..hi of *v when it fits, else records the error. */
static void place48(uint64_t *v, unsigned lo, unsigned hi, uint64_t value, a2xx_status *st)
{
	if (!fits(value, hi - lo + 1)) {
		*st = A2XX_RANGE;
		return;
	}
	*v |= value << lo;
}

a2xx_status a2xx_cf_encode(const a2xx_cf *cf, uint64_t *out)
{
	*out = 0;
	if ((unsigned)cf->opc > 15)
		return A2XX_BAD_OPCODE;
	a2xx_cf_layout l = a2xx_cf_layout_of(cf->opc);
	a2xx_status st = A2XX_OK;
	uint64_t v = (uint64_t)cf->opc << 44;
	if (cf->dontcare & ~a2xx_cf_dontcare_mask(l))
		return A2XX_RANGE;
	v |= cf->dontcare;
	/* Which fields the layout has: any other one must be zero. */
	bool has_addr = l == A2XX_CF_LAYOUT_EXEC || l == A2XX_CF_LAYOUT_LOOP || l == A2XX_CF_LAYOUT_JMP;
	bool exec = l == A2XX_CF_LAYOUT_EXEC, loop = l == A2XX_CF_LAYOUT_LOOP;
	bool jmp = l == A2XX_CF_LAYOUT_JMP, alloc = l == A2XX_CF_LAYOUT_ALLOC;
	if ((!has_addr && (cf->address || cf->absolute)) ||
	    (!exec && (cf->count || cf->yield || cf->serialize || cf->vc)) ||
	    (!exec && !jmp && (cf->bool_addr || cf->condition)) ||
	    (!loop && cf->loop_id) ||
	    (!jmp && (cf->force_call || cf->predicated || cf->direction)) ||
	    (!alloc && (cf->size || cf->no_serial || cf->buffer || cf->alloc_mode)))
		return A2XX_UNUSED_FIELD;
	switch (l) {
	case A2XX_CF_LAYOUT_EXEC:
		place48(&v, 0, 8, cf->address, &st);
		place48(&v, 12, 14, cf->count, &st);
		place48(&v, 15, 15, cf->yield, &st);
		place48(&v, 16, 27, cf->serialize, &st);
		place48(&v, 28, 33, cf->vc, &st);
		place48(&v, 34, 41, cf->bool_addr, &st);
		place48(&v, 42, 42, cf->condition, &st);
		place48(&v, 43, 43, cf->absolute, &st);
		break;
	case A2XX_CF_LAYOUT_LOOP:
		place48(&v, 0, 9, cf->address, &st);
		place48(&v, 16, 20, cf->loop_id, &st);
		place48(&v, 43, 43, cf->absolute, &st);
		break;
	case A2XX_CF_LAYOUT_JMP:
		place48(&v, 0, 9, cf->address, &st);
		place48(&v, 13, 13, cf->force_call, &st);
		place48(&v, 14, 14, cf->predicated, &st);
		place48(&v, 33, 33, cf->direction, &st);
		place48(&v, 34, 41, cf->bool_addr, &st);
		place48(&v, 42, 42, cf->condition, &st);
		place48(&v, 43, 43, cf->absolute, &st);
		break;
	case A2XX_CF_LAYOUT_ALLOC:
		place48(&v, 0, 3, cf->size, &st);
		place48(&v, 40, 40, cf->no_serial, &st);
		place48(&v, 41, 42, cf->buffer, &st);
		place48(&v, 43, 43, cf->alloc_mode, &st);
		break;
	case A2XX_CF_LAYOUT_BARE:
		break;
	}
	if (st == A2XX_OK)
		*out = v;
	return st;
}

void a2xx_cf_pair_unpack(const uint32_t w[3], uint64_t *cf0, uint64_t *cf1)
{
	*cf0 = (uint64_t)w[0] | (uint64_t)(w[1] & 0xffffu) << 32;
	*cf1 = (uint64_t)(w[1] >> 16) | (uint64_t)w[2] << 16;
}

a2xx_status a2xx_cf_pair_pack(uint64_t cf0, uint64_t cf1, uint32_t w[3])
{
	if ((cf0 >> 48) || (cf1 >> 48))
		return A2XX_RANGE;
	w[0] = (uint32_t)cf0;
	w[1] = (uint32_t)(cf0 >> 32) | (uint32_t)(cf1 & 0xffffu) << 16;
	w[2] = (uint32_t)(cf1 >> 16);
	return A2XX_OK;
}

/* ------------------------------------------------------------------ ALU */

static const char *const vector_names[32] = {
	"ADDv", "MULv", "MAXv", "MINv", "SETEv", "SETGTv", "SETGTEv", "SETNEv",
	"FRACv", "TRUNCv", "FLOORv", "MULADDv", "CNDEv", "CNDGTEv", "CNDGTv", "DOT4v",
	"DOT3v", "DOT2ADDv", "CUBEv", "MAX4v", "PRED_SETE_PUSHv", "PRED_SETNE_PUSHv",
	"PRED_SETGT_PUSHv", "PRED_SETGTE_PUSHv", "KILLEv", "KILLGTv", "KILLGTEv", "KILLNEv",
	"DSTv", "MOVAv", NULL, "VECTOR_NONE",
};

static const char *const scalar_names[64] = {
	"ADDs", "ADD_PREVs", "MULs", "MUL_PREVs", "MUL_PREV2s", "MAXs", "MINs", "SETEs",
	"SETGTs", "SETGTEs", "SETNEs", "FRACs", "TRUNCs", "FLOORs", "EXP_IEEE", "LOG_CLAMP",
	"LOG_IEEE", "RECIP_CLAMP", "RECIP_FF", "RECIP_IEEE", "RECIPSQ_CLAMP", "RECIPSQ_FF",
	"RECIPSQ_IEEE", "MOVAs", "MOVA_FLOORs", "SUBs", "SUB_PREVs", "PRED_SETEs",
	"PRED_SETNEs", "PRED_SETGTs", "PRED_SETGTEs", "PRED_SET_INVs", "PRED_SET_POPs",
	"PRED_SET_CLRs", "PRED_SET_RESTOREs", "KILLEs", "KILLGTs", "KILLGTEs", "KILLNEs",
	"KILLONEs", "SQRT_IEEE", NULL, "MUL_CONST_0", "MUL_CONST_1", "ADD_CONST_0",
	"ADD_CONST_1", "SUB_CONST_0", "SUB_CONST_1", "SIN", "COS", "RETAIN_PREV",
	[63] = "SCALAR_NONE",
};

const char *a2xx_vector_opc_name(uint32_t opc)
{
	return opc < 32 ? vector_names[opc] : NULL;
}

const char *a2xx_scalar_opc_name(uint32_t opc)
{
	return opc < 64 ? scalar_names[opc] : NULL;
}

unsigned a2xx_vector_src_count(uint32_t opc)
{
	switch (opc) {
	case A2XX_FRACv:
	case A2XX_TRUNCv:
	case A2XX_FLOORv:
	case A2XX_MAX4v:
	case A2XX_MOVAv:
		return 1;
	case A2XX_MULADDv:
	case A2XX_CNDEv:
	case A2XX_CNDGTEv:
	case A2XX_CNDGTv:
	case A2XX_DOT2ADDv:
		return 3;
	default:
		return 2;
	}
}

unsigned a2xx_swizzle_component(uint32_t swizzle, unsigned channel)
{
	return (((swizzle >> (2 * channel)) & 3u) + channel) & 3u;
}

uint32_t a2xx_swizzle_make(const unsigned c[4])
{
	uint32_t s = 0;
	for (unsigned i = 0; i < 4; i++)
		s |= ((c[i] - i) & 3u) << (2 * i);
	return s;
}

/* Operand n (0 = src1, 1 = src2, 2 = src3): where its parts live. */
static const struct {
	unsigned swiz, neg, byte, sel;
} src_bits[3] = {
	{48, 58, 80, 95},
	{40, 57, 72, 94},
	{32, 56, 64, 93},
};

a2xx_status a2xx_alu_decode(const uint32_t w[3], a2xx_alu *a)
{
	memset(a, 0, sizeof *a);
	a->vector_dest = get96(w, 0, 5);
	a->vector_dest_rel = get96(w, 6, 6);
	a->low_precision = get96(w, 7, 7);
	a->scalar_dest = get96(w, 8, 13);
	a->scalar_dest_rel = get96(w, 14, 14);
	a->export_data = get96(w, 15, 15);
	a->vector_mask = get96(w, 16, 19);
	a->scalar_mask = get96(w, 20, 23);
	a->vector_clamp = get96(w, 24, 24);
	a->scalar_clamp = get96(w, 25, 25);
	a->scalar_opc = get96(w, 26, 31);
	a->pred_select = get96(w, 59, 60);
	a->relative_addr = get96(w, 61, 61);
	a->const_1_rel = get96(w, 62, 62);
	a->const_0_rel = get96(w, 63, 63);
	a->vector_opc = get96(w, 88, 92);
	for (unsigned n = 0; n < 3; n++) {
		a2xx_alu_src *s = &a->src[n];
		uint32_t byte = get96(w, src_bits[n].byte, src_bits[n].byte + 7);
		s->temp = get96(w, src_bits[n].sel, src_bits[n].sel);
		s->negate = get96(w, src_bits[n].neg, src_bits[n].neg);
		s->swizzle = get96(w, src_bits[n].swiz, src_bits[n].swiz + 7);
		if (s->temp) {
			s->reg = byte & 0x3f;
			s->rel = (byte >> 6) & 1;
			s->abs = (byte >> 7) & 1;
		} else {
			s->reg = byte;
		}
	}
	if (!a2xx_vector_opc_name(a->vector_opc) || !a2xx_scalar_opc_name(a->scalar_opc))
		return A2XX_BAD_OPCODE;
	return A2XX_OK;
}

/* Writes value at lo..hi when it fits its bits, else records the error. */
static void place96(uint32_t w[3], unsigned lo, unsigned hi, uint32_t value, a2xx_status *st)
{
	if (!fits(value, hi - lo + 1)) {
		*st = A2XX_RANGE;
		return;
	}
	put96(w, lo, hi, value);
}

a2xx_status a2xx_alu_encode(const a2xx_alu *a, uint32_t w[3])
{
	uint32_t t[3] = {0, 0, 0};
	a2xx_status st = A2XX_OK;
	if (a->vector_opc > 31 || a->scalar_opc > 63)
		return A2XX_BAD_OPCODE;
	if (!a2xx_vector_opc_name(a->vector_opc) || !a2xx_scalar_opc_name(a->scalar_opc))
		return A2XX_BAD_OPCODE;
	place96(t, 0, 5, a->vector_dest, &st);
	place96(t, 6, 6, a->vector_dest_rel, &st);
	place96(t, 7, 7, a->low_precision, &st);
	place96(t, 8, 13, a->scalar_dest, &st);
	place96(t, 14, 14, a->scalar_dest_rel, &st);
	place96(t, 15, 15, a->export_data, &st);
	place96(t, 16, 19, a->vector_mask, &st);
	place96(t, 20, 23, a->scalar_mask, &st);
	place96(t, 24, 24, a->vector_clamp, &st);
	place96(t, 25, 25, a->scalar_clamp, &st);
	place96(t, 26, 31, a->scalar_opc, &st);
	place96(t, 59, 60, a->pred_select, &st);
	place96(t, 61, 61, a->relative_addr, &st);
	place96(t, 62, 62, a->const_1_rel, &st);
	place96(t, 63, 63, a->const_0_rel, &st);
	place96(t, 88, 92, a->vector_opc, &st);
	for (unsigned n = 0; n < 3; n++) {
		const a2xx_alu_src *s = &a->src[n];
		uint32_t byte;
		if (s->temp) {
			if (!fits(s->reg, 6))
				return A2XX_RANGE;
			byte = s->reg | (uint32_t)s->rel << 6 | (uint32_t)s->abs << 7;
		} else {
			/* A constant's index is the whole byte: no rel/abs bits. */
			if (s->rel || s->abs)
				return A2XX_UNUSED_FIELD;
			byte = s->reg;
		}
		place96(t, src_bits[n].byte, src_bits[n].byte + 7, byte, &st);
		place96(t, src_bits[n].sel, src_bits[n].sel, s->temp, &st);
		place96(t, src_bits[n].neg, src_bits[n].neg, s->negate, &st);
		place96(t, src_bits[n].swiz, src_bits[n].swiz + 7, s->swizzle, &st);
	}
	if (st != A2XX_OK)
		return st;
	memcpy(w, t, sizeof t);
	return A2XX_OK;
}

/* ---------------------------------------------------------------- FETCH */

const char *a2xx_fetch_opc_name(uint32_t opc)
{
	switch (opc) {
	case A2XX_VTX_FETCH: return "VTX_FETCH";
	case A2XX_TEX_FETCH: return "TEX_FETCH";
	case A2XX_TEX_GET_BORDER_COLOR_FRAC: return "TEX_GET_BORDER_COLOR_FRAC";
	case A2XX_TEX_GET_COMP_TEX_LOD: return "TEX_GET_COMP_TEX_LOD";
	case A2XX_TEX_GET_GRADIENTS: return "TEX_GET_GRADIENTS";
	case A2XX_TEX_GET_WEIGHTS: return "TEX_GET_WEIGHTS";
	case A2XX_TEX_SET_TEX_LOD: return "TEX_SET_TEX_LOD";
	case A2XX_TEX_SET_GRADIENTS_H: return "TEX_SET_GRADIENTS_H";
	case A2XX_TEX_SET_GRADIENTS_V: return "TEX_SET_GRADIENTS_V";
	case A2XX_TEX_RESERVED_4: return "TEX_RESERVED_4";
	default: return NULL;
	}
}

void a2xx_fetch_dontcare_mask(uint32_t opc, uint32_t m[3])
{
	m[0] = m[1] = m[2] = 0;
	if (opc == A2XX_VTX_FETCH) {
		put96(m, 54, 55, 3);
		put96(m, 94, 94, 1);
	} else if (a2xx_fetch_opc_name(opc)) {
		put96(m, 73, 77, 0x1f);
	}
}

a2xx_status a2xx_fetch_decode(const uint32_t w[3], a2xx_fetch *f)
{
	memset(f, 0, sizeof *f);
	f->opc = get96(w, 0, 4);
	f->src_reg = get96(w, 5, 10);
	f->src_reg_am = get96(w, 11, 11);
	f->dst_reg = get96(w, 12, 17);
	f->dst_reg_am = get96(w, 18, 18);
	f->dst_swiz = get96(w, 32, 43);
	f->pred_select = get96(w, 63, 63);
	f->pred_condition = get96(w, 95, 95);
	f->const_index = get96(w, 20, 24);
	if (!a2xx_fetch_opc_name(f->opc))
		return A2XX_BAD_OPCODE;
	uint32_t m[3];
	a2xx_fetch_dontcare_mask(f->opc, m);
	for (unsigned i = 0; i < 3; i++)
		f->dontcare[i] = w[i] & m[i];
	if (f->opc == A2XX_VTX_FETCH) {
		f->const_sel = get96(w, 25, 26);
		f->prefetch_count = get96(w, 27, 29);
		f->src_swiz = get96(w, 30, 31);
		f->is_signed = get96(w, 44, 44);
		f->num_format = get96(w, 45, 45);
		f->signed_rf_mode = get96(w, 46, 46);
		f->is_index_rounded = get96(w, 47, 47);
		f->format = get96(w, 48, 53);
		f->exp_adjust = get96(w, 56, 61);
		f->is_mini_fetch = get96(w, 62, 62);
		f->stride = get96(w, 64, 71);
		f->offset = get96(w, 72, 93);
		if (!get96(w, 19, 19))
			return A2XX_FIXED_BIT;
		return A2XX_OK;
	}
	f->fetch_valid_only = get96(w, 19, 19);
	f->tx_coord_denorm = get96(w, 25, 25);
	f->src_swiz = get96(w, 26, 31);
	f->mag_filter = get96(w, 44, 45);
	f->min_filter = get96(w, 46, 47);
	f->mip_filter = get96(w, 48, 49);
	f->aniso_filter = get96(w, 50, 52);
	f->arbitrary_filter = get96(w, 53, 55);
	f->vol_mag_filter = get96(w, 56, 57);
	f->vol_min_filter = get96(w, 58, 59);
	f->use_comp_lod = get96(w, 60, 60);
	f->use_reg_lod = get96(w, 61, 62);
	f->use_reg_gradients = get96(w, 64, 64);
	f->sample_location = get96(w, 65, 65);
	f->lod_bias = get96(w, 66, 72);
	f->dimension = get96(w, 78, 79);
	f->offset_x = get96(w, 80, 84);
	f->offset_y = get96(w, 85, 89);
	f->offset_z = get96(w, 90, 94);
	return A2XX_OK;
}

a2xx_status a2xx_fetch_encode(const a2xx_fetch *f, uint32_t w[3])
{
	uint32_t t[3] = {0, 0, 0};
	a2xx_status st = A2XX_OK;
	if (!a2xx_fetch_opc_name(f->opc))
		return A2XX_BAD_OPCODE;
	uint32_t m[3];
	a2xx_fetch_dontcare_mask(f->opc, m);
	for (unsigned i = 0; i < 3; i++) {
		if (f->dontcare[i] & ~m[i])
			return A2XX_RANGE;
		t[i] = f->dontcare[i];
	}
	bool vtx = f->opc == A2XX_VTX_FETCH;
	/* The other layout's fields must be zero. */
	if (vtx ? (f->fetch_valid_only || f->tx_coord_denorm || f->mag_filter || f->min_filter ||
	           f->mip_filter || f->aniso_filter || f->arbitrary_filter || f->vol_mag_filter ||
	           f->vol_min_filter || f->use_comp_lod || f->use_reg_lod ||
	           f->use_reg_gradients || f->sample_location || f->lod_bias || f->dimension ||
	           f->offset_x || f->offset_y || f->offset_z)
	        : (f->const_sel || f->prefetch_count || f->is_signed || f->num_format ||
	           f->signed_rf_mode || f->is_index_rounded || f->format || f->exp_adjust ||
	           f->is_mini_fetch || f->stride || f->offset))
		return A2XX_UNUSED_FIELD;
	place96(t, 0, 4, f->opc, &st);
	place96(t, 5, 10, f->src_reg, &st);
	place96(t, 11, 11, f->src_reg_am, &st);
	place96(t, 12, 17, f->dst_reg, &st);
	place96(t, 18, 18, f->dst_reg_am, &st);
	place96(t, 32, 43, f->dst_swiz, &st);
	place96(t, 63, 63, f->pred_select, &st);
	place96(t, 95, 95, f->pred_condition, &st);
	place96(t, 20, 24, f->const_index, &st);
	if (vtx) {
		put96(t, 19, 19, 1);
		place96(t, 25, 26, f->const_sel, &st);
		place96(t, 27, 29, f->prefetch_count, &st);
		place96(t, 30, 31, f->src_swiz, &st);
		place96(t, 44, 44, f->is_signed, &st);
		place96(t, 45, 45, f->num_format, &st);
		place96(t, 46, 46, f->signed_rf_mode, &st);
		place96(t, 47, 47, f->is_index_rounded, &st);
		place96(t, 48, 53, f->format, &st);
		place96(t, 56, 61, f->exp_adjust, &st);
		place96(t, 62, 62, f->is_mini_fetch, &st);
		place96(t, 64, 71, f->stride, &st);
		place96(t, 72, 93, f->offset, &st);
	} else {
		place96(t, 19, 19, f->fetch_valid_only, &st);
		place96(t, 25, 25, f->tx_coord_denorm, &st);
		place96(t, 26, 31, f->src_swiz, &st);
		place96(t, 44, 45, f->mag_filter, &st);
		place96(t, 46, 47, f->min_filter, &st);
		place96(t, 48, 49, f->mip_filter, &st);
		place96(t, 50, 52, f->aniso_filter, &st);
		place96(t, 53, 55, f->arbitrary_filter, &st);
		place96(t, 56, 57, f->vol_mag_filter, &st);
		place96(t, 58, 59, f->vol_min_filter, &st);
		place96(t, 60, 60, f->use_comp_lod, &st);
		place96(t, 61, 62, f->use_reg_lod, &st);
		place96(t, 64, 64, f->use_reg_gradients, &st);
		place96(t, 65, 65, f->sample_location, &st);
		place96(t, 66, 72, f->lod_bias, &st);
		place96(t, 78, 79, f->dimension, &st);
		place96(t, 80, 84, f->offset_x, &st);
		place96(t, 85, 89, f->offset_y, &st);
		place96(t, 90, 94, f->offset_z, &st);
	}
	if (st != A2XX_OK)
		return st;
	memcpy(w, t, sizeof t);
	return A2XX_OK;
}

/* ------------------------------------------------------------- programs */

a2xx_status a2xx_program_walk(const uint32_t *dw, size_t ndw, a2xx_slot *slots, size_t cap,
                              size_t *nslots, size_t *ncf_pairs)
{
	*nslots = 0;
	*ncf_pairs = 0;
	if (ndw % 3)
		return A2XX_TRUNCATED;
	size_t n = ndw / 3;
	if (n > cap)
		return A2XX_TOO_MANY;
	for (size_t i = 0; i < n; i++)
		slots[i] = (a2xx_slot){A2XX_SLOT_UNUSED, false};

	/* The CF area ends where the first EXEC's instructions begin: read
	 * pairs until one holds an EXEC, and never past that address. */
	size_t ncf = 0; /* CF pairs, once known */
	for (size_t p = 0; p < n && !ncf; p++) {
		uint64_t cf[2];
		a2xx_cf_pair_unpack(dw + 3 * p, &cf[0], &cf[1]);
		for (int k = 0; k < 2 && !ncf; k++) {
			a2xx_cf c;
			if (a2xx_cf_decode(cf[k], &c) != A2XX_OK)
				return A2XX_BAD_PROGRAM;
			if (a2xx_cf_is_exec(c.opc)) {
				if (c.address <= p)
					return A2XX_BAD_PROGRAM; /* its code would overlap the CF read so far */
				ncf = c.address;
			}
		}
	}
	if (!ncf)
		return A2XX_BAD_PROGRAM;
	if (ncf > n)
		return A2XX_TRUNCATED;
	for (size_t p = 0; p < ncf; p++)
		slots[p].kind = A2XX_SLOT_CF;

	for (size_t p = 0; p < ncf; p++) {
		uint64_t cf[2];
		a2xx_cf_pair_unpack(dw + 3 * p, &cf[0], &cf[1]);
		for (int k = 0; k < 2; k++) {
			a2xx_cf c;
			if (a2xx_cf_decode(cf[k], &c) != A2XX_OK)
				return A2XX_BAD_PROGRAM;
			if (!a2xx_cf_is_exec(c.opc))
				continue;
			if (c.count > 6 || (c.count && c.address < ncf))
				return A2XX_BAD_PROGRAM;
			for (uint32_t i = 0; i < c.count; i++) {
				size_t a = (size_t)c.address + i;
				if (a >= n)
					return A2XX_TRUNCATED;
				a2xx_slot_kind kind = (c.serialize >> (2 * i)) & 1u ? A2XX_SLOT_FETCH
				                                                    : A2XX_SLOT_ALU;
				bool sync = (c.serialize >> (2 * i + 1)) & 1u;
				if (slots[a].kind != A2XX_SLOT_UNUSED &&
				    (slots[a].kind != kind || slots[a].serialize != sync))
					return A2XX_BAD_PROGRAM;
				slots[a].kind = kind;
				slots[a].serialize = sync;
			}
		}
	}
	*nslots = n;
	*ncf_pairs = ncf;
	return A2XX_OK;
}

/* ------------------------------------------------------- random programs */

/* splitmix64: one 64-bit state, good enough spread for test inputs and
 * the same on every platform. */
static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A value in 0..n-1 (n >= 1). */
static uint32_t rnd_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd_next(s) % n);
}

/* The low `width` bits of a fresh random value. */
static uint32_t rnd_bits(uint64_t *s, unsigned width)
{
	return (uint32_t)(rnd_next(s) & ((UINT64_C(1) << width) - 1));
}

/* One chance in n. */
static bool rnd_one_in(uint64_t *s, uint32_t n)
{
	return rnd_below(s, n) == 0;
}

/* An export destination or register: the slots Mesa comments (0, 62,
 * 63) come up often. */
static uint32_t rnd_dest(uint64_t *s)
{
	static const uint32_t special[3] = {0, 62, 63};
	return rnd_one_in(s, 2) ? special[rnd_below(s, 3)] : rnd_bits(s, 6);
}

static uint32_t rnd_mask(uint64_t *s)
{
	return rnd_one_in(s, 6) ? 0 : rnd_one_in(s, 4) ? 15 : rnd_bits(s, 4);
}

static void random_alu(uint64_t *s, uint32_t w[3])
{
	a2xx_alu a = {0};
	do
		a.vector_opc = rnd_bits(s, 5);
	while (!a2xx_vector_opc_name(a.vector_opc));
	do
		a.scalar_opc = rnd_bits(s, 6);
	while (!a2xx_scalar_opc_name(a.scalar_opc));
	a.export_data = rnd_one_in(s, 3);
	a.vector_dest = rnd_dest(s);
	a.scalar_dest = rnd_dest(s);
	a.vector_dest_rel = rnd_one_in(s, 8);
	a.scalar_dest_rel = rnd_one_in(s, 8);
	a.low_precision = rnd_one_in(s, 8);
	a.vector_mask = rnd_mask(s);
	a.scalar_mask = rnd_mask(s);
	a.vector_clamp = rnd_one_in(s, 4);
	a.scalar_clamp = rnd_one_in(s, 4);
	a.pred_select = rnd_bits(s, 2);
	a.relative_addr = rnd_one_in(s, 8);
	a.const_1_rel = rnd_one_in(s, 8);
	a.const_0_rel = rnd_one_in(s, 8);
	for (unsigned n = 0; n < 3; n++) {
		a2xx_alu_src *x = &a.src[n];
		x->temp = rnd_one_in(s, 2);
		x->negate = rnd_one_in(s, 4);
		x->swizzle = rnd_one_in(s, 3) ? 0 : rnd_bits(s, 8);
		if (x->temp) {
			x->reg = rnd_bits(s, 6);
			x->rel = rnd_one_in(s, 4);
			x->abs = rnd_one_in(s, 4);
		} else {
			x->reg = rnd_bits(s, 8);
		}
	}
	a2xx_alu_encode(&a, w);
}

static uint32_t rnd_filter(uint64_t *s, unsigned flags)
{
	uint32_t v;
	do
		v = rnd_bits(s, 3);
	while ((flags & A2XX_RANDOM_NAMED_FILTERS) && v == 6);
	return v;
}

static void random_fetch(uint64_t *s, unsigned flags, uint32_t w[3])
{
	static const uint32_t opcodes[] = {
		A2XX_VTX_FETCH, A2XX_TEX_FETCH, A2XX_TEX_GET_BORDER_COLOR_FRAC,
		A2XX_TEX_GET_COMP_TEX_LOD, A2XX_TEX_GET_GRADIENTS, A2XX_TEX_GET_WEIGHTS,
		A2XX_TEX_SET_TEX_LOD, A2XX_TEX_SET_GRADIENTS_H, A2XX_TEX_SET_GRADIENTS_V,
		A2XX_TEX_RESERVED_4,
	};
	a2xx_fetch f = {0};
	/* vertex and texture fetches half and half; the rarer forms share the rest */
	f.opc = rnd_one_in(s, 2) ? opcodes[rnd_below(s, 2)] : opcodes[rnd_below(s, 10)];
	f.src_reg = rnd_bits(s, 6);
	f.src_reg_am = rnd_one_in(s, 8);
	f.dst_reg = rnd_bits(s, 6);
	f.dst_reg_am = rnd_one_in(s, 8);
	f.dst_swiz = rnd_bits(s, 12);
	f.pred_select = rnd_one_in(s, 4);
	f.pred_condition = rnd_one_in(s, 2);
	f.const_index = rnd_bits(s, 5);
	if (f.opc == A2XX_VTX_FETCH) {
		f.const_sel = rnd_bits(s, 2);
		f.prefetch_count = rnd_bits(s, 3);
		f.src_swiz = rnd_bits(s, 2);
		f.is_signed = rnd_one_in(s, 2);
		f.num_format = rnd_one_in(s, 2);
		f.signed_rf_mode = rnd_one_in(s, 4);
		f.is_index_rounded = rnd_one_in(s, 4);
		f.format = rnd_bits(s, 6);
		f.exp_adjust = rnd_one_in(s, 2) ? 0 : rnd_bits(s, 6);
		f.is_mini_fetch = rnd_one_in(s, 4);
		f.stride = rnd_bits(s, 8);
		f.offset = rnd_one_in(s, 2) ? 0 : rnd_bits(s, 22);
	} else {
		f.fetch_valid_only = rnd_one_in(s, 4);
		f.tx_coord_denorm = rnd_one_in(s, 4);
		f.src_swiz = rnd_bits(s, 6);
		f.mag_filter = rnd_bits(s, 2);
		f.min_filter = rnd_bits(s, 2);
		f.mip_filter = rnd_bits(s, 2);
		f.aniso_filter = rnd_filter(s, flags);
		f.arbitrary_filter = rnd_filter(s, flags);
		f.vol_mag_filter = rnd_bits(s, 2);
		f.vol_min_filter = rnd_bits(s, 2);
		f.use_comp_lod = rnd_one_in(s, 2);
		f.use_reg_lod = rnd_bits(s, 2);
		f.use_reg_gradients = rnd_one_in(s, 4);
		f.sample_location = rnd_one_in(s, 2);
		f.lod_bias = rnd_bits(s, 7);
		f.dimension = rnd_bits(s, 2);
		if (rnd_one_in(s, 2)) {
			f.offset_x = rnd_bits(s, 5);
			f.offset_y = rnd_bits(s, 5);
			f.offset_z = rnd_bits(s, 5);
		}
	}
	if ((flags & A2XX_RANDOM_DONTCARE) && rnd_one_in(s, 4)) {
		uint32_t m[3];
		a2xx_fetch_dontcare_mask(f.opc, m);
		for (unsigned i = 0; i < 3; i++)
			f.dontcare[i] = (uint32_t)rnd_next(s) & m[i];
	}
	a2xx_fetch_encode(&f, w);
}

/* A CF instruction other than the EXEC forms, fields in their ranges. */
static uint64_t random_other_cf(uint64_t *s, unsigned flags)
{
	static const a2xx_cf_opc opcodes[] = {
		A2XX_CF_NOP, A2XX_CF_LOOP_START, A2XX_CF_LOOP_END, A2XX_CF_COND_CALL,
		A2XX_CF_RETURN, A2XX_CF_COND_JMP, A2XX_CF_ALLOC, A2XX_CF_MARK_VS_FETCH_DONE,
	};
	a2xx_cf c = {0};
	c.opc = opcodes[rnd_below(s, 8)];
	switch (a2xx_cf_layout_of(c.opc)) {
	case A2XX_CF_LAYOUT_LOOP:
		c.address = rnd_bits(s, 10);
		c.loop_id = rnd_bits(s, 5);
		c.absolute = rnd_one_in(s, 4);
		break;
	case A2XX_CF_LAYOUT_JMP:
		c.address = rnd_bits(s, 10);
		c.force_call = rnd_one_in(s, 4);
		c.predicated = rnd_one_in(s, 2);
		c.direction = rnd_bits(s, 1);
		c.bool_addr = rnd_one_in(s, 2) ? 0 : rnd_bits(s, 8);
		c.condition = rnd_bits(s, 1);
		c.absolute = rnd_one_in(s, 4);
		break;
	case A2XX_CF_LAYOUT_ALLOC:
		c.size = rnd_bits(s, 4);
		c.no_serial = rnd_one_in(s, 4);
		c.buffer = rnd_bits(s, 2);
		c.alloc_mode = rnd_one_in(s, 4);
		break;
	default:
		break;
	}
	if ((flags & A2XX_RANDOM_DONTCARE) && rnd_one_in(s, 4))
		c.dontcare = rnd_next(s) & a2xx_cf_dontcare_mask(a2xx_cf_layout_of(c.opc));
	uint64_t v = 0;
	a2xx_cf_encode(&c, &v);
	return v;
}

static uint64_t random_exec_cf(uint64_t *s, unsigned flags, uint32_t address, uint32_t count)
{
	static const a2xx_cf_opc opcodes[] = {
		A2XX_CF_EXEC, A2XX_CF_EXEC_END, A2XX_CF_COND_EXEC, A2XX_CF_COND_EXEC_END,
		A2XX_CF_COND_PRED_EXEC, A2XX_CF_COND_PRED_EXEC_END, A2XX_CF_COND_EXEC_PRED_CLEAN,
		A2XX_CF_COND_EXEC_PRED_CLEAN_END,
	};
	a2xx_cf c = {0};
	c.opc = rnd_one_in(s, 2) ? opcodes[rnd_below(s, 2)] : opcodes[rnd_below(s, 8)];
	c.address = address;
	c.count = count;
	c.serialize = rnd_bits(s, 12);
	c.yield = rnd_one_in(s, 4);
	c.vc = rnd_one_in(s, 2) ? 0 : rnd_bits(s, 6);
	c.bool_addr = rnd_one_in(s, 2) ? 0 : rnd_bits(s, 8);
	c.condition = rnd_bits(s, 1);
	c.absolute = rnd_one_in(s, 4);
	if ((flags & A2XX_RANDOM_DONTCARE) && rnd_one_in(s, 4))
		c.dontcare = rnd_next(s) & a2xx_cf_dontcare_mask(A2XX_CF_LAYOUT_EXEC);
	uint64_t v = 0;
	a2xx_cf_encode(&c, &v);
	return v;
}

a2xx_status a2xx_program_random(uint64_t seed, unsigned flags, uint32_t *dw, size_t cap,
                                size_t *ndw)
{
	enum { MAX_EXEC = 6, MAX_OTHER = 5, MAX_CF = MAX_EXEC + MAX_OTHER + 1 };
	uint64_t s = seed;
	unsigned nexec = 1 + rnd_below(&s, MAX_EXEC), nother = rnd_below(&s, MAX_OTHER + 1);
	unsigned ncf = nexec + nother;
	/* CF order: a shuffle of the EXECs (index < nexec) and the others */
	unsigned order[MAX_CF], count[MAX_EXEC], first = MAX_CF;
	for (unsigned i = 0; i < ncf; i++)
		order[i] = i;
	for (unsigned i = ncf; i > 1; i--) {
		unsigned j = rnd_below(&s, i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < ncf && first == MAX_CF; i++)
		if (order[i] < nexec)
			first = order[i];
	/* memory order of the clauses: the first EXEC's, then the others shuffled */
	unsigned mem[MAX_EXEC], k = 0, nslots = 0;
	mem[k++] = first;
	for (unsigned e = 0; e < nexec; e++)
		if (e != first)
			mem[k++] = e;
	for (unsigned i = nexec; i > 2; i--) {
		unsigned j = 1 + rnd_below(&s, i - 1), t = mem[i - 1];
		mem[i - 1] = mem[j];
		mem[j] = t;
	}
	for (unsigned e = 0; e < nexec; e++) {
		count[e] = rnd_one_in(&s, 8) ? 0 : 1 + rnd_below(&s, 6);
		nslots += count[e];
	}
	unsigned npairs = (ncf + 1) / 2;
	size_t n = 3 * ((size_t)npairs + nslots);
	*ndw = n;
	if (n > cap)
		return A2XX_TOO_MANY;
	memset(dw, 0, n * sizeof *dw);
	uint32_t address[MAX_EXEC];
	for (unsigned i = 0, a = npairs; i < nexec; a += count[mem[i]], i++)
		address[mem[i]] = a;
	uint64_t cfs[MAX_CF] = {0}; /* a padding NOP is 0 */
	for (unsigned i = 0; i < ncf; i++)
		cfs[i] = order[i] < nexec
			? random_exec_cf(&s, flags, address[order[i]], count[order[i]])
			: random_other_cf(&s, flags);
	for (unsigned p = 0; p < npairs; p++)
		a2xx_cf_pair_pack(cfs[2 * p], cfs[2 * p + 1], dw + 3 * p);
	for (unsigned i = 0; i < ncf; i++) {
		if (order[i] >= nexec)
			continue;
		a2xx_cf c;
		a2xx_cf_decode(cfs[i], &c);
		for (unsigned j = 0; j < c.count; j++) {
			uint32_t *slot = dw + 3 * ((size_t)c.address + j);
			if ((c.serialize >> (2 * j)) & 1u)
				random_fetch(&s, flags, slot);
			else
				random_alu(&s, slot);
		}
	}
	return A2XX_OK;
}
