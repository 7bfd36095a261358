/*
 * plan.h - the compiled plan: the only door from lang/ to the runtime.
 *
 * The compiler (lang/compile.c) turns a script's AST into this plain data:
 * files, processes, threads and their flowop sequences, with every
 * attribute reference resolved to its value as of the `run` command (the
 * late binding of WML: a `set` after a `define` still counts).  The plan is
 * built once in the master, before any fork, and never written afterwards;
 * workers inherit it through fork(), so pointers inside it stay valid.
 */
#ifndef FLOWBENCH_PLAN_H
#define FLOWBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/arena.h"
#include "plan/srcloc.h"

struct flowop_ops;
struct plan_randvar;      /* plan/randvar.h */

/*
 * flowbench's limits on time values, checked before anything runs (the
 * compiler with the value's location, the command line as usage errors,
 * run_plan() again for any other caller).  A time value (run, psrun,
 * sleep, delay, --runtime, --warmup, --interval) is at most 10^9 s (31.7
 * years): 10^18 ns, so now + warm-up + run time in nanoseconds stays far
 * below 2^64.  An event generator's rate is at most 10^9 events/s.  An
 * --interval series has at most PLAN_MAX_INTERVALS rows (run time /
 * interval), each a results line per flowop kept in memory until the end.
 */
#define PLAN_MAX_SECONDS 1e9
/*
 * Thread instances one run may have: the compiler rejects more (with the
 * attribute's location); the shared region's slot table
 * (runtime/engine/shared.c) is sized by it.
 */
#define PLAN_MAX_THREAD_INSTANCES (1u << 20)

/* Saturating arithmetic for counts and sizes: past UINT64_MAX is "too much". */
static inline uint64_t plan_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t plan_sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
#define PLAN_MAX_EVENT_RATE 1e9
#define PLAN_MAX_INTERVALS 1000000

/* A resolved attribute value. */
enum pv_kind {
	PV_UNSET = 0,   /* attribute not given: the flowop uses its default */
	PV_INT,
	PV_DOUBLE,
	PV_BOOL,
	PV_STRING,
	PV_RANDOM,      /* a random variable: sampled at every evaluation */
};

struct plan_value {
	enum pv_kind kind;
	union {
		int64_t i;
		double d;
		bool b;
		const char *s;
		int rv;         /* PV_RANDOM: index into plan.randvars */
	} u;
	struct src_loc loc;     /* where the value was written */
};

/*
 * The flowop attributes every stage may read, whatever the flowop: the
 * first PA_OWN values of every plan_flowop.attr.  A flowop family's own
 * attributes (iosize, value, ...) are declared by the family next to its
 * code (struct attr_spec, plan/flowop.h) and numbered from PA_OWN up.
 */
enum plan_attr {
	PA_NAME,         /* every flowop: its name as written (see plan_flowop.name) */
	PA_ITERS,        /* every flowop: executions per pass (runtime/engine/thread.c) */
	PA_FILENAME,     /* filename / filesetname: resolved to plan_flowop.fileset */
	PA_FD,           /* the fd slot it works on (runtime/engine/slot.h) */
	PA_INDEXED,      /* the entry it picks (runtime/engine/threadfile.c) */
	PA_WEIGHT,       /* every flowop: its odds as a member of a choice
			    (`define flowop ..., choose`; flowops/choice.c) */
	PA_OWN           /* the first index of a family's own attributes */
};

/*
 * A file or fileset (reference 3.2, 3.3).  A `define file` has is_file
 * set, entries 1, dirwidth 10, dirgamma 0 and no leaf directories.
 * Random attributes (size, dirwidth, dirdepthrv) name a plan randvar
 * (index, -1 for none) sampled once per file or directory at population.
 */
struct plan_fileset {
	const char *name;
	const char *path;        /* parent directory */
	bool is_file;
	uint64_t size;           /* bytes per file (the mean if size_rv >= 0) */
	int size_rv;
	uint64_t entries;        /* files; 1 for a file */
	uint64_t leafdirs;       /* empty leaf directories */
	double dirwidth;         /* mean directory width (0 = not given) */
	int dirwidth_rv;
	int64_t dirgamma;        /* gamma shape x 1000 of depths and widths; 0 = exact */
	int dirdepth_rv;         /* dirdepthrv */
	int prealloc_pct;        /* 0..100; bare `prealloc` = 100 */
	bool reuse;
	bool trusttree;          /* reuse without checking the tree */
	bool paralloc;
	bool readonly;
	bool writeonly;
	/*
	 * `define device`: `path` is a block device itself, its one entry
	 * the region [offset, offset + size) of it; sizes and offsets given
	 * as a percentage of the device are resolved when the device is
	 * opened (runtime/fileset/blkdev.c).  dev_writes: some flowop writes
	 * through it, so running needs --write-device (the compiler sets it).
	 */
	bool is_device;
	bool dev_writes;
	uint64_t dev_size;       /* bytes; 0 = to the device's end */
	double dev_size_pct;     /* > 0: a percentage of the device instead */
	uint64_t dev_offset;     /* bytes */
	double dev_offset_pct;   /* > 0: a percentage of the device instead */
	struct src_loc loc;
};

struct plan_flowop {
	const struct flowop_ops *ops;
	const char *name;
	struct src_loc loc;
	int thread;               /* index into plan.threads */
	int fileset;              /* index into plan.filesets, -1 if none */
	/*
	 * Its attribute values, PV_UNSET where not written: enum plan_attr
	 * first, then its family's own (indexed as its ops' attr_spec table
	 * says).  nattr >= PA_OWN entries, from the plan's arena.
	 */
	struct plan_value *attr;
	int nattr;
	/*
	 * A composite invocation (ops->cls == FLOWOP_CLASS_COMPOSITE) is
	 * followed in the array by its inner flowops, `ndesc` entries in all
	 * (nested composites included); every other flowop has ndesc 0.  A
	 * thread's loop walks only its top-level entries: k += 1 + ndesc.
	 */
	int ndesc;
	int depth;                /* 0 at thread level, 1 inside a composite ... */
	/*
	 * The flowop whose report line this one's statistics join: itself,
	 * or the first flowop of the same name (filebench shows one line per
	 * name, and scripts such as tpcso repeat names on purpose).
	 */
	int line;
};

/* A thread's memory (`memtype`, runtime/engine/threadmem.h). */
enum plan_memtype {
	PLAN_MEM_ANON,            /* base pages (default) */
	PLAN_MEM_THP,             /* transparent huge pages (madvise) */
	PLAN_MEM_HUGETLB,         /* hugetlbfs pages (MAP_HUGETLB) */
};

struct plan_thread {
	const char *name;
	struct src_loc loc;
	int proc;                 /* index into plan.procs */
	uint64_t instances;
	uint64_t memsize;
	enum plan_memtype memtype;
	int ioprio;               /* 0..7, or 8 = leave unchanged */
	int first_flowop;         /* flowops[first_flowop .. + nflowops) */
	int nflowops;
};

/*
 * Per-op logs in fio's formats (runtime/measure/oplog.h, docs/metrics.md
 * "Per-op logs"): a flowbench extension, written by a process's latlog=,
 * bwlog=, iopslog=, histlog= (plan_proc.log) and by run's --log-* options
 * (plan.oplog, every thread instance).  Each kind is the prefix of its
 * files (PREFIX_lat.N.log, ...; NULL: not written): N numbers the run's
 * thread instances from 1 in plan order, as fio numbers its jobs.
 */
enum plan_oplog_kind {
	PLAN_OPLOG_LAT,           /* PREFIX_lat, _clat, _slat: latencies in ns */
	PLAN_OPLOG_BW,            /* PREFIX_bw */
	PLAN_OPLOG_IOPS,          /* PREFIX_iops */
	PLAN_OPLOG_HIST,          /* PREFIX_clat_hist: needs hist_msec */
	PLAN_OPLOG_NKINDS
};

struct plan_oplog {
	const char *prefix[PLAN_OPLOG_NKINDS];
	uint64_t avg_msec;        /* 0: a line per op, else the window's mean (log_avg_msec) */
	uint64_t hist_msec;       /* the histogram log's window (log_hist_msec) */
	int hist_coarseness;      /* 0..6: 2^c of fio's bins summed per column */
	bool offset;              /* an offset column (log_offset) */
	bool shared;              /* one file per kind for every thread instance
				     (fio's per_job_logs=0) */
	struct src_loc loc;       /* where it was asked for (0:0: the command line) */
};

/* Does `l` write any file? */
static inline bool plan_oplog_any(const struct plan_oplog *l)
{
	for (int k = 0; k < PLAN_OPLOG_NKINDS; k++)
		if (l->prefix[k])
			return true;
	return false;
}

struct plan_proc {
	const char *name;
	struct src_loc loc;
	uint64_t instances;
	int nice;
	int first_thread;         /* threads[first_thread .. + nthreads) */
	int nthreads;
	/*
	 * Run phases, a flowbench extension (docs/wml.md 4.3): the process
	 * starts once every thread instance of each process after[0 ..
	 * nafter) has ended (all defined before it), then startdelay_s
	 * later; its threads stop runtime_s after it started (0: only at
	 * the run's end).  `phased` when any of the three was written: its
	 * flowops' rates are then over its own active window.
	 */
	const int *after;
	int nafter;
	double startdelay_s;
	double runtime_s;
	bool phased;
	/* Its per-op logs (latlog=, ...: a flowbench extension); none when no prefix is set. */
	struct plan_oplog log;
};

enum quit_mode {
	QUIT_TIMEOUT,             /* run lasts the `run` time (default) */
	QUIT_FIRSTDONE,
	QUIT_ALLDONE,
};

/* Script-time actions executed in order before the run (echo, ...). */
enum plan_action_kind {
	PLAN_ACTION_ECHO,           /* log `text` */
	PLAN_ACTION_SLEEP,          /* sleep `num` seconds (before the run) */
	PLAN_ACTION_SYSTEM,         /* `text` run by /bin/sh (--allow-system only) */
	PLAN_ACTION_VERSION,        /* log the version */
	PLAN_ACTION_LIST_FILESETS,  /* log the filesets table */
	PLAN_ACTION_LIST_FLOWOPS,   /* log the flowops */
	PLAN_ACTION_QUIT,           /* stop here: exit 0 without running */
};

struct plan_action {
	enum plan_action_kind kind;
	const char *text;
	double num;
	struct src_loc loc;
};

/*
 * Whose rules a run follows where flowbench and filebench differ in how
 * much work is done or what an op is (docs/differences.md, "--compat").
 * flowbench's are the default; `--compat filebench` emulates filebench's
 * so that a number can be compared with one filebench published.
 */
enum plan_semantics {
	PLAN_SEM_FLOWBENCH = 0,
	PLAN_SEM_FILEBENCH = 1,
};

struct plan {
	struct arena arena;       /* owns every string and array below */
	const char *filename;

	struct plan_fileset *filesets;
	int nfilesets;
	struct plan_proc *procs;
	int nprocs;
	struct plan_thread *threads;
	int nthreads;
	struct plan_flowop *flowops;
	int nflowops;
	struct plan_action *actions;
	int nactions;

	struct plan_randvar *randvars;   /* randvar(...), cvar(...), define randvar */
	int nrandvars;

	bool has_run;             /* the script reached `run` or `psrun` */
	double runtime_s;         /* duration of the timed phase; 0 = until done */
	struct src_loc run_loc;
	enum quit_mode quit_mode;
	bool has_phases;          /* some plan_proc.phased: a finish* limit in
				     timeout mode ends its thread, not the run */
	double psrun_period;      /* psrun: snapshot every |period| s; < 0 =
				     interval statistics; 0 = plain run */
	bool lathist;             /* enable lathist: latency histograms */
	struct plan_value eventgen_rate;  /* events/s; PV_UNSET = no eventgen */
	bool eventgen_poisson;    /* `eventgen ..., poisson`: exponential gaps */
	uint64_t seed;            /* --seed: every generator derives from it */
	bool allow_system;        /* --allow-system: `system` may run */
	enum plan_semantics semantics;   /* --compat: plan_use_semantics() */
	/*
	 * run's --log-* options: per-op logs of every thread instance, set
	 * by the command line after compiling (cli/command.c); none when no
	 * prefix is set.
	 */
	struct plan_oplog oplog;

	/*
	 * The devices the command line lets this run write (--write-device)
	 * and those whose data may go (--destroy-data), as written; set by
	 * the command line after compiling, read by runtime/fileset/blkdev.c.
	 */
	const char *const *write_devices;
	int nwrite_devices;
	const char *const *destroy_devices;
	int ndestroy_devices;

	/*
	 * The script's variables as resolved at `run` (-D ones included),
	 * for the results file; both arrays from `arena`, nvars entries.
	 */
	const char **var_names;   /* without the '$' */
	struct plan_value *var_values;
	int nvars;
};

/* A value as a number or a flag, `dflt` when unset (or a string). */
static inline int64_t plan_value_int(const struct plan_value *v, int64_t dflt)
{
	switch (v->kind) {
	case PV_INT:
		return v->u.i;
	case PV_DOUBLE:
		return (int64_t)v->u.d;
	case PV_BOOL:
		return v->u.b;
	default:
		return dflt;
	}
}

static inline bool plan_value_bool(const struct plan_value *v, bool dflt)
{
	switch (v->kind) {
	case PV_BOOL:
		return v->u.b;
	case PV_INT:
		return v->u.i != 0;
	case PV_DOUBLE:
		return v->u.d != 0;
	default:
		return dflt;
	}
}

/*
 * Reading attribute `a` of a flowop (an enum plan_attr, or an index of
 * the flowop's family below plan_flowop.nattr): one array index.
 */
static inline bool plan_attr_given(const struct plan_flowop *f, int a)
{
	return f->attr[a].kind != PV_UNSET;
}

static inline int64_t plan_attr_int(const struct plan_flowop *f, int a,
				    int64_t dflt)
{
	return plan_value_int(&f->attr[a], dflt);
}

static inline bool plan_attr_bool(const struct plan_flowop *f, int a, bool dflt)
{
	return plan_value_bool(&f->attr[a], dflt);
}

void plan_free(struct plan *p);

#endif
