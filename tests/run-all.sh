#!/bin/sh
# run-all.sh - the whole test suite, as CI runs it.
#
# Builds flowbench out of tree three times: plainly with the default compiler
# (build/) and with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), runs
# `make check` in both (Check unit tests and end-to-end tests), the
# multi-threaded tests with clang's ThreadSanitizer (build-tsan/), then
# `make distcheck` (the release tarball builds and passes without flex or
# bison; its build runs the unit tests and the tests that read the
# source tree, and the tarball must hold every file git tracks),
# flowbench-mpi with MPICH (build-mpich/, its MPI test), then 60 s of libFuzzer on the WML front end (tests/fuzz/run.sh,
# build-fuzz/; counted as one test) and 30 s more on inputs up to 1 MB
# (run.sh --long; one more test).  Ends with one line "N passed, N failed".
#
# Options: --quick skips the sanitizer build, distcheck and fuzzing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
quick=no
[ "${1:-}" = "--quick" ] && quick=yes
jobs=$(nproc 2>/dev/null || echo 2)
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT

cd "$top"
if [ -f config.status ]; then
	echo "run-all: the source tree is configured in place; run 'make distclean' first" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi

# run_check DIR [configure args...]: configure in DIR, build, make check,
# and add the harness's PASS/FAIL counts to the summary.  With $only_tests
# set, only the check programs $only_progs and those tests run.
only_progs= only_tests=
run_check() {
	dir=$1
	shift
	echo "== $dir: configure $*"
	mkdir -p "$top/$dir"
	cd "$top/$dir"
	rc=0
	"$top/configure" -q "$@" && make -s -j"$jobs" || return 1
	make -s -j"$jobs" check VERBOSE=1 ${only_tests:+"check_PROGRAMS=$only_progs" \
		"TESTS=$only_progs $only_tests"} || rc=1
	grep -E '^# (PASS|FAIL|ERROR|XPASS):' test-suite.log >>"$summary" || true
	cd "$top"
	return $rc
}

# fuzz_test LOG ARGS...: one fuzzing run, tests/fuzz/run.sh ARGS (its
# output in build/LOG), added to the summary as one test
fuzz_test() {
	log=$top/build/$1
	shift
	echo "== fuzz (tests/fuzz/run.sh $*)"
	if sh "$top/tests/fuzz/run.sh" "$@" >"$log" 2>&1; then
		tail -3 "$log"
		echo "# PASS: 1" >>"$summary"
	else
		tail -60 "$log"
		echo "# FAIL: 1" >>"$summary"
		status=1
	fi
}

status=0
run_check build || status=1
if [ $quick = no ]; then
	# clang here, so the warnings of both compilers are errors in CI
	CC=clang run_check build-asan --enable-sanitizers || status=1
	# ThreadSanitizer (build-tsan/) on the multi-threaded tests only: the
	# unit tests of histograms/psrun snapshots/eventgen, shared picking and
	# statistics; runs with many threads per process, psrun and intervals,
	# the event generator, preallocation threads, signals, io_uring,
	# compare's file-loading threads, run phases' futex waits.  A
	# report fails the test (a worker's makes the run fail).
	tsan_unit="tests/unit/test_runctl tests/unit/test_pick tests/unit/test_stats"
	tsan_e2e="tests/e2e/format.sh tests/e2e/interval.sh tests/e2e/runcontrol.sh
		tests/e2e/ratesync.sh tests/e2e/fileset.sh tests/e2e/warmup.sh
		tests/e2e/signals.sh tests/e2e/flowops-aio.sh tests/e2e/compare.sh
		tests/e2e/phases.sh"
	export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
	only_progs=$tsan_unit only_tests=$(echo $tsan_e2e)
	CC=clang run_check build-tsan --enable-tsan || status=1
	only_progs= only_tests=
	unset TSAN_OPTIONS
	# flowbench-mpi must build with MPICH too (build-mpich/): built and
	# its MPI tests run under MPICH's launcher and, where a Slurm runs
	# (.ci/run starts one), under srun --mpi=pmi2 (one test)
	if pkg-config --exists mpich 2>/dev/null; then
		echo "== build-mpich: configure --with-mpi=mpich, tests/e2e/mpi.sh, mpi-slurm.sh"
		if (mkdir -p "$top/build-mpich" && cd "$top/build-mpich" &&
		    "$top/configure" -q --with-mpi=mpich && make -s -j"$jobs" &&
		    make -s -j"$jobs" tests/mpi/merge &&
		    FLOWBENCH="$top/build-mpich/flowbench" TOP_SRCDIR="$top" \
			sh "$top/tests/e2e/mpi.sh" &&
		    { FLOWBENCH="$top/build-mpich/flowbench" TOP_SRCDIR="$top" \
			sh "$top/tests/e2e/mpi-slurm.sh"; rc=$?; [ $rc = 0 ] || [ $rc = 77 ]; }) \
			>"$top/build/mpich.log" 2>&1; then
			tail -5 "$top/build/mpich.log"
			echo "# PASS: 1" >>"$summary"
		else
			tail -60 "$top/build/mpich.log"
			echo "mpich: FAILED"
			echo "# FAIL: 1" >>"$summary"
			status=1
		fi
	fi
	# distcheck: the tarball builds (without flex or bison, read-only
	# sources), installs and cleans up; its build runs the unit tests
	# and the end-to-end tests that read the source tree's files (the
	# whole suite already ran out of tree in build/: running it again
	# took 8 of CI's 30 minutes).  That the tarball holds every file git
	# tracks is checked directly (tests/dist-complete.sh).
	echo "== distcheck"
	dist_tests='$(unit_tests) tests/e2e/layers.sh tests/e2e/cli.sh
		tests/e2e/cli-man.sh tests/e2e/cli-catalog.sh tests/e2e/install.sh
		tests/e2e/import-fio.sh tests/fuzz/regressions.sh'
	(cd "$top/build" && make -s distcheck TESTS="$(echo $dist_tests)" >distcheck.log 2>&1 &&
	 sh "$top/tests/dist-complete.sh" "$top/build/$(sed -n 's/^PACKAGE_TARNAME = //p' Makefile)-$(sed -n 's/^PACKAGE_VERSION = //p' Makefile).tar.gz" \
		>>distcheck.log 2>&1) || {
		tail -40 "$top/build/distcheck.log"
		# which test failed, and its log, from the tree distcheck left
		for log in "$top"/build/flowbench-*/_build/sub/test-suite.log; do
			[ -f "$log" ] && tail -150 "$log"
		done
		echo "distcheck: FAILED"
		echo "# FAIL: 1" >>"$summary"
		status=1
	}
	[ $status -ne 0 ] || { tail -1 "$top/build/distcheck.log"; echo "distcheck: ok"; }
	# libFuzzer on the front end (build-fuzz/): 60 s on short inputs,
	# then 30 s on inputs up to 1 MB; one test each
	fuzz_test fuzz.log 60
	fuzz_test fuzz-long.log --long 30
fi

passed=$(awk '/^# PASS:/ {n += $3} END {print n + 0}' "$summary")
failed=$(awk '/^# (FAIL|ERROR|XPASS):/ {n += $3} END {print n + 0}' "$summary")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || status=1
exit $status
