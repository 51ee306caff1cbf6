#!/bin/bash
# Forty-fifth session, call 3: snake rounds as landed (no division: the
# loop carries the round's parity; only kernels whose raster runs m tiles
# fastest, flipping only while one raster group holds every m tile), old
# (`-old`, HEAD 5ab41b8) against new (`-new`) on every bundle whose PTX
# the change moves (.device/s45-snake3): call 2's lines, and S2, S3, S5,
# S7 at M = 257, 384 (full tiles) and 448. Each line: the new bundle's
# check, then old, new, old, new (ff-run --bench 20 --graph), printed as it
# goes and kept in $OUT/call3.txt.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s45-snake3
line() { echo "$1 $2 check-new $(c $D/$1-new $2) old $(t $D/$1-old $2) new $(t $D/$1-new $2) old $(t $D/$1-old $2) new $(t $D/$1-new $2)"; }
{
for w in C3-b1 C4-b32 C6-b1 C7-b1 C8-b32; do line $w 0; done
for r in "G5 200" "G5 300" "G5 1000" "G7 300" "G7 1500" "G4 100" "G4 700" \
         "G10 100" "G10 3000" "G3 300" "G9 100" "G9 700" "G6 100" "G2 700" \
         "S8 100" "S8 300" "S6 1500" "S1 300" "S4 300" \
         "S7 257" "S7 384" "S7 448" "S3 257" "S3 448" "S5 257" "S5 448" "S2 257" "S2 448" \
         "GEMM-4096 100" "GEMM-4096 300" "GEMM-4096 700" "GEMM-4096 3000" \
         "GEMM-8192 300" "GEMM-8192 3000"; do line $r; done
} 2>&1 | tee $OUT/call3.txt
