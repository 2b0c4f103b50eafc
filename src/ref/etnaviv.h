/*
 * etnaviv.h - the whole API of the hand-written reference codec for the
 * Vivante GC shader instruction set: one 128-bit instruction to and from
 * a struct with a named member per field.
 *
 * It is written from ../shared/facts/ISA-FACTS.md section 3 and the
 * opcode table beside it, never from an XML description, and it shares
 * no code with src/spec or src/codec: tests hold the XML-driven codec
 * against it, so a mistake would have to be made twice, independently,
 * to go unnoticed.
 *
 * Words are the four little-endian 32-bit words of memory, w[0] first;
 * instruction bit i is bit i % 32 of w[i / 32].
 */
#ifndef ISACHECK_REF_ETNAVIV_H
#define ISACHECK_REF_ETNAVIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opcode 0x7F does not name an operation itself: source slot 2's
 * register number does (ref_etnaviv_inst.ext_op). */
#define REF_ETNAVIV_ESCAPE 0x7Fu

/* The execution unit, which decides what the middle bits mean. */
typedef enum ref_etnaviv_unit {
	REF_ETNAVIV_ALU,
	REF_ETNAVIV_TEX,
	REF_ETNAVIV_CF,
	REF_ETNAVIV_LOAD,
	REF_ETNAVIV_STORE,
} ref_etnaviv_unit;

/* One source slot, its bits as they are (an immediate too: see
 * ref_etnaviv_immediate). */
typedef struct ref_etnaviv_src {
	bool use;
	unsigned reg;     /* 9 bits */
	unsigned swiz;    /* 8 bits, 2 per component, x in bits 0..1 */
	bool neg, abs;
	unsigned amode;   /* 3 bits: 0 direct, 1..4 indexed by a.x..a.w */
	unsigned rgroup;  /* 3 bits: 0 t, 1 i, 2/3 u, 4 th, 7 immediate */
} ref_etnaviv_src;

/* One decoded instruction.  A member that the instruction's unit does
 * not have is 0 (false) after decoding and must be 0 for encoding. */
typedef struct ref_etnaviv_inst {
	unsigned opcode;      /* 7 bits: bit 80 << 6 | bits 0..5 */
	unsigned ext_op;      /* opcode 0x7F: the operation, 9 bits; else 0 */
	unsigned cond;        /* 5 bits, 6..10 */
	bool sat;             /* 11 */
	unsigned type;        /* 3 bits: bit 53 << 2 | bits 94..95 */

	bool dst_use;         /* 12 (ALU, TEX, LOAD) */
	unsigned dst_amode;   /* 13..15 */
	unsigned dst_reg;     /* 16..22, 7 bits */
	unsigned dst_comps;   /* 23..26, write mask x = bit 0 (STORE too: memory mask) */

	unsigned rounding;    /* 32..33 (ALU) */
	bool pack_off;        /* 34 (ALU, LOAD, STORE): 0 prints ".pack" */
	unsigned left_shift;  /* 35..37 (LOAD, STORE) */
	bool skphp;           /* 39 (ALU, LOAD, STORE) */
	bool local;           /* 40 (LOAD, STORE) */
	bool denorm;          /* 42 (LOAD, STORE) */
	bool low_half;        /* 109 (ALU, LOAD, STORE): dual-16 thread t0 */
	bool high_half;       /* 120 (ALU, LOAD, STORE): dual-16 thread t1 */
	bool dst_full;        /* 127 (ALU, LOAD, STORE) */

	unsigned tex_id;      /* 27..31 (TEX) */
	unsigned tex_amode;   /* 32..34 (TEX) */
	unsigned tex_swiz;    /* 35..42 (TEX) */

	unsigned target;      /* 103..117 (CF): absolute instruction index */

	ref_etnaviv_src src[3]; /* an escaped operation's slot 2 is all 0 here */

	/* Decoding only (encoding ignores it): the declared don't-care bits
	 * (STORE 12..22, 27..33, 41; CF 34) that are set in the word. */
	uint32_t dontcare[4];
} ref_etnaviv_inst;

typedef enum ref_etnaviv_status {
	REF_ETNAVIV_OK = 0,
	REF_ETNAVIV_E_OPCODE,   /* no known instruction has this opcode (or escaped operation) */
	REF_ETNAVIV_E_RESERVED, /* a bit that must be zero (or the escape's fixed slot 2) is not */
	REF_ETNAVIV_E_SLOT,     /* a source slot's use does not fit the instruction */
	REF_ETNAVIV_E_RANGE,    /* encode: a value does not fit its field */
	REF_ETNAVIV_E_FIELD,    /* encode: a member the unit does not have is not 0 */
} ref_etnaviv_status;

/* Decodes one instruction.  On REF_ETNAVIV_OK every member is filled;
 * otherwise *out is all zero except opcode (and ext_op). */
ref_etnaviv_status ref_etnaviv_decode(const uint32_t w[4], ref_etnaviv_inst *out);

/* Encodes an instruction; don't-care bits are 0.  On an error w is all
 * zero and err (when not NULL) says which member is wrong. */
ref_etnaviv_status ref_etnaviv_encode(const ref_etnaviv_inst *in, uint32_t w[4],
                                      char *err, size_t errlen);

/* The mnemonic of an opcode (with ext_op for the escape), NULL when the
 * facts know no instruction for it.  0x16 is "branch" in all its forms. */
const char *ref_etnaviv_opcode_name(unsigned opcode, unsigned ext_op);
/* The mnemonic of a decoded instruction, NULL when none is known. */
const char *ref_etnaviv_name(const ref_etnaviv_inst *inst);
/* The unit of a decoded instruction (meaningful when its name is not NULL). */
ref_etnaviv_unit ref_etnaviv_unit_of(const ref_etnaviv_inst *inst);
const char *ref_etnaviv_status_text(ref_etnaviv_status s);

/* Whether the slot is an immediate (rgroup 7); if so its kind (amode >> 1:
 * 0 the upper 20 bits of an f32, 1 signed, 2 unsigned, 3 16-bit float)
 * and its 20-bit value amode[0]:abs:neg:swiz:reg. */
bool ref_etnaviv_immediate(const ref_etnaviv_src *s, unsigned *kind, uint32_t *value);

#ifdef __cplusplus
}
#endif

#endif
