/*
 * text.h - filebench's human-readable results, byte for byte.
 *
 * Reads only finished, merged statistics.  The line formatters take plain
 * numbers and a FILE* so tests can check their exact bytes.
 */
#ifndef FLOWBENCH_REPORT_TEXT_H
#define FLOWBENCH_REPORT_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"
#include "runtime/base/units.h"     /* units_latency(): the lines' latency units */
#include "runtime/measure/stats.h"

/* Totals over the IO- and AIO-class flowops (the "IO Summary"). */
struct text_totals {
	uint64_t ops;          /* their ops plus their implicit opens */
	uint64_t rd_ops;       /* ops of READ-marked flowops (opens excluded) */
	uint64_t wr_ops;       /* ops of WRITE-marked flowops (opens excluded) */
	uint64_t bytes;
	uint64_t lat_sum_ns;
	uint64_t opens;        /* implicit opens, all flowops */
};

/* One "Per-Operation Breakdown" line (no timestamp), newline included. */
void text_flowop_line(FILE *out, const char *name, const struct op_stats *s,
		      double elapsed_s);

/*
 * The same line followed by filebench's latency histogram (enable
 * lathist): a TAB, "[ ", the 64 bucket counts each followed by a space,
 * "]" and the newline.
 */
void text_flowop_hist_line(FILE *out, const char *name, const struct fo_stats *s,
			   double elapsed_s);

/* "IO Summary: ..." without the timestamp prefix, newline included. */
void text_io_summary(FILE *out, const struct text_totals *t, double elapsed_s);

/* Sum the IO Summary totals from per-plan-flowop stats. */
void text_io_totals(const struct plan *p, const struct fo_stats *per_flowop,
		    struct text_totals *t);

/*
 * "Not counted: N ops ended after the end of the run (name n, ...)" (the
 * deadline, or an early end: "1 op"), timestamped,
 * only if some op straddled the end of the run (one per thread, usually):
 * with it every system call of the timed phase is accounted for.
 */
void text_discarded(FILE *out, const struct plan *p,
		    const struct fo_stats *per_flowop);

/*
 * "Errors: N (name n: ENOSPC a, short b; name2 ...)", timestamped, only
 * if some op failed (counted with --keep-going; without it, the one
 * failure that ended the run): every failed op, by flowop in breakdown
 * order and by kind (fo_err_kind_name()).  Failed ops are in no other
 * number.
 */
void text_errors(FILE *out, const struct plan *p,
		 const struct fo_stats *per_flowop);

/* Columns `s` takes on a terminal: its UTF-8 code points ("µ" is one). */
int text_width(const char *s);

/*
 * flowbench's latency percentiles, timestamped: a header naming them
 * ("Latency percentiles  p50  p90 ..."), then, for every flowop with
 * ops (breakdown order), its name padded to 24 columns and each
 * percentile right-aligned in 12 columns, in automatic units
 * (units_latency).  The lines never start with a flowop name, so
 * filebench-style parsers that look for "^name " still find only the
 * breakdown line.  pct NULL or npct 0: stats_default_percentiles.
 */
void text_percentiles(FILE *out, const struct plan *p,
		      const struct fo_stats *per_flowop, const double *pct, int npct);

/*
 * A process's active window (run phases, plan_proc.phased): from its
 * start to the end of its last thread, clipped to the measured phase,
 * in seconds from the release.  Its flowops' rates divide by window_s.
 */
struct text_proc_window {
	bool phased;           /* false: its flowops use the run's elapsed time */
	bool started;          /* false: it never started (window 0) */
	double start_s, end_s; /* from the release */
	double window_s;       /* end_s - start_s within the measured phase */
};

/*
 * The window the rates of plan flowop `i` divide by: its process's when
 * that is phased (windows may be NULL: none is), else elapsed_s.
 */
double text_flowop_window(const struct plan *p,
			  const struct text_proc_window *windows,
			  int i, double elapsed_s);

/*
 * "Phase NAME: 0.000 s - 10.002 s (10.002 s)", timestamped, for every
 * phased process (or "Phase NAME: not started"); nothing when windows
 * is NULL.
 */
void text_phases(FILE *out, const struct plan *p,
		 const struct text_proc_window *windows);

/*
 * The whole block: timestamped "Per-Operation Breakdown", one line per
 * flowop (most recently defined first), the timestamped IO Summary and
 * flowbench's extra lines, the percentiles last (`pct`, `npct` as for
 * text_percentiles).  per_flowop is indexed like plan.flowops.
 */
void text_report(FILE *out, const struct plan *p,
		 const struct fo_stats *per_flowop, double elapsed_s,
		 const double *pct, int npct);
/*
 * The same with run phases: each phased process's flowops' rates over
 * its window, and text_phases() after the IO Summary.  The IO Summary
 * stays over elapsed_s.  windows NULL: text_report().
 */
void text_report_windows(FILE *out, const struct plan *p,
			 const struct fo_stats *per_flowop, double elapsed_s,
			 const struct text_proc_window *windows,
			 const double *pct, int npct);

#endif
