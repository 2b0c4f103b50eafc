/* test_spec.c - the loader and model on small specs written here. */
#include "spec.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static spec_model *load_str(const char *xml, spec_diags *d)
{
	return spec_load_buffer("t.xml", xml, strlen(xml), ".", d);
}

/* Count of diagnostics with this rule (and line, when line != 0). */
static int count_rule(const spec_diags *d, const char *rule, unsigned line)
{
	int n = 0;
	for (size_t i = 0; i < d->count; i++)
		if (!strcmp(d->items[i].rule, rule) && (!line || d->items[i].loc.line == line))
			n++;
	return n;
}

static void dump(const spec_diags *d)
{
	for (size_t i = 0; i < d->count; i++)
		fprintf(stderr, "  %u:%u %s %s\n", d->items[i].loc.line, d->items[i].loc.col,
		        d->items[i].rule, d->items[i].message);
}

static const char basic[] =
	"<?xml version=\"1.0\"?>\n"                                       /* 1 */
	"<isa>\n"                                                          /* 2 */
	"<enum name=\"#op\">\n"                                            /* 3 */
	"  <value val=\"1\" display=\"add\"/>\n"                           /* 4 */
	"  <value val=\"0x2\" display=\"sub\" name=\"SUB\"/>\n"            /* 5 */
	"</enum>\n"                                                        /* 6 */
	"<expr name=\"#big\">{A} &gt; 100</expr>\n"                        /* 7 */
	"<template name=\"T\">[{A}]</template>\n"                          /* 8 */
	"<bitset name=\"#instr\" size=\"64\">\n"                           /* 9 */
	"  <gen min=\"300\" max=\"799\"/>\n"                               /* 10 */
	"  <pattern low=\"60\" high=\"63\">01x0</pattern>\n"               /* 11 */
	"  <field name=\"A\" low=\"0\" high=\"7\" type=\"uint\"/>\n"       /* 12 */
	"  <field name=\"OP\" low=\"8\" high=\"9\" type=\"#op\"/>\n"       /* 13 */
	"  <display>{NAME} {T}</display>\n"                                /* 14 */
	"</bitset>\n"                                                      /* 15 */
	"<bitset name=\"add\" extends=\"#instr\" displayname=\"ADD\">\n"   /* 16 */
	"  <gen min=\"500\"/>\n"                                           /* 17 */
	"  <override expr=\"#big\">\n"                                     /* 18 */
	"    <display>{NAME} big {A}</display>\n"                          /* 19 */
	"    <derived name=\"D\" type=\"int\" width=\"4\">\n"              /* 20 */
	"      <expr>{A} - 100</expr>\n"                                   /* 21 */
	"    </derived>\n"                                                 /* 22 */
	"  </override>\n"                                                  /* 23 */
	"  <pattern low=\"10\" high=\"59\">"
	"00000000000000000000000000000000000000000000000001</pattern>\n"   /* 24 */
	"</bitset>\n"                                                      /* 25 */
	"<bitset name=\"sub\" extends=\"#instr\">\n"                       /* 26 */
	"  <pattern low=\"10\" high=\"59\">"
	"000000000000000000000000000000000000000000000000xx</pattern>\n"   /* 27 */
	"  <assert pos=\"62\">0</assert>\n"                                /* 28 */
	"</bitset>\n"                                                      /* 29 */
	"</isa>\n";

TEST(basic_model)
{
	spec_diags d = {0};
	spec_model *m = load_str(basic, &d);
	CHECK(m != NULL);
	/* sub's assert on bit 62 (line 28) overlaps the root's pattern. */
	CHECK_INT(count_rule(&d, "bits-conflict", 28), 1);
	CHECK_INT(d.count, 1);
	if (!m) {
		spec_diags_free(&d);
		return;
	}
	spec_stats s = spec_model_stats(m);
	CHECK_INT(s.bitsets, 3);
	CHECK_INT(s.roots, 1);
	CHECK_INT(s.leaves, 2);
	CHECK_INT(s.enums, 1);
	CHECK_INT(s.exprs, 2); /* #big and the anonymous one in <derived> */
	CHECK_INT(s.templates, 1);
	CHECK_INT(m->bitsize, 64);

	const spec_bitset *root = spec_find_bitset(m, "#instr");
	const spec_bitset *add = spec_find_bitset(m, "add");
	CHECK(root && add);
	if (!root || !add)
		goto out;
	CHECK(add->parent == root && add->root == root && root->root == root);
	CHECK_INT(add->size, 64);
	CHECK_STR(spec_display_name(add), "ADD");
	CHECK_INT(root->loc.line, 9);
	CHECK_INT(root->loc.col, 1);
	CHECK_INT(add->gen.min, 500);
	CHECK_INT(add->gen.max, 799);
	CHECK_INT(root->gen.min, 300);
	/* Patterns: root pins 63..60 = 0,1,x,0; add pins 10 = 1 and 11..59 = 0. */
	CHECK(add->match.w[0] == ((1ull << 62) | (1ull << 10)));
	CHECK(add->dontcare.w[0] == (1ull << 61));
	CHECK(add->mask.w[0] == ~0ull << 10);
	CHECK(add->field_mask.w[0] == 0x3ffull);
	CHECK(root->own_mask.w[0] == 0xfull << 60);
	/* Cases: the override first, the default last. */
	CHECK_INT(add->ncases, 2);
	CHECK(add->cases[0].expr != NULL);
	/* Expressions keep where they were written, and evaluate. */
	CHECK_INT(spec_expr_loc(add->cases[0].fields[0].expr).line, 21);
	CHECK_INT(spec_expr_loc(add->cases[0].fields[0].expr).col, 13);
	CHECK_INT(spec_expr_loc(add->cases[0].expr).line, 7);
	CHECK_STR(add->cases[0].expr_name, "#big");
	CHECK_STR(add->cases[0].display, "{NAME} big {A}");
	CHECK_INT(add->cases[0].nfields, 1);
	CHECK_INT(add->cases[0].fields[0].kind, SPEC_DERIVED);
	CHECK_INT(add->cases[0].fields[0].high, 3);
	CHECK(add->cases[1].expr == NULL);
	/* The template is spliced into the root's display. */
	CHECK_STR(root->cases[root->ncases - 1].display, "{NAME} [{A}]");
	const spec_field *op = &root->cases[0].fields[1];
	CHECK_STR(op->name, "OP");
	CHECK_INT(op->type, SPEC_TYPE_ENUM);
	CHECK(op->enm == spec_find_enum(m, "#op"));
	CHECK_STR(spec_enum_lookup(op->enm, 2)->display, "sub");
	CHECK_STR(spec_enum_lookup(op->enm, 2)->name, "SUB");
	CHECK(spec_enum_lookup(op->enm, 3) == NULL);
	const spec_root *r = spec_find_root(m, "#instr");
	CHECK(r && r->nleaves == 2 && r->leaves[0] == add);
	/* The assert holds its value bits where they sit. */
	const spec_bitset *sub = spec_find_bitset(m, "sub");
	CHECK(sub && sub->cases[0].fields[0].kind == SPEC_ASSERT);
	CHECK_STR(sub->cases[0].fields[0].name, "sub#assert0");
out:
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(wide_roots_and_columns)
{
	static const char xml[] =
		"<isa>\n"
		"<bitset name=\"#w\" size=\"128\">\n"
		"  <pattern low=\"64\" high=\"127\">"
		"x000000000000000000000000000000000000000000000000000000000000001</pattern>\n"
		"  <field    name=\"LO\" low=\"0\" high=\"63\" type=\"hex\"/>\n"
		"  <display>{LO}</display>\n"
		"</bitset>\n"
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	CHECK_INT(d.count, 0);
	if (d.count)
		dump(&d);
	if (m) {
		const spec_bitset *b = m->bitsets[0];
		CHECK_INT(b->mask.nwords, 2);
		CHECK(b->match.w[1] == 1);
		CHECK(b->dontcare.w[1] == 1ull << 63);
		CHECK(spec_bit(b->dontcare, 127));
		CHECK(!spec_bit(b->dontcare, 126));
		CHECK_INT(b->cases[0].fields[0].loc.line, 4);
		CHECK_INT(b->cases[0].fields[0].loc.col, 3);
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(attribute_columns_and_suggestions)
{
	static const char xml[] =
		"<isa>\n"
		"<bitset name=\"#i\" size=\"32\">\n"
		"  <field name=\"A\" low=\"0\" high=\"31\" tpye=\"uint\"/>\n"
		"  <feild name=\"B\" pos=\"3\"/>\n"
		"</bitset>\n"
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	spec_diags_sort(&d);
	/* unknown attribute at its own column, with a suggestion */
	CHECK_INT(count_rule(&d, "unknown-attribute", 3), 1);
	CHECK_INT(count_rule(&d, "unknown-element", 4), 1);
	for (size_t i = 0; i < d.count; i++) {
		if (!strcmp(d.items[i].rule, "unknown-attribute")) {
			CHECK_INT(d.items[i].loc.col, 37);
			CHECK(strstr(d.items[i].message, "did you mean 'type'") != NULL);
		}
		if (!strcmp(d.items[i].rule, "unknown-element"))
			CHECK(strstr(d.items[i].message, "did you mean <field>") != NULL);
	}
	/* and the field without its type is missing-attribute */
	CHECK_INT(count_rule(&d, "missing-attribute", 3), 1);
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(variants_and_scope)
{
	static const char xml[] =
		"<isa>\n"                                                   /* 1 */
		"<bitset name=\"#i\" size=\"32\">\n"                        /* 2 */
		"  <field name=\"A\" low=\"0\" high=\"15\" type=\"#sub\">\n"/* 3 */
		"    <param name=\"B\" as=\"X\"/>\n"                        /* 4 */
		"  </field>\n"                                              /* 5 */
		"  <field name=\"B\" low=\"16\" high=\"23\" type=\"uint\"/>\n"
		"  <display>{NAME} {A} {B}</display>\n"                     /* 7 */
		"</bitset>\n"                                               /* 8 */
		"<bitset name=\"op\" extends=\"#i\">\n"                     /* 9 */
		"  <gen max=\"5\"/>\n"                                      /* 10 */
		"  <pattern low=\"24\" high=\"31\">00000001</pattern>\n"    /* 11 */
		"</bitset>\n"                                               /* 12 */
		"<bitset name=\"op\" extends=\"#i\">\n"                     /* 13 */
		"  <gen min=\"6\"/>\n"                                      /* 14 */
		"  <pattern low=\"24\" high=\"31\">00000010</pattern>\n"    /* 15 */
		"</bitset>\n"                                               /* 16 */
		"<bitset name=\"#sub\" size=\"16\">\n"                      /* 17 */
		"  <field name=\"V\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
		"  <display>{V}{X}{Y}</display>\n"                          /* 19 */
		"</bitset>\n"                                               /* 20 */
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	/* {X} arrives through the param; {Y} names nothing. */
	CHECK_INT(count_rule(&d, "ref-unknown", 19), 1);
	CHECK_INT(d.count, 1);
	if (d.count != 1)
		dump(&d);
	if (m) {
		const spec_bitset *a = spec_find_bitset_gen(m, "op", 3);
		const spec_bitset *b = spec_find_bitset_gen(m, "op", 6);
		CHECK(a && b && a != b);
		CHECK(a && a->loc.line == 9);
		CHECK(b && b->loc.line == 13);
		CHECK(spec_find_bitset_gen(m, "op", 7) == b);
		spec_stats s = spec_model_stats(m);
		CHECK_INT(s.leaves, 3);
		CHECK_INT(s.leaf_names, 2);
		CHECK_INT(s.roots, 2);
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(imports_relative_to_top_file)
{
	char dir[] = "/tmp/isacheck-test-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char sub[300], top[300], a[300], b[300];
	snprintf(sub, sizeof sub, "%s/sub", dir);
	mkdir(sub, 0700);
	snprintf(top, sizeof top, "%s/top.xml", dir);
	snprintf(a, sizeof a, "%s/sub/a.xml", dir);
	snprintf(b, sizeof b, "%s/sub/b.xml", dir);
	/* a.xml sits in sub/ but names b relative to the top file's folder. */
	testlib_write_file(top, "<isa>\n<import file=\"sub/a.xml\"/>\n"
	                "<bitset name=\"x\" extends=\"#r\"><pattern low=\"0\" high=\"31\">"
	                "00000000000000000000000000000001</pattern><display>x</display></bitset>\n"
	                "</isa>\n");
	testlib_write_file(a, "<isa>\n<import file=\"sub/b.xml\"/>\n</isa>\n");
	testlib_write_file(b, "<isa>\n<bitset name=\"#r\" size=\"32\"/>\n</isa>\n");
	spec_diags d = {0};
	spec_model *m = spec_load(top, &d);
	CHECK(m != NULL);
	CHECK_INT(d.count, 0);
	if (d.count)
		dump(&d);
	if (m) {
		CHECK_INT(m->nfiles, 3);
		CHECK(strstr(m->files[2], "b.xml") != NULL);
		/* imported definitions come first, as Mesa reads them */
		CHECK_STR(m->bitsets[0]->name, "#r");
		CHECK(strstr(m->bitsets[0]->loc.file, "b.xml") != NULL);
	}
	spec_model_free(m);
	spec_diags_free(&d);

	/* Now make b import the top file: a cycle, reported at b's import. */
	testlib_write_file(b, "<isa>\n<import file=\"top.xml\"/>\n</isa>\n");
	m = spec_load(top, &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "import-cycle", 2), 1);
	CHECK(d.count == 1 && strstr(d.items[0].loc.file, "b.xml") != NULL);
	spec_model_free(m);
	spec_diags_free(&d);
	unlink(top);
	unlink(a);
	unlink(b);
	rmdir(sub);
	rmdir(dir);
}

TEST(hostile_sizes)
{
	/* A long extends chain must not recurse (it is refused as over the
	 * chain budget, without a deep stack); a wide root is refused. */
	size_t n = 20000, cap = n * 80 + 200, len = 0;
	char *xml = malloc(cap);
	CHECK(xml != NULL);
	if (!xml)
		return;
	len += (size_t)snprintf(xml + len, cap - len,
	                        "<isa><bitset name=\"b0\" size=\"32\"/>\n");
	for (size_t i = 1; i < n; i++)
		len += (size_t)snprintf(xml + len, cap - len,
		                        "<bitset name=\"b%zu\" extends=\"b%zu\"/>\n", i, i - 1);
	len += (size_t)snprintf(xml + len, cap - len, "</isa>\n");
	spec_diags d = {0};
	spec_model *m = spec_load_buffer("chain.xml", xml, len, ".", &d);
	CHECK(m == NULL);
	CHECK_INT(count_rule(&d, "chain-too-deep", 0), 1);
	spec_model_free(m);
	spec_diags_free(&d);
	free(xml);

	/* A cycle of three reported once, at its first member. */
	static const char cyc[] =
		"<isa>\n<bitset name=\"r\" size=\"32\"/>\n"
		"<bitset name=\"a\" extends=\"c\"/>\n<bitset name=\"b\" extends=\"a\"/>\n"
		"<bitset name=\"c\" extends=\"b\"/>\n<bitset name=\"d\" extends=\"c\"/>\n</isa>\n";
	m = load_str(cyc, &d);
	CHECK(m != NULL);
	CHECK_INT(count_rule(&d, "extends-cycle", 3), 1);
	CHECK_INT(count_rule(&d, "extends-cycle", 0), 1);
	if (m)
		CHECK_INT(m->nbitsets, 1); /* a, b, c and d hang from nothing */
	spec_model_free(m);
	spec_diags_free(&d);
}

/* Three same-named variants, the third without <gen> (so every
 * generation): it overlaps both others, and each pair is reported, not
 * only the nearest. */
TEST(three_variants_every_pair)
{
	static const char xml[] =
		"<isa>\n"                                                   /* 1 */
		"<bitset name=\"#i\" size=\"8\">\n"                         /* 2 */
		"  <display>{NAME}</display>\n"                              /* 3 */
		"</bitset>\n"                                               /* 4 */
		"<bitset name=\"v\" extends=\"#i\">\n"                      /* 5 */
		"  <gen max=\"99\"/>\n"                                     /* 6 */
		"  <pattern low=\"0\" high=\"7\">00000001</pattern>\n"       /* 7 */
		"</bitset>\n"                                               /* 8 */
		"<bitset name=\"v\" extends=\"#i\">\n"                      /* 9 */
		"  <gen min=\"100\"/>\n"                                    /* 10 */
		"  <pattern low=\"0\" high=\"7\">00000010</pattern>\n"       /* 11 */
		"</bitset>\n"                                               /* 12 */
		"<bitset name=\"v\" extends=\"#i\">\n"                      /* 13 */
		"  <pattern low=\"0\" high=\"7\">00000100</pattern>\n"       /* 14 */
		"</bitset>\n"                                               /* 15 */
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	/* 13 against 9 and against 5; 9 and 5 are disjoint */
	CHECK_INT(count_rule(&d, "variant-gen-overlap", 13), 2);
	CHECK_INT(count_rule(&d, "variant-gen-overlap", 0), 2);
	bool saw5 = false, saw9 = false;
	for (size_t i = 0; i < d.count; i++) {
		saw5 |= strstr(d.items[i].message, "t.xml:5 ") != NULL;
		saw9 |= strstr(d.items[i].message, "t.xml:9 ") != NULL;
	}
	CHECK(saw5 && saw9);
	if (!saw5 || !saw9)
		dump(&d);
	spec_model_free(m);
	spec_diags_free(&d);
}

/* The encoder side, as Mesa's encode.py reads it.  Q is passed to #sub
 * and mapped by #instruction's encoder but no field: fine, since #sub
 * defines P itself (its decoder never asks); Z is neither: param-unknown.
 * op displays A, which no <map> gives: encode-unmapped (Mesa's encoder
 * warns and writes 0).  DEAD is looked up by nobody, E has no
 * expression.  w's root #plain has no <encode>: Mesa generates no
 * encoder for it, so its map is never used. */
TEST(encoder_side)
{
	static const char xml[] =
		"<isa>\n"                                                        /* 1 */
		"<bitset name=\"#sub\" size=\"8\">\n"                             /* 2 */
		"  <display>{P}</display>\n"                                      /* 3 */
		"  <field name=\"P\" low=\"0\" high=\"7\" type=\"uint\"/>\n"         /* 4 */
		"  <encode type=\"int\"><map name=\"P\">p->P</map></encode>\n"     /* 5 */
		"</bitset>\n"                                                    /* 6 */
		"<bitset name=\"#instruction\" size=\"32\">\n"                    /* 7 */
		"  <display>{NAME} {S} {A}</display>\n"                           /* 8 */
		"  <field name=\"S\" low=\"0\" high=\"7\" type=\"#sub\">\n"        /* 9 */
		"    <param name=\"Q\" as=\"P\"/>\n"                               /* 10 */
		"    <param name=\"Z\"/>\n"                                        /* 11 */
		"  </field>\n"                                                   /* 12 */
		"  <field name=\"A\" low=\"8\" high=\"23\" type=\"uint\"/>\n"       /* 13 */
		"  <encode type=\"struct x *\">\n"                                /* 14 */
		"    <map name=\"S\">src->s</map>\n"                               /* 15 */
		"    <map name=\"Q\">src->q</map>\n"                               /* 16 */
		"    <map name=\"DEAD\">src->dead</map>\n"                         /* 17 */
		"    <map name=\"E\"></map>\n"                                     /* 18 */
		"  </encode>\n"                                                  /* 19 */
		"</bitset>\n"                                                    /* 20 */
		"<bitset name=\"op\" extends=\"#instruction\">\n"                  /* 21 */
		"  <pattern low=\"24\" high=\"31\">00000001</pattern>\n"          /* 22 */
		"</bitset>\n"                                                    /* 23 */
		"<bitset name=\"#other\" size=\"8\">\n"                           /* 24 */
		"  <display>{V}</display>\n"                                      /* 25 */
		"  <field name=\"V\" low=\"0\" high=\"7\" type=\"uint\"/>\n"         /* 26 */
		"  <encode><map name=\"V\">v</map></encode>\n"                     /* 27 */
		"</bitset>\n"                                                    /* 28 */
		"<bitset name=\"#plain\" size=\"8\">\n"                           /* 29 */
		"  <display>{W}</display>\n"                                      /* 30 */
		"</bitset>\n"                                                    /* 31 */
		"<bitset name=\"w\" extends=\"#plain\">\n"                         /* 32 */
		"  <field name=\"W\" low=\"0\" high=\"7\" type=\"uint\"/>\n"         /* 33 */
		"  <encode><map name=\"W\">w</map></encode>\n"                     /* 34 */
		"</bitset>\n"                                                    /* 35 */
		"</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	CHECK_INT(count_rule(&d, "param-unknown", 10), 0);
	CHECK_INT(count_rule(&d, "param-unknown", 11), 1);
	CHECK_INT(count_rule(&d, "encode-unmapped", 21), 1);
	CHECK_INT(count_rule(&d, "encode-unmapped", 0), 1);
	CHECK_INT(count_rule(&d, "encode-map-unused", 17), 1);
	CHECK_INT(count_rule(&d, "encode-map-empty", 18), 1);
	/* #other's own encoder uses its map; w's root #plain has no <encode> */
	CHECK_INT(count_rule(&d, "encode-map-unused", 27), 0);
	CHECK_INT(count_rule(&d, "encode-map-unused", 34), 1);
	CHECK_INT(d.count, 5);
	bool says = false;
	for (size_t i = 0; i < d.count; i++)
		says |= !strcmp(d.items[i].rule, "encode-unmapped") &&
		        strstr(d.items[i].message, "no encode mapping for op.A") != NULL;
	CHECK(says);
	if (!says || count_rule(&d, "param-unknown", 10))
		dump(&d);
	spec_model_free(m);
	spec_diags_free(&d);
}

/* An extends chain is a budget (issue 24): 255 extends below the root
 * load and decode; 256 are chain-too-deep, fatal, so that no command
 * works on a chain the codec would cut. */
static char *chain_xml(unsigned n)
{
	size_t cap = 200 + (size_t)n * 80, o = 0;
	char *x = malloc(cap);
	if (!x)
		return NULL;
	o += (size_t)snprintf(x + o, cap - o,
	                      "<isa>\n<bitset name=\"#instruction\" size=\"32\">\n"
	                      "<display>{NAME} {A}</display>\n"
	                      "<field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n"
	                      "</bitset>\n");
	/* n extends below the root: #c0 .. #c(n-2), then the leaf */
	for (unsigned i = 0; i + 1 < n; i++) {
		if (i)
			o += (size_t)snprintf(x + o, cap - o, "<bitset name=\"#c%u\" extends=\"#c%u\"/>\n",
			                      i, i - 1);
		else
			o += (size_t)snprintf(x + o, cap - o,
			                      "<bitset name=\"#c0\" extends=\"#instruction\"/>\n");
	}
	if (n == 1)
		snprintf(x + o, cap - o, "<bitset name=\"leaf\" extends=\"#instruction\"/>\n</isa>\n");
	else
		snprintf(x + o, cap - o, "<bitset name=\"leaf\" extends=\"#c%u\"/>\n</isa>\n", n - 2);
	return x;
}

TEST(chain_budget)
{
	for (unsigned n = 255; n <= 256; n++) {
		char *xml = chain_xml(n);
		CHECK(xml != NULL);
		if (!xml)
			return;
		spec_diags d = {0};
		spec_model *m = load_str(xml, &d);
		if (n == 255) {
			CHECK(m != NULL);
			CHECK_INT(count_rule(&d, "chain-too-deep", 0), 0);
			const spec_bitset *leaf = m ? spec_find_bitset(m, "leaf") : NULL;
			CHECK(leaf != NULL);
			unsigned depth = 0;
			for (const spec_bitset *b = leaf; b && b->parent; b = b->parent)
				depth++;
			CHECK_INT((int)depth, 255);
		} else {
			CHECK(m == NULL);
			CHECK_INT(count_rule(&d, "chain-too-deep", 0), 1);
		}
		spec_model_free(m);
		spec_diags_free(&d);
		free(xml);
	}
}

/* A display's :align=N is a budget (issue 24): 4096 columns at most. */
TEST(align_budget)
{
	const char *const cols[] = {"4096", "4097", "99999999999999999999"};
	for (int i = 0; i < 3; i++) {
		char xml[1024];
		snprintf(xml, sizeof xml,
		         "<isa>\n<bitset name=\"#instruction\" size=\"32\">\n"
		         "<display>{NAME}{A:align=%s}</display>\n"
		         "<field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n</bitset>\n"
		         "<bitset name=\"x\" extends=\"#instruction\"/>\n</isa>\n", cols[i]);
		spec_diags d = {0};
		spec_model *m = load_str(xml, &d);
		CHECK(m != NULL);
		CHECK_INT(count_rule(&d, "display-syntax", 3), i ? 1 : 0);
		spec_model_free(m);
		spec_diags_free(&d);
	}
}

/* A template named inside another stays a field reference once spliced
 * (one pass, as Mesa): lint says so, as disasm's "no field" does. */
TEST(nested_template)
{
	const char *xml =
		"<isa>\n<template name=\"INNER\">{A}</template>\n"          /* 2 */
		"<template name=\"OUTER\">x{INNER}</template>\n"              /* 3 */
		"<bitset name=\"#instruction\" size=\"32\">\n"               /* 4 */
		"<display>{NAME} {OUTER}</display>\n"                         /* 5 */
		"<field name=\"A\" low=\"0\" high=\"31\" type=\"uint\"/>\n</bitset>\n"
		"<bitset name=\"x\" extends=\"#instruction\"/>\n</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	CHECK_INT(count_rule(&d, "ref-unknown", 5), 1);
	CHECK(d.count && strstr(d.items[0].message, "{INNER}, a template named inside another") != NULL);
	spec_model_free(m);
	spec_diags_free(&d);
}

/* An expression dividing by a constant 0 (after folding) is an error;
 * dividing by a field is left to the decoder (it may be non-zero). */
TEST(div_zero)
{
	const char *xml =
		"<isa>\n<expr name=\"#bad\">{A} / (2 - 2)</expr>\n"          /* 2 */
		"<expr name=\"#mod\">{A} % 0</expr>\n"                         /* 3 */
		"<expr name=\"#ok\">{A} / {B}</expr>\n"                        /* 4 */
		"<expr name=\"#ok2\">{A} / (4 >> 1)</expr>\n"                  /* 5 */
		"<bitset name=\"#instruction\" size=\"32\">\n"
		"<display>{NAME} {A} {B}</display>\n"
		"<field name=\"A\" low=\"0\" high=\"15\" type=\"uint\"/>\n"
		"<field name=\"B\" low=\"16\" high=\"31\" type=\"uint\"/>\n</bitset>\n"
		"<bitset name=\"x\" extends=\"#instruction\"/>\n</isa>\n";
	spec_diags d = {0};
	spec_model *m = load_str(xml, &d);
	CHECK(m != NULL);
	CHECK_INT(count_rule(&d, "expr-div-zero", 2), 1);
	CHECK_INT(count_rule(&d, "expr-div-zero", 3), 1);
	CHECK_INT(count_rule(&d, "expr-div-zero", 0), 2);
	spec_model_free(m);
	spec_diags_free(&d);
}

/* Roots decoding through each other: a warning at the field that closes
 * the cycle; the same field under an <override> may end, no warning. */
TEST(bitset_cycle)
{
	for (int guarded = 0; guarded < 2; guarded++) {
		char xml[2048];
		snprintf(xml, sizeof xml,
		         "<isa>\n<bitset name=\"#a\" size=\"8\">\n<display>a{S}</display>\n"
		         "<field name=\"S\" low=\"0\" high=\"7\" type=\"#b\"/>\n</bitset>\n"
		         "<bitset name=\"a1\" extends=\"#a\"/>\n"                           /* 6 */
		         "<bitset name=\"#b\" size=\"8\">\n<display>b</display>\n%s"          /* 7, 8 */
		         "</bitset>\n<bitset name=\"b1\" extends=\"#b\"/>\n</isa>\n",
		         guarded ? "<override><expr>0</expr><display>b{S}</display>"
		                   "<field name=\"S\" low=\"0\" high=\"7\" type=\"#a\"/></override>\n"
		                 : "<field name=\"S\" low=\"0\" high=\"7\" type=\"#a\"/>\n");
		spec_diags d = {0};
		spec_model *m = load_str(xml, &d);
		CHECK(m != NULL);
		CHECK_INT(count_rule(&d, "bitset-field-cycle", 0), guarded ? 0 : 1);
		spec_model_free(m);
		spec_diags_free(&d);
	}
}

int main(void)
{
	RUN(bitset_cycle);
	RUN(div_zero);
	RUN(nested_template);
	RUN(align_budget);
	RUN(chain_budget);
	RUN(basic_model);
	RUN(wide_roots_and_columns);
	RUN(attribute_columns_and_suggestions);
	RUN(variants_and_scope);
	RUN(three_variants_every_pair);
	RUN(encoder_side);
	RUN(imports_relative_to_top_file);
	RUN(hostile_sizes);
	return testlib_finish();
}
