#!/usr/bin/env bash
# tools/fuzz.sh TARGET [SECONDS] [libFuzzer options...]: builds the libFuzzer
# programs with clang-16 (ASan + UBSan) in build-fuzz/ and runs one target
# (model, tensor or compact) for SECONDS (default 600) on one core at low
# priority, with -rss_limit_mb=2048, -timeout=10 and the dictionary
# test/fuzz/onnx.dict. The seed corpus (build-fuzz/corpus/TARGET, kept
# between runs) starts from the ONNX backend test data: the node tests'
# models of the ops the targets know, and their input .pb files; inputs that
# crash land in build-fuzz/findings/TARGET/. The compact target's seeds are
# the same node tests' models converted by onyx-ops (from ./build, or
# $ONYX_OPS) to the compact form. Copy each finding to
# test/fuzz/regressions/TARGET/ once fixed: CTest's fuzz.replay replays them.
set -euo pipefail
target=${1:?usage: fuzz.sh model|tensor|compact [SECONDS] [libFuzzer options...]}
seconds=${2:-600}
shift $(( $# > 1 ? 2 : 1 ))
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${ONYX_FUZZ_BUILD:-$root/build-fuzz}
data=${ONYX_TEST_DATA:-$root/../shared/onnx-tests}
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DONYX_FUZZ=ON \
    -DONYX_BUILD_EXAMPLES=OFF -DONYX_BUILD_TOOLS=OFF -DONYX_TEST_DATA="$data"
fi
nice -n 15 cmake --build "$dir" --target "onyx_fuzz_$target"
corpus=$dir/corpus/$target
mkdir -p "$corpus" "$dir/findings/$target"
if [ -z "$(ls -A "$corpus")" ] && [ -d "$data/node" ]; then
  ops='add|mul|relu|cast|concat|constantofshape|conv|expand|gather|gathernd|gemm|identity|if|loop|matmul|nonzero|onehot|pad|range|reduce_sum|reshape|resize|scatter_elements|shape|slice|softmax|split|squeeze|tile|top_k|transpose|unsqueeze|where'
  onyx_ops=${ONYX_OPS:-$root/build/tools/onyx-ops}
  [ "$target" != compact ] || [ -x "$onyx_ops" ] ||
    echo "fuzz.sh: no onyx-ops at $onyx_ops (build it, or set ONYX_OPS): the compact corpus starts empty" >&2
  n=0
  for t in "$data"/node/test_*; do
    name=$(basename "$t")
    grep -Eq "^test_($ops)(_|$)" <<<"$name" || continue
    case $target in
      model) [ -f "$t/model.onnx" ] && cp "$t/model.onnx" "$corpus/$name.onnx" ;;
      tensor) [ -f "$t/test_data_set_0/input_0.pb" ] && cp "$t/test_data_set_0/input_0.pb" "$corpus/$name.pb" ;;
      compact)
        [ -x "$onyx_ops" ] && [ -f "$t/model.onnx" ] &&
          "$onyx_ops" "$t/model.onnx" --out-dir "$corpus/.tmp" >/dev/null 2>&1 &&
          mv "$corpus/.tmp/model.onyx" "$corpus/$name.onyx" ;;
    esac
    n=$((n + 1))
  done
  rm -rf "$corpus/.tmp"
  cp "$root/test/fuzz/regressions/$target/"* "$corpus/" 2>/dev/null || true
  echo "fuzz.sh: seeded $corpus from $n node tests"
fi
cd "$dir/findings/$target"
exec nice -n 15 "$dir/test/fuzz/onyx_fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -malloc_limit_mb=1024 -print_final_stats=1 -dict="$root/test/fuzz/onnx.dict" "$@" \
  -artifact_prefix="$dir/findings/$target/" "$corpus"
