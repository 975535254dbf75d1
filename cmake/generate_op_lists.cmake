# cmake/generate_op_lists.cmake: writes the op group lists from
# include/onyx/ops/ops.manifest, so adding an op is its op header, its kernel
# header, its test and one manifest line. Run from anywhere:
#   cmake -P cmake/generate_op_lists.cmake                 (rewrites what changed)
#   cmake -DONYX_CHECK=ON -P cmake/generate_op_lists.cmake (fails if any is stale: ctest lists.generated)
# It writes, checked in so header-only users need no CMake run:
#   include/onyx/ops/<group>_ops.hpp     the group's op headers and `using <group>_ops = op_list<...>`
#   kernels/cpu/<group>_kernels.hpp      the group's CPU kernel headers
#   kernels/cpu/all_kernels.hpp          every group's kernels, for the full preset
#   include/onyx/all_ops.hpp             the full preset: every group's op_list, in manifest order
cmake_minimum_required(VERSION 3.25)
get_filename_component(ONYX_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
include(${CMAKE_CURRENT_LIST_DIR}/op_manifest.cmake)
onyx_read_op_manifest(${ONYX_SOURCE_DIR})

set(ONYX_GENERATED_NOTE
    "// Generated from include/onyx/ops/ops.manifest by cmake/generate_op_lists.cmake: edit\n"
    "// the manifest, then run `cmake -P cmake/generate_op_lists.cmake`.\n")
string(JOIN "" ONYX_GENERATED_NOTE ${ONYX_GENERATED_NOTE})

# `// <first><text>` word-wrapped at 100 columns.
function(onyx_comment out first text)
  string(REPLACE " " ";" words "${first}${text}")
  set(result "")
  set(line "//")
  foreach(word IN LISTS words)
    string(LENGTH "${line} ${word}" length)
    if(length GREATER 100 AND NOT line STREQUAL "//")
      string(APPEND result "${line}\n")
      set(line "//")
    endif()
    string(APPEND line " ${word}")
  endforeach()
  set(${out} "${result}${line}\n" PARENT_SCOPE)
endfunction()

set(ONYX_STALE "")
# Writes `content` to `relative` unless it already holds exactly that (so an
# unchanged list does not rebuild its includers); with ONYX_CHECK, only records it.
function(onyx_emit relative content)
  set(path ${ONYX_SOURCE_DIR}/${relative})
  set(old "")
  if(EXISTS ${path})
    file(READ ${path} old)
  endif()
  if(old STREQUAL content)
    return()
  endif()
  if(ONYX_CHECK)
    set(ONYX_STALE ${ONYX_STALE} ${relative} PARENT_SCOPE)
  else()
    file(WRITE ${path} "${content}")
    message(STATUS "wrote ${relative}")
  endif()
endfunction()

foreach(g IN LISTS ONYX_OP_GROUPS)
  # include/onyx/ops/<group>_ops.hpp
  onyx_comment(text "onyx/ops/${g}_ops.hpp: the ${g} op group: " "${ONYX_GROUP_${g}_DESCRIPTION}.")
  string(APPEND text "${ONYX_GENERATED_NOTE}#pragma once\n\n")
  foreach(h IN LISTS ONYX_GROUP_${g}_OP_HEADERS)
    string(APPEND text "#include \"onyx/ops/${h}\"\n")
  endforeach()
  string(APPEND text "\n#include \"onyx/ops/op_list.hpp\"\n\nnamespace onyx {\n\n")
  set(condition ${ONYX_GROUP_${g}_CONDITION})
  if(condition)
    string(APPEND text "// An optional component: the ops are registered only where ${condition} is defined\n"
                       "// (the CMake option of that name).\n#if defined(${condition})\n")
  endif()
  string(APPEND text "// clang-format off\nusing ${g}_ops = op_list<\n")
  list(JOIN ONYX_GROUP_${g}_OPS ",\n    ops::" entries)
  string(APPEND text "    ops::${entries}>;\n// clang-format on\n")
  if(condition)
    string(APPEND text "#else\nusing ${g}_ops = op_list<>;\n#endif\n")
  endif()
  string(APPEND text "\n}  // namespace onyx\n")
  onyx_emit(include/onyx/ops/${g}_ops.hpp "${text}")

  # kernels/cpu/<group>_kernels.hpp
  # (An op marked - in the manifest has no kernel: it expands into other ops.)
  set(text "// kernels/cpu/${g}_kernels.hpp: the CPU kernels of the ${g} op group.\n")
  string(APPEND text "${ONYX_GENERATED_NOTE}#pragma once\n\n")
  if(condition)
    string(APPEND text "#if defined(${condition})  // an optional component\n")
  endif()
  foreach(h IN LISTS ONYX_GROUP_${g}_KERNEL_HEADERS)
    string(APPEND text "#include \"kernels/cpu/${h}\"\n")
  endforeach()
  if(condition)
    string(APPEND text "#endif\n")
  endif()
  onyx_emit(kernels/cpu/${g}_kernels.hpp "${text}")
endforeach()

# kernels/cpu/all_kernels.hpp
set(text "// kernels/cpu/all_kernels.hpp: every CPU kernel, for the full preset.\n${ONYX_GENERATED_NOTE}#pragma once\n\n")
set(groups ${ONYX_OP_GROUPS})
list(SORT groups)
foreach(g IN LISTS groups)
  string(APPEND text "#include \"kernels/cpu/${g}_kernels.hpp\"\n")
endforeach()
onyx_emit(kernels/cpu/all_kernels.hpp "${text}")

# include/onyx/all_ops.hpp
set(text "// onyx/all_ops.hpp: the full preset, every op onyx implements.\n${ONYX_GENERATED_NOTE}#pragma once\n\n")
foreach(g IN LISTS groups)
  string(APPEND text "#include \"onyx/ops/${g}_ops.hpp\"\n")
endforeach()
string(APPEND text "#include \"onyx/ops/op_list.hpp\"\n\nnamespace onyx {\n\n// clang-format off\n")
list(JOIN ONYX_OP_GROUPS "_ops,\n    " entries)
string(APPEND text "using all_ops = op_list_cat_t<\n    ${entries}_ops>;\n// clang-format on\n\n}  // namespace onyx\n")
onyx_emit(include/onyx/all_ops.hpp "${text}")

if(ONYX_STALE)
  list(JOIN ONYX_STALE "\n  " stale)
  message(FATAL_ERROR "out of date with include/onyx/ops/ops.manifest:\n  ${stale}\n"
                      "regenerate them: cmake -P cmake/generate_op_lists.cmake")
endif()
