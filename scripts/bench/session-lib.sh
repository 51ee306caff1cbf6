# Helpers of the session drivers (scripts/bench/sessions/s42 on), sourced
# after scripts/gpu/build-runtime.sh (which sets $ffrun).
#   t DIR [M]: ff-run --bench 20 --graph median (us) of bundle DIR (at M)
#   c DIR [M]: PASS or FAIL of its --check (fp32 reference, fresh random data)
# Without M (or M = 0) a static bundle runs at its own M.
mflag() { [ "${1:-0}" != 0 ] && echo "--m $1"; }
t() { timeout 60 $ffrun $1 $(mflag ${2:-0}) --bench 20 --graph | sed -n 's/^bench: median \([0-9.]*\).*/\1/p'; }
c() { timeout 60 $ffrun $1 $(mflag ${2:-0}) --check 2>&1 | grep -oE "PASS|FAIL" | head -1; }
# variants DIR W M V...: one line "W M check(V)... us(V)..." for bundles
# DIR/W-V, each checked, then each timed, in the order given (A/B rounds:
# call it again with the variants reversed).
variants() { local d=$1 w=$2 m=$3 v out=""; shift 3
  for v in "$@"; do out="$out $(c $d/$w-$v $m)"; done
  for v in "$@"; do out="$out $(t $d/$w-$v $m)"; done
  echo "$w $m$out"
}
# ab_pair DIR A B RUN...: two variants A and B of each RUN ("W M": bundles
# DIR/W-A and DIR/W-B at M), A first, then B first (variants); the rounds
# in $OUT/r1, r2 and a table of both with A/B last.
ab_pair() { local d=$1 a=$2 b=$3 r; shift 3
  for r in "$@"; do variants $d $r $a $b; done > /tmp/r1
  for r in "$@"; do variants $d $r $b $a; done > /tmp/r2
  mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
  echo "| chain | M | check $a/$b | $a us (r1, r2) | $b us (r1, r2) | $a/$b |"; echo "|---|---|---|---|---|---|"
  paste -d' ' /tmp/r1 /tmp/r2 | while read w m ca cb a1 b1 w2 m2 cb2 ca2 b2 a2; do
    echo "| $w | $m | $ca/$cb | $a1 $a2 | $b1 $b2 | $(python3 -c "print(f'{($a1+$a2)/($b1+$b2):.3f}')" 2>/dev/null) |"
  done
}
# ab_line DIR A B W M: one line "W M check-B ... A us B us A us B us" for
# bundles DIR/W-A and DIR/W-B at M (0: a static bundle's own), B checked
# first; printed as it is measured, unlike ab_pair.
ab_line() { local d=$1 a=$2 b=$3 w=$4 m=$5
  echo "$w $m check-$b $(c $d/$w-$b $m) $a $(t $d/$w-$a $m) $b $(t $d/$w-$b $m) $a $(t $d/$w-$a $m) $b $(t $d/$w-$b $m)"
}
# ab_both DIR A B W M: ab_line in both orders (A first, then B first).
ab_both() { ab_line "$1" "$2" "$3" "$4" "$5"; ab_line "$1" "$3" "$2" "$4" "$5"; }
# ab_rows FILE COL2 CHECK1 CHECK2: ab_both's lines paired into one row
# each: the chain, field COL2 of the first line, the checks in fields
# CHECK1 and CHECK2 (field 4: B's, checked first in the A-first line; 16:
# A's, in the B-first line), A's and B's four times and A/B over the four.
ab_rows() {
  paste -d' ' <(sed -n 'p;n' "$1") <(sed -n 'n;p' "$1") | awk -v c2="$2" -v k1="$3" -v k2="$4" '{printf "| %s | %s | %s/%s | %s %s %s %s | %s %s %s %s | %.3f |\n", $1, $c2, $k1, $k2, $6, $10, $20, $24, $8, $12, $18, $22, ($6+$10+$20+$24)/($8+$12+$18+$22)}'
}
# ab_table FILE: ab_both's lines as one row per chain: B's name, both
# checks (B's, A's), A's and B's four times and A/B over the four.
ab_table() {
  echo "| chain | variant | check | base us (4 runs) | variant us (4 runs) | base / variant |"
  echo "|---|---|---|---|---|---|"
  ab_rows "$1" 7 4 16
}
# ab_m_table FILE: ab_both's lines (A = old, B = new) as one row per chain
# and M: both checks (old's, new's), old's and new's four times and
# old/new over the four.
ab_m_table() {
  echo "| chain | M | check old/new | old us (4 runs) | new us (4 runs) | old / new |"
  echo "|---|---|---|---|---|---|"
  ab_rows "$1" 2 16 4
}
# memcheck DIR [M]: compute-sanitizer memcheck's summary of bundle DIR's
# --check (at M) on one line.
memcheck() {
  echo "memcheck $1${2:+ at M = $2}: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $1 $(mflag ${2:-0}) --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
}
# widths_table DIR NAME...: every bundle in DIR checked and timed, then
# timed again in reverse order; memcheck on the bundles NAME...; the table
# last.
widths_table() { local D=$1 n; shift
  ls $D > /tmp/names
  for n in $(cat /tmp/names); do echo "$n $(c $D/$n) $(t $D/$n)"; done > /tmp/r1
  for n in $(tac /tmp/names); do echo "$n $(t $D/$n)"; done > /tmp/r2
  for n in "$@"; do memcheck $D/$n; done
  mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
  echo "| bundle | check | us (r1, r2) |"; echo "|---|---|---|"
  while read n ck t1; do echo "| $n | $ck | $t1 $(grep "^$n " /tmp/r2 | cut -d' ' -f2) |"; done < /tmp/r1
}
# bench_graphs DIR ONLY TIMEOUT: bench.py on workloads ONLY of bundles DIR
# against PyTorch's CUDA-graph chains, merged and split, within TIMEOUT
# seconds; the ceilings and the rows last. Needs $ff_build.
bench_graphs() {
  export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
  timeout $3 python3 scripts/bench/bench.py --out /tmp/bg --bundles $1 \
    --only "$2" --baselines graph,graph_split,ours_graph > /tmp/bg.log 2>&1 || tail -20 /tmp/bg.log
  mkdir -p $OUT && cp /tmp/bg/results.csv /tmp/bg/README.md $OUT/ 2>/dev/null
  grep "Ceilings" /tmp/bg/README.md
  sed -n '/^| workload/,$p' /tmp/bg/README.md | cut -d'|' -f2,3,5,9,10,12,13
}
# dyn_sweep DYN [EXACT]: bench.py's dynamic-M sweep (G1-G10 and S1-S8 at
# workloads.DYNAMIC_SWEEP_M) of the dynamic-M bundles DYN, and with EXACT
# the bundles compiled for each M (compile-workloads.py --dynamic-sweep),
# against PyTorch's CUDA-graph chains, one process per set; results in
# $OUT/{S,G}; dyn_sweep_table.py's table last. Needs $ff_build.
dyn_sweep() { local set base
  export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
  base=graph,graph_split,ours_dyn,ours_dyn_graph
  mkdir -p $OUT
  for set in S G; do
    timeout 280 python3 scripts/bench/bench.py --out $OUT/$set --dynamic $1 \
      ${2:+--bundles $2} --reps 100 --only dyn-$set \
      --baselines $base${2:+,ours,ours_graph} > $OUT/bench-$set.log 2>&1
    echo "bench $set rc=$?"
    grep -E "skipped|rror|FAIL" $OUT/bench-$set.log | head
  done
  rm -f $OUT/*/*.png
  python3 scripts/bench/dyn_sweep_table.py $OUT/S/results.csv $OUT/G/results.csv
}
# graph_table CSV: bench.py's results.csv as one row per chain, ours in a
# graph against PyTorch's CUDA-graph chains (merged, and split gate/up for
# S), the best of them over ours last.
graph_table() {
  python3 - $1 <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
by = collections.defaultdict(dict)
for r in rows:
    by[r["workload"]][r["baseline"]] = float(r["hot_us"])
print("| chain | PyTorch graph | graph split | ours in a graph | best PyTorch / ours |")
print("|---|---|---|---|---|")
for w, b in by.items():
    best = min(v for k, v in b.items() if k.startswith("graph"))
    print(f"| {w} | {b.get('graph','')} | {b.get('graph_split','')} | {b.get('ours_graph','')} | {best / b['ours_graph']:.3f} |")
PY
}
# dyn_graph_table CSV: bench.py --dynamic's results.csv as one row per
# point (PyTorch's merged and split CUDA-graph chains, ours per call with
# its rel err, ours in a graph, the best PyTorch over ours in a graph) and
# the geomean last.
dyn_graph_table() {
  python3 - $1 <<'PY'
import csv, sys, collections, math
by = collections.defaultdict(dict)
err = {}
for r in csv.DictReader(open(sys.argv[1])):
    by[r["workload"]][r["baseline"]] = float(r["hot_us"])
    if r["baseline"] == "ours_dyn":
        err[r["workload"]] = r["rel_err"]
print("| workload | graph us | graph_split us | ours_dyn us (rel err) | ours_dyn_graph us | best PyTorch / ours graph |")
print("|---|---|---|---|---|---|")
logs = []
for w, b in by.items():
    best = min(b.get("graph", 1e30), b.get("graph_split", 1e30))
    r = best / b["ours_dyn_graph"]
    logs.append(math.log(r))
    print(f"| {w} | {b.get('graph')} | {b.get('graph_split')} | {b.get('ours_dyn')} ({err.get(w)}) | {b['ours_dyn_graph']} | {r:.3f} |")
print(f"geomean {math.exp(sum(logs) / len(logs)):.3f} over {len(logs)}")
PY
}
# dyn_graph_bench DYN MS TIMEOUT: bench.py --dynamic on the dynamic-M
# bundles DYN (G1-G10 and S1-S8 at the comma-separated M of MS) against
# PyTorch's CUDA-graph chains, merged and split gate/up, ours per call
# (checked) and in a graph, within TIMEOUT seconds; results in $OUT/GS,
# the ceilings and dyn_graph_table's rows last. Needs $ff_build.
dyn_graph_bench() {
  export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
  mkdir -p $OUT
  FF_DYNAMIC_SWEEP_M=$2 timeout $3 python3 scripts/bench/bench.py --out $OUT/GS \
    --dynamic $1 --reps 100 --only dyn- \
    --baselines graph,graph_split,ours_dyn,ours_dyn_graph > $OUT/bench.log 2>&1
  echo "bench rc=$?"; grep -E "skipped|rror|FAIL" $OUT/bench.log | head
  rm -f $OUT/GS/*.png
  grep "Ceilings" $OUT/GS/README.md
  dyn_graph_table $OUT/GS/results.csv
}
# ncu_dur LABEL COMMAND...: each kernel COMMAND launches under ncu
# (--clock-control none, --cache-control none: gpu__time_duration), one
# line "LABEL kernel-name microseconds" per kernel.
ncu_dur() {
  local label=$1; shift
  timeout 120 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    --csv "$@" 2>/dev/null | python3 -c "
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 10]
hdr = rows[0]; k = hdr.index('Kernel Name'); v = hdr.index('Metric Value'); u = hdr.index('Metric Unit')
for r in rows[1:]:
    t = float(r[v].replace(',', '')) * {'nsecond': 1e-3, 'ns': 1e-3, 'usecond': 1, 'us': 1, 'msecond': 1e3, 'ms': 1e3}[r[u]]
    print('$label', r[k][:60], f'{t:.2f}')"
}
# ncu_rows CSV LABEL: an `ncu --csv --metrics ...` log as one line per
# profiled launch, "LABEL ID KERNEL name=value ...", with short names for
# the L2 request coalescer's counters (fifty-ninth session).
ncu_rows() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next((r for r in rows if r[:1] == ["ID"]), None)
if head is None:
    print(sys.argv[2], "no ncu rows")
    print("".join(open(sys.argv[1]).readlines()[-5:]))
    sys.exit()
c = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
short = {"gpu__time_duration.sum": "ns", "lts__t_bytes.sum": "ltsB",
         "lts__t_sectors_srcunit_tex_op_read.sum": "texSec",
         "lrc__xbar2lrc_requests_op_read.sum": "lrcReq",
         "lrc__request_sectors_op_read_coalescable.sum": "coalescable",
         "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum": "hw",
         "lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum": "prog",
         "lrc__lrc2xbar_sectors_op_read.sum": "lrc2xbar",
         "lrc__xbar2gpc_sectors_op_read.sum": "xbar2gpc",
         "l1tex__m_xbar2l1tex_read_bytes.sum": "l1B"}
by = {}
for r in rows:
    if len(r) == len(head) and r is not head:
        by.setdefault(r[c["ID"]], [r[c["Kernel Name"]][:16], {}])[1][
            r[c["Metric Name"]]] = r[c["Metric Value"]].replace(",", "")
for i, (name, m) in by.items():
    print(sys.argv[2], i, name, " ".join(f"{short.get(k, k)}={v}" for k, v in m.items()))
PY
}
