# cmake/cuda.cmake: the CUDA backend, `onyx_cuda` (kernels/cuda/, the
# onyx::cuda_session of include/onyx/cuda_session.hpp).
#
# ONYX_CUDA: AUTO (the default) builds it when a working nvcc is found
# (CMAKE_CUDA_COMPILER, else /usr/local/cuda/bin/nvcc); ON requires it; OFF
# leaves it out. A build without it is unchanged. Running needs an NVIDIA GPU;
# the tests that need one are reported as skipped where there is none.
# CMAKE_CUDA_ARCHITECTURES defaults to 80;90 (Ampere, Hopper).
set(ONYX_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO (when nvcc works), ON or OFF")
set_property(CACHE ONYX_CUDA PROPERTY STRINGS AUTO ON OFF)
set(ONYX_HAVE_CUDA OFF)
if(ONYX_CUDA STREQUAL "OFF" OR NOT ONYX_WITH_ONNX_LOADER)
  return()
endif()
# Sanitizer, fuzzing and cross builds: no CUDA there unless asked.
if(ONYX_CUDA STREQUAL "AUTO" AND (ONYX_FUZZ OR NOT ONYX_SANITIZE STREQUAL "" OR CMAKE_CROSSCOMPILING))
  return()
endif()
if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  if(ONYX_CUDA STREQUAL "ON")
    message(FATAL_ERROR "ONYX_CUDA=ON but no CUDA compiler works (set CMAKE_CUDA_COMPILER)")
  endif()
  message(STATUS "onyx: no CUDA compiler; the CUDA backend is not built")
  return()
endif()
if(ONYX_CCACHE AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${ONYX_CCACHE})  # ccache knows nvcc, as it does g++
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 80 90)
endif()
enable_language(CUDA)
# CMake 3.25 does not know nvcc 13's C++20 flag; the project is C++20 throughout.
if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION OR CMAKE_CUDA20_STANDARD_COMPILE_OPTION STREQUAL "")
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
find_package(CUDAToolkit REQUIRED)
set(ONYX_HAVE_CUDA ON)
message(STATUS "onyx: CUDA backend for sm_${CMAKE_CUDA_ARCHITECTURES} (nvcc ${CMAKE_CUDA_COMPILER_VERSION})")

# Device code in an object library of its own: it needs onyx's core headers
# only, not onyx_runtime's link line. 2810: nvcc warns where a [[nodiscard]] status is assigned, which is how it is used.
file(GLOB onyx_cuda_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/cuda/*.cu)
add_library(onyx_cuda_device OBJECT ${onyx_cuda_sources})
set_target_properties(onyx_cuda_device PROPERTIES POSITION_INDEPENDENT_CODE ON CUDA_STANDARD 20)
target_include_directories(onyx_cuda_device PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include
                                                    ${CUDAToolkit_INCLUDE_DIRS})
target_compile_options(onyx_cuda_device PRIVATE -diag-suppress=2810)
# cuBLAS is opened with dlopen at the first matrix product (runtime.cu), not
# linked: a CPU run of a program built with this backend never maps it. By
# soname first, then from this toolkit's library folder.
target_compile_definitions(onyx_cuda_device PRIVATE "ONYX_CUDA_LIBRARY_DIR=\"${CUDAToolkit_LIBRARY_DIR}\"")

add_library(onyx_cuda STATIC cmake/prebuilt/cuda_session.cpp $<TARGET_OBJECTS:onyx_cuda_device>)
# The kernel tables, one TU per kernel header (as cmake/kernels.cmake does for
# the CPU's), each instantiating prebuilt_kernels<Op, cuda> for the ops its
# header specializes; the session TU only takes their addresses.
file(GLOB onyx_cuda_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/cuda/*.hpp)
foreach(path IN LISTS onyx_cuda_headers)
  file(STRINGS ${path} specializations REGEX "struct kernel<ops::[A-Za-z:]+, cuda>")
  if(NOT specializations)
    continue()
  endif()
  set(ONYX_INSTANTIATIONS "")
  foreach(line IN LISTS specializations)
    string(REGEX MATCH "kernel<ops::([A-Za-z:]+), cuda>" _ "${line}")
    string(APPEND ONYX_INSTANTIATIONS "template struct onyx::prebuilt_kernels<onyx::ops::${CMAKE_MATCH_1}, onyx::cuda>;\n")
  endforeach()
  get_filename_component(name ${path} NAME_WE)
  set(ONYX_KERNEL_HEADER kernels/cuda/${name}.hpp)
  set(tu ${PROJECT_BINARY_DIR}/kernels/cuda/${name}.cpp)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/prebuilt/kernel_header.cpp.in ${tu} @ONLY)
  target_sources(onyx_cuda PRIVATE ${tu})
endforeach()
set_target_properties(onyx_cuda PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(onyx_cuda PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
target_link_libraries(onyx_cuda PUBLIC onyx_runtime CUDA::cudart_static ${CMAKE_DL_LIBS})
target_compile_definitions(onyx_cuda PUBLIC ONYX_HAVE_CUDA=1)
