#!/bin/bash
# Seventieth session, call 2: what call 1 found. (a) racecheck of each
# original bundle's first kernel alone (--kernel-name kns=ff_ffn_0_s0, 40 s limit), its
# full report, and the SASS of G5-m16's first kernel to place the hazard;
# (b) whether the stand-ins' racecheck hangs at random: each run three
# times (30 s limit); (c) whether they, or the originals, ever hang
# without the sanitizer (ff-run --repeat, 40 s limit); (d) synccheck of
# the stand-in whose racecheck hung. Outputs go into one tar file.
. scripts/bench/sessions/s70/race-lib.sh
for w in G5-m16 G5-m64 S3-m16 S3-m64; do
  san racecheck $w-orig-s0only 40 --kernel-name kns=ff_ffn_0_s0 $ffrun $d/$w-orig --m ${w#*-m}
done
cuobjdump -sass $d/G5-m16-orig/ff_ffn_0_s0.cubin > $o/G5-m16-s0.sass 2>&1
for i in 1 2 3; do
  san racecheck S3-m16-n2304k512l512-r$i 30 $ffrun $d/S3-m16-n2304k512l512 --m 16
  san racecheck G5-m16-n2048k512l512-r$i 30 $ffrun $d/G5-m16-n2048k512l512 --m 16
done
san synccheck S3-m16-n2304k512l512 60 $ffrun $d/S3-m16-n2304k512l512 --m 16
for b in S3-m16-n2304k512l512 G5-m16-n2048k512l512 G5-m16-orig S3-m16-orig; do
  start=$(date +%s)
  timeout 40 $ffrun $d/$b --m 16 --check --repeat 1000 > $o/repeat-$b.txt 2>&1
  rc=$?
  echo "| $b | ff-run --check --repeat 1000 | rc=$rc $(( $(date +%s) - start ))s | $(grep -h '^repeat:\|^recheck' $o/repeat-$b.txt | tr '\n' ' ' | cut -c1-160) |" >> $o/table.md
done
tar czf $OUT/call2.tgz -C $o .
cp $o/table.md $OUT/
cat $o/table.md
