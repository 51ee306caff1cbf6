#!/bin/bash
# Thirty-ninth session, call 3: split-K GEMM clusters in the grouped raster
# (m fastest within groups of 16 m tiles; before, n fastest: call 2's ncu
# had S3's gated GEMM at M = 256 split over pairs reading B from DRAM once
# per m tile). (a) The gated GEMMs of call 1 (.device/s39-gated, n fastest)
# beside their split-K plans rastered (.device/s39-gatedr: gated-halves.py
# at the raster change, variants renamed with an r), ab.sh. (b) The M
# sweep's sequences whose GEMMs split K (G5, S3 at 256 and 512) and two
# controls at 1024: .device/s38-sweep (ea5e486) against .device/s39-sweep
# (compile-workloads.py --only ... at the change, with the gated split K in
# the search), ff-run --check medians alternating, then bench.py in CUDA
# graphs with the cuBLAS chain.
set -u
RUN_TIMEOUT=30 BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s39-gated .device/s39-gatedr > $OUT/ab.log 2>&1
echo "ab rc=$? $(grep -c status=PASS $OUT/ab.log) PASS"
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
res() { grep RESULT | sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\3 \1 \2/p'; }
{
printf "%-9s | %-24s | %-24s | %6s\n" wl "s38(check,rel_l2,us)" "s39(check,rel_l2,us)" s38/s39
for w in G5-m256 S3-m256 G5-m512 S3-m512 G5-m1024 S3-m1024; do
  for round in 1 2; do
    o=$(timeout 60 $ffrun .device/s38-sweep/$w --check --bench 20 2>&1 | res)
    n=$(timeout 60 $ffrun .device/s39-sweep/$w --check --bench 20 2>&1 | res)
    printf "%-9s | %-24s | %-24s | %6s\n" $w "$o" "$n" "$(python3 -c "print(f'{${o##* }/${n##* }:.3f}')" 2>/dev/null)"
  done
done
} > $OUT/sweep.txt 2>&1
timeout 300 python3 scripts/bench/bench.py --out $OUT/bench --bundles .device/s39-sweep --reps 100 --only 'G5-m256$|S3-m256$|G5-m512$|S3-m512$' --baselines graph,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
python3 -c "
import csv
for r in csv.DictReader(open('$OUT/bench/results.csv')): print(r['workload'], r['baseline'], r['hot_us'])" 2>&1 | paste - - | head
rm -rf $OUT/bench/*.png
cat $OUT/sweep.txt
sed -n "/^| workload/,\$p" $OUT/ab.log
