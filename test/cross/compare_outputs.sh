#!/usr/bin/env bash
# Runs two commands that print the same outputs as text and compares what
# they print, token by token: numbers must agree within
#   |a - b| <= ONYX_COMPARE_ATOL + ONYX_COMPARE_RTOL * |a|   (a: the first's)
# (defaults 1e-5 and 1e-4), any other token exactly, and the token counts;
# onyx-run's timing lines (`session:`, `latency:`) are left out.
#
#   compare_outputs.sh EXPECTED_COMMAND... -- ACTUAL_COMMAND...
#
# The arm64 tests use it with the x86 build's program first and the arm64
# build's, under qemu, second.
set -euo pipefail
expected=()
while (($#)) && [ "$1" != -- ]; do expected+=("$1"); shift; done
[ "${1:-}" = -- ] && (($# > 1)) || { echo "usage: $0 EXPECTED_COMMAND... -- ACTUAL_COMMAND..." >&2; exit 2; }
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Timing lines (onyx-run's `session:` and `latency:`) are not outputs.
"${expected[@]}" | grep -Ev '^(session|latency):' >"$tmp/expected"
"$@" | grep -Ev '^(session|latency):' >"$tmp/actual"
awk -v rtol="${ONYX_COMPARE_RTOL:-1e-4}" -v atol="${ONYX_COMPARE_ATOL:-1e-5}" '
  function number(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$|^[-+]?(inf|nan)$/ }
  function abs(x) { return x < 0 ? -x : x }
  NR == FNR { for (i = 1; i <= NF; ++i) want[++n] = $i; next }
  {
    for (i = 1; i <= NF; ++i) {
      if (++m > n) continue
      a = want[m]; b = $i
      if (number(a) && number(b) && a !~ /inf|nan/ && b !~ /inf|nan/) {
        d = abs(a - b)
        if (d > worst) { worst = d; at = m }
        if (d > atol + rtol * abs(a) && !bad) { bad = 1; printf "token %d: expected %s, got %s\n", m, a, b }
      } else if (a != b && !bad) { bad = 1; printf "token %d: expected \"%s\", got \"%s\"\n", m, a, b }
    }
  }
  END {
    if (m != n) { printf "expected %d tokens, got %d\n", n, m; bad = 1 }
    printf "%d tokens, largest difference %g (token %d), tolerance %g + %g * |expected|\n", n, worst, at, atol, rtol
    exit bad
  }' "$tmp/expected" "$tmp/actual"
