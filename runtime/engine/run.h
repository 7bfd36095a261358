/*
 * run.h - executing a compiled plan: the runtime's single entry point.
 */
#ifndef FLOWBENCH_RUN_H
#define FLOWBENCH_RUN_H

#include <signal.h>
#include <stdbool.h>

#include "plan/plan.h"
#include "runtime/engine/coord.h"
#include "runtime/fileset/cache.h"
#include "runtime/measure/interval.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/stats.h"
#include "runtime/measure/text.h"
#include "runtime/measure/usage.h"

struct oplog_files;

struct run_options {
	enum cache_mode cache;    /* --cache: 0 is cold */
	/* Latency percentiles to print, each in (0, 100); NULL: the defaults. */
	const double *percentiles;
	int npercentiles;
	/* --warmup: run this long first without recording (0: none). */
	double warmup_s;
	/* --interval: record a series of this period (0: none). */
	double interval_s;
	/* --keep-going: count failed ops per flowop and go on. */
	bool keep_going;
	/* --force: adopt unmarked fileset directories (runtime/fileset/fileset.h). */
	bool force;
	/* The other clients of this run (flowbench-mpi), or NULL (coord.h). */
	const struct run_coord *coord;
	/*
	 * Where each thread instance writes its per-op logs, files the
	 * caller created (runtime/results/oplogfiles.h), or NULL: none.
	 */
	const struct oplog_files *oplog;
};

/* What a run leaves for the results file (runtime/results/). */
struct run_outcome {
	struct fo_stats *stats;   /* [nflowops], merged; NULL without results */
	/*
	 * [nflowops]: the merged extension block (runtime/measure/astats.h)
	 * of each report line of flowops that split their latency, else
	 * NULL; NULL as a whole without results or under a coordinator
	 * (the clients' blocks are not combined).
	 */
	struct astats **astats;
	int nastats;              /* its entries: the plan's nflowops */
	double elapsed_s;         /* what the rates divide by */
	struct interval_row *iv;  /* --interval: [niv * results lines], or NULL */
	int niv;
	uint64_t warmup_ops;      /* ops done during the warm-up, not recorded */
	bool interrupted;         /* SIGINT/SIGTERM ended it */
	bool partial;             /* stats are the results until an abort */
	bool tsc;                 /* the op clock counted TSC cycles */
	double clock_read_ns;     /* its read cost, measured at calibration */
	double clock_drift_ppm;   /* TSC against CLOCK_MONOTONIC at the end of
				     the timed phase (clock.h); NaN without TSC */
	struct cache_report cache; /* the cache step: the "Cache: ..." decision and what it did */
	char error[512];          /* why it failed, when run.c knows */
	/* With a coordinator, on the reporting client: stats and elapsed_s
	   are the combined run's, and this the clients' part (coord.h). */
	bool has_clients;
	struct coord_combined clients;
	bool reporter;            /* this client printed the report (always without a coordinator) */
	/* How the timed phase ended, for the comparability note (results/comparability.h) */
	bool finish_fired;        /* a finishoncount/finishonbytes limit was reached */
	bool ended_itself;        /* before its deadline, normally: a thread ended
				     the run, or every thread stopped */
	/* What the window cost this client: CPU, disks (usage.h; not combined) */
	struct usage_report usage;

	/* Run phases: each process's window ([plan nprocs]), NULL without */
	struct text_proc_window *windows;
};

/*
 * Run the plan's actions, prepare its files, start its processes and
 * threads, run the timed phase and print the report.  Returns the
 * process exit status: 0 on success, 1 when the run failed or ended
 * without results (then `out->stats` may still hold the partial results
 * until it stopped, out->partial set).  SIGINT/SIGTERM are caught from
 * the timed phase on (interrupt.h; callers may install it earlier).  `out` (may be NULL) receives the merged statistics
 * and the facts of the run; release with run_outcome_free().
 */
int run_plan(const struct plan *p, const struct run_options *opt,
	     struct run_outcome *out);
void run_outcome_free(struct run_outcome *o);

#endif
