# The prebuilt kernel library: one generated TU per CPU kernel header (a file
# of kernels/cpu/ that specializes onyx::kernel), so the kernels compile in
# parallel and the registry TU (kernels/all_ops.cpp) instantiates none.
file(GLOB ONYX_KERNEL_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/cpu/*.hpp)
foreach(header IN LISTS ONYX_KERNEL_HEADERS)
  file(STRINGS ${header} specializes REGEX "struct kernel<")
  if(NOT specializes)
    continue()
  endif()
  get_filename_component(name ${header} NAME_WE)
  file(RELATIVE_PATH ONYX_KERNEL_HEADER ${PROJECT_SOURCE_DIR} ${header})
  set(tu ${PROJECT_BINARY_DIR}/kernels/cpu/${name}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/kernels/cpu/instantiate.cpp.in ${tu} @ONLY)
  target_sources(onyx_runtime PRIVATE ${tu})
endforeach()
