#!/usr/bin/python3
"""simtlm's figures, drawn with matplotlib (Debian: apt-get install python3-matplotlib).

  simtlm_plot.py sweep RESULTS.csv OUTDIR [--name NAME]   DARSIE Fig. 1/2/8/9/11 of a sweep
  simtlm_plot.py energy COMPARE.json OUT                  stacked energy per component (compare --json)
  simtlm_plot.py power POWER.csv OUT                      power over time (run --power-trace OUT.csv)
  simtlm_plot.py cpi RUN.json|SWEEPDIR... OUT              CPI stacks per workload and mechanism

Each figure is written twice, as OUT.png and OUT.svg (an OUT ending in .png or .svg names both).
The same input gives the same bytes. Exit codes: 0 drawn, 1 bad input, 3 matplotlib is missing.
To restyle every figure, edit the STYLE block below.
"""
import argparse
import csv
import json
import math
import os
import sys

# ---- STYLE: one palette and look for every figure ---------------------------------------------
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac", "#1f77b4", "#8c564b", "#17becf", "#bcbd22", "#7f7f7f", "#d62728",
           "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5"]
EXTRA_HATCHES = ["", "..", "oo"]  # series beyond the palette's length: the colours again, dotted
GEOMEAN_HATCH = "///"          # hatching of the geometric-mean (and average) bars
REFERENCE_LINE = dict(color="#555555", linestyle="--", linewidth=0.9)  # the baseline at 1
SEPARATOR_LINE = dict(color="#333333", linestyle=":", linewidth=1.0)   # before the means
RC = {
    "font.family": "DejaVu Sans", "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9,
    "xtick.labelsize": 8, "ytick.labelsize": 8, "legend.fontsize": 8, "legend.frameon": False,
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "axes.grid.axis": "y",
    "grid.color": "#dddddd", "grid.linewidth": 0.6, "axes.axisbelow": True, "figure.dpi": 100,
    "savefig.dpi": 150,
    # Deterministic files: fixed SVG ids, text kept as text (searchable, restylable).
    "svg.hashsalt": "simtlm", "svg.fonttype": "none", "path.simplify": False,
}
VALUE_BOX = dict(facecolor="white", edgecolor="none", alpha=0.8, pad=0.6)  # behind bar values
BAR_WIDTH = 0.8   # of a group's slot, shared by its bars
INCH_PER_BAR = 0.16
# -------------------------------------------------------------------------------------------------

INSTALL_HINT = "install it with: apt-get install python3-matplotlib"


class InputError(Exception):
    """Bad input: one message naming the file (and line or column), exit code 1."""


def load_pyplot():
    try:
        import matplotlib
    except ImportError:
        sys.stderr.write("simtlm_plot.py: error: matplotlib is missing; " + INSTALL_HINT + "\n")
        sys.exit(3)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update(RC)
    return plt


def save(plt, fig, out):
    """OUT.png and OUT.svg, each written to a temporary name and renamed (no half-written file)."""
    base = out[:-4] if out.endswith((".png", ".svg")) else out
    written = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        path = base + "." + ext
        tmp = path + ".tmp"
        try:
            fig.savefig(tmp, format=ext, metadata=meta, bbox_inches="tight", pad_inches=0.1)
            os.replace(tmp, path)
        except OSError as e:
            raise InputError("%s: cannot write: %s" % (path, e.strerror))
        written.append(path)
    plt.close(fig)
    print("wrote " + ", ".join(written))


def number(text, where):
    """A CSV cell: None when empty (n/a), else a float."""
    if text is None or text.strip() == "":
        return None
    try:
        return float(text)
    except ValueError:
        raise InputError("%s: '%s' is not a number" % (where, text))


def read_csv(path, required):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror))
    if not rows:
        raise InputError("%s: empty file, expected a header line" % path)
    header = rows[0]
    for col in required:
        if col not in header:
            raise InputError("%s:1: missing column '%s'" % (path, col))
    out = []
    for n, r in enumerate(rows[1:], start=2):
        if not r:
            continue
        if len(r) != len(header):
            raise InputError("%s:%d: %d fields, the header has %d" % (path, n, len(r), len(header)))
        out.append((n, dict(zip(header, r))))
    return header, out


def colour(i):
    return PALETTE[i % len(PALETTE)]


def hatch(i):
    """No hatching for the first len(PALETTE) series; the ones after reuse the colours, hatched."""
    return EXTRA_HATCHES[(i // len(PALETTE)) % len(EXTRA_HATCHES)]


def label_bars(ax, bars, values):
    """The value above each mean bar: the number a reader looks for."""
    for b, v in zip(bars, values):
        if v is not None:
            ax.annotate("%.2f" % v, (b.get_x() + b.get_width() / 2, b.get_height()), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=6.5, rotation=90,
                        bbox=VALUE_BOX)


def mean_legend(ax, mean_label, reverse=False):
    """The legend beside the axes, with an entry for the hatched mean bars when there are any."""
    from matplotlib.patches import Patch
    handles, labels = ax.get_legend_handles_labels()
    if reverse:  # stacked bars: the top segment first
        handles, labels = handles[::-1], labels[::-1]
    if mean_label:
        handles.append(Patch(facecolor="white", edgecolor="black", hatch=GEOMEAN_HATCH))
        labels.append(mean_label)
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def grouped_bars(plt, title, ylabel, groups, series, values, n_means, mean_label, reference, out, xlabel=None):
    """One group per label, one bar per series; the last n_means groups are means, hatched and
    set off by a dotted separator. values[s][g] is None where there is no value."""
    n = len(groups)
    k = max(1, len(series))
    width = max(5.0, 1.6 + INCH_PER_BAR * (n * (k + 1)))
    fig, ax = plt.subplots(figsize=(width, 3.8))
    w = BAR_WIDTH / k
    top = 0.0
    for s, name in enumerate(series):
        xs = [g - BAR_WIDTH / 2 + w * (s + 0.5) for g in range(n)]
        hs = [v if v is not None else 0.0 for v in values[s]]
        top = max([top] + hs)
        bars = ax.bar(xs, hs, w, color=colour(s), hatch=hatch(s), label=name, edgecolor="white", linewidth=0.3)
        for g in range(n - n_means, n):
            bars[g].set_hatch(GEOMEAN_HATCH)
            bars[g].set_edgecolor("black")
        label_bars(ax, bars[n - n_means:], values[s][n - n_means:])
    if reference is not None:
        ax.axhline(reference, **REFERENCE_LINE)
    if n_means and n > n_means:
        ax.axvline(n - n_means - 0.5, **SEPARATOR_LINE)
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_ylim(0, max(top, reference or 0) * 1.15 or 1.0)
    ax.set_xticks(range(n))
    ax.set_xticklabels(groups, rotation=40, ha="right", rotation_mode="anchor")
    for t in ax.get_xticklabels()[n - n_means:]:
        t.set_fontweight("bold")
    ax.set_ylabel(ylabel)
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_title(title, loc="left")
    mean_legend(ax, mean_label if n_means else None)
    save(plt, fig, out)


def stacked_bars(plt, title, ylabel, bars, components, values, n_means, mean_label, reference, out):
    """One bar per label, stacked by component; values[c][b]. The last n_means bars are means."""
    n = len(bars)
    fig, ax = plt.subplots(figsize=(max(4.5, 2.5 + 0.45 * n), 3.8))
    bottom = [0.0] * n
    for c, name in enumerate(components):
        rects = ax.bar(range(n), values[c], 0.6, bottom=bottom, color=colour(c), hatch=hatch(c), label=name,
                       edgecolor="white", linewidth=0.3)
        for b in range(n - n_means, n):
            rects[b].set_hatch(GEOMEAN_HATCH)
            rects[b].set_edgecolor("black")
        bottom = [a + v for a, v in zip(bottom, values[c])]
    for b, total in enumerate(bottom):
        ax.annotate("%.2f" % total, (b, total), xytext=(0, 2), textcoords="offset points", ha="center",
                    va="bottom", fontsize=7, bbox=VALUE_BOX)
    if reference is not None:
        ax.axhline(reference, **REFERENCE_LINE)
    if n_means and n > n_means:
        ax.axvline(n - n_means - 0.5, **SEPARATOR_LINE)
    ax.set_ylim(0, max(bottom + [reference or 0]) * 1.15 or 1.0)
    ax.set_xticks(range(n))
    tilt = n > 6 or max(len(b) for b in bars) > 14  # upright while they fit side by side
    ax.set_xticklabels(bars, rotation=30 if tilt else 0, ha="right" if tilt else "center",
                       rotation_mode="anchor")
    for t in ax.get_xticklabels()[n - n_means:]:
        t.set_fontweight("bold")
    ax.set_ylabel(ylabel)
    ax.set_title(title, loc="left")
    mean_legend(ax, mean_label if n_means else None, reverse=True)
    save(plt, fig, out)


# ---- sweep: results.csv of `simtlm sweep` ------------------------------------------------------

SWEEP_COLUMNS = ["scenario", "mechanism", "result", "energy_pj", "speedup", "instructions_vs_baseline",
                 "energy_vs_baseline", "dims", "grid_redundant", "tb_redundant", "warp_redundant",
                 "tb_uniform", "tb_affine", "tb_unstructured"]


def sweep_figures(plt, path, outdir, name):
    header, rows = read_csv(path, SWEEP_COLUMNS)
    grid_keys = header[header.index("mechanism") + 1:header.index("result")]

    def group(r):  # the points that share a baseline: "scenario value ..." (keys in the x label)
        return " ".join([r["scenario"]] + [r[k] for k in grid_keys])

    groups, dims, series = [], {}, []
    for _, r in rows:
        g = group(r)
        if g not in dims:
            groups.append(g)
            dims[g] = r["dims"]
        if r["mechanism"] != "baseline" and r["mechanism"] not in series:
            series.append(r["mechanism"])
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise InputError("%s: cannot make the folder: %s" % (outdir, e.strerror))

    def ratio_figure(column, stem, title, ylabel):
        kinds = [d for d in ("1D", "2D") if d in dims.values()]
        means = (kinds if len(kinds) > 1 else []) + ["all"]  # one kind: its mean is the overall one
        values = []
        for s in series:
            v, logs = {}, {m: [] for m in means}
            for n, r in rows:
                if r["mechanism"] != s:
                    continue
                x = number(r[column], "%s:%d: column %s" % (path, n, column))
                if x is None or x <= 0:
                    continue  # n/a: no baseline, or the point or its baseline failed
                v[group(r)] = x
                for m in means:
                    if m in ("all", r["dims"]):
                        logs[m].append(math.log(x))
            values.append([v.get(g) for g in groups] +
                          [math.exp(sum(logs[m]) / len(logs[m])) if logs[m] else None for m in means])
        # With both kinds, each group says which geometric mean it joins.
        shown = ["%s (%s)" % (g, dims[g]) for g in groups] if len(kinds) > 1 else groups
        labels = shown + ["geomean" if m == "all" else "geomean " + m for m in means]
        xlabel = " ".join(["workload"] + grid_keys) + (" (block shape)" if len(kinds) > 1 else "")
        grouped_bars(plt, "%s: %s" % (name, title), ylabel, labels, series, values, len(means),
                     "geometric mean", 1.0, os.path.join(outdir, stem), xlabel if grid_keys else None)

    if series and groups:
        fig12 = "; Fig. 12 with darsie-no-cf-sync" if "darsie-no-cf-sync" in series else ""
        ratio_figure("speedup", "fig8_speedup", "speedup over baseline (DARSIE Fig. 8%s)" % fig12, "speedup")
        ratio_figure("instructions_vs_baseline", "fig9_instructions",
                     "warp instructions executed vs baseline (DARSIE Fig. 9/10)", "executed / baseline")
        if any((number(r["energy_pj"], "%s:%d: column energy_pj" % (path, n)) or 0) > 0 for n, r in rows):
            ratio_figure("energy_vs_baseline", "fig11_energy", "energy vs baseline (DARSIE Fig. 11)",
                         "energy / baseline")

    # Fig. 1/2: each scenario's first baseline limit study (the oracle does not depend on the
    # machine's parameters) and the arithmetic mean over scenarios (the paper's "on average").
    studied = {}
    for n, r in rows:
        if r["mechanism"] == "baseline" and r["scenario"] not in studied and r["grid_redundant"] != "":
            studied[r["scenario"]] = [number(r[c], "%s:%d: column %s" % (path, n, c)) or 0.0 for c in
                                      ("grid_redundant", "tb_redundant", "warp_redundant", "tb_uniform",
                                       "tb_affine", "tb_unstructured")] + [r["dims"]]
    if not studied:
        return
    names = list(studied)
    mean = [sum(studied[s][i] for s in names) / len(names) for i in range(6)]
    cols = [[studied[s][i] for s in names] + [mean[i]] for i in range(6)]
    grouped_bars(plt, name + ": redundant warp instructions per level (DARSIE Fig. 1)",
                 "fraction of warp instructions", ["%s (%s)" % (s, studied[s][6]) for s in names] + ["average"],
                 ["grid", "TB", "warp"], cols[0:3], 1, "average", None, os.path.join(outdir, "fig1_redundancy"))
    stacked_bars(plt, name + ": TB-redundant instructions by value structure (DARSIE Fig. 2)",
                 "fraction of warp instructions", names + ["average"], ["uniform", "affine", "unstructured"],
                 cols[3:6], 1, "average", None, os.path.join(outdir, "fig2_taxonomy"))


# ---- energy: the JSON of `simtlm compare --json` -----------------------------------------------

def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:
        raise InputError("%s: not JSON: %s" % (path, e))


def energy_figure(plt, path, out):
    j = read_json(path)
    if not isinstance(j, dict) or not isinstance(j.get("mechanisms"), list):
        raise InputError("%s: expected the JSON of `simtlm compare --json` (an object with 'mechanisms')" % path)
    cols = [m for m in j["mechanisms"] if isinstance(m, dict) and isinstance(m.get("energy"), dict)]
    ref_name = j.get("reference", "baseline")
    ref = next((m for m in cols if m.get("mechanism") == ref_name), None)
    if ref is None or not ref["energy"].get("total_pj", 0) > 0:
        raise InputError("%s: the reference mechanism '%s' has no energy report to normalize to" % (path, ref_name))
    total = ref["energy"]["total_pj"]
    pj = [m["energy"].get("components_pj", {}) for m in cols]
    # Components charged anywhere, largest in the reference at the bottom.
    names = sorted({c for p in pj for c, v in p.items() if v > 0},
                   key=lambda c: (-ref["energy"].get("components_pj", {}).get(c, 0), c))
    values = [[p.get(c, 0.0) / total for p in pj] for c in names]
    scenario = j.get("scenario", {}).get("name", "?")
    title = "%s: energy per component, normalized to %s (table %s)" % (scenario, ref_name,
                                                                      ref["energy"].get("table", "?"))
    stacked_bars(plt, title, "energy / %s total" % ref_name, [m["mechanism"] for m in cols], names, values, 0,
                 None, 1.0, out)


# ---- power: the CSV of `simtlm run --power-trace OUT.csv` --------------------------------------

def power_figure(plt, path, out):
    if path.endswith(".ptrace"):
        raise InputError("%s: the HotSpot layout has no time axis; write the trace as CSV (--power-trace OUT.csv)" % path)
    header, rows = read_csv(path, ["launch", "start_s", "end_s", "total_w"])
    if not rows:
        raise InputError("%s: no windows (the run simulated no kernel cycle?)" % path)
    units = [c for c in header if c.endswith("_w") and c != "total_w"]
    num = lambda n, r, c: number(r[c], "%s:%d: column %s" % (path, n, c)) or 0.0
    t = [num(n, r, "start_s") * 1e6 for n, r in rows] + [num(rows[-1][0], rows[-1][1], "end_s") * 1e6]
    series = {u: [num(n, r, u) for n, r in rows] for u in units}
    units = sorted((u for u in units if max(series[u]) > 0), key=lambda u: -sum(series[u]))
    fig, ax = plt.subplots(figsize=(8, 3.8))
    base = [0.0] * len(rows)
    for i, u in enumerate(units):  # steps: each window's mean power over the window
        upper = [b + v for b, v in zip(base, series[u])]
        ax.fill_between(t, base + base[-1:], upper + upper[-1:], step="post", facecolor=colour(i), hatch=hatch(i),
                        edgecolor="white", label=u[:-2], linewidth=0)
        base = upper
    total = [num(n, r, "total_w") for n, r in rows]
    ax.step(t, total + total[-1:], where="post", color="black", linewidth=0.9, label="total")
    prev = rows[0][1]["launch"]
    for (n, r), x in zip(rows, t):
        if r["launch"] != prev:
            ax.axvline(x, **SEPARATOR_LINE)
            ax.annotate("launch " + r["launch"], (x, 1), xycoords=("data", "axes fraction"), xytext=(2, -2),
                        textcoords="offset points", va="top", fontsize=7)
            prev = r["launch"]
    ax.set_xlim(t[0], t[-1])
    ax.set_ylim(0, max(total) * 1.1 or 1.0)
    ax.set_xlabel("kernel time, µs")
    ax.set_ylabel("power, W")
    ax.set_title("power per component over time (%s, %d windows)" % (os.path.basename(path), len(rows)), loc="left")
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.0, 1.0))
    save(plt, fig, out)


# ---- cpi: the gpu.cpi.* statistics of `simtlm run --json` results (or a sweep's points) -------

IDLE_COLOUR = "#e3e3e3"  # no warp to schedule: kept pale, under the waits that matter

# Bottom to top; the names of model/sm/cpi_stack.h.
CPI_CATEGORIES = ["issued", "dep_alu", "dep_sfu", "dep_shared", "dep_global", "barrier", "fetch", "operands",
                  "unit_busy", "mechanism", "idle"]


def cpi_inputs(paths):
    """The result files: each RUN.json given, and every points/*.json of a sweep folder given."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            points = os.path.join(path, "points")
            if not os.path.isdir(points):
                raise InputError("%s: a folder, but not a sweep's output (no points/ in it)" % path)
            files += sorted(os.path.join(points, f) for f in os.listdir(points) if f.endswith(".json"))
        else:
            files.append(path)
    if not files:
        raise InputError("%s: no result files" % " ".join(paths))
    return files


def cpi_figure(plt, paths, out):
    runs = {}  # (scenario, mechanism) -> {category: scheduler cycles}
    for path in cpi_inputs(paths):
        j = read_json(path)
        stats = j.get("stats") if isinstance(j, dict) else None
        if not isinstance(stats, dict) or "gpu.cpi.issued" not in stats:
            raise InputError("%s: expected the JSON of `simtlm run --json` on the timing model (gpu.cpi.* statistics)" % path)
        scen = j.get("scenario", {})
        name = scen.get("name", "?") if isinstance(scen, dict) else str(scen)
        runs[(name, j.get("mechanism", "?"))] = {c: float(stats.get("gpu.cpi." + c, 0)) for c in CPI_CATEGORIES}
    scenarios = sorted({s for s, _ in runs})
    mechs = sorted({m for _, m in runs}, key=lambda m: (m != "baseline", m))
    # Each bar normalized to its workload's baseline (or, without one, to its first mechanism): its
    # height is the cycles relative to that run, its segments where the scheduler cycles went.
    bars, labels, groups = [], [], []
    for s in scenarios:
        ref_mech = next(m for m in mechs if (s, m) in runs)
        ref = sum(runs[(s, ref_mech)].values()) or 1.0
        for m in mechs:
            if (s, m) in runs:
                bars.append([runs[(s, m)][c] / ref for c in CPI_CATEGORIES])
                labels.append(m)
                groups.append(s)
    x, pos, prev = [], -1.0, None
    for g in groups:  # a gap between workloads
        pos += 1.0 if g == prev else (1.6 if prev is not None else 1.0)
        x.append(pos)
        prev = g
    fig, ax = plt.subplots(figsize=(max(5.0, 2.5 + 0.28 * len(bars)), 4.2))
    bottom = [0.0] * len(bars)
    for c, name in enumerate(CPI_CATEGORIES):
        vals = [b[c] for b in bars]
        if max(vals) <= 0:
            continue
        ax.bar(x, vals, 0.8, bottom=bottom, color=IDLE_COLOUR if name == "idle" else colour(c), hatch=hatch(c),
               label=name, edgecolor="white", linewidth=0.3)
        bottom = [a + v for a, v in zip(bottom, vals)]
    ax.axhline(1.0, **REFERENCE_LINE)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=90, fontsize=6.5)
    for s in scenarios:  # the workload's name under its group
        xs = [xi for xi, g in zip(x, groups) if g == s]
        ax.annotate(s, ((xs[0] + xs[-1]) / 2, 0), xycoords=("data", "axes fraction"), xytext=(0, -62),
                    textcoords="offset points", ha="center", va="top", fontsize=8, fontweight="bold")
    ax.set_ylim(0, max(bottom + [1.0]) * 1.1)
    ax.set_ylabel("scheduler cycles / baseline's")
    ax.set_title("CPI stacks: where every scheduler cycle went (gpu.cpi.*)", loc="left")
    handles, lbls = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], lbls[::-1], loc="upper left", bbox_to_anchor=(1.0, 1.0))
    save(plt, fig, out)


def main(argv):
    p = argparse.ArgumentParser(prog="simtlm_plot.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sweep", help="DARSIE Fig. 1/2/8/9/11 from a sweep's results.csv")
    s.add_argument("results")
    s.add_argument("outdir")
    s.add_argument("--name", help="the sweep's name in the titles (default: the results folder's name)")
    e = sub.add_parser("energy", help="stacked energy per component from `compare --json`")
    e.add_argument("json")
    e.add_argument("out")
    w = sub.add_parser("power", help="power over time from `run --power-trace OUT.csv`")
    w.add_argument("csv")
    w.add_argument("out")
    c = sub.add_parser("cpi", help="CPI stacks from `run --json` results or sweep folders")
    c.add_argument("inputs", nargs="+", metavar="RUN.json|SWEEPDIR")
    c.add_argument("out")
    a = p.parse_args(argv)
    plt = load_pyplot()
    try:
        if a.what == "sweep":
            name = a.name or os.path.basename(os.path.dirname(os.path.abspath(a.results)))
            sweep_figures(plt, a.results, a.outdir, name)
        elif a.what == "energy":
            energy_figure(plt, a.json, a.out)
        elif a.what == "cpi":
            cpi_figure(plt, a.inputs, a.out)
        else:
            power_figure(plt, a.csv, a.out)
    except InputError as err:
        sys.stderr.write("simtlm_plot.py: error: %s\n" % err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
