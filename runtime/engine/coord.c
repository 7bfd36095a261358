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
	free(c->lats);
	free(c->lat_block);
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

double coord_client_rate(const struct run_client *c)
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
			r = coord_client_rate(x);
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

/* Slowest first: the higher p99, then the lower ops/s. */
static int cmp_slowest(const void *a, const void *b)
{
	const struct run_client *x = *(const struct run_client *const *)a;
	const struct run_client *y = *(const struct run_client *const *)b;
	double rx = coord_client_rate(x), ry = coord_client_rate(y);

	if (x->p99_ns != y->p99_ns)
		return x->p99_ns < y->p99_ns ? 1 : -1;
	return (rx > ry) - (rx < ry);
}

/*
 * "Slowest clients": the SLOWEST_SHOWN clients with the highest p99 over
 * all their flowops (then the lowest ops/s), every outlier among them
 * or not, so that a slow client's tail shows next to its rate.
 */
#define SLOWEST_SHOWN 5
static void print_slowest(FILE *out, const struct coord_combined *c)
{
	const struct run_client **order = calloc((size_t)c->nclients + 1, sizeof(*order));
	int shown = 0, outliers = 0;

	if (!order)
		return;
	for (int i = 0; i < c->nclients; i++) {
		order[i] = &c->clients[i];
		outliers += c->clients[i].outlier;
	}
	qsort(order, (size_t)c->nclients, sizeof(*order), cmp_slowest);
	fprintf(out, "Slowest clients (by p99 over all flowops; %d outlier%s):\n",
		outliers, outliers == 1 ? "" : "s");
	fprintf(out, "%6s %-24s %12s %12s %12s  %s\n", "rank", "host", "ops/s",
		"p50 ms", "p99 ms", "outlier");
	for (int i = 0; i < c->nclients; i++) {
		const struct run_client *x = order[i];

		if (shown >= SLOWEST_SHOWN && !x->outlier)
			continue;
		shown++;
		fprintf(out, "%6d %-24.24s %12.0f %12.3f %12.3f  %s\n", x->rank, x->host,
			coord_client_rate(x), x->p50_ns / 1e6, x->p99_ns / 1e6,
			x->outlier ? x->outlier_why : "-");
	}
	free(order);
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
		rates[i] = coord_client_rate(&c->clients[i]);
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
		"window %.3f s", c->skew_s * 1e3, c->skew_error_s * 1e3, c->elapsed_s);
	if (c->nominal_s > 0)
		fprintf(out, " (%+.3f ms from the run's %g s)",
			(c->elapsed_s - c->nominal_s) * 1e3, c->nominal_s);
	fprintf(out, ", merged in %.3f ms after %.3f ms waiting for the last rank\n",
		c->merge_s * 1e3, c->wait_s * 1e3);
	fprintf(out, "Start: lead %.1f ms (barrier spread %.3f ms), latest rank %.3f ms late\n",
		c->lead_s * 1e3, c->spread_s * 1e3, c->late_s * 1e3);
	fprintf(out, "Per rank: %.0f ops/s min (rank %d, %s), %.0f median, %.0f max\n",
		lo, c->clients[slowest].rank, c->clients[slowest].host, mid, hi);
	print_hosts(out, c, rates);
	print_slowest(out, c);
	free(rates);
}
