#!/bin/bash
# Thirty-ninth session, call 6: the landed rule (split-K clusters rastered
# where B outgrows L2). Dynamic-M G5 and S3 (.device/s39-dyn,
# compile-workloads.py --dynamic-m --only G5,S3 at the change) against
# .device/s38-dyn (ea5e486) at M in the bins whose split-K kernels now
# raster, ff-run --check medians alternating; then the static G5 and S3 at
# M = 256 and 512 (.device/s39-final) in bench.py, CUDA graphs, with the
# cuBLAS chain.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
res() { grep RESULT | sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\3 \1 \2/p'; }
{
printf "%-4s %5s | %-24s | %-24s | %6s\n" wl M "s38(check,rel_l2,us)" "s39(check,rel_l2,us)" s38/s39
for w in G5 S3; do
  for m in 200 256 300 512 600 1000; do
    o=$(timeout 60 $ffrun .device/s38-dyn/$w --m $m --check --bench 20 2>&1 | res)
    n=$(timeout 60 $ffrun .device/s39-dyn/$w --m $m --check --bench 20 2>&1 | res)
    printf "%-4s %5s | %-24s | %-24s | %6s\n" $w $m "$o" "$n" "$(python3 -c "print(f'{${o##* }/${n##* }:.3f}')" 2>/dev/null)"
  done
done
} > $OUT/dyn.txt 2>&1
timeout 300 python3 scripts/bench/bench.py --out $OUT/bench --bundles .device/s39-final --reps 100 --only 'G5-m256$,S3-m256$,G5-m512$,S3-m512$' --baselines graph,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
python3 -c "
import csv
for r in csv.DictReader(open('$OUT/bench/results.csv')): print(r['workload'], r['baseline'], r['hot_us'], r['rel_err'])" 2>&1 | paste - - | head
rm -rf $OUT/bench/*.png
cat $OUT/dyn.txt
