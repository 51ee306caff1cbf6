#!/bin/bash
# Twenty-sixth session: what the inter-cluster workspace reduction costs
# G5, S3 and G8 at M = 128: `nows` builds (a measurement hack, not landed:
# the E partials' reduction into the workspace runs only when M == 1; the
# finishers still run) against the defaults, without --check.
# Bundles: .device/s26l.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26l/G5-base --bench 100 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 CHECK=0 scripts/gpu/ab.sh /tmp/b .device/s26l > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; tail -n 6 $OUT/ab$pass.txt
done
