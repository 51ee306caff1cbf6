#!/bin/bash
# Twenty-eighth session, first call: gated FFNs (S1-S8) as kernel
# sequences, a gated GEMM kernel (act(x wg) * (x wu) -> bf16 c) then c wd,
# against the fused plans: ff-run --check and A/B timing (.device/s28b:
# S*-seq, copies of .device/s28a's S*, compile-workloads.py DIR
# --weight-layout nk --only S1,...,S8; .device/s28a: S*-fused, the same
# with --search-options sequences=false --suffix=-fused), memcheck on S1's
# sequence, then the S set in CUDA graphs against cuBLAS's chain.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
compute-sanitizer --tool memcheck --error-exitcode 9 $ffrun .device/s28b/S1-seq --check --bench 1 > $OUT/memcheck.log 2>&1
echo "memcheck S1-seq rc=$?"; tail -3 $OUT/memcheck.log
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s28b .device/s28a > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error" $OUT/ab.log | head -20
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/s --bundles .device/s28a --reps 100 --only 'S1,S2,S3,S4,S5,S6,S7,S8' --baselines eager,graph,ours,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/s/*.png
cut -d, -f1,7,8,9,12,13,14 $OUT/s/results.csv
tail -25 $OUT/ab.log
