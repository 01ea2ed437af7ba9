#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/ and runs
# the default test suite (ctest -LE long) there. Not part of CI: on 2 cores the build alone takes
# far longer than the default one. Any report fails the test that caused it: UB does not recover,
# and ASan/LSan exit non-zero. Extra arguments go to ctest (e.g. -R PATTERN).
# Usage: scripts/sanitize.sh [ctest args...]      (run it under `nice -n 19` on a shared machine)
#
# scripts/sanitize.sh --tsan [ctest args...] builds with ThreadSanitizer into build-tsan/ instead and
# runs the tests of parallel SM simulation (sim.threads, docs/performance.md): the fork-join pool,
# the timeline and statistics over thread counts, and simulations at 2, 3 and 8 threads
# (label `threads`). Any race report fails the test (halt_on_error).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/setup.sh
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
if [[ "${1:-}" == "--tsan" ]]; then
  shift
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
  # SystemC's own objects are not instrumented; its coroutines run on the main thread only.
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan.supp"
  start=$(date +%s)
  cmake --build build-tsan -j"$(nproc)" --target simtlm common_tests timeline_tests
  built=$(date +%s)
  status=0
  ctest --test-dir build-tsan --output-on-failure -j"$(nproc)" -R "ForkJoinPool" "$@" || status=$?
  ctest --test-dir build-tsan --output-on-failure -j"$(nproc)" -L threads "$@" || status=$?
  # The timeline test directly: under TSan it outlasts its CTest timeout (two minutes).
  (cd build-tsan/tests && ./timeline_tests --gtest_filter='*SameTimeline*') || status=$?
  echo "sanitize --tsan: build $((built - start)) s, tests $(($(date +%s) - built)) s, exit $status"
  exit "$status"
fi
# g++'s `undefined` leaves out float-cast-overflow (a double out of a float's or an int's range).
flags="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow"
flags="$flags -fno-omit-frame-pointer"
# -O1 keeps the simulation tests within their timeouts while leaving stack traces readable.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined,float-cast-overflow" >/dev/null
# The suppression files name only SystemC's own globals (see the comments in them).
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=0"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
start=$(date +%s)
cmake --build build-asan -j"$(nproc)"
built=$(date +%s)
status=0
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -LE long --timeout 1800 "$@" || status=$?
done_at=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((done_at - built)) s, ctest exit $status"
exit "$status"
