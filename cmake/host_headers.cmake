# Header-only dependencies of a cross build, read from the host's headers
# (ONYX_HOST_HEADERS, set by the toolchain file, which also puts that folder
# last on the compiler's search path): plain interface targets with the names
# find_package gives natively, and no include folder of their own, so the
# host's C headers never come before the target's.
foreach(dep IN ITEMS "xsimd;xsimd/xsimd.hpp;libxsimd-dev" "Boost::headers;boost/hana.hpp;libboost-dev")
  list(GET dep 0 target)
  list(GET dep 1 header)
  list(GET dep 2 package)
  if(NOT EXISTS ${ONYX_HOST_HEADERS}/${header})
    onyx_require(FALSE ${package} "${header}")
  endif()
  add_library(${target} INTERFACE IMPORTED)
endforeach()
