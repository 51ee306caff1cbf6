# Sourced by the forty-second session's calls after
# scripts/gpu/build-runtime.sh (which sets $ffrun).
#   t DIR [M]: ff-run --bench 20 --graph median (us) of bundle DIR (at M)
#   c DIR [M]: PASS or FAIL of its --check (fp32 reference, fresh random data)
# Without M (or M = 0) a static bundle runs at its own M.
mflag() { [ "${1:-0}" != 0 ] && echo "--m $1"; }
t() { timeout 60 $ffrun $1 $(mflag ${2:-0}) --bench 20 --graph | sed -n 's/^bench: median \([0-9.]*\).*/\1/p'; }
c() { timeout 60 $ffrun $1 $(mflag ${2:-0}) --check 2>&1 | grep -oE "PASS|FAIL" | head -1; }
