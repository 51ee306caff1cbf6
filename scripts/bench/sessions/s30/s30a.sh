#!/bin/bash
# Thirtieth session: the per-call path in C (_ffrt_fastcall). The runtime
# and the module built here; the Python tests (GPU ones included);
# python_check.py on sets G and S (.device/s29y, unchanged compiler); the
# host time per call with and without the module (percall.py); then bench.py
# per call and in graphs with ours (C path) and ours_py (Python path) side
# by side.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
ls $ff_build/lib
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 -c "from flashfuser import _runtime; print(_runtime.fastcall_status())"
python3 -m pytest -q -x python/tests > $OUT/pytest.log 2>&1; echo "pytest rc=$?"; tail -3 $OUT/pytest.log
mkdir -p /tmp/static
for b in .device/s29y/*; do case $b in *-dyn) ;; *) cp -r $b /tmp/static/;; esac; done
python3 scripts/gpu/python_check.py /tmp/static --m 128 > $OUT/check.log 2>&1; echo "python_check rc=$?"; tail -2 $OUT/check.log
python3 scripts/bench/sessions/s30/percall.py .device/s29y/G1 2>&1 | tee $OUT/percall.log
# A short warm-up run first (the first workload on a fresh machine can run
# disturbed), then the run kept.
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s29y --reps 20 --only 'G1,G2' --baselines eager,ours,ours_py > /dev/null 2>&1
timeout 330 python3 scripts/bench/bench.py --out $OUT/gs --bundles .device/s29y --reps 100 --only 'G1,G2,G3,G4,G5$,G6,G7$,G8$,G9,G10,S1$,S2,S3$,S4,S5,S6,S7,S8' --baselines eager,graph,ours,ours_py,ours_graph > $OUT/bench.log 2>&1
echo "bench rc=$?"
rm -f $OUT/gs/*.png
python3 scripts/bench/ratios.py $OUT/gs/results.csv
