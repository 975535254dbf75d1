#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a fresh prefix, then configures and
# builds test/package against it in a clean folder and runs what it built:
#   check_install.sh BUILD_DIR MODEL.onnx
# Prints the clean build time of the trimmed executable (issue: <= 60 s); then
# compiles examples/04_header_only.cpp with one command against the prefix.
set -euo pipefail
build=$1 model=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DMODEL="$model" >/dev/null
start=$(date +%s.%N)
cmake --build "$work/build" --target trimmed
end=$(date +%s.%N)
cmake --build "$work/build" --target uses_prebuilt >/dev/null
"$work/build/uses_prebuilt" "$model"
"$work/build/trimmed" --runs 1
# Header-only: one compiler command against the installed headers, no library.
"${CXX:-c++}" -std=c++20 -O2 -march=native -I "$work/prefix/include" "$here/../../examples/04_header_only.cpp" \
  -o "$work/header_only" -pthread
"$work/header_only"
awk -v s="$start" -v e="$end" 'BEGIN { printf "trimmed executable: clean build from the installed package in %.1f s\n", e - s }'
