#!/bin/bash
# Fiftieth session, call 1 (.device/s50-a): swapped single-GEMM kernels in
# pairs along M (cluster [2, 1, 1, 1]: the two token tiles of a weight tile
# share each weight k tile by TMA multicast, 64 rows loaded by each CTA)
# against one CTA per cluster (c1, the landed kernels), for every swapped
# kernel of the nine exact-M chains the search swaps and the lone 300 x
# 16384 x 4096 GEMM; both orders. Memcheck on three pairs; ncu of G5's
# paired up GEMM at M = 300 (the forty-ninth session's call 7 read L2
# throughput 84 % on c1).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s50-a
S=scripts/bench/sessions/s49
mkdir -p $OUT
for w in G4-m800 G5-m300 G5-m800 G6-m800 G8-m300 G8-m800 S1-m800 S3-m800 S7-m800 GEMM-m300; do
  ab_line $D c1 c2 $w 0; done 2>&1 | tee $OUT/ab.txt
for w in G5-m300 S3-m800 GEMM-m300; do memcheck $D/$w-c2; done 2>&1 | tee $OUT/memcheck.txt
timeout 200 ncu --clock-control none --set full -k regex:ff_ffn_0_s0 -c 1 -f -o /tmp/pair \
  $ffrun $D/G5-m300-c2 > /tmp/ncu-pair.log 2>&1 || tail -5 /tmp/ncu-pair.log
ncu -i /tmp/pair.ncu-rep --page details --csv > /tmp/pair-details.csv 2>/dev/null
ncu -i /tmp/pair.ncu-rep --page source --csv --print-source sass > /tmp/pair-source.csv 2>/dev/null
{ python3 $S/ncu_summary.py /tmp/pair-details.csv; python3 $S/sass_hot.py /tmp/pair-source.csv 12 || true; } 2>&1 | tee $OUT/ncu.txt
echo "| chain | check c2 | c1 us | c2 us | c1 us | c2 us | c1 / c2 |"
echo "|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %s | %s | %s | %s | %.3f |\n", $1, $4, $6, $8, $10, $12, ($6+$10)/($8+$12)}' $OUT/ab.txt
