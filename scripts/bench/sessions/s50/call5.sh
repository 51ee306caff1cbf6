#!/bin/bash
# Fiftieth session, call 5 (.device/s50-d, call 4's bundles): where the
# exact-M chains that still trail PyTorch's CUDA-graph chains lose, kernel
# by kernel: ncu's gpu__time_duration (--clock-control none, --cache-control
# none, one launch each after warm-up) of our two kernels of dyn-G5-m300,
# dyn-G5-m800 and dyn-S7-m800 against the cuBLAS GEMM of each PyTorch
# chain step (linear_once.py: F.linear's kernel(s) of that shape).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-d
S=scripts/bench/sessions/s49
mkdir -p $OUT
{
for w in G5-m300 G5-m800 S7-m800; do
  ncu_dur ours-$w -k regex:ff_ -c 2 $ffrun $D/dyn-$w
done
ncu_dur torch-G5-m300-up --profile-from-start off python3 $S/linear_once.py 300 16384 4096
ncu_dur torch-G5-m300-down --profile-from-start off python3 $S/linear_once.py 300 4096 16384
ncu_dur torch-G5-m800-up --profile-from-start off python3 $S/linear_once.py 800 16384 4096
ncu_dur torch-G5-m800-down --profile-from-start off python3 $S/linear_once.py 800 4096 16384
ncu_dur torch-S7-m800-gate --profile-from-start off python3 $S/linear_once.py 800 9728 2560
ncu_dur torch-S7-m800-gateup --profile-from-start off python3 $S/linear_once.py 800 19456 2560
ncu_dur torch-S7-m800-down --profile-from-start off python3 $S/linear_once.py 800 2560 9728
} 2>&1 | tee $OUT/durations.txt
