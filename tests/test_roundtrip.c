/*
 * test_roundtrip.c - the round-trip proof (prove_semantic with
 * prove_text_ops.roundtrip: roundtrip-lost and its "every word comes
 * back" proofs) against brute force.
 *
 * Every spec here has a 16-bit #instruction root: every word is decoded
 * and, where it has a meaning, encoded again (codec_roundtrip).  The
 * verdicts must agree: proved -> no word of the leaf fails to come back;
 * roundtrip-lost -> the word it names is one that fails; semantic-unknown
 * is counted and allowed, but may not be the rule.
 *
 * Random specs: leaves told apart by bits 14-15; bits 0-13 cut into
 * fixed and don't-care pattern bits, fields, bits nothing claims (holes),
 * asserts of the default case, and 4-bit #sub fields whose two leaves
 * have asserts, x bits and holes of their own, one of them an override
 * on a param P bound to a field of the leaf.  Some leaves get an
 * override on one of their fields with a field of its own over other
 * bits (a new name, or a name of the default case: the encoder's
 * "shadowed" values), an assert, a display that prints the #sub field
 * or does not (the decoder checks the sub-leaf's asserts only where it
 * prints it), and derived values.
 *
 * Usage: test_roundtrip [SEED [COUNT]]   (defaults 1 and 80; 16 under ASan).
 */
#include "check.h"
#include "codec.h"
#include "cli/prove_ops.h" /* the decoder glue the CLI passes the proofs */
#include "spec.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ISACHECK_SANITIZED
static unsigned long seed_arg = 1, count_arg = 16;
#else
static unsigned long seed_arg = 1, count_arg = 80;
#endif

static uint64_t rng_state;

static unsigned below(unsigned n)
{
	return n ? (unsigned)(testlib_splitmix64(&rng_state) % n) : 0;
}

typedef testlib_text sbuf;
#define out testlib_printf

typedef struct tally {
	size_t leaves, proved, findings, unknown, lost_words;
} tally;

/* The diagnostic of the round-trip proof about leaf name: "roundtrip-lost",
 * "semantic-unknown", or NULL (proved); its message in *msg. */
static const char *verdict_of(const spec_diags *sd, const char *name, const char **msg)
{
	char lost[128], unknown[128];
	snprintf(lost, sizeof lost, "every word of '%s' back:", name);
	snprintf(unknown, sizeof unknown, "every word of '%s' back is unknown", name);
	for (size_t i = 0; i < sd->count; i++) {
		const spec_diag *x = &sd->items[i];
		if ((!strcmp(x->rule, "roundtrip-lost") && strstr(x->message, lost)) ||
		    (!strcmp(x->rule, "semantic-unknown") && strstr(x->message, unknown))) {
			*msg = x->message;
			return x->rule;
		}
	}
	*msg = NULL;
	return NULL;
}

/* Proves spec xml's round trips and holds every verdict to brute force.
 * expect (NULL or per leaf): "proved", "finding" or "unknown". */
static void check_spec(const char *name, const char *xml, tally *t, const char *const *expect)
{
	spec_diags d = {0}, sd = {0};
	spec_model *m = spec_load_buffer(name, xml, strlen(xml), ".", &d);
	CHECK(m != NULL);
	if (!m) {
		fprintf(stderr, "%s did not load:\n%s\n", name, xml);
		for (size_t i = 0; i < d.count; i++)
			fprintf(stderr, "  %s\n", d.items[i].message);
		spec_diags_free(&d);
		return;
	}
	codec *c = codec_new(m, &d);
	CHECK(c != NULL);
	if (!c) {
		spec_model_free(m);
		spec_diags_free(&d);
		return;
	}
	prove_text_ops ops = {.ctx = c, .decode = prove_ops_decode, .roundtrip = prove_ops_roundtrip};
	prove_options opt = prove_default_options();
	opt.timeout_ms = 5000;
	opt.text = &ops;
	semantic_stats st;
	CHECK(prove_semantic(m, &opt, &sd, &st));
	/* the roots words start from (#instruction, and #sub when no field
	 * decodes it): every word of each, and which leaves lose one */
	size_t asked = 0, proved = 0, findings = 0, unknown = 0;
	for (size_t ri = 0; ri < m->nroots; ri++) {
		const spec_root *root = &m->roots[ri];
		if (spec_is_field_type(m, root->bitset))
			continue;
		CHECK(root->nleaves <= 64 && root->bitset->size <= 16);
		size_t lost[64] = {0};
		for (uint64_t w = 0; w < ((uint64_t)1 << root->bitset->size); w++) {
			const spec_bitset *leaf = NULL;
			uint64_t o[1];
			char why[256];
			codec_roundtrip_result r = codec_roundtrip(c, root, &w, 0, &leaf, o, NULL, why, sizeof why);
			if (r != CODEC_RT_REFUSED && r != CODEC_RT_CHANGED)
				continue;
			for (size_t l = 0; l < root->nleaves && l < 64; l++)
				lost[l] += root->leaves[l] == leaf;
		}
		for (size_t l = 0; l < root->nleaves && l < 64; l++, asked++) {
			const spec_bitset *leaf = root->leaves[l];
			const char *msg;
			const char *rule = verdict_of(&sd, leaf->name, &msg);
			const char *verdict = !rule ? "proved" : !strcmp(rule, "roundtrip-lost") ? "finding"
			                                                                       : "unknown";
			bool agree =
				!strcmp(verdict, "unknown") || (lost[l] > 0) == !strcmp(verdict, "finding");
			/* a finding's word is one that does not come back */
			if (!strcmp(verdict, "finding")) {
				const char *h = strstr(msg, "back: ");
				uint64_t w = h ? strtoull(h + 6, NULL, 16) : 0;
				const spec_bitset *got = NULL;
				uint64_t o[1];
				char why[256];
				codec_roundtrip_result r =
					codec_roundtrip(c, root, &w, 0, &got, o, NULL, why, sizeof why);
				agree = agree && got == leaf && (r == CODEC_RT_REFUSED || r == CODEC_RT_CHANGED);
			}
			if (expect && !strcmp(root->bitset->name, "#instruction") && expect[l])
				agree = agree && !strcmp(verdict, expect[l]);
			CHECK(agree);
			if (!agree)
				fprintf(stderr, "%s: leaf %s: verdict %s (%s), brute force: %zu words lost\n%s\n",
				        name, leaf->name, verdict, msg ? msg : "-", lost[l], xml);
			t->lost_words += lost[l];
			*(!strcmp(verdict, "proved") ? &proved : !strcmp(verdict, "finding") ? &findings
			                                                                     : &unknown) += 1;
		}
	}
	t->leaves += asked;
	t->proved += proved;
	t->findings += findings;
	t->unknown += unknown;
	/* the counts say what the diagnostics say */
	CHECK_INT(st.roundtrips, asked);
	CHECK_INT(st.roundtrip_kept, proved);
	CHECK_INT(st.roundtrip_findings, findings);
	CHECK_INT(st.roundtrip_unknown, unknown);
	codec_free(c);
	spec_model_free(m);
	spec_diags_free(&d);
	spec_diags_free(&sd);
}

/* ------------------------------------------------------------ by hand */

TEST(each_verdict_by_hand)
{
	const char *xml =
		"<isa>\n"
		"<bitset name=\"#instruction\" size=\"16\"></bitset>\n"
		/* every bit a pattern or field bit: proved */
		"<bitset name=\"whole\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">00</pattern>\n"
		"  <pattern low=\"12\" high=\"13\">xx</pattern>\n"
		"  <field name=\"A\" low=\"0\" high=\"11\" type=\"uint\"/>\n"
		"  <display>whole {A}</display>\n"
		"</bitset>\n"
		/* bits 8-13 nothing reads: lost */
		"<bitset name=\"holey\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">01</pattern>\n"
		"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		"  <display>holey {A}</display>\n"
		"</bitset>\n"
		/* an assert the decoder checks (its case is the display's): proved */
		"<bitset name=\"checked\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">10</pattern>\n"
		"  <assert low=\"8\" high=\"13\">000000</assert>\n"
		"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		"  <display>checked {A}</display>\n"
		"</bitset>\n"
		/* an override that holds when A is 0 and takes bits 0-3 for B: the
		 * default's A is listed too, and shadowed: bits 4-7 lost */
		"<bitset name=\"shadow\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">11</pattern>\n"
		"  <pattern low=\"8\" high=\"13\">000000</pattern>\n"
		"  <override><expr>{A} == 0x10</expr>\n"
		"    <field name=\"B\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
		"    <display>b {B}</display>\n"
		"  </override>\n"
		"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"
		"  <display>shadow {A}</display>\n"
		"</bitset>\n"
		"</isa>\n";
	static const char *const expect[] = {"proved", "finding", "proved", "finding"};
	tally t = {0};
	check_spec("hand.xml", xml, &t, expect);
}

/* codec_encode places each field within one 64-bit word at once and
 * any other bit by bit: both give the word back, and a value that
 * contradicts bits already placed (a pattern, another field) is refused
 * with the bit it needs.  A field across a word boundary (60-67) and
 * two fields over the same bits (B and C share 2-3). */
TEST(encoder_places_and_clashes)
{
	const char *xml =
		"<isa>\n"
		"<bitset name=\"#instruction\" size=\"80\"></bitset>\n"
		"<bitset name=\"wide\" extends=\"#instruction\">\n"
		"  <field name=\"B\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
		"  <field name=\"C\" low=\"2\" high=\"5\" type=\"uint\"/>\n"
		"  <field name=\"D\" low=\"60\" high=\"67\" type=\"hex\"/>\n"
		"  <pattern low=\"6\" high=\"59\">000000000000000000000000000000000000000000000000000000</pattern>\n"
		"  <pattern low=\"68\" high=\"79\">101010101010</pattern>\n"
		"  <display>wide {B} {C} {D}</display>\n"
		"</bitset>\n"
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("clash.xml", xml, strlen(xml), ".", &d);
	codec *c = m ? codec_new(m, &d) : NULL;
	CHECK(c != NULL);
	if (!c) {
		spec_model_free(m);
		spec_diags_free(&d);
		return;
	}
	/* B = 0xe, C = 0x3 (bits 2-3 = 11 both ways), D = 0xa5 */
	uint64_t w[2] = {0x500000000000000eull | 0x3u << 2, 0xaaaau << 4 | 0xa};
	w[1] &= 0xffff;
	codec_value vals[8];
	codec_issue iss[4];
	codec_decoded dec = {.values = vals, .cap_values = 8, .issues = iss, .cap_issues = 4};
	CHECK(codec_decode(c, NULL, w, 0, &dec));
	uint64_t out[2] = {0};
	char err[256];
	CHECK(codec_encode(c, &dec, out, err, sizeof err));
	CHECK(out[0] == w[0] && out[1] == w[1]);
	/* C = 0: bits 2-3 must be 0, but B placed 1 there */
	for (size_t i = 0; i < dec.nvalues; i++)
		if (!strcmp(dec.values[i].field->name, "C"))
			dec.values[i].value = 0;
	CHECK(!codec_encode(c, &dec, out, err, sizeof err));
	CHECK(strstr(err, "C needs bit 2 to be 0, but it is already 1") != NULL);
	codec_free(c);
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(sub_asserts_checked_where_printed)
{
	/* the sub-leaf's assert (bit 3 is 0) is checked only where the
	 * decoder prints the field: l0 prints S, l1 does not (an assert of
	 * #sub's own would not be checked at all: s has a display, so the
	 * decoder's walk stops there) */
	const char *xml =
		"<isa>\n"
		"<bitset name=\"#sub\" size=\"4\">\n"
		"  <field name=\"NUM\" low=\"0\" high=\"2\" type=\"uint\"/>\n"
		"</bitset>\n"
		"<bitset name=\"s\" extends=\"#sub\">\n"
		"  <assert pos=\"3\">0</assert>\n"
		"  <display>r{NUM}</display>\n"
		"</bitset>\n"
		"<bitset name=\"#instruction\" size=\"16\"></bitset>\n"
		"<bitset name=\"l0\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">00</pattern>\n"
		"  <pattern low=\"4\" high=\"13\">0000000000</pattern>\n"
		"  <field name=\"S\" low=\"0\" high=\"3\" type=\"#sub\"/>\n"
		"  <display>l0 {S}</display>\n"
		"</bitset>\n"
		"<bitset name=\"l1\" extends=\"#instruction\">\n"
		"  <pattern low=\"14\" high=\"15\">01</pattern>\n"
		"  <pattern low=\"4\" high=\"13\">0000000000</pattern>\n"
		"  <field name=\"S\" low=\"0\" high=\"3\" type=\"#sub\"/>\n"
		"  <display>l1</display>\n"
		"</bitset>\n"
		"</isa>\n";
	static const char *const expect[] = {"proved", "finding"};
	tally t = {0};
	check_spec("sub.xml", xml, &t, expect);
}

TEST(many_sub_leaves)
{
	/* a bitset field whose bitset has 300 leaves, and only the last
	 * loses words (bit 9 is read by nothing there): more ways to lose a
	 * word than the proof keeps, which must make it unsure, never
	 * "proved" */
	testlib_text b = {0};
	out(&b, "<isa>\n<bitset name=\"#sub\" size=\"10\"></bitset>\n");
	for (unsigned k = 0; k < 300; k++) {
		out(&b, "<bitset name=\"s%u\" extends=\"#sub\"><pattern low=\"0\" high=\"8\">", k);
		for (unsigned i = 9; i-- > 0;)
			out(&b, "%u", (k >> i) & 1);
		out(&b, "</pattern>%s<display>s</display></bitset>\n",
		    k < 299 ? "<pattern pos=\"9\">x</pattern>" : "");
	}
	out(&b, "<bitset name=\"#instruction\" size=\"16\"></bitset>\n"
	        "<bitset name=\"op\" extends=\"#instruction\">\n"
	        "  <pattern low=\"10\" high=\"15\">000000</pattern>\n"
	        "  <field name=\"S\" low=\"0\" high=\"9\" type=\"#sub\"/>\n"
	        "  <display>op {S}</display>\n</bitset>\n</isa>\n");
	static const char *const expect[] = {NULL};
	tally t = {0};
	check_spec("many.xml", b.p, &t, expect);
	CHECK_INT(t.proved, 0);
	free(b.p);
}

/* ------------------------------------------------------------- random */

/* Bits lo..hi of a leaf or sub-leaf: one random kind of claim. */
static void claim(sbuf *b, unsigned lo, unsigned hi, unsigned kind, const char *name,
                  const char *type)
{
	switch (kind) {
	case 0: /* don't-care */
	case 1: /* fixed */
		out(b, "  <pattern low=\"%u\" high=\"%u\">", lo, hi);
		for (unsigned i = lo; i <= hi; i++)
			out(b, "%s", kind ? (below(2) ? "1" : "0") : "x");
		out(b, "</pattern>\n");
		break;
	case 2: /* an assert */
		out(b, "  <assert low=\"%u\" high=\"%u\">", lo, hi);
		for (unsigned i = lo; i <= hi; i++)
			out(b, "%u", below(2));
		out(b, "</assert>\n");
		break;
	case 3: /* nothing: a hole */
		break;
	default:
		out(b, "  <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"%s\"/>\n", name, lo, hi, type);
		break;
	}
}

static void random_spec(sbuf *b)
{
	out(b, "<isa>\n");
	bool param = below(2);
	out(b, "<bitset name=\"#sub\" size=\"4\">\n  <field name=\"NUM\" low=\"0\" high=\"1\" "
	       "type=\"uint\"/>\n");
	claim(b, 2, 2, below(3) ? 4 + below(2) : below(4), "M", "uint");
	out(b, "</bitset>\n");
	for (unsigned s = 0; s < 2; s++) {
		out(b, "<bitset name=\"s%u\" extends=\"#sub\">\n  <pattern pos=\"3\">%u</pattern>\n", s, s);
		if (param && s == 0 && below(2))
			out(b, "  <override><expr>{P} == %u</expr>\n    <assert pos=\"%u\">%u</assert>\n"
			       "    <display>h{NUM}</display>\n  </override>\n",
			    below(2), below(3), below(2));
		out(b, "  <display>%s{NUM}</display>\n</bitset>\n", s ? "c" : "r");
	}
	out(b, "<bitset name=\"#instruction\" size=\"16\"></bitset>\n");
	unsigned nleaves = 1 + below(4);
	for (unsigned l = 0; l < nleaves; l++) {
		out(b, "<bitset name=\"l%u\" extends=\"#instruction\">\n", l);
		out(b, "  <pattern low=\"14\" high=\"15\">%u%u</pattern>\n", (l >> 1) & 1, l & 1);
		char names[16][8];
		unsigned nf = 0;
		int subf = -1, plainf = -1;
		for (unsigned p = 0; p < 14;) {
			unsigned w = 1 + below(4);
			if (p + w > 14)
				w = 14 - p;
			unsigned kind = below(9);
			if (kind == 8 && p + 4 <= 14 && subf < 0 && (!param || plainf >= 0)) {
				snprintf(names[nf], sizeof names[nf], "F%u", nf);
				out(b, "  <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"#sub\">", names[nf], p,
				    p + 3);
				if (param)
					out(b, "<param name=\"%s\" as=\"P\"/>", names[plainf]);
				out(b, "</field>\n");
				subf = (int)nf++;
				p += 4;
				continue;
			}
			if (kind >= 4) {
				snprintf(names[nf], sizeof names[nf], "F%u", nf);
				claim(b, p, p + w - 1, 4, names[nf], below(2) ? "uint" : "int");
				plainf = (int)nf++;
			} else {
				claim(b, p, p + w - 1, kind, NULL, NULL);
			}
			p += w;
		}
		if (below(3) == 0)
			out(b, "  <derived name=\"D\" expr=\"#d\" type=\"uint\" width=\"8\"/>\n");
		/* an override on a field: its own field over other bits, an
		 * assert, a display that may print the #sub field */
		if (nf && below(2)) {
			unsigned on = below(nf);
			out(b, "  <override><expr>{%s} == %u</expr>\n", names[on], below(2));
			unsigned lo = below(14), hi = lo + below(3);
			if (hi > 13)
				hi = 13;
			if (below(2))
				out(b, "    <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"uint\"/>\n",
				    below(2) ? "G" : names[below(nf)], lo, hi);
			if (below(3) == 0) {
				unsigned at = below(14);
				out(b, "    <assert pos=\"%u\">%u</assert>\n", at, below(2));
			}
			if (below(3))
				out(b, "    <display>o%s%s%s</display>\n", subf >= 0 && below(2) ? " {" : "",
				    subf >= 0 ? names[subf] : "", "");
			out(b, "  </override>\n");
		}
		out(b, "  <display>{NAME}");
		for (unsigned i = 0; i < nf; i++)
			if (below(4))
				out(b, " {%s}", names[i]);
		out(b, "</display>\n</bitset>\n");
	}
	out(b, "<expr name=\"#d\">{F0} + 1</expr>\n");
	out(b, "</isa>\n");
}

TEST(random_roundtrips_against_brute_force)
{
	tally t = {0};
	rng_state = seed_arg * 0x9e3779b97f4a7c15ull + 11;
	for (unsigned long i = 0; i < count_arg; i++) {
		sbuf b = {0};
		random_spec(&b);
		char name[32];
		snprintf(name, sizeof name, "random-%lu.xml", i);
		check_spec(name, b.p, &t, NULL);
		free(b.p);
	}
	printf("random round trips: %zu leaves: %zu proved, %zu shown to lose a word, %zu unknown "
	       "(brute force: %zu words lost)\n",
	       t.leaves, t.proved, t.findings, t.unknown, t.lost_words);
	/* every kind of verdict is met, and unknown is not the rule */
	CHECK(t.proved > 0);
	CHECK(t.findings > 0);
	CHECK(t.unknown * 5 <= t.leaves);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		seed_arg = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		count_arg = strtoul(argv[2], NULL, 0);
	RUN(each_verdict_by_hand);
	RUN(encoder_places_and_clashes);
	RUN(sub_asserts_checked_where_printed);
	RUN(many_sub_leaves);
	RUN(random_roundtrips_against_brute_force);
	return testlib_finish();
}
