/*
 * oraclemap_midgard.h - isa/midgard.xml held to Mesa's own Midgard
 * disassembler (disassemble_midgard() through the mesa_oracle library of
 * ../shared/oracles/mesa): the one comparison that the fuzz target
 * oracle_midgard and the ctest test tests/test_oracle_midgard.c run.
 *
 * Our display syntax is our own, so the comparison is of meaning.  A
 * program's words are framed and decoded by the spec (codec_program_walk,
 * then codec_decode of each part) and disassembled by Mesa.  From our
 * decoding alone - field values, the enum names our spec gives them, the
 * leaves and the spec's framing (bundle sizes, constants quadword, the
 * joined inline immediates) - the mapping writes what Mesa must print
 * for each bundle, in Mesa's syntax, and the two texts must agree line by
 * line.  The mapping from Mesa's tokens to our fields:
 *
 *   Mesa's token                      ours
 *   FADD, LD.32, TEX, BARRIER ...     the leaf (its displayname; texture
 *                                     names by a table: DER_TO_GRAD is our
 *                                     tex_grad_from_derivative, ...)
 *   alu_op_XX, ldst_op_XX, tex_op_XX  no leaf (a hole of the spec)
 *   .f32 / .i16 after an ALU opcode   the OUTMOD field's enum (#float- or
 *                                     #int-outmod), REG_MODE's name
 *   R3, U5, TMP0, AL1, AT0/TA0, PC_SP a register field's number (U5 is r18;
 *                                     r8-r15 print U until written, as
 *                                     Mesa's heuristic says)
 *   .xyzw swizzles, .xy masks         SRCn_SWIZZLE / SWIZZLE by the letters
 *                                     of our #swizzle names, SRCn_EXPAND by
 *                                     our #expand names, MASK, REG_MODE,
 *                                     SHRINK
 *   .abs .neg .widen .sext .zext ...  SRCn_MOD by our #float-mod/#int-mod
 *   .clamp_0_1 .keeplo .shrink ...    OUTMOD by our outmod enums, SHRINK
 *   #1.5, #42 (inline immediate)      the joined value item <unit>.imm
 *   <1, 2>, #0x3 (constants)          the bundle's constants data item,
 *                                     read as Mesa selects lanes
 *   uconstants 0x.., ...              the constants data item
 *   br.cond.true +3 -> alu/8          the branch leaf, COND, OFFSET,
 *                                     DEST_TAG by our #tag names
 *   brx.call.discard.lut1234          CALL_MODE, COND (hex)
 *   AL0, LOCAL_THREAD_ID, 0           #ldst-reg names
 *   .u32 .a32 .secondary, << 3, + 0x8 INDEX_FORMAT, INDEX_SHIFT, OFFSET...
 *   .vtx, writeout, Unknown word type the tag (TAG field, control leaf,
 *                                     the unknown data of tags 6 and 7)
 *   break, TAG ERROR comments         NEXT_TAG, DEST_TAG, OFFSET and the
 *                                     bundle positions of our framing
 *
 * Nothing in Mesa's text is skipped: every line is predicted, and a line
 * or a token that differs is a mismatch.  Two exceptions, both counted:
 *
 *  - a part our spec does not decode (no leaf) predicts only the marker
 *    Mesa must print for it (alu_op_XX, ...) and the lines around it;
 *  - a known Mesa quirk (OM_QUIRK_*, listed with example words in
 *    docs/isa/midgard.md) replaces exactly the token it spoils by "any
 *    text", or says where Mesa stops making sense (then the comparison of
 *    that program ends there), detected by a rule on our decoding.
 *
 * Beyond the text, both sides must agree on validity, part by part:
 * a part our spec decodes cleanly is printed by Mesa without an error
 * marker (unknown opcode, unknown bit, reserved value, "do3", ...),
 * and a part our spec flags (no leaf, a set don't-care bit, an enum value
 * it does not name, non-zero padding) carries one in Mesa's text; a
 * difference a quirk does not explain is a mismatch.
 *
 * Mesa's remarks that are not errors are predicted and compared like any
 * text: "cont missing?", a 32-bit mask whose lane bits disagree (the raw
 * mask in a comment), the next-tag sequence and branch-target comments (our
 * framing does not relate one bundle's NEXT_TAG to the next bundle, so
 * these check our fields, not our validity).
 */
#ifndef ISACHECK_FUZZ_ORACLEMAP_MIDGARD_H
#define ISACHECK_FUZZ_ORACLEMAP_MIDGARD_H

#include "codec.h"
#include "midgard.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The known Mesa quirks: each is a rule on our decoding that says Mesa's
 * text is wrong there (docs/isa/midgard.md, "Mesa's disassembler"). */
typedef enum oraclemap_midgard_quirk {
	OM_QUIRK_ATOMIC64_NAME,    /* 0x41, 0x45, ...: printed with the .be names */
	OM_QUIRK_ATOMIC64_BE,      /* 0x43, 0x47, ...: printed as ldst_op_43 */
	OM_QUIRK_UNIT,             /* an ALU opcode on a unit that cannot run it */
	OM_QUIRK_FREDUCE,          /* 0x3F named though no unit runs it */
	OM_QUIRK_CONTROL_BITS,     /* control bits 8-15, 28-31 never read */
	OM_QUIRK_PADDING,          /* ALU padding never read */
	OM_QUIRK_ALU_SIZE,         /* ALU parts not checked against the bundle size */
	OM_QUIRK_BARRIER_OPCODE,   /* barrier opcode bits 12-13 never read */
	OM_QUIRK_SCALAR_CONSTANT,  /* a full scalar constant indexed by 16-bit units */
	OM_QUIRK_CONSTANT64,       /* 64-bit constants indexed by 32-bit selectors */
	OM_QUIRK_CONSTANT_LANES,   /* constants read by other selectors than registers */
	OM_QUIRK_CONSTANT_EXPAND,  /* expanding constant sources print half-width lanes */
	OM_QUIRK_TRAP,             /* TRAP has no name in Mesa's table */
	OM_QUIRK_INT_OUTMOD,       /* an integer result's output modifier unprinted */
	OM_QUIRK_COUNT
} oraclemap_midgard_quirk;

/* One line each: what the quirk is. */
extern const char *const oraclemap_midgard_quirk_names[OM_QUIRK_COUNT];

typedef enum oraclemap_midgard_verdict {
	OM_SAME,      /* compared, no difference */
	OM_DIFFERENT, /* a mismatch: what, where */
	OM_REFUSED,   /* Mesa's code cannot run on these words (oracle status < 0) */
} oraclemap_midgard_verdict;

/* Bundle kinds, for the counts. */
enum {
	OM_KIND_ALU,
	OM_KIND_LOAD_STORE,
	OM_KIND_TEXTURE,
	OM_KIND_UNKNOWN, /* tags 0, 1, 6, 7: Mesa's "Unknown word type" */
	OM_KIND_COUNT
};

typedef struct oraclemap_midgard_result {
	oraclemap_midgard_verdict verdict;
	int mesa_status;             /* the oracle's status */
	char refusal[256];           /* OM_REFUSED: the oracle's status and reason */
	size_t bundles;              /* bundles compared in full */
	size_t kinds[OM_KIND_COUNT]; /* of them, per kind */
	size_t lines;                /* Mesa's lines compared */
	size_t unclean;              /* parts our spec flags, and Mesa too */
	size_t branches;             /* branch fields compared */
	size_t immediates;           /* inline immediates compared */
	size_t constants;            /* constant operands compared */
	bool cut;                    /* the comparison ended early (a fatal framing
	                                error, or a quirk Mesa cannot be followed past) */
	unsigned quirks[OM_QUIRK_COUNT]; /* how often each rule applied */
	/* OM_DIFFERENT: */
	size_t bundle;               /* the bundle (0-based) */
	size_t bit;                  /* its first bit */
	char what[600];              /* one line */
	char *mesa_lines;            /* the bundle's lines as Mesa printed them */
	char *expected_lines;        /* and as we expect them (wildcards as "...") */
	char *our_text;              /* our program's disassembly */
	char *mesa_text;             /* Mesa's whole text */
} oraclemap_midgard_result;

typedef struct oraclemap_midgard oraclemap_midgard;

/* The comparison for a codec compiled from isa/midgard.xml (it must have
 * the roots and the <program> that file has); NULL, with why in err,
 * when it does not. */
oraclemap_midgard *oraclemap_midgard_new(const codec *c, char *err, size_t errlen);
void oraclemap_midgard_free(oraclemap_midgard *om);

/* Compares the program words[0..nwords) (little-endian 32-bit words).
 * False only when memory runs out. */
bool oraclemap_midgard_compare(oraclemap_midgard *om, const uint32_t *words, size_t nwords,
                               oraclemap_midgard_result *r);
void oraclemap_midgard_result_free(oraclemap_midgard_result *r);

/* ------------------------------------------------------------ programs */

/* How a random program is made from the reference's bundle generator
 * (src/ref/midgard.h), bit by bit: */
enum {
	OM_GEN_CHAIN = 1u << 0,    /* every NEXT_TAG names the next bundle's tag, the
	                              last one break: Mesa prints the whole program */
	OM_GEN_TARGETS = 1u << 1,  /* extended branches land on a bundle of the
	                              program, mostly with its tag (Mesa writes a table
	                              entry per target and cannot run otherwise) */
	OM_GEN_CONSTANTS = 1u << 2,/* a bundle whose source reads r26 gets a
	                              constants quadword (Mesa cannot run without) */
	OM_GEN_MESA = 1u << 3,     /* no 8-bit vector op with an upper shrink or an
	                              expand_high source (Mesa indexes past a table) */
	OM_GEN_ALL = 15u,
};

/* Packs a random program of n bundles (1..OM_MAX_BUNDLES) into words
 * (cap words of room); returns its words, 0 when it does not fit or the
 * reference fails to pack its own bundle.  kinds[] (may be NULL) counts
 * its bundles by OM_KIND_*. */
#define OM_MAX_BUNDLES 16u
size_t oraclemap_midgard_program(midgard_rng *rng, unsigned n, unsigned flags, uint32_t *words,
                                 size_t cap, size_t kinds[OM_KIND_COUNT]);

#endif
