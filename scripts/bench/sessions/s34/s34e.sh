#!/bin/bash
# Thirty-fourth session: the session's default bundles (.device/s34e:
# compile-workloads.py DIR --weight-layout nk --only C1-b1,...,S8 at the
# commit with weight-evict-first on; PTX byte-identical at the final commit)
# in the benchmark's standard rows, as ../s33/s33e.sh, then the issue's
# targets computed from them.
BUNDLES=.device/s34e bash scripts/bench/sessions/s33/s33e.sh
python3 scripts/bench/targets.py $OUT/c/results.csv $OUT/gs/results.csv 2>&1 | tail -30
