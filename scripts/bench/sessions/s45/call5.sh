#!/bin/bash
# Forty-fifth session, call 5: epilogues skip the rows they do not store
# (tiles that may hold rows past M). `-old`: the snake-rounds commit
# (233d904); `-new`: with the change (.device/s45-epi). Dynamic S chains
# where the last m tile is partial and at full tiles (384), decode-sized
# M (16, 64, 100), small G chains, a dynamic GEMM, static G5 at M = 16
# and 64 and conv chains whose 1x1 GEMMs have partial tiles. Each line:
# the new bundle's check, then old, new, old, new (ff-run --bench 20
# --graph); memcheck on S7's new bundle at 257. Kept in $OUT/call5.txt.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s45-epi
{
for r in "S7 257" "S7 384" "S7 448" "S3 257" "S3 448" "S5 257" "S5 448" "S2 257" \
         "S2 448" "S1 300" "S4 300" "S6 1500" "S1 16" "S4 100" "S8 100" "S8 16" \
         "S3 1000" "G3 300" "G4 200" "G6 16" "G10 100" "GEMM-4096 100" \
         "G5-m16 0" "G5-m64 0" "C3-b1 0" "C4-b1 0" "C4-b32 0" "C8-b1 0" "C8-b32 0"; do ab_line $D old new $r; done
echo "memcheck S7-new M=257: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/S7-new --m 257 --check 2>&1 | grep -E "ERROR SUMMARY|status=" | sed 's/.*status=/status=/' | tr '\n' ' ')"
} 2>&1 | tee $OUT/call5.txt
