#!/bin/bash
# Thirty-sixth session, first call: (1) dynamic-M bundles of G5, S1, S3
# (.device/s36-dyn: compile-workloads.py DIR --weight-layout nk --dynamic-m
# --only G5,S1,S3), whose bins up to M = 128 take the 128 x 64 split-K
# down GEMM, --check'ed by ff-run across the bins and by python_check.py;
# (2) ncu on G5's down GEMM alone (.device/s35-sk64, s35's splitk64.py) at
# 7 and 8 stages and as the search chose before (r0): throughput, memory
# and stall sections, to explain the 8-stage advantage; (3) the standard
# rows (s35/std.sh) on the HEAD compiler's bundles ($BUNDLES).
set -u
B=${BUNDLES:-.device/s35-sk}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in G5 S1 S3; do
  line="$w-dyn"
  for m in 1 17 64 65 100 128 129 300 4096; do
    out=$(timeout 60 $ffrun .device/s36-dyn/$w --m $m --check --bench 5 2>&1)
    line="$line | M=$m $(grep RESULT <<<"$out" | sed 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\1 \2 \3/')"
  done
  echo "$line"
done | tee $OUT/dyn-check.log
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 200 python3 scripts/gpu/python_check.py .device/s36-dyn --m 1,100,128,1000 > $OUT/dyn-python.log 2>&1
echo "python_check dyn rc=$? $(tail -1 $OUT/dyn-python.log)"
for r in r0 r127 r128; do
  timeout 120 ncu --clock-control none -k regex:ff_ -s 2 -c 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section LaunchStats \
    $ffrun .device/s35-sk64/G5DN-$r --bench 3 > $OUT/ncu-G5DN-$r.txt 2>&1
  echo "ncu $r rc=$?"
  timeout 120 ncu --clock-control none -k regex:ff_ -s 2 -c 1 \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    $ffrun .device/s35-sk64/G5DN-$r --bench 3 > $OUT/ncu-stall-G5DN-$r.txt 2>&1
  echo "ncu stall $r rc=$?"
  timeout 120 ncu --clock-control none -k regex:ff_ -s 2 -c 1 \
    --metrics lts__t_bytes.sum.per_second,dram__bytes_read.sum.per_second,lts__t_sectors_op_read.sum,dram__bytes_read.sum,lts__t_sector_op_read_hit_rate.pct,gpu__time_duration.sum \
    $ffrun .device/s35-sk64/G5DN-$r --bench 3 > $OUT/ncu-mem-G5DN-$r.txt 2>&1
  echo "ncu mem $r rc=$?"
done
for r in r0 r127 r128; do
  echo "== $r"; grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Memory Throughput|Warp Cycles Per Issued|No Eligible|Mem Busy|Max Bandwidth|L2 Hit" $OUT/ncu-G5DN-$r.txt | head -20
  grep -E "lts__|dram__|gpu__" $OUT/ncu-mem-G5DN-$r.txt
  grep -E "stalled" $OUT/ncu-stall-G5DN-$r.txt | awk '$NF+0 > 0.05' | head -20
done
BUNDLES=$B bash scripts/bench/sessions/s35/std.sh
