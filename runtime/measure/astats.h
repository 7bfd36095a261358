/*
 * astats.h - what fio reports of asynchronous I/O besides its main
 * latency, for the flowops that submit a request and reap it later
 * (aioread, aiowrite): submission latency (slat) and total latency (lat)
 * with their histograms, and fio's distributions of the queue depth at
 * submission, of the requests each submission call took and each
 * completion round returned, and of the completion latency in fio's
 * coarse buckets ("lat (usec) : 250=..%").  The completion latency
 * (clat) itself is the flowop's main latency, in its struct fo_stats.
 *
 * A struct astats is an extension block: the engine gives one only to
 * flowops whose ops say they split their latency (flowop_ops.split_latency),
 * beside their struct fo_stats in the shared region (two histograms:
 * 74 KiB).  Like fo_stats, it has a single writer (its thread), written
 * with relaxed stores and read by the master with relaxed loads.
 * docs/metrics.md defines every number, with the fio source they follow.
 */
#ifndef FLOWBENCH_ASTATS_H
#define FLOWBENCH_ASTATS_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/measure/hist.h"
#include "runtime/measure/stats.h"

/* fio's depth maps: 1, 2, 4, 8, 16, 32, >=64 (submit/complete: 0, 4, ..., >=64). */
#define ASTATS_MAP_NR 7
/* fio's latency buckets: 10 of nanoseconds, 10 of microseconds, 12 of milliseconds. */
#define ASTATS_LATB_NSEC 0
#define ASTATS_LATB_USEC 10
#define ASTATS_LATB_MSEC 20
#define ASTATS_LATB_NR 32

struct astats {
	struct op_stats slat;          /* submission latency: count, sum, extremes */
	struct op_stats lat;           /* total latency (slat + clat) */
	uint64_t depth[ASTATS_MAP_NR];    /* requests by the depth at their submission */
	uint64_t submit[ASTATS_MAP_NR];   /* submission calls by requests taken */
	uint64_t complete[ASTATS_MAP_NR]; /* completion rounds by completions returned */
	uint64_t latb[ASTATS_LATB_NR];    /* completions by clat, fio's buckets */
	uint64_t pad_[1];              /* to a whole number of lines */
	struct hist slat_h;
	struct hist lat_h;
};
_Static_assert(sizeof(struct astats) % 64 == 0, "struct astats: whole cache lines");

/* fio's io_u_mark_depth(): the bucket of a queue depth (>= 1). */
static inline unsigned astats_depth_index(uint64_t depth)
{
	unsigned i = 0;

	while (i < ASTATS_MAP_NR - 1 && depth >= (2ull << i))
		i++;
	return i;
}

/* fio's __io_u_mark_map(): 0, 1..4, 5..8, 9..16, 17..32, 33..64, more. */
static inline unsigned astats_map_index(uint64_t n)
{
	unsigned i = 0;

	if (n == 0)
		return 0;
	while (i < ASTATS_MAP_NR - 2 && n > (4ull << i))
		i++;
	return i + 1;
}

/* fio's io_u_mark_latency(): the bucket of a completion latency. */
unsigned astats_latb_index(uint64_t ns);

/*
 * Owner side: one request counted, with its three latencies (clat goes
 * to its flowop's fo_stats; here only its coarse bucket).
 */
static inline void astats_record(struct astats *a, uint64_t slat_ns,
				 uint64_t clat_ns, uint64_t lat_ns)
{
	unsigned b = astats_latb_index(clat_ns);

	stats_record(&a->slat, slat_ns, 0);
	hist_record(&a->slat_h, slat_ns);
	stats_record(&a->lat, lat_ns, 0);
	hist_record(&a->lat_h, lat_ns);
	STATS_SET(a->latb[b], a->latb[b] + 1);
}

/* Owner side: `n` requests submitted at queue depth `depth`, in one call. */
static inline void astats_submitted(struct astats *a, uint64_t depth, unsigned n)
{
	unsigned d = astats_depth_index(depth), m = astats_map_index(n);

	STATS_SET(a->depth[d], a->depth[d] + n);
	STATS_SET(a->submit[m], a->submit[m] + 1);
}

/* Owner side: a completion round returned `n` completions. */
static inline void astats_completed(struct astats *a, unsigned n)
{
	unsigned m = astats_map_index(n);

	STATS_SET(a->complete[m], a->complete[m] + 1);
}

void astats_init(struct astats *a);
/* For memory known to be zero (the shared region): only the extremes. */
void astats_init_zeroed(struct astats *a);
/* dst += src, true extremes. */
void astats_merge(struct astats *dst, const struct astats *src);
/* *dst = `src` read word by word while its owner may write it. */
void astats_load(struct astats *dst, const struct astats *src);
/* *out = cur - prev (a warm-up's baseline taken away). */
void astats_diff(struct astats *out, const struct astats *cur,
		 const struct astats *prev);
/* Restart the extremes (the measured phase begins). */
void astats_reset_extremes(struct astats *a);

/* The q-th percentile of slat or lat, in ns (0 when empty). */
double astats_slat_percentile(const struct astats *a, double q);
double astats_lat_percentile(const struct astats *a, double q);
/* Their sample standard deviations, in ns. */
double astats_slat_stdev(const struct astats *a);
double astats_lat_stdev(const struct astats *a);

/*
 * fio's percentages of a map (stat_calc_dist(): a non-zero share below
 * 0.1 % shows as 0.1) into out[ASTATS_MAP_NR].
 */
void astats_map_pct(const uint64_t *map, double *out);
/*
 * fio's percentages of the latency buckets over `total` completions
 * (stat_calc_lat(): a non-zero share below 0.01 % shows as 0.01).
 */
void astats_latb_pct(const struct astats *a, uint64_t total, double *out);
/* The label of latency bucket `i`: its bound ("250", ">=2000") and unit. */
const char *astats_latb_label(unsigned i);
const char *astats_latb_unit(unsigned i);

#endif
