#!/bin/bash
# Forty-third session, call 5: the plans of the h200 target with the
# single-GEMM constants refitted on H200 sweeps (h200-gemm-fit.json, a
# calibration file: `-cal`) against the default h100-sxm plans (`-base`),
# on the workloads whose plans differ (.device/s43-cal). ff-run --check of
# both, then --bench 20 --graph in two rounds (base first, then cal first).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-cal
W="G4 G5 G6 G7 G9 S2 S3 S5 S6 S8 C7-b1 C4-b32 G5-m16 G5-m64 S3-m16 S3-m64"
for w in $W; do variants $D $w 0 base cal; done > /tmp/r1
for w in $W; do variants $D $w 0 cal base; done > /tmp/r2
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| chain | check base/cal | base us (r1, r2) | cal us (r1, r2) | base/cal |"; echo "|---|---|---|---|---|"
paste -d' ' /tmp/r1 /tmp/r2 | while read w m cb cc b1 c1 w2 m2 cc2 cb2 c2 b2; do
  echo "| $w | $cb/$cc | $b1 $b2 | $c1 $c2 | $(python3 -c "print(f'{($b1+$b2)/($c1+$c2):.3f}')" 2>/dev/null) |"
done
