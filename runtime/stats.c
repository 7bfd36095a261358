/*
 * stats.c - initialising and merging operation counters (never on the
 * hot path; stats_record() is inline in the header).
 */
#include "runtime/stats.h"

#include <string.h>

void stats_init(struct op_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->lat_min_ns = UINT64_MAX;
}

void fo_stats_init(struct fo_stats *s)
{
	stats_init(&s->op);
	stats_init(&s->open);
	s->discarded = 0;
}

void stats_merge(struct op_stats *dst, const struct op_stats *src)
{
	if (src->count == 0)
		return;
	dst->count += src->count;
	dst->bytes += src->bytes;
	dst->lat_sum_ns += src->lat_sum_ns;
	if (src->lat_min_ns < dst->lat_min_ns)
		dst->lat_min_ns = src->lat_min_ns;
	if (src->lat_max_ns > dst->lat_max_ns)
		dst->lat_max_ns = src->lat_max_ns;
}

void fo_stats_merge(struct fo_stats *dst, const struct fo_stats *src)
{
	stats_merge(&dst->op, &src->op);
	stats_merge(&dst->open, &src->open);
	dst->discarded += src->discarded;
}
