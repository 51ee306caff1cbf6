#!/bin/bash
# Forty-third session, call 4: the down GEMMs of S1-S8, G5 and G8 at
# M = 128 alone (.device/s43-dn: downs.py DIR 16), the best-ranked plan of
# every tile shape and cluster among the search's first 16, --check'ed and
# timed as CUDA-graph replays (ab.sh: ff-run medians of 20 batches of 10
# launches); the model's choice against the fastest.
set -u
GRAPH=1 RUN_TIMEOUT=30 BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s43-dn > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
tail -14 $OUT/ab.log
