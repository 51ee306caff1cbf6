#!/bin/bash
# Twenty-sixth session: the model's ranking for the short-M GEMM
# GEMM-4096-m128 (ranks 0-9 and more plans of other shapes), two passes
# with --check, and cuBLAS's time for the same GEMM (torch.mm, events).
# Bundles: .device/s26o.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26o/GEMM-4096-m128-r0 --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26o > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS" | head
  tail -n 4 $OUT/ab$pass.txt
done
python3 - <<'PY'
import torch, statistics
a = torch.randn(128, 4096, device="cuda", dtype=torch.bfloat16)
w = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
f = lambda: torch.mm(a, w.t())
for _ in range(20): f()
torch.cuda.synchronize()
ts = []
for _ in range(200):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e) * 1e3)
print("cuBLAS torch.mm 128x4096x4096 (nk weight) median us", round(statistics.median(ts), 2))
PY
