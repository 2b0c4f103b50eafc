/*
 * test_watchdog.c - testlib.h's watchdog (ISACHECK_TEST_WATCHDOG): a test
 * program that hangs says which test hung and what it and everything it
 * started were doing, and stops them all, instead of being killed by
 * ctest's timeout without a word.
 *
 * The program runs itself with the argument "hang" and a 2-second
 * watchdog: that child finishes one test, then starts a `sleep` that
 * would outlast this test's TIMEOUT and waits for it.  The child must
 * exit 1, with the finished test's line (flushed before the alarm), the
 * hung test's name, a listing that shows the sleep, and the sleep killed:
 * it holds the pipe this test reads, so without the kill the read would
 * wait out the sleep.
 */
#include "testlib.h"

static const char *self;

TEST(quick_first)
{
	CHECK(1 + 1 == 2);
}

/* The child's hung test: a command that outlasts the watchdog. */
TEST(hangs_in_a_command)
{
	CHECK_INT(system("sleep 291.25"), 0);
}

TEST(watchdog_reports_and_stops)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "ISACHECK_TEST_WATCHDOG=2 '%s' hang 2>&1; echo \"exit $?\"", self);
	char *out = NULL;
	CHECK_INT(testlib_run_capture(cmd, &out), 0);
	const char *o = out ? out : "";
	CHECK(strstr(o, "ok   quick_first (") != NULL);
	CHECK(strstr(o, "ok   hangs_in_a_command") == NULL);
	CHECK(strstr(o, "watchdog: test hangs_in_a_command still running after 2 s") != NULL);
	CHECK(strstr(o, "watchdog: the test (pid ") != NULL);
	CHECK(strstr(o, "sleep 291.25") != NULL);
	CHECK(strstr(o, "exit 1\n") != NULL);
	if (system("command -v gdb >/dev/null 2>&1") == 0)
		CHECK(strstr(o, "watchdog: stacks of pid ") != NULL);
	else
		CHECK(strstr(o, "gdb is not installed") != NULL);
	/* the sleep is gone (no command line of /proc is it; the pattern's
	 * own does not match itself) */
	snprintf(cmd, sizeof cmd, "for d in /proc/[0-9]*; do tr '\\0' ' ' < $d/cmdline; echo; "
	         "done 2>/dev/null | grep -c '^sleep 291[.]25'");
	char *left = NULL;
	CHECK_INT(testlib_run_capture(cmd, &left), 1);
	CHECK_STR(left, "0\n");
	if (testlib_failures)
		fprintf(stderr, "the child printed:\n%s\n", o);
	free(left);
	free(out);
}

int main(int argc, char **argv)
{
	self = argv[0];
	if (argc > 1 && !strcmp(argv[1], "hang")) {
		RUN(quick_first);
		RUN(hangs_in_a_command);
		return testlib_finish();
	}
	RUN(watchdog_reports_and_stops);
	return testlib_finish();
}
