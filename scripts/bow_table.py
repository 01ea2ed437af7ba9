#!/usr/bin/python3
"""BOW's bypass opportunities (Fig. 3) and write-destination split (Fig. 7) per workload.

Runs `simtlm emulate WORKLOAD --opt ... --no-study --bow-study --json` for every scenario of
scenarios/*.yaml that launches a workload (with the scenario's options), two at a time, and
prints two Markdown tables: read and write bypass fractions for IW 2..7, and the IW-3 split
(dynamic, and the compiler hints of isa/bow_hints counted per executed instruction), with the
agreement of the two, the partial writes, and the BOC-only results never read or ended by the
warp's exit rather than an overwrite. The mean
row is the arithmetic mean over workloads, as the paper averages its benchmarks. Usage:
  scripts/bow_table.py [--simtlm build/simtlm] [--jobs 2]
"""
import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
DESTS = ("rf_only", "boc_only", "both")


def workloads():
    for f in sorted((ROOT / "scenarios").glob("*.yaml")):
        s = yaml.safe_load(f.read_text())
        for launch in s.get("launches", []):
            if "workload" in launch:
                yield launch["workload"], launch.get("options", {})


def run(simtlm, tmp, name, options):
    out = pathlib.Path(tmp) / f"{name}.json"
    cmd = ["nice", "-n", "19", simtlm, "emulate", name, "--no-study", "--bow-study", "--json", str(out)]
    for k, v in options.items():
        cmd += ["--opt", f"{k}={v}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return name, json.loads(out.read_text())["stats"]


def pct(v):
    return f"{100.0 * v:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--simtlm", default=str(ROOT / "build" / "simtlm"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = [pool.submit(run, a.simtlm, tmp, n, o) for n, o in workloads()]
        results = [j.result() for j in jobs]
    if not results:
        sys.exit("no workload scenario in scenarios/")
    rows1, rows2, sums1, sums2 = [], [], None, None
    for name, s in results:
        r, w = s["bow.reads"], s["bow.writes"]
        f1 = [s[f"bow.iw{iw}.read_bypassed"] / r for iw in range(2, 8)]
        f1 += [s[f"bow.iw{iw}.boc_only"] / w for iw in range(2, 8)]
        hint_agree = sum(s[f"bow.hint.{d}.dynamic.{d}"] for d in DESTS)
        f2 = [s[f"bow.iw3.{d}"] / w for d in DESTS] + [s[f"bow.hint.{d}"] / w for d in DESTS]
        f2 += [hint_agree / w, s["bow.partial_writes"] / w]
        f2 += [s["bow.iw3.boc_only.unread"] / w, s["bow.iw3.boc_only.at_exit"] / w]
        rows1.append((name, f1))
        rows2.append((name, f2))
        sums1 = f1 if sums1 is None else [x + y for x, y in zip(sums1, f1)]
        sums2 = f2 if sums2 is None else [x + y for x, y in zip(sums2, f2)]
    n = len(results)
    rows1.append(("**mean**", [x / n for x in sums1]))
    rows2.append(("**mean**", [x / n for x in sums2]))
    print("| workload | " + " | ".join(f"rd IW{i}" for i in range(2, 8)) + " | "
          + " | ".join(f"wr IW{i}" for i in range(2, 8)) + " |")
    print("|---" * 13 + "|")
    for name, f in rows1:
        print(f"| {name} | " + " | ".join(pct(x) for x in f) + " |")
    print()
    print("| workload | RF only | BOC only | both | hint RF only | hint BOC only | hint both | agree | partial "
          "| BOC unread | BOC at exit |")
    print("|---" * 11 + "|")
    for name, f in rows2:
        print(f"| {name} | " + " | ".join(pct(x) for x in f) + " |")


if __name__ == "__main__":
    main()
