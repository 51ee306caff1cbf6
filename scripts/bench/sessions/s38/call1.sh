#!/bin/bash
# Thirty-eighth session, call 1: the M = 256 variants of m256-variants.sh
# (.device/s38-m256): ff-run --check per call and medians (ab.sh), then
# each in bench.py's CUDA graphs, two rounds, the CUDA-graph chain beside
# each default in the first (s33/time-variants.sh; the warm-up runs the
# defaults through a directory of links named after the workloads).
set -u
mkdir -p /tmp/warm-b
ln -sfn $PWD/.device/s38-m256/G5-m256-def /tmp/warm-b/G5-m256
ln -sfn $PWD/.device/s38-m256/S3-m256-def /tmp/warm-b/S3-m256
bash scripts/bench/sessions/s33/time-variants.sh .device/s38-m256 /tmp/warm-b 'G5-m256$,S3-m256$' graph,ours_graph 2>&1
