#!/bin/bash
# Sixty-fourth session, call 2: scripts/gpu/reliability.sh over every paper
# workload with the relaxed exit and exchange barriers (the known gap of
# docs/reliability.md): the standard static bundles (.device/s64-std: G,
# S at M = 128, C at batch 1 and 32, the G5/S3 M sweep (sanitizers up to
# M = 1024), the single GEMMs) and the injected-race control
# (.device/s64-race), with the runtime's GPU tests; call 3 the dynamic-M
# bundles (RELIABILITY_ROOTS, SAN_MS, SKIP_TESTS, CONTROLS). The counts
# per check and every row that did not pass last.
set -u
SAN_MAX_M=1024 JOBS=${JOBS:-8} TIMEOUT=${TIMEOUT:-150} bash scripts/gpu/reliability.sh \
  ${RELIABILITY_ROOTS:-.device/s64-std:.device/s64-race} /tmp/b > $OUT/reliability.txt 2>&1
echo "reliability rc=$?"
# Per check: rows by status; then every row that is not PASS, WARN or SKIP.
sed -n '/^bundle  *M  *check/,/^logs:/p' $OUT/reliability.txt | awk 'NR > 1 && NF >= 4 && $1 != "logs:" { n[$3" "$4]++ } END { for (k in n) print k, n[k] }' | sort
sed -n '/^bundle  *M  *check/,/^logs:/p' $OUT/reliability.txt | awk 'NR > 1 && NF >= 4 && $4 != "PASS" && $4 != "WARN" && $4 != "SKIP"' | head -40
tail -2 $OUT/reliability.txt
