/*
 * aio_posix.c - the posixaio engine of aioread and aiowrite (aio.h):
 * glibc's POSIX AIO, the calls fio's posixaio engine makes: aio_read()
 * or aio_write() submits one request (glibc hands it to a helper thread
 * of the process, which does a pread or pwrite), aio_error() tells
 * whether it is done and aio_return() its result, aio_suspend() waits
 * for one of those in flight, aio_cancel() cancels.  No file descriptor
 * of its own and no kernel context: the helper threads are glibc's
 * (at most 20 by default, each with a small stack).
 */
#include <aio.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flowops/aio.h"
#include "runtime/base/clock.h"

/* glibc's helper threads (20 by default) and their stacks, erring high. */
#define AIO_POSIX_THREAD_BYTES (20u * 256 * 1024)

/* A context and its arrays of `depth` each (one allocation). */
struct aio_posix {
	unsigned depth;
	struct aiocb *cb;                    /* by tag */
	const struct aiocb **list;           /* aio_suspend()'s argument */
	uint16_t *queued;                    /* prepared, not submitted: oldest first */
	unsigned nqueued;
	uint16_t *flight;                    /* submitted, not reaped */
	unsigned nflight;
};
#define AIO_POSIX_REQ_BYTES \
	(sizeof(struct aiocb) + sizeof(struct aiocb *) + 2 * sizeof(uint16_t))

static int aio_posix_open(void **ctx, unsigned depth, char *why, size_t whylen)
{
	struct aio_posix *a = calloc(1, sizeof(*a) + depth * AIO_POSIX_REQ_BYTES);

	if (!a) {
		snprintf(why, whylen, "out of memory");
		return ENOMEM;
	}
	a->depth = depth;
	a->cb = (struct aiocb *)(a + 1);
	a->list = (const struct aiocb **)(a->cb + depth);
	a->queued = (uint16_t *)(a->list + depth);
	a->flight = a->queued + depth;
	*ctx = a;
	return 0;
}

/*
 * A request still in flight (only after an aborted drain gave up) is
 * glibc's helper thread's until it ends: its aiocb is left allocated.
 */
static void aio_posix_close(void *ctx)
{
	struct aio_posix *a = ctx;

	if (a->nflight == 0)
		free(a);
}

static int aio_posix_prep(void *ctx, unsigned tag, int fd, void *buf, uint32_t len,
			  uint64_t off, bool write)
{
	struct aio_posix *a = ctx;
	struct aiocb *cb = &a->cb[tag];

	if (a->nqueued == a->depth)
		return -1;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = fd;
	cb->aio_buf = buf;
	cb->aio_nbytes = len;
	cb->aio_offset = (off_t)off;
	cb->aio_lio_opcode = write ? LIO_WRITE : LIO_READ;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	a->queued[a->nqueued++] = (uint16_t)tag;
	return 0;
}

static int aio_posix_submit(void *ctx, unsigned n)
{
	struct aio_posix *a = ctx;
	unsigned done = 0;

	if (n > a->nqueued)
		n = a->nqueued;
	while (done < n) {
		unsigned tag = a->queued[done];
		struct aiocb *cb = &a->cb[tag];
		int rc = cb->aio_lio_opcode == LIO_WRITE ? aio_write(cb) : aio_read(cb);

		if (rc != 0) {
			if (!done) {
				int e = errno;

				return -(e ? e : EAGAIN);
			}
			break;
		}
		a->flight[a->nflight++] = (uint16_t)tag;
		done++;
	}
	a->nqueued -= done;
	memmove(a->queued, a->queued + done, a->nqueued * sizeof(a->queued[0]));
	return (int)done;
}

/* Take up to `max` requests that are done into ev[], from n already there. */
static int aio_posix_collect(struct aio_posix *a, unsigned max, struct aio_event *ev,
			     int n)
{
	for (unsigned i = 0; i < a->nflight && (unsigned)n < max;) {
		unsigned tag = a->flight[i];
		struct aiocb *cb = &a->cb[tag];
		int e = aio_error(cb);

		if (e == EINPROGRESS) {
			i++;
			continue;
		}
		ev[n].tag = tag;
		ev[n].res = e ? -e : (int32_t)aio_return(cb);
		if (e)
			(void)aio_return(cb);   /* glibc's request is released */
		n++;
		a->flight[i] = a->flight[--a->nflight];
	}
	return n;
}

static int aio_posix_getevents(void *ctx, unsigned min, unsigned max,
			       uint64_t timeout_ns, struct aio_event *ev)
{
	struct aio_posix *a = ctx;
	uint64_t end = clock_now_ns() + timeout_ns;
	int n = aio_posix_collect(a, max, ev, 0);

	while ((unsigned)n < min && a->nflight) {
		uint64_t now = clock_now_ns();
		struct timespec ts;

		if (now >= end)
			break;
		ts.tv_sec = (time_t)((end - now) / 1000000000u);
		ts.tv_nsec = (long)((end - now) % 1000000000u);
		for (unsigned i = 0; i < a->nflight; i++)
			a->list[i] = &a->cb[a->flight[i]];
		if (aio_suspend(a->list, (int)a->nflight, &ts) != 0 &&
		    errno != EAGAIN && errno != EINTR)
			return -errno;
		n = aio_posix_collect(a, max, ev, n);
	}
	return n;
}

static void aio_posix_cancel(void *ctx)
{
	struct aio_posix *a = ctx;

	for (unsigned i = 0; i < a->nflight; i++)
		aio_cancel(a->cb[a->flight[i]].aio_fildes, &a->cb[a->flight[i]]);
}

const struct aio_engine aio_engine_posix = {
	.name = "posixaio",
	.what = "POSIX AIO (glibc)",
	.open_call = "calloc",
	.submit_call = { "aio_read", "aio_write" },
	.submit_each = true,
	.ctx_mem = sizeof(struct aio_posix),
	.req_mem = AIO_POSIX_REQ_BYTES,
	.kernel_mem = AIO_POSIX_THREAD_BYTES,
	.fds = 0,
	.open = aio_posix_open,
	.close = aio_posix_close,
	.prep = aio_posix_prep,
	.submit = aio_posix_submit,
	.getevents = aio_posix_getevents,
	.cancel = aio_posix_cancel,
};
