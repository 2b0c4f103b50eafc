/*
 * triage_cmd.c - `isacheck triage SPEC INPUT...`: read vendor binaries,
 * hex dumps and vector TSVs, triage every instruction (src/triage), and
 * report what the spec does not explain: a text summary, the full
 * results as JSON, and a self-contained HTML report (triage_html.c).
 *
 * Inputs are read whole (at most MAX_INPUT_BYTES each) and told apart by
 * extension, else by content: bytes that are not text make a binary; a
 * first line with tabs and a "hex..." column makes a TSV; other text is
 * hex, one instruction per line or whole dumps (8-digit words, low word
 * first, across lines), through the same parser as `disasm --hex`.
 * Instructions go to the triage through a triage_queue, which decodes
 * them on -j threads; the report is the same for any number.
 */
#include "cli.h"
#include "codec.h"
#include "triage.h"
#include "triage_report.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INPUT_BYTES (256u << 20)
#define MAX_DIR_DEPTH 16

static const char triage_usage[] =
	"usage: isacheck triage SPEC [options] INPUT...\n"
	"  triage instructions a vendor compiler emitted: which decode, which do not\n"
	"  (no match, ambiguous, don't-care or reserved bits set, assert mismatch, enum\n"
	"  value missing; in whole programs, data the framing marks unexplained),\n"
	"  clustered by situation\n"
	"INPUT: a file or a directory (every file below it, by name); '-' reads standard input\n"
	"  binary  raw little-endian instructions (one shader per file)\n"
	"  hex     text: 8-digit words low word first (whole dumps across lines), or whole\n"
	"          instructions high word first ('c0600000_00e18001'); '#', ';', '//'\n"
	"          start comments, 'ADDR:' tokens are skipped\n"
	"  tsv     a header line naming a hex_words (or hex) column, as ../shared's vectors\n"
	"options:\n"
	"  --gen=N            generation to decode for (required when SPEC has <gen>, unless\n"
	"                     a TSV gives it per row)\n"
	"  --gen-column=NAME  TSV column holding each row's generation: a number, or a family\n"
	"                     as 'a6xx' (default decoder_gpu_id, else gpu_gen)\n"
	"  --root=NAME        decode against this root (default #instruction, else the widest)\n"
	"  --program[=NAME]   each input (file, or TSV row) is one whole program, cut into\n"
	"                     instructions by SPEC's <program> (the default when SPEC has one)\n"
	"  --no-program       read instructions of one root even when SPEC has a <program>\n"
	"  --input=auto|bin|hex|tsv  how to read the inputs (default auto)\n"
	"  --format=text|json what to print (default text)\n"
	"  --output=FILE      write it to FILE instead of standard output\n"
	"  --json=FILE        also write the full results as JSON\n"
	"  --html=FILE        also write a self-contained HTML report with bit heatmaps\n"
	"  --top=N            clusters shown in the text (default 10) and HTML (default 500);\n"
	"                     0..1000000\n"
	"  --nearest=N        nearest leaves kept per unmatched word (default 3); 1..16\n"
	"  --examples=N       example instructions kept per cluster (default 3); 1..100\n"
	"  -j N, --jobs=N     threads decoding at once (default: the cores online); the\n"
	"                     results are the same for any N\n"
	"  --no-cache         parse SPEC's files, bypassing the cache of parsed files\n"
	"                     (docs/cache.md)\n"
	"  --max-spec-size=SIZE  read up to SIZE bytes of SPEC's XML (K, M, G; default\n"
	"                     64M, at most 1G); element and memory budgets grow with it\n"
	"exit: 0 everything explained, 1 unexplained instructions found, 2 unusable input\n";

typedef enum input_kind { INPUT_AUTO, INPUT_BIN, INPUT_HEX, INPUT_TSV } input_kind;

typedef struct run {
	const char *cmd;
	spec_model *m;
	codec *c;
	const spec_root *root;
	triage *t;
	triage_queue *q;           /* feeds t, on one thread or more (-j) */
	unsigned iw;               /* 32-bit words per instruction */
	bool spec_has_gen, have_gen;
	uint32_t gen;
	const char *gen_column;
	bool gen_column_given;
	input_kind kind;
	const spec_program *prog;  /* frame every input as whole programs */
	size_t frame_errors;
} run;

/* ------------------------------------------------------------- input */

static char *read_whole(const char *path, size_t *len, char *err, size_t errlen)
{
	char why[600];
	FILE *f = input_open_err(path, "rb", why, sizeof why);
	if (!f) {
		snprintf(err, errlen, "%s: error: %s", path, why);
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		if (n == cap) {
			if (cap >= MAX_INPUT_BYTES) {
				snprintf(err, errlen, "%s: error: larger than %u bytes", path, MAX_INPUT_BYTES);
				free(buf);
				buf = NULL;
				break;
			}
			cap *= 2;
			char *p = realloc(buf, cap + 1);
			if (!p) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (!buf && !*err)
		snprintf(err, errlen, "%s: error: out of memory", path);
	if (buf && ferror(f)) {
		snprintf(err, errlen, "%s: error: cannot read: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcasecmp(s + a - b, suffix);
}

/* How to read an input: its extension, else its bytes. */
static input_kind sniff(const char *path, const char *buf, size_t len)
{
	if (ends_with(path, ".tsv"))
		return INPUT_TSV;
	if (ends_with(path, ".hex") || ends_with(path, ".txt"))
		return INPUT_HEX;
	if (ends_with(path, ".bin"))
		return INPUT_BIN;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)buf[i];
		if (ch >= 0x7f || (ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t'))
			return INPUT_BIN;
	}
	if (!len)
		return INPUT_BIN;
	const char *nl = memchr(buf, '\n', len);
	size_t l0 = nl ? (size_t)(nl - buf) : len;
	if (memchr(buf, '\t', l0)) {
		for (const char *p = buf; p < buf + l0; p++)
			if ((p == buf || p[-1] == '\t') && !strncasecmp(p, "hex", 3))
				return INPUT_TSV;
	}
	return INPUT_HEX;
}

static bool add_item(run *r, const uint32_t *words, uint32_t gen, int source, bool is_line,
                     uint64_t pos, char *err, size_t errlen, const char *path)
{
	uint64_t w[SPEC_MAX_BITS / 64] = {0};
	for (unsigned k = 0; k < r->iw; k++)
		w[k / 2] |= (uint64_t)words[k] << (32 * (k % 2));
	triage_origin o = {.source = source, .is_line = is_line, .pos = pos};
	if (!triage_queue_add(r->q, r->root, w, gen, &o)) {
		snprintf(err, errlen, "%s: error: out of memory", path);
		return false;
	}
	return true;
}

static bool check_gen(const run *r, uint32_t gen, const char *where, char *err, size_t errlen)
{
	spec_gen g = r->root->bitset->gen;
	if (gen < g.min || gen > g.max) {
		snprintf(err, errlen, "%s: error: generation %u is outside '%s' (%u..%u)", where, gen,
		         r->root->bitset->name, g.min, g.max);
		return false;
	}
	return true;
}

/* One whole program: walked by the spec's framing, each part triaged as
 * an item of its own root.  Framing errors are findings, one line each
 * on standard error; lines (when given) maps word index to input line. */
static bool triage_program(run *r, const char *path, const uint32_t *w, size_t n, uint32_t gen,
                           int source, const size_t *lines, size_t line0, char *err,
                           size_t errlen)
{
	codec_disasm_options opt = {.gen = gen};
	codec_program *pr = codec_program_walk(r->c, r->prog, w, n, &opt);
	if (!pr) {
		snprintf(err, errlen, "%s: error: out of memory", path);
		return false;
	}
	bool ok = true;
	for (size_t i = 0; ok && i < pr->nitems; i++) {
		const codec_item *it = &pr->items[i];
		/* parts are instructions; data the framing says nobody
		 * understands is reported as such; other data (constants) and
		 * padding are explained by the framing itself */
		bool part = it->kind == CODEC_ITEM_PART && it->root;
		bool unexplained = it->kind == CODEC_ITEM_DATA && it->step && it->step->unexplained;
		if (!part && !unexplained)
			continue;
		size_t word = it->bit / 32;
		triage_origin o = {.source = source, .is_line = lines || line0,
		                   .pos = lines ? lines[word < n ? word : n - 1] : line0 ? line0
		                        : it->bit / 8};
		uint64_t iw[SPEC_MAX_BITS / 64] = {0};
		memcpy(iw, it->w, ((it->bits + 63) / 64) * sizeof *iw);
		if (part ? !triage_queue_add(r->q, it->root, iw, gen, &o)
		         : !triage_queue_add_data(r->q, it->step, iw, it->bits, &o)) {
			snprintf(err, errlen, "%s: error: out of memory", path);
			ok = false;
		}
	}
	for (size_t i = 0; i < pr->nerrors; i++) {
		const codec_frame_error *e = &pr->errors[i];
		/* text input says on which line (the word's, or the last one
		 * when the program ends too soon) */
		size_t word = e->bit / 32;
		size_t line = lines && n ? lines[word < n ? word : n - 1] : line0;
		if (line)
			fprintf(stderr, "%s:%zu: word %zu (bit %zu): framing error: %s [%s]\n", path, line,
			        word, e->bit, e->text, codec_frame_error_name(e->kind));
		else
			fprintf(stderr, "%s: word %zu (bit %zu): framing error: %s [%s]\n", path, word,
			        e->bit, e->text, codec_frame_error_name(e->kind));
	}
	r->frame_errors += pr->nerrors;
	codec_program_free(pr);
	return ok;
}

static bool read_bin(run *r, const char *path, const char *buf, size_t len, int source,
                     char *err, size_t errlen)
{
	size_t ib = r->prog ? 4 : (size_t)r->iw * 4;
	if (len % ib) {
		snprintf(err, errlen, "%s: error: %zu bytes is not a whole number of %zu-byte %s", path,
		         len, ib, r->prog ? "words (a program is cut into 32-bit words)"
		                          : "instructions");
		return false;
	}
	if (!r->have_gen && r->spec_has_gen) {
		snprintf(err, errlen, "%s: error: '%s' describes several generations: give --gen=N",
		         path, r->m->path);
		return false;
	}
	const unsigned char *p = (const unsigned char *)buf;
	if (r->prog) {
		uint32_t *pw = malloc((len / 4 ? len / 4 : 1) * sizeof *pw);
		if (!pw) {
			snprintf(err, errlen, "%s: error: out of memory", path);
			return false;
		}
		for (size_t i = 0; i < len / 4; i++)
			pw[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
			        (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
		bool ok = triage_program(r, path, pw, len / 4, r->gen, source, NULL, 0, err, errlen);
		free(pw);
		return ok;
	}
	uint32_t words[SPEC_MAX_BITS / 32];
	for (size_t off = 0; off < len; off += ib) {
		for (unsigned k = 0; k < r->iw; k++) {
			const unsigned char *b = p + off + 4 * k;
			words[k] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			           (uint32_t)b[3] << 24;
		}
		if (!add_item(r, words, r->gen, source, false, off, err, errlen, path))
			return false;
	}
	return true;
}

/* The next line of buf (NUL-terminated in place); NULL at the end. */
static char *next_line(char **cursor, char *end)
{
	char *p = *cursor;
	if (p >= end)
		return NULL;
	char *nl = memchr(p, '\n', (size_t)(end - p));
	char *e = nl ? nl : end;
	*cursor = nl ? nl + 1 : end;
	*e = 0;
	if (e > p && e[-1] == '\r')
		e[-1] = 0;
	return p;
}

/* One token of hex text into ws: a plain word must be written with 8
 * digits (or 0x...), so that a dump cut short is not read as small
 * numbers; everything else is parse_hex_arg's. */
static bool hex_token(const run *r, const char *tok, word_buf *ws, char *err, size_t errlen)
{
	size_t n = strlen(tok);
	bool prefixed = n > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
	if (!prefixed && !strchr(tok, '_') && n < 8) {
		bool hex = true;
		for (size_t i = 0; i < n; i++)
			hex &= isxdigit((unsigned char)tok[i]) != 0;
		if (hex) {
			snprintf(err, errlen, "'%s' has %zu hex digits: a 32-bit word is written with 8 "
			         "(or as 0x%s)", tok, n, tok);
			return false;
		}
	}
	bool whole = strchr(tok, '_') || n - (prefixed ? 2 : 0) > 8;
	if (whole && ws->n % r->iw) {
		snprintf(err, errlen, "whole instruction '%s' starts after %zu word%s of an unfinished "
		         "one", tok, ws->n % r->iw, ws->n % r->iw == 1 ? "" : "s");
		return false;
	}
	return parse_hex_arg(tok, r->iw, ws, err, errlen);
}

static bool read_hex(run *r, const char *path, char *buf, size_t len, int source, char *err,
                     size_t errlen)
{
	if (!r->have_gen && r->spec_has_gen) {
		snprintf(err, errlen, "%s: error: '%s' describes several generations: give --gen=N",
		         path, r->m->path);
		return false;
	}
	word_buf ws = {0};
	size_t lineno = 0, start_line = 0, *lines = NULL, nlines = 0, cap_lines = 0;
	char *cur = buf, *end = buf + len, *line;
	char msg[384];
	bool ok = true;
	while (ok && (line = next_line(&cur, end))) {
		lineno++;
		for (char *c = line; *c; c++)
			if (*c == '#' || *c == ';' || (c[0] == '/' && c[1] == '/')) {
				*c = 0;
				break;
			}
		char *save = NULL;
		for (char *tok = strtok_r(line, " \t,", &save); ok && tok;
		     tok = strtok_r(NULL, " \t,", &save)) {
			size_t tl = strlen(tok);
			if (tl && tok[tl - 1] == ':') /* an address column */
				continue;
			if (ws.n % r->iw == 0)
				start_line = lineno;
			if (!hex_token(r, tok, &ws, msg, sizeof msg)) {
				snprintf(err, errlen, "%s:%zu: error: %s", path, lineno, msg);
				ok = false;
			}
			/* programs are walked whole; remember each word's line */
			while (ok && r->prog && nlines < ws.n) {
				if (nlines == cap_lines) {
					size_t cap = cap_lines ? cap_lines * 2 : 256;
					size_t *pl = realloc(lines, cap * sizeof *pl);
					if (!pl) {
						snprintf(err, errlen, "%s: error: out of memory", path);
						ok = false;
						break;
					}
					lines = pl;
					cap_lines = cap;
				}
				lines[nlines++] = lineno;
			}
			/* instructions go to the triage as soon as they are whole */
			while (ok && !r->prog && ws.n >= r->iw) {
				ok = add_item(r, ws.w, r->gen, source, true, start_line, err, errlen, path);
				memmove(ws.w, ws.w + r->iw, (ws.n - r->iw) * sizeof *ws.w);
				ws.n -= r->iw;
				start_line = lineno;
			}
		}
	}
	if (ok && r->prog)
		ok = triage_program(r, path, ws.w, ws.n, r->gen, source, lines, 0, err, errlen);
	else if (ok && ws.n) {
		snprintf(err, errlen, "%s:%zu: error: the last instruction is cut short: %zu of its %u "
		         "32-bit words", path, start_line, ws.n, r->iw);
		ok = false;
	}
	free(lines);
	free(ws.w);
	return ok;
}

/* A row's generation: a number, or a GPU family as the vectors name it
 * ("a6xx"): 6 when the root's range holds 6 (afuc), else 600 (ir3). */
static bool row_gen(const run *r, const char *s, unsigned long *g)
{
	if (isdigit((unsigned char)*s))
		return parse_ulong_arg(s, UINT32_MAX, g);
	if ((s[0] != 'a' && s[0] != 'A') || !isdigit((unsigned char)s[1]) || strcmp(s + 2, "xx"))
		return false;
	spec_gen rg = r->root->bitset->gen;
	*g = (unsigned long)(s[1] - '0');
	if (*g < rg.min || *g > rg.max)
		*g *= 100;
	return true;
}

static bool read_tsv(run *r, const char *path, char *buf, size_t len, int source, char *err,
                     size_t errlen)
{
	char *cur = buf, *end = buf + len;
	char *header = next_line(&cur, end);
	int hex_col = -1, gen_col = -1, any_hex = -1, col = 0;
	for (char *p = header, *tab; p; p = tab ? tab + 1 : NULL, col++) {
		tab = strchr(p, '\t');
		if (tab)
			*tab = 0;
		if (!strcmp(p, "hex_words") || !strcmp(p, "hex"))
			hex_col = hex_col < 0 ? col : hex_col;
		else if (!strncasecmp(p, "hex", 3) && any_hex < 0)
			any_hex = col;
		if (!strcmp(p, r->gen_column) || (!r->gen_column_given && gen_col < 0 &&
		                                   !strcmp(p, "gpu_gen")))
			gen_col = col;
	}
	if (hex_col < 0)
		hex_col = any_hex;
	if (hex_col < 0) {
		snprintf(err, errlen, "%s:1: error: no hex column in the header (hex_words or hex)",
		         path);
		return false;
	}
	word_buf ws = {0};
	size_t lineno = 1;
	char *line, msg[384];
	bool ok = true;
	while (ok && (line = next_line(&cur, end))) {
		lineno++;
		if (!*line)
			continue;
		char *cols[64];
		int nc = 0;
		for (char *p = line, *tab; p && nc < 64; p = tab ? tab + 1 : NULL) {
			tab = strchr(p, '\t');
			if (tab)
				*tab = 0;
			cols[nc++] = p;
		}
		if (hex_col >= nc) {
			snprintf(err, errlen, "%s:%zu: error: %d columns; the hex column is number %d",
			         path, lineno, nc, hex_col + 1);
			ok = false;
			break;
		}
		uint32_t gen = r->gen;
		if (!r->have_gen && r->spec_has_gen) {
			unsigned long g = 0;
			if (gen_col < 0 || gen_col >= nc || !row_gen(r, cols[gen_col], &g)) {
				snprintf(err, errlen, "%s:%zu: error: no generation: '%s' describes several; "
				         "give --gen=N or a %s column", path, lineno, r->m->path, r->gen_column);
				ok = false;
				break;
			}
			gen = (uint32_t)g;
			char where[512];
			snprintf(where, sizeof where, "%.480s:%zu", path, lineno);
			if (!check_gen(r, gen, where, err, errlen)) {
				ok = false;
				break;
			}
		}
		ws.n = 0;
		char *save = NULL;
		for (char *tok = strtok_r(cols[hex_col], " ,", &save); ok && tok;
		     tok = strtok_r(NULL, " ,", &save)) {
			if (!hex_token(r, tok, &ws, msg, sizeof msg)) {
				snprintf(err, errlen, "%s:%zu: error: %s", path, lineno, msg);
				ok = false;
			}
		}
		if (!ok)
			break;
		if (r->prog && ws.n) {
			ok = triage_program(r, path, ws.w, ws.n, gen, source, NULL, lineno, err, errlen);
			continue;
		}
		if (!ws.n || ws.n % r->iw) {
			snprintf(err, errlen, "%s:%zu: error: %zu words are not a whole number of %u-word "
			         "instructions", path, lineno, ws.n, r->iw);
			ok = false;
			break;
		}
		for (size_t i = 0; ok && i < ws.n; i += r->iw)
			ok = add_item(r, ws.w + i, gen, source, true, lineno, err, errlen, path);
	}
	free(ws.w);
	return ok;
}

static bool triage_file(run *r, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	err[0] = 0;
	char *buf = read_whole(path, &len, err, errlen);
	if (!buf)
		return false;
	int source = triage_add_source(r->t, path);
	bool ok = source >= 0;
	if (!ok)
		snprintf(err, errlen, "%s: error: out of memory", path);
	input_kind k = r->kind == INPUT_AUTO ? sniff(path, buf, len) : r->kind;
	if (ok && k == INPUT_BIN)
		ok = read_bin(r, path, buf, len, source, err, errlen);
	else if (ok && k == INPUT_HEX)
		ok = read_hex(r, path, buf, len, source, err, errlen);
	else if (ok)
		ok = read_tsv(r, path, buf, len, source, err, errlen);
	free(buf);
	return ok;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every regular file below dir, in name order, dot files left out. */
static bool triage_dir(run *r, const char *dir, int depth, char *err, size_t errlen)
{
	if (depth > MAX_DIR_DEPTH) {
		snprintf(err, errlen, "%s: error: directories nested deeper than %d", dir, MAX_DIR_DEPTH);
		return false;
	}
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: error: cannot read: %s", dir, strerror(errno));
		return false;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	for (struct dirent *de; ok && (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **p = realloc(names, cap * sizeof *p);
			if (!p) {
				ok = false;
				break;
			}
			names = p;
		}
		size_t l = strlen(dir) + strlen(de->d_name) + 2;
		names[n] = malloc(l);
		if (!names[n]) {
			ok = false;
			break;
		}
		snprintf(names[n], l, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		n++;
	}
	closedir(d);
	if (!ok)
		snprintf(err, errlen, "%s: error: out of memory", dir);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; ok && i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			ok = triage_dir(r, names[i], depth + 1, err, errlen);
		else if (S_ISREG(st.st_mode))
			ok = triage_file(r, names[i], err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

static bool triage_input(run *r, const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return triage_dir(r, path, 0, err, errlen);
	return triage_file(r, path, err, errlen);
}

/* ------------------------------------------------------------ command */

static bool write_to(const char *path, const triage_report *rep,
                     void (*fn)(FILE *, const triage_report *), const char *const *inputs,
                     size_t ninputs)
{
	output_file o;
	if (!output_open(&o, "triage", path, false, inputs, ninputs))
		return false;
	fn(o.f, rep);
	return output_commit(&o);
}

int cmd_triage(int argc, char **argv)
{
	const char *spec_path = NULL, *root_name = NULL, *output = NULL, *json_path = NULL,
	           *html_path = NULL;
	unsigned long gen = 0, top = 0, nearest = 0, examples = 0;
	bool json = false, have_top = false, no_program = false, no_cache = false;
	size_t max_bytes = 0;
	unsigned jobs = default_jobs(TRIAGE_MAX_JOBS);
	const char *program = NULL; /* --program: "" for the spec's only one */
	run r = {.cmd = "triage", .gen_column = "decoder_gpu_id"};
	const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
	size_t ninputs = 0;
	if (!inputs)
		return EXIT_UNUSABLE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(triage_usage, stdout);
			free(inputs);
			return EXIT_CLEAN;
		} else if (!strncmp(a, "--gen=", 6)) {
			ok = parse_ulong_arg(a + 6, UINT32_MAX, &gen);
			r.have_gen = true;
		} else if (!strncmp(a, "--gen-column=", 13) && a[13]) {
			r.gen_column = a + 13;
			r.gen_column_given = true;
		} else if (!strncmp(a, "--root=", 7) && a[7]) {
			root_name = a + 7;
		} else if (!strcmp(a, "--program") || !strncmp(a, "--program=", 10)) {
			program = a[9] ? a + 10 : "";
		} else if (!strcmp(a, "--no-program")) {
			no_program = true;
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = true;
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			ok = spec_parse_size(a + 16, &max_bytes);
		} else if (!strcmp(a, "--format=text")) {
			json = false;
		} else if (!strcmp(a, "--format=json")) {
			json = true;
		} else if (!strncmp(a, "--output=", 9) && a[9]) {
			output = a + 9;
		} else if (!strncmp(a, "--json=", 7) && a[7]) {
			json_path = a + 7;
		} else if (!strncmp(a, "--html=", 7) && a[7]) {
			html_path = a + 7;
		} else if (!strncmp(a, "--top=", 6)) {
			ok = parse_ulong_arg(a + 6, 1000000, &top);
			have_top = true;
		} else if (!strncmp(a, "--nearest=", 10)) {
			ok = parse_ulong_arg(a + 10, 16, &nearest) && nearest > 0;
		} else if (!strncmp(a, "--examples=", 11)) {
			ok = parse_ulong_arg(a + 11, 100, &examples) && examples > 0;
		} else if (!strncmp(a, "--input=", 8)) {
			const char *k = a + 8;
			r.kind = !strcmp(k, "auto") ? INPUT_AUTO : !strcmp(k, "bin") ? INPUT_BIN
			         : !strcmp(k, "hex") ? INPUT_HEX : !strcmp(k, "tsv") ? INPUT_TSV
			         : (input_kind)-1;
			ok = (int)r.kind >= 0;
		} else if (!strncmp(a, "--jobs=", 7) || !strncmp(a, "-j", 2)) {
			const char *bad = parse_jobs_arg(argc, argv, &i, TRIAGE_MAX_JOBS, &jobs);
			if (bad) {
				if (*bad)
					fprintf(stderr, "isacheck triage: bad number of jobs '%s': give 1..%u "
					        "(-j N, -jN or --jobs=N)\n", bad, TRIAGE_MAX_JOBS);
				else
					fprintf(stderr, "isacheck triage: '%s' needs a number of jobs, 1..%u\n",
					        a, TRIAGE_MAX_JOBS);
				free(inputs);
				return EXIT_UNUSABLE;
			}
		} else if (a[0] == '-' && a[1]) {
			ok = false;
		} else if (!spec_path) {
			spec_path = a;
		} else {
			inputs[ninputs++] = a;
		}
		if (!ok) {
			fprintf(stderr, "isacheck triage: bad argument '%s'\n%s", a, triage_usage);
			free(inputs);
			return EXIT_UNUSABLE;
		}
	}
	if (!spec_path || !ninputs) {
		fprintf(stderr, "isacheck triage: give SPEC and at least one INPUT\n%s", triage_usage);
		free(inputs);
		return EXIT_UNUSABLE;
	}
	r.gen = (uint32_t)gen;

	int rc = EXIT_UNUSABLE;
	spec_diags diags = {0};
	/* no report may overwrite what it reads: the spec or an input */
	inputs[ninputs] = spec_path;
	output_file o;
	if (!output_open(&o, "triage", output, false, inputs, ninputs + 1)) {
		free(inputs);
		return EXIT_UNUSABLE;
	}
	FILE *out = o.f;
	char cache[4096];
	spec_load_options lo = {.cache_dir = cache_dir_for(no_cache, cache, sizeof cache),
	                        .max_bytes = max_bytes};
	r.m = spec_load_with(spec_path, &lo, &diags);
	if (!r.m) {
		spec_diags_sort(&diags);
		print_fatal_diags(stderr, &diags);
		goto done;
	}
	r.c = codec_new(r.m, &diags);
	if (!r.c) {
		print_fatal_diags(stderr, &diags); /* codec_new says why */
		fprintf(stderr, "isacheck triage: cannot build a codec for '%s'\n", spec_path);
		goto done;
	}
	r.root = root_name ? spec_find_root(r.m, root_name) : codec_default_root(r.c);
	if (!r.root) {
		fprintf(stderr, "isacheck triage: '%s' has no root '%s'\n", spec_path,
		        root_name ? root_name : "#instruction");
		goto done;
	}
	for (size_t i = 0; i < r.m->nbitsets; i++)
		r.spec_has_gen |= r.m->bitsets[i]->has_gen;
	/* whole programs when asked, or by default when the spec frames them */
	if (program || (!no_program && !root_name && spec_program_count(r.m))) {
		r.prog = spec_find_program(r.m, program && *program ? program : NULL);
		if (r.prog && refuse_bad_program("triage", &diags))
			goto done;
		if (!r.prog) {
			if (program && *program)
				fprintf(stderr, "isacheck triage: '%s' has no <program name=\"%s\">\n",
				        spec_path, program);
			else if (!spec_program_count(r.m))
				fprintf(stderr, "isacheck triage: '%s' has no <program>: it cannot frame "
				        "whole programs\n", spec_path);
			else
				fprintf(stderr, "isacheck triage: '%s' has %zu programs: name one with "
				        "--program=NAME\n", spec_path, spec_program_count(r.m));
			goto done;
		}
	}
	char err[1024];
	if (r.have_gen && !check_gen(&r, r.gen, "isacheck triage", err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		goto done;
	}
	r.iw = (r.root->bitset->size + 31) / 32;
	triage_options topt = {.nearest_max = (unsigned)nearest, .examples = (unsigned)examples};
	r.t = triage_new(r.c, &topt);
	r.q = r.t ? triage_queue_new(r.t, jobs) : NULL;
	if (!r.q) {
		fprintf(stderr, "isacheck triage: out of memory\n");
		goto done;
	}
	for (size_t i = 0; i < ninputs; i++)
		if (!triage_input(&r, inputs[i], err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			goto done;
		}
	if (!triage_queue_flush(r.q)) {
		fprintf(stderr, "isacheck triage: out of memory\n");
		goto done;
	}
	triage_finish(r.t);

	triage_report rep = {
		.t = r.t, .spec_path = spec_path, .root = r.root,
		.gen = r.have_gen ? (int64_t)r.gen : -1,
		.top_text = have_top ? (size_t)top : 10, .top_html = have_top ? (size_t)top : 500,
		.program = r.prog ? r.prog->name : NULL, .frame_errors = r.frame_errors,
	};
	if (json)
		triage_write_json(out, &rep);
	else
		triage_write_text(out, &rep);
	if (json_path && !write_to(json_path, &rep, triage_write_json, inputs, ninputs + 1))
		goto done;
	if (html_path && !write_to(html_path, &rep, triage_write_html, inputs, ninputs + 1))
		goto done;
	rc = triage_get_summary(r.t).unexplained || r.frame_errors ? EXIT_FINDINGS : EXIT_CLEAN;
done:
	if (rc == EXIT_UNUSABLE)
		output_abort(&o); /* no half report over an old one */
	else if (!output_commit(&o))
		rc = EXIT_UNUSABLE;
	triage_queue_free(r.q);
	triage_free(r.t);
	codec_free(r.c);
	spec_model_free(r.m);
	spec_diags_free(&diags);
	free(inputs);
	return rc;
}
