/*
 * eventgen.c - the event generator thread and the consumers' side.
 *
 * Unlike filebench's generator, a disabled one (rate <= 0) does not
 * exist, so nothing spins, and each batch wakes as many waiters as it
 * brings events, not just one.
 */
#include "runtime/engine/eventgen.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "runtime/base/clock.h"
#include "runtime/base/log.h"
#include "runtime/engine/shared.h"

#define NS_PER_S 1000000000.0
#define PERIOD_MIN_NS 1000000ull          /* 1 ms */
#define PERIOD_MAX_NS 100000000ull        /* 100 ms */
#define BACKLOG_S 5
/* A sleeping consumer re-checks the halt word at least this often. */
#define TAKE_RECHECK_NS 1000000000ull
/* Poisson arrivals: the shortest sleep (arrivals closer share a wake-up). */
#define POISSON_MIN_WAIT_NS 20000ull

double eventgen_rate(const struct plan *p)
{
	double r = 0;

	if (p->eventgen_rate.kind == PV_INT)
		r = (double)p->eventgen_rate.u.i;
	else if (p->eventgen_rate.kind == PV_DOUBLE)
		r = p->eventgen_rate.u.d;
	return r > 0 ? r : 0;
}

int64_t eventgen_due(double rate, uint64_t elapsed_ns)
{
	double d = rate * (double)elapsed_ns / NS_PER_S;

	return d < 9e18 ? (int64_t)d : INT64_MAX;
}

uint64_t eventgen_period_ns(double rate)
{
	double p = 10.0 * NS_PER_S / rate;

	if (p < (double)PERIOD_MIN_NS)
		return PERIOD_MIN_NS;
	if (p > (double)PERIOD_MAX_NS)
		return PERIOD_MAX_NS;
	return (uint64_t)p;
}

int64_t eventgen_cap(double rate)
{
	double c = rate * BACKLOG_S;

	return c < 1 ? 1 : c < 9e18 ? (int64_t)c : INT64_MAX;
}

/* `n` new events for the consumers (dropped beyond the backlog's cap). */
static void deliver(struct eventgen *g, int64_t n)
{
	struct shared_ctl *c = g->ctl;

	if (atomic_load(&c->events) < eventgen_cap(g->rate)) {
		atomic_fetch_add(&c->events, n);
		shared_waitq_wake(&c->evq, n < INT_MAX ? (int)n : INT_MAX);
	}
}

/* One batch: the events due since the last one, woken consumers. */
static void produce(struct eventgen *g, int64_t *added)
{
	int64_t due = eventgen_due(g->rate, clock_now_ns() - g->start_ns);
	int64_t n = due - *added;

	if (n <= 0)
		return;
	*added = due;
	deliver(g, n);
}

double eventgen_poisson_gap_ns(struct rng *r, double rate)
{
	/* U in [0, 1): 53 random bits; -ln(1 - U) is exponential of mean 1 */
	double u = (double)(rng_next(r) >> 11) * 0x1p-53;

	return -log1p(-u) * NS_PER_S / rate;
}

/*
 * Poisson arrivals: sleep until the next arrival, then deliver every
 * arrival due by now (more than one after a late wake-up: the count
 * stays exact).  Arrival times are kept as nanoseconds since the start
 * in a double (exact to the nanosecond for 100 days).
 */
static void *generator_poisson(void *arg)
{
	struct eventgen *g = arg;
	struct shared_ctl *c = g->ctl;
	double next = eventgen_poisson_gap_ns(&g->rng, g->rate);

	for (;;) {
		uint32_t h = shared_halted(c);
		double elapsed = (double)(clock_now_ns() - g->start_ns);
		int64_t n = 0;

		if (h)
			return NULL;
		if (elapsed < next) {
			double wait = next - elapsed;

			shared_halt_wait(c, h, wait > POISSON_MIN_WAIT_NS ?
					 (uint64_t)wait : POISSON_MIN_WAIT_NS);
			continue;
		}
		while (next <= elapsed) {
			n++;
			next += eventgen_poisson_gap_ns(&g->rng, g->rate);
		}
		deliver(g, n);
	}
}

static void *generator(void *arg)
{
	struct eventgen *g = arg;
	struct shared_ctl *c = g->ctl;
	uint64_t period = eventgen_period_ns(g->rate);
	uint64_t next = g->start_ns + period;
	int64_t added = 0;

	for (;;) {
		uint32_t h = shared_halted(c);
		uint64_t now = clock_now_ns();

		if (h)
			return NULL;
		if (now < next) {
			/* Sleeps on the halt word: the end of the run wakes it. */
			shared_halt_wait(c, h, next - now);
			continue;
		}
		produce(g, &added);
		next += period;
		if (next < now)     /* fell behind (a stalled master): no burst */
			next = now + period;
	}
}

/* eventgen_start() with `mode`'s arrivals (poisson, rng). */
static int eventgen_start_with(struct eventgen *g, struct shared_ctl *ctl,
			       double rate, const struct eventgen *mode)
{
	int err;

	memset(g, 0, sizeof(*g));
	g->poisson = mode->poisson;
	g->rng = mode->rng;
	g->ctl = ctl;
	g->rate = rate;
	g->start_ns = ctl->start_ns;
	if (rate <= 0)
		return 0;
	err = pthread_create(&g->tid, NULL, g->poisson ? generator_poisson : generator, g);
	if (err) {
		log_error("cannot start the event generator: %s", strerror(err));
		return -1;
	}
	g->running = true;
	return 0;
}

int eventgen_start_plan(struct eventgen *g, struct shared_ctl *ctl,
			const struct plan *p)
{
	struct eventgen tmp = { .poisson = p->eventgen_poisson };

	/* its own stream: the run's seed and a constant ("poisson\0") */
	rng_seed(&tmp.rng, p->seed ^ 0x706f6973736f6e00ull);
	return eventgen_start_with(g, ctl, eventgen_rate(p), &tmp);
}

int eventgen_start(struct eventgen *g, struct shared_ctl *ctl, double rate)
{
	struct eventgen steady = { .poisson = false };

	return eventgen_start_with(g, ctl, rate, &steady);
}

void eventgen_stop(struct eventgen *g)
{
	if (!g->running)
		return;
	pthread_join(g->tid, NULL);
	g->running = false;
}

bool eventgen_ready(struct shared_ctl *c, int64_t n)
{
	return atomic_load(&c->events) >= n;
}

bool eventgen_take(struct shared_ctl *c, int64_t n)
{
	while (n > 0) {
		uint32_t seq = shared_waitq_seq(&c->evq);
		int64_t avail = atomic_load(&c->events);

		if (avail > 0) {
			int64_t take = avail < n ? avail : n;

			if (atomic_compare_exchange_weak(&c->events, &avail, avail - take))
				n -= take;
			continue;
		}
		if (shared_halted(c))
			return false;
		shared_waitq_wait(&c->evq, seq, TAKE_RECHECK_NS);
	}
	return true;
}
