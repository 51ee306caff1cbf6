#!/bin/bash
# Forty-fourth session, call 7: the spread of S7's gate|up kernel over the
# SMs at M = 257 (partial last m tile) and 384 (full), one launch each
# under ncu (--clock-control none; .device/s44-z/S7-zero, the landed
# zeroing): the least, mean and most active cycles per SM, and L2 misses.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
mkdir -p $OUT
M=gpu__time_duration.sum,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.avg,lts__t_sectors_lookup_miss.sum,lts__t_sectors_lookup_hit.sum
for m in 257 384; do
  timeout 60 ncu --clock-control none --csv --page raw --metrics $M -k regex:ff_ \
    $ffrun .device/s44-z/S7-zero --m $m > $OUT/spread-$m.csv 2> /tmp/ncu.err || tail -3 /tmp/ncu.err
  grep -E '^"' $OUT/spread-$m.csv | python3 -c "
import csv, sys
rows = list(csv.reader(sys.stdin)); h = rows[0]
for r in rows[2:]:
    d = dict(zip(h, r)); print('M=$m', d['Kernel Name'][:22], ' '.join(f'{k}={d[k]}' for k in '$M'.split(',')))"
done
