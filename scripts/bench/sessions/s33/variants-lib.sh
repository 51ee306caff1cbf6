# Sourced by the session's *-variants.sh scripts (machine with the
# compiler): S() prints a hand-set #dsm.schedule, variants W SPEC... writes
# workload W's searched bundle ($dest/W-def) and one bundle per SPEC
# ("name|sequence index|schedule": that kernel of the searched sequence set
# by hand, splice.py) into $dest, which it empties first time round.
# $LOWER (optional) adds --lower-to-nvvm options to every bundle.
ffopt=${FF_OPT:-build/bin/ff-opt}
here=scripts/bench/sessions/s33
S() {  # cluster m,n,k | block m,n,k | grid m,n | stages | collectives | spatial
  echo "#dsm.schedule<cluster = [$1, 1], block = [$2, 16], grid = [$3, 1, 1], order = [m, n, k, l], spatial = [$6], residency = [], collectives = [$5], stages = $4, cost_ns = 0>"
}
variants() {
  local w=$1; shift
  python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  $ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=$dest/$w-def${LOWER:+ $LOWER}" -o /dev/null
  for spec in "$@"; do
    IFS="|" read -r v i sched <<< "$spec"
    python3 $here/splice.py /tmp/$w-s.mlir $i "$sched" > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=$dest/$w-$v${LOWER:+ $LOWER}" -o /dev/null
  done
}
K='all_exchange'; MNK='m, n, k'; MN='m, n'
rm -rf $dest && mkdir -p $dest
