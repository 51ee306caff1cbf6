#!/bin/bash
# Forty-first session, call 6 (.device/s41-f6): the landed A slots and
# zeroed stale rows (-fin) against 4db8b22 (-old) on the bundles call 5 did
# not time in that form: static G5-m64 and GEMM-4096-m16, dynamic S4, S6,
# S8, G8 at M = 16, 64 and 100 (bin 65-128: zeroing only). ff-run --check
# on -fin, then --bench 20 --graph in two interleaved rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s41-f6
runs=("G5-m64 0" "GEMM-4096-m16 0")
for w in DS4 DS6 DS8 DG8; do for m in 16 64 100; do runs+=("$w $m"); done; done
. scripts/bench/sessions/s41/lib.sh
for r in "${runs[@]}"; do set -- $r; echo "$1 $2 $(c $1 $2 fin) $(t $1 $2 old) $(t $1 $2 fin)"; done > /tmp/r1
for r in "${runs[@]}"; do set -- $r; echo "$1 $2 $(t $1 $2 fin) $(t $1 $2 old)"; done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| bundle | M | check | old us (r1, r2) | fin us (r1, r2) |"; echo "|---|---|---|---|---|"
while read w m cf o1 f1; do
  read w2 m2 f2 o2 < <(grep "^$w $m " /tmp/r2)
  echo "| $w | $m | $cf | $o1 $o2 | $f1 $f2 |"
done < /tmp/r1
