#!/usr/bin/env bash
# Compiles the full registry TU (cmake/prebuilt/all_ops.cpp) once more, outside
# ccache, with the flags of the build in BUILD_DIR (its compile_commands.json),
# and fails past 30 s of wall time or 1.5 GB of peak memory. ctest runs it as
# the test `registry.budget`.
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
start=$(date +%s%N)
(cd "$build" && /usr/bin/time -f "%M" -o "$out" bash -c "$command")
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
seconds=$(printf "%d.%03d" $((ms / 1000)) $((ms % 1000)))
peak_mb=$(( $(tail -n 1 "$out") / 1024 ))
echo "registry TU (cmake/prebuilt/all_ops.cpp): ${seconds} s, peak ${peak_mb} MB (budget 30 s, 1536 MB)"
if (( ms > 30000 || peak_mb > 1536 )); then
  echo "registry TU over budget" >&2
  exit 1
fi
