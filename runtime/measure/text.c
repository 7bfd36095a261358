/*
 * text.c - the Per-Operation Breakdown and IO Summary lines.
 *
 * Same layout as filebench 1.5, with its numeric bugs fixed: 64-bit
 * counts, true min/max latencies (0.000 for a flowop with no op, never
 * garbage), one line per flowop statement even if names repeat, implicit
 * opens kept out of the read/write numbers.  Every plan flowop has a
 * line, composite invocations (no ops of their own) and their inner
 * flowops (`invocation.inner`) included; with `enable lathist` each line
 * ends with a TAB and the 64 histogram buckets.  After filebench's lines
 * come flowbench's own: implicit opens, ops not counted, failed ops
 * (--keep-going; a flowop without errors changes nothing), and the latency
 * percentiles of every flowop that ran an op in automatic units
 * (docs/metrics.md): filebench's lines keep its fixed ms.
 */
#include "runtime/measure/text.h"

#include <stdbool.h>

#include "plan/flowop.h"
#include "runtime/base/log.h"
#include "runtime/base/units.h"

static double per_second(double v, double elapsed_s)
{
	return elapsed_s > 0 ? v / elapsed_s : 0.0;
}

/* A breakdown line without its newline. */
static void flowop_fields(FILE *out, const char *name, const struct op_stats *s,
			  double elapsed_s)
{
	double ms_op = 0, min_ms = 0, max_ms = 0;

	if (s->count) {
		ms_op = (double)s->lat_sum_ns / (double)s->count / 1e6;
		min_ms = (double)s->lat_min_ns / 1e6;
		max_ms = (double)s->lat_max_ns / 1e6;
	}
	fprintf(out, "%-20s %lluops %8.0fops/s %5.1fmb/s %8.3fms/op [%.3fms - %5.3fms]",
		name, (unsigned long long)s->count,
		per_second((double)s->count, elapsed_s),
		per_second((double)s->bytes / 1048576.0, elapsed_s),
		ms_op, min_ms, max_ms);
}

void text_flowop_line(FILE *out, const char *name, const struct op_stats *s,
		      double elapsed_s)
{
	flowop_fields(out, name, s, elapsed_s);
	fputc('\n', out);
}

void text_flowop_hist_line(FILE *out, const char *name, const struct fo_stats *s,
			   double elapsed_s)
{
	uint64_t b[STATS_HIST_BUCKETS];

	fo_stats_lathist(s, b);
	flowop_fields(out, name, &s->op, elapsed_s);
	fputs("\t[ ", out);
	for (int i = 0; i < STATS_HIST_BUCKETS; i++)
		fprintf(out, "%llu ", (unsigned long long)b[i]);
	fputs("]\n", out);
}

void text_io_summary(FILE *out, const struct text_totals *t, double elapsed_s)
{
	double ms_op = t->ops ? (double)t->lat_sum_ns / (double)t->ops / 1e6 : 0.0;

	fprintf(out, "IO Summary: %5llu ops %5.3f ops/s %0.0f/%0.0f rd/wr %5.1fmb/s %5.3fms/op\n",
		(unsigned long long)t->ops,
		per_second((double)t->ops, elapsed_s),
		per_second((double)t->rd_ops, elapsed_s),
		per_second((double)t->wr_ops, elapsed_s),
		per_second((double)t->bytes / 1048576.0, elapsed_s),
		ms_op);
}

void text_io_totals(const struct plan *p, const struct fo_stats *per_flowop,
		    struct text_totals *t)
{
	*t = (struct text_totals){ 0 };
	for (int i = 0; i < p->nflowops; i++) {
		const struct flowop_ops *ops = p->flowops[i].ops;
		const struct fo_stats *s = &per_flowop[i];

		t->opens += s->open.count;
		if (!ops || (ops->cls != FLOWOP_CLASS_IO && ops->cls != FLOWOP_CLASS_AIO))
			continue;
		t->ops += s->op.count + s->open.count;
		t->bytes += s->op.bytes + s->open.bytes;
		t->lat_sum_ns += s->op.lat_sum_ns + s->open.lat_sum_ns;
		if (ops->rw & FLOWOP_RW_READ)
			t->rd_ops += s->op.count;
		if (ops->rw & FLOWOP_RW_WRITE)
			t->wr_ops += s->op.count;
	}
}

void text_discarded(FILE *out, const struct plan *p,
		    const struct fo_stats *per_flowop)
{
	uint64_t total = 0;
	const char *sep = " (";

	for (int i = 0; i < p->nflowops; i++)
		total += per_flowop[i].discarded;
	if (!total)
		return;
	log_stamp(out);
	fprintf(out, "Not counted: %llu op%s ended after the end of the run",
		(unsigned long long)total, total == 1 ? "" : "s");
	for (int i = p->nflowops - 1; i >= 0; i--) {
		if (!per_flowop[i].discarded)
			continue;
		fprintf(out, "%s%s %llu", sep, p->flowops[i].name,
			(unsigned long long)per_flowop[i].discarded);
		sep = ", ";
	}
	fputs(")\n", out);
}

void text_errors(FILE *out, const struct plan *p,
		 const struct fo_stats *per_flowop)
{
	uint64_t total = 0;
	const char *sep = " (";

	for (int i = 0; i < p->nflowops; i++)
		total += fo_stats_errors(&per_flowop[i]);
	if (!total)
		return;
	log_stamp(out);
	fprintf(out, "Errors: %llu", (unsigned long long)total);
	for (int i = p->nflowops - 1; i >= 0; i--) {
		const struct fo_stats *s = &per_flowop[i];
		uint64_t n = fo_stats_errors(s);
		const char *ksep = ": ";

		if (!n)
			continue;
		fprintf(out, "%s%s %llu", sep, p->flowops[i].name, (unsigned long long)n);
		for (int k = 0; k < FE_NKINDS; k++) {
			if (!s->err[k])
				continue;
			fprintf(out, "%s%s %llu", ksep, fo_err_kind_name((enum fo_err_kind)k),
				(unsigned long long)s->err[k]);
			ksep = ", ";
		}
		sep = "; ";
	}
	fputs(")\n", out);
}

int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* `s` right-aligned in `cols` terminal columns, after a space. */
static void right(FILE *out, const char *s, int cols)
{
	int pad = cols - text_width(s);

	fprintf(out, " %*s%s", pad > 0 ? pad : 0, "", s);
}

void text_percentiles(FILE *out, const struct plan *p,
		      const struct fo_stats *per_flowop, const double *pct, int npct)
{
	bool header = false;
	char label[32];

	if (!pct || npct <= 0) {
		pct = stats_default_percentiles;
		npct = STATS_DEFAULT_NPERCENTILES;
	}
	for (int i = p->nflowops - 1; i >= 0; i--) {
		const struct fo_stats *s = &per_flowop[i];

		if (!s->op.count)
			continue;
		if (!header) {
			log_stamp(out);
			fprintf(out, "%-24s", "Latency percentiles");
			for (int k = 0; k < npct; k++) {
				snprintf(label, sizeof(label), "p%.10g", pct[k]);
				right(out, label, 12);
			}
			fputc('\n', out);
			header = true;
		}
		log_stamp(out);
		fprintf(out, "%-24s", p->flowops[i].name);
		for (int k = 0; k < npct; k++)
			right(out, units_latency(label, sizeof(label),
						 fo_stats_percentile(s, pct[k])), 12);
		fputc('\n', out);
	}
}

double text_flowop_window(const struct plan *p, const struct text_proc_window *windows,
			  int i, double elapsed_s)
{
	const struct text_proc_window *w;

	if (!windows)
		return elapsed_s;
	w = &windows[p->threads[p->flowops[i].thread].proc];
	return w->phased ? w->window_s : elapsed_s;
}

void text_phases(FILE *out, const struct plan *p, const struct text_proc_window *windows)
{
	for (int pi = 0; windows && pi < p->nprocs; pi++) {
		const struct text_proc_window *w = &windows[pi];

		if (!w->phased)
			continue;
		log_stamp(out);
		if (w->started)
			fprintf(out, "Phase %s: %.3f s - %.3f s (%.3f s)\n",
				p->procs[pi].name, w->start_s, w->end_s, w->window_s);
		else
			fprintf(out, "Phase %s: not started\n", p->procs[pi].name);
	}
}

void text_report_windows(FILE *out, const struct plan *p,
			 const struct fo_stats *per_flowop, double elapsed_s,
			 const struct text_proc_window *windows,
			 const double *pct, int npct)
{
	struct text_totals t;

	log_stamp(out);
	fputs("Per-Operation Breakdown\n", out);
	for (int i = p->nflowops - 1; i >= 0; i--) {
		double window_s = text_flowop_window(p, windows, i, elapsed_s);

		if (p->flowops[i].line != i)
			continue;       /* joined the first flowop of its name */
		if (p->lathist)
			text_flowop_hist_line(out, p->flowops[i].name, &per_flowop[i],
					      window_s);
		else
			text_flowop_line(out, p->flowops[i].name, &per_flowop[i].op,
					 window_s);
	}
	text_io_totals(p, per_flowop, &t);
	log_stamp(out);
	text_io_summary(out, &t, elapsed_s);
	text_phases(out, p, windows);
	if (t.opens) {
		log_stamp(out);
		fprintf(out, "Implicit opens: %llu (not counted as reads/writes)\n",
			(unsigned long long)t.opens);
	}
	text_discarded(out, p, per_flowop);
	text_errors(out, p, per_flowop);
	text_percentiles(out, p, per_flowop, pct, npct);
	fflush(out);
}

void text_report(FILE *out, const struct plan *p,
		 const struct fo_stats *per_flowop, double elapsed_s,
		 const double *pct, int npct)
{
	text_report_windows(out, p, per_flowop, elapsed_s, NULL, pct, npct);
}
