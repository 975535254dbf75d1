#!/usr/bin/env bash
# Fails if PROGRAM links a protobuf library or holds a protobuf symbol:
# `check_no_protobuf.sh PROGRAM`.
set -euo pipefail
program=$1
libs=$(ldd "$program")
if grep -qi protobuf <<<"$libs"; then
  echo "$(basename "$program") links protobuf:"
  grep -i protobuf <<<"$libs"
  exit 1
fi
count=$( (nm -C "$program" 2>/dev/null || true) | grep -c 'google::protobuf' || true)
if [[ $count -ne 0 ]]; then
  echo "$(basename "$program") holds $count protobuf symbols"
  exit 1
fi
echo "$(basename "$program"): no protobuf library, no protobuf symbol"
