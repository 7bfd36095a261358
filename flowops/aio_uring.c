/*
 * aio_uring.c - the io_uring engine of aioread and aiowrite (aio.h),
 * flowbench's default: one ring per thread of the context's depth (its
 * CQ ring twice that, so it never overflows), requests prepared as SQEs
 * whose user_data is the request's tag, submitted with one
 * io_uring_enter, completions waited for with io_uring_wait_cqes() and a
 * timeout (IORING_FEAT_EXT_ARG; on older kernels liburing adds a timeout
 * request of its own, whose completion is skipped here).
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/aio.h"

/* user_data of the cancellation an aborted run submits (not a request's tag) */
#define AIO_URING_CANCEL_TAG ((uint64_t)AIO_DEPTH_MAX)

/*
 * The io_uring's own memory in the kernel (locked), per request: an SQE
 * of 64 bytes, two CQEs of 16, the index array's 4, rounded up to the
 * pages of the rings and their headers (32 KiB for 256).
 */
#define AIO_URING_KERNEL_REQ_BYTES 128u

struct aio_uring {
	struct io_uring ring;
	unsigned depth;           /* tags are below it */
};

/* io_uring_queue_init() failed with `err`: what to check. */
static const char *aio_uring_hint(int err)
{
	if (err == ENOSYS)
		return "this kernel has no io_uring (Linux 5.1 or later built with "
		       "CONFIG_IO_URING is needed), or a seccomp filter (a "
		       "container's) denies io_uring_setup";
	if (err == EPERM)
		return "io_uring is disabled: the sysctl kernel.io_uring_disabled "
		       "must be 0 (or 1 with this user in kernel.io_uring_group), "
		       "and no seccomp filter (a container's) may deny "
		       "io_uring_setup";
	if (err == ENOMEM)
		return "not enough locked memory for the ring (raise ulimit -l)";
	return "check the sysctl kernel.io_uring_disabled (0 enables it)";
}

static int aio_uring_open(void **ctx, unsigned depth, char *why, size_t whylen)
{
	struct aio_uring *u = calloc(1, sizeof(*u));
	int rc;

	if (!u) {
		snprintf(why, whylen, "out of memory");
		return ENOMEM;
	}
	rc = io_uring_queue_init(depth, &u->ring, 0);
	if (rc < 0) {
		free(u);
		snprintf(why, whylen, "%s", aio_uring_hint(-rc));
		return -rc;
	}
	u->depth = depth;
	*ctx = u;
	return 0;
}

static void aio_uring_close(void *ctx)
{
	struct aio_uring *u = ctx;

	io_uring_queue_exit(&u->ring);
	free(u);
}

static int aio_uring_prep(void *ctx, unsigned tag, int fd, void *buf, uint32_t len,
			  uint64_t off, bool write)
{
	struct aio_uring *u = ctx;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe)
		return -1;
	if (write)
		io_uring_prep_write(sqe, fd, buf, len, off);
	else
		io_uring_prep_read(sqe, fd, buf, len, off);
	sqe->user_data = tag;
	return 0;
}

/* Every SQE prepared is submitted: `n` is all of them. */
static int aio_uring_submit(void *ctx, unsigned n)
{
	struct aio_uring *u = ctx;

	(void)n;
	return io_uring_submit(&u->ring);
}

static int aio_uring_getevents(void *ctx, unsigned min, unsigned max,
			       uint64_t timeout_ns, struct aio_event *ev)
{
	struct aio_uring *u = ctx;
	struct __kernel_timespec ts = {
		.tv_sec = (long long)(timeout_ns / 1000000000u),
		.tv_nsec = (long long)(timeout_ns % 1000000000u),
	};
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	int n = 0;

	if (min) {
		int rc = io_uring_wait_cqes(&u->ring, &cqe, min, &ts, NULL);

		if (rc < 0 && rc != -ETIME && rc != -EINTR)
			return rc;
	}
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if ((unsigned)n == max)
			break;
		seen++;
		/* the cancellation, or a timeout of liburing's own */
		if (cqe->user_data >= u->depth)
			continue;
		ev[n].tag = (uint32_t)cqe->user_data;
		ev[n].res = cqe->res;
		n++;
	}
	io_uring_cq_advance(&u->ring, seen);
	return n;
}

/*
 * Best effort: IORING_ASYNC_CANCEL_ANY needs Linux 5.19; older kernels
 * refuse it and the drain waits its limit, then gives up.
 */
static void aio_uring_cancel(void *ctx)
{
	struct aio_uring *u = ctx;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe)
		return;
	io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
	sqe->user_data = AIO_URING_CANCEL_TAG;
	io_uring_submit(&u->ring);
}

const struct aio_engine aio_engine_uring = {
	.name = "io_uring",
	.what = "io_uring",
	.open_call = "io_uring_queue_init",
	.submit_call = { "io_uring_submit", "io_uring_submit" },
	.ctx_mem = sizeof(struct aio_uring),
	.kernel_req_mem = AIO_URING_KERNEL_REQ_BYTES,
	.fds = 1,
	.open = aio_uring_open,
	.close = aio_uring_close,
	.prep = aio_uring_prep,
	.submit = aio_uring_submit,
	.getevents = aio_uring_getevents,
	.cancel = aio_uring_cancel,
};
