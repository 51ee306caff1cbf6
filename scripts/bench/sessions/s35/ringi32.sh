#!/bin/bash
# Thirty-fifth session, one GPU call: ring slot and phase in 32-bit
# arithmetic. The single-GEMM ranks of gemmranks.py before
# (.device/s35-gemm) and after (.device/s35-gemm-i32), onegemm.py each;
# then the workloads' bundles (.device/s35-i32) against the session's
# defaults (.device/s35-er) as ab.sh, with the checks on the new ones.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for d in .device/s35-gemm .device/s35-gemm-i32; do
  echo "== $d"
  timeout 120 python3 scripts/bench/sessions/s35/onegemm.py $d 2>&1 | tee $OUT/onegemm-$(basename $d).txt | grep -v "^$"
done > /tmp/onegemm.log
VARIANTS="er=.device/s35-er i32=.device/s35-i32" CHECK="i32" DEADLINE=420 bash scripts/bench/sessions/s35/ab.sh
python3 - <<'PY'
# Side by side: the same rank before and after.
import re
rows = {}
for f, v in (("s35-gemm", 0), ("s35-gemm-i32", 1)):
    for line in open(f"{__import__('os').environ['OUT']}/onegemm-{f}.txt"):
        m = re.match(r"(\S+)\s+(r\d+)\s+(\S+)\s+cluster (\S+)\s+stages (\d+).*ours\s+([\d.]+) us", line)
        if m:
            rows.setdefault((m[1], int(m[2][1:])), [m[3], m[4], m[5], None, None])[3 + v] = float(m[6])
for (w, r), (blk, cl, st, a, b) in sorted(rows.items()):
    print(f"{w:6} r{r:<3} {blk:14} {cl:8} stages {st}  {a:7.2f} -> {b:7.2f} us ({b / a:5.3f})")
PY
