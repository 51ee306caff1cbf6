#!/bin/bash
# Forty-second session, call 5: bench.py on G5 and S3 at M = 16 and 64 with the
# landed bundles (.device/s42-b5: compile-workloads.py at the landing
# commit; G5-m16 and -m64 as before it) against PyTorch's chains in CUDA graphs, merged
# and split, one process.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
bench_graphs .device/s42-b5 'G5-m16,G5-m64,S3-m16,S3-m64' 300
