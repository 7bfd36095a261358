/*
 * coordlat.c - every client's own latency, kept by the reporting client
 * (coord.h struct coord_lat), and the outliers among the clients.
 *
 * Why compact: a histogram is 37 KB per flowop, mostly empty buckets;
 * the reporter keeps one per flowop per client (1,000 clients, a few
 * flowops: tens of MB in full).  A client sends its op counters and its
 * non-empty buckets only, as 64-bit words:
 *
 *   per flowop: count, sum_ns, min_ns, max_ns, sumsq_lo, sumsq_hi, nb,
 *               then nb pairs (bucket index, count), ascending
 *
 * and the reporter rebuilds a flowop's full statistics from them when it
 * needs percentiles (coord_lat_stats): the same buckets, so the same
 * percentiles as the client's own, and their sum is the merged run's.
 */
#include "runtime/engine/coord.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/hist.h"
#include "runtime/measure/stats.h"

#define LAT_HEADER 7            /* words before a flowop's buckets */
#define OUTLIER_K 3.0           /* bound = k x 1.4826 x MAD ... */
#define OUTLIER_MAD_SCALE 1.4826
#define OUTLIER_FLOOR 0.10      /* ... and never under 10 % of the median */

size_t coord_lat_encode(const struct fo_stats *sum, int nf, uint64_t *out)
{
	size_t n = 0;

	for (int i = 0; i < nf; i++) {
		const struct fo_stats *s = &sum[i];
		size_t head = n;
		uint64_t nb = 0;

		if (out) {
			out[n] = s->op.count;
			out[n + 1] = s->op.lat_sum_ns;
			out[n + 2] = s->op.count ? s->op.lat_min_ns : 0;
			out[n + 3] = s->op.lat_max_ns;
			out[n + 4] = s->lat.sumsq_lo;
			out[n + 5] = s->lat.sumsq_hi;
		}
		n += LAT_HEADER;
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			if (!s->lat.b[b])
				continue;
			if (out) {
				out[n] = b;
				out[n + 1] = s->lat.b[b];
			}
			n += 2;
			nb++;
		}
		if (out)
			out[head + 6] = nb;
	}
	return n;
}

size_t coord_lat_decode(const uint64_t *in, size_t nwords, int nf, struct coord_lat *out)
{
	size_t n = 0;

	for (int i = 0; i < nf; i++) {
		struct coord_lat *l = &out[i];

		memset(l, 0, sizeof(*l));
		if (n + LAT_HEADER > nwords)
			continue;       /* short (a client without its part): empty */
		l->count = in[n];
		l->sum_ns = in[n + 1];
		l->min_ns = in[n + 2];
		l->max_ns = in[n + 3];
		l->sumsq_lo = in[n + 4];
		l->sumsq_hi = in[n + 5];
		l->nb = in[n + 6];
		n += LAT_HEADER;
		if (l->nb > (nwords - n) / 2)
			l->nb = (nwords - n) / 2;
		l->b = &in[n];
		n += 2 * l->nb;
	}
	return n;
}

void coord_lat_stats(const struct coord_lat *l, struct fo_stats *s)
{
	fo_stats_init(s);
	s->op.count = l->count;
	s->op.lat_sum_ns = l->sum_ns;
	if (l->count) {
		s->op.lat_min_ns = l->min_ns;
		s->op.lat_max_ns = l->max_ns;
	}
	s->lat.sumsq_lo = l->sumsq_lo;
	s->lat.sumsq_hi = l->sumsq_hi;
	for (uint64_t k = 0; k < l->nb; k++)
		if (l->b[2 * k] < HIST_BUCKETS)
			s->lat.b[l->b[2 * k]] += l->b[2 * k + 1];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1] (sorted in place). */
static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The robust spread of v[0..n-1] around its median: `med` and the
 * bound max(k x 1.4826 x MAD, 10 % of the median).  Uses `tmp` [n].
 */
static void robust_bound(const double *v, int n, double *tmp, double *med, double *bound)
{
	double mad;

	memcpy(tmp, v, (size_t)n * sizeof(*tmp));
	*med = median_of(tmp, n);
	for (int i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - *med);
	mad = median_of(tmp, n);
	*bound = OUTLIER_K * OUTLIER_MAD_SCALE * mad;
	if (*bound < OUTLIER_FLOOR * *med)
		*bound = OUTLIER_FLOOR * *med;
}

/* A client's p50 and p99 over all its flowops (their histograms added). */
static void client_percentiles(const struct plan *p, struct run_client *c,
			       struct fo_stats *all, struct fo_stats *one)
{
	fo_stats_init(all);
	for (int i = 0; c->lat && i < p->nflowops; i++) {
		if (p->flowops[i].line != i || !c->lat[i].count)
			continue;
		coord_lat_stats(&c->lat[i], one);
		fo_stats_merge(all, one);
	}
	c->p50_ns = fo_stats_percentile(all, 50);
	c->p99_ns = fo_stats_percentile(all, 99);
}

void coord_mark_outliers(const struct plan *p, struct coord_combined *c)
{
	int n = c->nclients;
	struct fo_stats *scratch = malloc(2 * sizeof(*scratch));
	double *p99 = calloc((size_t)n + 1, sizeof(*p99));
	double *rate = calloc((size_t)n + 1, sizeof(*rate));
	double *tmp = calloc((size_t)n + 1, sizeof(*tmp));
	double med_p99, bound_p99, med_rate, bound_rate;

	if (!scratch || !p99 || !rate || !tmp)
		goto out;
	for (int i = 0; i < n; i++) {
		struct run_client *x = &c->clients[i];

		client_percentiles(p, x, &scratch[0], &scratch[1]);
		x->outlier = false;
		x->outlier_why[0] = '\0';
		p99[i] = x->p99_ns;
		rate[i] = coord_client_rate(x);
	}
	if (n < 3)
		goto out;       /* no majority to stand out from */
	robust_bound(p99, n, tmp, &med_p99, &bound_p99);
	robust_bound(rate, n, tmp, &med_rate, &bound_rate);
	for (int i = 0; i < n; i++) {
		struct run_client *x = &c->clients[i];

		if (p99[i] > med_p99 + bound_p99) {
			x->outlier = true;
			snprintf(x->outlier_why, sizeof(x->outlier_why),
				 "p99 %.3f ms > %.3f ms", p99[i] / 1e6,
				 (med_p99 + bound_p99) / 1e6);
		} else if (rate[i] < med_rate - bound_rate) {
			x->outlier = true;
			snprintf(x->outlier_why, sizeof(x->outlier_why),
				 "%.0f ops/s < %.0f", rate[i], med_rate - bound_rate);
		}
	}
out:
	free(scratch);
	free(p99);
	free(rate);
	free(tmp);
}
