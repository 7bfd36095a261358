/*
 * coord.c - the engine's coordinator over MPI (runtime/engine/coord.h).
 *
 * Agreements are one MPI_Allreduce each (the lowest failing rank, so it
 * can be named).  The cache step meets on the host's communicator.
 *
 * The common start: the host clocks (CLOCK_MONOTONIC) of different
 * machines have unrelated origins, so rank 0 measures each rank's
 * offset from its own clock by ping-pong (CLOCK_PING_ROUNDS round
 * trips, the fastest kept: the offset is then good to half its round
 * trip), picks a release instant a little ahead on its clock, and each
 * rank sleeps until that instant converted to its own clock.  The
 * spread of the instants the ranks actually released at, converted
 * back, is the start skew reported.  A single barrier would do worse:
 * its exit reaches the ranks one tree level after another.
 *
 * During the timed phase a rank that fails, or ends the run early,
 * sends one event to every other rank; each rank has one receive
 * posted and tests it when the engine polls (every 100 ms).  At the
 * end every rank knows how many ranks told (an MPI_Allreduce) and
 * receives exactly the events still due, so none is left in flight for
 * the next run.
 *
 * The statistics are combined by MPI_Reduce with fo_stats_merge() as
 * the operation: counts and histogram buckets added, true extremes kept
 * (exact; a tree of log2(N) steps).  Each rank's own numbers (its
 * window, ops, bytes, errors) are gathered for the per-rank lines.
 */
#include "mpi/cluster.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan/oom.h"
#include "runtime/base/clock.h"
#include "runtime/base/log.h"
#include "runtime/measure/text.h"

#define TAG_PING 11
#define TAG_OFFSET 12
#define TAG_EVENT 13
#define CLOCK_PING_ROUNDS 8
#define RELEASE_AHEAD_NS (50 * 1000 * 1000ull)     /* plus RELEASE_PER_RANK_NS each */
#define RELEASE_PER_RANK_NS (20 * 1000ull)

/* MPI_Op: inout[i] += in[i] for struct fo_stats (commutative). */
void cluster_merge_stats(void *in, void *inout, int *len, MPI_Datatype *type);
void cluster_merge_stats(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const struct fo_stats *src = in;
	struct fo_stats *dst = inout;

	(void)type;
	for (int i = 0; i < *len; i++)
		fo_stats_merge(&dst[i], &src[i]);
}

static int coord_agree(void *ctx, bool ok)
{
	struct cluster *cl = ctx;
	int mine = ok ? cl->nranks : cl->rank, first = cl->nranks;

	MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, cl->world);
	if (first == cl->nranks)
		return 0;
	if (cl->rank == 0 && first != 0)
		log_error("rank %d (%s) could not start the run (its message above): "
			  "no rank ran the workload", first, cl->hosts[first]);
	return -1;
}

static enum coord_files coord_files(void *ctx)
{
	const struct cluster *cl = ctx;

	if (!cl->shared_files)
		return COORD_FILES_OWN;
	return cl->rank == 0 ? COORD_FILES_PREPARE : COORD_FILES_ATTACH;
}

static bool coord_host_leader(void *ctx)
{
	const struct cluster *cl = ctx;

	return cl->host_rank == 0;
}

static bool coord_host_share(void *ctx, bool value)
{
	struct cluster *cl = ctx;
	int v = value;

	MPI_Bcast(&v, 1, MPI_INT, 0, cl->host);
	return v != 0;
}

/*
 * Rank 0's side of the clock comparison: each rank's offset (rank 0's
 * clock minus the rank's) from the fastest of CLOCK_PING_ROUNDS round
 * trips, sent back to it with its uncertainty.  Returns the largest
 * uncertainty.
 */
static uint64_t measure_offsets(struct cluster *cl)
{
	uint64_t worst = 0;

	for (int r = 1; r < cl->nranks; r++) {
		uint64_t best_rtt = UINT64_MAX;
		int64_t off[2] = { 0, 0 };

		for (int k = 0; k < CLOCK_PING_ROUNDS; k++) {
			uint64_t t1 = clock_now_ns(), theirs = 0, t2;

			MPI_Send(&t1, 1, MPI_UINT64_T, r, TAG_PING, cl->world);
			MPI_Recv(&theirs, 1, MPI_UINT64_T, r, TAG_PING, cl->world,
				 MPI_STATUS_IGNORE);
			t2 = clock_now_ns();
			if (t2 - t1 < best_rtt) {
				best_rtt = t2 - t1;
				off[0] = (int64_t)(t1 + (t2 - t1) / 2) - (int64_t)theirs;
			}
		}
		off[1] = (int64_t)(best_rtt / 2);
		if ((uint64_t)off[1] > worst)
			worst = (uint64_t)off[1];
		MPI_Send(off, 2, MPI_INT64_T, r, TAG_OFFSET, cl->world);
	}
	return worst;
}

/* The other ranks' side: answer each ping with this clock, learn the offset. */
static void answer_pings(struct cluster *cl)
{
	int64_t off[2];

	for (int k = 0; k < CLOCK_PING_ROUNDS; k++) {
		uint64_t t = 0;

		MPI_Recv(&t, 1, MPI_UINT64_T, 0, TAG_PING, cl->world, MPI_STATUS_IGNORE);
		t = clock_now_ns();
		MPI_Send(&t, 1, MPI_UINT64_T, 0, TAG_PING, cl->world);
	}
	MPI_Recv(off, 2, MPI_INT64_T, 0, TAG_OFFSET, cl->world, MPI_STATUS_IGNORE);
	cl->offset_ns = off[0];
	cl->offset_err_ns = (uint64_t)off[1];
}

/* Listen for the other ranks' events of this run. */
static void listen_events(struct cluster *cl)
{
	MPI_Irecv(&cl->ev_in, (int)sizeof(cl->ev_in), MPI_BYTE, MPI_ANY_SOURCE,
		  TAG_EVENT, cl->world, &cl->ev_req);
	cl->listening = true;
}

static int coord_release_at(void *ctx, uint64_t *release_ns)
{
	struct cluster *cl = ctx;
	uint64_t target = 0;

	cl->offset_ns = 0;
	cl->offset_err_ns = 0;
	cl->max_err_ns = 0;
	cl->received = 0;
	cl->told = false;
	if (cl->rank == 0) {
		cl->max_err_ns = measure_offsets(cl);
		target = clock_now_ns() + RELEASE_AHEAD_NS +
			 RELEASE_PER_RANK_NS * (uint64_t)cl->nranks;
	} else {
		answer_pings(cl);
	}
	MPI_Bcast(&target, 1, MPI_UINT64_T, 0, cl->world);
	cl->release_target = target;
	listen_events(cl);
	*release_ns = (uint64_t)((int64_t)target - cl->offset_ns);
	return 0;
}

static enum coord_event coord_poll(void *ctx, char *why, size_t size)
{
	struct cluster *cl = ctx;
	int done = 0;

	if (!cl->listening)
		return COORD_NONE;
	MPI_Test(&cl->ev_req, &done, MPI_STATUS_IGNORE);
	if (!done)
		return COORD_NONE;
	cl->listening = false;
	cl->received++;
	cl->ev_in.why[sizeof(cl->ev_in.why) - 1] = '\0';
	if (cl->ev_in.rank >= 0 && cl->ev_in.rank < cl->nranks)
		snprintf(why, size, "rank %d (%s): %s", cl->ev_in.rank,
			 cl->hosts[cl->ev_in.rank], cl->ev_in.why);
	else
		snprintf(why, size, "another rank: %s", cl->ev_in.why);
	return cl->ev_in.kind == COORD_ABORT ? COORD_ABORT : COORD_STOP;
}

static void coord_tell(void *ctx, enum coord_event ev, const char *why)
{
	struct cluster *cl = ctx;

	if (cl->told)
		return;
	cl->told = true;
	cl->ev_out = (struct cluster_event){ .kind = ev, .rank = cl->rank };
	snprintf(cl->ev_out.why, sizeof(cl->ev_out.why), "%s",
		 why ? why : "the run ended early");
	for (int r = 0; r < cl->nranks; r++)
		cl->sends[r] = MPI_REQUEST_NULL;
	for (int r = 0; r < cl->nranks; r++)
		if (r != cl->rank)
			MPI_Isend(&cl->ev_out, (int)sizeof(cl->ev_out), MPI_BYTE, r,
				  TAG_EVENT, cl->world, &cl->sends[r]);
}

/*
 * The end of the run's events: every event sent to this rank received
 * (the receive posted counts as one of them), its own sends complete.
 */
static void settle_events(struct cluster *cl)
{
	int mine = cl->told, tellers = 0, due;

	MPI_Allreduce(&mine, &tellers, 1, MPI_INT, MPI_SUM, cl->world);
	due = tellers - mine - cl->received;
	if (cl->listening && due > 0) {
		MPI_Wait(&cl->ev_req, MPI_STATUS_IGNORE);
		due--;
	} else if (cl->listening) {
		MPI_Cancel(&cl->ev_req);
		MPI_Wait(&cl->ev_req, MPI_STATUS_IGNORE);
	}
	cl->listening = false;
	for (; due > 0; due--) {
		struct cluster_event ev;

		MPI_Recv(&ev, (int)sizeof(ev), MPI_BYTE, MPI_ANY_SOURCE, TAG_EVENT,
			 cl->world, MPI_STATUS_IGNORE);
	}
	/* one by one: MPICH's annotations make gcc read MPI_STATUSES_IGNORE as an array */
	for (int r = 0; cl->told && r < cl->nranks; r++)
		MPI_Wait(&cl->sends[r], MPI_STATUS_IGNORE);
	cl->told = false;
}

/* One rank's part, as it travels to rank 0: a header, then 3 x nflowops counts. */
struct client_wire {
	int32_t failed;
	int32_t pad;
	int64_t release_ns, start_ns, end_ns;   /* rank 0's clock */
	uint64_t io_ops, io_bytes;              /* the IO Summary's */
	char error[256];
};

static size_t wire_size(int nflowops)
{
	return sizeof(struct client_wire) + 3 * (size_t)nflowops * sizeof(uint64_t);
}

/* This rank's part into `buf` (wire_size bytes). */
static void wire_fill(const struct cluster *cl, const struct plan *p,
		      const struct coord_local *mine, unsigned char *buf)
{
	struct client_wire w = {
		.failed = mine->failed,
		.release_ns = (int64_t)mine->release_ns + cl->offset_ns,
		.start_ns = (int64_t)mine->start_ns + cl->offset_ns,
		.end_ns = (int64_t)mine->end_ns + cl->offset_ns,
	};
	uint64_t *counts = (uint64_t *)(buf + sizeof(w));
	struct io_totals t;

	text_io_totals(p, mine->sum, &t);
	w.io_ops = t.ops;
	w.io_bytes = t.bytes;
	if (mine->error)
		snprintf(w.error, sizeof(w.error), "%s", mine->error);
	memcpy(buf, &w, sizeof(w));
	int nflowops = p->nflowops;

	for (int i = 0; i < nflowops; i++) {
		counts[i] = mine->sum[i].op.count;
		counts[nflowops + i] = mine->sum[i].op.bytes;
		counts[2 * nflowops + i] = fo_stats_errors(&mine->sum[i]);
	}
}

/*
 * Rank 0: the ranks' parts into out->clients, the window, the skew and
 * the first failure.  Times count from the common start of the measured
 * phase (the release target plus the warm-up).
 */
static void wire_read(const struct cluster *cl, const struct plan *p,
		      const unsigned char *all, uint64_t common_start,
		      struct coord_combined *out)
{
	int nf = p->nflowops, n = cl->nranks;
	size_t ws = wire_size(nf);
	int64_t lo_rel = INT64_MAX, hi_rel = INT64_MIN;
	double first = 0, last = 0;

	out->clients = xcalloc((size_t)n, sizeof(*out->clients));
	out->counts = xcalloc((size_t)n * 3 * (size_t)(nf ? nf : 1), sizeof(uint64_t));
	out->nclients = n;
	for (int r = 0; r < n; r++) {
		struct client_wire w;
		const uint64_t *counts = (const uint64_t *)(all + ws * (size_t)r + sizeof(w));
		struct run_client *c = &out->clients[r];

		memcpy(&w, all + ws * (size_t)r, sizeof(w));
		c->rank = r;
		snprintf(c->host, sizeof(c->host), "%s", cl->hosts[r]);
		c->failed = w.failed;
		w.error[sizeof(w.error) - 1] = '\0';
		if (w.failed)
			snprintf(c->error, sizeof(c->error), "%s", w.error);
		c->start_s = (double)(w.start_ns - (int64_t)common_start) / 1e9;
		c->end_s = (double)(w.end_ns - (int64_t)common_start) / 1e9;
		c->fo_ops = out->counts + (size_t)r * 3 * (size_t)nf;
		c->fo_bytes = c->fo_ops + nf;
		c->fo_errors = c->fo_bytes + nf;
		memcpy(c->fo_ops, counts, 3 * (size_t)nf * sizeof(uint64_t));
		c->ops = w.io_ops;
		c->bytes = w.io_bytes;
		for (int i = 0; i < nf; i++)
			c->errors += c->fo_errors[i];
		if (w.release_ns < lo_rel)
			lo_rel = w.release_ns;
		if (w.release_ns > hi_rel)
			hi_rel = w.release_ns;
		if (r == 0 || c->start_s < first)
			first = c->start_s;
		if (r == 0 || c->end_s > last)
			last = c->end_s;
		if (c->failed && !out->failed) {
			out->failed = true;
			snprintf(out->error, sizeof(out->error), "rank %d (%s): %s", r,
				 c->host, c->error[0] ? c->error : "the run failed");
		}
	}
	out->skew_s = (double)(hi_rel - lo_rel) / 1e9;
	out->skew_error_s = (double)cl->max_err_ns / 1e9;
	out->elapsed_s = last > first ? last - first : 0;
}

#define SERIES_CHUNK 64          /* intervals per reduction */

/*
 * --interval: the job's series on rank 0, interval k of every rank added
 * to interval k of the others (the ranks started together, so their
 * intervals line up; a rank with fewer adds nothing to the last ones).
 * Reduced SERIES_CHUNK intervals at a time with the same operation as
 * the run's statistics: exact, bucket by bucket.
 */
static void merge_series(struct cluster *cl, const struct plan *p,
			 const struct coord_local *mine, struct coord_combined *out)
{
	int nf = p->nflowops, n = mine->niv, total = 0;
	struct fo_stats *chunk = xcalloc((size_t)SERIES_CHUNK * (size_t)nf, sizeof(*chunk));

	MPI_Allreduce(&n, &total, 1, MPI_INT, MPI_MAX, cl->world);
	if (cl->rank == 0 && total > 0)
		out->iv_stats = xcalloc((size_t)total * (size_t)nf, sizeof(*out->iv_stats));
	out->niv = cl->rank == 0 ? total : 0;
	for (int k0 = 0; k0 < total; k0 += SERIES_CHUNK) {
		int rows = total - k0 < SERIES_CHUNK ? total - k0 : SERIES_CHUNK;

		for (int k = 0; k < rows; k++)
			for (int i = 0; i < nf; i++) {
				struct fo_stats *d = &chunk[(size_t)k * (size_t)nf + (size_t)i];

				if (k0 + k < n && mine->iv_stats)
					*d = mine->iv_stats[(size_t)(k0 + k) * (size_t)nf + (size_t)i];
				else
					fo_stats_init(d);
			}
		MPI_Reduce(chunk, cl->rank == 0 ? &out->iv_stats[(size_t)k0 * (size_t)nf] : NULL,
			   rows * nf, cl->stats_type, cl->merge_op, 0, cl->world);
	}
	free(chunk);
}

static int coord_combine(void *ctx, const struct plan *p, const struct coord_local *mine,
			 struct coord_combined *out)
{
	struct cluster *cl = ctx;
	int nf = p->nflowops;
	size_t ws = wire_size(nf);
	unsigned char *part = xcalloc(1, ws);
	unsigned char *all = NULL;
	uint64_t common_start, t0;
	int failed;

	memset(out, 0, sizeof(*out));
	settle_events(cl);          /* every rank is here: what follows is the merge */
	t0 = clock_now_ns();
	wire_fill(cl, p, mine, part);     /* before rank 0's sum becomes everyone's */
	if (cl->rank == 0)
		MPI_Reduce(MPI_IN_PLACE, mine->sum, nf, cl->stats_type, cl->merge_op, 0,
			   cl->world);
	else
		MPI_Reduce(mine->sum, NULL, nf, cl->stats_type, cl->merge_op, 0, cl->world);
	if (cl->rank == 0)
		all = xcalloc((size_t)cl->nranks, ws);
	MPI_Gather(part, (int)ws, MPI_BYTE, all, (int)ws, MPI_BYTE, 0, cl->world);
	free(part);
	if (mine->series)
		merge_series(cl, p, mine, out);
	if (cl->rank == 0) {
		/* the measured phase began warmup after the common release */
		common_start = cl->release_target + (mine->start_ns - mine->release_ns);
		wire_read(cl, p, all, common_start, out);
		free(all);
		out->merge_s = (double)(clock_now_ns() - t0) / 1e9;
	}
	/* every rank ends the run alike: a failure anywhere ends the session everywhere */
	failed = out->failed;
	MPI_Bcast(&failed, 1, MPI_INT, 0, cl->world);
	out->failed = failed;
	return cl->rank == 0;
}

const struct coord_ops cluster_coord_ops = {
	.agree = coord_agree,
	.files = coord_files,
	.host_leader = coord_host_leader,
	.host_share = coord_host_share,
	.release_at = coord_release_at,
	.poll = coord_poll,
	.tell = coord_tell,
	.combine = coord_combine,
};
