#!/bin/bash
# Twenty-eighth session, fifth call: split-K GEMM clusters with deeper
# rings (.device/s28e: deepsplitk.py DIR, S1-S8's down GEMMs at M = 128,
# 128 x 128 with cls_k 4 at 4-6 stages and 8 at 4 and 6, 64 x 256 with
# cls_k 4 at 4 and 5), --check'ed and timed side by side.
set -u
RUN_TIMEOUT=60 BENCH=30 REPEAT=2 scripts/gpu/ab.sh /tmp/b .device/s28e > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error" $OUT/ab.log | head
tail -12 $OUT/ab.log
