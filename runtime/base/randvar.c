/*
 * randvar.c - WML random variables, the runtime's half: one sample is a
 * few arithmetic operations on the caller's own generator (polar normal,
 * Marsaglia-Tsang gamma, inversion for the others): no allocation, no
 * lock, no system call.  The compiler built and checked the variable
 * (lang/rvspec.c).
 */
#include "runtime/base/randvar.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/rng.h"

/* ---- sampling -------------------------------------------------------- */

static double sample_uniform(const struct plan_randvar *rv, struct rng *r)
{
	return rv->p[0] + rv->p[1] * rng_double(r);
}

static double sample_gamma(const struct plan_randvar *rv, struct rng *r)
{
	return rv->p[2] + rv->p[1] * rng_gamma(r, rv->p[0]);
}

/* The last row takes every draw past the one before it (no rounding gap). */
static double sample_tabular(const struct plan_randvar *rv, struct rng *r)
{
	double u = rng_double(r), v;
	int i = 0;

	while (i < rv->ntable - 1 && u >= rv->cum[i])
		i++;
	v = rv->lo[i] + (rv->hi[i] - rv->lo[i]) * rng_double(r);
	return rv->shift + (v - rv->p[0]) * rv->scale;
}

static double sample_normal(const struct plan_randvar *rv, struct rng *r)
{
	return rv->p[0] + rv->p[1] * rng_normal(r);
}

static double sample_exponential(const struct plan_randvar *rv, struct rng *r)
{
	return rv->p[0] * rng_exponential(r);
}

static double sample_lognormal(const struct plan_randvar *rv, struct rng *r)
{
	return exp(rv->p[0] + rv->p[1] * rng_normal(r));
}

/* Inversion: scale * (-ln U)^(1/shape), U in (0, 1]. */
static double sample_weibull(const struct plan_randvar *rv, struct rng *r)
{
	return rv->p[1] * pow(rng_exponential(r), rv->p[2]);
}

/* Inversion of the triangular CDF on either side of the mode. */
static double sample_triangular(const struct plan_randvar *rv, struct rng *r)
{
	double a = rv->p[0], b = rv->p[1], c = rv->p[2], u = rng_double(r);

	if (u < rv->p[3])
		return a + sqrt(u * (b - a) * (c - a));
	return b - sqrt((1 - u) * (b - a) * (b - c));
}

/*
 * A sum of `shape` exponentials, as -ln of the product of as many
 * uniforms (one logarithm; 16 factors of at least 2^-53 cannot underflow);
 * larger orders go through the gamma generator with an integer shape.
 */
static double sample_erlang(const struct plan_randvar *rv, struct rng *r)
{
	double prod = 1;
	int k = (int)rv->p[0];

	if (k > 16)
		return rv->p[1] * rng_gamma(r, rv->p[0]);
	for (int i = 0; i < k; i++)
		prod *= rng_double_pos(r);
	return -rv->p[1] * log(prod);
}

static double (*const samplers[])(const struct plan_randvar *, struct rng *) = {
	[RV_UNIFORM] = sample_uniform,
	[RV_GAMMA] = sample_gamma,
	[RV_TABULAR] = sample_tabular,
	[RV_NORMAL] = sample_normal,
	[RV_EXPONENTIAL] = sample_exponential,
	[RV_LOGNORMAL] = sample_lognormal,
	[RV_WEIBULL] = sample_weibull,
	[RV_TRIANGULAR] = sample_triangular,
	[RV_ERLANG] = sample_erlang,
};

/* randvar: nearest multiple of `step` (halves up). */
static double round_nearest(double v, double step)
{
	return floor(v / step + 0.5) * step;
}

/* cvar: drop the fraction, then the nearest multiple of `step`, ties down. */
static double round_cvar(double v, double step)
{
	double q, rest;

	v = trunc(v);
	q = floor(v / step);
	rest = v - q * step;
	return rest > step / 2 ? (q + 1) * step : q * step;
}

double randvar_sample(const struct plan_randvar *rv, struct rng *r)
{
	double v = samplers[rv->dist](rv, r);

	if (!rv->is_cvar)
		return rv->round > 0 ? round_nearest(v, rv->round) : v;
	if (rv->round > 0)
		v = round_cvar(v, rv->round);
	if (v < rv->min)
		v = rv->min;
	if (v > rv->max)
		v = rv->max;
	return v;
}

double randvar_mean(const struct plan_randvar *rv)
{
	double m = rv->mean;

	if (rv->is_cvar) {
		if (m < rv->min)
			m = rv->min;
		if (m > rv->max)
			m = rv->max;
	}
	return m;
}

void randvar_stream_seed(struct rng *r, const struct plan_randvar *rv,
			 int index, uint64_t run_seed, uint64_t identity)
{
	uint64_t x = 0x72616e6476617273ull;   /* "randvars" */

	x = rng_splitmix64(&x) ^ run_seed;
	x = rng_splitmix64(&x) ^ rv->seed;
	x = rng_splitmix64(&x) ^ (uint64_t)(int64_t)index;
	x = rng_splitmix64(&x) ^ identity;
	rng_seed(r, rng_splitmix64(&x));
}
