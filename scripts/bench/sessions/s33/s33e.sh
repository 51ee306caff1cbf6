#!/bin/bash
# Thirty-third session: the session's default bundles (.device/s33e:
# compile-workloads.py DIR --weight-layout nk --only C1-b1,...,S8 at the
# commit with programmatic entry on; byte-identical to .device/s33d) in the
# benchmark's standard rows: set C (eager, cuDNN's chain in a CUDA graph,
# ours per call and in a graph) and sets G and S (eager, the CUDA-graph
# chain, ours per call and in a graph), rel err against the fp32 reference
# in the same run. BUNDLES=DIR runs another set of bundles the same way
# (the thirty-fourth session's s34e.sh).
set -u
B=${BUNDLES:-.device/s33e}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles $B --reps 20 --only 'C1-b1,C2-b1' --baselines eager,ours > /dev/null 2>&1
timeout 240 python3 scripts/bench/bench.py --out $OUT/c --bundles $B --reps 100 --only C --baselines eager,graph,ours,ours_graph > /tmp/bench-c.log 2>&1
echo "bench C rc=$?"
timeout 300 python3 scripts/bench/bench.py --out $OUT/gs --bundles $B --reps 100 --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$,S1,S2,S3$,S4,S5,S6,S7,S8' --baselines eager,graph,ours,ours_graph > /tmp/bench-gs.log 2>&1
echo "bench GS rc=$?"
rm -f $OUT/*/*.png
python3 scripts/bench/ratios.py $OUT/c/results.csv C
python3 scripts/bench/ratios.py $OUT/gs/results.csv G
python3 scripts/bench/ratios.py $OUT/gs/results.csv S
grep -h "launch floor" $OUT/*/README.md
