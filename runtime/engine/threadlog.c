/*
 * threadlog.c - a thread instance's per-op logs (threadlog.h).
 *
 * Without logs a thread has no writer and thread_record() never comes
 * here for them: the one test on the per-op path is the warm-up's
 * compare, which thread_log_start() makes true for every op (its
 * warm_end_ticks 0) once the thread logs.  The op is then recorded as
 * usual (thread.c, thread_record_slow()) and handed here with its ticks:
 * its time is its end after the log's epoch, its latencies fio's (a
 * synchronous op's total and completion latency are the same; an
 * asynchronous one, recorded through thread_record_split(), has its
 * submission latency too).  Only flowops that read or write are logged,
 * as fio logs only its data directions.
 */
#include "runtime/engine/threadlog.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/engine/shared.h"
#include "runtime/measure/oplog.h"

int thread_log_prepare(struct fb_thread *t, const struct oplog_files *files,
		       uint64_t slot)
{
	const struct oplog_target *tg = oplog_files_of(files, slot);

	t->logw = NULL;
	t->nlogw = 0;
	if (!tg)
		return 0;
	t->logw = calloc(OPLOG_SETS, sizeof(*t->logw));
	if (!t->logw)
		return -1;
	for (int i = 0; i < OPLOG_SETS; i++) {
		if (!tg[i].conf)
			continue;
		if (oplog_writer_init(&t->logw[t->nlogw], &tg[i]) < 0) {
			thread_log_free(t);
			return -1;
		}
		t->nlogw++;
	}
	return 0;
}

void thread_log_start(struct fb_thread *t, uint64_t epoch_ns)
{
	if (!t->nlogw)
		return;
	t->log_epoch_ticks = clock_ns_to_ticks(&t->clk, epoch_ns);
	t->warm_end_ticks = 0;
}

/* The writers stop after a failed write, which ends the run. */
static void thread_log_failed(struct fb_thread *t, const struct oplog_writer *w)
{
	shared_set_error(t->ctl, "cannot write the per-op log %s: %s",
			 w->path[w->err_file], strerror(w->err));
	t->failed = true;
	t->nlogw = 0;
	t->warm_end_ticks = t->warm_real_ticks;
}

void thread_log_op(struct fb_thread *t, const struct flowop_inst *fi,
		   const struct thread_log_times *tm, uint64_t bytes, uint64_t off)
{
	unsigned rw = fi->pf->ops->rw;
	struct oplog_op op = {
		.end_ns = clock_ticks_to_ns(&t->clk, t->log_epoch_ticks, tm->t1),
		.lat_ns = tm->ns,
		.clat_ns = tm->ns,
		.bytes = bytes,
		.offset = off,
		.dir = rw == FLOWOP_RW_WRITE,
	};

	if (!(rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE)))
		return;
	if (tm->ts != THREAD_NO_SUBMIT) {
		op.split = true;
		op.slat_ns = clock_ticks_to_ns(&t->clk, tm->ts, tm->t0);
		op.lat_ns = clock_ticks_to_ns(&t->clk, tm->ts, tm->t1);
	}
	for (int i = 0; i < t->nlogw; i++)
		if (oplog_writer_op(&t->logw[i], &op) < 0) {
			thread_log_failed(t, &t->logw[i]);
			return;
		}
}

void thread_log_finish(struct fb_thread *t, uint64_t end_ns)
{
	uint64_t end;

	if (!t->nlogw)
		return;
	if (end_ns > t->ctl->deadline_ns)
		end_ns = t->ctl->deadline_ns;
	end = clock_ticks_to_ns(&t->clk, t->log_epoch_ticks,
				clock_ns_to_ticks(&t->clk, end_ns));
	for (int i = 0; i < t->nlogw; i++)
		if (oplog_writer_finish(&t->logw[i], end) < 0) {
			thread_log_failed(t, &t->logw[i]);
			return;
		}
}

void thread_log_free(struct fb_thread *t)
{
	for (int i = 0; t->logw && i < OPLOG_SETS; i++)
		oplog_writer_free(&t->logw[i]);
	free(t->logw);
	t->logw = NULL;
	t->nlogw = 0;
}
