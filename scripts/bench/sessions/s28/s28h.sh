#!/bin/bash
# Twenty-eighth session, eighth call: gated GEMMs with A multicast over a
# cluster of 2 along n (hand-set schedules; the lowering's refusal of gated
# GEMM clusters lifted for the experiment) against the same tiles without,
# S1, S2, S4, S6 at M = 128 (.device/s28h: <S>GG-c<cls_n>x<blk_m>x<blk_n>s<S>
# from gatedgemm.py's chains through ff-opt --lower-to-nvvm).
set -u
RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s28h > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -E "FAIL|error|!" $OUT/ab.log | head
tail -8 $OUT/ab.log
