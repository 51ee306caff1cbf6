#!/bin/bash
# Thirty-third session: is a cached call cheaper, as bench.py times a call
# (events around each call, all queued), as a direct launch from the C fast
# path (graphs=False: ffrt_launch with the prebuilt array) than as the
# replay of its CUDA graph? Empty PyTorch kernel vs empty graph replay
# first, then sets C (.device/s32c) and G (.device/s29y) per call:
# eager, ours (graph replays), ours_direct (direct launches).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
python3 -c "from flashfuser import _runtime; print(_runtime.fastcall_status())"
python3 scripts/bench/sessions/s33/emptyprobe.py
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s32c --reps 20 --only 'C1-b1,C2-b1' --baselines eager,ours > /dev/null 2>&1
timeout 300 python3 scripts/bench/bench.py --out $OUT/c --bundles .device/s32c --reps 100 --only C --baselines eager,ours,ours_direct > $OUT/bench-c.log 2>&1
echo "bench C rc=$?"
timeout 200 python3 scripts/bench/bench.py --out $OUT/g --bundles .device/s29y --reps 100 --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$' --baselines eager,ours,ours_direct > $OUT/bench-g.log 2>&1
echo "bench G rc=$?"
rm -f $OUT/*/*.png
python3 - <<'PY'
import csv, os, math
for s in ("c", "g"):
    p = os.environ["OUT"] + f"/{s}/results.csv"
    if not os.path.exists(p):
        print(s, "no results"); continue
    t = {}
    for r in csv.DictReader(open(p)):
        t.setdefault(r["workload"], {})[r["baseline"]] = float(r["hot_us"])
    lg = {"ours": [], "ours_direct": []}
    for w, d in t.items():
        print(f"{w:8s} eager {d.get('eager', 0):7.2f} ours {d.get('ours', 0):7.2f} direct {d.get('ours_direct', 0):7.2f}")
        for b in lg:
            if b in d and "eager" in d:
                lg[b].append(math.log(d["eager"] / d[b]))
    for b, v in lg.items():
        if v:
            print(s, b, f"geomean eager/{b} {math.exp(sum(v) / len(v)):.3f}")
PY
