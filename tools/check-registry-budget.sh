#!/usr/bin/env bash
# Compiles the full registry TU (cmake/prebuilt/all_ops.cpp) once more, outside
# ccache, with the flags of the build in BUILD_DIR (its compile_commands.json),
# and fails past 30 s of CPU time (the fastest of up to three compiles) or
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
# The compiler's CPU time (user + system), the fastest of up to three
# compiles: wall time also counts waiting for a core, and one compile on this
# 2-vCPU VM ranged 22-32 s with the vCPU it landed on and the neighbours'
# load (bench/README, "Thirteenth stop"), so a sample over the budget is
# compiled again before the check fails.
best=0
for attempt in 1 2 3; do
  start=$(date +%s%N)
  (cd "$build" && /usr/bin/time -f "%M %U %S" -o "$out" bash -c "$command")
  end=$(date +%s%N)
  wall_ms=$(( (end - start) / 1000000 ))
  read -r peak_kb user sys < <(tail -n 1 "$out")
  ms=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
  (( best == 0 || ms < best )) && best=$ms
  peak_mb=$(( peak_kb / 1024 ))
  printf "registry TU (cmake/prebuilt/all_ops.cpp): %d.%03d s CPU (%d.%03d s wall), peak %d MB (budget 30 s, 1536 MB)\n" \
    $((ms / 1000)) $((ms % 1000)) $((wall_ms / 1000)) $((wall_ms % 1000)) "$peak_mb"
  (( best <= 30000 )) && break
done
if (( best > 30000 || peak_mb > 1536 )); then
  echo "registry TU over budget" >&2
  exit 1
fi
