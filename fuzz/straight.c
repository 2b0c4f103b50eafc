/*
 * straight.c - fuzz target straight_<spec>: the codec's two ways of
 * printing an instruction must agree.  Built once per spec (FUZZ_SPEC,
 * FUZZ_TARGET from fuzz/targets.cmake).
 *
 * The codec prints most instructions straight through (src/codec/fast.c:
 * display plans compiled into programs at load, nested fields inlined,
 * issues recorded on the way) and falls back to interpreting Mesa's
 * display walk (disasm.c) for the rest.  A codec built without the fast
 * paths (codec_new_opt) interprets everything.  For every instruction of
 * the input, at the generation its header selects, both print the line
 * with its errors, with and without branch labels, into a roomy buffer
 * and into one cut short: the texts, their full lengths and whether each
 * decoded cleanly must be the same.  codec_decode walks the display for
 * its issues straight through as well, unless it is asked for the cases
 * taken: the codec's decoding, the plain codec's and the codec's with
 * cases recorded must agree in leaf, every value (field, owner, depth,
 * sub leaf, bits, value) and every issue (kind, text).  The unit tests
 * compare them on vectors, mutated, random and leaf-seeded words; this
 * keeps looking.
 *
 * The codec's two ways of encoding too: codec_encode and the encoder
 * that remembers (codec_encoder: templates per leaf and held cases)
 * must give the same result, words and message, and write nothing past
 * the leaf's words, on the decoding and on it changed as a decoding
 * made by hand might be (fuzz_change_decoding, chosen by the
 * instruction's own bits).
 */
#include "fuzz.h"

/* Private to src/codec (codec_new_opt), by path: src/spec has an
 * internal.h of its own. */
#include "../src/codec/internal.h"

#include <stdlib.h>
#include <string.h>

/* The spec (its codec prints straight through) and the plain codec,
 * loaded once per process (libFuzzer gives no context). */
static fuzz_spec spec;
static codec *plain;
static fuzz_spec plain_spec; /* spec seen through plain */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_spec_load_or_exit(&spec, FUZZ_SPEC, FUZZ_NO_MATCH);
	plain = codec_new_opt(spec.m, NULL, false);
	if (!plain) {
		fprintf(stderr, "fuzz: %s: no plain codec\n", spec.path);
		exit(2);
	}
	plain_spec = spec;
	plain_spec.c = plain;
	plain_spec.enc = NULL; /* spec's encoder is spec.c's (and replaced: encode_one) */
	return 0;
}

/* One instruction (words w, memory words u) both ways, with the options
 * of this round; false after a finding. */
static bool straight_one(const uint8_t *data, size_t size, const uint64_t *w, const uint32_t *u,
                         uint32_t gen, bool labels, size_t cut)
{
	codec_disasm_options opt = {.gen = gen, .show_errors = true, .branch_labels = labels,
	                            .no_match = spec.no_match};
	char a[1024], b[1024], what[512];
	size_t cap = cut ? cut : sizeof a;
	size_t na = codec_disasm_one(spec.c, u, &opt, a, cap);
	size_t nb = codec_disasm_one(plain, u, &opt, b, cap);
	if (na == nb && !strcmp(a, b))
		return true;
	snprintf(what, sizeof what, "printed straight through and interpreted, the texts differ "
	         "(lengths %zu and %zu; buffer %zu; labels %s)", na, nb, cap,
	         labels ? "on" : "off");
	fuzz_side fa = {"straight through", w, NULL, a}, fb = {"interpreted", w, NULL, b};
	fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, &fa, &fb);
	return false;
}

/* Why decodings a and b differ, or false: they are the same. */
static bool decodings_differ(const codec_decoded *a, const codec_decoded *b, char *why,
                             size_t len)
{
	if (a->leaf != b->leaf || a->nvalues != b->nvalues || a->nissues != b->nissues) {
		snprintf(why, len, "leaf %s vs %s, %zu values vs %zu, %zu issues vs %zu",
		         a->leaf ? a->leaf->name : "(none)", b->leaf ? b->leaf->name : "(none)",
		         a->nvalues, b->nvalues, a->nissues, b->nissues);
		return true;
	}
	for (size_t i = 0; i < a->nvalues; i++) {
		const codec_value *x = &a->values[i], *y = &b->values[i];
		if (x->field != y->field || x->owner != y->owner || x->depth != y->depth ||
		    x->sub != y->sub || x->raw != y->raw || x->value != y->value) {
			snprintf(why, len, "value %zu: %s = 0x%llx vs %s = 0x%llx", i,
			         x->field ? x->field->name : "?", (unsigned long long)x->raw,
			         y->field ? y->field->name : "?", (unsigned long long)y->raw);
			return true;
		}
	}
	for (size_t i = 0; i < a->nissues; i++)
		if (a->issues[i].kind != b->issues[i].kind ||
		    strcmp(a->issues[i].text, b->issues[i].text)) {
			snprintf(why, len, "issue %zu: \"%s\" vs \"%s\"", i, a->issues[i].text,
			         b->issues[i].text);
			return true;
		}
	return false;
}

/* The codec's decoding of the instruction at hand (decode_one). */
static fuzz_decoding fast;

/* One instruction decoded three ways (see the top); false after a
 * finding. */
static bool decode_one(const uint8_t *data, size_t size, const uint64_t *w, uint32_t gen)
{
	static fuzz_decoding interp;
	static codec_case_taken cases[64];
	fuzz_decode(&spec, w, gen, &fast);
	fuzz_decode_again(&plain_spec, w, gen, &interp);
	char why[512], what[640];
	const char *other = "the plain codec's";
	bool differ = decodings_differ(&fast.d, &interp.d, why, sizeof why);
	if (!differ) {
		fuzz_decoding_reset(&interp);
		interp.d.cases = cases;
		interp.d.cap_cases = 64;
		codec_decode(spec.c, spec.root, w, gen, &interp.d);
		other = "the codec's with the cases taken recorded";
		differ = decodings_differ(&fast.d, &interp.d, why, sizeof why);
	}
	if (!differ)
		return true;
	snprintf(what, sizeof what, "codec_decode straight through and %s differ: %s", other, why);
	fuzz_side fa = {"straight through", w, &fast.d, NULL}, fb = {"interpreted", w, &interp.d, NULL};
	fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, &fa, &fb);
	return false;
}

/* The instruction's decoding (decode_one's) encoded both ways, as it
 * is and changed (see the top); false after a finding. */
static bool encode_one(const uint8_t *data, size_t size, const uint64_t *w, uint32_t gen)
{
	static codec_value changed[FUZZ_MAX_VALUES + 1];
	const codec_decoded *d = &fast.d;
	if (!d->leaf || !d->nvalues)
		return true;
	/* Changed decodings bring shapes no decoder makes; an encoder that
	 * has kept its fill records nothing more, and the leaves reached
	 * after that would be compared the general way on both sides: start
	 * a new one before then. */
	codec_encoder_stats st = codec_encoder_get_stats(spec.enc);
	if (st.templates + st.shapes >= 32768) {
		codec_encoder *fresh = codec_encoder_new(spec.c);
		if (fresh) {
			codec_encoder_free(spec.enc);
			spec.enc = fresh;
		}
	}
	char why[512], what[640];
	codec_decoded x;
	/* the change from the word's bits: the fuzzer steers those */
	uint64_t r = w[0] ^ (w[0] >> 31) * 0x9E3779B97F4A7C15ull;
	unsigned how = fuzz_change_decoding(d, &x, changed, r);
	const codec_decoded *bad = NULL;
	if (fuzz_encoders_differ(&spec, d, why, sizeof why))
		bad = d;
	else if (fuzz_encoders_differ(&spec, &x, why, sizeof why))
		bad = &x;
	if (!bad)
		return true;
	if (bad == d)
		snprintf(what, sizeof what, "codec_encode and the encoder that remembers differ on the "
		         "decoding: %s", why);
	else
		snprintf(what, sizeof what, "codec_encode and the encoder that remembers differ on the "
		         "decoding changed (kind %u): %s", how, why);
	fuzz_side fa = {"decoded", w, d, NULL}, fb = {"encoded", w, bad, NULL};
	fuzz_finding(FUZZ_TARGET, &spec, data, size, gen, what, &fa, &fb);
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint32_t gen = fuzz_spec_gen(&spec, (uint16_t)(data[0] | data[1] << 8));
	/* the header's top bits: branch labels, and a buffer cut short */
	bool labels = data[1] & 0x80;
	size_t cut = data[1] & 0x40 ? 1 + data[0] % 64 : 0;
	uint64_t w[FUZZ_MAX_WORDS];
	uint32_t u[FUZZ_MAX_WORDS * 2];
	for (size_t i = 0; fuzz_input_instr(&spec, data, size, i, w, u); i++)
		if (!straight_one(data, size, w, u, gen, labels, cut) ||
		    !decode_one(data, size, w, gen) || !encode_one(data, size, w, gen))
			break;
	return 0;
}
