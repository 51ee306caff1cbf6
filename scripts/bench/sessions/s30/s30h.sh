#!/bin/bash
# Thirtieth session: the Python tests on the GPU machine (test_gpu.py's
# fast-path test among them), with the fast path and without it.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 -m pytest -q python/tests 2>&1 | tail -3
FLASHFUSER_NO_FASTCALL=1 python3 -m pytest -q python/tests/test_gpu.py python/tests/test_gpu_fallback.py python/tests/test_gpu_workspace.py 2>&1 | tail -2
