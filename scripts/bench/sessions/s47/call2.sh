#!/bin/bash
# Forty-seventh session, call 2 (.device/s47-b): (a) C4-b32 and C8-b32 with
# their 1568 x 2048 x 512 GEMM at 128 x 256 (old), the search's 128 x 208
# with the epilogue storing whole 32-column groups transposed and the rest
# per lane (w208), and 128 x 224 set by hand (w224); (b) the gated
# wave-width kernels whose epilogue that changes (S2, S3, S5, S6, S7 at
# M = 128: old = HEAD, epi); (c) S7's dynamic bins with both changes.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s47-b
mkdir -p $OUT
{
for w in C4-b32 C8-b32; do for v in old w208 w224; do echo "$w $v $(c $D/$w-$v) $(t $D/$w-$v) $(t $D/$w-$v)"; done; for v in w224 w208 old; do echo "$w $v again $(t $D/$w-$v)"; done; done
for w in S2 S3 S5 S6 S7; do ab_line $D old epi $w 0; ab_line $D epi old $w 0; done
for m in 300 512 800 1024 1536 2048; do ab_line $D old both S7d $m; done
echo "memcheck C4-b32-w208: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/C4-b32-w208 --check 2>&1 | grep -E "ERROR SUMMARY|FAIL" | tr '\n' ' ')"
echo "memcheck S2-epi: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/S2-epi --check 2>&1 | grep -E "ERROR SUMMARY|FAIL" | tr '\n' ' ')"
echo "memcheck S7d-both 300: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/S7d-both --m 300 --check 2>&1 | grep -E "ERROR SUMMARY|FAIL" | tr '\n' ' ')"
} 2>&1 | tee $OUT/call2.txt
