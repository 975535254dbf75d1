# Cross toolchain for 64-bit Arm Linux with Debian's g++-aarch64-linux-gnu
# (libraries and C headers in /usr/aarch64-linux-gnu), running the results
# through qemu-user-static. tools/cross-build-arm64.sh uses it:
#   cmake -S . -B build-arm64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# The header-only dependencies (xsimd, Boost.Hana, Catch2 v2) are not packaged
# for arm64 here; they are read from the host's /usr/include, searched after
# the cross compiler's own folders (-idirafter), so the arm64 C library and
# libstdc++ headers always win. Libraries are looked up only under the arm64
# root, so no x86 library can be linked. protobuf and libonnx have no arm64
# build here: cross builds configure with ONYX_WITH_ONNX_LOADER off.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(ONYX_CROSS_TRIPLE aarch64-linux-gnu)
set(ONYX_CROSS_ROOT /usr/${ONYX_CROSS_TRIPLE})
set(CMAKE_C_COMPILER ${ONYX_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${ONYX_CROSS_TRIPLE}-g++)

# Architecture-independent headers of the host, after the arm64 ones.
set(ONYX_HOST_HEADERS /usr/include)
set(CMAKE_CXX_FLAGS_INIT "-idirafter ${ONYX_HOST_HEADERS}")

set(CMAKE_FIND_ROOT_PATH ${ONYX_CROSS_ROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# add_test and try_run run arm64 programs through the emulator, which finds
# the arm64 loader and libraries under ONYX_CROSS_ROOT.
find_program(ONYX_QEMU_AARCH64 qemu-aarch64-static)
if(ONYX_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ONYX_QEMU_AARCH64} -L ${ONYX_CROSS_ROOT})
endif()
