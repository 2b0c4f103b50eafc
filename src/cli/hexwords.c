/*
 * hexwords.c - instructions written in hex, as the commands read them
 * (disasm and decode --hex, triage's hex text): an 8-digit WORD is one
 * 32-bit word of memory (low word first, as the vectors list them); a
 * longer WORD, or one with '_', is a whole instruction written most
 * significant 32-bit word first, as isacheck prints witnesses.
 */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool push_word(word_buf *ws, uint32_t v)
{
	if (ws->n == ws->cap) {
		size_t cap = ws->cap ? ws->cap * 2 : 256;
		uint32_t *p = realloc(ws->w, cap * sizeof *p);
		if (!p)
			return false;
		ws->w = p;
		ws->cap = cap;
	}
	ws->w[ws->n++] = v;
	return true;
}

/* One --hex argument; false with a message on garbage. */
bool parse_hex_arg(const char *arg, unsigned instr_words, word_buf *ws, char *err,
                   size_t errlen)
{
	const char *s = arg;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	char digits[SPEC_MAX_BITS / 4 + 1];
	size_t nd = 0;
	bool grouped = false;
	for (const char *p = s; *p; p++) {
		if (*p == '_') {
			grouped = true;
			continue;
		}
		if (!isxdigit((unsigned char)*p)) {
			snprintf(err, errlen, "'%s' is not hexadecimal (bad character '%c')", arg, *p);
			return false;
		}
		if (nd >= sizeof digits - 1) {
			snprintf(err, errlen, "'%s' is longer than any instruction", arg);
			return false;
		}
		digits[nd++] = *p;
	}
	digits[nd] = 0;
	if (!nd) {
		snprintf(err, errlen, "'%s' holds no hex digits", arg);
		return false;
	}
	if (nd <= 8 && !grouped) { /* one memory word */
		return push_word(ws, (uint32_t)strtoul(digits, NULL, 16)) ||
		       (snprintf(err, errlen, "out of memory"), false);
	}
	/* a whole instruction, high word first: pad to instr_words * 8 digits */
	size_t want = (size_t)instr_words * 8;
	if (nd > want) {
		snprintf(err, errlen, "'%s' has %zu hex digits; an instruction here has %zu", arg, nd,
		         want);
		return false;
	}
	char full[SPEC_MAX_BITS / 4 + 1];
	memset(full, '0', want - nd);
	memcpy(full + want - nd, digits, nd + 1);
	for (size_t k = instr_words; k-- > 0;) {
		char chunk[9];
		memcpy(chunk, full + k * 8, 8);
		chunk[8] = 0;
		if (!push_word(ws, (uint32_t)strtoul(chunk, NULL, 16))) {
			snprintf(err, errlen, "out of memory");
			return false;
		}
	}
	return true;
}

