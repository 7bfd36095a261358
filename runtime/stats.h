/*
 * stats.h - per-flowop operation counters.
 *
 * Each thread instance owns one struct fo_stats per flowop of its thread
 * definition, in its own cache-line-aligned block of the shared region;
 * only that thread writes it, so recording is plain arithmetic with no
 * atomics.  The master merges the blocks after every worker has exited.
 * Everything is 64-bit: counts cannot wrap in any realistic run.
 */
#ifndef FLOWBENCH_STATS_H
#define FLOWBENCH_STATS_H

#include <stdint.h>

struct op_stats {
	uint64_t count;
	uint64_t bytes;
	uint64_t lat_sum_ns;
	uint64_t lat_min_ns;    /* UINT64_MAX while count == 0 */
	uint64_t lat_max_ns;
};

struct fo_stats {
	struct op_stats op;     /* the flowop's own operations */
	struct op_stats open;   /* implicit opens inside read/write: own ops */
	uint64_t discarded;     /* ops that ended after the deadline: done, not counted */
};

void stats_init(struct op_stats *s);
void fo_stats_init(struct fo_stats *s);

/* Add one op of `lat_ns` moving `bytes`.  Hot path: keep it tiny. */
static inline void stats_record(struct op_stats *s, uint64_t lat_ns,
				uint64_t bytes)
{
	s->count++;
	s->bytes += bytes;
	s->lat_sum_ns += lat_ns;
	if (lat_ns < s->lat_min_ns)
		s->lat_min_ns = lat_ns;
	if (lat_ns > s->lat_max_ns)
		s->lat_max_ns = lat_ns;
}

/* dst += src, keeping true extremes; an empty src changes nothing. */
void stats_merge(struct op_stats *dst, const struct op_stats *src);
void fo_stats_merge(struct fo_stats *dst, const struct fo_stats *src);

#endif
