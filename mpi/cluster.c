/*
 * cluster.c - flowbench-mpi's ranks before the run: who is who, the
 * front end's one message for the whole job, each rank's own directory.
 *
 * Every rank compiles the workload itself (with its own $rank, $nranks
 * and $hostname), so a workload can shape itself per client; the ranks
 * then agree that every one compiled it, and that they all run the same
 * flowops (their statistics are added line by line).  Rank 0's front end
 * writes to stderr; the others write into memory, shown only when rank 0
 * compiled and they did not, so a script error is printed once.
 */
#include "mpi/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/flowop.h"
#include "plan/oom.h"
#include "runtime/base/log.h"
#include "runtime/measure/astats.h"

const char *cluster_mpi_error(int code, char *buf, int size)
{
	int len = 0;

	if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS)
		snprintf(buf, (size_t)size, "MPI error %d", code);
	return buf;
}

/* flowbench-mpi runs workloads; the offline commands belong to flowbench. */
static bool cluster_accepts(void *ctx, const struct cli_args *args)
{
	struct cluster *cl = ctx;

	cl->shared_files = args->shared_files;
	cl->interval_s = args->interval_s;
	if (args->cmd == CLI_RUN || args->cmd == CLI_HELP || args->cmd == CLI_VERSION)
		return true;
	if (cl->rank == 0)
		log_error("flowbench-mpi runs only 'run', on many clients; "
			  "use flowbench for the other commands");
	return false;
}

/* The lowest rank for which `failed` holds, or nranks when none. */
static int first_rank_where(struct cluster *cl, bool failed)
{
	int mine = failed ? cl->rank : cl->nranks, first = cl->nranks;

	MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, cl->world);
	return first;
}

/*
 * Every rank compiled (its front end found `errors`).  When rank 0 did
 * not, its messages are already out; when only another did, that rank
 * shows its own, named.  0 when every rank compiled.
 */
static int cluster_compiled(void *ctx, int errors)
{
	struct cluster *cl = ctx;
	int first;

	if (cl->diag)
		fflush(cl->diag);
	first = first_rank_where(cl, errors != 0);
	if (first == cl->nranks)
		return 0;
	if (first == cl->rank && cl->rank != 0) {
		log_error("the workload does not compile on this rank (rank 0 compiled it):");
		fprintf(stderr, "%.*s", (int)cl->diag_len, cl->diag_text ? cl->diag_text : "");
		fflush(stderr);
	}
	return 1;
}

/* FNV-1a over `n` bytes, continuing `h`. */
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *c = data;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/*
 * A hash of what must be the same on every rank: the flowops' names and
 * report lines (their statistics are added line by line), and with
 * shared files every fileset's shape (the ranks build rank 0's trees).
 */
static uint64_t plan_shape(const struct plan *p, bool shared)
{
	uint64_t h = fnv(1469598103934665603ull, &p->nflowops, sizeof(p->nflowops));

	for (int i = 0; i < p->nflowops; i++) {
		h = fnv_str(h, p->flowops[i].name);
		h = fnv(h, &p->flowops[i].line, sizeof(p->flowops[i].line));
	}
	for (int i = 0; shared && i < p->nfilesets; i++) {
		const struct plan_fileset *f = &p->filesets[i];
		int64_t v[] = { f->is_file, (int64_t)f->size, f->size_rv, (int64_t)f->entries,
				(int64_t)f->leafdirs, (int64_t)(f->dirwidth * 1000), f->dirwidth_rv,
				f->dirgamma, f->dirdepth_rv, f->prealloc_pct };

		h = fnv_str(fnv_str(h, f->name), f->path);
		h = fnv(h, v, sizeof(v));
	}
	return h;
}

/*
 * The directory `path`/rank-NNNNN, made if missing; an existing one must
 * be a directory, not a link to one (the fileset's own checks then
 * apply below it as in a plain run).  Malloc'ed; NULL after a message.
 * When this rank made it, *made holds its parent, open, so that
 * rank_dirs_undo() can remove it again if it stayed empty.
 */
static char *rank_dir(const struct cluster *cl, const char *path, int *made)
{
	char *dir = NULL, name[32];
	struct stat st = { 0 };
	int pfd;
	bool existed = false;

	*made = -1;
	snprintf(name, sizeof(name), "rank-%05d", cl->rank);
	if (asprintf(&dir, "%s/%s", path, name) < 0)
		oom_exit();
	pfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd >= 0 && mkdirat(pfd, name, 0755) < 0) {
		if (errno == EEXIST) {
			existed = true;
		} else {
			int e = errno;

			close(pfd);
			pfd = -1;
			errno = e;
		}
	}
	if (pfd < 0) {
		log_error("cannot create this rank's directory %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)) {
		log_error("refusing to use %s as this rank's directory: it is %s", dir,
			  S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
		close(pfd);
		free(dir);
		return NULL;
	}
	if (existed)
		close(pfd);
	else
		*made = pfd;
	return dir;
}

/*
 * The rank directories this rank made and nothing filled (the job
 * stopped before any file was made in them, or the files were removed
 * again): removed, so that a job that did not run leaves nothing behind.
 * A directory with anything in it stays (unlinkat refuses it).
 */
static void rank_dirs_undo(struct cluster *cl)
{
	for (int i = 0; i < cl->npaths; i++) {
		char name[32];

		if (cl->made[i] < 0)
			continue;
		snprintf(name, sizeof(name), "rank-%05d", cl->rank);
		if (unlinkat(cl->made[i], name, AT_REMOVEDIR) == 0)
			log_info("Removed %s (made for this job, left empty)", cl->paths[i]);
		close(cl->made[i]);
		cl->made[i] = -1;
	}
}

/*
 * With shared files, no flowop may create or remove names in a fileset:
 * every rank would make and delete the same entries behind the others'
 * backs.  Returns the number of such flowops (each reported by rank 0).
 */
static int shared_name_changes(const struct cluster *cl, const struct plan *p)
{
	int n = 0;

	for (int i = 0; i < p->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];

		if (!f->ops->changes_names || f->fileset < 0)
			continue;
		n++;
		if (cl->rank == 0)
			log_error("%s:%d:%d: %s '%s' creates or removes entries of '%s', which "
				  "--shared-files shares between the ranks: they would race on its "
				  "names; run without --shared-files (each rank then has its own "
				  "directory)", p->filename, f->loc.line, f->loc.col,
				  f->ops->name, f->name, p->filesets[f->fileset].name);
	}
	return n;
}

#define SERIES_MAX_BYTES (2ull << 30)

/*
 * --interval keeps every interval's statistics until the merge (a
 * histogram per flowop per interval): refuse a series that would need
 * more than SERIES_MAX_BYTES per rank.  True after the message.
 */
static bool series_too_big(const struct cluster *cl, const struct plan *p)
{
	double rows, bytes;

	if (cl->interval_s <= 0 || p->runtime_s <= 0)
		return false;
	rows = p->runtime_s / cl->interval_s + 2;
	bytes = rows * p->nflowops * (double)sizeof(struct fo_stats);
	if (bytes <= (double)SERIES_MAX_BYTES)
		return false;
	if (cl->rank == 0)
		log_error("--interval %g over %g s with %d flowops: flowbench-mpi keeps each "
			  "interval's latency histograms for the merge, %.1f GiB per rank, more "
			  "than its limit of %llu GiB; raise --interval", cl->interval_s,
			  p->runtime_s, p->nflowops, bytes / (1 << 30),
			  SERIES_MAX_BYTES >> 30);
	return true;
}

/*
 * The plan on this rank: the same flowops as every other rank's, and
 * every fileset in this rank's own directory below its path (or, with
 * --shared-files, the same files for all, prepared by rank 0).
 */
static int cluster_adapt_plan(void *ctx, struct plan *p)
{
	struct cluster *cl = ctx;
	uint64_t shape = plan_shape(p, cl->shared_files), lo = 0, hi = 0;
	bool failed = false;

	MPI_Allreduce(&shape, &lo, 1, MPI_UINT64_T, MPI_MIN, cl->world);
	MPI_Allreduce(&shape, &hi, 1, MPI_UINT64_T, MPI_MAX, cl->world);
	if (lo != hi) {
		if (cl->rank == 0)
			log_error("%s: the ranks' workloads differ ($rank, $nranks or "
				  "$hostname changed them): every rank must run the same flowops%s",
				  p->filename, cl->shared_files ? ", and with --shared-files the "
				  "same filesets (paths, sizes, entries)" : ", with any values");
		return 1;
	}
	if (series_too_big(cl, p))
		return 1;
	if (cl->shared_files)
		return shared_name_changes(cl, p) ? 1 : 0;
	cl->paths = xcalloc((size_t)p->nfilesets + 1, sizeof(*cl->paths));
	cl->made = xcalloc((size_t)p->nfilesets + 1, sizeof(*cl->made));
	for (int i = 0; i < p->nfilesets && !failed; i++) {
		int made;
		char *dir = rank_dir(cl, p->filesets[i].path, &made);

		if (!dir) {
			failed = true;
			break;
		}
		cl->made[cl->npaths] = made;
		cl->paths[cl->npaths++] = dir;
		p->filesets[i].path = dir;
	}
	if (first_rank_where(cl, failed) < cl->nranks) {
		if (!failed && cl->rank == 0)
			log_error("a rank could not make its directory (its message above): "
				  "no rank ran the workload");
		rank_dirs_undo(cl);
		return 1;
	}
	return 0;
}

/* Every rank's host name, in rank order. */
static int gather_hosts(struct cluster *cl)
{
	cl->hosts = xcalloc((size_t)cl->nranks, sizeof(*cl->hosts));
	return MPI_Allgather(cl->hostname, CLUSTER_HOST_MAX, MPI_CHAR, cl->hosts,
			     CLUSTER_HOST_MAX, MPI_CHAR, cl->world) == MPI_SUCCESS ? 0 : -1;
}

void cluster_merge_stats(void *in, void *inout, int *len, MPI_Datatype *type);
void cluster_merge_astats(void *in, void *inout, int *len, MPI_Datatype *type);

int cluster_init(struct cluster *cl)
{
	memset(cl, 0, sizeof(*cl));
	MPI_Comm_dup(MPI_COMM_WORLD, &cl->world);
	MPI_Comm_set_errhandler(cl->world, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(cl->world, &cl->rank);
	MPI_Comm_size(cl->world, &cl->nranks);
	MPI_Comm_split_type(cl->world, MPI_COMM_TYPE_SHARED, cl->rank, MPI_INFO_NULL,
			    &cl->host);
	MPI_Comm_rank(cl->host, &cl->host_rank);
	MPI_Comm_size(cl->host, &cl->host_size);
	if (gethostname(cl->hostname, sizeof(cl->hostname)) < 0)
		snprintf(cl->hostname, sizeof(cl->hostname), "unknown");
	cl->hostname[sizeof(cl->hostname) - 1] = '\0';
	snprintf(cl->origin, sizeof(cl->origin), "rank %d (%s)", cl->rank, cl->hostname);
	if (gather_hosts(cl) < 0)
		return -1;
	cl->sends = xcalloc((size_t)cl->nranks, sizeof(*cl->sends));
	MPI_Type_contiguous((int)sizeof(struct fo_stats), MPI_BYTE, &cl->stats_type);
	MPI_Type_commit(&cl->stats_type);
	MPI_Op_create(cluster_merge_stats, 1, &cl->merge_op);
	MPI_Type_contiguous((int)sizeof(struct astats), MPI_BYTE, &cl->astats_type);
	MPI_Type_commit(&cl->astats_type);
	MPI_Op_create(cluster_merge_astats, 1, &cl->astats_op);
	liveness_init(cl);
	share_init(cl);

	if (cl->rank != 0) {
		cl->diag = open_memstream(&cl->diag_text, &cl->diag_len);
		if (!cl->diag)
			oom_exit();
	}
	compile_builtins_default(cl->builtins, cl->hostname);
	cl->builtins[COMPILE_BUILTIN_RANK].i = cl->rank;
	cl->builtins[COMPILE_BUILTIN_NRANKS].i = cl->nranks;
	cl->coord = (struct run_coord){ .ops = &cluster_coord_ops, .ctx = cl };
	cl->hooks = (struct command_hooks){
		.ctx = cl,
		.accepts = cluster_accepts,
		.diag = cl->diag,
		.builtins = cl->builtins,
		.nbuiltins = COMPILE_NBUILTINS,
		.compiled = cluster_compiled,
		.adapt_plan = cluster_adapt_plan,
		.coord = &cl->coord,
		.writes_results = cl->rank == 0,
		.many_clients = true,
	};
	return 0;
}

void cluster_free(struct cluster *cl)
{
	if (cl->diag)
		fclose(cl->diag);
	free(cl->diag_text);
	rank_dirs_undo(cl);
	for (int i = 0; i < cl->npaths; i++)
		free(cl->paths[i]);
	free(cl->paths);
	free(cl->made);
	free(cl->hosts);
	free(cl->sends);
	if (!cl->live.nlost)
		share_free(cl);     /* else merges may still be landing in its buffers */
	liveness_free(cl);
	if (cl->live.nlost)
		return;         /* no collective call: a lost rank would never join it */
	MPI_Op_free(&cl->merge_op);
	MPI_Type_free(&cl->stats_type);
	MPI_Op_free(&cl->astats_op);
	MPI_Type_free(&cl->astats_type);
	MPI_Comm_free(&cl->host);
	MPI_Comm_free(&cl->world);
}
