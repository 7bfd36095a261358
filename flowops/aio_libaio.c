/*
 * aio_libaio.c - the libaio engine of aioread and aiowrite (aio.h):
 * Linux's native AIO through Debian's libaio, the calls fio's libaio
 * engine makes: io_setup() for a context of the thread's depth of events,
 * io_prep_pread()/io_prep_pwrite() into an iocb per request, io_submit()
 * of the queued iocbs, io_getevents() with a timeout, io_destroy().  On a
 * file without O_DIRECT the kernel does the I/O inside io_submit() (the
 * behaviour people measure libaio for), on one with O_DIRECT it queues it.
 */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/aio.h"

/* The kernel's ring of io_events (32 bytes each) and its header, in pages. */
#define AIO_LIBAIO_KERNEL_BYTES 4096u
#define AIO_LIBAIO_KERNEL_REQ_BYTES 32u

/* A context and its arrays of `depth` each (one allocation). */
struct aio_libaio {
	io_context_t ctx;
	unsigned depth;
	struct iocb *cb;                    /* by tag */
	struct iocb **queued;               /* prepared, not submitted: oldest first */
	unsigned nqueued;
	struct io_event *ev;
};
#define AIO_LIBAIO_REQ_BYTES \
	(sizeof(struct iocb) + sizeof(struct iocb *) + sizeof(struct io_event))

/* A number from /proc/sys, or -1. */
static long long aio_libaio_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v = -1;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* io_setup() failed with `err`: what to check, into why[]. */
static void aio_libaio_hint(int err, unsigned depth, char *why, size_t len)
{
	long long max = aio_libaio_sysctl("/proc/sys/fs/aio-max-nr");
	long long nr = aio_libaio_sysctl("/proc/sys/fs/aio-nr");

	if (err == EAGAIN)
		snprintf(why, len, "Linux refuses a context whose %u events would "
			 "take the system's AIO events (the sysctl fs.aio-nr, now "
			 "%lld) past the sysctl fs.aio-max-nr (now %lld): raise "
			 "fs.aio-max-nr, or run fewer threads", depth, nr, max);
	else if (err == ENOSYS)
		snprintf(why, len, "this kernel has no native AIO (CONFIG_AIO), or a "
			 "seccomp filter (a container's) denies io_setup");
	else if (err == ENOMEM)
		snprintf(why, len, "not enough kernel memory for the AIO ring");
	else
		snprintf(why, len, "check the sysctls fs.aio-max-nr (%lld) and "
			 "fs.aio-nr (%lld)", max, nr);
}

static int aio_libaio_open(void **ctx, unsigned depth, char *why, size_t whylen)
{
	struct aio_libaio *a = calloc(1, sizeof(*a) + depth * AIO_LIBAIO_REQ_BYTES);
	int rc;

	if (!a) {
		snprintf(why, whylen, "out of memory");
		return ENOMEM;
	}
	a->depth = depth;
	a->cb = (struct iocb *)(a + 1);
	a->ev = (struct io_event *)(a->cb + depth);
	a->queued = (struct iocb **)(a->ev + depth);
	rc = io_setup((int)depth, &a->ctx);
	if (rc < 0) {
		free(a);
		aio_libaio_hint(-rc, depth, why, whylen);
		return -rc;
	}
	*ctx = a;
	return 0;
}

/* io_destroy() waits for the requests still in flight (aio.c drained them). */
static void aio_libaio_close(void *ctx)
{
	struct aio_libaio *a = ctx;

	io_destroy(a->ctx);
	free(a);
}

static int aio_libaio_prep(void *ctx, unsigned tag, int fd, void *buf, uint32_t len,
			   uint64_t off, bool write)
{
	struct aio_libaio *a = ctx;
	struct iocb *cb = &a->cb[tag];

	if (a->nqueued == a->depth)
		return -1;
	if (write)
		io_prep_pwrite(cb, fd, buf, len, (long long)off);
	else
		io_prep_pread(cb, fd, buf, len, (long long)off);
	cb->data = (void *)(uintptr_t)tag;
	a->queued[a->nqueued++] = cb;
	return 0;
}

static int aio_libaio_submit(void *ctx, unsigned n)
{
	struct aio_libaio *a = ctx;
	int rc;

	if (n > a->nqueued)
		n = a->nqueued;
	rc = io_submit(a->ctx, (long)n, a->queued);
	if (rc > 0) {
		a->nqueued -= (unsigned)rc;
		memmove(a->queued, a->queued + rc, a->nqueued * sizeof(a->queued[0]));
	}
	return rc;
}

static int aio_libaio_getevents(void *ctx, unsigned min, unsigned max,
				uint64_t timeout_ns, struct aio_event *ev)
{
	struct aio_libaio *a = ctx;
	struct timespec ts = {
		.tv_sec = (time_t)(timeout_ns / 1000000000u),
		.tv_nsec = (long)(timeout_ns % 1000000000u),
	};
	int rc;

	if (max > a->depth)
		max = a->depth;
	rc = io_getevents(a->ctx, (long)min, (long)max, a->ev, min ? &ts : NULL);
	if (rc == -EINTR)
		return 0;
	for (int i = 0; i < rc; i++) {
		ev[i].tag = (uint32_t)(uintptr_t)a->ev[i].data;
		ev[i].res = (int32_t)(long)a->ev[i].res;
	}
	return rc;
}

/*
 * Linux cancels no native AIO on a regular file (io_cancel says
 * EINVAL): nothing to do; an aborted drain waits its limit, then gives up.
 */
static void aio_libaio_cancel(void *ctx)
{
	(void)ctx;
}

const struct aio_engine aio_engine_libaio = {
	.name = "libaio",
	.what = "Linux native AIO (libaio)",
	.open_call = "io_setup",
	.submit_call = { "io_submit", "io_submit" },
	.ctx_mem = sizeof(struct aio_libaio),
	.req_mem = AIO_LIBAIO_REQ_BYTES,
	.kernel_mem = AIO_LIBAIO_KERNEL_BYTES,
	.kernel_req_mem = AIO_LIBAIO_KERNEL_REQ_BYTES,
	.fds = 0,
	.open = aio_libaio_open,
	.close = aio_libaio_close,
	.prep = aio_libaio_prep,
	.submit = aio_libaio_submit,
	.getevents = aio_libaio_getevents,
	.cancel = aio_libaio_cancel,
};
