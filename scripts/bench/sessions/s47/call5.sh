#!/bin/bash
# Forty-seventh session, call 5 (.device/s47-d): S7's dynamic table with
# the bin 513-2048 on 128 x 160 (w160: call 3's rule before the lower-end
# check) against the landed one (513-1024 split over 4 along k, 1025-4096
# split over 2) at the bin's lower end and above: is the model's verdict
# at M = 513 right?
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s47-d
mkdir -p $OUT
{
for m in 513 560 640 800 1024 1100; do ab_line $D landed w160 S7d $m; done
} 2>&1 | tee $OUT/call5.txt
