#!/bin/bash
# Fortieth session, call 4: bench.py's new clock columns on the GPU (S3 at
# M = 256 and 512, S8; .device/s39-s), and ff-run --sustain: S3-m256 short,
# after 3 s of sustained launches, short again.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
B=.device/s39-s/S3-m256
$ffrun $B --bench 20 | grep bench:
$ffrun $B --bench 20 --sustain 3000 | grep -E "sustain:|bench:"
$ffrun $B --bench 20 | grep bench:
timeout 400 python3 scripts/bench/bench.py --out /tmp/c4 --bundles .device/s39-s \
  --only 'S3-m256,S3-m512,S8' --baselines eager,graph,graph_split,ours,ours_graph \
  > /tmp/c4.log 2>&1 || tail -20 /tmp/c4.log
head -3 /tmp/c4.log
mkdir -p $OUT && cp /tmp/c4/results.csv $OUT/ 2>/dev/null
sed -n '/^| workload/,$p' /tmp/c4/README.md | cut -d'|' -f2,3,5,9,11,12
