# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# ctest -R ship_deb: `cpack -G DEB` builds an installable package whose
# control data and contents are what a distribution expects.
#   cmake -DBUILD_DIR=... -DOUT=... -DCPACK=... -DDPKG_DEB=... -DVERSION=... -DAPP_ID=...
#         -DBINDIR=... -DLIBEXECDIR=... -DDATADIR=... -DDOCDIR=... -P CheckDeb.cmake
# The package installs under /usr (CPACK_PACKAGING_INSTALL_PREFIX).

function(run_checked out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${OUT}")
run_checked(ignored "${CPACK}" --config "${BUILD_DIR}/CPackConfig.cmake" -G DEB -B "${OUT}")
file(GLOB debs "${OUT}/convoffload_${VERSION}_*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one convoffload_${VERSION}_<arch>.deb in ${OUT}, found: ${debs}")
endif()

run_checked(info "${DPKG_DEB}" --info ${debs})
foreach(pattern "Package: convoffload\n" "Version: ${VERSION}\n" "Section: science\n" "Maintainer: [^\n]+@"
    "Depends: [^\n]*libqt6widgets6" "Depends: [^\n]*libcbc" "Depends: [^\n]*libcoinutils" "Depends: [^\n]*libcsv"
    "Description: [^\n]+\n [^\n]+")
  if(NOT info MATCHES "${pattern}")
    message(FATAL_ERROR "dpkg-deb --info: no '${pattern}' in\n${info}")
  endif()
endforeach()

run_checked(contents "${DPKG_DEB}" --contents ${debs})
foreach(file ${BINDIR}/convoffload ${BINDIR}/convoffload-cli ${LIBEXECDIR}/convoffload/convoffload-cbc-worker
    ${LIBEXECDIR}/convoffload/convoffload-onnx-worker ${LIBEXECDIR}/convoffload/convoffload-cli-full
    ${DATADIR}/convoffload/samples/paper-example.json ${DATADIR}/applications/${APP_ID}.desktop
    ${DATADIR}/metainfo/${APP_ID}.metainfo.xml ${DATADIR}/icons/hicolor/scalable/apps/${APP_ID}.svg ${DOCDIR}/README.md
    ${DOCDIR}/docs/user/visualiser.md ${DOCDIR}/resources/screenshots/lenet5-conv1-zigzag.png)
  if(NOT contents MATCHES " \\./usr/${file}\n")
    message(FATAL_ERROR "dpkg-deb --contents: no ./usr/${file} in\n${contents}")
  endif()
endforeach()
# Debian's policy: every package carries /usr/share/doc/<package>/copyright.
if(NOT contents MATCHES " \\./usr/${DOCDIR}/copyright\n")
  message(FATAL_ERROR "dpkg-deb --contents: no ./usr/${DOCDIR}/copyright in\n${contents}")
endif()
message(STATUS "built ${debs}")
