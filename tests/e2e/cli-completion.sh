#!/bin/sh
# cli-completion.sh - the bash (and, when zsh is installed, zsh)
# completion complete subcommands, each subcommand's options, workload
# names from the catalogue, and -D variable names read from the workload
# file named on the line.
. "$(dirname "$0")/lib.sh"
need bash

# complete WORDS...: the bash completion's candidates for the last word
complete_bash() {
	FLOWBENCH_WORKLOADS=$WORKLOADS bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_flowbench
		printf "%s\n" "${COMPREPLY[@]}"' sh "$TOP_SRCDIR/completions/flowbench" "$@"
}
# expect WANT WORDS...: WANT is among the candidates
expect() {
	want=$1
	shift
	complete_bash "$FLOWBENCH" "$@" >"$tmp/c"
	grep -qxF -- "$want" "$tmp/c" || { cat "$tmp/c"; fail "bash: '$*<TAB>' does not offer '$want'"; }
}
expect run ""
expect import-fio im
expect --runtime run fileserver --ru
expect -o report a.json -
expect --dir list --
expect --format compare a.json b.json --fo
expect fileserver run filese
expect warm run fileserver --cache w
expect keep run fileserver --cache k
expect nfiles= run fileserver -D nf
expect -Dfilesize= check "$WORKLOADS/randomrw.f" -Dfiles
expect nthreads= -f "$WORKLOADS/randomrw.f" --define nth
expect --again run --ag
expect --threshold compare a.json b.json --thr
expect p99= compare a.json b.json --threshold p9
expect --junit compare a.json b.json --ju
complete_bash "$FLOWBENCH" compare a.json --ru >"$tmp/c"
grep -q -- --runtime "$tmp/c" && fail "bash: compare is offered run's --runtime"
ok "bash: subcommands, options per subcommand, workload names, -D names from the file"

command -v zsh >/dev/null 2>&1 || { ok "zsh is not installed: its completion is not exercised"; exit 0; }
# zsh: the function with compadd and _files stubbed to print candidates
complete_zsh() {
	FLOWBENCH_WORKLOADS=$WORKLOADS zsh -f -c '
		compadd() { local p= s=; while [[ $1 == -* ]]; do
			case $1 in (-P) p=$2; shift 2 ;; (-S) s=$2; shift 2 ;; (--) shift; break ;; (*) shift ;; esac; done
			local w; for w in "$@"; do print -r -- "$p$w$s"; done; }
		_files() { :; }
		f=$1; shift; words=("$@"); CURRENT=$#
		. "$f"' zsh "$TOP_SRCDIR/completions/_flowbench" "$@"
}
zexpect() {
	want=$1
	shift
	complete_zsh "$FLOWBENCH" "$@" >"$tmp/z"
	grep -qxF -- "$want" "$tmp/z" || { cat "$tmp/z"; fail "zsh: '$*<TAB>' does not offer '$want'"; }
}
zexpect check ""
zexpect --runtime run fileserver --ru
zexpect fileserver run filese
zexpect nfiles= run fileserver -D nf
zexpect -Dfilesize= check "$WORKLOADS/randomrw.f" -Dfiles
zexpect p99.9= compare a.json b.json --threshold p
ok "zsh: subcommands, options, workload names, -D names from the file"
