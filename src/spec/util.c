/* util.c - arena, bit vectors, growable arrays and small text helpers for
 * src/spec. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* LeakSanitizer finds what is still referenced by scanning the heap, not
 * mappings: a model kept to the end (a fuzz target's) would show every
 * malloc'd part that only a huge block points to (its expressions) as
 * leaked.  Such blocks are registered with it as places to scan. */
#if defined(__SANITIZE_ADDRESS__)
#define SPEC_LSAN_ROOTS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPEC_LSAN_ROOTS 1
#endif
#endif
#ifdef SPEC_LSAN_ROOTS
#include <sanitizer/lsan_interface.h>
#endif

struct arena_chunk {
	arena_chunk *next;
	size_t used, cap; /* of data */
	size_t block;     /* the whole block, this header included */
	bool zeroed;      /* data is zero already (fresh from the kernel) */
	_Alignas(16) unsigned char data[];
};

/* The smallest block, and the largest that growth alone asks for. */
#define BLOCK_FIRST ((size_t)64 << 10)
#define BLOCK_MAX   ((size_t)8 << 20)

/* What a block of size bytes maps: whole huge pages (0: too large). */
static size_t block_mapped(size_t size)
{
	if (size > SIZE_MAX - 2 * SPEC_BLOCK_HUGE)
		return 0;
	return (size + SPEC_BLOCK_HUGE - 1) & ~(SPEC_BLOCK_HUGE - 1);
}

size_t spec_block_size(size_t need, size_t held)
{
	/* Past the first block, straight to a huge one: on this project's
	 * machines (virtual ones) a 4 KiB page of fresh memory costs 10-17 us
	 * to fault in and a whole 2 MiB huge page about 200 us, so a model
	 * of more than 64 KiB (ir3 takes about 1 MiB) is cheaper in one huge
	 * page than in the 64, 128, 256 and 512 KiB blocks doubling gave
	 * (with blocks cleared as used, one warm ir3 `disasm` went from 371
	 * page faults to about 150: docs/benchmarks.md, start-up). */
	size_t size = !held ? BLOCK_FIRST
	              : held < SPEC_BLOCK_HUGE ? SPEC_BLOCK_HUGE
	              : held < BLOCK_MAX ? held : BLOCK_MAX;
	if (size < need)
		size = need;
	return size < SPEC_BLOCK_HUGE ? size : block_mapped(size);
}

/* Blocks of SPEC_BLOCK_HUGE and more are mapped from the kernel (zeroed
 * already) on a boundary of that size and offered for transparent huge
 * pages: where the kernel takes the hint, a block faults in 2 MiB at a
 * time instead of 4 KiB.  On this project's machines (virtual ones)
 * each 4 KiB page touched first costs about 8 us: `check` of the 65,536
 * leaves of bench/scale-spec touched 46,000, over a third of its time,
 * and its loader took 576 ms in 4 KiB pages, 243 ms in 2 MiB ones.
 * Smaller blocks come from malloc, which costs a small spec (and a
 * fuzzer's millions of them) no system call; not from calloc, which
 * clears (and so faults in) the whole block at once. */
void *spec_block_alloc(size_t size, bool *zeroed)
{
	if (zeroed)
		*zeroed = size >= SPEC_BLOCK_HUGE;
	if (size < SPEC_BLOCK_HUGE)
		return malloc(size ? size : 1);
	size_t map = block_mapped(size);
	if (!map)
		return NULL;
	size_t span = map + SPEC_BLOCK_HUGE; /* room to align the start */
	unsigned char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                        -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	size_t head = (SPEC_BLOCK_HUGE - (uintptr_t)p % SPEC_BLOCK_HUGE) % SPEC_BLOCK_HUGE;
	if (head)
		munmap(p, head);
	if (span - head > map)
		munmap(p + head + map, span - head - map);
	p += head;
#ifdef MADV_HUGEPAGE
	/* only a hint: without it (or huge pages) the block works the same */
	(void)madvise(p, map, MADV_HUGEPAGE);
#endif
#ifdef SPEC_LSAN_ROOTS
	__lsan_register_root_region(p, map);
#endif
	return p;
}

void spec_block_free(void *block, size_t size)
{
	if (!block)
		return;
	if (size < SPEC_BLOCK_HUGE) {
		free(block);
		return;
	}
#ifdef SPEC_LSAN_ROOTS
	__lsan_unregister_root_region(block, block_mapped(size));
#endif
	munmap(block, block_mapped(size));
}

void *arena_alloc(arena *a, size_t size)
{
	size_t limit = a->limit ? a->limit : SPEC_MAX_MODEL_BYTES;
	if (size > limit) { /* also keeps the rounding from wrapping */
		a->failed = true;
		return NULL;
	}
	size = (size + 15u) & ~(size_t)15u;
	if (size == 0)
		size = 16;
	arena_chunk *c = a->head;
	if (!c || c->cap - c->used < size) {
		/* the model's memory budget: a block that would pass it shrinks
		 * to the least one that holds this allocation */
		size_t left = limit - a->bytes;
		size_t block = spec_block_size(sizeof *c + size, a->bytes);
		if (!block || block - sizeof *c > left)
			block = sizeof *c + (size > BLOCK_FIRST ? size : BLOCK_FIRST);
		if (block - sizeof *c > left) {
			a->failed = true;
			return NULL;
		}
		bool zeroed;
		c = spec_block_alloc(block, &zeroed);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		a->bytes += block - sizeof *c;
		c->block = block;
		c->cap = block - sizeof *c;
		c->used = 0;
		c->zeroed = zeroed;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += size;
	/* cleared as used, unless the kernel did: nothing is ever given back
	 * to a block for reuse */
	if (!c->zeroed)
		memset(p, 0, size);
	return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

char *arena_strdup(arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

arena_mark arena_save(const arena *a)
{
	return (arena_mark){a->head, a->head ? a->head->used : 0, a->bytes, a->failed};
}

void arena_restore(arena *a, arena_mark m)
{
	/* chunks are only ever pushed in front: those before m's are newer */
	while (a->head != m.head) {
		arena_chunk *n = a->head->next;
		spec_block_free(a->head, a->head->block);
		a->head = n;
	}
	if (a->head) {
		a->head->used = m.used;
		a->head->zeroed = false; /* what was given back is dirty */
	}
	a->bytes = m.bytes;
	a->failed = m.failed;
}

void arena_free(arena *a)
{
	arena_chunk *c = a->head;
	while (c) {
		arena_chunk *n = c->next;
		spec_block_free(c, c->block);
		c = n;
	}
	a->head = NULL;
	a->bytes = 0;
}

uint64_t *bits_new(arena *a, unsigned nwords)
{
	return arena_alloc(a, sizeof(uint64_t) * (nwords ? nwords : 1));
}

void bits_set_range(uint64_t *w, unsigned low, unsigned high)
{
	for (unsigned i = low; i <= high; i++)
		w[i / 64u] |= (uint64_t)1 << (i % 64u);
}

bool bits_any(const uint64_t *w, unsigned nwords)
{
	for (unsigned i = 0; i < nwords; i++)
		if (w[i])
			return true;
	return false;
}

void bits_format_ranges(const uint64_t *w, unsigned size, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < size;) {
		if (!((w[i / 64u] >> (i % 64u)) & 1u)) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < size && ((w[(j + 1) / 64u] >> ((j + 1) % 64u)) & 1u))
			j++;
		char part[32];
		if (i == j)
			snprintf(part, sizeof part, "%s%u", used ? ", " : "", i);
		else
			snprintf(part, sizeof part, "%s%u..%u", used ? ", " : "", i, j);
		size_t pl = strlen(part);
		if (used + pl + 4 >= len) {
			snprintf(buf + used, len - used, ", ...");
			return;
		}
		memcpy(buf + used, part, pl + 1);
		used += pl;
		i = j + 1;
	}
}

void *spec_grow(void *array, size_t need, size_t *cap, size_t size, size_t first)
{
	if (need <= *cap && array)
		return array;
	size_t n = *cap ? *cap : first ? first : 1;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = realloc(array, n * size);
	if (p)
		*cap = n;
	return p;
}

const char *text_next_word(const char **p, size_t *len)
{
	const char *w = *p;
	while (*w == ' ')
		w++;
	if (!*w)
		return NULL;
	const char *end = w;
	while (*end && *end != ' ')
		end++;
	*len = (size_t)(end - w);
	*p = end;
	return w;
}

uint64_t text_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

unsigned text_distance(const char *a, const char *b, unsigned cap)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	unsigned row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned cost = tolower((unsigned char)a[i - 1]) ==
			                tolower((unsigned char)b[j - 1]) ? 0u : 1u;
			unsigned best = diag + cost;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (up + 1 < best)
				best = up + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb] > cap ? cap + 1 : row[lb];
}

static bool is_py_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

const char *text_trim(const char *s, size_t *len)
{
	*len = 0;
	if (!s)
		return NULL;
	while (is_py_space(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_py_space(s[n - 1]))
		n--;
	*len = n;
	return s;
}

char *text_strip(arena *a, const char *s)
{
	size_t n;
	s = text_trim(s, &n);
	return s ? arena_strndup(a, s, n) : NULL;
}

bool text_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	if (!s)
		return false;
	while (is_py_space(*s))
		s++;
	if (*s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	uint64_t v = 0;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	while (is_py_space(*s))
		s++;
	if (*s)
		return false;
	*out = v;
	return true;
}

bool text_parse_c_int(const char *s, int64_t *out)
{
	if (!s)
		return false;
	while (is_py_space(*s))
		s++;
	bool neg = false;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!isdigit((unsigned char)*s))
		return false;
	unsigned base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!isxdigit((unsigned char)*s))
			return false;
	} else if (s[0] == '0' && isdigit((unsigned char)s[1])) {
		base = 8;
	}
	uint64_t v = 0;
	for (;; s++) {
		unsigned d;
		if (isdigit((unsigned char)*s))
			d = (unsigned)(*s - '0');
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
		else
			break;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	while (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L')
		s++;
	while (is_py_space(*s))
		s++;
	if (*s)
		return false;
	if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

char *spec_vstrdup_printf(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, again);
	va_end(again);
	return s;
}

char *spec_strdup_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = spec_vstrdup_printf(fmt, ap);
	va_end(ap);
	return s;
}

int spec_open_regular(const char *path, struct stat *st, char *why, size_t whylen, int *err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat
	 * can refuse it */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	*err = 0;
	if (fd < 0 || fstat(fd, st) != 0) {
		*err = errno;
		snprintf(why, whylen, "%s", strerror(*err));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, whylen, "not a regular file (%s)",
		         S_ISDIR(st->st_mode)    ? "a directory"
		         : S_ISFIFO(st->st_mode) ? "a FIFO"
		                                 : "a device or socket");
		close(fd);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

FILE *spec_fopen_regular(const char *path, const char *mode, char *why, size_t whylen,
                         int *err)
{
	struct stat st;
	int fd = spec_open_regular(path, &st, why, whylen, err);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, mode);
	if (!f) {
		*err = errno;
		snprintf(why, whylen, "%s", strerror(*err));
		close(fd);
	}
	return f;
}

spec_limits spec_limits_for(size_t max_bytes)
{
	spec_limits l = {SPEC_MAX_FILE_BYTES, SPEC_MAX_TOTAL_BYTES, SPEC_MAX_ELEMENTS,
	                 SPEC_MAX_DISPLAY_TOTAL, SPEC_MAX_MODEL_BYTES};
	if (max_bytes == 0)
		return l;
	if (max_bytes > SPEC_MAX_SPEC_BYTES)
		max_bytes = SPEC_MAX_SPEC_BYTES;
	l.file_bytes = l.total_bytes = max_bytes;
	if (max_bytes <= SPEC_MAX_TOTAL_BYTES)
		return l;
	/* at most 16 (1 GiB over 64 MiB): no product below can wrap */
	size_t k = (max_bytes + SPEC_MAX_TOTAL_BYTES - 1) / SPEC_MAX_TOTAL_BYTES;
	l.elements *= k;
	l.display_bytes *= k;
	l.model_bytes *= k;
	return l;
}

bool spec_parse_size(const char *s, size_t *out)
{
	size_t v = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > SPEC_MAX_SPEC_BYTES)
			return false; /* and stays false: no wrap however long */
		v = v * 10 + (size_t)(*p - '0');
	}
	if (p == s)
		return false;
	unsigned shift = 0;
	if (*p == 'K' || *p == 'k')
		shift = 10;
	else if (*p == 'M' || *p == 'm')
		shift = 20;
	else if (*p == 'G' || *p == 'g')
		shift = 30;
	if (shift)
		p++;
	if (*p || v == 0 || v > SPEC_MAX_SPEC_BYTES >> shift)
		return false;
	*out = v << shift;
	return true;
}
