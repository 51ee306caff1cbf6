#!/bin/bash
# Fortieth session, call 2: S3's gated GEMM at M = 256 split along N into a
# full-wave kernel and a tail kernel (ntail.py's bundles in .device/s40-ntail),
# each checked once, then timed (ff-run --bench 20, boost clock) in three
# interleaved rounds; S3-m256's sequence (.device/s39-s) for reference.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
bundles=(.device/s40-ntail/* .device/s39-s/S3-m256)
for b in "${bundles[@]}"; do
  r=$(timeout 60 $ffrun $b --check 2>&1 | grep -E "^check|RESULT" | tr '\n' ' ')
  echo "$(basename $b): $r" | cut -c1-220
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
