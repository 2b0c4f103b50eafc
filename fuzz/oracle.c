/*
 * oracle.c - isacheck held to Mesa's own isaspec decoders (oracle.h).
 */
#include "oracle.h"

#include "mesa_oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Mesa's isa_disasm leaks the texts of errors still pending when the
 * buffer ends (a last instruction no leaf or two leaves match: its
 * errors are printed on the next line, which never comes).  That is
 * Mesa's, not ours: the oracle's calls run with the leak checker off,
 * so that it still watches everything isacheck allocates. */
#if defined(__SANITIZE_ADDRESS__)
#define ORACLE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ORACLE_LSAN 1
#endif
#endif
#ifdef ORACLE_LSAN
#include <sanitizer/lsan_interface.h>
#define MESA_LEAKS_BEGIN() __lsan_disable()
#define MESA_LEAKS_END() __lsan_enable()
#else
#define MESA_LEAKS_BEGIN() ((void)0)
#define MESA_LEAKS_END() ((void)0)
#endif

size_t oracle_isaspec_styles(const char *isa, codec_no_match_style out[2])
{
	if (!isa)
		return 0;
	if (!strcmp(isa, "ir3")) {
		out[0] = CODEC_NO_MATCH_IR3;
		out[1] = CODEC_NO_MATCH_MESA;
		return 2;
	}
	if (!strcmp(isa, "etnaviv")) {
		out[0] = CODEC_NO_MATCH_MESA;
		return 1;
	}
	if (!strcmp(isa, "afuc")) {
		out[0] = CODEC_NO_MATCH_AFUC;
		return 1;
	}
	return 0;
}

codec_disasm_options oracle_isaspec_options(const char *isa, codec_no_match_style style,
                                            uint32_t gen)
{
	bool afuc = isa && !strcmp(isa, "afuc");
	bool tool = style == CODEC_NO_MATCH_AFUC || (style == CODEC_NO_MATCH_MESA && isa &&
	                                             !strcmp(isa, "ir3"));
	return (codec_disasm_options){.gen = gen, .show_errors = !afuc, .branch_labels = tool,
	                              .no_match = style};
}

/* The oracle's flags for the same options. */
static unsigned oracle_flags(const char *isa, const codec_disasm_options *o)
{
	unsigned f = MESA_ORACLE_RAW_GPU_ID;
	f |= o->show_errors ? MESA_ORACLE_SHOW_ERRORS : MESA_ORACLE_NO_ERRORS;
	if (o->branch_labels)
		f |= MESA_ORACLE_BRANCH_LABELS;
	/* ir3's default is its unit test's print_raw; etnaviv's is isaspec's
	 * own no match already; afuc's is afuc-disasm's */
	if (!strcmp(isa, "ir3") && o->no_match == CODEC_NO_MATCH_MESA)
		f |= MESA_ORACLE_NO_MATCH_PLAIN;
	return f;
}

/* The line of text starting at p (up to its newline or end). */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return (size_t)((nl ? nl : end) - p);
}

static void first_difference(oracle_isaspec_result *r)
{
	const char *a = r->ours, *ae = r->ours + r->ourslen;
	const char *b = r->mesa, *be = r->mesa + r->mesalen;
	for (size_t line = 0;; line++) {
		size_t la = line_len(a, ae), lb = line_len(b, be);
		if (la != lb || memcmp(a, b, la) || (a + la == ae) != (b + lb == be)) {
			r->line = line;
			r->our_line = a;
			r->our_linelen = la;
			r->mesa_line = b;
			r->mesa_linelen = lb;
			return;
		}
		if (a + la == ae)
			return;
		a += la + 1;
		b += lb + 1;
	}
}

bool oracle_isaspec_compare(const codec *c, const char *isa, const uint32_t *words,
                            size_t ninstr, const codec_disasm_options *o,
                            oracle_isaspec_result *r)
{
	memset(r, 0, sizeof *r);
	unsigned w = mesa_oracle_isaspec_words(isa);
	if (!w)
		return false;
	if (ninstr == 1 && !o->branch_labels) {
		/* one instruction: codec_disasm_one's way (its line without
		 * the newline Mesa ends it with) */
		char line[4096];
		size_t n = codec_disasm_one(c, words, o, line, sizeof line);
		if (n >= sizeof line || !(r->ours = malloc(n + 2)))
			return false;
		memcpy(r->ours, line, n);
		memcpy(r->ours + n, "\n", 2);
		r->ourslen = n + 1;
	} else {
		FILE *f = open_memstream(&r->ours, &r->ourslen);
		if (!f)
			return false;
		codec_disasm(c, words, ninstr, o, f);
		if (fclose(f) || !r->ours)
			return false;
	}
	/* Mesa's text: one try with room for most, a second with its length */
	size_t cap = 512 * ninstr + 1024;
	for (int round = 0; round < 2; round++) {
		free(r->mesa);
		r->mesa = malloc(cap);
		if (!r->mesa)
			return false;
		MESA_LEAKS_BEGIN();
		r->status = mesa_oracle_isaspec_disasm_ex(isa, o->gen, words, ninstr * w,
		                                          oracle_flags(isa, o), r->mesa, cap);
		MESA_LEAKS_END();
		if (r->status < 0 || (size_t)r->status < cap)
			break;
		cap = (size_t)r->status + 1;
	}
	if (r->status < 0)
		return true;
	r->mesalen = (size_t)r->status;
	r->same = r->ourslen == r->mesalen && !memcmp(r->ours, r->mesa, r->mesalen);
	if (!r->same)
		first_difference(r);
	return true;
}

void oracle_isaspec_result_free(oracle_isaspec_result *r)
{
	free(r->ours);
	free(r->mesa);
	memset(r, 0, sizeof *r);
}
