/*
 * output.c - reports written whole or not at all.
 *
 * A report that a CI job keeps must never be half of one: a full disk, a
 * killed run or a write error would otherwise leave a truncated file over
 * the last good one, and `--output=spec.xml spec.xml` would destroy the
 * spec it reads.  So an --output file is written to a temporary file
 * beside it (same directory: the rename is atomic) and renamed over the
 * target only when every write, the flush and the close succeeded; an
 * output that is one of the command's inputs is refused before anything
 * is read.  Standard output cannot be undone, but its errors are not
 * ignored: `check x.xml > /dev/full` exits 2.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether path names the same file as one of inputs (device and inode,
 * so links and other spellings count). */
static bool is_an_input(const char *path, const char *const *inputs, size_t n)
{
	struct stat out;
	if (stat(path, &out) != 0)
		return false; /* does not exist yet: cannot be an input */
	for (size_t i = 0; i < n; i++) {
		struct stat in;
		if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino)
			return true;
	}
	return false;
}

bool output_open(output_file *o, const char *cmd, const char *path, bool binary,
                 const char *const *inputs, size_t ninputs)
{
	*o = (output_file){.cmd = cmd, .f = stdout};
	if (!path || !strcmp(path, "-"))
		return true;
	if (is_an_input(path, inputs, ninputs)) {
		fprintf(stderr, "isacheck %s: --output '%s' is one of the inputs: refusing to "
		        "overwrite it\n", cmd, path);
		return false;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "isacheck %s: --output '%s' is not a regular file\n", cmd, path);
		return false;
	}
	size_t len = strlen(path);
	o->path = strdup(path);
	o->tmp = malloc(len + 16);
	if (!o->path || !o->tmp) {
		fprintf(stderr, "isacheck %s: out of memory\n", cmd);
		output_abort(o);
		return false;
	}
	snprintf(o->tmp, len + 16, "%s.tmp-XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, binary ? "wb" : "w"))) {
		fprintf(stderr, "isacheck %s: cannot write '%s': %s\n", cmd, path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		o->f = NULL;
		output_abort(o);
		return false;
	}
	/* the report is as readable as a file the user would have made */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return true;
}

bool output_commit(output_file *o)
{
	bool ok = true;
	if (!o->f)
		return false;
	if (o->f == stdout) {
		ok = fflush(stdout) == 0 && !ferror(stdout);
		if (!ok)
			fprintf(stderr, "isacheck %s: error writing standard output: %s\n", o->cmd,
			        strerror(errno ? errno : EIO));
		*o = (output_file){0};
		return ok;
	}
	ok = !ferror(o->f);
	ok = fflush(o->f) == 0 && ok;
	ok = fsync(fileno(o->f)) == 0 && ok;
	ok = fclose(o->f) == 0 && ok;
	o->f = NULL;
	if (ok && rename(o->tmp, o->path) != 0)
		ok = false;
	if (!ok) {
		fprintf(stderr, "isacheck %s: error writing '%s': %s; it is left as it was\n", o->cmd,
		        o->path, strerror(errno ? errno : EIO));
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	*o = (output_file){0};
	return ok;
}

void output_abort(output_file *o)
{
	if (o->f && o->f != stdout) {
		fclose(o->f);
		unlink(o->tmp);
	} else if (o->f == stdout) {
		fflush(stdout);
	}
	free(o->tmp);
	free(o->path);
	*o = (output_file){0};
}

FILE *input_open_err(const char *path, const char *mode, char *err, size_t errlen)
{
	if (!strcmp(path, "-"))
		return stdin;
	char why[200];
	int e;
	FILE *f = spec_fopen_regular(path, mode, why, sizeof why, &e);
	if (!f)
		snprintf(err, errlen, "%s%s", e ? "cannot read: " : "", why);
	return f;
}

FILE *input_open(const char *cmd, const char *path, const char *mode)
{
	char err[600];
	FILE *f = input_open_err(path, mode, err, sizeof err);
	if (!f)
		fprintf(stderr, "isacheck %s: %s: %s\n", cmd, path, err);
	return f;
}
