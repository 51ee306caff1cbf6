#!/bin/bash
# Thirty-eighth session, call 8: the S3-m16 variants of m16-variants.sh
# (.device/s38-m16): ff-run --check per call and medians (ab.sh), then each
# in bench.py's CUDA graphs, two rounds, the CUDA-graph chain beside the
# default in the first (s33/time-variants.sh).
set -u
mkdir -p /tmp/warm-b
ln -sfn $PWD/.device/s38-m16/S3-m16-def /tmp/warm-b/S3-m16
bash scripts/bench/sessions/s33/time-variants.sh .device/s38-m16 /tmp/warm-b 'S3-m16$' graph,ours_graph 2>&1
