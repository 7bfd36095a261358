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
 * index in aio.c's table (below the context's depth), which the engine
 * gives back with its completion.  An engine context is per thread:
 * aio.c creates one per engine a thread uses, at the init of its first
 * flowop on it, for as many requests as the thread's flowops on that
 * engine may have in flight (aio_ctx_depth()).
 */
#ifndef FLOWBENCH_FLOWOPS_AIO_H
#define FLOWBENCH_FLOWOPS_AIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Requests in flight per thread and engine, at least: a flowop without
 * `iodepth` waits for a completion (back-pressure) once this many are in
 * flight on its engine.  filebench has no limit; 256 covers the shipped
 * workloads (oltp.f's database writers submit 10 between waits) and
 * keeps an io_uring small (256 SQEs, 512 CQEs: about 24 KiB).  A thread
 * whose flowops' iodepths add up to more gets a context of their sum.
 */
#define AIO_DEPTH 256
/*
 * The largest `iodepth`, and context: io_uring's largest submission
 * queue (IORING_MAX_ENTRIES); tags fit in 16 bits.
 */
#define AIO_DEPTH_MAX 32768

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
	/*
	 * Memory (need hooks): its context's own, fixed and per request of
	 * its depth, and in the kernel or glibc, fixed and per request.
	 */
	uint64_t ctx_mem, req_mem;
	uint64_t kernel_mem, kernel_req_mem;
	unsigned fds;              /* descriptors a context keeps open */
	/*
	 * A context for `depth` requests (AIO_DEPTH..AIO_DEPTH_MAX) in
	 * *ctx: 0, or an errno with why[] saying what to check (a sysctl, a
	 * limit).
	 */
	int (*open)(void **ctx, unsigned depth, char *why, size_t whylen);
	void (*close)(void *ctx);
	/*
	 * Queue request `tag` (not submitted yet): `len` bytes at `off` of
	 * `fd`, read into or written from `buf`.  0, or -1 when the engine
	 * has no room (it always has for its depth of requests in flight).
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
