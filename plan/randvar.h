/*
 * randvar.h - a random variable as the plan holds it: WML's randvar(...)
 * and cvar(...), validated and precomputed by the compiler
 * (lang/rvspec.c), sampled by the runtime (runtime/base/randvar.c).
 * Every evaluation of an attribute that names one draws a new sample.
 */
#ifndef FLOWBENCH_PLAN_RANDVAR_H
#define FLOWBENCH_PLAN_RANDVAR_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/srcloc.h"

/* The plan's record of one random variable. */
enum rv_dist {
	RV_UNIFORM, RV_GAMMA, RV_TABULAR,
	RV_NORMAL, RV_EXPONENTIAL, RV_LOGNORMAL, RV_WEIBULL, RV_TRIANGULAR,
	RV_ERLANG,
};

struct plan_randvar {
	const char *var;          /* variable name, for messages */
	struct src_loc loc;
	enum rv_dist dist;
	bool is_cvar;             /* cvar semantics for min/max/round */
	uint64_t seed;            /* `seed` attribute (0 if none) */
	/*
	 * randvar: `min` shifts the distribution and max is +inf; cvar: every
	 * sample is clamped to [min, max] (defaults -inf, +inf).
	 */
	double min, max;
	double mean;              /* theoretical mean before rounding/clamping */
	double round;             /* 0 = no rounding */
	double p[4];              /* distribution parameters (randvar.c) */
	int ntable;               /* tabular: rows with a non-zero percentage */
	double *cum;              /* [ntable] cumulative probability */
	double *lo, *hi;          /* [ntable] intervals */
	double scale, shift;      /* tabular: out = shift + (v - p[0]) * scale */
};

#endif
