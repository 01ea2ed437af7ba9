#!/usr/bin/env bash
# Installs dependencies (if missing) and builds the program build/simtlm (not the tests:
# scripts/test.sh builds those).
#
# --pgo: a profile-guided build (cmake/pgo.cmake, docs/performance.md). build/ is first built
# instrumented, scripts/pgo_train.sh runs it, then build/ is compiled again with the profile;
# later `scripts/build.sh --pgo` runs reuse that profile (a function edited since is compiled
# without its counts) until `--pgo --retrain`. About twice the build time once; results are the
# same, the simulation faster. Without --pgo, an ordinary build (and a profile-guided build/
# goes back to one).
set -euo pipefail
cd "$(dirname "$0")/.."
pgo=0
retrain=0
for arg in "$@"; do
  case "$arg" in
    --pgo) pgo=1 ;;
    --retrain) retrain=1 ;;
    *) echo "build.sh: unknown option '$arg' (allowed: --pgo, --pgo --retrain)" >&2; exit 2 ;;
  esac
done
if [[ $retrain == 1 && $pgo == 0 ]]; then
  echo "build.sh: --retrain needs --pgo" >&2
  exit 2
fi
scripts/setup.sh
jobs="$(nproc)"
stamp=build/pgo-trained  # written when a training completed: the .gcda files beside the objects are whole
if [[ $pgo == 1 ]]; then
  if [[ $retrain == 1 || ! -f $stamp ]]; then
    rm -f "$stamp"
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSIMTLM_PGO=generate >/dev/null
    cmake --build build -j"$jobs" --target simtlm
    find build -name '*.gcda' -delete  # (counts of an earlier training would add up)
    scripts/pgo_train.sh build
    touch "$stamp"
  fi
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSIMTLM_PGO=use >/dev/null
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSIMTLM_PGO= >/dev/null
fi
cmake --build build -j"$jobs" --target simtlm
echo "build.sh: build/simtlm is up to date (${SECONDS} s)"
