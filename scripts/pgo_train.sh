#!/usr/bin/env bash
# The training runs of the profile-guided build (cmake/pgo.cmake, scripts/build.sh): an
# instrumented simtlm runs a spread of what architects run, so that the profile weighs the
# timing model's hot paths (SM pipeline, memory side, the mechanisms' hooks), the functional
# interpreter and the PTX front end as they are used. About a minute on the instrumented binary.
# Usage: scripts/pgo_train.sh BUILD_DIR   (BUILD_DIR/simtlm is instrumented)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1/simtlm"
[[ -x "$bin" ]] || { echo "pgo_train.sh: no program at $bin" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$bin" "$@" >"$out/log" 2>&1 || { cat "$out/log" >&2; echo "pgo_train.sh: failed: simtlm $*" >&2; exit 1; }; }
# Compute-bound, shared memory and barriers, under every mechanism family.
for m in baseline darsie uv dac-ideal affine-abm bow-wr; do
  run run tests/small_sizes/matmul.yaml --mechanism "$m"
done
# Memory-bound and many launches; divergence; a stencil; atomics.
run run tests/small_sizes/floydwarshall.yaml
run run tests/small_sizes/pathfinder.yaml
run run tests/small_sizes/srad.yaml --mechanism darsie
run run scenarios/atomics_histogram.yaml
run run scenarios/divergence.yaml
run run scenarios/cuda/backprop.yaml  # (a kernel nvcc compiled, through the PTX front end)
# The interpreter beside the timing model, and two SM threads (sim.threads).
run bench --sms 4 --size 128 --repeat 1 --threads 1,2
echo "pgo_train.sh: profile written (${SECONDS} s)"
