#!/usr/bin/env bash
# Installs the Debian packages simtlm needs. Idempotent: a no-op when all are present.
set -euo pipefail
packages=(cmake g++ make pkg-config libsystemc-dev libboost-program-options-dev libspdlog-dev
          libgtest-dev libyaml-cpp-dev nlohmann-json3-dev
          python3-matplotlib  # the figures (scripts/plot/simtlm_plot.py)
          slurm-wlm munge)  # the Slurm sweep test's single-node cluster (it uses its own key, sockets, ports)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
