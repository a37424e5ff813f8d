#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# Checks, without changing anything, that every tracked .cpp and .h follows
# .clang-format; prints each drift and exits non-zero when there is one.
#   tools/check-format.sh [CLANG_FORMAT]     (default: $CLANG_FORMAT or clang-format)
# CTest runs it as the test `format` when configured with -DCONVOFFLOAD_CHECK_FORMAT=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${1:-${CLANG_FORMAT:-clang-format}}

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -d '' files < <(git ls-files -z -- '*.cpp' '*.h')
else # a source tarball: the same folders git tracks
    mapfile -d '' files < <(find app core tests ui -name '*.cpp' -print0 -o -name '*.h' -print0 | sort -z)
fi
[ ${#files[@]} -gt 0 ] || { echo "check-format: no source files found" >&2; exit 1; }
"$clang_format" --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files follow .clang-format"
