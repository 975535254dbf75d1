#!/usr/bin/env bash
# bench/transformers/scaling.sh: latency against sequence length (the 12-layer
# BERT encoder, 32..512 tokens, batch 1) and against batch (ResNet-50, 1..16
# images), onyx and ONNX Runtime 1.30 side by side, one PNG per model drawn by
# gnuplot.
#
#   ninja -C build onyx-run transformer_models
#   bench/transformers/scaling.sh [--onyx-run PATH] [--threads N] [--runs R] [--out DIR]
#
# Each point runs onyx-run, then node bench/ort/run_ort.js (same inputs, same
# thread count), each with 2 warmup runs and R timed runs (default 10), and
# keeps both medians. Writes DIR/bert_seq.dat, DIR/resnet50_batch.dat and
# DIR/bert_seq.png, DIR/resnet50_batch.png (default DIR: bench/scaling).
# Run it on a quiet machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
onyx_run=$root/build/tools/onyx-run
threads=1
runs=10
out=$root/bench/scaling
while (($#)); do
  case $1 in
    --onyx-run) onyx_run=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "scaling.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
models=$root/build/bench/transformers
[[ -f $models/bert_l12_h768_op14/model.onnx && -f $models/resnet50_batch/model.onnx ]] ||
  { echo "scaling.sh: run 'ninja -C build transformer_models' first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# Writes the inputs of one point: BERT (ids, mask of ones, token types) of
# length $2, or $2 ResNet-50 images of arange values.
make_inputs() {
  node -e '
    const fs = require("fs");
    const {encodeTensor} = require(process.argv[1]);
    const [kind, n, dir] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
    if (kind === "bert") {
      const ids = new BigInt64Array(n), mask = new BigInt64Array(n).fill(1n), types = new BigInt64Array(n);
      for (let i = 0; i < n; ++i) ids[i] = BigInt(1000 + (i * 7919) % 29000);
      fs.writeFileSync(dir + "/ids.pb", encodeTensor("input_ids", "int64", [1, n], ids));
      fs.writeFileSync(dir + "/mask.pb", encodeTensor("attention_mask", "int64", [1, n], mask));
      fs.writeFileSync(dir + "/types.pb", encodeTensor("token_type_ids", "int64", [1, n], types));
    } else {
      const size = n * 3 * 224 * 224, x = new Float32Array(size);
      for (let i = 0; i < size; ++i) x[i] = (i % 1000) / 1000;
      fs.writeFileSync(dir + "/x.pb", encodeTensor("gpu_0/data_0", "float32", [n, 3, 224, 224], x));
    }' "$root/bench/ort/run_ort.js" "$1" "$2" "$work"
}

median_of() { sed -n 's/^latency: median \([0-9.]*\) ms.*/\1/p'; }

# point MODEL INPUT_ARGS... -> "onyx_ms ort_ms"
point() {
  local model=$1; shift
  local a b
  a=$("$onyx_run" "$model" "$@" --threads "$threads" --warmup 2 --runs "$runs" 2>&1 | median_of)
  b=$(node "$root/bench/ort/run_ort.js" "$model" "$@" --threads "$threads" --warmup 2 --runs "$runs" 2>&1 | median_of)
  echo "$a $b"
}

{
  echo "# tokens onyx_ms ort_ms  (bert_l12_h768_op14, batch 1, $threads thread(s), median of $runs)"
  for n in 32 64 128 256 512; do
    make_inputs bert "$n"
    echo "$n $(point "$models/bert_l12_h768_op14/model.onnx" --input "input_ids=$work/ids.pb" \
      --input "attention_mask=$work/mask.pb" --input "token_type_ids=$work/types.pb")"
  done
} | tee "$out/bert_seq.dat"
{
  echo "# batch onyx_ms ort_ms  (ResNet-50, $threads thread(s), median of $runs)"
  for n in 1 2 4 8 16; do
    make_inputs resnet "$n"
    echo "$n $(point "$models/resnet50_batch/model.onnx" --input "gpu_0/data_0=$work/x.pb")"
  done
} | tee "$out/resnet50_batch.dat"

plot() {  # plot DAT PNG TITLE XLABEL
  gnuplot <<GP
set terminal pngcairo size 720,480 font "DejaVu Sans,10"
set output "$2"
set title "$3"
set xlabel "$4"
set ylabel "latency, ms (median)"
set logscale xy 2
set key top left
set grid
plot "$1" using 1:2 with linespoints lw 2 title "onyx", \
     "$1" using 1:3 with linespoints lw 2 title "ONNX Runtime 1.30"
GP
}
plot "$out/bert_seq.dat" "$out/bert_seq.png" "BERT-base encoder (12 layers, hidden 768), batch 1, $threads thread(s)" "sequence length (tokens)"
plot "$out/resnet50_batch.dat" "$out/resnet50_batch.png" "ResNet-50, $threads thread(s)" "batch (images of 224x224)"
echo "wrote $out/bert_seq.png $out/resnet50_batch.png"
