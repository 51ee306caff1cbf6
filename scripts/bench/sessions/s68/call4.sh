#!/bin/bash
# Sixty-eighth session, call 4: bench.py's standard rows of .device/s68-std
# with the runtime before this session's host-path change (.device/s68-old:
# git archive 4d405e5 -- CMakeLists.txt include lib python test tools
# scripts/gpu) and after it (the working tree), in one lease: set G twice
# in alternation (old, new, old, new), then sets C and S once each, old
# then new. Each bench.py run times eager and PyTorch's CUDA-graph chain
# itself, so every ratio compares rows of one process.
set -u
. scripts/gpu/build-runtime.sh $PWD/.device/s68-old /tmp/bold > /tmp/build-old.log 2>&1 || { tail -30 /tmp/build-old.log; exit 1; }
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
B=.device/s68-std
G='G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$'
S='S1,S2,S3$,S4,S5,S6,S7,S8'
bench() { # label pythonpath lib only
  PYTHONPATH=$2 FLASHFUSER_RUNTIME_LIB=$3 timeout 200 python3 scripts/bench/bench.py \
    --out $OUT/$1 --bundles $B --reps 100 --only "$4" --baselines eager,graph,ours,ours_graph \
    > $OUT/$1.log 2>&1
  echo "$1 rc=$?"
}
old() { bench $1 $PWD/.device/s68-old/python /tmp/bold/lib/libffrt.so "$2"; }
new() { bench $1 $PWD/python /tmp/b/lib/libffrt.so "$2"; }
PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so timeout 60 python3 scripts/bench/bench.py \
  --out /tmp/warm --bundles $B --reps 20 --only 'G1$,G2$' --baselines eager,ours > /dev/null 2>&1
old g-old1 "$G"; new g-new1 "$G"; old g-old2 "$G"; new g-new2 "$G"
old c-old C; new c-new C
old s-old "$S"; new s-new "$S"
rm -f $OUT/*/*.png
for r in g-old1 g-new1 g-old2 g-new2; do echo "$r: $(python3 scripts/bench/ratios.py $OUT/$r/results.csv G | tr '\n' ' ')"; done
for r in c-old c-new; do echo "$r: $(python3 scripts/bench/ratios.py $OUT/$r/results.csv C | tr '\n' ' ')"; done
for r in s-old s-new; do echo "$r: $(python3 scripts/bench/ratios.py $OUT/$r/results.csv S | head -2 | tr '\n' ' ')"; done
grep -h "launch floor" $OUT/g-new1/README.md
python3 scripts/bench/targets.py $OUT/c-new/results.csv $OUT/s-new/results.csv $OUT/g-new2/results.csv 2>&1 | sed -n 3,16p
