#!/bin/bash
# Fifty-ninth session, call 5: the multicast probe timed with the
# consumers releasing the peers' stages one peer after another from one
# thread (par = one, as our kernels do) or from C lanes at once (par, as
# CUTLASS's consumer release does).
set -u
mkdir -p $OUT
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
  scripts/gpu/multicast_probe.cu -o /tmp/mcp -lcuda || exit 1
timeout 60 /tmp/mcp | tee $OUT/probe.txt
