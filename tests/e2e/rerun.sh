#!/bin/sh
# rerun.sh - results files that can be rerun (`run --again`): a results
# file keeps its workload's text (an fio job's files and includes too),
# -D values, seed and options; --again reruns that text from another
# directory after the .f is deleted, with the same workload hash and op
# mix, says each -D override and what differs in the environment, and
# its results record what they rerun.  What a rerun must refuse, and
# the size guard.
. "$(dirname "$0")/lib.sh"

need python3
mkdir "$tmp/orig" "$tmp/elsewhere"
cd "$tmp/orig"

# a fixed amount of work (finishoncount): the op mix is exact
cat >w.f <<'EOF'
# w.f - a rerun's workload: a fixed number of ops
set $dir=/nonexistent/never-used
set $count=300
define file name=f1,path=$dir,size=64k,prealloc
define process name=p,instances=1
{
  thread name=t,instances=1
  {
    flowop read name=rd,filename=f1,iosize=4k,random
    flowop write name=wr,filename=f1,iosize=4k,random
    flowop finishoncount name=done,target=rd,value=$count
  }
}
run 30
EOF
"$FLOWBENCH" run w.f -D dir="$tmp/orig/d" -D count=200 --cache warm --repeat 2 \
	--seed 4242 -o r.json -o r.yaml >run.out 2>&1 || { cat run.out; fail "the first run"; }
python3 - r.json "$tmp/orig/d" <<'PY' || fail "the results file does not hold what a rerun needs"
import json, sys
d = json.load(open(sys.argv[1]))
w = d["workload"]
assert w["source"]["kind"] == "wml" and w["source"]["text"] == open("w.f").read(), w["source"]
assert w["source"]["bytes"] == len(open("w.f", "rb").read())
assert w["files"] == [] and w["import_defines"] == [], w
assert w["defines"] == {"dir": sys.argv[2], "count": "200"}, w["defines"]
o = d["options"]
assert o == {"runtime_s": None, "cache": "warm", "repeat": 2, "keep_going": False,
             "force": False, "allow_system": False, "shared_files": False}, o
assert d["seed"] == 4242 and d["flowbench"]["version"], d["seed"]
assert "rerun_of" not in d
e = d["environment"]
assert "cpu_model" in e and all(k in e["filesystems"][0] for k in ("disk", "disk_model", "rotational"))
PY
ok "a results file keeps the workload's text, -D values, seed, options and version"

# rerun from elsewhere, the .f gone, its directory overridden
rm w.f
cp r.json r.yaml "$tmp/elsewhere/"
cd "$tmp/elsewhere"
"$FLOWBENCH" run --again r.json -D dir="$tmp/elsewhere/d" -o again.json >again.out 2>&1 ||
	{ cat again.out; fail "run --again r.json"; }
grep -q "Rerun of r.json: workload w.f (sha256 [0-9a-f]\{12\}), seed 4242, all its runs" again.out ||
	fail "no line saying what is rerun: $(head -3 again.out)"
grep -q -- "-D dir=$tmp/elsewhere/d overrides the recorded dir=$tmp/orig/d" again.out ||
	fail "the override is not said: $(grep -- -D again.out)"
grep -q "^Environment differs: file system 1 path: recorded $tmp/orig/d, now $tmp/elsewhere/d$" again.out ||
	fail "the moved fileset is not said: $(grep Environment again.out)"
[ -e "$tmp/elsewhere/d/f1" ] || fail "the rerun did not run in the new directory"
python3 - "$tmp/orig/r.json" again.json <<'PY' || fail "the rerun is not the same run"
import hashlib, json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert b["workload"]["sha256"] == a["workload"]["sha256"], "workload hash"
assert b["workload"]["source"] == a["workload"]["source"]
assert b["seed"] == a["seed"] and b["options"] == a["options"], (b["seed"], b["options"])
assert b["workload"]["file"] == "w.f"
assert b["workload"]["defines"]["count"] == "200"
mix = lambda d: [[(f["name"], f["type"], f["ops"]) for f in r["flowops"]] for r in d["runs"]]
assert mix(a) == mix(b), (mix(a), mix(b))
assert mix(b)[0][0] == ("rd", "read", 200), mix(b)
of = b["rerun_of"]
assert of["results"] == "r.json" and of["run"] is None and of["overrides"] == ["dir"], of
assert of["results_sha256"] == hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()
assert of["workload_sha256"] == a["workload"]["sha256"]
assert of["started"] == a["runs"][0]["started"]
assert "--again" in b["command"]
PY
ok "rerun from another directory after the .f was deleted: same workload hash, seed, options and op mix; rerun_of recorded"

# from the YAML file, and one run of several
"$FLOWBENCH" run --again r.yaml --run 2 -D dir="$tmp/elsewhere/d" -o run2.yaml >run2.out 2>&1 ||
	{ cat run2.out; fail "run --again r.yaml --run 2"; }
grep -q "Rerun of run 2 of 2 (once)" run2.out || fail "--run 2 not said: $(head -4 run2.out)"
python3 - "$tmp/orig/r.json" run2.yaml <<'PY' || fail "--run 2 from YAML"
import json, sys
a = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
# the YAML writer double-quotes every string value: found as text
assert '\n  sha256: "%s"\n' % a["workload"]["sha256"] in text, "hash"
assert "\n  run: 2\n" in text and "\n  repeat: 1\n" in text, "run 2 once"
PY
ok "a YAML results file reruns the same; --run N reruns that run once"

# mistakes: usage errors (2) and results files that cannot be rerun (1)
refuse() {
	want=$1 msg=$2
	shift 2
	set +e
	"$FLOWBENCH" "$@" >out 2>err
	rc=$?
	set -e
	[ $rc -eq "$want" ] && grep -q -- "$msg" err ||
		fail "$*: exit $rc (want $want), $(cat err)"
}
refuse 2 "--runtime with --again: a rerun takes the recorded run's options" run --again r.json --runtime 5
refuse 2 "--repeat with --again" run --again r.json --repeat 3
refuse 2 "--seed with --again" run --again r.json --seed 1
refuse 2 "no workload file with it" run other.f --again r.json
refuse 2 "--run N picks a run of --again's results file" run other.f --run 1
refuse 2 "--run 3: r.json has 2 runs" run --again r.json --run 3
refuse 2 "unknown option '--again'" check --again r.json
cp r.json keep.json
refuse 2 "--output r.json is the results file --again reruns" run --again r.json -o r.json
cmp -s r.json keep.json || fail "the record was written over"
refuse 1 "missing.json" run --again missing.json
python3 -c '
import json
d = json.load(open("r.json")); del d["workload"]["source"]
json.dump(d, open("old.json", "w"))'
refuse 1 "workload.source: absent: the file does not hold its workload's text" run --again old.json
refuse 1 "another tool's results (fio)" run --again "$TOP_SRCDIR/tests/data/fio/randread.json"
ok "options a rerun takes from the file, a file as well as --again, a bad --run: usage errors; unrerunnable files: 1"

# --allow-system and --force are never taken from the file
cd "$tmp/orig"
printf 'define file name=f1,path=%s/sys,size=4k,prealloc\nsystem "echo ran >>%s/ran"\n%s\n' \
	"$tmp" "$tmp" 'define process name=p,instances=1 { thread name=t,instances=1 { flowop read name=rd,filename=f1,iosize=4k } } run 0.1' >sys.f
"$FLOWBENCH" run sys.f --allow-system --cache warm -o sys.json >sys.out 2>&1 || { cat sys.out; fail "sys.f"; }
[ "$(cat "$tmp/ran")" = ran ] || fail "system did not run"
rm sys.f
refuse 1 "allow-system" run --again sys.json
grep -q "sys.json: the recorded run had --allow-system: give it again" err || fail "no warning: $(cat err)"
[ "$(wc -l <"$tmp/ran")" -eq 1 ] || fail "the system command ran again without --allow-system"
"$FLOWBENCH" run --again sys.json --allow-system >sys2.out 2>&1 || { cat sys2.out; fail "--again --allow-system"; }
[ "$(wc -l <"$tmp/ran")" -eq 2 ] || fail "--allow-system given again: not run"
ok "--allow-system is not taken from the results file: given again, it is"

# an fio job with an include: its files kept, rerun from the WML as imported
mkdir "$tmp/fio" && cd "$tmp/fio"
printf '[global]\nsize=256k\nbs=${BS}\ninclude common.fio\n[j]\nrw=randread\nnumber_ios=64\n' >job.fio
printf 'ioengine=psync\ndirectory=%s/fio/d\n' "$tmp" >common.fio
mkdir d
"$FLOWBENCH" run job.fio -D BS=4k --cache warm -o f.json >f.out 2>&1 || { cat f.out; fail "run job.fio"; }
python3 - f.json <<'PY' || fail "the fio job's files are not kept"
import json, sys
w = json.load(open(sys.argv[1]))["workload"]
assert w["source"]["kind"] == "fio" and "flowop read" in w["source"]["text"], w["source"]["kind"]
assert [f["name"] for f in w["files"]] == ["job.fio", "common.fio"], w["files"]
assert w["files"][0]["text"] == open("job.fio").read() and w["files"][1]["text"] == open("common.fio").read()
assert w["import_defines"] == ["BS"], w["import_defines"]
PY
rm job.fio common.fio
cd "$tmp/elsewhere"
"$FLOWBENCH" run --again "$tmp/fio/f.json" -o f2.json >f2.out 2>&1 || { cat f2.out; fail "--again of an fio job"; }
python3 - "$tmp/fio/f.json" f2.json <<'PY' || fail "the fio rerun differs"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a["workload"]["sha256"] == b["workload"]["sha256"]
assert a["workload"]["files"] == b["workload"]["files"]
mix = lambda d: [(f["name"], f["ops"]) for f in d["runs"][0]["flowops"]]
assert mix(a) == mix(b), (mix(a), mix(b))
PY
refuse 2 "-D BS with --again: the fio import of the recorded run took it" run --again "$tmp/fio/f.json" -D BS=8k
ok "an fio job: job file and include kept, rerun from its WML; a -D the import took is refused"

# the size guard: over 1 MiB of text, none is kept, and said
cd "$tmp/orig"
{
	cat <<'EOF'
set $dir=/nonexistent
define file name=f1,path=$dir,size=4k,prealloc
define process name=p,instances=1 { thread name=t,instances=1 { flowop read name=rd,filename=f1,iosize=4k } }
run 0.1
EOF
	python3 -c 'print(("# padding " + "x" * 90 + "\n") * 11000, end="")'
} >big.f
"$FLOWBENCH" run big.f -D dir="$tmp/orig/big" --cache warm -o big.json >big.out 2>big.err ||
	{ cat big.err; fail "big.f"; }
grep -q "big.f: its text is not kept in the results files (the workload's text and files are [0-9]* bytes, over the 1024 KiB a results file keeps)" big.err ||
	fail "no size warning: $(cat big.err)"
python3 -c '
import json
s = json.load(open("big.json"))["workload"]["source"]
assert s["text"] is None and "1024 KiB" in s["omitted"] and s["bytes"] > 1 << 20, s' ||
	fail "big.json's source"
refuse 1 "workload.source.text: not kept (the workload's text and files are" run --again big.json
ok "over 1 MiB of workload text: not kept, a warning, and --again refuses the file"
