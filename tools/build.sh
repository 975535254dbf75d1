#!/usr/bin/env bash
# Installs the dependencies (tools/install-deps.sh), then configures and builds
# onyx in ./build (Release, Ninja, ccache). Extra arguments go to cmake.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$root/build"
