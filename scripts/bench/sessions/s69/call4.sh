#!/bin/bash
# Sixty-ninth session, call 4: call 3 again with split-K rings cut to
# their slice's k steps (KernelPlan.cpp) on top of deepSplitK64:
# .device/s69-ab/W-new from .device/s69-gnew2, the G set compiled by this
# ff-opt (README).
exec bash scripts/bench/sessions/s69/ab_bench.sh .device/s69-gnew2
