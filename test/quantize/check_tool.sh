#!/usr/bin/env bash
# test/quantize/check_tool.sh: onyx-quantize as a command, on the models of
# make_quant_models: dynamic (per tensor and per channel) and static QDQ
# (min-max and percentile calibration on the models' test_data_set_*) and
# float16 with float32 inputs and outputs kept, each
# output run by onyx-run; the summary lines are checked against the models'
# structure, and bad calls must fail with a message.
#
#   check_tool.sh ONYX_QUANTIZE ONYX_RUN MAKE_QUANT_MODELS
set -euo pipefail
quantize=$1 run=$2 make_models=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$make_models" "$work/models" >/dev/null

expect() {  # expect PATTERN OUTPUT
  if ! grep -q -- "$1" <<<"$2"; then
    echo "FAIL: expected '$1' in:"; echo "$2"; exit 1
  fi
}
runs() {  # runs MODEL SET_DIR
  "$run" "$1" --input "x=$2/input_0.pb" --threads 1 --warmup 0 --runs 1 >/dev/null
}

m=$work/models
# mlp: the MatMul and the Gemm (rewritten to MatMul + Add) quantized, x and the hidden layer dynamically.
out=$("$quantize" dynamic "$m/mlp/model.onnx" "$work/mlp_dyn.onnx")
expect "2 nodes quantized (dynamic), 2 weights, 2 activations" "$out"
runs "$work/mlp_dyn.onnx" "$m/mlp/test_data_set_0"
out=$("$quantize" dynamic "$m/mlp/model.onnx" "$work/mlp_dyn_pc.onnx" --per-channel)
expect "2 nodes quantized" "$out"
runs "$work/mlp_dyn_pc.onnx" "$m/mlp/test_data_set_0"
# cnn: three Convs (ConvInteger); its Gemm becomes MatMul (+ Add) and is quantized too.
out=$("$quantize" dynamic "$m/cnn/model.onnx" "$work/cnn_dyn.onnx")
expect "4 nodes quantized (dynamic), 4 weights, 4 activations" "$out"
runs "$work/cnn_dyn.onnx" "$m/cnn/test_data_set_0"
out=$("$quantize" dynamic "$m/cnn/model.onnx" "$work/cnn_dyn_mm.onnx" --op-types MatMul)
expect "1 nodes quantized" "$out"

# Static QDQ, calibrated on the 8 sample sets.
out=$("$quantize" static "$m/mlp/model.onnx" "$work/mlp_qdq.onnx" --calibrate "$m/mlp")
expect "3 nodes quantized (QDQ), 4 weights, 5 activations" "$out"  # MatMul, Add (bias as a uint8 constant), Gemm
expect "calibrated on 8 sample sets" "$out"
runs "$work/mlp_qdq.onnx" "$m/mlp/test_data_set_0"
# cnn: 3 Conv, MaxPool, AveragePool, Concat, Add, GlobalAveragePool, Gemm;
# its x * Sigmoid(x) stays in float, quantized where it starts and ends.
out=$("$quantize" static "$m/cnn/model.onnx" "$work/cnn_qdq.onnx" --calibrate "$m/cnn" --method percentile)
expect "9 nodes quantized (QDQ), 9 weights" "$out"
runs "$work/cnn_qdq.onnx" "$m/cnn/test_data_set_0"
out=$("$quantize" static "$m/cnn/model.onnx" "$work/cnn_qdq_pt.onnx" --calibrate "$m/cnn/test_data_set_3" --per-tensor)
expect "calibrated on 1 sample sets" "$out"
runs "$work/cnn_qdq_pt.onnx" "$m/cnn/test_data_set_0"
# --no-equalize: the same nodes quantized (cnn has no BatchNormalization or
# depthwise Conv, so the two models are the same byte for byte).
out=$("$quantize" static "$m/cnn/model.onnx" "$work/cnn_qdq_ne.onnx" --calibrate "$m/cnn" --method percentile --no-equalize)
expect "9 nodes quantized (QDQ), 9 weights" "$out"
cmp -s "$work/cnn_qdq.onnx" "$work/cnn_qdq_ne.onnx" || { echo "FAIL: --no-equalize changed a model with nothing to equalize"; exit 1; }

# float16 with float32 inputs and outputs: runs on the float32 test inputs.
out=$("$quantize" float16 "$m/cnn/model.onnx" "$work/cnn_fp16.onnx" --keep-io-types)
expect "9 float32 tensors converted to float16 (float32 inputs and outputs kept)" "$out"
runs "$work/cnn_fp16.onnx" "$m/cnn/test_data_set_0"

# Bad calls fail with a message.
fails() {  # fails PATTERN CMD...
  local pattern=$1; shift
  if err=$("$@" 2>&1); then echo "FAIL: '$*' succeeded"; exit 1; fi
  expect "$pattern" "$err"
}
fails "static quantization needs --calibrate" "$quantize" static "$m/mlp/model.onnx" "$work/x.onnx"
fails "cannot open" "$quantize" dynamic "$work/missing.onnx" "$work/x.onnx"
fails "unknown option --bogus" "$quantize" dynamic "$m/mlp/model.onnx" "$work/x.onnx" --bogus
fails "unknown option --per-channel for float16" "$quantize" float16 "$m/mlp/model.onnx" "$work/x.onnx" --per-channel
fails "holds neither input_0.pb" "$quantize" static "$m/mlp/model.onnx" "$work/x.onnx" --calibrate "$work"
echo "onyx-quantize: all checks passed"
