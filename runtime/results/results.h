/*
 * results.h - a run's results as plain data, for the results files.
 *
 * After each run of a session (one per --repeat) the caller adds the
 * merged per-flowop statistics with results_add_run() (and, under
 * flowbench-mpi, every client's part with results_add_clients()); the
 * metadata (command, workload, variables, seed, environment) is filled
 * once.
 * results_aggregate() summarises the runs (mean, stdev, min, max, 95 %
 * confidence interval).  The writers (runtime/results/doc.h) walk
 * this structure only; nothing here knows about JSON or YAML.
 * docs/results-format.md is the schema.
 */
#ifndef FLOWBENCH_RESULTS_H
#define FLOWBENCH_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"
#include "runtime/fileset/cache.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/interval.h"
#include "runtime/measure/stats.h"
#include "runtime/measure/usage.h"

enum res_status { RES_OK, RES_FAILED, RES_INTERRUPTED };

struct comparability;

/*
 * One non-empty bucket of a flowop's latency histogram (hist.h): every
 * latency in [lower_ns, upper_ns] (both inclusive) was counted here.
 */
struct res_bucket {
	uint64_t lower_ns, upper_ns, count;
};

struct res_latency {
	double mean, stdev, min, max;
	double pct[INTERVAL_MAX_PCT];     /* at results.pct[] */
	struct res_bucket *hist;          /* [nhist], ascending, malloc'ed */
	int nhist;
};

/*
 * An asynchronous flowop's figures as fio reports them (its latency_ns
 * is fio's clat; runtime/measure/astats.h has the rest).
 */
struct res_async {
	const char *engine;               /* "io_uring", "libaio", "posixaio" */
	int64_t iodepth;                  /* 0: none */
	struct res_latency slat, lat;     /* submission, total (histograms too) */
	/* fio's distributions, in percent (its 0.1 / 0.01 floors) and counts */
	double depth_pct[ASTATS_MAP_NR], submit_pct[ASTATS_MAP_NR];
	double complete_pct[ASTATS_MAP_NR], latb_pct[ASTATS_LATB_NR];
	uint64_t depth[ASTATS_MAP_NR], submit[ASTATS_MAP_NR];
	uint64_t complete[ASTATS_MAP_NR], latb[ASTATS_LATB_NR];
};

struct res_flowop {
	const char *name;
	const char *type;                 /* "read", "write", ... */
	const char *cls;                  /* "io", "aio", "sync", "composite", "other" */
	const char *rw;                   /* "read", "write", "readwrite", "none" */
	uint64_t ops, bytes, implicit_opens, not_counted;
	uint64_t errors;                  /* failed ops (fo_stats.err summed) */
	uint64_t err[FE_NKINDS];          /* by kind (runtime/measure/stats.h) */
	double ops_per_s, mb_per_s, ms_per_op;
	bool has_latency;                 /* false: no op, no latency block */
	struct res_latency lat;
	struct interval_row *iv;          /* [niv], --interval, else NULL */
	int niv;
	struct res_async *async;          /* results_add_async(); NULL: none */
};

/* The IO Summary line's numbers. */
struct res_summary {
	uint64_t ops;
	double ops_per_s, rd_per_s, wr_per_s, mb_per_s, ms_per_op;
};

/* One client's counts of one report line (a flowop of res_run.flowops). */
struct res_rank_flowop {
	uint64_t ops, bytes, errors;
	bool has_latency;                 /* false: no op, or none sent */
	struct res_latency lat;           /* this client's alone (histogram too) */
};

/* One client (MPI rank) of a run under flowbench-mpi. */
struct res_rank {
	int rank;
	char host[64];
	bool failed;                      /* its run failed or was interrupted */
	char error[256];                  /* why, when failed */
	double start_s, end_s;            /* its measured phase, from the common start */
	double window_s;                  /* end_s - start_s */
	uint64_t ops, bytes, errors;      /* its IO Summary's */
	double ops_per_s;                 /* ops over its own window */
	struct res_rank_flowop *flowops;  /* [results.nflowops], like res_run.flowops */
	int nflowops;
	struct usage_summary usage;       /* its CPU and disks (usage.h); .measured false: none */
	double p50_ns, p99_ns;            /* over all its flowops' latencies */
	bool outlier;                     /* coord_mark_outliers()' rule */
	char outlier_why[96];
};

/* The clients of a run: how they started and were merged, and each one. */
struct res_clients {
	int n;
	double start_skew_s;              /* spread of the clients' starts */
	double clock_error_s;             /* how precisely their clocks were compared */
	double merge_s;                   /* what merging took on the reporter */
	double wait_s;                    /* its wait for the last client, before */
	double lead_s, spread_s;          /* the release's lead, the spread it grew from */
	double late_s;                    /* the latest client's release after the instant */
	double nominal_s;                 /* the run's own length; 0: none (ended early) */
	double window_s;                  /* the common window the merged rates divide by */
	struct res_rank *ranks;           /* [n], rank order */
	struct res_lost {                 /* the clients lost during the run */
		int rank;
		char host[64];
	} *lost;                          /* [nlost] */
	int nlost;
};

/* A process's active window (run phases): its flowops' rates divide by it. */
struct res_phase {
	const char *process;
	bool started;                     /* false: it never started */
	double start_s, end_s;            /* from the release */
	double window_s;
};

struct res_run {
	int index;                        /* 1-based */
	char started[32];                 /* UTC, ISO 8601 */
	double elapsed_s;
	bool partial;                     /* the run failed or was interrupted:
					     results until it stopped */
	struct res_flowop *flowops;       /* [results.nflowops], plan order */
	struct res_summary summary;
	struct res_clients *clients;      /* flowbench-mpi: every client's part; NULL for a plain run */
	struct usage_report usage;        /* CPU and disks of the window (usage.h); this
					     client's only; .measured false: none */

	struct res_phase *phases;         /* run phases: the phased processes' windows */
	int nphases;                      /* 0: no process is phased */
};

/*
 * One quantity over the runs.  Every quantity here (a rate, a latency)
 * is >= 0, so the interval's lower bound is never below 0: where
 * mean - t * stdev / sqrt(n) would be, it is 0 and `ci_clamped` says
 * the runs vary too much for their number to bound the mean below.
 */
struct res_stat {
	double mean, stdev, min, max;
	double ci_lo, ci_hi;              /* 95 % CI of the mean (Student's t) */
	bool ci_clamped;                  /* ci_lo raised to 0 */
};

struct res_agg {
	struct res_stat ops_per_s, mb_per_s, ms_per_op;
};

struct res_var {
	const char *name;
	struct plan_value value;          /* PV_RANDOM: written as a string */
};

struct res_define {
	const char *name, *value;         /* -D as given */
};

struct res_filesystem {
	char *path, *type, *device, *options;
	char magic[24];                   /* statfs f_type, "0x..." */
	char *disk;                       /* the block device's disk ("vda"), NULL: none */
	char *disk_model;                 /* its sysfs model, NULL: unknown */
	int rotational;                   /* 1, 0, -1: unknown */
};

/* A file read to make the workload (an fio job file, an include). */
struct res_file {
	const char *name;                 /* as given (relative to the cwd then) */
	const char *text;                 /* its bytes (caller's) */
	size_t len;
};

/*
 * What a rerun needs besides the workload's text (`flowbench run
 * --again`): the options of the command line that change the run.
 * warmup, interval, percentiles, seed and compat are results fields.
 */
struct res_options {
	bool runtime_given;
	double runtime_s;                 /* --runtime */
	enum cache_mode cache;            /* --cache */
	int repeat;                       /* --repeat */
	bool keep_going, force, allow_system, shared_files;
};

/* The run this one reruns (--again), recorded in its results. */
struct res_rerun_of {
	const char *file;                 /* the results file, as named */
	char results_sha256[65];          /* of its bytes */
	char workload_sha256[65];         /* its workload.sha256 */
	char started[32];                 /* its first run's start */
	int run;                          /* --run N, 0: every run */
	const char *const *overrides;     /* the -D given with --again: "dir" */
	int noverrides;
};

/* A block device a `define device` targets: its identity, from sysfs. */
struct res_device {
	char *path;                       /* as the workload names it */
	char name[64];                    /* the kernel's (loop3, sdb1) */
	char *model, *serial, *scheduler, *write_cache, *backing_file;   /* NULL: none */
	uint64_t size_bytes;
	unsigned logical_block_size, physical_block_size;
	int rotational;                   /* 0, 1; -1 unknown */
	uint64_t queue_depth;             /* queue/nr_requests; 0 unknown */
};

struct res_env {
	char hostname[256];
	char kernel[512];
	long cpus;
	uint64_t memory_bytes;
	const char *clock_source;         /* "tsc" or "monotonic" */
	char kernel_clock[32];            /* the kernel's clocksource after the
					     runs ("tsc", "kvm-clock"...), "" unknown */
	double clock_read_ns;             /* cost of one op-clock read */
	double clock_drift_ppm;           /* TSC against CLOCK_MONOTONIC, the
					     runs' largest; NaN: not measured */
	char cpu_model[128];              /* /proc/cpuinfo's, "" unknown */
	struct cache_report cache;        /* the cache step of the run reported
					     (results_capture_env); text "" without */
	struct res_filesystem *fs;
	int nfs;
	struct res_device *dev;
	int ndev;
};

struct results {
	const char *version;
	char *const *argv;                /* the command line (caller's) */
	int argc;
	enum res_status status;
	char *error;                      /* malloc'ed, NULL when none */

	const char *workload;
	char sha256[65];                  /* hex, "" when unknown */
	const struct res_var *vars;       /* caller's, often from the plan */
	int nvars;
	const struct res_define *defines; /* caller's */
	int ndefines;
	/*
	 * The text compiled (a .f file's bytes, an fio job's WML as
	 * imported) and its kind ("wml", "fio"); NULL: not kept, and
	 * source_omitted says why.  For an fio job, the files read (job
	 * files, includes) and the -D the import took (the WML got the
	 * others).  All the caller's.
	 */
	const char *source_kind;
	const char *source;
	size_t source_len;
	char source_omitted[160];         /* why source is NULL ("": kept) */
	const struct res_file *files;
	int nfiles;
	const char *const *import_defines;
	int nimport_defines;
	const struct res_options *options;     /* NULL: not recorded */
	const struct res_rerun_of *rerun_of;   /* NULL: not a rerun */
	uint64_t seed;
	/* whose rules the runs followed, and where filebench's differed
	   (comparability.h); NULL: not known (written as flowbench's) */
	const struct comparability *compat;
	double warmup_s;                  /* --warmup (0: none) */
	double interval_s;                /* --interval (0: no series) */
	struct res_env env;

	double pct[INTERVAL_MAX_PCT];     /* percentiles reported, e.g. 99.9 */
	int npct;

	int nflowops;
	struct res_run *runs;
	int nruns;

	bool has_aggregate;               /* results_aggregate() with >= 2 runs */
	int agg_runs;                     /* how many: the complete runs */
	struct res_agg *agg;              /* [nflowops] */
	struct res_agg agg_summary;
};

/* The default percentiles: 50 90 95 99 99.9 99.99 (--percentiles: set pct/npct). */
void results_init(struct results *r);
void results_free(struct results *r);

/* The first error of the session (kept if one is already set). */
void results_set_error(struct results *r, enum res_status st,
		       const char *text);

/*
 * Add one completed run: statistics merged per plan flowop (indexed like
 * p->flowops), the time the rates divide by, and when it started
 * (time(NULL)).  0, or -1 when out of memory.
 */
int results_add_run(struct results *r, const struct plan *p,
		    const struct fo_stats *per_flowop, double elapsed_s,
		    int64_t started);

/*
 * Attach an interval series to the run just added: `rows` holds `n`
 * intervals of `nlines` entries each (interval-major, one per report
 * line, like res_run.flowops).  Copied.  0, or -1 when out of memory.
 */
int results_add_intervals(struct results *r, const struct interval_row *rows,
			  int n, int nlines);

/*
 * Attach the clients of a multi-client run (flowbench-mpi, coord.h) to
 * the run just added: each client's counts per report line (indexed like
 * res_run.flowops) from its per-plan-flowop counts.  Copied.  0, or -1
 * when out of memory or no run was added.
 */
struct coord_combined;
int results_add_clients(struct results *r, const struct plan *p,
			const struct coord_combined *c);

/*
 * Attach the asynchronous flowops' figures to the run just added:
 * astats[p->nflowops] as run.h's run_outcome holds them (NULL entries:
 * none), for each report line with ops and a submission latency.
 * Copied.  0, or -1 when out of memory or no run was added.
 */
int results_add_async(struct results *r, const struct plan *p,
		      struct astats *const *astats);
/*
 * l->hist: the histogram's non-empty buckets with their bounds, so that
 * any tool can recompute a percentile or merge runs without knowing
 * hist.h's layout.  0, or -1 when out of memory.
 */
int results_sparse_hist(struct res_latency *l, const struct hist *h);
/* Free what results_add_async() attached to one flowop. */
void results_async_free(struct res_async *a);

/*
 * Attach what the window cost (CPU, disks; usage.h) to the run just
 * added.  Copied.  0, or -1 when out of memory or no run was added.
 */
int results_add_usage(struct results *r, const struct usage_report *u);

/*
 * Run phases: the run just added takes each phased process's window
 * (windows[p->nprocs], text.h), and its flowops' rates are recomputed
 * over their process's window; the summary stays over the run.  0, or
 * -1 when out of memory or no run was added.
 */
struct text_proc_window;
int results_add_phases(struct results *r, const struct plan *p,
		       const struct text_proc_window *windows);

/* Mean, sample stdev, min, max and CI over `n` values >= 0 (n >= 1). */
void results_stat(const double *v, int n, struct res_stat *out);

/*
 * Student's t quantile for a two-sided 95 % interval (p = 0.975) with
 * `dof` degrees of freedom: a table for 1..30, beyond it the
 * Cornish-Fisher expansion around the normal quantile (error < 1e-4).
 */
double results_t975(int dof);

/*
 * Fill agg/agg_summary over the complete runs (a partial last run is left
 * out; needs two complete runs).  0 or -1 (memory).
 */
int results_aggregate(struct results *r);

/* SHA-256 (hex) of `len` bytes into out[65]. */
void results_sha256_hex(const void *data, size_t len, char out[65]);

/*
 * The environment: host, kernel, CPUs, memory, op clock, and for each
 * distinct fileset path its file system (statfs type, mount device and
 * options from /proc/self/mountinfo).  `cache` (may be NULL), `tsc`, the clock's
 * read cost (measured when the run calibrated it) and its largest drift
 * from CLOCK_MONOTONIC over the runs (NaN: not measured) come from the
 * runs.  Never fails: what cannot be read is left empty.
 */
void results_capture_env(struct results *r, const struct plan *p,
			 const struct cache_report *cache, bool tsc, double clock_read_ns,
			 double clock_drift_ppm);

/* "ok", "failed", "interrupted". */
const char *results_status_name(enum res_status st);

#endif
