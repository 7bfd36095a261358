/*
 * randvar.h - sampling the plan's random variables (plan/randvar.h).
 *
 * Sampling takes the caller's generator (struct rng): each thread has its
 * own stream per random variable, seeded from the run's --seed, the
 * variable's own `seed` and the thread's identity, so runs are
 * reproducible and threads never share unlocked state.
 */
#ifndef FLOWBENCH_RANDVAR_H
#define FLOWBENCH_RANDVAR_H

#include <stdint.h>

#include "plan/randvar.h"

struct rng;

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
