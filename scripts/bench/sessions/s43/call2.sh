#!/bin/bash
# Forty-third session, call 2: the dynamic-M S chains whose bins take
# 8-column wave widths, old (main at 519ecc1, `-old`) against new
# (`-new`), at M = 16, 64, 128, 200, 256: ff-run --check of both, then
# --bench 20 --graph in two rounds (old first, then new first).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-dyn
for w in S2 S3 S5 S6 S7; do for m in 16 64 128 200 256; do variants $D $w $m old new; done; done > /tmp/r1
for w in S2 S3 S5 S6 S7; do for m in 16 64 128 200 256; do variants $D $w $m new old; done; done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| chain | M | check old/new | old us (r1, r2) | new us (r1, r2) | old/new |"; echo "|---|---|---|---|---|---|"
paste -d' ' /tmp/r1 /tmp/r2 | while read w m co cn o1 n1 w2 m2 cn2 co2 n2 o2; do
  echo "| $w | $m | $co/$cn | $o1 $o2 | $n1 $n2 | $(python3 -c "print(f'{($o1+$o2)/($n1+$n2):.3f}')" 2>/dev/null) |"
done
