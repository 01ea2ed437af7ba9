"""What the sweep-table scripts (affine_table.py, bow_timing_table.py) share: a sweep's point
files and the --where filter."""
import pathlib
import sys


def points_of(sweep_dir: pathlib.Path) -> pathlib.Path:
    """DIR/points, or exit with a message when DIR is not a sweep's output directory."""
    points = sweep_dir / "points"
    if not points.is_dir():
        sys.exit(f"{points}: not a directory (expected a sweep's output directory)")
    return points


def where_of(items):
    """--where KEY=VALUE items as (key, value) pairs, or exit naming the malformed one."""
    where = []
    for w in items:
        if "=" not in w:
            sys.exit(f"--where '{w}': expected KEY=VALUE")
        where.append(tuple(w.split("=", 1)))
    return where
