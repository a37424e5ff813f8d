# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# Fails when a source file of the project has no SPDX licence header in its
# first lines. Run by CTest as `spdx_headers`:
#   cmake -DSOURCE_DIR=<repository> -P CheckSpdx.cmake
# The header is two comment lines at the top (after a #! line):
#   // SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
#   // SPDX-License-Identifier: Apache-2.0
# Data files (JSON, CSV, ONNX, images) are covered by packaging/copyright.
set(folders app core ui tests fuzz tools packaging)
set(patterns "")
foreach(folder IN LISTS folders)
  foreach(ext *.cpp *.h *.h.in *.cmake CMakeLists.txt *.sh *.py)
    list(APPEND patterns ${SOURCE_DIR}/${folder}/${ext})
  endforeach()
endforeach()
file(GLOB_RECURSE files ${patterns})
list(APPEND files ${SOURCE_DIR}/CMakeLists.txt ${SOURCE_DIR}/build.sh ${SOURCE_DIR}/.ci/run)
set(missing "")
set(count 0)
foreach(file IN LISTS files)
  # A build tree inside a source folder is not source.
  string(FIND "${file}" "/CMakeFiles/" inBuild)
  if(NOT inBuild EQUAL -1)
    continue()
  endif()
  file(READ ${file} head LIMIT 400)
  if(NOT head MATCHES "SPDX-License-Identifier: Apache-2.0")
    string(APPEND missing "${file}\n")
  endif()
  math(EXPR count "${count} + 1")
endforeach()
if(missing)
  message(FATAL_ERROR "No SPDX-License-Identifier: Apache-2.0 in the first lines of:\n${missing}")
endif()
message(STATUS "SPDX headers in all ${count} source files")
