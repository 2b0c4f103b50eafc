/*
 * test_mesa_conformance.c - Mesa's own isaspec files (../shared/mesa)
 * load unchanged, with the counts of ../shared/mesa/SEMANTICS.md section
 * 3, and lint finds exactly the findings listed here, each justified.
 *
 * Skips (exit 77) when ../shared is absent, as in a user's clone; under
 * CI=true its absence is a failure, so CI cannot skip it by accident.
 */
#include "spec.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct expected {
	const char *file; /* path suffix */
	unsigned line;
	const char *rule;
	const char *why;  /* the justification, for the reader of this test */
} expected;

static const expected ir3_findings[] = {
	{"ir3-cat0.xml", 264, "display-missing",
	 "brax extends #instruction-cat0-branch, and neither has a <display>: Mesa's "
	 "decoder prints an error for every brax word"},
	{"ir3-cat3.xml", 62, "override-overlap",
	 "IMMED (bits 0..11) in the immediate override of #cat3-src-const-or-immed "
	 "overlaps bit 11, which the bitset's own pattern pins to 0: an immediate "
	 "with bit 11 set cannot match this encoding"},
	{"ir3-cat3.xml", 63, "override-pattern",
	 "<pattern pos=12> inside <override>: Mesa ignores it (SEMANTICS 1.2)"},
	{"ir3-cat6.xml", 419, "unexpected-text",
	 "a stray '\"' after </map> inside <encode>: a typo Mesa never sees"},
	{"ir3-cat6.xml", 646, "encode-map-unused",
	 "ibo-store's SRC1 is a plain #reg-gpr field with no SRC1_IM param, and no field "
	 "SRC1_IM exists there: a map copied from ibo-load that nothing reads"},
	{"ir3-cat6.xml", 805, "encode-map-unused",
	 "atomic-global's SRC3_IM: the a4xx/a5xx children that define SRC3_IM have "
	 "maps of their own, which the encoder finds first"},
	{"ir3-cat6.xml", 1184, "encode-map-unused",
	 "resinfo.b maps SRC1, but its bits 24..31 are a don't-care pattern: no field SRC1"},
	{"ir3.xml", 76, "encode-map-unused",
	 "#instruction's EQ (\"we don't use this (yet)\"): the cat0 leaves that print "
	 "{EQ} have their own map, and no other leaf has the field"},
	{"ir3-cat7.xml", 307, "override-pattern", "alias: pattern inside override"},
	{"ir3-cat7.xml", 314, "override-pattern", "alias: pattern inside override"},
	{"ir3-common.xml", 285, "enum-value-range",
	 "#rptN value 4 cannot occur in the 2-bit REPEAT field of cat1 mov"},
	{"ir3-common.xml", 286, "enum-value-range",
	 "#rptN value 5 cannot occur in the 2-bit REPEAT field of cat1 mov"},
};

static const expected etnaviv_findings[] = {
	{"etnaviv.xml", 85, "enum-value-range",
	 "#rounding value 4 cannot occur in the 2-bit RMODE field"},
	/* <param name=COMPS> on DST (lines 213, 687, 937) names no field of the
	 * ALU, texld or load leaves, but #instruction's <encode> maps COMPS:
	 * Mesa's encoder passes it to #instruction-dst, so it is no finding */
	{"etnaviv.xml", 172, "encode-map-unused",
	 "#instruction's SRC2_USE (\"rc->src[2].use\", which would not even compile): "
	 "SRC2_USE is a pattern bit in every leaf, never a field"},
	{"etnaviv.xml", 496, "encode-map-unused", "the same SRC2_USE map, rc-> and all"},
	{"etnaviv.xml", 582, "encode-map-unused", "the same SRC2_USE map"},
	{"etnaviv.xml", 629, "encode-map-unused", "SRC1_USE, likewise a pattern bit"},
	{"etnaviv.xml", 634, "encode-map-unused", "the same SRC2_USE map"},
};

static const expected afuc_findings[] = {
	{"afuc.xml", 816, "ref-unknown",
	 "sread's display prints {XREG}, which no field defines: Mesa's decoder "
	 "prints an error there"},
};

typedef struct mesa_file {
	const char *path; /* below ../shared/mesa/src */
	size_t files, bitsets, roots, leaves, leaf_names, enums, exprs, templates;
	size_t instr_leaves, instr_leaf_names; /* under #instruction */
	const expected *findings;
	size_t nfindings;
} mesa_file;

#define N(a) (sizeof(a) / sizeof(*(a)))

static const mesa_file mesa_files[] = {
	{"freedreno/isa/ir3.xml", 10, 353, 33, 290, 274, 18, 73, 0, 248, 232,
	 ir3_findings, N(ir3_findings)},
	{"etnaviv/isa/etnaviv.xml", 1, 107, 5, 85, 85, 8, 17, 4, 81, 81,
	 etnaviv_findings, N(etnaviv_findings)},
	{"freedreno/afuc/afuc.xml", 1, 110, 5, 89, 65, 5, 6, 0, 85, 61,
	 afuc_findings, N(afuc_findings)},
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

static void check_file(const mesa_file *mf)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/%s", mf->path);
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	CHECK(m != NULL);
	if (!m) {
		spec_diags_free(&d);
		return;
	}
	spec_stats s = spec_model_stats(m);
	CHECK_INT(s.files, mf->files);
	CHECK_INT(s.bitsets, mf->bitsets);
	CHECK_INT(s.roots, mf->roots);
	CHECK_INT(s.leaves, mf->leaves);
	CHECK_INT(s.leaf_names, mf->leaf_names);
	CHECK_INT(s.enums, mf->enums);
	CHECK_INT(s.exprs, mf->exprs);
	CHECK_INT(s.templates, mf->templates);
	const spec_root *r = spec_find_root(m, "#instruction");
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(r->nleaves, mf->instr_leaves);
		size_t names = 0;
		for (size_t i = 0; i < r->nleaves; i++) {
			bool first = true;
			for (size_t j = 0; j < i && first; j++)
				first = strcmp(r->leaves[i]->name, r->leaves[j]->name) != 0;
			names += first;
		}
		CHECK_INT(names, mf->instr_leaf_names);
	}

	/* Exactly the expected findings: each expected one present, nothing else. */
	bool *matched = calloc(d.count + 1, sizeof *matched);
	for (size_t e = 0; matched && e < mf->nfindings; e++) {
		const expected *x = &mf->findings[e];
		bool found = false;
		for (size_t i = 0; i < d.count && !found; i++)
			if (!matched[i] && d.items[i].loc.line == x->line &&
			    !strcmp(d.items[i].rule, x->rule) && ends_with(d.items[i].loc.file, x->file))
				found = matched[i] = true;
		CHECK(found);
		if (!found)
			fprintf(stderr, "  missing: %s:%u [%s] (%s)\n", x->file, x->line, x->rule, x->why);
	}
	for (size_t i = 0; matched && i < d.count; i++) {
		CHECK(matched[i]);
		if (!matched[i])
			fprintf(stderr, "  unexpected: %s:%u:%u %s [%s]\n", d.items[i].loc.file,
			        d.items[i].loc.line, d.items[i].loc.col, d.items[i].message,
			        d.items[i].rule);
	}
	free(matched);
	spec_model_free(m);
	spec_diags_free(&d);
}

TEST(ir3)     { check_file(&mesa_files[0]); }
TEST(etnaviv) { check_file(&mesa_files[1]); }
TEST(afuc)    { check_file(&mesa_files[2]); }

/* The leaves' merged patterns agree with a fact from SEMANTICS.md 2:
 * ldl and ldib.b both match the word 00e18001 c0600000 at gen 600. */
TEST(ir3_known_overlap_word)
{
	char path[1024];
	testlib_shared_path(path, sizeof path, "mesa/src/freedreno/isa/ir3.xml");
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	CHECK(m != NULL);
	if (m) {
		uint64_t word = 0xc060000000e18001ull;
		const char *names[] = {"ldl", "ldib.b"};
		for (size_t i = 0; i < 2; i++) {
			const spec_bitset *b = spec_find_bitset_gen(m, names[i], 600);
			CHECK(b != NULL);
			if (b)
				CHECK((word & b->mask.w[0] & ~b->dontcare.w[0]) == b->match.w[0]);
		}
	}
	spec_model_free(m);
	spec_diags_free(&d);
}

int main(void)
{
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return testlib_finish();
	RUN(ir3);
	RUN(etnaviv);
	RUN(afuc);
	RUN(ir3_known_overlap_word);
	return testlib_finish();
}
