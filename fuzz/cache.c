/* cache.c - fuzz target: arbitrary bytes as an entry of the cache of
 * parsed files (src/spec/tree_cache.c, docs/cache.md).  The reader must
 * refuse what is not an entry without crashing, leaking or reading out of
 * bounds.  Each input is tried as it is (the checksum refuses nearly all)
 * and with its checksum made right, so that the structural checks behind
 * it (sizes, string offsets, parent links, depth, attribute counts) see
 * every mutation. */
#include "fuzz.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)spec_cache_entry_valid(data, size);
	/* a private copy, exactly as long as the input: a read past the end
	 * of the entry is a read past the end of this allocation */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (spec_cache_entry_seal(copy, size)) {
		bool valid = spec_cache_entry_valid(copy, size);
		/* sealing is idempotent and validity depends on the bytes only */
		spec_cache_entry_seal(copy, size);
		if (spec_cache_entry_valid(copy, size) != valid)
			abort();
	}
	free(copy);
	return 0;
}
