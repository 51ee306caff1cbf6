#!/bin/bash
# Thirty-second session, on the machine with the compiler: the bundles
# s32b.sh times (.device/s32b). The three set-C workloads whose default
# plan changed once the search prices the streamed halo GEMM (two rings,
# B multicast along m): the new defaults (new: compile-workloads.py into
# .device/s32c) against the thirty-first session's (old: .device/s31c),
# and the new plans with conv-halo-gemm=false (nohalo: nine shifted
# boxes, same schedules).
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s32b && mkdir -p .device/s32b
PATH=$PWD/build/bin:$PATH python3 scripts/compile-workloads.py .device/s32c \
  --weight-layout nk --only C5-b1,C6-b1,C8-b32 --jobs 2 > /dev/null
for w in C5-b1 C6-b1 C8-b32; do
  cp -r .device/s31c/$w .device/s32b/$w-old
  cp -r .device/s32c/$w .device/s32b/$w-new
  python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search \
    --lower-to-nvvm="format=bin emit-bundle=.device/s32b/$w-nohalo conv-halo-gemm=false" -o /dev/null
done
