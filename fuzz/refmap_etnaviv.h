/*
 * refmap_etnaviv.h - a spec codec's decoding of a Vivante GC instruction
 * read into the reference codec's ref_etnaviv_inst (src/ref/etnaviv.h),
 * the reference's decoding in the same form, and their comparison: the
 * one mapping of tests/test_isa_etnaviv.c and the fuzz target diff_etnaviv.
 */
#ifndef ISACHECK_REFMAP_ETNAVIV_H
#define ISACHECK_REFMAP_ETNAVIV_H

#include "codec.h"
#include "etnaviv.h"
#include "spec.h"

#include <stdbool.h>
#include <stdint.h>

/* Each spec's names for the members of a ref_etnaviv_inst.  Where one
 * name serves two members (Mesa's RMODE is the ALU rounding, 2 bits,
 * and the texture sampler's index, 3 bits), the width tells them apart. */
typedef struct refmap_etnaviv_names {
	const char *cond, *sat, *type_hi, *type_lo, *type;
	const char *dst_use, *dst, *dst_amode, *dst_reg, *dst_comps, *mem_comps;
	const char *rounding, *tex_amode, *pack, *skphp, *local, *denorm;
	const char *left_shift, *left_shift_amount;
	const char *low, *high, *thread, *dst_full;
	const char *tex_id, *tex_swiz, *target;
	const char *use[3], *reg[3], *src[3], *amode[3], *rgroup[3];
	const char *swiz, *swz[4], *neg, *abs, *imm, *imm_kind;
} refmap_etnaviv_names;

/* isa/etnaviv.xml's names. */
extern const refmap_etnaviv_names refmap_etnaviv_our_names;

/* What an instruction means, the same struct for both codecs. */
typedef struct refmap_etnaviv_meaning {
	const char *name;        /* displayed instruction name; NULL: no match */
	ref_etnaviv_inst inst;   /* fields; dontcare from the decoder's issue */
	bool imm[3];             /* slot s printed as an immediate */
	unsigned imm_kind[3];
	uint64_t imm_raw[3];     /* kind 0: the f32 bits (value << 12); else the 20-bit value */
	unsigned thread;         /* the derived dual-16 half (0 when the unit has none) */
	unsigned type;           /* the derived data type */
	const spec_bitset *leaf; /* the spec's leaf (NULL for the reference) */
} refmap_etnaviv_meaning;

/* The meaning of a codec decoding, read through the spec's names n. */
void refmap_etnaviv_from_decoded(const codec_decoded *d, const refmap_etnaviv_names *n,
                                 refmap_etnaviv_meaning *m);

/* The meaning the reference codec gives a word. */
ref_etnaviv_status refmap_etnaviv_from_ref(const uint32_t w[4], refmap_etnaviv_meaning *m);

/* Names the first member in which a and b differ, or returns NULL;
 * unmatched is the name returned when only one of them has a name (one
 * codec rejects the word). */
const char *refmap_etnaviv_diff(const refmap_etnaviv_meaning *a, const refmap_etnaviv_meaning *b,
                               const char *unmatched);

/* The first field of the decoding whose name is none of n's, or NULL.
 * The fuzz target treats one as a finding (its value would go
 * uncompared); the test, which reads Mesa's XML too, does not ask. */
const char *refmap_etnaviv_unknown_field(const codec_decoded *d, const refmap_etnaviv_names *n);

#endif
