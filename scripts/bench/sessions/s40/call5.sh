#!/bin/bash
# Fortieth session, call 5: bench.py's power columns from NVML (clocks.py's
# Monitor) on S3 at M = 256 and 512 and S8 (.device/s39-s), after a probe of
# the monitor over an idle second and 2 s of back-to-back 8192^3 matmuls.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 - <<'PY'
import sys, time, torch
sys.path.insert(0, "scripts/bench")
import clocks
m = clocks.Monitor(str(torch.cuda.get_device_properties(0).uuid))
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
print("first reading", m.read())
s = m.read(); time.sleep(1); print("idle 1 s", clocks.summarize([(s, m.read())]))
for i in range(4):
    s = m.read(); t = time.perf_counter()
    while time.perf_counter() - t < 0.5:
        for _ in range(20):
            a @ a
        torch.cuda.synchronize()
    print(f"matmul 0.5 s #{i}", clocks.summarize([(s, m.read())]))
PY
timeout 400 python3 scripts/bench/bench.py --out /tmp/c5 --bundles .device/s39-s \
  --only 'S3-m256,S3-m512,S8' --baselines eager,graph,graph_split,ours,ours_graph \
  > /tmp/c5.log 2>&1 || tail -20 /tmp/c5.log
head -1 /tmp/c5.log; grep "Ceilings" /tmp/c5/README.md
mkdir -p $OUT && cp /tmp/c5/results.csv $OUT/ 2>/dev/null
sed -n '/^| workload/,$p' /tmp/c5/README.md | cut -d'|' -f2,3,5,9,11-13
