#!/bin/bash
# Sixty-third session, call 3 (.device/s63-std, as call 2): the single
# GEMMs at 4096^3 and 8192^3 against cuBLAS, the G5 and S3 M sweep in CUDA
# graphs against both PyTorch chains (ours and `fallback="auto"`), and G1-G10
# per call against eager and torch.compile (default mode); the issue's
# targets from these and call 2's rows (CALL2=DIR of call 2's output).
set -u
B=.device/s63-std
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 120 python3 scripts/bench/bench.py --out $OUT/gemm --bundles $B --reps 100 \
  --only 'GEMM' --baselines eager,graph,ours,ours_graph > /tmp/gemm.log 2>&1; echo "bench GEMM rc=$?"
timeout 200 python3 scripts/bench/bench.py --out $OUT/sweep --bundles $B --reps 100 \
  --only 'G5-m,S3-m' --baselines graph,graph_split,ours_graph,ours_auto_graph > /tmp/sweep.log 2>&1; echo "bench sweep rc=$?"
timeout 240 python3 scripts/bench/bench.py --out $OUT/gc --bundles $B --reps 100 \
  --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$' --baselines eager,compile,ours > /tmp/gc.log 2>&1; echo "bench G compile rc=$?"
rm -f $OUT/*/*.png
python3 scripts/bench/ratios.py $OUT/gc/results.csv G 2>&1 | tail -3
sed -n '/^| workload/,$p' $OUT/gemm/README.md | cut -d'|' -f2,3,5,9,10
python3 scripts/bench/targets.py ${CALL2:-.device/2}/c/results.csv ${CALL2:-.device/2}/gs/results.csv \
  $OUT/gemm/results.csv $OUT/sweep/results.csv $OUT/gc/results.csv 2>&1 | tail -34
