#!/bin/bash
# Fifty-sixth session, call 1 (.device/s56-a: halves.py DIR 16 with a test
# build that lowers 192-token swapped plain tiles): the sequence halves of
# G4, G5, G6, G8, S1, S3 at M = 330, 680, 930 alone, every tile shape's
# best-ranked plan, --check'ed and timed side by side (ab.sh: ff-run
# medians of 20 batches of 10 launches); the data of the single-GEMM terms.
set -u
mkdir -p $OUT
RUN_TIMEOUT=30 BENCH=20 timeout 560 scripts/gpu/ab.sh /tmp/b .device/s56-a > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
grep -c "^== " $OUT/ab.log
