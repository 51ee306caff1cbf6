#!/bin/bash
# Twenty-seventh session, fourth call: the model's ranking of the M = 128
# weight-streaming chains G5, G8, S1 and S3 (the 8 best plans and 8 more of
# other shapes each, .device/s27l: compile-workloads.py DIR --weight-layout
# nk --only G5,G8,S1,S3 --ranks 8 --spread 8), every plan --check'ed: does
# the model misprice their fp32 workspace reductions (grid_n planes of
# M x L fp32 partials)?
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27l/G5-r0 --bench 300 > /dev/null 2>&1
RUN_TIMEOUT=30 BENCH=30 REPEAT=2 scripts/gpu/ab.sh /tmp/b .device/s27l > $OUT/ab.txt 2>&1
echo "ab rc=$?"
grep -c "rc=0 RESULT.*status=PASS" $OUT/ab.txt
sed -n '/^| workload/,$p' $OUT/ab.txt
