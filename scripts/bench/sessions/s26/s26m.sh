#!/bin/bash
# Twenty-sixth session: the model's ranking for C3-b32 and C7-b32 (ranks
# 0-5 and up to 4 more plans of other shapes), two passes with --check.
# Bundles: .device/s26m.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26m/C3-b32-r0 --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26m > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS" | head
  tail -n 5 $OUT/ab$pass.txt
done
