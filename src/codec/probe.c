/*
 * probe.c - check and disasm agree: every leaf is decoded and printed
 * from a few words it matches, and what makes printing fail (a name no
 * field resolves, no display, a derived value that cannot be evaluated,
 * text past its budget) becomes a finding with the word that shows it.
 * Whatever fails for every word of a leaf fails for these words too, so
 * `check` can no longer say "proved" about a spec that `disasm` cannot
 * print; a failure on some words only is found when a probe lands on one.
 * Roots that fields decode through are not probed alone (their displays
 * read params only a parent binds): their leaves print inside the
 * parents' probes, whose issues name the sub-leaf.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define PROBE_FILLS 4u
#define PROBE_MAX_VALUES 512u
#define PROBE_MAX_ISSUES 16u

/* Fill k of the words that leaf matches: its 0/1 pattern bits, x bits 0,
 * every other bit from the fill (0s, 1s, then two fixed mixes). */
static void probe_word(const spec_bitset *leaf, unsigned size, unsigned k, uint64_t *w)
{
	static const uint64_t fills[PROBE_FILLS] = {
		0, ~(uint64_t)0, 0x5a3c96e1f00f1234ull, 0xa5c3691e0ff0edcbull,
	};
	unsigned nw = (size + 63) / 64;
	for (unsigned i = 0; i < nw; i++) {
		uint64_t mask = i < leaf->mask.nwords ? leaf->mask.w[i] : 0;
		uint64_t x = i < leaf->dontcare.nwords ? leaf->dontcare.w[i] : 0;
		uint64_t match = i < leaf->match.nwords ? leaf->match.w[i] : 0;
		w[i] = (fills[k] & ~(mask | x)) | (match & mask);
		if (i == nw - 1 && size % 64)
			w[i] &= ((uint64_t)1 << (size % 64)) - 1;
	}
}

static bool fails_printing(codec_issue_kind k)
{
	return k == CODEC_NO_FIELD || k == CODEC_EXPR_ERROR || k == CODEC_NO_DISPLAY ||
	       k == CODEC_TEXT_TOO_LONG;
}

size_t codec_lint_words(const codec *c, spec_diags *diags)
{
	codec_value values[PROBE_MAX_VALUES];
	codec_issue issues[PROBE_MAX_ISSUES];
	size_t found = 0;
	for (size_t r = 0; c && r < c->m->nroots; r++) {
		const spec_root *root = &c->m->roots[r];
		unsigned size = root->bitset->size;
		if (spec_is_field_type(c->m, root->bitset))
			continue; /* its words are printed inside its parents' probes */
		for (size_t i = 0; i < root->nleaves; i++) {
			const spec_bitset *leaf = root->leaves[i];
			bool said = false;
			for (unsigned k = 0; k < PROBE_FILLS && !said; k++) {
				uint64_t w[CODEC_MAX_WORDS] = {0};
				probe_word(leaf, size, k, w);
				codec_decoded d = {.values = values, .cap_values = PROBE_MAX_VALUES,
				                   .issues = issues, .cap_issues = PROBE_MAX_ISSUES};
				uint32_t gen = leaf->gen.min;
				/* false when it has issues: the leaf and issues are still there */
				codec_decode(c, root, w, gen, &d);
				if (d.leaf != leaf)
					continue; /* another leaf takes this word: its own probe says */
				for (size_t q = 0; q < d.nissues && !said; q++) {
					if (!fails_printing(d.issues[q].kind))
						continue;
					char hex[CODEC_MAX_WORDS * 16 + 1];
					size_t n = 0;
					for (unsigned b = (size + 63) / 64; b-- > 0 && n + 17 < sizeof hex;)
						n += (size_t)snprintf(hex + n, sizeof hex - n, "%016" PRIx64, w[b]);
					/* the word's own width, not the 64-bit blocks' */
					unsigned digits = (size + 3) / 4;
					const char *h = n > digits ? hex + n - digits : hex;
					spec_diag_add(diags, SPEC_ERROR, "disasm-fails", leaf->loc,
					              "leaf '%s' cannot be printed: word %s (gen %" PRIu32
					              ") gives \"%s\", so disasm fails where check proves",
					              leaf->name, h, gen, d.issues[q].text);
					said = true;
					found++;
				}
			}
		}
	}
	return found;
}
