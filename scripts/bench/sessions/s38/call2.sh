#!/bin/bash
# Thirty-eighth session, call 2: the sequence halves of G5, G8, S1, S3 at
# M = 256, 512, 1024 alone (.device/s38-halves: halves.py DIR 16), every
# tile shape's best-ranked plan and the hand-set B-multicast variants,
# --check'ed and timed side by side (ab.sh: ff-run medians of 20 batches
# of 10 launches); the data of the single-GEMM model's L2 term.
set -u
RUN_TIMEOUT=30 BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s38-halves > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
tail -28 $OUT/ab.log
