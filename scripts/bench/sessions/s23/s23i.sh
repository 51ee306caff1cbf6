#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s23i > $OUT/ab.txt 2>&1; echo "ab rc=$?"
RUN_TIMEOUT=60 BENCH=40 scripts/gpu/ab.sh /tmp/b .device/s23i > $OUT/ab2.txt 2>&1; echo "ab2 rc=$?"
grep -c "status=PASS" $OUT/ab.txt $OUT/ab2.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tail -6 $OUT/ab.txt; tail -6 $OUT/ab2.txt
