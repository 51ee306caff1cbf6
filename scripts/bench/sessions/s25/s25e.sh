#!/bin/bash
# Twenty-fifth session: set C side by side in graphs with the landed
# defaults (C1-b32 and C5-b32 with resident weights; the other 14 C bundles
# byte-identical to s25a's). Bundles: .device/s25e (README.md).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
BUILD=/tmp/b SETS="c" scripts/gpu/bench-all.sh .device/s25e $OUT/bench > $OUT/bench.log 2>&1
echo "bench rc=$?"
python3 -c "import csv,sys; [print(r['workload'], r['baseline'], r['hot_us'], r['path']) for r in csv.DictReader(open(sys.argv[1])) if r['baseline'] in ('graph', 'ours_graph', 'ours_auto_graph') and r['workload'].startswith('C')]" $OUT/bench/c/results.csv
tail -n 14 $OUT/bench.log
