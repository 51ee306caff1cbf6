#!/bin/bash
# Fortieth session, call 7: the model-fidelity sweep on an H200 with
# the current kernels and model: the search's 11 best plans (and up to 3 of
# other shapes) of G3, G4, G5, S3, C3-b1, C4-b1 (.device/s40-fid), each
# checked and timed by ab.sh (ff-run --check --bench 20); the log goes to
# $OUT for fidelity.py.
set -u
mkdir -p $OUT
BENCH=20 RUN_TIMEOUT=60 scripts/gpu/ab.sh /tmp/b .device/s40-fid > $OUT/ab.log 2>&1
echo "rc=$?"; grep -c "RESULT" $OUT/ab.log; grep -ciE "FAIL" $OUT/ab.log; tail -4 $OUT/ab.log
