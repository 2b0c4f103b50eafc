/*
 * oracle_a2xx_compare.c - isacheck's a2xx programs against Mesa's
 * disasm_a2xx(): see oracle_a2xx_compare.h for what must hold.
 */
#include "oracle_a2xx_compare.h"

#include "mesa_oracle.h"

#include <stdlib.h>
#include <string.h>

bool oracle_a2xx_find_programs(const spec_model *m, oracle_a2xx_programs *out)
{
	out->vs = spec_find_program(m, "vs");
	out->fs = spec_find_program(m, "fs");
	out->none = spec_find_program(m, NULL);
	return out->vs && out->fs && out->none && out->none != out->vs && out->none != out->fs;
}

int oracle_a2xx_mesa(const uint32_t *w, size_t n, int type, char **text, char *detail,
                     size_t detail_len)
{
	/* Most programs print in a few KiB; a long one is printed again into a
	 * larger buffer: of the size the call reported, or, for a text that
	 * comes with a negative status (E_OVERREAD: printed from padding),
	 * which reports none, four times the size while it fills the buffer.
	 * Mesa prints at most 1022 CFs and their clauses, a few MiB. */
	size_t cap = 16384;
	*text = NULL;
	detail[0] = 0;
	if (n > (size_t)INT32_MAX)
		return MESA_ORACLE_E_ARG;
	while (cap <= ((size_t)64 << 20)) {
		char *buf = malloc(cap);
		if (!buf)
			return MESA_ORACLE_E_NOMEM;
		int st = mesa_oracle_a2xx_disasm(w, (int)n, 0, type, buf, cap);
		if (st < 0)
			snprintf(detail, detail_len, "%s", mesa_oracle_last_detail());
		if ((st >= 0 && (size_t)st < cap) || (st < 0 && strlen(buf) + 1 < cap)) {
			*text = buf;
			return st;
		}
		free(buf);
		cap = st >= 0 ? (size_t)st + 1 : cap * 4;
	}
	return MESA_ORACLE_E_NOMEM;
}

const char *oracle_a2xx_verdict_name(oracle_a2xx_verdict v)
{
	static const char *const names[ORACLE_A2XX_NVERDICTS] = {
		"same", "same up to an undecodable part", "stopped past Mesa's end",
		"Mesa read past the input", "Mesa's code would misbehave", "out of memory",
		"different",
	};
	return (unsigned)v < ORACLE_A2XX_NVERDICTS ? names[v] : "?";
}

/* Mesa's export comments, which the default program does not print. */
static void cut_comments(char *s)
{
	static const char *const comments[] = {"\t; gl_Position", "\t; gl_PointSize",
	                                       "\t; gl_FragColor"};
	char *o = s;
	for (const char *p = s; *p;) {
		size_t k = 0;
		while (k < 3 && strncmp(p, comments[k], strlen(comments[k])))
			k++;
		if (k < 3) {
			p += strlen(comments[k]);
			continue;
		}
		*o++ = *p++;
	}
	*o = 0;
}

/* Whether the first difference is a part we print as "no match: " where
 * Mesa prints a missing name, "(null)". */
static bool undecodable_at_difference(const oracle_a2xx_result *r)
{
	char ours[512], mesa[512];
	snprintf(ours, sizeof ours, "%.*s", (int)r->diff.ourslen, r->diff.ours);
	snprintf(mesa, sizeof mesa, "%.*s", (int)r->diff.mesalen, r->diff.mesa);
	return strstr(ours, "no match: ") && strstr(mesa, "(null)");
}

static char *copy(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	return c ? memcpy(c, s, n) : NULL;
}

static bool any_undecodable(const codec_program *pr)
{
	for (size_t i = 0; i < pr->nitems; i++)
		if (pr->items[i].kind == CODEC_ITEM_PART && !pr->items[i].leaf)
			return true;
	return false;
}

static bool stopped_by(const codec_program *pr, codec_frame_error_kind kind)
{
	for (size_t i = 0; i < pr->nerrors; i++)
		if (pr->errors[i].fatal && pr->errors[i].kind == kind)
			return true;
	return false;
}

static void fail(oracle_a2xx_result *r, const char *why)
{
	r->verdict = ORACLE_A2XX_DIFFER;
	r->why = why;
}

bool oracle_a2xx_check(const codec *c, const spec_program *p, bool comments,
                       const uint32_t *w, size_t n, const char *mesa, int status,
                       const char *detail, oracle_a2xx_result *r)
{
	memset(r, 0, sizeof *r);
	r->status = status;
	r->verdict = ORACLE_A2XX_NO_MEMORY;
	r->diff = (oracle_line_diff){0, "", "", 0, 0};
	codec_disasm_options o = {.show_errors = false};
	codec_program *pr = codec_program_walk(c, p, w, n, &o);
	if (!pr)
		return false;
	r->ours = copy(pr->text);
	r->mesa = copy(mesa ? mesa : "");
	r->stopped = pr->stopped;
	for (size_t i = 0; i < pr->nerrors && !r->stop[0]; i++)
		if (pr->errors[i].fatal)
			snprintf(r->stop, sizeof r->stop, "%s: %s",
			         codec_frame_error_name(pr->errors[i].kind), pr->errors[i].text);
	if (!r->ours || !r->mesa || status == MESA_ORACLE_E_NOMEM) {
		codec_program_free(pr);
		return false;
	}
	if (!comments)
		cut_comments(r->mesa);
	bool differ = oracle_first_difference(r->ours, r->mesa, &r->diff);
	bool undecodable = differ && any_undecodable(pr) && undecodable_at_difference(r);
	size_t lo = strlen(r->ours), lm = strlen(r->mesa);
	if (status >= 0) {
		if (!differ)
			r->verdict = ORACLE_A2XX_SAME;
		else if (undecodable)
			r->verdict = ORACLE_A2XX_UNDECODABLE;
		else if (!pr->stopped)
			fail(r, "Mesa printed the program and we framed it, but the texts differ");
		else if (lm <= lo && !memcmp(r->ours, r->mesa, lm))
			r->verdict = ORACLE_A2XX_WE_STOP;
		else
			fail(r, "our walk stopped where Mesa printed the program, and Mesa's text is "
			        "not the start of ours");
	} else if (status == MESA_ORACLE_E_OVERREAD) {
		if (!pr->stopped || !stopped_by(pr, CODEC_FRAME_TRUNCATED))
			fail(r, "Mesa read past the input, but our walk was not stopped by a truncation");
		else if (!differ || undecodable || (lo <= lm && !memcmp(r->ours, r->mesa, lo)))
			r->verdict = ORACLE_A2XX_MESA_OVERREAD;
		else
			fail(r, "Mesa read past the input and we stopped there, but our text is not the "
			        "start of Mesa's");
	} else if (status == MESA_ORACLE_E_MESA_UB) {
		r->verdict = ORACLE_A2XX_MESA_UB;
		/* the oracle's detail names the reason (its README, Known quirks) */
		if (strstr(detail, "no EXEC") && !pr->stopped)
			fail(r, "Mesa found no EXEC-type CF, but our walk framed the program");
		else if (strstr(detail, "fetch opcode") && !pr->stopped && !any_undecodable(pr))
			fail(r, "Mesa met a fetch opcode its table lacks, but we decoded every part");
	} else {
		fail(r, "the oracle returned an unexpected status");
	}
	codec_program_free(pr);
	return true;
}

void oracle_a2xx_result_free(oracle_a2xx_result *r)
{
	free(r->ours);
	free(r->mesa);
	r->ours = r->mesa = NULL;
}
