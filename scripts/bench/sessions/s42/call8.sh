#!/bin/bash
# Forty-second session, call 8: the fidelity protocol on S2, S3
# and S6 (the search's 11 best plans and 3 of other shapes each,
# .device/s42-fid) after wave widths entered their gate|up GEMMs' space,
# timed as CUDA graph replays (GRAPH=1, as in the fortieth session's call
# 8); the log goes to $OUT for fidelity.py.
set -u
mkdir -p $OUT
GRAPH=1 BENCH=20 RUN_TIMEOUT=60 scripts/gpu/ab.sh /tmp/b .device/s42-fid > $OUT/ab.log 2>&1
echo "rc=$?"; grep -c "RESULT" $OUT/ab.log; grep -ciE "FAIL" $OUT/ab.log; tail -4 $OUT/ab.log
