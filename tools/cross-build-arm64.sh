#!/usr/bin/env bash
# Configures and builds onyx for arm64 (aarch64 Linux) with Debian's cross
# compiler (cmake/toolchains/aarch64-linux-gnu.cmake). protobuf has no arm64
# build here, so the tree holds what needs none: onyx_isa, the header-only
# runtime and the programs of test/cross/.
#
#   tools/cross-build-arm64.sh [BUILD_DIR [TARGET...]]
#
# BUILD_DIR defaults to ./build-arm64; with no TARGET everything there is
# built. Programs land in BUILD_DIR/bin; run one under qemu with
#   qemu-aarch64-static -L /usr/aarch64-linux-gnu BUILD_DIR/bin/hot_kernels_graph
# (ONYX_ISA=scalar|neon picks the micro-kernel level). More cmake arguments
# for the configure step go in ONYX_ARM64_CMAKE_ARGS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-arm64}
shift $(($# > 0 ? 1 : 0))
for tool in aarch64-linux-gnu-g++ qemu-aarch64-static; do
  command -v "$tool" >/dev/null || { echo "no $tool: run tools/install-deps.sh" >&2; exit 1; }
done
# shellcheck disable=SC2086  # ONYX_ARM64_CMAKE_ARGS is a list of words
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
      -DCMAKE_RUNTIME_OUTPUT_DIRECTORY="$build/bin" ${ONYX_ARM64_CMAKE_ARGS:-}
cmake --build "$build" ${1:+--target "$@"}
