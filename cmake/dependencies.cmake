# Finds every dependency and fails early, naming the Debian package to install
# (tools/install-deps.sh installs them all).
function(onyx_require found package what)
  if(NOT ${found})
    message(FATAL_ERROR "onyx needs ${what}: install the Debian package '${package}' "
                        "(or run tools/install-deps.sh)")
  endif()
endfunction()

find_package(Threads REQUIRED)
if(ONYX_HOST_HEADERS)
  # A cross build (cmake/toolchains/): the header-only libraries come from the
  # host's headers, which its compiler already searches; their CMake packages
  # sit in the host's x86 library folder, so they are not asked.
  include(${CMAKE_CURRENT_LIST_DIR}/host_headers.cmake)
else()
  find_package(xtl QUIET)
  find_package(xsimd QUIET)
  onyx_require(xsimd_FOUND libxsimd-dev "xsimd (SIMD batches)")
  find_package(Boost 1.74 QUIET)
  onyx_require(Boost_FOUND libboost-dev "Boost.Hana")
endif()
if(NOT ONYX_WITH_ONNX_LOADER)
  return()  # the rest serves the .onnx loader and the programs that use it
endif()
find_package(Protobuf QUIET)
onyx_require(Protobuf_FOUND "libprotobuf-dev protobuf-compiler" "protobuf")
find_library(ONYX_ONNX_PROTO onnx_proto)
find_path(ONYX_ONNX_INCLUDE onnx/onnx-ml.pb.h)
if(NOT ONYX_ONNX_PROTO OR NOT ONYX_ONNX_INCLUDE)
  onyx_require(FALSE libonnx-dev "the generated ONNX protobuf classes")
endif()
add_library(onnx_proto UNKNOWN IMPORTED)
set_target_properties(onnx_proto PROPERTIES IMPORTED_LOCATION ${ONYX_ONNX_PROTO}
                                            INTERFACE_INCLUDE_DIRECTORIES ${ONYX_ONNX_INCLUDE})
if(ONYX_BUILD_TESTS)
  find_package(Catch2 2 QUIET)
  onyx_require(Catch2_FOUND catch2 "Catch2 (unit tests)")
  find_package(xtensor QUIET)
  onyx_require(xtensor_FOUND libxtensor-dev "xtensor (test references)")
endif()
if(ONYX_BUILD_BENCH)
  find_package(benchmark QUIET)
  onyx_require(benchmark_FOUND libbenchmark-dev "Google Benchmark")
endif()
