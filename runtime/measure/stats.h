/*
 * stats.h - per-flowop operation counters and latency histograms.
 *
 * (The histogram itself, log-linear with a 1/256 error bound, is in
 * hist.h; a struct fo_stats is about 36 KiB, nearly all of it that.)
 *
 * Each thread instance owns one struct fo_stats per flowop of its thread
 * definition, in its own cache-line-aligned block of the shared region.
 * Only that thread writes it.  The master reads it at the end of the run
 * (after every worker exited: exact) and, for psrun, while the threads
 * are still writing it.  So that those live reads are well defined and
 * never pause a worker, every counter is an aligned 64-bit word written
 * with a relaxed atomic store (a plain mov on x86-64 and arm64: the
 * writer pays nothing) and read with a relaxed atomic load.  A live
 * snapshot is therefore exact per word but not an atomic cut across
 * words: a count and its latency sum may disagree by the op being
 * recorded at that instant.
 * Everything is 64-bit: counts cannot wrap in any realistic run.
 */
#ifndef FLOWBENCH_STATS_H
#define FLOWBENCH_STATS_H

#include <stdint.h>

#include "runtime/measure/hist.h"

/* filebench's `enable lathist`: bucket i holds 2^(i-1) <= ns < 2^i. */
#define STATS_HIST_BUCKETS HIST_POW2_BUCKETS

struct op_stats {
	uint64_t count;
	uint64_t bytes;
	uint64_t lat_sum_ns;
	uint64_t lat_min_ns;    /* UINT64_MAX while count == 0 */
	uint64_t lat_max_ns;
};

/*
 * Why an op failed (--keep-going counts them; without it the first one
 * ends the run, and is counted too).  The errnos a full, failing,
 * read-only or changed file system gives, a short transfer, and the rest.
 */
enum fo_err_kind {
	FE_ENOSPC,
	FE_EDQUOT,
	FE_EIO,
	FE_EROFS,
	FE_EACCES,
	FE_ENOENT,
	FE_EBADF,
	FE_SHORT,       /* a write, or a read inside the file, moved fewer bytes */
	FE_OTHER,       /* any other errno */
	FE_NKINDS
};

/*
 * One op writes `op` and the histogram's sum of squares, which share the
 * block's first cache line (40 + 16 bytes), and one bucket line: two
 * lines per op.  The size is a whole number of lines, so that in a
 * line-aligned array (a thread's block, shared.c) every flowop's first
 * line is its own.
 */
struct fo_stats {
	struct op_stats op;     /* the flowop's own operations */
	struct hist lat;        /* latencies of `op` (implicit opens have none);
				   its sum of squares first, in op's line */
	struct op_stats open;   /* implicit opens inside read/write: own ops */
	uint64_t discarded;     /* ops that ended after the deadline: done, not counted */
	uint64_t err[FE_NKINDS];   /* failed ops by kind: never counted in op */
	uint64_t pad_[4];       /* to a whole number of lines (asserted below) */
};
_Static_assert(sizeof(struct fo_stats) % 64 == 0,
	       "struct fo_stats: a whole number of cache lines");
_Static_assert(__builtin_offsetof(struct fo_stats, lat.sumsq_hi) + 8 <= 64,
	       "struct fo_stats: op and the sum of squares in one line");

/* The kind of a failure with errno `e` (0 or negative: FE_OTHER). */
enum fo_err_kind fo_err_kind_of(int e);
/* "ENOSPC", ..., "short", "other". */
const char *fo_err_kind_name(enum fo_err_kind k);
/* Every failed op of `s`, all kinds. */
uint64_t fo_stats_errors(const struct fo_stats *s);

/* Owner side: one more failed op of kind `k` (cold path). */
#define STATS_COUNT_ERROR(fs, k) STATS_SET((fs)->err[(k)], (fs)->err[(k)] + 1)

/* Owner-side store that a concurrent snapshot may read (see top). */
#define STATS_SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
/* Reader-side load of a word its owner may be writing. */
#define STATS_GET(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

void stats_init(struct op_stats *s);
void fo_stats_init(struct fo_stats *s);
/*
 * The same for memory known to be zero (a fresh anonymous mapping): only
 * the non-zero fields are written, so the ~36 KiB histogram of a flowop
 * stays untouched, and costs no memory, until its thread records into it.
 */
void fo_stats_init_zeroed(struct fo_stats *s);

/* Add one op of `lat_ns` moving `bytes`.  Hot path: keep it tiny. */
static inline void stats_record(struct op_stats *s, uint64_t lat_ns,
				uint64_t bytes)
{
	STATS_SET(s->count, s->count + 1);
	STATS_SET(s->bytes, s->bytes + bytes);
	STATS_SET(s->lat_sum_ns, s->lat_sum_ns + lat_ns);
	if (lat_ns < s->lat_min_ns)
		STATS_SET(s->lat_min_ns, lat_ns);
	if (lat_ns > s->lat_max_ns)
		STATS_SET(s->lat_max_ns, lat_ns);
}

/* One op of the flowop itself: counters plus its histogram. */
static inline void fo_stats_record(struct fo_stats *fs, uint64_t lat_ns,
				   uint64_t bytes)
{
	stats_record(&fs->op, lat_ns, bytes);
	hist_record(&fs->lat, lat_ns);
}

/* dst += src, keeping true extremes; an empty src changes nothing. */
void stats_merge(struct op_stats *dst, const struct op_stats *src);
void fo_stats_merge(struct fo_stats *dst, const struct fo_stats *src);

/*
 * The q-th percentile (0 < q <= 100) of the op latencies of merged
 * stats, in ns; 0 when there is no op.  Nearest rank, within 1/256 of
 * the exact value (hist_percentile).
 */
double fo_stats_percentile(const struct fo_stats *s, double q);

/* Mean and sample standard deviation of the op latencies, in ns. */
double fo_stats_mean(const struct fo_stats *s);
double fo_stats_stdev(const struct fo_stats *s);

/* filebench's 64 power-of-two buckets of the op latencies (lathist). */
void fo_stats_lathist(const struct fo_stats *s, uint64_t out[STATS_HIST_BUCKETS]);

/* The percentiles printed when none are asked for: 50 90 95 99 99.9 99.99. */
extern const double stats_default_percentiles[];
#define STATS_DEFAULT_NPERCENTILES 6

/* *dst = a copy of `src` read word by word while its owner may write it. */
void fo_stats_load(struct fo_stats *dst, const struct fo_stats *src);

/*
 * Interval statistics (psrun with a negative period): *out = cur - prev
 * for counts, bytes, latency sums, discarded and failed ops and histogram
 * buckets.
 * Extremes cannot be subtracted: the interval shows the extremes since
 * the start of the run (prev's only matter through cur, which includes
 * them).  An interval without ops shows none.
 */
void fo_stats_diff(struct fo_stats *out, const struct fo_stats *cur,
		   const struct fo_stats *prev);

#endif
