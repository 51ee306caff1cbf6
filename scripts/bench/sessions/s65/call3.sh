#!/bin/bash
# Sixty-fifth session, call 3: where a cached per-call launch's host time
# goes on the H200 host (attr_probe.py) for G1 (one fused kernel), G7 (a
# sequence of two), C3-b1 and the 3x3 chains C5-b1, C6-b1, C7-b1 (per
# call 1.3-1.6x the 1x1 chains' time in bench-h200-s64-c.md), from
# .device/s65-std.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so PYTHONPATH=python \
  python3 scripts/bench/sessions/s65/attr_probe.py .device/s65-std/G1 .device/s65-std/G7 .device/s65-std/C3-b1 .device/s65-std/C5-b1 .device/s65-std/C6-b1 .device/s65-std/C7-b1 2>&1 | tee $OUT/attr.md
