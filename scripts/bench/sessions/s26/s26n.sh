#!/bin/bash
# Twenty-sixth session: the model's ranking on C3-b1, C4-b1, C6-b1 and
# C7-b1 (ranks 0-5 and up to 4 more plans of other shapes), two passes
# with --check. Bundles: .device/s26n.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26n/C4-b1-r0 --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26n > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS" | head
  tail -n 7 $OUT/ab$pass.txt
done
