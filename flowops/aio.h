/*
 * aio.h - the I/O engines behind aioread and aiowrite, as fio's
 * ioengines: io_uring (aio_uring.c), Linux native AIO through libaio
 * (aio_libaio.c) and glibc's POSIX AIO (aio_posix.c).
 *
 * flowops/aio.c keeps everything that does not depend on the engine:
 * the request table, iodepth and its batches, back-pressure, reaping,
 * the deadline rule, the drain, quiesce and --compat filebench.  An
 * engine only queues a request, submits the queued ones, waits for and
 * returns completions, and cancels.  A request is named by its tag, its
 * index in aio.c's table (below AIO_DEPTH), which the engine gives back
 * with its completion.  An engine context is per thread: aio.c creates
 * one per engine a thread uses, at the init of its first flowop on it.
 */
#ifndef FLOWBENCH_FLOWOPS_AIO_H
#define FLOWBENCH_FLOWOPS_AIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Requests in flight per thread and engine.  filebench has no limit; 256
 * covers the shipped workloads (oltp.f's database writers submit 10
 * between waits) and keeps an io_uring small (256 SQEs, 512 CQEs: about
 * 24 KiB).  It is also the largest `iodepth`.
 */
#define AIO_DEPTH 256

/* One completion: the request's tag and its result (bytes, or -errno). */
struct aio_event {
	uint32_t tag;
	int32_t res;
};

struct aio_engine {
	const char *name;          /* the value of `ioengine=` */
	const char *what;          /* for messages: "io_uring", "Linux native AIO (libaio)" */
	const char *open_call;     /* the call open() makes: "io_setup", ... */
	/*
	 * The call that submits, for messages: [0] a read, [1] a write
	 * ("io_submit", "aio_read", ...).
	 */
	const char *submit_call[2];
	/*
	 * Each submit() takes one request (posixaio: aio_read() is the
	 * submission), so aio.c takes the submission time after each one,
	 * as fio does for an engine without a commit hook.
	 */
	bool submit_each;
	uint64_t ctx_mem;          /* its context's own memory (need hooks) */
	uint64_t kernel_mem;       /* memory of a context in the kernel or glibc */
	unsigned fds;              /* descriptors a context keeps open */
	/*
	 * A context for AIO_DEPTH requests in *ctx: 0, or an errno with
	 * why[] saying what to check (a sysctl, a limit).
	 */
	int (*open)(void **ctx, char *why, size_t whylen);
	void (*close)(void *ctx);
	/*
	 * Queue request `tag` (not submitted yet): `len` bytes at `off` of
	 * `fd`, read into or written from `buf`.  0, or -1 when the engine
	 * has no room (it always has for AIO_DEPTH requests in flight).
	 */
	int (*prep)(void *ctx, unsigned tag, int fd, void *buf, uint32_t len,
		    uint64_t off, bool write);
	/*
	 * Submit the oldest `n` queued requests: how many were taken (the
	 * oldest first), or -errno when none was.
	 */
	int (*submit)(void *ctx, unsigned n);
	/*
	 * Wait at most timeout_ns until at least `min` requests completed
	 * (min 0: do not wait), then return up to `max` completions in
	 * ev[]: how many (0 after a timeout or a signal), or -errno.
	 */
	int (*getevents)(void *ctx, unsigned min, unsigned max, uint64_t timeout_ns,
			 struct aio_event *ev);
	/* Best effort: cancel every request in flight (an aborted run). */
	void (*cancel)(void *ctx);
};

extern const struct aio_engine aio_engine_uring;
extern const struct aio_engine aio_engine_libaio;
extern const struct aio_engine aio_engine_posix;

/*
 * The context of engine aio_engines[k] in `state`, a thread's state of
 * this family (thread_family_slot()), or NULL: for tests, which look
 * into an engine's own context (aio_uring.c's begins with its struct
 * io_uring).
 */
void *aio_engine_context(void *state, int k);

/* Every engine, NULL-terminated; the first is the default (io_uring). */
extern const struct aio_engine *const aio_engines[];
#define AIO_NENGINES 3

#endif
