#!/bin/bash
# Twenty-ninth session, final table: s29p.sh's bench alone, again (in
# s29p's run the first workload, G1, ran with the host and GPU disturbed:
# eager 207 us per call against 69 in every other run, ours in a graph
# 8.22 us for the same cubin that ran 7.31 in s29j).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/gs --bundles .device/s29p --reps 100 --only 'G1,G2,G3,G4,G5$,G6,G7,G8$,G9,G10,S1$,S2,S3$,S4,S5,S6,S7,S8' --baselines eager,graph,ours,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/gs/*.png
python3 scripts/bench/ratios.py $OUT/gs/results.csv
