/*
 * welch.h - the statistics behind `flowbench compare`: sample mean and
 * standard deviation, Student's t distribution and Welch's unequal
 * variances t-test.  Pure functions of their arguments, no state.
 */
#ifndef FLOWBENCH_COMPARE_WELCH_H
#define FLOWBENCH_COMPARE_WELCH_H

#include <stdbool.h>

/* Mean, sample standard deviation (n - 1) and count of some values. */
struct welch_sample {
	int n;
	double mean;
	double stdev;          /* 0 when n < 2 */
};

struct welch_sample welch_sample_of(const double *v, int n);

/*
 * The change of s's mean against base's, in percent of |base's mean|
 * (compare's and report's %diff); NaN when a side has no value or the
 * baseline's mean is 0.
 */
double welch_diff_pct(const struct welch_sample *base,
		      const struct welch_sample *s);

/*
 * The regularized incomplete beta function I_x(a, b), a, b > 0,
 * 0 <= x <= 1; NaN outside that domain.
 */
double welch_incbeta(double a, double b, double x);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double welch_t_cdf(double t, double df);

struct welch {
	bool valid;            /* false when a side has fewer than 2 values */
	double t;              /* (mean_a - mean_b) / standard error */
	double df;             /* Welch-Satterthwaite degrees of freedom */
	double p;              /* two-sided p-value */
};

/*
 * Welch's t-test of "a and b have the same mean".  Two samples without
 * any spread compare exactly: p = 1 if their means are equal, else 0.
 */
struct welch welch_test(const struct welch_sample *a,
			const struct welch_sample *b);

/* The p-value under which compare and report call a difference significant. */
#define WELCH_SIGNIFICANCE 0.05

#endif
