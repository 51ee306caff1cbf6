#!/bin/bash
# Thirty-fourth session, one GPU call: a compiler option's bundles ($ON,
# default .device/s34-pair: paired-loads) against today's defaults ($OFF,
# .device/s34-off: byte-identical PTX to .device/s34-head, HEAD 61e2550's
# compiler), sets C, G and S. python_check.py on G and S of $ON (fp32
# reference, poisoned outputs, alternating inputs, chained calls), ff-run
# --check on C of $ON, then bench.py in CUDA graphs per set, off and on in
# turn, two rounds; offon.py prints the table. $OUT keeps the logs of the
# checks and one merged CSV (ab.csv).
set -u
ON=${ON:-.device/s34-pair}
OFF=${OFF:-.device/s34-off}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
rm -rf /tmp/gs /tmp/o && mkdir -p /tmp/gs /tmp/o
for d in $ON/[GS]*; do ln -sfn $PWD/$d /tmp/gs/$(basename $d); done
python3 scripts/gpu/python_check.py /tmp/gs > $OUT/python_check.log 2>&1
echo "python_check rc=$? $(tail -1 $OUT/python_check.log)"; grep -E "FAIL" $OUT/python_check.log | head -30
for d in $ON/C*; do
  echo "$(basename $d) $($ffrun $d --check 2>&1 | grep -oE 'status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
done > $OUT/ffrun_check.log
echo "ff-run --check: $(grep -c status=PASS $OUT/ffrun_check.log) PASS of $(wc -l < $OUT/ffrun_check.log)"
timeout 60 python3 scripts/bench/bench.py --out /tmp/warm --bundles $OFF --reps 20 --only 'C1-b1,C2-b1' --baselines graph,ours_graph > /dev/null 2>&1
for round in 1 2; do
  for v in off on; do
    dir=$([ $v = on ] && echo $ON || echo $OFF)
    timeout 100 python3 scripts/bench/bench.py --out /tmp/o/c-$v-$round --bundles $dir --reps 100 --only C --baselines graph,ours_graph > /tmp/o/bench-c-$v-$round.log 2>&1
    echo "C $v $round rc=$?"
    timeout 100 python3 scripts/bench/bench.py --out /tmp/o/gs-$v-$round --bundles $dir --reps 100 --only 'G1$,G2$,G3$,G4$,G5$,G6$,G7$,G8$,G9$,G10$,S1,S2,S3$,S4,S5,S6,S7,S8' --baselines graph,ours_graph > /tmp/o/bench-gs-$v-$round.log 2>&1
    echo "GS $v $round rc=$?"
  done
done
python3 scripts/bench/sessions/s34/offon.py /tmp/o --csv $OUT/ab.csv
