#!/usr/bin/env bash
# `simtlm sweep --backend slurm` against a real single-node Slurm started here
# (tests/slurm/local_cluster.sh), compared with the local backend:
#   1. a waiting sweep: the same results.csv as the local backend, byte for byte; one array of 4
#      tasks, 2 at a time (--jobs 2 -> --array=0-3%2);
#   2. --no-wait, then --collect: a task that fails (its result path is taken by a folder) is
#      submitted again by --collect, alone (the state's second array has that one point, with the
#      first submission's --time and --jobs), fails again; once the folder is gone, a third
#      --collect runs it alone and the CSV matches;
#   3. a held array (--sbatch-arg=--hold): --wait-timeout gives up (exit 2), --collect --no-wait
#      reports it queued (exit 2), submitting again is refused; released, --collect finishes it;
#   4. sbatch refusing (an unknown partition): its message and a non-zero exit;
#   and a second collector on a folder that one already works in is refused.
# Usage: check_sweep_slurm.sh SIMTLM SWEEP.yaml WORKDIR. Exit 77 (skip) where Slurm cannot start.
set -uo pipefail
simtlm=$1 sweep=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
source "$here"/local_cluster.sh

timeout=$(command -v timeout)  # (one run has no PATH)
fail() { echo "FAIL: $*" >&2; exit 1; }
# Runs simtlm, keeping stdout and stderr in $work/NAME.out/.err, and checks its exit status.
run() {
  local name=$1 want=$2; shift 2
  "$timeout" 100 "$simtlm" "$@" > "$work/$name.out" 2> "$work/$name.err"
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/$name.out" "$work/$name.err" >&2; fail "$name: exit $rc, expected $want (simtlm $*)"; }
}
# A field of the state file: a Python expression on `s`.
state() { /usr/bin/python3 -c "import json,sys; s = json.load(open(sys.argv[1])); print($2)" "$1/slurm/state.json"; }

rm -rf "$work"
mkdir -p "$work"
# The cluster's folder is short: MUNGE's socket path must fit a Unix socket address.
cluster=$(mktemp -d /tmp/simtlm-slurm.XXXXXX)
echo "$cluster" > "$work"/cluster.dir  # for the cleanup fixture (tests/slurm/stop_cluster.sh)
trap 'slurm_cluster_stop "$cluster"; rm -rf "$cluster" "$work"/cluster.dir' EXIT
trap 'exit 1' INT TERM  # (the EXIT trap stops the daemons)
slurm_cluster_start "$cluster" || exit $?
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

run local 0 sweep "$sweep" --out "$work/local"

# 1. Waiting for the array.
run wait 0 sweep "$sweep" --out "$work/wait" --backend slurm --jobs 2 --wait-timeout 60
cmp "$work/local/results.csv" "$work/wait/results.csv" || fail "results.csv of the Slurm backend differs from the local one"
[ "$(state "$work/wait" 'len(s["submissions"])')" = 1 ] || fail "expected one submission"
[ "$(state "$work/wait" 'len(s["submissions"][0]["points"])')" = 4 ] || fail "expected 4 array tasks"
grep -q -- "--array=0-3%2" "$work/wait/slurm/job-1.sh" || fail "expected --array=0-3%2 in job-1.sh"
job=$(state "$work/wait" 's["submissions"][0]["job"]')
for t in 0 1 2 3; do [ -s "$work/wait/slurm/logs/${job}_$t.log" ] || fail "no log of task ${job}_$t"; done
grep -q "submitted job array $job: 4 tasks" "$work/wait.err" || fail "the submission was not reported"
diff <(grep -v "points with results" "$work/local.out") <(grep -v "points with results" "$work/wait.out") ||
  fail "the table on stdout differs from the local backend's"
# Run again: every point has a result, nothing is submitted; collecting it needs no Slurm.
run again 0 sweep "$sweep" --out "$work/wait" --backend slurm
[ "$(state "$work/wait" 'len(s["submissions"])')" = 1 ] || fail "a complete sweep was submitted again"
rm "$work/wait/results.csv"
PATH=/nonexistent run offline 0 sweep "$sweep" --out "$work/wait" --collect
cmp "$work/local/results.csv" "$work/wait/results.csv" || fail "collecting a complete sweep without Slurm"

# 2. --no-wait, a failing task, --collect.
mkdir -p "$work/nowait/points/divergence__darsie.json"  # `run --json` refuses to write over a folder
run nowait 0 sweep "$sweep" --out "$work/nowait" --backend slurm --no-wait --time 10:00 --jobs 3
job=$(state "$work/nowait" 's["submissions"][0]["job"]')
grep -q "submitted job array $job (4 tasks).*--collect" "$work/nowait.out" || fail "--no-wait did not say how to collect"
run collect1 1 sweep "$sweep" --out "$work/nowait" --collect --wait-timeout 60
[ "$(state "$work/nowait" 'len(s["submissions"])')" = 2 ] || fail "--collect did not submit the failed point again"
[ "$(state "$work/nowait" 's["submissions"][1]["points"]')" = "['divergence__darsie']" ] ||
  fail "the second array should hold the failed point alone: $(state "$work/nowait" 's["submissions"][1]["points"]')"
for opt in --time=10:00 --array=0-0%3; do
  state "$work/nowait" 's["submissions"][1]["sbatch"]' | grep -qF -- "'$opt'" || fail "the rerun did not keep $opt"
done
grep -q "^simtlm sweep: divergence__darsie: array task .* left no passed result" "$work/collect1.err" ||
  fail "--collect did not report the failed task"
grep -q "is a folder" "$work/collect1.err" || fail "the failed task's log was not shown"
grep -q "submit the points without a passed result again with .* --collect" "$work/collect1.err" ||
  fail "--collect did not say how to rerun the failed point"
grep -q "^  fig3_4x2 .*passed" "$work/collect1.out" || fail "--collect did not aggregate the points that passed"
rmdir "$work/nowait/points/divergence__darsie.json"
run collect2 0 sweep "$sweep" --out "$work/nowait" --collect --wait-timeout 60
[ "$(state "$work/nowait" 's["submissions"][2]["points"]')" = "['divergence__darsie']" ] || fail "the third array should hold the failed point alone"
cmp "$work/local/results.csv" "$work/nowait/results.csv" || fail "results.csv after --collect differs from the local one"

# One submitter or collector per folder at a time.
flock "$work/nowait/slurm/lock" sleep 30 &
locker=$!
for _ in $(seq 1 100); do flock -n "$work/nowait/slurm/lock" true || break; sleep 0.1; done  # until it holds it
run locked 1 sweep "$sweep" --out "$work/nowait" --collect
kill "$locker"
grep -q "another \`simtlm sweep\` is submitting or collecting in '$work/nowait'" "$work/locked.err" ||
  fail "a second collector was not refused"

# 3. A held array: waiting gives up, the array stays queued until released.
run held 2 sweep "$sweep" --out "$work/held" --backend slurm --partition debug --sbatch-arg=--hold --wait-timeout 2
job=$(state "$work/held" 's["submissions"][0]["job"]')
grep -q "stopped waiting for job $job after 2 s (--wait-timeout); the job stays in the queue" "$work/held.err" ||
  fail "--wait-timeout was not reported"
[ "$(squeue -h -r -j "$job" -o %T | sort -u)" = PENDING ] || fail "the held array should still be pending"
run held_nowait 2 sweep "$sweep" --out "$work/held" --collect --no-wait
grep -q "job $job is still in the queue (0 running, 4 pending); 0 of 4 points have results" "$work/held_nowait.err" ||
  fail "--collect --no-wait did not report the queued array"
run held_again 1 sweep "$sweep" --out "$work/held" --backend slurm
grep -q "job $job of this sweep is still in Slurm's queue" "$work/held_again.err" || fail "a second submission was not refused"
scontrol release "$job" || fail "scontrol release $job"
run held_collect 0 sweep "$sweep" --out "$work/held" --collect --wait-timeout 60
[ "$(state "$work/held" 'len(s["submissions"])')" = 1 ] || fail "--collect of a finished array submitted again"
cmp "$work/local/results.csv" "$work/held/results.csv" || fail "results.csv of the held sweep differs from the local one"

# 4. sbatch's own refusal reaches the user.
run badpart 1 sweep "$sweep" --out "$work/badpart" --backend slurm --partition nosuch
grep -q "^simtlm: error: sbatch failed (exit 1): sbatch: error: .*[Pp]artition" "$work/badpart.err" ||
  { cat "$work/badpart.err" >&2; fail "sbatch's message was not shown"; }
[ ! -e "$work/badpart/slurm/state.json" ] || fail "a refused submission was recorded"
echo "slurm sweep: all checks passed"
