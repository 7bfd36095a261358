/*
 * html.h - `flowbench report`: results files as one self-contained HTML
 * page (inline CSS and SVG, nothing fetched) to read offline or publish.
 */
#ifndef FLOWBENCH_COMPARE_HTML_H
#define FLOWBENCH_COMPARE_HTML_H

#include <stdio.h>

#include "compare/load.h"

/*
 * A header per file (workload, date, environment), a summary, what each
 * run's window cost (CPU, disks: html_usage.h), and per flowop: ops/s
 * over time, latency percentiles, and with several files or repeats
 * bars of mean ± stdev.  Returns 0, or -1 when writing failed or
 * memory ran out.
 */
int html_report(FILE *out, const struct rf_doc *docs, int ndocs);

#endif
