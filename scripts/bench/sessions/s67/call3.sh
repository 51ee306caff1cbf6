#!/bin/bash
# Sixty-seventh session, call 3: the search without splits over 8 on
# unswapped 128-row tiles (Search.cpp, passesSplitKRule). The three plans
# it changes, each W-new against W-base (the compiler before), checked
# and timed as CUDA-graph replays in both orders (ab_both): S6 at M = 128,
# the dynamic S6 in its 65-128 bin, the dynamic G4 in its 129-256 bin.
# .device/s67-rule: compile-workloads.py --weight-layout nk --search-options
# target=h200 --only S6, and --dynamic-m --only G4,S6 --suffix=-dyn, with
# either compiler, renamed W-base and W-new.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
. scripts/bench/session-lib.sh
D=.device/s67-rule
{ ab_both $D base new S6 0
  for m in 128 80; do ab_both $D base new S6-dyn $m; done
  for m in 256 200 140; do ab_both $D base new G4-dyn $m; done
} > $OUT/ab.txt
cat $OUT/ab.txt
ab_table $OUT/ab.txt | tee $OUT/ab.md
