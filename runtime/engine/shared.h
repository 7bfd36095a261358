/*
 * shared.h - the memory the master and every worker process share.
 *
 * One anonymous MAP_SHARED mapping, created by the master before any fork
 * and inherited by the workers at whatever address it got (no file in
 * /tmp, no SysV IPC, no fixed address: works with ASLR on).  It holds the
 * control words of a run and the statistics blocks, one cache-line-aligned
 * block per thread instance with one struct fo_stats per flowop of that
 * thread's definition, followed by one struct shared_sync per flowop (the
 * futex-based objects of block/wakeup and semblock/sempost).  With a
 * warm-up, each block also has a baseline: a copy of the thread's
 * statistics taken by the thread itself at its first op of the measured
 * phase, which the master subtracts (shared_sum_stats).
 *
 * Waiting across processes (the start barrier, eventlimit, block,
 * semblock, delay, the master's own sleep) uses futexes on words of this
 * region, the non-private flavour because the mapping is shared.  Every
 * wait re-checks the halt word and the master wakes every waiter when the
 * run stops, so no thread stays blocked at the end of a run.
 *
 * Slots (thread instances) are numbered in plan order: for each process
 * definition, for each of its instances, for each of its thread
 * definitions, for each thread instance.  The slot table itself is plain
 * master memory, copied into the workers by fork().
 */
#ifndef FLOWBENCH_SHARED_H
#define FLOWBENCH_SHARED_H

#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/clock.h"
#include "plan/plan.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/stats.h"

#define SHARED_CACHELINE 64
#define SHARED_ERRLEN 1024

/* Bits of shared_ctl.halt. */
enum {
	HALT_STOP = 1,    /* time is up (or the run ended early normally) */
	HALT_ABORT = 2,   /* an error or an interrupt: results are void */
};

/*
 * An event count: a waiter reads `seq`, checks its condition (and the
 * halt word), and sleeps only while `seq` is unchanged; whoever changes
 * the condition bumps `seq` and wakes.  A change between the check and
 * the sleep is therefore never lost.  `waiters` lets the waker skip the
 * system call when nobody sleeps.
 */
struct shared_waitq {
	_Atomic uint32_t seq;
	_Atomic uint32_t waiters;
};

/*
 * The shared state of one flowop instance that other threads may target:
 * block (count = wakeups received and not yet consumed) and semblock
 * (count = its "low water" units posted, hw = its "high water" credit).
 */
struct shared_sync {
	struct shared_waitq q;
	_Atomic int64_t count;
	_Atomic int64_t hw;
};

struct shared_ctl {
	/* Start-up: written while workers come up, then quiet. */
	alignas(SHARED_CACHELINE) _Atomic uint64_t ready;  /* threads at the barrier */
	_Atomic uint32_t go;                               /* futex word: 1 = released */

	/*
	 * Read once per op by every thread, written only at release and at
	 * the end: stays shared in every core's cache during the run.
	 */
	alignas(SHARED_CACHELINE) _Atomic uint32_t halt;
	uint64_t start_ns;          /* measured phase start (after any warm-up);
				       set before go, read-only afterwards */
	uint64_t release_ns;        /* the release (run phases count from it) */
	bool warmup;                /* ops starting before start_ns are warm-up */
	uint64_t deadline_ns;       /* UINT64_MAX = no time limit */
	struct clock_scale clk;     /* op clock calibration, set before go */
	bool keep_going;            /* --keep-going: count op failures, go on */

	/* How the run ended early (normal ends only; 0 = not yet). */
	alignas(SHARED_CACHELINE) _Atomic uint64_t stop_ns;  /* first stop request by a thread */
	_Atomic uint64_t last_exit_ns;                     /* latest end of a thread's loop */
	_Atomic uint64_t threads_done;                     /* threads whose loop ended */
	_Atomic uint32_t finish_fired;                     /* a finish* limit was reached */

	/* Event generator (eventgen.h): events available, and its waiters. */
	alignas(SHARED_CACHELINE) _Atomic int64_t events;
	struct shared_waitq evq;

	/* The first error of the run; later ones are dropped. */
	alignas(SHARED_CACHELINE) _Atomic uint32_t err_claimed;
	_Atomic uint32_t err_ready;
	char err[SHARED_ERRLEN];

	/* --keep-going: the first failed op's message (the run goes on). */
	alignas(SHARED_CACHELINE) _Atomic uint32_t fail_claimed;
	_Atomic uint32_t fail_ready;
	char fail[SHARED_ERRLEN];
};

/*
 * One plan process's run phase (plan_proc.after, startdelay, runtime):
 * its thread instances not yet ended, with an event count bumped when
 * the last one ends (what a later phase's threads sleep on), when it
 * started (its first thread, 0: not yet) and when it ended (the latest
 * end of its threads).  Every process has one; only the threads of a
 * process with after= wait on one, off the per-op path.
 */
struct shared_phase {
	alignas(SHARED_CACHELINE) _Atomic uint64_t live;
	struct shared_waitq q;
	_Atomic uint64_t start_ns;
	_Atomic uint64_t end_ns;
};

struct shared_slot {
	int thread;                 /* index into plan.threads */
	uint64_t proc_inst;         /* 0-based */
	uint64_t thread_inst;       /* 0-based */
	struct fo_stats *stats;     /* [plan.threads[thread].nflowops] */
	struct shared_sync *sync;   /* [plan.threads[thread].nflowops] */
	/*
	 * Warm-up only (else NULL): the thread's statistics as they were
	 * when its measured phase began, valid once *base_taken is 1
	 * (release store by the thread, acquire load by the master).
	 */
	struct fo_stats *base;      /* [plan.threads[thread].nflowops] */
	_Atomic uint32_t *base_taken;
	/*
	 * The extension blocks of its flowops that split their latency
	 * (flowop_ops.split_latency), in plan order (shared_split_index()),
	 * and with a warm-up their baselines; NULL when it has none.
	 */
	struct astats *astats;
	struct astats *abase;
};

struct oplog_files;

struct shared {
	const struct plan *plan;
	struct shared_ctl *ctl;
	void *base;
	size_t size;
	uint64_t nslots;
	bool warmup;                /* slots carry warm-up baselines */
	struct shared_slot *slots;
	uint64_t *proc_first_slot;  /* per process definition */
	uint64_t *proc_inst_slots;  /* slots per instance of that process */
	struct shared_phase *phases;   /* [plan nprocs], in the region */
	/* Per-op logs' targets (run_options.oplog, runtime/measure/oplog.h), or NULL. */
	const struct oplog_files *oplog;
};

/*
 * Map the region for `p` and initialise every counter, with room for
 * warm-up baselines if `warmup`.  0 or -1 (logged).
 */
int shared_create(struct shared *sh, const struct plan *p, bool warmup);
void shared_destroy(struct shared *sh);

/* Slot of thread definition-relative position `k` of proc `proc` instance `inst`. */
static inline uint64_t shared_slot_of(const struct shared *sh, int proc,
				      uint64_t inst, uint64_t k)
{
	return sh->proc_first_slot[proc] + inst * sh->proc_inst_slots[proc] + k;
}

/*
 * Set halt bits and wake whoever sleeps on the halt word (delay, the
 * master).  Async-signal-safe (an atomic and a system call).
 */
void shared_halt(struct shared_ctl *c, uint32_t bits);

/* Hot path: one relaxed load. */
static inline uint32_t shared_halted(struct shared_ctl *c)
{
	return atomic_load_explicit(&c->halt, memory_order_relaxed);
}

/*
 * Keep `fmt` as the run's error if it is the first one (atomic claim),
 * and set HALT_ABORT either way.  Async-signal-unsafe (vsnprintf).
 */
void shared_set_error(struct shared_ctl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void shared_set_verror(struct shared_ctl *c, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The recorded error text, or NULL if none. */
const char *shared_error(struct shared_ctl *c);

/*
 * --keep-going: keep `fmt` as the first failed op's message if it is the
 * first (the run is not halted), and read it back (NULL: none).
 */
void shared_note_vfailure(struct shared_ctl *c, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
const char *shared_first_failure(struct shared_ctl *c);

/*
 * A thread ends the run normally before its deadline (firstdone, a
 * finish* limit): remember when (first request wins) and set HALT_STOP.
 */
void shared_request_stop(struct shared_ctl *c, uint64_t now_ns);
/* A thread's loop ended at `now_ns` (for the end of an alldone run). */
void shared_thread_done(struct shared_ctl *c, uint64_t now_ns);

/*
 * Sleep on the halt word while it still reads `seen`, at most
 * `timeout_ns` (0: no limit).  Returns early on any change or signal.
 */
void shared_halt_wait(struct shared_ctl *c, uint32_t seen, uint64_t timeout_ns);

/* Event count (struct shared_waitq): see its comment. */
static inline uint32_t shared_waitq_seq(struct shared_waitq *q)
{
	return atomic_load(&q->seq);
}
/* Sleep while q->seq == seq, at most timeout_ns (0: no limit). */
void shared_waitq_wait(struct shared_waitq *q, uint32_t seq, uint64_t timeout_ns);
/* After changing the condition: bump seq and wake up to `n` sleepers. */
void shared_waitq_wake(struct shared_waitq *q, int n);

/*
 * Master, when the run stops: wake every thread sleeping on a flowop
 * object or on the event generator, so that it sees the halt word.
 */
void shared_wake_all(struct shared *sh);

/*
 * The measured statistics of every thread summed per plan flowop into
 * sum[p->nflowops] (flowops sharing a report line add into the line's
 * index, plan_flowop.line): each thread's statistics minus its warm-up
 * baseline, or nothing for a thread that has not begun its measured
 * phase.  Reads word by word (fo_stats_load), so it may run while the
 * threads write; exact once they have stopped.  `one` and `base` are
 * scratch blocks (the histogram makes fo_stats too big for the stack).
 */
void shared_sum_stats(const struct shared *sh, struct fo_stats *sum,
		      struct fo_stats *one, struct fo_stats *base);

/*
 * Plan flowop `f`'s place among the flowops of its thread that split
 * their latency (their struct astats in a slot), or -1 when it does not.
 */
int shared_split_index(const struct plan *p, int f);

/*
 * The same as shared_sum_stats() for the extension blocks: into
 * sum[p->nflowops], whose entries are NULL except for the lines of
 * flowops that split their latency (each an initialised block).  `one`
 * and `base` are scratch blocks.
 */
void shared_sum_astats(const struct shared *sh, struct astats **sum,
		       struct astats *one, struct astats *base);

/* Ops of every flowop (implicit opens aside) done during the warm-up. */
uint64_t shared_warmup_ops(const struct shared *sh);

/* Cheap total of recorded op counts, warm-up included (status line). */
uint64_t shared_total_ops(const struct shared *sh);

/*
 * Run phases.  A thread of process `proc` ended (every thread does, once,
 * whatever happened to it) at `end_ns`: the process's end is the
 * latest, and the last one wakes whoever waits for the process.
 */
void shared_phase_thread_end(const struct shared *sh, int proc, uint64_t end_ns);
/*
 * Sleep until every thread of process `proc` has ended: true, with its
 * end in *end_ns; false as soon as the run halts (the master wakes
 * every waiter then, shared_wake_all()).  No spinning.
 */
bool shared_phase_wait_end(const struct shared *sh, int proc, uint64_t *end_ns);
/*
 * Sleep on the halt word until `until_ns`: true then, false as soon as
 * the run halts.
 */
bool shared_sleep_until(struct shared_ctl *c, uint64_t until_ns);
/*
 * A thread of process `proc` starts at `now_ns`: the process's start is
 * its first thread's.  Returns that start.
 */
uint64_t shared_phase_started(const struct shared *sh, int proc, uint64_t now_ns);

/* Worker side of the start barrier: count in, sleep until released. */
void shared_arrive_and_wait(struct shared_ctl *c);
/* Master side: set go and wake every waiter. */
void shared_release(struct shared_ctl *c);

#endif
