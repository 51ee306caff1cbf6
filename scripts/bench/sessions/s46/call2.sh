#!/bin/bash
# Forty-sixth session, call 2: a sequence's first kernel prefetching the
# second kernel's weight into L2 (--lower-to-nvvm successor-prefetch: v0
# never, HEAD's default; v1 at entry; v2 once its producer issued its last
# load), up to half the target's L2, S1-S8 and the sequences of G4-G10 at
# M = 128 (.device/s46-pf/W-vN). Two rounds in opposite orders
# (session-lib's variants); memcheck on S2-v1 and S2-v2.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s46-pf
mkdir -p $OUT
for v in v1 v2; do
  echo "memcheck S2-$v: $(timeout 120 compute-sanitizer --tool memcheck $ffrun $D/S2-$v --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL|error" | head -3 | tr '\n' ' ')"
done
{
for w in S1 S2 S3 S4 S5 S6 S7 S8 G4 G5 G6 G7 G8 G9 G10; do
  echo "r1 $(variants $D $w 0 v0 v1 v2)"
  echo "r2 $(variants $D $w 0 v2 v1 v0)"
done
} 2>&1 | tee $OUT/call2.txt
