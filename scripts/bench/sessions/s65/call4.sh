#!/bin/bash
# Sixty-fifth session, call 4: gpu_probe.py on the bundles whose per-call
# time call 3 found far above their host path (C3-b1, C5-b1) and on G1,
# G7, C6-b1, C7-b1, C1-b1, C2-b1, C4-b1, C8-b1 beside them, twice; with
# the fast path's layout check by TensorGuards against without.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for r in 1 2; do
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so PYTHONPATH=python \
  python3 scripts/bench/sessions/s65/gpu_probe.py .device/s65-std/{G1,G7,C1-b1,C2-b1,C3-b1,C4-b1,C5-b1,C6-b1,C7-b1,C8-b1} 2>&1 | tee $OUT/gpu-$r.md
done
