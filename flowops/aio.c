/*
 * aio.c - asynchronous writes: the aiowrite and aiowait flowops (WML
 * reference 4.3, 4.4), on io_uring.
 *
 * filebench's aiowrite records its op when it submits a POSIX aio_write,
 * and its aiowait only unlinks requests that happen to be done (and leaks
 * them).  Here the I/O is really asynchronous and aiowait really waits:
 *
 *  - Each thread instance has one io_uring of AIO_DEPTH entries, created
 *    by the init of its first aio flowop (before the start barrier) and
 *    freed after the fini of its last one (a reference count).
 *  - aiowrite sets up its file like write (the implicit open is its own
 *    op in stats->open; `fd`, `opennext`, `directio`, `dsync`), picks the
 *    offset like write (a random whole block of the working set with
 *    `random`, else the slot's sequential offset, which advances at
 *    submission), submits one write of `iosize` from its pattern buffer
 *    and returns without waiting.  Its op is recorded when the write is
 *    reaped: latency from submission to the reap, bytes written.  A
 *    failed or short write fails the run.  (filebench refuses sequential
 *    aiowrite; here it appends like write.)  A random `iosize` sample
 *    larger than the buffer replaces it only after the writes in flight
 *    completed.
 *  - Back-pressure: with AIO_DEPTH writes in flight, aiowrite first
 *    waits for one completion, so a thread without aiowait still runs.
 *  - aiowait waits until at least max(1, in flight / 2) writes completed
 *    (filebench's target), reaping every completion it sees, and records
 *    one op of 0 bytes whose latency is the wait; with nothing in flight
 *    that op takes 0 ns.
 *  - Completions are reaped only by aiowait and by back-pressure, so a
 *    write's latency includes any time its completion waited to be seen.
 *  - The deadline rule holds for every op: a completion reaped after the
 *    deadline is not counted (tallied as discarded) and stops the thread.
 *    Waits run in AIO_SLICE_NS slices and give up when the run halts.
 *  - At thread end, fini waits for every write still in flight, so none
 *    is pending when the process exits; those are tallied as discarded.
 *    An aborted run (an error, Ctrl-C) cancels them instead of waiting.
 *  - io_uring must be available: if the ring cannot be created, init
 *    fails the run saying why (kernel.io_uring_disabled, seccomp, ...).
 *
 * Hot path: no allocation, no lock; one io_uring_submit() per aiowrite.
 * A request remembers its aiowrite and submission tick in a fixed table
 * indexed by the completion's user_data.
 */
#include <errno.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flowops/common.h"
#include "flowops/flowop.h"
#include "flowops/io.h"
#include "runtime/stats.h"
#include "runtime/thread.h"

/*
 * Writes in flight per thread.  filebench has no limit; 256 covers the
 * shipped workloads (oltp.f's database writers submit 10 between waits)
 * and keeps the ring small (256 SQEs, 512 CQEs: about 24 KiB).  The CQ
 * ring is twice that, so it can never overflow.
 */
#define AIO_DEPTH 256
/* Waits are cut in slices this long to notice a halting run. */
#define AIO_SLICE_NS 50000000
/* Linux's largest single write (MAX_RW_COUNT on 4 KiB pages). */
#define AIO_MAX_LEN 0x7ffff000u
/* user_data of the cancellation an aborted run's drain submits */
#define AIO_CANCEL_TAG ((uint64_t)AIO_DEPTH)
/* After that cancellation, the drain waits at most this many slices. */
#define AIO_ABORT_SLICES 20

/* One write in flight. */
struct aio_req {
	struct flowop_inst *fi;   /* the aiowrite that submitted it */
	uint64_t t0;              /* submission tick */
	uint64_t off;
	uint32_t len;
	uint32_t gen;             /* the slot's open generation at submission */
	int slot;                 /* index in t->slots */
	int fileset;              /* the file, for error messages */
	uint64_t entry;
};

/* A thread's ring (t->aio) and its request table. */
struct aio_ring {
	struct io_uring ring;
	unsigned refs;            /* aio flowops initialised in this thread */
	unsigned inflight;
	unsigned nfree;
	uint16_t free[AIO_DEPTH]; /* stack of free request indices */
	struct aio_req req[AIO_DEPTH];
};

struct aio_priv {
	struct io_priv io;        /* shared with write: buffer, slot, offsets */
};

/* How aio_reap() records and waits. */
enum {
	REAP_COUNT = 1,   /* record completions (else: tally them as discarded) */
	REAP_HALT = 2,    /* give up with FO_DONE when the run halts */
};

/* io_uring_queue_init() failed with `err`: say why and what to check. */
static void aio_unavailable(struct fb_thread *t, const struct flowop_inst *fi,
			    int err)
{
	const char *hint;

	if (err == ENOSYS)
		hint = "this kernel has no io_uring (Linux 5.1 or later built with "
		       "CONFIG_IO_URING is needed), or a seccomp filter (a "
		       "container's) denies io_uring_setup";
	else if (err == EPERM)
		hint = "io_uring is disabled: the sysctl kernel.io_uring_disabled "
		       "must be 0 (or 1 with this user in kernel.io_uring_group), "
		       "and no seccomp filter (a container's) may deny "
		       "io_uring_setup";
	else if (err == ENOMEM)
		hint = "not enough locked memory for the ring (raise ulimit -l)";
	else
		hint = "check the sysctl kernel.io_uring_disabled (0 enables it)";
	thread_fail(t, "flowop %s: asynchronous I/O needs io_uring, which is not "
		    "available (io_uring_queue_init: %s): %s", fi->pf->name,
		    strerror(err), hint);
}

/* Take a reference on the thread's ring, creating it.  0 or FO_ERROR. */
static int aio_ring_get(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_ring *r = t->aio;
	int rc;

	if (r) {
		r->refs++;
		return 0;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FO_ERROR;
	}
	rc = io_uring_queue_init(AIO_DEPTH, &r->ring, 0);
	if (rc < 0) {
		free(r);
		aio_unavailable(t, fi, -rc);
		return FO_ERROR;
	}
	for (unsigned i = 0; i < AIO_DEPTH; i++)
		r->free[i] = (uint16_t)(AIO_DEPTH - 1 - i);
	r->nfree = AIO_DEPTH;
	r->refs = 1;
	t->aio = r;
	return 0;
}

static void aio_ring_put(struct fb_thread *t)
{
	struct aio_ring *r = t->aio;

	if (!r || --r->refs > 0)
		return;
	io_uring_queue_exit(&r->ring);
	free(r);
	t->aio = NULL;
}

/*
 * Request `q` completed with `res` other than its length: fail the run
 * naming the flowop, the file and the offset.  For a short write, write
 * the rest once synchronously (if the slot still holds the file) to learn
 * the reason, as write does.
 */
static enum fo_result aio_failed(struct fb_thread *t, const struct flowop_inst *fi,
				 const struct aio_req *q, int res)
{
	struct fb_slot where = { .fd = -1, .fileset = q->fileset, .entry = q->entry };
	const struct fb_slot *s = &t->slots[q->slot];
	const struct io_priv *p = &((const struct aio_priv *)fi->priv)->io;
	char what[96];
	int err = ENOSPC;

	if (res < 0)
		return fo_fail(t, fi, "asynchronous write of", &where, NULL,
			       (int64_t)q->off, -res);
	if (s->fd >= 0 && s->gen == q->gen && p->bufsize >= q->len) {
		ssize_t n = pwrite(s->fd, p->buf + res, q->len - (uint32_t)res,
				   (off_t)(q->off + (uint64_t)res));

		if (n < 0)
			err = errno;
	}
	snprintf(what, sizeof(what), "short asynchronous write (%d of %u bytes) of",
		 res, q->len);
	return fo_fail(t, fi, what, &where, NULL, (int64_t)q->off, err);
}

/*
 * One completion, reaped at tick `now`: free its request and record the
 * write against its aiowrite (REAP_COUNT; else tally it as discarded).
 * FO_OK, FO_DONE (reaped after the deadline: not counted) or FO_ERROR.
 */
static enum fo_result aio_complete(struct fb_thread *t, struct aio_ring *r,
				   const struct io_uring_cqe *cqe, uint64_t now,
				   unsigned how)
{
	struct aio_req *q = &r->req[cqe->user_data];
	struct flowop_inst *fi = q->fi;
	struct fo_stats *fs;

	if (__builtin_expect(!fi, 0))   /* its submission failed: not in flight */
		return FO_OK;
	fs = fi->stats;
	q->fi = NULL;
	r->free[r->nfree++] = (uint16_t)cqe->user_data;
	r->inflight--;
	if (__builtin_expect(cqe->res != (int)q->len, 0)) {
		/* drained while the run aborts: cancelled, the run's error is told */
		if (!(how & REAP_COUNT) && (shared_halted(t->ctl) & HALT_ABORT))
			return FO_OK;
		return aio_failed(t, fi, q, cqe->res);
	}
	if (!(how & REAP_COUNT)) {
		STATS_SET(fs->discarded, fs->discarded + 1);
		return FO_OK;
	}
	return thread_record(t, fs, &fs->op, q->t0, now, q->len) ? FO_OK : FO_DONE;
}

/*
 * An aborted run (an error, an interrupt) must not wait at its end for
 * writes that may never complete (a stuck device): cancel them all.  Best
 * effort (IORING_ASYNC_CANCEL_ANY needs Linux 5.19; older kernels refuse
 * it and the drain waits AIO_ABORT_SLICES, then gives up).
 */
static void aio_cancel_all(struct aio_ring *r)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	if (!sqe)
		return;
	io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
	sqe->user_data = AIO_CANCEL_TAG;
	io_uring_submit(&r->ring);
}

/*
 * Wait until `want` writes completed (or none is in flight), recording
 * every completion seen.  Returns FO_OK; FO_DONE if one was reaped after
 * the deadline or (REAP_HALT) the run halted; FO_ERROR if a write failed.
 * Without REAP_HALT (the drain at thread end) it waits for all `want`
 * even after an error, so no write is left reading a buffer about to be
 * freed; only an aborted run cancels them and stops waiting soon.
 */
static enum fo_result aio_reap(struct fb_thread *t, const struct flowop_inst *fi,
			       struct aio_ring *r, unsigned want, unsigned how)
{
	enum fo_result res = FO_OK;
	int abort_slices = -1;   /* counting down once the abort cancelled */

	while (want > 0 && r->inflight > 0) {
		struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = AIO_SLICE_NS };
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now;
		int rc;

		if ((how & REAP_HALT) && thread_halted(t))
			return FO_DONE;
		if (!(how & REAP_HALT) && abort_slices < 0 &&
		    (shared_halted(t->ctl) & HALT_ABORT)) {
			aio_cancel_all(r);
			abort_slices = AIO_ABORT_SLICES;
		}
		if (abort_slices >= 0 && abort_slices-- == 0)
			return FO_ERROR;
		rc = io_uring_wait_cqes(&r->ring, &cqe,
					want < r->inflight ? want : r->inflight,
					&ts, NULL);
		if (rc < 0 && rc != -ETIME && rc != -EINTR) {
			thread_fail(t, "flowop %s: waiting for asynchronous writes: %s",
				    fi->pf->name, strerror(-rc));
			return FO_ERROR;
		}
		now = thread_ticks(t);
		io_uring_for_each_cqe(&r->ring, head, cqe) {
			enum fo_result c;

			seen++;
			/* the cancellation, or a timeout of liburing's own
			 * (kernels without IORING_FEAT_EXT_ARG) */
			if (cqe->user_data >= AIO_DEPTH)
				continue;
			c = aio_complete(t, r, cqe, now, how);
			if (want)
				want--;
			if (c != FO_OK && res != FO_ERROR)
				res = c;
		}
		io_uring_cq_advance(&r->ring, seen);
		if (res != FO_OK && (how & REAP_HALT))
			return res;
	}
	return res;
}

/* Wait for every write in flight; they are done but not counted. */
static void aio_drain(struct fb_thread *t, const struct flowop_inst *fi)
{
	struct aio_ring *r = t->aio;

	if (r)
		aio_reap(t, fi, r, r->inflight, 0);
}

/* io.c's hook: a random iosize outgrew the buffer the writes in flight read. */
static enum fo_result aio_before_regrow(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_ring *r = t->aio;

	return aio_reap(t, fi, r, r->inflight, REAP_COUNT | REAP_HALT);
}

static int aiowrite_init(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = calloc(1, sizeof(*p));

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FO_ERROR;
	}
	fi->priv = p;
	p->io.before_regrow = aio_before_regrow;
	if (aio_ring_get(t, fi) != 0) {
		free(p);
		fi->priv = NULL;
		return FO_ERROR;
	}
	if (io_priv_setup(t, fi, &p->io) != 0) {
		io_priv_teardown(&p->io);
		free(p);
		fi->priv = NULL;
		aio_ring_put(t);
		return FO_ERROR;
	}
	return 0;
}

static void aiowrite_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;

	aio_drain(t, fi);
	aio_ring_put(t);
	if (p)
		io_priv_teardown(&p->io);
	free(p);
	fi->priv = NULL;
}

static enum fo_result aiowrite_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;
	struct aio_ring *r = t->aio;
	struct fb_slot *s = fo_slot(t, &p->io.sel);
	struct io_uring_sqe *sqe;
	struct aio_req *q;
	enum fo_result res;
	uint64_t off;
	unsigned i;
	int rc;

	if (__builtin_expect(r->inflight == AIO_DEPTH, 0)) {
		res = aio_reap(t, fi, r, 1, REAP_COUNT | REAP_HALT);
		if (res != FO_OK)
			return res;
	}
	res = io_place(t, fi, &p->io, s, &off);
	if (res != FO_OK)
		return res;
	if (__builtin_expect(p->io.iosize > AIO_MAX_LEN, 0)) {
		thread_fail(t, "flowop %s: iosize %llu is larger than the largest "
			    "single write (%u bytes)", fi->pf->name,
			    (unsigned long long)p->io.iosize, AIO_MAX_LEN);
		return FO_ERROR;
	}
	sqe = io_uring_get_sqe(&r->ring);
	if (__builtin_expect(!sqe, 0)) {
		thread_fail(t, "flowop %s: the io_uring submission queue is full",
			    fi->pf->name);
		return FO_ERROR;
	}
	i = r->free[--r->nfree];
	q = &r->req[i];
	q->fi = fi;
	q->off = off;
	q->len = (uint32_t)p->io.iosize;
	q->gen = s->gen;
	q->slot = (int)(s - t->slots);
	q->fileset = s->fileset;
	q->entry = s->entry;
	io_uring_prep_write(sqe, s->fd, p->io.buf, q->len, off);
	sqe->user_data = i;
	q->t0 = thread_ticks(t);
	rc = io_uring_submit(&r->ring);
	if (__builtin_expect(rc != 1, 0)) {
		q->fi = NULL;
		r->nfree++;
		return fo_fail(t, fi, "io_uring_submit of a write to", s, NULL,
			       (int64_t)off, rc < 0 ? -rc : EAGAIN);
	}
	r->inflight++;
	if (!p->io.random)
		s->offset = off + q->len;
	return FO_OK;
}

static int aiowait_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return aio_ring_get(t, fi);
}

static void aiowait_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	aio_drain(t, fi);
	aio_ring_put(t);
}

static enum fo_result aiowait_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_ring *r = t->aio;
	uint64_t t0 = thread_ticks(t), t1 = t0;

	if (r->inflight) {
		unsigned want = r->inflight / 2 ? r->inflight / 2 : 1;
		enum fo_result res = aio_reap(t, fi, r, want, REAP_COUNT | REAP_HALT);

		if (res != FO_OK)
			return res;
		t1 = thread_ticks(t);
	}
	return fo_record(t, fi, t0, t1, 0);
}

#define AIOWRITE_ATTRS (FA_BIT(FA_FILENAME) | FA_BIT(FA_IOSIZE) | FA_BIT(FA_RANDOM) | \
			FA_BIT(FA_WORKINGSET) | FA_BIT(FA_DIRECTIO) | FA_BIT(FA_DSYNC) | \
			FA_BIT(FA_FD) | FA_BIT(FA_ITERS) | FA_BIT(FA_OPENNEXT))

static const struct flowop_ops fo_aiowrite = {
	.name = "aiowrite",
	.cls = FO_CLASS_AIO,
	.rw = FO_RW_WRITE,
	.attrs = AIOWRITE_ATTRS,
	.validate = io_validate,
	.init = aiowrite_init,
	.run = aiowrite_run,
	.fini = aiowrite_fini,
};

static const struct flowop_ops fo_aiowait = {
	.name = "aiowait",
	.cls = FO_CLASS_AIO,
	.rw = FO_RW_NONE,
	.attrs = FA_BIT(FA_ITERS),
	.init = aiowait_init,
	.run = aiowait_run,
	.fini = aiowait_fini,
};

const struct flowop_ops *const flowops_aio[] = { &fo_aiowrite, &fo_aiowait, NULL };
