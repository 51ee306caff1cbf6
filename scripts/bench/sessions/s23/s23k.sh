#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
D=.device/s23k
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 ONLY='^C[78]-b1$' scripts/gpu/ab.sh /tmp/b $D > $OUT/ab.txt 2>&1; echo "ab rc=$?"
RUN_TIMEOUT=60 BENCH=40 ONLY='^C[78]-b1$' scripts/gpu/ab.sh /tmp/b $D > $OUT/ab2.txt 2>&1; echo "ab2 rc=$?"
grep -c "status=PASS" $OUT/ab.txt $OUT/ab2.txt
for b in C8b32ws-push; do
  out=$(timeout 60 $ffrun $D/$b --check --bench 20 --repeat 3 2>&1 | grep '^RESULT'); echo "$b $(sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/rel_l2=\1 \2us \3/p' <<<"$out")"
done
for b in C8-b1-det C7-b1-det; do
  out=$(timeout 60 $ffrun $D/$b --check --bench 20 --repeat 3 2>&1 | grep '^RESULT'); echo "$b $(sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*identical=\([^ ]*\).*deterministic=\([^ ]*\) status=\([A-Z]*\).*/rel_l2=\1 \2us identical=\3 det=\4 \5/p' <<<"$out")"
done
for m in 1 37 64 100 128 129 200 256 300 1000; do
  out=$(timeout 60 $ffrun $D/DSK-push --m $m --check --bench 10 --repeat 2 2>&1 | grep '^RESULT'); echo "DSK m=$m $(sed -n 's/.*kernel=\([^ ]*\).*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\1 rel_l2=\2 \3us \4/p' <<<"$out")"
done
for b in C8-b1-pushnk C7-b1-pushnk C8b32ws-push; do
  for t in racecheck memcheck synccheck; do
    [ $b != C7-b1-pushnk ] && [ $t != racecheck ] && continue
    timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $ffrun $D/$b --bench 1 > $OUT/san-$b-$t.txt 2>&1; echo "$b $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$b-$t.txt | tail -1)"
  done
done
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $ffrun $D/DSK-push --m 200 --bench 1 > $OUT/san-dsk.txt 2>&1; echo "DSK racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/san-dsk.txt | tail -1)"
tail -5 $OUT/ab.txt; tail -5 $OUT/ab2.txt
