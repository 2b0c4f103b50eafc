/*
 * measure: run a command repeatedly and report wall time, CPU time and
 * peak resident memory.
 *
 *   measure [-n RUNS] [-w WARMUP] [--label LABEL] [--json]
 *           [--expect-exit N[,N...]] [--stdin FILE] -- COMMAND [ARGS...]
 *
 * The command's standard input is /dev/null, or FILE opened afresh for
 * every run (--stdin), so that each run reads the same input.
 *
 * It exists so that the figures in docs/benchmarks.md come from one small,
 * dependency-free tool that builds wherever isacheck builds, instead of from
 * whatever timing utility happens to be installed.
 *
 * Exit status: 0 on success; 2 on bad usage, if COMMAND cannot be started,
 * or if any run (warm-up included) ends with an unexpected status or signal,
 * because a timing of a failing command is not a timing of the real work.
 */

/* wait4() and struct rusage's ru_maxrss are BSD/Linux interfaces rather than
 * plain POSIX, so glibc only declares them with _DEFAULT_SOURCE. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    DEFAULT_RUNS = 20,
    DEFAULT_WARMUP = 2,
    MAX_RUNS = 100000,
    /* Warm-ups are not measured, so the same ceiling is merely a guard
     * against typos such as "-w 1000000". */
    MAX_WARMUP = 100000,
    /* Exit statuses as seen by the parent are 8 bits wide. */
    N_STATUSES = 256,
    /* Exit status used by the child if execvp fails; the parent learns the
     * real reason from the errno pipe, so the value itself does not matter
     * beyond being distinct from a successful exec. */
    EXEC_FAILED_STATUS = 127,
};

static const char usage_text[] =
    "usage: measure [-n RUNS] [-w WARMUP] [--label LABEL] [--json] "
    "[--expect-exit N[,N...]] [--stdin FILE] -- COMMAND [ARGS...]";

struct options {
    long runs;
    long warmup;
    const char *label;          /* NULL until defaulted from the command */
    bool json;
    bool expected[N_STATUSES];  /* expected[s]: exit status s is success */
    const char *stdin_path;     /* NULL: /dev/null */
    char **command;             /* NULL-terminated, points into argv */
};

struct sample {
    double wall_ms;
    double cpu_ms;
    long maxrss_kib;
};

/* Print a one-line usage error and exit 2.  The reason goes on the same line
 * so scripts that capture only the first line of stderr still see it. */
static _Noreturn void usage_error(const char *reason, const char *arg)
{
    if (arg != NULL)
        fprintf(stderr, "measure: %s '%s'; %s\n", reason, arg, usage_text);
    else
        fprintf(stderr, "measure: %s; %s\n", reason, usage_text);
    exit(2);
}

/* Parse a decimal integer in [lo, hi].  strtol alone would accept leading
 * blanks, signs and trailing junk and clamp on overflow; all are rejected. */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* "--expect-exit 0,1": the listed statuses replace the default {0}. */
static void parse_expect(const char *arg, bool expected[N_STATUSES])
{
    char buf[64];
    const char *p = arg;

    for (size_t i = 0; i < N_STATUSES; i++)
        expected[i] = false;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf)
            usage_error("bad --expect-exit list", arg);
        memcpy(buf, p, len);
        buf[len] = '\0';
        long v = 0;
        if (!parse_long(buf, 0, N_STATUSES - 1, &v))
            usage_error("bad --expect-exit list", arg);
        expected[v] = true;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
}

/* Options may be given as "-n 5" or, for the long ones, "--label=X"; the
 * command starts after "--" or at the first argument that is not an option,
 * so "measure /bin/true" works too. */
static void parse_args(int argc, char **argv, struct options *o)
{
    o->runs = DEFAULT_RUNS;
    o->warmup = DEFAULT_WARMUP;
    o->label = NULL;
    o->json = false;
    o->stdin_path = NULL;
    for (size_t i = 0; i < N_STATUSES; i++)
        o->expected[i] = (i == 0);
    o->command = NULL;

    int i = 1;
    while (i < argc) {
        const char *a = argv[i];
        const char *val = NULL;

        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf("%s\n", usage_text);
            exit(0);
        }
        if (strcmp(a, "--json") == 0) {
            o->json = true;
            i++;
            continue;
        }

        /* Everything else takes a value, either attached after '=' (long
         * options) or as the next argument. */
        const char *name = a;
        char namebuf[32];
        const char *eq = strchr(a, '=');
        if (a[1] == '-' && eq != NULL) {
            size_t n = (size_t)(eq - a);
            if (n >= sizeof namebuf)
                usage_error("unknown option", a);
            memcpy(namebuf, a, n);
            namebuf[n] = '\0';
            name = namebuf;
            val = eq + 1;
        } else {
            if (i + 1 >= argc)
                usage_error("missing value for", a);
            val = argv[i + 1];
            i++;
        }
        i++;

        if (strcmp(name, "-n") == 0 || strcmp(name, "--runs") == 0) {
            if (!parse_long(val, 1, MAX_RUNS, &o->runs))
                usage_error("RUNS must be 1..100000, got", val);
        } else if (strcmp(name, "-w") == 0 || strcmp(name, "--warmup") == 0) {
            if (!parse_long(val, 0, MAX_WARMUP, &o->warmup))
                usage_error("WARMUP must be 0..100000, got", val);
        } else if (strcmp(name, "--label") == 0) {
            o->label = val;
        } else if (strcmp(name, "--stdin") == 0) {
            if (access(val, R_OK) != 0)
                usage_error("cannot read the --stdin file", val);
            o->stdin_path = val;
        } else if (strcmp(name, "--expect-exit") == 0) {
            parse_expect(val, o->expected);
        } else {
            usage_error("unknown option", name);
        }
    }
    if (i >= argc)
        usage_error("no command given", NULL);
    o->command = &argv[i];
}

/* Default label: the command line joined by spaces, as the user typed it.
 * Returns NULL if out of memory. */
static char *join_command(char **cmd)
{
    size_t len = 1;
    for (char **p = cmd; *p != NULL; p++)
        len += strlen(*p) + 1;
    char *s = malloc(len);
    if (s == NULL)
        return NULL;
    s[0] = '\0';
    size_t pos = 0;
    for (char **p = cmd; *p != NULL; p++) {
        size_t n = strlen(*p);
        if (p != cmd)
            s[pos++] = ' ';
        memcpy(s + pos, *p, n);
        pos += n;
    }
    s[pos] = '\0';
    return s;
}

static double timespec_ms(const struct timespec *t0, const struct timespec *t1)
{
    return (double)(t1->tv_sec - t0->tv_sec) * 1e3
         + (double)(t1->tv_nsec - t0->tv_nsec) / 1e6;
}

static double timeval_ms(const struct timeval *t)
{
    return (double)t->tv_sec * 1e3 + (double)t->tv_usec / 1e3;
}

/* Child side of fork(): redirect stdio to /dev/null so the command's output
 * costs the same on every run and does not interleave with ours, then exec.
 * Only async-signal-safe calls are used, since we are in a forked child. */
static _Noreturn void run_child(char **cmd, const char *stdin_path, int devnull, int errpipe)
{
    int in = stdin_path ? open(stdin_path, O_RDONLY) : devnull;
    if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(devnull, STDOUT_FILENO) < 0
        || dup2(devnull, STDERR_FILENO) < 0) {
        int e = errno;
        ssize_t w = write(errpipe, &e, sizeof e);
        (void)w;
        _exit(EXEC_FAILED_STATUS);
    }
    execvp(cmd[0], cmd);
    /* Report errno through the close-on-exec pipe; the parent reads it
     * instead of guessing from an exit status the command might also use. */
    int e = errno;
    ssize_t w = write(errpipe, &e, sizeof e);
    (void)w;
    _exit(EXEC_FAILED_STATUS);
}

/* Run the command once.  Returns true and fills *s on success; on failure
 * prints the reason and returns false.  `what` names the run for messages. */
static bool run_once(const struct options *o, const char *label, int devnull,
                     const char *what, long index, struct sample *s)
{
    int pfd[2];
    if (pipe(pfd) < 0) {
        perror("measure: pipe");
        return false;
    }
    /* Close-on-exec on the write end means a successful exec closes it and
     * the parent's read() returns 0; only a failed exec writes errno. */
    if (fcntl(pfd[0], F_SETFD, FD_CLOEXEC) < 0
        || fcntl(pfd[1], F_SETFD, FD_CLOEXEC) < 0) {
        perror("measure: fcntl");
        close(pfd[0]);
        close(pfd[1]);
        return false;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        close(pfd[0]);
        close(pfd[1]);
        return false;
    }
    if (pid == 0) {
        close(pfd[0]);
        run_child(o->command, o->stdin_path, devnull, pfd[1]);
    }
    close(pfd[1]);

    int child_errno = 0;
    ssize_t got;
    do
        got = read(pfd[0], &child_errno, sizeof child_errno);
    while (got < 0 && errno == EINTR);
    close(pfd[0]);

    int status = 0;
    struct rusage ru;
    pid_t r;
    do
        r = wait4(pid, &status, 0, &ru);
    while (r < 0 && errno == EINTR);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r < 0) {
        perror("measure: wait4");
        return false;
    }

    if (got == (ssize_t)sizeof child_errno) {
        fprintf(stderr, "measure: cannot run '%s': %s\n", o->command[0],
                strerror(child_errno));
        return false;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        fprintf(stderr, "measure: %s: %s run %ld was killed by signal %d (%s)\n",
                label, what, index, sig, strsignal(sig));
        return false;
    }
    if (!WIFEXITED(status)) {
        fprintf(stderr, "measure: %s: %s run %ld ended with wait status 0x%x\n",
                label, what, index, (unsigned)status);
        return false;
    }
    int code = WEXITSTATUS(status);
    if (!o->expected[code]) {
        fprintf(stderr, "measure: %s: %s run %ld exited with status %d "
                "(expected", label, what, index, code);
        const char *sep = " ";
        for (int i = 0; i < N_STATUSES; i++) {
            if (o->expected[i]) {
                fprintf(stderr, "%s%d", sep, i);
                sep = ",";
            }
        }
        fprintf(stderr, ")\n");
        return false;
    }

    s->wall_ms = timespec_ms(&t0, &t1);
    s->cpu_ms = timeval_ms(&ru.ru_utime) + timeval_ms(&ru.ru_stime);
    s->maxrss_kib = ru.ru_maxrss;  /* Linux reports KiB */
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place; the median of an even count is the mean of the middle
 * two so that e.g. -n 2 does not silently report the minimum. */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    if (n % 2 == 1)
        return v[n / 2];
    return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* JSON string escaping: quotes, backslashes and control characters; other
 * bytes pass through, on the assumption that labels are UTF-8. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", (unsigned)*p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Warm-up runs, then n measured runs into wall[] and cpu[]; *peak_kib gets
 * the largest ru_maxrss seen.  Returns false after the first failed run. */
static bool run_all(const struct options *o, const char *label, int devnull,
                    double *wall, double *cpu, size_t n, long *peak_kib)
{
    struct sample s;
    for (long i = 0; i < o->warmup; i++)
        if (!run_once(o, label, devnull, "warm-up", i + 1, &s))
            return false;

    /* Peak RSS is the maximum over runs, not a median: the question it
     * answers is "how much memory must be available", and a single bad run
     * is exactly what that figure should reveal. */
    *peak_kib = 0;
    for (size_t i = 0; i < n; i++) {
        if (!run_once(o, label, devnull, "measured", (long)i + 1, &s))
            return false;
        wall[i] = s.wall_ms;
        cpu[i] = s.cpu_ms;
        if (s.maxrss_kib > *peak_kib)
            *peak_kib = s.maxrss_kib;
    }
    return true;
}

static void report(const struct options *o, const char *label,
                   double *wall, double *cpu, size_t n, long peak_kib)
{
    double wall_med = median(wall, n);  /* sorts wall: min/max are the ends */
    double cpu_med = median(cpu, n);

    if (o->json) {
        fputs("{\"label\":", stdout);
        json_string(stdout, label);
        printf(",\"runs\":%zu,\"wall_ms\":{\"min\":%.3f,\"median\":%.3f,"
               "\"max\":%.3f},\"cpu_ms_median\":%.3f,\"peak_rss_kib\":%ld}\n",
               n, wall[0], wall_med, wall[n - 1], cpu_med, peak_kib);
    } else {
        printf("%s: wall min %.2f ms, median %.2f ms, max %.2f ms; "
               "cpu median %.1f ms; peak RSS %.1f MiB (max over %zu run%s)\n",
               label, wall[0], wall_med, wall[n - 1], cpu_med,
               (double)peak_kib / 1024.0, n, n == 1 ? "" : "s");
    }
}

int main(int argc, char **argv)
{
    struct options o;
    parse_args(argc, argv, &o);

    /* Opened once here rather than in every child, so the per-run cost being
     * measured does not include an extra open(). */
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) {
        perror("measure: /dev/null");
        return 2;
    }

    /* Keep measure's own memory small: on Linux a forked child inherits the
     * parent's resident anonymous pages into its ru_maxrss (the counter is
     * taken from the pre-exec copy of our address space), so everything we
     * allocate here raises the floor of the reported peak RSS.  Two doubles
     * per run is 16 bytes, well under a page for the usual run counts. */
    size_t n = (size_t)o.runs;
    char *joined = o.label == NULL ? join_command(o.command) : NULL;
    const char *label = o.label != NULL ? o.label : joined;
    double *wall = calloc(n, sizeof *wall);
    double *cpu = calloc(n, sizeof *cpu);
    int rc = 2;
    long peak_kib = 0;

    if (label == NULL || wall == NULL || cpu == NULL) {
        perror("measure: out of memory");
        goto out;
    }

    /* Flush before forking so buffered output cannot be duplicated into a
     * child (they exec or _exit, but stdout may be a pipe shared with us). */
    fflush(NULL);
    if (!run_all(&o, label, devnull, wall, cpu, n, &peak_kib))
        goto out;
    report(&o, label, wall, cpu, n, peak_kib);

    /* A benchmark whose result line was lost (full disk, closed pipe) must
     * not look successful to the calling script. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("measure: stdout");
        goto out;
    }
    rc = 0;
out:
    close(devnull);
    free(wall);
    free(cpu);
    free(joined);
    return rc;
}
