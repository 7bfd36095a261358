/*
 * shared.c - creating the shared region and its start barrier.
 *
 * The barrier is a futex on the `go` word of a MAP_SHARED mapping, so it
 * must be the non-private futex flavour.  It cannot deadlock when a worker
 * dies: nobody waits for a dead worker except the master, which polls the
 * ready counter together with waitpid(WNOHANG) and always sets `go`
 * (with HALT_ABORT on failure) before giving up, so every live waiter
 * wakes.  Workers also die with the master (PR_SET_PDEATHSIG).
 */
#include "runtime/engine/shared.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plan/flowop.h"
#include "runtime/base/log.h"

/* Thread slots allowed in one run: the limit the compiler checks (preflight.h). */
#define SHARED_MAX_SLOTS PLAN_MAX_THREAD_INSTANCES

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* The flowops of plan thread `t` that split their latency. */
static int split_count(const struct plan *p, int t)
{
	const struct plan_thread *pt = &p->threads[t];
	int n = 0;

	for (int k = 0; k < pt->nflowops; k++)
		n += p->flowops[pt->first_flowop + k].ops->split_latency;
	return n;
}

int shared_split_index(const struct plan *p, int f)
{
	const struct plan_thread *pt = &p->threads[p->flowops[f].thread];
	int n = 0;

	if (!p->flowops[f].ops->split_latency)
		return -1;
	for (int k = pt->first_flowop; k < f; k++)
		n += p->flowops[k].ops->split_latency;
	return n;
}

/*
 * Count the slots and give each its offset, with `thread_bytes` for its
 * thread instance; *bytes = size of the region.
 */
static int layout(struct shared *sh, const struct plan *p, size_t thread_bytes,
		  size_t *bytes)
{
	uint64_t n = 0;
	size_t off = align_up(sizeof(struct shared_ctl), SHARED_CACHELINE);

	/* the run phases right after the control words: offset for now */
	sh->phases = (struct shared_phase *)off;
	off += align_up(((size_t)p->nprocs + 1) * sizeof(struct shared_phase),
			SHARED_CACHELINE);

	for (int pi = 0; pi < p->nprocs; pi++) {
		const struct plan_proc *pp = &p->procs[pi];
		uint64_t per = 0;

		for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++) {
			per += p->threads[t].instances;
			if (per > SHARED_MAX_SLOTS)
				goto too_many;
		}
		if (pp->instances && per > SHARED_MAX_SLOTS / pp->instances)
			goto too_many;
		sh->proc_first_slot[pi] = n;
		sh->proc_inst_slots[pi] = per;
		n += per * pp->instances;
		if (n > SHARED_MAX_SLOTS)
			goto too_many;
	}
	sh->nslots = n;
	sh->slots = calloc(n ? n : 1, sizeof(*sh->slots));
	if (!sh->slots) {
		log_error("out of memory for %llu thread slots", (unsigned long long)n);
		return -1;
	}
	n = 0;
	for (int pi = 0; pi < p->nprocs; pi++) {
		const struct plan_proc *pp = &p->procs[pi];

		for (uint64_t i = 0; i < pp->instances; i++) {
			for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++) {
				for (uint64_t j = 0; j < p->threads[t].instances; j++) {
					struct shared_slot *s = &sh->slots[n++];

					s->thread = t;
					s->proc_inst = i;
					s->thread_inst = j;
					size_t nfo = (size_t)p->threads[t].nflowops;
					size_t nsplit = (size_t)split_count(p, t);

					/* offsets for now, pointers once mapped */
					s->stats = (struct fo_stats *)off;
					off += align_up(nfo * sizeof(struct fo_stats),
							SHARED_CACHELINE);
					s->sync = (struct shared_sync *)off;
					off += align_up(nfo * sizeof(struct shared_sync),
							SHARED_CACHELINE);
					if (sh->warmup) {
						s->base = (struct fo_stats *)off;
						off += align_up(nfo * sizeof(struct fo_stats),
								SHARED_CACHELINE);
						s->base_taken = (_Atomic uint32_t *)off;
						off += SHARED_CACHELINE;
					}
					s->thread_mem = (void *)off;
					off += align_up(thread_bytes, SHARED_CACHELINE);
					if (nsplit) {    /* never offset 0: the control words are there */
						s->astats = (struct astats *)off;
						off += nsplit * sizeof(struct astats);
						if (sh->warmup) {
							s->abase = (struct astats *)off;
							off += nsplit * sizeof(struct astats);
						}
					}
				}
			}
		}
	}
	*bytes = off;
	return 0;
too_many:
	log_error("too many thread instances (more than %u in one run)",
		  SHARED_MAX_SLOTS);
	return -1;
}

int shared_create(struct shared *sh, const struct plan *p, bool warmup,
		  size_t thread_bytes)
{
	size_t bytes = 0;

	memset(sh, 0, sizeof(*sh));
	sh->plan = p;
	sh->warmup = warmup;
	sh->proc_first_slot = calloc((size_t)p->nprocs + 1, sizeof(uint64_t));
	sh->proc_inst_slots = calloc((size_t)p->nprocs + 1, sizeof(uint64_t));
	if (!sh->proc_first_slot || !sh->proc_inst_slots) {
		log_error("out of memory");
		goto fail;
	}
	if (layout(sh, p, thread_bytes, &bytes) < 0)
		goto fail;
	bytes = align_up(bytes, (size_t)sysconf(_SC_PAGESIZE));
	sh->base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh->base == MAP_FAILED) {
		sh->base = NULL;
		log_error("cannot map %zu bytes of shared memory: %s", bytes,
			  strerror(errno));
		goto fail;
	}
	sh->size = bytes;
	sh->ctl = sh->base;
	sh->ctl->deadline_ns = UINT64_MAX;
	sh->ctl->warmup = warmup;
	sh->phases = (struct shared_phase *)((char *)sh->base + (size_t)sh->phases);
	for (int pi = 0; pi < p->nprocs; pi++)
		atomic_store(&sh->phases[pi].live,
			     sh->proc_inst_slots[pi] * p->procs[pi].instances);
	for (uint64_t i = 0; i < sh->nslots; i++) {
		struct shared_slot *s = &sh->slots[i];
		int n = p->threads[s->thread].nflowops;

		s->stats = (struct fo_stats *)((char *)sh->base + (size_t)s->stats);
		s->sync = (struct shared_sync *)((char *)sh->base + (size_t)s->sync);
		s->thread_mem = (char *)sh->base + (size_t)s->thread_mem;
		if (sh->warmup) {
			s->base = (struct fo_stats *)((char *)sh->base + (size_t)s->base);
			s->base_taken = (_Atomic uint32_t *)((char *)sh->base +
							     (size_t)s->base_taken);
		}
		for (int k = 0; k < n; k++)     /* the mapping is zero-filled */
			fo_stats_init_zeroed(&s->stats[k]);
		if (s->astats) {
			int ns = split_count(p, s->thread);

			s->astats = (struct astats *)((char *)sh->base + (size_t)s->astats);
			if (s->abase)
				s->abase = (struct astats *)((char *)sh->base +
							     (size_t)s->abase);
			for (int k = 0; k < ns; k++)
				astats_init_zeroed(&s->astats[k]);
		}
	}
	return 0;
fail:
	shared_destroy(sh);
	return -1;
}

void shared_destroy(struct shared *sh)
{
	if (sh->base)
		munmap(sh->base, sh->size);
	free(sh->slots);
	free(sh->proc_first_slot);
	free(sh->proc_inst_slots);
	memset(sh, 0, sizeof(*sh));
}

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val,
		  const struct timespec *timeout)
{
	return syscall(SYS_futex, (uint32_t *)uaddr, op, val, timeout, NULL, 0);
}

/* Sleep on `w` while it reads `val`, at most timeout_ns (0: no limit). */
static void futex_wait_ns(_Atomic uint32_t *w, uint32_t val, uint64_t timeout_ns)
{
	struct timespec ts = clock_ns_to_ts(timeout_ns);

	/* EAGAIN (changed), EINTR, ETIMEDOUT: the caller re-checks. */
	futex(w, FUTEX_WAIT, val, timeout_ns ? &ts : NULL);
}

void shared_halt(struct shared_ctl *c, uint32_t bits)
{
	uint32_t old = atomic_fetch_or_explicit(&c->halt, bits, memory_order_seq_cst);

	if ((old | bits) != old)
		futex(&c->halt, FUTEX_WAKE, INT_MAX, NULL);
}

void shared_halt_wait(struct shared_ctl *c, uint32_t seen, uint64_t timeout_ns)
{
	futex_wait_ns(&c->halt, seen, timeout_ns);
}

bool shared_stop_claim(struct shared_ctl *c)
{
	uint64_t zero = 0;

	return atomic_compare_exchange_strong(&c->stop_ns, &zero, SHARED_STOP_PENDING);
}

void shared_stop_publish(struct shared_ctl *c, uint64_t ns)
{
	atomic_store(&c->stop_ns, ns > SHARED_STOP_PENDING ? ns : SHARED_STOP_PENDING + 1);
	shared_halt(c, HALT_STOP);
}

uint64_t shared_stop_ns(struct shared_ctl *c)
{
	uint64_t ns = atomic_load(&c->stop_ns);

	return ns == SHARED_STOP_PENDING ? 0 : ns;
}

void shared_thread_done(struct shared_ctl *c, uint64_t now_ns)
{
	uint64_t cur = atomic_load(&c->last_exit_ns);

	while (cur < now_ns &&
	       !atomic_compare_exchange_weak(&c->last_exit_ns, &cur, now_ns))
		;
	atomic_fetch_add(&c->threads_done, 1);
}

void shared_waitq_wait(struct shared_waitq *q, uint32_t seq, uint64_t timeout_ns)
{
	atomic_fetch_add(&q->waiters, 1);
	futex_wait_ns(&q->seq, seq, timeout_ns);
	atomic_fetch_sub(&q->waiters, 1);
}

/*
 * seq_cst on both sides: a waiter increments `waiters` before it reads
 * `seq` and its condition; a waker changes the condition, bumps `seq`,
 * then reads `waiters`.  Either the waker sees the waiter (and wakes it)
 * or the waiter sees the new seq (and does not sleep).
 */
void shared_waitq_wake(struct shared_waitq *q, int n)
{
	atomic_fetch_add(&q->seq, 1);
	if (atomic_load(&q->waiters))
		futex(&q->seq, FUTEX_WAKE, (uint32_t)n, NULL);
}

void shared_wake_all(struct shared *sh)
{
	shared_waitq_wake(&sh->ctl->evq, INT_MAX);
	for (int pi = 0; pi < sh->plan->nprocs; pi++)
		shared_waitq_wake(&sh->phases[pi].q, INT_MAX);
	for (uint64_t i = 0; i < sh->nslots; i++) {
		const struct shared_slot *s = &sh->slots[i];
		int n = sh->plan->threads[s->thread].nflowops;

		for (int k = 0; k < n; k++)
			shared_waitq_wake(&s->sync[k].q, INT_MAX);
	}
}

void shared_set_verror(struct shared_ctl *c, const char *fmt, va_list ap)
{
	uint32_t expected = 0;

	if (atomic_compare_exchange_strong(&c->err_claimed, &expected, 1)) {
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
		atomic_store_explicit(&c->err_ready, 1, memory_order_release);
	}
	shared_halt(c, HALT_ABORT);
}

void shared_set_error(struct shared_ctl *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shared_set_verror(c, fmt, ap);
	va_end(ap);
}

const char *shared_error(struct shared_ctl *c)
{
	if (!atomic_load_explicit(&c->err_ready, memory_order_acquire))
		return NULL;
	return c->err;
}

void shared_sum_stats(const struct shared *sh, struct fo_stats *sum,
		      struct fo_stats *one, struct fo_stats *base)
{
	const struct plan *p = sh->plan;

	for (int i = 0; i < p->nflowops; i++)
		fo_stats_init(&sum[i]);
	for (uint64_t s = 0; s < sh->nslots; s++) {
		const struct shared_slot *ss = &sh->slots[s];
		const struct plan_thread *pt = &p->threads[ss->thread];
		bool warm = ss->base != NULL;

		if (warm && !atomic_load_explicit(ss->base_taken, memory_order_acquire))
			continue;       /* still warming up: nothing measured yet */
		for (int k = 0; k < pt->nflowops; k++) {
			struct fo_stats *dst = &sum[p->flowops[pt->first_flowop + k].line];

			fo_stats_load(one, &ss->stats[k]);
			if (warm) {
				/* the baseline is immutable once taken */
				memcpy(base, &ss->base[k], sizeof(*base));
				fo_stats_diff(base, one, base);
				fo_stats_merge(dst, base);
			} else {
				fo_stats_merge(dst, one);
			}
		}
	}
}

void shared_sum_astats(const struct shared *sh, struct astats **sum,
		       struct astats *one, struct astats *base)
{
	const struct plan *p = sh->plan;

	for (int i = 0; i < p->nflowops; i++)
		if (sum[i])
			astats_init(sum[i]);
	for (uint64_t s = 0; s < sh->nslots; s++) {
		const struct shared_slot *ss = &sh->slots[s];
		const struct plan_thread *pt = &p->threads[ss->thread];
		bool warm = ss->base != NULL;
		int j = 0;

		if (!ss->astats)
			continue;
		if (warm && !atomic_load_explicit(ss->base_taken, memory_order_acquire))
			continue;       /* still warming up: nothing measured yet */
		for (int k = 0; k < pt->nflowops; k++) {
			const struct plan_flowop *pf = &p->flowops[pt->first_flowop + k];
			struct astats *dst = sum[pf->line];

			if (!pf->ops->split_latency)
				continue;
			astats_load(one, &ss->astats[j]);
			if (dst && warm) {
				/* the baseline is immutable once taken */
				memcpy(base, &ss->abase[j], sizeof(*base));
				astats_diff(base, one, base);
				astats_merge(dst, base);
			} else if (dst) {
				astats_merge(dst, one);
			}
			j++;
		}
	}
}

uint64_t shared_warmup_ops(const struct shared *sh)
{
	uint64_t n = 0;

	for (uint64_t s = 0; sh->warmup && s < sh->nslots; s++) {
		const struct shared_slot *ss = &sh->slots[s];
		const struct fo_stats *src = ss->stats;
		int nfo = sh->plan->threads[ss->thread].nflowops;

		if (atomic_load_explicit(ss->base_taken, memory_order_acquire))
			src = ss->base;
		for (int k = 0; k < nfo; k++)
			n += STATS_GET(src[k].op.count);
	}
	return n;
}

uint64_t shared_total_ops(const struct shared *sh)
{
	uint64_t n = 0;

	for (uint64_t s = 0; s < sh->nslots; s++) {
		const struct shared_slot *ss = &sh->slots[s];
		int nfo = sh->plan->threads[ss->thread].nflowops;

		for (int k = 0; k < nfo; k++)
			n += STATS_GET(ss->stats[k].op.count);
	}
	return n;
}

void shared_note_vfailure(struct shared_ctl *c, const char *fmt, va_list ap)
{
	uint32_t expected = 0;

	if (atomic_compare_exchange_strong(&c->fail_claimed, &expected, 1)) {
		vsnprintf(c->fail, sizeof(c->fail), fmt, ap);
		atomic_store_explicit(&c->fail_ready, 1, memory_order_release);
	}
}

const char *shared_first_failure(struct shared_ctl *c)
{
	if (!atomic_load_explicit(&c->fail_ready, memory_order_acquire))
		return NULL;
	return c->fail;
}

void shared_phase_thread_end(const struct shared *sh, int proc, uint64_t end_ns)
{
	struct shared_phase *ph = &sh->phases[proc];
	uint64_t cur = atomic_load(&ph->end_ns);

	/* the end is in place before the count says so (seq_cst both) */
	while (cur < end_ns &&
	       !atomic_compare_exchange_weak(&ph->end_ns, &cur, end_ns))
		;
	if (atomic_fetch_sub(&ph->live, 1) == 1)
		shared_waitq_wake(&ph->q, INT_MAX);
}

bool shared_phase_wait_end(const struct shared *sh, int proc, uint64_t *end_ns)
{
	struct shared_phase *ph = &sh->phases[proc];

	for (;;) {
		/* seq first: an end or a halt after the checks changes it */
		uint32_t seq = shared_waitq_seq(&ph->q);

		if (shared_halted(sh->ctl))
			return false;
		if (atomic_load(&ph->live) == 0) {
			*end_ns = atomic_load(&ph->end_ns);
			return true;
		}
		shared_waitq_wait(&ph->q, seq, 0);
	}
}

bool shared_sleep_until(struct shared_ctl *c, uint64_t until_ns)
{
	for (;;) {
		uint32_t h = shared_halted(c);
		uint64_t now = clock_now_ns();

		if (h)
			return false;
		if (now >= until_ns)
			return true;
		shared_halt_wait(c, h, until_ns - now);
	}
}

uint64_t shared_phase_started(const struct shared *sh, int proc, uint64_t now_ns)
{
	struct shared_phase *ph = &sh->phases[proc];
	uint64_t cur = atomic_load(&ph->start_ns);

	while ((cur == 0 || now_ns < cur) &&
	       !atomic_compare_exchange_weak(&ph->start_ns, &cur, now_ns))
		;
	return atomic_load(&ph->start_ns);
}

void shared_arrive_and_wait(struct shared_ctl *c)
{
	atomic_fetch_add_explicit(&c->ready, 1, memory_order_release);
	while (atomic_load_explicit(&c->go, memory_order_acquire) == 0) {
		/* Sleeps only while go is still 0; EINTR/EAGAIN just loop. */
		futex(&c->go, FUTEX_WAIT, 0, NULL);
	}
}

void shared_release(struct shared_ctl *c)
{
	atomic_store_explicit(&c->go, 1, memory_order_release);
	futex(&c->go, FUTEX_WAKE, INT_MAX, NULL);
}
