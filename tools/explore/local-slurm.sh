#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# A single-node Slurm cluster in one folder, for trying the job-array
# template (explore.sbatch) on a workstation and for the tests
# (docs/user/explore.md#slurm):
#   local-slurm.sh start DIR   munged, slurmctld and slurmd on this machine, all
#                              state, logs and sockets in DIR, on free ports;
#                              prints `export SLURM_CONF=DIR/slurm.conf`
#   local-slurm.sh stop DIR    stops them
# Needs root (slurmd runs jobs as their user) and Debian's slurm-wlm and munge.
# Nothing outside DIR is touched: the system's munge and Slurm, if any, keep
# running with their own keys and configuration.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(realpath -m "$2")

stop() {
    local pids=()
    for daemon in slurmd slurmctld munged; do
        if [ -f "$dir/$daemon.pid" ]; then
            pids+=("$(cat "$dir/$daemon.pid")")
        fi
    done
    [ ${#pids[@]} -eq 0 ] && return 0
    kill "${pids[@]}" 2>/dev/null || true
    # Wait for the processes themselves (a daemon removes its pid file before
    # it has finished), so a following start finds the ports free.
    for _ in $(seq 100); do
        kill -0 "${pids[@]}" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "${pids[@]}" 2>/dev/null || true
    rm -f "$dir"/*.pid
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    [ "$(id -u)" -eq 0 ] || { echo "$0: needs root (slurmd starts jobs as their user)" >&2; exit 77; }
    for tool in munged slurmctld slurmd sbatch; do
        command -v "$tool" >/dev/null || { echo "$0: $tool is not installed (apt install slurm-wlm munge)" >&2; exit 77; }
    done
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    chmod 700 "$dir/munge"
    # A key of our own, so the system's munge (if any) is not involved.
    [ -f "$dir/munge/munge.key" ] || head -c 1024 /dev/urandom > "$dir/munge/munge.key"
    chmod 600 "$dir/munge/munge.key"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"

    local host cpus ctld_port slurmd_port
    host=$(hostname -s)
    cpus=$(nproc)
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=convoffload-local
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -i -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    # Ready when the node takes jobs.
    for _ in $(seq 100); do
        if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
            echo "export SLURM_CONF=$SLURM_CONF"
            return 0
        fi
        sleep 0.2
    done
    echo "$0: the local Slurm did not become ready; logs in $dir" >&2
    tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    stop
    exit 1
}

case "$action" in
    start) start ;;
    stop) stop ;;
    *) usage ;;
esac
