/*
 * progress.c - rank 0 says what it waits for at an agreement (coord.h
 * agree), on stderr, at a modest rate.
 *
 * Why: an agreement waits for the slowest rank, and preparing files or
 * dropping a host's cache can take minutes on one rank while rank 0,
 * which speaks for the job, has long been ready: without a word the job
 * looks hung.  Each other rank sends rank 0 one small message as it
 * arrives, so rank 0 can say how many came and which are missing; the
 * agreement itself is a non-blocking MPI_Iallreduce that rank 0 tests
 * between its naps.  Every rank sends exactly one arrival per agreement
 * and rank 0 receives one from each rank before it returns, so none is
 * left for the next one.
 */
#include "mpi/cluster.h"

#include <stdlib.h>

#include "plan/oom.h"
#include "runtime/base/clock.h"
#include "runtime/base/log.h"

#define TAG_ARRIVE 18
#define PROGRESS_FIRST_NS (2 * 1000 * 1000 * 1000ull)    /* quiet when quick */
#define PROGRESS_EVERY_NS (10 * 1000 * 1000 * 1000ull)
#define PROGRESS_NAMED 5        /* missing ranks named at most */

/* The line: how long, what for, how many came, the first missing named. */
static void say_waiting(const struct cluster *cl, const bool *came, int ncame,
		const char *what, double waited)
{
	char names[160] = "";
	size_t len = 0;
	int named = 0;

	for (int r = 1; r < cl->nranks && named < PROGRESS_NAMED; r++) {
		if (came[r])
			continue;
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%d",
					named ? ", " : "", r);
		if (len >= sizeof(names))
			break;
		named++;
	}
	log_stamp(stderr);
	fprintf(stderr, "waiting %.0f s for the other ranks to %s: %d of %d there; "
		"still waiting for rank%s %s%s\n", waited, what, ncame + 1, cl->nranks,
		cl->nranks - 1 - ncame == 1 ? "" : "s", names,
		cl->nranks - 1 - ncame > named ? ", ..." : "");
	fflush(stderr);
}

int cluster_agree_progress(struct cluster *cl, int *mine, int *first, const char *what)
{
	MPI_Request rq, arrive = MPI_REQUEST_NULL, *arrivals;
	int one = 1, done = 0, ncame = 0, *words;
	bool *came;
	uint64_t t0 = clock_now_ns(), next = t0 + PROGRESS_FIRST_NS;

	if (cl->rank != 0) {
		/* non-blocking as on rank 0: a blocking collective does not match it */
		MPI_Isend(&one, 1, MPI_INT, 0, TAG_ARRIVE, cl->world, &arrive);
		MPI_Iallreduce(mine, first, 1, MPI_INT, MPI_MIN, cl->world, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Wait(&arrive, MPI_STATUS_IGNORE);
		return 0;
	}
	came = xcalloc((size_t)cl->nranks, sizeof(*came));
	/*
	 * One receive per rank: a rank may finish this agreement and send
	 * its arrival at the next one before rank 0 saw this one complete;
	 * a receive from that rank matches its earliest arrival only.
	 */
	arrivals = xcalloc((size_t)cl->nranks, sizeof(*arrivals));
	words = xcalloc((size_t)cl->nranks, sizeof(*words));
	for (int r = 1; r < cl->nranks; r++)
		MPI_Irecv(&words[r], 1, MPI_INT, r, TAG_ARRIVE, cl->world, &arrivals[r - 1]);
	MPI_Iallreduce(mine, first, 1, MPI_INT, MPI_MIN, cl->world, &rq);
	for (;;) {
		int flag = 0, idx = MPI_UNDEFINED;

		if (ncame < cl->nranks - 1) {
			MPI_Testany(cl->nranks - 1, arrivals, &idx, &flag, MPI_STATUS_IGNORE);
			if (flag && idx != MPI_UNDEFINED) {
				came[idx + 1] = true;
				ncame++;
				continue;
			}
		}
		if (!done)
			MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (done && ncame == cl->nranks - 1)
			break;
		if (!done && clock_now_ns() >= next) {
			say_waiting(cl, came, ncame, what, (double)(clock_now_ns() - t0) / 1e9);
			next += PROGRESS_EVERY_NS;
		}
		liveness_nap();
	}
	free(arrivals);
	free(words);
	free(came);
	return 0;
}
