#!/bin/bash
# Fortieth session, call 13 (prepared, NOT run: the device budget was spent):
# dynamic-M chains whose gated bins take 128 x 192 tiles at the landed rule
# (-new) against the previous rule (-old), .device/s40-dyn: S2's bin
# 257-512, S3/S5/S6/S7's 129-256, S8's 513-1024; each checked at two M of
# the bin, then timed (ff-run --bench 20) in two interleaved rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
runs=("S2 300" "S2 512" "S3 200" "S3 256" "S5 200" "S5 256" "S6 200" "S6 256"
      "S7 200" "S7 256" "S8 600" "S8 1024")
for r in "${runs[@]}"; do
  set -- $r
  for v in old new; do
    c=$(timeout 60 $ffrun .device/s40-dyn/$1-$v --m $2 --check 2>&1 | grep -oE "PASS|FAIL" | head -1)
    t1=$(timeout 60 $ffrun .device/s40-dyn/$1-$v --m $2 --bench 20 | sed -n 's/^bench: median \([0-9.]*\).*/\1/p')
    echo "$1 M=$2 $v $c $t1"
  done
done > /tmp/r1
for r in "${runs[@]}"; do
  set -- $r
  for v in new old; do
    echo "$1 M=$2 $v $(timeout 60 $ffrun .device/s40-dyn/$1-$v --m $2 --bench 20 | sed -n 's/^bench: median \([0-9.]*\).*/\1/p')"
  done
done > /tmp/r2
echo "| chain | M | old check | new check | old us (2 rounds) | new us (2 rounds) |"; echo "|---|---|---|---|---|---|"
for r in "${runs[@]}"; do
  set -- $r
  o1=$(grep "^$1 M=$2 old" /tmp/r1); n1=$(grep "^$1 M=$2 new" /tmp/r1)
  o2=$(grep "^$1 M=$2 old" /tmp/r2 | cut -d' ' -f4); n2=$(grep "^$1 M=$2 new" /tmp/r2 | cut -d' ' -f4)
  echo "| $1 | $2 | $(echo $o1 | cut -d' ' -f4) | $(echo $n1 | cut -d' ' -f4) | $(echo $o1 | cut -d' ' -f5) $o2 | $(echo $n1 | cut -d' ' -f5) $n2 |"
done
