#!/bin/bash
# Sixty-second session, call 3 (.device/s62-c): the fill rule's change
# (two narrowed token tiles down to 60 % of the SMs). S7's dynamic tables
# (plan-diff --sets dyn, target=h200: HEAD 532dc87 as S7-old, the change as
# S7-new; only its 193-224 bin moves) at M = 200 and 220, and S1 and S7
# compiled for an exact M by both (mkexact.py), A/B both orders, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s62-c
{ ab_both $D old new S7 200; ab_both $D old new S7 220
  for w in S7m210 S1m180 S1m150; do ab_both $D old new $w 0; done; } > $OUT/ab.txt
ab_table $OUT/ab.txt
