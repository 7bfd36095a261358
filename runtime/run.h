/*
 * run.h - executing a compiled plan: the runtime's single entry point.
 */
#ifndef FLOWBENCH_RUN_H
#define FLOWBENCH_RUN_H

#include "runtime/plan.h"

struct run_options {
	enum { CACHE_COLD, CACHE_WARM } cache;
	/* Latency percentiles to print, each in (0, 100); NULL: the defaults. */
	const double *percentiles;
	int npercentiles;
};

/*
 * Run the plan's actions, prepare its files, start its processes and
 * threads, run the timed phase and print the report.  Returns the
 * process exit status: 0 on success, 1 when the run failed or ended
 * without results.
 */
int run_plan(const struct plan *p, const struct run_options *opt);

#endif
