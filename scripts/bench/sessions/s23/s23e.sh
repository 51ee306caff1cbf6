#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=30 scripts/gpu/ab.sh /tmp/b .device/s23e > $OUT/ab.txt 2>&1
echo "rc=$?"; grep -c "status=PASS" $OUT/ab.txt; grep "^==" $OUT/ab.txt | grep -v "status=PASS" | head
tail -22 $OUT/ab.txt
