# The prebuilt library's generated TUs (see onyx/registry/prebuilt.hpp), so
# that the registry TU (cmake/prebuilt/all_ops.cpp) instantiates no op code at all.
# Both lists come from include/onyx/ops/ops.manifest (cmake/op_manifest.cmake),
# not from reading C++:
#   - one per CPU kernel header the manifest names: it includes only that header
#     and explicitly instantiates the kernel tables of the ops listed with it;
#   - one per op group (include/onyx/ops/<group>_ops.hpp, which defines the
#     op_list onyx::<group>_ops): the parse, infer and expand of its ops.
include(${CMAKE_CURRENT_LIST_DIR}/op_manifest.cmake)
onyx_read_op_manifest(${PROJECT_SOURCE_DIR})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ONYX_OP_MANIFEST})

# The checked-in group headers are generated from the same manifest; the
# registry TU learns from them (kernels/cpu/all_kernels.hpp) which ops have a
# kernel, so stale ones are reported here and fail ctest lists.generated.
execute_process(COMMAND ${CMAKE_COMMAND} -DONYX_CHECK=ON -P ${CMAKE_CURRENT_LIST_DIR}/generate_op_lists.cmake
                RESULT_VARIABLE stale OUTPUT_QUIET ERROR_QUIET)
if(stale)
  message(WARNING "the op group headers are out of date with include/onyx/ops/ops.manifest; "
                  "regenerate them: cmake -P cmake/generate_op_lists.cmake")
endif()

# Optional groups (`group <g> if <OPTION>`) whose option is off contribute no TU.
set(onyx_disabled_ops "")
set(onyx_enabled_groups "")
foreach(group IN LISTS ONYX_OP_GROUPS)
  set(condition ${ONYX_GROUP_${group}_CONDITION})
  if(condition AND NOT ${condition})
    list(APPEND onyx_disabled_ops ${ONYX_GROUP_${group}_OPS})
  else()
    list(APPEND onyx_enabled_groups ${group})
  endif()
endforeach()

foreach(header IN LISTS ONYX_KERNEL_HEADERS)
  set(ONYX_INSTANTIATIONS "")
  set(ops ${ONYX_KERNEL_HEADER_${header}_OPS})
  list(REMOVE_ITEM ops ${onyx_disabled_ops})
  if(NOT ops)
    continue()
  endif()
  foreach(op IN LISTS ops)
    string(APPEND ONYX_INSTANTIATIONS "template struct onyx::prebuilt_kernels<onyx::ops::${op}, onyx::cpu>;\n")
  endforeach()
  get_filename_component(name ${header} NAME_WE)
  set(ONYX_KERNEL_HEADER kernels/cpu/${header})
  set(tu ${PROJECT_BINARY_DIR}/kernels/cpu/${name}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/prebuilt/kernel_header.cpp.in ${tu} @ONLY)
  target_sources(onyx_runtime PRIVATE ${tu})
endforeach()

foreach(group IN LISTS onyx_enabled_groups)
  set(ONYX_OP_GROUP ${group}_ops)
  set(tu ${PROJECT_BINARY_DIR}/prebuilt/ops/${ONYX_OP_GROUP}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/prebuilt/op_group.cpp.in ${tu} @ONLY)
  target_sources(onyx_runtime PRIVATE ${tu})
endforeach()
