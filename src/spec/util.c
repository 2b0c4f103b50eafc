/* util.c - arena, bit vectors, growable arrays and small text helpers for
 * src/spec. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
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

struct arena_chunk {
	arena_chunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

void *arena_alloc(arena *a, size_t size)
{
	if (size > SPEC_MAX_MODEL_BYTES) { /* also keeps the rounding from wrapping */
		a->failed = true;
		return NULL;
	}
	size = (size + 15u) & ~(size_t)15u;
	if (size == 0)
		size = 16;
	arena_chunk *c = a->head;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > 65536 ? size : 65536;
		if (cap > SPEC_MAX_MODEL_BYTES - a->bytes) { /* the model's memory budget */
			a->failed = true;
			return NULL;
		}
		a->bytes += cap;
		/* zeroed here, not per allocation: calloc skips the memset for
		 * fresh heap (most of a big model's), and nothing is ever given
		 * back to a chunk for reuse (65,536 leaves: check 1.85 s -> 1.22) */
		c = calloc(1, sizeof *c + cap);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		c->cap = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += size;
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

struct arena_mapping {
	arena_mapping *next;
	void *p;
	size_t n;
};

bool arena_adopt_mapping(arena *a, void *p, size_t n)
{
	arena_mapping *m = arena_alloc(a, sizeof *m);
	if (!m) {
		munmap(p, n);
		return false;
	}
	*m = (arena_mapping){a->maps, p, n};
	a->maps = m;
	return true;
}

void arena_free(arena *a)
{
	/* the records live in the chunks: unmap before freeing those */
	for (arena_mapping *m = a->maps; m; m = m->next)
		munmap(m->p, m->n);
	a->maps = NULL;
	arena_chunk *c = a->head;
	while (c) {
		arena_chunk *n = c->next;
		free(c);
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

char *text_strip(arena *a, const char *s)
{
	if (!s)
		return NULL;
	while (is_py_space(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_py_space(s[n - 1]))
		n--;
	return arena_strndup(a, s, n);
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

FILE *spec_fopen_regular(const char *path, const char *mode, char *why, size_t whylen,
                         int *err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat
	 * can refuse it */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	*err = 0;
	if (fd < 0 || fstat(fd, &st) != 0) {
		*err = errno;
		snprintf(why, whylen, "%s", strerror(*err));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "not a regular file (%s)",
		         S_ISDIR(st.st_mode)    ? "a directory"
		         : S_ISFIFO(st.st_mode) ? "a FIFO"
		                                : "a device or socket");
		close(fd);
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	FILE *f = fdopen(fd, mode);
	if (!f) {
		*err = errno;
		snprintf(why, whylen, "%s", strerror(*err));
		close(fd);
	}
	return f;
}
