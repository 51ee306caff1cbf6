"""Sixtieth session (GPU machine): per-kernel CUDA times of our dynamic-M
bundle and of PyTorch's chains (merged and split gate/up) for the
workloads where the fifty-ninth session's table trailed PyTorch, from
torch.profiler (CUPTI sees the driver-API launches of our runtime too):
which half loses, and to which cuBLAS kernel. (usage: python3 THIS
TABLES W1,W2,... M1,M2,...; PYTHONPATH holds python/ and
FLASHFUSER_RUNTIME_LIB the runtime)"""
import collections
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import bench  # noqa: E402
import workloads as W  # noqa: E402

ITERS = 40


def kernel_times(fn):
    """{kernel name: mean us per call} over ITERS calls after warm-up."""
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(ITERS):
            fn()
        torch.cuda.synchronize()
    times = collections.OrderedDict()
    for e in prof.key_averages():
        if e.device_time_total > 0 and "Memcpy" not in e.key:
            times[e.key] = e.device_time_total / ITERS
    return times


def main():
    tables, names, ms = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
    base = {w.name: w for w in W.gemm_chains() + W.gated_chains()}
    gen = torch.Generator(device="cuda")
    for name in names:
        for m in (int(x) for x in ms.split(",")):
            b = base[name]
            w = W.Workload(f"dyn-{name}-m{m}", b.kind, m, b.n, b.k, b.l, b.act)
            gen.manual_seed(m)
            inputs, eager, _ = bench.make(w, gen)
            fns = {"torch": lambda: eager(*inputs)}
            split = bench.split_chain(w, inputs)
            if split:
                fns["torch_split"] = split
            ours, _ = bench.ours_callable(w, inputs, tables, dynamic=True)
            if ours:
                fns["ours"] = ours
            for label, fn in fns.items():
                times = kernel_times(fn)
                total = sum(times.values())
                print(f"{name} {m} {label} total {total:.2f}")
                for k, us in sorted(times.items(), key=lambda kv: -kv[1]):
                    print(f"{name} {m} {label}   {us:8.2f}  {k[:110]}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
