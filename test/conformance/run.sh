#!/usr/bin/env bash
# Runs onyx-conformance over the ONNX backend suite with the pass list, the
# random-op list and the excluded list beside it; exits 77 (ctest: skipped)
# where the suite is absent, as in a user's clone.
set -uo pipefail
runner=$1 data=$2 list=$3
if [ ! -d "$data" ]; then
  echo "ONNX backend test data not found at $data: conformance skipped"
  exit 77
fi
dir=$(dirname "$list")
"$runner" --pass-list "$list" --random-list "$dir/random_list.txt" --excluded "$dir/excluded.txt" "$data"
