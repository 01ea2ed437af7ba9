# A single-node Slurm on localhost for the tests, sourced by tests/slurm/*.sh: munged, slurmctld
# and slurmd with their key, configuration, sockets, ports, state and logs in one temporary
# folder, so that nothing of the machine's own Slurm or MUNGE (if any) is used or disturbed.
#   slurm_cluster_start DIR   starts the daemons (SLURM_CONF exported), or returns 77 with a reason
#   slurm_cluster_stop DIR    stops the daemons started in DIR (always safe to call, also from
#                             another process: ctest's cleanup fixture, should the test be killed)
# 77 is the tests' skip code (ctest SKIP_RETURN_CODE): Slurm cannot be started here. The
# daemons run as the calling user, root or not.

slurm_skip() { echo "SKIP: cannot start a local Slurm: $*" >&2; return 77; }

# A free TCP port on localhost (the kernel picks it), so that concurrent runs do not collide.
slurm_free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_cluster_start() {
  local dir=$1
  local b
  for b in munged slurmctld slurmd sbatch squeue sinfo; do
    command -v "$b" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$b" >/dev/null 2>&1 ||
      { slurm_skip "'$b' is not installed (Debian: apt-get install slurm-wlm munge)"; return 77; }
  done
  # The daemons run as this user (root or not: a single-user cluster needs no privileges).
  local user
  user=$(id -un 2>/dev/null) || { slurm_skip "uid $(id -u) has no user name (SlurmUser needs one)"; return 77; }
  [ -x /usr/bin/python3 ] || { slurm_skip "/usr/bin/python3 (used to pick free ports) is missing"; return 77; }
  export PATH=$PATH:/usr/sbin
  mkdir -p "$dir"/munge "$dir"/state "$dir"/spool
  chmod 0700 "$dir" "$dir"/munge
  # MUNGE: a fresh key (readable by munged's user only), its own socket, pid, seed and log.
  dd if=/dev/urandom of="$dir"/munge/munge.key bs=1024 count=1 status=none
  chmod 0400 "$dir"/munge/munge.key
  munged --force --socket="$dir"/munge/socket --key-file="$dir"/munge/munge.key \
    --pid-file="$dir"/munge/munged.pid --log-file="$dir"/munge/munged.log --seed-file="$dir"/munge/seed \
    > "$dir"/munge/start.log 2>&1 || { cat "$dir"/munge/start.log >&2; slurm_skip "munged did not start"; return 77; }
  [ -s "$dir"/munge/munged.pid ] && cat "$dir"/munge/munged.pid >> "$dir"/pids
  local node ctld_port slurmd_port cpus
  node=$(hostname -s)
  ctld_port=$(slurm_free_port)
  slurmd_port=$(slurm_free_port)
  cpus=$(nproc)
  cat > "$dir"/slurm.conf <<CONF
ClusterName=simtlmtest
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" > "$dir"/slurmctld.out 2>&1 &
  echo $! >> "$dir"/pids
  slurmd -D -f "$SLURM_CONF" -N "$node" > "$dir"/slurmd.out 2>&1 &
  echo $! >> "$dir"/pids
  # Up when the node is idle: bounded, 30 s.
  local i state=""
  for i in $(seq 1 60); do
    state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && return 0
    sleep 0.5
  done
  echo "--- slurmctld.log" >&2; tail -n 20 "$dir"/slurmctld.log "$dir"/slurmctld.out >&2 2>/dev/null
  echo "--- slurmd.log" >&2; tail -n 20 "$dir"/slurmd.log "$dir"/slurmd.out >&2 2>/dev/null
  slurm_skip "node $node is not idle after 30 s (state: '${state:-none}')"
  return 77
}

slurm_cluster_stop() {
  local dir=$1 pid live=()
  [ -f "$dir"/pids ] || return 0
  # Only processes that are still this cluster's daemons (their command line names DIR): a pid
  # recorded long ago may belong to something else by now.
  while read -r pid; do
    tr '\0' ' ' < /proc/"$pid"/cmdline 2>/dev/null | grep -qF "$dir/" && live+=("$pid")
  done < "$dir"/pids
  # Jobs first (their steps run under slurmd), while the controller is still up.
  [ ${#live[@]} -gt 0 ] && SLURM_CONF="$dir"/slurm.conf timeout 5 scancel -u "$(id -un)" 2>/dev/null
  for pid in "${live[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${live[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -f "$dir"/pids
}
