/*
 * refmap_a2xx.c - the reference codec's a2xx structs (src/ref/a2xx.h) read
 * as isa/a2xx.xml's field values, and compared with a spec decoding:
 * shared by tests/test_isa_a2xx.c and the fuzz target diff_a2xx, so that a
 * renamed field is renamed once.
 */
#include "refmap_a2xx.h"

#include <stdio.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof(*(a)))

static void ex_add(refmap_a2xx_expect *e, const char *name, uint64_t v)
{
	if (e->n < N(e->f)) {
		snprintf(e->f[e->n].name, sizeof e->f[e->n].name, "%s", name);
		e->f[e->n].value = v;
		e->n++;
	}
}

void refmap_a2xx_expect_cf(uint64_t bits, refmap_a2xx_expect *e)
{
	memset(e, 0, sizeof *e);
	a2xx_cf cf;
	a2xx_status st = a2xx_cf_decode(bits, &cf);
	e->status = a2xx_status_name(st);
	e->valid = st == A2XX_OK;
	e->leaf = a2xx_cf_opc_name(cf.opc);
	e->dontcare = cf.dontcare != 0;
	switch (a2xx_cf_layout_of(cf.opc)) {
	case A2XX_CF_LAYOUT_EXEC:
		ex_add(e, "ADDRESS", cf.address);
		ex_add(e, "COUNT", cf.count);
		ex_add(e, "YIELD", cf.yield);
		ex_add(e, "SERIALIZE", cf.serialize);
		ex_add(e, "VC", cf.vc);
		ex_add(e, "BOOL_ADDR", cf.bool_addr);
		ex_add(e, "CONDITION", cf.condition);
		ex_add(e, "ABSOLUTE", cf.absolute);
		break;
	case A2XX_CF_LAYOUT_LOOP:
		ex_add(e, "ADDRESS", cf.address);
		ex_add(e, "LOOP_ID", cf.loop_id);
		ex_add(e, "ABSOLUTE", cf.absolute);
		break;
	case A2XX_CF_LAYOUT_JMP:
		ex_add(e, "ADDRESS", cf.address);
		ex_add(e, "FORCE_CALL", cf.force_call);
		ex_add(e, "PREDICATED", cf.predicated);
		ex_add(e, "DIRECTION", cf.direction);
		ex_add(e, "BOOL_ADDR", cf.bool_addr);
		ex_add(e, "CONDITION", cf.condition);
		ex_add(e, "ABSOLUTE", cf.absolute);
		break;
	case A2XX_CF_LAYOUT_ALLOC:
		ex_add(e, "SIZE", cf.size);
		ex_add(e, "NO_SERIAL", cf.no_serial);
		ex_add(e, "BUFFER", cf.buffer);
		ex_add(e, "ALLOC_MODE", cf.alloc_mode);
		break;
	case A2XX_CF_LAYOUT_BARE:
		break;
	}
}

void refmap_a2xx_expect_alu(const uint32_t w[3], refmap_a2xx_expect *e)
{
	memset(e, 0, sizeof *e);
	a2xx_alu a;
	a2xx_status st = a2xx_alu_decode(w, &a);
	e->status = a2xx_status_name(st);
	e->valid = st == A2XX_OK;
	e->leaf = a2xx_vector_opc_name(a.vector_opc);
	ex_add(e, "VECTOR_DEST", a.vector_dest);
	ex_add(e, "VECTOR_DEST_REL", a.vector_dest_rel);
	ex_add(e, "LOW_PRECISION", a.low_precision);
	ex_add(e, "SCALAR_DEST", a.scalar_dest);
	ex_add(e, "SCALAR_DEST_REL", a.scalar_dest_rel);
	ex_add(e, "EXPORT", a.export_data);
	ex_add(e, "VECTOR_MASK", a.vector_mask);
	ex_add(e, "SCALAR_MASK", a.scalar_mask);
	ex_add(e, "VECTOR_CLAMP", a.vector_clamp);
	ex_add(e, "SCALAR_CLAMP", a.scalar_clamp);
	ex_add(e, "SCALAR_OPC", a.scalar_opc);
	ex_add(e, "PRED", a.pred_select);
	ex_add(e, "RELATIVE_ADDR", a.relative_addr);
	ex_add(e, "CONST_1_REL", a.const_1_rel);
	ex_add(e, "CONST_0_REL", a.const_0_rel);
	static const char *const names[3] = {"SRC1", "SRC2", "SRC3"};
	for (unsigned n = 0; n < 3; n++) {
		const a2xx_alu_src *s = &a.src[n];
		char k[32];
		uint32_t byte = s->temp ? s->reg | (uint32_t)s->rel << 6 | (uint32_t)s->abs << 7 : s->reg;
		ex_add(e, names[n], byte);
		snprintf(k, sizeof k, "%s_SEL", names[n]);
		ex_add(e, k, s->temp);
		snprintf(k, sizeof k, "%s_NEG", names[n]);
		ex_add(e, k, s->negate);
		snprintf(k, sizeof k, "%s_SWIZ", names[n]);
		ex_add(e, k, s->swizzle);
		/* inside the operand: a constant's index is the whole byte */
		snprintf(k, sizeof k, "%s.%s", names[n], s->temp ? "REG" : "CONST");
		ex_add(e, k, s->reg);
	}
}

void refmap_a2xx_expect_fetch(const uint32_t w[3], refmap_a2xx_expect *e)
{
	memset(e, 0, sizeof *e);
	a2xx_fetch f;
	a2xx_status st = a2xx_fetch_decode(w, &f);
	e->status = a2xx_status_name(st);
	e->valid = st == A2XX_OK;
	e->leaf = st == A2XX_OK ? a2xx_fetch_opc_name(f.opc) : NULL;
	e->dontcare = f.dontcare[0] || f.dontcare[1] || f.dontcare[2];
	ex_add(e, "SRC_REG", f.src_reg);
	ex_add(e, "SRC_REG_AM", f.src_reg_am);
	ex_add(e, "DST_REG", f.dst_reg);
	ex_add(e, "DST_REG_AM", f.dst_reg_am);
	ex_add(e, "DST_X", f.dst_swiz & 7);
	ex_add(e, "DST_Y", (f.dst_swiz >> 3) & 7);
	ex_add(e, "DST_Z", (f.dst_swiz >> 6) & 7);
	ex_add(e, "DST_W", (f.dst_swiz >> 9) & 7);
	ex_add(e, "PRED_SELECT", f.pred_select);
	ex_add(e, "PRED_CONDITION", f.pred_condition);
	ex_add(e, "CONST_INDEX", f.const_index);
	if (f.opc == A2XX_VTX_FETCH) {
		ex_add(e, "CONST_SEL", f.const_sel);
		ex_add(e, "PREFETCH_COUNT", f.prefetch_count);
		ex_add(e, "SRC_SWIZ", f.src_swiz);
		ex_add(e, "SIGNED", f.is_signed);
		ex_add(e, "NUM_FORMAT", f.num_format);
		ex_add(e, "SIGNED_RF_MODE", f.signed_rf_mode);
		ex_add(e, "IS_INDEX_ROUNDED", f.is_index_rounded);
		ex_add(e, "FORMAT", f.format);
		ex_add(e, "EXP_ADJUST", f.exp_adjust);
		ex_add(e, "IS_MINI_FETCH", f.is_mini_fetch);
		ex_add(e, "STRIDE", f.stride);
		ex_add(e, "OFFSET", f.offset);
	} else {
		ex_add(e, "VALID_ONLY", f.fetch_valid_only);
		ex_add(e, "DENORM", f.tx_coord_denorm);
		ex_add(e, "SRC_X", f.src_swiz & 3);
		ex_add(e, "SRC_Y", (f.src_swiz >> 2) & 3);
		ex_add(e, "SRC_Z", (f.src_swiz >> 4) & 3);
		ex_add(e, "MAG", f.mag_filter);
		ex_add(e, "MIN", f.min_filter);
		ex_add(e, "MIP", f.mip_filter);
		ex_add(e, "ANISO", f.aniso_filter);
		ex_add(e, "ARBITRARY", f.arbitrary_filter);
		ex_add(e, "VOL_MAG", f.vol_mag_filter);
		ex_add(e, "VOL_MIN", f.vol_min_filter);
		ex_add(e, "USE_COMP_LOD", f.use_comp_lod);
		ex_add(e, "REG_LOD", f.use_reg_lod);
		ex_add(e, "USE_REG_GRADIENTS", f.use_reg_gradients);
		ex_add(e, "LOCATION", f.sample_location);
		ex_add(e, "LOD_BIAS", f.lod_bias);
		ex_add(e, "DIMENSION", f.dimension);
		ex_add(e, "OFFSET_X", f.offset_x);
		ex_add(e, "OFFSET_Y", f.offset_y);
		ex_add(e, "OFFSET_Z", f.offset_z);
	}
}

bool refmap_a2xx_has_issue(const codec_decoded *d, codec_issue_kind k)
{
	for (size_t i = 0; i < d->nissues; i++)
		if (d->issues[i].kind == k)
			return true;
	return false;
}

void refmap_a2xx_spec_fields(const codec_decoded *d, bool strict, refmap_a2xx_seen *s)
{
	s->n = 0;
	const char *outer = NULL;
	for (size_t i = 0; i < d->nvalues && s->n < N(s->f); i++) {
		const codec_value *v = &d->values[i];
		if (v->depth == 0) {
			outer = v->field->name;
			if (v->field->kind == SPEC_DERIVED)
				continue;
			snprintf(s->f[s->n].name, sizeof s->f[0].name, "%s", v->field->name);
		} else {
			bool wanted = !strcmp(v->field->name, "CONST") ||
			              (!strcmp(v->field->name, "REG") && v->field->kind == SPEC_FIELD);
			if (!wanted || !outer || (strict && v->depth != 1))
				continue;
			snprintf(s->f[s->n].name, sizeof s->f[0].name, "%s.%s", outer, v->field->name);
		}
		s->f[s->n++].value = v->raw;
	}
}

/* Whether the spec's decoding says what the reference says; on a
 * difference, why names the first. */
bool refmap_a2xx_agree(const codec_decoded *d, const refmap_a2xx_expect *e, bool strict,
                       char *why, size_t len)
{
	/* the reference's "fixed bit has the wrong value" is the spec's failed
	 * <assert> (a vertex fetch's bit 19): both decode, neither accepts */
	bool spec_valid = d->leaf && !refmap_a2xx_has_issue(d, CODEC_NO_MATCH) &&
	                  !refmap_a2xx_has_issue(d, CODEC_AMBIGUOUS) &&
	                  !refmap_a2xx_has_issue(d, CODEC_ENUM_MISSING) &&
	                  !refmap_a2xx_has_issue(d, CODEC_ASSERT_MISMATCH);
	if (spec_valid != e->valid) {
		snprintf(why, len, "validity: the spec %s (%s), the reference %s (%s)",
		         spec_valid ? "accepts" : "rejects", d->leaf ? d->leaf->name : "no leaf",
		         e->valid ? "accepts" : "rejects", e->status);
		return false;
	}
	if (!e->valid)
		return true;
	if (!e->leaf || strcmp(d->leaf->name, e->leaf)) {
		snprintf(why, len, "leaf: spec %s, reference %s", d->leaf->name,
		         e->leaf ? e->leaf : "(unnamed)");
		return false;
	}
	if (refmap_a2xx_has_issue(d, CODEC_DONTCARE_SET) != e->dontcare) {
		snprintf(why, len, "don't-care bits set: spec %d, reference %d",
		         refmap_a2xx_has_issue(d, CODEC_DONTCARE_SET), e->dontcare);
		return false;
	}
	for (size_t i = 0; strict && i < d->nissues; i++)
		if (d->issues[i].kind != CODEC_DONTCARE_SET) {
			snprintf(why, len, "the spec decodes with an issue: %s", d->issues[i].text);
			return false;
		}
	refmap_a2xx_seen s;
	refmap_a2xx_spec_fields(d, strict, &s);
	size_t matched = 0;
	for (size_t i = 0; i < s.n; i++) {
		size_t k = 0;
		while (k < e->n && strcmp(e->f[k].name, s.f[i].name))
			k++;
		if (k == e->n) {
			/* a constant's REG is part of its CONST */
			if (strchr(s.f[i].name, '.'))
				continue;
			snprintf(why, len, "field %s: the reference has none", s.f[i].name);
			return false;
		}
		if (e->f[k].value != s.f[i].value) {
			snprintf(why, len, "field %s: spec %llu, reference %llu", s.f[i].name,
			         (unsigned long long)s.f[i].value, (unsigned long long)e->f[k].value);
			return false;
		}
		matched++;
	}
	if (matched != e->n) {
		snprintf(why, len, "the spec has %zu of the reference's %zu fields", matched, e->n);
		return false;
	}
	return true;
}

static void words96(const uint32_t w[3], uint64_t v[2])
{
	v[0] = (uint64_t)w[0] | (uint64_t)w[1] << 32;
	v[1] = w[2];
}

a2xx_status refmap_a2xx_canonical(int kind, const uint32_t w3[3], uint64_t cf, uint64_t wr[2])
{
	a2xx_status st;
	wr[0] = wr[1] = 0;
	if (kind == REFMAP_A2XX_CF) {
		a2xx_cf c;
		a2xx_cf_decode(cf, &c);
		c.dontcare = 0;
		st = a2xx_cf_encode(&c, &wr[0]);
	} else if (kind == REFMAP_A2XX_ALU) {
		a2xx_alu a;
		uint32_t o[3];
		a2xx_alu_decode(w3, &a);
		st = a2xx_alu_encode(&a, o);
		words96(o, wr);
	} else {
		a2xx_fetch f;
		uint32_t o[3];
		a2xx_fetch_decode(w3, &f);
		memset(f.dontcare, 0, sizeof f.dontcare);
		st = a2xx_fetch_encode(&f, o);
		words96(o, wr);
	}
	return st;
}
