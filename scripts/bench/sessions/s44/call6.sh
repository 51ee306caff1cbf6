#!/bin/bash
# Forty-fourth session, call 6: A's ring zeroed once in kernels with a
# tail map too (zero-stale-a for tailABox; `-zero`) against the landing
# commit's (`-old`): the dynamic S2, S3, S5, S7 (.device/s44-z). Call 5
# found every partial last m tile slowing the chains 1.11-1.18x (S7 at
# 257-352 136-137 us, at 384 119). S7 at M = 320 and 384 checked and
# timed, then each chain at 200, 257 and 448: the zero variant's check,
# then old, zero, old, zero (ff-run --bench 20 --graph), a line each as it
# goes. (A first form, ab_pair over 24 runs at six M each, ran past the
# call's 450-s limit and returned nothing.)
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s44-z
for v in old zero; do for m in 320 384; do
  echo "S7 $v $m: $(c $D/S7-$v $m) $(t $D/S7-$v $m)"
done; done
for w in S2 S3 S5 S7; do for m in 200 257 448; do
  echo "$w $m check-zero $(c $D/$w-zero $m) old $(t $D/$w-old $m) zero $(t $D/$w-zero $m) old $(t $D/$w-old $m) zero $(t $D/$w-zero $m)"
done; done
