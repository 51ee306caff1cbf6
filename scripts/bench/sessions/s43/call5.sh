#!/bin/bash
# Forty-third session, call 5: the plans of the h200 target with the
# single-GEMM constants refitted on H200 sweeps (h200-gemm-fit.json, a
# calibration file: `-cal`) against the default h100-sxm plans (`-base`),
# on the workloads whose plans differ (.device/s43-cal). ff-run --check of
# both, then --bench 20 --graph in two rounds (base first, then cal first).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-cal
W="G4 G5 G6 G7 G9 S2 S3 S5 S6 S8 C7-b1 C4-b32 G5-m16 G5-m64 S3-m16 S3-m64"
runs=()
for w in $W; do runs+=("$w 0"); done
ab_pair $D base cal "${runs[@]}"
