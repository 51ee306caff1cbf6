#!/bin/bash
# Twenty-fourth session: persistent streamed-n kernels (C2-b32: the model's
# top four plans, persistent where it prices them so, against s24's
# default, 128x128x64x128 one tile per CTA), and a persistent solo FFN at a
# ragged M (32731 rows: the last tile partial) against its one-tile form;
# sanitizers on the new C2-b32 default. Bundles: .device/s24g, .device/s24h
# (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s24g .device/s24h > $OUT/ab.txt 2>&1
rc=$?; echo "ab rc=$rc"
[ $rc = 0 ] || { grep "^==" $OUT/ab.txt | grep -v "status=PASS"; tail -n 8 $OUT/ab.txt; exit 1; }
for bt in .device/s24g/C2-b32-r0:racecheck .device/s24g/C2-b32-r0:memcheck .device/s24g/C2-b32-r0:synccheck .device/s24h/RAG-solo:memcheck; do
  b=${bt%%:*}; t=${bt##*:}; n=$(basename $b)
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $ffrun $b --bench 1 > $OUT/san-$n-$t.txt 2>&1
  echo "$n $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$n-$t.txt | tail -n 1)"
done
grep -o "RESULT bundle=[^ ]*\|median_us=[^ ]*\|status=[A-Z]*" $OUT/ab.txt | paste - - - | sed 's/RESULT bundle=.device.//'
