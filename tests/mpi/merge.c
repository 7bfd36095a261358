/*
 * merge.c - the merge flowbench-mpi does at the end of a run, checked
 * exactly under a real mpirun (tests/e2e/mpi.sh runs it on 3 ranks).
 *
 * Every rank records its own latencies (a different pseudo-random mix
 * per rank, millions of ops spread over the whole histogram, tiny and
 * huge values included) into NFLOWOPS flowops, then the ranks combine
 * them exactly as mpi/coord.c does: MPI_Reduce of the struct fo_stats
 * array with cluster_merge_stats() as the operation.  Rank 0 rebuilds
 * every rank's statistics itself (the same seeds) and merges them one by
 * one with fo_stats_merge(): the reduced histogram must equal that
 * union bucket for bucket, with the counts, bytes, latency sums, the
 * sums of squares and the true minimum and maximum.  Exit 0 or 1.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/cluster.h"
#include "runtime/measure/stats.h"

#define NFLOWOPS 5
#define OPS 200000

void cluster_merge_stats(void *in, void *inout, int *len, MPI_Datatype *type);

/* splitmix64: a rank's own reproducible stream. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Rank r's statistics: flowop f gets OPS ops (none for f == 3 on odd ranks). */
static void fill(struct fo_stats *st, int r)
{
	uint64_t seed = 12345 + (uint64_t)r * 1000003;

	for (int f = 0; f < NFLOWOPS; f++) {
		fo_stats_init(&st[f]);
		if (f == 3 && r % 2)
			continue;       /* an empty side changes nothing */
		for (int i = 0; i < OPS; i++) {
			uint64_t v = next(&seed);
			/* latencies over every power of two, from 0 ns to hours */
			uint64_t lat = v >> (v % 64);

			fo_stats_record(&st[f], lat, 4096 * (uint64_t)(f + 1));
		}
		st[f].err[FE_ENOSPC] = (uint64_t)r;
	}
}

static int same(const struct fo_stats *a, const struct fo_stats *b, int f)
{
	if (memcmp(&a->op, &b->op, sizeof(a->op)) || memcmp(a->err, b->err, sizeof(a->err))) {
		fprintf(stderr, "flowop %d: counters differ (ops %llu vs %llu)\n", f,
			(unsigned long long)a->op.count, (unsigned long long)b->op.count);
		return 0;
	}
	if (memcmp(&a->lat, &b->lat, sizeof(a->lat))) {
		for (unsigned i = 0; i < HIST_BUCKETS; i++)
			if (a->lat.b[i] != b->lat.b[i])
				fprintf(stderr, "flowop %d: bucket %u: %llu vs %llu\n", f, i,
					(unsigned long long)a->lat.b[i],
					(unsigned long long)b->lat.b[i]);
		fprintf(stderr, "flowop %d: histograms differ\n", f);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct fo_stats *mine, *want, *one;
	MPI_Datatype type;
	MPI_Op op;
	int rank, n, ok = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	mine = calloc(NFLOWOPS, sizeof(*mine));
	want = calloc(NFLOWOPS, sizeof(*want));
	one = calloc(NFLOWOPS, sizeof(*one));
	if (!mine || !want || !one)
		MPI_Abort(MPI_COMM_WORLD, 1);
	fill(mine, rank);
	/* the datatype and operation mpi/cluster.c makes */
	MPI_Type_contiguous((int)sizeof(struct fo_stats), MPI_BYTE, &type);
	MPI_Type_commit(&type);
	MPI_Op_create(cluster_merge_stats, 1, &op);
	if (rank == 0)
		MPI_Reduce(MPI_IN_PLACE, mine, NFLOWOPS, type, op, 0, MPI_COMM_WORLD);
	else
		MPI_Reduce(mine, NULL, NFLOWOPS, type, op, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		uint64_t total = 0;

		for (int f = 0; f < NFLOWOPS; f++)
			fo_stats_init(&want[f]);
		for (int r = 0; r < n; r++) {
			fill(one, r);
			for (int f = 0; f < NFLOWOPS; f++)
				fo_stats_merge(&want[f], &one[f]);
		}
		for (int f = 0; f < NFLOWOPS; f++) {
			ok &= same(&mine[f], &want[f], f);
			total += mine[f].op.count;
		}
		printf("%s: %d ranks, %llu ops in %d flowops: the reduced statistics %s the union\n",
		       ok ? "ok" : "FAIL", n, (unsigned long long)total, NFLOWOPS,
		       ok ? "equal" : "differ from");
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Op_free(&op);
	MPI_Type_free(&type);
	free(mine);
	free(want);
	free(one);
	MPI_Finalize();
	return ok ? 0 : 1;
}
