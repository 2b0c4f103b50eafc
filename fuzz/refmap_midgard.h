/*
 * refmap_midgard.h - the reference codec's midgard_bundle (src/ref/midgard.h)
 * read as isa/midgard.xml's field values and leaves, part by part: the one
 * mapping of tests/test_isa_midgard.c and the fuzz target diff_midgard.
 */
#ifndef ISACHECK_REFMAP_MIDGARD_H
#define ISACHECK_REFMAP_MIDGARD_H

#include "midgard.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* isa/midgard.xml's roots, one a kind of bundle part. */
enum {
	MIDGARD_ROOT_TAG,
	MIDGARD_ROOT_CONTROL,
	MIDGARD_ROOT_REG,
	MIDGARD_ROOT_VECTOR,
	MIDGARD_ROOT_SCALAR,
	MIDGARD_ROOT_COMPACT,
	MIDGARD_ROOT_EXTENDED,
	MIDGARD_ROOT_LDST,
	MIDGARD_ROOT_TEXTURE,
	MIDGARD_ROOT_COUNT
};

/* The roots' names in the XML ("#tag", ...), by MIDGARD_ROOT_*. */
extern const char *const refmap_midgard_root_names[MIDGARD_ROOT_COUNT];

/* One part of an unpacked bundle, at the root that decodes it. */
typedef struct refmap_midgard_part {
	const midgard_bundle *b;
	const midgard_part *p; /* NULL: the tag byte */
	int root;
} refmap_midgard_part;

/* The reference's value of field `name` of the part into *v; word is the
 * enclosing bitset field (WORD1/WORD2 of a load/store bundle) or NULL.
 * False when the reference has no such field. */
bool refmap_midgard_expect(const refmap_midgard_part *pr, const char *word, const char *name,
                           int64_t *v);

/* The leaf the part must decode to by the reference's opcode.  named_only
 * (the fuzz target): "" when the reference's tables name no such opcode
 * for the root's kind of unit, or the part breaks a rule of the sources
 * (midgard_vector_rule, midgard_scalar_rule, midgard_texture_rule: the
 * spec must flag it);
 * otherwise (the test, which feeds valid bundles only) "?" stands for a
 * name the tables lack and units are not checked. */
void refmap_midgard_expected_leaf(const refmap_midgard_part *pr, bool named_only, char *buf,
                                  size_t len);

/* A load/store word's leaf by the reference ("nop" for the no-op); ""
 * when the tables do not name its opcode. */
const char *refmap_midgard_ldst_leaf(const midgard_ldst_op *l);

/* The MIDGARD_ROOT_* that decodes a part; -1 for constants. */
int refmap_midgard_part_root(const midgard_part *p);

/* Bits off .. off+bits-1 of a bundle into 64-bit words, part bit 0 first. */
void refmap_midgard_extract(const uint32_t *words, unsigned off, unsigned bits,
                            uint64_t out[2]);

#endif
