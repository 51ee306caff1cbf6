#!/bin/bash
# Twenty-sixth session: ncu of the short-M GEMM (GEMM-4096-m128, the
# model's plan) and of cuBLAS's kernel for the same GEMM (torch.mm).
# Bundles: .device/s26o.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy"
timeout 150 ncu --clock-control none --launch-skip 3 --launch-count 1 $S $ffrun .device/s26o/GEMM-4096-m128-r0 --bench 3 > $OUT/ncu-ours.txt 2>&1
echo "ncu ours rc=$?"
cat > /tmp/mm.py <<'PY'
import torch
a = torch.randn(128, 4096, device="cuda", dtype=torch.bfloat16)
w = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
for _ in range(10): torch.mm(a, w.t())
torch.cuda.synchronize()
PY
timeout 200 ncu --clock-control none --launch-skip 5 --launch-count 1 -k regex:'gemm|sm90|cutlass|xmma' $S python3 /tmp/mm.py > $OUT/ncu-cublas.txt 2>&1
echo "ncu cublas rc=$?"
for f in ours cublas; do
  echo "== $f"; grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Grid Size|Block Size|Registers Per|Dynamic Shared|Warp Cycles Per Issued|L2 Hit Rate|Achieved Occupancy|Cluster Size" $OUT/ncu-$f.txt | head -20
done
