/*
 * randvar.h - random variables: WML's randvar(...) and cvar(...).
 *
 * A random variable is a distribution in the plan; every evaluation of an
 * attribute that names it draws a new sample.  The compiler hands the
 * attributes it read (randvar_spec) to randvar_build(), which validates
 * them with located errors and precomputes what sampling needs.  Sampling
 * takes the caller's generator (struct rng): each thread has its own
 * stream per random variable, seeded from the run's --seed, the
 * variable's own `seed` and the thread's identity, so runs are
 * reproducible and threads never share unlocked state.
 */
#ifndef FLOWBENCH_RANDVAR_H
#define FLOWBENCH_RANDVAR_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/arena.h"
#include "plan/srcloc.h"

struct diag;
struct rng;

/* One attribute of randvar(...)/cvar(...) as the compiler evaluated it. */
struct randvar_arg {
	const char *name;         /* "type", "min", "parameters", ... */
	bool is_num;              /* else a string (or a bare flag: str NULL) */
	double num;
	const char *str;
	struct src_loc loc;       /* of the name */
	struct src_loc val_loc;   /* of the value */
};

struct randvar_row {
	double pct, lo, hi;       /* randtable row {pct, lo, hi} */
	struct src_loc loc;
};

struct randvar_spec {
	const char *fn;           /* "randvar" or "cvar" (define randvar: "randvar") */
	const char *var;          /* the variable it is bound to, for messages */
	struct src_loc loc;
	int nargs;
	const struct randvar_arg *args;
	int nrows;                /* randtable rows, if given */
	const struct randvar_row *rows;
	struct src_loc table_loc;
};

/*
 * The plan's record of one random variable.  Defined here, not in plan.h,
 * because only this module interprets it.
 */
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

/* Validate `spec` into `out`; returns the number of errors reported. */
int randvar_build(const struct randvar_spec *spec, struct plan_randvar *out,
		  struct arena *a, struct diag *d);

/* One sample (after min/max/round post-processing). */
double randvar_sample(const struct plan_randvar *rv, struct rng *r);

/*
 * The distribution's theoretical mean (for sizing, e.g. a fileset's mean
 * size): after randvar's `min` shift, clamped to a cvar's [min, max];
 * rounding is ignored.
 */
double randvar_mean(const struct plan_randvar *rv);

/*
 * Seed `r` as the stream of random variable number `index` (its index in
 * plan->randvars) in one thread instance.  `run_seed` is the run's --seed,
 * `identity` any value unique to the thread instance (rng_identity() in
 * runtime/base/rng.h).  The same four inputs and rv->seed always give the same
 * stream; changing any one gives an unrelated stream.
 */
void randvar_stream_seed(struct rng *r, const struct plan_randvar *rv,
			 int index, uint64_t run_seed, uint64_t identity);

#endif
