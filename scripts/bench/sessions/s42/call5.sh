#!/bin/bash
# Forty-second session, call 5: bench.py on G5 and S3 at M = 16 and 64 with the
# landed bundles (.device/s42-b5: compile-workloads.py at the landing
# commit; G5-m16 and -m64 as before it) against PyTorch's chains in CUDA graphs, merged
# and split, one process.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 300 python3 scripts/bench/bench.py --out /tmp/c5 --bundles .device/s42-b5 \
  --only 'G5-m16,G5-m64,S3-m16,S3-m64' --baselines graph,graph_split,ours_graph > /tmp/c5.log 2>&1 || tail -20 /tmp/c5.log
mkdir -p $OUT && cp /tmp/c5/results.csv /tmp/c5/README.md $OUT/ 2>/dev/null
grep "Ceilings" /tmp/c5/README.md
sed -n '/^| workload/,$p' /tmp/c5/README.md | cut -d'|' -f2,3,5,9,10,12,13
