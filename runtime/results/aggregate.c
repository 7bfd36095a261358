/*
 * aggregate.c - the text block after repeated runs: for every flowop (in
 * breakdown order, most recently defined first) and the IO Summary, the
 * mean, standard deviation, 95 % confidence interval of the mean and the
 * extremes of ops/s, mb/s and the latency per op over the runs.  Rates
 * keep four significant digits however small, latencies are in automatic
 * units (units_latency()): a mean of 7.5 µs is not "0.008" ms.  An
 * interval whose lower bound had to be raised to 0 says the runs were
 * too few for their spread.
 */
#include "runtime/results/session.h"

#include <math.h>

#include "runtime/base/log.h"
#include "runtime/base/units.h"

/* A rate: one decimal from 1000 up, else four significant digits. */
static char *rate_text(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int decimals = 1;

	if (a > 0 && a < 1000)
		decimals = 3 - (int)floor(log10(a));
	if (decimals > 12)
		decimals = 12;
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

/* A latency given in ms (the results' ms_per_op) in automatic units. */
static char *lat_text(char *buf, size_t len, double ms)
{
	return units_latency(buf, len, ms * 1e6);
}

typedef char *(*value_text_fn)(char *buf, size_t len, double v);

static void stat_line(FILE *out, const char *name, const char *unit,
		      value_text_fn show, const struct res_stat *s)
{
	char m[48], sd[48], lo[48], hi[48], mn[48], mx[48];

	fprintf(out, "%-20s %-6s mean %s sd %s ci95 [%s, %s] range [%s - %s]%s\n",
		name, unit, show(m, sizeof(m), s->mean), show(sd, sizeof(sd), s->stdev),
		show(lo, sizeof(lo), s->ci_lo), show(hi, sizeof(hi), s->ci_hi),
		show(mn, sizeof(mn), s->min), show(mx, sizeof(mx), s->max),
		s->ci_clamped ? " (ci95 clipped at 0: too few runs for their spread)" : "");
}

static void block(FILE *out, const char *name, const struct res_agg *a)
{
	stat_line(out, name, "ops/s", rate_text, &a->ops_per_s);
	stat_line(out, "", "mb/s", rate_text, &a->mb_per_s);
	stat_line(out, "", "lat/op", lat_text, &a->ms_per_op);
}

void results_print_aggregate(FILE *out, const struct results *r)
{
	if (!r->has_aggregate || r->agg_runs < 2)
		return;
	log_stamp(out);
	fprintf(out, "Aggregate over %d runs (mean, standard deviation, 95%% confidence interval of the mean, range)\n",
		r->agg_runs);
	for (int j = r->nflowops - 1; j >= 0; j--)
		block(out, r->runs[0].flowops[j].name, &r->agg[j]);
	block(out, "IO Summary", &r->agg_summary);
	fflush(out);
}
