#!/bin/bash
# Thirty-fourth session, one GPU call: the stream probe (streamprobe.cu;
# consumers that hold a stage until the next landed and spend 250 ns on it)
# then paired loads on deep rings only (.device/s34-pair6:
# --lower-to-nvvm="paired-loads-min-stages=6") against the defaults, as
# s34a.sh.
nvcc -O3 -arch=sm_90a -o /tmp/sp scripts/bench/sessions/s34/streamprobe.cu -lcuda &&
  /tmp/sp 30 > $OUT/streamprobe.txt
ON=.device/s34-pair6 bash scripts/bench/sessions/s34/s34a.sh
