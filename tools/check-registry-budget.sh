#!/usr/bin/env bash
# Compiles the full registry TU (kernels/all_ops.cpp) once more, outside
# ccache, and fails past 30 s of wall time or 1.5 GB of peak memory.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
command=$(cd "$build" && ninja -t commands CMakeFiles/onyx_runtime.dir/kernels/all_ops.cpp.o | tail -n 1)
command=${command#*ccache }  # time the compiler, not the cache
command=$(sed -E "s# -o [^ ]+all_ops.cpp.o# -o /dev/null#; s# -MD -MT [^ ]+ -MF [^ ]+##" <<<"$command")
out=$(mktemp)
start=$(date +%s%N)
(cd "$build" && /usr/bin/time -f "%M" -o "$out" bash -c "$command")
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
seconds=$(printf "%d.%03d" $((ms / 1000)) $((ms % 1000)))
peak_mb=$(( $(tail -n 1 "$out") / 1024 ))
rm -f "$out"
echo "registry TU (kernels/all_ops.cpp): ${seconds} s, peak ${peak_mb} MB (budget 30 s, 1536 MB)"
if (( ms > 30000 || peak_mb > 1536 )); then
  echo "registry TU over budget" >&2
  exit 1
fi
