/*
 * preflight.h - what a run will need, checked before it touches anything.
 *
 * run_plan() calls preflight_check() after the script's actions and
 * before any fileset is created or any worker forked: a workload that
 * cannot fit the machine (memory, file descriptors, processes, threads,
 * disk space) or whose fileset paths are unusable fails at once with a
 * message naming the numbers, instead of failing late or running the
 * machine out of memory.  Everything here only reads: stat, access,
 * statvfs, getrlimit and two /proc files.
 *
 * The estimates are pure functions of the plan so that tests can check
 * them; the limits are a separate struct so that tests can pass their own.
 */
#ifndef FLOWBENCH_PREFLIGHT_H
#define FLOWBENCH_PREFLIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"
#include "runtime/fileset/fileset.h"

/* A run may use at most this share of MemAvailable (percent). */
#define PREFLIGHT_MEM_PCT 90

/* Descriptors a worker holds besides its threads' files (stdio, logs...). */
#define PREFLIGHT_BASE_FDS 16

/* What the machine allows; UINT64_MAX = no limit, 0 = unknown (skipped). */
struct preflight_limits {
	uint64_t mem_avail;       /* bytes: MemAvailable of /proc/meminfo */
	uint64_t nofile;          /* RLIMIT_NOFILE hard limit (run.c raises the soft one to it) */
	uint64_t nproc;           /* RLIMIT_NPROC soft limit; UINT64_MAX for root */
	uint64_t threads_max;     /* /proc/sys/kernel/threads-max */
};

/* Thread instances of the whole run (saturating). */
uint64_t preflight_thread_instances(const struct plan *p);
/* Worker processes of the whole run (saturating). */
uint64_t preflight_process_instances(const struct plan *p);

/*
 * Memory of one instance of thread `t`: its memsize, flowbench's own
 * per-thread state, one statistics block (struct fo_stats, ~36 KiB) per
 * flowop, and what each flowop says it allocates (its need hook: I/O
 * buffers that do not fit in memsize, aioread's iodepth buffers, private
 * state), with the state a family shares in a thread (the io_uring) once.
 */
uint64_t preflight_thread_mem(const struct plan *p, int t);
/* Memory of fileset `i`'s tree and shared pick state (an estimate). */
uint64_t preflight_fileset_mem(const struct plan *p, int i);
/* The whole run: every thread instance plus every fileset. */
uint64_t preflight_mem(const struct plan *p);

/*
 * File descriptors one instance of thread `t` may hold at once: the fd
 * slots its flowops say they may hold (an `opennext` flowop rotates
 * through all FB_FD_SLOTS), one own slot per flowop that may take one,
 * the descriptors they keep (a kept directory; a family's shared io_uring
 * once), one transient.
 */
uint64_t preflight_thread_fds(const struct plan *p, int t);
/* Descriptors one instance of process `proc` may hold (base included). */
uint64_t preflight_proc_fds(const struct plan *p, int proc);

/* Bytes fileset `i` preallocates (entries x size x prealloc %). */
uint64_t preflight_fileset_bytes(const struct plan_fileset *fs);

/*
 * Compare the plan's needs with `l`; print each problem with log_error().
 * Returns the number of problems.
 */
int preflight_check_limits(const struct plan *p, const struct preflight_limits *l);

/* This machine's limits. */
void preflight_read_limits(struct preflight_limits *l);

/*
 * Everything, before anything is created: limits, then each fileset's
 * path (exists, a directory, writable) and the disk space of its file
 * system.  0 when the run may go ahead, -1 after printing the problems.
 */
int preflight_check(const struct plan *p);

/* Past this tree memory, `check` estimates a footprint instead of populating. */
#define PREFLIGHT_FOOTPRINT_MEM (64u << 20)

/*
 * The planned disk footprint of fileset `i` once prepared (bytes, files,
 * directories; nothing on disk is read): exact from its tree populated
 * in memory (0), or, for a tree past PREFLIGHT_FOOTPRINT_MEM, estimated
 * from the plan (1).  -1 after a message (a tree that cannot be made).
 */
int preflight_footprint(const struct plan *p, int i, struct fileset_foot *fp);

/* "16 TiB", "23.1 GiB", "512 bytes": `n` for a message, in `buf`. */
const char *preflight_bytes(uint64_t n, char *buf, size_t len);

#endif
