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
# With --ocr, also PP-OCRv4 det and rec (the OCR example's models,
# `ninja -C build ocr_models ocr_samples`) quantized statically to QDQ with
# per-channel weights (onyx-quantize moves these opset 9/11 models to opset
# 13 for DequantizeLinear's axis), calibrated on the rendered sample images
# as the OCR example feeds them to its models (onyx-ocr --dump-tensors): det
# on each page resized as the example resizes it, rec on the text lines the
# example cuts from them, by percentile (99.999) and with --target-cosine 0.99
# (the convs most sensitive to int8 stay in float until the outputs' mean
# cosine to float on those samples reaches 0.99); timed and compared on the
# paragraph sample (rec's
# drift also as decoded text); then the whole OCR example run on every
# sample with the int8 det and rec, its text against the float run's.
# And det quantized dynamically (Conv).
# Run on a quiet machine (no build or test beside it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=$root/build
threads="1 2"
rounds=3
runs=20
ocr=0
dirs=()
while (($#)); do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --ocr) ocr=1; shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
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
# float model dir, int8 model dir, inputs dir: drift lines for both runtimes
drift() {
  local f=$1 q=$2 name
  name=$(basename "$q")
  "$build/tools/onyx-run" "$f/model.onnx" --input "x=$f/test_data_set_0/input_0.pb" --runs 1 --warmup 0 \
    --output-dir "$work/$name/float" >/dev/null
  "$build/tools/onyx-run" "$q/model.onnx" --input "x=$q/test_data_set_0/input_0.pb" --runs 1 --warmup 0 \
    --output-dir "$work/$name/int8" >/dev/null
  node "$here/ort/run_ort.js" "$q/model.onnx" --input "x=$q/test_data_set_0/input_0.pb" --runs 1 --warmup 0 \
    --output-dir "$work/$name/ort_int8" >/dev/null
  echo "== $name: onyx int8 against onyx float"
  node "$here/ort/drift.js" "$work/$name/float" "$work/$name/int8" "${@:3}"
  echo "== $name: ORT int8 against onyx int8 (the same quantized model)"
  node "$here/ort/drift.js" "$work/$name/int8" "$work/$name/ort_int8" "${@:3}"
}
# The text lines onyx-ocr reads from IMAGE with the models in DIR, without
# their confidences.
ocr_text() {
  "$ocr_dir/onyx-ocr" "$1" --models "$2" --threads 1 --out "$work/annotated.png" |
    sed -n 's/^ *\([0-9]*\)  [0-9.]*  \[[^]]*\]  /\1 /p'
}
if ((ocr)); then
  ocr_dir=$build/examples/ocr
  samples=()
  for s in "$ocr_dir"/samples/*.png; do [[ $s == *.ocr.png ]] || samples+=("$s"); done
  keys=$ocr_dir/models/ppocr_keys_v1.txt
  # The calibration sets: what the OCR example feeds det and rec on each
  # sample (the page resized; the lines it cuts from it).
  for i in "${!samples[@]}"; do
    "$ocr_dir/onyx-ocr" "${samples[$i]}" --threads 1 --out "$work/annotated.png" --dump-tensors "$work/dump_$i" >/dev/null
    for kind in det rec; do
      mkdir -p "$work/cal_$kind/test_data_set_$i"
      cp "$work/dump_$i/${kind}_input.pb" "$work/cal_$kind/test_data_set_$i/input_0.pb"
    done
  done
  paragraph=0
  for i in "${!samples[@]}"; do [[ $(basename "${samples[$i]}") != paragraph.png ]] || paragraph=$i; done
  for kind in det rec; do
    f=$build/bench/int8/ppocrv4_$kind
    q=$build/bench/int8/ppocrv4_${kind}_qdq
    mkdir -p "$f" "$q"
    cp "$ocr_dir/models/ch_PP-OCRv4_${kind}_infer.onnx" "$f/model.onnx"
    "$build/tools/onyx-quantize" static "$f/model.onnx" "$q/model.onnx" --calibrate "$work/cal_$kind" \
      --method percentile --percentile 99.999 --target-cosine 0.99 >/dev/null
    for d in "$f" "$q"; do rm -rf "$d/test_data_set_0"; cp -r "$work/cal_$kind/test_data_set_$paragraph" "$d/test_data_set_0"; done
    if [[ $kind == rec ]]; then drift "$f" "$q" --ctc "$keys"; else drift "$f" "$q"; fi
    models+=("$f/model.onnx" "$q/model.onnx")
  done
  # The OCR example end to end with int8 det and rec (cls stays float).
  mkdir -p "$work/int8_models"
  cp "$ocr_dir/models/ch_ppocr_mobile_v2.0_cls_infer.onnx" "$keys" "$work/int8_models/"
  for kind in det rec; do cp "$build/bench/int8/ppocrv4_${kind}_qdq/model.onnx" "$work/int8_models/ch_PP-OCRv4_${kind}_infer.onnx"; done
  echo "== the OCR example, int8 det and rec against float"
  for s in "${samples[@]}"; do
    a=$(ocr_text "$s" "$ocr_dir/models")
    b=$(ocr_text "$s" "$work/int8_models")
    if [[ $a == "$b" ]]; then
      echo "$(basename "$s"): the same $(grep -c . <<<"$a") lines: $(tr '\n' '|' <<<"$a")"
    else
      echo "$(basename "$s"): float $(tr '\n' '|' <<<"$a") against int8 $(tr '\n' '|' <<<"$b")"
    fi
  done
  f=$build/bench/int8/ppocrv4_det
  q=$build/bench/int8/ppocrv4_det_dynamic
  mkdir -p "$q"
  "$build/tools/onyx-quantize" dynamic "$f/model.onnx" "$q/model.onnx" --op-types Conv >/dev/null
  rm -rf "$q/test_data_set_0"
  cp -r "$f/test_data_set_0" "$q/"
  drift "$f" "$q"
  models+=("$q/model.onnx")
fi
echo
"$here/compare_ort.sh" --threads "$threads" --rounds "$rounds" --runs "$runs" "${models[@]}"
