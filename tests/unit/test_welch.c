/*
 * test_welch.c - the statistics of `flowbench compare` against values
 * that do not depend on this code: closed forms of the t distribution
 * (1 and 2 degrees of freedom), Student's t table, the incomplete beta
 * function's special cases, and Welch's test worked by hand.
 */
#include <check.h>
#include <math.h>

#include "compare/welch.h"

#include "tests/unit/check_main.h"

START_TEST(test_sample)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct welch_sample s = welch_sample_of(v, 8);

	ck_assert_int_eq(s.n, 8);
	ck_assert_double_eq_tol(s.mean, 5.0, 1e-12);
	ck_assert_double_eq_tol(s.stdev, sqrt(32.0 / 7.0), 1e-12);
	s = welch_sample_of(v, 1);
	ck_assert_double_eq_tol(s.mean, 2.0, 1e-12);
	ck_assert_double_eq(s.stdev, 0.0);
}
END_TEST

START_TEST(test_incbeta_special)
{
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1-x)^b */
	for (double x = 0.05; x < 1; x += 0.1) {
		ck_assert_double_eq_tol(welch_incbeta(1, 1, x), x, 1e-12);
		ck_assert_double_eq_tol(welch_incbeta(3.5, 1, x), pow(x, 3.5), 1e-12);
		ck_assert_double_eq_tol(welch_incbeta(1, 4, x), 1 - pow(1 - x, 4), 1e-12);
		/* symmetry */
		ck_assert_double_eq_tol(welch_incbeta(2.5, 7, x), 1 - welch_incbeta(7, 2.5, 1 - x), 1e-12);
	}
	ck_assert_double_eq_tol(welch_incbeta(0.5, 0.5, 0.5), 0.5, 1e-12);
	ck_assert(isnan(welch_incbeta(-1, 1, 0.5)));
	ck_assert(isnan(welch_incbeta(1, 1, 1.5)));
}
END_TEST

START_TEST(test_t_cdf_closed_forms)
{
	for (double t = -30; t <= 30; t += 0.37) {
		/* df = 1 is Cauchy; df = 2 has 1/2 + t / (2 sqrt(2 + t^2)) */
		ck_assert_double_eq_tol(welch_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		ck_assert_double_eq_tol(welch_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	/* df = 4: 1/2 + 3/8 u (1 - t^2 / (12 (1 + t^2/4))), u = t / sqrt(1 + t^2/4) */
	for (double t = -12; t <= 12; t += 0.29) {
		double q = 1 + t * t / 4;

		ck_assert_double_eq_tol(welch_t_cdf(t, 4),
			0.5 + 0.375 * t / sqrt(q) * (1 - t * t / (12 * q)), 1e-12);
	}
	ck_assert_double_eq_tol(welch_t_cdf(0, 7), 0.5, 1e-15);
	ck_assert_double_eq(welch_t_cdf(INFINITY, 3), 1.0);
	ck_assert_double_eq(welch_t_cdf(-INFINITY, 3), 0.0);
	/* a very large df is the standard normal: Phi(1.959964) = 0.975 */
	ck_assert_double_eq_tol(welch_t_cdf(1.959964, 1e7), 0.975, 1e-6);
}
END_TEST

START_TEST(test_t_cdf_table)
{
	/* Student's t table: upper critical values t(p, df) */
	static const struct { double df, t, p; } table[] = {
		{ 1, 12.706, 0.975 }, { 2, 4.303, 0.975 }, { 3, 3.182, 0.975 },
		{ 4, 2.776, 0.975 }, { 5, 2.571, 0.975 }, { 10, 2.228, 0.975 },
		{ 30, 2.042, 0.975 }, { 5, 2.015, 0.95 }, { 10, 1.812, 0.95 },
		{ 5, 4.032, 0.995 }, { 20, 2.845, 0.995 }, { 120, 1.980, 0.975 },
		{ 8, 1.397, 0.90 }, { 15, 3.733, 0.999 },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		ck_assert_double_eq_tol(welch_t_cdf(table[i].t, table[i].df), table[i].p, 2e-4);
		ck_assert_double_eq_tol(welch_t_cdf(-table[i].t, table[i].df), 1 - table[i].p, 2e-4);
	}
	/* fractional degrees of freedom, as Welch's test produces */
	ck_assert(welch_t_cdf(2.0, 4.5) > welch_t_cdf(2.0, 4));
	ck_assert(welch_t_cdf(2.0, 4.5) < welch_t_cdf(2.0, 5));
}
END_TEST

START_TEST(test_welch_by_hand)
{
	/*
	 * {1, 3} against {5, 7}: means 2 and 6, variances 2, so the standard
	 * error is sqrt(2/2 + 2/2) = sqrt(2), t = -4/sqrt(2) = -2.8284 and the
	 * Welch-Satterthwaite df = 2; p = 1 - |t| / sqrt(2 + t^2) = 0.105573.
	 */
	const double a[] = { 1, 3 }, b[] = { 5, 7 };
	struct welch_sample sa = welch_sample_of(a, 2), sb = welch_sample_of(b, 2);
	struct welch w = welch_test(&sa, &sb);

	ck_assert(w.valid);
	ck_assert_double_eq_tol(w.t, -2.0 * sqrt(2.0), 1e-12);
	ck_assert_double_eq_tol(w.df, 2.0, 1e-12);
	ck_assert_double_eq_tol(w.p, 1 - sqrt(8.0) / sqrt(10.0), 1e-10);
}
END_TEST

START_TEST(test_welch_unequal)
{
	/*
	 * Unequal sizes and variances: a = {10, 12, 14} (var 4, n 3), b = {20,
	 * 30} (var 50, n 2): se^2 = 4/3 + 25, t = -13 / sqrt(26.333),
	 * df = 26.333^2 / ((4/3)^2 / 2 + 25^2 / 1) = 1.108...
	 */
	const double a[] = { 10, 12, 14 }, b[] = { 20, 30 };
	struct welch_sample sa = welch_sample_of(a, 3), sb = welch_sample_of(b, 2);
	struct welch w = welch_test(&sa, &sb);
	double v = 4.0 / 3 + 25, df = v * v / ((4.0 / 3) * (4.0 / 3) / 2 + 625);

	ck_assert_double_eq_tol(w.t, -13 / sqrt(v), 1e-12);
	ck_assert_double_eq_tol(w.df, df, 1e-12);
	ck_assert_double_eq_tol(w.p, 2 * welch_t_cdf(-13 / sqrt(v), df), 1e-12);
	ck_assert(w.p > 0.05);          /* wide spread, two runs: not enough */
}
END_TEST

START_TEST(test_welch_edge_cases)
{
	const double one[] = { 5 }, same[] = { 3, 3, 3 }, other[] = { 4, 4 };
	struct welch_sample s1 = welch_sample_of(one, 1), s3 = welch_sample_of(same, 3);
	struct welch_sample s4 = welch_sample_of(other, 2);
	struct welch w;

	w = welch_test(&s1, &s3);       /* one run: no test */
	ck_assert(!w.valid);
	ck_assert(isnan(w.p));
	w = welch_test(&s3, &s3);       /* no spread, same mean */
	ck_assert(w.valid);
	ck_assert_double_eq(w.p, 1.0);
	w = welch_test(&s3, &s4);       /* no spread, different means */
	ck_assert_double_eq(w.p, 0.0);
}
END_TEST

START_TEST(test_welch_significance)
{
	/* the fixtures of test_compare: reads differ, writes do not */
	const double ra[] = { 1000, 1010, 990 }, rb[] = { 1100, 1110, 1090 };
	const double wa[] = { 500, 520, 480 }, wb[] = { 505, 525, 485 };
	struct welch_sample a = welch_sample_of(ra, 3), b = welch_sample_of(rb, 3);
	struct welch w = welch_test(&a, &b);

	/* t = -100 / sqrt(200/3) = -12.247, df = 4 */
	ck_assert_double_eq_tol(w.df, 4.0, 1e-12);
	ck_assert(w.p < 0.001);
	ck_assert(w.p > 0.0001);
	a = welch_sample_of(wa, 3);
	b = welch_sample_of(wb, 3);
	w = welch_test(&a, &b);
	/* t = -5 / sqrt(800/3) = -0.306, df = 4: p = 0.775 */
	ck_assert_double_eq_tol(w.p, 0.775, 0.002);
}
END_TEST

static Suite *welch_suite(void)
{
	Suite *s = suite_create("welch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sample);
	tcase_add_test(tc, test_incbeta_special);
	tcase_add_test(tc, test_t_cdf_closed_forms);
	tcase_add_test(tc, test_t_cdf_table);
	tcase_add_test(tc, test_welch_by_hand);
	tcase_add_test(tc, test_welch_unequal);
	tcase_add_test(tc, test_welch_edge_cases);
	tcase_add_test(tc, test_welch_significance);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(welch_suite)
