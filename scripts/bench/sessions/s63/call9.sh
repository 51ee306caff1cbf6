#!/bin/bash
# Sixty-third session, call 9 (.device/s63-x, relax_exit.py --all): the landed
# kernels (new: only the exit arrive relaxed) against every cluster
# arrive relaxed (all: the exchange barriers too), an upper bound for
# the exchange barriers' release; both orders, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s63-x
for w in G2 C3b1f G10 S2; do ab_both $D new all $w 0; done > $OUT/ab.txt
ab_table $OUT/ab.txt
