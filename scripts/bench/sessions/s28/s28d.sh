#!/bin/bash
# Twenty-eighth session, fourth call: the down GEMMs of S1-S8's sequences
# (c wd at M = 128) alone, the best-ranked plan of each tile shape and
# cluster among the search's first 16 (.device/s28d: gatedgemm.py DIR),
# --check'ed and timed side by side.
set -u
ONLY=DN RUN_TIMEOUT=60 BENCH=30 REPEAT=2 scripts/gpu/ab.sh /tmp/b .device/s28d > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error" $OUT/ab.log | head
tail -12 $OUT/ab.log
