/*
 * test_threadlog.c - a thread instance's per-op logs (runtime/engine/
 * threadlog.h): its writers from the run's table by slot (none: nothing
 * allocated), times from its epoch, a synchronous op's one latency as lat
 * and clat, an asynchronous op's slat, clat and lat from its three ticks
 * (thread_record_split()'s), direction from the flowop's rw mark, no line
 * for a flowop that neither reads nor writes, every set fed, the last
 * window at the end.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plan/flowop.h"
#include "runtime/engine/threadlog.h"
#include "runtime/measure/oplog.h"

#include "tests/unit/check_main.h"

static char *text_of(int fd)
{
	off_t n = lseek(fd, 0, SEEK_END);
	char *s = malloc((size_t)n + 1);

	ck_assert_int_eq(pread(fd, s, (size_t)n, 0), n);
	s[n] = '\0';
	return s;
}

static void expect(int fd, const char *want)
{
	char *got = text_of(fd);

	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_thread_log)
{
	struct plan_oplog raw = { .prefix = { "r", NULL, NULL, NULL }, .offset = true };
	struct plan_oplog avg = { .prefix = { "a", NULL, NULL, NULL }, .avg_msec = 10 };
	struct oplog_target tg[2 * OPLOG_SETS];
	struct oplog_files files = { 2, tg };
	struct clock_scale clk = { .tsc = false, .mult = 1ull << 32 };   /* ticks: ns */
	struct thread_log none, l;
	const uint64_t e = 1000000000;    /* the epoch, ns */
	char msg[128];

	memset(tg, 0, sizeof(tg));
	for (int i = 0; i < 2 * OPLOG_SETS; i++)
		for (int f = 0; f < OPLOG_NFILES; f++)
			tg[i].fd[f] = -1;
	tg[2].conf = &raw;                /* slot 1: the command line's set ... */
	tg[3].conf = &avg;                /* ... and its process's */
	for (int f = OPLOG_LAT; f <= OPLOG_SLAT; f++) {
		tg[2].fd[f] = memfd_create("raw", 0);
		tg[3].fd[f] = memfd_create("avg", 0);
		tg[2].path[f] = "r";
		tg[3].path[f] = "a";
	}

	ck_assert_int_eq(thread_log_prepare(&none, &files, 0), 0);
	ck_assert_int_eq(none.n, 0);
	ck_assert_ptr_null(none.w);
	ck_assert_int_eq(thread_log_prepare(&none, NULL, 1), 0);
	ck_assert_int_eq(none.n, 0);

	ck_assert_int_eq(thread_log_prepare(&l, &files, 1), 0);
	ck_assert_int_eq(l.n, 2);
	thread_log_start(&l, &clk, e);
	/* a synchronous read: 0.5 ms, ending 1.5 ms after the epoch */
	ck_assert_int_eq(thread_log_op(&l, &clk, FLOWOP_RW_READ,
				       &(struct thread_log_times){ UINT64_MAX, e + 1000000,
								   e + 1500000, 500000 },
				       4096, 8192), 0);
	/* an asynchronous write: submitted at 2 ms, issued 1 us later, reaped at 3 ms */
	ck_assert_int_eq(thread_log_op(&l, &clk, FLOWOP_RW_WRITE,
				       &(struct thread_log_times){ e + 2000000, e + 2001000,
								   e + 3000000, 999000 },
				       512, 4096), 0);
	/* an fsync, a limit: no line */
	ck_assert_int_eq(thread_log_op(&l, &clk, FLOWOP_RW_NONE,
				       &(struct thread_log_times){ UINT64_MAX, e + 4000000,
								   e + 5000000, 1000000 },
				       0, 0), 0);
	ck_assert_int_eq(thread_log_finish(&l, &clk, e + 7000000), 0);
	expect(tg[2].fd[OPLOG_LAT], "1, 500000, 0, 4096, 8192, 0\n3, 1000000, 1, 512, 4096, 0\n");
	expect(tg[2].fd[OPLOG_CLAT], "1, 500000, 0, 4096, 8192, 0\n3, 999000, 1, 512, 4096, 0\n");
	expect(tg[2].fd[OPLOG_SLAT], "3, 1000, 1, 512, 4096, 0\n");
	/* the averaged set: one window, cut at the end (7 ms) */
	expect(tg[3].fd[OPLOG_LAT], "7, 500000, 0, 0, 0\n7, 1000000, 1, 0, 0\n");
	expect(tg[3].fd[OPLOG_SLAT], "7, 1000, 1, 0, 0\n");
	thread_log_error(&l, msg, sizeof(msg));
	ck_assert_str_eq(msg, "cannot write the per-op logs");
	thread_log_free(&l);
	ck_assert_ptr_null(l.w);
	for (int i = 2; i < 4; i++)
		for (int f = OPLOG_LAT; f <= OPLOG_SLAT; f++)
			close(tg[i].fd[f]);
}
END_TEST

static Suite *threadlog_suite(void)
{
	Suite *s = suite_create("threadlog");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_thread_log);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(threadlog_suite)
