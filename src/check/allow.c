/*
 * allow.c - the allowlist of accepted overlaps (format in docs/prove.md):
 *
 *   # a comment line
 *   overlap LEAF LEAF [in ROOT] [gen MIN..MAX | gen MIN+ | gen N] [: reason]
 */
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prove_allowlist_private {
	char *text;   /* the file, split in place into the entries' strings */
	char *path;
};

static char *next_word(char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!**p || **p == ':')
		return NULL;
	char *w = *p;
	while (**p && **p != ' ' && **p != '\t' && **p != ':')
		(*p)++;
	if (**p == ' ' || **p == '\t')
		*(*p)++ = 0;
	return w;
}

static bool parse_u32(const char *s, size_t n, uint32_t *out)
{
	if (!n || n > 10)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* MIN..MAX, MIN..max, MIN+ or N. */
static bool parse_gen(const char *s, spec_gen *g)
{
	const char *dots = strstr(s, "..");
	size_t n = strlen(s);
	if (dots) {
		if (!parse_u32(s, (size_t)(dots - s), &g->min))
			return false;
		const char *hi = dots + 2;
		if (!strcmp(hi, "max")) {
			g->max = UINT32_MAX;
			return true;
		}
		return parse_u32(hi, strlen(hi), &g->max) && g->min <= g->max;
	}
	if (n && s[n - 1] == '+') {
		g->max = UINT32_MAX;
		return parse_u32(s, n - 1, &g->min);
	}
	if (!parse_u32(s, n, &g->min))
		return false;
	g->max = g->min;
	return true;
}

bool prove_allowlist_load(const char *path, prove_allowlist *out, spec_diags *diags)
{
	*out = (prove_allowlist){0};
	char why[160];
	int err = 0;
	FILE *f = spec_fopen_regular(path, "rb", why, sizeof why, &err); /* never a FIFO */
	spec_loc at = {path, 0, 0};
	if (!f) {
		spec_diag_add(diags, SPEC_FATAL, "io", at, "cannot read allowlist '%s': %s", path, why);
		return false;
	}
	struct prove_allowlist_private *priv = calloc(1, sizeof *priv);
	size_t cap = 4096, n = 0;
	bool too_big = false;
	char *text = malloc(cap);
	for (size_t r; text && (r = fread(text + n, 1, cap - n - 1, f)) > 0;) {
		n += r;
		if (n + 1 >= cap) {
			if (cap >= ((size_t)16 << 20)) {
				too_big = true; /* 16 MiB of allowlist is no allowlist */
				break;
			}
			char *t = realloc(text, cap *= 2);
			if (!t) {
				free(text);
				text = NULL;
			}
			text = t;
		}
	}
	fclose(f);
	if (!priv || !text || too_big || memchr(text, 0, n)) {
		spec_diag_add(diags, SPEC_FATAL, "io", at, "cannot read allowlist '%s': %s", path,
		              !text ? "out of memory" : too_big ? "larger than 16 MiB"
		                                        : "not a text file");
		free(priv);
		free(text);
		return false;
	}
	text[n] = 0;
	priv->text = text;
	priv->path = strdup(path);
	out->priv = priv;
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += text[i] == '\n';
	out->items = calloc(lines, sizeof *out->items);
	if (!out->items || !priv->path) {
		prove_allowlist_free(out);
		spec_diag_add(diags, SPEC_FATAL, "io", at, "out of memory");
		return false;
	}
	unsigned line = 0;
	for (char *p = text, *eol; p && *p; p = eol ? eol + 1 : NULL) {
		eol = strchr(p, '\n');
		if (eol)
			*eol = 0;
		line++;
		size_t len = strlen(p);
		if (len && p[len - 1] == '\r')
			p[--len] = 0;
		spec_loc loc = {priv->path, line, 1};
		char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!*q || *q == '#')
			continue;
		char *colon = strchr(q, ':');
		const char *reason = NULL;
		if (colon) {
			*colon = 0;
			reason = colon + 1;
			while (*reason == ' ' || *reason == '\t')
				reason++;
		}
		char *kw = next_word(&q), *a = next_word(&q), *b = next_word(&q);
		if (!kw || strcmp(kw, "overlap") || !a || !b) {
			spec_diag_add(diags, SPEC_ERROR, "allowlist-syntax", loc,
			              "expected 'overlap LEAF LEAF [in ROOT] [gen RANGE] [: reason]'");
			continue;
		}
		prove_allow e = {a, b, NULL, {0, UINT32_MAX}, reason && *reason ? reason : NULL, loc};
		bool bad = false;
		for (char *w; !bad && (w = next_word(&q)) != NULL;) {
			char *arg = next_word(&q);
			if (!strcmp(w, "in") && arg) {
				e.root = arg;
			} else if (!strcmp(w, "gen") && arg && parse_gen(arg, &e.gen)) {
			} else {
				spec_diag_add(diags, SPEC_ERROR, "allowlist-syntax", loc,
				              "unexpected '%s%s%s': after the two leaves come 'in ROOT' "
				              "and 'gen MIN..MAX' (or MIN.., MIN+, N)", w, arg ? " " : "",
				              arg ? arg : "");
				bad = true;
			}
		}
		if (!bad)
			out->items[out->count++] = e;
	}
	return true;
}

void prove_allowlist_free(prove_allowlist *a)
{
	if (!a)
		return;
	if (a->priv) {
		free(a->priv->text);
		free(a->priv->path);
		free(a->priv);
	}
	free(a->items);
	*a = (prove_allowlist){0};
}
