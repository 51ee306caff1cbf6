#!/bin/bash
# Sixty-eighth session, call 3: G1-G10's standard rows (eager, the
# CUDA-graph chain, ours per call and in a graph; bench.py, 100 reps) of
# .device/s68-std with this session's runtime (DLPack reads, driver device
# check, KernelCall), the targets, then dlpack_ab.py again on three chains
# with each round's per-call figure printed.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s68-std --reps 20 --only 'G1$,G2$' --baselines eager,ours > /dev/null 2>&1
timeout 300 python3 scripts/bench/bench.py --out $OUT/g --bundles .device/s68-std --reps 100 \
  --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$' --baselines eager,graph,ours,ours_graph > $OUT/bench-g.log 2>&1
echo "bench G rc=$?"
rm -f $OUT/*/*.png
python3 scripts/bench/ratios.py $OUT/g/results.csv G
grep -h "launch floor" $OUT/g/README.md
timeout 150 python3 scripts/bench/sessions/s68/dlpack_ab.py .device/s68-std/{G7,G10,G1} 2>&1 | tee $OUT/dlpack-ab.md
