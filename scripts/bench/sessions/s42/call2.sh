#!/bin/bash
# Forty-second session, call 2: the default plans that wave-sized n tiles
# change, old (--search-options wave-tiles=false) against new, as whole
# chains: the static S bundles of .device/s42-ab and the dynamic-M S
# bundles of .device/s42-dyn at M = 16, 64, 128, 200, 256. ff-run --check
# of both, then --bench 20 --graph in two rounds (old first, then new
# first).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
runs=()
for w in S2 S3 S3-m16 S3-m64 S3-m256 S3-m1024 S5 S6 S7; do runs+=(".device/s42-ab/$w 0"); done
for w in S2 S3 S5 S6 S7 S8; do for m in 16 64 128 200 256; do runs+=(".device/s42-dyn/$w $m"); done; done
for r in "${runs[@]}"; do set -- $r
  echo "$(basename $1) $2 $(c $1-old $2) $(c $1-new $2) $(t $1-old $2) $(t $1-new $2)"
done > /tmp/r1
for r in "${runs[@]}"; do set -- $r
  echo "$(basename $1) $2 $(t $1-new $2) $(t $1-old $2)"
done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| bundle | M | check old/new | old us (r1, r2) | new us (r1, r2) | old/new |"; echo "|---|---|---|---|---|---|"
paste -d' ' /tmp/r1 /tmp/r2 | while read w m co cn o1 n1 w2 m2 n2 o2; do
  echo "| $w | $m | $co/$cn | $o1 $o2 | $n1 $n2 | $(python3 -c "print(f'{($o1+$o2)/($n1+$n2):.3f}')" 2>/dev/null) |"
done
