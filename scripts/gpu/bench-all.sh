#!/bin/bash
# The performance issue's whole benchmark on a GPU machine, in one command:
# every set side by side with its baselines (scripts/bench/bench.py, one
# process per set, so compare rows within a set), the ncu DRAM bytes of
# G1-G10 and S1-S8, and the targets computed from the results
# (scripts/bench/targets.py), printed last.
#
# usage: scripts/gpu/bench-all.sh BUNDLES OUT
#   BUNDLES: compiled on a machine with ff-opt by
#     python3 scripts/compile-workloads.py BUNDLES --weight-layout nk \
#       --single-gemms --anchors
#   OUT: OUT/<set>/{results.csv,README.md,*.png}, OUT/<set>.log,
#     OUT/dram-bytes.csv, OUT/targets.md
#   env: SETS (default "g s c gemm dram"; "dyn" adds the dynamic-M sweep),
#     REPS (bench.py --reps, default 100), BUILD (the runtime's build
#     directory, default /tmp/ff-bench), DYN (for "dyn": the dynamic-M
#     bundles of compile-workloads.py --dynamic-m)
# Exit status: 0 when every step ran (targets may be missed), else 1.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -ne 2 ]; then
  echo "usage: scripts/gpu/bench-all.sh BUNDLES OUT" >&2
  exit 2
fi
bundles=$(cd "$1" && pwd) || exit 2
out=$2
mkdir -p "$out"
. "$root/scripts/gpu/build-runtime.sh" "$root" "${BUILD:-/tmp/ff-bench}"
export PYTHONPATH="$root/python" \
  FLASHFUSER_RUNTIME_LIB="$ff_build/lib/libffrt.so" \
  TORCHINDUCTOR_COMPILE_THREADS=1

fail=0
step() { # NAME CMD...: runs CMD with its output in OUT/NAME.log
  local name=$1; shift
  local t0=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "== $name: rc=$rc, $((SECONDS - t0)) s"
  [ $rc = 0 ] || { fail=1; tail -5 "$out/$name.log"; }
}
bench() { # SET ARGS...
  local name=$1; shift
  step "$name" python3 "$root/scripts/bench/bench.py" --out "$out/$name" \
    --bundles "$bundles" --reps "${REPS:-100}" "$@"
}
all="eager,graph,ours,ours_direct,ours_graph,ours_auto,ours_auto_graph"
for s in ${SETS:-g s c gemm dram}; do
  case $s in
    g) bench g --only 'G1,G2,G3,G4,G5$,G6,G7,G8,G9' --baselines "compile,$all" ;;
    s) bench s --only 'S1,S2,S3$,S4,S5,S6,S7,S8' --baselines "compile,$all" ;;
    c) bench c --only 'C,G5-m,S3-m' --baselines "$all" ;;
    gemm) bench gemm --only 'GEMM,T3,T4' --baselines eager,graph,ours,ours_graph ;;
    dyn) [ -n "${DYN:-}" ] || {
           echo "bench-all: set dyn needs DYN (compile-workloads.py --dynamic-m bundles)" >&2
           exit 2; }
         step dyn python3 "$root/scripts/bench/bench.py" --out "$out/dyn" \
           --dynamic "$(cd "$DYN" && pwd)" --reps "${REPS:-100}" --only dyn- \
           --baselines graph,graph_split,ours_dyn,ours_dyn_graph ;;
    dram) step dram python3 "$root/scripts/bench/dram_bytes.py" \
            --bundles "$bundles" --out "$out/dram-bytes.csv" \
            --only 'G1,G2,G3,G4,G5$,G6,G7,G8,G9,S1,S2,S3$,S4,S5,S6,S7,S8' ;;
    *) echo "bench-all: unknown set '$s'" >&2; exit 2 ;;
  esac
done

csvs=()
for s in g s c gemm; do
  [ -f "$out/$s/results.csv" ] && csvs+=("$out/$s/results.csv")
done
# The dynamic-M sweep's table (G1-G10 and S1-S8 at M = 300, 800, 1500).
if [ -f "$out/dyn/results.csv" ]; then
  python3 "$root/scripts/bench/dyn_sweep_table.py" "$out/dyn/results.csv" \
    > "$out/dyn-sweep.txt" && cat "$out/dyn-sweep.txt" || fail=1
fi
if [ ${#csvs[@]} -gt 0 ]; then
  python3 "$root/scripts/bench/targets.py" "${csvs[@]}" --out "$out/targets.md" \
    || fail=1
elif [ ! -f "$out/dyn/results.csv" ]; then
  echo "bench-all: no results" >&2
  exit 1
fi
exit $fail
