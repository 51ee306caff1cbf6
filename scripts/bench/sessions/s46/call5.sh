#!/bin/bash
# Forty-sixth session, call 5: split-K rings of up to 8 stages for 128 x 128
# tiles (the first form of the change: any M) against HEAD's 4
# (.device/s46-deep: W-old HEAD's bundles, W-new the change's; static
# ones at their own M, dynamic ones (Wd) at the M of each changed bin).
# Lines as session-lib's ab_line, printed as measured.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s46-deep
mkdir -p $OUT
{
for w in S2d S4d S5d G8d; do for m in 16 64 100; do ab_line $D old new $w $m; done; done
ab_line $D old new S7d 100
for w in G4d G5d G6d G8d G9d S1d S2d S3d S4d S5d S6d S7d S8d; do ab_line $D old new $w 200; done
for w in G4d G8d G9d S2d S4d S5d S6d S7d; do ab_line $D old new $w 384; done
for w in G10d G4d G6d S1d S4d S8d; do ab_line $D old new $w 768; done
for w in G9d S6d S7d; do ab_line $D old new $w 1536; done
for w in G4d S4d S7d; do ab_line $D old new $w 3000; done
for w in G5-m256 S3-m256 GEMM-4096-m256 T4-k512-m512 T4-k768-m512 T4-k512-m2048 T3-k256-n2048-m4096 T4-k768-m4096; do ab_line $D old new $w 0; done
} 2>&1 | tee $OUT/call5.txt
