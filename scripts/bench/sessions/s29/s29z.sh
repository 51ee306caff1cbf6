#!/bin/bash
# Twenty-ninth session: the host time of a cached per-call launch
# (percall.py on .device/s29z/G1).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/sessions/s29/percall.py 2>&1 | grep -v "^$" | head -40
python3 scripts/bench/sessions/s29/attrcost.py
