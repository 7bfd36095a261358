/*
 * liveness.c - which ranks are still there, from the release to the end
 * of the merge.
 *
 * A rank killed outright (SIGKILL, the OOM killer, its host gone) says
 * nothing, and a collective that waits for it never returns.  Launchers
 * differ in what they do next: MPICH's hydra kills every rank at once;
 * Open MPI's mpirun sends the survivors SIGCONT at once, SIGTERM a
 * second later and SIGKILL a second after that; srun without
 * --kill-on-bad-exit, or mpirun --enable-recovery, lets them run on.
 * So rank 0 asks: every PROBE_PERIOD_NS it sends each rank a probe, and
 * a rank that has not answered PROBE_TIMEOUT_NS later is lost.  SIGCONT,
 * Open MPI's notice, starts a round at once with the short
 * PROBE_URGENT_NS timeout, so that the survivors' results are merged and
 * printed before the SIGKILL.  A rank answers probes whenever its master
 * polls (every 100 ms in the timed phase, every 10 ms while its workers
 * stop, every millisecond at the end).
 *
 * The probes travel on their own communicator, whose errors return
 * instead of aborting: a message to a dead rank must not end the job
 * before its survivors reported.
 */
#include "mpi/cluster.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan/oom.h"
#include "runtime/base/clock.h"
#include "runtime/base/log.h"

#define MS_NS (1000 * 1000ull)
#define PROBE_PERIOD_NS (1000 * MS_NS)
#define PROBE_TIMEOUT_NS (3000 * MS_NS)
#define PROBE_URGENT_NS (400 * MS_NS)
/* the others: rank 0 is lost when it has not asked for this long */
#define ROOT_SILENT_NS (PROBE_PERIOD_NS + PROBE_TIMEOUT_NS + 2000 * MS_NS)

#define TAG_PROBE 21
#define TAG_ACK 22

/*
 * Set by the SIGCONT handler (a signal handler can reach nothing else);
 * consumed by the next liveness_tick() on rank 0.
 */
static volatile sig_atomic_t cont_seen;

static void on_sigcont(int sig)
{
	(void)sig;
	cont_seen = 1;
}

void liveness_init(struct cluster *cl)
{
	struct liveness *lv = &cl->live;

	MPI_Comm_dup(cl->world, &lv->comm);
	MPI_Comm_set_errhandler(lv->comm, MPI_ERRORS_RETURN);
	lv->lost = xcalloc((size_t)cl->nranks, sizeof(*lv->lost));
	lv->due_ns = xcalloc((size_t)cl->nranks, sizeof(*lv->due_ns));
	lv->acks = xcalloc((size_t)cl->nranks, sizeof(*lv->acks));
	lv->ack_in = xcalloc((size_t)cl->nranks, sizeof(*lv->ack_in));
	lv->probes = xcalloc((size_t)cl->nranks, sizeof(*lv->probes));
	lv->probe_req = MPI_REQUEST_NULL;
	lv->ack_req = MPI_REQUEST_NULL;
	if (cl->rank == 0) {
		struct sigaction sa = { .sa_handler = on_sigcont, .sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGCONT, &sa, NULL);
	}
}

void liveness_free(struct cluster *cl)
{
	struct liveness *lv = &cl->live;

	free(lv->lost);
	free(lv->due_ns);
	free(lv->acks);
	free(lv->ack_in);
	free(lv->probes);
	if (lv->nlost == 0)
		MPI_Comm_free(&lv->comm);
}

void liveness_start(struct cluster *cl)
{
	struct liveness *lv = &cl->live;

	for (int r = 0; r < cl->nranks; r++) {
		lv->acks[r] = MPI_REQUEST_NULL;
		lv->probes[r] = MPI_REQUEST_NULL;
	}
	lv->active = true;
	lv->next_round_ns = clock_now_ns();
	lv->last_probe_ns = lv->next_round_ns;
	if (cl->rank != 0)
		MPI_Irecv(&lv->probe_in, 1, MPI_INT, 0, TAG_PROBE, lv->comm, &lv->probe_req);
}

/* A rank other than 0: answer the probe that came, listen for the next. */
static void answer(struct cluster *cl)
{
	struct liveness *lv = &cl->live;
	int done = 0;

	if (lv->probe_req == MPI_REQUEST_NULL)
		return;
	MPI_Test(&lv->probe_req, &done, MPI_STATUS_IGNORE);
	if (!done)
		return;
	lv->last_probe_ns = clock_now_ns();
	MPI_Wait(&lv->ack_req, MPI_STATUS_IGNORE);     /* the last answer, long gone */
	lv->ack_out = lv->probe_in;
	MPI_Isend(&lv->ack_out, 1, MPI_INT, 0, TAG_ACK, lv->comm, &lv->ack_req);
	MPI_Irecv(&lv->probe_in, 1, MPI_INT, 0, TAG_PROBE, lv->comm, &lv->probe_req);
}

/* Its probe is given up: sends to a lost rank may never end. */
void liveness_lose(struct cluster *cl, int r, const char *why)
{
	struct liveness *lv = &cl->live;

	lv->lost[r] = true;
	lv->nlost++;
	lv->due_ns[r] = 0;
	if (lv->acks[r] != MPI_REQUEST_NULL) {
		MPI_Cancel(&lv->acks[r]);
		MPI_Request_free(&lv->acks[r]);
	}
	if (lv->probes[r] != MPI_REQUEST_NULL)
		MPI_Request_free(&lv->probes[r]);
	log_warn("rank %d (%s) %s: taken as lost", r, cl->hosts[r], why);
}

/* Rank 0: probe rank `r`, which must answer by `due`. */
static void ask(struct cluster *cl, int r, uint64_t due)
{
	struct liveness *lv = &cl->live;

	lv->round_out = 1;
	MPI_Isend(&lv->round_out, 1, MPI_INT, r, TAG_PROBE, lv->comm, &lv->probes[r]);
	MPI_Irecv(&lv->ack_in[r], 1, MPI_INT, r, TAG_ACK, lv->comm, &lv->acks[r]);
	lv->due_ns[r] = due;
}

int liveness_tick(struct cluster *cl, bool rounds)
{
	struct liveness *lv = &cl->live;
	uint64_t now = clock_now_ns();
	bool urgent = false;
	int newly = 0;

	if (!lv->active)
		return 0;
	if (cl->rank != 0) {
		answer(cl);
		if (lv->lost[0] || now < lv->last_probe_ns + ROOT_SILENT_NS)
			return 0;
		lv->lost[0] = true;
		lv->nlost++;
		log_error("rank 0 (%s) stopped asking for %.0f s: lost; "
			  "no rank can report the merged results", cl->hosts[0],
			  (double)ROOT_SILENT_NS / 1e9);
		return 1;
	}
	if (cont_seen) {
		cont_seen = 0;
		urgent = true;
	}
	for (int r = 1; r < cl->nranks; r++) {
		int done = 0;

		if (lv->lost[r] || !lv->due_ns[r])
			continue;
		MPI_Test(&lv->acks[r], &done, MPI_STATUS_IGNORE);
		if (done) {
			MPI_Wait(&lv->probes[r], MPI_STATUS_IGNORE);
			lv->due_ns[r] = 0;
		} else if (now >= lv->due_ns[r]) {
			liveness_lose(cl, r, "did not answer a probe in time");
			newly++;
		} else if (urgent && lv->due_ns[r] > now + PROBE_URGENT_NS) {
			lv->due_ns[r] = now + PROBE_URGENT_NS;
		}
	}
	if (urgent || (rounds && now >= lv->next_round_ns)) {
		uint64_t due = now + (urgent ? PROBE_URGENT_NS : PROBE_TIMEOUT_NS);

		for (int r = 1; r < cl->nranks; r++)
			if (!lv->lost[r] && !lv->due_ns[r])
				ask(cl, r, due);
		lv->next_round_ns = now + PROBE_PERIOD_NS;
	}
	return newly;
}

bool liveness_pending(const struct cluster *cl)
{
	for (int r = 1; cl->rank == 0 && r < cl->nranks; r++)
		if (!cl->live.lost[r] && cl->live.due_ns[r])
			return true;
	return false;
}

void liveness_stop(struct cluster *cl)
{
	struct liveness *lv = &cl->live;

	lv->active = false;
	if (cl->rank != 0 && lv->probe_req != MPI_REQUEST_NULL) {
		MPI_Cancel(&lv->probe_req);
		MPI_Wait(&lv->probe_req, MPI_STATUS_IGNORE);
	}
	if (cl->rank != 0 && lv->nlost == 0)
		MPI_Wait(&lv->ack_req, MPI_STATUS_IGNORE);
}

void liveness_nap(void)
{
	struct timespec ts = { 0, 1000 * 1000 };

	nanosleep(&ts, NULL);
}

#define TAG_DONE 23
#define DONE_WAIT_NS (30 * 1000 * MS_NS)

/*
 * After a rank was lost, the survivors leave one by one, and the
 * launcher ends the job at the first non-zero exit: the others wait
 * until rank 0 has printed and written its results (at most
 * DONE_WAIT_NS), so that its report is not cut short.
 */
void liveness_farewell(struct cluster *cl)
{
	struct liveness *lv = &cl->live;
	int done = 0, word = 1;
	uint64_t until = clock_now_ns() + DONE_WAIT_NS;
	MPI_Request rq;

	if (cl->rank == 0) {
		for (int r = 1; r < cl->nranks; r++)
			if (!lv->lost[r])
				MPI_Send(&word, 1, MPI_INT, r, TAG_DONE, lv->comm);
		return;
	}
	if (lv->lost[0])
		return;
	MPI_Irecv(&word, 1, MPI_INT, 0, TAG_DONE, lv->comm, &rq);
	while (!done && clock_now_ns() < until) {
		MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (!done)
			liveness_nap();
	}
}
