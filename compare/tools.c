/*
 * tools.c - what compare and report say when a file was not measured by
 * flowbench (fio's JSON output, read through runtime/results/fio.c):
 * how its numbers were read, what could not be kept, and, beside a file
 * of the other tool, which numbers mean the same in both
 * (docs/import-fio.md, "fio's own results in compare").
 */
#include "compare/tools.h"

#include <stdio.h>
#include <stdlib.h>
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
	"syncs), the names import-fio gives the job's flowops (J.read and J.write "
	"for a mixed job, the members of its choice); a job's clones (numjobs) are "
	"one row, as a flowop's threads are one line",
	"  ops, ops/s, MB/s: the same I/O when import-fio mapped the job without a "
	"warning; fio's rates are over each job's own runtime, flowbench's over "
	"the run's",
	"  latency (ms/op, percentiles): fio's clat (submission to completion) "
	"against flowbench's op latency, the same span for a synchronous engine "
	"(sync, psync: one system call each) and for an asynchronous one "
	"(libaio, io_uring, posixaio: flowbench's aioread/aiowrite report fio's "
	"clat, with slat and lat beside it)",
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

/* Whether a flowbench file (any run of it) has a flowop named `name`. */
static bool flowbench_has(const struct rf_doc *docs, int ndocs, const char *name)
{
	for (int d = 0; d < ndocs; d++) {
		if (strcmp(docs[d].tool, "flowbench") != 0)
			continue;
		for (int r = 0; r < docs[d].nruns; r++)
			if (rf_find(&docs[d].runs[r], name, 0))
				return true;
	}
	return false;
}

/* The directions fio's rows are named after (runtime/results/fio_run.c). */
static const char *const fio_directions[] = { "read", "write", "trim" };

/*
 * fio's row J-read when flowbench's files have J.read and no J-read: the
 * job was mixed (rw=randrw, rw), and import-fio made it a choice whose
 * members are J.read and J.write; the row takes the member's name so
 * that both tools' numbers sit on one line.  With J.read-seq too (a
 * percentage_random job: its random and sequential reads are two
 * members) fio's one row is two of flowbench's: it keeps its name, and a
 * note says why the rows are apart.
 */
static int align_row(struct rf_doc *docs, int ndocs, struct rf_doc *fio,
		     struct rf_run *run, int k)
{
	const char *name = run->flowops[k].name;
	size_t len = strlen(name);
	char member[512], seq[520], why[1400];

	if (flowbench_has(docs, ndocs, name))
		return 0;
	for (size_t i = 0; i < sizeof(fio_directions) / sizeof(fio_directions[0]); i++) {
		const char *dir = fio_directions[i];
		size_t dl = strlen(dir);

		if (len <= dl + 1 || len - dl - 1 >= sizeof(member) - dl - 1 ||
		    name[len - dl - 1] != '-' || strcmp(name + len - dl, dir) != 0)
			continue;
		snprintf(member, sizeof(member), "%.*s.%s", (int)(len - dl - 1), name, dir);
		if (!flowbench_has(docs, ndocs, member))
			return 0;
		snprintf(seq, sizeof(seq), "%s-seq", member);
		if (flowbench_has(docs, ndocs, seq)) {
			snprintf(why, sizeof(why), "fio's row %s is flowbench's %s and %s together "
				 "(a percentage_random job: import-fio makes its random and its "
				 "sequential I/O two members of a choice): not compared line by line",
				 name, member, seq);
			return rf_rename_flowop(fio, run, k, name, why);
		}
		return rf_rename_flowop(fio, run, k, member, "the rows JOB-read and JOB-write "
					"of a mixed job (rw=randrw, rw) are shown as JOB.read and "
					"JOB.write, the members of the choice import-fio makes of it");
	}
	return 0;
}

int rf_tools_align(struct rf_doc *docs, int ndocs)
{
	for (int d = 0; d < ndocs; d++) {
		if (strcmp(docs[d].tool, "fio") != 0)
			continue;
		for (int r = 0; r < docs[d].nruns; r++)
			for (int k = 0; k < docs[d].runs[r].nflowops; k++)
				if (align_row(docs, ndocs, &docs[d], &docs[d].runs[r], k) < 0)
					return -1;
	}
	return 0;
}
