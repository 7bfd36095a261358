/*
 * aggregate.c - the text block after repeated runs: for every flowop (in
 * breakdown order, most recently defined first) and the IO Summary, the
 * mean, standard deviation, 95 % confidence interval of the mean and the
 * extremes of ops/s, mb/s and ms/op over the runs.
 */
#include "runtime/results/session.h"

#include "runtime/base/log.h"

/* One quantity: `prec` decimals, as the breakdown prints it. */
static void stat_line(FILE *out, const char *name, const char *unit, int prec,
		      const struct res_stat *s)
{
	fprintf(out, "%-20s %-6s mean %.*f sd %.*f ci95 [%.*f, %.*f] range [%.*f - %.*f]\n",
		name, unit, prec, s->mean, prec, s->stdev, prec, s->ci_lo,
		prec, s->ci_hi, prec, s->min, prec, s->max);
}

static void block(FILE *out, const char *name, const struct res_agg *a)
{
	stat_line(out, name, "ops/s", 1, &a->ops_per_s);
	stat_line(out, "", "mb/s", 1, &a->mb_per_s);
	stat_line(out, "", "ms/op", 3, &a->ms_per_op);
}

void text_aggregate(FILE *out, const struct run_results *r)
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
