/*
 * oplogfiles.c - the files of a run's per-op logs (oplogfiles.h).
 *
 * Names follow fio's rule (init.c gen_log_name()): PREFIX_KIND.N.log,
 * N the thread instance's number from 1 in plan order (fio's
 * thread_number), or PREFIX_KIND.log for a shared set (per_job_logs=0),
 * which every thread instance of the set appends to.  A set is the
 * command line's (every thread instance) or a process's (its instances'
 * thread instances, a contiguous range of slots).  Each name is written
 * as a results file is (atomic.c): a temporary file in its directory,
 * renamed over the name only if that is a regular file or nothing, so a
 * log never writes through a link or over a device.  Every file is
 * created before the run, so that no worker ever opens or creates one.
 */
#include "runtime/results/oplogfiles.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"

/* One file of one set: for one slot, or (shared) for the set's range. */
struct logfile_entry {
	char *path;
	const struct plan_oplog *conf;
	int set;                  /* 0: the command line's, 1: its process's */
	enum oplog_file f;
	uint64_t first, n;        /* the slots it serves */
	const char *whose;        /* for messages */
	size_t out;               /* its file in results_oplog */
};

struct logfile_list {
	struct logfile_entry *e;
	size_t n, cap;
};

static int logfile_cmp(const void *a, const void *b)
{
	const struct logfile_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : x->first < y->first ? -1 : x->first > y->first;
}

/* Append one entry; -1 (said) when its name is too long or memory is out. */
static int logfile_add(struct logfile_list *l, const struct plan_oplog *c, int set,
		       enum oplog_file f, uint64_t first, uint64_t n, const char *whose)
{
	const char *prefix = c->prefix[oplog_file_kind(f)];
	size_t len = oplog_path(NULL, 0, prefix, f, first + 1, c->shared);
	struct logfile_entry *e;

	if (len >= PATH_MAX) {
		log_error("per-op log of %s: the name %s_%s... is longer than a path may be",
			  whose, prefix, oplog_file_name(f));
		return -1;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct logfile_entry *g = realloc(l->e, cap * sizeof(*g));

		if (!g)
			goto oom;
		l->e = g;
		l->cap = cap;
	}
	e = &l->e[l->n];
	*e = (struct logfile_entry){ malloc(len + 1), c, set, f, first, n, whose, 0 };
	if (!e->path)
		goto oom;
	oplog_path(e->path, len + 1, prefix, f, first + 1, c->shared);
	l->n++;
	return 0;
oom:
	log_error("out of memory");
	return -1;
}

/* Every file of set `c` for slots [first, first + n). */
static int logfile_add_set(struct logfile_list *l, const struct plan_oplog *c, int set,
			   uint64_t first, uint64_t n, const char *whose)
{
	for (int f = 0; f < OPLOG_NFILES; f++) {
		if (!c->prefix[oplog_file_kind((enum oplog_file)f)])
			continue;
		if (c->shared) {
			if (n && logfile_add(l, c, set, (enum oplog_file)f, first, n, whose) < 0)
				return -1;
			continue;
		}
		for (uint64_t s = first; s < first + n; s++)
			if (logfile_add(l, c, set, (enum oplog_file)f, s, 1, whose) < 0)
				return -1;
	}
	return 0;
}

/* Every set of the plan, with the slots each serves. */
static int logfile_collect(struct logfile_list *l, const struct plan *p,
			   char (*whose)[96])
{
	uint64_t first = 0;

	if (plan_oplog_any(&p->oplog) &&
	    logfile_add_set(l, &p->oplog, 0, 0, oplog_slots(p), "the command line") < 0)
		return -1;
	for (int i = 0; i < p->nprocs; i++) {
		const struct plan_proc *pp = &p->procs[i];
		uint64_t per = 0;

		for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++)
			per += p->threads[t].instances;
		per *= pp->instances;
		snprintf(whose[i], sizeof(whose[i]), "process %s", pp->name);
		if (plan_oplog_any(&pp->log) &&
		    logfile_add_set(l, &pp->log, 1, first, per, whose[i]) < 0)
			return -1;
		first += per;
	}
	return 0;
}

/*
 * Entries with one name are one file, which only shared sets of
 * disjoint slots may share (processes appending to one file, as fio's
 * jobs with per_job_logs=0 do); anything else would write a thread's
 * lines twice or mix formats.  The number of distinct files, or -1.
 */
static long logfile_group(struct logfile_list *l)
{
	long files = 0;

	if (l->n)
		qsort(l->e, l->n, sizeof(*l->e), logfile_cmp);
	for (size_t i = 0; i < l->n; i++) {
		struct logfile_entry *e = &l->e[i], *prev = i ? &l->e[i - 1] : NULL;

		if (!prev || strcmp(prev->path, e->path) != 0) {
			e->out = (size_t)files++;
			continue;
		}
		e->out = prev->out;
		if (!prev->conf->shared || !e->conf->shared ||
		    prev->first + prev->n > e->first) {
			log_error("per-op logs: %s would be written by %s and by %s: give "
				  "them different prefixes", e->path, prev->whose, e->whose);
			return -1;
		}
	}
	return files;
}

/*
 * Room for `files` more descriptors, each with its directory's: the
 * soft limit raised to the hard one if need be (the run does that too).
 */
static int logfile_fd_room(uint64_t files)
{
	struct rlimit rl;
	uint64_t need = 2 * files + 256;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    need <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max) {
		log_error("the per-op logs are %" PRIu64 " files, each held open during "
			  "the run with its directory: more than this process may open "
			  "(%llu, ulimit -Hn); write fewer (a shared set: per_job_logs=0, "
			  "--log-shared) or raise the limit", files,
			  (unsigned long long)rl.rlim_max);
		return -1;
	}
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	return 0;
}

/* The engine's table: each entry's file in each slot it serves. */
static int logfile_targets(struct results_oplog *ro, const struct logfile_list *l,
			   uint64_t nslots)
{
	struct oplog_target *tg = calloc(nslots * OPLOG_SETS + 1, sizeof(*tg));

	if (!tg) {
		log_error("out of memory");
		return -1;
	}
	for (uint64_t i = 0; i < nslots * OPLOG_SETS; i++)
		for (int f = 0; f < OPLOG_NFILES; f++)
			tg[i].fd[f] = -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct logfile_entry *e = &l->e[i];

		for (uint64_t s = e->first; s < e->first + e->n; s++) {
			struct oplog_target *t = &tg[s * OPLOG_SETS + (uint64_t)e->set];

			t->conf = e->conf;
			t->fd[e->f] = ro->fd[e->out];
			t->path[e->f] = ro->path[e->out];
		}
	}
	ro->files.nslots = nslots;
	ro->files.target = tg;
	return 0;
}

/* One temporary file per distinct name. */
static int logfile_create(struct results_oplog *ro, struct logfile_list *l, size_t files)
{
	ro->out = calloc(files + 1, sizeof(*ro->out));
	ro->fd = calloc(files + 1, sizeof(*ro->fd));
	ro->path = calloc(files + 1, sizeof(*ro->path));
	if (!ro->out || !ro->fd || !ro->path) {
		log_error("out of memory");
		return -1;
	}
	for (size_t g = 0; g < files; g++) {
		ro->fd[g] = -1;
		ro->out[g].dirfd = -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct logfile_entry *e = &l->e[i];
		size_t g = e->out;

		if (ro->path[g]) {
			free(e->path);
			e->path = NULL;
			continue;
		}
		ro->path[g] = e->path;           /* owned by ro from now on */
		e->path = NULL;
		ro->fd[g] = outfile_create(&ro->out[g], "the per-op log", ro->path[g],
					   outfile_default_mode(), ".flowbench-log.",
					   O_APPEND);
		ro->nout = g + 1;
		if (ro->fd[g] < 0)
			return -1;
	}
	return 0;
}

static void logfile_list_free(struct logfile_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->e[i].path);
	free(l->e);
}

int results_oplog_open(struct results_oplog *ro, const struct plan *p)
{
	struct logfile_list l = { NULL, 0, 0 };
	char (*whose)[96] = calloc((size_t)p->nprocs + 1, sizeof(*whose));
	long files;
	int rc = -1;

	memset(ro, 0, sizeof(*ro));
	if (!whose) {
		log_error("out of memory");
		return -1;
	}
	if (logfile_collect(&l, p, whose) < 0 || (files = logfile_group(&l)) < 0)
		goto out;
	rc = 0;
	if (files == 0)
		goto out;
	rc = -1;
	if (logfile_fd_room((uint64_t)files) < 0 ||
	    logfile_create(ro, &l, (size_t)files) < 0 ||
	    logfile_targets(ro, &l, oplog_slots(p)) < 0)
		goto out;
	rc = 0;
out:
	logfile_list_free(&l);
	free(whose);
	if (rc < 0)
		results_oplog_close(ro);
	return rc;
}

/*
 * Two steps, as the results files (session.c): every file flushed to
 * disk and closed while a second interrupt may still abandon them all
 * (its cleanup removes the temporary files), then every one renamed with
 * the signals held, so that the logs are kept all or none.
 */
int results_oplog_commit(struct results_oplog *ro)
{
	size_t written = 0;
	sigset_t old;
	int rc = 0;

	for (size_t i = 0; i < ro->nout; i++) {
		if (ro->fd[i] < 0)
			continue;
		if (fsync(ro->fd[i]) < 0 && errno != EINVAL) {
			log_error("cannot write %s: fsync: %s", ro->path[i], strerror(errno));
			outfile_close(&ro->out[i]);     /* removes its temporary file */
			rc = -1;
		}
		close(ro->fd[i]);
		ro->fd[i] = -1;
	}
	interrupt_hold(&old);
	for (size_t i = 0; i < ro->nout; i++) {
		if (!ro->out[i].live)
			continue;
		if (outfile_commit(&ro->out[i]) == 0)
			written++;
		else
			rc = -1;
	}
	interrupt_release(&old);
	if (written)
		log_info("Per-op logs written: %s%s (%zu file%s)", ro->path[0],
			 written > 1 ? " ..." : "", written, written == 1 ? "" : "s");
	return rc;
}

void results_oplog_close(struct results_oplog *ro)
{
	for (size_t i = 0; i < ro->nout; i++) {
		if (ro->fd[i] >= 0)
			close(ro->fd[i]);
		outfile_close(&ro->out[i]);
		free(ro->path[i]);
	}
	free(ro->out);
	free(ro->fd);
	free(ro->path);
	free(ro->files.target);
	memset(ro, 0, sizeof(*ro));
}

void results_oplog_discard_async(const struct results_oplog *ro)
{
	for (size_t i = 0; i < ro->nout; i++)
		outfile_discard_async(&ro->out[i]);
}
