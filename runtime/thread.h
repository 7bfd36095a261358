/*
 * thread.h - one thread instance of a worker process.
 *
 * struct fb_thread is what a flowop's ops receive: the plan, the thread's
 * own flowop instances, fd slots, memory and random generator, and the
 * shared control words (halt flags, deadline).  Everything in it is
 * private to the thread except `ctl` and the stats blocks its flowop
 * instances point into (which only this thread writes).
 */
#ifndef FLOWBENCH_THREAD_H
#define FLOWBENCH_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "flowops/flowop.h"
#include "runtime/clock.h"
#include "runtime/rng.h"
#include "runtime/shared.h"
#include "runtime/slot.h"
#include "runtime/stats.h"

struct fs_state;

struct fb_thread {
	const struct plan *plan;
	const struct plan_thread *pt;
	const struct fs_state *filesets;   /* [plan->nfilesets] */
	struct shared_ctl *ctl;
	struct fo_stats *stats;            /* this instance's block */

	int proc;                          /* plan indices and 0-based instances */
	uint64_t proc_inst;
	int thread;
	uint64_t thread_inst;

	struct clock_scale clk;            /* copied from ctl at release */
	uint64_t deadline_ticks;           /* the deadline on that clock */
	struct rng rng;

	void *mem;                         /* `memsize` bytes, 4096-aligned, or NULL */
	uint64_t memsize;

	int nfo;
	struct flowop_inst *fo;            /* [nfo] */
	int64_t *iters;                    /* [nfo], resolved `iters` */
	int ninit;                         /* flowops whose init succeeded */

	struct fb_slot slots[FB_FD_SLOTS];

	pthread_t tid;
	bool failed;                       /* this thread recorded an error */
};

/*
 * Fill `t` for thread instance `slot` of the shared region; allocates
 * its flowop arrays (worker process, before the barrier).  0 or -1.
 */
int thread_prepare(struct fb_thread *t, const struct plan *p,
		   const struct fs_state *fs, struct shared *sh, int proc,
		   uint64_t slot);
void thread_release_mem(struct fb_thread *t);

/* pthread entry: init, barrier, timed loop, fini. */
void *thread_main(void *arg);

/* Record the run's error (if first) and abort the run. */
void thread_fail(struct fb_thread *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Hot path: now, on the op clock (see clock.h). */
static inline uint64_t thread_ticks(const struct fb_thread *t)
{
	return clock_ticks(&t->clk);
}

/*
 * Hot path: count one op of flowop statistics `fs` that ran from tick t0
 * to tick t1 into `s` (fs->op, or fs->open for an implicit open).  An op
 * that ended after the deadline is not counted but tallied as discarded,
 * and false tells the flowop to stop the thread (FO_DONE).
 */
static inline bool thread_record(const struct fb_thread *t, struct fo_stats *fs,
				 struct op_stats *s, uint64_t t0, uint64_t t1,
				 uint64_t bytes)
{
	if (t1 > t->deadline_ticks) {
		fs->discarded++;
		return false;
	}
	stats_record(s, clock_ticks_to_ns(&t->clk, t0, t1), bytes);
	return true;
}

#endif
