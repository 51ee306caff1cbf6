#!/bin/bash
# Forty-third session, call 1: (a) gated GEMMs on 8-column wave widths,
# the S chains whose default plan changes, old (main at 519ecc1, `-old`)
# against new (`-new`), both compiled for the default target h100-sxm;
# (b) the target the search prices for, h100-sxm (`-new`) against h200
# (`-h200`), on the chains whose plans differ between the two. ff-run
# --check of every bundle, then --bench 20 --graph in two rounds (the
# second in reverse order); memcheck of two 8-column kernels.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s43-ab
A="S3 S5 S6 S7 S3-m16 S3-m64 S3-m256"; B="S1 G5 G5-m16 G5-m64"
for w in $A; do variants $D $w 0 old new h200; done > /tmp/r1
for w in $B; do variants $D $w 0 new h200; done >> /tmp/r1
for w in $A; do variants $D $w 0 h200 new old; done > /tmp/r2
for w in $B; do variants $D $w 0 h200 new; done >> /tmp/r2
for n in S3-new S6-new; do
  echo "memcheck $n: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/$n --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
done
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| chain | check old/new/h200 | old us | new us | h200 us | old/new | new/h200 |"; echo "|---|---|---|---|---|---|---|"
python3 - <<'PY'
r1 = {l.split()[0]: l.split()[2:] for l in open("/tmp/r1")}
r2 = {l.split()[0]: l.split()[2:] for l in open("/tmp/r2")}
def f(x):
    try: return float(x)
    except ValueError: return None
for w, a in r1.items():
    b = r2[w]
    if len(a) == 6:  # old new h200 checks, times; r2: h200 new old
        ck = "/".join(a[:3]); o, n, h = [(f(a[3 + i]) + f(b[5 - i])) / 2 if f(a[3 + i]) and f(b[5 - i]) else None for i in range(3)]
    else:            # new h200; r2: h200 new
        ck = "-/" + "/".join(a[:2]); o = None
        n, h = [(f(a[2 + i]) + f(b[3 - i])) / 2 if f(a[2 + i]) and f(b[3 - i]) else None for i in range(2)]
    s = lambda v: "-" if v is None else f"{v:.2f}"
    rat = lambda x, y: "-" if not x or not y else f"{x / y:.3f}"
    print(f"| {w} | {ck} | {s(o)} | {s(n)} | {s(h)} | {rat(o, n)} | {rat(n, h)} |")
PY
