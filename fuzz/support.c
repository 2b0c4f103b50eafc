/*
 * support.c - what the fuzz targets share (fuzz.h): finding and loading
 * spec files, reading inputs as instructions, comparing decodings, and
 * the finding report.  Compiled once per build and kind of binary
 * (fuzz/targets.cmake), so it knows no target: a target names itself in
 * each call that reports.  What it knows of the build: FUZZ_REPRO_DIR
 * (where the reproducers are), ISACHECK_BINARY, ISACHECK_SOURCE_DIR and
 * ISACHECK_SHARED_DIR.
 */
#include "fuzz.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_REPRO_DIR
#define FUZZ_REPRO_DIR "."
#endif
#ifndef ISACHECK_BINARY
#define ISACHECK_BINARY "isacheck"
#endif

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory of the running binary ("" when unknown). */
static void exe_dir(char *out, size_t len)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	out[0] = 0;
	if (n <= 0)
		return;
	buf[n] = 0;
	char *slash = strrchr(buf, '/');
	if (slash) {
		*slash = 0;
		snprintf(out, len, "%s", buf);
	}
}

bool fuzz_find_spec(const char *spec, char *out, size_t len)
{
	bool shared = !strncmp(spec, "shared:", 7);
	const char *rel = strchr(spec, ':') ? strchr(spec, ':') + 1 : spec;
	const char *env = getenv(shared ? "ISACHECK_SHARED_DIR" : "ISACHECK_SOURCE_DIR");
	if (env && *env) {
		snprintf(out, len, "%s/%s", env, rel);
		if (is_file(out))
			return true;
	}
	char dir[PATH_MAX];
	exe_dir(dir, sizeof dir);
	if (dir[0]) {
		snprintf(out, len, "%s/isacheck-data/%s/%s", dir, shared ? "shared" : "repo", rel);
		if (is_file(out))
			return true;
	}
	snprintf(out, len, "%s/%s", shared ? ISACHECK_SHARED_DIR : ISACHECK_SOURCE_DIR, rel);
	return is_file(out);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Every generation at which some bitset of the root starts or stops
 * applying: one representative per interval is enough to reach all the
 * spec's behaviour, so the fuzzer need not guess gpu ids. */
static void collect_gens(fuzz_spec *s)
{
	const spec_gen r = s->root->bitset->gen;
	uint32_t pts[512];
	size_t n = 0;
	pts[n++] = r.min;
	for (size_t i = 0; i < s->m->nbitsets && n + 2 <= sizeof pts / sizeof *pts; i++) {
		const spec_bitset *b = s->m->bitsets[i];
		if (b->root != s->root->bitset)
			continue;
		if (b->gen.min > r.min && b->gen.min <= r.max)
			pts[n++] = b->gen.min;
		if (b->gen.max < r.max && b->gen.max >= r.min)
			pts[n++] = b->gen.max + 1;
	}
	qsort(pts, n, sizeof *pts, cmp_u32);
	s->ngens = 0;
	for (size_t i = 0; i < n && s->ngens < sizeof s->gens / sizeof *s->gens; i++)
		if (!s->ngens || pts[i] != s->gens[s->ngens - 1])
			s->gens[s->ngens++] = pts[i];
}

static bool build_bits(fuzz_spec *s);
static void spec_coverage_start(void);

/* Whether any expression of the model calls ISA_GPU_ID(). */
static bool model_reads_gpu_id(const spec_model *m)
{
	for (size_t i = 0; i < m->nexprs; i++)
		if (spec_expr_uses_gpu_id(m->exprs[i].expr))
			return true;
	for (size_t i = 0; i < m->nbitsets; i++) {
		const spec_bitset *b = m->bitsets[i];
		for (size_t c = 0; c < b->ncases; c++) {
			if (spec_expr_uses_gpu_id(b->cases[c].expr))
				return true;
			for (size_t f = 0; f < b->cases[c].nfields; f++)
				if (spec_expr_uses_gpu_id(b->cases[c].fields[f].expr))
					return true;
		}
	}
	return false;
}

/* s->gen_bounds (fuzz_spec_gen_class): each bitset's first generation
 * and the one after its last, 0 and past UINT32_MAX left out. */
static void collect_gen_bounds(fuzz_spec *s)
{
	const spec_model *m = s->m;
	s->ngen_bounds = 0;
	s->gen_exact = model_reads_gpu_id(m);
	for (size_t i = 0; i < m->nbitsets && !s->gen_exact; i++) {
		const spec_gen g = m->bitsets[i]->gen;
		uint32_t at[2] = {g.min, g.max == UINT32_MAX ? 0 : g.max + 1};
		for (unsigned k = 0; k < 2 && !s->gen_exact; k++) {
			if (!at[k])
				continue;
			size_t j = 0;
			while (j < s->ngen_bounds && s->gen_bounds[j] < at[k])
				j++;
			if (j < s->ngen_bounds && s->gen_bounds[j] == at[k])
				continue;
			if (s->ngen_bounds == sizeof s->gen_bounds / sizeof *s->gen_bounds) {
				s->gen_exact = true; /* too many to keep: no classes */
				break;
			}
			memmove(s->gen_bounds + j + 1, s->gen_bounds + j,
			        (s->ngen_bounds - j) * sizeof *s->gen_bounds);
			s->gen_bounds[j] = at[k];
			s->ngen_bounds++;
		}
	}
	if (s->gen_exact)
		s->ngen_bounds = 0;
}

/* A growing array of pointers (false: out of memory). */
static bool push_ptr(const void ***a, size_t *n, size_t *cap, const void *p)
{
	const void **grown = spec_grow(*a, *n + 1, cap, sizeof *grown, 64);
	if (!grown)
		return false;
	*a = grown;
	grown[(*n)++] = p;
	return true;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_field_ptr(const void *a, const void *b)
{
	const spec_field *x = *(const spec_field *const *)a, *y = *(const spec_field *const *)b;
	return x < y ? -1 : x > y;
}

static bool push_refs(const void ***a, size_t *n, size_t *cap, const spec_expr *x)
{
	for (size_t r = 0; x && r < spec_expr_ref_count(x); r++)
		if (!push_ptr(a, n, cap, spec_expr_ref(x, r)))
			return false;
	return true;
}

/* s->read_subs (see fuzz.h): the names every expression reads and every
 * param passes on, sorted, then each bitset-typed field looked up. */
static bool find_read_subs(fuzz_spec *s)
{
	const spec_model *m = s->m;
	const void **names = NULL, **subs = NULL;
	size_t nn = 0, capn = 0, ns = 0, caps = 0;
	bool ok = true;
	for (size_t i = 0; ok && i < m->nexprs; i++)
		ok = push_refs(&names, &nn, &capn, m->exprs[i].expr);
	for (size_t i = 0; ok && i < m->nbitsets; i++)
		for (size_t c = 0; ok && c < m->bitsets[i]->ncases; c++) {
			const spec_case *k = &m->bitsets[i]->cases[c];
			ok = push_refs(&names, &nn, &capn, k->expr);
			for (size_t f = 0; ok && f < k->nfields; f++) {
				ok = push_refs(&names, &nn, &capn, k->fields[f].expr);
				for (size_t p = 0; ok && p < k->fields[f].nparams; p++)
					ok = push_ptr(&names, &nn, &capn, k->fields[f].params[p].name);
			}
		}
	if (ok && nn)
		qsort(names, nn, sizeof *names, cmp_name);
	for (size_t i = 0; ok && nn && i < m->nbitsets; i++)
		for (size_t c = 0; ok && c < m->bitsets[i]->ncases; c++) {
			const spec_case *k = &m->bitsets[i]->cases[c];
			for (size_t f = 0; ok && f < k->nfields; f++) {
				const spec_field *fd = &k->fields[f];
				if (fd->kind == SPEC_FIELD && fd->type == SPEC_TYPE_BITSET &&
				    bsearch(&fd->name, names, nn, sizeof *names, cmp_name))
					ok = push_ptr(&subs, &ns, &caps, fd);
			}
		}
	free(names);
	if (!ok) {
		free(subs);
		return false;
	}
	if (ns)
		qsort(subs, ns, sizeof *subs, cmp_field_ptr);
	s->read_subs = (const spec_field **)subs;
	s->nread_subs = ns;
	return true;
}

int fuzz_spec_load(fuzz_spec *s, const char *spec, codec_no_match_style no_match)
{
	memset(s, 0, sizeof *s);
	s->no_match = no_match;
	if (!fuzz_find_spec(spec, s->path, sizeof s->path)) {
		fprintf(stderr, "fuzz: %s: spec file not found (%s); set ISACHECK_SHARED_DIR "
		        "(Mesa's files) or ISACHECK_SOURCE_DIR (ours): skipped\n", spec, s->path);
		return FUZZ_EXIT_SKIP;
	}
	spec_diags d = {0};
	s->m = spec_load(s->path, &d);
	s->c = s->m ? codec_new(s->m, &d) : NULL;
	int rc = 0;
	if (!s->c) {
		for (size_t i = 0; i < d.count; i++)
			if (d.items[i].severity == SPEC_FATAL)
				fprintf(stderr, "%s:%u: error: %s\n", d.items[i].loc.file,
				        d.items[i].loc.line, d.items[i].message);
		fprintf(stderr, "fuzz: %s: does not load\n", s->path);
		rc = 2;
	} else {
		s->root = codec_default_root(s->c);
		unsigned bits = s->root ? s->root->bitset->size : 0;
		if (!bits || bits % 32) {
			fprintf(stderr, "fuzz: %s: the default root is %u bits, not a whole number "
			        "of 32-bit words\n", s->path, bits);
			rc = 2;
		} else {
			s->nbytes = bits / 8;
			s->nwords = (bits + 63) / 64;
			collect_gens(s);
			collect_gen_bounds(s);
			spec_coverage_start();
			s->enc = codec_encoder_new(s->c);
			if (!s->enc || !build_bits(s) || !find_read_subs(s)) {
				fprintf(stderr, "fuzz: %s: out of memory\n", s->path);
				rc = 2;
			}
		}
	}
	spec_diags_free(&d);
	if (rc)
		fuzz_spec_free(s);
	return rc;
}

void fuzz_spec_load_or_exit(fuzz_spec *s, const char *spec, codec_no_match_style no_match)
{
	int rc = fuzz_spec_load(s, spec, no_match);
	if (rc)
		exit(rc);
}

fuzz_spec fuzz_spec_view(const fuzz_spec *s, const spec_root *root)
{
	fuzz_spec v = *s;
	v.root = root;
	v.nbytes = (root->bitset->size + 7) / 8;
	v.nwords = (root->bitset->size + 63) / 64;
	return v;
}

void fuzz_spec_free(fuzz_spec *s)
{
	codec_encoder_free(s->enc);
	s->enc = NULL;
	codec_free(s->c);
	spec_model_free(s->m);
	free((void *)s->bits_index);
	free((void *)s->bits);
	free(s->read_subs);
	s->read_subs = NULL;
	s->nread_subs = 0;
	s->c = NULL;
	s->m = NULL;
	s->bits_index = NULL;
	s->bits = NULL;
}

uint32_t fuzz_spec_gen(const fuzz_spec *s, uint16_t raw)
{
	/* With generations, the interesting ones lie between the first and
	 * the last boundary; others are folded onto the boundaries. */
	if (s->ngens < 2)
		return raw < s->root->bitset->gen.min ? s->root->bitset->gen.min : raw;
	if (raw >= s->gens[0] && raw < s->gens[s->ngens - 1])
		return raw;
	return s->gens[raw % s->ngens];
}

uint32_t fuzz_spec_gen_class(const fuzz_spec *s, uint32_t gen)
{
	if (s->gen_exact)
		return gen;
	uint32_t n = 0; /* the bounds at or below gen */
	while (n < s->ngen_bounds && s->gen_bounds[n] <= gen)
		n++;
	return n;
}

uint64_t fuzz_read_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

uint64_t fuzz_input_seed(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

bool fuzz_input_instr(const fuzz_spec *s, const uint8_t *data, size_t size, size_t i,
                      uint64_t *w, uint32_t *u)
{
	if (size < 2 || i >= FUZZ_MAX_INSTR || (size - 2) / s->nbytes <= i)
		return false;
	const uint8_t *p = data + 2 + i * s->nbytes;
	memset(w, 0, s->nwords * sizeof *w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(w, p, s->nbytes); /* the round trips read every instruction here */
#else
	for (unsigned b = 0; b < s->nbytes; b++)
		w[b / 8] |= (uint64_t)p[b] << (8 * (b % 8));
#endif
	unsigned bits = s->root->bitset->size;
	if (bits % 64)
		w[s->nwords - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
	for (unsigned k = 0; u && k < s->nbytes / 4; k++)
		u[k] = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 |
		       (uint32_t)p[4 * k + 2] << 16 | (uint32_t)p[4 * k + 3] << 24;
	return true;
}

codec_decoded *fuzz_decoding_reset(fuzz_decoding *out)
{
	out->d = (codec_decoded){.values = out->values, .cap_values = FUZZ_MAX_VALUES,
	                         .issues = out->issues, .cap_issues = FUZZ_MAX_ISSUES};
	return &out->d;
}

void fuzz_decode_again(const fuzz_spec *s, const uint64_t *w, uint32_t gen, fuzz_decoding *out)
{
	out->ok = codec_decode(s->c, s->root, w, gen, fuzz_decoding_reset(out));
}

void fuzz_decode(const fuzz_spec *s, const uint64_t *w, uint32_t gen, fuzz_decoding *out)
{
	fuzz_decode_again(s, w, gen, out);
	out->nmarks = fuzz_spec_coverage_list(&out->d, out->marks, FUZZ_MAX_MARKS);
}

size_t fuzz_decode_text(const fuzz_spec *s, const uint64_t *w, const codec_disasm_options *opt,
                        fuzz_decoding *out, char *text, size_t len)
{
	size_t n;
	out->ok = codec_decode_text(s->c, s->root, w, opt, fuzz_decoding_reset(out), text, len, &n);
	out->nmarks = fuzz_spec_coverage_list(&out->d, out->marks, FUZZ_MAX_MARKS);
	return n;
}

#ifdef FUZZ_SPEC_COVERAGE
/* libFuzzer is told of the counters as of a module's (SanitizerCoverage's
 * inline 8-bit counters, each with an entry in a table of "PCs"), a slice
 * at a time as things are first reached: it reads and clears every
 * counter of every module on every run, so a spec whose inputs reach 500
 * things costs it 512 counters, not the 65,536 the largest may need.
 * (Its other place for counters of one's own, the section
 * __libfuzzer_extra_counters, has a size fixed at link time: ir3's 16,384
 * took a third of a run.)  The PCs are the counters' addresses, which
 * tells them apart in libFuzzer's "cov:" count, where spec things then
 * appear beside the edges; the first of each slice is marked as a
 * function entry, as libFuzzer's coverage printing expects of a table.
 * Where no libFuzzer is linked (the tests), the weak references stay
 * NULL and the counters are only set. */
typedef struct spec_pc {
	uintptr_t pc, flags;
} spec_pc;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) __attribute__((weak));
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop)
	__attribute__((weak));

#define SPEC_SLICE 512u
_Static_assert(FUZZ_SPEC_COUNTERS % SPEC_SLICE == 0 && FUZZ_SPEC_COUNTERS <= 65536,
               "the counters come in whole slices, numbered in 16 bits");

/* Global, as the counters libFuzzer reads must be, like the spec each
 * target loads once. */
static _Alignas(64) uint8_t spec_counters[FUZZ_SPEC_COUNTERS];
static spec_pc spec_pcs[FUZZ_SPEC_COUNTERS];
static size_t spec_shown; /* counters libFuzzer has been told of */

uint8_t *fuzz_spec_counters(void)
{
	return spec_counters;
}

/* Tells libFuzzer of the slices up to the one holding counter slot. */
static void spec_show(size_t slot)
{
	while (spec_shown <= slot) {
		size_t end = spec_shown + SPEC_SLICE;
		for (size_t i = spec_shown; i < end; i++)
			spec_pcs[i] = (spec_pc){(uintptr_t)&spec_counters[i], i == spec_shown};
		if (__sanitizer_cov_8bit_counters_init && __sanitizer_cov_pcs_init) {
			__sanitizer_cov_8bit_counters_init(spec_counters + spec_shown,
			                                   spec_counters + end);
			__sanitizer_cov_pcs_init((const uintptr_t *)(spec_pcs + spec_shown),
			                         (const uintptr_t *)(spec_pcs + end));
		}
		spec_shown = end;
	}
}

/* Each thing reached takes the next free counter when first seen, so
 * that things do not share counters while there are counters left (past
 * that, a thing takes the counter its key hashes to).  The keys are of
 * positions in the model, not of addresses; the counter a thing takes
 * depends on the order things are seen in, which differs from process to
 * process, but libFuzzer works features out anew in each process (and for
 * each input it loads), so only its own order counts. */
#define SPEC_KEYS (2 * FUZZ_SPEC_COUNTERS) /* open addressing, half full at most */
/* The table grows from SPEC_KEYS_MIN as things are seen: a spec reaches
 * a few hundred (a2xx) to a few thousand (ir3) things, and probes spread
 * over all of a 2 MiB table miss the caches on every mark. */
#define SPEC_KEYS_MIN 1024u
_Static_assert(SPEC_KEYS >= SPEC_KEYS_MIN && (SPEC_KEYS & (SPEC_KEYS - 1)) == 0,
               "the table's sizes are powers of two");
/* key and counter side by side: a probe reads one cache line, not two */
static struct spec_key {
	uint64_t key; /* 0: empty */
	uint16_t slot;
} spec_keys[SPEC_KEYS], spec_keys_old[SPEC_KEYS / 2];
static size_t spec_nkeys, spec_cap = SPEC_KEYS_MIN; /* spec_cap: entries in use */
/* The counters of the values' shapes (type, sign, length in bits: a
 * dozen types, 65 lengths), found without hashing: every value of every
 * decoding has one.  0: not taken yet; else the counter + 1. */
static uint32_t spec_shape_slot[SPEC_TYPE_UNKNOWN + 1][2][65];

/* The last counter found for each of 512 keys (a, b), by their first
 * hash's top bits: a run marks much what the runs before it marked, and
 * a key found here needs neither the second hash nor the table's probe
 * (valgrind: a tenth fewer instructions in fuzz_spec_coverage, a2xx).
 * A key's counter never changes once given, so what this remembers
 * stays true until the reset. */
#define SPEC_RECENT 512u
static struct spec_recent {
	uint64_t a, b;
	uint32_t slot; /* the counter + 1; 0: empty */
} spec_recent[SPEC_RECENT];

/* The counter of a value's case mark by where the value stands: its
 * decoding's leaf and its place among the values.  A leaf's decodings
 * mostly have the same owner, case and sub leaf at a place, and a hit
 * needs none of the key's making or hashing (bench/fuzz-replay, a2xx:
 * 3.1% fewer instructions a run).  Keyed by addresses, which a spec
 * freed and another loaded could reuse: cleared whenever a spec is
 * loaded, and with the counters. */
#define SPEC_PLACES 4096u
static struct spec_place {
	const spec_bitset *leaf, *owner, *sub;
	const spec_case *kase;
	uint32_t slot; /* the counter + 1; 0: empty */
} spec_places[SPEC_PLACES];

static void spec_places_clear(void)
{
	memset(spec_places, 0, sizeof spec_places);
}

/* As a spec is loaded: the places are forgotten (they hold addresses of
 * a spec freed before), and the first slice of counters is shown at
 * once, before libFuzzer lists the modules it loaded.  The round trips
 * (OUTCOMES rows) have no edge counters at all, and OSS-Fuzz's bad-build
 * check wants the first module listed to have 100 counters or more. */
static void spec_coverage_start(void)
{
	spec_places_clear();
	spec_show(0);
}

void fuzz_spec_coverage_reset(void)
{
	spec_places_clear();
	memset(spec_recent, 0, sizeof spec_recent);
	memset(spec_keys, 0, sizeof spec_keys);
	memset(spec_shape_slot, 0, sizeof spec_shape_slot);
	spec_nkeys = 0;
	spec_cap = SPEC_KEYS_MIN;
	memset(spec_counters, 0, sizeof spec_counters);
}

/* The entry holding key, or the empty one its probe stops at. */
static size_t spec_find(uint64_t key)
{
	size_t i = (size_t)(key >> 17) & (spec_cap - 1);
	while (spec_keys[i].key && spec_keys[i].key != key)
		i = (i + 1) & (spec_cap - 1);
	return i;
}

/* Doubles the table, every key keeping its counter. */
static void spec_keys_grow(void)
{
	size_t old = spec_cap;
	memcpy(spec_keys_old, spec_keys, old * sizeof *spec_keys);
	spec_cap = 2 * old;
	memset(spec_keys, 0, spec_cap * sizeof *spec_keys);
	for (size_t j = 0; j < old; j++)
		if (spec_keys_old[j].key)
			spec_keys[spec_find(spec_keys_old[j].key)] = spec_keys_old[j];
}

/* spec_take past its memory: the table, by the key's full hash. */
static size_t spec_take_new(uint64_t h)
{
	h ^= h >> 31;
	h *= 0xFF51AFD7ED558CCDull;
	h ^= h >> 33;
	uint64_t key = h | 1; /* 0: an empty slot */
	size_t i = spec_find(key);
	if (!spec_keys[i].key) {
		if (spec_nkeys >= FUZZ_SPEC_COUNTERS) {
			static bool said;
			if (!said)
				fprintf(stderr, "fuzz: all %u counters of the spec's coverage are taken: "
				        "things reached from now on share them\n", FUZZ_SPEC_COUNTERS);
			said = true;
			return h % FUZZ_SPEC_COUNTERS; /* no counter left */
		}
		if (2 * (spec_nkeys + 1) > spec_cap) {
			spec_keys_grow();
			i = spec_find(key);
		}
		spec_keys[i] = (struct spec_key){key, (uint16_t)spec_nkeys++};
		spec_show(spec_keys[i].slot);
	}
	return spec_keys[i].slot;
}

/* The counter of the thing keyed (a, b). */
static size_t spec_take(uint64_t a, uint64_t b)
{
	uint64_t h = (a + 1) * 0x9E3779B97F4A7C15ull ^ (b + 1) * 0xC2B2AE3D27D4EB4Full;
	struct spec_recent *r = &spec_recent[h >> 55];
	if (r->slot && r->a == a && r->b == b)
		return r->slot - 1;
	size_t slot = spec_take_new(h);
	*r = (struct spec_recent){a, b, (uint32_t)slot + 1};
	return slot;
}

/* The counters one decoding sets, each listed once: a counter is listed
 * by the decoding whose stamp it bears (a scan of the list for repeats
 * took a tenth of a2xx's runs). */
typedef struct spec_list {
	uint16_t *marks;
	size_t cap, n;
	uint32_t stamp;
} spec_list;
static uint32_t spec_stamp[FUZZ_SPEC_COUNTERS], spec_stamps;

static void spec_set(spec_list *l, size_t slot)
{
	spec_counters[slot] = 1;
	if (spec_stamp[slot] == l->stamp)
		return;
	spec_stamp[slot] = l->stamp;
	if (l->n < l->cap)
		l->marks[l->n] = (uint16_t)slot;
	l->n++;
}

static void spec_mark(spec_list *l, uint64_t a, uint64_t b)
{
	spec_set(l, spec_take(a, b));
}

static uint64_t bitset_id(const spec_bitset *b)
{
	return b ? b->index + 1 : 0;
}

size_t fuzz_spec_coverage_list(const codec_decoded *d, uint16_t *marks, size_t cap)
{
	if (++spec_stamps == 0) { /* after 2^32 decodings: no stamp is current */
		memset(spec_stamp, 0, sizeof spec_stamp);
		spec_stamps = 1;
	}
	spec_list list = {marks, marks ? cap : 0, 0, spec_stamps}, *l = &list;
	if (!d->leaf) {
		spec_mark(l, 0, d->nissues ? d->issues[0].kind : 0); /* no match, ambiguous */
		return l->n;
	}
	uint64_t leaf = bitset_id(d->leaf);
	spec_mark(l, 1, leaf);
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		const spec_bitset *o = v->owner;
		/* Which case of a bitset with one case defines a value, the leaf
		 * decides (or, inside a bitset field, the sub leaf, marked with
		 * the value that brought it): only a case chosen among several,
		 * and a sub leaf, tell more.  Marking the rest cost libFuzzer a
		 * feature a value on every run and told it nothing. */
		if (v->sub || (o && o->ncases > 1)) {
			struct spec_place *pl =
				&spec_places[(leaf * 0x9E3779B1u + i) & (SPEC_PLACES - 1)];
			if (pl->slot && pl->leaf == d->leaf && pl->owner == o && pl->kase == v->kase &&
			    pl->sub == v->sub) {
				spec_set(l, pl->slot - 1);
			} else {
				uint64_t kase = o && v->kase >= o->cases && v->kase < o->cases + o->ncases
				                ? (uint64_t)(v->kase - o->cases) + 1 : 0;
				size_t slot = spec_take(2 + (leaf << 8), bitset_id(v->owner) << 24 ^
				                                            kase << 48 ^ bitset_id(v->sub));
				*pl = (struct spec_place){d->leaf, o, v->sub, v->kase, (uint32_t)slot + 1};
				spec_set(l, slot);
			}
		}
		if (!v->field)
			continue;
		/* how the printer sees the value: its type, its sign and its
		 * length in bits (digits, hex widths, negative offsets), over
		 * all leaves alike */
		uint64_t u = v->value < 0 ? ~(uint64_t)v->value : (uint64_t)v->value;
		unsigned len = u ? 64 - (unsigned)__builtin_clzll(u) : 0;
		unsigned type = v->field->type <= SPEC_TYPE_UNKNOWN ? v->field->type : SPEC_TYPE_UNKNOWN;
		uint32_t *slot = &spec_shape_slot[type][v->value < 0][len];
		if (!*slot)
			*slot = (uint32_t)spec_take(4, (uint64_t)type << 8 ^ (uint64_t)(v->value < 0) << 7 ^ len) + 1;
		spec_set(l, *slot - 1);
	}
	for (size_t i = 0; i < d->nissues; i++) {
		const codec_issue *is = &d->issues[i];
		spec_mark(l, 3 + (leaf << 8), (uint64_t)is->kind << 40 ^ bitset_id(is->leaf) << 20 ^
		                                     (is->field ? (uint64_t)(is->field->high + 1) << 8 ^
		                                                      is->field->low : 0));
	}
	return l->n;
}

void fuzz_spec_coverage(const codec_decoded *d)
{
	fuzz_spec_coverage_list(d, NULL, 0);
}

void fuzz_spec_coverage_outcome(fuzz_decoding *d, uint32_t outcome)
{
	size_t slot = spec_take(5 + (bitset_id(d->d.leaf) << 8), outcome);
	spec_counters[slot] = 1;
	size_t listed = d->nmarks < FUZZ_MAX_MARKS ? d->nmarks : FUZZ_MAX_MARKS;
	for (size_t i = 0; i < listed; i++)
		if (d->marks[i] == slot)
			return;
	if (d->nmarks < FUZZ_MAX_MARKS)
		d->marks[d->nmarks] = (uint16_t)slot;
	d->nmarks++; /* past FUZZ_MAX_MARKS: the list is cut, as it says */
}

void fuzz_spec_coverage_mark(uint32_t outcome)
{
	spec_counters[spec_take(6, outcome)] = 1;
}

void fuzz_spec_coverage_replay(const uint16_t *marks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		spec_counters[marks[i]] = 1;
}
#else
static void spec_coverage_start(void)
{
}

uint8_t *fuzz_spec_counters(void)
{
	return NULL;
}

void fuzz_spec_coverage_reset(void)
{
}

void fuzz_spec_coverage(const codec_decoded *d)
{
	(void)d;
}

void fuzz_spec_coverage_outcome(fuzz_decoding *d, uint32_t outcome)
{
	(void)d;
	(void)outcome;
}

void fuzz_spec_coverage_mark(uint32_t outcome)
{
	(void)outcome;
}

size_t fuzz_spec_coverage_list(const codec_decoded *d, uint16_t *marks, size_t cap)
{
	(void)d;
	(void)marks;
	(void)cap;
	return 0;
}

void fuzz_spec_coverage_replay(const uint16_t *marks, size_t n)
{
	(void)marks;
	(void)n;
}
#endif

/* The memory of instructions checked (fuzz.h).  Slots are found by a
 * hash of the instruction and hold its words in full (a hit is the very
 * instruction, never one with the same hash) and its list of counters.
 * Most instructions a run recalls were read a few runs before: libFuzzer
 * mutates an input several times over, running each step, and a step
 * changes one instruction or two (a2xx: 2^12 slots recalled 52% of the
 * instructions, 2^14 54%, 2^17 57.5%). */
typedef struct memo_slot {
	uint64_t w[FUZZ_MEMO_WORDS];
	uint32_t gen;
	uint16_t view; /* the view + 1; 0: empty */
	uint16_t nmarks;
	uint16_t marks[FUZZ_MAX_MARKS];
} memo_slot;

struct fuzz_memo {
	unsigned char *slots; /* nslots of stride bytes: a memo_slot, then the payload */
	size_t nslots, stride, payload;
	fuzz_memo_stats st;
};

fuzz_memo *fuzz_memo_new_with(unsigned log2_slots, size_t payload)
{
	if (!log2_slots || log2_slots > 24 || payload > 4096)
		return NULL;
	fuzz_memo *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->nslots = (size_t)1 << log2_slots;
	m->payload = payload;
	m->stride = sizeof(memo_slot) + (payload + 7) / 8 * 8;
	/* in huge pages where the kernel has them (spec_block_alloc): each
	 * instruction read probes a slot at random, and in 4 KiB pages most
	 * probes of a 2^16-slot memory missed the TLB */
	bool zeroed;
	m->slots = spec_block_alloc(m->nslots * m->stride, &zeroed);
	if (m->slots && !zeroed)
		memset(m->slots, 0, m->nslots * m->stride);
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

fuzz_memo *fuzz_memo_new(unsigned log2_slots)
{
	return fuzz_memo_new_with(log2_slots, 0);
}

void fuzz_memo_free(fuzz_memo *m)
{
	if (m)
		spec_block_free(m->slots, m->nslots * m->stride);
	free(m);
}

static uint64_t memo_mix(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xD6E8FEB86659FD93ull;
	h ^= h >> 32;
	return h;
}

static memo_slot *memo_find(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw,
                            uint32_t gen)
{
	uint64_t h = memo_mix((uint64_t)gen << 32 ^ view);
	for (unsigned k = 0; k < nw; k++)
		h = memo_mix(h ^ w[k]);
	return (memo_slot *)(m->slots + (h >> 40 & (m->nslots - 1)) * m->stride);
}

const void *fuzz_memo_recall_payload(fuzz_memo *m, uint32_t view, const uint64_t *w,
                                     unsigned nw, uint32_t gen)
{
	m->st.asked++;
	if (nw > FUZZ_MEMO_WORDS || view >= UINT16_MAX)
		return NULL;
	const memo_slot *s = memo_find(m, view, w, nw, gen);
	if (s->view != view + 1 || s->gen != gen)
		return NULL;
	for (unsigned k = 0; k < FUZZ_MEMO_WORDS; k++)
		if (s->w[k] != (k < nw ? w[k] : 0))
			return NULL;
	fuzz_spec_coverage_replay(s->marks, s->nmarks);
	m->st.recalled++;
	return s + 1;
}

bool fuzz_memo_recall(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw,
                      uint32_t gen)
{
	return fuzz_memo_recall_payload(m, view, w, nw, gen) != NULL;
}

bool fuzz_memo_keep_payload(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw,
                            uint32_t gen, const fuzz_decoding *d, const void *payload)
{
	if (nw > FUZZ_MEMO_WORDS || view >= UINT16_MAX || d->nmarks > FUZZ_MAX_MARKS)
		return false;
	memo_slot *s = memo_find(m, view, w, nw, gen);
	s->gen = gen;
	s->view = (uint16_t)(view + 1);
	s->nmarks = (uint16_t)d->nmarks;
	for (unsigned k = 0; k < FUZZ_MEMO_WORDS; k++)
		s->w[k] = k < nw ? w[k] : 0;
	memcpy(s->marks, d->marks, d->nmarks * sizeof *d->marks);
	if (m->payload)
		memcpy(s + 1, payload, m->payload);
	m->st.kept++;
	return true;
}

bool fuzz_memo_keep(fuzz_memo *m, uint32_t view, const uint64_t *w, unsigned nw, uint32_t gen,
                    const fuzz_decoding *d)
{
	return m->payload ? false : fuzz_memo_keep_payload(m, view, w, nw, gen, d, NULL);
}

/* What fuzz_part_read keeps of a part beside its counters. */
typedef struct part_kept {
	const spec_bitset *leaf;
	bool meaning;
	uint64_t masks[3][FUZZ_MEMO_WORDS];
} part_kept;

fuzz_memo *fuzz_part_memo_new(unsigned log2_slots)
{
	return fuzz_memo_new_with(log2_slots, sizeof(part_kept));
}

/* What fuzz_part_read answers of decoding d through view. */
static void part_of(const fuzz_spec *view, const codec_decoded *d, fuzz_part *out)
{
	out->leaf = d->leaf;
	out->meaning = fuzz_has_meaning(d);
	if (out->meaning)
		fuzz_decoding_masks(view, d, out->dontcare, out->asserts, out->accounted);
	else
		for (unsigned i = 0; i < view->nwords; i++)
			out->dontcare[i] = out->asserts[i] = out->accounted[i] = 0;
}

/* Keeps w's part with the counters listed in scratch. */
static void part_keep(fuzz_memo *m, const fuzz_spec *view, uint32_t viewid, const uint64_t *w,
                      const fuzz_part *pt, const fuzz_decoding *scratch)
{
	if (!m || m->payload != sizeof(part_kept) || view->nwords > FUZZ_MEMO_WORDS)
		return;
	part_kept keep = {pt->leaf, pt->meaning, {{0}}};
	memcpy(keep.masks[0], pt->dontcare, sizeof keep.masks[0]);
	memcpy(keep.masks[1], pt->asserts, sizeof keep.masks[1]);
	memcpy(keep.masks[2], pt->accounted, sizeof keep.masks[2]);
	fuzz_memo_keep_payload(m, viewid, w, view->nwords, 0, scratch, &keep);
}

void fuzz_part_read(fuzz_memo *m, const fuzz_spec *view, uint32_t viewid, const uint64_t *w,
                    fuzz_known_decoding *get_known, const void *ctx, fuzz_decoding *scratch,
                    fuzz_part *out)
{
	const part_kept *k = m && m->payload == sizeof(part_kept)
	                     ? fuzz_memo_recall_payload(m, viewid, w, view->nwords, 0) : NULL;
	/* (the masks are view->nwords words: out is not cleared whole, which
	 * took 1.5 KiB a part) */
	if (k) {
		out->leaf = k->leaf;
		out->meaning = k->meaning;
		memcpy(out->dontcare, k->masks[0], sizeof k->masks[0]);
		memcpy(out->asserts, k->masks[1], sizeof k->masks[1]);
		memcpy(out->accounted, k->masks[2], sizeof k->masks[2]);
		return;
	}
	const codec_decoded *known = get_known ? get_known(ctx) : NULL;
	if (known && known->nvalues < FUZZ_MAX_VALUES && known->nissues <= FUZZ_MAX_ISSUES &&
	    known->gen == 0 && known->root == view->root) {
		/* a decoding with room for more values lists them all, as one
		 * into scratch would: its marks are scratch's */
		scratch->nmarks = fuzz_spec_coverage_list(known, scratch->marks, FUZZ_MAX_MARKS);
		part_of(view, known, out);
	} else {
		fuzz_decode(view, w, 0, scratch);
		part_of(view, &scratch->d, out);
	}
	part_keep(m, view, viewid, w, out, scratch);
}

/* (Loops, not memcmp: libFuzzer hooks memcmp wherever it is called.) */
bool fuzz_words_equal(const uint32_t *a, const uint32_t *b, size_t n)
{
	uint32_t d = 0;
	for (size_t k = 0; k < n; k++)
		d |= a[k] ^ b[k];
	return !d;
}

bool fuzz_words_meet(const uint32_t *a, const uint32_t *m, size_t n)
{
	uint32_t d = 0;
	for (size_t k = 0; k < n; k++)
		d |= a[k] & m[k];
	return d != 0;
}

size_t fuzz_words_first_off(const uint32_t *a, const uint32_t *b, const uint32_t *x, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (((a[k] ^ b[k]) & ~x[k]) | (b[k] & x[k]))
			return k;
	return n;
}

void fuzz_or_masks(uint32_t *const dst[3], size_t at, const uint64_t *const src[3], unsigned n)
{
	for (unsigned i = 0; i < n; i += 32) {
		uint32_t keep = n - i < 32 ? (1u << (n - i)) - 1 : ~0u;
		size_t b = at + i;
		unsigned sh = (unsigned)(b % 32);
		for (unsigned j = 0; j < 3; j++) {
			uint32_t v = (uint32_t)(src[j][i / 64] >> (i % 64)) & keep;
			dst[j][b / 32] |= v << sh;
			uint32_t high = sh ? v >> (32 - sh) : 0;
			if (high)
				dst[j][b / 32 + 1] |= high;
		}
	}
}

fuzz_memo_stats fuzz_memo_get_stats(const fuzz_memo *m)
{
	return m->st;
}

void fuzz_record_input(const uint8_t *data, size_t size)
{
	/* the process's one recording, as the engine's one run (the
	 * libFuzzer interface has no context to hold it) */
	static enum { RECORD_UNKNOWN, RECORD_OFF, RECORD_ON } state;
	static FILE *out;
	if (state == RECORD_OFF)
		return;
	if (state == RECORD_UNKNOWN) {
		const char *path = getenv("FUZZ_RECORD");
		state = RECORD_OFF;
		if (!path || !*path)
			return;
		out = fopen(path, "wb");
		if (!out) {
			fprintf(stderr, "fuzz: FUZZ_RECORD=%s: cannot write it: not recording\n", path);
			return;
		}
		state = RECORD_ON;
	}
	uint8_t len[4] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16),
	                  (uint8_t)(size >> 24)};
	if (size > UINT32_MAX || fwrite(len, 1, 4, out) != 4 ||
	    (size && fwrite(data, 1, size, out) != size) || fflush(out) == EOF) {
		fprintf(stderr, "fuzz: FUZZ_RECORD: a write failed: recording stops\n");
		fclose(out);
		state = RECORD_OFF;
	}
}

/* The three kinds of bits of one bitset with its ancestors, in its own
 * numbering, worked out once per spec (fuzz_spec_load) rather than bit
 * by bit for every decoding: x bits; the bits of every <assert> of
 * every case of the chain; and the accounted bits (x, pattern, assert;
 * the fields come from the values).  The rows of one bitset lie side by
 * side in fuzz_spec.bits, nw words each, starting at word off. */
typedef struct fuzz_bitset_bits {
	uint32_t off, nw;
} fuzz_bitset_bits;

enum { BITS_DONTCARE, BITS_ASSERT, BITS_ACCOUNTED, BITS_KINDS };

/* Bits low..high (inclusive) of mask, words past nw dropped. */
static void set_bits(uint64_t *mask, unsigned nw, unsigned low, unsigned high)
{
	for (unsigned k = low / 64; k <= high / 64 && k < nw; k++) {
		unsigned lo = k == low / 64 ? low % 64 : 0, hi = k == high / 64 ? high % 64 : 63;
		uint64_t m = hi == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (hi + 1)) - 1;
		mask[k] |= m & ~(((uint64_t)1 << lo) - 1);
	}
}

/* The kinds of bits of b into row[BITS_KINDS][nw] (zeroed by the caller). */
static void chain_rows(const spec_bitset *b, unsigned nw, uint64_t *row)
{
	uint64_t *dc = row, *as = row + nw, *acc = row + 2 * nw;
	for (unsigned k = 0; k < nw; k++) {
		dc[k] = k < b->dontcare.nwords ? b->dontcare.w[k] : 0;
		acc[k] = dc[k] | (k < b->mask.nwords ? b->mask.w[k] : 0);
	}
	for (const spec_bitset *p = b; p; p = p->parent)
		for (size_t c = 0; c < p->ncases; c++)
			for (size_t f = 0; f < p->cases[c].nfields; f++) {
				const spec_field *a = &p->cases[c].fields[f];
				if (a->kind == SPEC_ASSERT)
					set_bits(as, nw, a->low, a->high);
			}
	for (unsigned k = 0; k < nw; k++)
		acc[k] |= as[k];
}

/* Words a bitset's rows need: its size's, and an assert's past it. */
static unsigned chain_words(const spec_bitset *b)
{
	unsigned top = b->size ? b->size - 1 : 0;
	for (const spec_bitset *p = b; p; p = p->parent)
		for (size_t c = 0; c < p->ncases; c++)
			for (size_t f = 0; f < p->cases[c].nfields; f++)
				if (p->cases[c].fields[f].kind == SPEC_ASSERT &&
				    p->cases[c].fields[f].high > top)
					top = p->cases[c].fields[f].high;
	return top / 64 + 1;
}

static bool build_bits(fuzz_spec *s)
{
	const spec_model *m = s->m;
	fuzz_bitset_bits *ix = calloc(m->nbitsets ? m->nbitsets : 1, sizeof *ix);
	size_t total = 0;
	if (!ix)
		return false;
	for (size_t i = 0; i < m->nbitsets; i++) {
		ix[i].off = (uint32_t)total;
		ix[i].nw = chain_words(m->bitsets[i]);
		total += (size_t)BITS_KINDS * ix[i].nw;
	}
	uint64_t *bits = calloc(total ? total : 1, sizeof *bits);
	if (!bits) {
		free(ix);
		return false;
	}
	for (size_t i = 0; i < m->nbitsets; i++)
		chain_rows(m->bitsets[i], ix[i].nw, bits + ix[i].off);
	s->bits_index = ix;
	s->bits = bits;
	return true;
}

/* ORs the low width bits of src (nw words) into mask (s->nwords words)
 * at bit at: a word at a time. */
static void or_at(const fuzz_spec *s, uint64_t *mask, const uint64_t *src, unsigned nw,
                  unsigned at, unsigned width)
{
	unsigned words = (width + 63) / 64 < nw ? (width + 63) / 64 : nw;
	for (unsigned k = 0; k < words; k++) {
		uint64_t v = src[k];
		if (k == width / 64)
			v &= ((uint64_t)1 << (width % 64)) - 1;
		unsigned to = at / 64 + k, sh = at % 64;
		if (to < s->nwords)
			mask[to] |= v << sh;
		if (sh && to + 1 < s->nwords)
			mask[to + 1] |= v >> (64 - sh);
	}
}

/* The three kinds of bits of bitset b (a leaf, with its ancestors)
 * decoded at bit at of the instruction, width bits wide. */
static void chain_bits(const fuzz_spec *s, const spec_bitset *b, unsigned at, unsigned width,
                       uint64_t *const *mask)
{
	const fuzz_bitset_bits *ix = &s->bits_index[b->index];
	const uint64_t *row = s->bits + ix->off;
	for (int kind = 0; kind < BITS_KINDS; kind++)
		if (mask[kind])
			or_at(s, mask[kind], row + (size_t)kind * ix->nw, ix->nw, at, width);
}

void fuzz_decoding_masks(const fuzz_spec *s, const codec_decoded *d, uint64_t *dontcare,
                         uint64_t *asserts, uint64_t *accounted)
{
	uint64_t *const mask[BITS_KINDS] = {dontcare, asserts, accounted};
	for (int kind = 0; kind < BITS_KINDS; kind++)
		if (mask[kind])
			memset(mask[kind], 0, s->nwords * sizeof *mask[kind]);
	if (!d->leaf)
		return;
	chain_bits(s, d->leaf, 0, d->leaf->size, mask);
	/* base[k]: where the bitset decoded at depth k starts in the word */
	unsigned base[64] = {0};
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		if (!v->field || v->depth >= 63 || v->field->kind != SPEC_FIELD)
			continue;
		unsigned at = base[v->depth] + v->field->low;
		unsigned width = v->field->high - v->field->low + 1;
		if (v->sub) {
			base[v->depth + 1] = at;
			chain_bits(s, v->sub, at, width, mask);
		} else if (accounted) {
			set_bits(accounted, s->nwords, at, at + width - 1);
		}
	}
}

bool fuzz_same_meaning(const codec_decoded *a, const codec_decoded *b, char *why, size_t len)
{
	if (a->leaf != b->leaf) {
		snprintf(why, len, "leaf %s vs %s", a->leaf ? a->leaf->name : "(none)",
		         b->leaf ? b->leaf->name : "(none)");
		return false;
	}
	size_t n = a->nvalues < b->nvalues ? a->nvalues : b->nvalues;
	for (size_t i = 0; i < n; i++) {
		const codec_value *x = &a->values[i], *y = &b->values[i];
		/* a bitset-typed field's bits may hold its sub leaf's x bits:
		 * its meaning is the sub leaf and the values that follow */
		if (x->field != y->field || x->owner != y->owner || x->depth != y->depth ||
		    x->sub != y->sub || (!x->sub && x->raw != y->raw)) {
			snprintf(why, len, "value %zu: %s = 0x%llx vs %s = 0x%llx", i,
			         x->field ? x->field->name : "?", (unsigned long long)x->raw,
			         y->field ? y->field->name : "?", (unsigned long long)y->raw);
			return false;
		}
	}
	if (a->nvalues != b->nvalues) {
		snprintf(why, len, "%zu values vs %zu", a->nvalues, b->nvalues);
		return false;
	}
	return true;
}

static bool sub_value_read(const fuzz_spec *s, const spec_field *f)
{
	return s->nread_subs &&
	       bsearch(&f, s->read_subs, s->nread_subs, sizeof *s->read_subs, cmp_field_ptr);
}

bool fuzz_same_encoder_input(const fuzz_spec *s, const codec_decoded *a,
                             const codec_decoded *b)
{
	if (a->leaf != b->leaf || a->gen != b->gen || a->nvalues != b->nvalues)
		return false;
	for (size_t i = 0; i < a->nvalues; i++) {
		const codec_value *x = &a->values[i], *y = &b->values[i];
		if (x->field != y->field || x->owner != y->owner || x->kase != y->kase ||
		    x->depth != y->depth || x->sub != y->sub)
			return false;
		/* a sub leaf stands for its field's bits, unless a name reads them */
		if (x->sub ? x->value != y->value && sub_value_read(s, x->field)
		           : x->value != y->value || x->raw != y->raw)
			return false;
	}
	return true;
}

unsigned fuzz_change_decoding(const codec_decoded *d, codec_decoded *x, codec_value *vals,
                              uint64_t r)
{
	*x = *d;
	memcpy(vals, d->values, d->nvalues * sizeof *vals);
	x->values = vals;
	x->cap_values = d->nvalues + 1;
	unsigned how = (unsigned)(r % 7);
	size_t i = (size_t)((r >> 3) % d->nvalues);
	codec_value *v = &vals[i];
	switch (how) {
	case 0: /* another value */
		v->value = (int64_t)(r >> (r >> 20) % 64);
		v->raw = (uint64_t)v->value;
		break;
	case 1: /* one past its field's range */
		if (v->field && v->field->high >= v->field->low && v->field->high - v->field->low < 62)
			v->value = (int64_t)1 << (v->field->high - v->field->low + 1);
		break;
	case 2: { /* another value's field, owner and case */
		const codec_value *o = &d->values[(r >> 20) % d->nvalues];
		v->field = o->field;
		v->owner = o->owner;
		v->kase = o->kase;
		break;
	}
	case 3: /* a value left out */
		memmove(v, v + 1, (d->nvalues - i - 1) * sizeof *v);
		x->nvalues--;
		break;
	case 4: /* a value twice */
		memmove(v + 1, v, (d->nvalues - i) * sizeof *v);
		x->nvalues++;
		break;
	case 5: /* its case unknown */
		v->kase = NULL;
		break;
	default: /* one level deeper */
		v->depth++;
		break;
	}
	return how;
}

bool fuzz_encoders_differ(const fuzz_spec *s, const codec_decoded *d, char *why, size_t len)
{
	/* one word past the widest leaf, to see that nothing is written there */
	uint64_t w1[SPEC_MAX_BITS / 64 + 1], w2[SPEC_MAX_BITS / 64 + 1];
	char e1[256], e2[256];
	unsigned nw = d->leaf ? (d->leaf->size + 63) / 64 : 0;
	if (nw > SPEC_MAX_BITS / 64)
		nw = SPEC_MAX_BITS / 64;
	memset(w1, 0xa5, (nw + 1) * sizeof *w1);
	memset(w2, 0xa5, (nw + 1) * sizeof *w2);
	bool r1 = codec_encode(s->c, d, w1, e1, sizeof e1);
	bool r2 = codec_encoder_encode(s->enc, d, w2, e2, sizeof e2);
	const uint64_t mark = 0xa5a5a5a5a5a5a5a5u;
	if (r1 != r2 || strcmp(e1, e2))
		snprintf(why, len, "codec_encode %s (\"%s\"), the encoder %s (\"%s\")",
		         r1 ? "encodes" : "refuses", e1, r2 ? "encodes" : "refuses", e2);
	else if (r1 && memcmp(w1, w2, nw * sizeof *w1))
		snprintf(why, len, "the two encoders give other words");
	else if (w1[nw] != mark || w2[nw] != mark)
		snprintf(why, len, "an encoder wrote past the leaf's %u words", nw);
	else
		return false;
	return true;
}

/* ---------------------------------------------------------------- report */

void fuzz_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(buf, len);
	if (at + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

void fuzz_print_hex(FILE *f, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++)
		fprintf(f, "%s%02x", i % 16 == 0 ? (i ? "\n    " : "    ") : " ", data[i]);
	fprintf(f, "%s\n", size ? "" : "    (empty)");
}

void fuzz_print_repro(FILE *f, const char *target, const uint8_t *data, size_t size)
{
	fprintf(f, "printf '");
	for (size_t i = 0; i < size; i++)
		fprintf(f, "\\x%02x", data[i]);
	fprintf(f, "' | %s/repro_%s\n", FUZZ_REPRO_DIR, target);
}

/* One side of the report as lines, in three sections (head: label,
 * words, text, leaf; values; issues) so that the two sides line up. */
typedef struct lines {
	char text[4][64][128];
	size_t n[4];
} lines;

static void line_add(lines *l, int sec, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line_add(lines *l, int sec, const char *fmt, ...)
{
	if (l->n[sec] >= sizeof l->text[0] / sizeof l->text[0][0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->text[sec][l->n[sec]++], sizeof l->text[0][0], fmt, ap);
	va_end(ap);
}

/* Appends the lines of text (separated by newlines) to section sec. */
static void text_lines(lines *l, int sec, const char *text)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");
		line_add(l, sec, "%.*s", (int)n, text);
		text += n + (text[n] == '\n');
	}
}

static void side_lines(const fuzz_spec *s, const fuzz_side *side, const char *extra, lines *l)
{
	l->n[0] = l->n[1] = l->n[2] = l->n[3] = 0;
	text_lines(l, 3, extra);
	if (!side)
		return;
	line_add(l, 0, "[%s]", side->label);
	if (side->w) {
		char hex[FUZZ_MAX_WORDS * 16 + 3] = "0x";
		for (unsigned k = s->nwords; k-- > 0;) {
			size_t at = strlen(hex);
			snprintf(hex + at, sizeof hex - at,
			         k == s->nwords - 1 && s->nbytes % 8 ? "%08llx" : "%016llx",
			         (unsigned long long)side->w[k]);
		}
		line_add(l, 0, "%s", hex);
	} else {
		line_add(l, 0, "%s", "");
	}
	line_add(l, 0, "\"%s\"", side->text ? side->text : "");
	const codec_decoded *d = side->d;
	if (!d)
		return;
	line_add(l, 0, "leaf %s", d->leaf ? d->leaf->name : "(none)");
	for (size_t i = 0; i < d->nvalues; i++) {
		const codec_value *v = &d->values[i];
		line_add(l, 1, "%*s%s = 0x%llx%s%s", 2 * (int)v->depth, "",
		         v->field ? v->field->name : "?", (unsigned long long)v->raw,
		         v->sub ? " -> " : "", v->sub ? v->sub->name : "");
	}
	for (size_t i = 0; i < d->nissues; i++)
		line_add(l, 2, "! %s", d->issues[i].text);
}

/* FUZZ_KEEP_GOING: findings are counted, not reported (benchmarks). */
static unsigned long findings_kept;

static void print_kept(void)
{
	fprintf(stderr, "fuzz: %lu findings not reported (FUZZ_KEEP_GOING)\n", findings_kept);
}

void fuzz_finding(const char *target, const fuzz_spec *s, const uint8_t *data, size_t size,
                  uint32_t gen, const char *what, const fuzz_side *left, const fuzz_side *right)
{
	fuzz_finding_lines(target, s, data, size, gen, what, left, right, NULL, NULL);
}

void fuzz_finding_lines(const char *target, const fuzz_spec *s, const uint8_t *data,
                        size_t size, uint32_t gen, const char *what, const fuzz_side *left,
                        const fuzz_side *right, const char *left_lines,
                        const char *right_lines)
{
	static lines a, b; /* large; the process ends here */
	const char *keep = getenv("FUZZ_KEEP_GOING");
	if (keep && *keep && *keep != '0') {
		if (!findings_kept++)
			atexit(print_kept);
		return;
	}
	FILE *f = stderr;
	fprintf(f, "\n==== %s: FINDING: %s\n", target, what);
	if (s)
		fprintf(f, "spec: %s, generation %u\n", s->path, gen);
	fprintf(f, "input (%zu bytes):\n", size);
	fuzz_print_hex(f, data, size);
	if (!s && left_lines && !right_lines) {
		/* one text, no sides (a generated spec): as it is, indented */
		for (const char *p = left_lines; *p;) {
			const char *nl = strchr(p, '\n');
			int n = nl ? (int)(nl - p) : (int)strlen(p);
			fprintf(f, "  %.*s\n", n, p);
			p += n + (nl != NULL);
		}
	} else if (s || left_lines || right_lines) {
		/* without a spec, only the lines (a whole program's words) */
		side_lines(s, s ? left : NULL, left_lines, &a);
		side_lines(s, s ? right : NULL, right_lines, &b);
		for (int sec = 0; sec < 4; sec++) {
			size_t n = a.n[sec] > b.n[sec] ? a.n[sec] : b.n[sec];
			for (size_t i = 0; i < n; i++) {
				const char *x = i < a.n[sec] ? a.text[sec][i] : "";
				const char *y = i < b.n[sec] ? b.text[sec][i] : "";
				fprintf(f, "  %-44s %s %s\n", x, strcmp(x, y) ? "|" : " ", y);
			}
		}
	}
	fprintf(f, "reproduce: ");
	fuzz_print_repro(f, target, data, size);
	if (s && left && left->w) {
		/* a view of another root (fuzz_spec_view) names it */
		bool other = s->root != codec_default_root(s->c);
		unsigned n = (s->nbytes + 3) / 4;
		fprintf(f, "inspect:   %s decode %s%s%s --gen=%u --hex ", ISACHECK_BINARY, s->path,
		        other ? " --root=" : "", other ? s->root->bitset->name : "", gen);
		for (unsigned k = 0; k < n; k++)
			fprintf(f, "%08llx%s", (unsigned long long)(left->w[k / 2] >> (32 * (k % 2))) &
			        0xffffffffull, k + 1 < n ? " " : "\n");
	}
	fflush(f);
	abort();
}

void fuzz_finding_spec(const char *target, const uint8_t *data, size_t size, char *why,
                       const char *xml)
{
	char *nl = strchr(why, '\n');
	if (nl)
		*nl = 0;
	fuzz_finding_lines(target, NULL, data, size, 0, why, NULL, NULL, xml, NULL);
}

bool fuzz_has_meaning(const codec_decoded *d)
{
	return codec_decoding_has_meaning(d) && d->nvalues < FUZZ_MAX_VALUES &&
	       d->nissues < FUZZ_MAX_ISSUES;
}
