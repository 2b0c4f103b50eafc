/*
 * tree_cache.c - the parsed element tree of a file, saved so that the next
 * load of the same bytes skips the XML parser (and libxml2 itself, which
 * xml_lazy.c then never opens): the start-up cost of a short command
 * (docs/benchmarks.md, start-up).
 *
 * What is cached is xml_parse's output for one file, keyed by the file's
 * bytes: the loader, the resolver and everything after run as on a cold
 * load, so a warm model is the cold model by construction (same code from
 * the same tree), and imports, confinement and cycles are checked anew.
 * An entry is keyed by a 128-bit hash of the tree format, isacheck's
 * version and the bytes, and holds that key and the byte count again.
 *
 * An entry is never trusted: the reader checks every size, offset, link
 * and limit (a truncated, corrupt, foreign-endian or foreign-version file
 * is a miss, and the file is parsed and the entry rewritten), and
 * fuzz/cache.c feeds it arbitrary bytes.  The hash is not cryptographic:
 * the cache directory must be writable by its user only (it is created
 * 0700), as for any build cache.
 *
 * Layout (native byte order, told apart by the marker; u32 unless said):
 *   header   magic "ISACHKTR"(8) format marker key0(u64) key1(u64)
 *            source_len(u64) nelems nattrs strbytes 0 checksum(u64)
 *   elems    nelems x { name parent+1 nattrs line col text text_line
 *                       text_col has_text ws_line ws_col }  (document order)
 *   attrs    nattrs x { name value line col }  (element by element)
 *   strings  strbytes bytes, NUL-terminated strings, last byte NUL
 *            (an element or attribute name once, however often used)
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bump when xml.c changes what it puts in a tree (or this layout does):
 * older entries then miss.  2: names shared (put_name). */
#define TREE_FORMAT 2u
#define TREE_MARKER 0x01020304u
#define TREE_HEADER 64u
/* The most elements an entry may hold: the largest budget a load can have
 * (spec_limits_for at SPEC_MAX_SPEC_BYTES); the load checks its own. */
#define TREE_MAX_ELEMENTS (SPEC_MAX_ELEMENTS * (SPEC_MAX_SPEC_BYTES / SPEC_MAX_TOTAL_BYTES))
#define ELEM_U32 11u
#define ATTR_U32 4u

/* ------------------------------------------------------------- hashing */

typedef struct tree_key {
	uint64_t k0, k1;
} tree_key;

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ull;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ull;
	return x ^ (x >> 32);
}

/* Two independent 64-bit lanes over the bytes, eight at a time. */
static void hash_bytes(tree_key *h, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t a = h->k0 ^ len, b = h->k1 ^ (len * 0x9e3779b97f4a7c15ull);
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		a = (a ^ mix64(w)) * 0x9e3779b97f4a7c15ull;
		b = ((b + w) ^ (b >> 29)) * 0xbf58476d1ce4e5b9ull;
	}
	uint64_t t = 0;
	memcpy(&t, p, len);
	h->k0 = mix64(a ^ mix64(t + 1));
	h->k1 = mix64(b + mix64(t ^ 0x94d049bb133111ebull));
}

static tree_key key_of(const char *data, size_t len)
{
	static const char salt[] = "isacheck tree " ISACHECK_VERSION;
	tree_key k = {TREE_FORMAT, 0x6a09e667f3bcc908ull};
	hash_bytes(&k, salt, sizeof salt);
	hash_bytes(&k, data, len);
	return k;
}

static uint64_t checksum(const unsigned char *p, size_t n)
{
	tree_key k = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull};
	hash_bytes(&k, p, n);
	return k.k0 ^ k.k1;
}

/* ------------------------------------------------------------- reading */

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* A string of the table at off, or NULL when off is outside it (the
 * table ends with a NUL, so every offset inside starts a string). */
static const char *table_string(const unsigned char *strs, uint32_t strbytes, uint32_t off)
{
	return off < strbytes ? (const char *)strs + off : NULL;
}

/* Decodes an entry into a tree in a, whose strings point into buf (which
 * must live as long as the tree: it is in a too); NULL when it is not a
 * valid entry for these bytes (key, source length and every structural
 * rule). */
static xml_elem *tree_decode(arena *a, const char *file, const unsigned char *buf, size_t n,
                             const tree_key *key, uint64_t source_len)
{
	if (n < TREE_HEADER || memcmp(buf, "ISACHKTR", 8) || get32(buf + 8) != TREE_FORMAT ||
	    get32(buf + 12) != TREE_MARKER)
		return NULL;
	if (key && (get64(buf + 16) != key->k0 || get64(buf + 24) != key->k1 ||
	            get64(buf + 32) != source_len))
		return NULL;
	uint32_t nelems = get32(buf + 40), nattrs = get32(buf + 44), strbytes = get32(buf + 48);
	if (get32(buf + 52) != 0 || nelems == 0 || nelems > TREE_MAX_ELEMENTS || strbytes == 0 ||
	    (uint64_t)nattrs > (uint64_t)nelems * SPEC_MAX_ATTRIBUTES)
		return NULL;
	uint64_t need = TREE_HEADER + (uint64_t)nelems * ELEM_U32 * 4 +
	                (uint64_t)nattrs * ATTR_U32 * 4 + strbytes;
	if (need != n || get64(buf + 56) != checksum(buf + TREE_HEADER, n - TREE_HEADER))
		return NULL;
	const unsigned char *ep = buf + TREE_HEADER;
	const unsigned char *ap = ep + (size_t)nelems * ELEM_U32 * 4;
	const unsigned char *strs = ap + (size_t)nattrs * ATTR_U32 * 4;
	if (strs[strbytes - 1] != 0)
		return NULL;

	xml_elem *elems = arena_alloc(a, sizeof *elems * nelems);
	xml_attr *attrs = arena_alloc(a, sizeof *attrs * (nattrs ? nattrs : 1));
	unsigned char *depth = malloc(nelems);
	/* each element's last child so far (xml_elem keeps only the first) */
	xml_elem **last = calloc(nelems, sizeof *last);
	/* the strings stay where they are: buf lives as long as the tree */
	char *copy = (char *)strs;
	bool ok = elems && attrs && depth && last;
	size_t next_attr = 0;
	/* the kinds of the names last seen, by offset (names are shared) */
	struct kind_memo {
		uint32_t off; /* + 1; 0 empty */
		xml_kind kind;
	} kinds[32] = {{0, EL_OTHER}};
	for (uint32_t i = 0; i < nelems && ok; i++) {
		const unsigned char *r = ep + (size_t)i * ELEM_U32 * 4;
		uint32_t f[ELEM_U32];
		for (unsigned j = 0; j < ELEM_U32; j++)
			f[j] = get32(r + 4 * j);
		xml_elem *e = &elems[i];
		const char *name = table_string(strs, strbytes, f[0]);
		const char *text = table_string(strs, strbytes, f[5]);
		/* the first element is the only one without a parent, and a
		 * parent comes before its children */
		bool linked = i == 0 ? f[1] == 0 : f[1] >= 1 && f[1] <= i;
		if (!name || !*name || !text || !linked || f[2] > SPEC_MAX_ATTRIBUTES ||
		    f[2] > nattrs - next_attr || f[8] > 1) {
			ok = false;
			break;
		}
		depth[i] = i ? (unsigned char)(depth[f[1] - 1] + 1) : 1;
		if (depth[i] > SPEC_MAX_DEPTH) {
			ok = false;
			break;
		}
		e->name = copy + f[0];
		unsigned ks = f[0] % (sizeof kinds / sizeof *kinds);
		if (kinds[ks].off != f[0] + 1)
			kinds[ks] = (struct kind_memo){f[0] + 1, xml_kind_of(e->name)};
		e->kind = kinds[ks].kind;
		e->loc = (spec_loc){file, f[3], f[4]};
		e->text = copy + f[5];
		e->text_loc = (spec_loc){file, f[6], f[7]};
		e->has_text = f[8];
		e->text_ws_loc = (spec_loc){file, f[9], f[10]};
		/* every reader stops at nattrs: no entry after them, unlike xml.c's */
		e->attrs = &attrs[next_attr];
		e->nattrs = f[2];
		for (uint32_t j = 0; j < f[2] && ok; j++) {
			const unsigned char *q = ap + (next_attr + j) * ATTR_U32 * 4;
			const char *an = table_string(strs, strbytes, get32(q));
			const char *av = table_string(strs, strbytes, get32(q + 4));
			ok = an && *an && av;
			if (ok)
				attrs[next_attr + j] = (xml_attr){copy + get32(q), copy + get32(q + 4),
				                             {file, get32(q + 8), get32(q + 12)}};
		}
		next_attr += f[2];
		if (i) {
			xml_elem *p = &elems[f[1] - 1];
			e->parent = p;
			if (last[f[1] - 1])
				last[f[1] - 1]->next = e;
			else
				p->first = e;
			last[f[1] - 1] = e;
		}
	}
	free(depth);
	free(last);
	return ok && next_attr == nattrs ? &elems[0] : NULL;
}

bool spec_cache_entry_valid(const void *buf, size_t n)
{
	arena a = {0};
	/* the reader may look at anything in the entry but write nothing */
	bool ok = tree_decode(&a, "cache", buf, n, NULL, 0) != NULL;
	arena_free(&a);
	return ok;
}

bool spec_cache_entry_seal(void *buf, size_t n)
{
	if (n < TREE_HEADER)
		return false;
	uint64_t sum = checksum((unsigned char *)buf + TREE_HEADER, n - TREE_HEADER);
	memcpy((unsigned char *)buf + 56, &sum, 8);
	return true;
}

/* ------------------------------------------------------------- writing */

typedef struct tree_writer {
	unsigned char *buf;
	size_t len, cap;
	bool failed;
} tree_writer;

static void put_bytes(tree_writer *w, const void *p, size_t n)
{
	if (w->failed || n == 0) /* an empty table has no buffer at all */
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n)
			cap *= 2;
		unsigned char *b = realloc(w->buf, cap);
		if (!b) {
			w->failed = true;
			return;
		}
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void put32(tree_writer *w, uint32_t v) { put_bytes(w, &v, 4); }
static void put64(tree_writer *w, uint64_t v) { put_bytes(w, &v, 8); }

/* The elements in document order (a parent before its children) with
 * each one's parent as an index into that order (SIZE_MAX: none). */
typedef struct tree_walk {
	const xml_elem **order;
	size_t *parent;
	size_t n, cap, pcap;
} tree_walk;

static bool walk_tree(tree_walk *t, const xml_elem *root)
{
	size_t path[SPEC_MAX_DEPTH + 2], depth = 0; /* indices of e's ancestors */
	for (const xml_elem *e = root; e;) {
		const xml_elem **v = spec_grow(t->order, t->n + 1, &t->cap, sizeof *v, 256);
		size_t *pv = v ? spec_grow(t->parent, t->n + 1, &t->pcap, sizeof *pv, 256) : NULL;
		if (v)
			t->order = v;
		if (pv)
			t->parent = pv;
		if (!v || !pv)
			return false;
		t->parent[t->n] = depth ? path[depth - 1] : SIZE_MAX;
		t->order[t->n++] = e;
		if (e->first) {
			if (depth == sizeof path / sizeof *path)
				return false; /* deeper than xml.c allows: not a parsed tree */
			path[depth++] = t->n - 1;
			e = e->first;
			continue;
		}
		while (e != root && !e->next) {
			e = e->parent;
			depth--;
		}
		e = e != root ? e->next : NULL;
	}
	return true;
}

/* Texts and values are written as they come (no sharing): the table is
 * about the size of the file. */
static uint32_t put_string(tree_writer *strs, const char *s)
{
	uint32_t off = (uint32_t)strs->len;
	put_bytes(strs, s ? s : "", strlen(s ? s : "") + 1);
	return off;
}

/* Element and attribute names are written once each and shared, as the
 * parser shares them: a reader then gets one address a name, which is
 * what the loader's schema check memoises on (check_schema, load.c).
 * Written one copy per use, a warm ir3 load spent half its instructions
 * there.  An open-addressed table of offsets into the string table. */
typedef struct name_table {
	uint32_t *slot; /* offset + 1; 0 empty */
	size_t n, cap;  /* cap a power of two */
	bool failed;
} name_table;

static uint32_t put_name(tree_writer *strs, name_table *t, const char *s)
{
	if (!s || t->failed)
		return put_string(strs, s);
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		uint32_t *slot = calloc(cap, sizeof *slot);
		if (!slot) {
			t->failed = true; /* names written unshared: right, only slower to read */
			return put_string(strs, s);
		}
		for (size_t i = 0; i < t->cap; i++)
			if (t->slot[i]) {
				size_t j = text_hash((const char *)strs->buf + t->slot[i] - 1) & (cap - 1);
				while (slot[j])
					j = (j + 1) & (cap - 1);
				slot[j] = t->slot[i];
			}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	size_t j = text_hash(s) & (t->cap - 1);
	for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
		if (!strs->failed && !strcmp((const char *)strs->buf + t->slot[j] - 1, s))
			return t->slot[j] - 1;
	uint32_t off = put_string(strs, s);
	if (!strs->failed && off < UINT32_MAX) {
		t->slot[j] = off + 1;
		t->n++;
	}
	return off;
}

static bool tree_encode(const xml_elem *root, const tree_key *key, uint64_t source_len,
                        tree_writer *out)
{
	tree_walk t = {0};
	tree_writer elems = {0}, attrs = {0}, strs = {0};
	name_table names = {0};
	bool ok = walk_tree(&t, root) && t.n <= TREE_MAX_ELEMENTS;
	size_t nattrs = 0;
	for (size_t i = 0; i < t.n && ok; i++) {
		const xml_elem *e = t.order[i];
		size_t parent = t.parent[i];
		put32(&elems, put_name(&strs, &names, e->name));
		put32(&elems, i ? (uint32_t)parent + 1 : 0);
		put32(&elems, e->nattrs);
		put32(&elems, e->loc.line);
		put32(&elems, e->loc.col);
		put32(&elems, put_string(&strs, e->text));
		put32(&elems, e->text_loc.line);
		put32(&elems, e->text_loc.col);
		put32(&elems, e->has_text);
		put32(&elems, e->text_ws_loc.line);
		put32(&elems, e->text_ws_loc.col);
		for (unsigned j = 0; j < e->nattrs; j++) {
			put32(&attrs, put_name(&strs, &names, e->attrs[j].name));
			put32(&attrs, put_string(&strs, e->attrs[j].value));
			put32(&attrs, e->attrs[j].loc.line);
			put32(&attrs, e->attrs[j].loc.col);
		}
		nattrs += e->nattrs;
	}
	ok = ok && !elems.failed && !attrs.failed && !strs.failed && strs.len <= UINT32_MAX;
	if (ok) {
		put_bytes(out, "ISACHKTR", 8);
		put32(out, TREE_FORMAT);
		put32(out, TREE_MARKER);
		put64(out, key->k0);
		put64(out, key->k1);
		put64(out, source_len);
		put32(out, (uint32_t)t.n);
		put32(out, (uint32_t)nattrs);
		put32(out, (uint32_t)strs.len);
		put32(out, 0);
		put64(out, 0); /* the checksum, filled in below */
		put_bytes(out, elems.buf, elems.len);
		put_bytes(out, attrs.buf, attrs.len);
		put_bytes(out, strs.buf, strs.len);
		ok = !out->failed;
		if (ok) {
			uint64_t sum = checksum(out->buf + TREE_HEADER, out->len - TREE_HEADER);
			memcpy(out->buf + 56, &sum, 8);
		}
	}
	free(names.slot);
	free(t.order);
	free(t.parent);
	free(elems.buf);
	free(attrs.buf);
	free(strs.buf);
	return ok;
}

/* ---------------------------------------------------------- the files */

static char *entry_path(const char *dir, const tree_key *k)
{
	return spec_strdup_printf("%s/%016llx%016llx.tree", dir, (unsigned long long)k->k0,
	                          (unsigned long long)k->k1);
}

/* Reads a whole regular file of at most max bytes into a; NULL when it
 * cannot (what was allocated is then the caller's to give back).  A
 * read, not a mapping: on this project's machines (virtual ones) every
 * 4 KiB page mapped costs microseconds, a page of the page cache too,
 * while the model's arena has its pages already (a huge one, past its
 * first block): opening and mapping ir3's ten entries (250 KB) and
 * reading every line of them took about 0.6 ms, reading them into a
 * huge page 0.35 ms (docs/benchmarks.md, start-up).  And the tree
 * never depends on a file that could be truncated under it. */
static unsigned char *read_entry(arena *a, const char *path, size_t max, size_t *len)
{
	/* O_NONBLOCK: a FIFO put in the folder is refused below, not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct stat st;
	unsigned char *p = NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= max) {
		size_t n = (size_t)st.st_size, done = 0;
		p = arena_alloc(a, n);
		while (p && done < n) {
			ssize_t r = read(fd, p + done, n - done);
			if (r > 0)
				done += (size_t)r;
			else if (r == 0 || errno != EINTR)
				p = NULL; /* shorter than it was: not an entry to trust */
		}
		*len = n;
	}
	close(fd);
	return p;
}

xml_elem *xml_cache_load(arena *a, const char *dir, const char *file, const char *data,
                         size_t len, size_t *element_budget)
{
	if (!dir || !*dir)
		return NULL;
	tree_key k = key_of(data, len);
	char *path = entry_path(dir, &k);
	/* a miss gives back all it allocated: the entry, and the tree when
	 * the entry fails its checks */
	arena_mark mark = arena_save(a);
	/* an entry holds the strings of the file once or twice, plus 60
	 * bytes an element at most: anything larger is not one */
	size_t n = 0;
	unsigned char *buf = path ? read_entry(a, path, 16 * (size_t)len + 4096, &n) : NULL;
	free(path);
	xml_elem *root = NULL;
	/* too many elements: a miss, and the parser reports it where it is */
	if (buf && n >= TREE_HEADER && get32(buf + 40) <= *element_budget)
		root = tree_decode(a, file, buf, n, &k, len);
	if (!root) {
		arena_restore(a, mark);
		return NULL;
	}
	*element_budget -= get32(buf + 40);
	return root;
}

/* mkdir -p with mode 0700 for what it creates. */
static bool make_dirs(const char *dir)
{
	char *p = strdup(dir);
	bool ok = p != NULL;
	for (char *s = p ? p + 1 : NULL; ok && s; s = strchr(s + 1, '/')) {
		char c = *s;
		*s = '\0';
		if (*p && mkdir(p, 0700) && errno != EEXIST)
			ok = false;
		*s = c;
		if (!c)
			break;
	}
	if (ok && mkdir(dir, 0700) && errno != EEXIST)
		ok = false;
	free(p);
	return ok;
}

void xml_cache_store(const char *dir, const char *data, size_t len, const xml_elem *root)
{
	if (!dir || !*dir || !root)
		return;
	tree_key k = key_of(data, len);
	tree_writer w = {0};
	char *path = entry_path(dir, &k);
	char *tmp = path ? spec_strdup_printf("%s.XXXXXX", path) : NULL;
	if (tmp && tree_encode(root, &k, len, &w) && make_dirs(dir)) {
		/* written aside and renamed: a reader sees a whole entry or none,
		 * whatever other isacheck processes do at the same time */
		int fd = mkstemp(tmp);
		if (fd >= 0) {
			size_t done = 0;
			while (done < w.len) {
				ssize_t r = write(fd, w.buf + done, w.len - done);
				if (r <= 0)
					break;
				done += (size_t)r;
			}
			bool whole = done == w.len && !close(fd);
			if (!whole || rename(tmp, path))
				unlink(tmp);
		}
	}
	free(w.buf);
	free(tmp);
	free(path);
}
