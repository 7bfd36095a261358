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

#include "plan/flowop.h"
#include "plan/oom.h"
#include "runtime/base/clock.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/text.h"

#define TAG_PING 11
#define TAG_OFFSET 12
#define TAG_EVENT 13
#define TAG_ROLL 14     /* on the liveness communicator */
#define TAG_MODE 15
#define TAG_PART 16
#define ROLL_INTERRUPTED_NS (500 * 1000 * 1000ull)
#define CLOCK_PING_ROUNDS 8
#define TAG_SPREAD 17
#define RELEASE_AHEAD_NS (50 * 1000 * 1000ull)     /* plus RELEASE_PER_RANK_NS each */
#define RELEASE_PER_RANK_NS (20 * 1000ull)
#define RELEASE_SPREAD_K 4      /* the lead is at least this many measured spreads */

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

/* MPI_Op: inout[i] += in[i] for struct astats (commutative). */
void cluster_merge_astats(void *in, void *inout, int *len, MPI_Datatype *type);
void cluster_merge_astats(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const struct astats *src = in;
	struct astats *dst = inout;

	(void)type;
	for (int i = 0; i < *len; i++)
		astats_merge(&dst[i], &src[i]);
}

/*
 * The asynchronous flowops' extension blocks of every rank, merged on
 * rank 0 into mine->astats: one block per report line whose flowops
 * split their latency (the plan's, so the same count on every rank),
 * packed; a rank without its blocks (out of memory) adds empty ones.
 */
static void merge_astats(struct cluster *cl, const struct plan *p,
			 const struct coord_local *mine, struct coord_combined *out)
{
	struct astats *packed;
	int n = 0, k = 0;

	for (int i = 0; i < p->nflowops; i++)
		n += p->flowops[i].ops->split_latency && p->flowops[i].line == i;
	if (!n)
		return;
	packed = xcalloc((size_t)n, sizeof(*packed));
	for (int i = 0; i < p->nflowops; i++) {
		if (!p->flowops[i].ops->split_latency || p->flowops[i].line != i)
			continue;
		if (mine->astats && mine->astats[i])
			packed[k] = *mine->astats[i];
		else
			astats_init(&packed[k]);
		k++;
	}
	if (cl->rank == 0)
		MPI_Reduce(MPI_IN_PLACE, packed, n, cl->astats_type, cl->astats_op, 0,
			   cl->world);
	else
		MPI_Reduce(packed, NULL, n, cl->astats_type, cl->astats_op, 0, cl->world);
	for (int i = 0, j = 0; cl->rank == 0 && mine->astats && i < p->nflowops; i++) {
		if (!p->flowops[i].ops->split_latency || p->flowops[i].line != i)
			continue;
		if (mine->astats[i])
			*mine->astats[i] = packed[j];
		j++;
	}
	out->astats_merged = cl->rank == 0 && mine->astats;
	free(packed);
}

static int cluster_agree(void *ctx, bool ok)
{
	struct cluster *cl = ctx;
	int mine = ok ? cl->nranks : cl->rank, first = cl->nranks;
	/* a run meets twice before its release: files ready, then workers */
	const char *what = cl->agreements++ % 2 == 0 ?
			   "prepare their files" : "drop their caches and start their workers";

	cluster_agree_progress(cl, &mine, &first, what);
	if (first == cl->nranks)
		return 0;
	if (cl->rank == 0 && first != 0)
		log_error("rank %d (%s) could not start the run (its message above): "
			  "no rank ran the workload", first, cl->hosts[first]);
	return -1;
}

static enum coord_files cluster_files(void *ctx)
{
	const struct cluster *cl = ctx;

	if (!cl->shared_files)
		return COORD_FILES_OWN;
	return cl->rank == 0 ? COORD_FILES_PREPARE : COORD_FILES_ATTACH;
}

static bool cluster_host_leader(void *ctx)
{
	const struct cluster *cl = ctx;

	return cl->host_rank == 0;
}

static bool cluster_host_share(void *ctx, bool value)
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

/*
 * How long a broadcast from rank 0 takes to reach the last rank, on rank
 * 0's clock (the offsets known): rank 0 broadcasts its clock, each rank
 * notes when it arrived, the latest arrival comes back.  On a busy host
 * (more ranks than CPUs) this is what the scheduler takes to run the
 * last rank, tens of milliseconds; the release instant must be further
 * ahead than that or the last ranks learn it too late.  Rank 0's result.
 */
static uint64_t measure_spread(struct cluster *cl)
{
	uint64_t sent = clock_now_ns(), late = 0, latest = 0;

	MPI_Bcast(&sent, 1, MPI_UINT64_T, 0, cl->world);
	if (cl->rank != 0) {
		int64_t arrived = (int64_t)clock_now_ns() + cl->offset_ns;

		late = arrived > (int64_t)sent ? (uint64_t)(arrived - (int64_t)sent) : 0;
	}
	MPI_Reduce(&late, &latest, 1, MPI_UINT64_T, MPI_MAX, 0, cl->world);
	return latest;
}

static int cluster_release_at(void *ctx, uint64_t *release_ns)
{
	struct cluster *cl = ctx;
	uint64_t target = 0, lead = 0, spread;

	cl->offset_ns = 0;
	cl->offset_err_ns = 0;
	cl->max_err_ns = 0;
	cl->received = 0;
	cl->told = false;
	if (cl->rank == 0)
		cl->max_err_ns = measure_offsets(cl);
	else
		answer_pings(cl);
	spread = measure_spread(cl);
	if (cl->rank == 0) {
		/* the target's broadcast takes about as long as the measured one */
		lead = RELEASE_AHEAD_NS;
		if (RELEASE_SPREAD_K * spread > lead)
			lead = RELEASE_SPREAD_K * spread;
		lead += RELEASE_PER_RANK_NS * (uint64_t)cl->nranks;
		target = clock_now_ns() + lead;
		cl->lead_ns = lead;
		cl->spread_ns = spread;
	}
	MPI_Bcast(&target, 1, MPI_UINT64_T, 0, cl->world);
	cl->release_target = target;
	listen_events(cl);
	share_reset(cl);
	liveness_start(cl);
	*release_ns = (uint64_t)((int64_t)target - cl->offset_ns);
	return 0;
}

static void cluster_tell(void *ctx, enum coord_event ev, const char *why);

/*
 * A rank was found lost during the run: every rank still there stops
 * (rank 0 tells them; a rank that lost rank 0 stops alone), and the run
 * ends with the survivors' results (cluster_combine's salvage).
 */
static enum coord_event lost_event(struct cluster *cl, char *why, size_t size)
{
	int r = 0;

	while (r < cl->nranks - 1 && !cl->live.lost[r])
		r++;
	snprintf(why, size, "rank %d (%s) was lost (it stopped answering)", r, cl->hosts[r]);
	if (cl->rank == 0)
		cluster_tell(cl, COORD_EVENT_ABORT, why);
	return COORD_EVENT_ABORT;
}

static enum coord_event cluster_poll(void *ctx, char *why, size_t size)
{
	struct cluster *cl = ctx;
	int done = 0;

	if (liveness_tick(cl, true) > 0)
		return lost_event(cl, why, size);
	if (!cl->listening)
		return COORD_EVENT_NONE;
	MPI_Test(&cl->ev_req, &done, MPI_STATUS_IGNORE);
	if (!done)
		return COORD_EVENT_NONE;
	cl->listening = false;
	cl->received++;
	cl->ev_in.why[sizeof(cl->ev_in.why) - 1] = '\0';
	if (cl->ev_in.rank >= 0 && cl->ev_in.rank < cl->nranks)
		snprintf(why, size, "rank %d (%s): %s", cl->ev_in.rank,
			 cl->hosts[cl->ev_in.rank], cl->ev_in.why);
	else
		snprintf(why, size, "another rank: %s", cl->ev_in.why);
	return cl->ev_in.kind == COORD_EVENT_ABORT ? COORD_EVENT_ABORT : COORD_EVENT_STOP;
}

static void cluster_tell(void *ctx, enum coord_event ev, const char *why)
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
		if (r != cl->rank && !cl->live.lost[r])
			MPI_Isend(&cl->ev_out, (int)sizeof(cl->ev_out), MPI_BYTE, r,
				  TAG_EVENT, cl->world, &cl->sends[r]);
}

/* While the engine waits for its workers: probes still answered. */
static void cluster_keepalive(void *ctx)
{
	liveness_tick(ctx, true);
}

/*
 * The end of the run's events: every event sent to this rank received
 * (the receive posted counts as one of them), its own sends complete.
 * Returns how many ranks told (0: the run ended at its deadline).
 */
static int settle_events(struct cluster *cl)
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
	return tellers;
}

/*
 * One rank's part, as it travels to rank 0: a header, then 3 x nflowops
 * counts, then each process's run-phase span (start, end: rank 0's
 * clock, 0 0 when it never started or without run phases).
 */
struct client_wire {
	int32_t failed;
	int32_t pad;
	int64_t release_ns, start_ns, end_ns;   /* rank 0's clock */
	uint64_t io_ops, io_bytes;              /* the IO Summary's */
	char error[256];
	struct usage_summary usage;             /* its CPU and disks (same build everywhere) */
};

static size_t wire_size(const struct plan *p)
{
	return sizeof(struct client_wire) +
	       (3 * (size_t)p->nflowops + 2 * (size_t)p->nprocs) * sizeof(uint64_t);
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
	struct text_totals t;

	text_io_totals(p, mine->sum, &t);
	w.io_ops = t.ops;
	w.io_bytes = t.bytes;
	usage_summarize(mine->usage, &w.usage);
	if (mine->error)
		snprintf(w.error, sizeof(w.error), "%s", mine->error);
	memcpy(buf, &w, sizeof(w));
	int nflowops = p->nflowops;

	for (int i = 0; i < nflowops; i++) {
		counts[i] = mine->sum[i].op.count;
		counts[nflowops + i] = mine->sum[i].op.bytes;
		counts[2 * nflowops + i] = fo_stats_errors(&mine->sum[i]);
	}
	for (int pi = 0; mine->phases && pi < p->nprocs; pi++) {
		const struct coord_phase *sp = &mine->phases[pi];
		uint64_t *span = &counts[3 * nflowops + 2 * pi];

		if (!sp->start_ns)
			continue;       /* never started: 0 0 */
		span[0] = (uint64_t)((int64_t)sp->start_ns + cl->offset_ns);
		span[1] = (uint64_t)((int64_t)sp->end_ns + cl->offset_ns);
	}
}

/*
 * Rank 0, run phases: each process's span over the `n` parts in `all`,
 * from the earliest start to the latest end (on rank 0's clock, at most
 * `end_cap`: the merged run's end), as windows from the common release.
 * NULL without run phases.
 */
static struct text_proc_window *wire_windows(const struct cluster *cl, const struct plan *p,
					     const unsigned char *all, int n,
					     uint64_t common_start, uint64_t end_cap)
{
	size_t ws = wire_size(p);
	struct coord_phase *sp;
	struct text_proc_window *win;

	if (!p->has_phases)
		return NULL;
	sp = xcalloc((size_t)p->nprocs + 1, sizeof(*sp));
	for (int i = 0; i < n; i++) {
		const uint64_t *spans = (const uint64_t *)(all + ws * (size_t)i +
			sizeof(struct client_wire)) + 3 * (size_t)p->nflowops;

		for (int pi = 0; pi < p->nprocs; pi++) {
			uint64_t s = spans[2 * pi], e = spans[2 * pi + 1];

			if (!s || s >= end_cap)
				continue;
			if (e > end_cap)
				e = end_cap;
			if (!sp[pi].start_ns || s < sp[pi].start_ns)
				sp[pi].start_ns = s;
			if (e > sp[pi].end_ns)
				sp[pi].end_ns = e;
		}
	}
	win = coord_phase_windows(p, sp, cl->release_target, common_start);
	free(sp);
	return win;
}

/*
 * A rank whose devices did not all fit the wire's usage summary: said
 * on rank 0's output, since the results file's ranks[] holds only the
 * first USAGE_SUMMARY_DISKS (its "disks_total" keeps the count).
 */
static void note_cut_disks(const struct run_client *c)
{
	if (c->usage.ndisk_total > c->usage.ndisk)
		log_info("Rank %d (%s): %d devices under its filesets; the results "
			 "file's ranks[].usage lists the first %d (disks_total: %d)",
			 c->rank, c->host, c->usage.ndisk_total, c->usage.ndisk,
			 c->usage.ndisk_total);
}

/*
 * Rank 0: the parts of `n` ranks (rank who[i], or i when `who` is NULL)
 * into out->clients, the window, the skew and the first failure.  Times
 * count from the common start of the measured phase (the release target
 * plus the warm-up).
 */
static void wire_read(const struct cluster *cl, const struct plan *p,
		      const unsigned char *all, const int *who, int n,
		      uint64_t common_start, struct coord_combined *out)
{
	int nf = p->nflowops;
	size_t ws = wire_size(p);
	int64_t lo_rel = INT64_MAX, hi_rel = INT64_MIN, late = 0;
	double first = 0, last = 0;

	out->clients = xcalloc((size_t)n, sizeof(*out->clients));
	out->counts = xcalloc((size_t)n * 3 * (size_t)(nf ? nf : 1), sizeof(uint64_t));
	out->nclients = n;
	for (int i = 0; i < n; i++) {
		int r = who ? who[i] : i;
		struct client_wire w;
		const uint64_t *counts = (const uint64_t *)(all + ws * (size_t)i + sizeof(w));
		struct run_client *c = &out->clients[i];

		memcpy(&w, all + ws * (size_t)i, sizeof(w));
		c->rank = r;
		snprintf(c->host, sizeof(c->host), "%s", cl->hosts[r]);
		c->failed = w.failed;
		w.error[sizeof(w.error) - 1] = '\0';
		if (w.failed)
			snprintf(c->error, sizeof(c->error), "%s", w.error);
		c->start_s = (double)(w.start_ns - (int64_t)common_start) / 1e9;
		c->end_s = (double)(w.end_ns - (int64_t)common_start) / 1e9;
		c->fo_ops = out->counts + (size_t)i * 3 * (size_t)nf;
		c->fo_bytes = c->fo_ops + nf;
		c->fo_errors = c->fo_bytes + nf;
		memcpy(c->fo_ops, counts, 3 * (size_t)nf * sizeof(uint64_t));
		c->ops = w.io_ops;
		c->bytes = w.io_bytes;
		c->usage = w.usage;
		note_cut_disks(c);
		for (int k = 0; k < nf; k++)
			c->errors += c->fo_errors[k];
		if (w.release_ns < lo_rel)
			lo_rel = w.release_ns;
		if (w.release_ns > hi_rel)
			hi_rel = w.release_ns;
		if (w.release_ns - (int64_t)cl->release_target > late)
			late = w.release_ns - (int64_t)cl->release_target;
		if (i == 0 || c->start_s < first)
			first = c->start_s;
		if (i == 0 || c->end_s > last)
			last = c->end_s;
		if (c->failed && !out->failed) {
			out->failed = true;
			snprintf(out->error, sizeof(out->error), "rank %d (%s): %s", r,
				 c->host, c->error[0] ? c->error : "the run failed");
		}
	}
	out->skew_s = (double)(hi_rel - lo_rel) / 1e9;
	out->skew_error_s = (double)cl->max_err_ns / 1e9;
	out->late_s = (double)late / 1e9;
	out->lead_s = (double)cl->lead_ns / 1e9;
	out->spread_s = (double)cl->spread_ns / 1e9;
	out->elapsed_s = last > first ? last - first : 0;
	out->windows = wire_windows(cl, p, all, n, common_start,
				    common_start + (uint64_t)(last > 0 ? last * 1e9 : 0));
}

/*
 * Rank 0: the `n` clients' compact latencies (coordlat.c) from `block`,
 * client i's `len[i]` words at `off[i]`; the block becomes out's.
 */
static void attach_lats(struct coord_combined *out, int nf, uint64_t *block,
			const size_t *off, const size_t *len, int n)
{
	out->lat_block = block;
	out->lats = xcalloc((size_t)n * (size_t)(nf ? nf : 1), sizeof(*out->lats));
	for (int i = 0; i < n && i < out->nclients; i++) {
		struct coord_lat *l = out->lats + (size_t)i * (size_t)nf;

		coord_lat_decode(block + off[i], len[i], nf, l);
		out->clients[i].lat = l;
	}
}

/*
 * Every rank's compact latency (encoded before the reduction changed
 * rank 0's sums: `mine`, `nmine` words) gathered on rank 0 into
 * out->clients[].lat.  Collective.
 */
static void gather_lats(struct cluster *cl, int nf, const uint64_t *mine, size_t nmine,
			struct coord_combined *out)
{
	int words = (int)nmine, *counts = NULL, *displs = NULL;
	uint64_t *block = NULL;
	size_t *off = NULL, *len = NULL, total = 0;

	if (cl->rank == 0) {
		counts = xcalloc((size_t)cl->nranks, sizeof(*counts));
		displs = xcalloc((size_t)cl->nranks, sizeof(*displs));
	}
	MPI_Gather(&words, 1, MPI_INT, counts, 1, MPI_INT, 0, cl->world);
	if (cl->rank == 0) {
		off = xcalloc((size_t)cl->nranks, sizeof(*off));
		len = xcalloc((size_t)cl->nranks, sizeof(*len));
		for (int r = 0; r < cl->nranks; r++) {
			displs[r] = (int)total;
			off[r] = total;
			len[r] = (size_t)counts[r];
			total += (size_t)counts[r];
		}
		block = xcalloc(total + 1, sizeof(*block));
	}
	MPI_Gatherv(mine, words, MPI_UINT64_T, block, counts, displs, MPI_UINT64_T, 0,
		    cl->world);
	if (cl->rank == 0)
		attach_lats(out, nf, block, off, len, cl->nranks);
	free(counts);
	free(displs);
	free(off);
	free(len);
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


enum combine_mode { COMBINE_ALL = 1, COMBINE_SURVIVORS = 2 };

/*
 * The roll call, rank 0's side: every rank not lost says it reached the
 * end; the probes go on meanwhile, so a rank that died at the end is
 * found within seconds.  After an interrupt (Open MPI's SIGTERM follows
 * a death by a second, its SIGKILL by two) a rank still missing
 * ROLL_INTERRUPTED_NS later is taken as lost.  Then each rank still
 * there learns how the results are combined.
 */
static enum combine_mode roll_call_root(struct cluster *cl)
{
	struct liveness *lv = &cl->live;
	MPI_Request *roll = xcalloc((size_t)cl->nranks, sizeof(*roll));
	int *told = xcalloc((size_t)cl->nranks, sizeof(*told)), mode;
	uint64_t cut = 0;

	for (int r = 1; r < cl->nranks; r++) {
		roll[r] = MPI_REQUEST_NULL;
		if (!lv->lost[r])
			MPI_Irecv(&told[r], 1, MPI_INT, r, TAG_ROLL, lv->comm, &roll[r]);
	}
	for (;;) {
		uint64_t now = clock_now_ns();
		int waiting = 0;

		liveness_tick(cl, true);
		if (!cut && interrupt_signal())
			cut = now + ROLL_INTERRUPTED_NS;
		for (int r = 1; r < cl->nranks; r++) {
			int done = 0;

			if (roll[r] == MPI_REQUEST_NULL)
				continue;
			if (!lv->lost[r])
				MPI_Test(&roll[r], &done, MPI_STATUS_IGNORE);
			if (done)
				continue;
			if (!lv->lost[r] && cut && now >= cut)
				liveness_lose(cl, r, "did not reach the end of the interrupted run");
			if (lv->lost[r]) {
				MPI_Cancel(&roll[r]);
				MPI_Request_free(&roll[r]);
				continue;
			}
			waiting++;
		}
		if (!waiting && !liveness_pending(cl))
			break;
		liveness_nap();
	}
	mode = lv->nlost ? COMBINE_SURVIVORS : COMBINE_ALL;
	for (int r = 1; r < cl->nranks; r++)
		if (!lv->lost[r])
			MPI_Send(&mode, 1, MPI_INT, r, TAG_MODE, lv->comm);
	free(roll);
	free(told);
	return (enum combine_mode)mode;
}

/* The roll call, the other ranks' side: 0 when rank 0 was lost. */
static int roll_call_other(struct cluster *cl)
{
	struct liveness *lv = &cl->live;
	MPI_Request sent, heard;
	int told = cl->told, mode = 0, done = 0;

	if (lv->lost[0])
		return 0;
	MPI_Isend(&told, 1, MPI_INT, 0, TAG_ROLL, lv->comm, &sent);
	MPI_Irecv(&mode, 1, MPI_INT, 0, TAG_MODE, lv->comm, &heard);
	for (;;) {
		MPI_Test(&heard, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		if (liveness_tick(cl, false) > 0) {
			MPI_Cancel(&heard);
			MPI_Request_free(&heard);
			MPI_Request_free(&sent);
			return 0;
		}
		liveness_nap();
	}
	MPI_Wait(&sent, MPI_STATUS_IGNORE);
	if (mode == COMBINE_SURVIVORS)
		lv->nlost = lv->nlost ? lv->nlost : 1;     /* how many, rank 0 knows */
	return mode;
}

/* One rank's whole part, for the survivors' merge: wire, stats, series. */
static size_t part_size(const struct plan *p, int niv)
{
	size_t nf = (size_t)p->nflowops;

	return wire_size(p) + (nf + (size_t)niv * nf) * sizeof(struct fo_stats);
}

/*
 * The survivors' merge, a rank's side: its whole part to rank 0 in one
 * message (the collectives would wait for the lost rank forever).
 */
static void salvage_send(struct cluster *cl, const struct plan *p,
			 const struct coord_local *mine)
{
	int nf = p->nflowops, niv = mine->series && mine->iv_stats ? mine->niv : 0, done = 0;
	size_t ws = wire_size(p), size = part_size(p, niv);
	unsigned char *buf = xcalloc(1, size);
	MPI_Request rq;

	wire_fill(cl, p, mine, buf);
	memcpy(buf + ws, mine->sum, (size_t)nf * sizeof(struct fo_stats));
	if (niv)
		memcpy(buf + ws + (size_t)nf * sizeof(struct fo_stats), mine->iv_stats,
		       (size_t)niv * (size_t)nf * sizeof(struct fo_stats));
	MPI_Isend(buf, (int)size, MPI_BYTE, 0, TAG_PART, cl->live.comm, &rq);
	while (!done && !cl->live.lost[0]) {
		MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (!done && liveness_tick(cl, false) == 0)
			liveness_nap();
	}
	if (!done)
		MPI_Request_free(&rq);
	free(buf);
}

/* Rank 0: `from`'s interval series added to the job's, which grows to fit. */
static void salvage_add_series(struct coord_combined *out, int nf,
			       const struct fo_stats *iv, int niv)
{
	if (niv > out->niv) {
		struct fo_stats *grown = xcalloc((size_t)niv * (size_t)nf, sizeof(*grown));

		for (size_t k = 0; k < (size_t)niv * (size_t)nf; k++)
			fo_stats_init(&grown[k]);
		if (out->iv_stats)
			memcpy(grown, out->iv_stats,
			       (size_t)out->niv * (size_t)nf * sizeof(*grown));
		free(out->iv_stats);
		out->iv_stats = grown;
		out->niv = niv;
	}
	for (size_t k = 0; k < (size_t)niv * (size_t)nf; k++)
		fo_stats_merge(&out->iv_stats[k], &iv[k]);
}

/*
 * The survivors' merge, rank 0's side: its own part, then each rank's
 * as it comes (a rank lost meanwhile is skipped), merged with the same
 * fo_stats_merge() as the reduction.  The result is partial, the lost
 * ranks named.
 */
static void salvage_gather(struct cluster *cl, const struct plan *p,
			   const struct coord_local *mine, struct coord_combined *out)
{
	struct liveness *lv = &cl->live;
	int nf = p->nflowops, n = 0;
	size_t ws = wire_size(p);
	unsigned char *all = xcalloc((size_t)cl->nranks, ws);
	int *who = xcalloc((size_t)cl->nranks, sizeof(*who));
	bool *have = xcalloc((size_t)cl->nranks, sizeof(*have));
	uint64_t common_start = cl->release_target + (mine->start_ns - mine->release_ns);
	/* the parts' compact latencies, one after another, as they come */
	size_t *off = xcalloc((size_t)cl->nranks, sizeof(*off));
	size_t *len = xcalloc((size_t)cl->nranks, sizeof(*len));
	size_t words = coord_lat_encode(mine->sum, nf, NULL);
	uint64_t *lat = xcalloc(words + 1, sizeof(*lat));

	coord_lat_encode(mine->sum, nf, lat);
	len[0] = words;
	wire_fill(cl, p, mine, all);
	who[n++] = 0;
	have[0] = true;
	if (mine->series && mine->iv_stats)
		salvage_add_series(out, nf, mine->iv_stats, mine->niv);
	for (;;) {
		int waiting = 0;

		for (int r = 1; r < cl->nranks; r++) {
			MPI_Status st;
			int flag = 0, size = 0;
			unsigned char *buf;
			const struct fo_stats *sums;

			if (have[r] || lv->lost[r])
				continue;
			MPI_Iprobe(r, TAG_PART, lv->comm, &flag, &st);
			if (!flag) {
				waiting++;
				continue;
			}
			MPI_Get_count(&st, MPI_BYTE, &size);
			buf = xcalloc(1, (size_t)size);
			MPI_Recv(buf, size, MPI_BYTE, r, TAG_PART, lv->comm, MPI_STATUS_IGNORE);
			sums = (const struct fo_stats *)(buf + ws);
			off[n] = words;
			len[n] = coord_lat_encode(sums, nf, NULL);
			lat = xrealloc(lat, (words + len[n] + 1) * sizeof(*lat));
			coord_lat_encode(sums, nf, lat + words);
			words += len[n];
			for (int i = 0; i < nf; i++)
				fo_stats_merge(&mine->sum[i], &sums[i]);
			if ((size_t)size > part_size(p, 0))
				salvage_add_series(out, nf, sums + nf,
						   (int)(((size_t)size - part_size(p, 0)) /
							 ((size_t)nf * sizeof(struct fo_stats))));
			memcpy(all + ws * (size_t)n, buf, ws);
			who[n++] = r;
			have[r] = true;
			free(buf);
		}
		if (!waiting)
			break;
		if (liveness_tick(cl, true) == 0)
			liveness_nap();
	}
	wire_read(cl, p, all, who, n, common_start, out);
	attach_lats(out, nf, lat, off, len, n);
	free(off);
	free(len);
	out->lost = xcalloc((size_t)lv->nlost + 1, sizeof(*out->lost));
	for (int r = 0; r < cl->nranks; r++) {
		struct run_client *c;

		if (!lv->lost[r])
			continue;
		c = &out->lost[out->nlost++];
		c->rank = r;
		c->failed = true;
		snprintf(c->host, sizeof(c->host), "%s", cl->hosts[r]);
		snprintf(c->error, sizeof(c->error), "lost: it stopped answering");
	}
	if (out->nlost) {
		out->failed = true;
		snprintf(out->error, sizeof(out->error),
			 "rank %d (%s) was lost during the run: the results of the %d other ranks",
			 out->lost[0].rank, out->lost[0].host, n);
	}
	free(all);
	free(who);
	free(have);
}

static int cluster_combine(void *ctx, const struct plan *p, const struct coord_local *mine,
			   struct coord_combined *out)
{
	struct cluster *cl = ctx;
	int nf = p->nflowops;
	size_t ws = wire_size(p);
	unsigned char *part = xcalloc(1, ws);
	unsigned char *all = NULL;
	uint64_t common_start, t0, t1, *lat;
	size_t nlat;
	enum combine_mode mode;
	int failed, tellers;

	memset(out, 0, sizeof(*out));
	t0 = clock_now_ns();
	mode = cl->rank == 0 ? roll_call_root(cl) : (enum combine_mode)roll_call_other(cl);
	if (mode != COMBINE_ALL) {
		/* the merge proper starts once every survivor is accounted for */
		t1 = clock_now_ns();
		out->wait_s = (double)(t1 - t0) / 1e9;
		/* a rank was lost: no collective may wait for it */
		cl->live.active = false;
		free(part);
		out->lost_any = true;
		if (cl->rank != 0) {
			if (mode == COMBINE_SURVIVORS)
				salvage_send(cl, p, mine);
			out->failed = true;
			return 0;
		}
		salvage_gather(cl, p, mine, out);
		coord_mark_outliers(p, out);
		out->merge_s = (double)(clock_now_ns() - t1) / 1e9;
		return 1;
	}
	liveness_stop(cl);
	tellers = settle_events(cl);
	/* every rank is here (settle_events waited for the last): the wait apart */
	t1 = clock_now_ns();
	out->wait_s = (double)(t1 - t0) / 1e9;
	share_settle(cl, nf);
	wire_fill(cl, p, mine, part);     /* before rank 0's sum becomes everyone's */
	nlat = coord_lat_encode(mine->sum, nf, NULL);
	lat = xcalloc(nlat + 1, sizeof(*lat));
	coord_lat_encode(mine->sum, nf, lat);
	if (cl->rank == 0)
		MPI_Reduce(MPI_IN_PLACE, mine->sum, nf, cl->stats_type, cl->merge_op, 0,
			   cl->world);
	else
		MPI_Reduce(mine->sum, NULL, nf, cl->stats_type, cl->merge_op, 0, cl->world);
	merge_astats(cl, p, mine, out);
	if (cl->rank == 0)
		all = xcalloc((size_t)cl->nranks, ws);
	MPI_Gather(part, (int)ws, MPI_BYTE, all, (int)ws, MPI_BYTE, 0, cl->world);
	free(part);
	if (mine->series)
		merge_series(cl, p, mine, out);
	if (cl->rank == 0) {
		/* the measured phase began warmup after the common release */
		common_start = cl->release_target + (mine->start_ns - mine->release_ns);
		wire_read(cl, p, all, NULL, cl->nranks, common_start, out);
		free(all);
	}
	gather_lats(cl, nf, lat, nlat, out);
	free(lat);
	if (cl->rank == 0) {
		coord_mark_outliers(p, out);
		if (!tellers && !out->failed && mine->runtime_s > 0)
			out->nominal_s = mine->runtime_s;
		out->merge_s = (double)(clock_now_ns() - t1) / 1e9;
	}
	/* every rank ends the run alike: a failure anywhere ends the session everywhere */
	failed = out->failed;
	MPI_Bcast(&failed, 1, MPI_INT, 0, cl->world);
	out->failed = failed;
	return cl->rank == 0;
}

const struct coord_ops cluster_coord_ops = {
	.agree = cluster_agree,
	.files = cluster_files,
	.host_leader = cluster_host_leader,
	.host_share = cluster_host_share,
	.release_at = cluster_release_at,
	.poll = cluster_poll,
	.tell = cluster_tell,
	.combine = cluster_combine,
	.keepalive = cluster_keepalive,
	.share = cluster_share,
	.merged = cluster_merged,
};
