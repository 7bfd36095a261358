/*
 * astats.c - the asynchronous flowops' extension block (astats.h):
 * fio's bucket rules, initialising, merging, loading, differencing and
 * the numbers the report prints.  Recording is inline in the header.
 */
#include "runtime/measure/astats.h"

#include <string.h>

/*
 * fio's coarse latency buckets (io_u.c, io_u_mark_lat_nsec/usec/msec):
 * within a unit, a value below `bound` and not below the previous bound.
 */
static const uint16_t astats_bounds[ASTATS_LATB_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,          /* nsec */
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,          /* usec */
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 0, /* msec; >= 2000 */
};

unsigned astats_latb_index(uint64_t ns)
{
	unsigned base;
	uint64_t v;
	unsigned i;

	if (ns < 1000) {
		base = ASTATS_LATB_NSEC;
		v = ns;
	} else if (ns < 1000000) {
		base = ASTATS_LATB_USEC;
		v = ns / 1000;
	} else {
		base = ASTATS_LATB_MSEC;
		v = ns / 1000000;
	}
	for (i = base; i < ASTATS_LATB_NR - 1 && astats_bounds[i]; i++)
		if (v < astats_bounds[i])
			return i;
	return ASTATS_LATB_NR - 1;      /* >= 2000 ms */
}

const char *astats_latb_label(unsigned i)
{
	static const char *const labels[ASTATS_LATB_NR] = {
		"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
		"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
		"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
		"2000", ">=2000",
	};

	return i < ASTATS_LATB_NR ? labels[i] : "";
}

const char *astats_latb_unit(unsigned i)
{
	return i < ASTATS_LATB_USEC ? "nsec" : i < ASTATS_LATB_MSEC ? "usec" : "msec";
}

void astats_init(struct astats *a)
{
	memset(a, 0, sizeof(*a));
	astats_init_zeroed(a);
}

void astats_init_zeroed(struct astats *a)
{
	a->slat.lat_min_ns = UINT64_MAX;
	a->lat.lat_min_ns = UINT64_MAX;
}

static void astats_add_map(uint64_t *dst, const uint64_t *src, int n)
{
	for (int i = 0; i < n; i++)
		dst[i] += src[i];
}

void astats_merge(struct astats *dst, const struct astats *src)
{
	stats_merge(&dst->slat, &src->slat);
	stats_merge(&dst->lat, &src->lat);
	astats_add_map(dst->depth, src->depth, ASTATS_MAP_NR);
	astats_add_map(dst->submit, src->submit, ASTATS_MAP_NR);
	astats_add_map(dst->complete, src->complete, ASTATS_MAP_NR);
	astats_add_map(dst->latb, src->latb, ASTATS_LATB_NR);
	if (src->slat.count) {
		hist_merge(&dst->slat_h, &src->slat_h);
		hist_merge(&dst->lat_h, &src->lat_h);
	}
}

static void astats_load_ops(struct op_stats *dst, const struct op_stats *src)
{
	dst->count = STATS_GET(src->count);
	dst->bytes = STATS_GET(src->bytes);
	dst->lat_sum_ns = STATS_GET(src->lat_sum_ns);
	dst->lat_min_ns = STATS_GET(src->lat_min_ns);
	dst->lat_max_ns = STATS_GET(src->lat_max_ns);
}

static void astats_load_map(uint64_t *dst, const uint64_t *src, int n)
{
	for (int i = 0; i < n; i++)
		dst[i] = STATS_GET(src[i]);
}

void astats_load(struct astats *dst, const struct astats *src)
{
	const struct astats *s = src;

	astats_load_ops(&dst->slat, &s->slat);
	astats_load_ops(&dst->lat, &s->lat);
	astats_load_map(dst->depth, s->depth, ASTATS_MAP_NR);
	astats_load_map(dst->submit, s->submit, ASTATS_MAP_NR);
	astats_load_map(dst->complete, s->complete, ASTATS_MAP_NR);
	astats_load_map(dst->latb, s->latb, ASTATS_LATB_NR);
	memset(dst->pad_, 0, sizeof(dst->pad_));
	hist_load(&dst->slat_h, &s->slat_h);
	hist_load(&dst->lat_h, &s->lat_h);
}

/* Counters never decrease, but a torn cut may make one look like it did. */
static uint64_t astats_sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void astats_diff_ops(struct op_stats *out, const struct op_stats *cur,
			    const struct op_stats *prev)
{
	out->count = astats_sub0(cur->count, prev->count);
	out->bytes = astats_sub0(cur->bytes, prev->bytes);
	out->lat_sum_ns = out->count ? astats_sub0(cur->lat_sum_ns, prev->lat_sum_ns) : 0;
	out->lat_min_ns = out->count ? cur->lat_min_ns : UINT64_MAX;
	out->lat_max_ns = out->count ? cur->lat_max_ns : 0;
}

static void astats_diff_map(uint64_t *out, const uint64_t *cur, const uint64_t *prev,
			    int n)
{
	for (int i = 0; i < n; i++)
		out[i] = astats_sub0(cur[i], prev[i]);
}

void astats_diff(struct astats *out, const struct astats *cur,
		 const struct astats *prev)
{
	astats_diff_ops(&out->slat, &cur->slat, &prev->slat);
	astats_diff_ops(&out->lat, &cur->lat, &prev->lat);
	astats_diff_map(out->depth, cur->depth, prev->depth, ASTATS_MAP_NR);
	astats_diff_map(out->submit, cur->submit, prev->submit, ASTATS_MAP_NR);
	astats_diff_map(out->complete, cur->complete, prev->complete, ASTATS_MAP_NR);
	astats_diff_map(out->latb, cur->latb, prev->latb, ASTATS_LATB_NR);
	memset(out->pad_, 0, sizeof(out->pad_));
	hist_diff(&out->slat_h, &cur->slat_h, &prev->slat_h);
	hist_diff(&out->lat_h, &cur->lat_h, &prev->lat_h);
}

void astats_reset_extremes(struct astats *a)
{
	STATS_SET(a->slat.lat_min_ns, UINT64_MAX);
	STATS_SET(a->slat.lat_max_ns, 0);
	STATS_SET(a->lat.lat_min_ns, UINT64_MAX);
	STATS_SET(a->lat.lat_max_ns, 0);
}

double astats_slat_percentile(const struct astats *a, double q)
{
	if (!a->slat.count)
		return 0;
	return hist_percentile(&a->slat_h, q, a->slat.lat_min_ns, a->slat.lat_max_ns);
}

double astats_lat_percentile(const struct astats *a, double q)
{
	if (!a->lat.count)
		return 0;
	return hist_percentile(&a->lat_h, q, a->lat.lat_min_ns, a->lat.lat_max_ns);
}

double astats_slat_stdev(const struct astats *a)
{
	return hist_stdev(&a->slat_h, a->slat.count, a->slat.lat_sum_ns);
}

double astats_lat_stdev(const struct astats *a)
{
	return hist_stdev(&a->lat_h, a->lat.count, a->lat.lat_sum_ns);
}

void astats_map_pct(const uint64_t *map, double *out)
{
	uint64_t total = 0;

	for (int i = 0; i < ASTATS_MAP_NR; i++)
		total += map[i];
	for (int i = 0; i < ASTATS_MAP_NR; i++) {
		out[i] = total ? 100.0 * (double)map[i] / (double)total : 0;
		if (map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

void astats_latb_pct(const struct astats *a, uint64_t total, double *out)
{
	for (int i = 0; i < ASTATS_LATB_NR; i++) {
		out[i] = total ? 100.0 * (double)a->latb[i] / (double)total : 0;
		if (a->latb[i] && out[i] < 0.01)
			out[i] = 0.01;
	}
}
