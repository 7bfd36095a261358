/*
 * tools.h - files measured by different tools (an fio run's JSON output
 * beside a flowbench run): what compare and report say about them, in
 * one place, so that the table's legend and the page say the same.
 */
#ifndef FLOWBENCH_COMPARE_TOOLS_H
#define FLOWBENCH_COMPARE_TOOLS_H

#include <stdbool.h>

#include "compare/load.h"

/* Whether two files were measured by the same tool (then their rules,
   workload and machine are compared as usual). */
bool rf_tools_same(const struct rf_doc *a, const struct rf_doc *b);

/*
 * The lines about the files' tools, each given to `line`: for every file
 * not flowbench's, how its numbers were read and what its reader could
 * not keep ("note: ..."); for every file of another tool than the
 * baseline's, that the two tools' rules differ and which numbers
 * compare ("warning: ..." and its points).
 */
void rf_tools_lines(const struct rf_doc *docs, int ndocs,
		    void (*line)(void *arg, const char *text), void *arg);

/*
 * Rows of fio's files named to meet flowbench's where import-fio names
 * them otherwise (a mixed job's choice members, JOB.read for fio's
 * JOB-read), with a note in the file saying so.  0, or -1 when out of
 * memory.
 */
int rf_tools_align(struct rf_doc *docs, int ndocs);

#endif
