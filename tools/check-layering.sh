#!/usr/bin/env bash
# Fails when a header includes one from a layer above its own:
#   core <- ops <- registry <- graph <- runtime <- cli and tools, and kernels/ above registry
# and graph (a kernel never includes the runtime). `check-layering.sh [ROOT]`.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
declare -A allowed=(
  [include/onyx/core]="core"
  [include/onyx/ops]="core ops"
  [include/onyx/registry]="core ops registry"
  [include/onyx/graph]="core ops registry graph"
  [include/onyx/runtime]="core ops registry graph runtime"
  [include/onyx/cli]="core ops registry graph runtime cli"
  [include/onyx/tools]="core ops registry graph runtime tools"
  [kernels]="core ops registry graph kernels"
)
status=0
for dir in "${!allowed[@]}"; do
  while IFS= read -r line; do
    file=${line%%:*}
    target=$(sed -E 's/.*#include "(onyx\/([a-z_]+)\/|(kernels)\/).*/\2\3/' <<<"$line")
    [[ -z $target || $target == "#include"* ]] && continue
    if [[ " ${allowed[$dir]} " != *" $target "* ]]; then
      echo "$file reaches up to $target: ${line#*:}"
      status=1
    fi
  done < <(grep -rHE '^#include "(onyx/[a-z_]+/|kernels/)' "$dir" --include='*.hpp' --include='*.ipp' --include='*.cpp' --include='*.cu' --include='*.cuh' || true)
done
[[ $status -eq 0 ]] && echo "layering holds: core <- ops <- registry <- graph <- runtime <- cli; kernels above graph"
exit $status
