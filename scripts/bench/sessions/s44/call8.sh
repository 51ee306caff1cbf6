#!/bin/bash
# Forty-fourth session, call 8 (built, not run: the session's device time
# ran out): snake rounds (`-snake`, --lower-to-nvvm=snake-rounds=true)
# against the default (`-base`) on the dynamic S2, S3, S5, S7
# (.device/s44-snake, both at the commit that adds the option), at M with
# a partial last m tile in persistent bins (257, 320, 448, 1000) and
# without (200: one tile per CTA; 384: full tiles). Each line: the snake
# bundle's check, then base, snake, base, snake (ff-run --bench 20
# --graph), printed as it goes; memcheck on S7's snake bundle at 257.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s44-snake
for w in S7 S3 S5 S2; do for m in 257 320 384 448 200 1000; do
  echo "$w $m check-snake $(c $D/$w-snake $m) base $(t $D/$w-base $m) snake $(t $D/$w-snake $m) base $(t $D/$w-base $m) snake $(t $D/$w-snake $m)"
done; done
echo "memcheck S7-snake M=257: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/S7-snake --m 257 --check 2>&1 | grep -E "ERROR SUMMARY|status=" | sed 's/.*status=/status=/' | tr '\n' ' ')"
