#!/bin/bash
# Sixty-ninth session, call 1: would G1 run faster as a streamed-n kernel
# whose CTAs each compute a slice of E's columns (recomputing C)? Proxies:
# the streamed kernel of an FFN with G1's M, N, K and L = 64 or 128 is what
# one CTA of such a plan over L = 256 does (.device/s69-g1, handset.py),
# timed beside G1's searched plan (base: clusters of 8, reduce-scatter) and
# its streamed plan over all of L (st256). widths_table: each checked and
# timed as CUDA-graph replays, then timed again in reverse order.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
widths_table .device/s69-g1 | tee $OUT/g1.md
