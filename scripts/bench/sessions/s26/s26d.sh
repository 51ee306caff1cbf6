#!/bin/bash
# Twenty-sixth session: set C in graphs with the landed defaults (C5-b32
# with the conv halo; the other 15 C bundles byte-identical to s25e's), and
# compute-sanitizer on a 168-tile conv-halo kernel (the input of
# test/Dialect/DSM/Transforms/dsm-materialize-conv-halo.mlir, batch 6).
# Bundles: .device/s26d, .device/s26e.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26e/CH6-halo --check --bench 20 | grep RESULT | sed 's/inputs=.*status/status/'
for tool in memcheck synccheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $ffrun .device/s26e/CH6-halo --bench 1 > $OUT/san-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.txt | tail -1)"
done
BUILD=/tmp/b SETS="c" scripts/gpu/bench-all.sh .device/s26d $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc=$?"
python3 -c "import csv,sys; [print(r['workload'], r['baseline'], r['hot_us'], r['path']) for r in csv.DictReader(open(sys.argv[1])) if r['baseline'] in ('graph', 'ours_graph', 'ours_auto_graph') and r['workload'].startswith('C')]" $OUT/bench/c/results.csv
tail -n 14 $OUT/bench.log
