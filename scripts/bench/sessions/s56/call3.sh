#!/bin/bash
# Fifty-sixth session, call 3 (.device/s56-d: halves.py DIR 16 2 large with
# the candidate (gemmTflops = 6.0, 192-token swapped tiles) and with HEAD,
# shapes missing from the first added): the GEMMs whose tables moved at
# M = 300-6000 in call 2, every tile shape's best-ranked plan, timed side by side (ab.sh: ff-run
# medians of 20 batches of 10 launches); the data of the single-GEMM terms.
set -u
mkdir -p $OUT
RUN_TIMEOUT=30 BENCH=20 timeout 560 scripts/gpu/ab.sh /tmp/b .device/s56-d > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
grep -c "^== " $OUT/ab.log
