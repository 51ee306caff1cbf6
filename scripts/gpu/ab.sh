#!/bin/bash
# Runs on the GPU machine: times variants of the same workloads side by side.
# Bundles are named WORKLOAD-VARIANT (compile-workloads.py --suffix=-VARIANT)
# and may lie in several directories; for every workload the variants run
# back to back (interleaved, so clock and thermal drift hit them alike), each
# with ff-run --check, and a table of medians per variant is printed last.
#
# usage: scripts/gpu/ab.sh BUILD_DIR DIR...
#   env: BENCH (timed batches, default 30), REPEAT (ff-run --repeat, default
#        0), CHECK=0 to time without the reference check, GRAPH=1 to time
#        replays of CUDA graphs of the batches (ff-run --graph), ONLY=REGEX to
#        run only the workloads whose name matches
# Exit status: 0 when every bundle ran and passed its check.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1; shift
. "$root/scripts/gpu/build-runtime.sh" "$root" "$build"

declare -A median status
variants=(); workloads=()
for dir in "$@"; do
  for m in "$dir"/*/manifest.json; do
    [ -f "$m" ] || continue
    b=$(basename "$(dirname "$m")")
    w=${b%-*}; v=${b##*-}
    [[ $w =~ ${ONLY:-.} ]] || continue
    [[ " ${workloads[*]} " == *" $w "* ]] || workloads+=("$w")
    [[ " ${variants[*]} " == *" $v "* ]] || variants+=("$v")
  done
done

fail=0
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2" | tail -1; }
for w in "${workloads[@]}"; do
  for v in "${variants[@]}"; do
    for dir in "$@"; do
      b=$dir/$w-$v
      [ -f "$b/manifest.json" ] || continue
      flags=(--bench "${BENCH:-30}")
      [ "${CHECK:-1}" = 0 ] || flags+=(--check)
      [ "${GRAPH:-0}" = 0 ] || flags+=(--graph)
      [ "${REPEAT:-0}" = 0 ] || flags+=(--repeat "$REPEAT")
      out=$(timeout "${RUN_TIMEOUT:-120}" "$ffrun" "$b" "${flags[@]}" 2>&1)
      rc=$?
      res=$(grep '^RESULT' <<<"$out")
      echo "== $w-$v rc=$rc $res"
      [ $rc = 0 ] || { fail=1; tail -3 <<<"$out"; }
      median[$w,$v]=$(field median_us "$res")
      status[$w,$v]=$([ $rc = 0 ] && echo "" || echo "!$rc")
    done
  done
done

echo
printf '| workload |'; printf ' %s µs |' "${variants[@]}"; echo
printf '|---|'; printf -- '---|%.0s' "${variants[@]}"; echo
for w in "${workloads[@]}"; do
  printf '| %s |' "$w"
  for v in "${variants[@]}"; do
    printf ' %s%s |' "${median[$w,$v]:--}" "${status[$w,$v]:-}"
  done
  echo
done
echo "(!N: ff-run exit status N; ff-run medians of batches of 10 launches)"
exit $fail
