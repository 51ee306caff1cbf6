#!/bin/bash
# Fortieth session, call 1: is the package-vs-ff-run gap on S3-m256's
# sequence (158 vs 141 us) the clocks under sustained load? ff-run short
# (20 batches, ~30 ms) and long (2000 batches, ~3 s), the package's probe
# (seconds of graphs), ff-run short again; nvidia-smi samples SM clock,
# power, temperature and throttle reasons every 50 ms throughout (read only).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
B=.device/s39-s/S3-m256
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv,noheader -lms 50 > /tmp/smi.csv 2>&1 &
smi=$!
mark() { echo "MARK $(date +%H:%M:%S.%N | cut -c1-12) $1" >> /tmp/marks; }
sleep 1
mark idle; sleep 0.5
mark short1; $ffrun $B --bench 20 | grep bench:
mark long; $ffrun $B --bench 2000 | grep bench:
mark probe; timeout 150 python3 scripts/bench/sessions/s39/views_probe.py $B 2>&1 | tail -2
mark short2; $ffrun $B --bench 20 | grep bench:
mark sleep; sleep 3
mark short3; $ffrun $B --bench 20 | grep bench:
mark end
sleep 0.3; kill $smi
python3 scripts/bench/sessions/s40/smi_phases.py /tmp/marks /tmp/smi.csv
