#!/usr/bin/env bash
# Stripped sizes and clean compile times of trimmed inference executables
# (onyx_add_inference_executable, compact model beside the program, so model
# bytes are excluded) and of the zero-op core, at -O2, at -Os with LTO and
# --gc-sections, the same without exceptions and RTTI, and that without
# unwind tables (.eh_frame: nothing unwinds a program without exceptions but
# a debugger or a crash reporter); with --arm64 also cross-built for aarch64.
# Every program is linked with -z pack-relative-relocs (DT_RELR: the
# relative relocations of a position-independent program as a bitmap, not
# 24 bytes each; needs glibc 2.36 or later where it runs), and with LTO as
# one partition (-flto-partition=one: parallel LTRANS partitions each keep
# their own copy of a function several of them use).
#   bench/size.sh [--arm64] [MODEL.onnx]...
# Default models: light_squeezenet, light_resnet50 and PP-OCRv4 det from
# ../shared/onnx-tests. Needs a configured ./build (for onyx-ops).
# Prints a Markdown table: model, flags, arch, text+data bytes (stripped), compile s.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=$root/../shared/onnx-tests
archs=(x86-64)
models=()
for a in "$@"; do
  if [[ $a == --arm64 ]]; then archs+=(arm64); else models+=("$a"); fi
done
((${#models[@]})) || models=("$data/light/light_squeezenet.onnx" "$data/light/light_resnet50.onnx" "$data/real/ppocrv4_det/model.onnx")
cmake --build "$root/build" --target onyx-ops >/dev/null
ops=$root/build/tools/onyx-ops
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| program | flags | arch | text+data (bytes, stripped) | clean compile (s) |"
echo "|---|---|---|---|---|"
for arch in "${archs[@]}"; do
  toolchain=() strip=strip size=size
  if [[ $arch == arm64 ]]; then
    toolchain=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake")
    strip=aarch64-linux-gnu-strip size=aarch64-linux-gnu-size
  fi
  for flags in "-O2" "-Os -flto" "-Os -flto -fno-exceptions -fno-rtti" \
               "-Os -flto -fno-exceptions -fno-rtti -fno-asynchronous-unwind-tables -fno-unwind-tables"; do
    tag=$(echo "$flags" | tr -d ' -')
    b=$work/$arch-$tag
    cmake -S "$root/bench/size" -B "$b" -G Ninja "${toolchain[@]}" -DCMAKE_BUILD_TYPE=None \
      -DCMAKE_CXX_FLAGS="$flags -ffunction-sections -fdata-sections" \
      -DCMAKE_EXE_LINKER_FLAGS="-Wl,--gc-sections -Wl,-z,pack-relative-relocs $([[ $flags == *flto* ]] && echo -flto -flto-partition=one)" \
      -DONYX_OPS_COMMAND="$ops" -DONYX_SIZE_MODELS="$(IFS=';'; echo "${models[*]}")" >/dev/null
    # Dependencies first (onyx_isa), so each program's time is its own.
    cmake --build "$b" --target onyx_isa >/dev/null
    for target in $(ninja -C "$b" -t targets all | sed -n 's/^\(size_[a-z0-9_]*\): CXX_EXECUTABLE.*/\1/p'); do
      start=$(date +%s.%N)
      cmake --build "$b" --target "$target" >/dev/null
      end=$(date +%s.%N)
      "$strip" -o "$b/$target.stripped" "$b/$target"
      bytes=$("$size" "$b/$target.stripped" | awk 'NR == 2 { print $1 + $2 }')
      secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')
      echo "| ${target#size_} | $flags | $arch | $bytes | $secs |"
    done
  done
done
