/* out.c - printing diagnostics as text and JSON, and the JSON pieces
 * every command's output shares. */
#include "cli.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at p, or 0 when there is none
 * (overlong forms, surrogates and code points past U+10FFFF included).
 * Never reads past a NUL: NUL is no continuation byte. */
static size_t utf8_seq(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n;
	uint32_t cp, min;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2, cp = p[0] & 0x1fu, min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3, cp = p[0] & 0x0fu, min = 0x800;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4, cp = p[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* JSON must be UTF-8, and paths from the command line and the file system
 * promise no encoding: a byte that is not UTF-8 becomes U+FFFD. */
void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p >= 0x80) {
			size_t n = utf8_seq(p);
			if (!n) {
				fputs("\xef\xbf\xbd", f); /* U+FFFD */
				continue;
			}
			fwrite(p, 1, n, f);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_string_or_null(FILE *f, const char *s)
{
	if (s)
		json_string(f, s);
	else
		fputs("null", f);
}

void json_gen(FILE *f, spec_gen g)
{
	fprintf(f, "{\"min\":%" PRIu32 ",\"max\":%" PRIu32 "}", g.min, g.max);
}

void print_diag_text(FILE *f, const spec_diag *d)
{
	/* Fatal problems are errors to the reader; the exit code tells them apart. */
	const char *sev = d->severity == SPEC_WARNING ? "warning" : "error";
	const char *file = d->loc.file ? d->loc.file : "-";
	/* no line (a file that cannot be read): "file: error:", as compilers say */
	if (!d->loc.line)
		fprintf(f, "%s: %s: %s [%s]\n", file, sev, d->message, d->rule);
	else if (!d->loc.col)
		fprintf(f, "%s:%u: %s: %s [%s]\n", file, d->loc.line, sev, d->message, d->rule);
	else
		fprintf(f, "%s:%u:%u: %s: %s [%s]\n", file, d->loc.line, d->loc.col, sev,
		        d->message, d->rule);
}

bool refuse_bad_program(const char *cmd, const spec_diags *d)
{
	bool bad = false;
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].severity != SPEC_WARNING && !strncmp(d->items[i].rule, "frame-", 6)) {
			print_diag_text(stderr, &d->items[i]);
			bad = true;
		}
	if (bad)
		fprintf(stderr, "isacheck %s: the spec's <program> has errors (above): nothing is "
		        "framed with it\n", cmd);
	return bad;
}

void print_fatal_diags(FILE *f, const spec_diags *d)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->items[i].severity == SPEC_FATAL)
			print_diag_text(f, &d->items[i]);
}

void print_diag_json(FILE *f, const spec_diag *d)
{
	fputs("{\"file\":", f);
	json_string(f, d->loc.file);
	fprintf(f, ",\"line\":%u,\"column\":%u,\"severity\":", d->loc.line, d->loc.col);
	json_string(f, spec_severity_name(d->severity));
	fputs(",\"rule\":", f);
	json_string(f, d->rule);
	fputs(",\"message\":", f);
	json_string(f, d->message);
	fputc('}', f);
}

void format_gen(spec_gen g, char *buf, size_t len)
{
	if (g.min == g.max)
		snprintf(buf, len, "%u", g.min);
	else if (g.max == UINT32_MAX)
		snprintf(buf, len, "%u..max", g.min);
	else
		snprintf(buf, len, "%u..%u", g.min, g.max);
}

const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path ? path : "";
}

bool rule_in_list(const char *list, const char *rule)
{
	size_t rl = strlen(rule);
	for (const char *p = list; p && *p;) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		if (n == rl && !strncmp(p, rule, n))
			return true;
		p = q ? q + 1 : NULL;
	}
	return false;
}
