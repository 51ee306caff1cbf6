# Sourced by the seventieth session's calls: builds the runtime (sets
# $ffrun), and `san TOOL TAG LIMIT ARGS...` runs compute-sanitizer TOOL on
# ARGS under a time limit, stdout line-buffered into $o/TOOL-TAG.txt (a
# timed-out run shows how far ff-run got), and appends a row to
# $o/table.md: PASS (exit 0 and 0 hazards or errors), TIMEOUT or FAIL,
# the seconds taken and the summary or the sanitizer's own error.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
d=.device/s70-race; o=${o:-/tmp/o}; mkdir -p $o
[ -f $o/table.md ] || printf '| run | tool | verdict | summary |\n|---|---|---|---|\n' > $o/table.md
san() { # tool tag limit args...
  local tool=$1 tag=$2 lim=$3; shift 3
  local f=$o/$tool-$tag.txt start=$(date +%s) v
  timeout $lim stdbuf -oL -eL compute-sanitizer --tool $tool --error-exitcode 9 "$@" > $f 2>&1
  local rc=$? t=$(( $(date +%s) - start ))
  if [ $rc = 124 ]; then v=TIMEOUT
  elif [ $rc = 0 ] && grep -q "SUMMARY: 0 \(hazards\|errors\)" $f; then v=PASS
  else v="FAIL rc=$rc"; fi
  echo "| $tag | $tool | $v ${t}s | $(grep -m1 'SUMMARY\|Internal Sanitizer Error' $f | cut -c1-90) |" >> $o/table.md
}
