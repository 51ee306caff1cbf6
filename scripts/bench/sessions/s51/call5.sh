#!/bin/bash
# Fifty-first session, call 5 (.device/s51-e: call 4's exact-M bundles of
# five chains that still trail PyTorch): ncu kernel times
# (--clock-control none, --cache-control none, one launch each) of our
# two kernels against the cuBLAS kernel(s) F.linear launches for each GEMM
# of PyTorch's chains (linear_once.py M N K; gate|up merged and alone).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-e
S=scripts/bench/sessions/s49
mkdir -p $OUT
lin() { ncu_dur torch-$1 --profile-from-start off python3 $S/linear_once.py $2 $3 $4; }
{
for w in S2-m300 S3-m300 S7-m300 G8-m300 G8-m1500; do ncu_dur ours-$w -k regex:ff_ -c 2 $ffrun $D/dyn-$w; done
lin S2-m300-gateup 300 11264 2048; lin S2-m300-gate 300 5632 2048; lin S2-m300-down 300 2048 5632
lin S3-m300-gateup 300 22016 4096; lin S3-m300-gate 300 11008 4096; lin S3-m300-down 300 4096 11008
lin S7-m300-gateup 300 19456 2560; lin S7-m300-gate 300 9728 2560; lin S7-m300-down 300 2560 9728
lin G8-m300-up 300 8192 2048; lin G8-m300-down 300 2048 8192
lin G8-m1500-up 1500 8192 2048; lin G8-m1500-down 1500 2048 8192
} 2>&1 | tee $OUT/durations.txt
