/*
 * threadlog.h - a thread instance's per-op logs (runtime/measure/oplog.h):
 * its writers made before the barrier, started at its measured phase,
 * fed by thread_record()'s slow path, finished after its flowops'
 * fini.  thread.c holds one struct thread_log per thread and calls
 * these; nothing here runs for a thread without logs.
 */
#ifndef FLOWBENCH_THREADLOG_H
#define FLOWBENCH_THREADLOG_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/clock.h"

struct oplog_files;
struct oplog_writer;

struct thread_log {
	struct oplog_writer *w;     /* a writer per log set [n], NULL without */
	int n;
	int failed;                 /* the writer whose write failed, or -1 */
	uint64_t epoch_ticks;       /* the logs' time 0 */
};

/*
 * The writers of shared region slot `slot`, whose sets `files` holds
 * (NULL or none: no log, nothing allocated).  0, or -1 out of memory.
 */
int thread_log_prepare(struct thread_log *l, const struct oplog_files *files,
		       uint64_t slot);

/* The logs' times count from `epoch_ns` (CLOCK_MONOTONIC) on clock `clk`. */
void thread_log_start(struct thread_log *l, const struct clock_scale *clk,
		      uint64_t epoch_ns);

/* The ticks of an op as the logs need them. */
struct thread_log_times {
	uint64_t ts;    /* submitted (UINT64_MAX: a synchronous op) */
	uint64_t t0;    /* issued: the submission returned, or the op started */
	uint64_t t1;    /* completed */
	uint64_t ns;    /* t0 to t1, as recorded */
};

/*
 * A counted op of a flowop whose ops are marked `rw` (plan/flowop.h:
 * only reads and writes are logged, as fio logs its data directions) to
 * every writer.  0, or -1 when a write failed (thread_log_error()).
 */
int thread_log_op(struct thread_log *l, const struct clock_scale *clk, unsigned rw,
		  const struct thread_log_times *tm, uint64_t bytes, uint64_t off);

/* The end at `end_ns` (CLOCK_MONOTONIC): the last windows, every buffer written. */
int thread_log_finish(struct thread_log *l, const struct clock_scale *clk,
		      uint64_t end_ns);

/* After a -1: "cannot write the per-op log PATH: REASON". */
void thread_log_error(const struct thread_log *l, char *buf, size_t size);

void thread_log_free(struct thread_log *l);

#endif
