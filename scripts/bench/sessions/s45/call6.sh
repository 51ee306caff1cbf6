#!/bin/bash
# Forty-fifth session, call 6: approx-div (epilogues' f32 divisions, silu's
# g / (1 + e^-g), as div.approx.f32) against div.rn.f32. `-old`: HEAD
# b70059b's default bundles; `-new`: the same with --lower-to-nvvm
# approx-div=true (.device/s45-ax): static S1-S8 at M = 128 and the
# dynamic S3, S7, S8 (`Wd`) at M = 16, 257, 384 and 1000. Lines as
# session-lib's ab_line, kept in $OUT/call6.txt.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s45-ax
{
for w in S1 S2 S3 S4 S5 S6 S7 S8; do ab_line $D old new $w 0; done
for w in S7d S3d S8d; do for m in 16 257 384 1000; do ab_line $D old new $w $m; done; done
} 2>&1 | tee $OUT/call6.txt
