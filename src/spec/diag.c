/* diag.c - diagnostics: collection, ordering, and the table of rules. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool spec_diag_add(spec_diags *d, spec_severity sev, const char *rule,
                   spec_loc loc, const char *fmt, ...)
{
	spec_diag *items = spec_grow(d->items, d->count + 1, &d->cap, sizeof *items, 16);
	if (!items)
		return false;
	d->items = items;
	va_list ap;
	va_start(ap, fmt);
	char *msg = spec_vstrdup_printf(fmt, ap);
	va_end(ap);
	if (!msg)
		return false;
	/* A diagnostic is one line: fold any newline an argument brought in. */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	/* The diagnostic owns a copy of its file name: it may outlive the
	 * model whose arena holds the original. */
	char *file = loc.file ? strdup(loc.file) : NULL;
	if (loc.file && !file) {
		free(msg);
		return false;
	}
	loc.file = file;
	d->items[d->count++] = (spec_diag){
		.severity = sev, .rule = rule, .loc = loc, .message = msg};
	return true;
}

void spec_diags_free(spec_diags *d)
{
	for (size_t i = 0; i < d->count; i++) {
		free(d->items[i].message);
		free((char *)d->items[i].loc.file);
	}
	free(d->items);
	*d = (spec_diags){0};
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_diag(const void *pa, const void *pb)
{
	const spec_diag *a = pa, *b = pb;
	int c = cmp_str(a->loc.file, b->loc.file);
	if (c)
		return c;
	if (a->loc.line != b->loc.line)
		return a->loc.line < b->loc.line ? -1 : 1;
	if (a->loc.col != b->loc.col)
		return a->loc.col < b->loc.col ? -1 : 1;
	c = strcmp(a->rule, b->rule);
	if (c)
		return c;
	return strcmp(a->message, b->message);
}

void spec_diags_sort(spec_diags *d)
{
	if (d->count > 1)
		qsort(d->items, d->count, sizeof(*d->items), cmp_diag);
}

const char *spec_severity_name(spec_severity s)
{
	switch (s) {
	case SPEC_WARNING: return "warning";
	case SPEC_ERROR: return "error";
	case SPEC_FATAL: return "fatal";
	}
	return "?";
}

/* Every rule, its default severity and what it means.  Severity FATAL:
 * the input is unusable (exit 2); the others are findings (exit 1). */
static const spec_rule rules[] = {
	{"io", SPEC_FATAL, "a file cannot be read"},
	{"file-too-large", SPEC_FATAL, "a file is larger than the 16 MiB limit"},
	{"xml-syntax", SPEC_FATAL, "the file is not well-formed XML"},
	{"xml-library", SPEC_FATAL, "the XML library (libxml2) cannot be loaded"},
	{"xml-dtd", SPEC_FATAL, "a DOCTYPE (and so any entity declaration) is present"},
	{"xml-depth", SPEC_FATAL, "elements are nested deeper than 64 levels"},
	{"too-many-elements", SPEC_FATAL, "more than a million elements"},
	{"too-many-attributes", SPEC_FATAL, "an element with more than 1024 attributes"},
	{"out-of-memory", SPEC_FATAL, "memory ran out (or a memory budget was exceeded) building the model or the codec"},
	{"not-isa", SPEC_FATAL, "the document element is not <isa>"},
	{"import-missing", SPEC_FATAL, "an imported file does not exist"},
	{"import-cycle", SPEC_FATAL, "files import each other in a cycle"},
	{"import-outside", SPEC_FATAL, "an import outside the top-level file's folder (and the folders named with --import-dir)"},
	{"import-limit", SPEC_FATAL, "more than 256 files are imported"},
	{"display-too-long", SPEC_FATAL, "a display longer than 64 KiB, or all displays longer than 64 MiB, once templates are spliced"},
	{"chain-too-deep", SPEC_FATAL, "a bitset more than 255 extends below its root"},
	{"import-repeated", SPEC_WARNING, "a file is imported twice"},
	{"unknown-element", SPEC_ERROR, "an element the dialect does not know here (Mesa ignores it)"},
	{"unknown-attribute", SPEC_ERROR, "an attribute the dialect does not know here (Mesa ignores it)"},
	{"unexpected-text", SPEC_WARNING, "text where the dialect expects none"},
	{"missing-attribute", SPEC_ERROR, "a required attribute is missing"},
	{"bad-number", SPEC_ERROR, "an attribute is not a valid number"},
	{"bad-range", SPEC_ERROR, "pos with low/high, neither, or low above high"},
	{"range-outside", SPEC_ERROR, "bits beyond the root's size"},
	{"size-invalid", SPEC_ERROR, "a root size of 0 or above 4096 bits"},
	{"size-and-extends", SPEC_ERROR, "a bitset with both size and extends, or neither"},
	{"extends-unknown", SPEC_ERROR, "extends names no bitset"},
	{"extends-variant", SPEC_ERROR, "extends names a bitset defined more than once"},
	{"extends-cycle", SPEC_ERROR, "bitsets extend each other in a cycle"},
	{"pattern-length", SPEC_ERROR, "pattern or assert text does not match its bit range"},
	{"pattern-char", SPEC_ERROR, "a pattern character other than 0, 1, x"},
	{"assert-char", SPEC_ERROR, "an assert character other than 0, 1"},
	{"bits-redefined", SPEC_ERROR, "a bitset defines the same bits twice"},
	{"bits-conflict", SPEC_ERROR, "a bitset redefines bits of an ancestor"},
	{"undefined-bits", SPEC_ERROR, "a leaf has bits that are neither pattern, field nor assert"},
	{"bitsize-multiple", SPEC_ERROR, "the largest root size is not a multiple of 32"},
	{"type-unknown", SPEC_ERROR, "a field type that is no builtin, enum or root"},
	{"float-width", SPEC_ERROR, "a float field that is not 16 or 32 bits wide"},
	{"bitset-field-size", SPEC_ERROR, "a bitset-typed field whose width differs from the root's size"},
	{"bitset-field-cycle", SPEC_WARNING, "roots whose bitset-typed fields (outside overrides) decode through each other"},
	{"bitset-field-not-root", SPEC_ERROR, "a field typed with a bitset that is not a root"},
	{"field-too-wide", SPEC_ERROR, "a field value wider than 64 bits"},
	{"expr-missing", SPEC_ERROR, "an override or derived field without exactly one expression"},
	{"expr-cycle", SPEC_WARNING, "a derived value that depends on itself (Mesa reads the loop as 0)"},
	{"expr-unknown", SPEC_ERROR, "expr= names no <expr>"},
	{"expr-syntax", SPEC_ERROR, "an expression does not parse"},
	{"gen-widen", SPEC_ERROR, "a child's gen range goes beyond its parent's"},
	{"gen-invalid", SPEC_ERROR, "a gen range with min above max"},
	{"override-pattern", SPEC_WARNING, "a <pattern> inside <override>, which is ignored"},
	{"override-overlap", SPEC_ERROR, "override fields overlapping each other or pattern bits"},
	{"ref-unknown", SPEC_ERROR, "a {NAME} in a display or expression that names nothing"},
	{"displayname-nonleaf", SPEC_WARNING, "a displayname on a bitset with children, never shown"},
	{"derived-width", SPEC_WARNING, "a signed derived field without width (sign-extended from 1 bit)"},
	{"display-missing", SPEC_ERROR, "a leaf with no display in itself or any ancestor"},
	{"display-not-invertible", SPEC_WARNING,
	 "(lint --displays) a leaf's text cannot be parsed back into its bits"},
	{"override-dead", SPEC_WARNING, "(prove --semantic) an <override> whose condition no word of any leaf below it makes true"},
	{"override-shadowed", SPEC_WARNING, "(prove --semantic) an <override> that holds but never decides its display or a field: a case looked at first always does"},
	{"enum-value-dead", SPEC_WARNING, "(prove --semantic) an enum value no field of that enum can hold in any word"},
	{"expr-overflow", SPEC_ERROR, "(prove --semantic) an expression overflows int64 for some word (undefined in Mesa's generated C)"},
	{"expr-divide-by-zero", SPEC_ERROR, "(prove --semantic) an expression divides or takes a remainder by zero for some word"},
	{"expr-shift-range", SPEC_ERROR, "(prove --semantic) an expression shifts by a count outside 0..63 for some word"},
	{"assert-never-holds", SPEC_WARNING, "(prove --semantic) an <assert> whose bits never hold their value in a word where its case holds"},
	{"derived-value-lost", SPEC_WARNING, "(prove --semantic) a derived value does not fit the width it is printed through, for some word"},
	{"display-same-text", SPEC_WARNING, "(prove --semantic) two words of a leaf decode to different values and print the same text"},
	{"roundtrip-lost", SPEC_WARNING, "(prove --semantic) a word of a leaf that encode(decode(w)) does not give back outside its don't-care bits, or that the encoder refuses"},
	{"semantic-unknown", SPEC_WARNING, "(prove --semantic) a meaning proof Z3 could not decide (an expression it cannot be given exactly, or a timeout)"},
	{"disasm-fails", SPEC_ERROR, "a leaf disasm cannot print: a word it matches gives no field, no display, a failed expression or too much text"},
	{"display-split-ambiguous", SPEC_WARNING, "two fields printed side by side can print one text two ways (asm cannot read it back)"},
	{"display-syntax", SPEC_ERROR, "an unterminated { or a bad :align= in a display"},
	{"expr-div-zero", SPEC_ERROR, "an expression that divides by a constant 0"},
	{"param-unknown", SPEC_ERROR, "a <param> naming nothing in the enclosing bitset, nor a <map> of its encoder"},
	/* the encoder side (encode_lint.c), as Mesa's encode.py reads it */
	{"encode-unmapped", SPEC_WARNING, "a field or value Mesa's encoder needs with no <map> to give it (encode.py warns and writes 0)"},
	{"encode-map-empty", SPEC_ERROR, "a <map> without an expression (Mesa's isa.py fails on it)"},
	{"encode-map-unused", SPEC_WARNING, "a <map> no leaf's encoder looks up (or under a root without <encode>)"},
	{"variant-gen-overlap", SPEC_ERROR, "same-named leaves whose gen ranges overlap"},
	{"enum-value-range", SPEC_WARNING, "an enum value that does not fit a field using the enum"},
	{"duplicate-enum-value", SPEC_ERROR, "an enum gives the same value twice"},
	{"duplicate-name", SPEC_ERROR, "an enum, expression, template or bitset defined twice"},
	/* program framing (frame.c, docs/framing.md) */
	{"frame-root-unknown", SPEC_ERROR, "a <part root> that names no root bitset"},
	{"frame-ref-unknown", SPEC_ERROR, "a framing expression or display naming no variable set before it"},
	{"frame-field-unknown", SPEC_ERROR, "an <export> naming no field or bitset of the part's root"},
	{"frame-size", SPEC_ERROR, "a framing size or position of 0, or beyond its limit"},
	{"frame-part-width", SPEC_ERROR, "a <part bits> wider than its root"},
	{"frame-loop", SPEC_ERROR, "a <repeat> to the end (or until count-at) whose body consumes nothing"},
	{"frame-repeat", SPEC_ERROR, "a <repeat> without count= or to-end, or with both"},
	{"frame-reject", SPEC_WARNING, "a <reject> without when=, which rejects every program"},
	{"frame-duplicate", SPEC_ERROR, "two <program>s with one name"},
	{"frame-depth", SPEC_ERROR, "<group>/<repeat> nested deeper than 16 levels"},
	{"frame-unexplained", SPEC_ERROR, "a <data unexplained> that gives no reason, or not one line of text"},
	{"frame-variant", SPEC_ERROR, "a <program extends> naming no earlier program, or holding more than <let>s of its base's variables"},
	{NULL, 0, NULL},
};

const spec_rule *spec_rules(void)
{
	return rules;
}

bool spec_rule_changes_matching(const char *id)
{
	static const char *const rules_of_matching[] = {
		/* an element or attribute ignored or missing, a number or
		 * range not read: perhaps a <pattern> or <gen> */
		"unknown-element", "unknown-attribute", "missing-attribute", "bad-number",
		"bad-range", "range-outside",
		/* roots and the bitset tree */
		"size-invalid", "size-and-extends", "extends-unknown", "extends-variant",
		"extends-cycle", "duplicate-name",
		/* patterns, and the bits a leaf pins */
		"pattern-length", "pattern-char", "bits-redefined", "bits-conflict",
		/* generations */
		"gen-widen", "gen-invalid",
	};
	for (size_t i = 0; i < sizeof rules_of_matching / sizeof *rules_of_matching; i++)
		if (!strcmp(rules_of_matching[i], id))
			return true;
	return false;
}

const spec_rule *spec_rule_find(const char *id)
{
	for (const spec_rule *r = rules; r->id; r++)
		if (!strcmp(r->id, id))
			return r;
	return NULL;
}
