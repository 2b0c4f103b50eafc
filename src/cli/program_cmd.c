/*
 * program_cmd.c - `isacheck disasm --program` and `isacheck decode
 * --program`: one whole program, cut into instructions by the spec's
 * <program> (docs/framing.md), printed as text or as its item list.
 *
 * Exit codes: 2 when the program cannot be framed (truncated, a bad tag,
 * a loop, ...: the walk stopped), 1 when it was framed but something is
 * off (bits no item covers, overlapping items, non-zero padding, an
 * instruction that does not decode cleanly), 0 otherwise.  Framing
 * errors go to standard error, one line each, after what was decoded.
 */
#include "cli.h"
#include "codec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *item_kind_name(codec_item_kind k)
{
	static const char *const names[] = {"part", "data", "pad", "value"};
	return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* The item's bits in hex, 32-bit words low first, as the vectors list them. */
static void item_hex(const codec_item *it, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (unsigned k = 0; k < (it->bits + 31) / 32 && o + 10 < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%08" PRIx32, k ? " " : "",
		                      (uint32_t)(it->w[k / 2] >> (32 * (k % 2))));
}

static void print_errors(const codec_program *pr, const char *input)
{
	for (size_t i = 0; i < pr->nerrors; i++) {
		const codec_frame_error *e = &pr->errors[i];
		fprintf(stderr, "%s: word %zu (bit %zu): error: %s [%s]", input, e->bit / 32, e->bit,
		        e->text, codec_frame_error_name(e->kind));
		if (e->step && e->step->loc.file)
			fprintf(stderr, " (framing step at %s:%u)", e->step->loc.file, e->step->loc.line);
		fputc('\n', stderr);
	}
}

static void print_items(const codec *c, const codec_program *pr, bool json, uint32_t gen)
{
	codec_value *values = malloc(256 * sizeof *values);
	codec_issue issues[16];
	char hex[SPEC_MAX_BITS / 32 * 9 + 16];
	if (!values)
		return;
	if (json) {
		fputs("{\"program\":", stdout);
		json_string(stdout, pr->program->name);
		fprintf(stdout, ",\"words\":%zu,\"items\":[", pr->nwords);
	}
	for (size_t i = 0; i < pr->nitems; i++) {
		const codec_item *it = &pr->items[i];
		codec_decoded d = {.values = values, .cap_values = 256, .issues = issues,
		                   .cap_issues = 16};
		if (it->kind == CODEC_ITEM_PART) {
			uint64_t w[SPEC_MAX_BITS / 64] = {0};
			memcpy(w, it->w, ((it->bits + 63) / 64) * sizeof *w);
			codec_decode(c, it->root, w, gen, &d);
		}
		item_hex(it, hex, sizeof hex);
		if (json) {
			fprintf(stdout, "%s\n{\"index\":%zu,\"kind\":\"%s\",\"name\":", i ? "," : "", i,
			        item_kind_name(it->kind));
			json_string_or_null(stdout, it->name);
			fprintf(stdout, ",\"bit\":%zu,\"word\":%zu,\"bits\":%u", it->bit, it->bit / 32,
			        it->bits);
			if (it->kind == CODEC_ITEM_VALUE) {
				fprintf(stdout, ",\"value\":%" PRId64 "}", it->value);
				continue;
			}
			fprintf(stdout, ",\"hex\":\"%s\",\"clean\":%s", hex, it->clean ? "true" : "false");
			if (it->kind != CODEC_ITEM_PART) {
				fputc('}', stdout);
				continue;
			}
			fputs(",\"root\":", stdout);
			json_string(stdout, it->root->bitset->name);
			fputs(",\"leaf\":", stdout);
			if (it->leaf)
				json_string(stdout, it->leaf->name);
			else
				fputs("null", stdout);
			fputs(",\"fields\":[", stdout);
			for (size_t k = 0; k < d.nvalues; k++) {
				fputs(k ? "," : "", stdout);
				fputs("{\"name\":", stdout);
				json_string(stdout, d.values[k].field ? d.values[k].field->name : "");
				fprintf(stdout, ",\"depth\":%u,\"value\":%" PRId64 "}", d.values[k].depth,
				        d.values[k].value);
			}
			fputs("],\"issues\":[", stdout);
			for (size_t k = 0; k < d.nissues; k++) {
				fputs(k ? "," : "", stdout);
				json_string(stdout, d.issues[k].text);
			}
			fputs("]}", stdout);
		} else {
			printf("%zu.%zu %s", it->bit / 32, it->bit % 32, item_kind_name(it->kind));
			if (it->name)
				printf(" %s", it->name);
			if (it->kind == CODEC_ITEM_VALUE) {
				printf(" = %" PRId64 "\n", it->value);
				continue;
			}
			printf(" [%u bits] %s", it->bits, hex);
			if (it->kind == CODEC_ITEM_PART) {
				printf(" %s %s", it->root->bitset->name, it->leaf ? it->leaf->name : "(no leaf)");
				for (size_t k = 0; k < d.nvalues; k++)
					printf(" %*s%s=%" PRId64, (int)(2 * d.values[k].depth), "",
					       d.values[k].field ? d.values[k].field->name : "?", d.values[k].value);
				for (size_t k = 0; k < d.nissues; k++)
					printf("  ; %s", d.issues[k].text);
			} else if (!it->clean) {
				printf("  ; not zero");
			}
			putchar('\n');
		}
	}
	if (json) {
		fputs("\n],\"errors\":[", stdout);
		for (size_t i = 0; i < pr->nerrors; i++) {
			const codec_frame_error *e = &pr->errors[i];
			fprintf(stdout, "%s\n{\"kind\":\"%s\",\"fatal\":%s,\"bit\":%zu,\"word\":%zu,\"text\":",
			        i ? "," : "", codec_frame_error_name(e->kind), e->fatal ? "true" : "false",
			        e->bit, e->bit / 32);
			json_string(stdout, e->text);
			if (e->step && e->step->loc.file) {
				fputs(",\"file\":", stdout);
				json_string(stdout, e->step->loc.file);
				fprintf(stdout, ",\"line\":%u", e->step->loc.line);
			}
			fputc('}', stdout);
		}
		fputs("\n]}\n", stdout);
	}
	free(values);
}

int program_command(const struct codec *c, const char *name, const char *input,
                    const uint32_t *w, size_t n, bool decode, bool json,
                    const struct codec_disasm_options *opt)
{
	const spec_model *m = codec_model(c);
	const spec_program *p = spec_find_program(m, *name ? name : NULL);
	if (!p) {
		size_t np = spec_program_count(m);
		if (*name)
			fprintf(stderr, "isacheck: the spec has no <program name=\"%s\">\n", name);
		else if (!np)
			fprintf(stderr, "isacheck: the spec has no <program>: it cannot frame whole "
			        "programs (docs/framing.md)\n");
		else
			fprintf(stderr, "isacheck: the spec has %zu programs: name one with --program=NAME\n",
			        np);
		return EXIT_UNUSABLE;
	}
	codec_program *pr = codec_program_walk(c, p, w, n, opt);
	if (!pr) {
		fprintf(stderr, "isacheck: out of memory\n");
		return EXIT_UNUSABLE;
	}
	if (decode)
		print_items(c, pr, json, opt->gen);
	else
		fwrite(pr->text, 1, pr->textlen, stdout);
	fflush(stdout);
	print_errors(pr, input);
	int rc = pr->stopped ? EXIT_UNUSABLE : codec_program_clean(pr) ? EXIT_CLEAN : EXIT_FINDINGS;
	codec_program_free(pr);
	return rc;
}
