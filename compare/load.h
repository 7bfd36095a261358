/*
 * load.h - a flowbench results file (docs/results-format.md) read back
 * for `flowbench compare` and `flowbench report`: the numbers they use as
 * C structs, the rest of the document as jansson's tree (the HTML header
 * prints the environment whatever keys it has).
 */
#ifndef FLOWBENCH_COMPARE_LOAD_H
#define FLOWBENCH_COMPARE_LOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "compare/nameidx.h"
#include "plan/arena.h"

/* The only `format` this reader knows. */
#define RF_FORMAT "flowbench-results/1"

struct rf_point {              /* one latency percentile */
	double pct;            /* 50, 99.9, ... */
	double ns;
};

struct rf_interval {
	double t_s;
	double ops_per_s;
	double mb_per_s;
	double p50_ns, p99_ns;  /* its latency percentiles; NaN without */
};

/* One flowop in one run. */
struct rf_flowop {
	const char *name;      /* in the document's arena (or its root) */
	int occurrence;        /* 0, or k for the k-th repeat of the name */
	double ops;
	double ops_per_s;
	double mb_per_s;
	double ms_per_op;      /* latency mean; NaN without latency_ns */
	/* fio's submission and total latency means (its "slat_ns" and
	   "lat_ns": an fio file's, or a flowbench file's "async" block's),
	   in ms; NaN when absent */
	double slat_ms_per_op, lat_ms_per_op;
	struct rf_point *pcts; /* ascending percentile */
	int npcts;
	/* latency_ns: its extremes (NaN when absent) and its "histogram" of
	   [lower_ns, upper_ns, count] (NULL when absent; kept in
	   rf_doc.kept): for the report, or for percentiles over merged runs */
	double min_ns, max_ns;
	const json_t *histogram;
	/* an asynchronous flowop's "async" block (NULL when absent), and
	   fio's submission and completion latency at p50 and p99 (from it,
	   or an fio file's slat_ns and clat_ns; NaN without) */
	const json_t *async;
	double slat_p50_ns, slat_p99_ns, clat_p50_ns, clat_p99_ns;
	struct rf_interval *iv;
	int niv;
};

struct rf_summary {
	double ops_per_s;
	double mb_per_s;
	double ms_per_op;
	/* what the window cost (the run's "usage"; NaN when absent): the
	   workers' usr+sys as % of one CPU, their CPU per op of the IO
	   Summary in µs, and the busiest fileset device's utilisation */
	double cpu_pct;
	double cpu_us_per_op;
	double disk_util_pct;
};

/* One process's (or the workers' summed) CPU over the window; NaN when absent. */
struct rf_cpu {
	double usr_pct, sys_pct;   /* 100 = one CPU busy all the window */
	double cpu_s;              /* usr_s + sys_s */
	double ctx, majf, minf;
};

/* A device under the filesets, as the run's "usage.disks" names it. */
struct rf_disk {
	const char *name;      /* in the document's arena; "" when absent */
	const char *on;        /* a partition's disk, a dm/md device's parts; "" */
	bool found;            /* false: not in /proc/diskstats at both ends */
	double read_ios, write_ios, util_pct;
};

/* A fileset directory on no block device ("usage.no_block_device"). */
struct rf_nodev {
	const char *dir;       /* in the document's arena; "" when absent */
	const char *fstype;
};

/*
 * A run's "usage" for the report; measured false when the run has none
 * (a file written before flowbench recorded it, a run that never
 * started): then it reads "not measured", never 0.
 */
struct rf_usage {
	bool measured;
	struct rf_cpu workers;     /* every worker instance, summed */
	struct rf_cpu master;
	struct rf_disk *disks;     /* [ndisks], malloc'ed */
	int ndisks;
	struct rf_nodev *nodev;    /* [nnodev], malloc'ed */
	int nnodev;
};

/* Ops/s over a run's ranks, and the slowest rank. */
struct rf_spread {
	int n;                           /* ranks with a rate */
	double min, median, max;
	int slowest;                     /* index into rf_run.ranks; -1 when n == 0 */
};

/* One client of a flowbench-mpi run (its "ranks" entry). */
struct rf_rank {
	int rank;
	const char *host;      /* in the document's arena; "" when absent */
	bool failed;
	const char *error;     /* "" when absent */
	double window_s;       /* NaN when absent, like every number here */
	double ops_per_s;
	double errors;
	/* its own "usage" (usage_measured false when absent): its workers'
	   usr+sys %, its busiest device's util %, and how many devices it
	   lists of how many it had (disks_total > ndisks: the rest cut) */
	bool usage_measured;
	double cpu_pct;
	double disk_util_pct;
	int ndisks, disks_total;
};

struct rf_run {
	int index;
	bool partial;          /* stopped by an error or an interrupt */
	const char *started;   /* "" when absent */
	double elapsed_s;
	struct rf_flowop *flowops;
	int nflowops;
	struct nameidx byname;  /* flowops by name and occurrence -> position */
	struct rf_summary summary;
	struct rf_usage usage;  /* the window's CPU and disks, for the report */
	struct rf_rank *ranks;  /* flowbench-mpi: its "ranks", in file order; else NULL */
	int nranks;
	struct rf_spread spread;  /* of the ranks' ops/s (n == 0 without ranks) */
};

struct rf_doc {
	const char *path;
	json_t *root;          /* owned; its "runs" empty: each run was read
				  into runs[] as it came, and dropped */
	struct arena arena;    /* the runs' strings */
	json_t *kept;          /* the runs' blocks still pointed at
				  (histogram, async), or NULL */
	const char *workload;  /* workload.file, "" when absent */
	const char *status;    /* "" when absent */
	const char *compat;    /* whose rules it ran by (--compat): "flowbench"
				  when absent (files written before --compat) */
	/* the tool that measured it ("source"): "flowbench" when absent, or
	   "fio" for fio's JSON output, with its version ("fio-3.33") and
	   output format ("json", "json+"), "" when absent; what the reader
	   could not keep of it (an array of strings, NULL when none) */
	const char *tool, *tool_version, *tool_format;
	const json_t *notes;
	/* what makes two files comparable (compare's warnings; the HTML
	   report may show them): pointers into root, "" or NULL when absent */
	const char *sha256;    /* workload.sha256 */
	const json_t *variables;   /* workload.variables (an object) */
	const char *kernel;    /* environment.kernel */
	const char *clock_source;  /* environment.clock.source ("tsc", "monotonic") */
	double clock_drift_ppm;    /* environment.clock.drift_ppm; NaN when absent or null */
	const char *kernel_clock;  /* environment.clock.kernel_source: the kernel's, when written */
	const json_t *filesystems; /* environment.filesystems (an array) */
	/* environment.cache.state: "cold", "warm", "keep"; from a file
	   written before it was a map, "keep" for its "warm (not flushed)",
	   else "cold"; "" when absent (fio) */
	const char *cache_state;
	double cache_resident_pct; /* environment.cache.resident_pct of a warm
				      fill, NaN when absent or not in 0..100 */
	bool partial;          /* status not "ok", or a run with "partial" */
	struct rf_run *runs;
	int nruns;
};

/*
 * Read and check `path`.  On error prints "flowbench: error: PATH: what is wrong"
 * to `err` and returns -1 (doc is then empty; rf_free is still safe).
 */
int rf_load(const char *path, struct rf_doc *doc, FILE *err);
void rf_free(struct rf_doc *doc);

/*
 * Show flowop k of `run` under another name (a copy kept with the
 * document) and index the run again; `why`, when given, is added once to
 * the document's notes.  For a file of another tool whose rows match
 * flowbench's under other names (compare/tools.c).  0, or -1 when out
 * of memory.
 */
int rf_rename_flowop(struct rf_doc *doc, struct rf_run *run, int k, const char *name,
		     const char *why);

/* A flowop across runs and files: the occurrence-th one named `name`. */
struct rf_key {
	const char *name;
	int occurrence;
};

/*
 * Every flowop of every run of every file, in order of first sight
 * (malloc'ed, *nkeys set); NULL when out of memory.  O(n log n) in the
 * number of flowops.
 */
struct rf_key *rf_keys(const struct rf_doc *docs, int ndocs, int *nkeys);

/* The flowop of `run` with this name and occurrence, or NULL.  O(log n). */
const struct rf_flowop *rf_find(const struct rf_run *run, const char *name,
				int occurrence);

#endif
