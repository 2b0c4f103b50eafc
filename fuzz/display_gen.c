/*
 * display_gen.c - random specs of 16-bit roots and the display proofs
 * judged against all their words (display_gen.h).
 */
#include "display_gen.h"

#include "cli/prove_ops.h" /* the decoder confirming witnesses, as the CLI passes it */
#include "codec.h"
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- the oracle */

/* Per leaf, whether two words print alike and decode differently. */
typedef struct truth {
	const spec_bitset *leaf;
	bool collides;
} truth;

/* The table of all words' texts, per leaf: each distinct text once, in
 * one arena, with the digest of the first word's values and whether
 * another word printing it decodes otherwise.  Compact, and made once per
 * root: its pages, not the proofs, were most of an execution of the fuzz
 * target (a 10 MB zeroed table and 65,536 strdup'd texts, twice). */
typedef struct seen {
	uint64_t digest;
	uint32_t text;     /* offset in the arena + 1; 0: an empty slot */
	uint32_t leaf : 31; /* spec_bitset.index */
	uint32_t collides : 1;
} seen;

typedef struct table {
	seen slot[1u << 17]; /* a power of 2, twice the 2^16 words at most */
	char *arena;
	size_t n, cap;
} table;

#define TABLE_SLOTS (sizeof ((table *)0)->slot / sizeof (seen))

static uint64_t hash_text(const char *t, size_t leaf)
{
	uint64_t h = 1469598103934665603u ^ leaf;
	for (; *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211u;
	return h;
}

static seen *table_find(table *tab, const spec_bitset *leaf, const char *text)
{
	for (size_t at = hash_text(text, leaf->index) & (TABLE_SLOTS - 1);;
	     at = (at + 1) & (TABLE_SLOTS - 1)) {
		seen *s = &tab->slot[at];
		if (!s->text || (s->leaf == leaf->index && !strcmp(tab->arena + s->text - 1, text)))
			return s;
	}
}

static void table_free(table *tab)
{
	if (tab)
		free(tab->arena);
	free(tab);
}

/* Every word of root decoded and printed into a table (NULL: out of
 * memory): the text as printer prints it, the digest of the values. */
static table *brute_force(const codec *c, const spec_root *root, prove_printer printer)
{
	table *tab = calloc(1, sizeof *tab);
	if (!tab)
		return NULL;
	for (uint64_t w = 0; w < ((uint64_t)1 << root->bitset->size); w++) {
		const spec_bitset *leaf;
		char text[512];
		uint64_t digest;
		if (!codec_decode_digest(c, root, &w, 0, &leaf, text, sizeof text, &digest))
			continue;
		if (printer == PROVE_PRINTER_AFUC) {
			uint32_t u = (uint32_t)w;
			codec_disasm_options o = {.show_errors = true, .no_match = CODEC_NO_MATCH_AFUC};
			codec_disasm_one(c, &u, &o, text, sizeof text);
		}
		seen *s = table_find(tab, leaf, text);
		if (s->text) {
			s->collides |= s->digest != digest;
			continue;
		}
		size_t len = strlen(text) + 1;
		if (tab->n + len > tab->cap) {
			size_t cap = tab->cap ? 2 * tab->cap : 1u << 16;
			while (cap < tab->n + len)
				cap *= 2;
			char *grown = realloc(tab->arena, cap);
			if (!grown) {
				table_free(tab);
				return NULL;
			}
			tab->arena = grown;
			tab->cap = cap;
		}
		memcpy(tab->arena + tab->n, text, len);
		*s = (seen){digest, (uint32_t)tab->n + 1, (uint32_t)leaf->index, 0};
		tab->n += len;
	}
	return tab;
}

#define note semgen_note

/* A spec loaded once for both judgements: its codec, the proofs'
 * options with the decoder glue, and each root's table of all words,
 * made when first asked (the tables are most of the brute force). */
typedef struct judged {
	const char *name, *xml;
	spec_model *m;
	codec *c;
	spec_diags d;
	prove_options opt;
	prove_text_ops ops;
	table **tabs;            /* per root; NULL: not made yet */
	prove_printer *tab_printer;
} judged;

/* false: counted unusable and noted */
static bool judged_open(judged *j, const char *name, const char *xml, dispgen_tally *t,
                        char *why, size_t len)
{
	*j = (judged){.name = name, .xml = xml};
	j->m = spec_load_buffer(name, xml, strlen(xml), ".", &j->d);
	j->c = j->m ? codec_new(j->m, &j->d) : NULL;
	j->ops = (prove_text_ops){.ctx = j->c, .decode = prove_ops_decode,
	                          .differ = prove_ops_differ};
	j->opt = prove_default_options();
	j->opt.timeout_ms = 5000;
	j->opt.text = &j->ops;
	if (j->c) {
		j->tabs = calloc(j->m->nroots, sizeof *j->tabs);
		j->tab_printer = calloc(j->m->nroots, sizeof *j->tab_printer);
		if (j->tabs && j->tab_printer)
			return true;
	}
	t->unusable++;
	note(why, len, xml, "%s %s: %s", name,
	     !j->m ? "does not load" : !j->c ? "has no codec" : "is out of memory",
	     j->d.count ? j->d.items[j->d.count - 1].message : "no message");
	return false;
}

/* root ri's table as printer prints (NULL: out of memory, counted and
 * noted) */
static table *judged_table(judged *j, size_t ri, prove_printer printer, dispgen_tally *t,
                           char *why, size_t len)
{
	if (j->tabs[ri] && j->tab_printer[ri] != printer) {
		table_free(j->tabs[ri]);
		j->tabs[ri] = NULL;
	}
	if (!j->tabs[ri]) {
		j->tabs[ri] = brute_force(j->c, &j->m->roots[ri], printer);
		j->tab_printer[ri] = printer;
	}
	if (!j->tabs[ri]) {
		t->unusable++;
		note(why, len, j->xml, "%s: out of memory", j->name);
	}
	return j->tabs[ri];
}

static void judged_close(judged *j)
{
	for (size_t ri = 0; j->tabs && ri < j->m->nroots; ri++)
		table_free(j->tabs[ri]);
	free(j->tabs);
	free(j->tab_printer);
	codec_free(j->c);
	spec_model_free(j->m);
	spec_diags_free(&j->d);
}

/* the roots judged: those no field decodes, of 16 bits or fewer */
static bool judged_root(const judged *j, size_t ri)
{
	const spec_root *root = &j->m->roots[ri];
	return !spec_is_field_type(j->m, root->bitset) && root->bitset->size <= 16;
}

/* ------------------------------------------------------ leaf verdicts */

static void judge_leaves(judged *j, const dispgen_options *o, dispgen_tally *t, char *why,
                         size_t len)
{
	const char *name = j->name, *xml = j->xml;
	const spec_model *m = j->m;
	spec_diags sd = {0};
	prove_options opt = j->opt;
	opt.rlimit = o->rlimit;
	opt.printer = o->printer;
	semantic_stats st;
	if (!prove_semantic(m, &opt, &sd, &st)) {
		t->unusable++;
		note(why, len, xml, "%s: prove_semantic failed", name);
		goto done;
	}
	size_t n = 0, counted = t->proved + t->findings + t->unknown;
	for (size_t ri = 0; ri < m->nroots; ri++) {
		if (!judged_root(j, ri))
			continue;
		const spec_root *root = &m->roots[ri];
		table *tab = judged_table(j, ri, o->printer, t, why, len);
		if (!tab)
			goto done;
		truth truths[32];
		size_t nt = 0;
		for (size_t l = 0; l < root->nleaves && nt < 32; l++)
			truths[nt++] = (truth){root->leaves[l], false};
		for (size_t i = 0; i < TABLE_SLOTS; i++)
			for (size_t l = 0; tab->slot[i].collides && l < nt; l++)
				truths[l].collides |= truths[l].leaf->index == tab->slot[i].leaf;
		for (size_t l = 0; l < nt; l++, n++) {
			char tag[128];
			snprintf(tag, sizeof tag, "text of '%s'", truths[l].leaf->name);
			const spec_diag *f = NULL;
			for (size_t i = 0; i < sd.count && !f; i++)
				if (strstr(sd.items[i].message, tag))
					f = &sd.items[i];
			const char *verdict = !f                                      ? "proved"
			                      : !strcmp(f->rule, "display-same-text") ? "finding"
			                                                              : "unknown";
			bool agree = !strcmp(verdict, "unknown") ||
			             truths[l].collides == !strcmp(verdict, "finding");
			if (o->expect && o->expect[n])
				agree = agree && !strcmp(verdict, o->expect[n]);
			if (!agree) {
				t->disagree++;
				note(why, len, xml, "%s: leaf %s: verdict %s%s%s, brute force: %s", name,
				     truths[l].leaf->name, verdict, o->expect && o->expect[n] ? ", expected " : "",
				     o->expect && o->expect[n] ? o->expect[n] : "",
				     truths[l].collides ? "two words print alike"
				                        : "no two words print alike");
			}
			/* a finding names what tells its two words apart */
			if (o->says && o->says[n] && !(f && strstr(f->message, o->says[n]))) {
				t->disagree++;
				note(why, len, xml, "%s: leaf %s: '%s' not in: %s", name, truths[l].leaf->name,
				     o->says[n], f ? f->message : "(no finding)");
			}
			t->leaves++;
			*(!f                                      ? &t->proved
			  : !strcmp(f->rule, "display-same-text") ? &t->findings
			                                          : &t->unknown) += 1;
		}
	}
	/* the counts say what the diagnostics say */
	if (st.displays != n ||
	    st.display_invertible + st.display_findings + st.display_unknown !=
	        t->proved + t->findings + t->unknown - counted) {
		t->disagree++;
		note(why, len, xml, "%s: the counts (%zu leaves: %zu, %zu, %zu) are not the "
		     "diagnostics' (%zu leaves)", name, (size_t)st.displays,
		     (size_t)st.display_invertible, (size_t)st.display_findings,
		     (size_t)st.display_unknown, n);
	}
done:
	spec_diags_free(&sd);
}

/* ------------------------------------------------ one line at a time */

static void judge_lines(judged *j, semgen_rng *r, dispgen_tally *t, char *why, size_t len)
{
	const char *name = j->name, *xml = j->xml;
	const spec_model *m = j->m;
	const codec *c = j->c;
	prove_options opt = j->opt;
	/* one Z3 context for all the words asked: starting one is most of a
	 * word's proof (NULL: each word starts its own) */
	opt.solver = prove_solver_new();
	for (size_t ri = 0; ri < m->nroots; ri++) {
		if (!judged_root(j, ri))
			continue;
		const spec_root *root = &m->roots[ri];
		table *tab = judged_table(j, ri, PROVE_PRINTER_MESA, t, why, len);
		if (!tab)
			break;
		uint64_t nwords = (uint64_t)1 << root->bitset->size;
		/* a few words of each leaf: every fourth word whose text another
		 * word shares, the rest any */
		for (size_t l = 0; l < root->nleaves; l++) {
			unsigned asked = 0, colliding = 0;
			for (unsigned tries = 0; tries < 4096 && asked < 6; tries++) {
				uint64_t w = semgen_draw64(r) & (nwords - 1);
				const spec_bitset *leaf;
				char text[512];
				uint64_t digest;
				if (!codec_decode_digest(c, root, &w, 0, &leaf, text, sizeof text, &digest) ||
				    leaf != root->leaves[l])
					continue;
				bool collides = table_find(tab, leaf, text)->collides;
				if (collides && colliding * 4 > asked)
					continue;
				/* the proof is asked of the display's text alone (a name
				 * that resolves to nothing adds Mesa's error to the
				 * decoder's): text equal without the errors is equal
				 * with them, so a proof still holds */
				char shown[512];
				snprintf(shown, sizeof shown, "%s", text);
				char *errors = strstr(shown, "\t; ");
				if (errors)
					*errors = '\0';
				spec_diags sd = {0};
				int v = prove_display_word(m, &opt, root, &w, 0, shown, &sd);
				asked++;
				colliding += collides;
				t->asked++;
				t->colliding += collides;
				bool agree = v == PROVE_DISPLAY_UNKNOWN ||
				             (v == PROVE_DISPLAY_PROVED && !collides) ||
				             (v == PROVE_DISPLAY_SAME_TEXT && collides);
				if (!agree) {
					t->disagree++;
					note(why, len, xml, "%s: word %#llx of %s (\"%s\"): verdict %s, brute "
					     "force: %s", name, (unsigned long long)w, leaf->name, text,
					     v == PROVE_DISPLAY_PROVED ? "proved" : "another word prints it",
					     collides ? "another word prints it" : "no other word prints it");
				}
				if (v == PROVE_DISPLAY_UNKNOWN && getenv("ISACHECK_TEST_VERBOSE"))
					fprintf(stderr, "unknown: %s \"%s\" %s: %s\n", leaf->name, text,
					        collides ? "collides" : "unique",
					        sd.count ? sd.items[0].message : "-");
				*(v == PROVE_DISPLAY_PROVED      ? &t->proved
				  : v == PROVE_DISPLAY_SAME_TEXT ? &t->findings
				                                 : &t->unknown) += 1;
				spec_diags_free(&sd);
			}
		}
	}
	prove_solver_free(opt.solver);
}

static const dispgen_options no_options = {0};

bool dispgen_judge(const char *name, const char *xml, const dispgen_options *o,
                   dispgen_tally *t, char *why, size_t len)
{
	size_t before = t->disagree + t->unusable;
	if (why && len)
		why[0] = 0;
	judged j;
	if (judged_open(&j, name, xml, t, why, len))
		judge_leaves(&j, o ? o : &no_options, t, why, len);
	judged_close(&j);
	return t->disagree + t->unusable == before;
}

bool dispgen_judge_lines(const char *name, const char *xml, semgen_rng *r, dispgen_tally *t,
                         char *why, size_t len)
{
	size_t before = t->disagree + t->unusable;
	if (why && len)
		why[0] = 0;
	judged j;
	if (judged_open(&j, name, xml, t, why, len))
		judge_lines(&j, r, t, why, len);
	judged_close(&j);
	return t->disagree + t->unusable == before;
}

bool dispgen_judge_both(const char *name, const char *xml, semgen_rng *r, unsigned budget_ms,
                        dispgen_tally *t, char *why, size_t len)
{
	size_t before = t->disagree + t->unusable;
	if (why && len)
		why[0] = 0;
	judged j;
	if (judged_open(&j, name, xml, t, why, len)) {
		j.opt.time_limit_ms = budget_ms;
		judge_leaves(&j, &no_options, t, why, len);
		judge_lines(&j, r, t, why, len);
	}
	judged_close(&j);
	return t->disagree + t->unusable == before;
}

/* ------------------------------------------------------------- random */

static const char *const lits[] = {"", "", "", " ", ",", ".", "a", "1", "r", ", "};
/* digits: "1", "3" and "0" print like those values unnamed, "01" and "12"
 * like none of a 3-bit field's */
static const char *const enum_strs[] = {"", "a", "ab", "b", ".x", "1", "12", "x", "3", "01", "0"};

void dispgen_make(semgen_text *b, semgen_rng *r)
{
	semgen_printf(b, "<isa>\n<enum name=\"#e\">");
	for (unsigned v = 0; v < 8; v++)
		if (semgen_below(r, 4))
			semgen_printf(b, "<value val=\"%u\" display=\"%s\"/>", v,
			    enum_strs[semgen_below(r, sizeof enum_strs / sizeof *enum_strs)]);
	semgen_printf(b, "</enum>\n");
	/* a sub root: registers and constants, or alike; at times it reads a
	 * param P the parent binds to one of its own fields, printed or
	 * deciding an override of the sub's */
	bool alike = semgen_below(r, 3) == 0, param = semgen_below(r, 3) == 0;
	semgen_printf(b, "<bitset name=\"#sub\" size=\"4\"><field name=\"NUM\" low=\"0\" high=\"2\" "
	       "type=\"uint\"/></bitset>\n");
	semgen_printf(b, "<bitset name=\"s0\" extends=\"#sub\"><pattern pos=\"3\">0</pattern>");
	if (param && semgen_below(r, 2))
		semgen_printf(b, "<override><expr>{P} == %u</expr><display>h{NUM}</display></override>", semgen_below(r, 2));
	semgen_printf(b, "<display>r{NUM}</display></bitset>\n");
	semgen_printf(b, "<bitset name=\"s1\" extends=\"#sub\"><pattern pos=\"3\">1</pattern>"
	       "<display>%s{NUM}%s</display></bitset>\n",
	    alike ? "r" : "c", param && semgen_below(r, 2) ? ".{P}" : "");
	semgen_printf(b, "<bitset name=\"#instruction\" size=\"16\"></bitset>\n");
	unsigned nleaves = 1 + semgen_below(r, 3);
	for (unsigned l = 0; l < nleaves; l++) {
		semgen_printf(b, "<bitset name=\"l%u\" extends=\"#instruction\">\n", l);
		semgen_printf(b, "  <pattern low=\"14\" high=\"15\">%u%u</pattern>\n", (l >> 1) & 1, l & 1);
		char names[16][8];
		unsigned nf = 0, plain[16], nplain = 0, flow[16], fhigh[16];
		for (unsigned p = 0; p < 14;) {
			unsigned w = 1 + semgen_below(r, 4);
			if (p + w > 14)
				w = 14 - p;
			unsigned kind = semgen_below(r, 10);
			if (kind == 0) {
				semgen_printf(b, "  <pattern low=\"%u\" high=\"%u\">", p, p + w - 1);
				for (unsigned i = 0; i < w; i++)
					semgen_printf(b, "x");
				semgen_printf(b, "</pattern>\n");
			} else if (kind == 1) {
				semgen_printf(b, "  <pattern low=\"%u\" high=\"%u\">", p, p + w - 1);
				for (unsigned i = 0; i < w; i++)
					semgen_printf(b, "%u", semgen_below(r, 2));
				semgen_printf(b, "</pattern>\n");
			} else {
				snprintf(names[nf], sizeof names[nf], "F%u", nf);
				static const char *const types[] = {"uint", "int", "hex", "offset", "#e"};
				/* with a param, a #sub field needs a field before it to bind */
				if (kind == 2 && p + 4 <= 14 && (!param || nplain)) {
					w = 4;
					semgen_printf(b, "  <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"#sub\">",
					    names[nf], p, p + 3);
					if (param)
						semgen_printf(b, "<param name=\"%s\" as=\"P\"/>", names[plain[semgen_below(r, nplain)]]);
					semgen_printf(b, "</field>\n");
				} else if (kind == 3) {
					w = 1;
					static const char *const bd[] = {" display=\".s\"", " display=\".t\"",
					                                 " display=\"\"", ""};
					semgen_printf(b, "  <field name=\"%s\" pos=\"%u\" type=\"bool\"%s/>\n", names[nf], p,
					    bd[semgen_below(r, 4)]);
					plain[nplain++] = nf;
				} else {
					const char *ty = types[semgen_below(r, 5)];
					if (!strcmp(ty, "#e") && w > 3)
						w = 3;
					semgen_printf(b, "  <field name=\"%s\" low=\"%u\" high=\"%u\" type=\"%s\"/>\n", names[nf],
					    p, p + w - 1, ty);
					flow[nplain] = p;
					fhigh[nplain] = p + w - 1;
					plain[nplain++] = nf;
				}
				nf++;
			}
			p += w;
		}
		/* at times an override with no display of its own retypes a
		 * plain field: whichever display is shown, it may hold */
		if (nplain && nf && semgen_below(r, 3) == 0) {
			static const char *const retype[] = {"hex", "int", "#e", "uint"};
			unsigned k = semgen_below(r, nplain);
			semgen_printf(b, "  <override><expr>{%s} == %u</expr><field name=\"%s\" low=\"%u\" "
			       "high=\"%u\" type=\"%s\"/></override>\n",
			    names[semgen_below(r, nf)], semgen_below(r, 2), names[plain[k]], flow[k], fhigh[k],
			    retype[semgen_below(r, 4)]);
		}
		/* displays: some fields, random order, random literals between */
		for (int pass = semgen_below(r, 3) == 0 ? 0 : 1; pass < 2; pass++) {
			/* an override needs a field for its condition: a leaf of
			 * patterns alone gets none (found by the fuzz target
			 * "displays": its display was closed as an override's) */
			if (pass == 0 && !nf)
				continue;
			if (pass == 0) {
				semgen_printf(b, "  <override><expr>{%s} == %u</expr>", names[semgen_below(r, nf)], semgen_below(r, 2));
				/* at times the override reads a plain field's bits through
				 * a type of its own: printed so in its display, and in the
				 * default's where the override does not hold */
				if (nplain && semgen_below(r, 2)) {
					static const char *const retype[] = {"hex", "int", "#e", "uint"};
					unsigned k = semgen_below(r, nplain);
					semgen_printf(b, "<field name=\"%s\" low=\"%u\" high=\"%u\" type=\"%s\"/>",
					    names[plain[k]], flow[k], fhigh[k], retype[semgen_below(r, 4)]);
				}
				semgen_printf(b, "<display>");
			} else {
				semgen_printf(b, "  <display>");
			}
			semgen_printf(b, "%s", semgen_below(r, 2) ? "{NAME} " : "op ");
			/* every field once, in a random order, one left out at times */
			unsigned order[16];
			for (unsigned i = 0; i < nf; i++)
				order[i] = i;
			for (unsigned i = nf; i > 1; i--) {
				unsigned j = semgen_below(r, i), x = order[i - 1];
				order[i - 1] = order[j];
				order[j] = x;
			}
			unsigned parts = nf && semgen_below(r, 4) == 0 ? nf - 1 : nf;
			for (unsigned i = 0; i < parts; i++)
				semgen_printf(b, "%s{%s}", i ? lits[semgen_below(r, 10)] : "", names[order[i]]);
			semgen_printf(b, "%s</display>%s\n", pass == 0 ? " z" : "", pass == 0 ? "</override>" : "");
		}
		semgen_printf(b, "</bitset>\n");
	}
	semgen_printf(b, "</isa>\n");
}

