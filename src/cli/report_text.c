/*
 * report_text.c - the text report of `isacheck prove` / `check`: one
 * finding per "file:line:col: severity: message [rule]" line, as lint
 * prints, each overlap followed by a picture of the bits of both leaves
 * and the witness, then the coverage of each root, then a summary.
 */
#include "cli.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

static void gen_text(spec_gen g, char *buf, size_t len)
{
	char r[48];
	format_gen(g, r, sizeof r);
	snprintf(buf, len, "gen %s", r);
}

/* One row of the bit picture, most significant bit first, a space every
 * 8 bits: 0/1 pinned by a pattern, x declared don't-care, . free. */
static void leaf_row(FILE *f, const spec_bitset *b, unsigned size)
{
	for (unsigned i = size; i-- > 0;) {
		char c = '.';
		if (spec_bit(b->dontcare, i))
			c = 'x';
		else if (spec_bit(b->mask, i))
			c = spec_bit(b->match, i) ? '1' : '0';
		fputc(c, f);
		if (i % 8 == 0 && i)
			fputc(' ', f);
	}
	fputc('\n', f);
}

static void word_row(FILE *f, const uint64_t *w, unsigned size)
{
	for (unsigned i = size; i-- > 0;) {
		fputc((w[i / 64] >> (i % 64)) & 1 ? '1' : '0', f);
		if (i % 8 == 0 && i)
			fputc(' ', f);
	}
	fputc('\n', f);
}

/* The ruler over the picture: the number of the top bit of each byte. */
static void ruler_row(FILE *f, unsigned size)
{
	for (unsigned i = size; i-- > 0;) {
		if (i % 8 == 7 || i == size - 1) {
			char num[12];
			int n = snprintf(num, sizeof num, "%u", i);
			fputs(num, f);
			unsigned pad = (i % 8) + 1 > (unsigned)n ? (i % 8) + 1 - (unsigned)n : 0;
			for (unsigned k = 0; k < pad; k++)
				fputc(' ', f);
			if (i >= 8)
				fputc(' ', f);
			i -= (i % 8);
			continue;
		}
	}
	fputc('\n', f);
}

static void print_overlap(FILE *f, const prove_overlap *o)
{
	unsigned size = o->root->bitset->size;
	char hex[1200], g[64], ga[64], gb[64];
	prove_format_hex(o->witness, size, hex, sizeof hex);
	gen_text(o->gen, g, sizeof g);
	gen_text(o->a->gen, ga, sizeof ga);
	gen_text(o->b->gen, gb, sizeof gb);
	const char *sev = o->unknown ? "warning" : o->allowed_by ? "note" : "error";
	if (o->unknown)
		fprintf(f, "%s:%u:%u: %s: the solver could not decide whether leaves '%s' and "
		        "'%s' of root '%s' overlap (%s) [%s]\n", o->a->loc.file, o->a->loc.line,
		        o->a->loc.col, sev, o->a->name, o->b->name, o->root->bitset->name, g,
		        RULE_UNKNOWN);
	else
		fprintf(f, "%s:%u:%u: %s: leaves '%s' and '%s' of root '%s' both match %s at %s%s [%s]\n",
		        o->a->loc.file, o->a->loc.line, o->a->loc.col, sev, o->a->name, o->b->name,
		        o->root->bitset->name, hex, g, o->allowed_by ? " (accepted)" : "", RULE_OVERLAP);
	if (o->allowed_by)
		fprintf(f, "  accepted by %s:%u%s%s\n", o->allowed_by->loc.file, o->allowed_by->loc.line,
		        o->allowed_by->reason ? ": " : "",
		        o->allowed_by->reason ? o->allowed_by->reason : "");
	size_t wa = strlen(o->a->name), wb = strlen(o->b->name), w = wa > wb ? wa : wb;
	if (w < 7)
		w = 7;
	fprintf(f, "  %-*s  %s:%u (%s)\n", (int)w, o->a->name, base_name(o->a->loc.file),
	        o->a->loc.line, ga);
	fprintf(f, "  %-*s  %s:%u (%s)\n", (int)w, o->b->name, base_name(o->b->loc.file),
	        o->b->loc.line, gb);
	if (o->unknown)
		return;
	fprintf(f, "  %-*s  ", (int)w, "bit");
	ruler_row(f, size);
	fprintf(f, "  %-*s  ", (int)w, o->a->name);
	leaf_row(f, o->a, size);
	fprintf(f, "  %-*s  ", (int)w, o->b->name);
	leaf_row(f, o->b, size);
	fprintf(f, "  %-*s  ", (int)w, "witness");
	word_row(f, o->witness, size);
}

static void print_accounting(FILE *f, const prove_accounting *a)
{
	unsigned size = a->leaf->size;
	char list[512];
	const spec_loc *l = &a->leaf->loc;
	if (a->unknown) {
		fprintf(f, "%s:%u:%u: warning: the solver could not decide the bits of leaf '%s' [%s]\n",
		        l->file, l->line, l->col, a->leaf->name, RULE_UNKNOWN);
		return;
	}
	bool any = false;
	for (unsigned k = 0; k < (size + 63) / 64; k++)
		any |= a->unaccounted[k] != 0;
	if (any) {
		prove_format_ranges(a->unaccounted, size, list, sizeof list);
		fprintf(f, "%s:%u:%u: error: leaf '%s' leaves bits %s unaccounted for: no pattern, "
		        "field or assert claims them [%s]\n", l->file, l->line, l->col,
		        a->leaf->name, list, RULE_UNACCOUNTED);
	}
	any = false;
	for (unsigned k = 0; k < (size + 63) / 64; k++)
		any |= a->doubly[k] != 0;
	if (any) {
		prove_format_ranges(a->doubly, size, list, sizeof list);
		fprintf(f, "%s:%u:%u: error: leaf '%s' claims bits %s more than once (with its "
		        "ancestors) [%s]\n", l->file, l->line, l->col, a->leaf->name, list, RULE_DOUBLY);
	}
}

static void print_coverage(FILE *f, const prove_result *pr)
{
	const spec_root *cur = NULL;
	for (size_t i = 0; i < pr->nintervals; i++) {
		const prove_interval *iv = &pr->intervals[i];
		unsigned size = iv->root->bitset->size;
		if (iv->root != cur) {
			cur = iv->root;
			fprintf(f, "coverage of root '%s' (%u bits, %zu leaves):\n", cur->bitset->name,
			        size, cur->nleaves);
		}
		char g[64], count[1400];
		gen_text(iv->gen, g, sizeof g);
		prove_count_format(&iv->undecoded, count, sizeof count);
		if (iv->budget)
			fprintf(f, "  %s: %zu live leaves; undecoded words not counted: the root's "
			        "coverage budget (%zu live leaves over its intervals) is spent "
			        "[unknown: coverage-limit]\n", g, iv->live_leaves, iv->budget_leaves);
		else if (iv->limit)
			fprintf(f, "  %s: %zu live leaves; undecoded words not counted: they need more "
			        "cubes than the limit [unknown: coverage-limit]\n", g, iv->live_leaves);
		else
			fprintf(f, "  %s: %zu live leaves; %s of 2^%u words decode to nothing (%.6g%%)%s\n",
			        g, iv->live_leaves, count, size, iv->fraction * 100,
			        iv->unknown ? " [unknown: the solver did not confirm]" : "");
		for (size_t h = 0; h < iv->nholes; h++) {
			char pat[SPEC_MAX_BITS + 1];
			prove_format_cube(&iv->holes[h], size, pat, sizeof pat);
			fprintf(f, "    hole %s  (2^%u words)\n", pat, iv->holes[h].free_bits);
		}
		if (iv->nholes && !iv->holes_exact)
			fputs("    (the largest holes found before the search's step limit: "
			      "a larger one may be missing)\n", f);
	}
}

/* The findings of the meaning proofs (prove --semantic), as against
 * lint's and the loader's. */
static bool is_meaning_rule(const char *rule)
{
	static const char *const rules[] = {"override-dead", "override-shadowed", "enum-value-dead",
	                                    "expr-overflow", "expr-divide-by-zero",
	                                    "expr-shift-range", "derived-value-lost",
	                                    "assert-never-holds", "display-same-text",
	                                    "roundtrip-lost"};
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
		if (!strcmp(rule, rules[i]))
			return true;
	return false;
}

void report_write_text(FILE *f, const report *r)
{
	size_t overlaps = 0, accepted = 0, accounting = 0, stale = 0, unknown = 0, lint = 0;
	size_t meaning = 0; /* prove --semantic's findings */
	if (r->allow_diags)
		for (size_t i = 0; i < r->allow_diags->count; i++)
			print_diag_text(f, &r->allow_diags->items[i]);
	for (size_t n = 0; n < r->nfiles; n++) {
		const report_file *rf = &r->files[n];
		for (size_t i = 0; i < rf->diags->count; i++)
			print_diag_text(f, &rf->diags->items[i]);
		for (size_t i = 0; i < rf->diags->count; i++) {
			const char *rule = rf->diags->items[i].rule;
			if (!strcmp(rule, "semantic-unknown"))
				unknown++;
			else if (is_meaning_rule(rule))
				meaning++;
			else
				lint++;
		}
		const prove_result *pr = rf->result;
		if (!pr)
			continue;
		for (size_t i = 0; i < pr->noverlaps; i++) {
			print_overlap(f, &pr->overlaps[i]);
			if (pr->overlaps[i].unknown)
				unknown++;
			else if (pr->overlaps[i].allowed_by)
				accepted++;
			else
				overlaps++;
		}
		for (size_t i = 0; i < pr->naccounting; i++) {
			print_accounting(f, &pr->accounting[i]);
			if (pr->accounting[i].unknown)
				unknown++;
			else
				accounting++;
		}
		for (size_t i = 0; i < pr->nstale; i++) {
			const prove_allow *a = pr->stale[i];
			fprintf(f, "%s:%u:%u: error: allowlist entry '%s' / '%s' matches no overlap in "
			        "%s: remove it [%s]\n", a->loc.file, a->loc.line, a->loc.col, a->a, a->b,
			        rf->path, RULE_STALE);
			stale++;
		}
		for (size_t i = 0; i < pr->nintervals; i++)
			unknown += pr->intervals[i].unknown;
		if (pr->out_of_time)
			fprintf(f, "%s: note: the run's Z3 time (--time-limit) was spent: the questions "
			        "not asked are unknown (%zu pairs of leaves never asked)\n", rf->path,
			        pr->not_asked);
		unknown += pr->not_asked;
		print_coverage(f, pr);
		if (rf->semantic)
			fprintf(f, "meaning of %s: %zu overrides: %zu selected and deciding all they "
			        "define (%zu of them by a decoded witness), %zu never selected, %zu not deciding something they define, %zu "
			        "unknown; %zu enum values: %zu never held, %zu unknown; %zu expressions: "
			        "%zu safe, %zu with a finding, %zu unknown; %zu asserts: %zu never hold, "
			        "%zu unknown (%zu shown to hold by a decoded witness); %zu leaves' texts: %zu give the word back, %zu shown not "
			        "to, %zu unknown; %zu leaves' round trips: %zu give every word back, %zu "
			        "shown not to, %zu unknown (%zu Z3 queries)\n",
			        rf->path, rf->semantic->cases, rf->semantic->live,
			        rf->semantic->live_by_decoder, rf->semantic->dead,
			        rf->semantic->shadowed, rf->semantic->unknown, rf->semantic->enum_values,
			        rf->semantic->enum_dead, rf->semantic->enum_unknown, rf->semantic->exprs,
			        rf->semantic->expr_safe, rf->semantic->expr_findings,
			        rf->semantic->expr_unknown, rf->semantic->asserts,
			        rf->semantic->asserts_never, rf->semantic->asserts_unknown,
			        rf->semantic->asserts_by_decoder,
			        rf->semantic->displays, rf->semantic->display_invertible,
			        rf->semantic->display_findings, rf->semantic->display_unknown,
			        rf->semantic->roundtrips, rf->semantic->roundtrip_kept,
			        rf->semantic->roundtrip_findings, rf->semantic->roundtrip_unknown,
			        rf->semantic->queries);
	}
	const char *verdict = r->exit_code == EXIT_CLEAN      ? "proved"
	                      : r->exit_code == EXIT_FINDINGS ? "findings"
	                      : r->exit_code == EXIT_UNKNOWN  ? "unknown"
	                                                      : "unusable input";
	char meanings[64] = "";
	if (meaning)
		snprintf(meanings, sizeof meanings, ", %zu meaning finding%s", meaning,
		         meaning == 1 ? "" : "s");
	fprintf(f, "isacheck %s: %s: %zu overlap%s (%zu accepted), %zu lea%s with unaccounted or "
	        "doubly claimed bits, %zu stale allowlist entr%s, %zu unknown, %zu %s finding%s%s "
	        "(%s engine)\n", r->command, verdict, overlaps, overlaps == 1 ? "" : "s", accepted,
	        accounting, accounting == 1 ? "f" : "ves", stale, stale == 1 ? "y" : "ies", unknown,
	        lint, !strcmp(r->command, "check") ? "lint" : "load", lint == 1 ? "" : "s",
	        meanings, r->engine == PROVE_ENGINE_Z3 ? "z3" : "cube");
}
