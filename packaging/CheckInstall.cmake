# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# ctest -R ship_install: install the build tree into a staging prefix, then
# run the installed programs from there. The installed CLI must find the
# installed CBC worker (bin/../libexec/convoffload) with nothing from the
# build tree on its way.
#   cmake -DBUILD_DIR=... -DSTAGE=... -DVERSION=... -DAPP_ID=... -DBINDIR=...
#         -DLIBEXECDIR=... -DDATADIR=... -DDOCDIR=... -P CheckInstall.cmake

function(run_checked out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected output matching '${pattern}', got:\n${text}")
  endif()
endfunction()

file(REMOVE_RECURSE "${STAGE}")
run_checked(ignored "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${STAGE}")

foreach(file
    ${BINDIR}/convoffload
    ${BINDIR}/convoffload-cli
    ${LIBEXECDIR}/convoffload/convoffload-cbc-worker
    ${LIBEXECDIR}/convoffload/convoffload-onnx-worker
    ${LIBEXECDIR}/convoffload/convoffload-cli-full
    ${DATADIR}/convoffload/samples/paper-example.json
    ${DATADIR}/convoffload/samples/lenet5-conv1.json
    ${DATADIR}/applications/${APP_ID}.desktop
    ${DATADIR}/metainfo/${APP_ID}.metainfo.xml
    ${DATADIR}/icons/hicolor/scalable/apps/${APP_ID}.svg
    ${DOCDIR}/README.md
    ${DOCDIR}/docs/user/visualiser.md
    ${DOCDIR}/docs/design/optimisers.md
    ${DOCDIR}/docs/notebook/optimiser.md
    ${DOCDIR}/resources/screenshots/lenet5-conv1-zigzag.png)
  if(NOT EXISTS "${STAGE}/${file}")
    message(FATAL_ERROR "not installed: ${STAGE}/${file}")
  endif()
endforeach()
# The licence and Debian's copyright file, machine-readable (DEP-5), naming it.
foreach(file ${DOCDIR}/LICENSE ${DOCDIR}/copyright)
  if(NOT EXISTS "${STAGE}/${file}")
    message(FATAL_ERROR "not installed: ${STAGE}/${file}")
  endif()
endforeach()
file(READ "${STAGE}/${DOCDIR}/copyright" copyright)
expect("${copyright}" "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n.*\nFiles: \\*\nCopyright: [^\n]+\nLicense: Apache-2.0\n"
  "${DOCDIR}/copyright")
file(READ "${STAGE}/${DOCDIR}/LICENSE" license)
expect("${license}" "Apache License\n +Version 2.0, January 2004" "${DOCDIR}/LICENSE")
# Every image an installed page shows is installed at the path it names.
file(GLOB_RECURSE pages "${STAGE}/${DOCDIR}/*.md")
foreach(page ${pages})
  file(READ "${page}" text)
  get_filename_component(folder "${page}" DIRECTORY)
  string(REGEX MATCHALL "!\\[[^]]*\\]\\([^)]+\\)" images "${text}")
  foreach(image ${images})
    string(REGEX REPLACE "^.*\\(([^)]+)\\)$" "\\1" target "${image}")
    if(NOT target MATCHES "^[a-z]+:" AND NOT EXISTS "${folder}/${target}")
      message(FATAL_ERROR "${page} shows ${target}, which is not installed")
    endif()
  endforeach()
endforeach()
foreach(worker convoffload-cbc-worker convoffload-onnx-worker convoffload-cli-full)
  if(EXISTS "${STAGE}/${BINDIR}/${worker}")
    message(FATAL_ERROR "${worker} is a helper: it belongs in ${LIBEXECDIR}/convoffload, not ${BINDIR}")
  endif()
endforeach()

set(cli "${STAGE}/${BINDIR}/convoffload-cli")
set(sample "${STAGE}/${DATADIR}/convoffload/samples/paper-example.json")
# A PATH without the build tree, and a working directory outside it.
set(ENV{PATH} "/usr/bin:/bin")
set(ENV{QT_QPA_PLATFORM} offscreen)

run_checked(out "${cli}" --version)
expect("${out}" "^convoffload-cli ${VERSION}\n$" "convoffload-cli --version")
run_checked(out "${STAGE}/${BINDIR}/convoffload" --version)
expect("${out}" "^ConvOffload ${VERSION}\n$" "convoffload --version")

run_checked(out "${cli}" compare "${sample}")
expect("${out}" "Row-by-Row" "compare on the installed sample")
expect("${out}" "ZigZag" "compare on the installed sample")

# CBC through the installed worker: a solution from CBC (optimal, or feasible
# when the time limit comes first on a busy machine). Without the worker the
# command fails with "cannot start the CBC worker".
run_checked(out "${cli}" optimize "${sample}" --method ilp --time-limit 2)
expect("${out}" "Method: +ilp \\((optimal|feasible)" "optimize --method ilp with the installed worker")

# An ONNX import through the installed shape inference worker; without it the
# command fails with "cannot start the ONNX shape inference worker".
set(ENV{CONVOFFLOAD_ONNX_WORKER} "")
set(networks "${STAGE}/${DATADIR}/convoffload/samples/networks")
run_checked(out "${cli}" import-onnx "${networks}/lenet5.onnx" --hardware "${networks}/lenet5-hardware.json"
  --out "${STAGE}/lenet5-network.json")
expect("${out}" "conv1" "import-onnx with the installed worker")

# A figure: the installed front convoffload-cli hands export to the installed
# convoffload-cli-full (app/CliForward.h).
run_checked(out "${cli}" export "${sample}" --figure compare --out "${STAGE}/compare.svg")
expect("${out}" "Wrote" "export through the installed convoffload-cli-full")
message(STATUS "installed into ${STAGE}: programs, workers, samples, desktop files and docs work from there")
