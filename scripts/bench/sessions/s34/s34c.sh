#!/bin/bash
# Thirty-fourth session, one GPU call: the stream probe again (s34b.sh's
# probe output did not come back), then weight loads with an L2 evict-first
# policy (.device/s34-evict: --lower-to-nvvm="weight-evict-first=true")
# against the defaults, as s34a.sh.
nvcc -O3 -arch=sm_90a -o /tmp/sp scripts/bench/sessions/s34/streamprobe.cu -lcuda &&
  /tmp/sp 30 > $OUT/streamprobe.txt
ON=.device/s34-evict bash scripts/bench/sessions/s34/s34a.sh
