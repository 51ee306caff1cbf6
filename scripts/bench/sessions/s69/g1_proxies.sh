#!/bin/bash
# Sixty-ninth session: the bundles of call 1 (.device/s69-g1), on the
# machine with the compiler. G1 as searched (base) and on its streamed plan
# over all of L (st256); then streamed kernels of FFNs with G1's M, N, K
# and L = 64 or 128 (pL-<block>): each of their CTAs does what one CTA of
# a streamed G1 plan with grid_l = 4 or 2 would (that plan recomputes C per
# l tile; the lowering has no such plan). ACT=gelu_tanh is G1's activation
# (call 1's second run); its first run built the proxies with gelu_erf.
set -eu
D=${1:-.device/s69-g1}; ACT=${ACT:-gelu_tanh}
S="--weight-layout nk --search-options target=h200"
STREAMED="cluster=1,1,1,1 order=m,n,k,l spatial=m stages=3 collectives= residency="
H=scripts/bench/handset.py
python3 $H $D/G1-base --workload G1 $S
python3 $H $D/G1-st256 --workload G1 $S $STREAMED block=64,128,32,256 grid=2,1,1,1
for v in "64,128,32,64 2" "64,64,32,64 2" "128,128,32,64 1" "64,128,32,128 2"; do
  set -- $v; l=$(echo $1 | cut -d, -f4)
  python3 $H $D/p$l-$(echo $1 | tr , x) --ffn 128,512,32,$l,$ACT $S $STREAMED block=$1 grid=$2,1,1,1
done
