#!/bin/bash
# Sixty-fifth session, call 5: gpu_probe.py again with the TensorGuards
# call fixed (call 4 passed per-tensor dynamic dims, which it refused, so
# no guard was used there): the fast path's host time and per-call figure
# with the guard against without, on G1, G7, C1-b1, C3-b1, C5-b1, C8-b1.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so PYTHONPATH=python \
  python3 scripts/bench/sessions/s65/gpu_probe.py .device/s65-std/{G1,G7,C1-b1,C3-b1,C5-b1,C8-b1} 2>&1 | tee $OUT/gpu.md
