#!/usr/bin/python3
"""The refactoring gate of issue 15: a change to the model's structure must not change what it
computes. `capture DIR` runs every scenario under every mechanism on the tiny and pascal
configurations and keeps each run's JSON (host time and paths left out); `compare OLD NEW`
reports every statistic whose name or value differs. Renamed statistics are listed with
--renamed OLD=NEW (repeatable); the comparison then follows the new name.

  scripts/stats_gate.py capture build/gate-before [--simtlm build/simtlm] [-j 2]
  scripts/stats_gate.py compare build/gate-before build/gate-after

A scenario whose checks name another mechanism's statistics (bow_*, uv_*, ... under the
baseline) is run under the mechanism contract instead (simtlm run --contract), so its statistics
are compared too; the report says how many runs failed in both captures (a deadlock scenario, a
block too large for `tiny`) and were compared by their message only.

Parallel SM simulation (sim.threads, docs/performance.md) must not change a statistic: capture
every mechanism and composition on one thread and on several, and compare without the parameter:

  scripts/stats_gate.py capture build/t1 --mechanisms all
  scripts/stats_gate.py capture build/t3 --mechanisms all --set sim.threads=3
  scripts/stats_gate.py compare build/t1 build/t3 --ignore config.sim.threads --ignore config_set
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MECHANISMS = ["baseline", "darsie", "darsie-ignore-store", "darsie-no-cf-sync", "darsie-early-skip"]
CONFIGS = ["tiny", "pascal"]
# Fields that describe the host or the command line, not the simulated run (and the units:
# what the statistics are, not what the run computed).
VOLATILE = {"host", "command", "config_file", "scenario", "units"}
# A scenario's check naming a statistic that only another mechanism has (simtlm run's message).
CHECK_OF_ANOTHER_MECHANISM = re.compile(r"error: checks\[\d+\]\.stat: unknown statistic")


def repo_relative(v):
    """Paths inside the repository, wherever its checkout is (two worktrees compare equal)."""
    return re.sub(r"/[^\s:'\"]*/(configs|scenarios|workloads)/", r"<repo>/\1/", v) if isinstance(v, str) else v


def flatten(x, prefix, out):
    if isinstance(x, dict):
        for k, v in x.items():
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            flatten(v, f"{prefix}[{i}]", out)
    else:
        out[prefix] = repo_relative(x)


def full_launch_stats(simtlm):
    """The options that make `simtlm run` write every launch's statistics in full: a binary that
    keeps only the GPU-wide ones by default (--launch-stats) compares equal to one without it."""
    r = subprocess.run([simtlm, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return ["--launch-stats", "all"] if "--launch-stats" in r.stdout else []


def run_point(simtlm, sets, scenario, mechanism, config, outdir, extra=()):
    name = f"{scenario.stem}.{mechanism}.{config}"
    json_path = outdir / f"{name}.json"
    cmd = [simtlm, "run", str(scenario), "--mechanism", mechanism,
           "--config", str(ROOT / "configs" / f"{config}.ini"), "--json", str(json_path), *extra]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=1800)
    gate_mode = "checks"
    if not json_path.exists() and CHECK_OF_ANOTHER_MECHANISM.search(r.stderr):
        # The scenario checks another mechanism's statistics: run it under the mechanism contract
        # instead, so the run's statistics are compared, not just its error.
        r = subprocess.run(cmd + ["--contract"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=1800)
        gate_mode = "contract"
    if not json_path.exists():  # a run that fails before writing JSON: keep its message
        json_path.write_text(json.dumps({"error": r.stderr.strip(), "exit": r.returncode}))
        return name
    data = json.loads(json_path.read_text())
    data["gate_mode"] = gate_mode
    for k in VOLATILE:
        data.pop(k, None)
    data["exit"] = r.returncode
    json_path.write_text(json.dumps(data, indent=1, sort_keys=True))
    return name


def capture(args):
    outdir = pathlib.Path(args.dir)
    outdir.mkdir(parents=True, exist_ok=True)
    scenarios = sorted((ROOT / "scenarios").glob("*.yaml"))
    mechanisms = MECHANISMS
    if args.mechanisms == "all":  # every registered mechanism, and the compositions the contract runs
        names = subprocess.run([args.simtlm, "mechanisms", "--names"], check=True, capture_output=True, text=True)
        mechanisms = names.stdout.split() + ["darsie+bow-wr"]
    elif args.mechanisms:
        mechanisms = args.mechanisms.split(",")
    points = [(s, m, c) for s in scenarios for m in mechanisms for c in CONFIGS]
    extra = full_launch_stats(args.simtlm)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name in pool.map(lambda p: run_point(args.simtlm, args.set, *p, outdir, extra), points):
            print(name, flush=True)
    print(f"captured {len(points)} runs into {outdir}")


def compare(args):
    old_dir, new_dir = pathlib.Path(args.old), pathlib.Path(args.new)
    renamed = dict(r.split("=", 1) for r in args.renamed)
    differences = 0
    old_names = {p.name for p in old_dir.glob("*.json")}
    new_names = {p.name for p in new_dir.glob("*.json")}
    names = sorted(old_names & new_names if args.common else old_names | new_names)
    errors = 0  # runs that failed in both captures: only their messages are compared
    for n in names:
        old, new = {}, {}
        for d, into in ((old_dir, old), (new_dir, new)):
            if (d / n).exists():
                flatten(json.loads((d / n).read_text()), "", into)
            else:
                into["<file>"] = "missing"
        if all(d.keys() <= {"error", "exit"} for d in (old, new)):  # no result file in either
            errors += 1
        old = {renamed.get(k, k): v for k, v in old.items()}
        for d in (old, new):
            for k in [k for k in d if any(k == i or k.startswith(i + ".") for i in args.ignore)]:
                del d[k]
        for k in sorted(old.keys() | new.keys()):
            if old.get(k, "<absent>") != new.get(k, "<absent>"):
                differences += 1
                if differences <= args.show:
                    print(f"{n}: {k}: {old.get(k, '<absent>')} -> {new.get(k, '<absent>')}")
    left = f", {len(old_names ^ new_names)} in one capture only left out" if args.common else ""
    print(f"{len(names)} runs compared ({len(names) - errors} by their statistics, {errors} failed in "
          f"both and compared by their message{left}), {differences} differences")
    return 1 if differences else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("dir")
    c.add_argument("--simtlm", default=str(ROOT / "build" / "simtlm"))
    c.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    c.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter for every run (simtlm run --set)")
    c.add_argument("--mechanisms", default="", metavar="LIST",
                   help="comma-separated mechanisms, or 'all' (default: " + ",".join(MECHANISMS) + ")")
    k = sub.add_parser("compare")
    k.add_argument("old")
    k.add_argument("new")
    k.add_argument("--renamed", action="append", default=[], metavar="OLD=NEW")
    k.add_argument("--ignore", action="append", default=[], metavar="NAME",
                   help="a field (and the fields under it) left out, e.g. a parameter that differs on purpose")
    k.add_argument("--show", type=int, default=40, help="differences printed (all are counted)")
    k.add_argument("--common", action="store_true",
                   help="compare only the runs both captures hold (e.g. a few mechanisms against a capture of all)")
    args = p.parse_args()
    if args.cmd == "capture":
        capture(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
