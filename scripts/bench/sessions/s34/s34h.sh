#!/bin/bash
# Thirty-fourth session: compute-sanitizer on default bundles whose weight
# loads now carry an L2 evict-first policy (.device/s34e; the NVVM TMA load
# in place of nvgpu's): memcheck and synccheck of ff-run --check followed
# by timed launches back to back (--bench 3), S1 and S5 (each a
# gated GEMM and a split-K down GEMM, both with the policy) and G8.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in S1 S5 G8; do
  for tool in memcheck synccheck; do
    echo "$tool $b $(timeout 150 compute-sanitizer --tool $tool $ffrun .device/s34e/$b --check --bench 3 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
  done
done
