#!/bin/bash
# Fiftieth session, call 2 (.device/s50-b): swapped kernels on 256-row
# weight tiles (two 64-row accumulators per consumer warpgroup, as cuBLAS's
# nvjet 256 x 152), one CTA per cluster (r1) and in pairs along M sharing
# the weight tile by multicast (r2, even token-tile counts: 136-row tiles
# at M = 800), against the landed kernels (c1): the nine exact-M chains
# the search swaps and the lone 300 x 16384 x 4096 GEMM, both orders.
# Memcheck on four; ncu of the lone GEMM's three kernels (one launch each).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-b
S=scripts/bench/sessions/s49
mkdir -p $OUT
for w in G4-m800 G5-m300 G5-m800 G6-m800 G8-m300 G8-m800 S1-m800 S3-m800 S7-m800 GEMM-m300; do
  ab_line $D c1 r1 $w 0; ab_line $D c1 r2 $w 0; done 2>&1 | tee $OUT/ab.txt
for w in G5-m300-r1 G5-m800-r2 S3-m800-r1 GEMM-m300-r2; do memcheck $D/$w; done 2>&1 | tee $OUT/memcheck.txt
for v in c1 r1 r2; do
  timeout 120 ncu --clock-control none --set full -k regex:ff_gemm -c 1 -f -o /tmp/g-$v \
    $ffrun $D/GEMM-m300-$v > /tmp/ncu-$v.log 2>&1 || tail -5 /tmp/ncu-$v.log
  ncu -i /tmp/g-$v.ncu-rep --page details --csv > /tmp/g-$v-details.csv 2>/dev/null
  ncu -i /tmp/g-$v.ncu-rep --page source --csv --print-source sass > /tmp/g-$v-source.csv 2>/dev/null
  echo "== GEMM-m300-$v"
  python3 $S/ncu_summary.py /tmp/g-$v-details.csv
  python3 $S/sass_hot.py /tmp/g-$v-source.csv 8 || true
done 2>&1 > $OUT/ncu.txt
grep -E "^==|Duration|L2 Cache Thr|Compute \(SM\)|per opcode" $OUT/ncu.txt
echo "| chain | variant | check | c1 us | variant us | c1 us | variant us | c1 / variant |"
echo "|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $7, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
