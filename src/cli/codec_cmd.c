/*
 * codec_cmd.c - `isacheck disasm` and `isacheck decode`: instructions in,
 * text or structured decodings out, for any spec.
 *
 * Input is a binary FILE ("-": standard input; raw little-endian words)
 * or --hex WORDS: an 8-digit WORD is one 32-bit word of memory (low word
 * first, as the vectors list them); a longer WORD, or one with '_', is a
 * whole instruction written most significant 32-bit word first, as
 * isacheck prints witnesses ("c0600000_00e18001").
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "check.h"
#include "cli.h"
#include "codec.h"
#include "prove_ops.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char codec_usage[] =
	"usage: isacheck %s SPEC [options] (FILE | --hex WORD...)\n"
	"  %s\n"
	"options:\n"
	"  --gen=N            the generation to decode for (required when SPEC has <gen>)\n"
	"  --root=NAME        decode against this root (default #instruction, else the widest);\n"
	"                     each instruction is the root's size, rounded up to 32-bit words\n"
	"  --program[=NAME]   the input is one whole program, cut into instructions by\n"
	"                     SPEC's <program> (docs/framing.md); exit 2 when it cannot be framed\n"
	"                     or lint finds errors in the <program>;\n"
	"                     NAME picks a program or a variant (a2xx: vs, fs print Mesa's\n"
	"                     export comments of that stage; the default, a2xx, none)\n"
	"%s"
	"  --no-cache         parse SPEC's files, neither reading nor writing the cache of\n"
	"                     parsed files (docs/cache.md)\n"
	"  --max-spec-size=SIZE  read up to SIZE bytes of SPEC's XML (K, M, G; default\n"
	"                     64M, at most 1G); element and memory budgets grow with it\n"
	"  FILE               raw little-endian instructions; '-' reads standard input\n"
	"  --hex WORD...      8-digit WORDs are 32-bit memory words, low word first; a\n"
	"                     longer WORD (or one with '_') is a whole instruction, high word first\n"
	"exit: 0 every instruction decoded cleanly, 1 some did not, 2 unusable input or usage\n";

#define MAX_INPUT_BYTES (256u << 20)

/* Instruction words (iw 32-bit words, low first) as the codec's 64-bit
 * words. */
static void instr_w64(const uint32_t *u, unsigned iw, uint64_t *w64)
{
	memset(w64, 0, SPEC_MAX_BITS / 8);
	for (unsigned k = 0; k < iw && k < SPEC_MAX_BITS / 32; k++)
		w64[k / 2] |= (uint64_t)u[k] << (32 * (k % 2));
}

/* disasm --root of a root other than the default (a2xx's #alu, a
 * sub-bitset's own root): one line an instruction, as the default root's
 * are, but for the no-match text, which is Mesa's isa_disasm's (the tools'
 * callbacks print default-root instructions only).  Returns how many
 * decoded without issues. */
static size_t disasm_other_root(const codec *c, const spec_root *root, const uint32_t *words,
                                size_t ninstr, unsigned iw, const codec_disasm_options *opt)
{
	size_t clean = 0;
	char line[4096];
	codec_value values[256];
	codec_issue issues[16];
	for (size_t n = 0; n < ninstr; n++) {
		uint64_t w64[SPEC_MAX_BITS / 64];
		instr_w64(words + n * iw, iw, w64);
		size_t len = codec_disasm_root(c, root, w64, opt, line, sizeof line);
		char *big = len >= sizeof line ? malloc(len + 1) : NULL;
		if (big)
			codec_disasm_root(c, root, w64, opt, big, len + 1);
		printf("%s\n", big ? big : line);
		free(big);
		codec_decoded d = {.values = values, .cap_values = 256, .issues = issues,
		                   .cap_issues = 16};
		codec_decode(c, root, w64, opt->gen, &d);
		clean += d.leaf && !d.nissues;
	}
	return clean;
}

static bool read_binary(const char *path, word_buf *ws, char *err, size_t errlen)
{
	char why[300];
	FILE *f = input_open_err(path, "rb", why, sizeof why);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, why);
		return false;
	}
	unsigned char buf[65536];
	size_t total = 0, carry = 0;
	unsigned char part[4];
	for (size_t r; (r = fread(buf, 1, sizeof buf, f)) > 0;) {
		total += r;
		if (total > MAX_INPUT_BYTES) {
			snprintf(err, errlen, "'%s' is larger than %u bytes", path, MAX_INPUT_BYTES);
			if (f != stdin)
				fclose(f);
			return false;
		}
		for (size_t i = 0; i < r; i++) {
			part[carry++] = buf[i];
			if (carry == 4) {
				if (!push_word(ws, (uint32_t)part[0] | (uint32_t)part[1] << 8 |
				                       (uint32_t)part[2] << 16 | (uint32_t)part[3] << 24)) {
					snprintf(err, errlen, "out of memory");
					if (f != stdin)
						fclose(f);
					return false;
				}
				carry = 0;
			}
		}
	}
	bool bad = ferror(f);
	if (f != stdin)
		fclose(f);
	if (bad) {
		snprintf(err, errlen, "cannot read '%s'", path);
		return false;
	}
	if (carry) {
		snprintf(err, errlen, "'%s' is %zu bytes: not a whole number of 32-bit words "
		         "(%zu trailing bytes)", path, total, carry);
		return false;
	}
	return true;
}

/* A spec loaded, compiled and checked against the chosen root and gen. */
typedef struct session {
	spec_model *m;
	codec *c;
	const spec_root *root;
} session;

/* Instructions past which disasm and decode build the compiled codec.
 * The general one prints the same text and values and costs far less to
 * build (one instruction, whole command: ir3 42 ms against 315, Midgard
 * 97 against 354, a2xx 24 against 96, etnaviv 25 against 45), but each
 * instruction costs 1-2 us more: etnaviv breaks even near 12,000
 * instructions, ir3 near 300,000.  Below this, never slower than always
 * compiling (docs/benchmarks.md, "Start-up"). */
#define SESSION_GENERAL_MAX 10000u
/* The same for asm, which reads its lines one at a time: each line checks
 * its candidates by decoding them, about 0.13 ms more a line with the
 * general codec on ir3, which saves 273 ms building it (273 ir3 lines:
 * 92 ms against 330): the first 2,000 lines use the general codec, and
 * the compiled one is built for the 2,001st. */
#define ASM_GENERAL_LINES 2000u

static bool session_open(session *ss, const char *cmd, const char *spec_path,
                         const char *root_name, bool have_gen, unsigned long gen,
                         bool general, bool no_cache, size_t max_bytes, spec_diags *diags)
{
	char cache[4096];
	/* lint's findings are never shown here: only what makes a spec
	 * unusable, which the loader reports */
	spec_load_options lo = {.cache_dir = cache_dir_for(no_cache, cache, sizeof cache),
	                        .skip_lint = true, .max_bytes = max_bytes};
	ss->m = spec_load_with(spec_path, &lo, diags);
	if (!ss->m) {
		spec_diags_sort(diags);
		print_fatal_diags(stderr, diags);
		return false;
	}
	if (general) {
		ss->c = codec_new_general(ss->m, diags);
		if (!ss->c) {
			print_fatal_diags(stderr, diags); /* codec_new says why */
			fprintf(stderr, "isacheck %s: cannot build a codec for '%s'\n", cmd, spec_path);
			return false;
		}
	}
	ss->root = root_name ? spec_find_root(ss->m, root_name) : codec_model_default_root(ss->m);
	if (!ss->root) {
		fprintf(stderr, "isacheck %s: '%s' has no root '%s'\n", cmd, spec_path,
		        root_name ? root_name : "#instruction");
		return false;
	}
	spec_gen rg = ss->root->bitset->gen;
	bool spec_has_gen = false;
	for (size_t i = 0; i < ss->m->nbitsets; i++)
		spec_has_gen |= ss->m->bitsets[i]->has_gen;
	if (spec_has_gen && !have_gen) {
		fprintf(stderr, "isacheck %s: '%s' describes several generations (%u..%u): give --gen=N\n",
		        cmd, spec_path, rg.min, rg.max);
		return false;
	}
	if (gen < rg.min || gen > rg.max) {
		fprintf(stderr, "isacheck %s: generation %lu is outside '%s' (%u..%u)\n", cmd, gen,
		        ss->root->bitset->name, rg.min, rg.max);
		return false;
	}
	return true;
}

/* Builds a session's codec, or replaces its general codec, with c (NULL
 * when it could not be built). */
static bool session_set_codec(session *ss, codec *c, const char *cmd, const char *spec_path,
                              spec_diags *diags)
{
	if (!c) {
		print_fatal_diags(stderr, diags);
		fprintf(stderr, "isacheck %s: cannot build a codec for '%s'\n", cmd, spec_path);
		return false;
	}
	codec_free(ss->c);
	ss->c = c;
	return true;
}

static void session_close(session *ss)
{
	codec_free(ss->c);
	spec_model_free(ss->m);
	*ss = (session){0};
}

static void print_value_json(FILE *f, const codec_value *v)
{
	fputs("{\"name\":", f);
	json_string(f, v->field ? v->field->name : "");
	fprintf(f, ",\"kind\":\"%s\",\"depth\":%u,\"raw\":%llu,\"value\":%lld",
	        v->field && v->field->kind == SPEC_DERIVED ? "derived" : "field", v->depth,
	        (unsigned long long)v->raw, (long long)v->value);
	if (v->field && v->field->type_name) {
		fputs(",\"type\":", f);
		json_string(f, v->field->type_name);
	}
	if (v->field && v->field->kind == SPEC_FIELD)
		fprintf(f, ",\"low\":%u,\"high\":%u", v->field->low, v->field->high);
	if (v->field && v->field->type == SPEC_TYPE_ENUM && v->field->enm) {
		const spec_enum_value *ev = spec_enum_lookup(v->field->enm, v->value);
		fputs(",\"display\":", f);
		if (ev)
			json_string(f, ev->display);
		else
			fputs("null", f);
	}
	if (v->sub) {
		fputs(",\"leaf\":", f);
		json_string(f, v->sub->name);
	}
	fputc('}', f);
}

static const char *issue_kind_name(codec_issue_kind k)
{
	static const char *const names[] = {
		"no-match", "ambiguous", "dontcare-set", "assert-mismatch", "no-field",
		"expr-error", "no-display", "enum-missing", "text-too-long",
	};
	return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* --no-match=STYLE's value: which Mesa tool's text (disasm prints it,
 * asm reads it); false for a name it is not. */
static bool parse_no_match(const char *s, codec_no_match_style *out)
{
	static const char *const names[] = {[CODEC_NO_MATCH_MESA] = "mesa",
	                                    [CODEC_NO_MATCH_IR3] = "ir3",
	                                    [CODEC_NO_MATCH_AFUC] = "afuc"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(s, names[i])) {
			*out = (codec_no_match_style)i;
			return true;
		}
	return false;
}

int cmd_codec(int argc, char **argv, bool json_decode)
{
	const char *cmd = json_decode ? "decode" : "disasm";
	const char *what = json_decode
		? "decode each instruction into its leaf, field values and issues"
		: "print each instruction as Mesa's disassembler does";
	const char *extra = json_decode
		? "  --format=json|text format (default json)\n"
		: "  --no-errors        leave out the \"\\t; error\" suffixes\n"
		  "  --labels           branch labels over the whole program\n"
		  "  --no-match=mesa|ir3|afuc  print as which Mesa tool does (default mesa):\n"
		  "                     mesa: isa_disasm's \"no match: <hex>\" (ir3-disasm, etnaviv);\n"
		  "                     ir3: \"raw 0x...\" (ir3's unit test); afuc: as afuc-disasm,\n"
		  "                     \"[%08x]\", its register fields as 0x%03x and its\n"
		  "                     pipe-register comments (no register database)\n";
	const char *spec_path = NULL, *file = NULL, *root_name = NULL;
	const char *program = NULL; /* --program: "" for the spec's only one */
	bool have_gen = false, hex_mode = false, json = json_decode, no_cache = false;
	size_t max_bytes = 0;
	unsigned long gen = 0;
	codec_disasm_options opt = {.show_errors = true, .no_match = CODEC_NO_MATCH_MESA};
	char **hex = calloc((size_t)argc + 1, sizeof *hex);
	size_t nhex = 0;
	int rc = EXIT_UNUSABLE;
	if (!hex)
		return EXIT_UNUSABLE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (hex_mode && a[0] != '-') {
			hex[nhex++] = argv[i];
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf(codec_usage, cmd, what, extra);
			free(hex);
			return EXIT_CLEAN;
		} else if (!strcmp(a, "--hex")) {
			hex_mode = true;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = true;
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			ok = spec_parse_size(a + 16, &max_bytes);
		} else if (!strcmp(a, "--program") || !strncmp(a, "--program=", 10)) {
			program = a[9] ? a + 10 : "";
		} else if (!strncmp(a, "--gen=", 6)) {
			ok = parse_ulong_arg(a + 6, UINT32_MAX, &gen);
			have_gen = true;
		} else if (!strncmp(a, "--root=", 7) && a[7]) {
			root_name = a + 7;
		} else if (json_decode && !strcmp(a, "--format=json")) {
			json = true;
		} else if (json_decode && !strcmp(a, "--format=text")) {
			json = false;
		} else if (!json_decode && !strcmp(a, "--no-errors")) {
			opt.show_errors = false;
		} else if (!json_decode && !strcmp(a, "--labels")) {
			opt.branch_labels = true;
		} else if (!json_decode && !strncmp(a, "--no-match=", 11)) {
			ok = parse_no_match(a + 11, &opt.no_match);
		} else if (a[0] == '-' && a[1]) {
			ok = false;
		} else if (!spec_path) {
			spec_path = a;
		} else if (!file) {
			file = a;
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "isacheck %s: bad argument '%s'\n", cmd, a);
			fprintf(stderr, codec_usage, cmd, what, extra);
			free(hex);
			return EXIT_UNUSABLE;
		}
	}
	if (!spec_path || (!file) == !hex_mode || (hex_mode && !nhex)) {
		fprintf(stderr, "isacheck %s: give SPEC, then a FILE or --hex WORD...\n", cmd);
		fprintf(stderr, codec_usage, cmd, what, extra);
		free(hex);
		return EXIT_UNUSABLE;
	}

	spec_diags diags = {0};
	session ss = {0};
	word_buf ws = {0};
	char err[512];
	if (!session_open(&ss, cmd, spec_path, root_name, have_gen, gen, false, no_cache, max_bytes,
	                  &diags))
		goto out;
	const spec_root *root = ss.root;
	opt.gen = (uint32_t)gen;
	unsigned iw = (root->bitset->size + 31) / 32;
	bool ok = true;
	if (hex_mode) {
		for (size_t i = 0; i < nhex && ok; i++)
			ok = parse_hex_arg(hex[i], iw, &ws, err, sizeof err);
	} else {
		ok = read_binary(file, &ws, err, sizeof err);
	}
	if (ok) {
		/* the compiled codec for many instructions; for a few, a general
		 * one, and for a few whole instructions of one root, only their
		 * leaves (codec_new_for_words) */
		size_t ninstr = ws.n / iw;
		codec *built = ninstr > SESSION_GENERAL_MAX ? codec_new(ss.m, &diags)
		               : program || ws.n % iw ? codec_new_general(ss.m, &diags)
		               : codec_new_for_words(ss.m, root, ws.w, iw, ninstr, opt.gen, &diags);
		if (!session_set_codec(&ss, built, cmd, spec_path, &diags))
			goto out;
	}
	codec *c = ss.c;
	if (ok && program) {
		if (refuse_bad_program(cmd, &diags)) {
			rc = EXIT_UNUSABLE;
			goto out;
		}
		rc = program_command(c, program, file ? file : "--hex", ws.w, ws.n, json_decode, json,
		                     &opt);
		goto out;
	}
	if (ok && ws.n % iw) {
		snprintf(err, sizeof err, "%zu words are not a whole number of %u-word instructions "
		         "(%zu words left over)", ws.n, iw, ws.n % iw);
		ok = false;
	}
	if (!ok) {
		fprintf(stderr, "isacheck %s: %s\n", cmd, err);
		goto out;
	}
	size_t ninstr = ws.n / iw, clean = 0;
	if (!json_decode) {
		if (root == codec_default_root(c)) {
			clean = codec_disasm(c, ws.w, ninstr, &opt, stdout);
		} else if (opt.branch_labels) {
			fprintf(stderr, "isacheck disasm: --labels needs the default root (%s): "
			        "branch targets count instructions of it\n",
			        codec_default_root(c)->bitset->name);
			goto out;
		} else {
			clean = disasm_other_root(c, root, ws.w, ninstr, iw, &opt);
		}
	} else {
		codec_value values[256];
		codec_issue issues[16];
		if (json)
			fputs("[", stdout);
		for (size_t n = 0; n < ninstr; n++) {
			uint64_t w64[SPEC_MAX_BITS / 64];
			instr_w64(ws.w + n * iw, iw, w64);
			codec_decoded d = {.values = values, .cap_values = 256, .issues = issues,
			                   .cap_issues = 16};
			codec_decode(c, root, w64, opt.gen, &d);
			clean += d.leaf && !d.nissues;
			char hexs[SPEC_MAX_BITS / 4 + 64];
			size_t o = 0;
			for (unsigned k = iw; k-- > 0;)
				o += (size_t)snprintf(hexs + o, sizeof hexs - o, "%s%08x", o ? "_" : "",
				                      ws.w[n * iw + k]);
			if (json) {
				fprintf(stdout, "%s\n{\"index\":%zu,\"words\":\"%s\",\"leaf\":", n ? "," : "", n,
				        hexs);
				if (d.leaf)
					json_string(stdout, d.leaf->name);
				else
					fputs("null", stdout);
				fputs(",\"fields\":[", stdout);
				for (size_t i = 0; i < d.nvalues; i++) {
					fputs(i ? "," : "", stdout);
					print_value_json(stdout, &d.values[i]);
				}
				fputs("],\"issues\":[", stdout);
				for (size_t i = 0; i < d.nissues; i++) {
					fprintf(stdout, "%s{\"kind\":\"%s\",\"text\":", i ? "," : "",
					        issue_kind_name(d.issues[i].kind));
					json_string(stdout, d.issues[i].text);
					fputc('}', stdout);
				}
				fputs("]}", stdout);
			} else {
				printf("%s %s", hexs, d.leaf ? d.leaf->name : "(no leaf)");
				for (size_t i = 0; i < d.nvalues; i++)
					printf(" %*s%s=%lld", (int)(2 * d.values[i].depth), "",
					       d.values[i].field ? d.values[i].field->name : "?",
					       (long long)d.values[i].value);
				for (size_t i = 0; i < d.nissues; i++)
					printf("  ; %s", d.issues[i].text);
				putchar('\n');
			}
		}
		if (json)
			fputs("\n]\n", stdout);
	}
	rc = clean == ninstr ? EXIT_CLEAN : EXIT_FINDINGS;
out:
	free(ws.w);
	session_close(&ss);
	spec_diags_free(&diags);
	free(hex);
	return rc;
}

static const char asm_usage[] =
	"usage: isacheck asm SPEC [--gen=N] [--format=hex|bin] [--output=FILE] [--no-cache]\n"
	"                    [--max-spec-size=SIZE] [--no-match=mesa|ir3|afuc] (FILE | -)\n"
	"  assemble text, one instruction a line, as `isacheck disasm` prints it, by parsing\n"
	"  against SPEC's display templates; each result is checked by disassembling it again\n"
	"  empty lines and lines starting with ';' are skipped; a \"\\t; ...\" error\n"
	"  suffix is ignored\n"
	"  --no-match=mesa|ir3|afuc  read text as that Mesa tool prints it (as disasm's\n"
	"                option; default mesa): afuc reads afuc-disasm's register fields\n"
	"                (0x%%03x); in Mesa's text a custom field prints nothing, so it is 0;\n"
	"                --exact proves in the same text (prove --printer)\n"
	"  --format=hex  one instruction a line, 32-bit words low first, as the vectors (default)\n"
	"  --format=bin  raw little-endian words\n"
	"  --no-cache    parse SPEC's files, bypassing the cache of parsed files (docs/cache.md)\n"
	"  --max-spec-size=SIZE  read up to SIZE bytes of SPEC's XML (default 64M, at most 1G)\n"
	"  --exact       also say, line by line, whether the text determines the word it was\n"
	"                assembled to: exact where Z3 proves that the text of the line's\n"
	"                leaf gives every word back (the display proof of prove --semantic,\n"
	"                run once, needs Z3); a warning where a one-bit change of the word\n"
	"                prints the same text (the bits the text does not show are the\n"
	"                assembler's choice); else a note that it is unknown; then a count\n"
	"  a line that does not assemble is reported and nothing is written past it (every\n"
	"  later line is still checked): instructions never shift into its slot; an\n"
	"  --output file is then not written at all\n"
	"exit: 0 every line assembled (with --exact: and exact), 1 some did not (file:line:\n"
	"  error: ...) or, with --exact, some text does not determine its word, 2 unusable\n"
	"  input (with --exact: no Z3), 3 with --exact, every line assembled but some\n"
	"  verdict is unknown\n";

/* asm --exact: the display proof's verdict for every leaf, and the
 * lines counted by what could be said of them. */
typedef struct asm_exact {
	unsigned char *verdict; /* per bitset index (PROVE_DISPLAY_*); NULL: off */
	spec_diags proof;       /* the display proof's findings */
	prove_text_ops ops;
	prove_options opt;
	size_t exact, exact_word, lossy, unknown;
	codec_no_match_style style; /* the lines' text */
} asm_exact;

/* Runs the display proof of SPEC's leaves (once, before the lines). */
static bool asm_exact_start(asm_exact *x, const spec_model *m, const codec *c,
                            codec_no_match_style style)
{
	char why[512];
	if (!prove_z3_available(why, sizeof why)) {
		fprintf(stderr, "isacheck asm: %s; --exact needs it\n", why);
		return false;
	}
	semantic_stats st = {.display_verdict = calloc(m->nbitsets ? m->nbitsets : 1, 1)};
	x->opt = prove_default_options();
	x->opt.jobs = default_jobs(64);
	/* the proofs model the text the lines are in */
	x->style = style;
	x->opt.printer = style == CODEC_NO_MATCH_AFUC ? PROVE_PRINTER_AFUC : PROVE_PRINTER_MESA;
	if (!st.display_verdict || !prove_with_codec(m, c, &x->opt, &x->proof, &st, true)) {
		free(st.display_verdict);
		fprintf(stderr, "isacheck asm: --exact: the display proof could not run\n");
		return false;
	}
	x->verdict = st.display_verdict;
	x->ops = prove_codec_ops(c);
	x->opt.text = &x->ops;
	return true;
}

/* What --exact says of line lineno, assembled to w (one leaf, checked):
 * the leaf's proof, else a one-bit change that prints the same, else the
 * display proof asked of this word alone. */
static void asm_exact_line(asm_exact *x, const codec *c, const spec_model *m,
                           const spec_root *root, const uint64_t *w, uint32_t gen,
                           const char *file, size_t lineno)
{
	codec_decoded d = {0};
	codec_decode(c, root, w, gen, &d);
	const spec_bitset *leaf = d.leaf;
	unsigned v = leaf && leaf->index < m->nbitsets ? x->verdict[leaf->index]
	                                               : PROVE_DISPLAY_NOT_ASKED;
	if (v == PROVE_DISPLAY_PROVED) {
		x->exact++;
		return;
	}
	char why[512];
	if (!codec_word_invertible_as(c, w, gen, x->style, why, sizeof why)) {
		x->lossy++;
		fprintf(stderr, "%s:%zu: warning: the text does not determine the word: %s; the "
		                "assembler wrote the bits the text does not show as it chose\n",
		        file, lineno, why);
		return;
	}
	x->ops.ctx = (void *)c; /* the codec in use (asm switches to the compiled one) */
	/* the word's text in the lines' style, which the proof holds the
	 * other words to (afuc-disasm's comment left out: asm does not read
	 * it, and text equal without it is equal with it) */
	char text[4096];
	codec_disasm_options o = {.gen = gen, .no_match = x->style};
	size_t tl;
	if (root == codec_default_root(c)) {
		uint32_t u[SPEC_MAX_BITS / 32];
		for (unsigned i = 0; i < (root->bitset->size + 31) / 32; i++)
			u[i] = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
		tl = codec_disasm_one(c, u, &o, text, sizeof text);
	} else {
		tl = codec_disasm_root(c, root, w, &o, text, sizeof text);
	}
	char *comment = x->style == CODEC_NO_MATCH_AFUC ? strstr(text, "\t; ") : NULL;
	if (comment)
		*comment = '\0';
	spec_diags one = {0};
	int wv = prove_display_word(m, &x->opt, root, w, gen, tl < sizeof text ? text : NULL, &one);
	const char *said = one.count ? one.items[0].message : "no verdict";
	if (wv == PROVE_DISPLAY_PROVED) {
		x->exact++;
		x->exact_word++;
	} else if (wv == PROVE_DISPLAY_SAME_TEXT) {
		x->lossy++;
		fprintf(stderr, "%s:%zu: warning: the text does not determine the word: %s\n", file,
		        lineno, said);
	} else {
		x->unknown++;
		fprintf(stderr, "%s:%zu: note: whether the text determines the word is unknown: no "
		                "one-bit change prints it, and Z3 asked of this word: %s\n",
		        file, lineno, said);
	}
	spec_diags_free(&one);
}

int cmd_asm(int argc, char **argv)
{
	const char *spec_path = NULL, *file = NULL, *output = NULL;
	bool have_gen = false, binary = false, no_cache = false, want_exact = false;
	codec_no_match_style style = CODEC_NO_MATCH_MESA;
	asm_exact ex = {0};
	size_t max_bytes = 0;
	unsigned long gen = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(asm_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strncmp(a, "--gen=", 6)) {
			ok = parse_ulong_arg(a + 6, UINT32_MAX, &gen);
			have_gen = true;
		} else if (!strcmp(a, "--format=hex")) {
			binary = false;
		} else if (!strcmp(a, "--format=bin")) {
			binary = true;
		} else if (!strncmp(a, "--output=", 9) && a[9]) {
			output = a + 9;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = true;
		} else if (!strcmp(a, "--exact")) {
			want_exact = true;
		} else if (!strncmp(a, "--no-match=", 11)) {
			ok = parse_no_match(a + 11, &style);
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			ok = spec_parse_size(a + 16, &max_bytes);
		} else if (a[0] == '-' && a[1]) {
			ok = false;
		} else if (!spec_path) {
			spec_path = a;
		} else if (!file) {
			file = a;
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "isacheck asm: bad argument '%s'\n%s", a, asm_usage);
			return EXIT_UNUSABLE;
		}
	}
	if (!spec_path || !file) {
		fprintf(stderr, "isacheck asm: give SPEC and a FILE (or -)\n%s", asm_usage);
		return EXIT_UNUSABLE;
	}
	FILE *in = input_open("asm", file, "r");
	if (!in)
		return EXIT_UNUSABLE;
	spec_diags diags = {0};
	session ss = {0};
	int rc = EXIT_UNUSABLE;
	size_t failed = 0; /* lines that did not assemble */
	const char *inputs[2] = {spec_path, file};
	output_file o = {0};
	if (!output_open(&o, "asm", output, binary, inputs, 2)) {
		if (in != stdin)
			fclose(in);
		return EXIT_UNUSABLE;
	}
	if (!session_open(&ss, "asm", spec_path, NULL, have_gen, gen, true, no_cache, max_bytes,
	                  &diags))
		goto done;
	if (want_exact && !asm_exact_start(&ex, ss.m, ss.c, style))
		goto done;
	FILE *out = o.f;
	unsigned iw = (ss.root->bitset->size + 31) / 32;
	size_t lineno = 0, assembled = 0;
	bool compiled = true;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	/* Past the first line that does not assemble nothing is written (every
	 * line is still checked): the instructions after it would otherwise
	 * sit one slot early, and a binary has no way to show the gap. */
	while ((got = getline(&line, &cap, in)) >= 0) {
		lineno++;
		size_t n = (size_t)got;
		if (n > 4096) {
			fprintf(stderr, "%s:%zu: error: line longer than 4096 bytes\n", file, lineno);
			failed++;
			continue;
		}
		if (memchr(line, '\0', n)) {
			fprintf(stderr, "%s:%zu: error: a NUL byte in the line\n", file, lineno);
			failed++;
			continue;
		}
		char *semi = strstr(line, "\t; "); /* the disassembler's error suffix */
		if (semi)
			*semi = 0;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n' || *p == ';') /* not '#': names may start with it */
			continue;
		/* the first lines with the general codec, then the compiled one */
		if (++assembled == ASM_GENERAL_LINES + 1 &&
		    !(compiled = session_set_codec(&ss, codec_new(ss.m, &diags), "asm", spec_path, &diags)))
			break;
		uint64_t w[SPEC_MAX_BITS / 64] = {0};
		char err[256];
		size_t found = codec_assemble_as(ss.c, line, (uint32_t)gen, style, w, err, sizeof err);
		if (found != 1) {
			fprintf(stderr, "%s:%zu: error: %s\n", file, lineno, err);
			failed++;
			if (!found)
				continue;
		}
		if (ex.verdict && found == 1)
			asm_exact_line(&ex, ss.c, ss.m, ss.root, w, (uint32_t)gen, file, lineno);
		if (failed)
			continue;
		for (unsigned k = 0; k < iw; k++) {
			uint32_t word = (uint32_t)(w[k / 2] >> (32 * (k % 2)));
			if (binary) {
				unsigned char b[4] = {(unsigned char)word, (unsigned char)(word >> 8),
				                      (unsigned char)(word >> 16), (unsigned char)(word >> 24)};
				fwrite(b, 1, 4, out);
			} else {
				fprintf(out, "%s%08x", k ? " " : "", word);
			}
		}
		if (!binary)
			fputc('\n', out);
	}
	free(line);
	if (!compiled) /* session_set_codec said why */
		goto done;
	if (ferror(in)) {
		fprintf(stderr, "isacheck asm: error reading '%s': %s\n", file, strerror(errno));
		goto done;
	}
	rc = failed ? EXIT_FINDINGS : EXIT_CLEAN;
	if (failed && o.path)
		fprintf(stderr, "isacheck asm: %zu line%s did not assemble: '%s' not written\n", failed,
		        failed == 1 ? "" : "s", o.path);
	if (ex.verdict) {
		fprintf(stderr, "isacheck asm: --exact: %zu line%s assembled: %zu exact (Z3 proves "
		                "that no other word prints the line: for %zu by its leaf's proof, "
		                "for %zu by one of its own), %zu not (another word prints the same "
		                "text), %zu unknown\n",
		        ex.exact + ex.lossy + ex.unknown, ex.exact + ex.lossy + ex.unknown == 1 ? "" : "s",
		        ex.exact, ex.exact - ex.exact_word, ex.exact_word, ex.lossy, ex.unknown);
		if (!failed)
			rc = ex.lossy ? EXIT_FINDINGS : ex.unknown ? EXIT_UNKNOWN : EXIT_CLEAN;
	}
done:
	if (in != stdin)
		fclose(in);
	/* an --output file is complete or absent: what --exact says does not
	 * make the words any less assembled */
	if (rc == EXIT_UNUSABLE || failed)
		output_abort(&o);
	else if (!output_commit(&o))
		rc = EXIT_UNUSABLE;
	free(ex.verdict);
	spec_diags_free(&ex.proof);
	session_close(&ss);
	spec_diags_free(&diags);
	return rc;
}
