/*
 * textaio.h - fio's lines for the asynchronous flowops, in the printed
 * report after the percentiles: slat, clat and lat with min, max, avg
 * and stdev, the clat percentiles, the coarse latency buckets and the
 * IO depths, submit and complete distributions, as fio prints them for
 * a job (stat.c, show_thread_status_normal()).  Each block starts with
 * "Async I/O of NAME", never with the flowop's name, so that parsers of
 * filebench's breakdown lines still find only those.
 */
#ifndef FLOWBENCH_TEXTAIO_H
#define FLOWBENCH_TEXTAIO_H

#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/stats.h"

/*
 * One flowop's block: `name`, its engine and iodepth (0: none) in the
 * heading, then fio's lines from its statistics `s` (clat is its op
 * latency) and extension block `a`, the clat percentiles at pct[npct]
 * (NULL, 0: the defaults).  Each line timestamped when `stamp`.
 */
void text_async_block(FILE *out, bool stamp, const char *name, const char *engine,
		      long long depth, const struct fo_stats *s, const struct astats *a,
		      const double *pct, int npct);

/*
 * The blocks of every flowop line with an extension block that counted
 * requests (astats[i] non-NULL, with a split latency), in breakdown
 * order (most recently defined first).
 */
void text_async(FILE *out, const struct plan *p, const struct fo_stats *per_flowop,
		struct astats *const *astats, const double *pct, int npct);

#endif
