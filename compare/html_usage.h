/*
 * html_usage.h - what the timed window cost, on the page of `flowbench
 * report`: each run's CPU and devices (a results file's runs[].usage),
 * and each rank's share in the ranks table.  A run or rank without
 * usage reads "not measured", never 0.
 */
#ifndef FLOWBENCH_COMPARE_HTML_USAGE_H
#define FLOWBENCH_COMPARE_HTML_USAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/load.h"

/* Did any run of this file measure its window? */
bool html_usage_measured(const struct rf_doc *doc);

/* Did any run of any file? */
bool html_usage_any(const struct rf_doc *docs, int ndocs);

/*
 * "CPU and disks": per file a row per run (the workers' usr %, sys %,
 * CPU µs per op, context switches, faults; the master's usr/sys) and
 * a row per run and device (reads, writes, util %; a directory on no
 * block device named as such).
 */
void html_usage_section(FILE *out, const struct rf_doc *docs, int ndocs);

/* The ranks table's usage columns: headings, and one rank's cells. */
void html_usage_rank_heads(FILE *out);
void html_usage_rank_cells(FILE *out, const struct rf_rank *k);

#endif
