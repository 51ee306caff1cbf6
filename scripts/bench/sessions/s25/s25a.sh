#!/bin/bash
# Twenty-fifth session, first GPU call: the final C6-b32 kernel (842de0a,
# one instruction moved) against the measured s24 one, C2-b32's persistent
# streamed default and C5-b32, checked in both weight layouts; an ncu
# profile of the persistent solo defaults C5-b32 and C6-b32 (where their
# time goes); then set C side by side in graphs with every current default.
# Bundles: .device/s25a (the 16 C defaults), .device/s25b (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s25b > $OUT/ab.txt 2>&1
rc=$?; echo "ab rc=$rc"
[ $rc = 0 ] || { grep "^==" $OUT/ab.txt | grep -v "status=PASS"; tail -n 8 $OUT/ab.txt; exit 1; }
for w in C5-b32 C6-b32; do
  timeout 120 ncu --clock-control none --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section Occupancy \
    $ffrun .device/s25b/$w-s25 --bench 3 > $OUT/ncu-$w.txt 2>&1
  echo "ncu $w rc=$?"
  grep -E "Duration|Throughput|Stall|Issued Warp|Eligible|Active Warps|Registers|Achieved Occ|L2 Hit|Mem Busy|Max Bandwidth" $OUT/ncu-$w.txt | head -40
done
BUILD=/tmp/b SETS="c" scripts/gpu/bench-all.sh .device/s25a $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc=$?"
python3 -c "import csv,sys; [print(r['workload'], r['baseline'], r['hot_us'], r['path']) for r in csv.DictReader(open(sys.argv[1])) if r['baseline'] in ('graph', 'ours_graph', 'ours_auto_graph')]" $OUT/bench/c/results.csv
tail -n 14 $OUT/bench.log
tail -n 10 $OUT/ab.txt
