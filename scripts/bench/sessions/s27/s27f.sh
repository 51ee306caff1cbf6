#!/bin/bash
# Twenty-seventh session, sixth call: the compiler's kernel sequences
# against the fused plans on every workload where --dsm-search now records
# a sequence (G4-G10, the G5 M sweep, T3 k256, T4), each --check'ed
# (.device/s27p: compile-workloads.py DIR --weight-layout nk --anchors
# --only LIST --suffix=-seq, and the same with --search-options
# sequences=false --suffix=-fused); memcheck on G8-seq.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27p/G5-fused --bench 300 > /dev/null 2>&1
RUN_TIMEOUT=60 BENCH=30 REPEAT=2 scripts/gpu/ab.sh /tmp/b .device/s27p > $OUT/ab.txt 2>&1
echo "ab rc=$?"
compute-sanitizer --tool memcheck --error-exitcode 9 $ffrun .device/s27p/G8-seq --check --bench 1 > $OUT/memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -c 'ERROR SUMMARY: 0' $OUT/memcheck.txt)"
grep -c "rc=0 RESULT.*status=PASS" $OUT/ab.txt
grep "RESULT" $OUT/ab.txt | grep -v "status=PASS" | head
sed -n '/^| workload/,$p' $OUT/ab.txt
