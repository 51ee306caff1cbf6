#!/bin/bash
# Forty-second session, call 3: bench.py on S1-S8 and S3-m256 with the
# landed bundles (.device/s42-b: the -new bundles of call 2, i.e. the
# defaults at 2136413) against PyTorch's chains in CUDA graphs, merged
# and split, one process.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 480 python3 scripts/bench/bench.py --out /tmp/c3 --bundles .device/s42-b \
  --only 'S1,S2,S3,S4,S5,S6,S7,S8,S3-m256' --baselines graph,graph_split,ours_graph > /tmp/c3.log 2>&1 || tail -20 /tmp/c3.log
mkdir -p $OUT && cp /tmp/c3/results.csv /tmp/c3/README.md $OUT/ 2>/dev/null
grep "Ceilings" /tmp/c3/README.md
sed -n '/^| workload/,$p' /tmp/c3/README.md | cut -d'|' -f2,3,5,9,10,12,13
