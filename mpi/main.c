/*
 * main.c - flowbench-mpi: one workload on every rank of an MPI job,
 * one merged result (mpi/cluster.h).
 *
 * `mpirun -np N flowbench-mpi run WORKLOAD.f [-D ...] [options]` (or
 * srun): every rank runs the whole workload on its host and meets the
 * others at the engine's coordination points (runtime/engine/coord.h);
 * rank 0 prints the report of the whole job and writes the results
 * files.  The other ranks print nothing on stdout (their standard
 * output goes to /dev/null) and name themselves in every warning and
 * error.  The exit status is the worst of all ranks', on every rank;
 * when a rank was lost (mpi/liveness.c), each survivor exits with its
 * own, without MPI_Finalize.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "mpi/cluster.h"
#include "runtime/base/log.h"

/* Ranks other than 0 keep stdout quiet: rank 0 speaks for the job. */
static void quiet_stdout(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	fflush(stdout);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

/*
 * A launcher of one MPI starting a flowbench-mpi linked with another (or
 * srun with the wrong --mpi plugin) makes N jobs of one rank each, which
 * would each run the whole workload alone: the launcher's own count of
 * tasks says so.  Returns the count when it is more than MPI's one rank.
 */
static long mismatched_launch(int nranks)
{
	static const char *const counts[] = {
		"SLURM_STEP_NUM_TASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL
	};

	for (int i = 0; nranks == 1 && counts[i]; i++) {
		const char *v = getenv(counts[i]);
		long n = v ? strtol(v, NULL, 10) : 0;

		if (n > 1)
			return n;
	}
	return 0;
}

/*
 * Slurm's srun without an MPI plugin (`--mpi=none`, the usual
 * MpiDefault) starts the tasks with no process-management interface:
 * Open MPI then fails inside MPI_Init with a generic message, before
 * anything of ours could explain it.  srun's task variables without any
 * PMI's (PMIx, PMI-2/hydra, Open MPI's own launcher) say so first.
 * Returns the task count when that is the case.
 */
static long srun_without_pmi(void)
{
	static const char *const pmi[] = {
		"PMIX_RANK", "PMIX_NAMESPACE", "PMI_RANK", "PMI_FD", "PMI_SIZE",
		"OMPI_COMM_WORLD_RANK", NULL
	};
	const char *procid = getenv("SLURM_PROCID"), *ntasks = getenv("SLURM_STEP_NUM_TASKS");
	long n = ntasks ? strtol(ntasks, NULL, 10) : 0;

	if (!procid || n < 2)
		return 0;
	for (int i = 0; pmi[i]; i++)
		if (getenv(pmi[i]))
			return 0;
	return n;
}

#if defined(OPEN_MPI)
#define PMI_PLUGIN "--mpi=pmix (this flowbench-mpi uses Open MPI)"
#elif defined(MPICH_VERSION)
#define PMI_PLUGIN "--mpi=pmi2 (this flowbench-mpi uses MPICH)"
#else
#define PMI_PLUGIN "--mpi=pmix for Open MPI, --mpi=pmi2 for MPICH"
#endif

int main(int argc, char **argv)
{
	struct cluster cl;
	int provided = 0, status, worst = 0;

	log_init();
	if (srun_without_pmi()) {
		/* task 0 explains, once; every task fails */
		if (strcmp(getenv("SLURM_PROCID"), "0") == 0)
			log_error("srun started %ld tasks without an MPI plugin, so MPI "
				  "cannot join them into one job: run srun with " PMI_PLUGIN
				  "; `srun --mpi=list` shows this Slurm's plugins",
				  srun_without_pmi());
		return 1;
	}
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		log_error("MPI_Init failed");
		return 1;
	}
	if (cluster_init(&cl) < 0) {
		log_error("flowbench-mpi cannot learn the ranks' hosts");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (mismatched_launch(cl.nranks)) {
		log_error("the launcher started %ld tasks, but MPI sees "
			  "a job of one rank in each: the launcher does not belong to the MPI "
			  "flowbench-mpi was built with (srun: --mpi=pmix for Open MPI, "
			  "--mpi=pmi2 for MPICH; mpirun: the one of that MPI)",
			  mismatched_launch(cl.nranks));
		MPI_Finalize();
		return 1;
	}
	if (cl.rank != 0)
		quiet_stdout();
	log_set_origin(cl.origin);
	status = command_main(argc, argv, &cl.hooks);
	if (cl.live.nlost) {
		/*
		 * A rank was lost: MPI_Finalize and every collective would wait
		 * for it.  The survivors exit as they are; the launcher ends the
		 * job on their status.
		 */
		fflush(NULL);
		liveness_farewell(&cl);
		cluster_free(&cl);
		_exit(status ? status : 1);
	}
	MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, cl.world);
	cluster_free(&cl);
	MPI_Finalize();
	return worst;
}
