/*
 * commands.h - `flowbench compare` and `flowbench report`: load the
 * results files, then print the table or write the HTML page.
 */
#ifndef FLOWBENCH_COMPARE_COMMANDS_H
#define FLOWBENCH_COMPARE_COMMANDS_H

#include <stdio.h>

/*
 * Compare files[0] (the baseline) with the others, `format` "text",
 * "markdown" or "csv", onto out.  Returns the exit status: 0, or 1 when a
 * file cannot be read or is not a results file this flowbench knows.
 */
int compare_command(char *const *files, int nfiles, const char *format,
		    FILE *out, FILE *err);

/*
 * Write the HTML report of the files to `output` (written to a temporary
 * file beside it, then renamed: never half a page).  Exit status as above.
 */
int report_command(char *const *files, int nfiles, const char *output, FILE *err);

#endif
