#!/bin/bash
# Forty-fourth session, call 4: (1) S7's dynamic bundle (.device/s43-dyn8,
# S7-new) across its 257-512 bin, ff-run in graphs, and ncu's kernel
# durations and DRAM/L2 bytes at M = 257 and 384 (one launch each: at
# 257 the chain ran 137 us, at 384 119, one grid for both); (2) S1-S8 and
# G1-G10 at M = 128 (.device/s44-b, the landing commit's defaults) against
# PyTorch's CUDA-graph chains, bench.py one process per set.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
S7=.device/s43-dyn8/S7-new
echo "S7 M scan (us): $(for m in 256 257 264 288 320 352 384 448 512; do echo -n "$m:$(t $S7 $m) "; done)"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for m in 257 384; do
  timeout 100 ncu --clock-control none --csv --page raw --metrics $M -k regex:ff_ \
    $ffrun $S7 --m $m > $OUT/ncu-s7-$m.csv 2> /tmp/ncu.err || tail -5 /tmp/ncu.err
  python3 - $OUT/ncu-s7-$m.csv $m <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
u = rows[0]
keys = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
        "lts__t_bytes.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed"]
for r in rows[1:]:
    print(f"ncu M={sys.argv[2]} {r['Kernel Name'][:28]} grid={r.get('Grid Size', '')} " +
          " ".join(f"{k.split('.')[0].split('__')[1]}={r[k]}{u[k]}" for k in keys))
PY
done
bench_graphs .device/s44-b 'S1,S2,S3,S4,S5,S6,S7,S8' 280
mv $OUT/results.csv $OUT/s-results.csv; mv $OUT/README.md $OUT/s-README.md
bench_graphs .device/s44-b 'G1,G2,G3,G4,G5,G6,G7,G8,G9,G10' 240
mv $OUT/results.csv $OUT/g-results.csv; mv $OUT/README.md $OUT/g-README.md
