#!/bin/bash
# Thirty-seventh session, call 3: (1) ff-run --check (cuBLAS reference) of
# the dynamic bundles of dc3ce82 (.device/s37-new: compile-workloads.py
# --weight-layout nk --dynamic-m --only G5,S1,S3,G8; kernels identical to
# call 2's s37-rep) at M across their bins; (2) G1-G10 at M = 128
# (.device/s37-g, the same compiler) per call against eager and
# torch.compile (default mode) and in CUDA graphs, one bench.py run.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in G5 S1 S3 G8; do
  line="$w"
  for m in 1 129 300 513 1025 2049 5000; do
    line="$line M=$m:$(timeout 40 $ffrun .device/s37-new/$w --m $m --check 2>&1 | grep RESULT | sed -n 's/.*written=\([a-z]*\).*rel_l2=\([^ ]*\).*status=\([A-Z]*\).*/\1,\2,\3/p')"
  done
  echo "$line"
done | tee /tmp/check.txt
echo "check: $(grep -o PASS /tmp/check.txt | wc -l) PASS, $(grep -o FAIL /tmp/check.txt | wc -l) FAIL"
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 420 python3 scripts/bench/bench.py --out $OUT/g --bundles .device/s37-g --reps 100 --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$' --baselines eager,graph,compile,ours,ours_graph > $OUT/bench-g.log 2>&1
echo "bench G rc=$?"
rm -f $OUT/g/*.png
python3 scripts/bench/targets.py $OUT/g/results.csv 2>&1 | head -20
python3 scripts/bench/ratios.py $OUT/g/results.csv G
