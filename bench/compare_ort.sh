#!/usr/bin/env bash
# bench/compare_ort.sh: onyx-run against ONNX Runtime 1.30 (CPU), same inputs,
# same thread count, on this machine, alternating the two.
#
#   bench/compare_ort.sh [--onyx-run PATH] [--threads "1 2"] [--rounds R]
#                        [--warmup W] [--runs N] [MODEL.onnx...]
#
# Each model first runs once in each runtime, unmeasured. Then each
# (model, threads) pair runs onyx-run, then ORT (bench/ort/run_ort.js),
# R times in alternation; each process does W warmup runs and N timed runs and
# reports its median. The table shows the median of the R process medians,
# their ratio (onyx / ORT: below 1 means onyx is faster) and the larger of
# the R peak RSS figures (/usr/bin/time %M). ORT's RSS is the node process's
# minus that of a node process that loads nothing. "create ms" is the median
# time to create the session (both print `session: created in X ms`: onyx's
# session::open, ORT's InferenceSession.create), and c.ratio onyx / ORT.
# Inputs: a model's test_data_set_0/input_<i>.pb when it has one, otherwise
# arange(n)/n, written once and fed to both runtimes.
# Needs `npm ci --ignore-scripts` in bench/ort first.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
onyx_run=$root/build/tools/onyx-run
threads="1 2"
rounds=3
warmup=3
runs=20
models=()
while (($#)); do
  case $1 in
    --onyx-run) onyx_run=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) models+=("$1"); shift ;;
  esac
done
if ((${#models[@]} == 0)); then
  shopt -s nullglob
  # build/bench/models: the float16 models `ninja -C build float16_models`
  # makes (tools/onyx_convert_float16.cpp), when they are there.
  models=(/work/shared/onnx-tests/light/*.onnx /work/shared/onnx-tests/real/*/model.onnx
          "$root/examples/models/resnet50.onnx" "$root"/build/bench/models/*.onnx
          "$root"/build/bench/models/*/model.onnx)
fi
[[ -x $onyx_run ]] || { echo "compare_ort.sh: no onyx-run at $onyx_run (use --onyx-run)" >&2; exit 1; }
ort_js=$here/ort/run_ort.js
[[ -d $here/ort/node_modules/onnxruntime-node ]] || {
  echo "compare_ort.sh: run 'npm ci --ignore-scripts' in $here/ort first" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs a command under /usr/bin/time; prints "<median ms> <peak RSS KiB> <create ms>".
measure() {
  local out
  out=$(/usr/bin/time -f '%M' -o "$work/rss" "$@" 2>"$work/err") || {
    echo "compare_ort.sh: failed: $*" >&2; cat "$work/err" >&2; return 1; }
  local median
  median=$(sed -n 's/^latency: median \([0-9.]*\) ms.*/\1/p' <<<"$out")
  create=$(sed -n 's/^session: created in \([0-9.]*\) ms.*/\1/p' <<<"$out")
  echo "$median $(tail -1 "$work/rss") $create"
}

median_of() { tr ' ' '\n' | sort -g | awk '{v[NR]=$1} END {print NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
max_of() { tr ' ' '\n' | sort -g | tail -1; }

idle_rss=$(/usr/bin/time -f '%M' node "$ort_js" --idle 2>&1 | tail -1)

printf 'onyx-run: %s\nORT: onnxruntime-node %s, %s\nwarmup %s, runs %s, rounds %s\n\n' "$onyx_run" \
  "$(node -p "require('$here/ort/node_modules/onnxruntime-node/package.json').version")" "$(uname -m)" \
  "$warmup" "$runs" "$rounds"
printf '%-28s %3s %11s %11s %7s %10s %10s %11s %11s %7s\n' model thr "onyx ms" "ORT ms" ratio "onyx MiB" "ORT MiB" \
  "onyx create" "ORT create" c.ratio
for model in "${models[@]}"; do
  name=$(basename "$model" .onnx)
  [[ $name == model ]] && name=$(basename "$(dirname "$model")")
  [[ $model == "$root"/examples/* ]] && name=examples/$name
  [[ $model == "$root"/build/bench/models/* ]] && name=build/$name
  mapfile -t specs < <(node "$ort_js" --make-inputs "$model" "$work/in-$name")
  inputs=()
  for s in "${specs[@]}"; do inputs+=(--input "$s"); done
  # One unmeasured session of each runtime first. The first process after
  # another model's writes its memory into pages the VM has not backed yet
  # (VGG-19's session took 1.4 s in onyx's first run and 0.16-0.25 s in the
  # next), and whichever runtime ran first paid for both.
  measure "$onyx_run" "$model" "${inputs[@]}" --threads 1 --warmup 0 --runs 1 >/dev/null
  measure node "$ort_js" "$model" "${inputs[@]}" --threads 1 --warmup 0 --runs 1 >/dev/null
  for t in $threads; do
    o_ms=() r_ms=() o_rss=() r_rss=() o_cr=() r_cr=()
    for ((r = 0; r < rounds; ++r)); do
      res=$(measure "$onyx_run" "$model" "${inputs[@]}" --threads "$t" --warmup "$warmup" --runs "$runs")
      read -r ms rss cr <<<"$res"
      o_ms+=("$ms") o_rss+=("$rss") o_cr+=("$cr")
      res=$(measure node "$ort_js" "$model" "${inputs[@]}" --threads "$t" --warmup "$warmup" --runs "$runs")
      read -r ms rss cr <<<"$res"
      r_ms+=("$ms") r_rss+=("$((rss - idle_rss))") r_cr+=("$cr")
    done
    om=$(median_of <<<"${o_ms[*]}") rm=$(median_of <<<"${r_ms[*]}")
    oc=$(median_of <<<"${o_cr[*]}") rc=$(median_of <<<"${r_cr[*]}")
    printf '%-28s %3s %11.2f %11.2f %7.2f %10.1f %10.1f %11.2f %11.2f %7.2f\n' "$name" "$t" "$om" "$rm" \
      "$(awk -v a="$om" -v b="$rm" 'BEGIN {print a / b}')" \
      "$(awk -v k="$(max_of <<<"${o_rss[*]}")" 'BEGIN {print k / 1024}')" \
      "$(awk -v k="$(max_of <<<"${r_rss[*]}")" 'BEGIN {print k / 1024}')" \
      "$oc" "$rc" "$(awk -v a="$oc" -v b="$rc" 'BEGIN {print a / b}')"
  done
done
