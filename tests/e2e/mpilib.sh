# mpilib.sh - what the flowbench-mpi tests share (sourced after lib.sh):
# the binary ($FBM, or skip), and the launcher of the MPI it was linked
# with (both may be installed, either may own the plain name mpirun):
# $MPIRUN, its flags for 3 ranks on a 2-CPU machine as root
# ($mpi_flags), the variable holding a rank's number ($rank_var), the
# transports to try one by one ($transports); mpi ARGS runs 3 ranks;
# rank_master finds a rank's master process.
FBM=${FLOWBENCH_MPI:-$(dirname "$FLOWBENCH")/flowbench-mpi}
[ -x "$FBM" ] || { echo "SKIP: flowbench-mpi was not built (configure --with-mpi)"; exit 77; }
# OpenMPI keeps memory to the end on purpose: not flowbench's leaks
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

if ldd "$FBM" | grep -q libmpich; then
	MPIRUN=$(command -v mpiexec.mpich || command -v mpiexec.hydra || true)
	mpi_flags= rank_var=PMI_RANK transports=default
else
	MPIRUN=$(command -v mpirun.openmpi || command -v mpirun || true)
	mpi_flags="--oversubscribe --allow-run-as-root" rank_var=OMPI_COMM_WORLD_RANK
	transports="tcp vader"
fi
[ -n "$MPIRUN" ] || { echo "SKIP: no launcher for the MPI flowbench-mpi uses"; exit 77; }
mpi() {
	# shellcheck disable=SC2086
	"$MPIRUN" $mpi_flags -np 3 "$@"
}
# seconds since the epoch, with fractions
now() { date +%s.%N; }
# rank_master DIR R [VAR]: the pid of rank R's master in the job whose
# directory DIR is on its command line (its parent is not a flowbench-mpi:
# the workers' is), its rank read from its environment's VAR ($rank_var,
# the MPI launcher's; SLURM_PROCID under srun); empty while there is none
rank_master() {
	for p in $(pgrep -f -- "flowbench-mpi run .*$1" || true); do
		r=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | sed -n "s/^${3:-$rank_var}=//p")
		parent=$(ps -o comm= -p "$(ps -o ppid= -p "$p" | tr -d ' ')" 2>/dev/null || true)
		[ "$r" = "$2" ] && [ "$parent" != flowbench-mpi ] && echo "$p" && return
	done
	true
}
