#!/bin/bash
# Seventieth session, call 7: do the small G chains' down GEMMs depend on
# their ring depth once their weights come from HBM? The sixty-ninth
# session's variants (.device/s69-st, stage_variants.py: 64 x 64 tiles
# over 4 on 4-8 stages, and other splits) ran their chains as fast at 4
# stages as at 8 when timed as repeated CUDA-graph replays, which keep
# 4-16 MB of weights in L2. Each bundle timed hot (ff-run --bench 20
# --graph) and cold (--bench 50 --graph --cold: each replay after a 256 MiB
# memset), twice in opposite orders; the medians' mean per bundle.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s69-st
tc() { timeout 60 $ffrun $1 --bench 50 --graph --cold | sed -n 's/^bench: median \([0-9.]*\).*/\1/p'; }
bundles=$(ls -d $D/* | sort)
for b in $bundles; do echo "$(basename $b) $(c $b) $(t $b) $(tc $b)"; done > /tmp/r1
for b in $(echo $bundles | tr ' ' '\n' | sort -r); do echo "$(basename $b) $(t $b) $(tc $b)"; done > /tmp/r2
cp /tmp/r1 /tmp/r2 $OUT/
echo "| bundle | check | hot us (r1, r2) | cold us (r1, r2) | hot / base | cold / base |"
echo "|---|---|---|---|---|---|"
python3 - <<'PY'
r1 = {l.split()[0]: l.split()[1:] for l in open("/tmp/r1")}
r2 = {l.split()[0]: l.split()[1:] for l in open("/tmp/r2")}
def mean(n, i):
    try:
        return (float(r1[n][1 + i]) + float(r2[n][i])) / 2
    except (ValueError, IndexError, KeyError):
        return float("nan")
for n in sorted(r1):
    base = n.split("-")[0] + "-base"
    h, c = mean(n, 0), mean(n, 1)
    print(f"| {n} | {r1[n][0]} | {r1[n][1]} {r2[n][0]} | {r1[n][2]} "
          f"{r2[n][1]} | {h / mean(base, 0):.3f} | {c / mean(base, 1):.3f} |")
PY
