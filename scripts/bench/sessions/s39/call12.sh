#!/bin/bash
# Thirty-ninth session, call 12: call 11's gap between the package and
# ff-run on S3's sequences, with the package's direct launches (graphs off:
# ours_direct) beside its graph-replayed calls and bench.py's graph;
# ff-run first.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for w in S3-m256 S3-m512; do
  echo "ffrun $w $(timeout 60 $ffrun .device/s39-s/$w --bench 20 2>&1 | grep RESULT | sed -n 's/.*median_us=\([^ ]*\).*/\1/p')"
done
timeout 150 python3 scripts/bench/bench.py --out $OUT/bench --bundles .device/s39-s --reps 100 --only 'S3-m256$,S3-m512$' --baselines graph,ours,ours_direct,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -rf $OUT/bench/*.png
python3 -c "
import csv
for r in csv.DictReader(open('$OUT/bench/results.csv')): print(r['workload'], r['baseline'], r['hot_us'], r['rel_err'])"
