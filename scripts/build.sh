#!/usr/bin/env bash
# Installs dependencies (if missing) and builds the program build/simtlm (not the tests:
# scripts/test.sh builds those).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target simtlm
echo "build.sh: build/simtlm is up to date (${SECONDS} s)"
