#!/bin/bash
# Seventieth session, call 3: where the S3 stand-in's racecheck hangs (2 of
# 3 runs in call 2). Racecheck limited to one kernel at a time
# (--kernel-name), three runs each; the same stand-in built without
# programmatic dependent launch (-nopdl: programmatic-launch=false
# programmatic-entry=false), three full runs; G5's stand-in with only its
# first kernel racechecked (call 2's originals then failed inside the
# sanitizer); G5-m16 without PDL with only its second kernel racechecked.
# stdout line-buffered, so a timed-out run shows how far ff-run got.
. scripts/bench/sessions/s70/race-lib.sh
s3=S3-m16-n2304k512l512
for i in 1 2 3; do
  san racecheck $s3-s1only-r$i 20 --kernel-name kns=_s1 $ffrun $d/$s3 --m 16
  san racecheck $s3-s0only-r$i 20 --kernel-name kns=_s0 $ffrun $d/$s3 --m 16
  san racecheck $s3-nopdl-r$i 20 $ffrun $d/$s3-nopdl --m 16
done
san racecheck G5-m16-n2048k512l512-s0only 20 --kernel-name kns=_s0 $ffrun $d/G5-m16-n2048k512l512 --m 16
san racecheck G5-m16-n2048k512l512-nopdl 20 $ffrun $d/G5-m16-n2048k512l512-nopdl --m 16
san racecheck G5-m16-orig-nopdl-s1only 60 --kernel-name kns=_s1 $ffrun $d/G5-m16-orig-nopdl --m 16
tar czf $OUT/call3.tgz -C $o .
cat $o/table.md
