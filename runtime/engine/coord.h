/*
 * coord.h - the points where one run agrees with the same run on other
 * clients.
 *
 * flowbench-mpi starts the workload on N clients (MPI ranks, mpi/); each
 * runs the whole engine on its host, and the engine calls these hooks
 * where the clients must meet: after every client prepared its files,
 * for the cache step (one client per host drops the host's cache), for
 * one common release instant, while the timed phase runs (another
 * client failed, or ended the run), and at the end, where the
 * statistics of every client are combined into one result.  The engine
 * owns this contract, as it owns the flowop contract; mpi/ implements
 * it.  A plain run has no coordinator (run_options.coord == NULL) and
 * never calls one.
 *
 * Every hook runs on the master's main thread, between the engine's own
 * steps; none is on an op's path.
 */
#ifndef FLOWBENCH_COORD_H
#define FLOWBENCH_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"
#include "runtime/measure/stats.h"
#include "runtime/measure/usage.h"

/* What coord_ops.poll() saw, and what coord_ops.tell() says. */
enum coord_event {
	COORD_EVENT_NONE,
	COORD_EVENT_STOP,   /* a client's run ended early normally (firstdone, finish*) */
	COORD_EVENT_ABORT,  /* a client failed or was interrupted */
};

/* A live reading shared during the run (coord_ops.share). */
enum coord_reading {
	COORD_READING_SNAPSHOT,  /* psrun's: cumulative, or since the last one */
	COORD_READING_INTERVAL,  /* --interval's: one interval's statistics */
	COORD_READING_COUNT
};

/* Whose files a client uses (coord_ops.files). */
enum coord_files {
	COORD_FILES_OWN,          /* its own: prepared here (each rank its directory) */
	COORD_FILES_PREPARE,      /* the shared ones: this client prepares them */
	COORD_FILES_ATTACH,       /* the shared ones another client prepared */
};

/*
 * One client's latency on one report line, compact: its op counters and
 * the non-empty buckets of its histogram (coordlat.c), so that the
 * reporter keeps every client's histograms without 37 KB per flowop each.
 */
struct coord_lat {
	uint64_t count, sum_ns, min_ns, max_ns;
	uint64_t sumsq_lo, sumsq_hi;   /* the histogram's exact sum of squares */
	uint64_t nb;                   /* non-empty buckets */
	const uint64_t *b;             /* [2 * nb]: bucket index, count (ascending) */
};

/* One client's part of the run, as the reporting client learns it. */
struct run_client {
	int rank;
	char host[64];
	bool failed;                 /* its run failed or was interrupted */
	char error[256];             /* why, when failed */
	double start_s, end_s;       /* its measured phase, in seconds from the
					common start (the reporter's clock) */
	uint64_t ops, bytes, errors; /* over all its flowops (IO Summary) */
	uint64_t *fo_ops;            /* [nflowops]: ops per flowop */
	uint64_t *fo_bytes;          /* [nflowops] */
	uint64_t *fo_errors;         /* [nflowops] */
	struct usage_summary usage;  /* what the window cost it (usage.h) */
	struct coord_lat *lat;      /* [nflowops] its latency per flowop (the
					line's entry holds the line), or NULL */
	/* over all its flowops' latencies (coord_mark_outliers()) */
	double p50_ns, p99_ns;
	bool outlier;                /* beyond the robust bound (docs/distributed.md) */
	char outlier_why[96];        /* "p99 3.2 ms > bound 1.1 ms", when outlier */
};

struct text_proc_window;   /* runtime/measure/text.h */

/* Run phases: one process's window on a client's clock (0, 0: never started). */
struct coord_phase {
	uint64_t start_ns, end_ns;
};

/*
 * Run phases: the windows of spans `sp` ([p->nprocs], times on one
 * clock) in seconds from the release `release_ns`; the rates' part is
 * the span's within the measured phase (from `start_ns`, after any
 * warm-up).  NULL when sp is NULL (or out of memory); free() it.
 */
struct text_proc_window *coord_phase_windows(const struct plan *p,
					     const struct coord_phase *sp,
					     uint64_t release_ns, uint64_t start_ns);

/* What this client brings to coord_ops.combine(). */
struct astats;

struct coord_local {
	struct fo_stats *sum;        /* [nflowops + 3], as shared_sum_stats() left it */
	int n;                       /* nflowops + 3 */
	uint64_t release_ns;         /* this client's clock: the release */
	double runtime_s;            /* the run's nominal length (0: none) */
	uint64_t start_ns;           /* the measured phase: start .. end */
	uint64_t end_ns;
	bool failed;
	const char *error;           /* why, or NULL */
	/* --interval: each interval's statistics, [niv * (n - 3)] (sampler.h) */
	bool series;
	const struct fo_stats *iv_stats;
	int niv;
	const struct usage_report *usage;   /* CPU and disks of the window, or NULL */

	/* run phases: [plan nprocs], within start .. end; NULL without them */
	const struct coord_phase *phases;
	/*
	 * [plan nflowops]: the merged extension block of each report line
	 * whose flowops split their latency (runtime/measure/astats.h), as
	 * shared_sum_astats() left them, NULL elsewhere (or NULL as a whole:
	 * none, or out of memory).  combine() merges every client's into
	 * them on the reporting client when it can (coord_combined's
	 * astats_merged); a client without them adds nothing.
	 */
	struct astats *const *astats;
};

/* What combine() leaves on the reporting client. */
struct coord_combined {
	double elapsed_s;            /* the common window the rates divide by */
	double skew_s;               /* spread of the clients' actual starts */
	double skew_error_s;         /* how precisely the clocks were compared */
	double merge_s;              /* what combining took on the reporter, once
					every client had come */
	double wait_s;               /* the reporter's wait for the last client
					to end its run, before the merge */
	double lead_s;               /* how far ahead the release was set */
	double spread_s;             /* the measured spread the lead grew from */
	double nominal_s;            /* the run's own length (runtime), 0: none or
					it ended early; the window's error is
					elapsed_s - nominal_s */
	double late_s;               /* the latest client's actual release after
					the common instant (0: none late) */
	bool failed;                 /* a client failed: the result is partial */
	bool lost_any;               /* a client was lost (every survivor knows):
					the run failed, even if a signal (the
					launcher's, after the loss) ended it */
	char error[512];             /* the first client failure, named */
	struct run_client *clients;  /* [nclients], rank order; malloc'ed */
	int nclients;
	struct run_client *lost;     /* [nlost]: the clients lost during the run
					(rank and host only); malloc'ed */
	int nlost;
	uint64_t *counts;            /* malloc'ed block the clients' fo_* point into */
	struct coord_lat *lats;     /* malloc'ed: the clients' lat point into it */
	uint64_t *lat_block;         /* malloc'ed: their buckets */
	/* --interval: the job's series, [niv * nflowops], interval k merged */
	struct fo_stats *iv_stats;
	int niv;
	/*
	 * Run phases: each process's window over the clients, [earliest
	 * start, latest end], from the common release ([plan nprocs],
	 * malloc'ed); NULL without them.
	 */
	struct text_proc_window *windows;
	/* coord_local.astats holds every client's blocks, merged */
	bool astats_merged;
};

struct coord_ops {
	/*
	 * Every client reaches this point of the run; `ok` says whether this
	 * one got here without an error.  0 when every client did; -1 when
	 * one did not (then every client abandons the run; the coordinator
	 * names the client that failed).  Blocks until every client came.
	 */
	int (*agree)(void *ctx, bool ok);
	/*
	 * Whose files this client uses.  With shared files, the preparing
	 * client makes them before the first agree() and the others use
	 * them after it (runtime/fileset/fileset.h: attach, share).
	 */
	enum coord_files (*files)(void *ctx);
	/* This client drops its host's cache for every client of the host. */
	bool (*host_leader)(void *ctx);
	/* The host leader's `value` (whether it dropped the cache), on every client of the host. */
	bool (*host_share)(void *ctx, bool value);
	/*
	 * After an agree() that succeeded with every thread of every client
	 * waiting: the common release instant, on this client's
	 * CLOCK_MONOTONIC, and when this client reaches it (it may be in the
	 * past).  0, or -1 (the run abandoned).
	 */
	int (*release_at)(void *ctx, uint64_t *release_ns);
	/*
	 * During the timed phase: COORD_EVENT_NONE, or what another client
	 * said, with `why`.
	 */
	enum coord_event (*poll)(void *ctx, char *why, size_t size);
	/*
	 * This client's run ended early (COORD_EVENT_STOP) or failed
	 * (COORD_EVENT_ABORT, `why`).
	 */
	void (*tell)(void *ctx, enum coord_event ev, const char *why);
	/*
	 * The end, on every client that passed release_at(): combine every
	 * client's statistics.  Returns 1 on the reporting client, whose
	 * mine->sum then holds the sum over all clients and `out` the rest;
	 * 0 on the others, where only out->failed is set (a client failed:
	 * every client ends the run, and the session, the same way); -1
	 * when the combination failed (after a message).
	 */
	int (*combine)(void *ctx, const struct plan *p, const struct coord_local *mine,
		       struct coord_combined *out);
	/*
	 * While this client waits for its workers to stop (the end of the
	 * run): the coordinator keeps hearing and answering the others, so
	 * that a client slow to stop is not taken for a lost one.
	 */
	void (*keepalive)(void *ctx);
	/*
	 * During the timed phase: this client's live reading of `kind`, `n`
	 * statistics (one per flowop), merged with the other clients'
	 * reading of the same kind and number without waiting for them.
	 * Every client shares its readings of a kind in order; they need not
	 * make the same number (combine() evens them out).
	 */
	void (*share)(void *ctx, enum coord_reading kind, const struct fo_stats *st, int n);
	/*
	 * The oldest merged reading of `kind` now complete: its number
	 * (0, 1, ...) in *seq and its statistics, valid until the next call,
	 * on the reporting client; NULL when none is (always, on the
	 * others).  Every client calls it while the run goes on: the merges
	 * progress there.
	 */
	const struct fo_stats *(*merged)(void *ctx, enum coord_reading kind, int *seq);
};

struct run_coord {
	const struct coord_ops *ops;
	void *ctx;
};

/*
 * coordlat.c: a client's latencies in the compact form.  The words
 * coord_lat_encode() writes for `nf` flowop statistics (out NULL: just
 * count them).
 */
size_t coord_lat_encode(const struct fo_stats *sum, int nf, uint64_t *out);
/* `nf` entries from the words at `in` (coord_lat_encode's); the words read. */
size_t coord_lat_decode(const uint64_t *in, size_t nwords, int nf, struct coord_lat *out);
/* *s = the statistics of one compact latency (op counters, histogram). */
void coord_lat_stats(const struct coord_lat *l, struct fo_stats *s);
/*
 * Each client's p50 and p99 over all its flowops, and the outliers: a
 * client whose p99 is above, or whose ops/s is below, the clients'
 * median by more than the robust bound max(3 x 1.4826 x MAD, 10 % of
 * the median); with at least 3 clients.
 */
void coord_mark_outliers(const struct plan *p, struct coord_combined *c);

/* Release what combine() left in `c`. */
void coord_combined_free(struct coord_combined *c);

/* A client's ops/s over its own window. */
double coord_client_rate(const struct run_client *c);

/*
 * The reporting client's lines after the report: how many clients, the
 * start skew, ops/s per client (min, median, max, the slowest named),
 * and a row per host.
 */
void coord_print_clients(FILE *out, const struct plan *p,
			 const struct coord_combined *c);

#endif
