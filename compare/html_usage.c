/*
 * html_usage.c - the page's "CPU and disks" (html_usage.h): a rate is
 * half a result when the other half is what it cost, so every run's
 * CPU and devices are shown as the text report's CPU and Disk lines
 * print them.  Text from the file (device, directory, host) is escaped;
 * an absent number is "-" and an absent usage "not measured".
 */
#include "compare/html_usage.h"

#include <math.h>

#include "compare/svg.h"

bool html_usage_measured(const struct rf_doc *doc)
{
	for (int r = 0; r < doc->nruns; r++)
		if (doc->runs[r].usage.measured)
			return true;
	return false;
}

bool html_usage_any(const struct rf_doc *docs, int ndocs)
{
	for (int d = 0; d < ndocs; d++)
		if (html_usage_measured(&docs[d]))
			return true;
	return false;
}

/* A percentage as fio prints it ("61.20"); "-" when absent. */
static void pct_cell(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "<td class=\"n\">%.2f</td>", v);
	else
		fputs("<td class=\"n\">-</td>", out);
}

/* A count: whole, grouped from 100 up ("1,234"); "-" when absent. */
static void count_cell(FILE *out, double v)
{
	char buf[448];

	if (isfinite(v) && fabs(v) < 100)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		svg_human(buf, sizeof(buf), v);
	fprintf(out, "<td class=\"n\">%s</td>", buf);
}

/* Any other number for people ("350", "12.3"); "-" when absent. */
static void human_cell(FILE *out, double v)
{
	char buf[448];

	svg_human(buf, sizeof(buf), v);
	fprintf(out, "<td class=\"n\">%s</td>", buf);
}

/* A row of a run that has no usage: its number, then "not measured". */
static void unmeasured_row(FILE *out, const struct rf_run *run, int span)
{
	fprintf(out, "<tr><td class=\"n\">%d</td><td colspan=\"%d\">not measured</td></tr>\n",
		run->index, span);
}

static void cpu_cells(FILE *out, const struct rf_cpu *c)
{
	pct_cell(out, c->usr_pct);
	pct_cell(out, c->sys_pct);
}

/* One run's CPU: the workers summed, their CPU per op, the master. */
static void cpu_row(FILE *out, const struct rf_run *run)
{
	const struct rf_cpu *w = &run->usage.workers;

	if (!run->usage.measured) {
		unmeasured_row(out, run, 8);
		return;
	}
	fprintf(out, "<tr><td class=\"n\">%d</td>", run->index);
	cpu_cells(out, w);
	human_cell(out, run->summary.cpu_us_per_op);
	count_cell(out, w->ctx);
	count_cell(out, w->majf);
	count_cell(out, w->minf);
	cpu_cells(out, &run->usage.master);
	fputs("</tr>\n", out);
}

static void cpu_table(FILE *out, const struct rf_doc *doc)
{
	fputs("<table class=\"usage\">\n<tr><th rowspan=\"2\">run</th>"
	      "<th colspan=\"6\">workers (every instance summed)</th>"
	      "<th colspan=\"2\">master (flowbench)</th></tr>\n"
	      "<tr><th>usr %</th><th>sys %</th><th>CPU µs/op</th><th>ctx</th>"
	      "<th>majf</th><th>minf</th><th>usr %</th><th>sys %</th></tr>\n", out);
	for (int r = 0; r < doc->nruns; r++)
		cpu_row(out, &doc->runs[r]);
	fputs("</table>\n", out);
}

/* The device cell: "sda1 (on sda)", escaped. */
static void device_cell(FILE *out, const struct rf_disk *d)
{
	fputs("<td>", out);
	html_escape(out, d->name);
	if (*d->on) {
		fputs(" (on ", out);
		html_escape(out, d->on);
		fputc(')', out);
	}
	fputs("</td>", out);
}

/* One run's devices, then its directories on no block device. */
static void disk_rows(FILE *out, const struct rf_run *run)
{
	const struct rf_usage *u = &run->usage;

	if (!u->measured) {
		unmeasured_row(out, run, 4);
		return;
	}
	for (int i = 0; i < u->ndisks; i++) {
		const struct rf_disk *d = &u->disks[i];

		fprintf(out, "<tr><td class=\"n\">%d</td>", run->index);
		device_cell(out, d);
		if (d->found) {
			count_cell(out, d->read_ios);
			count_cell(out, d->write_ios);
			pct_cell(out, d->util_pct);
		} else {
			fputs("<td colspan=\"3\">not in /proc/diskstats at both ends of the "
			      "window: no disk statistics</td>", out);
		}
		fputs("</tr>\n", out);
	}
	for (int i = 0; i < u->nnodev; i++) {
		fprintf(out, "<tr><td class=\"n\">%d</td><td>", run->index);
		html_escape(out, u->nodev[i].dir);
		fputs("</td><td colspan=\"3\">no block device (", out);
		html_escape(out, u->nodev[i].fstype);
		fputs("): no disk statistics</td></tr>\n", out);
	}
}

static void disk_table(FILE *out, const struct rf_doc *doc)
{
	fputs("<table class=\"usage\">\n<tr><th>run</th><th>device</th><th>reads (ios)</th>"
	      "<th>writes (ios)</th><th>util %</th></tr>\n", out);
	for (int r = 0; r < doc->nruns; r++)
		disk_rows(out, &doc->runs[r]);
	fputs("</table>\n", out);
}

/* Does any run of the file list a device or a directory on none? */
static bool any_device(const struct rf_doc *doc)
{
	for (int r = 0; r < doc->nruns; r++)
		if (doc->runs[r].usage.ndisks || doc->runs[r].usage.nnodev)
			return true;
	return false;
}

static bool any_ranks(const struct rf_doc *docs, int ndocs)
{
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++)
			if (docs[d].runs[r].nranks)
				return true;
	return false;
}

void html_usage_section(FILE *out, const struct rf_doc *docs, int ndocs)
{
	fputs("<h2>CPU and disks</h2>\n<p>What each run's timed window cost its host: "
	      "CPU time as a share of the window (100% = one CPU busy all of it), "
	      "CPU µs per op of the IO Summary, context switches, major and minor "
	      "page faults; the I/Os and utilisation of each device under the "
	      "filesets (every process's I/O on it counted).", out);
	if (any_ranks(docs, ndocs))
		fputs(" Under flowbench-mpi, rank 0's own; each rank's is in its "
		      "ranks table.", out);
	fputs("</p>\n", out);
	for (int d = 0; d < ndocs; d++) {
		fprintf(out, "<h3>%d: ", d + 1);
		html_escape(out, docs[d].path);
		fputs("</h3>\n", out);
		if (!html_usage_measured(&docs[d])) {
			fputs("<p>CPU and disks: not measured (the file holds no usage: "
			      "written before flowbench recorded it, or no run started).</p>\n",
			      out);
			continue;
		}
		cpu_table(out, &docs[d]);
		if (any_device(&docs[d]))
			disk_table(out, &docs[d]);
	}
}

void html_usage_rank_heads(FILE *out)
{
	fputs("<th>workers CPU %</th><th>busiest device util %</th>", out);
}

void html_usage_rank_cells(FILE *out, const struct rf_rank *k)
{
	if (!k->usage_measured) {
		fputs("<td colspan=\"2\">not measured</td>", out);
		return;
	}
	pct_cell(out, k->cpu_pct);
	if (isfinite(k->disk_util_pct))
		fprintf(out, "<td class=\"n\">%.2f", k->disk_util_pct);
	else
		fputs("<td class=\"n\">-", out);
	if (k->disks_total > k->ndisks)
		fprintf(out, " (%d of %d devices shown)", k->ndisks, k->disks_total);
	fputs("</td>", out);
}
