/*
 * commands.h - `flowbench compare` and `flowbench report`: load the
 * results files, then print the table or write the HTML page.
 */
#ifndef FLOWBENCH_COMPARE_COMMANDS_H
#define FLOWBENCH_COMPARE_COMMANDS_H

#include <stdio.h>

/* What `flowbench compare` was asked. */
struct compare_request {
	char *const *files;            /* files[0] is the baseline */
	int nfiles;
	const char *format;            /* "text", "markdown" or "csv" */
	const char *const *thresholds; /* --threshold lists, as typed (gate.h) */
	int nthresholds;
	const char *junit;             /* --junit FILE, or NULL */
};

/*
 * Compare files[0] (the baseline) with the others onto out, then judge
 * them (compare/gate.h).  Returns the exit status, as diff and cmp do:
 * 0 when no later file is worse than the baseline beyond a threshold,
 * 1 when one is, 2 for a usage error (a bad --format or --threshold), a
 * file that cannot be read or is not a results file this flowbench
 * knows, or output that cannot be written (--junit too).
 */
int compare_command(const struct compare_request *rq, FILE *out, FILE *err);

/*
 * Write the HTML report of the files to `output` (written to a temporary
 * file beside it, then renamed: never half a page).  Returns 0, or 1
 * when a file cannot be read or the page cannot be written.
 */
int report_command(char *const *files, int nfiles, const char *output, FILE *err);

#endif
