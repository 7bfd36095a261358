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

/* One batch: the events due since the last one, woken consumers. */
static void produce(struct eventgen *g, int64_t *added)
{
	struct shared_ctl *c = g->ctl;
	int64_t due = eventgen_due(g->rate, clock_now_ns() - g->start_ns);
	int64_t n = due - *added;

	if (n <= 0)
		return;
	*added = due;
	if (atomic_load(&c->events) < eventgen_cap(g->rate)) {
		atomic_fetch_add(&c->events, n);
		shared_waitq_wake(&c->evq, n < INT_MAX ? (int)n : INT_MAX);
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

int eventgen_start(struct eventgen *g, struct shared_ctl *ctl, double rate)
{
	int err;

	memset(g, 0, sizeof(*g));
	g->ctl = ctl;
	g->rate = rate;
	g->start_ns = ctl->start_ns;
	if (rate <= 0)
		return 0;
	err = pthread_create(&g->tid, NULL, generator, g);
	if (err) {
		log_error("cannot start the event generator: %s", strerror(err));
		return -1;
	}
	g->running = true;
	return 0;
}

void eventgen_stop(struct eventgen *g)
{
	if (!g->running)
		return;
	pthread_join(g->tid, NULL);
	g->running = false;
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
