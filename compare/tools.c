/*
 * tools.c - what compare and report say when a file was not measured by
 * flowbench (fio's JSON output, read through runtime/results/fio.c):
 * how its numbers were read, what could not be kept, and, beside a file
 * of the other tool, which numbers mean the same in both
 * (docs/import-fio.md, "fio's own results in compare").
 */
#include "compare/tools.h"

#include <stdio.h>
#include <string.h>

bool rf_tools_same(const struct rf_doc *a, const struct rf_doc *b)
{
	return strcmp(a->tool, b->tool) == 0;
}

/* The tool by its version when the file has one: "fio-3.33", "flowbench". */
static const char *tool_name(const struct rf_doc *d)
{
	return *d->tool_version ? d->tool_version : d->tool;
}

/* How a file of another tool was read, and its reader's notes. */
static void notes(const struct rf_doc *d, void (*line)(void *arg, const char *text),
		  void *arg)
{
	char text[1024];
	size_t i;
	json_t *v;

	if (strcmp(d->tool, "flowbench") == 0)
		return;
	if (strcmp(d->tool_format, "json+") == 0)
		snprintf(text, sizeof(text), "note: %s is %s's JSON output with latency bins "
			 "(json+): its percentiles are taken from the bins by flowbench's rule",
			 d->path, tool_name(d));
	else
		snprintf(text, sizeof(text), "note: %s is %s's JSON output without latency "
			 "bins: its percentiles are fio's own (with --output-format=json+ they "
			 "would be taken from its bins by flowbench's rule)", d->path, tool_name(d));
	line(arg, text);
	json_array_foreach((json_t *)d->notes, i, v) {
		snprintf(text, sizeof(text), "note: %s: %s", d->path,
			 json_string_value(v) ? json_string_value(v) : "?");
		line(arg, text);
	}
}

/* Which numbers of the two tools compare: said once, after the warnings. */
static const char *const points[] = {
	"what compares between fio and flowbench:",
	"  rows: fio's job J is the rows J-read, J-write, J-trim and J-fsync (its "
	"syncs), the names import-fio gives the job's flowops; a job's clones "
	"(numjobs) are one row, as a flowop's threads are one line",
	"  ops, ops/s, MB/s: the same I/O when import-fio mapped the job without a "
	"warning; fio's rates are over each job's own runtime, flowbench's over "
	"the run's",
	"  latency (ms/op, percentiles): fio's clat (submission to completion) "
	"against flowbench's op latency, the same span for a synchronous engine "
	"(sync, psync: one system call each); with libaio or io_uring at an "
	"iodepth above 1, only where flowbench's flowop reports fio's clat too",
	"  engine: fio's ioengine against the flowop import-fio chose for it "
	"(its comments and warnings say where they differ)",
	"  not recorded by fio: host, kernel, file systems, mount options, "
	"variables: not compared, check them yourself",
};

void rf_tools_lines(const struct rf_doc *docs, int ndocs,
		    void (*line)(void *arg, const char *text), void *arg)
{
	char text[1024];
	bool differ = false;

	for (int d = 0; d < ndocs; d++)
		notes(&docs[d], line, arg);
	for (int d = 1; d < ndocs; d++) {
		if (rf_tools_same(&docs[0], &docs[d]))
			continue;
		snprintf(text, sizeof(text), "warning: %s was measured by %s and %s by %s: "
			 "the two tools' rules differ", docs[0].path, tool_name(&docs[0]),
			 docs[d].path, tool_name(&docs[d]));
		line(arg, text);
		differ = true;
	}
	for (size_t i = 0; differ && i < sizeof(points) / sizeof(points[0]); i++)
		line(arg, points[i]);
}
