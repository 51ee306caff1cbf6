#!/bin/bash
# Sixty-seventh session, call 4: the GPU-bound small G chains (G4, G6, G9
# at M = 128, whose per-call time exceeds the launch path's) with either
# half of their kernel sequence on the search's next-priced shapes:
# .device/s67-g/hH (half_variants.py .device/s67-g/hH H 4 G4 G6 G9; H = 0
# the up GEMM, 1 the down GEMM), each W-vI checked and timed against
# W-base as CUDA-graph replays in both orders (ab_both).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
. scripts/bench/session-lib.sh
for h in 0 1; do
  D=.device/s67-g/h$h
  for d in $(ls -d $D/*-v* | sort); do
    n=$(basename $d); w=${n%-*}; v=${n##*-}
    ab_both $D base $v $w 0
  done > $OUT/ab-h$h.txt
  echo "half $h"; ab_table $OUT/ab-h$h.txt | tee $OUT/ab-h$h.md
done
