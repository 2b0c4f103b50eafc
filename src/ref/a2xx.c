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
