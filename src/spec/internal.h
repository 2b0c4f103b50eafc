/*
 * internal.h - private to src/spec: the arena, the XML element tree and
 * the bit-vector helpers the loader and linter share.  Nothing outside
 * src/spec includes this; the module's API is spec.h.
 */
#ifndef ISACHECK_SPEC_INTERNAL_H
#define ISACHECK_SPEC_INTERNAL_H

#include "spec.h"

#include <stdarg.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- arena */

/* Every allocation of a model comes from one arena and is freed with it:
 * a model is built once and never edited, so nothing is freed alone. */
typedef struct arena_chunk arena_chunk;
typedef struct arena {
	arena_chunk *head;
	size_t bytes; /* held in chunks; never above the limit */
	size_t limit; /* the model's memory budget (0: SPEC_MAX_MODEL_BYTES) */
	bool failed;  /* an allocation failed; callers check once at the end */
} arena;

/* Zeroed and 16-aligned; size 0 gets a block of its own all the same,
 * so only running out of memory (or the budget) returns NULL. */
void *arena_alloc(arena *a, size_t size);
char *arena_strdup(arena *a, const char *s);
/* spec_strdup_printf with a va_list (ap is left used). */
char *spec_vstrdup_printf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
char *arena_strndup(arena *a, const char *s, size_t n);
void arena_free(arena *a);
/* What an arena holds at one moment, so that what is allocated after
 * can be given back at once (arena_restore): a tentative read, such as
 * a cache entry that may fail its checks, leaves nothing behind. */
typedef struct arena_mark {
	arena_chunk *head;
	size_t used, bytes;
	bool failed;
} arena_mark;
arena_mark arena_save(const arena *a);
void arena_restore(arena *a, arena_mark m);

/* ------------------------------------------------------------- XML tree */

typedef struct xml_attr {
	const char *name, *value;
	spec_loc loc;
} xml_attr;

/* The dialect's element names, known at parse time so the loader
 * compares numbers, not strings. */
typedef enum xml_kind {
	EL_OTHER, EL_ISA, EL_IMPORT, EL_BITSET, EL_ENUM, EL_VALUE, EL_EXPR, EL_TEMPLATE, EL_DOC, EL_GEN, EL_META, EL_PATTERN, EL_FIELD, EL_PARAM, EL_ASSERT, EL_DERIVED, EL_OVERRIDE, EL_DISPLAY, EL_ENCODE, EL_MAP, EL_DECODE,
	EL_NKINDS /* how many kinds there are */
} xml_kind;

typedef struct xml_elem xml_elem;
/* (Ordered so as to leave no padding inside: a big spec has a million.) */
struct xml_elem {
	const char *name;
	xml_attr *attrs;
	xml_elem *parent, *first, *next;
	char *text;              /* direct character data, concatenated; "" if none */
	spec_loc loc;            /* the '<' of the start tag */
	spec_loc text_loc;       /* just after the start tag's '>' */
	spec_loc text_ws_loc;    /* where the first non-white-space character is */
	xml_kind kind;
	unsigned nattrs;
	bool has_text;           /* some direct character data is not white space */
};

/* Parses one file's bytes into a tree allocated in a.  On a fatal
 * problem (not well-formed, DTD, too deep, too many elements) adds a
 * SPEC_FATAL diagnostic and returns NULL.  *element_budget is decreased
 * by the number of elements read. */
xml_elem *xml_parse(arena *a, const char *file, const char *data, size_t len,
                    size_t *element_budget, spec_diags *diags);

const char *xml_attr_get(const xml_elem *e, const char *name);
/* Whether the XML library can be used (xml_lazy.c opens it on first
 * use); false with the reason in why. */
bool xml_library_available(char *why, size_t len);
/* The kind of an element name (EL_OTHER when the dialect has none). */
xml_kind xml_kind_of(const char *name);

/* tree_cache.c: the tree xml_parse made from these bytes, saved in dir
 * by an earlier load, read into a (its locations naming file; its
 * strings in the copy of the entry a holds), with *element_budget
 * decreased as xml_parse would; NULL when dir has no valid entry for the
 * bytes (nothing is reported, and a holds nothing more: the caller
 * parses). */
xml_elem *xml_cache_load(arena *a, const char *dir, const char *file, const char *data,
                         size_t len, size_t *element_budget);
/* Saves root, parsed from these bytes, in dir (created 0700 when
 * missing); a failure is silent, as the cache only saves time. */
void xml_cache_store(const char *dir, const char *data, size_t len, const xml_elem *root);
const xml_attr *xml_attr_find(const xml_elem *e, const char *name);

/* --------------------------------------------------------- bit vectors */

static inline unsigned bits_words(unsigned size) { return (size + 63u) / 64u; }
uint64_t *bits_new(arena *a, unsigned nwords);
/* Words of the widest root: room for a bit vector the loader works with
 * on the stack and the model does not keep. */
#define BITS_MAX_WORDS (SPEC_MAX_BITS / 64u)
void bits_set_range(uint64_t *w, unsigned low, unsigned high);
bool bits_any(const uint64_t *w, unsigned nwords);
/* Formats the set bits of w (below size) as ranges "0..3, 7, 12..15". */
void bits_format_ranges(const uint64_t *w, unsigned size, char *buf, size_t len);

/* ---------------------------------------------------------- misc text */

/* The next word of the space-separated list at *p: its start, its length
 * in *len, and *p moved past it; NULL when no word is left. */
const char *text_next_word(const char **p, size_t *len);
/* FNV-1a hash of a string, for the module's small hash tables. */
uint64_t text_hash(const char *s);
/* Levenshtein distance, capped: returns cap + 1 when larger. */
unsigned text_distance(const char *a, const char *b, unsigned cap);
/* Strips white space as Python's str.strip() does, into the arena. */
char *text_strip(arena *a, const char *s);
/* The same without a copy: where the stripped text of s starts (NULL
 * for NULL), and its length in *len. */
const char *text_trim(const char *s, size_t *len);
/* Parses a non-negative decimal integer attribute (Python int() style:
 * surrounding white space allowed).  False when it is not one or does
 * not fit in max. */
bool text_parse_uint(const char *s, uint64_t max, uint64_t *out);
/* Parses a C integer literal with optional sign and suffixes. */
bool text_parse_c_int(const char *s, int64_t *out);

/* ---------------------------------------------------------- model glue */

struct spec_frames; /* frame.c: the <program>s and the expressions they own */

struct spec_model_private {
	arena arena;
	struct spec_frames *frames;
};

/* frame.c: builds and checks the <program>s among the top-level
 * definitions (after the bitsets are built), and frees what they own. */
void spec_frame_load(spec_model *m, arena *a, const xml_elem *const *defs, size_t ndefs,
                     spec_diags *diags);
void spec_frame_free(struct spec_model_private *priv);

/* Checks run after the model is built (lint.c). */
void spec_lint_model(const spec_model *m, spec_diags *diags);
/* The encoder side, as Mesa's encode.py reads it (encode_lint.c). */
void spec_lint_encoder(const spec_model *m, spec_diags *diags);
/* Whether a <map> of leaf or an ancestor gives name to the encoder. */
bool spec_encoder_maps(const spec_bitset *leaf, const char *name);

#endif
