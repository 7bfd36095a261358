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

#include "plan/flowop.h"
#include "runtime/base/clock.h"
#include "runtime/base/rng.h"
#include "runtime/engine/shared.h"
#include "runtime/engine/slot.h"
#include "runtime/engine/threadlog.h"
#include "runtime/measure/stats.h"

struct fileset_state;

/*
 * One flowop family's state in a thread instance (flowops/aio.c: the
 * io_uring its flowops share), found by the family's key: the address
 * of an object private to the family.
 */
struct thread_family {
	const void *key;
	void *state;
};

/*
 * The fields one op reads come first, packed into two cache lines (the
 * struct is allocated line-aligned, runtime/engine/proc.c), then the fd
 * slots, so that slot 0 sits in a third: an op touches three lines of
 * its thread, not five (docs/benchmarks.md, issue 15).
 */
struct fb_thread {
	/* line 0: the clock, the deadline, the warm-up end, the halt word */
	struct clock_scale clk;            /* copied from ctl at release */
	uint64_t deadline_ticks;           /* the deadline on that clock */
	/*
	 * An op starting at or after this tick takes thread_record()'s slow
	 * path: the warm-up's end (UINT64_MAX: none, or passed), or 0 while
	 * the thread writes per-op logs, so that every op does.
	 */
	uint64_t warm_end_ticks;
	struct shared_ctl *ctl;
	/* line 1: the offsets' generator and the flowop entries */
	struct rng rng;
	/*
	 * Every flowop entry of the thread, composites' inner flowops
	 * included (plan order); the loop walks the top-level ones.
	 */
	struct flowop_inst *fo;            /* [nfo], line-aligned */
	int nfo;
	int ninit;                         /* flowops whose init succeeded */
	const struct plan *plan;
	int nown;                          /* private slots handed out */
	/* line 2 on: fd slots, then private ones (slot 0 in one line) */
	struct fb_slot slots[FB_ALL_SLOTS];

	const struct plan_thread *pt;
	/* the run's filesets, [plan->nfilesets] */
	const struct fileset_state *filesets;
	const struct shared *sh;           /* the slot table (targets of sync flowops) */
	const struct shared_slot *slot;    /* this instance's slot */
	struct fo_stats *stats;            /* this instance's block (slot->stats) */
	struct shared_sync *sync;          /* this instance's flowop objects */

	int proc;                          /* plan indices and 0-based instances */
	uint64_t proc_inst;
	int thread;
	uint64_t thread_inst;

	struct rng *rv_rng;                /* [plan->nrandvars]: one stream each */

	void *mem;                         /* `memsize` bytes, 4096-aligned, or NULL */
	uint64_t memsize;
	uint64_t mem_mapped;               /* bytes mapped at mem (runtime/engine/threadmem.h) */
	bool mem_zero_at_release;          /* --compat filebench: zero-filled once released */

	/* Why the loop ended with FLOWOP_NORSC. */
	const struct flowop_inst *norsc_fi;   /* the flowop that returned it */
	bool finish_reached;               /* a finish* limit, not a missing file */

	/* State flowop families keep per thread (thread_family_slot()). */
	struct thread_family *families;    /* [nfamilies] */
	int nfamilies;

	/*
	 * Reaps and records every request the thread has in flight; set by
	 * flowops/aio.c while the thread has its ring, under flowbench's
	 * rules (NULL: nothing can be in flight).  See thread_quiesce().
	 */
	enum flowop_result (*quiesce)(struct fb_thread *t, const struct flowop_inst *fi,
				      void *state);
	void *quiesce_state;

	pthread_t tid;
	bool failed;                       /* this thread recorded an error */
	uint64_t op_failures;              /* ops of this thread that failed */

	/* The warm-up's end itself (UINT64_MAX: none, or passed). */
	uint64_t warm_real_ticks;
	/*
	 * Per-op logs (threadlog.h): a writer per log set, none without;
	 * their times count from the measured phase's start, or the
	 * process's own under run phases.
	 */
	struct thread_log log;
};
_Static_assert(__builtin_offsetof(struct fb_thread, rng) == 64 &&
	       __builtin_offsetof(struct fb_thread, slots) == 128,
	       "struct fb_thread: an op's fields in lines 0 and 1, slot 0 in line 2");

/*
 * Before flowop `fi` sleeps for a rate limit without events or a delay,
 * the thread reaps the asynchronous requests it has in flight, as fio
 * does before a rate or thinktime sleep: a completion that waited out
 * the sleep would have its latency inflated by it.  (Not before a
 * block/semblock/sempost wait: oltp.f's and tpcso.f's writers overlap
 * their writes with that wait on purpose and measure the rest with
 * aiowait.)  FLOWOP_OK, FLOWOP_DONE (the run stops, or one was
 * reaped after the deadline) or FLOWOP_ERROR (a wait or a request failed).
 */
static inline enum flowop_result thread_quiesce(struct fb_thread *t,
						const struct flowop_inst *fi)
{
	return t->quiesce ? t->quiesce(t, fi, t->quiesce_state) : FLOWOP_OK;
}

/*
 * Fill `t` for thread instance `slot` of the shared region; allocates
 * its flowop arrays (worker process, before the barrier).  0 or -1.
 */
int thread_prepare(struct fb_thread *t, const struct plan *p,
		   const struct fileset_state *fs, struct shared *sh, int proc,
		   uint64_t slot);
void thread_release_mem(struct fb_thread *t);

/*
 * The slot of the family whose key is `key` in this thread, added
 * (holding NULL) the first time; NULL if out of memory.  A family's init
 * fills it, its fini releases the state and sets it back to NULL; a
 * flowop keeps the state's address in its priv, so nothing is looked up
 * per op.  The slot's own address is only good until the next call.
 */
void **thread_family_slot(struct fb_thread *t, const void *key);
/* Free the slot table (its families emptied their slots). */
void thread_families_free(struct fb_thread *t);

/* pthread entry: init, barrier, timed loop, fini. */
void *thread_main(void *arg);

/* Record the run's error (if first) and abort the run. */
void thread_fail(struct fb_thread *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * An op of flowop `fi` failed with errno `err` (`kind` FE_SHORT for a
 * short transfer): count it in fi's statistics.  With --keep-going
 * return FLOWOP_FAILED (the thread goes on; the op is not counted as one);
 * else fail the run with the message (`fmt`) and return FLOWOP_ERROR.
 * Failures of the configuration (a zero iosize, a slot never opened)
 * are not op failures: thread_fail() them.
 */
enum flowop_result thread_op_failed(struct fb_thread *t, const struct flowop_inst *fi,
				    enum fo_err_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), cold));

/*
 * Flowop `fi` met an entry of its fileset that is not flowbench's: a
 * symbolic link in its path, a hard link, another owner
 * (runtime/fileset/fsaccess.h).  Not an op failure but a tree changed behind
 * flowbench's back, so the run stops, even with --keep-going, naming
 * `what` it was about to do, `path` and `why`.  Returns FLOWOP_ERROR.
 */
enum flowop_result thread_refuse(struct fb_thread *t, const struct flowop_inst *fi,
				 const char *what, const char *path, const char *why);

/* The reason thread_refuse() gives for ELOOP from runtime/fileset/fsaccess.h. */
#define THREAD_WHY_LINK "a symbolic link is in its path (flowbench follows none in a fileset)"

/*
 * The extension block (runtime/measure/astats.h) of flowop `fi`, one
 * that splits its latency (flowop_ops.split_latency), in this thread
 * instance's part of the shared region; NULL when it has none (a thread
 * outside a run's region, the unit tests').  For init: not per op.
 */
struct astats *thread_astats(struct fb_thread *t, const struct flowop_inst *fi);

/* Hot path: now, on the op clock (see clock.h). */
static inline uint64_t thread_ticks(const struct fb_thread *t)
{
	return clock_ticks(&t->clk);
}

/*
 * The first op that started after the warm-up: keep the statistics so
 * far as the thread's baseline (shared_slot.base) and restart the
 * extremes.  Once per thread, so not inline.
 */
void thread_end_warmup(struct fb_thread *t);

/* thread_record_split()'s `ts` of an op that is not submitted apart. */
#define THREAD_NO_SUBMIT UINT64_MAX

/*
 * thread_record()'s slow path, taken when an op starts at or after
 * warm_end_ticks: the warm-up's end, and every op while per-op logs are
 * written (the op, once counted, goes to them).  The same result.
 */
bool thread_record_slow(struct fb_thread *t, struct fo_stats *fs, struct op_stats *s,
			uint64_t ts, uint64_t t0, uint64_t t1, uint64_t bytes,
			uint64_t off) __attribute__((noinline, cold));

/*
 * Hot path: thread_record() past its first compare: count one op of
 * flowop statistics `fs` that ran from tick t0 to tick t1 into `s`, or
 * tally it as discarded after the deadline (false).  For a flowop that
 * makes that compare itself before its op (flowops/io.c: so that its
 * offset need not outlive the system call) and takes thread_record_slow()
 * when it holds.
 */
static inline __attribute__((always_inline)) bool
thread_record_plain(struct fb_thread *t, struct fo_stats *fs, struct op_stats *s,
		    uint64_t t0, uint64_t t1, uint64_t bytes)
{
	uint64_t ns;

	if (t1 > t->deadline_ticks) {
		STATS_SET(fs->discarded, fs->discarded + 1);
		return false;
	}
	ns = clock_ticks_to_ns(&t->clk, t0, t1);
	if (s == &fs->op)
		fo_stats_record(fs, ns, bytes);     /* with its histogram */
	else
		stats_record(s, ns, bytes);
	return true;
}

/* Does an op starting at tick t0 take thread_record_slow()? */
static inline __attribute__((always_inline)) bool
thread_record_gated(const struct fb_thread *t, uint64_t t0)
{
	return __builtin_expect(t0 >= t->warm_end_ticks, 0);
}

/*
 * Hot path: count one op of flowop statistics `fs` that ran from tick t0
 * to tick t1 into `s` (fs->op, or for an implicit open the flowop
 * instance's open_stats: fs->open, or fs->op under filebench's rules).  An op
 * that ended after the deadline is not counted but tallied as discarded,
 * and false tells the flowop to stop the thread (FLOWOP_DONE).  With a
 * warm-up, the first op starting after it first takes the baseline.
 * `ts` is when an asynchronous op was submitted, t0 when its submission
 * returned (THREAD_NO_SUBMIT: a synchronous op, t0 its start); `off` its
 * offset: both only for the per-op logs (thread_record_slow()), which
 * cost a run without them nothing but the compare that was there.
 * Always inlined: the more flowop variants record ops, the sooner the
 * compiler would otherwise make it a call in every op.
 */
static inline __attribute__((always_inline)) bool
thread_record_split(struct fb_thread *t, struct fo_stats *fs, struct op_stats *s,
		    uint64_t ts, uint64_t t0, uint64_t t1, uint64_t bytes, uint64_t off)
{
	if (thread_record_gated(t, t0))
		return thread_record_slow(t, fs, s, ts, t0, t1, bytes, off);
	return thread_record_plain(t, fs, s, t0, t1, bytes);
}

/* An op at offset `off` of its file (read, write: the logs' offset column). */
static inline __attribute__((always_inline)) bool
thread_record_at(struct fb_thread *t, struct fo_stats *fs, struct op_stats *s,
		 uint64_t t0, uint64_t t1, uint64_t bytes, uint64_t off)
{
	return thread_record_split(t, fs, s, THREAD_NO_SUBMIT, t0, t1, bytes, off);
}

/* An op whose offset the logs do not know (0 there). */
static inline __attribute__((always_inline)) bool
thread_record(struct fb_thread *t, struct fo_stats *fs, struct op_stats *s,
	      uint64_t t0, uint64_t t1, uint64_t bytes)
{
	return thread_record_split(t, fs, s, THREAD_NO_SUBMIT, t0, t1, bytes, 0);
}

int64_t thread_sample_iters(struct fb_thread *t, int k);

/*
 * Hot path: how many times entry `k` runs this time (its `iters`, a new
 * sample each time if it is a random variable).  The one place the
 * thread loop and composites read `iters`.
 */
static inline int64_t thread_iters(struct fb_thread *t, int k)
{
	int64_t n = t->fo[k].iters;

	return __builtin_expect(n >= 0, 1) ? n : thread_sample_iters(t, k);
}

/* Hot path: the run is stopping (time is up, an error, an interrupt). */
static inline bool thread_halted(const struct fb_thread *t)
{
	return shared_halted(t->ctl) != 0;
}

/*
 * Run flowop entry `k` `iters` times (the thread loop for top-level
 * entries, a composite for its children).  Returns FLOWOP_OK, or the first
 * other result: FLOWOP_DONE when the run is stopping.
 */
enum flowop_result thread_run_entry(struct fb_thread *t, int k);

/* Index of flowop instance `fi` in t->fo. */
static inline int thread_entry_index(const struct fb_thread *t,
				     const struct flowop_inst *fi)
{
	return (int)(fi - t->fo);
}

/*
 * A finish* flowop reached its limit: its FLOWOP_NORSC ends the run normally
 * with results in every quit mode (alldone: ends this thread).
 */
static inline void thread_finish_reached(struct fb_thread *t)
{
	t->finish_reached = true;
	atomic_store_explicit(&t->ctl->finish_fired, 1, memory_order_relaxed);
}

/*
 * What a limit or finish flowop watches (flowops/rate.c, finish.c): the
 * ops or bytes of one target flowop of this thread, or, without a
 * target, of every IO/AIO-class flowop of this thread (never SYNC or
 * OTHER ones, so never the watching flowop itself).  Implicit opens are
 * not included: these are the breakdown lines' numbers.
 */
struct thread_watch {
	const struct fo_stats **src;   /* [n], this thread's own blocks */
	int n;
	bool bytes;                    /* sum bytes, else op counts */
};

enum {
	WATCH_BYTES = 1,       /* bytes, not ops */
	WATCH_RW_ONLY = 2,     /* only READ/WRITE-marked flowops (iops, bw) */
};

/*
 * Resolve the watch of flowop `fi`: `target`, the name of a flowop of
 * the thread (its `target` attribute), or NULL or "" for all, with
 * WATCH_* `flags`.  0, or FLOWOP_ERROR with the error set.
 */
int thread_watch_init(struct fb_thread *t, const struct flowop_inst *fi,
		      const char *target, unsigned flags, struct thread_watch *w);
void thread_watch_free(struct thread_watch *w);

static inline uint64_t thread_watch_read(const struct thread_watch *w)
{
	uint64_t v = 0;

	for (int i = 0; i < w->n; i++)
		v += w->bytes ? w->src[i]->op.bytes : w->src[i]->op.count;
	return v;
}

/*
 * What the same flowops count under `--compat filebench` (reference
 * 4.26-4.30, 8.2 item 4): the ops (or bytes) of the `target` flowop of
 * this thread, else of EVERY flowop of every thread instance of this
 * process instance that records ops (classes IO, AIO, SYNC, OTHER: the
 * watching flowop itself, other limits and finish flowops included),
 * read live from their statistics blocks in the shared region.  Both
 * a flowop's own ops and its implicit opens count (filebench records an
 * implicit open as an op of its flowop), whichever of fo_stats.op and
 * fo_stats.open holds them.  Only the filebench variants in
 * flowops/rate.c and finish.c use it: the default path never reads it.
 */
struct tally_group {
	const struct shared_slot *slot;   /* [nslots]: one thread definition's
					     instances in this process instance */
	uint64_t nslots;
	const int *fo;                    /* [nfo]: its flowops counted */
	int nfo;
};

struct thread_tally {
	struct tally_group *group;        /* [ngroup] */
	int ngroup;
	int *index;                       /* storage of the groups' `fo` */
	bool bytes;                       /* sum bytes, else op counts */
};

/*
 * Resolve filebench's counter for flowop `fi` (`target` as for
 * thread_watch_init(), WATCH_* `flags`).  0, or FLOWOP_ERROR with the error
 * set.
 */
int thread_tally_init(struct fb_thread *t, const struct flowop_inst *fi,
		      const char *target, unsigned flags, struct thread_tally *w);
void thread_tally_free(struct thread_tally *w);
/* The counter now: every word read atomically while its owner writes it. */
uint64_t thread_tally_read(const struct thread_tally *w);
/* Bytes thread_tally_init() may allocate for flowop `f` (need hooks). */
uint64_t thread_tally_mem(const struct plan *p, const struct plan_flowop *f);

/*
 * Numeric attribute `a` of `pf` (an enum plan_attr, or an index of its
 * family: value, ...) as a double: a new sample if it is a random
 * variable; `dflt` when unset or not a number (a string).
 */
double thread_attr_double(struct fb_thread *t, const struct plan_flowop *pf,
			  int a, double dflt);

/*
 * The same as a whole number, truncated toward zero when sampled.
 * `iosize`, `indexed` and the like may name a random variable, which WML
 * samples at every evaluation; the file and directory flowops read such
 * attributes through this function only, so that sampling (from the
 * thread's own stream for that variable) lives in this one place.
 */
static inline int64_t thread_attr_int(struct fb_thread *t, const struct plan_flowop *pf,
				      int a, int64_t dflt)
{
	if (pf->attr[a].kind == PV_RANDOM)
		return (int64_t)thread_attr_double(t, pf, a, (double)dflt);
	return plan_attr_int(pf, a, dflt);
}

#endif
