#!/bin/bash
# Twenty-seventh session, eighth call: dynamic-M kernel sequences (a pair
# of GEMM kernels per M bin where --dsm-search prefers them) for G4, G5,
# G8 (.device/s27r: compile-workloads.py DIR --weight-layout nk
# --dynamic-m --only G4,G5,G8, and -fused with --search-options
# sequences=false), --check'ed at M inside every bin and timed against the
# fused dynamic bundles.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27r/G5 --m 128 --bench 200 > /dev/null 2>&1
for w in G4 G5 G8; do
  for m in 1 77 128 200 300 1000 4096 16384; do
    line="$w M=$m"
    for v in "" -fused; do
      out=$(timeout 60 $ffrun .device/s27r/$w$v --m $m --check --bench 20 --repeat 2 2>&1)
      res=$(grep RESULT <<<"$out" | sed 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\1 \2 \3/')
      line="$line | ${v:-seq}: $res"
    done
    echo "$line"
  done
done
