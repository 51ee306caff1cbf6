#!/bin/bash
# Forty-seventh session, call 3 (.device/s47-c): every other kernel the
# generalized wave widths change (plain GEMMs on K-major weights, 64 to 256
# columns, one or two waves): the T4 anchors it changes (static) and the
# dynamic tables of G4, G7, G10, S1, S6 at M in the changed bins. W-old:
# HEAD's bundles, W-new: the change's. Lines as session-lib's ab_line.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s47-c
mkdir -p $OUT
{
for w in T4-k384-m2048 T4-k384-m4096 T4-k768-m2048 T4-k768-m4096 T4-k768-m512; do ab_line $D old new $w 0; done
for m in 600 1024 1500 2048 3000 4096 6000 8192; do ab_line $D old new G10d $m; done
for m in 300 512 600 1024 1500 2048 3000 4096; do ab_line $D old new G4d $m; done
for m in 1500 2048 3000 4096; do ab_line $D old new G7d $m; done
for m in 300 512 600 1024; do ab_line $D old new S1d $m; done
for m in 600 1024 1500 2048; do ab_line $D old new S6d $m; done
echo "memcheck G4d-new 600: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/G4d-new --m 600 --check 2>&1 | grep -E "ERROR SUMMARY|FAIL" | tr '\n' ' ')"
} 2>&1 | tee $OUT/call3.txt
