/*
 * html_async.c - the asynchronous flowops' table of the report page
 * (html_async.h), read from each run's "async" block as the results
 * file has it (docs/results-format.md); latencies in automatic units.
 */
#include "compare/html_async.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>

#include "compare/svg.h"
#include "runtime/base/units.h"

static bool any_async(const struct rf_doc *docs, int ndocs, const struct rf_key *k)
{
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);

			if (fo && fo->async)
				return true;
		}
	return false;
}

/* async.WHAT.percentiles.PCT in ns, NaN when absent. */
static double async_pct(const json_t *a, const char *what, const char *pct)
{
	const json_t *v = json_object_get(json_object_get(json_object_get(a, what),
							  "percentiles"), pct);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void latency_cell(FILE *out, double ns)
{
	char buf[32];

	fprintf(out, "<td class=\"n\">%s</td>", units_latency(buf, sizeof(buf), ns));
}

/* fio's "IO depths" as "16=99.9%, 8=0.1%": its non-zero buckets. */
static void depths_cell(FILE *out, const json_t *a)
{
	const json_t *m = json_object_get(a, "iodepth_level");
	const char *label;
	const json_t *v;
	bool first = true;

	fputs("<td>", out);
	json_object_foreach((json_t *)m, label, v) {
		if (!json_is_number(v) || json_number_value(v) <= 0)
			continue;
		fprintf(out, "%s", first ? "" : ", ");
		html_escape(out, label);
		fprintf(out, "=%.1f%%", json_number_value(v));
		first = false;
	}
	fputs(first ? "-</td>" : "</td>", out);
}

void html_async_section(FILE *out, const struct rf_doc *docs, int ndocs,
			const struct rf_key *k)
{
	static const char *const cols[] = {
		"slat p50", "slat p99", "clat p50", "clat p99", "lat p50", "lat p99" };

	if (!any_async(docs, ndocs, k))
		return;
	fputs("<p>Asynchronous I/O as fio splits it: submission (slat), completion "
	      "(clat, the flowop's latency above) and total (lat) latency, and the "
	      "queue depth at each submission.</p>\n<table>\n<tr><th>file</th>"
	      "<th>run</th><th>ioengine</th><th>iodepth</th>", out);
	for (unsigned i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		fprintf(out, "<th>%s</th>", cols[i]);
	fputs("<th>IO depths</th></tr>\n", out);
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++) {
			const struct rf_flowop *fo = rf_find(&docs[d].runs[r], k->name,
							     k->occurrence);
			const json_t *a = fo ? fo->async : NULL;
			const json_t *depth = json_object_get(a, "iodepth");

			if (!a)
				continue;
			fprintf(out, "<tr><td>%d: ", d + 1);
			html_escape(out, docs[d].path);
			fprintf(out, "</td><td class=\"n\">%d</td><td>", docs[d].runs[r].index);
			html_escape(out, json_is_string(json_object_get(a, "ioengine")) ?
				    json_string_value(json_object_get(a, "ioengine")) : "-");
			if (json_is_integer(depth) && json_integer_value(depth) > 0)
				fprintf(out, "</td><td class=\"n\">%lld</td>",
					(long long)json_integer_value(depth));
			else
				fputs("</td><td class=\"n\">-</td>", out);
			latency_cell(out, async_pct(a, "slat_ns", "50"));
			latency_cell(out, async_pct(a, "slat_ns", "99"));
			latency_cell(out, async_pct(a, "clat_ns", "50"));
			latency_cell(out, async_pct(a, "clat_ns", "99"));
			latency_cell(out, async_pct(a, "lat_ns", "50"));
			latency_cell(out, async_pct(a, "lat_ns", "99"));
			depths_cell(out, a);
			fputs("</tr>\n", out);
		}
	fputs("</table>\n", out);
}
