#!/usr/bin/env bash
# Regenerates the reference section of docs/statistics.md (between its GENERATED markers) from
# the statistics registry: `simtlm stats --markdown-doc`. The hand-written text around it stays.
# Usage: scripts/gen_statistics_doc.sh [BUILD_DIR]   (default: build; needs the simtlm target)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
doc="$root/docs/statistics.md"
simtlm="$build/simtlm"
[ -x "$simtlm" ] || { echo "gen_statistics_doc.sh: no program at $simtlm (build it: cmake --build $build --target simtlm)" >&2; exit 1; }
section="$(mktemp)"
trap 'rm -f "$section" "$doc.tmp"' EXIT
"$simtlm" stats --markdown-doc > "$section"
# Replace the lines from the BEGIN marker to the END marker; append the section when the file has none.
awk -v section="$section" '
  function emit(  line) { while ((getline line < section) > 0) print line; close(section); done = 1 }
  index($0, "<!-- BEGIN GENERATED: simtlm stats") == 1 { emit(); skip = 1; next }
  skip && $0 == "<!-- END GENERATED -->" { skip = 0; next }
  !skip { print }
  END {
    if (skip) { print "gen_statistics_doc.sh: docs/statistics.md has a BEGIN GENERATED marker without its END marker" > "/dev/stderr"; exit 1 }
    if (!done) { print ""; emit() }
  }' "$doc" > "$doc.tmp"
mv "$doc.tmp" "$doc"
echo "updated $doc"
