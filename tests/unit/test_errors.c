/*
 * test_errors.c - failed ops per flowop (--keep-going): errnos sorted
 * into kinds, the counts merged, loaded and differenced like every other
 * counter, the "Errors:" line byte for byte (and absent without
 * failures, so filebench's lines stay as they were), and the results
 * file's per-flowop numbers.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/measure/text.h"
#include "runtime/results/results.h"
#include "runtime/measure/stats.h"

#include "tests/unit/check_main.h"

START_TEST(test_kinds)
{
	ck_assert_int_eq(fo_err_kind_of(ENOSPC), FE_ENOSPC);
	ck_assert_int_eq(fo_err_kind_of(EDQUOT), FE_EDQUOT);
	ck_assert_int_eq(fo_err_kind_of(EIO), FE_EIO);
	ck_assert_int_eq(fo_err_kind_of(EROFS), FE_EROFS);
	ck_assert_int_eq(fo_err_kind_of(EACCES), FE_EACCES);
	ck_assert_int_eq(fo_err_kind_of(ENOENT), FE_ENOENT);
	ck_assert_int_eq(fo_err_kind_of(EBADF), FE_EBADF);
	ck_assert_int_eq(fo_err_kind_of(EPERM), FE_OTHER);
	ck_assert_int_eq(fo_err_kind_of(0), FE_OTHER);
	ck_assert_str_eq(fo_err_kind_name(FE_ENOSPC), "ENOSPC");
	ck_assert_str_eq(fo_err_kind_name(FE_EROFS), "EROFS");
	ck_assert_str_eq(fo_err_kind_name(FE_SHORT), "short");
	ck_assert_str_eq(fo_err_kind_name(FE_OTHER), "other");
	for (int k = 0; k < FE_NKINDS; k++)
		ck_assert_ptr_nonnull(fo_err_kind_name((enum fo_err_kind)k));
}
END_TEST

START_TEST(test_merge_load_diff)
{
	struct fo_stats *a = malloc(4 * sizeof(*a)), *b = a + 1, *sum = a + 2, *d = a + 3;

	fo_stats_init(a);
	fo_stats_init(b);
	fo_stats_init(sum);
	STATS_COUNT_ERROR(a, FE_ENOSPC);
	STATS_COUNT_ERROR(a, FE_ENOSPC);
	STATS_COUNT_ERROR(a, FE_SHORT);
	STATS_COUNT_ERROR(b, FE_ENOSPC);
	STATS_COUNT_ERROR(b, FE_EIO);
	ck_assert_uint_eq(fo_stats_errors(a), 3);
	/* merging needs no op: a thread whose every op failed still counts */
	fo_stats_merge(sum, a);
	fo_stats_merge(sum, b);
	ck_assert_uint_eq(sum->err[FE_ENOSPC], 3);
	ck_assert_uint_eq(sum->err[FE_SHORT], 1);
	ck_assert_uint_eq(sum->err[FE_EIO], 1);
	ck_assert_uint_eq(fo_stats_errors(sum), 5);
	ck_assert_uint_eq(sum->op.count, 0);
	fo_stats_load(d, sum);
	ck_assert_uint_eq(d->err[FE_ENOSPC], 3);
	ck_assert_uint_eq(fo_stats_errors(d), 5);
	/* an interval (or a warm-up baseline) subtracts */
	fo_stats_diff(d, sum, a);
	ck_assert_uint_eq(d->err[FE_ENOSPC], 1);
	ck_assert_uint_eq(d->err[FE_SHORT], 0);
	ck_assert_uint_eq(d->err[FE_EIO], 1);
	/* in place, as shared_sum_stats() does with the baseline */
	fo_stats_diff(a, sum, a);
	ck_assert_uint_eq(fo_stats_errors(a), 2);
	free(a);
}
END_TEST

/* Run `call` into a memory stream; `buf` gets what it printed. */
#define CAPTURE(buf, call)                                       \
	do {                                                     \
		size_t len_;                                     \
		FILE *out = open_memstream(&(buf), &len_);       \
		ck_assert_ptr_nonnull(out);                      \
		call;                                            \
		fclose(out);                                     \
	} while (0)

/* The text after the "<seconds>: " stamp. */
static const char *unstamped(const char *buf)
{
	const char *c = strstr(buf, ": ");

	ck_assert_ptr_nonnull(c);
	return c + 2;
}

START_TEST(test_errors_line)
{
	struct plan_flowop fo[3];
	struct fo_stats *st = malloc(3 * sizeof(*st));
	struct plan p = { .flowops = fo, .nflowops = 3 };
	char *buf = NULL;

	memset(fo, 0, sizeof(fo));
	fo[0].name = "read1";
	fo[1].name = "idle";
	fo[2].name = "rand-write1";
	for (int i = 0; i < 3; i++)
		fo_stats_init(&st[i]);
	/* no failure: no line at all */
	CAPTURE(buf, text_errors(out, &p, st));
	ck_assert_str_eq(buf, "");
	free(buf);
	for (int i = 0; i < 12; i++)
		STATS_COUNT_ERROR(&st[2], FE_ENOSPC);
	CAPTURE(buf, text_errors(out, &p, st));
	ck_assert_str_eq(unstamped(buf), "Errors: 12 (rand-write1 12: ENOSPC 12)\n");
	free(buf);
	/* newest flowop first, like the breakdown; kinds in a fixed order */
	STATS_COUNT_ERROR(&st[2], FE_SHORT);
	STATS_COUNT_ERROR(&st[0], FE_ENOENT);
	STATS_COUNT_ERROR(&st[0], FE_EIO);
	STATS_COUNT_ERROR(&st[0], FE_EIO);
	CAPTURE(buf, text_errors(out, &p, st));
	ck_assert_str_eq(unstamped(buf), "Errors: 16 (rand-write1 13: ENOSPC 12, "
			 "short 1; read1 3: EIO 2, ENOENT 1)\n");
	free(buf);
	free(st);
}
END_TEST

START_TEST(test_report_unchanged_without_errors)
{
	struct plan_flowop fo[1];
	struct fo_stats *st = malloc(sizeof(*st));
	struct plan p = { .flowops = fo, .nflowops = 1 };
	char *buf = NULL;

	memset(fo, 0, sizeof(fo));
	fo[0].name = "w1";
	fo[0].ops = flowop_registry_lookup(&flowops_registry, "write");
	fo_stats_init(st);
	fo_stats_record(st, 1000, 8192);
	CAPTURE(buf, text_report(out, &p, st, 1.0, NULL, 0));
	ck_assert_ptr_null(strstr(buf, "Errors"));
	free(buf);
	STATS_COUNT_ERROR(st, FE_EROFS);
	CAPTURE(buf, text_report(out, &p, st, 1.0, NULL, 0));
	ck_assert_ptr_nonnull(strstr(buf, ": Errors: 1 (w1 1: EROFS 1)\n"));
	/* the breakdown line itself is filebench's, whatever failed */
	ck_assert_ptr_nonnull(strstr(buf, "\nw1                   1ops        1ops/s"));
	free(buf);
	free(st);
}
END_TEST

START_TEST(test_results_flowop)
{
	struct plan_flowop fo[1];
	struct fo_stats *st = malloc(sizeof(*st));
	struct plan p = { .flowops = fo, .nflowops = 1 };
	struct results r;

	memset(fo, 0, sizeof(fo));
	fo[0].name = "w1";
	fo[0].ops = flowop_registry_lookup(&flowops_registry, "write");
	fo_stats_init(st);
	fo_stats_record(st, 1000, 8192);
	STATS_COUNT_ERROR(st, FE_ENOSPC);
	STATS_COUNT_ERROR(st, FE_ENOSPC);
	STATS_COUNT_ERROR(st, FE_EDQUOT);
	results_init(&r);
	ck_assert_int_eq(results_add_run(&r, &p, st, 1.0, 0), 0);
	ck_assert_uint_eq(r.runs[0].flowops[0].ops, 1);
	ck_assert_uint_eq(r.runs[0].flowops[0].errors, 3);
	ck_assert_uint_eq(r.runs[0].flowops[0].err[FE_ENOSPC], 2);
	ck_assert_uint_eq(r.runs[0].flowops[0].err[FE_EDQUOT], 1);
	results_free(&r);
	free(st);
}
END_TEST

static Suite *errors_suite(void)
{
	Suite *s = suite_create("errors");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kinds);
	tcase_add_test(tc, test_merge_load_diff);
	tcase_add_test(tc, test_errors_line);
	tcase_add_test(tc, test_report_unchanged_without_errors);
	tcase_add_test(tc, test_results_flowop);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(errors_suite)
