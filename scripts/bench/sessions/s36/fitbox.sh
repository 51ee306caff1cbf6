#!/bin/bash
# Thirty-sixth session: A boxes fitted to M (fit-a-box). Bundles built by
# the commit's compiler: .device/s36-fit (compile-workloads.py DIR
# --weight-layout nk --only G5-m16,...,S3-m8192: the G5/S3 M sweep) and
# .device/s36-fitdyn (--dynamic-m --only G5,S1,S3,G8,G4,G2); the base
# .device/s36-sweep is the sweep before it. (1) ff-run --check of the
# dynamic bundles across their bins; (2) python_check.py (fp32 reference,
# poisoned outputs, alternating inputs, chained calls) on both sets;
# (3) compute-sanitizer memcheck, racecheck and synccheck on fitted
# kernels; (4) the sweep in CUDA graphs, base and fitted, two rounds.
# Everything but the table lands in one tarball.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
R=/tmp/r; mkdir -p $R
for w in G5 S1 S3 G8 G4 G2; do
  line="$w-dyn"
  for m in 1 7 17 64 65 100 128 129 300 1000; do
    out=$(timeout 60 $ffrun .device/s36-fitdyn/$w --m $m --check --bench 5 2>&1)
    line="$line | M=$m $(grep RESULT <<<"$out" | sed 's/.*written=\([a-z]*\).*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\1 \2 \3 \4/')"
  done
  echo "$line"
done > $R/dyn-check.log
echo "ff-run dyn: $(grep -o 'PASS' $R/dyn-check.log | wc -l) PASS, $(grep -o 'FAIL' $R/dyn-check.log | wc -l) FAIL"
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 200 python3 scripts/gpu/python_check.py .device/s36-fit > $R/python-static.log 2>&1
echo "python_check sweep rc=$? $(tail -1 $R/python-static.log)"
timeout 200 python3 scripts/gpu/python_check.py .device/s36-fitdyn --m 1,17,100,128,1000 > $R/python-dyn.log 2>&1
echo "python_check dyn rc=$? $(tail -1 $R/python-dyn.log)"
for spec in "s36-fit/G5-m16 16" "s36-fitdyn/S1 17" "s36-fitdyn/G8 100"; do
  set -- $spec
  for tool in memcheck racecheck synccheck; do
    echo "$tool $1 M=$2 $(timeout 120 compute-sanitizer --tool $tool $ffrun .device/$1 --m $2 --check 2>&1 | grep -oE 'ERROR SUMMARY.*|RACECHECK SUMMARY.*|status=[A-Z]+|written=[a-z]+' | tr '\n' ' ')"
  done
done | tee $R/sanitizer.log
SW='G5-m16,G5-m64,G5-m128,G5-m256,G5-m512,G5-m1024,G5-m4096,G5-m8192,S3-m16,S3-m64,S3-m128,S3-m256,S3-m512,S3-m1024,S3-m4096,S3-m8192'
mkdir -p /tmp/o && echo "base=.device/s36-sweep fit=.device/s36-fit" > /tmp/o/variants
for round in 1 2; do
  for v in base=.device/s36-sweep fit=.device/s36-fit; do
    timeout 150 python3 scripts/bench/bench.py --out /tmp/o/gs-${v%%=*}-$round --bundles ${v#*=} --reps 100 --only "$SW" --baselines graph,ours_graph > /tmp/o/bench-${v%%=*}-$round.log 2>&1
    echo "bench ${v%%=*} $round rc=$?"
  done
done
python3 scripts/bench/sessions/s35/variants.py /tmp/o --csv $R/ab.csv > $R/ab.txt
tar czf $OUT/fitbox.tgz -C $R .
cat $R/dyn-check.log | cut -c1-400
cat $R/ab.txt
