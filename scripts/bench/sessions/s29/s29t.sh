#!/bin/bash
# Twenty-ninth session: one GEMM kernel of ours against cuBLAS's in a CUDA
# graph (onegemm.py; .device/s29s from smallgemm.py).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/sessions/s29/onegemm.py
