#!/bin/bash
# Sixty-first session, call 2 (.device/s61-b/tables.tar.xz: the 18 G/S
# dynamic-M tables for target=h200 with the 32-row bins and the split
# token-tile rule): the tables at M = 150, 180, 210 against PyTorch's
# CUDA-graph chains, merged and split gate/up; then ncu's DRAM and L2
# bytes of G5's two GEMMs at M = 200, ours (the table) and PyTorch's.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
mkdir -p /tmp/t && tar xJf .device/s61-b/tables.tar.xz -C /tmp/t || exit 1
MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y
q() { grep -E '^"[0-9]+"' | awk -F'","' '{if ($1 != id) {id = $1; printf "[%s] ", substr($5, 1, 48)} printf "%s=%s ", $13, $15} END {print ""}'; }
echo "ncu ours $(timeout 90 ncu --clock-control none --csv --metrics $MET -k regex:ff_ --launch-skip 4 -c 2 $ffrun /tmp/t/G5 --m 200 --bench 5 2>&1 | q)" > $OUT/ncu.txt
cat > /tmp/mm.py <<'PY'
import torch
import torch.nn.functional as F
a = torch.randn(200, 4096, device="cuda", dtype=torch.bfloat16)
w1 = torch.randn(16384, 4096, device="cuda", dtype=torch.bfloat16) / 64
w2 = torch.randn(4096, 16384, device="cuda", dtype=torch.bfloat16) / 128
for _ in range(4):
    F.gelu(a @ w1.t(), approximate="tanh") @ w2.t()
torch.cuda.synchronize()
torch.cuda.profiler.start()
F.gelu(a @ w1.t(), approximate="tanh") @ w2.t()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
PY
echo "ncu cublas $(timeout 120 ncu --clock-control none --csv --metrics $MET --profile-from-start off python3 /tmp/mm.py 2>&1 | q)" >> $OUT/ncu.txt
dyn_graph_bench /tmp/t 150,180,210 330
cat $OUT/ncu.txt
