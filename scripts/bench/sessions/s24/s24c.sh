#!/bin/bash
# Twenty-fourth session: persistent against one-tile-per-CTA solo kernels
# over several plans of C1-b32, C5-b32 and C6-b32 (hand-set schedules,
# -*base / -*pers, persistent-solo=true forcing persistence), for the cost
# model's persistence credit. Bundles: .device/s24c.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s24c > $OUT/ab.txt 2>&1
echo "ab rc=$?"
grep "^==" $OUT/ab.txt | grep -v "status=PASS" | head
grep -o "RESULT bundle=[^ ]*\|median_us=[^ ]*\|status=[A-Z]*" $OUT/ab.txt | paste - - - | sed 's/RESULT bundle=.device.s24c.//'
