#!/bin/bash
# Forty-third session, call 7 (built, not yet run: the session's device
# time ran out): the dynamic-M chains whose bins the split-K-over-8 rule
# (8ce9bf3) changes, old (`-old`, the rule off) against new (`-new`), at
# the M of each changed bin's ends and middle: G8, S2, S4 at 16, 48, 64;
# S5 at 16, 64, 100, 128; S7 at 257, 384, 512. ff-run --check of both,
# then --bench 20 --graph in two rounds (old first, then new first).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-dyn8
runs=()
for w in G8 S2 S4; do for m in 16 48 64; do runs+=("$w $m"); done; done
for m in 16 64 100 128; do runs+=("S5 $m"); done
for m in 257 384 512; do runs+=("S7 $m"); done
ab_pair $D old new "${runs[@]}"
