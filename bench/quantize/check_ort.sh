#!/usr/bin/env bash
# bench/quantize/check_ort.sh: models written by onyx-quantize, run by onyx
# and by ONNX Runtime (bench/ort) on the same inputs, outputs compared.
#
#   bench/quantize/check_ort.sh [--build DIR] [--threads N] [MODEL_DIR...]
#
# MODEL_DIR holds model.onnx and test_data_set_*/ (default: the models of
# test/quantize/make_quant_models, written to a temporary folder). Each model
# is quantized four ways: dynamic, dynamic --per-channel, static QDQ
# calibrated by min-max and by percentile over all its test_data_set_*, and
# converted to float16 with float32 inputs and outputs;
# each quantized model runs on test_data_set_0 in both runtimes. Tolerance:
# dynamic, |a - b| <= 1e-4 + 1e-3 |b| (compare_dirs.js's default); float16,
# |a - b| <= 1e-2 + 1e-2 |b| (ORT computes and accumulates in float16, onyx
# in float32 by default); static,
# one quantization step of the output (the step onyx-quantize prints). A
# folder named qlinear_* (make_quant_models' com.microsoft QLinear* model) is
# run as it is and compared exactly.
# Needs node and onnxruntime-node (NODE_PATH, e.g. /work/main/bench/ort/node_modules).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
threads=1
dirs=()
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ((${#dirs[@]} == 0)); then
  "$build/test/make_quant_models" "$work/models" >/dev/null
  dirs=("$work"/models/*/)
fi
status=0
for d in "${dirs[@]}"; do
  d=${d%/}
  name=$(basename "$d")
  inputs=()
  while read -r spec; do inputs+=(--input "$spec"); done < <(node "$here/../ort/run_ort.js" --make-inputs "$d/model.onnx" "$work/in_$name")
  if [[ $name == qlinear_* ]]; then
    # Already quantized (the com.microsoft QLinear* ops): run as is, compared exactly.
    "$build/tools/onyx-run" "$d/model.onnx" "${inputs[@]}" --threads "$threads" --warmup 0 --runs 1 \
      --output-dir "$work/$name/onyx" >/dev/null
    node "$here/../ort/run_ort.js" "$d/model.onnx" "${inputs[@]}" --threads "$threads" --warmup 0 --runs 1 \
      --output-dir "$work/$name/ort" >/dev/null
    echo "== $name as is (tolerance 0)"
    node "$here/../ort/compare_dirs.js" "$work/$name/onyx" "$work/$name/ort" --atol 0 --rtol 0 || status=1
    continue
  fi
  for mode in dynamic dynamic_pc static_minmax static_percentile float16_io32; do
    q=$work/$name.$mode
    mkdir -p "$q"
    case $mode in
      dynamic) args=(dynamic) ;;
      dynamic_pc) args=(dynamic --per-channel) ;;
      static_minmax) args=(static --calibrate "$d") ;;
      static_percentile) args=(static --calibrate "$d" --method percentile) ;;
      float16_io32) args=(float16 --keep-io-types) ;;
    esac
    summary=$("$build/tools/onyx-quantize" "${args[0]}" "$d/model.onnx" "$q/model.onnx" "${args[@]:1}")
    "$build/tools/onyx-run" "$q/model.onnx" "${inputs[@]}" --threads "$threads" --warmup 0 --runs 1 \
      --output-dir "$q/onyx" >/dev/null
    node "$here/../ort/run_ort.js" "$q/model.onnx" "${inputs[@]}" --threads "$threads" --warmup 0 --runs 1 \
      --output-dir "$q/ort" >/dev/null
    tol=()
    [[ $mode == float16* ]] && tol=(--atol 1e-2 --rtol 1e-2)
    if [[ $mode == static* ]]; then
      # The largest step among the outputs (one model output here).
      step=$(sed -n 's/^  output .*: step //p' <<<"$summary" | sort -g | tail -1)
      [[ -n $step ]] && tol=(--atol "$step" --rtol 0)
    fi
    echo "== $name $mode: $(head -1 <<<"$summary" | sed 's/^[^:]*: //')${tol:+ (tolerance ${tol[1]})}"
    node "$here/../ort/compare_dirs.js" "$q/onyx" "$q/ort" "${tol[@]}" || status=1
  done
done
exit $status
