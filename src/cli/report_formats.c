/*
 * report_formats.c - the machine-readable reports of `isacheck prove` and
 * `isacheck check`: our own JSON (docs/prove.schema.json), SARIF 2.1.0 for
 * code-scanning services, and GitLab Code Quality.
 *
 * All three go through one walk (walk_file, walk_allowlist) that turns lint
 * diagnostics and proof results into uniform findings, so rule ids, levels,
 * messages and fingerprints are the same whichever format is asked for.
 */
#include "cli.h"
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ strings */

/* -------------------------------------------------------------- bits */

static bool mask_bit(const uint64_t *m, unsigned i)
{
	return (m[i / 64u] >> (i % 64u)) & 1u;
}

/* The set bits of a root-sized mask as ranges, "0..3, 7"; *count gets the
 * number of bits.  NULL when none is set or memory runs out. */
static char *bit_ranges(const uint64_t *mask, unsigned size, unsigned *count)
{
	*count = 0;
	if (!mask)
		return NULL;
	/* Each bit costs at most 6 bytes ("4095, "), a run "a..b, " at most 12
	 * for two bits or more. */
	size_t cap = (size_t)size * 6 + 16, used = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = 0;
	for (unsigned i = 0; i < size; i++) {
		if (!mask_bit(mask, i))
			continue;
		unsigned j = i;
		while (j + 1 < size && mask_bit(mask, j + 1))
			j++;
		int n = j == i ? snprintf(s + used, cap - used, "%s%u", used ? ", " : "", i)
		               : snprintf(s + used, cap - used, "%s%u..%u", used ? ", " : "", i, j);
		used += n > 0 ? (size_t)n : 0;
		*count += j - i + 1;
		i = j;
	}
	if (!*count) {
		free(s);
		return NULL;
	}
	return s;
}

static char *witness_hex(const uint64_t *w, unsigned size)
{
	size_t len = ((size_t)size + 31) / 32 * 9 + 16;
	char *s = w ? malloc(len) : NULL;
	if (s)
		prove_format_hex(w, size, s, len);
	return s;
}

static char *cube_text(const prove_cube *c, unsigned size)
{
	/* Room for separators too, should the pattern ever group its bits. */
	size_t len = (size_t)size * 2 + 16;
	char *s = malloc(len);
	if (s)
		prove_format_cube(c, size, s, len);
	return s;
}

/* ------------------------------------------------------ fingerprints */

/* FNV-1a 64 over the parts of a key, each closed by a NUL so that
 * ("ab", "c") and ("a", "bc") differ. */
static uint64_t fnv_part(uint64_t h, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
		h = (h ^ *p) * 0x100000001b3u;
	return h * 0x100000001b3u; /* h ^ 0 is h */
}

#define FNV_START 0xcbf29ce484222325u

/* Keys already seen in one report, with how often. */
typedef struct fp_seen {
	uint64_t *key;
	unsigned *count; /* 0: empty slot */
	size_t cap, used;
} fp_seen;

static bool fp_grow(fp_seen *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	uint64_t *key = calloc(cap, sizeof *key);
	unsigned *count = calloc(cap, sizeof *count);
	if (!key || !count) {
		free(key);
		free(count);
		return false;
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->count[i])
			continue;
		size_t j = (size_t)t->key[i] & (cap - 1);
		while (count[j])
			j = (j + 1) & (cap - 1);
		key[j] = t->key[i];
		count[j] = t->count[i];
	}
	free(t->key);
	free(t->count);
	t->key = key, t->count = count, t->cap = cap;
	return true;
}

/* Makes a key unique within one report.  Two findings can share one (two
 * per-generation variants of a leaf, one lint message twice in a file);
 * the k-th repeat hashes "#k" on top, which stays stable as long as their
 * order does, and services that deduplicate by fingerprint keep both. */
static uint64_t fp_unique(fp_seen *t, uint64_t h)
{
	if (t->used * 2 >= t->cap && !fp_grow(t))
		return h; /* out of memory: a repeat is better than nothing */
	size_t j = (size_t)h & (t->cap - 1);
	while (t->count[j] && t->key[j] != h)
		j = (j + 1) & (t->cap - 1);
	if (!t->count[j]) {
		t->key[j] = h;
		t->count[j] = 1;
		t->used++;
		return h;
	}
	char nth[24];
	snprintf(nth, sizeof nth, "#%u", t->count[j]++);
	return fnv_part(h, nth);
}

static void fp_free(fp_seen *t)
{
	free(t->key);
	free(t->count);
}

/* ----------------------------------------------------------- findings */

typedef enum finding_kind {
	FK_LINT,       /* a loading or lint diagnostic (or an allowlist problem) */
	FK_OVERLAP,    /* a prove_overlap, accepted or not, decided or not */
	FK_ACCOUNTING, /* one kind of bit of one prove_accounting entry */
	FK_COVERAGE,   /* an interval the solver could not decide */
	FK_STALE,      /* an allowlist entry that matched nothing */
} finding_kind;

static const char *const kind_names[] = {
	[FK_LINT] = "lint", [FK_OVERLAP] = "overlap", [FK_ACCOUNTING] = "accounting",
	[FK_COVERAGE] = "coverage", [FK_STALE] = "stale",
};

/* One finding, valid for the duration of a finding_fn call. */
typedef struct finding {
	finding_kind kind;
	const char *rule;
	const char *level;             /* "error", "warning" or "note" */
	const char *message;
	spec_loc loc;                  /* primary location */
	const spec_bitset *related;    /* FK_OVERLAP: the second leaf */
	uint64_t fingerprint;
	const spec_diag *diag;         /* FK_LINT */
	const prove_overlap *overlap;  /* FK_OVERLAP */
	const char *witness;           /* FK_OVERLAP: hex, or NULL */
	bool accepted;                 /* FK_OVERLAP: allowed_by is set */
	const spec_bitset *leaf;       /* FK_ACCOUNTING */
	const char *bits;              /* FK_ACCOUNTING: "0..3, 7"; NULL if unknown */
	unsigned nbits;
	const prove_interval *interval;/* FK_COVERAGE */
	const prove_allow *stale;      /* FK_STALE */
} finding;

typedef void finding_fn(const finding *fd, void *ctx);

typedef struct walker {
	fp_seen seen; /* over the whole report, so fingerprints are unique in it */
	finding_fn *fn;
	void *ctx;
} walker;

static void emit(walker *w, finding *fd, uint64_t key, char *message)
{
	/* Out of memory for the message: the rule id still says what it is. */
	fd->message = message ? message : fd->rule;
	fd->fingerprint = fp_unique(&w->seen, key);
	w->fn(fd, w->ctx);
	free(message);
}

/* The two names of a pair, sorted, so that the key does not depend on
 * which of them the prover or the allowlist happened to put first. */
static uint64_t fnv_pair(uint64_t h, const char *a, const char *b)
{
	bool swap = strcmp(a ? a : "", b ? b : "") > 0;
	return fnv_part(fnv_part(h, swap ? b : a), swap ? a : b);
}

static void walk_diags(walker *w, const spec_diags *diags, const char *fallback_file)
{
	for (size_t i = 0; diags && i < diags->count; i++) {
		const spec_diag *d = &diags->items[i];
		finding fd = {.kind = FK_LINT, .rule = d->rule, .diag = d, .loc = d->loc,
		              .level = d->severity == SPEC_WARNING ? "warning" : "error"};
		/* `isacheck diff` reports its changes as diff-* notes: information
		 * for review, not problems. */
		if (!strncmp(d->rule, "diff-", 5))
			fd.level = "note";
		if (!fd.loc.file)
			fd.loc.file = fallback_file;
		/* No line in the key: a finding must survive edits above it. */
		uint64_t key = fnv_part(fnv_part(fnv_part(FNV_START, d->rule),
		                                 base_name(fd.loc.file)), d->message);
		fd.message = d->message;
		fd.fingerprint = fp_unique(&w->seen, key);
		w->fn(&fd, w->ctx);
	}
}

static void walk_overlap(walker *w, const prove_overlap *ov)
{
	const spec_bitset *root = ov->a->root;
	char gen[48];
	format_gen(ov->gen, gen, sizeof gen);
	char *hex = witness_hex(ov->witness, root->size);
	finding fd = {.kind = FK_OVERLAP, .overlap = ov, .loc = ov->a->loc,
	              .related = ov->b, .witness = hex, .accepted = ov->allowed_by != NULL};
	fd.rule = ov->unknown ? RULE_UNKNOWN : RULE_OVERLAP;
	fd.level = fd.accepted ? "note" : ov->unknown ? "warning" : "error";
	char *msg = ov->unknown
		? spec_strdup_printf("the solver could not decide whether leaves '%s' and '%s' of root "
		          "'%s' overlap at gen %s", ov->a->name, ov->b->name, root->name, gen)
		: spec_strdup_printf("leaves '%s' and '%s' of root '%s' both match %s at gen %s",
		          ov->a->name, ov->b->name, root->name, hex ? hex : "?", gen);
	emit(w, &fd, fnv_pair(fnv_part(fnv_part(FNV_START, fd.rule), root->name),
	                      ov->a->name, ov->b->name), msg);
	free(hex);
}

/* One finding for one kind of bit (unaccounted or doubly claimed). */
static void walk_bits(walker *w, const prove_accounting *acc, const char *rule,
                      const uint64_t *mask)
{
	const spec_bitset *leaf = acc->leaf;
	finding fd = {.kind = FK_ACCOUNTING, .rule = rule, .level = "error",
	              .loc = leaf->loc, .leaf = leaf};
	char *bits = bit_ranges(mask, leaf->size, &fd.nbits);
	if (!fd.nbits)
		return;
	fd.bits = bits ? bits : "?";
	const char *noun = fd.nbits == 1 ? "bit" : "bits";
	char *msg = !strcmp(rule, RULE_UNACCOUNTED)
		? spec_strdup_printf("leaf '%s' leaves %s %s unaccounted: no pattern, field or assert of "
		          "it or its ancestors claims them", leaf->name, noun, fd.bits)
		: spec_strdup_printf("leaf '%s' claims %s %s more than once (pattern, field or assert of "
		          "it and its ancestors)", leaf->name, noun, fd.bits);
	emit(w, &fd, fnv_part(fnv_part(FNV_START, rule), leaf->name), msg);
	free(bits);
}

static void walk_accounting(walker *w, const prove_accounting *acc)
{
	if (!acc->unknown) {
		walk_bits(w, acc, RULE_UNACCOUNTED, acc->unaccounted);
		walk_bits(w, acc, RULE_DOUBLY, acc->doubly);
		return;
	}
	/* Undecided masks mean nothing: say so instead of listing them. */
	finding fd = {.kind = FK_ACCOUNTING, .rule = RULE_UNKNOWN, .level = "warning",
	              .loc = acc->leaf->loc, .leaf = acc->leaf};
	char *msg = spec_strdup_printf("the solver could not decide the bit accounting of leaf '%s'",
	                    acc->leaf->name);
	emit(w, &fd, fnv_part(fnv_part(fnv_part(FNV_START, RULE_UNKNOWN), "accounting"),
	                      acc->leaf->name), msg);
}

/* Coverage is data, not a finding, except when it could not be decided:
 * then exit code 3 needs a result that says why. */
static void walk_interval(walker *w, const prove_interval *iv)
{
	if (!iv->unknown)
		return;
	const spec_bitset *root = iv->root->bitset;
	char gen[48];
	format_gen(iv->gen, gen, sizeof gen);
	finding fd = {.kind = FK_COVERAGE, .rule = RULE_UNKNOWN, .level = "warning",
	              .loc = root->loc, .interval = iv};
	char *msg = iv->budget
	                    ? spec_strdup_printf("the coverage of root '%s' at gen %s is not computed: "
	                              "the root's coverage budget (%zu live leaves over its "
	                              "intervals) is spent (coverage-limit)",
	                              root->name, gen, iv->budget_leaves)
	            : iv->limit
	                    ? spec_strdup_printf("the undecoded words of root '%s' at gen %s need more cubes "
	                              "than the cube engine's limit: not counted (coverage-limit)",
	                              root->name, gen)
	                    : spec_strdup_printf("the solver could not decide the coverage of root '%s' at gen %s",
	                              root->name, gen);
	emit(w, &fd, fnv_part(fnv_part(fnv_part(fnv_part(FNV_START, RULE_UNKNOWN), "coverage"),
	                               root->name), gen), msg);
}

static void walk_stale(walker *w, const prove_allow *a)
{
	char gen[48];
	format_gen(a->gen, gen, sizeof gen);
	bool any_gen = a->gen.min == 0 && a->gen.max == UINT32_MAX;
	char *where = a->root ? spec_strdup_printf(" (root '%s', gen %s)", a->root, gen)
	              : !any_gen ? spec_strdup_printf(" (gen %s)", gen) : NULL;
	finding fd = {.kind = FK_STALE, .rule = RULE_STALE, .level = "error", .loc = a->loc,
	              .stale = a};
	char *msg = spec_strdup_printf("allowlist entry for '%s' and '%s'%s accepts no overlap: remove it",
	                    a->a, a->b, where ? where : "");
	emit(w, &fd, fnv_pair(fnv_part(fnv_part(FNV_START, RULE_STALE), a->root), a->a, a->b),
	     msg);
	free(where);
}

/* Every finding of one file: lint diagnostics, then overlaps, accounting,
 * stale entries and undecided coverage, each in result order. */
static void walk_file(walker *w, const report_file *rf)
{
	walk_diags(w, rf->diags, rf->path);
	const prove_result *res = rf->model ? rf->result : NULL;
	if (!res)
		return;
	for (size_t i = 0; i < res->noverlaps; i++)
		walk_overlap(w, &res->overlaps[i]);
	for (size_t i = 0; i < res->naccounting; i++)
		walk_accounting(w, &res->accounting[i]);
	for (size_t i = 0; i < res->nstale; i++)
		walk_stale(w, res->stale[i]);
	for (size_t i = 0; i < res->nintervals; i++)
		walk_interval(w, &res->intervals[i]);
}

static void walk_allowlist(walker *w, const report *r)
{
	if (r->allow_path)
		walk_diags(w, r->allow_diags, r->allow_path);
}

static void walk_report(walker *w, const report *r)
{
	for (size_t i = 0; i < r->nfiles; i++)
		walk_file(w, &r->files[i]);
	walk_allowlist(w, r);
}

/* --------------------------------------------------------------- JSON */

typedef struct json_counts {
	size_t overlaps, accepted, unaccounted, doubly, stale, unknown;
} json_counts;

typedef struct json_ctx {
	FILE *f;
	size_t shown; /* findings written in the current file */
	json_counts n;
} json_ctx;

static void json_count(json_counts *n, const finding *fd)
{
	if (fd->kind == FK_OVERLAP && fd->accepted)
		n->accepted++;
	else if (!strcmp(fd->rule, RULE_UNKNOWN))
		n->unknown++;
	else if (fd->kind == FK_OVERLAP)
		n->overlaps++;
	else if (!strcmp(fd->rule, RULE_UNACCOUNTED))
		n->unaccounted++;
	else if (!strcmp(fd->rule, RULE_DOUBLY))
		n->doubly++;
	else if (fd->kind == FK_STALE)
		n->stale++;
}

static void json_leaf(FILE *f, const spec_bitset *b)
{
	fputs("{\"name\":", f);
	json_string(f, b->name);
	fputs(",\"gen\":", f);
	json_gen(f, b->gen);
	fputc('}', f);
}

static void json_loc(FILE *f, spec_loc loc)
{
	fputs("\"file\":", f);
	json_string(f, loc.file);
	fprintf(f, ",\"line\":%u,\"column\":%u", loc.line, loc.col);
}

static void json_overlap_data(FILE *f, const finding *fd)
{
	const prove_overlap *ov = fd->overlap;
	fputs(",\"root\":", f);
	json_string(f, ov->a->root->name);
	fputs(",\"leaves\":[", f);
	json_leaf(f, ov->a);
	fputc(',', f);
	json_leaf(f, ov->b);
	fputs("],\"gen\":", f);
	json_gen(f, ov->gen);
	fputs(",\"witness\":", f);
	json_string_or_null(f, fd->witness);
	fprintf(f, ",\"accepted\":%s", fd->accepted ? "true" : "false");
	if (fd->accepted) {
		const prove_allow *a = ov->allowed_by;
		fputs(",\"allowlist\":{", f);
		json_loc(f, a->loc);
		fputs(",\"reason\":", f);
		json_string_or_null(f, a->reason);
		fputc('}', f);
	}
}

static void json_finding(const finding *fd, void *vctx)
{
	json_ctx *x = vctx;
	FILE *f = x->f;
	if (fd->kind == FK_LINT)
		return; /* already under "diagnostics" */
	json_count(&x->n, fd);
	fputs(x->shown++ ? ",\n  {\"kind\":" : "\n  {\"kind\":", f);
	json_string(f, kind_names[fd->kind]);
	fputs(",\"rule\":", f);
	json_string(f, fd->rule);
	fputs(",\"severity\":", f);
	json_string(f, fd->level);
	fputs(",\"message\":", f);
	json_string(f, fd->message);
	fputc(',', f);
	json_loc(f, fd->loc);
	if (fd->related) {
		fputs(",\"related\":[{", f);
		json_loc(f, fd->related->loc);
		fputs("}]", f);
	}
	fprintf(f, ",\"fingerprint\":\"%016" PRIx64 "\"", fd->fingerprint);
	switch (fd->kind) {
	case FK_OVERLAP:
		json_overlap_data(f, fd);
		break;
	case FK_ACCOUNTING:
		fputs(",\"root\":", f);
		json_string(f, fd->leaf->root->name);
		fputs(",\"leaf\":", f);
		json_leaf(f, fd->leaf);
		if (fd->bits) {
			fputs(",\"bits\":", f);
			json_string(f, fd->bits);
			fprintf(f, ",\"count\":%u", fd->nbits);
		}
		break;
	case FK_COVERAGE:
		fputs(",\"root\":", f);
		json_string(f, fd->interval->root->bitset->name);
		fputs(",\"gen\":", f);
		json_gen(f, fd->interval->gen);
		break;
	case FK_STALE:
		fputs(",\"entry\":{\"a\":", f);
		json_string(f, fd->stale->a);
		fputs(",\"b\":", f);
		json_string(f, fd->stale->b);
		fputs(",\"root\":", f);
		json_string_or_null(f, fd->stale->root);
		fputs(",\"gen\":", f);
		json_gen(f, fd->stale->gen);
		fputs(",\"reason\":", f);
		json_string_or_null(f, fd->stale->reason);
		fputc('}', f);
		break;
	case FK_LINT:
		break;
	}
	fputc('}', f);
}

static void json_interval(FILE *f, const prove_interval *iv)
{
	const spec_bitset *root = iv->root->bitset;
	char count[1400];
	prove_count_format(&iv->undecoded, count, sizeof count);
	fputs("{\"root\":", f);
	json_string(f, root->name);
	fprintf(f, ",\"size\":%u,\"gen\":", root->size);
	json_gen(f, iv->gen);
	fprintf(f, ",\"live_leaves\":%zu,\"undecoded\":", iv->live_leaves);
	json_string(f, count);
	/* JSON has no NaN or infinity; a fraction is within 0..1 anyway. */
	fprintf(f, ",\"fraction\":%.9g,\"unknown\":%s,\"limit\":%s,\"budget\":%s,"
	        "\"holes_exact\":%s,\"holes\":[", isfinite(iv->fraction) ? iv->fraction : 0.0,
	        iv->unknown ? "true" : "false", iv->limit ? "true" : "false",
	        iv->budget ? "true" : "false",
	        iv->holes_exact ? "true" : "false");
	for (size_t i = 0; i < iv->nholes; i++) {
		char *pattern = cube_text(&iv->holes[i], root->size);
		fputs(i ? ",{\"pattern\":" : "{\"pattern\":", f);
		json_string(f, pattern ? pattern : "?");
		fprintf(f, ",\"free_bits\":%u}", iv->holes[i].free_bits);
		free(pattern);
	}
	fputs("]}", f);
}

static void json_diag_list(FILE *f, const spec_diags *diags, size_t *errors, size_t *warnings)
{
	fputs("\"diagnostics\":[", f);
	for (size_t i = 0; diags && i < diags->count; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		print_diag_json(f, &diags->items[i]);
		if (diags->items[i].severity == SPEC_WARNING)
			++*warnings;
		else
			++*errors;
	}
	fputc(']', f);
}

static void json_file(FILE *f, walker *w, json_ctx *x, const report_file *rf,
                      size_t *lint_errors, size_t *lint_warnings)
{
	const prove_result *res = rf->model ? rf->result : NULL;
	fputs("{\"path\":", f);
	json_string(f, rf->path);
	fprintf(f, ",\"loaded\":%s,", rf->model ? "true" : "false");
	if (res)
		fprintf(f, "\"queries\":%zu,\"out_of_time\":%s,\"not_asked\":%zu,", res->queries,
		        res->out_of_time ? "true" : "false", res->not_asked);
	json_diag_list(f, rf->diags, lint_errors, lint_warnings);
	fputs(",\"findings\":[", f);
	x->shown = 0;
	walk_file(w, rf);
	fputs("],\"coverage\":[", f);
	for (size_t i = 0; res && i < res->nintervals; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		json_interval(f, &res->intervals[i]);
	}
	fputs("]}", f);
}

void report_write_json(FILE *f, const report *r)
{
	json_ctx x = {.f = f};
	walker w = {.fn = json_finding, .ctx = &x};
	size_t lint_errors = 0, lint_warnings = 0, allow_errors = 0, allow_warnings = 0;
	fputs("{\"version\":1,\"tool\":\"isacheck\",\"command\":", f);
	json_string(f, r->command);
	fprintf(f, ",\"engine\":\"%s\",\"files\":[",
	        r->engine == PROVE_ENGINE_Z3 ? "z3" : "cube");
	for (size_t i = 0; i < r->nfiles; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_file(f, &w, &x, &r->files[i], &lint_errors, &lint_warnings);
	}
	fputs("\n]", f);
	if (r->allow_path) {
		fputs(",\"allowlist\":{\"path\":", f);
		json_string(f, r->allow_path);
		if (r->allow)
			fprintf(f, ",\"entries\":%zu", r->allow->count);
		fputc(',', f);
		json_diag_list(f, r->allow_diags, &allow_errors, &allow_warnings);
		fputc('}', f);
	}
	fprintf(f, ",\"summary\":{\"overlaps\":%zu,\"accepted\":%zu,\"unaccounted\":%zu,"
	        "\"doubly\":%zu,\"stale\":%zu,\"unknown\":%zu,\"lint_errors\":%zu,"
	        "\"lint_warnings\":%zu,\"allowlist_problems\":%zu},\"exit_code\":%d}\n",
	        x.n.overlaps, x.n.accepted, x.n.unaccounted, x.n.doubly, x.n.stale, x.n.unknown,
	        lint_errors, lint_warnings, allow_errors + allow_warnings, r->exit_code);
	fp_free(&w.seen);
}

/* -------------------------------------------------------------- SARIF */

/* What the proof rules mean, for SARIF's rule table; lint rules take theirs
 * from spec_rules(). */
static const struct {
	const char *id, *level, *summary;
} proof_rules[] = {
	{RULE_OVERLAP, "error", "two leaves of one root match the same instruction word "
	                        "at a generation where both live"},
	{RULE_UNACCOUNTED, "error", "a leaf bit that no pattern, field or assert claims"},
	{RULE_DOUBLY, "error", "a leaf bit claimed more than once"},
	{RULE_STALE, "error", "an allowlist entry that accepts no overlap"},
	{RULE_UNKNOWN, "warning", "the solver could not decide a proof (timeout or "
	                          "resource limit)"},
	/* Reported by the allowlist parser in src/check, not in spec_rules(). */
	{"allowlist-syntax", "error", "a line of the allowlist file that does not parse"},
	{RULE_DIFF_LEAF, "note", "a leaf added, removed, renamed, or with other pattern bits "
	                         "or generations (isacheck diff)"},
	{RULE_DIFF_FIELD, "note", "a field of a leaf that reads other bits or another type "
	                          "(isacheck diff)"},
	{RULE_DIFF_DECODING, "note", "words whose decoding changes (isacheck diff)"},
	{RULE_DIFF_DISPLAY, "note", "a leaf that prints differently (isacheck diff)"},
};

/* The rule ids a report uses, in order of first use: ruleIndex points here. */
typedef struct rule_list {
	const char **ids;
	size_t n, cap;
} rule_list;

static size_t rule_index(const rule_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->ids[i], id))
			return i;
	return SIZE_MAX;
}

static void collect_rule(const finding *fd, void *vctx)
{
	rule_list *l = vctx;
	if (rule_index(l, fd->rule) != SIZE_MAX)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		const char **ids = realloc(l->ids, cap * sizeof *ids);
		if (!ids)
			return; /* its results then go without ruleIndex */
		l->ids = ids, l->cap = cap;
	}
	l->ids[l->n++] = fd->rule;
}

static void sarif_rule(FILE *f, const char *id)
{
	const char *summary = id, *level = "error";
	const spec_rule *sr = spec_rule_find(id);
	if (sr) {
		summary = sr->summary;
		level = sr->severity == SPEC_WARNING ? "warning" : "error";
	}
	for (size_t i = 0; i < sizeof proof_rules / sizeof proof_rules[0]; i++)
		if (!strcmp(proof_rules[i].id, id))
			summary = proof_rules[i].summary, level = proof_rules[i].level;
	fputs("{\"id\":", f);
	json_string(f, id);
	fputs(",\"shortDescription\":{\"text\":", f);
	json_string(f, summary);
	fprintf(f, "},\"defaultConfiguration\":{\"level\":\"%s\"}}", level);
}

/* A path as a URI reference: percent-encoded where a URI needs it, kept
 * relative when it is (resolved against %SRCROOT% by the consumer), and a
 * file:// URI when absolute. */
static void sarif_uri(FILE *f, const char *path)
{
	static const char keep[] = "-._~/!$&'()*+,;=@";
	size_t len = strlen(path);
	char *s = malloc(len * 3 + 8), *o = s;
	if (!s) {
		json_string(f, path);
		return;
	}
	if (path[0] == '/')
		o += sprintf(o, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(keep, *p))
			*o++ = (char)*p;
		else
			o += sprintf(o, "%%%02X", *p);
	}
	*o = 0;
	json_string(f, s);
	free(s);
}

static void sarif_physical(FILE *f, spec_loc loc)
{
	const char *file = loc.file ? loc.file : "";
	fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", f);
	sarif_uri(f, file);
	if (file[0] != '/')
		fputs(",\"uriBaseId\":\"%SRCROOT%\"", f);
	fputc('}', f);
	if (loc.line) {
		fprintf(f, ",\"region\":{\"startLine\":%u", loc.line);
		if (loc.col)
			fprintf(f, ",\"startColumn\":%u", loc.col);
		fputc('}', f);
	}
	fputc('}', f);
}

static void sarif_properties(FILE *f, const finding *fd)
{
	switch (fd->kind) {
	case FK_OVERLAP:
		fputs(",\"properties\":{\"root\":", f);
		json_string(f, fd->overlap->a->root->name);
		fputs(",\"gen\":", f);
		json_gen(f, fd->overlap->gen);
		fputs(",\"witness\":", f);
		json_string_or_null(f, fd->witness);
		fputs(",\"leaves\":[", f);
		json_leaf(f, fd->overlap->a);
		fputc(',', f);
		json_leaf(f, fd->overlap->b);
		fputs("]}", f);
		break;
	case FK_ACCOUNTING:
		fputs(",\"properties\":{\"root\":", f);
		json_string(f, fd->leaf->root->name);
		fputs(",\"leaf\":", f);
		json_leaf(f, fd->leaf);
		if (fd->bits) {
			fputs(",\"bits\":", f);
			json_string(f, fd->bits);
		}
		fputc('}', f);
		break;
	case FK_COVERAGE:
		fputs(",\"properties\":{\"root\":", f);
		json_string(f, fd->interval->root->bitset->name);
		fputs(",\"gen\":", f);
		json_gen(f, fd->interval->gen);
		fputc('}', f);
		break;
	case FK_STALE:
	case FK_LINT:
		break;
	}
}

static void sarif_suppression(FILE *f, const prove_allow *a)
{
	char fallback[64];
	snprintf(fallback, sizeof fallback, "listed in the allowlist, line %u", a->loc.line);
	fputs(",\"suppressions\":[{\"kind\":\"external\",\"justification\":", f);
	json_string(f, a->reason ? a->reason : fallback);
	fputs(",\"location\":{", f);
	sarif_physical(f, a->loc);
	fputs("}}]", f);
}

typedef struct sarif_ctx {
	FILE *f;
	const rule_list *rules;
	size_t shown;
} sarif_ctx;

static void sarif_result(const finding *fd, void *vctx)
{
	sarif_ctx *x = vctx;
	FILE *f = x->f;
	fputs(x->shown++ ? ",\n{\"ruleId\":" : "\n{\"ruleId\":", f);
	json_string(f, fd->rule);
	size_t idx = rule_index(x->rules, fd->rule);
	if (idx != SIZE_MAX)
		fprintf(f, ",\"ruleIndex\":%zu", idx);
	fprintf(f, ",\"level\":\"%s\",\"message\":{\"text\":", fd->level);
	json_string(f, fd->message);
	fputs("},\"locations\":[{", f);
	sarif_physical(f, fd->loc);
	fputs("}]", f);
	if (fd->related) {
		char *what = spec_strdup_printf("leaf '%s'", fd->related->name);
		fputs(",\"relatedLocations\":[{\"id\":1,\"message\":{\"text\":", f);
		json_string(f, what ? what : fd->related->name);
		fputs("},", f);
		sarif_physical(f, fd->related->loc);
		fputs("}]", f);
		free(what);
	}
	fprintf(f, ",\"partialFingerprints\":{\"isacheck/v1\":\"%016" PRIx64 "\"}",
	        fd->fingerprint);
	sarif_properties(f, fd);
	if (fd->accepted)
		sarif_suppression(f, fd->overlap->allowed_by);
	fputc('}', f);
}

void report_write_sarif(FILE *f, const report *r)
{
	rule_list rules = {0};
	walker pre = {.fn = collect_rule, .ctx = &rules};
	walk_report(&pre, r);
	fp_free(&pre.seen);

	fputs("{\"$schema\":\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
	      "schemas/sarif-schema-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
	      "\"tool\":{\"driver\":{\"name\":\"isacheck\",\"version\":", f);
	json_string(f, ISACHECK_VERSION);
	fputs(",\"rules\":[", f);
	for (size_t i = 0; i < rules.n; i++) {
		fputs(i ? ",\n" : "\n", f);
		sarif_rule(f, rules.ids[i]);
	}
	/* Unusable input or bad usage is a failed run; findings and unknowns
	 * are a run that did its job. */
	fprintf(f, "]}},\"invocations\":[{\"executionSuccessful\":%s,\"exitCode\":%d}],"
	        "\"results\":[", r->exit_code == EXIT_UNUSABLE ? "false" : "true", r->exit_code);
	sarif_ctx x = {.f = f, .rules = &rules};
	walker w = {.fn = sarif_result, .ctx = &x};
	walk_report(&w, r);
	fputs("\n]}]}\n", f);
	fp_free(&w.seen);
	free(rules.ids);
}

/* ------------------------------------------------- GitLab Code Quality */

typedef struct cq_ctx {
	FILE *f;
	size_t shown;
} cq_ctx;

static void cq_issue(const finding *fd, void *vctx)
{
	cq_ctx *x = vctx;
	FILE *f = x->f;
	/* GitLab has no notion of a suppressed issue: an accepted overlap
	 * would show as an open one, so it is left out.  The walk still sees
	 * it, keeping every other fingerprint the same as in SARIF. */
	if (fd->accepted)
		return;
	const char *severity = !strcmp(fd->level, "error")     ? "major"
	                       : !strcmp(fd->level, "warning") ? "minor"
	                                                       : "info";
	fputs(x->shown++ ? ",\n{\"description\":" : "\n{\"description\":", f);
	json_string(f, fd->message);
	fputs(",\"check_name\":", f);
	json_string(f, fd->rule);
	fprintf(f, ",\"fingerprint\":\"%016" PRIx64 "\",\"severity\":\"%s\",\"location\":{"
	        "\"path\":", fd->fingerprint, severity);
	json_string(f, fd->loc.file ? fd->loc.file : "");
	/* GitLab needs a line; a whole-file finding goes on the first. */
	fprintf(f, ",\"lines\":{\"begin\":%u}}}", fd->loc.line ? fd->loc.line : 1u);
}

void report_write_codequality(FILE *f, const report *r)
{
	cq_ctx x = {.f = f};
	walker w = {.fn = cq_issue, .ctx = &x};
	fputc('[', f);
	walk_report(&w, r);
	fputs(x.shown ? "\n]\n" : "]\n", f);
	fp_free(&w.seen);
}
