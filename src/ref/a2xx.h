/*
 * a2xx.h - the whole API of the hand-written reference codec for Adreno
 * a2xx shader instructions (src/ref/a2xx.c).
 *
 * It is written from the fact sheet (../shared/facts/ISA-FACTS.md section
 * 1) and never reads isa/a2xx.xml: its only job is to disagree with the
 * XML-driven codec when one of the two is wrong.  Tests and fuzzers
 * compare the two on real and random words, in both directions.
 *
 * Words: a 96-bit instruction is three little-endian dwords, w[0] first
 * in memory; bit i is bit i%32 of w[i/32].  A CF instruction is 48 bits
 * (a uint64_t with bits 48-63 zero); two are packed per 96 bits.
 *
 * Where the sources disagree (facts 1.8) this codec makes the same
 * choices as isa/a2xx.xml: instr-a2xx.h field widths, 6-bit scalar
 * opcodes at 26-31, 8-bit constant indices, two-bit use_reg_lod.  Bits
 * no source gives a meaning are "don't care": decoding keeps them in
 * `dontcare` (so a word round-trips exactly) and says so; encoding
 * writes them back as given.
 *
 * Every function returns an a2xx_status; nothing aborts, nothing keeps
 * state.
 */
#ifndef ISACHECK_REF_A2XX_H
#define ISACHECK_REF_A2XX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum a2xx_status {
	A2XX_OK = 0,
	A2XX_BAD_OPCODE,   /* decode: an unassigned opcode; encode: an opcode out of range */
	A2XX_FIXED_BIT,    /* decode: a bit with a fixed value has the other one */
	A2XX_RANGE,        /* encode: a field value does not fit its bits */
	A2XX_UNUSED_FIELD, /* encode: a field the opcode's layout does not have is set */
	A2XX_TRUNCATED,    /* program walk: a slot or address past the end of the words */
	A2XX_BAD_PROGRAM,  /* program walk: no EXEC, a slot used as two kinds, ... */
	A2XX_TOO_MANY,     /* program walk: more slots than the caller's array holds */
} a2xx_status;

/* A short constant string naming the status. */
const char *a2xx_status_name(a2xx_status s);

/* ------------------------------------------------------------------ CF */

typedef enum a2xx_cf_opc {
	A2XX_CF_NOP = 0,
	A2XX_CF_EXEC = 1,
	A2XX_CF_EXEC_END = 2,
	A2XX_CF_COND_EXEC = 3,
	A2XX_CF_COND_EXEC_END = 4,
	A2XX_CF_COND_PRED_EXEC = 5,
	A2XX_CF_COND_PRED_EXEC_END = 6,
	A2XX_CF_LOOP_START = 7,
	A2XX_CF_LOOP_END = 8,
	A2XX_CF_COND_CALL = 9,
	A2XX_CF_RETURN = 10,
	A2XX_CF_COND_JMP = 11,
	A2XX_CF_ALLOC = 12,
	A2XX_CF_COND_EXEC_PRED_CLEAN = 13,
	A2XX_CF_COND_EXEC_PRED_CLEAN_END = 14,
	A2XX_CF_MARK_VS_FETCH_DONE = 15,
} a2xx_cf_opc;

/* The five layouts of bits 0-43. */
typedef enum a2xx_cf_layout {
	A2XX_CF_LAYOUT_BARE,  /* NOP, MARK_VS_FETCH_DONE: no fields */
	A2XX_CF_LAYOUT_EXEC,  /* EXEC and its conditional forms */
	A2XX_CF_LAYOUT_LOOP,  /* LOOP_START, LOOP_END */
	A2XX_CF_LAYOUT_JMP,   /* COND_CALL, RETURN, COND_JMP */
	A2XX_CF_LAYOUT_ALLOC, /* ALLOC */
} a2xx_cf_layout;

/* One CF instruction.  Only the fields of the opcode's layout are used;
 * decoding sets the others to 0 and encoding requires them to be 0. */
typedef struct a2xx_cf {
	a2xx_cf_opc opc;
	uint32_t address;     /* EXEC: 9 bits (0-8); LOOP, JMP: 10 bits (0-9) */
	bool absolute;        /* EXEC, LOOP, JMP: address_mode, bit 43 */
	/* EXEC */
	uint32_t count;       /* 12-14 */
	bool yield;           /* 15 */
	uint32_t serialize;   /* 16-27: bit 2k = slot k is FETCH, 2k+1 = serialize */
	uint32_t vc;          /* 28-33 */
	uint32_t bool_addr;   /* EXEC, JMP: 34-41 */
	uint32_t condition;   /* EXEC, JMP: 42 */
	/* LOOP */
	uint32_t loop_id;     /* 16-20 */
	/* JMP / CALL / RETURN */
	bool force_call;      /* 13 */
	bool predicated;      /* 14 */
	uint32_t direction;   /* 33 */
	/* ALLOC */
	uint32_t size;        /* 0-3 */
	bool no_serial;       /* 40 */
	uint32_t buffer;      /* 41-42: 0 none, 1 position, 2 param/pixel, 3 memory */
	bool alloc_mode;      /* 43 */
	/* Bits of the layout's don't-care regions, at their positions. */
	uint64_t dontcare;
} a2xx_cf;

const char *a2xx_cf_opc_name(a2xx_cf_opc opc); /* NULL when out of range */
a2xx_cf_layout a2xx_cf_layout_of(a2xx_cf_opc opc);
/* The don't-care mask of a layout (bits 0-47). */
uint64_t a2xx_cf_dontcare_mask(a2xx_cf_layout l);
/* EXEC, EXEC_END and the conditional EXEC forms. */
bool a2xx_cf_is_exec(a2xx_cf_opc opc);

/* bits: a 48-bit CF instruction (bits 48-63 must be 0: A2XX_RANGE). */
a2xx_status a2xx_cf_decode(uint64_t bits, a2xx_cf *out);
a2xx_status a2xx_cf_encode(const a2xx_cf *cf, uint64_t *bits);

/* The 96-bit pair: CF0 = w0 | (w1 & 0xffff) << 32, CF1 = w1 >> 16 | w2 << 16. */
void a2xx_cf_pair_unpack(const uint32_t w[3], uint64_t *cf0, uint64_t *cf1);
/* A2XX_RANGE when either value has bits above 47. */
a2xx_status a2xx_cf_pair_pack(uint64_t cf0, uint64_t cf1, uint32_t w[3]);

/* ----------------------------------------------------------------- ALU */

typedef enum a2xx_vector_opc {
	A2XX_ADDv = 0, A2XX_MULv, A2XX_MAXv, A2XX_MINv, A2XX_SETEv, A2XX_SETGTv,
	A2XX_SETGTEv, A2XX_SETNEv, A2XX_FRACv, A2XX_TRUNCv, A2XX_FLOORv, A2XX_MULADDv,
	A2XX_CNDEv, A2XX_CNDGTEv, A2XX_CNDGTv, A2XX_DOT4v, A2XX_DOT3v, A2XX_DOT2ADDv,
	A2XX_CUBEv, A2XX_MAX4v, A2XX_PRED_SETE_PUSHv, A2XX_PRED_SETNE_PUSHv,
	A2XX_PRED_SETGT_PUSHv, A2XX_PRED_SETGTE_PUSHv, A2XX_KILLEv, A2XX_KILLGTv,
	A2XX_KILLGTEv, A2XX_KILLNEv, A2XX_DSTv, A2XX_MOVAv,
	/* 30 is unassigned */
	A2XX_VECTOR_NONE = 31,
} a2xx_vector_opc;

/* Scalar opcodes are numbered as in instr-a2xx.h (0 ADDs ... 40 SQRT_IEEE,
 * 42-47 the CONST forms, 48 SIN, 49 COS, 50 RETAIN_PREV, 63 SCALAR_NONE);
 * a2xx_scalar_opc_name() names them, NULL for 41 and 51-62. */
typedef uint32_t a2xx_scalar_opc;

const char *a2xx_vector_opc_name(uint32_t opc); /* NULL: unassigned */
const char *a2xx_scalar_opc_name(uint32_t opc); /* NULL: unassigned */
/* Operands the vector operation prints: 1, 2 or 3 (3: src3, src1, src2). */
unsigned a2xx_vector_src_count(uint32_t opc);

/* One operand.  temp (select bit set): R<reg>, reg 0-63, rel and abs are
 * bits 6 and 7 of the register byte.  Constant: C<reg>, reg 0-255 is the
 * whole byte, and rel and abs must be false. */
typedef struct a2xx_alu_src {
	bool temp;
	uint32_t reg;
	bool rel;
	bool abs;
	bool negate;
	uint32_t swizzle;   /* 8 bits, relative: channel i reads ((swizzle >> 2i) + i) & 3 */
} a2xx_alu_src;

typedef struct a2xx_alu {
	uint32_t vector_opc;      /* 88-92 */
	uint32_t scalar_opc;      /* 26-31 */
	uint32_t vector_dest;     /* 0-5 */
	bool vector_dest_rel;     /* 6 */
	bool low_precision;       /* 7 */
	uint32_t scalar_dest;     /* 8-13 */
	bool scalar_dest_rel;     /* 14 */
	bool export_data;         /* 15 */
	uint32_t vector_mask;     /* 16-19, bit 0 = x */
	uint32_t scalar_mask;     /* 20-23 */
	bool vector_clamp;        /* 24 */
	bool scalar_clamp;        /* 25 */
	uint32_t pred_select;     /* 59-60: bit 1 predicated, bit 0 EQ */
	bool relative_addr;       /* 61 */
	bool const_1_rel;         /* 62 */
	bool const_0_rel;         /* 63 */
	a2xx_alu_src src[3];      /* src[0] = src1, src[1] = src2, src[2] = src3 */
} a2xx_alu;

/* A2XX_BAD_OPCODE for vector opcode 30 or an unassigned scalar opcode
 * (the struct is still filled in). */
a2xx_status a2xx_alu_decode(const uint32_t w[3], a2xx_alu *out);
a2xx_status a2xx_alu_encode(const a2xx_alu *alu, uint32_t w[3]);
/* Component (0-3 = x-w) that channel i of a relative swizzle reads, and
 * the swizzle that reads component c[i] in channel i. */
unsigned a2xx_swizzle_component(uint32_t swizzle, unsigned channel);
uint32_t a2xx_swizzle_make(const unsigned c[4]);

/* --------------------------------------------------------------- FETCH */

typedef enum a2xx_fetch_opc {
	A2XX_VTX_FETCH = 0,
	A2XX_TEX_FETCH = 1,
	A2XX_TEX_GET_BORDER_COLOR_FRAC = 16,
	A2XX_TEX_GET_COMP_TEX_LOD = 17,
	A2XX_TEX_GET_GRADIENTS = 18,
	A2XX_TEX_GET_WEIGHTS = 19,
	A2XX_TEX_SET_TEX_LOD = 24,
	A2XX_TEX_SET_GRADIENTS_H = 25,
	A2XX_TEX_SET_GRADIENTS_V = 26,
	A2XX_TEX_RESERVED_4 = 27,
} a2xx_fetch_opc;

const char *a2xx_fetch_opc_name(uint32_t opc); /* NULL: unassigned */

typedef struct a2xx_fetch {
	uint32_t opc;            /* 0-4 */
	uint32_t src_reg;        /* 5-10 */
	bool src_reg_am;         /* 11 */
	uint32_t dst_reg;        /* 12-17 */
	bool dst_reg_am;         /* 18 */
	uint32_t dst_swiz;       /* 32-43: 3 bits per component, absolute; 4 '0', 5 '1', 6 '?', 7 keep */
	bool pred_select;        /* 63 */
	bool pred_condition;     /* 95 */
	uint32_t const_index;    /* 20-24 */
	uint32_t src_swiz;       /* vertex: 30-31 (one component); texture: 26-31 (3 x 2 bits) */
	/* vertex (opc 0); bit 19 is fixed 1 */
	uint32_t const_sel;      /* 25-26 */
	uint32_t prefetch_count; /* 27-29 */
	bool is_signed;          /* 44: format_comp_all */
	bool num_format;         /* 45: 0 = normalized */
	bool signed_rf_mode;     /* 46 */
	bool is_index_rounded;   /* 47 */
	uint32_t format;         /* 48-53 */
	uint32_t exp_adjust;     /* 56-61 */
	bool is_mini_fetch;      /* 62 */
	uint32_t stride;         /* 64-71 */
	uint32_t offset;         /* 72-93 */
	/* texture and the TEX_GET / TEX_SET forms */
	bool fetch_valid_only;   /* 19 */
	bool tx_coord_denorm;    /* 25 */
	uint32_t mag_filter;     /* 44-45 */
	uint32_t min_filter;     /* 46-47 */
	uint32_t mip_filter;     /* 48-49 */
	uint32_t aniso_filter;   /* 50-52 */
	uint32_t arbitrary_filter; /* 53-55 */
	uint32_t vol_mag_filter; /* 56-57 */
	uint32_t vol_min_filter; /* 58-59 */
	bool use_comp_lod;       /* 60 */
	uint32_t use_reg_lod;    /* 61-62 */
	bool use_reg_gradients;  /* 64 */
	bool sample_location;    /* 65: 0 centroid, 1 center */
	uint32_t lod_bias;       /* 66-72 */
	uint32_t dimension;      /* 78-79 */
	uint32_t offset_x;       /* 80-84 */
	uint32_t offset_y;       /* 85-89 */
	uint32_t offset_z;       /* 90-94 */
	/* don't-care bits (vertex: 54-55, 94; texture: 73-77), as in the word */
	uint32_t dontcare[3];
} a2xx_fetch;

/* A2XX_BAD_OPCODE for an unassigned opcode, A2XX_FIXED_BIT for a vertex
 * fetch with bit 19 clear. */
a2xx_status a2xx_fetch_decode(const uint32_t w[3], a2xx_fetch *out);
a2xx_status a2xx_fetch_encode(const a2xx_fetch *f, uint32_t w[3]);
/* The don't-care mask of an opcode's layout. */
void a2xx_fetch_dontcare_mask(uint32_t opc, uint32_t mask[3]);

/* ------------------------------------------------------------ programs */

typedef enum a2xx_slot_kind {
	A2XX_SLOT_UNUSED,  /* inside the program, but no EXEC runs it */
	A2XX_SLOT_CF,      /* a CF pair */
	A2XX_SLOT_ALU,
	A2XX_SLOT_FETCH,
} a2xx_slot_kind;

typedef struct a2xx_slot {
	a2xx_slot_kind kind;
	bool serialize;    /* ALU/FETCH: the EXEC's serialize bit for it */
} a2xx_slot;

/* Walks a whole program of ndw dwords, as Mesa's disassembler does: the
 * CF instructions come first, and there are 2 * address of the first
 * EXEC-type CF of them (address = the first ALU/FETCH slot); every EXEC
 * then runs count slots from its address, slot a being dwords 3a..3a+2,
 * serialize bit 2k telling FETCH (1) from ALU (0) for its k-th slot.
 * slots[0 .. *nslots) gets every 96-bit slot of the program (ndw / 3; a
 * partial last slot is A2XX_TRUNCATED).  *ncf_pairs: how many slots are
 * CF pairs.  Errors: no EXEC among the CF instructions read, an EXEC
 * pointing into the CF area or past the end, a slot claimed as both ALU
 * and FETCH. */
a2xx_status a2xx_program_walk(const uint32_t *dw, size_t ndw, a2xx_slot *slots, size_t cap,
                              size_t *nslots, size_t *ncf_pairs);

/* ------------------------------------------------------ random programs */

/* Flags of a2xx_program_random. */
#define A2XX_RANDOM_DONTCARE      (1u << 0) /* set don't-care bits in about a quarter of
                                               the instructions (a2xx_cf.dontcare, ...) */
#define A2XX_RANDOM_NAMED_FILTERS (1u << 1) /* texture aniso and arbitrary filters only
                                               from the named values (never 6) */

/* The most dwords a2xx_program_random writes. */
#define A2XX_RANDOM_MAX_DWORDS (3u * (6u + 6u * 6u))

/* A valid random program, the same for the same seed and flags: up to 6
 * EXEC-type CF instructions (any of the eight forms) and up to 5 others,
 * in random order, padded with a NOP to an even number, then the slots
 * of the EXEC clauses (0 to 6 each), every slot in exactly one clause;
 * the first EXEC in CF order addresses the first slot after the CF area,
 * the others their clauses in random order.  Each instruction is made
 * by this codec's encoders from field values in their ranges (opcodes
 * the fact sheet names only), with exports, their destinations 0, 62
 * and 63, empty write masks and constants above 63 drawn often.
 * a2xx_program_walk accepts every such program.  Writes *ndw dwords;
 * A2XX_TOO_MANY when cap is below that (A2XX_RANDOM_MAX_DWORDS always
 * suffices). */
a2xx_status a2xx_program_random(uint64_t seed, unsigned flags, uint32_t *dw, size_t cap,
                                size_t *ndw);

#ifdef __cplusplus
}
#endif

#endif
