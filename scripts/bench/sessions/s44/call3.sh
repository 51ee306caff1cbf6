#!/bin/bash
# Forty-fourth session, call 3: 128 x 64 split-K tiles over 4 in the search
# (.device/s44-ab: G6, G7, G9, S6, S8, static `-old`/`-new` and dynamic-M
# `-dold`/`-dnew`; README row 3). ff-run --check of both, then --bench 20
# --graph in two rounds (ab_pair); the dynamic bundles at the M of the bins
# the change moves (1-64 of G7 and S6; 65-128 of all five); memcheck on
# three new bundles.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s44-ab
ab_pair $D old new "G6 0" "G7 0" "G9 0" "S6 0" "S8 0"
mv $OUT/r1 $OUT/static-r1; mv $OUT/r2 $OUT/static-r2
runs=()
for w in G7 S6; do for m in 16 64; do runs+=("$w $m"); done; done
for w in G6 G7 G9 S6 S8; do for m in 100 128; do runs+=("$w $m"); done; done
ab_pair $D dold dnew "${runs[@]}"
for n in G7-new "S6-dnew --m 16" "S8-dnew --m 100"; do
  echo "memcheck $n: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/$n --check 2>&1 | grep -E "ERROR SUMMARY|status=" | sed 's/.*status=/status=/' | tr '\n' ' ')"
done
