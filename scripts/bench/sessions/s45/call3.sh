#!/bin/bash
# Forty-fifth session, call 3: snake rounds as landed (no division: the
# loop carries the round's parity; only kernels whose raster runs m tiles
# fastest, flipping only while one raster group holds every m tile), old
# (`-old`, HEAD 5ab41b8) against new (`-new`) on every bundle whose PTX
# the change moves (.device/s45-snake3): call 2's lines, and S2, S3, S5,
# S7 at M = 257, 384 (full tiles) and 448. Each line: the new bundle's
# check, then old, new, old, new (ff-run --bench 20 --graph), printed as it
# goes and kept in $OUT/call3.txt.
D=.device/s45-snake3 NAME=call3 \
  EXTRA="S7:257 S7:384 S7:448 S3:257 S3:448 S5:257 S5:448 S2:257 S2:448" \
  exec bash "$(dirname "$0")/call2.sh"
