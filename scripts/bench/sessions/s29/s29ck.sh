#!/bin/bash
# Twenty-ninth session, review: python_check.py's reference for single
# GEMMs with an epilogue activation and for gated GEMMs (.device/s29ck: a
# copy of s28k's gated_gemm bundle GG-py, and s29s's G7 up (gelu_tanh) and
# down (identity) GEMMs).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/gpu/python_check.py .device/s29ck --m 128,1000
