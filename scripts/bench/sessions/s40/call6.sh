#!/bin/bash
# Fortieth session, call 6: bench.py with the power columns and the
# sustained matmul peak on S1-S8 and S3 at M = 16, 256, 512 (.device/s39-s:
# the thirty-ninth session's bundles), then targets.py over its results.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 560 python3 scripts/bench/bench.py --out /tmp/c6 --bundles .device/s39-s \
  --only 'S1,S2,S3$,S4,S5,S6,S7,S8,S3-m16,S3-m256,S3-m512' \
  --baselines eager,graph,graph_split,ours,ours_graph > /tmp/c6.log 2>&1 || tail -20 /tmp/c6.log
mkdir -p $OUT && cp /tmp/c6/results.csv /tmp/c6/README.md $OUT/ 2>/dev/null
python3 scripts/bench/targets.py /tmp/c6/results.csv | grep -E "roofline|S1-S8 \||^\| S3"
grep "Ceilings" /tmp/c6/README.md
sed -n '/^| workload/,$p' /tmp/c6/README.md | grep -E "graph" | cut -d'|' -f2,3,5,9,10,12,13
