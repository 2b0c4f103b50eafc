/*
 * bits.h - bit fields of little-endian 32-bit instruction words, shared
 * by the hand-written reference codecs (a2xx.c, etnaviv.c, midgard.c).
 * Bit i is bit i % 32 of word i / 32.  The references read no XML and use
 * nothing of src/spec or src/codec; they share only these two helpers,
 * which know nothing of any ISA.
 */
#ifndef ISACHECK_REF_BITS_H
#define ISACHECK_REF_BITS_H

#include <stdint.h>

/* The n bits (n <= 64) of w from bit low up, bit low lowest. */
static inline uint64_t ref_bits_get(const uint32_t *w, unsigned low, unsigned n)
{
	uint64_t v = 0;
	for (unsigned done = 0; done < n;) {
		unsigned pos = low + done, sh = pos % 32u, take = 32u - sh;
		if (take > n - done)
			take = n - done;
		uint64_t chunk = (uint64_t)(w[pos / 32u] >> sh);
		if (take < 32u)
			chunk &= (UINT64_C(1) << take) - 1u;
		v |= chunk << done;
		done += take;
	}
	return v;
}

/* Overwrites the n bits (n <= 64) of w from bit low up with the low n
 * bits of v; the bits around them keep their values. */
static inline void ref_bits_put(uint32_t *w, unsigned low, unsigned n, uint64_t v)
{
	for (unsigned done = 0; done < n;) {
		unsigned pos = low + done, sh = pos % 32u, take = 32u - sh;
		if (take > n - done)
			take = n - done;
		uint32_t mask = (take < 32u ? (UINT32_C(1) << take) - 1u : UINT32_MAX) << sh;
		w[pos / 32u] = (w[pos / 32u] & ~mask) | ((uint32_t)(v >> done) << sh & mask);
		done += take;
	}
}

#endif
