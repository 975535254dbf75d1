#!/usr/bin/env bash
# A trimmed inference executable's outputs equal onyx-run's, bit for bit, on
# the same model, generated inputs and thread count:
#   compare_with_onyx_run.sh ONYX_RUN MODEL.onnx PROGRAM THREADS
set -euo pipefail
onyx_run=$1 model=$2 program=$3 threads=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$onyx_run" "$model" --threads "$threads" --runs 1 --output-dir "$dir/onyx-run" >"$dir/onyx-run.txt"
"$program" --threads "$threads" --runs 1 --output-dir "$dir/trimmed" >"$dir/trimmed.txt"
cat "$dir/trimmed.txt"
count=0
for f in "$dir"/onyx-run/*.pb; do
  cmp "$f" "$dir/trimmed/$(basename "$f")"
  count=$((count + 1))
done
[[ $count -gt 0 ]] || { echo "onyx-run wrote no outputs"; exit 1; }
echo "$(basename "$program"): $count outputs equal onyx-run's"
