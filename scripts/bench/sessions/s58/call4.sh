#!/bin/bash
# Fifty-eighth session, call 4 (.device/s58-b: S6's down GEMM at M = 440 on
# swapped 88-token x 64-row tiles, one CTA per cluster): where our kernel
# and cuBLAS's (tst_64x88, clusters of 4) stall, by SASS instruction (ncu
# warp-state sampling), with the stall reasons and L2/tensor metrics.
set -u
mkdir -p $OUT
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
S="--section SourceCounters --section WarpStateStats --section InstructionStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum"
timeout 150 ncu --clock-control none $S -k regex:ff_gemm --launch-skip 3 -c 1 -o $OUT/ours \
  $ffrun .device/s58-b/S6DN440s88x64-c1 --bench 1 > $OUT/ncu-ours.log 2>&1
echo "ours rc=$?"
timeout 150 ncu --clock-control none $S -k regex:nvjet --launch-skip 3 -c 1 -o $OUT/cublas \
  python3 scripts/bench/sessions/s58/cublas_gemms.py S6DN:440:1536:8960 > $OUT/ncu-cublas.log 2>&1
echo "cublas rc=$?"
for r in ours cublas; do
  ncu -i $OUT/$r.ncu-rep --page source --print-source sass --csv > $OUT/$r-sass.csv 2>&1
  ncu -i $OUT/$r.ncu-rep --page raw --csv > $OUT/$r-raw.csv 2>&1
  echo "$r: $(wc -l < $OUT/$r-sass.csv) sass rows"
done
ls -la $OUT
