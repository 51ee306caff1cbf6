#!/bin/bash
# Forty-third session, call 3: bench.py on S1-S8 and S3-m256 with the
# defaults after 8-column wave widths (.device/s43-b) against PyTorch's
# chains in CUDA graphs, merged and split, one process.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
bench_graphs .device/s43-b 'S1,S2,S3,S4,S5,S6,S7,S8,S3-m256' 540
