#!/bin/bash
# Twenty-seventh session, first call. (1) The A-multicast GEMM hang of
# s26q/s26r with the full barrier's expect_tx fixed (every CTA receives the
# whole A tile, not its slice): the hand-set GEMM-4096-m128 cluster plans
# (.device/s27b, gemmhang.py and gemmhand.py here) and FFN
# clusters with multicast-a (.device/s27c), each --check'ed with a 20 s
# limit. (2) The wider single-GEMM family: the 6-12 best plans of every
# single GEMM under --dsm-search=wide-gemm-tiles (.device/s27a) against the
# default search's plan (.device/s27e, -def), side by side. (3) cuBLAS in a
# graph against the wide family's first choice (.device/s27d).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27e/GEMM-8192-def --bench 300 > /dev/null 2>&1
for b in .device/s27b/* .device/s27c/*; do
  timeout 20 $ffrun $b --check --bench 20 > $OUT/$(basename $b).txt 2>&1
  echo "MC $(basename $b) rc=$? $(grep RESULT $OUT/$(basename $b).txt | sed 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/rel_l2=\1 us=\2 \3/')"
done
RUN_TIMEOUT=30 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s27a .device/s27e > $OUT/ab.txt 2>&1
echo "ab rc=$?"
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/gemm --bundles .device/s27d --reps 100 --only GEMM --baselines graph,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
sed -n '/^| *workload/,$p' $OUT/ab.txt | head -20
grep -v "^#" $OUT/gemm/results.csv 2>/dev/null | head -20
