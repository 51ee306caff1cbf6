#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s23k
cuobjdump -sass $D/C7-b1-pushnk/*.cubin > $OUT/push.sass 2>&1; echo "sass rc=$?"
for b in C7-b1-pull C7-b1-ref; do
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $ffrun $D/$b --bench 1 > $OUT/san-$b.txt 2>&1; echo "$b racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/san-$b.txt | tail -1)"
done
timeout 120 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 $ffrun $D/C7-b1-pushnk --bench 1 > $OUT/san-push-all.txt 2>&1; echo "push rc=$?"
head -c 20000 $OUT/san-push-all.txt > $OUT/san-push-head.txt
