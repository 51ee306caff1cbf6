#!/bin/bash
# Twenty-ninth session: where the small G chains' time goes. ncu
# (--clock-control none) per kernel of G1, G2, G6, G7, G9 (.device/s29p,
# the session's last compiler): duration, SM active cycles, DRAM and L2
# bytes; ff-run's per-call time beside it.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in G1 G2 G6 G7 G9; do
  echo "== $w $($ffrun .device/s29p/$w --bench 20 | grep -o 'median_us=[^ ]*')"
  ncu --clock-control none --kernel-name regex:ff_ --launch-skip 4 --launch-count 2 \
    --metrics gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.max,dram__bytes_read.sum,lts__t_bytes.sum,smsp__warps_launched.sum \
    $ffrun .device/s29p/$w --bench 1 2>&1 | grep -E "^  ff_|duration|cycles|bytes|warps_launched" | sed 's/  */ /g'
done
