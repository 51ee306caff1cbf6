#!/bin/bash
# Forty-seventh session, call 1: wave-width n tiles for plain GEMMs over all
# of K with K-major weights (.device/s47-wave: W-old HEAD's bundles, W-new
# the change's): C4-b32's first and C8-b32's second kernel (M = 1568,
# N = 2048, K = 512: 128 x 256 on 104 CTAs -> 128 x 208 on 130), S7's
# dynamic bins 257-512 and 513-2048 (down GEMM 128 x 80 / 128 x 160).
# Lines as session-lib's ab_line; memcheck on the partial-n-tile kernels.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s47-wave
mkdir -p $OUT
{
for w in C4-b32 C8-b32; do ab_line $D old new $w 0; ab_line $D old new $w 0; done
for m in 300 400 512 600 800 1024 1536 2048; do ab_line $D old new S7d $m; done
echo "memcheck C4-b32-new: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/C4-b32-new --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
echo "memcheck S7d-new 300: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/S7d-new --m 300 --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
} 2>&1 | tee $OUT/call1.txt
