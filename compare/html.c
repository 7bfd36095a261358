/*
 * html.c - the page of `flowbench report`.  Everything taken from a
 * results file is escaped (it may hold any host, path or error text);
 * charts come from svg.c; nothing refers to anything outside the file.
 * A run of several clients (flowbench-mpi) gets a section of its ranks;
 * what the runs' windows cost (CPU, disks) is html_usage.c's.
 */
#include "compare/html.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare/html_usage.h"
#include "compare/nameidx.h"
#include "compare/svg.h"
#include "compare/tools.h"
#include "compare/welch.h"

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1180px;color:#222}\n"
	"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}\n"
	"td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left;vertical-align:top}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"th{background:#f3f3f3}.err{color:#b00}\n"
	".files td{max-width:24em;overflow-wrap:anywhere}\n"
	".charts{display:flex;flex-wrap:wrap;gap:12px}\n"
	"svg{background:#fff;border:1px solid #e5e5e5}\n"
	"svg text{font-family:sans-serif;fill:#222}.ct{font-size:14px;font-weight:bold}\n"
	".tk{font-size:11px}.at{font-size:12px}.lg{font-size:11px}\n"
	".pa{fill:#fafafa;stroke:#999}.g{stroke:#e2e2e2}\n"
	".legend{font-size:.9em}.key{display:inline-block;width:.8em;height:.8em;margin-right:.3em}\n"
	".s{fill:none;stroke-width:2}.eb{stroke:#222;stroke-width:1.5;fill:none}\n"
	"tr.differs td,tr.differs th{background:#fff3c4}td.sig{background:#dcf2dc;font-weight:bold}\n";

/* "1: base.json": a file in legends and bar labels. */
static char *file_label(const struct rf_doc *docs, int d)
{
	char *s = NULL;

	if (asprintf(&s, "%d: %s", d + 1, docs[d].path) < 0)
		return NULL;
	return s;
}

/*
 * Flattened "key = value" pairs of one file's header, malloc'ed strings,
 * and their keys indexed (a workload may have thousands of variables).
 */
struct pairs {
	int n, cap;
	char **key;
	char **val;
	struct nameidx bykey;
	bool oom;
};

static void add_pair(struct pairs *p, const char *key, const char *val)
{
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 32;
		char **k = realloc(p->key, (size_t)cap * sizeof(*k));
		char **v = k ? realloc(p->val, (size_t)cap * sizeof(*v)) : NULL;

		if (k)
			p->key = k;
		if (!k || !v) {
			p->oom = true;
			return;
		}
		p->val = v;
		p->cap = cap;
	}
	p->key[p->n] = strdup(key);
	p->val[p->n] = strdup(val);
	if (!p->key[p->n] || !p->val[p->n]) {
		free(p->key[p->n]);
		free(p->val[p->n]);
		p->oom = true;
		return;
	}
	p->n++;
}

static void free_pairs(struct pairs *p)
{
	for (int i = 0; i < p->n; i++) {
		free(p->key[i]);
		free(p->val[i]);
	}
	free(p->key);
	free(p->val);
	nameidx_free(&p->bykey);
}

/* Index the keys once all are in: the first pair of a key wins. */
static void index_pairs(struct pairs *p)
{
	struct nameidx_entry *e = calloc((size_t)p->n + 1, sizeof(*e));

	if (!e) {
		p->oom = true;
		return;
	}
	for (int i = 0; i < p->n; i++)
		e[i] = (struct nameidx_entry){ p->key[i], 0, i };
	nameidx_init(&p->bykey, e, p->n);
}

/* A JSON scalar as text ("" for containers). */
static void scalar_text(char *buf, size_t len, const json_t *v)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.15g", json_real_value(v));
	else if (json_is_true(v))
		snprintf(buf, len, "true");
	else if (json_is_false(v))
		snprintf(buf, len, "false");
	else if (json_is_null(v))
		snprintf(buf, len, "null");
	else
		buf[0] = '\0';
}

/* Any JSON subtree as pairs "a.b[0].c" = value; absent: nothing. */
static void flatten(struct pairs *p, const char *prefix, const json_t *v)
{
	char key[512], buf[1024];

	if (!v)
		return;
	if (json_is_object(v)) {
		const char *k;
		json_t *sub;

		json_object_foreach((json_t *)v, k, sub) {
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			flatten(p, key, sub);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *sub;

		json_array_foreach((json_t *)v, i, sub) {
			snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
			flatten(p, key, sub);
		}
	} else {
		scalar_text(buf, sizeof(buf), v);
		add_pair(p, prefix, buf);
	}
}

/*
 * The time each run was measured, from its elapsed_s: "2.00 s", or with
 * several runs their mean and each ("2.00 s (runs: 2.00, 2.01, 2.00)").
 */
static void run_time_text(char *buf, size_t len, const struct rf_doc *doc)
{
	size_t used;
	char v[64];

	svg_human(v, sizeof(v), doc->nruns ? doc->runs[0].elapsed_s : NAN);
	if (doc->nruns > 1) {
		double sum = 0;

		for (int r = 0; r < doc->nruns; r++)
			sum += doc->runs[r].elapsed_s;
		svg_human(v, sizeof(v), sum / doc->nruns);
	}
	used = (size_t)snprintf(buf, len, "%s s", v);
	for (int r = 0; doc->nruns > 1 && r < doc->nruns && used + 80 < len; r++) {
		svg_human(v, sizeof(v), doc->runs[r].elapsed_s);
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 r ? ", " : " (runs: ", v);
	}
	if (doc->nruns > 1 && used + 2 < len)
		snprintf(buf + used, len - used, ")");
}

/*
 * The script's variables but `runtime`: the script's value is not what
 * ran when --runtime or 'run N' overrode it, and "run time" says what did.
 */
static void variable_pairs(struct pairs *p, const json_t *vars)
{
	char key[512];
	const char *k;
	json_t *v;

	if (!json_is_object(vars))
		return;
	json_object_foreach((json_t *)vars, k, v) {
		if (strcmp(k, "runtime") == 0)
			continue;
		snprintf(key, sizeof(key), "workload.%s", k);
		flatten(p, key, v);
	}
}

/* What a file says about its run: workload, date, command, environment. */
static void header_pairs(struct pairs *p, const struct rf_doc *doc)
{
	const json_t *root = doc->root, *cmd = json_object_get(root, "command");
	const json_t *wl = json_object_get(root, "workload");
	char buf[2048];
	size_t i, used = 0;
	json_t *v;

	add_pair(p, "workload", doc->workload);
	add_pair(p, "date", doc->runs[0].started);
	snprintf(buf, sizeof(buf), "%d", doc->nruns);
	add_pair(p, "runs", buf);
	run_time_text(buf, sizeof(buf), doc);
	add_pair(p, "run time (measured)", buf);
	add_pair(p, "status", doc->status);
	if (json_is_string(json_object_get(root, "error")))
		add_pair(p, "error", json_string_value(json_object_get(root, "error")));
	buf[0] = '\0';
	json_array_foreach((json_t *)cmd, i, v) {
		const char *arg = json_string_value(v);
		int n = snprintf(buf + used, sizeof(buf) - used, "%s%s",
				 i ? " " : "", arg ? arg : "");

		if (n < 0 || (size_t)n >= sizeof(buf) - used)
			break;
		used += (size_t)n;
	}
	add_pair(p, "command", buf);
	flatten(p, "flowbench", json_object_get(root, "flowbench"));
	flatten(p, "seed", json_object_get(root, "seed"));
	flatten(p, "compat", json_object_get(root, "compat"));     /* whose rules (--compat) */
	flatten(p, "source", json_object_get(root, "source"));     /* another tool's (fio's) */
	flatten(p, "workload.sha256", json_object_get(wl, "sha256"));
	variable_pairs(p, json_object_get(wl, "variables"));
	flatten(p, "environment", json_object_get(root, "environment"));
}

static const char *lookup(const struct pairs *p, const char *key)
{
	int i = nameidx_find(&p->bykey, key, 0);

	return i >= 0 ? p->val[i] : NULL;
}

/* Do the files have different values (or one none) under this key? */
static bool differs(const struct pairs *p, int ndocs, const char *key)
{
	const char *first = lookup(&p[0], key);

	for (int d = 1; d < ndocs; d++) {
		const char *v = lookup(&p[d], key);

		if (!first || !v ? first != v : strcmp(first, v) != 0)
			return true;
	}
	return false;
}

/*
 * One table, a column per file, a row per key any file has; with several
 * files the rows where they differ are highlighted.
 */
static int files_table(FILE *out, const struct rf_doc *docs, int ndocs)
{
	struct pairs *p = calloc((size_t)ndocs, sizeof(*p));
	int status = 0;

	if (!p)
		return -1;
	for (int d = 0; d < ndocs; d++) {
		header_pairs(&p[d], &docs[d]);
		index_pairs(&p[d]);
		if (p[d].oom)
			status = -1;
	}
	if (ndocs > 1)
		fputs("<p>Highlighted rows: the files differ there.</p>\n", out);
	fputs("<table class=\"files\">\n<tr><th></th>", out);
	for (int d = 0; d < ndocs; d++) {
		fprintf(out, "<th>%d: ", d + 1);
		html_escape(out, docs[d].path);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (int d = 0; d < ndocs && !status; d++) {
		for (int i = 0; i < p[d].n; i++) {
			bool seen = false;

			for (int e = 0; e < d && !seen; e++)
				seen = lookup(&p[e], p[d].key[i]) != NULL;
			if (seen)
				continue;
			fputs(differs(p, ndocs, p[d].key[i]) ? "<tr class=\"differs\"><th>" :
			      "<tr><th>", out);
			html_escape(out, p[d].key[i]);
			fputs("</th>", out);
			for (int e = 0; e < ndocs; e++) {
				const char *v = lookup(&p[e], p[d].key[i]);

				fputs(strcmp(p[d].key[i], "error") == 0 ?
				      "<td class=\"err\">" : "<td>", out);
				html_escape(out, v ? v : "-");
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
		}
	}
	fputs("</table>\n", out);
	for (int d = 0; d < ndocs; d++)
		free_pairs(&p[d]);
	free(p);
	return status;
}

/* The page's list of rf_tools_lines(), opened at its first line. */
struct tool_list {
	FILE *out;
	int n;
};

static void tool_item(void *arg, const char *text)
{
	struct tool_list *l = arg;

	if (l->n++ == 0)
		fputs("<ul class=\"tools\">\n", l->out);
	fputs("<li>", l->out);
	html_escape(l->out, text);
	fputs("</li>\n", l->out);
}

/* What compare's legend says of files of other tools (fio's), as a list. */
static void tools_list(FILE *out, const struct rf_doc *docs, int ndocs)
{
	struct tool_list l = { out, 0 };

	rf_tools_lines(docs, ndocs, tool_item, &l);
	if (l.n)
		fputs("</ul>\n", out);
}

/* The coloured keys of the files, inside a legend paragraph. */
static void legend_keys(FILE *out, const char *const *labels, int n)
{
	for (int i = 0; i < n; i++) {
		fprintf(out, "<span class=\"key\" style=\"background:%s\"></span>",
			svg_color(i));
		html_escape(out, labels[i]);
		fputs(" &nbsp; ", out);
	}
}

/* Which colour is which file, above a flowop's charts. */
static void legend(FILE *out, const char *const *labels, int n, bool runs)
{
	fputs("<p class=\"legend\">", out);
	legend_keys(out, labels, n);
	if (runs)
		fputs("(dashed lines: a file's later runs)", out);
	fputs("</p>\n", out);
}

/* Does every run of every file that has this flowop have intervals? */
static bool all_intervals(const struct rf_doc *docs, int ndocs,
			  const struct rf_key *k)
{
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			if (fo && fo->niv == 0)
				return false;
		}
	return true;
}

static void widen(struct svg_axis *a, double v, bool *first)
{
	if (!isfinite(v))
		return;
	if (*first || v < a->min)
		a->min = v;
	if (*first || v > a->max)
		a->max = v;
	*first = false;
}

/* "1: a.json, run 2": whose point, in its hover text. */
static void series_name(char *buf, size_t len, const struct rf_doc *docs, int d, int r)
{
	snprintf(buf, len, "%d: %s, run %d", d + 1, docs[d].path, r + 1);
}

/* A quantity recorded per interval, charted over the measured time. */
struct over_time {
	const char *title;
	const char *ytitle;
	enum svg_scale scale;
	svg_label_fn *label;
	double (*of)(const struct rf_interval *iv);
};

static double iv_ops(const struct rf_interval *iv) { return iv->ops_per_s; }
static double iv_p50(const struct rf_interval *iv) { return iv->p50_ns; }
static double iv_p99(const struct rf_interval *iv) { return iv->p99_ns; }

static const struct over_time over_time[] = {
	{ "ops/s over time", "ops/s", SVG_LINEAR, svg_label_number, iv_ops },
	{ "p50 latency over time", "p50", SVG_LOG, svg_label_ns, iv_p50 },
	{ "p99 latency over time", "p99", SVG_LOG, svg_label_ns, iv_p99 },
};

/* Can v be drawn on this scale (a log axis has no 0)? */
static bool drawable(enum svg_scale scale, double v)
{
	return isfinite(v) && (scale != SVG_LOG || v > 0);
}

/*
 * One quantity per interval of each run (a file's colour, its later
 * runs dashed).  Fewer than two points make no chart: false.
 */
static bool time_chart(FILE *out, const struct rf_doc *docs, int ndocs,
		       const struct rf_key *k, const struct over_time *q,
		       double *xs, double *ys)
{
	bool fx = true, fy = true;
	int points = 0;
	char name[512];
	struct svg_chart c = {
		.out = out, .width = 380, .height = 290,
		.x = { SVG_LINEAR, 0, 0, "time (s)", svg_label_number },
		.y = { q->scale, 0, 0, q->ytitle, q->label },
	};

	widen(&c.x, 0, &fx);
	if (q->scale == SVG_LINEAR)
		widen(&c.y, 0, &fy);
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			for (int i = 0; fo && i < fo->niv; i++) {
				if (!drawable(q->scale, q->of(&fo->iv[i])))
					continue;
				widen(&c.x, fo->iv[i].t_s, &fx);
				widen(&c.y, q->of(&fo->iv[i]), &fy);
				points++;
			}
		}
	if (points < 2)
		return false;
	svg_begin(&c, q->title);
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			if (!fo)
				continue;
			for (int i = 0; i < fo->niv; i++) {
				xs[i] = fo->iv[i].t_s;
				ys[i] = q->of(&fo->iv[i]);
			}
			series_name(name, sizeof(name), docs, d, r);
			svg_series(&c, name, xs, ys, fo->niv, d, r > 0);
		}
	svg_end(&c);
	return true;
}

/* ops/s of each run, when runs have no intervals; false: under two points. */
static bool runs_chart(FILE *out, const struct rf_doc *docs, int ndocs,
		       const struct rf_key *k, double *xs, double *ys)
{
	bool fx = true, fy = true;
	int points = 0;
	char name[512];
	struct svg_chart c = {
		.out = out, .width = 380, .height = 290,
		.x = { SVG_LINEAR, 0, 0, "run", svg_label_number },
		.y = { SVG_LINEAR, 0, 0, "ops/s", svg_label_number },
	};

	widen(&c.x, 1, &fx);
	widen(&c.y, 0, &fy);
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			if (!fo || !isfinite(fo->ops_per_s))
				continue;
			widen(&c.x, r + 1, &fx);
			widen(&c.y, fo->ops_per_s, &fy);
			points++;
		}
	if (points < 2)
		return false;
	svg_begin(&c, "ops/s per run (no intervals recorded)");
	for (int d = 0; d < ndocs; d++) {
		int n = 0;

		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			if (fo) {
				xs[n] = r + 1;
				ys[n++] = fo->ops_per_s;
			}
		}
		snprintf(name, sizeof(name), "%d: %s", d + 1, docs[d].path);
		svg_series(&c, name, xs, ys, n, d, false);
	}
	svg_end(&c);
	return true;
}

/*
 * Over time when every run has intervals: ops/s, then p50 and p99
 * latency next to it; else ops/s per run.  A single point is no chart.
 */
static void time_charts(FILE *out, const struct rf_doc *docs, int ndocs,
			const struct rf_key *k, double *xs, double *ys)
{
	if (!all_intervals(docs, ndocs, k)) {
		runs_chart(out, docs, ndocs, k, xs, ys);
		return;
	}
	for (size_t q = 0; q < sizeof(over_time) / sizeof(over_time[0]); q++)
		time_chart(out, docs, ndocs, k, &over_time[q], xs, ys);
}

/* Latency at each percentile, one line per run, both axes logarithmic. */
static void latency_chart(FILE *out, const struct rf_doc *docs, int ndocs,
			  const struct rf_key *k, double *xs, double *ys)
{
	bool fx = true, fy = true;
	int points = 0;
	char name[512];
	struct svg_chart c = {
		.out = out, .width = 380, .height = 290,
		.x = { SVG_NINES, 0, 0, "percentile", svg_label_pct },
		.y = { SVG_LOG, 0, 0, "latency", svg_label_ns },
	};

	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			for (int i = 0; fo && i < fo->npcts; i++) {
				if (!(fo->pcts[i].ns > 0))
					continue;
				widen(&c.x, fo->pcts[i].pct, &fx);
				widen(&c.y, fo->pcts[i].ns, &fy);
				points++;
			}
		}
	if (fy) {
		fputs("<p>No latency percentiles (no op completed).</p>\n", out);
		return;
	}
	if (points < 2)
		return;
	svg_begin(&c, "latency percentiles");
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			if (!fo)
				continue;
			for (int i = 0; i < fo->npcts; i++) {
				xs[i] = fo->pcts[i].pct;
				ys[i] = fo->pcts[i].ns;
			}
			series_name(name, sizeof(name), docs, d, r);
			svg_series(&c, name, xs, ys, fo->npcts, d, r > 0);
		}
	svg_end(&c);
}

/* The IO Summary's metric (metric_names): its rates, then the window's cost. */
static double summary_value(const struct rf_summary *s, int metric)
{
	const double v[] = { s->ops_per_s, s->mb_per_s, s->ms_per_op,
			     s->cpu_us_per_op, s->disk_util_pct };

	return v[metric];
}

/* The values of a flowop (k) or of the summary (NULL) over a file's runs. */
static struct welch_sample values(const struct rf_doc *doc, const struct rf_key *k,
				  int metric, double *v)
{
	int n = 0;

	for (int r = 0; r < doc->nruns; r++) {
		const struct rf_run *run = &doc->runs[r];
		const struct rf_flowop *fo = k ? rf_find(run, k->name, k->occurrence) : NULL;
		double x = NAN;

		if (k && fo)
			x = metric == 0 ? fo->ops_per_s : metric == 1 ? fo->mb_per_s : fo->ms_per_op;
		else if (!k)
			x = summary_value(&run->summary, metric);
		if (isfinite(x))
			v[n++] = x;
	}
	return welch_sample_of(v, n);
}

/* A flowop's three; the IO Summary's two more when a run measured them. */
static const char *const metric_names[] = {
	"ops/s", "MB/s", "ms/op", "CPU µs/op (workers)", "disk util % (busiest device)"
};
#define FIRST_COST_METRIC 3     /* metric_names before it are rates, from it costs */

/* Which metrics a numbers table shows. */
static const int rate_metrics[] = { 0, 1, 2 };
static const int cost_metrics[] = { 0, 3, 4 };  /* ops/s next to what it cost */
#define NMETRICS(list) ((int)(sizeof(list) / sizeof((list)[0])))

/*
 * A file's change against the first, computed as `flowbench compare`
 * does: %diff of the means, and Welch's t-test (welch.h) over the runs,
 * significant under WELCH_SIGNIFICANCE; "n/a" when a side has one run.
 */
static void diff_cells(FILE *out, const struct welch_sample *base,
		       const struct welch_sample *s)
{
	double pct = welch_diff_pct(base, s);
	struct welch w;

	if (!isnan(pct))
		fprintf(out, "<td class=\"n\">%+.1f%%</td>", pct);
	else
		fputs("<td class=\"n\">-</td>", out);
	if (base->n < 2 || s->n < 2) {
		fputs("<td>n/a</td>", out);
		return;
	}
	w = welch_test(base, s);
	fputs(w.p < WELCH_SIGNIFICANCE ? "<td class=\"sig\">yes" : "<td>no", out);
	if (w.p < 0.0001)
		fputs(" (p&lt;0.0001)</td>", out);
	else
		fprintf(out, " (p=%.2g)</td>", w.p);
}

/* A file's mean ± stdev of a metric; the cost of a file that never measured it: so. */
static void value_cell(FILE *out, const struct rf_doc *doc, int m,
		       const struct welch_sample *s)
{
	char buf[160];

	if (m >= FIRST_COST_METRIC && !html_usage_measured(doc)) {
		fputs("<td>not measured</td>", out);
		return;
	}
	svg_human_pm(buf, sizeof(buf), s->n ? s->mean : NAN, s->n > 1 ? s->stdev : NAN);
	fprintf(out, "<td class=\"n\">%s</td>", buf);
}

/*
 * The numbers behind the charts: per file, mean ± stdev of each metric
 * ms[0..nm-1] over its runs, and with several files each one's %diff
 * against the first and whether it is significant.
 */
static void numbers_table(FILE *out, const struct rf_doc *docs, int ndocs,
			  const struct rf_key *k, double *v, const int *ms, int nm)
{
	fputs("<table>\n<tr><th>file</th><th>runs</th>", out);
	for (int i = 0; i < nm; i++) {
		fprintf(out, "<th>%s</th>", metric_names[ms[i]]);
		if (ndocs > 1)
			fputs("<th>%diff vs 1</th><th>significant</th>", out);
	}
	fputs("</tr>\n", out);
	for (int d = 0; d < ndocs; d++) {
		fprintf(out, "<tr><td>%d: ", d + 1);
		html_escape(out, docs[d].path);
		fprintf(out, "</td><td class=\"n\">%d</td>", docs[d].nruns);
		for (int i = 0; i < nm; i++) {
			struct welch_sample base = values(&docs[0], k, ms[i], v);
			struct welch_sample s = values(&docs[d], k, ms[i], v);

			value_cell(out, &docs[d], ms[i], &s);
			if (ndocs > 1 && d == 0)
				fputs("<td class=\"n\">-</td><td>(baseline)</td>", out);
			else if (ndocs > 1)
				diff_cells(out, &base, &s);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Mean ± stdev of ops/s per file, side by side. */
static void bars_chart(FILE *out, const struct rf_doc *docs, int ndocs,
		       const struct rf_key *k, const char *const *legend,
		       double *v, double *mean, double *err)
{
	for (int d = 0; d < ndocs; d++) {
		struct welch_sample s = values(&docs[d], k, 0, v);

		mean[d] = s.n ? s.mean : NAN;
		err[d] = s.n > 1 ? s.stdev : NAN;
	}
	svg_bars(out, "ops/s, mean ± stdev over runs", "ops/s", svg_label_number,
		 legend, mean, err, ndocs);
}

static bool several(const struct rf_doc *docs, int ndocs)
{
	if (ndocs > 1)
		return true;
	return docs[0].nruns > 1;
}

/* Does any file hold more than one run? */
static bool repeats(const struct rf_doc *docs, int ndocs)
{
	for (int d = 0; d < ndocs; d++)
		if (docs[d].nruns > 1)
			return true;
	return false;
}

static void flowop_section(FILE *out, const struct rf_doc *docs, int ndocs,
			   const struct rf_key *k, const char *const *names,
			   double *a, double *b, double *c)
{
	fputs("<h2>flowop ", out);
	html_escape(out, k->name);
	if (k->occurrence)
		fprintf(out, " (%d)", k->occurrence + 1);
	fputs("</h2>\n", out);
	numbers_table(out, docs, ndocs, k, a, rate_metrics, NMETRICS(rate_metrics));
	legend(out, names, ndocs, repeats(docs, ndocs));
	fputs("<div class=\"charts\">\n", out);
	time_charts(out, docs, ndocs, k, a, b);
	latency_chart(out, docs, ndocs, k, a, b);
	if (several(docs, ndocs))
		bars_chart(out, docs, ndocs, k, names, a, b, c);
	fputs("</div>\n", out);
}

/* More ranks than this: the table only (the bars would be slivers). */
#define RANK_BARS_MAX 64

/* ops/s per rank as bars, labelled "rank N". */
static int rank_bars(FILE *out, const struct rf_run *run)
{
	int n = run->nranks;
	char **labels = calloc((size_t)n, sizeof(*labels));
	double *rate = calloc((size_t)n, sizeof(*rate)), *err = calloc((size_t)n, sizeof(*err));
	int status = labels && rate && err ? 0 : -1;

	for (int i = 0; !status && i < n; i++) {
		if (asprintf(&labels[i], "rank %d", run->ranks[i].rank) < 0) {
			labels[i] = NULL;
			status = -1;
		}
		rate[i] = run->ranks[i].ops_per_s;
		err[i] = NAN;
	}
	if (!status)
		svg_bars(out, "ops/s per rank (each over its own window)", "ops/s",
			 svg_label_number, (const char *const *)labels, rate, err, n);
	for (int i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
	free(rate);
	free(err);
	return status;
}

/* A number cell with `prec` decimals; "-" when absent. */
static void number_cell(FILE *out, double v, int prec)
{
	if (isfinite(v))
		fprintf(out, "<td class=\"n\">%.*f</td>", prec, v);
	else
		fputs("<td class=\"n\">-</td>", out);
}

/* An ops/s for people: whole numbers from 100 up, else 3 significant digits. */
static void ops_rate_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 100 ? "%.0f" : "%.3g", v);
}

/*
 * One rank's row: rank, host, ops/s, window, errors, its workers' CPU %
 * and busiest device, failed (and why).
 */
static void rank_row(FILE *out, const struct rf_rank *k, bool slowest)
{
	char rate[48];

	fputs(slowest ? "<tr class=\"slowest\" style=\"background:#fde2e2;font-weight:bold\">" :
	      "<tr>", out);
	fprintf(out, "<td class=\"n\">%d</td><td>", k->rank);
	html_escape(out, k->host);
	fputs("</td>", out);
	if (isfinite(k->ops_per_s)) {
		ops_rate_text(rate, sizeof(rate), k->ops_per_s);
		fprintf(out, "<td class=\"n\">%s</td>", rate);
	} else {
		fputs("<td class=\"n\">-</td>", out);
	}
	number_cell(out, k->window_s, 3);
	number_cell(out, k->errors, 0);
	html_usage_rank_cells(out, k);
	if (k->failed) {
		fputs("<td class=\"err\">yes", out);
		if (*k->error) {
			fputs(": ", out);
			html_escape(out, k->error);
		}
		fputs("</td>", out);
	} else {
		fputs("<td>no</td>", out);
	}
	fputs("</tr>\n", out);
}

/*
 * A run of several clients (flowbench-mpi): a row per rank (host, its
 * ops/s over its own window, the window, errors, its CPU and busiest
 * device, whether it failed),
 * the slowest highlighted, and the rates as bars.
 */
static int ranks_section(FILE *out, const struct rf_doc *docs, int d, int r)
{
	const struct rf_run *run = &docs[d].runs[r];
	const struct rf_spread *s = &run->spread;
	char lo[48], mid[48], hi[48];

	fprintf(out, "<h2>ranks: %d: ", d + 1);
	html_escape(out, docs[d].path);
	fprintf(out, ", run %d</h2>\n<p>%d clients", run->index, run->nranks);
	if (s->n > 0) {
		ops_rate_text(lo, sizeof(lo), s->min);
		ops_rate_text(mid, sizeof(mid), s->median);
		ops_rate_text(hi, sizeof(hi), s->max);
		fprintf(out, "; ops/s per rank: min %s, median %s, max %s; "
			"the slowest, rank %d, is highlighted", lo, mid, hi,
			run->ranks[s->slowest].rank);
	}
	fputs(".</p>\n<table>\n<tr><th>rank</th><th>host</th><th>ops/s</th>"
	      "<th>window (s)</th><th>errors</th>", out);
	html_usage_rank_heads(out);
	fputs("<th>failed</th></tr>\n", out);
	for (int i = 0; i < run->nranks; i++)
		rank_row(out, &run->ranks[i], i == s->slowest);
	fputs("</table>\n", out);
	if (run->nranks > RANK_BARS_MAX) {
		fprintf(out, "<p>No bar chart for more than %d ranks.</p>\n", RANK_BARS_MAX);
		return 0;
	}
	fputs("<div class=\"charts\">\n", out);
	if (rank_bars(out, run) < 0)
		return -1;
	fputs("</div>\n", out);
	return 0;
}

/* Room for the longest series: intervals, percentiles, runs or files. */
static size_t longest(const struct rf_doc *docs, int ndocs)
{
	size_t n = (size_t)ndocs;

	for (int d = 0; d < ndocs; d++) {
		if ((size_t)docs[d].nruns > n)
			n = (size_t)docs[d].nruns;
		for (int r = 0; r < docs[d].nruns; r++)
			for (int f = 0; f < docs[d].runs[r].nflowops; f++) {
				const struct rf_flowop *fo = &docs[d].runs[r].flowops[f];

				if ((size_t)fo->niv > n)
					n = (size_t)fo->niv;
				if ((size_t)fo->npcts > n)
					n = (size_t)fo->npcts;
			}
	}
	return n + 1;
}

/* The latency at percentile pct of a file's runs, their mean; NaN: none. */
static double mean_pct(const struct rf_doc *doc, const struct rf_key *k, double pct)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; r < doc->nruns; r++) {
		const struct rf_flowop *fo = rf_find(&doc->runs[r], k->name, k->occurrence);

		for (int i = 0; fo && i < fo->npcts; i++)
			if (fo->pcts[i].pct == pct && fo->pcts[i].ns > 0) {
				sum += fo->pcts[i].ns;
				n++;
			}
	}
	return n ? sum / n : NAN;
}

/*
 * Before the flowops' sections, one chart of them all: p50 to p99 of
 * each flowop and file (the mean over a file's runs).  No chart for a
 * single range.  0, or -1 when memory ran out.
 */
static int overview(FILE *out, const struct rf_doc *docs, int ndocs,
		    const struct rf_key *keys, int nkeys, const char *const *legend)
{
	size_t n = (size_t)nkeys * (size_t)ndocs;
	double *p50 = calloc(n + 1, sizeof(*p50)), *p99 = calloc(n + 1, sizeof(*p99));
	char **cats = calloc((size_t)nkeys + 1, sizeof(*cats));
	int status = p50 && p99 && cats ? 0 : -1, ranges = 0;

	for (int k = 0; !status && k < nkeys; k++) {
		if (asprintf(&cats[k], keys[k].occurrence ? "%s (%d)" : "%s",
			     keys[k].name, keys[k].occurrence + 1) < 0) {
			cats[k] = NULL;
			status = -1;
		}
		for (int d = 0; d < ndocs; d++) {
			p50[k * ndocs + d] = mean_pct(&docs[d], &keys[k], 50);
			p99[k * ndocs + d] = mean_pct(&docs[d], &keys[k], 99);
			ranges += isfinite(p50[k * ndocs + d]) && isfinite(p99[k * ndocs + d]);
		}
	}
	if (!status && ranges > 1) {
		struct svg_ranges r = {
			.title = "latency per flowop: p50 to p99", .cats = (const char *const *)cats,
			.ncats = nkeys, .files = legend, .nfiles = ndocs, .p50 = p50, .p99 = p99,
		};

		fputs("<h2>Latency per flowop</h2>\n", out);
		fputs("<p class=\"legend\">", out);
		legend_keys(out, legend, ndocs);
		fputs("(hover for values)</p>\n<div class=\"charts\">\n", out);
		svg_range_chart(out, &r);
		fputs("</div>\n", out);
	}
	for (int k = 0; cats && k < nkeys; k++)
		free(cats[k]);
	free(cats);
	free(p50);
	free(p99);
	return status;
}

int html_report(FILE *out, const struct rf_doc *docs, int ndocs)
{
	size_t room = longest(docs, ndocs);
	double *a = calloc(room, sizeof(double)), *b = calloc(room, sizeof(double));
	double *c = calloc(room, sizeof(double));
	char **legend = calloc((size_t)ndocs, sizeof(*legend));
	int nkeys = 0, status = 0;
	struct rf_key *keys = rf_keys(docs, ndocs, &nkeys);

	for (int d = 0; legend && d < ndocs; d++)
		if (!(legend[d] = file_label(docs, d)))
			status = -1;
	if (!a || !b || !c || !legend || !keys || status) {
		status = -1;
		goto out;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>flowbench report: ", out);
	html_escape(out, docs[0].workload);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>flowbench report: ", style);
	html_escape(out, docs[0].workload);
	fputs("</h1>\n", out);
	if (files_table(out, docs, ndocs) < 0)
		status = -1;
	tools_list(out, docs, ndocs);

	fputs("<h2>IO Summary</h2>\n", out);
	numbers_table(out, docs, ndocs, NULL, a, rate_metrics, NMETRICS(rate_metrics));
	if (html_usage_any(docs, ndocs)) {
		/* the rates next to what they cost, as `flowbench compare` shows them */
		fputs("<p>What the rates cost: the workers' CPU per op and the busiest "
		      "device's utilisation (each run's under CPU and disks).</p>\n", out);
		numbers_table(out, docs, ndocs, NULL, a, cost_metrics, NMETRICS(cost_metrics));
	}
	if (several(docs, ndocs)) {
		fputs("<div class=\"charts\">\n", out);
		bars_chart(out, docs, ndocs, NULL, (const char *const *)legend, a, b, c);
		fputs("</div>\n", out);
	}
	html_usage_section(out, docs, ndocs);
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++)
			if (docs[d].runs[r].nranks > 0 && ranks_section(out, docs, d, r) < 0)
				status = -1;
	if (overview(out, docs, ndocs, keys, nkeys, (const char *const *)legend) < 0)
		status = -1;
	for (int k = 0; k < nkeys; k++)
		flowop_section(out, docs, ndocs, &keys[k], (const char *const *)legend,
			       a, b, c);
	fputs("</body>\n</html>\n", out);
out:
	for (int d = 0; legend && d < ndocs; d++)
		free(legend[d]);
	free(legend);
	free(keys);
	free(a);
	free(b);
	free(c);
	if (fflush(out) != 0 || ferror(out))
		status = -1;
	return status;
}
