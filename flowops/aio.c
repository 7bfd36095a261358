/*
 * aio.c - asynchronous I/O on io_uring: the aiowrite and aiowait flowops
 * (WML reference 4.3, 4.4) and flowbench's own aioread, with the
 * `iodepth` attribute that keeps a queue of requests in flight.
 *
 * filebench's aiowrite records its op when it submits a POSIX aio_write,
 * and its aiowait only unlinks requests that happen to be done (and leaks
 * them).  Here the I/O is really asynchronous and aiowait really waits:
 *
 *  - Each thread instance has one io_uring of AIO_DEPTH entries, created
 *    by the init of its first aio flowop (before the start barrier) and
 *    freed after the fini of its last one (a reference count).  It lives
 *    in the thread's slot for this family (thread_family_slot()); each
 *    flowop instance keeps a pointer to it, so no op looks it up.
 *  - aiowrite sets up its file like write (the implicit open is its own
 *    op in stats->open; `fd`, `opennext`, `directio`, `dsync`), picks the
 *    offset like write (a random whole block of the working set with
 *    `random`, else the slot's sequential offset, which advances at
 *    submission), submits one write of `iosize` from its pattern buffer
 *    and returns without waiting.  Its op is recorded when the write is
 *    reaped: latency from submission to the reap, bytes written.  A
 *    failed or short write fails the run (--keep-going: is counted
 *    against its aiowrite, whichever flowop reaped it).  (filebench refuses sequential
 *    aiowrite; here it appends like write.)  A random `iosize` sample
 *    larger than the buffer replaces it only after the writes in flight
 *    completed.
 *  - aioread is the same for reads (`noreadahead` too): the bytes read
 *    are recorded; a short read is not an error (the end of the file);
 *    sequential reads wrap to offset 0 at submission once the offset
 *    reaches the file's size (its size at population or when the slot
 *    opened it, the larger), so no read is issued past the end.
 *  - Back-pressure: with AIO_DEPTH requests in flight, aiowrite and
 *    aioread first wait for one completion, so a thread without aiowait
 *    still runs.
 *  - aiowait waits until at least max(1, in flight / 2) requests
 *    completed (filebench's target), reaping every completion it sees,
 *    and records one op of 0 bytes whose latency is the wait; with
 *    nothing in flight that op takes 0 ns.
 *  - `iodepth=N` (aioread, aiowrite) makes the flowop reap its own
 *    completions: one execution prepares requests until N of its own are
 *    in flight, submits them with one io_uring_enter, then waits until
 *    at least one request of the thread completed and reaps all it sees.
 *    A loop of it so runs at a steady queue depth of N, like fio's
 *    libaio and io_uring engines.  Each request is still its own op,
 *    recorded at its reap (latency from its own submission); the
 *    execution itself records nothing.  Each read in flight has its own
 *    IO_ALIGN-aligned buffer (N of them per flowop, allocated at init),
 *    so directio works; writes in flight share the pattern buffer, which
 *    they only read.
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
 *    An aborted run (an error, Ctrl-C) cancels them instead of waiting.
 *  - io_uring must be available: if the ring cannot be created, init
 *    fails the run saying why (kernel.io_uring_disabled, seccomp, ...).
 *  - Under --compat filebench, aiowrite without iodepth is its
 *    `filebench` variant: its op is the submission, as filebench's
 *    aio_write(): recorded when the write is submitted (latency: the
 *    submit call, bytes: iosize), so a write still in flight at the end
 *    of the run is counted, and one submitted after the deadline is not.
 *    Its requests carry AIO_TAG_COUNTED in their user_data: when aiowait,
 *    back-pressure or the drain reaps them, nothing is recorded (a failed
 *    write still fails the run).  The default path tells them apart with
 *    the comparison it already makes (user_data < AIO_DEPTH).  aioread
 *    and iodepth are flowbench's own and keep their rules.
 *
 * Hot path: no allocation, no lock; one io_uring_submit() per execution
 * (however many requests it submits), plus one io_uring_enter to wait
 * when no completion is there yet.  A request remembers its flowop and
 * submission tick in a fixed table indexed by the completion's user_data;
 * requests prepared but not yet submitted are listed in `pend` and are
 * always submitted before any wait.
 */
#include <errno.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flowops/common.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "flowops/io.h"
#include "plan/diag.h"
#include "runtime/fileset/fileset.h"
#include "runtime/base/log.h"
#include "runtime/measure/stats.h"
#include "runtime/engine/thread.h"
#include "runtime/engine/threadfile.h"

/*
 * Requests in flight per thread.  filebench has no limit; 256 covers the
 * shipped workloads (oltp.f's database writers submit 10 between waits)
 * and keeps the ring small (256 SQEs, 512 CQEs: about 24 KiB).  The CQ
 * ring is twice that, so it can never overflow.  It is also the largest
 * `iodepth`.
 */
#define AIO_DEPTH 256
/* Waits are cut in slices this long to notice a halting run. */
#define AIO_SLICE_NS 50000000
/* Linux's largest single read or write (MAX_RW_COUNT on 4 KiB pages). */
#define AIO_MAX_LEN 0x7ffff000u
/* user_data of the cancellation an aborted run's drain submits */
#define AIO_CANCEL_TAG ((uint64_t)AIO_DEPTH)
/* After that cancellation, the drain waits at most this many slices. */
#define AIO_ABORT_SLICES 20
/*
 * Added to the user_data of a request whose op was recorded at its
 * submission (aiowrite under --compat filebench): its completion records
 * nothing.  Above AIO_CANCEL_TAG, below liburing's own LIBURING_UDATA_TIMEOUT.
 */
#define AIO_TAG_COUNTED ((uint64_t)1 << 32)

/* One request in flight. */
struct aio_req {
	struct flowop_inst *fi;   /* the aiowrite/aioread that submitted it */
	uint64_t t0;              /* submission tick */
	uint64_t off;
	uint32_t len;
	uint32_t gen;             /* the slot's open generation at submission */
	int slot;                 /* index in t->slots */
	int fileset;              /* the file, for error messages */
	uint64_t entry;
	int buf;                  /* its read buffer (aio_priv.bufs), -1: none */
};

/* This family's key to its per-thread slot: the address is what counts. */
static const char aio_family_key;

/*
 * The io_uring's own memory in the kernel (locked): 256 SQEs of 64
 * bytes, 512 CQEs of 16, the index array and the ring headers, in pages.
 */
#define AIO_KERNEL_RING_BYTES (32u * 1024)

/* A thread's ring (its family slot) and its request table. */
struct aio_ring {
	struct io_uring ring;
	unsigned refs;            /* aio flowops initialised in this thread */
	unsigned inflight;        /* requests taken: submitted or prepared */
	unsigned npend;           /* of those, prepared but not submitted yet */
	unsigned nfree;
	uint16_t free[AIO_DEPTH]; /* stack of free request indices */
	uint16_t pend[AIO_DEPTH]; /* the prepared requests */
	struct aio_req req[AIO_DEPTH];
};

struct aio_priv {
	struct io_priv io;        /* shared with read/write: buffer, slot, offsets */
	struct aio_ring *ring;    /* the thread's */
	bool read;
	unsigned depth;           /* iodepth; 0: one request per execution */
	unsigned inflight;        /* this flowop's requests taken */
	unsigned max_inflight;    /* the most it had submitted at once */
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
	AIO_COUNT
};

/* How aio_reap() records and waits. */
enum {
	REAP_COUNT = 1,   /* record completions (else: tally them as discarded) */
	REAP_HALT = 2,    /* give up with FLOWOP_DONE when the run halts */
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

static enum flowop_result aio_reap(struct fb_thread *t, const struct flowop_inst *fi,
				   struct aio_ring *r, unsigned want, unsigned how);

/* fb_thread.quiesce: every request of the thread in flight, reaped and recorded. */
static enum flowop_result aio_quiesce(struct fb_thread *t,
				      const struct flowop_inst *fi, void *state)
{
	struct aio_ring *r = state;

	return r->inflight ? aio_reap(t, fi, r, r->inflight, REAP_COUNT | REAP_HALT) :
			     FLOWOP_OK;
}

/*
 * A reference on the thread's ring, created (into the family slot) by
 * the first aio flowop of the thread.  NULL with the run's error set.
 */
static struct aio_ring *aio_ring_get(struct fb_thread *t, struct flowop_inst *fi)
{
	void **slot = thread_family_slot(t, &aio_family_key);
	struct aio_ring *r;
	int rc;

	if (slot && *slot) {
		r = *slot;
		r->refs++;
		return r;
	}
	r = slot ? calloc(1, sizeof(*r)) : NULL;
	if (!r) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return NULL;
	}
	rc = io_uring_queue_init(AIO_DEPTH, &r->ring, 0);
	if (rc < 0) {
		free(r);
		aio_unavailable(t, fi, -rc);
		return NULL;
	}
	for (unsigned i = 0; i < AIO_DEPTH; i++)
		r->free[i] = (uint16_t)(AIO_DEPTH - 1 - i);
	r->nfree = AIO_DEPTH;
	r->refs = 1;
	*slot = r;
	/* filebench's aio (--compat) is never reaped before a sleep */
	if (t->plan->semantics == PLAN_SEM_FLOWBENCH) {
		t->quiesce = aio_quiesce;
		t->quiesce_state = r;
	}
	return r;
}

/* Drop a reference; the last one frees the ring and empties the slot. */
static void aio_ring_put(struct fb_thread *t, struct aio_ring *r)
{
	void **slot;

	if (!r || --r->refs > 0)
		return;
	if (t->quiesce_state == r) {
		t->quiesce = NULL;
		t->quiesce_state = NULL;
	}
	io_uring_queue_exit(&r->ring);
	free(r);
	slot = thread_family_slot(t, &aio_family_key);
	if (slot)
		*slot = NULL;
}

/*
 * Request `q` of flowop `fi` is no longer in flight: give its read
 * buffer back and count it out of the flowop (whose priv is gone if an
 * aborted drain gave up and the flowop's fini ran since).
 */
static void aio_req_done(struct aio_ring *r, struct aio_req *q,
			 struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;

	q->fi = NULL;
	r->inflight--;
	if (!p)
		return;
	p->inflight--;
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
		return common_fail(t, fi, ap && ap->read ? "asynchronous read of" :
				   "asynchronous write of", &where, NULL,
				   (int64_t)q->off, -res);
	if (p && s->fd >= 0 && s->gen == q->gen && p->bufsize >= q->len) {
		ssize_t n = pwrite(s->fd, p->buf + res, q->len - (uint32_t)res,
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
 * One completion, reaped at tick `now`: free its request and record the
 * read or write against its flowop (REAP_COUNT; else tally it as
 * discarded).  FLOWOP_OK, FLOWOP_DONE (reaped after the deadline: not counted),
 * FLOWOP_FAILED or FLOWOP_ERROR.
 */
static enum flowop_result aio_complete(struct fb_thread *t, struct aio_ring *r,
				       const struct io_uring_cqe *cqe, uint64_t now,
				       unsigned how)
{
	struct aio_req *q = &r->req[cqe->user_data];
	struct flowop_inst *fi = q->fi;
	const struct aio_priv *p;
	struct fo_stats *fs;
	bool ok;

	if (__builtin_expect(!fi, 0))   /* its submission failed: not in flight */
		return FLOWOP_OK;
	p = fi->priv;
	fs = fi->stats;
	aio_req_done(r, q, fi);
	r->free[r->nfree++] = (uint16_t)cqe->user_data;
	ok = p && p->read ? cqe->res >= 0 : cqe->res == (int)q->len;
	if (__builtin_expect(!ok, 0)) {
		/* drained while the run aborts: cancelled, the run's error is told */
		if (!(how & REAP_COUNT) && (shared_halted(t->ctl) & HALT_ABORT))
			return FLOWOP_OK;
		return aio_failed(t, fi, q, cqe->res);
	}
	if (!(how & REAP_COUNT)) {
		STATS_SET(fs->discarded, fs->discarded + 1);
		return FLOWOP_OK;
	}
	/* (with submission and completion apart: thread_record_split()) */
	return thread_record_at(t, fs, &fs->op, q->t0, now, (uint64_t)cqe->res, q->off) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

/* A request's completion whose user_data is AIO_TAG_COUNTED + its index? */
static bool aio_is_counted(const struct io_uring_cqe *cqe)
{
	return cqe->user_data >= AIO_TAG_COUNTED &&
	       cqe->user_data < AIO_TAG_COUNTED + AIO_DEPTH;
}

/*
 * The completion of a write recorded when it was submitted (--compat
 * filebench): free its request; nothing is recorded, not even as
 * discarded.  A failed or short write is still an op failure of its
 * flowop (aio_failed()).  FLOWOP_OK, FLOWOP_FAILED or FLOWOP_ERROR.
 */
static __attribute__((cold, noinline)) enum flowop_result
aio_complete_counted(struct fb_thread *t, struct aio_ring *r,
		     const struct io_uring_cqe *cqe, unsigned how)
{
	unsigned i = (unsigned)(cqe->user_data - AIO_TAG_COUNTED);
	struct aio_req *q = &r->req[i];
	struct flowop_inst *fi = q->fi;

	if (!fi)                /* its submission failed: not in flight */
		return FLOWOP_OK;
	aio_req_done(r, q, fi);
	r->free[r->nfree++] = (uint16_t)i;
	if (cqe->res == (int)q->len)
		return FLOWOP_OK;
	/* drained while the run aborts: cancelled, the run's error is told */
	if (!(how & REAP_COUNT) && (shared_halted(t->ctl) & HALT_ABORT))
		return FLOWOP_OK;
	return aio_failed(t, fi, q, cqe->res);
}

/*
 * Submit the requests prepared since the last submission, all with the
 * same submission tick.  FLOWOP_OK, or FLOWOP_ERROR if the kernel did not take
 * them all (the run fails; those it did not take are counted out of
 * flight, their table entries never reused, so that a late completion of
 * one cannot be mistaken for another request).
 */
static enum flowop_result aio_submit(struct fb_thread *t, struct aio_ring *r)
{
	unsigned n = r->npend;
	uint64_t now;
	int rc;

	if (!n)
		return FLOWOP_OK;
	now = thread_ticks(t);
	for (unsigned i = 0; i < n; i++)
		r->req[r->pend[i]].t0 = now;
	rc = io_uring_submit(&r->ring);
	r->npend = 0;
	if (__builtin_expect(rc == (int)n, 1))
		return FLOWOP_OK;
	{
		unsigned done = rc > 0 ? (unsigned)rc : 0;
		struct aio_req *q = &r->req[r->pend[done]];
		struct flowop_inst *fi = q->fi;
		const struct aio_priv *p = fi->priv;
		struct fb_slot where = { .fd = -1, .fileset = q->fileset, .entry = q->entry };

		for (unsigned i = done; i < n; i++)
			aio_req_done(r, &r->req[r->pend[i]], r->req[r->pend[i]].fi);
		common_fail_fatal(t, fi, p->read ? "io_uring_submit of a read of" :
				  "io_uring_submit of a write to", &where, NULL,
				  (int64_t)q->off, rc < 0 ? -rc : EAGAIN);
		return FLOWOP_ERROR;
	}
}

/*
 * An aborted run (an error, an interrupt) must not wait at its end for
 * requests that may never complete (a stuck device): cancel them all.
 * Best effort (IORING_ASYNC_CANCEL_ANY needs Linux 5.19; older kernels
 * refuse it and the drain waits AIO_ABORT_SLICES, then gives up).
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
 * Wait until `want` requests completed (or none is in flight), recording
 * every completion seen; requests still only prepared are submitted
 * first.  Returns FLOWOP_OK; FLOWOP_DONE if one was reaped after the deadline
 * or (REAP_HALT) the run halted; FLOWOP_ERROR if a request failed.  Without
 * REAP_HALT (the drain at thread end) it waits for all `want` even after an
 * error, so no request is left using a buffer about to be freed; only an
 * aborted run cancels them and stops waiting soon.
 */
static enum flowop_result aio_reap(struct fb_thread *t, const struct flowop_inst *fi,
				   struct aio_ring *r, unsigned want, unsigned how)
{
	enum flowop_result res = aio_submit(t, r);
	int abort_slices = -1;   /* counting down once the abort cancelled */

	if (res != FLOWOP_OK && (how & REAP_HALT))
		return res;
	while (want > 0 && r->inflight > 0) {
		struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = AIO_SLICE_NS };
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now;
		int rc;

		if ((how & REAP_HALT) && thread_halted(t))
			return FLOWOP_DONE;
		if (!(how & REAP_HALT) && abort_slices < 0 &&
		    (shared_halted(t->ctl) & HALT_ABORT)) {
			aio_cancel_all(r);
			abort_slices = AIO_ABORT_SLICES;
		}
		if (abort_slices >= 0 && abort_slices-- == 0)
			return FLOWOP_ERROR;
		rc = io_uring_wait_cqes(&r->ring, &cqe,
					want < r->inflight ? want : r->inflight,
					&ts, NULL);
		if (rc < 0 && rc != -ETIME && rc != -EINTR) {
			thread_fail(t, "flowop %s: waiting for asynchronous I/O: %s",
				    fi->pf->name, strerror(-rc));
			return FLOWOP_ERROR;
		}
		now = thread_ticks(t);
		io_uring_for_each_cqe(&r->ring, head, cqe) {
			enum flowop_result c;

			seen++;
			if (__builtin_expect(cqe->user_data < AIO_DEPTH, 1))
				c = aio_complete(t, r, cqe, now, how);
			else if (aio_is_counted(cqe))
				c = aio_complete_counted(t, r, cqe, how);
			else    /* the cancellation, or a timeout of liburing's
				 * own (kernels without IORING_FEAT_EXT_ARG) */
				continue;
			if (want)
				want--;
			if (c == FLOWOP_FAILED)
				c = FLOWOP_OK;  /* counted against its flowop */
			if (c != FLOWOP_OK && res != FLOWOP_ERROR)
				res = c;
		}
		io_uring_cq_advance(&r->ring, seen);
		if (res != FLOWOP_OK && (how & REAP_HALT))
			return res;
	}
	return res;
}

/* Wait for every request in flight; they are done but not counted. */
static void aio_drain(struct fb_thread *t, const struct flowop_inst *fi,
		      struct aio_ring *r)
{
	if (r)
		aio_reap(t, fi, r, r->inflight, 0);
}

/* io.c's hook: a random iosize outgrew the buffer the requests in flight use. */
static enum flowop_result aio_before_regrow(struct fb_thread *t,
					    struct flowop_inst *fi)
{
	struct aio_ring *r = ((struct aio_priv *)fi->priv)->ring;

	return aio_reap(t, fi, r, r->inflight, REAP_COUNT | REAP_HALT);
}

/*
 * (Re)allocate an iodepth read flowop's buffers: `depth` of `size`
 * bytes each, rounded up to IO_ALIGN, touched now so that no page fault
 * lands in a timed request.  None may be in flight.  0 or FLOWOP_ERROR.
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
			    "of read buffers", fi->pf->name, p->depth,
			    (unsigned long long)bufsz);
		return FLOWOP_ERROR;
	}
	memset(b, 0, bufsz * p->depth);
	p->bufs = b;
	p->bufsz = bufsz;
	for (unsigned i = 0; i < p->depth; i++)
		p->bfree[i] = (uint16_t)(p->depth - 1 - i);
	p->nbfree = p->depth;
	return 0;
}

/*
 * An iodepth read's random iosize sample outgrew the buffers: wait for
 * every request in flight (this flowop's use them), then allocate larger
 * ones.  Almost never in a run: only for a sample larger than all before.
 */
static enum flowop_result aio_bufs_regrow(struct fb_thread *t, struct flowop_inst *fi,
					  struct aio_priv *p, struct aio_ring *r)
{
	enum flowop_result res = aio_reap(t, fi, r, r->inflight,
					  REAP_COUNT | REAP_HALT);

	if (res != FLOWOP_OK)
		return res;
	return aio_bufs_alloc(t, fi, p, p->io.iosize) ? FLOWOP_ERROR : FLOWOP_OK;
}

/*
 * A sequential read's offset: wrap to 0 once it reached the file's size
 * (the larger of its size at population and when the slot opened it,
 * looked up once per open), so that no read is issued past the end.
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
	return off >= p->eof ? 0 : off;
}

/*
 * Prepare one request of flowop `fi` (not submitted yet: aio_submit()):
 * the slot, the offset and the size like read/write, a buffer.  Either
 * the request is prepared and counted in flight, or nothing is (FLOWOP_OK
 * or why not).  `counted`: a write whose op is recorded at its
 * submission (aiowrite's filebench variant: never a read, no iodepth
 * buffers), tagged AIO_TAG_COUNTED.  Always inlined with a constant, so
 * the default's code (counted false) has no trace of it.
 */
static inline __attribute__((always_inline)) enum flowop_result
aio_prepare_as(struct fb_thread *t, struct flowop_inst *fi,
	       struct aio_ring *r, bool counted)
{
	struct aio_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->io.sel);
	struct io_uring_sqe *sqe;
	struct aio_req *q;
	enum flowop_result res;
	char *buf;
	int b = -1;
	uint64_t off;
	unsigned i;

	/* (may replace p->io.buf: a random iosize larger than all before) */
	res = io_place(t, fi, &p->io, s, &off);
	if (res == FLOWOP_OK && (counted || !p->read))
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
			res = aio_bufs_regrow(t, fi, p, r);
			if (res != FLOWOP_OK)
				return res;
		}
		b = p->bfree[--p->nbfree];
		buf = p->bufs + (uint64_t)b * p->bufsz;
	}
	sqe = io_uring_get_sqe(&r->ring);
	if (__builtin_expect(!sqe, 0)) {
		if (b >= 0)
			p->nbfree++;
		thread_fail(t, "flowop %s: the io_uring submission queue is full",
			    fi->pf->name);
		return FLOWOP_ERROR;
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
	q->buf = b;
	if (!counted && p->read)
		io_uring_prep_read(sqe, s->fd, buf, q->len, off);
	else
		io_uring_prep_write(sqe, s->fd, buf, q->len, off);
	sqe->user_data = counted ? AIO_TAG_COUNTED + i : i;
	r->pend[r->npend++] = (uint16_t)i;
	r->inflight++;
	p->inflight++;
	if (!p->io.random)
		s->offset = off + q->len;
	return FLOWOP_OK;
}

static enum flowop_result aio_prepare(struct fb_thread *t, struct flowop_inst *fi,
				      struct aio_ring *r)
{
	return aio_prepare_as(t, fi, r, false);
}

/* Without iodepth: submit one request and return; others reap it. */
static enum flowop_result aio_run_one(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;
	struct aio_ring *r = p->ring;
	enum flowop_result res;

	if (__builtin_expect(r->inflight == AIO_DEPTH, 0)) {
		res = aio_reap(t, fi, r, 1, REAP_COUNT | REAP_HALT);
		if (res != FLOWOP_OK)
			return res;
	}
	res = aio_prepare(t, fi, r);
	if (res != FLOWOP_OK)
		return res;
	res = aio_submit(t, r);
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	return res;
}

/*
 * iodepth=N: top this flowop up to N requests in flight (fewer if the
 * thread's ring is full), submit them at once, then reap at least one
 * completion of the thread.
 */
static enum flowop_result aio_run_depth(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;
	struct aio_ring *r = p->ring;
	enum flowop_result res = FLOWOP_OK, sub;

	while (p->inflight < p->depth && r->inflight < AIO_DEPTH) {
		res = aio_prepare(t, fi, r);
		if (res != FLOWOP_OK)
			break;
	}
	sub = aio_submit(t, r);
	if (sub != FLOWOP_OK)
		return sub;
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	if (res != FLOWOP_OK)
		return res;
	return aio_reap(t, fi, r, 1, REAP_COUNT | REAP_HALT);
}

/*
 * aiowrite under --compat filebench, without iodepth: the op is the
 * submission, as filebench's aio_write() (reference 4.3): recorded once
 * the write is submitted, its latency the submit call's, `iosize` bytes;
 * a submission that ends after the deadline is not counted and stops the
 * thread.  Back-pressure and aiowait still reap the write (its buffer
 * and ring entry are needed again) but record nothing for it.
 */
static enum flowop_result aiowrite_fb_one(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_priv *p = fi->priv;
	struct aio_ring *r = p->ring;
	enum flowop_result res;
	uint64_t t0, t1, len;

	if (__builtin_expect(r->inflight == AIO_DEPTH, 0)) {
		res = aio_reap(t, fi, r, 1, REAP_COUNT | REAP_HALT);
		if (res != FLOWOP_OK)
			return res;
	}
	res = aio_prepare_as(t, fi, r, true);
	if (res != FLOWOP_OK)
		return res;
	len = p->io.iosize;
	t0 = thread_ticks(t);
	res = aio_submit(t, r);
	t1 = thread_ticks(t);
	if (p->inflight > p->max_inflight)
		p->max_inflight = p->inflight;
	if (res != FLOWOP_OK)
		return res;
	return common_record(t, fi, t0, t1, len);
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
	p->io.before_regrow = aio_before_regrow;
	p->ring = aio_ring_get(t, fi);
	if (!p->ring) {
		free(p);
		fi->priv = NULL;
		return FLOWOP_ERROR;
	}
	if (io_priv_setup(t, fi, &p->io) != 0)
		goto fail;
	if (p->depth > AIO_DEPTH) {     /* validate() said so already */
		thread_fail(t, "flowop %s: iodepth %u is more than %u", fi->pf->name,
			    p->depth, AIO_DEPTH);
		goto fail;
	}
	if (read && p->depth) {
		p->bfree = calloc(p->depth, sizeof(*p->bfree));
		if (!p->bfree) {
			thread_fail(t, "flowop %s: out of memory", fi->pf->name);
			goto fail;
		}
		if (aio_bufs_alloc(t, fi, p, p->io.iosize) != 0)
			goto fail;
	}
	return 0;
fail:
	aio_ring_put(t, p->ring);
	io_priv_teardown(&p->io);
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
	struct aio_ring *r = p ? p->ring : NULL;

	aio_drain(t, fi, r);
	/* the queue depth reached, once per flowop statement (first instance) */
	if (p && p->depth && t->proc_inst == 0 && t->thread_inst == 0)
		log_info("flowop %s: at most %u request%s in flight at once "
			 "(iodepth=%u)", fi->pf->name, p->max_inflight,
			 p->max_inflight == 1 ? "" : "s", p->depth);
	aio_ring_put(t, r);
	if (p) {
		io_priv_teardown(&p->io);
		free(p->bufs);
		free(p->bfree);
	}
	free(p);
	fi->priv = NULL;
}

static enum flowop_result aio_io_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct aio_priv *p = fi->priv;

	return p->depth ? aio_run_depth(t, fi) : aio_run_one(t, fi);
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

/* io_validate()'s checks, and an iodepth of 1..AIO_DEPTH. */
static int aio_validate(const struct plan *p, const struct plan_flowop *f,
			struct diag *d)
{
	int errs = io_validate(p, f, d);
	int64_t depth = plan_attr_int(f, AIO_IODEPTH, 1);

	if (plan_attr_given(f, AIO_IODEPTH) && (depth < 1 || depth > AIO_DEPTH)) {
		diag_error(d, f->attr[AIO_IODEPTH].loc,
			   "flowop %s: iodepth must be 1 to %d, not %lld", f->name,
			   AIO_DEPTH, (long long)depth);
		errs++;
	}
	return errs;
}

/* aiowait's priv is the thread's ring. */
static int aiowait_init(struct fb_thread *t, struct flowop_inst *fi)
{
	fi->priv = aio_ring_get(t, fi);
	return fi->priv ? 0 : FLOWOP_ERROR;
}

static void aiowait_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	aio_drain(t, fi, fi->priv);
	aio_ring_put(t, fi->priv);
	fi->priv = NULL;
}

static enum flowop_result aiowait_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct aio_ring *r = fi->priv;
	uint64_t t0 = thread_ticks(t), t1 = t0;

	if (r->inflight) {
		unsigned want = r->inflight / 2 ? r->inflight / 2 : 1;
		enum flowop_result res = aio_reap(t, fi, r, want,
						  REAP_COUNT | REAP_HALT);

		if (res != FLOWOP_OK)
			return res;
		t1 = thread_ticks(t);
	}
	return common_record(t, fi, t0, t1, 0);
}

/* The ring, once per thread whatever the number of aio flowops there. */
static void aio_need_ring(struct flowop_need *n)
{
	n->shared = &aio_family_key;
	n->shared_mem = sizeof(struct aio_ring) + AIO_KERNEL_RING_BYTES;
	n->shared_fds = 1;
}

/*
 * read/write's buffer and slots, aio_priv's own part and the ring; with
 * iodepth, a read has `iodepth` buffers of its own (aio_bufs_alloc(): the
 * iosize, or a random one's first size, rounded up to IO_ALIGN), while
 * writes in flight share the pattern buffer.
 */
static void aio_io_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n, bool read)
{
	const struct plan_value *io = &f->attr[COMMON_IOSIZE];
	uint64_t depth = (uint64_t)plan_attr_int(f, AIO_IODEPTH, 0);
	uint64_t size = io->kind == PV_RANDOM ? IO_RANDOM_BUF :
			io->kind == PV_INT && io->u.i > 0 ? (uint64_t)io->u.i : 0;
	uint64_t bufsz = plan_sat_add(size, IO_ALIGN - 1) / IO_ALIGN * IO_ALIGN;

	io_need(p, f, n);
	n->mem = plan_sat_add(n->mem, sizeof(struct aio_priv) - sizeof(struct io_priv));
	if (read && depth)
		n->mem = plan_sat_add(n->mem, plan_sat_mul(depth, bufsz + sizeof(uint16_t)));
	aio_need_ring(n);
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

static void aiowait_need(const struct plan *p, const struct plan_flowop *f,
			 struct flowop_need *n)
{
	(void)p;
	(void)f;
	aio_need_ring(n);
}

#define AIO_ATTR_IODEPTH                                                \
	{ "iodepth", T_SIZE, AIO_IODEPTH,                               \
	  "requests of its own kept in flight, 1..256 (flowbench's own)" }

static const struct attr_spec aiowrite_attrs[] = {
	ATTR_FILENAME, COMMON_ATTR_IOSIZE, IO_ATTR_RANDOM, COMMON_ATTR_WORKINGSET,
	COMMON_ATTR_DIRECTIO, COMMON_ATTR_DSYNC, ATTR_FD, COMMON_ATTR_OPENNEXT,
	AIO_ATTR_IODEPTH, IO_ATTR_RANDOMMAP,
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec aioread_attrs[] = {
	ATTR_FILENAME, COMMON_ATTR_IOSIZE, IO_ATTR_RANDOM, COMMON_ATTR_WORKINGSET,
	COMMON_ATTR_DIRECTIO, COMMON_ATTR_DSYNC, ATTR_FD, COMMON_ATTR_OPENNEXT,
	AIO_ATTR_IODEPTH, COMMON_ATTR_NOREADAHEAD, IO_ATTR_RANDOMMAP,
	{ NULL, 0, 0, NULL }
};

/* aiowrite under --compat filebench: recorded at submission. */
static const struct flowop_ops fo_aiowrite_fb = {
	.name = "aiowrite",
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_WRITE,
	.attrs = aiowrite_attrs,
	.nattr = AIO_COUNT,
	.validate = aio_validate,
	.need = aiowrite_need,
	.init = aiowrite_init,
	.run = aiowrite_fb_run,
	.fini = aio_io_fini,
};

static const struct flowop_ops fo_aiowrite = {
	.name = "aiowrite",
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_WRITE,
	.attrs = aiowrite_attrs,
	.nattr = AIO_COUNT,
	.validate = aio_validate,
	.need = aiowrite_need,
	.init = aiowrite_init,
	.run = aio_io_run,
	.fini = aio_io_fini,
	.filebench = &fo_aiowrite_fb,
};

static const struct flowop_ops fo_aioread = {
	.name = "aioread",
	.cls = FLOWOP_CLASS_AIO,
	.rw = FLOWOP_RW_READ,
	.attrs = aioread_attrs,
	.nattr = AIO_COUNT,
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
