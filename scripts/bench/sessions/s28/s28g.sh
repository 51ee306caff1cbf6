#!/bin/bash
# Twenty-eighth session, seventh call: sets G and S as the compiler now
# builds them (kernel sequences for G4-G10 and S1-S8, the lone-warpgroup
# factor) against PyTorch eager and the CUDA-graph chain, per call and in
# graphs (.device/s28g: compile-workloads.py DIR --weight-layout nk --only
# G1,...,G10,S1,...,S8). torch.compile is left out for time.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/gs --bundles .device/s28g --reps 100 --only 'G1,G2,G3,G4,G5$,G6,G7,G8,G9,G10,S1,S2,S3$,S4,S5,S6,S7,S8' --baselines eager,graph,ours,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/gs/*.png
cut -d, -f1,2,3,6 $OUT/gs/results.csv
