#!/usr/bin/env bash
# bench/int8_compare.sh: float against int8, onyx against ONNX Runtime 1.30.
#
#   bench/int8_compare.sh [--threads "1 2"] [--rounds R] [--runs N] [MODEL_DIR...]
#
# For each MODEL_DIR (model.onnx + test_data_set_0/; default: the BERT-style
# encoders `ninja -C build transformer_models` writes to build/bench/transformers/)
# the float model is quantized dynamically with onyx-quantize (MatMul weights
# int8 per tensor, ORT's quantize_dynamic patterns) into build/bench/int8/, then
#   1. bench/compare_ort.sh times onyx and ORT on the float and the int8 model
#      (same inputs, same threads, alternating; medians): the rows give onyx
#      float, onyx int8 and ORT int8 on the same quantized model;
#   2. bench/ort/drift.js compares onyx's int8 outputs with its float outputs
#      (largest |diff|, cosine similarity), and ORT's int8 outputs with onyx's
#      int8 outputs (the same quantized model in both runtimes).
# Run on a quiet machine (no build or test beside it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=$root/build
threads="1 2"
rounds=3
runs=20
dirs=()
while (($#)); do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
((${#dirs[@]})) || dirs=("$build"/bench/transformers/bert_l6_h384_op14 "$build"/bench/transformers/bert_l12_h768_op14)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
models=()
for d in "${dirs[@]}"; do
  d=${d%/}
  name=$(basename "$d")
  q=$build/bench/int8/${name}_int8
  mkdir -p "$q"
  if [[ ! -f $q/model.onnx || $q/model.onnx -ot $d/model.onnx ]]; then
    "$build/tools/onyx-quantize" dynamic "$d/model.onnx" "$q/model.onnx" >/dev/null
    rm -rf "$q/test_data_set_0"
    cp -r "$d/test_data_set_0" "$q/"
  fi
  models+=("$d/model.onnx" "$q/model.onnx")
  inputs=()
  while read -r spec; do inputs+=(--input "$spec"); done < <(node "$here/ort/run_ort.js" --make-inputs "$d/model.onnx" "$work/$name")
  "$build/tools/onyx-run" "$d/model.onnx" "${inputs[@]}" --threads 1 --warmup 0 --runs 1 --output-dir "$work/$name/float" >/dev/null
  "$build/tools/onyx-run" "$q/model.onnx" "${inputs[@]}" --threads 1 --warmup 0 --runs 1 --output-dir "$work/$name/int8" >/dev/null
  node "$here/ort/run_ort.js" "$q/model.onnx" "${inputs[@]}" --threads 1 --warmup 0 --runs 1 \
    --output-dir "$work/$name/ort_int8" >/dev/null
  echo "== $name: onyx int8 against onyx float"
  node "$here/ort/drift.js" "$work/$name/float" "$work/$name/int8"
  echo "== $name: ORT int8 against onyx int8 (the same quantized model)"
  node "$here/ort/drift.js" "$work/$name/int8" "$work/$name/ort_int8"
done
echo
"$here/compare_ort.sh" --threads "$threads" --rounds "$rounds" --runs "$runs" "${models[@]}"
