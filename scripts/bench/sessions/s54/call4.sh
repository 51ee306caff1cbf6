#!/bin/bash
# Fifty-fourth session, call 4 (.device/s54-c, call 3's tables): where the
# dynamic tables trail PyTorch at M = 600-930, each kernel's time under
# ncu (--clock-control none, --cache-control none) for ours (ff-run, three
# runs) and PyTorch's chain (merged; split gate/up for S), one line per
# kernel with the median over its launches.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s54-c
S=scripts/bench/sessions/s54
mkdir -p $OUT
for wm in G5:600 G8:600 G6:600 G5:800 S3:600 S1:930 G4:600 G9:600; do
  w=${wm%:*} m=${wm#*:}
  ncu_dur "$w-$m ours" $ffrun $D/$w --m $m --bench 3
  ncu_dur "$w-$m torch" --profile-from-start off python3 $S/chain_once.py $w $m
  [ "${w:0:1}" = S ] && ncu_dur "$w-$m split" --profile-from-start off python3 $S/chain_once.py $w $m split
done > $OUT/ncu.txt 2>&1
python3 - $OUT/ncu.txt <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
order = []
for l in open(sys.argv[1]):
    f = l.rsplit(None, 1)
    if len(f) != 2:
        continue
    key = f[0]
    if key not in d:
        order.append(key)
    try:
        d[key].append(float(f[1]))
    except ValueError:
        pass
for k in order:
    print(f"{k}  {statistics.median(d[k]):.2f} us  (x{len(d[k])})")
PY
