#!/usr/bin/env bash
# tools/sanitize.sh address|thread [BUILD_DIR]: a sanitizer build and its tests
# (issue 15, item 3).
#
#   address: ASan + UBSan (-fno-sanitize-recover: the first report fails).
#            Runs the unit tests at one ISA level (unit.avx2), the fuzz
#            regression replay, and the whole conformance suite.
#   thread:  TSan. Runs the concurrency test: 8 threads calling run on one
#            session at once, each result compared bit for bit with a serial
#            run (test/concurrency/concurrent_run.cpp, its own small registry).
#
# Both build only what they run (onyx_tests, onyx-conformance, fuzz_replay;
# concurrent_run),
# with ccache, in build-asan/ (-O0) or build-tsan/ (-O1). Set ONYX_SANITIZE_QUICK=1
# for the unit tests and the replay only (no conformance suite).
set -euo pipefail
kind=${1:?usage: sanitize.sh address|thread [BUILD_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
case "$kind" in
  address) dir=${2:-$root/build-asan} ;;
  thread) dir=${2:-$root/build-tsan} ;;
  *) echo "sanitize.sh: address or thread, not '$kind'" >&2; exit 2 ;;
esac
data=${ONYX_TEST_DATA:-$root/../shared/onnx-tests}
# ASan builds at -O0 (half -O1's compile time, which matters in CI: see the
# README's "Files from strangers"); TSan's one small program at -O1.
opt=${ONYX_SANITIZE_OPT:-$([ "$kind" = address ] && echo -O0 || echo -O1)}
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="$opt -DNDEBUG" \
  -DONYX_SANITIZE="$kind" -DONYX_BUILD_EXAMPLES=OFF -DONYX_TEST_DATA="$data" >/dev/null
start=$(date +%s)
if [ "$kind" = address ]; then
  export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  cmake --build "$dir" --target onyx_tests onyx-conformance fuzz_replay
  echo "sanitize.sh: built in $(( $(date +%s) - start )) s"
  # The unit tests and the fuzz replay on one core, the conformance suite on
  # the other: each is single-threaded for most of its time.
  log="$dir/unit-and-replay.log"
  ( (cd "$dir" && ONYX_ISA=avx2 ./test/onyx_tests) &&
    ctest --test-dir "$dir" --output-on-failure -R '^fuzz\.replay$' ) >"$log" 2>&1 &
  unit=$!
  conformance=0
  if [ -z "${ONYX_SANITIZE_QUICK:-}" ] && [ -d "$data" ]; then
    "$root/test/conformance/run.sh" "$dir/tools/onyx-conformance" "$data" "$root/test/conformance/pass_list.txt" ||
      conformance=$?
  fi
  unit_rc=0
  wait "$unit" || unit_rc=$?
  cat "$log"
  if [ "$unit_rc" -ne 0 ] || [ "$conformance" -ne 0 ]; then
    echo "sanitize.sh address: failed (unit tests and replay: $unit_rc, conformance: $conformance)" >&2
    exit 1
  fi
else
  export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
  cmake --build "$dir" --target concurrent_run
  echo "sanitize.sh: built in $(( $(date +%s) - start )) s"
  "$dir/test/concurrent_run"
fi
echo "sanitize.sh $kind: passed in $(( $(date +%s) - start )) s"
