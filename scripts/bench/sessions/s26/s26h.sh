#!/bin/bash
# Twenty-sixth session: set C in graphs with the landed code (6562574:
# C5-b32 with the conv halo, its descriptors as two bases plus constants;
# the other 15 C bundles byte-identical to s25e's). Bundles: .device/s26h.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
BUILD=/tmp/b SETS="c" scripts/gpu/bench-all.sh .device/s26h /tmp/bench > $OUT/bench.log 2>&1
echo "bench rc=$?"
cp /tmp/bench/c/results.csv /tmp/bench/c/README.md $OUT/
cp /tmp/bench/c/speedup.png /tmp/bench/c/roofline.png $OUT/ 2>/dev/null
python3 -c "import csv,sys; [print(r['workload'], r['baseline'], r['hot_us'], r['path']) for r in csv.DictReader(open(sys.argv[1])) if r['baseline'] in ('graph', 'ours_graph', 'ours_auto_graph') and r['workload'].startswith('C')]" $OUT/results.csv
tail -n 14 $OUT/bench.log
