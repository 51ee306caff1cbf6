#!/bin/bash
# Twenty-fifth session: s25c.sh's A/B again after a warm-up launch series
# (s25c's first bundle ran on a cold GPU: C1-b32-base 23.4 us against 15.5
# in the twenty-fourth session), two passes. Bundles: .device/s25d.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s25d/C5-b32-base --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s25d > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS"
  tail -n 5 $OUT/ab$pass.txt
done
