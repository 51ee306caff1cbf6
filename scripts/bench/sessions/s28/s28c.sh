#!/bin/bash
# Twenty-eighth session, third call: the gated GEMMs of S1-S8 (M = 128)
# alone, the best-ranked plan of each tile shape (64 x 64, 64 x 128,
# 128 x 64, 128 x 128; .device/s28d: gatedgemm.py DIR), --check'ed and
# timed side by side: does the model's ranking of tiles hold?
set -u
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s28d > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error" $OUT/ab.log | head
tail -12 $OUT/ab.log
