#!/bin/bash
# Thirty-fourth session, one GPU call: the variants of s34d-variants.sh
# (.device/s34d: S1, S7, G8 with a six-stage down GEMM and/or paired loads),
# checked and timed by ../s33/time-variants.sh; then the session's default
# bundles (.device/s34e: weight-evict-first where the call's weights exceed
# L2) against HEAD's (.device/s34-off), as s34a.sh.
OUT=/tmp/tv scripts/bench/sessions/s33/time-variants.sh .device/s34d /tmp/none S8 graph
ON=.device/s34e bash scripts/bench/sessions/s34/s34a.sh
