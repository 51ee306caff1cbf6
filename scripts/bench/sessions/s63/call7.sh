#!/bin/bash
# Sixty-third session, call 7: the landed exit barrier (relaxed unless the
# kernel releases stages on its peers). compute-sanitizer memcheck and
# racecheck on a push (G2), a split-K push (S2), a sequence of two cluster
# kernels (G7), a bulk-copy and a pull exchange (C3-b1's ranks 1 and 4);
# those two against HEAD's (both orders); then the standard rows (call 2)
# with the landed compiler's bundles (.device/s63-std2) and the targets.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s63-b
racecheck() {
  echo "racecheck $1: $(timeout 200 compute-sanitizer --tool racecheck --racecheck-report all $ffrun $1 --check 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
}
for b in $D/G2 $D/S2 $D/G7 $D/C3b1r1-new $D/C3b1r4-new; do memcheck $b; racecheck $b; done > $OUT/sanitizer.txt
for w in C3b1r1 C3b1r4; do ab_both $D base new $w 0; done > $OUT/ab.txt
cat $OUT/sanitizer.txt
ab_table $OUT/ab.txt
mkdir -p $OUT/std && OUT=$OUT/std BUNDLES=.device/s63-std2 bash scripts/bench/sessions/s33/s33e.sh
python3 scripts/bench/targets.py $OUT/std/c/results.csv $OUT/std/gs/results.csv 2>&1 | sed -n 3,14p
