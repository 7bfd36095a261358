/*
 * threadlog.h - a thread instance's per-op logs (runtime/measure/oplog.h):
 * its writers made before the barrier, started at its measured phase,
 * fed by thread_record()'s slow path, finished after its flowops'
 * fini.  Called from thread.c only; nothing here runs without logs.
 */
#ifndef FLOWBENCH_THREADLOG_H
#define FLOWBENCH_THREADLOG_H

#include <stdint.h>

#include "runtime/engine/thread.h"

struct oplog_files;

/*
 * The writers of shared region slot `slot`, whose sets `files` holds
 * (NULL or none: no log, nothing allocated).  0, or -1 out of memory.
 */
int thread_log_prepare(struct fb_thread *t, const struct oplog_files *files,
		       uint64_t slot);
/*
 * The logs' times count from `epoch_ns` (CLOCK_MONOTONIC): the measured
 * phase's start, or later a phased process's own.  From now on every op
 * takes thread_record()'s slow path.
 */
void thread_log_start(struct fb_thread *t, uint64_t epoch_ns);

/* The ticks of an op as the logs need them. */
struct thread_log_times {
	uint64_t ts;    /* submitted (THREAD_NO_SUBMIT: a synchronous op) */
	uint64_t t0;    /* issued: the submission returned, or the op started */
	uint64_t t1;    /* completed */
	uint64_t ns;    /* t0 to t1, as recorded */
};

/*
 * Op of flowop `fi`, counted, to every writer when the flowop reads or
 * writes (its ops' rw mark).  A failed write fails the run (the first
 * error) and stops the thread's logs.
 */
void thread_log_op(struct fb_thread *t, const struct flowop_inst *fi,
		   const struct thread_log_times *tm, uint64_t bytes, uint64_t off);

/* The end at `end_ns` (CLOCK_MONOTONIC): the last windows, every buffer written. */
void thread_log_finish(struct fb_thread *t, uint64_t end_ns);
void thread_log_free(struct fb_thread *t);

#endif
