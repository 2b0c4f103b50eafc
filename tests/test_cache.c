/*
 * test_cache.c - the cache of parsed files (src/spec/tree_cache.c,
 * docs/cache.md): a model loaded through it is the model loaded without
 * it, down to every location and diagnostic; a warm load really reads the
 * cache; and an entry that is truncated, corrupt, foreign-endian, of
 * another format or stale is never trusted: the file is parsed again and
 * the entry rewritten.
 */
#define _GNU_SOURCE /* open_memstream, mkdtemp */
#include "spec.h"
#include "testlib.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

/* ----------------------------------------------------- model fingerprint */

static void fp_loc(FILE *f, spec_loc l)
{
	fprintf(f, "@%s:%u:%u", l.file ? l.file : "-", l.line, l.col);
}

static void fp_str(FILE *f, const char *s)
{
	fprintf(f, "[%s]", s ? s : "(null)");
}

static void fp_bits(FILE *f, spec_bits b)
{
	for (unsigned i = 0; i < b.nwords; i++)
		fprintf(f, "%016llx.", (unsigned long long)b.w[i]);
	fputc(' ', f);
}

static void fp_expr(FILE *f, const spec_expr *e)
{
	if (!e) {
		fputs("{}", f);
		return;
	}
	fp_str(f, spec_expr_text(e));
	fp_loc(f, spec_expr_loc(e));
}

static void fp_steps(FILE *f, const spec_step *s, size_t n, unsigned depth)
{
	for (size_t i = 0; i < n; i++, s++) {
		fprintf(f, "%*sstep %d", (int)depth * 2, "", (int)s->kind);
		fp_loc(f, s->loc);
		fp_str(f, s->name);
		fp_expr(f, s->when);
		fp_expr(f, s->at);
		fp_expr(f, s->expr);
		fp_str(f, s->text);
		fprintf(f, " root=%s bits=%u %u..%u x%zu d%zu s%zu\n",
		        s->root ? s->root->bitset->name : "-", s->bits, s->low, s->high, s->nexports,
		        s->ndisplays, s->nsuffixes);
		for (size_t j = 0; j < s->ndisplays; j++)
			fp_str(f, s->displays[j].text);
		fp_steps(f, s->steps, s->nsteps, depth + 1);
	}
}

/* Everything a model holds that came from the files, as text. */
static char *fingerprint(const spec_model *m, const spec_diags *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t i = 0; i < m->nfiles; i++)
		fprintf(f, "file %s\n", m->files[i]);
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		fprintf(f, "bitset %s", b->name);
		fp_str(f, b->displayname);
		fp_loc(f, b->loc);
		fprintf(f, " parent=%s size=%u gen=%u..%u/%u..%u %d\n",
		        b->parent ? b->parent->name : "-", b->size, b->gen_own.min, b->gen_own.max,
		        b->gen.min, b->gen.max, b->has_gen);
		for (size_t p = 0; p < b->npatterns; p++) {
			fprintf(f, " pattern %u..%u %s", b->patterns[p].low, b->patterns[p].high,
			        b->patterns[p].bits);
			fp_loc(f, b->patterns[p].loc);
		}
		fp_bits(f, b->match);
		fp_bits(f, b->mask);
		fp_bits(f, b->dontcare);
		fp_bits(f, b->field_mask);
		for (size_t c = 0; c < b->ncases; c++) {
			const spec_case *k = &b->cases[c];
			fputs("\n case", f);
			fp_expr(f, k->expr);
			fp_str(f, k->expr_name);
			fp_loc(f, k->loc);
			fp_str(f, k->display);
			fp_loc(f, k->display_loc);
			for (size_t j = 0; j < k->nfields; j++) {
				const spec_field *x = &k->fields[j];
				fprintf(f, "\n  field %d %s %u..%u %d %d", (int)x->kind, x->name, x->low,
				        x->high, x->has_width, (int)x->type);
				fp_loc(f, x->loc);
				fp_str(f, x->type_name);
				fp_str(f, x->display);
				fp_str(f, x->expr_name);
				fp_expr(f, x->expr);
				fprintf(f, " call=%d enum=%s bitset=%s", x->call, x->enm ? x->enm->name : "-",
				        x->bitset ? x->bitset->name : "-");
				for (size_t p = 0; p < x->nparams; p++) {
					fp_str(f, x->params[p].name);
					fp_str(f, x->params[p].as);
					fp_loc(f, x->params[p].loc);
				}
				if (x->kind == SPEC_ASSERT)
					fp_bits(f, x->assert_value);
			}
		}
		for (size_t j = 0; j < b->nmeta; j++)
			fprintf(f, "\n meta %s=%s", b->meta[j].key, b->meta[j].value);
		fprintf(f, "\n encode %d", b->has_encode);
		fp_str(f, b->encode_type);
		fp_str(f, b->encode_case_prefix);
		for (size_t j = 0; j < b->nmaps; j++) {
			fprintf(f, " map %s=%s %d", b->maps[j].name, b->maps[j].expr, b->maps[j].force);
			fp_loc(f, b->maps[j].loc);
		}
		fp_str(f, b->doc);
		fprintf(f, " children=%zu\n", b->nchildren);
	}
	for (size_t i = 0; i < m->nroots; i++)
		fprintf(f, "root %s leaves=%zu\n", m->roots[i].bitset->name, m->roots[i].nleaves);
	for (size_t i = 0; i < m->nenums; i++) {
		fprintf(f, "enum %s", m->enums[i].name);
		fp_loc(f, m->enums[i].loc);
		for (size_t j = 0; j < m->enums[i].nvalues; j++) {
			const spec_enum_value *v = &m->enums[i].values[j];
			fprintf(f, " %lld", (long long)v->val);
			fp_str(f, v->val_text);
			fp_str(f, v->display);
			fp_str(f, v->name);
			fp_loc(f, v->loc);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < m->nexprs; i++) {
		fprintf(f, "expr %s %d", m->exprs[i].name, m->exprs[i].anonymous);
		fp_loc(f, m->exprs[i].loc);
		fp_expr(f, m->exprs[i].expr);
		fputc('\n', f);
	}
	for (size_t i = 0; i < m->ntemplates; i++) {
		fprintf(f, "template %s", m->templates[i].name);
		fp_loc(f, m->templates[i].loc);
		fp_str(f, m->templates[i].text);
		fputc('\n', f);
	}
	for (size_t i = 0; i < spec_program_count(m); i++) {
		const spec_program *p = spec_program_at(m, i);
		fprintf(f, "program %s", p->name);
		fp_str(f, p->extends);
		fp_loc(f, p->loc);
		fprintf(f, " cover=%d\n", p->cover);
		fp_steps(f, p->steps, p->nsteps, 1);
	}
	for (size_t i = 0; i < d->count; i++) {
		fprintf(f, "diag %d %s", (int)d->items[i].severity, d->items[i].rule);
		fp_loc(f, d->items[i].loc);
		fprintf(f, " %s\n", d->items[i].message);
	}
	fclose(f);
	return buf;
}

/* ------------------------------------------------------------- helpers */

typedef struct loaded {
	char *fp;    /* NULL: unusable (then the fatal diagnostics) */
	char *fatal;
} loaded;

static loaded load_fp(const char *path, const char *cache_dir)
{
	spec_load_options opt = {.cache_dir = cache_dir};
	spec_diags d = {0};
	spec_model *m = spec_load_with(path, &opt, &d);
	spec_diags_sort(&d);
	loaded r = {0};
	if (m) {
		r.fp = fingerprint(m, &d);
	} else {
		char *b = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&b, &n);
		for (size_t i = 0; i < d.count; i++)
			fprintf(f, "%s %s\n", d.items[i].rule, d.items[i].message);
		fclose(f);
		r.fatal = b;
	}
	spec_model_free(m);
	spec_diags_free(&d);
	return r;
}

static void loaded_free(loaded *l)
{
	free(l->fp);
	free(l->fatal);
}

static char *temp_dir(void)
{
	char tmpl[] = "/tmp/isacheck-test-cache.XXXXXX";
	char *d = mkdtemp(tmpl);
	return d ? strdup(d) : NULL;
}

/* The entries of a cache folder, sorted names, as one string. */
static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strstr(e->d_name, ".tree") != NULL && !strchr(e->d_name + strlen(e->d_name) - 5, 'X');
	if (d)
		closedir(d);
	return n;
}

/* The path of the only entry in dir, or NULL. */
static char *only_entry(const char *dir)
{
	DIR *d = opendir(dir);
	char *path = NULL;
	size_t n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		if (strstr(e->d_name, ".tree")) {
			n++;
			free(path);
			if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
				path = NULL;
		}
	if (d)
		closedir(d);
	if (n != 1) {
		free(path);
		return NULL;
	}
	return path;
}

static unsigned char *read_bytes(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
	*n = b && len > 0 && fread(b, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
	fclose(f);
	return b;
}

static void write_bytes(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(b, 1, n, f);
		fclose(f);
	}
}

/* A small spec with findings of every kind the loader keeps locations for
 * (the warm load must report them at the same lines and columns). */
static const char small_spec[] =
	"<?xml version=\"1.0\"?>\n"
	"<isa>\n"
	"  <enum name=\"#e\">\n"
	"    <value val=\"0\" display=\"zero\"/>\n"
	"    <value val=\"9\" display=\"nine\"/>\n"
	"  </enum>\n"
	"  <bitset name=\"#instruction\" size=\"16\">\n"
	"    <doc>  text &amp; more  </doc>\n"
	"    <field name=\"E\" low=\"0\" high=\"1\" type=\"#e\"/>\n"
	"    <pattern low=\"2\" high=\"3\">x1</pattern>\n"
	"  </bitset>\n"
	"  <bitset name=\"a\" extends=\"#instruction\" bogus=\"1\">\n"
	"    <pattern low=\"4\" high=\"15\">000000000000</pattern>\n"
	"    <display>a {E} &amp;&amp; {NOPE}</display>\n"
	"  </bitset>\n"
	"  <bitset name=\"b\" extends=\"#instruction\">\n"
	"    <pattern low=\"4\" high=\"15\">00000000000x</pattern>\n"
	"    <override expr=\"{E} == 1\"><display>b1</display></override>\n"
	"    <display>b</display>\n"
	"  </bitset>\n"
	"</isa>\n";

/* A folder with small_spec in it as small.xml, loaded once without the
 * cache and once through a fresh cache in its folder "cache". */
typedef struct fixture {
	char *dir;
	char path[512], cache[600];
	loaded plain, cold;
	char *entry;          /* the cache's only entry, NULL if not one */
	unsigned char *bytes; /* its bytes */
	size_t n;
} fixture;

static fixture fixture_open(void)
{
	fixture f = {.dir = temp_dir()};
	snprintf(f.path, sizeof f.path, "%s/small.xml", f.dir);
	snprintf(f.cache, sizeof f.cache, "%s/cache", f.dir);
	testlib_write_file(f.path, small_spec);
	f.plain = load_fp(f.path, NULL);
	f.cold = load_fp(f.path, f.cache);
	f.entry = only_entry(f.cache);
	f.bytes = f.entry ? read_bytes(f.entry, &f.n) : NULL;
	CHECK(f.plain.fp && f.cold.fp && f.bytes && f.n > 200);
	return f;
}

/* A copy of the entry's bytes to alter (free it). */
static unsigned char *fx_copy(const fixture *f)
{
	unsigned char *b = f->bytes ? malloc(f->n) : NULL;
	if (b)
		memcpy(b, f->bytes, f->n);
	return b;
}

static void fixture_close(fixture *f)
{
	loaded_free(&f->plain);
	loaded_free(&f->cold);
	free(f->entry);
	free(f->bytes);
	testlib_remove_tree(f->dir);
	free(f->dir);
}

/* Loads path with no cache, then twice through a fresh cache: all three
 * models must print the same. */
static void same_three_ways(const char *path)
{
	char *dir = temp_dir();
	loaded plain = load_fp(path, NULL);
	loaded cold = load_fp(path, dir);
	size_t entries = count_entries(dir);
	loaded warm = load_fp(path, dir);
	CHECK(plain.fp != NULL);
	CHECK(entries >= 1);
	CHECK_INT(count_entries(dir), entries); /* a warm load writes nothing */
	if (plain.fp && cold.fp && warm.fp) {
		CHECK_STR(cold.fp, plain.fp);
		CHECK_STR(warm.fp, plain.fp);
	}
	loaded_free(&plain);
	loaded_free(&cold);
	loaded_free(&warm);
	testlib_remove_tree(dir);
	free(dir);
}

/* --------------------------------------------------------------- tests */

TEST(shipped_isas_same_through_the_cache)
{
	static const char *const isas[] = {"a2xx", "etnaviv", "midgard"};
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/isa/%s.xml", ISACHECK_SOURCE_DIR, isas[i]);
		same_three_ways(path);
	}
}

TEST(mesa_files_same_through_the_cache)
{
	char probe[1024];
	testlib_shared_path(probe, sizeof probe, "mesa/src/freedreno/isa/ir3.xml");
	if (!testlib_have_shared(probe))
		return;
	static const char *const files[] = {
		"mesa/src/freedreno/isa/ir3.xml", "mesa/src/etnaviv/isa/etnaviv.xml",
		"mesa/src/freedreno/afuc/afuc.xml"};
	for (size_t i = 0; i < 3; i++) {
		char path[1024];
		testlib_shared_path(path, sizeof path, "%s", files[i]);
		same_three_ways(path);
	}
}

TEST(findings_and_locations_same_through_the_cache)
{
	fixture fx = fixture_open();
	loaded warm = load_fp(fx.path, fx.cache);
	CHECK(fx.plain.fp && strstr(fx.plain.fp, "diag ")); /* the spec has findings */
	if (fx.plain.fp && fx.cold.fp && warm.fp) {
		CHECK_STR(fx.cold.fp, fx.plain.fp);
		CHECK_STR(warm.fp, fx.plain.fp);
	}
	/* the cache folder is created private */
	struct stat st;
	CHECK(stat(fx.cache, &st) == 0 && (st.st_mode & 0777) == 0700);
	loaded_free(&warm);
	fixture_close(&fx);
}

/* A warm load reads the entry, not the file's XML: an entry whose
 * strings say something else (sealed, so every check passes) shows
 * through, and a broken seal sends the load back to the file. */
TEST(warm_load_reads_the_entry)
{
	fixture fx = fixture_open();
	const char *path = fx.path, *cache = fx.cache;
	const char *entry = fx.entry;
	size_t n = fx.n;
	unsigned char *b = fx_copy(&fx);
	unsigned char *zero = b ? memmem(b, n, "zero", 5) : NULL; /* with its NUL */
	CHECK(zero != NULL);
	if (zero) {
		memcpy(zero, "ZERO", 4);
		CHECK(!spec_cache_entry_valid(b, n)); /* the checksum sees it */
		write_bytes(entry, b, n);
		loaded unsealed = load_fp(path, cache);
		CHECK(unsealed.fp && strstr(unsealed.fp, "[zero]") && !strstr(unsealed.fp, "[ZERO]"));
		CHECK(spec_cache_entry_seal(b, n));
		CHECK(spec_cache_entry_valid(b, n));
		write_bytes(entry, b, n);
		loaded sealed = load_fp(path, cache);
		CHECK(sealed.fp && strstr(sealed.fp, "[ZERO]") && !strstr(sealed.fp, "[zero]"));
		loaded_free(&unsealed);
		loaded_free(&sealed);
	}
	free(b);
	fixture_close(&fx);
}

/* Each damaged entry is refused, the file parsed again (the model as
 * before) and the entry rewritten whole. */
static void damaged_entry_is_replaced(const char *path, const char *cache, const char *entry,
                                      const unsigned char *good, size_t n,
                                      const unsigned char *bad, size_t badn, const char *expect)
{
	write_bytes(entry, bad, badn);
	loaded l = load_fp(path, cache);
	CHECK(l.fp != NULL);
	if (l.fp)
		CHECK_STR(l.fp, expect);
	size_t m = 0;
	unsigned char *now = read_bytes(entry, &m);
	CHECK(now && m == n && !memcmp(now, good, n));
	free(now);
	loaded_free(&l);
}

TEST(damaged_entries_are_never_trusted)
{
	fixture fx = fixture_open();
	const char *path = fx.path, *cache = fx.cache;
	const loaded plain = fx.plain;
	const char *entry = fx.entry;
	size_t n = fx.n;
	const unsigned char *good = fx.bytes;
	CHECK(good && n > 200 && spec_cache_entry_valid(good, n));
	if (good && n > 200 && plain.fp) {
		unsigned char *bad = malloc(n + 8);
		/* every byte flipped in turn (the header and a sample of the rest) */
		size_t flipped = 0;
		for (size_t i = 0; i < n; i += i < 64 ? 1 : 7) {
			if (i >= 16 && i < 40)
				continue; /* the key: another file's entry, below */
			memcpy(bad, good, n);
			bad[i] ^= 0x5a;
			CHECK(!spec_cache_entry_valid(bad, n));
			flipped++;
		}
		CHECK(flipped > 64);
		/* truncated anywhere, or with bytes after its end */
		for (size_t k = 0; k < n; k += 1 + k / 4)
			CHECK(!spec_cache_entry_valid(good, k));
		memcpy(bad, good, n);
		memset(bad + n, 0, 8);
		CHECK(!spec_cache_entry_valid(bad, n + 8));
		/* the other byte order: the marker (and all else) reversed */
		memcpy(bad, good, n);
		for (size_t i = 8; i + 4 <= 64; i += 4) {
			unsigned char t0 = bad[i], t1 = bad[i + 1];
			bad[i] = bad[i + 3];
			bad[i + 1] = bad[i + 2];
			bad[i + 2] = t1;
			bad[i + 3] = t0;
		}
		spec_cache_entry_seal(bad, n);
		CHECK(!spec_cache_entry_valid(bad, n));
		/* and through the loader: flipped, truncated, another format */
		memcpy(bad, good, n);
		bad[n / 2] ^= 1;
		damaged_entry_is_replaced(path, cache, entry, good, n, bad, n, plain.fp);
		/* an entry of other bytes (key or length) under this name */
		for (size_t at = 16; at < 40; at += 8) {
			memcpy(bad, good, n);
			bad[at + 3] ^= 0x10;
			CHECK(spec_cache_entry_valid(bad, n)); /* well formed, */
			damaged_entry_is_replaced(path, cache, entry, good, n, bad, n, plain.fp);
		}
		damaged_entry_is_replaced(path, cache, entry, good, n, good, n / 3, plain.fp);
		memcpy(bad, good, n);
		bad[8] ^= 0x7f; /* the format number */
		spec_cache_entry_seal(bad, n);
		damaged_entry_is_replaced(path, cache, entry, good, n, bad, n, plain.fp);
		damaged_entry_is_replaced(path, cache, entry, good, n, (const unsigned char *)"", 0,
		                          plain.fp);
		free(bad);
	}
	fixture_close(&fx);
}

/* Offsets into the entry of the small spec, for the structural edits. */
#define ELEM_AT(i, f) (64 + ((i) * 11 + (f)) * 4)

static void put32_at(unsigned char *b, size_t at, uint32_t v)
{
	memcpy(b + at, &v, 4);
}

/* Structural damage with a right checksum: what the checksum cannot
 * catch, the reader must. */
TEST(structural_damage_is_refused)
{
	fixture fx = fixture_open();
	size_t n = fx.n;
	const unsigned char *good = fx.bytes;
	if (good) {
		uint32_t nelems, nattrs, strbytes;
		memcpy(&nelems, good + 40, 4);
		memcpy(&nattrs, good + 44, 4);
		memcpy(&strbytes, good + 48, 4);
		CHECK(nelems > 5);
		unsigned char *b = malloc(n);
		struct {
			size_t at;
			uint32_t value;
		} edits[] = {
			{ELEM_AT(0, 1), 1},               /* the root with a parent */
			{ELEM_AT(3, 1), 4},               /* a parent after its child */
			{ELEM_AT(3, 1), 0},               /* a second root */
			{ELEM_AT(2, 0), strbytes},        /* a name past the strings */
			{ELEM_AT(2, 5), strbytes + 100},  /* a text past the strings */
			{ELEM_AT(1, 2), nattrs + 1},      /* more attributes than there are */
			{ELEM_AT(1, 2), 100000},          /* over the limit */
			{ELEM_AT(1, 8), 2},               /* has_text neither 0 nor 1 */
			{40, 0},                          /* no elements */
			{40, nelems + 1},                 /* sizes that do not add up */
			{44, nattrs + 1},
			{48, strbytes - 1},
		};
		for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
			memcpy(b, good, n);
			put32_at(b, edits[i].at, edits[i].value);
			spec_cache_entry_seal(b, n);
			if (spec_cache_entry_valid(b, n))
				fprintf(stderr, "edit %zu was accepted\n", i);
			CHECK(!spec_cache_entry_valid(b, n));
		}
		/* the last string not ended */
		memcpy(b, good, n);
		b[n - 1] = 'x';
		spec_cache_entry_seal(b, n);
		CHECK(!spec_cache_entry_valid(b, n));
		/* an empty name: the first string of the table made empty */
		memcpy(b, good, n);
		uint32_t name0;
		memcpy(&name0, good + ELEM_AT(0, 0), 4);
		b[64 + (size_t)nelems * 44 + (size_t)nattrs * 16 + name0] = 0;
		spec_cache_entry_seal(b, n);
		CHECK(!spec_cache_entry_valid(b, n));
		/* random damage, sealed: refused or accepted, never a crash (the
		 * ASan build runs this) */
		uint64_t s = 0x9e3779b97f4a7c15ull;
		for (int k = 0; k < 3000; k++) {
			memcpy(b, good, n);
			for (int j = 0; j < 1 + k % 4; j++) {
				s = s * 6364136223846793005ull + 1442695040888963407ull;
				size_t at = 64 + (size_t)(s >> 33) % (n - 64);
				b[at] = (unsigned char)(s >> 13);
			}
			spec_cache_entry_seal(b, n);
			(void)spec_cache_entry_valid(b, n);
		}
		free(b);
	}
	fixture_close(&fx);
}

/* An edited file misses (its bytes are the key), loads as edited and adds
 * an entry; the old entry stays for the old bytes. */
TEST(an_edited_file_is_never_stale)
{
	fixture fx = fixture_open();
	const char *path = fx.path, *cache = fx.cache;
	CHECK_INT(count_entries(cache), 1);
	char *edited = strdup(small_spec);
	char *p = strstr(edited, "display=\"nine\"");
	memcpy(p, "display=\"NINE\"", 14);
	testlib_write_file(path, edited);
	loaded plain = load_fp(path, NULL);
	loaded after = load_fp(path, cache);
	CHECK_INT(count_entries(cache), 2);
	CHECK(after.fp && strstr(after.fp, "[NINE]") && !strstr(after.fp, "[nine]"));
	if (after.fp && plain.fp)
		CHECK_STR(after.fp, plain.fp);
	/* an import is keyed by its own bytes too */
	char imp[600];
	snprintf(imp, sizeof imp, "%s/top.xml", fx.dir);
	testlib_write_file(imp, "<isa>\n  <import file=\"small.xml\"/>\n</isa>\n");
	loaded top1 = load_fp(imp, cache);
	testlib_write_file(path, small_spec);
	loaded top2 = load_fp(imp, cache);
	CHECK(top1.fp && strstr(top1.fp, "[NINE]"));
	CHECK(top2.fp && strstr(top2.fp, "[nine]"));
	free(edited);
	loaded_free(&plain);
	loaded_free(&after);
	loaded_free(&top1);
	loaded_free(&top2);
	fixture_close(&fx);
}

/* Unusable files stay unusable, with the same diagnostics, and leave no
 * entry behind. */
TEST(unusable_files_are_not_cached)
{
	char *dir = temp_dir();
	char path[512], cache[600];
	snprintf(path, sizeof path, "%s/bad.xml", dir);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	testlib_write_file(path, "<isa>\n  <bitset name=\"a\"\n</isa>\n");
	loaded plain = load_fp(path, NULL);
	loaded c1 = load_fp(path, cache);
	loaded c2 = load_fp(path, cache);
	CHECK(!plain.fp && plain.fatal);
	CHECK(c1.fatal && c2.fatal);
	if (plain.fatal && c1.fatal && c2.fatal) {
		CHECK_STR(c1.fatal, plain.fatal);
		CHECK_STR(c2.fatal, plain.fatal);
	}
	CHECK_INT(count_entries(cache), 0);
	/* a cache folder that cannot be made costs nothing but time */
	loaded nowhere = load_fp(ISACHECK_SOURCE_DIR "/isa/etnaviv.xml", "/proc/isacheck-no");
	CHECK(nowhere.fp != NULL);
	loaded_free(&plain);
	loaded_free(&c1);
	loaded_free(&c2);
	loaded_free(&nowhere);
	testlib_remove_tree(dir);
	free(dir);
}

int main(void)
{
	RUN(shipped_isas_same_through_the_cache);
	RUN(mesa_files_same_through_the_cache);
	RUN(findings_and_locations_same_through_the_cache);
	RUN(warm_load_reads_the_entry);
	RUN(damaged_entries_are_never_trusted);
	RUN(structural_damage_is_refused);
	RUN(an_edited_file_is_never_stale);
	RUN(unusable_files_are_not_cached);
	return testlib_finish();
}
