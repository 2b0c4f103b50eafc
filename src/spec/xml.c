/*
 * xml.c - reads one XML file into our own small element tree.
 *
 * We drive libxml2's SAX2 parser rather than use its DOM because the DOM
 * keeps no columns, and every diagnostic wants file:line:col of the
 * element and of the attribute at fault.  At each start tag we take the
 * parser's byte offset, walk back to the tag's '<' (a '<' cannot occur
 * inside a tag, not even in attribute values) and scan the raw tag for
 * attribute positions.  Offsets only grow, so line counting is one
 * forward pass over the file.
 *
 * Hostile input: no DTD is accepted (so no entity can be declared, let
 * alone expanded), the network is off, nesting depth and element count
 * are capped, and the first well-formedness error stops the parse.
 */
#include "internal.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The arena's copy of a name libxml2 handed over, by the pointer it
 * handed: libxml2 interns element and attribute names, so a spec of
 * 65,536 bitsets names a few dozen strings 400,000 times.  A hit needs
 * the same pointer and the same text, so nothing depends on libxml2
 * interning; it only makes hits likely. */
#define NAME_CACHE 64
typedef struct name_entry {
	const xmlChar *key;
	const char *name;
	xml_kind kind;
} name_entry;

typedef struct xml_reader {
	arena *a;
	name_entry names[NAME_CACHE];
	const char *file;
	const char *data;
	size_t len;
	xmlParserCtxtPtr ctxt;
	spec_diags *diags;
	size_t *budget;
	xml_elem *root, *cur;
	unsigned depth;
	/* the last child so far of the open element at each depth (the
	 * document element is at depth 1), where the next one is linked */
	xml_elem *tail[SPEC_MAX_DEPTH + 1];
	bool failed;
	/* forward line cursor */
	size_t pos, line_start;
	unsigned line;
	/* Text of each open element, one growable buffer per depth, kept in
	 * the arena only when the element ends: an element's text is built
	 * once, however many children interrupt it (copying it into the
	 * arena at every child made a pretty-printed enum of 40,000 values
	 * cost gigabytes). */
	struct text_buf {
		char *data;
		size_t len, cap;
	} text[SPEC_MAX_DEPTH + 2];
} xml_reader;

static spec_loc reader_loc_at(xml_reader *r, size_t off)
{
	if (off < r->pos) { /* never expected; restart the count rather than lie */
		r->pos = 0;
		r->line = 1;
		r->line_start = 0;
	}
	if (off > r->len)
		off = r->len;
	while (r->pos < off) {
		const char *nl = memchr(r->data + r->pos, '\n', off - r->pos);
		if (!nl) {
			r->pos = off;
			break;
		}
		r->line++;
		r->pos = (size_t)(nl - r->data) + 1;
		r->line_start = r->pos;
	}
	return (spec_loc){r->file, r->line, (unsigned)(off - r->line_start + 1)};
}

/* Records the first fatal problem.  Problems we find in SAX callbacks
 * stop the parser; problems libxml2 reports do not, because its error
 * callbacks can run in the middle of its own work (an encoding switch,
 * say), where halting it frees buffers it is still using.  After a
 * failure every later callback returns at once. */
static void record_failure(xml_reader *r, const char *rule, spec_loc loc,
                           const char *msg)
{
	if (r->failed)
		return;
	r->failed = true;
	spec_diag_add(r->diags, SPEC_FATAL, rule, loc, "%s", msg);
}

static void reader_fail(xml_reader *r, const char *rule, spec_loc loc,
                        const char *msg)
{
	if (r->failed)
		return;
	record_failure(r, rule, loc, msg);
	xmlStopParser(r->ctxt);
}

/* Keeps the text gathered for the element that is ending: text before
 * and after its child elements is one string. */
static void keep_text(xml_reader *r)
{
	struct text_buf *t = &r->text[r->depth];
	if (!r->cur || !t->len)
		return;
	char *s = arena_strndup(r->a, t->data, t->len);
	if (!s)
		reader_fail(r, "out-of-memory", r->cur->loc,
		            "out of memory keeping the text of this element");
	else
		r->cur->text = s;
	t->len = 0;
}

/* Finds the offset of the '<' opening the tag the parser is inside. */
static size_t tag_start(xml_reader *r)
{
	long consumed = xmlByteConsumed(r->ctxt);
	size_t off = consumed < 0 ? 0 : (size_t)consumed;
	if (off >= r->len)
		off = r->len ? r->len - 1 : 0;
	while (off > 0 && r->data[off] != '<')
		off--;
	return off;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Records each attribute's position by scanning the raw start tag;
 * returns the offset of the '>' that closes it. */
static size_t locate_attrs(xml_reader *r, xml_elem *e, size_t start)
{
	size_t p = start + 1;
	while (p < r->len && !is_ws(r->data[p]) && r->data[p] != '/' && r->data[p] != '>')
		p++;
	for (;;) {
		while (p < r->len && (is_ws(r->data[p]) || r->data[p] == '/'))
			p++;
		if (p >= r->len || r->data[p] == '>')
			return p;
		size_t name_at = p;
		while (p < r->len && !is_ws(r->data[p]) && r->data[p] != '=' &&
		       r->data[p] != '/' && r->data[p] != '>')
			p++;
		size_t name_len = p - name_at;
		spec_loc loc = reader_loc_at(r, name_at);
		for (unsigned i = 0; i < e->nattrs; i++) {
			const char *n = e->attrs[i].name;
			if (!strncmp(n, r->data + name_at, name_len) && !n[name_len])
				e->attrs[i].loc = loc;
		}
		while (p < r->len && r->data[p] != '"' && r->data[p] != '\'' &&
		       r->data[p] != '>')
			p++;
		if (p >= r->len || r->data[p] == '>')
			return p;
		char q = r->data[p++];
		const char *close = memchr(r->data + p, q, r->len - p);
		p = close ? (size_t)(close - r->data) + 1 : r->len;
	}
}

xml_kind xml_kind_of(const char *name)
{
	static const char *const names[] = {
		NULL, "isa", "import", "bitset", "enum", "value", "expr", "template", "doc", "gen", "meta", "pattern", "field", "param", "assert", "derived", "override", "display", "encode", "map", "decode",
	};
	for (size_t i = 1; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i], name))
			return (xml_kind)i;
	return EL_OTHER;
}

/* The arena's copy of name (NULL when memory runs out), and its kind. */
static const char *reader_name(xml_reader *r, const xmlChar *name, xml_kind *kind)
{
	/* interned names lie a few bytes apart: mix every bit of the address */
	uint64_t h = (uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ull;
	name_entry *e = &r->names[(h >> 32) % NAME_CACHE];
	if (e->key != name || strcmp(e->name, (const char *)name)) {
		const char *copy = arena_strdup(r->a, (const char *)name);
		if (!copy)
			return NULL;
		*e = (name_entry){name, copy, xml_kind_of(copy)};
	}
	*kind = e->kind;
	return e->name;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nb_namespaces,
                     const xmlChar **namespaces, int nb_attributes,
                     int nb_defaulted, const xmlChar **attributes)
{
	(void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
	(void)nb_defaulted;
	xml_reader *r = ctx;
	if (r->failed)
		return;
	size_t start = tag_start(r);
	spec_loc loc = reader_loc_at(r, start);
	if (++r->depth > SPEC_MAX_DEPTH) {
		char msg[96];
		snprintf(msg, sizeof msg, "elements nested deeper than %u levels",
		         SPEC_MAX_DEPTH);
		reader_fail(r, "xml-depth", loc, msg);
		return;
	}
	if (*r->budget == 0) {
		char msg[96];
		snprintf(msg, sizeof msg, "more elements than the model's budget (%u a %u MiB of "
		         "--max-spec-size)", SPEC_MAX_ELEMENTS, SPEC_MAX_TOTAL_BYTES >> 20);
		reader_fail(r, "too-many-elements", loc, msg);
		return;
	}
	(*r->budget)--;
	r->text[r->depth].len = 0;

	if (nb_attributes < 0 || (unsigned)nb_attributes > SPEC_MAX_ATTRIBUTES) {
		char msg[96];
		snprintf(msg, sizeof msg, "more than %u attributes on one element",
		         SPEC_MAX_ATTRIBUTES);
		reader_fail(r, "too-many-attributes", loc, msg);
		return;
	}
	xml_elem *e = arena_alloc(r->a, sizeof *e);
	xml_attr *attrs = arena_alloc(r->a, sizeof(xml_attr) * (size_t)nb_attributes);
	if (!e || !attrs) {
		reader_fail(r, "out-of-memory", loc, "out of memory reading this element");
		return;
	}
	e->kind = EL_OTHER;
	e->name = reader_name(r, localname, &e->kind);
	e->loc = loc;
	e->text = (char *)"";
	e->nattrs = (unsigned)nb_attributes;
	e->attrs = attrs;
	for (int i = 0; i < nb_attributes; i++) {
		const xmlChar **at = attributes + 5 * i; /* name, prefix, uri, begin, end */
		xml_kind unused;
		e->attrs[i].name = reader_name(r, at[0], &unused);
		e->attrs[i].value = arena_strndup(r->a, (const char *)at[3],
		                                  (size_t)(at[4] - at[3]));
		if (!e->name || !e->attrs[i].name || !e->attrs[i].value) {
			reader_fail(r, "out-of-memory", loc, "out of memory reading this element");
			return;
		}
		/* Without entity replacement libxml2 hands an attribute's "&amp;"
		 * over as "&#38;" (it decodes the other predefined entities):
		 * decode it, or expressions in attributes could not say "&&". */
		char *amp = e->attrs[i].value ? strstr(e->attrs[i].value, "&#38;") : NULL;
		for (char *o = amp; amp;) {
			if (!strncmp(amp, "&#38;", 5)) {
				*o++ = '&';
				amp += 5;
			} else if (!(*o++ = *amp++)) {
				break;
			}
		}
		e->attrs[i].loc = loc;
	}
	/* Text starts after the '>' that closes this start tag. */
	size_t p = locate_attrs(r, e, start);
	e->text_loc = reader_loc_at(r, p < r->len ? p + 1 : p);

	e->parent = r->cur;
	r->tail[r->depth] = NULL;
	if (r->cur) {
		xml_elem **last = &r->tail[r->depth - 1];
		if (*last)
			(*last)->next = e;
		else
			r->cur->first = e;
		*last = e;
	} else {
		r->root = e;
	}
	r->cur = e;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                   const xmlChar *uri)
{
	(void)localname; (void)prefix; (void)uri;
	xml_reader *r = ctx;
	if (r->failed || !r->cur)
		return;
	keep_text(r);
	r->depth--;
	r->cur = r->cur->parent;
}

static void on_chars(void *ctx, const xmlChar *ch, int len)
{
	xml_reader *r = ctx;
	if (r->failed || !r->cur || len <= 0)
		return;
	for (int i = 0; i < len && !r->cur->has_text; i++)
		if (!strchr(" \t\r\n", ch[i])) {
			/* The parser has just consumed these characters: step back to
			 * the first one that is not white space, for the diagnostic. */
			long end = xmlByteConsumed(r->ctxt);
			size_t off = end < 0 ? 0 : (size_t)end;
			size_t back = (size_t)(len - i);
			r->cur->has_text = true;
			r->cur->text_ws_loc = off >= back && off - back >= r->pos
				? reader_loc_at(r, off - back) : r->cur->text_loc;
		}
	struct text_buf *t = &r->text[r->depth];
	size_t need = t->len + (size_t)len + 1;
	if (need > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		while (cap < need)
			cap *= 2;
		char *b = realloc(t->data, cap);
		if (!b) {
			reader_fail(r, "out-of-memory", r->cur->loc,
			            "out of memory reading the text of this element");
			return;
		}
		t->data = b;
		t->cap = cap;
	}
	memcpy(t->data + t->len, ch, (size_t)len);
	t->len += (size_t)len;
}

static void on_dtd(void *ctx, const xmlChar *name, const xmlChar *ext_id,
                   const xmlChar *system_id)
{
	(void)name; (void)ext_id; (void)system_id;
	xml_reader *r = ctx;
	size_t off = tag_start(r);
	/* tag_start finds the '<' of "<!DOCTYPE" when the subset is short;
	 * search for the keyword itself to be exact. */
	const char *d = NULL;
	for (size_t i = 0; i + 9 <= r->len; i++)
		if (!memcmp(r->data + i, "<!DOCTYPE", 9)) {
			d = r->data + i;
			break;
		}
	if (d)
		off = (size_t)(d - r->data);
	reader_fail(r, "xml-dtd", reader_loc_at(r, off),
	            "a DOCTYPE is not allowed: specs may declare no DTD and no entities");
}

static void on_error(void *ctx, xmlErrorPtr err)
{
	xml_reader *r = ctx;
	if (!err || err->level == XML_ERR_WARNING || r->failed)
		return;
	char msg[512];
	snprintf(msg, sizeof msg, "%s", err->message ? err->message : "not well-formed");
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = 0;
	unsigned line = err->line > 0 ? (unsigned)err->line : 0;
	unsigned col = err->int2 > 0 ? (unsigned)err->int2 : 0;
	record_failure(r, "xml-syntax", (spec_loc){r->file, line, col}, msg);
}

/* libxml2 reports encoding and I/O trouble through its "generic" error
 * channel, which prints to stderr by default.  For the span of one parse
 * we route that channel here, so the message becomes our diagnostic. */
static void on_generic_error(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void on_generic_error(void *ctx, const char *fmt, ...)
{
	xml_reader *r = ctx;
	if (r->failed)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = 0;
	if (!n)
		return; /* libxml2 sends some messages in pieces; keep the first real one */
	unsigned line = r->ctxt && r->ctxt->input && r->ctxt->input->line > 0
		? (unsigned)r->ctxt->input->line : 0;
	record_failure(r, "xml-syntax", (spec_loc){r->file, line, 0}, msg);
}

static void on_entity_ref(void *ctx, const xmlChar *name)
{
	xml_reader *r = ctx;
	char msg[160];
	snprintf(msg, sizeof msg, "entity reference '&%.64s;' is not allowed",
	         (const char *)name);
	reader_fail(r, "xml-syntax", r->cur ? r->cur->loc : (spec_loc){r->file, 0, 0}, msg);
}

/* Skips from p to just past the first occurrence of end (or to len). */
static size_t skip_past(const char *d, size_t len, size_t p, const char *end)
{
	size_t n = strlen(end);
	while (p + n <= len) {
		/* only where the whole marker still fits: memcmp reads n bytes */
		const char *c = memchr(d + p, end[0], len - p - n + 1);
		if (!c)
			break;
		p = (size_t)(c - d);
		if (!memcmp(d + p, end, n))
			return p + n;
		p++;
	}
	return len;
}

/* libxml2 checks a start tag's attributes for duplicates pair by pair
 * (300,000 attributes took half a minute), before any callback of ours
 * could count them: so count them first, in one linear pass over the
 * raw text, and refuse a tag over the budget.  The pass only has to be
 * right for well-formed tags; anything else libxml2 rejects next. */
static bool attributes_within_budget(xml_reader *r)
{
	const char *d = r->data;
	size_t p = 0;
	while (p < r->len) {
		const char *lt = memchr(d + p, '<', r->len - p);
		if (!lt)
			return true;
		size_t at = (size_t)(lt - d);
		if (r->len - at >= 4 && !memcmp(lt, "<!--", 4)) {
			p = skip_past(d, r->len, at + 4, "-->");
			continue;
		}
		if (r->len - at >= 9 && !memcmp(lt, "<![CDATA[", 9)) {
			p = skip_past(d, r->len, at + 9, "]]>");
			continue;
		}
		if (r->len - at >= 2 && (lt[1] == '?' || lt[1] == '!')) {
			p = skip_past(d, r->len, at + 2, lt[1] == '?' ? "?>" : ">");
			continue;
		}
		unsigned count = 0;
		char quote = 0;
		for (p = at + 1; p < r->len; p++) {
			char c = d[p];
			if (quote) {
				if (c == quote)
					quote = 0;
			} else if (c == '"' || c == '\'') {
				quote = c;
			} else if (c == '=') {
				count++;
			} else if (c == '>' || c == '<') {
				break;
			}
		}
		if (count > SPEC_MAX_ATTRIBUTES) {
			char msg[96];
			snprintf(msg, sizeof msg, "more than %u attributes on one element",
			         SPEC_MAX_ATTRIBUTES);
			record_failure(r, "too-many-attributes", reader_loc_at(r, at), msg);
			return false;
		}
	}
	return true;
}

xml_elem *xml_parse(arena *a, const char *file, const char *data, size_t len,
                    size_t *element_budget, spec_diags *diags)
{
	xml_reader r = {.a = a, .file = file, .data = data, .len = len,
	                .diags = diags, .budget = element_budget, .line = 1};
	if (len == 0 || len > (size_t)INT32_MAX) {
		spec_diag_add(diags, SPEC_FATAL, "xml-syntax", (spec_loc){file, 0, 0},
		              "the file is empty");
		return NULL;
	}
	/* libxml2 stops at a NUL byte with a vague message; say what it is. */
	const char *nul = memchr(data, 0, len);
	if (nul) {
		spec_diag_add(diags, SPEC_FATAL, "xml-syntax",
		              reader_loc_at(&r, (size_t)(nul - data)),
		              "NUL byte in the file: not a text file");
		return NULL;
	}
	if (!attributes_within_budget(&r))
		return NULL;
	char why[300];
	if (!xml_library_available(why, sizeof why)) {
		spec_diag_add(diags, SPEC_FATAL, "xml-library", (spec_loc){file, 0, 0}, "%s", why);
		return NULL;
	}
	r.pos = 0; /* the line cursor starts again for the parse */
	r.line = 1;
	r.line_start = 0;
	xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(data, (int)len);
	if (!ctxt) {
		spec_diag_add(diags, SPEC_FATAL, "out-of-memory", (spec_loc){file, 0, 0},
		              "cannot create an XML parser (out of memory)");
		return NULL;
	}
	r.ctxt = ctxt;
	xmlSAXHandler *sax = ctxt->sax;
	memset(sax, 0, sizeof *sax);
	sax->initialized = XML_SAX2_MAGIC;
	sax->startElementNs = on_start;
	sax->endElementNs = on_end;
	sax->characters = on_chars;
	sax->cdataBlock = on_chars;
	sax->internalSubset = on_dtd;
	sax->externalSubset = on_dtd;
	sax->reference = on_entity_ref;
	sax->serror = on_error;
	ctxt->userData = &r;
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA);
	ctxt->replaceEntities = 0;
	xmlGenericErrorFunc saved_func = xmlGenericError;
	void *saved_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(&r, on_generic_error);
	xmlParseDocument(ctxt);
	xmlSetGenericErrorFunc(saved_ctx, saved_func);
	if (!r.failed && (!ctxt->wellFormed || !r.root)) {
		spec_diag_add(diags, SPEC_FATAL, "xml-syntax", (spec_loc){file, 0, 0},
		              "not a well-formed XML document (no document element)");
		r.failed = true;
	}
	xmlFreeParserCtxt(ctxt);
	for (size_t i = 0; i < sizeof r.text / sizeof *r.text; i++)
		free(r.text[i].data);
	return r.failed ? NULL : r.root;
}

const xml_attr *xml_attr_find(const xml_elem *e, const char *name)
{
	/* the first byte before strcmp: the loader asks this of every
	 * element, for names most of them lack */
	for (unsigned i = 0; i < e->nattrs; i++)
		if (e->attrs[i].name && e->attrs[i].name[0] == name[0] &&
		    !strcmp(e->attrs[i].name, name))
			return &e->attrs[i];
	return NULL;
}

const char *xml_attr_get(const xml_elem *e, const char *name)
{
	const xml_attr *at = xml_attr_find(e, name);
	return at ? at->value : NULL;
}

void spec_load_prepare(void)
{
	if (xml_library_available(NULL, 0))
		xmlInitParser();
}
