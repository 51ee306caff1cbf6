# Sourced by the forty-first session's calls after
# scripts/gpu/build-runtime.sh (which sets $ffrun).
#   t NAME M VARIANT: ff-run --bench 20 --graph median (us) of $D/NAME-VARIANT
#   c NAME M VARIANT: PASS or FAIL of its --check
# M = 0 runs a static bundle at its own M.
t() { local mm=(); [ $2 != 0 ] && mm=(--m $2)
  timeout 60 $ffrun $D/$1-$3 "${mm[@]}" --bench 20 --graph | sed -n 's/^bench: median \([0-9.]*\).*/\1/p'; }
c() { local mm=(); [ $2 != 0 ] && mm=(--m $2)
  timeout 60 $ffrun $D/$1-$3 "${mm[@]}" --check 2>&1 | grep -oE "PASS|FAIL" | head -1; }
# The metrics ncu_metrics.py reads, and every stall reason per issued
# instruction this ncu knows.
ncu_metric_list() {
  local stalls
  stalls=$(ncu --query-metrics 2>/dev/null | grep -oE "^smsp__average_warps_issue_stalled_[a-z_]+_per_issue_active" | grep -v not_issued | sort -u | sed 's/$/.ratio/' | paste -sd,)
  echo "$(python3 scripts/bench/sessions/s41/ncu_metrics.py --list)${stalls:+,$stalls}"
}
