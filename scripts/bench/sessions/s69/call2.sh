#!/bin/bash
# Sixty-ninth session, call 2: the small G chains' down GEMMs on split-K
# shapes and ring depths the search does not offer (.device/s69-st,
# stage_variants.py: G4 and G9 on 64 x 64 tiles over 4 with 4-8 stages
# and on their chosen shape deeper; G6, G7, G10 likewise), each W-V
# checked and timed against W-base as CUDA-graph replays in both orders
# (ab_both).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s69-st
for d in $(ls -d $D/*-k* | sort); do
  n=$(basename $d); w=${n%-*}; v=${n##*-}
  ab_both $D base $v $w 0
done > $OUT/ab.txt
ab_table $OUT/ab.txt | tee $OUT/ab.md
