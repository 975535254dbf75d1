#!/usr/bin/env bash
# Installs what building and testing onyx needs, from Debian bookworm packages.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail
packages=(
  g++ cmake ninja-build ccache time
  libxsimd-dev libxtensor-dev libboost-dev
  libprotobuf-dev protobuf-compiler libonnx-dev
  catch2 libbenchmark-dev
  # ImageDecoder's codecs (the optional ONYX_IMAGE_DECODER component)
  libjpeg-dev libpng-dev libopenjp2-7-dev libtiff-dev libwebp-dev
  libdnnl-dev  # oneDNN: a reference in bench/ only, never linked into onyx
  # examples/ocr: image decoding and writing, the rendered sample images, and
  # ONNX Runtime (npm) for its output check
  libstb-dev imagemagick fonts-dejavu-core fonts-wqy-zenhei nodejs
  g++-aarch64-linux-gnu qemu-user-static  # the arm64 cross build and its tests
  gnuplot-nox  # bench/transformers/scaling.sh draws its latency plots
  # python/: the Python package (pybind11), its tests, and the pip install test's venv
  python3-dev pybind11-dev python3-numpy python3-pytest python3-venv python3-pip
  # tools/fuzz.sh: libFuzzer with clang's ASan/UBSan runtimes
  clang-16 libfuzzer-16-dev libclang-rt-16-dev
)
# Debian's npm conflicts with a nodejs from NodeSource (which brings its own).
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
