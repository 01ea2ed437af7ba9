#!/usr/bin/python3
"""Kim et al. Table 1's columns for the compact affine mechanisms, from a sweep's point files.

For every point of an affine mechanism and the baseline point of the same scenario and grid
values (simtlm sweep DIR/points/*.json), prints a Markdown row:
  Aff inst  affine.instructions / issue.warp_instructions (compact, suppressed not included)
  Supp aff  affine.suppressed / (affine.instructions + affine.suppressed)
  Exp inst  affine.expansions / issue.warp_instructions (the expansion overhead)
  Aff rds   affine.rf_reads_saved / the baseline's regfile.reads (warp operand reads of the VRF)
  Aff wrs   affine.rf_writes_saved / the baseline's regfile.writes
  Aff bra   affine.branches / exec.control.warp_instructions (affine-ab, affine-abm)
  Aff mem   affine.memops / affine.memops_total (global-memory instructions; affine-abm)
  speedup   baseline cycles / cycles;  energy  total energy / the baseline's
Statistics are summed over SMs. Usage:
  scripts/affine_table.py DIR [--mechanism affine-abm] [--where exec.simd_width=8 ...]
"""
import argparse
import json
import pathlib
import sys

from sweep_points import points_of, where_of


def sums(stats):
    """smN.x summed over N, keyed x."""
    out = {}
    for k, v in stats.items():
        if k.startswith("sm") and "." in k and k[2:k.index(".")].isdigit():
            name = k[k.index(".") + 1:]
            out[name] = out.get(name, 0) + v
    return out


def load(points):
    runs = {}
    for p in sorted(points.glob("*.json")):
        d = json.loads(p.read_text())
        if d.get("result") != "passed":
            continue
        key = (d["scenario"]["name"], tuple(sorted(d.get("config_set", {}).items())))
        runs[(key, d["mechanism"])] = (d, sums(d["stats"]))
    return runs


def pct(num, den):
    return f"{100.0 * num / den:.1f}%" if den else "-"


def row(name, grid, d, s, bd, bs):
    warp = s.get("issue.warp_instructions", 0)
    aff, supp = s.get("affine.instructions", 0), s.get("affine.suppressed", 0)
    cells = [
        name, grid,
        pct(aff, warp), pct(supp, aff + supp), pct(s.get("affine.expansions", 0), warp),
        pct(s.get("affine.rf_reads_saved", 0), bs["regfile.reads"]),
        pct(s.get("affine.rf_writes_saved", 0), bs["regfile.writes"]),
        pct(s.get("affine.branches", 0), s.get("exec.control.warp_instructions", 0)),
        pct(s["affine.memops"], s.get("affine.memops_total", 0)) if "affine.memops" in s else "-",
        f"{bd['stats']['gpu.cycles'] / d['stats']['gpu.cycles']:.3f}",
        f"{d['energy']['total_pj'] / bd['energy']['total_pj']:.3f}",
    ]
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=pathlib.Path, help="a sweep's output directory")
    ap.add_argument("--mechanism", default="affine-abm")
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                    help="only the points with this grid value (repeatable)")
    a = ap.parse_args()
    points = points_of(a.dir)
    where = where_of(a.where)
    runs = load(points)
    print("| workload | grid | Aff inst | Supp aff | Exp inst | Aff rds | Aff wrs | Aff bra | Aff mem | speedup | energy |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    n = 0
    for (key, mech), (d, s) in sorted(runs.items()):
        if mech != a.mechanism or (key, "baseline") not in runs:
            continue
        grid = dict(key[1])
        if any(grid.get(k) != v for k, v in where):
            continue
        bd, bs = runs[(key, "baseline")]
        shown = " ".join(f"{k}={v}" for k, v in key[1] if k not in dict(where))
        print(row(key[0], shown, d, s, bd, bs))
        n += 1
    if n == 0:
        sys.exit(f"no passed {a.mechanism} point with a passed baseline in {points}")


if __name__ == "__main__":
    main()
