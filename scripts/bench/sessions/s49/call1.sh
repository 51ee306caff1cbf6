#!/bin/bash
# Forty-ninth session, call 1 (.device/s49-a):
# 1. The idle-warpgroup skip (5e186f4) changed the 1-64 bins' first
#    kernels of the dynamic G8, S1, S2, S4-S7 tables untimed: old (the
#    compiler without it) against new at M = 16 and 64, --check'ed.
# 2. Where G5's up GEMM loses to cuBLAS at M = 1500 and 300: ncu (full set,
#    SASS source counters) of our first kernel and of F.linear's, the
#    hottest SASS instructions (sass_hot.py) and our kernel's SASS.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s49-a
S=scripts/bench/sessions/s49
mkdir -p $OUT
{
for w in G8d S1d S2d S4d S5d S6d S7d; do for m in 16 64; do ab_line $D old new $w $m; done; done
} 2>&1 | tee $OUT/ab.txt
prof() { # NAME M: ours and cuBLAS's up GEMM of G5 at M, full ncu set
  local name=$1 m=$2
  timeout 240 ncu --clock-control none --set full -k regex:ff_ffn_0_s0 -c 1 -f -o /tmp/ours-$name \
    $ffrun $D/dyn-G5-m$m > /tmp/ncu-ours-$name.log 2>&1 || tail -5 /tmp/ncu-ours-$name.log
  timeout 240 ncu --clock-control none --set full --profile-from-start off -c 1 -f -o /tmp/torch-$name \
    python3 $S/linear_once.py $m 16384 4096 > /tmp/ncu-torch-$name.log 2>&1 || tail -5 /tmp/ncu-torch-$name.log
  for who in ours torch; do
    ncu -i /tmp/$who-$name.ncu-rep --page details --csv > /tmp/$who-$name-details.csv 2>/dev/null
    ncu -i /tmp/$who-$name.ncu-rep --page source --csv --print-source sass > /tmp/$who-$name-source.csv 2>/tmp/src.err || head -3 /tmp/src.err
    echo "== $who $name"
    python3 - /tmp/$who-$name-details.csv <<'PY'
import csv, sys
want = ("Kernel Name", "Duration", "Grid Size", "Cluster Size", "Registers Per Thread",
        "Compute (SM) Throughput", "Memory Throughput", "L2 Cache Throughput",
        "DRAM Throughput", "L1/TEX Cache Throughput", "Achieved Occupancy",
        "Issue Slots Busy", "Dynamic Shared Memory Per Block", "SM Frequency", "L2 Hit Rate")
rows = list(csv.DictReader(open(sys.argv[1])))
seen = set()
for r in rows:
    n = r.get("Metric Name", "")
    if n in want and n not in seen:
        seen.add(n); print(f"  {n}: {r.get('Metric Value')} {r.get('Metric Unit','')}")
if rows: print("  kernel:", rows[0].get("Kernel Name", "")[:100])
PY
    python3 $S/sass_hot.py /tmp/$who-$name-source.csv 30 || true
  done
}
{
prof m1500 1500
prof m300 300
cuobjdump -sass $D/dyn-G5-m1500/ff_ffn_0_s0.cubin > /tmp/ours-m1500.sass 2>&1
} 2>&1 | tee $OUT/ncu.txt
tar czf $OUT/ncu-csv.tgz -C /tmp ours-m1500-details.csv torch-m1500-details.csv ours-m1500-source.csv torch-m1500-source.csv ours-m300-details.csv torch-m300-details.csv ours-m1500.sass 2>/dev/null
ls -la $OUT
cat $OUT/ab.txt
