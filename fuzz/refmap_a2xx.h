/*
 * refmap_a2xx.h - the reference codec's a2xx structs (src/ref/a2xx.h) read
 * as isa/a2xx.xml's field values, and held against a spec decoding: the
 * one mapping of tests/test_isa_a2xx.c and the fuzz target diff_a2xx.
 */
#ifndef ISACHECK_REFMAP_A2XX_H
#define ISACHECK_REFMAP_A2XX_H

#include "a2xx.h"
#include "codec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the reference says an instruction holds: its opcode's name and
 * (name, value) pairs named as the spec's fields (depth 0, and
 * "SRCn.REG"/"SRCn.CONST" inside an ALU operand). */
typedef struct refmap_a2xx_expect {
	const char *leaf;   /* NULL: the reference names no opcode */
	bool valid;         /* decodes without a bad opcode or fixed bit */
	bool dontcare;      /* a don't-care bit is set */
	const char *status;
	struct {
		char name[32];
		uint64_t value;
	} f[64];
	size_t n;
} refmap_a2xx_expect;

/* What the reference decodes of one #cf (48 bits), #alu or #fetch. */
void refmap_a2xx_expect_cf(uint64_t bits, refmap_a2xx_expect *e);
void refmap_a2xx_expect_alu(const uint32_t w[3], refmap_a2xx_expect *e);
void refmap_a2xx_expect_fetch(const uint32_t w[3], refmap_a2xx_expect *e);

/* Whether the decoding has an issue of kind k. */
bool refmap_a2xx_has_issue(const codec_decoded *d, codec_issue_kind k);

/* The spec's values under the reference's names (derived values aside):
 * depth 0 by field name, and inside an ALU operand its REG (a field, so
 * a temporary's) or CONST as "SRCn.REG"/"SRCn.CONST". */
typedef struct refmap_a2xx_seen {
	struct {
		char name[64];
		uint64_t value;
	} f[96];
	size_t n;
} refmap_a2xx_seen;

/* The spec's values into *s; strict (the fuzz target): an operand's REG
 * or CONST only directly inside it (depth 1), else at any depth. */
void refmap_a2xx_spec_fields(const codec_decoded *d, bool strict, refmap_a2xx_seen *s);

/* Whether the spec's decoding says what the reference says: the same
 * validity, leaf, don't-care finding, and exactly the expected field
 * values (every field the spec reports is expected, and the reverse);
 * on a difference, why names the first.  strict (the fuzz target): also
 * any issue other than set don't-care bits is a difference, and operand
 * fields count at depth 1 only (refmap_a2xx_spec_fields). */
bool refmap_a2xx_agree(const codec_decoded *d, const refmap_a2xx_expect *e, bool strict,
                       char *why, size_t len);

/* The kinds of instruction, each a root of isa/a2xx.xml. */
enum { REFMAP_A2XX_CF, REFMAP_A2XX_ALU, REFMAP_A2XX_FETCH };

/* The reference's canonical encoding (don't-care bits 0) of its own
 * decoding of a REFMAP_A2XX_* instruction (cf: the 48-bit #cf; w3: the
 * 96-bit #alu or #fetch) into wr (two 64-bit words, bit 0 first). */
a2xx_status refmap_a2xx_canonical(int kind, const uint32_t w3[3], uint64_t cf, uint64_t wr[2]);

#endif
