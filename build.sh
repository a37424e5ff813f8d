#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# One entry point from a fresh Debian 12 machine:
#   ./build.sh run    install what is missing, build, run the main job (GUI or
#                     headless report, comparison of the samples, optimiser)
#   ./build.sh test   install what is missing, build, run every test (CTest)
#   ./build.sh bench  install what is missing, build, run the benchmark
#   ./build.sh sanitize  the core suites (ctest -L core) built with ASan and
#                     UBSan (the sanitize preset); `test` runs it too when CI=true
#   ./build.sh fuzz   install what is missing, build the libFuzzer targets
#                     (clang, ASan+UBSan) and run each for FUZZ_SECONDS (60)
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake ninja-build g++ pkg-config
          qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev
          nlohmann-json3-dev libcsv-dev coinor-libcbc-dev coinor-cbc
          libonnx-dev libprotobuf-dev libonnx-testdata  # ONNX import; its headers need protobuf's; conformance cases
          appstream desktop-file-utils dpkg-dev file  # the ship tests: metainfo, .desktop, .deb
          clang-format  # the format test
          poppler-utils  # tst_exportpresets reads exported PDFs back (pdftotext, pdftocairo)
          acl  # tst_hostilesaves gives a shared file an ACL entry (setfacl) and reads it back (getfacl)
          parallel slurm-wlm munge)  # tst_explore_engines runs explore's shards on GNU Parallel and a local Slurm
BUILD_DIR=${BUILD_DIR:-build}

install_missing() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return
    echo "Installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# build [CMAKE_ARGS...]: configure (the cache keeps earlier choices) and build.
build() {
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
    cmake --build "$BUILD_DIR" -j"$(nproc)"
}

# The core suites under AddressSanitizer and UndefinedBehaviorSanitizer. A
# report stops the test at once with its own exit code (86 ASan, 87 UBSan,
# 23 LSan), so it can never pass for a program's ordinary "exit 1".
sanitize_core() {
    cmake --preset sanitize
    cmake --build build-sanitize -j"$(nproc)" --target core-tests
    # ASan runs several times slower than Release (at -O0, 10-50x): Qt Test's
    # watchdog of 300 s per test function (a budgeted search of 12x12 G3 in
    # tst_kernelfamily once took longer) gets an hour, as in the tsan preset.
    QTEST_FUNCTION_TIMEOUT=3600000 \
    ASAN_OPTIONS=halt_on_error=1:exitcode=86:detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87 \
    LSAN_OPTIONS=suppressions=$PWD/tests/support/lsan.supp:exitcode=23 \
        ctest --test-dir build-sanitize -L core --output-on-failure -j"$(nproc)"
}

main_job() {
    # The GUI on a sample; with no display it writes the sample's figures to
    # report/ instead. Then the command-line comparison of every sample.
    "$BUILD_DIR/app/convoffload" samples/lenet5-conv1.json
    for project in samples/*.json; do
        echo "== $project"
        "$BUILD_DIR/app/convoffload-cli" compare "$project"
        echo
    done
    # The optimiser on a layer whose heuristics break the reload bound, and
    # the paper's gain figure (search only; add --ilp-time-limit S for CBC).
    echo "== optimize samples/lenet5-conv1.json"
    "$BUILD_DIR/app/convoffload-cli" optimize samples/lenet5-conv1.json --time-limit 10
    echo
    mkdir -p report
    "$BUILD_DIR/app/convoffload-cli" experiments --time-limit 2 --out report/paper-gain.svg
}

case "${1:-}" in
    run) install_missing; build; main_job ;;
    test) install_missing; build -DCONVOFFLOAD_WERROR=ON; ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"
          if [ "${CI:-}" = true ]; then sanitize_core; fi ;;
    sanitize) install_missing; sanitize_core ;;
    bench) install_missing; build; "$BUILD_DIR/tests/convoffload-bench" "${@:2}"; "$BUILD_DIR/tests/convoffload-bench-grid"
           "$BUILD_DIR/tests/convoffload-bench-search"; "$BUILD_DIR/tests/convoffload-bench-network" ;;
    fuzz) PACKAGES+=(clang); install_missing
          cmake --preset fuzz && cmake --build --preset fuzz && fuzz/run.sh "${@:2}" ;;
    *) echo "usage: $0 run|test|sanitize|bench|fuzz" >&2; exit 2 ;;
esac
