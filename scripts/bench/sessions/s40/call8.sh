#!/bin/bash
# Fortieth session, call 8: call 7's fidelity sweep (.device/s40-fid) timed
# with GRAPH=1 (ff-run --graph: each batch of 10 launches is one CUDA graph
# replay, so the host's launch path is out of the timing of these
# microsecond kernels); the log goes to $OUT for fidelity.py.
set -u
mkdir -p $OUT
GRAPH=1 BENCH=20 RUN_TIMEOUT=60 scripts/gpu/ab.sh /tmp/b .device/s40-fid > $OUT/ab.log 2>&1
echo "rc=$?"; grep -c "RESULT" $OUT/ab.log; grep -ciE "FAIL" $OUT/ab.log; tail -4 $OUT/ab.log
# One bundle by hand: both timings back to back.
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
for b in G3-r0 G3-r2 C3-b1-r0 C3-b1-r1; do
  echo "$b $($ffrun .device/s40-fid/$b --bench 50 | grep -o 'median [0-9.]*') graph $($ffrun .device/s40-fid/$b --bench 50 --graph | grep -o 'median [0-9.]*')"
done
