#!/bin/bash
# Forty-second session, call 6: S8's dynamic-M bins 257-512 and 513-1024,
# whose kernels the landed search changed after call 2 measured M <= 256
# (.device/s42-s8: -new at 2d9bf6e, -old with wave-tiles=false): ff-run
# --check of both, then --bench 20 --graph in two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
D=.device/s42-s8/S8
ms="257 300 400 512 513 600 800 1024"
for m in $ms; do echo "$m $(c $D-old $m) $(c $D-new $m) $(t $D-old $m) $(t $D-new $m)"; done > /tmp/r1
for m in $ms; do echo "$m $(t $D-new $m) $(t $D-old $m)"; done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| M | check old/new | old us (r1, r2) | new us (r1, r2) | old/new |"; echo "|---|---|---|---|---|"
paste -d' ' /tmp/r1 /tmp/r2 | while read m co cn o1 n1 m2 n2 o2; do
  echo "| $m | $co/$cn | $o1 $o2 | $n1 $n2 | $(python3 -c "print(f'{($o1+$o2)/($n1+$n2):.3f}')" 2>/dev/null) |"
done
