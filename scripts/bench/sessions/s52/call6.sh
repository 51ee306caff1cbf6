#!/bin/bash
# Fifty-second session, call 6 (.device/s52-f): the exact-M sweep (G1-G10,
# S1-S8 at M = 300, 800, 1500) and S3 at M = 512 and 1024 compiled at
# da9dfac (staged stores, the swapped gated rules, the split-K slice
# stores) against PyTorch's chains in CUDA graphs (merged and split
# gate/up), one bench.py process, twice (r1, r2); ours also per call from
# Python, whose output is checked against the fp32 reference (rel err).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for r in r1 r2; do
  timeout 250 python3 scripts/bench/bench.py --out $OUT/$r --bundles .device/s52-f \
    --only 'dyn-,S3-m512$,S3-m1024$' --baselines graph,graph_split,ours,ours_graph \
    > $OUT/$r.log 2>&1 || tail -20 $OUT/$r.log
  rm -f $OUT/$r/*.png
  grep "Ceilings" $OUT/$r/README.md
  python3 -c "import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1])) if x['baseline']=='ours']; print(len(r), 'checked, max rel err', max(float(x['rel_err']) for x in r))" $OUT/$r/results.csv
done
graph_table $OUT/r2/results.csv
