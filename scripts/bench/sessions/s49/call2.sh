#!/bin/bash
# Forty-ninth session, call 2 (.device/s49-b): swapped operands (swap_ab:
# the weight as wgmma's M side, the M rows as its N side in tiles of any
# multiple of 8; cuBLAS's nvjet 256x152 kernels at M = 300 and 1500, call 1)
# set by hand on the sequence halves of G5 and G8 at M = 300 and 800
# against the searched plans (base), and a lone GEMM at M = 300. Every
# bundle --check'ed, timed in both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s49-b
mkdir -p $OUT
run() { variants $D "$@"; local w=$1 m=$2; shift 2; local rev=(); for v in "$@"; do rev=($v "${rev[@]}"); done; variants $D $w $m "${rev[@]}"; }
{
run GEMMm300 0 base swap
run G5m300 0 base up152 up152dn80 up152dn104
run G5m800 0 base up200 up200dn200 dn200
run G8m300 0 base up152
run G8m800 0 base up200
memcheck $D/GEMMm300-swap
memcheck $D/G5m300-up152dn80
} 2>&1 | tee $OUT/call2.txt
