/*
 * compare.c - the table people post when they compare file systems,
 * kernels or settings: results files side by side, the first one the
 * baseline.  The table is built once as a grid of strings and then
 * written in the asked format, so the three formats always agree.
 */
#include "compare/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/clock.h"
#include "runtime/base/units.h"
#include "compare/tools.h"
#include "compare/welch.h"

/*
 * One compared quantity; of_flowop or of_summary give NaN when absent.
 * A latency percentile (pct > 0) has no IO Summary row (of_summary
 * NULL) and is shown in automatic units (ns, µs, ms, s); a cost of the
 * window (CPU, disk) has only a summary row (of_flowop NULL), named
 * summary_row.
 */
struct metric {
	const char *label;     /* table title (text, Markdown) */
	const char *csv;       /* value of the CSV "metric" column */
	double (*of_flowop)(const struct rf_flowop *fo, const struct metric *m);
	double (*of_summary)(const struct rf_summary *s);
	double pct;            /* the latency percentile, else 0 */
	const char *summary_row;   /* the summary row's name: NULL, "IO Summary" */
	bool sparse;           /* rows only for flowops some file has it for */
};

static double fo_ops(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->ops_per_s; }
static double fo_mb(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->mb_per_s; }
static double fo_ms(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->ms_per_op; }
static double fo_slat(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->slat_ms_per_op; }
static double fo_lat(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->lat_ms_per_op; }
static double sum_ops(const struct rf_summary *s) { return s->ops_per_s; }
static double sum_mb(const struct rf_summary *s) { return s->mb_per_s; }
static double sum_ms(const struct rf_summary *s) { return s->ms_per_op; }
static double sum_cpu(const struct rf_summary *s) { return s->cpu_pct; }
static double sum_cpu_op(const struct rf_summary *s) { return s->cpu_us_per_op; }
static double sum_util(const struct rf_summary *s) { return s->disk_util_pct; }

/* The flowop's latency at m->pct, in ns (NaN when the file has none). */
static double fo_pct(const struct rf_flowop *fo, const struct metric *m)
{
	for (int i = 0; i < fo->npcts; i++)
		if (fabs(fo->pcts[i].pct - m->pct) < 1e-9)
			return fo->pcts[i].ns;
	return NAN;
}

/* fio's slat and clat percentiles (a flowbench file's "async" block, an fio file's own). */
static double fo_slat50(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->slat_p50_ns; }
static double fo_slat99(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->slat_p99_ns; }
static double fo_clat50(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->clat_p50_ns; }
static double fo_clat99(const struct rf_flowop *fo, const struct metric *m) { (void)m; return fo->clat_p99_ns; }

static const struct metric metrics[] = {
	{ "ops/s", "ops_per_s", fo_ops, sum_ops, 0, NULL, false },
	{ "MB/s", "mb_per_s", fo_mb, sum_mb, 0, NULL, false },
	{ "ms/op", "ms_per_op", fo_ms, sum_ms, 0, NULL, false },
	/* fio's submission and total latency (its slat and lat; ms/op is clat) */
	{ "slat ms/op", "slat_ms_per_op", fo_slat, NULL, 0, NULL, false },
	{ "lat ms/op", "lat_ms_per_op", fo_lat, NULL, 0, NULL, false },
	{ "p50 latency", "p50_ns", fo_pct, NULL, 50, NULL, false },
	{ "p99 latency", "p99_ns", fo_pct, NULL, 99, NULL, false },
	{ "p99.9 latency", "p99.9_ns", fo_pct, NULL, 99.9, NULL, false },
	/* fio's split of asynchronous I/O: submission and completion (clat) */
	{ "slat p50", "slat_p50_ns", fo_slat50, NULL, 50, NULL, true },
	{ "slat p99", "slat_p99_ns", fo_slat99, NULL, 99, NULL, true },
	{ "clat p50", "clat_p50_ns", fo_clat50, NULL, 50, NULL, true },
	{ "clat p99", "clat_p99_ns", fo_clat99, NULL, 99, NULL, true },
	/* the window's cost, from "usage" (no per-flowop rows: CPU is a process's) */
	{ "CPU % (usr+sys, 100 = one CPU)", "cpu_pct", NULL, sum_cpu, 0, "workers", false },
	{ "CPU µs/op", "cpu_us_per_op", NULL, sum_cpu_op, 0, "workers", false },
	{ "disk util %", "disk_util_pct", NULL, sum_util, 0, "busiest device", false },
};

/* A metric without per-flowop rows, shown only when some file has it. */
static bool summary_only(const struct metric *m)
{
	return m->of_flowop == NULL;
}

/*
 * A table shown only when some file has a value in it: one without an
 * IO Summary row (a percentile, fio's slat and lat) or without flowop
 * rows (a cost).
 */
static bool if_any(const struct metric *m)
{
	return m->of_summary == NULL || summary_only(m);
}

/*
 * A table of strings, row-major, with a fixed column count.  The strings
 * are formatted into one growing pool and the cells hold offsets into
 * it: a comparison of 50,000 flowops has 600,000 cells, and a malloc'ed
 * string each was a fifth of its time.
 */
struct grid {
	int ncols;
	int ncells;
	int cap;
	size_t *cells;          /* offsets into pool */
	char *pool;
	size_t used, size;
	bool oom;
};

/* Room for `n` more bytes in the pool.  false (and oom) if there is none. */
static bool pool_room(struct grid *g, size_t n)
{
	size_t size = g->size ? g->size : 4096;
	char *p;

	if (g->size - g->used >= n)
		return true;
	while (size - g->used < n)
		size *= 2;
	if (!(p = realloc(g->pool, size))) {
		g->oom = true;
		return false;
	}
	g->pool = p;
	g->size = size;
	return true;
}

__attribute__((format(printf, 2, 3)))
static void cell(struct grid *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g->oom)
		return;
	if (g->ncells == g->cap) {
		int cap = g->cap ? g->cap * 2 : 64;
		size_t *c = realloc(g->cells, (size_t)cap * sizeof(*c));

		if (!c) {
			g->oom = true;
			return;
		}
		g->cells = c;
		g->cap = cap;
	}
	if (!pool_room(g, 64))
		return;
	va_start(ap, fmt);
	n = vsnprintf(g->pool + g->used, g->size - g->used, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= g->size - g->used) {
		if (!pool_room(g, (size_t)n + 1))
			return;
		va_start(ap, fmt);
		n = vsnprintf(g->pool + g->used, g->size - g->used, fmt, ap);
		va_end(ap);
	}
	if (n < 0) {
		g->oom = true;
		return;
	}
	g->cells[g->ncells++] = g->used;
	g->used += (size_t)n + 1;
}

static const char *at(const struct grid *g, int row, int col)
{
	return g->pool + g->cells[row * g->ncols + col];
}

static void grid_free(struct grid *g)
{
	free(g->cells);
	free(g->pool);
	memset(g, 0, sizeof(*g));
}

int cmp_format_parse(const char *name, enum cmp_format *fmt)
{
	if (strcmp(name, "text") == 0)
		*fmt = CMP_TEXT;
	else if (strcmp(name, "markdown") == 0 || strcmp(name, "md") == 0)
		*fmt = CMP_MARKDOWN;
	else if (strcmp(name, "csv") == 0)
		*fmt = CMP_CSV;
	else
		return -1;
	return 0;
}

/*
 * The metric over a file's runs, for a flowop (key) or the summary (NULL);
 * v has room for a value per run.
 */
static struct welch_sample collect(const struct rf_doc *d, const struct metric *m,
				   const struct rf_key *key, double *v)
{
	int n = 0;

	for (int r = 0; r < d->nruns; r++) {
		double x;

		if (key) {
			const struct rf_flowop *fo = rf_find(&d->runs[r], key->name,
							     key->occurrence);

			x = fo ? m->of_flowop(fo, m) : NAN;
		} else {
			x = m->of_summary(&d->runs[r].summary);
		}
		if (isfinite(x))
			v[n++] = x;
	}
	return welch_sample_of(v, n);
}

/* A value for people: about four significant digits, no exponent above 1. */
static char *human(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* The cells of one row for the text and Markdown tables. */
static void human_row(struct grid *g, const struct metric *mt, const char *name,
		      const struct welch_sample *s, int ndocs)
{
	char *(*show)(char *buf, size_t len, double v) = mt->pct > 0 ? units_latency : human;
	char m[64], sd[64];
	double pct;

	cell(g, "%s", name);
	for (int d = 0; d < ndocs; d++) {
		if (s[d].n == 0) {
			cell(g, "-");
		} else {
			show(m, sizeof(m), s[d].mean);
			show(sd, sizeof(sd), s[d].n > 1 ? s[d].stdev : NAN);
			cell(g, "%s ± %s", m, sd);
		}
		if (d == 0)
			continue;
		pct = welch_diff_pct(&s[0], &s[d]);
		if (!isnan(pct))
			cell(g, "%+.1f%%", pct);
		else
			cell(g, "-");
		if (s[0].n < 2 || s[d].n < 2) {
			cell(g, "n/a");
		} else {
			struct welch w = welch_test(&s[0], &s[d]);

			if (w.p < 0.0001)
				cell(g, "yes (p<0.0001)");
			else
				cell(g, "%s (p=%.2g)", w.p < WELCH_SIGNIFICANCE ? "yes" : "no", w.p);
		}
	}
}

/* The same row for CSV: plain numbers, one quantity per column. */
static void csv_row(struct grid *g, const char *metric, const char *name,
		    const struct welch_sample *s, int ndocs)
{
	double pct;

	cell(g, "%s", metric);
	cell(g, "%s", name);
	for (int d = 0; d < ndocs; d++) {
		if (s[d].n == 0)
			cell(g, "-");
		else
			cell(g, "%.10g", s[d].mean);
		if (s[d].n > 1)
			cell(g, "%.10g", s[d].stdev);
		else
			cell(g, "-");
		cell(g, "%d", s[d].n);
		if (d == 0)
			continue;
		pct = welch_diff_pct(&s[0], &s[d]);
		if (!isnan(pct))
			cell(g, "%.4f", pct);
		else
			cell(g, "-");
		if (s[0].n < 2 || s[d].n < 2) {
			cell(g, "-");
			cell(g, "n/a");
		} else {
			struct welch w = welch_test(&s[0], &s[d]);

			cell(g, "%.6g", w.p);
			cell(g, "%s", w.p < WELCH_SIGNIFICANCE ? "yes" : "no");
		}
	}
}

/* A row's label: the name, "name (2)" for the second of that name. */
static void row_name(char *buf, size_t len, const struct rf_key *k,
		     const struct metric *m)
{
	if (k)
		snprintf(buf, len, k->occurrence ? "%s (%d)" : "%s",
			 k->name, k->occurrence + 1);
	else
		snprintf(buf, len, "%s", m->summary_row ? m->summary_row : "IO Summary");
}

/* Display width of UTF-8 text: its code points (the table is ASCII and ±). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void print_text(FILE *out, const struct grid *g)
{
	int nrows = g->ncells / g->ncols;
	int *w = calloc((size_t)g->ncols, sizeof(*w));

	if (!w)
		return;
	for (int r = 0; r < nrows; r++)
		for (int c = 0; c < g->ncols; c++)
			if (width(at(g, r, c)) > w[c])
				w[c] = width(at(g, r, c));
	for (int r = 0; r < nrows; r++) {
		for (int c = 0; c < g->ncols; c++) {
			const char *s = at(g, r, c);
			int pad = w[c] - width(s);

			if (c == 0)
				fprintf(out, "%s%*s", s, pad, "");
			else
				fprintf(out, "  %*s%s", pad, "", s);
		}
		fputc('\n', out);
	}
	free(w);
}

/* Markdown text: ASCII punctuation that means something, escaped. */
static void md_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

static void print_markdown(FILE *out, const struct grid *g)
{
	int nrows = g->ncells / g->ncols;

	for (int r = 0; r < nrows; r++) {
		fputc('|', out);
		for (int c = 0; c < g->ncols; c++) {
			fputc(' ', out);
			md_escaped(out, at(g, r, c));
			fputs(" |", out);
		}
		fputc('\n', out);
		if (r == 0) {
			fputc('|', out);
			for (int c = 0; c < g->ncols; c++)
				fputs(c == 0 ? " :--- |" : " ---: |", out);
			fputc('\n', out);
		}
	}
}

/* RFC 4180: quote a field holding a comma, quote, CR or LF; CRLF lines. */
static void print_csv(FILE *out, const struct grid *g)
{
	int nrows = g->ncells / g->ncols;

	for (int r = 0; r < nrows; r++) {
		for (int c = 0; c < g->ncols; c++) {
			const char *s = at(g, r, c);

			if (c)
				fputc(',', out);
			if (!strpbrk(s, ",\"\r\n")) {
				fputs(s, out);
				continue;
			}
			fputc('"', out);
			for (; *s; s++) {
				if (*s == '"')
					fputc('"', out);
				fputc(*s, out);
			}
			fputc('"', out);
		}
		fputs("\r\n", out);
	}
}

/*
 * Under a file's line in the legend, for each of its runs that had
 * several clients (flowbench-mpi): how many, and the spread of their
 * ops/s with the slowest rank named, so that a straggler shows.  The
 * tables compare the merged numbers, as for any run.
 */
static void rank_lines(FILE *out, const struct rf_doc *doc, bool md)
{
	char lo[64], mid[64], hi[64], line[512];

	for (int r = 0; r < doc->nruns; r++) {
		const struct rf_run *run = &doc->runs[r];
		const struct rf_spread *s = &run->spread;
		const struct rf_rank *slow = s->n ? &run->ranks[s->slowest] : NULL;

		if (run->nranks == 0)
			continue;
		human(lo, sizeof(lo), s->n ? s->min : NAN);
		human(mid, sizeof(mid), s->n ? s->median : NAN);
		human(hi, sizeof(hi), s->n ? s->max : NAN);
		if (slow)
			snprintf(line, sizeof(line), "run %d: %d clients; ops/s per rank: min %s (slowest: rank %d on %s%s), median %s, max %s",
				 run->index, run->nranks, lo, slow->rank, slow->host,
				 slow->failed ? ", failed" : "", mid, hi);
		else
			snprintf(line, sizeof(line), "run %d: %d clients; no rank has an ops/s",
				 run->index, run->nranks);
		if (md) {
			fputs("  - ", out);
			md_escaped(out, line);
			fputc('\n', out);
		} else {
			fprintf(out, "  %s\n", line);
		}
	}
}

/* One legend line: "- " and escaped in Markdown, as is in text. */
static void legend_line(FILE *out, bool md, const char *line)
{
	if (md) {
		fputs("- ", out);
		md_escaped(out, line);
	} else {
		fputs(line, out);
	}
	fputc('\n', out);
}

/* rf_tools_lines()'s lines as legend lines. */
static void tool_line_text(void *out, const char *text)
{
	legend_line(out, false, text);
}

static void tool_line_md(void *out, const char *text)
{
	legend_line(out, true, text);
}

/* A JSON value as short text for a legend line ("-" when absent). */
static char *legend_value(const json_t *v)
{
	const char *s = json_string_value(v);

	if (!v)
		return strdup("-");
	if (s)
		return strdup(s);
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
}

/* ", name a vs b" for every variable whose value differs; "" when none. */
static void differing_variables(FILE *out, const json_t *a, const json_t *b)
{
	const json_t *sides[2] = { a, b };
	const char *name;
	json_t *v;

	for (int side = 0; side < 2; side++) {
		json_object_foreach((json_t *)sides[side], name, v) {
			const json_t *va = json_object_get(a, name), *vb = json_object_get(b, name);
			char *ta, *tb;

			if (side == 1 && va)
				continue;       /* listed from a's side */
			if (va && vb && json_equal(va, vb))
				continue;
			ta = legend_value(va);
			tb = legend_value(vb);
			fprintf(out, ", %s %s vs %s", name, ta ? ta : "?", tb ? tb : "?");
			free(ta);
			free(tb);
		}
	}
}

/* The text of one legend line built by `fn`, then printed; nothing if empty. */
struct line_buf {
	char *text;
	size_t len;
	FILE *f;
};

static bool line_open(struct line_buf *l)
{
	*l = (struct line_buf){ 0 };
	l->f = open_memstream(&l->text, &l->len);
	return l->f != NULL;
}

static void line_close(struct line_buf *l, FILE *out, bool md)
{
	if (fclose(l->f) == 0 && l->len)
		legend_line(out, md, l->text);
	free(l->text);
}

/*
 * A side timed with a TSC that did not hold, as the run itself warned
 * (runtime/base/clock.h): it strayed from CLOCK_MONOTONIC by more than
 * the threshold, or the kernel had left it when the file was written.
 */
static void warn_clock(FILE *out, const struct rf_doc *d, bool md)
{
	struct line_buf l;

	if (fabs(d->clock_drift_ppm) > CLOCK_DRIFT_WARN_PPM && line_open(&l)) {
		fprintf(l.f, "warning: %s's TSC drifted %.2f %% from CLOCK_MONOTONIC "
			"during a run: its latencies may be off by about as much",
			d->path, d->clock_drift_ppm / 1e4);
		line_close(&l, out, md);
	}
	if (strcmp(d->clock_source, "tsc") == 0 && *d->kernel_clock &&
	    strcmp(d->kernel_clock, "tsc") != 0 && line_open(&l)) {
		fprintf(l.f, "warning: %s was timed with the TSC, but the kernel kept "
			"time with %s when it ended: it had found the TSC unreliable, "
			"so its latencies may be wrong", d->path, d->kernel_clock);
		line_close(&l, out, md);
	}
}

/*
 * A side whose numbers cover less than its runs: the file's status is
 * not "ok" (failed, interrupted) or one of its runs is partial.
 */
static void warn_partial(FILE *out, const struct rf_doc *d, bool md)
{
	struct line_buf l;

	if (!d->partial || !line_open(&l))
		return;
	fprintf(l.f, "warning: %s is partial (status '%s'", d->path,
		*d->status ? d->status : "?");
	for (int r = 0; r < d->nruns; r++)
		if (d->runs[r].partial)
			fprintf(l.f, "; run %d stopped early", d->runs[r].index);
	fputs("): the session stopped before its end, so its numbers cover less work than asked", l.f);
	line_close(&l, out, md);
}

/* How a cache state reads in a sentence. */
static const char *cache_word(const char *state)
{
	return strcmp(state, "cold") == 0 ? "cold (emptied)" :
	       strcmp(state, "warm") == 0 ? "warm (filled by flowbench)" :
	       "as it was (--cache keep)";
}

/*
 * Files that did not run the same workload: its file's SHA-256 or its
 * variables differ (both are in every results file).  Then what differs
 * in the machine: the kernel, the op clock, and each file system's type
 * and mount options (by position in "filesystems").
 */
static void warn_differences(FILE *out, const struct rf_doc *a,
			     const struct rf_doc *b, bool md)
{
	struct line_buf l;
	size_t nfs = json_array_size(a->filesystems);

	if (*a->sha256 && *b->sha256 && strcmp(a->sha256, b->sha256) != 0 && line_open(&l)) {
		fprintf(l.f, "warning: %s and %s ran different workload files (sha256 %.12s vs %.12s)",
			a->path, b->path, a->sha256, b->sha256);
		line_close(&l, out, md);
	}
	if (line_open(&l)) {
		differing_variables(l.f, a->variables, b->variables);
		char *line = NULL;

		if (fclose(l.f) == 0 && l.len &&
		    asprintf(&line, "warning: %s and %s ran with different variables: %s",
			     a->path, b->path, l.text + 2) >= 0)
			legend_line(out, md, line);
		free(line);
		free(l.text);
	}
	if (*a->kernel && *b->kernel && strcmp(a->kernel, b->kernel) != 0 && line_open(&l)) {
		fprintf(l.f, "differs: kernel %s vs %s", a->kernel, b->kernel);
		line_close(&l, out, md);
	}
	if (*a->cache_state && *b->cache_state &&
	    strcmp(a->cache_state, b->cache_state) != 0 && line_open(&l)) {
		fprintf(l.f, "warning: %s ran with the page cache %s and %s with it %s "
			"(--cache, environment.cache): cached and uncached reads are "
			"different measurements, so their numbers are not comparable",
			a->path, cache_word(a->cache_state), b->path,
			cache_word(b->cache_state));
		line_close(&l, out, md);
	} else if (strcmp(a->cache_state, "warm") == 0 &&
		   strcmp(b->cache_state, "warm") == 0 &&
		   fabs(a->cache_resident_pct - b->cache_resident_pct) >= 0.05 &&
		   line_open(&l)) {
		fprintf(l.f, "differs: warm cache held %.1f %% vs %.1f %% of the files "
			"(environment.cache.resident_pct)", a->cache_resident_pct,
			b->cache_resident_pct);
		line_close(&l, out, md);
	}
	if (*a->clock_source && *b->clock_source &&
	    strcmp(a->clock_source, b->clock_source) != 0 && line_open(&l)) {
		fprintf(l.f, "differs: op clock %s vs %s (each latency includes about "
			"one read of it: environment.clock.read_cost_ns)",
			a->clock_source, b->clock_source);
		line_close(&l, out, md);
	}
	if (json_array_size(b->filesystems) > nfs)
		nfs = json_array_size(b->filesystems);
	for (size_t i = 0; i < nfs; i++) {
		const json_t *fa = json_array_get(a->filesystems, i);
		const json_t *fb = json_array_get(b->filesystems, i);
		static const char *const keys[] = { "type", "mount_options", "device" };

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *va = json_string_value(json_object_get(fa, keys[k]));
			const char *vb = json_string_value(json_object_get(fb, keys[k]));

			if ((!va && !vb) || (va && vb && strcmp(va, vb) == 0) || !line_open(&l))
				continue;
			fprintf(l.f, "differs: file system %zu (%s) %s: %s vs %s", i + 1,
				json_string_value(json_object_get(fa ? fa : fb, "path")) ?
				json_string_value(json_object_get(fa ? fa : fb, "path")) : "?",
				keys[k], va ? va : "-", vb ? vb : "-");
			line_close(&l, out, md);
		}
	}
}

/* Who is compared with whom, above the text and Markdown tables. */
static void legend(FILE *out, const struct rf_doc *docs, int ndocs, bool md)
{
	for (int d = 0; d < ndocs; d++) {
		const char *role = d == 0 ? "baseline" : "compared";

		if (md) {
			fprintf(out, "- %s: ", role);
			md_escaped(out, docs[d].path);
			fputs(" (", out);
			md_escaped(out, *docs[d].workload ? docs[d].workload : "?");
		} else {
			fprintf(out, "%s: %s (%s", role, docs[d].path,
				*docs[d].workload ? docs[d].workload : "?");
		}
		fprintf(out, ", %d run%s)\n", docs[d].nruns,
			docs[d].nruns == 1 ? "" : "s");
		rank_lines(out, &docs[d], md);
	}
	for (int d = 1; d < ndocs; d++)
		if (rf_tools_same(&docs[0], &docs[d]) &&
		    strcmp(docs[d].compat, docs[0].compat) != 0)
			fprintf(out, "%swarning: %s ran by %s's rules and %s by %s's "
				"(--compat): they count different work, so their numbers "
				"are not comparable (docs/differences.md section 10)\n",
				md ? "- " : "", docs[0].path, docs[0].compat, docs[d].path,
				docs[d].compat);
	for (int d = 0; d < ndocs; d++) {
		warn_partial(out, &docs[d], md);
		warn_clock(out, &docs[d], md);
	}
	for (int d = 1; d < ndocs; d++)
		if (rf_tools_same(&docs[0], &docs[d]))
			warn_differences(out, &docs[0], &docs[d], md);
	rf_tools_lines(docs, ndocs, md ? tool_line_md : tool_line_text, out);
	fprintf(out, "%svalues: mean ± stdev over a file's runs; %%diff against the baseline; significant: Welch's t-test, p < %g\n\n",
		md ? "- " : "", WELCH_SIGNIFICANCE);
}

static void header(struct grid *g, const char *first, const struct rf_doc *docs,
		   int ndocs)
{
	cell(g, "%s", first);
	for (int d = 0; d < ndocs; d++) {
		cell(g, "%s", docs[d].path);
		if (d) {
			cell(g, "%%diff");
			cell(g, "significant");
		}
	}
}

static void csv_header(struct grid *g, const struct rf_doc *docs, int ndocs)
{
	cell(g, "metric");
	cell(g, "flowop");
	for (int d = 0; d < ndocs; d++) {
		cell(g, "%s mean", docs[d].path);
		cell(g, "%s stdev", docs[d].path);
		cell(g, "%s runs", docs[d].path);
		if (d) {
			cell(g, "%s %%diff", docs[d].path);
			cell(g, "%s p", docs[d].path);
			cell(g, "%s significant", docs[d].path);
		}
	}
}

/*
 * The rows of one metric (all flowops, then the summary if the metric
 * has one) into g.  Returns how many rows have a value in some file:
 * 0 for a percentile no file lists.
 */
static int metric_rows(struct grid *g, const struct metric *m,
		       const struct rf_doc *docs, int ndocs,
		       const struct rf_key *keys, int nkeys, enum cmp_format fmt,
		       struct welch_sample *s, double *v)
{
	char name[300];
	int with_values = 0;

	for (int k = 0; k <= nkeys; k++) {
		const struct rf_key *key = k < nkeys ? &keys[k] : NULL;
		bool any = false;

		if (!key && !m->of_summary)
			break;
		if (key && summary_only(m))
			continue;
		for (int d = 0; d < ndocs; d++) {
			s[d] = collect(&docs[d], m, key, v);
			any |= s[d].n > 0;
		}
		with_values += any;
		if (!any && m->sparse)
			continue;       /* not an asynchronous flowop in any file */
		row_name(name, sizeof(name), key, m);
		if (fmt == CMP_CSV)
			csv_row(g, m->csv, name, s, ndocs);
		else
			human_row(g, m, name, s, ndocs);
	}
	return with_values;
}

int compare_print(FILE *out, const struct rf_doc *docs, int ndocs,
		  enum cmp_format fmt)
{
	int nkeys = 0, nmetrics = (int)(sizeof(metrics) / sizeof(metrics[0]));
	struct rf_key *keys = rf_keys(docs, ndocs, &nkeys);
	struct welch_sample *s = calloc((size_t)ndocs, sizeof(*s));
	struct grid g = { 0 };
	int status = 0, maxruns = 0;
	double *v;

	for (int d = 0; d < ndocs; d++)
		if (docs[d].nruns > maxruns)
			maxruns = docs[d].nruns;
	v = calloc((size_t)maxruns + 1, sizeof(*v));
	if (!keys || !s || !v) {
		status = -1;
		goto out;
	}
	if (fmt == CMP_CSV) {
		g.ncols = 2 + 3 * ndocs + 3 * (ndocs - 1);
		csv_header(&g, docs, ndocs);
		for (int m = 0; m < nmetrics; m++) {
			int before = g.ncells;

			if (metric_rows(&g, &metrics[m], docs, ndocs, keys, nkeys, fmt, s, v) == 0 &&
			    if_any(&metrics[m]))
				g.ncells = before;    /* a percentile or a cost no file has */
		}
		if (!g.oom)
			print_csv(out, &g);
	} else {
		legend(out, docs, ndocs, fmt == CMP_MARKDOWN);
		for (int m = 0; m < nmetrics && !g.oom; m++) {
			int rows;

			grid_free(&g);
			g.ncols = 1 + ndocs + 2 * (ndocs - 1);
			header(&g, metrics[m].label, docs, ndocs);
			rows = metric_rows(&g, &metrics[m], docs, ndocs, keys, nkeys, fmt, s, v);
			if (g.oom)
				break;
			if (rows == 0 && if_any(&metrics[m]))
				continue;       /* a percentile or a cost no file has */
			if (m)
				fputc('\n', out);
			if (fmt == CMP_MARKDOWN)
				print_markdown(out, &g);
			else
				print_text(out, &g);
		}
	}
	if (g.oom)
		status = -1;
out:
	grid_free(&g);
	free(keys);
	free(s);
	free(v);
	if (fflush(out) != 0 || ferror(out))
		status = -1;
	return status;
}
