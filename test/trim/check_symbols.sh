#!/usr/bin/env bash
# Fails unless the only kernels instantiated in OBJECT are those of the ops
# named on the command line: `check_symbols.sh OBJECT Relu Add`. A kernel
# shows as its registry entry points (run_thunk/prepare_thunk<ops::X, ...>)
# or as any out-of-line member of onyx::kernel<ops::X, ...>.
set -euo pipefail
object=$1
shift
symbols=$(nm -C "$object")
ops=$( { grep -oE '(run_thunk|prepare_thunk)<onyx::ops::[A-Za-z_:0-9]+,' <<<"$symbols" || true
         grep -oE 'onyx::kernel<onyx::ops::[A-Za-z_:0-9]+,' <<<"$symbols" || true; } |
       sed -E 's/.*onyx::ops::([A-Za-z_:0-9]+),/\1/' | sort -u)
echo "ops with kernels instantiated in $(basename "$object"): $(echo $ops)"
status=0
for op in "$@"; do
  grep -qx "$op" <<<"$ops" || { echo "expected a kernel for $op"; status=1; }
done
for op in $ops; do
  [[ " $* " == *" $op "* ]] || { echo "instantiated although not listed: $op"; status=1; }
done
exit $status
