/*
 * threadlog.c - a thread instance's per-op logs (threadlog.h).
 *
 * Without logs a thread has no writer and thread_record() never comes
 * here for them: the one test on the per-op path is the warm-up's
 * compare, which thread.c makes true for every op (its warm_end_ticks
 * 0) once the thread logs.  The op is then recorded as usual
 * (thread_record_slow()) and handed here with its ticks: its time is
 * its end after the log's epoch, its latencies fio's (a synchronous
 * op's total and completion latency are the same; an asynchronous one,
 * recorded through thread_record_split(), has its submission latency
 * too).
 */
#include "runtime/engine/threadlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/flowop.h"
#include "runtime/measure/oplog.h"

int thread_log_prepare(struct thread_log *l, const struct oplog_files *files,
		       uint64_t slot)
{
	const struct oplog_target *tg = oplog_files_of(files, slot);

	memset(l, 0, sizeof(*l));
	l->failed = -1;
	if (!tg)
		return 0;
	l->w = calloc(OPLOG_SETS, sizeof(*l->w));
	if (!l->w)
		return -1;
	for (int i = 0; i < OPLOG_SETS; i++) {
		if (!tg[i].conf)
			continue;
		if (oplog_writer_init(&l->w[l->n], &tg[i]) < 0) {
			thread_log_free(l);
			return -1;
		}
		l->n++;
	}
	return 0;
}

void thread_log_start(struct thread_log *l, const struct clock_scale *clk,
		      uint64_t epoch_ns)
{
	l->epoch_ticks = clock_ns_to_ticks(clk, epoch_ns);
}

int thread_log_op(struct thread_log *l, const struct clock_scale *clk, unsigned rw,
		  const struct thread_log_times *tm, uint64_t bytes, uint64_t off)
{
	struct oplog_op op = {
		.end_ns = clock_ticks_to_ns(clk, l->epoch_ticks, tm->t1),
		.lat_ns = tm->ns,
		.clat_ns = tm->ns,
		.bytes = bytes,
		.offset = off,
		.dir = rw == FLOWOP_RW_WRITE,
	};

	if (!(rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE)))
		return 0;
	if (tm->ts != UINT64_MAX) {
		op.split = true;
		op.slat_ns = clock_ticks_to_ns(clk, tm->ts, tm->t0);
		op.lat_ns = clock_ticks_to_ns(clk, tm->ts, tm->t1);
	}
	for (int i = 0; i < l->n; i++)
		if (oplog_writer_op(&l->w[i], &op) < 0) {
			l->failed = i;
			return -1;
		}
	return 0;
}

int thread_log_finish(struct thread_log *l, const struct clock_scale *clk,
		      uint64_t end_ns)
{
	uint64_t end = clock_ticks_to_ns(clk, l->epoch_ticks,
					 clock_ns_to_ticks(clk, end_ns));

	for (int i = 0; i < l->n; i++)
		if (oplog_writer_finish(&l->w[i], end) < 0) {
			l->failed = i;
			return -1;
		}
	return 0;
}

void thread_log_error(const struct thread_log *l, char *buf, size_t size)
{
	const struct oplog_writer *w = l->failed >= 0 ? &l->w[l->failed] : NULL;

	if (w)
		snprintf(buf, size, "cannot write the per-op log %s: %s",
			 w->path[w->err_file], strerror(w->err));
	else
		snprintf(buf, size, "cannot write the per-op logs");
}

void thread_log_free(struct thread_log *l)
{
	for (int i = 0; l->w && i < OPLOG_SETS; i++)
		oplog_writer_free(&l->w[i]);
	free(l->w);
	l->w = NULL;
	l->n = 0;
}
