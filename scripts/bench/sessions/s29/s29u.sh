#!/bin/bash
# Twenty-ninth session: why one small GEMM kernel of ours takes ~1 us more
# than cuBLAS's (onegemm.py): ncu's warp-state sampling of G7's up GEMM
# (.device/s29s/G7UP-64x64c1) and of cuBLAS's 128 x 768 x 768 linear.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
ncu --clock-control none --cache-control none --kernel-name regex:ff_ --launch-skip 5 --launch-count 1 \
  --section WarpStateStats --section LaunchStats --section Occupancy --metrics gpu__time_duration.sum,sm__cycles_active.max,smsp__inst_executed.sum \
  $ffrun .device/s29s/G7UP-64x64c1 --bench 1 2>&1 | grep -v "^==PROF==" | sed -n '/ff_/,$p' | grep -vE "^ *$|----" | head -60
cat > /tmp/lin.py <<'PY'
import torch, torch.nn.functional as F
x = torch.randn(128, 768, device="cuda").bfloat16()
w = torch.randn(768, 768, device="cuda").bfloat16()
for _ in range(10):
    F.linear(x, w)
torch.cuda.synchronize()
PY
ncu --clock-control none --cache-control none --launch-skip 5 --launch-count 1 \
  --section WarpStateStats --section LaunchStats --metrics gpu__time_duration.sum,sm__cycles_active.max,smsp__inst_executed.sum \
  python3 /tmp/lin.py 2>&1 | grep -v "^==PROF==" | sed -n '/(.*)x(.*)/,$p' | grep -vE "^ *$|----" | head -50
