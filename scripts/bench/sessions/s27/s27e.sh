#!/bin/bash
# Twenty-seventh session, fifth call: two-kernel sequence bundles (the
# runtime's new "intermediates" and same-bin kernel sequences) of G4, G5,
# G6, G8, assembled by scripts/bench/assemble-sequence.py from the fused
# bundles (.device/s27k) and the chains' two GEMMs at the search's ranks
# (.device/s27m: sessions/s27/twok.py .device/s27m gelu_tanh): -seq0 the
# model's first choices, -seqb the fastest of s27c.sh, -fused the fused
# kernels (.device/s27n), every one --check'ed; memcheck on G8-seq0; then
# the -seq0 bundles (.device/s27o, plain names) against cuBLAS in graphs.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s27n/G5-fused --bench 300 > /dev/null 2>&1
RUN_TIMEOUT=30 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s27n > $OUT/ab.txt 2>&1
echo "ab rc=$?"
compute-sanitizer --tool memcheck --error-exitcode 9 $ffrun .device/s27n/G8-seq0 --check --bench 1 > $OUT/memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -c 'ERROR SUMMARY: 0' $OUT/memcheck.txt)"
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 scripts/bench/bench.py --out $OUT/g --bundles .device/s27o --reps 100 --only 'G4,G5$,G6,G8' --baselines graph,ours,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/g/*.png
grep "RESULT" $OUT/ab.txt | sed 's/.*bundle=\([^ ]*\).*kernel=\([^ ]*\).*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\1 \3 \4 \5/'
sed -n '/^| workload/,$p' $OUT/ab.txt
cut -d, -f1,7,8,9,12,13 $OUT/g/results.csv
