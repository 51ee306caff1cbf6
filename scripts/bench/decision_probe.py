#!/usr/bin/env python3
"""fallback="auto"'s decision against re-timings of both paths (GPU machine).

  FLASHFUSER_RUNTIME_LIB=build-rt/lib/libffrt.so \\
      python3 scripts/bench/decision_probe.py BUNDLES W1,W2,... [--rounds 4]

For each workload (scripts/bench/workloads.py names, inputs as bench.py
makes them, BUNDLES/W compiled with --weight-layout nk): loads the bundle
with fallback="auto", makes the deciding first call, then times the eager
chain, the fused path and the unfused path again --rounds times in
alternation with the timer the decision uses (flashfuser.fallback
event_timer: 3 warm-ups, 15 queued runs). A decision far from its
re-timings was spoiled by a transient (docs/validation.md, seventeenth
session).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundles")
    ap.add_argument("workloads")
    ap.add_argument("--rounds", type=int, default=4)
    a = ap.parse_args()
    sys.path.insert(0, HERE)
    import torch
    import bench
    import workloads
    from flashfuser.fallback import FUSED, UNFUSED, event_timer

    every = {w.name: w for w in workloads.all_workloads()}
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    timer = event_timer(torch.cuda.current_stream())
    for name in a.workloads.split(","):
        if name not in every:
            sys.exit(f"decision_probe: unknown workload {name}")
        w = every[name]
        inputs, eager, _ = bench.make(w, gen)
        fn, k = bench.ours_callable(w, inputs, a.bundles, fallback="auto")
        if fn is None:
            continue
        out = fn()                  # decides
        torch.cuda.synchronize()
        t = k.timings(w.m) or {}
        args = bench.ours_inputs(w, inputs, k.inputs)
        paths = {"eager": lambda: eager(*inputs),
                 FUSED: lambda: k._cached(args, out, None, FUSED),
                 UNFUSED: lambda: k._cached(args, out, None, UNFUSED)}
        cells = []
        for _ in range(a.rounds):
            cells.append(" ".join(f"{p} {timer(f, 3, 15) * 1e3:.1f}"
                                  for p, f in paths.items()))
        print(f"{name}: decided {k.choice(w.m)} (fused "
              f"{(t.get(FUSED) or 0) * 1e3:.1f}, unfused "
              f"{(t.get(UNFUSED) or 0) * 1e3:.1f} us) | "
              + " | ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
