#!/bin/bash
# Fifty-seventh session, call 4 (.device/s57-d: gated.py DIR 16 with a test
# build that ranks swapped plans at any M): S6's gated GEMM at M = 440 and
# 700, its down GEMM at 440, S7's gated GEMM at 905 and 930, every tile
# shape's best-ranked plan alone, --check'ed and timed side by side (ab.sh:
# ff-run medians of 20 batches of 10 launches).
set -u
mkdir -p $OUT
RUN_TIMEOUT=30 BENCH=20 timeout 400 scripts/gpu/ab.sh /tmp/b .device/s57-d > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
sed -n '/^| workload/,$p' $OUT/ab.log
