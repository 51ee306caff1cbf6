#!/bin/bash
# Forty-sixth session, call 1: (1) why S2 lost 4.6 % with approx-div
# (s45 call 6): SASS and resource usage of both gate|up kernels
# (.device/s45-ax/S2-old, S2-new), ncu durations of each kernel alone, and
# the A/B repeated; (2) S1-S8 at M = 128 with HEAD's defaults
# (.device/s46-b) against PyTorch's CUDA-graph chains (bench.py).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p $OUT
D=.device/s45-ax
for v in old new; do
  cuobjdump -sass $D/S2-$v/ff_gated_ffn_0_s0.cubin > $OUT/s2-$v.sass
  cuobjdump -res-usage $D/S2-$v/ff_gated_ffn_0_s0.cubin 2>&1 | grep -i "reg\|smem" | head -3
  timeout 120 ncu --clock-control none --csv --page raw \
    --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__grid_size,launch__block_size,smsp__cycles_active.avg,dram__bytes_read.sum \
    $ffrun $D/S2-$v > $OUT/ncu-s2-$v.csv 2> /tmp/ncu.err || tail -5 /tmp/ncu.err
  python3 - $OUT/ncu-s2-$v.csv $v <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"')))
for r in rows[1:]:
    print(sys.argv[2], r["Kernel Name"][-6:], " ".join(
        f"{k.split('__')[1]}={r[k]}" for k in r if "__" in k))
PY
done
ab_line $D old new S2 0 | tee $OUT/ab-s2.txt
bench_graphs .device/s46-b 'S1,S2,S3,S4,S5,S6,S7,S8' 300
