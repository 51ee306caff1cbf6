#!/bin/bash
# Forty-eighth session, call 1 (.device/s48-a): (a) S7's dynamic table
# with the bin 513-1024 on 128 x 160 (new: the mean-time rule) against
# the forty-seventh session's (old: split over 4 along k) across the bin
# and past it (1100, 1536: the same kernels in both); (b) C4-b32's second
# GEMM (1568 x 512 x 2048) on 25 x 5 tiles of 64 x 104 or 64 x 112 (125
# CTAs) set by hand, against the search's 25 x 4 of 64 x 128 (100 CTAs).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s48-a
mkdir -p $OUT
{
for m in 513 600 800 1024 1100 1536; do ab_line $D old new S7d $m; done
variants $D C4-b32 0 old w104 w112
variants $D C4-b32 0 w112 w104 old
variants $D C4-b32 0 old w104 w112
variants $D C4-b32 0 w112 w104 old
memcheck $D/C4-b32-w104
memcheck $D/S7d-new 600
} 2>&1 | tee $OUT/call1.txt
