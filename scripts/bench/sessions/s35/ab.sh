#!/bin/bash
# Thirty-fifth session, one GPU call: several bundle directories against a
# base, sets C, G and S, in one process per run. VARIANTS="name=dir ..."; the
# first is the base. CHECK="name ..." names the variants whose correctness is
# checked first (python_check.py on G and S: fp32 reference, poisoned
# outputs, alternating inputs, chained calls; ff-run --check on C). Then
# bench.py in CUDA graphs per set, every variant in turn, ROUNDS rounds;
# variants.py prints the table. $OUT keeps the check logs and one merged
# CSV (ab.csv).
set -u
VARIANTS=${VARIANTS:?VARIANTS=\"name=dir ...\"}
CHECK=${CHECK:-}
ROUNDS=${ROUNDS:-2}
# Seconds after which no further bench run starts, so the table still
# prints within the device's per-call limit.
DEADLINE=${DEADLINE:-500}
GS=${GS:-'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$,S1,S2,S3$,S4,S5,S6,S7,S8'}
SETS=${SETS:-"c gs"}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
rm -rf /tmp/o && mkdir -p /tmp/o && echo "$VARIANTS" > /tmp/o/variants
dir_of() { for v in $VARIANTS; do [ "${v%%=*}" = "$1" ] && echo "${v#*=}"; done; }
for name in $CHECK; do
  d=$(dir_of $name)
  rm -rf /tmp/gs && mkdir -p /tmp/gs
  for x in $d/[GS]*; do ln -sfn $PWD/$x /tmp/gs/$(basename $x); done
  python3 scripts/gpu/python_check.py /tmp/gs > $OUT/python_check-$name.log 2>&1
  echo "$name python_check rc=$? $(tail -1 $OUT/python_check-$name.log)"
  grep -E "FAIL" $OUT/python_check-$name.log | head -20
  for x in $d/C*; do
    echo "$(basename $x) $($ffrun $x --check 2>&1 | grep -oE 'status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
  done > $OUT/ffrun_check-$name.log
  echo "$name ff-run --check: $(grep -c status=PASS $OUT/ffrun_check-$name.log) PASS of $(wc -l < $OUT/ffrun_check-$name.log)"
done
first=$(dir_of ${VARIANTS%%=*})
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles $first --reps 20 --only 'C1-b1,C2-b1' --baselines graph,ours_graph > /dev/null 2>&1
for round in $(seq $ROUNDS); do
  for v in $VARIANTS; do
    name=${v%%=*} dir=${v#*=}
    for s in $SETS; do
      [ $SECONDS -lt $DEADLINE ] || { echo "$s $name $round skipped (deadline)"; continue; }
      only=$([ $s = c ] && echo C || echo "$GS")
      timeout 100 python3 scripts/bench/bench.py --out /tmp/o/$s-$name-$round --bundles $dir --reps 100 --only "$only" --baselines graph,ours_graph > /tmp/o/bench-$s-$name-$round.log 2>&1
      echo "$s $name $round rc=$?"
    done
  done
done
python3 scripts/bench/sessions/s35/variants.py /tmp/o --csv $OUT/ab.csv
