/*
 * interval.h - one --interval of one flowop, as the engine's sampler
 * records it during the run and the results files carry it.
 */
#ifndef FLOWBENCH_INTERVAL_H
#define FLOWBENCH_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

struct fo_stats;

/* Latency percentiles a run reports at most (--percentiles). */
#define INTERVAL_MAX_PCT 16

/*
 * The ops that ended in (t_s - dt_s, t_s], times counted from the start of
 * the timed phase (after any warm-up).
 */
struct interval_row {
	double t_s, dt_s;
	uint64_t ops, bytes;
	double ops_per_s, mb_per_s;
	bool has_latency;                 /* false: no op in it */
	double mean_ns;
	double pct[INTERVAL_MAX_PCT];     /* at the run's percentiles */
};

/*
 * One interval's numbers from its statistics `s` (already the difference
 * over the interval), ending at t_s and lasting dt_s; `pct` the run's
 * percentiles.
 */
void interval_fill(struct interval_row *iv, const struct fo_stats *s,
		   double t_s, double dt_s, const double *pct, int npct);

#endif
