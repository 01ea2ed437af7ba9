#!/usr/bin/env bash
# The installed package as a user meets it (docs/install.md):
#   1. `cmake --install` into a temporary prefix installs the program, the CMake package, headers
#      and share/simtlm;
#   2. the installation still works after it is moved (the program finds its data relative to
#      itself): emulate a workload, run a scenario with the default energy table, a scenario
#      outside the data folder whose config is named relative to the data folder;
#   3. SIMTLM_DATA_DIR overrides the lookup, and a wrong one is reported by name;
#   4. examples/user_platform, as installed, configures with find_package(simtlm), builds and runs.
# Usage: install_and_build.sh BUILD_DIR CMAKE_COMMAND
set -euo pipefail
build=$1 cmake=$2
work=$(mktemp -d /tmp/simtlm-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "package test FAILED: $*"; exit 1; }

"$cmake" --install "$build" --prefix "$work/first" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/simtlm lib/cmake/simtlm/simtlmConfig.cmake lib/cmake/simtlm/simtlmConfigVersion.cmake \
         lib/cmake/simtlm/simtlmTargets.cmake lib/libsimtlm_model.a include/simtlm/model/gpu/gpu.h \
         include/simtlm/isa/opcodes.def share/simtlm/configs/energy/default.yaml \
         share/simtlm/workloads/kernels/vecadd.s share/simtlm/scenarios/vecadd.yaml \
         share/simtlm/examples/user_platform/CMakeLists.txt share/simtlm/scripts/plot/simtlm_plot.py; do
  [ -e "$work/first/$f" ] || fail "the installation lacks $f"
done
grep -q "$work/first" "$work/first/lib/cmake/simtlm/simtlmTargets.cmake" && fail "simtlmTargets.cmake names the prefix: not relocatable"

mv "$work/first" "$work/moved"
p=$work/moved
cd "$work"   # no data folder here or above
"$p/bin/simtlm" emulate matmul --opt size=64 >"$work/emulate.log" 2>&1 || { cat "$work/emulate.log"; fail "emulate after the move"; }
grep -q "verify: PASSED" "$work/emulate.log" || { cat "$work/emulate.log"; fail "emulate matmul did not verify"; }
"$p/bin/simtlm" run "$p/share/simtlm/scenarios/vecadd.yaml" --json "$work/run.json" >"$work/run.log" 2>&1 \
  || { cat "$work/run.log"; fail "run with the default energy table after the move"; }
grep -q '"energy"' "$work/run.json" || fail "the run's JSON has no energy (default table not read)"
mkdir "$work/mine"
sed 's/^config: .*/config: configs\/tiny.ini/' "$p/share/simtlm/scenarios/vecadd.yaml" >"$work/mine/vecadd.yaml"
"$p/bin/simtlm" run "$work/mine/vecadd.yaml" >"$work/mine.log" 2>&1 || { cat "$work/mine.log"; fail "a scenario outside the data folder"; }

SIMTLM_DATA_DIR=$p/share/simtlm "$p/bin/simtlm" emulate vecadd >/dev/null 2>&1 || fail "SIMTLM_DATA_DIR naming the data folder"
if SIMTLM_DATA_DIR=$work/nowhere "$p/bin/simtlm" emulate vecadd >"$work/bad.log" 2>&1; then fail "a wrong SIMTLM_DATA_DIR was accepted"; fi
grep -q "SIMTLM_DATA_DIR names '$work/nowhere'" "$work/bad.log" || { cat "$work/bad.log"; fail "the wrong SIMTLM_DATA_DIR is not named"; }
cp "$p/bin/simtlm" "$work/lonely"
if "$work/lonely" emulate vecadd >"$work/lonely.log" 2>&1; then fail "a program without data ran"; fi
grep -q "set SIMTLM_DATA_DIR" "$work/lonely.log" || { cat "$work/lonely.log"; fail "no hint at SIMTLM_DATA_DIR"; }

"$cmake" -S "$p/share/simtlm/examples/user_platform" -B "$work/example" -DCMAKE_PREFIX_PATH="$p" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configuring the example with find_package(simtlm)"; }
"$cmake" --build "$work/example" -j2 >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; fail "building the example"; }
grep -q -- "-I$p/include/simtlm\|isystem $p/include/simtlm" "$work/example/CMakeFiles/example_user_platform.dir/flags.make" \
  || fail "the example does not take simtlm's headers from the installation"
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$work/example/example_user_platform" | tee "$work/example.log"
grep -q "user_platform: PASSED" "$work/example.log" || fail "the example built against the package did not pass"
echo "package test PASSED"
