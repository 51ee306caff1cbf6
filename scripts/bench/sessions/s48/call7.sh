#!/bin/bash
# Forty-eighth session, call 7 (.device/s48-esk): consumer warpgroups whose
# 64 rows lie wholly past M skip their wgmmas after the first k step
# (new) against the landed kernels (old): the six static default bundles
# it changes (M = 1568, 16, 64) and dynamic tables at M = 300, 800, 1050,
# 2100 (the last m tile holds 26-52 rows: its second warpgroup is empty),
# --check'ed, both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s48-esk
mkdir -p $OUT
{
for w in C4-b32 C8-b32 G5-m16 G5-m64 S3-m16 S3-m64; do ab_line $D old new $w 0; done
for w in G5d G8d S1d S3d S5d S7d G4d; do for m in 300 800 1050 2100; do ab_line $D old new $w $m; done; done
memcheck $D/C4-b32-new
memcheck $D/S7d-new 300
} 2>&1 | tee $OUT/call7.txt
