#!/bin/bash
# Forty-first session, call 1: the fortieth session's prepared call 13
# (dynamic-M gated bins on 128 x 192 tiles, .device/s40-dyn, -new against
# -old), then bench.py on the S3 M sweep at HEAD 1e788a3's bundles
# (.device/s41-s: S3-m256's gated GEMM on 128 x 192 tiles) against the
# CUDA-graph chains, merged and split, in one process.
set -u
bash scripts/bench/sessions/s40/call13.sh
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 400 python3 scripts/bench/bench.py --out /tmp/c1 --bundles .device/s41-s \
  --only 'S3$,S3-m16,S3-m256,S3-m512,S3-m1024' \
  --baselines graph,graph_split,ours_graph > /tmp/c1.log 2>&1 || tail -20 /tmp/c1.log
mkdir -p $OUT && cp /tmp/c1/results.csv /tmp/c1/README.md $OUT/ 2>/dev/null
grep "Ceilings" /tmp/c1/README.md
sed -n '/^| workload/,$p' /tmp/c1/README.md | cut -d'|' -f2,3,5,9,10,12,13
