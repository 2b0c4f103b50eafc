/*
 * triage_report.c - the text summary and the JSON results of
 * `isacheck triage` (docs/triage.md, docs/triage.schema.json).
 *
 * Bit pictures are most significant bit first, a space every 8 bits, as
 * `isacheck prove` draws them: 0/1 a pattern bit, x declared don't-care,
 * . a field bit, ? a reserved bit (nothing accounts for it); under them
 * ^ marks each unexplained bit.
 */
#include "cli.h"
#include "triage_report.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WORDS (SPEC_MAX_BITS / 64u)

static bool bit_of(const uint64_t *w, unsigned i)
{
	return (w[i / 64] >> (i % 64)) & 1;
}

/* High 32-bit word first, '_' between words, as isacheck prints witnesses. */
static void fmt_hex(const uint64_t *w, unsigned size, char *buf, size_t len)
{
	unsigned n32 = (size + 31) / 32;
	size_t o = 0;
	buf[0] = 0;
	for (unsigned k = n32; k-- > 0 && o + 10 < len;)
		o += (size_t)snprintf(buf + o, len - o, "%s%08x", k + 1 < n32 ? "_" : "",
		                      (uint32_t)(w[k / 2] >> (32 * (k % 2))));
}

/* "3, 12-15, 44": the set bits, runs joined. */
static void bit_list(const uint64_t *w, unsigned size, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < size && o + 24 < len; i++) {
		if (!bit_of(w, i))
			continue;
		unsigned j = i;
		while (j + 1 < size && bit_of(w, j + 1))
			j++;
		if (j == i)
			o += (size_t)snprintf(buf + o, len - o, "%s%u", o ? ", " : "", i);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%u-%u", o ? ", " : "", i, j);
		i = j;
	}
}

static unsigned count_bits(const uint64_t *w, unsigned nw)
{
	unsigned n = 0;
	for (unsigned k = 0; k < nw; k++)
		n += (unsigned)__builtin_popcountll(w[k]);
	return n;
}

/* The leaf's picture: one char per bit, bit size-1 first, no spaces. */
static void leaf_pattern(const spec_bitset *b, char *out)
{
	uint64_t res[MAX_WORDS];
	unsigned nw = (b->size + 63) / 64;
	triage_reserved_bits(b, res, nw);
	for (unsigned i = b->size, o = 0; i-- > 0; o++) {
		char c = '.';
		if (spec_bit(b->dontcare, i))
			c = 'x';
		else if (spec_bit(b->mask, i))
			c = spec_bit(b->match, i) ? '1' : '0';
		else if (bit_of(res, i))
			c = '?';
		out[o] = c;
	}
	out[b->size] = 0;
}

static void spaced(FILE *f, const char *row, unsigned size)
{
	for (unsigned o = 0; o < size; o++) {
		unsigned i = size - 1 - o;
		fputc(row[o], f);
		if (i % 8 == 0 && i)
			fputc(' ', f);
	}
	fputc('\n', f);
}

static void ruler(FILE *f, unsigned size)
{
	char row[SPEC_MAX_BITS + 1];
	memset(row, ' ', size);
	row[size] = 0;
	for (unsigned i = size; i-- > 0;)
		if (i % 8 == 7 || i == size - 1) {
			char num[12];
			int n = snprintf(num, sizeof num, "%u", i);
			unsigned o = size - 1 - i;
			for (int k = 0; k < n && o + (unsigned)k < size; k++)
				row[o + (unsigned)k] = num[k];
		}
	/* a number may run into the next byte's gap: the spacing keeps it readable */
	spaced(f, row, size);
}

static void word_row(FILE *f, const uint64_t *w, unsigned size, const uint64_t *marks)
{
	char row[SPEC_MAX_BITS + 1];
	for (unsigned i = size, o = 0; i-- > 0; o++)
		row[o] = marks ? (bit_of(marks, i) ? '^' : ' ') : (bit_of(w, i) ? '1' : '0');
	row[size] = 0;
	spaced(f, row, size);
}

static void origin_text(const triage *t, const triage_origin *o, char *buf, size_t len)
{
	if (o->source < 0)
		snprintf(buf, len, "-");
	else if (o->is_line)
		snprintf(buf, len, "%s:%llu", triage_source_name(t, o->source),
		         (unsigned long long)o->pos);
	else
		snprintf(buf, len, "%s+0x%llx", triage_source_name(t, o->source),
		         (unsigned long long)o->pos);
}

static void kinds_text(unsigned kinds, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (unsigned k = 0; k < TRIAGE_NKINDS; k++)
		if (kinds >> k & 1)
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "+" : "",
			                      triage_kind_name((triage_kind)k));
}

static const char *kind_title(triage_kind k)
{
	static const char *const t[TRIAGE_NKINDS] = {
		"no match", "ambiguous", "don't-care bits set", "reserved bits set",
		"assert mismatch", "enum value not named", "unexplained data",
		"spec problem (not counted)",
	};
	return t[k];
}

/* ---------------------------------------------------------------- text */

static void text_cluster(FILE *f, const triage *t, const triage_cluster *c)
{
	unsigned size = c->root->bitset->size;
	char kinds[160], bits[1024], hex[SPEC_MAX_BITS / 4 + 80], where[1200];
	kinds_text(c->kinds, kinds, sizeof kinds);
	fprintf(f, "#%zu  %zu instruction%s  %s", c->id, c->count, c->count == 1 ? "" : "s", kinds);
	if (c->leaf) {
		bit_list(c->mask, size, bits, sizeof bits);
		fprintf(f, " in '%s'", c->leaf->name);
		if (*bits)
			fprintf(f, ": bit%s %s", count_bits(c->mask, c->nwords) == 1 ? "" : "s", bits);
	} else if (c->matches[0]) {
		fprintf(f, ": '%s' and '%s' both match", c->matches[0]->name, c->matches[1]->name);
	}
	fprintf(f, " (gen %u)\n", c->gen);
	for (size_t i = 0; i < c->nnearest; i++) {
		bit_list(c->nearest[i].diff, size, bits, sizeof bits);
		fprintf(f, "    nearest '%s' (%s:%u): %u bit%s differ: %s\n", c->nearest[i].leaf->name,
		        base_name(c->nearest[i].leaf->loc.file), c->nearest[i].leaf->loc.line,
		        c->nearest[i].distance, c->nearest[i].distance == 1 ? "" : "s", bits);
	}
	if (c->nearest_ties > c->nnearest)
		fprintf(f, "    ... and %zu more leaves at that distance\n",
		        c->nearest_ties - c->nnearest);
	if (!c->nnearest && !c->leaf && !c->matches[0])
		fprintf(f, "    no leaf of '%s' exists at gen %u\n", c->root->bitset->name, c->gen);
	for (size_t i = 0; i < c->ndetails; i++)
		fprintf(f, "    %s: %s\n", triage_kind_name(c->details[i].kind), c->details[i].text);
	for (size_t i = 0; i < c->nexamples; i++) {
		origin_text(t, &c->examples[i].origin, where, sizeof where);
		fmt_hex(c->examples[i].w, size, hex, sizeof hex);
		fprintf(f, "    e.g. %s  %s\n", where, hex);
	}
	/* the picture: the leaf (or the nearest) over the first example */
	const spec_bitset *b = c->leaf ? c->leaf : c->nnearest ? c->nearest[0].leaf : NULL;
	if (!b || !c->nexamples || size > 128)
		return;
	const char *name = b->name;
	int w = (int)strlen(name) < 8 ? 8 : (int)strlen(name);
	char pat[SPEC_MAX_BITS + 1];
	leaf_pattern(b, pat);
	fprintf(f, "      %-*s  ", w, "bit");
	ruler(f, size);
	fprintf(f, "      %-*s  ", w, name);
	spaced(f, pat, size);
	fprintf(f, "      %-*s  ", w, "word");
	word_row(f, c->examples[0].w, size, NULL);
	fprintf(f, "      %-*s  ", w, c->leaf ? "unexpl." : "differ");
	word_row(f, NULL, size, c->leaf ? c->mask : c->nearest[0].diff);
}

/* Bit numbers whose count of ones is exactly all (all == SIZE_MAX: is
 * neither 0 nor every item's), as bit_list writes them. */
static void ones_list(const triage_data_cluster *d, size_t all, char *buf, size_t len)
{
	uint64_t sel[MAX_WORDS] = {0};
	for (unsigned i = 0; i < d->bits; i++) {
		uint64_t n = d->ones[i];
		if (all == SIZE_MAX ? n && n < d->count : n == all)
			sel[i / 64] |= (uint64_t)1 << (i % 64);
	}
	bit_list(sel, d->bits, buf, len);
	if (!*buf)
		snprintf(buf, len, "none");
}

static void text_data_cluster(FILE *f, const triage *t, const triage_data_cluster *d)
{
	char where[1200], always[4096], some[4096];
	/* every bit of 4096: "_" between 128 words of 8 digits */
	char hex[SPEC_MAX_BITS / 32 * 9 + 8];
	fprintf(f, "D%zu  %zu item%s  data", d->id, d->count, d->count == 1 ? "" : "s");
	if (d->name)
		fprintf(f, " '%s'", d->name);
	fprintf(f, " (%u bits): %s\n", d->bits, d->reason);
	fprintf(f, "    framing step %s:%u; %s%zu distinct content%s\n",
	        d->step->loc.file, d->step->loc.line,
	        d->distinct >= TRIAGE_DATA_DISTINCT_MAX ? "at least " : "", d->distinct,
	        d->distinct == 1 ? "" : "s");
	ones_list(d, d->count, always, sizeof always);
	if (d->count == 1) {
		fprintf(f, "    bits set: %s\n", always);
	} else {
		ones_list(d, SIZE_MAX, some, sizeof some);
		fprintf(f, "    bits set in all: %s; in some: %s\n", always, some);
	}
	for (size_t i = 0; i < d->nexamples; i++) {
		origin_text(t, &d->examples[i].origin, where, sizeof where);
		fmt_hex(d->examples[i].w, d->bits, hex, sizeof hex);
		fprintf(f, "    e.g. %s  %s\n", where, hex);
	}
}

void triage_write_text(FILE *f, const triage_report *r)
{
	const triage *t = r->t;
	triage_summary s = triage_get_summary(t);
	fprintf(f, "triage: %zu instruction%s from %zu input%s, ", s.instructions,
	        s.instructions == 1 ? "" : "s", s.sources, s.sources == 1 ? "" : "s");
	if (r->program)
		fprintf(f, "whole programs framed by <program name=\"%s\"> of %s\n  framing errors "
		        "%zu%s\n", r->program, r->spec_path, r->frame_errors,
		        r->frame_errors ? " (listed on standard error)" : "");
	else
		fprintf(f, "read as '%s' of %s\n", r->root->bitset->name, r->spec_path);
	double pct = s.instructions ? 100.0 * (double)s.unexplained / (double)s.instructions : 0;
	size_t nclusters = s.clusters + s.data_clusters;
	fprintf(f, "  explained    %zu\n  unexplained  %zu (%.1f%%) in %zu cluster%s\n",
	        s.explained, s.unexplained, pct, nclusters, nclusters == 1 ? "" : "s");
	for (unsigned k = 0; k < TRIAGE_NKINDS; k++)
		if (s.by_kind[k])
			fprintf(f, "    %-26s %zu\n", kind_title((triage_kind)k), s.by_kind[k]);
	size_t n = triage_cluster_count(t), top = n < r->top_text ? n : r->top_text;
	if (top)
		fprintf(f, "\nclusters (%zu of %zu, most instructions first):\n", top, n);
	for (size_t i = 0; i < top; i++)
		text_cluster(f, t, triage_cluster_at(t, i));
	n = triage_data_cluster_count(t);
	top = n < r->top_text ? n : r->top_text;
	if (top)
		fprintf(f, "\nunexplained data (%zu of %zu clusters, most items first; the framing's "
		        "<data unexplained>):\n", top, n);
	for (size_t i = 0; i < top; i++)
		text_data_cluster(f, t, triage_data_cluster_at(t, i));

	/* the per-leaf histograms, only where something is set */
	bool head = false;
	for (size_t i = 0; i < triage_leaf_count(t); i++) {
		const triage_leaf *l = triage_leaf_at(t, i);
		const spec_bitset *b = l->leaf;
		unsigned shown = 0;
		for (unsigned bit = 0; bit < b->size; bit++) {
			bool dc = spec_bit(b->dontcare, bit), rs = bit_of(l->reserved, bit);
			if ((!dc && !rs) || !l->ones[bit])
				continue;
			if (!head) {
				fprintf(f, "\ndon't-care (x) and reserved (?) bits set, per leaf:\n");
				head = true;
			}
			if (!shown++)
				fprintf(f, "  %s (%zu instruction%s):", b->name, l->count,
				        l->count == 1 ? "" : "s");
			fprintf(f, " %u%s %llu (%.1f%%)", bit, dc ? "x" : "?",
			        (unsigned long long)l->ones[bit],
			        100.0 * (double)l->ones[bit] / (double)l->count);
		}
		if (shown)
			fputc('\n', f);
	}
	if (triage_spec_problem_count(t))
		fprintf(f, "\nspec problems met while decoding (the spec's, not the words'; "
		        "see isacheck lint):\n");
	for (size_t i = 0; i < triage_spec_problem_count(t); i++) {
		const triage_spec_problem *p = triage_spec_problem_at(t, i);
		fprintf(f, "  %s: %s (%zu instruction%s)\n", p->leaf ? p->leaf->name : "-", p->text,
		        p->count, p->count == 1 ? "" : "s");
	}
	head = false;
	for (size_t i = 0; i < triage_leaf_count(t); i++) {
		const triage_leaf *l = triage_leaf_at(t, i);
		for (size_t j = 0; j < l->nenums; j++) {
			const triage_enum_seen *e = &l->enums[j];
			if (!head) {
				fprintf(f, "\nenum values the spec does not name:\n");
				head = true;
			}
			fprintf(f, "  %s: %s%s%s = %llu (enum %s) in %zu instruction%s\n", l->leaf->name,
			        e->owner != l->leaf ? e->owner->name : "", e->owner != l->leaf ? "." : "",
			        e->field->name, (unsigned long long)e->value,
			        e->field->enm ? e->field->enm->name : "?", e->count,
			        e->count == 1 ? "" : "s");
		}
	}
}

/* ---------------------------------------------------------------- JSON */

static void json_bits(FILE *f, const uint64_t *w, unsigned size)
{
	fputc('[', f);
	bool first = true;
	for (unsigned i = 0; i < size; i++)
		if (bit_of(w, i)) {
			fprintf(f, "%s%u", first ? "" : ",", i);
			first = false;
		}
	fputc(']', f);
}

static void json_hex(FILE *f, const uint64_t *w, unsigned size)
{
	char hex[SPEC_MAX_BITS / 4 + 80];
	fmt_hex(w, size, hex, sizeof hex);
	fprintf(f, "\"%s\"", hex);
}

static void json_counts(FILE *f, const uint64_t *ones, unsigned size)
{
	fputc('[', f);
	for (unsigned i = 0; i < size; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)ones[i]);
	fputc(']', f);
}

static void json_leaf_ref(FILE *f, const spec_bitset *b)
{
	if (!b) {
		fputs("null", f);
		return;
	}
	json_string(f, b->name);
}

static void json_examples(FILE *f, const triage *t, const triage_example *ex, size_t n,
                          unsigned size)
{
	fputs("\"examples\":[", f);
	for (size_t i = 0; i < n; i++) {
		const triage_example *e = &ex[i];
		fputs(i ? ",{\"source\":" : "{\"source\":", f);
		json_string(f, triage_source_name(t, e->origin.source));
		fprintf(f, ",\"%s\":%llu,\"words\":", e->origin.is_line ? "line" : "offset",
		        (unsigned long long)e->origin.pos);
		json_hex(f, e->w, size);
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_cluster(FILE *f, const triage *t, const triage_cluster *c)
{
	unsigned size = c->root->bitset->size;
	fprintf(f, "{\"id\":%zu,\"count\":%zu,\"root\":", c->id, c->count);
	json_string(f, c->root->bitset->name);
	fprintf(f, ",\"gen\":%u,\"kinds\":[", c->gen);
	bool first = true;
	for (unsigned k = 0; k < TRIAGE_NKINDS; k++)
		if (c->kinds >> k & 1) {
			fprintf(f, "%s\"%s\"", first ? "" : ",", triage_kind_name((triage_kind)k));
			first = false;
		}
	fputs("],\"leaf\":", f);
	json_leaf_ref(f, c->leaf);
	if (c->matches[0]) {
		fputs(",\"matches\":[", f);
		json_leaf_ref(f, c->matches[0]);
		fputc(',', f);
		json_leaf_ref(f, c->matches[1]);
		fputc(']', f);
	}
	fputs(",\"mask\":", f);
	json_hex(f, c->mask, size);
	fputs(",\"bits\":", f);
	json_bits(f, c->mask, size);
	fputs(",\"nearest\":[", f);
	for (size_t i = 0; i < c->nnearest; i++) {
		const triage_near *n = &c->nearest[i];
		fputs(i ? ",{\"leaf\":" : "{\"leaf\":", f);
		json_string(f, n->leaf->name);
		fputs(",\"file\":", f);
		json_string(f, n->leaf->loc.file);
		fprintf(f, ",\"line\":%u,\"distance\":%u,\"diff\":", n->leaf->loc.line, n->distance);
		json_hex(f, n->diff, size);
		fputs(",\"bits\":", f);
		json_bits(f, n->diff, size);
		fputc('}', f);
	}
	fprintf(f, "],\"nearest_ties\":%zu,\"details\":[", c->nearest_ties);
	for (size_t i = 0; i < c->ndetails; i++) {
		const triage_detail *d = &c->details[i];
		fprintf(f, "%s{\"kind\":\"%s\",\"leaf\":", i ? "," : "", triage_kind_name(d->kind));
		json_leaf_ref(f, d->leaf);
		fputs(",\"field\":", f);
		if (d->field)
			json_string(f, d->field->name);
		else
			fputs("null", f);
		fprintf(f, ",\"value\":%llu,\"text\":", (unsigned long long)d->value);
		json_string(f, d->text);
		fputc('}', f);
	}
	fputs("],", f);
	json_examples(f, t, c->examples, c->nexamples, size);
	/* one instruction: its bits are the example's */
	if (c->count > 1) {
		fputs(",\"ones\":", f);
		json_counts(f, c->ones, size);
	}
	fputc('}', f);
}

static void json_data_cluster(FILE *f, const triage *t, const triage_data_cluster *d)
{
	fprintf(f, "{\"id\":%zu,\"count\":%zu,\"name\":", d->id, d->count);
	json_string_or_null(f, d->name);
	fputs(",\"reason\":", f);
	json_string(f, d->reason);
	fputs(",\"file\":", f);
	json_string(f, d->step->loc.file);
	fprintf(f, ",\"line\":%u,\"size\":%u,\"distinct\":%zu,\"distinct_capped\":%s,",
	        d->step->loc.line, d->bits, d->distinct,
	        d->distinct >= TRIAGE_DATA_DISTINCT_MAX ? "true" : "false");
	json_examples(f, t, d->examples, d->nexamples, d->bits);
	fputs(",\"ones\":", f);
	json_counts(f, d->ones, d->bits);
	fputc('}', f);
}

static void json_fields(FILE *f, const spec_bitset *leaf)
{
	fputc('[', f);
	bool first = true;
	for (const spec_bitset *b = leaf; b; b = b->parent) {
		if (!b->ncases)
			continue;
		const spec_case *dc = &b->cases[b->ncases - 1];
		for (size_t i = 0; i < dc->nfields; i++) {
			const spec_field *fl = &dc->fields[i];
			if (fl->kind == SPEC_DERIVED)
				continue;
			fputs(first ? "{\"name\":" : ",{\"name\":", f);
			first = false;
			json_string(f, fl->kind == SPEC_ASSERT ? "assert" : fl->name);
			fprintf(f, ",\"low\":%u,\"high\":%u}", fl->low, fl->high);
		}
	}
	fputc(']', f);
}

static void json_leaf(FILE *f, const triage_leaf *l)
{
	const spec_bitset *b = l->leaf;
	char pat[SPEC_MAX_BITS + 1];
	leaf_pattern(b, pat);
	fputs("{\"leaf\":", f);
	json_string(f, b->name);
	fputs(",\"root\":", f);
	json_string(f, b->root->name);
	fputs(",\"file\":", f);
	json_string(f, b->loc.file);
	fprintf(f, ",\"line\":%u,\"size\":%u,\"count\":%zu,\"unexplained\":%zu,\"pattern\":\"%s\"",
	        b->loc.line, b->size, l->count, l->unexplained, pat);
	uint64_t dc[MAX_WORDS] = {0};
	for (unsigned k = 0; k < b->dontcare.nwords && k < MAX_WORDS; k++)
		dc[k] = b->dontcare.w[k];
	fputs(",\"dontcare\":", f);
	json_bits(f, dc, b->size);
	fputs(",\"reserved\":", f);
	json_bits(f, l->reserved, b->size);
	fputs(",\"fields\":", f);
	json_fields(f, b);
	fputs(",\"ones\":", f);
	json_counts(f, l->ones, b->size);
	fputs(",\"enums\":[", f);
	for (size_t j = 0; j < l->nenums; j++) {
		const triage_enum_seen *e = &l->enums[j];
		fputs(j ? ",{\"owner\":" : "{\"owner\":", f);
		json_string(f, e->owner->name);
		fputs(",\"field\":", f);
		json_string(f, e->field->name);
		fputs(",\"enum\":", f);
		json_string(f, e->field->enm ? e->field->enm->name : "");
		fprintf(f, ",\"value\":%llu,\"count\":%zu}", (unsigned long long)e->value, e->count);
	}
	fputs("]}", f);
}

void triage_write_json_limit(FILE *f, const triage_report *r, size_t max_clusters)
{
	const triage *t = r->t;
	triage_summary s = triage_get_summary(t);
	fputs("{\"tool\":\"isacheck triage\",\"version\":\"" ISACHECK_VERSION "\",\"spec\":", f);
	json_string(f, r->spec_path);
	fputs(",\"root\":", f);
	json_string(f, r->root->bitset->name);
	if (r->gen >= 0)
		fprintf(f, ",\"gen\":%lld", (long long)r->gen);
	else
		fputs(",\"gen\":null", f);
	fputs(",\"program\":", f);
	json_string_or_null(f, r->program);
	fprintf(f, ",\"frame_errors\":%zu,\"inputs\":[", r->frame_errors);
	for (size_t i = 0; i < s.sources; i++) {
		fputs(i ? "," : "", f);
		json_string(f, triage_source_name(t, (int)i));
	}
	fprintf(f, "],\n\"summary\":{\"instructions\":%zu,\"explained\":%zu,\"unexplained\":%zu,"
	        "\"clusters\":%zu,", s.instructions, s.explained, s.unexplained, s.clusters);
	/* unexplained data adds its keys only when there is some: reports
	 * of inputs without any stay as they were */
	if (s.data_clusters)
		fprintf(f, "\"data_clusters\":%zu,", s.data_clusters);
	fputs("\"kinds\":{", f);
	for (unsigned k = 0; k < TRIAGE_NKINDS; k++)
		if (k != TRIAGE_DATA || s.by_kind[k])
			fprintf(f, "%s\"%s\":%zu", k ? "," : "", triage_kind_name((triage_kind)k),
			        s.by_kind[k]);
	fputs("}},\n\"clusters\":[", f);
	size_t n = triage_cluster_count(t);
	if (n > max_clusters)
		n = max_clusters;
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_cluster(f, t, triage_cluster_at(t, i));
	}
	n = triage_data_cluster_count(t);
	if (n > max_clusters)
		n = max_clusters;
	if (n)
		fputs("],\n\"unexplained_data\":[", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_data_cluster(f, t, triage_data_cluster_at(t, i));
	}
	fputs("],\n\"spec_problems\":[", f);
	for (size_t i = 0; i < triage_spec_problem_count(t); i++) {
		const triage_spec_problem *p = triage_spec_problem_at(t, i);
		fputs(i ? ",{\"leaf\":" : "{\"leaf\":", f);
		json_leaf_ref(f, p->leaf);
		fputs(",\"text\":", f);
		json_string(f, p->text);
		fprintf(f, ",\"count\":%zu}", p->count);
	}
	fputs("],\n\"leaves\":[", f);
	for (size_t i = 0; i < triage_leaf_count(t); i++) {
		fputs(i ? ",\n" : "\n", f);
		json_leaf(f, triage_leaf_at(t, i));
	}
	fputs("]}\n", f);
}

void triage_write_json(FILE *f, const triage_report *r)
{
	triage_write_json_limit(f, r, (size_t)-1);
}
