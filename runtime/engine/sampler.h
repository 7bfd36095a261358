/*
 * sampler.h - what the master does with the live statistics while the
 * workers run: psrun's snapshots, the --interval series and the status
 * line.
 *
 * Every reading goes through shared_sum_stats(), word by word while the
 * threads write (runtime/measure/stats.h): no worker is ever paused.  The
 * interval series telescopes: each interval is the difference of two
 * cumulative readings and the last one ends with the exact statistics of
 * the run, so the intervals' ops add up to the run's ops exactly.
 */
#ifndef FLOWBENCH_SAMPLER_H
#define FLOWBENCH_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "runtime/engine/coord.h"
#include "runtime/measure/interval.h"
#include "runtime/engine/shared.h"
#include "runtime/measure/stats.h"
#include "runtime/engine/status.h"

struct sampler_options {
	double psrun_period;      /* the plan's: 0 none, < 0 differences */
	double interval_s;        /* --interval; 0: no series */
	double warmup_s, runtime_s;   /* runtime_s 0: no time limit */
	const double *pct;        /* percentiles (NULL: the defaults) */
	int npct;
	/*
	 * With other clients (coord.h): every reading is shared with them
	 * and only the merged ones are printed, as they complete
	 * (sampler_collect), by the reporting client; each interval's
	 * statistics are kept (iv_stats) for the exact merge at the end
	 * (sampler_replace_series).
	 */
	const struct run_coord *coord;
};

/* One periodic job: due at next_ns, every period_ns; prev_ns = last reading. */
struct sampler_clock {
	uint64_t period_ns, next_ns, prev_ns;
};

struct sampler {
	const struct plan *plan;
	const struct shared *sh;
	struct sampler_options opt;
	uint64_t release_ns, start_ns;
	struct fo_stats *cur;             /* [nflowops] reading */
	struct fo_stats *scratch;         /* [2] for shared_sum_stats */

	bool psrun, psrun_diff;
	struct sampler_clock ps;
	struct fo_stats *ps_prev, *ps_out;
	double *ps_span;                  /* coord: each shared snapshot's span (s) */
	int nps, capps;

	bool series;
	struct sampler_clock iv;
	struct fo_stats *iv_prev, *iv_out;
	int nlines;                       /* report lines (plan_flowop.line == i) */
	struct interval_row *rows;        /* [nrows * nlines] */
	struct fo_stats *iv_stats;        /* coord: [nrows * nflowops], the diffs */
	int nrows, caprows;
	int nlogged;                      /* coord: merged intervals printed live */
	bool lost;                        /* out of memory: series incomplete */

	struct status_line status;
	struct sampler_clock st;
};

/* Buffers for the run, before the fork.  0, or -1 (logged). */
int sampler_init(struct sampler *s, const struct plan *p,
		 const struct shared *sh, const struct sampler_options *o);
void sampler_free(struct sampler *s);

/* The workers were released at release_ns; measuring starts at start_ns. */
void sampler_begin(struct sampler *s, uint64_t release_ns, uint64_t start_ns);

/* When the next job is due (UINT64_MAX: none). */
uint64_t sampler_next(const struct sampler *s);

/* Run whichever jobs are due at `now`. */
void sampler_tick(struct sampler *s, uint64_t now);

/*
 * With other clients: print the merged readings that have completed
 * since the last call (psrun's snapshots, interval lines).  Called on
 * every wake of the timed phase.
 */
void sampler_collect(struct sampler *s);

/* Erase the status line (before printing, at the end of the phase). */
void sampler_quiet(struct sampler *s);

/*
 * The run ended at end_ns with merged statistics `final` (indexed like
 * plan.flowops): close the series with the last, partial interval.
 */
void sampler_end(struct sampler *s, const struct fo_stats *final, uint64_t end_ns);

/*
 * The whole job's series in place of this client's: `n` intervals of
 * statistics `stats` ([n * nflowops], merged over the clients), interval
 * k spanning k x period .. min((k + 1) x period, end_s) from the common
 * start; each printed as during a plain run, but for those that
 * sampler_collect() printed already.  0, or -1 (out of memory: the
 * series is dropped, with a warning).
 */
int sampler_replace_series(struct sampler *s, const struct fo_stats *stats, int n,
			   double end_s);

#endif
