"""Fifty-eighth session: cuBLAS's time for single GEMMs (F.linear, bf16,
weight [N, K]) timed as `ff-run --graph` times ours: a CUDA graph of 10
calls, median per call over 20 replays after warm-up. Arguments
NAME:M:N:K[:gated]; a gated one times gate and up as two linears (the
split chain) and as one merged [2N, K] linear."""
import statistics
import sys

import torch
import torch.nn.functional as F


def graph_us(fn):
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(10):
            fn()
    for _ in range(5):
        g.replay()
    times = []
    for _ in range(20):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1e3 / 10)
    return statistics.median(times)


for arg in sys.argv[1:]:
    f = arg.split(":")
    name, m, n, k = f[0], int(f[1]), int(f[2]), int(f[3])
    x = torch.randn(m, k, device="cuda").bfloat16()
    if len(f) > 4:
        wg = torch.randn(n, k, device="cuda").bfloat16()
        wu = torch.randn(n, k, device="cuda").bfloat16()
        wm = torch.cat([wg, wu])
        split = graph_us(lambda: (F.linear(x, wg), F.linear(x, wu)))
        merged = graph_us(lambda: F.linear(x, wm))
        print(f"cublas {name}{m} split {split:.2f} merged {merged:.2f} us")
    else:
        w = torch.randn(n, k, device="cuda").bfloat16()
        print(f"cublas {name}{m} {graph_us(lambda: F.linear(x, w)):.2f} us")
