#!/bin/bash
# Forty-third session, call 2: the dynamic-M S chains whose bins take
# 8-column wave widths, old (main at 519ecc1, `-old`) against new
# (`-new`), at M = 16, 64, 128, 200, 256: ff-run --check of both, then
# --bench 20 --graph in two rounds (old first, then new first).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-dyn
runs=()
for w in S2 S3 S5 S6 S7; do for m in 16 64 128 200 256; do runs+=("$w $m"); done; done
ab_pair $D old new "${runs[@]}"
