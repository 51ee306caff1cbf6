#!/bin/bash
# Fortieth session, call 11: the nine default plans that 192-wide and
# partial last n tiles change (.device/s40-ab: WORKLOAD-old at the previous
# rule, WORKLOAD-new with it), checked and timed by ab.sh, then timed again
# without the check (two interleaved rounds).
set -u
BENCH=20 RUN_TIMEOUT=120 scripts/gpu/ab.sh /tmp/b .device/s40-ab 2>&1 | grep -E "^==.*(FAIL|rc=[1-9])|^\|" 
CHECK=0 BENCH=20 RUN_TIMEOUT=120 scripts/gpu/ab.sh /tmp/b .device/s40-ab 2>&1 | grep -E "^\|"
