#!/bin/bash
# bench/cuda/run_device.sh: the GPU checks of the CUDA backend in one go, on a
# machine with an NVIDIA GPU, from a payload packed by bench/cuda/pack.sh
# (binaries built here with the CUDA backend, the libraries they need, the
# ONNX node tests of the ops with CUDA kernels):
#
#   bench/cuda/run_device.sh PAYLOAD.tar.gz OUT_DIR [unit|conformance|models|profile|gemm]...
#
# unit: onyx_cuda_tests (every CUDA kernel against the CPU's); conformance:
# onyx-conformance --backend cuda, writing OUT_DIR/cuda_pass_list.txt;
# models: ResNet-50 and BERT-base exported from PyTorch there, onyx against
# PyTorch eager (torch_models.py, compare.py); profile: BERT-base's time
# per op (a profiled run waits for each GPU node, so it is the device's) and
# the nodes that fall back to the CPU; gemm: onyx's matrix
# product against PyTorch's on the same shapes, and the host <-> device copies
# (gemm_compare.py). unit, conformance and models when none is named.
set -u
payload=$1 out=$2
shift 2
steps=${*:-unit conformance models}
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/onyx_device
mkdir -p "$work" "$out"
tar xzf "$payload" -C "$work"
cublas_dir=$(python3 -c 'import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], "lib"))' 2>/dev/null)
export LD_LIBRARY_PATH=$work/lib:/usr/local/cuda/lib64:${cublas_dir}:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
for step in $steps; do
  echo "=== $step"
  case $step in
    unit)
      timeout 90 "$work/bin/onyx_cuda_tests" 2>&1 | tee "$out/unit.txt" | tail -80 ;;
    conformance)
      timeout 120 "$work/bin/onyx-conformance" --backend cuda --write-pass-list "$out/cuda_pass_list.txt" \
        "$work/node" > "$out/conformance.txt" 2>&1
      grep -E "^(FAIL)" "$out/conformance.txt" | head -60
      tail -3 "$out/conformance.txt" ;;
    models)
      timeout 150 python3 "$here/torch_models.py" "$work/models" --runs 30 2>&1 | grep -v Warning | tail -20
      timeout 150 python3 "$here/compare.py" "$work/models" "$work/bin/onyx-run" --runs 30 2>&1 | tee "$out/models.txt" ;;
    gemm)
      timeout 120 python3 "$here/gemm_compare.py" "$work/bin/cuda_gemm_bench" --runs 20 2>&1 | tee "$out/gemm.txt" ;;
    profile)  # where a BERT-base run spends its time, and which nodes fall back
      timeout 120 python3 "$here/torch_models.py" "$work/models" --only bert_base --dtypes float32 --batches 1 \
        --runs 5 2>&1 | tail -2
      m=$work/models/bert_base
      timeout 60 "$work/bin/onyx-run" "$m/model.onnx" --backend cuda --list-nodes --profile-summary --runs 20 \
        --input input_ids="$m/b1_input_0.pb" --input attention_mask="$m/b1_input_1.pb" > "$out/profile.txt" 2>&1
      grep -E "^node (cpu|cuda onyx.Copy)" "$out/profile.txt"
      grep -vE "^node " "$out/profile.txt" | tail -45 ;;
  esac
done
