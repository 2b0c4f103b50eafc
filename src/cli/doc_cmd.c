/*
 * doc_cmd.c - `isacheck doc SPEC [-o FILE]`: the reader's reference of
 * an ISA, generated from its XML so that it can never drift from it.
 *
 * Markdown, for any spec: per root, the coverage proof and the holes
 * (the largest unallocated cubes) next to the root's own <doc>, the
 * class hierarchy, then per class (every bitset with children, every
 * root, every leaf with fields or a display of its own) its <doc>, gen
 * range, a bit diagram of the whole word as seen from that class, the
 * table of its fields (inherited ones included), its cases and display,
 * and the table of its leaves with their own pattern bits; last the
 * enums, templates and named expressions.
 *
 * The output is deterministic: it depends on the XML only (file names
 * appear without their folders), so tests compare a committed page with
 * what the command prints now.
 */
#include "check.h"
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char doc_usage[] =
	"usage: isacheck doc SPEC [-o FILE]\n"
	"  write SPEC's encoding reference as Markdown: per root the coverage and\n"
	"  holes, the class hierarchy, per class a bit diagram and field tables,\n"
	"  the leaves, enums, templates and expressions (docs/isa/README.md)\n"
	"options:\n"
	"  -o FILE, --output=FILE   write to FILE instead of standard output\n"
	"  --max-spec-size=SIZE     read up to SIZE bytes of XML (K, M, G; default 64M,\n"
	"                           at most 1G); element and memory budgets grow with it\n"
	"exit: 0 written, 1 written but SPEC has errors (printed), 2 unusable SPEC or usage\n";

/* ------------------------------------------------------------ text */

/* Writes s for a Markdown table cell: '|' escaped, line breaks as spaces. */
static void cell(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* Writes s in a code span for a table cell (whitespace runs collapsed). */
static void code_cell(FILE *f, const char *s)
{
	fputc('`', f);
	bool space = false;
	for (; s && *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t') {
			space = true;
			continue;
		}
		if (space)
			fputc(' ', f);
		space = false;
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '`')
			fputc('\'', f);
		else
			fputc(*s, f);
	}
	fputc('`', f);
}

/* A <doc> text: its common indentation removed; lines that are indented
 * further (tables, lists of bits) go into code blocks as written. */
static void doc_text(FILE *f, const char *doc)
{
	if (!doc || !*doc)
		return;
	/* common indentation of the lines after the first (the first is trimmed) */
	size_t common = (size_t)-1;
	for (const char *p = strchr(doc, '\n'); p; p = strchr(p + 1, '\n')) {
		const char *q = p + 1;
		size_t n = 0;
		while (q[n] == ' ' || q[n] == '\t')
			n++;
		if (q[n] && q[n] != '\n' && n < common)
			common = n;
	}
	if (common == (size_t)-1)
		common = 0;
	bool in_code = false, first = true, prev_blank = false;
	for (const char *p = doc; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *line = p;
		if (!first) {
			size_t skip = 0;
			while (skip < common && skip < len && (line[skip] == ' ' || line[skip] == '\t'))
				skip++;
			line += skip;
			len -= skip;
		}
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		bool indented = len && (line[0] == ' ' || line[0] == '\t');
		if (indented && !in_code) {
			fputs(prev_blank ? "```\n" : "\n```\n", f);
			in_code = true;
		} else if (!indented && in_code) {
			fputs("```\n", f);
			in_code = false;
			if (!len) {
				p = e ? e + 1 : p + len;
				first = false;
				continue;
			}
		}
		fwrite(line, 1, len, f);
		fputc('\n', f);
		prev_blank = !len;
		first = false;
		if (!e)
			break;
		p = e + 1;
	}
	if (in_code)
		fputs("```\n", f);
	fputc('\n', f);
}

static void bit_range(char *buf, size_t len, unsigned low, unsigned high)
{
	if (low == high)
		snprintf(buf, len, "%u", low);
	else
		snprintf(buf, len, "%u..%u", low, high);
}

/* A GitHub-style anchor of a heading text: lower case, letters, digits,
 * '-' and '_' kept, spaces to '-', everything else dropped. */
static void anchor(FILE *f, const char *heading)
{
	for (const char *s = heading; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 'A' && c <= 'Z')
			fputc(c - 'A' + 'a', f);
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
			fputc(c, f);
		else if (c == ' ')
			fputc('-', f);
	}
}

/* ------------------------------------------------------------ model */

typedef struct doc_ctx {
	FILE *f;
	const spec_model *m;
	const prove_result *proof;
	bool any_gen;
	const char *file; /* the spec's file name without folders */
} doc_ctx;

static bool shows_gen(const doc_ctx *d)
{
	return d->any_gen;
}

/* The default case of a bitset (always the last). */
static const spec_case *default_case(const spec_bitset *b)
{
	return b->ncases ? &b->cases[b->ncases - 1] : NULL;
}

/* A bitset's chain from its root down to itself. */
static size_t chain_of(const spec_bitset *b, const spec_bitset **out, size_t max)
{
	size_t n = 0;
	for (const spec_bitset *p = b; p; p = p->parent)
		n++;
	if (n > max)
		n = max;
	size_t i = n;
	for (const spec_bitset *p = b; p && i; p = p->parent)
		out[--i] = p;
	return n;
}

#define MAX_CHAIN 256

/* Letters for fields in diagrams: no 'x' (don't-care), no digits 0/1. */
static const char field_letters[] = "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ23456789";

typedef struct field_row {
	const spec_field *field;
	const spec_bitset *owner;
	char letter; /* 0: none (derived) */
} field_row;

/* The default-case fields of the chain, root first, with their letters. */
static size_t field_rows(const spec_bitset *b, field_row **out)
{
	const spec_bitset *chain[MAX_CHAIN];
	size_t n = chain_of(b, chain, MAX_CHAIN);
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		const spec_case *c = default_case(chain[i]);
		total += c ? c->nfields : 0;
	}
	field_row *rows = calloc(total ? total : 1, sizeof *rows);
	if (!rows) {
		*out = NULL;
		return 0;
	}
	size_t k = 0, letter = 0;
	for (size_t i = 0; i < n; i++) {
		const spec_case *c = default_case(chain[i]);
		for (size_t j = 0; c && j < c->nfields; j++) {
			rows[k].field = &c->fields[j];
			rows[k].owner = chain[i];
			if (c->fields[j].kind != SPEC_DERIVED)
				rows[k].letter = letter < sizeof field_letters - 1 ? field_letters[letter++] : '#';
			k++;
		}
	}
	*out = rows;
	return k;
}

/* One character per bit of b's word, as seen from b. */
static char bit_char(const spec_bitset *b, const field_row *rows, size_t nrows, unsigned bit)
{
	if (spec_bit(b->dontcare, bit))
		return 'x';
	if (spec_bit(b->mask, bit))
		return spec_bit(b->match, bit) ? '1' : '0';
	for (size_t i = 0; i < nrows; i++) {
		const spec_field *f = rows[i].field;
		if (f->kind != SPEC_DERIVED && bit >= f->low && bit <= f->high)
			return rows[i].letter;
	}
	return '.';
}

static void diagram(const doc_ctx *d, const spec_bitset *b, const field_row *rows, size_t nrows)
{
	FILE *f = d->f;
	unsigned size = b->size;
	fputs("```\n", f);
	unsigned top = (size - 1) / 32;
	for (unsigned w = top + 1; w-- > 0;) {
		unsigned lo = w * 32, hi = lo + 31 < size ? lo + 31 : size - 1;
		char label[32];
		snprintf(label, sizeof label, "%u..%u", hi, lo);
		fprintf(f, "%-10s", label);
		for (unsigned bit = hi + 1; bit-- > lo;) {
			fputc(bit_char(b, rows, nrows, bit), f);
			if (bit > lo && bit % 8 == 0)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
	fputs("```\n\n", f);
}

static void type_cell(FILE *f, const spec_field *fl)
{
	if (fl->kind == SPEC_ASSERT) {
		fputs("assert", f);
		return;
	}
	if (fl->type == SPEC_TYPE_ENUM && fl->enm) {
		fputs("[`", f);
		cell(f, fl->type_name);
		fputs("`](#enum-", f);
		anchor(f, fl->type_name);
		fputc(')', f);
	} else if (fl->type == SPEC_TYPE_BITSET && fl->bitset) {
		char h[512];
		snprintf(h, sizeof h, "Root %s (%u bits)", fl->bitset->name, fl->bitset->size);
		fputs("[`", f);
		cell(f, fl->bitset->name);
		fputs("`](#", f);
		anchor(f, h);
		fputc(')', f);
	} else if (fl->type_name) {
		code_cell(f, fl->type_name);
	}
	if (fl->has_width || (fl->kind == SPEC_DERIVED && fl->high > 0))
		fprintf(f, " (%u bits)", fl->high - fl->low + 1);
	for (size_t p = 0; p < fl->nparams; p++) {
		fputs(p ? ", " : "; passes ", f);
		code_cell(f, fl->params[p].name);
		if (fl->params[p].as && strcmp(fl->params[p].as, fl->params[p].name)) {
			fputs(" as ", f);
			code_cell(f, fl->params[p].as);
		}
	}
}

static void notes_cell(FILE *f, const spec_field *fl, unsigned size)
{
	bool any = false;
	if (fl->display) {
		fputs("prints ", f);
		code_cell(f, fl->display);
		fputs(fl->type == SPEC_TYPE_BOOL_INV ? " when clear" : " when set", f);
		any = true;
	}
	if (fl->kind == SPEC_DERIVED) {
		if (any)
			fputs("; ", f);
		fputs("= ", f);
		code_cell(f, fl->expr ? spec_expr_text(fl->expr) : fl->expr_name);
		if (fl->expr_name) {
			fputs(" (", f);
			code_cell(f, fl->expr_name);
			fputc(')', f);
		}
		any = true;
	}
	if (fl->kind == SPEC_ASSERT) {
		fputs("expected ", f);
		fputc('`', f);
		for (unsigned i = fl->high + 1; i-- > fl->low;)
			fputc(spec_bit(fl->assert_value, i) ? '1' : '0', f);
		fputc('`', f);
	}
	(void)size;
}

static void field_table(const doc_ctx *d, const spec_bitset *b, const field_row *rows,
                        size_t nrows)
{
	FILE *f = d->f;
	if (!nrows)
		return;
	fputs("| | bits | field | type | from | notes |\n|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < nrows; i++) {
		const spec_field *fl = rows[i].field;
		char bits[32];
		if (fl->kind == SPEC_DERIVED)
			snprintf(bits, sizeof bits, "derived");
		else
			bit_range(bits, sizeof bits, fl->low, fl->high);
		fputs("| ", f);
		if (rows[i].letter)
			fprintf(f, "`%c`", rows[i].letter);
		fprintf(f, " | %s | ", bits);
		code_cell(f, fl->name);
		fputs(" | ", f);
		type_cell(f, fl);
		fputs(" | ", f);
		if (rows[i].owner != b)
			code_cell(f, rows[i].owner->name);
		fputs(" | ", f);
		notes_cell(f, fl, b->size);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

/* A bitset's own patterns, as written: "0..5 = 000001, 80 = 0". */
static void own_patterns(FILE *f, const spec_bitset *b)
{
	for (size_t i = 0; i < b->npatterns; i++) {
		char bits[32];
		bit_range(bits, sizeof bits, b->patterns[i].low, b->patterns[i].high);
		fprintf(f, "%s%s = `%s`", i ? ", " : "", bits, b->patterns[i].bits);
	}
}

static void cases_section(const doc_ctx *d, const spec_bitset *b)
{
	FILE *f = d->f;
	if (b->ncases > 1) {
		fputs("Cases, the first whose expression holds wins:\n\n"
		      "| case | when | fields | display |\n|---|---|---|---|\n", f);
		for (size_t i = 0; i < b->ncases; i++) {
			const spec_case *c = &b->cases[i];
			fprintf(f, "| %zu | ", i + 1);
			if (c->expr)
				code_cell(f, spec_expr_text(c->expr));
			else
				fputs("otherwise", f);
			if (c->expr_name) {
				fputs(" (", f);
				code_cell(f, c->expr_name);
				fputc(')', f);
			}
			fputs(" | ", f);
			for (size_t j = 0; c->expr && j < c->nfields; j++) {
				const spec_field *fl = &c->fields[j];
				fputs(j ? ", " : "", f);
				code_cell(f, fl->name);
				fputs(": ", f);
				type_cell(f, fl);
				if (fl->kind == SPEC_DERIVED) {
					fputs(" = ", f);
					code_cell(f, fl->expr ? spec_expr_text(fl->expr) : fl->expr_name);
				}
			}
			fputs(" | ", f);
			if (c->display)
				code_cell(f, *c->display ? c->display : " ");
			fputs(" |\n", f);
		}
		fputc('\n', f);
	} else if (b->ncases == 1 && b->cases[0].display) {
		fputs("Display: ", f);
		code_cell(f, *b->cases[0].display ? b->cases[0].display : " ");
		fputs("\n\n", f);
	}
}

static void gen_line(const doc_ctx *d, const spec_bitset *b)
{
	if (!shows_gen(d))
		return;
	char g[64];
	format_gen(b->gen, g, sizeof g);
	fprintf(d->f, "Generations: %s%s\n\n", g,
	        b->has_gen ? "" : spec_is_root(b) ? " (no `<gen>`)" : " (inherited)");
}

/* Whether a bitset gets a section: every root and class, and a leaf
 * with anything of its own beyond pattern bits. */
static bool leaf_needs_section(const spec_bitset *b)
{
	if (!spec_is_leaf(b) || spec_is_root(b))
		return true;
	if (b->doc || b->ncases > 1)
		return true;
	const spec_case *c = default_case(b);
	return c && (c->nfields || c->display);
}

static void leaf_table(const doc_ctx *d, const spec_bitset *b)
{
	FILE *f = d->f;
	size_t nleaves = 0;
	for (size_t i = 0; i < b->nchildren; i++)
		nleaves += spec_is_leaf(b->children[i]);
	if (!nleaves)
		return;
	fprintf(f, "Instructions (%zu), each with its own pattern bits:\n\n", nleaves);
	fprintf(f, "| leaf | pattern bits |%s notes |\n|---|---|%s---|\n",
	        shows_gen(d) ? " generations |" : "", shows_gen(d) ? "---|" : "");
	for (size_t i = 0; i < b->nchildren; i++) {
		const spec_bitset *c = b->children[i];
		if (!spec_is_leaf(c))
			continue;
		fputs("| ", f);
		code_cell(f, c->name);
		fputs(" | ", f);
		own_patterns(f, c);
		fputs(" | ", f);
		if (shows_gen(d)) {
			char g[64];
			format_gen(c->gen, g, sizeof g);
			fprintf(f, "%s | ", g);
		}
		bool any = false;
		if (c->displayname) {
			fputs("prints as ", f);
			code_cell(f, c->displayname);
			any = true;
		}
		if (leaf_needs_section(c)) {
			fprintf(f, "%ssee [below](#", any ? "; " : "");
			char h[512];
			snprintf(h, sizeof h, "leaf %s", c->name);
			anchor(f, h);
			fputc(')', f);
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

static void bitset_section(const doc_ctx *d, const spec_bitset *b)
{
	FILE *f = d->f;
	const char *what = spec_is_root(b) ? "root" : spec_is_leaf(b) ? "leaf" : "class";
	fprintf(f, "### %s `%s`\n\n", what, b->name);
	fprintf(f, "%u bits", b->size);
	if (b->parent)
		fprintf(f, "; extends `%s`", b->parent->name);
	fprintf(f, "; %s:%u.\n\n", d->file, b->loc.line);
	if (b->displayname)
		fprintf(f, "Prints as `%s`.\n\n", b->displayname);
	if (!spec_is_root(b)) /* a root's doc heads its part, beside the holes */
		doc_text(f, b->doc);
	gen_line(d, b);
	field_row *rows = NULL;
	size_t nrows = field_rows(b, &rows);
	diagram(d, b, rows, nrows);
	if (b->npatterns) {
		fputs("Own pattern bits: ", f);
		own_patterns(f, b);
		fputs(".\n\n", f);
	}
	field_table(d, b, rows, nrows);
	free(rows);
	cases_section(d, b);
	size_t nsub = 0;
	for (size_t i = 0; i < b->nchildren; i++)
		nsub += !spec_is_leaf(b->children[i]);
	if (nsub) {
		fputs("Classes below: ", f);
		size_t k = 0;
		for (size_t i = 0; i < b->nchildren; i++)
			if (!spec_is_leaf(b->children[i])) {
				fprintf(f, "%s[`%s`](#", k++ ? ", " : "", b->children[i]->name);
				char h[512];
				snprintf(h, sizeof h, "class %s", b->children[i]->name);
				anchor(f, h);
				fputc(')', f);
			}
		fputs(".\n\n", f);
	}
	leaf_table(d, b);
}

/* ------------------------------------------------------------ roots */

static void hierarchy(const doc_ctx *d, const spec_bitset *b, unsigned depth)
{
	FILE *f = d->f;
	fprintf(f, "%*s- `%s`", (int)(2 * depth), "", b->name);
	size_t nleaves = 0;
	for (size_t i = 0; i < b->nchildren; i++)
		nleaves += spec_is_leaf(b->children[i]);
	if (nleaves) {
		fputs(": ", f);
		size_t k = 0;
		for (size_t i = 0; i < b->nchildren; i++)
			if (spec_is_leaf(b->children[i]))
				fprintf(f, "%s%s", k++ ? ", " : "", b->children[i]->name);
	}
	fputc('\n', f);
	if (depth < MAX_CHAIN)
		for (size_t i = 0; i < b->nchildren; i++)
			if (!spec_is_leaf(b->children[i]))
				hierarchy(d, b->children[i], depth + 1);
}

static void sections(const doc_ctx *d, const spec_bitset *b, unsigned depth)
{
	if (leaf_needs_section(b))
		bitset_section(d, b);
	if (depth < MAX_CHAIN)
		for (size_t i = 0; i < b->nchildren; i++)
			sections(d, b->children[i], depth + 1);
}

/* A cube, most significant bit first, '_' at every 32-bit boundary. */
static void cube_text(FILE *f, const prove_cube *c, unsigned size)
{
	size_t len = size + 1;
	char *buf = malloc(len);
	if (!buf)
		return;
	prove_format_cube(c, size, buf, len);
	for (unsigned i = 0; i < size && buf[i]; i++) {
		unsigned bit = size - 1 - i;
		fputc(buf[i], f);
		if (bit && bit % 32 == 0)
			fputc('_', f);
	}
	free(buf);
}

static void coverage(const doc_ctx *d, const spec_root *r)
{
	FILE *f = d->f;
	const prove_result *p = d->proof;
	size_t overlaps = 0, accounting = 0;
	for (size_t i = 0; i < p->noverlaps; i++)
		overlaps += p->overlaps[i].root == r;
	for (size_t i = 0; i < p->naccounting; i++)
		accounting += p->accounting[i].leaf->root == r->bitset;
	fprintf(f, "Proved by `isacheck prove`: %zu overlapping pairs of leaves, %zu leaves with "
	        "bits not accounted for (of %zu lea%s).\n\n", overlaps, accounting, r->nleaves,
	        r->nleaves == 1 ? "f" : "ves");
	for (size_t i = 0; i < p->noverlaps; i++) {
		const prove_overlap *o = &p->overlaps[i];
		if (o->root != r)
			continue;
		char hex[SPEC_MAX_BITS / 4 + SPEC_MAX_BITS / 32 + 8];
		prove_format_hex(o->witness, r->bitset->size, hex, sizeof hex);
		fprintf(f, "- overlap: `%s` and `%s`, e.g. `%s`\n", o->a->name, o->b->name, hex);
	}
	if (overlaps)
		fputc('\n', f);
	size_t nint = 0;
	for (size_t i = 0; i < p->nintervals; i++)
		nint += p->intervals[i].root == r;
	if (!nint)
		return;
	fputs("| generations | live leaves | words that decode to nothing | share |\n"
	      "|---|---|---|---|\n", f);
	char count[1400];
	for (size_t i = 0; i < p->nintervals; i++) {
		const prove_interval *iv = &p->intervals[i];
		if (iv->root != r)
			continue;
		char g[64];
		format_gen(iv->gen, g, sizeof g);
		prove_count_format(&iv->undecoded, count, sizeof count);
		fprintf(f, "| %s | %zu | %s of 2^%u | %.4f%% |\n", g, iv->live_leaves, count,
		        r->bitset->size, iv->fraction * 100.0);
	}
	fputc('\n', f);
	for (size_t i = 0; i < p->nintervals; i++) {
		const prove_interval *iv = &p->intervals[i];
		if (iv->root != r || !iv->nholes)
			continue;
		char g[64];
		format_gen(iv->gen, g, sizeof g);
		fprintf(f, "Largest holes%s%s (bit %u first; `x` free%s):\n\n```\n",
		        shows_gen(d) ? " at generations " : "", shows_gen(d) ? g : "",
		        r->bitset->size - 1, r->bitset->size > 32 ? ", `_` every 32 bits" : "");
		for (size_t h = 0; h < iv->nholes; h++) {
			cube_text(f, &iv->holes[h], r->bitset->size);
			fprintf(f, "  2^%u words\n", iv->holes[h].free_bits);
		}
		fputs("```\n\n", f);
	}
}

static void root_part(const doc_ctx *d, const spec_root *r)
{
	FILE *f = d->f;
	const spec_bitset *b = r->bitset;
	fprintf(f, "## Root `%s` (%u bits)\n\n", b->name, b->size);
	doc_text(f, b->doc);
	coverage(d, r);
	if (b->nchildren) {
		fputs("Classes and their instructions:\n\n", f);
		hierarchy(d, b, 0);
		fputc('\n', f);
	}
	sections(d, b, 0);
}

/* -------------------------------------------------- enums and the rest */

static void enums_part(const doc_ctx *d)
{
	FILE *f = d->f;
	if (!d->m->nenums)
		return;
	fputs("## Enums\n\n", f);
	for (size_t i = 0; i < d->m->nenums; i++) {
		const spec_enum *e = &d->m->enums[i];
		fprintf(f, "### enum `%s`\n\n%s:%u.\n\n| value | prints | name |\n|---|---|---|\n",
		        e->name, d->file, e->loc.line);
		for (size_t k = 0; k < e->nvalues; k++) {
			const spec_enum_value *v = &e->values[k];
			fprintf(f, "| %lld | ", (long long)v->val);
			if (v->display && *v->display)
				code_cell(f, v->display);
			else
				fputs("(nothing)", f);
			fputs(" | ", f);
			if (v->name)
				code_cell(f, v->name);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
}

static void misc_part(const doc_ctx *d)
{
	FILE *f = d->f;
	if (d->m->ntemplates) {
		fputs("## Display templates\n\n| template | text |\n|---|---|\n", f);
		for (size_t i = 0; i < d->m->ntemplates; i++) {
			fputs("| ", f);
			code_cell(f, d->m->templates[i].name);
			fputs(" | ", f);
			code_cell(f, d->m->templates[i].text);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	size_t named = 0;
	for (size_t i = 0; i < d->m->nexprs; i++)
		named += !d->m->exprs[i].anonymous;
	if (named) {
		fputs("## Named expressions\n\n| expression | text |\n|---|---|\n", f);
		for (size_t i = 0; i < d->m->nexprs; i++) {
			if (d->m->exprs[i].anonymous)
				continue;
			fputs("| ", f);
			code_cell(f, d->m->exprs[i].name);
			fputs(" | ", f);
			code_cell(f, spec_expr_text(d->m->exprs[i].expr));
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
}

static void write_doc(const doc_ctx *d)
{
	FILE *f = d->f;
	const spec_model *m = d->m;
	fprintf(f, "# %s: encoding reference\n\n", d->file);
	fprintf(f, "Generated by `isacheck doc` from `%s`; edit the XML and regenerate "
	        "(docs/isa/README.md), never this page.\n\n", d->file);
	spec_stats st = spec_model_stats(m);
	fprintf(f, "%zu roots, %zu bitsets, %zu leaves, %zu enums. In the bit diagrams, bit 0 "
	        "is on the right of the lowest row; `0`/`1` are pattern bits, `x` declared "
	        "don't-care bits, letters the fields of the table below them, `.` bits that "
	        "classes further down define.\n\n", st.roots, st.bitsets, st.leaves, st.enums);
	fputs("Roots:\n\n", f);
	for (size_t i = 0; i < m->nroots; i++) {
		char h[512];
		snprintf(h, sizeof h, "Root %s (%u bits)", m->roots[i].bitset->name,
		         m->roots[i].bitset->size);
		fprintf(f, "- [`%s`](#", m->roots[i].bitset->name);
		anchor(f, h);
		fprintf(f, "), %u bits, %zu lea%s\n", m->roots[i].bitset->size, m->roots[i].nleaves,
		        m->roots[i].nleaves == 1 ? "f" : "ves");
	}
	fputc('\n', f);
	/* the instruction roots first: the widest, then the rest in order */
	for (size_t i = 0; i < m->nroots; i++)
		if (m->roots[i].bitset->size == m->bitsize)
			root_part(d, &m->roots[i]);
	for (size_t i = 0; i < m->nroots; i++)
		if (m->roots[i].bitset->size != m->bitsize)
			root_part(d, &m->roots[i]);
	enums_part(d);
	misc_part(d);
}

/* -------------------------------------------------------------- command */

int cmd_doc(int argc, char **argv)
{
	const char *spec_path = NULL, *output = NULL;
	spec_load_options lo = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(doc_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			output = argv[++i];
		} else if (!strncmp(a, "--output=", 9) && a[9]) {
			output = a + 9;
		} else if (!strncmp(a, "--max-spec-size=", 16)) {
			if (!spec_parse_size(a + 16, &lo.max_bytes)) {
				fprintf(stderr, "isacheck doc: bad option '%s'\n%s", a, doc_usage);
				return EXIT_UNUSABLE;
			}
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--output=")) {
			fprintf(stderr, "isacheck doc: %s needs a FILE\n%s", a, doc_usage);
			return EXIT_UNUSABLE;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "isacheck doc: unknown option '%s'\n%s", a, doc_usage);
			return EXIT_UNUSABLE;
		} else if (!spec_path) {
			spec_path = a;
		} else {
			fprintf(stderr, "isacheck doc: one SPEC only ('%s')\n%s", a, doc_usage);
			return EXIT_UNUSABLE;
		}
	}
	if (!spec_path) {
		fprintf(stderr, "isacheck doc: give SPEC\n%s", doc_usage);
		return EXIT_UNUSABLE;
	}
	spec_diags diags = {0};
	spec_model *m = spec_load_with(spec_path, &lo, &diags);
	spec_diags_sort(&diags);
	bool errors = false;
	for (size_t i = 0; i < diags.count; i++)
		if (diags.items[i].severity >= SPEC_ERROR) {
			print_diag_text(stderr, &diags.items[i]);
			errors = true;
		}
	if (!m) {
		spec_diags_free(&diags);
		return EXIT_UNUSABLE;
	}
	prove_options opt = prove_default_options();
	prove_result proof;
	memset(&proof, 0, sizeof proof);
	if (!prove_model(m, &opt, &proof, &diags)) {
		fprintf(stderr, "isacheck doc: the proofs of '%s' could not be run\n", spec_path);
		spec_model_free(m);
		spec_diags_free(&diags);
		return EXIT_UNUSABLE;
	}
	output_file o;
	if (!output_open(&o, "doc", output, false, m->files, m->nfiles)) {
		prove_result_free(&proof);
		spec_model_free(m);
		spec_diags_free(&diags);
		return EXIT_UNUSABLE;
	}
	doc_ctx d = {o.f, m, &proof, false, base_name(m->path)};
	for (size_t i = 0; i < m->nbitsets; i++)
		d.any_gen |= m->bitsets[i]->has_gen;
	write_doc(&d);
	int rc = errors ? EXIT_FINDINGS : EXIT_CLEAN;
	if (!output_commit(&o))
		rc = EXIT_UNUSABLE;
	prove_result_free(&proof);
	spec_model_free(m);
	spec_diags_free(&diags);
	return rc;
}
