#!/bin/bash
# Forty-sixth session, call 6: the standard rows of call 3 with the
# landing commit's defaults (.device/s46-std2: the same command at the
# commit with deep split-K rings; S2, S4, S5, S7 and G8 change), then the
# G5 and S3 M sweep in CUDA graphs against both PyTorch chains with ours
# and `fallback="auto"`, and the issue's targets from all of it.
set -u
export BUNDLES=.device/s46-std2
bash scripts/bench/sessions/s33/s33e.sh
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 240 python3 scripts/bench/bench.py --out $OUT/sweep --bundles $BUNDLES \
  --only 'G5-m,S3-m' --baselines graph,graph_split,ours_graph,ours_auto_graph > /tmp/sweep.log 2>&1 || tail -5 /tmp/sweep.log
rm -f $OUT/*/*.png
python3 scripts/bench/targets.py $OUT/c/results.csv $OUT/gs/results.csv $OUT/sweep/results.csv 2>&1 | tail -32
