#!/bin/sh
# both.sh PROGRAM SEQUENCE... : runs each sequence of PROGRAM (on the fake
# driver, as the caller's environment says) with MSTAGE_GRAPHS=off and with
# MSTAGE_GRAPHS=auto (traced, graph launches printed); fails when the driver
# ran other launches, in another order or with other arguments, in the two
# runs; prints the output of the auto runs.
program=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
what='-e ^fakecuda:.launch -e ^begin -e ^end'
for sequence in "$@"; do
  MSTAGE_GRAPHS=off "$program" "$sequence" >"$out/off" 2>&1 || exit 1
  MSTAGE_GRAPHS=auto MSTAGE_TRACE=1 FAKECUDA_GRAPHS=1 \
    "$program" "$sequence" >"$out/auto" 2>&1 || exit 1
  grep $what "$out/off" >"$out/off.launches"
  grep $what "$out/auto" >"$out/auto.launches"
  if ! diff "$out/off.launches" "$out/auto.launches" >&2; then
    echo "both.sh: $sequence: the driver ran other launches with replay" >&2
    exit 1
  fi
  cat "$out/auto"
done
