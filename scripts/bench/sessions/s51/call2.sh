#!/bin/bash
# Fifty-first session, call 2 (.device/s51-b): the nine exact-M sweep
# chains whose gated GEMM the search now swaps (compile-workloads.py
# --weight-layout nk --dynamic-sweep, dyn-<W>) against PyTorch's chains in
# CUDA graphs (bench.py: merged, and split gate/up); then ncu kernel times
# (--clock-control none, --cache-control none) of ours and of cuBLAS's
# merged gate|up GEMM (linear_once.py) at three of them.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
D=.device/s51-b
S=scripts/bench/sessions/s49
mkdir -p $OUT
timeout 300 python3 scripts/bench/bench.py --out $OUT/b --bundles $D --reps 100 \
  --only dyn-S1-m300,dyn-S4-m300,dyn-S1-m800,dyn-S2-m800,dyn-S3-m800,dyn-S4-m800,dyn-S5-m800,dyn-S7-m800,dyn-S8-m800 \
  --baselines graph,graph_split,ours_graph > $OUT/bench.log 2>&1; echo "bench rc=$?"
grep -E "skipped|rror|FAIL" $OUT/bench.log | head
rm -f $OUT/b/*.png
{
for w in S7-m800 S2-m800 S1-m300; do ncu_dur ours-$w -k regex:ff_ -c 2 $ffrun $D/dyn-$w; done
ncu_dur torch-S7-m800-gateup --profile-from-start off python3 $S/linear_once.py 800 19456 2560
ncu_dur torch-S2-m800-gateup --profile-from-start off python3 $S/linear_once.py 800 11264 2048
ncu_dur torch-S1-m300-gateup --profile-from-start off python3 $S/linear_once.py 300 16384 3072
} 2>&1 | tee $OUT/durations.txt
graph_table $OUT/b/results.csv
