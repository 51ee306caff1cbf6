#!/bin/bash
# Twenty-eighth session, sixth call: the lone-warpgroup factor
# (KernelFit::gemmLoneWarpgroupFactor = 1.01) against the same search
# without it, on the sequences whose plans it changes (.device/s28f:
# compile-workloads.py DIR --weight-layout nk --only G4,...,G10,S1,...,S8
# --suffix=-new, and the same with --suffix=-old --search-options
# calibration=scripts/bench/sessions/s28/even.json, the factor at 1),
# --check'ed and timed side by side (interleaved).
set -u
ONLY='^(G5|G6|G8|S1|S2|S4|S6|S8)$' RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s28f > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error" $OUT/ab.log | head
tail -12 $OUT/ab.log
