#!/bin/bash
# Thirty-third session, after the review: the refactored GPU scripts rerun
# (python_check.py on G and S of .device/s33e; afternonkernel.py on G4;
# emptyprobe.py, now timing through bench.py's time_samples).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p /tmp/gs
for d in .device/s33e/[GS]*; do ln -sfn $PWD/$d /tmp/gs/$(basename $d); done
python3 scripts/gpu/python_check.py /tmp/gs > /tmp/pc.log 2>&1
echo "python_check rc=$? $(tail -1 /tmp/pc.log)"; grep -c "chained calls.*PASS" /tmp/pc.log; grep FAIL /tmp/pc.log | head
python3 scripts/bench/sessions/s33/afternonkernel.py .device/s33e/G4; echo "rc=$?"
python3 scripts/bench/sessions/s33/emptyprobe.py
