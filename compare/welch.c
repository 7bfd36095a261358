/*
 * welch.c - Welch's t-test for `flowbench compare`, with the t
 * distribution computed here (no statistics library is a dependency):
 * its CDF is a regularized incomplete beta function, evaluated with a
 * continued fraction by the modified Lentz method.
 */
#include "compare/welch.h"

#include <math.h>

struct welch_sample welch_sample_of(const double *v, int n)
{
	struct welch_sample s = { .n = n };
	double sum = 0, sq = 0;

	if (n <= 0)
		return s;
	for (int i = 0; i < n; i++)
		sum += v[i];
	s.mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (v[i] - s.mean) * (v[i] - s.mean);
	if (n > 1)
		s.stdev = sqrt(sq / (n - 1));
	return s;
}

double welch_diff_pct(const struct welch_sample *base,
		      const struct welch_sample *s)
{
	if (base->n == 0 || s->n == 0 || base->mean == 0)
		return NAN;
	return (s->mean - base->mean) / fabs(base->mean) * 100.0;
}

/*
 * The continued fraction of I_x(a, b) / (x^a (1-x)^b / (a B(a, b))):
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))) with
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))
 *   d(2m)   = m (b-m) x / ((a+2m-1)(a+2m)).
 * It converges quickly for x < (a+1)/(a+b+2); the caller uses the
 * symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	f = d;
	for (int m = 1; m <= 1000; m++) {
		double num, delta;

		/* even step: d(2m) */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		f *= c * d;
		/* odd step: d(2m+1) */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < eps)
			break;
	}
	return f;
}

double welch_incbeta(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / B(a, b), in logarithms to stay in range */
	front = exp(a * log(x) + b * log1p(-x) +
		    lgamma(a + b) - lgamma(a) - lgamma(b));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double welch_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	tail = welch_incbeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail / 2 : tail / 2;
}

struct welch welch_test(const struct welch_sample *a,
			const struct welch_sample *b)
{
	struct welch w = { .valid = false, .t = NAN, .df = NAN, .p = NAN };
	double va, vb, se;

	if (a->n < 2 || b->n < 2)
		return w;
	w.valid = true;
	va = a->stdev * a->stdev / a->n;
	vb = b->stdev * b->stdev / b->n;
	se = sqrt(va + vb);
	if (se == 0 || !isfinite(se)) {
		w.t = a->mean == b->mean ? 0 : copysign(INFINITY, a->mean - b->mean);
		w.df = a->n + b->n - 2;
		w.p = a->mean == b->mean ? 1.0 : 0.0;
		return w;
	}
	w.t = (a->mean - b->mean) / se;
	w.df = (va + vb) * (va + vb) /
	       (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	w.p = 2.0 * welch_t_cdf(-fabs(w.t), w.df);
	if (w.p > 1.0)
		w.p = 1.0;
	return w;
}
