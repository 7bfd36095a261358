/*
 * oplog.h - per-op logs in fio's log formats: lat/clat/slat, bw, iops and
 * clat histogram logs, a line per op or one per window (log_avg_msec,
 * log_hist_msec), readable by fio's own tools.
 *
 * A thread instance writes its logs itself, through one struct
 * oplog_writer per log set (the command line's, its process's): each op
 * the engine records (runtime/engine/thread.c, thread_record()'s slow
 * path) is formatted into a small buffer per file, which goes to the
 * file's descriptor with one write(2) when full; a window's lines are
 * written when an op of a later window, or the end, arrives.  Memory is
 * fixed per writer (oplog_writer_mem()), whatever the run's length.  The
 * files themselves are created and renamed into place by the session
 * (runtime/results/oplogfiles.c): the writer only appends to descriptors.
 *
 * docs/metrics.md ("Per-op logs") says what every column means, with the
 * fio source each fact comes from.
 */
#ifndef FLOWBENCH_OPLOG_H
#define FLOWBENCH_OPLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"

/* The files of a log set; a kind (enum plan_oplog_kind) makes one or three. */
enum oplog_file {
	OPLOG_LAT,      /* total latency: PREFIX_lat */
	OPLOG_CLAT,     /* completion latency: PREFIX_clat */
	OPLOG_SLAT,     /* submission latency: PREFIX_slat (async ops only) */
	OPLOG_BW,       /* PREFIX_bw */
	OPLOG_IOPS,     /* PREFIX_iops */
	OPLOG_HIST,     /* PREFIX_clat_hist */
	OPLOG_NFILES
};

/* The name part of file `f` ("lat", "clat_hist", ...). */
const char *oplog_file_name(enum oplog_file f);
/* The kind that writes file `f`. */
enum plan_oplog_kind oplog_file_kind(enum oplog_file f);

/*
 * The file `f` of a set with `prefix`: PREFIX_lat.N.log (N the thread
 * instance's number, from 1), or PREFIX_lat.log when `shared`.  The
 * length it needed (snprintf's), so >= size means cut.
 */
size_t oplog_path(char *buf, size_t size, const char *prefix, enum oplog_file f,
		  uint64_t num, bool shared);

/* A set's log sets at most: the command line's and the process's. */
#define OPLOG_SETS 2

/*
 * fio's latency histogram (stat.h FIO_IO_U_PLAT_*): one bin per value
 * below 2 x 64 ns, then 64 equal bins per power of two, 29 groups of 64,
 * values past the last bin in it.
 */
#define OPLOG_HIST_BITS 6
#define OPLOG_HIST_SUB (1u << OPLOG_HIST_BITS)
#define OPLOG_HIST_GROUPS 29
#define OPLOG_HIST_BINS (OPLOG_HIST_GROUPS * OPLOG_HIST_SUB)
#define OPLOG_HIST_MAX_COARSENESS 6

/* The bin of a latency of `ns` nanoseconds. */
static inline unsigned oplog_hist_index(uint64_t ns)
{
	unsigned msb, shift, idx;

	if (ns < 2 * OPLOG_HIST_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - OPLOG_HIST_BITS;
	idx = ((shift + 1) << OPLOG_HIST_BITS) +
	      (unsigned)((ns >> shift) & (OPLOG_HIST_SUB - 1));
	return idx < OPLOG_HIST_BINS ? idx : OPLOG_HIST_BINS - 1;
}

/* One op as the logs see it (the engine fills it at the op's end). */
struct oplog_op {
	uint64_t end_ns;     /* its completion, ns after the log's start */
	uint64_t lat_ns;     /* total latency */
	uint64_t clat_ns;    /* completion latency (a synchronous op's whole latency) */
	uint64_t slat_ns;    /* submission latency, when `split` */
	uint64_t bytes;      /* what it transferred */
	uint64_t offset;     /* where in the file it started */
	unsigned dir;        /* 0 read, 1 write (fio's data direction) */
	bool split;          /* submitted and reaped apart (aioread, aiowrite) */
};

/* Where one thread instance's logs of one set go. */
struct oplog_target {
	const struct plan_oplog *conf;     /* NULL: no set */
	int fd[OPLOG_NFILES];              /* -1: not written */
	const char *path[OPLOG_NFILES];    /* as the user will see it, for messages */
};

/*
 * Every log target of a run, made by the session before the run: slot
 * s's sets at target[s * OPLOG_SETS ...] (the shared region's slot
 * order: process definition, its instance, thread definition, thread
 * instance, which is also the files' numbering).
 */
struct oplog_files {
	uint64_t nslots;
	struct oplog_target *target;       /* [nslots * OPLOG_SETS] */
};

/* A thread instance's sets, or NULL when it logs nothing. */
static inline const struct oplog_target *oplog_files_of(const struct oplog_files *f,
							uint64_t slot)
{
	const struct oplog_target *t;

	if (!f || slot >= f->nslots)
		return NULL;
	t = &f->target[slot * OPLOG_SETS];
	for (int i = 0; i < OPLOG_SETS; i++)
		if (t[i].conf)
			return t;
	return NULL;
}

/* A file's pending lines. */
struct oplog_buf {
	char *data;
	size_t len, cap;
};

/* One direction's ops of the current averaging window. */
struct oplog_acc {
	uint64_t n, bytes;
	uint64_t lat, clat, slat;   /* sums of nanoseconds */
	uint64_t nslat;             /* ops with a submission latency */
};

/* One log set of one thread instance. */
struct oplog_writer {
	const struct plan_oplog *conf;
	int fd[OPLOG_NFILES];
	const char *path[OPLOG_NFILES];
	struct oplog_buf buf[OPLOG_NFILES];
	uint64_t avg_ns;            /* the averaging window; 0: a line per op */
	uint64_t avg_end;           /* the current window's end */
	struct oplog_acc acc[2];
	uint64_t hist_ns;           /* the histogram's window; 0: no histogram log */
	uint64_t hist_end;
	uint64_t *bins;             /* [2][OPLOG_HIST_BINS] of the current window */
	uint64_t hist_n[2];
	uint64_t hist_bs[2];        /* the latest op's size, per direction */
	uint64_t last_ns;           /* the latest op's end */
	int err;                    /* errno of the first failed write, else 0 */
	enum oplog_file err_file;
};

/*
 * The writer of `tg`'s set (its conf, descriptors and paths), buffers
 * allocated.  0, or -1 out of memory (nothing left allocated).
 */
int oplog_writer_init(struct oplog_writer *w, const struct oplog_target *tg);
/*
 * Log op `op` (ops in order of their end): its lines, or its share of
 * the windows, closing those it ends.  0, or -1 when a write failed
 * (w->err, w->err_file; every later call fails at once).
 */
int oplog_writer_op(struct oplog_writer *w, const struct oplog_op *op);
/*
 * The end, `end_ns` after the log's start (at least the latest op's
 * end): the windows still open, then every buffer written.  0 or -1.
 */
int oplog_writer_finish(struct oplog_writer *w, uint64_t end_ns);
void oplog_writer_free(struct oplog_writer *w);

/* The memory one writer of set `c` holds (preflight, check). */
uint64_t oplog_writer_mem(const struct plan_oplog *c);

/*
 * The lines themselves (fio 3.33's iolog.c flush_samples(),
 * flush_hist_samples()); each returns its length, at most
 * OPLOG_LINE_MAX, resp. oplog_hist_line_max().
 *
 * "TIME, VALUE, DIR, BS[, OFFSET], 0\n": the last column is fio's
 * command priority (1 only for the real-time class, which flowbench's
 * threads never use).
 */
#define OPLOG_LINE_MAX 128
size_t oplog_format_line(char *out, uint64_t ms, uint64_t value, unsigned dir,
			 uint64_t bs, bool offset, uint64_t off);
/* "TIME, DIR, BS, C0, C1, ...\n": the bins summed 2^coarseness at a time. */
size_t oplog_format_hist(char *out, uint64_t ms, unsigned dir, uint64_t bs,
			 const uint64_t *bins, int coarseness);
size_t oplog_hist_line_max(int coarseness);

/*
 * The values of an unaveraged op (fio's per-I/O samples): the bandwidth
 * of one op is bytes x 10^6 / clat_ns, in KB/s of 1000 bytes (stat.c
 * add_bw_sample()); 0 when clat_ns is 0.
 */
uint64_t oplog_op_bw(uint64_t bytes, uint64_t clat_ns);
/* A window's rates over `span_ns`: KiB/s and ops/s, truncated as fio's. */
uint64_t oplog_window_bw(uint64_t bytes, uint64_t span_ns);
uint64_t oplog_window_iops(uint64_t n, uint64_t span_ns);
/* A window's mean latency, rounded half up as fio's. */
static inline uint64_t oplog_mean(uint64_t sum, uint64_t n)
{
	return n ? (sum + n / 2) / n : 0;
}

/*
 * What the plan's logs come to, for `check` and the run's log line:
 * files, thread instances, buffers.  Nothing when the plan has no log.
 */
void oplog_describe(FILE *out, const struct plan *p);

/* The run's thread instances (= shared region slots, = the files' N). */
uint64_t oplog_slots(const struct plan *p);

/*
 * Files the plan's logs open at most (every worker holds them all):
 * per-thread ones once per thread instance, shared ones once per set.
 */
uint64_t oplog_file_count(const struct plan *p);

#endif
