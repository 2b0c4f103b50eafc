/*
 * midgard.h - the whole API of the hand-written Mali Midgard reference
 * codec (src/ref/midgard.c): bundles packed to and unpacked from 32-bit
 * words, and a seeded generator of valid random bundles.
 *
 * It is written from ../shared/facts/ISA-FACTS.md section 2 and the opcode
 * tables beside it, and reads no XML: it is the independent side the
 * XML-driven codec is compared with (tests/test_isa_midgard.c).
 *
 * Bits: a bundle is a run of little-endian 32-bit words; bit i of the
 * bundle is bit i % 32 of word i / 32.  Every part of an ALU bundle follows
 * the one before it without gaps, so a part is a bit offset and a width.
 *
 * Nothing here allocates or keeps global state.
 */
#ifndef ISACHECK_REF_MIDGARD_H
#define ISACHECK_REF_MIDGARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A bundle is at most four quadwords of four words. */
#define MIDGARD_MAX_WORDS 16u
/* Control word, five register words and unit fields, two branches, constants. */
#define MIDGARD_MAX_PARTS 14u

typedef enum midgard_status {
	MIDGARD_OK = 0,
	MIDGARD_ERR_TRUNCATED, /* fewer words than the tag says */
	MIDGARD_ERR_TAG,       /* tag 0, 1 (break), 6 or 7: no bundle of known contents */
	MIDGARD_ERR_OVERFLOW,  /* the enabled parts do not fit the size the tag gives */
	MIDGARD_ERR_SIZE,      /* the tag gives more than one quadword beyond the parts */
	MIDGARD_ERR_PADDING,   /* a padding bit is set */
	MIDGARD_ERR_RANGE,     /* pack: a field value does not fit its bits */
	MIDGARD_ERR_KIND,      /* pack: the bundle kind does not match its tag */
} midgard_status;

const char *midgard_status_text(midgard_status s);

/* ------------------------------------------------------------------ tags */

enum {
	MIDGARD_TAG_BREAK = 0x1,
	MIDGARD_TAG_TEXTURE_VTX = 0x2,
	MIDGARD_TAG_TEXTURE = 0x3,
	MIDGARD_TAG_TEXTURE_BARRIER = 0x4,
	MIDGARD_TAG_LOAD_STORE = 0x5,
	MIDGARD_TAG_ALU4 = 0x8,          /* ALU4..ALU16: 0x8..0xB */
	MIDGARD_TAG_ALU4_WRITEOUT = 0xC, /* 0xC..0xF */
};

/* Quadwords a bundle with this tag takes (0 for tags 0 and 1). */
unsigned midgard_tag_quadwords(unsigned tag);

typedef enum midgard_kind {
	MIDGARD_KIND_ALU,
	MIDGARD_KIND_LOAD_STORE,
	MIDGARD_KIND_TEXTURE,
} midgard_kind;

/* ------------------------------------------------------------------- ALU */

/* ALU units in bundle order; enable bit 17 + 2 * unit. */
typedef enum midgard_unit {
	MIDGARD_UNIT_VMUL,
	MIDGARD_UNIT_SADD,
	MIDGARD_UNIT_VADD,
	MIDGARD_UNIT_SMUL,
	MIDGARD_UNIT_VLUT,
	MIDGARD_UNITS
} midgard_unit;

static inline bool midgard_unit_is_vector(midgard_unit u)
{
	return u == MIDGARD_UNIT_VMUL || u == MIDGARD_UNIT_VADD || u == MIDGARD_UNIT_VLUT;
}
const char *midgard_unit_name(midgard_unit u); /* "vmul", ... */

typedef struct midgard_reg_word {
	uint8_t src1_reg, src2_reg, out_reg; /* 5 bits each */
	bool src2_imm;                       /* src2 is a 16-bit inline immediate */
} midgard_reg_word;

typedef struct midgard_vector_src {
	uint8_t mod;     /* 2 bits */
	uint8_t expand;  /* 3 bits */
	uint8_t swizzle; /* four 2-bit selectors, lane 0 lowest */
} midgard_vector_src;

typedef struct midgard_vector_alu {
	uint8_t op, reg_mode;          /* 8, 2 bits */
	midgard_vector_src src1, src2;
	uint8_t shrink_mode, outmod;   /* 2, 2 bits */
	uint8_t mask;                  /* one bit per 16-bit lane */
} midgard_vector_alu;

typedef struct midgard_scalar_src {
	uint8_t mod;       /* 2 bits */
	bool full;         /* 32-bit */
	uint8_t component; /* 3 bits, in 16-bit units */
} midgard_scalar_src;

typedef struct midgard_scalar_alu {
	uint8_t op;
	midgard_scalar_src src1, src2;
	uint8_t src2_imm_bits;   /* bits 20-24: 5 low immediate bits, else 0 */
	bool reserved;           /* bit 25 */
	uint8_t outmod;
	bool output_full;
	uint8_t output_component;
} midgard_scalar_alu;

typedef struct midgard_branch_compact {
	uint8_t op;        /* 1 uncond, 2 cond, 4 discard, 6 tilebuffer pending, 7 writeout */
	uint8_t dest_tag;
	uint8_t call_mode; /* op 1 only */
	int8_t offset;     /* 7 bits signed, quadwords */
	uint8_t cond;      /* ops other than 1 */
} midgard_branch_compact;

typedef struct midgard_branch_extended {
	uint8_t op, dest_tag, call_mode;
	int32_t offset;    /* 23 bits signed, quadwords */
	uint16_t cond;     /* condition table */
} midgard_branch_extended;

typedef struct midgard_alu_unit {
	bool enabled;
	midgard_reg_word reg;
	midgard_vector_alu vec; /* vector units */
	midgard_scalar_alu sca; /* scalar units */
} midgard_alu_unit;

typedef struct midgard_alu_bundle {
	uint32_t control_reserved; /* reserved control bits as found (mask below) */
	midgard_alu_unit unit[MIDGARD_UNITS];
	bool has_compact, has_extended;
	midgard_branch_compact compact;
	midgard_branch_extended extended;
	bool has_constants;
	uint32_t constants[4];
} midgard_alu_bundle;

/* Control-word bits no source describes. */
#define MIDGARD_CONTROL_RESERVED 0xF155FF00u

/* ------------------------------------------------------------ load/store */

typedef struct midgard_ldst_op {
	uint8_t op, reg, mask, swizzle, arg_comp, arg_reg;
	bool bitsize_toggle;
	uint8_t index_format, index_comp, index_reg, index_shift;
	int32_t offset;    /* 18 bits signed */
	uint64_t raw;      /* the 60-bit word as found (unpack) */
} midgard_ldst_op;

#define MIDGARD_LDST_NOOP 0x03u

typedef struct midgard_ldst_bundle {
	midgard_ldst_op op[2];
} midgard_ldst_bundle;

/* --------------------------------------------------------------- texture */

typedef struct midgard_texture_bundle {
	bool barrier;      /* op 11: the barrier layout */
	uint8_t op;        /* 4 bits (barrier: 6 bits, = 11) */
	uint8_t mode, exec, format;
	bool sampler_reg, texture_reg, lod_reg, offset_reg;
	bool in_full, in_select, in_upper;
	uint8_t in_swizzle, unknown8;
	bool out_full;
	uint8_t sampler_type;
	bool out_select, out_upper;
	uint8_t mask, outmod, swizzle, out_of_order, unknown4;
	uint16_t offset;   /* 12 bits */
	uint8_t bias;
	int8_t bias_int;
	uint16_t sampler_handle, texture_handle;
	bool cont, last;   /* barrier */
} midgard_texture_bundle;

#define MIDGARD_TEX_OP_BARRIER 11u

/* ---------------------------------------------------------------- bundle */

typedef enum midgard_part_kind {
	MIDGARD_PART_CONTROL,         /* 32 bits */
	MIDGARD_PART_REG_WORD,        /* 16 */
	MIDGARD_PART_VECTOR_ALU,      /* 48 */
	MIDGARD_PART_SCALAR_ALU,      /* 32 */
	MIDGARD_PART_BRANCH_COMPACT,  /* 16 */
	MIDGARD_PART_BRANCH_EXTENDED, /* 48 */
	MIDGARD_PART_CONSTANTS,       /* 128 */
	MIDGARD_PART_LOAD_STORE,      /* 128 */
	MIDGARD_PART_TEXTURE,         /* 128 */
} midgard_part_kind;

typedef struct midgard_part {
	midgard_part_kind kind;
	int unit;            /* midgard_unit for register words and unit fields, else -1 */
	unsigned offset;     /* first bit in the bundle */
	unsigned bits;
} midgard_part;

typedef struct midgard_bundle {
	midgard_kind kind;
	uint8_t tag, next_tag;
	unsigned nwords;     /* unpack: words taken; pack: set from the tag */
	union {
		midgard_alu_bundle alu;
		midgard_ldst_bundle ldst;
		midgard_texture_bundle tex;
	} u;
	/* unpack and pack: where each part lies, in bundle order */
	midgard_part parts[MIDGARD_MAX_PARTS];
	unsigned nparts;
} midgard_bundle;

/* Unpacks the bundle at words[0..nwords): its tag, size and parts.  On
 * success *out holds it and out->nwords says how many words it took. */
midgard_status midgard_unpack(const uint32_t *words, size_t nwords, midgard_bundle *out);

/* Packs b into words (cap words of room; zeroed first).  The tag must be of
 * b->kind; an ALU tag must give exactly the quadwords the enabled parts
 * (and constants, when b->u.alu.has_constants) need.  Fills b->nwords and
 * b->parts.  Values wider than their bits are MIDGARD_ERR_RANGE. */
midgard_status midgard_pack(midgard_bundle *b, uint32_t *words, size_t cap);

/* The ALU tag whose size fits a: the quadwords its parts need, plus one
 * for constants; writeout selects the writeout form. */
unsigned midgard_alu_tag(const midgard_alu_bundle *a, bool writeout);

/* Inline immediates: the 16-bit constant a unit's second source holds when
 * its register word has src2_imm (the top five bits are in the register
 * word, the rest scattered in the unit field), and setting one. */
uint16_t midgard_unit_imm(const midgard_alu_unit *u, midgard_unit which);
void midgard_unit_set_imm(midgard_alu_unit *u, midgard_unit which, uint16_t imm);

/* Opcode tables from the facts.  Names are Mesa's enum names without
 * prefix ("fadd", "ld_vary_32"); NULL for an unnamed opcode. */
const char *midgard_alu_op_name(unsigned op);
unsigned midgard_alu_op_units(unsigned op); /* bit u: unit u may run it */
const char *midgard_ldst_op_name(unsigned op);
bool midgard_tex_op_valid(unsigned op);
/* Stores (ST, ST_VARY, ST_IMAGE) read a 3-bit load/store register (0
 * r26, 1 r27, ...), so their register field is below 8. */
bool midgard_ldst_is_store(unsigned op);
/* FDOT3, FDOT3R, FDOT4 and the all/any compares: one component out. */
bool midgard_alu_op_reduces(unsigned op);
/* Whether an ALU opcode's result is an integer (integer opcodes but I2F
 * and U2F; FCMP, F2I, F2U): its output modifier is an integer one. */
bool midgard_alu_op_int_result(unsigned op);

/* Why the sources call a part invalid though each field fits (NULL: they
 * do not): an 8-bit vector result shrunk, a reduction whose mask does
 * not select one component, an integer result not shrunk (scalar: 32
 * bits) whose output modifier is not keeplo; a barrier outside a tag-4
 * bundle or another texture op inside one, BIAS_INT set beside a LOD
 * register or in a fetch.  The generator makes none of these. */
const char *midgard_vector_rule(const midgard_vector_alu *v);
const char *midgard_scalar_rule(const midgard_scalar_alu *s);
const char *midgard_texture_rule(const midgard_bundle *b);

/* A seeded generator (xorshift); equal seeds give equal bundles. */
typedef struct midgard_rng {
	uint64_t state;
} midgard_rng;

void midgard_rng_seed(midgard_rng *r, uint64_t seed);
uint64_t midgard_rng_next(midgard_rng *r);

/* A random valid bundle of any kind: reserved and unknown bits 0, opcodes
 * from the tables on units that may run them, defined enum values only,
 * a tag that fits, no rule of midgard_vector_rule/midgard_texture_rule
 * broken, a store's register below 8.  Ready for midgard_pack. */
void midgard_random_bundle(midgard_rng *r, midgard_bundle *out);

#ifdef __cplusplus
}
#endif

#endif
