#!/bin/bash
# Thirty-sixth session, second call: (1) per-kernel durations (ncu) of the
# dynamic-M G5 bundle (.device/s36-dyn) at M = 1, 64, 100, 128, whose
# ff-run medians fell as M rose within one bin (169 us at M = 1, 79 at
# 128, same kernels); (2) the G5/S3 M sweep (.device/s36-sweep:
# compile-workloads.py DIR --weight-layout nk --only G5-m16,...,S3-m8192)
# against eager and the CUDA-graph chain. Everything lands in one tarball.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
R=/tmp/r; mkdir -p $R
for m in 1 64 100 128; do
  timeout 120 ncu --clock-control none -k regex:ff_ -s 4 -c 4 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_bytes.sum.per_second \
    $ffrun .device/s36-dyn/G5 --m $m --bench 3 > $R/ncu-dyn-G5-m$m.txt 2>&1
  echo "== M=$m rc=$?"; grep -E "ff_|gpu__|dram__|lts__" $R/ncu-dyn-G5-m$m.txt | grep -v "==PROF==" | head -24
done
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 400 python3 scripts/bench/bench.py --out $R/sweep --bundles .device/s36-sweep --reps 100 --only 'G5-m,S3-m' --baselines eager,graph,ours,ours_graph > $R/bench-sweep.log 2>&1
echo "bench sweep rc=$?"
rm -f $R/*/*.png
tar czf $OUT/call2.tgz -C $R .
python3 - $R/sweep/results.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["workload"], r["baseline"]): r for r in rows}
for w in dict.fromkeys(r["workload"] for r in rows):
    g = lambda b: float(t[w, b]["hot_us"]) if (w, b) in t else float("nan")
    print(f"{w:9s} eager {g('eager'):8.2f} graph {g('graph'):8.2f} ours {g('ours'):8.2f} "
          f"ours_graph {g('ours_graph'):8.2f} graph/ours_graph {g('graph')/g('ours_graph'):5.2f} "
          f"eager/ours {g('eager')/g('ours'):5.2f} bound {t[w,'ours_graph'].get('bound_us','')} "
          f"err {t[w,'ours_graph'].get('rel_err','')}")
PY
