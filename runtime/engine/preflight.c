/*
 * preflight.c - checking a run's needs against the machine before it starts.
 *
 * Without these checks an absurd workload fails late and messily: a
 * thread's memsize is allocated and zeroed inside the worker, so 16
 * threads of memsize=1t start the OOM killer; a path that does not exist
 * is found after other filesets were created; a fileset larger than its
 * disk fills it before failing.  Here each need is estimated from the
 * plan alone (pure functions, unit-tested) and compared with what the
 * machine allows, and every problem is reported before anything exists.
 * What a flowop needs (its buffers, private state, descriptors, fd slots,
 * state its family shares in a thread) it states itself through its
 * ops' need hook (plan/flowop.h); here those are added up with the
 * engine's own per-thread and per-flowop state.
 *
 * The estimates err on the generous side of the program's real use (an
 * `opennext` flowop counts all its slots, a fileset tree its worst case),
 * but a run is refused only past a clear limit: 90 % of MemAvailable, the
 * open-file limit, the process limit, threads-max, the free space.
 */
#include "runtime/engine/preflight.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "plan/flowop.h"
#include "runtime/base/log.h"
#include "runtime/fileset/fileset.h"
#include "runtime/fileset/fspath.h"
#include "runtime/fileset/pick.h"
#include "runtime/measure/oplog.h"
#include "runtime/engine/shared.h"
#include "runtime/engine/slot.h"
#include "runtime/engine/thread.h"
#include "runtime/fileset/tree.h"

/* Stack pages, flowop arrays and state of its own a thread touches. */
#define THREAD_OVERHEAD (64u * 1024)

/* Thread instances in one instance of process `proc`. */
static uint64_t threads_per_proc(const struct plan *p, int proc)
{
	const struct plan_proc *pp = &p->procs[proc];
	uint64_t n = 0;

	for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++)
		n = plan_sat_add(n, p->threads[t].instances);
	return n;
}

uint64_t preflight_thread_instances(const struct plan *p)
{
	uint64_t n = 0;

	for (int i = 0; i < p->nprocs; i++)
		n = plan_sat_add(n, plan_sat_mul(p->procs[i].instances,
						   threads_per_proc(p, i)));
	return n;
}

uint64_t preflight_process_instances(const struct plan *p)
{
	uint64_t n = 0;

	for (int i = 0; i < p->nprocs; i++)
		n = plan_sat_add(n, p->procs[i].instances);
	return n;
}

/* Every instance of thread `t` in the run. */
static uint64_t thread_total_instances(const struct plan *p, int t)
{
	const struct plan_thread *pt = &p->threads[t];

	return plan_sat_mul(pt->instances, p->procs[pt->proc].instances);
}

/* What flowop `f` needs in each thread instance, by its ops' need hook. */
static void flowop_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n)
{
	memset(n, 0, sizeof(*n));
	n->slot = -1;
	if (f->ops && f->ops->need)
		f->ops->need(p, f, n);
}

/*
 * The per-thread state shared by a family's flowops is counted once per
 * thread: true the first time `key` is seen in `seen` (up to
 * SHARED_KEYS distinct keys; past that every one counts again, which
 * only errs high).
 */
#define SHARED_KEYS 16

struct shared_seen {
	const void *key[SHARED_KEYS];
	int n;
};

static bool first_sight(struct shared_seen *seen, const void *key)
{
	for (int i = 0; i < seen->n; i++)
		if (seen->key[i] == key)
			return false;
	if (seen->n < SHARED_KEYS)
		seen->key[seen->n++] = key;
	return true;
}

uint64_t preflight_thread_mem(const struct plan *p, int t)
{
	const struct plan_thread *pt = &p->threads[t];
	uint64_t m = plan_sat_add(pt->memsize, sizeof(struct fb_thread) + THREAD_OVERHEAD);
	struct shared_seen seen = { .n = 0 };

	/* its per-op logs' buffers and windows (runtime/measure/oplog.h) */
	m = plan_sat_add(m, oplog_writer_mem(&p->oplog));
	m = plan_sat_add(m, oplog_writer_mem(&p->procs[pt->proc].log));

	for (int k = pt->first_flowop; k < pt->first_flowop + pt->nflowops; k++) {
		struct flowop_need n;

		flowop_need(p, &p->flowops[k], &n);
		m = plan_sat_add(m, sizeof(struct fo_stats) + sizeof(struct shared_sync));
		if (p->flowops[k].ops->split_latency)   /* its extension block */
			m = plan_sat_add(m, sizeof(struct astats));
		m = plan_sat_add(m, n.mem);
		if (n.shared && first_sight(&seen, n.shared))
			m = plan_sat_add(m, n.shared_mem);
	}
	return m;
}

/* Directories of a fileset's tree: about n / (width - 1); a random width counts as 2. */
static uint64_t dirs_estimate(const struct plan_fileset *fs)
{
	uint64_t files = fs->is_file ? 1 : fs->entries;
	uint64_t leaf = fs->is_file ? 0 : fs->leafdirs;
	uint64_t n = plan_sat_add(files, leaf);
	double w = fs->dirwidth_rv >= 0 || fs->dirwidth < 2 ? 2 : fs->dirwidth;
	double dirs_d = (double)n / (w - 1) + 1;

	return dirs_d >= 1.8e19 ? UINT64_MAX : (uint64_t)dirs_d;
}

uint64_t preflight_fileset_mem(const struct plan *p, int i)
{
	const struct plan_fileset *fs = &p->filesets[i];
	uint64_t files = fs->is_file ? 1 : fs->entries;
	uint64_t leaf = fs->is_file ? 0 : fs->leafdirs;
	uint64_t dirs = dirs_estimate(fs);
	uint64_t m;

	(void)p;
	if (files >= UINT32_MAX || leaf >= UINT32_MAX)
		return UINT64_MAX;      /* tree.c refuses it anyway */
	m = pick_set_bytes(files, true, true);
	m = plan_sat_add(m, pick_set_bytes(leaf, true, false));
	m = plan_sat_add(m, pick_set_bytes(dirs > UINT32_MAX ? UINT32_MAX : dirs,
					    false, false));
	m = plan_sat_add(m, plan_sat_mul(dirs, sizeof(struct tree_dir)));
	if (fs->size_rv >= 0)
		m = plan_sat_add(m, plan_sat_mul(files, sizeof(uint64_t)));
	return m;
}

uint64_t preflight_mem(const struct plan *p)
{
	uint64_t m = 0;

	for (int t = 0; t < p->nthreads; t++)
		m = plan_sat_add(m, plan_sat_mul(thread_total_instances(p, t),
						   preflight_thread_mem(p, t)));
	for (int i = 0; i < p->nfilesets; i++)
		m = plan_sat_add(m, preflight_fileset_mem(p, i));
	return m;
}

uint64_t preflight_thread_fds(const struct plan *p, int t)
{
	const struct plan_thread *pt = &p->threads[t];
	bool used[FB_FD_SLOTS] = { false };
	bool every = false;
	struct shared_seen seen = { .n = 0 };
	uint64_t own = 0, n = 0;

	for (int k = pt->first_flowop; k < pt->first_flowop + pt->nflowops; k++) {
		struct flowop_need need;

		flowop_need(p, &p->flowops[k], &need);
		n = plan_sat_add(n, need.fds);
		if (need.shared && first_sight(&seen, need.shared))
			n = plan_sat_add(n, need.shared_fds);
		every |= need.every_slot;
		if (need.slot >= 0 && need.slot < FB_FD_SLOTS)
			used[need.slot] = true;
		own += need.own_slot;
	}
	for (int s = 0; s < FB_FD_SLOTS; s++)
		n += every || used[s];
	n += own < FB_OWN_SLOTS ? own : FB_OWN_SLOTS;
	return n + 1;    /* + one transient (listdir, createfile...) */
}

uint64_t preflight_proc_fds(const struct plan *p, int proc)
{
	const struct plan_proc *pp = &p->procs[proc];
	/*
	 * every fileset's root and locked marker stay open in every worker,
	 * and every per-op log with its directory (runtime/results/oplogfiles.c)
	 */
	uint64_t n = PREFLIGHT_BASE_FDS + 2 * (uint64_t)p->nfilesets;

	n = plan_sat_add(n, plan_sat_mul(2, oplog_file_count(p)));

	for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++)
		n = plan_sat_add(n, plan_sat_mul(p->threads[t].instances,
						   preflight_thread_fds(p, t)));
	return n;
}

uint64_t preflight_fileset_bytes(const struct plan_fileset *fs)
{
	uint64_t files = fs->is_file ? 1 : fs->entries;
	uint64_t all = plan_sat_mul(files, fs->size);

	if (fs->prealloc_pct >= 100)
		return all;
	if (fs->prealloc_pct <= 0)
		return 0;
	return all / 100 * (uint64_t)fs->prealloc_pct +
	       all % 100 * (uint64_t)fs->prealloc_pct / 100;
}

int preflight_footprint(const struct plan *p, int i, struct fileset_foot *fp)
{
	const struct plan_fileset *fs = &p->filesets[i];
	uint64_t files = fs->is_file ? 1 : fs->entries;
	int pct = fs->prealloc_pct < 0 ? 0 : fs->prealloc_pct > 100 ? 100 : fs->prealloc_pct;

	if (fs->is_device || preflight_fileset_mem(p, i) <= PREFLIGHT_FOOTPRINT_MEM)
		return fileset_footprint(p, i, false, fp) < 0 ? -1 : 0;
	memset(fp, 0, sizeof(*fp));
	fp->mode = FILESET_FOOT_NEW;
	fp->bytes = fp->to_write = preflight_fileset_bytes(fs);
	fp->files = files / 100 * (uint64_t)pct + files % 100 * (uint64_t)pct / 100;
	fp->dirs = dirs_estimate(fs);
	return 1;
}

const char *preflight_bytes(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)n;
	int u = -1;
	size_t k;

	if (n < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes", n);
		return buf;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	k = (size_t)snprintf(buf, len, "%.1f", v);
	if (k > 2 && k < len && strcmp(buf + k - 2, ".0") == 0)
		buf[k - 2] = '\0';     /* "16 TiB", not "16.0 TiB" */
	snprintf(buf + strlen(buf), len - strlen(buf), " %s", unit[u]);
	return buf;
}

/* ---- comparing needs with limits ------------------------------------- */

/* The thread definition that needs the most memory in all. */
static int biggest_thread(const struct plan *p, uint64_t *total)
{
	int best = -1;

	*total = 0;
	for (int t = 0; t < p->nthreads; t++) {
		uint64_t m = plan_sat_mul(thread_total_instances(p, t),
					   preflight_thread_mem(p, t));

		if (best < 0 || m > *total) {
			best = t;
			*total = m;
		}
	}
	return best;
}

static int check_memory(const struct plan *p, const struct preflight_limits *l)
{
	uint64_t need = preflight_mem(p), tm = 0;
	char b1[32], b2[32], b3[32], b4[32];
	int t;

	if (!l->mem_avail || need <= l->mem_avail / 100 * PREFLIGHT_MEM_PCT)
		return 0;
	t = biggest_thread(p, &tm);
	if (t >= 0 && tm >= need / 2) {
		const struct plan_thread *pt = &p->threads[t];
		uint64_t each = preflight_thread_mem(p, t);
		char what[64];

		if (pt->memsize && pt->memsize >= each / 2)
			snprintf(what, sizeof(what), "memsize=%s",
				 preflight_bytes(pt->memsize, b1, sizeof(b1)));
		else
			snprintf(what, sizeof(what), "%s each (I/O buffers, statistics)",
				 preflight_bytes(each, b1, sizeof(b1)));
		log_error("%s:%d:%d: thread '%s' of process '%s': %s x %" PRIu64
			  " thread instances needs %s of memory (the whole run about %s); "
			  "this machine has %s available (flowbench uses at most %d %%): "
			  "lower memsize or instances",
			  p->filename, pt->loc.line, pt->loc.col, pt->name,
			  p->procs[pt->proc].name, what, thread_total_instances(p, t),
			  preflight_bytes(tm, b2, sizeof(b2)),
			  preflight_bytes(need, b3, sizeof(b3)),
			  preflight_bytes(l->mem_avail, b4, sizeof(b4)), PREFLIGHT_MEM_PCT);
	} else {
		log_error("the run needs about %s of memory (threads, their statistics "
			  "and the filesets' trees); this machine has %s available "
			  "(flowbench uses at most %d %%)",
			  preflight_bytes(need, b3, sizeof(b3)),
			  preflight_bytes(l->mem_avail, b4, sizeof(b4)), PREFLIGHT_MEM_PCT);
	}
	return 1;
}

static int check_fds(const struct plan *p, const struct preflight_limits *l)
{
	int problems = 0;

	for (int i = 0; l->nofile && i < p->nprocs; i++) {
		const struct plan_proc *pp = &p->procs[i];
		uint64_t need = preflight_proc_fds(p, i);

		if (need <= l->nofile)
			continue;
		log_error("%s:%d:%d: process '%s': its %" PRIu64 " thread instances may "
			  "hold up to %" PRIu64 " open files, more than this process may "
			  "open (%" PRIu64 ", ulimit -n): lower the threads' instances "
			  "or raise the limit",
			  p->filename, pp->loc.line, pp->loc.col, pp->name,
			  threads_per_proc(p, i), need, l->nofile);
		problems++;
	}
	return problems;
}

static int check_tasks(const struct plan *p, const struct preflight_limits *l)
{
	uint64_t tasks = 1;     /* the master */
	int problems = 0;

	/* a worker runs its last thread instance on its own thread */
	for (int i = 0; i < p->nprocs; i++) {
		uint64_t per = threads_per_proc(p, i);

		tasks = plan_sat_add(tasks, plan_sat_mul(p->procs[i].instances,
							   per ? per : 1));
	}
	if (l->nproc && tasks > l->nproc) {
		log_error("the run needs %" PRIu64 " processes and threads (%" PRIu64
			  " worker processes); this user may have %" PRIu64
			  " (ulimit -u)", tasks, preflight_process_instances(p), l->nproc);
		problems++;
	}
	if (l->threads_max && tasks > l->threads_max) {
		log_error("the run needs %" PRIu64 " threads; the system allows %" PRIu64
			  " in all (/proc/sys/kernel/threads-max)", tasks, l->threads_max);
		problems++;
	}
	return problems;
}

int preflight_check_limits(const struct plan *p, const struct preflight_limits *l)
{
	return check_memory(p, l) + check_fds(p, l) + check_tasks(p, l);
}

/* ---- reading the machine's limits ------------------------------------ */

/* The number after `key` in /proc/meminfo (kB) in bytes, 0 if unknown. */
static uint64_t meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	size_t klen = strlen(key);
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long kb;

		if (strncmp(line, key, klen) == 0 && line[klen] == ':' &&
		    sscanf(line + klen + 1, "%llu", &kb) == 1) {
			v = plan_sat_mul(kb, 1024);
			break;
		}
	}
	fclose(f);
	return v;
}

static uint64_t proc_number(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static uint64_t rlim(rlim_t r)
{
	return r == RLIM_INFINITY ? UINT64_MAX : (uint64_t)r;
}

void preflight_read_limits(struct preflight_limits *l)
{
	struct rlimit rl;

	memset(l, 0, sizeof(*l));
	l->mem_avail = meminfo("MemAvailable");
	/* run.c has raised the soft limit as far as it goes: that one counts */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		l->nofile = rlim(rl.rlim_cur);
	/* root (CAP_SYS_RESOURCE) is not held to RLIMIT_NPROC */
	if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0)
		l->nproc = rlim(rl.rlim_cur);
	l->threads_max = proc_number("/proc/sys/kernel/threads-max");
}

/* ---- fileset paths and disk space ------------------------------------ */

/* The fileset's path is usable; *fresh: <path>/<name> is still to be made. */
static int check_path(const struct plan *p, const struct plan_fileset *fs,
		      bool *fresh)
{
	const char *what = fs->is_file ? "file" : "fileset";
	char dir[4096];
	struct stat st;

	*fresh = false;
	if (stat(fs->path, &st) < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		/* made at preparation, below the part that exists (fspath.h) */
		char *have = fspath_existing(fs->path);
		int rc = 0;

		*fresh = true;
		if (!have || stat(have, &st) < 0 || !S_ISDIR(st.st_mode)) {
			log_error("%s:%d:%d: %s '%s': path %s cannot be made: %s%s",
				  p->filename, fs->loc.line, fs->loc.col, what, fs->name,
				  fs->path, have ? have : "", have ? " is not a directory" :
				  strerror(errno));
			rc = -1;
		} else if (access(have, W_OK | X_OK) < 0) {
			log_error("%s:%d:%d: %s '%s': path %s cannot be made: %s is not "
				  "writable by this user (%s)", p->filename, fs->loc.line,
				  fs->loc.col, what, fs->name, fs->path, have, strerror(errno));
			rc = -1;
		}
		free(have);
		return rc;
	}
	if (stat(fs->path, &st) < 0) {
		log_error("%s:%d:%d: %s '%s': path %s %s", p->filename, fs->loc.line,
			  fs->loc.col, what, fs->name, fs->path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_error("%s:%d:%d: %s '%s': path %s is not a directory", p->filename,
			  fs->loc.line, fs->loc.col, what, fs->name, fs->path);
		return -1;
	}
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", fs->path, fs->name) >= sizeof(dir)) {
		log_error("%s:%d:%d: %s '%s': path %s is too long", p->filename,
			  fs->loc.line, fs->loc.col, what, fs->name, fs->path);
		return -1;
	}
	if (lstat(dir, &st) == 0)
		return 0;       /* exists: fileset.c reuses, cleans or refuses it */
	*fresh = true;
	if (access(fs->path, W_OK | X_OK) < 0) {
		log_error("%s:%d:%d: %s '%s': path %s is not writable by this user (%s)",
			  p->filename, fs->loc.line, fs->loc.col, what, fs->name,
			  fs->path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * What preparing one fileset writes, and frees first: a new one its
 * preallocated bytes (an estimate from the plan); a trusted tree
 * nothing; another tree already on disk at first all its bytes (an
 * upper bound, from its population in memory), and, only when that
 * bound does not fit, what fileset_footprint() finds on disk (a reused
 * tree: new and growing files; a recreated one: everything, after its
 * old files are removed).  Reading every file of a big tree costs
 * seconds: the common case, a run that fits anyway, never does it.
 */
struct space_need {
	char *where;              /* its path, or the part of it that exists */
	bool counted;             /* a usable path, not a duplicate */
	bool unlooked;            /* on disk, fp is the upper bound */
	dev_t dev;                /* the file system of its path */
	struct fileset_foot fp;
};

/* need->fp for fileset i; -1 after a message (its tree cannot be made). */
static int space_need_of(const struct plan *p, int i, bool fresh,
			 struct space_need *need)
{
	const struct plan_fileset *fs = &p->filesets[i];

	if (!fresh) {
		if (fileset_footprint(p, i, false, &need->fp) < 0)
			return -1;
		need->fp.exists = true;
		need->unlooked = !fs->trusttree;
		if (fs->trusttree) {
			need->fp.mode = FILESET_FOOT_TRUSTED;
			need->fp.to_write = 0;
		}
		return 0;
	}
	memset(&need->fp, 0, sizeof(need->fp));
	need->fp.mode = FILESET_FOOT_NEW;
	need->fp.bytes = need->fp.to_write = preflight_fileset_bytes(fs);
	return 0;
}

/* The bytes to write and freed first by the filesets on `first`'s device. */
static void device_sums(const struct plan *p, const struct space_need *need,
			int first, uint64_t *write, uint64_t *freed)
{
	*write = *freed = 0;
	for (int j = first; j < p->nfilesets; j++) {
		if (!need[j].counted || need[j].dev != need[first].dev)
			continue;
		*write = plan_sat_add(*write, need[j].fp.to_write);
		*freed = plan_sat_add(*freed, need[j].fp.freed);
	}
}

/*
 * Replace the upper bounds of the trees on `first`'s device by what is
 * on disk.  false when there was none to replace; -1 after a message.
 */
static int look_closer(const struct plan *p, struct space_need *need, int first)
{
	int looked = 0;

	for (int j = first; j < p->nfilesets; j++) {
		if (!need[j].counted || !need[j].unlooked ||
		    need[j].dev != need[first].dev)
			continue;
		if (fileset_footprint(p, j, true, &need[j].fp) < 0)
			return -1;
		need[j].unlooked = false;
		looked++;
	}
	return looked > 0;
}

/* "; the tree there is reused: ... " for a message, in `buf`. */
static const char *space_state(const struct fileset_foot *fp, char *buf, size_t len)
{
	char b1[32], b2[32];

	if (fp->mode == FILESET_FOOT_REUSED)
		snprintf(buf, len, "; %s of it already there (reused), %s still to write",
			 preflight_bytes(fp->there, b1, sizeof(b1)),
			 preflight_bytes(fp->to_write, b2, sizeof(b2)));
	else if (fp->mode == FILESET_FOOT_RECREATED)
		snprintf(buf, len, "; its tree there is recreated: %s to write once its "
			 "old files (%s) are removed", preflight_bytes(fp->to_write, b1,
			 sizeof(b1)), preflight_bytes(fp->freed, b2, sizeof(b2)));
	else
		snprintf(buf, len, ", need %s of disk",
			 preflight_bytes(fp->to_write, b1, sizeof(b1)));
	return buf;
}

/*
 * The file system holding the first fileset of a device (`first`): the
 * bytes every fileset there still writes against its f_bavail plus what
 * their cleaning frees first.  A file system whose free space cannot be
 * read is said, not skipped in silence.  1 on a problem, else 0.
 */
static int check_device(const struct plan *p, struct space_need *need, int first)
{
	const struct plan_fileset *fs = &p->filesets[first];
	uint64_t write, freed, avail;
	char b1[32], b2[32], b3[32], state[160], others[80] = "";
	struct statvfs sv;
	int closer;

	device_sums(p, need, first, &write, &freed);
	if (write == 0)
		return 0;
	if (statvfs(need[first].where, &sv) < 0) {
		log_warn("%s:%d:%d: cannot read the free space of %s (%s): the %s "
			 "still to write there are not checked against it",
			 p->filename, fs->loc.line, fs->loc.col, fs->path,
			 strerror(errno), preflight_bytes(write, b1, sizeof(b1)));
		return 0;
	}
	avail = plan_sat_add(plan_sat_mul(sv.f_bavail, sv.f_frsize), freed);
	if (write <= avail)
		return 0;
	if ((closer = look_closer(p, need, first)) < 0)
		return 1;
	if (closer) {
		device_sums(p, need, first, &write, &freed);
		avail = plan_sat_add(plan_sat_mul(sv.f_bavail, sv.f_frsize), freed);
		if (write <= avail)
			return 0;
	}
	if (write != need[first].fp.to_write)
		snprintf(others, sizeof(others), " (%s with the other filesets there)",
			 preflight_bytes(write, b3, sizeof(b3)));
	log_error("%s:%d:%d: %s '%s': %" PRIu64 " file%s x %s, %d %% preallocated%s%s; "
		  "the file system of %s has %s free%s: lower the file size or the "
		  "number of files (often -D filesize=... or -D nfiles=...)",
		  p->filename, fs->loc.line, fs->loc.col,
		  fs->is_file ? "file" : "fileset", fs->name,
		  fs->is_file ? (uint64_t)1 : fs->entries,
		  log_plural(fs->is_file ? 1 : fs->entries),
		  preflight_bytes(fs->size, b1, sizeof(b1)), fs->prealloc_pct,
		  space_state(&need[first].fp, state, sizeof(state)), others, fs->path,
		  preflight_bytes(plan_sat_mul(sv.f_bavail, sv.f_frsize), b2, sizeof(b2)),
		  freed ? " before the old files are removed" : "");
	return 1;
}

/*
 * Free space, whatever is on disk: every fileset's bytes still to write
 * (new files, files that grow, a tree recreated) against the free space
 * of its file system, one message per file system.  Without `look` (the
 * run is refused already for a limit: its trees may not even fit in
 * memory) only the new filesets are counted.
 */
static int check_space(const struct plan *p, const bool *usable, const bool *fresh,
		       bool look)
{
	struct space_need *need = calloc((size_t)p->nfilesets + 1, sizeof(*need));
	int problems = 0;

	if (!need) {
		log_error("out of memory");
		return 1;
	}
	for (int i = 0; i < p->nfilesets; i++) {
		struct stat st;

		/* a missing path: the file system of the part that exists */
		if (!usable[i] || (!fresh[i] && !look) ||
		    !(need[i].where = fspath_existing(p->filesets[i].path)) ||
		    stat(need[i].where, &st) < 0)
			continue;
		if (space_need_of(p, i, fresh[i], &need[i]) < 0) {
			problems++;
			continue;
		}
		need[i].counted = true;
		need[i].dev = st.st_dev;
	}
	for (int i = 0; i < p->nfilesets; i++) {
		bool first = need[i].counted;

		for (int j = 0; first && j < i; j++)
			first = !(need[j].counted && need[j].dev == need[i].dev);
		if (first)
			problems += check_device(p, need, i);
	}
	for (int i = 0; i < p->nfilesets; i++)
		free(need[i].where);
	free(need);
	return problems;
}

int preflight_check(const struct plan *p)
{
	struct preflight_limits l;
	bool *fresh = calloc((size_t)p->nfilesets + 1, sizeof(*fresh));
	bool *usable = calloc((size_t)p->nfilesets + 1, sizeof(*usable));
	int problems, limits;

	if (!fresh || !usable) {
		free(fresh);
		free(usable);
		log_error("out of memory");
		return -1;
	}
	preflight_read_limits(&l);
	problems = limits = preflight_check_limits(p, &l);
	for (int i = 0; i < p->nfilesets; i++) {
		bool dup = false;

		for (int j = 0; j < i; j++)
			dup |= strcmp(p->filesets[j].path, p->filesets[i].path) == 0 &&
			       strcmp(p->filesets[j].name, p->filesets[i].name) == 0;
		if (dup || p->filesets[i].is_device)
			continue;       /* a device: nothing made (runtime/fileset/devtarget.h) */
		if (check_path(p, &p->filesets[i], &fresh[i]) < 0)
			problems++;
		else
			usable[i] = true;
	}
	problems += check_space(p, usable, fresh, limits == 0);
	free(usable);
	free(fresh);
	return problems ? -1 : 0;
}
