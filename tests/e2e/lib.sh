# lib.sh - shared helpers for the end-to-end tests (sourced, not run).
#
# Each test runs the real flowbench binary ($FLOWBENCH, set by `make
# check`) on real files in a fresh temporary directory that is removed at
# exit.  A test prints what it checks and exits non-zero on the first
# mismatch; exit 77 means "skipped" (a tool it needs is missing).

set -eu

: "${FLOWBENCH:?run through make check, or set FLOWBENCH=path/to/flowbench}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
WORKLOADS=$TOP_SRCDIR/workloads

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flowbench-e2e.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

ok() {
	echo "ok: $*"
}

need() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "SKIP: $1 is not installed"
		exit 77
	}
}

# breakdown_field OUTPUT NAME FIELD: a number from NAME's breakdown line.
# FIELD: ops, opss (ops/s), mbs (mb/s), msop (ms/op), min, max.
breakdown_field() {
	awk -v name="$2" -v field="$3" '
		$1 == name && $2 ~ /ops$/ {
			v["ops"] = $2; v["opss"] = $3; v["mbs"] = $4;
			v["msop"] = $5; v["min"] = $6; v["max"] = $8;
			s = v[field]; gsub(/[^0-9.]/, "", s); print s; exit
		}' "$1"
}
