#!/bin/bash
# Forty-ninth session, call 3 (.device/s49-c): the search with swapped
# operands (swap-operands, new) against without (old) on every bundle whose
# kernels it changes: the dynamic-M sweep's chains compiled at their exact
# M (compile-workloads.py --dynamic-sweep) and T4-k768-m512 (no other
# static default bundle changes). Where both kernels of a sequence change,
# each alone too (-up: the new first kernel, -dn: the new second).
# Everything --check'ed, both orders; memcheck on two.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s49-c
mkdir -p $OUT
{
for d in $D/*-new; do w=$(basename $d); w=${w%-new}; ab_line $D old new $w 0; done
for w in G5-m300 G7-m1500 G8-m800; do variants $D $w 0 old up dn new; variants $D $w 0 new dn up old; done
memcheck $D/S3-m800-new
memcheck $D/G8-m300-new
} 2>&1 | tee $OUT/call3.txt
