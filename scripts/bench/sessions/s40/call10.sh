#!/bin/bash
# Fortieth session, call 10: gated GEMMs of 192-column tiles (one wave of 2 x 58 at M = 256)
# against the search's pick, N = 11136 (58 x 192; .device/s40-w192); each
# checked once, then timed (ff-run --bench 20) in three interleaved rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
bundles=(.device/s40-w192/*)
for b in "${bundles[@]}"; do
  r=$(timeout 60 $ffrun $b --check 2>&1 | grep -oE "PASS|FAIL|error.*" | head -1)
  echo "$(basename $b): ${r:-no result}"
done
declare -A t
for round in 1 2 3; do
  for b in "${bundles[@]}"; do
    us=$(timeout 60 $ffrun $b --bench 20 | sed -n 's/^bench: median \([0-9.]*\) us.*/\1/p')
    t[$b]="${t[$b]:-} $us"
  done
done
echo "| bundle | us (3 rounds) |"; echo "|---|---|"
for b in "${bundles[@]}"; do echo "| $(basename $b) |${t[$b]} |"; done
