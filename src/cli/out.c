/* out.c - printing diagnostics as text and JSON. */
#include "cli.h"

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
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

void print_diag_text(FILE *f, const spec_diag *d)
{
	/* Fatal problems are errors to the reader; the exit code tells them apart. */
	const char *sev = d->severity == SPEC_WARNING ? "warning" : "error";
	fprintf(f, "%s:%u:%u: %s: %s [%s]\n", d->loc.file ? d->loc.file : "-",
	        d->loc.line, d->loc.col, sev, d->message, d->rule);
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
