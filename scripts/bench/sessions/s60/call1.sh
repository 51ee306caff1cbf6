#!/bin/bash
# Sixtieth session, call 1 (.device/s60-a-pack/tables.tar.xz: G1-G10 and
# S1-S8 as dynamic-M tables for target=h200, `compile-workloads.py DIR
# --weight-layout nk --dynamic-m --search-options target=h200`, HEAD
# 516dd4d): at M = 200, 440 and 600 against PyTorch's CUDA-graph chains
# (the fifty-ninth session's call 7 with the wide gated rule); then the
# per-kernel times (torch.profiler) of ours and PyTorch's chains where
# ours trailed.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p /tmp/t && tar xJf .device/s60-a-pack/tables.tar.xz -C /tmp/t || exit 1
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 240 python3 scripts/bench/sessions/s60/kernels.py /tmp/t G4,G5,G6,G8,G9,S1,S3 200,440,600 > $OUT/kernels.txt 2>&1
echo "kernels rc=$?"
dyn_graph_bench /tmp/t 200,440,600 300
grep " total " $OUT/kernels.txt
