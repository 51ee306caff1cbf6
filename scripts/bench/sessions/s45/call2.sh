#!/bin/bash
# Forty-fifth session, call 2: snake rounds by default (only where the last
# of several m tiles may be partial), old (`-old`, HEAD 5ab41b8) against
# new (`-new`) on every bundle whose PTX the change moves: five static conv
# chains (1x1 GEMMs over H*W rows) and dynamic G, S and single-GEMM bins at
# M inside changed bins (.device/s45-snake). Each line: the new bundle's
# check, then old, new, old, new (ff-run --bench 20 --graph), printed as it
# goes and kept in $OUT/call2.txt. call3.sh runs this with its own D,
# EXTRA lines (W:M tokens) and NAME.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=${D:-.device/s45-snake}
{
for w in C3-b1 C4-b32 C6-b1 C7-b1 C8-b32; do ab_line $D old new $w 0; done
for r in "G5 200" "G5 300" "G5 1000" "G7 300" "G7 1500" "G4 100" "G4 700" \
         "G10 100" "G10 3000" "G3 300" "G9 100" "G9 700" "G6 100" "G2 700" \
         "S8 100" "S8 300" "S6 1500" "S1 300" "S4 300" ${EXTRA:-} \
         "GEMM-4096 100" "GEMM-4096 300" "GEMM-4096 700" "GEMM-4096 3000" \
         "GEMM-8192 300" "GEMM-8192 3000"; do ab_line $D old new ${r/:/ }; done
} 2>&1 | tee $OUT/${NAME:-call2}.txt
