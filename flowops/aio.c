/*
 * aio.c - asynchronous I/O: the aiowrite and aiowait flowops (WML
 * reference 4.3, 4.4) and flowbench's own aioread, with `iodepth` and
 * fio's depth options, on the engine `ioengine` names (aio.h: io_uring,
 * the default, in aio_uring.c; libaio in aio_libaio.c; posixaio in
 * aio_posix.c).  This file is what does not depend on the engine.
 *
 * filebench's aiowrite records its op when it submits a POSIX aio_write,
 * and its aiowait only unlinks requests that happen to be done (and leaks
 * them).  Here the I/O is really asynchronous and aiowait really waits:
 *
 *  - Each thread instance has one context per engine its flowops use
 *    (an io_uring, a libaio context, glibc's POSIX AIO), of AIO_DEPTH
 *    requests or, when its flowops' iodepths add up to more, of their
 *    sum (aio_ctx_depth(), at most AIO_DEPTH_MAX), created by the init
 *    of its first flowop on that engine
 *    (before the start barrier).  They hang off the thread's slot for
 *    this family (thread_family_slot(): struct aio_thread, reference
 *    counted by every aio flowop of the thread), freed after the fini of
 *    the last one; each flowop instance keeps a pointer to its context,
 *    so no op looks it up.
 *  - aiowrite sets up its file like write (the implicit open is its own
 *    op in stats->open; `fd`, `opennext`, `directio`, `dsync`), picks the
 *    offset like write (a random whole block of the working set with
 *    `random`, else the slot's sequential offset, which advances at
 *    submission), submits one write of `iosize` from its pattern buffer
 *    and returns without waiting.  Its op is recorded when the write is
 *    reaped, with fio's latencies (docs/metrics.md): the op's latency is
 *    the completion latency, clat, from the moment the submission call
 *    returned to the reap; the extension block (thread_astats()) gets
 *    the submission latency, slat, from the moment the request was
 *    prepared (fio's start_time) to that return (fio's issue_time), and
 *    their sum lat.  Bytes written.  A failed or short write fails the
 *    run (--keep-going: is counted against its aiowrite, whichever
 *    flowop reaped it).  (filebench refuses sequential aiowrite; here it
 *    appends like write.)  A random `iosize` sample larger than the
 *    buffer replaces it only after the writes in flight completed.
 *  - aioread is the same for reads (`noreadahead` too): the bytes read
 *    are recorded; a short read is not an error (the end of the file);
 *    sequential reads wrap to offset 0 at submission once the offset
 *    reaches the file's size (its size at population or when the slot
 *    opened it, the larger), so no read is issued past the end.
 *  - Back-pressure: with the context's depth of requests in flight on
 *    its engine, aiowrite and aioread first wait for one completion, so
 *    a thread without aiowait still runs.
 *  - aiowait waits, on each engine context of the thread with requests
 *    in flight, until at least max(1, in flight / 2) of them completed
 *    (filebench's target), reaping every completion it sees, and records
 *    one op of 0 bytes whose latency is the wait; with nothing in flight
 *    that op takes 0 ns.
 *  - `iodepth=N` (aioread, aiowrite) makes the flowop keep N requests of
 *    its own in flight with fio's depth rules (fio's backend.c do_io()
 *    and wait_for_completions()).  One execution prepares requests until
 *    N of its own are in flight, submitting each time
 *    `iodepth_batch_submit` are prepared (default N: all at once, one
 *    call), then reaps as fio does when its queue is full: completion
 *    rounds of at least min(`iodepth_batch_complete_min`, in flight)
 *    (at least 1) and at most `iodepth_batch_complete_max` completions
 *    each (default: every one there is), until no more than
 *    `iodepth_low` (default N) of its own are in flight.  With
 *    iodepth_batch_complete_min=0 the engine is asked not to wait (fio
 *    polls), and with iodepth_batch_complete_max=0 as well a round
 *    follows every submission (fio's polling mode).  The defaults are
 *    flowbench's earlier rule; import-fio writes fio's own (a batch of
 *    1, rounds of exactly 1).  Each request is still its own op,
 *    recorded at its reap; the execution itself records nothing.  Each
 *    read in flight has its own IO_ALIGN-aligned buffer (N of them per
 *    flowop, allocated at init), so directio works; writes in flight
 *    share the pattern buffer, which they only read.
 *  - Completions are reaped by aiowait, back-pressure and iodepth
 *    flowops, and before the thread sleeps in a rate limit waiting for
 *    events or in a delay (thread_quiesce(), as fio reaps before a rate
 *    or thinktime sleep); otherwise a request's latency includes any
 *    time its completion waited to be seen.  Under --compat filebench
 *    nothing is reaped before a sleep.
 *  - The deadline rule holds for every op: a completion reaped after the
 *    deadline is not counted (tallied as discarded) and stops the thread.
 *    Waits run in AIO_SLICE_NS slices and give up when the run halts.
 *  - At thread end, fini waits for every request still in flight, so none
 *    is pending when the process exits; those are tallied as discarded.
 *    An aborted run (an error, Ctrl-C) cancels them instead of waiting
 *    (as far as the engine can) and gives up after AIO_ABORT_NS.
 *  - The engine must be available: if its context cannot be created,
 *    init fails the run saying why (kernel.io_uring_disabled,
 *    fs.aio-max-nr, seccomp, ...).
 *  - Under --compat filebench, aiowrite without iodepth is its
 *    `filebench` variant: its op is the submission, as filebench's
 *    aio_write(): recorded when the write is submitted (latency: the
 *    submit call, bytes: iosize), so a write still in flight at the end
 *    of the run is counted, and one submitted after the deadline is not.
 *    Its requests are marked `counted`: when aiowait, back-pressure or
 *    the drain reaps them, nothing is recorded (a failed write still
 *    fails the run).  aioread and iodepth are flowbench's own and keep
 *    their rules.
 *
 * Hot path: no allocation, no lock; one submission call per execution
 * (however many requests it submits; with iodepth_batch_submit one per
 * batch; posixaio: one per request), plus one wait call per completion
 * round when no completion is there yet; three op-clock readings per
 * request (prepared, submitted, reaped: the submission's and the
 * round's are shared by their requests).  A request remembers
 * its flowop, its preparation and submission ticks in a fixed table
 * indexed by its tag; requests prepared but not yet submitted are listed
 * in `pend` and are always submitted before any wait.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flowops/aio.h"
#include "flowops/common.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "flowops/io.h"
#include "plan/diag.h"
#include "runtime/fileset/fileset.h"
#include "runtime/base/clock.h"
#include "runtime/base/log.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/stats.h"
#include "runtime/engine/thread.h"
#include "runtime/engine/threadfile.h"

/* Waits are cut in slices this long to notice a halting run. */
#define AIO_SLICE_NS 50000000
/* Linux's largest single read or write (MAX_RW_COUNT on 4 KiB pages). */
#define AIO_MAX_LEN 0x7ffff000u
/* After an aborted run's cancellation, the drain waits at most this long. */
#define AIO_ABORT_NS 1000000000ull

const struct aio_engine *const aio_engines[] = {
	&aio_engine_uring, &aio_engine_libaio, &aio_engine_posix, NULL
};
_Static_assert(sizeof(aio_engines) / sizeof(aio_engines[0]) == AIO_NENGINES + 1,
	       "aio_engines: AIO_NENGINES engines");

/* One request in flight. */
struct aio_req {
	struct flowop_inst *fi;   /* the aiowrite/aioread that submitted it */
	uint64_t t_start;         /* prepared (fio's start_time) */
	uint64_t t_issue;         /* its submission call returned (fio's issue_time) */
	uint64_t off;
	uint32_t len;
	uint32_t gen;             /* the slot's open generation at submission */
	int slot;                 /* index in t->slots */
	int fileset;              /* the file, for error messages */
	uint64_t entry;
	int buf;                  /* its read buffer (aio_priv.bufs), -1: none */
	bool write;
	/* recorded at its submission (aiowrite under --compat filebench) */
	bool counted;
};

/* This family's key to its per-thread slot: the address is what counts. */
static const char aio_family_key;

/*
 * A thread's context on one engine, and its request table: `depth`
 * entries in each array, allocated with it (aio_ctx_get()).
 */
struct aio_ctx {
	const struct aio_engine *eng;
	void *e;                  /* the engine's own context */
	unsigned depth;           /* requests it holds (tags below it) */
	unsigned inflight;        /* requests taken: submitted or prepared */
	unsigned npend;           /* of those, prepared but not submitted yet */
	unsigned nfree;
	uint16_t *free;           /* stack of free request tags */
	uint16_t *pend;           /* the prepared requests, oldest first */
	struct aio_req *req;
	struct aio_event *ev;
};
/* What one entry of the context's table takes (need hooks). */
#define AIO_CTX_REQ_BYTES \
	(2 * sizeof(uint16_t) + sizeof(struct aio_req) + sizeof(struct aio_event))

/*
 * The one queue the asynchronous members of a choice share (fio's
 * rw=randrw at iodepth N: one queue of N, each request's direction
 * drawn): its requests in flight, whichever member submitted them.
 */
struct aio_mix {
	int entry;                /* the choice's index in t->fo */
	unsigned inflight;
	unsigned max_inflight;    /* the most in flight at once */
	struct aio_mix *next;
};

/* The family's slot in a thread: its contexts, one per engine used. */
struct aio_thread {
	unsigned refs;            /* aio flowops initialised in this thread */
	struct aio_ctx *ctx[AIO_NENGINES];
	struct aio_mix *mixes;    /* the shared queues of its choices */
};

struct aio_priv {
	struct io_priv io;        /* shared with read/write: buffer, slot, offsets */
	struct aio_ctx *ctx;      /* the thread's context on its engine */
	struct aio_thread *th;
	struct astats *as;        /* its extension block, NULL: none */
	bool read;
	unsigned depth;           /* iodepth; 0: one request per execution */
	/* fio's depth rules (aio_depth_setup()) */
	unsigned batch;           /* submit once this many are prepared */
	unsigned cmin, cmax;      /* completions per round: at least, at most */
	unsigned low;             /* reap until no more of its own in flight */
	bool polling;             /* a round after every submission */
	unsigned inflight;        /* this flowop's requests taken */
	unsigned max_inflight;    /* the most it had submitted at once */
	struct aio_mix *mix;      /* a choice's shared queue, or NULL: its own */
	/* iodepth reads: `depth` buffers of `bufsz` bytes, a stack of free ones */
	char *bufs;
	uint64_t bufsz;
	unsigned nbfree;
	uint16_t *bfree;
	/* sequential aioread: the size at which the offset wraps to 0 */
	const struct fb_slot *eof_slot;
	uint32_t eof_gen;
	uint64_t eof;
};

/* aioread's and aiowrite's own attributes, after read's and write's. */
enum aio_attr {
	AIO_IODEPTH = IO_COUNT,   /* requests kept in flight (0: one per execution) */
	AIO_IOENGINE,             /* the engine's name */
	AIO_BATCH_SUBMIT,         /* fio's iodepth_batch_submit */
	AIO_BATCH_COMPLETE_MIN,   /* fio's iodepth_batch_complete_min */
	AIO_BATCH_COMPLETE_MAX,   /* fio's iodepth_batch_complete_max */
	AIO_IODEPTH_LOW,          /* fio's iodepth_low */
	AIO_COUNT
};

/* How aio_reap() records and waits. */
enum {
	REAP_COUNT = 1,   /* record completions (else: tally them as discarded) */
	REAP_HALT = 2,    /* give up with FLOWOP_DONE when the run halts */
};

/* What one aio_reap() waits for. */
struct aio_wait {
	unsigned want;            /* completions to see */
	unsigned max;             /* at most this many per engine call */
	bool poll;                /* ask the engine not to wait (busy rounds) */
	unsigned how;             /* REAP_* */
	/* counts the round in its complete map; NULL: the first reaped's flowop */
	struct astats *mark;
};

void *aio_engine_context(void *state, int k)
{
	struct aio_thread *th = state;

	return th && th->ctx[k] ? th->ctx[k]->e : NULL;
}

/* The engine attribute `v` names (validated at compile time), or the default. */
static int aio_engine_index(const struct plan_value *v)
{
	if (v->kind == PV_STRING)
		for (int i = 0; aio_engines[i]; i++)
			if (strcmp(aio_engines[i]->name, v->u.s) == 0)
				return i;
	return 0;
}

static enum flowop_result aio_reap(struct fb_thread *t, const struct flowop_inst *fi,
				   struct aio_ctx *c, const struct aio_wait *w);

/* Wait for and record every request of `c` in flight (REAP_* `how`). */
static enum flowop_result aio_reap_all(struct fb_thread *t, const struct flowop_inst *fi,
				       struct aio_ctx *c, unsigned how)
{
	struct aio_wait w = { .want = c->inflight, .max = c->depth, .how = how };

	return c->inflight ? aio_reap(t, fi, c, &w) : FLOWOP_OK;
}

/* fb_thread.quiesce: every request of the thread in flight, reaped and recorded. */
static enum flowop_result aio_quiesce(struct fb_thread *t,
				      const struct flowop_inst *fi, void *state)
{
	struct aio_thread *th = state;

	for (int i = 0; i < AIO_NENGINES; i++) {
		enum flowop_result res;

		if (!th->ctx[i])
			continue;
		res = aio_reap_all(t, fi, th->ctx[i], REAP_COUNT | REAP_HALT);
		if (res != FLOWOP_OK)
			return res;
	}
	return FLOWOP_OK;
}

/*
 * The shared queue of choice `choice` (its plan index) in the thread,
 * made by its first member's init.  NULL with the run's error set.
 */
static struct aio_mix *aio_mix_get(struct fb_thread *t, const struct flowop_inst *fi,
				   struct aio_thread *th, int choice)
{
	struct aio_mix *m;

	for (m = th->mixes; m; m = m->next)
		if (m->entry == choice)
			return m;
	m = calloc(1, sizeof(*m));
	if (!m) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return NULL;
	}
	m->entry = choice;
	m->next = th->mixes;
	th->mixes = m;
	return m;
}

/*
 * A reference on the thread's family state, created (into the family
 * slot) by the first aio flowop of the thread.  NULL with the run's
 * error set.
 */
static struct aio_thread *aio_thread_get(struct fb_thread *t, struct flowop_inst *fi)
{
	void **slot = thread_family_slot(t, &aio_family_key);
	struct aio_thread *th;

	if (slot && *slot) {
		th = *slot;
		th->refs++;
		return th;
	}
	th = slot ? calloc(1, sizeof(*th)) : NULL;
	if (!th) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return NULL;
	}
	th->refs = 1;
	*slot = th;
	/* filebench's aio (--compat) is never reaped before a sleep */
	if (t->plan->semantics == PLAN_SEM_FLOWBENCH) {
		t->quiesce = aio_quiesce;
		t->quiesce_state = th;
	}
	return th;
}

/* Drop a reference; the last one closes the contexts and empties the slot. */
static void aio_thread_put(struct fb_thread *t, struct aio_thread *th)
{
	void **slot;

	if (!th || --th->refs > 0)
		return;
	if (t->quiesce_state == th) {
		t->quiesce = NULL;
		t->quiesce_state = NULL;
	}
	for (int i = 0; i < AIO_NENGINES; i++)
		if (th->ctx[i]) {
			th->ctx[i]->eng->close(th->ctx[i]->e);
			free(th->ctx[i]);
		}
	while (th->mixes) {
		struct aio_mix *m = th->mixes;

		th->mixes = m->next;
		free(m);
	}
	free(th);
	slot = thread_family_slot(t, &aio_family_key);
	if (slot)
		*slot = NULL;
}

/*
 * The requests a context of engine `k` holds for plan thread `thread`:
 * AIO_DEPTH, or the sum of the iodepths of the thread's aioread and
 * aiowrite flowops on that engine when larger (each keeps its own
 * queue full), at most AIO_DEPTH_MAX.  From the plan alone, so that the
 * need hooks count what init allocates.
 */
static unsigned aio_ctx_depth(const struct plan *p, int thread, int k)
{
	const struct plan_thread *pt;
	uint64_t sum = 0;

	if (!p || thread < 0 || thread >= p->nthreads)  /* (a test's thread) */
		return AIO_DEPTH;
	pt = &p->threads[thread];
	for (int i = pt->first_flowop; i < pt->first_flowop + pt->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];

		if (f->ops && f->ops->split_latency && f->nattr >= AIO_COUNT &&
		    aio_engine_index(&f->attr[AIO_IOENGINE]) == k)
			sum += (uint64_t)plan_attr_int(f, AIO_IODEPTH, 0);
	}
	return sum <= AIO_DEPTH ? AIO_DEPTH : sum >= AIO_DEPTH_MAX ? AIO_DEPTH_MAX :
	       (unsigned)sum;
}

/*
 * The thread's context on engine `k`, created by its first flowop on
 * it, for aio_ctx_depth() requests.  NULL with the run's error set (the
 * engine says why it is not available).
 */
static struct aio_ctx *aio_ctx_get(struct fb_thread *t, const struct flowop_inst *fi,
				   struct aio_thread *th, int k)
{
	const struct aio_engine *eng = aio_engines[k];
	struct aio_ctx *c = th->ctx[k];
	unsigned depth;
	char why[512];
	int err;

	if (c)
		return c;
	depth = aio_ctx_depth(t->plan, t->thread, k);
	c = calloc(1, sizeof(*c) + depth * AIO_CTX_REQ_BYTES);
	if (!c) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return NULL;
	}
	c->depth = depth;
	c->req = (struct aio_req *)(c + 1);
	c->ev = (struct aio_event *)(c->req + depth);
	c->free = (uint16_t *)(c->ev + depth);
	c->pend = c->free + depth;
	err = eng->open(&c->e, depth, why, sizeof(why));
	if (err) {
		free(c);
		thread_fail(t, "flowop %s: asynchronous I/O needs %s, which is not "
			    "available (%s: %s): %s", fi->pf->name, eng->what,
			    eng->open_call, strerror(err), why);
		return NULL;
	}
	c->eng = eng;
	for (unsigned i = 0; i < depth; i++)
		c->free[i] = (uint16_t)(depth - 1 - i);
	c->nfree = depth;
	th->ctx[k] = c;
	return c;
}

/*
 * Request `q` of flowop `fi` is no longer in flight: give its read
 * buffer back and count it out of the flowop (whose priv is gone if an
 * aborted drain gave up and the flowop's fini ran since).
 */
static void aio_req_done(struct aio_ctx *c, struct aio_req *q,
			 struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;

	q->fi = NULL;
	c->inflight--;
	if (!p)
		return;
	p->inflight--;
	if (p->mix)
		p->mix->inflight--;
	if (q->buf >= 0)
		p->bfree[p->nbfree++] = (uint16_t)q->buf;
}

/*
 * Request `q` failed with `res` (a write: anything but its length; a
 * read: an error): an op failure of its flowop (common_fail()), naming the
 * flowop, the file and the offset.  For a short write, write the rest
 * once synchronously (if the slot still holds the file) to learn the
 * reason, as write does, and count the failure under it (else as short).
 */
static enum flowop_result aio_failed(struct fb_thread *t,
				     const struct flowop_inst *fi,
				     const struct aio_req *q, int res)
{
	struct fb_slot where = { .fd = -1, .fileset = q->fileset, .entry = q->entry };
	const struct fb_slot *s = &t->slots[q->slot];
	const struct aio_priv *ap = fi->priv;
	const struct io_priv *p = ap ? &ap->io : NULL;
	char what[96];
	int err = 0;

	if (res < 0)
		return common_fail(t, fi, q->write ? "asynchronous write of" :
				   "asynchronous read of", &where, NULL,
				   (int64_t)q->off, -res);
	if (p && s->fd >= 0 && s->gen == q->gen &&
	    (q->buf >= 0 ? ap->bufsz : p->bufsize) >= q->len) {
		const char *buf = q->buf >= 0 ? ap->bufs + (uint64_t)q->buf * ap->bufsz :
				  p->buf;
		ssize_t n = pwrite(s->fd, buf + res, q->len - (uint32_t)res,
				   (off_t)(q->off + (uint64_t)res));

		if (n < 0)
			err = errno;
	}
	snprintf(what, sizeof(what), "short asynchronous write (%d of %u bytes) of",
		 res, q->len);
	if (err)        /* counted under its reason */
		return common_fail(t, fi, what, &where, NULL, (int64_t)q->off, err);
	return common_fail_kind(t, fi, FE_SHORT, what, &where, NULL, (int64_t)q->off,
				ENOSPC);
}

/*
 * The completion of a write recorded when it was submitted (--compat
 * filebench): nothing is recorded, not even as discarded.  A failed or
 * short write is still an op failure of its flowop (aio_failed()).
 */
static __attribute__((cold, noinline)) enum flowop_result
aio_complete_counted(struct fb_thread *t, const struct flowop_inst *fi,
		     const struct aio_req *q, int res, unsigned how)
{
	if (res == (int)q->len)
		return FLOWOP_OK;
	/* drained while the run aborts: cancelled, the run's error is told */
	if (!(how & REAP_COUNT) && (shared_halted(t->ctl) & HALT_ABORT))
		return FLOWOP_OK;
	return aio_failed(t, fi, q, res);
}

/*
 * One completion, reaped at tick `now`: free its request and record the
 * read or write against its flowop (REAP_COUNT; else tally it as
 * discarded), with fio's three latencies.  FLOWOP_OK, FLOWOP_DONE (reaped
 * after the deadline: not counted), FLOWOP_FAILED or FLOWOP_ERROR.
 */
static enum flowop_result aio_complete(struct fb_thread *t, struct aio_ctx *c,
				       const struct aio_event *ev, uint64_t now,
				       unsigned how)
{
	struct aio_req *q = &c->req[ev->tag];
	struct flowop_inst *fi = q->fi;
	const struct aio_priv *p;
	struct fo_stats *fs;
	bool ok;

	if (__builtin_expect(!fi, 0))   /* its submission failed: not in flight */
		return FLOWOP_OK;
	p = fi->priv;
	fs = fi->stats;
	aio_req_done(c, q, fi);
	c->free[c->nfree++] = (uint16_t)ev->tag;
	if (__builtin_expect(q->counted, 0))
		return aio_complete_counted(t, fi, q, ev->res, how);
	ok = q->write ? ev->res == (int)q->len : ev->res >= 0;
	if (__builtin_expect(!ok, 0)) {
		/* drained while the run aborts: cancelled, the run's error is told */
		if (!(how & REAP_COUNT) && (shared_halted(t->ctl) & HALT_ABORT))
			return FLOWOP_OK;
		return aio_failed(t, fi, q, ev->res);
	}
	if (!(how & REAP_COUNT)) {
		STATS_SET(fs->discarded, fs->discarded + 1);
		return FLOWOP_OK;
	}
	/*
	 * the op's latency is fio's clat: from the submission's return; the
	 * per-op logs (thread_record_split()) get its slat and lat too
	 */
	if (!thread_record_split(t, fs, &fs->op, q->t_start, q->t_issue, now,
				 (uint64_t)ev->res, q->off))
		return FLOWOP_DONE;
	if (p && p->as)
		astats_record(p->as, clock_ticks_to_ns(&t->clk, q->t_start, q->t_issue),
			      clock_ticks_to_ns(&t->clk, q->t_issue, now),
			      clock_ticks_to_ns(&t->clk, q->t_start, now));
	return FLOWOP_OK;
}

/* The extension block of the flowop of request `tag`, or NULL. */
static struct astats *aio_req_astats(const struct aio_ctx *c, unsigned tag)
{
	const struct flowop_inst *fi = c->req[tag].fi;
	const struct aio_priv *p = fi ? fi->priv : NULL;

	return p ? p->as : NULL;
}

/*
 * pend[from .. from + n) were taken by one submission call that returned
 * at tick `now`: their issue time, and fio's depth and submit counts (for
 * the first one's flowop: a call carrying several flowops' requests is
 * counted once).
 */
static void aio_issued(struct aio_ctx *c, unsigned from, unsigned n, uint64_t now)
{
	struct astats *as = aio_req_astats(c, c->pend[from]);

	for (unsigned i = from; i < from + n; i++)
		c->req[c->pend[i]].t_issue = now;
	if (as)
		astats_submitted(as, c->inflight, n);
}

/*
 * Submit the requests prepared since the last submission, in one call
 * (or one per request for an engine that submits each).  FLOWOP_OK, or
 * FLOWOP_ERROR if the engine did not take them all (the run fails; those
 * it did not take are counted out of flight, their table entries never
 * reused, so that a late completion of one cannot be mistaken for
 * another request).
 */
static enum flowop_result aio_submit(struct fb_thread *t, struct aio_ctx *c)
{
	unsigned n = c->npend, done = 0;
	int rc = 0;

	if (!n)
		return FLOWOP_OK;
	while (done < n) {
		unsigned k = c->eng->submit_each ? 1 : n - done;
		uint64_t now;

		rc = c->eng->submit(c->e, k);
		now = thread_ticks(t);
		if (rc > 0)
			aio_issued(c, done, (unsigned)rc, now);
		if (rc != (int)k)
			break;
		done += k;
	}
	c->npend = 0;
	if (__builtin_expect(done == n, 1))
		return FLOWOP_OK;
	{
		struct aio_req *q;
		struct flowop_inst *fi;
		struct fb_slot where;
		char what[64];
		int err = rc < 0 ? -rc : EAGAIN;

		done += rc > 0 ? (unsigned)rc : 0;
		q = &c->req[c->pend[done]];
		fi = q->fi;
		where = (struct fb_slot){ .fd = -1, .fileset = q->fileset, .entry = q->entry };
		snprintf(what, sizeof(what), "%s of a %s", c->eng->submit_call[q->write],
			 q->write ? "write to" : "read of");
		for (unsigned i = done; i < n; i++)
			aio_req_done(c, &c->req[c->pend[i]], c->req[c->pend[i]].fi);
		return common_fail_fatal(t, fi, what, &where, NULL, (int64_t)q->off, err);
	}
}

/*
 * Wait until w->want requests completed (or none is in flight),
 * recording every completion seen, at most w->max per engine call;
 * requests still only prepared are submitted first.  Returns FLOWOP_OK;
 * FLOWOP_DONE if one was reaped after the deadline or (REAP_HALT) the run
 * halted; FLOWOP_ERROR if a request failed.  Without REAP_HALT (the drain
 * at thread end) it waits for all `want` even after an error, so no
 * request is left using a buffer about to be freed; only an aborted run
 * cancels them and stops waiting soon.
 */
static enum flowop_result aio_reap(struct fb_thread *t, const struct flowop_inst *fi,
				   struct aio_ctx *c, const struct aio_wait *w)
{
	enum flowop_result res = aio_submit(t, c);
	struct astats *mark = w->mark;
	unsigned want = w->want, reaped = 0;
	uint64_t abort_end = 0;     /* set once the abort cancelled */

	if (res != FLOWOP_OK && (w->how & REAP_HALT))
		return res;
	while (want > 0 && c->inflight > 0) {
		unsigned min = w->poll ? 0 : want < c->inflight ? want : c->inflight;
		uint64_t now;
		int n;

		if ((w->how & REAP_HALT) && thread_halted(t)) {
			res = FLOWOP_DONE;
			break;
		}
		if (!(w->how & REAP_HALT) && !abort_end &&
		    (shared_halted(t->ctl) & HALT_ABORT)) {
			c->eng->cancel(c->e);
			abort_end = clock_now_ns() + AIO_ABORT_NS;
		}
		if (abort_end && clock_now_ns() > abort_end)
			return FLOWOP_ERROR;
		n = c->eng->getevents(c->e, min, w->max, AIO_SLICE_NS, c->ev);
		if (n < 0) {
			thread_fail(t, "flowop %s: waiting for asynchronous I/O (%s): %s",
				    fi->pf->name, c->eng->name, strerror(-n));
			return FLOWOP_ERROR;
		}
		now = thread_ticks(t);
		if (n > 0 && !mark)
			mark = aio_req_astats(c, c->ev[0].tag);
		for (int i = 0; i < n; i++) {
			enum flowop_result r = aio_complete(t, c, &c->ev[i], now, w->how);

			if (want)
				want--;
			if (r == FLOWOP_FAILED)
				r = FLOWOP_OK;  /* counted against its flowop */
			if (r != FLOWOP_OK && res != FLOWOP_ERROR)
				res = r;
		}
		reaped += (unsigned)n;
		if (res != FLOWOP_OK && (w->how & REAP_HALT))
			break;
	}
	if (reaped && mark)
		astats_completed(mark, reaped);
	return res;
}

/* Wait for every request in flight; they are done but not counted. */
static void aio_drain(struct fb_thread *t, const struct flowop_inst *fi,
		      struct aio_ctx *c)
{
	if (c)
		aio_reap_all(t, fi, c, 0);
}

/* io.c's hook: a random iosize outgrew the buffer the requests in flight use. */
static enum flowop_result aio_before_regrow(struct fb_thread *t,
					    struct flowop_inst *fi)
{
	return aio_reap_all(t, fi, ((struct aio_priv *)fi->priv)->ctx,
			    REAP_COUNT | REAP_HALT);
}

/*
 * (Re)allocate an iodepth flowop's buffers (reads; writes with data
 * attributes): `depth` of `size` bytes each, rounded up to IO_ALIGN,
 * touched now so that no page fault lands in a timed request: zeros for
 * reads, each write buffer filled on its own by the data rule (as fio
 * fills each of its buffers).  None may be in flight.  0 or FLOWOP_ERROR.
 */
static int aio_bufs_alloc(struct fb_thread *t, const struct flowop_inst *fi,
			  struct aio_priv *p, uint64_t size)
{
	uint64_t bufsz = (size + IO_ALIGN - 1) / IO_ALIGN * IO_ALIGN;
	void *b;

	free(p->bufs);
	p->bufs = NULL;
	if (bufsz > UINT64_MAX / p->depth ||
	    posix_memalign(&b, IO_ALIGN, bufsz * p->depth) != 0) {
		thread_fail(t, "flowop %s: cannot allocate iodepth %u x %llu bytes "
			    "of %s buffers", fi->pf->name, p->depth,
			    (unsigned long long)bufsz, p->read ? "read" : "write");
		return FLOWOP_ERROR;
	}
	if (p->read)
		memset(b, 0, bufsz * p->depth);
	else
		for (unsigned i = 0; i < p->depth; i++)
			io_fill(&p->io, (char *)b + (uint64_t)i * bufsz, bufsz);
	p->bufs = b;
	p->bufsz = bufsz;
	for (unsigned i = 0; i < p->depth; i++)
		p->bfree[i] = (uint16_t)(p->depth - 1 - i);
	p->nbfree = p->depth;
	return 0;
}

/*
 * An iodepth flowop's random iosize sample outgrew the buffers: wait for
 * every request in flight (this flowop's use them), then allocate larger
 * ones.  Almost never in a run: only for a sample larger than all before.
 */
static enum flowop_result aio_bufs_regrow(struct fb_thread *t, struct flowop_inst *fi,
					  struct aio_priv *p, struct aio_ctx *c)
{
	enum flowop_result res = aio_reap_all(t, fi, c, REAP_COUNT | REAP_HALT);

	if (res != FLOWOP_OK)
		return res;
	return aio_bufs_alloc(t, fi, p, p->io.iosize) ? FLOWOP_ERROR : FLOWOP_OK;
}

/*
 * A sequential read's offset: wrap to the start (0, or misalign) once it
 * reached the file's size (the larger of its size at population and when
 * the slot opened it, looked up once per open), so that no read is
 * issued past the end.  (A stride wraps inside the working set itself.)
 */
static uint64_t aio_read_wrap(struct fb_thread *t, struct aio_priv *p,
			      const struct fb_slot *s, uint64_t off)
{
	if (__builtin_expect(s != p->eof_slot || s->gen != p->eof_gen, 0)) {
		struct stat st;
		uint64_t eof = 0;

		if (s->fileset >= 0 && t->filesets)
			eof = fileset_file_size(&t->filesets[s->fileset], s->entry);
		if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size > eof)
			eof = (uint64_t)st.st_size;
		p->eof = eof;
		p->eof_slot = s;
		p->eof_gen = s->gen;
	}
	return off >= p->eof ? p->io.misalign : off;
}

/*
 * Prepare one request of flowop `fi` (not submitted yet: aio_submit()):
 * the slot, the offset and the size like read/write, a buffer.  Either
 * the request is prepared and counted in flight, or nothing is (FLOWOP_OK
 * or why not).  `counted`: a write whose op is recorded at its
 * submission (aiowrite's filebench variant: never a read, no iodepth
 * buffers).  `data`: a write whose contents change per write (refill,
 * scramble: data.h), made in its own buffer before it is queued.
 * Always inlined with constants, so the default's code (both false)
 * has no trace of them.
 */
static inline __attribute__((always_inline)) enum flowop_result
aio_prepare_as(struct fb_thread *t, struct flowop_inst *fi,
	       struct aio_ctx *c, bool counted, bool data)
{
	struct aio_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->io.sel);
	struct aio_req *q;
	enum flowop_result res;
	bool write = counted || !p->read;
	char *buf;
	int b = -1;
	uint64_t off;
	unsigned i;

	/* (may replace p->io.buf: a random iosize larger than all before) */
	res = io_place(t, fi, &p->io, s, &off);
	if (res == FLOWOP_OK && write)
		res = slot_writable(t, fi, s);
	if (res != FLOWOP_OK)
		return res;
	buf = p->io.buf;
	if (__builtin_expect(p->io.iosize > AIO_MAX_LEN, 0)) {
		thread_fail(t, "flowop %s: iosize %llu is larger than the largest "
			    "single %s (%u bytes)", fi->pf->name,
			    (unsigned long long)p->io.iosize,
			    p->read ? "read" : "write", AIO_MAX_LEN);
		return FLOWOP_ERROR;
	}
	if (!counted && p->read && !p->io.random)
		off = aio_read_wrap(t, p, s, off);
	if (!counted && p->bufs) {
		if (__builtin_expect(p->io.iosize > p->bufsz, 0)) {
			res = aio_bufs_regrow(t, fi, p, c);
			if (res != FLOWOP_OK)
				return res;
		}
		b = p->bfree[--p->nbfree];
		buf = p->bufs + (uint64_t)b * p->bufsz;
		if (data)
			data_before_write(p->io.data, buf, p->io.iosize, off);
	}
	i = c->free[c->nfree - 1];
	q = &c->req[i];
	q->t_start = thread_ticks(t);
	if (__builtin_expect(c->eng->prep(c->e, i, s->fd, buf, (uint32_t)p->io.iosize,
					  off, write) != 0, 0)) {
		if (b >= 0)
			p->nbfree++;
		thread_fail(t, "flowop %s: the %s submission queue is full",
			    fi->pf->name, c->eng->name);
		return FLOWOP_ERROR;
	}
	c->nfree--;
	q->fi = fi;
	q->off = off;
	q->len = (uint32_t)p->io.iosize;
	q->gen = s->gen;
	q->slot = (int)(s - t->slots);
	q->fileset = s->fileset;
	q->entry = s->entry;
	q->buf = b;
	q->write = write;
	q->counted = counted;
	c->pend[c->npend++] = (uint16_t)i;
	c->inflight++;
	p->inflight++;
	if (p->mix)
		p->mix->inflight++;
	if (p->io.sets_offset)
		s->offset = off + q->len;
	return FLOWOP_OK;
}

static enum flowop_result aio_prepare(struct fb_thread *t, struct flowop_inst *fi,
				      struct aio_ctx *c)
{
	return aio_prepare_as(t, fi, c, false, false);
}

/* Without iodepth: submit one request and return; others reap it. */
static enum flowop_result aio_run_one(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;
	struct aio_ctx *c = p->ctx;
	enum flowop_result res;

	if (__builtin_expect(c->inflight == c->depth, 0)) {
		struct aio_wait w = { .want = 1, .max = c->depth,
				      .how = REAP_COUNT | REAP_HALT };

		res = aio_reap(t, fi, c, &w);
		if (res != FLOWOP_OK)
			return res;
	}
	res = aio_prepare(t, fi, c);
	if (res != FLOWOP_OK)
		return res;
	res = aio_submit(t, c);
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	return res;
}

/* The requests in flight in the queue of flowop `p`: its own, or its choice's. */
static inline unsigned aio_queued(const struct aio_priv *p)
{
	return p->mix ? p->mix->inflight : p->inflight;
}

/*
 * fio's wait_for_completions() for an iodepth flowop whose queue is
 * `full` (or, polling, after a submission): rounds of at least
 * min(iodepth_batch_complete_min, in flight) completions (at least 1),
 * at most iodepth_batch_complete_max each, until no more than
 * iodepth_low are in flight in its queue (one round when not full).
 */
static enum flowop_result aio_depth_wait(struct fb_thread *t, struct flowop_inst *fi,
					 struct aio_priv *p, bool full)
{
	struct aio_ctx *c = p->ctx;
	struct aio_wait w = { .how = REAP_COUNT | REAP_HALT, .mark = p->as,
			      .poll = p->cmin == 0 };
	enum flowop_result res;

	w.want = p->cmin < c->inflight ? p->cmin : c->inflight;
	if ((full && !w.want) || !p->cmin)
		w.want = 1;
	do {
		/* fio's td_io_getevents(): max within the depth, never below min */
		w.max = p->cmax < c->inflight ? p->cmax : c->inflight;
		if (w.max < w.want)
			w.max = w.want;
		res = aio_reap(t, fi, c, &w);
		if (res != FLOWOP_OK)
			return res;
	} while (full && aio_queued(p) > p->low && c->inflight);
	return FLOWOP_OK;
}

/*
 * iodepth=N: top this flowop up to N requests in flight (fewer if the
 * thread's context is full), submitting each iodepth_batch_submit of
 * them, then reap as fio does with a full queue (aio_depth_wait()).
 * Polling (fio's, both completion options 0) reaps after each
 * submission instead, and an execution prepares at most N requests.
 * `data` as aio_prepare_as()'s.
 */
static inline __attribute__((always_inline)) enum flowop_result
aio_run_depth_as(struct fb_thread *t, struct flowop_inst *fi, bool data)
{
	struct aio_priv *p = fi->priv;
	struct aio_ctx *c = p->ctx;
	enum flowop_result res = FLOWOP_OK, sub;

	for (unsigned n = 0; n < p->depth && p->inflight < p->depth &&
	     c->inflight < c->depth; n++) {
		res = aio_prepare_as(t, fi, c, false, data);
		if (res != FLOWOP_OK)
			break;
		if (c->npend >= p->batch) {
			sub = aio_submit(t, c);
			if (sub != FLOWOP_OK)
				return sub;
		}
		if (__builtin_expect(p->polling, 0)) {
			sub = aio_depth_wait(t, fi, p, false);
			if (sub != FLOWOP_OK)
				return sub;
		}
	}
	sub = aio_submit(t, c);
	if (sub != FLOWOP_OK)
		return sub;
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	if (res != FLOWOP_OK)
		return res;
	if (p->polling && p->inflight < p->depth && c->inflight < c->depth)
		return FLOWOP_OK;       /* not full: fio's next round follows a submission */
	return aio_depth_wait(t, fi, p, true);
}

static enum flowop_result aio_run_depth(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_run_depth_as(t, fi, false);
}

/* aiowrite with iodepth whose contents change per write (aio_io_init() chose it). */
static enum flowop_result aio_run_depth_data(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_run_depth_as(t, fi, true);
}

/*
 * An iodepth member of a choice (aio_mix_find()): each execution, the
 * choice having drawn this member, prepares ONE request, as fio's loop
 * draws each request's direction; the requests are submitted once
 * iodepth_batch_submit are prepared (whichever members prepared them),
 * and a full shared queue is reaped as fio reaps one (aio_depth_wait():
 * completions of every member, down to iodepth_low).  `data` as
 * aio_prepare_as()'s.
 */
static inline __attribute__((always_inline)) enum flowop_result
aio_run_mixed_as(struct fb_thread *t, struct flowop_inst *fi, bool data)
{
	struct aio_priv *p = fi->priv;
	struct aio_ctx *c = p->ctx;
	enum flowop_result res;

	if (__builtin_expect(p->mix->inflight >= p->depth || c->inflight == c->depth, 0)) {
		res = aio_depth_wait(t, fi, p, true);   /* another use of the context filled it */
		if (res != FLOWOP_OK)
			return res;
	}
	res = aio_prepare_as(t, fi, c, false, data);
	if (res != FLOWOP_OK)
		return res;
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	if (p->mix->inflight > p->mix->max_inflight)
		p->mix->max_inflight = p->mix->inflight;
	if (c->npend >= p->batch) {
		res = aio_submit(t, c);
		if (res != FLOWOP_OK)
			return res;
	}
	if (__builtin_expect(p->polling, 0)) {
		res = aio_depth_wait(t, fi, p, false);
		if (res != FLOWOP_OK)
			return res;
	}
	if (p->mix->inflight < p->depth && c->inflight < c->depth)
		return FLOWOP_OK;
	return aio_depth_wait(t, fi, p, true);
}

static enum flowop_result aio_run_mixed(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_run_mixed_as(t, fi, false);
}

/* aio_run_mixed() of an aiowrite whose contents change per write. */
static enum flowop_result aio_run_mixed_data(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_run_mixed_as(t, fi, true);
}

/*
 * aiowrite under --compat filebench, without iodepth: the op is the
 * submission, as filebench's aio_write() (reference 4.3): recorded once
 * the write is submitted, its latency the submit call's, `iosize` bytes;
 * a submission that ends after the deadline is not counted and stops the
 * thread.  Back-pressure and aiowait still reap the write (its buffer
 * and request entry are needed again) but record nothing for it.
 */
static enum flowop_result aiowrite_fb_one(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;
	struct aio_ctx *c = p->ctx;
	enum flowop_result res;
	uint64_t t0, t1, len;

	if (__builtin_expect(c->inflight == c->depth, 0)) {
		struct aio_wait w = { .want = 1, .max = c->depth,
				      .how = REAP_COUNT | REAP_HALT };

		res = aio_reap(t, fi, c, &w);
		if (res != FLOWOP_OK)
			return res;
	}
	res = aio_prepare_as(t, fi, c, true, false);
	if (res != FLOWOP_OK)
		return res;
	len = p->io.iosize;
	t0 = thread_ticks(t);
	res = aio_submit(t, c);
	t1 = thread_ticks(t);
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	if (res != FLOWOP_OK)
		return res;
	return common_record(t, fi, t0, t1, len);
}

/*
 * fio's depth rules from the flowop's attributes (aio_validate() checked
 * them): a batch of iodepth_batch_submit (0 or unset: iodepth), rounds
 * of iodepth_batch_complete_min (unset: 1) to iodepth_batch_complete_max
 * (unset: every completion there is; 0: the minimum, as fio), reaping
 * down to iodepth_low (0 or unset: iodepth).
 */
static void aio_depth_setup(struct aio_priv *p, const struct plan_flowop *f)
{
	int64_t batch = plan_attr_int(f, AIO_BATCH_SUBMIT, 0);
	int64_t low = plan_attr_int(f, AIO_IODEPTH_LOW, 0);

	p->batch = batch > 0 ? (unsigned)batch : p->depth;
	p->cmin = (unsigned)plan_attr_int(f, AIO_BATCH_COMPLETE_MIN, 1);
	p->cmax = plan_attr_given(f, AIO_BATCH_COMPLETE_MAX) ?
		  (unsigned)plan_attr_int(f, AIO_BATCH_COMPLETE_MAX, 0) : AIO_DEPTH_MAX;
	p->polling = p->cmin == 0 && p->cmax == 0;
	if (p->cmax < p->cmin)
		p->cmax = p->cmin;
	p->low = low > 0 ? (unsigned)low : p->depth;
}

static int aio_io_init(struct fb_thread *t, struct flowop_inst *fi, bool read)
{
	struct aio_priv *p = io_priv_alloc(sizeof(*p));   /* io first: line-aligned */

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FLOWOP_ERROR;
	}
	fi->priv = p;
	p->read = read;
	p->depth = (unsigned)plan_attr_int(fi->pf, AIO_IODEPTH, 0);
	aio_depth_setup(p, fi->pf);
	p->io.before_regrow = aio_before_regrow;
	p->as = thread_astats(t, fi);
	p->th = aio_thread_get(t, fi);
	if (!p->th) {
		free(p);
		fi->priv = NULL;
		return FLOWOP_ERROR;
	}
	p->ctx = aio_ctx_get(t, fi, p->th,
			     aio_engine_index(&fi->pf->attr[AIO_IOENGINE]));
	if (!p->ctx)
		goto fail;
	if (io_priv_setup(t, fi, &p->io) != 0)
		goto fail;
	if (p->depth > AIO_DEPTH_MAX) {     /* validate() said so already */
		thread_fail(t, "flowop %s: iodepth %u is more than %u", fi->pf->name,
			    p->depth, AIO_DEPTH_MAX);
		goto fail;
	}
	if (p->depth) {
		int choice = common_choice_of(t->plan, (int)(fi->pf - t->plan->flowops));

		if (choice >= 0 && !(p->mix = aio_mix_get(t, fi, p->th, choice)))
			goto fail;
	}
	/* reads, and writes of data of their own, have a buffer per request */
	if (p->depth && (read || p->io.data)) {
		p->bfree = calloc(p->depth, sizeof(*p->bfree));
		if (!p->bfree) {
			thread_fail(t, "flowop %s: out of memory", fi->pf->name);
			goto fail;
		}
		if (aio_bufs_alloc(t, fi, p, p->io.iosize) != 0)
			goto fail;
	}
	if (p->depth && p->io.data && data_per_write(p->io.data))
		fi->run = p->mix ? aio_run_mixed_data : aio_run_depth_data;
	return 0;
fail:
	aio_thread_put(t, p->th);
	io_priv_teardown(t, &p->io);
	free(p->bfree);
	free(p);
	fi->priv = NULL;
	return FLOWOP_ERROR;
}

static int aiowrite_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_io_init(t, fi, false);
}

static int aioread_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_io_init(t, fi, true);
}

static void aio_io_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;

	if (p)
		aio_drain(t, fi, p->ctx);
	/* the queue depth reached, once per flowop statement (first instance) */
	if (p && p->depth && t->proc_inst == 0 && t->thread_inst == 0)
		log_info("flowop %s: at most %u request%s in flight at once "
			 "(iodepth=%u%s)", fi->pf->name, p->max_inflight,
			 p->max_inflight == 1 ? "" : "s", p->depth,
			 p->mix ? ", one queue with the other members of its choice" : "");
	if (p && p->mix && p->mix->max_inflight && t->proc_inst == 0 && t->thread_inst == 0) {
		log_info("choice %s: at most %u request%s of its members in flight "
			 "at once (their shared iodepth=%u)",
			 t->plan->flowops[p->mix->entry].name, p->mix->max_inflight,
			 p->mix->max_inflight == 1 ? "" : "s", p->depth);
		p->mix->max_inflight = 0;      /* said once, by the member ending first */
	}
	if (p) {
		aio_thread_put(t, p->th);
		io_priv_teardown(t, &p->io);
		free(p->bufs);
		free(p->bfree);
	}
	free(p);
	fi->priv = NULL;
}

static enum flowop_result aio_io_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct aio_priv *p = fi->priv;

	if (!p->depth)
		return aio_run_one(t, fi);
	return p->mix ? aio_run_mixed(t, fi) : aio_run_depth(t, fi);
}

/*
 * aiowrite's run under --compat filebench; with iodepth (flowbench's
 * own, filebench has none) the default's.
 */
static enum flowop_result aiowrite_fb_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct aio_priv *p = fi->priv;

	return p->depth ? aio_io_run(t, fi) : aiowrite_fb_one(t, fi);
}

/* A depth attribute `a`, if given, is within lo..hi (a located error if not). */
static int aio_check_range(const struct plan_flowop *f, struct diag *d, int a,
			   const char *name, int64_t lo, int64_t hi, const char *hi_is)
{
	int64_t v = plan_attr_int(f, a, 0);

	if (!plan_attr_given(f, a) || (v >= lo && v <= hi))
		return 0;
	diag_error(d, f->attr[a].loc, "flowop %s: %s must be %lld to %lld%s, not %lld",
		   f->name, name, (long long)lo, (long long)hi, hi_is, (long long)v);
	return 1;
}

/* aioread or aiowrite (the default's or --compat's ops). */
static bool aio_is_io(const struct plan_flowop *f)
{
	return f->ops == flowops_aio[0] || f->ops == flowops_aio[1];
}

/*
 * An iodepth member of a choice shares one queue with the choice's other
 * members (aio_run_mixed()): every member must be an aioread or aiowrite
 * with the same iodepth, engine and depth options.  Each member is
 * checked against the first; the first also says which members are not
 * asynchronous at all.
 */
static int aio_validate_mix(const struct plan *p, const struct plan_flowop *f,
			    struct diag *d)
{
	static const int same[] = { AIO_IODEPTH, AIO_IOENGINE, AIO_BATCH_SUBMIT,
				    AIO_BATCH_COMPLETE_MIN, AIO_BATCH_COMPLETE_MAX,
				    AIO_IODEPTH_LOW };
	static const char *const same_names[] = {
		"iodepth", "ioengine", "iodepth_batch_submit", "iodepth_batch_complete_min",
		"iodepth_batch_complete_max", "iodepth_low" };
	int k = (int)(f - p->flowops), choice = common_choice_of(p, k), errs = 0;
	const struct plan_flowop *ch, *first;

	if (choice < 0)
		return 0;
	ch = &p->flowops[choice];
	first = &p->flowops[choice + 1];
	if (first == f) {
		for (int j = choice + 1; j <= choice + ch->ndesc; j += 1 + p->flowops[j].ndesc) {
			const struct plan_flowop *m = &p->flowops[j];

			if (aio_is_io(m) && plan_attr_given(m, AIO_IODEPTH))
				continue;
			diag_error(d, m->loc, "flowop %s: a member of choice %s, whose "
				   "asynchronous members share one queue of iodepth %lld (as "
				   "fio's rw=randrw does), must be an aioread or aiowrite with "
				   "that iodepth", m->name, ch->name,
				   (long long)plan_attr_int(f, AIO_IODEPTH, 1));
			errs++;
		}
		return errs;
	}
	if (!aio_is_io(first) || !plan_attr_given(first, AIO_IODEPTH))
		return 0;       /* said at the first member */
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		const struct plan_value *a = &f->attr[same[i]], *b = &first->attr[same[i]];
		bool differ = a->kind != b->kind ||
			      (a->kind == PV_STRING ? strcmp(a->u.s, b->u.s) != 0 :
			       a->kind != PV_UNSET &&
			       plan_attr_int(f, same[i], 0) != plan_attr_int(first, same[i], 0));

		if (!differ)
			continue;
		diag_error(d, a->kind != PV_UNSET ? a->loc : f->loc, "flowop %s: its %s "
			   "differs from that of %s: the asynchronous members of choice %s "
			   "share one queue (as fio's rw=randrw does), so they take the same "
			   "%s", f->name, same_names[i], first->name, ch->name, same_names[i]);
		errs++;
	}
	return errs;
}

/*
 * io_validate()'s checks; an iodepth of 1..AIO_DEPTH_MAX; an engine of
 * aio_engines; fio's depth options only with iodepth, within fio's
 * ranges (where fio would change a value silently, an error here).
 */
static int aio_validate(const struct plan *p, const struct plan_flowop *f,
			struct diag *d)
{
	static const int depth_opts[] = { AIO_BATCH_SUBMIT, AIO_BATCH_COMPLETE_MIN,
					   AIO_BATCH_COMPLETE_MAX, AIO_IODEPTH_LOW };
	static const char *const depth_names[] = {
		"iodepth_batch_submit", "iodepth_batch_complete_min",
		"iodepth_batch_complete_max", "iodepth_low" };
	int errs = io_validate(p, f, d);
	int64_t depth = plan_attr_int(f, AIO_IODEPTH, 1);
	const struct plan_value *eng = &f->attr[AIO_IOENGINE];

	if (plan_attr_given(f, AIO_IODEPTH) && (depth < 1 || depth > AIO_DEPTH_MAX)) {
		diag_error(d, f->attr[AIO_IODEPTH].loc,
			   "flowop %s: iodepth must be 1 to %d, not %lld", f->name,
			   AIO_DEPTH_MAX, (long long)depth);
		errs++;
	}
	if (eng->kind != PV_UNSET &&
	    (eng->kind != PV_STRING || strcmp(aio_engines[aio_engine_index(eng)]->name,
					      eng->u.s) != 0)) {
		diag_error(d, eng->loc, "flowop %s: ioengine must be io_uring, libaio "
			   "or posixaio, not %s", f->name,
			   eng->kind == PV_STRING ? eng->u.s : "a number");
		errs++;
	}
	for (int i = 0; i < 4; i++)
		if (plan_attr_given(f, depth_opts[i]) && !plan_attr_given(f, AIO_IODEPTH)) {
			diag_error(d, f->attr[depth_opts[i]].loc, "flowop %s: %s needs "
				   "iodepth (it shapes the queue iodepth keeps)", f->name,
				   depth_names[i]);
			return errs + 1;
		}
	if (!plan_attr_given(f, AIO_IODEPTH)) {
		const struct plan_value *v = &f->attr[IO_DATA + DATA_A_REFILL];

		if (!plan_attr_bool(f, IO_DATA + DATA_A_REFILL, false))
			v = &f->attr[IO_DATA + DATA_A_SCRAMBLE];
		if (plan_attr_bool(f, IO_DATA + DATA_A_REFILL, false) ||
		    plan_attr_bool(f, IO_DATA + DATA_A_SCRAMBLE, false)) {
			diag_error(d, v->loc, "flowop %s: %s on aiowrite needs iodepth: "
				   "each write in flight then has a buffer of its own, "
				   "changed before it is queued", f->name,
				   v == &f->attr[IO_DATA + DATA_A_REFILL] ? "refill" :
				   "scramble");
			errs++;
		}
		return errs;
	}
	errs += aio_validate_mix(p, f, d);
	errs += aio_check_range(f, d, AIO_BATCH_SUBMIT, "iodepth_batch_submit", 0,
				depth, " (0: iodepth; at most iodepth)");
	errs += aio_check_range(f, d, AIO_BATCH_COMPLETE_MIN,
				"iodepth_batch_complete_min", 0, AIO_DEPTH_MAX, "");
	errs += aio_check_range(f, d, AIO_BATCH_COMPLETE_MAX,
				"iodepth_batch_complete_max", 0, AIO_DEPTH_MAX, "");
	errs += aio_check_range(f, d, AIO_IODEPTH_LOW, "iodepth_low", 0, depth,
				" (0: iodepth; at most iodepth)");
	if (plan_attr_given(f, AIO_BATCH_COMPLETE_MAX) &&
	    plan_attr_int(f, AIO_BATCH_COMPLETE_MAX, 0) != 0 &&
	    plan_attr_int(f, AIO_BATCH_COMPLETE_MAX, 0) <
	    plan_attr_int(f, AIO_BATCH_COMPLETE_MIN, 1)) {
		diag_error(d, f->attr[AIO_BATCH_COMPLETE_MAX].loc, "flowop %s: "
			   "iodepth_batch_complete_max (%lld) is less than "
			   "iodepth_batch_complete_min (%lld): give 0 (the minimum) "
			   "or at least the minimum", f->name,
			   (long long)plan_attr_int(f, AIO_BATCH_COMPLETE_MAX, 0),
			   (long long)plan_attr_int(f, AIO_BATCH_COMPLETE_MIN, 1));
		errs++;
	}
	return errs;
}

/* aiowait's priv is the thread's family state: every engine's context. */
static int aiowait_init(struct fb_thread *t, struct flowop_inst *fi)
{
	fi->priv = aio_thread_get(t, fi);
	return fi->priv ? 0 : FLOWOP_ERROR;
}

static void aiowait_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_thread *th = fi->priv;

	for (int i = 0; th && i < AIO_NENGINES; i++)
		aio_drain(t, fi, th->ctx[i]);
	aio_thread_put(t, th);
	fi->priv = NULL;
}

static enum flowop_result aiowait_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_thread *th = fi->priv;
	uint64_t t0 = thread_ticks(t), t1 = t0;

	for (int i = 0; i < AIO_NENGINES; i++) {
		struct aio_ctx *c = th->ctx[i];
		struct aio_wait w = { .how = REAP_COUNT | REAP_HALT };
		enum flowop_result res;

		if (!c || !c->inflight)
			continue;
		w.max = c->depth;
		w.want = c->inflight / 2 ? c->inflight / 2 : 1;
		res = aio_reap(t, fi, c, &w);
		if (res != FLOWOP_OK)
			return res;
		t1 = thread_ticks(t);
	}
	return common_record(t, fi, t0, t1, 0);
}

/*
 * read/write's buffer and slots, aio_priv's own part and the engine's
 * context (once per thread and engine: its key is the engine); with
 * iodepth, a read has `iodepth` buffers of its own (aio_bufs_alloc(): the
 * iosize, or a random one's first size, rounded up to IO_ALIGN), and so
 * does a write with data attributes; other writes in flight share the
 * pattern buffer.
 */
static void aio_io_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n, bool read)
{
	const struct plan_value *io = &f->attr[COMMON_IOSIZE];
	const struct aio_engine *eng = aio_engines[aio_engine_index(&f->attr[AIO_IOENGINE])];
	uint64_t depth = (uint64_t)plan_attr_int(f, AIO_IODEPTH, 0);
	uint64_t size = io->kind == PV_RANDOM ? IO_RANDOM_BUF :
			io->kind == PV_INT && io->u.i > 0 ? (uint64_t)io->u.i : 0;
	uint64_t bufsz = plan_sat_add(size, IO_ALIGN - 1) / IO_ALIGN * IO_ALIGN;

	io_need(p, f, n);
	n->mem = plan_sat_add(n->mem, sizeof(struct aio_priv) - sizeof(struct io_priv));
	if (depth && (read || data_given(f, IO_DATA)))
		n->mem = plan_sat_add(n->mem, plan_sat_mul(depth, bufsz + sizeof(uint16_t)));
	n->shared = eng;
	n->shared_mem = plan_sat_add(sizeof(struct aio_ctx) + sizeof(struct aio_thread) +
				     eng->ctx_mem + eng->kernel_mem,
				     plan_sat_mul(aio_ctx_depth(p, f->thread,
								aio_engine_index(&f->attr[AIO_IOENGINE])),
						  AIO_CTX_REQ_BYTES + eng->req_mem +
						  eng->kernel_req_mem));
	n->shared_fds = eng->fds;
}

static void aiowrite_need(const struct plan *p, const struct plan_flowop *f,
			  struct flowop_need *n)
{
	aio_io_need(p, f, n, false);
}

static void aioread_need(const struct plan *p, const struct plan_flowop *f,
			 struct flowop_need *n)
{
	aio_io_need(p, f, n, true);
}

/* aiowait holds the thread's family state (the contexts are its flowops'). */
static void aiowait_need(const struct plan *p, const struct plan_flowop *f,
			 struct flowop_need *n)
{
	(void)p;
	(void)f;
	n->shared = &aio_family_key;
	n->shared_mem = sizeof(struct aio_thread);
}

#define AIO_ATTR_DEPTH                                                  \
	{ "iodepth", T_SIZE, AIO_IODEPTH,                               \
	  "requests of its own kept in flight, 1..32768 (flowbench's own)" }, \
	{ "ioengine", T_STRING, AIO_IOENGINE,                           \
	  "the engine: io_uring (default), libaio or posixaio" },       \
	{ "iodepth_batch_submit", T_SIZE, AIO_BATCH_SUBMIT,             \
	  "with iodepth: submit once this many are prepared (fio's; default and 0: iodepth)" }, \
	{ "iodepth_batch", T_SIZE, AIO_BATCH_SUBMIT,                    \
	  "the same as iodepth_batch_submit" },                         \
	{ "iodepth_batch_complete_min", T_SIZE, AIO_BATCH_COMPLETE_MIN, \
	  "with iodepth: wait for at least this many completions a round (fio's; default 1; 0: do not wait)" }, \
	{ "iodepth_batch_complete", T_SIZE, AIO_BATCH_COMPLETE_MIN,     \
	  "the same as iodepth_batch_complete_min" },                   \
	{ "iodepth_batch_complete_max", T_SIZE, AIO_BATCH_COMPLETE_MAX, \
	  "with iodepth: take at most this many completions a round (fio's; default: all there are; 0: the minimum)" }, \
	{ "iodepth_low", T_SIZE, AIO_IODEPTH_LOW,                       \
	  "with iodepth: once full, reap down to this many in flight (fio's; default and 0: iodepth)" }

/* noreadahead too: fio advises POSIX_FADV_RANDOM on a random writer's files */
static const struct attr_spec aiowrite_attrs[] = {
	ATTR_FILENAME, COMMON_ATTR_IOSIZE, IO_ATTR_RANDOM, COMMON_ATTR_WORKINGSET,
	COMMON_ATTR_DIRECTIO, COMMON_ATTR_DSYNC, ATTR_FD, COMMON_ATTR_OPENNEXT,
	AIO_ATTR_DEPTH, COMMON_ATTR_NOREADAHEAD, IO_ATTR_RANDOMMAP,
	IO_ATTR_MISALIGN, IO_ATTR_STRIDE, IO_ATTR_SEQFOLLOWS, IO_ATTR_BLOCKALIGN,
	IO_ATTR_WRAP, DATA_ATTRS(IO_DATA),
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec aioread_attrs[] = {
	ATTR_FILENAME, COMMON_ATTR_IOSIZE, IO_ATTR_RANDOM, COMMON_ATTR_WORKINGSET,
	COMMON_ATTR_DIRECTIO, COMMON_ATTR_DSYNC, ATTR_FD, COMMON_ATTR_OPENNEXT,
	AIO_ATTR_DEPTH, COMMON_ATTR_NOREADAHEAD, IO_ATTR_RANDOMMAP,
	IO_ATTR_MISALIGN, IO_ATTR_STRIDE, IO_ATTR_SEQFOLLOWS, IO_ATTR_BLOCKALIGN,
	IO_ATTR_WRAP,
	{ NULL, 0, 0, NULL }
};

/* aiowrite under --compat filebench: recorded at submission. */
static const struct flowop_ops fo_aiowrite_fb = {
	.name = "aiowrite",
	.on_device = true,
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_WRITE,
	.attrs = aiowrite_attrs,
	.nattr = AIO_COUNT,
	.split_latency = true,
	.validate = aio_validate,
	.need = aiowrite_need,
	.init = aiowrite_init,
	.run = aiowrite_fb_run,
	.fini = aio_io_fini,
};

static const struct flowop_ops fo_aiowrite = {
	.name = "aiowrite",
	.on_device = true,
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_WRITE,
	.attrs = aiowrite_attrs,
	.nattr = AIO_COUNT,
	.split_latency = true,
	.validate = aio_validate,
	.need = aiowrite_need,
	.init = aiowrite_init,
	.run = aio_io_run,
	.fini = aio_io_fini,
	.filebench = &fo_aiowrite_fb,
};

static const struct flowop_ops fo_aioread = {
	.name = "aioread",
	.on_device = true,
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_READ,
	.attrs = aioread_attrs,
	.nattr = AIO_COUNT,
	.split_latency = true,
	.validate = aio_validate,
	.need = aioread_need,
	.init = aioread_init,
	.run = aio_io_run,
	.fini = aio_io_fini,
};

static const struct flowop_ops fo_aiowait = {
	.name = "aiowait",
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_NONE,
	.need = aiowait_need,
	.init = aiowait_init,
	.run = aiowait_run,
	.fini = aiowait_fini,
};

const struct flowop_ops *const flowops_aio[] = { &fo_aiowrite, &fo_aioread,
						 &fo_aiowait, NULL };
