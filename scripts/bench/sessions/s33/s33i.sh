#!/bin/bash
# Thirty-third session: a programmatically launched first kernel right
# after a memcpy on the stream, eager and captured (afternonkernel.py), on
# G4 (a sequence) and G1 (one fused kernel) of .device/s33e.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for b in G4 G1 S8; do
  echo "== $b"; python3 scripts/bench/sessions/s33/afternonkernel.py .device/s33e/$b; echo "rc=$?"
done
