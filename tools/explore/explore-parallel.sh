#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# An exploration in SHARDS shards run by GNU Parallel on this machine (or,
# with parallel's --sshlogin, on several), then merged
# (docs/user/explore.md#gnu-parallel):
#   explore-parallel.sh SHARDS PREFIX TARGET EXPLORE-OPTIONS...
# e.g. explore-parallel.sh 8 resnet samples/networks/resnet8.json --mem-size 4k..256k*2 --nbop-pe 256,1024
# writes PREFIX-0.jsonl … PREFIX-<SHARDS-1>.jsonl, the job log PREFIX.joblog
# and the merged PREFIX.jsonl. Run the same command again after a stop or a
# failure: --resume-failed reruns only the shards that did not finish.
# CONVOFFLOAD_CLI names the program (default: convoffload-cli on the PATH);
# PARALLEL_JOBS how many shards run at once (default: one per core).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 SHARDS PREFIX TARGET EXPLORE-OPTIONS..." >&2
    exit 2
fi
shards=$1
prefix=$2
shift 2
cli=${CONVOFFLOAD_CLI:-convoffload-cli}
# One thread per shard: the shards are the parallelism. -q passes every
# argument as it is (spaces and all); {} is the shard's index.
seq 0 $((shards - 1)) | parallel --jobs "${PARALLEL_JOBS:-100%}" --joblog "$prefix.joblog" --resume-failed \
    --halt soon,fail=1 -q "$cli" explore "$@" --shard "{}/$shards" --threads 1 --quiet --out "$prefix-{}.jsonl"
files=()
for i in $(seq 0 $((shards - 1))); do files+=("$prefix-$i.jsonl"); done
"$cli" merge "${files[@]}" --out "$prefix.jsonl"
