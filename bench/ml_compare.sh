#!/usr/bin/env bash
# bench/ml_compare.sh: the classical-ML benchmark (issue 10) against ONNX
# Runtime: writes the models of bench/ml_models.cpp (300-tree GBT regressor,
# 100-tree 3-class random forest, Scaler + LinearClassifier, RBF SVR with 1000
# support vectors; batch 1 and 1000) to build/bench/ml_models, checks that
# onyx's outputs equal ORT's (numbers within 1e-5 relative + 1e-6 absolute,
# labels exactly), then times both with bench/compare_ort.sh. The small
# models of `onyx-ml-bench-models --checks` (ORT's behaviour where the spec
# is silent: SVM, binary tree and linear classifiers, ...) are compared too,
# not timed.
#
#   bench/ml_compare.sh [--build DIR] [compare_ort.sh options: --threads "1 2" --rounds 3 ...]
#
# Needs `ninja -C build onyx-run onyx-ml-bench-models` and `npm ci
# --ignore-scripts` in bench/ort.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(dirname "$here")/build
if [[ ${1:-} == --build ]]; then build=$2; shift 2; fi
models=$build/bench/ml_models
rm -rf "$models"
mapfile -t files < <("$build/tools/onyx-ml-bench-models" "$models")
mapfile -t checks < <("$build/tools/onyx-ml-bench-models" --checks "$models")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
for f in "${files[@]}" "${checks[@]}"; do
  d=$(dirname "$f") n=$(basename "$(dirname "$f")")
  echo "$n:"
  "$build/tools/onyx-run" "$f" --input "X=$d/test_data_set_0/input_0.pb" --runs 1 --output-dir "$work/onyx/$n" \
    >/dev/null || { bad=1; continue; }
  node "$here/ort/run_ort.js" "$f" --input "X=$d/test_data_set_0/input_0.pb" --runs 1 --output-dir "$work/ort/$n" \
    >/dev/null || { bad=1; continue; }
  "$build/tools/onyx-ml-bench-models" --compare "$work/ort/$n" "$work/onyx/$n" 1e-5 | sed 's/^/  /' || bad=1
done
((bad == 0)) || { echo "ml_compare.sh: onyx's outputs differ from ORT's" >&2; exit 1; }
echo
"$here/compare_ort.sh" --onyx-run "$build/tools/onyx-run" "$@" "${files[@]}"
