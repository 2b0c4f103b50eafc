/*
 * triage_input.c - the inputs of `isacheck triage` read into a triage:
 * raw binaries, hex dumps and vector TSVs, instructions one by one or
 * whole programs cut by the spec's <program>.  Out of triage_cmd.c so
 * that the fuzz target triage_input can give it any bytes.
 */
#include "triage_input.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static bool add_item(triage_run *r, const uint32_t *words, uint32_t gen, int source, bool is_line,
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

bool triage_check_gen(const triage_run *r, uint32_t gen, const char *where, char *err, size_t errlen)
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
static bool triage_program(triage_run *r, const char *path, const uint32_t *w, size_t n, uint32_t gen,
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
	FILE *diag = r->diag ? r->diag : stderr;
	for (size_t i = 0; i < pr->nerrors; i++) {
		const codec_frame_error *e = &pr->errors[i];
		/* text input says on which line (the word's, or the last one
		 * when the program ends too soon) */
		size_t word = e->bit / 32;
		size_t line = lines && n ? lines[word < n ? word : n - 1] : line0;
		if (line)
			fprintf(diag, "%s:%zu: word %zu (bit %zu): framing error: %s [%s]\n", path, line,
			        word, e->bit, e->text, codec_frame_error_name(e->kind));
		else
			fprintf(diag, "%s: word %zu (bit %zu): framing error: %s [%s]\n", path, word,
			        e->bit, e->text, codec_frame_error_name(e->kind));
	}
	r->frame_errors += pr->nerrors;
	codec_program_free(pr);
	return ok;
}

static bool read_bin(triage_run *r, const char *path, const char *buf, size_t len, int source,
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
static bool hex_token(const triage_run *r, const char *tok, word_buf *ws, char *err, size_t errlen)
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

static bool read_hex(triage_run *r, const char *path, char *buf, size_t len, int source, char *err,
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
static bool row_gen(const triage_run *r, const char *s, unsigned long *g)
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

static bool read_tsv(triage_run *r, const char *path, char *buf, size_t len, int source, char *err,
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
			if (!triage_check_gen(r, gen, where, err, errlen)) {
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

/* Reads one input held in buf (len bytes, NUL after them; changed in
 * place) into the triage, as its kind (or what sniff makes of it). */
bool triage_read_buffer(triage_run *r, const char *path, char *buf, size_t len, char *err,
                        size_t errlen)
{
	err[0] = 0;
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
	return ok;
}
