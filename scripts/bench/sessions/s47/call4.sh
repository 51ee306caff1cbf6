#!/bin/bash
# Forty-seventh session, call 4: the standard rows (sets C, G, S) with the
# landing commit's defaults (.device/s47-std: C4-b32, C8-b32 on 128 x 208
# tiles; S2, S3, S5, S6, S7's gate|up kernels with the new epilogue
# stores; every other kernel byte-identical to .device/s46-std2).
set -u
export BUNDLES=.device/s47-std
bash scripts/bench/sessions/s33/s33e.sh
python3 scripts/bench/targets.py $OUT/c/results.csv $OUT/gs/results.csv 2>&1 | tail -32
