/*
 * stats.c - initialising, merging, loading and differencing operation
 * counters (never on the hot path; recording is inline in the header).
 */
#include "runtime/measure/stats.h"

#include <errno.h>
#include <string.h>

void stats_init(struct op_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->lat_min_ns = UINT64_MAX;
}

void fo_stats_init(struct fo_stats *s)
{
	memset(s, 0, sizeof(*s));
	stats_init(&s->op);
	stats_init(&s->open);
}

void fo_stats_init_zeroed(struct fo_stats *s)
{
	s->op.lat_min_ns = UINT64_MAX;
	s->open.lat_min_ns = UINT64_MAX;
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
	for (int k = 0; k < FE_NKINDS; k++)
		dst->err[k] += src->err[k];
	if (src->op.count)      /* most blocks of a big run never ran an op */
		hist_merge(&dst->lat, &src->lat);
}

static void op_stats_load(struct op_stats *dst, const struct op_stats *src)
{
	dst->count = STATS_GET(src->count);
	dst->bytes = STATS_GET(src->bytes);
	dst->lat_sum_ns = STATS_GET(src->lat_sum_ns);
	dst->lat_min_ns = STATS_GET(src->lat_min_ns);
	dst->lat_max_ns = STATS_GET(src->lat_max_ns);
}

void fo_stats_load(struct fo_stats *dst, const struct fo_stats *src)
{
	op_stats_load(&dst->op, &src->op);
	op_stats_load(&dst->open, &src->open);
	dst->discarded = STATS_GET(src->discarded);
	for (int k = 0; k < FE_NKINDS; k++)
		dst->err[k] = STATS_GET(src->err[k]);
	hist_load(&dst->lat, &src->lat);
	memset(dst->pad_, 0, sizeof(dst->pad_));   /* as fo_stats_init() left the source's */
}

/* Counters never decrease, but a torn cut may make one look like it did. */
static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void op_stats_diff(struct op_stats *out, const struct op_stats *cur,
			  const struct op_stats *prev)
{
	out->count = sub0(cur->count, prev->count);
	out->bytes = sub0(cur->bytes, prev->bytes);
	out->lat_sum_ns = sub0(cur->lat_sum_ns, prev->lat_sum_ns);
	if (out->count) {
		out->lat_min_ns = cur->lat_min_ns;
		out->lat_max_ns = cur->lat_max_ns;
	} else {
		out->lat_min_ns = UINT64_MAX;
		out->lat_max_ns = 0;
		out->lat_sum_ns = 0;
		out->bytes = 0;
	}
}

void fo_stats_diff(struct fo_stats *out, const struct fo_stats *cur,
		   const struct fo_stats *prev)
{
	op_stats_diff(&out->op, &cur->op, &prev->op);
	op_stats_diff(&out->open, &cur->open, &prev->open);
	out->discarded = sub0(cur->discarded, prev->discarded);
	for (int k = 0; k < FE_NKINDS; k++)
		out->err[k] = sub0(cur->err[k], prev->err[k]);
	hist_diff(&out->lat, &cur->lat, &prev->lat);
}

enum fo_err_kind fo_err_kind_of(int e)
{
	switch (e) {
	case ENOSPC: return FE_ENOSPC;
	case EDQUOT: return FE_EDQUOT;
	case EIO: return FE_EIO;
	case EROFS: return FE_EROFS;
	case EACCES: return FE_EACCES;
	case ENOENT: return FE_ENOENT;
	case EBADF: return FE_EBADF;
	default: return FE_OTHER;
	}
}

const char *fo_err_kind_name(enum fo_err_kind k)
{
	static const char *const names[FE_NKINDS] = {
		[FE_ENOSPC] = "ENOSPC", [FE_EDQUOT] = "EDQUOT", [FE_EIO] = "EIO",
		[FE_EROFS] = "EROFS", [FE_EACCES] = "EACCES", [FE_ENOENT] = "ENOENT",
		[FE_EBADF] = "EBADF", [FE_SHORT] = "short", [FE_OTHER] = "other",
	};

	return (unsigned)k < FE_NKINDS ? names[k] : "other";
}

uint64_t fo_stats_errors(const struct fo_stats *s)
{
	uint64_t n = 0;

	for (int k = 0; k < FE_NKINDS; k++)
		n += s->err[k];
	return n;
}

const double stats_default_percentiles[STATS_DEFAULT_NPERCENTILES] = {
	50, 90, 95, 99, 99.9, 99.99,
};

double fo_stats_percentile(const struct fo_stats *s, double q)
{
	if (s->op.count == 0)
		return 0;
	return hist_percentile(&s->lat, q, s->op.lat_min_ns, s->op.lat_max_ns);
}

double fo_stats_mean(const struct fo_stats *s)
{
	return s->op.count ? (double)s->op.lat_sum_ns / (double)s->op.count : 0;
}

double fo_stats_stdev(const struct fo_stats *s)
{
	return hist_stdev(&s->lat, s->op.count, s->op.lat_sum_ns);
}

void fo_stats_lathist(const struct fo_stats *s, uint64_t out[STATS_HIST_BUCKETS])
{
	hist_to_pow2(&s->lat, out);
}
