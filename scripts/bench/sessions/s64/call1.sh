#!/bin/bash
# Sixty-fourth session, call 1: the exchange barriers relaxed (a push
# reduce-scatter's arrive after a named barrier over its threads, the
# in-place gather's early arrives). .device/s64-ab holds, per chain, HEAD
# 92361a3's bundle (W-base, .device/s63-std2) and the change's (W-new,
# .device/s64-std): both orders, checked. Then the standard rows of
# .device/s64-std (s33e.sh) and the targets.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s64-ab
for w in G1 G2 G10 G7 G9 C2-b1 C8-b1 G4 G6 G8 S2 S8 GEMM-4096-m64; do ab_both $D base new $w 0; done > $OUT/ab.txt
ab_table $OUT/ab.txt
memcheck $D/G1-new > $OUT/sanitizer.txt; memcheck $D/S2-new >> $OUT/sanitizer.txt
cat $OUT/sanitizer.txt
mkdir -p $OUT/std && OUT=$OUT/std BUNDLES=.device/s64-std timeout 420 bash scripts/bench/sessions/s33/s33e.sh > $OUT/std.txt 2>&1
tail -8 $OUT/std.txt
python3 scripts/bench/targets.py $OUT/std/c/results.csv $OUT/std/gs/results.csv 2>&1 | sed -n 3,14p
