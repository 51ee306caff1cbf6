#!/bin/bash
# Seventieth session, call 4: call 3 left two questions. Is the sanitizer's
# failure with only the first kernel racechecked (every bundle, call 2 and
# 3) tied to programmatic launch? And is it the first kernel that hangs
# under racecheck? The -nopdl builds with one kernel racechecked at a time,
# and the original G5-m16 without PDL racechecked whole.
. scripts/bench/sessions/s70/race-lib.sh
s3=S3-m16-n2304k512l512-nopdl
for i in 1 2 3; do
  san racecheck $s3-s0only-r$i 20 --kernel-name kns=_s0 $ffrun $d/$s3 --m 16
done
for i in 1 2; do
  san racecheck $s3-s1only-r$i 20 --kernel-name kns=_s1 $ffrun $d/$s3 --m 16
done
san racecheck G5-m16-n2048k512l512-nopdl-s0only 20 --kernel-name kns=_s0 $ffrun $d/G5-m16-n2048k512l512-nopdl --m 16
san racecheck G5-m16-orig-nopdl 90 $ffrun $d/G5-m16-orig-nopdl --m 16
tar czf $OUT/call4.tgz -C $o .
cat $o/table.md
