#!/usr/bin/env bash
# Installs dependencies, builds the program and every test, and runs the whole default test suite
# (CTest, label 'long' excluded).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cmake --build build -j"$(nproc)"
echo "test.sh: the tests are built (${SECONDS} s in all)"
ctest --test-dir build --output-on-failure -j"$(nproc)" -LE long --timeout 600
