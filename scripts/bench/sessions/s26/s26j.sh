#!/bin/bash
# Twenty-sixth session: what E's stores cost. `nostore` builds (a
# measurement hack, not landed: the E store only runs when M == 1) against
# the defaults, timed without --check (their output is never written).
# Bundles: .device/s26j.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26j/C5-b32-base --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 CHECK=0 scripts/gpu/ab.sh /tmp/b .device/s26j > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; tail -n 6 $OUT/ab$pass.txt
done
