/*
 * test_oracle_displays.c - the display proof's findings on Mesa's own
 * files, held to Mesa's own disassembler.  prove --semantic reports a
 * leaf whose text does not give its word back with two words (found by
 * Z3 or by sampling, confirmed by isacheck's decoder) that decode to
 * different values and print the same text.  Here every such pair on
 * Mesa's ir3.xml and etnaviv.xml is printed by Mesa's decoder generated
 * from the same XML (../shared/oracles/mesa, errors shown, the pair's
 * generation passed to the decoder unchanged): both words must print
 * the same text there too, the text the finding quotes, and with no
 * error that speaks of the word's bits (a set don't-care bit, a failing
 * assert, a bitset conflict or no match: words Mesa's decoder flags are
 * no evidence of a lossy text).  The errors that speak of the XML are
 * counted, not refused: a leaf without a display, and a display naming
 * a field its case does not define ("no field"), print theirs for every
 * word of that case.  Which pairs the proof finds depends on the
 * solver's models; that every pair it reports is a real one does not.
 */
#include "check.h"
#include "codec.h"
#include "cli/prove_ops.h" /* the decoder glue the CLI passes the proofs */
#include "spec.h"
#include "testlib.h"

#if ISACHECK_HAVE_ORACLE
#include "mesa_oracle.h"
#endif

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#if ISACHECK_HAVE_ORACLE

/* "H..._L..." (high 32-bit word first, as prove_format_hex writes it)
 * into 32-bit words, low first; the count, or 0 when it is not that. */
static size_t parse_hex_words(const char *s, size_t len, uint32_t *u, size_t cap)
{
	size_t n = 0;
	uint32_t tmp[16];
	for (size_t i = 0; i < len;) {
		if (len - i < 8 || n == 16)
			return 0;
		char part[9];
		memcpy(part, s + i, 8);
		part[8] = 0;
		char *end;
		tmp[n++] = (uint32_t)strtoul(part, &end, 16);
		if (*end)
			return 0;
		i += 8;
		if (i < len && s[i++] != '_')
			return 0;
	}
	if (n > cap)
		return 0;
	for (size_t i = 0; i < n; i++)
		u[i] = tmp[n - 1 - i];
	return n;
}

typedef struct pair {
	uint32_t a[4], b[4];
	size_t nwords;
	uint32_t gen;
	char text[2048]; /* what the finding says both print */
} pair;

/* The two words, their generation and their text, out of a
 * display-same-text message. */
static bool parse_finding(const char *msg, pair *p)
{
	const char *colon = strstr(msg, "does not determine its word: ");
	if (!colon)
		return false;
	const char *a = colon + strlen("does not determine its word: ");
	const char *and = strstr(a, " and ");
	if (!and)
		return false;
	const char *b = and + 5;
	const char *gen = strstr(b, " (gen ");
	if (!gen)
		return false;
	size_t na = parse_hex_words(a, (size_t)(and - a), p->a, 4);
	size_t nb = parse_hex_words(b, (size_t)(gen - b), p->b, 4);
	if (!na || na != nb)
		return false;
	p->nwords = na;
	p->gen = (uint32_t)strtoul(gen + 6, NULL, 10);
	const char *q = strstr(gen, " and both print \"");
	const char *found = strstr(gen, "\" (found by ");
	if (!q || !found || found < q)
		return false;
	q += strlen(" and both print \"");
	/* the text itself may hold quotes: the last "(found by" ends it */
	for (const char *f = found; (f = strstr(f + 1, "\" (found by "));)
		found = f;
	size_t n = (size_t)(found - q);
	if (n >= sizeof p->text)
		return false;
	memcpy(p->text, q, n);
	p->text[n] = 0;
	return true;
}

/* Whether Mesa's text flags the word's bits: an error about them
 * (errors follow "\t; ", comma separated). */
static bool flags_bits(const char *text)
{
	static const char *const about_bits[] = {"dontcare bits in ", "unexpected bits[",
	                                         "bitset conflict: ", "no match"};
	const char *e = strstr(text, "\t; ");
	for (size_t i = 0; e && i < sizeof about_bits / sizeof *about_bits; i++)
		if (strstr(e, about_bits[i]))
			return true;
	return false;
}

/* Mesa's text of one word, without its final newline. */
static int mesa_text(const char *isa, const pair *p, const uint32_t *w, char *out, size_t len)
{
	int r = mesa_oracle_isaspec_disasm_ex(isa, p->gen, w, p->nwords,
	                                      MESA_ORACLE_SHOW_ERRORS | MESA_ORACLE_RAW_GPU_ID,
	                                      out, len);
	if (r > 0 && (size_t)r < len && out[r - 1] == '\n')
		out[r - 1] = 0;
	return r;
}

static void pairs_of(const char *isa, const char *spec_rel, size_t at_least)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", spec_rel);
	if (!testlib_have_shared(path))
		return;
	testlib_codec l = testlib_load_codec(path);
	CHECK(l.c != NULL);
	if (!l.c)
		return;
	prove_text_ops ops = prove_codec_ops(l.c);
	prove_options opt = prove_default_options();
	opt.text = &ops;
	opt.jobs = 2;
	spec_diags d = {0};
	semantic_stats st = {0};
	CHECK(prove_displays(l.m, &opt, &d, &st));
	size_t findings = 0, checked = 0, xml_errors = 0;
	for (size_t i = 0; i < d.count; i++) {
		if (strcmp(d.items[i].rule, "display-same-text"))
			continue;
		findings++;
		pair p;
		if (!parse_finding(d.items[i].message, &p)) {
			fprintf(stderr, "%s: cannot read the finding: %s\n", isa, d.items[i].message);
			CHECK(0);
			continue;
		}
		CHECK_INT(p.nwords, mesa_oracle_isaspec_words(isa));
		char ta[4096], tb[4096];
		int ra = mesa_text(isa, &p, p.a, ta, sizeof ta);
		int rb = mesa_text(isa, &p, p.b, tb, sizeof tb);
		CHECK(ra > 0 && rb > 0);
		if (ra <= 0 || rb <= 0)
			continue;
		checked++;
		xml_errors += strstr(ta, "\t; ") != NULL;
		bool alike = !strcmp(ta, tb), quoted = !strcmp(ta, p.text);
		bool clean = !flags_bits(ta) && !flags_bits(tb);
		CHECK(alike);
		CHECK(quoted);
		CHECK(clean);
		if (!alike || !quoted || !clean)
			fprintf(stderr, "%s: %s\n  Mesa prints \"%s\"\n           and \"%s\"\n", isa,
			        d.items[i].message, ta, tb);
	}
	printf("%s: %zu display-same-text pairs, %zu printed alike by Mesa's disassembler "
	       "(%zu of them with an error about the XML: no display, no field)\n", isa,
	       findings, checked, xml_errors);
	/* the proof reports every lossy leaf (2026-12-02: ir3 168, etnaviv 81) */
	CHECK(findings >= at_least);
	CHECK_INT(checked, findings);
	spec_diags_free(&d);
	testlib_unload_codec(&l);
}

TEST(ir3_pairs_through_mesa)
{
	pairs_of("ir3", "freedreno/isa/ir3.xml", 160);
}

TEST(etnaviv_pairs_through_mesa)
{
	pairs_of("etnaviv", "etnaviv/isa/etnaviv.xml", 75);
}

#else

TEST(oracle_absent)
{
	/* without the oracle there is nothing to compare against: skipped,
	 * except under CI=true, where ../shared must be there */
	testlib_have_shared(ISACHECK_ORACLE_DIR "/oracle.cmake");
}

#endif

int main(void)
{
#if ISACHECK_HAVE_ORACLE
	RUN(ir3_pairs_through_mesa);
	RUN(etnaviv_pairs_through_mesa);
#else
	RUN(oracle_absent);
#endif
	return testlib_finish();
}
