/*
 * xml_lazy.c - libxml2 is opened when a file is first parsed, not when
 * isacheck starts.  libxml2 brings ICU and libstdc++ with it: mapping
 * and relocating them cost every process several milliseconds of CPU
 * (docs/benchmarks.md, start-up), which a command whose files all come
 * from the cache of parsed files (tree_cache.c) never needs.
 *
 * With ISACHECK_XML_LAZY (CMake option of that name, on by default) this
 * file defines each libxml2 function xml.c calls, with the prototype the
 * library's headers declare (the compiler compares the two), as a
 * forwarder through a table that dlopen/dlsym fill on first use: the
 * library the build found, by its SONAME (ISACHECK_XML_SONAME, from
 * CMake), or the file named by ISACHECK_XML_LIBRARY in the environment.
 * A libxml2 function used in src/spec but missing from the list below is
 * an undefined reference at link time: add its line.
 *
 * xml_parse and spec_load_prepare first ask xml_library_available, so no
 * forwarder runs before the table is complete; when the library cannot be
 * opened the load fails with a diagnostic instead of a crash.  Without
 * ISACHECK_XML_LAZY the library is linked and always available.
 */
#include "internal.h"

#ifdef ISACHECK_XML_LAZY

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ISACHECK_XML_SONAME
#define ISACHECK_XML_SONAME "libxml2.so.2"
#endif

/* Every libxml2 function src/spec calls: R(type, name, (parameters),
 * (arguments)) for one that returns a value, V(...) for one that returns
 * nothing.  __xmlGenericError and __xmlGenericErrorContext are what the
 * thread-safe library's xmlGenericError and xmlGenericErrorContext
 * macros call. */
#define XML_FUNCTIONS(R, V)                                                                  \
	V(xmlInitParser, (void), ())                                                             \
	R(xmlParserCtxtPtr, xmlCreateMemoryParserCtxt, (const char *buffer, int size),           \
	  (buffer, size))                                                                        \
	R(int, xmlCtxtUseOptions, (xmlParserCtxtPtr ctxt, int options), (ctxt, options))         \
	R(int, xmlParseDocument, (xmlParserCtxtPtr ctxt), (ctxt))                                \
	V(xmlStopParser, (xmlParserCtxtPtr ctxt), (ctxt))                                        \
	V(xmlFreeParserCtxt, (xmlParserCtxtPtr ctxt), (ctxt))                                    \
	R(long, xmlByteConsumed, (xmlParserCtxtPtr ctxt), (ctxt))                                \
	V(xmlSetGenericErrorFunc, (void *ctx, xmlGenericErrorFunc handler), (ctx, handler))      \
	R(xmlGenericErrorFunc *, __xmlGenericError, (void), ())                                  \
	R(void **, __xmlGenericErrorContext, (void), ())

#define XML_SLOT_R(type, name, params, args) type(*name) params;
#define XML_SLOT_V(name, params, args) void(*name) params;
typedef struct xml_library {
	XML_FUNCTIONS(XML_SLOT_R, XML_SLOT_V)
} xml_library;

static struct {
	pthread_once_t once;
	xml_library fn;
	char error[256]; /* empty once the library is loaded */
} xmllib = {PTHREAD_ONCE_INIT, {0}, {0}};

static bool xmllib_symbol(void *handle, const char *name, void *slot)
{
	void *sym = dlsym(handle, name);
	if (sym)
		memcpy(slot, &sym, sizeof sym);
	return sym != NULL;
}

static void xmllib_load(void)
{
	const char *path = getenv("ISACHECK_XML_LIBRARY");
	if (!path || !*path)
		path = ISACHECK_XML_SONAME;
	xml_library fn = {0};
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	bool ok = handle != NULL;
#define XML_RESOLVE_R(type, name, params, args) ok = ok && xmllib_symbol(handle, #name, &fn.name);
#define XML_RESOLVE_V(name, params, args) ok = ok && xmllib_symbol(handle, #name, &fn.name);
	XML_FUNCTIONS(XML_RESOLVE_R, XML_RESOLVE_V)
	if (ok) {
		xmllib.fn = fn;
		return;
	}
	const char *why = dlerror();
	snprintf(xmllib.error, sizeof xmllib.error, "the XML library cannot be loaded (%s)",
	         why ? why : path);
	if (handle)
		dlclose(handle);
}

bool xml_library_available(char *why, size_t len)
{
	pthread_once(&xmllib.once, xmllib_load);
	if (why && len)
		snprintf(why, len, "%s", xmllib.error);
	return !xmllib.error[0];
}

/* The forwarders, each with the headers' prototype. */
#define XML_FORWARD_R(type, name, params, args) \
	type name params { return xmllib.fn.name args; }
#define XML_FORWARD_V(name, params, args) \
	void name params { xmllib.fn.name args; }
XML_FUNCTIONS(XML_FORWARD_R, XML_FORWARD_V)

#else /* libxml2 is linked: nothing to load */

bool xml_library_available(char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	return true;
}

#endif
