#!/bin/bash
# Forty-eighth session, calls 4 and 5 (.device/s48-bins): finer default M
# bins (257-384, 385-512, 513-768, ... : halves of the old power-of-two
# bins from 257 up) against the old ones, each dynamic-M bundle of G1-G10
# and S1-S8 (old: .device/s48-dyn, new: the same compiler with the finer
# bins) at every M of bins-pairs.txt (M = 300, 450, 600, 900, 1300, 1800,
# 2500 where the kernels that serve M differ), --check'ed, both orders.
# SET=S for call 4, SET=G for call 5.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
grep "^$SET" scripts/bench/sessions/s48/bins-pairs.txt | while read w m; do
  ab_line .device/s48-bins old new $w $m
done 2>&1 | tee $OUT/call-bins-$SET.txt
