#!/usr/bin/env bash
# Regenerates the committed PTX of the CUDA workloads in place: workloads/cuda/NAME.cu ->
# workloads/cuda/NAME.ptx with `nvcc -ptx -O3 -arch=compute_75 NAME.cu -o NAME.ptx` (the command
# the committed files came from; cmake/cuda_ptx.cmake uses the same flags), and the CUDA
# microbenchmarks, scenarios/micro/cuda/micro.cu -> micro.ptx, with -DSIMTLM added (their
# clock64() timing left out: docs/microbenchmarks.md). Run it after changing a .cu and commit
# the .ptx with it: simtlm reads only the .ptx, so that building and running it never needs CUDA,
# and the tests cuda_ptx_current and cuda_ptx_current_micro fail while a .ptx is not what nvcc writes.
# The nvcc version is written into each file's header; that test is skipped on machines with
# another version, so regenerate with the version the other files name (or all of them at once).
# Usage: scripts/cuda_ptx.sh [NAME...]   (default: every workloads/cuda/*.cu and micro; NAME
# `micro` is scenarios/micro/cuda/micro.cu)
# nvcc is taken from $NVCC, else PATH, else /usr/local/cuda/bin.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/workloads/cuda"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "cuda_ptx: nvcc not found (install the CUDA toolkit, put nvcc on PATH or set NVCC)" >&2
  exit 2
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for cu in *.cu; do names+=("$cu"); done
  names+=(micro)
fi
for i in "${!names[@]}"; do
  n=${names[$i]%.cu}
  n=${n%.ptx}
  [ "$n" = micro ] || [ -f "$n.cu" ] || { echo "cuda_ptx: no workloads/cuda/$n.cu" >&2; exit 2; }
  names[$i]=$n
done
echo "cuda_ptx: $("$nvcc" --version | grep -o 'release [0-9.]*, V[0-9.]*')"
changed=0
for n in "${names[@]}"; do
  dir=workloads/cuda
  extra=()
  if [ "$n" = micro ]; then
    dir=scenarios/micro/cuda
    extra=(-DSIMTLM)
  fi
  # To a temporary file first: a failed compilation leaves the committed file as it was.
  # (In the file's directory: nvcc writes nothing else, and the header names no path.)
  tmp=$(mktemp "$root/$dir/$n.ptx.XXXXXX")
  trap 'rm -f "$tmp"' EXIT
  (cd "$root/$dir" && "$nvcc" -ptx -O3 -arch=compute_75 "${extra[@]}" "$n.cu" -o "$tmp")
  if cmp -s "$tmp" "$root/$dir/$n.ptx"; then
    rm -f "$tmp"
  else
    chmod 644 "$tmp"
    mv "$tmp" "$root/$dir/$n.ptx"
    echo "cuda_ptx: $dir/$n.ptx rewritten"
    changed=$((changed + 1))
  fi
  trap - EXIT
done
echo "cuda_ptx: ${#names[@]} file(s), $changed changed (${SECONDS} s)"
