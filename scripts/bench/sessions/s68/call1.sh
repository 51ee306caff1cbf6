#!/bin/bash
# Sixty-eighth session, call 1: host_probe.py on three small chains of
# .device/s65-std (the kernels of fb82ac9): where the cached call's host
# time goes inside the C fast path.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so PYTHONPATH=python timeout 300 \
  python3 scripts/bench/sessions/s68/host_probe.py .device/s65-std/{G1,G7,C3-b1} 2>&1 | tee $OUT/host-probe.md
