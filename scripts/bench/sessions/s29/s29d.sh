#!/bin/bash
# Twenty-ninth session: PDL with the second kernel's L2 weight prefetch
# before its wait. .device/s29d: compile-workloads.py --weight-layout nk,
# G1-G10 and S1-S8 --suffix=-pf (the default compiler), G4-G10 --suffix=-base
# (--lower-options programmatic-launch=false), plus s29b's G3/S -base and
# -pdl (PDL without the prefetch); .device/s29e/{base,pf,pdl}: the same
# bundles by workload name for bench.py.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p /tmp/pf && for b in .device/s29d/*-pf; do cp -r $b /tmp/pf/$(basename ${b%-pf}); done
python3 scripts/gpu/python_check.py /tmp/pf --m 128 > $OUT/python_check.log 2>&1; echo "python_check rc=$?"
grep -c "alternating.*PASS" $OUT/python_check.log; grep "FAIL" $OUT/python_check.log | head
compute-sanitizer --tool memcheck $ffrun .device/s29d/S1-pf --check 2>&1 | grep -E "ERROR SUMMARY|status=" | tail -2
compute-sanitizer --tool memcheck $ffrun .device/s29d/G7-pf --check 2>&1 | grep -E "ERROR SUMMARY|status=" | tail -2
ONLY='G3|G4|G5|G6|G7|G8|G9|G10|S' BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29d > $OUT/ab.log 2>&1; echo "ab rc=$?"
for v in base pf pdl base2 pf2; do
  python3 scripts/bench/bench.py --out $OUT/$v --bundles .device/s29e/${v%2} --reps 100 --only 'G3$,G4,G5$,G6,G7,G8,G9,G10,S1,S2,S3$,S4,S5,S6,S7,S8' --baselines ours_graph > $OUT/bench-$v.log 2>&1 || echo "bench $v failed"
  rm -f $OUT/$v/*.png $OUT/$v/README.md
done
sed -n '/^| workload/,$p' $OUT/ab.log
python3 - $OUT <<'PY'
import csv, sys, os
t = {}
for v in ("base", "pf", "pdl", "base2", "pf2"):
    for r in csv.DictReader(open(f"{sys.argv[1]}/{v}/results.csv")):
        t[r["workload"], v] = float(r["hot_us"])
ws = sorted({w for w, _ in t}, key=lambda w: (w[0], int(w[1:])))
print("ours_graph hot us: workload base base2 pdl pf pf2")
for w in ws:
    print(w, *(f"{t[w, v]:.2f}" if (w, v) in t else "-" for v in ("base", "base2", "pdl", "pf", "pf2")))
PY
