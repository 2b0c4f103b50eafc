/* args.c - reading the numbers that options of every command take. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "check.h"
#include "cli.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool parse_printer_arg(const char *s, prove_options *opt)
{
	if (!strcmp(s, "mesa"))
		opt->printer = PROVE_PRINTER_MESA;
	else if (!strcmp(s, "afuc"))
		opt->printer = PROVE_PRINTER_AFUC;
	else
		return false;
	return true;
}

bool parse_uint_arg(const char *s, unsigned *out)
{
	char *end;
	/* strtoul takes "-1", " 7" and "+7" too (a minus negates: "-18446744073709551615"
	 * would read as 1): only digits are a number here */
	if (*s < '0' || *s > '9')
		return false;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v > 1000000000ul)
		return false;
	*out = (unsigned)v;
	return true;
}

bool parse_ulong_arg(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false; /* no sign, no blank: see parse_uint_arg */
	errno = 0;
	*out = strtoul(s, &end, 0);
	return !*end && !errno && *out <= max;
}

const char *parse_jobs_arg(int argc, char **argv, int *i, unsigned max, unsigned *jobs)
{
	const char *a = argv[*i];
	const char *v = !strncmp(a, "--jobs=", 7) ? a + 7 : a[2] ? a + 2
	                : *i + 1 < argc ? argv[++*i] : "";
	return parse_uint_arg(v, jobs) && *jobs >= 1 && *jobs <= max ? NULL : v;
}

/* The cores this process may run on, as nproc counts them: its CPU
 * affinity (taskset, a container's cpuset), not every core online, which
 * would start more threads than can run at once.  The cores online only
 * where the affinity cannot be read (over 1024 CPUs: a larger set than
 * cpu_set_t).  A quota of CPU time (cgroup cpu.max) is not counted,
 * as nproc does not. */
unsigned default_jobs(unsigned max)
{
	long cores = 0;
#ifdef CPU_COUNT
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		cores = CPU_COUNT(&set);
#endif
	if (cores < 1)
		cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores < 1 ? 1 : (unsigned long)cores > max ? max : (unsigned)cores;
}

const char *cache_dir_for(bool disabled, char *buf, size_t len)
{
	if (disabled)
		return NULL;
	const char *dir = getenv("ISACHECK_CACHE_DIR");
	if (dir && *dir)
		return dir;
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;
	/* the XDG base directory rules: a relative XDG_CACHE_HOME is ignored */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/isacheck", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/isacheck", home);
	else
		return NULL;
	return n > 0 && (size_t)n < len ? buf : NULL;
}
