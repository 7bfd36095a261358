/*
 * share.c - the live readings of a run (psrun's snapshots, --interval's
 * intervals), merged over the ranks while the run goes on.
 *
 * Each reading is one MPI_Ireduce to rank 0 with fo_stats_merge() as the
 * operation, the same exact merge as the end of the run, started when the
 * rank takes the reading and completed when its master next polls: no
 * rank ever waits for another during the run.  A tree reduction moves on
 * at each rank's poll (every 100 ms), so a merged line is printed about
 * depth x 100 ms after its reading, in order.  Each kind has its own
 * communicator: the ranks take their readings of one kind in the same
 * order, but a late poll can take a snapshot and an interval in either
 * order, and non-blocking collectives on one communicator must be
 * started in the same order everywhere.  The ranks need not take the
 * same number of readings (one that stopped a moment early takes one
 * fewer): at the end the missing ones are started empty, so that every
 * reduction completes.
 */
#include "mpi/cluster.h"

#include <stdlib.h>
#include <string.h>

#include "plan/oom.h"

void share_init(struct cluster *cl)
{
	for (int k = 0; k < COORD_READING_COUNT; k++)
		MPI_Comm_dup(cl->world, &cl->readings[k].comm);
}

/* Forget the merges of kind `r` (all complete, or abandoned with a lost rank). */
static void drop_all(struct cluster_reading *r)
{
	for (int i = r->head; i < r->tail; i++) {
		free(r->q[i].send);
		free(r->q[i].recv);
	}
	free(r->done);
	r->done = NULL;
	r->head = r->tail = 0;
}

void share_free(struct cluster *cl)
{
	for (int k = 0; k < COORD_READING_COUNT; k++) {
		drop_all(&cl->readings[k]);
		free(cl->readings[k].q);
		if (!cl->live.nlost)
			MPI_Comm_free(&cl->readings[k].comm);
	}
}

void share_reset(struct cluster *cl)
{
	for (int k = 0; k < COORD_READING_COUNT; k++) {
		drop_all(&cl->readings[k]);
		cl->readings[k].issued = 0;
	}
}

void cluster_share(void *ctx, enum coord_reading kind, const struct fo_stats *st, int n)
{
	struct cluster *cl = ctx;
	struct cluster_reading *r = &cl->readings[kind];
	struct cluster_merge *e;

	if (r->head == r->tail)
		r->head = r->tail = 0;
	if (r->tail == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->q = xrealloc(r->q, (size_t)r->cap * sizeof(*r->q));
	}
	e = &r->q[r->tail++];
	e->seq = r->issued++;
	e->send = xcalloc((size_t)n + 1, sizeof(*e->send));
	memcpy(e->send, st, (size_t)n * sizeof(*st));
	e->recv = cl->rank == 0 ? xcalloc((size_t)n + 1, sizeof(*e->recv)) : NULL;
	MPI_Ireduce(e->send, e->recv, n, cl->stats_type, cl->merge_op, 0, r->comm, &e->req);
}

const struct fo_stats *cluster_merged(void *ctx, enum coord_reading kind, int *seq)
{
	struct cluster *cl = ctx;
	struct cluster_reading *r = &cl->readings[kind];

	free(r->done);
	r->done = NULL;
	while (r->head < r->tail) {
		struct cluster_merge *e = &r->q[r->head];
		int done = 0;

		MPI_Test(&e->req, &done, MPI_STATUS_IGNORE);
		if (!done)
			return NULL;
		r->head++;
		free(e->send);
		if (cl->rank == 0) {
			r->done = e->recv;
			*seq = e->seq;
			return r->done;
		}
	}
	return NULL;
}

void share_settle(struct cluster *cl, int nflowops)
{
	struct fo_stats *empty = xcalloc((size_t)nflowops + 1, sizeof(*empty));

	for (int i = 0; i < nflowops; i++)
		fo_stats_init(&empty[i]);
	for (int k = 0; k < COORD_READING_COUNT; k++) {
		struct cluster_reading *r = &cl->readings[k];
		int most = 0;

		MPI_Allreduce(&r->issued, &most, 1, MPI_INT, MPI_MAX, cl->world);
		while (r->issued < most)
			cluster_share(cl, (enum coord_reading)k, empty, nflowops);
		for (int i = r->head; i < r->tail; i++)
			MPI_Wait(&r->q[i].req, MPI_STATUS_IGNORE);
		drop_all(r);
	}
	free(empty);
}
