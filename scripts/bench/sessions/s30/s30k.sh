#!/bin/bash
# Thirtieth session: per-call time of each small G bundle (percall_all.py).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/sessions/s30/percall_all.py .device/s29y
