#!/bin/bash
# Twenty-eighth session, ninth call: the single-GEMM model's held-stage
# term (a consumer holds a ring stage only for its wgmmas' time, not a
# whole latency) against the model before it, on the sequences whose plans
# it changes (.device/s28i: compile-workloads.py DIR --weight-layout nk
# --only G1,...,G10,S1,...,S8 --suffix=-held; -old: copies of s28g.sh's
# bundles), --check'ed and timed side by side (interleaved).
set -u
ONLY='^(G3|G8|S2|S4|S7)$' RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s28i > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error" $OUT/ab.log | head
tail -8 $OUT/ab.log
