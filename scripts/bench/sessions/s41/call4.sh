#!/bin/bash
# Forty-first session, call 4: A's ring slots sized to a fitted box
# (KernelPlan::aSlotRows) against whole-tile slots (.device/s41-ab: -old at
# 4db8b22, -new with the change; D<chain> are dynamic-M bundles, whose bin
# 1-64 changed). Every changed static bundle and the dynamic ones at M =
# 16, 48, 64: ff-run --check, then --bench 20 --graph in two interleaved
# rounds; compute-sanitizer memcheck on three new kernels (their wgmmas
# read past the slot, inside the B ring).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s41-ab
runs=("G5-m16 0" "G5-m64 0" "GEMM-4096-m16 0" "S3-m16 0" "S3-m64 0")
for w in DG5 DG8 DS1 DS2 DS3 DS4 DS5 DS7; do
  for m in 16 48 64; do runs+=("$w $m"); done
done
. scripts/bench/sessions/s41/lib.sh
for r in "${runs[@]}"; do set -- $r
  echo "$1 $2 $(c $1 $2 old) $(c $1 $2 new) $(t $1 $2 old) $(t $1 $2 new)"
done > /tmp/r1
for r in "${runs[@]}"; do set -- $r
  echo "$1 $2 $(t $1 $2 new) $(t $1 $2 old)"
done > /tmp/r2
for x in "S3-m16 0" "DS3 40" "G5-m16 0"; do set -- $x; mm=(); [ $2 != 0 ] && mm=(--m $2)
  echo "memcheck $1 M=$2: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/$1-new "${mm[@]}" --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
done
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| bundle | M | check old/new | old us (r1, r2) | new us (r1, r2) |"; echo "|---|---|---|---|---|"
while read w m co cn o1 n1; do
  read w2 m2 n2 o2 < <(grep "^$w $m " /tmp/r2)
  echo "| $w | $m | $co/$cn | $o1 $o2 | $n1 $n2 |"
done < /tmp/r1
