#!/usr/bin/env bash
# ctest's cleanup fixture of cli.sweep_slurm: stops the daemons of the cluster whose folder the
# test recorded in WORKDIR/cluster.dir (should the test have been killed before its own trap ran)
# and removes that folder. Usage: stop_cluster.sh WORKDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
source "$here"/local_cluster.sh
record=$1/cluster.dir
[ -f "$record" ] || exit 0
dir=$(cat "$record")
case "$dir" in /tmp/simtlm-slurm.*) ;; *) echo "not a test cluster's folder: '$dir'" >&2; exit 1 ;; esac
slurm_cluster_stop "$dir"
rm -rf "$dir" "$record"
