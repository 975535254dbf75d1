# The prebuilt library's generated TUs (see onyx/registry/prebuilt.hpp), so
# that the registry TU (cmake/prebuilt/all_ops.cpp) instantiates no op code at all:
#   - one per CPU kernel header (a file of kernels/cpu/ that specializes
#     onyx::kernel<ops::X, cpu>): it includes only that header and explicitly
#     instantiates the kernel tables of the ops it specializes;
#   - one per op group (include/onyx/ops/<group>_ops.hpp, which defines the
#     op_list onyx::<group>_ops): the parse, infer and expand of its ops.
file(GLOB ONYX_KERNEL_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/cpu/*.hpp)
# The registry TU learns which ops have a kernel from kernels/cpu/all_kernels.hpp
# (through the <group>_kernels.hpp files): a kernel header missing there would
# be compiled, yet its op would be listed as having no kernel.
file(GLOB ONYX_KERNEL_GROUPS ${PROJECT_SOURCE_DIR}/kernels/cpu/*_kernels.hpp)
set(ONYX_KERNEL_GROUP_TEXT "")
foreach(group IN LISTS ONYX_KERNEL_GROUPS)
  file(READ ${group} text)
  string(APPEND ONYX_KERNEL_GROUP_TEXT "${text}")
endforeach()
foreach(header IN LISTS ONYX_KERNEL_HEADERS)
  file(STRINGS ${header} specializations REGEX "struct kernel<ops::[A-Za-z_0-9:]+, cpu>")
  if(NOT specializations)
    continue()
  endif()
  file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${header})
  string(FIND "${ONYX_KERNEL_GROUP_TEXT}" "#include \"${relative}\"" included)
  if(included EQUAL -1)
    message(FATAL_ERROR "${relative} specializes onyx::kernel but no kernels/cpu/<group>_kernels.hpp includes it, "
                        "so the full preset would list its ops without their kernels")
  endif()
  set(ONYX_INSTANTIATIONS "")
  foreach(line IN LISTS specializations)
    string(REGEX MATCH "kernel<(ops::[A-Za-z_0-9:]+), cpu>" _ "${line}")
    string(APPEND ONYX_INSTANTIATIONS "template struct onyx::prebuilt_kernels<onyx::${CMAKE_MATCH_1}, onyx::cpu>;\n")
  endforeach()
  get_filename_component(name ${header} NAME_WE)
  file(RELATIVE_PATH ONYX_KERNEL_HEADER ${PROJECT_SOURCE_DIR} ${header})
  set(tu ${PROJECT_BINARY_DIR}/kernels/cpu/${name}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/prebuilt/kernel_header.cpp.in ${tu} @ONLY)
  target_sources(onyx_runtime PRIVATE ${tu})
endforeach()

file(GLOB ONYX_OP_GROUPS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/onyx/ops/*_ops.hpp)
foreach(header IN LISTS ONYX_OP_GROUPS)
  get_filename_component(ONYX_OP_GROUP ${header} NAME_WE)
  set(tu ${PROJECT_BINARY_DIR}/prebuilt/ops/${ONYX_OP_GROUP}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/prebuilt/op_group.cpp.in ${tu} @ONLY)
  target_sources(onyx_runtime PRIVATE ${tu})
endforeach()
