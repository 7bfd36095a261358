/*
 * interval.c - an --interval row from the difference of two readings of
 * a flowop's statistics (interval.h).
 */
#include "runtime/measure/interval.h"

#include <string.h>

#include "runtime/measure/stats.h"

static double per_second(double v, double dt_s)
{
	return dt_s > 0 ? v / dt_s : 0.0;
}

void interval_fill(struct interval_row *iv, const struct fo_stats *s,
		   double t_s, double dt_s, const double *pct, int npct)
{
	const struct op_stats *op = &s->op;

	memset(iv, 0, sizeof(*iv));
	iv->t_s = t_s;
	iv->dt_s = dt_s;
	iv->ops = op->count;
	iv->bytes = op->bytes;
	iv->ops_per_s = per_second((double)op->count, dt_s);
	iv->mb_per_s = per_second((double)op->bytes / 1048576.0, dt_s);
	iv->has_latency = op->count > 0;
	if (!iv->has_latency)
		return;
	iv->mean_ns = (double)op->lat_sum_ns / (double)op->count;
	for (int k = 0; k < npct && k < INTERVAL_MAX_PCT; k++)
		iv->pct[k] = fo_stats_percentile(s, pct[k]);
}
