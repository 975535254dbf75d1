#!/usr/bin/env bash
# Compiles the full registry TU (cmake/prebuilt/all_ops.cpp) once more, outside
# ccache, with the flags of the build in BUILD_DIR (its compile_commands.json),
# and fails past 30 s of wall time (the fastest of up to three compiles) or
# 1.5 GB of peak memory. ctest runs it as the test `registry.budget`.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
command=$(grep -o '"command": ".*cmake/prebuilt/all_ops\.cpp"' "$build/compile_commands.json" | head -n 1 |
          sed -E 's/^"command": "//; s/"$//')
if [[ -z $command ]]; then
  echo "no compile command for cmake/prebuilt/all_ops.cpp in $build/compile_commands.json" >&2
  exit 1
fi
command=${command#*ccache }  # time the compiler, not the cache
command=$(sed -E 's# -o [^ ]+all_ops\.cpp\.o# -o /dev/null#; s# -MD -MT [^ ]+ -MF [^ ]+##' <<<"$command")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# The fastest of up to three compiles: one compile's wall time on this
# 2-vCPU VM ranges 22-32 s with the vCPU it lands on and the neighbours'
# load (bench/README, "Thirteenth stop"), so a single sample over the budget
# is compiled again before the check fails.
best=0
for attempt in 1 2 3; do
  start=$(date +%s%N)
  (cd "$build" && /usr/bin/time -f "%M" -o "$out" bash -c "$command")
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  (( best == 0 || ms < best )) && best=$ms
  peak_mb=$(( $(tail -n 1 "$out") / 1024 ))
  seconds=$(printf "%d.%03d" $((ms / 1000)) $((ms % 1000)))
  echo "registry TU (cmake/prebuilt/all_ops.cpp): ${seconds} s, peak ${peak_mb} MB (budget 30 s, 1536 MB)"
  (( best <= 30000 )) && break
done
if (( best > 30000 || peak_mb > 1536 )); then
  echo "registry TU over budget" >&2
  exit 1
fi
