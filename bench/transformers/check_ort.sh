#!/usr/bin/env bash
# bench/transformers/check_ort.sh: each model's outputs from onyx-run against
# ONNX Runtime's on the model's test_data_set_0 inputs, within
# |a - b| <= 1e-4 + 1e-3 |b| (bench/ort/compare_dirs.js).
#
#   bench/transformers/check_ort.sh [--onyx-run PATH] [--threads N] [MODEL_DIR...]
#
# MODEL_DIR holds model.onnx and test_data_set_0/ (default: every model
# `ninja -C build transformer_models` wrote to build/bench/transformers/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
onyx_run=$root/build/tools/onyx-run
threads=1
dirs=()
while (($#)); do
  case $1 in
    --onyx-run) onyx_run=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
((${#dirs[@]})) || dirs=("$root"/build/bench/transformers/*/)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for d in "${dirs[@]}"; do
  d=${d%/}
  name=$(basename "$d")
  inputs=()
  while read -r spec; do inputs+=(--input "$spec"); done < <(node "$here/../ort/run_ort.js" --make-inputs "$d/model.onnx" "$work")
  "$onyx_run" "$d/model.onnx" "${inputs[@]}" --threads "$threads" --warmup 0 --runs 1 --output-dir "$work/$name/onyx" >/dev/null
  node "$here/../ort/run_ort.js" "$d/model.onnx" "${inputs[@]}" --threads "$threads" --warmup 0 --runs 1 \
    --output-dir "$work/$name/ort" >/dev/null
  echo "== $name"
  node "$here/../ort/compare_dirs.js" "$work/$name/onyx" "$work/$name/ort" || status=1
done
exit $status
