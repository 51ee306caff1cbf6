#!/usr/bin/env python3
"""Sixty-sixth session: the cached call's capture check asked of the driver
(ffrt_stream_capturing on the call's stream handle, the default now)
against PyTorch's hook (torch._C._cuda_isCurrentStreamCapturing, as
before), one Kernel of each per bundle, five alternating rounds. Per
round and kernel: bench.py's per-call figure (events around each call,
median of 200) and the host time per call (batches of 32, GPU drained
between them untimed); medians of the rounds.

  FLASHFUSER_RUNTIME_LIB=.../libffrt.so PYTHONPATH=python \\
      python3 capture_ab.py BUNDLE...
"""
import os
import statistics
import sys
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
import launch_overhead as lo  # noqa: E402


def main():
    torch, flashfuser, _runtime = lo.setup()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print("| bundle | events/call hook | events/call driver | ratio "
          "| host hook | host driver | ratio |")
    print("|---|---|---|---|---|---|---|")
    for b in sys.argv[1:]:
        kernels = {"driver": flashfuser.load(b)}
        with mock.patch.object(_runtime, "stream_capturing", lambda: None):
            kernels["hook"] = flashfuser.load(b)
            chain = kernels["hook"].manifest["chain"]
            m = chain["m"] if chain["m"] > 0 else 128
            inputs, out = lo.make_inputs(torch, kernels["hook"], m)
            for _ in range(8):     # registers with the patch in place
                kernels["hook"](*inputs, out=out)
        figs = lo.ab_figures(torch, kernels, inputs, out)
        for name, k in kernels.items():
            st = k._fast.stats() if k._fast is not None else {}
            assert st.get("hits", 0) > 4000, (name, st)
        ev = {k: statistics.median(v[0]) for k, v in figs.items()}
        ho = {k: statistics.median(v[1]) for k, v in figs.items()}
        print(f"| {os.path.basename(b.rstrip('/'))} | {ev['hook']:.2f} | "
              f"{ev['driver']:.2f} | {ev['hook'] / ev['driver']:.3f} | "
              f"{ho['hook']:.2f} | {ho['driver']:.2f} | "
              f"{ho['hook'] / ho['driver']:.3f} |")


if __name__ == "__main__":
    main()
