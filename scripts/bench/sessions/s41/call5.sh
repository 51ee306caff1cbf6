#!/bin/bash
# Forty-first session, call 5 (.device/s41-z): whole-tile A slots (-old,
# 4db8b22), slots sized to the fitted box (-cmp, the search's plans
# unchanged) and those zeroed once before the first load (-zero,
# zero-stale-a=true). Static G5-m16, S3-m16, S3-m64 and dynamic-M chains
# (D<chain>) at M = 16 and 64: ff-run --check on -cmp and -zero, then
# --bench 20 --graph in two interleaved rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s41-z
runs=("G5-m16 0" "S3-m16 0" "S3-m64 0")
for w in DS1 DS2 DS3 DS5 DS7 DG5; do for m in 16 64; do runs+=("$w $m"); done; done
. scripts/bench/sessions/s41/lib.sh
for r in "${runs[@]}"; do set -- $r
  echo "$1 $2 $(c $1 $2 cmp) $(c $1 $2 zero) $(t $1 $2 old) $(t $1 $2 cmp) $(t $1 $2 zero)"
done > /tmp/r1
for r in "${runs[@]}"; do set -- $r
  echo "$1 $2 $(t $1 $2 zero) $(t $1 $2 cmp) $(t $1 $2 old)"
done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| bundle | M | check cmp/zero | old us (r1, r2) | cmp us | zero us |"; echo "|---|---|---|---|---|---|"
while read w m cc cz o1 c1 z1; do
  read w2 m2 z2 c2 o2 < <(grep "^$w $m " /tmp/r2)
  echo "| $w | $m | $cc/$cz | $o1 $o2 | $c1 $c2 | $z1 $z2 |"
done < /tmp/r1
