/*
 * eventgen.h - the event generator (`eventgen rate=N`) and its consumers.
 *
 * A thread of the master process adds `rate` events per second to a
 * counter in the shared region and wakes the threads waiting for events
 * (eventlimit, iopslimit, opslimit, bwlimit).  Events are produced from
 * the elapsed time since the release of the threads, in batches every
 * ten event periods (at least 1 ms, at most 100 ms apart), so the long
 * term rate is exact whatever the batch size.  A backlog never exceeds
 * five seconds' worth (events nobody took are dropped beyond it).  A
 * rate <= 0 or no eventgen statement means no generator at all: the
 * limit flowops then do nothing and record nothing.
 *
 * With `poisson` (a flowbench extension, fio's rate_process=poisson) the
 * events are the arrivals of a Poisson process of that mean rate: gaps
 * drawn from an exponential distribution with the generator thread's
 * own random stream, seeded from the run's seed.  The generator sleeps until the
 * next arrival (at least POISSON_MIN_WAIT_NS: at high rates several
 * arrivals share a wake-up, at their exact count) and adds every
 * arrival due, so the long-run rate is exact in expectation.
 */
#ifndef FLOWBENCH_EVENTGEN_H
#define FLOWBENCH_EVENTGEN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "runtime/base/rng.h"

struct shared_ctl;

/* Events per second of the plan's generator; 0 when there is none. */
double eventgen_rate(const struct plan *p);

/* Events due `elapsed_ns` after the start at `rate` per second. */
int64_t eventgen_due(double rate, uint64_t elapsed_ns);

/* Time between two batches at `rate`. */
uint64_t eventgen_period_ns(double rate);

/* Largest backlog kept at `rate` (five seconds' worth, at least 1). */
int64_t eventgen_cap(double rate);

/* The master's generator thread. */
struct eventgen {
	struct shared_ctl *ctl;
	double rate;
	uint64_t start_ns;
	pthread_t tid;
	bool running;
	bool poisson;             /* exponential gaps from `rng` */
	struct rng rng;
};

/*
 * Start producing at ctl->start_ns (after the release).  No-op when the
 * rate is 0.  0, or -1 (logged).
 */
int eventgen_start(struct eventgen *g, struct shared_ctl *ctl, double rate);
/*
 * eventgen_start() with the plan's rate and arrivals (steady, or a
 * Poisson process seeded from the plan's seed).  0, or -1 (logged).
 */
int eventgen_start_plan(struct eventgen *g, struct shared_ctl *ctl,
			const struct plan *p);

/* The gap before the next arrival of a Poisson process at `rate`/s, in ns. */
double eventgen_poisson_gap_ns(struct rng *r, double rate);

/* Join the generator; it ends by itself once the halt word is set. */
void eventgen_stop(struct eventgen *g);

/*
 * Consumer: take `n` events, sleeping while none are available.  Returns
 * false (having taken what it could) when the run is stopping.
 */
bool eventgen_take(struct shared_ctl *ctl, int64_t n);
/* Whether `n` events are there now, so eventgen_take() would not sleep. */
bool eventgen_ready(struct shared_ctl *ctl, int64_t n);

#endif
