#!/bin/bash
# Thirty-third session: programmatic launch of every kernel, a call's first
# included (--lower-to-nvvm="programmatic-entry=true"): .device/s33c-on
# against the default bundles .device/s33c-off (PTX byte-identical to
# .device/s32c and .device/s29y), sets C, G and S. python_check.py on G and
# S (fp32 reference, poisoned outputs, alternating inputs for sequences,
# four chained calls where the output has the input's shape), ff-run --check
# on C, then bench.py per set, off and on in turn, three rounds (the s33c-on run had two).
set -u
# ON=.device/s33d for the final rule (s33d: no entry wait where the weight has 16 MiB or more, one CTA per SM where the grid fits).
ON=${ON:-.device/s33c-on}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
mkdir -p /tmp/gs
for d in $ON/[GS]*; do ln -sfn $PWD/$d /tmp/gs/$(basename $d); done
python3 scripts/gpu/python_check.py /tmp/gs > $OUT/python_check.log 2>&1
echo "python_check rc=$? $(tail -1 $OUT/python_check.log)"; grep -E "FAIL|chained" $OUT/python_check.log | head -30
for d in $ON/C*; do
  echo "$(basename $d) $($ffrun $d --check 2>&1 | grep -oE 'status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
done
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles .device/s33c-off --reps 20 --only 'C1-b1,C2-b1' --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2 3; do
  for v in off on; do
    timeout 150 python3 scripts/bench/bench.py --out $OUT/c-$v-$round --bundles $([ $v = on ] && echo $ON || echo .device/s33c-off) --reps 100 --only C --baselines graph,ours,ours_graph > $OUT/bench-c-$v-$round.log 2>&1
    echo "C $v $round rc=$?"
    timeout 150 python3 scripts/bench/bench.py --out $OUT/gs-$v-$round --bundles $([ $v = on ] && echo $ON || echo .device/s33c-off) --reps 100 --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$,S1,S2,S3$,S4,S5,S6,S7,S8' --baselines graph,ours,ours_graph > $OUT/bench-gs-$v-$round.log 2>&1
    echo "GS $v $round rc=$?"
  done
done
rm -f $OUT/*/*.png
python3 - <<'PY'
import csv, os, math, glob
out = os.environ["OUT"]
t = {}
for p in glob.glob(out + "/*-o*-[123]/results.csv"):
    v = p.split("/")[-2].split("-")[1]
    for r in csv.DictReader(open(p)):
        t.setdefault(r["workload"], {}).setdefault((v, r["baseline"]), []).append(float(r["hot_us"]))
med = lambda xs: sorted(xs)[len(xs) // 2] if xs else float("nan")
geo = {}
for w, d in t.items():
    g = med(d.get(("off", "graph"), []) + d.get(("on", "graph"), []))
    row = [f"{w:8s} graph {g:7.2f}"]
    for b in ("ours_graph", "ours"):
        o, n = min(d.get(("off", b), [math.nan])), min(d.get(("on", b), [math.nan]))
        row.append(f"{b} off {o:7.2f} on {n:7.2f}")
        s = w[0]
        geo.setdefault((s, b, "off"), []).append(math.log(g / o) if b == "ours_graph" else math.log(o))
        geo.setdefault((s, b, "on"), []).append(math.log(g / n) if b == "ours_graph" else math.log(n))
    print(" | ".join(row))
for s in "CGS":
    for v in ("off", "on"):
        x = geo.get((s, "ours_graph", v))
        if x:
            print(s, v, f"graph/ours_graph geomean {math.exp(sum(x) / len(x)):.3f}")
PY
