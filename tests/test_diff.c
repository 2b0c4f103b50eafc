/*
 * test_diff.c - `isacheck diff`: the hand-written edit pairs of
 * tests/diff/ with their exact reports; both engines agreeing; every
 * witness decoded with both models by src/codec; counts against ground
 * truth from enumerating words of random spec pairs; an unchanged spec
 * proved equal; folders, --git, CI mode, formats and bad input; and an
 * edit of Mesa's ir3.
 */
#include "check.h"
#include "codec.h"
#include "diff_gen.h"
#include "spec.h"
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Replaces every occurrence of from with to, in place (to no longer). */
static void replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to);
	for (char *p = strstr(s, from); p; p = strstr(p + tl, from)) {
		memmove(p + tl, p + fl, strlen(p + fl) + 1);
		memcpy(p, to, tl);
	}
}

/* ------------------------------------------------ the edit pairs, exactly */

static const struct {
	const char *name; /* a folder of tests/diff, or difftext/NAME of tests/difftext */
	int rc;          /* exit code of a plain diff */
	int rc_ci;       /* with --fail-on=new-findings */
} cases[] = {
	/* what the edits do to the printed text (tests/difftext/base.xml):
	 * every kind an isaspec edit takes, each report exact */
	{"../difftext/enum-string", 1, 0},
	{"../difftext/enum-unreachable", 0, 0},
	{"../difftext/param", 1, 0},
	{"../difftext/template", 1, 0},
	{"../difftext/override-expr", 1, 0},
	{"../difftext/field-type", 1, 0},
	{"../difftext/shared-parent", 1, 0},
	{"../difftext/whitespace", 0, 0},
	{"../difftext/rename", 1, 0},
	/* COND moved into a new parent '#op': its warning names '#op' now,
	 * the same finding (matched by subject), and nothing prints otherwise */
	{"../difftext/moved-warning", 0, 0},
	{"unchanged", 0, 0},
	{"rename", 1, 0},
	{"split", 1, 0},
	{"widen", 1, 0},
	{"field-to-pattern", 1, 0},
	{"narrow-gen", 1, 0},
	{"display", 1, 0},
	{"override-display", 1, 0},
	{"overlap", 1, 1},
};

TEST(exact_reports)
{
	char cmd[2048], out[65536];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/tests/diff/%s/expected.txt", ISACHECK_SOURCE_DIR,
		         cases[i].name);
		char *want = testlib_read_file(path);
		CHECK(want != NULL);
		if (!want)
			continue;
		for (int z = 0; z < 2; z++) {
			snprintf(cmd, sizeof cmd, "cd '%s/tests/diff/%s' && '%s' diff %s ../base.xml new.xml",
			         ISACHECK_SOURCE_DIR, cases[i].name, ISACHECK_BINARY,
			         z ? "--solver=z3" : "");
			int rc = testlib_run(cmd, out, sizeof out);
			CHECK_INT(rc, cases[i].rc);
			if (z)
				replace_all(out, "the Z3 solver", "the cube engine");
			if (strcmp(out, want))
				fprintf(stderr, "case %s (%s): got\n%s\nwanted\n%s\n", cases[i].name,
				        z ? "z3" : "cube", out, want);
			CHECK_STR(out, want);
		}
		snprintf(cmd, sizeof cmd, "cd '%s/tests/diff/%s' && '%s' diff --fail-on=new-findings "
		         "../base.xml new.xml", ISACHECK_SOURCE_DIR, cases[i].name, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), cases[i].rc_ci);
		free(want);
	}
}

/* -------------------------------------------------- library-level checks */

static spec_model *load(const char *path)
{
	spec_diags d = {0};
	spec_model *m = spec_load(path, &d);
	spec_diags_free(&d);
	CHECK(m != NULL);
	return m;
}

/* Every witness, decoded by src/codec with both models at its
 * generation, matches exactly the leaves the report says. */
static void check_witnesses(const spec_model *om, const spec_model *nm, const diff_result *r)
{
	spec_diags d = {0};
	codec *co = codec_new(om, &d), *cn = codec_new(nm, &d);
	spec_diags_free(&d);
	CHECK(co && cn);
	for (size_t i = 0; co && cn && i < r->ndecodings; i++) {
		const diff_decoding *x = &r->decodings[i];
		const spec_root *ro = spec_find_root(om, x->root), *rn = spec_find_root(nm, x->root);
		const spec_bitset *got[16];
		size_t n = ro ? codec_classify(co, ro, x->witness, x->witness_gen, got, 16) : 0;
		CHECK_INT(n, x->nold);
		for (size_t k = 0; k < n && k < x->nold; k++)
			CHECK(got[k] == x->old_leaves[k]);
		n = rn ? codec_classify(cn, rn, x->witness, x->witness_gen, got, 16) : 0;
		CHECK_INT(n, x->nnew);
		for (size_t k = 0; k < n && k < x->nnew; k++)
			CHECK(got[k] == x->new_leaves[k]);
		/* and at the other end of its gen range */
		n = ro ? codec_classify(co, ro, x->witness, x->gen.max, got, 16) : 0;
		CHECK_INT(n, x->nold);
	}
	for (size_t i = 0; co && cn && i < r->ndisplays; i++) {
		const diff_display *x = &r->displays[i];
		if (!x->witness)
			continue;
		const spec_bitset *got[4];
		CHECK_INT(codec_classify(co, spec_find_root(om, x->old_leaf->root->name), x->witness,
		                         x->witness_gen, got, 4), 1);
		CHECK(got[0] == x->old_leaf);
		CHECK_INT(codec_classify(cn, spec_find_root(nm, x->new_leaf->root->name), x->witness,
		                         x->witness_gen, got, 4), 1);
		CHECK(got[0] == x->new_leaf);
	}
	codec_free(co);
	codec_free(cn);
}

/* Both engines: the same report, entry by entry; Z3 asked, nothing unknown. */
static void check_engines(const spec_model *om, const spec_model *nm, diff_result *rc)
{
	prove_options oc = prove_default_options(), oz = prove_default_options();
	oz.engine = PROVE_ENGINE_Z3;
	diff_result rz;
	spec_diags d = {0};
	CHECK(diff_models(om, nm, &oc, rc, &d));
	CHECK(diff_models(om, nm, &oz, &rz, &d));
	CHECK_INT(d.count, 0);
	for (size_t i = 0; i < d.count; i++)
		fprintf(stderr, "  %s\n", d.items[i].message);
	spec_diags_free(&d);
	CHECK(!rc->any_unknown && !rz.any_unknown);
	CHECK(rz.queries > rz.old_proof.queries + rz.new_proof.queries);
	CHECK_INT(rc->ndecodings, rz.ndecodings);
	for (size_t i = 0; i < rc->ndecodings && i < rz.ndecodings; i++) {
		const diff_decoding *a = &rc->decodings[i], *b = &rz.decodings[i];
		CHECK(!strcmp(a->root, b->root) && a->gen.min == b->gen.min && a->gen.max == b->gen.max);
		CHECK(a->nold == b->nold && a->nnew == b->nnew && a->fields_only == b->fields_only);
		CHECK(!memcmp(&a->words, &b->words, sizeof a->words));
		CHECK(!memcmp(a->witness, b->witness, (a->size + 63) / 64 * 8));
	}
	CHECK_INT(rc->nleaves, rz.nleaves);
	CHECK_INT(rc->nholes, rz.nholes);
	CHECK_INT(rc->noverlaps_introduced, rz.noverlaps_introduced);
	CHECK_INT(rc->noverlaps_fixed, rz.noverlaps_fixed);
	diff_result_free(&rz);
}

TEST(cases_witnesses_and_engines)
{
	char base[1024], path[1024];
	snprintf(base, sizeof base, "%s/tests/diff/base.xml", ISACHECK_SOURCE_DIR);
	spec_model *om = load(base);
	for (size_t i = 0; om && i < sizeof cases / sizeof *cases; i++) {
		snprintf(path, sizeof path, "%s/tests/diff/%s/new.xml", ISACHECK_SOURCE_DIR,
		         cases[i].name);
		spec_model *nm = load(path);
		if (!nm)
			continue;
		diff_result r;
		check_engines(om, nm, &r);
		check_witnesses(om, nm, &r);
		CHECK(diff_is_empty(&r) == !strcmp(cases[i].name, "unchanged"));
		diff_result_free(&r);
		spec_model_free(nm);
	}
	spec_model_free(om);
}

/* The split case in detail: counts, witnesses, holes. */
TEST(field_to_pattern_details)
{
	char base[1024], path[1024];
	snprintf(base, sizeof base, "%s/tests/diff/base.xml", ISACHECK_SOURCE_DIR);
	snprintf(path, sizeof path, "%s/tests/diff/field-to-pattern/new.xml", ISACHECK_SOURCE_DIR);
	spec_model *om = load(base), *nm = load(path);
	if (!om || !nm)
		goto out;
	diff_result r;
	spec_diags d = {0};
	CHECK(diff_models(om, nm, NULL, &r, &d));
	CHECK_INT(r.ndecodings, 2);
	CHECK_INT(r.nholes, 1);
	if (r.nholes == 1) {
		char n[64];
		prove_count_format(&r.holes[0].opened, n, sizeof n);
		CHECK_STR(n, "134217728"); /* 2^27: st words with bit 19 set */
		prove_count_format(&r.holes[0].filled, n, sizeof n);
		CHECK_STR(n, "0");
	}
	for (size_t i = 0; i < r.ndecodings; i++) {
		const diff_decoding *x = &r.decodings[i];
		CHECK(diffgen_matches(x->old_leaves[0], x->witness, 0));
		if (x->nnew)
			CHECK(diffgen_matches(x->new_leaves[0], x->witness, 0));
	}
	CHECK_INT(r.nfields, 1);
	if (r.nfields == 1) {
		CHECK_STR(r.fields[0].name, "SRC");
		CHECK_INT(r.fields[0].old_field->high, 19);
		CHECK_INT(r.fields[0].new_field->high, 18);
	}
	diff_result_free(&r);
	spec_diags_free(&d);
out:
	spec_model_free(om);
	spec_model_free(nm);
}

/* ------------------------------------------------------- random pairs */

/* Random pairs against their words (fuzz/diff_gen.c, which the fuzz
 * target spec_diff runs on pairs its input chooses): decodings, counts,
 * witnesses and both engines; then what every word prints. */
#ifdef ISACHECK_SANITIZED
#define RND_PAIRS 30u /* the sanitizer build, ten times slower, checks half */
#else
#define RND_PAIRS 60u
#endif

/* n pairs of one generator judged, each failure printed with its specs. */
static void judge_pairs(const char *what, unsigned n, uint64_t seed,
                        void (*make)(diffgen_pair *, semgen_rng *),
                        void (*judge)(const diffgen_pair *, diffgen_tally *, char *, size_t),
                        diffgen_tally *t)
{
	semgen_rng r = {.state = seed};
	for (unsigned iter = 0; iter < n; iter++) {
		diffgen_pair p = {0};
		make(&p, &r);
		char why[1024] = "";
		size_t before = t->failures;
		judge(&p, t, why, sizeof why);
		if (t->failures > before)
			fprintf(stderr, "%s %u: %zu failed verdicts, the first: %s\nold spec:\n%s\n"
			        "new spec:\n%s", what, iter, t->failures - before, why, p.old_xml,
			        p.new_xml);
		diffgen_free(&p);
	}
}

TEST(random_pairs)
{
	diffgen_tally t = {0};
	judge_pairs("pair", RND_PAIRS, 0x9e3779b97f4a7c15u, diffgen_pair_make, diffgen_pair_judge,
	            &t);
	CHECK_INT(t.failures, 0);
	CHECK_INT(t.pairs, RND_PAIRS);
	/* the edits did change decodings (the ground truth was not vacuous) */
	CHECK(t.changed >= RND_PAIRS);
}

/* --------------------------------------------------- random text pairs */

/* Every verdict of diff_texts against printing every word on both
 * sides: no entry for a leaf means no word of it prints differently; an
 * entry's witness does, and its count is the number of words that do. */
TEST(random_text_pairs)
{
	diffgen_tally t = {0};
	/* all 60 in both builds: fewer leave no rewritten condition for Z3 */
	judge_pairs("text pair", 60, 0x2545f4914f6cdd1du, diffgen_text_make, diffgen_text_judge,
	            &t);
	CHECK_INT(t.failures, 0);
	CHECK_INT(t.pairs, 60);
	CHECK(t.differing >= 30); /* the edits did change text: not vacuous */
	CHECK(t.by_z3 > 0);       /* and some rewritten conditions were proved alike by Z3 */
	printf("random text pairs: %zu leaves print differently, %zu conditions Z3 proved "
	       "alike\n", t.differing, t.by_z3);
}

/* The text changes in JSON and Markdown: every field of a text entry,
 * and Markdown's witness printed old and new. */
TEST(text_formats)
{
	char cmd[2048], out[65536];
	snprintf(cmd, sizeof cmd, "cd '%s/tests/difftext/enum-string' && '%s' diff --format=json "
	         "../base.xml new.xml", ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"texts\":[\n  {\"root\":\"#instruction\",\"gen\":") != NULL);
	CHECK(strstr(out, "\"verdict\":\"differs\",\"cause\":\"enum #cond value 1: \\\".lt\\\" -> "
	                  "\\\".LT\\\"\"") != NULL);
	CHECK(strstr(out, "\"new_at\":{\"file\":\"new.xml\",\"line\":10}") != NULL);
	CHECK(strstr(out, "\"words\":\"16384\",\"witness\":\"10001000\",\"witness_gen\":0,"
	                  "\"old_text\":\"add.lt 0, r0\",\"new_text\":\"add.LT 0, r0\"}") != NULL);
	snprintf(cmd, sizeof cmd, "cd '%s/tests/difftext/enum-string' && '%s' diff "
	         "--format=markdown ../base.xml new.xml", ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "#### What instructions print\n\n- enum #cond value 1: \".lt\" -> \".LT\" "
	                  "(base.xml:10 → new.xml:10)\n  - `add` `10001000` prints `add.lt 0, r0` → "
	                  "`add.LT 0, r0` (32768 words per generation)\n  - `add`, `mov`\n") != NULL);
}

/* ------------------------------------------------ the pre-commit hook */

/* docs/ci/pre-commit in a Mesa-like tree: staging only a fragment that
 * ir3.xml imports, with an edit that adds overlaps, is refused (the spec
 * that imports it is checked); staging only XML that is not isaspec
 * passes without a word. */
TEST(pre_commit_hook)
{
	char probe[1024], cmd[8192], out[65536];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	char dir[] = "/tmp/isacheck-test-hook-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof cmd,
	         "cd %s && git init -q && git config user.email t@example.org && "
	         "git config user.name t && mkdir -p src/freedreno/isa src/registers && "
	         "cp %s/mesa/src/freedreno/isa/*.xml src/freedreno/isa/ && "
	         "printf '<database>\\n<reg name=\"a\"/>\\n</database>\\n' > src/registers/a.xml && "
	         "git add -A && git commit -qm base",
	         dir, testlib_shared_dir());
	CHECK_INT(system(cmd), 0);
	/* the fragment alone, staged: ldg's opcode 00000 becomes 0000x */
	snprintf(cmd, sizeof cmd,
	         "cd %s/src/freedreno && sed -i '0,/<pattern low=\"54\" high=\"58\">00000</"
	         "s//<pattern low=\"54\" high=\"58\">0000x</' isa/ir3-cat6.xml && "
	         "git add isa/ir3-cat6.xml && ISACHECK='%s' '%s/docs/ci/pre-commit' 2>&1",
	         dir, ISACHECK_BINARY, ISACHECK_SOURCE_DIR);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "src/freedreno/isa/ir3.xml\n") != NULL);
	CHECK(strstr(out, "overlaps introduced:\n") != NULL);
	CHECK(strstr(out, "leaves 'ldg' and 'ldl' of root '#instruction' both match") != NULL);
	CHECK(strstr(out, "pre-commit: new isacheck findings") != NULL);
	/* `isacheck tops` names that spec, and nothing for other XML */
	snprintf(cmd, sizeof cmd, "cd %s && '%s' tops src/freedreno/isa/ir3-cat6.xml "
	         "src/registers/a.xml", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "src/freedreno/isa/ir3.xml\n");
	/* only XML that is not isaspec, staged: quietly passes */
	snprintf(cmd, sizeof cmd,
	         "cd %s && git reset -q --hard && "
	         "printf '<database>\\n<reg name=\"b\"/>\\n</database>\\n' > src/registers/a.xml && "
	         "git add src/registers/a.xml && ISACHECK='%s' '%s/docs/ci/pre-commit' 2>&1",
	         dir, ISACHECK_BINARY, ISACHECK_SOURCE_DIR);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "");
	CHECK(testlib_remove_tree(dir));
}

/* ------------------------------------------------ CLI: inputs and formats */

TEST(folders_and_formats)
{
	char cmd[4096], out[65536];
	char dir[] = "/tmp/isacheck-test-diff-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	/* two folders, top file importing a second one */
	snprintf(cmd, sizeof cmd,
	         "mkdir -p %s/a %s/b %s/tmp && cd %s && "
	         "printf '<isa>\\n<import file=\"ops.xml\"/>\\n</isa>\\n' > a/top.xml && "
	         "cp a/top.xml b/top.xml && "
	         "sed -e '/<?xml/d' -e 's/<isa>//' -e 's#</isa>##' '%s/tests/diff/base.xml' > body && "
	         "(echo '<isa>'; cat body; echo '</isa>') > a/ops.xml && "
	         "sed 's/name=\"add\"/name=\"iadd\"/' a/ops.xml > b/ops.xml",
	         dir, dir, dir, dir, ISACHECK_SOURCE_DIR);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "a/top.xml -> b/top.xml\n") != NULL);
	CHECK(strstr(out, "renamed  'add' -> 'iadd'") != NULL);
	CHECK(strstr(out, "ops.xml ->") == NULL); /* imported: not a top file */
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff --format=json a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"change\":\"renamed\"") != NULL);
	CHECK(strstr(out, "\"exit_code\":1}") != NULL);
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff --format=markdown a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "| renamed | `#instruction` | `add` | `iadd` |") != NULL);
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff --format=sarif a b", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	CHECK(strstr(out, "\"ruleId\":\"diff-leaf\"") != NULL);
	CHECK(strstr(out, "\"level\":\"note\"") != NULL);
	/* the same folder twice: no change */
	snprintf(cmd, sizeof cmd, "cd %s && '%s' diff a a", dir, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);

	/* --git: commit, edit the working tree, compare */
	snprintf(cmd, sizeof cmd,
	         "command -v git >/dev/null || exit 77; cd %s/a && git init -q . && "
	         "git -c user.name=t -c user.email=t@t add top.xml ops.xml && "
	         "git -c user.name=t -c user.email=t@t commit -q -m one && cp ../b/ops.xml ops.xml",
	         dir);
	int g = system(cmd);
	if (WIFEXITED(g) && WEXITSTATUS(g) == 77) {
		printf("git not installed: --git not tested\n");
	} else {
		CHECK_INT(g, 0);
		snprintf(cmd, sizeof cmd, "cd %s/a && TMPDIR=%s/tmp '%s' diff --git=HEAD top.xml", dir,
		         dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, "HEAD:top.xml -> top.xml\n") != NULL);
		CHECK(strstr(out, "renamed  'add' -> 'iadd'") != NULL);
		snprintf(cmd, sizeof cmd, "cd %s/a && TMPDIR=%s/tmp '%s' diff --git HEAD "
		         "--fail-on=new-findings top.xml", dir, dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
		snprintf(cmd, sizeof cmd, "cd %s/a && TMPDIR=%s/tmp '%s' diff --git=nosuchrev top.xml 2>&1",
		         dir, dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
		CHECK(strstr(out, "nosuchrev: no such git revision") != NULL);
		/* a file new since REV: compared with an empty spec */
		snprintf(cmd, sizeof cmd, "cd %s/a && cp top.xml new.xml && TMPDIR=%s/tmp '%s' diff "
		         "--git=HEAD new.xml", dir, dir, ISACHECK_BINARY);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, "does not exist: compared with an empty spec") != NULL);
		CHECK(strstr(out, "added    'iadd'") != NULL);
	}
	/* the temporary folders of --git are gone */
	snprintf(cmd, sizeof cmd, "ls -A '%s/tmp'", dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK_STR(out, "");
	CHECK(testlib_remove_tree(dir));
}

TEST(bad_input)
{
	char cmd[4096], out[8192];
	snprintf(cmd, sizeof cmd, "cd '%s/tests' && '%s' diff diff/base.xml bad/07-mismatched-tag.xml 2>&1",
	         ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "bad/07-mismatched-tag.xml:") != NULL && strstr(out, ": error: ") != NULL);
	snprintf(cmd, sizeof cmd, "'%s' diff only-one.xml 2>&1", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "'%s' diff --format=yaml a b 2>&1", ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	snprintf(cmd, sizeof cmd, "'%s' diff /nonexistent/a.xml /nonexistent/b.xml 2>&1",
	         ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "/nonexistent/a.xml") != NULL);
	snprintf(cmd, sizeof cmd, "cd '%s/tests' && '%s' diff diff bad/01-empty.xml 2>&1",
	         ISACHECK_SOURCE_DIR, ISACHECK_BINARY);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 2);
	CHECK(strstr(out, "give two files or two folders") != NULL);
}

/* ------------------------------------------------------- Mesa's ir3 */

/* Each edit of Mesa's ir3 is two loads and a proof of all of it: the
 * sanitizer build, there for memory errors, diffs the first edit of each
 * kind (the plain build, all of them). */
#ifdef ISACHECK_SANITIZED
#define IR3_EDITS 1u
#else
#define IR3_EDITS 2u
#endif

TEST(mesa_ir3_edit)
{
	char probe[1024], cmd[4096], out[65536];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	char dir[] = "/tmp/isacheck-test-ir3-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	/* mad.u16's opcode 0000 becomes 000x: it swallows madsh.u16 (0001) */
	snprintf(cmd, sizeof cmd,
	         "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
	         "sed -i '/name=\"mad.u16\"/{n;s/>0000</>000x</}' ir3-cat3.xml && "
	         "grep -A1 'name=\"mad.u16\"' ir3-cat3.xml | grep -q 000x",
	         testlib_shared_dir(), dir, dir);
	CHECK_INT(system(cmd), 0);
	for (int z = 0; z < 2; z++) {
		snprintf(cmd, sizeof cmd, "'%s' diff %s %s/mesa/src/freedreno/isa/ir3.xml %s/ir3.xml",
		         ISACHECK_BINARY, z ? "--solver=z3" : "", testlib_shared_dir(), dir);
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, "  #instruction gen 300..max: 'madsh.u16' -> 'mad.u16' + "
		                  "'madsh.u16' (ambiguous): 72057594037927936 words, e.g. "
		                  "60800000_00000000") != NULL);
		CHECK(strstr(out, "summary: 0 root, 1 leaf, 0 field, 1 decoding, 0 text changes; "
		                  "1 new findings, 0 fixed\n") != NULL);
		CHECK(strstr(out, "overlaps introduced:\n") != NULL);
	}
	/* the unchanged copy: proved equal, lint findings (which cite other
	 * files by path) neither new nor fixed */
	snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/ir3-cat3.xml %s/ && '%s' diff "
	         "%s/mesa/src/freedreno/isa/ir3.xml %s/ir3.xml", testlib_shared_dir(), dir,
	         ISACHECK_BINARY, testlib_shared_dir(), dir);
	CHECK_INT(testlib_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "no change: both decode every word alike") != NULL);

	/* text edits on the real file: #type's u32 spelled U32 prints in 123
	 * leaves (one edit, one group); a <param> of cat5's SRC1 changed
	 * prints differently in 30 and is proved not to matter in the others
	 * (getbuf's NUM_SRC makes #cat5-src1 read no HALF); both decided */
	const char *const text_edits[][3] = {
		{"ir3-common.xml", "s/display=\"u32\"/display=\"U32\"/",
		 "  enum #type value 3: \"u32\" -> \"U32\" (ir3-common.xml:309 -> ir3-common.xml:309)\n"
		 "    prints differently in 123 leaves: "},
		{"ir3-cat5.xml", "66s/<param name=\"HALF\"\\/>/<param name=\"FULL\" as=\"HALF\"\\/>/",
		 "  <param> HALF of field SRC1 of '#instruction-cat5': HALF -> FULL "
		 "(ir3-cat5.xml:66 -> ir3-cat5.xml:66)\n    prints differently in 30 leaves: "},
	};
	for (size_t e = 0; e < IR3_EDITS; e++) {
		snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
		         "sed -i '%s' %s && ! cmp -s %s %s/mesa/src/freedreno/isa/%s && '%s' diff "
		         "%s/mesa/src/freedreno/isa/ir3.xml ir3.xml", testlib_shared_dir(), dir, dir,
		         text_edits[e][1], text_edits[e][0], text_edits[e][0], testlib_shared_dir(),
		         text_edits[e][0], ISACHECK_BINARY, testlib_shared_dir());
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
		CHECK(strstr(out, text_edits[e][2]) != NULL);
		CHECK(strstr(out, "[unknown]") == NULL);
		CHECK(strstr(out, "summary: 0 root, 0 leaf, 0 field, 0 decoding, 1 text changes; "
		                  "0 new findings, 0 fixed\n") != NULL);
	}

	/* #cat2-cat3-nop-encoding rewritten: the same truth on every word
	 * (Z3 proves it: no text change), or another (witnesses) */
	const char *const nop_edits[][2] = {
		{"33s/.*/!{REPEAT} \\&amp;\\&amp; ({SRC2_R} | {SRC1_R})/", NULL},
		{"33s/.*/!{REPEAT} \\&amp;\\&amp; {SRC2_R}/",
		 "    prints differently in 25 leaves: 'add.f', 'min.f'"},
	};
	for (size_t e = 0; e < IR3_EDITS; e++) {
		snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
		         "sed -i '%s' ir3-common.xml && grep -q SRC2_R ir3-common.xml && '%s' diff "
		         "%s/mesa/src/freedreno/isa/ir3.xml ir3.xml", testlib_shared_dir(), dir, dir,
		         nop_edits[e][0], ISACHECK_BINARY, testlib_shared_dir());
		CHECK_INT(testlib_run(cmd, out, sizeof out), 1); /* the cases' fields moved */
		if (nop_edits[e][1]) {
			CHECK(strstr(out, nop_edits[e][1]) != NULL);
		} else {
			CHECK(strstr(out, "\ntext (") == NULL);
			CHECK(strstr(out, "their text is unchanged, proved") != NULL);
		}
		CHECK(strstr(out, "[unknown]") == NULL);
	}

	/* a shared parent's edit (cat2's EI bit becomes a 0 pattern) is one
	 * group per section, and its Markdown fits a screen */
	snprintf(cmd, sizeof cmd, "cp %s/mesa/src/freedreno/isa/*.xml %s/ && cd %s && "
	         "sed -i 's/<field name=\"EI\" pos=\"47\" type=\"bool\" display=\"(ei)\"\\/>/"
	         "<pattern pos=\"47\">0<\\/pattern>/' ir3-cat2.xml && grep -q 'pos=\"47\">0<' "
	         "ir3-cat2.xml && '%s' diff --format=markdown %s/mesa/src/freedreno/isa/ir3.xml "
	         "ir3.xml", testlib_shared_dir(), dir, dir, ISACHECK_BINARY, testlib_shared_dir());
	CHECK_INT(testlib_run(cmd, out, sizeof out), 1);
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	CHECK(lines <= 60);
	CHECK(strstr(out, "· 1 leaf, 1 field, 4 decoding and 0 text changes") != NULL);
	CHECK(strstr(out, "<details><summary>47 leaves</summary>") != NULL);
	CHECK(testlib_remove_tree(dir));
}

int main(void)
{
	RUN(exact_reports);
	RUN(cases_witnesses_and_engines);
	RUN(field_to_pattern_details);
	RUN(random_pairs);
	RUN(random_text_pairs);
	RUN(text_formats);
	RUN(pre_commit_hook);
	RUN(folders_and_formats);
	RUN(bad_input);
	RUN(mesa_ir3_edit);
	return testlib_finish();
}
