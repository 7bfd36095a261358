/*
 * resasync.c - the asynchronous flowops' fio figures for the results
 * files (struct res_async): submission and total latency with their
 * histograms, and fio's depth and latency-bucket distributions, from the
 * merged extension blocks a run leaves (runtime/measure/astats.h).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/flowop.h"
#include "runtime/results/results.h"

void results_async_free(struct res_async *a)
{
	if (!a)
		return;
	free(a->slat.hist);
	free(a->lat.hist);
	free(a);
}

/* A latency of the block (its counters, its histogram) as struct res_latency. */
static int async_latency(struct res_latency *l, const struct results *r,
			 const struct op_stats *o, const struct hist *h, double stdev)
{

	l->mean = o->count ? (double)o->lat_sum_ns / (double)o->count : 0;
	l->stdev = stdev;
	l->min = o->count ? (double)o->lat_min_ns : 0;
	l->max = (double)o->lat_max_ns;
	for (int k = 0; k < r->npct; k++)
		l->pct[k] = o->count ? hist_percentile(h, r->pct[k], o->lat_min_ns,
						       o->lat_max_ns) : 0;
	return results_sparse_hist(l, h);
}

static struct res_async *async_of(const struct results *r, const struct plan_flowop *pf,
				  const struct astats *a)
{
	struct res_async *o = calloc(1, sizeof(*o));
	const struct plan_value *eng = plan_flowop_attr(pf, "ioengine");

	if (!o)
		return NULL;
	o->engine = eng->kind == PV_STRING ? eng->u.s : "io_uring";
	o->iodepth = plan_value_int(plan_flowop_attr(pf, "iodepth"), 0);
	if (async_latency(&o->slat, r, &a->slat, &a->slat_h, astats_slat_stdev(a)) < 0 ||
	    async_latency(&o->lat, r, &a->lat, &a->lat_h, astats_lat_stdev(a)) < 0) {
		results_async_free(o);
		return NULL;
	}
	memcpy(o->depth, a->depth, sizeof(o->depth));
	memcpy(o->submit, a->submit, sizeof(o->submit));
	memcpy(o->complete, a->complete, sizeof(o->complete));
	memcpy(o->latb, a->latb, sizeof(o->latb));
	astats_map_pct(a->depth, o->depth_pct);
	astats_map_pct(a->submit, o->submit_pct);
	astats_map_pct(a->complete, o->complete_pct);
	astats_latb_pct(a, a->lat.count, o->latb_pct);
	return o;
}

int results_add_async(struct results *r, const struct plan *p,
		      struct astats *const *astats)
{
	struct res_run *run;

	if (r->nruns == 0)
		return -1;
	run = &r->runs[r->nruns - 1];
	for (int i = 0, n = 0; astats && i < p->nflowops; i++) {
		struct res_flowop *o;

		if (p->flowops[i].line != i)
			continue;
		o = &run->flowops[n++];
		if (!astats[i] || !astats[i]->lat.count)
			continue;
		results_async_free(o->async);
		o->async = async_of(r, &p->flowops[i], astats[i]);
		if (!o->async)
			return -1;
	}
	return 0;
}
