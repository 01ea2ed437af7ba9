#!/usr/bin/python3
"""BOW's timing results from a sweep's point files (sweeps/bow.yaml, sweeps/bow_window.yaml).

For every mechanism point with a passed baseline point of the same scenario and grid values,
one Markdown row per workload and a geometric-mean row per mechanism:
  speedup    baseline cycles / cycles (IPC ratio: both run the same instructions, except DARSIE)
  RF dyn     register-file banks' dynamic energy / the baseline's (energy component regfile)
  RF+buf     the same plus the bypass buffer's dynamic energy (bow.boc, bow.boc_half, rfc)
  conflicts  bank read conflicts (regfile.conflicts) / the baseline's
  bank rd    bank reads (regfile.reads) / the baseline's;  bank wr  bank writes (regfile.writes)
  occ mean / occ max   registers a warp's buffer held (bow.occupancy_mean averaged over SMs,
             occupancy_max the largest of any SM)
Statistics are summed over SMs. Usage:
  scripts/bow_timing_table.py DIR [--where bow.window=3 ...] [--mechanism bow-wr ...] [--baseline DIR2]
(--baseline: take the baseline points from another sweep's directory, e.g. sweeps/bow.yaml's for
sweeps/bow_window.yaml, which runs no baseline.)
"""
import argparse
import json
import math
import pathlib
import sys

from sweep_points import points_of, where_of

BUFFERS = ("bow.boc", "bow.boc_half", "rfc")


def sums(stats):
    """smN.x summed over N (and the largest value, for maxima), keyed x."""
    total, peak, count = {}, {}, {}
    for k, v in stats.items():
        if k.startswith("sm") and "." in k and k[2:k.index(".")].isdigit():
            name = k[k.index(".") + 1:]
            total[name] = total.get(name, 0) + v
            peak[name] = max(peak.get(name, v), v)
            count[name] = count.get(name, 0) + 1
    return total, peak, count


def component(d, name):
    c = d["energy"]["components"].get(name)
    return c["dynamic_pj"] if c else 0.0


def load(points):
    runs = {}
    for p in sorted(points.glob("*.json")):
        d = json.loads(p.read_text())
        if d.get("result") != "passed":
            continue
        key = (d["scenario"]["name"], tuple(sorted(d.get("config_set", {}).items())))
        runs[(key, d["mechanism"])] = d
    return runs


def ratio(a, b):
    return a / b if b else float("nan")


def metrics(d, bd):
    s, peak, count = sums(d["stats"])
    bs, _, _ = sums(bd["stats"])
    prefix = "rfc." if d["mechanism"] == "rfc" else "bow."
    rf, brf = component(d, "regfile"), component(bd, "regfile")
    buf = sum(component(d, b) for b in BUFFERS)
    occ = s.get(prefix + "occupancy_mean", 0) / max(1, count.get(prefix + "occupancy_mean", 1))
    return {
        "speedup": ratio(bd["stats"]["gpu.cycles"], d["stats"]["gpu.cycles"]),
        "rf": ratio(rf, brf), "rfbuf": ratio(rf + buf, brf),
        "conflicts": ratio(s.get("regfile.conflicts", 0), bs.get("regfile.conflicts", 0)),
        "reads": ratio(s.get("regfile.reads", 0), bs.get("regfile.reads", 0)),
        "writes": ratio(s.get("regfile.writes", 0), bs.get("regfile.writes", 0)),
        "occ": occ, "occmax": peak.get(prefix + "occupancy_max", 0),
    }


def geomean(xs):
    xs = [x for x in xs if x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=pathlib.Path, help="a sweep's output directory")
    ap.add_argument("--mechanism", action="append", default=[], help="only these mechanisms (repeatable)")
    ap.add_argument("--baseline", type=pathlib.Path, help="a sweep directory with the baseline points")
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                    help="only the points with this grid value (repeatable)")
    a = ap.parse_args()
    points = points_of(a.dir)
    where = where_of(a.where)
    runs = load(points)
    if a.baseline:
        runs.update({k: v for k, v in load(points_of(a.baseline)).items() if k[1] == "baseline"})
    rows = {}
    for (key, mech), d in sorted(runs.items()):
        if mech == "baseline" or (a.mechanism and mech not in a.mechanism):
            continue
        grid = dict(key[1])
        if any(str(grid.get(k)) != v for k, v in where):
            continue
        # The baseline ignores BOW's parameters: any baseline point of the scenario will do.
        base = runs.get((key, "baseline")) or next(
            (b for (k2, m2), b in runs.items() if m2 == "baseline" and k2[0] == key[0]), None)
        if base is None:
            continue
        # BOW's parameters (what its sweeps vary) group the rows; other set values (a scenario's
        # own, such as vecadd's warps) go with the workload's name.
        swept = {k for k, _ in key[1] if k.startswith(("bow.", "rfc."))}
        shown = " ".join(f"{k}={v}" for k, v in key[1] if k not in dict(where) and k in swept)
        label = key[0] + "".join(f" ({k}={v})" for k, v in key[1] if k not in swept and k not in dict(where))
        rows.setdefault((mech, shown), []).append((label, metrics(d, base)))
    if not rows:
        sys.exit(f"no passed mechanism point with a passed baseline in {points}")
    print("| mechanism | grid | workload | speedup | RF dyn | RF+buf | conflicts | bank rd | bank wr | occ mean | occ max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    f = lambda x: f"{x:.3f}"
    for (mech, shown), items in rows.items():
        for name, m in items:
            print(f"| {mech} | {shown} | {name} | {f(m['speedup'])} | {f(m['rf'])} | {f(m['rfbuf'])} | "
                  f"{f(m['conflicts'])} | {f(m['reads'])} | {f(m['writes'])} | {m['occ']:.2f} | {m['occmax']:.0f} |")
        g = {k: geomean([m[k] for _, m in items]) for k in ("speedup", "rf", "rfbuf", "conflicts", "reads", "writes")}
        occ = sum(m["occ"] for _, m in items) / len(items)
        occmax = max(m["occmax"] for _, m in items)
        print(f"| **{mech}** | {shown} | **geomean** | **{f(g['speedup'])}** | **{f(g['rf'])}** | **{f(g['rfbuf'])}** | "
              f"{f(g['conflicts'])} | {f(g['reads'])} | {f(g['writes'])} | {occ:.2f} | {occmax:.0f} |")


if __name__ == "__main__":
    main()
