#!/bin/bash
# Sixty-seventh session, call 2: the roofline chains' down GEMM split over
# k groups of 4 or 8 on n tiles sized to the H200's cluster slots (30
# clusters of 4, 15 of 8; a partial last n tile), from .device/s67-fit
# (fit_variants.py .device/s67-fit G8 G5 S1 ... S8): each W-cCnN checked
# and timed against W-base as CUDA-graph replays in both orders
# (ab_both); memcheck of the partial-tile kernels of G8.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
. scripts/bench/session-lib.sh
D=.device/s67-fit
for d in $(ls -d $D/*-c* | sort); do
  n=$(basename $d); w=${n%%-*}; v=${n#*-}
  ab_both $D base $v $w 0
done > $OUT/ab.txt
memcheck $D/G8-c4n96
memcheck $D/G8-c8n192
ab_table $OUT/ab.txt | tee $OUT/ab.md
