#!/bin/bash
# Sixty-third session, call 1 (.device/s63-a, `s62/mkmc.py .device/s63-a
# --only su2,su2s6,su4 G8:210 S2:210 S4:210 S5:210`): the searched
# unswapped 64 x 128 split over 2 of G8's, S2's, S4's and S5's down GEMMs
# at M = 210 (4 x 16 x 2 = 128 CTAs) against swapped tiles of 112 tokens
# over 2 along k (su2: 64 CTAs, 4 stages; su2s6: 6 stages) and of 128
# tokens over 4 (su4: 128 CTAs); both orders, checked.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s63-a
for w in G8m210 S2m210 S4m210 S5m210; do
  for v in su2 su2s6 su4; do ab_both $D base $v $w 0; done
done > $OUT/ab.txt
ab_table $OUT/ab.txt
