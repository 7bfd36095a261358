#!/bin/sh
# slurm-setup.sh - a one-node Slurm cluster on this machine, so that
# tests/e2e/mpi-slurm.sh can run flowbench-mpi under a real srun.
#
#   tests/slurm-setup.sh          install (Debian packages), configure, start
#   tests/slurm-setup.sh stop     stop the daemons (the packages stay)
#
# For developers and, optionally, CI; root only.  Idempotent: a second run
# starts only what is not running.  It writes /etc/slurm/slurm.conf only
# when there is none or when it is this script's own (marked): a machine
# with a real cluster's configuration is left alone.  No systemd needed
# (containers have none): the daemons are started directly.  The node
# offers as many CPUs as it has; the tests start 3 ranks on 2 CPUs with
# srun --overcommit.
set -eu

MARK="# written by flowbench tests/slurm-setup.sh"
CONF=/etc/slurm/slurm.conf
NODE=$(hostname -s)

die() {
	echo "slurm-setup: $*" >&2
	exit 1
}

# is the daemon whose pid file is $1 running?
running() {
	[ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

install_packages() {
	missing=
	for p in slurmd slurmctld slurm-client munge; do
		dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "slurm-setup: installing$missing"
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null
}

# munged, as the munge user, with the key Debian's package made
start_munge() {
	[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
	chown munge:munge /etc/munge/munge.key
	chmod 0400 /etc/munge/munge.key
	mkdir -p /run/munge
	chown munge:munge /run/munge
	chmod 0755 /run/munge
	if ! running /run/munge/munged.pid; then
		echo "slurm-setup: starting munged"
		runuser -u munge -- /usr/sbin/munged
	fi
	munge -n | unmunge >/dev/null || die "munge does not work"
}

# this machine as the controller and the only node; cgroup-free plugins,
# so that it works in containers; CPUs and memory as slurmd sees them
write_conf() {
	if [ -e "$CONF" ] && ! grep -qxF "$MARK" "$CONF"; then
		die "$CONF exists and is not this script's: not touching a real cluster's configuration"
	fi
	node_line=$(slurmd -C | head -1)
	case $node_line in
	NodeName=*) ;;
	*) die "slurmd -C said: $node_line" ;;
	esac
	mkdir -p /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
	chown slurm:slurm /var/lib/slurm/slurmctld /var/log/slurm
	new=$(mktemp /etc/slurm/.slurm.conf.XXXXXX)
	cat >"$new" <<EOF
$MARK
# a one-node cluster for flowbench's tests/e2e/mpi-slurm.sh
ClusterName=flowbench
SlurmctldHost=$NODE
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$node_line State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
	chmod 0644 "$new"
	if [ -e "$CONF" ] && cmp -s "$new" "$CONF"; then
		rm -f "$new"
	else
		mv "$new" "$CONF"
		echo "slurm-setup: wrote $CONF"
	fi
}

start_slurm() {
	if ! running /run/slurmctld.pid; then
		echo "slurm-setup: starting slurmctld"
		/usr/sbin/slurmctld
	fi
	if ! running /run/slurmd.pid; then
		echo "slurm-setup: starting slurmd"
		/usr/sbin/slurmd
	fi
	# the node registers within a few seconds; one left down or drained
	# by an earlier configuration is resumed
	for _ in $(seq 30); do
		state=$(sinfo -h -n "$NODE" -o %t 2>/dev/null || true)
		case $state in
		idle* | mix* | alloc*) break ;;
		down* | drain*) scontrol update NodeName="$NODE" State=RESUME 2>/dev/null || true ;;
		esac
		sleep 1
	done
	case $state in
	idle* | mix* | alloc*) ;;
	*) die "node $NODE is '$state' (see /var/log/slurm/)" ;;
	esac
	timeout 20 srun -n1 true || die "srun -n1 true failed"
	echo "slurm-setup: node $NODE is $state; srun works; MPI plugins: $(srun --mpi=list 2>&1 | sed -n 's/^[[:space:]]\{1,\}\([a-z_0-9]*\)$/\1/p' | tr '\n' ' ')"
}

# stop by pid file: this machine's daemons, nothing else of the same name
stop_all() {
	for f in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
		if running "$f"; then
			pid=$(cat "$f")
			kill "$pid"
			for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
			echo "slurm-setup: stopped $(basename "$f" .pid) ($pid)"
		fi
	done
}

[ "$(id -u)" = 0 ] || die "run as root"
case ${1:-start} in
start)
	install_packages
	start_munge
	write_conf
	start_slurm
	;;
stop) stop_all ;;
*) die "usage: $0 [start|stop]" ;;
esac
