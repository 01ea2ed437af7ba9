#!/usr/bin/env python3
"""The peak-memory guard (issue 39, docs/performance.md "Peak memory"): runs `simtlm run SCENARIO
--json OUT` and fails when the run's peak resident set exceeds LIMIT_MB, or the run fails. The
peak is the kernel's count for the child (getrusage RUSAGE_CHILDREN, ru_maxrss), so no tool beyond
Python is needed.

Usage: peak_rss.py SIMTLM SCENARIO LIMIT_MB OUT_JSON"""
import resource
import subprocess
import sys


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    simtlm, scenario, limit, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    r = subprocess.run([simtlm, "run", scenario, "--json", out], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=1500)
    if r.returncode != 0:
        print(r.stdout, file=sys.stderr)
        print(f"peak_rss: simtlm run {scenario} failed ({r.returncode})", file=sys.stderr)
        return 1
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # (kilobytes on Linux)
    print(f"peak_rss: {scenario}: {peak_mb:.1f} MB (limit {limit:g} MB)")
    if peak_mb > limit:
        print(f"peak_rss: {peak_mb:.1f} MB is over the limit of {limit:g} MB: find what holds the "
              "memory (heaptrack or valgrind --tool=massif), or raise the limit with the reason",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
