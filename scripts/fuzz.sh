#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan and UBSan) into build-fuzz/ and runs each
# for SECONDS (default 60), seeded with the repository's own inputs. The corpus grows in
# build-fuzz/corpus/TARGET across runs; crashes, timeouts and leaks are written to
# build-fuzz/artifacts/ and make the script exit non-zero. Reproduce one with
# `build-fuzz/fuzz/TARGET FILE`. Needs clang and libFuzzer (Debian: clang, libclang-rt-14-dev).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (asm binary config energy ptx scenario; default all)
# CPU-heavy: on a shared machine run it under `nice -n 19`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(asm binary config energy ptx scenario)
for t in "${targets[@]}"; do
  case "$t" in asm|binary|config|energy|ptx|scenario) ;; *) echo "fuzz: unknown target '$t' (asm binary config energy ptx scenario)" >&2; exit 2 ;; esac
done
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi
scripts/setup.sh
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
b=build-fuzz
cmake -S . -B $b -DSIMTLM_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "${launcher[@]}" >/dev/null
cmake --build $b -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

# Binary seeds: every shipped kernel assembled by `simtlm asm` of the default build, with and
# without hint bits.
mkdir -p $b/seeds/binary $b/artifacts $b/logs
if [[ " ${targets[*]} " == *" binary "* ]]; then
  [ -x build/simtlm ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null &&
                           cmake --build build -j"$(nproc)" --target simtlm; }
  for s in workloads/kernels/*.s scenarios/kernels/*.s; do
    out=$b/seeds/binary/$(basename "$s" .s)
    [ -s "$out.bin" ] || build/simtlm asm "$s" -o "$out.bin" >/dev/null
    [ -s "$out.hints.bin" ] || build/simtlm asm "$s" --hints -o "$out.hints.bin" >/dev/null
  done
fi

# PTX seeds: the committed nvcc output of the CUDA workloads (only the .ptx files: the folder
# also holds their .cu sources).
if [[ " ${targets[*]} " == *" ptx "* ]]; then
  mkdir -p $b/seeds/ptx
  cp -p workloads/cuda/*.ptx $b/seeds/ptx/
fi

seeds() {
  case "$1" in
    asm) echo workloads/kernels scenarios/kernels tests/asm_errors ;;
    binary) echo $b/seeds/binary ;;
    config) echo configs tests/config_errors ;;
    energy) echo configs/energy tests/energy_errors ;;
    ptx) echo $b/seeds/ptx ;;
    scenario) echo scenarios tests/scenario_errors tests/scenario_failing ;;
  esac
}

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=()
for t in "${targets[@]}"; do
  mkdir -p $b/corpus/$t
  log=$b/logs/$t.log
  echo "fuzz: $t for ${secs} s (log $log)"
  status=0
  # shellcheck disable=SC2046
  $b/fuzz/fuzz_$t $b/corpus/$t $(seeds $t) -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix=$b/artifacts/$t- >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  echo "fuzz: $t: ${runs:-?} executions, ${cov:-no coverage line}, corpus $(ls $b/corpus/$t | wc -l) files, exit $status"
  if [ "$status" -ne 0 ]; then
    failed+=("$t")
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz:|.*runtime error)' "$log" | head -5 || true
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]} (inputs in $b/artifacts/)" >&2
  exit 1
fi
