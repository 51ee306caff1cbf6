#!/bin/bash
# Sixty-third session, call 6 (.device/s63-r, relax_exit.py): each cluster
# kernel's exit barrier as built (base) against the same PTX with that
# barrier's arrive relaxed (rel: the arrive no longer waits for the
# epilogue's global stores); both orders, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s63-r
for w in $(ls $D | sed -n 's/-base$//p'); do ab_both $D base rel $w 0; done > $OUT/ab.txt
ab_table $OUT/ab.txt
