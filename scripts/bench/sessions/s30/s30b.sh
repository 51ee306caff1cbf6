#!/bin/bash
# Thirtieth session: the C fast path's host time by part (hostcost.py on
# G1's bundle of .device/s29y).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/sessions/s30/hostcost.py .device/s29y/G1
