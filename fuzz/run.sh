#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# Runs every fuzz target for FUZZ_SECONDS (default 60) each, from a working
# corpus in build-fuzz/corpus/<target> seeded with fuzz/corpus/<target>.
# Crashes, leaks, timeouts and sanitizer reports go to fuzz/crashes/<target>/,
# which CTest replays on every build (fuzz_replay_<target>). Called by
# `./build.sh fuzz` after the `fuzz` preset is built.
#   FUZZ_SECONDS=3600 ./build.sh fuzz       one hour per target
#   ./build.sh fuzz project                 one target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(project strategy_csv solution onnx steps)
status=0
for t in "${targets[@]}"; do
    exe=build-fuzz/fuzz/fuzz-$t
    [ -x "$exe" ] || { echo "fuzz: no target '$t' (expected $exe)" >&2; exit 2; }
    work=build-fuzz/corpus/$t
    mkdir -p "$work" "fuzz/crashes/$t"
    cp -n fuzz/corpus/"$t"/* "$work"/ 2>/dev/null || true
    dict=()
    [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
    echo "== fuzz-$t for ${seconds}s"
    # -rss_limit_mb: an input that makes a parser allocate without bound is a
    # finding too. -timeout: one input taking more than 10 s is a hang.
    if ! "$exe" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        "${dict[@]}" -artifact_prefix="fuzz/crashes/$t/" "$work" 2> "build-fuzz/fuzz-$t.log"; then
        echo "fuzz-$t FOUND A PROBLEM: see build-fuzz/fuzz-$t.log and fuzz/crashes/$t/" >&2
        status=1
    fi
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|cov: ' "build-fuzz/fuzz-$t.log" | tail -3
done
exit $status
