/* args.c - reading the numbers that options of every command take. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

bool parse_uint_arg(const char *s, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || v > 1000000000ul)
		return false;
	*out = (unsigned)v;
	return true;
}

bool parse_ulong_arg(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	*out = strtoul(s, &end, 0);
	return *s && !*end && !errno && *out <= max;
}
