#!/usr/bin/env bash
# limits.sh ONYX_RUN MAKE_HOSTILE_MODELS: issue 15's check as a new user would
# try it. Under a 4 GiB address-space limit, onyx-run on a model asking for a
# 10^12-element ConstantOfShape / Expand / Tile / Range / Resize output must
# exit with status 1 and an error naming the op and the size (before: an
# uncaught std::bad_alloc, exit 134); a 10^15-iteration Loop must end at
# --timeout with an error naming the deadline.
set -uo pipefail
run=$1
make_models=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$make_models" "$dir" || exit 1
failures=0
check() {  # check NAME EXPECTED_REGEX [onyx-run arguments...]
  local name=$1 want=$2
  shift 2
  local out rc
  out=$( (ulimit -v 4194304; timeout 120 "$run" "$dir/$name.onnx" --threads 1 --warmup 0 --runs 1 "$@") 2>&1)
  rc=$?
  if [ "$rc" -ne 1 ] || ! grep -Eq "$want" <<<"$out"; then
    echo "FAIL $name: exit $rc (want 1), output:"
    echo "$out" | tail -5
    failures=$((failures + 1))
  else
    echo "ok   $name: $(grep -E "$want" <<<"$out" | head -1)"
  fi
}
check constant_of_shape 'ConstantOfShape.*float32 \[1000000x1000000\].*4000000000000 bytes'
check expand 'Expand.*float32 \[1000000x1000000\].*4000000000000 bytes'
check tile 'Tile.*float32 \[1000000x1000000\].*4000000000000 bytes'
check range 'Range.*int64 \[1000000000000\].*8000000000000 bytes'
check resize 'Resize.*float32 \[1x1x1000000x1000000\].*4000000000000 bytes'
# Below the physical memory but above the address-space limit: the allocation
# itself fails, and is reported, not aborted on.
check constant_of_shape_8g 'ConstantOfShape.*(out of memory|max_allocation_bytes)'
check loop_forever 'deadline.*Loop|Loop.*deadline' --timeout 1
[ "$failures" -eq 0 ] || { echo "$failures failed"; exit 1; }
echo "all hostile models ended with a clear error"
