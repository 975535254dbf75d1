#!/bin/bash
# bench/cuda/pack.sh: packs what bench/cuda/run_device.sh runs on a GPU
# machine into one archive: the CUDA build's onyx-run, onyx-conformance and
# onyx_cuda_tests (stripped), the shared libraries they need beyond the C and
# C++ runtimes and CUDA's own, and the ONNX node tests of the ops that have a
# CUDA kernel (named in kernels/cuda/*.hpp).
#
#   bench/cuda/pack.sh BUILD_DIR TEST_DATA OUT.tar.gz
set -eu
build=$1 data=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/node"
for b in tools/onyx-run tools/onyx-conformance test/onyx_cuda_tests bench/cuda_gemm_bench; do
  # The bench exists only in a build with -DONYX_BUILD_BENCH=ON.
  if [ "$b" = bench/cuda_gemm_bench ] && [ ! -f "$build/$b" ]; then
    echo "no $build/$b: the gemm step will fail"
    continue
  fi
  strip -o "$stage/bin/$(basename $b)" "$build/$b"
done
ldd "$stage"/bin/* | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libcublas[^/]*|libcudart[^/]*|libdl|libpthread|librt)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
# Node tests named after an op with a CUDA kernel: test_<op> in lower case,
# with or without underscores between its words.
ops=$(grep -ho 'kernel<ops::[A-Za-z:]*, cuda>' "$root"/kernels/cuda/*.hpp | sed 's/kernel<ops::\(fused::\)\{0,1\}\([A-Za-z]*\), cuda>/\2/' | sort -u)
for op in $ops; do
  lower=$(echo "$op" | tr 'A-Z' 'a-z')
  snake=$(echo "$op" | sed 's/\([a-z0-9]\)\([A-Z]\)/\1_\2/g' | tr 'A-Z' 'a-z')
  for d in "$data"/node/test_"$lower" "$data"/node/test_"$lower"_* "$data"/node/test_"$snake" "$data"/node/test_"$snake"_*; do
    [ -d "$d" ] && cp -r "$d" "$stage/node/" || true
  done
done
tar czf "$out" -C "$stage" .
echo "$out: $(du -h "$out" | cut -f1), $(ls "$stage/node" | wc -l) node tests, libs: $(ls "$stage/lib" | tr '\n' ' ')"
