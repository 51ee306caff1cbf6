#!/bin/bash
# Forty-second session, call 7: S8's dynamic-M bin 513-1024 with the lower-end rule
# for wide gated plans (-fin: 96-wide tiles, 2 waves at 1024) against
# call 6's -new (192, one wave) and -old (64); ff-run
# --check of all three, then --bench 20 --graph in two rounds.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
D=.device/s42-s8/S8
ms="513 600 800 1024"
for m in $ms; do echo "$m $(c $D-old $m) $(c $D-new $m) $(c $D-fin $m) $(t $D-old $m) $(t $D-new $m) $(t $D-fin $m)"; done > /tmp/r1
for m in $ms; do echo "$m $(t $D-fin $m) $(t $D-new $m) $(t $D-old $m)"; done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| M | check old/new/fin | old 64 (r1, r2) | new 192 (r1, r2) | fin 96 (r1, r2) |"; echo "|---|---|---|---|---|"
paste -d' ' /tmp/r1 /tmp/r2 | while read m co cn cf o1 n1 f1 m2 f2 n2 o2; do
  echo "| $m | $co/$cn/$cf | $o1 $o2 | $n1 $n2 | $f1 $f2 |"
done
