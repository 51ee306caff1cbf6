#!/bin/bash
# Twenty-sixth session: GEMM-4096-m128 under hand-set plans shaped like
# cuBLAS's kernel for it (ncu, s26p.sh: 64 x 64 tiles, 13 stages, 128
# CTAs, no split K): 64 x 64, 128 x 64, 64 x 128 tiles over all of K at 8
# stages (the family's most), 64 x 64 with clusters of 2 along n (A
# multicast), against the model's plan (r0). Bundles: .device/s26q.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26q/GEMM-4096-m128-r0 --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26q > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS" | head
  tail -n 4 $OUT/ab$pass.txt
done
