#!/bin/bash
# Forty-eighth session, call 5 (.device/s48-binsG): the finer bins as
# landed (257-384, 385-512, 513-768, 769-1024; the old bins from 1025 on)
# for G1-G10, old against new at every M of bins-pairs-G.txt (300, 450,
# 600, 700, 900, 1000 where the kernels that serve M differ), --check'ed,
# both orders. Call 4 timed S1-S8 (its new kernels up to 1024 are these).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
while read w m; do ab_line .device/s48-binsG old new $w $m; done \
  < scripts/bench/sessions/s48/bins-pairs-G.txt 2>&1 | tee $OUT/call5.txt
