/*
 * coord.c - what the engine itself does with a coordinator's results
 * (coord.h); the coordinator is elsewhere (mpi/).
 */
#include "runtime/engine/coord.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/text.h"

void coord_combined_free(struct coord_combined *c)
{
	free(c->clients);
	free(c->lost);
	free(c->counts);
	free(c->iv_stats);
	free(c->windows);
	memset(c, 0, sizeof(*c));
}

struct text_proc_window *coord_phase_windows(const struct plan *p,
					     const struct coord_phase *sp,
					     uint64_t release_ns, uint64_t start_ns)
{
	struct text_proc_window *win;

	if (!sp || !(win = calloc((size_t)p->nprocs + 1, sizeof(*win))))
		return NULL;
	for (int pi = 0; pi < p->nprocs; pi++) {
		uint64_t s = sp[pi].start_ns, e = sp[pi].end_ns;
		uint64_t from = s > start_ns ? s : start_ns;

		win[pi].phased = p->procs[pi].phased;
		win[pi].started = s != 0;
		if (!win[pi].started)
			continue;
		win[pi].start_s = ((double)s - (double)release_ns) / 1e9;
		win[pi].end_s = ((double)e - (double)release_ns) / 1e9;
		win[pi].window_s = e > from ? (double)(e - from) / 1e9 : 0;
	}
	return win;
}

/* A client's ops/s over its own window. */
static double client_rate(const struct run_client *c)
{
	double s = c->end_s - c->start_s;

	return s > 0 ? (double)c->ops / s : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of rates[0..n-1] (sorted in place). */
static double median(double *rates, int n)
{
	qsort(rates, (size_t)n, sizeof(*rates), cmp_double);
	return n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
}

/*
 * One row per host: its clients' ops/s summed, the spread over its
 * clients (min, median, max) and the slowest client named, so that a
 * straggler shows.  Hosts in order of their first rank.
 */
static void print_hosts(FILE *out, const struct coord_combined *c, double *rates)
{
	bool *done = calloc((size_t)c->nclients, sizeof(*done));
	bool all_failed = true;     /* an interrupt: none is singled out */

	if (!done)
		return;
	for (int i = 0; i < c->nclients; i++)
		all_failed &= c->clients[i].failed;
	fprintf(out, "%-24s %6s %12s %12s %12s %12s  %s\n", "host", "ranks",
		"ops/s", "min", "median", "max", "slowest");
	for (int i = 0; i < c->nclients; i++) {
		const struct run_client *slow = NULL;
		double total = 0, lo = 0, hi = 0;
		int n = 0;

		if (done[i])
			continue;
		for (int k = i; k < c->nclients; k++) {
			const struct run_client *x = &c->clients[k];
			double r;

			if (done[k] || strcmp(x->host, c->clients[i].host) != 0)
				continue;
			done[k] = true;
			r = client_rate(x);
			rates[n++] = r;
			total += r;
			if (!slow || r < lo) {
				slow = x;
				lo = r;
			}
			if (n == 1 || r > hi)
				hi = r;
		}
		fprintf(out, "%-24.24s %6d %12.0f %12.0f %12.0f %12.0f  rank %d%s\n",
			c->clients[i].host, n, total, lo, median(rates, n), hi,
			slow->rank, slow->failed && !all_failed ? " (failed)" : "");
	}
	free(done);
}

void coord_print_clients(FILE *out, const struct plan *p,
			 const struct coord_combined *c)
{
	double *rates = calloc((size_t)c->nclients + 1, sizeof(*rates));
	double lo, mid, hi;
	int slowest = 0;

	(void)p;
	if (!rates || c->nclients == 0) {
		free(rates);
		return;
	}
	for (int i = 0; i < c->nclients; i++) {
		rates[i] = client_rate(&c->clients[i]);
		if (rates[i] < rates[slowest])
			slowest = i;
	}
	lo = rates[slowest];
	mid = median(rates, c->nclients);
	hi = rates[c->nclients - 1];
	if (c->nlost)
		fprintf(out, "Clients: %d of %d (lost: ", c->nclients, c->nclients + c->nlost);
	else
		fprintf(out, "Clients: %d", c->nclients);
	for (int i = 0; i < c->nlost; i++)
		fprintf(out, "%srank %d (%s)%s", i ? ", " : "", c->lost[i].rank,
			c->lost[i].host, i + 1 == c->nlost ? ")" : "");
	fprintf(out, ", start skew %.3f ms (clocks compared to within %.3f ms), "
		"window %.3f s, merged in %.3f ms\n", c->skew_s * 1e3,
		c->skew_error_s * 1e3, c->elapsed_s, c->merge_s * 1e3);
	fprintf(out, "Per rank: %.0f ops/s min (rank %d, %s), %.0f median, %.0f max\n",
		lo, c->clients[slowest].rank, c->clients[slowest].host, mid, hi);
	print_hosts(out, c, rates);
	free(rates);
}
