/*
 * compare.h - `flowbench compare`: results files side by side, the first
 * one the baseline, as a table for a terminal, GitHub (Markdown) or a
 * spreadsheet (CSV, RFC 4180).
 */
#ifndef FLOWBENCH_COMPARE_COMPARE_H
#define FLOWBENCH_COMPARE_COMPARE_H

#include <stdio.h>

#include "compare/load.h"

enum cmp_format {
	CMP_TEXT,
	CMP_MARKDOWN,
	CMP_CSV,
};

/* "text", "markdown" (or "md"), "csv"; -1 for anything else. */
int cmp_format_parse(const char *name, enum cmp_format *fmt);

/*
 * One table per metric (ops/s, MB/s, ms/op): a row per flowop (matched
 * by name across the files, the k-th repeat of a name with the k-th) and
 * one for the IO Summary; per file the mean ± stdev over its runs, and
 * for every file after the first its %diff against the first and whether
 * Welch's t-test finds the difference significant (p < 0.05).
 * Returns 0, or -1 when writing failed or memory ran out.
 */
int compare_print(FILE *out, const struct rf_doc *docs, int ndocs,
		  enum cmp_format fmt);

#endif
