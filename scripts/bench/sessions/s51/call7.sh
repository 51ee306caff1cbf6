#!/bin/bash
# Fifty-first session, call 7 (.device/s51-g): the swapped gated GEMM's
# epilogue with paired 4-byte stores (cvt.rn.bf16x2.f32, lane ^ 4 shuffle;
# -pair) against the landed element stores (-elt: call 4's exact-M
# bundles), six chains whose gated GEMM the search swaps, both orders;
# memcheck on one.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-g
mkdir -p $OUT
memcheck $D/S7-m800-pair 2>&1 | tee $OUT/memcheck.txt
for w in S1-m300 S4-m300 S2-m800 S5-m800 S7-m800 S8-m800; do ab_line $D elt pair $w 0; done 2>&1 | tee $OUT/ab.txt
echo "| chain | variant | check | elt us | pair us | elt us | pair us | elt / pair |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
