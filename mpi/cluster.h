/*
 * cluster.h - flowbench-mpi's view of the job: who this client is among
 * the MPI ranks, the communicators it meets the others on, and the hooks
 * it gives the command layer (command.h) and the engine (coord.h).
 *
 * Every rank runs the whole workload on its host (its processes and
 * threads, forked as in a plain run).  MPI is used only by each rank's
 * master, on its main thread, between the engine's steps: never by a
 * worker, never on an op's path.
 */
#ifndef FLOWBENCH_MPI_CLUSTER_H
#define FLOWBENCH_MPI_CLUSTER_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/command.h"
#include "lang/compile.h"
#include "runtime/engine/coord.h"

#define CLUSTER_HOST_MAX 64

/* An event one rank sends every other during the timed phase. */
struct cluster_event {
	int32_t kind;              /* enum coord_event */
	int32_t rank;
	char why[400];
};

/*
 * Which ranks are still there (liveness.c): rank 0 probes, the others
 * answer; a rank that stops answering is lost, and the run ends with the
 * survivors' results.
 */
struct liveness {
	MPI_Comm comm;             /* probes, the roll call, the salvage: errors return */
	bool active;               /* between the release and the end of the merge */
	bool *lost;                /* [nranks] */
	int nlost;
	/* rank 0 */
	uint64_t *due_ns;          /* [nranks]: the outstanding probe's deadline, 0: none */
	MPI_Request *probes, *acks;   /* [nranks] */
	int *ack_in;               /* [nranks] */
	int round_out;
	uint64_t next_round_ns;
	/* the others */
	MPI_Request probe_req, ack_req;
	int probe_in, ack_out;
	uint64_t last_probe_ns;    /* when rank 0 last asked */
};

/* One live reading's merge in flight (share.c). */
struct cluster_merge {
	MPI_Request req;
	struct fo_stats *send, *recv;   /* recv: rank 0's */
	int seq;
};

/* The merges of one kind of live reading (enum coord_reading), in order. */
struct cluster_reading {
	MPI_Comm comm;
	struct cluster_merge *q;   /* [head, tail): started, not yet collected */
	int head, tail, cap;
	int issued;                /* readings shared this run */
	struct fo_stats *done;     /* rank 0: the last one handed out */
};

struct cluster {
	MPI_Comm world;            /* a duplicate of MPI_COMM_WORLD */
	MPI_Comm host;             /* the ranks of this host (shared memory) */
	int rank, nranks;
	int host_rank, host_size;
	char hostname[CLUSTER_HOST_MAX];
	char (*hosts)[CLUSTER_HOST_MAX];   /* [nranks] */
	char origin[128];          /* "rank 2 (node7)" */

	/* the front end's messages on ranks other than 0, shown on failure */
	char *diag_text;
	size_t diag_len;
	FILE *diag;

	bool shared_files;         /* --shared-files: rank 0 prepares, all use */
	double interval_s;         /* --interval (0: none) */
	char **paths;              /* per-rank fileset paths given to the plan */
	int *made;                 /* [npaths]: the parent of a rank directory this
				      rank made (open), or -1 */
	int npaths;

	/* one run's clocks: rank 0's clock = this rank's + offset_ns */
	int64_t offset_ns;
	uint64_t offset_err_ns;    /* this rank's offset is good to within it */
	uint64_t max_err_ns;       /* the worst of all ranks (rank 0) */
	uint64_t lead_ns;          /* rank 0: how far ahead the release was set */
	uint64_t spread_ns;        /* rank 0: the broadcast spread it grew from */
	uint64_t release_target;   /* the common release, rank 0's clock */
	double warmup_s;

	/* one run's events (coord.h poll/tell) */
	bool listening;            /* ev_req posted */
	MPI_Request ev_req;
	struct cluster_event ev_in;
	int received;              /* events received this run */
	bool told;                 /* this rank told the others */
	struct cluster_event ev_out;
	MPI_Request *sends;        /* [nranks] */

	unsigned agreements;       /* agree() calls so far (two per run) */
	struct liveness live;
	struct cluster_reading readings[COORD_READING_COUNT];

	MPI_Datatype stats_type;   /* one struct fo_stats, as bytes */
	MPI_Op merge_op;           /* fo_stats_merge() */
	MPI_Datatype astats_type;  /* one struct astats, as bytes */
	MPI_Op astats_op;          /* astats_merge() */

	struct compile_builtin builtins[COMPILE_NBUILTINS];   /* $rank ... */
	struct run_coord coord;
	struct command_hooks hooks;
};

/*
 * After MPI_Init: who this rank is, its host's ranks, every rank's host
 * name, the merge operation; the hooks filled.  0, or -1 after a message.
 */
int cluster_init(struct cluster *cl);
void cluster_free(struct cluster *cl);

/* The engine's coordinator over MPI (coord.h), for cl->coord. */
extern const struct coord_ops cluster_coord_ops;

/* liveness.c: set up (cluster_init), release (cluster_free). */
void liveness_init(struct cluster *cl);
void liveness_free(struct cluster *cl);
/* From the release on, rank 0 probes and the others answer. */
void liveness_start(struct cluster *cl);
/*
 * Answer or send probes, and find the ranks lost (rank 0: the ranks
 * that stopped answering; the others: rank 0, when it stopped asking).
 * `rounds`: rank 0 starts a new round when one is due.  Returns how many
 * ranks were found lost now (each named in a message).
 */
int liveness_tick(struct cluster *cl, bool rounds);
/* Rank 0: rank `r` is lost, `why`. */
void liveness_lose(struct cluster *cl, int r, const char *why);
/* Rank 0: a probe is still unanswered by a rank not lost. */
bool liveness_pending(const struct cluster *cl);
/* The end of the run: no probe left in flight (when no rank was lost). */
void liveness_stop(struct cluster *cl);
/* After a rank was lost: the survivors leave after rank 0 reported. */
void liveness_farewell(struct cluster *cl);
/* One millisecond's sleep between polls. */
void liveness_nap(void);

/* share.c: the live readings merged during the run (coord.h share/merged). */
void share_init(struct cluster *cl);
void share_free(struct cluster *cl);
/* A run begins: no reading yet. */
void share_reset(struct cluster *cl);
/* The end of a run with every rank there: the numbers evened out, every merge completed. */
void share_settle(struct cluster *cl, int nflowops);
void cluster_share(void *ctx, enum coord_reading kind, const struct fo_stats *st, int n);
const struct fo_stats *cluster_merged(void *ctx, enum coord_reading kind, int *seq);

/*
 * progress.c: an agreement, MPI_MIN of `mine` into `first` over every
 * rank; rank 0 says on stderr what it waits for (`what`: "prepare their
 * files") when it waits long.
 */
int cluster_agree_progress(struct cluster *cl, int *mine, int *first, const char *what);

/* MPI's error `code` as text, for messages. */
const char *cluster_mpi_error(int code, char *buf, int size);

#endif
