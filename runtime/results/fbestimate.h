/*
 * fbestimate.h - what filebench would have printed for this run: its op
 * count and its IO Summary rate, estimated from the plan and this run's
 * own counts.
 *
 * The comparability note (comparability.h) must speak whenever
 * filebench's rules would have changed the number, not only when the same
 * rule happened to fire in flowbench's run.  Two of filebench's rules
 * change it without any sign in flowbench's run:
 *  - its finish limits (finishoncount, finishonbytes without `target`)
 *    count every op (byte) of their process instance, their own calls
 *    and implicit opens included, so they stop a run sooner than
 *    flowbench's per-thread I/O count, or where flowbench's never fires
 *    (filemicro_delete: 16 threads run out of files first);
 *  - its run loop sleeps one second at a time and looks whether the run
 *    has ended after each sleep, so a run that ends by itself is divided
 *    by its duration rounded UP to whole seconds (at least 1, at most
 *    the `run` time).
 * The estimate assumes filebench's run would have progressed like this
 * one (the same mix of ops, at the same pace): a limit that fires at a
 * fraction of this run's counts stops filebench at that fraction of its
 * ops and of its time.  docs/differences.md section 10.1 and 10.9.
 */
#ifndef FLOWBENCH_FBESTIMATE_H
#define FLOWBENCH_FBESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "runtime/engine/run.h"

struct fbestimate {
	double fraction;      /* of this run's work filebench's limits allow (1: all) */
	bool no_results;      /* a limit would fire in timeout mode: filebench
				 ends that run without results */
	bool ends_itself;     /* filebench's run ends before its `run` time */
	double end_s;         /* when, in this run's time (ends_itself) */
	double elapsed_s;     /* what filebench divides by */
	uint64_t ops;         /* its IO Summary ops (implicit opens included) */
	double ops_per_s;     /* its IO Summary ops/s */
	uint64_t our_ops;     /* this run's IO Summary ops, for the note */
};

/*
 * Estimate filebench's figures for run `o` of plan `p` into *e.  Under
 * --compat filebench the run already followed filebench's limits
 * (fraction 1); the whole-second division is estimated either way.
 */
void fbestimate_run(const struct plan *p, const struct run_outcome *o,
		    struct fbestimate *e);

/*
 * The seconds filebench divides by for a run that ended by itself after
 * `t` s: t rounded up to whole seconds, at least 1, at most the `run`
 * time `runtime_s` rounded up (0: none).
 */
double fbestimate_whole_seconds(double t, double runtime_s);

#endif
