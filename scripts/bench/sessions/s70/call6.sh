#!/bin/bash
# Seventieth session, call 6: is the S3-m16 stand-in's racecheck hang (8
# of 11 whole runs) tied to fit-a-box (A's boxes of M = 16 rows, the rest
# of the tile zeroed once)? The same stand-in built with fit-a-box=false
# (-nofit: 128-row boxes, TMA zero-fills rows past M), three runs, beside
# three more of the default build.
. scripts/bench/sessions/s70/race-lib.sh
b=S3-m16-n2304k512l512
$ffrun $d/$b-nofit --m 16 --check | grep -m1 'PASS\|FAIL' | cut -c1-100 >> $o/table.md
for i in 1 2 3; do
  san racecheck $b-nofit-r$i 25 $ffrun $d/$b-nofit --m 16
  san racecheck $b-r$i 25 $ffrun $d/$b --m 16
done
tar czf $OUT/call6.tgz -C $o .
cat $o/table.md
