/*
 * reshist.c - a latency histogram as the results files write it: its
 * non-empty buckets with their bounds (results.h, results_sparse_hist()),
 * for a flowop's latency and an asynchronous flowop's slat and lat.
 */
#include <stdlib.h>

#include "runtime/results/results.h"

int results_sparse_hist(struct res_latency *l, const struct hist *h)
{
	int n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		n += h->b[i] != 0;
	l->hist = calloc((size_t)n + 1, sizeof(*l->hist));
	if (!l->hist)
		return -1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		l->hist[l->nhist].lower_ns = hist_bucket_low(i);
		l->hist[l->nhist].upper_ns = hist_bucket_low(i) + (hist_bucket_width(i) - 1);
		l->hist[l->nhist].count = h->b[i];
		l->nhist++;
	}
	return 0;
}
