#!/bin/bash
# Twenty-seventh session, seventh call: set G as the compiler now builds
# it (kernel sequences where --dsm-search records them: G4-G10) against
# PyTorch eager and the CUDA-graph chain, per call and in graphs
# (.device/s27q: compile-workloads.py DIR --weight-layout nk --only
# G1,...,G10). torch.compile is left out for time (s21-s26 have it).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/g --bundles .device/s27q --reps 100 --only 'G1,G2,G3,G4,G5$,G6,G7,G8,G9,G10' --baselines eager,graph,ours,ours_graph,ours_auto_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/g/*.png
cut -d, -f1,7,8,9,12,13,14 $OUT/g/results.csv
