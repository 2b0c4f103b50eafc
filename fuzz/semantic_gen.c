/*
 * semantic_gen.c - random specs (overrides, expressions, round trips)
 * and the meaning proofs judged against brute force (semantic_gen.h).
 */
#include "semantic_gen.h"

#include "check.h"
#include "cli/prove_ops.h" /* the decoder confirming witnesses, as the CLI passes it */
#include "codec.h"
#include "fuzz.h" /* FUZZ_EXIT_SKIP */
#include "spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void semgen_require_z3(const char *target)
{
	char why[256];
	if (prove_z3_available(why, sizeof why))
		return;
	fprintf(stderr, "%s: %s: nothing to fuzz\n", target, why);
	exit(FUZZ_EXIT_SKIP);
}

uint64_t semgen_draw64(semgen_rng *r)
{
	return splitmix64(&r->state);
}

unsigned semgen_below(semgen_rng *r, unsigned n)
{
	if (!n)
		return 0;
	if (r->at < r->size)
		return r->data[r->at++] % n;
	return (unsigned)(splitmix64(&r->state) % n);
}

void semgen_printf(semgen_text *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if (b->n + (size_t)n + 1 > b->cap) {
		b->cap = (b->n + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	for (int i = 0; i < n; i++)
		b->line += b->s[b->n + (size_t)i] == '\n';
	b->n += (size_t)n;
}

/* A random condition over the names in use (depth levels of operators). */
static void expr(semgen_text *b, semgen_rng *r, const char *const *names, unsigned nnames,
                 unsigned depth)
{
	if (!depth || semgen_below(r, 3) == 0) {
		if (semgen_below(r, 4) == 0)
			semgen_printf(b, "%u", semgen_below(r, 8));
		else
			semgen_printf(b, "{%s}", names[semgen_below(r, nnames)]);
		return;
	}
	static const char *const bin[] = {"==", "!=", "&lt;", "&gt;", "&lt;=", "&gt;=", "&amp;&amp;",
	                                  "||", "&amp;", "|", "^", "+", "-"};
	if (semgen_below(r, 6) == 0) {
		semgen_printf(b, "!(");
		expr(b, r, names, nnames, depth - 1);
		semgen_printf(b, ")");
		return;
	}
	semgen_printf(b, "(");
	expr(b, r, names, nnames, depth - 1);
	semgen_printf(b, " %s ", bin[semgen_below(r, sizeof bin / sizeof *bin)]);
	if (semgen_below(r, 2))
		semgen_printf(b, "%u", semgen_below(r, 8));
	else
		expr(b, r, names, nnames, depth - 1);
	semgen_printf(b, ")");
}

/* Overrides of one bitset; sub: the #sub bitset's (names V and P). */
static void overrides(semgen_spec *g, semgen_rng *r, bool sub, unsigned max)
{
	static const char *const top_names[] = {"A", "B", "E", "D", "A", "B"};
	static const char *const sub_names[] = {"V", "P", "P"};
	unsigned n = semgen_below(r, max + 1);
	for (unsigned i = 0; i < n && g->nov < SEMGEN_MAX_OVERRIDES; i++) {
		semgen_override *o = &g->ov[g->nov];
		snprintf(o->marker, sizeof o->marker, "@%c%u@", sub ? 's' : 'o', g->nov);
		g->nov++;
		o->line = g->xml.line + 1;
		semgen_printf(&g->xml, "<override>\n<expr>");
		/* a condition may name X, which only this override defines */
		bool own = !sub && semgen_below(r, 4) == 0;
		const char *const *names = sub ? sub_names : top_names;
		unsigned nn = sub ? 3 : 6;
		if (own)
			semgen_printf(&g->xml, "({X} == %u) || ", semgen_below(r, 4));
		expr(&g->xml, r, names, nn, 1 + semgen_below(r, 2));
		semgen_printf(&g->xml, "</expr>\n");
		if (semgen_below(r, 5))
			semgen_printf(&g->xml, "<display>%s%s</display>\n", o->marker, sub ? "{V}" : " {S}");
		else
			o->marker[0] = 0; /* no display: nothing to see */
		/* an assert, checked where this display is the one shown (the
		 * marker printed) and holding there when Mesa's warning is not */
		if (!sub && o->marker[0] && semgen_below(r, 3) == 0) {
			unsigned lo = 6 + semgen_below(r, 3);
			o->aline = g->xml.line + 1;
			semgen_printf(&g->xml, "<assert low=\"%u\" high=\"%u\">%u%u</assert>\n", lo, lo + 1,
			    semgen_below(r, 2), semgen_below(r, 2));
		}
		if (own)
			semgen_printf(&g->xml, "<field name=\"X\" low=\"0\" high=\"1\" type=\"uint\"/>\n");
		if (!sub && semgen_below(r, 5) == 0)
			semgen_printf(&g->xml, "<field name=\"A\" low=\"%u\" high=\"2\" type=\"uint\"/>\n",
			    semgen_below(r, 2) + 1);
		semgen_printf(&g->xml, "</override>\n");
	}
}

void semgen_make(semgen_spec *g, semgen_rng *r)
{
	memset(g, 0, sizeof *g);
	semgen_printf(&g->xml, "<isa>\n<bitset name=\"#sub\" size=\"3\">\n");
	overrides(g, r, true, 3);
	semgen_printf(&g->xml, "<display>v{V}</display>\n"
	             "<field name=\"V\" low=\"0\" high=\"2\" type=\"uint\"/>\n</bitset>\n");
	semgen_printf(&g->xml, "<bitset name=\"#instruction\" size=\"32\">\n");
	overrides(g, r, false, 2);
	semgen_printf(&g->xml,
	    "<display>base {S}</display>\n"
	    "<field name=\"A\" low=\"0\" high=\"2\" type=\"uint\"/>\n"
	    "<field name=\"B\" low=\"3\" high=\"5\" type=\"uint\"/>\n"
	    "<field name=\"S\" low=\"6\" high=\"8\" type=\"#sub\"><param name=\"B\" as=\"P\"/></field>\n"
	    "<field name=\"E\" pos=\"9\" type=\"bool\"/>\n"
	    "<derived name=\"D\" type=\"uint\"><expr>{A} + {B}</expr></derived>\n"
	    "<pattern low=\"12\" high=\"31\">00000000000000000000</pattern>\n</bitset>\n");
	static const uint32_t ends[] = {100, 200, 300};
	g->gens[g->ngens++] = 0;
	g->gens[g->ngens++] = 1000;
	for (unsigned l = 0; l < 4; l++) {
		semgen_printf(&g->xml, "<bitset name=\"l%u\" extends=\"#instruction\">\n", l);
		if (semgen_below(r, 3) == 0) {
			uint32_t lo = ends[semgen_below(r, 3)], hi = lo + 100 * semgen_below(r, 2);
			semgen_printf(&g->xml, "<gen min=\"%u\" max=\"%u\"/>\n", lo, hi);
			g->gens[g->ngens++] = lo;
			g->gens[g->ngens++] = hi;
			g->gens[g->ngens++] = hi + 1;
		}
		overrides(g, r, false, 3);
		if (semgen_below(r, 2))
			semgen_printf(&g->xml, "<display>l%u {S}</display>\n", l);
		semgen_printf(&g->xml, "<pattern low=\"10\" high=\"11\">%u%u</pattern>\n</bitset>\n", l >> 1,
		    l & 1);
	}
	semgen_printf(&g->xml, "</isa>\n");
}

void semgen_free(semgen_spec *g)
{
	free(g->xml.s);
	g->xml.s = NULL;
}

void semgen_note(char *why, size_t len, const char *xml, const char *fmt, ...)
{
	if (!why || !len || why[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(why, len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < len)
		snprintf(why + n, len - (size_t)n, "\n%s", xml);
}

/* The rule of the finding at line (NULL: none). */
static const char *rule_at(const spec_diags *sd, unsigned line)
{
	for (size_t i = 0; i < sd->count; i++)
		if (sd->items[i].loc.line == line)
			return sd->items[i].rule;
	return NULL;
}

/* The overrides' verdicts of one run (confirm: the one with the decoder)
 * against what the disassembler printed. */
static void judge_overrides(semgen_tally *t, const semgen_spec *g, const spec_diags *sd,
                            bool confirm, char *why, size_t len)
{
	for (unsigned k = 0; k < g->nov; k++) {
		const semgen_override *o = &g->ov[k];
		if (!o->marker[0])
			continue;
		t->overrides += !confirm;
		const spec_diag *f = NULL;
		for (size_t i = 0; i < sd->count && !f; i++)
			if (sd->items[i].loc.line == o->line)
				f = &sd->items[i];
		bool unknown = f && (!strcmp(f->rule, "semantic-unknown") ||
		                     strstr(f->message, "whether it decides its display"));
		bool dead = f && !strcmp(f->rule, "override-dead");
		bool display_unused = dead || (f && !strcmp(f->rule, "override-shadowed") &&
		                               (strstr(f->message, "its display") ||
		                                strstr(f->message, "anything it defines")));
		if (unknown) {
			*(confirm ? &t->c_unknown : &t->unknown) += 1;
			continue;
		}
		if (!confirm) {
			t->dead += dead;
			t->shadowed += display_unused && !dead;
			t->used += !display_unused;
		}
		bool ok = display_unused == !o->seen;
		*(confirm ? &t->c_agree : &t->agree) += ok;
		if (!ok) {
			t->disagree++;
			semgen_note(why, len, g->xml.s, "override at line %u (%s)%s: the prover says %s, the "
			     "disassembler %s it%s", o->line, o->marker,
			     confirm ? " (with the decoder)" : "", f ? f->message : "decided",
			     o->seen ? "prints" : "never prints", f ? "" : " (no finding)");
		}
	}
}

/* The asserts' verdicts of the run without the decoder (a0) and with it
 * (sd) against brute force: a "never" of either run must never be seen
 * to hold, and an assert the decoder settled must have held for some
 * word.  An assert unknown in the first run and not in the second was
 * settled by the decoder only if the second run's Z3 was as unknown as
 * the first's: not so when a run may have had queries cut by its time
 * (cut), which it takes as it comes; those are counted, not judged
 * (Z3's "holds" is the case's condition and bits in some word, whether
 * or not the decoder's walk reaches the case: not what brute force
 * sees). */
static void judge_asserts(semgen_tally *t, const semgen_spec *g, const spec_diags *a0,
                          const spec_diags *sd, bool cut, char *why, size_t len)
{
	for (unsigned k = 0; k < g->nov; k++) {
		const semgen_override *o = &g->ov[k];
		if (!o->aline)
			continue;
		t->asserts++;
		const char *before = rule_at(a0, o->aline), *after = rule_at(sd, o->aline);
		bool unknown0 = before && !strcmp(before, "semantic-unknown");
		bool unknown1 = after && !strcmp(after, "semantic-unknown");
		bool never0 = before && !strcmp(before, "assert-never-holds");
		bool never = after && !strcmp(after, "assert-never-holds");
		t->a_unknown += unknown0;
		t->a_c_unknown += unknown1;
		t->a_never += never;
		bool settled = unknown0 && !after && !cut;
		t->a_cut += unknown0 && !after && cut;
		t->a_by_decoder += settled;
		if (((never || never0) && o->held) || (settled && !o->held)) {
			t->disagree++;
			semgen_note(why, len, g->xml.s, "assert at line %u: the prover says %s, brute force %s",
			     o->aline, never || never0 ? "it never holds" : "it holds (decoder)",
			     o->held ? "sees it hold" : "never sees it hold");
		}
	}
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Every word at every generation, by both codecs: which markers print
 * and which asserts hold where their display is shown. */
static void brute_force(semgen_spec *g, codec *c, codec *gc, semgen_tally *t, char *why,
                        size_t len)
{
	char text[512], general[512];
	for (unsigned gi = 0; gi < g->ngens; gi++) {
		/* leaves sharing a range list its ends more than once: one pass */
		bool again = false;
		for (unsigned k = 0; k < gi; k++)
			again |= g->gens[k] == g->gens[gi];
		if (again)
			continue;
		codec_disasm_options o = {.gen = g->gens[gi], .show_errors = true};
		for (uint32_t w = 0; w < (1u << SEMGEN_FREE_BITS); w++) {
			codec_disasm_one(c, &w, &o, text, sizeof text);
			/* the compiled codec and the general one print alike */
			codec_disasm_one(gc, &w, &o, general, sizeof general);
			if (strcmp(text, general)) {
				t->codecs_differ++;
				semgen_note(why, len, g->xml.s, "word %08x at gen %u: the compiled codec prints '%s', "
				     "the general one '%s'", w, g->gens[gi], text, general);
			}
			for (unsigned k = 0; k < g->nov; k++)
				if (g->ov[k].marker[0] && strstr(text, g->ov[k].marker)) {
					g->ov[k].seen = true;
					g->ov[k].held |= !strstr(text, "WARNING: unexpected bits[");
				}
		}
	}
}

bool semgen_judge(semgen_spec *g, semgen_tally *t, char *why, size_t len)
{
	unsigned before = t->disagree + t->codecs_differ + t->unusable;
	if (why && len)
		why[0] = 0;
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("rand.xml", g->xml.s, g->xml.n, ".", &d);
	codec *c = m ? codec_new(m, &d) : NULL, *gc = m ? codec_new_general(m, &d) : NULL;
	if (!c || !gc) {
		t->unusable++;
		semgen_note(why, len, g->xml.s, "the spec %s", m ? "has no codec" : "does not load");
		goto done;
	}
	brute_force(g, c, gc, t, why, len);
	t->specs++;
	/* twice: Z3 alone, then with the decoder confirming the witnesses of
	 * a lenient translation (what the CLI runs) */
	prove_text_ops ops = {.ctx = c, .taken = prove_ops_taken};
	spec_diags plain = {0};
	bool cut = false;
	for (int confirm = 0; confirm < 2; confirm++) {
		spec_diags sd = {0};
		semantic_stats st;
		prove_options opt = prove_default_options();
		opt.time_limit_ms = g->budget_ms;
		opt.text = confirm ? &ops : NULL;
		/* a run shorter than its budget (or than one query's timeout)
		 * had no query cut by time */
		double start = now_ms();
		bool proved = prove_semantic(m, &opt, &sd, &st);
		cut |= now_ms() - start >= (g->budget_ms ? g->budget_ms : opt.timeout_ms);
		if (!proved) {
			t->unusable++;
			semgen_note(why, len, g->xml.s, "prove_semantic failed%s", confirm ? " (with the decoder)" : "");
			spec_diags_free(&sd);
			break;
		}
		t->c_by_decoder += confirm ? (unsigned)st.live_by_decoder : 0;
		if (!confirm && st.live_by_decoder + st.asserts_by_decoder) {
			t->disagree++;
			semgen_note(why, len, g->xml.s, "without the decoder, %zu verdicts were settled by it",
			     (size_t)(st.live_by_decoder + st.asserts_by_decoder));
		}
		judge_overrides(t, g, &sd, confirm, why, len);
		if (confirm) {
			judge_asserts(t, g, &plain, &sd, cut, why, len);
			spec_diags_free(&sd);
		} else {
			plain = sd;
		}
	}
	spec_diags_free(&plain);
done:
	codec_free(c);
	codec_free(gc);
	spec_model_free(m);
	spec_diags_free(&d);
	return t->disagree + t->codecs_differ + t->unusable == before;
}

/* ------------------------------------------------ random expressions */

/* Random expressions, each proved and checked against an evaluator of
 * of semantic_gen.c's own over all 4,096 words: A bits 0-3, B 4-7, C 8-11. */
typedef struct rex {
	int op; /* 0 field, 1 constant, else a char or two-char code */
	int kid[3];
	int64_t num;
	char name;
} rex;

typedef struct rgen {
	rex n[64];
	int count;
} rgen;

enum { R_OVF = 1, R_DIV = 2, R_SHIFT = 4 };

static const int64_t rconsts[] = {0, 1, 2, 3, 7, 62, 63, 64, 100, -1,
                                  0x4000000000000000ll, INT64_MAX, INT64_MIN};
static const char *const rops[] = {"+", "-", "*", "/", "%", "<<", ">>", "&&", "||", "==", "<",
                                   "&", "|", "^", "?", "neg", "!", "~"};

static int rex_make(rgen *g, semgen_rng *r, unsigned depth)
{
	if (g->count >= 60)
		return -1;
	int i = g->count++;
	rex *e = &g->n[i];
	*e = (rex){0};
	e->kid[0] = e->kid[1] = e->kid[2] = -1;
	unsigned pick = semgen_below(r, depth ? 10 : 4);
	if (pick < 2 || g->count > 40) {
		e->op = 0;
		e->name = (char)('A' + semgen_below(r, 3));
	} else if (pick < 4) {
		e->op = 1;
		e->num = rconsts[semgen_below(r, sizeof rconsts / sizeof *rconsts)];
	} else {
		unsigned o = semgen_below(r, sizeof rops / sizeof *rops);
		e->op = 2 + (int)o;
		unsigned arity = o == 14 ? 3 : o >= 15 ? 1 : 2;
		for (unsigned k = 0; k < arity; k++) {
			int kid = rex_make(g, r, depth - 1);
			g->n[i].kid[k] = kid < 0 ? -1 : kid;
			if (kid < 0) {
				g->n[i].op = 0;
				g->n[i].name = 'A';
				break;
			}
		}
	}
	return i;
}

static void rex_text(const rgen *g, int i, semgen_text *b)
{
	const rex *e = &g->n[i];
	if (e->op == 0) {
		semgen_printf(b, "{%c}", e->name);
		return;
	}
	if (e->op == 1) {
		if (e->num == INT64_MIN)
			semgen_printf(b, "(-9223372036854775807 - 1)");
		else if (e->num < 0)
			semgen_printf(b, "(-%lld)", (long long)-e->num);
		else
			semgen_printf(b, "%lld", (long long)e->num);
		return;
	}
	const char *o = rops[e->op - 2];
	semgen_printf(b, "(");
	if (!strcmp(o, "?")) {
		rex_text(g, e->kid[0], b);
		semgen_printf(b, " ? ");
		rex_text(g, e->kid[1], b);
		semgen_printf(b, " : ");
		rex_text(g, e->kid[2], b);
	} else if (!strcmp(o, "neg") || !strcmp(o, "!") || !strcmp(o, "~")) {
		semgen_printf(b, "%s", !strcmp(o, "neg") ? "-" : o);
		rex_text(g, e->kid[0], b);
	} else {
		rex_text(g, e->kid[0], b);
		/* XML: & and < as entities */
		semgen_printf(b, " %s ", !strcmp(o, "&&") ? "&amp;&amp;" : !strcmp(o, "&") ? "&amp;"
		               : !strcmp(o, "<<") ? "&lt;&lt;" : !strcmp(o, "<") ? "&lt;"
		               : !strcmp(o, ">>") ? "&gt;&gt;" : o);
		rex_text(g, e->kid[1], b);
	}
	semgen_printf(b, ")");
}

/* The value of node i for fields f[3] as the proofs model it (Z3's
 * bit-vector operations, C's short-circuits), with the hazards met in
 * *hz. */
static int64_t rex_eval(const rgen *g, int i, const int64_t f[3], unsigned *hz)
{
	const rex *e = &g->n[i];
	if (e->op == 0)
		return f[e->name - 'A'];
	if (e->op == 1)
		return e->num;
	const char *o = rops[e->op - 2];
	int64_t x = rex_eval(g, e->kid[0], f, hz), y = 0, r;
	if (!strcmp(o, "&&"))
		return x ? rex_eval(g, e->kid[1], f, hz) != 0 : 0;
	if (!strcmp(o, "||"))
		return x ? 1 : rex_eval(g, e->kid[1], f, hz) != 0;
	if (!strcmp(o, "?"))
		return x ? rex_eval(g, e->kid[1], f, hz) : rex_eval(g, e->kid[2], f, hz);
	if (!strcmp(o, "neg")) {
		if (x == INT64_MIN)
			*hz |= R_OVF;
		return (int64_t)(0 - (uint64_t)x);
	}
	if (!strcmp(o, "!"))
		return !x;
	if (!strcmp(o, "~"))
		return ~x;
	y = rex_eval(g, e->kid[1], f, hz);
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
	if (!strcmp(o, "+")) {
		if (__builtin_add_overflow(x, y, &r))
			*hz |= R_OVF;
		return (int64_t)(ux + uy);
	}
	if (!strcmp(o, "-")) {
		if (__builtin_sub_overflow(x, y, &r))
			*hz |= R_OVF;
		return (int64_t)(ux - uy);
	}
	if (!strcmp(o, "*")) {
		if (__builtin_mul_overflow(x, y, &r))
			*hz |= R_OVF;
		return (int64_t)(ux * uy);
	}
	if (!strcmp(o, "/") || !strcmp(o, "%")) {
		bool div = o[0] == '/';
		if (y == 0) {
			*hz |= R_DIV; /* Z3: x / 0 is -1 (1 for x < 0), x % 0 is x */
			return div ? (x < 0 ? 1 : -1) : x;
		}
		if (x == INT64_MIN && y == -1) {
			*hz |= R_OVF;
			return div ? INT64_MIN : 0;
		}
		return div ? x / y : x % y;
	}
	if (!strcmp(o, "<<") || !strcmp(o, ">>")) {
		if (uy > 63) {
			*hz |= R_SHIFT; /* Z3: shifted out entirely */
			return o[0] == '<' ? 0 : (x < 0 ? -1 : 0);
		}
		if (o[0] == '>')
			return x >> uy;
		int64_t s = (int64_t)(ux << uy);
		if ((s >> uy) != x)
			*hz |= R_OVF;
		return s;
	}
	if (!strcmp(o, "=="))
		return x == y;
	if (!strcmp(o, "<"))
		return x < y;
	if (!strcmp(o, "&"))
		return x & y;
	if (!strcmp(o, "|"))
		return x | y;
	return x ^ y;
}

void semgen_expr_make(semgen_expr *x, semgen_rng *r)
{
	memset(x, 0, sizeof *x);
	rgen g = {0};
	int root = rex_make(&g, r, 3 + semgen_below(r, 2));
	x->width = 1 + semgen_below(r, 12);
	rex_text(&g, root, &x->text);
	semgen_printf(&x->xml,
	              "<isa>\n<bitset name=\"#instruction\" size=\"16\">\n<display>{D}</display>\n"
	              "<field name=\"A\" low=\"0\" high=\"3\" type=\"uint\"/>\n"
	              "<field name=\"B\" low=\"4\" high=\"7\" type=\"uint\"/>\n"
	              "<field name=\"C\" low=\"8\" high=\"11\" type=\"uint\"/>\n"
	              "<derived name=\"D\" type=\"int\" width=\"%u\"><expr>%s</expr></derived>\n"
	              "<pattern low=\"12\" high=\"15\">0000</pattern>\n</bitset>\n</isa>\n",
	              x->width, x->text.s);
	/* the truth, word by word */
	unsigned truth = 0;
	bool lost = false;
	for (unsigned w = 0; w < 4096; w++) {
		int64_t f[3] = {w & 15, (w >> 4) & 15, (w >> 8) & 15};
		unsigned hz = 0;
		int64_t v = rex_eval(&g, root, f, &hz);
		truth |= hz;
		int64_t lo = -((int64_t)1 << (x->width - 1)), hi = ((int64_t)1 << x->width) - 1;
		lost |= !hz && (v < lo || v > hi); /* asked of hazard-free words */
	}
	x->want[0] = truth & R_OVF;
	x->want[1] = truth & R_DIV;
	x->want[2] = truth & R_SHIFT;
	x->want[3] = lost;
}

void semgen_expr_free(semgen_expr *x)
{
	free(x->xml.s);
	free(x->text.s);
	x->xml.s = x->text.s = NULL;
}

bool semgen_expr_judge(const semgen_expr *x, semgen_expr_tally *t, char *why, size_t len)
{
	size_t before = t->asked - t->agree + t->unusable;
	if (why && len)
		why[0] = 0;
	spec_diags d = {0}, sd = {0};
	spec_model *m = spec_load_buffer("random-expr.xml", x->xml.s, x->xml.n, ".", &d);
	prove_options opt = prove_default_options();
	/* a random expression of several 64-bit divisions can keep Z3 busy
	 * for the default 10 s; its unknown is allowed, its time is not */
	opt.timeout_ms = 2000;
	opt.time_limit_ms = x->budget_ms;
	semantic_stats st;
	if (!m || !prove_semantic(m, &opt, &sd, &st)) {
		t->unusable++;
		semgen_note(why, len, x->xml.s, "the spec %s", m ? "does not prove" : "does not load");
		goto done;
	}
	static const char *const rules[] = {"expr-overflow", "expr-divide-by-zero",
	                                    "expr-shift-range", "derived-value-lost"};
	bool says[4] = {0}, unsure = false;
	for (size_t i = 0; i < sd.count; i++) {
		for (unsigned k = 0; k < 4; k++)
			says[k] |= !strcmp(sd.items[i].rule, rules[k]);
		unsure |= !strcmp(sd.items[i].rule, "semantic-unknown");
	}
	t->asked++;
	t->unknown += unsure;
	bool same = true;
	for (unsigned k = 0; k < 4; k++) {
		t->found += says[k];
		/* unknown may stand for a yes, never for a wrong no */
		same &= says[k] == x->want[k] || (unsure && x->want[k] && !says[k]);
	}
	t->agree += same;
	if (!same)
		semgen_note(why, len, x->xml.s,
		            "%s (width %u): brute force: overflow %d divide %d shift %d lost %d; "
		            "the proofs: overflow %d divide %d shift %d lost %d%s", x->text.s, x->width,
		            x->want[0], x->want[1], x->want[2], x->want[3], says[0], says[1], says[2],
		            says[3], unsure ? " (some unknown)" : "");
done:
	spec_model_free(m);
	spec_diags_free(&sd);
	spec_diags_free(&d);
	return t->asked - t->agree + t->unusable == before;
}

/* ------------------------------------------------ symbolic round trips */

/* Bits lo..hi of a leaf or sub-leaf: one random kind of claim. */
static void claim(semgen_text *b, semgen_rng *r, unsigned lo, unsigned hi, unsigned kind,
                  const char *name, const char *type)
{
	switch (kind) {
	case 0: /* don't-care */
	case 1: /* fixed */
		semgen_printf(b, "  <pattern low=\"%u\" high=\"%u\">", lo, hi);
		for (unsigned i = lo; i <= hi; i++)
			semgen_printf(b, "%s", kind ? (semgen_below(r, 2) ? "1" : "0") : "x");
		semgen_printf(b, "</pattern>\n");
		break;
	case 2: /* an assert */
		semgen_printf(b, "  <assert low=\"%u\" high=\"%u\">", lo, hi);
		for (unsigned i = lo; i <= hi; i++)
			semgen_printf(b, "%u", semgen_below(r, 2));
		semgen_printf(b, "</assert>\n");
		break;
	case 3: /* nothing: a hole */
		break;
	default:
		semgen_printf(b, "  <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"%s\"/>\n", name, lo, hi, type);
		break;
	}
}

void semgen_rt_make(semgen_text *b, semgen_rng *r)
{
	semgen_printf(b, "<isa>\n");
	bool param = semgen_below(r, 2);
	semgen_printf(b, "<bitset name=\"#sub\" size=\"4\">\n  <field name=\"NUM\" low=\"0\" high=\"1\" "
	       "type=\"uint\"/>\n");
	claim(b, r, 2, 2, semgen_below(r, 3) ? 4 + semgen_below(r, 2) : semgen_below(r, 4), "M", "uint");
	semgen_printf(b, "</bitset>\n");
	for (unsigned s = 0; s < 2; s++) {
		semgen_printf(b, "<bitset name=\"s%u\" extends=\"#sub\">\n  <pattern pos=\"3\">%u</pattern>\n", s, s);
		if (param && s == 0 && semgen_below(r, 2))
			semgen_printf(b, "  <override><expr>{P} == %u</expr>\n    <assert pos=\"%u\">%u</assert>\n"
			       "    <display>h{NUM}</display>\n  </override>\n",
			    semgen_below(r, 2), semgen_below(r, 3), semgen_below(r, 2));
		semgen_printf(b, "  <display>%s{NUM}</display>\n</bitset>\n", s ? "c" : "r");
	}
	semgen_printf(b, "<bitset name=\"#instruction\" size=\"16\"></bitset>\n");
	unsigned nleaves = 1 + semgen_below(r, 4);
	for (unsigned l = 0; l < nleaves; l++) {
		semgen_printf(b, "<bitset name=\"l%u\" extends=\"#instruction\">\n", l);
		semgen_printf(b, "  <pattern low=\"14\" high=\"15\">%u%u</pattern>\n", (l >> 1) & 1, l & 1);
		char names[16][8];
		unsigned nf = 0;
		int subf = -1, plainf = -1;
		for (unsigned p = 0; p < 14;) {
			unsigned w = 1 + semgen_below(r, 4);
			if (p + w > 14)
				w = 14 - p;
			unsigned kind = semgen_below(r, 9);
			if (kind == 8 && p + 4 <= 14 && subf < 0 && (!param || plainf >= 0)) {
				snprintf(names[nf], sizeof names[nf], "F%u", nf);
				semgen_printf(b, "  <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"#sub\">", names[nf], p,
				    p + 3);
				if (param)
					semgen_printf(b, "<param name=\"%s\" as=\"P\"/>", names[plainf]);
				semgen_printf(b, "</field>\n");
				subf = (int)nf++;
				p += 4;
				continue;
			}
			if (kind >= 4) {
				snprintf(names[nf], sizeof names[nf], "F%u", nf);
				claim(b, r, p, p + w - 1, 4, names[nf], semgen_below(r, 2) ? "uint" : "int");
				plainf = (int)nf++;
			} else {
				claim(b, r, p, p + w - 1, kind, NULL, NULL);
			}
			p += w;
		}
		if (semgen_below(r, 3) == 0)
			semgen_printf(b, "  <derived name=\"D\" expr=\"#d\" type=\"uint\" width=\"8\"/>\n");
		/* an override on a field: its own field over other bits, an
		 * assert, a display that may print the #sub field */
		if (nf && semgen_below(r, 2)) {
			unsigned on = semgen_below(r, nf);
			semgen_printf(b, "  <override><expr>{%s} == %u</expr>\n", names[on], semgen_below(r, 2));
			unsigned lo = semgen_below(r, 14), hi = lo + semgen_below(r, 3);
			if (hi > 13)
				hi = 13;
			if (semgen_below(r, 2))
				semgen_printf(b, "    <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"uint\"/>\n",
				    semgen_below(r, 2) ? "G" : names[semgen_below(r, nf)], lo, hi);
			if (semgen_below(r, 3) == 0) {
				unsigned at = semgen_below(r, 14);
				semgen_printf(b, "    <assert pos=\"%u\">%u</assert>\n", at, semgen_below(r, 2));
			}
			if (semgen_below(r, 3))
				semgen_printf(b, "    <display>o%s%s%s</display>\n", subf >= 0 && semgen_below(r, 2) ? " {" : "",
				    subf >= 0 ? names[subf] : "", "");
			semgen_printf(b, "  </override>\n");
		}
		semgen_printf(b, "  <display>{NAME}");
		for (unsigned i = 0; i < nf; i++)
			if (semgen_below(r, 4))
				semgen_printf(b, " {%s}", names[i]);
		semgen_printf(b, "</display>\n</bitset>\n");
	}
	semgen_printf(b, "<expr name=\"#d\">{F0} + 1</expr>\n");
	semgen_printf(b, "</isa>\n");
}

/* The diagnostic of the round-trip proof about leaf name: "roundtrip-lost",
 * "semantic-unknown", or NULL (proved); its message in *msg. */
static const char *rt_verdict_of(const spec_diags *sd, const char *name, const char **msg)
{
	char lost[128], unknown[128];
	snprintf(lost, sizeof lost, "every word of '%s' back:", name);
	snprintf(unknown, sizeof unknown, "every word of '%s' back is unknown", name);
	for (size_t i = 0; i < sd->count; i++) {
		const spec_diag *x = &sd->items[i];
		if ((!strcmp(x->rule, "roundtrip-lost") && strstr(x->message, lost)) ||
		    (!strcmp(x->rule, "semantic-unknown") && strstr(x->message, unknown))) {
			*msg = x->message;
			return x->rule;
		}
	}
	*msg = NULL;
	return NULL;
}

bool semgen_rt_judge(const char *name, const char *xml, const char *const *expect,
                     semgen_rt_tally *t, char *why, size_t len)
{
	size_t before = t->disagree + t->unusable;
	if (why && len)
		why[0] = 0;
	spec_diags d = {0}, sd = {0};
	spec_model *m = spec_load_buffer(name, xml, strlen(xml), ".", &d);
	/* gc: the general codec, whose encoder goes by names and fields
	 * where c's has tables and masks: both give every word back alike */
	codec *c = m ? codec_new(m, &d) : NULL, *gc = m ? codec_new_general(m, &d) : NULL;
	if (!c || !gc) {
		t->unusable++;
		semgen_note(why, len, xml, "%s %s: %s", name, m ? "has no codec" : "does not load",
		            d.count ? d.items[d.count - 1].message : "no message");
		goto done;
	}
	prove_text_ops ops = {.ctx = c, .decode = prove_ops_decode, .roundtrip = prove_ops_roundtrip};
	prove_options opt = prove_default_options();
	opt.timeout_ms = 5000;
	opt.text = &ops;
	semantic_stats st;
	if (!prove_semantic(m, &opt, &sd, &st)) {
		t->unusable++;
		semgen_note(why, len, xml, "%s: prove_semantic failed", name);
		goto done;
	}
	/* the roots words start from (#instruction, and #sub when no field
	 * decodes it): every word of each, and which leaves lose one */
	size_t asked = 0, proved = 0, findings = 0, unknown = 0;
	for (size_t ri = 0; ri < m->nroots; ri++) {
		const spec_root *root = &m->roots[ri];
		if (spec_is_field_type(m, root->bitset))
			continue;
		if (root->nleaves > 64 || root->bitset->size > 16) {
			t->unusable++;
			semgen_note(why, len, xml, "%s: root %s is too large for brute force", name,
			            root->bitset->name);
			goto done;
		}
		size_t lost[64] = {0};
		for (uint64_t w = 0; w < ((uint64_t)1 << root->bitset->size); w++) {
			const spec_bitset *leaf = NULL, *gleaf = NULL;
			uint64_t o[1], go[1];
			codec_roundtrip_result r = codec_roundtrip(c, root, &w, 0, &leaf, o, NULL, NULL, 0);
			codec_roundtrip_result gr =
			    codec_roundtrip(gc, root, &w, 0, &gleaf, go, NULL, NULL, 0);
			if (gr != r || gleaf != leaf || (r != CODEC_RT_NO_MEANING && go[0] != o[0])) {
				t->disagree++;
				semgen_note(why, len, xml, "%s: word 0x%04llx: the general codec's round "
				            "trip (%d, 0x%llx) is not the codec's (%d, 0x%llx)", name,
				            (unsigned long long)w, (int)gr, (unsigned long long)go[0], (int)r,
				            (unsigned long long)o[0]);
				goto done;
			}
			if (r != CODEC_RT_REFUSED && r != CODEC_RT_CHANGED)
				continue;
			for (size_t l = 0; l < root->nleaves; l++)
				lost[l] += root->leaves[l] == leaf;
		}
		for (size_t l = 0; l < root->nleaves; l++, asked++) {
			const spec_bitset *leaf = root->leaves[l];
			const char *msg;
			const char *rule = rt_verdict_of(&sd, leaf->name, &msg);
			const char *verdict = !rule                             ? "proved"
			                      : !strcmp(rule, "roundtrip-lost") ? "finding"
			                                                        : "unknown";
			bool agree =
				!strcmp(verdict, "unknown") || (lost[l] > 0) == !strcmp(verdict, "finding");
			/* a finding's word is one that does not come back */
			if (!strcmp(verdict, "finding")) {
				const char *h = strstr(msg, "back: ");
				uint64_t w = h ? strtoull(h + 6, NULL, 16) : 0;
				const spec_bitset *got = NULL;
				uint64_t o[1];
				codec_roundtrip_result r = codec_roundtrip(c, root, &w, 0, &got, o, NULL, NULL, 0);
				agree = agree && got == leaf && (r == CODEC_RT_REFUSED || r == CODEC_RT_CHANGED);
			}
			if (expect && !strcmp(root->bitset->name, "#instruction") && expect[l])
				agree = agree && !strcmp(verdict, expect[l]);
			if (!agree) {
				t->disagree++;
				semgen_note(why, len, xml, "%s: leaf %s: verdict %s (%s), brute force: %zu "
				            "words lost", name, leaf->name, verdict, msg ? msg : "-", lost[l]);
			}
			t->lost_words += lost[l];
			*(!strcmp(verdict, "proved")    ? &proved
			  : !strcmp(verdict, "finding") ? &findings
			                                : &unknown) += 1;
		}
	}
	t->leaves += asked;
	t->proved += proved;
	t->findings += findings;
	t->unknown += unknown;
	/* the counts say what the diagnostics say */
	if (st.roundtrips != asked || st.roundtrip_kept != proved ||
	    st.roundtrip_findings != findings || st.roundtrip_unknown != unknown) {
		t->disagree++;
		semgen_note(why, len, xml, "%s: the counts (%zu leaves: %zu, %zu, %zu) are not the "
		            "diagnostics' (%zu: %zu, %zu, %zu)", name, (size_t)st.roundtrips,
		            (size_t)st.roundtrip_kept, (size_t)st.roundtrip_findings,
		            (size_t)st.roundtrip_unknown, asked, proved, findings, unknown);
	}
done:
	codec_free(c);
	codec_free(gc);
	spec_model_free(m);
	spec_diags_free(&d);
	spec_diags_free(&sd);
	return t->disagree + t->unusable == before;
}
