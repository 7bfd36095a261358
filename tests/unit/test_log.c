/*
 * test_log.c - the log module's lines: each one reaches its stream in a
 * single write, so the lines of processes sharing a stderr (flowbench-mpi's
 * ranks under mpirun, workers) never interleave mid-line, as they did
 * when the prefix, the message and the newline were three writes; and a
 * line longer than the module's buffer is still written whole.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"

#include "tests/unit/check_main.h"

/* An unbuffered stream that counts the writes it is given, and keeps them. */
struct sink {
	int writes;
	char text[16384];
	size_t len;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct sink *s = cookie;
	size_t room = sizeof(s->text) - 1 - s->len;
	size_t n = size < room ? size : room;

	s->writes++;
	memcpy(s->text + s->len, buf, n);
	s->len += n;
	s->text[s->len] = '\0';
	return (ssize_t)size;
}

static FILE *sink_open(struct sink *s)
{
	cookie_io_functions_t io = { .write = sink_write };
	FILE *f;

	memset(s, 0, sizeof(*s));
	f = fopencookie(s, "w", io);
	ck_assert_ptr_nonnull(f);
	setvbuf(f, NULL, _IONBF, 0);    /* as stderr */
	return f;
}

START_TEST(test_one_write_per_line)
{
	struct sink s;
	FILE *f = sink_open(&s);

	log_error_to(f, "rank %d (%s): flowop %s: %s", 1, "vm", "app", "No space left on device");
	ck_assert_int_eq(s.writes, 1);
	ck_assert_str_eq(s.text, "flowbench: error: rank 1 (vm): flowop app: No space left on device\n");
	fclose(f);
}
END_TEST

START_TEST(test_long_line_whole)
{
	static char big[10000];
	struct sink s;
	FILE *f = sink_open(&s);

	memset(big, 'x', sizeof(big) - 1);
	log_error_to(f, "%s!", big);
	ck_assert_uint_eq(s.len, strlen("flowbench: error: ") + sizeof(big) - 1 + 2);
	ck_assert_int_eq(strncmp(s.text, "flowbench: error: xxx", 21), 0);
	ck_assert_str_eq(s.text + s.len - 3, "x!\n");
	fclose(f);
}
END_TEST

static Suite *log_suite(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_one_write_per_line);
	tcase_add_test(tc, test_long_line_whole);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(log_suite)
