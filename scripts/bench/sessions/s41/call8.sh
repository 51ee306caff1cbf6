#!/bin/bash
# Forty-first session, call 8: bench.py on S3 at M = 16 and 64 with the
# landed bundles (.device/s41-b8: b8e2c4d's, A's slots sized and zeroed)
# against PyTorch's chains in CUDA graphs, merged and split, one process.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 170 python3 scripts/bench/bench.py --out /tmp/c8 --bundles .device/s41-b8 \
  --only 'S3-m16,S3-m64' --baselines graph,graph_split,ours_graph > /tmp/c8.log 2>&1 || tail -20 /tmp/c8.log
mkdir -p $OUT && cp /tmp/c8/results.csv /tmp/c8/README.md $OUT/ 2>/dev/null
grep "Ceilings" /tmp/c8/README.md
sed -n '/^| workload/,$p' /tmp/c8/README.md | cut -d'|' -f2,3,5,9,10,12,13
