#!/bin/bash
# Seventieth session, call 5: the second kernel of each original bundle
# racechecked with the first run uninstrumented (--kernel-name kns=_s1),
# built without PDL (call 3: G5-m16's passed so in 6 s, with PDL it ran
# past 100 s); and two more whole racechecks of each stand-in whose first
# kernel is gated (S3), which hung in 3 of 6 runs before.
. scripts/bench/sessions/s70/race-lib.sh
for w in G5-m16 G5-m64 S3-m16 S3-m64; do
  san racecheck $w-orig-nopdl-s1only 45 --kernel-name kns=_s1 $ffrun $d/$w-orig-nopdl --m ${w#*-m}
done
for b in S3-m16-n2304k512l512 S3-m64-n2304k512l512 S3-m16-n4608k2048l512; do
  m=${b#*-m}; m=${m%%-*}
  for i in 1 2; do san racecheck $b-r$i 25 $ffrun $d/$b --m $m; done
done
tar czf $OUT/call5.tgz -C $o .
cat $o/table.md
