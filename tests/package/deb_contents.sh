#!/usr/bin/env bash
# `cpack -G DEB` (docs/install.md) makes a .deb of the installation under /usr: the program, the
# CMake package, headers and data, with the -dev packages a platform build needs as dependencies.
# Usage: deb_contents.sh BUILD_DIR CPACK_COMMAND
set -euo pipefail
build=$1 cpack=$2
work=$(mktemp -d /tmp/simtlm-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "deb test FAILED: $*"; exit 1; }
command -v dpkg-deb >/dev/null || { echo "deb test SKIPPED: dpkg-deb is not installed"; exit 77; }
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/simtlm_*_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack wrote no simtlm_*.deb"
dpkg-deb -c "$deb" | awk '{print $6}' >"$work/files"
for f in ./usr/bin/simtlm ./usr/lib/cmake/simtlm/simtlmConfig.cmake ./usr/lib/cmake/simtlm/simtlmTargets.cmake \
         ./usr/include/simtlm/model/gpu/gpu.h ./usr/share/simtlm/configs/energy/default.yaml \
         ./usr/share/simtlm/workloads/kernels/matmul_tiled.s ./usr/share/simtlm/examples/user_platform/main.cpp; do
  grep -qx "$f" "$work/files" || fail "the package lacks $f"
done
grep -q "^./home\|^./work\|^./tmp" "$work/files" && fail "the package holds files outside /usr"
[ "$(dpkg-deb -f "$deb" Package)" = simtlm ] || fail "package name"
dpkg-deb -f "$deb" Depends | grep -q "libsystemc-dev" || fail "Depends lacks libsystemc-dev"
echo "deb test PASSED: $(basename "$deb"), $(wc -l <"$work/files") entries"
