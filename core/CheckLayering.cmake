# SPDX-FileCopyrightText: 2026 The ConvOffload maintainers
# SPDX-License-Identifier: Apache-2.0
# Fails when a core file includes Qt, or a header of a library that its own
# library may not use. Run by CTest as `core_layering`:
#   cmake -DCORE_DIR=<core folder> -P CheckLayering.cmake
# onnx and optimise both sit on io and use nothing of each other; the list is
# a line, so onnx comes first and optimise could (but does not) include it.
# explore sits on optimise.
set(layers model simulate io onnx optimise explore)
set(violations "")
foreach(layer IN LISTS layers)
  list(FIND layers ${layer} rank)
  file(GLOB_RECURSE files ${CORE_DIR}/${layer}/*.h ${CORE_DIR}/${layer}/*.cpp)
  foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS includes)
      if(line MATCHES "[<\"](Q[A-Za-z]+|Qt[A-Za-z]*/)")
        string(APPEND violations "${file}: includes Qt: ${line}\n")
      elseif(line MATCHES "convoffload/([a-z]+)/")
        set(used ${CMAKE_MATCH_1})
        list(FIND layers ${used} usedRank)
        if(usedRank EQUAL -1)
          string(APPEND violations "${file}: includes a header of no core library: ${line}\n")
        elseif(usedRank GREATER rank)
          string(APPEND violations "${file}: ${layer} may not include ${used}: ${line}\n")
        endif()
      elseif(line MATCHES "\"convoffload/")
        string(APPEND violations "${file}: include without a library folder: ${line}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "Core layering broken (model <- simulate <- io <- onnx, optimise <- explore):\n${violations}")
endif()
list(LENGTH layers count)
message(STATUS "Core layering holds over ${count} libraries")
