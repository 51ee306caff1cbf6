#!/bin/bash
# Thirty-third session: the variants of s33b-variants.sh (.device/s33b),
# checked and timed by time-variants.sh (cuDNN's chain beside the defaults).
scripts/bench/sessions/s33/time-variants.sh .device/s33b .device/s32c C4-b32 graph,ours_graph
