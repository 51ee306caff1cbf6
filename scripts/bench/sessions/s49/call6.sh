#!/bin/bash
# Forty-ninth session, call 6 (.device/s49-f): a lone GEMM (M = 300, N =
# 16384, K = 4096, K-major weight; --dsm-fuse=fuse-single-gemms=true) as
# the search now plans it (new: swapped, 152-row tiles) against without
# swapping (old): --check, both orders, memcheck (call 2's lone-GEMM bundle
# predated the manifest's fix for swapped single GEMMs).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s49-f
mkdir -p $OUT
{ ab_line $D old new GEMMm300 0; memcheck $D/GEMMm300-new; } 2>&1 | tee $OUT/call6.txt
